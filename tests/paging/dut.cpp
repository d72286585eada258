// SPDX-License-Identifier: Apache-2.0
// The Verilated paging_engine behind the C interface of dut.h: copies bits
// between the model's ports and struct paging_pins. No test logic here.
#include "dut.h"

#include <memory>

#include "Vpaging_engine.h"
#include "fst_trace.h"
#include "verilated.h"

#ifndef DUT_QUEUE_WORDS
#error "build with -DDUT_QUEUE_WORDS=... (and the other DUT_* parameters)"
#endif

struct dut {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vpaging_engine> top;
    FstTrace fst;
    uint64_t cycle = 0;
};

extern "C" {

struct dut_params dut_params(void)
{
    struct dut_params p;
    p.queue_words = DUT_QUEUE_WORDS;
    p.max_burst = DUT_MAX_BURST;
    p.copy_fifo_beats = DUT_COPY_FIFO_BEATS;
    p.outstanding = DUT_OUTSTANDING;
    p.pkt_slots = DUT_PKT_SLOTS;
    p.asid_bits = DUT_ASID_BITS;
    return p;
}

struct dut *dut_create(const char *trace_path)
{
    dut *d = new dut;
    d->ctx = std::make_unique<VerilatedContext>();
    d->ctx->assertOn(true);
    FstTrace::prepare(*d->ctx, trace_path);
    d->top = std::make_unique<Vpaging_engine>(d->ctx.get());
    if (!d->fst.open(*d->top, trace_path)) {
        delete d;
        return nullptr;
    }
    return d;
}

void dut_destroy(struct dut *d)
{
    if (!d)
        return;
    d->fst.close();
    d->top->final();
    delete d;
}

void dut_eval(struct dut *d, struct paging_pins *p)
{
    Vpaging_engine &t = *d->top;
    t.clk_i = 0;
    t.wb_cyc_i = p->wb_cyc;
    t.wb_stb_i = p->wb_stb;
    t.wb_we_i = p->wb_we;
    t.wb_adr_i = p->wb_adr;
    t.wb_dat_i = p->wb_dat;
    t.ddr_size_i = p->ddr_size;
    t.inv_ready_i = p->inv_ready;
    t.inv_busy_i = p->inv_busy;

    t.m_ddr_awready_i = p->ddr_in.awready;
    t.m_ddr_wready_i = p->ddr_in.wready;
    t.m_ddr_bvalid_i = p->ddr_in.bvalid;
    t.m_ddr_bresp_i = p->ddr_in.bresp;
    t.m_ddr_bid_i = p->ddr_in.bid;
    t.m_ddr_arready_i = p->ddr_in.arready;
    t.m_ddr_rvalid_i = p->ddr_in.rvalid;
    t.m_ddr_rdata_i = p->ddr_in.rdata;
    t.m_ddr_rresp_i = p->ddr_in.rresp;
    t.m_ddr_rlast_i = p->ddr_in.rlast;
    t.m_ddr_rid_i = p->ddr_in.rid;
    t.m_sys_awready_i = p->sys_in.awready;
    t.m_sys_wready_i = p->sys_in.wready;
    t.m_sys_bvalid_i = p->sys_in.bvalid;
    t.m_sys_bresp_i = p->sys_in.bresp;
    t.m_sys_bid_i = p->sys_in.bid;
    t.m_sys_arready_i = p->sys_in.arready;
    t.m_sys_rvalid_i = p->sys_in.rvalid;
    t.m_sys_rdata_i = p->sys_in.rdata;
    t.m_sys_rresp_i = p->sys_in.rresp;
    t.m_sys_rlast_i = p->sys_in.rlast;
    t.m_sys_rid_i = p->sys_in.rid;

    t.eval();
    d->fst.dump(2 * d->cycle);

    p->wb_ack = t.wb_ack_o;
    p->wb_dat_o = t.wb_dat_o;
    p->inv_valid = t.inv_valid_o;
    p->inv_type = t.inv_type_o;
    p->inv_asid = t.inv_asid_o;
    p->inv_start = t.inv_start_o;
    p->inv_end = t.inv_end_o;
    p->irq = t.irq_o;

    paging_axi_out &o = p->ddr_out;
    o.awvalid = t.m_ddr_awvalid_o;
    o.awid = t.m_ddr_awid_o;
    o.awaddr = t.m_ddr_awaddr_o;
    o.awlen = t.m_ddr_awlen_o;
    o.awsize = t.m_ddr_awsize_o;
    o.awburst = t.m_ddr_awburst_o;
    o.wvalid = t.m_ddr_wvalid_o;
    o.wdata = t.m_ddr_wdata_o;
    o.wstrb = t.m_ddr_wstrb_o;
    o.wlast = t.m_ddr_wlast_o;
    o.bready = t.m_ddr_bready_o;
    o.arvalid = t.m_ddr_arvalid_o;
    o.arid = t.m_ddr_arid_o;
    o.araddr = t.m_ddr_araddr_o;
    o.arlen = t.m_ddr_arlen_o;
    o.arsize = t.m_ddr_arsize_o;
    o.arburst = t.m_ddr_arburst_o;
    o.rready = t.m_ddr_rready_o;

    paging_axi_out &s = p->sys_out;
    s.awvalid = t.m_sys_awvalid_o;
    s.awid = t.m_sys_awid_o;
    s.awaddr = t.m_sys_awaddr_o;
    s.awlen = t.m_sys_awlen_o;
    s.awsize = t.m_sys_awsize_o;
    s.awburst = t.m_sys_awburst_o;
    s.wvalid = t.m_sys_wvalid_o;
    s.wdata = t.m_sys_wdata_o;
    s.wstrb = t.m_sys_wstrb_o;
    s.wlast = t.m_sys_wlast_o;
    s.bready = t.m_sys_bready_o;
    s.arvalid = t.m_sys_arvalid_o;
    s.arid = t.m_sys_arid_o;
    s.araddr = t.m_sys_araddr_o;
    s.arlen = t.m_sys_arlen_o;
    s.arsize = t.m_sys_arsize_o;
    s.arburst = t.m_sys_arburst_o;
    s.rready = t.m_sys_rready_o;
}

void dut_tick(struct dut *d)
{
    d->top->clk_i = 1;
    d->top->eval();
    d->fst.dump(2 * d->cycle + 1);
    d->cycle++;
}

void dut_reset(struct dut *d)
{
    paging_pins p{};
    d->top->rst_ni = 0;
    for (int i = 0; i < 4; i++) {
        dut_eval(d, &p);
        dut_tick(d);
    }
    d->top->rst_ni = 1;
}

} // extern "C"
