// SPDX-License-Identifier: Apache-2.0
/* GPU MMU firmware: boot, self-test, then serve the host's mailbox. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "ddr_selftest.h"
#include "fence_hw.h"
#include "hal.h"
#include "mbox_hw.h"
#include "mbox_io_impl.h"
#include "mmu_events.h"
#include "version.h"
#include "vidmm_cmds.h"
#include "vidmm_hw.h"

/* FW_HEARTBEAT's period. The timer interrupt keeps it, so no firmware work
   (a long command, a full completion ring, a doorbell storm) can starve it:
   mailbox.toml promises an increment at least every 2^16 cycles, and twice
   as often leaves room for a trap delayed by a long bus access. */
#define HEARTBEAT_CYCLES (1u << 15)

static struct mbox_service service;
static struct mmu_events events;
static struct engine_cmd engine;
static struct fences fences;
static struct engine_queue queue;
static struct update_queue updates;

/* The queues' turn: jobs end and start, batches are applied (a batch's
   fences may let jobs start, and a job's end may let a batch go). Returns
   whether either still holds work. */
static bool poll_queues(void)
{
    engine_queue_poll(&queue);
    if (update_queue_active(&updates) && update_queue_poll(&updates))
        engine_queue_poll(&queue);
    return engine_queue_active(&queue) || update_queue_active(&updates);
}

static bool run_selftest(void)
{
    struct ddr_selftest_result st;
    uint64_t t0 = hal_cycles();
    ddr_selftest_run(&st);
    uint64_t t1 = hal_cycles();
    if (st.errors) {
        printf(
            "DDR self-test: FAIL, %lu of %lu words wrong; first at 0x%08lx: expected 0x%08lx, read 0x%08lx\n",
            (unsigned long)st.errors, (unsigned long)st.words_checked,
            (unsigned long)st.first_bad_offset, (unsigned long)st.first_bad_expected,
            (unsigned long)st.first_bad_actual);
        return false;
    }
    printf("DDR self-test: PASS, %lu words checked in %lu cycles\n",
           (unsigned long)st.words_checked, (unsigned long)(t1 - t0));
    return true;
}

static void heartbeat_tick(void *ctx)
{
    (void)ctx;
    static uint32_t heartbeat;
    mbox_io_write32(GMMU_MBOX_FW_HEARTBEAT, ++heartbeat);
    mbox_service_tick(&service);
}

static void set_state(uint32_t state, uint32_t code)
{
    mbox_hw_write(GMMU_MBOX_FW_STATE, state | code << GMMU_MBOX_FW_STATE_CODE_LSB);
    mbox_hw_write(GMMU_MBOX_HOST_IRQ_SET, GMMU_MBOX_HOST_IRQ_STATUS_STATE);
}

/* Waits for the doorbell, then drains the command ring. The loop polls
   DEV_IRQ_STATUS rather than taking the doorbell interrupt: this VexRiscv
   implements wfi as a no-op (wfiGenAsNop), so a trap would only add its
   entry and exit cost (about 100 cycles) to every command, and its pending
   CSR 0xFC0 shows only lines that are enabled, which would trap. The
   interrupt line stays wired (DEV_IRQ_MASK) for cores that can sleep.
   MMU faults are rare and not latency-critical, so they arrive the other
   way: their interrupt sets a RAM flag, tested when the loop is idle or has
   just served a batch, never between a doorbell and its completion. */
MBOX_HOT static _Noreturn __attribute__((noinline)) void serve_forever(void)
{
    /* Whether jobs or batches are queued, kept in a register: only commands and the
       poll change it, and a load in every idle turn could evict a line the
       next command needs (the data cache is direct-mapped). */
    bool jobs = false;
    uint32_t idle = 0;
    for (;;) {
        uint32_t rung =
            mbox_io_read32(GMMU_MBOX_DEV_IRQ_STATUS) & GMMU_MBOX_DEV_IRQ_STATUS_DOORBELL;
        if (!rung && !service.cpl_pending) {
            if (service.irq_work)
                mmu_events_drain(&events);
            /* Costs a register test while no job is queued. With jobs, every
               eighth idle turn: a doorbell that rings during a poll waits
               for it, so polling every turn would add half a poll to the
               latency of every command (docs/engine.md, "Job queues"). */
            if (jobs && !(++idle & 7u))
                jobs = poll_queues();
            hal_wait_for_interrupt();
            continue;
        }
        /* Serve first, acknowledge after: the acknowledge is off the
           command's path, and the pending check after it catches a doorbell
           that rang while the ring was being served. */
        do {
            mbox_service_poll(&service);
            mbox_io_write32(GMMU_MBOX_DEV_IRQ_STATUS, GMMU_MBOX_DEV_IRQ_STATUS_DOORBELL);
            service.stats.doorbells++;
        } while (mbox_service_pending(&service));
        if (service.irq_work)
            mmu_events_drain(&events);
        /* The commands may have submitted jobs or batches, or signalled
           their fences. */
        jobs = engine_queue_active(&queue) || update_queue_active(&updates);
        if (jobs)
            jobs = poll_queues();
    }
}

int main(void)
{
    printf("\ngmmu firmware %s (build %s), VexRiscv rv32im\n", GMMU_FW_VERSION, GMMU_FW_BUILD_ID);
    printf("DDR: %lu MiB behind AXI4\n", (unsigned long)(hal_ddr_size() >> 20));
    mbox_hw_write(GMMU_MBOX_IDENT_FW_VERSION, GMMU_FW_VERSION_CODE);
    mbox_hw_write(GMMU_MBOX_IDENT_FW_BUILD, GMMU_FW_BUILD_CODE);

    bool ok = run_selftest();
    printf("boot: %lu cycles\n", (unsigned long)hal_cycles());
    if (hal_boot_arg() & GMMU_BOOT_ARG_EXIT_AFTER_SELFTEST)
        return ok ? 0 : 2;

    /* VidMm takes the DDR after the self-test is done with it. */
    if (!vidmm_hw_init())
        printf("vidmm: not available; its commands answer INTERNAL\n");
    struct vidmm *vm = vidmm_hw_instance();
    mbox_service_init(&service);
    mmu_events_init(&events, &service, vm);
    fence_hw_init(&fences, &service, vm, vidmm_hw_fence_page());
    engine = (struct engine_cmd){ .vm = vm, .events = &events };
    engine_cmd_queue_init(&engine, &queue, &fences);
    static struct update_queue_ops batch_ops;
    batch_ops = (struct update_queue_ops){ vidmm_batch_apply, vidmm_batch_check, vm };
    if (vm) {
        update_queue_init(&updates, &batch_ops, &fences, vidmm_hw_batch_store());
        engine.updates = &updates;
    }
    /* Only a firmware bug fails this (an opcode in two sets): stop loudly. */
    if (!commands_register(&service, vm, &events, &engine, &fences)) {
        printf("mailbox: a command set did not register\n");
        return 3;
    }
    mbox_hw_write(GMMU_MBOX_DEV_IRQ_MASK, GMMU_MBOX_DEV_IRQ_STATUS_DOORBELL);
    hal_timer_every(HEARTBEAT_CYCLES, heartbeat_tick, NULL);
    set_state(ok ? GMMU_FW_STATE_READY : GMMU_FW_STATE_FAILED, ok ? 0 : 1);
    printf("mailbox: %s, serving the host\n", ok ? "ready" : "FAILED (DDR self-test)");
    serve_forever();
}
