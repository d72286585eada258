// SPDX-License-Identifier: Apache-2.0
/* Reference model of GpuMmu address translation.
 *
 * The independent expectation that the RTL testbench, the page-table
 * manager tests and the differential test compare against. It is written to
 * be obviously correct, not fast: one walk per call, no caching. The rules
 * it implements are the prose of docs/page-tables.md.
 */
#ifndef GMMU_REF_H
#define GMMU_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "gmmu/pte.h"

/* Reads one little-endian 64-bit word at an 8-byte aligned VRAM offset.
 * Returns 0 on success, nonzero for a bus error. */
typedef int (*gmmu_ref_read64_fn)(void *ctx, uint64_t vram_offset, uint64_t *value);

struct gmmu_ref_config {
    unsigned levels; /* 2..4; the root table is level levels-1 */
};

/* On a fault only fault, level and reads are meaningful; every other field
 * is zero, so results compare field by field. */
struct gmmu_ref_result {
    enum gmmu_fault fault;
    bool zero;   /* terminal entry was ZERO: reads give 0, writes are dropped */
    uint64_t pa; /* byte address within segment; 0 when zero */
    unsigned segment;
    unsigned page_shift; /* log2 of the range the terminal entry maps */
    bool cache_coherent;
    bool read_only;
    bool no_execute;
    unsigned level; /* level of the entry that ended the walk (0 = leaf) */
    unsigned reads; /* 8-byte table words read; a level-1 dual entry is 2 */
};

/* Translate va for one access through the tables rooted at root_offset
 * (a VRAM offset). root_valid is the address space's table entry state. */
void gmmu_ref_translate(const struct gmmu_ref_config *config, gmmu_ref_read64_fn read64, void *ctx,
                        bool root_valid, uint64_t root_offset, uint64_t va, enum gmmu_access access,
                        struct gmmu_ref_result *out);

/* "NONE", "INVALID", ... for test messages; "?" for unknown values. */
const char *gmmu_ref_fault_name(enum gmmu_fault fault);

#endif /* GMMU_REF_H */
