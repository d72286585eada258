#include "commands.h"

#include <string.h>

#include <gmmu/pte.h>

#include "hal.h"
#include "mbox_hw.h"
#include "version.h"
#include "engine_cmd.h"
#include "mmu_events.h"
#include "vidmm_cmds.h"
#include "vidmm_hw.h"

MBOX_HOT static uint32_t reply(const void *data, uint32_t len, uint8_t *resp, uint32_t cap, uint32_t *resp_len)
{
    if (len > cap)
        return GMMU_STATUS_INTERNAL;
    memcpy(resp, data, len);
    *resp_len = len;
    return GMMU_STATUS_OK;
}

/* Payload and response buffers are word-aligned (mbox_service keeps them
   as uint32_t arrays), so the echo copies words: picolibc's size-optimised
   memcpy moves one byte per iteration. */
MBOX_HOT static uint32_t cmd_ping(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                  uint32_t cap, uint32_t *resp_len)
{
    (void)ctx;
    if (req_len > cap)
        return GMMU_STATUS_INTERNAL;
    const uint32_t *src = (const uint32_t *)(const void *)req;
    uint32_t *dst = (uint32_t *)(void *)resp;
    for (uint32_t i = 0; i < (req_len + 3u) / 4u; i++)
        dst[i] = src[i];
    *resp_len = req_len;
    return GMMU_STATUS_OK;
}

static uint32_t cmd_get_info(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                             uint32_t cap, uint32_t *resp_len)
{
    (void)ctx;
    (void)req;
    if (req_len != 0)
        return GMMU_STATUS_MALFORMED_LENGTH;
    struct gmmu_info info = {
        .fw_version = GMMU_FW_VERSION_CODE,
        .fw_build = GMMU_FW_BUILD_CODE,
        .proto_version = GMMU_PROTO_VERSION,
        .ddr_mb = (uint32_t)(hal_ddr_size() >> 20),
        .cpu_hz = 0,
        .uptime_cycles = hal_cycles(),
    };
    return reply(&info, sizeof info, resp, cap, resp_len);
}

static uint32_t cmd_get_caps(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                             uint32_t cap, uint32_t *resp_len)
{
    (void)ctx;
    (void)req;
    if (req_len != 0)
        return GMMU_STATUS_MALFORMED_LENGTH;
    struct gmmu_caps caps = {
        .flags = GMMU_CAPS_FLAGS,
        .page_table_update_mode = GMMU_CAP_PAGE_TABLE_UPDATE_MODE,
        .virtual_address_bit_count = GMMU_CAP_VIRTUAL_ADDRESS_BIT_COUNT,
        .leaf_page_table_size_for_64k_pages = GMMU_CAP_LEAF_PAGE_TABLE_SIZE_FOR64_KPAGES_IN_BYTES,
        .page_table_level_count = GMMU_CAP_PAGE_TABLE_LEVEL_COUNT,
        .legacy_behaviors = GMMU_CAP_SOURCE_PAGE_TABLE_VA_IN_TRANSFER,
    };
    return reply(&caps, sizeof caps, resp, cap, resp_len);
}

MBOX_HOT static uint32_t cmd_get_stats(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                              uint32_t cap, uint32_t *resp_len)
{
    const struct mbox_service *svc = ctx;
    (void)req;
    if (req_len != 0)
        return GMMU_STATUS_MALFORMED_LENGTH;
    struct gmmu_stats stats = svc->stats;
    stats.uptime_cycles = hal_cycles();
    stats.last_cmd_cycles = mbox_hw_read(GMMU_MBOX_CPL_LATENCY);
    return reply(&stats, sizeof stats, resp, cap, resp_len);
}

const struct mbox_command commands[] = {
    {GMMU_OP_PING, cmd_ping},
    {GMMU_OP_GET_INFO, cmd_get_info},
    {GMMU_OP_GET_CAPS, cmd_get_caps},
    {GMMU_OP_GET_STATS, cmd_get_stats},
    {GMMU_OP_GET_MMU_COUNTERS, mmu_events_cmd_counters},
    {GMMU_OP_GET_PT_STATS, vidmm_hw_cmd_pt_stats},
    {GMMU_OP_ALLOC, vidmm_cmd_alloc},
    {GMMU_OP_FREE, vidmm_cmd_free},
    {GMMU_OP_CREATE_AS, vidmm_cmd_create_as},
    {GMMU_OP_DESTROY_AS, vidmm_cmd_destroy_as},
    {GMMU_OP_MAP_VA, vidmm_cmd_map_va},
    {GMMU_OP_UNMAP_VA, vidmm_cmd_unmap_va},
    {GMMU_OP_RESERVE_VA, vidmm_cmd_reserve_va},
    {GMMU_OP_UPDATE_VA, vidmm_cmd_update_va},
    {GMMU_OP_QUERY_VA, vidmm_cmd_query_va},
    {GMMU_OP_GET_VRAM, vidmm_cmd_get_vram},
    {GMMU_OP_ENGINE_RUN, engine_cmd_run},
};
const size_t command_count = sizeof commands / sizeof commands[0];
