// SPDX-License-Identifier: Apache-2.0
/*
 * MMU faults and counters end to end on the simulated SoC: GPU engines
 * fault on purpose, the firmware forwards each fault record as an EVT_FAULT
 * event, and the host reads the events and the MMU's counters through
 * libgmmu. Expectations come from the access pattern the test chose (which
 * VA, which engine, how many chunks), not from the device.
 *
 * Engines issue only reads and writes, so no test here makes an execute
 * access (NO_EXECUTE faults are covered by the MMU testbench).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "soc_test_util.h"

#define KIB              1024ull
#define CHUNK            64u
#define OP_FILL          0u
#define OP_CHECKSUM      2u
#define ACCESS_READ      0u
#define ACCESS_WRITE     1u
#define REASON_INVALID   1u
#define REASON_READ_ONLY 2u
/* Page 0 of every address space is never mapped (VidMm keeps NULL
   faulting), so these VAs always fault INVALID. */
#define NULL_PAGE_VA(n)  (CHUNK * (n))

static struct gmmu_dev *dev;

static struct soc_buffer make_buffer(uint32_t as, uint64_t size, uint32_t map_flags, uint32_t pages)
{
    return soc_make_buffer(dev, as, size, 0, map_flags, pages);
}

/* Runs one engine operation; *asid gets the hardware id it ran under. */
static struct gmmu_engine_rsp run(uint32_t engine, uint32_t op, uint32_t as, uint64_t va,
                                  uint32_t len)
{
    return soc_engine_run(dev, engine, op, as, op == OP_FILL ? va : 0, op == OP_FILL ? 0 : va, len,
                          0x5A5A);
}

static bool run_faulted(const struct gmmu_engine_rsp *r)
{
    return r->engine_status & 0x4u;
}

/* Every event pending now, at most max. */
static int take_events(struct gmmu_event *evs, int max)
{
    int n = 0;
    for (; n < max; n++) {
        int rc = gmmu_next_event(dev, &evs[n]);
        if (rc < 0)
            fail_msg("gmmu_next_event: %s", gmmu_strerror(rc));
        if (rc == 0)
            break;
    }
    return n;
}

static struct gmmu_mmu_perf counters(void)
{
    struct gmmu_mmu_perf p;
    int rc = gmmu_get_mmu_counters(dev, 0, &p);
    if (rc)
        fail_msg("GET_MMU_COUNTERS: %s", gmmu_strerror(rc));
    return p;
}

static struct gmmu_mmu_perf since(const struct gmmu_mmu_perf *before)
{
    struct gmmu_mmu_perf now = counters(), d;
    gmmu_mmu_perf_delta(before, &now, &d);
    return d;
}

static void expect_fault(const struct gmmu_event *ev, uint64_t va, uint32_t reason, uint32_t access,
                         uint32_t port, uint32_t as, uint32_t asid)
{
    assert_int_equal(ev->type, GMMU_EVT_FAULT);
    assert_int_equal(ev->payload_len, sizeof(struct gmmu_fault_evt));
    assert_int_equal(ev->u.fault.va, va);
    assert_int_equal(ev->u.fault.reason, reason);
    assert_int_equal(ev->u.fault.access, access);
    assert_int_equal(ev->u.fault.port, port);
    assert_int_equal(ev->u.fault.as_handle, as);
    assert_int_equal(ev->u.fault.asid, asid);
    assert_int_equal(ev->lost, 0);
}

static void flush_events(void)
{
    struct gmmu_event ev;
    while (gmmu_next_event(dev, &ev) == 1)
        ;
}

/* One chunk per run, so one translation and one fault per run: unmapped,
   read-only, a read of an unmapped page, another address space. */
