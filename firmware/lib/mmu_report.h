// SPDX-License-Identifier: Apache-2.0
/*
 * What the firmware tells the host about the MMU: its fault FIFO, forwarded
 * as EVT_FAULT events on the mailbox's event ring, and its performance
 * counters (GET_MMU_COUNTERS).
 *
 * Portable: the MMU's registers are reached through struct mmu_report_hw,
 * so the module runs on the SoC (firmware/app/mmu_events.c) and against a
 * fake register file in the host's unit tests alike.
 */
#ifndef GMMU_MMU_REPORT_H
#define GMMU_MMU_REPORT_H

#include <stdint.h>

#include <gmmu/mailbox.h>

#include "mbox_service.h"

struct mmu_report_hw {
    uint32_t (*read)(void *ctx, uint32_t reg); /* reg: offset in the MMU block */
    void (*write)(void *ctx, uint32_t reg, uint32_t value);
    uint64_t (*cycles)(void *ctx);
    /* The host's handle of the address space holding hardware id asid; 0
       if none does. */
    uint32_t (*as_handle)(void *ctx, uint32_t asid);
    void *ctx;
};

/* Ports the counter reply can carry: CONFIG.PORTS is a 4-bit field. */
#define MMU_REPORT_MAX_PORTS 15u

/* Takes up to `max` records from the fault FIFO, oldest first, and posts
   one EVT_FAULT per record (dropped and counted if the event ring is full).
   Bounded so that a FIFO refilled by a running engine cannot hold the
   caller. Returns the records taken. */
unsigned mmu_report_drain_faults(const struct mmu_report_hw *hw, struct mbox_service *svc,
                                 unsigned max);

/* Decodes one record from its register values. */
void mmu_report_decode_fault(uint32_t va_lo, uint32_t va_hi, uint32_t info, uint32_t tag,
                             uint32_t overflow, struct gmmu_fault_evt *out);

/* The GET_MMU_COUNTERS handler body: checks the request, reads every
   counter (per port, then shared) and FAULT_OVERFLOW, and clears the
   counters if asked. Returns a GMMU_STATUS_*. */
uint32_t mmu_report_counters(const struct mmu_report_hw *hw, const uint8_t *req, uint32_t req_len,
                             uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);

#endif /* GMMU_MMU_REPORT_H */
