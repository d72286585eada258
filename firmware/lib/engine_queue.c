// SPDX-License-Identifier: Apache-2.0
#include "engine_queue.h"

#include <stddef.h>
#include <string.h>

#include <gmmu/engine_regs.h>

_Static_assert(GMMU_ENGINE_QUEUE_DEPTH <= 255, "count fits a byte");
_Static_assert(GMMU_ENGINES <= 8, "running has a bit per engine");
_Static_assert(offsetof(struct gmmu_engine_submit_req, wait_handle) ==
                   sizeof(struct gmmu_engine_req),
               "a submit begins with an engine_req");

void engine_queue_init(struct engine_queue *q, const struct engine_queue_ops *ops,
                       struct fences *fences)
{
    memset(q, 0, sizeof(*q));
    q->ops = ops;
    q->fences = fences;
    q->next_id = 1;
}

static struct engine_job *head(struct engine_ring *r)
{
    return &r->job[r->head];
}

static void pop(struct engine_queue *q, struct engine_ring *r)
{
    r->head = (uint8_t)((r->head + 1u) % GMMU_ENGINE_QUEUE_DEPTH);
    r->count--;
    r->running = false;
    q->running &= (uint8_t) ~(1u << (r - q->ring));
    q->held--;
}

/* The head job ended (ran, or could not start): its result becomes the
   engine's last, its fence is signalled, the next job may start. */
static void end_head(struct engine_queue *q, struct engine_ring *r, uint32_t status,
                     const struct gmmu_engine_rsp *rs)
{
    struct engine_job job = *head(r);

    r->last.last_job = job.id;
    r->last.last_status = status;
    r->last.finished++;
    r->last.engine_status = rs->engine_status;
    r->last.bytes_done = rs->bytes_done;
    r->last.fault_va = rs->fault_va;
    r->last.result = rs->result;
    r->last.result2 = rs->result2;
    r->last.cycles = rs->cycles;
    r->last.asid = rs->asid;
    r->last.start_latency = r->running ? r->start_latency : 0;
    pop(q, r);
    fence_raise(q->fences, job.signal_handle, job.signal_value);
}

/* Removes the jobs that have not started and match (all, or id), keeping
   the order of the others; returns how many. */
static uint32_t remove_queued(struct engine_queue *q, struct engine_ring *r, bool all, uint32_t id)
{
    uint32_t kept = 0, removed = 0;

    for (uint32_t i = 0; i < r->count; i++) {
        struct engine_job *job = &r->job[(r->head + i) % GMMU_ENGINE_QUEUE_DEPTH];

        if ((i > 0 || !r->running) && (all || job->id == id)) {
            removed++;
            continue;
        }
        if (kept != i)
            r->job[(r->head + kept) % GMMU_ENGINE_QUEUE_DEPTH] = *job;
        kept++;
    }
    r->count = (uint8_t)kept;
    r->last.cancelled += removed;
    q->held -= removed;
    return removed;
}

/* One host at a time: a new owner means the previous host left, and its
   jobs that have not started would run for nobody. */
static void take_owner(struct engine_queue *q, uint32_t owner)
{
    if (owner == q->owner)
        return;
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        remove_queued(q, &q->ring[e], true, 0);
    q->owner = owner;
}

/* Starts engine e's head job if it may start; a job that cannot start
   ends at once, and the next is tried. */
static void try_start(struct engine_queue *q, uint32_t e)
{
    struct engine_ring *r = &q->ring[e];

    while (r->count && !r->running) {
        struct engine_job *job = head(r);
        uint64_t now;

        if (job->wait_handle) {
            if (!fence_value_of(q->fences, job->wait_handle, &now)) {
                /* Its fence was destroyed: the value can never come. */
                remove_queued(q, r, false, job->id);
                continue;
            }
            if (!fence_reached(now, job->wait_value))
                return;
        }
        /* A run the queue did not start (ENGINE_START before the submit):
           no fence tells when it ends, so look again next time. */
        if (q->ops->busy(q->ops->ctx, e)) {
            q->recheck = true;
            return;
        }
        uint32_t asid;
        uint32_t st = q->ops->activate(q->ops->ctx, job->rq.as_handle, &asid);
        if (st == GMMU_STATUS_BUSY) { /* every id pinned by a running engine */
            q->recheck = true;
            return;
        }
        if (st != GMMU_STATUS_OK) {
            const struct gmmu_engine_rsp none = { 0 };
            end_head(q, r, st, &none);
            continue;
        }
        /* From the change that let it start (e.g. a map's paging fence)
           to its start: the cost of the poll, the id and the registers. */
        uint32_t at;
        r->start_latency = job->wait_handle && fence_changed_at(q->fences, job->wait_handle, &at)
                               ? fence_now(q->fences) - at
                               : 0;
        q->ops->start(q->ops->ctx, e, &job->rq, asid);
        r->running = true;
        q->running |= (uint8_t)(1u << e);
    }
}

