// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of residency in the VidMm command layer (issue 28): ALLOC
 * placements, over-commit into the backing pool, MAKE_RESIDENT, EVICT,
 * QUERY_ALLOC and moving allocations with their VAs unchanged, through the
 * mailbox handlers on tests/fuzz/vidmm_sim.c with host memory.
 *
 * Expectations are independent of vidmm: every 4 KB page of an allocation
 * is tagged, through its VA, with a value of its own (written where the
 * reference walker translates the VA); after any move the same VA must
 * translate, by the walker, to memory holding the same tag, in the segment
 * the test expects. Pool addresses and victims are computed by hand from
 * the rules in docs/vidmm.md (first fit in the pool, 64 KB units; least
 * recently used victim with a residency count of 0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "vidmm_cmds.h"
#include "vidmm_sim.h"
#include "vidmm_fixture.h"

#define KiB  1024ull
#define MiB  (1024ull * KiB)
#define PAGE (4 * KiB)
#define TILE (64 * KiB)
#define HOST VIDMM_SIM_HOST_BASE

#define VRAM_BYTES (16 * MiB)
#define POOL_BYTES (32 * MiB)

#define PREF GMMU_ALLOC_FLAG_VRAM_PREFERRED
#define SYSO GMMU_ALLOC_FLAG_SYSTEM_ONLY

static int setup(void **state)
{
    (void)state;
    vidmm_sim_init(&sim, VRAM_BYTES, 4, 64);
    vidmm_sim_host(&sim, POOL_BYTES);
    return 0;
}

/* ------------------------------------------------------------ wire helpers */

static uint32_t alloc(uint64_t size, uint32_t flags, uint32_t *handle)
{
    struct gmmu_alloc_req req = { .size = size, .flags = flags };
    struct gmmu_alloc_rsp rsp;
    uint32_t st = call(GMMU_OP_ALLOC, &req, sizeof(req), &rsp, sizeof(rsp));

    if (st == GMMU_STATUS_OK)
        *handle = rsp.handle;
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

static uint64_t must_map(uint32_t as, uint32_t a, uint64_t offset, uint64_t size, uint32_t flags)
{
    struct gmmu_map_req req = {
        .as_handle = as, .alloc_handle = a, .offset = offset, .size = size, .flags = flags
    };
    struct gmmu_va_rsp rsp;

    assert_int_equal(call(GMMU_OP_MAP_VA, &req, sizeof(req), &rsp, sizeof(rsp)), GMMU_STATUS_OK);
    return rsp.va;
}

static uint32_t add_backing(uint64_t addr, uint64_t size)
{
    struct gmmu_backing_req req = { .sys_addr = addr, .size = size };

    return call(GMMU_OP_ADD_BACKING, &req, sizeof(req), NULL, 0);
}

static uint32_t remove_backing(uint64_t addr, uint64_t size, uint32_t flags,
                               struct gmmu_backing_remove_rsp *rsp)
{
    struct gmmu_backing_remove_req req = { .sys_addr = addr, .size = size, .flags = flags };
    struct gmmu_backing_remove_rsp out = { 0 };
    uint32_t st = call(GMMU_OP_REMOVE_BACKING, &req, sizeof(req), &out, sizeof(out));

    if (rsp)
        *rsp = out;
    return st;
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

/* The residency counts of a and b are ca and cb. */
static void expect_counts(uint32_t a, uint16_t ca, uint32_t b, uint16_t cb)
{
    assert_int_equal(info(a).residency, ca);
    assert_int_equal(info(b).residency, cb);
}

/* MAKE_RESIDENT (make) or EVICT of n handles. */
static uint32_t residency(bool make, const uint32_t *h, uint32_t n, uint64_t *fence)
{
    uint8_t buf[8 + 4 * 300];
    struct gmmu_residency_req req = { .count = n };
    struct gmmu_residency_rsp rsp = { 0 };
    uint32_t st;

    memcpy(buf, &req, sizeof(req));
    memcpy(buf + 8, h, 4 * n);
    st = make ? call(GMMU_OP_MAKE_RESIDENT, buf, 8 + 4 * n, &rsp, sizeof(rsp))
              : call(GMMU_OP_EVICT, buf, 8 + 4 * n, NULL, 0);
    if (fence)
        *fence = rsp.fence;
    return st;
}

static uint32_t make_resident1(uint32_t a)
{
    return residency(true, &a, 1, NULL);
}

static uint32_t evict1(uint32_t a)
{
    return residency(false, &a, 1, NULL);
}

/* ------------------------------------------------------------ the byte model */

static uint64_t tag(uint32_t a, uint64_t page)
{
    return (uint64_t)a << 24 | page;
}

/* Writes each page's tag through the VA (the page must translate). */
static void tag_pages(uint32_t as, uint64_t va, uint32_t a, uint64_t first_page, uint64_t pages)
{
    for (uint64_t p = 0; p < pages; p++) {
        struct gmmu_ref_result r = walk(as, va + p * PAGE);

        assert_int_equal(r.fault, GMMU_FAULT_NONE);
        vidmm_sim_poke_seg(&sim, r.segment, r.pa, tag(a, first_page + p));
    }
}

/* Every page of [va, va + pages * 4 KB) translates into `segment` and holds
   its tag. */
static void check_pages(uint32_t as, uint64_t va, uint32_t a, uint64_t first_page, uint64_t pages,
                        unsigned segment)
{
    for (uint64_t p = 0; p < pages; p++) {
        struct gmmu_ref_result r = walk(as, va + p * PAGE);

        assert_int_equal(r.fault, GMMU_FAULT_NONE);
        assert_int_equal(r.segment, segment);
        assert_int_equal(vidmm_sim_peek_seg(&sim, r.segment, r.pa), tag(a, first_page + p));
    }
}

static void check_faults(uint32_t as, uint64_t va, uint64_t pages)
{
    for (uint64_t p = 0; p < pages; p++)
        assert_int_equal(walk(as, va + p * PAGE).fault, GMMU_FAULT_INVALID);
}

/* ------------------------------------------------------------ placement */

static void test_placement_flags(void **state)
{
    static const uint32_t bad[] = {
        PREF | SYSO,
        GMMU_ALLOC_FLAG_SYSTEM | PREF,
        GMMU_ALLOC_FLAG_CONTIGUOUS | SYSO,
        GMMU_ALLOC_FLAG_CONTIGUOUS | PREF,
    };
    uint32_t a;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct gmmu_alloc_req req = { .size = 64 * KiB, .flags = bad[i] };
        struct gmmu_alloc_rsp rsp;

        if (bad[i] & GMMU_ALLOC_FLAG_SYSTEM)
            req.sys_addr = HOST;
        assert_int_equal(call(GMMU_OP_ALLOC, &req, sizeof(req), &rsp, sizeof(rsp)),
                         GMMU_STATUS_INVALID_ARGUMENT);
    }
    /* No pool: system only has nowhere to go. */
    assert_int_equal(alloc(64 * KiB, SYSO, &a), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(vram().allocations, 0);
}

/* System only lands in the pool first fit, in 64 KB units; VRAM preferred
 * takes VRAM while there is room, then the pool; the VA reaches it there. */
static void test_placement_pool(void **state)
{
    uint32_t s1, s2, s3, p1, p2, as = must_as();
    struct gmmu_vram_rsp v0;

    (void)state;
    /* Two ranges: 1 MiB, then 31 MiB after a hole. */
    assert_int_equal(add_backing(HOST, MiB), GMMU_STATUS_OK);
    assert_int_equal(add_backing(HOST + 2 * MiB, 30 * MiB), GMMU_STATUS_OK);
    v0 = vram();
    assert_int_equal(v0.backing_free, 31 * MiB);

    assert_int_equal(alloc(512 * KiB, SYSO, &s1), GMMU_STATUS_OK);
    assert_int_equal(info(s1).state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(info(s1).base, HOST);
    assert_int_equal(alloc(100 * KiB, SYSO, &s2), GMMU_STATUS_OK); /* 128 KB of pool */
    assert_int_equal(info(s2).base, HOST + 512 * KiB);
    assert_int_equal(vram().backing_free, 31 * MiB - 640 * KiB);
    /* 512 KB: 384 KB left in the first range, the rest in the second. */
    assert_int_equal(alloc(512 * KiB, SYSO, &s3), GMMU_STATUS_OK);
    assert_int_equal(info(s3).base, HOST + 640 * KiB);
    assert_int_equal(info(s3).extents, 2);
    assert_int_equal(vram().free_bytes, v0.free_bytes); /* no VRAM taken */

    /* Mapped, it translates to the pool (Segment 0) piece by piece. */
    uint64_t va = must_map(as, s3, 0, 512 * KiB, 0);
    struct gmmu_ref_result r = walk(as, va);
    assert_int_equal(r.segment, GMMU_SEGMENT_SYSTEM);
    assert_int_equal(r.pa, HOST + 640 * KiB);
    r = walk(as, va + 384 * KiB);
    assert_int_equal(r.pa, HOST + 2 * MiB);
    tag_pages(as, va, s3, 0, 128);
    check_pages(as, va, s3, 0, 128, GMMU_SEGMENT_SYSTEM);

    /* FREE gives the pool back; the gap is found again. */
    assert_int_equal(free_alloc(s1), GMMU_STATUS_OK);
    assert_int_equal(alloc(64 * KiB, SYSO, &s1), GMMU_STATUS_OK);
    assert_int_equal(info(s1).base, HOST);

    /* VRAM preferred: VRAM while it fits, then the pool. */
    assert_int_equal(alloc(8 * MiB, PREF, &p1), GMMU_STATUS_OK);
    assert_int_equal(info(p1).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(alloc(8 * MiB, PREF, &p2), GMMU_STATUS_OK);
    assert_int_equal(info(p2).state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(vram().resident_bytes, 8 * MiB);
    assert_int_equal(vram().evictable_bytes, 8 * MiB);
    /* Beyond VRAM plus the pool: NO_MEMORY, nothing taken. */
    struct gmmu_vram_rsp before = vram();
    assert_int_equal(alloc(32 * MiB, PREF, &s2), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(alloc(32 * MiB, SYSO, &s2), GMMU_STATUS_NO_MEMORY);
    struct gmmu_vram_rsp after = vram();
    assert_memory_equal(&before, &after, sizeof(before));

    /* FREE in every state; accounting back to the start. */
    uint32_t all[] = { s1, s2, s3, p1, p2 };
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(free_alloc(all[i]), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, 31 * MiB);
    assert_int_equal(vram().resident_bytes, 0);
}

/* ------------------------------------------------------------ over-commit */

/* A VRAM-only ALLOC beyond free VRAM evicts the least recently used
 * allocation nobody holds resident; its VA then reaches its bytes in the
 * pool (VRAM preferred) or faults (VRAM only, until MAKE_RESIDENT). */
static void test_alloc_evicts_lru(void **state)
{
    uint32_t a, b, c, d, as1 = must_as(), as2 = must_as();
    uint64_t va_a, va_b, va_b2, va_c;

    (void)state;
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    assert_int_equal(alloc(4 * MiB, PREF, &a), GMMU_STATUS_OK);
    assert_int_equal(alloc(4 * MiB, 0, &b), GMMU_STATUS_OK);
    assert_int_equal(alloc(4 * MiB, PREF, &c), GMMU_STATUS_OK);
    va_a = must_map(as1, a, 0, 4 * MiB, 0);
    va_b = must_map(as1, b, 0, 4 * MiB, GMMU_MAP_FLAG_READ_ONLY);
    va_b2 = must_map(as2, b, MiB, 2 * MiB, 0);
    va_c = must_map(as2, c, 0, 4 * MiB, 0);
    tag_pages(as1, va_a, a, 0, 1024);
    tag_pages(as1, va_b, b, 0, 1024);
    tag_pages(as2, va_c, c, 0, 1024);
    /* c is held resident: never a victim. */
    assert_int_equal(make_resident1(c), GMMU_STATUS_OK);
    assert_int_equal(info(c).residency, 1);

    /* 8 MiB more: a (least recently used) then b go out. */
    assert_int_equal(alloc(8 * MiB, 0, &d), GMMU_STATUS_OK);
    assert_int_equal(info(d).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(info(a).state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(info(b).state, GMMU_ALLOC_STATE_OFFLINE);
    assert_int_equal(info(c).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(info(a).base, HOST); /* the pool's first fit */
    assert_int_equal(info(b).base, HOST + 4 * MiB);
    assert_int_equal(sim.vm->counters.moves_out, 2);
    assert_int_equal(sim.copy_bytes, 8 * MiB);
    /* Same VAs: a reaches its bytes in the pool, b faults everywhere. */
    check_pages(as1, va_a, a, 0, 1024, GMMU_SEGMENT_SYSTEM);
    check_faults(as1, va_b, 1024);
    check_faults(as2, va_b2, 512);
    check_pages(as2, va_c, c, 0, 1024, GMMU_SEGMENT_VRAM);
    assert_int_equal(vram().backing_free, POOL_BYTES - 8 * MiB);

    /* Everything is held or too small now: NO_MEMORY, nothing changed. */
    assert_int_equal(make_resident1(d), GMMU_STATUS_OK);
    struct gmmu_vram_rsp before = vram();
    uint32_t e;
    assert_int_equal(alloc(4 * MiB, 0, &e), GMMU_STATUS_NO_MEMORY);
    struct gmmu_vram_rsp after = vram();
    assert_memory_equal(&before, &after, sizeof(before));

    /* MAKE_RESIDENT of b: room is made by... nothing (c, d held): refused,
       nothing moved and counts unchanged. */
    assert_int_equal(make_resident1(b), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(info(b).residency, 0);
    assert_int_equal(info(b).state, GMMU_ALLOC_STATE_OFFLINE);
    /* Release d: now b comes back, d going out (its count is 0). */
    assert_int_equal(evict1(d), GMMU_STATUS_OK);
    uint64_t fence = 0;
    assert_int_equal(residency(true, &b, 1, &fence), GMMU_STATUS_OK);
    assert_true(fence > 0 && vram().paging_fence == fence);
    assert_int_equal(info(b).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(info(d).state, GMMU_ALLOC_STATE_OFFLINE);
    check_pages(as1, va_b, b, 0, 1024, GMMU_SEGMENT_VRAM);
    check_pages(as2, va_b2, b, 256, 512, GMMU_SEGMENT_VRAM);
    assert_true(walk(as1, va_b).read_only); /* attributes kept */
    assert_false(walk(as2, va_b2).read_only);

    /* a comes back too (VRAM preferred, count 0 victims: none but...). */
    assert_int_equal(make_resident1(a), GMMU_STATUS_OK);
    assert_int_equal(info(a).residency, 1);

    /* FREE in every state, then the accounting is back at the start. */
    assert_int_equal(free_alloc(a), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(b), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(c), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(d), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, POOL_BYTES);
    assert_int_equal(vram().resident_bytes, 0);
}

/* ------------------------------------------------------------ MAKE_RESIDENT / EVICT */

static void test_residency_counts(void **state)
{
    uint32_t a, b, h[4];

    (void)state;
    assert_int_equal(alloc(64 * KiB, 0, &a), GMMU_STATUS_OK);
    assert_int_equal(alloc(64 * KiB, PREF, &b), GMMU_STATUS_OK);

    /* A list counts each occurrence. */
    h[0] = a, h[1] = b, h[2] = a;
    assert_int_equal(residency(true, h, 3, NULL), GMMU_STATUS_OK);
    expect_counts(a, 2, b, 1);

    /* Below zero anywhere: INVALID_ARGUMENT, no count changed. */
    h[0] = a, h[1] = b, h[2] = b;
    assert_int_equal(residency(false, h, 3, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    expect_counts(a, 2, b, 1);

    /* An unknown or stale handle anywhere: BAD_HANDLE, nothing changed. */
    uint32_t stale;
    assert_int_equal(alloc(64 * KiB, 0, &stale), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(stale), GMMU_STATUS_OK);
    h[0] = a, h[1] = b, h[2] = stale;
    assert_int_equal(residency(true, h, 3, NULL), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(residency(false, h, 3, NULL), GMMU_STATUS_BAD_HANDLE);
    h[2] = 0x80000001u; /* an address-space handle */
    assert_int_equal(residency(false, h, 3, NULL), GMMU_STATUS_BAD_HANDLE);
    expect_counts(a, 2, b, 1);

    h[0] = a, h[1] = a, h[2] = b;
    assert_int_equal(residency(false, h, 3, NULL), GMMU_STATUS_OK);
    expect_counts(a, 0, b, 0);
    /* At zero nothing moves: both still in VRAM. */
    assert_int_equal(info(a).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(info(b).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(evict1(a), GMMU_STATUS_INVALID_ARGUMENT);

    /* Empty or oversized lists, reserved fields, lengths. */
    assert_int_equal(residency(true, h, 0, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    uint32_t many[GMMU_RESIDENCY_MAX + 1];
    for (uint32_t i = 0; i <= GMMU_RESIDENCY_MAX; i++)
        many[i] = a;
    assert_int_equal(residency(true, many, GMMU_RESIDENCY_MAX + 1, NULL),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(residency(true, many, GMMU_RESIDENCY_MAX, NULL), GMMU_STATUS_OK);
    assert_int_equal(info(a).residency, GMMU_RESIDENCY_MAX);
    uint8_t buf[16] = { 1, 0, 0, 0, 1, 0, 0, 0 }; /* count 1, reserved 1 */
    memcpy(buf + 8, &a, 4);
    assert_int_equal(call(GMMU_OP_EVICT, buf, 12, NULL, 0), GMMU_STATUS_INVALID_ARGUMENT);
    buf[4] = 0;
    assert_int_equal(call(GMMU_OP_EVICT, buf, 11, NULL, 0), GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(call(GMMU_OP_EVICT, buf, 16, NULL, 0), GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(call(GMMU_OP_MAKE_RESIDENT, buf, 4, NULL, 0), GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(info(a).residency, GMMU_RESIDENCY_MAX);
    struct gmmu_handle_req q = { .handle = b, .reserved = 1 };
    struct gmmu_alloc_info out;
    assert_int_equal(call(GMMU_OP_QUERY_ALLOC, &q, sizeof(q), &out, sizeof(out)),
                     GMMU_STATUS_INVALID_ARGUMENT);
    q = (struct gmmu_handle_req){ .handle = stale };
    assert_int_equal(call(GMMU_OP_QUERY_ALLOC, &q, sizeof(q), &out, sizeof(out)),
                     GMMU_STATUS_BAD_HANDLE);
}

/* ------------------------------------------------------------ all or nothing */

#define SMALL  (128 * KiB)
#define SMALLS 96

/*
 * A command that fails after it moved others moves them back: an ALLOC
 * and a MAKE_RESIDENT whose sums say yes (free VRAM plus the victim's
 * 4 MiB cover them) but whose pieces do not: the free VRAM is 128 KB
 * holes between held allocations, and an allocation takes at most
 * VIDMM_ALLOC_EXTENTS (32) pieces. Each answers NO_MEMORY with the victim
 * back in VRAM, its bytes at its VA, and GET_VRAM (the paging fence
 * included) as before. With the holes filled the same requests succeed.
 */
static void test_failed_commands_move_back(void **state)
{
    uint32_t x, v, big, small[SMALLS], held[SMALLS], n_small = 0, n_held = 0, as = must_as();
    uint64_t va_x, va_v, x_size = 4 * MiB + 33 * SMALL;
    struct gmmu_vram_rsp before;

    (void)state;
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    /* x goes OFFLINE: VRAM only, evicted by an ALLOC that needs its room. */
    assert_int_equal(alloc(x_size, 0, &x), GMMU_STATUS_OK);
    va_x = must_map(as, x, 0, x_size, 0);
    tag_pages(as, va_x, x, 0, x_size / PAGE);
    assert_int_equal(alloc(vram().free_bytes + SMALL, 0, &big), GMMU_STATUS_OK);
    assert_int_equal(info(x).state, GMMU_ALLOC_STATE_OFFLINE);
    assert_int_equal(free_alloc(big), GMMU_STATUS_OK);

    /* v, the only victim; then 128 KB allocations, every other one held
       resident and the others freed: holes that cannot merge. */
    assert_int_equal(alloc(4 * MiB, 0, &v), GMMU_STATUS_OK);
    va_v = must_map(as, v, 0, 4 * MiB, 0);
    tag_pages(as, va_v, v, 0, 1024);
    while (vram().free_bytes >= SMALL) {
        assert_true(n_small < SMALLS);
        assert_int_equal(alloc(SMALL, 0, &small[n_small]), GMMU_STATUS_OK);
        if (n_small % 2)
            held[n_held++] = small[n_small];
        n_small++;
    }
    assert_int_equal(info(v).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(residency(true, held, n_held, NULL), GMMU_STATUS_OK);
    for (uint32_t i = 0; i < n_small; i += 2)
        assert_int_equal(free_alloc(small[i]), GMMU_STATUS_OK);
    before = vram();
    /* The sums: x and the ALLOC below each fit in the holes plus v. */
    assert_true(before.free_bytes + 4 * MiB >= x_size);
    assert_true(before.free_bytes > 33 * SMALL);
    assert_int_equal(before.evictable_bytes, 4 * MiB);

    /* ALLOC: v goes out, the carve needs more than 32 pieces, v comes back. */
    assert_int_equal(alloc(before.free_bytes + 4 * MiB, 0, &big), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(sim.vm->counters.moves_out, 2); /* x, then v */
    assert_int_equal(sim.vm->counters.moves_in, 1);  /* v back */
    assert_int_equal(sim.vm->counters.undo_refused, 0);
    assert_int_equal(info(v).state, GMMU_ALLOC_STATE_VRAM);
    check_pages(as, va_v, v, 0, 1024, GMMU_SEGMENT_VRAM);
    struct gmmu_vram_rsp after = vram();
    assert_memory_equal(&before, &after, sizeof(before));

    /* MAKE_RESIDENT of x: v goes out, x cannot come in, v comes back. */
    assert_int_equal(make_resident1(x), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(sim.vm->counters.moves_out, 3);
    assert_int_equal(sim.vm->counters.moves_in, 2);
    assert_int_equal(info(v).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(info(x).state, GMMU_ALLOC_STATE_OFFLINE);
    assert_int_equal(info(x).residency, 0);
    check_pages(as, va_v, v, 0, 1024, GMMU_SEGMENT_VRAM);
    check_faults(as, va_x, x_size / PAGE);
    after = vram();
    assert_memory_equal(&before, &after, sizeof(before));

    /* The holes merged again (the held ones freed): x comes in over v. */
    for (uint32_t i = 0; i < n_held; i++)
        assert_int_equal(free_alloc(held[i]), GMMU_STATUS_OK);
    assert_int_equal(make_resident1(x), GMMU_STATUS_OK);
    assert_int_equal(info(x).state, GMMU_ALLOC_STATE_VRAM);
    check_pages(as, va_x, x, 0, x_size / PAGE, GMMU_SEGMENT_VRAM);
    check_pages(as, va_v, v, 0, 1024, GMMU_SEGMENT_VRAM);
}

/* Deliverable 5: an engine's memory is never moved under it. The least
 * recently used allocation is mapped in a space an engine runs in now, so
 * the next one is evicted instead; with the engine stopped, it goes. */
static void test_running_engine_keeps_its_memory(void **state)
{
    uint32_t a, b, c, d, busy_as = must_as(), idle_as = must_as();
    uint64_t root;
    uint32_t id;

    (void)state;
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    assert_int_equal(alloc(4 * MiB, PREF, &a), GMMU_STATUS_OK); /* oldest */
    assert_int_equal(alloc(4 * MiB, PREF, &b), GMMU_STATUS_OK);
    uint64_t va_a = must_map(busy_as, a, 0, 4 * MiB, 0);
    must_map(idle_as, b, 0, 4 * MiB, 0);
    tag_pages(busy_as, va_a, a, 0, 1024);
    assert_true(vidmm_as_info(sim.vm, busy_as, &root, &id));
    sim.busy_asids = 1u << id;
    assert_int_equal(vram().evictable_bytes, 4 * MiB); /* b only */

    assert_int_equal(alloc(vram().free_bytes + 2 * MiB, 0, &c), GMMU_STATUS_OK);
    assert_int_equal(info(a).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(info(b).state, GMMU_ALLOC_STATE_BACKING);
    check_pages(busy_as, va_a, a, 0, 1024, GMMU_SEGMENT_VRAM);
    /* Nothing else to evict while it runs (c held): NO_MEMORY, a stays. */
    assert_int_equal(make_resident1(c), GMMU_STATUS_OK);
    assert_int_equal(alloc(vram().free_bytes + 2 * MiB, 0, &d), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(info(a).state, GMMU_ALLOC_STATE_VRAM);

    sim.busy_asids = 0;
    assert_int_equal(alloc(vram().free_bytes + 2 * MiB, 0, &d), GMMU_STATUS_OK);
    assert_int_equal(info(a).state, GMMU_ALLOC_STATE_BACKING);
    check_pages(busy_as, va_a, a, 0, 1024, GMMU_SEGMENT_SYSTEM);
}

/* A job submitted and not started yet still needs its memory (memory in
   use): the LRU allocation it reads is passed over, the next one goes. */
static void test_submitted_job_keeps_its_memory(void **state)
{
    uint32_t a, b, c, as = must_as();

    (void)state;
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    assert_int_equal(alloc(4 * MiB, PREF, &a), GMMU_STATUS_OK); /* oldest */
    assert_int_equal(alloc(4 * MiB, PREF, &b), GMMU_STATUS_OK);
    uint64_t va_a = must_map(as, a, 0, 4 * MiB, 0);
    must_map(as, b, 0, 4 * MiB, 0);
    sim.in_use[0].as_handle = as;
    sim.in_use[0].va = va_a + 4 * MiB - 64; /* its last chunk */
    sim.in_use[0].bytes = 64;
    sim.in_use_n = 1;

    assert_int_equal(alloc(vram().free_bytes + 2 * MiB, 0, &c), GMMU_STATUS_OK);
    assert_int_equal(info(a).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(info(b).state, GMMU_ALLOC_STATE_BACKING);
    sim.in_use_n = 0;
}

/* ------------------------------------------------------------ REMOVE_BACKING */

/* The first page of the allocation mapped at va translates to pa. */
static void expect_pa(uint32_t as, uint64_t va, uint64_t pa, unsigned segment)
{
    struct gmmu_ref_result r = walk(as, va);

    assert_int_equal(r.fault, GMMU_FAULT_NONE);
    assert_int_equal(r.segment, segment);
    assert_int_equal(r.pa, pa);
}

/*
 * Ranges A = [HOST, 4 MiB), B = [HOST + 8 MiB, 8 MiB), C = [HOST + 20 MiB,
 * 4 MiB). A range's allocations move to the rest of the pool (first fit)
 * or, VRAM preferred and VRAM free, into VRAM; allocations in later ranges
 * keep their host pages though their pool offsets move down; a range whose
 * allocations cannot all go anywhere is refused with those moved put back.
 * Addresses worked out by hand from first fit in 64 KB units.
 */
static void test_remove_backing_moves(void **state)
{
    uint32_t fill, w, p, q, y, z, as = must_as();
    uint64_t va_w, va_p, va_q, va_y, va_z;
    struct gmmu_backing_remove_rsp rsp;
    struct gmmu_vram_rsp before, after;

    (void)state;
    assert_int_equal(add_backing(HOST, 4 * MiB), GMMU_STATUS_OK);
    assert_int_equal(add_backing(HOST + 8 * MiB, 8 * MiB), GMMU_STATUS_OK);
    assert_int_equal(add_backing(HOST + 20 * MiB, 4 * MiB), GMMU_STATUS_OK);
    /* VRAM full (fill, held), so the VRAM-preferred w goes to the pool. */
    assert_int_equal(alloc(vram().free_bytes - 512 * KiB, 0, &fill), GMMU_STATUS_OK);
    assert_int_equal(make_resident1(fill), GMMU_STATUS_OK);
    assert_int_equal(alloc(MiB, PREF, &w), GMMU_STATUS_OK);
    assert_int_equal(alloc(2 * MiB, SYSO, &p), GMMU_STATUS_OK);
    assert_int_equal(alloc(MiB, SYSO, &q), GMMU_STATUS_OK);
    assert_int_equal(alloc(8 * MiB, SYSO, &y), GMMU_STATUS_OK);
    assert_int_equal(alloc(MiB, SYSO, &z), GMMU_STATUS_OK);
    assert_int_equal(info(w).base, HOST);
    assert_int_equal(info(p).base, HOST + MiB);
    assert_int_equal(info(q).base, HOST + 3 * MiB);
    assert_int_equal(info(y).base, HOST + 8 * MiB);
    assert_int_equal(info(z).base, HOST + 20 * MiB);
    va_w = must_map(as, w, 0, MiB, 0);
    va_p = must_map(as, p, 0, 2 * MiB, 0);
    va_q = must_map(as, q, 0, MiB, 0);
    va_y = must_map(as, y, 0, 8 * MiB, 0);
    va_z = must_map(as, z, 0, MiB, 0);
    tag_pages(as, va_w, w, 0, 256);
    tag_pages(as, va_p, p, 0, 512);
    tag_pages(as, va_q, q, 0, 256);
    tag_pages(as, va_y, y, 0, 2048);
    tag_pages(as, va_z, z, 0, 256);

    /* B: y's 8 MiB fit nowhere else (A full, C 3 MiB): refused. */
    before = vram();
    assert_int_equal(remove_backing(HOST + 8 * MiB, 8 * MiB, 0, &rsp), GMMU_STATUS_NO_MEMORY);
    /* A with VRAM full: w (1 MiB) and p (2 MiB) fit in C, q does not; w
       and p come back to where they were. */
    assert_int_equal(remove_backing(HOST, 4 * MiB, 0, &rsp), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(sim.vm->counters.pool_moves, 4); /* w, p out and back */
    after = vram();
    assert_memory_equal(&before, &after, sizeof(before));
    assert_int_equal(info(w).base, HOST);
    assert_int_equal(info(p).base, HOST + MiB);
    check_pages(as, va_w, w, 0, 256, GMMU_SEGMENT_SYSTEM);
    check_pages(as, va_p, p, 0, 512, GMMU_SEGMENT_SYSTEM);

    /* Bad requests change nothing. */
    assert_int_equal(remove_backing(HOST, 2 * MiB, 0, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(remove_backing(HOST + MiB, 4 * MiB, 0, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(remove_backing(HOST, 4 * MiB, 2, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(remove_backing(HOST, 4 * MiB, GMMU_REMOVE_BACKING_FLAG_UNREACHABLE, NULL),
                     GMMU_STATUS_INVALID_ARGUMENT);
    struct gmmu_backing_remove_req bad = { .sys_addr = HOST, .size = 4 * MiB, .reserved = 1 };
    assert_int_equal(call(GMMU_OP_REMOVE_BACKING, &bad, sizeof(bad), &rsp, sizeof(rsp)),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(call(GMMU_OP_REMOVE_BACKING, &bad, sizeof(bad) - 4, &rsp, sizeof(rsp)),
                     GMMU_STATUS_MALFORMED_LENGTH);
    /* Every range is reachable: UNREACHABLE removes nothing. */
    assert_int_equal(remove_backing(0, 0, GMMU_REMOVE_BACKING_FLAG_UNREACHABLE, &rsp),
                     GMMU_STATUS_OK);
    assert_int_equal(rsp.ranges, 0);
    after = vram();
    assert_memory_equal(&before, &after, sizeof(before));

    /* An engine running in the space that maps them: BUSY. */
    uint64_t root;
    uint32_t id;
    assert_true(vidmm_as_info(sim.vm, as, &root, &id));
    sim.busy_asids = 1u << id;
    assert_int_equal(remove_backing(HOST, 4 * MiB, 0, NULL), GMMU_STATUS_BUSY);
    sim.busy_asids = 0;

    /* VRAM free: A goes. w into VRAM, p to C after z, q after p. */
    assert_int_equal(evict1(fill), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(fill), GMMU_STATUS_OK);
    assert_int_equal(remove_backing(HOST, 4 * MiB, 0, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.ranges, 1);
    assert_int_equal(rsp.moved, 3);
    assert_int_equal(rsp.freed, 0);
    assert_int_equal(rsp.fence, before.paging_fence + 3);
    assert_int_equal(info(w).state, GMMU_ALLOC_STATE_VRAM);
    check_pages(as, va_w, w, 0, 256, GMMU_SEGMENT_VRAM);
    expect_pa(as, va_p, HOST + 21 * MiB, GMMU_SEGMENT_SYSTEM);
    expect_pa(as, va_q, HOST + 23 * MiB, GMMU_SEGMENT_SYSTEM);
    assert_int_equal(info(p).base, HOST + 21 * MiB);
    /* y and z stayed on their host pages (z's pool offset 12 -> 8 MiB). */
    expect_pa(as, va_y, HOST + 8 * MiB, GMMU_SEGMENT_SYSTEM);
    expect_pa(as, va_z, HOST + 20 * MiB, GMMU_SEGMENT_SYSTEM);
    assert_int_equal(info(z).base, HOST + 20 * MiB);
    check_pages(as, va_p, p, 0, 512, GMMU_SEGMENT_SYSTEM);
    check_pages(as, va_q, q, 0, 256, GMMU_SEGMENT_SYSTEM);
    check_pages(as, va_y, y, 0, 2048, GMMU_SEGMENT_SYSTEM);
    check_pages(as, va_z, z, 0, 256, GMMU_SEGMENT_SYSTEM);
    after = vram();
    assert_int_equal(after.backing_ranges, 2);
    assert_int_equal(after.backing_bytes, 12 * MiB);
    assert_int_equal(after.backing_free, 0);
    assert_int_equal(after.resident_bytes, MiB);

    /* A again: the pool takes it; FREE of one in a later range works. */
    assert_int_equal(add_backing(HOST, 4 * MiB), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(z), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, 5 * MiB);
    uint32_t all[] = { w, p, q, y };
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(free_alloc(all[i]), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, 16 * MiB);
}

/*
 * A range whose memory is gone (the host that gave it left) is found by
 * UNREACHABLE, or named: its allocations are freed (handles stale, VAs
 * faulting), those of the other ranges untouched.
 */
static void test_remove_backing_gone(void **state)
{
    uint32_t a, b, d, as = must_as();
    uint64_t va_a, va_d;
    struct gmmu_backing_remove_rsp rsp;
    struct gmmu_vram_rsp v0;

    (void)state;
    assert_int_equal(add_backing(HOST, 4 * MiB), GMMU_STATUS_OK);
    assert_int_equal(add_backing(HOST + 8 * MiB, 4 * MiB), GMMU_STATUS_OK);
    v0 = vram();
    assert_int_equal(alloc(MiB, SYSO, &a), GMMU_STATUS_OK);
    assert_int_equal(alloc(3 * MiB, SYSO, &b), GMMU_STATUS_OK);
    assert_int_equal(alloc(2 * MiB, SYSO, &d), GMMU_STATUS_OK);
    assert_int_equal(info(d).base, HOST + 8 * MiB);
    va_a = must_map(as, a, 0, MiB, 0);
    va_d = must_map(as, d, 0, 2 * MiB, 0);
    tag_pages(as, va_d, d, 0, 512);

    sim.gone_lo = HOST;
    sim.gone_hi = HOST + 4 * MiB;
    uint64_t fence = vram().paging_fence;
    assert_int_equal(remove_backing(0, 0, GMMU_REMOVE_BACKING_FLAG_UNREACHABLE, &rsp),
                     GMMU_STATUS_OK);
    assert_int_equal(rsp.ranges, 1);
    assert_int_equal(rsp.freed, 2);
    assert_int_equal(rsp.moved, 0);
    assert_int_equal(rsp.fence, fence); /* nothing moved */
    struct gmmu_handle_req h = { .handle = a };
    struct gmmu_alloc_info out;
    assert_int_equal(call(GMMU_OP_QUERY_ALLOC, &h, sizeof(h), &out, sizeof(out)),
                     GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(free_alloc(b), GMMU_STATUS_BAD_HANDLE);
    check_faults(as, va_a, 256);
    check_pages(as, va_d, d, 0, 512, GMMU_SEGMENT_SYSTEM);
    expect_pa(as, va_d, HOST + 8 * MiB, GMMU_SEGMENT_SYSTEM);
    struct gmmu_vram_rsp v = vram();
    assert_int_equal(v.backing_ranges, 1);
    assert_int_equal(v.backing_bytes, 4 * MiB);
    assert_int_equal(v.backing_free, 2 * MiB);
    assert_int_equal(v.allocations, 1);

    /* Named, with its memory gone: d freed too; the pool is empty. */
    sim.gone_lo = HOST + 8 * MiB;
    sim.gone_hi = HOST + 12 * MiB;
    assert_int_equal(remove_backing(HOST + 8 * MiB, 4 * MiB, 0, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.freed, 1);
    assert_int_equal(rsp.ranges, 1);
    check_faults(as, va_d, 512);
    v = vram();
    assert_int_equal(v.backing_ranges, 0);
    assert_int_equal(v.allocations, 0);
    assert_int_equal(v.free_bytes, v0.free_bytes - (v.table_bytes - v0.table_bytes));
}

/* ------------------------------------------------------------ moving tiles */

/* Tiles that point into a VRAM-preferred allocation, in two reserved
 * ranges (one filled by COPY), follow it out to the pool and back. A
 * VRAM-only allocation with tiles stays put. */
static void test_tiles_follow_moves(void **state)
{
    uint32_t t, pin, filler, as = must_as();
    struct gmmu_reserve_req rr = { .as_handle = as, .size = 4 * MiB };
    struct gmmu_va_rsp r1, r2;

    (void)state;
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    assert_int_equal(alloc(2 * MiB, PREF, &t), GMMU_STATUS_OK);
    assert_int_equal(alloc(2 * MiB, 0, &pin), GMMU_STATUS_OK);
    assert_int_equal(call(GMMU_OP_RESERVE_VA, &rr, sizeof(rr), &r1, sizeof(r1)), GMMU_STATUS_OK);
    assert_int_equal(call(GMMU_OP_RESERVE_VA, &rr, sizeof(rr), &r2, sizeof(r2)), GMMU_STATUS_OK);

    /* Range 1: tile 0 <- t at 1 MiB, tiles 4..7 <- t at 0, tile 10 <- pin.
       Range 2: tiles 0..7 copied from range 1. */
    struct {
        struct gmmu_update_req req;
        struct gmmu_update_op op[4];
    } batch = {
        .req = { .as_handle = as, .count = 4 },
        .op = {
            { .op = GMMU_UPDATE_OP_MAP, .va = r1.va, .size = TILE, .alloc_handle = t,
              .arg = MiB },
            { .op = GMMU_UPDATE_OP_MAP, .va = r1.va + 4 * TILE, .size = 4 * TILE,
              .alloc_handle = t },
            { .op = GMMU_UPDATE_OP_MAP, .va = r1.va + 10 * TILE, .size = TILE,
              .alloc_handle = pin },
            { .op = GMMU_UPDATE_OP_COPY, .va = r2.va, .size = 8 * TILE, .arg = r1.va },
        },
    };
    assert_int_equal(call(GMMU_OP_UPDATE_VA, &batch, sizeof(batch), NULL, 0), GMMU_STATUS_OK);
    uint64_t va_t = must_map(as, t, 0, 2 * MiB, 0);
    tag_pages(as, va_t, t, 0, 512);
    check_pages(as, r1.va, t, 256, 16, GMMU_SEGMENT_VRAM);

    /* Fill VRAM with an allocation that needs t's room: t (LRU, count 0)
       goes; pin (VRAM only, tiled) stays. */
    struct gmmu_vram_rsp v = vram();
    assert_int_equal(alloc(v.free_bytes - v.free_bytes % (2 * MiB) + 2 * MiB, 0, &filler),
                     GMMU_STATUS_OK);
    assert_int_equal(info(t).state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(info(pin).state, GMMU_ALLOC_STATE_VRAM);
    check_pages(as, va_t, t, 0, 512, GMMU_SEGMENT_SYSTEM);
    check_pages(as, r1.va, t, 256, 16, GMMU_SEGMENT_SYSTEM);
    check_pages(as, r1.va + 4 * TILE, t, 0, 64, GMMU_SEGMENT_SYSTEM);
    check_pages(as, r2.va, t, 256, 16, GMMU_SEGMENT_SYSTEM);
    check_pages(as, r2.va + 4 * TILE, t, 0, 64, GMMU_SEGMENT_SYSTEM);
    check_faults(as, r2.va + TILE, 48);

    /* Back: the filler (count 0, least recently used) goes out. */
    assert_int_equal(make_resident1(t), GMMU_STATUS_OK);
    assert_int_equal(info(t).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(info(filler).state, GMMU_ALLOC_STATE_OFFLINE);
    check_pages(as, va_t, t, 0, 512, GMMU_SEGMENT_VRAM);
    check_pages(as, r1.va + 4 * TILE, t, 0, 64, GMMU_SEGMENT_VRAM);
    check_pages(as, r2.va, t, 256, 16, GMMU_SEGMENT_VRAM);
    check_pages(as, r2.va + 4 * TILE, t, 0, 64, GMMU_SEGMENT_VRAM);

    /* A tile MAP of a VRAM-only allocation that is not resident: refused. */
    batch.req.count = 1;
    batch.op[0] = (struct gmmu_update_op){
        .op = GMMU_UPDATE_OP_MAP, .va = r1.va + 12 * TILE, .size = TILE, .alloc_handle = filler
    };
    assert_int_equal(
        call(GMMU_OP_UPDATE_VA, &batch, sizeof(batch.req) + sizeof(batch.op[0]), NULL, 0),
        GMMU_STATUS_INVALID_ARGUMENT);

    /* FREE of t unmaps the tiles wherever it is. */
    assert_int_equal(free_alloc(t), GMMU_STATUS_OK);
    check_faults(as, r2.va + 4 * TILE, 64);
    assert_int_equal(free_alloc(filler), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(pin), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, POOL_BYTES);
}

/* A tile made of 4 KB pages whose PA is not 64 KB aligned (an allocation
 * of scattered 4 KB blocks on a fragmented VRAM) follows its allocation
 * out to the pool. */
static void test_tiles_of_4k_pages_follow(void **state)
{
    enum { FILL = 160 };
    static uint32_t fill[FILL];
    uint32_t n = 0, t, big, as, freed = 0;
    struct gmmu_reserve_req rr = { .size = 4 * TILE };
    struct gmmu_va_rsp r;
    struct gmmu_alloc_info ti;
    uint64_t window = UINT64_MAX;

    (void)state;
    vidmm_sim_fini(&sim);
    vidmm_sim_init(&sim, 512 * KiB, 4, 64);
    vidmm_sim_host(&sim, POOL_BYTES);
    as = must_as();
    rr.as_handle = as;
    assert_int_equal(call(GMMU_OP_RESERVE_VA, &rr, sizeof(rr), &r, sizeof(r)), GMMU_STATUS_OK);
    /* VRAM full of 4 KB allocations (no pool yet: nothing is evicted). */
    while (n < FILL && alloc(PAGE, 0, &fill[n]) == GMMU_STATUS_OK)
        n++;
    assert_true(n < FILL);
    /* 16 holes at odd pages, their buddies kept: no 8 KB block is free. */
    for (uint32_t i = 0; i < n && freed < 16; i++) {
        if (fill[i] && info(fill[i]).base % (2 * PAGE)) {
            assert_int_equal(free_alloc(fill[i]), GMMU_STATUS_OK);
            fill[i] = 0;
            freed++;
        }
    }
    assert_int_equal(freed, 16);
    assert_int_equal(alloc(TILE, PREF, &t), GMMU_STATUS_OK);
    ti = info(t);
    assert_int_equal(ti.state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(ti.extents, 16);
    assert_true(ti.base % TILE != 0);
    /* A free 64 KB block for the tables of the tile and of its move. */
    for (uint64_t w = 0; w < 512 * KiB && window == UINT64_MAX; w += TILE) {
        uint32_t in = 0;

        for (uint32_t i = 0; i < n; i++)
            in += fill[i] && info(fill[i]).base - w < TILE;
        window = in == TILE / PAGE ? w : UINT64_MAX;
    }
    assert_true(window != UINT64_MAX);
    for (uint32_t i = 0; i < n; i++) {
        if (fill[i] && info(fill[i]).base - window < TILE) {
            assert_int_equal(free_alloc(fill[i]), GMMU_STATUS_OK);
            fill[i] = 0;
        }
    }
    struct {
        struct gmmu_update_req req;
        struct gmmu_update_op op;
    } batch = {
        .req = { .as_handle = as, .count = 1 },
        .op = { .op = GMMU_UPDATE_OP_MAP, .va = r.va + TILE, .size = TILE, .alloc_handle = t },
    };
    assert_int_equal(call(GMMU_OP_UPDATE_VA, &batch, sizeof(batch), NULL, 0), GMMU_STATUS_OK);
    assert_int_equal(walk(as, r.va + TILE).page_shift, 12);
    tag_pages(as, r.va + TILE, t, 0, 16);

    /* The fillers are held; a VRAM-only ALLOC needs t's room. */
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    {
        uint32_t held[FILL], k = 0;

        for (uint32_t i = 0; i < n; i++)
            if (fill[i])
                held[k++] = fill[i];
        assert_int_equal(residency(true, held, k, NULL), GMMU_STATUS_OK);
    }
    assert_int_equal(alloc(TILE, 0, &big), GMMU_STATUS_OK);
    assert_int_equal(info(t).state, GMMU_ALLOC_STATE_BACKING);
    check_pages(as, r.va + TILE, t, 0, 16, GMMU_SEGMENT_SYSTEM);
    check_faults(as, r.va, 16);

    /* And back. */
    assert_int_equal(free_alloc(big), GMMU_STATUS_OK);
    assert_int_equal(make_resident1(t), GMMU_STATUS_OK);
    assert_int_equal(info(t).state, GMMU_ALLOC_STATE_VRAM);
    check_pages(as, r.va + TILE, t, 0, 16, GMMU_SEGMENT_VRAM);
    assert_int_equal(free_alloc(t), GMMU_STATUS_OK);
    for (uint32_t i = 0; i < n; i++)
        if (fill[i])
            assert_int_equal(free_alloc(fill[i]), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, POOL_BYTES);
    assert_int_equal(vram().resident_bytes, 0);
}

/* ------------------------------------------------------------ segments */

struct segments {
    struct gmmu_segments_rsp hdr;
    struct gmmu_segment_desc seg[3];
};

static struct segments segments(void)
{
    struct segments s;

    assert_int_equal(call(GMMU_OP_GET_SEGMENTS, NULL, 0, &s, sizeof(s)), GMMU_STATUS_OK);
    assert_int_equal(s.hdr.count, 3);
    assert_int_equal(s.hdr.reserved, 0);
    return s;
}

/* The segment a GET_SEGMENTS entry describes, and what it holds: sizes
   and use worked out by hand from what the test allocated. */
static void expect_segment(const struct gmmu_segment_desc *d, uint16_t id, uint16_t kind,
                           uint32_t flags, uint64_t size, uint64_t in_use)
{
    assert_int_equal(d->id, id);
    assert_int_equal(d->kind, kind);
    assert_int_equal(d->flags, flags);
    assert_int_equal(d->base, id == GMMU_SEGMENT_APERTURE ? GMMU_APERTURE_PHYS_BASE : 0);
    assert_int_equal(d->size, size);
    assert_int_equal(d->in_use, in_use);
}

static void expect_segments(uint64_t pool, uint64_t pool_used, uint64_t vram_used)
{
    struct segments s = segments();

    expect_segment(&s.seg[0], GMMU_SEGMENT_SYSTEM, GMMU_SEGMENT_KIND_SYSTEM,
                   GMMU_SEGMENT_FLAG_HOST_MEMORY, pool, pool_used);
    expect_segment(&s.seg[1], GMMU_SEGMENT_VRAM, GMMU_SEGMENT_KIND_MEMORY,
                   GMMU_SEGMENT_FLAG_BAR1 | GMMU_SEGMENT_FLAG_PAGE_TABLES, VRAM_BYTES, vram_used);
    /* This platform gives the aperture no pages: listed, empty. */
    expect_segment(&s.seg[2], GMMU_SEGMENT_APERTURE, GMMU_SEGMENT_KIND_APERTURE, 0, 0, 0);
}

/* GET_SEGMENTS lists system memory (the backing pool) and VRAM, and their
   use follows ALLOC into VRAM and into the pool, and FREE; a request with
   a payload is malformed. */
static void test_segments(void **state)
{
    (void)state;
    uint32_t in_vram, in_pool, spilled, word = 0;

    expect_segments(0, 0, 0);
    assert_int_equal(add_backing(HOST, 2 * MiB), GMMU_STATUS_OK);
    expect_segments(2 * MiB, 0, 0);
    assert_int_equal(alloc(MiB, 0, &in_vram), GMMU_STATUS_OK);
    expect_segments(2 * MiB, 0, MiB);
    assert_int_equal(alloc(256 * KiB, SYSO, &in_pool), GMMU_STATUS_OK);
    expect_segments(2 * MiB, 256 * KiB, MiB);
    /* VRAM full but for 1 MiB: a preferred allocation of 1 MiB + 64 KiB
       lands in the pool. */
    assert_int_equal(alloc(VRAM_BYTES - 2 * MiB, 0, &spilled), GMMU_STATUS_OK);
    expect_segments(2 * MiB, 256 * KiB, VRAM_BYTES - MiB);
    uint32_t pref;
    assert_int_equal(alloc(MiB + 64 * KiB, PREF, &pref), GMMU_STATUS_OK);
    assert_int_equal(info(pref).state, GMMU_ALLOC_STATE_BACKING);
    expect_segments(2 * MiB, 256 * KiB + MiB + 64 * KiB, VRAM_BYTES - MiB);
    assert_int_equal(free_alloc(pref), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(spilled), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(in_pool), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(in_vram), GMMU_STATUS_OK);
    expect_segments(2 * MiB, 0, 0);

    struct segments s;
    assert_int_equal(call(GMMU_OP_GET_SEGMENTS, &word, sizeof(word), &s, sizeof(s)),
                     GMMU_STATUS_MALFORMED_LENGTH);
}

/* ------------------------------------------------------------ scans */

/*
 * A move scans only for the allocation's own records and stops once it has
 * seen them all (alloc_records): here they lie after free records and
 * with another allocation's record between them, and both must be
 * rewritten, out to the pool and back into VRAM.
 */
static void test_move_finds_every_record(void **state)
{
    uint32_t z, o, s, fill, as1 = must_as(), as2 = must_as();
    uint64_t va1, va2;

    (void)state;
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    assert_int_equal(alloc(64 * KiB, 0, &z), GMMU_STATUS_OK);
    assert_int_equal(alloc(MiB, PREF, &o), GMMU_STATUS_OK);
    assert_int_equal(alloc(MiB, PREF, &s), GMMU_STATUS_OK);
    must_map(as1, z, 0, 64 * KiB, 0);                /* record 0 */
    must_map(as2, z, 0, 64 * KiB, 0);                /* record 1 */
    must_map(as1, o, 0, MiB, 0);                     /* record 2 */
    va1 = must_map(as1, s, 0, MiB, 0);               /* record 3 */
    must_map(as2, o, 0, MiB, 0);                     /* record 4 */
    va2 = must_map(as2, s, 512 * KiB, 512 * KiB, 0); /* record 5 */
    assert_int_equal(free_alloc(z), GMMU_STATUS_OK); /* records 0, 1 free */
    tag_pages(as1, va1, s, 0, 256);
    /* o is held: s is the one victim of an ALLOC that needs VRAM. */
    assert_int_equal(make_resident1(o), GMMU_STATUS_OK);
    assert_int_equal(alloc(vram().free_bytes + 64 * KiB, 0, &fill), GMMU_STATUS_OK);
    assert_int_equal(info(s).state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(info(o).state, GMMU_ALLOC_STATE_VRAM);
    check_pages(as1, va1, s, 0, 256, GMMU_SEGMENT_SYSTEM);
    check_pages(as2, va2, s, 128, 128, GMMU_SEGMENT_SYSTEM);
    /* And back. */
    assert_int_equal(free_alloc(fill), GMMU_STATUS_OK);
    assert_int_equal(make_resident1(s), GMMU_STATUS_OK);
    assert_int_equal(info(s).state, GMMU_ALLOC_STATE_VRAM);
    check_pages(as1, va1, s, 0, 256, GMMU_SEGMENT_VRAM);
    check_pages(as2, va2, s, 128, 128, GMMU_SEGMENT_VRAM);
    assert_int_equal(free_alloc(o), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(s), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, POOL_BYTES);
}

/*
 * The victim scan stops once it has seen every live allocation: the least
 * recently used one is the last live slot, after free slots and after
 * another evictable allocation used more recently.
 */
static void test_victim_after_free_slots(void **state)
{
    uint32_t h[4], p, q, fill;

    (void)state;
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(alloc(64 * KiB, 0, &h[i]), GMMU_STATUS_OK); /* slots 0-3 */
    assert_int_equal(alloc(MiB, PREF, &p), GMMU_STATUS_OK);          /* slot 4 */
    assert_int_equal(alloc(MiB, PREF, &q), GMMU_STATUS_OK);          /* slot 5 */
    for (int i = 0; i < 4; i++)
        assert_int_equal(free_alloc(h[i]), GMMU_STATUS_OK);
    /* p used after q: q is the least recently used. */
    assert_int_equal(make_resident1(p), GMMU_STATUS_OK);
    assert_int_equal(evict1(p), GMMU_STATUS_OK);
    assert_int_equal(alloc(vram().free_bytes + 64 * KiB, 0, &fill), GMMU_STATUS_OK);
    assert_int_equal(info(q).state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(info(p).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(sim.vm->counters.moves_out, 1);
    assert_int_equal(free_alloc(fill), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(p), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(q), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, POOL_BYTES);
}

/*
 * A mapping keeps the page sizes it was made with: 2 MB pages only cannot
 * go onto a pool piece at 64 KB past a 2 MB boundary (the pool's first
 * fit, by hand), so the victim's move is refused and the ALLOC that needs
 * its room fails with nothing changed; at the pool's 2 MB-aligned start it
 * goes, still 2 MB pages.
 */
static void test_move_keeps_page_sizes(void **state)
{
    uint32_t small, v, fill, as = must_as();
    struct gmmu_map_req req = { .as_handle = as, .size = 2 * MiB, .page_sizes = PTM_PAGE_2M };
    struct gmmu_va_rsp rsp;

    (void)state;
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    assert_int_equal(alloc(64 * KiB, SYSO, &small), GMMU_STATUS_OK); /* the pool's first 64 KB */
    assert_int_equal(alloc(2 * MiB, PREF, &v), GMMU_STATUS_OK);
    req.alloc_handle = v;
    assert_int_equal(call(GMMU_OP_MAP_VA, &req, sizeof(req), &rsp, sizeof(rsp)), GMMU_STATUS_OK);
    tag_pages(as, rsp.va, v, 0, 512);
    assert_int_equal(walk(as, rsp.va).page_shift, 21);

    struct gmmu_vram_rsp before = vram();
    assert_int_equal(alloc(before.free_bytes + 64 * KiB, 0, &fill), GMMU_STATUS_NO_MEMORY);
    struct gmmu_vram_rsp after = vram();
    assert_memory_equal(&before, &after, sizeof(before));
    assert_int_equal(info(v).state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(sim.vm->counters.moves_out, 0);
    check_pages(as, rsp.va, v, 0, 512, GMMU_SEGMENT_VRAM);

    assert_int_equal(free_alloc(small), GMMU_STATUS_OK);
    assert_int_equal(alloc(before.free_bytes + 64 * KiB, 0, &fill), GMMU_STATUS_OK);
    assert_int_equal(info(v).state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(info(v).base, HOST);
    assert_int_equal(walk(as, rsp.va).page_shift, 21);
    check_pages(as, rsp.va, v, 0, 512, GMMU_SEGMENT_SYSTEM);
    assert_int_equal(free_alloc(fill), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(v), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, POOL_BYTES);
}

/*
 * A move whose rewrite needs a new page table is refused before anything
 * changes when VRAM has no room for it: 2 MB pages in VRAM go onto a pool
 * piece 64 KB past a 2 MB boundary as 64 KB pages, under a new leaf
 * table, and VRAM is full.
 */
static void test_move_needs_tables(void **state)
{
    uint32_t small, v, full, fill, as = must_as();
    struct gmmu_map_req req = { .as_handle = as, .size = 2 * MiB, .page_sizes = PTM_PAGE_ALL };
    struct gmmu_va_rsp rsp;

    (void)state;
    assert_int_equal(add_backing(HOST, POOL_BYTES), GMMU_STATUS_OK);
    assert_int_equal(alloc(64 * KiB, SYSO, &small), GMMU_STATUS_OK);
    assert_int_equal(alloc(2 * MiB, PREF, &v), GMMU_STATUS_OK);
    req.alloc_handle = v;
    assert_int_equal(call(GMMU_OP_MAP_VA, &req, sizeof(req), &rsp, sizeof(rsp)), GMMU_STATUS_OK);
    tag_pages(as, rsp.va, v, 0, 512);
    assert_int_equal(walk(as, rsp.va).page_shift, 21);
    assert_int_equal(alloc(vram().free_bytes, 0, &full), GMMU_STATUS_OK);
    assert_int_equal(make_resident1(full), GMMU_STATUS_OK);
    assert_int_equal(vram().free_bytes, 0);

    struct gmmu_vram_rsp before = vram();
    assert_int_equal(alloc(64 * KiB, 0, &fill), GMMU_STATUS_NO_MEMORY);
    struct gmmu_vram_rsp after = vram();
    assert_memory_equal(&before, &after, sizeof(before));
    assert_int_equal(info(v).state, GMMU_ALLOC_STATE_VRAM);
    check_pages(as, rsp.va, v, 0, 512, GMMU_SEGMENT_VRAM);

    /* With 64 KB of VRAM free, the table fits: v goes, as 64 KB pages. */
    assert_int_equal(evict1(full), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(full), GMMU_STATUS_OK);
    assert_int_equal(alloc(vram().free_bytes - 64 * KiB, 0, &full), GMMU_STATUS_OK);
    assert_int_equal(make_resident1(full), GMMU_STATUS_OK);
    assert_int_equal(alloc(128 * KiB, 0, &fill), GMMU_STATUS_OK);
    assert_int_equal(info(v).state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(info(v).base, HOST + 64 * KiB);
    assert_int_equal(walk(as, rsp.va).page_shift, 16);
    check_pages(as, rsp.va, v, 0, 512, GMMU_SEGMENT_SYSTEM);
    assert_int_equal(free_alloc(fill), GMMU_STATUS_OK);
    assert_int_equal(evict1(full), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(full), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(v), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(small), GMMU_STATUS_OK);
    assert_int_equal(vram().backing_free, POOL_BYTES);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, vidmm_teardown)
    const struct CMUnitTest tests[] = {
        T(test_placement_flags),
        T(test_placement_pool),
        T(test_alloc_evicts_lru),
        T(test_residency_counts),
        T(test_tiles_follow_moves),
        T(test_tiles_of_4k_pages_follow),
        T(test_segments),
        T(test_failed_commands_move_back),
        T(test_remove_backing_moves),
        T(test_remove_backing_gone),
        T(test_running_engine_keeps_its_memory),
        T(test_submitted_job_keeps_its_memory),
        T(test_move_finds_every_record),
        T(test_victim_after_free_slots),
        T(test_move_keeps_page_sizes),
        T(test_move_needs_tables),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
