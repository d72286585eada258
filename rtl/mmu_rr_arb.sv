// Round-robin arbiter.
//
// Grants one of N requests each cycle, starting the search just after the
// request granted last, so every requester that keeps asking is served
// within N grants. The grant is combinational from req_i; the pointer moves
// only when the caller reports that the grant was taken (take_i), so a
// grant that was not taken is offered again.
module mmu_rr_arb #(
  parameter int unsigned N    = 4,
  parameter int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic            take_i,   // the granted request was served this cycle
  output logic            gnt_valid_o,
  output logic [IdxW-1:0] gnt_idx_o
);

  logic [IdxW-1:0] last_q;
  logic [IdxW:0]   cand;

  // The last assignment wins, so searching from the farthest candidate to
  // the nearest leaves the nearest requester after last_q.
  always_comb begin
    gnt_idx_o = last_q;
    cand      = '0;
    for (int k = N; k >= 1; k--) begin
      cand = {1'b0, last_q} + (IdxW+1)'(k);
      if (cand >= (IdxW+1)'(N)) cand = cand - (IdxW+1)'(N);
      if (req_i[cand[IdxW-1:0]]) gnt_idx_o = cand[IdxW-1:0];
    end
  end

  assign gnt_valid_o = |req_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= IdxW'(N - 1);
    end else if (take_i && gnt_valid_o) begin
      last_q <= gnt_idx_o;
    end
  end

endmodule : mmu_rr_arb
