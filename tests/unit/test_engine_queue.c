// SPDX-License-Identifier: Apache-2.0
/*
 * The engine job queues (firmware/lib/engine_queue.c) on the host, over a
 * fake engine: each start is logged (engine, the job's pattern as its
 * name, hardware id), and a run ends only when the test says so. Fences are
 * the real module (firmware/lib/fence.c) with a recording event sink.
 * Expectations are written out by hand: which job starts when, in what
 * order, which fence holds which value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <gmmu/engine_regs.h>

#include "engine_queue.h"

#define MAX_LOG 64

struct start {
    uint32_t engine, asid;
    uint64_t pattern;
};

static struct {
    bool busy[GMMU_ENGINES];
    uint32_t status[GMMU_ENGINES]; /* the STATUS a finished run reports */
    unsigned aborts[GMMU_ENGINES], busy_reads;
    struct start log[MAX_LOG];
    unsigned starts;
    uint32_t activate_status; /* what activate answers */
    uint32_t bad_as;          /* as_exists is false for it */
} eng;

static struct fences f;
static struct engine_queue q;
static struct gmmu_fence_evt evts[MAX_LOG];
static unsigned n_evts;

static void f_start(void *ctx, uint32_t e, const struct gmmu_engine_req *rq, uint32_t asid)
{
    (void)ctx;
    assert_true(e < GMMU_ENGINES);
    assert_false(eng.busy[e]); /* never started over a run */
    assert_int_equal(rq->engine, e);
    assert_true(eng.starts < MAX_LOG);
    eng.log[eng.starts++] = (struct start){ e, asid, rq->pattern };
    eng.busy[e] = true;
}

static bool f_busy(void *ctx, uint32_t e)
{
    (void)ctx;
    eng.busy_reads++;
    return eng.busy[e];
}

static void f_finish(void *ctx, uint32_t e, struct gmmu_engine_rsp *out)
{
    (void)ctx;
    assert_false(eng.busy[e]);
    *out = (struct gmmu_engine_rsp){
        .engine_status = eng.status[e], .bytes_done = 4096, .result = 100 + e, .asid = 7
    };
}

static void f_abort(void *ctx, uint32_t e)
{
    (void)ctx;
    eng.aborts[e]++;
}

static uint32_t f_activate(void *ctx, uint32_t as, uint32_t *asid)
{
    (void)ctx;
    *asid = as & 0x3F;
    return eng.activate_status;
}

static bool f_as_exists(void *ctx, uint32_t as)
{
    (void)ctx;
    return as != eng.bad_as;
}

static const struct engine_queue_ops ops = { f_start,    f_busy,      f_finish, f_abort,
                                             f_activate, f_as_exists, NULL };

static void rec_notify(void *ctx, const struct gmmu_fence_evt *evt)
{
    (void)ctx;
    assert_true(n_evts < MAX_LOG);
    evts[n_evts++] = *evt;
}

/* The device's cycle counter, moved by hand. */
static uint32_t clock_now;
static uint32_t f_now(void *ctx)
{
    (void)ctx;
    return clock_now;
}

static const struct fence_hw fhw = { NULL, rec_notify, NULL, f_now, NULL };

static int setup(void **state)
{
    (void)state;
    memset(&eng, 0, sizeof eng);
    eng.bad_as = 0xDEAD;
    n_evts = 0;
    fence_init(&f, &fhw);
    engine_queue_init(&q, &ops, &f);
    return 0;
}

/* The poll reads one running engine per call while no fence changed and
   nothing was submitted: GMMU_ENGINES calls see every ended run. */
