// SPDX-License-Identifier: Apache-2.0
// GPU engine: a copy / fill / checksum / fetch DMA engine that stands for a GPU's
// copy engine and shaders. It works on virtual addresses: every 64-byte
// chunk of a stream is translated through one MMU translation port
// (mmu_top's req/rsp channels), then moved with one 8-beat AXI4 INCR burst
// to or from the physical address. docs/engine.md has the whole story.
//
//   FILL     writes PATTERN to [DST_VA, +LENGTH)
//   COPY     reads [SRC_VA, +LENGTH) and writes it to [DST_VA, +LENGTH)
//   CHECKSUM reads [SRC_VA, +LENGTH): s1 = sum of the 64-bit little-endian
//            words mod 2^64, s2 = sum of the running s1 after each word
//   FETCH    CHECKSUM with the source translated as EXECUTE (as a shader's
//            instruction fetch): the MMU faults a NoExecute page NO_EXECUTE
//
// Pipeline. Chunk n of a run lives in slot n mod Slots (Slots chunks in
// flight); four in-order stages walk the chunk indices:
//   alloc  takes a free slot and sends the chunk's translations (COPY: the
//          source's READ, then the destination's WRITE; FETCH: the source's
//          EXECUTE), tag = {dst, slot};
//   (responses return in any order and fill the slot by tag)
//   AR     issues the chunk's read burst (ARID = slot) once its source is
//          translated; a Zero page is skipped (reads as zeros). R beats fill
//          the slot's 8-beat buffer by RID, so reads may complete in any order;
//   AW     issues the chunk's write burst once the destination is translated
//          (and, for COPY, the source data is complete and good); a Zero
//          page is skipped (the write is dropped). AWID is 0, so B responses
//          come back in order;
//   head   retires chunks in order: sends the 8 W beats of the chunk (one
//          burst at a time) or adds its 8 words to the checksum.
// A fault (translation fault, AXI read error, VRAM PA >= 4 GiB) stops the AW
// stage at the faulting chunk, so nothing after it in order is written; the
// head reports it when it gets there. A write error (BRESP) is reported for
// its chunk, but later posted writes may already be done. After a fault or
// CTRL.ABORT the engine stops issuing, lets every translation, read and
// committed write burst finish, and then sets DONE.
//
// Physical mode (CTRL.PHYS): the addresses are VRAM (Segment 1) offsets, the
// DDR addresses of the AXI port. The alloc stage still walks the chunks
// through its request register, but nothing goes to the MMU port
// (tr_req_valid_o stays 0, TRANSLATIONS stays 0): the register answers
// itself in the cycle it is loaded, as a VRAM translation of the address
// (not Zero, not CacheCoherent), and a chunk at or above 4 GiB faults
// BUS_ERROR exactly as a VRAM PA there does. The exception is the aperture
// window, APERTURE_PHYS_BASE + [0, 4 GiB): such a chunk goes out with
// segment 2 (the aperture) and the aperture offset as its address, for the
// system-memory route's aperture_xlate to translate (docs/aperture.md). The firmware allows it only on
// AccessedPhysically allocations; with PHYS 0 every cycle is as before.
//
// Sideband: AR/AW carry the translation's segment (axi_*seg_o: 1 = local
// VRAM, AXI address = DDR offset; 0 = system memory), CacheCoherent
// (axi_*cc_o) and PA bits above 31 (axi_*addr_hi_o, zero for VRAM).
//
// Timing: a translation request per cycle (COPY needs two per chunk); one
// AR and one AW per cycle at most; R and W stream one beat per cycle; all
// ready outputs are 1 (rsp, R, B are always accepted). No output depends
// combinationally on an input. done_o is a level: STATUS.DONE.
module gpu_engine
  import gmmu_engine_pkg::*;
