// SPDX-License-Identifier: Apache-2.0
#include "ddr_selftest.h"

#include "hal.h"

#define REGION_OFFSET 0x00100000u /* 1 MiB in: clear of the first page tables */
#define REGION_WORDS  1024u       /* 4 KiB: 128 cache lines */

/* A value no stuck bit, swapped byte or aliased address reproduces. */
static uint32_t pattern(uint32_t offset, uint32_t seed)
{
    uint32_t x = offset * 0x9E3779B1u ^ seed;
    x ^= x >> 15;
    return x * 0x85EBCA77u;
}

static void check(struct ddr_selftest_result *r, uint32_t offset, uint32_t expected,
                  uint32_t actual)
{
    r->words_checked++;
    if (expected == actual)
        return;
    if (r->errors++ == 0) {
        r->first_bad_offset = offset;
        r->first_bad_expected = expected;
        r->first_bad_actual = actual;
    }
}

/* 32-bit stores, read back with 32-bit loads on the uncached alias. */
static void test_words(struct ddr_selftest_result *r, uint32_t seed)
{
    volatile uint32_t *ddr = hal_ddr_uncached(REGION_OFFSET);
    for (uint32_t i = 0; i < REGION_WORDS; i++)
        ddr[i] = pattern(REGION_OFFSET + 4 * i, seed);
    for (uint32_t i = 0; i < REGION_WORDS; i++)
        check(r, REGION_OFFSET + 4 * i, pattern(REGION_OFFSET + 4 * i, seed), ddr[i]);
}

/* Byte and half-word stores must touch only their lanes: build each word
   from narrow stores, then read it back whole, and narrow loads back too. */
static void test_narrow(struct ddr_selftest_result *r, uint32_t seed)
{
    volatile uint8_t *bytes = hal_ddr_uncached(REGION_OFFSET);
    volatile uint16_t *halves = hal_ddr_uncached(REGION_OFFSET);
    volatile uint32_t *words = hal_ddr_uncached(REGION_OFFSET);
    for (uint32_t i = 0; i < REGION_WORDS; i++) {
        uint32_t v = pattern(REGION_OFFSET + 4 * i, seed);
        if (i & 1) {
            halves[2 * i] = (uint16_t)v;
            halves[2 * i + 1] = (uint16_t)(v >> 16);
        } else {
            for (uint32_t b = 0; b < 4; b++)
                bytes[4 * i + b] = (uint8_t)(v >> (8 * b));
        }
    }
    for (uint32_t i = 0; i < REGION_WORDS; i++) {
        uint32_t v = pattern(REGION_OFFSET + 4 * i, seed);
        check(r, REGION_OFFSET + 4 * i, v, words[i]);
        check(r, REGION_OFFSET + 4 * i + 2, v >> 16, halves[2 * i + 1]);
        check(r, REGION_OFFSET + 4 * i + 3, v >> 24, bytes[4 * i + 3]);
    }
}

/* Reads through the cached alias arrive as cache-line refills: AXI bursts. */
static void test_bursts(struct ddr_selftest_result *r, uint32_t seed)
{
    volatile uint32_t *ddr = hal_ddr_uncached(REGION_OFFSET);
    for (uint32_t i = 0; i < REGION_WORDS; i++)
        ddr[i] = pattern(REGION_OFFSET + 4 * i, seed);
    hal_dcache_invalidate();
    const volatile uint32_t *cached = hal_ddr_cached(REGION_OFFSET);
    for (uint32_t i = 0; i < REGION_WORDS; i++)
        check(r, REGION_OFFSET + 4 * i, pattern(REGION_OFFSET + 4 * i, seed), cached[i]);
}

/* One word at every power-of-two offset: a stuck or shorted address line
   makes two of them alias. */
static void test_address_lines(struct ddr_selftest_result *r, uint32_t seed)
{
    uint64_t size = hal_ddr_size();
    for (uint64_t off = 8; off < size; off <<= 1)
        *(volatile uint32_t *)hal_ddr_uncached(off) = pattern((uint32_t)off, seed);
    for (uint64_t off = 8; off < size; off <<= 1)
        check(r, (uint32_t)off, pattern((uint32_t)off, seed),
              *(volatile uint32_t *)hal_ddr_uncached(off));
}

void ddr_selftest_run(struct ddr_selftest_result *r)
{
    *r = (struct ddr_selftest_result){ 0 };
    test_words(r, 0x1234567u);
    test_narrow(r, 0xA5A5A5A5u);
    test_bursts(r, 0x0F1E2D3Cu);
    test_address_lines(r, 0x5EED5EEDu);
}
