// SPDX-License-Identifier: Apache-2.0
// A bus of top-level inputs as the logic behind it sees them, held in a
// register that a simulator updates only when the bus has changed.
//
// A verilated model evaluates every piece of logic that depends on a
// top-level input at each call of its eval(), twice a cycle, whether the
// input changed or not. Behind this sample the logic depends on a register
// instead, and runs only in the time steps the register is written: the
// DDR model's response pins, which are idle most cycles, no longer cost the
// whole interconnect and every master's response logic a pass per eval.
//
// Timing: the harnesses set inputs while clk_i is low, and the register
// takes a changed bus in that same time step (clk_i low), so q_o equals
// d_i at every rising edge of clk_i and whenever the harness reads the
// outputs: the logic behind it sees no difference. Inputs driven by logic
// on the rising edge (a wrapper's flip-flops) are taken at the next low
// phase, before the next rising edge, which is also where that logic would
// first see them.
//
// Only the Verilator build holds the bus; for synthesis q_o is d_i. A
// verilated model run with the plusarg +no_clock_gate (prim_sim_clock_gate)
// takes the bus at every falling edge, changed or not.
module prim_sim_input_sample #(
  parameter int unsigned Width = 1
) (
  input  logic             clk_i,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);

`ifdef VERILATOR
  logic [Width-1:0] held_q;
  logic             take;
  bit               every_cycle;

  initial every_cycle = $test$plusargs("no_clock_gate");

  // q_o is the register alone: a path from d_i would put the logic behind
  // it back among the inputs' logic.
  assign take = !clk_i && (every_cycle || d_i != held_q);

  always_ff @(posedge take) held_q <= d_i;

  assign q_o = held_q;
`else
  assign q_o = d_i;

  logic unused;
  assign unused = clk_i;
`endif

endmodule : prim_sim_input_sample
