// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of ALLOC_PAGES (issue 29): system-memory allocations over a
 * list of host pages, through the mailbox handlers on
 * tests/fuzz/vidmm_sim.c with host memory.
 *
 * Expectations are independent of vidmm: page i of a list must be where
 * the reference walker translates VA + i x 4 KB, in Segment 0; the page
 * sizes the tables use are worked out by hand from the list (a 64 KB or
 * 2 MB page exactly where the list has a run aligned in both VA and PA);
 * every refused list answers its own status with GET_VRAM, the pieces and
 * the staging as before.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "vidmm_cmds.h"
#include "vidmm_sim.h"
#include "vidmm_fixture.h"

#define KiB  1024ull
#define MiB  (1024ull * KiB)
#define PAGE (4 * KiB)
#define HOST VIDMM_SIM_HOST_BASE

#define VRAM_BYTES (16 * MiB)
#define HOST_BYTES (32 * MiB)

#define BEGIN  GMMU_ALLOC_PAGES_FLAG_BEGIN
#define COMMIT GMMU_ALLOC_PAGES_FLAG_COMMIT

#define OWNER_A 0x1111u
#define OWNER_B 0x2222u

static int setup(void **state)
{
    (void)state;
    vidmm_sim_init(&sim, VRAM_BYTES, 4, 64);
    vidmm_sim_host(&sim, HOST_BYTES);
    return 0;
}

/* ------------------------------------------------------------ wire helpers */

/* One ALLOC_PAGES message of n pages. */
static uint32_t pages_msg(uint32_t owner, uint32_t flags, uint64_t size, const uint64_t *pages,
                          uint32_t n, struct gmmu_alloc_rsp *rsp)
{
    static uint8_t buf[GMMU_MSG_MAX_BYTES];
    struct gmmu_alloc_pages_req req = { .owner = owner, .flags = flags, .size = size, .count = n };
    struct gmmu_alloc_rsp sink;

    assert_true(sizeof(req) + 8ull * n <= sizeof(buf));
    memcpy(buf, &req, sizeof(req));
    memcpy(buf + sizeof(req), pages, 8ull * n);
    return call(GMMU_OP_ALLOC_PAGES, buf, (uint32_t)(sizeof(req) + 8ull * n), rsp ? rsp : &sink,
                sizeof(sink));
}

/* A whole list, in messages of at most `per` pages, as libgmmu sends it:
   BEGIN on the first, COMMIT on the last. */
static uint32_t alloc_list(uint32_t owner, uint64_t size, const uint64_t *pages, uint32_t n,
                           uint32_t per, struct gmmu_alloc_rsp *rsp)
{
    uint32_t done = 0, st;

    do {
        uint32_t k = n - done < per ? n - done : per;
        uint32_t flags = (done ? 0 : BEGIN) | (done + k == n ? COMMIT : 0);

        st = pages_msg(owner, flags, size, pages + done, k, rsp);
        done += k;
        if (st != GMMU_STATUS_OK)
            return st;
    } while (done < n);
    return st;
}

static uint32_t free_alloc(uint32_t handle)
{
    struct gmmu_handle_req req = { .handle = handle };

    return call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0);
}

static uint32_t must_as(void)
{
    struct gmmu_as_rsp rsp;

    assert_int_equal(call(GMMU_OP_CREATE_AS, NULL, 0, &rsp, sizeof(rsp)), GMMU_STATUS_OK);
    return rsp.handle;
}

static uint64_t must_map(uint32_t as, uint32_t a, uint64_t size)
{
    struct gmmu_map_req req = { .as_handle = as, .alloc_handle = a, .size = size };
    struct gmmu_va_rsp rsp;

    assert_int_equal(call(GMMU_OP_MAP_VA, &req, sizeof(req), &rsp, sizeof(rsp)), GMMU_STATUS_OK);
    return rsp.va;
}

