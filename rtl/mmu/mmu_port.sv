// SPDX-License-Identifier: Apache-2.0
// One translation port: request/response channels, the port's L1 TLB, its
// miss registers (MSHRs), its miss slots, its prefetcher (mmu_prefetch) and
// its fault staging register.
//
// A request is looked up in the L1 TLB in the cycle it is accepted and a hit
// is answered the next cycle (one lookup per cycle). A miss takes a miss
// slot (tag, access, page offset) and the port goes on serving later
// requests (hit under miss); responses therefore return out of order,
// identified by the tag. A miss register holds one 4 KB page being asked
// of the L2 TLB (and its answer); a miss to a page that already has one is
// merged: its slot links to that register and takes no register of its own,
// so a surface row of four requests costs one register and four slots.
// Answers arrive on the fill input; a fill answers every slot linked to its
// register and installs the translation in the L1 TLB unless it is a fault
// or stale. A register is freed once answered and no slot links to it.
// Permissions are checked here, for every access, against the translation
// record of the hit or fill. The first use of a new translation prefetches
// the PfDepth pages along the port's detected stride (strided streams, the
// rows of a tile; after the stride's last learned jump, the pages after its
// target), else the PfDepth ranges after the hit entry (streams): the port
// reports those events to mmu_prefetch and takes the pages it offers into
// free miss registers.
//
// Invalidation: a stale fill (from a walk or lookup that began before an
// invalidation) is never installed and answers only misses that were
// already in flight at the invalidation, and misses that arrive after an
// invalidation never merge with older ones, so nothing stale reaches a
// request issued after the invalidation completed.
//
// Timing: request to response 1 cycle on a hit. The request cycle only
// compares the address with the L1 entries; the request and the winning
// entry's index are registered (the lookup stage, s1) and everything else
// (the record read, permission check, miss and merge decisions, response)
// happens the next cycle, from registers. The lookup stage's response goes
// straight to the response outputs when the response FIFO is empty, else
// into the FIFO (four entries, two writes per cycle: an answered miss and a
// lookup). req_ready_o is a function of registers only: the lookup stage
// is free or will move on (room for two responses, a free miss register and
// a free slot). An answered slot is chosen (round robin) and its fields
// registered one cycle before its response is built and queued: from the
// choice through the slot's fields and its register's answer to the FIFO's
// write in one cycle was once the MMU's routed critical path on ECP5. A
// response with a fault is also handed to the fault FIFO through a staging
// register as it leaves the port; it waits while the register is occupied,
// so no fault is lost.
module mmu_port #(
  parameter int unsigned AsidW     = 6,
  parameter int unsigned VaBits    = 48,
  parameter int unsigned TagW      = 8,
  parameter int unsigned Mshrs     = 8,      // miss registers: pages in flight, prefetches too
  parameter int unsigned Slots     = 32,     // miss slots: requests waiting for a register's answer
  parameter int unsigned L1Entries = 16,
  parameter int unsigned PfDepth   = 3,      // ranges prefetched per event, 0..3 (0: no prefetch)
  parameter int unsigned PfStrideW = 10,     // stride detector: signed 4 KB-page delta bits (<2: none)
  parameter int unsigned MIdxW     = (Mshrs > 1) ? $clog2(Mshrs) : 1
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  // Translation request
  input  logic                                req_valid_i,
  output logic                                req_ready_o,
  input  logic [AsidW-1:0]                    req_asid_i,
  input  logic [63:0]                         req_va_i,
  input  logic [1:0]                          req_access_i,
  input  logic [TagW-1:0]                     req_tag_i,

  // Translation response
  output logic                                rsp_valid_o,
  input  logic                                rsp_ready_i,
  output logic [TagW-1:0]                     rsp_tag_o,
  output logic [2:0]                          rsp_fault_o,
  output logic                                rsp_zero_o,
  output logic [gmmu_mmu_pkg::PA_BITS-1:0]    rsp_pa_o,
  output logic [4:0]                          rsp_seg_o,
  output logic                                rsp_cc_o,
  output logic                                rsp_ro_o,
  output logic                                rsp_nx_o,
  output logic [2:0]                          rsp_psize_o,

  // Miss to the L2 TLB (payload may change while not accepted)
  output logic                                miss_valid_o,
  input  logic                                miss_ready_i,
  output logic [AsidW-1:0]                    miss_asid_o,
  output logic [VaBits-13:0]                  miss_vpn_o,
  output logic [MIdxW-1:0]                    miss_mshr_o,

  // Answer to miss fill_mshr_i (always accepted)
  input  logic                                fill_valid_i,
  input  logic [MIdxW-1:0]                    fill_mshr_i,
  // The answer is not to be installed: stale (from a walk or lookup that
  // began before an invalidation) or a fault. An invalidation in the
  // fill's own cycle leaves the entry the L1 writes invalid.
  input  logic                                fill_no_install_i,
  input  logic [gmmu_mmu_pkg::INFO_BITS-1:0]  fill_info_i,

  // Invalidation pulse
  input  logic                                inv_valid_i,
  input  logic [1:0]                          inv_type_i,
  input  logic [AsidW-1:0]                    inv_asid_i,
  input  logic [VaBits-13:0]                  inv_start_i,
  input  logic [VaBits-13:0]                  inv_end_i,
  output logic                                inv_busy_o,

  // The port holds work: a request in its lookup stage, a miss register or
  // slot in use, a response or fault waiting, a prefetch offered, an
  // invalidation running (mmu_top gates its clock by it; not used otherwise).
  output logic                                busy_o,

  // Fault record to the fault FIFO
  output logic                                fault_valid_o,
  input  logic                                fault_ready_i,
  output logic [63:0]                         fault_va_o,
  output logic [AsidW-1:0]                    fault_asid_o,
  output logic [1:0]                          fault_access_o,
  output logic [2:0]                          fault_reason_o,
  output logic [TagW-1:0]                     fault_tag_o,

  // Performance events (one-cycle pulses)
  output logic                                ev_req_o,
  output logic                                ev_hit_o,
  output logic                                ev_miss_o,
  output logic                                ev_merge_o,
  output logic                                ev_fault_o,
  output logic                                ev_prefetch_o
);

  localparam int unsigned VpnW   = VaBits - 12;
  localparam int unsigned SIdxW  = (Slots > 1) ? $clog2(Slots) : 1;
  localparam int unsigned InfoW  = gmmu_mmu_pkg::INFO_BITS;
  localparam int unsigned PaW    = gmmu_mmu_pkg::PA_BITS;
  // Response record: fault, zero, pa, seg, cc, ro, nx, psize.
  localparam int unsigned RspW   = 3 + 1 + PaW + 5 + 3 + 3;
  localparam int unsigned OutW   = TagW + RspW;
  // Response FIFO record: tag and response, then what the fault record
  // needs besides them (VA, address space, access).
  localparam int unsigned RecW   = OutW + 64 + AsidW + 2;
  localparam logic [2:0]  FaultNone = 3'(gmmu_pte_pkg::FAULT_NONE);
  localparam logic [2:0]  Cov4K     = 3'(gmmu_mmu_pkg::PSIZE_4K);

  // PfDepth and PfStrideW are checked by mmu_prefetch.

  // ------------------------------------------------------------ helpers
  // VA page-number bits above the covered range of a PSIZE code.
  function automatic logic [VpnW-1:0] cov_mask(input logic [2:0] cov);
    case (cov)
      gmmu_mmu_pkg::PSIZE_64K:  cov_mask = ~VpnW'(64'hF);
      gmmu_mmu_pkg::PSIZE_2M:   cov_mask = ~VpnW'(64'h1FF);
      gmmu_mmu_pkg::PSIZE_1G:   cov_mask = ~VpnW'(64'h3FFFF);
      gmmu_mmu_pkg::PSIZE_512G: cov_mask = ~VpnW'(64'h7FFFFFF);
      default:                  cov_mask = '1;
    endcase
  endfunction

  // The permission check of one access through a translation record that
  // carries no walk fault.
  function automatic logic [2:0] perm_fault(input logic [InfoW-1:0] info,
                                            input logic [1:0] access);
    perm_fault = FaultNone;
    if (access == 2'(gmmu_pte_pkg::ACCESS_WRITE) && info[gmmu_mmu_pkg::INFO_RO_BIT]) begin
      perm_fault = 3'(gmmu_pte_pkg::FAULT_READ_ONLY);
    end else if (access == 2'(gmmu_pte_pkg::ACCESS_EXECUTE) && info[gmmu_mmu_pkg::INFO_NX_BIT]) begin
      perm_fault = 3'(gmmu_pte_pkg::FAULT_NO_EXECUTE);
    end
  endfunction

  // The fault of one access through any translation record: the walk's
  // fault, else the permission check.
  function automatic logic [2:0] access_fault(input logic [InfoW-1:0] info,
                                              input logic [1:0] access);
    access_fault = info[gmmu_mmu_pkg::INFO_FAULT_LSB +: 3];
    if (access_fault == FaultNone) access_fault = perm_fault(info, access);
  endfunction

  // The parts of a response to an access through a translation record
  // (a miss register keeps them, worked out when its answer arrives, so
  // answering a slot is a choice and an OR): the fault of each access code
  // a at [3a +: 3]; the PA with the bits the VA passes through clear; which
  // PA bits the VA passes through (none for a zero range, whose PA is 0);
  // and zero, segment, CC, RO, NX and psize as the response carries them.
  function automatic logic [11:0] faults_by_access(input logic [InfoW-1:0] info);
    for (int a = 0; a < 4; a++) faults_by_access[3*a +: 3] = access_fault(info, 2'(a));
  endfunction

  function automatic logic [PaW-1:0] pass_mask(input logic [InfoW-1:0] info);
    pass_mask = info[gmmu_mmu_pkg::INFO_ZERO_BIT] ? '0 :
                ~({{(PaW-VpnW){1'b1}}, cov_mask(info[gmmu_mmu_pkg::INFO_COV_LSB +: 3])} << 12);
  endfunction

  function automatic logic [PaW-1:0] pa_base(input logic [InfoW-1:0] info);
    pa_base = info[gmmu_mmu_pkg::INFO_ZERO_BIT] ? '0 :
              {info[gmmu_mmu_pkg::INFO_PPN_LSB +: PaW-12], 12'b0} & ~pass_mask(info);
  endfunction

  function automatic logic [11:0] rsp_attrs(input logic [InfoW-1:0] info);
    rsp_attrs = {info[gmmu_mmu_pkg::INFO_ZERO_BIT], info[gmmu_mmu_pkg::INFO_SEG_LSB +: 5],
                 info[gmmu_mmu_pkg::INFO_CC_BIT], info[gmmu_mmu_pkg::INFO_RO_BIT],
                 info[gmmu_mmu_pkg::INFO_NX_BIT], info[gmmu_mmu_pkg::INFO_PSIZE_LSB +: 3]};
  endfunction

  // A response from its parts: the PA is the covered range's base with the
  // VA's passed-through low bits. With a fault the other fields are not
  // cleared here: the FIFO and the paths into it carry them as they are,
  // and the port's output clears them.
  function automatic logic [RspW-1:0] rsp_from_parts(input logic [2:0]        fault,
                                                     input logic [11:0]       attrs,
                                                     input logic [PaW-1:0]    base,
                                                     input logic [PaW-1:0]    pass,
                                                     input logic [VaBits-1:0] va);
    rsp_from_parts = {fault, attrs[11], base | ({{(PaW-VaBits){1'b0}}, va} & pass), attrs[10:0]};
  endfunction

  // The response to one access through an L1 entry (the lookup's
  // bypass); an answered miss builds its own from a miss register's parts.
  // The L1 holds no faulting record (a fill with a walk fault is not
  // installed), so only the permission check applies: the record's fault
  // field, a 3-bit compare deep in the path from the L1's record read to
  // the fault staging register, is not looked at.
  function automatic logic [RspW-1:0] l1_rsp(input logic [InfoW-1:0] info,
                                             input logic [VaBits-1:0] va,
                                             input logic [1:0] access);
    l1_rsp = rsp_from_parts(perm_fault(info, access), rsp_attrs(info), pa_base(info),
                            pass_mask(info), va);
  endfunction

  // ------------------------------------------------------------ state
  // Miss registers, one per 4 KB page in flight. busy: allocated; sent: its
  // L2 request was accepted; filled: answered (info valid), waiting for its
  // slots to leave; old: allocated before the latest invalidation (never
  // merged into; a stale answer only reaches old registers, see below).
  logic [Mshrs-1:0] m_busy_q, m_sent_q, m_filled_q, m_old_q;
  logic [Mshrs-1:0] m_pf_q;   // a prefetch: installs, answers only slots merged into it
  logic [AsidW-1:0] m_asid_q   [Mshrs];
  logic [VpnW-1:0]  m_vpn_q    [Mshrs];
  // The answer, as the parts of a response (above): from the done arbiter
  // through the permission check to the response FIFO was the port's
  // longest path on ECP5.
  logic [11:0]      m_fault_q  [Mshrs];
  logic [PaW-1:0]   m_base_q   [Mshrs];
  logic [PaW-1:0]   m_pass_q   [Mshrs];
  logic [11:0]      m_attr_q   [Mshrs];
  // Miss slots, one per request waiting for an answer. done: its register
  // was answered; link: that register, one-hot, so a fill and the freeing
  // of registers are AND-OR terms rather than a decoder per slot.
  logic [Slots-1:0] s_busy_q, s_done_q;
  logic [Mshrs-1:0] s_link_q   [Slots];
  logic [11:0]      s_off_q    [Slots];
  logic [1:0]       s_access_q [Slots];
  logic [TagW-1:0]  s_tag_q    [Slots];

  // Response FIFO, four entries, two writes per cycle (an answered miss and
  // a lookup can be queued in the same cycle).
  logic [RecW-1:0]  of_q [4];
  logic [1:0]       of_wr_q, of_rd_q;
  logic [2:0]       of_cnt_q;

  // Lookup stage: the request accepted last cycle, its L1 lookup registered
  // in the L1.
  logic             s1_v_q;
  logic             s1_va_ok_q;
  logic [AsidW-1:0] s1_asid_q;
  logic [63:0]      s1_va_q;
  logic [1:0]       s1_access_q;
  logic [TagW-1:0]  s1_tag_q;

  // Fault staging register.
  logic             fs_valid_q;
  logic [63:0]      fs_va_q;
  logic [AsidW-1:0] fs_asid_q;
  logic [1:0]       fs_access_q;
  logic [2:0]       fs_reason_q;
  logic [TagW-1:0]  fs_tag_q;

  // ------------------------------------------------------------ L1 TLB
  logic              req_fire;
  logic              lk_hit;
  logic              lk_fresh;
  logic              lk_used;
  logic [InfoW-1:0]  lk_info;
  logic [AsidW-1:0]  lk_asid;
  logic [VpnW-1:0]   lk_vpn;
  logic              ins_valid;
  logic [VpnW-1:0]   fill_vpn;
  logic [AsidW-1:0]  fill_asid;

  assign fill_vpn  = m_vpn_q[fill_mshr_i];
  assign fill_asid = m_asid_q[fill_mshr_i];

  // The lookup port serves requests only; a fill is installed without a
  // presence check (misses of one port to different 4 KB pages of one large
  // page may install it twice, both correct; the lower entry wins).
  assign lk_asid = req_asid_i;
  assign lk_vpn  = req_va_i[VaBits-1:12];

  assign ins_valid = fill_valid_i && !fill_no_install_i;

  mmu_l1_tlb #(
    .Entries (L1Entries),
    .AsidW   (AsidW),
    .VpnW    (VpnW)
  ) u_l1 (
    .clk_i,
    .rst_ni,
    .lk_load_i   (req_fire),
    .lk_asid_i   (lk_asid),
    .lk_vpn_i    (lk_vpn),
    .lk_hit_o    (lk_hit),
    .lk_info_o   (lk_info),
    .lk_fresh_o  (lk_fresh),
    .lk_used_i   (lk_used),
    .ins_valid_i (ins_valid),
    .ins_maybe_i (fill_valid_i),
    .ins_asid_i  (fill_asid),
    .ins_vpn_i   (fill_vpn),
    .ins_info_i  (fill_info_i),
    .inv_valid_i,
    .inv_type_i,
    .inv_asid_i,
    .inv_start_i,
    .inv_end_i,
    .inv_busy_o
  );

  // ------------------------------------------------------------ arbiters
  logic             send_any;
  logic [MIdxW-1:0] send_idx;
  logic             done_pick_any, done_pick_load;
  logic [SIdxW-1:0] done_pick;
  logic [Slots-1:0] done_chosen;  // one-hot: the slot in the done stage, masked from the arbiter
  // The done stage: the answered slot chosen last cycle and its fields.
  logic             done_v_q;
  logic [SIdxW-1:0] done_idx_q;
  logic [Mshrs-1:0] done_link_q;  // one-hot: the slot's register
  logic [11:0]      done_off_q;
  logic [1:0]       done_access_q;
  logic [TagW-1:0]  done_tag_q;
  logic [AsidW-1:0] done_asid;
  logic [VpnW-1:0]  done_vpn;
  logic [11:0]      done_faults, done_attrs;
  logic [PaW-1:0]   done_base, done_pass;
  logic [2:0]       done_fault;
  logic [VaBits-1:0] done_va;
  logic             done_take;

  // The done stage is loaded when empty or leaving; its slot stays busy
  // until it leaves, so it is kept from being chosen again meanwhile.
  always_comb begin
    done_chosen = '0;
    done_chosen[done_idx_q] = done_v_q;
  end
  assign done_pick_load = !done_v_q || done_take;

  prim_rr_arb #(.N(Slots), .IdxW(SIdxW)) u_done_arb (
    .clk_i,
    .rst_ni,
    .req_i       (s_busy_q & s_done_q & ~done_chosen),
    .take_i      (done_pick_load),
    .gnt_valid_o (done_pick_any),
    .gnt_idx_o   (done_pick)
  );

  prim_rr_arb #(.N(Mshrs), .IdxW(MIdxW)) u_send_arb (
    .clk_i,
    .rst_ni,
    .req_i       (m_busy_q & ~m_sent_q),
    .take_i      (miss_ready_i),
    .gnt_valid_o (send_any),
    .gnt_idx_o   (send_idx)
  );

  assign miss_valid_o = send_any;
  assign miss_asid_o  = m_asid_q[send_idx];
  assign miss_vpn_o   = m_vpn_q[send_idx];
  assign miss_mshr_o  = send_idx;

  // ------------------------------------------------------------ datapath
  logic             room1, room2;
  logic             s1_go, s1_fire;
  logic [VaBits-1:0] s1_va;
  logic [RspW-1:0]  done_rsp, lk_rsp;
  logic [RecW-1:0]  done_rec, lk_rec;
  logic             lk_push;
  logic             out_bypass, out_fault, head_fault, out_take;
  logic [RecW-1:0]  out_rec;

  logic [Mshrs-1:0] merge_hit;
  logic             free_any, free2, s_free_any;
  // The next cycle's busy bits, and whether a register and a slot will be
  // free, registered: the stage's go then waits for no 32-slot OR (from
  // the busy bits through the go and the lookup's push to the response
  // FIFO's writes was the port's longest path group on ECP5).
  logic [Mshrs-1:0] m_busy_d;
  logic [Slots-1:0] s_busy_d;
  logic             free_any_q, s_free_any_q;
  logic [MIdxW-1:0] free_idx, pf_idx;
  logic [Mshrs-1:0] merge_first;  // one-hot: the register a merging miss joins
  logic [SIdxW-1:0] s_free_idx;
  logic             alloc, alloc_merge;

  logic [Mshrs-1:0] old_eff;
  logic [Mshrs-1:0] fill_now;     // the register answered this cycle
  logic [Mshrs-1:0] m_linked;     // some slot still links to the register
  logic [Slots-1:0] s_fill_done;  // slots answered this cycle

  assign s1_va = s1_va_q[VaBits-1:0];
  assign room1 = (of_cnt_q <= 3'd3);
  assign room2 = (of_cnt_q <= 3'd2);
  always_comb begin
    done_asid = '0;
    done_vpn  = '0;
    done_faults = '0;
    done_base = '0;
    done_pass = '0;
    done_attrs = '0;
    for (int i = 0; i < Mshrs; i++) begin
      if (done_link_q[i]) begin
        done_asid   = done_asid   | m_asid_q[i];
        done_vpn    = done_vpn    | m_vpn_q[i];
        done_faults = done_faults | m_fault_q[i];
        done_base   = done_base   | m_base_q[i];
        done_pass   = done_pass   | m_pass_q[i];
        done_attrs  = done_attrs  | m_attr_q[i];
      end
    end
  end
  assign done_va    = {done_vpn, done_off_q};
  assign done_fault = done_faults[3*done_access_q +: 3];
  assign done_rsp   = rsp_from_parts(done_fault, done_attrs, done_base, done_pass, done_va);
  assign done_rec = {done_tag_q, done_rsp, {{(64-VaBits){1'b0}}, done_va},
                     done_asid, done_access_q};
  assign lk_rsp   = !s1_va_ok_q ? {3'(gmmu_pte_pkg::FAULT_VA_RANGE), {(RspW-3){1'b0}}}
                                : l1_rsp(lk_info, s1_va, s1_access_q);
  assign lk_rec   = {s1_tag_q, lk_rsp, s1_va_q, s1_asid_q, s1_access_q};

  // The lookup stage moves on when there is room for two responses (its
  // own and an answered miss's) and a free miss register and slot: a free
  // register is required even for a hit or a miss that will merge, so
  // ready depends on registers only, not on the lookup.
  assign done_take   = done_v_q && room1;
  assign s1_go       = room2 && free_any_q && s_free_any_q;
  assign s1_fire     = s1_v_q && s1_go;
  assign req_ready_o = !s1_v_q || s1_go;
  assign req_fire    = req_valid_i && req_ready_o;

  always_comb begin
    free_idx = '0;
    pf_idx   = '0;
    free_any = 1'b0;
    free2    = 1'b0;
    // Requests take the lowest free miss register, prefetches the highest.
    for (int i = Mshrs - 1; i >= 0; i--) begin
      if (!m_busy_q[i]) begin
        if (!free_any) pf_idx = MIdxW'(i);
        free2    = free_any;
        free_idx = MIdxW'(i);
        free_any = 1'b1;
      end
    end
    s_free_idx = '0;
    s_free_any = 1'b0;
    for (int i = Slots - 1; i >= 0; i--) begin
      if (!s_busy_q[i]) begin
        s_free_idx = SIdxW'(i);
        s_free_any = 1'b1;
      end
    end
  end

  // A miss registered in the cycle of an invalidation counts as older.
  assign old_eff = m_old_q | {Mshrs{inv_valid_i}};

  always_comb begin
    for (int i = 0; i < Mshrs; i++) begin
      // Not into a miss answered this very cycle (it would never be answered).
      merge_hit[i] = m_busy_q[i] && !m_filled_q[i] && !old_eff[i] && !fill_now[i] &&
                     (m_asid_q[i] == s1_asid_q) && (m_vpn_q[i] == s1_va[VaBits-1:12]);
    end
    // Two registers may hold one page (a prefetch and a miss allocated in
    // one cycle); a merge joins the lowest.
    merge_first = merge_hit & (~merge_hit + Mshrs'(1));
  end

  assign alloc       = s1_fire && s1_va_ok_q && !lk_hit;
  assign alloc_merge = |merge_hit;

  // Prefetch (mmu_prefetch). The first use of a new translation (the first
  // request that hits a fresh L1 entry, or a miss that asks for a new entry
  // or merges into a prefetch) is a prefetch event; the prefetcher turns
  // the port's events into pages to prefetch.
  //
  // A prefetch takes a miss register (the highest free one, when at least
  // two are free) and is looked up and walked like a miss, but answers
  // nobody and records no fault; requests to its page that come meanwhile
  // merge into it. One along a confirmed stride may be allocated in the
  // same cycle as a request's miss (it takes the highest free register, the
  // request the lowest): a tile's rows miss four requests at a time and
  // would otherwise starve it. A next-range prefetch is more speculative
  // and waits for a cycle without a miss.
  logic             pf_event;
  logic             pf_valid, pf_ready, pf_stride, pf_alloc;
  logic [AsidW-1:0] pf_asid;
  logic [VpnW-1:0]  pf_vpn;

  assign lk_used  = s1_fire && s1_va_ok_q && lk_hit;
  assign pf_event = (lk_used && lk_fresh) || (alloc && (!alloc_merge || |(merge_hit & m_pf_q)));

  mmu_prefetch #(
    .AsidW   (AsidW),
    .VpnW    (VpnW),
    .Depth   (PfDepth),
    .StrideW (PfStrideW)
  ) u_prefetch (
    .clk_i,
    .rst_ni,
    .event_valid_i (pf_event),
    .event_miss_i  (!lk_hit),
    .event_asid_i  (s1_asid_q),
    .event_vpn_i   (s1_va[VaBits-1:12]),
    .event_cov_i   (lk_hit ? lk_info[gmmu_mmu_pkg::INFO_COV_LSB +: 3] : Cov4K),
    .pf_valid_o    (pf_valid),
    .pf_ready_i    (pf_ready),
    .pf_stride_o   (pf_stride),
    .pf_asid_o     (pf_asid),
    .pf_vpn_o      (pf_vpn),
    .inv_valid_i
  );

  assign pf_ready = free2 && (pf_stride || !alloc);

  assign busy_o = s1_v_q || (|m_busy_q) || (|s_busy_q) || (of_cnt_q != '0) || fs_valid_q ||
                  done_v_q || pf_valid || inv_busy_o;
  assign pf_alloc = pf_valid && pf_ready;

  // A fill answers its register and every slot linked to it. A stale fill
  // (from a lookup or walk that began before an invalidation) can only be
  // the answer of a register that was sent before it, hence old; slots link
  // only to registers that were not old when they merged, and became old
  // with them, so every slot a stale fill answers was in flight at the
  // invalidation.
  always_comb begin
    for (int i = 0; i < Mshrs; i++) begin
      fill_now[i] = fill_valid_i && (MIdxW'(i) == fill_mshr_i) && m_busy_q[i] && m_sent_q[i] &&
                    !m_filled_q[i];
    end
    // The slot leaving now no longer needs its register after this cycle.
    m_linked = '0;
    for (int j = 0; j < Slots; j++) begin
      s_fill_done[j] = s_busy_q[j] && !s_done_q[j] && |(fill_now & s_link_q[j]);
      if (s_busy_q[j] && !(done_take && done_chosen[j])) m_linked = m_linked | s_link_q[j];
    end
  end

  // A register leaves once answered and no slot links to it (a prefetch
  // nobody merged into: the cycle after its fill); a slot when its response
  // is queued. Allocations take free ones only.
  always_comb begin
    m_busy_d = m_busy_q & ~(m_filled_q & ~m_linked);
    if (alloc && !alloc_merge) m_busy_d[free_idx] = 1'b1;
    if (pf_alloc)              m_busy_d[pf_idx]   = 1'b1;
    s_busy_d = s_busy_q;
    if (done_take) s_busy_d[done_idx_q] = 1'b0;
    if (alloc)     s_busy_d[s_free_idx] = 1'b1;
  end

  // Responses. The lookup stage's response leaves at once when the FIFO is
  // empty (a hit answered the cycle after its request), else it is queued
  // behind the FIFO's; an answered miss is always queued. A faulting
  // response leaves only when the fault staging register is free, and its
  // record goes there as it leaves: at most one fault per cycle. While the
  // register is occupied nothing bypasses (the lookup's response is
  // queued), so whether the offer is taken, and with it the FIFO's writes,
  // never waits for the lookup's permission check. The lookup's response
  // is written into the FIFO even when it bypasses, and popped if taken,
  // so the FIFO's writes do not wait for the taker's ready either.
  assign lk_push    = s1_fire && (!s1_va_ok_q || lk_hit);
  assign out_bypass = (of_cnt_q == 3'd0);
  assign out_rec    = out_bypass ? lk_rec : of_q[of_rd_q];
  assign out_fault  = (out_rec[RecW-TagW-1 -: 3] != FaultNone);
  assign head_fault = (of_q[of_rd_q][RecW-TagW-1 -: 3] != FaultNone);
  assign out_take   = rsp_valid_o && rsp_ready_i;

  // ------------------------------------------------------------ registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_v_q     <= 1'b0;
      done_v_q   <= 1'b0;
      m_busy_q   <= '0;
      free_any_q   <= 1'b1;
      s_free_any_q <= 1'b1;
      m_sent_q   <= '0;
      m_filled_q <= '0;
      m_old_q    <= '0;
      m_pf_q     <= '0;
      s_busy_q   <= '0;
      s_done_q   <= '0;
      of_wr_q    <= '0;
      of_rd_q    <= '0;
      of_cnt_q   <= '0;
      fs_valid_q <= 1'b0;
    end else begin
      if (req_fire)     s1_v_q <= 1'b1;
      else if (s1_fire) s1_v_q <= 1'b0;
      if (inv_valid_i) m_old_q <= m_old_q | m_busy_q;
      if (send_any && miss_ready_i) m_sent_q[send_idx] <= 1'b1;
      m_filled_q <= m_filled_q | fill_now;
      m_busy_q   <= m_busy_d;
      s_busy_q   <= s_busy_d;
      free_any_q   <= !(&m_busy_d);
      s_free_any_q <= !(&s_busy_d);
      s_done_q   <= s_done_q | s_fill_done;
      if (done_take) s_done_q[done_idx_q] <= 1'b0;
      if (done_pick_load) done_v_q <= done_pick_any;
      if (alloc) s_done_q[s_free_idx] <= 1'b0;
      if (alloc && !alloc_merge) begin
        m_filled_q[free_idx] <= 1'b0;
        m_sent_q[free_idx]   <= 1'b0;
        m_old_q[free_idx]    <= inv_valid_i;
        m_pf_q[free_idx]     <= 1'b0;
      end
      if (pf_alloc) begin
        m_filled_q[pf_idx] <= 1'b0;
        m_sent_q[pf_idx]   <= 1'b0;
        m_old_q[pf_idx]  <= inv_valid_i;
        m_pf_q[pf_idx]   <= 1'b1;
      end

      // Response FIFO (a bypassing response is written too, and popped).
      of_wr_q  <= of_wr_q + 2'(done_take) + 2'(lk_push);
      if (out_take) of_rd_q <= of_rd_q + 2'd1;
      of_cnt_q <= of_cnt_q + 3'(done_take) + 3'(lk_push) - 3'(out_take);

      // Fault staging.
      if (fs_valid_q && fault_ready_i) fs_valid_q <= 1'b0;
      if (out_take && out_fault) fs_valid_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (req_fire) begin
      s1_va_ok_q  <= (req_va_i[63:VaBits] == '0);
      s1_asid_q   <= req_asid_i;
      s1_va_q     <= req_va_i;
      s1_access_q <= req_access_i;
      s1_tag_q    <= req_tag_i;
    end
    if (done_pick_load) begin
      done_idx_q    <= done_pick;
      done_link_q   <= s_link_q[done_pick];
      done_off_q    <= s_off_q[done_pick];
      done_access_q <= s_access_q[done_pick];
      done_tag_q    <= s_tag_q[done_pick];
    end
    // The lowest free slot and miss register take the lookup stage's
    // request every cycle, whether or not a miss allocates them (a free one
    // is read by nothing), so their enables wait for neither the L1's hit
    // nor the merge compare: those were long paths to hundreds of enables.
    if (s_free_any) begin
      s_link_q[s_free_idx]   <= alloc_merge ? merge_first : Mshrs'(1) << free_idx;
      s_off_q[s_free_idx]    <= s1_va[11:0];
      s_access_q[s_free_idx] <= s1_access_q;
      s_tag_q[s_free_idx]    <= s1_tag_q;
    end
    if (free_any) begin
      m_asid_q[free_idx] <= s1_asid_q;
      m_vpn_q[free_idx]  <= s1_va[VaBits-1:12];
    end
    if (pf_alloc) begin
      m_asid_q[pf_idx] <= pf_asid;
      m_vpn_q[pf_idx]  <= pf_vpn;
    end
    for (int i = 0; i < Mshrs; i++) begin
      if (fill_now[i]) begin
        m_fault_q[i] <= faults_by_access(fill_info_i);
        m_base_q[i]  <= pa_base(fill_info_i);
        m_pass_q[i]  <= pass_mask(fill_info_i);
        m_attr_q[i]  <= rsp_attrs(fill_info_i);
      end
    end
    // The lookup's response first: one offered by the bypass and not taken
    // becomes the FIFO's head, so the offer stays unchanged.
    if (lk_push) of_q[of_wr_q] <= lk_rec;
    if (done_take) of_q[of_wr_q + 2'(lk_push)] <= done_rec;
    // The free staging register takes the offered record every cycle; the
    // cycle a faulting response is taken (offered only while it is free)
    // its valid bit is set and it holds. So its enables wait for no
    // permission check (the lookup's record read through the fault decision
    // into these enables was once the routed critical path).
    if (!fs_valid_q) begin
      {fs_tag_q, fs_reason_q}           <= out_rec[RecW-1 -: TagW + 3];
      {fs_va_q, fs_asid_q, fs_access_q} <= out_rec[RecW-OutW-1:0];
    end
  end

  // ------------------------------------------------------------ outputs
  // Offered: the lookup's response (bypass) or the FIFO's head, unless a fault
  // would need the occupied staging register. The same as (!out_bypass ||
  // lk_push) && !(fs_valid_q && (out_bypass || out_fault)), but
  // written so that no path runs from the lookup's permission check to the
  // valid (and on to the FIFO's write enables): out_fault matters only for
  // the FIFO's head, whose fault bits are read from a register.
  assign rsp_valid_o = out_bypass ? lk_push && !fs_valid_q : !(fs_valid_q && head_fault);
  // A fault's response carries nothing else (see rsp_from_parts).
  assign rsp_tag_o = out_rec[RecW-1 -: TagW];
  assign {rsp_fault_o, rsp_zero_o, rsp_pa_o, rsp_seg_o, rsp_cc_o, rsp_ro_o, rsp_nx_o, rsp_psize_o} =
      out_fault ? {out_rec[RecW-TagW-1 -: 3], {(RspW-3){1'b0}}} : out_rec[RecW-TagW-1 -: RspW];

  assign fault_valid_o  = fs_valid_q;
  assign fault_va_o     = fs_va_q;
  assign fault_asid_o   = fs_asid_q;
  assign fault_access_o = fs_access_q;
  assign fault_reason_o = fs_reason_q;
  assign fault_tag_o    = fs_tag_q;

  // The events leave the port from registers: the fault event comes from
  // the response's fault and the harness's ready, and from there across
  // the chip to the register block's counters was once fmax-mmu's routed
  // critical path. Counts lag a cycle more.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ev_req_o      <= 1'b0;
      ev_hit_o      <= 1'b0;
      ev_miss_o     <= 1'b0;
      ev_merge_o    <= 1'b0;
      ev_fault_o    <= 1'b0;
      ev_prefetch_o <= 1'b0;
    end else begin
      ev_req_o      <= s1_fire;
      ev_hit_o      <= lk_used;
      ev_miss_o     <= alloc;
      ev_merge_o    <= alloc && alloc_merge;
      ev_fault_o    <= out_take && out_fault;
      ev_prefetch_o <= pf_alloc;
    end
  end

endmodule : mmu_port
