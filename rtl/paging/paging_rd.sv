// SPDX-License-Identifier: Apache-2.0
// Paging engine read-burst generator: the read side of COPY.
//
// Cuts the source run into INCR bursts of at most MaxBurst beats that never
// cross 4 KiB and commits one per cycle into the AR output register (held
// until ARREADY) while the data FIFO has room for every beat of the bursts
// in flight and this one (R is always accepted: rready is 1) and fewer than
// Outstanding bursts are in flight. R beats of either port go into the FIFO
// in order (ARID is constant, and one COPY reads one port).
//
// An R beat with RRESP != OKAY raises an AXI_READ event with its burst's
// start address (ev_*); its data still goes into the FIFO, but the stop
// that follows keeps any write burst from claiming it. stop_i drops the
// rest of the job; the bursts in flight are still received.
//
// Timing: AR outputs are registers; a burst may be committed every cycle.
module paging_rd #(
  parameter int unsigned MaxBurst    = 16,
  parameter int unsigned Outstanding = 8,
  parameter int unsigned FifoDepth   = 128,
  localparam int unsigned LenW = $clog2(MaxBurst) + 1,
  localparam int unsigned CntW = $clog2(FifoDepth + 1),
  localparam int unsigned OW   = $clog2(Outstanding)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            stop_i,
  input  logic            flush_i,

  // Jobs
  input  logic            job_valid_i,
  output logic            job_ready_o,
  input  logic            job_port_i,
  input  logic [63:0]     job_addr_i,
  input  logic [31:0]     job_count_i,

  // Data FIFO
  input  logic [CntW-1:0] fifo_count_i,
  output logic            fifo_push_o,
  output logic [63:0]     fifo_data_o,

  // AXI read address (one register, shown on the job's port)
  output logic            ar_valid_o,
  output logic            ar_port_o,
  input  logic            ar_ready_i,     // of the port ar_port_o selects
  output logic [63:0]     ar_addr_o,
  output logic [7:0]      ar_len_o,

  // AXI read data of both ports
  input  logic [1:0]      r_valid_i,
  input  logic [127:0]    r_data_i,
  input  logic [3:0]      r_resp_i,
  input  logic [1:0]      r_last_i,

  // AXI_READ error
  output logic            ev_valid_o,
  output logic [63:0]     ev_addr_o,

  output logic            idle_o
);

  logic            aj_active_q, aj_port_q;
  logic [63:0]     aj_addr_q;
  logic [31:0]     aj_left_q;
  logic            ar_valid_q, ar_port_q;
  logic [63:0]     ar_addr_q;
  logic [7:0]      ar_len_q;
  logic [CntW:0]   pend_beats_q;      // beats of committed bursts not yet received
  logic [63:0]     start_q [Outstanding];
  logic [OW-1:0]   st_rd_q, st_wr_q;
  logic [OW:0]     st_cnt_q;

  logic [LenW-1:0] len;
  logic            ar_hs, commit, last_burst, room;
  logic            r_valid, r_last, r_err;
  logic [63:0]     r_data;

  paging_burst_len #(.MaxBurst(MaxBurst)) u_len (
    .addr_beat_i  (aj_addr_q[11:3]),
    .beats_left_i (aj_left_q),
    .len_o        (len)
  );

  assign ar_hs      = ar_valid_q && ar_ready_i;
  assign last_burst = aj_left_q == 32'(len);
  assign room       = ({1'b0, fifo_count_i} + pend_beats_q + (CntW+1)'(len) <= (CntW+1)'(FifoDepth)) &&
                      (st_cnt_q < (OW+1)'(Outstanding));
  assign commit     = aj_active_q && !stop_i && (!ar_valid_q || ar_hs) && room;
  assign job_ready_o = !aj_active_q;

  // One COPY reads one port; the other is silent.
  assign r_valid = |r_valid_i;
  assign r_data  = r_valid_i[1] ? r_data_i[127:64] : r_data_i[63:0];
  assign r_last  = r_valid_i[1] ? r_last_i[1] : r_last_i[0];
  assign r_err   = r_valid_i[1] ? (r_resp_i[3:2] != 2'b00) : (r_valid_i[0] && r_resp_i[1:0] != 2'b00);

  assign fifo_push_o = r_valid;
  assign fifo_data_o = r_data;
  assign ev_valid_o  = r_err;
  assign ev_addr_o   = start_q[st_rd_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aj_active_q  <= 1'b0;
      aj_port_q    <= 1'b0;
      aj_addr_q    <= '0;
      aj_left_q    <= '0;
      ar_valid_q   <= 1'b0;
      ar_port_q    <= 1'b0;
      ar_addr_q    <= '0;
      ar_len_q     <= '0;
      pend_beats_q <= '0;
      st_rd_q      <= '0;
      st_wr_q      <= '0;
      st_cnt_q     <= '0;
    end else if (flush_i) begin
      aj_active_q  <= 1'b0;
      ar_valid_q   <= 1'b0;
      pend_beats_q <= '0;
      st_rd_q      <= '0;
      st_wr_q      <= '0;
      st_cnt_q     <= '0;
    end else begin
      if (job_valid_i && job_ready_o) begin
        aj_active_q <= 1'b1;
        aj_port_q   <= job_port_i;
        aj_addr_q   <= job_addr_i;
        aj_left_q   <= job_count_i;
      end else if (commit) begin
        aj_addr_q <= aj_addr_q + (64'(len) << 3);
        aj_left_q <= aj_left_q - 32'(len);
        if (last_burst) aj_active_q <= 1'b0;
      end else if (stop_i) begin
        aj_active_q <= 1'b0;
      end
      if (commit) begin
        ar_valid_q <= 1'b1;
        ar_port_q  <= aj_port_q;
        ar_addr_q  <= aj_addr_q;
        ar_len_q   <= 8'(len) - 8'd1;
      end else if (ar_hs) begin
        ar_valid_q <= 1'b0;
      end
      pend_beats_q <= pend_beats_q + (commit ? (CntW+1)'(len) : '0) - (CntW+1)'(r_valid);
      if (commit) st_wr_q <= st_wr_q + OW'(1);
      if (r_valid && r_last) st_rd_q <= st_rd_q + OW'(1);
      st_cnt_q <= st_cnt_q + (OW+1)'(commit) - (OW+1)'(r_valid && r_last);
    end
  end

  // Burst start addresses, for the error report: data only.
  always_ff @(posedge clk_i) begin
    if (commit) start_q[st_wr_q] <= aj_addr_q;
  end

  assign ar_valid_o = ar_valid_q;
  assign ar_port_o  = ar_port_q;
  assign ar_addr_o  = ar_addr_q;
  assign ar_len_o   = ar_len_q;
  assign idle_o     = !aj_active_q && !ar_valid_q && (st_cnt_q == '0);

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) one_port_reads: assert (!(r_valid_i[0] && r_valid_i[1]));
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) r_expected: assert (!r_valid || (pend_beats_q != '0));
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) ar_in_page: assert (!ar_valid_q ||
                                  (({1'b0, ar_addr_q[11:3]} + {2'b0, ar_len_q}) < 10'd512));
  end
`endif

endmodule : paging_rd
