// SPDX-License-Identifier: Apache-2.0
// Page-walk cache: upper-level table entries, fully associative, in flops.
//
// An entry of level L (1 .. Levels-1) is tagged with an address space and
// the VA bits above 12 + 9L; it says where the level L-1 table of that VA
// range is, so a walk that hits starts at level L-1 instead of the root.
// Level-1 entries hold both words of the dual entry as two table pointers
// (4 KB-page and 64 KB-page leaf tables, each with a valid bit); only dual
// entries made of plain table pointers or invalid words are cached. A
// lookup returns the deepest level that hits.
//
// Timing: the lookup takes two registered steps. The address given in one
// cycle is compared with every entry and the matches registered; the next
// cycle the deepest level and its lowest entry are chosen and registered;
// the cycle after, lk_hit_o, lk_level_o and lk_data_o (a distributed-RAM
// read at the registered index) come from registers. The walker gives the
// address two cycles ahead (the L2's lookup two cycles before the L2
// presents its result, a miss the walker then starts). Compare and choice
// in one cycle made one of the MMU's longest paths on ECP5. An entry that an
// install overwrites or an invalidation clears in either cycle does not
// hit, and nothing hits after a cycle with an invalidation (a range
// invalidation's sweep may have begun).
//
// Install writes one entry per cycle, unless it is already present, into
// the round-robin slot, two cycles after ins_valid_i: the install is
// registered, compared with every entry, and the compare registered before
// the presence decision and the write (from the walker's choice of which
// walk installs, through the presence check to the write enables, was one
// of the MMU's longest paths on ECP5). One that meets an invalidation on
// the way is dropped. Invalidation clears in one cycle every entry or those
// of one address space; a range invalidation (VA range overlapping
// [inv_start_i, inv_end_i]) checks one entry per cycle, busy for
// Entries + 2 cycles (read, compare and clear are pipelined), and the cache
// misses meanwhile.
module mmu_pwc #(
  parameter int unsigned Entries = 16,
  parameter int unsigned AsidW   = 6,
  parameter int unsigned Levels  = 4,
  parameter int unsigned VpnW    = 9 * Levels,
  parameter int unsigned NLv     = Levels - 1,   // cached levels: 1 .. Levels-1
  parameter int unsigned DataW   = 90            // {p0 valid, p0 PA[51:8], p1 valid, p1 PA[51:8]}
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Lookup
  input  logic [AsidW-1:0]     lk_asid_i,
  input  logic [VpnW-1:0]      lk_vpn_i,
  output logic                 lk_hit_o,
  output logic [1:0]           lk_level_o,
  output logic [DataW-1:0]     lk_data_o,

  // Install one entry (level 1 .. Levels-1) for the VA page number ins_vpn_i
  input  logic                 ins_valid_i,
  input  logic [AsidW-1:0]     ins_asid_i,
  input  logic [VpnW-1:0]      ins_vpn_i,
  input  logic [1:0]           ins_level_i,
  input  logic [DataW-1:0]     ins_data_i,

  // Invalidate
  input  logic                 inv_valid_i,
  input  logic [1:0]           inv_type_i,
  input  logic [AsidW-1:0]     inv_asid_i,
  input  logic [VpnW-1:0]      inv_start_i,
  input  logic [VpnW-1:0]      inv_end_i,
  output logic                 inv_busy_o
);

  localparam int unsigned IdxW = (Entries > 1) ? $clog2(Entries) : 1;

  // VA page-number bits above the range an entry of a level covers.
  // As a thermometer code per level, the mask is plain wiring.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [VpnW-1:0] level_mask(input logic [1:0] level);
    logic [35:0] m;
    m = {9'h1FF, {9{!(level >= 2'd3)}}, {9{!(level >= 2'd2)}}, {9{!(level >= 2'd1)}}};
    level_mask = m[VpnW-1:0];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  logic [Entries-1:0] valid_q;
  logic               sw_q;       // range invalidation: reading entries
  logic               sw_busy;    // range invalidation: entries still to read, compare or clear
  logic [AsidW-1:0]   asid_q  [Entries];
  logic [1:0]         level_q [Entries];
  logic [VpnW-1:0]    tag_q   [Entries];
  logic [DataW-1:0]   data_q  [Entries];
  logic [IdxW-1:0]    ptr_q;      // the next install's slot (the RAM's write address)
  logic [Entries-1:0] ptr_oh_q;   // the same, one-hot: no decoder in front of keep/valid

  // ---------------------------------------------------------------- lookup
  logic [Entries-1:0] match;
  logic [Entries-1:0] match_q;    // step 1's matches, still unchanged in step 2
  logic [Entries-1:0] chosen;
  logic [Entries-1:0] keep;       // entries unchanged this cycle
  logic               hit;
  logic [1:0]         level;
  logic [IdxW-1:0]    sel;
  logic               hit_q;
  logic [1:0]         level_sel_q;
  logic [IdxW-1:0]    sel_q;

  always_comb begin
    for (int i = 0; i < Entries; i++) begin
      match[i] = valid_q[i] && keep[i] && !sw_busy && (asid_q[i] == lk_asid_i) &&
                 ((lk_vpn_i & level_mask(level_q[i])) == tag_q[i]);
    end
  end

  assign chosen = match_q & keep;

  // The deepest level (the lowest number) that hits, and its lowest entry:
  // an encoder per level in parallel, then a choice among the levels.
  logic [NLv-1:0]  lv_hit;
  logic [IdxW-1:0] lv_sel [NLv];
  for (genvar l = 1; l <= NLv; l++) begin : gen_lv
    logic [Entries-1:0] lv_match;
    always_comb begin
      for (int i = 0; i < Entries; i++) lv_match[i] = chosen[i] && level_q[i] == 2'(l);
    end
    prim_lowest_set #(.N(Entries), .IdxW(IdxW)) u_enc (
      .req_i (lv_match),
      .any_o (lv_hit[l-1]),
      .idx_o (lv_sel[l-1])
    );
  end

  always_comb begin
    hit   = |lv_hit;
    level = '0;
    sel   = '0;
    for (int l = NLv; l >= 1; l--) begin   // the last hit assigned, the lowest level, wins
      if (lv_hit[l-1]) begin
        level = 2'(l);
        sel   = lv_sel[l-1];
      end
    end
  end

  assign lk_hit_o   = hit_q;
  assign lk_level_o = level_sel_q;
  assign lk_data_o  = data_q[sel_q];

  // ---------------------------------------------------------------- install
  // Cycle A (ins_*_q): every entry compared with the install, registered.
  // Cycle B (ins_b_*_q): present if a compared entry is still valid, or
  // the install before it in cycle B was the same; else written.
  logic               ins_v_q, ins_b_v_q;
  logic [AsidW-1:0]   ins_asid_q, ins_b_asid_q;
  logic [1:0]         ins_level_q, ins_b_level_q;
  logic [VpnW-1:0]    ins_tag_q, ins_b_tag_q;
  logic [DataW-1:0]   ins_data_q, ins_b_data_q;
  logic [Entries-1:0] ins_match, ins_match_q;
  logic               ins_dup, ins_dup_q;
  logic               present, wr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ins_v_q   <= 1'b0;
      ins_b_v_q <= 1'b0;
    end else begin
      ins_v_q   <= ins_valid_i && !inv_valid_i;
      ins_b_v_q <= ins_v_q && !inv_valid_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (ins_valid_i) begin
      ins_asid_q  <= ins_asid_i;
      ins_level_q <= ins_level_i;
      ins_tag_q   <= ins_vpn_i & level_mask(ins_level_i);
      ins_data_q  <= ins_data_i;
    end
    if (ins_v_q) begin
      ins_b_asid_q  <= ins_asid_q;
      ins_b_level_q <= ins_level_q;
      ins_b_tag_q   <= ins_tag_q;
      ins_b_data_q  <= ins_data_q;
      ins_match_q   <= ins_match;
      ins_dup_q     <= ins_dup;
    end
  end

  // Whether an entry (or the install in cycle B) is the one in cycle A.
  function automatic logic same_as_install(input logic [AsidW-1:0] e_asid,
                                           input logic [1:0]       e_level,
                                           input logic [VpnW-1:0]  e_tag);
    same_as_install = e_asid == ins_asid_q && e_level == ins_level_q && e_tag == ins_tag_q;
  endfunction

  // The slot cycle B writes this cycle no longer holds what was compared.
  always_comb begin
    for (int i = 0; i < Entries; i++) begin
      ins_match[i] = same_as_install(asid_q[i], level_q[i], tag_q[i]) && !(wr && ptr_oh_q[i]);
    end
  end
  assign ins_dup = ins_b_v_q && same_as_install(ins_b_asid_q, ins_b_level_q, ins_b_tag_q);

  assign present = ins_dup_q || |(ins_match_q & valid_q);
  assign wr      = ins_b_v_q && !inv_valid_i && !present;

  // ---------------------------------------------------------------- invalidate
  // INV_ALL and INV_ASID clear at once; INV_RANGE checks one entry per
  // cycle (Entries + 2 cycles, busy meanwhile), and no lookup hits until it
  // is over, so a walk starting meanwhile never uses an entry not yet
  // checked.
  logic [Entries-1:0] inv_hit;
  always_comb begin
    for (int i = 0; i < Entries; i++) begin
      inv_hit[i] = (inv_type_i == 2'(gmmu_mmu_pkg::INV_ALL)) ||
                   (inv_type_i == 2'(gmmu_mmu_pkg::INV_ASID) && asid_q[i] == inv_asid_i);
    end
  end

  // The sweep is a pipeline: an entry is read (registered), compared with
  // the range (registered), then cleared, so neither the 16-way read nor the
  // range compare's carry chain is in front of valid_q. An entry an install
  // writes between its read and its clear is cleared too (conservative: a
  // walk cache may drop entries); lookups miss until the last clear.
  logic [IdxW-1:0]    sw_idx_q;
  logic [Entries-1:0] sw_oh_q;          // sw_idx_q, one-hot
  logic [AsidW-1:0]   sw_asid_q;
  logic [VpnW-1:0]    sw_start_q, sw_end_q;
  logic               sw_rd_q, sw_rd_valid_q;
  logic [Entries-1:0] sw_rd_oh_q;
  logic [AsidW-1:0]   sw_rd_asid_q;
  logic [1:0]         sw_rd_level_q;
  logic [VpnW-1:0]    sw_rd_tag_q;
  logic               sw_clr_q;
  logic [Entries-1:0] sw_clr_oh_q;

  assign sw_busy    = sw_q || sw_rd_q || sw_clr_q;
  assign inv_busy_o = sw_busy;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sw_rd_q  <= 1'b0;
      sw_clr_q <= 1'b0;
    end else begin
      sw_rd_q  <= sw_q;
      sw_clr_q <= sw_rd_q && sw_rd_valid_q && (sw_rd_asid_q == sw_asid_q) &&
                  (sw_rd_tag_q <= sw_end_q) &&
                  (sw_rd_tag_q >= (sw_start_q & level_mask(sw_rd_level_q)));
    end
  end

  always_ff @(posedge clk_i) begin
    sw_rd_valid_q <= valid_q[sw_idx_q];
    sw_rd_oh_q    <= sw_oh_q;
    sw_rd_asid_q  <= asid_q[sw_idx_q];
    sw_rd_level_q <= level_q[sw_idx_q];
    sw_rd_tag_q   <= tag_q[sw_idx_q];
    sw_clr_oh_q   <= sw_rd_oh_q;
  end

  logic [Entries-1:0] valid_d;
  always_comb begin
    valid_d = valid_q;
    if (wr) valid_d = valid_d | ptr_oh_q;
    if (sw_clr_q) valid_d = valid_d & ~sw_clr_oh_q;
    if (inv_valid_i) valid_d = valid_d & ~inv_hit;
  end
  // Conservative, so the install's presence check is not in front of the
  // compare: the slot an install may write, and everything in a cycle with
  // an invalidation (a sweep clears nothing that matches: it holds lookups
  // off).
  assign keep = ~({Entries{ins_b_v_q}} & ptr_oh_q) & {Entries{!inv_valid_i}};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q    <= '0;
      ptr_q      <= '0;
      ptr_oh_q   <= Entries'(1);
      sw_q       <= 1'b0;
      sw_idx_q   <= '0;
      sw_oh_q    <= Entries'(1);
      sw_asid_q  <= '0;
      sw_start_q <= '0;
      sw_end_q   <= '0;
      hit_q      <= 1'b0;
      match_q    <= '0;
    end else begin
      match_q <= match;
      valid_q <= valid_d;
      hit_q   <= hit;
      if (wr) begin
        ptr_q    <= (ptr_q == IdxW'(Entries - 1)) ? '0 : ptr_q + 1'b1;
        ptr_oh_q <= (ptr_oh_q << 1) | (ptr_oh_q >> (Entries - 1));   // rotate
      end
      if (sw_q) begin
        sw_idx_q <= (sw_idx_q == IdxW'(Entries - 1)) ? '0 : sw_idx_q + 1'b1;
        sw_oh_q  <= (sw_oh_q << 1) | (sw_oh_q >> (Entries - 1));   // rotate
        if (sw_idx_q == IdxW'(Entries - 1)) sw_q <= 1'b0;
      end
      if (inv_valid_i && inv_type_i == 2'(gmmu_mmu_pkg::INV_RANGE)) begin
        sw_q       <= 1'b1;
        sw_idx_q   <= '0;
        sw_oh_q    <= Entries'(1);
        sw_asid_q  <= inv_asid_i;
        sw_start_q <= inv_start_i;
        sw_end_q   <= inv_end_i;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    level_sel_q <= level;
    sel_q       <= sel;
    if (wr) begin
      asid_q[ptr_q]  <= ins_b_asid_q;
      level_q[ptr_q] <= ins_b_level_q;
      tag_q[ptr_q]   <= ins_b_tag_q;
      data_q[ptr_q]  <= ins_b_data_q;
    end
  end

endmodule : mmu_pwc
