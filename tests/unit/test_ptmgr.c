// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of the page-table manager (firmware/lib/ptmgr.c).
 *
 * The tables are built in a host buffer standing in for VRAM, and every
 * expectation is checked by walking them with the independent reference
 * model (tests/model/gmmu_ref.c), never with ptm_query() (which is itself
 * checked against the model). The simulated hardware also checks the
 * manager's promises: freed tables hold no valid entry and are only freed
 * right after a TLB invalidation; one invalidation per command.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gmmu_ref.h"
#include "ptm_count_check.h"
#include "ptmgr.h"
#include "vram_alloc.h"

#define KiB    1024ull
#define MiB    (1024ull * KiB)
#define GiB    (1024ull * MiB)
#define PAGE   4096ull
#define TOP    (1ull << 48)
#define POISON 0xA5A5A5A5A5A5A5A5ull /* VALID set: a dangling pointer shows */

/* ------------------------------------------------------------ simulated VRAM */

struct sim;
typedef void (*write_hook_fn)(struct sim *s);

struct sim {
    uint8_t *mem;
    uint64_t bytes;
    struct vram_alloc vram;
    uint32_t *meta;
    uint32_t *counts; /* the tables' valid-entry counts (ptm_config) */
    uint64_t reads, words_written, run_calls;
    uint32_t invalidations;
    uint64_t inv_start, inv_end;
    uint32_t blocks_freed;
    bool clean_since_inv; /* no write since the last invalidation */
    /* ptm_hw.direct: on now, calls to turn it on, writes and
       invalidations while on, and writes while off. */
    bool direct_on;
    uint32_t direct_calls, direct_writes, direct_invalidations;
    uint64_t other_writes;
    /* Offsets written, while logging. */
    bool logging;
    uint64_t log[4096];
    size_t log_n;
    write_hook_fn on_write;
    void *hook_ctx;
};

static void sim_check_word(const struct sim *s, uint64_t off)
{
    assert_true(off % 8 == 0);
    assert_true(off + 8 <= s->bytes);
}

static uint64_t sim_read64(void *ctx, uint64_t off)
{
    struct sim *s = ctx;
    uint64_t v;

    sim_check_word(s, off);
    s->reads++;
    memcpy(&v, s->mem + off, 8);
    return v;
}

static void sim_store(struct sim *s, uint64_t off, uint64_t value)
{
    sim_check_word(s, off);
    memcpy(s->mem + off, &value, 8);
    s->words_written++;
    if (s->direct_on)
        s->direct_writes++;
    else
        s->other_writes++;
    s->clean_since_inv = false;
    if (s->logging && s->log_n < sizeof(s->log) / sizeof(s->log[0]))
        s->log[s->log_n++] = off;
    if (s->on_write)
        s->on_write(s);
}

static void sim_write64(void *ctx, uint64_t off, uint64_t value)
{
    sim_store(ctx, off, value);
}

static void sim_write_run(void *ctx, uint64_t off, const uint64_t *words, size_t n)
{
    struct sim *s = ctx;

    assert_true(n > 0);
    s->run_calls++;
    for (size_t i = 0; i < n; i++)
        sim_store(s, off + 8 * i, words[i]);
}

static void sim_invalidate(void *ctx, uint32_t asid, uint64_t start, uint64_t end)
{
    struct sim *s = ctx;

    (void)asid;
    assert_true(start < end);
    s->invalidations++;
    s->direct_invalidations += s->direct_on;
    s->inv_start = start;
    s->inv_end = end;
    s->clean_since_inv = true;
}

/* A table goes back to vram_alloc: it must hold nothing valid
 * (ExplicitPageTableInvalidation), and an invalidation must have come
 * after the last table write. Then poison it. */
static void sim_table_freed(void *ctx, uint64_t off, uint64_t bytes)
{
    struct sim *s = ctx;

    assert_true(s->clean_since_inv);
    for (uint64_t i = 0; i < bytes; i += 8) {
        uint64_t w;

        memcpy(&w, s->mem + off + i, 8);
        assert_false(w & GMMU_PTE_VALID);
    }
    memset(s->mem + off, 0xA5, bytes);
    s->blocks_freed++;
}

/* On and off in turn, never nested. */
static void sim_direct(void *ctx, bool on)
{
    struct sim *s = ctx;

    assert_int_equal(s->direct_on, !on);
    s->direct_on = on;
    s->direct_calls += on;
}

static const struct ptm_hw sim_hw = {
    .read64 = sim_read64,
    .write64 = sim_write64,
    .write_run = sim_write_run,
    .invalidate = sim_invalidate,
    .table_freed = sim_table_freed,
    .direct = sim_direct,
};

static void sim_init(struct sim *s, uint64_t bytes)
{
    size_t meta = vram_alloc_metadata_bytes(bytes);

    memset(s, 0, sizeof(*s));
    s->bytes = bytes;
    s->mem = malloc(bytes);
    s->meta = malloc(meta);
    s->counts = malloc(PTM_COUNT_WORDS(bytes) * sizeof(uint32_t));
    assert_non_null(s->mem);
    assert_non_null(s->meta);
    assert_non_null(s->counts);
    memset(s->mem, 0xA5, bytes);
    /* Garbage: the manager writes a count when it makes the table. */
    memset(s->counts, 0xA5, PTM_COUNT_WORDS(bytes) * sizeof(uint32_t));
    assert_int_equal(vram_alloc_init(&s->vram, s->meta, meta, bytes), VRAM_OK);
}

static void sim_drop(struct sim *s)
{
    free(s->mem);
    free(s->meta);
    free(s->counts);
}

static uint64_t sim_free_bytes(const struct sim *s)
{
    struct vram_stats st;

    vram_alloc_stats(&s->vram, &st);
    return st.free_bytes;
}

static int ref_read(void *ctx, uint64_t off, uint64_t *value)
{
    struct sim *s = ctx;

    if (off % 8 || off + 8 > s->bytes)
        return 1;
    memcpy(value, s->mem + off, 8);
    return 0;
}

/* ------------------------------------------------------------ fixture */

struct fx {
    struct sim sim;
    struct ptm pm;
    uint64_t free_before_init;
};

static void fx_init_levels(struct fx *f, uint64_t vram_bytes, unsigned levels)
{
    struct ptm_config cfg = {
        .hw = &sim_hw,
        .vram = NULL,
        .asid = 3,
        .levels = levels,
    };

    sim_init(&f->sim, vram_bytes);
    cfg.hw_ctx = &f->sim;
    cfg.vram = &f->sim.vram;
    cfg.table_counts = f->sim.counts;
    f->free_before_init = sim_free_bytes(&f->sim);
    assert_int_equal(ptm_init(&f->pm, &cfg), PTM_OK);
}

static void fx_init(struct fx *f)
{
    fx_init_levels(f, 16 * MiB, 4);
}

/* Every table holds as many valid words as its count says. */
static void fx_check_valid_counts(struct fx *f)
{
    check_table_counts(&f->pm, ref_read, &f->sim, "ptmgr");
}

/* The counting pass must have been exact: nothing short, nothing left;
 * and so must the tables' valid-entry counts. */
static void fx_check_count(struct fx *f)
{
    assert_int_equal(f->pm.count_short, 0);
    assert_int_equal(f->pm.count_excess, 0);
    fx_check_valid_counts(f);
}

static void fx_done(struct fx *f)
{
    fx_check_count(f);
    ptm_destroy(&f->pm);
    assert_int_equal(sim_free_bytes(&f->sim), f->free_before_init);
    sim_drop(&f->sim);
}

static struct gmmu_ref_result ref_walk(struct fx *f, uint64_t va, enum gmmu_access access)
{
    struct gmmu_ref_config cfg = { .levels = f->pm.levels };
    struct gmmu_ref_result r;

    gmmu_ref_translate(&cfg, ref_read, &f->sim, true, ptm_root(&f->pm), va, access, &r);
    return r;
}

static void expect_page(struct fx *f, uint64_t va, uint64_t pa, unsigned seg, unsigned attrs,
                        unsigned shift)
{
    struct gmmu_ref_result r = ref_walk(f, va, GMMU_ACCESS_READ);
    unsigned got = (r.read_only ? PTM_ATTR_READ_ONLY : 0) |
                   (r.no_execute ? PTM_ATTR_NO_EXECUTE : 0) |
                   (r.cache_coherent ? PTM_ATTR_CACHE_COHERENT : 0);

    if (r.fault != GMMU_FAULT_NONE || r.zero || r.pa != pa || r.page_shift != shift ||
        r.segment != seg || got != attrs)
        fail_msg("va 0x%llx: fault %s zero %d pa 0x%llx seg %u attrs %u shift %u, "
                 "want pa 0x%llx seg %u attrs %u shift %u",
                 (unsigned long long)va, gmmu_ref_fault_name(r.fault), r.zero,
                 (unsigned long long)r.pa, r.segment, got, r.page_shift, (unsigned long long)pa,
                 seg, attrs, shift);
}

