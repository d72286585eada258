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
// A walk starts from the address-space table (ASID_INVALID when the entry
// is not valid) or, on a hit in the page-walk cache (mmu_pwc), below the
// root. It ends with a translation record (gmmu_mmu_pkg INFO_* layout) or a
// walk fault and waits for the done channel. When a walk ends without a
// fault and is not stale, the upper-level entries it read from memory are
// installed in the page-walk cache after it answered, one per cycle, before
// the context is free again; a walk that faults installs nothing. An invalidation marks every walk in flight stale: it
// still answers its request but installs nothing anywhere.
//
// Leaf lines: a 4 KB-page leaf entry is read as one aligned burst of
// LeafLine entries (LeafLine beats). The walk evaluates its own entry when
// that beat arrives; every other valid entry of the line (a translation of
// a neighbouring 4 KB page of the same address space) is offered to the L2
// TLB on the neighbour output (nb_*), one per cycle, unless the walk is
// stale, an invalidation comes in that cycle, or another walk in flight is
// for that page (it installs its own). Neighbours are hints: the consumer
// may drop them. A context takes no new read, and is not reused, until the
// rest of its line has arrived, so beats are never attributed to the wrong
// read. This is what makes a surface whose rows are different pages cost
// one walk per LeafLine pages instead of one per page.
//
// Timing: the walk cache and the address-space table are read for the start
// a cycle ahead (nx_*: the L2's lookup that presents its miss next cycle)
// and their answers registered, so a start evaluates only registers.
// Start to first AR 1 cycle (plus arbitration); each level costs
// the memory latency plus about 2 cycles; a leaf line LeafLine - 1 beats
// more (the walk's own entry may be any of them).
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

  // The start of next cycle, if any: its address space, to read the
  // address-space table a cycle ahead; and the start of the cycle after,
  // if any, for the walk cache's lookup (compare, then choose, registered)
  input  logic [AsidW-1:0]                    nx_asid_i,
  input  logic [AsidW-1:0]                    nx2_asid_i,
  input  logic [VpnW-1:0]                     nx2_vpn_i,

  // Start a walk (a free context is guaranteed by the caller)
  input  logic                                st_valid_i,
  input  logic [AsidW-1:0]                    st_asid_i,
  input  logic [VpnW-1:0]                     st_vpn_i,
  input  logic [MetaW-1:0]                    st_meta_i,
  input  logic                                st_stale_i,
  output logic [CntW-1:0]                     free_cnt_o,

  // Address-space table read port (combinational; read for nx_asid_i and
  // registered)
  output logic [AsidW-1:0]                    as_asid_o,
  input  logic                                as_valid_i,
  input  logic [39:0]                         as_root_i,   // root table PA[51:12]

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
  output logic                                dn_valid_o,
  input  logic                                dn_ready_i,
  output logic [gmmu_mmu_pkg::INFO_BITS-1:0]  dn_info_o,
  output logic [AsidW-1:0]                    dn_asid_o,
  output logic [VpnW-1:0]                     dn_vpn_o,
  output logic [MetaW-1:0]                    dn_meta_o,
  output logic                                dn_stale_o,

  // Neighbouring leaf entries of a line read (hints for the L2 TLB)
  output logic                                nb_valid_o,
  output logic [AsidW-1:0]                    nb_asid_o,
  output logic [VpnW-1:0]                     nb_vpn_o,
  output logic [gmmu_mmu_pkg::INFO_BITS-1:0]  nb_info_o,

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
  output logic                                ev_read_o,
  output logic [CntW-1:0]                     busy_cnt_o
);

  localparam int unsigned InfoW = gmmu_mmu_pkg::INFO_BITS;
  localparam int unsigned CIdxW = (NWalkers > 1) ? $clog2(NWalkers) : 1;
  localparam int unsigned NLv   = Levels - 1;
  localparam int unsigned DataW = 90;
  localparam int unsigned AddrW = 44;   // PA[51:8] of a table
  localparam int unsigned LineW = (LeafLine > 1) ? $clog2(LeafLine) : 1;   // entry in a line
  localparam int unsigned RemW  = $clog2(LeafLine + 1);                     // beats still to come

  localparam logic [2:0] StFree    = 3'd0;
  localparam logic [2:0] StRdReq   = 3'd1;
  localparam logic [2:0] StRdWait  = 3'd2;
  localparam logic [2:0] StDone    = 3'd3;
  localparam logic [2:0] StInstall = 3'd4;   // answered; writing the walk cache
  localparam logic [2:0] StFollow  = 3'd5;   // waiting on a leader walk (see "following")

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
  logic [2:0]         st_q     [NWalkers];
  logic [NWalkers-1:0] stale_q, leaf64_q, fell_q, beat1_q, err0_q;
  logic [AsidW-1:0]   asid_q   [NWalkers];
  logic [VpnW-1:0]    vpn_q    [NWalkers];
  logic [MetaW-1:0]   meta_q   [NWalkers];
  logic [1:0]         lvl_q    [NWalkers];
  logic [AddrW-1:0]   tbl_q    [NWalkers];
  logic [63:0]        wbuf_q   [NWalkers];
  logic [InfoW-1:0]   info_q   [NWalkers];
  logic [NLv-1:0]     pend_q   [NWalkers];
  logic [NLv*DataW-1:0] pdata_q [NWalkers];
  logic [RemW-1:0]    lrem_q   [NWalkers];   // beats of the context's leaf line still to come
  logic [NWalkers-1:0] draining;
  logic [NWalkers-1:0] lead_q   [NWalkers];  // a follower's leader, one-hot
  logic [NWalkers-1:0] same64_q;             // a follower in its leader's 64 KB range
  logic [NWalkers-1:0] samepg_q;             // a follower for its leader's page

  logic [NWalkers-1:0] is_free, is_rdreq, is_rdwait, is_done, is_inst, is_follow, is_walking;
  logic [NWalkers-1:0] at_lvl0;
  always_comb begin
    for (int i = 0; i < NWalkers; i++) begin
      is_free[i]    = (st_q[i] == StFree);
      is_rdreq[i]   = (st_q[i] == StRdReq);
      is_rdwait[i]  = (st_q[i] == StRdWait);
      is_done[i]    = (st_q[i] == StDone);
      is_inst[i]    = (st_q[i] == StInstall);
      is_follow[i]  = Follow && (st_q[i] == StFollow);   // constant 0 without following
      is_walking[i] = (st_q[i] == StRdReq) || (st_q[i] == StRdWait);
      at_lvl0[i]    = (lvl_q[i] == 2'd0);
      draining[i]   = (lrem_q[i] != '0);
    end
  end

  // ---------------------------------------------------------------- start
  logic [CIdxW-1:0]   st_idx;
  logic               pwc_hit;
  logic [1:0]         pwc_level;
  logic [DataW-1:0]   pwc_data;
  logic [2:0]         s_st;
  logic [1:0]         s_lvl;
  logic [AddrW-1:0]   s_tbl;
  logic               s_leaf64;
  logic [63:0]        s_wbuf;
  logic [InfoW-1:0]   s_info;
  logic [CntW-1:0]    free_cnt;

  always_comb begin
    st_idx   = '0;
    free_cnt = '0;
    for (int i = NWalkers - 1; i >= 0; i--) begin
      if (is_free[i] && !draining[i]) st_idx = CIdxW'(i);
      free_cnt = free_cnt + CntW'(is_free[i] && !draining[i]);
    end
  end

  // The address-space entry of the next start, registered.
  logic        as_valid_q;
  logic [39:0] as_root_q;
  assign as_asid_o = nx_asid_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      as_valid_q <= 1'b0;
      as_root_q  <= '0;
    end else begin
      as_valid_q <= as_valid_i;
      as_root_q  <= as_root_i;
    end
  end

  // Where the walk begins: the root, or below it after a walk-cache hit.
  always_comb begin
    s_st     = StRdReq;
    s_lvl    = 2'(Levels - 1);
    s_tbl    = {as_root_q, 4'b0};
    s_leaf64 = 1'b0;
    s_wbuf   = '0;
    s_info   = '0;
    if (!as_valid_q) begin
      s_st   = StDone;
      s_info = fault_info(FAsid);
    end else if (pwc_hit && pwc_level >= 2'd2) begin
      s_lvl = pwc_level - 2'd1;
      s_tbl = pwc_data[DataW-2 -: AddrW];
    end else if (pwc_hit) begin
      // A cached dual entry: go straight to a leaf table. The 64 KB-page
      // pointer is kept as a plain table word for the fall-through.
      s_lvl = 2'd0;
      if (pwc_data[DataW-1]) begin
        s_tbl  = pwc_data[DataW-2 -: AddrW];
        s_wbuf = '0;
        s_wbuf[VBit]         = pwc_data[AddrW];
        s_wbuf[AdrL +: AddrW] = pwc_data[AddrW-1:0];
        s_wbuf[SegL +: 5]    = SegVram;
      end else begin
        s_tbl    = pwc_data[AddrW-1:0];
        s_leaf64 = 1'b1;
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
  logic [NWalkers-1:0] fl_cand, fl_lead, fl_same64v, fl_samepg_v, fl_pref;
  logic                fl_start;
  logic [NWalkers-1:0] no_fault, cov64_ok, cov2m_ok;
  logic [NWalkers-1:0] l_done, l_walk, l_lvl0, l_leaf64, l_fell, l_cov;
  logic [NWalkers-1:0] fw_finish, fw_copy, fw_resume, fw_need, fw_apply, fw_leaders, fw_pick, led;
  logic [InfoW-1:0]    pk_info;
  logic [AddrW-1:0]    pk_tbl;
  logic [63:0]         pk_wbuf;
  logic                pk_leaf64;

  always_comb begin
    for (int j = 0; j < NWalkers; j++) begin
      fl_same64v[j]  = (vpn_q[j][8:4] == st_vpn_i[8:4]);
      fl_samepg_v[j] = fl_same64v[j] && (vpn_q[j][3:0] == st_vpn_i[3:0]);
      // j walks the same page, or may still answer with a 64 KB or larger
      // range, or reads (or has read) the dual entry the new walk would
      // read too.
      fl_cand[j] = is_walking[j] && !stale_q[j] && (asid_q[j] == st_asid_i) &&
                   (vpn_q[j][VpnW-1:9] == st_vpn_i[VpnW-1:9]) && (lvl_q[j] <= s_lvl) &&
                   (fl_samepg_v[j] ||
                    (fl_same64v[j] && !(at_lvl0[j] && !leaf64_q[j]) && !(leaf64_q[j] && fell_q[j])) ||
                    (s_lvl != 2'd0 && !(at_lvl0[j] && fell_q[j])));
    end
    fl_pref = (|(fl_cand & fl_samepg_v)) ? (fl_cand & fl_samepg_v) : fl_cand;
    fl_lead = fl_pref & (~fl_pref + NWalkers'(1));
  end
  assign fl_start = Follow && st_valid_i && (s_st == StRdReq) && !st_stale_i && !inv_valid_i && (|fl_cand);

  always_comb begin
    for (int j = 0; j < NWalkers; j++) begin
      no_fault[j] = (info_q[j][gmmu_mmu_pkg::INFO_FAULT_LSB +: 3] == FNone);
      cov64_ok[j] = no_fault[j] &&
                    (info_q[j][gmmu_mmu_pkg::INFO_COV_LSB +: 3] != 3'(gmmu_mmu_pkg::PSIZE_4K));
      cov2m_ok[j] = cov64_ok[j] &&
                    (info_q[j][gmmu_mmu_pkg::INFO_COV_LSB +: 3] != 3'(gmmu_mmu_pkg::PSIZE_64K));
    end
    led = '0;
    for (int i = 0; i < NWalkers; i++) begin
      // The leader's state, through the one-hot link.
      l_done[i]   = |(lead_q[i] & is_done);
      l_walk[i]   = |(lead_q[i] & is_walking);
      l_lvl0[i]   = |(lead_q[i] & at_lvl0);
      l_leaf64[i] = |(lead_q[i] & leaf64_q);
      l_fell[i]   = |(lead_q[i] & fell_q);
      l_cov[i]    = samepg_q[i] ? |(lead_q[i] & no_fault) :
                    same64_q[i] ? |(lead_q[i] & cov64_ok) : |(lead_q[i] & cov2m_ok);
      fw_finish[i] = is_follow[i] && !stale_q[i] && l_done[i] && l_cov[i];
      fw_copy[i]   = is_follow[i] && !stale_q[i] && !fw_finish[i] && !samepg_q[i] &&
                     (l_done[i] || l_walk[i]) && l_lvl0[i] && !l_fell[i] &&
                     !(l_walk[i] && l_leaf64[i] && same64_q[i]);
      fw_resume[i] = is_follow[i] && !fw_finish[i] && !fw_copy[i] &&
                     (stale_q[i] || !l_walk[i] || (l_lvl0[i] && l_fell[i] && !samepg_q[i]));
      if (is_follow[i]) led = led | lead_q[i];
    end
    fw_need    = fw_finish | fw_copy;
    fw_leaders = '0;
    for (int i = 0; i < NWalkers; i++) begin
      if (fw_need[i]) fw_leaders = fw_leaders | lead_q[i];
    end
    fw_pick = fw_leaders & (~fw_leaders + NWalkers'(1));
    for (int i = 0; i < NWalkers; i++) begin
      fw_apply[i] = fw_resume[i] || (fw_need[i] && |(lead_q[i] & fw_pick));
    end
    pk_info   = '0;
    pk_tbl    = '0;
    pk_wbuf   = '0;
    pk_leaf64 = 1'b0;
    for (int j = 0; j < NWalkers; j++) begin
      if (fw_pick[j]) begin
        pk_info   = pk_info | info_q[j];
        pk_tbl    = pk_tbl | tbl_q[j];
        pk_wbuf   = pk_wbuf | wbuf_q[j];
        pk_leaf64 = pk_leaf64 | leaf64_q[j];
      end
    end
  end

  // ---------------------------------------------------------------- AR
  logic               ar_valid_q;
  logic               nb_valid_q;
  logic [AsidW-1:0]   nb_asid_q;
  logic [VpnW-1:0]    nb_vpn_q;
  logic [InfoW-1:0]   nb_info_q;
  logic [CIdxW-1:0]   ar_ctx_q;
  logic [AxiAddrW-1:0] ar_addr_q;
  logic               ar_dual_q;
  logic               ar_free;
  logic               rq_any;
  logic [CIdxW-1:0]   rq_idx;
  logic [AxiAddrW-1:0] rq_addr;
  logic               rq_oor;     // beyond the AXI address space
  logic               rq_take;
  logic [1:0]         rq_lvl;
  logic               rq_line;    // a 4 KB-page leaf entry: read its whole line
  // Each context's next read, worked out from its own registers.
  logic [AxiAddrW-1:0] cx_addr [NWalkers];
  logic [NWalkers-1:0] cx_oor, cx_line;
  logic               ar_line_q;
  logic               ar_oor_q;   // the read just taken is beyond the AXI space: fault it

  prim_rr_arb #(.N(NWalkers), .IdxW(CIdxW)) u_rq_arb (
    .clk_i,
    .rst_ni,
    .req_i       (is_rdreq & ~draining),
    .take_i      (rq_take),
    .gnt_valid_o (rq_any),
    .gnt_idx_o   (rq_idx)
  );

  // The address of a context's next read: the table's address plus the
  // entry's offset (below 8 KB: 512 entries of at most 16 bytes), in two
  // parts: the low 13 bits with their carry, and the bits up to AxiAddrW
  // taking the carry. The read is beyond the AXI space if the table's
  // address reaches bit AxiAddrW, or if its bits 13 to AxiAddrW-1 are all
  // ones and the low part carries: so the upper add's carry chain ends in
  // ar_addr_q only (through the range check into ar_valid_q, the whole add
  // was fmax-mmu's routed critical path, 11.6 ns). Worked out per context
  // and chosen afterwards, so the AR arbiter's choice is not in front of
  // the add (arbiter, choice and add into ar_addr_q was the next one,
  // 11.2 ns with nextpnr's seed 3).
  function automatic logic [AxiAddrW+1:0] read_addr(input logic [AddrW-1:0] tbl,
                                                    input logic [1:0] lvl,
                                                    input logic [VpnW-1:0] vpn,
                                                    input logic leaf64);
    logic [12:0] offs;
    logic [13:0] low;     // the low 13 bits' add, with its carry
    logic        line;
    offs = '0;
    if (lvl == 2'd0) begin
      offs = leaf64 ? {5'b0, vpn[4 +: 5], 3'b0} : {1'b0, vpn[0 +: 9], 3'b0};
    end else if (lvl == 2'd1) begin
      offs = {vpn[9 +: 9], 4'b0};
    end else begin
      for (int l = 2; l < Levels; l++) begin
        if (lvl == 2'(l)) offs = {1'b0, vpn[9*l +: 9], 3'b0};
      end
    end
    line = (LeafLine > 1) && (lvl == 2'd0) && !leaf64;
    if (line) offs[LineW+2:0] = '0;
    low = {1'b0, tbl[4:0], 8'b0} + {1'b0, offs};
    read_addr = {(tbl[AddrW-1:AxiAddrW-8] != '0) || (&tbl[AxiAddrW-9:5] && low[13]), line,
                 tbl[AxiAddrW-9:5] + (AxiAddrW-13)'(low[13]), low[12:0]};
  endfunction

  always_comb begin
    for (int c = 0; c < NWalkers; c++) begin
      {cx_oor[c], cx_line[c], cx_addr[c]} = read_addr(tbl_q[c], lvl_q[c], vpn_q[c], leaf64_q[c]);
    end
    rq_addr = cx_addr[rq_idx];
    rq_oor  = cx_oor[rq_idx];
    rq_line = cx_line[rq_idx];
    rq_lvl  = lvl_q[rq_idx];
  end

  assign ar_free = !ar_valid_q || arready_i;
  assign rq_take = ar_free && rq_any;

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
  function automatic logic [InfoW-1:0] beat_record(input logic [1:0] lvl,
                                                   input logic [63:0] wbuf,
                                                   input logic [VpnW-1:0] vpn,
                                                   input logic fell, input logic leaf64,
                                                   input logic err0, input logic [63:0] rd,
                                                   input logic rerr);
    logic [2:0] ps;
    beat_record = fault_info(FInval);
    if (lvl >= 2'd2) begin
      ps = (lvl == 2'd2) ? gmmu_mmu_pkg::PSIZE_1G : gmmu_mmu_pkg::PSIZE_512G;
      if (rerr) begin
        beat_record = fault_info(FBus);
      end else if (rd[VBit] && (rd[ZBit] || (rd[LpBit] && lvl == 2'd2))) begin
        beat_record = term_info(rd, ps, ps, vpn);
      end
    end else if (lvl == 2'd1) begin
      if (err0 || rerr) begin
        beat_record = fault_info(FBus);
      end else if (wbuf[VBit] && (wbuf[ZBit] || wbuf[LpBit])) begin
        beat_record = term_info(wbuf, gmmu_mmu_pkg::PSIZE_2M, gmmu_mmu_pkg::PSIZE_2M, vpn);
      end else if (!wbuf[VBit]) begin
        beat_record = slot64_info(rd, 1'b0, vpn);
      end
    end else begin
      if (rerr) begin
        beat_record = fault_info(FBus);
      end else if (rd[VBit] && !(!rd[ZBit] && rd[LpBit])) begin
        beat_record = term_info(rd, leaf64 ? gmmu_mmu_pkg::PSIZE_64K : gmmu_mmu_pkg::PSIZE_4K,
                                (leaf64 && !fell) ? gmmu_mmu_pkg::PSIZE_64K
                                                  : gmmu_mmu_pkg::PSIZE_4K, vpn);
      end else if (!rd[VBit] && !leaf64) begin
        beat_record = slot64_info(wbuf, 1'b1, vpn);
      end
    end
  endfunction

  // A beat of a leaf line is the walk's own entry (r_here) or a neighbour
  // (r_nb); any other beat is for a context waiting for one.
  logic [CIdxW-1:0]   r_idx;
  logic               r_err;
  logic               r_id_ok, r_line, r_nb;
  logic [LineW-1:0]   r_beat;
  logic [NWalkers-1:0] r_here;     // per context: this beat is for it and it waits for it
  // Per context: what the beat would do to it (mmu_walk_beat).
  logic [NWalkers-1:0] nx_first, nx_rdreq, nx_leaf64, nx_fell, nx_tbl_we, nx_wbuf_we;
  logic [1:0]         nx_lvl      [NWalkers];
  logic [AddrW-1:0]   nx_tbl      [NWalkers];
  logic [NLv-1:0]     nx_pend     [NWalkers];
  logic [NLv-1:0]     nx_pdata_we [NWalkers];
  logic [NLv*DataW-1:0] nx_pdata  [NWalkers];
  logic [InfoW-1:0]   r_record;   // the record of the context chosen by RID
  logic [VpnW-1:0]    nb_vpn;
  logic [InfoW-1:0]   nb_info;
  logic               nb_entry_ok, nb_walked;

  assign r_idx   = CIdxW'(rid_i);
  assign r_id_ok = rvalid_i && (32'(rid_i) < NWalkers);
  assign r_line  = r_id_ok && draining[r_idx];
  assign r_beat  = LineW'(LeafLine - 32'(lrem_q[r_idx]));
  assign r_nb    = r_line && !(|r_here);
  assign r_err   = (rresp_i != 2'b00);

  always_comb begin
    for (int i = 0; i < NWalkers; i++) begin
      r_here[i] = rvalid_i && (32'(rid_i) == i) && is_rdwait[i] &&
                  (!draining[i] || LineW'(LeafLine - 32'(lrem_q[i])) == vpn_q[i][LineW-1:0]);
    end
    r_record = beat_record(lvl_q[r_idx], wbuf_q[r_idx], vpn_q[r_idx], fell_q[r_idx],
                           leaf64_q[r_idx], err0_q[r_idx], rdata_i, r_err);
  end

  for (genvar i = 0; i < NWalkers; i++) begin : gen_beat
    mmu_walk_beat #(
      .Levels (Levels),
      .AddrW  (AddrW),
      .DataW  (DataW)
    ) u_beat (
      .lvl_i      (lvl_q[i]),
      .wbuf_i     (wbuf_q[i]),
      .fell_i     (fell_q[i]),
      .leaf64_i   (leaf64_q[i]),
      .beat1_i    (beat1_q[i]),
      .err0_i     (err0_q[i]),
      .rdata_i    (rdata_i),
      .rerr_i     (r_err),
      .first_o    (nx_first[i]),
      .rdreq_o    (nx_rdreq[i]),
      .lvl_o      (nx_lvl[i]),
      .tbl_o      (nx_tbl[i]),
      .leaf64_o   (nx_leaf64[i]),
      .fell_o     (nx_fell[i]),
      .tbl_we_o   (nx_tbl_we[i]),
      .wbuf_we_o  (nx_wbuf_we[i]),
      .pend_o     (nx_pend[i]),
      .pdata_we_o (nx_pdata_we[i]),
      .pdata_o    (nx_pdata[i])
    );
  end

  // The neighbour's page and record, and whether it may be offered: a valid
  // leaf entry (not LargePage without Zero), of a walk that is not stale,
  // for a page no other walk in flight will install.
  always_comb begin
    nb_vpn = vpn_q[r_idx];
    nb_vpn[LineW-1:0] = r_beat;
    nb_info     = term_info(rdata_i, gmmu_mmu_pkg::PSIZE_4K, gmmu_mmu_pkg::PSIZE_4K, nb_vpn);
    nb_entry_ok = !r_err && rdata_i[VBit] && (rdata_i[ZBit] || !rdata_i[LpBit]);
    nb_walked   = 1'b0;
    for (int i = 0; i < NWalkers; i++) begin
      if (st_q[i] != StFree && !stale_q[i] && asid_q[i] == asid_q[r_idx] && vpn_q[i] == nb_vpn) begin
        nb_walked = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- done
  logic             dn_any;
  logic [CIdxW-1:0] dn_idx;
  logic             dn_fire;
  logic             pwc_ins;
  logic             dn_install;

  prim_rr_arb #(.N(NWalkers), .IdxW(CIdxW)) u_dn_arb (
    .clk_i,
    .rst_ni,
    .req_i       (is_done & ~led),
    .take_i      (dn_ready_i),
    .gnt_valid_o (dn_any),
    .gnt_idx_o   (dn_idx)
  );

  assign dn_valid_o = dn_any;
  assign dn_info_o  = info_q[dn_idx];
  assign dn_asid_o  = asid_q[dn_idx];
  assign dn_vpn_o   = vpn_q[dn_idx];
  assign dn_meta_o  = meta_q[dn_idx];
  assign dn_stale_o = stale_q[dn_idx];
  assign dn_fire    = dn_any && dn_ready_i;
  // A walk that ended without a fault and is not stale writes the table
  // entries it read into the walk cache, one per cycle, after it answered.
  assign dn_install = !stale_q[dn_idx] && !inv_valid_i && (pend_q[dn_idx] != '0) &&
                      (info_q[dn_idx][gmmu_mmu_pkg::INFO_FAULT_LSB +: 3] == FNone);

  logic [CIdxW-1:0] in_idx;
  logic             in_any;
  logic [1:0]       in_level;
  logic [NLv-1:0]   in_left;
  logic [DataW-1:0] in_data;
  always_comb begin
    in_any = |is_inst;
    in_idx = '0;
    for (int i = NWalkers - 1; i >= 0; i--) begin
      if (is_inst[i]) in_idx = CIdxW'(i);
    end
    in_level = '0;
    in_left  = pend_q[in_idx];
    for (int l = NLv; l >= 1; l--) begin
      if (pend_q[in_idx][l-1]) in_level = 2'(l);
    end
    in_data = '0;
    for (int l = 1; l <= NLv; l++) begin
      if (in_level == 2'(l)) begin
        in_left[l-1] = 1'b0;
        in_data      = pdata_q[in_idx][(l-1)*DataW +: DataW];
      end
    end
  end
  // An invalidation ends the installs of every walk (stale_q is set too).
  assign pwc_ins = in_any && !stale_q[in_idx] && !inv_valid_i;

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
      .lk_asid_i   (nx2_asid_i),
      .lk_vpn_i    (nx2_vpn_i),
      .lk_hit_o    (pwc_hit),
      .lk_level_o  (pwc_level),
      .lk_data_o   (pwc_data),
      .ins_valid_i (pwc_ins),
      .ins_asid_i  (asid_q[in_idx]),
      .ins_vpn_i   (vpn_q[in_idx]),
      .ins_level_i (in_level),
      .ins_data_i  (in_data),
      .inv_valid_i,
      .inv_type_i,
      .inv_asid_i,
      .inv_start_i,
      .inv_end_i,
      .inv_busy_o
    );
  end else begin : gen_no_pwc
    assign pwc_hit   = 1'b0;
    assign pwc_level = '0;
    assign pwc_data  = '0;
    logic unused_pwc;
    assign inv_busy_o = 1'b0;
    assign unused_pwc = ^{pwc_ins, inv_type_i, inv_asid_i, inv_start_i, inv_end_i, in_level,
                          in_data, nx2_asid_i, nx2_vpn_i};
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NWalkers; i++) st_q[i] <= StFree;
      stale_q    <= '0;
      beat1_q    <= '0;
      ar_valid_q <= 1'b0;
      ar_ctx_q   <= '0;
      ar_addr_q  <= '0;
      ar_dual_q  <= 1'b0;
      ar_line_q  <= 1'b0;
      ar_oor_q   <= 1'b0;
      nb_valid_q <= 1'b0;
      for (int i = 0; i < NWalkers; i++) lrem_q[i] <= '0;
    end else begin
      nb_valid_q <= (LeafLine > 1) && r_nb && nb_entry_ok && !nb_walked && !stale_q[r_idx] &&
                    !inv_valid_i;
      if (r_line) lrem_q[r_idx] <= lrem_q[r_idx] - RemW'(1);

      if (inv_valid_i) stale_q <= '1;

      // Start.
      if (st_valid_i) begin
        st_q[st_idx]    <= fl_start ? StFollow : s_st;
        stale_q[st_idx] <= st_stale_i || inv_valid_i;
        beat1_q[st_idx] <= 1'b0;
      end

      // AR. A read beyond the AXI address space takes the AR register for
      // a cycle without a request and ends its walk there, so the address
      // add's carry chain feeds only these two registers.
      if (ar_free) ar_valid_q <= 1'b0;
      ar_oor_q <= rq_take && rq_oor;
      if (rq_take) begin
        st_q[rq_idx] <= StRdWait;
        ar_valid_q   <= !rq_oor;
        ar_ctx_q     <= rq_idx;
        ar_addr_q    <= rq_addr;
        ar_dual_q    <= (rq_lvl == 2'd1);
        ar_line_q    <= rq_line;
        if (rq_line) lrem_q[rq_idx] <= RemW'(LeafLine);
      end
      if (ar_oor_q) begin
        st_q[ar_ctx_q]   <= StDone;
        lrem_q[ar_ctx_q] <= '0;
      end

      // R.
      for (int i = 0; i < NWalkers; i++) begin
        if (r_here[i]) begin
          st_q[i]    <= nx_first[i] ? StRdWait : nx_rdreq[i] ? StRdReq : StDone;
          beat1_q[i] <= nx_first[i];
        end
      end

      // Followers resolved.
      for (int i = 0; i < NWalkers; i++) begin
        if (fw_apply[i]) st_q[i] <= fw_finish[i] ? StDone : StRdReq;
      end

      // Done.
      if (dn_fire) st_q[dn_idx] <= dn_install ? StInstall : StFree;
      if (in_any && (!pwc_ins || in_left == '0)) st_q[in_idx] <= StFree;
    end
  end

  always_ff @(posedge clk_i) begin
    if (r_nb) begin
      nb_asid_q <= asid_q[r_idx];
      nb_vpn_q  <= nb_vpn;
      nb_info_q <= nb_info;
    end
    if (st_valid_i) begin
      asid_q[st_idx]   <= st_asid_i;
      vpn_q[st_idx]    <= st_vpn_i;
      meta_q[st_idx]   <= st_meta_i;
      lvl_q[st_idx]    <= s_lvl;
      tbl_q[st_idx]    <= s_tbl;
      leaf64_q[st_idx] <= s_leaf64;
      fell_q[st_idx]   <= 1'b0;
      wbuf_q[st_idx]   <= s_wbuf;
      info_q[st_idx]   <= s_info;
      err0_q[st_idx]   <= 1'b0;
      pend_q[st_idx]   <= '0;
      lead_q[st_idx]   <= fl_lead;
      same64_q[st_idx] <= |(fl_lead & fl_same64v);
      samepg_q[st_idx] <= |(fl_lead & fl_samepg_v);
    end
    for (int i = 0; i < NWalkers; i++) begin
      if (fw_apply[i] && fw_finish[i]) info_q[i] <= pk_info;
      if (fw_apply[i] && fw_copy[i]) begin
        lvl_q[i]    <= 2'd0;
        tbl_q[i]    <= pk_tbl;
        leaf64_q[i] <= pk_leaf64;
        fell_q[i]   <= 1'b0;
        wbuf_q[i]   <= pk_wbuf;
      end
    end
    if (ar_oor_q) info_q[ar_ctx_q] <= fault_info(FBus);
    if (in_any) pend_q[in_idx] <= in_left;
    for (int i = 0; i < NWalkers; i++) begin
      if (r_here[i]) begin
        // Enables: the wide fields are written whenever they may change,
        // also where the walk ends instead, because nothing reads them then
        // (tbl_q is read in StRdReq and, for a follower's copy, at level 0;
        // info_q in StDone; pdata_q where pend_q is set; wbuf_q at level 0
        // below a 4 KB-page table): their enables wait for no decode of the
        // entry. lvl/leaf64/fell and pend_q are exact.
        if (nx_rdreq[i]) begin
          lvl_q[i]    <= nx_lvl[i];
          leaf64_q[i] <= nx_leaf64[i];
          fell_q[i]   <= nx_fell[i];
        end
        if (nx_tbl_we[i]) tbl_q[i] <= nx_tbl[i];
        if (nx_first[i]) err0_q[i] <= r_err;
        if (nx_wbuf_we[i]) wbuf_q[i] <= rdata_i;
        if (!nx_first[i]) info_q[i] <= r_record;
        pend_q[i] <= pend_q[i] | nx_pend[i];
        for (int l = 0; l < NLv; l++) begin
          if (nx_pdata_we[i][l]) pdata_q[i][l*DataW +: DataW] <= nx_pdata[i][l*DataW +: DataW];
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

  assign nb_valid_o = nb_valid_q;
  assign nb_asid_o  = nb_asid_q;
  assign nb_vpn_o   = nb_vpn_q;
  assign nb_info_o  = nb_info_q;

  assign free_cnt_o   = free_cnt;
  assign busy_cnt_o   = CntW'(NWalkers) - free_cnt;
  assign ev_walk_o    = st_valid_i;
  assign ev_pwc_hit_o = st_valid_i && as_valid_q && pwc_hit;
  assign ev_read_o    = ar_valid_q && arready_i;

  // Bursts are tracked per context (beat1_q), so RLAST is not needed.
  logic unused_r;
  assign unused_r = rlast_i;

endmodule : mmu_walker
