// SPDX-License-Identifier: Apache-2.0
/* The MMU testbench programs (one binary, a subcommand each). */
#ifndef GMMU_TESTS_MMU_TESTS_H
#define GMMU_TESTS_MMU_TESTS_H

#include <stdbool.h>
#include <stdint.h>

#include "tb.h"

struct mmu_test_opts {
    uint64_t seed;
    uint64_t count;       /* translations to check (random) */
    unsigned ddr_latency; /* 0: test's choice */
    const char *trace;    /* FST path or NULL */
    const char *only;     /* directed: run only the test of this name */
    bool no_changes;      /* random: no page-table changes or invalidations */
    bool quiet;           /* random: the MMU left idle now and then (t-clock-gate) */
};

int mmu_test_random(const struct mmu_test_opts *o);
int mmu_test_directed(const struct mmu_test_opts *o);
int mmu_bench(const struct mmu_test_opts *o);

/* Reads the performance counters and checks them against what the
 * testbench counted; prints a summary. */
bool mmu_check_counters(struct tb *tb);

#endif /* GMMU_TESTS_MMU_TESTS_H */
