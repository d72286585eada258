// SPDX-License-Identifier: Apache-2.0
/*
 * Ordered paging (issue 30, deliverable 3): UPDATE_VA batches that wait for
 * a fence value before they are applied and signal a fence after, as
 * WDDM's UpdateGpuVirtualAddress does, so tile mappings change between two
 * uses in order with the engines' work. UPDATE_SUBMIT queues a batch and
 * completes at once; update_queue_poll, called by the service loop between
 * commands, applies the batches whose turn came.
 *
 * Portable: the batch is applied through struct update_queue_ops (vidmm's
 * UPDATE_VA on the SoC and in the host tests), so the module builds and is
 * tested on the host.
 *
 * The rules (docs/vidmm.md, "Ordered paging"):
 *  - one queue for the device, applied in order: the oldest batch is
 *    applied once its wait fence is at or past the wait value
 *    (fence_reached, modulo 2^64); later batches wait behind it, as paging
 *    operations run in order on WDDM's paging engine;
 *  - memory in use: a batch that would change a range a submitted engine
 *    job still needs (and that job is not ordered after the batch: waiting
 *    for the batch's signal fence or the paging fence) waits for that job;
 *  - applied, a batch signals the paging fence (as UPDATE_VA does) and
 *    raises its signal fence to the signal value; a batch UPDATE_VA refuses
 *    when its turn comes (its address space destroyed meanwhile, an
 *    allocation freed) ends failed with that status, nothing changed, and
 *    still raises its signal fence, so nothing waits forever for it;
 *  - a batch cancelled before it was applied (UPDATE_CANCEL, its wait
 *    fence destroyed, a new owner) is never applied and signals nothing;
 *  - one owner at a time, as engine jobs: a submit or cancel of another
 *    owner cancels every batch of the previous one (that host has left).
 */
#ifndef GMMU_UPDATE_QUEUE_H
#define GMMU_UPDATE_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include <gmmu/mailbox.h>

#include "fence.h"

struct update_queue_ops {
    /* Apply the batch as UPDATE_VA (all or nothing), its memory-in-use
       check ordering jobs that wait for `after` behind it, and signal the
       paging fence on success: GMMU_STATUS_*. BUSY means a job still needs
       a range: nothing changed, ask again later. */
    uint32_t (*apply)(void *ctx, uint32_t as_handle, const struct gmmu_update_op *ops,
                      uint32_t count, uint32_t after);
    /* The batch as UPDATE_VA would find it now, changing nothing
       (GMMU_STATUS_*: the address space, each operation's fields, ranges
       and allocation); a batch it refuses is not queued. May be NULL. */
    uint32_t (*check)(void *ctx, uint32_t as_handle, const struct gmmu_update_op *ops,
                      uint32_t count);
    void *ctx;
};

struct update_batch {
    uint64_t wait_value, signal_value;
    uint32_t as_handle, count, id, owner;
    uint32_t wait_handle, signal_handle; /* 0: none */
};

struct update_queue {
    const struct update_queue_ops *ops;
    struct fences *fences;
    /* UPDATE_QUEUE_OPS operations (may live in DDR behind a write-through
       cache: only this module reads and writes them): batch[0]'s first,
       then batch[1]'s, and so on, packed. */
    struct gmmu_update_op *store;
    struct update_batch batch[GMMU_UPDATE_QUEUE_DEPTH]; /* batch[0] the oldest */
    uint32_t count, ops_held;
    uint32_t next_id, owner;
    uint32_t fence_seen;               /* fences->changes when the head was last looked at */
    bool recheck;                      /* look at the head whatever the fences did */
    bool head_in_use;                  /* the head waits for a job that needs its ranges */
    struct gmmu_update_queue_rsp last; /* the counters and the last batch */
};

/* Empty. store: GMMU_UPDATE_QUEUE_OPS operations, any content. */
void update_queue_init(struct update_queue *q, const struct update_queue_ops *ops,
                       struct fences *fences, struct gmmu_update_op *store);

/* The command bodies (GMMU_STATUS_*); each changes nothing on failure.
   ops: count operations, read once. */
uint32_t update_queue_submit(struct update_queue *q, const struct gmmu_update_submit_req *rq,
                             const void *ops, struct gmmu_update_submit_rsp *out);
uint32_t update_queue_cancel(struct update_queue *q, const struct gmmu_update_cancel_req *rq,
                             struct gmmu_update_cancel_rsp *out);
void update_queue_read(const struct update_queue *q, struct gmmu_update_queue_rsp *out);

static inline bool update_queue_active(const struct update_queue *q)
{
    return q->count != 0;
}

/* Applies the batches whose turn came, oldest first; returns how many
   ended (applied or failed: their fences moved). Looks at the head only
   when a fence changed, something was submitted or cancelled, or the head
   waits for a job (memory in use), so an idle call is a few loads. */
uint32_t update_queue_poll(struct update_queue *q);

/* The handlers of UPDATE_SUBMIT, UPDATE_CANCEL and UPDATE_QUEUE (ctx: the
   struct update_queue). */
uint32_t update_queue_cmd_submit(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                 uint32_t resp_cap, uint32_t *resp_len);
uint32_t update_queue_cmd_cancel(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                 uint32_t resp_cap, uint32_t *resp_len);
uint32_t update_queue_cmd_queue(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                uint32_t resp_cap, uint32_t *resp_len);

#endif /* GMMU_UPDATE_QUEUE_H */
