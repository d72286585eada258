// SPDX-License-Identifier: Apache-2.0
/*
 * VidMm: the firmware's video memory manager, the command layer of the
 * mailbox's ALLOC..GET_VRAM opcodes (include/defs/mailbox.toml).
 *
 * It owns the objects a WDDM 2.0 GpuMmu VidMm keeps for its clients:
 *  - allocations (physical memory objects, DXGKARGCB_CREATE_PHYSICAL_
 *    MEMORY_OBJECT): VRAM carved into naturally aligned blocks, one
 *    contiguous VRAM block with address constraints, or a host buffer
 *    (system segment);
 *  - address spaces: a page-table manager (ptmgr) and a VA allocator
 *    (va_alloc) each, bound to one of the MMU's hardware address-space ids
 *    while they hold one (ids are recycled least recently used first);
 *  - mappings of allocations into address spaces, and which allocations the
 *    tiles of each reserved range point at, so that freeing an allocation
 *    unmaps it everywhere first.
 *
 * Every command is all or nothing: on any failure it returns a specific
 * GMMU_STATUS_* and the state (objects, tables, VRAM, hardware) is as before.
 *
 * Portable C11 without libc allocation or hardware access: the state lives
 * in struct vidmm (the caller's storage, sized by the #defines below) plus
 * the tables (struct vidmm_tables) and VA nodes the caller lends; VRAM and
 * the MMU are reached through struct vidmm_hw. See docs/vidmm.md.
 */
#ifndef VIDMM_H
#define VIDMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aperture_alloc.h"
#include "backing_pool.h"
#include "gmmu/engine_regs.h"
#include "gmmu/mailbox.h"
#include "gmmu/mmu_regs.h"
#include "ptmgr.h"
#include "va_alloc.h"
#include "vram_alloc.h"

/*
 * Limits. The tables they size (struct vidmm_tables, about 27 KB on rv32)
 * live in DDR on the SoC, struct vidmm itself (under 1 KB) in its 128 KiB
 * of RAM (docs/vidmm.md). Each may be overridden at build time (the fuzzer
 * shrinks them).
 */
#ifndef VIDMM_MAX_AS
#define VIDMM_MAX_AS 72 /* live address spaces (> the 64 hardware ids) */
#endif
#ifndef VIDMM_MAX_ALLOCS
#define VIDMM_MAX_ALLOCS 160 /* live allocations */
#endif
#ifndef VIDMM_MAX_EXTENTS
#define VIDMM_MAX_EXTENTS 256 /* contiguous VRAM pieces, all allocations */
#endif
#ifndef VIDMM_ALLOC_EXTENTS
#define VIDMM_ALLOC_EXTENTS 32 /* pieces of one allocation */
#endif
#ifndef VIDMM_MAX_RECORDS
#define VIDMM_MAX_RECORDS 192 /* MAP_VA mappings plus tile references */
#endif
#ifndef VIDMM_APERTURE_PAGES_MAX
#define VIDMM_APERTURE_PAGES_MAX 8192 /* the aperture segment: 32 MiB of offsets */
#endif
#define VIDMM_HW_ASIDS_MAX GMMU_ASIDS

/* The largest UPDATE_VA batch that fits one message. */
#define VIDMM_UPDATE_MAX_OPS \
    ((GMMU_MSG_MAX_BYTES - GMMU_MSG_HDR_BYTES - GMMU_UPDATE_REQ_BYTES) / GMMU_UPDATE_OP_BYTES)

/* Granule of reserved ranges and UPDATE_VA operations: the 64 KB tile. */
#define VIDMM_TILE_SIZE (UINT64_C(1) << GMMU_PAGE_SHIFT_64K)

/*
 * What VidMm needs from the platform. VRAM offsets are bytes from the start
 * of the segment; `asid` is a hardware address-space id (< hw_asids).
 */
