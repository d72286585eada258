// SPDX-License-Identifier: Apache-2.0
/*
 * GPU virtual-address allocator for one address space.
 *
 * Hands out ranges of an address space's GPU VA the way VidMm does for
 * MapGpuVirtualAddress (automatic or caller-chosen placement) and
 * ReserveGpuVirtualAddress (a reserved range that UpdateGpuVirtualAddress
 * later maps piece by piece), and takes them back for FreeGpuVirtualAddress.
 * It only tracks which VA is taken; the page tables are ptmgr's business.
 *
 * The allocated ranges live in a sorted array of nodes that the caller
 * lends, so memory is bounded and nothing is allocated at run time:
 * finding and freeing are O(log n) binary searches plus an O(n) memmove of
 * at most the node array, automatic placement is an O(n) first-fit scan of
 * the gaps. See docs/page-table-manager.md.
 *
 * Portable C11 without libc allocation or hardware access: the same file
 * runs in the rv32im firmware and in host unit tests.
 */
#ifndef VA_ALLOC_H
#define VA_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Status of the address-space modules: shared by va_alloc and ptmgr (which
 * includes this header). The command layer maps these to mailbox codes.
 */
enum ptm_status {
    PTM_OK = 0,
    PTM_ERR_INVALID = -1,   /* bad argument: null, zero size, bad flags */
    PTM_ERR_ALIGN = -2,     /* VA, PA or size not aligned as required */
    PTM_ERR_RANGE = -3,     /* outside the address space or the PA field */
    PTM_ERR_OVERLAP = -4,   /* fixed range overlaps one in use; copy overlaps */
    PTM_ERR_NO_VA = -5,     /* no free VA range fits the request */
    PTM_ERR_NO_NODES = -6,  /* the range-node pool is full */
    PTM_ERR_NOT_FOUND = -7, /* free: no range starts there with that size */
    PTM_ERR_NO_VRAM = -8,   /* not enough VRAM for the page tables */
    PTM_ERR_BUSY = -9,      /* not allowed inside a batch */
    PTM_ERR_ENGINE = -10,   /* the hardware writing the tables failed (ptm_hw.complete) */
};

const char *ptm_status_name(enum ptm_status status);

#define VA_PAGE_SHIFT          12
#define VA_PAGE_SIZE           (UINT64_C(1) << VA_PAGE_SHIFT)
/* The largest VA any configuration has: 4 levels of 9 bits over 4 KB. */
#define VA_BITS_MAX            48
/* A suggested node pool per address space: 256 ranges in 4 KB of RAM. */
#define VA_ALLOC_NODES_DEFAULT 256

enum va_kind {
    VA_KIND_MAPPED = 0,   /* MapGpuVirtualAddress */
    VA_KIND_RESERVED = 1, /* ReserveGpuVirtualAddress, mapped by UPDATE */
};

/*
 * One allocated range [start, end). The kind rides in the low bit of
 * start_kind, which a page-aligned start never uses; read it through
 * va_alloc_find().
 */
struct va_node {
    uint64_t start_kind;
    uint64_t end;
};

/* An address space's VA bookkeeping. Treat the fields as private. */
struct va_space {
    struct va_node *nodes; /* lent by the caller, sorted by start */
    uint32_t capacity;
    uint32_t count;
    uint64_t base;  /* first VA that may be handed out */
    uint64_t limit; /* one past the last */
    uint64_t used_bytes;
};

/* What va_alloc_find() reports about the range holding an address. */
struct va_extent {
    uint64_t start;
    uint64_t size;
    enum va_kind kind;
};

struct va_stats {
    uint32_t ranges;
    uint32_t capacity;
    uint64_t used_bytes;
    uint64_t free_bytes;
};

/*
 * Manage [base, limit): both multiples of 4 KB, limit <= 2^48. The page at
 * VA 0 is never handed out, so a NULL GPU address stays invalid: a base of
 * 0 starts at 4 KB. nodes: capacity entries, owned by the allocator until
 * it is dropped.
 */
enum ptm_status va_alloc_init(struct va_space *vs, struct va_node *nodes, uint32_t capacity,
                              uint64_t base, uint64_t limit);

/*
 * Largest page size (4 KB, 64 KB, 2 MB or 1 GB) not above size: the
 * alignment that lets a mapping of that size use its largest pages.
 */
uint64_t va_alloc_page_align(uint64_t size);

/*
 * Place size bytes automatically: the lowest free range inside
 * [min, max) whose start is phase modulo align. align 0 means
 * va_alloc_page_align(size); otherwise a power of two >= 4 KB. phase is a
 * multiple of 4 KB below align (0: starts on a multiple of align). min 0
 * and max 0 mean no bound.
 */
enum ptm_status va_alloc_any(struct va_space *vs, uint64_t size, uint64_t align, uint64_t phase,
                             uint64_t min, uint64_t max, enum va_kind kind, uint64_t *va);

/* Take exactly [va, va + size); PTM_ERR_OVERLAP if any of it is in use. */
enum ptm_status va_alloc_fixed(struct va_space *vs, uint64_t va, uint64_t size, enum va_kind kind);

/*
 * Give back a range exactly as it was allocated: same start and size.
 * Anything else (a part, a merge of two, an unknown range) is
 * PTM_ERR_NOT_FOUND and changes nothing.
 */
enum ptm_status va_alloc_free(struct va_space *vs, uint64_t va, uint64_t size);

/*
 * The allocated range holding va. Returns false if va is free. UPDATE
 * commands use it to check that their target lies in a reserved range.
 */
bool va_alloc_find(const struct va_space *vs, uint64_t va, struct va_extent *out);

void va_alloc_stats(const struct va_space *vs, struct va_stats *out);

#endif
