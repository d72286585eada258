// SPDX-License-Identifier: Apache-2.0
/*
 * Monitored fences (WDDM's monitored fence objects): 64-bit values that
 * only move forward, the device's paging fence among them, and the waits a
 * host armed to be told (EVT_FENCE) when a fence reaches a value.
 *
 * Portable: the module keeps its state in struct fences and reaches the
 * outside through struct fence_hw only (publish a value where the host can
 * read it; post an event), so it builds and is tested on the host.
 *
 * Values compare modulo 2^64: a is at or past b when (int64_t)(a - b) >= 0.
 * A value may therefore wrap through 0 and still move forward; a signal
 * must move it forward by less than 2^63.
 *
 * Ownership: the slots are this module's; FENCES fences (slot 0 the paging
 * fence, handle FENCE_PAGING) and FENCE_WAITS armed waits. Waits belong to
 * one owner at a time (the host's token): a FENCE_WAIT of another owner
 * drops the waits of the previous one, whose host has left (one host drives
 * the device at a time; gmmu_open takes it over). FENCE_DESTROY drops the
 * fence's waits. So no wait outlives its host or its fence.
 */
#ifndef GMMU_FENCE_H
#define GMMU_FENCE_H

#include <stdbool.h>
#include <stdint.h>

#include <gmmu/mailbox.h>

#include "mbox_service.h"

struct fence_hw {
    /* The fence in slot `slot` has a new value: write its fence_record
       where the host reads it (may be NULL: no fence page). */
    void (*publish)(void *ctx, uint32_t slot, uint64_t value);
    /* Post one EVT_FENCE (never waits; the event ring drops when full). */
    void (*notify)(void *ctx, const struct gmmu_fence_evt *evt);
    /* DDR offset of slot's record for the host (fence_info.offset), or
       UINT64_MAX without a fence page. */
    uint64_t (*offset)(void *ctx, uint32_t slot);
    /* The device's cycle counter (may be NULL: 0), to stamp each value
       change (fence_changed_at). */
    uint32_t (*now)(void *ctx);
    void *ctx;
};

struct fence_wait {
    uint64_t value;
    uint32_t handle; /* 0: free */
};

struct fences {
    const struct fence_hw *hw;
    uint64_t value[GMMU_FENCES];
    uint8_t gen[GMMU_FENCES]; /* bumped by FENCE_DESTROY: old handles go stale */
    bool used[GMMU_FENCES];
    uint32_t owner; /* owner of the armed waits */
    /* Bumped by every value change and destroy: a reader of values (the
       engine queues' waits) rechecks only when it moved. */
    uint32_t changes;
    uint32_t changed_at[GMMU_FENCES]; /* hw->now at each slot's last value change */
    struct fence_wait waits[GMMU_FENCE_WAITS];
    uint32_t armed; /* waits[] with a handle */
};

/* Handle of slot s with generation g: 'F' << 24 | g << 16 | (s + 1). */
#define FENCE_HANDLE_TAG 0x46000000u

/* The paging fence in slot 0 at value 0 (published), no other fence, no
   wait. hw may be NULL (nothing published or posted). */
void fence_init(struct fences *f, const struct fence_hw *hw);

/* True when a is at or past b, modulo 2^64. */
static inline bool fence_reached(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b) >= 0;
}

/* Advances the paging fence by one, fires its waits; returns the value. */
uint64_t fence_paging_signal(struct fences *f);
uint64_t fence_paging_value(const struct fences *f);

/* The command bodies (GMMU_STATUS_*); each changes nothing on failure. */
uint32_t fence_create(struct fences *f, uint64_t value, struct gmmu_fence_info *out);
uint32_t fence_destroy(struct fences *f, uint32_t handle);
uint32_t fence_signal(struct fences *f, uint32_t handle, uint64_t value,
                      struct gmmu_fence_info *out);
uint32_t fence_read(const struct fences *f, uint32_t handle, struct gmmu_fence_info *out);
uint32_t fence_wait(struct fences *f, const struct gmmu_fence_wait_req *req,
                    struct gmmu_fence_info *out);

/* Raises a fence to value, never lowers it: a fence at or past it already
   (a host signalled beyond it), or destroyed meanwhile, is left alone.
   How an engine job or a queued batch signals when it ends. */
void fence_raise(struct fences *f, uint32_t handle, uint64_t value);

/* The value of the live fence handle names, or false (no such fence). */
bool fence_value_of(const struct fences *f, uint32_t handle, uint64_t *value);

/* The cycle (fence_hw.now) of the last value change of the live fence
   handle names, or false (no such fence). */
bool fence_changed_at(const struct fences *f, uint32_t handle, uint32_t *cycle);
/* fence_hw.now, or 0 without it. */
uint32_t fence_now(const struct fences *f);

/* Armed waits now. */
unsigned fence_waits_armed(const struct fences *f);

/* FENCE_CREATE .. FENCE_WAIT. ctx: the struct fences. */
extern const struct mbox_command_set fence_commands;

#endif /* GMMU_FENCE_H */
