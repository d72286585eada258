// SPDX-License-Identifier: Apache-2.0
// Page-table walker: NWalkers walks in flight on one AXI4 read master.
//
// Each walk is a context that alternates between "needs a read" and
// "waiting for data". Contexts that need a read take turns (round robin) at
// a one-deep AR register, which issues one AR per cycle with ARID = context
// number, so every walk has at most one read outstanding and data may come
// back in any order. Level-1 entries are read as one 16-byte, 2-beat burst
// (both words of the dual entry). R beats are taken every cycle (RREADY is
// always 1) and each beat advances its walk through the rules of
// docs/page-tables.md; one entry is evaluated per cycle. A beat with
// RRESP != OKAY ends the walk with BUS_ERROR; an entry address beyond the
// AXI address space ends it with BUS_ERROR without a read.
//
// A context's state (walk_state_e): StFree; StReadReq (its next read is
// set up, waiting for the AR register); StReadWait (its read is out);
// StFollow (waiting on a leader walk, see "following"); StDone (ended,
// waiting for the done channel); StInstall (answered, writing the walk
// cache).
//
// A walk starts from the address-space table (ASID_INVALID when the entry
// is not valid) or, on a hit in the page-walk cache (mmu_pwc), below the
// root. It ends with a translation record (gmmu_mmu_pkg INFO_* layout) or a
// walk fault and waits for the done channel. When a walk ends without a
// fault and is not stale, the upper-level entries it read from memory are
// installed in the page-walk cache after it answered, one per cycle, before
// the context is free again; a walk that faults installs nothing. An
// invalidation marks every walk in flight stale: it still answers its
// request but installs nothing anywhere.
//
// Leaf lines: a 4 KB-page leaf entry is read as one aligned burst of
// LeafLine entries (LeafLine beats). The walk evaluates its own entry when
// that beat arrives; every other valid entry of the line (a translation of
// a neighbouring 4 KB page of the same address space) is offered to the L2
// TLB on the neighbour output (neighbour_*), one per cycle, unless the walk
// is stale, an invalidation comes in that cycle, or another walk in flight
// is for that page (it installs its own). Neighbours are hints: the
// consumer may drop them. A context takes no new read, and is not reused,
// until the rest of its line has arrived, so beats are never attributed to
// the wrong read. This is what makes a surface whose rows are different
// pages cost one walk per LeafLine pages instead of one per page.
//
// Timing: the walk cache and the address-space table are read for a start
// ahead of it (start_in2_*: the L2's lookup that presents its miss in two
// cycles, for the walk cache's two-step lookup; start_in1_asid_i: the one
// that presents it next cycle, for the address-space table) and their
// answers registered, so a start evaluates only registers. Start to first
// AR 1 cycle (plus arbitration); each level costs the memory latency plus
// about 2 cycles; a leaf line LeafLine - 1 beats more (the walk's own entry
// may be any of them).
module mmu_walker #(
  parameter int unsigned NWalkers   = 8,
  parameter int unsigned Levels     = 4,
  parameter int unsigned AsidW      = 6,
  parameter int unsigned MetaW      = 5,
  parameter int unsigned PwcEntries = 16,
  parameter int unsigned LeafLine   = gmmu_mmu_pkg::LEAF_LINE_PTES,  // 1, 2, 4 or 8
  parameter bit          Follow     = 1'b1,   // walk following (see below); 0 saves its logic
  parameter int unsigned AxiAddrW   = 32,
  parameter int unsigned VpnW       = 9 * Levels,
  parameter int unsigned CntW       = $clog2(NWalkers + 1)
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  // The start due next cycle, if any: its address space, to read the
  // address-space table a cycle ahead; and the start due in two cycles, if
  // any, for the walk cache's lookup (compare, then choose, registered)
  input  logic [AsidW-1:0]                    start_in1_asid_i,
  input  logic [AsidW-1:0]                    start_in2_asid_i,
  input  logic [VpnW-1:0]                     start_in2_vpn_i,

  // Start a walk (a free context is guaranteed by the caller)
  input  logic                                start_valid_i,
  input  logic [AsidW-1:0]                    start_asid_i,
  input  logic [VpnW-1:0]                     start_vpn_i,
  input  logic [MetaW-1:0]                    start_meta_i,
  input  logic                                start_stale_i,
  output logic [CntW-1:0]                     walkers_free_o,

  // Address-space table read port (combinational; read for
  // start_in1_asid_i and registered)
  output logic [AsidW-1:0]                    as_lookup_asid_o,
  input  logic                                as_entry_valid_i,
  input  logic [39:0]                         as_entry_root_i,  // root table PA[51:12]

  // AXI4 read master
  output logic                                arvalid_o,
  input  logic                                arready_i,
  output logic [3:0]                          arid_o,
  output logic [31:0]                         araddr_o,
  output logic [7:0]                          arlen_o,
  output logic [2:0]                          arsize_o,
  output logic [1:0]                          arburst_o,
  input  logic                                rvalid_i,
  output logic                                rready_o,
  input  logic [3:0]                          rid_i,
  input  logic [63:0]                         rdata_i,
  input  logic [1:0]                          rresp_i,
  input  logic                                rlast_i,

  // Finished walks
  output logic                                done_valid_o,
  input  logic                                done_ready_i,
  output logic [gmmu_mmu_pkg::INFO_BITS-1:0]  done_info_o,
  output logic [AsidW-1:0]                    done_asid_o,
  output logic [VpnW-1:0]                     done_vpn_o,
  output logic [MetaW-1:0]                    done_meta_o,
  output logic                                done_stale_o,

  // Neighbouring leaf entries of a line read (hints for the L2 TLB)
  output logic                                neighbour_valid_o,
  output logic [AsidW-1:0]                    neighbour_asid_o,
  output logic [VpnW-1:0]                     neighbour_vpn_o,
  output logic [gmmu_mmu_pkg::INFO_BITS-1:0]  neighbour_info_o,

  // Invalidation pulse
  input  logic                                inv_valid_i,
  input  logic [1:0]                          inv_type_i,
  input  logic [AsidW-1:0]                    inv_asid_i,
  input  logic [VpnW-1:0]                     inv_start_i,
  input  logic [VpnW-1:0]                     inv_end_i,
  output logic                                inv_busy_o,

  // Performance events
  output logic                                ev_walk_o,
  output logic                                ev_pwc_hit_o,
  output logic                                ev_pte_read_o,
  output logic [CntW-1:0]                     walkers_busy_o
);

  localparam int unsigned InfoW = gmmu_mmu_pkg::INFO_BITS;
  localparam int unsigned CIdxW = (NWalkers > 1) ? $clog2(NWalkers) : 1;
  localparam int unsigned NLv   = Levels - 1;
  localparam int unsigned DataW = 90;
  localparam int unsigned AddrW = 44;   // PA[51:8] of a table
  localparam int unsigned LineW = (LeafLine > 1) ? $clog2(LeafLine) : 1;   // entry in a line
  localparam int unsigned RemW  = $clog2(LeafLine + 1);                     // beats still to come

  typedef enum logic [2:0] {
    StFree     = 3'd0,
    StReadReq  = 3'd1,   // the next read is set up, waiting for the AR register
    StReadWait = 3'd2,   // the read is out, waiting for its beats
    StDone     = 3'd3,   // ended, waiting for the done channel
    StInstall  = 3'd4,   // answered; writing the walk cache
    StFollow   = 3'd5    // waiting on a leader walk (see "following")
  } walk_state_e;

  localparam int unsigned VBit  = gmmu_pte_pkg::PTE_VALID_LSB;
  localparam int unsigned ZBit  = gmmu_pte_pkg::PTE_ZERO_LSB;
  localparam int unsigned LpBit = gmmu_pte_pkg::PTE_LARGE_PAGE_LSB;
  localparam int unsigned CcBit = gmmu_pte_pkg::PTE_CACHE_COHERENT_LSB;
  localparam int unsigned RoBit = gmmu_pte_pkg::PTE_READ_ONLY_LSB;
  localparam int unsigned NxBit = gmmu_pte_pkg::PTE_NO_EXECUTE_LSB;
  localparam int unsigned AdrL  = gmmu_pte_pkg::PTE_ADDR_LSB;
  localparam int unsigned SegL  = gmmu_pte_pkg::PTE_SEGMENT_LSB;
  localparam logic [4:0]  SegVram = 5'(gmmu_pte_pkg::SEGMENT_VRAM);

  localparam logic [2:0] FNone   = 3'(gmmu_pte_pkg::FAULT_NONE);
  localparam logic [2:0] FInval  = 3'(gmmu_pte_pkg::FAULT_INVALID);
  localparam logic [2:0] FBus    = 3'(gmmu_pte_pkg::FAULT_BUS_ERROR);
  localparam logic [2:0] FAsid   = 3'(gmmu_pte_pkg::FAULT_ASID_INVALID);

  // ---------------------------------------------------------------- helpers
  // Page-number (PA[51:12]) bits inside a page of a PSIZE code.
  function automatic logic [39:0] offs_mask(input logic [2:0] ps);
    case (ps)
      gmmu_mmu_pkg::PSIZE_64K:  offs_mask = 40'hF;
      gmmu_mmu_pkg::PSIZE_2M:   offs_mask = 40'h1FF;
      gmmu_mmu_pkg::PSIZE_1G:   offs_mask = 40'h3FFFF;
      gmmu_mmu_pkg::PSIZE_512G: offs_mask = 40'h7FFFFFF;
      default:                  offs_mask = 40'h0;
    endcase
  endfunction

  // The record of a terminal entry mapping (or zeroing) a psize page, reused
  // for the cov range around the VA.
  function automatic logic [InfoW-1:0] term_info(input logic [63:0] e, input logic [2:0] psize,
                                                 input logic [2:0] cov,
                                                 input logic [VpnW-1:0] vpn);
    logic [39:0]      pmask, cmask, ppn, vpn40;
    logic [InfoW-1:0] info;
    // Page-number bits (PA[51:12]) inside the page and inside the range.
    pmask = offs_mask(psize);
    cmask = offs_mask(cov);
    vpn40 = {{(40-VpnW){1'b0}}, vpn};
    ppn   = (e[AdrL + 4 +: 40] & ~pmask) | (vpn40 & pmask & ~cmask);
    info  = '0;
    info[gmmu_mmu_pkg::INFO_PPN_LSB +: 40] = e[ZBit] ? 40'b0 : ppn;
    info[gmmu_mmu_pkg::INFO_SEG_LSB +: 5]  = e[SegL +: 5];
    info[gmmu_mmu_pkg::INFO_CC_BIT]        = e[CcBit];
    info[gmmu_mmu_pkg::INFO_RO_BIT]        = e[RoBit];
    info[gmmu_mmu_pkg::INFO_NX_BIT]        = e[NxBit];
    info[gmmu_mmu_pkg::INFO_ZERO_BIT]      = e[ZBit];
    info[gmmu_mmu_pkg::INFO_PSIZE_LSB +: 3] = psize;
    info[gmmu_mmu_pkg::INFO_COV_LSB +: 3]   = cov;
    info[gmmu_mmu_pkg::INFO_FAULT_LSB +: 3] = FNone;
    term_info = info;
  endfunction

  function automatic logic [InfoW-1:0] fault_info(input logic [2:0] reason);
    logic [InfoW-1:0] info;
    info = '0;
    info[gmmu_mmu_pkg::INFO_FAULT_LSB +: 3] = reason;
    fault_info = info;
  endfunction

  // ---------------------------------------------------------------- contexts
  // Per context (walk): its state, the walk's request (asid, vpn, meta:
  // the port and miss register it answers), where it is (the level and
  // table of its next read, leaf64: that table is a 64 KB-page table,
  // fell_through: it is the 64 KB-page table after an empty 4 KB slot), the
  // word it holds (word 0 of a dual entry until word 1 arrives; word 1 at a
  // 4 KB-page leaf, for a fall-through), its translation record once it
  // ends, and the walk-cache entries it read and will install.
  walk_state_e          state_q [NWalkers];
  logic [NWalkers-1:0]  stale_q, leaf64_q, fell_through_q;
  logic [NWalkers-1:0]  word0_arrived_q;    // word 0 of the dual entry has arrived
  logic [NWalkers-1:0]  word0_err_q;        // ... with an error
  logic [AsidW-1:0]     asid_q             [NWalkers];
  logic [VpnW-1:0]      vpn_q              [NWalkers];
  logic [MetaW-1:0]     meta_q             [NWalkers];
  logic [1:0]           level_q            [NWalkers];
  logic [AddrW-1:0]     table_q            [NWalkers];   // PA[51:8] of the table to read
  logic [63:0]          held_word_q        [NWalkers];
  logic [InfoW-1:0]     record_q           [NWalkers];
  // Walk-cache entries read, per level (1 .. Levels-1), flattened as
  // mmu_walk_beat's ports are (Yosys 0.23 reads no unpacked-array ports).
  logic [NLv-1:0]       pwc_pending_q      [NWalkers];
  logic [NLv*DataW-1:0] pwc_pending_data_q [NWalkers];
  logic [RemW-1:0]      line_beats_left_q  [NWalkers];   // beats of the context's leaf line still to come
  logic [NWalkers-1:0]  line_draining;                   // ... some are
  logic [NWalkers-1:0]  leader_q           [NWalkers];   // a follower's leader, one-hot
  logic [NWalkers-1:0]  follows_same_64k_q;              // a follower in its leader's 64 KB range
  logic [NWalkers-1:0]  follows_same_page_q;             // a follower for its leader's page

  logic [NWalkers-1:0] is_free, is_read_req, is_read_wait, is_done, is_install, is_follow;
  logic [NWalkers-1:0] is_walking, at_level0;
  always_comb begin
    for (int i = 0; i < NWalkers; i++) begin
      is_free[i]       = (state_q[i] == StFree);
      is_read_req[i]   = (state_q[i] == StReadReq);
      is_read_wait[i]  = (state_q[i] == StReadWait);
      is_done[i]       = (state_q[i] == StDone);
      is_install[i]    = (state_q[i] == StInstall);
      is_follow[i]     = Follow && (state_q[i] == StFollow);   // constant 0 without following
      is_walking[i]    = (state_q[i] == StReadReq) || (state_q[i] == StReadWait);
      at_level0[i]     = (level_q[i] == 2'd0);
      line_draining[i] = (line_beats_left_q[i] != '0);
    end
  end

  // ---------------------------------------------------------------- start
  logic [CIdxW-1:0]   start_ctx;          // the free context a start takes
  logic               pwc_lookup_hit;
  logic [1:0]         pwc_lookup_level;
  logic [DataW-1:0]   pwc_lookup_data;
  // The new context's fields.
  walk_state_e        start_state;
  logic [1:0]         start_level;
  logic [AddrW-1:0]   start_table;
  logic               start_leaf64;
  logic [63:0]        start_held_word;
  logic [InfoW-1:0]   start_record;
  logic [CntW-1:0]    free_count;

  always_comb begin
    start_ctx  = '0;
    free_count = '0;
    for (int i = NWalkers - 1; i >= 0; i--) begin
      if (is_free[i] && !line_draining[i]) start_ctx = CIdxW'(i);
      free_count = free_count + CntW'(is_free[i] && !line_draining[i]);
    end
  end

  // The address-space entry of the next start, registered.
  logic        as_entry_valid_q;
  logic [39:0] as_entry_root_q;
  assign as_lookup_asid_o = start_in1_asid_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      as_entry_valid_q <= 1'b0;
      as_entry_root_q  <= '0;
    end else begin
      as_entry_valid_q <= as_entry_valid_i;
      as_entry_root_q  <= as_entry_root_i;
    end
  end

  // Where the walk begins: the root, or below it after a walk-cache hit.
  always_comb begin
    start_state     = StReadReq;
    start_level     = 2'(Levels - 1);
    start_table     = {as_entry_root_q, 4'b0};
    start_leaf64    = 1'b0;
    start_held_word = '0;
    start_record    = '0;
    if (!as_entry_valid_q) begin
      start_state  = StDone;
      start_record = fault_info(FAsid);
    end else if (pwc_lookup_hit && pwc_lookup_level >= 2'd2) begin
      start_level = pwc_lookup_level - 2'd1;
      start_table = pwc_lookup_data[DataW-2 -: AddrW];
    end else if (pwc_lookup_hit) begin
      // A cached dual entry: go straight to a leaf table. The 64 KB-page
      // pointer is kept as a plain table word for the fall-through.
      start_level = 2'd0;
      if (pwc_lookup_data[DataW-1]) begin
        start_table                    = pwc_lookup_data[DataW-2 -: AddrW];
        start_held_word                = '0;
        start_held_word[VBit]          = pwc_lookup_data[AddrW];
        start_held_word[AdrL +: AddrW] = pwc_lookup_data[AddrW-1:0];
        start_held_word[SegL +: 5]     = SegVram;
      end else begin
        start_table  = pwc_lookup_data[AddrW-1:0];
        start_leaf64 = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- following
  // A walk that starts while another one of its address space and 2 MB
  // range is in flight, at its level or deeper, waits for it instead of
  // reading the same entries again: misses of several ports to one page,
  // misses to the different 4 KB pages of one 64 KB page (their size is
  // known only at the leaf), and the rows of a surface that share a
  // level-1 dual entry. A leader for the same page is preferred. The
  // follower keeps its own starting point and is resolved by what its
  // leader found:
  //   finish: the leader ended without a fault, for the same page or with
  //           a translation whose range (cov) holds the follower's page:
  //           the same answer;
  //   copy:   the leader is at a leaf table of the range (its dual entry
  //           read, no fall-through): go on from that table;
  //   resume: anything else (a fault, a 4 KB answer, a fall-through, an
  //           invalidation): walk from its own starting point.
  // A follower for the leader's page waits for its answer; one in the
  // leader's 64 KB range waits while the leader reads a 64 KB-page leaf
  // (it may cover it); one leader is resolved per cycle
  // (its followers together), and a leader with followers does not leave
  // StDone until they are resolved. Only walks that are not stale follow
  // or lead, so a follower takes nothing older than an L2 or walk-cache
  // hit could give it.
  logic [NWalkers-1:0] follow_cand;          // per context: a leader the new walk may follow
  logic [NWalkers-1:0] follow_pref;          // ... preferred (for the same page, if any)
  logic [NWalkers-1:0] follow_leader;        // the new walk's leader, one-hot
  logic [NWalkers-1:0] follow_same_64k;      // per context: in the new walk's 64 KB range
  logic [NWalkers-1:0] follow_same_page;     // per context: for the new walk's page
  logic                follow_start;         // the new walk follows
  // Per context, as a leader: its record has no fault, and covers at
  // least 64 KB, or at least 2 MB.
  logic [NWalkers-1:0] no_fault, covers_64k, covers_2m;
  // Per follower: its leader's state.
  logic [NWalkers-1:0] leader_done, leader_walking, leader_at_level0, leader_leaf64;
  logic [NWalkers-1:0] leader_fell_through, leader_covers;
  // Per follower: how it is resolved this cycle (finish, copy or resume,
  // see above), whether that needs its leader's fields, and whether it is
  // resolved now (follow_apply: resume, or its leader is the picked one).
  logic [NWalkers-1:0] follow_finish, follow_copy, follow_resume, follow_needs_leader, follow_apply;
  logic [NWalkers-1:0] follow_leaders;       // leaders some follower needs
  logic [NWalkers-1:0] leader_pick;          // the one resolved this cycle, one-hot
  logic [NWalkers-1:0] has_followers;        // per context: some follower waits on it
  // The picked leader's fields.
  logic [InfoW-1:0]    picked_record;
  logic [AddrW-1:0]    picked_table;
  logic [63:0]         picked_held_word;
  logic                picked_leaf64;

  always_comb begin
    for (int j = 0; j < NWalkers; j++) begin
      follow_same_64k[j]  = (vpn_q[j][8:4] == start_vpn_i[8:4]);
      follow_same_page[j] = follow_same_64k[j] && (vpn_q[j][3:0] == start_vpn_i[3:0]);
      // j walks the same page, or may still answer with a 64 KB or larger
      // range, or reads (or has read) the dual entry the new walk would
      // read too.
      follow_cand[j] = is_walking[j] && !stale_q[j] && (asid_q[j] == start_asid_i) &&
                       (vpn_q[j][VpnW-1:9] == start_vpn_i[VpnW-1:9]) && (level_q[j] <= start_level) &&
                       (follow_same_page[j] ||
                        (follow_same_64k[j] && !(at_level0[j] && !leaf64_q[j]) &&
                         !(leaf64_q[j] && fell_through_q[j])) ||
                        (start_level != 2'd0 && !(at_level0[j] && fell_through_q[j])));
    end
    follow_pref   = (|(follow_cand & follow_same_page)) ? (follow_cand & follow_same_page) : follow_cand;
    follow_leader = follow_pref & (~follow_pref + NWalkers'(1));
  end
  assign follow_start = Follow && start_valid_i && (start_state == StReadReq) && !start_stale_i &&
                        !inv_valid_i && (|follow_cand);

  always_comb begin
    for (int j = 0; j < NWalkers; j++) begin
      no_fault[j]   = (record_q[j][gmmu_mmu_pkg::INFO_FAULT_LSB +: 3] == FNone);
      covers_64k[j] = no_fault[j] &&
                      (record_q[j][gmmu_mmu_pkg::INFO_COV_LSB +: 3] != 3'(gmmu_mmu_pkg::PSIZE_4K));
      covers_2m[j]  = covers_64k[j] &&
                      (record_q[j][gmmu_mmu_pkg::INFO_COV_LSB +: 3] != 3'(gmmu_mmu_pkg::PSIZE_64K));
    end
    has_followers = '0;
    for (int i = 0; i < NWalkers; i++) begin
      // The leader's state, through the one-hot link.
      leader_done[i]         = |(leader_q[i] & is_done);
      leader_walking[i]      = |(leader_q[i] & is_walking);
      leader_at_level0[i]    = |(leader_q[i] & at_level0);
      leader_leaf64[i]       = |(leader_q[i] & leaf64_q);
      leader_fell_through[i] = |(leader_q[i] & fell_through_q);
      leader_covers[i]       = follows_same_page_q[i] ? |(leader_q[i] & no_fault) :
                               follows_same_64k_q[i]  ? |(leader_q[i] & covers_64k) :
                                                        |(leader_q[i] & covers_2m);
      follow_finish[i] = is_follow[i] && !stale_q[i] && leader_done[i] && leader_covers[i];
      follow_copy[i]   = is_follow[i] && !stale_q[i] && !follow_finish[i] && !follows_same_page_q[i] &&
                         (leader_done[i] || leader_walking[i]) && leader_at_level0[i] &&
                         !leader_fell_through[i] &&
                         !(leader_walking[i] && leader_leaf64[i] && follows_same_64k_q[i]);
      follow_resume[i] = is_follow[i] && !follow_finish[i] && !follow_copy[i] &&
                         (stale_q[i] || !leader_walking[i] ||
                          (leader_at_level0[i] && leader_fell_through[i] && !follows_same_page_q[i]));
      if (is_follow[i]) has_followers = has_followers | leader_q[i];
    end
    follow_needs_leader = follow_finish | follow_copy;
    follow_leaders      = '0;
    for (int i = 0; i < NWalkers; i++) begin
      if (follow_needs_leader[i]) follow_leaders = follow_leaders | leader_q[i];
    end
    leader_pick = follow_leaders & (~follow_leaders + NWalkers'(1));
    for (int i = 0; i < NWalkers; i++) begin
      follow_apply[i] = follow_resume[i] || (follow_needs_leader[i] && |(leader_q[i] & leader_pick));
    end
    picked_record    = '0;
    picked_table     = '0;
    picked_held_word = '0;
    picked_leaf64    = 1'b0;
    for (int j = 0; j < NWalkers; j++) begin
      if (leader_pick[j]) begin
        picked_record    = picked_record | record_q[j];
        picked_table     = picked_table | table_q[j];
        picked_held_word = picked_held_word | held_word_q[j];
        picked_leaf64    = picked_leaf64 | leaf64_q[j];
      end
    end
  end

  // ---------------------------------------------------------------- AR
  // The AR register: the read of context ar_ctx_q.
  logic                ar_valid_q;
  logic [CIdxW-1:0]    ar_ctx_q;
  logic [AxiAddrW-1:0] ar_addr_q;
  logic                ar_dual_q;            // a dual entry: two beats
  logic                ar_line_q;            // a leaf line: LeafLine beats
  logic                ar_out_of_range_q;    // the read just taken is beyond the AXI space: fault it
  logic                ar_free;              // the AR register takes a read this cycle
  // The context granted the AR register, and its read.
  logic                read_gnt_valid;
  logic [CIdxW-1:0]    read_gnt_ctx;
  logic [AxiAddrW-1:0] read_gnt_addr;
  logic                read_gnt_out_of_range; // beyond the AXI address space
  logic [1:0]          read_gnt_level;
  logic                read_gnt_line;        // a 4 KB-page leaf entry: read its whole line
  logic                read_take;
  // Each context's next read, worked out from its own registers.
  logic [AxiAddrW-1:0] ctx_read_addr [NWalkers];
  logic [NWalkers-1:0] ctx_read_out_of_range, ctx_read_line;

  prim_rr_arb #(.N(NWalkers), .IdxW(CIdxW)) u_read_arb (
    .clk_i,
    .rst_ni,
    .req_i       (is_read_req & ~line_draining),
    .take_i      (read_take),
    .gnt_valid_o (read_gnt_valid),
    .gnt_idx_o   (read_gnt_ctx)
  );

  // The address of a context's next read: the table's address plus the
  // entry's offset (below 8 KB: 512 entries of at most 16 bytes), in two
  // parts: the low 13 bits with their carry, and the bits up to AxiAddrW
  // taking the carry. The read is beyond the AXI space if the table's
  // address reaches bit AxiAddrW, or if its bits 13 to AxiAddrW-1 are all
  // ones and the low part carries: so the upper add's carry chain ends in
  // ar_addr_q only (through the range check into ar_valid_q, the whole add
  // was once fmax-mmu's routed critical path). Worked out per context and
  // chosen afterwards, so the AR arbiter's choice is not in front of the
  // add (arbiter, choice and add into ar_addr_q was the next longest).
  function automatic logic [AxiAddrW+1:0] read_addr(input logic [AddrW-1:0] tbl,
                                                    input logic [1:0] level,
                                                    input logic [VpnW-1:0] vpn,
                                                    input logic leaf64);
    logic [12:0] offs;
    logic [13:0] low;     // the low 13 bits' add, with its carry
    logic        line;
    offs = '0;
    if (level == 2'd0) begin
      offs = leaf64 ? {5'b0, vpn[4 +: 5], 3'b0} : {1'b0, vpn[0 +: 9], 3'b0};
    end else if (level == 2'd1) begin
      offs = {vpn[9 +: 9], 4'b0};
    end else begin
      for (int l = 2; l < Levels; l++) begin
        if (level == 2'(l)) offs = {1'b0, vpn[9*l +: 9], 3'b0};
      end
    end
    line = (LeafLine > 1) && (level == 2'd0) && !leaf64;
    if (line) offs[LineW+2:0] = '0;
    low = {1'b0, tbl[4:0], 8'b0} + {1'b0, offs};
    read_addr = {(tbl[AddrW-1:AxiAddrW-8] != '0) || (&tbl[AxiAddrW-9:5] && low[13]), line,
                 tbl[AxiAddrW-9:5] + (AxiAddrW-13)'(low[13]), low[12:0]};
  endfunction

  always_comb begin
    for (int c = 0; c < NWalkers; c++) begin
      {ctx_read_out_of_range[c], ctx_read_line[c], ctx_read_addr[c]} =
          read_addr(table_q[c], level_q[c], vpn_q[c], leaf64_q[c]);
    end
    read_gnt_addr         = ctx_read_addr[read_gnt_ctx];
    read_gnt_out_of_range = ctx_read_out_of_range[read_gnt_ctx];
    read_gnt_line         = ctx_read_line[read_gnt_ctx];
    read_gnt_level        = level_q[read_gnt_ctx];
  end

  assign ar_free   = !ar_valid_q || arready_i;
  assign read_take = ar_free && read_gnt_valid;

  // ---------------------------------------------------------------- R / evaluate
  // What a beat does to the context it is for, in two parts. What happens
  // next (a next read, or the end of the walk) and the context fields that
  // change with it come from mmu_walk_beat, one per context fed by that
  // context's own registers, so each context's write enables wait only for
  // the beat's ID compare and the entry's flags, not for a context chosen
  // by RID. beat_record() is the translation record of a walk that ends,
  // evaluated once for the context chosen by RID: its wide term_info logic
  // is not worth a copy per context, and it feeds only the record's data.

  // The record of the 64 KB slot of a dual entry (t_w) that ends the walk:
  // straight from the dual read, or after the 4 KB slot turned out empty
  // (t_fell: then it covers only that 4 KB page).
  function automatic logic [InfoW-1:0] slot64_info(input logic [63:0] t_w, input logic t_fell,
                                                   input logic [VpnW-1:0] vpn);
    if (t_w[VBit] && t_w[ZBit]) begin
      slot64_info = term_info(t_w, gmmu_mmu_pkg::PSIZE_2M,
                              t_fell ? gmmu_mmu_pkg::PSIZE_4K : gmmu_mmu_pkg::PSIZE_2M, vpn);
    end else begin
      slot64_info = fault_info(FInval);
    end
  endfunction

  // The record of a walk that ends on this beat (mmu_walk_beat sets up no
  // next read and it is not the first word of a dual entry); don't care
  // else.
  function automatic logic [InfoW-1:0] beat_record(input logic [1:0]      level,
                                                   input logic [63:0]     held_word,
                                                   input logic [VpnW-1:0] vpn,
                                                   input logic            fell_through,
                                                   input logic            leaf64,
                                                   input logic            word0_err,
                                                   input logic [63:0]     rd,
                                                   input logic            rerr);
    logic [2:0] ps;
    beat_record = fault_info(FInval);
    if (level >= 2'd2) begin
      ps = (level == 2'd2) ? gmmu_mmu_pkg::PSIZE_1G : gmmu_mmu_pkg::PSIZE_512G;
      if (rerr) begin
        beat_record = fault_info(FBus);
      end else if (rd[VBit] && (rd[ZBit] || (rd[LpBit] && level == 2'd2))) begin
        beat_record = term_info(rd, ps, ps, vpn);
      end
    end else if (level == 2'd1) begin
      if (word0_err || rerr) begin
        beat_record = fault_info(FBus);
      end else if (held_word[VBit] && (held_word[ZBit] || held_word[LpBit])) begin
        beat_record = term_info(held_word, gmmu_mmu_pkg::PSIZE_2M, gmmu_mmu_pkg::PSIZE_2M, vpn);
      end else if (!held_word[VBit]) begin
        beat_record = slot64_info(rd, 1'b0, vpn);
      end
    end else begin
      if (rerr) begin
        beat_record = fault_info(FBus);
      end else if (rd[VBit] && !(!rd[ZBit] && rd[LpBit])) begin
        beat_record = term_info(rd, leaf64 ? gmmu_mmu_pkg::PSIZE_64K : gmmu_mmu_pkg::PSIZE_4K,
                                (leaf64 && !fell_through) ? gmmu_mmu_pkg::PSIZE_64K
                                                  : gmmu_mmu_pkg::PSIZE_4K, vpn);
      end else if (!rd[VBit] && !leaf64) begin
        beat_record = slot64_info(held_word, 1'b1, vpn);
      end
    end
  endfunction

  // The beat's context (by RID). A beat of a leaf line is the walk's own
  // entry (beat_for_ctx) or a neighbour (beat_neighbour); any other beat is
  // for a context waiting for one.
  logic [CIdxW-1:0]     beat_ctx;
  logic                 beat_err;
  logic                 beat_id_ok;          // RID names a context
  logic                 beat_of_line;        // a beat of the context's leaf line
  logic                 beat_neighbour;      // ... that is not its own entry
  logic [LineW-1:0]     beat_line_pos;       // the beat's entry in the line
  logic [NWalkers-1:0]  beat_for_ctx;        // per context: this beat is for it and it waits for it
  // Per context: what the beat would do to it (mmu_walk_beat).
  logic [NWalkers-1:0]  step_dual_first, step_read_next, step_leaf64, step_fell_through;
  logic [NWalkers-1:0]  step_table_we, step_held_word_we;
  logic [1:0]           step_level               [NWalkers];
  logic [AddrW-1:0]     step_table               [NWalkers];
  logic [NLv-1:0]       step_pwc_pending         [NWalkers];
  logic [NLv-1:0]       step_pwc_pending_data_we [NWalkers];
  logic [NLv*DataW-1:0] step_pwc_pending_data    [NWalkers];
  logic [InfoW-1:0]     beat_ctx_record;     // the record of the context chosen by RID
  // The neighbour offered to the L2, registered.
  logic                 neighbour_valid_q;
  logic [AsidW-1:0]     neighbour_asid_q;
  logic [VpnW-1:0]      neighbour_vpn_q;
  logic [InfoW-1:0]     neighbour_info_q;
  logic [VpnW-1:0]      neighbour_vpn;
  logic [InfoW-1:0]     neighbour_info;
  logic                 neighbour_entry_ok;  // a valid leaf entry
  logic                 neighbour_walked;    // another walk in flight is for its page

  assign beat_ctx       = CIdxW'(rid_i);
  assign beat_id_ok     = rvalid_i && (32'(rid_i) < NWalkers);
  assign beat_of_line   = beat_id_ok && line_draining[beat_ctx];
  assign beat_line_pos  = LineW'(LeafLine - 32'(line_beats_left_q[beat_ctx]));
  assign beat_neighbour = beat_of_line && !(|beat_for_ctx);
  assign beat_err       = (rresp_i != 2'b00);

  always_comb begin
    for (int i = 0; i < NWalkers; i++) begin
      beat_for_ctx[i] = rvalid_i && (32'(rid_i) == i) && is_read_wait[i] &&
                        (!line_draining[i] ||
                         LineW'(LeafLine - 32'(line_beats_left_q[i])) == vpn_q[i][LineW-1:0]);
    end
    beat_ctx_record = beat_record(level_q[beat_ctx], held_word_q[beat_ctx], vpn_q[beat_ctx],
                                  fell_through_q[beat_ctx], leaf64_q[beat_ctx],
                                  word0_err_q[beat_ctx], rdata_i, beat_err);
  end

  for (genvar i = 0; i < NWalkers; i++) begin : gen_beat
    mmu_walk_beat #(
      .Levels (Levels),
      .AddrW  (AddrW),
      .DataW  (DataW)
    ) u_beat (
      .level_i               (level_q[i]),
      .held_word_i           (held_word_q[i]),
      .fell_through_i        (fell_through_q[i]),
      .leaf64_i              (leaf64_q[i]),
      .word0_arrived_i       (word0_arrived_q[i]),
      .word0_err_i           (word0_err_q[i]),
      .rdata_i               (rdata_i),
      .rerr_i                (beat_err),
      .dual_first_o          (step_dual_first[i]),
      .read_next_o           (step_read_next[i]),
      .level_o               (step_level[i]),
      .table_o               (step_table[i]),
      .leaf64_o              (step_leaf64[i]),
      .fell_through_o        (step_fell_through[i]),
      .table_we_o            (step_table_we[i]),
      .held_word_we_o        (step_held_word_we[i]),
      .pwc_pending_o         (step_pwc_pending[i]),
      .pwc_pending_data_we_o (step_pwc_pending_data_we[i]),
      .pwc_pending_data_o    (step_pwc_pending_data[i])
    );
  end

  // The neighbour's page and record, and whether it may be offered: a valid
  // leaf entry (not LargePage without Zero), of a walk that is not stale,
  // for a page no other walk in flight will install.
  always_comb begin
    neighbour_vpn            = vpn_q[beat_ctx];
    neighbour_vpn[LineW-1:0] = beat_line_pos;
    neighbour_info     = term_info(rdata_i, gmmu_mmu_pkg::PSIZE_4K, gmmu_mmu_pkg::PSIZE_4K,
                                   neighbour_vpn);
    neighbour_entry_ok = !beat_err && rdata_i[VBit] && (rdata_i[ZBit] || !rdata_i[LpBit]);
    neighbour_walked   = 1'b0;
    for (int i = 0; i < NWalkers; i++) begin
      if (state_q[i] != StFree && !stale_q[i] && asid_q[i] == asid_q[beat_ctx] &&
          vpn_q[i] == neighbour_vpn) begin
        neighbour_walked = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- done
  logic             done_gnt_valid;
  logic [CIdxW-1:0] done_ctx;           // the finished walk offered on the done channel
  logic             done_fire;
  logic             done_installs_pwc;  // ... goes on to install walk-cache entries

  prim_rr_arb #(.N(NWalkers), .IdxW(CIdxW)) u_done_arb (
    .clk_i,
    .rst_ni,
    .req_i       (is_done & ~has_followers),
    .take_i      (done_ready_i),
    .gnt_valid_o (done_gnt_valid),
    .gnt_idx_o   (done_ctx)
  );

  assign done_valid_o = done_gnt_valid;
  assign done_info_o  = record_q[done_ctx];
  assign done_asid_o  = asid_q[done_ctx];
  assign done_vpn_o   = vpn_q[done_ctx];
  assign done_meta_o  = meta_q[done_ctx];
  assign done_stale_o = stale_q[done_ctx];
  assign done_fire    = done_gnt_valid && done_ready_i;
  // A walk that ended without a fault and is not stale writes the table
  // entries it read into the walk cache, one per cycle, after it answered.
  assign done_installs_pwc = !stale_q[done_ctx] && !inv_valid_i && (pwc_pending_q[done_ctx] != '0) &&
                             (record_q[done_ctx][gmmu_mmu_pkg::INFO_FAULT_LSB +: 3] == FNone);

  // The walk-cache install: the lowest context in StInstall offers its
  // deepest pending entry.
  logic             install_any;
  logic [CIdxW-1:0] install_ctx;
  logic [1:0]       install_level;
  logic [NLv-1:0]   install_left;       // its pending entries after this one
  logic [DataW-1:0] install_data;
  logic             pwc_install;
  always_comb begin
    install_any = |is_install;
    install_ctx = '0;
    for (int i = NWalkers - 1; i >= 0; i--) begin
      if (is_install[i]) install_ctx = CIdxW'(i);
    end
    install_level = '0;
    install_left  = pwc_pending_q[install_ctx];
    for (int l = NLv; l >= 1; l--) begin
      if (pwc_pending_q[install_ctx][l-1]) install_level = 2'(l);
    end
    install_data = '0;
    for (int l = 1; l <= NLv; l++) begin
      if (install_level == 2'(l)) begin
        install_left[l-1] = 1'b0;
        install_data      = pwc_pending_data_q[install_ctx][(l-1)*DataW +: DataW];
      end
    end
  end
  // An invalidation ends the installs of every walk (stale_q is set too).
  assign pwc_install = install_any && !stale_q[install_ctx] && !inv_valid_i;

  // ---------------------------------------------------------------- walk cache
  if (PwcEntries > 0) begin : gen_pwc
    mmu_pwc #(
      .Entries (PwcEntries),
      .AsidW   (AsidW),
      .Levels  (Levels),
      .VpnW    (VpnW),
      .NLv     (NLv),
      .DataW   (DataW)
    ) u_pwc (
      .clk_i,
      .rst_ni,
      .lk_asid_i   (start_in2_asid_i),
      .lk_vpn_i    (start_in2_vpn_i),
      .lk_hit_o    (pwc_lookup_hit),
      .lk_level_o  (pwc_lookup_level),
      .lk_data_o   (pwc_lookup_data),
      .ins_valid_i (pwc_install),
      .ins_asid_i  (asid_q[install_ctx]),
      .ins_vpn_i   (vpn_q[install_ctx]),
      .ins_level_i (install_level),
      .ins_data_i  (install_data),
      .inv_valid_i,
      .inv_type_i,
      .inv_asid_i,
      .inv_start_i,
      .inv_end_i,
      .inv_busy_o
    );
  end else begin : gen_no_pwc
    assign pwc_lookup_hit   = 1'b0;
    assign pwc_lookup_level = '0;
    assign pwc_lookup_data  = '0;
    logic unused_pwc;
    assign inv_busy_o = 1'b0;
    assign unused_pwc = ^{pwc_install, inv_type_i, inv_asid_i, inv_start_i, inv_end_i, install_level,
                          install_data, start_in2_asid_i, start_in2_vpn_i};
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NWalkers; i++) state_q[i] <= StFree;
      stale_q           <= '0;
      word0_arrived_q   <= '0;
      ar_valid_q        <= 1'b0;
      ar_ctx_q          <= '0;
      ar_addr_q         <= '0;
      ar_dual_q         <= 1'b0;
      ar_line_q         <= 1'b0;
      ar_out_of_range_q <= 1'b0;
      neighbour_valid_q <= 1'b0;
      for (int i = 0; i < NWalkers; i++) line_beats_left_q[i] <= '0;
    end else begin
      neighbour_valid_q <= (LeafLine > 1) && beat_neighbour && neighbour_entry_ok && !neighbour_walked &&
                           !stale_q[beat_ctx] && !inv_valid_i;
      if (beat_of_line) line_beats_left_q[beat_ctx] <= line_beats_left_q[beat_ctx] - RemW'(1);

      if (inv_valid_i) stale_q <= '1;

      // Start.
      if (start_valid_i) begin
        state_q[start_ctx]         <= follow_start ? StFollow : start_state;
        stale_q[start_ctx]         <= start_stale_i || inv_valid_i;
        word0_arrived_q[start_ctx] <= 1'b0;
      end

      // AR. A read beyond the AXI address space takes the AR register for
      // a cycle without a request and ends its walk there, so the address
      // add's carry chain feeds only these two registers.
      if (ar_free) ar_valid_q <= 1'b0;
      ar_out_of_range_q <= read_take && read_gnt_out_of_range;
      if (read_take) begin
        state_q[read_gnt_ctx] <= StReadWait;
        ar_valid_q            <= !read_gnt_out_of_range;
        ar_ctx_q              <= read_gnt_ctx;
        ar_addr_q             <= read_gnt_addr;
        ar_dual_q             <= (read_gnt_level == 2'd1);
        ar_line_q             <= read_gnt_line;
        if (read_gnt_line) line_beats_left_q[read_gnt_ctx] <= RemW'(LeafLine);
      end
      if (ar_out_of_range_q) begin
        state_q[ar_ctx_q]           <= StDone;
        line_beats_left_q[ar_ctx_q] <= '0;
      end

      // R.
      for (int i = 0; i < NWalkers; i++) begin
        if (beat_for_ctx[i]) begin
          state_q[i]         <= step_dual_first[i] ? StReadWait : step_read_next[i] ? StReadReq : StDone;
          word0_arrived_q[i] <= step_dual_first[i];
        end
      end

      // Followers resolved.
      for (int i = 0; i < NWalkers; i++) begin
        if (follow_apply[i]) state_q[i] <= follow_finish[i] ? StDone : StReadReq;
      end

      // Done.
      if (done_fire) state_q[done_ctx] <= done_installs_pwc ? StInstall : StFree;
      if (install_any && (!pwc_install || install_left == '0)) state_q[install_ctx] <= StFree;
    end
  end

  always_ff @(posedge clk_i) begin
    if (beat_neighbour) begin
      neighbour_asid_q <= asid_q[beat_ctx];
      neighbour_vpn_q  <= neighbour_vpn;
      neighbour_info_q <= neighbour_info;
    end
    if (start_valid_i) begin
      asid_q[start_ctx]              <= start_asid_i;
      vpn_q[start_ctx]               <= start_vpn_i;
      meta_q[start_ctx]              <= start_meta_i;
      level_q[start_ctx]             <= start_level;
      table_q[start_ctx]             <= start_table;
      leaf64_q[start_ctx]            <= start_leaf64;
      fell_through_q[start_ctx]      <= 1'b0;
      held_word_q[start_ctx]         <= start_held_word;
      record_q[start_ctx]            <= start_record;
      word0_err_q[start_ctx]         <= 1'b0;
      pwc_pending_q[start_ctx]       <= '0;
      leader_q[start_ctx]            <= follow_leader;
      follows_same_64k_q[start_ctx]  <= |(follow_leader & follow_same_64k);
      follows_same_page_q[start_ctx] <= |(follow_leader & follow_same_page);
    end
    for (int i = 0; i < NWalkers; i++) begin
      if (follow_apply[i] && follow_finish[i]) record_q[i] <= picked_record;
      if (follow_apply[i] && follow_copy[i]) begin
        level_q[i]        <= 2'd0;
        table_q[i]        <= picked_table;
        leaf64_q[i]       <= picked_leaf64;
        fell_through_q[i] <= 1'b0;
        held_word_q[i]    <= picked_held_word;
      end
    end
    if (ar_out_of_range_q) record_q[ar_ctx_q] <= fault_info(FBus);
    if (install_any) pwc_pending_q[install_ctx] <= install_left;
    for (int i = 0; i < NWalkers; i++) begin
      if (beat_for_ctx[i]) begin
        // Enables: the wide fields are written whenever they may change,
        // also where the walk ends instead, because nothing reads them then
        // (table_q is read in StReadReq and, for a follower's copy, at level
        // 0; record_q in StDone; pwc_pending_data_q where pwc_pending_q is
        // set; held_word_q at level 0 below a 4 KB-page table): their
        // enables wait for no decode of the entry. level_q, leaf64_q,
        // fell_through_q and pwc_pending_q are exact.
        if (step_read_next[i]) begin
          level_q[i]        <= step_level[i];
          leaf64_q[i]       <= step_leaf64[i];
          fell_through_q[i] <= step_fell_through[i];
        end
        if (step_table_we[i]) table_q[i] <= step_table[i];
        if (step_dual_first[i]) word0_err_q[i] <= beat_err;
        if (step_held_word_we[i]) held_word_q[i] <= rdata_i;
        if (!step_dual_first[i]) record_q[i] <= beat_ctx_record;
        pwc_pending_q[i] <= pwc_pending_q[i] | step_pwc_pending[i];
        for (int l = 0; l < NLv; l++) begin
          if (step_pwc_pending_data_we[i][l]) begin
            pwc_pending_data_q[i][l*DataW +: DataW] <= step_pwc_pending_data[i][l*DataW +: DataW];
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- outputs
  assign arvalid_o  = ar_valid_q;
  assign arid_o     = 4'(ar_ctx_q);
  assign araddr_o   = 32'(ar_addr_q);
  assign arlen_o    = ar_line_q ? 8'(LeafLine - 1) : {7'b0, ar_dual_q};
  assign arsize_o   = 3'd3;
  assign arburst_o  = 2'b01;
  assign rready_o   = 1'b1;

  assign neighbour_valid_o = neighbour_valid_q;
  assign neighbour_asid_o  = neighbour_asid_q;
  assign neighbour_vpn_o   = neighbour_vpn_q;
  assign neighbour_info_o  = neighbour_info_q;

  assign walkers_free_o = free_count;
  assign walkers_busy_o = CntW'(NWalkers) - free_count;
  assign ev_walk_o      = start_valid_i;
  assign ev_pwc_hit_o   = start_valid_i && as_entry_valid_q && pwc_lookup_hit;
  assign ev_pte_read_o  = ar_valid_q && arready_i;

  // Bursts are tracked per context (word0_arrived_q, line_beats_left_q), so
  // RLAST is not needed.
  logic unused_rlast;
  assign unused_rlast = rlast_i;

endmodule : mmu_walker
