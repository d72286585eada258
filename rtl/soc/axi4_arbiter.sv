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
// Ports are axi4_pkg structs. IdW is how many bits of a master's ID it
// uses (the rest are 0); the slave's IDs are {index, id} in the low OIdW
// bits, the rest 0. Addresses and the user sideband (AxUSER) pass whole:
// the DDR instance's masters drive 32-bit addresses and user 0, the
// system-memory instance's 64-bit bus addresses and CacheCoherent.
module axi4_arbiter
  import axi4_pkg::*;
#(
  parameter int unsigned NMasters = 2,
  parameter int unsigned IdW      = 4,                    // per-master ID width
  localparam int unsigned MW      = (NMasters > 1) ? $clog2(NMasters) : 1,
  localparam int unsigned OIdW    = IdW + MW               // slave-side ID width
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  input  axi4_req_t [NMasters-1:0] m_req_i,
  output axi4_rsp_t [NMasters-1:0] m_rsp_o,

  output axi4_req_t                s_req_o,
  input  axi4_rsp_t                s_rsp_i
);

  if (OIdW > ID_W) begin : g_id_too_narrow
    $error("axi4_arbiter: {index, id} needs %0d ID bits, axi4_pkg has %0d", OIdW, ID_W);
  end

  // The valids and readies of the masters, one bit each.
  logic [NMasters-1:0] m_arvalid, m_awvalid, m_wvalid, m_rready, m_bready;
  for (genvar m = 0; m < NMasters; m++) begin : g_m
    assign m_arvalid[m] = m_req_i[m].ar_valid;
    assign m_awvalid[m] = m_req_i[m].aw_valid;
    assign m_wvalid[m]  = m_req_i[m].w_valid;
    assign m_rready[m]  = m_req_i[m].r_ready;
    assign m_bready[m]  = m_req_i[m].b_ready;
  end

  // ---------------------------------------------------------------- reads
  // With no AR waiting the choice stays on the last winner (IdleLast): an
  // index in range for the selects below.
  logic clk_gated;  // see the end
  logic [MW-1:0]       ar_sel;
  logic                ar_any;
  logic [NMasters-1:0] ar_req;
  logic                ar_wait_q;     // the AR offered last cycle was not taken
  logic [MW-1:0]       ar_wait_sel_q;

  always_comb begin
    ar_req = m_arvalid;
    if (ar_wait_q) begin
      ar_req = '0;
      ar_req[ar_wait_sel_q] = m_arvalid[ar_wait_sel_q];
    end
  end

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_wait_q     <= 1'b0;
      ar_wait_sel_q <= '0;
    end else begin
      ar_wait_q     <= s_req_o.ar_valid && !s_rsp_i.ar_ready;
      ar_wait_sel_q <= ar_sel;
    end
  end

  prim_rr_arb #(.N(NMasters), .IdxW(MW), .IdleLast(1'b1)) u_ar_arb (
    .clk_i (clk_gated),
    .rst_ni,
    .req_i       (ar_req),
    .take_i      (s_rsp_i.ar_ready),
    .gnt_valid_o (ar_any),
    .gnt_idx_o   (ar_sel)
  );

  logic [MW-1:0] r_dst;
  assign r_dst = s_rsp_i.r.id[IdW +: MW];

  always_comb begin
    s_req_o.ar_valid = ar_any;
    s_req_o.ar       = m_req_i[ar_sel].ar;
    s_req_o.ar.id    = ID_W'({ar_sel, m_req_i[ar_sel].ar.id[IdW-1:0]});
    for (int unsigned m = 0; m < NMasters; m++) begin
      m_rsp_o[m].ar_ready = (MW'(m) == ar_sel) && s_rsp_i.ar_ready;
      m_rsp_o[m].r_valid  = (MW'(m) == r_dst) && s_rsp_i.r_valid;
      m_rsp_o[m].r        = s_rsp_i.r;
      m_rsp_o[m].r.id     = ID_W'(s_rsp_i.r.id[IdW-1:0]);
    end
  end
  // An ID naming no master (a misbehaving slave) is drained, not hung on.
  assign s_req_o.r_ready = (32'(r_dst) < NMasters) ? m_rready[r_dst] : 1'b1;

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
    aw_req = m_awvalid;
    if (aw_wait_q) begin
      aw_req = '0;
      aw_req[aw_wait_sel_q] = m_awvalid[aw_wait_sel_q];
    end
  end

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_wait_q     <= 1'b0;
      aw_wait_sel_q <= '0;
    end else begin
      aw_wait_q     <= s_req_o.aw_valid && !s_rsp_i.aw_ready;
      aw_wait_sel_q <= aw_sel;
    end
  end

  prim_rr_arb #(.N(NMasters), .IdxW(MW), .IdleLast(1'b1)) u_aw_arb (
    .clk_i (clk_gated),
    .rst_ni,
    .req_i       (aw_req),
    .take_i      (!w_busy_q && s_rsp_i.aw_ready),
    .gnt_valid_o (aw_any),
    .gnt_idx_o   (aw_sel)
  );

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      w_busy_q  <= 1'b0;
      w_owner_q <= '0;
    end else if (!w_busy_q && s_req_o.aw_valid && s_rsp_i.aw_ready) begin
      w_busy_q  <= 1'b1;
      w_owner_q <= aw_sel;
    end else if (w_busy_q && s_req_o.w_valid && s_rsp_i.w_ready && s_req_o.w.last) begin
      w_busy_q  <= 1'b0;
    end
  end

  logic [MW-1:0] b_dst;
  assign b_dst = s_rsp_i.b.id[IdW +: MW];

  always_comb begin
    s_req_o.aw_valid = !w_busy_q && aw_any;
    s_req_o.aw       = m_req_i[aw_sel].aw;
    s_req_o.aw.id    = ID_W'({aw_sel, m_req_i[aw_sel].aw.id[IdW-1:0]});
    s_req_o.w_valid  = w_busy_q && m_wvalid[w_owner_q];
    s_req_o.w        = m_req_i[w_owner_q].w;
    for (int unsigned m = 0; m < NMasters; m++) begin
      m_rsp_o[m].aw_ready = (MW'(m) == aw_sel) && !w_busy_q && s_rsp_i.aw_ready;
      m_rsp_o[m].w_ready  = (MW'(m) == w_owner_q) && w_busy_q && s_rsp_i.w_ready;
      m_rsp_o[m].b_valid  = (MW'(m) == b_dst) && s_rsp_i.b_valid;
      m_rsp_o[m].b        = s_rsp_i.b;
      m_rsp_o[m].b.id     = ID_W'(s_rsp_i.b.id[IdW-1:0]);
    end
  end
  assign s_req_o.b_ready = (32'(b_dst) < NMasters) ? m_bready[b_dst] : 1'b1;

  // Master ID bits above IdW and slave ID bits above OIdW are 0.
  logic unused;
  assign unused = ^{m_req_i, s_rsp_i.b.id, s_rsp_i.r.id};

  // The arbiter's clock skips its edges while no master offers anything,
  // no response comes back and no write burst is open (prim_sim_clock_gate:
  // in the Verilator build only).
  logic active;
  assign active = (|m_arvalid) || (|m_awvalid) || (|m_wvalid) || s_rsp_i.r_valid ||
                  s_rsp_i.b_valid || w_busy_q || ar_wait_q || aw_wait_q;
  prim_sim_clock_gate u_clock_gate (
    .clk_i,
    .rst_ni,
    .active_i (active),
    .clk_o    (clk_gated)
  );

endmodule : axi4_arbiter
