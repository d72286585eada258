// SPDX-License-Identifier: Apache-2.0
/* ENGINE_RUN, ENGINE_START, ENGINE_STATUS: GPU engines for the host. */
#ifndef GMMU_ENGINE_CMD_H
#define GMMU_ENGINE_CMD_H

#include "mbox_service.h"
#include "mmu_events.h"
#include "vidmm.h"

/* What ENGINE_RUN serves: vidmm's address spaces (NULL: it answers
   INTERNAL), and the fault events it forwards while an engine runs. */
struct engine_cmd {
    struct vidmm *vm;
    struct mmu_events *events;
};

/* ENGINE_RUN, ENGINE_START, ENGINE_STATUS. ctx: the struct engine_cmd. */
extern const struct mbox_command_set engine_commands;

/* An engine is running under hardware id asid (vidmm_hw's asid_busy). */
bool engine_cmd_asid_busy(uint32_t asid);

#endif
