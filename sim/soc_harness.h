// SPDX-License-Identifier: Apache-2.0
// What the two SoC harnesses share (sim_main.cpp for soc_top, uart_main.cpp
// for uart_soc): the options both take, the firmware image wb_ram reads at
// start-up, SIGINT/SIGTERM, the console and exit pins, and the closing
// lines. Each harness includes it from its one C++ file (it defines wb_ram's
// DPI import, gmmu_sim_ram_init_word).
#ifndef GMMU_SIM_SOC_HARNESS_H
#define GMMU_SIM_SOC_HARNESS_H

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "ddr_model.h"
#include "elf_image.h"
#include "gmmu/soc.h"

namespace soc_harness
{

// The options of both harnesses; each adds its own.
struct Options {
    std::string elf;
    std::string trace;       // FST path, empty = no trace
    uint64_t max_cycles = 0; // 0 = until exit or a signal
    unsigned ddr_latency = DDR_MODEL_DEFAULT_READ_LATENCY;
    unsigned ddr_size_mb = 256;
    uint32_t boot_arg = 0;
};

// Parses argv: the shared options here, the harness's own through
// own(option, next), which returns false for an option it does not know.
// next() returns the option's value (usage() when there is none). Verilator's
// +args are skipped; anything else unknown, or a second ELF, is usage().
template <class Own> void parse(int argc, char **argv, Options &o, Own own, void (*usage)())
{
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> const char * {
            if (i + 1 >= argc)
                usage();
            return argv[++i];
        };
        if (a == "--max-cycles")
            o.max_cycles = std::strtoull(next(), nullptr, 0);
        else if (a == "--ddr-latency")
            o.ddr_latency = (unsigned)std::strtoul(next(), nullptr, 0);
        else if (a == "--ddr-size-mb")
            o.ddr_size_mb = (unsigned)std::strtoul(next(), nullptr, 0);
        else if (a == "--boot-arg")
            o.boot_arg = (uint32_t)std::strtoul(next(), nullptr, 0);
        else if (a == "--trace")
            o.trace = next();
        else if (own(a, next))
            continue;
        else if (!a.empty() && a[0] == '+')
            continue; // Verilator's own +args
        else if (a[0] == '-' || !o.elf.empty())
            usage();
        else
            o.elf = a;
    }
}

// An ELF was named and the DDR model can be built as asked.
inline bool options_ok(const Options &o)
{
    return !o.elf.empty() && o.ddr_latency != 0 && o.ddr_size_mb != 0 && o.ddr_size_mb <= 1024;
}

inline std::vector<uint8_t> &ram_image()
{
    static std::vector<uint8_t> image(GMMU_RAM_SIZE);
    return image;
}

// The firmware ELF into the RAM image; false (after saying why) on failure.
inline bool load_firmware(const std::string &elf)
{
    char err[256];
    if (elf_image_load(elf.c_str(), ram_image().data(), ram_image().size(), GMMU_RAM_BASE, err,
                       sizeof err) != 0) {
        std::fprintf(stderr, "sim: %s\n", err);
        return false;
    }
    return true;
}

inline volatile std::sig_atomic_t g_stop = 0;

inline void on_signal(int)
{
    g_stop = 1;
}

// SIGINT and SIGTERM end the run at the next cycle (g_stop).
inline void catch_signals()
{
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
}

// The straps and the reset state before the first cycle.
template <class Top> void reset_inputs(Top &top, const Options &o)
{
    top.boot_arg_i = o.boot_arg;
    top.ddr_size_mb_i = o.ddr_size_mb;
    top.console_ready_i = 1;
    top.rst_ni = 0;
    top.clk_i = 0;
}

// When set, every console byte is also appended here (the fork server's
// copy of the boot transcript, sim_fork.h).
inline std::string *g_console_copy = nullptr;

// After the falling edge's eval: a console byte to stdout, SYSCTL.EXIT's code.
template <class Top> void console_and_exit(const Top &top, int &exit_code)
{
    if (top.console_valid_o) {
        std::fputc(top.console_data_o, stdout);
        if (g_console_copy)
            g_console_copy->push_back((char)top.console_data_o);
        if (top.console_data_o == '\n')
            std::fflush(stdout);
    }
    if (top.exit_valid_o)
        exit_code = (int)top.exit_code_o;
}

inline double seconds_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The process's CPU time: the speed on one core, whatever else the machine
// runs (wall-clock speed drops when the other core's jobs compete).
inline double cpu_seconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// cycles: the run's; from: the cycle this process started at (a copy
// forked from a booted simulator starts at the boot's end, sim_fork.h),
// the speeds are of this process's share.
inline void print_speed(uint64_t cycles, double secs, uint64_t from = 0)
{
    double cpu = cpu_seconds();
    double own = (double)(cycles - from);
    if (from)
        std::printf("sim: %llu cycles, %llu of them after the fork:", (unsigned long long)cycles,
                    (unsigned long long)(cycles - from));
    std::printf("%s%llu cycles in %.2f s (%.0f cycles/s); CPU %.2f s (%.0f cycles per CPU "
                "second)\n",
                from ? " " : "sim: ", (unsigned long long)(cycles - from), secs,
                secs > 0 ? own / secs : 0.0, cpu, cpu > 0 ? own / cpu : 0.0);
}

// The run's last line and the harness's exit status: signal_rc when a
// signal stopped it, 3 at the cycle limit, else 0 for exit code 0 and 1 for
// any other.
inline int finish(int exit_code, uint64_t max_cycles, int signal_rc)
{
    if (g_stop) {
        std::printf("sim: stopped by signal\n");
        return signal_rc;
    }
    if (exit_code < 0) {
        std::printf("sim: FAIL: cycle limit %llu reached without an exit code\n",
                    (unsigned long long)max_cycles);
        return 3;
    }
    std::printf("sim: firmware exit code %d (0x%x)\n", exit_code, exit_code);
    return exit_code == 0 ? 0 : 1;
}

} // namespace soc_harness

// Called by wb_ram's initial block: the RAM's start-up contents.
extern "C" unsigned int gmmu_sim_ram_init_word(unsigned int index)
{
    const std::vector<uint8_t> &image = soc_harness::ram_image();
    uint32_t w = 0;
    if ((size_t)index * 4 + 4 <= image.size())
        std::memcpy(&w, &image[index * 4], 4);
    return w;
}

#endif // GMMU_SIM_SOC_HARNESS_H
