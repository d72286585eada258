// SPDX-License-Identifier: Apache-2.0
// Thin Verilator shell for route_tb_top: moves pins between the model and
// the C test (tests/route/route_test.c). No test logic here.
#include "dut.h"

#include "Vroute_tb_top.h"
#include "verilated.h"

struct route_dut {
    VerilatedContext ctx;
    Vroute_tb_top top{ &ctx };
};

extern "C" struct route_dut *route_dut_create(void)
{
    auto *d = new route_dut;
    d->top.rst_ni = 0;
    for (int i = 0; i < 4; i++) {
        d->top.clk_i = 0;
        d->top.eval();
        d->top.clk_i = 1;
        d->top.eval();
    }
    d->top.rst_ni = 1;
    d->top.clk_i = 0;
    d->top.eval();
    return d;
}

extern "C" void route_dut_destroy(struct route_dut *d)
{
    d->top.final();
    delete d;
}

static void drive(Vroute_tb_top &t, const route_master &m, const sysmem_pins s[2])
{
    t.m_awvalid_i = m.awvalid;
    t.m_awsel_i = m.awsel;
    t.m_awid_i = m.awid;
    t.m_awaddr_i = m.awaddr;
    t.m_awlen_i = m.awlen;
    t.m_awuser_i = m.awuser;
    t.m_wvalid_i = m.wvalid;
    t.m_wdata_i = m.wdata;
    t.m_wstrb_i = m.wstrb;
    t.m_wlast_i = m.wlast;
    t.m_bready_i = m.bready;
    t.m_arvalid_i = m.arvalid;
    t.m_arsel_i = m.arsel;
    t.m_arid_i = m.arid;
    t.m_araddr_i = m.araddr;
    t.m_arlen_i = m.arlen;
    t.m_aruser_i = m.aruser;
    t.m_rready_i = m.rready;
    t.s_awready_i = s[0].awready | s[1].awready << 1;
    t.s_wready_i = s[0].wready | s[1].wready << 1;
    t.s_bvalid_i = s[0].bvalid | s[1].bvalid << 1;
    t.s_bid_i = (s[0].bid & 0xF) | (s[1].bid & 0xF) << 4;
    t.s_bresp_i = s[0].bresp | s[1].bresp << 2;
    t.s_arready_i = s[0].arready | s[1].arready << 1;
    t.s_rvalid_i = s[0].rvalid | s[1].rvalid << 1;
    t.s_rid_i = (s[0].rid & 0xF) | (s[1].rid & 0xF) << 4;
    t.s_rdata_i[0] = (uint32_t)s[0].rdata;
    t.s_rdata_i[1] = (uint32_t)(s[0].rdata >> 32);
    t.s_rdata_i[2] = (uint32_t)s[1].rdata;
    t.s_rdata_i[3] = (uint32_t)(s[1].rdata >> 32);
    t.s_rresp_i = s[0].rresp | s[1].rresp << 2;
    t.s_rlast_i = s[0].rlast | s[1].rlast << 1;
}

static void sample(const Vroute_tb_top &t, route_master &m, sysmem_pins s[2])
{
    m.awready = t.m_awready_o;
    m.wready = t.m_wready_o;
    m.bvalid = t.m_bvalid_o;
    m.bid = t.m_bid_o;
    m.bresp = t.m_bresp_o;
    m.arready = t.m_arready_o;
    m.rvalid = t.m_rvalid_o;
    m.rid = t.m_rid_o;
    m.rdata = t.m_rdata_o;
    m.rresp = t.m_rresp_o;
    m.rlast = t.m_rlast_o;
    for (int k = 0; k < 2; k++) {
        s[k].awvalid = (t.s_awvalid_o >> k) & 1;
        s[k].awid = t.s_awid_o;
        s[k].awaddr = t.s_awaddr_o;
        s[k].awlen = t.s_awlen_o;
        s[k].awsize = 3;
        s[k].awburst = 1;
        s[k].awcache = t.s_awuser_o ? 0xF : 0x3;
        s[k].wvalid = (t.s_wvalid_o >> k) & 1;
        s[k].wdata = t.s_wdata_o;
        s[k].wstrb = t.s_wstrb_o;
        s[k].wlast = t.s_wlast_o;
        s[k].bready = (t.s_bready_o >> k) & 1;
        s[k].arvalid = (t.s_arvalid_o >> k) & 1;
        s[k].arid = t.s_arid_o;
        s[k].araddr = t.s_araddr_o;
        s[k].arlen = t.s_arlen_o;
        s[k].arsize = 3;
        s[k].arburst = 1;
        s[k].arcache = t.s_aruser_o ? 0xF : 0x3;
        s[k].rready = (t.s_rready_o >> k) & 1;
    }
}

extern "C" void route_dut_eval(struct route_dut *d, struct route_master *m, struct sysmem_pins s[2])
{
    drive(d->top, *m, s);
    d->top.eval();
    sample(d->top, *m, s);
}

extern "C" void route_dut_tick(struct route_dut *d)
{
    d->top.clk_i = 1;
    d->top.eval();
    d->top.clk_i = 0;
    d->top.eval();
}