struct vidmm_hw {
    /* Page-table words, with ptm_hw's rules (write64 seen whole). */
    uint64_t (*read64)(void *ctx, uint64_t vram_offset);
    void (*read_run)(void *ctx, uint64_t vram_offset, uint64_t *words,
                     size_t n); /* optional: ptm_hw's */
    void (*write64)(void *ctx, uint64_t vram_offset, uint64_t value);
    void (*write_run)(void *ctx, uint64_t vram_offset, const uint64_t *words,
                      size_t n); /* optional */
    /* Optional, both or neither (a paging engine): ptm_hw's write_pattern
     * and complete. */
    void (*write_pattern)(void *ctx, uint64_t vram_offset, uint64_t first, uint64_t step, size_t n);
    bool (*complete)(void *ctx);
    /* Optional, with complete: ptm_hw's failed (a write of the running
       command was dropped). */
    bool (*failed)(void *ctx);
    /* Optional, with complete: ptm_hw's direct (a few words of one leaf
       table follow). */
    void (*direct)(void *ctx, bool on);
    /*
     * Drop every translation of asid overlapping [va_start, va_end) (end
     * exclusive; [0, UINT64_MAX) means the whole id) and return when done.
     */
    void (*invalidate)(void *ctx, uint32_t asid, uint64_t va_start, uint64_t va_end);
    /* Program entry asid of the MMU's address-space table. */
    void (*set_as)(void *ctx, uint32_t asid, uint64_t root, bool valid);
    /* Optional (tests): a page-table block went back to vram_alloc. */
    void (*table_freed)(void *ctx, uint64_t vram_offset, uint64_t bytes);
    /*
     * Optional: a device engine is running under hardware id asid now
     * (ENGINE_START). Such an id is never taken from its address space,
     * and that address space cannot be destroyed (BUSY) until the engine
     * stops: its translations would otherwise go through another space's
     * tables. The binding answers from the hardware, so nothing is left
     * pinned when a host goes away.
     */
    bool (*asid_busy)(void *ctx, uint32_t asid);
    /*
     * Optional: a device engine runs in physical mode (no translation)
     * over part of the VRAM range [offset, offset + bytes) now. FREE of a
     * CONTIGUOUS allocation under such a run is BUSY: the engine would go
     * on writing the block after it is handed out again. Answered from
     * the hardware, like asid_busy.
     */
    bool (*phys_busy)(void *ctx, uint64_t offset, uint64_t bytes);
    /*
     * Optional: memory in use (docs/vidmm.md, "Memory in use"). Whether a
     * submitted engine job of address space as_handle (hardware id asid,
     * or VIDMM_NO_ASID) still needs part of [va, va + bytes): it runs, or
     * it waits and is not ordered after the change asking (it does not
     * wait for a value the paging fence, or the fence `after`, has not
     * reached; after is 0 but while a queued batch applies). UNMAP_VA,
     * UPDATE_VA and FREE that would change such a translation are BUSY,
     * and eviction passes such an allocation over.
     */
    bool (*va_in_use)(void *ctx, uint32_t as_handle, uint32_t asid, uint64_t va, uint64_t bytes,
                      uint32_t after);
    /*
     * Optional: whether the device can write host (Segment 0) memory at
     * sys_addr, checked by writing its 8 bytes (ADD_BACKING, at each end
     * of a range). NULL: no check (host tests). A SoC without a
     * system-memory path answers false, so it never gets a backing pool.
     */
    bool (*sys_reachable)(void *ctx, uint64_t sys_addr);
    /*
     * Optional: copy `bytes` (a 4 KB multiple) from (src_seg, src) to
     * (dst_seg, dst), segments GMMU_SEGMENT_SYSTEM or GMMU_SEGMENT_VRAM
     * (a paging engine's COPY). Done before later page-table writes take
     * effect and before complete() returns (or when it returns, without
     * complete()). False on a device error. Moving an allocation needs it:
     * without it nothing is evicted.
     */
    bool (*copy)(void *ctx, unsigned dst_seg, uint64_t dst, unsigned src_seg, uint64_t src,
                 uint64_t bytes);
    /*
     * Optional, both or neither: the aperture segment's table
     * (docs/aperture.md). aperture_write sets entry `page` (seen whole
     * when it returns); aperture_invalidate makes every translator drop
     * what it cached of the table, and returns when that is done.
     */
    void (*aperture_write)(void *ctx, uint32_t page, uint64_t entry);
    void (*aperture_invalidate)(void *ctx);
};

