// SPDX-License-Identifier: Apache-2.0
/*
 * ENGINE_RUN, ENGINE_START and ENGINE_STATUS: the host names an engine, an
 * operation, an address space and VAs; the firmware gives the address space
 * a hardware id (vidmm) and programs the engine's registers.
 *  - ENGINE_RUN waits for STATUS.DONE, bounded, so a stuck engine cannot
 *    stall the service loop forever (it is aborted instead).
 *  - ENGINE_START completes once the engine is started; the engine runs on
 *    beside later commands, as a GPU's engines run beside VidMm's paging
 *    work. ENGINE_STATUS reads where it is. While it runs, vidmm keeps its
 *    id (engine_cmd_asid_busy): the id is not lent to another space, and
 *    its space cannot be destroyed.
 */
#include "engine_cmd.h"

#include <string.h>

#include <gmmu/engine_regs.h>
#include <gmmu/soc.h>

#include "hal.h"

/* About 64 MiB at the engine's one beat per cycle; far beyond any run the
   4 GiB LENGTH field allows to take when the engine is healthy. */
#define ENGINE_WAIT_POLLS (1u << 24)

static uintptr_t engine_reg(uint32_t engine, uint32_t offset)
{
    return GMMU_ENGINE_BASE + engine * GMMU_ENGINE_STRIDE + offset;
}

static void program(uint32_t engine, const struct gmmu_engine_req *rq, uint32_t asid)
{
    hal_write32(engine_reg(engine, GMMU_ENGINE_ASID), asid);
    hal_write32(engine_reg(engine, GMMU_ENGINE_LENGTH), rq->length);
    hal_write32(engine_reg(engine, GMMU_ENGINE_DST_VA_LO), (uint32_t)rq->dst_va);
    hal_write32(engine_reg(engine, GMMU_ENGINE_DST_VA_HI), (uint32_t)(rq->dst_va >> 32));
    hal_write32(engine_reg(engine, GMMU_ENGINE_SRC_VA_LO), (uint32_t)rq->src_va);
    hal_write32(engine_reg(engine, GMMU_ENGINE_SRC_VA_HI), (uint32_t)(rq->src_va >> 32));
    hal_write32(engine_reg(engine, GMMU_ENGINE_PATTERN_LO), (uint32_t)rq->pattern);
    hal_write32(engine_reg(engine, GMMU_ENGINE_PATTERN_HI), (uint32_t)(rq->pattern >> 32));
}

/* Drains faults as they come: a faulting run can produce more records than
   the FIFO holds (every chunk in flight may fault), and records the FIFO
   drops are only counted, not reported. */
static bool wait_done(uint32_t engine, struct mmu_events *events)
{
    for (uint32_t i = 0; i < ENGINE_WAIT_POLLS; i++) {
        if (hal_read32(engine_reg(engine, GMMU_ENGINE_STATUS)) & GMMU_ENGINE_STATUS_DONE)
            return true;
        if (mmu_fault_pending)
            mmu_events_drain(events);
    }
    hal_write32(engine_reg(engine, GMMU_ENGINE_CTRL), GMMU_ENGINE_CTRL_ABORT);
    return false;
}

static uint64_t read64(uint32_t engine, uint32_t lo)
{
    return hal_read32(engine_reg(engine, lo)) | (uint64_t)hal_read32(engine_reg(engine, lo + 4))
                                                    << 32;
}

/* The engine's state now, as ENGINE_RUN's and ENGINE_STATUS's answer. */
static struct gmmu_engine_rsp engine_state(uint32_t engine)
{
    return (struct gmmu_engine_rsp){
        .engine_status = hal_read32(engine_reg(engine, GMMU_ENGINE_STATUS)),
        .bytes_done = hal_read32(engine_reg(engine, GMMU_ENGINE_BYTES_DONE)),
        .fault_va = read64(engine, GMMU_ENGINE_FAULT_VA_LO),
        .result = read64(engine, GMMU_ENGINE_RESULT_LO),
        .result2 = read64(engine, GMMU_ENGINE_RESULT2_LO),
        .cycles = hal_read32(engine_reg(engine, GMMU_ENGINE_CYCLES)),
        .asid = hal_read32(engine_reg(engine, GMMU_ENGINE_ASID)),
    };
}

/* ENGINE_RUN and ENGINE_START up to the engine's START: checks, the
   address space's id, the registers. */
