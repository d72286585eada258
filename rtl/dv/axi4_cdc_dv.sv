// SPDX-License-Identifier: Apache-2.0
// Bound into every axi4_cdc: a protocol checker on each side (u_s_chk, u_m_chk), each
// on its own clock and reset, connected to the crossing's ports in the
// binds (parameters and ports are the bound instance's).

bind axi4_cdc axi4_protocol_checker #(
  .IdW (IdW), .AddrW (AddrW), .DataW (DataW), .UserW (1)
) u_s_chk (
  .clk_i (s_clk_i), .rst_ni (s_rst_ni),
  .awvalid_i (s_awvalid_i), .awready_i (s_awready_o), .awid_i (s_awid_i), .awaddr_i (s_awaddr_i),
  .awlen_i (s_awlen_i), .awsize_i (s_awsize_i), .awburst_i (s_awburst_i), .awuser_i (1'b0),
  .wvalid_i (s_wvalid_i), .wready_i (s_wready_o), .wdata_i (s_wdata_i), .wstrb_i (s_wstrb_i),
  .wlast_i (s_wlast_i),
  .bvalid_i (s_bvalid_o), .bready_i (s_bready_i), .bid_i (s_bid_o), .bresp_i (s_bresp_o),
  .arvalid_i (s_arvalid_i), .arready_i (s_arready_o), .arid_i (s_arid_i), .araddr_i (s_araddr_i),
  .arlen_i (s_arlen_i), .arsize_i (s_arsize_i), .arburst_i (s_arburst_i), .aruser_i (1'b0),
  .rvalid_i (s_rvalid_o), .rready_i (s_rready_i), .rid_i (s_rid_o), .rdata_i (s_rdata_o),
  .rresp_i (s_rresp_o), .rlast_i (s_rlast_o)
);

bind axi4_cdc axi4_protocol_checker #(
  .IdW (IdW), .AddrW (AddrW), .DataW (DataW), .UserW (1)
) u_m_chk (
  .clk_i (m_clk_i), .rst_ni (m_rst_ni),
  .awvalid_i (m_awvalid_o), .awready_i (m_awready_i), .awid_i (m_awid_o), .awaddr_i (m_awaddr_o),
  .awlen_i (m_awlen_o), .awsize_i (m_awsize_o), .awburst_i (m_awburst_o), .awuser_i (1'b0),
  .wvalid_i (m_wvalid_o), .wready_i (m_wready_i), .wdata_i (m_wdata_o), .wstrb_i (m_wstrb_o),
  .wlast_i (m_wlast_o),
  .bvalid_i (m_bvalid_i), .bready_i (m_bready_o), .bid_i (m_bid_i), .bresp_i (m_bresp_i),
  .arvalid_i (m_arvalid_o), .arready_i (m_arready_i), .arid_i (m_arid_o), .araddr_i (m_araddr_o),
  .arlen_i (m_arlen_o), .arsize_i (m_arsize_o), .arburst_i (m_arburst_o), .aruser_i (1'b0),
  .rvalid_i (m_rvalid_i), .rready_i (m_rready_o), .rid_i (m_rid_i), .rdata_i (m_rdata_i),
  .rresp_i (m_rresp_i), .rlast_i (m_rlast_i)
);