struct vidmm_config {
    const struct vidmm_hw *hw;
    void *hw_ctx;
    struct vram_alloc *vram; /* the VRAM segment, initialised */
    /* PTM_COUNT_WORDS(segment) words (may live in DDR): the page tables'
     * valid-entry counts, shared by every address space. */
    uint32_t *table_counts;
    /* The object tables, any content (vidmm_init clears them). Like the
       VA nodes they may live in DDR behind a write-through cache: only
       vidmm reads and writes them, with CPU loads and stores. */
    struct vidmm_tables *tables;
    /* VIDMM_MAX_AS * va_nodes_per_as nodes (may live in DDR). */
    struct va_node *va_nodes;
    uint32_t va_nodes_per_as;
    uint32_t hw_asids; /* 1..VIDMM_HW_ASIDS_MAX */
    /* The aperture segment's pages (0..VIDMM_APERTURE_PAGES_MAX; 0, or no
       aperture hooks: no aperture, its table empty). */
    uint32_t aperture_pages;
};

/* ------------------------------------------------------------ state */

/* Where an allocation's pages are (vidmm_alloc.where). */
enum vidmm_where {
    VIDMM_AT_VRAM = 0, /* pieces are VRAM pages */
    VIDMM_AT_POOL,     /* pieces are pages of the backing pool (see below) */
    VIDMM_AT_HOST,     /* SYSTEM: the host buffer at sys_addr, or (ALLOC_PAGES)
                          pieces that are runs of host pages */
};

/* One physical memory object. */
struct vidmm_alloc {
    uint64_t size;         /* bytes */
    uint64_t sys_addr;     /* SYSTEM: host address of the buffer */
    uint32_t last_use;     /* LRU clock: ALLOC, MAKE_RESIDENT, EVICT */
    uint16_t gen;          /* handle generation */
    uint16_t first_extent; /* VRAM or pool: list through vidmm.extents */
    uint16_t extents;
    uint16_t residency; /* MAKE_RESIDENT minus EVICT */
    uint8_t flags;      /* GMMU_ALLOC_FLAG_* */
    uint8_t where;      /* enum vidmm_where */
    bool live;
    uint32_t apt_page; /* in the aperture: its first aperture page + 1; 0: not */
};

/*
 * A run of pages backing part of an allocation: whole vram_alloc blocks in
 * VRAM, or 64 KB units of the backing pool. Pool pages are numbered across
 * the pool's ranges in the order they were added (pool page p of range i
 * is range i's address + (p - pages of the ranges before i) * 4 KB); a
 * piece never crosses from one range into the next.
 */
struct vidmm_extent {
    uint32_t page; /* first 4 KB page in the segment */
    uint32_t pages;
    uint16_t next;
    uint16_t page_hi; /* bits 32.. of the page: host pages lie anywhere
                         below the 52-bit PA (in the padding: 12 bytes) */
};

/* The runs of a list of host pages are pieces too, at most this many. */
#define VIDMM_PAGE_RUNS \
    (VIDMM_ALLOC_EXTENTS < GMMU_ALLOC_PAGES_RUNS ? VIDMM_ALLOC_EXTENTS : GMMU_ALLOC_PAGES_RUNS)

/*
 * An ALLOC_PAGES list being staged (one at a time: one host drives the
 * device). It holds only the runs the pages form so far, no allocation
 * slot, piece or memory, so a list its host never finished costs nothing
 * but this record; the next BEGIN drops it.
 */
struct vidmm_stage {
    uint64_t size;   /* bytes the list must cover */
    uint64_t staged; /* pages received */
    uint64_t run_pa[VIDMM_PAGE_RUNS];
    uint32_t run_pages[VIDMM_PAGE_RUNS];
    uint32_t runs;
    uint32_t owner;
    bool active;
    bool physical; /* ALLOC_PAGES_FLAG_PHYSICAL: into the aperture at COMMIT */
};

struct vidmm_as {
    struct ptm pm;
    struct va_space vs;
    uint32_t last_use; /* LRU clock of the last command on it */
    uint16_t gen;
    uint8_t hw_asid; /* VIDMM_NO_ASID while it holds none */
    bool live;
    /* An engine error hit a command on it: off the MMU for good, its
       tables given up (see vidmm.md, "Engine errors"). */
    bool broken;
};

