// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of the aperture segment's firmware side (issue 29,
 * docs/aperture.md): the offset allocator (firmware/lib/aperture_alloc.c)
 * against a brute-force model, and vidmm mapping AccessedPhysically
 * system allocations into the aperture, through the mailbox handlers on
 * tests/fuzz/vidmm_sim.c with an aperture table of APT_PAGES entries.
 *
 * Expectations are independent of the code: the lowest free run is found
 * by scanning the model page by page; every table entry is compared with
 * the host page the test gave for that offset; FREE must clear the
 * entries and invalidate after the last clear; a refused request changes
 * neither the table nor the allocations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "aperture_alloc.h"
#include "vidmm_cmds.h"
#include "vidmm_sim.h"
#include "vidmm_fixture.h"

#define KiB  1024ull
#define MiB  (1024ull * KiB)
#define PAGE (4 * KiB)
#define HOST VIDMM_SIM_HOST_BASE
#define APT  GMMU_APERTURE_PHYS_BASE

#define VRAM_BYTES (16 * MiB)
#define HOST_BYTES (16 * MiB)
#define APT_PAGES  64u

#define SYS    GMMU_ALLOC_FLAG_SYSTEM
#define CONTIG GMMU_ALLOC_FLAG_CONTIGUOUS

/* ------------------------------------------------------------ the allocator */

static uint32_t rng = 12345;
static uint32_t below(uint32_t n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

/* The model's first fit: lowest start of n free pages, or -1. */
static int64_t model_fit(const bool *used, uint32_t pages, uint32_t n)
{
    for (uint32_t s = 0; n && s + n <= pages; s++) {
        uint32_t k = 0;

        while (k < n && !used[s + k])
            k++;
        if (k == n)
            return s;
    }
    return -1;
}

/* Random takes and gives over several sizes (across 32-page words and a
   tail word), each compared with the model; every refusal must have no fit
   and change nothing. */
static void test_alloc_model(void **state)
{
    (void)state;
    static const uint32_t sizes[] = { 1, 31, 32, 33, 64, 100, 257 };

    for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
        uint32_t pages = sizes[z];
        uint32_t bits[(257 + 31) / 32];
        bool used[257] = { false };
        uint32_t owned_first[64], owned_n[64], owned = 0, used_count = 0;
        struct aperture_alloc ap;

        memset(bits, 0xA5, sizeof(bits)); /* init must not count on zeros */
        aperture_alloc_init(&ap, bits, pages);
        for (uint32_t step = 0; step < 4000; step++) {
            if (owned && (below(3) == 0 || owned == 64)) {
                uint32_t i = below(owned);

                assert_true(aperture_alloc_give(&ap, owned_first[i], owned_n[i]));
                for (uint32_t p = 0; p < owned_n[i]; p++)
                    used[owned_first[i] + p] = false;
                used_count -= owned_n[i];
                owned_first[i] = owned_first[--owned];
                owned_n[i] = owned_n[owned];
            } else {
                uint32_t n = below(pages < 40 ? pages + 2 : 40);
                int64_t want = model_fit(used, pages, n);
                uint32_t first = 0xDEAD;
                uint32_t before[(257 + 31) / 32];

                memcpy(before, bits, sizeof(before));
                if (want < 0) {
                    assert_false(aperture_alloc_take(&ap, n, &first));
                    assert_int_equal(first, 0xDEAD);
                    assert_memory_equal(before, bits, (pages + 31) / 32 * 4);
                } else {
                    assert_true(aperture_alloc_take(&ap, n, &first));
                    assert_int_equal(first, (uint32_t)want);
                    for (uint32_t p = 0; p < n; p++)
                        used[first + p] = true;
                    used_count += n;
                    owned_first[owned] = first;
                    owned_n[owned++] = n;
                }
            }
            assert_int_equal(ap.used, used_count);
            for (uint32_t p = 0; p < pages; p++)
                assert_int_equal(aperture_alloc_used(&ap, p), used[p]);
        }
    }
}

/* Bad input: n 0, more than the aperture, gives of free or out-of-range
   pages, an aperture of 0 pages. */
