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
 *  - The job queues (firmware/lib/engine_queue.c) reach the same registers
 *    through queue_ops; the service loop polls them between commands.
 *  - With ENGINE_OP_FLAG_PHYSICAL the addresses are VRAM offsets and the
 *    engine runs untranslated (CTRL.PHYS). That reaches any DDR byte, so
 *    the run starts only when every range the operation touches lies in
 *    one live CONTIGUOUS (AccessedPhysically) allocation (vidmm), as WDDM
 *    refuses a submission naming such an allocation wrongly; otherwise
 *    OUT_OF_RANGE before any engine register is written. While it runs,
 *    FREE of that allocation is BUSY (engine_cmd_phys_busy).
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
   drops are only counted, not reported. The other engines' queues move on
   meanwhile (this engine's is empty: ENGINE_RUN is BUSY otherwise). */
static bool wait_done(uint32_t engine, struct mmu_events *events, struct engine_queue *queue)
{
    for (uint32_t i = 0; i < ENGINE_WAIT_POLLS; i++) {
        if (hal_read32(engine_reg(engine, GMMU_ENGINE_STATUS)) & GMMU_ENGINE_STATUS_DONE)
            return true;
        if (mmu_events_pending(events))
            mmu_events_drain(events);
        if (queue)
            engine_queue_poll(queue);
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

/* The streams an operation uses (FILL: dst; COPY: both; CHECKSUM, FETCH: src). */
static bool op_reads(uint32_t op)
{
    return op != GMMU_ENGINE_OP_FILL;
}
static bool op_writes(uint32_t op)
{
    return op == GMMU_ENGINE_OP_FILL || op == GMMU_ENGINE_OP_COPY;
}

/* Every range a physical-mode operation touches lies in one contiguous
   allocation. */
static bool phys_ranges_ok(const struct vidmm *vm, uint32_t op, const struct gmmu_engine_req *rq)
{
    return (!op_writes(op) || vidmm_phys_range_ok(vm, rq->dst_va, rq->length)) &&
           (!op_reads(op) || vidmm_phys_range_ok(vm, rq->src_va, rq->length));
}

/* ENGINE_RUN and ENGINE_START up to the engine's START: checks, the
   address space's id (none in physical mode), the registers. */
static uint32_t start(const struct engine_cmd *self, const uint8_t *req, uint32_t req_len,
                      uint32_t resp_cap, struct gmmu_engine_req *rq, uint32_t *asid)
{
    if (req_len != sizeof *rq || resp_cap < sizeof(struct gmmu_engine_rsp))
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(rq, req, sizeof *rq);
    bool phys = (rq->op & GMMU_ENGINE_OP_FLAG_PHYSICAL) != 0;
    uint32_t op = rq->op & ~(uint32_t)GMMU_ENGINE_OP_FLAG_PHYSICAL;
    if (rq->engine >= GMMU_ENGINES || op > GMMU_ENGINE_OP_FETCH || (phys && rq->as_handle))
        return GMMU_STATUS_INVALID_ARGUMENT;
    if ((rq->length | rq->dst_va | rq->src_va) & (GMMU_ENGINE_CHUNK_BYTES - 1))
        return GMMU_STATUS_UNALIGNED;
    if (!self->vm)
        return GMMU_STATUS_INTERNAL;
    /* Jobs queued on the engine come first; a run beside them would take
       the engine from under the queue. */
    if (self->queue && engine_queue_held(self->queue, rq->engine))
        return GMMU_STATUS_BUSY;
    /* Before the id is taken: an engine still running keeps its own. */
    if (hal_read32(engine_reg(rq->engine, GMMU_ENGINE_STATUS)) & GMMU_ENGINE_STATUS_BUSY)
        return GMMU_STATUS_BUSY;
    if (phys) {
        if (!phys_ranges_ok(self->vm, op, rq))
            return GMMU_STATUS_OUT_OF_RANGE;
        *asid = 0; /* not used: nothing is translated */
    } else {
        uint32_t status = vidmm_activate_as(self->vm, rq->as_handle, asid);
        if (status != GMMU_STATUS_OK)
            return status;
    }
    program(rq->engine, rq, *asid);
    hal_write32(engine_reg(rq->engine, GMMU_ENGINE_CTRL), GMMU_ENGINE_CTRL_START |
                                                              op << GMMU_ENGINE_CTRL_OP_LSB |
                                                              (phys ? GMMU_ENGINE_CTRL_PHYS : 0u));
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

    bool done = wait_done(rq.engine, self->events, self->queue);
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
        if (!wait_done(rq.engine, self->events, self->queue))
            return GMMU_STATUS_BUSY;
    }
    struct gmmu_engine_rsp rs = engine_state(rq.engine);
    return mbox_reply(GMMU_STATUS_OK, &rs, sizeof rs, resp, resp_cap, resp_len);
}

/* Whether engine e is running, and in physical mode. */
static bool running(uint32_t e, bool phys)
{
    return (hal_read32(engine_reg(e, GMMU_ENGINE_STATUS)) & GMMU_ENGINE_STATUS_BUSY) &&
           ((hal_read32(engine_reg(e, GMMU_ENGINE_CTRL)) & GMMU_ENGINE_CTRL_PHYS) != 0) == phys;
}

bool engine_cmd_asid_busy(uint32_t asid)
{
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        if (running(e, false) && hal_read32(engine_reg(e, GMMU_ENGINE_ASID)) == asid)
            return true;
    return false;
}

/* ------------------------------------------------ the queues' engines */

/* The queues engine_cmd_va_busy looks into (the one engine_cmd_queue_init
   set up; there is one set of engines). */
static const struct engine_queue *jobs;

static void q_start(void *ctx, uint32_t engine, const struct gmmu_engine_req *rq, uint32_t asid)
{
    (void)ctx;
    program(engine, rq, asid);
    hal_write32(engine_reg(engine, GMMU_ENGINE_CTRL),
                GMMU_ENGINE_CTRL_START | rq->op << GMMU_ENGINE_CTRL_OP_LSB);
}

/* The poll's fast path: hot, as the service loop that calls it. */
MBOX_HOT static bool q_busy(void *ctx, uint32_t engine)
{
    (void)ctx;
    return hal_read32(engine_reg(engine, GMMU_ENGINE_STATUS)) & GMMU_ENGINE_STATUS_BUSY;
}

/* As ENGINE_RUN ends a run: the last fault records are drained before the
   job's fence is signalled, while the address space holds the id they
   name. */
static void q_finish(void *ctx, uint32_t engine, struct gmmu_engine_rsp *out)
{
    const struct engine_cmd *self = ctx;
    if (mmu_events_pending(self->events))
        mmu_events_drain(self->events);
    *out = engine_state(engine);
    hal_write32(engine_reg(engine, GMMU_ENGINE_STATUS), GMMU_ENGINE_STATUS_DONE);
}

static void q_abort(void *ctx, uint32_t engine)
{
    (void)ctx;
    hal_write32(engine_reg(engine, GMMU_ENGINE_CTRL), GMMU_ENGINE_CTRL_ABORT);
}

static uint32_t q_activate(void *ctx, uint32_t as_handle, uint32_t *asid)
{
    const struct engine_cmd *self = ctx;
    return self->vm ? vidmm_activate_as(self->vm, as_handle, asid) : GMMU_STATUS_INTERNAL;
}

static bool q_as_exists(void *ctx, uint32_t as_handle)
{
    const struct engine_cmd *self = ctx;
    uint64_t root;
    uint32_t asid;
    return self->vm && vidmm_as_info(self->vm, as_handle, &root, &asid);
}

void engine_cmd_queue_init(struct engine_cmd *self, struct engine_queue *q, struct fences *fences)
{
    static struct engine_queue_ops ops = {
        .start = q_start,
        .busy = q_busy,
        .finish = q_finish,
        .abort = q_abort,
        .activate = q_activate,
        .as_exists = q_as_exists,
    };
    ops.ctx = self;
    engine_queue_init(q, &ops, fences);
    self->queue = q;
    jobs = q;
}

/* The queue's commands, with the queue as their context; without queues
   they are INTERNAL, as ENGINE_RUN without vidmm. */
#define QUEUE_CMD(name)                                                                           \
    static uint32_t cmd_##name(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,    \
                               uint32_t resp_cap, uint32_t *resp_len)                             \
    {                                                                                             \
        const struct engine_cmd *self = ctx;                                                      \
        *resp_len = 0;                                                                            \
        return self->queue                                                                        \
                   ? engine_queue_cmd_##name(self->queue, req, req_len, resp, resp_cap, resp_len) \
                   : GMMU_STATUS_INTERNAL;                                                        \
    }
QUEUE_CMD(submit)
QUEUE_CMD(cancel)
QUEUE_CMD(queue)

/* The same for the update queue's commands. */
#define UPDATE_CMD(name)                                                                    \
    static uint32_t cmd_update_##name(void *ctx, const uint8_t *req, uint32_t req_len,      \
                                      uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len) \
    {                                                                                       \
        const struct engine_cmd *self = ctx;                                                \
        *resp_len = 0;                                                                      \
        return self->updates ? update_queue_cmd_##name(self->updates, req, req_len, resp,   \
                                                       resp_cap, resp_len)                  \
                             : GMMU_STATUS_INTERNAL;                                        \
    }
