// SPDX-License-Identifier: Apache-2.0
// Paging engine write-burst generator: turns write jobs (WRITE_PTES, FILL,
// the write side of COPY, a FENCE write) into AXI4 write bursts on the DDR
// or the system-memory port.
//
// AW side: cuts the job's run of 64-bit words into INCR bursts of at most
// MaxBurst beats that never cross 4 KiB, and commits one per cycle into
// the AW output register (held until AWREADY) when the tracker has room for
// it on that port (Outstanding bursts per port), fewer than BurstQ bursts
// wait for their W beats, and, for COPY data, the FIFO holds every beat of
// the burst that earlier bursts have not claimed (so W never waits for a
// read, and a burst is never started on data that is not there). Each
// commit is reported to the tracker (slot, port, start address); the job's
// last burst also closes its packet's slot. stop_i drops the rest of the
// job at once (a committed AW is still sent, and its W beats).
//
// W side: sends the beats of the bursts whose AW was accepted, in order,
// one per cycle, full strobes, with the job's data: the run value (first,
// then + increment each entry, carried across bursts), the literal entries
// from the fetcher, or the COPY FIFO's head. AWs run ahead of W by up to
// BurstQ bursts.
//
// Timing: job_ready_o the cycle after the job's last burst is committed; AW
// outputs are registers; W valid/data are combinational from registers
// (the run register, the fetcher's buffer, the FIFO's output stage) and the
// W side's burst queue.
module paging_wr #(
  parameter int unsigned MaxBurst = 16,
  parameter int unsigned BurstQ   = 4,
  parameter int unsigned SlotW    = 3,
  parameter int unsigned FifoCntW = 8,
  localparam int unsigned LenW = $clog2(MaxBurst) + 1,
  localparam int unsigned BqW  = $clog2(BurstQ)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                stop_i,
  input  logic                flush_i,

  // Jobs
  input  logic                job_valid_i,
  output logic                job_ready_o,
  input  logic                job_port_i,     // 0: DDR, 1: system memory
  input  logic [63:0]         job_addr_i,
  input  logic [31:0]         job_count_i,    // 64-bit words, >= 1
  input  logic [1:0]          job_src_i,      // paging_pkg::SRC_*
  input  logic [63:0]         job_first_i,
  input  logic [63:0]         job_inc_i,
  input  logic [SlotW-1:0]    job_slot_i,

  // Tracker
  input  logic [1:0]          trk_room_i,
  output logic                trk_push_o,
  output logic                trk_port_o,
  output logic [SlotW-1:0]    trk_slot_o,
  output logic [63:0]         trk_addr_o,
  output logic                trk_close_o,    // with trk_push_o: the job's last burst

  // Literal entries
  input  logic                lit_valid_i,
  output logic                lit_ready_o,
  input  logic [63:0]         lit_data_i,

  // COPY data FIFO
  input  logic [FifoCntW-1:0] fifo_count_i,
  input  logic                fifo_valid_i,
  input  logic [63:0]         fifo_data_i,
  output logic                fifo_pop_o,

  // AXI write address (one register, shown on the job's port)
  output logic                aw_valid_o,
  output logic                aw_port_o,
  input  logic                aw_ready_i,     // of the port aw_port_o selects
  output logic [63:0]         aw_addr_o,
  output logic [7:0]          aw_len_o,

  // AXI write data (shown on the burst's port)
  output logic                w_valid_o,
  output logic                w_port_o,
  input  logic                w_ready_i,      // of the port w_port_o selects
  output logic [63:0]         w_data_o,
  output logic                w_last_o,

  output logic                idle_o
);

  // ------------------------------------------------------------ AW side
  logic                aj_active_q, aj_port_q;
  logic [63:0]         aj_addr_q;
  logic [31:0]         aj_left_q;
  logic [1:0]          aj_src_q;
  logic [SlotW-1:0]    aj_slot_q;
  logic                aw_valid_q, aw_port_q, aw_job_last_q;
  logic [63:0]         aw_addr_q;
  logic [7:0]          aw_len_q;
  logic [FifoCntW-1:0] reserved_q;   // FIFO words claimed by committed COPY bursts
  logic [BqW:0]        bq_cnt_q;
  logic                pq_full;

  logic [LenW-1:0]     len;
  logic                aw_hs, commit, job_take, last_burst, data_ready;

  paging_burst_len #(.MaxBurst(MaxBurst)) u_len (
    .addr_beat_i  (aj_addr_q[11:3]),
    .beats_left_i (aj_left_q),
    .len_o        (len)
  );

  assign aw_hs       = aw_valid_q && aw_ready_i;
  assign last_burst  = aj_left_q == 32'(len);
  assign data_ready  = (aj_src_q != paging_pkg::SRC_FIFO) ||
                       (fifo_count_i - reserved_q >= FifoCntW'(len));
  assign commit      = aj_active_q && !stop_i && (!aw_valid_q || aw_hs) &&
                       ({1'b0, bq_cnt_q} + (BqW+2)'(aw_valid_q) < (BqW+2)'(BurstQ)) &&
                       trk_room_i[aj_port_q] && data_ready;
  assign job_ready_o = !aj_active_q && !pq_full;
  assign job_take    = job_valid_i && job_ready_o;

  assign trk_push_o  = commit;
  assign trk_port_o  = aj_port_q;
  assign trk_slot_o  = aj_slot_q;
  assign trk_addr_o  = aj_addr_q;
  assign trk_close_o = commit && last_burst;

  // ------------------------------------------------------------ W side state
  // Burst queue: bursts whose AW was accepted, waiting for their W beats.
  logic             bq_port_q [BurstQ];
  logic [7:0]       bq_len_q [BurstQ];
  logic             bq_job_last_q [BurstQ];
  logic [BqW-1:0]   bq_rd_q, bq_wr_q;
  // Job data queue: the data source of the jobs accepted and not yet sent.
  // Two entries: the W side's job and the AW side's.
  logic [1:0]       pq_src_q [2];
  logic [63:0]      pq_first_q [2], pq_inc_q [2];
  logic             pq_rd_q, pq_wr_q;
  logic [1:0]       pq_cnt_q;
  logic             w_in_job_q;     // run_q holds the next entry of the job
  logic [63:0]      run_q;
  logic [7:0]       w_beat_q;

  logic             bq_valid, src_valid, w_hs, burst_end, job_end;
  logic [1:0]       src;
  logic [63:0]      run_value;

  assign pq_full   = pq_cnt_q == 2'd2;
  assign bq_valid  = bq_cnt_q != '0;
  assign src       = pq_src_q[pq_rd_q];
  assign run_value = w_in_job_q ? run_q : pq_first_q[pq_rd_q];
  always_comb begin
    unique case (src)
      paging_pkg::SRC_LIT:  begin src_valid = lit_valid_i;  w_data_o = lit_data_i;  end
      paging_pkg::SRC_FIFO: begin src_valid = fifo_valid_i; w_data_o = fifo_data_i; end
      default:              begin src_valid = 1'b1;         w_data_o = run_value;   end
    endcase
  end

  assign w_valid_o   = bq_valid && src_valid;
  assign w_port_o    = bq_port_q[bq_rd_q];
  assign w_last_o    = w_beat_q == bq_len_q[bq_rd_q];
  assign w_hs        = w_valid_o && w_ready_i;
  assign burst_end   = w_hs && w_last_o;
  assign job_end     = burst_end && bq_job_last_q[bq_rd_q];
  assign lit_ready_o = bq_valid && src == paging_pkg::SRC_LIT && w_ready_i;
  assign fifo_pop_o  = w_hs && src == paging_pkg::SRC_FIFO;

  // ------------------------------------------------------------ registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aj_active_q   <= 1'b0;
      aj_port_q     <= 1'b0;
      aj_addr_q     <= '0;
      aj_left_q     <= '0;
      aj_src_q      <= paging_pkg::SRC_RUN;
      aj_slot_q     <= '0;
      aw_valid_q    <= 1'b0;
      aw_port_q     <= 1'b0;
      aw_job_last_q <= 1'b0;
      aw_addr_q     <= '0;
      aw_len_q      <= '0;
      reserved_q    <= '0;
      bq_rd_q       <= '0;
      bq_wr_q       <= '0;
      bq_cnt_q      <= '0;
      pq_rd_q       <= 1'b0;
      pq_wr_q       <= 1'b0;
      pq_cnt_q      <= '0;
      w_in_job_q    <= 1'b0;
      run_q         <= '0;
      w_beat_q      <= '0;
    end else if (flush_i) begin
      aj_active_q <= 1'b0;
      aw_valid_q  <= 1'b0;
      reserved_q  <= '0;
      bq_rd_q     <= '0;
      bq_wr_q     <= '0;
      bq_cnt_q    <= '0;
      pq_rd_q     <= 1'b0;
      pq_wr_q     <= 1'b0;
      pq_cnt_q    <= '0;
      w_in_job_q  <= 1'b0;
      w_beat_q    <= '0;
    end else begin
      // AW side
      if (job_take) begin
        aj_active_q <= 1'b1;
        aj_port_q   <= job_port_i;
        aj_addr_q   <= job_addr_i;
        aj_left_q   <= job_count_i;
        aj_src_q    <= job_src_i;
        aj_slot_q   <= job_slot_i;
      end else if (commit) begin
        aj_addr_q <= aj_addr_q + (64'(len) << 3);
        aj_left_q <= aj_left_q - 32'(len);
        if (last_burst) aj_active_q <= 1'b0;
      end else if (stop_i) begin
        aj_active_q <= 1'b0;
      end
      if (commit) begin
        aw_valid_q    <= 1'b1;
        aw_port_q     <= aj_port_q;
        aw_addr_q     <= aj_addr_q;
        aw_len_q      <= 8'(len) - 8'd1;
        aw_job_last_q <= last_burst;
      end else if (aw_hs) begin
        aw_valid_q <= 1'b0;
      end
      reserved_q <= reserved_q
                  + ((commit && aj_src_q == paging_pkg::SRC_FIFO) ? FifoCntW'(len) : '0)
                  - FifoCntW'(fifo_pop_o);

      // W side
      if (aw_hs) bq_wr_q <= bq_wr_q + BqW'(1);
      if (burst_end) bq_rd_q <= bq_rd_q + BqW'(1);
      bq_cnt_q <= bq_cnt_q + (BqW+1)'(aw_hs) - (BqW+1)'(burst_end);
      if (job_take) pq_wr_q <= !pq_wr_q;
      if (job_end)  pq_rd_q <= !pq_rd_q;
      pq_cnt_q <= pq_cnt_q + 2'(job_take) - 2'(job_end);
      if (w_hs) begin
        w_beat_q   <= burst_end ? 8'd0 : w_beat_q + 8'd1;
        run_q      <= run_value + pq_inc_q[pq_rd_q];
        w_in_job_q <= !job_end;
      end
    end
  end

  // Queue contents: data only.
  always_ff @(posedge clk_i) begin
    if (aw_hs) begin
      bq_port_q[bq_wr_q]     <= aw_port_q;
      bq_len_q[bq_wr_q]      <= aw_len_q;
      bq_job_last_q[bq_wr_q] <= aw_job_last_q;
    end
    if (job_take) begin
      pq_src_q[pq_wr_q]   <= job_src_i;
      pq_first_q[pq_wr_q] <= job_first_i;
      pq_inc_q[pq_wr_q]   <= job_inc_i;
    end
  end

  assign aw_valid_o = aw_valid_q;
  assign aw_port_o  = aw_port_q;
  assign aw_addr_o  = aw_addr_q;
  assign aw_len_o   = aw_len_q;
  assign idle_o     = !aj_active_q && !aw_valid_q && !bq_valid;

`ifndef SYNTHESIS
  // Bursts stay within a 4 KiB page and MaxBurst beats.
  always_ff @(posedge clk_i) begin
    if (rst_ni) aw_in_page: assert (!aw_valid_q ||
                                  (({1'b0, aw_addr_q[11:3]} + {2'b0, aw_len_q}) < 10'd512));
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) aw_max_burst: assert (!aw_valid_q || (32'(aw_len_q) < 32'(MaxBurst)));
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) reserved_bound: assert (reserved_q <= fifo_count_i);
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) job_count_nonzero: assert (!job_take || (job_count_i != 32'd0));
  end
`endif

endmodule : paging_wr
