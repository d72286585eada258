// SPDX-License-Identifier: Apache-2.0
#include "bar_master.h"

#include <stdlib.h>
#include <string.h>

enum phase { IDLE, ADDR, RESP };

/* Reads done on the AXI side whose completions wait for the link latency.
 * They all wait the same time after starting, so they leave in order. */
#define IN_FLIGHT 64u

struct read_done {
    struct pcie_link_request req;
    uint64_t due; /* cycle the completion goes back to the link */
    uint32_t rdata;
    int status;
};

struct bar_master {
    struct pcie_link *link;
    unsigned read_latency;
    enum phase phase;
    struct pcie_link_request req;
    bool aw_done, w_done;
    uint64_t cycle, started;
    struct read_done done[IN_FLIGHT];
    unsigned done_head, done_count;
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
    if (m->phase == IDLE && m->done_count < IN_FLIGHT && pcie_link_next_request(m->link, &m->req)) {
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

/* The read is done on the bus: its completion waits for the latency, and
 * the port takes the next request at once. */
static void read_done(struct bar_master *m, uint32_t rdata, int status)
{
    struct read_done *d = &m->done[(m->done_head + m->done_count) % IN_FLIGHT];
    d->req = m->req;
    d->due = m->started + m->read_latency;
    d->rdata = rdata;
    d->status = status;
    m->done_count++;
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
        read_done(m, p->rdata, p->rresp == 0 ? GMMU_SIMLINK_ST_OK : GMMU_SIMLINK_ST_BUS_ERROR);
    }
}

void bar_master_clock(struct bar_master *m, const struct axil_pins *bar0,
                      const struct axil_pins *bar1)
{
    m->cycle++;
    if (m->phase == ADDR || m->phase == RESP)
        clock_request(m, m->req.bar == 0 ? bar0 : bar1);
    while (m->done_count > 0 && m->cycle >= m->done[m->done_head].due) {
        const struct read_done *d = &m->done[m->done_head];
        pcie_link_complete_read(m->link, &d->req, d->rdata, d->status);
        m->done_head = (m->done_head + 1) % IN_FLIGHT;
        m->done_count--;
    }
}

void bar_master_get_stats(const struct bar_master *m, struct bar_master_stats *out)
{
    *out = m->stats;
}
