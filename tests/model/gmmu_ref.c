// SPDX-License-Identifier: Apache-2.0
/* Reference model of GpuMmu address translation. The rules are spelled out
 * in docs/page-tables.md ("Translation"); this file follows them step by
 * step and is kept deliberately plain so it can serve as the expectation.
 */
#include "gmmu_ref.h"

#include <assert.h>

#include "gmmu/pte_util.h"

#define LEVEL_LEAF       0u
#define LEVEL_DUAL       1u /* level 1: 16-byte dual entries */
#define LEVEL_MIN        2u
#define LEVEL_MAX        4u
#define DUAL_ENTRY_BYTES (GMMU_L1_ENTRY_WORDS * GMMU_PTE_BYTES)

/* State of one walk, so the steps below need not pass six arguments. */
struct walk {
    gmmu_ref_read64_fn read64;
    void *ctx;
    uint64_t va;
    enum gmmu_access access;
    struct gmmu_ref_result *out;
};

static void fault(struct walk *w, enum gmmu_fault reason, unsigned level)
{
    w->out->fault = reason;
    w->out->level = level;
}

/* Every table read is counted, including one that fails, because the
 * hardware has spent the bus cycle either way. */
static bool read_table_word(struct walk *w, unsigned level, uint64_t offset, uint64_t *word)
{
    w->out->reads++;
    if (w->read64(w->ctx, offset, word) != 0) {
        fault(w, GMMU_FAULT_BUS_ERROR, level);
        return false;
    }
    return true;
}

static bool access_allowed(enum gmmu_access access, uint64_t entry)
{
    if (access == GMMU_ACCESS_WRITE && gmmu_pte_is_read_only(entry))
        return false;
    if (access == GMMU_ACCESS_EXECUTE && gmmu_pte_is_no_execute(entry))
        return false;
    return true;
}

static enum gmmu_fault permission_fault(enum gmmu_access access)
{
    return access == GMMU_ACCESS_WRITE ? GMMU_FAULT_READ_ONLY : GMMU_FAULT_NO_EXECUTE;
}

/* The walk ends at entry, which maps (or zeroes) 2^page_shift bytes. */
static void terminal(struct walk *w, uint64_t entry, unsigned level, unsigned page_shift)
{
    struct gmmu_ref_result *out = w->out;
    uint64_t offset_mask = (UINT64_C(1) << page_shift) - 1;

    if (!access_allowed(w->access, entry)) {
        fault(w, permission_fault(w->access), level);
        return;
    }
    out->level = level;
    out->page_shift = page_shift;
    out->zero = gmmu_pte_is_zero(entry);
    /* AllowNonAlignedLargePageAddress = 0: low address bits are ignored,
     * not faulted; keeping them aligned is the firmware's job. */
    out->pa = out->zero ? 0 : (gmmu_pte_addr(entry) & ~offset_mask) | (w->va & offset_mask);
    out->segment = gmmu_pte_segment(entry);
    out->cache_coherent = gmmu_pte_is_cache_coherent(entry);
    out->read_only = gmmu_pte_is_read_only(entry);
    out->no_execute = gmmu_pte_is_no_execute(entry);
}

/* Tables are only ever in local VRAM; a pointer elsewhere is malformed. */
static bool follow_table_pointer(struct walk *w, uint64_t entry, unsigned level, uint64_t *table)
{
    if (gmmu_pte_segment(entry) != GMMU_SEGMENT_VRAM) {
        fault(w, GMMU_FAULT_INVALID, level);
        return false;
    }
    *table = gmmu_pte_addr(entry);
    return true;
}

/* One entry of a 4 KB or 64 KB leaf table, already known to be valid. */
static void leaf_terminal(struct walk *w, uint64_t entry, unsigned page_shift)
{
    if (!gmmu_pte_is_zero(entry) && gmmu_pte_is_large_page(entry)) {
        fault(w, GMMU_FAULT_INVALID, LEVEL_LEAF);
        return;
    }
    terminal(w, entry, LEVEL_LEAF, page_shift);
}

/* Levels 2 and up. Returns true with *next_table set when the walk goes on
 * down; otherwise the walk has ended (terminal or fault). */
static bool step_upper_level(struct walk *w, uint64_t table, unsigned level, uint64_t *next_table)
{
    uint64_t entry;
    uint64_t offset = table + (uint64_t)gmmu_va_index(w->va, level) * GMMU_PTE_BYTES;

    if (!read_table_word(w, level, offset, &entry))
        return false;
    if (!gmmu_pte_is_valid(entry)) {
        fault(w, GMMU_FAULT_INVALID, level);
        return false;
    }
    if (gmmu_pte_is_zero(entry)) {
        terminal(w, entry, level, gmmu_level_shift(level));
        return false;
    }
    if (gmmu_pte_is_large_page(entry)) {
        if (level <= GMMU_LARGE_PAGE_MAX_LEVEL)
            terminal(w, entry, level, gmmu_level_shift(level));
        else
            fault(w, GMMU_FAULT_INVALID, level);
        return false;
    }
    return follow_table_pointer(w, entry, level, next_table);
}

