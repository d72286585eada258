// SPDX-License-Identifier: Apache-2.0
// The part of a testbench's Verilator shell (tests/engine, mmu, paging, cdc)
// that does not depend on the model's ports: the context, the model and its
// FST trace, built and finished in one order, the clock and the reset, so
// that a trace request or a reset means the same thing in every testbench.
// A shell's struct derives from VlModel (tests/cdc: two clocks, its own
// edges), VlClocked (one clk_i and rst_ni) or VlDdrClocked (and a DDR model
// on the same clock), and keeps its own pin copying.
#ifndef GMMU_TESTS_COMMON_VL_HARNESS_H
#define GMMU_TESTS_COMMON_VL_HARNESS_H

#include <cstdint>
#include <memory>

#include "ddr_model.h"
#include "fst_trace.h"
#include "vl_env.h"
#include "verilated.h"

template <class Top> struct VlModel {
    std::unique_ptr<VerilatedContext> ctx = std::make_unique<VerilatedContext>();
    std::unique_ptr<Top> top;
    FstTrace fst;

    // Builds the model; context settings (assertOn) go before, in the
    // shell's constructor. False when the trace file cannot be opened.
    bool open(const char *trace_path)
    {
        vl_env_apply(*ctx);
        FstTrace::prepare(*ctx, trace_path);
        top = std::make_unique<Top>(ctx.get());
        return fst.open(*top, trace_path);
    }

    void close()
    {
        fst.close();
        top->final();
    }
};

// A new shell with its model built; nullptr when the trace cannot be opened.
template <class D> D *vl_create(const char *trace_path)
{
    D *d = new D;
    if (!d->open(trace_path)) {
        delete d;
        return nullptr;
    }
    return d;
}

template <class D> void vl_destroy(D *d)
{
    if (!d)
        return;
    d->close();
    delete d;
}

// One clock: a cycle is the shell setting the inputs, eval_low(), the test
// sampling the outputs, then tick(). The trace gets both halves.
template <class Top> struct VlClocked : VlModel<Top> {
    uint64_t cycle = 0; // rising edges so far

    void eval_low()
    {
        this->top->clk_i = 0;
        this->top->eval();
        this->fst.dump(2 * cycle);
    }

    void rise()
    {
        this->top->clk_i = 1;
        this->top->eval();
        this->fst.dump(2 * cycle + 1);
        cycle++;
    }

    void tick()
    {
        rise();
    }

    void after_reset()
    {
    }
};

// The model's AXI master wired to a DDR model through pins: the DDR model
// takes the same rising edge and leaves reset with the RTL.
template <class Top> struct VlDdrClocked : VlClocked<Top> {
    ddr_model *ddr = nullptr;
    axi4_pins pins{};

    void tick()
    {
        ddr_model_clock(ddr, &pins);
        this->rise();
    }

    void after_reset()
    {
        ddr_model_reset(ddr);
    }
};

// rst_ni low for four cycles of the shell's dut_eval with idle inputs (Io
// zeroed), then released.
template <class Io, class D> void vl_reset(D *d)
{
    Io io{};
    d->top->rst_ni = 0;
    for (int i = 0; i < 4; i++) {
        dut_eval(d, &io);
        d->tick();
    }
    d->top->rst_ni = 1;
    d->after_reset();
}

#endif /* GMMU_TESTS_COMMON_VL_HARNESS_H */
