// SPDX-License-Identifier: Apache-2.0
// UART transmitter: 8 data bits, no parity, 1 stop bit, LSB first, idle high.
//
// ClkDiv is the number of clock cycles per bit (clock / baud). A byte is
// taken with valid_i && ready_o; ready_o is high only while the line is
// idle, i.e. from the cycle after the stop bit of the previous byte ends.
//
// Timing: the start bit begins the cycle after the handshake; a byte takes
// 10 * ClkDiv cycles, so a sender that keeps valid_i high gets back-to-back
// bytes with one idle cycle between them (a 1/ClkDiv-bit gap).
module uart_tx #(
  parameter int unsigned ClkDiv = 16
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       valid_i,
  input  logic [7:0] data_i,
  output logic       ready_o,
  output logic       tx_o
);

  localparam int unsigned CntW = $clog2(ClkDiv) + 1;
  localparam logic [CntW-1:0] FullBit = CntW'(ClkDiv - 1);

  logic            busy_q, busy_d;
  logic [9:0]      shift_q, shift_d;  // {stop, data, start}, LSB goes first
  logic [3:0]      bits_q, bits_d;    // bits still to send, the current one included
  logic [CntW-1:0] cnt_q, cnt_d;
  logic            tx_q, tx_d;

  assign ready_o = !busy_q;

  always_comb begin
    busy_d  = busy_q;
    shift_d = shift_q;
    bits_d  = bits_q;
    cnt_d   = cnt_q;
    tx_d    = tx_q;
    if (!busy_q) begin
      tx_d = 1'b1;
      if (valid_i) begin
        busy_d  = 1'b1;
        shift_d = {1'b1, data_i, 1'b0};
        bits_d  = 4'd10;
        cnt_d   = FullBit;
        tx_d    = 1'b0;  // the start bit
      end
    end else if (cnt_q != '0) begin
      cnt_d = cnt_q - 1'b1;
    end else if (bits_q == 4'd1) begin
      busy_d = 1'b0;
      tx_d   = 1'b1;
    end else begin
      shift_d = {1'b1, shift_q[9:1]};
      bits_d  = bits_q - 1'b1;
      cnt_d   = FullBit;
      tx_d    = shift_q[1];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      shift_q <= '1;
      bits_q  <= '0;
      cnt_q   <= '0;
      tx_q    <= 1'b1;
    end else begin
      busy_q  <= busy_d;
      shift_q <= shift_d;
      bits_q  <= bits_d;
      cnt_q   <= cnt_d;
      tx_q    <= tx_d;
    end
  end

  // Registered output: no glitches on the pin.
  assign tx_o = tx_q;

endmodule : uart_tx
