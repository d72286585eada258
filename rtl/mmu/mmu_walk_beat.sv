// SPDX-License-Identifier: Apache-2.0
// One walk context's next step on an R beat: whether the beat sets up a
// next read or ends the walk, the context fields that change with it, and
// the walk-cache entry it read. The rules are those of docs/page-tables.md
// (the record of a walk that ends is built in mmu_walker).
//
// The walker has one per context, fed by that context's own registers and
// the beat's data, so a context's write enables wait for the entry's flags
// and the beat's ID compare only. Each output is written flat from a few
// predicates of the entry (a table pointer, a word the walk cache may
// hold) rather than through the priority chain of the record.
//
// table_we_o, held_word_we_o and pwc_pending_data_we_o are wider than the
// exact condition: they also write where the walk ends instead, because
// nothing reads those fields then (see mmu_walker, "Enables").
// read_next_o, dual_first_o, level_o, leaf64_o, fell_through_o and
// pwc_pending_o are exact. Combinational.
//
// The walk-cache entries are flattened per level (level l at bit (l-1) of
// pwc_pending_o and at [(l-1)*DataW +: DataW] of pwc_pending_data_o):
// Yosys 0.23's read_verilog does not accept unpacked-array ports.
module mmu_walk_beat #(
  parameter int unsigned Levels = 4,
  parameter int unsigned AddrW  = 44,   // PA[51:8] of a table
  parameter int unsigned DataW  = 90,   // a walk-cache entry (mmu_pwc)
  parameter int unsigned NLv    = Levels - 1
) (
  // The context
  input  logic [1:0]           level_i,           // level of the entry being read
  input  logic [63:0]          held_word_i,       // word 0 of a dual entry; word 1 at a 4 KB-page leaf
  input  logic                 fell_through_i,    // at the 64 KB-page table after an empty 4 KB slot
  input  logic                 leaf64_i,          // the leaf table is a 64 KB-page table
  input  logic                 word0_arrived_i,   // word 0 of the dual entry has arrived
  input  logic                 word0_err_i,       // ... with an error
  // The beat
  input  logic [63:0]          rdata_i,
  input  logic                 rerr_i,
  // What follows
  output logic                 dual_first_o,      // word 0 of a dual entry: keep it, wait for word 1
  output logic                 read_next_o,       // a next read is set up (else the walk ends)
  output logic [1:0]           level_o,           // the next read's level, table and leaf kind
  output logic [AddrW-1:0]     table_o,
  output logic                 leaf64_o,
  output logic                 fell_through_o,
  output logic                 table_we_o,
  output logic                 held_word_we_o,    // the held word takes the beat's word
  output logic [NLv-1:0]       pwc_pending_o,     // walk-cache entries read now (pending install)
  output logic [NLv-1:0]       pwc_pending_data_we_o,
  output logic [NLv*DataW-1:0] pwc_pending_data_o // their data, per level
);

  localparam int unsigned VBit  = gmmu_pte_pkg::PTE_VALID_LSB;
  localparam int unsigned ZBit  = gmmu_pte_pkg::PTE_ZERO_LSB;
  localparam int unsigned LpBit = gmmu_pte_pkg::PTE_LARGE_PAGE_LSB;
  localparam int unsigned AdrL  = gmmu_pte_pkg::PTE_ADDR_LSB;
  localparam int unsigned SegL  = gmmu_pte_pkg::PTE_SEGMENT_LSB;
  localparam logic [4:0]  SegVram = 5'(gmmu_pte_pkg::SEGMENT_VRAM);

  // A valid pointer to a table in VRAM (not Zero, not LargePage).
  function automatic logic table_ptr(input logic [63:0] w);
    table_ptr = w[VBit] && !w[ZBit] && !w[LpBit] && (w[SegL +: 5] == SegVram);
  endfunction

  // A word of a dual entry the walk cache may hold: invalid, or a table
  // pointer.
  function automatic logic clean_word(input logic [63:0] w);
    clean_word = !w[VBit] || table_ptr(w);
  endfunction

  logic both_words_ok;   // both words of a dual entry arrived without an error
  assign both_words_ok = word0_arrived_i && !word0_err_i && !rerr_i;

  always_comb begin
    dual_first_o          = 1'b0;
    read_next_o           = 1'b0;
    level_o               = (level_i == 2'd0) ? 2'd0 : level_i - 2'd1;
    table_o               = rdata_i[AdrL +: AddrW];
    leaf64_o              = leaf64_i;
    fell_through_o        = fell_through_i;
    table_we_o            = 1'b0;
    held_word_we_o        = 1'b0;
    pwc_pending_o         = '0;
    pwc_pending_data_we_o = '0;
    pwc_pending_data_o    = '0;
    if (level_i >= 2'd2) begin
      // A pointer goes one level down; anything else ends the walk.
      read_next_o = !rerr_i && table_ptr(rdata_i);
      table_we_o  = 1'b1;
      for (int l = 2; l < Levels; l++) begin
        if (level_i == 2'(l)) begin
          pwc_pending_o[l-1]         = read_next_o;
          pwc_pending_data_we_o[l-1] = 1'b1;
          pwc_pending_data_o[(l-1)*DataW +: DataW] = {1'b1, rdata_i[AdrL +: AddrW], 1'b0, {AddrW{1'b0}}};
        end
      end
    end else if (level_i == 2'd1) begin
      // A dual entry: word 0 (4 KB-page table or 2 MB page) comes first and
      // waits in the held word; with word 1 (64 KB-page table) the walk
      // goes to the 4 KB-page table if word 0 is valid (keeping word 1 for a
      // fall-through), else to the 64 KB-page table.
      dual_first_o     = !word0_arrived_i;
      read_next_o      = both_words_ok &&
                         (table_ptr(held_word_i) || (!held_word_i[VBit] && table_ptr(rdata_i)));
      table_we_o       = word0_arrived_i;
      held_word_we_o   = 1'b1;
      table_o          = held_word_i[VBit] ? held_word_i[AdrL +: AddrW] : rdata_i[AdrL +: AddrW];
      leaf64_o         = !held_word_i[VBit];
      fell_through_o   = 1'b0;
      pwc_pending_o[0] = both_words_ok && clean_word(held_word_i) && clean_word(rdata_i) &&
                         (held_word_i[VBit] || rdata_i[VBit]);
      pwc_pending_data_we_o[0]       = word0_arrived_i;
      pwc_pending_data_o[0 +: DataW] = {held_word_i[VBit], held_word_i[AdrL +: AddrW],
                                        rdata_i[VBit], rdata_i[AdrL +: AddrW]};
    end else begin
      // A leaf entry: an empty 4 KB slot falls through to the 64 KB-page
      // table of word 1.
      read_next_o    = !rerr_i && !rdata_i[VBit] && !leaf64_i && table_ptr(held_word_i);
      table_we_o     = read_next_o;
      table_o        = held_word_i[AdrL +: AddrW];
      leaf64_o       = 1'b1;
      fell_through_o = 1'b1;
    end
  end

endmodule : mmu_walk_beat
