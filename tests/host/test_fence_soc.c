// SPDX-License-Identifier: Apache-2.0
/*
 * Monitored fences end to end on the simulated SoC: the paging fence that
 * MAP_VA and UNMAP_VA signal, read by command and from the fence page
 * through BAR1, and waits told by EVT_FENCE events on the event ring.
 * Expectations follow from the commands the test sends (each paging
 * command advances the paging fence by exactly one), not from the device.
 * No outcome depends on timing: a wait the test never satisfies times out
 * whatever the clock does.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "soc_test_util.h"

static struct gmmu_dev *dev;
static uint32_t as;

/* Every event pending now; the fence events among them go to out. */
static int take_fence_events(struct gmmu_fence_evt *out, int max)
{
    int n = 0;
    for (;;) {
        struct gmmu_event ev;
        int rc = gmmu_next_event(dev, &ev);
        assert_true(rc >= 0);
        if (rc == 0)
            return n;
        if (ev.type == GMMU_EVT_FENCE) {
            assert_int_equal(ev.payload_len, GMMU_FENCE_EVT_BYTES);
            assert_true(n < max);
            out[n++] = ev.u.fence;
        }
    }
}

static uint64_t paging_value(void)
{
    struct gmmu_fence_info fi;
    assert_int_equal(gmmu_fence_read(dev, GMMU_FENCE_PAGING, &fi), 0);
    assert_int_equal(fi.handle, GMMU_FENCE_PAGING);
    return fi.value;
}

static uint64_t map64k(uint32_t alloc, uint64_t *fence)
{
    struct gmmu_map_req req = { .as_handle = as, .alloc_handle = alloc, .size = 0x10000 };
    uint64_t va = 0;
    assert_int_equal(gmmu_map_va_fence(dev, &req, &va, fence), 0);
    return va;
}

static int setup(void **state)
{
    (void)state;
    struct gmmu_fence_evt evs[64];
    assert_int_equal(gmmu_create_as(dev, &as, NULL), 0);
    take_fence_events(evs, 64);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return gmmu_destroy_as(dev, as);
}

