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
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  output logic        tx_valid_o,
  output logic [7:0]  tx_data_o,
  input  logic        tx_ready_i
);

  logic [15:0] reg_off;
  logic        tx_write, wr;
  logic [31:0] rdata;

  // Writes to TX complete when the byte is taken; everything else at once.
  prim_wb_reg u_port (
    .clk_i, .rst_ni, .wb_i, .wb_o,
    .ready_i (!tx_write || tx_ready_i), .wr_o (wr), .rdata_i (rdata)
  );

  assign reg_off  = {4'b0, wb_i.adr[9:0], 2'b00};  // offset within the 4 KiB block
  assign tx_write = wb_i.cyc && wb_i.stb && wb_i.we && !wb_o.ack && (reg_off == CONSOLE_TX);
  assign rdata    = (reg_off == CONSOLE_STATUS) ? {31'b0, tx_ready_i} : '0;

  assign tx_valid_o = tx_write;
  assign tx_data_o  = wb_i.dat[7:0];

  // Registers decode the low address bits only (the decoder checked the
  // rest); TX takes one byte, as offered (its write needs nothing else).
  logic unused;
  assign unused = ^{wb_i.adr[29:10], wb_i.dat[31:8], wr};

endmodule : wb_console
