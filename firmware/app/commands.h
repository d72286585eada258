// SPDX-License-Identifier: Apache-2.0
/*
 * The firmware's commands: the device-information module (GET_INFO,
 * GET_CAPS, GET_STATS) and the one list that registers every module's
 * command set with the mailbox service.
 */
#ifndef GMMU_COMMANDS_H
#define GMMU_COMMANDS_H

#include "engine_cmd.h"
#include "fence.h"
#include "mbox_service.h"
#include "mmu_events.h"
#include "vidmm.h"

/* GET_INFO, GET_CAPS, GET_STATS. ctx: the struct mbox_service serving them. */
extern const struct mbox_command_set device_commands;

/* Registers every command set with the state it serves: vm may be NULL
   (VidMm's commands and ENGINE_RUN then answer INTERNAL). False if a
   registration fails, which only a firmware bug does (an opcode in two
   sets, or more sets than MBOX_MAX_SETS). */
bool commands_register(struct mbox_service *svc, struct vidmm *vm, struct mmu_events *events,
                       struct engine_cmd *engine, struct fences *fences);

#endif
