// SPDX-License-Identifier: Apache-2.0
/*
 * GPU virtual-address allocator: a sorted array of allocated ranges.
 *
 * A sorted array rather than a tree because the node pool is small (a few
 * hundred entries), a binary search over it touches few cache lines on the
 * rv32 core, and insert/remove are one memmove of at most the pool. The
 * gaps between nodes are the free VA; nothing else is stored.
 */
#include "va_alloc.h"

#include <string.h>

#define KIND_MASK UINT64_C(1)
#define PAGE_MASK (VA_PAGE_SIZE - 1)

static const uint64_t page_sizes_desc[] = {
    UINT64_C(1) << 30,
    UINT64_C(1) << 21,
    UINT64_C(1) << 16,
    VA_PAGE_SIZE,
};

const char *ptm_status_name(enum ptm_status status)
{
    switch (status) {
    case PTM_OK:
        return "OK";
    case PTM_ERR_INVALID:
        return "INVALID";
    case PTM_ERR_ALIGN:
        return "ALIGN";
    case PTM_ERR_RANGE:
        return "RANGE";
    case PTM_ERR_OVERLAP:
        return "OVERLAP";
    case PTM_ERR_NO_VA:
        return "NO_VA";
    case PTM_ERR_NO_NODES:
        return "NO_NODES";
    case PTM_ERR_NOT_FOUND:
        return "NOT_FOUND";
    case PTM_ERR_NO_VRAM:
        return "NO_VRAM";
    case PTM_ERR_BUSY:
        return "BUSY";
    case PTM_ERR_ENGINE:
        return "ENGINE";
    }
    return "?";
}

static uint64_t node_start(const struct va_node *n)
{
    return n->start_kind & ~KIND_MASK;
}

static enum va_kind node_kind(const struct va_node *n)
{
    return (n->start_kind & KIND_MASK) ? VA_KIND_RESERVED : VA_KIND_MAPPED;
}

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

/* The lowest address at or above x that is phase modulo align. */
static uint64_t align_up(uint64_t x, uint64_t align, uint64_t phase)
{
    return x + ((phase - x) & (align - 1));
}

/* Index of the first node whose end is above va: the node holding va, or
 * the first one after it. count if there is none. */
