// SPDX-License-Identifier: Apache-2.0
/*
 * The random numbers of the engine, MMU and paging testbenches: one
 * xorshift64* generator, so that a seed means the same sequence wherever it
 * is given and a failing run can be repeated from its seed alone.
 */
#ifndef GMMU_TESTS_COMMON_TB_RNG_H
#define GMMU_TESTS_COMMON_TB_RNG_H

#include <stdbool.h>
#include <stdint.h>

struct rng {
    uint64_t s;
};
static inline uint64_t rng_next(struct rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * UINT64_C(2685821657736338717);
}
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
    return n ? rng_next(r) % n : 0;
}
static inline bool rng_chance(struct rng *r, unsigned percent)
{
    return rng_below(r, 100) < percent;
}
/* The + 1 keeps seed 0 off the all-zero state, where xorshift would stay. */
static inline void rng_seed(struct rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 1;
}

#endif /* GMMU_TESTS_COMMON_TB_RNG_H */
