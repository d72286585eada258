// SPDX-License-Identifier: Apache-2.0
// Bound into every paging_engine (the bind at the end of this file): a protocol checker on
// each of its AXI4 masters, m_ddr (VRAM) and m_sys (system memory). Their
// depths cover Outstanding (reads and write bursts in flight per port, all
// on ID 0). Its ports are the engine's, all inputs, connected by name.
module paging_engine_dv #(
  parameter int unsigned DdrIdW = 4,
  parameter int unsigned SysIdW = 4,
  parameter int unsigned Outstanding = 8
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic                m_ddr_awvalid_o,
  input logic                m_ddr_awready_i,
  input logic [DdrIdW-1:0]   m_ddr_awid_o,
  input logic [31:0]         m_ddr_awaddr_o,
  input logic [7:0]          m_ddr_awlen_o,
  input logic [2:0]          m_ddr_awsize_o,
  input logic [1:0]          m_ddr_awburst_o,
  input logic                m_ddr_wvalid_o,
  input logic                m_ddr_wready_i,
  input logic [63:0]         m_ddr_wdata_o,
  input logic [7:0]          m_ddr_wstrb_o,
  input logic                m_ddr_wlast_o,
  input logic                m_ddr_bvalid_i,
  input logic                m_ddr_bready_o,
  input logic [DdrIdW-1:0]   m_ddr_bid_i,
  input logic [1:0]          m_ddr_bresp_i,
  input logic                m_ddr_arvalid_o,
  input logic                m_ddr_arready_i,
  input logic [DdrIdW-1:0]   m_ddr_arid_o,
  input logic [31:0]         m_ddr_araddr_o,
  input logic [7:0]          m_ddr_arlen_o,
  input logic [2:0]          m_ddr_arsize_o,
  input logic [1:0]          m_ddr_arburst_o,
  input logic                m_ddr_rvalid_i,
  input logic                m_ddr_rready_o,
  input logic [DdrIdW-1:0]   m_ddr_rid_i,
  input logic [63:0]         m_ddr_rdata_i,
  input logic [1:0]          m_ddr_rresp_i,
  input logic                m_ddr_rlast_i,
  input logic                m_sys_awvalid_o,
  input logic                m_sys_awready_i,
  input logic [SysIdW-1:0]   m_sys_awid_o,
  input logic [63:0]         m_sys_awaddr_o,
  input logic [7:0]          m_sys_awlen_o,
  input logic [2:0]          m_sys_awsize_o,
  input logic [1:0]          m_sys_awburst_o,
  input logic                m_sys_wvalid_o,
  input logic                m_sys_wready_i,
  input logic [63:0]         m_sys_wdata_o,
  input logic [7:0]          m_sys_wstrb_o,
  input logic                m_sys_wlast_o,
  input logic                m_sys_bvalid_i,
  input logic                m_sys_bready_o,
  input logic [SysIdW-1:0]   m_sys_bid_i,
  input logic [1:0]          m_sys_bresp_i,
  input logic                m_sys_arvalid_o,
  input logic                m_sys_arready_i,
  input logic [SysIdW-1:0]   m_sys_arid_o,
  input logic [63:0]         m_sys_araddr_o,
  input logic [7:0]          m_sys_arlen_o,
  input logic [2:0]          m_sys_arsize_o,
  input logic [1:0]          m_sys_arburst_o,
  input logic                m_sys_rvalid_i,
  input logic                m_sys_rready_o,
  input logic [SysIdW-1:0]   m_sys_rid_i,
  input logic [63:0]         m_sys_rdata_i,
  input logic [1:0]          m_sys_rresp_i,
  input logic                m_sys_rlast_i
);

  localparam int unsigned Depth = (Outstanding > 16) ? Outstanding : 16;

  axi4_protocol_checker #(.IdW(DdrIdW), .AddrW(32), .DataW(64), .UserW(1), .MaxPerId(Depth),
                          .MaxWrites(Depth)) u_ddr_chk (
    .clk_i, .rst_ni,
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

  axi4_protocol_checker #(.IdW(SysIdW), .AddrW(64), .DataW(64), .UserW(1), .MaxPerId(Depth),
                          .MaxWrites(Depth)) u_sys_chk (
    .clk_i, .rst_ni,
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

endmodule : paging_engine_dv

// Every paging_engine carries one (the parameters are the bound instance's).
bind paging_engine paging_engine_dv #(
  .DdrIdW (DdrIdW), .SysIdW (SysIdW), .Outstanding (Outstanding)
) u_paging_engine_dv (.*);