static void test_alloc_bad(void **state)
{
    (void)state;
    uint32_t bits[2], first;
    struct aperture_alloc ap;

    aperture_alloc_init(&ap, bits, 40);
    assert_false(aperture_alloc_take(&ap, 0, &first));
    assert_false(aperture_alloc_take(&ap, 41, &first));
    assert_true(aperture_alloc_take(&ap, 40, &first));
    assert_int_equal(first, 0);
    assert_false(aperture_alloc_take(&ap, 1, &first));
    assert_false(aperture_alloc_give(&ap, 39, 2));
    assert_false(aperture_alloc_give(&ap, 40, 1));
    assert_false(aperture_alloc_give(&ap, 0, 0));
    assert_true(aperture_alloc_give(&ap, 10, 5));
    assert_false(aperture_alloc_give(&ap, 12, 1)); /* free already */
    assert_int_equal(ap.used, 35);
    assert_true(aperture_alloc_take(&ap, 5, &first));
    assert_int_equal(first, 10);
    aperture_alloc_init(&ap, bits, 0);
    assert_false(aperture_alloc_take(&ap, 1, &first));
}

/* ------------------------------------------------------------ vidmm */

static int setup(void **state)
{
    (void)state;
    vidmm_sim_init(&sim, VRAM_BYTES, 4, 64);
    vidmm_sim_host(&sim, HOST_BYTES);
    vidmm_sim_aperture(&sim, APT_PAGES);
    return 0;
}

static uint32_t alloc_sys(uint64_t size, uint64_t sys_addr, uint32_t flags,
                          struct gmmu_alloc_rsp *rsp)
{
    struct gmmu_alloc_req req = { .size = size, .flags = flags, .sys_addr = sys_addr };
    struct gmmu_alloc_rsp sink;

    return call(GMMU_OP_ALLOC, &req, sizeof(req), rsp ? rsp : &sink, sizeof(sink));
}

static uint32_t pages_alloc(uint32_t flags, const uint64_t *pages, uint32_t n,
                            struct gmmu_alloc_rsp *rsp)
{
    static uint8_t buf[GMMU_MSG_MAX_BYTES];
    struct gmmu_alloc_pages_req req = { .owner = 7,
                                        .flags = GMMU_ALLOC_PAGES_FLAG_BEGIN |
                                                 GMMU_ALLOC_PAGES_FLAG_COMMIT | flags,
                                        .size = n * PAGE,
                                        .count = n };

    memcpy(buf, &req, sizeof(req));
    memcpy(buf + sizeof(req), pages, 8ull * n);
    return call(GMMU_OP_ALLOC_PAGES, buf, (uint32_t)(sizeof(req) + 8ull * n), rsp, sizeof(*rsp));
}

static uint32_t free_alloc(uint32_t handle)
{
    struct gmmu_handle_req req = { .handle = handle };

    return call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0);
}

/* Entries [first, first + n) map pages[i] each, valid; the rest as given. */
static void expect_entries(uint32_t first, const uint64_t *pages, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(sim.apt_table[first + i], pages[i] | GMMU_APERTURE_ENTRY_VALID);
}

static void expect_clear(uint32_t first, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(sim.apt_table[first + i], 0);
}

struct segments {
    struct gmmu_segments_rsp hdr;
    struct gmmu_segment_desc seg[3];
};

static void expect_aperture_use(uint64_t in_use)
{
    struct segments s;

    assert_int_equal(call(GMMU_OP_GET_SEGMENTS, NULL, 0, &s, sizeof(s)), GMMU_STATUS_OK);
    assert_int_equal(s.hdr.count, 3);
    assert_int_equal(s.seg[2].id, GMMU_SEGMENT_APERTURE);
    assert_int_equal(s.seg[2].kind, GMMU_SEGMENT_KIND_APERTURE);
    assert_int_equal(s.seg[2].flags, 0);
    assert_int_equal(s.seg[2].base, APT);
    assert_int_equal(s.seg[2].size, APT_PAGES * PAGE);
    assert_int_equal(s.seg[2].in_use, in_use);
}

/* ALLOC SYSTEM | CONTIGUOUS: mapped at the lowest free offsets, base its
   physical-mode address, entries its host pages, the translators
   invalidated after the writes; FREE clears them, then invalidates; the
   offsets are reused. A SYSTEM allocation without CONTIGUOUS stays out. */
