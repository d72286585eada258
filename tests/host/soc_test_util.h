// SPDX-License-Identifier: Apache-2.0
/*
 * What the SoC host suites (tests/host/test_*_soc.c) do alike: open the
 * device that tests/host/with_sim_server.sh started, run a cmocka group on
 * one connection, and run an engine operation. Kept in one place so that a
 * change of the simulated SoC's timing or of ENGINE_RUN reaches every suite.
 */
#ifndef GMMU_TESTS_HOST_SOC_TEST_UTIL_H
#define GMMU_TESTS_HOST_SOC_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "libgmmu.h"

/* Opens GMMU_DEVICE with a timeout long enough for page-table commands on
 * the simulated SoC. 0, or -1 when there is no device or it does not open. */
int soc_open(struct gmmu_dev **dev);

/* Runs a cmocka group whose tests share *dev: opened (soc_open) before the
 * first test, closed after the last. */
int soc_run_group(const char *name, const struct CMUnitTest *tests, size_t count,
                  struct gmmu_dev **dev);
#define soc_run_tests(tests, dev) \
    soc_run_group(#tests, tests, sizeof(tests) / sizeof((tests)[0]), dev)

/* An allocation of size bytes (alloc_flags: GMMU_ALLOC_FLAG_*) mapped whole
 * into the address space as (map_flags, page_sizes as in gmmu_map_req);
 * either failing fails the test. base is the allocation's VRAM address. */
struct soc_buffer {
    uint32_t alloc;
    uint64_t base, va;
};
struct soc_buffer soc_make_buffer(struct gmmu_dev *dev, uint32_t as, uint64_t size,
                                  uint32_t alloc_flags, uint32_t map_flags, uint32_t pages);

/* One ENGINE_RUN; a call that fails (not a run that faults) fails the test. */
struct gmmu_engine_rsp soc_engine_run(struct gmmu_dev *dev, uint32_t engine, uint32_t op,
                                      uint32_t as, uint64_t dst, uint64_t src, uint32_t len,
                                      uint64_t pattern);

#endif /* GMMU_TESTS_HOST_SOC_TEST_UTIL_H */