static void expect_zero(struct fx *f, uint64_t va, unsigned attrs, unsigned shift)
{
    struct gmmu_ref_result r = ref_walk(f, va, GMMU_ACCESS_READ);

    assert_int_equal(r.fault, GMMU_FAULT_NONE);
    assert_true(r.zero);
    assert_int_equal(r.page_shift, shift);
    assert_int_equal(r.read_only, !!(attrs & PTM_ATTR_READ_ONLY));
    assert_int_equal(r.no_execute, !!(attrs & PTM_ATTR_NO_EXECUTE));
    assert_int_equal(r.cache_coherent, !!(attrs & PTM_ATTR_CACHE_COHERENT));
}

static void expect_invalid(struct fx *f, uint64_t va)
{
    struct gmmu_ref_result r = ref_walk(f, va, GMMU_ACCESS_READ);

    if (r.fault != GMMU_FAULT_INVALID)
        fail_msg("va 0x%llx: fault %s, want INVALID", (unsigned long long)va,
                 gmmu_ref_fault_name(r.fault));
}

static struct ptm_usage usage(const struct fx *f)
{
    struct ptm_usage u;

    ptm_usage(&f->pm, &u);
    return u;
}

/* The manager's VRAM report matches what vram_alloc handed out. */
static void expect_vram_matches_usage(const struct fx *f)
{
    assert_int_equal(f->free_before_init - sim_free_bytes(&f->sim), usage(f).vram_bytes);
}

/* ------------------------------------------------------------ lifetime */

static void test_init_destroy(void **state)
{
    struct fx f;
    struct ptm_usage u;
    struct ptm_config cfg = { .hw = &sim_hw };

    (void)state;
    fx_init(&f);
    u = usage(&f);
    assert_int_equal(u.upper_tables, 1);
    assert_int_equal(u.tables, 1);
    assert_int_equal(u.vram_bytes, 4 * KiB);
    expect_vram_matches_usage(&f);
    assert_int_equal(ptm_va_bits(&f.pm), 48);
    assert_int_equal(ref_walk(&f, 0x1234000, GMMU_ACCESS_READ).fault, GMMU_FAULT_INVALID);

    cfg.hw_ctx = &f.sim;
    assert_int_equal(ptm_init(NULL, &cfg), PTM_ERR_INVALID);
    assert_int_equal(ptm_init(&f.pm, &cfg), PTM_ERR_INVALID); /* no vram */
    fx_done(&f);

    fx_init_levels(&f, 1 * MiB, 2);
    u = usage(&f);
    assert_int_equal(u.l1_tables, 1);
    assert_int_equal(u.vram_bytes, 8 * KiB);
    assert_int_equal(ptm_va_bits(&f.pm), 30);
    fx_done(&f);
}

static void test_init_without_vram(void **state)
{
    struct sim s;
    struct ptm pm;
    struct ptm_config cfg = { .hw = &sim_hw, .hw_ctx = &s, .levels = 4 };
    uint64_t off;

    (void)state;
    sim_init(&s, 8 * KiB);
    cfg.vram = &s.vram;
    cfg.table_counts = s.counts;
    assert_int_equal(vram_alloc_block(&s.vram, 8 * KiB, &off), VRAM_OK);
    assert_int_equal(ptm_init(&pm, &cfg), PTM_ERR_NO_VRAM);
    cfg.levels = 5;
    assert_int_equal(ptm_init(&pm, &cfg), PTM_ERR_INVALID);
    sim_drop(&s);
}

/* ------------------------------------------------------------ mapping */

static void test_map_4k_walk(void **state)
{
    struct fx f;
    uint64_t va = 0x00000080C0453000ull;
    struct ptm_usage u;
    unsigned attrs = PTM_ATTR_READ_ONLY | PTM_ATTR_NO_EXECUTE;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, va, 0x123456000ull, PAGE, 1, attrs, PTM_PAGE_ALL), PTM_OK);
    expect_page(&f, va + 0xABC, 0x123456ABCull, 1, attrs, 12);
    assert_int_equal(ref_walk(&f, va, GMMU_ACCESS_WRITE).fault, GMMU_FAULT_READ_ONLY);
    assert_int_equal(ref_walk(&f, va, GMMU_ACCESS_EXECUTE).fault, GMMU_FAULT_NO_EXECUTE);
    expect_invalid(&f, va + PAGE);
    expect_invalid(&f, va - PAGE);
    assert_int_equal(f.sim.invalidations, 1);
    assert_int_equal(f.sim.inv_start, va);
    assert_int_equal(f.sim.inv_end, va + PAGE);
    u = usage(&f);
    assert_int_equal(u.upper_tables, 2);
    assert_int_equal(u.l1_tables, 1);
    assert_int_equal(u.leaf4k_tables, 1);
    assert_int_equal(u.leaf64k_tables, 0);
    assert_int_equal(u.tables, 4);
    assert_int_equal(u.table_bytes, 3 * 4 * KiB + 8 * KiB);
    expect_vram_matches_usage(&f);
    fx_done(&f);
}

struct size_case {
    uint64_t va, pa, size;
    unsigned pages;
    /* Offsets into the mapping and the page size expected there. */
    struct {
        uint64_t off;
        unsigned shift;
    } at[4];
};

static void test_page_size_choice(void **state)
{
    static const struct size_case cases[] = {
        { 0x40000000, 0x10000, 64 * KiB, PTM_PAGE_ALL, { { 0, 16 }, { 0xF000, 16 } } },
        { 0x40200000, 0x600000, 2 * MiB, PTM_PAGE_ALL, { { 0, 21 }, { 0x1FF000, 21 } } },
        { 0x80000000, 0xC0000000, 1 * GiB, PTM_PAGE_ALL, { { 0, 30 }, { GiB - PAGE, 30 } } },
        /* PA alignment limits the page. */
        { 0x40200000, 0x610000, 2 * MiB, PTM_PAGE_ALL, { { 0, 16 }, { 0x1F0000, 16 } } },
        { 0x40200000, 0x611000, 2 * MiB, PTM_PAGE_ALL, { { 0, 12 }, { 0x1FF000, 12 } } },
        /* So does VA alignment. */
        { 0x40201000,
          0x602000,
          2 * MiB,
          PTM_PAGE_ALL,
          { { 0, 12 }, { 0xF000, 12 }, { 0x1FF000, 12 } } },
        /* Equally misaligned VA and PA: 64 KB pages in between. */
        { 0x40201000,
          0x601000,
          2 * MiB,
          PTM_PAGE_ALL,
          { { 0, 12 }, { 0xF000, 16 }, { 0x1FF000, 12 } } },
        /* And the size: 2 MB + 64 KB + 4 KB. */
        { 0x40200000,
          0x600000,
          2 * MiB + 68 * KiB,
          PTM_PAGE_ALL,
          { { 0, 21 }, { 2 * MiB, 16 }, { 2 * MiB + 64 * KiB, 12 } } },
        /* An unaligned start, then large pages once aligned. */
        { 0x401FF000, 0x5FF000, 2 * MiB + PAGE, PTM_PAGE_ALL, { { 0, 12 }, { PAGE, 21 } } },
        { 0x401F0000, 0x5F0000, 2 * MiB + 64 * KiB, PTM_PAGE_ALL, { { 0, 16 }, { 64 * KiB, 21 } } },
        /* The allowed sizes. */
        { 0x40200000, 0x600000, 2 * MiB, PTM_PAGE_4K, { { 0, 12 }, { 0x1FF000, 12 } } },
        { 0x40200000, 0x600000, 2 * MiB, PTM_PAGE_4K | PTM_PAGE_64K, { { 0, 16 } } },
        { 0x80000000, 0xC0000000, 1 * GiB, PTM_PAGE_2M, { { 0, 21 }, { GiB - PAGE, 21 } } },
        { 0x40010000, 0x610000, 128 * KiB, PTM_PAGE_64K, { { 0, 16 }, { 64 * KiB, 16 } } },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct size_case *c = &cases[i];
        struct fx f;

        fx_init(&f);
        assert_int_equal(ptm_map(&f.pm, c->va, c->pa, c->size, 1, 0, c->pages), PTM_OK);
        for (unsigned k = 0; k < 4 && (k == 0 || c->at[k].off); k++)
            expect_page(&f, c->va + c->at[k].off + 8, c->pa + c->at[k].off + 8, 1, 0,
                        c->at[k].shift);
        for (uint64_t off = 0; off < c->size; off += (c->size > 4 * MiB ? 2 * MiB - PAGE : PAGE))
            expect_page(&f, c->va + off, c->pa + off, 1, 0,
                        ref_walk(&f, c->va + off, GMMU_ACCESS_READ).page_shift);
        expect_invalid(&f, c->va - PAGE);
        expect_invalid(&f, c->va + c->size);
        assert_int_equal(f.sim.invalidations, 1);
        expect_vram_matches_usage(&f);
        fx_done(&f);
    }
}