static void test_alloc_maps(void **state)
{
    (void)state;
    struct gmmu_alloc_rsp a, b, c, plain;
    uint64_t pa[8];

    for (uint32_t i = 0; i < 8; i++)
        pa[i] = HOST + 3 * MiB + i * PAGE;
    assert_int_equal(alloc_sys(3 * PAGE, HOST + 3 * MiB, SYS | CONTIG, &a), GMMU_STATUS_OK);
    assert_int_equal(a.base, APT);
    assert_int_equal(a.size, 3 * PAGE);
    expect_entries(0, pa, 3);
    assert_true(sim.apt_invalidations >= 1);
    assert_true(sim.apt_last_inv_seq > sim.apt_last_write_seq);
    assert_int_equal(alloc_sys(2 * PAGE, HOST + 5 * MiB, SYS, &plain), GMMU_STATUS_OK);
    assert_int_equal(plain.base, HOST + 5 * MiB);
    assert_int_equal(alloc_sys(5 * PAGE, HOST + 3 * MiB + 3 * PAGE, SYS | CONTIG, &b),
                     GMMU_STATUS_OK);
    assert_int_equal(b.base, APT + 3 * PAGE);
    expect_entries(3, pa + 3, 5);
    expect_aperture_use(8 * PAGE);
    expect_clear(8, APT_PAGES - 8);

    uint64_t inv = sim.apt_invalidations;
    assert_int_equal(free_alloc(a.handle), GMMU_STATUS_OK);
    expect_clear(0, 3);
    expect_entries(3, pa + 3, 5);
    assert_int_equal(sim.apt_invalidations, inv + 1);
    assert_true(sim.apt_last_inv_seq > sim.apt_last_write_seq);
    expect_aperture_use(5 * PAGE);
    /* The hole is first fit for what fits it. */
    assert_int_equal(alloc_sys(2 * PAGE, HOST + 7 * MiB, SYS | CONTIG, &c), GMMU_STATUS_OK);
    assert_int_equal(c.base, APT);
    assert_int_equal(free_alloc(b.handle), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(c.handle), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(plain.handle), GMMU_STATUS_OK);
    expect_clear(0, APT_PAGES);
    expect_aperture_use(0);
}

/* ALLOC_PAGES with PHYSICAL: scattered host pages, contiguous in the
   aperture in list order; without the flag, nothing is mapped. */
static void test_pages_map(void **state)
{
    (void)state;
    uint64_t pages[6] = { HOST + 9 * MiB,         HOST + 2 * MiB + PAGE, HOST + 2 * MiB + 2 * PAGE,
                          HOST + 11 * MiB + PAGE, HOST + 4 * PAGE,       HOST + 13 * MiB };
    struct gmmu_alloc_rsp r, plain;

    assert_int_equal(pages_alloc(0, pages, 6, &plain), GMMU_STATUS_OK);
    assert_int_equal(plain.base, pages[0]);
    assert_int_equal(sim.apt_writes, 0);
    assert_int_equal(free_alloc(plain.handle), GMMU_STATUS_OK);
    assert_int_equal(pages_alloc(GMMU_ALLOC_PAGES_FLAG_PHYSICAL, pages, 6, &r), GMMU_STATUS_OK);
    assert_int_equal(r.base, APT);
    expect_entries(0, pages, 6);
    assert_true(vidmm_phys_range_ok(sim.vm, APT, 6 * PAGE));
    assert_true(vidmm_phys_range_ok(sim.vm, APT + 5 * PAGE + 64, PAGE - 64));
    assert_false(vidmm_phys_range_ok(sim.vm, APT + 5 * PAGE + 64, PAGE));
    assert_int_equal(free_alloc(r.handle), GMMU_STATUS_OK);
    expect_clear(0, 6);
    assert_false(vidmm_phys_range_ok(sim.vm, APT, 64));
}

/* No room: NO_MEMORY, and neither the table, the aperture's use nor the
   allocations change; the same with no aperture at all. */
