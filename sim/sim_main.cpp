// Verilator harness for soc_top: a thin shell that wires the Verilated model
// to the C models (DDR, ELF loader) and runs the clock. All behaviour lives
// in the RTL or in the C modules; this file only moves bits between them.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vsoc_top.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#include "ddr_model.h"
#include "elf_image.h"
#include "gmmu/soc.h"

namespace {

struct Options {
    std::string elf;
    std::string trace;            // FST path, empty = no trace
    uint64_t max_cycles = 200000000;
    unsigned ddr_latency = DDR_MODEL_DEFAULT_READ_LATENCY;
    unsigned ddr_size_mb = 256;
    uint32_t boot_arg = 0;
};

std::vector<uint8_t> g_ram_image(GMMU_RAM_SIZE);

void usage()
{
    std::fprintf(stderr,
                 "usage: Vsoc_top [--max-cycles N] [--ddr-latency N] [--ddr-size-mb N]\n"
                 "                [--boot-arg N] [--trace FILE.fst] FIRMWARE.elf\n"
                 "TRACE=1 in the environment writes build/sim/trace.fst.\n");
    std::exit(2);
}

Options parse(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> const char * { if (i + 1 >= argc) usage(); return argv[++i]; };
        if (a == "--max-cycles") o.max_cycles = std::strtoull(next(), nullptr, 0);
        else if (a == "--ddr-latency") o.ddr_latency = (unsigned)std::strtoul(next(), nullptr, 0);
        else if (a == "--ddr-size-mb") o.ddr_size_mb = (unsigned)std::strtoul(next(), nullptr, 0);
        else if (a == "--boot-arg") o.boot_arg = (uint32_t)std::strtoul(next(), nullptr, 0);
        else if (a == "--trace") o.trace = next();
        else if (!a.empty() && a[0] == '+') continue;  // Verilator's own +args
        else if (a[0] == '-' || !o.elf.empty()) usage();
        else o.elf = a;
    }
    const char *env = std::getenv("TRACE");
    if (o.trace.empty() && env && std::strcmp(env, "1") == 0) o.trace = "build/sim/trace.fst";
    if (o.elf.empty() || o.ddr_latency == 0 || o.ddr_size_mb == 0 || o.ddr_size_mb > 1024) usage();
    return o;
}

// The DDR model's pins <-> the model's AXI4 master port.
void drive_ddr_inputs(Vsoc_top &top, const axi4_pins &p)
{
    top.ddr_awready_i = p.awready;
    top.ddr_wready_i = p.wready;
    top.ddr_bvalid_i = p.bvalid;
    top.ddr_bid_i = p.bid;
    top.ddr_bresp_i = p.bresp;
    top.ddr_arready_i = p.arready;
    top.ddr_rvalid_i = p.rvalid;
    top.ddr_rid_i = p.rid;
    top.ddr_rdata_i = p.rdata;
    top.ddr_rresp_i = p.rresp;
    top.ddr_rlast_i = p.rlast;
}

void sample_ddr_outputs(const Vsoc_top &top, axi4_pins &p)
{
    p.awvalid = top.ddr_awvalid_o;
    p.awid = top.ddr_awid_o;
    p.awaddr = top.ddr_awaddr_o;
    p.awlen = top.ddr_awlen_o;
    p.awsize = top.ddr_awsize_o;
    p.awburst = top.ddr_awburst_o;
    p.wvalid = top.ddr_wvalid_o;
    p.wdata = top.ddr_wdata_o;
    p.wstrb = top.ddr_wstrb_o;
    p.wlast = top.ddr_wlast_o;
    p.bready = top.ddr_bready_o;
    p.arvalid = top.ddr_arvalid_o;
    p.arid = top.ddr_arid_o;
    p.araddr = top.ddr_araddr_o;
    p.arlen = top.ddr_arlen_o;
    p.arsize = top.ddr_arsize_o;
    p.arburst = top.ddr_arburst_o;
    p.rready = top.ddr_rready_o;
}

}  // namespace

// Called by wb_ram's initial block: the RAM's start-up contents.
extern "C" unsigned int gmmu_sim_ram_init_word(unsigned int index)
{
    uint32_t w = 0;
    if ((size_t)index * 4 + 4 <= g_ram_image.size()) std::memcpy(&w, &g_ram_image[index * 4], 4);
    return w;
}

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    char err[256];
    if (elf_image_load(opt.elf.c_str(), g_ram_image.data(), g_ram_image.size(), GMMU_RAM_BASE,
                       err, sizeof err) != 0) {
        std::fprintf(stderr, "sim: %s\n", err);
        return 2;
    }

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    ctx->traceEverOn(!opt.trace.empty());
    auto top = std::make_unique<Vsoc_top>(ctx.get());
    std::unique_ptr<VerilatedFstC> fst;
    if (!opt.trace.empty()) {
        fst = std::make_unique<VerilatedFstC>();
        top->trace(fst.get(), 99);
        fst->open(opt.trace.c_str());
    }

    ddr_model_config cfg{};
    cfg.size_bytes = (uint64_t)opt.ddr_size_mb << 20;
    cfg.read_latency = opt.ddr_latency;
    ddr_model *ddr = ddr_model_create(&cfg);
    axi4_pins pins{};

    top->boot_arg_i = opt.boot_arg;
    top->ddr_size_mb_i = opt.ddr_size_mb;
    top->console_ready_i = 1;
    top->rst_ni = 0;
    top->clk_i = 0;

    auto wall_start = std::chrono::steady_clock::now();
    uint64_t cycle = 0;
    int exit_code = -1;
    for (; cycle < opt.max_cycles && exit_code < 0; cycle++) {
        if (cycle == 8) top->rst_ni = 1;
        top->clk_i = 0;
        ddr_model_drive(ddr, &pins);
        drive_ddr_inputs(*top, pins);
        top->eval();
        if (fst) fst->dump(2 * cycle);
        sample_ddr_outputs(*top, pins);
        if (top->console_valid_o) std::fputc(top->console_data_o, stdout);
        if (top->exit_valid_o) exit_code = (int)top->exit_code_o;
        ddr_model_clock(ddr, &pins);
        top->clk_i = 1;
        top->eval();
        if (fst) fst->dump(2 * cycle + 1);
    }
    std::fflush(stdout);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

    ddr_model_stats st = ddr_model_get_stats(ddr);
    std::printf("sim: %llu cycles in %.2f s (%.0f cycles/s)\n", (unsigned long long)cycle, secs,
                secs > 0 ? cycle / secs : 0.0);
    std::printf("sim: ddr read bursts %llu beats %llu, write bursts %llu beats %llu, protocol errors %llu\n",
                (unsigned long long)st.read_bursts, (unsigned long long)st.read_beats,
                (unsigned long long)st.write_bursts, (unsigned long long)st.write_beats,
                (unsigned long long)st.protocol_errors);
    if (fst) fst->close();
    top->final();
    ddr_model_destroy(ddr);
    if (exit_code < 0) {
        std::printf("sim: FAIL: cycle limit %llu reached without an exit code\n",
                    (unsigned long long)opt.max_cycles);
        return 3;
    }
    std::printf("sim: firmware exit code %d (0x%x)\n", exit_code, exit_code);
    return exit_code == 0 ? 0 : 1;
}
