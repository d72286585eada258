// SPDX-License-Identifier: Apache-2.0
// Verilator harness for uart_soc (boards/common/uart_soc.sv): the SoC with
// its UART host link. A thin shell like sim_main.cpp: it loads the firmware
// ELF into the RAM image, connects the AXI4 DDR port to the DDR model and
// the serial pins to a pseudo-terminal (sim/uart_line.c), which a host opens
// as "uart:/dev/pts/N" (or through the --uart-link symlink).
#include <chrono>
#include <csignal>
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

#include "ddr_model.h"
#include "ddr_pins.h"
#include "elf_image.h"
#include "gmmu/soc.h"
#include "uart_line.h"

#ifndef UART_CLK_DIV
#error "build with -DUART_CLK_DIV=<the uart_soc ClkDiv parameter>"
#endif

namespace
{

struct Options {
    std::string elf;
    std::string trace;
    std::string link;        // symlink to the pty slave, empty = none
    uint64_t max_cycles = 0; // 0 = until exit or a signal
    unsigned ddr_latency = DDR_MODEL_DEFAULT_READ_LATENCY;
    unsigned ddr_size_mb = 256;
    uint32_t boot_arg = 0;
    double error_rate = 0.0;
    uint64_t seed = 1;
};

std::vector<uint8_t> g_ram_image(GMMU_RAM_SIZE);
volatile std::sig_atomic_t g_stop = 0;

void on_signal(int)
{
    g_stop = 1;
}

void usage()
{
    std::fprintf(stderr,
                 "usage: Vuart_soc [--max-cycles N] [--ddr-latency N] [--ddr-size-mb N]\n"
                 "                 [--boot-arg N] [--trace FILE.fst] [--uart-link PATH]\n"
                 "                 [--uart-error-rate P] [--uart-seed N] FIRMWARE.elf\n"
                 "Serves the UART host link on a pty until the firmware exits, the cycle\n"
                 "limit passes (0: none, the default) or SIGINT/SIGTERM. --uart-error-rate\n"
                 "damages each byte on the line with probability P (flip, bad stop bit, drop).\n");
    std::exit(2);
}

Options parse(int argc, char **argv)
{
    Options o;
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
        else if (a == "--uart-link")
            o.link = next();
        else if (a == "--uart-error-rate")
            o.error_rate = std::strtod(next(), nullptr);
        else if (a == "--uart-seed")
            o.seed = std::strtoull(next(), nullptr, 0);
        else if (!a.empty() && a[0] == '+')
            continue;
        else if (a[0] == '-' || !o.elf.empty())
            usage();
        else
            o.elf = a;
    }
    if (o.elf.empty() || o.ddr_latency == 0 || o.ddr_size_mb == 0 || o.ddr_size_mb > 1024 ||
        !(o.error_rate >= 0.0 && o.error_rate <= 1.0))
        usage();
    return o;
}

} // namespace

// Called by wb_ram's initial block: the RAM's start-up contents.
extern "C" unsigned int gmmu_sim_ram_init_word(unsigned int index)
{
    uint32_t w = 0;
    if ((size_t)index * 4 + 4 <= g_ram_image.size())
        std::memcpy(&w, &g_ram_image[index * 4], 4);
    return w;
}

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    char err[256];
    if (elf_image_load(opt.elf.c_str(), g_ram_image.data(), g_ram_image.size(), GMMU_RAM_BASE, err,
                       sizeof err) != 0) {
        std::fprintf(stderr, "sim: %s\n", err);
        return 2;
    }

    uart_line_config lcfg{};
    lcfg.clk_div = UART_CLK_DIV;
    lcfg.error_rate = opt.error_rate;
    lcfg.seed = opt.seed;
    uart_line *line = uart_line_open(&lcfg, opt.link.empty() ? nullptr : opt.link.c_str());
    if (!line) {
        std::fprintf(stderr, "sim: cannot open the pty%s%s: %s\n", opt.link.empty() ? "" : " link ",
                     opt.link.c_str(), std::strerror(errno));
        return 2;
    }
    std::printf("sim: UART host link on %s%s%s (%u cycles per bit, error rate %g, seed %llu)\n",
                uart_line_slave_name(line), opt.link.empty() ? "" : " via ", opt.link.c_str(),
                (unsigned)UART_CLK_DIV, opt.error_rate, (unsigned long long)opt.seed);
    std::fflush(stdout);

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    const char *trace_path = opt.trace.empty() ? nullptr : opt.trace.c_str();
    FstTrace::prepare(*ctx, trace_path);
    auto top = std::make_unique<Vuart_soc>(ctx.get());
    FstTrace fst;
    if (!fst.open(*top, trace_path))
        return 2;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);

    ddr_model_config cfg{};
    cfg.size_bytes = (uint64_t)opt.ddr_size_mb << 20;
    cfg.read_latency = opt.ddr_latency;
    ddr_model *ddr = ddr_model_create(&cfg);
    axi4_pins pins{};

    top->boot_arg_i = opt.boot_arg;
    top->ddr_size_mb_i = opt.ddr_size_mb;
    top->console_ready_i = 1;
    top->uart_rx_i = 1;
    top->rst_ni = 0;
    top->clk_i = 0;

    uint64_t link_reqs = 0, link_naks = 0, link_drops = 0;
    auto wall_start = std::chrono::steady_clock::now();
    uint64_t cycle = 0;
    int exit_code = -1;
    for (; (opt.max_cycles == 0 || cycle < opt.max_cycles) && exit_code < 0 && !g_stop; cycle++) {
        if (cycle == 8)
            top->rst_ni = 1;
        top->clk_i = 0;
        ddr_model_drive(ddr, &pins);
        drive_ddr_inputs(*top, pins);
        top->uart_rx_i = uart_line_drive(line);
        top->eval();
        fst.dump(2 * cycle);
        sample_ddr_outputs(*top, pins);
        if (top->console_valid_o) {
            std::fputc(top->console_data_o, stdout);
            if (top->console_data_o == '\n')
                std::fflush(stdout);
        }
        if (top->exit_valid_o)
            exit_code = (int)top->exit_code_o;
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
    double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

    uart_line_stats ls{};
    uart_line_get_stats(line, &ls);
    std::printf("sim: %llu cycles in %.2f s (%.0f cycles/s)\n", (unsigned long long)cycle, secs,
                secs > 0 ? cycle / secs : 0.0);
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
    if (g_stop) {
        std::printf("sim: stopped by signal\n");
        return ls.dev_framing_errors ? 1 : 0;
    }
    if (exit_code < 0) {
        std::printf("sim: FAIL: cycle limit %llu reached without an exit code\n",
                    (unsigned long long)opt.max_cycles);
        return 3;
    }
    std::printf("sim: firmware exit code %d (0x%x)\n", exit_code, exit_code);
    return exit_code == 0 ? 0 : 1;
}
