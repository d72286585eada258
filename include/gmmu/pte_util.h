// SPDX-License-Identifier: Apache-2.0
/* Build and decode page-table entry words and walk geometry.
 *
 * Everything here is derived from the masks and constants that
 * tools/gendefs.py generates into pte.h from include/defs/pte.toml, so a
 * change of layout there reaches firmware, tests and the reference model
 * without touching this file. Freestanding C11: usable in the RISC-V
 * firmware as well as on the host. See docs/page-tables.md.
 */
#ifndef GMMU_PTE_UTIL_H
#define GMMU_PTE_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "pte.h"

/* The per-page attribute bits a page (or zero) entry may carry. */
#define GMMU_PTE_PAGE_ATTRS \
    (GMMU_PTE_CACHE_COHERENT | GMMU_PTE_READ_ONLY | GMMU_PTE_NO_EXECUTE)

/* ------------------------------------------------------------ raw fields */

static inline uint64_t gmmu_pte_get_field(uint64_t pte, uint64_t mask, unsigned lsb)
{
    return (pte & mask) >> lsb;
}

/* Bits of value that do not fit the field are dropped. */
static inline uint64_t gmmu_pte_put_field(uint64_t value, uint64_t mask, unsigned lsb)
{
    return (value << lsb) & mask;
}

/* ---------------------------------------------------------------- decode */

static inline bool gmmu_pte_is_valid(uint64_t pte)
{
    return (pte & GMMU_PTE_VALID) != 0;
}

static inline bool gmmu_pte_is_zero(uint64_t pte)
{
    return (pte & GMMU_PTE_ZERO) != 0;
}

static inline bool gmmu_pte_is_large_page(uint64_t pte)
{
    return (pte & GMMU_PTE_LARGE_PAGE) != 0;
}

static inline bool gmmu_pte_is_cache_coherent(uint64_t pte)
{
    return (pte & GMMU_PTE_CACHE_COHERENT) != 0;
}

static inline bool gmmu_pte_is_read_only(uint64_t pte)
{
    return (pte & GMMU_PTE_READ_ONLY) != 0;
}

static inline bool gmmu_pte_is_no_execute(uint64_t pte)
{
    return (pte & GMMU_PTE_NO_EXECUTE) != 0;
}

static inline bool gmmu_pte_is_table_64k(uint64_t pte)
{
    return (pte & GMMU_PTE_TABLE_64K) != 0;
}

/* Byte address (offset within the segment) the entry points at. */
static inline uint64_t gmmu_pte_addr(uint64_t pte)
{
    return gmmu_pte_get_field(pte, GMMU_PTE_ADDR, GMMU_PTE_ADDR_LSB) << GMMU_ADDR_SHIFT;
}

static inline unsigned gmmu_pte_segment(uint64_t pte)
{
    return (unsigned)gmmu_pte_get_field(pte, GMMU_PTE_SEGMENT, GMMU_PTE_SEGMENT_LSB);
}

/* ----------------------------------------------------------------- build */

/* The ADDR field for a byte address. The field cannot hold the address bits
 * below GMMU_ADDR_SHIFT, so they are dropped. */
static inline uint64_t gmmu_pte_addr_bits(uint64_t byte_addr)
{
    return gmmu_pte_put_field(byte_addr >> GMMU_ADDR_SHIFT, GMMU_PTE_ADDR, GMMU_PTE_ADDR_LSB);
}

static inline uint64_t gmmu_pte_segment_bits(unsigned segment)
{
    return gmmu_pte_put_field(segment, GMMU_PTE_SEGMENT, GMMU_PTE_SEGMENT_LSB);
}

/* Pointer to a next-level table. Tables always live in local VRAM. */
static inline uint64_t gmmu_pte_make_table(uint64_t table_offset)
{
    return GMMU_PTE_VALID | gmmu_pte_addr_bits(table_offset) |
           gmmu_pte_segment_bits(GMMU_SEGMENT_VRAM);
}

/* Level-1 word 1: pointer to a 64 KB-page leaf table. TABLE_64K is only
 * informational (the slot decides) but keeps the word self-describing. */
static inline uint64_t gmmu_pte_make_table_64k(uint64_t table_offset)
{
    return gmmu_pte_make_table(table_offset) | GMMU_PTE_TABLE_64K;
}

/* Leaf entry mapping one page (4 KB or 64 KB by the table it sits in).
 * attrs: any of GMMU_PTE_PAGE_ATTRS; other bits are ignored. */
static inline uint64_t gmmu_pte_make_page(uint64_t page_addr, unsigned segment, uint64_t attrs)
{
    return GMMU_PTE_VALID | (attrs & GMMU_PTE_PAGE_ATTRS) |
           gmmu_pte_addr_bits(page_addr) | gmmu_pte_segment_bits(segment);
}

/* Level-1 (2 MB) or level-2 (1 GB) entry mapping memory directly. The page
 * address must be aligned to the page size: the MMU ignores the low bits. */
static inline uint64_t gmmu_pte_make_large_page(uint64_t page_addr, unsigned segment,
                                                uint64_t attrs)
{
    return gmmu_pte_make_page(page_addr, segment, attrs) | GMMU_PTE_LARGE_PAGE;
}

/* Entry whose whole range reads as zero and drops writes. attrs still apply:
 * a READ_ONLY zero entry faults writes instead of dropping them. */
static inline uint64_t gmmu_pte_make_zero(uint64_t attrs)
{
    return GMMU_PTE_VALID | GMMU_PTE_ZERO | (attrs & GMMU_PTE_PAGE_ATTRS);
}

/* -------------------------------------------------------------- geometry */

static inline unsigned gmmu_va_bits(unsigned levels)
{
    return GMMU_PAGE_SHIFT_4K + GMMU_INDEX_BITS * levels;
}

/* log2 of the VA range one entry of the given level covers. */
static inline unsigned gmmu_level_shift(unsigned level)
{
    return GMMU_PAGE_SHIFT_4K + GMMU_INDEX_BITS * level;
}

/* Index into a 512-entry table of the given level. */
static inline unsigned gmmu_va_index(uint64_t va, unsigned level)
{
    return (unsigned)((va >> gmmu_level_shift(level)) & ((1u << GMMU_INDEX_BITS) - 1u));
}

/* Index into a 32-entry 64 KB-page leaf table. */
static inline unsigned gmmu_va_index_64k(uint64_t va)
{
    return (unsigned)((va >> GMMU_PAGE_SHIFT_64K) & (GMMU_LEAF64K_ENTRIES - 1u));
}

#endif /* GMMU_PTE_UTIL_H */
