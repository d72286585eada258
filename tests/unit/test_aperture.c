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

/* ------------------------------------------------------------ eviction */

/*
 * A contiguous (AccessedPhysically) VRAM allocation evicted moves into
 * the backing pool and the aperture (docs/vidmm.md, Residency). The
 * expectations are worked out by hand: the pool is one 1 MiB range at
 * HOST + 8 MiB, so the first evicted allocation takes its first 64 KB
 * unit; the aperture's first free run is its offset; the victim is the
 * least recently used allocation with a count of 0.
 */
#define POOL    (HOST + 8 * MiB)
#define POOL2   (HOST + 10 * MiB)
#define C_PAGES 8u

static uint32_t alloc_vram(uint64_t size, uint32_t flags, uint64_t boundary,
                           struct gmmu_alloc_rsp *rsp)
{
    struct gmmu_alloc_req req = { .size = size, .flags = flags, .boundary = boundary };

    return call(GMMU_OP_ALLOC, &req, sizeof(req), rsp, sizeof(*rsp));
}

static uint32_t backing(uint16_t op, uint64_t addr, uint64_t size, uint32_t flags,
                        struct gmmu_backing_remove_rsp *rsp)
{
    struct gmmu_backing_remove_req rm = { .sys_addr = addr, .size = size, .flags = flags };
    struct gmmu_backing_req add = { .sys_addr = addr, .size = size };

    if (op == GMMU_OP_ADD_BACKING)
        return call(op, &add, sizeof(add), NULL, 0);
    return call(op, &rm, sizeof(rm), rsp, sizeof(*rsp));
}

static struct gmmu_alloc_info query(uint32_t handle)
{
    struct gmmu_handle_req req = { .handle = handle };
    struct gmmu_alloc_info info;

    assert_int_equal(call(GMMU_OP_QUERY_ALLOC, &req, sizeof(req), &info, sizeof(info)),
                     GMMU_STATUS_OK);
    assert_int_equal(info.reserved, 0);
    return info;
}

static uint32_t make_resident(uint32_t handle)
{
    uint8_t buf[12];
    struct gmmu_residency_req req = { .count = 1 };
    struct gmmu_residency_rsp rsp;

    memcpy(buf, &req, sizeof(req));
    memcpy(buf + 8, &handle, 4);
    return call(GMMU_OP_MAKE_RESIDENT, buf, sizeof(buf), &rsp, sizeof(rsp));
}

static void expect_where(uint32_t handle, uint32_t state, uint32_t segment, uint64_t base)
{
    struct gmmu_alloc_info info = query(handle);

    assert_int_equal(info.state, state);
    assert_int_equal(info.segment, segment);
    assert_int_equal(info.base, base);
    assert_int_equal(info.extents, 1);
}

/* Tags each page of a C_PAGES allocation at (seg, at): first and last word. */
static void tag_pages(unsigned seg, uint64_t at)
{
    for (uint32_t p = 0; p < C_PAGES; p++) {
        vidmm_sim_poke_seg(&sim, seg, at + p * PAGE, 0xC0DE0000u + p);
        vidmm_sim_poke_seg(&sim, seg, at + p * PAGE + PAGE - 8, 0xE0D00000u + p);
    }
}

static void expect_tags(unsigned seg, uint64_t at)
{
    for (uint32_t p = 0; p < C_PAGES; p++) {
        assert_int_equal(vidmm_sim_peek_seg(&sim, seg, at + p * PAGE), 0xC0DE0000u + p);
        assert_int_equal(vidmm_sim_peek_seg(&sim, seg, at + p * PAGE + PAGE - 8), 0xE0D00000u + p);
    }
}

/* Entries [first, first + C_PAGES) map the pages from `host` on. */
static void expect_run(uint32_t first, uint64_t host)
{
    for (uint32_t i = 0; i < C_PAGES; i++)
        assert_int_equal(sim.apt_table[first + i], (host + i * PAGE) | GMMU_APERTURE_ENTRY_VALID);
}

