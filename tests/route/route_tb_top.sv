// SPDX-License-Identifier: Apache-2.0
// Testbench top for the segment router: axi4_demux with three slaves, the
// third an axi4_err_slave as in soc_top; slaves 0 and 1 are left to the C
// models (tests/route). Per-slave handshakes are vectors, payloads shared.
module route_tb_top #(
  localparam int unsigned IdW = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  input  logic             m_awvalid_i,
  output logic             m_awready_o,
  input  logic [1:0]       m_awsel_i,
  input  logic [IdW-1:0]   m_awid_i,
  input  logic [63:0]      m_awaddr_i,
  input  logic [7:0]       m_awlen_i,
  input  logic             m_awuser_i,
  input  logic             m_wvalid_i,
  output logic             m_wready_o,
  input  logic [63:0]      m_wdata_i,
  input  logic [7:0]       m_wstrb_i,
  input  logic             m_wlast_i,
  output logic             m_bvalid_o,
  input  logic             m_bready_i,
  output logic [IdW-1:0]   m_bid_o,
  output logic [1:0]       m_bresp_o,
  input  logic             m_arvalid_i,
  output logic             m_arready_o,
  input  logic [1:0]       m_arsel_i,
  input  logic [IdW-1:0]   m_arid_i,
  input  logic [63:0]      m_araddr_i,
  input  logic [7:0]       m_arlen_i,
  input  logic             m_aruser_i,
  output logic             m_rvalid_o,
  input  logic             m_rready_i,
  output logic [IdW-1:0]   m_rid_o,
  output logic [63:0]      m_rdata_o,
  output logic [1:0]       m_rresp_o,
  output logic             m_rlast_o,

  output logic [1:0]       s_awvalid_o,
  input  logic [1:0]       s_awready_i,
  output logic [IdW-1:0]   s_awid_o,
  output logic [63:0]      s_awaddr_o,
  output logic [7:0]       s_awlen_o,
  output logic             s_awuser_o,
  output logic [1:0]       s_wvalid_o,
  input  logic [1:0]       s_wready_i,
  output logic [63:0]      s_wdata_o,
  output logic [7:0]       s_wstrb_o,
  output logic             s_wlast_o,
  input  logic [1:0]       s_bvalid_i,
  output logic [1:0]       s_bready_o,
  input  logic [2*IdW-1:0] s_bid_i,
  input  logic [3:0]       s_bresp_i,
  output logic [1:0]       s_arvalid_o,
  input  logic [1:0]       s_arready_i,
  output logic [IdW-1:0]   s_arid_o,
  output logic [63:0]      s_araddr_o,
  output logic [7:0]       s_arlen_o,
  output logic             s_aruser_o,
  input  logic [1:0]       s_rvalid_i,
  output logic [1:0]       s_rready_o,
  input  logic [2*IdW-1:0] s_rid_i,
  input  logic [127:0]     s_rdata_i,
  input  logic [3:0]       s_rresp_i,
  input  logic [1:0]       s_rlast_i
);

  logic [2:0]       awvalid, awready, wvalid, wready, bvalid, bready;
  logic [2:0]       arvalid, arready, rvalid, rready, rlast;
  logic [3*IdW-1:0] bid, rid;
  logic [5:0]       bresp, rresp;
  logic [191:0]     rdata;
  logic [2:0]       awsize, arsize;
  logic [1:0]       awburst, arburst;

  axi4_demux #(.NSlaves(3), .IdW(IdW), .AddrW(64), .UserW(1)) u_dut (
    .clk_i, .rst_ni,
    .m_awvalid_i, .m_awready_o, .m_awsel_i, .m_awid_i, .m_awaddr_i, .m_awlen_i,
    .m_awsize_i (3'd3), .m_awburst_i (2'b01), .m_awuser_i,
    .m_wvalid_i, .m_wready_o, .m_wdata_i, .m_wstrb_i, .m_wlast_i,
    .m_bvalid_o, .m_bready_i, .m_bid_o, .m_bresp_o,
    .m_arvalid_i, .m_arready_o, .m_arsel_i, .m_arid_i, .m_araddr_i, .m_arlen_i,
    .m_arsize_i (3'd3), .m_arburst_i (2'b01), .m_aruser_i,
    .m_rvalid_o, .m_rready_i, .m_rid_o, .m_rdata_o, .m_rresp_o, .m_rlast_o,
    .s_awvalid_o (awvalid), .s_awready_i (awready), .s_awid_o, .s_awaddr_o, .s_awlen_o,
    .s_awsize_o (awsize), .s_awburst_o (awburst), .s_awuser_o,
    .s_wvalid_o (wvalid), .s_wready_i (wready), .s_wdata_o, .s_wstrb_o, .s_wlast_o,
    .s_bvalid_i (bvalid), .s_bready_o (bready), .s_bid_i (bid), .s_bresp_i (bresp),
    .s_arvalid_o (arvalid), .s_arready_i (arready), .s_arid_o, .s_araddr_o, .s_arlen_o,
    .s_arsize_o (arsize), .s_arburst_o (arburst), .s_aruser_o,
    .s_rvalid_i (rvalid), .s_rready_o (rready), .s_rid_i (rid), .s_rdata_i (rdata),
    .s_rresp_i (rresp), .s_rlast_i (rlast)
  );

  axi4_err_slave #(.IdW(IdW)) u_err (
    .clk_i, .rst_ni,
    .awvalid_i (awvalid[2]), .awready_o (awready[2]), .awid_i (s_awid_o),
    .wvalid_i (wvalid[2]), .wready_o (wready[2]), .wlast_i (s_wlast_o),
    .bvalid_o (bvalid[2]), .bready_i (bready[2]), .bid_o (bid[2*IdW +: IdW]),
    .bresp_o (bresp[5:4]),
    .arvalid_i (arvalid[2]), .arready_o (arready[2]), .arid_i (s_arid_o), .arlen_i (s_arlen_o),
    .rvalid_o (rvalid[2]), .rready_i (rready[2]), .rid_o (rid[2*IdW +: IdW]),
    .rdata_o (rdata[191:128]), .rresp_o (rresp[5:4]), .rlast_o (rlast[2])
  );

  assign s_awvalid_o = awvalid[1:0];
  assign awready[1:0] = s_awready_i;
  assign s_wvalid_o = wvalid[1:0];
  assign wready[1:0] = s_wready_i;
  assign bvalid[1:0] = s_bvalid_i;
  assign s_bready_o = bready[1:0];
  assign bid[2*IdW-1:0] = s_bid_i;
  assign bresp[3:0] = s_bresp_i;
  assign s_arvalid_o = arvalid[1:0];
  assign arready[1:0] = s_arready_i;
  assign rvalid[1:0] = s_rvalid_i;
  assign s_rready_o = rready[1:0];
  assign rid[2*IdW-1:0] = s_rid_i;
  assign rdata[127:0] = s_rdata_i;
  assign rresp[3:0] = s_rresp_i;
  assign rlast[1:0] = s_rlast_i;

  // Size and burst are fixed here (the engines' shape); not checked.
  logic unused;
  assign unused = ^{awsize, awburst, arsize, arburst};

endmodule : route_tb_top
