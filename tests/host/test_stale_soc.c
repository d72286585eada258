// SPDX-License-Identifier: Apache-2.0
/*
 * No stale translation, ever (issue 27): a GPU engine keeps writing (FILL)
 * or reading (COPY) through a mapping, started with ENGINE_START, while the
 * host unmaps the mapping and maps the same VA to other memory.
 *
 * What must hold once UNMAP_VA has completed:
 *  - the engine has stopped on a translation fault by the host's next
 *    command (ENGINE_STATUS). A translation cached anywhere (L1, L2, walk
 *    cache, prefetched) would let it run on to the end of its 2 MB page,
 *    tens of thousands of cycles, and it would still be busy;
 *  - nothing it wrote lies beyond its fault (with a margin for the chunks
 *    in flight), read back through the aperture;
 *  - the VA, mapped again to other memory, is written there by the next
 *    run, and the old memory is not.
 * The expectations are worked out here from the mappings, independently of
 * the device. Each run is several times longer than the unmap under it
 * (the figures it prints), so that a host slower than the simulation (the
 * simulation never waits for it) still unmaps while the engine runs; a run
 * that ended first fails the case rather than passing untested. Also: an engine's address space keeps its hardware id while
 * the engine runs (no other space may take it), and cannot be destroyed.
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

#define KIB UINT64_C(1024)
#define MIB (UINT64_C(1024) * KIB)

#define PAGES_4K  0x1u
#define PAGES_64K 0x2u
#define PAGES_2M  0x4u

#define RUNNER           0u /* the engine under test */
/* Chunks in flight past the one that faulted may still be written. */
#define IN_FLIGHT_MARGIN (4 * KIB)
/* ENGINE_STATUS polls before a run that should have stopped is called stuck. */
#define STOP_POLLS       64

static struct gmmu_dev *dev;

static uint32_t reason_of(const struct gmmu_engine_rsp *r)
{
    return (r->engine_status & GMMU_ENGINE_STATUS_REASON) >> GMMU_ENGINE_STATUS_REASON_LSB;
}

static uint32_t access_of(const struct gmmu_engine_rsp *r)
{
    return (r->engine_status & GMMU_ENGINE_STATUS_ACCESS) >> GMMU_ENGINE_STATUS_ACCESS_LSB;
}

static bool busy(const struct gmmu_engine_rsp *r)
{
    return r->engine_status & GMMU_ENGINE_STATUS_BUSY;
}

static struct gmmu_engine_rsp status_now(uint32_t engine)
{
    struct gmmu_engine_rsp r;
    assert_int_equal(gmmu_engine_status(dev, engine, 0, &r), 0);
    return r;
}

static uint32_t new_as(void)
{
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    return as;
}

