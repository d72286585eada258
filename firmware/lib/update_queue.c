// SPDX-License-Identifier: Apache-2.0
#include "update_queue.h"

#include <stddef.h>
#include <string.h>

#include "mbox_service.h"

_Static_assert(offsetof(struct gmmu_update_queue_rsp, applied) ==
                   offsetof(struct gmmu_update_queue_rsp, last_status) + 4,
               "the counters follow the last batch");

void update_queue_init(struct update_queue *q, const struct update_queue_ops *ops,
                       struct fences *fences, struct gmmu_update_op *store)
{
    memset(q, 0, sizeof(*q));
    q->ops = ops;
    q->fences = fences;
    q->store = store;
    q->next_id = 1;
}

/* Batch i's first operation in the store. */
static uint32_t first_op(const struct update_queue *q, uint32_t i)
{
    uint32_t at = 0;

    for (uint32_t k = 0; k < i; k++)
        at += q->batch[k].count;
    return at;
}

/* Takes batch i out, its operations with it, keeping the others' order. */
static void remove_at(struct update_queue *q, uint32_t i)
{
    uint32_t at = first_op(q, i), n = q->batch[i].count;

    memmove(&q->store[at], &q->store[at + n], (q->ops_held - at - n) * sizeof(*q->store));
    memmove(&q->batch[i], &q->batch[i + 1], (q->count - i - 1) * sizeof(*q->batch));
    q->count--;
    q->ops_held -= n;
    q->recheck = true;
    q->head_in_use = false;
}

/* Removes the batches that match (all, or id); returns how many. */
static uint32_t cancel(struct update_queue *q, bool all, uint32_t id)
{
    uint32_t removed = 0;

    for (uint32_t i = 0; i < q->count;) {
        if (all || q->batch[i].id == id) {
            remove_at(q, i);
            removed++;
        } else {
            i++;
        }
    }
    q->last.cancelled += removed;
    return removed;
}

/* One host at a time: a new owner means the previous host left, and its
   batches would change mappings for nobody. */
static void take_owner(struct update_queue *q, uint32_t owner)
{
    if (owner == q->owner)
        return;
    cancel(q, true, 0);
    q->owner = owner;
}

/* The head may be applied (or must go): false while it waits. */
static bool head_due(struct update_queue *q)
{
    const struct update_batch *b = &q->batch[0];
    uint64_t now;

    if (!b->wait_handle)
        return true;
    if (!fence_value_of(q->fences, b->wait_handle, &now)) {
        /* Its fence was destroyed: the value can never come. */
        cancel(q, false, b->id);
        return false;
    }
    return fence_reached(now, b->wait_value);
}

uint32_t update_queue_poll(struct update_queue *q)
{
    uint32_t ended = 0;

    if (!q->count || (!q->recheck && !q->head_in_use && q->fences->changes == q->fence_seen))
        return 0;
    q->recheck = false;
    while (q->count) {
        q->fence_seen = q->fences->changes;
        if (!head_due(q)) {
            if (q->recheck) { /* the head was cancelled: look at the next */
                q->recheck = false;
                continue;
            }
            return ended;
        }
        struct update_batch b = q->batch[0];
        uint32_t st = q->ops->apply(q->ops->ctx, b.as_handle, q->store, b.count, b.signal_handle);
        if (st == GMMU_STATUS_BUSY) {
            /* A job still needs a range: asked again at every poll until
               it ends (the service loop polls while batches wait). */
            q->head_in_use = true;
            return ended;
        }
        remove_at(q, 0);
        q->recheck = false;
        q->last.last_batch = b.id;
        q->last.last_status = st;
        if (st == GMMU_STATUS_OK)
            q->last.applied++;
        else
            q->last.failed++;
        fence_raise(q->fences, b.signal_handle, b.signal_value);
        ended++;
    }
    return ended;
}

