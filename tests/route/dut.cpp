// SPDX-License-Identifier: Apache-2.0
// Thin Verilator shell for route_tb_top: moves pins between the model and
// the C test (tests/route/route_test.c). No test logic here.
#include "dut.h"

#include <cstdint>

#include "Vroute_tb_top.h"
#include "verilated.h"
#include "vl_env.h"
#include "vl_packed.h"

struct route_dut {
    VerilatedContext ctx;
    Vroute_tb_top top{ &ctx };
};

extern "C" struct route_dut *route_dut_create(void)
{
    auto *d = new route_dut;
    vl_env_apply(d->ctx);
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

// axi4_pkg's widths (ID_W, ADDR_W, DATA_W, USER_W) and its structs' sizes.
enum { ID_W = 8, ADDR_W = 64, DATA_W = 64, USER_W = 4, REQ_W = 256, RSP_W = 90 };
enum { SIZE_8B = 3, BURST_INCR = 1, CACHE_COHERENT = 0xF, CACHE_NONCOHERENT = 0x3 };
// The package and these must agree: the ports' sizes follow the package.
static_assert(sizeof(Vroute_tb_top::m_req_i) == REQ_W / 8, "axi4_req_t width");
static_assert(sizeof(Vroute_tb_top::s_req_o) == 2 * REQ_W / 8, "axi4_req_t width");
static_assert(sizeof(Vroute_tb_top::m_rsp_o) == 4 * ((RSP_W + 31) / 32), "axi4_rsp_t width");
static_assert(sizeof(Vroute_tb_top::s_rsp_i) == 4 * ((2 * RSP_W + 31) / 32), "axi4_rsp_t width");

// An axi4_ax_t of the master's: 64-bit INCR beats, the user bit its own.
static void put_ax(packed_cursor &c, uint8_t id, uint64_t addr, uint8_t len, uint8_t user)
{
    c.put(id, ID_W)
        .put(addr, ADDR_W)
        .put(len, 8)
        .put(SIZE_8B, 3)
        .put(BURST_INCR, 2)
        .put(user, USER_W);
}

static void drive(Vroute_tb_top &t, const route_master &m, const sysmem_pins s[2])
{
    packed_cursor req(t.m_req_i.data(), 0, REQ_W);
    req.put(m.awvalid, 1);
    put_ax(req, m.awid, m.awaddr, m.awlen, m.awuser);
    req.put(m.wvalid, 1).put(m.wdata, DATA_W).put(m.wstrb, 8).put(m.wlast, 1).put(m.bready, 1);
    req.put(m.arvalid, 1);
    put_ax(req, m.arid, m.araddr, m.arlen, m.aruser);
    req.put(m.rready, 1).done();
    t.m_awsel_i = m.awsel;
    t.m_arsel_i = m.arsel;
    for (int k = 0; k < 2; k++) {
        packed_cursor rsp(t.s_rsp_i.data(), k * RSP_W, RSP_W);
        rsp.put(s[k].awready, 1).put(s[k].wready, 1);
        rsp.put(s[k].bvalid, 1).put(s[k].bid, ID_W).put(s[k].bresp, 2);
        rsp.put(s[k].arready, 1);
        rsp.put(s[k].rvalid, 1).put(s[k].rid, ID_W).put(s[k].rdata, DATA_W).put(s[k].rresp, 2);
        rsp.put(s[k].rlast, 1).done();
    }
}

// An axi4_ax_t towards a slave model: the user bit becomes AxCACHE.
static void get_ax(packed_cursor &c, uint8_t &id, uint64_t &addr, uint8_t &len, uint8_t &size,
                   uint8_t &burst, uint8_t &cache)
{
    id = (uint8_t)c.get(ID_W);
    addr = c.get(ADDR_W);
    len = (uint8_t)c.get(8);
    size = (uint8_t)c.get(3);
    burst = (uint8_t)c.get(2);
    cache = (c.get(USER_W) & 1) ? CACHE_COHERENT : CACHE_NONCOHERENT;
}

static void sample(Vroute_tb_top &t, route_master &m, sysmem_pins s[2])
{
    packed_cursor rsp(t.m_rsp_o.data(), 0, RSP_W);
    m.awready = (uint8_t)rsp.get(1);
    m.wready = (uint8_t)rsp.get(1);
    m.bvalid = (uint8_t)rsp.get(1);
    m.bid = (uint8_t)rsp.get(ID_W);
    m.bresp = (uint8_t)rsp.get(2);
    m.arready = (uint8_t)rsp.get(1);
    m.rvalid = (uint8_t)rsp.get(1);
    m.rid = (uint8_t)rsp.get(ID_W);
    m.rdata = rsp.get(DATA_W);
    m.rresp = (uint8_t)rsp.get(2);
    m.rlast = (uint8_t)rsp.get(1);
    rsp.done();
    for (int k = 0; k < 2; k++) {
        sysmem_pins &p = s[k];
        packed_cursor req(t.s_req_o.data(), k * REQ_W, REQ_W);
        p.awvalid = (uint8_t)req.get(1);
        get_ax(req, p.awid, p.awaddr, p.awlen, p.awsize, p.awburst, p.awcache);
        p.wvalid = (uint8_t)req.get(1);
        p.wdata = req.get(DATA_W);
        p.wstrb = (uint8_t)req.get(8);
        p.wlast = (uint8_t)req.get(1);
        p.bready = (uint8_t)req.get(1);
        p.arvalid = (uint8_t)req.get(1);
        get_ax(req, p.arid, p.araddr, p.arlen, p.arsize, p.arburst, p.arcache);
        p.rready = (uint8_t)req.get(1);
        req.done();
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
