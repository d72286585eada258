// SPDX-License-Identifier: Apache-2.0
/*
 * Bad input to the paging engine on the simulated SoC (issue 27): the host
 * arms a write error in the simulator's DDR model (the sim-link's DDR_FAULT
 * test hook, gmmu_sim_test_ddr_fault) on the VRAM segment for the next
 * write burst, then sends a table command. Nothing else writes VRAM in
 * between (the GPU engines are idle and the host sends nothing else), so
 * the burst that fails is the command's first table write: the engine's
 * packet, or, for a leaf edit (a few 4 KB entries into a table that is
 * there, nothing queued), the CPU's store, which must fail the command
 * the same way and not stop the firmware through BUS_ERROR. The
 * simulator's count of failed bursts says it did fail. What must hold
 * (docs/vidmm.md, "Engine errors"):
 *  - the command answers DEVICE_ERROR;
 *  - the address space is given up: every later command on it but
 *    DESTROY_AS answers DEVICE_ERROR (QUERY_VA, MAP_VA, UNMAP_VA,
 *    ENGINE_RUN), FREE of an allocation mapped there works, DESTROY_AS works;
 *  - the engine was restarted: GET_PT_STATS counts one engine error, and
 *    later commands' packets complete;
 *  - another address space maps, unmaps and translates as before (a GPU
 *    engine fills and checksums through its mappings);
 *  - GET_VRAM agrees: the allocations are as they were, the space's tables
 *    stay counted in table_bytes (lost), and free + table bytes is what it
 *    was, so nothing else leaked; after everything is freed, table_bytes is
 *    exactly what was lost;
 *  - the device is usable after: a new space maps and runs an engine.
 * A residency move's COPY is not a table write: a write error in it (a
 * pool allocation brought into VRAM) refuses the move with DEVICE_ERROR
 * and gives no space up; a read error in a victim's copy (the hook's read
 * window on the victim's VRAM) leaves both allocations where they were.
 * Expectations come from the commands the test sent, not from the device.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmmu/engine_regs.h>
#include <gmmu/simlink.h>

#include "soc_test_util.h"

#define KIB         UINT64_C(1024)
#define OP_FILL     0u
#define OP_CHECKSUM 2u
#define ENGINE      0u
#define RUN_BYTES   4096u
#define BUF_BYTES   (64 * KIB)

static struct gmmu_dev *dev;

static struct gmmu_vram_rsp vram(void)
{
    struct gmmu_vram_rsp v;
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    return v;
}

static struct gmmu_pt_stats pt_stats(void)
{
    struct gmmu_pt_stats s;
    assert_int_equal(gmmu_get_pt_stats(dev, &s), 0);
    return s;
}

/* Removes every armed window; returns the write bursts the injected
   errors have failed since the simulation started. */
static uint64_t failed_writes(void)
{
    uint64_t writes = 0;
    int rc = gmmu_sim_test_ddr_fault(dev, 0, 0, 0, 0, NULL, &writes);
    if (rc)
        fail_msg("DDR_FAULT: %s", gmmu_strerror(rc));
    return writes;
}

/* Removes every armed window; returns the read beats the injected errors
   have failed since the simulation started. */
static uint64_t failed_reads(void)
{
    uint64_t reads = 0;
    int rc = gmmu_sim_test_ddr_fault(dev, 0, 0, 0, 0, &reads, NULL);
    if (rc)
        fail_msg("DDR_FAULT: %s", gmmu_strerror(rc));
    return reads;
}

/* The next write burst into the VRAM segment fails (SLVERR, nothing
   written). */
static void arm_next_vram_write(void)
{
    uint64_t segment = vram().segment_bytes;
    int rc = gmmu_sim_test_ddr_fault(dev, GMMU_SIMLINK_FAULT_WRITE, 0, segment, 1, NULL, NULL);
    if (rc)
        fail_msg("DDR_FAULT: %s", gmmu_strerror(rc));
}

static uint32_t new_as(void)
{
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    return as;
}

static uint32_t new_alloc(uint64_t size)
{
    struct gmmu_alloc_req req = { .size = size };
    struct gmmu_alloc_rsp rsp;
    assert_int_equal(gmmu_alloc(dev, &req, &rsp), 0);
    return rsp.handle;
}