static void poll(void)
{
    for (uint32_t i = 0; i < GMMU_ENGINES; i++)
        engine_queue_poll(&q);
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

static struct gmmu_engine_submit_req job(uint32_t engine, uint64_t pattern)
{
    return (struct gmmu_engine_submit_req){
        .engine = engine,
        .op = 0,
        .as_handle = 0x41000005,
        .length = 4096,
        .dst_va = 0x100000,
        .pattern = pattern,
        .owner = 0x80000001,
    };
}

static uint32_t submit_st(const struct gmmu_engine_submit_req *rq, uint32_t *id)
{
    struct gmmu_engine_submit_rsp rs = { 0 };
    uint32_t st = engine_queue_submit(&q, rq, &rs);
    if (id)
        *id = rs.job;
    return st;
}

static uint32_t submit(struct gmmu_engine_submit_req rq)
{
    uint32_t id = 0;
    assert_int_equal(submit_st(&rq, &id), GMMU_STATUS_OK);
    assert_int_not_equal(id, 0);
    return id;
}

static void end_run(uint32_t e)
{
    assert_true(eng.busy[e]);
    eng.busy[e] = false;
}

static struct gmmu_engine_queue_rsp state_of(uint32_t e)
{
    struct gmmu_engine_queue_rsp rs;
    assert_int_equal(engine_queue_read(&q, e, &rs), GMMU_STATUS_OK);
    return rs;
}

static void assert_start(unsigned i, uint32_t e, uint64_t pattern)
{
    assert_true(i < eng.starts);
    assert_int_equal(eng.log[i].engine, e);
    assert_int_equal(eng.log[i].pattern, pattern);
}

/* In order on one engine, one at a time; the four engines at once. */
static void test_order_per_engine_engines_independent(void **state)
{
    (void)state;
    uint32_t a = submit(job(0, 0xA1));
    uint32_t b = submit(job(0, 0xA2));
    submit(job(0, 0xA3));
    for (uint32_t e = 1; e < GMMU_ENGINES; e++)
        submit(job(e, 0xB0 + e));
    assert_int_equal(eng.starts, 0); /* submit returns before anything starts */
    poll();
    assert_int_equal(eng.starts, 4);
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        assert_true(eng.busy[e]);
    assert_start(0, 0, 0xA1);
    assert_int_equal(eng.log[0].asid, 5);
    assert_int_equal(state_of(0).running, a);
    assert_int_equal(state_of(0).queued, 3);

    /* Engine 2 ending lets nothing start on engine 0. */
    end_run(2);
    poll();
    assert_int_equal(eng.starts, 4);
    assert_int_equal(state_of(2).queued, 0);
    assert_int_equal(state_of(2).finished, 1);
    assert_int_equal(state_of(2).result, 102);

    /* Still running: polls change nothing. */
    poll();
    poll();
    assert_int_equal(eng.starts, 4);

    end_run(0);
    poll();
    assert_int_equal(eng.starts, 5);
    assert_start(4, 0, 0xA2);
    assert_int_equal(state_of(0).last_job, a);
    assert_int_equal(state_of(0).running, b);
    end_run(0);
    poll();
    assert_start(5, 0, 0xA3);
    end_run(0);
    end_run(1);
    end_run(3);
    poll();
    assert_int_equal(eng.starts, 6);
    assert_false(engine_queue_active(&q));
    assert_int_equal(state_of(0).finished, 3);

    /* Idle queues: a poll reads no engine. */
    unsigned reads = eng.busy_reads;
    poll();
    assert_int_equal(eng.busy_reads, reads);

    /* Runs going on, nothing else moving: one engine read per poll. */
    submit(job(0, 0xA4));
    submit(job(1, 0xA5));
    engine_queue_poll(&q); /* the submits: every engine looked at */
    reads = eng.busy_reads;
    for (int i = 0; i < 8; i++) {
        engine_queue_poll(&q);
        assert_true(eng.busy_reads - reads <= 1);
        reads = eng.busy_reads;
    }
}

/* A job waits for its fence, across the 64-bit wrap; the job behind it on
   the same engine waits too; other engines do not. */
static void test_wait_holds_job_across_wrap(void **state)
{
    (void)state;
    uint32_t h = fence(UINT64_MAX - 1);
    struct gmmu_engine_submit_req rq = job(0, 0xC1);
    rq.wait_handle = h;
    rq.wait_value = 1; /* three steps on, through 0 */
    submit(rq);
    submit(job(0, 0xC2));
    submit(job(1, 0xD1));
    poll();
    assert_int_equal(eng.starts, 1);
    assert_start(0, 1, 0xD1);

    signal(h, UINT64_MAX);
    poll();
    signal(h, 0);
    poll();
    assert_int_equal(eng.starts, 1); /* 0 is not 1 */
    assert_int_equal(state_of(0).running, 0);
    assert_int_equal(state_of(0).queued, 2);

    signal(h, 1);
    poll();
    assert_int_equal(eng.starts, 2);
    assert_start(1, 0, 0xC1);

    /* A value past the one waited for starts a job too. */
    end_run(0);
    poll();
    assert_start(2, 0, 0xC2);
    rq.wait_value = 5;
    end_run(0);
    signal(h, 9);
    submit(rq);
    poll();
    assert_start(3, 0, 0xC1);
}

/* A job signals its fence when it ends, faulted or not; never lowers it. */
static void test_signal_on_end(void **state)
{
    (void)state;
    uint32_t s = fence(0);
    struct gmmu_fence_wait_req w = { .handle = s, .owner = 9, .value = 5 };
    struct gmmu_fence_info fi;
    assert_int_equal(fence_wait(&f, &w, &fi), GMMU_STATUS_OK);

    struct gmmu_engine_submit_req rq = job(2, 0xE1);
    rq.signal_handle = s;
    rq.signal_value = 5;
    submit(rq);
    poll();
    assert_int_equal(value_of(s), 0);
    poll();
    assert_int_equal(value_of(s), 0); /* not before it ends */
    assert_int_equal(n_evts, 0);
    end_run(2);
    poll();
    assert_int_equal(value_of(s), 5);
    assert_int_equal(n_evts, 1);
    assert_int_equal(evts[0].handle, s);
    assert_int_equal(evts[0].wait_value, 5);

    /* Faulted: still signalled, the fault is in the last job's status. */
    rq.signal_value = 6;
    eng.status[2] = 0x4 | 1u << 4;
    uint32_t id = submit(rq);
    poll();
    end_run(2);
    poll();
    assert_int_equal(value_of(s), 6);
    assert_int_equal(state_of(2).last_job, id);
    assert_int_equal(state_of(2).last_status, GMMU_STATUS_OK);
    assert_int_equal(state_of(2).engine_status, 0x4 | 1u << 4);

    /* The host moved the fence beyond the job's value: left alone. */
    rq.signal_value = 7;
    submit(rq);
    poll();
    signal(s, 10);
    end_run(2);
    poll();
    assert_int_equal(value_of(s), 10);

    /* One job's signal is another engine's wait: a chain across engines. */
    struct gmmu_engine_submit_req second = job(1, 0xE3);
    second.wait_handle = s;
    second.wait_value = 11;
    submit(second);
    rq.signal_value = 11;
    rq.pattern = 0xE2;
    submit(rq);
    unsigned before = eng.starts;
    poll();
    assert_int_equal(eng.starts, before + 1);
    assert_start(before, 2, 0xE2);
    end_run(2);
    poll();
    assert_int_equal(eng.starts, before + 2);
    assert_start(before + 1, 1, 0xE3);
}

/* A full queue is BUSY and loses nothing; the jobs run in order after. */
static void test_full_queue_busy_nothing_lost(void **state)
{
    (void)state;
    uint32_t h = fence(0);
    struct gmmu_engine_submit_req rq = job(3, 0);
    rq.wait_handle = h;
    rq.wait_value = 1;
    uint32_t ids[GMMU_ENGINE_QUEUE_DEPTH];
    for (uint32_t i = 0; i < GMMU_ENGINE_QUEUE_DEPTH; i++) {
        rq.pattern = 0x100 + i;
        struct gmmu_engine_submit_rsp rs;
        assert_int_equal(engine_queue_submit(&q, &rq, &rs), GMMU_STATUS_OK);
        assert_int_equal(rs.queued, i + 1);
        ids[i] = rs.job;
        if (i)
            assert_int_not_equal(ids[i], ids[i - 1]);
    }
    rq.pattern = 0x1FF;
    uint32_t id = 77;
    assert_int_equal(submit_st(&rq, &id), GMMU_STATUS_BUSY);
    assert_int_equal(state_of(3).queued, GMMU_ENGINE_QUEUE_DEPTH);
    /* Other engines still take jobs. */
    submit(job(2, 0x200));

    signal(h, 1);
    for (uint32_t i = 0; i < GMMU_ENGINE_QUEUE_DEPTH; i++) {
        poll();
        assert_int_equal(state_of(3).running, ids[i]);
        end_run(3);
    }
    poll();
    unsigned n = 0;
    for (unsigned i = 0; i < eng.starts; i++)
        if (eng.log[i].engine == 3)
            assert_int_equal(eng.log[i].pattern, 0x100 + n++);
    assert_int_equal(n, GMMU_ENGINE_QUEUE_DEPTH);
    assert_int_equal(state_of(3).queued, 0);
    /* Room again. */
    submit(rq);
}

/* Cancel: a waiting job never runs, the others keep their order; the
   running job is aborted and still signals. */
static void test_cancel(void **state)
{
    (void)state;
    uint32_t h = fence(0), s = fence(0);
    struct gmmu_engine_submit_req rq = job(1, 0x31);
    rq.wait_handle = h;
    rq.wait_value = 1;
    rq.signal_handle = s;
    rq.signal_value = 1;
    uint32_t j1 = submit(rq);
    rq.pattern = 0x32;
    rq.signal_value = 2;
    uint32_t j2 = submit(rq);
    rq.pattern = 0x33;
    rq.signal_value = 3;
    uint32_t j3 = submit(rq);
    poll();

    struct gmmu_engine_cancel_req c = { .engine = 1, .job = j2, .owner = rq.owner };
    struct gmmu_engine_cancel_rsp cr;
    assert_int_equal(engine_queue_cancel(&q, &c, &cr), GMMU_STATUS_OK);
    assert_int_equal(cr.cancelled, 1);
    assert_int_equal(cr.aborted, 0);
    assert_int_equal(state_of(1).queued, 2);
    assert_int_equal(state_of(1).cancelled, 1);
    /* Again, or a job that never was, or on another engine: nothing. */
    assert_int_equal(engine_queue_cancel(&q, &c, &cr), GMMU_STATUS_OK);
    assert_int_equal(cr.cancelled, 0);
    c.engine = 0;
    c.job = j1;
    assert_int_equal(engine_queue_cancel(&q, &c, &cr), GMMU_STATUS_OK);
    assert_int_equal(cr.cancelled, 0);
    assert_int_equal(state_of(1).queued, 2);

    signal(h, 1);
    poll();
    assert_int_equal(eng.starts, 1);
    assert_start(0, 1, 0x31);
    /* The running one: aborted, ends when the engine stops, signals. */
    c.engine = 1;
    c.job = j1;
    assert_int_equal(engine_queue_cancel(&q, &c, &cr), GMMU_STATUS_OK);
    assert_int_equal(cr.aborted, 1);
    assert_int_equal(cr.cancelled, 0);
    assert_int_equal(eng.aborts[1], 1);
    poll();
    assert_int_equal(value_of(s), 0); /* not until it stopped */
    end_run(1);
    poll();
    assert_int_equal(value_of(s), 1);
    assert_start(1, 1, 0x33);
    assert_int_equal(state_of(1).running, j3);
    end_run(1);
    poll();
    assert_int_equal(value_of(s), 3);
    assert_int_equal(eng.starts, 2); /* j2 never ran */
    assert_int_equal(state_of(1).finished, 2);
    assert_false(engine_queue_active(&q));

    /* ALL: every queued job, the running one runs on. */
    submit(job(0, 0x41));
    poll();
    rq.engine = 0;
    submit(rq);
    submit(rq);
    c = (struct gmmu_engine_cancel_req){ .engine = 0,
                                         .owner = rq.owner,
                                         .flags = GMMU_ENGINE_CANCEL_FLAG_ALL };
    assert_int_equal(engine_queue_cancel(&q, &c, &cr), GMMU_STATUS_OK);
    assert_int_equal(cr.cancelled, 2);
    assert_int_equal(state_of(0).queued, 1);
    assert_int_equal(eng.aborts[0], 0);
}

/* Bad input changes nothing. */
static void test_bad_input(void **state)
{
    (void)state;
    uint32_t h = fence(0);
    uint32_t gone = fence(0);
    assert_int_equal(fence_destroy(&f, gone), GMMU_STATUS_OK);
    struct gmmu_engine_submit_req rq = job(0, 1);

    rq.wait_handle = 0x46000009; /* a slot never created */
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_BAD_HANDLE);
    rq.wait_handle = gone; /* stale */
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_BAD_HANDLE);
    rq.wait_handle = 0x12345678;
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_BAD_HANDLE);
    rq.wait_handle = 0;
    rq.signal_handle = gone;
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_BAD_HANDLE);
    rq.signal_handle = GMMU_FENCE_PAGING;
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    rq = job(GMMU_ENGINES, 1);
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    rq = job(0, 1);
    rq.op = 4;
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    rq = job(0, 1);
    rq.reserved = 1;
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_INVALID_ARGUMENT);
    rq = job(0, 1);
    rq.length = 100;
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_UNALIGNED);
    rq = job(0, 1);
    rq.src_va = 8;
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_UNALIGNED);
    rq = job(0, 1);
    rq.as_handle = eng.bad_as;
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_BAD_HANDLE);
    /* An owner in a refused submit does not take the queues over. */
    rq = job(0, 1);
    submit(rq);
    rq.owner = 2;
    rq.wait_handle = gone;
    assert_int_equal(submit_st(&rq, NULL), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(state_of(0).queued, 1);

    struct gmmu_engine_cancel_req c = { .engine = GMMU_ENGINES, .job = 1, .owner = 0x80000001 };
    struct gmmu_engine_cancel_rsp cr;
    assert_int_equal(engine_queue_cancel(&q, &c, &cr), GMMU_STATUS_INVALID_ARGUMENT);
    c.engine = 0;
    c.job = 0;
    assert_int_equal(engine_queue_cancel(&q, &c, &cr), GMMU_STATUS_INVALID_ARGUMENT);
    c.job = 1;
    c.flags = 2;
    assert_int_equal(engine_queue_cancel(&q, &c, &cr), GMMU_STATUS_INVALID_ARGUMENT);
    struct gmmu_engine_queue_rsp qr;
    assert_int_equal(engine_queue_read(&q, GMMU_ENGINES, &qr), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(state_of(0).queued, 1);
    assert_int_equal(state_of(0).cancelled, 0);

    /* The paging fence is a wait like any other. */
    rq = job(1, 2);
    rq.wait_handle = GMMU_FENCE_PAGING;
    rq.wait_value = 1;
    rq.signal_handle = h;
    rq.signal_value = 1;
    submit(rq);
    poll();
    assert_int_equal(state_of(1).running, 0);
    fence_paging_signal(&f);
    poll();
    assert_int_not_equal(state_of(1).running, 0);
}

/* A new owner cancels the departed host's jobs that have not started; the
   running ones end and signal; the new host's job comes next. */
static void test_owner_change(void **state)
{
    (void)state;
    uint32_t h = fence(0), s = fence(0);
    struct gmmu_engine_submit_req rq = job(0, 0x51);
    submit(rq);
    rq.wait_handle = h;
    rq.wait_value = 1;
    rq.signal_handle = s;
    rq.signal_value = 8;
    submit(rq);
    submit(rq);
    rq.engine = 1;
    submit(rq);
    rq = job(2, 0x52);
    rq.signal_handle = s;
    rq.signal_value = 4;
    submit(rq);
    poll();
    assert_int_equal(eng.starts, 2);

    struct gmmu_engine_submit_req nb = job(0, 0x61);
    nb.owner = 0x80000002;
    struct gmmu_engine_submit_rsp rs;
    assert_int_equal(engine_queue_submit(&q, &nb, &rs), GMMU_STATUS_OK);
    assert_int_equal(rs.queued, 2); /* the running job and this one */
    assert_int_equal(state_of(0).cancelled, 2);
    assert_int_equal(state_of(1).cancelled, 1);
    assert_int_equal(state_of(1).queued, 0);
    assert_int_equal(state_of(2).queued, 1);

    signal(h, 1); /* nothing of the old host's is left to start */
    end_run(2);
    poll();
    assert_int_equal(value_of(s), 4); /* the running job signalled */
    end_run(0);
    poll();
    assert_int_equal(eng.starts, 3);
    assert_start(2, 0, 0x61);
    end_run(0);
    poll();
    assert_false(engine_queue_active(&q));
    assert_int_equal(value_of(s), 4); /* cancelled jobs signal nothing */

    /* A cancel of a new owner cleans up too. */
    rq = job(3, 0x71);
    rq.wait_handle = h;
    rq.wait_value = 2;
    submit(rq);
    struct gmmu_engine_cancel_req c = { .engine = 0, .job = 99, .owner = 0x80000003 };
    struct gmmu_engine_cancel_rsp cr;
    assert_int_equal(engine_queue_cancel(&q, &c, &cr), GMMU_STATUS_OK);
    assert_int_equal(state_of(3).queued, 0);
    assert_false(engine_queue_active(&q));
}

/* A wait fence destroyed under a job cancels it; a job whose address space
   went away ends at once with BAD_HANDLE and still signals; an engine
   running a run the queue did not start holds the head job. */
static void test_fence_gone_as_gone_engine_busy(void **state)
{
    (void)state;
    uint32_t h = fence(0), s = fence(0);
    struct gmmu_engine_submit_req rq = job(0, 0x81);
    rq.wait_handle = h;
    rq.wait_value = 1;
    submit(rq);
    submit(job(0, 0x82));
    poll();
    assert_int_equal(eng.starts, 0);
    assert_int_equal(fence_destroy(&f, h), GMMU_STATUS_OK);
    poll();
    assert_int_equal(state_of(0).cancelled, 1);
    assert_int_equal(eng.starts, 1);
    assert_start(0, 0, 0x82);
    end_run(0);
    poll();

    eng.activate_status = GMMU_STATUS_BAD_HANDLE;
    rq = job(1, 0x83);
    rq.signal_handle = s;
    rq.signal_value = 3;
    uint32_t id = submit(rq);
    poll();
    assert_int_equal(eng.starts, 1);
    assert_int_equal(state_of(1).last_job, id);
    assert_int_equal(state_of(1).last_status, GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(value_of(s), 3);
    assert_false(engine_queue_active(&q));
    eng.activate_status = GMMU_STATUS_OK;

    eng.busy[2] = true; /* ENGINE_START's run */
    submit(job(2, 0x84));
    poll();
    poll();
    assert_int_equal(eng.starts, 1);
    eng.busy[2] = false;
    poll();
    assert_int_equal(eng.starts, 2);
    assert_start(1, 2, 0x84);
}

/* The handlers: lengths, replies. */
/* Memory in use: which ranges the held jobs still need. A running job
   needs what its operation touches; a waiting one too, unless it waits
   for a value of the paging fence (or of `after`) not reached yet. */
static void test_uses(void **state)
{
    const uint32_t as = 0x41000005, host = fence(0);

    (void)state;
    struct gmmu_engine_submit_req a = job(0, 1); /* FILL [0x100000, +4 KiB) */
    struct gmmu_engine_submit_req b = job(1, 2), c = job(2, 3);

    b.op = GMMU_ENGINE_OP_COPY;
    b.src_va = 0x200000;
    b.dst_va = 0x300000;
    b.wait_handle = GMMU_FENCE_PAGING;
    b.wait_value = fence_paging_value(&f) + 1;
    c.op = GMMU_ENGINE_OP_CHECKSUM;
    c.src_va = 0x400000;
    c.dst_va = 0x500000;
    c.wait_handle = host;
    c.wait_value = 5;
    submit(a);
    submit(b);
    submit(c);
    poll();
    assert_int_equal(eng.starts, 1); /* a runs, b and c wait */

    assert_true(engine_queue_uses(&q, as, 0x100000 + 4096 - 64, 64, 0));
    assert_false(engine_queue_uses(&q, as, 0x101000, 64, 0));  /* just past it */
    assert_false(engine_queue_uses(&q, as, 0x0, 0x100000, 0)); /* FILL reads nothing */
    assert_false(engine_queue_uses(&q, as + 1, 0x100000, 64, 0));
    assert_false(engine_queue_uses(&q, as, 0x100000, 0, 0));
    /* b waits for paging work to come: ordered after any change now. */
    assert_false(engine_queue_uses(&q, as, 0x200000, 64, 0));
    assert_false(engine_queue_uses(&q, as, 0x300000, 64, 0));
    /* c waits for the host's fence: it needs its source, not its dst,
       unless the change asking signals that fence (after). */
    assert_true(engine_queue_uses(&q, as, 0x400000 + 64, 64, 0));
    assert_false(engine_queue_uses(&q, as, 0x400000 + 64, 64, host));
    assert_false(engine_queue_uses(&q, as, 0x500000, 64, 0));

    /* Once the paging fence passed b's value, b needs both its ranges,
       before and after it started. */
    (void)fence_paging_signal(&f);
    assert_true(engine_queue_uses(&q, as, 0x200000, 64, 0));
    assert_true(engine_queue_uses(&q, as, 0x300000 + 4096 - 1, 1, 0));
    poll();
    assert_int_equal(eng.starts, 2);
    assert_true(engine_queue_uses(&q, as, 0x300000, 64, GMMU_FENCE_PAGING));

    /* Ended jobs need nothing. */
    end_run(0);
    end_run(1);
    poll();
    assert_false(engine_queue_uses(&q, as, 0x100000, 64, 0));
    assert_false(engine_queue_uses(&q, as, 0x200000, 64, 0));
    assert_true(engine_queue_uses(&q, as, 0x400000, 64, 0));

    /* Ranges at the top of the 64-bit space do not wrap. */
    assert_true(engine_op_touches(GMMU_ENGINE_OP_FILL, UINT64_MAX - 63, 0, 64, UINT64_MAX - 10, 5));
    assert_false(engine_op_touches(GMMU_ENGINE_OP_FILL, UINT64_MAX - 63, 0, 64, 0, 64));
    assert_false(
        engine_op_touches(GMMU_ENGINE_OP_COPY, 0, UINT64_MAX - 63, 64, 64, UINT64_MAX - 127));
    assert_true(
        engine_op_touches(GMMU_ENGINE_OP_COPY, 0, UINT64_MAX - 63, 64, 64, UINT64_MAX - 126));
    assert_true(engine_op_touches(GMMU_ENGINE_OP_COPY, 0, UINT64_MAX - 63, 64, 0, 1));
}

/* start_latency: from the wait fence's change to the job's start, in the
   device's cycles; 0 for a job that waited for nothing. */
static void test_start_latency(void **state)
{
    uint32_t go = fence(0);

    (void)state;
    clock_now = 100;
    struct gmmu_engine_submit_req rq = job(0, 1);
    rq.wait_handle = go;
    rq.wait_value = 1;
    submit(rq);
    submit(job(0, 2)); /* behind it, no wait */
    poll();
    clock_now = 1000;
    signal(go, 1);
    clock_now = 1250;
    poll();
    assert_int_equal(eng.starts, 1);
    end_run(0);
    poll();
    assert_int_equal(state_of(0).start_latency, 250);
    assert_int_equal(eng.starts, 2);
    end_run(0);
    poll();
    assert_int_equal(state_of(0).start_latency, 0);
}

static void test_handlers(void **state)
{
    (void)state;
    uint8_t resp[128];
    uint32_t len = 99;
    struct gmmu_engine_submit_req rq = job(0, 0x91);
    assert_int_equal(
        engine_queue_cmd_submit(&q, (const uint8_t *)&rq, sizeof rq - 4, resp, sizeof resp, &len),
        GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(
        engine_queue_cmd_submit(&q, (const uint8_t *)&rq, sizeof rq, resp, sizeof resp, &len),
        GMMU_STATUS_OK);
    assert_int_equal(len, sizeof(struct gmmu_engine_submit_rsp));
    struct gmmu_engine_submit_rsp sr;
    memcpy(&sr, resp, sizeof sr);
    assert_int_equal(sr.queued, 1);

    struct gmmu_engine_status_req st = { .engine = 0 };
    assert_int_equal(
        engine_queue_cmd_queue(&q, (const uint8_t *)&st, sizeof st, resp, sizeof resp, &len),
        GMMU_STATUS_OK);
    assert_int_equal(len, sizeof(struct gmmu_engine_queue_rsp));
    st.flags = 1;
    assert_int_equal(
        engine_queue_cmd_queue(&q, (const uint8_t *)&st, sizeof st, resp, sizeof resp, &len),
        GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(len, 0);

    struct gmmu_engine_cancel_req c = { .engine = 0, .job = sr.job, .owner = rq.owner };
    assert_int_equal(
        engine_queue_cmd_cancel(&q, (const uint8_t *)&c, sizeof c + 4, resp, sizeof resp, &len),
        GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(
        engine_queue_cmd_cancel(&q, (const uint8_t *)&c, sizeof c, resp, sizeof resp, &len),
        GMMU_STATUS_OK);
    struct gmmu_engine_cancel_rsp cr;
    memcpy(&cr, resp, sizeof cr);
    assert_int_equal(cr.cancelled, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_order_per_engine_engines_independent, setup),
        cmocka_unit_test_setup(test_wait_holds_job_across_wrap, setup),
        cmocka_unit_test_setup(test_signal_on_end, setup),
        cmocka_unit_test_setup(test_full_queue_busy_nothing_lost, setup),
        cmocka_unit_test_setup(test_cancel, setup),
        cmocka_unit_test_setup(test_bad_input, setup),
        cmocka_unit_test_setup(test_owner_change, setup),
        cmocka_unit_test_setup(test_fence_gone_as_gone_engine_busy, setup),
        cmocka_unit_test_setup(test_uses, setup),
        cmocka_unit_test_setup(test_start_latency, setup),
        cmocka_unit_test_setup(test_handlers, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