static void poll_all(struct engine_queue *q);

MBOX_HOT void engine_queue_poll(struct engine_queue *q)
{
    if (!q->held)
        return;
    if (!q->recheck && (!q->fences || q->fences->changes == q->fence_seen)) {
        uint32_t e = q->look;

        q->look = (uint8_t)((e + 1u) % GMMU_ENGINES);
        if (!(q->running >> e & 1u) || q->ops->busy(q->ops->ctx, e))
            return;
    }
    poll_all(q);
}

/* Kept out of line and out of .text.hot: it runs only when a job may
   start or end. */
static __attribute__((noinline)) void poll_all(struct engine_queue *q)
{
    /* Waiting jobs can only move when a fence changed or a job was
       submitted, cancelled or ended; otherwise only the running engines
       are read. */
    bool check = q->recheck || (q->fences && q->fences->changes != q->fence_seen);
    bool ended;

    q->recheck = false;
    do {
        ended = false;
        if (q->fences)
            q->fence_seen = q->fences->changes;
        for (uint32_t e = 0; e < GMMU_ENGINES; e++) {
            struct engine_ring *r = &q->ring[e];

            if (!r->count)
                continue;
            if (r->running) {
                if (q->ops->busy(q->ops->ctx, e))
                    continue;
                struct gmmu_engine_rsp rs;
                q->ops->finish(q->ops->ctx, e, &rs);
                end_head(q, r, GMMU_STATUS_OK, &rs);
                ended = true;
            } else if (!check) {
                continue;
            }
            try_start(q, e);
        }
        /* An ended job's signal may let a job of an engine already passed
           start: once more, at most once per job that ended. */
        check = true;
    } while (ended && q->held);
}

uint32_t engine_queue_submit(struct engine_queue *q, const struct gmmu_engine_submit_req *rq,
                             struct gmmu_engine_submit_rsp *out)
{
    uint64_t v;

    if (rq->reserved || rq->engine >= GMMU_ENGINES || rq->op > GMMU_ENGINE_OP_FETCH)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if ((rq->length | rq->dst_va | rq->src_va) & (GMMU_ENGINE_CHUNK_BYTES - 1))
        return GMMU_STATUS_UNALIGNED;
    if (q->ops->as_exists && !q->ops->as_exists(q->ops->ctx, rq->as_handle))
        return GMMU_STATUS_BAD_HANDLE;
    if ((rq->wait_handle && !fence_value_of(q->fences, rq->wait_handle, &v)) ||
        (rq->signal_handle && !fence_value_of(q->fences, rq->signal_handle, &v)))
        return GMMU_STATUS_BAD_HANDLE;
    /* Only paging work signals the paging fence. */
    if (rq->signal_handle == GMMU_FENCE_PAGING)
        return GMMU_STATUS_INVALID_ARGUMENT;
    take_owner(q, rq->owner);

    struct engine_ring *r = &q->ring[rq->engine];
    if (r->count == GMMU_ENGINE_QUEUE_DEPTH)
        return GMMU_STATUS_BUSY;
    struct engine_job *job = &r->job[(r->head + r->count) % GMMU_ENGINE_QUEUE_DEPTH];
    memcpy(&job->rq, rq, sizeof(job->rq));
    job->wait_handle = rq->wait_handle;
    job->wait_value = rq->wait_value;
    job->signal_handle = rq->signal_handle;
    job->signal_value = rq->signal_value;
    job->owner = rq->owner;
    job->id = q->next_id;
    q->next_id = q->next_id + 1u ? q->next_id + 1u : 1u; /* never 0 */
    r->count++;
    q->held++;
    q->recheck = true;
    *out = (struct gmmu_engine_submit_rsp){ .job = job->id, .queued = r->count };
    return GMMU_STATUS_OK;
}

uint32_t engine_queue_cancel(struct engine_queue *q, const struct gmmu_engine_cancel_req *rq,
                             struct gmmu_engine_cancel_rsp *out)
{
    bool all = rq->flags & GMMU_ENGINE_CANCEL_FLAG_ALL;

    if (rq->engine >= GMMU_ENGINES || (rq->flags & ~(uint32_t)GMMU_ENGINE_CANCEL_FLAG_ALL) ||
        (!all && !rq->job))
        return GMMU_STATUS_INVALID_ARGUMENT;
    take_owner(q, rq->owner);

