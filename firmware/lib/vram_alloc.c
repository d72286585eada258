// SPDX-License-Identifier: Apache-2.0
/*
 * VRAM segment allocator: a bitmap buddy allocator.
 *
 * Every naturally aligned block that lies wholly inside the segment is a
 * node of order k (2^k pages) and index i (it starts at page i << k). A
 * node is in one of four states:
 *   free      - its bit in the free bitmap is set,
 *   split     - its split bit is set; its two halves are nodes of their own,
 *   allocated - neither bit set, and its parent is split,
 *   covered   - neither bit set, inside a free or allocated ancestor.
 * Nodes that stick out of the segment end count as split and have no bits:
 * they are never handed out nor merged into.
 *
 * The free bitmaps of all orders are concatenated, lowest order first, and
 * summarised: bit j of level L+1 is set when word j of level L is not zero.
 * Searching for the first set bit at or after some position is then a climb
 * and a descent through at most VRAM_SUMMARY_LEVELS words, and since orders
 * are stored in ascending order that one search also finds the smallest
 * order that has a free block (best fit, lowest address).
 */
#include "vram_alloc.h"

#include <stdbool.h>
#include <string.h>

#define NO_BIT    UINT32_MAX
#define WORD_BITS 32u

static uint32_t words_for(uint32_t bits)
{
    return (bits + WORD_BITS - 1) / WORD_BITS;
}

/*
 * Open-coded bit scans: rv32im has no count-zeros instruction, so the
 * builtins would become libgcc calls anyway; five steps keep the module
 * free of toolchain helpers. Both need x != 0.
 */
static unsigned int lowest_bit(uint32_t x)
{
    unsigned int n = 0;

    if (!(x & 0xffffu)) {
        n += 16;
        x >>= 16;
    }
    if (!(x & 0xffu)) {
        n += 8;
        x >>= 8;
    }
    if (!(x & 0xfu)) {
        n += 4;
        x >>= 4;
    }
    if (!(x & 0x3u)) {
        n += 2;
        x >>= 2;
    }
    if (!(x & 0x1u))
        n += 1;
    return n;
}

static unsigned int highest_bit(uint32_t x)
{
    unsigned int n = 0;

    if (x & 0xffff0000u) {
        n += 16;
        x >>= 16;
    }
    if (x & 0xff00u) {
        n += 8;
        x >>= 8;
    }
    if (x & 0xf0u) {
        n += 4;
        x >>= 4;
    }
    if (x & 0xcu) {
        n += 2;
        x >>= 2;
    }
    if (x & 0x2u)
        n += 1;
    return n;
}

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

/* Order of the largest aligned block that starts at page and fits in n. */
static unsigned int piece_order(uint32_t page, uint32_t n)
{
    unsigned int fit = highest_bit(n);

    if (page && lowest_bit(page) < fit)
        return lowest_bit(page);
    return fit;
}

static unsigned int order_of_pages(uint32_t pages_pow2)
{
    return highest_bit(pages_pow2);
}

/* Smallest order whose blocks hold n pages. */
static unsigned int order_to_hold(uint32_t n)
{
    unsigned int k = highest_bit(n);

    return is_pow2(n) ? k : k + 1;
}

static uint64_t pages_to_bytes(uint32_t pages)
{
    return (uint64_t)pages << VRAM_PAGE_SHIFT;
}

static bool segment_ok(uint64_t bytes)
{
    return bytes && bytes <= VRAM_SEGMENT_MAX && !(bytes & (VRAM_PAGE_SIZE - 1));
}

/* ------------------------------------------------------------ layout */