static int map(uint32_t as, uint32_t alloc, uint64_t *va)
{
    struct gmmu_map_req req = { .as_handle = as, .alloc_handle = alloc, .size = BUF_BYTES };
    return gmmu_map_va(dev, &req, va);
}

/* A GPU engine fills RUN_BYTES at va through the space and checksums them
   back: the space's mappings translate in the MMU. */
static void engine_through(uint32_t as, uint64_t va, uint64_t pattern)
{
    struct gmmu_engine_rsp r = soc_engine_run(dev, ENGINE, OP_FILL, as, va, 0, RUN_BYTES, pattern);
    assert_int_equal(r.engine_status & GMMU_ENGINE_STATUS_FAULT, 0);
    assert_int_equal(r.bytes_done, RUN_BYTES);
    r = soc_engine_run(dev, ENGINE, OP_CHECKSUM, as, 0, va, RUN_BYTES, 0);
    assert_int_equal(r.engine_status & GMMU_ENGINE_STATUS_FAULT, 0);
    assert_true(r.result == pattern * (RUN_BYTES / 8));
}

/* Every command on a space given up but DESTROY_AS answers DEVICE_ERROR. */
static void assert_given_up(uint32_t as, uint64_t va, uint32_t alloc)
{
    struct gmmu_query_rsp q;
    uint64_t out;
    assert_int_equal(gmmu_query_va(dev, as, va, &q), GMMU_STATUS_DEVICE_ERROR);
    assert_int_equal(map(as, alloc, &out), GMMU_STATUS_DEVICE_ERROR);
    assert_int_equal(gmmu_unmap_va(dev, as, va, BUF_BYTES), GMMU_STATUS_DEVICE_ERROR);
    assert_int_equal(gmmu_reserve_va(dev, as, 0, 0, BUF_BYTES, &out), GMMU_STATUS_DEVICE_ERROR);
    struct gmmu_engine_req req = {
        .engine = ENGINE, .op = OP_FILL, .as_handle = as, .length = RUN_BYTES, .dst_va = va
    };
    struct gmmu_engine_rsp rsp;
    assert_int_equal(gmmu_engine_run(dev, &req, &rsp), GMMU_STATUS_DEVICE_ERROR);
}

/* The engine restarted after one error: one error counted, and a later
   command's packets complete. */
static void assert_engine_restarted(const struct gmmu_pt_stats *before)
{
    struct gmmu_pt_stats s = pt_stats();
    assert_int_equal(s.engine, 1);
    assert_int_equal(s.eng_errors, before->eng_errors + 1);
    uint32_t as = new_as();
    uint32_t alloc = new_alloc(BUF_BYTES);
    uint64_t va;
    assert_int_equal(map(as, alloc, &va), 0);
    struct gmmu_pt_stats after = pt_stats();
    assert_true(after.eng_packets > s.eng_packets);
    assert_int_equal(after.eng_errors, s.eng_errors);
    engine_through(as, va, 0x0123456789ABCDEFull);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_free(dev, alloc), 0);
}

/* After a space was given up, with its allocations freed and every other
   space destroyed: the VRAM is free but for the tables lost. */
static void assert_only_tables_lost(const struct gmmu_vram_rsp *start, uint64_t lost_at_least)
{
    struct gmmu_vram_rsp v = vram();
    uint64_t lost = v.table_bytes - start->table_bytes;
    printf("tables lost: %llu bytes (the space had %llu)\n", (unsigned long long)lost,
           (unsigned long long)lost_at_least);
    assert_true(v.table_bytes > start->table_bytes);
    assert_true(lost >= lost_at_least);
    assert_int_equal(v.allocations, start->allocations);
    assert_int_equal(v.address_spaces, start->address_spaces);
    assert_int_equal(v.resident_bytes, start->resident_bytes);
    assert_true(v.free_bytes + v.table_bytes == start->free_bytes + start->table_bytes);
}

