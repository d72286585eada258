/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Paging engine tests: directed per opcode and register, random packet
 * streams against the reference model, AXI errors at every packet type,
 * malformed packets of each kind, FLUSH_TLB against a modelled MMU, and
 * throughput. Packets are encoded here from include/gmmu/paging.h.
 */
#include <stdio.h>
#include <string.h>

#include "gmmu/mmu_regs.h"
#include "gmmu/paging.h"
#include "paging_tests.h"

_Static_assert((int)GMMU_PAGING_FLUSH_ALL == (int)GMMU_INV_ALL &&
                   (int)GMMU_PAGING_FLUSH_ASID == (int)GMMU_INV_ASID &&
                   (int)GMMU_PAGING_FLUSH_RANGE == (int)GMMU_INV_RANGE,
               "flush types are the MMU's INV_CMD types");

#define MAXW 520u

struct pkt {
    uint64_t w[MAXW];
    unsigned n;
};

static uint64_t hdr(unsigned op, uint64_t count, uint64_t flags)
{
    return op | flags | (count << 32);
}

static uint64_t dst_flag(bool sys)
{
    return sys ? GMMU_PAGING_HDR_DST_SYS : 0;
}

static void p_run(struct pkt *p, bool sys, uint64_t dst, uint32_t n, uint64_t first, uint64_t inc)
{
    p->w[0] = hdr(GMMU_PAGING_OP_WRITE_PTES, n, dst_flag(sys));
    p->w[1] = dst;
    p->w[2] = first;
    p->w[3] = inc;
    p->n = 4;
}

static void p_lit(struct tb *t, struct pkt *p, bool sys, uint64_t dst, uint32_t n)
{
    p->w[0] = hdr(GMMU_PAGING_OP_WRITE_PTES, n, dst_flag(sys) | GMMU_PAGING_HDR_LITERAL);
    p->w[1] = dst;
    for (uint32_t i = 0; i < n; i++)
        p->w[2 + i] = rng_next(&t->rng);
    p->n = 2 + n;
}

static void p_fill(struct pkt *p, bool sys, uint64_t dst, uint32_t n, uint64_t pattern)
{
    p->w[0] = hdr(GMMU_PAGING_OP_FILL, n, dst_flag(sys));
    p->w[1] = dst;
    p->w[2] = pattern;
    p->n = 3;
}

static void p_copy(struct pkt *p, bool dsys, uint64_t dst, bool ssys, uint64_t src, uint32_t n)
{
    p->w[0] = hdr(GMMU_PAGING_OP_COPY, n, dst_flag(dsys) | (ssys ? GMMU_PAGING_HDR_SRC_SYS : 0));
    p->w[1] = dst;
    p->w[2] = src;
    p->n = 3;
}

static void p_flush(struct pkt *p, unsigned type, uint64_t asid, uint64_t va0, uint64_t va1)
{
    p->w[0] = hdr(GMMU_PAGING_OP_FLUSH_TLB, type, 0);
    p->w[1] = asid;
    p->w[2] = va0;
    p->w[3] = va1;
    p->n = 4;
}

static void p_fence(struct pkt *p, uint64_t flags, uint64_t addr, uint64_t value)
{
    p->w[0] = hdr(GMMU_PAGING_OP_FENCE, 0, flags);
    p->w[1] = addr;
    p->w[2] = value;
    p->n = 3;
}

static unsigned op_of(const struct pkt *p)
{
    return (unsigned)(p->w[0] & 0xFF);
}
static uint32_t count_of(const struct pkt *p)
{
    return (uint32_t)(p->w[0] >> 32);
}

/* ------------------------------------------------------------ streams */
struct stream_mark {
    uint32_t done;
    unsigned flushes;
    uint64_t inv;
};

static struct stream_mark mark(struct tb *t)
{
    struct stream_mark m = { tb_rd(t, GMMU_PAGING_PACKETS_DONE), t->ref.n_flushes,
                             t->inv_requests };
    return m;
}

/* Puts one packet and applies it to the reference. */
static bool put(struct tb *t, const struct pkt *p)
{
    TB_CHECK(t, ref_validate(&t->ref.cfg, p->w) == GMMU_PAGING_ERR_NONE,
             "generator made an invalid packet");
    if (!tb_queue_put(t, p->w, p->n))
        return false;
    ref_exec(&t->ref, p->w);
    if (op_of(p) == GMMU_PAGING_OP_COPY)
        tb_expect_copy(t, count_of(p));
    return true;
}

static void put_all(struct tb *t, const struct pkt *ps, unsigned n)
{
    for (unsigned i = 0; i < n;) {
        if (put(t, &ps[i])) {
            i++;
            if (i == n || rng_chance(&t->rng, 40))
                tb_publish(t);
        } else {
            tb_publish(t);
            tb_cycles(t, 16);
        }
    }
    tb_publish(t);
}

