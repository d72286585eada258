// SPDX-License-Identifier: Apache-2.0
// GPU MMU: translates GPU virtual addresses of NPorts clients into segment
// addresses through the WDDM GpuMmu page tables (docs/page-tables.md).
//
//   port 0..N-1: L1 TLB, miss registers, prefetcher (mmu_port)
//        | misses, round robin
//   L2 TLB (mmu_l2_tlb, block RAM, 4-cycle pipeline)
//        | L2 misses
//   walker (mmu_walker: NWalkers walks, page-walk cache, one AXI4 read master)
//        | finished walks -> L2 install
//   fill bus: L2 hits first, then finished walks; answers the port's miss
//
//   registers (mmu_regs, Wishbone): AS table, invalidation, faults, counters
//
// Translation ports are valid/ready channels, flattened: port p uses bits
// [p*W +: W] of each vector. They are flattened because Yosys 0.23's
// read_verilog does not accept unpacked-array ports, and this is the top
// that synthesis, the SoC and the C++ testbench all connect. A response
// carries the request's tag and either a translation (PA, segment,
// attributes, page size; zero=1 for a Zero PTE, PA 0) or a fault reason
// (gmmu_pte_pkg::fault_e, other fields 0). Responses may come back out of
// order. irq_o is a level: the fault FIFO is not empty. Invalidations come
// from the INV_* registers or the inv_req_* handshake (the paging engine),
// merged in mmu_regs.
//
// Inside, a port's miss is granted (round robin) into a register in front
// of the L2 (l2_lookup_*_q), with a skid register behind it
// (miss_skid_*_q). The L2's result is a fill (a hit) or a walk start (a
// miss). A finished walk waits a cycle in the walk-answer register
// (walk_answer_*_q) before it answers on the fill bus and installs in the
// L2; leaf-line neighbours from the walker wait a cycle too
// (l2_neighbour_*_q) and take the L2's install port when no walk needs it.
//
// Timing: an L1 hit is answered the cycle after the request, one per cycle
// per port; an L2 hit after about 10 cycles; a walk costs about
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
  parameter int unsigned L2Sets0    = gmmu_mmu_pkg::L2_SETS_4K,
  parameter int unsigned L2Ways0    = gmmu_mmu_pkg::L2_WAYS_4K,
  parameter int unsigned L2Sets1    = gmmu_mmu_pkg::L2_SETS_64K,
  parameter int unsigned L2Ways1    = gmmu_mmu_pkg::L2_WAYS_64K,
  parameter int unsigned L2Sets2    = gmmu_mmu_pkg::L2_SETS_2M,
  parameter int unsigned L2Ways2    = gmmu_mmu_pkg::L2_WAYS_2M,
  parameter int unsigned L2Sets3    = gmmu_mmu_pkg::L2_SETS_1G,
  parameter int unsigned L2Ways3    = gmmu_mmu_pkg::L2_WAYS_1G
) (
  input  logic                            clk_i,
  // The assertions' "disable iff (!rst_ni)" (mmu_regs) is not a flop, but
  // it counts in Verilator as a synchronous use of the asynchronous reset.
  /* verilator lint_off SYNCASYNCNET */
  input  logic                            rst_ni,
  /* verilator lint_on SYNCASYNCNET */

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

  // Invalidation requests from the paging engine (FLUSH_TLB), merged with
  // the INV_* registers' in mmu_regs: a valid/ready handshake (ready while
  // no invalidation is pending or running), then inv_req_busy_o is high
  // from the next cycle until the invalidation is complete (INV_STATUS.DONE).
  // Tie inv_req_valid_i to 0 where there is no engine.
  input  logic                            inv_req_valid_i,
  output logic                            inv_req_ready_o,
  input  logic [1:0]                      inv_req_type_i,   // INV_ALL/ASID/RANGE
  input  logic [AsidW-1:0]                inv_req_asid_i,
  input  logic [51:0]                     inv_req_start_i,  // first VA page number (VA[63:12])
  input  logic [51:0]                     inv_req_end_i,    // last VA page number, inclusive
  output logic                            inv_req_busy_o,

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
  logic                    clk_gated;  // every block's clock: see the end
  logic [NPorts-1:0]       miss_valid, miss_ready;
  logic [AsidW-1:0]        miss_asid [NPorts];
  logic [VpnW-1:0]         miss_vpn  [NPorts];
  logic [MIdxW-1:0]        miss_mshr [NPorts];   // the port's miss register

  logic [NPorts-1:0]       fault_valid, fault_ready;
  logic [63:0]             fault_va     [NPorts];
  logic [AsidW-1:0]        fault_asid   [NPorts];
  logic [1:0]              fault_access [NPorts];
  logic [2:0]              fault_reason [NPorts];
  logic [TagW-1:0]         fault_tag    [NPorts];

  logic [NPorts-1:0]       ev_req, ev_hit, ev_miss, ev_merge, ev_fault, ev_prefetch;
  logic [NPorts-1:0]       l1_inv_busy, port_busy;
  logic                    pwc_inv_busy;

  // The fill bus: each port's valid, miss register and "do not install"
  // registered per port (below), the record shared.
  logic [NPorts-1:0]       fill_valid_q;
  logic [MIdxW-1:0]        fill_mshr_q [NPorts];
  logic [NPorts-1:0]       fill_no_install_q;
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
      .clk_i (clk_gated),
      .rst_ni,
      .req_valid_i       (req_valid_i[p]),
      .req_ready_o       (req_ready_o[p]),
      .req_asid_i        (req_asid_i[p*AsidW +: AsidW]),
      .req_va_i          (req_va_i[p*64 +: 64]),
      .req_access_i      (req_access_i[p*2 +: 2]),
      .req_tag_i         (req_tag_i[p*TagW +: TagW]),
      .rsp_valid_o       (rsp_valid_o[p]),
      .rsp_ready_i       (rsp_ready_i[p]),
      .rsp_tag_o         (rsp_tag_o[p*TagW +: TagW]),
      .rsp_fault_o       (rsp_fault_o[p*3 +: 3]),
      .rsp_zero_o        (rsp_zero_o[p]),
      .rsp_pa_o          (rsp_pa_o[p*PaW +: PaW]),
      .rsp_seg_o         (rsp_seg_o[p*5 +: 5]),
      .rsp_cc_o          (rsp_cc_o[p]),
      .rsp_ro_o          (rsp_ro_o[p]),
      .rsp_nx_o          (rsp_nx_o[p]),
      .rsp_psize_o       (rsp_psize_o[p*3 +: 3]),
      .miss_valid_o      (miss_valid[p]),
      .miss_ready_i      (miss_ready[p]),
      .miss_asid_o       (miss_asid[p]),
      .miss_vpn_o        (miss_vpn[p]),
      .miss_mshr_o       (miss_mshr[p]),
      .fill_valid_i      (fill_valid_q[p]),
      .fill_mshr_i       (fill_mshr_q[p]),
      .fill_no_install_i (fill_no_install_q[p]),
      .fill_info_i       (fill_info),
      .inv_valid_i       (inv_valid),
      .inv_type_i        (inv_type),
      .inv_asid_i        (inv_asid),
      .inv_start_i       (inv_start),
      .inv_end_i         (inv_end),
      .inv_busy_o        (l1_inv_busy[p]),
      .busy_o            (port_busy[p]),
      .fault_valid_o     (fault_valid[p]),
      .fault_ready_i     (fault_ready[p]),
      .fault_va_o        (fault_va[p]),
      .fault_asid_o      (fault_asid[p]),
      .fault_access_o    (fault_access[p]),
      .fault_reason_o    (fault_reason[p]),
      .fault_tag_o       (fault_tag[p]),
      .ev_req_o          (ev_req[p]),
      .ev_hit_o          (ev_hit[p]),
      .ev_miss_o         (ev_miss[p]),
      .ev_merge_o        (ev_merge[p]),
      .ev_fault_o        (ev_fault[p]),
      .ev_prefetch_o     (ev_prefetch[p])
    );
  end

  // ---------------------------------------------------------------- misses -> L2
  logic              miss_gnt_valid;
  logic              l2_lookup_valid_q, miss_take, l2_lookup_free;
  logic [AsidW-1:0]  l2_lookup_asid_q;
  logic [VpnW-1:0]   l2_lookup_vpn_q;
  logic [MetaW-1:0]  l2_lookup_meta_q;
  logic              miss_skid_valid_q;
  logic [AsidW-1:0]  miss_skid_asid_q;
  logic [VpnW-1:0]   miss_skid_vpn_q;
  logic [MetaW-1:0]  miss_skid_meta_q;
  logic [AsidW-1:0]  miss_gnt_asid;
  logic [VpnW-1:0]   miss_gnt_vpn;
  logic [MetaW-1:0]  miss_gnt_meta;
  logic [PortW-1:0]  miss_gnt_port;
  logic              l2_lookup_ready;
  logic              l2_can_accept;
  logic [2:0]        l2_inflight;
  logic [WCntW-1:0]  walkers_free;

  prim_rr_arb #(.N(NPorts), .IdxW(PortW)) u_miss_arb (
    .clk_i         (clk_gated),
    .rst_ni,
    .req_i       (miss_valid),
    .take_i      (miss_take),
    .gnt_valid_o (miss_gnt_valid),
    .gnt_idx_o   (miss_gnt_port)
  );

  always_comb begin
    for (int p = 0; p < NPorts; p++) begin
      miss_ready[p] = miss_take && (miss_gnt_port == PortW'(p));
    end
  end
  assign miss_gnt_asid = miss_asid[miss_gnt_port];
  assign miss_gnt_vpn  = miss_vpn[miss_gnt_port];
  // The meta travels with the lookup and the walk to the fill: {port, miss
  // register}.
  assign miss_gnt_meta = {miss_gnt_port, miss_mshr[miss_gnt_port]};

  // The granted miss waits in a register for the L2 (l2_lookup_*_q).
  // Without it the ports' miss logic, the arbiter and the L2's set hash and
  // RAM addresses made one path, far too long for the target clock; it
  // costs a cycle per L2 lookup. A miss granted while the lookup register
  // waits goes to a skid register behind it (miss_skid_*_q), so the ports'
  // ready is !miss_skid_valid_q, a register: the L2's ready (free walkers,
  // invalidation) reaches neither the ports' arbiters nor their miss
  // registers (the walker's state -> the L2's ready -> the grant -> the
  // lookup register was once fmax-mmu's routed critical path).
  assign miss_take      = !miss_skid_valid_q;
  assign l2_lookup_free = !l2_lookup_valid_q || l2_lookup_ready;

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      l2_lookup_valid_q <= 1'b0;
      miss_skid_valid_q <= 1'b0;
    end else begin
      if (l2_lookup_free) l2_lookup_valid_q <= miss_skid_valid_q || miss_gnt_valid;
      miss_skid_valid_q <= !l2_lookup_free && (miss_skid_valid_q || miss_gnt_valid);
    end
  end

  // An empty skid register takes the grant's payload every cycle (read by
  // nothing unless miss_skid_valid_q is set), so its enables come from a
  // register.
  always_ff @(posedge clk_gated) begin
    if (!miss_skid_valid_q) begin
      miss_skid_asid_q <= miss_gnt_asid;
      miss_skid_vpn_q  <= miss_gnt_vpn;
      miss_skid_meta_q <= miss_gnt_meta;
    end
    if (l2_lookup_free) begin
      l2_lookup_asid_q <= miss_skid_valid_q ? miss_skid_asid_q : miss_gnt_asid;
      l2_lookup_vpn_q  <= miss_skid_valid_q ? miss_skid_vpn_q  : miss_gnt_vpn;
      l2_lookup_meta_q <= miss_skid_valid_q ? miss_skid_meta_q : miss_gnt_meta;
    end
  end

  // Every lookup that reaches the end of the L2 pipeline may need a walker.
  assign l2_can_accept = (32'(walkers_free) > 32'(l2_inflight));

  logic              l2_res_valid, l2_res_hit, l2_res_stale, l2_busy;
  logic [InfoW-1:0]  l2_res_info;
  logic [AsidW-1:0]  l2_res_asid;
  logic [VpnW-1:0]   l2_res_vpn;
  logic [MetaW-1:0]  l2_res_meta;
  // The lookup whose result the L2 presents in one cycle (in1: the walker
  // reads its address-space entry, the fill bus registers its control) and
  // in two (in2: the walk cache compares with it).
  logic [AsidW-1:0]  l2_res_in1_asid;
  logic              l2_res_in1_hit, l2_res_in1_stale;
  logic [MetaW-1:0]  l2_res_in1_meta;
  logic [AsidW-1:0]  l2_res_in2_asid;
  logic [VpnW-1:0]   l2_res_in2_vpn;
  logic              l2_install;
  logic              ev_l2_lookup, ev_l2_hit;

  // The walker's finished walk (done channel) and its leaf-line neighbour.
  logic              walk_done_valid, walk_done_ready, walk_done_stale;
  logic [InfoW-1:0]  walk_done_info;
  logic [AsidW-1:0]  walk_done_asid;
  logic [VpnW-1:0]   walk_done_vpn;
  logic [MetaW-1:0]  walk_done_meta;
  logic              neighbour_valid, walk_install, neighbour_install;
  logic [AsidW-1:0]  neighbour_asid;
  logic [VpnW-1:0]   neighbour_vpn;
  logic [InfoW-1:0]  neighbour_info;

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
    .clk_i         (clk_gated),
    .clk_free_i    (clk_i),
    .rst_ni,
    .in_valid_i   (l2_lookup_valid_q),
    .in_ready_o   (l2_lookup_ready),
    .in_asid_i    (l2_lookup_asid_q),
    .in_vpn_i     (l2_lookup_vpn_q),
    .in_meta_i    (l2_lookup_meta_q),
    .can_accept_i (l2_can_accept),
    .res_valid_o  (l2_res_valid),
    .res_hit_o    (l2_res_hit),
    .res_stale_o  (l2_res_stale),
    .res_info_o   (l2_res_info),
    .res_asid_o   (l2_res_asid),
    .res_vpn_o    (l2_res_vpn),
    .res_meta_o   (l2_res_meta),
    .nx_asid_o    (l2_res_in1_asid),
    .nx_hit_o     (l2_res_in1_hit),
    .nx_stale_o   (l2_res_in1_stale),
    .nx_meta_o    (l2_res_in1_meta),
    .nx2_asid_o   (l2_res_in2_asid),
    .nx2_vpn_o    (l2_res_in2_vpn),
    .inflight_o   (l2_inflight),
    .ins_valid_i  (l2_install),
    .ins_asid_i   (neighbour_install ? l2_neighbour_asid_q : walk_answer_asid_q),
    .ins_vpn_i    (neighbour_install ? l2_neighbour_vpn_q : walk_answer_vpn_q),
    .ins_info_i   (neighbour_install ? l2_neighbour_info_q : walk_answer_info_q),
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
  logic [AsidW-1:0]  as_lookup_asid;
  logic              as_entry_valid;
  logic [39:0]       as_entry_root;
  logic              ev_walk, ev_pwc_hit, ev_pte_read;
  logic [WCntW-1:0]  walkers_busy;

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
    .clk_i         (clk_gated),
    .rst_ni,
    .start_in1_asid_i  (l2_res_in1_asid),
    .start_in2_asid_i  (l2_res_in2_asid),
    .start_in2_vpn_i   (l2_res_in2_vpn),
    .start_valid_i     (l2_res_valid && !l2_res_hit),
    .start_asid_i      (l2_res_asid),
    .start_vpn_i       (l2_res_vpn),
    .start_meta_i      (l2_res_meta),
    .start_stale_i     (l2_res_stale),
    .walkers_free_o    (walkers_free),
    .as_lookup_asid_o  (as_lookup_asid),
    .as_entry_valid_i  (as_entry_valid),
    .as_entry_root_i   (as_entry_root),
    .arvalid_o         (axi_arvalid_o),
    .arready_i         (axi_arready_i),
    .arid_o            (axi_arid_o),
    .araddr_o          (axi_araddr_o),
    .arlen_o           (axi_arlen_o),
    .arsize_o          (axi_arsize_o),
    .arburst_o         (axi_arburst_o),
    .rvalid_i          (axi_rvalid_i),
    .rready_o          (axi_rready_o),
    .rid_i             (axi_rid_i),
    .rdata_i           (axi_rdata_i),
    .rresp_i           (axi_rresp_i),
    .rlast_i           (axi_rlast_i),
    .done_valid_o      (walk_done_valid),
    .done_ready_i      (walk_done_ready),
    .done_info_o       (walk_done_info),
    .done_asid_o       (walk_done_asid),
    .done_vpn_o        (walk_done_vpn),
    .done_meta_o       (walk_done_meta),
    .done_stale_o      (walk_done_stale),
    .neighbour_valid_o (neighbour_valid),
    .neighbour_asid_o  (neighbour_asid),
    .neighbour_vpn_o   (neighbour_vpn),
    .neighbour_info_o  (neighbour_info),
    .inv_valid_i       (inv_valid),
    .inv_type_i        (inv_type),
    .inv_asid_i        (inv_asid),
    .inv_start_i       (inv_start),
    .inv_end_i         (inv_end),
    .inv_busy_o        (pwc_inv_busy),
    .ev_walk_o         (ev_walk),
    .ev_pwc_hit_o      (ev_pwc_hit),
    .ev_pte_read_o     (ev_pte_read),
    .walkers_busy_o    (walkers_busy)
  );

  // ---------------------------------------------------------------- fill bus
  // L2 hits cannot wait (their pipeline does not stall); finished walks can.
  // A finished walk first waits in the walk-answer register
  // (walk_answer_*_q): from the walker's choice among its finished walks
  // across the chip into every port's fill logic was one of the MMU's
  // longest path groups on ECP5; now the fill bus is a choice between two
  // registers. A walk's answer costs a cycle more; an L2 hit's nothing. An
  // invalidation while the answer waits makes it stale, as one while it was
  // a walk did. A stale or faulting answer installs nothing
  // (walk_answer_no_install_q).
  logic             l2_hit_fill;        // the L2's result is a hit: it takes the fill bus
  logic             walk_answer_take;   // the walk answer takes the fill bus
  logic             walk_done_no_install;
  logic             walk_answer_valid_q, walk_answer_no_install_q;
  logic [InfoW-1:0] walk_answer_info_q;
  logic [AsidW-1:0] walk_answer_asid_q;
  logic [VpnW-1:0]  walk_answer_vpn_q;
  logic [MetaW-1:0] walk_answer_meta_q;
  // Leaf-line neighbours wait a cycle too, so they meet a walk's install
  // in the same cycles as before the walk-answer register (the install
  // port takes one per cycle and drops a neighbour that meets a walk's).
  logic             l2_neighbour_valid_q;
  logic [AsidW-1:0] l2_neighbour_asid_q;
  logic [VpnW-1:0]  l2_neighbour_vpn_q;
  logic [InfoW-1:0] l2_neighbour_info_q;

  assign l2_hit_fill          = l2_res_valid && l2_res_hit;
  assign walk_answer_take     = walk_answer_valid_q && !l2_hit_fill;
  assign walk_done_ready      = !walk_answer_valid_q || walk_answer_take;
  assign walk_done_no_install = walk_done_stale ||
                                (walk_done_info[gmmu_mmu_pkg::INFO_FAULT_LSB +: 3] != FaultNone);

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      walk_answer_valid_q <= 1'b0;
    end else if (walk_done_ready) begin
      walk_answer_valid_q <= walk_done_valid;
    end
  end

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) l2_neighbour_valid_q <= 1'b0;
    else         l2_neighbour_valid_q <= neighbour_valid && !inv_valid;
  end

  always_ff @(posedge clk_gated) begin
    l2_neighbour_asid_q <= neighbour_asid;
    l2_neighbour_vpn_q  <= neighbour_vpn;
    l2_neighbour_info_q <= neighbour_info;
  end

  always_ff @(posedge clk_gated) begin
    if (walk_done_ready) begin
      walk_answer_no_install_q <= walk_done_no_install || inv_valid;
      walk_answer_info_q       <= walk_done_info;
      walk_answer_asid_q       <= walk_done_asid;
      walk_answer_vpn_q        <= walk_done_vpn;
      walk_answer_meta_q       <= walk_done_meta;
    end else if (inv_valid) begin
      walk_answer_no_install_q <= 1'b1;
    end
  end

  assign fill_info = l2_hit_fill ? l2_res_info : walk_answer_info_q;

  // The fill bus's control for each port in a register of its own, loaded
  // a cycle ahead from what the L2's result and the walk-answer register
  // will hold (fill_next_*): from those registers through the choice
  // between them into every port's miss registers, slots and L1 install (a
  // broadcast across the chip) was once fmax-mmu's routed critical path
  // group. A port's registers load only for a fill to that port, so they
  // are not copies of one another (Yosys would merge copies). The L2 holds
  // no faulting record (walks install without a fault, leaf-line
  // neighbours are translations), so an L2 hit's "do not install" is its
  // staleness alone.
  logic             walk_answer_next_valid, walk_answer_next_no_install;
  logic [MetaW-1:0] walk_answer_next_meta;
  logic             fill_next_valid, fill_next_no_install;
  logic [MetaW-1:0] fill_next_meta;
  logic [PortW-1:0] fill_next_port;
  logic [MIdxW-1:0] fill_next_mshr;

  always_comb begin
    walk_answer_next_valid      = walk_done_ready ? walk_done_valid : walk_answer_valid_q;
    walk_answer_next_meta       = walk_done_ready ? walk_done_meta : walk_answer_meta_q;
    walk_answer_next_no_install = walk_done_ready ? walk_done_no_install : walk_answer_no_install_q;
    fill_next_valid      = l2_res_in1_hit || walk_answer_next_valid;
    fill_next_meta       = l2_res_in1_hit ? l2_res_in1_meta : walk_answer_next_meta;
    fill_next_no_install = l2_res_in1_hit ? l2_res_in1_stale
                                          : (walk_answer_next_no_install || inv_valid);
    {fill_next_port, fill_next_mshr} = fill_next_meta;
  end

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      fill_valid_q <= '0;
    end else begin
      for (int p = 0; p < NPorts; p++) begin
        fill_valid_q[p] <= fill_next_valid && (fill_next_port == PortW'(p));
      end
    end
  end

  always_ff @(posedge clk_gated) begin
    for (int p = 0; p < NPorts; p++) begin
      if (fill_next_valid && fill_next_port == PortW'(p)) begin
        fill_mshr_q[p]       <= fill_next_mshr;
        fill_no_install_q[p] <= fill_next_no_install;
      end
    end
  end

  // A walk that faulted, or began before an invalidation, installs nothing.
  // A neighbour from a leaf line takes the install port when no walk needs
  // it, and is dropped otherwise (it is only a hint).
  assign walk_install      = walk_answer_take && !walk_answer_no_install_q && !inv_valid;
  assign neighbour_install = l2_neighbour_valid_q && !walk_install && !inv_valid;
  assign l2_install        = walk_install || neighbour_install;

  // ---------------------------------------------------------------- faults
  logic             fault_gnt_valid;
  logic [PortW-1:0] fault_gnt_port;

  prim_rr_arb #(.N(NPorts), .IdxW(PortW)) u_fault_arb (
    .clk_i         (clk_gated),
    .rst_ni,
    .req_i       (fault_valid),
    .take_i      (1'b1),
    .gnt_valid_o (fault_gnt_valid),
    .gnt_idx_o   (fault_gnt_port)
  );

  always_comb begin
    for (int p = 0; p < NPorts; p++) begin
      fault_ready[p] = fault_gnt_valid && (fault_gnt_port == PortW'(p));
    end
  end

  // ---------------------------------------------------------------- registers
  // The register block's bus port: the flat Wishbone ports in wb_pkg's
  // field order (cyc, stb, we, adr, dat, sel, cti: single accesses).
  wb_pkg::wb_rsp_t regs_wb;
  assign wb_ack_o = regs_wb.ack;
  assign wb_dat_o = regs_wb.dat;
  logic unused_regs_err;
  assign unused_regs_err = regs_wb.err;  // registers never fail

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
    .clk_i         (clk_gated),
    .rst_ni,
    .wb_i           ({wb_cyc_i, wb_stb_i, wb_we_i, wb_adr_i, wb_dat_i, wb_sel_i, 3'b000}),
    .wb_o           (regs_wb),
    .as_asid_i      (as_lookup_asid),
    .as_valid_o     (as_entry_valid),
    .as_root_o      (as_entry_root),
    .inv_valid_o    (inv_valid),
    .inv_type_o     (inv_type),
    .inv_asid_o     (inv_asid),
    .inv_start_o    (inv_start),
    .inv_end_o      (inv_end),
    .inv_busy_i     (l2_busy || pwc_inv_busy || (|l1_inv_busy)),
    .ext_valid_i    (inv_req_valid_i),
    .ext_ready_o    (inv_req_ready_o),
    .ext_type_i     (inv_req_type_i),
    .ext_asid_i     (inv_req_asid_i),
    .ext_start_i    (inv_req_start_i),
    .ext_end_i      (inv_req_end_i),
    .ext_busy_o     (inv_req_busy_o),
    .flt_valid_i    (fault_gnt_valid),
    .flt_va_i       (fault_va[fault_gnt_port]),
    .flt_asid_i     (fault_asid[fault_gnt_port]),
    .flt_port_i     (fault_gnt_port),
    .flt_access_i   (fault_access[fault_gnt_port]),
    .flt_reason_i   (fault_reason[fault_gnt_port]),
    .flt_tag_i      (fault_tag[fault_gnt_port]),
    .irq_o          (irq_o),
    .ev_req_i       (ev_req),
    .ev_hit_i       (ev_hit),
    .ev_miss_i      (ev_miss),
    .ev_merge_i     (ev_merge),
    .ev_fault_i     (ev_fault),
    .ev_pf_i        (ev_prefetch),
    .ev_l2_lookup_i (ev_l2_lookup),
    .ev_l2_hit_i    (ev_l2_hit),
    .ev_walk_i      (ev_walk),
    .walk_busy_i    (walkers_busy),
    .ev_pwc_hit_i   (ev_pwc_hit),
    .ev_pte_read_i  (ev_pte_read),
    .ev_l2_nb_i     (neighbour_install),
    .ev_fault_i_any (fault_gnt_valid)
  );

  // ---------------------------------------------------------------- clock
  // The MMU's clock skips its edges while the MMU has nothing to do
  // (prim_sim_clock_gate: in the Verilator build only): no register access,
  // translation request or invalidation request arriving, and no port,
  // lookup, walk, fill or invalidation in hand. The L2's pseudo-random way
  // choice steps on every cycle (clk_free_i), as it does without the gate.
  logic mmu_active;
  assign mmu_active = (wb_cyc_i && wb_stb_i) || (|req_valid_i) || inv_req_valid_i ||
                      inv_req_busy_o || inv_valid || (|port_busy) || l2_lookup_valid_q ||
                      miss_skid_valid_q || l2_busy || (l2_inflight != '0) ||
                      (walkers_busy != '0) || walk_answer_valid_q || l2_neighbour_valid_q ||
                      (|fill_valid_q) || axi_arvalid_o || axi_rvalid_i;

  prim_sim_clock_gate u_clock_gate (
    .clk_i,
    .rst_ni,
    .active_i (mmu_active),
    .clk_o    (clk_gated)
  );

endmodule : mmu_top