static uint32_t new_alloc(uint64_t size, uint64_t *base)
{
    struct gmmu_alloc_req req = { .size = size, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    struct gmmu_alloc_rsp rsp;
    assert_int_equal(gmmu_alloc(dev, &req, &rsp), 0);
    *base = rsp.base;
    return rsp.handle;
}

/* Maps the whole allocation at va (0: the firmware picks) with one page
   size, and checks it got that size. */
static uint64_t map_at(uint32_t as, uint32_t alloc, uint64_t size, uint64_t va, uint32_t pages)
{
    struct gmmu_map_req req = { .as_handle = as,
                                .alloc_handle = alloc,
                                .size = size,
                                .va = va,
                                .flags = va ? GMMU_MAP_FLAG_FIXED_VA : 0,
                                .page_sizes = pages };
    uint64_t got = 0;
    assert_int_equal(gmmu_map_va(dev, &req, &got), 0);
    if (va)
        assert_int_equal(got, va);
    struct gmmu_query_rsp q;
    assert_int_equal(gmmu_query_va(dev, as, got, &q), 0);
    unsigned shift = pages == PAGES_2M ? 21 : pages == PAGES_64K ? 16 : 12;
    assert_int_equal(q.page_shift, shift);
    return got;
}

static void start(uint32_t engine, uint32_t op, uint32_t as, uint64_t dst, uint64_t src,
                  uint64_t len, uint64_t pattern)
{
    struct gmmu_engine_req req = { .engine = engine,
                                   .op = op,
                                   .as_handle = as,
                                   .length = (uint32_t)len,
                                   .dst_va = dst,
                                   .src_va = src,
                                   .pattern = pattern };
    assert_int_equal(gmmu_engine_start(dev, &req, NULL), 0);
}

static uint64_t vram64(uint64_t addr)
{
    uint64_t w;
    assert_int_equal(gmmu_vram_read(dev, addr, &w, sizeof w), 0);
    return w;
}

/* One case: a run of `len` bytes through a mapping of `pages`, unmapped
 * under it, the VA then mapped to other memory. */
static void unmap_under_engine(uint32_t op, uint32_t pages, uint64_t len, uint64_t pattern)
{
    uint32_t as = new_as();
    uint64_t a_base, b_base, c_base = 0;
    uint32_t a = new_alloc(len, &a_base), b = new_alloc(len, &b_base), c = 0;
    uint64_t va = map_at(as, a, len, 0, pages), c_va = 0;

    if (op == GMMU_ENGINE_OP_COPY) {
        c = new_alloc(len, &c_base);
        c_va = map_at(as, c, len, 0, pages);
        start(RUNNER, op, as, c_va, va, len, 0);
    } else {
        start(RUNNER, op, as, va, 0, len, pattern);
    }
    /* Memory in use: a plain UNMAP_VA under the run is refused and changes
       nothing; this test asks for the unmap under it (UNDER_JOBS). */
    assert_int_equal(gmmu_unmap_va(dev, as, va, len), GMMU_STATUS_BUSY);
    assert_int_equal(gmmu_unmap_va_flags(dev, as, va, len, GMMU_UNMAP_FLAG_UNDER_JOBS, NULL), 0);

    /* The host's next command: the engine must have stopped. */
    struct gmmu_engine_rsp r = status_now(RUNNER);
    if (busy(&r))
        fail_msg("engine still running after UNMAP_VA completed: %" PRIu32
                 " bytes done (a stale translation)",
                 r.bytes_done);
    if (!(r.engine_status & GMMU_ENGINE_STATUS_FAULT))
        fail_msg("the run ended before the unmap (%" PRIu32 " bytes): nothing was tested; "
                 "make it longer",
                 r.bytes_done);
    assert_int_equal(reason_of(&r), 1); /* INVALID: the entry is gone */
    assert_int_equal(access_of(&r),
                     op == GMMU_ENGINE_OP_COPY ? GMMU_ACCESS_READ : GMMU_ACCESS_WRITE);
    assert_true(r.fault_va >= va && r.fault_va < va + len);
    uint64_t fault_off = r.fault_va - va;
    assert_true(r.bytes_done <= fault_off);
    printf("  %s, %s pages: stopped at %" PRIu64 " of %" PRIu64 " KiB\n",
           op == GMMU_ENGINE_OP_COPY ? "copy" : "fill",
           pages == PAGES_2M    ? "2 MB"
           : pages == PAGES_64K ? "64 KB"
                                : "4 KB",
           fault_off / KIB, len / KIB);

    if (op == GMMU_ENGINE_OP_FILL) {
        /* What it did before: written. Beyond the fault: not, at every
           64 KB to the end of the run (a stale entry would reach there). */
        if (r.bytes_done >= 8)
            assert_true(vram64(a_base + r.bytes_done - 8) == pattern);
        for (uint64_t off = (fault_off + IN_FLIGHT_MARGIN + 64 * KIB) & ~(64 * KIB - 1); off < len;
             off += 64 * KIB)
            if (vram64(a_base + off) == pattern)
                fail_msg("VRAM 0x%" PRIx64 " (offset 0x%" PRIx64 " of the run) written after the "
                         "fault at 0x%" PRIx64,
                         a_base + off, off, fault_off);
    }

    /* The same VA on other memory, where the engine just was: its next
       run writes the new memory, never the old. */
    assert_int_equal(map_at(as, b, len, va, pages), va);
    uint64_t at = fault_off & ~(64 * KIB - 1);
    uint64_t q = ~pattern;
    uint64_t a_before = vram64(a_base + at);
    struct gmmu_engine_rsp rr =
        soc_engine_run(dev, RUNNER, GMMU_ENGINE_OP_FILL, as, va + at, 0, 64 * KIB, q);
    assert_false(rr.engine_status & GMMU_ENGINE_STATUS_FAULT);
    assert_true(vram64(b_base + at) == q);
    assert_true(vram64(b_base + at + 64 * KIB - 8) == q);
    assert_true(vram64(a_base + at) == a_before);

    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_free(dev, a), 0);
    assert_int_equal(gmmu_free(dev, b), 0);
    if (c)
        assert_int_equal(gmmu_free(dev, c), 0);
}