/* Fills the geometry of va for a segment of pages; returns metadata words. */
static uint32_t layout(struct vram_alloc *va, uint32_t pages)
{
    uint32_t bits = 0, words, total = 0;
    unsigned int k, level;

    va->pages = pages;
    va->max_order = (uint8_t)highest_bit(pages);
    for (k = 0; k <= va->max_order; k++) {
        va->order_bit[k] = bits;
        bits += pages >> k;
    }
    va->order_bit[k] = bits;

    words = words_for(bits);
    for (level = 0;; level++) {
        va->level_off[level] = total;
        va->level_words[level] = words;
        total += words;
        if (words == 1)
            break;
        words = words_for(words);
    }
    va->levels = (uint8_t)(level + 1);

    /* Leaves cannot split, so split bits start at order 1. */
    va->split_off = total;
    total += words_for(bits - va->order_bit[1]);
    return total;
}

size_t vram_alloc_metadata_bytes(uint64_t segment_bytes)
{
    struct vram_alloc geometry;

    if (!segment_ok(segment_bytes))
        return 0;
    memset(&geometry, 0, sizeof(geometry));
    return (size_t)layout(&geometry, (uint32_t)(segment_bytes >> VRAM_PAGE_SHIFT)) *
           sizeof(uint32_t);
}

/* ------------------------------------------------- summarised free bitmap */

static uint32_t *level_word(const struct vram_alloc *va, unsigned int level, uint32_t word)
{
    return va->words + va->level_off[level] + word;
}

static bool free_bit_test(const struct vram_alloc *va, uint32_t bit)
{
    return *level_word(va, 0, bit / WORD_BITS) & (1u << (bit % WORD_BITS));
}

/* A word that turns non-empty must announce itself one level up. */
static void free_bit_set(struct vram_alloc *va, uint32_t bit)
{
    unsigned int level;

    for (level = 0; level < va->levels; level++) {
        uint32_t *word = level_word(va, level, bit / WORD_BITS);
        bool was_empty = *word == 0;

        va->steps++;
        *word |= 1u << (bit % WORD_BITS);
        if (!was_empty)
            break;
        bit /= WORD_BITS;
    }
}

static void free_bit_clear(struct vram_alloc *va, uint32_t bit)
{
    unsigned int level;

    for (level = 0; level < va->levels; level++) {
        uint32_t *word = level_word(va, level, bit / WORD_BITS);

        va->steps++;
        *word &= ~(1u << (bit % WORD_BITS));
        if (*word)
            break;
        bit /= WORD_BITS;
    }
}

/* First set free bit at or after bit, or NO_BIT. */
static uint32_t free_bit_next(struct vram_alloc *va, uint32_t bit)
{
    unsigned int level = 0;
    uint32_t word;

    for (;;) {
        va->steps++;
        if (bit / WORD_BITS >= va->level_words[level])
            return NO_BIT;
        word = *level_word(va, level, bit / WORD_BITS) & (~0u << (bit % WORD_BITS));
        if (word)
            break;
        if (++level == va->levels)
            return NO_BIT;
        /* Nothing left in this word: look from the next one on. */
        bit = bit / WORD_BITS + 1;
    }
    bit = (bit & ~(WORD_BITS - 1)) | lowest_bit(word);

    /* A set summary bit guarantees a non-empty word below it. */
    while (level-- > 0) {
        va->steps++;
        bit = bit * WORD_BITS | lowest_bit(*level_word(va, level, bit));
    }
    return bit;
}

/* ------------------------------------------------------------ nodes */

static uint32_t blocks_of_order(const struct vram_alloc *va, unsigned int k)
{
    return va->pages >> k;
}

static bool node_inside(const struct vram_alloc *va, unsigned int k, uint32_t i)
{
    return k <= va->max_order && i < blocks_of_order(va, k);
}

static bool node_free(const struct vram_alloc *va, unsigned int k, uint32_t i)
{
    return node_inside(va, k, i) && free_bit_test(va, va->order_bit[k] + i);
}

static void node_add_free(struct vram_alloc *va, unsigned int k, uint32_t i)
{
    free_bit_set(va, va->order_bit[k] + i);
    va->free_blocks[k]++;
}

static void node_remove_free(struct vram_alloc *va, unsigned int k, uint32_t i)
{
    free_bit_clear(va, va->order_bit[k] + i);
    va->free_blocks[k]--;
}

