// SPDX-License-Identifier: Apache-2.0
/*
 * The segment router of soc_top (rtl/soc/axi4_demux.sv with rtl/soc/axi4_err_slave.sv
 * as its third slave) under random traffic: bursts to a fast slave, a slow
 * slave and the error slave, with few IDs so that same-ID bursts go to
 * different slaves, and random back-pressure on R and B. Checked against
 * expectations kept here:
 *
 *   - every R beat and B response comes back on its ID in issue order, with
 *     the data of the slave its burst was routed to (slave 0/1 memory, or
 *     DECERR with data 0 from the error slave) and RLAST on the last beat;
 *   - the write data lands in the routed slave's memory, nowhere else;
 *   - the user bit (CacheCoherent) reaches the slave with its burst;
 *   - everything finishes (no hang), whatever the mix.
 *
 * The AXI4 protocol checkers bound to axi4_demux (rtl/dv) watch the same
 * traffic. --inject NAME breaks the master's side on purpose, so that a
 * checker must stop the run (make t-axi-checker expects it to):
 *   valid-drop  the first AR not taken at once is withdrawn the next cycle;
 *   cross-4k    one read burst runs over the end of a 4 KB page.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dut.h"
#include "sysmem_port.h"

#define MEM_BYTES  0x10000u
#define READ_AREA  0x8000u /* reads below, writes above */
#define BURSTS     600u
#define IDS        4u
#define MAX_CYCLES 2000000u
#define DECERR     3u

static uint8_t mem[2][MEM_BYTES];
static int failures;

enum inject { INJECT_NONE, INJECT_VALID_DROP, INJECT_CROSS_4K };
static enum inject inject;

#define CHECK(cond, ...)                                \
    do {                                                \
        if (!(cond)) {                                  \
            if (failures++ < 10) {                      \
                fprintf(stderr, "route: " __VA_ARGS__); \
                fputc('\n', stderr);                    \
            }                                           \
        }                                               \
    } while (0)

static uint64_t base_of(unsigned slave)
{
    return (uint64_t)(slave + 1) << 32; /* above 4 GiB: the top address bits must pass */
}

static void *resolve(void *ctx, uint64_t addr, uint64_t len)
{
    unsigned k = (unsigned)(uintptr_t)ctx;
    uint64_t off = addr - base_of(k);
    if (addr < base_of(k) || off > MEM_BYTES || len > MEM_BYTES - off)
        return NULL;
    return mem[k] + off;
}

struct burst {
    bool write;
    uint8_t sel, id, len, user;
    uint64_t offset; /* in the slave's memory */
    uint64_t seed;   /* write data: seed + beat */
    unsigned beats_done;
};

static struct burst bursts[BURSTS];

/* Per-ID FIFOs of issued bursts (indices into bursts[]). */
struct fifo {
    unsigned v[BURSTS];
    unsigned head, count;
};

static struct fifo r_expect[IDS], b_expect[IDS], w_owed;

static void push(struct fifo *f, unsigned v)
{
    f->v[(f->head + f->count++) % BURSTS] = v;
}
static unsigned front(const struct fifo *f)
{
    return f->v[f->head];
}
static void pop(struct fifo *f)
{
    f->head = (f->head + 1) % BURSTS;
    f->count--;
}

static uint64_t word_at(unsigned k, uint64_t off)
{
    uint64_t w;
    memcpy(&w, mem[k] + off, 8);
    return w;
}

static void make_bursts(void)
{
    uint64_t next_write = READ_AREA;
    for (unsigned i = 0; i < BURSTS; i++) {
        struct burst *b = &bursts[i];
        static const uint8_t lens[] = { 0, 1, 3, 7 };
        b->write = rand() % 2;
        b->sel = (uint8_t)(rand() % 5 == 0 ? 2 : rand() % 2);
        b->id = (uint8_t)(rand() % IDS);
        b->len = lens[rand() % 4];
        b->user = (uint8_t)(rand() % 2);
        b->seed = ((uint64_t)rand() << 32) ^ (uint64_t)rand();
        if (b->write) {
            b->offset = next_write; /* every write its own place, for the final check */
            next_write += 64;
        } else {
            b->offset = (uint64_t)(rand() % (READ_AREA / 64)) * 64;
        }
    }
    for (unsigned k = 0; k < 2; k++)
        for (unsigned i = 0; i < MEM_BYTES; i++)
            mem[k][i] = (uint8_t)(i * 13 + k * 101 + 7);
}

