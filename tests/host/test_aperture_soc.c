// SPDX-License-Identifier: Apache-2.0
/*
 * The aperture segment on the simulated SoC (issue 29, docs/aperture.md):
 * scattered host pages (gmmu_sysmem_alloc_pages) made AccessedPhysically
 * with ALLOC_PAGES_FLAG_PHYSICAL, then engines in physical mode addressing
 * them through the aperture. Everything is checked against the host's own
 * view of its pages, computed here:
 *  - FILL, COPY (aperture to aperture, to VRAM and back), CHECKSUM write
 *    and read exactly what the page list says;
 *  - refused jobs (past the end, before the start, across two allocations,
 *    a plain system allocation's bus address, a freed allocation) answer
 *    OUT_OF_RANGE, never start the engine and leave host memory as it was;
 *  - invalidation: an allocation whose translations every engine's
 *    translator has cached is freed and another takes its aperture offsets:
 *    jobs there reach the new pages only, never the old ones; FREE under a
 *    running physical job is BUSY;
 *  - the benchmark: the same jobs on the same host pages through the
 *    aperture in physical mode and through a GPU VA, as a ratio (target
 *    0.95).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmmu/engine_regs.h>
#include <gmmu/pte.h>
#include <gmmu/soc.h>

#include "soc_test_util.h"

#define KIB  1024ull
#define PAGE (4 * KIB)
#define PHYS GMMU_ENGINE_OP_FLAG_PHYSICAL

static struct gmmu_dev *dev;

/* A list of scattered host pages, the host's pointers to them. */
struct pages {
    size_t n;
    uint64_t bus[64];
    void *host[64];
};

static struct pages get_pages(size_t n, size_t runs, uint64_t seed)
{
    struct pages p = { .n = n };

    assert_true(n <= 64);
    assert_int_equal(gmmu_sysmem_alloc_pages(dev, n, runs, seed, p.bus, p.host), 0);
    return p;
}

static void put_pages(const struct pages *p)
{
    assert_int_equal(gmmu_sysmem_free_pages(dev, p->bus, p->n), 0);
}

