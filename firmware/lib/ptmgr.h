// SPDX-License-Identifier: Apache-2.0
/*
 * Page-table manager for one GPU address space.
 *
 * Plays VidMm's page-table role for a WDDM 2.0 GpuMmu: it builds and edits
 * the tables of docs/page-tables.md in local VRAM (segment 1) so that the
 * address space translates as the commands say: map (largest page the VA
 * and PA alignment allow: 1 GB, 2 MB, 64 KB via the dual PTE, 4 KB), map
 * to Zero, unmap, protect, copy mappings, query.
 *
 * Guarantees:
 *  - all or nothing: a command first counts the tables it needs and
 *    reserves them from vram_alloc; if VRAM runs out it fails with
 *    PTM_ERR_NO_VRAM and nothing (tables, VRAM accounting) has changed;
 *  - a table that becomes empty is freed, after its entries and the parent
 *    entry have been made invalid and a TLB invalidation covering it has
 *    been requested (ExplicitPageTableInvalidation); every table's count
 *    of valid words (kept in the caller's table_counts) says so without
 *    reading the table;
 *  - one range invalidation per command, or per batch (ptm_batch_begin/
 *    end), never one per page.
 *
 * The manager touches hardware only through struct ptm_hw, so the same
 * code drives the SoC (through the HAL) and a host buffer in unit tests.
 * Its RAM state is this struct: tables are found by walking them in VRAM,
 * and their counts live in memory the caller lends (ptm_config.table_counts).
 * See docs/page-table-manager.md.
 */
#ifndef PTMGR_H
#define PTMGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gmmu/pte.h"
#include "va_alloc.h"
#include "vram_alloc.h"

/* Page attributes (DXGK_PTE ReadOnly, NoExecute, CacheCoherent). */
#define PTM_ATTR_READ_ONLY      (1u << 0)
#define PTM_ATTR_NO_EXECUTE     (1u << 1)
#define PTM_ATTR_CACHE_COHERENT (1u << 2)
#define PTM_ATTR_ALL            (PTM_ATTR_READ_ONLY | PTM_ATTR_NO_EXECUTE | PTM_ATTR_CACHE_COHERENT)

/* Page sizes a mapping may use; a map uses the largest that fits. */
#define PTM_PAGE_4K  (1u << 0)
#define PTM_PAGE_64K (1u << 1)
#define PTM_PAGE_2M  (1u << 2)
#define PTM_PAGE_1G  (1u << 3)
#define PTM_PAGE_ALL (PTM_PAGE_4K | PTM_PAGE_64K | PTM_PAGE_2M | PTM_PAGE_1G)

/* Physical addresses fit the PTE's ADDR field: PA[51:8]. */
#define PTM_PA_BITS 52

/*
 * What the manager needs from the platform. Offsets are bytes from the
 * start of the VRAM segment; words are little-endian 64-bit.
 */
struct ptm_hw {
    uint64_t (*read64)(void *ctx, uint64_t vram_offset);
    /*
     * Optional: n consecutive words into words[], as n read64 calls would
     * read them. Freeing a subtree and the 16 entries of a 64 KB chunk use
     * it: one call, and one staleness check on a paging engine, per run.
     */
    void (*read_run)(void *ctx, uint64_t vram_offset, uint64_t *words, size_t n);
    /*
     * One entry, seen whole by the table walker: a walker never sees a
     * half-written word (on a 32-bit bus: clear VALID first, write the
     * high half, then the low half).
     */
    void (*write64)(void *ctx, uint64_t vram_offset, uint64_t value);
    /* Optional: n consecutive words in ascending order, in one burst. */
    void (*write_run)(void *ctx, uint64_t vram_offset, const uint64_t *words, size_t n);
    /*
     * Optional (a paging engine's run-form WRITE_PTES and FILL): n
     * consecutive words first + i * step (step 0: a fill), in ascending
     * order. With it the manager describes a run of like entries, or a
     * table to clear, in one call whatever its length.
     */
    void (*write_pattern)(void *ctx, uint64_t vram_offset, uint64_t first, uint64_t step, size_t n);
    /*
     * Optional (writes that complete later, e.g. through a paging engine's
     * queue): return once every write and invalidation asked for so far
     * has completed; false if the hardware failed any of them since the
     * last call (the command then returns PTM_ERR_ENGINE). read64 must
     * already see earlier writes without it: that is the binding's job.
     */
    bool (*complete)(void *ctx);
    /*
     * Optional (with complete): whether the hardware has already failed a
     * write of the running command. From then on writes are dropped, and
     * read64 and read_run must return 0 for every word until complete()
     * (the binding's job, as seeing earlier writes is: a word may be stale,
     * e.g. a new table whose clear never landed, and 0 reads as invalid, so
     * the rest of the command never follows it as a table pointer). The
     * manager stops following its block lists, whose links live in VRAM,
     * at that point (their blocks are lost).
     */
    bool (*failed)(void *ctx);
    /*
     * Drop every cached translation and walk-cache entry of asid that
     * overlaps [va_start, va_end), and return when that is done: tables
     * freed by the command are handed back to vram_alloc right after.
     */
    void (*invalidate)(void *ctx, uint32_t asid, uint64_t va_start, uint64_t va_end);
    /*
     * Optional (tests, tracing): a block that held tables goes back to
     * vram_alloc, after the invalidation. Blocks only reserved, or built
     * and never linked, are not reported.
     */
    void (*table_freed)(void *ctx, uint64_t vram_offset, uint64_t bytes);
    /*
     * Optional (with complete): direct(ctx, true) says the writes and the
     * invalidation that follow, up to direct(ctx, false), are a few words
     * of one leaf table (leaf_edit), each written once. The binding may
     * then store them with the CPU and invalidate through registers,
     * provided nothing it queued earlier is still pending (the CPU's
     * stores would otherwise overtake it): write64 and write_run keep
     * their rules either way.
     */
    void (*direct)(void *ctx, bool on);
};

