// SPDX-License-Identifier: Apache-2.0
/*
 * Ordered paging (firmware/lib/update_queue.c). First over a fake apply
 * that logs each batch it is given (its first operation's va names it) and
 * answers what the test says, with the real fence module; then over VidMm
 * itself on the simulated platform (vidmm_batch_apply/check), where tiles
 * change only once the fence a batch waits for is reached. Expectations are
 * written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "update_queue.h"
#include "vidmm_cmds.h"
#include "vidmm_fixture.h"

#define MAX_LOG 64
#define TILE    (64u * 1024u)
#define OWNER   0x80000001u

static struct {
    uint64_t va[MAX_LOG]; /* first operation's va of each batch applied */
    uint32_t count[MAX_LOG], after[MAX_LOG];
    unsigned applies;
    uint32_t answer;     /* what apply answers */
    uint32_t check;      /* what check answers */
    uint64_t last_op_va; /* the last operation's va of the last batch */
} fake;

static struct fences f;
static struct update_queue q;
static struct gmmu_update_op store[GMMU_UPDATE_QUEUE_OPS];

static uint32_t f_apply(void *ctx, uint32_t as, const struct gmmu_update_op *ops, uint32_t count,
                        uint32_t after)
{
    (void)ctx;
    (void)as;
    assert_true(fake.applies < MAX_LOG);
    fake.va[fake.applies] = ops[0].va;
    fake.count[fake.applies] = count;
    fake.after[fake.applies] = after;
    fake.last_op_va = ops[count - 1].va;
    fake.applies++;
    return fake.answer;
}

static uint32_t f_check(void *ctx, uint32_t as, const struct gmmu_update_op *ops, uint32_t count)
{
    (void)ctx;
    (void)as;
    (void)ops;
    (void)count;
    return fake.check;
}

static const struct update_queue_ops fops = { f_apply, f_check, NULL };

static int setup(void **state)
{
    (void)state;
    memset(&fake, 0, sizeof fake);
    memset(store, 0xA5, sizeof store); /* any content */
    fence_init(&f, NULL);
    update_queue_init(&q, &fops, &f, store);
    return 0;
}

static uint32_t fence(uint64_t value)
{
    struct gmmu_fence_info fi;
    assert_int_equal(fence_create(&f, value, &fi), GMMU_STATUS_OK);
    return fi.handle;
}

static uint64_t value_of(uint32_t handle)
{
    uint64_t v = 0;
    assert_true(fence_value_of(&f, handle, &v));
    return v;
}

static void signal(uint32_t handle, uint64_t value)
{
    struct gmmu_fence_info fi;
    assert_int_equal(fence_signal(&f, handle, value, &fi), GMMU_STATUS_OK);
}

/* A batch of n UNMAP operations, the k-th at name + k tiles. */
static struct gmmu_update_op ops_buf[GMMU_UPDATE_QUEUE_OPS + 1];
static const struct gmmu_update_op *batch_ops(uint64_t name, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        ops_buf[k] = (struct gmmu_update_op){ .op = GMMU_UPDATE_OP_UNMAP,
                                              .va = name + (uint64_t)k * TILE,
                                              .size = TILE };
    return ops_buf;
}

static uint32_t submit_full(uint64_t name, uint32_t n, uint32_t wait, uint64_t wait_value,
                            uint32_t sig, uint64_t sig_value, uint32_t owner, uint32_t *id)
{
    struct gmmu_update_submit_req rq = {
        .as_handle = 0x80000001,
        .count = n,
        .wait_handle = wait,
        .signal_handle = sig,
        .wait_value = wait_value,
        .signal_value = sig_value,
        .owner = owner,
    };
    struct gmmu_update_submit_rsp rs = { 0 };
    uint32_t st = update_queue_submit(&q, &rq, batch_ops(name, n), &rs);
    if (id)
        *id = rs.batch;
    return st;
}

static uint32_t submit(uint64_t name, uint32_t n, uint32_t wait, uint64_t wait_value, uint32_t sig,
                       uint64_t sig_value)
{
    uint32_t id = 0;
    assert_int_equal(submit_full(name, n, wait, wait_value, sig, sig_value, OWNER, &id),
                     GMMU_STATUS_OK);
    assert_int_not_equal(id, 0);
    return id;
}

