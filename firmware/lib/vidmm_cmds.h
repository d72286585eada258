// SPDX-License-Identifier: Apache-2.0
/*
 * Mailbox handlers of the VidMm opcodes (ALLOC..GET_SEGMENTS): each decodes its
 * payload, runs the vidmm command and encodes the completion payload.
 *
 * vidmm_commands is the only place these opcodes are paired with their
 * handlers. The firmware registers it with its vidmm instance as the
 * handlers' ctx (firmware/app/commands.c); host tests and the fuzzer look
 * handlers up in it (mbox_command_find) and pass the instance they drive.
 * A NULL ctx (the firmware has no vidmm) makes every handler answer
 * INTERNAL.
 *
 * A payload whose length is not exactly the opcode's (for UPDATE_VA: the
 * header plus count operations) gets GMMU_STATUS_MALFORMED_LENGTH and runs
 * nothing; field checks (reserved fields, flags, operations) are vidmm's
 * and give GMMU_STATUS_INVALID_ARGUMENT and friends.
 */
#ifndef VIDMM_CMDS_H
#define VIDMM_CMDS_H

#include "mbox_service.h"
#include "vidmm.h"

/* ALLOC, FREE, CREATE_AS, DESTROY_AS, MAP_VA, UNMAP_VA, RESERVE_VA,
   UPDATE_VA, QUERY_VA, GET_VRAM, then the later ones (ADD_BACKING ..
   GET_SEGMENTS, REMOVE_BACKING), in this order (the fuzzer's seeds name
   commands by their index here). ctx: the struct vidmm served. */
extern const struct mbox_command_set vidmm_commands;

/* update_queue_ops over VidMm (ctx: the struct vidmm): a queued batch is
   applied as UPDATE_VA is, signalling the paging fence when it is, and
   checked at submit as UPDATE_VA would check it then. */
uint32_t vidmm_batch_apply(void *ctx, uint32_t as_handle, const struct gmmu_update_op *ops,
                           uint32_t count, uint32_t after);
uint32_t vidmm_batch_check(void *ctx, uint32_t as_handle, const struct gmmu_update_op *ops,
                           uint32_t count);

/* The request of any fixed-size VidMm command (the fuzzer builds them in
   the same storage). */
union vidmm_fixed_req {
    struct gmmu_alloc_req alloc;
    struct gmmu_handle_req handle;
    struct gmmu_map_req map;
    struct gmmu_range_req range;
    struct gmmu_reserve_req reserve;
    struct gmmu_query_req query;
    struct gmmu_backing_req backing;
    struct gmmu_backing_remove_req backing_remove;
};

#endif
