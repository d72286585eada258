/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reference model of the paging engine's packets, written from the packet
 * definition (include/gmmu/paging.h, docs/paging-engine.md) and nothing
 * else: it validates a packet and executes it on two C memories, one word
 * at a time and in queue order, as the engine must appear to.
 */
#ifndef GMMU_TESTS_PAGING_REF_H
#define GMMU_TESTS_PAGING_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "sparse_mem.h"

struct ref_cfg {
    unsigned queue_words, asid_bits;
    uint64_t ddr_size; /* the engine's ddr_size_i */
    uint64_t sys_base; /* system memory modelled: [sys_base, sys_base + size of sys) */
};

struct ref_flush {
    unsigned type;
    uint64_t asid, first_page, last_page;
};

#define REF_MAX_FLUSHES 4096u

struct ref {
    struct ref_cfg cfg;
    struct sparse_mem *ddr, *sys; /* expected contents */
    uint64_t fence_value;
    bool fence_irq; /* a FENCE with FENCE_IRQ passed */
    unsigned fences;
    struct ref_flush flushes[REF_MAX_FLUSHES];
    unsigned n_flushes;
};

/* Words of the packet whose header is hdr (operands and literal entries). */
unsigned ref_packet_words(uint64_t hdr);

/* 0 (NONE) when the packet is valid, else GMMU_PAGING_ERR_MALFORMED or _RANGE. */
unsigned ref_validate(const struct ref_cfg *c, const uint64_t *w);

/* Executes a valid packet on the expected memories. */
void ref_exec(struct ref *r, const uint64_t *w);

uint64_t ref_read(const struct ref *r, bool sys, uint64_t addr);
void ref_write(struct ref *r, bool sys, uint64_t addr, uint64_t v);

#endif /* GMMU_TESTS_PAGING_REF_H */