/* The last aperture operation was an INVALIDATE after the last entry write. */
static void expect_invalidated(void)
{
    assert_true(sim.apt_last_inv_seq > sim.apt_last_write_seq);
}

/* A VRAM-only allocation of all free VRAM but SLACK (room for the page
   tables a move proves it may need, docs/vidmm.md), so that an ALLOC of
   G_BYTES must evict 32 KB. */
#define SLACK   (32 * KiB)
#define G_BYTES (SLACK + C_PAGES * PAGE)

static uint32_t fill_vram(void)
{
    struct gmmu_vram_rsp v;
    struct gmmu_alloc_rsp f;

    assert_int_equal(call(GMMU_OP_GET_VRAM, NULL, 0, &v, sizeof(v)), GMMU_STATUS_OK);
    assert_int_equal(alloc_vram(v.free_bytes - SLACK, 0, 0, &f), GMMU_STATUS_OK);
    return f.handle;
}

/* c, a contiguous allocation of C_PAGES tagged in VRAM, mapped at a VA of
   a new space; then VRAM filled, and the free VRAM a VRAM-only ALLOC of
   C_PAGES needs taken by evicting c. */
static void evict_setup(struct gmmu_alloc_rsp *c, uint32_t *as, uint64_t *va)
{
    struct gmmu_as_rsp asr;
    struct gmmu_va_rsp var;

    assert_int_equal(backing(GMMU_OP_ADD_BACKING, POOL, MiB, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(alloc_vram(C_PAGES * PAGE, CONTIG, 0, c), GMMU_STATUS_OK);
    tag_pages(GMMU_SEGMENT_VRAM, c->base);
    assert_int_equal(call(GMMU_OP_CREATE_AS, NULL, 0, &asr, sizeof(asr)), GMMU_STATUS_OK);
    struct gmmu_map_req map = { .as_handle = asr.handle,
                                .alloc_handle = c->handle,
                                .size = C_PAGES * PAGE };
    assert_int_equal(call(GMMU_OP_MAP_VA, &map, sizeof(map), &var, sizeof(var)), GMMU_STATUS_OK);
    *as = asr.handle;
    *va = var.va;
    fill_vram();
    expect_where(c->handle, GMMU_ALLOC_STATE_VRAM, GMMU_SEGMENT_VRAM, c->base);
}

/* Evicted as a victim: into the pool's first unit and the aperture's
   first free run (after a 3-page allocation), its bytes copied, QUERY_ALLOC
   reporting the aperture address, its VA on the pool pages, the physical
   rule on its aperture range only; MAKE_RESIDENT brings it back into the
   one free block, its entries cleared and invalidated. */
static void test_evict_contig(void **state)
{
    (void)state;
    struct gmmu_alloc_rsp s3, c, g;
    struct gmmu_ref_result r;
    uint32_t as;
    uint64_t va;

    assert_int_equal(alloc_sys(3 * PAGE, HOST + 3 * MiB, SYS | CONTIG, &s3), GMMU_STATUS_OK);
    evict_setup(&c, &as, &va);
    assert_true(vidmm_phys_range_ok(sim.vm, c.base, C_PAGES * PAGE));
    assert_int_equal(alloc_vram(G_BYTES, 0, 0, &g), GMMU_STATUS_OK);
    expect_where(c.handle, GMMU_ALLOC_STATE_BACKING, GMMU_SEGMENT_APERTURE, APT + 3 * PAGE);
    expect_run(3, POOL);
    expect_clear(3 + C_PAGES, APT_PAGES - 3 - C_PAGES); /* not the pool unit's tail */
    expect_invalidated();
    expect_aperture_use((3 + C_PAGES) * PAGE);
    expect_tags(GMMU_SEGMENT_SYSTEM, POOL);
    r = walk(as, va + 5 * PAGE);
    assert_int_equal(r.fault, GMMU_FAULT_NONE);
    assert_int_equal(r.segment, GMMU_SEGMENT_SYSTEM);
    assert_int_equal(r.pa, POOL + 5 * PAGE);
    /* Physical mode: its aperture range, not its old block. */
    assert_false(vidmm_phys_range_ok(sim.vm, c.base, 64));
    assert_true(vidmm_phys_range_ok(sim.vm, APT + 3 * PAGE, C_PAGES * PAGE));
    assert_false(vidmm_phys_range_ok(sim.vm, APT + 3 * PAGE, C_PAGES * PAGE + 64));

    /* Back: G freed, 4 KB of the 64 KB free taken again (so that 4 KB
       pieces, best fit, would not be one run), c comes into VRAM as one
       block. */
    assert_int_equal(free_alloc(g.handle), GMMU_STATUS_OK);
    assert_int_equal(alloc_vram(PAGE, 0, 0, &g), GMMU_STATUS_OK);
    uint64_t inv = sim.apt_invalidations;
    assert_int_equal(make_resident(c.handle), GMMU_STATUS_OK);
    c.base = query(c.handle).base;
    assert_int_equal(c.base % (C_PAGES * PAGE), 0);
    expect_where(c.handle, GMMU_ALLOC_STATE_VRAM, GMMU_SEGMENT_VRAM, c.base);
    expect_clear(3, APT_PAGES - 3);
    expect_entries(
        0, (uint64_t[]){ HOST + 3 * MiB, HOST + 3 * MiB + PAGE, HOST + 3 * MiB + 2 * PAGE }, 3);
    assert_int_equal(sim.apt_invalidations, inv + 1);
    expect_invalidated();
    expect_aperture_use(3 * PAGE);
    expect_tags(GMMU_SEGMENT_VRAM, c.base);
    r = walk(as, va + 5 * PAGE);
    assert_int_equal(r.segment, GMMU_SEGMENT_VRAM);
    assert_int_equal(r.pa, c.base + 5 * PAGE);
    assert_true(vidmm_phys_range_ok(sim.vm, c.base, C_PAGES * PAGE));
    assert_false(vidmm_phys_range_ok(sim.vm, APT + 3 * PAGE, 64));
    assert_int_equal(query(s3.handle).segment, GMMU_SEGMENT_APERTURE);
    assert_int_equal(query(s3.handle).base, APT);
}

/* Passed over as a victim, nothing changed, when it cannot go: no room in
   the aperture, made with a boundary, an engine in physical mode over it,
   the copy failing; then evicted, and FREE clears its entries. */
static void test_evict_contig_refused(void **state)
{
    (void)state;
    struct gmmu_alloc_rsp big, c, b, g;
    uint32_t as;
    uint64_t va, table[APT_PAGES], writes, free_pool;
    struct gmmu_vram_rsp v;

    assert_int_equal(alloc_sys((APT_PAGES - C_PAGES + 1) * PAGE, HOST, SYS | CONTIG, &big),
                     GMMU_STATUS_OK);
    evict_setup(&c, &as, &va);
    memcpy(table, sim.apt_table, sizeof(table));
    writes = sim.apt_writes;
    assert_int_equal(call(GMMU_OP_GET_VRAM, NULL, 0, &v, sizeof(v)), GMMU_STATUS_OK);
    free_pool = v.backing_free;
    assert_int_equal(alloc_vram(G_BYTES, 0, 0, &g), GMMU_STATUS_NO_MEMORY);
    expect_where(c.handle, GMMU_ALLOC_STATE_VRAM, GMMU_SEGMENT_VRAM, c.base);
    assert_int_equal(sim.apt_writes, writes);
    assert_memory_equal(table, sim.apt_table, sizeof(table));
    assert_int_equal(call(GMMU_OP_GET_VRAM, NULL, 0, &v, sizeof(v)), GMMU_STATUS_OK);
    assert_int_equal(v.backing_free, free_pool);
    expect_aperture_use((APT_PAGES - C_PAGES + 1) * PAGE);
    assert_int_equal(free_alloc(big.handle), GMMU_STATUS_OK);

    /* An engine in physical mode over its last page. */
    sim.phys_lo = c.base + (C_PAGES - 1) * PAGE;
    sim.phys_hi = c.base + C_PAGES * PAGE;
    assert_int_equal(alloc_vram(G_BYTES, 0, 0, &g), GMMU_STATUS_NO_MEMORY);
    expect_where(c.handle, GMMU_ALLOC_STATE_VRAM, GMMU_SEGMENT_VRAM, c.base);
    sim.phys_lo = sim.phys_hi = 0;
    writes = sim.apt_writes;

    /* The copy into the pool fails (the host's memory went): refused,
       its aperture pages given back. */
    sim.gone_lo = POOL;
    sim.gone_hi = POOL + MiB;
    assert_int_equal(alloc_vram(G_BYTES, 0, 0, &g), GMMU_STATUS_NO_MEMORY);
    expect_where(c.handle, GMMU_ALLOC_STATE_VRAM, GMMU_SEGMENT_VRAM, c.base);
    expect_aperture_use(0);
    assert_int_equal(sim.apt_writes, writes);
    sim.gone_lo = sim.gone_hi = 0;

    /* Now it goes, into aperture page 0; FREE clears its entries. */
    assert_int_equal(alloc_vram(G_BYTES, 0, 0, &g), GMMU_STATUS_OK);
    expect_where(c.handle, GMMU_ALLOC_STATE_BACKING, GMMU_SEGMENT_APERTURE, APT);
    expect_run(0, POOL);
    /* An engine in physical mode over its aperture range: MAKE_RESIDENT
       raises the count and leaves it there. */
    assert_int_equal(free_alloc(g.handle), GMMU_STATUS_OK);
    sim.phys_lo = APT;
    sim.phys_hi = APT + 64;
    assert_int_equal(make_resident(c.handle), GMMU_STATUS_OK);
    expect_where(c.handle, GMMU_ALLOC_STATE_BACKING, GMMU_SEGMENT_APERTURE, APT);
    assert_int_equal(query(c.handle).residency, 1);
    assert_int_equal(free_alloc(c.handle), GMMU_STATUS_BUSY);
    sim.phys_lo = sim.phys_hi = 0;
    assert_int_equal(free_alloc(c.handle), GMMU_STATUS_OK);
    expect_clear(0, APT_PAGES);
    expect_invalidated();
    expect_aperture_use(0);

    /* Made with a boundary: never a victim (the constraint is not kept). */
    assert_int_equal(alloc_vram(C_PAGES * PAGE, CONTIG, 2 * MiB, &b), GMMU_STATUS_OK);
    assert_int_equal(query(b.handle).flags, CONTIG); /* nothing internal shows */
    assert_int_equal(alloc_vram(G_BYTES, 0, 0, &g), GMMU_STATUS_NO_MEMORY);
    expect_where(b.handle, GMMU_ALLOC_STATE_VRAM, GMMU_SEGMENT_VRAM, b.base);
}

/* REMOVE_BACKING of its range: with no other range, into VRAM (out of
   the aperture); with one, into it at the same aperture offset, the
   entries on the new pages; a range that became unreachable frees it,
   its entries cleared. */
static void test_evict_contig_backing(void **state)
{
    (void)state;
    struct gmmu_alloc_rsp c, g;
    struct gmmu_backing_remove_rsp rm;
    uint32_t as;
    uint64_t va, inv;

    evict_setup(&c, &as, &va);
    assert_int_equal(alloc_vram(G_BYTES, 0, 0, &g), GMMU_STATUS_OK);
    expect_where(c.handle, GMMU_ALLOC_STATE_BACKING, GMMU_SEGMENT_APERTURE, APT);
    expect_run(0, POOL);
    /* The probe of the range needs a spare 4 KB of VRAM. */
    assert_int_equal(free_alloc(g.handle), GMMU_STATUS_OK);
    inv = sim.apt_invalidations;
    assert_int_equal(backing(GMMU_OP_REMOVE_BACKING, POOL, MiB, 0, &rm), GMMU_STATUS_OK);
    assert_int_equal(rm.moved, 1);
    c.base = query(c.handle).base;
    expect_where(c.handle, GMMU_ALLOC_STATE_VRAM, GMMU_SEGMENT_VRAM, c.base);
    assert_true(c.base < VRAM_BYTES);
    expect_clear(0, APT_PAGES);
    assert_int_equal(sim.apt_invalidations, inv + 1);
    expect_invalidated();
    expect_tags(GMMU_SEGMENT_VRAM, c.base);

    /* Evicted again into POOL2 (the only range), then POOL added after it:
       removing POOL2 moves c to POOL's first unit, same aperture page. */
    assert_int_equal(backing(GMMU_OP_ADD_BACKING, POOL2, MiB, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(alloc_vram(G_BYTES, 0, 0, &g), GMMU_STATUS_OK);
    expect_where(c.handle, GMMU_ALLOC_STATE_BACKING, GMMU_SEGMENT_APERTURE, APT);
    expect_run(0, POOL2);
    assert_int_equal(backing(GMMU_OP_ADD_BACKING, POOL, MiB, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(g.handle), GMMU_STATUS_OK);
    inv = sim.apt_invalidations;
    assert_int_equal(backing(GMMU_OP_REMOVE_BACKING, POOL2, MiB, 0, &rm), GMMU_STATUS_OK);
    assert_int_equal(rm.moved, 1);
    expect_where(c.handle, GMMU_ALLOC_STATE_BACKING, GMMU_SEGMENT_APERTURE, APT);
    expect_run(0, POOL);
    expect_clear(C_PAGES, APT_PAGES - C_PAGES);
    assert_int_equal(sim.apt_invalidations, inv + 1);
    expect_invalidated();
    expect_tags(GMMU_SEGMENT_SYSTEM, POOL);
    assert_int_equal(walk(as, va).pa, POOL);

    sim.gone_lo = POOL;
    sim.gone_hi = POOL + MiB;
    assert_int_equal(
        backing(GMMU_OP_REMOVE_BACKING, 0, 0, GMMU_REMOVE_BACKING_FLAG_UNREACHABLE, &rm),
        GMMU_STATUS_OK);
    assert_int_equal(rm.freed, 1);
    expect_clear(0, APT_PAGES);
    expect_invalidated();
    expect_aperture_use(0);
    assert_false(vidmm_phys_range_ok(sim.vm, APT, 64));
    sim.gone_lo = sim.gone_hi = 0;
}

/* Without an aperture a contiguous allocation is no victim: GET_VRAM does
   not count it evictable, and an ALLOC that needs its room is NO_MEMORY
   (the other allocation, the filler, does not fit the pool). */
static void test_evict_contig_no_aperture(void **state)
{
    (void)state;
    struct gmmu_alloc_rsp c, g;
    struct gmmu_vram_rsp v;
    uint32_t as;
    uint64_t va;

    vidmm_sim_aperture(&sim, 0);
    evict_setup(&c, &as, &va);
    assert_int_equal(call(GMMU_OP_GET_VRAM, NULL, 0, &v, sizeof(v)), GMMU_STATUS_OK);
    assert_int_equal(v.evictable_bytes, v.resident_bytes - C_PAGES * PAGE);
    assert_int_equal(alloc_vram(G_BYTES, 0, 0, &g), GMMU_STATUS_NO_MEMORY);
    expect_where(c.handle, GMMU_ALLOC_STATE_VRAM, GMMU_SEGMENT_VRAM, c.base);
    assert_int_equal(sim.vm->counters.moves_out, 0);
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
        T(test_evict_contig),
        T(test_evict_contig_refused),
        T(test_evict_contig_backing),
        T(test_evict_contig_no_aperture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
