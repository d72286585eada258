// SPDX-License-Identifier: Apache-2.0
// The Verilated mmu_top behind the C interface of dut.h: moves bits between
// the model's (flattened, possibly wide) ports, the test's structs and the
// DDR model. No test logic lives here.
#include "dut.h"

#include <cstdlib>
#include <type_traits>

#include "gmmu/mmu_regs.h"
#include "Vmmu_top.h"
#include "vl_harness.h"

#ifndef DUT_PORTS
#error "build with -DDUT_PORTS=... (and the other DUT_* parameters)"
#endif

namespace
{

// A field of a flattened port vector: integral signals...
template <typename T>
typename std::enable_if<std::is_integral<T>::value>::type put(T &sig, unsigned lsb, unsigned width,
                                                              uint64_t v)
{
    uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
    uint64_t cur = (uint64_t)sig;
    cur = (cur & ~(mask << lsb)) | ((v & mask) << lsb);
    sig = (T)cur;
}

template <typename T>
typename std::enable_if<std::is_integral<T>::value, uint64_t>::type get(const T &sig, unsigned lsb,
                                                                        unsigned width)
{
    uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
    return ((uint64_t)sig >> lsb) & mask;
}

// ... and wide ones (32-bit words, least significant first), a word at a time.
template <std::size_t N> void put(VlWide<N> &sig, unsigned lsb, unsigned width, uint64_t v)
{
    while (width) {
        unsigned w = lsb / 32, b = lsb % 32, n = 32 - b < width ? 32 - b : width;
        uint32_t mask = (n == 32 ? ~0u : ((1u << n) - 1)) << b;
        sig[w] = (sig[w] & ~mask) | (((uint32_t)v << b) & mask);
        v = n == 64 ? 0 : v >> n;
        lsb += n;
        width -= n;
    }
}

template <std::size_t N> uint64_t get(const VlWide<N> &sig, unsigned lsb, unsigned width)
{
    uint64_t v = 0;
    unsigned done = 0;
    while (done < width) {
        unsigned w = lsb / 32, b = lsb % 32, n = 32 - b < width - done ? 32 - b : width - done;
        uint64_t bits = (sig[w] >> b) & (n == 32 ? ~0u : ((1u << n) - 1));
        v |= bits << done;
        lsb += n;
        done += n;
    }
    return v;
}

} // namespace

struct dut : VlDdrClocked<Vmmu_top> {
};

// Parameters a configuration leaves at mmu_top's defaults come from the
// generated definitions (include/defs/mmu.toml), as the RTL's do.
#ifndef DUT_ASID_BITS
#define DUT_ASID_BITS __builtin_ctz(GMMU_ASIDS)
#endif
#ifndef DUT_TAG_BITS
#define DUT_TAG_BITS GMMU_TAG_BITS
#endif
#ifndef DUT_MSHRS
#define DUT_MSHRS GMMU_MSHRS
#endif
#ifndef DUT_L1_ENTRIES
#define DUT_L1_ENTRIES GMMU_L1_ENTRIES
#endif

extern "C" {

struct dut_params dut_params(void)
{
    struct dut_params p;
    p.ports = DUT_PORTS;
    p.walkers = DUT_WALKERS;
    p.levels = DUT_LEVELS;
    p.asid_bits = DUT_ASID_BITS;
    p.tag_bits = DUT_TAG_BITS;
    p.mshrs = DUT_MSHRS;
    p.l1_entries = DUT_L1_ENTRIES;
    p.pwc_entries = DUT_PWC_ENTRIES;
    return p;
}

struct dut *dut_create(const struct dut_config *cfg)
{
    dut *d = vl_create<dut>(cfg ? cfg->trace_path : nullptr);
    if (!d)
        return nullptr;
    ddr_model_config mc{};
    if (cfg) {
        mc.read_latency = cfg->ddr_latency;
        mc.size_bytes = cfg->ddr_size_bytes;
    }
    d->ddr = ddr_model_create(&mc);
    if (!d->ddr) {
        delete d;
        return nullptr;
    }
    return d;
}

void dut_destroy(struct dut *d)
{
    if (d)
        ddr_model_destroy(d->ddr);
    vl_destroy(d);
}

struct ddr_model *dut_ddr(struct dut *d)
{
    return d->ddr;
}

uint64_t dut_cycle(const struct dut *d)
{
    return d->cycle;
}

void dut_eval(struct dut *d, struct dut_io *io)
{
    Vmmu_top &t = *d->top;
    const unsigned tb = DUT_TAG_BITS, ab = DUT_ASID_BITS;

    for (unsigned p = 0; p < DUT_PORTS; p++) {
        const dut_req &r = io->req[p];
        put(t.req_valid_i, p, 1, r.valid);
        put(t.req_asid_i, p * ab, ab, r.asid);
        put(t.req_va_i, p * 64, 64, r.va);
        put(t.req_access_i, p * 2, 2, r.access);
        put(t.req_tag_i, p * tb, tb, r.tag);
        put(t.rsp_ready_i, p, 1, io->rsp_ready[p]);
    }
    t.wb_cyc_i = io->wb.cyc;
    t.wb_stb_i = io->wb.stb;
    t.wb_we_i = io->wb.we;
    t.wb_adr_i = io->wb.adr;
    t.wb_dat_i = io->wb.dat;
    t.wb_sel_i = 0xF;

    ddr_model_drive(d->ddr, &d->pins);
    t.axi_arready_i = d->pins.arready;
    t.axi_rvalid_i = d->pins.rvalid;
    t.axi_rid_i = d->pins.rid;
    t.axi_rdata_i = d->pins.rdata;
    t.axi_rresp_i = d->pins.rresp;
    t.axi_rlast_i = d->pins.rlast;

    d->eval_low();

    d->pins.arvalid = t.axi_arvalid_o;
    d->pins.arid = t.axi_arid_o;
    d->pins.araddr = t.axi_araddr_o;
    d->pins.arlen = t.axi_arlen_o;
    d->pins.arsize = t.axi_arsize_o;
    d->pins.arburst = t.axi_arburst_o;
    d->pins.rready = t.axi_rready_o;
    /* No write channel: the MMU only reads. */
    d->pins.awvalid = 0;
    d->pins.wvalid = 0;
    d->pins.bready = 1;

    for (unsigned p = 0; p < DUT_PORTS; p++) {
        io->req_ready[p] = (uint8_t)get(t.req_ready_o, p, 1);
        dut_rsp &r = io->rsp[p];
        r.valid = (uint8_t)get(t.rsp_valid_o, p, 1);
        r.tag = (uint32_t)get(t.rsp_tag_o, p * tb, tb);
        r.fault = (uint8_t)get(t.rsp_fault_o, p * 3, 3);
        r.zero = (uint8_t)get(t.rsp_zero_o, p, 1);
        r.pa = get(t.rsp_pa_o, p * 52, 52);
        r.seg = (uint8_t)get(t.rsp_seg_o, p * 5, 5);
        r.cc = (uint8_t)get(t.rsp_cc_o, p, 1);
        r.ro = (uint8_t)get(t.rsp_ro_o, p, 1);
        r.nx = (uint8_t)get(t.rsp_nx_o, p, 1);
        r.psize = (uint8_t)get(t.rsp_psize_o, p * 3, 3);
    }
    io->wb_ack = t.wb_ack_o;
    io->wb_dat = t.wb_dat_o;
    io->irq = t.irq_o;
}

void dut_tick(struct dut *d)
{
    d->tick();
}

void dut_reset(struct dut *d)
{
    vl_reset<dut_io>(d);
}

} // extern "C"