static uint32_t split_bit(const struct vram_alloc *va, unsigned int k, uint32_t i)
{
    return va->order_bit[k] - va->order_bit[1] + i;
}

static void node_set_split(struct vram_alloc *va, unsigned int k, uint32_t i, bool split)
{
    uint32_t bit = split_bit(va, k, i);
    uint32_t *word = va->words + va->split_off + bit / WORD_BITS;

    if (split)
        *word |= 1u << (bit % WORD_BITS);
    else
        *word &= ~(1u << (bit % WORD_BITS));
}

/* Is the parent of (k, i) split? Parents sticking out of the segment are. */
static bool parent_split(const struct vram_alloc *va, unsigned int k, uint32_t i)
{
    uint32_t bit;

    if (!node_inside(va, k + 1, i >> 1))
        return true;
    bit = split_bit(va, k + 1, i >> 1);
    return va->words[va->split_off + bit / WORD_BITS] & (1u << (bit % WORD_BITS));
}

/* Order of the node a free bit belongs to; bit must be in the bitmap. */
static unsigned int order_of_bit(struct vram_alloc *va, uint32_t bit, unsigned int from)
{
    unsigned int k = from;

    while (bit >= va->order_bit[k + 1]) {
        va->steps++;
        k++;
    }
    return k;
}

/* ------------------------------------------------------ buddy operations */

static void account_taken(struct vram_alloc *va, unsigned int k)
{
    va->used_blocks++;
    va->free_pages -= 1u << k;
}

/* Best fit: the lowest free block of the smallest order >= k, split down. */
static int take_block(struct vram_alloc *va, unsigned int k, uint32_t *page)
{
    uint32_t bit, i;
    unsigned int j;

    if (k > va->max_order)
        return VRAM_ERR_NO_MEMORY;
    bit = free_bit_next(va, va->order_bit[k]);
    if (bit == NO_BIT)
        return VRAM_ERR_NO_MEMORY;
    j = order_of_bit(va, bit, k);
    i = bit - va->order_bit[j];
    node_remove_free(va, j, i);
    for (; j > k; j--) {
        node_set_split(va, j, i, true);
        i <<= 1;
        node_add_free(va, j - 1, i + 1);
    }
    account_taken(va, k);
    *page = i << k;
    return VRAM_OK;
}

/*
 * Find the allocated block that starts at page. Walk up from the leaf: the
 * first node whose parent is split is the top of the partition at page; it
 * must start at page and not be free.
 */
static int locate_block(struct vram_alloc *va, uint32_t page, unsigned int *order)
{
    unsigned int k;

    for (k = 0;; k++) {
        uint32_t i = page >> k;

        va->steps++;
        if (i << k != page) /* page is inside a larger block */
            return VRAM_ERR_NOT_ALLOCATED;
        if (node_free(va, k, i))
            return VRAM_ERR_NOT_ALLOCATED;
        if (parent_split(va, k, i)) {
            *order = k;
            return VRAM_OK;
        }
    }
}

/* Free (k, i) and merge it with free buddies as far as they go. */
static void release_block(struct vram_alloc *va, unsigned int k, uint32_t i)
{
    va->used_blocks--;
    va->free_pages += 1u << k;
    while (node_inside(va, k + 1, i >> 1) && node_free(va, k, i ^ 1)) {
        va->steps++;
        node_remove_free(va, k, i ^ 1);
        k++;
        i >>= 1;
        node_set_split(va, k, i, false);
    }
    node_add_free(va, k, i);
}

/*
 * Allocate [first, end) out of node (k, i), which has just left the free
 * bitmap: nodes inside the range become allocated, nodes outside go back
 * free, nodes straddling an edge split. Only the two edge paths recurse,
 * so this is O(k) and the recursion depth at most k.
 */
