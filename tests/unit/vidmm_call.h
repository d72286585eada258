// SPDX-License-Identifier: Apache-2.0
/*
 * The vidmm unit tests' wire helper: one command through its handler as
 * registered (vidmm_commands), against a struct vidmm_sim, with the checks
 * every call makes: a failed command answers nothing, a successful one
 * exactly its response, and either leaves the accounting and the TLB
 * consistent. Include after cmocka.h.
 */
#ifndef VIDMM_CALL_H
#define VIDMM_CALL_H

#include <stdint.h>
#include <string.h>

#include "vidmm_cmds.h"
#include "vidmm_sim.h"

/* The firmware's handler of opcode. */
static inline mbox_handler_fn vidmm_handler(uint16_t opcode)
{
    const struct mbox_command *cmd = mbox_command_find(&vidmm_commands, opcode);

    assert_non_null(cmd);
    return cmd->run;
}

/* The command alone: *answer (if not NULL) is the whole response. */
static inline uint32_t vidmm_call_raw(struct vidmm_sim *s, uint16_t opcode, const void *req,
                                      uint32_t len, void *rsp, uint32_t rsp_size,
                                      const uint8_t **answer)
{
    static uint32_t in[1024], out[1024];
    uint32_t out_len = 12345, st;
    /* MAP_VA answers the VA and the paging fence, UNMAP_VA and UPDATE_VA
       the fence: a caller that asks for only the VA, or for nothing, gets
       that, and the length is still checked. */
    static uint8_t fence_sink[GMMU_PAGING_RSP_BYTES];
    uint32_t want = rsp_size;

    if ((opcode == GMMU_OP_UNMAP_VA || opcode == GMMU_OP_UPDATE_VA) && !rsp_size) {
        rsp = fence_sink;
        rsp_size = GMMU_PAGING_RSP_BYTES;
    } else if (opcode == GMMU_OP_MAP_VA && rsp_size == GMMU_VA_RSP_BYTES) {
        rsp_size = GMMU_MAP_RSP_BYTES;
    }
    assert_true(len <= sizeof(in));
    if (len)
        memcpy(in, req, len);
    st = vidmm_handler(opcode)(s->vm, (const uint8_t *)in, len, (uint8_t *)out, sizeof(out),
                               &out_len);
    if (answer)
        *answer = (const uint8_t *)out;
    if (st != GMMU_STATUS_OK) {
        assert_int_equal(out_len, 0);
        return st;
    }
    assert_int_equal(out_len, rsp_size);
    if (rsp_size)
        memcpy(rsp, out, want ? want : rsp_size);
    return st;
}

/* The command, then the checks every call makes. */
static inline uint32_t vidmm_call(struct vidmm_sim *s, uint16_t opcode, const void *req,
                                  uint32_t len, void *rsp, uint32_t rsp_size)
{
    uint32_t st = vidmm_call_raw(s, opcode, req, len, rsp, rsp_size, NULL);

    assert_true(vidmm_sim_accounting_ok(s));
    assert_int_equal(vidmm_sim_tlb_stale(s), 0);
    return st;
}

#endif /* VIDMM_CALL_H */