#define VIDMM_NO_ASID 0xFFu

enum vidmm_record_kind {
    VIDMM_REC_FREE = 0,
    VIDMM_REC_MAPPING, /* a MAP_VA mapping: [va, va + size) */
    VIDMM_REC_TILES,   /* tiles of a reserved range may map the
                          allocation; [va, va + size) is their hull */
};

/* Ties an allocation to VA of an address space. */
struct vidmm_record {
    uint64_t va;
    uint64_t size;
    uint16_t alloc;        /* allocation slot */
    uint8_t as;            /* address-space slot */
    uint8_t kind;          /* enum vidmm_record_kind */
    uint32_t offset_pages; /* MAPPING: offset in the allocation / 4 KB */
};

/*
 * The large tables (27,392 bytes on rv32 at the default limits), lent by
 * the caller (vidmm_config.tables) so that the SoC can keep them out of its
 * on-chip RAM; struct vidmm points into them. A command touches a few
 * entries (its allocation, address space, pieces and records) and scans
 * some, so in DDR it pays a few cache-line refills more than in RAM.
 */
struct vidmm_tables {
    struct vidmm_alloc allocs[VIDMM_MAX_ALLOCS];
    struct vidmm_extent extents[VIDMM_MAX_EXTENTS];
    struct vidmm_as as[VIDMM_MAX_AS];
    struct vidmm_record records[VIDMM_MAX_RECORDS];
    /* MAPPING records: attributes | page sizes << 3, to map them again
       after a move. */
    uint8_t rec_map[VIDMM_MAX_RECORDS];
    struct vidmm_stage stage;                                     /* ALLOC_PAGES */
    uint32_t aperture_bits[(VIDMM_APERTURE_PAGES_MAX + 31) / 32]; /* aperture_alloc's */
};

/* Counters for tests and the docs' claims; never reset. */
struct vidmm_counters {
    uint32_t asid_binds;          /* address spaces given a hardware id */
    uint32_t asid_evictions;      /* ... by taking it from another */
    uint32_t batch_reservations;  /* UPDATE_VA headroom checks by taking blocks */
    uint32_t tile_scans;          /* 64 KB steps of FREE's tile search */
    uint32_t moves_in, moves_out; /* allocations moved into / out of VRAM */
    uint64_t bytes_moved;         /* by those moves */
    uint32_t undo_refused;        /* moves back of a failed command refused */
    uint32_t pool_moves;          /* moves between ranges of the pool */
    uint32_t as_broken;           /* address spaces given up after an engine error */
    uint32_t in_use_refusals;     /* UNMAP_VA, UPDATE_VA, FREE refused: a job needs the range */
};

/* The device's paging fence, when a fence module owns it (fence.h on the
   SoC): signal advances it by one and returns the value. */
struct vidmm_paging_fence {
    uint64_t (*signal)(void *ctx);
    uint64_t (*value)(void *ctx);
    void *ctx;
};

