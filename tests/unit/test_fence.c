// SPDX-License-Identifier: Apache-2.0
/*
 * The fence module on the host: a recording fence_hw stands for the fence
 * page and the event ring. Expectations are written out by hand (values,
 * handles, which events and in what order), not derived from the module.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fence.h"

#define MAX_EVTS 64

static struct fences f;
static struct gmmu_fence_evt evts[MAX_EVTS];
static unsigned n_evts, n_publish;
static uint64_t page[GMMU_FENCES];

static void rec_publish(void *ctx, uint32_t slot, uint64_t value)
{
    (void)ctx;
    assert_true(slot < GMMU_FENCES);
    page[slot] = value;
    n_publish++;
}

static void rec_notify(void *ctx, const struct gmmu_fence_evt *evt)
{
    (void)ctx;
    assert_true(n_evts < MAX_EVTS);
    evts[n_evts++] = *evt;
}

static uint64_t rec_offset(void *ctx, uint32_t slot)
{
    (void)ctx;
    return 0x1000000u + 16u * slot;
}

static const struct fence_hw hw = { rec_publish, rec_notify, rec_offset, NULL, NULL };

static int setup(void **state)
{
    (void)state;
    memset(page, 0xA5, sizeof page);
    n_evts = n_publish = 0;
    fence_init(&f, &hw);
    return 0;
}

static uint32_t create(uint64_t value)
{
    struct gmmu_fence_info in;
    assert_int_equal(fence_create(&f, value, &in), GMMU_STATUS_OK);
    assert_int_equal(in.value, value);
    return in.handle;
}

static uint64_t value_of(uint32_t h)
{
    struct gmmu_fence_info in;
    assert_int_equal(fence_read(&f, h, &in), GMMU_STATUS_OK);
    assert_int_equal(in.handle, h);
    return in.value;
}

static uint32_t signal(uint32_t h, uint64_t v)
{
    struct gmmu_fence_info in;
    return fence_signal(&f, h, v, &in);
}

static uint32_t wait_for(uint32_t h, uint32_t owner, uint64_t v, uint32_t flags, uint32_t *reached)
{
    struct gmmu_fence_wait_req rq = { .handle = h, .owner = owner, .value = v, .flags = flags };
    struct gmmu_fence_info in = { .reached = 77 };
    uint32_t st = fence_wait(&f, &rq, &in);
    if (reached)
        *reached = st == GMMU_STATUS_OK ? in.reached : 99;
    return st;
}

static void expect_evt(unsigned i, uint32_t h, uint32_t owner, uint64_t wait_value, uint64_t value)
{
    assert_true(i < n_evts);
    assert_int_equal(evts[i].handle, h);
    assert_int_equal(evts[i].owner, owner);
    assert_int_equal(evts[i].wait_value, wait_value);
    assert_int_equal(evts[i].value, value);
}

static void test_paging_fence(void **state)
{
    (void)state;
    struct gmmu_fence_info in;
    assert_int_equal(fence_read(&f, GMMU_FENCE_PAGING, &in), GMMU_STATUS_OK);
    assert_int_equal(in.value, 0);
    assert_int_equal(in.offset, 0x1000000u);
    assert_int_equal(page[0], 0);
    assert_int_equal(fence_paging_signal(&f), 1);
    assert_int_equal(fence_paging_signal(&f), 2);
    assert_int_equal(fence_paging_value(&f), 2);
    assert_int_equal(page[0], 2);
    /* The device's: the host neither signals nor destroys it. */
    assert_int_equal(signal(GMMU_FENCE_PAGING, 5), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(fence_destroy(&f, GMMU_FENCE_PAGING), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(value_of(GMMU_FENCE_PAGING), 2);
}

static void test_create_signal_read(void **state)
{
    (void)state;
    uint32_t a = create(10), b = create(0);
    struct gmmu_fence_info in;
    assert_int_equal(a, 0x46000002u); /* slot 1, generation 0 */
    assert_int_equal(b, 0x46000003u);
    assert_int_equal(fence_read(&f, a, &in), GMMU_STATUS_OK);
    assert_int_equal(in.offset, 0x1000000u + 16u);
    assert_int_equal(page[1], 10);
    assert_int_equal(signal(a, 11), GMMU_STATUS_OK);
    assert_int_equal(signal(a, 11), GMMU_STATUS_OK); /* equal: no change */
    unsigned published = n_publish;
    /* Lowering is refused and changes nothing. */
    assert_int_equal(signal(a, 10), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(signal(a, 0), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(n_publish, published);
    assert_int_equal(value_of(a), 11);
    assert_int_equal(page[1], 11);
    assert_int_equal(value_of(b), 0);
}

static void test_wrap(void **state)
{
    (void)state;
    uint32_t h = create(UINT64_MAX - 1), r;
    assert_true(fence_reached(0, UINT64_MAX));
    assert_false(fence_reached(UINT64_MAX, 0));
    assert_true(fence_reached(5, 5));
    /* 1 lies ahead of 2^64 - 2 (three steps on): armed, not reached. */
    assert_int_equal(wait_for(h, 7, 1, 0, &r), GMMU_STATUS_OK);
    assert_int_equal(r, 0);
    assert_int_equal(signal(h, UINT64_MAX), GMMU_STATUS_OK);
    assert_int_equal(n_evts, 0);
    assert_int_equal(signal(h, 2), GMMU_STATUS_OK); /* through 0 */
    assert_int_equal(n_evts, 1);
    expect_evt(0, h, 7, 1, 2);
    assert_int_equal(value_of(h), 2);
    /* Back across the wrap is lowering. */
    assert_int_equal(signal(h, UINT64_MAX), GMMU_STATUS_INVALID_ARGUMENT);
    /* A jump of 2^63 or more reads as going back. */
    assert_int_equal(signal(h, 2 + (UINT64_C(1) << 63)), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(signal(h, 1 + (UINT64_C(1) << 63)), GMMU_STATUS_OK);
    assert_int_equal(value_of(h), 1 + (UINT64_C(1) << 63));
    assert_int_equal(n_evts, 1);
}

static void test_bad_handles(void **state)
{
    (void)state;
    struct gmmu_fence_info in;
    uint32_t h = create(3);
    const uint32_t bad[] = { 0,
                             1,
                             0x46000000u,
                             h + 1,
                             h ^ 0x00010000u,
                             0x46000000u | (GMMU_FENCES + 1),
                             0x86000002u,
                             0xFFFFFFFFu };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(fence_read(&f, bad[i], &in), GMMU_STATUS_BAD_HANDLE);
        assert_int_equal(signal(bad[i], 9), GMMU_STATUS_BAD_HANDLE);
        assert_int_equal(fence_destroy(&f, bad[i]), GMMU_STATUS_BAD_HANDLE);
        assert_int_equal(wait_for(bad[i], 1, 9, 0, NULL), GMMU_STATUS_BAD_HANDLE);
    }
    assert_int_equal(fence_waits_armed(&f), 0);
    /* Destroyed: stale, and the slot's next fence has another handle. */
    assert_int_equal(fence_destroy(&f, h), GMMU_STATUS_OK);
    assert_int_equal(fence_read(&f, h, &in), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(fence_destroy(&f, h), GMMU_STATUS_BAD_HANDLE);
    uint32_t again = create(0);
    assert_int_equal(again, 0x46010002u);
    assert_int_equal(fence_read(&f, h, &in), GMMU_STATUS_BAD_HANDLE);
}

static void test_table_full(void **state)
{
    (void)state;
    uint32_t h[GMMU_FENCES];
    struct gmmu_fence_info in = { .handle = 1234 };
    for (uint32_t i = 1; i < GMMU_FENCES; i++)
        h[i] = create(i);
    assert_int_equal(fence_create(&f, 99, &in), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(in.handle, 1234);
    for (uint32_t i = 1; i < GMMU_FENCES; i++)
        assert_int_equal(value_of(h[i]), i);
    assert_int_equal(fence_destroy(&f, h[5]), GMMU_STATUS_OK);
    uint32_t n = create(42);
    assert_int_equal(n & 0xFFFFu, 6); /* slot 5 again */
    assert_int_not_equal(n, h[5]);
}

static void test_waits_fire_once(void **state)
{
    (void)state;
    uint32_t h = create(0), r;
    assert_int_equal(wait_for(h, 1, 5, 0, &r), GMMU_STATUS_OK);
    assert_int_equal(r, 0);
    assert_int_equal(wait_for(h, 1, 5, 0, &r), GMMU_STATUS_OK); /* the same: one wait */
    assert_int_equal(wait_for(h, 1, 3, 0, &r), GMMU_STATUS_OK);
    assert_int_equal(fence_waits_armed(&f), 2);
    assert_int_equal(signal(h, 4), GMMU_STATUS_OK);
    assert_int_equal(n_evts, 1);
    expect_evt(0, h, 1, 3, 4);
    assert_int_equal(signal(h, 9), GMMU_STATUS_OK);
    assert_int_equal(n_evts, 2);
    expect_evt(1, h, 1, 5, 9);
    assert_int_equal(signal(h, 100), GMMU_STATUS_OK);
    assert_int_equal(n_evts, 2); /* fired: gone */
    assert_int_equal(fence_waits_armed(&f), 0);
    /* Reached already: the event at once, nothing armed. */
    assert_int_equal(wait_for(h, 1, 100, 0, &r), GMMU_STATUS_OK);
    assert_int_equal(r, 1);
    assert_int_equal(n_evts, 3);
    expect_evt(2, h, 1, 100, 100);
    assert_int_equal(fence_waits_armed(&f), 0);
}

static void test_waits_in_value_order(void **state)
{
    (void)state;
    uint32_t h = create(UINT64_MAX - 10), p = GMMU_FENCE_PAGING;
    /* Armed out of order, across the wrap, on two fences. */
    assert_int_equal(wait_for(h, 2, 3, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(wait_for(h, 2, UINT64_MAX, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(wait_for(p, 2, 1, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(wait_for(h, 2, UINT64_MAX - 5, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(wait_for(h, 2, 0, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(signal(h, 7), GMMU_STATUS_OK);
    assert_int_equal(n_evts, 4);
    expect_evt(0, h, 2, UINT64_MAX - 5, 7);
    expect_evt(1, h, 2, UINT64_MAX, 7);
    expect_evt(2, h, 2, 0, 7);
    expect_evt(3, h, 2, 3, 7);
    /* The paging fence's wait fires from paging work. */
    assert_int_equal(fence_paging_signal(&f), 1);
    assert_int_equal(n_evts, 5);
    expect_evt(4, p, 2, 1, 1);
}

static void test_waits_full_and_cancel(void **state)
{
    (void)state;
    uint32_t h = create(0), r;
    for (uint32_t i = 0; i < GMMU_FENCE_WAITS; i++)
        assert_int_equal(wait_for(h, 3, 10 + i, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(wait_for(h, 3, 1000, 0, &r), GMMU_STATUS_BUSY);
    assert_int_equal(fence_waits_armed(&f), GMMU_FENCE_WAITS);
    /* Full, yet an armed one is still "armed", and a reached one fires. */
    assert_int_equal(wait_for(h, 3, 10, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(wait_for(h, 3, 0, 0, &r), GMMU_STATUS_OK);
    assert_int_equal(r, 1);
    assert_int_equal(n_evts, 1);
    /* Cancel one (a cancel of nothing changes nothing), then arm another. */
    assert_int_equal(wait_for(h, 3, 12, GMMU_FENCE_WAIT_FLAG_CANCEL, &r), GMMU_STATUS_OK);
    assert_int_equal(r, 0);
    assert_int_equal(wait_for(h, 3, 12, GMMU_FENCE_WAIT_FLAG_CANCEL, NULL), GMMU_STATUS_OK);
    assert_int_equal(fence_waits_armed(&f), GMMU_FENCE_WAITS - 1);
    assert_int_equal(wait_for(h, 3, 1000, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(signal(h, 12), GMMU_STATUS_OK);
    assert_int_equal(n_evts, 3); /* 10 and 11, not the cancelled 12 */
    expect_evt(1, h, 3, 10, 12);
    expect_evt(2, h, 3, 11, 12);
    /* Bad fields change nothing. */
    assert_int_equal(wait_for(h, 3, 5000, 2, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    struct gmmu_fence_wait_req rq = { .handle = h, .owner = 3, .value = 5000, .reserved = 1 };
    struct gmmu_fence_info in;
    assert_int_equal(fence_wait(&f, &rq, &in), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(fence_waits_armed(&f), GMMU_FENCE_WAITS - 2);
}

static void test_departed_host_and_destroy(void **state)
{
    (void)state;
    uint32_t a = create(0), b = create(0);
    assert_int_equal(wait_for(a, 1, 5, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(wait_for(b, 1, 5, 0, NULL), GMMU_STATUS_OK);
    /* Destroying a fence drops its waits only. */
    assert_int_equal(fence_destroy(&f, a), GMMU_STATUS_OK);
    assert_int_equal(fence_waits_armed(&f), 1);
    /* Host 1 left; host 2's first wait drops what host 1 armed. */
    assert_int_equal(wait_for(b, 2, 6, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(fence_waits_armed(&f), 1);
    assert_int_equal(signal(b, 10), GMMU_STATUS_OK);
    assert_int_equal(n_evts, 1);
    expect_evt(0, b, 2, 6, 10);
    /* A full table of a departed host never blocks the next one. */
    for (uint32_t i = 0; i < GMMU_FENCE_WAITS; i++)
        assert_int_equal(wait_for(b, 2, 100 + i, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(wait_for(b, 3, 100, 0, NULL), GMMU_STATUS_OK);
    assert_int_equal(fence_waits_armed(&f), 1);
}

/* Through the handlers: lengths and reserved fields. */
static uint32_t run(uint16_t op, const void *req, uint32_t len, void *rsp, uint32_t *rsp_len)
{
    const struct mbox_command *c = mbox_command_find(&fence_commands, op);
    static uint8_t out[64];
    assert_non_null(c);
    *rsp_len = 1234;
    uint32_t st = c->run(&f, req, len, out, sizeof out, rsp_len);
    if (st != GMMU_STATUS_OK)
        assert_int_equal(*rsp_len, 0);
    else if (rsp)
        memcpy(rsp, out, *rsp_len);
    return st;
}

static void test_handlers(void **state)
{
    (void)state;
    uint8_t buf[64] = { 0 };
    struct gmmu_fence_info in;
    uint32_t len;
    const uint16_t ops[] = { GMMU_OP_FENCE_CREATE, GMMU_OP_FENCE_DESTROY, GMMU_OP_FENCE_SIGNAL,
                             GMMU_OP_FENCE_READ, GMMU_OP_FENCE_WAIT };
    const uint32_t sizes[] = { 8, 8, 16, 8, 24 };
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(run(ops[i], buf, sizes[i] - 1, NULL, &len), GMMU_STATUS_MALFORMED_LENGTH);
        assert_int_equal(run(ops[i], buf, sizes[i] + 1, NULL, &len), GMMU_STATUS_MALFORMED_LENGTH);
        assert_int_equal(run(ops[i], buf, 0, NULL, &len), GMMU_STATUS_MALFORMED_LENGTH);
    }
    struct gmmu_fence_create_req c = { .value = 77 };
    assert_int_equal(run(GMMU_OP_FENCE_CREATE, &c, sizeof c, &in, &len), GMMU_STATUS_OK);
    assert_int_equal(len, GMMU_FENCE_INFO_BYTES);
    assert_int_equal(in.value, 77);
    uint32_t h = in.handle;
    struct gmmu_fence_signal_req s = { .handle = h, .reserved = 1, .value = 80 };
    assert_int_equal(run(GMMU_OP_FENCE_SIGNAL, &s, sizeof s, NULL, &len),
                     GMMU_STATUS_INVALID_ARGUMENT);
    s.reserved = 0;
    assert_int_equal(run(GMMU_OP_FENCE_SIGNAL, &s, sizeof s, &in, &len), GMMU_STATUS_OK);
    assert_int_equal(in.value, 80);
    s.value = 79;
    assert_int_equal(run(GMMU_OP_FENCE_SIGNAL, &s, sizeof s, NULL, &len),
                     GMMU_STATUS_INVALID_ARGUMENT);
    struct gmmu_handle_req hr = { .handle = h, .reserved = 1 };
    assert_int_equal(run(GMMU_OP_FENCE_READ, &hr, sizeof hr, NULL, &len),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(run(GMMU_OP_FENCE_DESTROY, &hr, sizeof hr, NULL, &len),
                     GMMU_STATUS_INVALID_ARGUMENT);
    hr.reserved = 0;
    assert_int_equal(run(GMMU_OP_FENCE_READ, &hr, sizeof hr, &in, &len), GMMU_STATUS_OK);
    assert_int_equal(in.value, 80);
    struct gmmu_fence_wait_req w = { .handle = h, .owner = 4, .value = 80 };
    assert_int_equal(run(GMMU_OP_FENCE_WAIT, &w, sizeof w, &in, &len), GMMU_STATUS_OK);
    assert_int_equal(in.reached, 1);
    assert_int_equal(n_evts, 1);
    assert_int_equal(run(GMMU_OP_FENCE_DESTROY, &hr, sizeof hr, NULL, &len), GMMU_STATUS_OK);
    assert_int_equal(len, 0);
    assert_int_equal(run(GMMU_OP_FENCE_READ, &hr, sizeof hr, NULL, &len), GMMU_STATUS_BAD_HANDLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_paging_fence, setup),
        cmocka_unit_test_setup(test_create_signal_read, setup),
        cmocka_unit_test_setup(test_wrap, setup),
        cmocka_unit_test_setup(test_bad_handles, setup),
        cmocka_unit_test_setup(test_table_full, setup),
        cmocka_unit_test_setup(test_waits_fire_once, setup),
        cmocka_unit_test_setup(test_waits_in_value_order, setup),
        cmocka_unit_test_setup(test_waits_full_and_cancel, setup),
        cmocka_unit_test_setup(test_departed_host_and_destroy, setup),
        cmocka_unit_test_setup(test_handlers, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
