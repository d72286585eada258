// SPDX-License-Identifier: Apache-2.0
#include "commands.h"

#include <gmmu/pte.h>

#include "hal.h"
#include "mbox_hw.h"
#include "version.h"
#include "vidmm_cmds.h"
#include "vidmm_hw.h"

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
    return mbox_reply(GMMU_STATUS_OK, &info, sizeof info, resp, cap, resp_len);
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
        /* The design's mode (GPU_PHYSICAL: the paging engine writes tables
           at VRAM offsets) holds only when the engine is there. */
        .page_table_update_mode =
            vidmm_hw_engine() ? GMMU_CAP_PAGE_TABLE_UPDATE_MODE : GMMU_PAGETABLE_UPDATE_CPU_VIRTUAL,
        .virtual_address_bit_count = GMMU_CAP_VIRTUAL_ADDRESS_BIT_COUNT,
        .leaf_page_table_size_for_64k_pages = GMMU_CAP_LEAF_PAGE_TABLE_SIZE_FOR64_KPAGES_IN_BYTES,
        .page_table_level_count = GMMU_CAP_PAGE_TABLE_LEVEL_COUNT,
        .legacy_behaviors = GMMU_CAP_SOURCE_PAGE_TABLE_VA_IN_TRANSFER,
    };
    return mbox_reply(GMMU_STATUS_OK, &caps, sizeof caps, resp, cap, resp_len);
}

MBOX_HOT static uint32_t cmd_get_stats(void *ctx, const uint8_t *req, uint32_t req_len,
                                       uint8_t *resp, uint32_t cap, uint32_t *resp_len)
{
    const struct mbox_service *svc = ctx;
    (void)req;
    if (req_len != 0)
        return GMMU_STATUS_MALFORMED_LENGTH;
    struct gmmu_stats stats = svc->stats;
    stats.uptime_cycles = hal_cycles();
    stats.last_cmd_cycles = mbox_hw_read(GMMU_MBOX_CPL_LATENCY);
    return mbox_reply(GMMU_STATUS_OK, &stats, sizeof stats, resp, cap, resp_len);
}

static const struct mbox_command device[] = {
    { GMMU_OP_GET_INFO, cmd_get_info },
    { GMMU_OP_GET_CAPS, cmd_get_caps },
    { GMMU_OP_GET_STATS, cmd_get_stats },
};
const struct mbox_command_set device_commands = MBOX_COMMAND_SET(device);

bool commands_register(struct mbox_service *svc, struct vidmm *vm, struct mmu_events *events,
                       struct engine_cmd *engine, struct fences *fences)
{
    /* Opcodes are found through the service's table, whatever the order. */
    return mbox_service_register(svc, &mbox_service_commands, svc) &&
           mbox_service_register(svc, &device_commands, svc) &&
           mbox_service_register(svc, &mmu_events_commands, events) &&
           mbox_service_register(svc, &vidmm_hw_commands, vidmm_hw_stats()) &&
           mbox_service_register(svc, &vidmm_commands, vm) &&
           mbox_service_register(svc, &engine_commands, engine) &&
           mbox_service_register(svc, &fence_commands, fences);
}
