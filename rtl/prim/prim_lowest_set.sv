// SPDX-License-Identifier: Apache-2.0
// Index of the lowest set bit of a vector (a fixed-priority encoder).
//
// A tree of 2-to-1 choices: each node takes its lower half's index if that
// half has a bit set, else its upper half's with the node's index bit set.
// Its depth is log2(N) choices, which synthesis folds into few LUT levels
// (two for N = 8 on LUT4s), rather than the N-deep chain of "if (v[i])"
// assignments that a priority loop becomes, or the carry chain of an
// isolate-the-lowest-bit add (v & -v) and its routing into and out of the
// chain (which an earlier form used: the L1's hit encoder then made
// fmax-mmu's critical path). Combinational.
//
// Built by Verilator, the encoder takes the arithmetic form (Tree = 0): isolate the
// lowest set bit (v & -v), then each index bit is the OR of the positions
// that have it. It is the same function, the empty input included (both
// give the tree's all-ones value), in a few word operations where the tree
// costs Verilator a statement per node: with a 20-bit encoder in every MMU
// port's arbiters the tree was a tenth of the SoC simulator's time.
// t-mmu-lowest-set checks both forms against a priority loop on every
// input, so the form synthesis sees stays checked too.
`ifdef VERILATOR
`define PRIM_LOWEST_SET_TREE 1'b0
`else
`define PRIM_LOWEST_SET_TREE 1'b1
`endif
module prim_lowest_set #(
  parameter int unsigned N    = 16,
  parameter int unsigned IdxW = (N > 1) ? $clog2(N) : 1,
  parameter bit          Tree = `PRIM_LOWEST_SET_TREE
) (
  input  logic [N-1:0]    req_i,
  output logic            any_o,
  output logic [IdxW-1:0] idx_o
);

  localparam int unsigned Levels = (N > 1) ? $clog2(N) : 0;
  localparam int unsigned P      = 1 << Levels;

  if (Levels == 0) begin : gen_one
    assign any_o = req_i[0];
    assign idx_o = '0;
  end else if (!Tree) begin : gen_arith
    // Positions whose index has bit b set, for each b.
    function automatic logic [N-1:0] has_bit(input int unsigned b);
      for (int unsigned i = 0; i < N; i++) has_bit[i] = ((i >> b) & 32'd1) != 0;
    endfunction

    logic [N-1:0] lowest;
    assign lowest = req_i & (~req_i + N'(1));
    assign any_o  = |req_i;
    always_comb begin
      idx_o = '0;
      for (int unsigned b = 0; b < Levels; b++) idx_o[b] = |(lowest & has_bit(b));
      // The tree's answer to an empty input: every node took its upper half.
      if (!any_o) idx_o = IdxW'(P - 1);
    end
  end else begin : gen_tree
    // Node j of a level is written from nodes 2j and 2j+1 of the level
    // below, in place: j < 2j, so every node is read before it is
    // overwritten.
    logic [P-1:0]    any_n;
    logic [IdxW-1:0] idx_n [P];

    always_comb begin
      any_n = P'(req_i);
      for (int j = 0; j < P; j++) idx_n[j] = '0;
      for (int l = 0; l < Levels; l++) begin
        for (int j = 0; j < (P >> (l + 1)); j++) begin
          idx_n[j] = any_n[2*j] ? idx_n[2*j] : (idx_n[2*j+1] | IdxW'(1 << l));
          any_n[j] = any_n[2*j] | any_n[2*j+1];
        end
      end
      any_o = any_n[0];
      idx_o = idx_n[0];
    end
  end

endmodule : prim_lowest_set

`undef PRIM_LOWEST_SET_TREE
