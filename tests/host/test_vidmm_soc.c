// SPDX-License-Identifier: Apache-2.0
/*
 * VidMm on the simulated SoC, through libgmmu: the firmware builds page
 * tables in the DDR model and programs the real MMU registers (address-space
 * table, invalidations). Expected addresses and page sizes are worked out by
 * hand from the allocation's base, not taken from the firmware.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soc_test_util.h"

#define MIB (1024ull * 1024)

static struct gmmu_dev *dev;

static struct gmmu_query_rsp query(uint32_t as, uint64_t va)
{
    struct gmmu_query_rsp q;
    assert_int_equal(gmmu_query_va(dev, as, va, &q), 0);
    return q;
}

static uint64_t map(uint32_t as, uint32_t alloc, uint64_t offset, uint64_t size, uint32_t flags,
                    uint32_t pages)
{
    struct gmmu_map_req req = { .as_handle = as,
                                .alloc_handle = alloc,
                                .offset = offset,
                                .size = size,
                                .flags = flags,
                                .page_sizes = pages };
    uint64_t va = 0;
    int rc = gmmu_map_va(dev, &req, &va);
    if (rc)
        fail_msg("MAP_VA: %s", gmmu_strerror(rc));
    return va;
}

/* One address space, one contiguous 4 MiB allocation, mapped with each page
   size; then a reserved range with tiles and Zero; then everything freed. */
