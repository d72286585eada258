// SPDX-License-Identifier: Apache-2.0
/*
 * The backing pool: ranges of host memory (Segment 0) the host gave the
 * device with ADD_BACKING, for allocations evicted from VRAM, as a driver
 * gives a device a DMA pool. This module keeps the ranges and their
 * accounting; it never touches memory (vidmm asks its platform to check a
 * range is reachable before adding it).
 *
 * Portable C11, no allocation: the ranges live in the struct.
 */
#ifndef BACKING_POOL_H
#define BACKING_POOL_H

#include <stdbool.h>
#include <stdint.h>

#define BACKING_MAX_RANGES 8u
/* Ranges start and end on 64 KB: evicted allocations keep 64 KB pages. */
#define BACKING_ALIGN      (UINT64_C(1) << 16)

enum backing_pool_err {
    BACKING_OK = 0,
    BACKING_ERR_INVALID,   /* size 0 */
    BACKING_ERR_UNALIGNED, /* address or size not a multiple of BACKING_ALIGN */
    BACKING_ERR_RANGE,     /* beyond what a PTE can address (pa_limit) */
    BACKING_ERR_OVERLAP,   /* overlaps a range the pool holds */
    BACKING_ERR_FULL,      /* BACKING_MAX_RANGES ranges already */
};

struct backing_pool_range {
    uint64_t addr, size;
};

struct backing_pool {
    uint64_t pa_limit; /* addresses a Segment 0 PTE can hold */
    struct backing_pool_range range[BACKING_MAX_RANGES];
    uint32_t count;
    uint64_t bytes; /* sum of the ranges */
    uint64_t used;  /* bytes holding allocations */
};

void backing_pool_init(struct backing_pool *b, uint64_t pa_limit);

/* Whether [addr, addr + size) could be added, without adding it. */
enum backing_pool_err backing_pool_check(const struct backing_pool *b, uint64_t addr,
                                         uint64_t size);

/* Adds the range after backing_pool_check; the same answer, and nothing changed
 * unless BACKING_OK. */
enum backing_pool_err backing_pool_add(struct backing_pool *b, uint64_t addr, uint64_t size);

/* Range i out of the pool (i < count; holding nothing: the caller moved
 * what was in it); the later ones move down one place. */
void backing_pool_remove(struct backing_pool *b, uint32_t i);

/* Whether [addr, addr + size) overlaps a range of the pool (size > 0). */
bool backing_pool_overlaps(const struct backing_pool *b, uint64_t addr, uint64_t size);

#endif
