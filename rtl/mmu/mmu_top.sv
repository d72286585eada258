// GPU MMU: translates GPU virtual addresses of NPorts clients into segment
// addresses through the WDDM GpuMmu page tables (docs/page-tables.md).
//
//   port 0..N-1: L1 TLB + miss registers (mmu_port)
//        | misses, round robin
//   L2 TLB (mmu_l2_tlb, block RAM, 3-cycle pipeline)
//        | L2 misses
//   walker (mmu_walker: NWalkers walks, page-walk cache, one AXI4 read master)
//        | finished walks -> L2 install
//   fill bus: L2 hits first, then finished walks; answers the port's miss
//
//   registers (mmu_regs, Wishbone): AS table, invalidation, faults, counters
//
// Translation ports are valid/ready channels, flattened: port p uses bits
// [p*W +: W] of each vector. A response carries the request's tag and
// either a translation (PA, segment, attributes, page size; zero=1 for a
// Zero PTE, PA 0) or a fault reason (gmmu_pte_pkg::fault_e, other fields
// 0). Responses may come back out of order. irq_o is a level: the fault
// FIFO is not empty.
//
// Timing: an L1 hit is answered the cycle after the request, one per cycle
// per port; an L2 hit after about 9 cycles; a walk costs about
// (memory latency + 2) per level read.
module mmu_top #(
  parameter int unsigned NPorts     = gmmu_mmu_pkg::PORTS,
  parameter int unsigned NWalkers   = gmmu_mmu_pkg::WALKERS,
  parameter int unsigned Levels     = gmmu_pte_pkg::LEVELS_DEFAULT,
  parameter int unsigned AsidW      = $clog2(gmmu_mmu_pkg::ASIDS),
  parameter int unsigned TagW       = gmmu_mmu_pkg::TAG_BITS,
  parameter int unsigned Mshrs      = gmmu_mmu_pkg::MSHRS,
  parameter int unsigned MissSlots  = gmmu_mmu_pkg::MISS_SLOTS,
  parameter int unsigned L1Entries  = gmmu_mmu_pkg::L1_ENTRIES,
  parameter int unsigned PwcEntries = gmmu_mmu_pkg::PWC_ENTRIES,
  parameter int unsigned FaultDepth = gmmu_mmu_pkg::FAULT_FIFO_DEPTH,
  parameter int unsigned PfDepth    = gmmu_mmu_pkg::PF_DEPTH,  // 0..3 (0: none)
  parameter int unsigned LeafLine   = gmmu_mmu_pkg::LEAF_LINE_PTES,  // leaf entries per leaf read: 1, 2, 4, 8
  parameter bit          WalkFollow = 1'b1, // walks of one 2 MB range in flight share reads (mmu_walker)
  parameter int unsigned PfStrideW  = 10,   // stride detector: signed delta bits in 4 KB pages (<2: next range only)
  parameter int unsigned L2Sets0    = 128,
  parameter int unsigned L2Ways0    = 4,
  parameter int unsigned L2Sets1    = 32,
  parameter int unsigned L2Ways1    = 4,
  parameter int unsigned L2Sets2    = 32,
  parameter int unsigned L2Ways2    = 2,
  parameter int unsigned L2Sets3    = 32,
  parameter int unsigned L2Ways3    = 2
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,

  // Register slave (Wishbone classic, 32-bit, word address)
  input  logic                            wb_cyc_i,
  input  logic                            wb_stb_i,
  input  logic                            wb_we_i,
  input  logic [29:0]                     wb_adr_i,
  input  logic [31:0]                     wb_dat_i,
  input  logic [3:0]                      wb_sel_i,
  output logic                            wb_ack_o,
  output logic [31:0]                     wb_dat_o,

  // Translation requests
  input  logic [NPorts-1:0]               req_valid_i,
  output logic [NPorts-1:0]               req_ready_o,
  input  logic [NPorts*AsidW-1:0]         req_asid_i,
  input  logic [NPorts*64-1:0]            req_va_i,
  input  logic [NPorts*2-1:0]             req_access_i,
  input  logic [NPorts*TagW-1:0]          req_tag_i,

  // Translation responses
  output logic [NPorts-1:0]               rsp_valid_o,
  input  logic [NPorts-1:0]               rsp_ready_i,
  output logic [NPorts*TagW-1:0]          rsp_tag_o,
  output logic [NPorts*3-1:0]             rsp_fault_o,
  output logic [NPorts-1:0]               rsp_zero_o,
  output logic [NPorts*gmmu_mmu_pkg::PA_BITS-1:0] rsp_pa_o,
  output logic [NPorts*5-1:0]             rsp_seg_o,
  output logic [NPorts-1:0]               rsp_cc_o,
  output logic [NPorts-1:0]               rsp_ro_o,
  output logic [NPorts-1:0]               rsp_nx_o,
  output logic [NPorts*3-1:0]             rsp_psize_o,

  // AXI4 read master to DDR (tables live in VRAM: AXI address = VRAM offset)
  output logic                            axi_arvalid_o,
  input  logic                            axi_arready_i,
  output logic [3:0]                      axi_arid_o,
  output logic [31:0]                     axi_araddr_o,
  output logic [7:0]                      axi_arlen_o,
  output logic [2:0]                      axi_arsize_o,
  output logic [1:0]                      axi_arburst_o,
  input  logic                            axi_rvalid_i,
  output logic                            axi_rready_o,
  input  logic [3:0]                      axi_rid_i,
  input  logic [63:0]                     axi_rdata_i,
  input  logic [1:0]                      axi_rresp_i,
  input  logic                            axi_rlast_i,

  output logic                            irq_o
);

  localparam int unsigned VaBits = 12 + 9 * Levels;
  localparam int unsigned VpnW   = 9 * Levels;
  localparam int unsigned InfoW  = gmmu_mmu_pkg::INFO_BITS;
  localparam int unsigned PaW    = gmmu_mmu_pkg::PA_BITS;
  localparam int unsigned PortW  = (NPorts > 1) ? $clog2(NPorts) : 1;
  localparam int unsigned MIdxW  = (Mshrs > 1) ? $clog2(Mshrs) : 1;
  localparam int unsigned MetaW  = PortW + MIdxW;
  localparam logic [2:0]  FaultNone = 3'(gmmu_pte_pkg::FAULT_NONE);
  localparam int unsigned WCntW  = $clog2(NWalkers + 1);
  localparam int unsigned L2Entries = L2Sets0 * L2Ways0 + L2Sets1 * L2Ways1 +
                                      L2Sets2 * L2Ways2 + L2Sets3 * L2Ways3;

  // ---------------------------------------------------------------- signals
  logic [NPorts-1:0]       miss_valid, miss_ready;
  logic [AsidW-1:0]        miss_asid [NPorts];
  logic [VpnW-1:0]         miss_vpn  [NPorts];
  logic [MIdxW-1:0]        miss_idx  [NPorts];

  logic [NPorts-1:0]       flt_valid, flt_ready;
  logic [63:0]             flt_va     [NPorts];
  logic [AsidW-1:0]        flt_asid   [NPorts];
  logic [1:0]              flt_access [NPorts];
  logic [2:0]              flt_reason [NPorts];
  logic [TagW-1:0]         flt_tag    [NPorts];

  logic [NPorts-1:0]       ev_req, ev_hit, ev_miss, ev_merge, ev_fault, ev_pf;
  logic [NPorts-1:0]       l1_inv_busy;
  logic                    pwc_inv_busy;

  // The fill bus: each port's valid, miss register and "do not install"
  // registered per port (below), the record shared.
  logic [NPorts-1:0]       fp_valid_q;
  logic [MIdxW-1:0]        fp_idx_q   [NPorts];
  logic [NPorts-1:0]       fp_noins_q;
  logic [InfoW-1:0]        fill_info;

  logic                    inv_valid;
  logic [1:0]              inv_type;
  logic [AsidW-1:0]        inv_asid;
  logic [VpnW-1:0]         inv_start, inv_end;

  // ---------------------------------------------------------------- ports
  for (genvar p = 0; p < NPorts; p++) begin : gen_port
    mmu_port #(
      .AsidW     (AsidW),
      .VaBits    (VaBits),
      .TagW      (TagW),
      .Mshrs     (Mshrs),
      .Slots     (MissSlots),
      .L1Entries (L1Entries),
      .PfDepth   (PfDepth),
      .PfStrideW (PfStrideW),
      .MIdxW     (MIdxW)
    ) u_port (
      .clk_i,
      .rst_ni,
      .req_valid_i  (req_valid_i[p]),
      .req_ready_o  (req_ready_o[p]),
      .req_asid_i   (req_asid_i[p*AsidW +: AsidW]),
      .req_va_i     (req_va_i[p*64 +: 64]),
      .req_access_i (req_access_i[p*2 +: 2]),
      .req_tag_i    (req_tag_i[p*TagW +: TagW]),
      .rsp_valid_o  (rsp_valid_o[p]),
      .rsp_ready_i  (rsp_ready_i[p]),
      .rsp_tag_o    (rsp_tag_o[p*TagW +: TagW]),
      .rsp_fault_o  (rsp_fault_o[p*3 +: 3]),
      .rsp_zero_o   (rsp_zero_o[p]),
      .rsp_pa_o     (rsp_pa_o[p*PaW +: PaW]),
      .rsp_seg_o    (rsp_seg_o[p*5 +: 5]),
      .rsp_cc_o     (rsp_cc_o[p]),
      .rsp_ro_o     (rsp_ro_o[p]),
      .rsp_nx_o     (rsp_nx_o[p]),
      .rsp_psize_o  (rsp_psize_o[p*3 +: 3]),
      .miss_valid_o (miss_valid[p]),
      .miss_ready_i (miss_ready[p]),
      .miss_asid_o  (miss_asid[p]),
      .miss_vpn_o   (miss_vpn[p]),
      .miss_idx_o   (miss_idx[p]),
      .fill_valid_i (fp_valid_q[p]),
      .fill_idx_i   (fp_idx_q[p]),
      .fill_noins_i (fp_noins_q[p]),
      .fill_info_i  (fill_info),
      .inv_valid_i  (inv_valid),
      .inv_type_i   (inv_type),
      .inv_asid_i   (inv_asid),
      .inv_start_i  (inv_start),
      .inv_end_i    (inv_end),
      .inv_busy_o   (l1_inv_busy[p]),
      .flt_valid_o  (flt_valid[p]),
      .flt_ready_i  (flt_ready[p]),
      .flt_va_o     (flt_va[p]),
      .flt_asid_o   (flt_asid[p]),
      .flt_access_o (flt_access[p]),
      .flt_reason_o (flt_reason[p]),
      .flt_tag_o    (flt_tag[p]),
      .ev_req_o     (ev_req[p]),
      .ev_hit_o     (ev_hit[p]),
      .ev_miss_o    (ev_miss[p]),
      .ev_merge_o   (ev_merge[p]),
      .ev_fault_o   (ev_fault[p]),
      .ev_prefetch_o (ev_pf[p])
    );
  end

  // ---------------------------------------------------------------- misses -> L2
  logic              ma_valid;
  logic              lq_valid_q, lq_ready, lq_free;
  logic [AsidW-1:0]  lq_asid_q;
  logic [VpnW-1:0]   lq_vpn_q;
  logic [MetaW-1:0]  lq_meta_q;
  logic              sk_valid_q;
  logic [AsidW-1:0]  sk_asid_q;
  logic [VpnW-1:0]   sk_vpn_q;
  logic [MetaW-1:0]  sk_meta_q;
  logic [AsidW-1:0]  ma_asid;
  logic [VpnW-1:0]   ma_vpn;
  logic [MetaW-1:0]  ma_meta;
  logic [PortW-1:0]  ma_idx;
  logic              l2_in_ready;
  logic              l2_can_accept;
  logic [2:0]        l2_inflight;
  logic [WCntW-1:0]  wk_free;

  prim_rr_arb #(.N(NPorts), .IdxW(PortW)) u_miss_arb (
    .clk_i,
    .rst_ni,
    .req_i       (miss_valid),
    .take_i      (lq_ready),
    .gnt_valid_o (ma_valid),
    .gnt_idx_o   (ma_idx)
  );

  always_comb begin
    for (int p = 0; p < NPorts; p++) begin
      miss_ready[p] = lq_ready && (ma_idx == PortW'(p));
    end
  end
  assign ma_asid = miss_asid[ma_idx];
  assign ma_vpn  = miss_vpn[ma_idx];
  assign ma_meta = {ma_idx, miss_idx[ma_idx]};

  // The granted miss waits in a register for the L2 (lq). Without it the
  // ports' miss logic, the arbiter and the L2's set hash and RAM addresses
  // made one path (23 ns estimated on ECP5); it costs a cycle per L2
  // lookup. A miss granted while lq waits goes to a second register behind
  // it (sk), so the ports' ready is !sk_valid_q, a register: the L2's
  // ready (free walkers, invalidation) reaches neither the ports' arbiters
  // nor their miss registers (the walker's state -> the L2's ready -> the
  // grant -> lq was the routed critical path of fmax-mmu, 73.52 MHz).
  assign lq_ready = !sk_valid_q;
  assign lq_free  = !lq_valid_q || l2_in_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lq_valid_q <= 1'b0;
      sk_valid_q <= 1'b0;
    end else begin
      if (lq_free) lq_valid_q <= sk_valid_q || ma_valid;
      sk_valid_q <= !lq_free && (sk_valid_q || ma_valid);
    end
  end

  // An empty sk takes the grant's payload every cycle (read by nothing
  // unless sk_valid_q is set), so its enables come from a register.
  always_ff @(posedge clk_i) begin
    if (!sk_valid_q) begin
      sk_asid_q <= ma_asid;
      sk_vpn_q  <= ma_vpn;
      sk_meta_q <= ma_meta;
    end
    if (lq_free) begin
      lq_asid_q <= sk_valid_q ? sk_asid_q : ma_asid;
      lq_vpn_q  <= sk_valid_q ? sk_vpn_q  : ma_vpn;
      lq_meta_q <= sk_valid_q ? sk_meta_q : ma_meta;
    end
  end

  // Every lookup that reaches the end of the L2 pipeline may need a walker.
  assign l2_can_accept = (32'(wk_free) > 32'(l2_inflight));

  logic              l2_res_valid, l2_res_hit, l2_res_stale, l2_busy;
  logic [InfoW-1:0]  l2_res_info;
  logic [AsidW-1:0]  l2_res_asid;
  logic [VpnW-1:0]   l2_res_vpn;
  logic [MetaW-1:0]  l2_res_meta;
  logic [AsidW-1:0]  l2_nx_asid;
  logic              l2_nx_hit, l2_nx_stale;
  logic [MetaW-1:0]  l2_nx_meta;
  logic [AsidW-1:0]  l2_nx2_asid;
  logic [VpnW-1:0]   l2_nx2_vpn;
  logic              l2_ins;
  logic              ev_l2_lookup, ev_l2_hit;

  logic              dn_valid, dn_ready, dn_stale;
  logic [InfoW-1:0]  dn_info;
  logic [AsidW-1:0]  dn_asid;
  logic [VpnW-1:0]   dn_vpn;
  logic [MetaW-1:0]  dn_meta;
  logic              nb_valid, dn_ins, nb_ins;
  logic [AsidW-1:0]  nb_asid;
  logic [VpnW-1:0]   nb_vpn;
  logic [InfoW-1:0]  nb_info;

  mmu_l2_tlb #(
    .AsidW (AsidW),
    .VpnW  (VpnW),
    .MetaW (MetaW),
    .Sets0 (L2Sets0),
    .Ways0 (L2Ways0),
    .Sets1 (L2Sets1),
    .Ways1 (L2Ways1),
    .Sets2 (L2Sets2),
    .Ways2 (L2Ways2),
    .Sets3 (L2Sets3),
    .Ways3 (L2Ways3)
  ) u_l2 (
    .clk_i,
    .rst_ni,
    .in_valid_i   (lq_valid_q),
    .in_ready_o   (l2_in_ready),
    .in_asid_i    (lq_asid_q),
    .in_vpn_i     (lq_vpn_q),
    .in_meta_i    (lq_meta_q),
    .can_accept_i (l2_can_accept),
    .res_valid_o  (l2_res_valid),
    .res_hit_o    (l2_res_hit),
    .res_stale_o  (l2_res_stale),
    .res_info_o   (l2_res_info),
    .res_asid_o   (l2_res_asid),
    .res_vpn_o    (l2_res_vpn),
    .res_meta_o   (l2_res_meta),
    .nx_asid_o    (l2_nx_asid),
    .nx_hit_o     (l2_nx_hit),
    .nx_stale_o   (l2_nx_stale),
    .nx_meta_o    (l2_nx_meta),
    .nx2_asid_o   (l2_nx2_asid),
    .nx2_vpn_o    (l2_nx2_vpn),
    .inflight_o   (l2_inflight),
    .ins_valid_i  (l2_ins),
    .ins_asid_i   (nb_ins ? nbq_asid_q : wq_asid_q),
    .ins_vpn_i    (nb_ins ? nbq_vpn_q : wq_vpn_q),
    .ins_info_i   (nb_ins ? nbq_info_q : wq_info_q),
    .inv_valid_i  (inv_valid),
    .inv_type_i   (inv_type),
    .inv_asid_i   (inv_asid),
    .inv_start_i  (inv_start),
    .inv_end_i    (inv_end),
    .busy_o       (l2_busy),
    .ev_lookup_o  (ev_l2_lookup),
    .ev_hit_o     (ev_l2_hit)
  );

  // ---------------------------------------------------------------- walker
  logic [AsidW-1:0]  as_asid;
  logic              as_valid;
  logic [39:0]       as_root;
  logic              ev_walk, ev_pwc_hit, ev_read;
  logic [WCntW-1:0]  wk_busy;

  mmu_walker #(
    .NWalkers   (NWalkers),
    .Levels     (Levels),
    .AsidW      (AsidW),
    .MetaW      (MetaW),
    .PwcEntries (PwcEntries),
    .LeafLine   (LeafLine),
    .Follow     (WalkFollow),
    .AxiAddrW   (32),
    .VpnW       (VpnW),
    .CntW       (WCntW)
  ) u_walker (
    .clk_i,
    .rst_ni,
    .nx_asid_i    (l2_nx_asid),
    .nx2_asid_i   (l2_nx2_asid),
    .nx2_vpn_i    (l2_nx2_vpn),
    .st_valid_i   (l2_res_valid && !l2_res_hit),
    .st_asid_i    (l2_res_asid),
    .st_vpn_i     (l2_res_vpn),
    .st_meta_i    (l2_res_meta),
    .st_stale_i   (l2_res_stale),
    .free_cnt_o   (wk_free),
    .as_asid_o    (as_asid),
    .as_valid_i   (as_valid),
    .as_root_i    (as_root),
    .arvalid_o    (axi_arvalid_o),
    .arready_i    (axi_arready_i),
    .arid_o       (axi_arid_o),
    .araddr_o     (axi_araddr_o),
    .arlen_o      (axi_arlen_o),
    .arsize_o     (axi_arsize_o),
    .arburst_o    (axi_arburst_o),
    .rvalid_i     (axi_rvalid_i),
    .rready_o     (axi_rready_o),
    .rid_i        (axi_rid_i),
    .rdata_i      (axi_rdata_i),
    .rresp_i      (axi_rresp_i),
    .rlast_i      (axi_rlast_i),
    .dn_valid_o   (dn_valid),
    .dn_ready_i   (dn_ready),
    .dn_info_o    (dn_info),
    .dn_asid_o    (dn_asid),
    .dn_vpn_o     (dn_vpn),
    .dn_meta_o    (dn_meta),
    .dn_stale_o   (dn_stale),
    .nb_valid_o   (nb_valid),
    .nb_asid_o    (nb_asid),
    .nb_vpn_o     (nb_vpn),
    .nb_info_o    (nb_info),
    .inv_valid_i  (inv_valid),
    .inv_type_i   (inv_type),
    .inv_asid_i   (inv_asid),
    .inv_start_i  (inv_start),
    .inv_end_i    (inv_end),
    .inv_busy_o   (pwc_inv_busy),
    .ev_walk_o    (ev_walk),
    .ev_pwc_hit_o (ev_pwc_hit),
    .ev_read_o    (ev_read),
    .busy_cnt_o   (wk_busy)
  );

  // ---------------------------------------------------------------- fill bus
  // L2 hits cannot wait (their pipeline does not stall); finished walks can.
  // A finished walk first waits in a register (wq): from the walker's
  // choice among its finished walks across the chip into every port's fill
  // logic was one of the MMU's longest path groups on ECP5 (2026-11-25);
  // now the fill bus is a choice between two registers. A walk's answer
  // costs a cycle more; an L2 hit's nothing. An invalidation while the
  // answer waits makes it stale, as one while it was a walk did. A stale
  // or faulting answer installs nothing (wq_noins_q).
  logic             l2_fill, wq_valid_q, wq_noins_q, wq_take;
  logic             dn_noins;
  // Leaf-line neighbours wait a cycle too, so they meet a walk's install
  // in the same cycles as before the walk's register (the install port
  // takes one per cycle and drops a neighbour that meets a walk's).
  logic             nbq_valid_q;
  logic [AsidW-1:0] nbq_asid_q;
  logic [VpnW-1:0]  nbq_vpn_q;
  logic [InfoW-1:0] nbq_info_q;
  logic [InfoW-1:0] wq_info_q;
  logic [AsidW-1:0] wq_asid_q;
  logic [VpnW-1:0]  wq_vpn_q;
  logic [MetaW-1:0] wq_meta_q;

  assign l2_fill  = l2_res_valid && l2_res_hit;
  assign wq_take  = wq_valid_q && !l2_fill;
  assign dn_ready = !wq_valid_q || wq_take;
  assign dn_noins = dn_stale || (dn_info[gmmu_mmu_pkg::INFO_FAULT_LSB +: 3] != FaultNone);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wq_valid_q <= 1'b0;
    end else if (dn_ready) begin
      wq_valid_q <= dn_valid;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) nbq_valid_q <= 1'b0;
    else         nbq_valid_q <= nb_valid && !inv_valid;
  end

  always_ff @(posedge clk_i) begin
    nbq_asid_q <= nb_asid;
    nbq_vpn_q  <= nb_vpn;
    nbq_info_q <= nb_info;
  end

  always_ff @(posedge clk_i) begin
    if (dn_ready) begin
      wq_noins_q <= dn_noins || inv_valid;
      wq_info_q  <= dn_info;
      wq_asid_q  <= dn_asid;
      wq_vpn_q   <= dn_vpn;
      wq_meta_q  <= dn_meta;
    end else if (inv_valid) begin
      wq_noins_q <= 1'b1;
    end
  end

  assign fill_info = l2_fill ? l2_res_info : wq_info_q;

  // The fill bus's control for each port in a register of its own, loaded
  // a cycle ahead from what the L2's result and wq will hold: from those
  // registers through the choice between them into every port's miss
  // registers, slots and L1 install (a broadcast across the chip) was
  // fmax-mmu's routed critical path group. A port's registers load only
  // for a fill to that port, so they are not copies of one another (Yosys
  // would merge copies). The L2 holds no faulting record (walks install
  // without a fault, leaf-line neighbours are translations), so an L2
  // hit's "do not install" is its staleness alone.
  logic             wq_nx_valid, wq_nx_noins, nx_fill, nx_noins;
  logic [MetaW-1:0] wq_nx_meta, nx_meta;
  logic [PortW-1:0] nx_port;
  logic [MIdxW-1:0] nx_idx;

  always_comb begin
    wq_nx_valid = dn_ready ? dn_valid : wq_valid_q;
    wq_nx_meta  = dn_ready ? dn_meta : wq_meta_q;
    wq_nx_noins = dn_ready ? dn_noins : wq_noins_q;
    nx_fill  = l2_nx_hit || wq_nx_valid;
    nx_meta  = l2_nx_hit ? l2_nx_meta : wq_nx_meta;
    nx_noins = l2_nx_hit ? l2_nx_stale : (wq_nx_noins || inv_valid);
    {nx_port, nx_idx} = nx_meta;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fp_valid_q <= '0;
    else for (int p = 0; p < NPorts; p++) fp_valid_q[p] <= nx_fill && (nx_port == PortW'(p));
  end

  always_ff @(posedge clk_i) begin
    for (int p = 0; p < NPorts; p++) begin
      if (nx_fill && nx_port == PortW'(p)) begin
        fp_idx_q[p]   <= nx_idx;
        fp_noins_q[p] <= nx_noins;
      end
    end
  end

  // A walk that faulted, or began before an invalidation, installs nothing.
  // A neighbour from a leaf line takes the install port when no walk needs
  // it, and is dropped otherwise (it is only a hint).
  assign dn_ins = wq_take && !wq_noins_q && !inv_valid;
  assign nb_ins = nbq_valid_q && !dn_ins && !inv_valid;
  assign l2_ins = dn_ins || nb_ins;

  // ---------------------------------------------------------------- faults
  logic             fa_valid;
  logic [PortW-1:0] fa_idx;

  prim_rr_arb #(.N(NPorts), .IdxW(PortW)) u_flt_arb (
    .clk_i,
    .rst_ni,
    .req_i       (flt_valid),
    .take_i      (1'b1),
    .gnt_valid_o (fa_valid),
    .gnt_idx_o   (fa_idx)
  );

  always_comb begin
    for (int p = 0; p < NPorts; p++) begin
      flt_ready[p] = fa_valid && (fa_idx == PortW'(p));
    end
  end

  // ---------------------------------------------------------------- registers
  mmu_regs #(
    .NPorts     (NPorts),
    .AsidW      (AsidW),
    .VaBits     (VaBits),
    .Levels     (Levels),
    .NWalkers   (NWalkers),
    .L1Entries  (L1Entries),
    .L2Entries  (L2Entries),
    .PwcEntries (PwcEntries),
    .FaultDepth (FaultDepth),
    .TagW       (TagW),
    .PortW      (PortW),
    .WCntW      (WCntW)
  ) u_regs (
    .clk_i,
    .rst_ni,
    .cyc_i          (wb_cyc_i),
    .stb_i          (wb_stb_i),
    .we_i           (wb_we_i),
    .adr_i          (wb_adr_i),
    .dat_i          (wb_dat_i),
    .sel_i          (wb_sel_i),
    .ack_o          (wb_ack_o),
    .dat_o          (wb_dat_o),
    .as_asid_i      (as_asid),
    .as_valid_o     (as_valid),
    .as_root_o      (as_root),
    .inv_valid_o    (inv_valid),
    .inv_type_o     (inv_type),
    .inv_asid_o     (inv_asid),
    .inv_start_o    (inv_start),
    .inv_end_o      (inv_end),
    .inv_busy_i     (l2_busy || pwc_inv_busy || (|l1_inv_busy)),
    .flt_valid_i    (fa_valid),
    .flt_va_i       (flt_va[fa_idx]),
    .flt_asid_i     (flt_asid[fa_idx]),
    .flt_port_i     (fa_idx),
    .flt_access_i   (flt_access[fa_idx]),
    .flt_reason_i   (flt_reason[fa_idx]),
    .flt_tag_i      (flt_tag[fa_idx]),
    .irq_o          (irq_o),
    .ev_req_i       (ev_req),
    .ev_hit_i       (ev_hit),
    .ev_miss_i      (ev_miss),
    .ev_merge_i     (ev_merge),
    .ev_fault_i     (ev_fault),
    .ev_pf_i        (ev_pf),
    .ev_l2_lookup_i (ev_l2_lookup),
    .ev_l2_hit_i    (ev_l2_hit),
    .ev_walk_i      (ev_walk),
    .walk_busy_i    (wk_busy),
    .ev_pwc_hit_i   (ev_pwc_hit),
    .ev_pte_read_i  (ev_read),
    .ev_l2_nb_i     (nb_ins),
    .ev_fault_i_any (fa_valid)
  );

endmodule : mmu_top
