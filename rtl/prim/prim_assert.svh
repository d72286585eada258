// SPDX-License-Identifier: Apache-2.0
// Assertion macros in the style of OpenTitan's prim_assert.svh: one line per
// property, a label that names it in the failure message, the clock and the
// disable condition as trailing arguments with defaults.
//
//   `ASSERT(name, prop [, clk, disable])          concurrent: prop holds at every edge
//   `ASSERT_NEVER(name, prop [, clk, disable])    prop never holds
//   `ASSERT_KNOWN(name, sig [, clk, disable])     no X or Z on sig
//   `ASSERT_KNOWN_IF(name, sig, en [, clk, disable])  no X or Z on sig while en
//   `ASSERT_I(name, expr)                        immediate: expr holds here (in a process)
//   `ASSERT_OFF(off [, clk, rst_n])              declares off, a disable for the above
//
// The defaults are clk_i and !rst_ni. Every flop of this design resets
// asynchronously, and Verilator's lint counts a `disable iff (!rst_ni)` as a
// synchronous use of the same net (SYNCASYNCNET), so the checkers of rtl/dv
// pass a flop of their own instead (reset asynchronously, set at the falling
// clock edge after reset ends): `ASSERT_OFF declares it, inverted, as the
// disable `off`, high from reset until the first rising edge after it.
//
// Under SYNTHESIS (Yosys defines it) every macro is empty, so RTL may use
// them. A failure is $error with the label: a Verilator model built with
// --assert stops there and exits non-zero (VerilatedContext's default
// fatalOnError aborts). Verilator is a two-state simulator, so the
// ASSERT_KNOWN family never fires under it; the checks are written for
// four-state simulators (Questa, VCS, Xcelium), where an X on a valid or on
// the data of a valid beat is the bug they catch.
`ifndef PRIM_ASSERT_SVH
`define PRIM_ASSERT_SVH

`define ASSERT_OFF(__off, __clk = clk_i, __rst_n = rst_ni) \
  logic __off``_active_q, __off; \
  always_ff @(negedge __clk or negedge __rst_n) begin \
    if (!__rst_n) __off``_active_q <= 1'b0; \
    else          __off``_active_q <= 1'b1; \
  end \
  assign __off = !__off``_active_q;

`ifdef SYNTHESIS

`define ASSERT(__name, __prop, __clk = clk_i, __dis = !rst_ni)
`define ASSERT_NEVER(__name, __prop, __clk = clk_i, __dis = !rst_ni)
`define ASSERT_KNOWN(__name, __sig, __clk = clk_i, __dis = !rst_ni)
`define ASSERT_KNOWN_IF(__name, __sig, __en, __clk = clk_i, __dis = !rst_ni)
`define ASSERT_I(__name, __prop)

`else

`define ASSERT(__name, __prop, __clk = clk_i, __dis = !rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (__dis) (__prop)) \
    else $error("[ASSERT FAILED] %s", `"__name`");

`define ASSERT_NEVER(__name, __prop, __clk = clk_i, __dis = !rst_ni) \
  `ASSERT(__name, !(__prop), __clk, __dis)

`define ASSERT_KNOWN(__name, __sig, __clk = clk_i, __dis = !rst_ni) \
  `ASSERT(__name, !$isunknown(__sig), __clk, __dis)

`define ASSERT_KNOWN_IF(__name, __sig, __en, __clk = clk_i, __dis = !rst_ni) \
  `ASSERT(__name, (__en) |-> !$isunknown(__sig), __clk, __dis)

`define ASSERT_I(__name, __prop) \
  __name: assert (__prop) else $error("[ASSERT FAILED] %s", `"__name`");

`endif

`endif // PRIM_ASSERT_SVH