static struct gmmu_update_queue_rsp state_now(void)
{
    struct gmmu_update_queue_rsp rs;
    update_queue_read(&q, &rs);
    return rs;
}

/* In order: a batch waiting for a fence holds the ones behind it; once the
   value comes both are applied, oldest first, each signalling its fence. */
static void test_order_and_signals(void **state)
{
    uint32_t wait = fence(0), sig_a = fence(0), sig_b = fence(100);

    (void)state;
    uint32_t a = submit(0x1000000, 2, wait, 5, sig_a, 7);
    uint32_t b = submit(0x2000000, 1, 0, 0, sig_b, 50); /* 50 < 100: left alone */
    assert_int_equal(update_queue_poll(&q), 0);
    assert_int_equal(fake.applies, 0);
    signal(wait, 4);
    assert_int_equal(update_queue_poll(&q), 0);
    assert_int_equal(state_now().head, a);
    assert_int_equal(state_now().queued, 2);
    assert_int_equal(state_now().ops, 3);

    signal(wait, 5);
    assert_int_equal(update_queue_poll(&q), 2);
    assert_int_equal(fake.applies, 2);
    assert_int_equal(fake.va[0], 0x1000000);
    assert_int_equal(fake.count[0], 2);
    assert_int_equal(fake.after[0], sig_a); /* jobs waiting for sig_a come after it */
    assert_int_equal(fake.va[1], 0x2000000);
    assert_int_equal(value_of(sig_a), 7);
    assert_int_equal(value_of(sig_b), 100);
    struct gmmu_update_queue_rsp rs = state_now();
    assert_int_equal(rs.queued, 0);
    assert_int_equal(rs.ops, 0);
    assert_int_equal(rs.head, 0);
    assert_int_equal(rs.last_batch, b);
    assert_int_equal(rs.last_status, GMMU_STATUS_OK);
    assert_int_equal(rs.applied, 2);
    assert_false(update_queue_active(&q));
}

/* Waits compare modulo 2^64: a value past the wrap is reached by one
   beyond it, not by the large values before it. */
static void test_wait_across_wrap(void **state)
{
    uint32_t wait = fence(UINT64_MAX - 1);

    (void)state;
    submit(0x1000000, 1, wait, 2, 0, 0);
    signal(wait, UINT64_MAX);
    assert_int_equal(update_queue_poll(&q), 0);
    signal(wait, 1);
    assert_int_equal(update_queue_poll(&q), 0);
    signal(wait, 2);
    assert_int_equal(update_queue_poll(&q), 1);
    assert_int_equal(fake.applies, 1);
}

/* Memory in use: while apply answers BUSY the head stays (and so do the
   ones behind it), asked again at every poll; then it goes. */
static void test_waits_for_jobs(void **state)
{
    (void)state;
    fake.answer = GMMU_STATUS_BUSY;
    uint32_t a = submit(0x1000000, 1, 0, 0, 0, 0);
    submit(0x2000000, 1, 0, 0, 0, 0);
    assert_int_equal(update_queue_poll(&q), 0);
    assert_int_equal(state_now().head_in_use, 1);
    assert_int_equal(state_now().head, a);
    assert_int_equal(update_queue_poll(&q), 0); /* no fence moved: asked again */
    assert_int_equal(fake.applies, 2);
    assert_int_equal(fake.va[1], 0x1000000);
    fake.answer = GMMU_STATUS_OK;
    assert_int_equal(update_queue_poll(&q), 2);
    assert_int_equal(fake.va[3], 0x2000000);
    assert_int_equal(state_now().head_in_use, 0);
    assert_int_equal(state_now().applied, 2);
}

/* A batch refused when its turn comes ends failed, its status kept, and
   still raises its signal fence; the next one goes on. */
