// SPDX-License-Identifier: Apache-2.0
/* ENGINE_RUN, ENGINE_START, ENGINE_STATUS: GPU engines for the host; the
   SoC binding of the engines' job queues (engine_queue). */
#ifndef GMMU_ENGINE_CMD_H
#define GMMU_ENGINE_CMD_H

#include "engine_queue.h"
#include "update_queue.h"
#include "mbox_service.h"
#include "mmu_events.h"
#include "vidmm.h"

/* What ENGINE_RUN serves: vidmm's address spaces (NULL: it answers
   INTERNAL), and the fault events it forwards while an engine runs. */
struct engine_cmd {
    struct vidmm *vm;
    struct mmu_events *events;
    /* The engines' job queues (ENGINE_SUBMIT): ENGINE_RUN and ENGINE_START
       are BUSY on an engine whose queue holds jobs, and ENGINE_RUN's wait
       keeps the other engines' queues moving. NULL: no queues. */
    struct engine_queue *queue;
    /* The waiting UPDATE_SUBMIT batches (ordered paging), whose commands
       this set serves too (the service has no room for an eighth set).
       NULL: those commands answer INTERNAL. */
    struct update_queue *updates;
};

/* Sets up q over the SoC's engines, jobs waiting and signalling in fences,
   and makes it self's queue. */
void engine_cmd_queue_init(struct engine_cmd *self, struct engine_queue *q, struct fences *fences);

/* ENGINE_RUN, ENGINE_START, ENGINE_STATUS. ctx: the struct engine_cmd. */
extern const struct mbox_command_set engine_commands;

/* An engine is running under hardware id asid (vidmm_hw's asid_busy); a
   physical-mode run has none. */
bool engine_cmd_asid_busy(uint32_t asid);

/* An engine is running in physical mode over part of the VRAM range
   [offset, offset + bytes) (vidmm_hw's phys_busy). */
bool engine_cmd_phys_busy(uint64_t offset, uint64_t bytes);

/* A job of address space as_handle (hardware id asid) still needs part of
   [va, va + bytes): a translated run of an engine under asid touches it,
   or a job of the queues does and is not ordered after the change asking
   (engine_queue_uses; vidmm_hw's va_in_use). */
bool engine_cmd_va_busy(uint32_t as_handle, uint32_t asid, uint64_t va, uint64_t bytes,
                        uint32_t after);

#endif