/* MAP_VA in A meets a write error: A is given up; B is untouched. */
static void test_map_fault_gives_up_the_space(void **state)
{
    (void)state;
    struct gmmu_vram_rsp v0 = vram();
    struct gmmu_pt_stats p0 = pt_stats();
    uint64_t w0 = failed_writes();

    uint32_t b = new_as();
    struct soc_buffer buf_b = soc_make_buffer(dev, b, BUF_BYTES, 0, 0, 0);
    engine_through(b, buf_b.va, 0x1111);
    struct gmmu_query_rsp qb;
    assert_int_equal(gmmu_query_va(dev, b, buf_b.va + 0x1008, &qb), 0);
    struct gmmu_vram_rsp vb = vram();

    uint32_t a = new_as();
    struct soc_buffer buf_a = soc_make_buffer(dev, a, BUF_BYTES, 0, 0, 0);
    engine_through(a, buf_a.va, 0x2222);
    uint32_t extra = new_alloc(BUF_BYTES);
    struct gmmu_vram_rsp va_ = vram();
    uint64_t tables_a = va_.table_bytes - vb.table_bytes;
    assert_true(tables_a > 0);

    arm_next_vram_write();
    uint64_t out;
    assert_int_equal(map(a, extra, &out), GMMU_STATUS_DEVICE_ERROR);
    assert_int_equal(failed_writes(), w0 + 1);

    assert_given_up(a, buf_a.va, extra);
    struct gmmu_vram_rsp vf = vram();
    assert_int_equal(vf.allocations, va_.allocations);
    assert_int_equal(vf.resident_bytes, va_.resident_bytes);
    assert_int_equal(vf.address_spaces, va_.address_spaces);
    assert_true(vf.table_bytes >= va_.table_bytes);
    assert_true(vf.free_bytes + vf.table_bytes == va_.free_bytes + va_.table_bytes);

    /* B: its mapping as it was, a new one mapped, used and unmapped. */
    struct gmmu_query_rsp q;
    assert_int_equal(gmmu_query_va(dev, b, buf_b.va + 0x1008, &q), 0);
    assert_int_equal(q.state, qb.state);
    assert_true(q.pa == qb.pa);
    engine_through(b, buf_b.va, 0x3333);
    uint64_t vb2;
    assert_int_equal(map(b, extra, &vb2), 0);
    engine_through(b, vb2, 0x4444);
    assert_int_equal(gmmu_unmap_va(dev, b, vb2, BUF_BYTES), 0);
    assert_int_equal(gmmu_query_va(dev, b, vb2, &q), 0);
    assert_int_equal(q.state, 0);

    assert_engine_restarted(&p0);

    /* A's allocation can be freed while mapped there; A can be destroyed. */
    assert_int_equal(gmmu_free(dev, buf_a.alloc), 0);
    assert_int_equal(gmmu_destroy_as(dev, a), 0);
    assert_int_equal(gmmu_query_va(dev, a, buf_a.va, &q), GMMU_STATUS_BAD_HANDLE);
    engine_through(b, buf_b.va, 0x5555);

    assert_int_equal(gmmu_free(dev, extra), 0);
    assert_int_equal(gmmu_destroy_as(dev, b), 0);
    assert_int_equal(gmmu_free(dev, buf_b.alloc), 0);
    assert_only_tables_lost(&v0, tables_a);
}

/* UNMAP_VA meets a write error: the same, for a space whose only command
   in flight was an unmap. */
static void test_unmap_fault_gives_up_the_space(void **state)
{
    (void)state;
    struct gmmu_vram_rsp v0 = vram();
    struct gmmu_pt_stats p0 = pt_stats();
    uint64_t w0 = failed_writes();

    uint32_t b = new_as();
    struct soc_buffer buf_b = soc_make_buffer(dev, b, BUF_BYTES, 0, 0, 0);
    struct gmmu_vram_rsp vb = vram();
    uint32_t c = new_as();
    struct soc_buffer buf_c = soc_make_buffer(dev, c, BUF_BYTES, 0, 0, 0);
    engine_through(c, buf_c.va, 0x6666);
    uint64_t tables_c = vram().table_bytes - vb.table_bytes;

    arm_next_vram_write();
    assert_int_equal(gmmu_unmap_va(dev, c, buf_c.va, BUF_BYTES), GMMU_STATUS_DEVICE_ERROR);
    assert_int_equal(failed_writes(), w0 + 1);
    assert_given_up(c, buf_c.va, buf_c.alloc);
    engine_through(b, buf_b.va, 0x7777);
    assert_engine_restarted(&p0);

    assert_int_equal(gmmu_destroy_as(dev, c), 0);
    assert_int_equal(gmmu_free(dev, buf_c.alloc), 0);
    assert_int_equal(gmmu_destroy_as(dev, b), 0);
    assert_int_equal(gmmu_free(dev, buf_b.alloc), 0);
    assert_only_tables_lost(&v0, tables_c);
}

