// SPDX-License-Identifier: Apache-2.0
// Bound into every gpu_engine (the bind at the end of this file): the protocol checker on
// the engine's AXI4 master, before the segment router. The sideband that
// travels with AR and AW (segment, CacheCoherent, PA bits above 31) is the
// user field, so it must hold with its burst. Its ports are the engine's,
// all inputs, connected by name. The checker runs on the engine's gated
// clock, whose activity includes every valid of the port.
module gpu_engine_dv #(
  parameter int unsigned PaBits = 52
) (
  input logic              clk_gated,  // the engine's gated clock
  input logic              rst_ni,
  input logic              axi_awvalid_o,
  input logic              axi_awready_i,
  input logic [3:0]        axi_awid_o,
  input logic [31:0]       axi_awaddr_o,
  input logic [7:0]        axi_awlen_o,
  input logic [2:0]        axi_awsize_o,
  input logic [1:0]        axi_awburst_o,
  input logic [4:0]        axi_awseg_o,
  input logic              axi_awcc_o,
  input logic [PaBits-33:0] axi_awaddr_hi_o,
  input logic              axi_wvalid_o,
  input logic              axi_wready_i,
  input logic [63:0]       axi_wdata_o,
  input logic [7:0]        axi_wstrb_o,
  input logic              axi_wlast_o,
  input logic              axi_bvalid_i,
  input logic              axi_bready_o,
  input logic [3:0]        axi_bid_i,
  input logic [1:0]        axi_bresp_i,
  input logic              axi_arvalid_o,
  input logic              axi_arready_i,
  input logic [3:0]        axi_arid_o,
  input logic [31:0]       axi_araddr_o,
  input logic [7:0]        axi_arlen_o,
  input logic [2:0]        axi_arsize_o,
  input logic [1:0]        axi_arburst_o,
  input logic [4:0]        axi_arseg_o,
  input logic              axi_arcc_o,
  input logic [PaBits-33:0] axi_araddr_hi_o,
  input logic              axi_rvalid_i,
  input logic              axi_rready_o,
  input logic [3:0]        axi_rid_i,
  input logic [63:0]       axi_rdata_i,
  input logic [1:0]        axi_rresp_i,
  input logic              axi_rlast_i
);

  localparam int unsigned UserW = 5 + 1 + PaBits - 32;

  axi4_protocol_checker #(
    .IdW(4), .AddrW(32), .DataW(64), .UserW(UserW), .OwnGate(1'b0)
  ) u_axi_chk (
    .clk_i (clk_gated), .rst_ni,
    .awvalid_i (axi_awvalid_o), .awready_i (axi_awready_i), .awid_i (axi_awid_o),
    .awaddr_i (axi_awaddr_o), .awlen_i (axi_awlen_o), .awsize_i (axi_awsize_o),
    .awburst_i (axi_awburst_o), .awuser_i ({axi_awseg_o, axi_awcc_o, axi_awaddr_hi_o}),
    .wvalid_i (axi_wvalid_o), .wready_i (axi_wready_i), .wdata_i (axi_wdata_o),
    .wstrb_i (axi_wstrb_o), .wlast_i (axi_wlast_o),
    .bvalid_i (axi_bvalid_i), .bready_i (axi_bready_o), .bid_i (axi_bid_i), .bresp_i (axi_bresp_i),
    .arvalid_i (axi_arvalid_o), .arready_i (axi_arready_i), .arid_i (axi_arid_o),
    .araddr_i (axi_araddr_o), .arlen_i (axi_arlen_o), .arsize_i (axi_arsize_o),
    .arburst_i (axi_arburst_o), .aruser_i ({axi_arseg_o, axi_arcc_o, axi_araddr_hi_o}),
    .rvalid_i (axi_rvalid_i), .rready_i (axi_rready_o), .rid_i (axi_rid_i),
    .rdata_i (axi_rdata_i), .rresp_i (axi_rresp_i), .rlast_i (axi_rlast_i)
  );

endmodule : gpu_engine_dv

// Every gpu_engine carries one (the parameters are the bound instance's).
bind gpu_engine gpu_engine_dv #(.PaBits (PaBits)) u_gpu_engine_dv (.*);
