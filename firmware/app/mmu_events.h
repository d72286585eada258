// SPDX-License-Identifier: Apache-2.0
/*
 * The MMU's fault FIFO and counters on the SoC: the fault interrupt, the
 * drain that forwards records as EVT_FAULT events, and GET_MMU_COUNTERS.
 */
#ifndef GMMU_MMU_EVENTS_H
#define GMMU_MMU_EVENTS_H

#include <stdbool.h>

#include "mbox_service.h"
#include "mmu_report.h"
#include "vidmm.h"

struct mmu_events {
    struct mbox_service *svc; /* whose event ring the records go to */
    struct vidmm *vm;         /* names a record's address space; may be NULL */
    struct mmu_report_hw hw;  /* the MMU's registers, with this as ctx */
};

/* Events go to svc's event ring. Attaches the fault interrupt. */
void mmu_events_init(struct mmu_events *ev, struct mbox_service *svc, struct vidmm *vm);

/* Set by the fault interrupt (which then masks itself): the service loop
   tests this RAM flag (the service's irq_work), not an MMU register, so a
   loop with no fault pays one cached load and no bus read. */
static inline bool mmu_events_pending(const struct mmu_events *ev)
{
    return ev->svc->irq_work;
}

/* Forwards up to one FIFO's worth of records and re-arms the interrupt
   (it fires again at once if records remain). Returns records forwarded. */
unsigned mmu_events_drain(struct mmu_events *ev);

/* GET_MMU_COUNTERS. ctx: the struct mmu_events. */
extern const struct mbox_command_set mmu_events_commands;

#endif
