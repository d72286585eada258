// SPDX-License-Identifier: Apache-2.0
// Verilator harness for soc_top: a thin shell that wires the Verilated model
// to the C models (DDR, ELF loader) and runs the clock. All behaviour lives
// in the RTL or in the C modules; this file only moves bits between them.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vsoc_top.h"
#include "Vsoc_top__Syms.h"
#include "Vsoc_top_VexRiscv.h"
#include "verilated.h"
#include "fst_trace.h"
#include "vl_env.h"

#include "bar_master.h"
#include "ddr_model.h"
#include "ddr_pins.h"
#include "gmmu/mailbox.h"
#include "gmmu/soc.h"
#include "pcie_link.h"
#include "sim_fork.h"
#include "soc_harness.h"
#include "sysmem_port.h"

namespace
{

struct Options : soc_harness::Options {
    std::string socket;                                    // PCIe link socket, empty = no host link
    std::string profile;                                   // PC histogram output, empty = none
    std::string fork_server;                               // control socket: boot once, fork runs
    std::string fork_from;                                 // control socket: run as a forked copy
    unsigned bar_read_latency = 400;                       // cycles: a PCIe read round trip
    unsigned sysmem_latency = SYSMEM_PORT_DEFAULT_LATENCY; // cycles: host memory read
};

void usage()
{
    std::fprintf(stderr,
                 "usage: Vsoc_top [--max-cycles N] [--ddr-latency N] [--ddr-size-mb N]\n"
                 "                [--boot-arg N] [--trace FILE.fst] [--socket PATH]\n"
                 "                [--bar-read-latency N] [--sysmem-latency N] [--profile FILE]\n"
                 "                [--fork-server CTL | --fork-from CTL] FIRMWARE.elf\n"
                 "--profile writes cycles per PC of the CPU's last pipeline stage.\n"
                 "--fork-server boots until the firmware's \"mailbox: ready\", then serves\n"
                 "  copies of itself on CTL (--max-cycles bounds the boot); --fork-from runs\n"
                 "  as such a copy when CTL serves these options, else as usual (sim_fork.h).\n"
                 "--max-cycles 0 runs until the firmware exits or SIGINT/SIGTERM.\n"
                 "TRACE=1 in the environment writes build/sim/trace.fst.\n");
    std::exit(2);
}

Options parse(int argc, char **argv)
{
    Options o;
    o.max_cycles = 200000000;
    auto own = [&](const std::string &a, auto next) {
        if (a == "--socket")
            o.socket = next();
        else if (a == "--profile")
            o.profile = next();
        else if (a == "--fork-server")
            o.fork_server = next();
        else if (a == "--fork-from")
            o.fork_from = next();
        else if (a == "--sysmem-latency")
            o.sysmem_latency = (unsigned)std::strtoul(next(), nullptr, 0);
        else if (a == "--bar-read-latency")
            o.bar_read_latency = (unsigned)std::strtoul(next(), nullptr, 0);
        else
            return false;
        return true;
    };
    soc_harness::parse(argc, argv, o, own, usage);
    const char *env = std::getenv("TRACE");
    if (o.trace.empty() && env && std::strcmp(env, "1") == 0)
        o.trace = "build/sim/trace.fst";
    if (!soc_harness::options_ok(o) || o.sysmem_latency == 0)
        usage();
    // A fork server has no host of its own and nothing to trace or profile.
    if (!o.fork_server.empty() &&
        (!o.fork_from.empty() || !o.socket.empty() || !o.trace.empty() || !o.profile.empty()))
        usage();
    if (!o.fork_from.empty() && (!o.trace.empty() || !o.profile.empty()))
        usage();
    return o;
}

// The system-memory port <-> the host's registered buffers.
void drive_sysmem_inputs(Vsoc_top &top, const sysmem_pins &p)
{
    top.sysmem_awready_i = p.awready;
    top.sysmem_wready_i = p.wready;
    top.sysmem_bvalid_i = p.bvalid;
    top.sysmem_bid_i = p.bid;
    top.sysmem_bresp_i = p.bresp;
    top.sysmem_arready_i = p.arready;
    top.sysmem_rvalid_i = p.rvalid;
    top.sysmem_rid_i = p.rid;
    top.sysmem_rdata_i = p.rdata;
    top.sysmem_rresp_i = p.rresp;
    top.sysmem_rlast_i = p.rlast;
}

void sample_sysmem_outputs(const Vsoc_top &top, sysmem_pins &p)
{
    p.awvalid = top.sysmem_awvalid_o;
    p.awid = top.sysmem_awid_o;
    p.awaddr = top.sysmem_awaddr_o;
    p.awlen = top.sysmem_awlen_o;
    p.awsize = top.sysmem_awsize_o;
    p.awburst = top.sysmem_awburst_o;
    p.awcache = top.sysmem_awcache_o;
    p.wvalid = top.sysmem_wvalid_o;
    p.wdata = top.sysmem_wdata_o;
    p.wstrb = top.sysmem_wstrb_o;
    p.wlast = top.sysmem_wlast_o;
    p.bready = top.sysmem_bready_o;
    p.arvalid = top.sysmem_arvalid_o;
    p.arid = top.sysmem_arid_o;
    p.araddr = top.sysmem_araddr_o;
    p.arlen = top.sysmem_arlen_o;
    p.arsize = top.sysmem_arsize_o;
    p.arburst = top.sysmem_arburst_o;
    p.arcache = top.sysmem_arcache_o;
    p.rready = top.sysmem_rready_o;
}

// Without a host link every system-memory access answers SLVERR. ctx is
// where the link is kept (a forked copy opens its own after the boot).
void *resolve_sysmem(void *ctx, uint64_t addr, uint64_t len)
{
    pcie_link *link = *static_cast<pcie_link **>(ctx);
    return link ? pcie_link_sysmem(link, addr, len) : nullptr;
}

sim_fork_request fork_request(const Options &o)
{
    sim_fork_request r{};
    std::snprintf(r.elf, sizeof r.elf, "%s", o.elf.c_str());
    r.ddr_size_mb = o.ddr_size_mb;
    r.ddr_latency = o.ddr_latency;
    r.boot_arg = o.boot_arg;
    r.bar_read_latency = o.bar_read_latency;
    r.sysmem_latency = o.sysmem_latency;
    std::snprintf(r.socket, sizeof r.socket, "%s", o.socket.c_str());
    r.max_cycles = o.max_cycles;
    return r;
}

// The host link on opt.socket, or false after saying why.
bool open_link(const Options &opt, pcie_link *&link, bar_master *&bars)
{
    link = pcie_link_open(opt.socket.c_str(), GMMU_BAR0_BYTES, GMMU_BAR1_BYTES);
    if (!link) {
        std::fprintf(stderr, "sim: cannot listen on %s: %s\n", opt.socket.c_str(),
                     std::strerror(errno));
        return false;
    }
    bars = bar_master_create(link, opt.bar_read_latency);
    std::printf("sim: PCIe link listening on %s (BAR read latency %u cycles)\n", opt.socket.c_str(),
                opt.bar_read_latency);
    std::fflush(stdout);
    return true;
}

void print_sysmem_stats(const char *who, const sysmem_port_stats &now,
                        const sysmem_port_stats &base)
{
    std::printf(
        "sim: sysmem %s: read bursts %llu (coherent %llu), write bursts %llu (coherent %llu), "
        "error beats read %llu write %llu, protocol errors %llu\n",
        who, (unsigned long long)(now.read_bursts - base.read_bursts),
        (unsigned long long)(now.coherent_read_bursts - base.coherent_read_bursts),
        (unsigned long long)(now.write_bursts - base.write_bursts),
        (unsigned long long)(now.coherent_write_bursts - base.coherent_write_bursts),
        (unsigned long long)(now.read_error_beats - base.read_error_beats),
        (unsigned long long)(now.write_error_beats - base.write_error_beats),
        (unsigned long long)(now.protocol_errors - base.protocol_errors));
    std::fflush(stdout);
}

// Per-host system-memory traffic, printed when the host leaves, so a host
// test can check what reached the port (e.g. CacheCoherent as AxCACHE).
struct HostWatch {
    bool connected = false;
    uint32_t generation = 0;
    sysmem_port_stats at_connect{};