static void carve(struct vram_alloc *va, unsigned int k, uint32_t i, uint32_t first, uint32_t end)
{
    uint32_t start = i << k, stop = start + (1u << k);

    va->steps++;
    if (stop <= first || start >= end) {
        node_add_free(va, k, i);
        return;
    }
    if (first <= start && stop <= end) {
        account_taken(va, k);
        return;
    }
    node_set_split(va, k, i, true);
    carve(va, k - 1, 2 * i, first, end);
    carve(va, k - 1, 2 * i + 1, first, end);
}

/*
 * The free block holding page, if there is one. Walking up from the leaf,
 * the first node whose parent is split is the block holding the page: if
 * it is not free, no node above it is.
 */
static bool find_free_block(struct vram_alloc *va, uint32_t page, unsigned int *order,
                            uint32_t *index)
{
    unsigned int k;

    for (k = 0; node_inside(va, k, page >> k); k++) {
        va->steps++;
        if (node_free(va, k, page >> k)) {
            *order = k;
            *index = page >> k;
            return true;
        }
        if (parent_split(va, k, page >> k))
            return false;
    }
    return false;
}

/* ------------------------------------------------------ argument checks */

static int page_of(const struct vram_alloc *va, uint64_t offset, uint32_t *page)
{
    if (offset & (VRAM_PAGE_SIZE - 1) || offset >= pages_to_bytes(va->pages))
        return VRAM_ERR_INVALID;
    *page = (uint32_t)(offset >> VRAM_PAGE_SHIFT);
    return VRAM_OK;
}

static int range_of(const struct vram_alloc *va, uint64_t offset, uint64_t size, uint32_t *first,
                    uint32_t *end)
{
    int err = page_of(va, offset, first);

    if (err)
        return err;
    if (!size || size & (VRAM_PAGE_SIZE - 1) || size > pages_to_bytes(va->pages) - offset)
        return VRAM_ERR_INVALID;
    *end = *first + (uint32_t)(size >> VRAM_PAGE_SHIFT);
    return VRAM_OK;
}

static int pages_of_size(const struct vram_alloc *va, uint64_t size, uint32_t *pages)
{
    if (!va || !va->words || !size || size & (VRAM_PAGE_SIZE - 1))
        return VRAM_ERR_INVALID;
    if (size > pages_to_bytes(va->free_pages))
        return VRAM_ERR_NO_MEMORY;
    *pages = (uint32_t)(size >> VRAM_PAGE_SHIFT);
    return VRAM_OK;
}

/* ------------------------------------------------------------ public API */

int vram_alloc_init(struct vram_alloc *va, void *metadata, size_t metadata_bytes,
                    uint64_t segment_bytes)
{
    struct vram_alloc fresh;
    uint32_t page, words;

    if (!va || !metadata || !segment_ok(segment_bytes) || (uintptr_t)metadata % sizeof(uint32_t))
        return VRAM_ERR_INVALID;

    memset(&fresh, 0, sizeof(fresh));
    words = layout(&fresh, (uint32_t)(segment_bytes >> VRAM_PAGE_SHIFT));
    if (metadata_bytes / sizeof(uint32_t) < words)
        return VRAM_ERR_INVALID;
    fresh.words = metadata;
    memset(metadata, 0, (size_t)words * sizeof(uint32_t));

    /* The segment starts as its largest aligned blocks. */
    for (page = 0; page < fresh.pages;) {
        unsigned int k = piece_order(page, fresh.pages - page);

        node_add_free(&fresh, k, page >> k);
        page += 1u << k;
    }
    fresh.free_pages = fresh.pages;
    fresh.steps = 0;
    *va = fresh;
    return VRAM_OK;
}

int vram_alloc_reserve(struct vram_alloc *va, uint64_t offset, uint64_t size)
{
    uint32_t first, end, page, i = 0;
    unsigned int k = 0;
    int err;

    if (!va || !va->words)
        return VRAM_ERR_INVALID;
    err = range_of(va, offset, size, &first, &end);
    if (err)
        return err;

    /* Check every page first so a busy range changes nothing. */
    for (page = first; page < end; page = (i + 1) << k)
        if (!find_free_block(va, page, &k, &i))
            return VRAM_ERR_BUSY;

    for (page = first; page < end; page = (i + 1) << k) {
        find_free_block(va, page, &k, &i);
        node_remove_free(va, k, i);
        carve(va, k, i, first, end);
    }
    return VRAM_OK;
}