static struct gmmu_vram_rsp vram(void)
{
    struct gmmu_vram_rsp v;

    assert_int_equal(call(GMMU_OP_GET_VRAM, NULL, 0, &v, sizeof(v)), GMMU_STATUS_OK);
    return v;
}

static struct gmmu_alloc_info info(uint32_t a)
{
    struct gmmu_handle_req req = { .handle = a };
    struct gmmu_alloc_info rsp;

    assert_int_equal(call(GMMU_OP_QUERY_ALLOC, &req, sizeof(req), &rsp, sizeof(rsp)),
                     GMMU_STATUS_OK);
    return rsp;
}

/* Every page of the list translates, from va on, to its own host page. */
static void expect_pages(uint32_t as, uint64_t va, const uint64_t *pages, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct gmmu_ref_result r = walk(as, va + i * PAGE);

        assert_int_equal(r.fault, GMMU_FAULT_NONE);
        assert_int_equal(r.segment, GMMU_SEGMENT_SYSTEM);
        assert_int_equal(r.pa, pages[i]);
    }
}

/* The run [first, first + n) of host pages (page numbers into HOST). */
static uint32_t run(uint64_t *out, uint64_t first, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = HOST + (first + i) * PAGE;
    return n;
}

/* Nothing changed: GET_VRAM, the free pieces and no list staged. */
struct snapshot {
    struct gmmu_vram_rsp v;
    uint32_t free_extents;
};

static struct snapshot snap(void)
{
    return (struct snapshot){ .v = vram(), .free_extents = sim.vm->free_extents };
}

static void expect_unchanged(const struct snapshot *s)
{
    struct gmmu_vram_rsp v = vram();

    assert_memory_equal(&v, &s->v, sizeof(v));
    assert_int_equal(sim.vm->free_extents, s->free_extents);
    assert_false(sim.vm->stage->active);
}

/* ------------------------------------------------------------ tests */

/* Pages in any order: each is mapped where the list puts it, 4 KB pages,
   the runs are the pieces. */
static void test_scattered(void **state)
{
    /* Host page numbers; 12, 13 and 40, 41, 42 follow each other. */
    static const uint64_t idx[] = { 7, 3, 12, 13, 0, 30, 5, 21, 40, 41, 42, 9 };
    enum { N = sizeof(idx) / sizeof(idx[0]) };
    uint64_t pages[N];
    struct gmmu_alloc_rsp rsp;
    struct snapshot before;
    uint32_t as = must_as();
    uint64_t va;

    (void)state;
    for (int i = 0; i < N; i++)
        pages[i] = HOST + idx[i] * PAGE;
    before = snap();
    assert_int_equal(alloc_list(OWNER_A, N * PAGE, pages, N, N, &rsp), GMMU_STATUS_OK);
    assert_int_not_equal(rsp.handle, 0);
    assert_int_equal(rsp.extents, 9);
    assert_int_equal(rsp.size, N * PAGE);
    assert_int_equal(rsp.base, HOST + 7 * PAGE);
    assert_int_equal(info(rsp.handle).state, GMMU_ALLOC_STATE_HOST);
    assert_int_equal(info(rsp.handle).extents, 9);
    assert_int_equal(info(rsp.handle).base, HOST + 7 * PAGE);
    assert_int_equal(sim.vm->free_extents, before.free_extents - 9);
    /* No VRAM taken; one more allocation. */
    assert_int_equal(vram().free_bytes, before.v.free_bytes);
    assert_int_equal(vram().allocations, before.v.allocations + 1);
    va = must_map(as, rsp.handle, N * PAGE);
    expect_pages(as, va, pages, N);
    for (int i = 0; i < N; i++)
        assert_int_equal(walk(as, va + i * PAGE).page_shift, 12);
    /* The page after the list is not mapped. */
    assert_int_not_equal(walk(as, va + N * PAGE).fault, GMMU_FAULT_NONE);
    /* A part of the allocation from an offset. */
    {
        struct gmmu_map_req req = {
            .as_handle = as, .alloc_handle = rsp.handle, .offset = 3 * PAGE, .size = 6 * PAGE
        };
        struct gmmu_va_rsp vr;

        assert_int_equal(call(GMMU_OP_MAP_VA, &req, sizeof(req), &vr, sizeof(vr)), GMMU_STATUS_OK);
        expect_pages(as, vr.va, pages + 3, 6);
    }
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
    assert_int_not_equal(walk(as, va).fault, GMMU_FAULT_NONE);
    assert_int_equal(sim.vm->free_extents, before.free_extents);
}

