// SPDX-License-Identifier: Apache-2.0
// Bound into every axi4_arbiter (the bind at the end of this file): one protocol checker
// per master port and one on the slave port. Its ports are the arbiter's,
// all inputs, connected by name.
module axi4_arbiter_dv #(
  parameter int unsigned NMasters = 2,
  parameter int unsigned IdW      = 4,
  parameter int unsigned AddrW    = 32,
  parameter int unsigned UserW    = 1,
  localparam int unsigned MW      = (NMasters > 1) ? $clog2(NMasters) : 1,
  localparam int unsigned OIdW    = IdW + MW
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic [NMasters-1:0]       m_awvalid_i,
  input logic [NMasters-1:0]       m_awready_o,
  input logic [NMasters*IdW-1:0]   m_awid_i,
  input logic [NMasters*AddrW-1:0] m_awaddr_i,
  input logic [NMasters*UserW-1:0] m_awuser_i,
  input logic [NMasters*8-1:0]     m_awlen_i,
  input logic [NMasters*3-1:0]     m_awsize_i,
  input logic [NMasters*2-1:0]     m_awburst_i,
  input logic [NMasters-1:0]       m_wvalid_i,
  input logic [NMasters-1:0]       m_wready_o,
  input logic [NMasters*64-1:0]    m_wdata_i,
  input logic [NMasters*8-1:0]     m_wstrb_i,
  input logic [NMasters-1:0]       m_wlast_i,
  input logic [NMasters-1:0]       m_bvalid_o,
  input logic [NMasters-1:0]       m_bready_i,
  input logic [NMasters*IdW-1:0]   m_bid_o,
  input logic [NMasters*2-1:0]     m_bresp_o,
  input logic [NMasters-1:0]       m_arvalid_i,
  input logic [NMasters-1:0]       m_arready_o,
  input logic [NMasters*IdW-1:0]   m_arid_i,
  input logic [NMasters*AddrW-1:0] m_araddr_i,
  input logic [NMasters*UserW-1:0] m_aruser_i,
  input logic [NMasters*8-1:0]     m_arlen_i,
  input logic [NMasters*3-1:0]     m_arsize_i,
  input logic [NMasters*2-1:0]     m_arburst_i,
  input logic [NMasters-1:0]       m_rvalid_o,
  input logic [NMasters-1:0]       m_rready_i,
  input logic [NMasters*IdW-1:0]   m_rid_o,
  input logic [NMasters*64-1:0]    m_rdata_o,
  input logic [NMasters*2-1:0]     m_rresp_o,
  input logic [NMasters-1:0]       m_rlast_o,
  input logic                      s_awvalid_o,
  input logic                      s_awready_i,
  input logic [OIdW-1:0]           s_awid_o,
  input logic [AddrW-1:0]          s_awaddr_o,
  input logic [UserW-1:0]          s_awuser_o,
  input logic [7:0]                s_awlen_o,
  input logic [2:0]                s_awsize_o,
  input logic [1:0]                s_awburst_o,
  input logic                      s_wvalid_o,
  input logic                      s_wready_i,
  input logic [63:0]               s_wdata_o,
  input logic [7:0]                s_wstrb_o,
  input logic                      s_wlast_o,
  input logic                      s_bvalid_i,
  input logic                      s_bready_o,
  input logic [OIdW-1:0]           s_bid_i,
  input logic [1:0]                s_bresp_i,
  input logic                      s_arvalid_o,
  input logic                      s_arready_i,
  input logic [OIdW-1:0]           s_arid_o,
  input logic [AddrW-1:0]          s_araddr_o,
  input logic [UserW-1:0]          s_aruser_o,
  input logic [7:0]                s_arlen_o,
  input logic [2:0]                s_arsize_o,
  input logic [1:0]                s_arburst_o,
  input logic                      s_rvalid_i,
  input logic                      s_rready_o,
  input logic [OIdW-1:0]           s_rid_i,
  input logic [63:0]               s_rdata_i,
  input logic [1:0]                s_rresp_i,
  input logic                      s_rlast_i
);

  for (genvar m = 0; m < NMasters; m++) begin : g_master
    axi4_protocol_checker #(.IdW(IdW), .AddrW(AddrW), .DataW(64), .UserW(UserW)) u_chk (
      .clk_i, .rst_ni,
      .awvalid_i (m_awvalid_i[m]), .awready_i (m_awready_o[m]), .awid_i (m_awid_i[m*IdW +: IdW]),
      .awaddr_i (m_awaddr_i[m*AddrW +: AddrW]), .awlen_i (m_awlen_i[m*8 +: 8]),
      .awsize_i (m_awsize_i[m*3 +: 3]), .awburst_i (m_awburst_i[m*2 +: 2]),
      .awuser_i (m_awuser_i[m*UserW +: UserW]),
      .wvalid_i (m_wvalid_i[m]), .wready_i (m_wready_o[m]), .wdata_i (m_wdata_i[m*64 +: 64]),
      .wstrb_i (m_wstrb_i[m*8 +: 8]), .wlast_i (m_wlast_i[m]),
      .bvalid_i (m_bvalid_o[m]), .bready_i (m_bready_i[m]), .bid_i (m_bid_o[m*IdW +: IdW]),
      .bresp_i (m_bresp_o[m*2 +: 2]),
      .arvalid_i (m_arvalid_i[m]), .arready_i (m_arready_o[m]), .arid_i (m_arid_i[m*IdW +: IdW]),
      .araddr_i (m_araddr_i[m*AddrW +: AddrW]), .arlen_i (m_arlen_i[m*8 +: 8]),
      .arsize_i (m_arsize_i[m*3 +: 3]), .arburst_i (m_arburst_i[m*2 +: 2]),
      .aruser_i (m_aruser_i[m*UserW +: UserW]),
      .rvalid_i (m_rvalid_o[m]), .rready_i (m_rready_i[m]), .rid_i (m_rid_o[m*IdW +: IdW]),
      .rdata_i (m_rdata_o[m*64 +: 64]), .rresp_i (m_rresp_o[m*2 +: 2]), .rlast_i (m_rlast_o[m])
    );
  end

  axi4_protocol_checker #(.IdW(OIdW), .AddrW(AddrW), .DataW(64), .UserW(UserW)) u_slave_chk (
    .clk_i, .rst_ni,
    .awvalid_i (s_awvalid_o), .awready_i (s_awready_i), .awid_i (s_awid_o), .awaddr_i (s_awaddr_o),
    .awlen_i (s_awlen_o), .awsize_i (s_awsize_o), .awburst_i (s_awburst_o), .awuser_i (s_awuser_o),
    .wvalid_i (s_wvalid_o), .wready_i (s_wready_i), .wdata_i (s_wdata_o), .wstrb_i (s_wstrb_o),
    .wlast_i (s_wlast_o),
    .bvalid_i (s_bvalid_i), .bready_i (s_bready_o), .bid_i (s_bid_i), .bresp_i (s_bresp_i),
    .arvalid_i (s_arvalid_o), .arready_i (s_arready_i), .arid_i (s_arid_o), .araddr_i (s_araddr_o),
    .arlen_i (s_arlen_o), .arsize_i (s_arsize_o), .arburst_i (s_arburst_o), .aruser_i (s_aruser_o),
    .rvalid_i (s_rvalid_i), .rready_i (s_rready_o), .rid_i (s_rid_i), .rdata_i (s_rdata_i),
    .rresp_i (s_rresp_i), .rlast_i (s_rlast_i)
  );

endmodule : axi4_arbiter_dv

// Every axi4_arbiter carries one (the parameters are the bound instance's).
bind axi4_arbiter axi4_arbiter_dv #(
  .NMasters (NMasters), .IdW (IdW), .AddrW (AddrW), .UserW (UserW)
) u_axi4_arbiter_dv (.*);