static void test_map_query_unmap_each_page_size(void **state)
{
    (void)state;
    struct gmmu_vram_rsp v0, v1;
    assert_int_equal(gmmu_get_vram(dev, &v0), 0);

    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    struct gmmu_alloc_req areq = { .size = 4 * MIB, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    struct gmmu_alloc_rsp alloc;
    assert_int_equal(gmmu_alloc(dev, &areq, &alloc), 0);
    assert_int_equal(alloc.base % (4 * MIB), 0); /* a buddy block is naturally aligned */

    /* 2 MB pages: VA and PA both 2 MB aligned. */
    uint64_t va2m = map(as, alloc.handle, 0, 4 * MIB, 0, 0);
    assert_int_equal(va2m % (2 * MIB), 0);
    struct gmmu_query_rsp q = query(as, va2m + 0x201234);
    assert_int_equal(q.state, 2);
    assert_int_equal(q.page_shift, 21);
    assert_int_equal(q.segment, 1);
    assert_int_equal(q.pa, alloc.base + 0x201234);

    /* 64 KB pages only, read-only. */
    uint64_t va64 = map(as, alloc.handle, 0x10000, 0x20000, GMMU_MAP_FLAG_READ_ONLY, 0x2);
    q = query(as, va64 + 0x10008);
    assert_int_equal(q.page_shift, 16);
    assert_int_equal(q.pa, alloc.base + 0x20008);
    assert_int_equal(q.flags & GMMU_MAP_FLAG_READ_ONLY, GMMU_MAP_FLAG_READ_ONLY);

    /* 4 KB pages only, no-execute. */
    uint64_t va4k = map(as, alloc.handle, 0x3000, 0x2000, GMMU_MAP_FLAG_NO_EXECUTE, 0x1);
    q = query(as, va4k + 0x1FFC);
    assert_int_equal(q.page_shift, 12);
    assert_int_equal(q.pa, alloc.base + 0x4FFC);
    assert_int_equal(q.flags & GMMU_MAP_FLAG_NO_EXECUTE, GMMU_MAP_FLAG_NO_EXECUTE);

    /* Unmap one: its VAs no longer translate; the others still do. */
    assert_int_equal(gmmu_unmap_va(dev, as, va64, 0x20000), 0);
    assert_int_equal(query(as, va64).state, 0);
    assert_int_equal(query(as, va4k).state, 2);

    /* A reserved 1 MiB range: a batch maps two 64 KB tiles and leaves the
       rest Zero. */
    uint64_t rva = 0;
    assert_int_equal(gmmu_reserve_va(dev, as, 0, 0, 1 * MIB, &rva), 0);
    struct gmmu_update_op ops[3] = {
        { .op = GMMU_UPDATE_OP_UNMAP, .flags = GMMU_MAP_FLAG_ZERO, .va = rva, .size = 1 * MIB },
        { .op = GMMU_UPDATE_OP_MAP,
          .va = rva,
          .size = 0x10000,
          .alloc_handle = alloc.handle,
          .arg = 0x30000 },
        { .op = GMMU_UPDATE_OP_MAP,
          .va = rva + 0x80000,
          .size = 0x10000,
          .alloc_handle = alloc.handle,
          .arg = 0x40000 },
    };
    assert_int_equal(gmmu_update_va(dev, as, ops, 3), 0);
    q = query(as, rva + 0x8);
    assert_int_equal(q.state, 2);
    assert_int_equal(q.pa, alloc.base + 0x30008);
    assert_int_equal(query(as, rva + 0x40000).state, 1); /* Zero */
    q = query(as, rva + 0x80010);
    assert_int_equal(q.pa, alloc.base + 0x40010);

    /* A batch with one bad op (outside the reservation) changes nothing. */
    struct gmmu_update_op bad[2] = {
        { .op = GMMU_UPDATE_OP_UNMAP, .va = rva, .size = 0x10000 },
        { .op = GMMU_UPDATE_OP_UNMAP, .va = rva + 2 * MIB, .size = 0x10000 },
    };
    assert_true(gmmu_update_va(dev, as, bad, 2) > 0);
    assert_int_equal(query(as, rva + 0x8).state, 2);

    /* FREE unmaps the allocation everywhere, tiles included. */
    assert_int_equal(gmmu_free(dev, alloc.handle), 0);
    assert_int_equal(query(as, va2m).state, 0);
    assert_int_equal(query(as, rva + 0x8).state != 2, 1);
    assert_int_equal(gmmu_unmap_va(dev, as, rva, 1 * MIB), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);

    /* Nothing leaked: VRAM accounting is back where it started. */
    assert_int_equal(gmmu_get_vram(dev, &v1), 0);
    assert_int_equal(v1.free_bytes, v0.free_bytes);
    assert_int_equal(v1.tables, v0.tables);
    assert_int_equal(v1.allocations, v0.allocations);
    assert_int_equal(v1.address_spaces, v0.address_spaces);
}

static void test_bad_handles_and_ranges(void **state)
{
    (void)state;
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    struct gmmu_query_rsp q;
    assert_int_equal(gmmu_query_va(dev, as + 1000, 0x10000, &q), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(gmmu_free(dev, 0xDEAD), GMMU_STATUS_BAD_HANDLE);
    struct gmmu_map_req req = { .as_handle = as, .alloc_handle = 0xBEEF, .size = 0x1000 };
    uint64_t va;
    assert_int_equal(gmmu_map_va(dev, &req, &va), GMMU_STATUS_BAD_HANDLE);
    struct gmmu_alloc_req huge = { .size = 1ull << 40 };
    struct gmmu_alloc_rsp out;
    assert_int_equal(gmmu_alloc(dev, &huge, &out), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), GMMU_STATUS_BAD_HANDLE);
}

/* A command much longer than a heartbeat tick (issue 33, failure 11):
 * while it runs the device shows it (FW_STATE.RUNNING with NEXT_SEQ naming
 * it; the command queued behind it is pending) and the heartbeat moves.
 * (gmmu_call's waiting on such a command is tested in test_libgmmu_flow,
 * where the time a command takes does not depend on the machine.)
 * The map is of system memory at 4 GiB (nothing reads the pages): 2048
 * entries, a few hundred thousand cycles (several ticks). */
#define LONG_MAP_BYTES (8u << 20)
#define SYS_ADDR       (UINT64_C(4) << 30)
#define STATE_POLLS    100000

static uint32_t long_map_setup(uint32_t *as)
{
    uint32_t asid;
    assert_int_equal(gmmu_create_as(dev, as, &asid), 0);
    struct gmmu_alloc_req a = { .size = LONG_MAP_BYTES,
                                .flags = GMMU_ALLOC_FLAG_SYSTEM,
                                .sys_addr = SYS_ADDR };
    struct gmmu_alloc_rsp r;
    assert_int_equal(gmmu_alloc(dev, &a, &r), 0);
    return r.handle;
}

static uint32_t fw_state(void)
{
    struct gmmu_ident id;
    assert_int_equal(gmmu_read_ident(dev, &id), 0);
    return id.fw_state;
}

static void test_long_command_shows_it_is_running(void **state)
{
    (void)state;
    uint32_t as, alloc = long_map_setup(&as);
    struct gmmu_map_req req = { .as_handle = as,
                                .alloc_handle = alloc,
                                .size = LONG_MAP_BYTES,
                                .va = UINT64_C(1) << 30,
                                .flags = GMMU_MAP_FLAG_FIXED_VA,
                                .page_sizes = 0x1 };
    uint32_t map_seq, ping_seq;
    assert_int_equal(gmmu_submit(dev, GMMU_OP_MAP_VA, &req, sizeof req, &map_seq), 0);
    assert_int_equal(gmmu_submit(dev, GMMU_OP_PING, NULL, 0, &ping_seq), 0);

    enum gmmu_cmd_state st = GMMU_CMD_PENDING;
    uint32_t beat0 = 0, beats_seen = 0;
    for (int i = 0; i < STATE_POLLS && st != GMMU_CMD_DONE && beats_seen < 2; i++) {
        assert_int_equal(gmmu_command_state(dev, map_seq, &st), 0);
        if (st != GMMU_CMD_RUNNING)
            continue;
        enum gmmu_cmd_state behind;
        assert_int_equal(gmmu_command_state(dev, ping_seq, &behind), 0);
        assert_int_equal(behind, GMMU_CMD_PENDING);
        struct gmmu_ident id;
        assert_int_equal(gmmu_read_ident(dev, &id), 0);
        if (!beats_seen || id.heartbeat != beat0)
            beats_seen++;
        beat0 = id.heartbeat;
    }
    if (beats_seen < 2)
        fail_msg("MAP_VA of %u MiB never seen running with the heartbeat moving (state %d)",
                 LONG_MAP_BYTES >> 20, (int)st);

    struct gmmu_completion cpl;
    assert_int_equal(gmmu_wait(dev, map_seq, &cpl, 600000), 0);
    assert_int_equal(cpl.status, GMMU_STATUS_OK);
    assert_int_equal(gmmu_wait(dev, ping_seq, &cpl, 600000), 0);
    assert_int_equal(gmmu_command_state(dev, map_seq, &st), 0);
    assert_int_equal(st, GMMU_CMD_DONE);
    assert_false(fw_state() & GMMU_MBOX_FW_STATE_RUNNING);
    assert_int_equal(fw_state() & GMMU_MBOX_FW_STATE_STATE, GMMU_FW_STATE_READY);

    struct gmmu_query_rsp q;
    assert_int_equal(gmmu_query_va(dev, as, req.va + LONG_MAP_BYTES - 4096, &q), 0);
    assert_int_equal(q.pa, SYS_ADDR + LONG_MAP_BYTES - 4096);

    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_free(dev, alloc), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_query_unmap_each_page_size),
        cmocka_unit_test(test_bad_handles_and_ranges),
        cmocka_unit_test(test_long_command_shows_it_is_running),
    };
    return soc_run_tests(tests, &dev);
}
