// SPDX-License-Identifier: Apache-2.0
// The Verilated axi4_cdc behind the C interface of dut.h: moves bits between
// struct axi4_pins and the model's ports and toggles the two clocks. No test
// logic lives here.
#include "dut.h"

#include <memory>

#include "Vaxi4_cdc.h"
#include "fst_trace.h"
#include "verilated.h"

struct cdc_dut {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vaxi4_cdc> top;
    FstTrace fst;
    unsigned long long time_ps = 0;
};

extern "C" {

struct cdc_dut *cdc_dut_create(const char *trace_path)
{
    cdc_dut *d = new cdc_dut;
    d->ctx = std::make_unique<VerilatedContext>();
    FstTrace::prepare(*d->ctx, trace_path);
    d->top = std::make_unique<Vaxi4_cdc>(d->ctx.get());
    if (!d->fst.open(*d->top, trace_path)) {
        delete d;
        return nullptr;
    }
    return d;
}

void cdc_dut_destroy(struct cdc_dut *d)
{
    if (!d)
        return;
    d->fst.close();
    d->top->final();
    delete d;
}

void cdc_dut_eval(struct cdc_dut *d)
{
    d->top->eval();
}

void cdc_dut_edge(struct cdc_dut *d, bool s_edge, bool m_edge, unsigned long long time_ps)
{
    Vaxi4_cdc *t = d->top.get();
    t->s_clk_i = s_edge;
    t->m_clk_i = m_edge;
    t->eval();
    d->fst.dump(time_ps);
    t->s_clk_i = 0;
    t->m_clk_i = 0;
    t->eval();
    d->fst.dump(time_ps + 1);
}

void cdc_dut_reset(struct cdc_dut *d)
{
    Vaxi4_cdc *t = d->top.get();
    t->s_rst_ni = 0;
    t->m_rst_ni = 0;
    t->eval();
    for (int i = 0; i < 4; i++)
        cdc_dut_edge(d, true, true, 0);
    t->s_rst_ni = 1;
    t->m_rst_ni = 1;
    t->eval();
}

void cdc_dut_set_s(struct cdc_dut *d, const struct axi4_pins *p)
{
    Vaxi4_cdc *t = d->top.get();
    t->s_awvalid_i = p->awvalid;
    t->s_awid_i = p->awid;
    t->s_awaddr_i = p->awaddr;
    t->s_awlen_i = p->awlen;
    t->s_awsize_i = p->awsize;
    t->s_awburst_i = p->awburst;
    t->s_wvalid_i = p->wvalid;
    t->s_wdata_i = p->wdata;
    t->s_wstrb_i = p->wstrb;
    t->s_wlast_i = p->wlast;
    t->s_bready_i = p->bready;
    t->s_arvalid_i = p->arvalid;
    t->s_arid_i = p->arid;
    t->s_araddr_i = p->araddr;
    t->s_arlen_i = p->arlen;
    t->s_arsize_i = p->arsize;
    t->s_arburst_i = p->arburst;
    t->s_rready_i = p->rready;
}

void cdc_dut_get_s(struct cdc_dut *d, struct axi4_pins *p)
{
    Vaxi4_cdc *t = d->top.get();
    p->awready = t->s_awready_o;
    p->wready = t->s_wready_o;
    p->bvalid = t->s_bvalid_o;
    p->bid = t->s_bid_o;
    p->bresp = t->s_bresp_o;
    p->arready = t->s_arready_o;
    p->rvalid = t->s_rvalid_o;
    p->rid = t->s_rid_o;
    p->rdata = t->s_rdata_o;
    p->rresp = t->s_rresp_o;
    p->rlast = t->s_rlast_o;
}

void cdc_dut_set_m(struct cdc_dut *d, const struct axi4_pins *p)
{
    Vaxi4_cdc *t = d->top.get();
    t->m_awready_i = p->awready;
    t->m_wready_i = p->wready;
    t->m_bvalid_i = p->bvalid;
    t->m_bid_i = p->bid;
    t->m_bresp_i = p->bresp;
    t->m_arready_i = p->arready;
    t->m_rvalid_i = p->rvalid;
    t->m_rid_i = p->rid;
    t->m_rdata_i = p->rdata;
    t->m_rresp_i = p->rresp;
    t->m_rlast_i = p->rlast;
}

void cdc_dut_get_m(struct cdc_dut *d, struct axi4_pins *p)
{
    Vaxi4_cdc *t = d->top.get();
    p->awvalid = t->m_awvalid_o;
    p->awid = t->m_awid_o;
    p->awaddr = t->m_awaddr_o;
    p->awlen = t->m_awlen_o;
    p->awsize = t->m_awsize_o;
    p->awburst = t->m_awburst_o;
    p->wvalid = t->m_wvalid_o;
    p->wdata = t->m_wdata_o;
    p->wstrb = t->m_wstrb_o;
    p->wlast = t->m_wlast_o;
    p->bready = t->m_bready_o;
    p->arvalid = t->m_arvalid_o;
    p->arid = t->m_arid_o;
    p->araddr = t->m_araddr_o;
    p->arlen = t->m_arlen_o;
    p->arsize = t->m_arsize_o;
    p->arburst = t->m_arburst_o;
    p->rready = t->m_rready_o;
}

} // extern "C"