/* After the engine went idle: everything done, in the reference's state. */
static void finish(struct tb *t, struct stream_mark m, unsigned n)
{
    uint32_t st = tb_rd(t, GMMU_PAGING_STATUS);
    TB_CHECK(t, !(st & GMMU_PAGING_STATUS_ERROR),
             "STATUS %#x: error code %u at packet %u, address %#x", st,
             (st >> GMMU_PAGING_STATUS_CODE_LSB) & 7, tb_rd(t, GMMU_PAGING_ERR_PACKET),
             tb_rd(t, GMMU_PAGING_ERR_ADDR_LO));
    uint32_t done = tb_rd(t, GMMU_PAGING_PACKETS_DONE);
    TB_CHECK(t, done == m.done + n, "PACKETS_DONE %u, expected %u", done, m.done + n);
    uint32_t tail = tb_rd(t, GMMU_PAGING_TAIL);
    TB_CHECK(t, tail == t->head, "TAIL %u, HEAD %u", tail, t->head);
    if (t->ref.fences) {
        uint64_t f = tb_rd(t, GMMU_PAGING_FENCE_LO) | (uint64_t)tb_rd(t, GMMU_PAGING_FENCE_HI)
                                                          << 32;
        TB_CHECK(t, f == t->ref.fence_value, "FENCE %#llx, expected %#llx", (unsigned long long)f,
                 (unsigned long long)t->ref.fence_value);
    }
    unsigned nf = t->ref.n_flushes - m.flushes;
    TB_CHECK(t, t->inv_requests - m.inv == nf, "%llu invalidation requests, expected %u",
             (unsigned long long)(t->inv_requests - m.inv), nf);
    for (unsigned i = 0; i < nf; i++) {
        const struct ref_flush *e = &t->ref.flushes[m.flushes + i], *g = &t->inv_log[m.inv + i];
        uint64_t amask = (UINT64_C(1) << t->prm.asid_bits) - 1;
        bool asid_ok = e->type == GMMU_PAGING_FLUSH_ALL || g->asid == (e->asid & amask);
        bool range_ok = e->type != GMMU_PAGING_FLUSH_RANGE ||
                        (g->first_page == e->first_page && g->last_page == e->last_page);
        TB_CHECK(t, g->type == e->type && asid_ok && range_ok,
                 "invalidation %u: type %u asid %llu pages %#llx..%#llx", i, g->type,
                 (unsigned long long)g->asid, (unsigned long long)g->first_page,
                 (unsigned long long)g->last_page);
    }
    tb_compare_memory(t);
}

static void run_stream(struct tb *t, const struct pkt *ps, unsigned n)
{
    struct stream_mark m = mark(t);
    put_all(t, ps, n);
    tb_wait_idle(t);
    finish(t, m, n);
}

static void enable(struct tb *t)
{
    tb_wr(t, GMMU_PAGING_CTRL, GMMU_PAGING_CTRL_ENABLE);
}

/* ------------------------------------------------------------ random packets */
static uint64_t rand_addr(struct tb *t, bool sys, uint32_t words)
{
    uint64_t a;
    if (rng_chance(&t->rng, 30)) /* just before a 4 KiB boundary */
        a = (rng_below(&t->rng, TB_REGION / 4096 - 1 - words / 512) + 1) * 4096 -
            8 * (1 + rng_below(&t->rng, 64));
    else
        a = 8 * rng_below(&t->rng, TB_REGION / 8 - words);
    return sys ? TB_SYS_BASE + a : a;
}

static uint32_t rand_count(struct tb *t)
{
    switch (rng_below(&t->rng, 4)) {
    case 0:
        return 1 + (uint32_t)rng_below(&t->rng, 8);
    case 1:
        return 1 + (uint32_t)rng_below(&t->rng, 64);
    case 2:
        return 1 + (uint32_t)rng_below(&t->rng, 600);
    default:
        return 500 + (uint32_t)rng_below(&t->rng, 800);
    }
}

static bool overlap(bool s1, uint64_t a1, bool s2, uint64_t a2, uint32_t n)
{
    return s1 == s2 && a1 < a2 + 8ull * n && a2 < a1 + 8ull * n;
}

