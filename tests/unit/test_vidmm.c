// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of the VidMm command layer (firmware/lib/vidmm*.c), driven
 * through the mailbox handlers on the simulated platform of
 * tests/fuzz/vidmm_sim.c.
 *
 * Translations are checked with the reference walker (tests/model/gmmu_ref)
 * against hand-computed expectations; "no effect" is checked by comparing a
 * fingerprint of every page of the ranges involved plus the VRAM accounting
 * before and after a failing command.
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
#define GiB  (1024ull * MiB)
#define PAGE (4 * KiB)
#define TILE (64 * KiB)

#define VRAM_BYTES   (32 * MiB)
#define HW_ASIDS     4u
#define NODES_PER_AS 64u

static int setup_with(uint64_t vram, uint32_t asids)
{
    vidmm_sim_init(&sim, vram, asids, NODES_PER_AS);
    return 0;
}

static int setup(void **state)
{
    (void)state;
    return setup_with(VRAM_BYTES, HW_ASIDS);
}

static int setup_small(void **state)
{
    (void)state;
    return setup_with(MiB, HW_ASIDS);
}

static int setup_full_asids(void **state)
{
    (void)state;
    return setup_with(VRAM_BYTES, GMMU_ASIDS);
}

/* ------------------------------------------------------------ wire helpers */

static uint32_t alloc_req(const struct gmmu_alloc_req *req, struct gmmu_alloc_rsp *rsp)
{
    struct gmmu_alloc_rsp dummy;

    return call(GMMU_OP_ALLOC, req, sizeof(*req), rsp ? rsp : &dummy, sizeof(*rsp));
}

static uint32_t alloc(uint64_t size, uint32_t flags, uint32_t *handle)
{
    struct gmmu_alloc_req req = { .size = size, .flags = flags };
    struct gmmu_alloc_rsp rsp;
    uint32_t st = alloc_req(&req, &rsp);

    if (st == GMMU_STATUS_OK && handle)
        *handle = rsp.handle;
    return st;
}

static uint32_t alloc_sys(uint64_t sys_addr, uint64_t size, uint32_t *handle)
{
    struct gmmu_alloc_req req = { .size = size,
                                  .flags = GMMU_ALLOC_FLAG_SYSTEM,
                                  .sys_addr = sys_addr };
    struct gmmu_alloc_rsp rsp;
    uint32_t st = alloc_req(&req, &rsp);

    if (st == GMMU_STATUS_OK)
        *handle = rsp.handle;
    return st;
}

static uint32_t free_alloc(uint32_t handle)
{
    struct gmmu_handle_req req = { .handle = handle };

    return call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0);
}

static uint32_t create_as(uint32_t *handle, uint32_t *asid)
{
    struct gmmu_as_rsp rsp;
    uint32_t st = call(GMMU_OP_CREATE_AS, NULL, 0, &rsp, sizeof(rsp));

    if (st == GMMU_STATUS_OK) {
        *handle = rsp.handle;
        if (asid)
            *asid = rsp.asid;
    }
    return st;
}

static uint32_t destroy_as(uint32_t handle)
{
    struct gmmu_handle_req req = { .handle = handle };

    return call(GMMU_OP_DESTROY_AS, &req, sizeof(req), NULL, 0);
}

static uint32_t map_full(const struct gmmu_map_req *req, uint64_t *va)
{
    struct gmmu_va_rsp rsp;
    uint32_t st = call(GMMU_OP_MAP_VA, req, sizeof(*req), &rsp, sizeof(rsp));

    if (st == GMMU_STATUS_OK && va)
        *va = rsp.va;
    return st;
}

static uint32_t map(uint32_t as, uint32_t al, uint64_t offset, uint64_t size, uint64_t va,
                    uint32_t flags, uint64_t *out)
{
    struct gmmu_map_req req = {
        .as_handle = as,
        .alloc_handle = al,
        .offset = offset,
        .size = size,
        .va = va,
        .flags = flags,
    };

    return map_full(&req, out);
}

static uint32_t unmap(uint32_t as, uint64_t va, uint64_t size)
{
    struct gmmu_range_req req = { .as_handle = as, .va = va, .size = size };

    return call(GMMU_OP_UNMAP_VA, &req, sizeof(req), NULL, 0);
}

static uint32_t reserve(uint32_t as, uint64_t va, uint64_t size, uint64_t *out)
{
    struct gmmu_reserve_req req = {
        .as_handle = as,
        .flags = va ? GMMU_MAP_FLAG_FIXED_VA : 0,
        .va = va,
        .size = size,
    };
    struct gmmu_va_rsp rsp;
    uint32_t st = call(GMMU_OP_RESERVE_VA, &req, sizeof(req), &rsp, sizeof(rsp));

    if (st == GMMU_STATUS_OK && out)
        *out = rsp.va;
    return st;
}

static uint32_t update(uint32_t as, const struct gmmu_update_op *ops, uint32_t n)
{
    static uint8_t buf[GMMU_MSG_MAX_BYTES];
    struct gmmu_update_req req = { .as_handle = as, .count = n };

    memcpy(buf, &req, sizeof(req));
    if (n)
        memcpy(buf + sizeof(req), ops, n * sizeof(*ops));
    return call(GMMU_OP_UPDATE_VA, buf, (uint32_t)(sizeof(req) + n * sizeof(*ops)), NULL, 0);
}

static struct gmmu_update_op op_map(uint64_t va, uint64_t size, uint32_t al, uint64_t off,
                                    uint32_t flags)
{
    return (struct gmmu_update_op){ .op = GMMU_UPDATE_OP_MAP,
                                    .flags = flags,
                                    .va = va,
                                    .size = size,
                                    .alloc_handle = al,
                                    .arg = off };
}

static struct gmmu_update_op op_unmap(uint64_t va, uint64_t size, bool zero)
{
    return (struct gmmu_update_op){
        .op = GMMU_UPDATE_OP_UNMAP, .va = va, .size = size, .flags = zero ? GMMU_MAP_FLAG_ZERO : 0
    };
}

static struct gmmu_update_op op_copy(uint64_t dst, uint64_t src, uint64_t size)
{
    return (
        struct gmmu_update_op){ .op = GMMU_UPDATE_OP_COPY, .va = dst, .size = size, .arg = src };
}

static struct gmmu_update_op op_protect(uint64_t va, uint64_t size, uint32_t flags)
{
    return (struct gmmu_update_op){
        .op = GMMU_UPDATE_OP_PROTECT, .va = va, .size = size, .flags = flags
    };
}

static uint32_t query(uint32_t as, uint64_t va, struct gmmu_query_rsp *rsp)
{
    struct gmmu_query_req req = { .as_handle = as, .va = va };

    return call(GMMU_OP_QUERY_VA, &req, sizeof(req), rsp, sizeof(*rsp));
}

static struct gmmu_vram_rsp vram(void)
{
    struct gmmu_vram_rsp rsp;

    assert_int_equal(call(GMMU_OP_GET_VRAM, NULL, 0, &rsp, sizeof(rsp)), GMMU_STATUS_OK);
    return rsp;
}

/* ------------------------------------------------------------ translation helpers */

static uint64_t root_of(uint32_t as)
{
    uint64_t root;
    uint32_t id;

    assert_true(vidmm_as_info(sim.vm, as, &root, &id));
    return root;
}

static uint32_t asid_of(uint32_t as)
{
    uint64_t root;
    uint32_t id;

    assert_true(vidmm_as_info(sim.vm, as, &root, &id));
    return id;
}

static void expect_mapped(uint32_t as, uint64_t va, unsigned segment, uint64_t pa, unsigned shift)
{
    struct gmmu_ref_result r = walk(as, va);

    if (r.fault != GMMU_FAULT_NONE || r.zero || r.segment != segment || r.pa != pa ||
        r.page_shift != shift)
        fail_msg("va 0x%llx: fault %s zero %d seg %u pa 0x%llx shift %u; expected seg %u "
                 "pa 0x%llx shift %u",
                 (unsigned long long)va, gmmu_ref_fault_name(r.fault), r.zero, r.segment,
                 (unsigned long long)r.pa, r.page_shift, segment, (unsigned long long)pa, shift);
}

static void expect_invalid(uint32_t as, uint64_t va)
{
    struct gmmu_ref_result r = walk(as, va);

    if (r.fault != GMMU_FAULT_INVALID)
        fail_msg("va 0x%llx: fault %s pa 0x%llx, expected INVALID", (unsigned long long)va,
                 gmmu_ref_fault_name(r.fault), (unsigned long long)r.pa);
}

static void expect_zero(uint32_t as, uint64_t va)
{
    struct gmmu_ref_result r = walk(as, va);

    if (r.fault != GMMU_FAULT_NONE || !r.zero)
        fail_msg("va 0x%llx: fault %s zero %d, expected a Zero page", (unsigned long long)va,
                 gmmu_ref_fault_name(r.fault), r.zero);
}

/* Every page of [lo, hi) of an address space plus the VRAM state, hashed. */
static uint64_t fingerprint(uint32_t as, uint64_t lo, uint64_t hi)
{
    struct gmmu_vram_rsp v = vram();
    uint64_t h = 1469598103934665603ull;

    h = (h ^ v.free_bytes) * 1099511628211ull;
    h = (h ^ v.tables) * 1099511628211ull;
    h = (h ^ v.allocations) * 1099511628211ull;
    for (uint64_t va = lo; va < hi; va += PAGE) {
        struct gmmu_ref_result r = walk(as, va);

        h = (h ^ r.fault) * 1099511628211ull;
        h = (h ^ r.pa ^ (uint64_t)r.zero << 63) * 1099511628211ull;
        h = (h ^ r.page_shift ^ r.read_only << 8 ^ r.no_execute << 9 ^ r.cache_coherent << 10) *
            1099511628211ull;
    }
    return h;
}

/* The VRAM report is what it was. */
static void expect_vram(const struct gmmu_vram_rsp *before)
{
    struct gmmu_vram_rsp now = vram();

    assert_int_equal(now.segment_bytes, before->segment_bytes);
    assert_int_equal(now.free_bytes, before->free_bytes);
    assert_int_equal(now.largest_free, before->largest_free);
    assert_int_equal(now.table_bytes, before->table_bytes);
    assert_int_equal(now.tables, before->tables);
    assert_int_equal(now.allocations, before->allocations);
    assert_int_equal(now.address_spaces, before->address_spaces);
}

/* ------------------------------------------------------------ records */

static uint32_t records_free(void)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++)
        n += sim.vm->records[i].kind == VIDMM_REC_FREE;
    return n;
}

/* What the records say (a free record says nothing), hashed. */
static uint64_t records_print(void)
{
    uint64_t h = 1469598103934665603ull;

    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++) {
        const struct vidmm_record *r = &sim.vm->records[i];

        h = (h ^ r->kind) * 1099511628211ull;
        if (r->kind == VIDMM_REC_FREE)
            continue;
        h = (h ^ r->va) * 1099511628211ull;
        h = (h ^ r->size) * 1099511628211ull;
        h = (h ^ r->alloc ^ (uint64_t)r->as << 16) * 1099511628211ull;
    }
    return h;
}

/* Takes records with 4 KB mappings of one host page, in address spaces of
   its own, until `keep` are left free; hog_release gives one back. */
struct hog {
    uint32_t sys, as[VIDMM_MAX_RECORDS / (NODES_PER_AS - 8) + 2], n_as, in_last;
    uint64_t va[NODES_PER_AS];
};

static uint32_t must_as(void);