struct vidmm {
    const struct vidmm_hw *hw;
    void *hw_ctx;
    const struct ptm_hw *ptm_hw; /* what the managers call: see vidmm.c */
    struct vram_alloc *vram;
    uint32_t *table_counts;
    struct va_node *va_nodes;
    uint32_t va_nodes_per_as;
    uint32_t hw_asids;
    uint32_t clock; /* LRU clock */
    uint32_t live_allocs, live_as;
    struct backing_pool backing;    /* ADD_BACKING's host ranges */
    struct aperture_alloc aperture; /* the aperture segment's offsets */
    /* Pool offsets pool_carve may use: [pool_lo, pool_hi) without
       [skip_lo, skip_hi). All of it but while REMOVE_BACKING empties a
       range (skipped) or puts allocations back into it (the window). */
    uint64_t pool_lo, pool_hi, skip_lo, skip_hi;
    uint64_t alloc_vram_bytes; /* VRAM held by allocations */
    uint64_t
        lost_bytes; /* table VRAM given up after engine errors (GET_VRAM counts it as tables) */
    /* The fence a change being applied signals besides the paging fence
       (va_in_use's `after`); 0 but while a queued batch applies. */
    uint32_t order_after;
    uint64_t fence;                          /* paging fence without `paging` (host tests) */
    const struct vidmm_paging_fence *paging; /* NULL: `fence` counts */
    uint16_t free_extent;                    /* free list through extents[].next */
    uint32_t free_extents;
    struct vidmm_counters counters;
    /* The arrays of the caller's struct vidmm_tables (what stays here
       is small: under 1 KB on rv32). */
    struct vidmm_alloc *allocs;
    struct vidmm_extent *extents;
    struct vidmm_as *as;
    struct vidmm_record *records;
    uint8_t *rec_map;
    struct vidmm_stage *stage;
    uint8_t asid_owner[VIDMM_HW_ASIDS_MAX]; /* AS slot, or VIDMM_NO_OWNER */
    uint8_t as_records[VIDMM_MAX_AS];       /* live records of each AS slot */
    /* Live records of each allocation slot: the residency checks and FREE
       scan the records (in DDR on the SoC) only while some are left. */
    uint8_t alloc_records[VIDMM_MAX_ALLOCS];
    /* Scratch of one command: the pieces handed to ptm_map_extents. */
    struct ptm_extent map_extents[VIDMM_ALLOC_EXTENTS];
};

#define VIDMM_NO_OWNER 0xFFu

/*
 * Takes over cfg->vram (already initialised, with whatever the platform
 * keeps for itself reserved), the tables and the VA nodes. Touches no
 * hardware: an address space programs its hardware id when it first gets
 * one.
 * Returns GMMU_STATUS_OK or GMMU_STATUS_INVALID_ARGUMENT.
 */
uint32_t vidmm_init(struct vidmm *vm, const struct vidmm_config *cfg);

/* ------------------------------------------------------------ commands */
/* Each returns a GMMU_STATUS_* and writes its response only on OK. */

uint32_t vidmm_alloc(struct vidmm *vm, const struct gmmu_alloc_req *req,
                     struct gmmu_alloc_rsp *rsp);
/*
 * ALLOC_PAGES: one message of a list of host pages, `pages` being
 * req->count u64 addresses (any alignment). Answers the allocation on
 * COMMIT; before it, rsp->handle is 0 and rsp says what is staged (runs,
 * bytes, first page). A refused message of the list's owner drops the
 * list: nothing is allocated. See docs/vidmm.md, "ALLOC_PAGES".
 */
uint32_t vidmm_alloc_pages(struct vidmm *vm, const struct gmmu_alloc_pages_req *req,
                           const void *pages, struct gmmu_alloc_rsp *rsp);
uint32_t vidmm_free(struct vidmm *vm, const struct gmmu_handle_req *req);
uint32_t vidmm_create_as(struct vidmm *vm, struct gmmu_as_rsp *rsp);
uint32_t vidmm_destroy_as(struct vidmm *vm, const struct gmmu_handle_req *req);
uint32_t vidmm_map_va(struct vidmm *vm, const struct gmmu_map_req *req, struct gmmu_va_rsp *rsp);
uint32_t vidmm_unmap_va(struct vidmm *vm, const struct gmmu_range_req *req);
uint32_t vidmm_reserve_va(struct vidmm *vm, const struct gmmu_reserve_req *req,
                          struct gmmu_va_rsp *rsp);
/*
 * ops: req->count struct gmmu_update_op laid out back to back, any
 * alignment (they are copied out one at a time).
 */
uint32_t vidmm_update_va(struct vidmm *vm, const struct gmmu_update_req *req, const void *ops);
/* UPDATE_VA for a queued batch (update_queue): engine jobs waiting for a
   value of the fence `after` (the batch's signal fence) not reached yet
   are ordered after it and do not hold its ranges (memory in use). */
uint32_t vidmm_update_va_after(struct vidmm *vm, const struct gmmu_update_req *req, const void *ops,
                               uint32_t after);
/* What UPDATE_VA would answer now for each operation's fields, ranges and
   allocation, changing nothing (UPDATE_SUBMIT checks a batch with it). */