static void test_each_fault_is_one_event(void **state)
{
    (void)state;
    flush_events();
    uint32_t as1, as2, asid1, asid2;
    assert_int_equal(gmmu_create_as(dev, &as1, &asid1), 0);
    assert_int_equal(gmmu_create_as(dev, &as2, &asid2), 0);
    struct soc_buffer rw = make_buffer(as1, 64 * KIB, 0, 0);
    struct soc_buffer ro = make_buffer(as1, 64 * KIB, GMMU_MAP_FLAG_READ_ONLY, 0);
    struct gmmu_mmu_perf c0 = counters();

    struct gmmu_engine_rsp r = run(0, OP_FILL, as1, NULL_PAGE_VA(1), CHUNK);
    assert_true(run_faulted(&r));
    assert_int_equal(r.asid, asid1);
    r = run(2, OP_FILL, as1, ro.va + 2 * CHUNK, CHUNK);
    assert_true(run_faulted(&r));
    r = run(1, OP_CHECKSUM, as1, NULL_PAGE_VA(3), CHUNK);
    assert_true(run_faulted(&r));
    r = run(3, OP_FILL, as2, rw.va, CHUNK); /* mapped in as1 only */
    assert_true(run_faulted(&r));
    assert_int_equal(r.asid, asid2);

    /* ENGINE_RUN forwards its faults before it completes: all are here. */
    struct gmmu_event ev[8];
    assert_int_equal(take_events(ev, 8), 4);
    expect_fault(&ev[0], NULL_PAGE_VA(1), REASON_INVALID, ACCESS_WRITE, 0, as1, asid1);
    expect_fault(&ev[1], ro.va + 2 * CHUNK, REASON_READ_ONLY, ACCESS_WRITE, 2, as1, asid1);
    expect_fault(&ev[2], NULL_PAGE_VA(3), REASON_INVALID, ACCESS_READ, 1, as1, asid1);
    expect_fault(&ev[3], rw.va, REASON_INVALID, ACCESS_WRITE, 3, as2, asid2);
    for (int i = 1; i < 4; i++)
        assert_int_equal(ev[i].seq, ev[0].seq + (uint32_t)i);

    struct gmmu_mmu_perf d = since(&c0);
    for (uint32_t p = 0; p < 4; p++) {
        assert_int_equal(d.port[p].requests, 1);
        assert_int_equal(d.port[p].faults, 1);
        assert_int_equal(d.port[p].hits + d.port[p].misses, 1);
    }
    assert_int_equal(d.c.faults, 4);
    assert_int_equal(d.c.fault_overflow, 0);

    assert_int_equal(gmmu_free(dev, rw.alloc), 0);
    assert_int_equal(gmmu_free(dev, ro.alloc), 0);
    assert_int_equal(gmmu_destroy_as(dev, as1), 0);
    assert_int_equal(gmmu_destroy_as(dev, as2), 0);
}

