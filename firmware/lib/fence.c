// SPDX-License-Identifier: Apache-2.0
#include "fence.h"

#include <string.h>

#define PAGING_SLOT 0u

_Static_assert(GMMU_FENCE_PAGING == (FENCE_HANDLE_TAG | (PAGING_SLOT + 1u)),
               "FENCE_PAGING is slot 0, generation 0");
_Static_assert(GMMU_FENCES <= 0xFFFFu, "a slot fits the handle's low half");
_Static_assert(GMMU_MSG_HDR_BYTES + sizeof(struct gmmu_fence_evt) <= GMMU_SLOT_BYTES,
               "a fence event takes one slot");

static uint32_t handle_of(const struct fences *f, uint32_t slot)
{
    return FENCE_HANDLE_TAG | (uint32_t)f->gen[slot] << 16 | (slot + 1u);
}

/* The live slot a handle names, or false. */
static bool lookup(const struct fences *f, uint32_t handle, uint32_t *slot)
{
    uint32_t s = (handle & 0xFFFFu) - 1u;

    if ((handle & 0xFF000000u) != FENCE_HANDLE_TAG || s >= GMMU_FENCES || !f->used[s] ||
        ((handle >> 16) & 0xFFu) != f->gen[s])
        return false;
    *slot = s;
    return true;
}

static void info(const struct fences *f, uint32_t slot, struct gmmu_fence_info *out)
{
    *out = (struct gmmu_fence_info){
        .handle = handle_of(f, slot),
        .value = f->value[slot],
        .offset = f->hw && f->hw->offset ? f->hw->offset(f->hw->ctx, slot) : UINT64_MAX,
    };
}

static void notify(const struct fences *f, uint32_t handle, uint64_t wait_value, uint64_t value)
{
    struct gmmu_fence_evt evt = {
        .handle = handle,
        .owner = f->owner,
        .wait_value = wait_value,
        .value = value,
    };

    if (f->hw && f->hw->notify)
        f->hw->notify(f->hw->ctx, &evt);
}

/* Fires, once each, the waits of slot's fence that its value reached, the
   lowest wait value first (modulo 2^64, counted back from the value). */
static void fire(struct fences *f, uint32_t slot)
{
    uint32_t handle = handle_of(f, slot);
    uint64_t now = f->value[slot];

    if (!f->armed) /* every value change comes here: most find none */
        return;

    for (;;) {
        struct fence_wait *pick = NULL;

        for (uint32_t i = 0; i < GMMU_FENCE_WAITS; i++) {
            struct fence_wait *w = &f->waits[i];

            if (w->handle == handle && fence_reached(now, w->value) &&
                (!pick || now - w->value > now - pick->value))
                pick = w;
        }
        if (!pick)
            return;
        uint64_t wait_value = pick->value;
        pick->handle = 0;
        f->armed--;
        notify(f, handle, wait_value, now);
    }
}

uint32_t fence_now(const struct fences *f)
{
    return f->hw && f->hw->now ? f->hw->now(f->hw->ctx) : 0;
}

static void set_value(struct fences *f, uint32_t slot, uint64_t value)
{
    f->value[slot] = value;
    f->changes++;
    f->changed_at[slot] = fence_now(f);
    if (f->hw && f->hw->publish)
        f->hw->publish(f->hw->ctx, slot, value);
    fire(f, slot);
}

void fence_init(struct fences *f, const struct fence_hw *hw)
{
    memset(f, 0, sizeof(*f));
    f->hw = hw;
    f->used[PAGING_SLOT] = true;
    set_value(f, PAGING_SLOT, 0);
}

uint64_t fence_paging_signal(struct fences *f)
{
    set_value(f, PAGING_SLOT, f->value[PAGING_SLOT] + 1u);
    return f->value[PAGING_SLOT];
}

uint64_t fence_paging_value(const struct fences *f)
{
    return f->value[PAGING_SLOT];
}

bool fence_value_of(const struct fences *f, uint32_t handle, uint64_t *value)
{
    uint32_t s;

    if (!f || !lookup(f, handle, &s))
        return false;
    *value = f->value[s];
    return true;
}

