// SPDX-License-Identifier: Apache-2.0
/*
 * Asynchronous GPU engine jobs (issue 30, deliverable 2): one queue per
 * engine of up to ENGINE_QUEUE_DEPTH jobs, each an engine_req with a fence
 * value to wait for before it starts and a fence value to signal when it
 * ends. ENGINE_SUBMIT returns at once; engine_queue_poll, called by the
 * firmware's service loop between commands, starts and finishes jobs, so
 * the four engines run at the same time.
 *
 * Portable: the engines are reached through struct engine_queue_ops only
 * (start, busy, finish, abort, the address space's hardware id), so the
 * module builds and is tested on the host with a fake engine.
 *
 * The rules (docs/engine.md, "Job queues"):
 *  - an engine runs its queue in order, one job at a time; the head job
 *    starts once the engine is idle and its wait fence is at or past the
 *    wait value (fence_reached, modulo 2^64);
 *  - a job that ran (completed, faulted or aborted), or that could not
 *    start (its address space gone, no hardware id), ends: its result is
 *    kept as the engine's last job, its signal fence is raised to the
 *    signal value (nothing waits forever on a job that faulted), and the
 *    next job may start;
 *  - a job cancelled before it started never runs and signals nothing;
 *    nothing was taken for it at submit (the hardware id is taken at start);
 *  - one owner at a time, as fence waits: a submit or cancel of another
 *    owner cancels every job of the previous owner that has not started
 *    (that host has left); started jobs run to their end;
 *  - a wait fence destroyed under a queued job cancels the job.
 */
#ifndef GMMU_ENGINE_QUEUE_H
#define GMMU_ENGINE_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include <gmmu/mailbox.h>
#include <gmmu/soc.h>

#include "fence.h"
#include "mbox_service.h"

struct engine_queue_ops {
    /* Program engine e with rq under hardware id asid and start it. */
    void (*start)(void *ctx, uint32_t engine, const struct gmmu_engine_req *rq, uint32_t asid);
    /* The engine runs (STATUS.BUSY): also true for a run the queue did not
       start (ENGINE_START), which the head job waits behind. */
    bool (*busy)(void *ctx, uint32_t engine);
    /* The ended run's state (as ENGINE_RUN answers it); drops DONE. */
    void (*finish)(void *ctx, uint32_t engine, struct gmmu_engine_rsp *out);
    /* Stop the run (CTRL.ABORT); it ends later, seen by busy. */
    void (*abort)(void *ctx, uint32_t engine);
    /* The address space's hardware id (vidmm_activate_as), GMMU_STATUS_*. */
    uint32_t (*activate)(void *ctx, uint32_t as_handle, uint32_t *asid);
    /* The address space exists (may be NULL: not checked at submit). */
    bool (*as_exists)(void *ctx, uint32_t as_handle);
    void *ctx;
};

struct engine_job {
    struct gmmu_engine_req rq;
    uint64_t wait_value, signal_value;
    uint32_t wait_handle, signal_handle; /* 0: none */
    uint32_t id, owner;
};

struct engine_ring {
    struct engine_job job[GMMU_ENGINE_QUEUE_DEPTH];
    uint8_t head, count;               /* job[head] is the oldest */
    bool running;                      /* job[head] has started */
    uint32_t start_latency;            /* job[head]'s, set when it started */
    struct gmmu_engine_queue_rsp last; /* queued and running filled on read */
};

struct engine_queue {
    /* What the poll's fast path reads, together at the front: one data
       cache line besides fences->changes (the caches are direct-mapped, and
       what the poll touches may evict what the next command needs). */
    uint32_t held;       /* jobs in all queues: the loop polls only when > 0 */
    uint32_t fence_seen; /* fences->changes when the waits were last checked */
    uint8_t running;     /* bit e: engine e runs a job of its queue */
    bool recheck;        /* something other than a fence may let a job start */
    uint8_t look;        /* the engine the fast path reads next */
    const struct engine_queue_ops *ops;
    struct fences *fences;
    uint32_t next_id;
    uint32_t owner; /* owner of the queued jobs */
    struct engine_ring ring[GMMU_ENGINES];
};

/* Empty queues. fences: where jobs wait and signal (NULL: a job naming a
   fence is BAD_HANDLE). */
void engine_queue_init(struct engine_queue *q, const struct engine_queue_ops *ops,
                       struct fences *fences);

/* The command bodies (GMMU_STATUS_*); each changes nothing on failure. */
uint32_t engine_queue_submit(struct engine_queue *q, const struct gmmu_engine_submit_req *rq,
                             struct gmmu_engine_submit_rsp *out);
uint32_t engine_queue_cancel(struct engine_queue *q, const struct gmmu_engine_cancel_req *rq,
                             struct gmmu_engine_cancel_rsp *out);
uint32_t engine_queue_read(const struct engine_queue *q, uint32_t engine,
                           struct gmmu_engine_queue_rsp *out);

/* Whether an engine run of operation op (without flags) over
   [dst, dst + len) and [src, src + len) touches [va, va + bytes): FILL
   writes dst, COPY reads src and writes dst, CHECKSUM and FETCH read src.
   Computed without sums, so no address the host chose can wrap it. */
bool engine_op_touches(uint32_t op, uint64_t dst, uint64_t src, uint64_t len, uint64_t va,
                       uint64_t bytes);

/*
 * Memory in use (docs/vidmm.md, "Memory in use"): whether a job the queues
 * hold, running or waiting, of address space as_handle touches part of
 * [va, va + bytes). A job that has not started and waits for a value that
 * the paging fence, or the fence `after` (0: none), has not reached is
 * ordered after the change that asks, by the host's fences, and does not
 * count.
 */
bool engine_queue_uses(const struct engine_queue *q, uint32_t as_handle, uint64_t va,
                       uint64_t bytes, uint32_t after);

/* Jobs held (waiting or running) on one engine. */
static inline uint32_t engine_queue_held(const struct engine_queue *q, uint32_t engine)
{
    return q->ring[engine].count;
}

/* Finishes ended jobs and starts the ones that may start. The service
   loop calls it whenever it is idle (guarded by engine_queue_active: one
   load). While nothing but the runs can move (no fence changed, nothing
   submitted), it reads one engine per call, in turn, and only if it runs a
   queued job (.text.hot): an ended job is seen within GMMU_ENGINES calls,
   and a doorbell that rings during a call waits for one bus read at most. */
void engine_queue_poll(struct engine_queue *q);

static inline bool engine_queue_active(const struct engine_queue *q)
{
    return q->held != 0;
}

/* The handlers of ENGINE_SUBMIT, ENGINE_CANCEL and ENGINE_QUEUE (ctx: the
   struct engine_queue). The service has room for seven command sets, so
   they are registered in the engine set (firmware/app/engine_cmd.c), beside
   ENGINE_RUN, rather than as a set of their own. */
uint32_t engine_queue_cmd_submit(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                 uint32_t resp_cap, uint32_t *resp_len);
uint32_t engine_queue_cmd_cancel(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                 uint32_t resp_cap, uint32_t *resp_len);
uint32_t engine_queue_cmd_queue(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                uint32_t resp_cap, uint32_t *resp_len);

#endif /* GMMU_ENGINE_QUEUE_H */