static void rand_packet(struct tb *t, struct pkt *p)
{
    unsigned k = (unsigned)rng_below(&t->rng, 100);
    bool sys = rng_chance(&t->rng, 50);
    uint32_t n = rand_count(t);
    if (k < 30) {
        static const uint64_t incs[] = { 0x1000, 0x10000, 0x200000, 0 };
        uint64_t inc = rng_chance(&t->rng, 25) ? rng_next(&t->rng) : incs[rng_below(&t->rng, 4)];
        p_run(p, sys, rand_addr(t, sys, n), n, rng_next(&t->rng), inc);
    } else if (k < 42) {
        uint32_t max = t->prm.queue_words - 2 < 100 ? t->prm.queue_words - 2 : 100;
        n = 1 + (uint32_t)rng_below(&t->rng, max);
        p_lit(t, p, sys, rand_addr(t, sys, n), n);
    } else if (k < 62) {
        p_fill(p, sys, rand_addr(t, sys, n), n, rng_next(&t->rng));
    } else if (k < 82) {
        bool ssys = rng_chance(&t->rng, 50);
        uint64_t dst, src;
        do {
            dst = rand_addr(t, sys, n);
            src = rand_addr(t, ssys, n);
        } while (overlap(sys, dst, ssys, src, n));
        p_copy(p, sys, dst, ssys, src, n);
    } else if (k < 90) {
        unsigned type = (unsigned)rng_below(&t->rng, 3);
        uint64_t a = rng_next(&t->rng), b = rng_next(&t->rng);
        if (a > b) {
            uint64_t x = a;
            a = b;
            b = x;
        }
        p_flush(p, type, rng_below(&t->rng, UINT64_C(1) << t->prm.asid_bits), a, b);
    } else {
        uint64_t flags = (rng_chance(&t->rng, 50) ? GMMU_PAGING_HDR_FENCE_IRQ : 0) |
                         (rng_chance(&t->rng, 60) ? GMMU_PAGING_HDR_FENCE_WRITE : 0) |
                         dst_flag(sys);
        p_fence(p, flags, rand_addr(t, sys, 1), rng_next(&t->rng));
    }
}

/* ------------------------------------------------------------ directed */
static void expect_reg(struct tb *t, uint32_t off, uint32_t v, const char *what)
{
    uint32_t g = tb_rd(t, off);
    TB_CHECK(t, g == v, "%s reads %#x, expected %#x", what, g, v);
}