/* A space with a 64 KB allocation mapped in 4 KB pages (its tables made
   by the engine) and a 4 KB allocation mapped beside it in the same
   4 KB-page table: a leaf edit with the engine's queue idle, which the
   firmware stores by CPU (no packet pushed). */
struct leaf_space {
    uint32_t as, big, small;
    uint64_t big_va, small_va;
};

static int map_4k_pages(uint32_t as, uint32_t alloc, uint64_t size, uint64_t *va)
{
    struct gmmu_map_req req = {
        .as_handle = as, .alloc_handle = alloc, .size = size, .page_sizes = 1u
    };
    return gmmu_map_va(dev, &req, va);
}

static struct leaf_space leaf_space(uint64_t pattern)
{
    struct leaf_space s = { .as = new_as(),
                            .big = new_alloc(BUF_BYTES),
                            .small = new_alloc(4 * KIB) };
    assert_int_equal(map_4k_pages(s.as, s.big, BUF_BYTES, &s.big_va), 0);
    engine_through(s.as, s.big_va, pattern);
    uint32_t packets = pt_stats().eng_packets;
    assert_int_equal(map_4k_pages(s.as, s.small, 4 * KIB, &s.small_va), 0);
    assert_true(s.small_va >> 21 == s.big_va >> 21);
    assert_int_equal(pt_stats().eng_packets, packets); /* the CPU's stores */
    return s;
}

/* A write error on the CPU's stores of a leaf edit (a one-page MAP_VA,
   then a one-page UNMAP_VA, into tables that are there, the engine idle)
   fails the command as the engine's would: DEVICE_ERROR, the space given
   up, one engine error counted, the device serving, other spaces mapping
   and running, VRAM accounting exact. The BUS_ERROR interrupt, which
   stops the firmware, must not fire for it. */
