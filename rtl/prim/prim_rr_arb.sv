// Round-robin arbiter.
//
// Grants one of N requests each cycle, starting the search just after the
// request granted last, so every requester that keeps asking is served
// within N grants. The grant is combinational from req_i (two fixed-priority
// encoders and a 2:1 choice); the pointer moves
// only when the caller reports that the grant was taken (take_i), so a
// grant that was not taken is offered again.
module prim_rr_arb #(
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
  logic [N-1:0]    after_last;   // the requests after last_q, in index order
  logic            after_any;
  logic [IdxW-1:0] after_idx, first_idx;

  // The nearest requester after last_q is the lowest request above it, or,
  // if there is none, the lowest request of all: two encoders side by side
  // (prim_lowest_set) rather than an N-step search.
  always_comb begin
    for (int i = 0; i < N; i++) after_last[i] = req_i[i] && (IdxW'(i) > last_q);
  end

  prim_lowest_set #(.N(N), .IdxW(IdxW)) u_after (
    .req_i (after_last),
    .any_o (after_any),
    .idx_o (after_idx)
  );

  prim_lowest_set #(.N(N), .IdxW(IdxW)) u_first (
    .req_i (req_i),
    .any_o (gnt_valid_o),
    .idx_o (first_idx)
  );

  assign gnt_idx_o = after_any ? after_idx : first_idx;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= IdxW'(N - 1);
    end else if (take_i && gnt_valid_o) begin
      last_q <= gnt_idx_o;
    end
  end

endmodule : prim_rr_arb
