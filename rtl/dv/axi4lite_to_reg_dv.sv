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
  input axi4_pkg::axil_req_t  axil_i,
  input axi4_pkg::axil_rsp_t  axil_o,
  input axi4_pkg::reg_req_t   reg_o
);

  axi4_protocol_checker #(.IdW(1), .AddrW(AddrWidth), .DataW(32), .UserW(1)) u_chk (
    .clk_i, .rst_ni,
    .awvalid_i (axil_i.aw_valid), .awready_i (axil_o.aw_ready), .awid_i (1'b0),
    .awaddr_i (axil_i.aw_addr[AddrWidth-1:0]), .awlen_i (8'd0), .awsize_i (3'd2),
    .awburst_i (2'b01), .awuser_i (1'b0),
    .wvalid_i (axil_i.w_valid), .wready_i (axil_o.w_ready), .wdata_i (axil_i.w_data),
    .wstrb_i (axil_i.w_strb), .wlast_i (1'b1),
    .bvalid_i (axil_o.b_valid), .bready_i (axil_i.b_ready), .bid_i (1'b0),
    .bresp_i (axil_o.b_resp),
    .arvalid_i (axil_i.ar_valid), .arready_i (axil_o.ar_ready), .arid_i (1'b0),
    .araddr_i (axil_i.ar_addr[AddrWidth-1:0]), .arlen_i (8'd0), .arsize_i (3'd2),
    .arburst_i (2'b01), .aruser_i (1'b0),
    .rvalid_i (axil_o.r_valid), .rready_i (axil_i.r_ready), .rid_i (1'b0),
    .rdata_i (axil_o.r_data), .rresp_i (axil_o.r_resp), .rlast_i (1'b1)
  );

  logic unused;
  assign unused = ^{axil_i, axil_o, reg_o};

  `ASSERT_OFF(off)

  `ASSERT_KNOWN(reg_req_known, reg_o.req, clk_i, off)
  `ASSERT_KNOWN_IF(reg_cmd_known, {reg_o.we, reg_o.addr}, reg_o.req, clk_i, off)
  `ASSERT_KNOWN_IF(rdata_known, axil_o.r_data, axil_o.r_valid, clk_i, off)

endmodule : axi4lite_to_reg_dv

// Every axi4lite_to_reg carries one (the parameters are the bound instance's).
bind axi4lite_to_reg axi4lite_to_reg_dv #(.AddrWidth (AddrWidth)) u_axi4lite_to_reg_dv (.*);
