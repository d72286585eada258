// SPDX-License-Identifier: Apache-2.0
// Bound into every mmu_top (the binds at the end of this file): the protocol checker on the
// walker's AXI4 read master (no write channels: tied off), and no X on the
// MMU's outputs: handshakes, each port's response while valid, the AR
// payload while valid (the checker's), the Wishbone data while acknowledged,
// the interrupt and the invalidation port. mmu_top_dv's ports are mmu_top's,
// all inputs, connected by name.
`include "prim_assert.svh"

module mmu_top_dv #(
  parameter int unsigned NPorts = 4,
  parameter int unsigned TagW   = 8,
  parameter int unsigned PaW    = 52
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic                   wb_ack_o,
  input logic [31:0]            wb_dat_o,
  input logic [NPorts-1:0]      req_ready_o,
  input logic [NPorts-1:0]      rsp_valid_o,
  input logic [NPorts*TagW-1:0] rsp_tag_o,
  input logic [NPorts*3-1:0]    rsp_fault_o,
  input logic [NPorts-1:0]      rsp_zero_o,
  input logic [NPorts*PaW-1:0]  rsp_pa_o,
  input logic [NPorts*5-1:0]    rsp_seg_o,
  input logic [NPorts-1:0]      rsp_cc_o,
  input logic [NPorts-1:0]      rsp_ro_o,
  input logic [NPorts-1:0]      rsp_nx_o,
  input logic [NPorts*3-1:0]    rsp_psize_o,
  input logic                   inv_req_ready_o,
  input logic                   inv_req_busy_o,
  input logic                   irq_o
);


  `ASSERT_OFF(off)

  `ASSERT_KNOWN(wb_ack_known, wb_ack_o, clk_i, off)
  `ASSERT_KNOWN_IF(wb_dat_known, wb_dat_o, wb_ack_o, clk_i, off)
  `ASSERT_KNOWN(handshakes_known, {req_ready_o, rsp_valid_o, inv_req_ready_o, inv_req_busy_o, irq_o},
                clk_i, off)
  for (genvar p = 0; p < NPorts; p++) begin : g_port
    `ASSERT_KNOWN_IF(rsp_known, {rsp_tag_o[p*TagW +: TagW], rsp_fault_o[p*3 +: 3], rsp_zero_o[p],
                                 rsp_pa_o[p*PaW +: PaW], rsp_seg_o[p*5 +: 5], rsp_cc_o[p],
                                 rsp_ro_o[p], rsp_nx_o[p], rsp_psize_o[p*3 +: 3]},
                     rsp_valid_o[p], clk_i, off)
  end

endmodule : mmu_top_dv

// Every mmu_top carries one (the parameters are the bound instance's).
bind mmu_top mmu_top_dv #(
  .NPorts (NPorts), .TagW (TagW), .PaW ($bits(rsp_pa_o) / NPorts)
) u_mmu_top_dv (.*);

// The walker's AXI4 read master: the protocol checker, connected in the bind
// (no write channels: tied off), on the MMU's gated clock, whose activity
// includes the port's AR and R valids.
bind mmu_top axi4_protocol_checker #(
  .IdW(4), .AddrW(32), .DataW(64), .UserW(1), .OwnGate(1'b0)
) u_axi_chk (
  .clk_i (clk_gated), .rst_ni,
  .awvalid_i (1'b0), .awready_i (1'b0), .awid_i ('0), .awaddr_i ('0), .awlen_i ('0),
  .awsize_i ('0), .awburst_i (2'b01), .awuser_i (1'b0),
  .wvalid_i (1'b0), .wready_i (1'b0), .wdata_i ('0), .wstrb_i ('0), .wlast_i (1'b0),
  .bvalid_i (1'b0), .bready_i (1'b0), .bid_i ('0), .bresp_i ('0),
  .arvalid_i (axi_arvalid_o), .arready_i (axi_arready_i), .arid_i (axi_arid_o),
  .araddr_i (axi_araddr_o), .arlen_i (axi_arlen_o), .arsize_i (axi_arsize_o),
  .arburst_i (axi_arburst_o), .aruser_i (1'b0),
  .rvalid_i (axi_rvalid_i), .rready_i (axi_rready_o), .rid_i (axi_rid_i),
  .rdata_i (axi_rdata_i), .rresp_i (axi_rresp_i), .rlast_i (axi_rlast_i)
);