uint32_t update_queue_submit(struct update_queue *q, const struct gmmu_update_submit_req *rq,
                             const void *ops, struct gmmu_update_submit_rsp *out)
{
    uint64_t v;
    uint32_t st;

    if (rq->reserved || !rq->count || rq->count > GMMU_UPDATE_QUEUE_OPS)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if ((rq->wait_handle && !fence_value_of(q->fences, rq->wait_handle, &v)) ||
        (rq->signal_handle && !fence_value_of(q->fences, rq->signal_handle, &v)))
        return GMMU_STATUS_BAD_HANDLE;
    /* Only paging work signals the paging fence, and each batch does. */
    if (rq->signal_handle == GMMU_FENCE_PAGING)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (q->ops->check) {
        st = q->ops->check(q->ops->ctx, rq->as_handle, ops, rq->count);
        if (st != GMMU_STATUS_OK)
            return st;
    }
    take_owner(q, rq->owner);
    if (q->count == GMMU_UPDATE_QUEUE_DEPTH || q->ops_held + rq->count > GMMU_UPDATE_QUEUE_OPS)
        return GMMU_STATUS_BUSY;

    struct update_batch *b = &q->batch[q->count];
    *b = (struct update_batch){
        .wait_value = rq->wait_value,
        .signal_value = rq->signal_value,
        .as_handle = rq->as_handle,
        .count = rq->count,
        .id = q->next_id,
        .owner = rq->owner,
        .wait_handle = rq->wait_handle,
        .signal_handle = rq->signal_handle,
    };
    memcpy(&q->store[q->ops_held], ops, rq->count * sizeof(*q->store));
    q->ops_held += rq->count;
    q->count++;
    q->next_id = q->next_id + 1u ? q->next_id + 1u : 1u; /* never 0 */
    q->recheck = true;
    *out = (struct gmmu_update_submit_rsp){ .batch = b->id, .queued = q->count };
    return GMMU_STATUS_OK;
}

uint32_t update_queue_cancel(struct update_queue *q, const struct gmmu_update_cancel_req *rq,
                             struct gmmu_update_cancel_rsp *out)
{
    bool all = rq->flags & GMMU_UPDATE_CANCEL_FLAG_ALL;

    if (rq->reserved || (rq->flags & ~(uint32_t)GMMU_UPDATE_CANCEL_FLAG_ALL) ||
        (!all && !rq->batch))
        return GMMU_STATUS_INVALID_ARGUMENT;
    take_owner(q, rq->owner);
    out->cancelled = cancel(q, all, rq->batch);
    out->queued = q->count;
    return GMMU_STATUS_OK;
}

void update_queue_read(const struct update_queue *q, struct gmmu_update_queue_rsp *out)
{
    *out = q->last;
    out->queued = q->count;
    out->ops = q->ops_held;
    out->head = q->count ? q->batch[0].id : 0;
    out->head_in_use = q->count && q->head_in_use;
    out->reserved = 0;
}

/* ------------------------------------------------------------ handlers */

uint32_t update_queue_cmd_submit(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                 uint32_t resp_cap, uint32_t *resp_len)
{
    struct gmmu_update_submit_req rq;
    struct gmmu_update_submit_rsp rs;

    if (req_len < sizeof(rq))
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(&rq, req, sizeof(rq));
    if ((uint64_t)rq.count * sizeof(struct gmmu_update_op) != req_len - sizeof(rq))
        return GMMU_STATUS_MALFORMED_LENGTH;
    uint32_t st = update_queue_submit(ctx, &rq, req + sizeof(rq), &rs);
    if (st != GMMU_STATUS_OK)
        return st;
    return mbox_reply(st, &rs, sizeof(rs), resp, resp_cap, resp_len);
}

uint32_t update_queue_cmd_cancel(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                 uint32_t resp_cap, uint32_t *resp_len)
{
    struct gmmu_update_cancel_req rq;
    struct gmmu_update_cancel_rsp rs;

    if (req_len != sizeof(rq))
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(&rq, req, sizeof(rq));
    uint32_t st = update_queue_cancel(ctx, &rq, &rs);
    if (st != GMMU_STATUS_OK)
        return st;
    return mbox_reply(st, &rs, sizeof(rs), resp, resp_cap, resp_len);
}

uint32_t update_queue_cmd_queue(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                uint32_t resp_cap, uint32_t *resp_len)
{
    struct gmmu_update_queue_rsp rs;

    (void)req;
    if (req_len != 0)
        return GMMU_STATUS_MALFORMED_LENGTH;
    update_queue_read(ctx, &rs);
    return mbox_reply(GMMU_STATUS_OK, &rs, sizeof(rs), resp, resp_cap, resp_len);
}
