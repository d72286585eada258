// SPDX-License-Identifier: Apache-2.0
// UART receiver: 8 data bits, no parity, 1 stop bit, LSB first, idle high.
//
// ClkDiv is the number of clock cycles per bit (clock / baud, at least 4).
// The line passes a two-flop synchroniser; a falling edge starts a byte,
// the start bit is checked again half a bit later (shorter low pulses are
// ignored as glitches) and each following bit is sampled in its middle.
//
// Timing: valid_o (or frame_err_o, when the stop bit reads 0) pulses for
// one cycle in the middle of the stop bit, about 9.5 bit times plus two
// cycles after the start edge; data_o holds the byte until the next one.
// The receiver hunts for the next start bit from the cycle after, so
// back-to-back bytes from a sender up to about 4% faster are taken.
module uart_rx #(
  parameter int unsigned ClkDiv = 16
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       rx_i,
  output logic       valid_o,
  output logic [7:0] data_o,
  output logic       frame_err_o
);

  localparam int unsigned CntW = $clog2(ClkDiv) + 1;
  localparam logic [CntW-1:0] FullBit = CntW'(ClkDiv - 1);
  localparam logic [CntW-1:0] HalfBit = CntW'(ClkDiv / 2 - 1);

  typedef enum logic [1:0] { StIdle, StStart, StData, StStop } state_e;

  state_e          state_q, state_d;
  logic [1:0]      sync_q;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [2:0]      bit_q, bit_d;
  logic [7:0]      shift_q, shift_d;
  logic            valid_d, frame_err_d, valid_q, frame_err_q;
  logic            rx;

  assign rx = sync_q[1];

  always_comb begin
    state_d     = state_q;
    cnt_d       = cnt_q;
    bit_d       = bit_q;
    shift_d     = shift_q;
    valid_d     = 1'b0;
    frame_err_d = 1'b0;
    unique case (state_q)
      StIdle: begin
        if (!rx) begin
          state_d = StStart;
          cnt_d   = HalfBit;
        end
      end
      StStart: begin
        if (cnt_q != '0) begin
          cnt_d = cnt_q - 1'b1;
        end else if (!rx) begin
          state_d = StData;
          cnt_d   = FullBit;
          bit_d   = '0;
        end else begin
          state_d = StIdle;  // a glitch, not a start bit
        end
      end
      StData: begin
        if (cnt_q != '0) begin
          cnt_d = cnt_q - 1'b1;
        end else begin
          shift_d = {rx, shift_q[7:1]};
          cnt_d   = FullBit;
          bit_d   = bit_q + 1'b1;
          if (bit_q == 3'd7) state_d = StStop;
        end
      end
      StStop: begin
        if (cnt_q != '0) begin
          cnt_d = cnt_q - 1'b1;
        end else begin
          valid_d     = rx;
          frame_err_d = !rx;
          state_d     = StIdle;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= StIdle;
      sync_q      <= 2'b11;
      cnt_q       <= '0;
      bit_q       <= '0;
      shift_q     <= '0;
      valid_q     <= 1'b0;
      frame_err_q <= 1'b0;
    end else begin
      state_q     <= state_d;
      sync_q      <= {sync_q[0], rx_i};
      cnt_q       <= cnt_d;
      bit_q       <= bit_d;
      shift_q     <= shift_d;
      valid_q     <= valid_d;
      frame_err_q <= frame_err_d;
    end
  end

  assign valid_o     = valid_q;
  assign frame_err_o = frame_err_q;
  assign data_o      = shift_q;

endmodule : uart_rx