void test_directed(struct tb *t)
{
    struct tb_env env;
    tb_env_ideal(&env);
    tb_begin(t, "directed", &env, 2000000);
    tb_reset_tracking(t);

    expect_reg(t, GMMU_PAGING_ID, GMMU_PAGING_ID_VALUE, "ID");
    expect_reg(t, GMMU_PAGING_CONFIG, t->prm.max_burst | t->prm.copy_fifo_beats << 16, "CONFIG");
    expect_reg(t, GMMU_PAGING_QUEUE_WORDS, t->prm.queue_words, "QUEUE_WORDS");
    expect_reg(t, GMMU_PAGING_STATUS, 0, "STATUS after reset");
    expect_reg(t, GMMU_PAGING_TAIL, 0, "TAIL after reset");
    expect_reg(t, GMMU_PAGING_CTRL, 0, "CTRL after reset");
    tb_wr(t, GMMU_PAGING_IRQ_ENABLE, 3);
    expect_reg(t, GMMU_PAGING_IRQ_ENABLE, 3, "IRQ_ENABLE");
    tb_wr(t, GMMU_PAGING_PERF_PACKETS, 77);
    expect_reg(t, GMMU_PAGING_PERF_PACKETS, 77, "PERF_PACKETS");
    tb_wr(t, GMMU_PAGING_PERF_PACKETS, 0);
    expect_reg(t, GMMU_PAGING_QUEUE_OFFSET, 0, "queue window read");
    TB_CHECK(t, !t->pins.irq, "irq_o with nothing pending");

    /* ENABLE = 0: published packets wait, and the engine is not busy. */
    struct pkt p;
    struct stream_mark m = mark(t);
    p_fill(&p, false, 0x1000, 64, 0x1111);
    TB_CHECK(t, put(t, &p), "queue full");
    tb_publish(t);
    tb_cycles(t, 200);
    TB_CHECK(t, t->port[0].aw_count == 0, "a packet ran with ENABLE = 0");
    expect_reg(t, GMMU_PAGING_STATUS, 0, "STATUS with ENABLE = 0");
    enable(t);
    expect_reg(t, GMMU_PAGING_CTRL, GMMU_PAGING_CTRL_ENABLE, "CTRL");
    tb_wait_idle(t);
    finish(t, m, 1);
    expect_reg(t, GMMU_PAGING_PERF_PACKETS, 1, "PERF_PACKETS after one packet");

    /* One of each, both ports, runs across 4 KiB pages. */
    struct pkt ps[16];
    unsigned n = 0;
    p_run(&ps[n++], false, 0x10800, 512, 0x80000001ull, 0x1000); /* 4 KiB PTEs, crossing a page */
    p_run(&ps[n++], true, TB_SYS_BASE + 0x20000, 32, 0x3000000005ull, 0x10000); /* 64 KiB PTEs */
    p_lit(t, &ps[n++], false, 0x30ff0, t->prm.queue_words - 2 < 20 ? t->prm.queue_words - 2 : 20);
    p_lit(t, &ps[n++], true, TB_SYS_BASE + 0x31000,
          t->prm.queue_words - 2 < 40 ? t->prm.queue_words - 2 : 40);
    p_fill(&ps[n++], false, 0x40000, 700, 0xDEADBEEFCAFEF00Dull);
    p_fill(&ps[n++], true, TB_SYS_BASE + 0x40008, 1, 0x0123456789ABCDEFull);
    p_copy(&ps[n++], true, TB_SYS_BASE + 0x50000, false, 0x10800,
           512); /* VRAM -> sys, sees the PTEs above */
    p_copy(&ps[n++], false, 0x60010, true, TB_SYS_BASE + 0x20000, 32); /* sys -> VRAM */
    p_copy(&ps[n++], false, 0x70000, false, 0x40000, 700);             /* VRAM -> VRAM */
    p_copy(&ps[n++], true, TB_SYS_BASE + 0x80000, true, TB_SYS_BASE + 0x31000, 40);
    p_flush(&ps[n++], GMMU_PAGING_FLUSH_RANGE, 3, 0x7000, 0x9fff);
    p_flush(&ps[n++], GMMU_PAGING_FLUSH_ASID, 1, 0, 0);
    p_flush(&ps[n++], GMMU_PAGING_FLUSH_ALL, 0, 0, 0);
    p_fence(&ps[n++], GMMU_PAGING_HDR_FENCE_WRITE, 0x90000, 0xF00D);
    p_fence(&ps[n++], GMMU_PAGING_HDR_FENCE_WRITE | GMMU_PAGING_HDR_DST_SYS, TB_SYS_BASE + 0x90008,
            0xF00E);
    run_stream(t, ps, n);
    TB_CHECK(t, !(tb_rd(t, GMMU_PAGING_IRQ_STATUS) & GMMU_PAGING_IRQ_STATUS_FENCE),
             "FENCE irq without FENCE_IRQ");

    /* FENCE_IRQ without a write: IRQ_STATUS.FENCE and irq_o, cleared by W1C. */
    p_fence(&ps[0], GMMU_PAGING_HDR_FENCE_IRQ, 0, 0xABCD0123456789ull);
    run_stream(t, ps, 1);
    TB_CHECK(t, tb_rd(t, GMMU_PAGING_IRQ_STATUS) == GMMU_PAGING_IRQ_STATUS_FENCE && t->pins.irq,
             "FENCE_IRQ did not raise the interrupt");
    tb_wr(t, GMMU_PAGING_IRQ_ENABLE, 0);
    TB_CHECK(t, !t->pins.irq, "irq_o while disabled");
    tb_wr(t, GMMU_PAGING_IRQ_ENABLE, 3);
    tb_wr(t, GMMU_PAGING_IRQ_STATUS, GMMU_PAGING_IRQ_STATUS_FENCE);
    TB_CHECK(t, tb_rd(t, GMMU_PAGING_IRQ_STATUS) == 0 && !t->pins.irq,
             "IRQ_STATUS.FENCE not cleared");
    printf("directed: PASS\n");
}

/* ------------------------------------------------------------ random streams */
void test_random(struct tb *t, unsigned streams)
{
    static struct pkt ps[64];
    uint64_t words = 0, packets = 0;
    for (unsigned s = 0; s < streams; s++) {
        struct tb_env env;
        if (s % 4 == 0)
            tb_env_ideal(&env);
        else
            tb_env_random(t, &env);
        tb_begin(t, "random", &env, 20000000);
        enable(t);
        tb_reset_tracking(t);
        unsigned n = 1 + (unsigned)rng_below(&t->rng, 64);
        for (unsigned i = 0; i < n; i++) {
            rand_packet(t, &ps[i]);
            uint32_t c = count_of(&ps[i]);
            unsigned op = op_of(&ps[i]);
            if (op == GMMU_PAGING_OP_WRITE_PTES || op == GMMU_PAGING_OP_FILL ||
                op == GMMU_PAGING_OP_COPY)
                words += c;
        }
        run_stream(t, ps, n);
        packets += n;
    }
    printf("random: %u streams, %llu packets, %llu words written: PASS\n", streams,
           (unsigned long long)packets, (unsigned long long)words);
}

