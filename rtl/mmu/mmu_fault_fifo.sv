// SPDX-License-Identifier: Apache-2.0
// Fault FIFO: fault records in arrival order, for firmware to read.
//
// push_i is always taken: into the FIFO when there is room, otherwise it is
// counted in the overflow counter (saturating), so no fault goes uncounted.
// pop_i drops the head. The head record (head_o) is valid while count_o is
// nonzero. A push and a pop may happen in the same cycle.
module mmu_fault_fifo #(
  parameter int unsigned Width = 90,
  parameter int unsigned Depth = 16,
  parameter int unsigned CntW  = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] data_i,
  input  logic             pop_i,
  input  logic             clr_overflow_i,
  output logic [Width-1:0] head_o,
  output logic [CntW-1:0]  count_o,
  output logic [31:0]      overflow_o
);

  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  wr_q, rd_q;
  logic [CntW-1:0]  cnt_q;
  logic [31:0]      ovf_q;
  logic             full, empty, do_push, do_pop;

  assign full    = (cnt_q == CntW'(Depth));
  assign empty   = (cnt_q == '0);
  assign do_pop  = pop_i && !empty;
  assign do_push = push_i && (!full || do_pop);

  function automatic logic [PtrW-1:0] inc(input logic [PtrW-1:0] p);
    inc = (p == PtrW'(Depth - 1)) ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_q  <= '0;
      rd_q  <= '0;
      cnt_q <= '0;
      ovf_q <= '0;
    end else begin
      if (do_push) wr_q <= inc(wr_q);
      if (do_pop)  rd_q <= inc(rd_q);
      cnt_q <= cnt_q + CntW'(do_push) - CntW'(do_pop);
      if (clr_overflow_i) begin
        ovf_q <= {31'b0, push_i && !do_push};
      end else if (push_i && !do_push && ovf_q != '1) begin
        ovf_q <= ovf_q + 32'd1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wr_q] <= data_i;
  end

  assign head_o     = mem_q[rd_q];
  assign count_o    = cnt_q;
  assign overflow_o = ovf_q;

endmodule : mmu_fault_fifo