/*
 * Large pages exactly where the list allows them. The list (host page
 * numbers, 4 KB each):
 *   A: 16 pages at 0x1F0 (64 KB aligned)      offset 0
 *   B: 512 pages at 0x400 (2 MB aligned)      offset 64 KB
 *   D: 1 page at 0x9                           offset 64 KB + 2 MB
 *   C: 16 pages at 0x213 (not 64 KB aligned)   offset 68 KB + 2 MB
 *   E: 16 pages at 0x600 (64 KB aligned)       offset 132 KB + 2 MB
 * MAP_VA puts the VA congruent to A's PA modulo 2 MB (the largest usable
 * page), so VA = 0x1F0000 mod 2 MB: A is one 64 KB page, B one 2 MB page
 * (VA and PA both 2 MB aligned there), D, C (PA 0x3000 mod 64 KB) and E
 * (VA 0x1000 mod 64 KB) all 4 KB pages.
 */
static void test_large_pages(void **state)
{
    static uint64_t pages[561];
    uint32_t n = 0, as = must_as();
    struct gmmu_alloc_rsp rsp;
    uint64_t va;

    (void)state;
    n += run(pages + n, 0x1F0, 16);
    n += run(pages + n, 0x400, 512);
    n += run(pages + n, 0x9, 1);
    n += run(pages + n, 0x213, 16);
    n += run(pages + n, 0x600, 16);
    assert_int_equal(n, 561);
    /* Longer than one message: two, as libgmmu splits it. */
    assert_int_equal(alloc_list(OWNER_A, n * PAGE, pages, n, GMMU_ALLOC_PAGES_MAX, &rsp),
                     GMMU_STATUS_OK);
    assert_int_equal(rsp.extents, 5);
    va = must_map(as, rsp.handle, n * PAGE);
    assert_int_equal(va % (2 * MiB), 0x1F0000);
    expect_pages(as, va, pages, n);
    for (uint32_t i = 0; i < n; i++) {
        unsigned want = i < 16 ? 16 : i < 16 + 512 ? 21 : 12;

        assert_int_equal(walk(as, va + i * PAGE).page_shift, want);
    }
    /* Limited to 4 KB pages, the same pages. */
    {
        struct gmmu_map_req req = {
            .as_handle = as, .alloc_handle = rsp.handle, .size = n * PAGE, .page_sizes = PTM_PAGE_4K
        };
        struct gmmu_va_rsp vr;

        assert_int_equal(call(GMMU_OP_MAP_VA, &req, sizeof(req), &vr, sizeof(vr)), GMMU_STATUS_OK);
        expect_pages(as, vr.va, pages, n);
        for (uint32_t i = 0; i < n; i += 37)
            assert_int_equal(walk(as, vr.va + i * PAGE).page_shift, 12);
    }
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
    assert_int_equal(sim.vm->free_extents, VIDMM_MAX_EXTENTS);
}

