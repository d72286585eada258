// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of the GPU VA allocator (firmware/lib/va_alloc.c).
 *
 * Expectations are hand-computed addresses, and for the randomized test a
 * page-per-bit model of a small address space, never the allocator's own
 * bookkeeping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "va_alloc.h"

#define KiB  1024ull
#define MiB  (1024ull * KiB)
#define GiB  (1024ull * MiB)
#define PAGE 4096ull
#define TOP  (1ull << 48)

#define NODES 64

struct fixture {
    struct va_space vs;
    struct va_node nodes[NODES];
};

static struct va_space *setup(struct fixture *f, uint64_t base, uint64_t limit)
{
    assert_int_equal(va_alloc_init(&f->vs, f->nodes, NODES, base, limit), PTM_OK);
    return &f->vs;
}

/* ------------------------------------------------------------ init */

static void test_init_checks(void **state)
{
    struct fixture f;

    (void)state;
    assert_int_equal(va_alloc_init(NULL, f.nodes, NODES, 0, TOP), PTM_ERR_INVALID);
    assert_int_equal(va_alloc_init(&f.vs, NULL, NODES, 0, TOP), PTM_ERR_INVALID);
    assert_int_equal(va_alloc_init(&f.vs, f.nodes, 0, 0, TOP), PTM_ERR_INVALID);
    assert_int_equal(va_alloc_init(&f.vs, f.nodes, NODES, 100, TOP), PTM_ERR_ALIGN);
    assert_int_equal(va_alloc_init(&f.vs, f.nodes, NODES, 0, TOP + PAGE), PTM_ERR_RANGE);
    assert_int_equal(va_alloc_init(&f.vs, f.nodes, NODES, 8 * PAGE, 8 * PAGE), PTM_ERR_RANGE);
    /* Base 0 becomes 4 KB; a one-page space at 0 is then empty. */
    assert_int_equal(va_alloc_init(&f.vs, f.nodes, NODES, 0, PAGE), PTM_ERR_RANGE);
    assert_int_equal(va_alloc_init(&f.vs, f.nodes, NODES, 0, TOP), PTM_OK);
}

static void test_null_page_never_handed_out(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 1 * MiB);
    struct va_stats st;
    uint64_t va;

    (void)state;
    assert_int_equal(va_alloc_any(vs, PAGE, PAGE, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, PAGE);
    assert_int_equal(va_alloc_fixed(vs, 0, PAGE, VA_KIND_MAPPED), PTM_ERR_RANGE);
    va_alloc_stats(vs, &st);
    assert_int_equal(st.free_bytes, 1 * MiB - 2 * PAGE);
    assert_int_equal(st.used_bytes, PAGE);
}

/* ------------------------------------------------------------ placement */

static void test_page_align(void **state)
{
    (void)state;
    assert_int_equal(va_alloc_page_align(PAGE), PAGE);
    assert_int_equal(va_alloc_page_align(60 * KiB), PAGE);
    assert_int_equal(va_alloc_page_align(64 * KiB), 64 * KiB);
    assert_int_equal(va_alloc_page_align(2 * MiB - PAGE), 64 * KiB);
    assert_int_equal(va_alloc_page_align(3 * MiB), 2 * MiB);
    assert_int_equal(va_alloc_page_align(1 * GiB), 1 * GiB);
    assert_int_equal(va_alloc_page_align(100 * GiB), 1 * GiB);
}

static void test_auto_alignment_follows_size(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 16 * GiB);
    uint64_t a, b, c, d;

    (void)state;
    assert_int_equal(va_alloc_any(vs, PAGE, 0, 0, 0, 0, VA_KIND_MAPPED, &a), PTM_OK);
    assert_int_equal(a, PAGE);
    assert_int_equal(va_alloc_any(vs, 64 * KiB, 0, 0, 0, 0, VA_KIND_MAPPED, &b), PTM_OK);
    assert_int_equal(b, 64 * KiB);
    assert_int_equal(va_alloc_any(vs, 4 * MiB, 0, 0, 0, 0, VA_KIND_MAPPED, &c), PTM_OK);
    assert_int_equal(c, 2 * MiB);
    assert_int_equal(va_alloc_any(vs, 1 * GiB + PAGE, 0, 0, 0, 0, VA_KIND_MAPPED, &d), PTM_OK);
    assert_int_equal(d, 1 * GiB);
    /* A small one still fills the hole left below the large ones. */
    assert_int_equal(va_alloc_any(vs, 2 * PAGE, 0, 0, 0, 0, VA_KIND_MAPPED, &a), PTM_OK);
    assert_int_equal(a, 2 * PAGE);
}