static void test_fill_2m_pages(void **state)
{
    (void)state;
    unmap_under_engine(GMMU_ENGINE_OP_FILL, PAGES_2M, 16 * MIB, 0x57A1E00000000001ull);
}

static void test_copy_2m_pages(void **state)
{
    (void)state;
    unmap_under_engine(GMMU_ENGINE_OP_COPY, PAGES_2M, 8 * MIB, 0);
}

static void test_fill_64k_pages(void **state)
{
    (void)state;
    unmap_under_engine(GMMU_ENGINE_OP_FILL, PAGES_64K, 8 * MIB, 0x57A1E00000000002ull);
}

/* A copy through 4 KB pages. The engine gets about halfway through the
   mapping while the unmap of its entries runs; over 8 MiB the other half
   is some 500 k cycles of copying, room for a host that starts the unmap
   late. */
static void test_copy_4k_pages(void **state)
{
    (void)state;
    unmap_under_engine(GMMU_ENGINE_OP_COPY, PAGES_4K, 8 * MIB, 0);
}

/* Stops the runner by unmapping what it runs through, and waits for it. */
static void stop_by_unmap(uint32_t as, uint64_t va, uint64_t len)
{
    assert_int_equal(gmmu_unmap_va_flags(dev, as, va, len, GMMU_UNMAP_FLAG_UNDER_JOBS, NULL), 0);
    for (int i = 0; i < STOP_POLLS; i++) {
        struct gmmu_engine_rsp r = status_now(RUNNER);
        if (!busy(&r))
            return;
    }
    fail_msg("the engine did not stop");
}

/* While it runs, its address space cannot be destroyed (BUSY, nothing
 * changed), a second START on it is BUSY, and bad ENGINE_STATUS requests
 * are refused; ENGINE_STATUS with ABORT stops it. */
