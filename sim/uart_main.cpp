// SPDX-License-Identifier: Apache-2.0
// Verilator harness for uart_soc (boards/common/uart_soc.sv): the SoC with
// its UART host link. A thin shell like sim_main.cpp: it loads the firmware
// ELF into the RAM image, connects the AXI4 DDR port to the DDR model and
// the serial pins to a pseudo-terminal (sim/uart_line.c), which a host opens
// as "uart:/dev/pts/N" (or through the --uart-link symlink).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vuart_soc.h"
#include "verilated.h"
#include "fst_trace.h"
#include "vl_env.h"

#include "ddr_model.h"
#include "ddr_pins.h"
#include "gmmu/soc.h"
#include "soc_harness.h"
#include "uart_line.h"

#ifndef UART_CLK_DIV
#error "build with -DUART_CLK_DIV=<the uart_soc ClkDiv parameter>"
#endif

namespace
{

struct Options : soc_harness::Options {
    std::string link;  // symlink to the pty slave, empty = none
    std::string clock; // simulated clock file for the host, empty = none
    double error_rate = 0.0;
    uint64_t seed = 1;
};

void usage()
{
    std::fprintf(stderr,
                 "usage: Vuart_soc [--max-cycles N] [--ddr-latency N] [--ddr-size-mb N]\n"
                 "                 [--boot-arg N] [--trace FILE.fst] [--uart-link PATH]\n"
                 "                 [--uart-error-rate P] [--uart-seed N] [--uart-clock FILE]\n"
                 "                 FIRMWARE.elf\n"
                 "Serves the UART host link on a pty until the firmware exits, the cycle\n"
                 "limit passes (0: none, the default) or SIGINT/SIGTERM. --uart-error-rate\n"
                 "damages each byte on the line with probability P (flip, bad stop bit, drop).\n"
                 "--uart-clock publishes the simulated cycles for the host's link timers\n"
                 "(\"uart:PTY,simclock=FILE\", docs/uart-link.md).\n");
    std::exit(2);
}

Options parse(int argc, char **argv)
{
    Options o;
    auto own = [&](const std::string &a, auto next) {
        if (a == "--uart-link")
            o.link = next();
        else if (a == "--uart-clock")
            o.clock = next();
        else if (a == "--uart-error-rate")
            o.error_rate = std::strtod(next(), nullptr);
        else if (a == "--uart-seed")
            o.seed = std::strtoull(next(), nullptr, 0);
        else
            return false;
        return true;
    };
    soc_harness::parse(argc, argv, o, own, usage);
    if (!soc_harness::options_ok(o) || !(o.error_rate >= 0.0 && o.error_rate <= 1.0))
        usage();
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    if (!soc_harness::load_firmware(opt.elf))
        return 2;

    uart_line_config lcfg{};
    lcfg.clk_div = UART_CLK_DIV;
    lcfg.error_rate = opt.error_rate;
    lcfg.seed = opt.seed;
    lcfg.clock_path = opt.clock.empty() ? nullptr : opt.clock.c_str();
    uart_line *line = uart_line_open(&lcfg, opt.link.empty() ? nullptr : opt.link.c_str());
    if (!line) {
        std::fprintf(stderr, "sim: cannot open the pty%s%s or the clock file: %s\n",
                     opt.link.empty() ? "" : " link ", opt.link.c_str(), std::strerror(errno));
        return 2;
    }
    std::printf("sim: UART host link on %s%s%s (%u cycles per bit, error rate %g, seed %llu)\n",
                uart_line_slave_name(line), opt.link.empty() ? "" : " via ", opt.link.c_str(),
                (unsigned)UART_CLK_DIV, opt.error_rate, (unsigned long long)opt.seed);
    std::fflush(stdout);

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    vl_env_apply(*ctx);
    const char *trace_path = opt.trace.empty() ? nullptr : opt.trace.c_str();
    FstTrace::prepare(*ctx, trace_path);
    auto top = std::make_unique<Vuart_soc>(ctx.get());
    FstTrace fst;
    if (!fst.open(*top, trace_path))
        return 2;
    soc_harness::catch_signals();

    ddr_model_config cfg{};
    cfg.size_bytes = (uint64_t)opt.ddr_size_mb << 20;
    cfg.read_latency = opt.ddr_latency;
    ddr_model *ddr = ddr_model_create(&cfg);
    axi4_pins pins{};

    soc_harness::reset_inputs(*top, opt);
    top->uart_rx_i = 1;

    uint64_t link_reqs = 0, link_naks = 0, link_drops = 0;
    auto wall_start = std::chrono::steady_clock::now();
    uint64_t cycle = 0;
    int exit_code = -1;
    for (; (opt.max_cycles == 0 || cycle < opt.max_cycles) && exit_code < 0 && !soc_harness::g_stop;
         cycle++) {
        if (cycle == 8)
            top->rst_ni = 1;
        top->clk_i = 0;
        ddr_model_drive(ddr, &pins);
        drive_ddr_inputs(*top, pins);
        top->uart_rx_i = uart_line_drive(line);
        top->eval();
        fst.dump(2 * cycle);
        sample_ddr_outputs(*top, pins);
        soc_harness::console_and_exit(*top, exit_code);
        link_reqs += top->link_req_o;
        link_naks += top->link_nak_o;
        link_drops += top->link_drop_o;
        ddr_model_clock(ddr, &pins);
        uart_line_sample(line, top->uart_tx_o);
        top->clk_i = 1;
        top->eval();
        fst.dump(2 * cycle + 1);
    }
    std::fflush(stdout);
    double secs = soc_harness::seconds_since(wall_start);

    uart_line_stats ls{};
    uart_line_get_stats(line, &ls);
    soc_harness::print_speed(cycle, secs);
    std::printf("sim: uart bytes host->device %llu, device->host %llu; injected: %llu flipped, "
                "%llu bad stop bits, %llu dropped\n",
                (unsigned long long)ls.host_to_dev_bytes, (unsigned long long)ls.dev_to_host_bytes,
                (unsigned long long)ls.flipped, (unsigned long long)ls.broken_stop,
                (unsigned long long)ls.dropped);
    std::printf("sim: uart bridge: %llu requests run, %llu NAKs sent, %llu requests dropped busy; "
                "line: %llu device framing errors, %llu pty overflow\n",
                (unsigned long long)link_reqs, (unsigned long long)link_naks,
                (unsigned long long)link_drops, (unsigned long long)ls.dev_framing_errors,
                (unsigned long long)ls.pty_overflow);
    fst.close();
    top->final();
    ddr_model_destroy(ddr);
    uart_line_close(line);
    return soc_harness::finish(exit_code, opt.max_cycles, ls.dev_framing_errors ? 1 : 0);
}
