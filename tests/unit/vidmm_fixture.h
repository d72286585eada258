// SPDX-License-Identifier: Apache-2.0
/*
 * The fixture of the handler-level vidmm tests (test_vidmm.c,
 * test_vidmm_residency.c): one simulated platform, `sim`, that each file's
 * own setup initialises and vidmm_teardown frees, and `call`, a command
 * through vidmm_call against it. Include once, after cmocka.h.
 */
#ifndef VIDMM_FIXTURE_H
#define VIDMM_FIXTURE_H

#include "vidmm_call.h"

static struct vidmm_sim sim;

static int vidmm_teardown(void **state)
{
    (void)state;
    vidmm_sim_fini(&sim);
    return 0;
}

static uint32_t call(uint16_t opcode, const void *req, uint32_t len, void *rsp, uint32_t rsp_size)
{
    return vidmm_call(&sim, opcode, req, len, rsp, rsp_size);
}

/* The reference walker's answer for a read of VA in address space `as`,
   over the tables as vidmm left them. */
static inline struct gmmu_ref_result walk(uint32_t as, uint64_t va)
{
    struct gmmu_ref_result r;
    uint64_t root;
    uint32_t id;

    assert_true(vidmm_as_info(sim.vm, as, &root, &id));
    vidmm_sim_walk(&sim, root, va, GMMU_ACCESS_READ, &r);
    return r;
}

#endif /* VIDMM_FIXTURE_H */