struct master {
    unsigned next_ar, next_aw;        /* next read / write to issue, in bursts[] order */
    unsigned reads_left, writes_left; /* responses still due */
    unsigned coherent_reads[2], coherent_writes[2];
    bool w_offered;  /* WVALID last cycle without WREADY */
    bool ar_offered; /* ARVALID last cycle without ARREADY */
    bool ar_dropped; /* --inject valid-drop done */
};

static unsigned next_of_kind(unsigned from, bool write)
{
    while (from < BURSTS && bursts[from].write != write)
        from++;
    return from;
}

static void set_inputs(struct master *ms, struct route_master *m)
{
    memset(m, 0, sizeof(*m));
    if (inject == INJECT_VALID_DROP && ms->ar_offered && !ms->ar_dropped) {
        ms->ar_dropped = true; /* AXI forbids this: ARVALID falls before ARREADY */
    } else if (ms->next_ar < BURSTS) {
        const struct burst *b = &bursts[ms->next_ar];
        m->arvalid = 1, m->arsel = b->sel, m->arid = b->id, m->arlen = b->len;
        m->aruser = b->user, m->araddr = base_of(b->sel < 2 ? b->sel : 0) + b->offset;
    }
    if (ms->next_aw < BURSTS) {
        const struct burst *b = &bursts[ms->next_aw];
        m->awvalid = 1, m->awsel = b->sel, m->awid = b->id, m->awlen = b->len;
        m->awuser = b->user, m->awaddr = base_of(b->sel < 2 ? b->sel : 0) + b->offset;
    }
    /* A W beat once offered stays until taken (AXI); gaps come between. */
    if (w_owed.count > 0 && (ms->w_offered || rand() % 4 != 0)) {
        const struct burst *b = &bursts[front(&w_owed)];
        m->wvalid = 1, m->wdata = b->seed + b->beats_done, m->wstrb = 0xFF;
        m->wlast = b->beats_done == b->len;
    }
    m->rready = rand() % 10 < 7;
    m->bready = rand() % 10 < 7;
}

static void check_r(struct master *ms, const struct route_master *m)
{
    CHECK(r_expect[m->rid].count > 0, "R beat on ID %u with nothing outstanding", m->rid);
    if (r_expect[m->rid].count == 0)
        return;
    struct burst *b = &bursts[front(&r_expect[m->rid])];
    uint64_t want = b->sel < 2 ? word_at(b->sel, b->offset + 8u * b->beats_done) : 0;
    CHECK(m->rresp == (b->sel < 2 ? 0u : DECERR), "R resp %u for slave %u", m->rresp, b->sel);
    CHECK(m->rdata == want, "R data %#llx, want %#llx (slave %u, ID %u)",
          (unsigned long long)m->rdata, (unsigned long long)want, b->sel, m->rid);
    CHECK(m->rlast == (b->beats_done == b->len), "RLAST at beat %u of %u", b->beats_done, b->len);
    if (b->beats_done++ == b->len) {
        pop(&r_expect[m->rid]);
        ms->reads_left--;
    }
}

static void check_b(struct master *ms, const struct route_master *m)
{
    CHECK(b_expect[m->bid].count > 0, "B on ID %u with nothing outstanding", m->bid);
    if (b_expect[m->bid].count == 0)
        return;
    const struct burst *b = &bursts[front(&b_expect[m->bid])];
    CHECK(b->beats_done == b->len + 1u, "B before the last W beat");
    CHECK(m->bresp == (b->sel < 2 ? 0u : DECERR), "B resp %u for slave %u", m->bresp, b->sel);
    pop(&b_expect[m->bid]);
    ms->writes_left--;
}