int vram_alloc_block(struct vram_alloc *va, uint64_t size, uint64_t *offset)
{
    uint32_t page;
    int err;

    if (!va || !va->words || !offset || !is_pow2(size) || size < VRAM_PAGE_SIZE)
        return VRAM_ERR_INVALID;
    if (size > VRAM_SEGMENT_MAX)
        return VRAM_ERR_NO_MEMORY;
    err = take_block(va, order_of_pages((uint32_t)(size >> VRAM_PAGE_SHIFT)), &page);
    if (err)
        return err;
    *offset = pages_to_bytes(page);
    return VRAM_OK;
}

/*
 * Page sizes the MMU maps with one entry (1 GB and 2 MB large pages, 64 KB
 * and 4 KB leaf pages): the pieces of a non-contiguous allocation.
 */
static const uint8_t piece_orders[] = { 18, 9, 4, 0 };
#define PIECE_KINDS (sizeof(piece_orders) / sizeof(piece_orders[0]))

struct pages_plan {
    uint32_t count[PIECE_KINDS];
    uint32_t blocks;
};

/* Free space in units of order o: every free block of order >= o counts. */
static uint32_t free_units(const struct vram_alloc *va, unsigned int o)
{
    uint32_t units = 0;
    unsigned int j;

    for (j = o; j <= va->max_order; j++)
        units += va->free_blocks[j] << (j - o);
    return units;
}

/*
 * Decide the pieces before taking any: take as many blocks of each size as
 * are free, largest first, and let the rest fall to the next size. Taking a
 * block of order O only removes 2^(O-o) units of each smaller order o, so
 * the counts are exact, and since any free page is a 4 KB piece the plan
 * always completes once the free-bytes check has passed.
 */
static void plan_pages(const struct vram_alloc *va, uint32_t pages, struct pages_plan *plan)
{
    uint32_t left = pages, taken = 0;
    unsigned int n;

    plan->blocks = 0;
    for (n = 0; n < PIECE_KINDS; n++) {
        unsigned int o = piece_orders[n];
        uint32_t units = free_units(va, o) - (taken >> o);
        uint32_t want = left >> o;
        uint32_t count = want < units ? want : units;

        plan->count[n] = count;
        plan->blocks += count;
        left -= count << o;
        taken += count << o;
    }
}

static void run_plan(struct vram_alloc *va, const struct pages_plan *plan, vram_block_fn fn,
                     void *ctx)
{
    unsigned int n;
    uint32_t c, page;

    for (n = 0; n < PIECE_KINDS; n++) {
        for (c = 0; c < plan->count[n]; c++) {
            /* Cannot fail: the plan only counts free blocks. */
            take_block(va, piece_orders[n], &page);
            fn(ctx, pages_to_bytes(page), pages_to_bytes(1u << piece_orders[n]));
        }
    }
}

int vram_alloc_pages(struct vram_alloc *va, uint64_t size, vram_block_fn fn, void *ctx)
{
    struct pages_plan plan;
    uint32_t pages;
    int err;

    if (!fn)
        return VRAM_ERR_INVALID;
    err = pages_of_size(va, size, &pages);
    if (err)
        return err;
    plan_pages(va, pages, &plan);
    run_plan(va, &plan, fn, ctx);
    return VRAM_OK;
}

struct block_array {
    struct vram_block *out;
    size_t used;
};

static void append_block(void *ctx, uint64_t offset, uint64_t size)
{
    struct block_array *array = ctx;

    array->out[array->used].offset = offset;
    array->out[array->used].size = size;
    array->used++;
}

