// SPDX-License-Identifier: Apache-2.0
// Bound into every paging_engine: a protocol checker on each of its AXI4 masters,
// m_ddr (VRAM, u_ddr_chk) and m_sys (system memory, u_sys_chk), connected
// to the engine's ports in the binds. Their depths cover Outstanding
// (reads and write bursts in flight per port, all on ID 0), at least 16.
// They run on the engine's gated clock, whose activity includes every valid
// of both ports.

bind paging_engine axi4_protocol_checker #(
  .IdW (DdrIdW), .AddrW (32), .DataW (64), .UserW (1),
  .MaxPerId ((Outstanding > 16) ? Outstanding : 16), .MaxWrites ((Outstanding > 16) ? Outstanding : 16),
  .OwnGate (1'b0)
) u_ddr_chk (
  .clk_i (clk_gated), .rst_ni,
  .awvalid_i (m_ddr_awvalid_o), .awready_i (m_ddr_awready_i), .awid_i (m_ddr_awid_o),
  .awaddr_i (m_ddr_awaddr_o), .awlen_i (m_ddr_awlen_o), .awsize_i (m_ddr_awsize_o),
  .awburst_i (m_ddr_awburst_o), .awuser_i (1'b0), .wvalid_i (m_ddr_wvalid_o),
  .wready_i (m_ddr_wready_i), .wdata_i (m_ddr_wdata_o), .wstrb_i (m_ddr_wstrb_o),
  .wlast_i (m_ddr_wlast_o), .bvalid_i (m_ddr_bvalid_i), .bready_i (m_ddr_bready_o),
  .bid_i (m_ddr_bid_i), .bresp_i (m_ddr_bresp_i), .arvalid_i (m_ddr_arvalid_o),
  .arready_i (m_ddr_arready_i), .arid_i (m_ddr_arid_o), .araddr_i (m_ddr_araddr_o),
  .arlen_i (m_ddr_arlen_o), .arsize_i (m_ddr_arsize_o), .arburst_i (m_ddr_arburst_o),
  .aruser_i (1'b0), .rvalid_i (m_ddr_rvalid_i), .rready_i (m_ddr_rready_o), .rid_i (m_ddr_rid_i),
  .rdata_i (m_ddr_rdata_i), .rresp_i (m_ddr_rresp_i), .rlast_i (m_ddr_rlast_i)
);

bind paging_engine axi4_protocol_checker #(
  .IdW (SysIdW), .AddrW (64), .DataW (64), .UserW (1),
  .MaxPerId ((Outstanding > 16) ? Outstanding : 16), .MaxWrites ((Outstanding > 16) ? Outstanding : 16),
  .OwnGate (1'b0)
) u_sys_chk (
  .clk_i (clk_gated), .rst_ni,
  .awvalid_i (m_sys_awvalid_o), .awready_i (m_sys_awready_i), .awid_i (m_sys_awid_o),
  .awaddr_i (m_sys_awaddr_o), .awlen_i (m_sys_awlen_o), .awsize_i (m_sys_awsize_o),
  .awburst_i (m_sys_awburst_o), .awuser_i (1'b0), .wvalid_i (m_sys_wvalid_o),
  .wready_i (m_sys_wready_i), .wdata_i (m_sys_wdata_o), .wstrb_i (m_sys_wstrb_o),
  .wlast_i (m_sys_wlast_o), .bvalid_i (m_sys_bvalid_i), .bready_i (m_sys_bready_o),
  .bid_i (m_sys_bid_i), .bresp_i (m_sys_bresp_i), .arvalid_i (m_sys_arvalid_o),
  .arready_i (m_sys_arready_i), .arid_i (m_sys_arid_o), .araddr_i (m_sys_araddr_o),
  .arlen_i (m_sys_arlen_o), .arsize_i (m_sys_arsize_o), .arburst_i (m_sys_arburst_o),
  .aruser_i (1'b0), .rvalid_i (m_sys_rvalid_i), .rready_i (m_sys_rready_o), .rid_i (m_sys_rid_i),
  .rdata_i (m_sys_rdata_i), .rresp_i (m_sys_rresp_i), .rlast_i (m_sys_rlast_i)
);