static void test_map_extents(void **state)
{
    struct fx f;
    const struct ptm_extent ext[] = {
        { 0x1000000, 2 * MiB }, /* 2 MB page */
        { 0x30000, 64 * KiB },  /* 64 KB page */
        { 0x7000, PAGE },       /* 4 KB page */
        { 0x800000, 1 * MiB },  /* contiguous pair: one 2 MB page */
        { 0x900000, 1 * MiB },
    };
    uint64_t va = 0x10000000;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map_extents(&f.pm, va, ext, 5, 0, PTM_ATTR_CACHE_COHERENT, PTM_PAGE_ALL),
                     PTM_OK);
    expect_page(&f, va + 0x1234, 0x1001234, 0, PTM_ATTR_CACHE_COHERENT, 21);
    expect_page(&f, va + 2 * MiB + 0x8000, 0x38000, 0, PTM_ATTR_CACHE_COHERENT, 16);
    expect_page(&f, va + 2 * MiB + 64 * KiB, 0x7000, 0, PTM_ATTR_CACHE_COHERENT, 12);
    /* The pair starts at 2 MB + 68 KB: not 2 MB aligned in VA, so small
     * pages, but one run across the two extents. */
    expect_page(&f, va + 2 * MiB + 68 * KiB + MiB + 4 * PAGE, 0x904000, 0, PTM_ATTR_CACHE_COHERENT,
                12);
    expect_invalid(&f, va + 4 * MiB + 68 * KiB);
    assert_int_equal(f.sim.invalidations, 1);
    fx_done(&f);

    /* The same pair at an aligned VA is one 2 MB page. */
    fx_init(&f);
    assert_int_equal(ptm_map_extents(&f.pm, va, &ext[3], 2, 1, 0, PTM_PAGE_ALL), PTM_OK);
    expect_page(&f, va + MiB + 5, 0x900005, 1, 0, 21);
    fx_done(&f);
}

static void test_bad_arguments(void **state)
{
    struct fx f;
    struct ptm_extent zero_size = { 0, 0 };
    struct ptm_translation t;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, 0x1800, 0, PAGE, 1, 0, PTM_PAGE_ALL), PTM_ERR_ALIGN);
    assert_int_equal(ptm_map(&f.pm, 0x1000, 0x800, PAGE, 1, 0, PTM_PAGE_ALL), PTM_ERR_ALIGN);
    assert_int_equal(ptm_map(&f.pm, 0x1000, 0, 100, 1, 0, PTM_PAGE_ALL), PTM_ERR_ALIGN);
    assert_int_equal(ptm_map(&f.pm, 0x1000, 0, 0, 1, 0, PTM_PAGE_ALL), PTM_ERR_INVALID);
    assert_int_equal(ptm_map(&f.pm, TOP - PAGE, 0, 2 * PAGE, 1, 0, PTM_PAGE_ALL), PTM_ERR_RANGE);
    assert_int_equal(ptm_map(&f.pm, TOP, 0, PAGE, 1, 0, PTM_PAGE_ALL), PTM_ERR_RANGE);
    assert_int_equal(ptm_map(&f.pm, 0, 1ull << 52, PAGE, 1, 0, PTM_PAGE_ALL), PTM_ERR_RANGE);
    assert_int_equal(ptm_map(&f.pm, 0, (1ull << 52) - PAGE, 2 * PAGE, 1, 0, PTM_PAGE_ALL),
                     PTM_ERR_RANGE);
    assert_int_equal(ptm_map(&f.pm, 0, 0, PAGE, 32, 0, PTM_PAGE_ALL), PTM_ERR_INVALID);
    assert_int_equal(ptm_map(&f.pm, 0, 0, PAGE, 1, 8, PTM_PAGE_ALL), PTM_ERR_INVALID);
    assert_int_equal(ptm_map(&f.pm, 0, 0, PAGE, 1, 0, 0), PTM_ERR_INVALID);
    assert_int_equal(ptm_map(&f.pm, 0, 0, PAGE, 1, 0, 16), PTM_ERR_INVALID);
    /* Without 4 KB pages everything must be 64 KB aligned. */
    assert_int_equal(ptm_map(&f.pm, 0x1000, 0, 64 * KiB, 1, 0, PTM_PAGE_64K), PTM_ERR_ALIGN);
    assert_int_equal(ptm_map(&f.pm, 0, 0x1000, 64 * KiB, 1, 0, PTM_PAGE_64K), PTM_ERR_ALIGN);
    assert_int_equal(ptm_map(&f.pm, 0, 0, 68 * KiB, 1, 0, PTM_PAGE_64K), PTM_ERR_ALIGN);
    assert_int_equal(ptm_map_extents(&f.pm, 0, &zero_size, 1, 1, 0, PTM_PAGE_ALL), PTM_ERR_INVALID);
    assert_int_equal(ptm_map_extents(&f.pm, 0, NULL, 1, 1, 0, PTM_PAGE_ALL), PTM_ERR_INVALID);
    assert_int_equal(ptm_map_extents(&f.pm, 0, &zero_size, 0, 1, 0, PTM_PAGE_ALL), PTM_ERR_INVALID);
    assert_int_equal(ptm_map_zero(&f.pm, 0x10, PAGE, 0), PTM_ERR_ALIGN);
    assert_int_equal(ptm_map_zero(&f.pm, 0, PAGE, 9), PTM_ERR_INVALID);
    assert_int_equal(ptm_unmap(&f.pm, 0, 0), PTM_ERR_INVALID);
    assert_int_equal(ptm_unmap(&f.pm, TOP - PAGE, 2 * PAGE), PTM_ERR_RANGE);
    assert_int_equal(ptm_protect(&f.pm, 0, PAGE + 1, 0), PTM_ERR_ALIGN);
    assert_int_equal(ptm_protect(&f.pm, 0, PAGE, 16), PTM_ERR_INVALID);
    assert_int_equal(ptm_copy(&f.pm, 0, PAGE, 2 * PAGE), PTM_ERR_OVERLAP);
    assert_int_equal(ptm_copy(&f.pm, 2 * PAGE, PAGE, 2 * PAGE), PTM_ERR_OVERLAP);
    assert_int_equal(ptm_copy(&f.pm, TOP - PAGE, 0, 2 * PAGE), PTM_ERR_RANGE);
    assert_int_equal(ptm_query(&f.pm, TOP, &t), PTM_ERR_RANGE);
    /* Nothing above was written or invalidated beyond the root. */
    assert_int_equal(f.sim.invalidations, 0);
    assert_int_equal(usage(&f).tables, 1);
    fx_done(&f);

    /* Two levels have no 1 GB pages. */
    fx_init_levels(&f, 1 * MiB, 2);
    assert_int_equal(ptm_map(&f.pm, 0, 0, GiB, 1, 0, PTM_PAGE_1G), PTM_ERR_INVALID);
    assert_int_equal(ptm_map(&f.pm, 0, 0, PAGE, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(ptm_map(&f.pm, GiB - PAGE, 0, 2 * PAGE, 1, 0, PTM_PAGE_ALL), PTM_ERR_RANGE);
    fx_done(&f);
}

/* ------------------------------------------------------------ splitting */

static void test_unmap_splits_2m_page(void **state)
{
    struct fx f;
    uint64_t va = 0x7F00200000ull, pa = 0x2400000;
    uint64_t hole = va + 5 * 64 * KiB + 3 * PAGE;
    struct ptm_usage u;
    uint64_t free_mapped;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, va, pa, 2 * MiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    free_mapped = sim_free_bytes(&f.sim);
    assert_int_equal(usage(&f).leaf4k_tables + usage(&f).leaf64k_tables, 0);

    assert_int_equal(ptm_unmap(&f.pm, hole, PAGE), PTM_OK);
    expect_invalid(&f, hole);
    for (uint64_t off = 0; off < 2 * MiB; off += PAGE) {
        bool same_chunk = (off >> 16) == 5;

        if (va + off != hole)
            expect_page(&f, va + off, pa + off, 1, 0, same_chunk ? 12 : 16);
    }
    u = usage(&f);
    assert_int_equal(u.leaf4k_tables, 1);
    assert_int_equal(u.leaf64k_tables, 1);
    assert_int_equal(u.slab_pages, 1);
    expect_vram_matches_usage(&f);
    assert_int_equal(f.sim.inv_start, hole);
    assert_int_equal(f.sim.inv_end, hole + PAGE);

    /* Unmapping the rest piece by piece frees everything again. */
    assert_int_equal(ptm_unmap(&f.pm, va, hole - va), PTM_OK);
    assert_int_equal(ptm_unmap(&f.pm, hole + PAGE, va + 2 * MiB - hole - PAGE), PTM_OK);
    u = usage(&f);
    assert_int_equal(u.tables, 1);
    assert_int_equal(sim_free_bytes(&f.sim), f.free_before_init - 4 * KiB);
    assert_true(sim_free_bytes(&f.sim) > free_mapped);
    fx_done(&f);
}

static void test_unmap_splits_1g_page(void **state)
{
    struct fx f;
    uint64_t va = 0x40000000, pa = 0x80000000;
    uint64_t cut = va + 10 * MiB + 0x11000;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, va, pa, GiB, 0, PTM_ATTR_NO_EXECUTE, PTM_PAGE_ALL), PTM_OK);
    expect_page(&f, va + 77 * MiB, pa + 77 * MiB, 0, PTM_ATTR_NO_EXECUTE, 30);
    /* Cut 2 MB + 4 KB out of the middle: an L1 table of 2 MB pages, two of
     * them split further. */
    assert_int_equal(ptm_unmap(&f.pm, cut, 2 * MiB + PAGE), PTM_OK);
    for (uint64_t off = 0; off < GiB; off += (off < 16 * MiB ? PAGE : 2 * MiB - PAGE)) {
        uint64_t x = va + off;

        if (x >= cut && x < cut + 2 * MiB + PAGE)
            expect_invalid(&f, x);
        else
            expect_page(&f, x, pa + off, 0, PTM_ATTR_NO_EXECUTE,
                        ref_walk(&f, x, GMMU_ACCESS_READ).page_shift);
    }
    expect_page(&f, va, pa, 0, PTM_ATTR_NO_EXECUTE, 21);
    expect_page(&f, va + 8 * MiB, pa + 8 * MiB, 0, PTM_ATTR_NO_EXECUTE, 21);
    expect_page(&f, va + 10 * MiB, pa + 10 * MiB, 0, PTM_ATTR_NO_EXECUTE, 16);
    expect_page(&f, va + 10 * MiB + 0x10000, pa + 10 * MiB + 0x10000, 0, PTM_ATTR_NO_EXECUTE, 12);
    expect_page(&f, va + 12 * MiB + 0x12000, pa + 12 * MiB + 0x12000, 0, PTM_ATTR_NO_EXECUTE, 12);
    expect_page(&f, va + 12 * MiB + 0x20000, pa + 12 * MiB + 0x20000, 0, PTM_ATTR_NO_EXECUTE, 16);
    expect_page(&f, va + 14 * MiB, pa + 14 * MiB, 0, PTM_ATTR_NO_EXECUTE, 21);
    expect_page(&f, va + GiB - PAGE, pa + GiB - PAGE, 0, PTM_ATTR_NO_EXECUTE, 21);
    expect_vram_matches_usage(&f);
    fx_done(&f);
}

