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
module prim_lowest_set #(
  parameter int unsigned N    = 16,
  parameter int unsigned IdxW = (N > 1) ? $clog2(N) : 1
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
