/* ENGINE_RUN: run a GPU engine in an address space for the host. */
#ifndef GMMU_ENGINE_CMD_H
#define GMMU_ENGINE_CMD_H

#include "mbox_service.h"

uint32_t engine_cmd_run(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                        uint32_t resp_cap, uint32_t *resp_len);

#endif
