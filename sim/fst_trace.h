// SPDX-License-Identifier: Apache-2.0
// FST waveforms for the Verilator harnesses (SoC, UART SoC, MMU and engine
// testbenches). Trace code is compiled in only with `make VL_TRACE=1`
// (Verilator's --trace-fst): it is about a third of a verilated SoC's
// generated code, and no test needs it. A harness built without it refuses
// a trace request instead of silently writing nothing.
#ifndef GMMU_SIM_FST_TRACE_H
#define GMMU_SIM_FST_TRACE_H

#include <verilated.h>
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include <cstdint>
#include <cstdio>
#include <memory>

class FstTrace
{
  public:
    // Before the model is constructed: Verilator sizes its trace hooks then.
    static void prepare(VerilatedContext &ctx, const char *path)
    {
        ctx.traceEverOn(path != nullptr);
    }

    // No path: no trace, true. Otherwise true once the file is open.
    template <class Model> bool open(Model &top, const char *path)
    {
        if (path == nullptr)
            return true;
#if VM_TRACE
        fst_ = std::make_unique<VerilatedFstC>();
        top.trace(fst_.get(), 99);
        fst_->open(path);
        return fst_->isOpen();
#else
        (void)top;
        std::fprintf(
            stderr,
            "%s: this simulator was built without traces; rebuild it with make VL_TRACE=1\n", path);
        return false;
#endif
    }

    void dump(uint64_t time)
    {
#if VM_TRACE
        if (fst_)
            fst_->dump(time);
#else
        (void)time;
#endif
    }

    void close()
    {
#if VM_TRACE
        if (fst_)
            fst_->close();
        fst_.reset();
#endif
    }

    ~FstTrace()
    {
        close();
    }

  private:
#if VM_TRACE
    std::unique_ptr<VerilatedFstC> fst_;
#endif
};

#endif