/* Pages anywhere below the 52-bit PA: the pieces keep the high bits. */
static void test_high_pages(void **state)
{
    const uint64_t top = (UINT64_C(1) << 52) - PAGE;
    uint64_t pages[] = { top, UINT64_C(0x123456789000), HOST + PAGE, top - PAGE };
    struct gmmu_alloc_rsp rsp;
    uint32_t as = must_as();
    uint64_t va;

    (void)state;
    assert_int_equal(alloc_list(OWNER_A, 4 * PAGE, pages, 4, 4, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.base, top);
    assert_int_equal(rsp.extents, 4);
    va = must_map(as, rsp.handle, 4 * PAGE);
    expect_pages(as, va, pages, 4);
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
}

/* Every bad list answers its status and leaves nothing: no allocation,
   no piece, no staged list. */
static void test_bad_lists(void **state)
{
    static uint64_t many[40];
    uint64_t p[4];
    struct snapshot s;
    struct gmmu_alloc_rsp rsp;

    (void)state;
    s = snap();
    /* Unaligned page. */
    p[0] = HOST;
    p[1] = HOST + 0x1800;
    assert_int_equal(alloc_list(OWNER_A, 2 * PAGE, p, 2, 2, &rsp), GMMU_STATUS_UNALIGNED);
    expect_unchanged(&s);
    /* A page twice, apart and inside a run. */
    p[0] = HOST + 5 * PAGE;
    p[1] = HOST + 9 * PAGE;
    p[2] = HOST + 5 * PAGE;
    assert_int_equal(alloc_list(OWNER_A, 3 * PAGE, p, 3, 3, &rsp), GMMU_STATUS_OVERLAP);
    expect_unchanged(&s);
    run(p, 5, 3);
    p[3] = HOST + 6 * PAGE;
    assert_int_equal(alloc_list(OWNER_A, 4 * PAGE, p, 4, 4, &rsp), GMMU_STATUS_OVERLAP);
    expect_unchanged(&s);
    /* Twice across two messages. */
    p[0] = HOST + 5 * PAGE;
    p[1] = HOST + 7 * PAGE;
    p[2] = HOST + 5 * PAGE;
    assert_int_equal(alloc_list(OWNER_A, 3 * PAGE, p, 3, 2, &rsp), GMMU_STATUS_OVERLAP);
    expect_unchanged(&s);
    /* Beyond the PTE's 52-bit PA. */
    p[0] = HOST;
    p[1] = UINT64_C(1) << 52;
    assert_int_equal(alloc_list(OWNER_A, 2 * PAGE, p, 2, 2, &rsp), GMMU_STATUS_OUT_OF_RANGE);
    expect_unchanged(&s);
    p[1] = UINT64_MAX & ~(PAGE - 1);
    assert_int_equal(alloc_list(OWNER_A, 2 * PAGE, p, 2, 2, &rsp), GMMU_STATUS_OUT_OF_RANGE);
    expect_unchanged(&s);
    /* More pages than the size, fewer at COMMIT. */
    run(p, 0, 3);
    assert_int_equal(alloc_list(OWNER_A, 2 * PAGE, p, 3, 3, &rsp), GMMU_STATUS_OUT_OF_RANGE);
    expect_unchanged(&s);
    assert_int_equal(alloc_list(OWNER_A, 4 * PAGE, p, 3, 3, &rsp), GMMU_STATUS_INVALID_ARGUMENT);
    expect_unchanged(&s);
    assert_int_equal(alloc_list(OWNER_A, 4 * PAGE, p, 3, 2, &rsp), GMMU_STATUS_INVALID_ARGUMENT);
    expect_unchanged(&s);
    /* Size 0, unaligned, flags, reserved. */
    assert_int_equal(pages_msg(OWNER_A, BEGIN | COMMIT, 0, p, 0, &rsp),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(pages_msg(OWNER_A, BEGIN | COMMIT, PAGE + 8, p, 1, &rsp),
                     GMMU_STATUS_UNALIGNED);
    assert_int_equal(pages_msg(OWNER_A, BEGIN | COMMIT | 8, PAGE, p, 1, &rsp),
                     GMMU_STATUS_INVALID_ARGUMENT);
    {
        uint8_t buf[32];
        struct gmmu_alloc_pages_req req = {
            .owner = OWNER_A, .flags = BEGIN | COMMIT, .size = PAGE, .count = 1, .reserved = 1
        };

        memcpy(buf, &req, sizeof(req));
        memcpy(buf + sizeof(req), p, 8);
        assert_int_equal(call(GMMU_OP_ALLOC_PAGES, buf, sizeof(buf), &rsp, sizeof(rsp)),
                         GMMU_STATUS_INVALID_ARGUMENT);
        /* Lengths: header short, count not what follows. */
        assert_int_equal(call(GMMU_OP_ALLOC_PAGES, buf, 16, &rsp, sizeof(rsp)),
                         GMMU_STATUS_MALFORMED_LENGTH);
        assert_int_equal(call(GMMU_OP_ALLOC_PAGES, buf, 28, &rsp, sizeof(rsp)),
                         GMMU_STATUS_MALFORMED_LENGTH);
        assert_int_equal(call(GMMU_OP_ALLOC_PAGES, buf, 24, &rsp, sizeof(rsp)),
                         GMMU_STATUS_MALFORMED_LENGTH);
    }
    expect_unchanged(&s);
    /* Continuing or committing a list nobody began. */
    assert_int_equal(pages_msg(OWNER_A, 0, PAGE, p, 1, &rsp), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(pages_msg(OWNER_A, COMMIT, PAGE, p, 1, &rsp), GMMU_STATUS_BAD_HANDLE);
    expect_unchanged(&s);
    /* The size changing mid-list. */
    assert_int_equal(pages_msg(OWNER_A, BEGIN, 2 * PAGE, p, 1, &rsp), GMMU_STATUS_OK);
    assert_int_equal(pages_msg(OWNER_A, COMMIT, 3 * PAGE, p + 1, 1, &rsp),
                     GMMU_STATUS_INVALID_ARGUMENT);
    expect_unchanged(&s);
    /* A refused message ended the list: it cannot be resumed. */
    assert_int_equal(pages_msg(OWNER_A, COMMIT, 2 * PAGE, p + 1, 1, &rsp), GMMU_STATUS_BAD_HANDLE);
    expect_unchanged(&s);
    /* 32 runs fit, 33 do not (every other page). */
    for (int i = 0; i < 33; i++)
        many[i] = HOST + 2 * (uint64_t)i * PAGE;
    assert_int_equal(alloc_list(OWNER_A, 33 * PAGE, many, 33, 33, &rsp), GMMU_STATUS_NO_MEMORY);
    expect_unchanged(&s);
    assert_int_equal(alloc_list(OWNER_A, 32 * PAGE, many, 32, 32, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.extents, 32);
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
    expect_unchanged(&s);
}

/* A page of the backing pool is the device's: OVERLAP, and the pool
   cannot take a page of a list either. */
static void test_backing_pool(void **state)
{
    struct gmmu_backing_req br = { .sys_addr = HOST + 16 * MiB, .size = MiB };
    uint64_t p[3] = { HOST, HOST + 16 * MiB + 64 * KiB, HOST + 8 * PAGE };
    struct gmmu_alloc_rsp rsp;
    struct snapshot s;

    (void)state;
    assert_int_equal(call(GMMU_OP_ADD_BACKING, &br, sizeof(br), NULL, 0), GMMU_STATUS_OK);
    s = snap();
    assert_int_equal(alloc_list(OWNER_A, 3 * PAGE, p, 3, 3, &rsp), GMMU_STATUS_OVERLAP);
    expect_unchanged(&s);
    p[1] = HOST + 20 * MiB;
    assert_int_equal(alloc_list(OWNER_A, 3 * PAGE, p, 3, 3, &rsp), GMMU_STATUS_OK);
    br = (struct gmmu_backing_req){ .sys_addr = HOST + 20 * MiB, .size = 64 * KiB };
    assert_int_equal(call(GMMU_OP_ADD_BACKING, &br, sizeof(br), NULL, 0), GMMU_STATUS_OVERLAP);
    br.sys_addr = HOST + 21 * MiB;
    assert_int_equal(call(GMMU_OP_ADD_BACKING, &br, sizeof(br), NULL, 0), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
    /* Freed, its pages may be backing. */
    br.sys_addr = HOST + 20 * MiB;
    assert_int_equal(call(GMMU_OP_ADD_BACKING, &br, sizeof(br), NULL, 0), GMMU_STATUS_OK);
}

/* The pieces run out: 8 lists of 32 runs take all 256, a ninth list is
   NO_MEMORY and takes nothing; the lists are staged without any. */
static void test_pieces_run_out(void **state)
{
    static uint64_t p[32];
    uint32_t h[8];
    struct gmmu_alloc_rsp rsp;
    struct snapshot s;

    (void)state;
    for (int k = 0; k < 8; k++) {
        for (int i = 0; i < 32; i++)
            p[i] = HOST + (uint64_t)(k * 64 + 2 * i) * PAGE;
        assert_int_equal(alloc_list(OWNER_A, 32 * PAGE, p, 32, 32, &rsp), GMMU_STATUS_OK);
        h[k] = rsp.handle;
    }
    assert_int_equal(sim.vm->free_extents, 0);
    s = snap();
    run(p, 600, 1);
    assert_int_equal(alloc_list(OWNER_A, PAGE, p, 1, 1, &rsp), GMMU_STATUS_NO_MEMORY);
    expect_unchanged(&s);
    /* Staging needs none. */
    assert_int_equal(pages_msg(OWNER_A, BEGIN, 2 * PAGE, p, 1, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.handle, 0);
    assert_int_equal(rsp.extents, 1);
    assert_int_equal(rsp.size, PAGE);
    assert_int_equal(rsp.base, p[0]);
    for (int k = 0; k < 8; k++)
        assert_int_equal(free_alloc(h[k]), GMMU_STATUS_OK);
    run(p, 601, 1);
    assert_int_equal(pages_msg(OWNER_A, COMMIT, 2 * PAGE, p, 1, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.extents, 1);
    assert_int_equal(rsp.base, HOST + 600 * PAGE);
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
    assert_int_equal(sim.vm->free_extents, VIDMM_MAX_EXTENTS);
}

/*
 * Two hosts: another owner cannot add to or commit the first's list; a
 * host that leaves mid-list leaves nothing (its list holds no resource),
 * and the next host's BEGIN drops it, so the first's late COMMIT fails.
 */
static void test_departed_host(void **state)
{
    static uint64_t p[600], q[4];
    struct gmmu_alloc_rsp rsp;
    struct snapshot s;
    uint32_t as = must_as();
    uint64_t va;

    (void)state;
    s = snap();
    /* 600 pages in 2 runs: the second half, then the first. */
    run(p, 300, 300);
    run(p + 300, 0, 300);
    run(q, 1000, 4);
    assert_int_equal(pages_msg(OWNER_A, BEGIN, 600 * PAGE, p, 300, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.handle, 0);
    assert_int_equal(rsp.size, 300 * PAGE);
    /* B cannot append to or commit A's list, nor does it disturb it. */
    assert_int_equal(pages_msg(OWNER_B, 0, 600 * PAGE, q, 4, &rsp), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(pages_msg(OWNER_B, COMMIT, 600 * PAGE, q, 4, &rsp), GMMU_STATUS_BAD_HANDLE);
    assert_true(sim.vm->stage->active);
    /* A half-sent list holds nothing. */
    {
        struct gmmu_vram_rsp v = vram();

        assert_memory_equal(&v, &s.v, sizeof(v));
        assert_int_equal(sim.vm->free_extents, s.free_extents);
    }
    assert_int_equal(pages_msg(OWNER_A, COMMIT, 600 * PAGE, p + 300, 300, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.extents, 2);
    va = must_map(as, rsp.handle, 600 * PAGE);
    expect_pages(as, va, p, 600);
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
    s.v.paging_fence++; /* the MAP_VA's */
    expect_unchanged(&s);

    /* A leaves after half its list; B's list goes through. */
    assert_int_equal(pages_msg(OWNER_A, BEGIN, 600 * PAGE, p, 300, &rsp), GMMU_STATUS_OK);
    assert_int_equal(alloc_list(OWNER_B, 4 * PAGE, q, 4, 4, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.extents, 1);
    assert_int_equal(pages_msg(OWNER_A, COMMIT, 600 * PAGE, p + 300, 300, NULL),
                     GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(vram().allocations, s.v.allocations + 1);
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
    expect_unchanged(&s);
}

/* Tiles of a page list: UPDATE_VA MAPs them, FREE unmaps them. */
static void test_tiles(void **state)
{
    static uint64_t p[48];
    struct gmmu_alloc_rsp rsp;
    uint32_t as = must_as();
    struct gmmu_reserve_req rr = { .as_handle = as, .size = 256 * KiB };
    struct gmmu_va_rsp vr;
    uint8_t buf[GMMU_UPDATE_REQ_BYTES + GMMU_UPDATE_OP_BYTES];
    struct gmmu_update_req ur = { .as_handle = as, .count = 1 };
    struct gmmu_update_op op = { .op = GMMU_UPDATE_OP_MAP, .size = 64 * KiB, .arg = 64 * KiB };

    (void)state;
    /* 16 pages at 0x800 (64 KB aligned), then 16 scattered, 16 at 0x900. */
    run(p, 0x800, 16);
    for (int i = 0; i < 16; i++)
        p[16 + i] = HOST + (uint64_t)(0x700 + 3 * i) * PAGE;
    run(p + 32, 0x900, 16);
    assert_int_equal(alloc_list(OWNER_A, 48 * PAGE, p, 48, 48, &rsp), GMMU_STATUS_OK);
    assert_int_equal(call(GMMU_OP_RESERVE_VA, &rr, sizeof(rr), &vr, sizeof(vr)), GMMU_STATUS_OK);
    op.va = vr.va + 64 * KiB;
    op.alloc_handle = rsp.handle;
    memcpy(buf, &ur, sizeof(ur));
    memcpy(buf + sizeof(ur), &op, sizeof(op));
    assert_int_equal(call(GMMU_OP_UPDATE_VA, buf, sizeof(buf), NULL, 0), GMMU_STATUS_OK);
    expect_pages(as, op.va, p + 16, 16);
    op.va = vr.va + 128 * KiB;
    op.arg = 0;
    memcpy(buf + sizeof(ur), &op, sizeof(op));
    assert_int_equal(call(GMMU_OP_UPDATE_VA, buf, sizeof(buf), NULL, 0), GMMU_STATUS_OK);
    expect_pages(as, op.va, p, 16);
    assert_int_equal(walk(as, op.va).page_shift, 16);
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
    for (uint64_t off = 0; off < 256 * KiB; off += PAGE)
        assert_int_not_equal(walk(as, vr.va + off).fault, GMMU_FAULT_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_scattered, setup, vidmm_teardown),
        cmocka_unit_test_setup_teardown(test_large_pages, setup, vidmm_teardown),
        cmocka_unit_test_setup_teardown(test_high_pages, setup, vidmm_teardown),
        cmocka_unit_test_setup_teardown(test_bad_lists, setup, vidmm_teardown),
        cmocka_unit_test_setup_teardown(test_backing_pool, setup, vidmm_teardown),
        cmocka_unit_test_setup_teardown(test_pieces_run_out, setup, vidmm_teardown),
        cmocka_unit_test_setup_teardown(test_departed_host, setup, vidmm_teardown),
        cmocka_unit_test_setup_teardown(test_tiles, setup, vidmm_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