uint32_t vidmm_update_va_check(struct vidmm *vm, const struct gmmu_update_req *req,
                               const void *ops);
uint32_t vidmm_query_va(struct vidmm *vm, const struct gmmu_query_req *req,
                        struct gmmu_query_rsp *rsp);
void vidmm_get_vram(const struct vidmm *vm, struct gmmu_vram_rsp *rsp);

/* The paging fence: each move of an allocation and each successful MAP_VA,
   UNMAP_VA, UPDATE_VA and MAKE_RESIDENT advances it by one (the work is
   done when the value is returned: commands are synchronous). */
void vidmm_set_paging_fence(struct vidmm *vm, const struct vidmm_paging_fence *paging);
uint64_t vidmm_paging_signal(struct vidmm *vm);
uint64_t vidmm_paging_value(const struct vidmm *vm);
/* ADD_BACKING: a host range for the backing pool. All or nothing. */
uint32_t vidmm_add_backing(struct vidmm *vm, const struct gmmu_backing_req *req);

/* REMOVE_BACKING: a range (or every unreachable one) out of the pool, its
   allocations moved out first or freed if their bytes are gone. All or
   nothing (docs/vidmm.md). */
uint32_t vidmm_remove_backing(struct vidmm *vm, const struct gmmu_backing_remove_req *req,
                              struct gmmu_backing_remove_rsp *rsp);

/*
 * MAKE_RESIDENT and EVICT over `count` handles (u32, any alignment).
 * Each is all or nothing over its list: the counts change only on OK (a
 * refused MAKE_RESIDENT may have moved allocations, never their VAs or
 * contents). See docs/vidmm.md, "Residency".
 */
uint32_t vidmm_make_resident(struct vidmm *vm, const struct gmmu_residency_req *req,
                             const void *handles, struct gmmu_residency_rsp *rsp);
uint32_t vidmm_evict(struct vidmm *vm, const struct gmmu_residency_req *req, const void *handles);
/* QUERY_ALLOC: where the allocation lives now. */
uint32_t vidmm_query_alloc(struct vidmm *vm, const struct gmmu_handle_req *req,
                           struct gmmu_alloc_info *rsp);

/* Gives the address space a hardware id (recycling one if need be) so an
 * engine can run in it now, and marks it most recently used. */
uint32_t vidmm_activate_as(struct vidmm *vm, uint32_t as_handle, uint32_t *hw_asid);

/*
 * Engines in physical mode (ENGINE_OP_FLAG_PHYSICAL): whether the physical
 * range [offset, offset + bytes) lies inside one live AccessedPhysically
 * allocation: a CONTIGUOUS VRAM block (offset a VRAM offset), or a system
 * allocation in the aperture (offset APERTURE_PHYS_BASE + its aperture
 * offset). An empty range must still lie inside one (offset at most its
 * end). See docs/vidmm.md, "Engines in physical mode".
 */
bool vidmm_phys_range_ok(const struct vidmm *vm, uint64_t offset, uint64_t bytes);

/* The aperture segment's size and the bytes of it mapped, for
   GET_SEGMENTS. */
void vidmm_aperture_usage(const struct vidmm *vm, uint64_t *bytes, uint64_t *in_use);

/* ------------------------------------------------------------ inspection */

/* The address space's root table and hardware id (VIDMM_NO_ASID if none);
 * false for a handle that is not live. For tests and tools. */
bool vidmm_as_info(const struct vidmm *vm, uint32_t as_handle, uint64_t *root, uint32_t *hw_asid);

/* The handle of the address space holding hardware id hw_asid now, or 0 if
 * none does: how a fault record (which names the id) is reported to the
 * host. Ids move on recycling, so this is right only for faults taken
 * before the next command that binds an id. */
uint32_t vidmm_as_handle_of_asid(const struct vidmm *vm, uint32_t hw_asid);

/* Table VRAM of every live address space, as ptm_usage() reports it. */
void vidmm_table_usage(const struct vidmm *vm, uint32_t *tables, uint64_t *vram_bytes);

/* Statuses of the modules below, as mailbox codes. */
uint32_t vidmm_status_from_ptm(enum ptm_status st);
uint32_t vidmm_status_from_vram(int err);

#endif
