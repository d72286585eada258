// SPDX-License-Identifier: Apache-2.0
#include "mmu_events.h"

#include <gmmu/mmu_regs.h>
#include <gmmu/soc.h>

#include "hal.h"

static uint32_t mmu_read(void *ctx, uint32_t reg)
{
    (void)ctx;
    return hal_read32(GMMU_MMU_BASE + reg);
}

static void mmu_write(void *ctx, uint32_t reg, uint32_t value)
{
    (void)ctx;
    hal_write32(GMMU_MMU_BASE + reg, value);
}

static uint64_t cycles(void *ctx)
{
    (void)ctx;
    return hal_cycles();
}

static uint32_t as_handle(void *ctx, uint32_t asid)
{
    const struct mmu_events *ev = ctx;
    return ev->vm ? vidmm_as_handle_of_asid(ev->vm, asid) : 0;
}

/* The line is a level that only popping the FIFO lowers: mask it until the
   loop has drained, or it would trap again on return. */
static void on_fault_irq(void *ctx)
{
    struct mmu_events *ev = ctx;

    hal_irq_mask(GMMU_IRQ_MMU_FAULT);
    ev->svc->irq_work = true;
}

void mmu_events_init(struct mmu_events *ev, struct mbox_service *svc, struct vidmm *vm)
{
    *ev = (struct mmu_events){
        .svc = svc,
        .vm = vm,
        .hw = { .read = mmu_read,
                .write = mmu_write,
                .cycles = cycles,
                .as_handle = as_handle,
                .ctx = ev },
    };
    hal_irq_attach(GMMU_IRQ_MMU_FAULT, on_fault_irq, ev);
}

unsigned mmu_events_drain(struct mmu_events *ev)
{
    ev->svc->irq_work = false;
    unsigned n = mmu_report_drain_faults(&ev->hw, ev->svc, GMMU_FAULT_FIFO_DEPTH);
    hal_irq_unmask(GMMU_IRQ_MMU_FAULT);
    return n;
}

static uint32_t cmd_counters(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                             uint32_t resp_cap, uint32_t *resp_len)
{
    const struct mmu_events *ev = ctx;
    return mmu_report_counters(&ev->hw, req, req_len, resp, resp_cap, resp_len);
}

static const struct mbox_command commands[] = {
    { GMMU_OP_GET_MMU_COUNTERS, cmd_counters },
};
const struct mbox_command_set mmu_events_commands = MBOX_COMMAND_SET(commands);