static void hog_fill(struct hog *h, uint32_t keep)
{
    if (!h->sys)
        assert_int_equal(alloc_sys(0x80000000, PAGE, &h->sys), GMMU_STATUS_OK);
    while (records_free() > keep) {
        if (!h->n_as || h->in_last == NODES_PER_AS - 8) {
            h->as[h->n_as++] = must_as();
            h->in_last = 0;
        }
        assert_int_equal(map(h->as[h->n_as - 1], h->sys, 0, PAGE, 0, 0, &h->va[h->in_last]),
                         GMMU_STATUS_OK);
        h->in_last++;
    }
    assert_int_equal(records_free(), keep);
}

static void hog_release(struct hog *h)
{
    assert_true(h->in_last > 0);
    h->in_last--;
    assert_int_equal(unmap(h->as[h->n_as - 1], h->va[h->in_last], PAGE), GMMU_STATUS_OK);
}

static uint32_t must_alloc(uint64_t size, uint32_t flags)
{
    uint32_t h = 0;

    assert_int_equal(alloc(size, flags, &h), GMMU_STATUS_OK);
    return h;
}

static uint32_t must_as(void)
{
    uint32_t h = 0;

    assert_int_equal(create_as(&h, NULL), GMMU_STATUS_OK);
    return h;
}

