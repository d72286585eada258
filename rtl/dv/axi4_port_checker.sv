// SPDX-License-Identifier: Apache-2.0
// axi4_protocol_checker on a port given as axi4_pkg's request and response
// structs (the interconnect's: rtl/dv/axi4_arbiter_dv.sv, axi4_demux_dv.sv).
// IdW and UserW are how many low bits of the ID and user fields the port
// uses (its upper bits are 0), so the checker keeps state for 2^IdW IDs
// only; side_aw_i and side_ar_i are checked as more user bits, for a
// sideband that travels beside the struct (axi4_demux's select). Every port
// is an input; timing as axi4_protocol_checker.
module axi4_port_checker #(
  parameter int unsigned IdW   = 4,
  parameter int unsigned UserW = 1,
  parameter int unsigned SideW = 1,
  parameter bit          OwnGate = 1'b1  // axi4_protocol_checker's
) (
  input logic                clk_i,
  input logic                rst_ni,
  input axi4_pkg::axi4_req_t req_i,
  input axi4_pkg::axi4_rsp_t rsp_i,
  input logic [SideW-1:0]    side_aw_i,
  input logic [SideW-1:0]    side_ar_i
);

  axi4_protocol_checker #(
    .IdW (IdW), .AddrW (axi4_pkg::ADDR_W), .DataW (axi4_pkg::DATA_W), .UserW (UserW + SideW),
    .OwnGate (OwnGate)
  ) u_chk (
    .clk_i, .rst_ni,
    .awvalid_i (req_i.aw_valid), .awready_i (rsp_i.aw_ready), .awid_i (req_i.aw.id[IdW-1:0]),
    .awaddr_i (req_i.aw.addr), .awlen_i (req_i.aw.len), .awsize_i (req_i.aw.size),
    .awburst_i (req_i.aw.burst), .awuser_i ({side_aw_i, req_i.aw.user[UserW-1:0]}),
    .wvalid_i (req_i.w_valid), .wready_i (rsp_i.w_ready), .wdata_i (req_i.w.data),
    .wstrb_i (req_i.w.strb), .wlast_i (req_i.w.last),
    .bvalid_i (rsp_i.b_valid), .bready_i (req_i.b_ready), .bid_i (rsp_i.b.id[IdW-1:0]),
    .bresp_i (rsp_i.b.resp),
    .arvalid_i (req_i.ar_valid), .arready_i (rsp_i.ar_ready), .arid_i (req_i.ar.id[IdW-1:0]),
    .araddr_i (req_i.ar.addr), .arlen_i (req_i.ar.len), .arsize_i (req_i.ar.size),
    .arburst_i (req_i.ar.burst), .aruser_i ({side_ar_i, req_i.ar.user[UserW-1:0]}),
    .rvalid_i (rsp_i.r_valid), .rready_i (req_i.r_ready), .rid_i (rsp_i.r.id[IdW-1:0]),
    .rdata_i (rsp_i.r.data), .rresp_i (rsp_i.r.resp), .rlast_i (rsp_i.r.last)
  );

  logic unused;
  assign unused = ^{req_i, rsp_i};

endmodule : axi4_port_checker
