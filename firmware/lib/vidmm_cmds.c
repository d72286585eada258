// SPDX-License-Identifier: Apache-2.0
/*
 * VidMm mailbox handlers: payload in, vidmm command, payload out.
 * Payloads are copied into local structures, so their alignment in the
 * message buffer does not matter. The wire is little-endian, like both
 * ends of the link.
 *
 * Every opcode but UPDATE_VA has a fixed-size request, so one function
 * (serve) decodes, runs and replies for all of them from a small
 * description; each handler only names its description. The firmware's
 * RAM holds its code, and ten copies of the decode and reply steps cost
 * more than a kilobyte of it.
 */
#include "vidmm_cmds.h"

#include <string.h>

#include "gmmu/pte.h"

/* GET_SEGMENTS' answer: the header and the segments VidMm has, in id
   order: system memory, VRAM, the aperture (listed even when the platform
   gives it no pages: WDDM reports one aperture segment). */
#define VIDMM_SEGMENTS 3
_Static_assert(VIDMM_SEGMENTS <= GMMU_SEGMENTS_MAX, "GET_SEGMENTS lists too many");
struct segments_out {
    struct gmmu_segments_rsp hdr;
    struct gmmu_segment_desc seg[VIDMM_SEGMENTS];
};

#define VIDMM_CMD_ARGS                                                                 \
    void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp, uint32_t resp_cap, \
        uint32_t *resp_len

/* A command with a fixed-size request: the request's and the response's
   sizes (0: no payload) and the vidmm call, given the decoded request and
   room for the response. */
struct fixed_cmd {
    uint16_t req_bytes, rsp_bytes;
    uint32_t (*call)(struct vidmm *vm, const void *in, void *out);
};

union fixed_rsp {
    struct gmmu_alloc_rsp alloc;
    struct gmmu_as_rsp as;
    struct gmmu_va_rsp va;
    struct gmmu_map_rsp map;
    struct gmmu_paging_rsp paging;
    struct gmmu_query_rsp query;
    struct gmmu_vram_rsp vram;
    struct gmmu_alloc_info info;
    struct segments_out segments;
};

/* INTERNAL without an instance; MALFORMED_LENGTH unless the request is
   exactly its size; else the vidmm call's status and, on OK, its response.
   The description comes last so that a handler passes its own arguments
   through unmoved. */
static uint32_t serve(VIDMM_CMD_ARGS, const struct fixed_cmd *cmd)
{
    struct vidmm *vm = ctx;
    union vidmm_fixed_req in;
    union fixed_rsp out;
    uint32_t st;

    if (!vm) {
        st = GMMU_STATUS_INTERNAL;
    } else if (req_len != cmd->req_bytes) {
        st = GMMU_STATUS_MALFORMED_LENGTH;
    } else {
        if (req_len)
            mbox_copy(&in, req, req_len);
        st = cmd->call(vm, &in, &out);
    }
    /* mbox_reply, with the word copy. */
    if (st == GMMU_STATUS_OK && cmd->rsp_bytes <= resp_cap) {
        mbox_copy(resp, &out, cmd->rsp_bytes);
        *resp_len = cmd->rsp_bytes;
        return st;
    }
    return mbox_reply(st, &out, cmd->rsp_bytes, resp, resp_cap, resp_len);
}

static uint32_t alloc(struct vidmm *vm, const void *in, void *out)
{
    return vidmm_alloc(vm, in, out);
}

static uint32_t free_alloc(struct vidmm *vm, const void *in, void *out)
{
    (void)out;
    return vidmm_free(vm, in);
}

static uint32_t create_as(struct vidmm *vm, const void *in, void *out)
{
    (void)in;
    return vidmm_create_as(vm, out);
}

static uint32_t destroy_as(struct vidmm *vm, const void *in, void *out)
{
    (void)out;
    return vidmm_destroy_as(vm, in);
}

/* MAP_VA, UNMAP_VA and UPDATE_VA signal the paging fence when they
   succeed; their work is done by then (commands are synchronous). */
static uint32_t map_va(struct vidmm *vm, const void *in, void *out)
{
    struct gmmu_map_rsp *rsp = out;
    struct gmmu_va_rsp va;
    uint32_t st = vidmm_map_va(vm, in, &va);

    if (st == GMMU_STATUS_OK)
        *rsp = (struct gmmu_map_rsp){ .va = va.va, .fence = vidmm_paging_signal(vm) };
    return st;
}

static uint32_t unmap_va(struct vidmm *vm, const void *in, void *out)
{
    struct gmmu_paging_rsp *rsp = out;
    uint32_t st = vidmm_unmap_va(vm, in);

    if (st == GMMU_STATUS_OK)
        rsp->fence = vidmm_paging_signal(vm);
    return st;
}

static uint32_t reserve_va(struct vidmm *vm, const void *in, void *out)
{
    return vidmm_reserve_va(vm, in, out);
}