/* Looks up one leaf table. Returns true when the walk has ended (terminal
 * or fault); false when the leaf entry is not valid and the other slot of
 * the dual entry may still map the address. */
static bool try_leaf_table(struct walk *w, uint64_t pointer, uint64_t offset_in_table,
                           unsigned page_shift)
{
    uint64_t table, entry;

    if (!follow_table_pointer(w, pointer, LEVEL_DUAL, &table))
        return true;
    if (!read_table_word(w, LEVEL_LEAF, table + offset_in_table, &entry))
        return true;
    if (!gmmu_pte_is_valid(entry))
        return false;
    leaf_terminal(w, entry, page_shift);
    return true;
}

static bool try_4k_slot(struct walk *w, uint64_t word0)
{
    uint64_t offset = (uint64_t)gmmu_va_index(w->va, LEVEL_LEAF) * GMMU_PTE_BYTES;
    return try_leaf_table(w, word0, offset, GMMU_PAGE_SHIFT_4K);
}

static bool try_64k_slot(struct walk *w, uint64_t word1)
{
    uint64_t offset = (uint64_t)gmmu_va_index_64k(w->va) * GMMU_PTE_BYTES;

    if (gmmu_pte_is_zero(word1)) {
        terminal(w, word1, LEVEL_DUAL, gmmu_level_shift(LEVEL_DUAL));
        return true;
    }
    /* Word 1 has no large-page meaning: 2 MB pages belong in word 0. */
    if (gmmu_pte_is_large_page(word1)) {
        fault(w, GMMU_FAULT_INVALID, LEVEL_DUAL);
        return true;
    }
    return try_leaf_table(w, word1, offset, GMMU_PAGE_SHIFT_64K);
}

/* Level 1: word 0 is a 2 MB page or the 4 KB-page table, word 1 the 64 KB-page
 * table. Both words are read as one 16-byte entry before either is used. */
static void step_dual_level(struct walk *w, uint64_t table)
{
    uint64_t word0, word1;
    uint64_t offset = table + (uint64_t)gmmu_va_index(w->va, LEVEL_DUAL) * DUAL_ENTRY_BYTES;
    bool looked_at_leaf = false;

    if (!read_table_word(w, LEVEL_DUAL, offset, &word0) ||
        !read_table_word(w, LEVEL_DUAL, offset + GMMU_PTE_BYTES, &word1))
        return;

    if (gmmu_pte_is_valid(word0) && (gmmu_pte_is_zero(word0) || gmmu_pte_is_large_page(word0))) {
        terminal(w, word0, LEVEL_DUAL, gmmu_level_shift(LEVEL_DUAL));
        return;
    }
    /* Where both slots map the address, the 4 KB page wins. */
    if (gmmu_pte_is_valid(word0)) {
        if (try_4k_slot(w, word0))
            return;
        looked_at_leaf = true;
    }
    if (gmmu_pte_is_valid(word1)) {
        if (try_64k_slot(w, word1))
            return;
        looked_at_leaf = true;
    }
    fault(w, GMMU_FAULT_INVALID, looked_at_leaf ? LEVEL_LEAF : LEVEL_DUAL);
}

void gmmu_ref_translate(const struct gmmu_ref_config *config, gmmu_ref_read64_fn read64, void *ctx,
                        bool root_valid, uint64_t root_offset, uint64_t va, enum gmmu_access access,
                        struct gmmu_ref_result *out)
{
    struct walk w = { .read64 = read64, .ctx = ctx, .va = va, .access = access, .out = out };
    unsigned root_level = config->levels - 1;
    uint64_t table = root_offset;

    assert(config->levels >= LEVEL_MIN && config->levels <= LEVEL_MAX);
    *out = (struct gmmu_ref_result){ .fault = GMMU_FAULT_NONE };

    if ((va >> gmmu_va_bits(config->levels)) != 0) {
        fault(&w, GMMU_FAULT_VA_RANGE, root_level);
        return;
    }
    if (!root_valid) {
        fault(&w, GMMU_FAULT_ASID_INVALID, root_level);
        return;
    }
    for (unsigned level = root_level; level > LEVEL_DUAL; level--) {
        if (!step_upper_level(&w, table, level, &table))
            return;
    }
    step_dual_level(&w, table);
}

const char *gmmu_ref_fault_name(enum gmmu_fault fault)
{
    switch (fault) {
    case GMMU_FAULT_NONE:
        return "NONE";
    case GMMU_FAULT_INVALID:
        return "INVALID";
    case GMMU_FAULT_READ_ONLY:
        return "READ_ONLY";
    case GMMU_FAULT_NO_EXECUTE:
        return "NO_EXECUTE";
    case GMMU_FAULT_BUS_ERROR:
        return "BUS_ERROR";
    case GMMU_FAULT_ASID_INVALID:
        return "ASID_INVALID";
    case GMMU_FAULT_VA_RANGE:
        return "VA_RANGE";
    }
    return "?";
}