/* ------------------------------------------------------------ AXI errors */
/* Start of the burst (as the engine must cut them) holding word k of a run. */
static uint64_t burst_start(const struct tb *t, uint64_t a, uint32_t k)
{
    for (;;) {
        uint64_t len = (4096 - (a & 4095)) / 8;
        if (len > t->prm.max_burst)
            len = t->prm.max_burst;
        if (k < len)
            return a;
        k -= (uint32_t)len;
        a += 8 * len;
    }
}

/* After a stop: RESTART drops the rest, then later packets run. */
static void restart_and_continue(struct tb *t)
{
    tb_clear_errors(t);
    tb_wr(t, GMMU_PAGING_IRQ_STATUS, 3);
    TB_CHECK(t, !t->pins.irq, "irq_o after IRQ_STATUS was cleared");
    tb_wr(t, GMMU_PAGING_CTRL, GMMU_PAGING_CTRL_ENABLE | GMMU_PAGING_CTRL_RESTART);
    tb_wait_idle(t);
    uint32_t st = tb_rd(t, GMMU_PAGING_STATUS);
    TB_CHECK(t, st == 0, "STATUS %#x after RESTART", st);
    uint32_t tail = tb_rd(t, GMMU_PAGING_TAIL);
    TB_CHECK(t, tail == t->head, "TAIL %u != HEAD %u after RESTART", tail, t->head);
    tb_sync_ref(t);
    tb_reset_tracking(t);
    struct pkt ps[4];
    for (unsigned i = 0; i < 4; i++)
        rand_packet(t, &ps[i]);
    run_stream(t, ps, 4);
}

static void expect_stop(struct tb *t, unsigned code, uint32_t pkt, uint64_t addr, uint32_t tail)
{
    uint32_t st = tb_rd(t, GMMU_PAGING_STATUS);
    TB_CHECK(t,
             (st & GMMU_PAGING_STATUS_ERROR) && ((st >> GMMU_PAGING_STATUS_CODE_LSB) & 7) == code &&
                 !(st & GMMU_PAGING_STATUS_BUSY),
             "STATUS %#x, expected ERROR with code %u (%s)", st, code, gmmu_paging_err_name(code));
    expect_reg(t, GMMU_PAGING_ERR_PACKET, pkt, "ERR_PACKET");
    expect_reg(t, GMMU_PAGING_PACKETS_DONE, pkt, "PACKETS_DONE after the error");
    uint64_t ea = tb_rd(t, GMMU_PAGING_ERR_ADDR_LO) | (uint64_t)tb_rd(t, GMMU_PAGING_ERR_ADDR_HI)
                                                          << 32;
    TB_CHECK(t, ea == addr, "ERR_ADDR %#llx, expected %#llx", (unsigned long long)ea,
             (unsigned long long)addr);
    expect_reg(t, GMMU_PAGING_TAIL, tail, "TAIL after the error");
    TB_CHECK(t, (tb_rd(t, GMMU_PAGING_IRQ_STATUS) & GMMU_PAGING_IRQ_STATUS_ERROR) && t->pins.irq,
             "no error interrupt");
}