    struct engine_ring *r = &q->ring[rq->engine];
    *out = (struct gmmu_engine_cancel_rsp){ 0 };
    if (!all && r->count && r->running && head(r)->id == rq->job) {
        /* Stopped, not dropped: it ends ABORTED at the next poll and
           signals its fence, so nothing waits for it forever. */
        q->ops->abort(q->ops->ctx, rq->engine);
        out->aborted = 1;
        return GMMU_STATUS_OK;
    }
    out->cancelled = remove_queued(q, r, all, rq->job);
    /* The next job may start now that the ones ahead of it are gone. */
    q->recheck = true;
    return GMMU_STATUS_OK;
}

uint32_t engine_queue_read(const struct engine_queue *q, uint32_t engine,
                           struct gmmu_engine_queue_rsp *out)
{
    if (engine >= GMMU_ENGINES)
        return GMMU_STATUS_INVALID_ARGUMENT;
    const struct engine_ring *r = &q->ring[engine];
    *out = r->last;
    out->queued = r->count;
    out->running = r->running ? r->job[r->head].id : 0;
    return GMMU_STATUS_OK;
}

/* [a, a + la) meets [b, b + lb). */
static bool meets(uint64_t a, uint64_t la, uint64_t b, uint64_t lb)
{
    return la && lb && (a >= b ? a - b < lb : b - a < la);
}

bool engine_op_touches(uint32_t op, uint64_t dst, uint64_t src, uint64_t len, uint64_t va,
                       uint64_t bytes)
{
    bool writes = op == GMMU_ENGINE_OP_FILL || op == GMMU_ENGINE_OP_COPY;
    bool reads = op != GMMU_ENGINE_OP_FILL;

    return (writes && meets(dst, len, va, bytes)) || (reads && meets(src, len, va, bytes));
}

/* The job has not started and waits for a value that the paging fence or
   `after` has not reached: it starts after the change asking. */
static bool ordered_after(const struct engine_queue *q, const struct engine_job *job,
                          uint32_t after)
{
    uint64_t now;

    return job->wait_handle &&
           (job->wait_handle == GMMU_FENCE_PAGING || job->wait_handle == after) &&
           fence_value_of(q->fences, job->wait_handle, &now) &&
           !fence_reached(now, job->wait_value);
}

bool engine_queue_uses(const struct engine_queue *q, uint32_t as_handle, uint64_t va,
                       uint64_t bytes, uint32_t after)
{
    for (uint32_t e = 0; e < GMMU_ENGINES && q->held; e++) {
        const struct engine_ring *r = &q->ring[e];

        for (uint32_t i = 0; i < r->count; i++) {
            const struct engine_job *job = &r->job[(r->head + i) % GMMU_ENGINE_QUEUE_DEPTH];
            bool started = i == 0 && r->running;

            if (job->rq.as_handle != as_handle || (!started && ordered_after(q, job, after)))
                continue;
            if (engine_op_touches(job->rq.op, job->rq.dst_va, job->rq.src_va, job->rq.length, va,
                                  bytes))
                return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------ handlers */

uint32_t engine_queue_cmd_submit(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                 uint32_t resp_cap, uint32_t *resp_len)
{
    struct gmmu_engine_submit_req rq;
    struct gmmu_engine_submit_rsp rs = { 0 };

    if (req_len != sizeof rq)
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(&rq, req, sizeof rq);
    uint32_t st = engine_queue_submit(ctx, &rq, &rs);
    return mbox_reply(st, &rs, sizeof rs, resp, resp_cap, resp_len);
}

uint32_t engine_queue_cmd_cancel(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                 uint32_t resp_cap, uint32_t *resp_len)
{
    struct gmmu_engine_cancel_req rq;
    struct gmmu_engine_cancel_rsp rs = { 0 };

    if (req_len != sizeof rq)
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(&rq, req, sizeof rq);
    uint32_t st = engine_queue_cancel(ctx, &rq, &rs);
    return mbox_reply(st, &rs, sizeof rs, resp, resp_cap, resp_len);
}

uint32_t engine_queue_cmd_queue(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                uint32_t resp_cap, uint32_t *resp_len)
{
    struct gmmu_engine_status_req rq;
    struct gmmu_engine_queue_rsp rs = { 0 };

    if (req_len != sizeof rq)
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(&rq, req, sizeof rq);
    uint32_t st = rq.flags ? GMMU_STATUS_INVALID_ARGUMENT : engine_queue_read(ctx, rq.engine, &rs);
    return mbox_reply(st, &rs, sizeof rs, resp, resp_cap, resp_len);
}
