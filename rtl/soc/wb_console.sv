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

  logic        ack_q;
  logic [31:0] rdata_q;
  logic [15:0] reg_off;
  logic        tx_write;
  logic        accept;

  assign reg_off  = {4'b0, wb_i.adr[9:0], 2'b00};  // offset within the 4 KiB block
  assign tx_write = wb_i.cyc && wb_i.stb && wb_i.we && !ack_q && (reg_off == CONSOLE_TX);
  // Writes to TX complete when the byte is taken; everything else at once.
  assign accept   = wb_i.cyc && wb_i.stb && !ack_q && (!tx_write || tx_ready_i);

  assign tx_valid_o = tx_write;
  assign tx_data_o  = wb_i.dat[7:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ack_q   <= 1'b0;
      rdata_q <= '0;
    end else begin
      ack_q <= accept;
      if (accept && !wb_i.we) rdata_q <= (reg_off == CONSOLE_STATUS) ? {31'b0, tx_ready_i} : '0;
    end
  end

  assign wb_o.ack = ack_q;
  assign wb_o.err = 1'b0;
  assign wb_o.dat = rdata_q;

  // Registers decode the low address bits only (the decoder checked the
  // rest); TX takes one byte.
  logic unused_req;
  assign unused_req = ^{wb_i.adr[29:10], wb_i.dat[31:8], wb_i.sel, wb_i.cti};

endmodule : wb_console
