// SPDX-License-Identifier: Apache-2.0
// Test of prim_lowest_set: every input of each width below up to 20 bits
// (the wider ones, 32 as in the MMU ports' slot arbiters: every one-hot
// input, then random ones of every density, 2^20 in all), checked against a plain priority loop (the reference), in both of its
// forms: the tree that synthesis builds and the arithmetic form of the
// simulators built by Verilator. The empty input has no index by the reference; both
// forms must give the tree's (all ones, 0 for N = 1), so that the simulators and the
// hardware agree even where a caller looks at it.
// tools/mk/mmu.mk builds it with --binary --timing (t-mmu-lowest-set).
module lowest_set_tb;

  localparam int NWidths = 11;
  localparam int Widths [NWidths] = '{1, 2, 3, 5, 7, 8, 13, 16, 20, 24, 32};
  localparam int MaxInputs = 1 << 20;

  int errors [NWidths];
  int checked [NWidths];

  for (genvar w = 0; w < NWidths; w++) begin : gen_width
    localparam int unsigned N    = Widths[w];
    localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1;

    logic [N-1:0]    req;
    logic            any, tree_any;
    logic [IdxW-1:0] idx, tree_idx;

    prim_lowest_set #(.N(N), .IdxW(IdxW), .Tree(1'b0)) u_dut (
      .req_i (req),
      .any_o (any),
      .idx_o (idx)
    );

    prim_lowest_set #(.N(N), .IdxW(IdxW), .Tree(1'b1)) u_tree (
      .req_i (req),
      .any_o (tree_any),
      .idx_o (tree_idx)
    );

    initial begin
      errors[w]  = 0;
      checked[w] = 0;
      for (int v = 0; v < ((N <= 20) ? (1 << N) : MaxInputs); v++) begin
        logic            ref_any;
        logic [IdxW-1:0] ref_idx;
        if (N <= 20) req = N'(v);
        else if (v < int'(N)) req = N'(64'd1 << v);
        else begin
          // AND of 1 to 4 random words: densities from 1/2 down to 1/16.
          req = N'({$urandom, $urandom});
          for (int k = v % 4; k > 0; k--) req &= N'({$urandom, $urandom});
        end
        #1;
        ref_any = 1'b0;
        ref_idx = '0;
        for (int i = int'(N) - 1; i >= 0; i--) begin
          if (req[i]) begin
            ref_any = 1'b1;
            ref_idx = IdxW'(i);
          end
        end
        if (!ref_any) ref_idx = IdxW'((1 << $clog2(N)) - 1);
        if (any !== ref_any || idx !== ref_idx || tree_any !== ref_any || tree_idx !== ref_idx)
        begin
          if (errors[w] < 5) begin
            $display("lowest_set N=%0d: input %b gave any=%b idx=%0d (tree: %b %0d), expected any=%b idx=%0d",
                     N, req, any, idx, tree_any, tree_idx, ref_any, ref_idx);
          end
          errors[w]++;
        end
        checked[w]++;
      end
    end
  end

  initial begin
    int total_errors;
    #(MaxInputs + 2);
    total_errors = 0;
    for (int w = 0; w < NWidths; w++) begin
      $display("lowest_set N=%0d: %0d inputs checked, %0d wrong", Widths[w], checked[w], errors[w]);
      total_errors += errors[w];
      if (checked[w] != ((Widths[w] <= 20) ? (1 << Widths[w]) : MaxInputs)) total_errors++;
    end
    if (total_errors != 0) $fatal(1, "lowest_set: FAIL");
    $display("lowest_set: PASS");
    $finish;
  end

endmodule : lowest_set_tb
