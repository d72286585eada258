// SPDX-License-Identifier: Apache-2.0
/*
 * End to end, randomized, on the simulated SoC: random allocations mapped
 * with random page sizes into two address spaces, random engine fills and
 * copies by GPU VA, and every byte checked against a model kept here:
 *
 *   - each touched range (and a guard chunk on each side) through the BAR1
 *     aperture, word by word;
 *   - every whole buffer through an engine checksum compared with the
 *     checksum of the model (docs/engine.md gives the formula);
 *   - isolation: the other address space at the same VA sees its own
 *     buffer there or faults, never this one;
 *   - use after unmap with warm TLBs: faults, memory untouched;
 *   - Zero tiles and a tile mapped into a reserved range;
 *   - no-execute: an engine FETCH (a checksum with EXECUTE translations)
 *     of a NoExecute buffer faults NO_EXECUTE, of an executable one sums it;
 *   - faults arrive as events with the engine's VA and reason;
 *   - VRAM accounting and the MMU's fault overflow end where they started.
 *
 * The model knows nothing of page tables: it is the bytes each buffer
 * should hold, indexed by offset. GMMU_E2E_SEED picks another sequence.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmmu/engine_regs.h>
#include <gmmu/pte.h>

#include "soc_test_util.h"

#define KIB   1024ull
#define MIB   (1024ull * KIB)
#define CHUNK 64u

enum {
    OP_FILL = GMMU_ENGINE_OP_FILL,
    OP_COPY = GMMU_ENGINE_OP_COPY,
    OP_CHECKSUM = GMMU_ENGINE_OP_CHECKSUM,
    OP_FETCH = GMMU_ENGINE_OP_FETCH
};
enum { NBUF = 8, NOPS = 24, MAX_OP_BYTES = 2048 };

static struct gmmu_dev *dev;
static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* xorshift64*: any fixed sequence will do, it only has to repeat. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static uint64_t rnd_below(uint64_t n)
{
    return rnd() % n;
}

struct buffer {
    uint32_t alloc, as;
    uint64_t base, size, va;
    uint32_t pages;   /* page_sizes asked for */
    uint8_t *model;   /* what it must hold */
    uint8_t *touched; /* per chunk: written by an engine since the start fill */
};

struct world {
    uint32_t as[2];
    struct buffer buf[NBUF];
    struct gmmu_vram_rsp vram0;
    uint32_t overflow0;
};

static uint32_t fault_overflow(void)
{
    struct gmmu_mmu_perf p;
    assert_int_equal(gmmu_get_mmu_counters(dev, 0, &p), 0);
    return p.c.fault_overflow;
}

static struct gmmu_engine_rsp run(uint32_t op, uint32_t as, uint64_t dst, uint64_t src,
                                  uint32_t len, uint64_t pattern)
{
    return soc_engine_run(dev, (uint32_t)rnd_below(4), op, as, dst, src, len, pattern);
}

static bool faulted(const struct gmmu_engine_rsp *r)
{
    return r->engine_status & GMMU_ENGINE_STATUS_FAULT;
}

static unsigned reason(const struct gmmu_engine_rsp *r)
{
    return (r->engine_status & GMMU_ENGINE_STATUS_REASON) >> GMMU_ENGINE_STATUS_REASON_LSB;
}

static void checksum(const uint8_t *bytes, size_t len, uint64_t *s1, uint64_t *s2)
{
    *s1 = *s2 = 0;
    for (size_t i = 0; i < len; i += 8) {
        uint64_t w;
        memcpy(&w, bytes + i, 8);
        *s1 += w;
        *s2 += *s1;
    }
}

/* Events left from earlier faulting runs: a run's last records can be
   posted after its ENGINE_RUN completed. */
static void drain_events(void)
{
    struct gmmu_event ev;
    int rc;
    while ((rc = gmmu_next_event(dev, &ev)) == 1)
        ;
    assert_int_equal(rc, 0);
}

