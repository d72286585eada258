// SPDX-License-Identifier: Apache-2.0
// A clock for a block that may skip the edges at which none of its flops
// would change, so that a simulator does no work for it while it is idle.
//
// A verilated model evaluates a block's sequential and combinational logic
// only when an edge of a clock it depends on fires, so a block clocked by
// clk_o costs nothing at the edges this gate drops. The caller's active_i must be
// high in every cycle after whose edge some flop of the block could change:
// when it has work in hand, or an input that can change its state is
// asserted. After active_i falls the clock keeps running for Hold more
// edges, so pipelines that settle a few cycles after the last activity
// (registered acknowledges, event pulses, copies of stable values) need not
// be named in active_i. A block gated this way behaves cycle for cycle as
// the same block on clk_i: t-clock-gate runs the MMU's random suite with
// and without gating and compares every response and its cycle.
//
// Only the Verilator build gates: it is a simulation-speed device. For
// synthesis clk_o is clk_i and the enable logic is left unused, so the gate
// costs no LUT or flip-flop on a board. A verilated model run with the
// plusarg +no_clock_gate (the harnesses add it when GMMU_NO_CLOCK_GATE=1 is
// in their environment, sim/vl_env.h) keeps every edge, for comparing the
// two.
//
// Timing: the enable passes a latch that is open while clk_i is low, after
// the rising edge's state and the inputs of the cycle have settled (the
// harnesses set inputs with clk_i low), and holds through the high phase,
// as a latch-based integrated clock gate does, so clk_o has no glitch: its
// rising edge is clk_i's, in the same time step.
module prim_sim_clock_gate #(
  parameter int unsigned Hold = 8  // extra edges after active_i falls, 1..255
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic active_i,
  output logic clk_o
);

`ifdef VERILATOR
  logic [7:0] hold_q;
  logic       enable, enable_q;
  bit         keep_every_edge;

  initial keep_every_edge = $test$plusargs("no_clock_gate");

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) hold_q <= 8'(Hold);
    else         hold_q <= active_i ? 8'(Hold) : hold_q - 8'(hold_q != '0);
  end

  // In reset every edge passes, so blocks with synchronous resets see them.
  assign enable = keep_every_edge || !rst_ni || active_i || (hold_q != '0);

  // Open while clk_i is low, so it also follows what changes in the falling
  // edge's time step after the edge itself (prim_sim_input_sample).
  always_latch begin
    if (!clk_i) enable_q = enable;
  end

  assign clk_o = clk_i & enable_q;
`else
  assign clk_o = clk_i;

  logic unused;
  assign unused = ^{rst_ni, active_i, 8'(Hold)};
`endif

endmodule : prim_sim_clock_gate