#(
  parameter int unsigned AsidW  = 6,                    // mmu_top AsidW
  parameter int unsigned TagW   = 8,                    // mmu_top TagW, >= log2(Slots) + 1
  parameter int unsigned PaBits = 52,                   // gmmu_mmu_pkg::PA_BITS, > 32
  parameter int unsigned Slots  = ENGINE_SLOTS_DEFAULT  // chunks in flight: power of two, 2..16
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Register slave (Wishbone classic, 32-bit, word address)
  input  logic                 wb_cyc_i,
  input  logic                 wb_stb_i,
  input  logic                 wb_we_i,
  input  logic [29:0]          wb_adr_i,
  input  logic [31:0]          wb_dat_i,
  output logic                 wb_ack_o,
  output logic [31:0]          wb_dat_o,

  // Translation requests (to one mmu_top port)
  output logic                 tr_req_valid_o,
  input  logic                 tr_req_ready_i,
  output logic [AsidW-1:0]     tr_req_asid_o,
  output logic [63:0]          tr_req_va_o,
  output logic [1:0]           tr_req_access_o,
  output logic [TagW-1:0]      tr_req_tag_o,

  // Translation responses (any order)
  input  logic                 tr_rsp_valid_i,
  output logic                 tr_rsp_ready_o,
  input  logic [TagW-1:0]      tr_rsp_tag_i,
  input  logic [2:0]           tr_rsp_fault_i,
  input  logic                 tr_rsp_zero_i,
  input  logic [PaBits-1:0]    tr_rsp_pa_i,
  input  logic [4:0]           tr_rsp_seg_i,
  input  logic                 tr_rsp_cc_i,
  input  logic                 tr_rsp_ro_i,
  input  logic                 tr_rsp_nx_i,
  input  logic [2:0]           tr_rsp_psize_i,

  // AXI4 master: write address (+ sideband)
  output logic                 axi_awvalid_o,
  input  logic                 axi_awready_i,
  output logic [3:0]           axi_awid_o,
  output logic [31:0]          axi_awaddr_o,
  output logic [7:0]           axi_awlen_o,
  output logic [2:0]           axi_awsize_o,
  output logic [1:0]           axi_awburst_o,
  output logic [4:0]           axi_awseg_o,
  output logic                 axi_awcc_o,
  output logic [PaBits-33:0]   axi_awaddr_hi_o,
  // write data
  output logic                 axi_wvalid_o,
  input  logic                 axi_wready_i,
  output logic [63:0]          axi_wdata_o,
  output logic [7:0]           axi_wstrb_o,
  output logic                 axi_wlast_o,
  // write response
  input  logic                 axi_bvalid_i,
  output logic                 axi_bready_o,
  input  logic [3:0]           axi_bid_i,
  input  logic [1:0]           axi_bresp_i,
  // read address (+ sideband)
  output logic                 axi_arvalid_o,
  input  logic                 axi_arready_i,
  output logic [3:0]           axi_arid_o,
  output logic [31:0]          axi_araddr_o,
  output logic [7:0]           axi_arlen_o,
  output logic [2:0]           axi_arsize_o,
  output logic [1:0]           axi_arburst_o,
  output logic [4:0]           axi_arseg_o,
  output logic                 axi_arcc_o,
  output logic [PaBits-33:0]   axi_araddr_hi_o,
  // read data
  input  logic                 axi_rvalid_i,
  output logic                 axi_rready_o,
  input  logic [3:0]           axi_rid_i,
  input  logic [63:0]          axi_rdata_i,
  input  logic [1:0]           axi_rresp_i,
  input  logic                 axi_rlast_i,

  // Interrupt: level, STATUS.DONE
  output logic                 done_o
);

  localparam int unsigned SlotW  = $clog2(Slots);
  localparam int unsigned ChunkW = 26;                  // LENGTH < 2^32: chunk indices < 2^26
  localparam int unsigned HiW    = PaBits - 32;
  localparam int unsigned TrCntW = $clog2(2 * Slots + 1);
  localparam int unsigned CntW   = $clog2(Slots + 1);

  localparam logic [2:0] FaultNone = 3'(gmmu_pte_pkg::FAULT_NONE);
  localparam logic [2:0] FaultBus  = 3'(gmmu_pte_pkg::FAULT_BUS_ERROR);
  localparam logic [1:0] OpFill    = 2'(ENGINE_OP_FILL);
  localparam logic [1:0] OpCopy    = 2'(ENGINE_OP_COPY);
  localparam logic [1:0] OpSum     = 2'(ENGINE_OP_CHECKSUM);
  localparam logic [1:0] OpFetch   = 2'(ENGINE_OP_FETCH);
  localparam logic [1:0] AccRead   = 2'(gmmu_pte_pkg::ACCESS_READ);
  localparam logic [1:0] AccWrite  = 2'(gmmu_pte_pkg::ACCESS_WRITE);
  localparam logic [1:0] AccExec   = 2'(gmmu_pte_pkg::ACCESS_EXECUTE);

  if (Slots < 2 || Slots > 16 || (Slots & (Slots - 1)) != 0) begin : gen_bad_slots
    $error("gpu_engine: Slots must be a power of two from 2 to 16");
  end
  if (TagW < SlotW + 1) begin : gen_bad_tag
    $error("gpu_engine: TagW must be at least log2(Slots) + 1");
  end
  if (PaBits <= 32) begin : gen_bad_pa
    $error("gpu_engine: PaBits must be above 32");
  end

  typedef logic [ChunkW-1:0] chunk_t;

  // ------------------------------------------------------------ registers
  logic [1:0]       cfg_op;
  logic             cfg_phys;
  logic [AsidW-1:0] cfg_asid;
  logic [63:0]      cfg_dst_va, cfg_src_va, cfg_pattern;
  logic [31:0]      cfg_length;
  logic             start, abort, run_end;

  logic             busy_q, stop_q, aborted_q;
  logic             fault_q;
  logic [1:0]       fault_access_q;
  logic [2:0]       fault_reason_q;
  chunk_t           fault_idx_q;
  logic [63:0]      fault_va_q;
  logic [63:0]      s1_q, t_q;
  logic [31:0]      cycles_q, ntr_q, nrd_q, nwr_q;
  chunk_t           alloc_q, retired_q, ar_n_q, aw_n_q;

  // The engine's clock skips its edges while it has no run and no register
  // access (prim_sim_clock_gate: in the Verilator build only). A finished
  // run has drained (run_end), so nothing answers an idle engine; a valid on
  // its AXI port keeps the clock too, so that the port's protocol checker
  // (gpu_engine_dv) can run on this clock by construction.
  logic clk_gated;
  prim_sim_clock_gate u_clock_gate (
    .clk_i,
    .rst_ni,
    .active_i (busy_q || (wb_cyc_i && wb_stb_i) || axi_awvalid_o || axi_wvalid_o ||
               axi_arvalid_o || axi_bvalid_i || axi_rvalid_i),
    .clk_o    (clk_gated)
  );

  // The register block's bus port: the flat Wishbone ports in wb_pkg's
  // field order (cyc, stb, we, adr, dat, sel, cti: single accesses, whole words).
  wb_pkg::wb_rsp_t regs_wb;
  assign wb_ack_o = regs_wb.ack;
  assign wb_dat_o = regs_wb.dat;
  logic unused_regs_err;
  assign unused_regs_err = regs_wb.err;  // registers never fail

  gpu_engine_regs #(.AsidW(AsidW), .Slots(Slots)) u_regs (
    .clk_i          (clk_gated),
    .rst_ni,
    .wb_i           ({wb_cyc_i, wb_stb_i, wb_we_i, wb_adr_i, wb_dat_i, 4'hF, 3'b000}),
    .wb_o           (regs_wb),
    .op_o           (cfg_op),
    .phys_o         (cfg_phys),
    .asid_o         (cfg_asid),
    .dst_va_o       (cfg_dst_va),
    .src_va_o       (cfg_src_va),
    .length_o       (cfg_length),
    .pattern_o      (cfg_pattern),
    .start_o        (start),
    .abort_o        (abort),
    .busy_i         (busy_q || start),
    .end_i          (run_end),
    .fault_i        (fault_q),
    .aborted_i      (aborted_q),
    .reason_i       (fault_reason_q),
    .access_i       (fault_access_q),
    .fault_va_i     (fault_va_q),
    .result_i       (s1_q),
    .result2_i      (t_q + s1_q),
    .bytes_done_i   ({fault_q ? fault_idx_q : retired_q, 6'b0}),
    .cycles_i       (cycles_q),
    .translations_i (ntr_q),
    .rd_bursts_i    (nrd_q),
    .wr_bursts_i    (nwr_q),
    .done_o
  );

  // ------------------------------------------------------------ run shape
  // op_sum: the source is summed, not written (CHECKSUM and FETCH, which
  // differ only in the access of the source's translations).
  logic       op_copy, op_sum, need_src, need_dst;
  logic [1:0] src_access;
  chunk_t     nchunks;

  assign op_copy    = (cfg_op == OpCopy);
  assign op_sum     = (cfg_op == OpSum) || (cfg_op == OpFetch);
  assign need_src   = op_copy || op_sum;
  assign need_dst   = op_copy || (cfg_op == OpFill);
  assign src_access = (cfg_op == OpFetch) ? AccExec : AccRead;
  assign nchunks    = cfg_length[31:6];

  // ------------------------------------------------------------ slot state
  // Per slot: the two translations, the read's progress, the AW's handshake
  // and the 8-beat data buffer. Flags are cleared when the slot is allocated.
  logic [Slots-1:0] src_vld_q, dst_vld_q, rd_done_q, rd_err_q, aw_iss_q;
  logic [Slots-1:0] src_zero_q, dst_zero_q, src_cc_q, dst_cc_q;
  logic [2:0]       src_flt_q  [Slots];
  logic [2:0]       dst_flt_q  [Slots];
  logic [31:6]      src_addr_q [Slots];
  logic [31:6]      dst_addr_q [Slots];
  logic [HiW-1:0]   src_hi_q   [Slots];
  logic [HiW-1:0]   dst_hi_q   [Slots];
  logic [4:0]       src_seg_q  [Slots];
  logic [4:0]       dst_seg_q  [Slots];
  logic [2:0]       rbeat_q    [Slots];
  logic [63:0]      buf_q      [Slots * 8];

  // ------------------------------------------------------------ alloc stage
  logic             tr_valid_q, tr_dst_q, tr_phase_q;
  logic [63:0]      tr_va_q;
  logic [SlotW-1:0] tr_slot_q;
  logic [63:6]      src_next_q, dst_next_q;
  logic [TrCntW-1:0] tr_out_q;
  logic             tr_free, tr_alloc, tr_second, tr_fire, mmu_rsp, loc_rsp, rsp_fire;
  chunk_t           in_flight;

  // In physical mode the request register is its own answer (loc_rsp): it
  // empties every cycle and never reaches the MMU port.
  assign in_flight = alloc_q - retired_q;
  assign tr_free   = !tr_valid_q || tr_req_ready_i || cfg_phys;
  assign tr_alloc  = tr_free && !tr_phase_q && busy_q && !stop_q && (alloc_q != nchunks) &&
                     (in_flight != chunk_t'(Slots));
  assign tr_second = tr_free && tr_phase_q && !stop_q;
  assign tr_fire   = tr_valid_q && tr_req_ready_i && !cfg_phys;
  assign mmu_rsp   = tr_rsp_valid_i;   // always ready
  assign loc_rsp   = tr_valid_q && cfg_phys;
  assign rsp_fire  = mmu_rsp || loc_rsp;

  assign tr_req_valid_o  = tr_valid_q && !cfg_phys;
  assign tr_req_asid_o   = cfg_asid;
  assign tr_req_va_o     = tr_va_q;
  assign tr_req_access_o = tr_dst_q ? AccWrite : src_access;
  assign tr_req_tag_o    = TagW'({tr_dst_q, tr_slot_q});
  assign tr_rsp_ready_o  = 1'b1;

  // A response: which slot and stream, and the fault it stands for. A VRAM
  // PA at or above 4 GiB cannot be reached on the 32-bit AXI port. In
  // physical mode (no MMU response can be pending then: a run ends only
  // with none in flight) the request register answers as a VRAM page.
  logic [SlotW-1:0] rsp_slot;
  logic             rsp_dst, rsp_zero, rsp_cc;
  logic [2:0]       rsp_flt;
  logic [31:6]      rsp_addr;
  logic [HiW-1:0]   rsp_hi;
  logic [4:0]       rsp_seg;

  always_comb begin
    if (cfg_phys) begin
      rsp_slot = tr_slot_q;
      rsp_dst  = tr_dst_q;
      rsp_zero = 1'b0;
      rsp_cc   = 1'b0;
      rsp_addr = tr_va_q[31:6];
      rsp_hi   = '0;
      if (tr_va_q[63:32] == APERTURE_PHYS_BASE[63:32]) begin
        // An aperture offset: the system-memory route's aperture_xlate
        // translates it.
        rsp_seg = 5'(gmmu_pte_pkg::SEGMENT_APERTURE);
        rsp_flt = FaultNone;
      end else begin
        rsp_seg = 5'(gmmu_pte_pkg::SEGMENT_VRAM);
        rsp_flt = (tr_va_q[63:32] != '0) ? FaultBus : FaultNone;
      end
    end else begin
      rsp_slot = tr_rsp_tag_i[SlotW-1:0];
      rsp_dst  = tr_rsp_tag_i[SlotW];
      rsp_zero = tr_rsp_zero_i;
      rsp_cc   = tr_rsp_cc_i;
      rsp_addr = tr_rsp_pa_i[31:6];
      rsp_hi   = tr_rsp_pa_i[PaBits-1:32];
      rsp_seg  = tr_rsp_seg_i;
      rsp_flt  = tr_rsp_fault_i;
      if (rsp_flt == FaultNone && !tr_rsp_zero_i &&
          tr_rsp_seg_i == 5'(gmmu_pte_pkg::SEGMENT_VRAM) && tr_rsp_pa_i[PaBits-1:32] != '0) begin
        rsp_flt = FaultBus;
      end
    end
  end

  // ------------------------------------------------------------ AR stage
  logic             ar_valid_q, ar_cc_q;
  logic [SlotW-1:0] ar_slot_q;
  logic [31:6]      ar_addr_q;
  logic [HiW-1:0]   ar_hi_q;
  logic [4:0]       ar_seg_q;
  logic [CntW-1:0]  rd_out_q;
  logic [SlotW-1:0] as;
  logic             ar_look, ar_skip, ar_load, r_fire, r_end;
  logic [SlotW-1:0] r_slot;

  assign as      = ar_n_q[SlotW-1:0];
  assign ar_look = busy_q && need_src && !stop_q && (ar_n_q != alloc_q) && src_vld_q[as] &&
                   (src_flt_q[as] == FaultNone);
  assign ar_skip = ar_look && src_zero_q[as];
  assign ar_load = ar_look && !src_zero_q[as] && (!ar_valid_q || axi_arready_i);

  assign axi_arvalid_o   = ar_valid_q;
  assign axi_arid_o      = 4'(ar_slot_q);
  assign axi_araddr_o    = {ar_addr_q, 6'b0};
  assign axi_arlen_o     = 8'd7;
  assign axi_arsize_o    = 3'd3;
  assign axi_arburst_o   = 2'b01;
  assign axi_arseg_o     = ar_seg_q;
  assign axi_arcc_o      = ar_cc_q;
  assign axi_araddr_hi_o = ar_hi_q;

  assign axi_rready_o = 1'b1;
  assign r_fire       = axi_rvalid_i;
  assign r_slot       = axi_rid_i[SlotW-1:0];
  assign r_end        = r_fire && axi_rlast_i;

  // ------------------------------------------------------------ AW stage
  logic             aw_valid_q, aw_cc_q;
  logic [SlotW-1:0] aw_slot_q;
  logic [31:6]      aw_addr_q;
  logic [HiW-1:0]   aw_hi_q;
  logic [4:0]       aw_seg_q;
  logic [CntW-1:0]  aw_w_out_q;   // AWs loaded whose W burst is not finished
  logic [SlotW-1:0] ws;
  logic             ws_src_ok, aw_look, aw_skip, aw_load, aw_fire;

  // B FIFO: the chunk index of every write burst whose B is outstanding.
  chunk_t           bf_idx_q [Slots];
  logic [SlotW-1:0] bf_wr_q, bf_rd_q;
  logic [CntW-1:0]  bf_cnt_q;
  logic             b_fire, b_err;

  assign ws        = aw_n_q[SlotW-1:0];
  assign ws_src_ok = !op_copy || (src_vld_q[ws] && src_flt_q[ws] == FaultNone &&
                                  (src_zero_q[ws] || (rd_done_q[ws] && !rd_err_q[ws])));
  assign aw_look   = busy_q && need_dst && !stop_q && (aw_n_q != alloc_q) && dst_vld_q[ws] &&
                     (dst_flt_q[ws] == FaultNone) && ws_src_ok;
  assign aw_skip   = aw_look && dst_zero_q[ws];
  assign aw_load   = aw_look && !dst_zero_q[ws] && (!aw_valid_q || axi_awready_i) &&
                     (bf_cnt_q != CntW'(Slots));
  assign aw_fire   = aw_valid_q && axi_awready_i;

  assign axi_awvalid_o   = aw_valid_q;
  assign axi_awid_o      = 4'd0;
  assign axi_awaddr_o    = {aw_addr_q, 6'b0};
  assign axi_awlen_o     = 8'd7;
  assign axi_awsize_o    = 3'd3;
  assign axi_awburst_o   = 2'b01;
  assign axi_awseg_o     = aw_seg_q;
  assign axi_awcc_o      = aw_cc_q;
  assign axi_awaddr_hi_o = aw_hi_q;

  assign axi_bready_o = 1'b1;
  assign b_fire       = axi_bvalid_i;
  assign b_err        = b_fire && (axi_bresp_i != 2'b00);

  // ------------------------------------------------------------ head stage
  logic [SlotW-1:0] hs;
  logic [2:0]       hbeat_q;
  logic             h_here, h_wait, h_fault, h_write, h_ok;
  logic [2:0]       h_reason;
  logic             sum_beat, w_valid, w_fire, zero_retire, retire;
  logic [63:0]      h_data;

  assign hs     = retired_q[SlotW-1:0];
  assign h_here = busy_q && (retired_q != alloc_q);

  // What the head chunk waits for, or the fault it stops on: the source
  // first (translation, then read), then the destination.
  always_comb begin
    h_wait   = !h_here;
    h_fault  = 1'b0;
    h_write  = 1'b0;
    h_reason = FaultNone;
    if (h_here && need_src) begin
      if (!src_vld_q[hs]) begin
        h_wait = 1'b1;
      end else if (src_flt_q[hs] != FaultNone) begin
        h_fault  = 1'b1;
        h_reason = src_flt_q[hs];
      end else if (ar_n_q == retired_q || (!src_zero_q[hs] && !rd_done_q[hs])) begin
        h_wait = 1'b1;
      end else if (!src_zero_q[hs] && rd_err_q[hs]) begin
        h_fault  = 1'b1;
        h_reason = FaultBus;
      end
    end
    if (h_here && need_dst && !h_wait && !h_fault) begin
      if (!dst_vld_q[hs]) begin
        h_wait = 1'b1;
      end else if (dst_flt_q[hs] != FaultNone) begin
        h_fault  = 1'b1;
        h_write  = 1'b1;
        h_reason = dst_flt_q[hs];
      end else if (aw_n_q == retired_q) begin
        h_wait = 1'b1;
      end
    end
  end
  assign h_ok = !h_wait && !h_fault;

  // The head word: the buffer, zeros for a Zero source page.
  assign h_data = src_zero_q[hs] ? 64'd0 : buf_q[{hs, hbeat_q}];

  // CHECKSUM stops at a chunk boundary once stopping; FILL and COPY finish
  // the chunks the AW stage committed (it stops issuing by itself).
  assign sum_beat    = op_sum && h_ok && (hbeat_q != 3'd0 || !stop_q);
  assign w_valid     = !op_sum && h_ok && !dst_zero_q[hs] && aw_iss_q[hs];
  assign w_fire      = w_valid && axi_wready_i;
  assign zero_retire = !op_sum && h_ok && dst_zero_q[hs];
  assign retire      = ((sum_beat || w_fire) && hbeat_q == 3'd7) || zero_retire;

  assign axi_wvalid_o = w_valid;
  assign axi_wdata_o  = op_copy ? h_data : cfg_pattern;
  assign axi_wstrb_o  = 8'hFF;
  assign axi_wlast_o  = (hbeat_q == 3'd7);

  // ------------------------------------------------------------ faults
  // The first fault in chunk order wins. A write error is always older
  // than the head (its chunk has retired), so it goes first.
  logic   cand_valid, cand_write, record;
  chunk_t cand_idx;
  logic [2:0] cand_reason;

  assign cand_valid  = b_err || (h_fault && !stop_q);
  assign cand_idx    = b_err ? bf_idx_q[bf_rd_q] : retired_q;
  assign cand_write  = b_err || h_write;
  assign cand_reason = b_err ? FaultBus : h_reason;
  assign record      = cand_valid && (!fault_q || cand_idx < fault_idx_q);

  // ------------------------------------------------------------ run end
  logic drained;
  assign drained = (tr_out_q == '0) && !tr_valid_q && (rd_out_q == '0) && !aw_valid_q &&
                   (aw_w_out_q == '0) && (bf_cnt_q == '0) && (hbeat_q == 3'd0);
  assign run_end = busy_q && drained && (stop_q || retired_q == nchunks);

  // ------------------------------------------------------------ sequential
  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q         <= 1'b0;
      stop_q         <= 1'b0;
      aborted_q      <= 1'b0;
      fault_q        <= 1'b0;
      fault_access_q <= AccRead;
      fault_reason_q <= FaultNone;
      fault_idx_q    <= '0;
      fault_va_q     <= '0;
      s1_q           <= '0;
      t_q            <= '0;
      cycles_q       <= '0;
      ntr_q          <= '0;
      nrd_q          <= '0;
      nwr_q          <= '0;
      alloc_q        <= '0;
      retired_q      <= '0;
      ar_n_q         <= '0;
      aw_n_q         <= '0;
      tr_valid_q     <= 1'b0;
      tr_dst_q       <= 1'b0;
      tr_phase_q     <= 1'b0;
      tr_va_q        <= '0;
      tr_slot_q      <= '0;
      src_next_q     <= '0;
      dst_next_q     <= '0;
      tr_out_q       <= '0;
      ar_valid_q     <= 1'b0;
      ar_slot_q      <= '0;
      ar_addr_q      <= '0;
      ar_hi_q        <= '0;
      ar_seg_q       <= '0;
      ar_cc_q        <= 1'b0;
      rd_out_q       <= '0;
      aw_valid_q     <= 1'b0;
      aw_slot_q      <= '0;
      aw_addr_q      <= '0;
      aw_hi_q        <= '0;
      aw_seg_q       <= '0;
      aw_cc_q        <= 1'b0;
      aw_w_out_q     <= '0;
      bf_wr_q        <= '0;
      bf_rd_q        <= '0;
      bf_cnt_q       <= '0;
      hbeat_q        <= '0;
      src_vld_q      <= '0;
      dst_vld_q      <= '0;
      rd_done_q      <= '0;
      rd_err_q       <= '0;
      aw_iss_q       <= '0;
    end else begin
      // ---- run control
      if (start) begin
        busy_q         <= 1'b1;
        stop_q         <= 1'b0;
        aborted_q      <= 1'b0;
        fault_q        <= 1'b0;
        fault_access_q <= AccRead;
        fault_reason_q <= FaultNone;
        fault_idx_q    <= '0;
        fault_va_q     <= '0;
        s1_q           <= '0;
        t_q            <= '0;
        cycles_q       <= '0;
        ntr_q          <= '0;
        nrd_q          <= '0;
        nwr_q          <= '0;
        alloc_q        <= '0;
        retired_q      <= '0;
        ar_n_q         <= '0;
        aw_n_q         <= '0;
        src_next_q     <= cfg_src_va[63:6];
        dst_next_q     <= cfg_dst_va[63:6];
      end else begin
        if (busy_q) cycles_q <= cycles_q + 32'd1;
        if (run_end) busy_q <= 1'b0;
        if (abort && busy_q) begin
          stop_q    <= 1'b1;
          aborted_q <= 1'b1;
        end
        if (cand_valid) stop_q <= 1'b1;
        if (record) begin
          fault_q        <= 1'b1;
          fault_access_q <= cand_write ? AccWrite : src_access;
          fault_reason_q <= cand_reason;
          fault_idx_q    <= cand_idx;
          fault_va_q     <= (cand_write ? cfg_dst_va : cfg_src_va) + {32'd0, cand_idx, 6'd0};
        end
        if (tr_fire) ntr_q <= ntr_q + 32'd1;
        if (axi_arvalid_o && axi_arready_i) nrd_q <= nrd_q + 32'd1;
        if (aw_fire) nwr_q <= nwr_q + 32'd1;

        // ---- alloc stage: the translation request register
        if (tr_free) begin
          tr_valid_q <= tr_alloc || tr_second;
          tr_phase_q <= tr_alloc && op_copy;
          if (tr_alloc) begin
            tr_slot_q <= alloc_q[SlotW-1:0];
            alloc_q   <= alloc_q + chunk_t'(1);
            if (need_src) begin
              tr_dst_q   <= 1'b0;
              tr_va_q    <= {src_next_q, 6'b0};
              src_next_q <= src_next_q + 58'd1;
            end else begin
              tr_dst_q   <= 1'b1;
              tr_va_q    <= {dst_next_q, 6'b0};
              dst_next_q <= dst_next_q + 58'd1;
            end
          end else if (tr_second) begin
            tr_dst_q   <= 1'b1;
            tr_va_q    <= {dst_next_q, 6'b0};
            dst_next_q <= dst_next_q + 58'd1;
          end
        end
        tr_out_q <= tr_out_q + TrCntW'(tr_fire) - TrCntW'(mmu_rsp);

        // ---- AR stage
        if (axi_arready_i) ar_valid_q <= 1'b0;
        if (ar_load) begin
          ar_valid_q <= 1'b1;
          ar_slot_q  <= as;
          ar_addr_q  <= src_addr_q[as];
          ar_hi_q    <= src_hi_q[as];
          ar_seg_q   <= src_seg_q[as];
          ar_cc_q    <= src_cc_q[as];
        end
        if (ar_skip || ar_load) ar_n_q <= ar_n_q + chunk_t'(1);
        rd_out_q <= rd_out_q + CntW'(ar_load) - CntW'(r_end);

        // ---- AW stage and B FIFO
        if (axi_awready_i) aw_valid_q <= 1'b0;
        if (aw_load) begin
          aw_valid_q <= 1'b1;
          aw_slot_q  <= ws;
          aw_addr_q  <= dst_addr_q[ws];
          aw_hi_q    <= dst_hi_q[ws];
          aw_seg_q   <= dst_seg_q[ws];
          aw_cc_q    <= dst_cc_q[ws];
          bf_wr_q    <= bf_wr_q + SlotW'(1);
        end
        if (aw_skip || aw_load) aw_n_q <= aw_n_q + chunk_t'(1);
        if (b_fire) bf_rd_q <= bf_rd_q + SlotW'(1);
        bf_cnt_q   <= bf_cnt_q + CntW'(aw_load) - CntW'(b_fire);
        aw_w_out_q <= aw_w_out_q + CntW'(aw_load) - CntW'(w_fire && hbeat_q == 3'd7);

        // ---- head stage
        if (sum_beat) begin
          s1_q <= s1_q + h_data;
          t_q  <= t_q + s1_q;
        end
        if (sum_beat || w_fire) hbeat_q <= hbeat_q + 3'd1;
        if (retire) retired_q <= retired_q + chunk_t'(1);
      end

      // ---- slot flags (allocation clears; responses and beats set)
      if (tr_alloc && !start) begin
        src_vld_q[alloc_q[SlotW-1:0]] <= 1'b0;
        dst_vld_q[alloc_q[SlotW-1:0]] <= 1'b0;
        rd_done_q[alloc_q[SlotW-1:0]] <= 1'b0;
        rd_err_q[alloc_q[SlotW-1:0]]  <= 1'b0;
        aw_iss_q[alloc_q[SlotW-1:0]]  <= 1'b0;
      end
      if (rsp_fire) begin
        if (rsp_dst) dst_vld_q[rsp_slot] <= 1'b1;
        else         src_vld_q[rsp_slot] <= 1'b1;
      end
      if (ar_skip) rd_done_q[as] <= 1'b1;
      if (r_fire) begin
        if (axi_rresp_i != 2'b00) rd_err_q[r_slot] <= 1'b1;
        if (axi_rlast_i)          rd_done_q[r_slot] <= 1'b1;
      end
      if (aw_fire) aw_iss_q[aw_slot_q] <= 1'b1;
    end
  end

  // Slot payloads and the data buffer: no reset (read only once valid).
  always_ff @(posedge clk_gated) begin
    if (tr_alloc) rbeat_q[alloc_q[SlotW-1:0]] <= 3'd0;
    if (rsp_fire) begin
      if (rsp_dst) begin
        dst_flt_q[rsp_slot]  <= rsp_flt;
        dst_zero_q[rsp_slot] <= rsp_zero;
        dst_addr_q[rsp_slot] <= rsp_addr;
        dst_hi_q[rsp_slot]   <= rsp_hi;
        dst_seg_q[rsp_slot]  <= rsp_seg;
        dst_cc_q[rsp_slot]   <= rsp_cc;
      end else begin
        src_flt_q[rsp_slot]  <= rsp_flt;
        src_zero_q[rsp_slot] <= rsp_zero;
        src_addr_q[rsp_slot] <= rsp_addr;
        src_hi_q[rsp_slot]   <= rsp_hi;
        src_seg_q[rsp_slot]  <= rsp_seg;
        src_cc_q[rsp_slot]   <= rsp_cc;
      end
    end
    if (r_fire) begin
      buf_q[{r_slot, rbeat_q[r_slot]}] <= axi_rdata_i;
      rbeat_q[r_slot] <= rbeat_q[r_slot] + 3'd1;
    end
    if (aw_load) bf_idx_q[bf_wr_q] <= aw_n_q;
  end

  // The MMU's permission checks already ran (ro, nx); page size, the PA's
  // offset bits within a chunk, the upper ID bits and BID are not needed.
  logic unused;
  assign unused = ^{tr_rsp_ro_i, tr_rsp_nx_i, tr_rsp_psize_i, tr_rsp_pa_i[5:0],
                    tr_rsp_tag_i >> (SlotW + 1), axi_bid_i, axi_rid_i >> SlotW,
                    cfg_length[5:0]};

endmodule : gpu_engine
