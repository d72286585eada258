/*
 * Mailbox handlers of the VidMm opcodes (ALLOC..GET_VRAM): each decodes its
 * payload, runs the vidmm command and encodes the completion payload.
 *
 * Every handler has the signature of mbox_handler_fn (mbox_service.h), so
 * a command table lists them directly; this header does not include
 * mbox_service.h, whose BAR0 binding only exists in firmware builds.
 *
 * A payload whose length is not exactly the opcode's (for UPDATE_VA: the
 * header plus count operations) gets GMMU_STATUS_MALFORMED_LENGTH and runs
 * nothing; field checks (reserved fields, flags, operations) are vidmm's
 * and give GMMU_STATUS_INVALID_ARGUMENT and friends.
 *
 * The handlers' ctx argument belongs to the service (GET_STATS reads it),
 * so the vidmm they serve is bound once with vidmm_cmds_attach().
 */
#ifndef VIDMM_CMDS_H
#define VIDMM_CMDS_H

#include <stdint.h>

#include "vidmm.h"

/* The instance the handlers serve; until then they answer INTERNAL. */
void vidmm_cmds_attach(struct vidmm *vm);

#define VIDMM_CMD_ARGS void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp, \
		       uint32_t resp_cap, uint32_t *resp_len

uint32_t vidmm_cmd_alloc(VIDMM_CMD_ARGS);
uint32_t vidmm_cmd_free(VIDMM_CMD_ARGS);
uint32_t vidmm_cmd_create_as(VIDMM_CMD_ARGS);
uint32_t vidmm_cmd_destroy_as(VIDMM_CMD_ARGS);
uint32_t vidmm_cmd_map_va(VIDMM_CMD_ARGS);
uint32_t vidmm_cmd_unmap_va(VIDMM_CMD_ARGS);
uint32_t vidmm_cmd_reserve_va(VIDMM_CMD_ARGS);
uint32_t vidmm_cmd_update_va(VIDMM_CMD_ARGS);
uint32_t vidmm_cmd_query_va(VIDMM_CMD_ARGS);
uint32_t vidmm_cmd_get_vram(VIDMM_CMD_ARGS);

/* The opcodes above with their handlers, for command tables and tests. */
struct vidmm_cmd {
	uint16_t opcode;
	uint32_t (*run)(VIDMM_CMD_ARGS);
};

extern const struct vidmm_cmd vidmm_cmds[];
extern const unsigned vidmm_cmd_count;

#endif
