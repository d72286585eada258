// SPDX-License-Identifier: Apache-2.0
/*
 * The system-memory port's AXI4 slave: see sysmem_port.h. Plain C11.
 */
#include "sysmem_port.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define BUS_BYTES   8u
#define RESP_OKAY   0u
#define RESP_SLVERR 2u
#define BURST_FIXED 0u
#define BURST_INCR  1u

struct burst {
    uint64_t start;
    unsigned beats, size, done; /* size in bytes; done: beats transferred */
    uint8_t id;
    bool fixed;
    bool error;   /* writes: a beat found no memory */
    uint64_t due; /* reads: cycle of the first beat */
};

struct queue {
    struct burst b[SYSMEM_PORT_MAX_BURSTS];
    unsigned head, count;
};

struct r_beat {
    bool valid, last;
    uint8_t id, resp;
    uint64_t data;
};

struct sysmem_port {
    unsigned latency, coherent_cache;
    sysmem_resolve_fn resolve;
    void *ctx;
    uint64_t cycle;
    struct queue reads;
    struct queue writes; /* bursts whose B has not been taken, in order */
    struct r_beat r;
    struct sysmem_port_stats stats;
};

/* ------------------------------------------------------------ queues */

static struct burst *q_at(struct queue *q, unsigned i)
{
    return &q->b[(q->head + i) % SYSMEM_PORT_MAX_BURSTS];
}

static const struct burst *q_peek(const struct queue *q, unsigned i)
{
    return &q->b[(q->head + i) % SYSMEM_PORT_MAX_BURSTS];
}

static void q_push(struct queue *q, struct burst b)
{
    *q_at(q, q->count) = b;
    q->count++;
}

static void q_pop(struct queue *q)
{
    q->head = (q->head + 1) % SYSMEM_PORT_MAX_BURSTS;
    q->count--;
}

/* ------------------------------------------------------------ bursts */

/* The SoC issues INCR bursts of full 64-bit beats; anything else is served
 * as well as it can be and counted. */
static struct burst decode(struct sysmem_port *p, uint64_t addr, uint8_t id, uint8_t len,
                           uint8_t size, uint8_t type)
{
    if (size > 3 || type > BURST_INCR)
        p->stats.protocol_errors++;
    struct burst b = { .start = addr,
                       .beats = len + 1u,
                       .size = 1u << (size > 3 ? 3 : size),
                       .id = id,
                       .fixed = type == BURST_FIXED };
    return b;
}

static uint64_t beat_addr(const struct burst *b, unsigned beat)
{
    if (b->fixed || beat == 0)
        return b->start;
    return (b->start & ~(uint64_t)(b->size - 1)) + (uint64_t)beat * b->size;
}

/* Bytes of the beat: from its address to the end of its transfer size. */
static unsigned beat_len(const struct burst *b, uint64_t addr)
{
    return b->size - (unsigned)(addr & (b->size - 1));
}

/* ------------------------------------------------------------ reads */

static struct r_beat read_beat(const struct sysmem_port *p, const struct burst *b)
{
    uint64_t addr = beat_addr(b, b->done);
    unsigned len = beat_len(b, addr);
    struct r_beat r = {
        .valid = true, .last = b->done + 1 == b->beats, .id = b->id, .resp = RESP_SLVERR, .data = 0
    };
    const uint8_t *mem = p->resolve(p->ctx, addr, len);
    if (mem == NULL)
        return r;
    r.resp = RESP_OKAY;
    for (unsigned i = 0; i < len; i++)
        r.data |= (uint64_t)mem[i] << (8 * ((addr + i) % BUS_BYTES));
    return r;
}

/* After the cycle advanced: the R beat of the new cycle, if one is due. */
static void prepare_read(struct sysmem_port *p)
{
    if (p->r.valid || p->reads.count == 0)
        return;
    const struct burst *b = q_peek(&p->reads, 0);
    if (b->due <= p->cycle)
        p->r = read_beat(p, b);
}

static void retire_read_beat(struct sysmem_port *p)
{
    struct burst *b = q_at(&p->reads, 0);
    p->stats.read_beats++;
    if (p->r.resp != RESP_OKAY)
        p->stats.read_error_beats++;
    p->r.valid = false;
    if (++b->done == b->beats)
        q_pop(&p->reads);
}

/* ------------------------------------------------------------ writes */

/* The burst that takes the next W beat: the oldest still short of data. */
static struct burst *w_target(struct sysmem_port *p)
{
    for (unsigned i = 0; i < p->writes.count; i++) {
        struct burst *b = q_at(&p->writes, i);
        if (b->done < b->beats)
            return b;
    }
    return NULL;
}

static bool w_ready(const struct sysmem_port *p)
{
    for (unsigned i = 0; i < p->writes.count; i++) {
        const struct burst *b = q_peek(&p->writes, i);
        if (b->done < b->beats)
            return true;
    }
    return false;
}