/*
 * 32-bit words of ptm_config.table_counts for a VRAM segment of
 * segment_bytes: 16 bytes per 4 KB page. A 4 KB or 8 KB table's count of
 * valid words is word 0 of its (first) page's four; the 16 bytes of a
 * page holding 64 KB-page tables are those tables' counts, one byte per
 * 256-byte slot.
 */
#define PTM_COUNT_WORDS(segment_bytes) ((size_t)((segment_bytes) >> 12) * 4u)

struct ptm_config {
    const struct ptm_hw *hw;
    void *hw_ctx;
    struct vram_alloc *vram; /* the segment the tables live in */
    /*
     * PTM_COUNT_WORDS(segment) words of CPU memory, shared by every
     * address space of the segment (a table's count is found by its
     * offset). Never read by hardware, so plain stores keep it; no
     * clearing needed (a count is written when its table is made).
     */
    uint32_t *table_counts;
    uint32_t asid;   /* passed to invalidate() */
    unsigned levels; /* 2..4; 0 means GMMU_LEVELS_DEFAULT */
    /* Optional: table reads call this with read_ctx instead of
     * hw->read64 with hw_ctx, so a binding that adapts its own hooks
     * (vidmm's per-address-space trampolines) can hand the platform's read
     * over directly: the walk's reads are most of a small command. */
    uint64_t (*read64)(void *ctx, uint64_t vram_offset);
    void *read_ctx;
};

/* One physically contiguous piece of a mapping's backing memory. */
struct ptm_extent {
    uint64_t pa;
    uint64_t size;
};

enum ptm_page_state {
    PTM_PAGE_INVALID = 0, /* access faults */
    PTM_PAGE_ZERO,        /* reads zero, writes dropped */
    PTM_PAGE_MAPPED,
};

/* What one VA translates to, as the tables say. */
struct ptm_translation {
    enum ptm_page_state state;
    uint64_t pa; /* of the VA itself, not the page; 0 unless MAPPED */
    unsigned segment;
    unsigned attrs;      /* PTM_ATTR_* */
    unsigned page_shift; /* size of the entry that maps it */
};

/* Tables and the VRAM they hold. Blocks waiting for a TLB invalidation
 * (inside a batch) count until they are released. */
struct ptm_usage {
    uint32_t upper_tables;   /* 4 KB tables of levels 2 and up, root included */
    uint32_t l1_tables;      /* 8 KB dual-entry tables */
    uint32_t leaf4k_tables;  /* 4 KB leaf tables */
    uint32_t leaf64k_tables; /* 256 B leaf tables of 64 KB pages */
    uint32_t slab_pages;     /* 4 KB blocks holding the 256 B tables */
    uint32_t tables;         /* sum of the four table counts */
    uint64_t table_bytes;    /* their sizes (a 64 KB-page table is 256 B) */
    uint64_t vram_bytes;     /* VRAM taken from vram_alloc, slabs whole */
    uint32_t pending_free;   /* blocks waiting for the batch's invalidation */
    uint64_t lost_bytes;     /* blocks given up after an engine error (in vram_bytes) */
};

/* A VRAM-threaded list of table blocks (see ptmgr.c). */
struct ptm_block_list {
    uint64_t head;
    uint32_t count;
};