int vram_alloc_pages_array(struct vram_alloc *va, uint64_t size, struct vram_block *out,
                           size_t capacity, size_t *count)
{
    struct block_array array = { out, 0 };
    struct pages_plan plan;
    uint32_t pages;
    int err;

    if (!out || !count)
        return VRAM_ERR_INVALID;
    err = pages_of_size(va, size, &pages);
    if (err)
        return err;
    plan_pages(va, pages, &plan);
    *count = plan.blocks;
    if (plan.blocks > capacity)
        return VRAM_ERR_ARRAY_FULL;
    run_plan(va, &plan, append_block, &array);
    return VRAM_OK;
}

/* A contiguous request, in pages. Starts lie in [first, last]. */
struct contig_window {
    uint32_t first;
    uint32_t last;
    uint32_t size;
    uint32_t align;    /* power of two */
    uint32_t boundary; /* power of two, 0: none */
};

static uint32_t round_up(uint32_t x, uint32_t pow2)
{
    return (x + pow2 - 1) & ~(pow2 - 1);
}

/* Lowest start >= from that is aligned and crosses no boundary. */
static uint32_t contig_fit(const struct contig_window *w, uint32_t from)
{
    uint32_t start = round_up(from, w->align);
    uint32_t mask = ~(w->boundary - 1);

    /*
     * Moving to the next boundary is enough: size <= boundary, and if
     * align > boundary the start is already on a boundary.
     */
    if (w->boundary && (start & mask) != ((start + w->size - 1) & mask))
        start = round_up((start | (w->boundary - 1)) + 1, w->align);
    return start;
}

/*
 * Page counts stay below 2^21 even for absurd inputs: an alignment beyond
 * the 4 GiB maximum segment admits only page 0, as 4 GiB does, and a
 * boundary beyond the segment has no multiple inside it to cross.
 */
static uint32_t clamp_to_pages(uint64_t bytes)
{
    if (bytes > VRAM_SEGMENT_MAX)
        bytes = VRAM_SEGMENT_MAX;
    return (uint32_t)(bytes >> VRAM_PAGE_SHIFT);
}

static int contig_window(const struct vram_alloc *va, const struct vram_contig *req,
                         struct contig_window *w)
{
    uint64_t segment = pages_to_bytes(va->pages);
    uint32_t end;

    if (!req->size || req->size & (VRAM_PAGE_SIZE - 1) || (req->align && !is_pow2(req->align)) ||
        (req->boundary && !is_pow2(req->boundary)))
        return VRAM_ERR_INVALID;
    if ((req->boundary && req->size > req->boundary) || req->size > segment ||
        req->lowest >= segment || req->highest < req->lowest)
        return VRAM_ERR_CONSTRAINT;

    w->size = (uint32_t)(req->size >> VRAM_PAGE_SHIFT);
    w->align = req->align > VRAM_PAGE_SIZE ? clamp_to_pages(req->align) : 1;
    w->boundary = req->boundary < segment ? (uint32_t)(req->boundary >> VRAM_PAGE_SHIFT) : 0;
    /* Pages wholly at or below highest. */
    end = req->highest < segment ? (uint32_t)((req->highest + 1) >> VRAM_PAGE_SHIFT) : va->pages;
    if (end < w->size)
        return VRAM_ERR_CONSTRAINT;
    w->last = end - w->size;
    w->first = contig_fit(w, (uint32_t)((req->lowest + VRAM_PAGE_SIZE - 1) >> VRAM_PAGE_SHIFT));
    if (w->first > w->last)
        return VRAM_ERR_CONSTRAINT;
    return VRAM_OK;
}

/* Where the request fits inside block (k, i), if it does. */
static bool contig_place(const struct contig_window *w, unsigned int k, uint32_t i, uint32_t *start)
{
    uint32_t block = i << k;
    uint32_t at = contig_fit(w, block > w->first ? block : w->first);

    if (at > w->last || at + w->size > block + (1u << k))
        return false;
    *start = at;
    return true;
}

#define NO_PAGE UINT32_MAX

