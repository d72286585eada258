// SPDX-License-Identifier: Apache-2.0
// Console output device, a Wishbone slave.
//
// A write to TX hands one byte to the byte stream (valid/ready). The bus
// write is held (no ACK) until the stream accepts the byte, so a slow UART on
// a board back-pressures the CPU instead of dropping characters. In
// simulation the harness accepts every byte at once.
module wb_console
  import gmmu_soc_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        cyc_i,
  input  logic        stb_i,
  input  logic        we_i,
  input  logic [29:0] adr_i,
  input  logic [31:0] dat_i,
  output logic        ack_o,
  output logic [31:0] dat_o,

  output logic        tx_valid_o,
  output logic [7:0]  tx_data_o,
  input  logic        tx_ready_i
);

  logic        ack_q;
  logic [15:0] reg_off;
  logic        tx_write;
  logic        accept;

  assign reg_off  = {4'b0, adr_i[9:0], 2'b00};  // offset within the 4 KiB block
  assign tx_write = cyc_i && stb_i && we_i && !ack_q && (reg_off == CONSOLE_TX);
  // Writes to TX complete when the byte is taken; everything else at once.
  assign accept   = cyc_i && stb_i && !ack_q && (!tx_write || tx_ready_i);

  assign tx_valid_o = tx_write;
  assign tx_data_o  = dat_i[7:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ack_q <= 1'b0;
      dat_o <= '0;
    end else begin
      ack_q <= accept;
      if (accept && !we_i) dat_o <= (reg_off == CONSOLE_STATUS) ? {31'b0, tx_ready_i} : '0;
    end
  end

  assign ack_o = ack_q;

  // Registers decode the low address bits only; the decoder checked the rest.
  logic unused_adr;
  assign unused_adr = ^adr_i[29:10];
  logic unused_dat;
  assign unused_dat = ^dat_i[31:8];  // TX takes one byte

endmodule : wb_console
