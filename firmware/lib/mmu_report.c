// SPDX-License-Identifier: Apache-2.0
#include "mmu_report.h"

#include <stddef.h>
#include <string.h>

#include <gmmu/mmu_regs.h>

/* The reply's fields are the counters in register order, so each is read
   with one loop; these pin the two layouts to each other. */
#define PORT_FIELD(f, idx) \
    _Static_assert(offsetof(struct gmmu_mmu_port_counters, f) == 4u * (idx), #f " is counter " #idx)
PORT_FIELD(requests, GMMU_PERF_PORT_REQUESTS);
PORT_FIELD(hits, GMMU_PERF_PORT_HITS);
PORT_FIELD(misses, GMMU_PERF_PORT_MISSES);
PORT_FIELD(merges, GMMU_PERF_PORT_MERGES);
PORT_FIELD(faults, GMMU_PERF_PORT_FAULTS);
PORT_FIELD(prefetches, GMMU_PERF_PORT_PREFETCHES);
_Static_assert(sizeof(struct gmmu_mmu_port_counters) == 4u * GMMU_PERF_PORT_COUNTERS,
               "port counters");

#define SHARED_FIRST offsetof(struct gmmu_mmu_counters, l2_lookups)
#define SHARED_FIELD(f, idx)                                                           \
    _Static_assert(offsetof(struct gmmu_mmu_counters, f) == SHARED_FIRST + 4u * (idx), \
                   #f " is counter " #idx)
SHARED_FIELD(l2_lookups, GMMU_PERF_L2_LOOKUPS);
SHARED_FIELD(l2_hits, GMMU_PERF_L2_HITS);
SHARED_FIELD(walks, GMMU_PERF_WALKS);
SHARED_FIELD(walk_cycles, GMMU_PERF_WALK_CYCLES);
SHARED_FIELD(pwc_hits, GMMU_PERF_PWC_HITS);
SHARED_FIELD(pte_reads, GMMU_PERF_PTE_READS);
SHARED_FIELD(faults, GMMU_PERF_FAULTS);
SHARED_FIELD(invalidations, GMMU_PERF_INVALIDATIONS);
SHARED_FIELD(cycles, GMMU_PERF_CYCLES);
/* The reply carries the shared counters up to CYCLES (protocol 1.3); later
 * ones (PERF_L2_NEIGHBOURS) stay in the MMU's registers, so the reply's
 * reserved word stays 0. */
#define SHARED_IN_REPLY (GMMU_PERF_CYCLES + 1u)
_Static_assert(SHARED_FIRST + 4u * SHARED_IN_REPLY == offsetof(struct gmmu_mmu_counters, reserved),
               "the reply's shared counters end at its reserved word");
_Static_assert(GMMU_MSG_HDR_BYTES + sizeof(struct gmmu_fault_evt) <= GMMU_SLOT_BYTES,
               "a fault event takes one slot, so EVT_SLOTS of them fit the ring");

static uint32_t field(uint32_t value, uint32_t mask, uint32_t lsb)
{
    return (value & mask) >> lsb;
}

void mmu_report_decode_fault(uint32_t va_lo, uint32_t va_hi, uint32_t info, uint32_t tag,
                             uint32_t overflow, struct gmmu_fault_evt *out)
{
    *out = (struct gmmu_fault_evt){
        .va = (uint64_t)va_hi << 32 | va_lo,
        .asid = field(info, GMMU_MMU_FAULT_INFO_ASID, GMMU_MMU_FAULT_INFO_ASID_LSB),
        .port = field(info, GMMU_MMU_FAULT_INFO_PORT, GMMU_MMU_FAULT_INFO_PORT_LSB),
        .access = field(info, GMMU_MMU_FAULT_INFO_ACCESS, GMMU_MMU_FAULT_INFO_ACCESS_LSB),
        .reason = field(info, GMMU_MMU_FAULT_INFO_REASON, GMMU_MMU_FAULT_INFO_REASON_LSB),
        .tag = tag,
        .overflow = overflow,
    };
}

/* Reads the oldest record and pops it; false if the FIFO is empty. */
static bool take_fault(const struct mmu_report_hw *hw, struct gmmu_fault_evt *ev)
{
    uint32_t info = hw->read(hw->ctx, GMMU_MMU_FAULT_INFO);
    if (!(info & GMMU_MMU_FAULT_INFO_VALID))
        return false;
    mmu_report_decode_fault(
        hw->read(hw->ctx, GMMU_MMU_FAULT_VA_LO), hw->read(hw->ctx, GMMU_MMU_FAULT_VA_HI), info,
        hw->read(hw->ctx, GMMU_MMU_FAULT_TAG), hw->read(hw->ctx, GMMU_MMU_FAULT_OVERFLOW), ev);
    hw->write(hw->ctx, GMMU_MMU_FAULT_POP, 1);
    ev->cycles = hw->cycles(hw->ctx);
    ev->as_handle = hw->as_handle(hw->ctx, ev->asid);
    return true;
}

unsigned mmu_report_drain_faults(const struct mmu_report_hw *hw, struct mbox_service *svc,
                                 unsigned max)
{
    unsigned taken = 0;
    struct gmmu_fault_evt ev;
    while (taken < max && take_fault(hw, &ev)) {
        mbox_service_post_event(svc, GMMU_EVT_FAULT, &ev, sizeof ev);
        taken++;
    }
    return taken;
}

static void read_run(const struct mmu_report_hw *hw, uint32_t reg, uint32_t *dst, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        dst[i] = hw->read(hw->ctx, reg + 4u * i);
}

uint32_t mmu_report_counters(const struct mmu_report_hw *hw, const uint8_t *req, uint32_t req_len,
                             uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len)
{
    struct gmmu_mmu_counters_req rq;
    if (req_len != sizeof rq)
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(&rq, req, sizeof rq);
    if (rq.reserved || (rq.flags & ~(uint32_t)GMMU_MMU_COUNTERS_FLAG_CLEAR))
        return GMMU_STATUS_INVALID_ARGUMENT;
    uint32_t config = hw->read(hw->ctx, GMMU_MMU_CONFIG);
    struct gmmu_mmu_counters c = {
        .ports = field(config, GMMU_MMU_CONFIG_PORTS, GMMU_MMU_CONFIG_PORTS_LSB),
    };
    uint32_t len = sizeof c + c.ports * (uint32_t)sizeof(struct gmmu_mmu_port_counters);
    if (len > resp_cap)
        return GMMU_STATUS_INTERNAL;
    for (uint32_t p = 0; p < c.ports; p++) {
        uint32_t words[GMMU_PERF_PORT_COUNTERS];
        read_run(hw, GMMU_MMU_PERF_PORT + GMMU_PERF_PORT_STRIDE * p, words,
                 GMMU_PERF_PORT_COUNTERS);
        memcpy(resp + sizeof c + p * sizeof words, words, sizeof words);
    }
    uint32_t shared[SHARED_IN_REPLY];
    read_run(hw, GMMU_MMU_PERF_SHARED, shared, SHARED_IN_REPLY);
    memcpy((uint8_t *)&c + SHARED_FIRST, shared, sizeof shared);
    c.fault_overflow = hw->read(hw->ctx, GMMU_MMU_FAULT_OVERFLOW);
    if (rq.flags & GMMU_MMU_COUNTERS_FLAG_CLEAR)
        hw->write(hw->ctx, GMMU_MMU_PERF_CTRL, GMMU_MMU_PERF_CTRL_CLEAR);
    memcpy(resp, &c, sizeof c);
    *resp_len = len;
    return GMMU_STATUS_OK;
}