/* First page of the lowest free node of order k overlapping [from, end), or NO_PAGE. */
static uint32_t next_free_node(struct vram_alloc *va, unsigned int k, uint32_t from, uint32_t end)
{
    uint32_t base = va->order_bit[k], stop = base + ((end - 1) >> k), bit;

    if (from >= end)
        return NO_PAGE;
    if (stop >= va->order_bit[k + 1]) /* the last node sticks out of the segment */
        stop = va->order_bit[k + 1] - 1;
    bit = free_bit_next(va, base + (from >> k));
    return bit <= stop ? (bit - base) << k : NO_PAGE; /* NO_BIT is above any stop */
}

/*
 * Free blocks of order k that overlap the window, lowest first. Blocks
 * wholly inside the window always fit (k covers size and alignment), so
 * only the two edge blocks can be rejected: a few searches per order.
 */
static bool contig_search_order(struct vram_alloc *va, const struct contig_window *w,
                                unsigned int k, uint32_t *index, uint32_t *start)
{
    uint32_t page = w->first;

    for (;; page += 1u << k) {
        page = next_free_node(va, k, page, w->last + w->size);
        if (page == NO_PAGE)
            return false;
        *index = page >> k;
        if (contig_place(w, k, *index, start))
            return true;
    }
}

/*
 * A run of free pages across several free blocks (buddies of different
 * parents never merge, so a run can span blocks no single one of which
 * holds the request). Returns the lowest start that fits, as a walk over
 * every block of the window would, without visiting the blocks in use:
 *
 * A range of n pages contains a naturally aligned block of order
 * a = floor(log2(n + 1)) - 1, and a wholly free aligned block lies inside
 * one free buddy block (free buddies merge). So every run that can hold
 * the request holds a free node of order >= a: those anchors are taken
 * from the free bitmaps in address order (one cursor per order), each
 * anchor's run is grown block by block to both sides, and the anchors
 * inside a run that cannot hold it are skipped. A maximal free run is at
 * most two blocks of each order (no two free blocks are buddies), so one
 * run costs O(log^2 n) and the search O(anchors in the window * log^2 n).
 */
static bool contig_search_runs(struct vram_alloc *va, const struct contig_window *w,
                               uint32_t *start)
{
    uint32_t end = w->last + w->size;     /* no fitting range reaches past it */
    uint32_t anchor[VRAM_ORDERS] = { 0 }; /* per order: the next anchor not yet in a run */
    uint32_t run_end = w->first;          /* anchors up to here are looked at */
    unsigned int lowest_order = highest_bit(w->size + 1) - 1, k, anchor_order = 0;

    for (;;) {
        uint32_t first = NO_PAGE, i, at;

        /* A run that cannot hold it ends in a block in use, so no anchor starts at run_end. */
        for (k = lowest_order; k <= va->max_order; k++) {
            if (anchor[k] <= run_end)
                anchor[k] = next_free_node(va, k, run_end, end);
            if (anchor[k] < first) {
                first = anchor[k];
                anchor_order = k;
            }
        }
        if (first == NO_PAGE)
            return false;
        run_end = first + (1u << anchor_order);
        while (first > w->first && find_free_block(va, first - 1, &k, &i))
            first = i << k;
        if (first < w->first)
            first = w->first;

        /* Valid starts only grow from here: none left means none anywhere. */
        at = contig_fit(w, first);
        if (at > w->last)
            return false;
        while (run_end < at + w->size && run_end < end && find_free_block(va, run_end, &k, &i))
            run_end = (i + 1) << k;
        if (at + w->size <= run_end) {
            *start = at;
            return true;
        }
    }
}