static void test_leaf_edit_fault_gives_up_the_space(void **state)
{
    (void)state;
    struct gmmu_vram_rsp v0 = vram();
    uint64_t w0 = failed_writes();

    uint32_t b = new_as();
    struct soc_buffer buf_b = soc_make_buffer(dev, b, BUF_BYTES, 0, 0, 0);
    engine_through(b, buf_b.va, 0xB0B0);
    struct gmmu_vram_rsp vb = vram();

    /* MAP_VA: a 4 KB page more into a's leaf table. */
    struct leaf_space a = leaf_space(0xA0A0);
    assert_int_equal(gmmu_unmap_va(dev, a.as, a.small_va, 4 * KIB), 0); /* direct, no fault */
    uint64_t tables_a = vram().table_bytes - vb.table_bytes;
    struct gmmu_pt_stats p0 = pt_stats();
    struct gmmu_vram_rsp v1 = vram();
    arm_next_vram_write();
    uint64_t out;
    assert_int_equal(map_4k_pages(a.as, a.small, 4 * KIB, &out), GMMU_STATUS_DEVICE_ERROR);
    assert_int_equal(failed_writes(), w0 + 1);
    assert_int_equal(gmmu_ping(dev, "leaf", 4), 0);
    struct gmmu_pt_stats p1 = pt_stats();
    assert_int_equal(p1.eng_errors, p0.eng_errors + 1);
    assert_int_equal(p1.eng_packets, p0.eng_packets); /* the CPU's stores took it */
    assert_given_up(a.as, a.big_va, a.small);
    struct gmmu_vram_rsp vf = vram();
    assert_int_equal(vf.allocations, v1.allocations);
    assert_int_equal(vf.resident_bytes, v1.resident_bytes);
    assert_int_equal(vf.address_spaces, v1.address_spaces);
    assert_true(vf.free_bytes + vf.table_bytes == v1.free_bytes + v1.table_bytes);
    engine_through(b, buf_b.va, 0xB1B1);

    /* UNMAP_VA: a 4 KB page out of c's leaf table (others stay in it). */
    struct gmmu_vram_rsp vc = vram();
    struct leaf_space c = leaf_space(0xC0C0);
    uint64_t tables_c = vram().table_bytes - vc.table_bytes;
    p0 = pt_stats();
    arm_next_vram_write();
    assert_int_equal(gmmu_unmap_va(dev, c.as, c.small_va, 4 * KIB), GMMU_STATUS_DEVICE_ERROR);
    assert_int_equal(failed_writes(), w0 + 2);
    assert_int_equal(gmmu_ping(dev, "leaf", 4), 0);
    p1 = pt_stats();
    assert_int_equal(p1.eng_errors, p0.eng_errors + 1);
    assert_int_equal(p1.eng_packets, p0.eng_packets);
    assert_given_up(c.as, c.big_va, c.small);

    /* b maps, runs and unmaps; a new space works; then everything goes. */
    uint32_t extra = new_alloc(BUF_BYTES);
    uint64_t vb2;
    assert_int_equal(map(b, extra, &vb2), 0);
    engine_through(b, vb2, 0xB2B2);
    assert_int_equal(gmmu_unmap_va(dev, b, vb2, BUF_BYTES), 0);
    struct leaf_space d = leaf_space(0xD0D0);
    engine_through(d.as, d.big_va, 0xD1D1);
    assert_int_equal(gmmu_destroy_as(dev, d.as), 0);
    struct leaf_space *spaces[] = { &a, &c, &d };
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(gmmu_free(dev, spaces[i]->big), 0);
        assert_int_equal(gmmu_free(dev, spaces[i]->small), 0);
    }
    assert_int_equal(gmmu_destroy_as(dev, a.as), 0);
    assert_int_equal(gmmu_destroy_as(dev, c.as), 0);
    assert_int_equal(gmmu_free(dev, extra), 0);
    assert_int_equal(gmmu_destroy_as(dev, b), 0);
    assert_int_equal(gmmu_free(dev, buf_b.alloc), 0);
    assert_only_tables_lost(&v0, tables_a + tables_c);
    struct gmmu_vram_rsp ve = vram();
    assert_true(ve.table_bytes - v0.table_bytes == tables_a + tables_c);
}

static uint32_t alloc_flags(uint64_t size, uint32_t flags)
{
    struct gmmu_alloc_req req = { .size = size, .flags = flags };
    struct gmmu_alloc_rsp rsp;
    int rc = gmmu_alloc(dev, &req, &rsp);
    if (rc)
        fail_msg("ALLOC %llu: %s", (unsigned long long)size, gmmu_strerror(rc));
    return rsp.handle;
}

static uint32_t alloc_state(uint32_t alloc)
{
    struct gmmu_alloc_info info;
    assert_int_equal(gmmu_query_alloc(dev, alloc, &info), 0);
    return info.state;
}

#define MAX_FILLERS 96

/* Contiguous allocations, held resident, over every free block of VRAM,
   from fillers[n] on; returns the new count. */
static unsigned fill_vram(uint32_t *fillers, unsigned n)
{
    for (struct gmmu_vram_rsp v = vram(); v.largest_free >= 4 * KIB; v = vram()) {
        assert_true(n < MAX_FILLERS);
        fillers[n] = alloc_flags(v.largest_free, GMMU_ALLOC_FLAG_CONTIGUOUS);
        /* Held resident, so that no filler is a victim (a contiguous
           allocation may be evicted into the aperture). */
        uint64_t fence = 0;
        assert_int_equal(gmmu_make_resident(dev, &fillers[n], 1, &fence), 0);
        n++;
    }
    return n;
}

/* A residency move's COPY meets a write error: a VRAM-preferred allocation
   in the backing pool is brought into VRAM by MAKE_RESIDENT, and the
   engine's first write of the copy fails. The command answers
   DEVICE_ERROR and changes nothing: the allocation is still in the pool,
   its mapping translates there with its bytes, the VRAM taken for the copy
   is free again, and the space is not given up (no table was written).
   The next MAKE_RESIDENT moves it. */