static uint32_t start(const struct engine_cmd *self, const uint8_t *req, uint32_t req_len,
                      uint32_t resp_cap, struct gmmu_engine_req *rq, uint32_t *asid)
{
    if (req_len != sizeof *rq || resp_cap < sizeof(struct gmmu_engine_rsp))
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(rq, req, sizeof *rq);
    if (rq->engine >= GMMU_ENGINES || rq->op > GMMU_ENGINE_OP_FETCH)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if ((rq->length | rq->dst_va | rq->src_va) & (GMMU_ENGINE_CHUNK_BYTES - 1))
        return GMMU_STATUS_UNALIGNED;
    if (!self->vm)
        return GMMU_STATUS_INTERNAL;
    /* Before the id is taken: an engine still running keeps its own. */
    if (hal_read32(engine_reg(rq->engine, GMMU_ENGINE_STATUS)) & GMMU_ENGINE_STATUS_BUSY)
        return GMMU_STATUS_BUSY;
    uint32_t status = vidmm_activate_as(self->vm, rq->as_handle, asid);
    if (status != GMMU_STATUS_OK)
        return status;
    program(rq->engine, rq, *asid);
    hal_write32(engine_reg(rq->engine, GMMU_ENGINE_CTRL),
                GMMU_ENGINE_CTRL_START | rq->op << GMMU_ENGINE_CTRL_OP_LSB);
    return GMMU_STATUS_OK;
}

static uint32_t cmd_run(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                        uint32_t resp_cap, uint32_t *resp_len)
{
    const struct engine_cmd *self = ctx;
    struct gmmu_engine_req rq;
    uint32_t asid;
    uint32_t status = start(self, req, req_len, resp_cap, &rq, &asid);
    if (status != GMMU_STATUS_OK)
        return status;

    bool done = wait_done(rq.engine, self->events);
    /* Every translation of the run has been answered once DONE is set, so
       this drain posts the run's last faults before its completion, and
       while the address space still holds the id the records name. */
    mmu_events_drain(self->events);

    struct gmmu_engine_rsp rs = engine_state(rq.engine);
    /* Clear DONE: the engine's interrupt line drops until its next run. */
    hal_write32(engine_reg(rq.engine, GMMU_ENGINE_STATUS), GMMU_ENGINE_STATUS_DONE);
    status = mbox_reply(GMMU_STATUS_OK, &rs, sizeof rs, resp, resp_cap, resp_len);
    /* A run that did not finish (aborted) is BUSY, and its completion still
       carries the engine's state. */
    return status == GMMU_STATUS_OK && !done ? GMMU_STATUS_BUSY : status;
}

static uint32_t cmd_start(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                          uint32_t resp_cap, uint32_t *resp_len)
{
    struct gmmu_engine_req rq;
    uint32_t asid;
    uint32_t status = start(ctx, req, req_len, resp_cap, &rq, &asid);
    if (status != GMMU_STATUS_OK)
        return status;
    struct gmmu_engine_rsp rs = { .asid = asid };
    return mbox_reply(GMMU_STATUS_OK, &rs, sizeof rs, resp, resp_cap, resp_len);
}

/* Reads, after stopping the run with ABORT: DONE stays set (the next
   START clears it), and the run's faults reach the host as events from the
   service loop. ABORT is how a host stops a run an earlier host left. */
static uint32_t cmd_status(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                           uint32_t resp_cap, uint32_t *resp_len)
{
    const struct engine_cmd *self = ctx;
    struct gmmu_engine_status_req rq;
    if (req_len != sizeof rq || resp_cap < sizeof(struct gmmu_engine_rsp))
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(&rq, req, sizeof rq);
    if (rq.engine >= GMMU_ENGINES || (rq.flags & ~(uint32_t)GMMU_ENGINE_STATUS_FLAG_ABORT))
        return GMMU_STATUS_INVALID_ARGUMENT;
    if ((rq.flags & GMMU_ENGINE_STATUS_FLAG_ABORT) &&
        (hal_read32(engine_reg(rq.engine, GMMU_ENGINE_STATUS)) & GMMU_ENGINE_STATUS_BUSY)) {
        hal_write32(engine_reg(rq.engine, GMMU_ENGINE_CTRL), GMMU_ENGINE_CTRL_ABORT);
        if (!wait_done(rq.engine, self->events))
            return GMMU_STATUS_BUSY;
    }
    struct gmmu_engine_rsp rs = engine_state(rq.engine);
    return mbox_reply(GMMU_STATUS_OK, &rs, sizeof rs, resp, resp_cap, resp_len);
}

bool engine_cmd_asid_busy(uint32_t asid)
{
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        if ((hal_read32(engine_reg(e, GMMU_ENGINE_STATUS)) & GMMU_ENGINE_STATUS_BUSY) &&
            hal_read32(engine_reg(e, GMMU_ENGINE_ASID)) == asid)
            return true;
    return false;
}

static const struct mbox_command commands[] = {
    { GMMU_OP_ENGINE_RUN, cmd_run },
    { GMMU_OP_ENGINE_START, cmd_start },
    { GMMU_OP_ENGINE_STATUS, cmd_status },
};
const struct mbox_command_set engine_commands = MBOX_COMMAND_SET(commands);
