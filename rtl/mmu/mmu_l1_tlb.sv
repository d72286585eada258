// SPDX-License-Identifier: Apache-2.0
// L1 TLB of one translation port: fully associative, in flops.
//
// Each entry holds an address space, the VA page number of the range it
// covers (aligned to that range) and a translation record (INFO_* layout of
// gmmu_mmu_pkg): any page size, and a covered range that may be smaller than
// the page where a 4 KB table overlays a 64 KB page. Several entries may
// match after duplicate fills; the lowest one wins. A "fresh" bit per entry,
// set at install and cleared by the first request that uses the entry,
// drives the port's next-page prefetch.
//
// Timing: the lookup is split at a register. In the cycle of the request
// (lk_load_i) the address is compared with every entry and the winner's
// index registered; the next cycle lk_hit_o, lk_info_o (a distributed-RAM
// read at the registered index) and lk_fresh_o come from registers, so
// nothing after the compare shares its cycle. An entry that an install
// overwrites or an invalidation clears in the compare's cycle, or while
// the port holds the lookup (no lk_load_i), does not hit: the registered
// lookup never answers with a record that has left the TLB.
//
// Install writes the lowest entry that was invalid a cycle earlier (the
// choice is registered a cycle ahead, below), else the round-robin victim,
// without a presence check (a duplicate is harmless). Invalidation
// clears, in one cycle, every entry of all address spaces or of one; a range
// invalidation (entries of one address space whose covered range overlaps
// [inv_start_i, inv_end_i], page numbers) checks one entry per cycle, busy
// for Entries cycles.
module mmu_l1_tlb #(
  parameter int unsigned Entries = 16,
  parameter int unsigned AsidW   = 6,
  parameter int unsigned VpnW    = 36
) (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,

  // Lookup
  input  logic                                 lk_load_i,    // compare now, answer next cycle
  input  logic [AsidW-1:0]                     lk_asid_i,
  input  logic [VpnW-1:0]                      lk_vpn_i,
  output logic                                 lk_hit_o,     // of the registered lookup
  output logic [gmmu_mmu_pkg::INFO_BITS-1:0]   lk_info_o,
  output logic                                 lk_fresh_o,   // the entry was not hit yet
  input  logic                                 lk_used_i,    // the registered hit was used: not fresh

  // Install
  input  logic                                 ins_valid_i,
  // A fill arrives (it may not install: a fault, stale): the entry it would
  // write does not hit. Without the install's checks, so the lookup's keep
  // mask does not wait for them (from the fill bus through those checks
  // into the hit encoder was once the routed critical path).
  input  logic                                 ins_maybe_i,
  input  logic [AsidW-1:0]                     ins_asid_i,
  input  logic [VpnW-1:0]                      ins_vpn_i,
  input  logic [gmmu_mmu_pkg::INFO_BITS-1:0]   ins_info_i,

  // Invalidate
  input  logic                                 inv_valid_i,
  input  logic [1:0]                           inv_type_i,
  input  logic [AsidW-1:0]                     inv_asid_i,
  input  logic [VpnW-1:0]                      inv_start_i,
  input  logic [VpnW-1:0]                      inv_end_i,
  output logic                                 inv_busy_o
);

  localparam int unsigned InfoW = gmmu_mmu_pkg::INFO_BITS;
  localparam int unsigned CovL  = gmmu_mmu_pkg::INFO_COV_LSB;
  localparam int unsigned IdxW  = (Entries > 1) ? $clog2(Entries) : 1;

  // The covered range of an entry as a thermometer code (bit k: the range
  // is at least the (k+1)-th size above 4 KB), so the mask of the VA
  // page-number bits above it is plain wiring.
  function automatic logic [3:0] therm(input logic [2:0] cov);
    therm = {cov >= 3'd4, cov >= 3'd3, cov >= 3'd2, cov >= 3'd1};
  endfunction
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [VpnW-1:0] therm_mask(input logic [3:0] g);
    logic [35:0] m;
    m = {9'h1FF, {9{~g[3]}}, {9{~g[2]}}, {5{~g[1]}}, {4{~g[0]}}};
    therm_mask = m[VpnW-1:0];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  logic [Entries-1:0] valid_q, valid_d;
  logic [Entries-1:0] fresh_q;
  logic [AsidW-1:0]   asid_q [Entries];
  logic [VpnW-1:0]    vpn_q  [Entries];
  logic [InfoW-1:0]   info_q [Entries];   // read at the hit only (distributed RAM)
  logic [3:0]         therm_q [Entries];  // covered range, for the compares
  logic [IdxW-1:0]    victim_q;

  logic [Entries-1:0] match;
  logic [Entries-1:0] inv_hit;
  logic [Entries-1:0] keep;       // entries whose record is unchanged this cycle
  logic [Entries-1:0] fill_slot;  // the entry a fill may write this cycle
  logic [IdxW-1:0]    hit_idx;
  logic               hit_any;
  logic               hit_q;
  logic [IdxW-1:0]    hit_idx_q;
  // The entry the next install writes: the lowest free one, else the
  // round-robin victim, registered so an install's enables come from a
  // register (from the valid bits through the free-entry search to every
  // entry's enables was a long path group of the port on ECP5). The free
  // entries are searched in this cycle's valid bits, twice: all of them,
  // and without the entry an install writes now; the install only chooses
  // between the two, so neither the fill bus nor an invalidation or the
  // sweep's compare is in front of the search (the fill bus -> install ->
  // free search -> slot registers was once the routed critical path of
  // fmax-mmu). Entries freed in this cycle are seen a cycle later: an
  // install may take the victim then although one is free, which costs a
  // hit at most.
  logic [IdxW-1:0]    ins_idx_q, ins_idx_d, victim_d, victim_ins, idx_ins, idx_noins;
  logic [Entries-1:0] ins_slot_q, ins_slot_d;  // one-hot ins_idx_q
  logic               ins_free_q;  // ins_idx_q is free (else the victim)
  logic               nxt_free_any;
  logic               free_any_all, free_any_other;
  logic [IdxW-1:0]    free_idx_all, free_idx_other;
  logic [VpnW-1:0]    ins_mask;

  always_comb begin
    for (int i = 0; i < Entries; i++) begin
      match[i] = valid_q[i] && (asid_q[i] == lk_asid_i) &&
                 ((lk_vpn_i & therm_mask(therm_q[i])) == vpn_q[i]);
      inv_hit[i] = (inv_type_i == 2'(gmmu_mmu_pkg::INV_ALL)) ||
                   (inv_type_i == 2'(gmmu_mmu_pkg::INV_ASID) && asid_q[i] == inv_asid_i);
    end
  end

  // INV_RANGE checks one entry per cycle (one pair of comparators instead of
  // one per entry): Entries cycles, well within the L2 sweep, and lookups
  // meanwhile belong to requests issued before DONE. The entry is read in
  // one cycle (registered) and compared and cleared in the next: the read
  // (a 16-to-1 select), the range compares and the valid bit in one cycle
  // were once the routed critical path of fmax-mmu. An entry filled
  // between the two cycles may be cleared too: it is only lost.
  logic             sw_q, sw2_q;
  logic [IdxW-1:0]  sw_idx_q, sw2_idx_q;
  logic [AsidW-1:0] sw_asid_q;
  logic [VpnW-1:0]  sw_start_q, sw_end_q;
  logic             sw2_valid_q;
  logic [AsidW-1:0] sw2_asid_q;
  logic [VpnW-1:0]  sw2_vpn_q, sw2_start_q;
  logic             sw_hit;
  logic [Entries-1:0] sw_clr;

  always_ff @(posedge clk_i) begin
    sw2_idx_q   <= sw_idx_q;
    sw2_valid_q <= valid_q[sw_idx_q];
    sw2_asid_q  <= asid_q[sw_idx_q];
    sw2_vpn_q   <= vpn_q[sw_idx_q];
    sw2_start_q <= sw_start_q & therm_mask(therm_q[sw_idx_q]);
  end

  assign sw_hit = sw2_q && sw2_valid_q && (sw2_asid_q == sw_asid_q) &&
                  (sw2_vpn_q <= sw_end_q) && (sw2_vpn_q >= sw2_start_q);
  assign inv_busy_o = sw_q || sw2_q;

  // The fill's arrival (ins_maybe_i) is a register of the port's own
  // (mmu_top's fill_valid_q), so it masks the compare in front of the one
  // encoder.
  prim_lowest_set #(.N(Entries), .IdxW(IdxW)) u_hit_enc (
    .req_i (match & keep),
    .any_o (hit_any),
    .idx_o (hit_idx)
  );

  prim_lowest_set #(.N(Entries), .IdxW(IdxW)) u_free_enc (
    .req_i (~valid_q),
    .any_o (free_any_all),
    .idx_o (free_idx_all)
  );

  prim_lowest_set #(.N(Entries), .IdxW(IdxW)) u_free_other_enc (
    .req_i (~valid_q & ~ins_slot_q),
    .any_o (free_any_other),
    .idx_o (free_idx_other)
  );

  // Both outcomes are worked out from registers and the install (from the
  // fill bus) only chooses between them.
  assign victim_ins = ins_free_q ? victim_q
                                 : ((victim_q == IdxW'(Entries - 1)) ? '0 : victim_q + 1'b1);
  assign idx_ins    = free_any_other ? free_idx_other : victim_ins;
  assign idx_noins  = free_any_all ? free_idx_all : victim_q;
  assign nxt_free_any = ins_valid_i ? free_any_other : free_any_all;
  assign victim_d     = ins_valid_i ? victim_ins : victim_q;
  assign ins_idx_d    = ins_valid_i ? idx_ins : idx_noins;
  assign ins_slot_d   = ins_valid_i ? Entries'(1) << idx_ins : Entries'(1) << idx_noins;

  assign lk_hit_o   = hit_q;
  assign lk_info_o  = info_q[hit_idx_q];
  assign lk_fresh_o = fresh_q[hit_idx_q];
  assign ins_mask   = therm_mask(therm(ins_info_i[CovL +: 3]));
  assign fill_slot  = ins_maybe_i ? ins_slot_q : '0;

  // The sweep's clear wins over an install into the same entry. An
  // invalidation in the install's cycle leaves the written entry invalid
  // (the record may predate it; the entry's old record is only lost): the
  // invalidation reaches the valid bits only, not the payload's write
  // enables, which it fanned out to in every port's L1. The install
  // enters last.
  always_comb begin
    sw_clr = '0;
    if (sw_hit) sw_clr[sw2_idx_q] = 1'b1;
    if (inv_valid_i) begin
      valid_d = valid_q & ~inv_hit & ~(ins_valid_i ? ins_slot_q : '0);
    end else begin
      valid_d = valid_q & ~sw_clr;
      if (ins_valid_i) valid_d = valid_d | (ins_slot_q & ~sw_clr);
    end
  end
  // Conservative, so neither the fill's checks nor the sweep's range
  // compares are in front of the compare: the entry a fill may write, the
  // entry the sweep may clear, and those an INV_ALL or INV_ASID clears.
  assign keep = ~(sw2_q ? Entries'(1) << sw2_idx_q : '0) & ~(inv_valid_i ? inv_hit : '0) &
                ~fill_slot;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q    <= '0;
      fresh_q    <= '0;
      victim_q   <= '0;
      ins_idx_q  <= '0;
      ins_slot_q <= Entries'(1);
      ins_free_q <= 1'b1;
      sw_q       <= 1'b0;
      sw2_q      <= 1'b0;
      sw_idx_q   <= '0;
      sw_asid_q  <= '0;
      sw_start_q <= '0;
      sw_end_q   <= '0;
      hit_q      <= 1'b0;
      hit_idx_q  <= '0;
    end else begin
      valid_q <= valid_d;
      if (lk_load_i) begin
        hit_q     <= hit_any;
        hit_idx_q <= hit_idx;
      end else begin
        hit_q     <= hit_q && keep[hit_idx_q];
      end
      if (lk_used_i && hit_q) fresh_q[hit_idx_q] <= 1'b0;
      if (ins_valid_i) fresh_q[ins_idx_q] <= 1'b1;
      victim_q   <= victim_d;
      ins_idx_q  <= ins_idx_d;
      ins_slot_q <= ins_slot_d;
      ins_free_q <= nxt_free_any;
      sw2_q <= sw_q;
      if (sw_q) begin
        sw_idx_q <= sw_idx_q + 1'b1;
        if (sw_idx_q == IdxW'(Entries - 1)) sw_q <= 1'b0;
      end
      // A range command pulses only while no sweep runs (mmu_regs turns
      // a command during one into INV_ALL), so the sweep's copies may load
      // whenever sw_q is low, the pulse's cycle included, and hold while
      // it is high: not enabled by the pulse, which would fan out to all
      // their enables.
      if (!sw_q) begin
        sw_asid_q  <= inv_asid_i;
        sw_start_q <= inv_start_i;
        sw_end_q   <= inv_end_i;
      end
      if (inv_valid_i && inv_type_i == 2'(gmmu_mmu_pkg::INV_RANGE)) begin
        sw_q     <= 1'b1;
        sw_idx_q <= '0;
      end
    end
  end

  // Payload: no reset needed, valid_q guards it.
  always_ff @(posedge clk_i) begin
    if (ins_valid_i) begin
      asid_q[ins_idx_q]  <= ins_asid_i;
      vpn_q[ins_idx_q]   <= ins_vpn_i & ins_mask;
      info_q[ins_idx_q]  <= ins_info_i;
      therm_q[ins_idx_q] <= therm(ins_info_i[CovL +: 3]);
    end
  end

endmodule : mmu_l1_tlb