/* A 4 KB fill is 64 chunks, one WRITE translation each, in one 4 KB page. */
static void test_counters_for_a_known_pattern(void **state)
{
    (void)state;
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    struct soc_buffer b = make_buffer(as, 64 * KIB, 0, 0x1 /* 4 KB pages */);
    const uint32_t n = 4 * KIB / CHUNK;

    struct gmmu_mmu_perf c0 = counters();
    struct gmmu_engine_rsp r = run(0, OP_FILL, as, b.va, 4 * KIB);
    assert_false(run_faulted(&r));
    struct gmmu_mmu_perf d = since(&c0);
    const struct gmmu_mmu_port_counters *p0 = &d.port[0];
    printf("first fill: requests %u hits %u misses %u merges %u prefetches %u; "
           "L2 lookups %u hits %u, walks %u (%u cycles), pte reads %u\n",
           p0->requests, p0->hits, p0->misses, p0->merges, p0->prefetches, d.c.l2_lookups,
           d.c.l2_hits, d.c.walks, d.c.walk_cycles, d.c.pte_reads);
    assert_int_equal(p0->requests, n);
    assert_int_equal(p0->hits + p0->misses, n); /* no VA-range faults */
    assert_int_equal(p0->faults, 0);
    assert_int_equal(p0->misses - p0->merges, 1); /* one new page: one unmerged miss */
    assert_in_range(p0->prefetches, 0, 3);        /* PfDepth next pages at most */
    for (uint32_t p = 1; p < d.c.ports; p++)
        assert_int_equal(d.port[p].requests, 0);
    assert_int_equal(d.c.l2_lookups, p0->misses - p0->merges + p0->prefetches);
    assert_int_equal(d.c.walks, d.c.l2_lookups - d.c.l2_hits);
    assert_true(d.c.walks >= 1); /* the page was never translated */
    assert_true(d.c.walk_cycles >= d.c.walks);
    assert_int_equal(d.c.faults, 0);
    assert_int_equal(d.c.invalidations, 0);
    assert_true(d.c.cycles > 0);

    /* The same page again: all in the L1 TLB now. */
    c0 = counters();
    r = run(0, OP_FILL, as, b.va, 4 * KIB);
    d = since(&c0);
    assert_int_equal(d.port[0].requests, n);
    assert_int_equal(d.port[0].hits, n);
    assert_int_equal(d.port[0].misses, 0);
    assert_int_equal(d.c.l2_lookups, 0);
    assert_int_equal(d.c.walks, 0);

    /* CLEAR: a read right after sees nothing but cycles. */
    struct gmmu_mmu_perf cleared;
    assert_int_equal(gmmu_get_mmu_counters(dev, GMMU_MMU_COUNTERS_FLAG_CLEAR, &cleared), 0);
    d = counters();
    for (uint32_t p = 0; p < d.c.ports; p++)
        assert_int_equal(d.port[p].requests, 0);
    assert_int_equal(d.c.walks, 0);
    assert_true(d.c.cycles > 0 && d.c.cycles < cleared.c.cycles); /* counted since the clear */

    assert_int_equal(gmmu_free(dev, b.alloc), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
}

/* More faults than EVT_SLOTS with no reader: the excess is dropped and
   counted, the firmware keeps answering, and the reader sees the gap. */
static void test_event_ring_overflow(void **state)
{
    (void)state;
    enum { EXTRA = 6 };
    flush_events();
    uint32_t as, asid, d0, d1;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    assert_int_equal(gmmu_bar_read(dev, GMMU_MBOX_EVT_DROPPED, &d0), 0);
    for (uint32_t i = 0; i < GMMU_EVT_SLOTS + EXTRA; i++) {
        struct gmmu_engine_rsp r = run(i % 4, OP_FILL, as, NULL_PAGE_VA(i % 64), CHUNK);
        assert_true(run_faulted(&r));
    }
    assert_int_equal(gmmu_ping(dev, "alive", 5), 0);
    assert_int_equal(gmmu_bar_read(dev, GMMU_MBOX_EVT_DROPPED, &d1), 0);
    assert_int_equal(d1 - d0, EXTRA);
    struct gmmu_stats st;
    assert_int_equal(gmmu_get_stats(dev, &st), 0);
    assert_int_equal(st.events_dropped, d1);

    static struct gmmu_event ev[GMMU_EVT_SLOTS + 1];
    assert_int_equal(take_events(ev, GMMU_EVT_SLOTS + 1), GMMU_EVT_SLOTS);
    for (uint32_t i = 0; i < GMMU_EVT_SLOTS; i++) {
        assert_int_equal(ev[i].u.fault.va, NULL_PAGE_VA(i % 64));
        assert_int_equal(ev[i].u.fault.port, i % 4);
    }
    struct gmmu_engine_rsp r = run(0, OP_FILL, as, NULL_PAGE_VA(7), CHUNK);
    assert_true(run_faulted(&r));
    assert_int_equal(gmmu_wait_event(dev, 1000, &ev[0]), 0);
    assert_int_equal(ev[0].lost, EXTRA);
    assert_int_equal(ev[0].seq, ev[GMMU_EVT_SLOTS - 1].seq + EXTRA + 1);
    assert_int_equal(ev[0].u.fault.va, NULL_PAGE_VA(7));
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
}

/* ---------------------------------------------------- callback, threads */
struct seen {
    pthread_mutex_t lock;
    uint32_t faults, errors, as;
    bool wrong_as;
};

static void on_event(struct gmmu_dev *d, const struct gmmu_event *ev, int rc, void *arg)
{
    struct seen *s = arg;
    (void)d;
    pthread_mutex_lock(&s->lock);
    if (!ev)
        s->errors += rc != 0;
    else if (ev->type == GMMU_EVT_FAULT) {
        s->faults++;
        s->wrong_as |= ev->u.fault.as_handle != s->as;
    }
    pthread_mutex_unlock(&s->lock);
}

static void *pinger(void *arg)
{
    int *failures = arg;
    for (int i = 0; i < 20; i++)
        *failures += gmmu_ping(dev, &i, sizeof i) != 0;
    return NULL;
}

static uint32_t faults_seen(struct seen *s)
{
    pthread_mutex_lock(&s->lock);
    uint32_t n = s->faults;
    pthread_mutex_unlock(&s->lock);
    return n;
}

static void test_callback_with_other_threads(void **state)
{
    (void)state;
    enum { RUNS = 5 };
    flush_events();
    struct seen s = { .lock = PTHREAD_MUTEX_INITIALIZER };
    uint32_t asid;
    assert_int_equal(gmmu_create_as(dev, &s.as, &asid), 0);
    assert_int_equal(gmmu_set_event_callback(dev, on_event, &s), 0);
    int failures = 0;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, pinger, &failures), 0);
    for (int i = 0; i < RUNS; i++)
        run(i % 4, OP_FILL, s.as, NULL_PAGE_VA(i + 1), CHUNK);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(failures, 0);
    for (int i = 0; i < 2000 && faults_seen(&s) < RUNS; i++) {
        struct timespec ts = { 0, 5000000 };
        nanosleep(&ts, NULL);
    }
    assert_int_equal(gmmu_set_event_callback(dev, NULL, NULL), 0);
    assert_int_equal(s.faults, RUNS);
    assert_false(s.wrong_as);
    assert_int_equal(s.errors, 0);
    assert_int_equal(gmmu_destroy_as(dev, s.as), 0);
}