UPDATE_CMD(submit)
UPDATE_CMD(cancel)
UPDATE_CMD(queue)

/* The run of engine e: its operation, length and addresses. */
static bool run_touches(uint32_t e, uint64_t va, uint64_t bytes)
{
    uint32_t op = (hal_read32(engine_reg(e, GMMU_ENGINE_CTRL)) & GMMU_ENGINE_CTRL_OP) >>
                  GMMU_ENGINE_CTRL_OP_LSB;

    return engine_op_touches(op, read64(e, GMMU_ENGINE_DST_VA_LO), read64(e, GMMU_ENGINE_SRC_VA_LO),
                             hal_read32(engine_reg(e, GMMU_ENGINE_LENGTH)), va, bytes);
}

bool engine_cmd_phys_busy(uint64_t offset, uint64_t bytes)
{
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        if (running(e, true) && run_touches(e, offset, bytes))
            return true;
    return false;
}

bool engine_cmd_va_busy(uint32_t as_handle, uint32_t asid, uint64_t va, uint64_t bytes,
                        uint32_t after)
{
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        if (running(e, false) && hal_read32(engine_reg(e, GMMU_ENGINE_ASID)) == asid &&
            run_touches(e, va, bytes))
            return true;
    return jobs && engine_queue_uses(jobs, as_handle, va, bytes, after);
}

static const struct mbox_command commands[] = {
    { GMMU_OP_ENGINE_RUN, cmd_run },
    { GMMU_OP_ENGINE_START, cmd_start },
    { GMMU_OP_ENGINE_STATUS, cmd_status },
    { GMMU_OP_ENGINE_SUBMIT, cmd_submit },
    { GMMU_OP_ENGINE_CANCEL, cmd_cancel },
    { GMMU_OP_ENGINE_QUEUE, cmd_queue },
    { GMMU_OP_UPDATE_SUBMIT, cmd_update_submit },
    { GMMU_OP_UPDATE_CANCEL, cmd_update_cancel },
    { GMMU_OP_UPDATE_QUEUE, cmd_update_queue },
};
const struct mbox_command_set engine_commands = MBOX_COMMAND_SET(commands);
