// SPDX-License-Identifier: Apache-2.0
// Bound into every axi4_demux (the bind at the end of this file): a protocol checker on
// the master port (the select travels as part of the user field, so it
// must hold with its burst) and one per slave port. Its ports are the
// demux's, all inputs, connected by name.
module axi4_demux_dv #(
  parameter int unsigned NSlaves = 3,
  parameter int unsigned IdW     = 4,
  parameter int unsigned AddrW   = 32,
  parameter int unsigned UserW   = 1,
  localparam int unsigned SW     = (NSlaves > 1) ? $clog2(NSlaves) : 1
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic                   m_awvalid_i,
  input logic                   m_awready_o,
  input logic [SW-1:0]          m_awsel_i,
  input logic [IdW-1:0]         m_awid_i,
  input logic [AddrW-1:0]       m_awaddr_i,
  input logic [7:0]             m_awlen_i,
  input logic [2:0]             m_awsize_i,
  input logic [1:0]             m_awburst_i,
  input logic [UserW-1:0]       m_awuser_i,
  input logic                   m_wvalid_i,
  input logic                   m_wready_o,
  input logic [63:0]            m_wdata_i,
  input logic [7:0]             m_wstrb_i,
  input logic                   m_wlast_i,
  input logic                   m_bvalid_o,
  input logic                   m_bready_i,
  input logic [IdW-1:0]         m_bid_o,
  input logic [1:0]             m_bresp_o,
  input logic                   m_arvalid_i,
  input logic                   m_arready_o,
  input logic [SW-1:0]          m_arsel_i,
  input logic [IdW-1:0]         m_arid_i,
  input logic [AddrW-1:0]       m_araddr_i,
  input logic [7:0]             m_arlen_i,
  input logic [2:0]             m_arsize_i,
  input logic [1:0]             m_arburst_i,
  input logic [UserW-1:0]       m_aruser_i,
  input logic                   m_rvalid_o,
  input logic                   m_rready_i,
  input logic [IdW-1:0]         m_rid_o,
  input logic [63:0]            m_rdata_o,
  input logic [1:0]             m_rresp_o,
  input logic                   m_rlast_o,
  input logic [NSlaves-1:0]     s_awvalid_o,
  input logic [NSlaves-1:0]     s_awready_i,
  input logic [IdW-1:0]         s_awid_o,
  input logic [AddrW-1:0]       s_awaddr_o,
  input logic [7:0]             s_awlen_o,
  input logic [2:0]             s_awsize_o,
  input logic [1:0]             s_awburst_o,
  input logic [UserW-1:0]       s_awuser_o,
  input logic [NSlaves-1:0]     s_wvalid_o,
  input logic [NSlaves-1:0]     s_wready_i,
  input logic [63:0]            s_wdata_o,
  input logic [7:0]             s_wstrb_o,
  input logic                   s_wlast_o,
  input logic [NSlaves-1:0]     s_bvalid_i,
  input logic [NSlaves-1:0]     s_bready_o,
  input logic [NSlaves*IdW-1:0] s_bid_i,
  input logic [NSlaves*2-1:0]   s_bresp_i,
  input logic [NSlaves-1:0]     s_arvalid_o,
  input logic [NSlaves-1:0]     s_arready_i,
  input logic [IdW-1:0]         s_arid_o,
  input logic [AddrW-1:0]       s_araddr_o,
  input logic [7:0]             s_arlen_o,
  input logic [2:0]             s_arsize_o,
  input logic [1:0]             s_arburst_o,
  input logic [UserW-1:0]       s_aruser_o,
  input logic [NSlaves-1:0]     s_rvalid_i,
  input logic [NSlaves-1:0]     s_rready_o,
  input logic [NSlaves*IdW-1:0] s_rid_i,
  input logic [NSlaves*64-1:0]  s_rdata_i,
  input logic [NSlaves*2-1:0]   s_rresp_i,
  input logic [NSlaves-1:0]     s_rlast_i
);

  axi4_protocol_checker #(.IdW(IdW), .AddrW(AddrW), .DataW(64), .UserW(UserW + SW)) u_master_chk (
    .clk_i, .rst_ni,
    .awvalid_i (m_awvalid_i), .awready_i (m_awready_o), .awid_i (m_awid_i), .awaddr_i (m_awaddr_i),
    .awlen_i (m_awlen_i), .awsize_i (m_awsize_i), .awburst_i (m_awburst_i),
    .awuser_i ({m_awsel_i, m_awuser_i}),
    .wvalid_i (m_wvalid_i), .wready_i (m_wready_o), .wdata_i (m_wdata_i), .wstrb_i (m_wstrb_i),
    .wlast_i (m_wlast_i),
    .bvalid_i (m_bvalid_o), .bready_i (m_bready_i), .bid_i (m_bid_o), .bresp_i (m_bresp_o),
    .arvalid_i (m_arvalid_i), .arready_i (m_arready_o), .arid_i (m_arid_i), .araddr_i (m_araddr_i),
    .arlen_i (m_arlen_i), .arsize_i (m_arsize_i), .arburst_i (m_arburst_i),
    .aruser_i ({m_arsel_i, m_aruser_i}),
    .rvalid_i (m_rvalid_o), .rready_i (m_rready_i), .rid_i (m_rid_o), .rdata_i (m_rdata_o),
    .rresp_i (m_rresp_o), .rlast_i (m_rlast_o)
  );

  for (genvar s = 0; s < NSlaves; s++) begin : g_slave
    axi4_protocol_checker #(.IdW(IdW), .AddrW(AddrW), .DataW(64), .UserW(UserW)) u_chk (
      .clk_i, .rst_ni,
      .awvalid_i (s_awvalid_o[s]), .awready_i (s_awready_i[s]), .awid_i (s_awid_o),
      .awaddr_i (s_awaddr_o), .awlen_i (s_awlen_o), .awsize_i (s_awsize_o),
      .awburst_i (s_awburst_o), .awuser_i (s_awuser_o),
      .wvalid_i (s_wvalid_o[s]), .wready_i (s_wready_i[s]), .wdata_i (s_wdata_o),
      .wstrb_i (s_wstrb_o), .wlast_i (s_wlast_o),
      .bvalid_i (s_bvalid_i[s]), .bready_i (s_bready_o[s]), .bid_i (s_bid_i[s*IdW +: IdW]),
      .bresp_i (s_bresp_i[s*2 +: 2]),
      .arvalid_i (s_arvalid_o[s]), .arready_i (s_arready_i[s]), .arid_i (s_arid_o),
      .araddr_i (s_araddr_o), .arlen_i (s_arlen_o), .arsize_i (s_arsize_o),
      .arburst_i (s_arburst_o), .aruser_i (s_aruser_o),
      .rvalid_i (s_rvalid_i[s]), .rready_i (s_rready_o[s]), .rid_i (s_rid_i[s*IdW +: IdW]),
      .rdata_i (s_rdata_i[s*64 +: 64]), .rresp_i (s_rresp_i[s*2 +: 2]), .rlast_i (s_rlast_i[s])
    );
  end

endmodule : axi4_demux_dv

// Every axi4_demux carries one (the parameters are the bound instance's).
bind axi4_demux axi4_demux_dv #(
  .NSlaves (NSlaves), .IdW (IdW), .AddrW (AddrW), .UserW (UserW)
) u_axi4_demux_dv (.*);
