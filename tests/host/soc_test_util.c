// SPDX-License-Identifier: Apache-2.0
#include "soc_test_util.h"

#include <stdlib.h>

int soc_open(struct gmmu_dev **dev)
{
    const char *device = getenv("GMMU_DEVICE");
    if (!device || gmmu_open(device, dev) != 0)
        return -1;
    /* Page-table commands on a simulated 300 k-cycle/s SoC can take seconds. */
    gmmu_set_timeout(*dev, 120000);
    return 0;
}

/* cmocka's group fixtures take no argument of ours: the group's device
 * pointer waits here while the group runs. */
static struct gmmu_dev **group_dev;

static int group_setup(void **state)
{
    (void)state;
    return soc_open(group_dev);
}

static int group_teardown(void **state)
{
    (void)state;
    gmmu_close(*group_dev);
    return 0;
}

int soc_run_group(const char *name, const struct CMUnitTest *tests, size_t count,
                  struct gmmu_dev **dev)
{
    group_dev = dev;
    return _cmocka_run_group_tests(name, tests, count, group_setup, group_teardown);
}

struct soc_buffer soc_make_buffer(struct gmmu_dev *dev, uint32_t as, uint64_t size,
                                  uint32_t alloc_flags, uint32_t map_flags, uint32_t pages)
{
    struct soc_buffer b;
    struct gmmu_alloc_req areq = { .size = size, .flags = alloc_flags };
    struct gmmu_alloc_rsp arsp;
    assert_int_equal(gmmu_alloc(dev, &areq, &arsp), 0);
    b.alloc = arsp.handle;
    b.base = arsp.base;
    struct gmmu_map_req mreq = { .as_handle = as,
                                 .alloc_handle = b.alloc,
                                 .size = size,
                                 .flags = map_flags,
                                 .page_sizes = pages };
    assert_int_equal(gmmu_map_va(dev, &mreq, &b.va), 0);
    return b;
}

struct gmmu_engine_rsp soc_engine_run(struct gmmu_dev *dev, uint32_t engine, uint32_t op,
                                      uint32_t as, uint64_t dst, uint64_t src, uint32_t len,
                                      uint64_t pattern)
{
    struct gmmu_engine_req req = { .engine = engine,
                                   .op = op,
                                   .as_handle = as,
                                   .length = len,
                                   .dst_va = dst,
                                   .src_va = src,
                                   .pattern = pattern };
    struct gmmu_engine_rsp rsp;
    int rc = gmmu_engine_run(dev, &req, &rsp);
    if (rc)
        fail_msg("ENGINE_RUN: %s", gmmu_strerror(rc));
    return rsp;
}