static void test_paging_fence_in_memory(void **state)
{
    (void)state;
    struct gmmu_alloc_req areq = { .size = 0x10000 };
    struct gmmu_alloc_rsp al;
    struct gmmu_fence_info fi;
    struct gmmu_vram_rsp vram;
    uint64_t before = paging_value(), f1, f2, mapped;

    assert_int_equal(gmmu_alloc(dev, &areq, &al), 0);
    uint64_t va = map64k(al.handle, &f1);
    assert_int_equal(f1, before + 1);
    assert_int_equal(gmmu_fence_read(dev, GMMU_FENCE_PAGING, &fi), 0);
    assert_int_equal(fi.value, f1);
    assert_true(fi.offset != UINT64_MAX);
    /* The same value in the fence page, read through BAR1 with no command. */
    assert_int_equal(gmmu_fence_read_mapped(dev, fi.offset, &mapped), 0);
    assert_int_equal(mapped, f1);
    assert_int_equal(gmmu_get_vram(dev, &vram), 0);
    assert_int_equal(vram.paging_fence, f1);
    /* The fence page is above the segment and inside the aperture. */
    assert_true(fi.offset >= vram.segment_bytes);
    /* A failed unmap signals nothing. */
    assert_int_equal(gmmu_unmap_va_fence(dev, as, va + 0x1000, 0x10000, &f2),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(paging_value(), f1);
    assert_int_equal(gmmu_unmap_va_fence(dev, as, va, 0x10000, &f2), 0);
    assert_int_equal(f2, f1 + 1);
    assert_int_equal(gmmu_fence_read_mapped(dev, fi.offset, &mapped), 0);
    assert_int_equal(mapped, f2);
    assert_int_equal(gmmu_free(dev, al.handle), 0);
}

/* Arm, then map: the map reaches the value and its event is on the ring
   by the time the map completes; it fires once. */
static void test_wait_for_map_through_event(void **state)
{
    (void)state;
    struct gmmu_alloc_req areq = { .size = 0x10000 };
    struct gmmu_alloc_rsp al;
    struct gmmu_fence_info fi;
    struct gmmu_fence_evt evs[8];
    uint64_t target = paging_value() + 1, f;

    assert_int_equal(gmmu_alloc(dev, &areq, &al), 0);
    assert_int_equal(gmmu_fence_arm(dev, GMMU_FENCE_PAGING, target, 0, &fi), 0);
    assert_int_equal(fi.reached, 0);
    assert_int_equal(take_fence_events(evs, 8), 0);
    uint64_t va = map64k(al.handle, &f);
    assert_int_equal(f, target);
    assert_int_equal(take_fence_events(evs, 8), 1);
    assert_int_equal(evs[0].handle, GMMU_FENCE_PAGING);
    assert_int_equal(evs[0].wait_value, target);
    assert_int_equal(evs[0].value, target);
    assert_int_equal(evs[0].owner, gmmu_fence_owner());
    assert_int_equal(gmmu_unmap_va(dev, as, va, 0x10000), 0);
    assert_int_equal(take_fence_events(evs, 8), 0);
    /* The helper on a value reached: at once. */
    assert_int_equal(gmmu_fence_wait(dev, GMMU_FENCE_PAGING, target, 1000), 0);
    take_fence_events(evs, 8);
    assert_int_equal(gmmu_free(dev, al.handle), 0);
}

/* A wait nobody satisfies times out and is cancelled: a later signal to
   its value posts nothing. */
static void test_wait_timeout_cancels(void **state)
{
    (void)state;
    struct gmmu_fence_info fi;
    struct gmmu_fence_evt evs[8];
    assert_int_equal(gmmu_fence_create(dev, 10, &fi), 0);
    uint32_t h = fi.handle;
    assert_int_equal(gmmu_fence_wait(dev, h, 11, 50), GMMU_E_TIMEOUT);
    assert_int_equal(gmmu_fence_signal(dev, h, 11, &fi), 0);
    assert_int_equal(fi.value, 11);
    assert_int_equal(take_fence_events(evs, 8), 0);
    assert_int_equal(gmmu_fence_destroy(dev, h), 0);
}

static void test_bad_input(void **state)
{
    (void)state;
    struct gmmu_fence_info fi;
    uint32_t h[GMMU_FENCES];
    assert_int_equal(gmmu_fence_create(dev, 10, &fi), 0);
    uint32_t a = fi.handle;
    assert_int_equal(gmmu_fence_signal(dev, a, 9, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(gmmu_fence_read(dev, a, &fi), 0);
    assert_int_equal(fi.value, 10);
    assert_int_equal(gmmu_fence_read(dev, 0x46000999u, &fi), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(gmmu_fence_read(dev, 0, &fi), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(gmmu_fence_signal(dev, GMMU_FENCE_PAGING, paging_value() + 1, NULL),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(gmmu_fence_destroy(dev, GMMU_FENCE_PAGING), GMMU_STATUS_INVALID_ARGUMENT);
    /* Full: beside the paging fence and a, 14 more fit. */
    int n = 0;
    for (; n < (int)GMMU_FENCES; n++) {
        int rc = gmmu_fence_create(dev, 0, &fi);
        if (rc) {
            assert_int_equal(rc, GMMU_STATUS_NO_MEMORY);
            break;
        }
        h[n] = fi.handle;
    }
    assert_int_equal(n, (int)GMMU_FENCES - 2);
    for (int i = 0; i < n; i++)
        assert_int_equal(gmmu_fence_destroy(dev, h[i]), 0);
    assert_int_equal(gmmu_fence_destroy(dev, h[0]), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(gmmu_fence_destroy(dev, a), 0);
}

/* Values wrap through 0 and still move forward. */
static void test_wrap(void **state)
{
    (void)state;
    struct gmmu_fence_info fi;
    struct gmmu_fence_evt evs[8];
    assert_int_equal(gmmu_fence_create(dev, UINT64_MAX, &fi), 0);
    uint32_t h = fi.handle;
    uint64_t mapped;
    assert_int_equal(gmmu_fence_read_mapped(dev, fi.offset, &mapped), 0);
    assert_int_equal(mapped, UINT64_MAX);
    assert_int_equal(gmmu_fence_arm(dev, h, 1, 0, &fi), 0);
    assert_int_equal(fi.reached, 0);
    assert_int_equal(gmmu_fence_signal(dev, h, 1, &fi), 0);
    assert_int_equal(take_fence_events(evs, 8), 1);
    assert_int_equal(evs[0].handle, h);
    assert_int_equal(evs[0].wait_value, 1);
    assert_int_equal(evs[0].value, 1);
    assert_int_equal(gmmu_fence_read_mapped(dev, fi.offset, &mapped), 0);
    assert_int_equal(mapped, 1);
    assert_int_equal(gmmu_fence_signal(dev, h, UINT64_MAX, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(gmmu_fence_destroy(dev, h), 0);
}

/* A host that left: its armed waits are dropped by the next owner's first
   wait, so nothing it armed fires or holds a slot. */
static void test_departed_host(void **state)
{
    (void)state;
    struct gmmu_fence_info fi;
    struct gmmu_fence_evt evs[8];
    assert_int_equal(gmmu_fence_create(dev, 0, &fi), 0);
    uint32_t h = fi.handle;
    size_t len = 0;
    for (uint64_t v = 1; v <= GMMU_FENCE_WAITS; v++) {
        struct gmmu_fence_wait_req rq = { .handle = h, .owner = 0x1234, .value = v };
        assert_int_equal(gmmu_call(dev, GMMU_OP_FENCE_WAIT, &rq, sizeof rq, &fi, sizeof fi, &len),
                         0);
    }
    /* The departed host's table is full: another wait of its is BUSY. */
    struct gmmu_fence_wait_req more = { .handle = h, .owner = 0x1234, .value = 100 };
    assert_int_equal(gmmu_call(dev, GMMU_OP_FENCE_WAIT, &more, sizeof more, &fi, sizeof fi, &len),
                     GMMU_STATUS_BUSY);
    /* This host's first wait takes over. */
    assert_int_equal(gmmu_fence_arm(dev, h, 50, 0, &fi), 0);
    assert_int_equal(gmmu_fence_signal(dev, h, 50, NULL), 0);
    assert_int_equal(take_fence_events(evs, 8), 1);
    assert_int_equal(evs[0].wait_value, 50);
    assert_int_equal(evs[0].owner, gmmu_fence_owner());
    assert_int_equal(gmmu_fence_destroy(dev, h), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_paging_fence_in_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wait_for_map_through_event, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wait_timeout_cancels, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_departed_host, setup, teardown),
    };
    return soc_run_tests(tests, &dev);
}