void test_axi_errors(struct tb *t)
{
    enum { RUN, LIT, FILL, COPY_RD, COPY_WR, FENCE, KINDS };
    static const char *names[KINDS] = { "WRITE_PTES", "WRITE_PTES literal", "FILL",
                                        "COPY read",  "COPY write",         "FENCE write" };
    for (unsigned c = 0; c < 2 * KINDS; c++) {
        unsigned kind = c % KINDS;
        bool sys = c >= KINDS; /* the port that fails */
        struct tb_env env;
        tb_env_random(t, &env);
        tb_begin(t, names[kind], &env, 4000000);
        enable(t);
        tb_wr(t, GMMU_PAGING_IRQ_ENABLE, 3);
        tb_reset_tracking(t);
        uint32_t done0 = tb_rd(t, GMMU_PAGING_PACKETS_DONE);

        struct pkt ps[5];
        p_fill(&ps[0], false, 0x100000, 300, 1);
        p_run(&ps[1], true, TB_SYS_BASE + 0x100000, 100, 2, 3);
        uint32_t n = kind == LIT     ? 1 + (uint32_t)rng_below(&t->rng, t->prm.queue_words - 2 < 60
                                                                            ? t->prm.queue_words - 2
                                                                            : 60)
                     : kind == FENCE ? 1
                                     : 200 + (uint32_t)rng_below(&t->rng, 700);
        uint32_t k = (uint32_t)rng_below(&t->rng, n);
        uint64_t base = (sys ? TB_SYS_BASE : 0) + 0x20000 + 8 * rng_below(&t->rng, 512);
        uint64_t other = (sys ? 0 : TB_SYS_BASE) + 0x60000;
        unsigned code = GMMU_PAGING_ERR_AXI_WRITE;
        switch (kind) {
        case RUN:
            p_run(&ps[2], sys, base, n, 5, 7);
            break;
        case LIT:
            p_lit(t, &ps[2], sys, base, n);
            break;
        case FILL:
            p_fill(&ps[2], sys, base, n, 9);
            break;
        case COPY_RD:
            p_copy(&ps[2], !sys, other, sys, base, n);
            code = GMMU_PAGING_ERR_AXI_READ;
            break;
        case COPY_WR:
            p_copy(&ps[2], sys, base, !sys, other, n);
            break;
        default:
            p_fence(&ps[2], GMMU_PAGING_HDR_FENCE_WRITE | dst_flag(sys), base, 11);
            break;
        }
        uint64_t x = base + 8ull * k;
        if (code == GMMU_PAGING_ERR_AXI_READ)
            tb_inject_read_error(t, sys, x, x + 8);
        else
            tb_inject_write_error(t, sys, x, x + 8);
        p_fill(&ps[3], false, 0x140000, 50, 3);
        p_fill(&ps[4], true, TB_SYS_BASE + 0x140000, 50, 4);
        uint32_t tail = t->head + ps[0].n + ps[1].n;
        /* The packets up to the failing one wait for room; those after it
         * go in only if they fit (a small queue never frees them). */
        for (unsigned i = 0; i < 5; i++) {
            while (!tb_queue_put(t, ps[i].w, ps[i].n) && i < 3) {
                tb_publish(t);
                tb_cycles(t, 16);
            }
        }
        tb_publish(t);
        tb_wait_idle(t);
        expect_stop(t, code, done0 + 2, burst_start(t, base, k), tail);
        restart_and_continue(t);
    }

    /* Errors reported out of packet order: a malformed packet is found
     * while the write error of the packet before it is still on its way.
     * The earlier packet's error is the one kept. */
    for (unsigned round = 0; round < 4; round++) {
        struct tb_env env;
        tb_env_random(t, &env);
        tb_begin(t, "earliest error wins", &env, 4000000);
        enable(t);
        tb_reset_tracking(t);
        uint32_t done0 = tb_rd(t, GMMU_PAGING_PACKETS_DONE);
        struct pkt ps[2];
        bool sys = round & 1;
        uint64_t base = (sys ? TB_SYS_BASE : 0) + 0x100000;
        uint32_t n = 600 + (uint32_t)rng_below(&t->rng, 200);
        p_fill(&ps[0], sys, base, n, 12);
        tb_inject_write_error(t, sys, base + 8ull * (n - 1), base + 8ull * n);
        p_fill(&ps[1], false, 0x1000, 0, 13); /* COUNT 0 */
        uint32_t tail = t->head;
        for (unsigned i = 0; i < 2; i++)
            TB_CHECK(t, tb_queue_put(t, ps[i].w, ps[i].n), "queue full");
        tb_publish(t);
        tb_wait_idle(t);
        expect_stop(t, GMMU_PAGING_ERR_AXI_WRITE, done0, burst_start(t, base, n - 1), tail);
        restart_and_continue(t);
    }
    printf("errors: AXI read and write errors at every packet type, both ports: PASS\n");
}