static void test_no_room(void **state)
{
    (void)state;
    struct gmmu_alloc_rsp a, b;
    uint64_t pages[2] = { HOST + 6 * MiB, HOST + PAGE };
    uint64_t table[APT_PAGES], writes;

    assert_int_equal(alloc_sys(60 * PAGE, HOST, SYS | CONTIG, &a), GMMU_STATUS_OK);
    memcpy(table, sim.apt_table, sizeof(table));
    writes = sim.apt_writes;
    uint32_t live = sim.vm->live_allocs;
    assert_int_equal(alloc_sys(5 * PAGE, HOST + 8 * MiB, SYS | CONTIG, &b), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(pages_alloc(GMMU_ALLOC_PAGES_FLAG_PHYSICAL, pages, 2, &b),
                     GMMU_STATUS_OK); /* 2 fit */
    assert_int_equal(free_alloc(b.handle), GMMU_STATUS_OK);
    memcpy(table, sim.apt_table, sizeof(table));
    writes = sim.apt_writes;
    assert_int_equal(alloc_sys(5 * PAGE, HOST + 8 * MiB, SYS | CONTIG, &b), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(sim.apt_writes, writes);
    assert_memory_equal(table, sim.apt_table, sizeof(table));
    assert_int_equal(sim.vm->live_allocs, live);
    expect_aperture_use(60 * PAGE);
    assert_int_equal(free_alloc(a.handle), GMMU_STATUS_OK);

    vidmm_sim_aperture(&sim, 0);
    assert_int_equal(alloc_sys(PAGE, HOST, SYS | CONTIG, &a), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(pages_alloc(GMMU_ALLOC_PAGES_FLAG_PHYSICAL, pages, 2, &b),
                     GMMU_STATUS_NO_MEMORY);
    assert_int_equal(sim.vm->live_allocs, 0);
}

/* The physical-mode rule for aperture ranges: inside one live allocation
   in the aperture only; not across two, not after FREE, not a plain
   SYSTEM allocation, not a VRAM offset that happens to match. */
static void test_phys_rule(void **state)
{
    (void)state;
    struct gmmu_alloc_rsp a, b, plain;

    assert_int_equal(alloc_sys(2 * PAGE, HOST, SYS | CONTIG, &a), GMMU_STATUS_OK);
    assert_int_equal(alloc_sys(2 * PAGE, HOST + MiB, SYS | CONTIG, &b), GMMU_STATUS_OK);
    assert_int_equal(alloc_sys(2 * PAGE, HOST + 2 * MiB, SYS, &plain), GMMU_STATUS_OK);
    assert_true(vidmm_phys_range_ok(sim.vm, a.base, 2 * PAGE));
    assert_true(vidmm_phys_range_ok(sim.vm, b.base + 64, 2 * PAGE - 64));
    assert_true(vidmm_phys_range_ok(sim.vm, b.base + 2 * PAGE, 0));     /* empty, at its end */
    assert_false(vidmm_phys_range_ok(sim.vm, a.base + PAGE, 2 * PAGE)); /* into b */
    assert_false(vidmm_phys_range_ok(sim.vm, b.base + 2 * PAGE, 64));
    assert_false(vidmm_phys_range_ok(sim.vm, a.base - 64, 64));
    assert_false(vidmm_phys_range_ok(sim.vm, 0, 64));
    assert_false(vidmm_phys_range_ok(sim.vm, HOST + 2 * MiB, 64)); /* the plain one's bus address */
    assert_false(vidmm_phys_range_ok(sim.vm, a.base, UINT64_MAX));
    assert_int_equal(free_alloc(a.handle), GMMU_STATUS_OK);
    assert_false(vidmm_phys_range_ok(sim.vm, a.base, 64));
    assert_int_equal(free_alloc(b.handle), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(plain.handle), GMMU_STATUS_OK);
}

/* Bad input: constraints with SYSTEM | CONTIGUOUS, an unaligned host
   buffer; an unknown ALLOC_PAGES flag. Nothing is mapped. */
static void test_bad_input(void **state)
{
    (void)state;
    struct gmmu_alloc_req req = {
        .size = PAGE, .flags = SYS | CONTIG, .sys_addr = HOST, .lowest = PAGE
    };
    struct gmmu_alloc_rsp rsp;
    uint64_t pages[1] = { HOST };

    assert_int_equal(call(GMMU_OP_ALLOC, &req, sizeof(req), &rsp, sizeof(rsp)),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(alloc_sys(PAGE, HOST + 8, SYS | CONTIG, &rsp), GMMU_STATUS_UNALIGNED);
    assert_int_equal(pages_alloc(0x8, pages, 1, &rsp), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(sim.apt_writes, 0);
    expect_aperture_use(0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, vidmm_teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_model),
        cmocka_unit_test(test_alloc_bad),
        T(test_alloc_maps),
        T(test_pages_map),
        T(test_no_room),
        T(test_phys_rule),
        T(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
