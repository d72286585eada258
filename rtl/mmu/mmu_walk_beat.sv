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
// tbl_we_o, wbuf_we_o and pdata_we_o are wider than the exact condition:
// they also write where the walk ends instead, because nothing reads
// those fields then (see mmu_walker, "Enables"). rdreq_o, first_o, lvl_o,
// leaf64_o, fell_o and pend_o are exact. Combinational.
module mmu_walk_beat #(
  parameter int unsigned Levels = 4,
  parameter int unsigned AddrW  = 44,   // PA[51:8] of a table
  parameter int unsigned DataW  = 90,   // a walk-cache entry (mmu_pwc)
  parameter int unsigned NLv    = Levels - 1
) (
  // The context
  input  logic [1:0]           lvl_i,      // level of the entry being read
  input  logic [63:0]          wbuf_i,     // word 0 of a dual entry; word 1 at a 4 KB-page leaf
  input  logic                 fell_i,
  input  logic                 leaf64_i,
  input  logic                 beat1_i,    // word 0 of the dual entry has arrived
  input  logic                 err0_i,     // ... with an error
  // The beat
  input  logic [63:0]          rdata_i,
  input  logic                 rerr_i,
  // What follows
  output logic                 first_o,    // word 0 of a dual entry: keep it, wait for word 1
  output logic                 rdreq_o,    // a next read is set up (else the walk ends)
  output logic [1:0]           lvl_o,      // the next read's level, table and leaf kind
  output logic [AddrW-1:0]     tbl_o,
  output logic                 leaf64_o,
  output logic                 fell_o,
  output logic                 tbl_we_o,
  output logic                 wbuf_we_o,  // wbuf takes the beat's word
  output logic [NLv-1:0]       pend_o,     // walk-cache entries read now (pending install)
  output logic [NLv-1:0]       pdata_we_o,
  output logic [NLv*DataW-1:0] pdata_o     // their data, per level
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

  logic ok2;   // both words of a dual entry arrived without an error
  assign ok2 = beat1_i && !err0_i && !rerr_i;

  always_comb begin
    first_o    = 1'b0;
    rdreq_o    = 1'b0;
    lvl_o      = (lvl_i == 2'd0) ? 2'd0 : lvl_i - 2'd1;
    tbl_o      = rdata_i[AdrL +: AddrW];
    leaf64_o   = leaf64_i;
    fell_o     = fell_i;
    tbl_we_o   = 1'b0;
    wbuf_we_o  = 1'b0;
    pend_o     = '0;
    pdata_we_o = '0;
    pdata_o    = '0;
    if (lvl_i >= 2'd2) begin
      // A pointer goes one level down; anything else ends the walk.
      rdreq_o  = !rerr_i && table_ptr(rdata_i);
      tbl_we_o = 1'b1;
      for (int l = 2; l < Levels; l++) begin
        if (lvl_i == 2'(l)) begin
          pend_o[l-1]     = rdreq_o;
          pdata_we_o[l-1] = 1'b1;
          pdata_o[(l-1)*DataW +: DataW] = {1'b1, rdata_i[AdrL +: AddrW], 1'b0, {AddrW{1'b0}}};
        end
      end
    end else if (lvl_i == 2'd1) begin
      // A dual entry: word 0 (4 KB-page table or 2 MB page) comes first and
      // waits in wbuf; with word 1 (64 KB-page table) the walk goes to the
      // 4 KB-page table if word 0 is valid (keeping word 1 for a
      // fall-through), else to the 64 KB-page table.
      first_o       = !beat1_i;
      rdreq_o       = ok2 && (table_ptr(wbuf_i) || (!wbuf_i[VBit] && table_ptr(rdata_i)));
      tbl_we_o      = beat1_i;
      wbuf_we_o     = 1'b1;
      tbl_o         = wbuf_i[VBit] ? wbuf_i[AdrL +: AddrW] : rdata_i[AdrL +: AddrW];
      leaf64_o      = !wbuf_i[VBit];
      fell_o        = 1'b0;
      pend_o[0]     = ok2 && clean_word(wbuf_i) && clean_word(rdata_i) &&
                      (wbuf_i[VBit] || rdata_i[VBit]);
      pdata_we_o[0] = beat1_i;
      pdata_o[0 +: DataW] = {wbuf_i[VBit], wbuf_i[AdrL +: AddrW],
                             rdata_i[VBit], rdata_i[AdrL +: AddrW]};
    end else begin
      // A leaf entry: an empty 4 KB slot falls through to the 64 KB-page
      // table of word 1.
      rdreq_o  = !rerr_i && !rdata_i[VBit] && !leaf64_i && table_ptr(wbuf_i);
      tbl_we_o = rdreq_o;
      tbl_o    = wbuf_i[AdrL +: AddrW];
      leaf64_o = 1'b1;
      fell_o   = 1'b1;
    end
  end

endmodule : mmu_walk_beat