static uint64_t contig_base(uint64_t size, uint32_t *handle)
{
    struct gmmu_alloc_req req = { .size = size, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    struct gmmu_alloc_rsp rsp;

    assert_int_equal(alloc_req(&req, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.extents, 1);
    *handle = rsp.handle;
    return rsp.base;
}

/* ------------------------------------------------------------ handles */

static void test_handles(void **state)
{
    uint32_t a, b, as, as2;

    (void)state;
    a = must_alloc(PAGE, 0);
    as = must_as();
    assert_int_not_equal(a, 0);
    assert_int_not_equal(as, 0);
    assert_int_equal(free_alloc(0), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(free_alloc(0xDEADBEEF), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(free_alloc(as), GMMU_STATUS_BAD_HANDLE); /* an AS is not an allocation */
    assert_int_equal(destroy_as(a), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(map(a, as, 0, PAGE, 0, 0, NULL), GMMU_STATUS_BAD_HANDLE);

    assert_int_equal(free_alloc(a), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(a), GMMU_STATUS_BAD_HANDLE); /* double free */
    b = must_alloc(PAGE, 0);                                 /* same slot, new generation */
    assert_int_not_equal(a, b);
    assert_int_equal(map(as, a, 0, PAGE, 0, 0, NULL), GMMU_STATUS_BAD_HANDLE); /* stale */
    assert_int_equal(map(as, b, 0, PAGE, 0, 0, NULL), GMMU_STATUS_OK);

    assert_int_equal(destroy_as(as), GMMU_STATUS_OK);
    assert_int_equal(destroy_as(as), GMMU_STATUS_BAD_HANDLE);
    as2 = must_as();
    assert_int_not_equal(as, as2);
    assert_int_equal(reserve(as, 0, TILE, NULL), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(free_alloc(b), GMMU_STATUS_OK);
    assert_int_equal(destroy_as(as2), GMMU_STATUS_OK);

    /* Reserved fields of the handle request. */
    struct gmmu_handle_req req = { .handle = must_alloc(PAGE, 0), .reserved = 1 };

    assert_int_equal(call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0), GMMU_STATUS_INVALID_ARGUMENT);
    req.reserved = 0;
    assert_int_equal(call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
}

/* ------------------------------------------------------------ ALLOC */

static void test_alloc_plain_and_64k(void **state)
{
    struct gmmu_alloc_req req = { .size = 2 * MiB + 64 * KiB + PAGE };
    struct gmmu_alloc_rsp rsp;
    struct gmmu_vram_rsp before = vram(), after;

    (void)state;
    assert_int_equal(alloc_req(&req, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.size, req.size);
    /* On an empty segment the 2 MB, 64 KB and 4 KB blocks are consecutive. */
    assert_int_equal(rsp.extents, 1);
    assert_int_equal(rsp.base % (2 * MiB), 0);
    after = vram();
    assert_int_equal(before.free_bytes - after.free_bytes, req.size);
    assert_int_equal(after.allocations, 1);

    /* PREFER_64K rounds the backing up to whole 64 KB pages. */
    req = (struct gmmu_alloc_req){ .size = 68 * KiB, .flags = GMMU_ALLOC_FLAG_PREFER_64K };
    assert_int_equal(alloc_req(&req, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.size, 128 * KiB);
    assert_int_equal(rsp.base % TILE, 0);
    assert_int_equal(after.free_bytes - vram().free_bytes, 128 * KiB);
}

static void test_alloc_contiguous(void **state)
{
    struct gmmu_alloc_req req = {
        .size = 3 * 64 * KiB,
        .flags = GMMU_ALLOC_FLAG_CONTIGUOUS,
        .lowest = 5 * MiB + 123,
        .highest = 6 * MiB - 1,
        .boundary = 1 * MiB,
    };
    struct gmmu_alloc_rsp rsp;
    struct gmmu_vram_rsp before;

    (void)state;
    assert_int_equal(alloc_req(&req, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.extents, 1);
    assert_true(rsp.base >= 5 * MiB + PAGE); /* lowest rounds up to a page */
    assert_true(rsp.base + rsp.size - 1 <= req.highest);
    assert_int_equal(rsp.base / MiB, (rsp.base + rsp.size - 1) / MiB); /* no 1 MB crossing */

    /* A second one that must fit in the same window. */
    assert_int_equal(alloc_req(&req, &rsp), GMMU_STATUS_OK);
    assert_true(rsp.base >= 5 * MiB && rsp.base + rsp.size <= 6 * MiB);

    before = vram();
    /* Impossible whatever is free: larger than the boundary, window too
       small, lowest above highest, beyond the segment, bad boundary. */
    req.size = 2 * MiB;
    assert_int_equal(alloc_req(&req, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    req = (struct gmmu_alloc_req){
        .size = 2 * MiB, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS, .lowest = 1 * MiB, .highest = 2 * MiB
    };
    assert_int_equal(alloc_req(&req, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    req.lowest = 8 * MiB;
    req.highest = 4 * MiB;
    assert_int_equal(alloc_req(&req, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    req.lowest = VRAM_BYTES;
    req.highest = 0;
    assert_int_equal(alloc_req(&req, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    req.lowest = 0;
    req.boundary = 3 * MiB;
    assert_int_equal(alloc_req(&req, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    /* Possible in principle, but that window is taken now. */
    req = (struct gmmu_alloc_req){ .size = 1 * MiB,
                                   .flags = GMMU_ALLOC_FLAG_CONTIGUOUS,
                                   .lowest = 5 * MiB,
                                   .highest = 6 * MiB - 1 };
    assert_int_equal(alloc_req(&req, NULL), GMMU_STATUS_NO_MEMORY);
    expect_vram(&before);
}

static void test_alloc_system(void **state)
{
    struct gmmu_alloc_req req = { .size = 5 * PAGE,
                                  .flags = GMMU_ALLOC_FLAG_SYSTEM,
                                  .sys_addr = 0x123456789000ull };
    struct gmmu_alloc_rsp rsp;
    uint64_t free_before = vram().free_bytes;

    (void)state;
    assert_int_equal(alloc_req(&req, &rsp), GMMU_STATUS_OK);
    assert_int_equal(rsp.base, req.sys_addr);
    assert_int_equal(rsp.extents, 1);
    assert_int_equal(vram().free_bytes, free_before); /* no VRAM taken */
    req.sys_addr = 0x1001;
    assert_int_equal(alloc_req(&req, NULL), GMMU_STATUS_UNALIGNED);
    req.sys_addr = (1ull << 52) - PAGE;
    assert_int_equal(alloc_req(&req, NULL), GMMU_STATUS_OUT_OF_RANGE);
    req.sys_addr = 0x1000;
    req.lowest = 1;
    assert_int_equal(alloc_req(&req, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(free_alloc(rsp.handle), GMMU_STATUS_OK);
}

static void test_alloc_bad_requests(void **state)
{
    const struct gmmu_alloc_req bad[] = {
        { .size = 0 },
        { .size = PAGE, .flags = 0x20 }, /* unknown flag */
        { .size = PAGE, .reserved = 1 },
        { .size = PAGE, .lowest = PAGE }, /* constraints, not contiguous */
        { .size = PAGE, .boundary = MiB },
        { .size = PAGE, .sys_addr = PAGE }, /* host address, not system */
    };

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(alloc_req(&bad[i], NULL), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(alloc(PAGE + 1, 0, NULL), GMMU_STATUS_UNALIGNED);
    assert_int_equal(vram().allocations, 0);
    assert_int_equal(vidmm_sim_used(&sim), 0);
}

static void test_alloc_exhausted(void **state)
{
    struct gmmu_vram_rsp before;
    uint32_t big, as = must_as(), slots = 0;

    (void)state;
    big = must_alloc(VRAM_BYTES - 4 * MiB, 0);
    before = vram();
    assert_int_equal(alloc(8 * MiB, 0, NULL), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(alloc(8 * MiB, GMMU_ALLOC_FLAG_CONTIGUOUS, NULL), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(alloc(VRAM_BYTES * 2, 0, NULL), GMMU_STATUS_NO_MEMORY);
    expect_vram(&before);
    assert_int_equal(free_alloc(big), GMMU_STATUS_OK);

    /* Handles run out before anything else with system allocations. */
    for (uint32_t h; alloc_sys(0x10000000, PAGE, &h) == GMMU_STATUS_OK;)
        slots++;
    assert_int_equal(slots, VIDMM_MAX_ALLOCS);
    assert_int_equal(alloc(PAGE, 0, NULL), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(vram().allocations, VIDMM_MAX_ALLOCS);
    (void)as;
}

/* Pieces of one allocation are bounded: a request that would need more on
   a fragmented segment fails whole. */
static void test_alloc_extent_limit(void **state)
{
    uint32_t hole[2 * VIDMM_ALLOC_EXTENTS + 2], n = 0, h;
    struct gmmu_vram_rsp before;

    (void)state;
    /* Alternate used and freed 4 KB pages: every free page is alone. */
    for (n = 0; n < sizeof(hole) / sizeof(hole[0]); n++)
        hole[n] = must_alloc(PAGE, 0);
    h = must_alloc(VRAM_BYTES - vidmm_sim_used(&sim), 0); /* the rest */
    for (uint32_t i = 0; i < n; i += 2)
        assert_int_equal(free_alloc(hole[i]), GMMU_STATUS_OK);
    before = vram();
    assert_int_equal(alloc((VIDMM_ALLOC_EXTENTS + 1) * PAGE, 0, NULL), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(vram().free_bytes, before.free_bytes);
    assert_int_equal(alloc(VIDMM_ALLOC_EXTENTS * PAGE, 0, &h), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(h), GMMU_STATUS_OK);
}

/* ------------------------------------------------------------ MAP_VA */

static void test_map_fixed_contiguous(void **state)
{
    uint32_t as = must_as(), al;
    uint64_t base = contig_base(4 * MiB, &al), va = 0;

    (void)state;
    assert_int_equal(base % (2 * MiB), 0);
    /* 2 MB aligned VA and PA: 2 MB pages. */
    assert_int_equal(map(as, al, 0, 4 * MiB, 1 * GiB, GMMU_MAP_FLAG_FIXED_VA, &va), GMMU_STATUS_OK);
    assert_int_equal(va, 1 * GiB);
    expect_mapped(as, 1 * GiB + 0x1234, GMMU_SEGMENT_VRAM, base + 0x1234, 21);
    expect_mapped(as, 1 * GiB + 3 * MiB, GMMU_SEGMENT_VRAM, base + 3 * MiB, 21);
    expect_invalid(as, 1 * GiB + 4 * MiB);
    expect_invalid(as, 1 * GiB - PAGE);

    /* Part of it, 64 KB pages only, read-only and no-execute. */
    struct gmmu_map_req req = {
        .as_handle = as,
        .alloc_handle = al,
        .offset = 128 * KiB,
        .size = 256 * KiB,
        .va = 2 * GiB,
        .page_sizes = PTM_PAGE_64K,
        .flags = GMMU_MAP_FLAG_FIXED_VA | GMMU_MAP_FLAG_READ_ONLY | GMMU_MAP_FLAG_NO_EXECUTE,
    };
    struct gmmu_ref_result r;

    assert_int_equal(map_full(&req, &va), GMMU_STATUS_OK);
    expect_mapped(as, 2 * GiB + 100 * KiB, GMMU_SEGMENT_VRAM, base + 228 * KiB, 16);
    r = walk(as, 2 * GiB);
    assert_true(r.read_only && r.no_execute && !r.cache_coherent);
    vidmm_sim_walk(&sim, root_of(as), 2 * GiB, GMMU_ACCESS_WRITE, &r);
    assert_int_equal(r.fault, GMMU_FAULT_READ_ONLY);

    /* 4 KB pages only. */
    req.va = 3 * GiB;
    req.page_sizes = PTM_PAGE_4K;
    req.flags = GMMU_MAP_FLAG_FIXED_VA | GMMU_MAP_FLAG_CACHE_COHERENT;
    assert_int_equal(map_full(&req, NULL), GMMU_STATUS_OK);
    expect_mapped(as, 3 * GiB + 8 * KiB, GMMU_SEGMENT_VRAM, base + 136 * KiB, 12);
    assert_true(walk(as, 3 * GiB).cache_coherent);
}

static void test_map_auto_alignment(void **state)
{
    uint32_t as = must_as(), big, small, sys;
    uint64_t va_big, va_small, va_sys, base_big = contig_base(2 * MiB, &big);

    (void)state;
    small = must_alloc(64 * KiB, 0);
    assert_int_equal(map(as, small, 0, 64 * KiB, 0, 0, &va_small), GMMU_STATUS_OK);
    assert_int_equal(map(as, big, 0, 2 * MiB, 0, 0, &va_big), GMMU_STATUS_OK);
    assert_int_equal(va_small % (64 * KiB), 0);
    assert_int_not_equal(va_small, 0); /* the NULL page stays unmapped */
    assert_int_equal(va_big % (2 * MiB), 0);
    expect_mapped(as, va_big + 5 * PAGE, GMMU_SEGMENT_VRAM, base_big + 5 * PAGE, 21);

    /* A host buffer at 0x...5000: the VA gets the same offset in its 64 KB
       page, so the middle of the mapping uses 64 KB pages. */
    assert_int_equal(alloc_sys(0x7654325000ull, 256 * KiB, &sys), GMMU_STATUS_OK);
    assert_int_equal(map(as, sys, 0, 256 * KiB, 0, 0, &va_sys), GMMU_STATUS_OK);
    assert_int_equal(va_sys % (64 * KiB), 0x5000);
    expect_mapped(as, va_sys, GMMU_SEGMENT_SYSTEM, 0x7654325000ull, 12);
    expect_mapped(as, va_sys + 0xB000 + 0x10, GMMU_SEGMENT_SYSTEM, 0x7654330010ull, 16);
}

/*
 * Automatic placement takes the lowest free VA congruent to the PA modulo
 * the largest usable page (values worked out by hand; page 0 is never
 * handed out, so an empty space starts at 0x1000).
 */
static void test_map_auto_lowest_congruent(void **state)
{
    uint32_t as = must_as(), as2 = must_as(), al, big;
    uint64_t base = contig_base(128 * KiB, &al), base_big = contig_base(4 * MiB, &big), va;

    (void)state;
    assert_int_equal(base % (64 * KiB), 0);
    assert_int_equal(base_big % (2 * MiB), 0);
    /* 64 KB pages, PA 0x4000 into one: 0x4000, not 0x14000. */
    assert_int_equal(map(as, al, 16 * KiB, 64 * KiB, 0, 0, &va), GMMU_STATUS_OK);
    assert_int_equal(va, 0x4000);
    expect_mapped(as, 0x4000, GMMU_SEGMENT_VRAM, base + 0x4000, 12);
    expect_mapped(as, 0x13000, GMMU_SEGMENT_VRAM, base + 0x13000, 12);
    /* Free VA is [0x1000, 0x4000) and [0x14000, ...): phase 0 lands on
       0x20000; phase 0x8000 does not fit before 0x20000, so 0x38000. */
    assert_int_equal(map(as, al, 0, 64 * KiB, 0, 0, &va), GMMU_STATUS_OK);
    assert_int_equal(va, 0x20000);
    expect_mapped(as, 0x20000, GMMU_SEGMENT_VRAM, base, 16);
    assert_int_equal(map(as, al, 32 * KiB, 64 * KiB, 0, 0, &va), GMMU_STATUS_OK);
    assert_int_equal(va, 0x38000);
    /* 4 KB pages: the lowest free page. */
    assert_int_equal(map(as, al, 8 * KiB, 8 * KiB, 0, 0, &va), GMMU_STATUS_OK);
    assert_int_equal(va, 0x1000);
    /* 2 MB pages, PA 64 KB into one: 0x10000, not 0x210000; the 64 KB
       pages before the 2 MB boundary keep the PA's 64 KB alignment. */
    assert_int_equal(map(as2, big, 64 * KiB, 2 * MiB, 0, 0, &va), GMMU_STATUS_OK);
    assert_int_equal(va, 0x10000);
    expect_mapped(as2, 0x10000, GMMU_SEGMENT_VRAM, base_big + 64 * KiB, 16);
    expect_mapped(as2, 0x200000, GMMU_SEGMENT_VRAM, base_big + 2 * MiB, 16);
}

static void test_map_errors(void **state)
{
    uint32_t as = must_as(), al = must_alloc(64 * KiB, 0);
    uint64_t va, fp;

    (void)state;
    assert_int_equal(map(as, al, 0, 64 * KiB, 1 * GiB, GMMU_MAP_FLAG_FIXED_VA, &va),
                     GMMU_STATUS_OK);
    fp = fingerprint(as, 1 * GiB - 128 * KiB, 1 * GiB + 256 * KiB);
    /* Overlap, whole or partial. */
    assert_int_equal(map(as, al, 0, 64 * KiB, 1 * GiB, GMMU_MAP_FLAG_FIXED_VA, NULL),
                     GMMU_STATUS_OVERLAP);
    assert_int_equal(map(as, al, 0, 64 * KiB, 1 * GiB - 32 * KiB, GMMU_MAP_FLAG_FIXED_VA, NULL),
                     GMMU_STATUS_OVERLAP);
    /* Unaligned VA, offset or size. */
    assert_int_equal(map(as, al, 0, PAGE, 2 * GiB + 1, GMMU_MAP_FLAG_FIXED_VA, NULL),
                     GMMU_STATUS_UNALIGNED);
    assert_int_equal(map(as, al, 1, PAGE, 0, 0, NULL), GMMU_STATUS_UNALIGNED);
    assert_int_equal(map(as, al, 0, PAGE + 512, 0, 0, NULL), GMMU_STATUS_UNALIGNED);
    /* Outside the allocation or the address space, or at the NULL page. */
    assert_int_equal(map(as, al, 60 * KiB, 8 * KiB, 0, 0, NULL), GMMU_STATUS_OUT_OF_RANGE);
    assert_int_equal(map(as, al, 128 * KiB, PAGE, 0, 0, NULL), GMMU_STATUS_OUT_OF_RANGE);
    assert_int_equal(map(as, al, 0, PAGE, 1ull << 48, GMMU_MAP_FLAG_FIXED_VA, NULL),
                     GMMU_STATUS_OUT_OF_RANGE);
    assert_int_equal(map(as, al, 0, 2 * PAGE, (1ull << 48) - PAGE, GMMU_MAP_FLAG_FIXED_VA, NULL),
                     GMMU_STATUS_OUT_OF_RANGE);
    assert_int_equal(map(as, al, 0, PAGE, 0, GMMU_MAP_FLAG_FIXED_VA, NULL),
                     GMMU_STATUS_OUT_OF_RANGE);
    /* Flags and fields the opcode does not take. */
    assert_int_equal(map(as, al, 0, PAGE, 0, GMMU_MAP_FLAG_ZERO, NULL),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(map(as, al, 0, PAGE, 0, 1u << 7, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(map(as, al, 0, PAGE, 4 * GiB, 0, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(map(as, al, 0, 0, 0, 0, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    struct gmmu_map_req req = {
        .as_handle = as, .alloc_handle = al, .size = PAGE, .page_sizes = 1u << 4
    };

    assert_int_equal(map_full(&req, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    /* 64 KB pages only, at a VA that is not 64 KB aligned. */
    req = (struct gmmu_map_req){ .as_handle = as,
                                 .alloc_handle = al,
                                 .size = 64 * KiB,
                                 .va = 3 * GiB + PAGE,
                                 .flags = GMMU_MAP_FLAG_FIXED_VA,
                                 .page_sizes = PTM_PAGE_64K };
    assert_int_equal(map_full(&req, NULL), GMMU_STATUS_UNALIGNED);
    assert_int_equal(fingerprint(as, 1 * GiB - 128 * KiB, 1 * GiB + 256 * KiB), fp);
    expect_invalid(as, 3 * GiB + PAGE);
}

/* A MAP that needs page tables the segment cannot give fails whole. */
static void test_map_no_vram(void **state)
{
    uint32_t as = must_as(), al = must_alloc(PAGE, 0), filler, keep[64], n = 0;
    uint64_t fp;

    (void)state;
    filler = must_alloc(VRAM_BYTES - vidmm_sim_used(&sim) - 16 * PAGE, 0);
    while (n < 64 && alloc(PAGE, 0, &keep[n]) == GMMU_STATUS_OK)
        n++;
    assert_int_equal(vram().free_bytes, 0);
    fp = fingerprint(as, 5 * GiB, 5 * GiB + 16 * PAGE);
    /* Tables for a new 512 GB, 1 GB and 2 MB region are needed. */
    assert_int_equal(map(as, al, 0, PAGE, 5 * GiB, GMMU_MAP_FLAG_FIXED_VA, NULL),
                     GMMU_STATUS_NO_MEMORY);
    assert_int_equal(fingerprint(as, 5 * GiB, 5 * GiB + 16 * PAGE), fp);
    /* The VA did not stay taken. */
    assert_int_equal(free_alloc(keep[0]), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(keep[1]), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(keep[2]), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(keep[3]), GMMU_STATUS_OK);
    assert_int_equal(map(as, al, 0, PAGE, 5 * GiB, GMMU_MAP_FLAG_FIXED_VA, NULL), GMMU_STATUS_OK);
    (void)filler;
}

/* ------------------------------------------------------------ UNMAP / FREE */

static void test_unmap_va(void **state)
{
    uint32_t as = must_as(), al = must_alloc(128 * KiB, 0);
    uint64_t va, rsv;

    (void)state;
    assert_int_equal(map(as, al, 0, 128 * KiB, 0, 0, &va), GMMU_STATUS_OK);
    assert_int_equal(reserve(as, 0, 256 * KiB, &rsv), GMMU_STATUS_OK);
    /* Only a whole mapping or reservation, by its start and size. */
    assert_int_equal(unmap(as, va, 64 * KiB), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(unmap(as, va + 64 * KiB, 64 * KiB), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(unmap(as, va, 256 * KiB), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(unmap(as, va + 1, 128 * KiB), GMMU_STATUS_UNALIGNED);
    assert_int_equal(unmap(as, va, 0), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(unmap(as ^ 1, va, 128 * KiB), GMMU_STATUS_BAD_HANDLE);
    assert_int_not_equal(walk(as, va).fault, GMMU_FAULT_INVALID);
    assert_int_equal(unmap(as, va, 128 * KiB), GMMU_STATUS_OK);
    expect_invalid(as, va);
    expect_invalid(as, va + 124 * KiB);
    assert_int_equal(unmap(as, va, 128 * KiB), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(unmap(as, rsv, 256 * KiB), GMMU_STATUS_OK);
    assert_int_equal(unmap(as, rsv, 256 * KiB), GMMU_STATUS_INVALID_ARGUMENT);
    struct gmmu_range_req req = { .as_handle = as, .flags = 2, .va = va, .size = PAGE };

    assert_int_equal(call(GMMU_OP_UNMAP_VA, &req, sizeof(req), NULL, 0),
                     GMMU_STATUS_INVALID_ARGUMENT);
    /* The VA is free again. */
    assert_int_equal(map(as, al, 0, 128 * KiB, va, GMMU_MAP_FLAG_FIXED_VA, NULL), GMMU_STATUS_OK);
}

/* FREE unmaps the allocation from every address space: MAP_VA mappings
   and tiles in reserved ranges; other mappings stay. */
static void test_free_unmaps_everywhere(void **state)
{
    uint32_t as[3], al, other, n;
    uint64_t base = contig_base(256 * KiB, &al), va[3][2], rsv, obase;
    struct gmmu_vram_rsp start;

    (void)state;
    obase = contig_base(64 * KiB, &other);
    start = vram();
    for (n = 0; n < 3; n++) {
        as[n] = must_as();
        assert_int_equal(map(as[n], al, 0, 256 * KiB, 0, 0, &va[n][0]), GMMU_STATUS_OK);
        assert_int_equal(map(as[n], al, 64 * KiB, 64 * KiB, 0, 0, &va[n][1]), GMMU_STATUS_OK);
    }
    assert_int_equal(reserve(as[1], 0, 1 * MiB, &rsv), GMMU_STATUS_OK);
    struct gmmu_update_op ops[] = {
        op_map(rsv, 128 * KiB, al, 128 * KiB, 0),
        op_map(rsv + 256 * KiB, 64 * KiB, other, 0, 0),
        op_copy(rsv + 512 * KiB, rsv, 128 * KiB),
    };

    assert_int_equal(update(as[1], ops, 3), GMMU_STATUS_OK);
    expect_mapped(as[1], rsv + 512 * KiB + PAGE, GMMU_SEGMENT_VRAM, base + 132 * KiB, 16);
    expect_mapped(as[2], va[2][1], GMMU_SEGMENT_VRAM, base + 64 * KiB, 16);

    assert_int_equal(free_alloc(al), GMMU_STATUS_OK);
    for (n = 0; n < 3; n++) {
        expect_invalid(as[n], va[n][0]);
        expect_invalid(as[n], va[n][0] + 252 * KiB);
        expect_invalid(as[n], va[n][1]);
    }
    expect_invalid(as[1], rsv);
    expect_invalid(as[1], rsv + 512 * KiB + 64 * KiB);
    expect_mapped(as[1], rsv + 256 * KiB, GMMU_SEGMENT_VRAM, obase, 16);
    /* The VA is free for reuse; the reservation is still there. */
    assert_int_equal(map(as[0], other, 0, 64 * KiB, va[0][0], GMMU_MAP_FLAG_FIXED_VA, NULL),
                     GMMU_STATUS_OK);
    struct gmmu_update_op again = op_map(rsv, 64 * KiB, other, 0, 0);

    assert_int_equal(update(as[1], &again, 1), GMMU_STATUS_OK);
    for (n = 0; n < 3; n++)
        assert_int_equal(destroy_as(as[n]), GMMU_STATUS_OK);
    assert_int_equal(vram().free_bytes, start.free_bytes + 256 * KiB);
}

/* ------------------------------------------------------------ memory in use */

/* A submitted job of as needs [va, va + bytes) (the binding's va_in_use). */
static void job_needs(uint32_t as, uint64_t va, uint64_t bytes)
{
    sim.in_use[sim.in_use_n].as_handle = as;
    sim.in_use[sim.in_use_n].va = va;
    sim.in_use[sim.in_use_n].bytes = bytes;
    sim.in_use_n++;
}

/*
 * UNMAP_VA, UPDATE_VA and FREE never change a translation a submitted job
 * still needs: BUSY and nothing changed; the same commands on what no job
 * needs (another range, another space) go ahead; UNMAP_FLAG_UNDER_JOBS is
 * the host asking for it anyway.
 */
static void test_memory_in_use(void **state)
{
    uint32_t as = must_as(), other = must_as();
    uint32_t al = must_alloc(1 * MiB, 0), al2 = must_alloc(256 * KiB, 0);
    uint32_t tiled = must_alloc(256 * KiB, 0);
    uint64_t va, va_other, va2, rsv;

    (void)state;
    assert_int_equal(map(as, al, 0, 1 * MiB, 0, 0, &va), GMMU_STATUS_OK);
    assert_int_equal(map(other, al, 0, 1 * MiB, 0, 0, &va_other), GMMU_STATUS_OK);
    assert_int_equal(map(as, al2, 0, 256 * KiB, 0, 0, &va2), GMMU_STATUS_OK);
    assert_int_equal(reserve(as, 0, 1 * MiB, &rsv), GMMU_STATUS_OK);
    struct gmmu_update_op tiles = op_map(rsv, 128 * KiB, tiled, 0, 0);
    assert_int_equal(update(as, &tiles, 1), GMMU_STATUS_OK);
    /* One 64-byte chunk in the middle of the 1 MiB mapping, and the
       second tile of the reserved range. */
    job_needs(as, va + 512 * KiB, 64);
    job_needs(as, rsv + 64 * KiB + 4 * KiB, 64);
    uint64_t pa = walk(as, va).pa, tile_pa = walk(as, rsv + 64 * KiB).pa;
    uint32_t refused = sim.vm->counters.in_use_refusals;

    /* UNMAP_VA over the chunk: BUSY, still mapped. */
    assert_int_equal(unmap(as, va, 1 * MiB), GMMU_STATUS_BUSY);
    expect_mapped(as, va + 512 * KiB, GMMU_SEGMENT_VRAM, pa + 512 * KiB, 16);
    /* FREE of the allocation it maps (its mapping in `as` is needed),
       and of the tiled one (a needed tile points at it): BUSY. */
    assert_int_equal(free_alloc(al), GMMU_STATUS_BUSY);
    assert_int_equal(free_alloc(tiled), GMMU_STATUS_BUSY);
    expect_mapped(other, va_other, GMMU_SEGMENT_VRAM, pa, 16);
    /* A batch whose second operation changes the needed tile: BUSY, and
       its first operation was not applied either. */
    struct gmmu_update_op batch[] = {
        op_unmap(rsv, 64 * KiB, false),
        op_protect(rsv + 64 * KiB, 64 * KiB, GMMU_MAP_FLAG_READ_ONLY),
    };
    assert_int_equal(update(as, batch, 2), GMMU_STATUS_BUSY);
    expect_mapped(as, rsv, GMMU_SEGMENT_VRAM, tile_pa - 64 * KiB, 16);
    assert_int_equal(walk(as, rsv + 64 * KiB).read_only, 0);
    assert_int_equal(sim.vm->counters.in_use_refusals, refused + 4);
    assert_int_equal(sim.in_use_after, 0); /* a plain command orders nothing after it */

    /* What no job needs goes ahead: another mapping of the space, the
       same allocation in another space, the first tile alone. */
    assert_int_equal(unmap(as, va2, 256 * KiB), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(al2), GMMU_STATUS_OK);
    assert_int_equal(unmap(other, va_other, 1 * MiB), GMMU_STATUS_OK);
    assert_int_equal(update(as, batch, 1), GMMU_STATUS_OK);
    expect_invalid(as, rsv);

    /* The host orders the unmap before the job: it goes, the job would
       fault. FREE of al is then no longer held by anything. */
    struct gmmu_range_req req = {
        .as_handle = as, .flags = GMMU_UNMAP_FLAG_UNDER_JOBS, .va = va, .size = 1 * MiB
    };
    assert_int_equal(call(GMMU_OP_UNMAP_VA, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
    expect_invalid(as, va + 512 * KiB);
    assert_int_equal(free_alloc(al), GMMU_STATUS_OK);
    /* The job ended: the tile and its allocation may go. */
    sim.in_use_n = 0;
    assert_int_equal(update(as, &batch[1], 1), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(tiled), GMMU_STATUS_OK);
    expect_invalid(as, rsv + 64 * KiB);
}

/* ------------------------------------------------------------ ASIDs */

static void test_asid_recycling(void **state)
{
    uint32_t as[HW_ASIDS + 3], id, al = must_alloc(64 * KiB, 0);
    uint64_t full_before, va;
    struct gmmu_ref_result r;

    (void)state;
    for (uint32_t i = 0; i < HW_ASIDS; i++) {
        assert_int_equal(create_as(&as[i], &id), GMMU_STATUS_OK);
        assert_int_equal(id, i);
        assert_true(sim.as_table[i].valid);
        assert_int_equal(sim.as_table[i].root, root_of(as[i]));
        assert_int_equal(map(as[i], al, 0, 64 * KiB, 1 * GiB, GMMU_MAP_FLAG_FIXED_VA, NULL),
                         GMMU_STATUS_OK);
        vidmm_sim_access(&sim, i, 1 * GiB, &r); /* fills the TLB */
        assert_int_equal(r.fault, GMMU_FAULT_NONE);
    }
    /* Use the first one again: the second is now the least recently used. */
    assert_int_equal(map(as[0], al, 0, 64 * KiB, 0, 0, &va), GMMU_STATUS_OK);

    full_before = sim.full_invalidations;
    assert_int_equal(create_as(&as[HW_ASIDS], &id), GMMU_STATUS_OK);
    assert_int_equal(id, 1); /* taken from as[1] */
    assert_int_equal(asid_of(as[1]), VIDMM_NO_ASID);
    assert_int_equal(sim.as_table[1].root, root_of(as[HW_ASIDS]));
    assert_true(sim.as_table[1].valid);
    assert_int_equal(sim.full_invalidations, full_before + 1);
    assert_int_equal(sim.last_inv_asid, 1);
    /* as[1]'s cached translation went with the full invalidation. */
    vidmm_sim_access(&sim, 1, 1 * GiB, &r);
    assert_int_equal(r.fault, GMMU_FAULT_INVALID);

    /* Changing an address space without an id invalidates nothing; the
       command gives it an id again, from the least recently used (as[2]). */
    uint64_t inv_before = sim.invalidations;

    assert_int_equal(unmap(as[1], 1 * GiB, 64 * KiB), GMMU_STATUS_OK);
    assert_int_equal(asid_of(as[1]), 2);
    assert_int_equal(asid_of(as[2]), VIDMM_NO_ASID);
    assert_int_equal(sim.invalidations, inv_before + 1); /* only the id's full one */
    assert_int_equal(sim.as_table[2].root, root_of(as[1]));
    expect_invalid(as[1], 1 * GiB);
    expect_mapped(as[2], 1 * GiB, GMMU_SEGMENT_VRAM, walk(as[0], 1 * GiB).pa, 16);

    /* QUERY does not count as use. */
    struct gmmu_query_rsp q;

    assert_int_equal(query(as[3], 1 * GiB, &q), GMMU_STATUS_OK);
    assert_int_equal(create_as(&as[HW_ASIDS + 1], &id), GMMU_STATUS_OK);
    assert_int_equal(id, 3);

    /* Destroying one frees its id without taking another's. */
    assert_int_equal(destroy_as(as[0]), GMMU_STATUS_OK);
    assert_false(sim.as_table[0].valid);
    assert_int_equal(create_as(&as[HW_ASIDS + 2], &id), GMMU_STATUS_OK);
    assert_int_equal(id, 0);
    assert_int_equal(sim.vm->counters.asid_evictions, 3);
    for (uint32_t i = 1; i < HW_ASIDS + 3; i++)
        assert_int_equal(destroy_as(as[i]), GMMU_STATUS_OK);
    for (uint32_t i = 0; i < HW_ASIDS; i++)
        assert_false(sim.as_table[i].valid);
}

/* The id an engine runs under (the binding's asid_busy hook) is never
   lent to another space, and its space is not destroyed (BUSY) until the
   engine stops. */
static uint32_t busy_id = UINT32_MAX;

static bool sim_asid_busy(void *ctx, uint32_t asid)
{
    (void)ctx;
    return asid == busy_id;
}

static void test_busy_asid_is_kept(void **state)
{
    uint32_t as[HW_ASIDS + 1], id;

    (void)state;
    sim.hw.asid_busy = sim_asid_busy;
    for (uint32_t i = 0; i < HW_ASIDS; i++) {
        assert_int_equal(create_as(&as[i], &id), GMMU_STATUS_OK);
        assert_int_equal(id, i);
    }
    busy_id = 0; /* as[0], the least recently used */
    assert_int_equal(create_as(&as[HW_ASIDS], &id), GMMU_STATUS_OK);
    assert_int_equal(id, 1); /* the next least recently used */
    assert_int_equal(asid_of(as[0]), 0);
    assert_int_equal(asid_of(as[1]), VIDMM_NO_ASID);
    assert_true(sim.as_table[0].valid);
    assert_int_equal(sim.as_table[0].root, root_of(as[0]));

    assert_int_equal(destroy_as(as[0]), GMMU_STATUS_BUSY);
    assert_int_equal(asid_of(as[0]), 0);
    assert_true(sim.as_table[0].valid);
    assert_int_equal(vram().address_spaces, HW_ASIDS + 1);

    busy_id = UINT32_MAX; /* the engine stopped */
    for (uint32_t i = 0; i < HW_ASIDS + 1; i++)
        assert_int_equal(destroy_as(as[i]), GMMU_STATUS_OK);
    assert_int_equal(vidmm_sim_used(&sim), 0);
}

/* ------------------------------------------------------------ physical mode */

/* Engines in physical mode: a range is accepted only inside one live
   CONTIGUOUS allocation, and such an allocation is not freed (BUSY) while
   an engine runs over it (the binding's phys_busy hook). */
static uint64_t phys_busy_lo, phys_busy_len;

static bool sim_phys_busy(void *ctx, uint64_t offset, uint64_t bytes)
{
    (void)ctx;
    return phys_busy_len && phys_busy_lo < offset + bytes && offset < phys_busy_lo + phys_busy_len;
}

static void test_phys_range(void **state)
{
    const struct vidmm *vm;
    uint32_t c1, c2, c3;
    struct gmmu_alloc_req preq = { .size = 64 * KiB };
    struct gmmu_alloc_req sreq = { .size = 64 * KiB,
                                   .flags = GMMU_ALLOC_FLAG_SYSTEM,
                                   .sys_addr = 1ull << 40 };
    struct gmmu_alloc_rsp plain, sys;

    (void)state;
    sim.hw.phys_busy = sim_phys_busy;
    vm = sim.vm;
    uint64_t b1 = contig_base(64 * KiB, &c1);
    uint64_t b2 = contig_base(128 * KiB, &c2);
    assert_int_equal(alloc_req(&preq, &plain), GMMU_STATUS_OK);
    assert_int_equal(alloc_req(&sreq, &sys), GMMU_STATUS_OK);

    /* Inside, to the byte; empty ranges at either end. */
    assert_true(vidmm_phys_range_ok(vm, b1, 64 * KiB));
    assert_true(vidmm_phys_range_ok(vm, b1 + 64 * KiB - 64, 64));
    assert_true(vidmm_phys_range_ok(vm, b1, 0));
    assert_true(vidmm_phys_range_ok(vm, b1 + 64 * KiB, 0) || b2 == b1 + 64 * KiB);
    assert_true(vidmm_phys_range_ok(vm, b2 + 64, 128 * KiB - 64));
    /* Across the end (even into a neighbour), before the start. */
    assert_false(vidmm_phys_range_ok(vm, b1, 64 * KiB + 64));
    assert_false(vidmm_phys_range_ok(vm, b1 + 64 * KiB - 64, 128));
    assert_false(vidmm_phys_range_ok(vm, b2 - 64, 128 * KiB));
    assert_false(vidmm_phys_range_ok(vm, b2, 128 * KiB + 4096));
    /* Sums that would wrap. */
    assert_false(vidmm_phys_range_ok(vm, b1 + 64, UINT64_MAX - 63));
    assert_false(vidmm_phys_range_ok(vm, UINT64_MAX - 63, 64));
    /* Not AccessedPhysically: a plain VRAM allocation, a host buffer. */
    assert_false(vidmm_phys_range_ok(vm, plain.base, 4096));
    assert_false(vidmm_phys_range_ok(vm, plain.base + 4096, 0));
    assert_false(vidmm_phys_range_ok(vm, sys.base, 4096));

    /* An engine over c2: FREE is BUSY and changes nothing; c1 and the
       plain allocation free as usual. */
    phys_busy_lo = b2 + 4096;
    phys_busy_len = 64;
    assert_int_equal(free_alloc(c2), GMMU_STATUS_BUSY);
    assert_true(vidmm_phys_range_ok(vm, b2, 128 * KiB));
    assert_int_equal(free_alloc(plain.handle), GMMU_STATUS_OK);
    phys_busy_lo = b1;
    phys_busy_len = 64 * KiB;
    assert_int_equal(free_alloc(c1), GMMU_STATUS_BUSY);
    phys_busy_len = 0; /* the engines stopped */
    assert_int_equal(free_alloc(c1), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(c2), GMMU_STATUS_OK);
    /* Freed: refused, even when its block is handed out again as plain VRAM. */
    assert_false(vidmm_phys_range_ok(vm, b1, 64));
    assert_false(vidmm_phys_range_ok(vm, b2, 64));
    assert_int_equal(alloc(256 * KiB, 0, &c3), GMMU_STATUS_OK);
    assert_false(vidmm_phys_range_ok(vm, b1, 64));
    assert_int_equal(free_alloc(c3), GMMU_STATUS_OK);
    assert_int_equal(free_alloc(sys.handle), GMMU_STATUS_OK);
    assert_int_equal(vidmm_sim_used(&sim), 0);
}

/* ------------------------------------------------------------ ADD_BACKING */

static uint32_t add_backing(uint64_t sys_addr, uint64_t size)
{
    struct gmmu_backing_req req = { .sys_addr = sys_addr, .size = size };

    return call(GMMU_OP_ADD_BACKING, &req, sizeof(req), NULL, 0);
}

/* The platform reaches host memory below 1 TiB only. */
static uint64_t probes;

static bool sim_sys_reachable(void *ctx, uint64_t sys_addr)
{
    (void)ctx;
    probes++;
    return sys_addr < (UINT64_C(1) << 40);
}

/* Each refusal is specific and changes nothing; the pool's figures are in
 * GET_VRAM; the pool and SYSTEM allocations never share host memory. */
static void test_backing_pool(void **state)
{
    const uint64_t G = UINT64_C(1) << 30, K64 = 64 * KiB;
    uint32_t sys;

    (void)state;
    sim.hw.sys_reachable = sim_sys_reachable;
    assert_int_equal(vram().backing_ranges, 0);
    assert_int_equal(vram().backing_bytes, 0);

    assert_int_equal(add_backing(4 * G, 0), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(add_backing(4 * G + 4 * KiB, K64), GMMU_STATUS_UNALIGNED);
    assert_int_equal(add_backing(4 * G, K64 + 4 * KiB), GMMU_STATUS_UNALIGNED);
    /* Beyond what a PTE addresses, or wrapping: out of range. */
    assert_int_equal(add_backing(UINT64_MAX - K64 + 1, K64), GMMU_STATUS_OUT_OF_RANGE);
    assert_int_equal(add_backing(UINT64_C(1) << 52, K64), GMMU_STATUS_OUT_OF_RANGE);
    assert_int_equal(probes, 0); /* refused before the device tried it */
    /* Beyond what the platform reaches: its probe fails. */
    assert_int_equal(add_backing((UINT64_C(1) << 40) - K64, 2 * K64), GMMU_STATUS_OUT_OF_RANGE);
    assert_int_equal(vram().backing_ranges, 0);

    assert_int_equal(add_backing(4 * G, 16 * MiB), GMMU_STATUS_OK);
    assert_int_equal(probes, 4); /* both ends of the last try and of this one */
    assert_int_equal(add_backing(4 * G + 16 * MiB - K64, K64), GMMU_STATUS_OVERLAP);
    assert_int_equal(add_backing(4 * G - K64, 2 * K64), GMMU_STATUS_OVERLAP);
    assert_int_equal(add_backing(4 * G + 16 * MiB, K64), GMMU_STATUS_OK); /* adjacent */

    /* A SYSTEM allocation is the host's own memory: not in the pool, and the
       pool is not the host's to map. */
    assert_int_equal(alloc_sys(8 * G, 64 * KiB, &sys), GMMU_STATUS_OK);
    assert_int_equal(add_backing(8 * G, K64), GMMU_STATUS_OVERLAP);
    assert_int_equal(alloc_sys(4 * G + 4 * KiB, 4 * KiB, &sys), GMMU_STATUS_OVERLAP);
    assert_int_equal(vram().allocations, 1);

    for (uint32_t i = 2; i < BACKING_MAX_RANGES; i++)
        assert_int_equal(add_backing(16 * G + i * G, K64), GMMU_STATUS_OK);
    assert_int_equal(add_backing(64 * G, K64), GMMU_STATUS_NO_MEMORY);

    struct gmmu_vram_rsp v = vram();
    assert_int_equal(v.backing_ranges, BACKING_MAX_RANGES);
    assert_int_equal(v.backing_bytes, 16 * MiB + (BACKING_MAX_RANGES - 1) * K64);
    assert_int_equal(v.backing_free, v.backing_bytes);
}

/* At least 64 address spaces live at once; beyond the hardware's 64 ids
   they share them. */
static void test_many_address_spaces(void **state)
{
    static uint32_t as[VIDMM_MAX_AS];
    uint32_t n = 0, id, with_id = 0, al = must_alloc(PAGE, 0);

    (void)state;
    assert_true(VIDMM_MAX_AS >= 64);
    while (n < VIDMM_MAX_AS) {
        assert_int_equal(create_as(&as[n], &id), GMMU_STATUS_OK);
        assert_true(id < GMMU_ASIDS);
        assert_int_equal(map(as[n], al, 0, PAGE, 1 * GiB, GMMU_MAP_FLAG_FIXED_VA, NULL),
                         GMMU_STATUS_OK);
        n++;
    }
    assert_int_equal(create_as(&id, NULL), GMMU_STATUS_NO_MEMORY);
    for (uint32_t i = 0; i < n; i++) {
        with_id += asid_of(as[i]) != VIDMM_NO_ASID;
        expect_mapped(as[i], 1 * GiB, GMMU_SEGMENT_VRAM, walk(as[0], 1 * GiB).pa, 12);
    }
    assert_int_equal(with_id, n < GMMU_ASIDS ? n : GMMU_ASIDS);
    assert_int_equal(vram().address_spaces, n);
    assert_int_equal(free_alloc(al), GMMU_STATUS_OK);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(destroy_as(as[i]), GMMU_STATUS_OK);
    assert_int_equal(vidmm_sim_used(&sim), 0);
}

/* ------------------------------------------------------------ RESERVE / UPDATE */

static void test_reserve(void **state)
{
    uint32_t as = must_as(), al = must_alloc(64 * KiB, 0);
    uint64_t va;

    (void)state;
    assert_int_equal(reserve(as, 0, 3 * 64 * KiB, &va), GMMU_STATUS_OK);
    assert_int_equal(va % (64 * KiB), 0);
    expect_invalid(as, va);
    assert_int_equal(reserve(as, 4 * GiB, 1 * MiB, &va), GMMU_STATUS_OK);
    assert_int_equal(va, 4 * GiB);
    assert_int_equal(reserve(as, 4 * GiB + 512 * KiB, 1 * MiB, NULL), GMMU_STATUS_OVERLAP);
    assert_int_equal(
        map(as, al, 0, 64 * KiB, 4 * GiB + 1 * MiB - 64 * KiB, GMMU_MAP_FLAG_FIXED_VA, NULL),
        GMMU_STATUS_OVERLAP);
    assert_int_equal(reserve(as, 0, 60 * KiB, NULL), GMMU_STATUS_UNALIGNED);
    assert_int_equal(reserve(as, 8 * GiB + PAGE, 64 * KiB, NULL), GMMU_STATUS_UNALIGNED);
    assert_int_equal(reserve(as, 0, 0, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    struct gmmu_reserve_req req = { .as_handle = as,
                                    .flags = GMMU_MAP_FLAG_READ_ONLY,
                                    .size = 64 * KiB };

    assert_int_equal(call(GMMU_OP_RESERVE_VA, &req, sizeof(req), NULL, 0),
                     GMMU_STATUS_INVALID_ARGUMENT);
    req = (struct gmmu_reserve_req){ .as_handle = as, .va = 8 * GiB, .size = 64 * KiB };
    assert_int_equal(call(GMMU_OP_RESERVE_VA, &req, sizeof(req), NULL, 0),
                     GMMU_STATUS_INVALID_ARGUMENT); /* a VA without FIXED_VA */
}

static void test_update_ops(void **state)
{
    uint32_t as = must_as(), pool, pool2;
    uint64_t base = contig_base(1 * MiB, &pool), base2 = contig_base(64 * KiB, &pool2), r;
    uint64_t inv_before;

    (void)state;
    assert_int_equal(reserve(as, 0, 4 * MiB, &r), GMMU_STATUS_OK);
    assert_int_equal(r % (2 * MiB), 0); /* aligned to its largest page */
    /* Tiles 0..3 from pool pages 4..7, tile 4 from pool2, tiles 8.. zero,
       tiles 16..19 a copy of 0..3, tile 1 read-only. */
    struct gmmu_update_op ops[] = {
        op_map(r, 4 * TILE, pool, 4 * TILE, 0),
        op_map(r + 4 * TILE, TILE, pool2, 0, GMMU_MAP_FLAG_NO_EXECUTE),
        op_unmap(r + 8 * TILE, 8 * TILE, true),
        op_copy(r + 16 * TILE, r, 4 * TILE),
        op_protect(r + TILE, TILE, GMMU_MAP_FLAG_READ_ONLY),
    };

    inv_before = sim.invalidations;
    assert_int_equal(update(as, ops, 5), GMMU_STATUS_OK);
    assert_int_equal(sim.invalidations, inv_before + 1); /* one for the batch */
    assert_true(sim.last_inv_start <= r && sim.last_inv_end >= r + 20 * TILE);
    expect_mapped(as, r + 0x10, GMMU_SEGMENT_VRAM, base + 4 * TILE + 0x10, 16);
    expect_mapped(as, r + 3 * TILE + PAGE, GMMU_SEGMENT_VRAM, base + 7 * TILE + PAGE, 16);
    expect_mapped(as, r + 4 * TILE, GMMU_SEGMENT_VRAM, base2, 16);
    assert_true(walk(as, r + 4 * TILE).no_execute);
    expect_invalid(as, r + 5 * TILE);
    expect_zero(as, r + 8 * TILE);
    expect_zero(as, r + 15 * TILE + 60 * KiB);
    expect_mapped(as, r + 17 * TILE, GMMU_SEGMENT_VRAM, base + 5 * TILE, 16);
    assert_true(walk(as, r + TILE).read_only);
    assert_false(walk(as, r + 17 * TILE).read_only); /* copied before the protect */
    expect_invalid(as, r + 20 * TILE);

    /* Unmap to invalid, then copy an invalid range over a mapped one. */
    struct gmmu_update_op more[] = {
        op_unmap(r, TILE, false),
        op_copy(r + 17 * TILE, r + 5 * TILE, TILE),
    };

    assert_int_equal(update(as, more, 2), GMMU_STATUS_OK);
    expect_invalid(as, r);
    expect_invalid(as, r + 17 * TILE);
    expect_mapped(as, r + 16 * TILE, GMMU_SEGMENT_VRAM, base + 4 * TILE, 16);

    /* A batch of nothing is fine. */
    assert_int_equal(update(as, NULL, 0), GMMU_STATUS_OK);
}

/* A bad operation anywhere rejects the whole batch before anything runs. */
static void test_update_rejects_whole_batch(void **state)
{
    uint32_t as = must_as(), other_as = must_as(), pool = must_alloc(1 * MiB, 0);
    uint64_t r, r2, mapped, fp;

    (void)state;
    assert_int_equal(reserve(as, 0, 2 * MiB, &r), GMMU_STATUS_OK);
    assert_int_equal(reserve(as, 0, 1 * MiB, &r2), GMMU_STATUS_OK);
    assert_int_equal(map(as, pool, 0, 64 * KiB, 0, 0, &mapped), GMMU_STATUS_OK);
    struct gmmu_update_op setup_ops[] = { op_map(r, 8 * TILE, pool, 0, 0) };

    assert_int_equal(update(as, setup_ops, 1), GMMU_STATUS_OK);
    fp = fingerprint(as, r, r + 2 * MiB);

    const struct {
        struct gmmu_update_op bad;
        uint32_t status;
    } cases[] = {
        { op_map(r, TILE, pool + 1, 0, 0), GMMU_STATUS_BAD_HANDLE },
        { op_map(r, TILE, other_as, 0, 0), GMMU_STATUS_BAD_HANDLE },
        { op_map(r + 2 * MiB - TILE, 2 * TILE, pool, 0, 0), GMMU_STATUS_OUT_OF_RANGE },
        { op_map(mapped, TILE, pool, 0, 0), GMMU_STATUS_OUT_OF_RANGE }, /* not reserved */
        { op_map(r, TILE, pool, 1 * MiB, 0), GMMU_STATUS_OUT_OF_RANGE },
        { op_map(r, PAGE, pool, 0, 0), GMMU_STATUS_UNALIGNED },
        { op_map(r + PAGE, TILE, pool, 0, 0), GMMU_STATUS_UNALIGNED },
        { op_map(r, TILE, pool, PAGE, 0), GMMU_STATUS_UNALIGNED },
        { op_map(r, TILE, pool, 0, GMMU_MAP_FLAG_ZERO), GMMU_STATUS_INVALID_ARGUMENT },
        { op_map(r, 0, pool, 0, 0), GMMU_STATUS_INVALID_ARGUMENT },
        { op_copy(r + TILE, r, 2 * TILE), GMMU_STATUS_OVERLAP },
        { op_copy(r, r2 + PAGE, TILE), GMMU_STATUS_UNALIGNED },
        { op_copy(r, r2 + 1 * MiB - TILE, 2 * TILE), GMMU_STATUS_OUT_OF_RANGE },
        { op_copy(r, mapped, TILE), GMMU_STATUS_OUT_OF_RANGE },
        { op_protect(r, TILE, GMMU_MAP_FLAG_FIXED_VA), GMMU_STATUS_INVALID_ARGUMENT },
        { { .op = 0, .va = r, .size = TILE }, GMMU_STATUS_INVALID_ARGUMENT },
        { { .op = 5, .va = r, .size = TILE }, GMMU_STATUS_INVALID_ARGUMENT },
        { { .op = GMMU_UPDATE_OP_UNMAP, .va = r, .size = TILE, .reserved = 1 },
          GMMU_STATUS_INVALID_ARGUMENT },
        { { .op = GMMU_UPDATE_OP_UNMAP, .va = r, .size = TILE, .arg = 1 },
          GMMU_STATUS_INVALID_ARGUMENT },
        { { .op = GMMU_UPDATE_OP_PROTECT, .va = r, .size = TILE, .alloc_handle = pool },
          GMMU_STATUS_INVALID_ARGUMENT },
    };

    assert_int_equal(sizeof(cases) / sizeof(cases[0]), 20);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        /* Good operations before and after the bad one. */
        struct gmmu_update_op batch[] = {
            op_unmap(r, 4 * TILE, true),
            op_map(r + 16 * TILE, 4 * TILE, pool, 8 * TILE, 0),
            cases[i].bad,
            op_protect(r, 2 * MiB, GMMU_MAP_FLAG_READ_ONLY),
        };
        uint64_t inv = sim.invalidations;

        assert_int_equal(update(as, batch, 4), cases[i].status);
        assert_int_equal(sim.invalidations, inv);
        assert_int_equal(fingerprint(as, r, r + 2 * MiB), fp);
    }
    struct gmmu_update_req req = { .as_handle = other_as + 0x10000, .count = 0 };

    assert_int_equal(call(GMMU_OP_UPDATE_VA, &req, sizeof(req), NULL, 0), GMMU_STATUS_BAD_HANDLE);
}

/* VRAM for the tables of a whole batch is found before it runs. */
/* A paging engine that fails the batch's writes: UPDATE_VA says so
   (DEVICE_ERROR), and the same batch goes through once the engine works. */
static void test_update_engine_error(void **state)
{
    uint32_t as, pool;
    uint64_t base, r;

    (void)state;
    vidmm_sim_engine(&sim, true);
    as = must_as();
    base = contig_base(1 * MiB, &pool);
    assert_int_equal(reserve(as, 0, 4 * MiB, &r), GMMU_STATUS_OK);
    struct gmmu_update_op ops[] = { op_map(r, 2 * TILE, pool, TILE, 0) };

    sim.fail_completes = 1;
    assert_int_equal(update(as, ops, 1), GMMU_STATUS_DEVICE_ERROR);
    assert_int_equal(sim.fail_completes, 0);
    /* The space is given up (engine_error_gives_up_the_space); another
       takes the same batch. */
    assert_int_equal(update(as, ops, 1), GMMU_STATUS_DEVICE_ERROR);
    uint32_t as2 = must_as();
    uint64_t r2;
    assert_int_equal(reserve(as2, 0, 4 * MiB, &r2), GMMU_STATUS_OK);
    ops[0] = op_map(r2, 2 * TILE, pool, TILE, 0);
    assert_int_equal(update(as2, ops, 1), GMMU_STATUS_OK);
    expect_mapped(as2, r2 + 0x10, GMMU_SEGMENT_VRAM, base + TILE + 0x10, 16);
    expect_mapped(as2, r2 + TILE, GMMU_SEGMENT_VRAM, base + 2 * TILE, 16);
    assert_true(vidmm_sim_accounting_ok(&sim));
}

/*
 * An engine error in the middle of a command (the simulated engine drops
 * the k-th write of the command and every one after, and says so from
 * then on, as the SoC's paging engine does) gives the address space up:
 * DEVICE_ERROR for it and every later command on it but DESTROY_AS; it
 * holds no hardware id, so nothing walks its half-written tables; its
 * tables are never read or freed again (lost, counted as tables), so no
 * stale link of the manager's lists reaches vram_alloc; another space
 * and the allocations are untouched; accounting holds at every point.
 * Each k from the first write to past the command's last is tried, for a
 * map that builds tables and for an unmap that frees them.
 */
static void test_engine_error_gives_up_the_space(void **state)
{
    uint32_t broken = 0, k;

    (void)state;
    vidmm_sim_engine(&sim, true);
    /* Every write of the map's and the unmap's, on a fresh 1 MiB segment
       each time. */
    for (k = 1;; k++) {
        vidmm_sim_reset(&sim);
        struct gmmu_vram_rsp start = vram();
        uint32_t as = must_as(), other = must_as(), al = must_alloc(64 * KiB, 0), keep;
        uint64_t va_keep, base = contig_base(64 * KiB, &keep), va = 0, lost;
        bool failed;

        assert_int_equal(map(other, keep, 0, 64 * KiB, 0, 0, &va_keep), GMMU_STATUS_OK);
        /* The map: a level-2, a dual level-1 and a leaf table built, 16
           entries of 4 KB pages; the unmap frees them. */
        sim.fail_at_write = k;
        struct gmmu_map_req req = {
            .as_handle = as, .alloc_handle = al, .size = 64 * KiB, .page_sizes = 1 /* 4 KB */
        };
        uint32_t st = map_full(&req, &va);
        failed = st != GMMU_STATUS_OK;
        if (!failed) {
            st = unmap(as, va, 64 * KiB);
            failed = st != GMMU_STATUS_OK;
        }
        sim.fail_at_write = 0;
        assert_true(vidmm_sim_accounting_ok(&sim));
        if (failed) {
            struct gmmu_query_rsp q;
            uint64_t root;
            uint32_t id, hw;

            assert_int_equal(st, GMMU_STATUS_DEVICE_ERROR);
            assert_int_equal(sim.vm->counters.as_broken, 1);
            broken++;
            assert_true(vidmm_as_info(sim.vm, as, &root, &id));
            assert_int_equal(id, VIDMM_NO_ASID);
            assert_int_equal(query(as, 0, &q), GMMU_STATUS_DEVICE_ERROR);
            assert_int_equal(map(as, keep, 0, 64 * KiB, 0, 0, NULL), GMMU_STATUS_DEVICE_ERROR);
            assert_int_equal(unmap(as, va, 64 * KiB), GMMU_STATUS_DEVICE_ERROR);
            assert_int_equal(vidmm_activate_as(sim.vm, as, &hw), GMMU_STATUS_DEVICE_ERROR);
        }
        /* The other space and its allocation are as they were, and still
           take commands. */
        expect_mapped(other, va_keep + 0x1000, GMMU_SEGMENT_VRAM, base + 0x1000, 16);
        assert_int_equal(unmap(other, va_keep, 64 * KiB), GMMU_STATUS_OK);
        assert_int_equal(free_alloc(al), GMMU_STATUS_OK);
        assert_int_equal(free_alloc(keep), GMMU_STATUS_OK);
        assert_int_equal(destroy_as(as), GMMU_STATUS_OK);
        assert_int_equal(destroy_as(other), GMMU_STATUS_OK);
        assert_true(vidmm_sim_accounting_ok(&sim));
        /* Only the given-up tables are missing, and only when one failed;
           the rest of the segment is free in whole blocks again (a block
           freed twice or a stale link followed would show here). */
        struct gmmu_vram_rsp now = vram();
        lost = sim.vm->lost_bytes;
        assert_int_equal(now.table_bytes, lost);
        assert_int_equal(now.free_bytes + lost, start.free_bytes);
        assert_true(failed || lost == 0);
        uint32_t fill;
        assert_int_equal(alloc(now.free_bytes, 0, &fill), GMMU_STATUS_OK);
        assert_int_equal(vram().free_bytes, 0);
        if (!failed)
            break;
    }
    assert_int_equal(broken, k - 1);
    assert_true(k > 100); /* the commands did write */
}

static void test_update_no_vram(void **state)
{
    uint32_t as = must_as(), pool = must_alloc(64 * KiB, GMMU_ALLOC_FLAG_CONTIGUOUS), filler;
    uint32_t pages[128], n = 0;
    uint64_t r, fp;

    (void)state;
    assert_int_equal(reserve(as, 0, 64 * MiB, &r), GMMU_STATUS_OK);
    filler = must_alloc(VRAM_BYTES - vidmm_sim_used(&sim) - 64 * PAGE, 0);
    while (n < 128 && alloc(PAGE, 0, &pages[n]) == GMMU_STATUS_OK)
        n++;
    /* Free every other page: 32 free 4 KB pages, none larger. */
    for (uint32_t i = 0; i < n; i += 2)
        assert_int_equal(free_alloc(pages[i]), GMMU_STATUS_OK);
    assert_int_equal(vram().free_bytes, (n / 2) * PAGE);
    assert_int_equal(vram().largest_free, PAGE);
    fp = fingerprint(as, r, r + 8 * MiB);

    /* Each 2 MB region needs a leaf table and the level-1 table an 8 KB
       block, which no free page can give: nothing is applied. */
    struct gmmu_update_op ops[] = {
        op_map(r, TILE, pool, 0, 0),
        op_map(r + 2 * MiB, TILE, pool, 0, 0),
    };
    uint64_t reservations = sim.vm->counters.batch_reservations;

    assert_int_equal(update(as, ops, 2), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(sim.vm->counters.batch_reservations, reservations + 1);
    assert_int_equal(fingerprint(as, r, r + 8 * MiB), fp);
    assert_int_equal(vram().largest_free, PAGE);

    /* With an 8 KB block free again, the same batch fits. */
    assert_int_equal(free_alloc(filler), GMMU_STATUS_OK);
    assert_int_equal(update(as, ops, 2), GMMU_STATUS_OK);
    expect_mapped(as, r + 2 * MiB, GMMU_SEGMENT_VRAM, walk(as, r).pa, 16);
}

/* Mappings and tile references share one pool of records; when it is
   full, MAP_VA and batches that need a new one fail and change nothing. */
static void test_records_exhausted(void **state)
{
    uint32_t as[VIDMM_MAX_RECORDS / (NODES_PER_AS - 8) + 2], sys, pool[40];
    uint32_t mapped = 0, n_as = 0;
    uint64_t r, fp;

    (void)state;
    assert_int_equal(alloc_sys(0x80000000, 64 * KiB, &sys), GMMU_STATUS_OK);
    while (mapped < VIDMM_MAX_RECORDS) {
        as[n_as] = must_as();
        for (uint32_t k = 0; k < NODES_PER_AS - 8 && mapped < VIDMM_MAX_RECORDS; k++, mapped++)
            assert_int_equal(map(as[n_as], sys, 0, PAGE, 0, 0, NULL), GMMU_STATUS_OK);
        n_as++;
    }
    assert_int_equal(map(as[0], sys, 0, PAGE, 0, 0, NULL), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(reserve(as[0], 0, 1 * MiB, &r), GMMU_STATUS_OK);
    fp = fingerprint(as[0], r, r + 1 * MiB);
    struct gmmu_update_op op = op_map(r, TILE, sys, 0, 0);

    assert_int_equal(update(as[0], &op, 1), GMMU_STATUS_NO_MEMORY); /* a new tile reference */
    assert_int_equal(fingerprint(as[0], r, r + 1 * MiB), fp);

    /* With room again, one batch may add as many references as there are
       free records: no other limit. */
    assert_int_equal(free_alloc(sys), GMMU_STATUS_OK);
    struct gmmu_update_op ops[40];

    for (uint32_t i = 0; i < 40; i++) {
        assert_int_equal(alloc_sys(0x90000000 + i * TILE, TILE, &pool[i]), GMMU_STATUS_OK);
        ops[i] = op_map(r + (i % 16) * TILE, TILE, pool[i], 0, 0);
    }
    assert_int_equal(update(as[0], ops, 40), GMMU_STATUS_OK);
    assert_int_equal(records_free(), VIDMM_MAX_RECORDS - 40);
    expect_mapped(as[0], r + TILE, GMMU_SEGMENT_SYSTEM, 0x90000000 + 33 * TILE, 16);
}

/*
 * A MAP that grows an existing (reserved range, allocation) reference, then
 * a COPY of the tile it mapped into another reserved range: the copy needs
 * a reference of its own. With no record free the batch is refused whole
 * (no hull grown either); with one, FREE finds the copied tile, so no PTE
 * is left pointing at the freed pages.
 */
static void test_update_copy_of_grown_ref(void **state)
{
    uint32_t as = must_as(), x;
    uint64_t base = contig_base(256 * KiB, &x), r1, r2, fp, recs;
    struct hog h = { 0 };

    (void)state;
    assert_int_equal(reserve(as, 0, 1 * MiB, &r1), GMMU_STATUS_OK);
    assert_int_equal(reserve(as, 0, 1 * MiB, &r2), GMMU_STATUS_OK);
    struct gmmu_update_op first = op_map(r1, TILE, x, 0, 0);
    struct gmmu_update_op ops[] = {
        op_map(r1 + 10 * TILE, TILE, x, TILE, 0),
        op_copy(r2, r1 + 10 * TILE, TILE),
    };

    assert_int_equal(update(as, &first, 1), GMMU_STATUS_OK);
    hog_fill(&h, 0);
    recs = records_print();
    fp = fingerprint(as, r1, r1 + 1 * MiB) ^ fingerprint(as, r2, r2 + 1 * MiB);
    assert_int_equal(update(as, ops, 2), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(records_print(), recs);
    assert_int_equal(fingerprint(as, r1, r1 + 1 * MiB) ^ fingerprint(as, r2, r2 + 1 * MiB), fp);

    hog_release(&h);
    assert_int_equal(update(as, ops, 2), GMMU_STATUS_OK);
    assert_int_equal(records_free(), 0);
    expect_mapped(as, r2 + PAGE, GMMU_SEGMENT_VRAM, base + TILE + PAGE, 16);
    assert_int_equal(free_alloc(x), GMMU_STATUS_OK);
    expect_invalid(as, r1);
    expect_invalid(as, r1 + 10 * TILE);
    expect_invalid(as, r2);
    expect_invalid(as, r2 + TILE - PAGE);
}

/*
 * A COPY carries the references whose hulls, as the batch has grown them,
 * meet the copied range, each counted once: the batch below makes exactly
 * 7 new references and fits with exactly 7 records free. With 6 it is
 * refused and the hull it grew is put back.
 */
static void test_update_counts_records_exactly(void **state)
{
    uint32_t as = must_as(), al[4];
    uint64_t r1, r2, r3, recs, fp;
    struct hog h = { 0 };

    (void)state;
    assert_int_equal(reserve(as, 0, 1 * MiB, &r1), GMMU_STATUS_OK);
    assert_int_equal(reserve(as, 0, 1 * MiB, &r2), GMMU_STATUS_OK);
    assert_int_equal(reserve(as, 0, 1 * MiB, &r3), GMMU_STATUS_OK);
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(alloc_sys(0xA0000000 + i * MiB, TILE, &al[i]), GMMU_STATUS_OK);
    /* (R1, al0) exists with the hull of tile 8. */
    struct gmmu_update_op pre = op_map(r1 + 8 * TILE, TILE, al[0], 0, 0);
    /* New: (R1, al1..3); (R2, al0) by op 5; (R3, al0) and (R3, al1) by op 6,
       as (R1, al0) grew to tiles 0..8 in op 1; op 7 grows (R3, al0); op 8
       grows (R2, al0) and adds (R2, al3). */
    struct gmmu_update_op ops[] = {
        op_map(r1, TILE, al[0], 0, 0),
        op_map(r1 + TILE, TILE, al[1], 0, 0),
        op_map(r1 + 2 * TILE, TILE, al[2], 0, 0),
        op_map(r1 + 3 * TILE, TILE, al[3], 0, 0),
        op_copy(r2, r1, TILE),
        op_copy(r3, r1 + TILE, TILE),
        op_copy(r3 + TILE, r2, TILE),
        op_copy(r2 + 4 * TILE, r1 + 3 * TILE, TILE),
    };

    assert_int_equal(update(as, &pre, 1), GMMU_STATUS_OK);
    hog_fill(&h, 6);
    recs = records_print();
    fp = fingerprint(as, r1, r3 + 1 * MiB);
    assert_int_equal(update(as, ops, 8), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(records_print(), recs);
    assert_int_equal(fingerprint(as, r1, r3 + 1 * MiB), fp);

    hog_release(&h);
    assert_int_equal(update(as, ops, 8), GMMU_STATUS_OK);
    assert_int_equal(records_free(), 0);
    expect_mapped(as, r2, GMMU_SEGMENT_SYSTEM, 0xA0000000, 16);
    expect_mapped(as, r3, GMMU_SEGMENT_SYSTEM, 0xA0100000, 16);
    expect_mapped(as, r3 + TILE, GMMU_SEGMENT_SYSTEM, 0xA0000000, 16);
    expect_mapped(as, r2 + 4 * TILE, GMMU_SEGMENT_SYSTEM, 0xA0300000, 16);

    /* FREE finds every tile the batch pointed at al0, and no other. */
    assert_int_equal(free_alloc(al[0]), GMMU_STATUS_OK);
    expect_invalid(as, r1);
    expect_invalid(as, r1 + 8 * TILE);
    expect_invalid(as, r2);
    expect_invalid(as, r3 + TILE);
    expect_mapped(as, r1 + TILE, GMMU_SEGMENT_SYSTEM, 0xA0100000, 16);
    expect_mapped(as, r3, GMMU_SEGMENT_SYSTEM, 0xA0100000, 16);
    expect_mapped(as, r2 + 4 * TILE, GMMU_SEGMENT_SYSTEM, 0xA0300000, 16);
    assert_int_equal(records_free(), 3); /* (R1, al0), (R2, al0), (R3, al0) */
}

/* ------------------------------------------------------------ QUERY / GET_VRAM */

static void test_query(void **state)
{
    uint32_t as = must_as(), al;
    uint64_t base = contig_base(2 * MiB, &al), va, r;
    struct gmmu_query_rsp q;

    (void)state;
    assert_int_equal(
        map(as, al, 0, 2 * MiB, 0, GMMU_MAP_FLAG_READ_ONLY | GMMU_MAP_FLAG_CACHE_COHERENT, &va),
        GMMU_STATUS_OK);
    assert_int_equal(query(as, va + 0x5678, &q), GMMU_STATUS_OK);
    assert_int_equal(q.state, PTM_PAGE_MAPPED);
    assert_int_equal(q.pa, base + 0x5678);
    assert_int_equal(q.segment, GMMU_SEGMENT_VRAM);
    assert_int_equal(q.page_shift, 21);
    assert_int_equal(q.flags, GMMU_MAP_FLAG_READ_ONLY | GMMU_MAP_FLAG_CACHE_COHERENT);
    assert_int_equal(reserve(as, 0, 128 * KiB, &r), GMMU_STATUS_OK);
    struct gmmu_update_op z = op_unmap(r, TILE, true);

    assert_int_equal(update(as, &z, 1), GMMU_STATUS_OK);
    assert_int_equal(query(as, r + 8, &q), GMMU_STATUS_OK);
    assert_int_equal(q.state, PTM_PAGE_ZERO);
    assert_int_equal(q.pa, 0);
    assert_int_equal(query(as, r + TILE, &q), GMMU_STATUS_OK);
    assert_int_equal(q.state, PTM_PAGE_INVALID);
    assert_int_equal(query(as, 1ull << 48, &q), GMMU_STATUS_OUT_OF_RANGE);
    assert_int_equal(query(al, va, &q), GMMU_STATUS_BAD_HANDLE);
    struct gmmu_query_req req = { .as_handle = as, .reserved = 2, .va = va };

    assert_int_equal(call(GMMU_OP_QUERY_VA, &req, sizeof(req), &q, sizeof(q)),
                     GMMU_STATUS_INVALID_ARGUMENT);
}

static void test_accounting_back_to_start(void **state)
{
    struct gmmu_vram_rsp start = vram(), mid;
    uint32_t as[3], al[4];
    uint64_t r;

    (void)state;
    assert_int_equal(start.segment_bytes, VRAM_BYTES);
    assert_int_equal(start.free_bytes, VRAM_BYTES);
    assert_int_equal(start.largest_free, VRAM_BYTES);
    for (int i = 0; i < 3; i++)
        as[i] = must_as();
    al[0] = must_alloc(3 * MiB + PAGE, 0);
    al[1] = must_alloc(64 * KiB, GMMU_ALLOC_FLAG_PREFER_64K);
    al[2] = must_alloc(256 * KiB, GMMU_ALLOC_FLAG_CONTIGUOUS);
    assert_int_equal(alloc_sys(0x40000000, 1 * MiB, &al[3]), GMMU_STATUS_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            assert_int_equal(map(as[i], al[j], 0, PAGE, 0, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(reserve(as[0], 0, 4 * MiB, &r), GMMU_STATUS_OK);
    struct gmmu_update_op ops[] = { op_map(r, TILE, al[1], 0, 0),
                                    op_unmap(r + 2 * MiB, TILE, true) };

    assert_int_equal(update(as[0], ops, 2), GMMU_STATUS_OK);
    mid = vram();
    assert_int_equal(mid.allocations, 4);
    assert_int_equal(mid.address_spaces, 3);
    assert_true(mid.tables > 3);
    assert_int_equal(mid.segment_bytes - mid.free_bytes,
                     3 * MiB + PAGE + 64 * KiB + 256 * KiB + mid.table_bytes);
    for (int j = 0; j < 4; j++)
        assert_int_equal(free_alloc(al[j]), GMMU_STATUS_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(destroy_as(as[i]), GMMU_STATUS_OK);
    expect_vram(&start);
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++)
        assert_int_equal(sim.vm->records[i].kind, VIDMM_REC_FREE);
    assert_int_equal(sim.vm->free_extents, VIDMM_MAX_EXTENTS);
}

/* ------------------------------------------------------------ payloads */

static void test_malformed_payloads(void **state)
{
    static const struct {
        uint16_t opcode;
        uint32_t size;
    } fixed[] = {
        { GMMU_OP_ALLOC, GMMU_ALLOC_REQ_BYTES },
        { GMMU_OP_FREE, GMMU_HANDLE_REQ_BYTES },
        { GMMU_OP_CREATE_AS, 0 },
        { GMMU_OP_DESTROY_AS, GMMU_HANDLE_REQ_BYTES },
        { GMMU_OP_MAP_VA, GMMU_MAP_REQ_BYTES },
        { GMMU_OP_UNMAP_VA, GMMU_RANGE_REQ_BYTES },
        { GMMU_OP_RESERVE_VA, GMMU_RESERVE_REQ_BYTES },
        { GMMU_OP_QUERY_VA, GMMU_QUERY_REQ_BYTES },
        { GMMU_OP_GET_VRAM, 0 },
        { GMMU_OP_ADD_BACKING, GMMU_BACKING_REQ_BYTES },
        { GMMU_OP_REMOVE_BACKING, GMMU_BACKING_REMOVE_REQ_BYTES },
        { GMMU_OP_QUERY_ALLOC, GMMU_HANDLE_REQ_BYTES },
        { GMMU_OP_GET_SEGMENTS, 0 },
    };
    uint8_t zeros[GMMU_MSG_MAX_BYTES] = { 0 };
    uint32_t as = must_as();

    (void)state;
    assert_int_equal(vidmm_commands.count, 17);
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        uint32_t lens[] = { fixed[i].size + 1, fixed[i].size + 8, fixed[i].size - 1,
                            fixed[i].size ? 0 : 4, 4000 };

        for (size_t k = 0; k < 5; k++) {
            if (lens[k] == fixed[i].size || lens[k] > sizeof(zeros))
                continue;
            assert_int_equal(call(fixed[i].opcode, zeros, lens[k], NULL, 0),
                             GMMU_STATUS_MALFORMED_LENGTH);
        }
    }
    /* UPDATE_VA: the count must match the length exactly. */
    struct gmmu_update_req req = { .as_handle = as, .count = 2 };
    uint8_t buf[GMMU_MSG_MAX_BYTES] = { 0 };

    memcpy(buf, &req, sizeof(req));
    assert_int_equal(call(GMMU_OP_UPDATE_VA, buf, 4, NULL, 0), GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(call(GMMU_OP_UPDATE_VA, buf, 8 + 40, NULL, 0), GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(call(GMMU_OP_UPDATE_VA, buf, 8 + 3 * 40, NULL, 0),
                     GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(call(GMMU_OP_UPDATE_VA, buf, 8 + 2 * 40 + 1, NULL, 0),
                     GMMU_STATUS_MALFORMED_LENGTH);
    req.count = 0xFFFFFFFFu;
    memcpy(buf, &req, sizeof(req));
    assert_int_equal(call(GMMU_OP_UPDATE_VA, buf, 8 + 2 * 40, NULL, 0),
                     GMMU_STATUS_MALFORMED_LENGTH);
    /* Well-formed but all-zero operations: op 0 is not an operation. */
    req.count = 2;
    memcpy(buf, &req, sizeof(req));
    assert_int_equal(call(GMMU_OP_UPDATE_VA, buf, 8 + 2 * 40, NULL, 0),
                     GMMU_STATUS_INVALID_ARGUMENT);

    /* Without an instance (ctx NULL) every handler answers INTERNAL rather
       than crash. */
    uint32_t len = 1;

    for (uint32_t i = 0; i < vidmm_commands.count; i++) {
        len = 1;
        assert_int_equal(vidmm_commands.commands[i].run(NULL, buf, 0, buf, sizeof(buf), &len),
                         GMMU_STATUS_INTERNAL);
        assert_int_equal(len, 0);
    }
    /* A response buffer too small is a firmware bug, reported as such. */
    assert_int_equal(vidmm_handler(GMMU_OP_GET_VRAM)(sim.vm, NULL, 0, buf, 8, &len),
                     GMMU_STATUS_INTERNAL);
    assert_int_equal(len, 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, vidmm_teardown)
    const struct CMUnitTest tests[] = {
        T(test_handles),
        T(test_alloc_plain_and_64k),
        T(test_alloc_contiguous),
        T(test_alloc_system),
        T(test_alloc_bad_requests),
        T(test_alloc_exhausted),
        T(test_alloc_extent_limit),
        T(test_map_fixed_contiguous),
        T(test_map_auto_alignment),
        T(test_map_auto_lowest_congruent),
        T(test_map_errors),
        T(test_map_no_vram),
        T(test_unmap_va),
        T(test_free_unmaps_everywhere),
        T(test_memory_in_use),
        T(test_asid_recycling),
        T(test_busy_asid_is_kept),
        T(test_phys_range),
        T(test_backing_pool),
        cmocka_unit_test_setup_teardown(test_many_address_spaces, setup_full_asids, vidmm_teardown),
        T(test_reserve),
        T(test_update_ops),
        T(test_update_rejects_whole_batch),
        T(test_update_engine_error),
        cmocka_unit_test_setup_teardown(test_engine_error_gives_up_the_space, setup_small,
                                        vidmm_teardown),
        T(test_update_no_vram),
        T(test_records_exhausted),
        T(test_update_copy_of_grown_ref),
        T(test_update_counts_records_exactly),
        T(test_query),
        T(test_accounting_back_to_start),
        T(test_malformed_payloads),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