static void test_move_copy_fault_changes_nothing(void **state)
{
    (void)state;
    struct gmmu_vram_rsp v0 = vram();
    uint64_t w0 = failed_writes();
    const uint64_t pool = 1024 * KIB;
    uint64_t bus;
    void *host;
    assert_int_equal(gmmu_sysmem_alloc(dev, pool + BUF_BYTES, &bus, &host), 0);
    uint64_t pool_at = (bus + BUF_BYTES - 1) & ~(BUF_BYTES - 1);
    assert_int_equal(gmmu_add_backing(dev, pool_at, pool), 0);

    /* VRAM full but for a 1 MiB spacer; the allocation lands in the pool;
       the spacer goes, leaving room for tables and the move. */
    uint32_t m = new_as();
    uint32_t spacer = alloc_flags(1024 * KIB, 0);
    uint32_t fillers[MAX_FILLERS];
    unsigned n = 0;
    uint64_t r0 = failed_reads();
    n = fill_vram(fillers, n);
    uint32_t p = alloc_flags(BUF_BYTES, GMMU_ALLOC_FLAG_VRAM_PREFERRED);
    assert_int_equal(alloc_state(p), GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(gmmu_free(dev, spacer), 0);
    uint64_t va;
    assert_int_equal(map(m, p, &va), 0);
    engine_through(m, va, 0x9999);
    struct gmmu_query_rsp q;
    assert_int_equal(gmmu_query_va(dev, m, va, &q), 0);
    assert_int_equal(q.segment, 0);
    struct gmmu_vram_rsp vpre = vram();

    arm_next_vram_write();
    uint64_t fence = 0;
    assert_int_equal(gmmu_make_resident(dev, &p, 1, &fence), GMMU_STATUS_DEVICE_ERROR);
    assert_int_equal(failed_writes(), w0 + 1);
    assert_int_equal(alloc_state(p), GMMU_ALLOC_STATE_BACKING);
    struct gmmu_query_rsp q2;
    assert_int_equal(gmmu_query_va(dev, m, va, &q2), 0);
    assert_int_equal(q2.segment, 0);
    assert_true(q2.pa == q.pa);
    struct gmmu_engine_rsp r = soc_engine_run(dev, ENGINE, OP_CHECKSUM, m, 0, va, RUN_BYTES, 0);
    assert_true(r.result == 0x9999ull * (RUN_BYTES / 8));
    struct gmmu_vram_rsp vf = vram();
    assert_true(vf.free_bytes == vpre.free_bytes);
    assert_true(vf.table_bytes == vpre.table_bytes);
    assert_true(vf.backing_free == vpre.backing_free);
    /* GET_PT_STATS.eng_errors counts the errors of table commands only
       (ptm_paging's), not a move's copy: not checked here. The engine ran
       on: the move below is its packets. */
    struct gmmu_pt_stats p1 = pt_stats();

    /* Not given up: the move goes through now, bytes and all. */
    assert_int_equal(gmmu_make_resident(dev, &p, 1, &fence), 0);
    assert_true(pt_stats().eng_packets > p1.eng_packets);
    assert_int_equal(alloc_state(p), GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(gmmu_query_va(dev, m, va, &q2), 0);
    assert_int_equal(q2.segment, 1);
    r = soc_engine_run(dev, ENGINE, OP_CHECKSUM, m, 0, va, RUN_BYTES, 0);
    assert_true(r.result == 0x9999ull * (RUN_BYTES / 8));
    assert_int_equal(gmmu_evict(dev, &p, 1), 0);

    /* A read error in a move out of VRAM: VRAM full again, a second
       VRAM-preferred allocation in the pool is made resident, so the first
       (residency 0, the only one that may be evicted) must go to the pool;
       its copy's reads of it fail. (32 KiB of VRAM are left free: a move
       needs headroom for the tables its rewrite may take.) The victim that cannot move is skipped
       as if there were no room: the command answers OK with the second
       left resident in the pool (a VRAM-preferred allocation's place when
       room cannot be made), both where they were, nothing lost. The next
       MAKE_RESIDENT swaps them. */
    uint32_t slack = alloc_flags(BUF_BYTES / 2, GMMU_ALLOC_FLAG_CONTIGUOUS);
    n = fill_vram(fillers, n);
    uint32_t q_alloc = alloc_flags(BUF_BYTES, GMMU_ALLOC_FLAG_VRAM_PREFERRED);
    assert_int_equal(alloc_state(q_alloc), GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(gmmu_free(dev, slack), 0); /* room for tables, not for it */
    struct gmmu_alloc_info pi;
    assert_int_equal(gmmu_query_alloc(dev, p, &pi), 0);
    assert_int_equal(pi.extents, 1);
    vpre = vram();
    assert_int_equal(gmmu_sim_test_ddr_fault(dev, GMMU_SIMLINK_FAULT_READ, pi.base,
                                             pi.base + BUF_BYTES, 1, NULL, NULL),
                     0);
    assert_int_equal(gmmu_make_resident(dev, &q_alloc, 1, &fence), 0);
    assert_true(failed_reads() > r0);
    assert_int_equal(alloc_state(p), GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(alloc_state(q_alloc), GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(gmmu_query_va(dev, m, va, &q2), 0);
    assert_true(q2.segment == 1 && q2.pa == pi.base);
    r = soc_engine_run(dev, ENGINE, OP_CHECKSUM, m, 0, va, RUN_BYTES, 0);
    assert_true(r.result == 0x9999ull * (RUN_BYTES / 8));
    vf = vram();
    assert_true(vf.free_bytes == vpre.free_bytes);
    assert_true(vf.backing_free == vpre.backing_free);
    assert_int_equal(gmmu_make_resident(dev, &q_alloc, 1, &fence), 0);
    assert_int_equal(alloc_state(p), GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(alloc_state(q_alloc), GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(gmmu_query_va(dev, m, va, &q2), 0);
    assert_int_equal(q2.segment, 0);
    r = soc_engine_run(dev, ENGINE, OP_CHECKSUM, m, 0, va, RUN_BYTES, 0);
    assert_true(r.result == 0x9999ull * (RUN_BYTES / 8));
    assert_int_equal(gmmu_evict(dev, &q_alloc, 1), 0);
    assert_int_equal(gmmu_evict(dev, &q_alloc, 1), 0);
    assert_int_equal(gmmu_free(dev, q_alloc), 0);

    assert_int_equal(gmmu_destroy_as(dev, m), 0);
    assert_int_equal(gmmu_free(dev, p), 0);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(gmmu_free(dev, fillers[i]), 0);
    assert_int_equal(gmmu_remove_backing(dev, pool_at, pool, 0, NULL), 0);
    assert_int_equal(gmmu_sysmem_free(dev, bus), 0);
    struct gmmu_vram_rsp ve = vram();
    assert_true(ve.free_bytes == v0.free_bytes);
    assert_true(ve.table_bytes == v0.table_bytes);
    assert_int_equal(ve.allocations, v0.allocations);
}

/* The hook itself: an armed window that nothing touches fails nothing and
   is removed; a refused window is an error. */
static void test_hook_is_quiet_when_untouched(void **state)
{
    (void)state;
    uint64_t w0 = failed_writes();
    arm_next_vram_write();
    assert_int_equal(failed_writes(), w0); /* removed, never hit */
    uint32_t as = new_as();
    struct soc_buffer buf = soc_make_buffer(dev, as, BUF_BYTES, 0, 0, 0);
    engine_through(as, buf.va, 0x8888);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_free(dev, buf.alloc), 0);
    assert_int_equal(failed_writes(), w0);
    assert_int_equal(gmmu_sim_test_ddr_fault(dev, GMMU_SIMLINK_FAULT_WRITE, 8, 8, 1, NULL, NULL),
                     GMMU_E_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook_is_quiet_when_untouched),
        cmocka_unit_test(test_map_fault_gives_up_the_space),
        cmocka_unit_test(test_unmap_fault_gives_up_the_space),
        cmocka_unit_test(test_leaf_edit_fault_gives_up_the_space),
        cmocka_unit_test(test_move_copy_fault_changes_nothing),
    };
    return soc_run_tests(tests, &dev);
}
