// SPDX-License-Identifier: Apache-2.0
#include "bar_master.h"

#include <stdlib.h>
#include <string.h>

enum phase { IDLE, ADDR, RESP, WAIT_LATENCY };

struct bar_master {
    struct pcie_link *link;
    unsigned read_latency;
    enum phase phase;
    struct pcie_link_request req;
    bool aw_done, w_done;
    uint64_t cycle, started;
    uint32_t rdata;
    int status;
    struct bar_master_stats stats;
};

struct bar_master *bar_master_create(struct pcie_link *link, unsigned read_latency)
{
    struct bar_master *m = calloc(1, sizeof *m);
    if (m) {
        m->link = link;
        m->read_latency = read_latency;
    }
    return m;
}

void bar_master_destroy(struct bar_master *m)
{
    free(m);
}

static void set_request_pins(const struct bar_master *m, struct axil_pins *p)
{
    bool write = m->req.kind == PCIE_LINK_WRITE;
    p->awvalid = m->phase == ADDR && write && !m->aw_done;
    p->wvalid = m->phase == ADDR && write && !m->w_done;
    p->awaddr = (uint32_t)m->req.offset;
    p->wdata = m->req.data;
    p->wstrb = 0xF;
    p->arvalid = m->phase == ADDR && !write;
    p->araddr = (uint32_t)m->req.offset;
    p->bready = m->phase == RESP && write;
    p->rready = m->phase == RESP && !write;
}

void bar_master_drive(struct bar_master *m, struct axil_pins *bar0, struct axil_pins *bar1)
{
    if (m->phase == IDLE && pcie_link_next_request(m->link, &m->req)) {
        m->phase = ADDR;
        m->aw_done = m->w_done = false;
        m->started = m->cycle;
    }
    struct axil_pins *active = m->req.bar == 0 ? bar0 : bar1;
    struct axil_pins *other = m->req.bar == 0 ? bar1 : bar0;
    memset(other, 0, sizeof *other);
    if (m->phase == IDLE) {
        memset(active, 0, sizeof *active);
        return;
    }
    set_request_pins(m, active);
}

static void finish_read(struct bar_master *m)
{
    pcie_link_complete_read(m->link, &m->req, m->rdata, m->status);
    m->phase = IDLE;
}

static void clock_request(struct bar_master *m, const struct axil_pins *p)
{
    if (m->phase == ADDR) {
        if (p->awvalid && p->awready)
            m->aw_done = true;
        if (p->wvalid && p->wready)
            m->w_done = true;
        bool write = m->req.kind == PCIE_LINK_WRITE;
        if ((write && m->aw_done && m->w_done) || (!write && p->arvalid && p->arready))
            m->phase = RESP;
        return;
    }
    if (p->bvalid && p->bready) {
        m->stats.writes++;
        m->stats.errors += p->bresp != 0;
        m->phase = IDLE;
    } else if (p->rvalid && p->rready) {
        m->stats.reads++;
        m->stats.errors += p->rresp != 0;
        m->rdata = p->rdata;
        m->status = p->rresp == 0 ? GMMU_SIMLINK_ST_OK : GMMU_SIMLINK_ST_BUS_ERROR;
        m->phase = WAIT_LATENCY;
    }
}

void bar_master_clock(struct bar_master *m, const struct axil_pins *bar0,
                      const struct axil_pins *bar1)
{
    m->cycle++;
    if (m->phase == ADDR || m->phase == RESP)
        clock_request(m, m->req.bar == 0 ? bar0 : bar1);
    if (m->phase == WAIT_LATENCY && m->cycle - m->started >= m->read_latency)
        finish_read(m);
}

void bar_master_get_stats(const struct bar_master *m, struct bar_master_stats *out)
{
    *out = m->stats;
}