    void step(pcie_link *link, const sysmem_port *port)
    {
        bool now = pcie_link_connected(link);
        if (now == connected && (!now || pcie_link_generation(link) == generation))
            return;
        if (connected) {
            std::string who = "host " + std::to_string(generation);
            print_sysmem_stats(who.c_str(), sysmem_port_get_stats(port), at_connect);
        }
        connected = now;
        generation = pcie_link_generation(link);
        at_connect = sysmem_port_get_stats(port);
    }
};

void drive_bar_inputs(Vsoc_top &top, const axil_pins &b0, const axil_pins &b1)
{
    top.bar0_awvalid_i = b0.awvalid;
    top.bar0_awaddr_i = b0.awaddr;
    top.bar0_wvalid_i = b0.wvalid;
    top.bar0_wdata_i = b0.wdata;
    top.bar0_wstrb_i = b0.wstrb;
    top.bar0_bready_i = b0.bready;
    top.bar0_arvalid_i = b0.arvalid;
    top.bar0_araddr_i = b0.araddr;
    top.bar0_rready_i = b0.rready;
    top.bar1_awvalid_i = b1.awvalid;
    top.bar1_awaddr_i = b1.awaddr;
    top.bar1_wvalid_i = b1.wvalid;
    top.bar1_wdata_i = b1.wdata;
    top.bar1_wstrb_i = b1.wstrb;
    top.bar1_bready_i = b1.bready;
    top.bar1_arvalid_i = b1.arvalid;
    top.bar1_araddr_i = b1.araddr;
    top.bar1_rready_i = b1.rready;
}

void sample_bar_outputs(const Vsoc_top &top, axil_pins &b0, axil_pins &b1)
{
    b0.awready = top.bar0_awready_o;
    b0.wready = top.bar0_wready_o;
    b0.bvalid = top.bar0_bvalid_o;
    b0.bresp = top.bar0_bresp_o;
    b0.arready = top.bar0_arready_o;
    b0.rvalid = top.bar0_rvalid_o;
    b0.rdata = top.bar0_rdata_o;
    b0.rresp = top.bar0_rresp_o;
    b1.awready = top.bar1_awready_o;
    b1.wready = top.bar1_wready_o;
    b1.bvalid = top.bar1_bvalid_o;
    b1.bresp = top.bar1_bresp_o;
    b1.arready = top.bar1_arready_o;
    b1.rvalid = top.bar1_rvalid_o;
    b1.rdata = top.bar1_rdata_o;
    b1.rresp = top.bar1_rresp_o;
}

// DDR_FAULT (a host test's hook, docs/sim-link.md): errors armed in the DDR model.
uint8_t arm_ddr_fault(void *ctx, unsigned kinds, uint64_t lo, uint64_t hi, unsigned count,
                      uint64_t *read_beats, uint64_t *write_bursts)
{
    ddr_model *ddr = static_cast<ddr_model *>(ctx);
    bool ok = true;
    if (kinds == 0)
        ddr_model_clear_errors(ddr);
    else
        ok = ddr_model_inject_error(ddr, kinds, lo, hi, count);
    ddr_model_stats st = ddr_model_get_stats(ddr);
    *read_beats = st.injected_read_beats;
    *write_bursts = st.injected_write_bursts;
    if (kinds == 0)
        std::printf("sim: DDR faults cleared at cycle %llu\n", (unsigned long long)st.cycles);
    else
        std::printf("sim: DDR fault %s: %s%s [0x%llx, 0x%llx) x %u at cycle %llu\n",
                    ok ? "armed" : "refused", kinds & GMMU_SIMLINK_FAULT_READ ? "R" : "",
                    kinds & GMMU_SIMLINK_FAULT_WRITE ? "W" : "", (unsigned long long)lo,
                    (unsigned long long)hi, count, (unsigned long long)st.cycles);
    std::fflush(stdout);
    return ok ? GMMU_SIMLINK_ST_OK : GMMU_SIMLINK_ST_BAD_FAULT;
}

// Cycles charged to each PC of VexRiscv's last pipeline stage (a stall or
// bubble counts against the instruction in or before it), for finding where
// firmware time goes. VexRiscv marks these signals public.
void write_profile(const std::string &path, const std::map<uint32_t, uint64_t> &hist)
{
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f)
        return;
    for (const auto &kv : hist)
        std::fprintf(f, "%08x %llu\n", kv.first, (unsigned long long)kv.second);
    std::fclose(f);
}

} // namespace

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    if (!opt.fork_from.empty()) {
        if (opt.socket.size() >= sizeof(sim_fork_request{}.socket)) {
            std::fprintf(stderr, "sim: socket path too long: %s\n", opt.socket.c_str());
            return 2;
        }
        sim_fork_request req = fork_request(opt);
        int rc = sim_fork_client(opt.fork_from.c_str(), &req);
        if (rc >= 0)
            return rc;
        // No server for these options: the run is this process's.
    }
    if (!soc_harness::load_firmware(opt.elf))
        return 2;

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    vl_env_apply(*ctx);
    const char *trace_path = opt.trace.empty() ? nullptr : opt.trace.c_str();
    FstTrace::prepare(*ctx, trace_path);
    auto top = std::make_unique<Vsoc_top>(ctx.get());
    FstTrace fst;
    if (!fst.open(*top, trace_path))
        return 2;

    pcie_link *link = nullptr;
    bar_master *bars = nullptr;
    if (!opt.socket.empty() && !open_link(opt, link, bars))
        return 2;
    // The fork server: its control socket now (clients queue on it during
    // the boot) and a copy of the console for the copies it forks.
    int fork_fd = -1, status_fd = -1;
    std::string transcript;
    const sim_fork_request fork_self = fork_request(opt);
    if (!opt.fork_server.empty()) {
        fork_fd = sim_fork_listen(opt.fork_server.c_str());
        if (fork_fd < 0) {
            std::fprintf(stderr, "sim: cannot listen on %s: %s\n", opt.fork_server.c_str(),
                         std::strerror(errno));
            return 2;
        }
        soc_harness::g_console_copy = &transcript;
    }
    soc_harness::catch_signals();

    ddr_model_config cfg{};
    cfg.size_bytes = (uint64_t)opt.ddr_size_mb << 20;
    cfg.read_latency = opt.ddr_latency;
    ddr_model *ddr = ddr_model_create(&cfg);
    if (link)
        pcie_link_set_fault_handler(link, arm_ddr_fault, ddr);
    sysmem_port *sysmem =
        sysmem_port_create(opt.sysmem_latency, GMMU_SYSMEM_AXCACHE_COHERENT, resolve_sysmem, &link);
    sysmem_pins spins{};
    HostWatch host_watch;
    axi4_pins pins{};
    axil_pins bar0{}, bar1{};
    std::map<uint32_t, uint64_t> pc_hist;
    uint32_t last_pc = 0;
    const Vsoc_top_VexRiscv &cpu = top->rootp->vlSymsp->TOP__soc_top__u_cpu;

    soc_harness::reset_inputs(*top, opt);

    auto wall_start = std::chrono::steady_clock::now();
    uint64_t cycle = 0, forked_at = 0;
    int exit_code = -1;
    for (; (opt.max_cycles == 0 || cycle < opt.max_cycles) && exit_code < 0 && !soc_harness::g_stop;
         cycle++) {
        if (cycle == 8)
            top->rst_ni = 1;
        top->clk_i = 0;
        ddr_model_drive(ddr, &pins);
        drive_ddr_inputs(*top, pins);
        sysmem_port_drive(sysmem, &spins);
        drive_sysmem_inputs(*top, spins);
        if (link) {
            pcie_link_poll(link);
            bar_master_drive(bars, &bar0, &bar1);
            drive_bar_inputs(*top, bar0, bar1);
        }
        top->eval();
        fst.dump(2 * cycle);
        sample_ddr_outputs(*top, pins);
        sample_sysmem_outputs(*top, spins);
        soc_harness::console_and_exit(*top, exit_code);
        if (fork_fd >= 0 && top->console_valid_o && top->console_data_o == '\n') {
            // The boot is over at the firmware's mailbox line; from here on
            // this process only forks copies, and a copy runs on.
            size_t start = transcript.rfind('\n', transcript.size() - 2);
            std::string line = transcript.substr(start == std::string::npos ? 0 : start + 1);
            if (line.rfind("mailbox: ", 0) == 0) {
                if (line.rfind("mailbox: ready", 0) != 0) {
                    std::printf(
                        "sim: fork server: the firmware did not come up; serving nothing\n");
                    break;
                }
                sim_fork_request req{};
                std::printf("sim: fork server: booted in %llu cycles, serving on %s\n",
                            (unsigned long long)cycle + 1, opt.fork_server.c_str());
                std::fflush(stdout);
                if (sim_fork_serve(fork_fd, &fork_self, &req, &status_fd, &soc_harness::g_stop) !=
                    0)
                    break;
                // The copy: the run's own link and limit, the boot's transcript.
                fork_fd = -1;
                soc_harness::g_console_copy = nullptr;
                opt.fork_server.clear();
                opt.socket = req.socket;
                opt.max_cycles = req.max_cycles;
                if (!opt.socket.empty() && !open_link(opt, link, bars)) {
                    sim_fork_report(status_fd, 2);
                    return 2;
                }
                if (link)
                    pcie_link_set_fault_handler(link, arm_ddr_fault, ddr);
                std::fputs(transcript.c_str(), stdout);
                std::printf(
                    "sim: forked at cycle %llu from a simulator booted once (--fork-server)\n",
                    (unsigned long long)cycle + 1);
                std::fflush(stdout);
                forked_at = cycle + 1;
                wall_start = std::chrono::steady_clock::now();
            }
        }
        if (!opt.profile.empty()) {
            // A bubble in the last stage is charged to the instruction before it.
            if (cpu.lastStageIsValid)
                last_pc = cpu.lastStagePc;
            pc_hist[last_pc]++;
        }
        ddr_model_clock(ddr, &pins);
        sysmem_port_clock(sysmem, &spins);
        if (link) {
            host_watch.step(link, sysmem);
            sample_bar_outputs(*top, bar0, bar1);
            bar_master_clock(bars, &bar0, &bar1);
            if (top->host_msi_o)
                pcie_link_raise_irq(link, 1u);
        }
        top->clk_i = 1;
        top->eval();
        fst.dump(2 * cycle + 1);
    }
    std::fflush(stdout);
    double secs = soc_harness::seconds_since(wall_start);

    ddr_model_stats st = ddr_model_get_stats(ddr);
    soc_harness::print_speed(cycle, secs, forked_at);
    std::printf(
        "sim: ddr read bursts %llu beats %llu, write bursts %llu beats %llu, protocol errors %llu\n",
        (unsigned long long)st.read_bursts, (unsigned long long)st.read_beats,
        (unsigned long long)st.write_bursts, (unsigned long long)st.write_beats,
        (unsigned long long)st.protocol_errors);
    if (st.injected_read_beats || st.injected_write_bursts)
        std::printf("sim: ddr injected errors: read beats %llu, write bursts %llu\n",
                    (unsigned long long)st.injected_read_beats,
                    (unsigned long long)st.injected_write_bursts);
    print_sysmem_stats("total", sysmem_port_get_stats(sysmem), sysmem_port_stats{});
    if (link) {
        pcie_link_stats ls{};
        pcie_link_get_stats(link, &ls);
        std::printf("sim: link hosts %llu, requests %llu (bad frames %llu), irqs %llu\n",
                    (unsigned long long)ls.connects, (unsigned long long)ls.requests,
                    (unsigned long long)ls.bad_frames, (unsigned long long)ls.irqs_sent);
        bar_master_destroy(bars);
        pcie_link_close(link);
    }
    if (!opt.profile.empty())
        write_profile(opt.profile, pc_hist);
    fst.close();
    top->final();
    ddr_model_destroy(ddr);
    sysmem_port_destroy(sysmem);
    int rc = soc_harness::finish(exit_code, opt.max_cycles, 0);
    std::fflush(stdout);
    if (status_fd >= 0) {
        // A forked copy has only the thread that forked: Verilator's thread
        // pool would wait for its workers forever on the way out.
        sim_fork_report(status_fd, rc);
        std::_Exit(rc);
    }
    return rc;
}