/* One address space's manager. Treat the fields as private. */
struct ptm {
    const struct ptm_hw *hw;
    void *hw_ctx;
    /* Table reads: hw->read64 with hw_ctx unless the config gave its own. */
    uint64_t (*read64)(void *ctx, uint64_t vram_offset);
    void *read_ctx;
    struct vram_alloc *vram;
    uint32_t asid;
    uint8_t levels;
    uint8_t batch_depth; /* ptm_batch_begin nesting (at most 255) */
    /* Valid words in the root table: destroying a space with none reads
     * nothing. */
    uint16_t root_valid;
    bool inv_pending;
    uint64_t root; /* VRAM offset of the root table */
    /* A 2 MB region whose path is all tables down to a 4 KB-page table,
     * with no 64 KB-page table: 1 + (VA >> 21) (0: none) and that table,
     * as plan_command found it or a walk left it. Only leaf edits ran
     * since, and they change no table pointer, so the next leaf edit there
     * reads no upper level. Every other walk drops it first. */
    uint64_t leaf_key, leaf_table;
    /* Reserved for the running command, and freed awaiting invalidation;
     * [0] 4 KB blocks, [1] 8 KB blocks. */
    struct ptm_block_list reserved[2];
    struct ptm_block_list deferred[2];
    uint64_t inv_start, inv_end;
    uint32_t upper_tables, l1_tables, leaf4k_tables, leaf64k_tables;
    /* Blocks of the lists given up after an engine error: still taken
       from vram_alloc, never to be found again (see ptm_hw.failed). */
    uint64_t lost_bytes;
    uint32_t slab_pages;
    uint32_t *counts; /* ptm_config.table_counts */
    /* Self-checks of the counting pass; they stay 0 (tests assert it). */
    uint32_t count_short;  /* apply needed a block not reserved */
    uint32_t count_excess; /* reserved blocks left over */
};

/* Allocate and clear the root table. PTM_ERR_NO_VRAM if it does not fit. */
enum ptm_status ptm_init(struct ptm *pm, const struct ptm_config *cfg);

/* Unmap everything, invalidate, and give every table back to vram_alloc. */
void ptm_destroy(struct ptm *pm);

/* After an engine error: the space's tables cannot be trusted (some
 * writes were dropped), so nothing of them is read or freed; returns the
 * VRAM they hold (ptm_usage's vram_bytes), lost. The caller has made the
 * MMU forget the space first. */
uint64_t ptm_abandon(struct ptm *pm);

/* VRAM offset of the root table, for the MMU's address-space table. */
uint64_t ptm_root(const struct ptm *pm);

/* VA bits of this configuration: 12 + 9 * levels. */
unsigned ptm_va_bits(const struct ptm *pm);

/*
 * Map [va, va + size) to [pa, pa + size) of segment with attrs, using the
 * largest pages in `pages` that both alignments allow. va, pa and size are
 * multiples of the smallest page in `pages`. Replaces what was there.
 */
enum ptm_status ptm_map(struct ptm *pm, uint64_t va, uint64_t pa, uint64_t size, unsigned segment,
                        unsigned attrs, unsigned pages);

/* The same for memory made of several contiguous pieces, mapped back to
 * back from va in array order: one command, all or nothing. */
enum ptm_status ptm_map_extents(struct ptm *pm, uint64_t va, const struct ptm_extent *extents,
                                size_t count, unsigned segment, unsigned attrs, unsigned pages);

/* Zero entries (tiled resources): reads return 0, writes are dropped. */
enum ptm_status ptm_map_zero(struct ptm *pm, uint64_t va, uint64_t size, unsigned attrs);

/* Make the range invalid. Unmapping what is not mapped is not an error. */
enum ptm_status ptm_unmap(struct ptm *pm, uint64_t va, uint64_t size);

/* New attributes for every mapped or zero page of the range; invalid pages
 * stay invalid. Large pages cut by the range are split. */
enum ptm_status ptm_protect(struct ptm *pm, uint64_t va, uint64_t size, unsigned attrs);

/* Make [dst, dst + size) translate as [src, src + size) does now (pages,
 * zero and invalid alike). The ranges must not overlap. */
enum ptm_status ptm_copy(struct ptm *pm, uint64_t src, uint64_t dst, uint64_t size);

/* Walk the tables for va. PTM_ERR_RANGE if va is outside the VA bits. */
enum ptm_status ptm_query(const struct ptm *pm, uint64_t va, struct ptm_translation *out);

/*
 * Gather the TLB invalidations of several commands into one, issued by the
 * outermost ptm_batch_end(). Each command stays all or nothing on its own.
 * Freed tables are held until then, so VRAM may run out sooner.
 */
void ptm_batch_begin(struct ptm *pm);
/* PTM_ERR_ENGINE when the hardware failed a write of the batch. */
enum ptm_status ptm_batch_end(struct ptm *pm);

void ptm_usage(const struct ptm *pm, struct ptm_usage *out);

/* The count of valid words the manager keeps for the table at VRAM offset
 * table (a 256-byte 64 KB-page table when leaf64k); the root's is
 * root_valid. For tests: it must equal the valid words in the table. */
uint32_t ptm_valid_count(const struct ptm *pm, uint64_t table, bool leaf64k);

#endif
