// SPDX-License-Identifier: Apache-2.0
// Round-robin arbiter: the one round-robin choice of the design (the MMU's
// ports, walkers and fault records, the SoC's AXI4 and Wishbone arbiters).
//
// Grants one of N requests each cycle, starting the search just after the
// request granted last, so every requester that keeps asking is served
// within N grants. The grant is combinational from req_i (two fixed-priority
// encoders and a 2:1 choice); the pointer moves only when the caller
// reports that the grant was taken (take_i), so a grant that was not taken
// is offered again. A caller that holds a grant over several cycles (a
// Wishbone cycle, an AXI4 write burst) keeps the owner itself and takes
// the grant only when it starts.
//
// With no request, gnt_valid_o is low and gnt_idx_o is unspecified (out of
// range when N is not a power of two), unless IdleLast: then gnt_idx_o
// names the last winner, an index a caller may select a master's signals
// and route a ready by even when no one asks.
module prim_rr_arb #(
  parameter int unsigned N        = 4,
  parameter int unsigned IdxW     = (N > 1) ? $clog2(N) : 1,
  parameter bit          IdleLast = 1'b0
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
  logic [N-1:0]    first_req;    // what the wrap-around encoder sees
  logic            after_any, first_any;
  logic [IdxW-1:0] after_idx, first_idx;

  // The nearest requester after last_q is the lowest request above it, or,
  // if there is none, the lowest request of all: two encoders side by side
  // (prim_lowest_set) rather than an N-step search. With IdleLast the
  // wrap-around encoder also sees last_q: when there are requests but none
  // above last_q, the lowest of them is at or below last_q, so adding
  // last_q does not change the choice; with none, it is last_q.
  always_comb begin
    for (int i = 0; i < N; i++) begin
      after_last[i] = req_i[i] && (IdxW'(i) > last_q);
      first_req[i]  = req_i[i] || (IdleLast && (IdxW'(i) == last_q));
    end
  end

  prim_lowest_set #(.N(N), .IdxW(IdxW)) u_after (
    .req_i (after_last),
    .any_o (after_any),
    .idx_o (after_idx)
  );

  prim_lowest_set #(.N(N), .IdxW(IdxW)) u_first (
    .req_i (first_req),
    .any_o (first_any),
    .idx_o (first_idx)
  );

  if (IdleLast) begin : gen_idle_last
    assign gnt_valid_o = |req_i;
    logic unused_first_any;
    assign unused_first_any = first_any;
  end else begin : gen_idle_any
    assign gnt_valid_o = first_any;
  end

  assign gnt_idx_o = after_any ? after_idx : first_idx;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= IdxW'(N - 1);
    end else if (take_i && gnt_valid_o) begin
      last_q <= gnt_idx_o;
    end
  end

endmodule : prim_rr_arb