/* ------------------------------------------------------------ malformed packets */
void test_malformed(struct tb *t)
{
    const unsigned M = GMMU_PAGING_ERR_MALFORMED, R = GMMU_PAGING_ERR_RANGE;
    const uint32_t qw = t->prm.queue_words;
    const uint64_t four_g = UINT64_C(1) << 32;
    struct {
        const char *name;
        uint64_t w[4];
        unsigned n, code;
        uint64_t ddr_size;
    } cases[] = {
        { "reserved bit 13", { hdr(GMMU_PAGING_OP_FILL, 1, 1u << 13), 0, 0 }, 3, M, 0 },
        { "reserved bit 31", { hdr(GMMU_PAGING_OP_WRITE_PTES, 1, 1u << 31), 0, 0, 0 }, 4, M, 0 },
        { "opcode 0", { hdr(0, 1, 0), 0, 0 }, 3, M, 0 },
        { "opcode 6", { hdr(6, 1, 0), 0, 0 }, 3, M, 0 },
        { "opcode 0xFF", { hdr(0xFF, 1, 0), 0, 0 }, 3, M, 0 },
        { "WRITE_PTES COUNT 0", { hdr(GMMU_PAGING_OP_WRITE_PTES, 0, 0), 0, 1, 1 }, 4, M, 0 },
        { "FILL COUNT 0", { hdr(GMMU_PAGING_OP_FILL, 0, 0), 0, 1 }, 3, M, 0 },
        { "COPY COUNT 0", { hdr(GMMU_PAGING_OP_COPY, 0, 0), 0, 0x1000 }, 3, M, 0 },
        { "literal longer than the queue",
          { hdr(GMMU_PAGING_OP_WRITE_PTES, qw - 1, GMMU_PAGING_HDR_LITERAL), 0 },
          2,
          M,
          0 },
        { "FILL unaligned", { hdr(GMMU_PAGING_OP_FILL, 1, 0), 0x1004, 0 }, 3, M, 0 },
        { "WRITE_PTES unaligned",
          { hdr(GMMU_PAGING_OP_WRITE_PTES, 1, GMMU_PAGING_HDR_DST_SYS), TB_SYS_BASE + 1, 0, 0 },
          4,
          M,
          0 },
        { "COPY source unaligned", { hdr(GMMU_PAGING_OP_COPY, 1, 0), 0x1000, 0x2002 }, 3, M, 0 },
        { "FENCE unaligned",
          { hdr(GMMU_PAGING_OP_FENCE, 0, GMMU_PAGING_HDR_FENCE_WRITE), 0x1006, 0 },
          3,
          M,
          0 },
        { "FENCE COUNT 1", { hdr(GMMU_PAGING_OP_FENCE, 1, 0), 0, 0 }, 3, M, 0 },
        { "FLUSH_TLB type 3", { hdr(GMMU_PAGING_OP_FLUSH_TLB, 3, 0), 0, 0, 0 }, 4, M, 0 },
        { "FLUSH_TLB COUNT bit 2", { hdr(GMMU_PAGING_OP_FLUSH_TLB, 4, 0), 0, 0, 0 }, 4, M, 0 },
        { "FLUSH_TLB wide ASID",
          { hdr(GMMU_PAGING_OP_FLUSH_TLB, GMMU_PAGING_FLUSH_ASID, 0),
            UINT64_C(1) << t->prm.asid_bits, 0, 0 },
          4,
          M,
          0 },
        { "FLUSH_TLB first > last",
          { hdr(GMMU_PAGING_OP_FLUSH_TLB, GMMU_PAGING_FLUSH_RANGE, 0), 0, 0x2000, 0x1fff },
          4,
          M,
          0 },
        { "FILL past the DDR", { hdr(GMMU_PAGING_OP_FILL, 2, 0), TB_DDR_SIZE - 8, 0 }, 3, R, 0 },
        { "WRITE_PTES at 4 GiB", { hdr(GMMU_PAGING_OP_WRITE_PTES, 1, 0), four_g, 0, 0 }, 4, R, 0 },
        { "COPY source past the DDR",
          { hdr(GMMU_PAGING_OP_COPY, 1, 0), 0x1000, TB_DDR_SIZE },
          3,
          R,
          0 },
        { "COPY destination wraps",
          { hdr(GMMU_PAGING_OP_COPY, 2, GMMU_PAGING_HDR_DST_SYS), UINT64_MAX - 7, 0x1000 },
          3,
          R,
          0 },
        { "FILL system memory wraps",
          { hdr(GMMU_PAGING_OP_FILL, 2, GMMU_PAGING_HDR_DST_SYS), UINT64_MAX - 7, 0 },
          3,
          R,
          0 },
        { "FENCE write past the DDR",
          { hdr(GMMU_PAGING_OP_FENCE, 0, GMMU_PAGING_HDR_FENCE_WRITE), TB_DDR_SIZE, 0 },
          3,
          R,
          0 },
        { "FILL past 4 GiB with 8 GiB of DDR",
          { hdr(GMMU_PAGING_OP_FILL, 2, 0), four_g - 8, 0 },
          3,
          R,
          2 * four_g },
    };
    unsigned ncases = sizeof cases / sizeof cases[0];
    for (unsigned c = 0; c < ncases; c++) {
        struct tb_env env;
        tb_env_random(t, &env);
        tb_begin(t, cases[c].name, &env, 2000000);
        uint64_t ddr_size = cases[c].ddr_size ? cases[c].ddr_size : TB_DDR_SIZE;
        t->pins.ddr_size = ddr_size;
        t->ref.cfg.ddr_size = ddr_size;
        /* The reference agrees on the verdict. */
        TB_CHECK(t, ref_validate(&t->ref.cfg, cases[c].w) == cases[c].code,
                 "the reference model disagrees");
        enable(t);
        tb_reset_tracking(t);
        uint32_t done0 = tb_rd(t, GMMU_PAGING_PACKETS_DONE);
        struct pkt good;
        p_fill(&good, true, TB_SYS_BASE + 0x180000, 100, 5);
        TB_CHECK(t, tb_queue_put(t, good.w, good.n), "queue full");
        uint32_t pos = t->head;
        TB_CHECK(t, tb_queue_put(t, cases[c].w, cases[c].n), "queue full");
        p_fill(&good, false, 0x180000, 100, 6);
        TB_CHECK(t, tb_queue_put(t, good.w, good.n), "queue full");
        tb_publish(t);
        tb_wait_idle(t);
        expect_stop(t, cases[c].code, done0 + 1, pos, pos);
        t->pins.ddr_size = TB_DDR_SIZE;
        t->ref.cfg.ddr_size = TB_DDR_SIZE;
        restart_and_continue(t);
    }
    printf("malformed: %u kinds of bad packet stop with MALFORMED or RANGE: PASS\n", ncases);
}

