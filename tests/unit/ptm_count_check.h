// SPDX-License-Identifier: Apache-2.0
/*
 * The page-table manager's valid-entry counts against the tables: walks
 * the tables reachable from an address space's root whose reach overlaps
 * a VA range (all of them for the whole space) through the test's own
 * read of VRAM (not the manager's), counts the valid words of each, and
 * fails when ptm_valid_count() says otherwise. A command writes only
 * tables that cover its range, so checking those after each command (and
 * everything now and then) checks every count after every command. The slots of a 64 KB-page
 * table block that hold no table must count 0 (the manager finds an empty
 * block by them). Shared by test_ptmgr.c and test_ptmgr_diff.c (cmocka
 * included before it).
 */
#ifndef PTM_COUNT_CHECK_H
#define PTM_COUNT_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "gmmu/pte.h"
#include "ptmgr.h"

/* Reads the VRAM word at off; 0 on success (gmmu_ref's read callback). */
typedef int (*count_check_read_fn)(void *ctx, uint64_t off, uint64_t *value);

struct count_check {
    const struct ptm *pm;
    count_check_read_fn read;
    void *ctx;
    const char *name;
    uint64_t lo, hi; /* VA range whose tables are checked, inclusive */
    unsigned tables; /* checked */
};

static uint64_t count_check_word(const struct count_check *c, uint64_t off)
{
    uint64_t w = 0;

    if (c->read(c->ctx, off, &w))
        fail_msg("%s: table word 0x%llx outside VRAM", c->name, (unsigned long long)off);
    return w;
}

static bool count_check_is_table(uint64_t e)
{
    return (e & GMMU_PTE_VALID) && !(e & (GMMU_PTE_ZERO | GMMU_PTE_LARGE_PAGE));
}

/* The valid words of the table at off against the manager's count. */
static void count_check_table(struct count_check *c, uint64_t off, unsigned words, bool leaf64k)
{
    uint32_t valid = 0, kept = ptm_valid_count(c->pm, off, leaf64k);

    for (unsigned i = 0; i < words; i++)
        valid += (count_check_word(c, off + 8ull * i) & GMMU_PTE_VALID) != 0;
    if (valid != kept)
        fail_msg("%s: table 0x%llx holds %u valid words, its count says %u", c->name,
                 (unsigned long long)off, valid, kept);
    c->tables++;
}

/* Whether [va, va + span) meets the range checked. */
static bool count_check_meets(const struct count_check *c, uint64_t va, uint64_t span)
{
    return va <= c->hi && va + (span - 1) >= c->lo;
}

static void count_check_dual(struct count_check *c, uint64_t off, uint64_t va)
{
    count_check_table(c, off, 2 * 512, false);
    for (unsigned w = 0; w < 32; w++) {
        uint64_t slab = UINT64_MAX;
        uint16_t used = 0;

        if (!count_check_meets(c, va + ((uint64_t)w << 25), 1ull << 25))
            continue;
        for (unsigned j = 0; j < 16; j++) {
            uint64_t e = off + 16ull * (16 * w + j);
            uint64_t w0 = count_check_word(c, e), w1 = count_check_word(c, e + 8);

            if (count_check_is_table(w0))
                count_check_table(c, w0 & GMMU_PTE_ADDR, 512, false);
            if (!count_check_is_table(w1))
                continue;
            count_check_table(c, w1 & GMMU_PTE_ADDR, 32, true);
            slab = (w1 & GMMU_PTE_ADDR) & ~4095ull;
            used |= (uint16_t)(1u << j);
        }
        for (unsigned j = 0; slab != UINT64_MAX && j < 16; j++)
            if (!(used & (1u << j)) && ptm_valid_count(c->pm, slab + 256ull * j, true))
                fail_msg("%s: free 64 KB-page table slot 0x%llx counts %u", c->name,
                         (unsigned long long)(slab + 256ull * j),
                         ptm_valid_count(c->pm, slab + 256ull * j, true));
    }
}

/* The table of level `level` at off, which maps VA from va. */
static void count_check_level(struct count_check *c, unsigned level, uint64_t off, uint64_t va)
{
    unsigned shift = 12 + 9 * level;

    if (level == 1) {
        count_check_dual(c, off, va);
        return;
    }
    count_check_table(c, off, 512, false);
    for (unsigned i = 0; i < 512; i++) {
        uint64_t e = count_check_word(c, off + 8ull * i), at = va + ((uint64_t)i << shift);

        if (count_check_is_table(e) && count_check_meets(c, at, 1ull << shift))
            count_check_level(c, level - 1, e & GMMU_PTE_ADDR, at);
    }
}

/* The tables of pm that cover some of [lo, hi] (the root always); returns
 * how many were checked. */
static unsigned check_table_counts_in(const struct ptm *pm, count_check_read_fn read, void *ctx,
                                      const char *name, uint64_t lo, uint64_t hi)
{
    struct count_check c = { .pm = pm, .read = read, .ctx = ctx, .name = name, .lo = lo, .hi = hi };

    count_check_level(&c, pm->levels - 1u, ptm_root(pm), 0);
    return c.tables;
}

/* Every table of pm. */
static unsigned check_table_counts(const struct ptm *pm, count_check_read_fn read, void *ctx,
                                   const char *name)
{
    return check_table_counts_in(pm, read, ctx, name, 0, UINT64_MAX);
}

#endif
