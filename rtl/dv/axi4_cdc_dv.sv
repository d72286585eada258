// SPDX-License-Identifier: Apache-2.0
// Bound into every axi4_cdc (the bind at the end of this file): a protocol checker on each
// side, each on its own clock and reset. Its ports are the crossing's, all
// inputs, connected by name.
module axi4_cdc_dv #(
  parameter int unsigned IdW   = 8,
  parameter int unsigned AddrW = 32,
  parameter int unsigned DataW = 64
) (
  input logic               s_clk_i,
  input logic               s_rst_ni,
  input logic               s_awvalid_i,
  input logic               s_awready_o,
  input logic [IdW-1:0]     s_awid_i,
  input logic [AddrW-1:0]   s_awaddr_i,
  input logic [7:0]         s_awlen_i,
  input logic [2:0]         s_awsize_i,
  input logic [1:0]         s_awburst_i,
  input logic               s_wvalid_i,
  input logic               s_wready_o,
  input logic [DataW-1:0]   s_wdata_i,
  input logic [DataW/8-1:0] s_wstrb_i,
  input logic               s_wlast_i,
  input logic               s_bvalid_o,
  input logic               s_bready_i,
  input logic [IdW-1:0]     s_bid_o,
  input logic [1:0]         s_bresp_o,
  input logic               s_arvalid_i,
  input logic               s_arready_o,
  input logic [IdW-1:0]     s_arid_i,
  input logic [AddrW-1:0]   s_araddr_i,
  input logic [7:0]         s_arlen_i,
  input logic [2:0]         s_arsize_i,
  input logic [1:0]         s_arburst_i,
  input logic               s_rvalid_o,
  input logic               s_rready_i,
  input logic [IdW-1:0]     s_rid_o,
  input logic [DataW-1:0]   s_rdata_o,
  input logic [1:0]         s_rresp_o,
  input logic               s_rlast_o,
  input logic               m_clk_i,
  input logic               m_rst_ni,
  input logic               m_awvalid_o,
  input logic               m_awready_i,
  input logic [IdW-1:0]     m_awid_o,
  input logic [AddrW-1:0]   m_awaddr_o,
  input logic [7:0]         m_awlen_o,
  input logic [2:0]         m_awsize_o,
  input logic [1:0]         m_awburst_o,
  input logic               m_wvalid_o,
  input logic               m_wready_i,
  input logic [DataW-1:0]   m_wdata_o,
  input logic [DataW/8-1:0] m_wstrb_o,
  input logic               m_wlast_o,
  input logic               m_bvalid_i,
  input logic               m_bready_o,
  input logic [IdW-1:0]     m_bid_i,
  input logic [1:0]         m_bresp_i,
  input logic               m_arvalid_o,
  input logic               m_arready_i,
  input logic [IdW-1:0]     m_arid_o,
  input logic [AddrW-1:0]   m_araddr_o,
  input logic [7:0]         m_arlen_o,
  input logic [2:0]         m_arsize_o,
  input logic [1:0]         m_arburst_o,
  input logic               m_rvalid_i,
  input logic               m_rready_o,
  input logic [IdW-1:0]     m_rid_i,
  input logic [DataW-1:0]   m_rdata_i,
  input logic [1:0]         m_rresp_i,
  input logic               m_rlast_i
);

  axi4_protocol_checker #(.IdW(IdW), .AddrW(AddrW), .DataW(DataW), .UserW(1)) u_s_chk (
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

  axi4_protocol_checker #(.IdW(IdW), .AddrW(AddrW), .DataW(DataW), .UserW(1)) u_m_chk (
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

endmodule : axi4_cdc_dv

// Every axi4_cdc carries one (the parameters are the bound instance's).
bind axi4_cdc axi4_cdc_dv #(.IdW (IdW), .AddrW (AddrW), .DataW (DataW)) u_axi4_cdc_dv (.*);