static void test_explicit_alignment_and_errors(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 16 * GiB);
    uint64_t va;

    (void)state;
    assert_int_equal(va_alloc_any(vs, PAGE, 2 * MiB, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, 2 * MiB);
    assert_int_equal(va_alloc_any(vs, PAGE, 3 * PAGE, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_ERR_ALIGN);
    assert_int_equal(va_alloc_any(vs, PAGE, 2048, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_ERR_ALIGN);
    /* A phase: the lowest free start that is 16 KB modulo 64 KB. */
    assert_int_equal(va_alloc_any(vs, PAGE, 64 * KiB, 16 * KiB, 0, 0, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, 16 * KiB);
    assert_int_equal(va_alloc_any(vs, PAGE, 64 * KiB, 16 * KiB, 0, 0, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, 80 * KiB);
    assert_int_equal(va_alloc_any(vs, PAGE, 64 * KiB, 64 * KiB, 0, 0, VA_KIND_MAPPED, &va),
                     PTM_ERR_ALIGN);
    assert_int_equal(va_alloc_any(vs, PAGE, 64 * KiB, 2048, 0, 0, VA_KIND_MAPPED, &va),
                     PTM_ERR_ALIGN);
    assert_int_equal(va_alloc_any(vs, 100, 0, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_ERR_ALIGN);
    assert_int_equal(va_alloc_any(vs, 0, 0, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_ERR_INVALID);
    assert_int_equal(va_alloc_any(vs, PAGE, 0, 0, 0, 0, (enum va_kind)7, &va), PTM_ERR_INVALID);
    assert_int_equal(va_alloc_any(vs, PAGE, 0, 0, 0, 0, VA_KIND_MAPPED, NULL), PTM_ERR_INVALID);
    assert_int_equal(va_alloc_any(vs, 32 * GiB, 0, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_ERR_RANGE);
}

static void test_min_max_window(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 16 * GiB);
    uint64_t va;

    (void)state;
    assert_int_equal(va_alloc_any(vs, 64 * KiB, 0, 0, 1 * GiB, 2 * GiB, VA_KIND_MAPPED, &va),
                     PTM_OK);
    assert_int_equal(va, 1 * GiB);
    assert_int_equal(va_alloc_any(vs, 64 * KiB, 0, 0, 1 * GiB, 2 * GiB, VA_KIND_MAPPED, &va),
                     PTM_OK);
    assert_int_equal(va, 1 * GiB + 64 * KiB);
    /* The window must hold the whole range, not just its start. */
    assert_int_equal(
        va_alloc_any(vs, 2 * MiB, PAGE, 0, 2 * GiB - MiB, 2 * GiB, VA_KIND_MAPPED, &va),
        PTM_ERR_NO_VA);
    assert_int_equal(va_alloc_any(vs, PAGE, 0, 0, 2 * GiB, 2 * GiB, VA_KIND_MAPPED, &va),
                     PTM_ERR_RANGE);
    assert_int_equal(va_alloc_any(vs, PAGE, 0, 0, 20 * GiB, 0, VA_KIND_MAPPED, &va), PTM_ERR_RANGE);
    assert_int_equal(va_alloc_any(vs, PAGE, 0, 0, 0, 3 * PAGE, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, PAGE);
}

static void test_first_fit_skips_small_gaps(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 1 * GiB);
    uint64_t va;

    (void)state;
    /* Taken: [4K, 8K), [12K, 64K); gap [8K, 12K) holds one page. */
    assert_int_equal(va_alloc_fixed(vs, PAGE, PAGE, VA_KIND_MAPPED), PTM_OK);
    assert_int_equal(va_alloc_fixed(vs, 3 * PAGE, 13 * PAGE, VA_KIND_MAPPED), PTM_OK);
    assert_int_equal(va_alloc_any(vs, 2 * PAGE, PAGE, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, 64 * KiB);
    assert_int_equal(va_alloc_any(vs, PAGE, PAGE, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, 2 * PAGE);
}

static void test_space_full(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 64 * KiB);
    uint64_t va;

    (void)state;
    assert_int_equal(va_alloc_any(vs, 15 * PAGE, PAGE, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, PAGE);
    assert_int_equal(va_alloc_any(vs, PAGE, PAGE, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_ERR_NO_VA);
    assert_int_equal(va_alloc_free(vs, PAGE, 15 * PAGE), PTM_OK);
    assert_int_equal(va_alloc_any(vs, PAGE, PAGE, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_OK);
}

/* ------------------------------------------------------------ fixed, free */

static void test_fixed_overlap(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 1 * GiB);

    (void)state;
    assert_int_equal(va_alloc_fixed(vs, 1 * MiB, 1 * MiB, VA_KIND_MAPPED), PTM_OK);
    assert_int_equal(va_alloc_fixed(vs, 1 * MiB, 1 * MiB, VA_KIND_MAPPED), PTM_ERR_OVERLAP);
    assert_int_equal(va_alloc_fixed(vs, 1 * MiB - PAGE, 2 * PAGE, VA_KIND_MAPPED), PTM_ERR_OVERLAP);
    assert_int_equal(va_alloc_fixed(vs, 2 * MiB - PAGE, 2 * PAGE, VA_KIND_MAPPED), PTM_ERR_OVERLAP);
    assert_int_equal(va_alloc_fixed(vs, 1 * MiB + PAGE, PAGE, VA_KIND_MAPPED), PTM_ERR_OVERLAP);
    assert_int_equal(va_alloc_fixed(vs, 512 * KiB, 4 * MiB, VA_KIND_MAPPED), PTM_ERR_OVERLAP);
    /* Touching is not overlapping. */
    assert_int_equal(va_alloc_fixed(vs, 1 * MiB - PAGE, PAGE, VA_KIND_MAPPED), PTM_OK);
    assert_int_equal(va_alloc_fixed(vs, 2 * MiB, PAGE, VA_KIND_MAPPED), PTM_OK);
}

static void test_fixed_range_and_align(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 1 * GiB, 2 * GiB);

    (void)state;
    assert_int_equal(va_alloc_fixed(vs, 1 * GiB - PAGE, PAGE, VA_KIND_MAPPED), PTM_ERR_RANGE);
    assert_int_equal(va_alloc_fixed(vs, 2 * GiB - PAGE, 2 * PAGE, VA_KIND_MAPPED), PTM_ERR_RANGE);
    assert_int_equal(va_alloc_fixed(vs, 2 * GiB, PAGE, VA_KIND_MAPPED), PTM_ERR_RANGE);
    assert_int_equal(va_alloc_fixed(vs, UINT64_MAX - PAGE + 1, PAGE, VA_KIND_MAPPED),
                     PTM_ERR_RANGE);
    assert_int_equal(va_alloc_fixed(vs, 1 * GiB + 1, PAGE, VA_KIND_MAPPED), PTM_ERR_ALIGN);
    assert_int_equal(va_alloc_fixed(vs, 1 * GiB, PAGE + 1, VA_KIND_MAPPED), PTM_ERR_ALIGN);
    assert_int_equal(va_alloc_fixed(vs, 2 * GiB - PAGE, PAGE, VA_KIND_MAPPED), PTM_OK);
    assert_int_equal(va_alloc_fixed(vs, 1 * GiB, PAGE, VA_KIND_MAPPED), PTM_OK);
}

static void test_free_exact_only(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 1 * GiB);
    struct va_stats st;

    (void)state;
    assert_int_equal(va_alloc_fixed(vs, 1 * MiB, 1 * MiB, VA_KIND_MAPPED), PTM_OK);
    assert_int_equal(va_alloc_fixed(vs, 2 * MiB, 1 * MiB, VA_KIND_MAPPED), PTM_OK);
    assert_int_equal(va_alloc_free(vs, 1 * MiB, PAGE), PTM_ERR_NOT_FOUND);
    assert_int_equal(va_alloc_free(vs, 1 * MiB + PAGE, 1 * MiB - PAGE), PTM_ERR_NOT_FOUND);
    assert_int_equal(va_alloc_free(vs, 1 * MiB, 2 * MiB), PTM_ERR_NOT_FOUND);
    assert_int_equal(va_alloc_free(vs, 8 * MiB, 1 * MiB), PTM_ERR_NOT_FOUND);
    assert_int_equal(va_alloc_free(vs, 1 * MiB, 0), PTM_ERR_INVALID);
    assert_int_equal(va_alloc_free(vs, 1 * MiB, 1 * MiB), PTM_OK);
    /* Double free. */
    assert_int_equal(va_alloc_free(vs, 1 * MiB, 1 * MiB), PTM_ERR_NOT_FOUND);
    va_alloc_stats(vs, &st);
    assert_int_equal(st.ranges, 1);
    assert_int_equal(st.used_bytes, 1 * MiB);
    assert_int_equal(va_alloc_free(vs, 2 * MiB, 1 * MiB), PTM_OK);
    va_alloc_stats(vs, &st);
    assert_int_equal(st.ranges, 0);
    assert_int_equal(st.used_bytes, 0);
}

static void test_reserved_ranges(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 16 * GiB);
    struct va_extent ext;
    uint64_t va;

    (void)state;
    assert_int_equal(va_alloc_any(vs, 8 * MiB, 0, 0, 0, 0, VA_KIND_RESERVED, &va), PTM_OK);
    assert_int_equal(va, 2 * MiB);
    assert_true(va_alloc_find(vs, va + 3 * MiB, &ext));
    assert_int_equal(ext.start, va);
    assert_int_equal(ext.size, 8 * MiB);
    assert_int_equal(ext.kind, VA_KIND_RESERVED);
    /* A reserved range is taken like a mapped one. */
    assert_int_equal(va_alloc_fixed(vs, va + MiB, PAGE, VA_KIND_MAPPED), PTM_ERR_OVERLAP);
    assert_int_equal(va_alloc_fixed(vs, va + 8 * MiB, PAGE, VA_KIND_MAPPED), PTM_OK);
    assert_true(va_alloc_find(vs, va + 8 * MiB, &ext));
    assert_int_equal(ext.kind, VA_KIND_MAPPED);
    assert_false(va_alloc_find(vs, va + 8 * MiB + PAGE, &ext));
    assert_false(va_alloc_find(vs, 0, &ext));
    assert_int_equal(va_alloc_free(vs, va, 8 * MiB), PTM_OK);
    assert_false(va_alloc_find(vs, va, NULL));
}

static void test_node_pool_exhausted(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, 1 * GiB);
    struct va_stats st;
    uint64_t va;

    (void)state;
    /* Spaced out so no two ranges could ever share a node. */
    for (unsigned i = 0; i < NODES; i++)
        assert_int_equal(va_alloc_fixed(vs, (2 * i + 1) * PAGE, PAGE, VA_KIND_MAPPED), PTM_OK);
    assert_int_equal(va_alloc_fixed(vs, 1000 * PAGE, PAGE, VA_KIND_MAPPED), PTM_ERR_NO_NODES);
    assert_int_equal(va_alloc_any(vs, PAGE, 0, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_ERR_NO_NODES);
    va_alloc_stats(vs, &st);
    assert_int_equal(st.ranges, NODES);
    assert_int_equal(st.used_bytes, NODES * PAGE);
    /* Freeing needs no node, and makes room. */
    assert_int_equal(va_alloc_free(vs, 5 * PAGE, PAGE), PTM_OK);
    assert_int_equal(va_alloc_any(vs, PAGE, 0, 0, 0, 0, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, 2 * PAGE);
}

static void test_top_of_48bit_space(void **state)
{
    struct fixture f;
    struct va_space *vs = setup(&f, 0, TOP);
    uint64_t va;

    (void)state;
    assert_int_equal(va_alloc_fixed(vs, TOP - GiB, GiB, VA_KIND_MAPPED), PTM_OK);
    assert_int_equal(va_alloc_any(vs, GiB, 0, 0, TOP - 2 * GiB, 0, VA_KIND_MAPPED, &va), PTM_OK);
    assert_int_equal(va, TOP - 2 * GiB);
    assert_int_equal(va_alloc_any(vs, GiB, 0, 0, TOP - 2 * GiB, 0, VA_KIND_MAPPED, &va),
                     PTM_ERR_NO_VA);
}

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(ptm_status_name(PTM_OK), "OK");
    assert_string_equal(ptm_status_name(PTM_ERR_NO_NODES), "NO_NODES");
    assert_string_equal(ptm_status_name(PTM_ERR_NO_VRAM), "NO_VRAM");
    assert_string_equal(ptm_status_name((enum ptm_status)42), "?");
}

/* ------------------------------------------------------------ random */

/* 1024 pages, one byte each: 0 free, else kind + 1. */
#define MODEL_PAGES 1024u
#define RAND_NODES  48u

struct model {
    uint8_t page[MODEL_PAGES];
    uint64_t start[RAND_NODES * 4];
    uint64_t size[RAND_NODES * 4];
    unsigned n;
};

static uint64_t rnd_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

static bool model_free_run(const struct model *m, uint64_t first, uint64_t pages)
{
    for (uint64_t p = first; p < first + pages; p++)
        if (p >= MODEL_PAGES || m->page[p])
            return false;
    return true;
}

static void model_take(struct model *m, uint64_t first, uint64_t pages, enum va_kind kind)
{
    memset(&m->page[first], kind + 1, pages);
    m->start[m->n] = first;
    m->size[m->n] = pages;
    m->n++;
}

/* Lowest aligned fit the model sees; UINT64_MAX if none. */
/* The lowest free run at phase_pages modulo align_pages; page 0 never. */
static uint64_t model_first_fit(const struct model *m, uint64_t pages, uint64_t align_pages,
                                uint64_t phase_pages)
{
    for (uint64_t p = phase_pages ? phase_pages : align_pages; p + pages <= MODEL_PAGES;
         p += align_pages)
        if (model_free_run(m, p, pages))
            return p;
    return UINT64_MAX;
}

static void test_random_against_model(void **state)
{
    static struct va_node nodes[RAND_NODES];
    struct va_space vs;
    struct model m;

    (void)state;
    memset(&m, 0, sizeof(m));
    assert_int_equal(va_alloc_init(&vs, nodes, RAND_NODES, 0, MODEL_PAGES * PAGE), PTM_OK);
    for (unsigned iter = 0; iter < 200000; iter++) {
        unsigned op = rnd() % 4;
        uint64_t pages = 1 + rnd() % (rnd() % 4 ? 8 : 64);
        enum va_kind kind = rnd() % 3 ? VA_KIND_MAPPED : VA_KIND_RESERVED;

        if (op == 0 && m.n) {
            unsigned i = rnd() % m.n;

            assert_int_equal(va_alloc_free(&vs, m.start[i] * PAGE, m.size[i] * PAGE), PTM_OK);
            memset(&m.page[m.start[i]], 0, m.size[i]);
            m.start[i] = m.start[m.n - 1];
            m.size[i] = m.size[m.n - 1];
            m.n--;
        } else if (op == 1) {
            uint64_t align = 1ull << (rnd() % 4), phase = rnd() % align;
            uint64_t want = model_first_fit(&m, pages, align, phase), va;
            enum ptm_status st =
                va_alloc_any(&vs, pages * PAGE, align * PAGE, phase * PAGE, 0, 0, kind, &va);

            if (want != UINT64_MAX && m.n == RAND_NODES) {
                assert_int_equal(st, PTM_ERR_NO_NODES);
            } else if (want == UINT64_MAX) {
                assert_int_equal(st, PTM_ERR_NO_VA);
            } else {
                assert_int_equal(st, PTM_OK);
                assert_int_equal(va, want * PAGE);
                model_take(&m, want, pages, kind);
            }
        } else if (op == 2) {
            uint64_t first = 1 + rnd() % (MODEL_PAGES - 1);
            enum ptm_status st = va_alloc_fixed(&vs, first * PAGE, pages * PAGE, kind);

            if (first + pages > MODEL_PAGES)
                assert_int_equal(st, PTM_ERR_RANGE);
            else if (!model_free_run(&m, first, pages))
                assert_int_equal(st, PTM_ERR_OVERLAP);
            else if (m.n == RAND_NODES)
                assert_int_equal(st, PTM_ERR_NO_NODES);
            else {
                assert_int_equal(st, PTM_OK);
                model_take(&m, first, pages, kind);
            }
        } else {
            uint64_t p = rnd() % MODEL_PAGES;
            struct va_extent ext;
            bool found = va_alloc_find(&vs, p * PAGE + rnd() % PAGE, &ext);

            assert_int_equal(found, m.page[p] != 0);
            if (found) {
                assert_int_equal(ext.kind + 1, m.page[p]);
                assert_true(ext.start <= p * PAGE && p * PAGE < ext.start + ext.size);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_checks),
        cmocka_unit_test(test_null_page_never_handed_out),
        cmocka_unit_test(test_page_align),
        cmocka_unit_test(test_auto_alignment_follows_size),
        cmocka_unit_test(test_explicit_alignment_and_errors),
        cmocka_unit_test(test_min_max_window),
        cmocka_unit_test(test_first_fit_skips_small_gaps),
        cmocka_unit_test(test_space_full),
        cmocka_unit_test(test_fixed_overlap),
        cmocka_unit_test(test_fixed_range_and_align),
        cmocka_unit_test(test_free_exact_only),
        cmocka_unit_test(test_reserved_ranges),
        cmocka_unit_test(test_node_pool_exhausted),
        cmocka_unit_test(test_top_of_48bit_space),
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_random_against_model),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
