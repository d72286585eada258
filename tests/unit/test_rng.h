// SPDX-License-Identifier: Apache-2.0
/*
 * The random numbers of the differential unit tests (test_ptmgr_diff.c,
 * test_vidmm_diff.c): Marsaglia's xorshift64 (shifts 13, 7, 17). The test
 * defines the state, static uint64_t rng, with its default seed before it
 * includes this header, and may reseed it (never with 0, where it would
 * stay).
 */
#ifndef GMMU_TESTS_UNIT_TEST_RNG_H
#define GMMU_TESTS_UNIT_TEST_RNG_H

#include <stdbool.h>
#include <stdint.h>

static inline uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Uniform enough in [0, n); 0 for n == 0. */
static inline uint64_t below(uint64_t n)
{
    return n ? rnd() % n : 0;
}

static inline bool chance(unsigned percent)
{
    return below(100) < percent;
}

#endif /* GMMU_TESTS_UNIT_TEST_RNG_H */
