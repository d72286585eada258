// SPDX-License-Identifier: Apache-2.0
#ifndef GMMU_DDR_SELFTEST_H
#define GMMU_DDR_SELFTEST_H

#include <stdint.h>

struct ddr_selftest_result {
    uint32_t words_checked;
    uint32_t errors;
    uint32_t first_bad_offset;
    uint32_t first_bad_expected;
    uint32_t first_bad_actual;
};

/* Writes and reads back DDR through the AXI path: 8-, 16- and 32-bit
   accesses on the uncached alias, cache-line bursts through the cached
   alias, and an address-line walk over the whole DDR size. */
void ddr_selftest_run(struct ddr_selftest_result *result);

#endif
