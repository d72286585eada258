// SPDX-License-Identifier: Apache-2.0
// Bound into every axi4lite_to_reg (the bind at the end of this file): the protocol
// checker on its AXI4-Lite slave port (BAR0 and BAR1 of soc_top), with the
// fields AXI4-Lite does not have tied to one-beat, full-width, ID 0 values;
// and no X on the register port's request or the data of a read answered.
`include "prim_assert.svh"

module axi4lite_to_reg_dv #(
  parameter int unsigned AddrWidth = 16
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 awvalid_i,
  input logic                 awready_o,
  input logic [AddrWidth-1:0] awaddr_i,
  input logic                 wvalid_i,
  input logic                 wready_o,
  input logic [31:0]          wdata_i,
  input logic [3:0]           wstrb_i,
  input logic                 bvalid_o,
  input logic                 bready_i,
  input logic [1:0]           bresp_o,
  input logic                 arvalid_i,
  input logic                 arready_o,
  input logic [AddrWidth-1:0] araddr_i,
  input logic                 rvalid_o,
  input logic                 rready_i,
  input logic [31:0]          rdata_o,
  input logic [1:0]           rresp_o,
  input logic                 reg_req_o,
  input logic                 reg_we_o,
  input logic [AddrWidth-1:0] reg_addr_o
);

  axi4_protocol_checker #(.IdW(1), .AddrW(AddrWidth), .DataW(32), .UserW(1)) u_chk (
    .clk_i, .rst_ni,
    .awvalid_i, .awready_i (awready_o), .awid_i (1'b0), .awaddr_i, .awlen_i (8'd0),
    .awsize_i (3'd2), .awburst_i (2'b01), .awuser_i (1'b0),
    .wvalid_i, .wready_i (wready_o), .wdata_i, .wstrb_i, .wlast_i (1'b1),
    .bvalid_i (bvalid_o), .bready_i, .bid_i (1'b0), .bresp_i (bresp_o),
    .arvalid_i, .arready_i (arready_o), .arid_i (1'b0), .araddr_i, .arlen_i (8'd0),
    .arsize_i (3'd2), .arburst_i (2'b01), .aruser_i (1'b0),
    .rvalid_i (rvalid_o), .rready_i, .rid_i (1'b0), .rdata_i (rdata_o), .rresp_i (rresp_o),
    .rlast_i (1'b1)
  );

  logic active_q;
  always_ff @(negedge clk_i or negedge rst_ni) begin
    if (!rst_ni) active_q <= 1'b0;
    else         active_q <= 1'b1;
  end

  `ASSERT_KNOWN(reg_req_known, reg_req_o, clk_i, !active_q)
  `ASSERT_KNOWN_IF(reg_cmd_known, {reg_we_o, reg_addr_o}, reg_req_o, clk_i, !active_q)
  `ASSERT_KNOWN_IF(rdata_known, rdata_o, rvalid_o, clk_i, !active_q)

endmodule : axi4lite_to_reg_dv

// Every axi4lite_to_reg carries one (the parameters are the bound instance's).
bind axi4lite_to_reg axi4lite_to_reg_dv #(.AddrWidth (AddrWidth)) u_axi4lite_to_reg_dv (.*);
