// SPDX-License-Identifier: Apache-2.0
// AXI4 clock-domain crossing: an AXI4 master in one clock domain (s_*, the
// SoC's DDR port) reaches a slave in another (m_*, the DDR controller's user
// port).
//
// One asynchronous FIFO (prim_cdc_fifo) per channel: AW, W and AR towards the
// slave, B and R back. Channels stay independent, as AXI4 allows, so order
// within a channel is kept and nothing else is added: IDs, bursts and
// responses pass unchanged. Both resets must be asserted together (see
// prim_cdc_fifo).
//
// Timing: every channel adds 2 to 3 cycles of the receiving clock; a read
// burst's round trip gains about 5 cycles of each clock. Address channels
// hold AddrDepth entries, data channels DataDepth beats, so a W or R burst
// streams at the slower clock's rate once DataDepth covers the round trip.
module axi4_cdc #(
  parameter int unsigned IdW       = 8,
  parameter int unsigned AddrW     = 32,
  parameter int unsigned DataW     = 64,
  parameter int unsigned AddrDepth = 4,
  parameter int unsigned DataDepth = 8
) (
  // Master side (the SoC's clock)
  input  logic               s_clk_i,
  input  logic               s_rst_ni,
  input  logic               s_awvalid_i,
  output logic               s_awready_o,
  input  logic [IdW-1:0]     s_awid_i,
  input  logic [AddrW-1:0]   s_awaddr_i,
  input  logic [7:0]         s_awlen_i,
  input  logic [2:0]         s_awsize_i,
  input  logic [1:0]         s_awburst_i,
  input  logic               s_wvalid_i,
  output logic               s_wready_o,
  input  logic [DataW-1:0]   s_wdata_i,
  input  logic [DataW/8-1:0] s_wstrb_i,
  input  logic               s_wlast_i,
  output logic               s_bvalid_o,
  input  logic               s_bready_i,
  output logic [IdW-1:0]     s_bid_o,
  output logic [1:0]         s_bresp_o,
  input  logic               s_arvalid_i,
  output logic               s_arready_o,
  input  logic [IdW-1:0]     s_arid_i,
  input  logic [AddrW-1:0]   s_araddr_i,
  input  logic [7:0]         s_arlen_i,
  input  logic [2:0]         s_arsize_i,
  input  logic [1:0]         s_arburst_i,
  output logic               s_rvalid_o,
  input  logic               s_rready_i,
  output logic [IdW-1:0]     s_rid_o,
  output logic [DataW-1:0]   s_rdata_o,
  output logic [1:0]         s_rresp_o,
  output logic               s_rlast_o,

  // Slave side (the DDR controller's clock)
  input  logic               m_clk_i,
  input  logic               m_rst_ni,
  output logic               m_awvalid_o,
  input  logic               m_awready_i,
  output logic [IdW-1:0]     m_awid_o,
  output logic [AddrW-1:0]   m_awaddr_o,
  output logic [7:0]         m_awlen_o,
  output logic [2:0]         m_awsize_o,
  output logic [1:0]         m_awburst_o,
  output logic               m_wvalid_o,
  input  logic               m_wready_i,
  output logic [DataW-1:0]   m_wdata_o,
  output logic [DataW/8-1:0] m_wstrb_o,
  output logic               m_wlast_o,
  input  logic               m_bvalid_i,
  output logic               m_bready_o,
  input  logic [IdW-1:0]     m_bid_i,
  input  logic [1:0]         m_bresp_i,
  output logic               m_arvalid_o,
  input  logic               m_arready_i,
  output logic [IdW-1:0]     m_arid_o,
  output logic [AddrW-1:0]   m_araddr_o,
  output logic [7:0]         m_arlen_o,
  output logic [2:0]         m_arsize_o,
  output logic [1:0]         m_arburst_o,
  input  logic               m_rvalid_i,
  output logic               m_rready_o,
  input  logic [IdW-1:0]     m_rid_i,
  input  logic [DataW-1:0]   m_rdata_i,
  input  logic [1:0]         m_rresp_i,
  input  logic               m_rlast_i
);

  localparam int unsigned AxW = IdW + AddrW + 8 + 3 + 2;
  localparam int unsigned WW  = DataW + DataW / 8 + 1;
  localparam int unsigned BW  = IdW + 2;
  localparam int unsigned RW  = IdW + DataW + 2 + 1;

  prim_cdc_fifo #(.Width(AxW), .Depth(AddrDepth)) u_aw (
    .wclk_i (s_clk_i), .wrst_ni (s_rst_ni), .wvalid_i (s_awvalid_i), .wready_o (s_awready_o),
    .wdata_i ({s_awid_i, s_awaddr_i, s_awlen_i, s_awsize_i, s_awburst_i}),
    .rclk_i (m_clk_i), .rrst_ni (m_rst_ni), .rvalid_o (m_awvalid_o), .rready_i (m_awready_i),
    .rdata_o ({m_awid_o, m_awaddr_o, m_awlen_o, m_awsize_o, m_awburst_o})
  );

  prim_cdc_fifo #(.Width(WW), .Depth(DataDepth)) u_w (
    .wclk_i (s_clk_i), .wrst_ni (s_rst_ni), .wvalid_i (s_wvalid_i), .wready_o (s_wready_o),
    .wdata_i ({s_wdata_i, s_wstrb_i, s_wlast_i}),
    .rclk_i (m_clk_i), .rrst_ni (m_rst_ni), .rvalid_o (m_wvalid_o), .rready_i (m_wready_i),
    .rdata_o ({m_wdata_o, m_wstrb_o, m_wlast_o})
  );

  prim_cdc_fifo #(.Width(BW), .Depth(AddrDepth)) u_b (
    .wclk_i (m_clk_i), .wrst_ni (m_rst_ni), .wvalid_i (m_bvalid_i), .wready_o (m_bready_o),
    .wdata_i ({m_bid_i, m_bresp_i}),
    .rclk_i (s_clk_i), .rrst_ni (s_rst_ni), .rvalid_o (s_bvalid_o), .rready_i (s_bready_i),
    .rdata_o ({s_bid_o, s_bresp_o})
  );

  prim_cdc_fifo #(.Width(AxW), .Depth(AddrDepth)) u_ar (
    .wclk_i (s_clk_i), .wrst_ni (s_rst_ni), .wvalid_i (s_arvalid_i), .wready_o (s_arready_o),
    .wdata_i ({s_arid_i, s_araddr_i, s_arlen_i, s_arsize_i, s_arburst_i}),
    .rclk_i (m_clk_i), .rrst_ni (m_rst_ni), .rvalid_o (m_arvalid_o), .rready_i (m_arready_i),
    .rdata_o ({m_arid_o, m_araddr_o, m_arlen_o, m_arsize_o, m_arburst_o})
  );

  prim_cdc_fifo #(.Width(RW), .Depth(DataDepth)) u_r (
    .wclk_i (m_clk_i), .wrst_ni (m_rst_ni), .wvalid_i (m_rvalid_i), .wready_o (m_rready_o),
    .wdata_i ({m_rid_i, m_rdata_i, m_rresp_i, m_rlast_i}),
    .rclk_i (s_clk_i), .rrst_ni (s_rst_ni), .rvalid_o (s_rvalid_o), .rready_i (s_rready_i),
    .rdata_o ({s_rid_o, s_rdata_o, s_rresp_o, s_rlast_o})
  );

endmodule : axi4_cdc
