// SPDX-License-Identifier: Apache-2.0
/* The backing pool's ranges (backing_pool.h). */
#include "backing_pool.h"

void backing_pool_init(struct backing_pool *b, uint64_t pa_limit)
{
    *b = (struct backing_pool){ .pa_limit = pa_limit };
}

bool backing_pool_overlaps(const struct backing_pool *b, uint64_t addr, uint64_t size)
{
    for (uint32_t i = 0; i < b->count; i++) {
        const struct backing_pool_range *r = &b->range[i];
        /* Both ranges are non-empty and below 2^64 (checked on entry). */
        if (addr < r->addr + r->size && r->addr < addr + size)
            return true;
    }
    return false;
}

enum backing_pool_err backing_pool_check(const struct backing_pool *b, uint64_t addr, uint64_t size)
{
    if (!size)
        return BACKING_ERR_INVALID;
    if ((addr | size) & (BACKING_ALIGN - 1))
        return BACKING_ERR_UNALIGNED;
    if (addr >= b->pa_limit || size > b->pa_limit - addr)
        return BACKING_ERR_RANGE;
    if (backing_pool_overlaps(b, addr, size))
        return BACKING_ERR_OVERLAP;
    if (b->count == BACKING_MAX_RANGES)
        return BACKING_ERR_FULL;
    return BACKING_OK;
}

enum backing_pool_err backing_pool_add(struct backing_pool *b, uint64_t addr, uint64_t size)
{
    enum backing_pool_err err = backing_pool_check(b, addr, size);

    if (err != BACKING_OK)
        return err;
    b->range[b->count++] = (struct backing_pool_range){ .addr = addr, .size = size };
    b->bytes += size;
    return BACKING_OK;
}

void backing_pool_remove(struct backing_pool *b, uint32_t i)
{
    b->bytes -= b->range[i].size;
    for (b->count--; i < b->count; i++)
        b->range[i] = b->range[i + 1];
}