static uint32_t first_ending_after(const struct va_space *vs, uint64_t va)
{
    uint32_t lo = 0, hi = vs->count;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (vs->nodes[mid].end <= va)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static enum ptm_status insert_at(struct va_space *vs, uint32_t i, uint64_t va, uint64_t size,
                                 enum va_kind kind)
{
    if (vs->count == vs->capacity)
        return PTM_ERR_NO_NODES;
    memmove(&vs->nodes[i + 1], &vs->nodes[i], (vs->count - i) * sizeof(vs->nodes[0]));
    vs->nodes[i].start_kind = va | (kind == VA_KIND_RESERVED ? KIND_MASK : 0);
    vs->nodes[i].end = va + size;
    vs->count++;
    vs->used_bytes += size;
    return PTM_OK;
}

static bool kind_ok(enum va_kind kind)
{
    return kind == VA_KIND_MAPPED || kind == VA_KIND_RESERVED;
}

/* Size and placement checks shared by every request. */
static enum ptm_status check_size(const struct va_space *vs, uint64_t size, enum va_kind kind)
{
    if (!vs || !vs->nodes || !size || !kind_ok(kind))
        return PTM_ERR_INVALID;
    if (size & PAGE_MASK)
        return PTM_ERR_ALIGN;
    if (size > vs->limit - vs->base)
        return PTM_ERR_RANGE;
    return PTM_OK;
}

enum ptm_status va_alloc_init(struct va_space *vs, struct va_node *nodes, uint32_t capacity,
                              uint64_t base, uint64_t limit)
{
    if (!vs || !nodes || !capacity)
        return PTM_ERR_INVALID;
    if ((base | limit) & PAGE_MASK)
        return PTM_ERR_ALIGN;
    /* VA 0 stays unmapped so a NULL GPU pointer always faults. */
    if (base == 0)
        base = VA_PAGE_SIZE;
    if (limit > (UINT64_C(1) << VA_BITS_MAX) || base >= limit)
        return PTM_ERR_RANGE;
    *vs = (struct va_space){
        .nodes = nodes,
        .capacity = capacity,
        .base = base,
        .limit = limit,
    };
    return PTM_OK;
}

uint64_t va_alloc_page_align(uint64_t size)
{
    for (unsigned i = 0; i < sizeof(page_sizes_desc) / sizeof(page_sizes_desc[0]); i++)
        if (size >= page_sizes_desc[i])
            return page_sizes_desc[i];
    return VA_PAGE_SIZE;
}

/* The window [lo, hi) a placement may use, or false if it is empty. */
static bool search_window(const struct va_space *vs, uint64_t min, uint64_t max, uint64_t *lo,
                          uint64_t *hi)
{
    *lo = min > vs->base ? min : vs->base;
    *hi = (max && max < vs->limit) ? max : vs->limit;
    return *lo < *hi;
}

enum ptm_status va_alloc_any(struct va_space *vs, uint64_t size, uint64_t align, uint64_t phase,
                             uint64_t min, uint64_t max, enum va_kind kind, uint64_t *va)
{
    enum ptm_status st = check_size(vs, size, kind);
    uint64_t lo, hi, gap_start;
    uint32_t i;

    if (st != PTM_OK)
        return st;
    if (!va)
        return PTM_ERR_INVALID;
    if (align == 0)
        align = va_alloc_page_align(size);
    if (!is_pow2(align) || align < VA_PAGE_SIZE || phase >= align)
        return PTM_ERR_ALIGN;
    if ((min | max | phase) & PAGE_MASK)
        return PTM_ERR_ALIGN;
    if (!search_window(vs, min, max, &lo, &hi))
        return PTM_ERR_RANGE;

    /* First fit: walk the gaps left to right from the window's start. */
    gap_start = lo;
    for (i = first_ending_after(vs, lo);; i++) {
        uint64_t gap_end = i < vs->count ? node_start(&vs->nodes[i]) : hi;
        uint64_t cand = align_up(gap_start, align, phase);

        if (gap_end > hi)
            gap_end = hi;
        if (cand < gap_start) /* wrapped around the top */
            return PTM_ERR_NO_VA;
        if (cand < gap_end && gap_end - cand >= size) {
            st = insert_at(vs, i, cand, size, kind);
            if (st == PTM_OK)
                *va = cand;
            return st;
        }
        if (i >= vs->count || gap_end >= hi)
            return PTM_ERR_NO_VA;
        if (vs->nodes[i].end > gap_start)
            gap_start = vs->nodes[i].end;
    }
}

enum ptm_status va_alloc_fixed(struct va_space *vs, uint64_t va, uint64_t size, enum va_kind kind)
{
    enum ptm_status st = check_size(vs, size, kind);
    uint32_t i;

    if (st != PTM_OK)
        return st;
    if (va & PAGE_MASK)
        return PTM_ERR_ALIGN;
    if (va < vs->base || va > vs->limit - size)
        return PTM_ERR_RANGE;
    i = first_ending_after(vs, va);
    if (i < vs->count && node_start(&vs->nodes[i]) < va + size)
        return PTM_ERR_OVERLAP;
    return insert_at(vs, i, va, size, kind);
}

enum ptm_status va_alloc_free(struct va_space *vs, uint64_t va, uint64_t size)
{
    uint32_t i;

    if (!vs || !vs->nodes || !size)
        return PTM_ERR_INVALID;
    i = first_ending_after(vs, va);
    if (i == vs->count || node_start(&vs->nodes[i]) != va || vs->nodes[i].end - va != size)
        return PTM_ERR_NOT_FOUND;
    memmove(&vs->nodes[i], &vs->nodes[i + 1], (vs->count - i - 1) * sizeof(vs->nodes[0]));
    vs->count--;
    vs->used_bytes -= size;
    return PTM_OK;
}

bool va_alloc_find(const struct va_space *vs, uint64_t va, struct va_extent *out)
{
    uint32_t i;
    const struct va_node *n;

    if (!vs || !vs->nodes)
        return false;
    i = first_ending_after(vs, va);
    if (i == vs->count || node_start(&vs->nodes[i]) > va)
        return false;
    n = &vs->nodes[i];
    if (out)
        *out = (struct va_extent){
            .start = node_start(n),
            .size = n->end - node_start(n),
            .kind = node_kind(n),
        };
    return true;
}

void va_alloc_stats(const struct va_space *vs, struct va_stats *out)
{
    *out = (struct va_stats){
        .ranges = vs->count,
        .capacity = vs->capacity,
        .used_bytes = vs->used_bytes,
        .free_bytes = (vs->limit - vs->base) - vs->used_bytes,
    };
}
