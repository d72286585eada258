// SPDX-License-Identifier: Apache-2.0
// Exhaustive test of prim_lowest_set: every input of each width below,
// checked against a plain priority loop (the reference).
// tools/mk/mmu.mk builds it with --binary --timing (t-mmu-lowest-set).
module lowest_set_tb;

  localparam int NWidths = 8;
  localparam int Widths [NWidths] = '{1, 2, 3, 5, 7, 8, 13, 16};

  int errors [NWidths];
  int checked [NWidths];

  for (genvar w = 0; w < NWidths; w++) begin : gen_width
    localparam int unsigned N    = Widths[w];
    localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1;

    logic [N-1:0]    req;
    logic            any;
    logic [IdxW-1:0] idx;

    prim_lowest_set #(.N(N), .IdxW(IdxW)) u_dut (
      .req_i (req),
      .any_o (any),
      .idx_o (idx)
    );

    initial begin
      errors[w]  = 0;
      checked[w] = 0;
      for (int v = 0; v < (1 << N); v++) begin
        logic            ref_any;
        logic [IdxW-1:0] ref_idx;
        req = N'(v);
        #1;
        ref_any = 1'b0;
        ref_idx = '0;
        for (int i = int'(N) - 1; i >= 0; i--) begin
          if (req[i]) begin
            ref_any = 1'b1;
            ref_idx = IdxW'(i);
          end
        end
        // The index is defined only when some bit is set.
        if (any !== ref_any || (ref_any && idx !== ref_idx)) begin
          if (errors[w] < 5) begin
            $display("lowest_set N=%0d: input %b gave any=%b idx=%0d, expected any=%b idx=%0d",
                     N, req, any, idx, ref_any, ref_idx);
          end
          errors[w]++;
        end
        checked[w]++;
      end
    end
  end

  initial begin
    int total_errors;
    #((1 << 16) + 2);
    total_errors = 0;
    for (int w = 0; w < NWidths; w++) begin
      $display("lowest_set N=%0d: %0d inputs checked, %0d wrong", Widths[w], checked[w], errors[w]);
      total_errors += errors[w];
      if (checked[w] != (1 << Widths[w])) total_errors++;
    end
    if (total_errors != 0) $fatal(1, "lowest_set: FAIL");
    $display("lowest_set: PASS");
    $finish;
  end

endmodule : lowest_set_tb
