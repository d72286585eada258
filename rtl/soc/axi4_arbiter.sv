// SPDX-License-Identifier: Apache-2.0
// AXI4 arbiter: NMasters masters share one AXI4 slave (the DDR port).
//
// Each master's IDs are widened with its index, {index, id}, so read and
// write responses route back by ID and a master may keep several reads in
// flight. Read addresses are arbitrated round-robin every cycle. Writes are
// granted one burst at a time: a master's AW wins, then its W beats pass
// until WLAST, and only then may the next AW go; so W data is never
// interleaved. Both choices are prim_rr_arb's; the pointer moves on the
// address handshake. An AR or AW offered to the slave and not taken stays
// offered, unchanged, until taken (AXI): while it waits the arbiter sees
// only its master's request, so a master asking meanwhile cannot take the
// grant. Address and data paths are combinational (no added latency);
// arbitration state is registered.
//
// AddrW and UserW size the address and a user sideband (AxUSER) that travel
// with AR and AW: the DDR instance uses 32 and ties the user bit off; the
// system-memory instance carries 64-bit bus addresses and CacheCoherent.
module axi4_arbiter #(
  parameter int unsigned NMasters = 2,
  parameter int unsigned IdW      = 4,                    // per-master ID width
  parameter int unsigned AddrW    = 32,
  parameter int unsigned UserW    = 1,
  localparam int unsigned MW      = (NMasters > 1) ? $clog2(NMasters) : 1,
  localparam int unsigned OIdW    = IdW + MW               // slave-side ID width
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // Masters, flattened: master m uses bits [m*W +: W]
  input  logic [NMasters-1:0]      m_awvalid_i,
  output logic [NMasters-1:0]      m_awready_o,
  input  logic [NMasters*IdW-1:0]  m_awid_i,
  input  logic [NMasters*AddrW-1:0] m_awaddr_i,
  input  logic [NMasters*UserW-1:0] m_awuser_i,
  input  logic [NMasters*8-1:0]    m_awlen_i,
  input  logic [NMasters*3-1:0]    m_awsize_i,
  input  logic [NMasters*2-1:0]    m_awburst_i,
  input  logic [NMasters-1:0]      m_wvalid_i,
  output logic [NMasters-1:0]      m_wready_o,
  input  logic [NMasters*64-1:0]   m_wdata_i,
  input  logic [NMasters*8-1:0]    m_wstrb_i,
  input  logic [NMasters-1:0]      m_wlast_i,
  output logic [NMasters-1:0]      m_bvalid_o,
  input  logic [NMasters-1:0]      m_bready_i,
  output logic [NMasters*IdW-1:0]  m_bid_o,
  output logic [NMasters*2-1:0]    m_bresp_o,
  input  logic [NMasters-1:0]      m_arvalid_i,
  output logic [NMasters-1:0]      m_arready_o,
  input  logic [NMasters*IdW-1:0]  m_arid_i,
  input  logic [NMasters*AddrW-1:0] m_araddr_i,
  input  logic [NMasters*UserW-1:0] m_aruser_i,
  input  logic [NMasters*8-1:0]    m_arlen_i,
  input  logic [NMasters*3-1:0]    m_arsize_i,
  input  logic [NMasters*2-1:0]    m_arburst_i,
  output logic [NMasters-1:0]      m_rvalid_o,
  input  logic [NMasters-1:0]      m_rready_i,
  output logic [NMasters*IdW-1:0]  m_rid_o,
  output logic [NMasters*64-1:0]   m_rdata_o,
  output logic [NMasters*2-1:0]    m_rresp_o,
  output logic [NMasters-1:0]      m_rlast_o,

  // Slave
  output logic                     s_awvalid_o,
  input  logic                     s_awready_i,
  output logic [OIdW-1:0]          s_awid_o,
  output logic [AddrW-1:0]         s_awaddr_o,
  output logic [UserW-1:0]         s_awuser_o,
  output logic [7:0]               s_awlen_o,
  output logic [2:0]               s_awsize_o,
  output logic [1:0]               s_awburst_o,
  output logic                     s_wvalid_o,
  input  logic                     s_wready_i,
  output logic [63:0]              s_wdata_o,
  output logic [7:0]               s_wstrb_o,
  output logic                     s_wlast_o,
  input  logic                     s_bvalid_i,
  output logic                     s_bready_o,
  input  logic [OIdW-1:0]          s_bid_i,
  input  logic [1:0]               s_bresp_i,
  output logic                     s_arvalid_o,
  input  logic                     s_arready_i,
  output logic [OIdW-1:0]          s_arid_o,
  output logic [AddrW-1:0]         s_araddr_o,
  output logic [UserW-1:0]         s_aruser_o,
  output logic [7:0]               s_arlen_o,
  output logic [2:0]               s_arsize_o,
  output logic [1:0]               s_arburst_o,
  input  logic                     s_rvalid_i,
  output logic                     s_rready_o,
  input  logic [OIdW-1:0]          s_rid_i,
  input  logic [63:0]              s_rdata_i,
  input  logic [1:0]               s_rresp_i,
  input  logic                     s_rlast_i
);

  // ---------------------------------------------------------------- reads
  // With no AR waiting the choice stays on the last winner (IdleLast): an
  // index in range for the selects below.
  logic [MW-1:0]       ar_sel;
  logic                ar_any;
  logic [NMasters-1:0] ar_req;
  logic                ar_wait_q;     // the AR offered last cycle was not taken
  logic [MW-1:0]       ar_wait_sel_q;

  always_comb begin
    ar_req = m_arvalid_i;
    if (ar_wait_q) begin
      ar_req = '0;
      ar_req[ar_wait_sel_q] = m_arvalid_i[ar_wait_sel_q];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_wait_q     <= 1'b0;
      ar_wait_sel_q <= '0;
    end else begin
      ar_wait_q     <= s_arvalid_o && !s_arready_i;
      ar_wait_sel_q <= ar_sel;
    end
  end

  prim_rr_arb #(.N(NMasters), .IdxW(MW), .IdleLast(1'b1)) u_ar_arb (
    .clk_i,
    .rst_ni,
    .req_i       (ar_req),
    .take_i      (s_arready_i),
    .gnt_valid_o (ar_any),
    .gnt_idx_o   (ar_sel)
  );

  assign s_arvalid_o = ar_any;
  assign s_arid_o    = {ar_sel, m_arid_i[ar_sel*IdW +: IdW]};
  assign s_araddr_o  = m_araddr_i[ar_sel*AddrW +: AddrW];
  assign s_aruser_o  = m_aruser_i[ar_sel*UserW +: UserW];
  assign s_arlen_o   = m_arlen_i[ar_sel*8 +: 8];
  assign s_arsize_o  = m_arsize_i[ar_sel*3 +: 3];
  assign s_arburst_o = m_arburst_i[ar_sel*2 +: 2];

  logic [MW-1:0] r_dst;
  assign r_dst = s_rid_i[IdW +: MW];

  always_comb begin
    m_arready_o = '0;
    m_arready_o[ar_sel] = s_arready_i;
    m_rvalid_o = '0;
    m_rvalid_o[r_dst] = s_rvalid_i;
    for (int unsigned m = 0; m < NMasters; m++) begin
      m_rid_o[m*IdW +: IdW] = s_rid_i[IdW-1:0];
      m_rdata_o[m*64 +: 64] = s_rdata_i;
      m_rresp_o[m*2 +: 2]   = s_rresp_i;
      m_rlast_o[m]          = s_rlast_i;
    end
  end
  // An ID naming no master (a misbehaving slave) is drained, not hung on.
  assign s_rready_o = (32'(r_dst) < NMasters) ? m_rready_i[r_dst] : 1'b1;

  // --------------------------------------------------------------- writes
  // The AW choice is made every cycle but taken only on a free W channel;
  // the burst's owner is then kept here until its WLAST.
  logic                w_busy_q;       // an AW went; its W beats are passing
  logic [MW-1:0]       w_owner_q, aw_sel;
  logic                aw_any;
  logic [NMasters-1:0] aw_req;
  logic                aw_wait_q;      // the AW offered last cycle was not taken
  logic [MW-1:0]       aw_wait_sel_q;

  always_comb begin
    aw_req = m_awvalid_i;
    if (aw_wait_q) begin
      aw_req = '0;
      aw_req[aw_wait_sel_q] = m_awvalid_i[aw_wait_sel_q];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_wait_q     <= 1'b0;
      aw_wait_sel_q <= '0;
    end else begin
      aw_wait_q     <= s_awvalid_o && !s_awready_i;
      aw_wait_sel_q <= aw_sel;
    end
  end

  prim_rr_arb #(.N(NMasters), .IdxW(MW), .IdleLast(1'b1)) u_aw_arb (
    .clk_i,
    .rst_ni,
    .req_i       (aw_req),
    .take_i      (!w_busy_q && s_awready_i),
    .gnt_valid_o (aw_any),
    .gnt_idx_o   (aw_sel)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_busy_q  <= 1'b0;
      w_owner_q <= '0;
    end else if (!w_busy_q && s_awvalid_o && s_awready_i) begin
      w_busy_q  <= 1'b1;
      w_owner_q <= aw_sel;
    end else if (w_busy_q && s_wvalid_o && s_wready_i && s_wlast_o) begin
      w_busy_q  <= 1'b0;
    end
  end

  assign s_awvalid_o = !w_busy_q && aw_any;
  assign s_awid_o    = {aw_sel, m_awid_i[aw_sel*IdW +: IdW]};
  assign s_awaddr_o  = m_awaddr_i[aw_sel*AddrW +: AddrW];
  assign s_awuser_o  = m_awuser_i[aw_sel*UserW +: UserW];
  assign s_awlen_o   = m_awlen_i[aw_sel*8 +: 8];
  assign s_awsize_o  = m_awsize_i[aw_sel*3 +: 3];
  assign s_awburst_o = m_awburst_i[aw_sel*2 +: 2];

  assign s_wvalid_o = w_busy_q && m_wvalid_i[w_owner_q];
  assign s_wdata_o  = m_wdata_i[w_owner_q*64 +: 64];
  assign s_wstrb_o  = m_wstrb_i[w_owner_q*8 +: 8];
  assign s_wlast_o  = m_wlast_i[w_owner_q];

  logic [MW-1:0] b_dst;
  assign b_dst = s_bid_i[IdW +: MW];

  always_comb begin
    m_awready_o = '0;
    m_awready_o[aw_sel] = !w_busy_q && s_awready_i;
    m_wready_o = '0;
    m_wready_o[w_owner_q] = w_busy_q && s_wready_i;
    m_bvalid_o = '0;
    m_bvalid_o[b_dst] = s_bvalid_i;
    for (int unsigned m = 0; m < NMasters; m++) begin
      m_bid_o[m*IdW +: IdW] = s_bid_i[IdW-1:0];
      m_bresp_o[m*2 +: 2]   = s_bresp_i;
    end
  end
  assign s_bready_o = (32'(b_dst) < NMasters) ? m_bready_i[b_dst] : 1'b1;

endmodule : axi4_arbiter
