// SPDX-License-Identifier: Apache-2.0
/*
 * VRAM segment allocator.
 *
 * Hands out physical pages of the local memory segment (VRAM, segment 1)
 * the way VidMm does for a WDDM 2.0 GpuMmu driver: page tables, surfaces
 * made of 4 KB / 64 KB / 2 MB pieces, and physically contiguous allocations
 * with DXGK ContiguousMemory constraints.
 *
 * A buddy allocator with one free bitmap per order, summarised by
 * hierarchical "word not empty" bitmaps, plus one "split" bit per non-leaf
 * node. No lists and no heap: the caller lends the metadata storage, about
 * 3 bits per 4 KB page (see docs/vram-allocator.md).
 *
 * Portable C11 without libc allocation or hardware access: the same file
 * runs in the rv32im firmware and in host unit tests. All offsets and sizes
 * are bytes from the start of the segment.
 */
#ifndef VRAM_ALLOC_H
#define VRAM_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#define VRAM_PAGE_SHIFT     12
#define VRAM_PAGE_SIZE      (1u << VRAM_PAGE_SHIFT)
/* Largest block: 4 KB << 20 = 4 GiB, the largest segment supported. */
#define VRAM_MAX_ORDER      20
#define VRAM_ORDERS         (VRAM_MAX_ORDER + 1)
#define VRAM_SEGMENT_MAX    ((uint64_t)VRAM_PAGE_SIZE << VRAM_MAX_ORDER)
/* 32^5 summary bits cover the 2^21 free bits of a 4 GiB segment. */
#define VRAM_SUMMARY_LEVELS 5

enum vram_err {
    VRAM_OK = 0,
    VRAM_ERR_INVALID = -1,       /* unaligned, out of range, bad size */
    VRAM_ERR_NO_MEMORY = -2,     /* possible, but not with what is free now */
    VRAM_ERR_CONSTRAINT = -3,    /* contiguous constraints can never be met */
    VRAM_ERR_NOT_ALLOCATED = -4, /* not the start of an allocated block */
    VRAM_ERR_BUSY = -5,          /* reserve: part of the range is in use */
    VRAM_ERR_ARRAY_FULL = -6,    /* the output array is too small */
};

/*
 * Allocator state. Treat the fields as private; read them through
 * vram_alloc_stats(). Only `steps` may be reset by the caller: it counts
 * inner-loop iterations so tests and profiling can check the O(log n) bound.
 */
struct vram_alloc {
    uint32_t *words; /* the caller's metadata */
    uint32_t pages;  /* segment size in 4 KB pages */
    uint32_t free_pages;
    uint32_t used_blocks;
    uint32_t steps;
    uint8_t max_order; /* largest order with a block inside the segment */
    uint8_t levels;    /* free bitmap plus its summary levels */
    /* Free-bitmap bit of block 0 of each order; [max_order + 1] is the end. */
    uint32_t order_bit[VRAM_ORDERS + 1];
    uint32_t level_off[VRAM_SUMMARY_LEVELS]; /* word offsets */
    uint32_t level_words[VRAM_SUMMARY_LEVELS];
    uint32_t split_off; /* word offset */
    uint32_t free_blocks[VRAM_ORDERS];
};

/* One naturally aligned block: size is a power of two, offset a multiple. */
struct vram_block {
    uint64_t offset;
    uint64_t size;
};

/*
 * DXGK ContiguousMemory constraints (MmAllocateContiguousMemorySpecifyCache
 * semantics). The allocation [start, start + size) must satisfy
 *   start >= lowest, start + size - 1 <= highest,
 *   start % align == 0                          (align 0: 4 KB),
 *   no multiple of boundary inside (start, start + size)  (boundary 0: none).
 * size must be a multiple of 4 KB; align and boundary 0 or powers of two.
 */
struct vram_contig {
    uint64_t size;
    uint64_t lowest;
    uint64_t highest;
    uint64_t boundary;
    uint64_t align;
};

struct vram_stats {
    uint64_t segment_bytes;
    uint64_t free_bytes;
    uint64_t used_bytes;
    uint64_t largest_free; /* largest free naturally aligned block */
    uint32_t used_blocks;  /* allocated buddy blocks */
    uint32_t free_blocks;
};

/* Receives the blocks of a vram_alloc_pages() request, largest first. */
typedef void (*vram_block_fn)(void *ctx, uint64_t offset, uint64_t size);

/* Metadata bytes a segment needs; 0 if the size is not supported. */
size_t vram_alloc_metadata_bytes(uint64_t segment_bytes);

/*
 * segment_bytes: a multiple of 4 KB, at most 4 GiB. metadata: 4-byte
 * aligned, at least vram_alloc_metadata_bytes() long, owned by the allocator
 * until it is dropped. Everything starts free.
 */
int vram_alloc_init(struct vram_alloc *va, void *metadata, size_t metadata_bytes,
                    uint64_t segment_bytes);

/* Take exactly [offset, offset + size), e.g. a firmware-owned region. */
int vram_alloc_reserve(struct vram_alloc *va, uint64_t offset, uint64_t size);

/* One naturally aligned block; size a power of two >= 4 KB. */
int vram_alloc_block(struct vram_alloc *va, uint64_t size, uint64_t *offset);

/*
 * A non-contiguous allocation of size bytes (multiple of 4 KB), carved into
 * naturally aligned 1 GB, 2 MB, 64 KB and 4 KB blocks, largest first, so
 * the page tables can use the largest pages. All or nothing: either fn sees
 * every block or nothing is allocated. Free each block on its own.
 */
int vram_alloc_pages(struct vram_alloc *va, uint64_t size, vram_block_fn fn, void *ctx);

/*
 * The same into an array. With VRAM_ERR_ARRAY_FULL nothing is allocated
 * and *count says how many entries the request needs now.
 */
int vram_alloc_pages_array(struct vram_alloc *va, uint64_t size, struct vram_block *out,
                           size_t capacity, size_t *count);

/* A physically contiguous range; free it with vram_alloc_free_range(). */
int vram_alloc_contig(struct vram_alloc *va, const struct vram_contig *req, uint64_t *offset);

/* Free the block starting at offset; *size (optional) gets its size. */
int vram_alloc_free_block(struct vram_alloc *va, uint64_t offset, uint64_t *size);

/*
 * Free every block of [offset, offset + size): a contiguous allocation, a
 * reserved range, or adjacent blocks. The range must consist of whole
 * allocated blocks; otherwise nothing is freed.
 */
int vram_alloc_free_range(struct vram_alloc *va, uint64_t offset, uint64_t size);

void vram_alloc_stats(const struct vram_alloc *va, struct vram_stats *stats);

const char *vram_alloc_strerror(int err);

#endif