/* Word w of the allocation (page w / 512 of the list). */
static uint64_t *word(const struct pages *p, uint64_t w)
{
    return (uint64_t *)p->host[w / 512] + w % 512;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void fill_random(const struct pages *p)
{
    for (uint64_t w = 0; w < p->n * 512; w++)
        *word(p, w) = next_random();
}

/* A snapshot of every page, to compare after jobs. */
static uint64_t *snapshot(const struct pages *p)
{
    uint64_t *s = malloc(p->n * PAGE);

    assert_non_null(s);
    for (uint64_t w = 0; w < p->n * 512; w++)
        s[w] = *word(p, w);
    return s;
}

static void expect_snapshot(const struct pages *p, const uint64_t *s, const char *what)
{
    for (uint64_t w = 0; w < p->n * 512; w++)
        if (*word(p, w) != s[w])
            fail_msg("%s: word %" PRIu64 " (page %" PRIu64 ") changed", what, w, w / 512);
}

static uint32_t phys_call(uint32_t engine, uint32_t op, uint64_t dst, uint64_t src, uint32_t len,
                          uint64_t pattern, struct gmmu_engine_rsp *rsp)
{
    struct gmmu_engine_req req = { .engine = engine,
                                   .op = op | PHYS,
                                   .length = len,
                                   .dst_va = dst,
                                   .src_va = src,
                                   .pattern = pattern };
    return (uint32_t)gmmu_engine_run(dev, &req, rsp);
}

static struct gmmu_engine_rsp phys_ok(uint32_t engine, uint32_t op, uint64_t dst, uint64_t src,
                                      uint32_t len, uint64_t pattern)
{
    struct gmmu_engine_rsp r;

    assert_int_equal(phys_call(engine, op, dst, src, len, pattern, &r), 0);
    if (r.engine_status & GMMU_ENGINE_STATUS_FAULT)
        fail_msg("physical job op %" PRIu32 " faulted: status 0x%" PRIx32 " after %" PRIu64
                 " bytes",
                 op, r.engine_status, (uint64_t)r.bytes_done);
    assert_int_equal(r.bytes_done, len);
    return r;
}

static void sums(const struct pages *p, uint64_t from, uint64_t words, uint64_t *s1, uint64_t *s2)
{
    *s1 = *s2 = 0;
    for (uint64_t w = from; w < from + words; w++) {
        *s1 += *word(p, w);
        *s2 += *s1;
    }
}

static struct gmmu_alloc_rsp physical(const struct pages *p)
{
    struct gmmu_alloc_rsp r;

    assert_int_equal(gmmu_alloc_pages_flags(dev, p->bus, p->n, GMMU_ALLOC_PAGES_FLAG_PHYSICAL, &r),
                     0);
    assert_true(r.base >= GMMU_APERTURE_PHYS_BASE);
    assert_int_equal(r.size, p->n * PAGE);
    return r;
}

/* ------------------------------------------------------------ jobs */

static void test_jobs_through_the_aperture(void **state)
{
    (void)state;
    struct pages p = get_pages(32, 9, 1);
    fill_random(&p);
    struct gmmu_alloc_rsp a = physical(&p);
    uint64_t A = a.base, s1, s2;

    /* CHECKSUM of all 128 KiB: the list's order, not the bus order. */
    struct gmmu_engine_rsp r = phys_ok(0, GMMU_ENGINE_OP_CHECKSUM, 0, A, 32 * PAGE, 0);
    sums(&p, 0, 32 * 512, &s1, &s2);
    assert_int_equal(r.result, s1);
    assert_int_equal(r.result2, s2);
    /* FETCH reads the same (no NoExecute in physical mode). */
    r = phys_ok(1, GMMU_ENGINE_OP_FETCH, 0, A + 3 * PAGE + 640, 5 * PAGE, 0);
    sums(&p, 3 * 512 + 80, 5 * 512, &s1, &s2);
    assert_int_equal(r.result, s1);

    /* FILL pages 2..5 (and half of 6). */
    uint64_t *before = snapshot(&p);
    phys_ok(2, GMMU_ENGINE_OP_FILL, A + 2 * PAGE, 0, 4 * PAGE + 2 * KIB, 0x0123456789ABCDEFull);
    for (uint64_t w = 2 * 512; w < 6 * 512 + 256; w++)
        before[w] = 0x0123456789ABCDEFull;
    expect_snapshot(&p, before, "fill");

    /* COPY aperture -> aperture: pages 8..11 to 20..23, across page ends
       of both (offset 192). */
    phys_ok(3, GMMU_ENGINE_OP_COPY, A + 20 * PAGE + 192, A + 8 * PAGE + 192, 4 * PAGE - 192, 0);
    memmove(before + 20 * 512 + 24, before + 8 * 512 + 24, 4 * PAGE - 192);
    expect_snapshot(&p, before, "copy in the aperture");

    /* To a contiguous VRAM block and back into pages 28..29. */
    struct gmmu_alloc_req vreq = { .size = 64 * KIB, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    struct gmmu_alloc_rsp v;
    assert_int_equal(gmmu_alloc(dev, &vreq, &v), 0);
    phys_ok(0, GMMU_ENGINE_OP_COPY, v.base, A + 12 * PAGE, 2 * PAGE, 0);
    phys_ok(1, GMMU_ENGINE_OP_COPY, A + 28 * PAGE, v.base, 2 * PAGE, 0);
    memcpy(before + 28 * 512, before + 12 * 512, 2 * PAGE);
    expect_snapshot(&p, before, "copy through VRAM");
    uint64_t got[2 * 512];
    assert_int_equal(gmmu_vram_read(dev, v.base, got, sizeof(got)), 0);
    assert_memory_equal(got, before + 12 * 512, sizeof(got));

    /* ALLOC SYSTEM | CONTIGUOUS over one host buffer: in the aperture too. */
    uint64_t bus;
    void *host;
    assert_int_equal(gmmu_sysmem_alloc(dev, 16 * KIB, &bus, &host), 0);
    memset(host, 0, 16 * KIB);
    struct gmmu_alloc_req sreq = { .size = 16 * KIB,
                                   .flags = GMMU_ALLOC_FLAG_SYSTEM | GMMU_ALLOC_FLAG_CONTIGUOUS,
                                   .sys_addr = bus };
    struct gmmu_alloc_rsp s;
    assert_int_equal(gmmu_alloc(dev, &sreq, &s), 0);
    assert_true(s.base >= GMMU_APERTURE_PHYS_BASE && s.base != A);
    phys_ok(2, GMMU_ENGINE_OP_COPY, s.base + 4 * KIB, A, 8 * KIB, 0);
    assert_memory_equal((uint8_t *)host + 4 * KIB, before, 8 * KIB);
    for (size_t i = 0; i < 512; i++)
        assert_int_equal(((uint64_t *)host)[i], 0);

    printf("aperture: 32 scattered pages (9 runs) at aperture offset 0x%" PRIx64
           ", a 16 KiB buffer at 0x%" PRIx64 ": checksum, fetch, fill, copies checked\n",
           (uint64_t)(A - GMMU_APERTURE_PHYS_BASE), (uint64_t)(s.base - GMMU_APERTURE_PHYS_BASE));
    free(before);
    assert_int_equal(gmmu_free(dev, s.handle), 0);
    assert_int_equal(gmmu_sysmem_free(dev, bus), 0);
    assert_int_equal(gmmu_free(dev, v.handle), 0);
    assert_int_equal(gmmu_free(dev, a.handle), 0);
    put_pages(&p);
}

/* ------------------------------------------------------------ refusals */

static void same_last_run(uint32_t engine, const struct gmmu_engine_rsp *want, const char *what)
{
    struct gmmu_engine_rsp r;

    assert_int_equal(gmmu_engine_status(dev, engine, 0, &r), 0);
    if (r.cycles != want->cycles || r.bytes_done != want->bytes_done || r.result != want->result)
        fail_msg("%s: the engine ran", what);
}

static void test_refused_jobs(void **state)
{
    (void)state;
    struct pages p = get_pages(8, 3, 2), q = get_pages(8, 2, 3), h = get_pages(4, 1, 4);
    fill_random(&p);
    fill_random(&q);
    fill_random(&h);
    struct gmmu_alloc_rsp a = physical(&p), b = physical(&q), gone;
    struct gmmu_alloc_rsp plain;
    assert_int_equal(gmmu_alloc_pages(dev, h.bus, h.n, &plain), 0); /* not AccessedPhysically */
    {
        struct pages g = get_pages(4, 1, 5);
        gone = physical(&g);
        assert_int_equal(gmmu_free(dev, gone.handle), 0);
        put_pages(&g);
    }
    uint64_t *sp = snapshot(&p), *sq = snapshot(&q), *sh = snapshot(&h);
    struct gmmu_engine_rsp last = phys_ok(0, GMMU_ENGINE_OP_CHECKSUM, 0, a.base, 64, 0), r;

    const struct {
        uint32_t op;
        uint64_t dst, src;
        uint32_t len;
        const char *what;
    } bad[] = {
        { GMMU_ENGINE_OP_FILL, a.base + 8 * PAGE - 64, 0, 128, "fill past the end" },
        { GMMU_ENGINE_OP_FILL, a.base - 64, 0, 128, "fill before the start" },
        { GMMU_ENGINE_OP_FILL, a.base + 7 * PAGE, 0, 2 * PAGE, "fill into the next allocation" },
        { GMMU_ENGINE_OP_FILL, h.bus[0], 0, 64, "fill at a plain system allocation's bus address" },
        { GMMU_ENGINE_OP_FILL, gone.base, 0, 64, "fill in a freed allocation" },
        { GMMU_ENGINE_OP_CHECKSUM, 0, b.base + PAGE, 8 * PAGE, "checksum past the end" },
        { GMMU_ENGINE_OP_COPY, a.base, b.base + 7 * PAGE, 2 * PAGE, "copy from past the end" },
        { GMMU_ENGINE_OP_COPY, gone.base, b.base, 64, "copy into a freed allocation" },
        { GMMU_ENGINE_OP_FILL, GMMU_APERTURE_PHYS_BASE + (1ull << 32), 0, 64, "beyond the window" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(phys_call(0, bad[i].op, bad[i].dst, bad[i].src, bad[i].len, 0x5A, &r),
                         GMMU_STATUS_OUT_OF_RANGE);
        same_last_run(0, &last, bad[i].what);
    }
    expect_snapshot(&p, sp, "after refusals");
    expect_snapshot(&q, sq, "after refusals");
    expect_snapshot(&h, sh, "after refusals");
    printf("aperture: %zu refused jobs, the engine never started, host memory untouched\n",
           sizeof(bad) / sizeof(bad[0]));
    free(sp);
    free(sq);
    free(sh);
    assert_int_equal(gmmu_free(dev, a.handle), 0);
    assert_int_equal(gmmu_free(dev, b.handle), 0);
    assert_int_equal(gmmu_free(dev, plain.handle), 0);
    put_pages(&p);
    put_pages(&q);
    put_pages(&h);
}

/* ------------------------------------------------------------ invalidation */

static void test_invalidation(void **state)
{
    (void)state;
    struct pages old = get_pages(16, 5, 6), fresh = get_pages(16, 4, 7);
    fill_random(&old);
    fill_random(&fresh);
    struct gmmu_alloc_rsp a = physical(&old);

    /* Every engine's translator caches the old entries. */
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        phys_ok(e, GMMU_ENGINE_OP_CHECKSUM, 0, a.base, 16 * PAGE, 0);
    uint64_t *sold = snapshot(&old);
    assert_int_equal(gmmu_free(dev, a.handle), 0);

    /* The next allocation takes the same aperture offsets (first fit). */
    struct gmmu_alloc_rsp b = physical(&fresh);
    assert_int_equal(b.base, a.base);
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        phys_ok(e, GMMU_ENGINE_OP_FILL, b.base + e * 4 * PAGE, 0, 4 * PAGE, 0xF00D0000ull + e);
    expect_snapshot(&old, sold, "the freed allocation's old pages");
    for (uint64_t w = 0; w < 16 * 512; w++)
        if (*word(&fresh, w) != 0xF00D0000ull + w / (4 * 512))
            fail_msg("new page %" PRIu64 " not written", w / 512);
    uint64_t s1, s2;
    struct gmmu_engine_rsp r = phys_ok(2, GMMU_ENGINE_OP_CHECKSUM, 0, b.base, 16 * PAGE, 0);
    sums(&fresh, 0, 16 * 512, &s1, &s2);
    assert_int_equal(r.result, s1);

    /* FREE under a running physical job over it: BUSY, nothing changes. */
    struct gmmu_engine_req job = {
        .engine = 1, .op = GMMU_ENGINE_OP_CHECKSUM | PHYS, .length = 16 * PAGE, .src_va = b.base
    };
    assert_int_equal(gmmu_engine_start(dev, &job, NULL), 0);
    uint32_t st = (uint32_t)gmmu_free(dev, b.handle);
    assert_int_equal(gmmu_engine_status(dev, 1, GMMU_ENGINE_STATUS_FLAG_ABORT, &r), 0);
    if (st != GMMU_STATUS_BUSY && (r.engine_status & GMMU_ENGINE_STATUS_ABORTED))
        fail_msg("FREE under a running physical job answered %" PRIu32, st);
    if (st == GMMU_STATUS_BUSY)
        assert_int_equal(gmmu_free(dev, b.handle), 0);
    printf("aperture invalidation: 4 engines cached 16 pages, the allocation freed and its "
           "offsets given to new pages: only the new pages written (FREE under a run: %s)\n",
           st == GMMU_STATUS_BUSY ? "BUSY" : "the run had ended");
    free(sold);
    put_pages(&old);
    put_pages(&fresh);
}

/* ------------------------------------------------------------ eviction */

/*
 * A contiguous VRAM allocation evicted into the backing pool moves into the
 * aperture (docs/vidmm.md, Residency). The model is the host's copy of its
 * 256 KiB: written into it from scattered pages, read back after each step
 * through the aperture (CHECKSUM in physical mode, every engine, and the
 * pool's host pages themselves), then, after MAKE_RESIDENT, through VRAM
 * (CHECKSUM, a COPY out through the aperture, BAR1).
 */
static void expect_words(const uint64_t *got, const uint64_t *want, uint64_t words,
                         const char *what)
{
    for (uint64_t w = 0; w < words; w++)
        if (got[w] != want[w])
            fail_msg("%s: word %" PRIu64 " is 0x%" PRIx64 ", the model 0x%" PRIx64, what, w, got[w],
                     want[w]);
}

static void model_sums(const uint64_t *m, uint64_t words, uint64_t *s1, uint64_t *s2)
{
    *s1 = *s2 = 0;
    for (uint64_t w = 0; w < words; w++) {
        *s1 += m[w];
        *s2 += *s1;
    }
}

static void test_evicted_contiguous(void **state)
{
    (void)state;
    /* 256 KiB: a CHECKSUM of it runs long enough for a command to arrive
       under it. */
    enum { C = 256 * KIB, W = C / 8, SLACK = 64 * KIB, POOL = 1024 * KIB };
    struct pages p = get_pages(C / PAGE, 5, 11), q = get_pages(C / PAGE, 4, 12);
    fill_random(&p);
    fill_random(&q);
    struct gmmu_alloc_rsp src = physical(&p), c, f, g, n;
    uint64_t *model = snapshot(&p), s1, s2;
    struct gmmu_alloc_info info;
    struct gmmu_engine_rsp r;

    /* The pool: one range of this process's memory. */
    uint64_t bus;
    void *host;
    assert_int_equal(gmmu_sysmem_alloc(dev, POOL + 64 * KIB, &bus, &host), 0);
    uint64_t pool = (bus + 64 * KIB - 1) & ~(64 * KIB - 1);
    const uint64_t *pool_w = (const uint64_t *)((uint8_t *)host + (pool - bus));
    assert_int_equal(gmmu_add_backing(dev, pool, POOL), 0);

    /* c in VRAM, its bytes the scattered pages' (the model). */
    struct gmmu_alloc_req creq = { .size = C, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    assert_int_equal(gmmu_alloc(dev, &creq, &c), 0);
    uint64_t vram_base = c.base;
    phys_ok(0, GMMU_ENGINE_OP_COPY, vram_base, src.base, C, 0);

    /* VRAM filled but SLACK (the page tables a move proves it may need),
       then an ALLOC of SLACK + C: c, the least recently used, goes. */
    struct gmmu_vram_rsp v;
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    struct gmmu_alloc_req freq = { .size = v.free_bytes - SLACK };
    assert_int_equal(gmmu_alloc(dev, &freq, &f), 0);
    struct gmmu_alloc_req greq = { .size = SLACK + C };
    assert_int_equal(gmmu_alloc(dev, &greq, &g), 0);
    assert_int_equal(gmmu_query_alloc(dev, c.handle, &info), 0);
    assert_int_equal(info.state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(info.segment, GMMU_SEGMENT_APERTURE);
    assert_true(info.base >= GMMU_APERTURE_PHYS_BASE);
    uint64_t apt = info.base;
    /* Its pool pages hold its bytes (the pool's first units). */
    expect_words(pool_w, model, W, "the pool pages after the eviction");

    /* Through the aperture, every engine (each caches its entries). */
    model_sums(model, W, &s1, &s2);
    for (uint32_t e = 0; e < GMMU_ENGINES; e++) {
        r = phys_ok(e, GMMU_ENGINE_OP_CHECKSUM, 0, apt, C, 0);
        assert_int_equal(r.result, s1);
        assert_int_equal(r.result2, s2);
    }
    /* Written through the aperture: the pool pages change. */
    phys_ok(1, GMMU_ENGINE_OP_FILL, apt + 20 * KIB, 0, 8 * KIB, 0x5EED5EED00C0FFEEull);
    for (uint64_t w = 20 * KIB / 8; w < 28 * KIB / 8; w++)
        model[w] = 0x5EED5EED00C0FFEEull;
    expect_words(pool_w, model, W, "the pool pages after a FILL through the aperture");
    /* Its old VRAM block is not its address any more: refused, the engine
       never starts. */
    struct gmmu_engine_rsp last = phys_ok(0, GMMU_ENGINE_OP_CHECKSUM, 0, apt, 64, 0);
    assert_int_equal(phys_call(0, GMMU_ENGINE_OP_CHECKSUM, 0, vram_base, 64, 0, &r),
                     GMMU_STATUS_OUT_OF_RANGE);
    same_last_run(0, &last, "a job on the evicted allocation's old VRAM block");

    /* Room for it again; but while a physical-mode run over it goes on,
       MAKE_RESIDENT leaves it in the pool (never moved under an engine). */
    assert_int_equal(gmmu_free(dev, g.handle), 0);
    struct gmmu_engine_req job = {
        .engine = 1, .op = GMMU_ENGINE_OP_CHECKSUM | PHYS, .length = C, .src_va = apt
    };
    model_sums(model, W, &s1, &s2);
    assert_int_equal(gmmu_engine_start(dev, &job, NULL), 0);
    assert_int_equal(gmmu_make_resident(dev, &c.handle, 1, NULL), 0);
    assert_int_equal(gmmu_engine_status(dev, 1, GMMU_ENGINE_STATUS_FLAG_ABORT, &r), 0);
    assert_int_equal(gmmu_query_alloc(dev, c.handle, &info), 0);
    /* Stopped by the abort: it ran under MAKE_RESIDENT, which must have
       left c where it was. Ended: it read c whole, as the model has it.
       Never a fault (entries cleared under it). */
    bool under_run = r.engine_status & GMMU_ENGINE_STATUS_ABORTED;
    if (r.engine_status & GMMU_ENGINE_STATUS_FAULT)
        fail_msg("the physical-mode run faulted (status 0x%" PRIx32 " after %" PRIu64
                 " bytes): its allocation moved under it",
                 r.engine_status, (uint64_t)r.bytes_done);
    if (under_run && info.state != GMMU_ALLOC_STATE_BACKING)
        fail_msg("MAKE_RESIDENT moved the allocation under a physical-mode run over it");
    if (!under_run)
        assert_int_equal(r.result, s1);
    assert_int_equal(info.residency, 1);

    /* Back into VRAM. */
    assert_int_equal(gmmu_make_resident(dev, &c.handle, 1, NULL), 0);
    assert_int_equal(gmmu_query_alloc(dev, c.handle, &info), 0);
    assert_int_equal(info.state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(info.segment, GMMU_SEGMENT_VRAM);
    assert_true(info.base < GMMU_APERTURE_PHYS_BASE);
    uint64_t back = info.base;
    model_sums(model, W, &s1, &s2);
    r = phys_ok(2, GMMU_ENGINE_OP_CHECKSUM, 0, back, C, 0);
    assert_int_equal(r.result, s1);
    assert_int_equal(r.result2, s2);
    uint64_t *got = malloc(C);
    assert_non_null(got);
    assert_int_equal(gmmu_vram_read(dev, back, got, C), 0);
    expect_words(got, model, W, "VRAM after MAKE_RESIDENT (BAR1)");
    phys_ok(3, GMMU_ENGINE_OP_COPY, src.base, back, C, 0);
    for (uint64_t w = 0; w < W; w++)
        got[w] = *word(&p, w);
    expect_words(got, model, W, "copied out of VRAM through the aperture");
    /* Its aperture address left with it. */
    last = phys_ok(0, GMMU_ENGINE_OP_CHECKSUM, 0, back, 64, 0);
    assert_int_equal(phys_call(0, GMMU_ENGINE_OP_FILL, apt, 0, 64, 0x66, &r),
                     GMMU_STATUS_OUT_OF_RANGE);
    same_last_run(0, &last, "a job on the aperture address c left");

    /* Its aperture offsets given to new pages (first fit): every engine
       cached c's entries, yet jobs reach only the new pages, never the
       pool pages c left. */
    uint64_t *pool_before = malloc(C);
    assert_non_null(pool_before);
    memcpy(pool_before, pool_w, C);
    n = physical(&q);
    assert_int_equal(n.base, apt);
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        phys_ok(e, GMMU_ENGINE_OP_FILL, n.base + e * (C / 4), 0, C / 4, 0xA0A0000000ull + e);
    expect_words(pool_w, pool_before, W, "the pool pages c left");
    for (uint64_t w = 0; w < W; w++)
        if (*word(&q, w) != 0xA0A0000000ull + w / (W / 4))
            fail_msg("new page %" PRIu64 " not written", w / 512);

    printf(
        "aperture eviction: a 256 KiB contiguous allocation evicted to aperture offset 0x%" PRIx64
        " (pool pages checked), 4 checksums and a fill through the aperture, its VRAM "
        "address refused; MAKE_RESIDENT under a physical run: %s; back in VRAM at 0x%" PRIx64
        " (checksum, BAR1, copy out checked), its aperture address refused, its offsets "
        "reused without reaching its old pages\n",
        (uint64_t)(apt - GMMU_APERTURE_PHYS_BASE),
        under_run ? "left in the pool" : "the run had ended", back);
    free(got);
    free(pool_before);
    free(model);
    assert_int_equal(gmmu_free(dev, n.handle), 0);
    assert_int_equal(gmmu_free(dev, c.handle), 0);
    assert_int_equal(gmmu_free(dev, f.handle), 0);
    assert_int_equal(gmmu_free(dev, src.handle), 0);
    assert_int_equal(gmmu_remove_backing(dev, pool, POOL, 0, NULL), 0);
    assert_int_equal(gmmu_sysmem_free(dev, bus), 0);
    put_pages(&p);
    put_pages(&q);
}

/* ------------------------------------------------------------ benchmark */

static void test_aperture_vs_va(void **state)
{
    (void)state;
    enum { N = 64, LEN = N * PAGE / 2 };
    struct pages p = get_pages(N, 16, 8);
    fill_random(&p);
    struct gmmu_alloc_rsp a = physical(&p);
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    /* The same host pages at a GPU VA, snooped as the aperture's are. */
    struct gmmu_map_req m = { .as_handle = as,
                              .alloc_handle = a.handle,
                              .size = N * PAGE,
                              .flags = GMMU_MAP_FLAG_CACHE_COHERENT };
    uint64_t va;
    assert_int_equal(gmmu_map_va(dev, &m, &va), 0);
    static const char *const names[] = { "fill", "copy", "checksum" };
    double worst = 10;
    for (uint32_t op = 0; op < 3; op++) {
        uint32_t cycles[2];
        for (int phys = 0; phys < 2; phys++) {
            uint64_t base = phys ? a.base : va;
            uint64_t dst = op == GMMU_ENGINE_OP_CHECKSUM ? 0 : base + LEN;
            uint64_t src = op == GMMU_ENGINE_OP_FILL ? 0 : base;
            struct gmmu_engine_req req = { .engine = 1,
                                           .op = op | (phys ? PHYS : 0u),
                                           .as_handle = phys ? 0 : as,
                                           .length = LEN,
                                           .dst_va = dst,
                                           .src_va = src,
                                           .pattern = 0x77 };
            struct gmmu_engine_rsp r;
            assert_int_equal(gmmu_engine_run(dev, &req, &r), 0);
            assert_int_equal(r.engine_status & GMMU_ENGINE_STATUS_FAULT, 0);
            assert_int_equal(r.bytes_done, LEN);
            cycles[phys] = r.cycles;
        }
        double ratio = (double)cycles[0] / cycles[1];
        printf("aperture benchmark: %-8s %u KiB on %u scattered host pages: VA %" PRIu32
               " cycles, aperture (physical) %" PRIu32 " cycles, aperture/VA throughput %.3f\n",
               names[op], LEN / 1024, N, cycles[0], cycles[1], ratio);
        if (ratio < worst)
            worst = ratio;
    }
    if (worst < 0.95)
        fail_msg("aperture/VA throughput %.3f below 0.95", worst);
    assert_int_equal(gmmu_free(dev, a.handle), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    put_pages(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_through_the_aperture),
        cmocka_unit_test(test_refused_jobs),
        cmocka_unit_test(test_invalidation),
        cmocka_unit_test(test_evicted_contiguous),
        cmocka_unit_test(test_aperture_vs_va),
    };
    return soc_run_tests(tests, &dev);
}
