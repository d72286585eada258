// SPDX-License-Identifier: Apache-2.0
// Paging engine: runs VidMm's paging operations (WRITE_PTES, FILL, COPY,
// FLUSH_TLB, FENCE) from a packet queue in on-chip RAM, writing page tables
// and moving memory over two AXI4 masters, so the firmware publishes a
// packet instead of storing every PTE itself. docs/paging-engine.md has the
// packet formats and the rules; include/defs/paging.toml the registers.
//
//   paging_regs   Wishbone slave: registers, the queue RAM window, IRQ
//   (2 x prim_ram_1r1w: the queue, 64-bit words as two 32-bit halves)
//   paging_fetch  reads and validates packets in order, hands out commands
//   paging_exec   starts packets in order, enforces the ordering rules,
//                 runs the FLUSH_TLB handshake and FENCE
//   paging_wr     write bursts (AW ahead of W) for WRITE_PTES/FILL/COPY/FENCE
//   paging_rd     COPY read bursts into paging_fifo (the COPY data FIFO)
//   paging_track  completes packets in order as their B responses arrive
//   paging_ctrl   the error that stops the engine, RESTART
//
// AXI shape on both masters: INCR bursts of 1..MaxBurst 64-bit beats that
// never cross 4 KiB, AxSIZE 3, AxID 0 (so each port answers in order),
// WSTRB 0xFF on every beat (a 64-bit entry is always written whole), BREADY
// and RREADY constant 1. m_ddr addresses are DDR offsets (32 bits), m_sys
// addresses system-memory bus addresses (64 bits). AW/AR outputs are
// registers; W valid/data are combinational from registers; no output
// depends combinationally on an input.
//
// Invalidation (FLUSH_TLB): inv_valid_o is held with inv_type_o,
// inv_asid_o, inv_start_o/inv_end_o (VA page numbers, VA bits 63:12, both
// inclusive) until inv_ready_i. From the cycle after that handshake the
// engine waits for a cycle with inv_busy_i low; the invalidation is then
// complete. So the MMU must raise inv_busy_i in the cycle after it accepts
// the request (or finish the invalidation at that edge) and hold it until
// the invalidation is done.
module paging_engine #(
  parameter int unsigned QueueWords    = gmmu_paging_pkg::PAGING_QUEUE_WORDS_DEFAULT, // 16..512, power of two
  parameter int unsigned MaxBurst      = gmmu_paging_pkg::PAGING_MAX_BURST_DEFAULT,   // 2..256, power of two
  parameter int unsigned CopyFifoBeats = 128,  // COPY read data buffered: >= 2 * MaxBurst, power of two
  parameter int unsigned Outstanding   = 8,    // write bursts in flight per port, COPY reads in flight: power of two >= 2
  parameter int unsigned PktSlots      = 8,    // packets in flight: power of two >= 2
  parameter int unsigned AsidW         = 6,    // mmu_top AsidW
  parameter int unsigned DdrIdW        = 4,
  parameter int unsigned SysIdW        = 4
) (
  input  logic              clk_i,
  // The assertions' "disable iff (!rst_ni)" is not a flop, but Verilator
  // counts it as a synchronous use of the asynchronous reset.
  /* verilator lint_off SYNCASYNCNET */
  input  logic              rst_ni,
  /* verilator lint_on SYNCASYNCNET */

  // Register and queue window (Wishbone classic, 32-bit, word address;
  // answers the cycle after; whole words: SEL and CTI are not looked at)
  input  wb_pkg::wb_req_t   wb_i,
  output wb_pkg::wb_rsp_t   wb_o,

  // VRAM size in bytes: VRAM ranges must end at or below it (and 4 GiB)
  input  logic [63:0]       ddr_size_i,

  // AXI4 master to the DDR (VRAM): addresses are DDR offsets
  output logic              m_ddr_awvalid_o,
  input  logic              m_ddr_awready_i,
  output logic [DdrIdW-1:0] m_ddr_awid_o,
  output logic [31:0]       m_ddr_awaddr_o,
  output logic [7:0]        m_ddr_awlen_o,
  output logic [2:0]        m_ddr_awsize_o,
  output logic [1:0]        m_ddr_awburst_o,
  output logic              m_ddr_wvalid_o,
  input  logic              m_ddr_wready_i,
  output logic [63:0]       m_ddr_wdata_o,
  output logic [7:0]        m_ddr_wstrb_o,
  output logic              m_ddr_wlast_o,
  input  logic              m_ddr_bvalid_i,
  output logic              m_ddr_bready_o,
  input  logic [DdrIdW-1:0] m_ddr_bid_i,
  input  logic [1:0]        m_ddr_bresp_i,
  output logic              m_ddr_arvalid_o,
  input  logic              m_ddr_arready_i,
  output logic [DdrIdW-1:0] m_ddr_arid_o,
  output logic [31:0]       m_ddr_araddr_o,
  output logic [7:0]        m_ddr_arlen_o,
  output logic [2:0]        m_ddr_arsize_o,
  output logic [1:0]        m_ddr_arburst_o,
  input  logic              m_ddr_rvalid_i,
  output logic              m_ddr_rready_o,
  input  logic [DdrIdW-1:0] m_ddr_rid_i,
  input  logic [63:0]       m_ddr_rdata_i,
  input  logic [1:0]        m_ddr_rresp_i,
  input  logic              m_ddr_rlast_i,

  // AXI4 master to system memory: 64-bit bus addresses
  output logic              m_sys_awvalid_o,
  input  logic              m_sys_awready_i,
  output logic [SysIdW-1:0] m_sys_awid_o,
  output logic [63:0]       m_sys_awaddr_o,
  output logic [7:0]        m_sys_awlen_o,
  output logic [2:0]        m_sys_awsize_o,
  output logic [1:0]        m_sys_awburst_o,
  output logic              m_sys_wvalid_o,
  input  logic              m_sys_wready_i,
  output logic [63:0]       m_sys_wdata_o,
  output logic [7:0]        m_sys_wstrb_o,
  output logic              m_sys_wlast_o,
  input  logic              m_sys_bvalid_i,
  output logic              m_sys_bready_o,
  input  logic [SysIdW-1:0] m_sys_bid_i,
  input  logic [1:0]        m_sys_bresp_i,
  output logic              m_sys_arvalid_o,
  input  logic              m_sys_arready_i,
  output logic [SysIdW-1:0] m_sys_arid_o,
  output logic [63:0]       m_sys_araddr_o,
  output logic [7:0]        m_sys_arlen_o,
  output logic [2:0]        m_sys_arsize_o,
  output logic [1:0]        m_sys_arburst_o,
  input  logic              m_sys_rvalid_i,
  output logic              m_sys_rready_o,
  input  logic [SysIdW-1:0] m_sys_rid_i,
  input  logic [63:0]       m_sys_rdata_i,
  input  logic [1:0]        m_sys_rresp_i,
  input  logic              m_sys_rlast_i,

  // Invalidation requests to the MMU (FLUSH_TLB)
  output logic              inv_valid_o,
  input  logic              inv_ready_i,
  output logic [1:0]        inv_type_o,     // PAGING_FLUSH_* = the MMU's INV_*
  output logic [AsidW-1:0]  inv_asid_o,
  output logic [51:0]       inv_start_o,    // first VA page number (VA bits 63:12)
  output logic [51:0]       inv_end_o,      // last VA page number, inclusive
  input  logic              inv_busy_i,

  // Interrupt: level, |(IRQ_STATUS & IRQ_ENABLE)
  output logic              irq_o
);

  localparam int unsigned QAW      = $clog2(QueueWords);
  localparam int unsigned SlotW    = $clog2(PktSlots);
  localparam int unsigned FifoCntW = $clog2(CopyFifoBeats + 1);

  // ------------------------------------------------------------ signals
  logic           stop, abort, flush, enable, restart, drained, busy;
  logic [31:0]    head, tail, packets_done;
  logic           q_we_lo, q_we_hi, q_re;
  logic [QAW-1:0] q_waddr, q_raddr;
  logic [31:0]    q_wdata;
  logic [63:0]    q_rdata;

  logic           cmd_valid, cmd_ready, cmd_dst_sys, cmd_src_sys, cmd_literal;
  logic           cmd_fence_irq, cmd_fence_write;
  logic [2:0]     cmd_op, cmd_err;
  logic [31:0]    cmd_count, cmd_pos;
  logic [63:0]    cmd_w1, cmd_w2, cmd_w3;
  logic [QAW:0]   cmd_words;
  logic           lit_valid, lit_ready;
  logic [63:0]    lit_data;
  logic           fetch_pending;

  logic             open_valid, open_ready, open_closed, close_a;
  logic [QAW:0]     open_words;
  logic [SlotW-1:0] open_slot, close_a_slot;
  logic             trk_empty, trk_bursts_idle, retire;

  logic             wj_valid, wj_ready, wj_port;
  logic [63:0]      wj_addr, wj_first, wj_inc;
  logic [31:0]      wj_count;
  logic [1:0]       wj_src;
  logic [SlotW-1:0] wj_slot;
  logic             rj_valid, rj_ready, rj_port;
  logic [63:0]      rj_addr;
  logic [31:0]      rj_count;

  logic             trk_push, trk_port, trk_close;
  logic [SlotW-1:0] trk_slot;
  logic [63:0]      trk_addr;
  logic [1:0]       trk_room;

  logic                fifo_push, fifo_pop, fifo_valid;
  logic [63:0]         fifo_wdata, fifo_rdata;
  logic [FifoCntW-1:0] fifo_count;

  logic        aw_valid, aw_port, aw_ready, w_valid, w_port, w_ready, w_last;
  logic [63:0] aw_addr, w_data;
  logic [7:0]  aw_len;
  logic        ar_valid, ar_port, ar_ready;
  logic [63:0] ar_addr;
  logic [7:0]  ar_len;

  logic        exec_idle, wr_idle, rd_idle;
  logic        ev_dec, ev_rd;
  logic [2:0]  ev_dec_code;
  logic [31:0] ev_dec_pkt;
  logic [63:0] ev_dec_addr, ev_rd_addr;
  logic [1:0]  ev_wr;
  logic [63:0] ev_wr_pkt;
  logic [127:0] ev_wr_addr;

  logic        err, restarting, err_raise;
  logic [2:0]  err_code;
  logic [31:0] err_pkt;
  logic [63:0] err_addr;
  logic        fence, fence_irq;
  logic [63:0] fence_value;
  logic [2:0]  beats;

  // ------------------------------------------------------------ clock
  // The engine's clock skips its edges while it has nothing to do
  // (prim_sim_clock_gate: in the Verilator build only): no register or
  // queue access, no packet pending or in flight, no restart draining. Every
  // AXI response answers a burst the engine is waiting for (busy); a valid
  // on either AXI port keeps the clock too, so that the ports' protocol
  // checkers (paging_engine_dv) can run on this clock by construction.
  logic clk_gated, axi_valid;
  assign axi_valid = m_ddr_awvalid_o || m_ddr_wvalid_o || m_ddr_arvalid_o || m_ddr_bvalid_i ||
                     m_ddr_rvalid_i || m_sys_awvalid_o || m_sys_wvalid_o || m_sys_arvalid_o ||
                     m_sys_bvalid_i || m_sys_rvalid_i;
  prim_sim_clock_gate u_clock_gate (
    .clk_i,
    .rst_ni,
    .active_i (busy || restarting || (wb_i.cyc && wb_i.stb) || axi_valid),
    .clk_o    (clk_gated)
  );

  // ------------------------------------------------------------ registers and queue
  paging_regs #(
    .QueueWords    (QueueWords),
    .MaxBurst      (MaxBurst),
    .CopyFifoBeats (CopyFifoBeats)
  ) u_regs (
    .clk_i (clk_gated), .rst_ni,
    .wb_i,
    .wb_o,
    .q_we_lo_o      (q_we_lo),
    .q_we_hi_o      (q_we_hi),
    .q_waddr_o      (q_waddr),
    .q_wdata_o      (q_wdata),
    .enable_o       (enable),
    .restart_o      (restart),
    .head_o         (head),
    .busy_i         (busy),
    .err_i          (err),
    .restarting_i   (restarting),
    .err_code_i     (err_code),
    .tail_i         (tail),
    .packets_done_i (packets_done),
    .err_packet_i   (err_pkt),
    .err_addr_i     (err_addr),
    .err_raise_i    (err_raise),
    .fence_i        (fence),
    .fence_irq_i    (fence_irq),
    .fence_value_i  (fence_value),
    .retire_i       (retire),
    .beats_i        (beats),
    .irq_o          (irq_o)
  );

  prim_ram_1r1w #(.Depth(QueueWords), .Width(32)) u_queue_lo (
    .clk_i (clk_gated), .we_i (q_we_lo), .waddr_i (q_waddr), .wdata_i (q_wdata),
    .re_i (q_re), .raddr_i (q_raddr), .rdata_o (q_rdata[31:0])
  );
  prim_ram_1r1w #(.Depth(QueueWords), .Width(32)) u_queue_hi (
    .clk_i (clk_gated), .we_i (q_we_hi), .waddr_i (q_waddr), .wdata_i (q_wdata),
    .re_i (q_re), .raddr_i (q_raddr), .rdata_o (q_rdata[63:32])
  );

  // ------------------------------------------------------------ fetch and sequence
  paging_fetch #(.QueueWords(QueueWords), .AsidW(AsidW)) u_fetch (
    .clk_i (clk_gated), .rst_ni,
    .enable_i          (enable),
    .stop_i            (stop),
    .flush_i           (flush),
    .head_i            (head),
    .ddr_size_i        (ddr_size_i),
    .q_re_o            (q_re),
    .q_raddr_o         (q_raddr),
    .q_rdata_i         (q_rdata),
    .cmd_valid_o       (cmd_valid),
    .cmd_ready_i       (cmd_ready),
    .cmd_op_o          (cmd_op),
    .cmd_dst_sys_o     (cmd_dst_sys),
    .cmd_src_sys_o     (cmd_src_sys),
    .cmd_literal_o     (cmd_literal),
    .cmd_fence_irq_o   (cmd_fence_irq),
    .cmd_fence_write_o (cmd_fence_write),
    .cmd_count_o       (cmd_count),
    .cmd_w1_o          (cmd_w1),
    .cmd_w2_o          (cmd_w2),
    .cmd_w3_o          (cmd_w3),
    .cmd_words_o       (cmd_words),
    .cmd_err_o         (cmd_err),
    .cmd_pos_o         (cmd_pos),
    .lit_valid_o       (lit_valid),
    .lit_ready_i       (lit_ready),
    .lit_data_o        (lit_data),
    .pending_o         (fetch_pending)
  );

  paging_exec #(.QAW(QAW), .SlotW(SlotW), .AsidW(AsidW)) u_exec (
    .clk_i (clk_gated), .rst_ni,
    .stop_i            (stop),
    .flush_i           (flush),
    .cmd_valid_i       (cmd_valid),
    .cmd_ready_o       (cmd_ready),
    .cmd_op_i          (cmd_op),
    .cmd_dst_sys_i     (cmd_dst_sys),
    .cmd_src_sys_i     (cmd_src_sys),
    .cmd_literal_i     (cmd_literal),
    .cmd_fence_irq_i   (cmd_fence_irq),
    .cmd_fence_write_i (cmd_fence_write),
    .cmd_count_i       (cmd_count),
    .cmd_w1_i          (cmd_w1),
    .cmd_w2_i          (cmd_w2),
    .cmd_w3_i          (cmd_w3),
    .cmd_words_i       (cmd_words),
    .cmd_err_i         (cmd_err),
    .cmd_pos_i         (cmd_pos),
    .open_valid_o      (open_valid),
    .open_ready_i      (open_ready),
    .open_words_o      (open_words),
    .open_closed_o     (open_closed),
    .open_slot_i       (open_slot),
    .close_o           (close_a),
    .close_slot_o      (close_a_slot),
    .trk_empty_i       (trk_empty),
    .packets_done_i    (packets_done),
    .wj_valid_o        (wj_valid),
    .wj_ready_i        (wj_ready),
    .wj_port_o         (wj_port),
    .wj_addr_o         (wj_addr),
    .wj_count_o        (wj_count),
    .wj_src_o          (wj_src),
    .wj_first_o        (wj_first),
    .wj_inc_o          (wj_inc),
    .wj_slot_o         (wj_slot),
    .rj_valid_o        (rj_valid),
    .rj_ready_i        (rj_ready),
    .rj_port_o         (rj_port),
    .rj_addr_o         (rj_addr),
    .rj_count_o        (rj_count),
    .inv_valid_o       (inv_valid_o),
    .inv_ready_i       (inv_ready_i),
    .inv_type_o        (inv_type_o),
    .inv_asid_o        (inv_asid_o),
    .inv_start_o       (inv_start_o),
    .inv_end_o         (inv_end_o),
    .inv_busy_i        (inv_busy_i),
    .ev_valid_o        (ev_dec),
    .ev_code_o         (ev_dec_code),
    .ev_pkt_o          (ev_dec_pkt),
    .ev_addr_o         (ev_dec_addr),
    .fence_o           (fence),
    .fence_irq_o       (fence_irq),
    .fence_value_o     (fence_value),
    .idle_o            (exec_idle)
  );

  // ------------------------------------------------------------ bursts
  paging_wr #(
    .MaxBurst (MaxBurst),
    .BurstQ   (4),
    .SlotW    (SlotW),
    .FifoCntW (FifoCntW)
  ) u_wr (
    .clk_i (clk_gated), .rst_ni,
    .stop_i       (abort),
    .flush_i      (flush),
    .job_valid_i  (wj_valid),
    .job_ready_o  (wj_ready),
    .job_port_i   (wj_port),
    .job_addr_i   (wj_addr),
    .job_count_i  (wj_count),
    .job_src_i    (wj_src),
    .job_first_i  (wj_first),
    .job_inc_i    (wj_inc),
    .job_slot_i   (wj_slot),
    .trk_room_i   (trk_room),
    .trk_push_o   (trk_push),
    .trk_port_o   (trk_port),
    .trk_slot_o   (trk_slot),
    .trk_addr_o   (trk_addr),
    .trk_close_o  (trk_close),
    .lit_valid_i  (lit_valid),
    .lit_ready_o  (lit_ready),
    .lit_data_i   (lit_data),
    .fifo_count_i (fifo_count),
    .fifo_valid_i (fifo_valid),
    .fifo_data_i  (fifo_rdata),
    .fifo_pop_o   (fifo_pop),
    .aw_valid_o   (aw_valid),
    .aw_port_o    (aw_port),
    .aw_ready_i   (aw_ready),
    .aw_addr_o    (aw_addr),
    .aw_len_o     (aw_len),
    .w_valid_o    (w_valid),
    .w_port_o     (w_port),
    .w_ready_i    (w_ready),
    .w_data_o     (w_data),
    .w_last_o     (w_last),
    .idle_o       (wr_idle)
  );

  paging_rd #(
    .MaxBurst    (MaxBurst),
    .Outstanding (Outstanding),
    .FifoDepth   (CopyFifoBeats)
  ) u_rd (
    .clk_i (clk_gated), .rst_ni,
    .stop_i       (abort),
    .flush_i      (flush),
    .job_valid_i  (rj_valid),
    .job_ready_o  (rj_ready),
    .job_port_i   (rj_port),
    .job_addr_i   (rj_addr),
    .job_count_i  (rj_count),
    .fifo_count_i (fifo_count),
    .fifo_push_o  (fifo_push),
    .fifo_data_o  (fifo_wdata),
    .ar_valid_o   (ar_valid),
    .ar_port_o    (ar_port),
    .ar_ready_i   (ar_ready),
    .ar_addr_o    (ar_addr),
    .ar_len_o     (ar_len),
    .r_valid_i    ({m_sys_rvalid_i, m_ddr_rvalid_i}),
    .r_data_i     ({m_sys_rdata_i, m_ddr_rdata_i}),
    .r_resp_i     ({m_sys_rresp_i, m_ddr_rresp_i}),
    .r_last_i     ({m_sys_rlast_i, m_ddr_rlast_i}),
    .ev_valid_o   (ev_rd),
    .ev_addr_o    (ev_rd_addr),
    .idle_o       (rd_idle)
  );

  paging_fifo #(.Depth(CopyFifoBeats), .Width(64)) u_fifo (
    .clk_i (clk_gated), .rst_ni,
    .flush_i     (flush),
    .push_i      (fifo_push),
    .push_data_i (fifo_wdata),
    .valid_o     (fifo_valid),
    .data_o      (fifo_rdata),
    .pop_i       (fifo_pop),
    .count_o     (fifo_count)
  );

  // ------------------------------------------------------------ completion and stop
  paging_track #(
    .PktSlots    (PktSlots),
    .Outstanding (Outstanding),
    .QAW         (QAW)
  ) u_track (
    .clk_i (clk_gated), .rst_ni,
    .flush_i        (flush),
    .head_i         (head),
    .open_valid_i   (open_valid),
    .open_ready_o   (open_ready),
    .open_words_i   (open_words),
    .open_closed_i  (open_closed),
    .open_slot_o    (open_slot),
    .close_a_i      (close_a),
    .close_a_slot_i (close_a_slot),
    .close_b_i      (trk_close),
    .close_b_slot_i (trk_slot),
    .push_i         (trk_push),
    .push_port_i    (trk_port),
    .push_slot_i    (trk_slot),
    .push_addr_i    (trk_addr),
    .room_o         (trk_room),
    .b_valid_i      ({m_sys_bvalid_i, m_ddr_bvalid_i}),
    .b_resp_i       ({m_sys_bresp_i, m_ddr_bresp_i}),
    .rd_err_i       (ev_rd),
    .ev_valid_o     (ev_wr),
    .ev_pkt_o       (ev_wr_pkt),
    .ev_addr_o      (ev_wr_addr),
    .empty_o        (trk_empty),
    .bursts_idle_o  (trk_bursts_idle),
    .retire_o       (retire),
    .tail_o         (tail),
    .packets_done_o (packets_done)
  );

  localparam logic [2:0] ErrAxiRead  = 3'(gmmu_paging_pkg::PAGING_ERR_AXI_READ);
  localparam logic [2:0] ErrAxiWrite = 3'(gmmu_paging_pkg::PAGING_ERR_AXI_WRITE);

  // A COPY read error belongs to the COPY, the oldest packet in flight.
  paging_ctrl #(.NSrc(4)) u_ctrl (
    .clk_i (clk_gated), .rst_ni,
    .ev_valid_i     ({ev_wr, ev_rd, ev_dec}),
    .ev_code_i      ({ErrAxiWrite, ErrAxiWrite, ErrAxiRead, ev_dec_code}),
    .ev_pkt_i       ({ev_wr_pkt, packets_done, ev_dec_pkt}),
    .ev_addr_i      ({ev_wr_addr, ev_rd_addr, ev_dec_addr}),
    .packets_done_i (packets_done),
    .restart_i      (restart),
    .drained_i      (drained),
    .stop_o         (stop),
    .abort_o        (abort),
    .err_o          (err),
    .restarting_o   (restarting),
    .err_code_o     (err_code),
    .err_pkt_o      (err_pkt),
    .err_addr_o     (err_addr),
    .err_raise_o    (err_raise),
    .flush_o        (flush)
  );

  assign drained = trk_bursts_idle && wr_idle && rd_idle && exec_idle;
  assign busy    = !drained || (!stop && (!trk_empty || (enable && fetch_pending)));

  // ------------------------------------------------------------ AXI pins
  assign aw_ready = aw_port ? m_sys_awready_i : m_ddr_awready_i;
  assign w_ready  = w_port ? m_sys_wready_i : m_ddr_wready_i;
  assign ar_ready = ar_port ? m_sys_arready_i : m_ddr_arready_i;

  assign m_ddr_awvalid_o = aw_valid && !aw_port;
  assign m_ddr_awid_o    = '0;
  assign m_ddr_awaddr_o  = aw_addr[31:0];
  assign m_ddr_awlen_o   = aw_len;
  assign m_ddr_awsize_o  = 3'd3;
  assign m_ddr_awburst_o = 2'b01;
  assign m_ddr_wvalid_o  = w_valid && !w_port;
  assign m_ddr_wdata_o   = w_data;
  assign m_ddr_wstrb_o   = 8'hFF;
  assign m_ddr_wlast_o   = w_last;
  assign m_ddr_bready_o  = 1'b1;
  assign m_ddr_arvalid_o = ar_valid && !ar_port;
  assign m_ddr_arid_o    = '0;
  assign m_ddr_araddr_o  = ar_addr[31:0];
  assign m_ddr_arlen_o   = ar_len;
  assign m_ddr_arsize_o  = 3'd3;
  assign m_ddr_arburst_o = 2'b01;
  assign m_ddr_rready_o  = 1'b1;

  assign m_sys_awvalid_o = aw_valid && aw_port;
  assign m_sys_awid_o    = '0;
  assign m_sys_awaddr_o  = aw_addr;
  assign m_sys_awlen_o   = aw_len;
  assign m_sys_awsize_o  = 3'd3;
  assign m_sys_awburst_o = 2'b01;
  assign m_sys_wvalid_o  = w_valid && w_port;
  assign m_sys_wdata_o   = w_data;
  assign m_sys_wstrb_o   = 8'hFF;
  assign m_sys_wlast_o   = w_last;
  assign m_sys_bready_o  = 1'b1;
  assign m_sys_arvalid_o = ar_valid && ar_port;
  assign m_sys_arid_o    = '0;
  assign m_sys_araddr_o  = ar_addr;
  assign m_sys_arlen_o   = ar_len;
  assign m_sys_arsize_o  = 3'd3;
  assign m_sys_arburst_o = 2'b01;
  assign m_sys_rready_o  = 1'b1;

  assign beats = 3'(m_ddr_wvalid_o && m_ddr_wready_i) + 3'(m_sys_wvalid_o && m_sys_wready_i) +
                 3'(m_ddr_rvalid_i) + 3'(m_sys_rvalid_i);

  // IDs are constant 0, so responses carry 0 (checked below); VRAM
  // addresses above 4 GiB are refused by the decoder.
  logic unused_axi;
  assign unused_axi = ^{m_ddr_bid_i, m_ddr_rid_i, m_sys_bid_i, m_sys_rid_i,
                        aw_addr[63:32] & {32{!aw_port}}, ar_addr[63:32] & {32{!ar_port}}};

`ifndef SYNTHESIS
  // The masters' handshake rules (valid held, payload stable until ready)
  // are the bound protocol checkers' (rtl/dv/paging_engine_dv.sv). These
  // are immediate checks at the engine's clock: a concurrent assertion
  // makes the verilated model copy every signal it reads at each eval.
  always_ff @(posedge clk_gated) begin
    if (rst_ni) begin
      // Responses carry the only ID issued.
      ids_zero: assert ((!m_ddr_bvalid_i || m_ddr_bid_i == '0) &&
                        (!m_ddr_rvalid_i || m_ddr_rid_i == '0) &&
                        (!m_sys_bvalid_i || m_sys_bid_i == '0) &&
                        (!m_sys_rvalid_i || m_sys_rid_i == '0));
      // VRAM bursts stay below 4 GiB.
      ddr_addr_32: assert ((!(aw_valid && !aw_port) || aw_addr[63:32] == '0) &&
                           (!(ar_valid && !ar_port) || ar_addr[63:32] == '0));
    end
  end
`endif

endmodule : paging_engine