void fence_raise(struct fences *f, uint32_t handle, uint64_t value)
{
    struct gmmu_fence_info fi;
    uint64_t now;

    if (handle && fence_value_of(f, handle, &now) && !fence_reached(now, value))
        (void)fence_signal(f, handle, value, &fi);
}

bool fence_changed_at(const struct fences *f, uint32_t handle, uint32_t *cycle)
{
    uint32_t s;

    if (!f || !lookup(f, handle, &s))
        return false;
    *cycle = f->changed_at[s];
    return true;
}

unsigned fence_waits_armed(const struct fences *f)
{
    return f->armed;
}

uint32_t fence_create(struct fences *f, uint64_t value, struct gmmu_fence_info *out)
{
    for (uint32_t s = PAGING_SLOT + 1u; s < GMMU_FENCES; s++) {
        if (f->used[s])
            continue;
        f->used[s] = true;
        set_value(f, s, value);
        info(f, s, out);
        return GMMU_STATUS_OK;
    }
    return GMMU_STATUS_NO_MEMORY;
}

static void drop_waits(struct fences *f, uint32_t handle)
{
    for (uint32_t i = 0; i < GMMU_FENCE_WAITS; i++)
        if (f->waits[i].handle && (!handle || f->waits[i].handle == handle)) {
            f->waits[i].handle = 0;
            f->armed--;
        }
}

uint32_t fence_destroy(struct fences *f, uint32_t handle)
{
    uint32_t s;

    if (!lookup(f, handle, &s))
        return GMMU_STATUS_BAD_HANDLE;
    if (s == PAGING_SLOT)
        return GMMU_STATUS_INVALID_ARGUMENT;
    drop_waits(f, handle);
    f->used[s] = false;
    f->gen[s]++;
    f->changes++;
    return GMMU_STATUS_OK;
}

uint32_t fence_signal(struct fences *f, uint32_t handle, uint64_t value,
                      struct gmmu_fence_info *out)
{
    uint32_t s;

    if (!lookup(f, handle, &s))
        return GMMU_STATUS_BAD_HANDLE;
    /* The paging fence is the device's; a host value behind (modulo 2^64)
       would make a fence go back. */
    if (s == PAGING_SLOT || !fence_reached(value, f->value[s]))
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (value != f->value[s])
        set_value(f, s, value);
    info(f, s, out);
    return GMMU_STATUS_OK;
}

uint32_t fence_read(const struct fences *f, uint32_t handle, struct gmmu_fence_info *out)
{
    uint32_t s;

    if (!lookup(f, handle, &s))
        return GMMU_STATUS_BAD_HANDLE;
    info(f, s, out);
    return GMMU_STATUS_OK;
}

uint32_t fence_wait(struct fences *f, const struct gmmu_fence_wait_req *req,
                    struct gmmu_fence_info *out)
{
    struct fence_wait *armed = NULL, *free_slot = NULL;
    uint32_t s;

    if (req->reserved || (req->flags & ~(uint32_t)GMMU_FENCE_WAIT_FLAG_CANCEL))
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (!lookup(f, req->handle, &s))
        return GMMU_STATUS_BAD_HANDLE;
    /* One host at a time: a new owner means the previous host left. */
    if (req->owner != f->owner) {
        drop_waits(f, 0);
        f->owner = req->owner;
    }
    for (uint32_t i = 0; i < GMMU_FENCE_WAITS; i++) {
        struct fence_wait *w = &f->waits[i];

        if (w->handle == req->handle && w->value == req->value)
            armed = w;
        else if (!w->handle && !free_slot)
            free_slot = w;
    }
    info(f, s, out);
    if (req->flags & GMMU_FENCE_WAIT_FLAG_CANCEL) {
        if (armed) {
            armed->handle = 0;
            f->armed--;
        }
        return GMMU_STATUS_OK;
    }
    if (fence_reached(f->value[s], req->value)) {
        out->reached = 1;
        notify(f, req->handle, req->value, f->value[s]);
        return GMMU_STATUS_OK;
    }
    if (armed) /* the same wait twice is one wait: one event */
        return GMMU_STATUS_OK;
    if (!free_slot)
        return GMMU_STATUS_BUSY;
    *free_slot = (struct fence_wait){ .value = req->value, .handle = req->handle };
    f->armed++;
    return GMMU_STATUS_OK;
}