static uint32_t query_va(struct vidmm *vm, const void *in, void *out)
{
    return vidmm_query_va(vm, in, out);
}

static uint32_t add_backing(struct vidmm *vm, const void *in, void *out)
{
    (void)out;
    return vidmm_add_backing(vm, in);
}

static uint32_t remove_backing(struct vidmm *vm, const void *in, void *out)
{
    return vidmm_remove_backing(vm, in, out);
}

static uint32_t query_alloc(struct vidmm *vm, const void *in, void *out)
{
    return vidmm_query_alloc(vm, in, out);
}

static uint32_t get_vram(struct vidmm *vm, const void *in, void *out)
{
    (void)in;
    vidmm_get_vram(vm, out);
    return GMMU_STATUS_OK;
}

/* From VidMm's accounting, so the two can never disagree. The host's own
   SYSTEM buffers are not VidMm's to count: system memory's size is the
   backing pool. Page tables live in VRAM only; BAR1 reaches VRAM (up to
   APERTURE_LIMIT), never host memory nor the aperture. */
static uint32_t get_segments(struct vidmm *vm, const void *in, void *out)
{
    struct gmmu_vram_rsp v;
    uint64_t apt_bytes, apt_used;
    (void)in;
    vidmm_get_vram(vm, &v);
    vidmm_aperture_usage(vm, &apt_bytes, &apt_used);
    *(struct segments_out *)out = (struct segments_out){
        .hdr = { .count = VIDMM_SEGMENTS },
        .seg = { { .id = GMMU_SEGMENT_SYSTEM,
                   .kind = GMMU_SEGMENT_KIND_SYSTEM,
                   .flags = GMMU_SEGMENT_FLAG_HOST_MEMORY,
                   .size = v.backing_bytes,
                   .in_use = v.backing_bytes - v.backing_free },
                 { .id = GMMU_SEGMENT_VRAM,
                   .kind = GMMU_SEGMENT_KIND_MEMORY,
                   .flags = GMMU_SEGMENT_FLAG_BAR1 | GMMU_SEGMENT_FLAG_PAGE_TABLES,
                   .size = v.segment_bytes,
                   .in_use = v.segment_bytes - v.free_bytes },
                 { .id = GMMU_SEGMENT_APERTURE,
                   .kind = GMMU_SEGMENT_KIND_APERTURE,
                   .flags = 0,
                   .base = GMMU_APERTURE_PHYS_BASE,
                   .size = apt_bytes,
                   .in_use = apt_used } },
    };
    return GMMU_STATUS_OK;
}

/* The handler cmd_<call> of a fixed command: serve() with the request's
   and response's sizes and the call. */
#define FIXED_CMD(call, req_bytes, rsp_bytes)                                   \
    static uint32_t cmd_##call(VIDMM_CMD_ARGS)                                  \
    {                                                                           \
        static const struct fixed_cmd cmd = { (req_bytes), (rsp_bytes), call }; \
        return serve(ctx, req, req_len, resp, resp_cap, resp_len, &cmd);        \
    }

FIXED_CMD(alloc, sizeof(struct gmmu_alloc_req), sizeof(struct gmmu_alloc_rsp))
FIXED_CMD(free_alloc, sizeof(struct gmmu_handle_req), 0)
FIXED_CMD(create_as, 0, sizeof(struct gmmu_as_rsp))
FIXED_CMD(destroy_as, sizeof(struct gmmu_handle_req), 0)
FIXED_CMD(map_va, sizeof(struct gmmu_map_req), sizeof(struct gmmu_map_rsp))
FIXED_CMD(unmap_va, sizeof(struct gmmu_range_req), sizeof(struct gmmu_paging_rsp))
FIXED_CMD(reserve_va, sizeof(struct gmmu_reserve_req), sizeof(struct gmmu_va_rsp))
FIXED_CMD(query_va, sizeof(struct gmmu_query_req), sizeof(struct gmmu_query_rsp))
FIXED_CMD(get_vram, 0, sizeof(struct gmmu_vram_rsp))
FIXED_CMD(add_backing, sizeof(struct gmmu_backing_req), 0)
FIXED_CMD(remove_backing, sizeof(struct gmmu_backing_remove_req),
          sizeof(struct gmmu_backing_remove_rsp))
FIXED_CMD(query_alloc, sizeof(struct gmmu_handle_req), sizeof(struct gmmu_alloc_info))
FIXED_CMD(get_segments, 0, sizeof(struct segments_out))

/*
 * A list command's request: its header (copied to hdr), then exactly
 * *count items of item_bytes, count being a field of hdr (read once the
 * header is copied); anything else is malformed.
 */
static uint32_t list_request(const struct vidmm *vm, const uint8_t *req, uint32_t req_len,
                             void *hdr, uint32_t hdr_bytes, const uint32_t *count,
                             uint32_t item_bytes, uint32_t *resp_len)
{
    *resp_len = 0;
    if (!vm)
        return GMMU_STATUS_INTERNAL;
    if (req_len < hdr_bytes)
        return GMMU_STATUS_MALFORMED_LENGTH;
    memcpy(hdr, req, hdr_bytes);
    if ((uint64_t)*count * item_bytes != req_len - hdr_bytes)
        return GMMU_STATUS_MALFORMED_LENGTH;
    return GMMU_STATUS_OK;
}

