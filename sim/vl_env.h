// SPDX-License-Identifier: Apache-2.0
// Settings of a verilated model's context that every harness (the SoC
// simulators and the testbench shells) takes from its environment, before
// the model is built.
//
//   GMMU_NO_CLOCK_GATE=1  the plusarg +no_clock_gate: every gated block
//                         keeps every clock edge and the held inputs are
//                         taken every cycle (rtl/prim/prim_sim_clock_gate.sv,
//                         prim_sim_input_sample.sv), so a run can be
//                         compared with its gated twin.
#ifndef GMMU_SIM_VL_ENV_H
#define GMMU_SIM_VL_ENV_H

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "verilated.h"

inline void vl_env_apply(VerilatedContext &ctx)
{
    // Always called, with no argument too: the RTL's $test$plusargs needs
    // the context's arguments loaded, and a testbench shell loads none.
    static const char *args[] = { "+no_clock_gate" };
    const char *no_gate = std::getenv("GMMU_NO_CLOCK_GATE");
    bool off = no_gate && !std::strcmp(no_gate, "1");
    ctx.commandArgsAdd(off ? 1 : 0, args);
    if (off)
        std::fprintf(stderr, "vl_env: clock gating off (GMMU_NO_CLOCK_GATE=1)\n");
}

#endif /* GMMU_SIM_VL_ENV_H */