static void test_failed_batch_signals(void **state)
{
    uint32_t sig = fence(0);

    (void)state;
    fake.answer = GMMU_STATUS_BAD_HANDLE;
    uint32_t a = submit(0x1000000, 1, 0, 0, sig, 3);
    assert_int_equal(update_queue_poll(&q), 1);
    assert_int_equal(value_of(sig), 3);
    struct gmmu_update_queue_rsp rs = state_now();
    assert_int_equal(rs.last_batch, a);
    assert_int_equal(rs.last_status, GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(rs.failed, 1);
    assert_int_equal(rs.applied, 0);
}

/* Full: UPDATE_QUEUE_DEPTH batches, or UPDATE_QUEUE_OPS operations in
   all; beyond, BUSY and nothing lost: every batch is applied later with
   its own operations. */
static void test_full_busy_nothing_lost(void **state)
{
    uint32_t wait = fence(0);

    (void)state;
    for (uint32_t i = 0; i < GMMU_UPDATE_QUEUE_DEPTH; i++)
        submit(0x1000000 * (i + 1), 1 + i, wait, 1, 0, 0);
    assert_int_equal(submit_full(0x9000000, 1, 0, 0, 0, 0, OWNER, NULL), GMMU_STATUS_BUSY);
    assert_int_equal(state_now().queued, GMMU_UPDATE_QUEUE_DEPTH);
    signal(wait, 1);
    assert_int_equal(update_queue_poll(&q), GMMU_UPDATE_QUEUE_DEPTH);
    for (uint32_t i = 0; i < GMMU_UPDATE_QUEUE_DEPTH; i++) {
        assert_int_equal(fake.va[i], 0x1000000 * (i + 1));
        assert_int_equal(fake.count[i], 1 + i);
    }
    assert_int_equal(fake.last_op_va, 0x8000000 + 7 * TILE);

    /* The operations: 90 and 6 fill them; 1 more is BUSY; 97 can never. */
    submit(0x1000000, 90, wait, 2, 0, 0);
    submit(0x2000000, 6, wait, 2, 0, 0);
    assert_int_equal(submit_full(0x3000000, 1, 0, 0, 0, 0, OWNER, NULL), GMMU_STATUS_BUSY);
    assert_int_equal(submit_full(0x3000000, GMMU_UPDATE_QUEUE_OPS + 1, 0, 0, 0, 0, OWNER, NULL),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(state_now().ops, GMMU_UPDATE_QUEUE_OPS);
    signal(wait, 2);
    assert_int_equal(update_queue_poll(&q), 2);
    assert_int_equal(fake.count[8], 90);
    assert_int_equal(fake.va[9], 0x2000000);
    assert_int_equal(fake.last_op_va, 0x2000000 + 5 * TILE);
}

/* Cancel: one in the middle (the others keep their order and their
   operations), an unknown id (nothing), all; a cancelled batch is never
   applied and signals nothing. */
static void test_cancel(void **state)
{
    uint32_t wait = fence(0), sig = fence(0);
    struct gmmu_update_cancel_rsp rs;

    (void)state;
    submit(0x1000000, 3, wait, 1, 0, 0);
    uint32_t b = submit(0x2000000, 2, wait, 1, sig, 9);
    submit(0x3000000, 4, wait, 1, 0, 0);
    struct gmmu_update_cancel_req rq = { .batch = b, .owner = OWNER };
    assert_int_equal(update_queue_cancel(&q, &rq, &rs), GMMU_STATUS_OK);
    assert_int_equal(rs.cancelled, 1);
    assert_int_equal(rs.queued, 2);
    assert_int_equal(update_queue_cancel(&q, &rq, &rs), GMMU_STATUS_OK);
    assert_int_equal(rs.cancelled, 0);
    assert_int_equal(state_now().ops, 7);
    signal(wait, 1);
    assert_int_equal(update_queue_poll(&q), 2);
    assert_int_equal(fake.va[0], 0x1000000);
    assert_int_equal(fake.va[1], 0x3000000);
    assert_int_equal(fake.count[1], 4);
    assert_int_equal(fake.last_op_va, 0x3000000 + 3 * TILE);
    assert_int_equal(value_of(sig), 0);

    submit(0x1000000, 1, wait, 5, 0, 0);
    submit(0x2000000, 1, wait, 5, 0, 0);
    rq = (struct gmmu_update_cancel_req){ .flags = GMMU_UPDATE_CANCEL_FLAG_ALL, .owner = OWNER };
    assert_int_equal(update_queue_cancel(&q, &rq, &rs), GMMU_STATUS_OK);
    assert_int_equal(rs.cancelled, 2);
    assert_int_equal(state_now().cancelled, 3);
    assert_int_equal(state_now().ops, 0);
    signal(wait, 5);
    assert_int_equal(update_queue_poll(&q), 0);
    assert_int_equal(fake.applies, 2);

    rq = (struct gmmu_update_cancel_req){ .flags = 2, .owner = OWNER };
    assert_int_equal(update_queue_cancel(&q, &rq, &rs), GMMU_STATUS_INVALID_ARGUMENT);
    rq = (struct gmmu_update_cancel_req){ .owner = OWNER }; /* batch 0, not ALL */
    assert_int_equal(update_queue_cancel(&q, &rq, &rs), GMMU_STATUS_INVALID_ARGUMENT);
    rq = (struct gmmu_update_cancel_req){ .batch = 1, .owner = OWNER, .reserved = 1 };
    assert_int_equal(update_queue_cancel(&q, &rq, &rs), GMMU_STATUS_INVALID_ARGUMENT);
}

/* A host that left: the next owner's submit cancels its batches; a wait
   fence destroyed under a batch cancels it and the next one goes on. */
static void test_owner_and_fence_gone(void **state)
{
    uint32_t wait = fence(0), gone = fence(0);
    struct gmmu_fence_info fi;

    (void)state;
    submit(0x1000000, 1, wait, 1, 0, 0);
    uint32_t id;
    assert_int_equal(submit_full(0x2000000, 1, gone, 1, 0, 0, OWNER + 1, &id), GMMU_STATUS_OK);
    submit_full(0x3000000, 1, 0, 0, 0, 0, OWNER + 1, NULL);
    assert_int_equal(state_now().queued, 2);
    assert_int_equal(state_now().head, id);
    assert_int_equal(state_now().cancelled, 1);
    assert_int_equal(fence_destroy(&f, gone), GMMU_STATUS_OK);
    assert_int_equal(update_queue_poll(&q), 1);
    assert_int_equal(fake.applies, 1);
    assert_int_equal(fake.va[0], 0x3000000);
    assert_int_equal(state_now().cancelled, 2);
    (void)fi;
}

/* Refused at submit, nothing queued: bad fences, the paging fence to
   signal, counts, reserved, and what check answers (passed through). */
static void test_bad_input(void **state)
{
    uint32_t sig = fence(0);

    (void)state;
    assert_int_equal(submit_full(0x1000000, 1, 0x46000077, 1, 0, 0, OWNER, NULL),
                     GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(submit_full(0x1000000, 1, 0, 0, sig + 0x10000, 1, OWNER, NULL),
                     GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(submit_full(0x1000000, 1, 0, 0, GMMU_FENCE_PAGING, 1, OWNER, NULL),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(submit_full(0x1000000, 0, 0, 0, 0, 0, OWNER, NULL),
                     GMMU_STATUS_INVALID_ARGUMENT);
    fake.check = GMMU_STATUS_OUT_OF_RANGE;
    assert_int_equal(submit_full(0x1000000, 1, 0, 0, 0, 0, OWNER, NULL), GMMU_STATUS_OUT_OF_RANGE);
    fake.check = GMMU_STATUS_OK;
    struct gmmu_update_submit_req rq = { .as_handle = 1, .count = 1, .reserved = 1 };
    struct gmmu_update_submit_rsp rs;
    assert_int_equal(update_queue_submit(&q, &rq, batch_ops(0, 1), &rs),
                     GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(state_now().queued, 0);
    /* The paging fence may be waited for. */
    submit(0x1000000, 1, GMMU_FENCE_PAGING, fence_paging_value(&f) + 1, 0, 0);
    assert_int_equal(update_queue_poll(&q), 0);
    (void)fence_paging_signal(&f);
    assert_int_equal(update_queue_poll(&q), 1);
}

/* The handlers: lengths, and the answers' payloads. */
static void test_handlers(void **state)
{
    uint8_t req[sizeof(struct gmmu_update_submit_req) + 2 * sizeof(struct gmmu_update_op)];
    uint8_t resp[64];
    uint32_t len = 0;
    struct gmmu_update_submit_req rq = { .as_handle = 1, .count = 2, .owner = OWNER };

    (void)state;
    memcpy(req, &rq, sizeof rq);
    memcpy(req + sizeof rq, batch_ops(0x1000000, 2), 2 * sizeof(struct gmmu_update_op));
    assert_int_equal(update_queue_cmd_submit(&q, req, sizeof req - 1, resp, sizeof resp, &len),
                     GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(update_queue_cmd_submit(&q, req, 8, resp, sizeof resp, &len),
                     GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(update_queue_cmd_submit(&q, req, sizeof req, resp, sizeof resp, &len),
                     GMMU_STATUS_OK);
    assert_int_equal(len, sizeof(struct gmmu_update_submit_rsp));
    struct gmmu_update_submit_rsp srs;
    memcpy(&srs, resp, sizeof srs);
    assert_int_equal(srs.queued, 1);
    assert_int_equal(update_queue_cmd_queue(&q, req, 1, resp, sizeof resp, &len),
                     GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(update_queue_cmd_queue(&q, req, 0, resp, sizeof resp, &len), GMMU_STATUS_OK);
    assert_int_equal(len, sizeof(struct gmmu_update_queue_rsp));
    struct gmmu_update_queue_rsp qrs;
    memcpy(&qrs, resp, sizeof qrs);
    assert_int_equal(qrs.head, srs.batch);
    assert_int_equal(qrs.ops, 2);
    struct gmmu_update_cancel_req crq = { .batch = srs.batch, .owner = OWNER };
    assert_int_equal(
        update_queue_cmd_cancel(&q, (const uint8_t *)&crq, sizeof crq - 1, resp, sizeof resp, &len),
        GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(
        update_queue_cmd_cancel(&q, (const uint8_t *)&crq, sizeof crq, resp, sizeof resp, &len),
        GMMU_STATUS_OK);
    struct gmmu_update_cancel_rsp crs;
    memcpy(&crs, resp, sizeof crs);
    assert_int_equal(crs.cancelled, 1);
}

/* ------------------------------------------------------------ over VidMm */

static const struct update_queue_ops vops = { vidmm_batch_apply, vidmm_batch_check, NULL };
static struct update_queue_ops vbound;

static int setup_vidmm(void **state)
{
    setup(state);
    vidmm_sim_init(&sim, 16u << 20, 4, 256);
    vbound = vops;
    vbound.ctx = sim.vm;
    update_queue_init(&q, &vbound, &f, store);
    return 0;
}

static uint64_t pa_of(uint32_t as, uint64_t va)
{
    struct gmmu_ref_result r;
    uint64_t root;
    uint32_t id;

    assert_true(vidmm_as_info(sim.vm, as, &root, &id));
    vidmm_sim_walk(&sim, root, va, GMMU_ACCESS_READ, &r);
    assert_int_equal(r.fault, GMMU_FAULT_NONE);
    return r.pa;
}

static uint32_t must(uint32_t st)
{
    assert_int_equal(st, GMMU_STATUS_OK);
    return st;
}

/*
 * A tile remapped between two uses: the batch waits for the fence of the
 * job that reads the old tile, and is checked at submit (a bad allocation
 * refused then); the paging fence and its own fence move only once it is
 * applied; memory in use asks with its signal fence as `after`; a batch
 * whose address space went meanwhile fails with BAD_HANDLE and signals.
 */
static void test_over_vidmm(void **state)
{
    struct gmmu_as_rsp as;
    struct gmmu_alloc_rsp a, b;
    struct gmmu_alloc_req ar = { .size = 2 * TILE };
    struct gmmu_reserve_req rr = { .size = 4 * TILE };
    struct gmmu_va_rsp rsv;
    uint32_t job_done = fence(0), batch_done = fence(0);

    (void)state;
    must(call(GMMU_OP_CREATE_AS, NULL, 0, &as, sizeof as));
    must(call(GMMU_OP_ALLOC, &ar, sizeof ar, &a, sizeof a));
    must(call(GMMU_OP_ALLOC, &ar, sizeof ar, &b, sizeof b));
    rr.as_handle = as.handle;
    must(call(GMMU_OP_RESERVE_VA, &rr, sizeof rr, &rsv, sizeof rsv));
    struct gmmu_update_op first = {
        .op = GMMU_UPDATE_OP_MAP, .va = rsv.va, .size = TILE, .alloc_handle = a.handle
    };
    struct gmmu_update_req ur = { .as_handle = as.handle, .count = 1 };
    uint8_t msg[sizeof ur + sizeof first];
    memcpy(msg, &ur, sizeof ur);
    memcpy(msg + sizeof ur, &first, sizeof first);
    must(call(GMMU_OP_UPDATE_VA, msg, sizeof msg, NULL, 0));
    uint64_t pa_a = pa_of(as.handle, rsv.va);

    struct gmmu_update_op swap = first;
    swap.alloc_handle = b.handle;
    struct gmmu_update_submit_req rq = {
        .as_handle = as.handle,
        .count = 1,
        .wait_handle = job_done,
        .wait_value = 1,
        .signal_handle = batch_done,
        .signal_value = 1,
        .owner = OWNER,
    };
    struct gmmu_update_submit_rsp rs;
    struct gmmu_update_op bad = swap;
    bad.alloc_handle = 0x12345;
    assert_int_equal(update_queue_submit(&q, &rq, &bad, &rs), GMMU_STATUS_BAD_HANDLE);
    must(update_queue_submit(&q, &rq, &swap, &rs));
    uint64_t own = sim.vm->fence; /* the simulated vidmm counts its paging fence */

    assert_int_equal(update_queue_poll(&q), 0);
    assert_int_equal(pa_of(as.handle, rsv.va), pa_a); /* the old tile */
    /* The job needs the tile while the batch waits: nothing to ask yet. */
    sim.in_use[0].as_handle = as.handle;
    sim.in_use[0].va = rsv.va;
    sim.in_use[0].bytes = 64;
    sim.in_use_n = 1;
    signal(job_done, 1);
    assert_int_equal(update_queue_poll(&q), 0); /* still in use: it waits */
    assert_int_equal(sim.in_use_after, batch_done);
    assert_int_equal(state_now().head_in_use, 1);
    assert_int_equal(pa_of(as.handle, rsv.va), pa_a);
    sim.in_use_n = 0; /* the job ended */
    assert_int_equal(update_queue_poll(&q), 1);
    assert_int_not_equal(pa_of(as.handle, rsv.va), pa_a);
    assert_int_equal(value_of(batch_done), 1);
    assert_int_equal(sim.vm->fence, own + 1); /* the paging fence, once */

    /* The space goes before the next batch's turn: it fails, signalling. */
    rq.wait_value = 2;
    rq.signal_value = 2;
    must(update_queue_submit(&q, &rq, &first, &rs));
    struct gmmu_handle_req hr = { .handle = as.handle };
    must(call(GMMU_OP_DESTROY_AS, &hr, sizeof hr, NULL, 0));
    signal(job_done, 2);
    assert_int_equal(update_queue_poll(&q), 1);
    assert_int_equal(state_now().last_status, GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(value_of(batch_done), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_order_and_signals, setup),
        cmocka_unit_test_setup(test_wait_across_wrap, setup),
        cmocka_unit_test_setup(test_waits_for_jobs, setup),
        cmocka_unit_test_setup(test_failed_batch_signals, setup),
        cmocka_unit_test_setup(test_full_busy_nothing_lost, setup),
        cmocka_unit_test_setup(test_cancel, setup),
        cmocka_unit_test_setup(test_owner_and_fence_gone, setup),
        cmocka_unit_test_setup(test_bad_input, setup),
        cmocka_unit_test_setup(test_handlers, setup),
        cmocka_unit_test_setup_teardown(test_over_vidmm, setup_vidmm, vidmm_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