static void write_beat(struct sysmem_port *p, struct burst *b, const struct sysmem_pins *pins)
{
    uint64_t addr = beat_addr(b, b->done);
    unsigned len = beat_len(b, addr);
    unsigned lane0 = (unsigned)(addr % BUS_BYTES);
    uint8_t lanes = (uint8_t)(((1u << len) - 1) << lane0);
    if ((pins->wstrb & ~lanes) != 0)
        p->stats.protocol_errors++;
    if (pins->wlast != (b->done + 1 == b->beats))
        p->stats.protocol_errors++;
    uint8_t *mem = p->resolve(p->ctx, addr, len);
    p->stats.write_beats++;
    b->done++;
    if (mem == NULL) {
        b->error = true;
        p->stats.write_error_beats++;
        return;
    }
    for (unsigned i = 0; i < len; i++) {
        if (pins->wstrb & (1u << (lane0 + i)))
            mem[i] = (uint8_t)(pins->wdata >> (8 * (lane0 + i)));
    }
}

static bool b_ready(const struct sysmem_port *p)
{
    if (p->writes.count == 0)
        return false;
    const struct burst *b = q_peek(&p->writes, 0);
    return b->done == b->beats && b->due <= p->cycle;
}

/* ------------------------------------------------------------ per cycle */

void sysmem_port_drive(const struct sysmem_port *p, struct sysmem_pins *pins)
{
    pins->arready = p->reads.count < SYSMEM_PORT_MAX_BURSTS;
    pins->awready = p->writes.count < SYSMEM_PORT_MAX_BURSTS;
    pins->wready = w_ready(p);
    pins->rvalid = p->r.valid;
    pins->rid = p->r.valid ? p->r.id : 0;
    pins->rdata = p->r.valid ? p->r.data : 0;
    pins->rresp = p->r.valid ? p->r.resp : 0;
    pins->rlast = p->r.valid && p->r.last;
    bool bvalid = b_ready(p);
    const struct burst *b = q_peek(&p->writes, 0);
    pins->bvalid = bvalid;
    pins->bid = bvalid ? b->id : 0;
    pins->bresp = bvalid && b->error ? RESP_SLVERR : RESP_OKAY;
}

static void accept_read(struct sysmem_port *p, const struct sysmem_pins *pins)
{
    struct burst b = decode(p, pins->araddr, pins->arid, pins->arlen, pins->arsize, pins->arburst);
    b.due = p->cycle + p->latency;
    q_push(&p->reads, b);
    p->stats.read_bursts++;
    if (pins->arcache == p->coherent_cache)
        p->stats.coherent_read_bursts++;
}

static void accept_write(struct sysmem_port *p, const struct sysmem_pins *pins)
{
    struct burst b = decode(p, pins->awaddr, pins->awid, pins->awlen, pins->awsize, pins->awburst);
    q_push(&p->writes, b);
    p->stats.write_bursts++;
    if (pins->awcache == p->coherent_cache)
        p->stats.coherent_write_bursts++;
}

/* Handshakes are recomputed from state, not read back from the pins. */
void sysmem_port_clock(struct sysmem_port *p, const struct sysmem_pins *pins)
{
    bool r_hs = p->r.valid && pins->rready;
    bool b_hs = b_ready(p) && pins->bready;
    bool ar_hs = pins->arvalid && p->reads.count < SYSMEM_PORT_MAX_BURSTS;
    bool aw_hs = pins->awvalid && p->writes.count < SYSMEM_PORT_MAX_BURSTS;
    struct burst *w = pins->wvalid ? w_target(p) : NULL;

    if (r_hs)
        retire_read_beat(p);
    if (b_hs)
        q_pop(&p->writes);
    if (w != NULL) {
        write_beat(p, w, pins);
        if (w->done == w->beats)
            w->due = p->cycle + 1; /* B the cycle after the last beat */
    }
    if (ar_hs)
        accept_read(p, pins);
    if (aw_hs)
        accept_write(p, pins);
    p->cycle++;
    prepare_read(p);
}

/* ------------------------------------------------------------ lifetime */

struct sysmem_port *sysmem_port_create(unsigned read_latency, unsigned coherent_cache,
                                       sysmem_resolve_fn resolve, void *ctx)
{
    struct sysmem_port *p = (struct sysmem_port *)calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->latency = read_latency ? read_latency : SYSMEM_PORT_DEFAULT_LATENCY;
    p->coherent_cache = coherent_cache;
    p->resolve = resolve;
    p->ctx = ctx;
    return p;
}

void sysmem_port_destroy(struct sysmem_port *p)
{
    free(p);
}

struct sysmem_port_stats sysmem_port_get_stats(const struct sysmem_port *p)
{
    return p->stats;
}
