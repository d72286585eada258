// SPDX-License-Identifier: Apache-2.0
/*
 * struct ptm_hw over the paging engine's queue: the page-table manager's
 * writes become packets (a literal or run-form WRITE_PTES, a FILL), its
 * invalidation a FLUSH_TLB behind them in the same queue, and its
 * completion a FENCE it waits for (docs/page-table-manager.md, "On the
 * paging engine").
 *
 * Table reads stay CPU reads (the platform's read64, e.g. through the
 * data cache). The engine writes DDR behind the CPU's back, so this module
 * keeps its own record of the VRAM ranges queued since the CPU last synced:
 * a read inside one first waits for the engine and drops the CPU's cached
 * lines (cache_drop); a read elsewhere costs nothing extra.
 */
#ifndef PTM_PAGING_H
#define PTM_PAGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "paging_queue.h"
#include "ptmgr.h"

/* Ranges remembered before every read waits (then the record restarts). */
#define PTM_PAGING_RANGES 8u

struct ptm_paging_stats {
    uint32_t syncs;         /* reads that waited for the engine */
    uint32_t fences;        /* completions waited for */
    uint32_t flushes;       /* FLUSH_TLB packets */
    uint32_t failures;      /* completions that found an engine error */
    uint32_t entries;       /* 64-bit words the packets write */
    uint32_t last_err_code; /* PAGING_ERR of the last failure */
    uint32_t wait_cycles;   /* spent in syncs and fences (with a clock) */
};

struct ptm_paging {
    struct pq *q;
    /* The CPU's read of a VRAM word, and (optional) dropping every cached
     * copy of DDR. */
    uint64_t (*read64)(void *ctx, uint64_t vram_offset);
    void (*cache_drop)(void *ctx);
    /* Optional: a free-running cycle count, to time the waits. */
    uint32_t (*now)(void);
    void *ctx;
    uint64_t va_limit; /* an invalidation reaching it flushes the ASID */
    /* VRAM the engine may have written since the last sync. */
    uint32_t n_ranges;
    bool all;
    uint64_t lo[PTM_PAGING_RANGES], hi[PTM_PAGING_RANGES];
    bool failed; /* an error since the last complete */
    struct ptm_paging_stats stats;
};

void ptm_paging_init(struct ptm_paging *p, struct pq *q,
                     uint64_t (*read64)(void *ctx, uint64_t vram_offset),
                     void (*cache_drop)(void *ctx), void *ctx, uint64_t va_limit);

/* Nothing queued since the last wait: any read may go straight to the
 * platform's read64 (the hot path of a binding's read hook). */
static inline bool ptm_paging_clean(const struct ptm_paging *p)
{
    return !p->n_ranges && !p->all;
}

/* Before the CPU reads [lo, hi) of VRAM itself: waits for the engine and
 * drops the cache if the record says the engine may have written there
 * (a binding's read_run hook, which then reads the words directly). */
void ptm_paging_read_range(struct ptm_paging *p, uint64_t lo, uint64_t hi);

/* The struct ptm_hw hooks; ctx is the struct ptm_paging. */
uint64_t ptm_paging_read64(void *ctx, uint64_t vram_offset);
void ptm_paging_read_run(void *ctx, uint64_t vram_offset, uint64_t *words, size_t n);
void ptm_paging_write64(void *ctx, uint64_t vram_offset, uint64_t value);
void ptm_paging_write_run(void *ctx, uint64_t vram_offset, const uint64_t *words, size_t n);
void ptm_paging_write_pattern(void *ctx, uint64_t vram_offset, uint64_t first, uint64_t step,
                              size_t n);
/* Queues the FLUSH_TLB; complete waits for it. */
void ptm_paging_flush(void *ctx, uint32_t asid, uint64_t va_start, uint64_t va_end);
bool ptm_paging_complete(void *ctx);
/* Whether a packet of the running command failed (ptm_hw.failed). */
static inline bool ptm_paging_failed(void *ctx)
{
    return ((const struct ptm_paging *)ctx)->failed;
}
/* Waits for everything queued (a FENCE), keeping a failure for complete:
 * for a platform's invalidate hook, which must return once it is done. */
void ptm_paging_wait(struct ptm_paging *p);

/* The hooks above as one table (table_freed unset). */
extern const struct ptm_hw ptm_paging_hw;

#endif