int vram_alloc_contig(struct vram_alloc *va, const struct vram_contig *req, uint64_t *offset)
{
    struct contig_window w;
    unsigned int k, min_order;
    uint32_t start, index;
    int err;

    if (!va || !va->words || !req || !offset)
        return VRAM_ERR_INVALID;
    err = contig_window(va, req, &w);
    if (err)
        return err;

    /*
     * Serve the request from one free block that holds its rounded-up
     * size and alignment (alignment beyond the largest block only admits
     * page 0, which the largest order covers).
     */
    min_order = order_to_hold(w.size);
    if (w.align > (1u << va->max_order))
        k = va->max_order;
    else
        k = order_of_pages(w.align);
    if (k > min_order)
        min_order = k;

    for (k = min_order; k <= va->max_order; k++) {
        va->steps++;
        if (!contig_search_order(va, &w, k, &index, &start))
            continue;
        node_remove_free(va, k, index);
        carve(va, k, index, start, start + w.size);
        *offset = pages_to_bytes(start);
        return VRAM_OK;
    }
    if (!contig_search_runs(va, &w, &start))
        return VRAM_ERR_NO_MEMORY;
    /* Every page of the run is free, so taking it exactly cannot fail. */
    err = vram_alloc_reserve(va, pages_to_bytes(start), pages_to_bytes(w.size));
    if (err)
        return err;
    *offset = pages_to_bytes(start);
    return VRAM_OK;
}

int vram_alloc_free_block(struct vram_alloc *va, uint64_t offset, uint64_t *size)
{
    uint32_t page;
    unsigned int k = 0;
    int err;

    if (!va || !va->words)
        return VRAM_ERR_INVALID;
    err = page_of(va, offset, &page);
    if (!err)
        err = locate_block(va, page, &k);
    if (err)
        return err;
    release_block(va, k, page >> k);
    if (size)
        *size = pages_to_bytes(1u << k);
    return VRAM_OK;
}

/*
 * Visit the allocated blocks that tile [first, end); with release, free
 * them. Freeing one never merges into a later one: merges stop at blocks
 * that are still allocated.
 */
static int walk_range(struct vram_alloc *va, uint32_t first, uint32_t end, bool release)
{
    uint32_t page;
    unsigned int k = 0;
    int err;

    for (page = first; page < end; page += 1u << k) {
        err = locate_block(va, page, &k);
        if (err)
            return err;
        if (end - page < 1u << k) /* the block overhangs the range */
            return VRAM_ERR_INVALID;
        if (release)
            release_block(va, k, page >> k);
    }
    return VRAM_OK;
}

int vram_alloc_free_range(struct vram_alloc *va, uint64_t offset, uint64_t size)
{
    uint32_t first, end;
    int err;

    if (!va || !va->words)
        return VRAM_ERR_INVALID;
    err = range_of(va, offset, size, &first, &end);
    if (!err)
        err = walk_range(va, first, end, false);
    if (err)
        return err;
    return walk_range(va, first, end, true);
}

void vram_alloc_stats(const struct vram_alloc *va, struct vram_stats *stats)
{
    unsigned int k;

    if (!stats)
        return;
    memset(stats, 0, sizeof(*stats));
    if (!va || !va->words)
        return;
    stats->segment_bytes = pages_to_bytes(va->pages);
    stats->free_bytes = pages_to_bytes(va->free_pages);
    stats->used_bytes = stats->segment_bytes - stats->free_bytes;
    stats->used_blocks = va->used_blocks;
    for (k = 0; k <= va->max_order; k++) {
        stats->free_blocks += va->free_blocks[k];
        if (va->free_blocks[k])
            stats->largest_free = pages_to_bytes(1u << k);
    }
}

const char *vram_alloc_strerror(int err)
{
    switch (err) {
    case VRAM_OK:
        return "ok";
    case VRAM_ERR_INVALID:
        return "invalid argument";
    case VRAM_ERR_NO_MEMORY:
        return "no memory";
    case VRAM_ERR_CONSTRAINT:
        return "constraints cannot be met";
    case VRAM_ERR_NOT_ALLOCATED:
        return "not an allocated block";
    case VRAM_ERR_BUSY:
        return "range in use";
    case VRAM_ERR_ARRAY_FULL:
        return "block array too small";
    default:
        return "unknown error";
    }
}
