// SPDX-License-Identifier: Apache-2.0
/* GPU engine tests (tests.c), run by main.c. Each returns true on success. */
#ifndef GMMU_TESTS_ENGINE_TESTS_H
#define GMMU_TESTS_ENGINE_TESTS_H

#include <stdbool.h>
#include <stdint.h>

#include "tb.h"

bool test_directed(struct tb *tb);
bool test_random(struct tb *tb, unsigned count);
bool test_abort(struct tb *tb, unsigned count);
/* Physical mode (CTRL.PHYS): count random runs, the bound, and the
   throughput against the VA path for runs of tput_len bytes (0: none). */
bool test_phys(struct tb *tb, unsigned count, uint64_t tput_len);
/* Fails if a run of len bytes moves fewer than min_ratio beats per cycle. */
bool test_throughput(struct tb *tb, uint64_t len, double min_ratio);

#endif /* GMMU_TESTS_ENGINE_TESTS_H */