static void test_running_engine_pins_its_space(void **state)
{
    (void)state;
    uint32_t as = new_as();
    uint64_t base;
    uint32_t a = new_alloc(16 * MIB, &base);
    uint64_t va = map_at(as, a, 16 * MIB, 0, PAGES_2M);
    start(RUNNER, GMMU_ENGINE_OP_FILL, as, va, 0, 16 * MIB, 1);

    assert_int_equal(gmmu_destroy_as(dev, as), GMMU_STATUS_BUSY);
    struct gmmu_engine_req again = {
        .engine = RUNNER, .op = GMMU_ENGINE_OP_FILL, .as_handle = as, .length = 64, .dst_va = va
    };
    assert_int_equal(gmmu_engine_start(dev, &again, NULL), GMMU_STATUS_BUSY);
    struct gmmu_engine_rsp r;
    assert_int_equal(gmmu_engine_status(dev, GMMU_ENGINES, 0, &r), GMMU_STATUS_INVALID_ARGUMENT);
    struct gmmu_engine_status_req bad = { .engine = RUNNER, .flags = 2 };
    size_t got = 0;
    assert_int_equal(gmmu_call(dev, GMMU_OP_ENGINE_STATUS, &bad, sizeof bad, &r, sizeof r, &got),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(gmmu_call(dev, GMMU_OP_ENGINE_STATUS, &bad, 4, &r, sizeof r, &got),
                     GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(gmmu_call(dev, GMMU_OP_ENGINE_START, &again, 8, &r, sizeof r, &got),
                     GMMU_STATUS_MALFORMED_LENGTH);
    /* Still running, still its mapping: the refused DESTROY_AS changed nothing. */
    struct gmmu_query_rsp q;
    assert_int_equal(gmmu_query_va(dev, as, va, &q), 0);
    assert_int_equal(q.state, 2);
    r = status_now(RUNNER);
    assert_true(busy(&r));

    /* ABORT: stopped when it answers, neither faulted nor finished. */
    assert_int_equal(gmmu_engine_status(dev, RUNNER, GMMU_ENGINE_STATUS_FLAG_ABORT, &r), 0);
    assert_false(busy(&r));
    assert_true(r.engine_status & GMMU_ENGINE_STATUS_ABORTED);
    assert_false(r.engine_status & GMMU_ENGINE_STATUS_FAULT);
    assert_true(r.bytes_done < 16 * MIB);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_free(dev, a), 0);
}

/* There are 64 hardware ids and more address spaces: creating 64 more
 * spaces while the engine runs must lend them every id but the engine's.
 * Had its id been taken, its next translations would go through another
 * space's (empty) tables and fault. */
static void test_running_engine_keeps_its_id(void **state)
{
    (void)state;
    enum { OTHERS = 64 };
    uint32_t as = new_as(), others[OTHERS];
    uint64_t base;
    uint32_t a = new_alloc(16 * MIB, &base);
    uint64_t va = map_at(as, a, 16 * MIB, 0, PAGES_2M);
    uint32_t asid = 0;
    struct gmmu_engine_req req = { .engine = RUNNER,
                                   .op = GMMU_ENGINE_OP_FILL,
                                   .as_handle = as,
                                   .length = 16 * MIB,
                                   .dst_va = va };
    assert_int_equal(gmmu_engine_start(dev, &req, &asid), 0);

    for (int i = 0; i < OTHERS; i++) {
        uint32_t other_asid;
        assert_int_equal(gmmu_create_as(dev, &others[i], &other_asid), 0);
        assert_int_not_equal(other_asid, asid);
    }
    struct gmmu_engine_rsp r = status_now(RUNNER);
    if (r.engine_status & GMMU_ENGINE_STATUS_FAULT)
        fail_msg("the engine faulted at VA 0x%" PRIx64 " while others took ids", r.fault_va);
    assert_true(busy(&r)); /* still running: the ids moved under it */
    assert_int_equal(r.asid, asid);

    stop_by_unmap(as, va, 16 * MIB);
    for (int i = 0; i < OTHERS; i++)
        assert_int_equal(gmmu_destroy_as(dev, others[i]), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_free(dev, a), 0);
}

/* Everything above gave back what it took. */
static void test_vram_accounting_restored(void **state)
{
    (void)state;
    struct gmmu_vram_rsp v;
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    assert_int_equal(v.allocations, 0);
    assert_int_equal(v.address_spaces, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_2m_pages),
        cmocka_unit_test(test_copy_2m_pages),
        cmocka_unit_test(test_fill_64k_pages),
        cmocka_unit_test(test_copy_4k_pages),
        cmocka_unit_test(test_running_engine_pins_its_space),
        cmocka_unit_test(test_running_engine_keeps_its_id),
        cmocka_unit_test(test_vram_accounting_restored),
    };
    return soc_run_tests(tests, &dev);
}
