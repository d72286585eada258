// SPDX-License-Identifier: Apache-2.0
/*
 * Random page tables for the MMU testbench, built in the DDR model's memory
 * through its backdoor.
 *
 * Every table is pointed at by exactly one entry (or an address-space root),
 * so changing one entry changes the translations of one VA range of one
 * address space only, which is what the invalidation the test then issues
 * covers. Entries that are not meant to lead to a real table (garbage,
 * large pages, zero entries) only ever hold "safe" addresses: in the junk
 * area (random entries that themselves hold safe addresses and never
 * change) or beyond the end of the DDR. So flipping a bit of any entry can
 * never make it point at a live table.
 */
#ifndef GMMU_TESTS_MMU_PT_H
#define GMMU_TESTS_MMU_PT_H

#include <stdbool.h>
#include <stdint.h>

#include "sparse_mem.h"
#include "tb.h"

/* A VA range worth asking about. */
struct pt_map {
    uint32_t asid;
    unsigned shift;
    uint64_t va;
};

/* Where a walk reads: used to pick an entry to change. */
enum pt_kind { PT_UPPER, PT_DUAL0, PT_DUAL1, PT_LEAF4K, PT_LEAF64K };

struct pt_step {
    enum pt_kind kind;
    unsigned level;
    uint64_t addr;  /* DDR offset of the word */
    unsigned shift; /* log2 of the VA range the word governs */
};

struct pt {
    struct sparse_mem *mem;
    struct rng *rng;
    unsigned levels;
    uint64_t ddr_size;
    uint64_t next, limit; /* table allocator */
    uint64_t l64_page, l64_used;
    uint64_t junk_lo, junk_hi; /* random, safe, never changed */
    uint64_t err_lo, err_hi;   /* reads fail here (the test injects the error) */
    unsigned popular[4][4];    /* favourite table indices, shared by address spaces */
    unsigned density;          /* 0: full random tables, 1: small ones (for changes) */
    bool no_maps;              /* do not record maps (trees that will be undone) */
    struct pt_map *maps;
    unsigned n_maps, cap_maps;
    uint64_t tables;
};

void pt_init(struct pt *pt, struct sparse_mem *mem, struct rng *rng, unsigned levels,
             uint64_t ddr_size, uint64_t table_lo, uint64_t table_hi);
void pt_fini(struct pt *pt);

/* A new random tree for address space asid; returns the root offset. */
uint64_t pt_build_root(struct pt *pt, uint32_t asid);

/* The words a walk of va reads, in order (at most 8). */
unsigned pt_path(const struct pt *pt, uint64_t root, uint64_t va, struct pt_step *steps);

/* A changed value for the word of one step (may build a new subtree). */
uint64_t pt_mutate(struct pt *pt, uint32_t asid, const struct pt_step *step, uint64_t va,
                   uint64_t old);

/* A random VA of address space asid from the maps (or anywhere). */
uint64_t pt_random_va(struct pt *pt, uint32_t *asid_inout, bool any_asid);

/* An address that is safe to put in any entry (see above). */
uint64_t pt_safe_addr(struct pt *pt);

bool pt_full(const struct pt *pt);

#endif /* GMMU_TESTS_MMU_PT_H */
