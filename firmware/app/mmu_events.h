/*
 * The MMU's fault FIFO and counters on the SoC: the fault interrupt, the
 * drain that forwards records as EVT_FAULT events, and GET_MMU_COUNTERS.
 */
#ifndef GMMU_MMU_EVENTS_H
#define GMMU_MMU_EVENTS_H

#include <stdbool.h>

#include "mbox_service.h"

/* Set by the fault interrupt (which then masks itself): the service loop
   tests this RAM flag, not an MMU register, so a loop with no fault pays
   one cached load and no bus read. */
extern volatile bool mmu_fault_pending;

/* Events go to svc's event ring. Attaches the fault interrupt. */
void mmu_events_init(struct mbox_service *svc);

/* Forwards up to one FIFO's worth of records and re-arms the interrupt
   (it fires again at once if records remain). Returns records forwarded. */
unsigned mmu_events_drain(void);

uint32_t mmu_events_cmd_counters(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                 uint32_t resp_cap, uint32_t *resp_len);

#endif
