// Index of the lowest set bit of a vector (a fixed-priority encoder).
//
// The lowest set bit is isolated with one addition (v & -v, a carry chain on
// ECP5 and Xilinx) and its index built with one OR per index bit, so the
// depth grows with log2(N) instead of the N-deep chain of "if (v[i])"
// assignments that a priority loop becomes. Combinational.
module mmu_lowest_set #(
  parameter int unsigned N    = 16,
  parameter int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic [N-1:0]    req_i,
  output logic            any_o,
  output logic [IdxW-1:0] idx_o
);

  logic [N-1:0] first;

  assign first = req_i & (~req_i + N'(1));
  assign any_o = |req_i;

  always_comb begin
    idx_o = '0;
    for (int i = 0; i < N; i++) begin
      if (first[i]) idx_o = idx_o | IdxW'(i);
    end
  end

endmodule : mmu_lowest_set