static void record(struct master *ms, const struct route_master *m)
{
    if (m->arvalid && m->arready) {
        const struct burst *b = &bursts[ms->next_ar];
        push(&r_expect[b->id], ms->next_ar);
        if (b->sel < 2 && b->user)
            ms->coherent_reads[b->sel]++;
        ms->next_ar = next_of_kind(ms->next_ar + 1, false);
    }
    if (m->awvalid && m->awready) {
        const struct burst *b = &bursts[ms->next_aw];
        push(&b_expect[b->id], ms->next_aw);
        push(&w_owed, ms->next_aw);
        if (b->sel < 2 && b->user)
            ms->coherent_writes[b->sel]++;
        ms->next_aw = next_of_kind(ms->next_aw + 1, true);
    }
    ms->w_offered = m->wvalid && !m->wready;
    ms->ar_offered = m->arvalid && !m->arready;
    if (m->wvalid && m->wready) {
        struct burst *b = &bursts[front(&w_owed)];
        if (b->beats_done++ == b->len)
            pop(&w_owed);
    }
    if (m->rvalid && m->rready)
        check_r(ms, m);
    if (m->bvalid && m->bready)
        check_b(ms, m);
}

static void check_memory(void)
{
    for (unsigned i = 0; i < BURSTS; i++) {
        const struct burst *b = &bursts[i];
        for (unsigned k = 0; b->write && k < 2; k++) {
            for (unsigned beat = 0; beat <= b->len; beat++) {
                uint64_t got = word_at(k, b->offset + 8u * beat);
                if (k == b->sel)
                    CHECK(got == b->seed + beat, "write %u beat %u missing in slave %u", i, beat,
                          k);
                else
                    CHECK(got != b->seed + beat, "write %u beat %u leaked to slave %u", i, beat, k);
            }
        }
    }
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--inject") == 0 && strcmp(argv[2], "valid-drop") == 0) {
        inject = INJECT_VALID_DROP;
    } else if (argc == 3 && strcmp(argv[1], "--inject") == 0 && strcmp(argv[2], "cross-4k") == 0) {
        inject = INJECT_CROSS_4K;
    } else if (argc != 1) {
        fprintf(stderr, "usage: route_tb [--inject valid-drop|cross-4k]\n");
        return 2;
    }
    srand(20261123);
    make_bursts();
    if (inject == INJECT_CROSS_4K) {
        /* The first read to slave 0: two beats from 8 bytes below a page end. */
        for (unsigned i = 0; i < BURSTS; i++) {
            if (!bursts[i].write && bursts[i].sel == 0) {
                bursts[i].offset = 0x0FF8, bursts[i].len = 1;
                break;
            }
        }
    }
    struct sysmem_port *port[2] = {
        sysmem_port_create(3, 0xF, resolve, (void *)(uintptr_t)0),  /* fast */
        sysmem_port_create(60, 0xF, resolve, (void *)(uintptr_t)1), /* slow: reorders if allowed */
    };
    struct route_dut *d = route_dut_create();
    struct master ms = { .next_ar = next_of_kind(0, false), .next_aw = next_of_kind(0, true) };
    for (unsigned i = 0; i < BURSTS; i++)
        bursts[i].write ? ms.writes_left++ : ms.reads_left++;

    unsigned cycle = 0;
    for (; cycle < MAX_CYCLES && (ms.reads_left || ms.writes_left); cycle++) {
        struct route_master m;
        struct sysmem_pins s[2];
        memset(s, 0, sizeof(s));
        sysmem_port_drive(port[0], &s[0]);
        sysmem_port_drive(port[1], &s[1]);
        set_inputs(&ms, &m);
        route_dut_eval(d, &m, s);
        record(&ms, &m);
        sysmem_port_clock(port[0], &s[0]);
        sysmem_port_clock(port[1], &s[1]);
        route_dut_tick(d);
    }
    CHECK(ms.reads_left == 0 && ms.writes_left == 0,
          "hung: %u reads and %u writes outstanding after %u cycles", ms.reads_left, ms.writes_left,
          cycle);
    check_memory();
    for (unsigned k = 0; k < 2; k++) {
        struct sysmem_port_stats st = sysmem_port_get_stats(port[k]);
        CHECK(st.coherent_read_bursts == ms.coherent_reads[k], "slave %u coherent reads", k);
        CHECK(st.coherent_write_bursts == ms.coherent_writes[k], "slave %u coherent writes", k);
        CHECK(st.read_error_beats + st.write_error_beats + st.protocol_errors == 0,
              "slave %u saw errors", k);
        sysmem_port_destroy(port[k]);
    }
    route_dut_destroy(d);
    printf("route: %u bursts in %u cycles: %s\n", BURSTS, cycle, failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