static void test_remap_inside_large_page(void **state)
{
    struct fx f;
    uint64_t va = 0x200000, pa = 0x400000;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, va, pa, 2 * MiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(
        ptm_map(&f.pm, va + 0x23000, 0x9000000, PAGE, 0, PTM_ATTR_READ_ONLY, PTM_PAGE_ALL), PTM_OK);
    expect_page(&f, va + 0x23000, 0x9000000, 0, PTM_ATTR_READ_ONLY, 12);
    expect_page(&f, va + 0x22000, pa + 0x22000, 1, 0, 12);
    expect_page(&f, va + 0x30000, pa + 0x30000, 1, 0, 16);
    /* Mapping back exactly what was there merges nothing but changes it back. */
    assert_int_equal(ptm_map(&f.pm, va + 0x23000, pa + 0x23000, PAGE, 1, 0, PTM_PAGE_ALL), PTM_OK);
    expect_page(&f, va + 0x23000, pa + 0x23000, 1, 0, 12);
    /* A 64 KB remap over the 4 KB chunk turns it back into a 64 KB entry. */
    assert_int_equal(ptm_map(&f.pm, va + 0x20000, pa + 0x20000, 64 * KiB, 1, 0, PTM_PAGE_ALL),
                     PTM_OK);
    expect_page(&f, va + 0x23000, pa + 0x23000, 1, 0, 16);
    assert_int_equal(usage(&f).leaf4k_tables, 0);
    /* And the whole region mapped again as one 2 MB page frees the leaves. */
    assert_int_equal(ptm_map(&f.pm, va, pa, 2 * MiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    expect_page(&f, va + 0x23000, pa + 0x23000, 1, 0, 21);
    assert_int_equal(usage(&f).leaf64k_tables, 0);
    assert_int_equal(usage(&f).slab_pages, 0);
    expect_vram_matches_usage(&f);
    fx_done(&f);
}

/* ------------------------------------------------------------ zero */

static void test_zero_entries(void **state)
{
    struct fx f;
    uint64_t va = 0x40000000;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map_zero(&f.pm, va, 4 * MiB, PTM_ATTR_READ_ONLY), PTM_OK);
    expect_zero(&f, va + 3 * MiB, PTM_ATTR_READ_ONLY, 21);
    assert_int_equal(ref_walk(&f, va, GMMU_ACCESS_WRITE).fault, GMMU_FAULT_READ_ONLY);
    /* Unmap part of a zero 2 MB entry: it splits into 64 KB zero entries. */
    assert_int_equal(ptm_unmap(&f.pm, va + 0x40000, 0x3000), PTM_OK);
    expect_invalid(&f, va + 0x41000);
    expect_zero(&f, va + 0x43000, PTM_ATTR_READ_ONLY, 12);
    expect_zero(&f, va + 0x50000, PTM_ATTR_READ_ONLY, 16);
    expect_zero(&f, va + 2 * MiB, PTM_ATTR_READ_ONLY, 21);
    /* Zero over mapped pages, unaligned. */
    assert_int_equal(ptm_map(&f.pm, va + 8 * MiB, 0x1000000, 2 * MiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(ptm_map_zero(&f.pm, va + 8 * MiB + 0x5000, 0x2000, 0), PTM_OK);
    expect_zero(&f, va + 8 * MiB + 0x6000, 0, 12);
    expect_page(&f, va + 8 * MiB + 0x7000, 0x1007000, 1, 0, 12);
    expect_page(&f, va + 8 * MiB + 0x4000, 0x1004000, 1, 0, 12);
    /* A whole 1 GB zero range is one entry; at level 3 even 512 GB. */
    assert_int_equal(ptm_map_zero(&f.pm, 512 * GiB, 512 * GiB, PTM_ATTR_NO_EXECUTE), PTM_OK);
    expect_zero(&f, 700 * GiB, PTM_ATTR_NO_EXECUTE, 39);
    assert_int_equal(ptm_unmap(&f.pm, 600 * GiB, PAGE), PTM_OK);
    expect_invalid(&f, 600 * GiB);
    expect_zero(&f, 600 * GiB + PAGE, PTM_ATTR_NO_EXECUTE, 12);
    expect_zero(&f, 601 * GiB, PTM_ATTR_NO_EXECUTE, 30);
    expect_vram_matches_usage(&f);
    fx_done(&f);
}

/* ------------------------------------------------------------ protect, copy */

static void test_protect(void **state)
{
    struct fx f;
    uint64_t va = 0x40000000, pa = 0x1400000;
    unsigned ro = PTM_ATTR_READ_ONLY;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, va, pa, 2 * MiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(ptm_map(&f.pm, va + 4 * MiB, pa, 8 * PAGE, 1, 0, PTM_PAGE_ALL), PTM_OK);
    /* A 64 KB chunk inside the 2 MB page: the page splits into 64 KB pages. */
    assert_int_equal(ptm_protect(&f.pm, va + 0x30000, 64 * KiB, ro), PTM_OK);
    expect_page(&f, va + 0x30000, pa + 0x30000, 1, ro, 16);
    expect_page(&f, va + 0x3F000, pa + 0x3F000, 1, ro, 16);
    expect_page(&f, va + 0x20000, pa + 0x20000, 1, 0, 16);
    expect_page(&f, va + 0x40000, pa + 0x40000, 1, 0, 16);
    assert_int_equal(ref_walk(&f, va + 0x30000, GMMU_ACCESS_WRITE).fault, GMMU_FAULT_READ_ONLY);
    /* Across a hole: invalid stays invalid. */
    assert_int_equal(ptm_protect(&f.pm, va + 4 * MiB - 4 * PAGE, 16 * PAGE, PTM_ATTR_NO_EXECUTE),
                     PTM_OK);
    expect_invalid(&f, va + 4 * MiB - PAGE);
    expect_page(&f, va + 4 * MiB + 3 * PAGE, pa + 3 * PAGE, 1, PTM_ATTR_NO_EXECUTE, 12);
    expect_page(&f, va + 4 * MiB + 7 * PAGE, pa + 7 * PAGE, 1, PTM_ATTR_NO_EXECUTE, 12);
    expect_invalid(&f, va + 4 * MiB + 8 * PAGE);
    /* Protecting a whole 2 MB page keeps it one page. */
    assert_int_equal(ptm_map(&f.pm, va + 8 * MiB, pa, 2 * MiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(ptm_protect(&f.pm, va + 8 * MiB, 2 * MiB, ro), PTM_OK);
    expect_page(&f, va + 9 * MiB, pa + MiB, 1, ro, 21);
    /* Protecting with the same attributes changes nothing. */
    f.sim.words_written = 0;
    assert_int_equal(ptm_protect(&f.pm, va + 9 * MiB, 4 * PAGE, ro), PTM_OK);
    assert_int_equal(f.sim.words_written, 0);
    expect_page(&f, va + 9 * MiB, pa + MiB, 1, ro, 21);
    fx_done(&f);
}

static void test_copy(void **state)
{
    struct fx f;
    uint64_t src = 0x40000000, dst = 0x80000000, pa = 0x2000000;

    (void)state;
    fx_init(&f);
    /* src: a 2 MB page, 64 KB pages, 4 KB pages, a zero page, a hole. */
    assert_int_equal(
        ptm_map(&f.pm, src, pa, 2 * MiB + 128 * KiB, 1, PTM_ATTR_NO_EXECUTE, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(
        ptm_map(&f.pm, src + 2 * MiB + 128 * KiB, 0x123000, 4 * PAGE, 0, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(ptm_map_zero(&f.pm, src + 2 * MiB + 144 * KiB, PAGE, PTM_ATTR_READ_ONLY),
                     PTM_OK);

    /* Same alignment: the same page sizes. */
    assert_int_equal(ptm_copy(&f.pm, src, dst, 4 * MiB), PTM_OK);
    expect_page(&f, dst + 0x1234, pa + 0x1234, 1, PTM_ATTR_NO_EXECUTE, 21);
    expect_page(&f, dst + 2 * MiB + 0x1F000, pa + 2 * MiB + 0x1F000, 1, PTM_ATTR_NO_EXECUTE, 16);
    expect_page(&f, dst + 2 * MiB + 130 * KiB, 0x123000 + 2 * KiB, 0, 0, 12);
    expect_page(&f, dst + 2 * MiB + 0x21400, 0x124400, 0, 0, 12);
    expect_zero(&f, dst + 2 * MiB + 144 * KiB, PTM_ATTR_READ_ONLY, 12);
    expect_invalid(&f, dst + 2 * MiB + 148 * KiB);
    expect_invalid(&f, dst + 4 * MiB - PAGE);
    /* The source is unchanged. */
    expect_page(&f, src + 0x1234, pa + 0x1234, 1, PTM_ATTR_NO_EXECUTE, 21);

    /* Copying over mappings replaces them, holes included. */
    assert_int_equal(ptm_map(&f.pm, dst + 2 * MiB + 148 * KiB, 0x5000, PAGE, 0, 0, PTM_PAGE_ALL),
                     PTM_OK);
    assert_int_equal(ptm_copy(&f.pm, src, dst, 4 * MiB), PTM_OK);
    expect_invalid(&f, dst + 2 * MiB + 148 * KiB);

    /* A 4 KB-shifted destination only allows 4 KB pages. */
    assert_int_equal(ptm_copy(&f.pm, src, dst + 16 * MiB + PAGE, 3 * MiB), PTM_OK);
    expect_page(&f, dst + 16 * MiB + PAGE, pa, 1, PTM_ATTR_NO_EXECUTE, 12);
    expect_page(&f, dst + 18 * MiB + PAGE + 0x10000, pa + 2 * MiB + 0x10000, 1, PTM_ATTR_NO_EXECUTE,
                12);
    assert_int_equal(ptm_copy(&f.pm, src, src, 4 * MiB), PTM_OK);
    expect_vram_matches_usage(&f);
    fx_done(&f);
}

/* ------------------------------------------------------------ table lifetime */

static void test_tables_freed_when_empty(void **state)
{
    struct fx f;
    uint64_t a = 0x0000123440000000ull, b = a + 0x7000;
    uint64_t free_after_init;

    (void)state;
    fx_init(&f);
    free_after_init = sim_free_bytes(&f.sim);
    assert_int_equal(ptm_map(&f.pm, a, 0x10000, PAGE, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(ptm_map(&f.pm, b, 0x20000, PAGE, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(usage(&f).tables, 4);

    assert_int_equal(ptm_unmap(&f.pm, a, PAGE), PTM_OK);
    assert_int_equal(usage(&f).tables, 4);
    assert_int_equal(f.sim.blocks_freed, 0);
    expect_page(&f, b, 0x20000, 1, 0, 12);
    fx_check_valid_counts(&f);

    f.sim.invalidations = 0;
    f.sim.reads = 0;
    assert_int_equal(ptm_unmap(&f.pm, b, PAGE), PTM_OK);
    /* Leaf, level 1 and level 2 tables went, after one invalidation that
     * covers the tables' whole reach (the level-2 table: 1 GB). Their
     * counts said they were empty: the path and the page's chunk were
     * read, no table was scanned. */
    assert_true(f.sim.reads < 40);
    assert_int_equal(f.sim.invalidations, 1);
    assert_int_equal(f.sim.blocks_freed, 3);
    assert_true(f.sim.inv_start <= a && f.sim.inv_end >= a + GiB);
    assert_int_equal(usage(&f).tables, 1);
    assert_int_equal(sim_free_bytes(&f.sim), free_after_init);
    expect_invalid(&f, b);
    fx_done(&f);
}

static void test_64k_tables_share_a_slab(void **state)
{
    struct fx f;
    uint64_t va = 0x80000000; /* 32 MB window aligned */
    struct ptm_usage u;

    (void)state;
    fx_init(&f);
    for (unsigned i = 0; i < 17; i++)
        assert_int_equal(
            ptm_map(&f.pm, va + i * 2 * MiB + 0x30000, 0x50000, 64 * KiB, 1, 0, PTM_PAGE_ALL),
            PTM_OK);
    u = usage(&f);
    assert_int_equal(u.leaf64k_tables, 17);
    assert_int_equal(u.slab_pages, 2);
    assert_int_equal(u.table_bytes, 2 * 4 * KiB + 8 * KiB + 17 * 256);
    expect_vram_matches_usage(&f);
    for (unsigned i = 0; i < 17; i++)
        expect_page(&f, va + i * 2 * MiB + 0x3ABCD, 0x5ABCD, 1, 0, 16);

    for (unsigned i = 0; i < 15; i++)
        assert_int_equal(ptm_unmap(&f.pm, va + i * 2 * MiB, 2 * MiB), PTM_OK);
    assert_int_equal(usage(&f).slab_pages, 2);
    fx_check_valid_counts(&f);
    assert_int_equal(ptm_unmap(&f.pm, va + 15 * 2 * MiB + 0x30000, 0x10000), PTM_OK);
    assert_int_equal(usage(&f).slab_pages, 1);
    fx_check_valid_counts(&f);
    expect_page(&f, va + 16 * 2 * MiB + 0x30000, 0x50000, 1, 0, 16);
    expect_vram_matches_usage(&f);
    fx_done(&f);
}

/* ------------------------------------------------------------ rows of 2 MB regions */

/* A write_pattern hook (the paging engine's run form), expanded into
 * stores: with it a slab's row of 64 KB entries is one call. */
static void sim_write_pattern(void *ctx, uint64_t off, uint64_t first, uint64_t step, size_t n)
{
    struct sim *s = ctx;

    assert_true(n > 0);
    s->run_calls++;
    for (size_t i = 0; i < n; i++)
        sim_store(s, off + 8 * i, first + i * step);
}

static const struct ptm_hw sim_hw_pattern = {
    .read64 = sim_read64,
    .write64 = sim_write64,
    .write_run = sim_write_run,
    .write_pattern = sim_write_pattern,
    .invalidate = sim_invalidate,
    .table_freed = sim_table_freed,
    .direct = sim_direct,
};

static uint64_t sim_word(const struct fx *f, uint64_t off)
{
    uint64_t v;

    assert_true(off % 8 == 0 && off + 8 <= f->sim.bytes);
    memcpy(&v, f->sim.mem + off, 8);
    return v;
}

/* The level-1 table under va (4 levels), from the upper entries. */
static uint64_t l1_table(const struct fx *f, uint64_t va)
{
    uint64_t t = ptm_root(&f->pm);

    for (unsigned level = 3; level > 1; level--) {
        uint64_t e = sim_word(f, t + ((va >> (12 + 9 * level)) & 511) * 8);

        assert_true(e & GMMU_PTE_VALID);
        assert_false(e & (GMMU_PTE_LARGE_PAGE | GMMU_PTE_ZERO));
        t = (e & GMMU_PTE_ADDR) >> GMMU_PTE_ADDR_LSB << 8;
    }
    return t;
}

/* Words 0 and 1 of the dual entry of the 2 MB region r (from va0). */
static void dual_words(const struct fx *f, uint64_t l1, unsigned r, uint64_t *w0, uint64_t *w1)
{
    *w0 = sim_word(f, l1 + 16 * r);
    *w1 = sim_word(f, l1 + 16 * r + 8);
}

/*
 * A map over many whole 2 MB regions of a new level-1 table is decided a
 * row (up to the 32 MB window's end) at a time. The entries are checked
 * word by word against values worked out from the PTE layout (pte.toml:
 * VALID bit 0, LARGE_PAGE bit 5, TABLE_64K bit 6, ADDR = PA[51:8] from bit
 * 8, SEGMENT from bit 52), with and without a write_pattern hook.
 */
static void rows_case(const struct ptm_hw *hw)
{
    const uint64_t va0 = 1 * GiB, seg1 = 1ull << 52;
    struct ptm_config cfg = { .hw = hw, .asid = 3, .levels = 4 };
    uint64_t l1, w0, w1, slab0, slab1;
    struct fx f;

    sim_init(&f.sim, 16 * MiB);
    cfg.hw_ctx = &f.sim;
    cfg.vram = &f.sim.vram;
    cfg.table_counts = f.sim.counts;
    f.free_before_init = sim_free_bytes(&f.sim);
    assert_int_equal(ptm_init(&f.pm, &cfg), PTM_OK);

    /* 2 MB pages: regions 47..64 (36 MB from 94 MB) map PA 0x40000000 +;
       the rows are region 47, regions 48..63, region 64. */
    assert_int_equal(
        ptm_map(&f.pm, va0 + 94 * MiB, 0x40000000, 36 * MiB, 1, PTM_ATTR_READ_ONLY, PTM_PAGE_ALL),
        PTM_OK);
    fx_check_count(&f);
    l1 = l1_table(&f, va0);
    for (unsigned r = 46; r <= 65; r++) {
        uint64_t want = 0;

        if (r >= 47 && r <= 64)
            want = 0x1 | 0x8 | 0x20 | seg1 | (0x40000000 + (r - 47) * 2 * MiB);
        dual_words(&f, l1, r, &w0, &w1);
        if (w0 != want || w1 != 0)
            fail_msg("region %u: 0x%llx 0x%llx, want 0x%llx 0", r, (unsigned long long)w0,
                     (unsigned long long)w1, (unsigned long long)want);
    }
    expect_page(&f, va0 + 111 * MiB + 0x1234, 0x40000000 + 17 * MiB + 0x1234, 1, PTM_ATTR_READ_ONLY,
                21);
    assert_int_equal(usage(&f).leaf64k_tables, 0);

    /* 64 KB pages in a new level-1 table (the PA is 64 KB- but not 2 MB-
       aligned): region 2's last chunk alone makes window 0's slab;
       regions 3..15 are a row in it; regions 16..17 a row in a new slab,
       whose slot 2 region 18's first two chunks then take. */
    const uint64_t va1 = 2 * GiB, lo = va1 + 6 * MiB - 64 * KiB, hi = va1 + 36 * MiB + 128 * KiB;
    const uint64_t pa0 = 0x12340000;
    assert_int_equal(ptm_map(&f.pm, lo, pa0, hi - lo, 1, 0, PTM_PAGE_ALL), PTM_OK);
    fx_check_count(&f);
    l1 = l1_table(&f, va1);
    assert_int_equal(usage(&f).leaf64k_tables, 17);
    assert_int_equal(usage(&f).slab_pages, 2);
    expect_vram_matches_usage(&f);
    dual_words(&f, l1, 2, &w0, &w1);
    slab0 = (w1 & GMMU_PTE_ADDR) & ~(4 * KiB - 1);
    dual_words(&f, l1, 16, &w0, &w1);
    slab1 = (w1 & GMMU_PTE_ADDR) & ~(4 * KiB - 1);
    assert_true(slab0 != slab1);
    for (unsigned r = 2; r <= 18; r++) {
        uint64_t slot = (r < 16 ? slab0 : slab1) + (r % 16) * 256;

        dual_words(&f, l1, r, &w0, &w1);
        if (w0 != 0 || w1 != (0x1 | 0x40 | seg1 | slot))
            fail_msg("region %u: 0x%llx 0x%llx, want 0 0x%llx", r, (unsigned long long)w0,
                     (unsigned long long)w1, (unsigned long long)(0x41 | seg1 | slot));
        for (unsigned c = 0; c < 32; c++) {
            uint64_t va = va1 + r * 2 * MiB + c * 64 * KiB;
            uint64_t want = va >= lo && va < hi ? 0x1 | seg1 | (pa0 + (va - lo)) : 0;

            if (sim_word(&f, slot + 8 * c) != want)
                fail_msg("region %u chunk %u: 0x%llx, want 0x%llx", r, c,
                         (unsigned long long)sim_word(&f, slot + 8 * c), (unsigned long long)want);
        }
    }
    /* The slots no region uses are clear. */
    for (uint64_t off = 0; off < 2 * 256; off += 8)
        assert_int_equal(sim_word(&f, slab0 + off), 0);
    for (uint64_t off = 3 * 256; off < 4 * KiB; off += 8)
        assert_int_equal(sim_word(&f, slab1 + off), 0);
    expect_page(&f, va1 + 20 * MiB + 0x5678, pa0 + 14 * MiB + 64 * KiB + 0x5678, 1, 0, 16);

    assert_int_equal(ptm_unmap(&f.pm, va0 + 94 * MiB, 36 * MiB), PTM_OK);
    assert_int_equal(ptm_unmap(&f.pm, lo, hi - lo), PTM_OK);
    expect_invalid(&f, va1 + 20 * MiB);
    fx_done(&f);
}

static void test_rows_of_regions(void **state)
{
    (void)state;
    rows_case(&sim_hw);
    rows_case(&sim_hw_pattern);
}

/* ------------------------------------------------------------ all or nothing */

/* Memory, tables and accounting as they were before a failed command:
 * the only writes allowed are the link words of blocks it reserved and
 * gave back (offset 0 of a block, in free memory). */
struct snapshot {
    uint8_t *mem;
    uint32_t *counts;
    struct ptm_usage u;
    struct vram_stats vs;
};

static void snap_take(struct snapshot *snap, struct fx *f)
{
    snap->mem = malloc(f->sim.bytes);
    assert_non_null(snap->mem);
    memcpy(snap->mem, f->sim.mem, f->sim.bytes);
    snap->counts = malloc(PTM_COUNT_WORDS(f->sim.bytes) * sizeof(uint32_t));
    assert_non_null(snap->counts);
    memcpy(snap->counts, f->sim.counts, PTM_COUNT_WORDS(f->sim.bytes) * sizeof(uint32_t));
    snap->u = usage(f);
    vram_alloc_stats(&f->sim.vram, &snap->vs);
    f->sim.logging = true;
    f->sim.log_n = 0;
}

static void snap_check(struct snapshot *snap, struct fx *f)
{
    struct ptm_usage u = usage(f);
    struct vram_stats vs;

    for (size_t i = 0; i < f->sim.log_n; i++) {
        assert_int_equal(f->sim.log[i] % (4 * KiB), 0);
        memcpy(f->sim.mem + f->sim.log[i], snap->mem + f->sim.log[i], 8);
    }
    assert_memory_equal(snap->mem, f->sim.mem, f->sim.bytes);
    assert_memory_equal(snap->counts, f->sim.counts,
                        PTM_COUNT_WORDS(f->sim.bytes) * sizeof(uint32_t));
    fx_check_valid_counts(f);
    assert_memory_equal(&snap->u, &u, sizeof(u));
    vram_alloc_stats(&f->sim.vram, &vs);
    assert_int_equal(vs.free_bytes, snap->vs.free_bytes);
    assert_int_equal(vs.used_blocks, snap->vs.used_blocks);
    assert_int_equal(vs.largest_free, snap->vs.largest_free);
    f->sim.logging = false;
    free(snap->mem);
    free(snap->counts);
}

static void test_vram_exhausted_changes_nothing(void **state)
{
    struct fx f;
    struct snapshot snap;
    uint64_t va = 0x40000000, pad[10];
    uint32_t inv;

    (void)state;
    /* 64 KB of VRAM: the root, then what the test leaves free. */
    fx_init_levels(&f, 64 * KiB, 4);
    assert_int_equal(ptm_map(&f.pm, va, 0x200000, 2 * MiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(ptm_map(&f.pm, va + 2 * MiB, 0x10000, PAGE, 1, 0, PTM_PAGE_ALL), PTM_OK);
    /* Root, L2, L1 (8K), leaf: 20 KB; take all but 4 KB of the rest. */
    for (unsigned i = 0; i < 10; i++)
        assert_int_equal(vram_alloc_block(&f.sim.vram, 4 * KiB, &pad[i]), VRAM_OK);
    assert_int_equal(sim_free_bytes(&f.sim), 4 * KiB);
    inv = f.sim.invalidations;

    /* A new 1 GB region needs L2... no: a new L1 (8 KB) and a leaf. */
    snap_take(&snap, &f);
    assert_int_equal(ptm_map(&f.pm, va + GiB, 0, PAGE, 1, 0, PTM_PAGE_ALL), PTM_ERR_NO_VRAM);
    snap_check(&snap, &f);
    /* Splitting the 2 MB page needs a leaf table and a slab: 8 KB. */
    snap_take(&snap, &f);
    assert_int_equal(ptm_unmap(&f.pm, va + 0x11000, PAGE), PTM_ERR_NO_VRAM);
    snap_check(&snap, &f);
    snap_take(&snap, &f);
    assert_int_equal(ptm_protect(&f.pm, va + 0x11000, PAGE, PTM_ATTR_READ_ONLY), PTM_ERR_NO_VRAM);
    snap_check(&snap, &f);
    snap_take(&snap, &f);
    assert_int_equal(ptm_copy(&f.pm, va, va + GiB + PAGE, 64 * KiB), PTM_ERR_NO_VRAM);
    snap_check(&snap, &f);
    assert_int_equal(f.sim.invalidations, inv);
    expect_page(&f, va + 0x11000, 0x211000, 1, 0, 21);
    /* Unmapping where nothing is mapped needs no table, even partly. */
    assert_int_equal(ptm_unmap(&f.pm, va + GiB + 0x5000, 0x3000), PTM_OK);
    assert_int_equal(ptm_unmap(&f.pm, va + 2 * MiB + 0x5000, 0x3000), PTM_OK);
    assert_int_equal(ptm_unmap(&f.pm, va + 4 * MiB + 0x5000, 0x3000), PTM_OK);
    assert_int_equal(ptm_protect(&f.pm, va + GiB + 0x5000, 0x3000, 0), PTM_OK);
    fx_check_count(&f);

    /* What fits still works: a 64 KB page needs just a slab (4 KB). */
    assert_int_equal(ptm_map(&f.pm, va + 2 * MiB + 64 * KiB, 0, 64 * KiB, 1, 0, PTM_PAGE_ALL),
                     PTM_OK);
    expect_page(&f, va + 2 * MiB + 64 * KiB, 0, 1, 0, 16);
    assert_int_equal(sim_free_bytes(&f.sim), 0);
    /* Whole-range changes need nothing: unmapping a 2 MB page works. */
    assert_int_equal(ptm_unmap(&f.pm, va, 2 * MiB), PTM_OK);
    expect_invalid(&f, va);
    for (unsigned i = 0; i < 10; i++)
        assert_int_equal(vram_alloc_free_block(&f.sim.vram, pad[i], NULL), VRAM_OK);
    fx_done(&f);
}

/* ------------------------------------------------------------ invalidation */

static void test_double_unmap(void **state)
{
    struct fx f;
    uint64_t va = 0x10000000;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, va, 0x3000, 8 * PAGE, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(ptm_unmap(&f.pm, va + PAGE, 2 * PAGE), PTM_OK);
    f.sim.invalidations = 0;
    f.sim.words_written = 0;
    assert_int_equal(ptm_unmap(&f.pm, va + PAGE, 2 * PAGE), PTM_OK);
    assert_int_equal(f.sim.invalidations, 0);
    assert_int_equal(f.sim.words_written, 0);
    /* Unmapping where nothing ever was touches nothing either. */
    assert_int_equal(ptm_unmap(&f.pm, 0x100000000000ull, 1ull << 40), PTM_OK);
    assert_int_equal(f.sim.invalidations, 0);
    assert_int_equal(f.sim.words_written, 0);
    expect_page(&f, va, 0x3000, 1, 0, 12);
    expect_invalid(&f, va + PAGE);
    expect_page(&f, va + 3 * PAGE, 0x6000, 1, 0, 12);
    fx_done(&f);
}

static void test_runs_and_one_invalidation(void **state)
{
    struct fx f;
    uint64_t va = 0x20000000, pages = 3000;

    (void)state;
    fx_init(&f);
    /* PA off by 4 KB: 4 KB pages only, 3000 leaf entries. */
    assert_int_equal(ptm_map(&f.pm, va, 0x1001000, pages * PAGE, 1, 0, PTM_PAGE_ALL), PTM_OK);
    assert_int_equal(f.sim.invalidations, 1);
    assert_int_equal(f.sim.inv_start, va);
    assert_int_equal(f.sim.inv_end, va + pages * PAGE);
    /* Leaf entries go out 32 at a time; besides them only the zeroing
     * of new tables (256 bytes a run) and a few pointers. */
    assert_true(f.sim.run_calls <= pages / 32 + 1 + usage(&f).table_bytes / 256 + 8);
    assert_true(f.sim.reads < 64);
    for (uint64_t p = 0; p < pages; p++)
        expect_page(&f, va + p * PAGE, 0x1001000 + p * PAGE, 1, 0, 12);
    fx_done(&f);
}

/* A remap over 4 KB entries of which some hold what the command wants
 * already: only the others are written, each stretch of them with its own
 * entries (a run's entries step evenly, so a stretch after unchanged ones
 * starts that many steps further). */
static void test_remap_writes_changed_entries(void **state)
{
    struct fx f;
    uint64_t va = 0x40000000, a = 0x1001000, d = 0x3000000;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, va, a, 32 * PAGE, 1, 0, PTM_PAGE_4K), PTM_OK);
    /* Pages 0-3 and 12-27 elsewhere; 4-11 and 28-31 as the remap wants. */
    assert_int_equal(ptm_map(&f.pm, va, d, 4 * PAGE, 1, 0, PTM_PAGE_4K), PTM_OK);
    assert_int_equal(ptm_map(&f.pm, va + 12 * PAGE, d + 12 * PAGE, 16 * PAGE, 1, 0, PTM_PAGE_4K),
                     PTM_OK);
    expect_page(&f, va + 13 * PAGE, d + 13 * PAGE, 1, 0, 12);
    f.sim.words_written = 0;
    assert_int_equal(ptm_map(&f.pm, va, a, 32 * PAGE, 1, 0, PTM_PAGE_4K), PTM_OK);
    for (uint64_t p = 0; p < 32; p++)
        expect_page(&f, va + p * PAGE, a + p * PAGE, 1, 0, 12);
    assert_int_equal(f.sim.words_written, 20);
    fx_done(&f);
}

/* ptm_hw.direct frames exactly the commands that edit a few entries of a
 * leaf table that is there: their writes and invalidation, and nothing of
 * a command that makes or frees a table. */
static void test_direct_only_for_leaf_edits(void **state)
{
    struct fx f;
    uint64_t va = 0x40000000, pa = 0x2000000;

    (void)state;
    fx_init(&f);
    /* New tables: the general walk, never direct. */
    assert_int_equal(ptm_map(&f.pm, va, pa, PAGE, 1, 0, PTM_PAGE_4K), PTM_OK);
    assert_int_equal(f.sim.direct_calls, 0);
    assert_int_equal(f.sim.direct_writes, 0);
    uint64_t before = f.sim.other_writes;
    /* Beside it, then two more: one entry each, direct, invalidated inside. */
    assert_int_equal(ptm_map(&f.pm, va + PAGE, pa + PAGE, 2 * PAGE, 1, 0, PTM_PAGE_4K), PTM_OK);
    assert_int_equal(f.sim.direct_calls, 1);
    assert_int_equal(f.sim.direct_writes, 2);
    assert_int_equal(f.sim.direct_invalidations, 1);
    assert_false(f.sim.direct_on);
    assert_int_equal(f.sim.other_writes, before);
    expect_page(&f, va + 2 * PAGE + 8, pa + 2 * PAGE + 8, 1, 0, 12);
    /* An unmap leaving the table: direct. */
    assert_int_equal(ptm_unmap(&f.pm, va + PAGE, 2 * PAGE), PTM_OK);
    assert_int_equal(f.sim.direct_calls, 2);
    assert_int_equal(f.sim.direct_writes, 4);
    assert_int_equal(f.sim.direct_invalidations, 2);
    assert_int_equal(f.sim.other_writes, before);
    expect_invalid(&f, va + PAGE);
    expect_page(&f, va, pa, 1, 0, 12);
    /* Unmapping nothing writes nothing and invalidates nothing. */
    assert_int_equal(ptm_unmap(&f.pm, va + PAGE, PAGE), PTM_OK);
    assert_int_equal(f.sim.direct_writes, 4);
    assert_int_equal(f.sim.direct_invalidations, 2);
    /* The last page: the table goes, through the general walk. */
    uint32_t calls = f.sim.direct_calls;
    assert_int_equal(ptm_unmap(&f.pm, va, PAGE), PTM_OK);
    assert_int_equal(f.sim.direct_calls, calls);
    assert_int_equal(f.sim.direct_writes, 4);
    assert_true(f.sim.other_writes > before);
    expect_invalid(&f, va);
    /* Its tables are gone: a page there again makes new ones (the leaf
       edits' cached path to the old table was dropped with them). */
    assert_int_equal(ptm_map(&f.pm, va + PAGE, pa, PAGE, 1, 0, PTM_PAGE_4K), PTM_OK);
    assert_int_equal(f.sim.direct_calls, calls);
    expect_page(&f, va + PAGE, pa, 1, 0, 12);
    assert_int_equal(ptm_map(&f.pm, va, pa + PAGE, PAGE, 1, 0, PTM_PAGE_4K), PTM_OK);
    assert_int_equal(f.sim.direct_calls, calls + 1);
    expect_page(&f, va, pa + PAGE, 1, 0, 12);
    fx_done(&f);
}

static void test_batch_gathers_invalidations(void **state)
{
    struct fx f;
    uint64_t va = 0x40000000;
    struct ptm_usage u;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, va, 0, 4 * MiB, 1, 0, PTM_PAGE_4K), PTM_OK);
    f.sim.invalidations = 0;
    ptm_batch_begin(&f.pm);
    ptm_batch_begin(&f.pm);
    for (unsigned i = 0; i < 10; i++)
        assert_int_equal(ptm_map(&f.pm, va + 64 * MiB + i * 16 * MiB, 0, PAGE, 1, 0, PTM_PAGE_ALL),
                         PTM_OK);
    assert_int_equal(ptm_unmap(&f.pm, va, 4 * MiB), PTM_OK);
    ptm_batch_end(&f.pm);
    assert_int_equal(f.sim.invalidations, 0);
    fx_check_valid_counts(&f);
    /* The emptied leaf tables wait for the invalidation. */
    u = usage(&f);
    assert_int_equal(u.pending_free, 2);
    expect_vram_matches_usage(&f);
    ptm_batch_end(&f.pm);
    assert_int_equal(f.sim.invalidations, 1);
    assert_int_equal(f.sim.inv_start, va);
    assert_int_equal(f.sim.inv_end, va + 64 * MiB + 9 * 16 * MiB + PAGE);
    assert_int_equal(usage(&f).pending_free, 0);
    expect_vram_matches_usage(&f);
    fx_done(&f);
}

/* ------------------------------------------------------------ transitions */

/* During a command every page of the region translates as before or as
 * after, never faults: checked after every single word written. */
struct transition {
    struct fx *f;
    unsigned pages;
    uint64_t va[512]; /* the pages watched */
    struct gmmu_ref_result before[512], after[512];
    unsigned checks;
};

static bool same_result(const struct gmmu_ref_result *a, const struct gmmu_ref_result *b)
{
    return a->fault == b->fault && a->zero == b->zero && a->pa == b->pa &&
           a->segment == b->segment && a->read_only == b->read_only &&
           a->no_execute == b->no_execute && a->cache_coherent == b->cache_coherent;
}

static void capture(struct transition *t, struct gmmu_ref_result *out)
{
    for (unsigned p = 0; p < t->pages; p++)
        out[p] = ref_walk(t->f, t->va[p], GMMU_ACCESS_READ);
}

static void check_transition(struct sim *s)
{
    struct transition *t = s->hook_ctx;

    t->checks++;
    for (unsigned p = 0; p < t->pages; p++) {
        struct gmmu_ref_result now = ref_walk(t->f, t->va[p], GMMU_ACCESS_READ);

        if (!same_result(&now, &t->before[p]) && !same_result(&now, &t->after[p]))
            fail_msg("va 0x%llx: fault %s pa 0x%llx mid-command", (unsigned long long)t->va[p],
                     gmmu_ref_fault_name(now.fault), (unsigned long long)now.pa);
    }
}

typedef enum ptm_status (*command_fn)(struct fx *f, uint64_t va);

static enum ptm_status cmd_punch_4k(struct fx *f, uint64_t va)
{
    return ptm_map(&f->pm, va + 0x45000, 0x7000000, PAGE, 1, 0, PTM_PAGE_ALL);
}

static enum ptm_status cmd_remap_64k(struct fx *f, uint64_t va)
{
    return ptm_map(&f->pm, va + 0x40000, 0x8000000, 64 * KiB, 1, PTM_ATTR_READ_ONLY, PTM_PAGE_ALL);
}

static enum ptm_status cmd_remap_2m(struct fx *f, uint64_t va)
{
    return ptm_map(&f->pm, va, 0x9000000, 2 * MiB, 0, 0, PTM_PAGE_ALL);
}

static enum ptm_status cmd_protect_part(struct fx *f, uint64_t va)
{
    return ptm_protect(&f->pm, va + 0x3000, 0x30000, PTM_ATTR_NO_EXECUTE);
}

static enum ptm_status cmd_zero_part(struct fx *f, uint64_t va)
{
    return ptm_map_zero(&f->pm, va + 0x10000, 0x25000, 0);
}

/* The region before the command: `base` bytes mapped at va (0: none). */
static void build_base(struct fx *f, uint64_t va, uint64_t pa, uint64_t base, unsigned pages_mask)
{
    if (base)
        assert_int_equal(ptm_map(&f->pm, va, pa, base, 1, 0, pages_mask), PTM_OK);
}

static void run_transition(uint64_t pa, uint64_t base, unsigned pages_mask, command_fn first,
                           command_fn cmd)
{
    static struct transition t;
    struct fx f;
    uint64_t va = 0x40000000;

    /* 4 MB of VRAM: a 1 GB base in 4 KB pages needs 2 MB of tables. */
    fx_init_levels(&f, 4 * MiB, 4);
    /* The first 1.5 MB page by page, then every 8 MB of the 1 GB. */
    t = (struct transition){ .f = &f, .pages = 512 };
    for (unsigned p = 0; p < 384; p++)
        t.va[p] = va + p * PAGE;
    for (unsigned p = 384; p < 512; p++)
        t.va[p] = va + (p - 383) * 8 * MiB - PAGE;
    build_base(&f, va, pa, base, pages_mask);
    if (first)
        assert_int_equal(first(&f, va), PTM_OK);
    capture(&t, t.before);
    /* Run once to learn the end state, undo by rebuilding, run checked. */
    assert_int_equal(cmd(&f, va), PTM_OK);
    capture(&t, t.after);
    fx_done(&f);

    fx_init_levels(&f, 4 * MiB, 4);
    t.f = &f;
    build_base(&f, va, pa, base, pages_mask);
    if (first)
        assert_int_equal(first(&f, va), PTM_OK);
    f.sim.on_write = check_transition;
    f.sim.hook_ctx = &t;
    assert_int_equal(cmd(&f, va), PTM_OK);
    f.sim.on_write = NULL;
    assert_true(t.checks > 0 || !memcmp(t.before, t.after, sizeof(t.before)));
    fx_done(&f);
}

static void test_no_transient_faults(void **state)
{
    static const command_fn cmds[] = {
        cmd_punch_4k, cmd_remap_64k, cmd_remap_2m, cmd_protect_part, cmd_zero_part,
    };
    static const unsigned masks[] = { PTM_PAGE_ALL, PTM_PAGE_4K | PTM_PAGE_64K, PTM_PAGE_4K };

    (void)state;
    static const uint64_t bases[] = { 2 * MiB, GiB, 0 };

    for (size_t m = 0; m < 3; m++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
                run_transition(0x40000000, bases[b], masks[m], NULL, cmds[c]);
                run_transition(0x40000000, bases[b], masks[m], cmd_punch_4k, cmds[c]);
            }
}

/* ------------------------------------------------------------ other configs */

static void test_two_and_three_levels(void **state)
{
    struct fx f;

    (void)state;
    fx_init_levels(&f, 1 * MiB, 2);
    assert_int_equal(ptm_map(&f.pm, 0x200000, 0x400000, 4 * MiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    expect_page(&f, 0x300000, 0x500000, 1, 0, 21);
    assert_int_equal(ptm_map(&f.pm, 0x3FFF0000, 0x10000, 64 * KiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    expect_page(&f, 0x3FFF1000, 0x11000, 1, 0, 16);
    assert_int_equal(ptm_unmap(&f.pm, 0x210000, PAGE), PTM_OK);
    expect_invalid(&f, 0x210000);
    expect_page(&f, 0x211000, 0x411000, 1, 0, 12);
    assert_int_equal(ptm_unmap(&f.pm, 0, GiB), PTM_OK);
    assert_int_equal(usage(&f).tables, 1);
    fx_done(&f);

    fx_init_levels(&f, 1 * MiB, 3);
    assert_int_equal(ptm_va_bits(&f.pm), 39);
    assert_int_equal(ptm_map(&f.pm, 511 * GiB, GiB, GiB, 1, 0, PTM_PAGE_ALL), PTM_OK);
    expect_page(&f, 511 * GiB + 5, GiB + 5, 1, 0, 30);
    assert_int_equal(ptm_unmap(&f.pm, 511 * GiB + 64 * KiB, 64 * KiB), PTM_OK);
    expect_invalid(&f, 511 * GiB + 64 * KiB);
    expect_page(&f, 511 * GiB, GiB, 1, 0, 16);
    expect_page(&f, 511 * GiB + 2 * MiB, GiB + 2 * MiB, 1, 0, 21);
    fx_done(&f);
}

static void test_query_agrees_with_ref(void **state)
{
    struct fx f;
    uint64_t va = 0x40000000;

    (void)state;
    fx_init(&f);
    assert_int_equal(ptm_map(&f.pm, va, 0x2000000, GiB, 1, PTM_ATTR_CACHE_COHERENT, PTM_PAGE_ALL),
                     PTM_OK);
    assert_int_equal(ptm_unmap(&f.pm, va + 0x123000, 0x40000), PTM_OK);
    assert_int_equal(ptm_map_zero(&f.pm, va + 0x400000, 0x5000, PTM_ATTR_READ_ONLY), PTM_OK);
    for (uint64_t off = 0; off < 8 * MiB; off += PAGE) {
        struct gmmu_ref_result r = ref_walk(&f, va + off + 0x10, GMMU_ACCESS_READ);
        struct ptm_translation t;

        assert_int_equal(ptm_query(&f.pm, va + off + 0x10, &t), PTM_OK);
        if (r.fault != GMMU_FAULT_NONE) {
            assert_int_equal(t.state, PTM_PAGE_INVALID);
            continue;
        }
        assert_int_equal(t.state, r.zero ? PTM_PAGE_ZERO : PTM_PAGE_MAPPED);
        assert_int_equal(t.pa, r.pa);
        assert_int_equal(t.segment, r.segment);
        assert_int_equal(t.page_shift, r.page_shift);
        assert_int_equal(!!(t.attrs & PTM_ATTR_READ_ONLY), r.read_only);
        assert_int_equal(!!(t.attrs & PTM_ATTR_CACHE_COHERENT), r.cache_coherent);
    }
    fx_done(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_destroy),
        cmocka_unit_test(test_init_without_vram),
        cmocka_unit_test(test_map_4k_walk),
        cmocka_unit_test(test_page_size_choice),
        cmocka_unit_test(test_map_extents),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_unmap_splits_2m_page),
        cmocka_unit_test(test_unmap_splits_1g_page),
        cmocka_unit_test(test_remap_inside_large_page),
        cmocka_unit_test(test_zero_entries),
        cmocka_unit_test(test_protect),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_tables_freed_when_empty),
        cmocka_unit_test(test_64k_tables_share_a_slab),
        cmocka_unit_test(test_rows_of_regions),
        cmocka_unit_test(test_vram_exhausted_changes_nothing),
        cmocka_unit_test(test_double_unmap),
        cmocka_unit_test(test_runs_and_one_invalidation),
        cmocka_unit_test(test_remap_writes_changed_entries),
        cmocka_unit_test(test_direct_only_for_leaf_edits),
        cmocka_unit_test(test_batch_gathers_invalidations),
        cmocka_unit_test(test_no_transient_faults),
        cmocka_unit_test(test_two_and_three_levels),
        cmocka_unit_test(test_query_agrees_with_ref),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
