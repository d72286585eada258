// SPDX-License-Identifier: Apache-2.0
// Paging engine register block and queue window: a Wishbone slave over the
// engine's 8 KiB window (include/defs/paging.toml, docs/paging-engine.md).
//
// Word addresses 0x000-0x3FF (bytes 0x000-0xFFF) are the registers; word
// addresses 0x400-0x7FF (bytes 0x1000-0x1FFF) are the queue RAM, written
// through q_*_o: byte offset 0x1000 + 8i is the low half of queue word i,
// +4 its high half (i taken mod QueueWords). The queue window is write-only
// (reads return 0): the RAM's one read port belongs to the packet fetcher.
//
// It holds CTRL.ENABLE, HEAD, IRQ_STATUS/IRQ_ENABLE, the FENCE value and
// the performance counters, and shows the status the datapath reports.
//
// Timing: every access is answered one cycle after the request (wb_o.ack, like
// the other register blocks); a queue write reaches the RAM at the edge
// ending the request cycle. restart_o is a one-cycle pulse the cycle after
// the write of CTRL.RESTART. irq_o is combinational from registers only.
module paging_regs #(
  parameter int unsigned QueueWords    = 512,
  parameter int unsigned MaxBurst      = 16,
  parameter int unsigned CopyFifoBeats = 128,
  localparam int unsigned QAW = $clog2(QueueWords)
) (
  input  logic           clk_i,
  input  logic           rst_ni,

  // Wishbone classic slave, 32-bit, word address
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  // Queue RAM write port (two 32-bit halves of each 64-bit word)
  output logic           q_we_lo_o,
  output logic           q_we_hi_o,
  output logic [QAW-1:0] q_waddr_o,
  output logic [31:0]    q_wdata_o,

  // Control
  output logic           enable_o,
  output logic           restart_o,      // pulse: CTRL.RESTART written with 1
  output logic [31:0]    head_o,

  // Datapath status
  input  logic           busy_i,
  input  logic           err_i,
  input  logic           restarting_i,
  input  logic [2:0]     err_code_i,
  input  logic [31:0]    tail_i,
  input  logic [31:0]    packets_done_i,
  input  logic [31:0]    err_packet_i,
  input  logic [63:0]    err_addr_i,
  input  logic           err_raise_i,    // pulse: STATUS.ERROR rises
  input  logic           fence_i,        // pulse: a FENCE passed
  input  logic           fence_irq_i,    //   ... with FENCE_IRQ
  input  logic [63:0]    fence_value_i,  //   ... and this value
  input  logic           retire_i,       // pulse: a packet completed
  input  logic [2:0]     beats_i,        // AXI data beats this cycle (0..4)

  output logic           irq_o
);

  localparam logic [31:0] ConfigValue =
      (32'(MaxBurst) << gmmu_paging_pkg::PAGING_CONFIG_MAX_BURST_LSB) |
      (32'(CopyFifoBeats) << gmmu_paging_pkg::PAGING_CONFIG_COPY_FIFO_BEATS_LSB);

  logic        enable_q, restart_q;
  logic [31:0] head_q;
  logic [63:0] fence_q;
  logic [1:0]  irq_status_q, irq_enable_q;
  logic [31:0] perf_packets_q, perf_beats_q, perf_busy_q;

  logic        wr, in_queue;
  logic [15:0] reg_off;
  logic [1:0]  irq_set;
  logic [31:0] rdata;

  prim_wb_reg u_port (
    .clk_i, .rst_ni, .wb_i, .wb_o,
    .ready_i (1'b1), .wr_o (wr), .rdata_i (rdata)
  );

  assign in_queue = wb_i.adr[10];
  assign reg_off  = {4'b0, wb_i.adr[9:0], 2'b00};

  // Queue writes go straight to the RAM.
  assign q_we_lo_o = wr && in_queue && !wb_i.adr[0];
  assign q_we_hi_o = wr && in_queue && wb_i.adr[0];
  assign q_waddr_o = wb_i.adr[QAW:1];
  assign q_wdata_o = wb_i.dat;

  assign irq_set = {err_raise_i, fence_i && fence_irq_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      enable_q       <= 1'b0;
      restart_q      <= 1'b0;
      head_q         <= '0;
      fence_q        <= '0;
      irq_status_q   <= '0;
      irq_enable_q   <= '0;
      perf_packets_q <= '0;
      perf_beats_q   <= '0;
      perf_busy_q    <= '0;
    end else begin
      restart_q <= 1'b0;
      if (fence_i) fence_q <= fence_value_i;
      perf_packets_q <= perf_packets_q + 32'(retire_i);
      perf_beats_q   <= perf_beats_q + 32'(beats_i);
      perf_busy_q    <= perf_busy_q + 32'(busy_i);

      // Set wins over a clear in the same cycle: the event is not lost.
      irq_status_q <= irq_status_q | irq_set;

      if (wr && !in_queue) begin
        case (reg_off)
          gmmu_paging_pkg::PAGING_CTRL: begin
            enable_q  <= wb_i.dat[gmmu_paging_pkg::PAGING_CTRL_ENABLE_LSB];
            restart_q <= wb_i.dat[gmmu_paging_pkg::PAGING_CTRL_RESTART_LSB];
          end
          gmmu_paging_pkg::PAGING_HEAD:             head_q         <= wb_i.dat;
          gmmu_paging_pkg::PAGING_IRQ_STATUS:       irq_status_q   <= (irq_status_q & ~wb_i.dat[1:0]) | irq_set;
          gmmu_paging_pkg::PAGING_IRQ_ENABLE:       irq_enable_q   <= wb_i.dat[1:0];
          gmmu_paging_pkg::PAGING_PERF_PACKETS:     perf_packets_q <= wb_i.dat;
          gmmu_paging_pkg::PAGING_PERF_BEATS:       perf_beats_q   <= wb_i.dat;
          gmmu_paging_pkg::PAGING_PERF_BUSY_CYCLES: perf_busy_q    <= wb_i.dat;
          default: ;
        endcase
      end
    end
  end

  // The queue window reads 0.
  always_comb begin
    rdata = '0;
    if (!in_queue) begin
      case (reg_off)
        gmmu_paging_pkg::PAGING_ID:               rdata = 32'(gmmu_paging_pkg::PAGING_ID_VALUE);
        gmmu_paging_pkg::PAGING_CONFIG:           rdata = ConfigValue;
        gmmu_paging_pkg::PAGING_CTRL:             rdata = 32'(enable_q);
        gmmu_paging_pkg::PAGING_STATUS:           rdata = {25'b0, err_code_i, 1'b0, restarting_i, err_i, busy_i};
        gmmu_paging_pkg::PAGING_QUEUE_WORDS:      rdata = 32'(QueueWords);
        gmmu_paging_pkg::PAGING_HEAD:             rdata = head_q;
        gmmu_paging_pkg::PAGING_TAIL:             rdata = tail_i;
        gmmu_paging_pkg::PAGING_PACKETS_DONE:     rdata = packets_done_i;
        gmmu_paging_pkg::PAGING_ERR_PACKET:       rdata = err_packet_i;
        gmmu_paging_pkg::PAGING_ERR_ADDR_LO:      rdata = err_addr_i[31:0];
        gmmu_paging_pkg::PAGING_ERR_ADDR_HI:      rdata = err_addr_i[63:32];
        gmmu_paging_pkg::PAGING_FENCE_LO:         rdata = fence_q[31:0];
        gmmu_paging_pkg::PAGING_FENCE_HI:         rdata = fence_q[63:32];
        gmmu_paging_pkg::PAGING_IRQ_STATUS:       rdata = 32'(irq_status_q);
        gmmu_paging_pkg::PAGING_IRQ_ENABLE:       rdata = 32'(irq_enable_q);
        gmmu_paging_pkg::PAGING_PERF_PACKETS:     rdata = perf_packets_q;
        gmmu_paging_pkg::PAGING_PERF_BEATS:       rdata = perf_beats_q;
        gmmu_paging_pkg::PAGING_PERF_BUSY_CYCLES: rdata = perf_busy_q;
        default: ;
      endcase
    end
  end

  assign enable_o  = enable_q;
  assign restart_o = restart_q;
  assign head_o    = head_q;
  assign irq_o     = |(irq_status_q & irq_enable_q);

endmodule : paging_regs