/* After drain_events() and one faulting run: the run's fault events, each
   with its reason, one of them at va. */
static void expect_fault_events(uint64_t va, unsigned why)
{
    struct gmmu_event ev;
    for (;;) {
        assert_int_equal(gmmu_wait_event(dev, 5000, &ev), 0);
        assert_int_equal(ev.type, GMMU_EVT_FAULT);
        assert_int_equal(ev.u.fault.reason, why);
        if (ev.u.fault.va == va)
            return;
    }
}

/* ---------------------------------------------------------------- set-up */

static const uint64_t sizes[] = { 16 * KIB, 64 * KIB, 128 * KIB, 256 * KIB, 2 * MIB };

static void make_buffer(struct world *w, struct buffer *b)
{
    b->size = sizes[rnd_below(sizeof(sizes) / sizeof(sizes[0]))];
    /* Page sizes the buffer allows: always 4 KB, maybe 64 KB and 2 MB. */
    static const uint32_t choices[] = { 0x1, 0x2, 0x3, 0x7, 0x0 };
    b->pages = choices[rnd_below(5)];
    b->as = w->as[rnd_below(2)];
    struct gmmu_alloc_req areq = { .size = b->size, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    if (b->pages & 0x2)
        areq.flags |= GMMU_ALLOC_FLAG_PREFER_64K;
    struct gmmu_alloc_rsp arsp;
    assert_int_equal(gmmu_alloc(dev, &areq, &arsp), 0);
    b->alloc = arsp.handle;
    b->base = arsp.base;
    struct gmmu_map_req mreq = {
        .as_handle = b->as, .alloc_handle = b->alloc, .size = b->size, .page_sizes = b->pages
    };
    assert_int_equal(gmmu_map_va(dev, &mreq, &b->va), 0);
    b->model = malloc(b->size);
    b->touched = calloc(b->size / CHUNK, 1);
    assert_non_null(b->model);
    assert_non_null(b->touched);

    /* A known start: the whole buffer filled through the MMU. */
    uint64_t pattern = rnd();
    struct gmmu_engine_rsp r = run(OP_FILL, b->as, b->va, 0, (uint32_t)b->size, pattern);
    assert_false(faulted(&r));
    for (uint64_t i = 0; i < b->size; i += 8)
        memcpy(b->model + i, &pattern, 8);
}

/* ---------------------------------------------------------------- traffic */

static uint64_t random_range(const struct buffer *b, uint32_t *len)
{
    *len = CHUNK * (1 + (uint32_t)rnd_below(MAX_OP_BYTES / CHUNK));
    return CHUNK * rnd_below((b->size - *len) / CHUNK + 1);
}

static void mark(struct buffer *b, uint64_t off, uint32_t len)
{
    memset(b->touched + off / CHUNK, 1, len / CHUNK);
}

static void random_fill(struct buffer *b)
{
    uint32_t len;
    uint64_t off = random_range(b, &len), pattern = rnd();
    struct gmmu_engine_rsp r = run(OP_FILL, b->as, b->va + off, 0, len, pattern);
    assert_false(faulted(&r));
    assert_int_equal(r.bytes_done, len);
    for (uint64_t i = 0; i < len; i += 8)
        memcpy(b->model + off + i, &pattern, 8);
    mark(b, off, len);
}

/* A copy between two buffers of one address space (or within one buffer
   when the ranges do not overlap: the engine leaves overlap undefined). */
static void random_copy(struct world *w, struct buffer *dst)
{
    struct buffer *src = dst;
    for (int tries = 0; tries < 16 && src == dst; tries++) {
        struct buffer *c = &w->buf[rnd_below(NBUF)];
        if (c->as == dst->as)
            src = c;
    }
    uint32_t len;
    uint64_t doff = random_range(dst, &len);
    uint64_t soff = CHUNK * rnd_below((src->size - len) / CHUNK + 1);
    if (src == dst && soff < doff + len && doff < soff + len)
        return;
    struct gmmu_engine_rsp r = run(OP_COPY, dst->as, dst->va + doff, src->va + soff, len, 0);
    assert_false(faulted(&r));
    memmove(dst->model + doff, src->model + soff, len);
    mark(dst, doff, len);
}

/* ---------------------------------------------------------------- checks */

static void check_through_aperture(const struct buffer *b, uint64_t off, uint64_t len)
{
    uint8_t got[MAX_OP_BYTES + 2 * CHUNK];
    assert_true(len <= sizeof(got));
    assert_int_equal(gmmu_vram_read(dev, b->base + off, got, len), 0);
    for (uint64_t i = 0; i < len; i++)
        if (got[i] != b->model[off + i])
            fail_msg("VRAM %#" PRIx64 " (VA %#" PRIx64 "): %#x, want %#x", b->base + off + i,
                     b->va + off + i, got[i], b->model[off + i]);
}

/* Runs of touched chunks, each with one guard chunk either side. */
static void check_touched(const struct buffer *b)
{
    uint64_t chunks = b->size / CHUNK;
    for (uint64_t c = 0; c < chunks;) {
        if (!b->touched[c]) {
            c++;
            continue;
        }
        uint64_t first = c ? c - 1 : c, end = c;
        while (end < chunks && b->touched[end] && (end - first) * CHUNK < MAX_OP_BYTES)
            end++;
        uint64_t last = end < chunks ? end + 1 : end;
        check_through_aperture(b, first * CHUNK, (last - first) * CHUNK);
        c = end;
    }
}

static void check_whole(const struct buffer *b)
{
    uint64_t s1, s2;
    checksum(b->model, b->size, &s1, &s2);
    struct gmmu_engine_rsp r = run(OP_CHECKSUM, b->as, 0, b->va, (uint32_t)b->size, 0);
    assert_false(faulted(&r));
    if (r.result != s1 || r.result2 != s2)
        fail_msg("buffer at VA %#" PRIx64 " (AS %#x, %" PRIu64
                 " KiB, pages %#x): checksum %#" PRIx64 ", model %#" PRIx64,
                 b->va, b->as, b->size / KIB, b->pages, r.result, s1);
}

/* The other address space at this buffer's first VA: its own buffer, or a
   fault; never this buffer's bytes. */
static void check_isolation(struct world *w, const struct buffer *b)
{
    uint32_t other = b->as == w->as[0] ? w->as[1] : w->as[0];
    const struct buffer *there = NULL;
    for (int i = 0; i < NBUF; i++)
        if (w->buf[i].as == other && w->buf[i].va <= b->va && b->va < w->buf[i].va + w->buf[i].size)
            there = &w->buf[i];
    drain_events();
    struct gmmu_engine_rsp r = run(OP_CHECKSUM, other, 0, b->va, CHUNK, 0);
    if (!there) {
        assert_true(faulted(&r));
        assert_int_equal(reason(&r), GMMU_FAULT_INVALID);
        assert_int_equal(r.fault_va, b->va);
        expect_fault_events(b->va, GMMU_FAULT_INVALID);
        return;
    }
    uint64_t s1, s2;
    checksum(there->model + (b->va - there->va), CHUNK, &s1, &s2);
    assert_false(faulted(&r));
    assert_int_equal(r.result, s1);
}

/* Warm the TLBs on the buffer, unmap it, and every engine access through
   the old VA must fault while the memory behind it stays as it was. */
static void check_use_after_unmap(struct buffer *b)
{
    struct gmmu_engine_rsp r = run(OP_CHECKSUM, b->as, 0, b->va, 4096, 0);
    assert_false(faulted(&r));
    assert_int_equal(gmmu_unmap_va(dev, b->as, b->va, b->size), 0);
    drain_events();
    r = run(OP_FILL, b->as, b->va, 0, 4096, 0xBADBADBADBADBADull);
    assert_true(faulted(&r));
    assert_int_equal(reason(&r), GMMU_FAULT_INVALID);
    assert_int_equal(r.fault_va, b->va);
    assert_int_equal(r.bytes_done, 0);
    expect_fault_events(b->va, GMMU_FAULT_INVALID);
    for (uint64_t off = 0; off < 4096; off += MAX_OP_BYTES)
        check_through_aperture(b, off, MAX_OP_BYTES);
    b->va = 0;
}

/* ---------------------------------------------------------------- tests */

static void test_random_traffic(void **state)
{
    struct world *w = *state;
    uint32_t asid;
    assert_int_equal(gmmu_create_as(dev, &w->as[0], &asid), 0);
    assert_int_equal(gmmu_create_as(dev, &w->as[1], &asid), 0);
    for (int i = 0; i < NBUF; i++)
        make_buffer(w, &w->buf[i]);
    for (int n = 0; n < NOPS; n++) {
        struct buffer *b = &w->buf[rnd_below(NBUF)];
        if (rnd_below(2))
            random_fill(b);
        else
            random_copy(w, b);
    }
    for (int i = 0; i < NBUF; i++) {
        check_touched(&w->buf[i]);
        check_whole(&w->buf[i]);
        check_isolation(w, &w->buf[i]);
    }
    for (int i = 0; i < NBUF; i++)
        if (rnd_below(2))
            check_use_after_unmap(&w->buf[i]);
    for (int i = 0; i < NBUF; i++) {
        assert_int_equal(gmmu_free(dev, w->buf[i].alloc), 0);
        free(w->buf[i].model);
        free(w->buf[i].touched);
    }
    assert_int_equal(gmmu_destroy_as(dev, w->as[0]), 0);
    assert_int_equal(gmmu_destroy_as(dev, w->as[1]), 0);
}

/* A reserved range of 64 KB tiles: one tile mapped to an allocation, the
   others Zero. Fills across it land only in the mapped tile; reads of the
   Zero tiles give zeros; a read-only tile refuses writes. */
static void test_tiles_zero_and_read_only(void **state)
{
    (void)state;
    const uint64_t tile = 64 * KIB;
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    struct gmmu_alloc_req areq = { .size = 2 * tile, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    struct gmmu_alloc_rsp pool;
    assert_int_equal(gmmu_alloc(dev, &areq, &pool), 0);
    uint64_t va;
    assert_int_equal(gmmu_reserve_va(dev, as, 0, 0, 4 * tile, &va), 0);
    struct gmmu_update_op ops[] = {
        { .op = GMMU_UPDATE_OP_UNMAP, .flags = GMMU_MAP_FLAG_ZERO, .va = va, .size = 4 * tile },
        { .op = GMMU_UPDATE_OP_MAP,
          .va = va + tile,
          .size = tile,
          .alloc_handle = pool.handle,
          .arg = tile },
        { .op = GMMU_UPDATE_OP_MAP,
          .flags = GMMU_MAP_FLAG_READ_ONLY,
          .va = va + 3 * tile,
          .size = tile,
          .alloc_handle = pool.handle,
          .arg = 0 },
    };
    assert_int_equal(gmmu_update_va(dev, as, ops, 3), 0);

    /* Zero the pool through the aperture, then fill tiles 0..1 by VA. */
    static uint8_t zeros[2 * 64 * 1024];
    assert_int_equal(gmmu_vram_write(dev, pool.base, zeros, 4096), 0);
    assert_int_equal(gmmu_vram_write(dev, pool.base + tile, zeros, 4096), 0);
    const uint64_t pattern = 0x5A5A0000FFFF1234ull;
    struct gmmu_engine_rsp r = run(OP_FILL, as, va + tile - 2048, 0, 4096, pattern);
    assert_false(faulted(&r));
    /* The Zero half dropped its writes and reads zero... */
    r = run(OP_CHECKSUM, as, 0, va, (uint32_t)tile, 0);
    assert_int_equal(r.result, 0);
    /* ...the mapped half holds the pattern, at pool offset tile. */
    uint64_t got[256];
    assert_int_equal(gmmu_vram_read(dev, pool.base + tile, got, sizeof(got)), 0);
    for (size_t i = 0; i < 256; i++)
        assert_int_equal(got[i], pattern);
    assert_int_equal(gmmu_vram_read(dev, pool.base + tile + 2048, got, 8), 0);
    assert_int_equal(got[0], 0);

    /* The read-only tile: reads work, the write faults and changes nothing. */
    r = run(OP_CHECKSUM, as, 0, va + 3 * tile, 4096, 0);
    assert_false(faulted(&r));
    assert_int_equal(r.result, 0);
    drain_events();
    r = run(OP_FILL, as, va + 3 * tile, 0, 128, pattern);
    assert_true(faulted(&r));
    assert_int_equal(reason(&r), GMMU_FAULT_READ_ONLY);
    expect_fault_events(va + 3 * tile, GMMU_FAULT_READ_ONLY);
    assert_int_equal(gmmu_vram_read(dev, pool.base, got, 8), 0);
    assert_int_equal(got[0], 0);

    assert_int_equal(gmmu_free(dev, pool.handle), 0);
    assert_int_equal(gmmu_unmap_va(dev, as, va, 4 * tile), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
}

/* Two buffers of random bytes, one mapped NoExecute (DXGK_PTE NoExecute),
   one not. An engine FETCH (CHECKSUM with the source translated as EXECUTE,
   as a shader's instruction fetch) of the executable one gives its
   checksum; of the NoExecute one it faults NO_EXECUTE at the first chunk,
   with access EXECUTE, and posts the fault as an event. Reading the
   NoExecute buffer (CHECKSUM) is still allowed. */
static void test_fetch_no_execute(void **state)
{
    (void)state;
    enum { SIZE = 8 * 1024 };
    static uint8_t bytes[2][SIZE];
    uint32_t as, asid, alloc[2];
    uint64_t base[2], va[2], s1[2], s2[2];
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    for (int i = 0; i < 2; i++) {
        struct gmmu_alloc_req areq = { .size = SIZE, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
        struct gmmu_alloc_rsp arsp;
        assert_int_equal(gmmu_alloc(dev, &areq, &arsp), 0);
        alloc[i] = arsp.handle;
        base[i] = arsp.base;
        for (size_t k = 0; k < SIZE; k += 8) {
            uint64_t w = rnd();
            memcpy(&bytes[i][k], &w, 8);
        }
        assert_int_equal(gmmu_vram_write(dev, base[i], bytes[i], SIZE), 0);
        checksum(bytes[i], SIZE, &s1[i], &s2[i]);
        /* Buffer 0 executable, buffer 1 NoExecute. */
        struct gmmu_map_req mreq = { .as_handle = as,
                                     .alloc_handle = alloc[i],
                                     .size = SIZE,
                                     .flags = i ? GMMU_MAP_FLAG_NO_EXECUTE : 0 };
        assert_int_equal(gmmu_map_va(dev, &mreq, &va[i]), 0);
    }
    assert_int_not_equal(s1[0], s1[1]);

    /* Executable: FETCH sums it as CHECKSUM does. */
    struct gmmu_engine_rsp r = run(OP_FETCH, as, 0, va[0], SIZE, 0);
    assert_false(faulted(&r));
    assert_int_equal(r.bytes_done, SIZE);
    assert_int_equal(r.result, s1[0]);
    assert_int_equal(r.result2, s2[0]);

    /* NoExecute forbids execution only: CHECKSUM (READ) works. */
    r = run(OP_CHECKSUM, as, 0, va[1], SIZE, 0);
    assert_false(faulted(&r));
    assert_int_equal(r.result, s1[1]);
    assert_int_equal(r.result2, s2[1]);

    /* FETCH of the NoExecute buffer: NO_EXECUTE at its first chunk. */
    drain_events();
    uint32_t engine = (uint32_t)rnd_below(4);
    struct gmmu_engine_req req = {
        .engine = engine, .op = OP_FETCH, .as_handle = as, .length = SIZE, .src_va = va[1]
    };
    assert_int_equal(gmmu_engine_run(dev, &req, &r), 0);
    assert_true(faulted(&r));
    assert_int_equal(reason(&r), GMMU_FAULT_NO_EXECUTE);
    assert_int_equal((r.engine_status & GMMU_ENGINE_STATUS_ACCESS) >> GMMU_ENGINE_STATUS_ACCESS_LSB,
                     GMMU_ACCESS_EXECUTE);
    assert_int_equal(r.fault_va, va[1]);
    assert_int_equal(r.bytes_done, 0);
    assert_int_equal(r.result, 0);
    /* The events: every one NO_EXECUTE by an execute on the engine's port,
       one of them at the buffer's first byte. */
    struct gmmu_event ev;
    do {
        assert_int_equal(gmmu_wait_event(dev, 5000, &ev), 0);
        assert_int_equal(ev.type, GMMU_EVT_FAULT);
        assert_int_equal(ev.u.fault.reason, GMMU_FAULT_NO_EXECUTE);
        assert_int_equal(ev.u.fault.access, GMMU_ACCESS_EXECUTE);
        assert_int_equal(ev.u.fault.port, engine);
        assert_int_equal(ev.u.fault.as_handle, as);
    } while (ev.u.fault.va != va[1]);
    drain_events();

    /* The executable buffer still fetches after the fault (nothing stuck). */
    r = run(OP_FETCH, as, 0, va[0], SIZE, 0);
    assert_false(faulted(&r));
    assert_int_equal(r.result, s1[0]);

    for (int i = 0; i < 2; i++) {
        assert_int_equal(gmmu_unmap_va(dev, as, va[i], SIZE), 0);
        assert_int_equal(gmmu_free(dev, alloc[i]), 0);
    }
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
}

/* ---------------------------------------------------------------- harness */

static int setup(void **state)
{
    static struct world w;
    const char *seed = getenv("GMMU_E2E_SEED");
    rng_state = seed ? strtoull(seed, NULL, 0) : 0x9E3779B97F4A7C15ull;
    if (!rng_state)
        rng_state = 1;
    printf("e2e: seed %#" PRIx64 " (GMMU_E2E_SEED)\n", rng_state);
    if (soc_open(&dev) != 0)
        return -1;
    if (gmmu_get_vram(dev, &w.vram0) != 0)
        return -1;
    w.overflow0 = fault_overflow();
    *state = &w;
    return 0;
}

/* Nothing is lost: VRAM back where it started, no fault dropped. */
static int teardown(void **state)
{
    struct world *w = *state;
    struct gmmu_vram_rsp v;
    int bad = gmmu_get_vram(dev, &v) != 0 || v.free_bytes != w->vram0.free_bytes ||
              v.tables != w->vram0.tables || v.allocations != w->vram0.allocations;
    if (bad)
        fprintf(stderr, "e2e: VRAM free %" PRIu64 " (was %" PRIu64 "), tables %u (was %u)\n",
                v.free_bytes, w->vram0.free_bytes, v.tables, w->vram0.tables);
    uint32_t overflow = fault_overflow();
    if (overflow != w->overflow0) {
        fprintf(stderr, "e2e: the MMU dropped %u faults\n", overflow - w->overflow0);
        bad = 1;
    }
    gmmu_close(dev);
    return bad ? -1 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_traffic),
        cmocka_unit_test(test_tiles_zero_and_read_only),
        cmocka_unit_test(test_fetch_no_execute),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