/* The header, then exactly `count` operations. */
static uint32_t cmd_update_va(VIDMM_CMD_ARGS)
{
    struct vidmm *vm = ctx;
    struct gmmu_update_req in = { 0 };
    struct gmmu_paging_rsp out;
    uint32_t st =
        list_request(vm, req, req_len, &in, sizeof(in), &in.count, GMMU_UPDATE_OP_BYTES, resp_len);

    if (st != GMMU_STATUS_OK)
        return st;
    st = vidmm_update_va(vm, &in, req + sizeof(in));
    if (st == GMMU_STATUS_OK)
        out.fence = vidmm_paging_signal(vm);
    return mbox_reply(st, &out, sizeof(out), resp, resp_cap, resp_len);
}

uint32_t vidmm_batch_apply(void *ctx, uint32_t as_handle, const struct gmmu_update_op *ops,
                           uint32_t count, uint32_t after)
{
    struct vidmm *vm = ctx;
    struct gmmu_update_req in = { .as_handle = as_handle, .count = count };
    uint32_t st = vidmm_update_va_after(vm, &in, ops, after);

    if (st == GMMU_STATUS_OK)
        (void)vidmm_paging_signal(vm);
    return st;
}

uint32_t vidmm_batch_check(void *ctx, uint32_t as_handle, const struct gmmu_update_op *ops,
                           uint32_t count)
{
    struct gmmu_update_req in = { .as_handle = as_handle, .count = count };

    return vidmm_update_va_check(ctx, &in, ops);
}

/* ALLOC_PAGES: the header, then exactly `count` page addresses. */
static uint32_t cmd_alloc_pages(VIDMM_CMD_ARGS)
{
    struct vidmm *vm = ctx;
    struct gmmu_alloc_pages_req in = { 0 };
    struct gmmu_alloc_rsp out;
    uint32_t st =
        list_request(vm, req, req_len, &in, sizeof(in), &in.count, sizeof(uint64_t), resp_len);

    if (st != GMMU_STATUS_OK)
        return st;
    st = vidmm_alloc_pages(vm, &in, req + sizeof(in), &out);
    return mbox_reply(st, &out, sizeof(out), resp, resp_cap, resp_len);
}

/* MAKE_RESIDENT and EVICT: the header, then exactly `count` handles. */
static uint32_t residency(VIDMM_CMD_ARGS, bool make)
{
    struct vidmm *vm = ctx;
    struct gmmu_residency_req in = { 0 };
    struct gmmu_residency_rsp out;
    uint32_t st =
        list_request(vm, req, req_len, &in, sizeof(in), &in.count, sizeof(uint32_t), resp_len);

    if (st != GMMU_STATUS_OK)
        return st;
    if (!make)
        return vidmm_evict(vm, &in, req + sizeof(in));
    st = vidmm_make_resident(vm, &in, req + sizeof(in), &out);
    return mbox_reply(st, &out, sizeof(out), resp, resp_cap, resp_len);
}

static uint32_t cmd_make_resident(VIDMM_CMD_ARGS)
{
    return residency(ctx, req, req_len, resp, resp_cap, resp_len, true);
}

static uint32_t cmd_evict(VIDMM_CMD_ARGS)
{
    return residency(ctx, req, req_len, resp, resp_cap, resp_len, false);
}

static const struct mbox_command commands[] = {
    { GMMU_OP_ALLOC, cmd_alloc },
    { GMMU_OP_FREE, cmd_free_alloc },
    { GMMU_OP_CREATE_AS, cmd_create_as },
    { GMMU_OP_DESTROY_AS, cmd_destroy_as },
    { GMMU_OP_MAP_VA, cmd_map_va },
    { GMMU_OP_UNMAP_VA, cmd_unmap_va },
    { GMMU_OP_RESERVE_VA, cmd_reserve_va },
    { GMMU_OP_UPDATE_VA, cmd_update_va },
    { GMMU_OP_QUERY_VA, cmd_query_va },
    { GMMU_OP_GET_VRAM, cmd_get_vram },
    { GMMU_OP_ADD_BACKING, cmd_add_backing },
    { GMMU_OP_MAKE_RESIDENT, cmd_make_resident },
    { GMMU_OP_EVICT, cmd_evict },
    { GMMU_OP_QUERY_ALLOC, cmd_query_alloc },
    { GMMU_OP_GET_SEGMENTS, cmd_get_segments },
    { GMMU_OP_REMOVE_BACKING, cmd_remove_backing },
    { GMMU_OP_ALLOC_PAGES, cmd_alloc_pages },
};
const struct mbox_command_set vidmm_commands = MBOX_COMMAND_SET(commands);