/* ------------------------------------------------------------ handlers */

/* Every request has a fixed size, so one function decodes, runs and
   replies for all five (firmware RAM holds the code). */
union fence_req {
    struct gmmu_fence_create_req create;
    struct gmmu_handle_req handle;
    struct gmmu_fence_signal_req signal;
    struct gmmu_fence_wait_req wait;
};

struct fence_cmd {
    uint16_t req_bytes, rsp_bytes;
    uint32_t (*call)(struct fences *f, const union fence_req *in, struct gmmu_fence_info *out);
};

static uint32_t serve(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                      uint32_t resp_cap, uint32_t *resp_len, const struct fence_cmd *cmd)
{
    union fence_req in;
    struct gmmu_fence_info out;
    uint32_t st = GMMU_STATUS_MALFORMED_LENGTH;

    if (req_len == cmd->req_bytes) {
        memcpy(&in, req, req_len);
        st = cmd->call(ctx, &in, &out);
    }
    return mbox_reply(st, &out, cmd->rsp_bytes, resp, resp_cap, resp_len);
}

static uint32_t create(struct fences *f, const union fence_req *in, struct gmmu_fence_info *out)
{
    return fence_create(f, in->create.value, out);
}

static uint32_t destroy(struct fences *f, const union fence_req *in, struct gmmu_fence_info *out)
{
    (void)out;
    return in->handle.reserved ? GMMU_STATUS_INVALID_ARGUMENT : fence_destroy(f, in->handle.handle);
}

static uint32_t signal(struct fences *f, const union fence_req *in, struct gmmu_fence_info *out)
{
    return in->signal.reserved ? GMMU_STATUS_INVALID_ARGUMENT
                               : fence_signal(f, in->signal.handle, in->signal.value, out);
}

static uint32_t read(struct fences *f, const union fence_req *in, struct gmmu_fence_info *out)
{
    return in->handle.reserved ? GMMU_STATUS_INVALID_ARGUMENT
                               : fence_read(f, in->handle.handle, out);
}

static uint32_t wait(struct fences *f, const union fence_req *in, struct gmmu_fence_info *out)
{
    return fence_wait(f, &in->wait, out);
}

#define FENCE_CMD(call, req_type, rsp_bytes)                                                   \
    static uint32_t cmd_##call(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp, \
                               uint32_t resp_cap, uint32_t *resp_len)                          \
    {                                                                                          \
        static const struct fence_cmd cmd = { sizeof(req_type), (rsp_bytes), call };           \
        return serve(ctx, req, req_len, resp, resp_cap, resp_len, &cmd);                       \
    }

FENCE_CMD(create, struct gmmu_fence_create_req, GMMU_FENCE_INFO_BYTES)
FENCE_CMD(destroy, struct gmmu_handle_req, 0)
FENCE_CMD(signal, struct gmmu_fence_signal_req, GMMU_FENCE_INFO_BYTES)
FENCE_CMD(read, struct gmmu_handle_req, GMMU_FENCE_INFO_BYTES)
FENCE_CMD(wait, struct gmmu_fence_wait_req, GMMU_FENCE_INFO_BYTES)

static const struct mbox_command commands[] = {
    { GMMU_OP_FENCE_CREATE, cmd_create }, { GMMU_OP_FENCE_DESTROY, cmd_destroy },
    { GMMU_OP_FENCE_SIGNAL, cmd_signal }, { GMMU_OP_FENCE_READ, cmd_read },
    { GMMU_OP_FENCE_WAIT, cmd_wait },
};
const struct mbox_command_set fence_commands = MBOX_COMMAND_SET(commands);