/* ------------------------------------------------------------ FLUSH_TLB */
void test_flush(struct tb *t)
{
    for (unsigned round = 0; round < 6; round++) {
        struct tb_env env;
        if (round == 0)
            tb_env_ideal(&env);
        else
            tb_env_random(t, &env);
        env.inv_busy_min = 150;
        env.inv_busy_max = 150 + (unsigned)rng_below(&t->rng, 200);
        tb_begin(t, "flush", &env, 4000000);
        enable(t);
        tb_reset_tracking(t);
        struct stream_mark m = mark(t);
        struct pkt ps[5];
        p_fill(&ps[0], false, 0x1c0000, 1500, 7); /* writes in flight */
        p_flush(&ps[1], GMMU_PAGING_FLUSH_RANGE, 2, 0x40000000, 0x4000ffff);
        p_fill(&ps[2], true, TB_SYS_BASE + 0x1c0000, 800, 8);
        p_flush(&ps[3], GMMU_PAGING_FLUSH_ALL, 0, 0, 0);
        p_fence(&ps[4], GMMU_PAGING_HDR_FENCE_WRITE, 0x1f0000, 99);
        unsigned n = t->prm.queue_words >= 32 ? 5 : 4; /* 17 words */
        for (unsigned i = 0; i < n; i++)
            TB_CHECK(t, put(t, &ps[i]), "queue full");
        tb_publish(t);
        /* While the MMU is busy with the first flush, it is not complete and
         * nothing after it has started. */
        while (t->inv_requests == m.inv || t->inv_busy_left < 100)
            tb_cycle(t);
        expect_reg(t, GMMU_PAGING_PACKETS_DONE, m.done + 1, "PACKETS_DONE while the MMU is busy");
        while (t->inv_busy_left > 4)
            tb_cycle(t);
        expect_reg(t, GMMU_PAGING_PACKETS_DONE, m.done + 1,
                   "PACKETS_DONE just before the MMU is done");
        tb_wait_idle(t);
        finish(t, m, n);
    }
    printf("flush: FLUSH_TLB ordered after earlier writes, complete after the MMU's busy: PASS\n");
}

/* ------------------------------------------------------------ throughput */
static bool tput_one(struct tb *t, const char *name, const struct pkt *p, uint32_t words,
                     double target, bool check)
{
    tb_reset_tracking(t);
    struct stream_mark m = mark(t);
    TB_CHECK(t, put(t, p), "queue full");
    tb_wr(t, GMMU_PAGING_PERF_BUSY_CYCLES, 0);
    tb_wr(t, GMMU_PAGING_PERF_BEATS, 0);
    tb_publish(t);
    tb_wait_idle(t);
    uint32_t cycles = tb_rd(t, GMMU_PAGING_PERF_BUSY_CYCLES),
             beats = tb_rd(t, GMMU_PAGING_PERF_BEATS);
    finish(t, m, 1);
    double r = (double)words / cycles;
    bool ok = !check || r >= target;
    printf("throughput %-26s %7u words, %7u beats, %7u cycles: %.3f beats/cycle per direction "
           "(%.1f%% of the 1 beat/cycle bound; target %.2f)%s\n",
           name, words, beats, cycles, r, 100.0 * r, target, ok ? "" : "  BELOW TARGET");
    return ok;
}

bool test_throughput(struct tb *t, unsigned kib, bool check)
{
    struct tb_env env;
    tb_env_ideal(&env);
    tb_begin(t, "throughput", &env, 100000000);
    enable(t);
    uint32_t words = kib * 128;
    TB_CHECK(t, 8ull * words * 2 <= TB_DDR_SIZE, "throughput run too large");
    struct pkt p;
    bool ok = true;
    p_fill(&p, false, 0, words, 0x5555AAAA5555AAAAull);
    ok &= tput_one(t, "FILL (VRAM)", &p, words, 0.9, check);
    p_run(&p, false, 0, words, 0x1000000001ull, 0x1000);
    ok &= tput_one(t, "WRITE_PTES run (VRAM)", &p, words, 0.9, check);
    p_copy(&p, false, 8ull * words, false, 0, words);
    ok &= tput_one(t, "COPY (VRAM -> VRAM)", &p, words, 0.8, check);
    return ok;
}
