// SPDX-License-Identifier: Apache-2.0
// Paging engine COPY data FIFO: Depth words in block RAM (prim_ram_1r1w)
// with a two-word output stage, so the head word is a register (valid_o,
// data_o) and one word can leave every cycle.
//
// count_o counts every word held (RAM, read in flight, output stage); the
// write-burst generator issues a COPY write burst only once count_o covers
// it, and the read-burst generator reserves room before each read burst, so
// push_i never finds the FIFO full (asserted).
//
// Timing: a word pushed in cycle t can be popped from cycle t + 3 on;
// afterwards one pop per cycle. flush_i empties it.
module paging_fifo #(
  parameter int unsigned Depth = 128,
  parameter int unsigned Width = 64,
  localparam int unsigned AW   = $clog2(Depth),
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             flush_i,

  input  logic             push_i,
  input  logic [Width-1:0] push_data_i,

  output logic             valid_o,
  output logic [Width-1:0] data_o,
  input  logic             pop_i,

  output logic [CntW-1:0]  count_o
);

  logic [AW-1:0]   wptr_q, rptr_q;
  logic [CntW-1:0] ram_cnt_q, count_q;
  logic            inflight_q, issue;
  logic [Width-1:0] ram_rdata;
  logic [Width-1:0] out_q [2];
  logic            out_rd_q, out_wr_q;
  logic [1:0]      out_cnt_q;
  logic            pop;

  assign pop = pop_i && valid_o;

  // Read the RAM when the word will find room in the output stage, given
  // the word already on its way and this cycle's pop.
  assign issue = (ram_cnt_q != '0) &&
                 ({1'b0, out_cnt_q} + {2'b0, inflight_q} <= 3'd1 + {2'b0, pop});

  prim_ram_1r1w #(.Depth(Depth), .Width(Width)) u_ram (
    .clk_i   (clk_i),
    .we_i    (push_i),
    .waddr_i (wptr_q),
    .wdata_i (push_data_i),
    .re_i    (issue),
    .raddr_i (rptr_q),
    .rdata_o (ram_rdata)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q     <= '0;
      rptr_q     <= '0;
      ram_cnt_q  <= '0;
      count_q    <= '0;
      inflight_q <= 1'b0;
      out_rd_q   <= 1'b0;
      out_wr_q   <= 1'b0;
      out_cnt_q  <= '0;
    end else if (flush_i) begin
      wptr_q     <= '0;
      rptr_q     <= '0;
      ram_cnt_q  <= '0;
      count_q    <= '0;
      inflight_q <= 1'b0;
      out_rd_q   <= 1'b0;
      out_wr_q   <= 1'b0;
      out_cnt_q  <= '0;
    end else begin
      if (push_i) wptr_q <= wptr_q + AW'(1);
      if (issue)  rptr_q <= rptr_q + AW'(1);
      ram_cnt_q  <= ram_cnt_q + CntW'(push_i) - CntW'(issue);
      count_q    <= count_q + CntW'(push_i) - CntW'(pop);
      inflight_q <= issue;
      if (inflight_q) out_wr_q <= !out_wr_q;
      if (pop)        out_rd_q <= !out_rd_q;
      out_cnt_q <= out_cnt_q + 2'(inflight_q) - 2'(pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (inflight_q) out_q[out_wr_q] <= ram_rdata;
  end

  assign valid_o = out_cnt_q != 2'd0;
  assign data_o  = out_q[out_rd_q];
  assign count_o = count_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && !flush_i) no_overflow: assert (!push_i || (count_q < CntW'(Depth) || pop));
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) out_stage_bound: assert (out_cnt_q <= 2'd2);
  end
`endif

endmodule : paging_fifo