/* A callback may close its own handle (the library's thread finishes the
   close), but not replace itself. */
struct closer {
    pthread_mutex_t lock;
    int set_rc;
    bool closed;
};

static void close_from_callback(struct gmmu_dev *d, const struct gmmu_event *ev, int rc, void *arg)
{
    struct closer *c = arg;
    (void)ev;
    (void)rc;
    int set_rc = gmmu_set_event_callback(d, NULL, NULL);
    gmmu_close(d);
    pthread_mutex_lock(&c->lock);
    c->set_rc = set_rc;
    c->closed = true;
    pthread_mutex_unlock(&c->lock);
}

static bool wait_closed(struct closer *c)
{
    bool closed = false;
    for (int i = 0; i < 2000 && !closed; i++) {
        struct timespec ts = { 0, 5000000 };
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&c->lock);
        closed = c->closed;
        pthread_mutex_unlock(&c->lock);
    }
    return closed;
}

/* The simulation serves one host at a time, so the handle closed is the
   test's own: after registering, this thread leaves it to the callback and
   opens a new one once it is closed. */
static void test_callback_closes_its_handle(void **state)
{
    (void)state;
    flush_events();
    struct closer c = { .lock = PTHREAD_MUTEX_INITIALIZER };
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    run(0, OP_FILL, as, NULL_PAGE_VA(5), CHUNK);
    assert_int_equal(gmmu_set_event_callback(dev, close_from_callback, &c), 0);
    assert_true(wait_closed(&c));
    assert_int_equal(c.set_rc, GMMU_E_INVALID_ARG);
    dev = NULL;
    assert_int_equal(soc_open(&dev), 0);
    assert_int_equal(gmmu_ping(dev, "still", 5), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
}

/* ------------------------------------------------------------ bad input */
static void test_bad_requests(void **state)
{
    (void)state;
    struct gmmu_mmu_perf p;
    assert_int_equal(gmmu_get_mmu_counters(dev, 0x80, &p), GMMU_STATUS_INVALID_ARGUMENT);
    uint32_t short_req = 0;
    assert_int_equal(
        gmmu_call(dev, GMMU_OP_GET_MMU_COUNTERS, &short_req, sizeof short_req, NULL, 0, NULL),
        GMMU_STATUS_MALFORMED_LENGTH);
    struct gmmu_event ev;
    flush_events();
    assert_int_equal(gmmu_wait_event(dev, 20, &ev), GMMU_E_TIMEOUT);
    assert_int_equal(gmmu_next_event(dev, &ev), 0);
    assert_int_equal(gmmu_next_event(dev, NULL), GMMU_E_INVALID_ARG);
}

/* Leaves two faults unread for tests/host/gmmuctl_faults.sh, which runs
   next on the same device: engine 1 writes VA 0x40, engine 2 reads 0x80. */
static void test_leave_faults_for_gmmuctl(void **state)
{
    (void)state;
    uint32_t as, asid;
    flush_events();
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    run(1, OP_FILL, as, NULL_PAGE_VA(1), CHUNK);
    run(2, OP_CHECKSUM, as, NULL_PAGE_VA(2), CHUNK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_fault_is_one_event),
        cmocka_unit_test(test_counters_for_a_known_pattern),
        cmocka_unit_test(test_event_ring_overflow),
        cmocka_unit_test(test_callback_with_other_threads),
        cmocka_unit_test(test_callback_closes_its_handle),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_leave_faults_for_gmmuctl),
    };
    return soc_run_tests(tests, &dev);
}
