// SPDX-License-Identifier: Apache-2.0
/* libgmmu: VidMm command wrappers (libgmmu_vidmm.h). */
#include "libgmmu_vidmm.h"

#include <string.h>

#include "libgmmu.h"

/* One command whose completion payload is exactly rsp_size bytes. */
static int call_exact(struct gmmu_dev *dev, uint16_t opcode, const void *req, size_t req_len,
                      void *rsp, size_t rsp_size)
{
    size_t got = 0;
    int rc = gmmu_call(dev, opcode, req, req_len, rsp, rsp_size, &got);

    return rc == 0 && got != rsp_size ? GMMU_E_PROTOCOL : rc;
}

int gmmu_alloc(struct gmmu_dev *dev, const struct gmmu_alloc_req *req, struct gmmu_alloc_rsp *out)
{
    struct gmmu_alloc_rsp rsp;
    int rc;

    if (!req || !out)
        return GMMU_E_INVALID_ARG;
    rc = call_exact(dev, GMMU_OP_ALLOC, req, sizeof(*req), &rsp, sizeof(rsp));
    if (rc == 0)
        *out = rsp;
    return rc;
}

static int handle_command(struct gmmu_dev *dev, uint16_t opcode, uint32_t handle)
{
    struct gmmu_handle_req req = { .handle = handle };

    return call_exact(dev, opcode, &req, sizeof(req), NULL, 0);
}

int gmmu_free(struct gmmu_dev *dev, uint32_t alloc_handle)
{
    return handle_command(dev, GMMU_OP_FREE, alloc_handle);
}

int gmmu_create_as(struct gmmu_dev *dev, uint32_t *as_handle, uint32_t *asid)
{
    struct gmmu_as_rsp rsp;
    int rc;

    if (!as_handle)
        return GMMU_E_INVALID_ARG;
    rc = call_exact(dev, GMMU_OP_CREATE_AS, NULL, 0, &rsp, sizeof(rsp));
    if (rc == 0) {
        *as_handle = rsp.handle;
        if (asid)
            *asid = rsp.asid;
    }
    return rc;
}

int gmmu_destroy_as(struct gmmu_dev *dev, uint32_t as_handle)
{
    return handle_command(dev, GMMU_OP_DESTROY_AS, as_handle);
}

int gmmu_map_va(struct gmmu_dev *dev, const struct gmmu_map_req *req, uint64_t *va)
{
    struct gmmu_va_rsp rsp;
    int rc;

    if (!req)
        return GMMU_E_INVALID_ARG;
    rc = call_exact(dev, GMMU_OP_MAP_VA, req, sizeof(*req), &rsp, sizeof(rsp));
    if (rc == 0 && va)
        *va = rsp.va;
    return rc;
}

int gmmu_unmap_va(struct gmmu_dev *dev, uint32_t as_handle, uint64_t va, uint64_t size)
{
    struct gmmu_range_req req = { .as_handle = as_handle, .va = va, .size = size };

    return call_exact(dev, GMMU_OP_UNMAP_VA, &req, sizeof(req), NULL, 0);
}

int gmmu_reserve_va(struct gmmu_dev *dev, uint32_t as_handle, uint32_t flags, uint64_t va,
                    uint64_t size, uint64_t *out_va)
{
    struct gmmu_reserve_req req = {
        .as_handle = as_handle, .flags = flags, .va = va, .size = size
    };
    struct gmmu_va_rsp rsp;
    int rc = call_exact(dev, GMMU_OP_RESERVE_VA, &req, sizeof(req), &rsp, sizeof(rsp));

    if (rc == 0 && out_va)
        *out_va = rsp.va;
    return rc;
}

/* The batch goes as one message: splitting it would lose its all-or-nothing. */
int gmmu_update_va(struct gmmu_dev *dev, uint32_t as_handle, const struct gmmu_update_op *ops,
                   size_t count)
{
    uint8_t msg[GMMU_UPDATE_REQ_BYTES + GMMU_UPDATE_MAX_OPS * GMMU_UPDATE_OP_BYTES];
    struct gmmu_update_req req = { .as_handle = as_handle, .count = (uint32_t)count };

    if (count > GMMU_UPDATE_MAX_OPS || (count && !ops))
        return GMMU_E_INVALID_ARG;
    memcpy(msg, &req, sizeof(req));
    if (count)
        memcpy(msg + sizeof(req), ops, count * sizeof(*ops));
    return call_exact(dev, GMMU_OP_UPDATE_VA, msg, sizeof(req) + count * sizeof(*ops), NULL, 0);
}

int gmmu_query_va(struct gmmu_dev *dev, uint32_t as_handle, uint64_t va, struct gmmu_query_rsp *out)
{
    struct gmmu_query_req req = { .as_handle = as_handle, .va = va };
    struct gmmu_query_rsp rsp;
    int rc;

    if (!out)
        return GMMU_E_INVALID_ARG;
    rc = call_exact(dev, GMMU_OP_QUERY_VA, &req, sizeof(req), &rsp, sizeof(rsp));
    if (rc == 0)
        *out = rsp;
    return rc;
}

int gmmu_get_vram(struct gmmu_dev *dev, struct gmmu_vram_rsp *out)
{
    struct gmmu_vram_rsp rsp;
    int rc;

    if (!out)
        return GMMU_E_INVALID_ARG;
    rc = call_exact(dev, GMMU_OP_GET_VRAM, NULL, 0, &rsp, sizeof(rsp));
    if (rc == 0)
        *out = rsp;
    return rc;
}

int gmmu_add_backing(struct gmmu_dev *dev, uint64_t sys_addr, uint64_t size)
{
    struct gmmu_backing_req req = { .sys_addr = sys_addr, .size = size };

    return call_exact(dev, GMMU_OP_ADD_BACKING, &req, sizeof req, NULL, 0);
}

static int residency(struct gmmu_dev *dev, uint16_t opcode, const uint32_t *handles, size_t count,
                     uint64_t *fence)
{
    uint8_t msg[GMMU_RESIDENCY_REQ_BYTES + 4 * GMMU_RESIDENCY_MAX];
    struct gmmu_residency_req req = { .count = (uint32_t)count };
    struct gmmu_residency_rsp rsp;
    size_t len = sizeof(req) + 4 * count;
    int rc;

    if (!count || count > GMMU_RESIDENCY_MAX || !handles)
        return GMMU_E_INVALID_ARG;
    memcpy(msg, &req, sizeof(req));
    memcpy(msg + sizeof(req), handles, 4 * count);
    if (opcode == GMMU_OP_EVICT)
        return call_exact(dev, opcode, msg, len, NULL, 0);
    rc = call_exact(dev, opcode, msg, len, &rsp, sizeof(rsp));
    if (rc == 0 && fence)
        *fence = rsp.fence;
    return rc;
}

int gmmu_make_resident(struct gmmu_dev *dev, const uint32_t *handles, size_t count, uint64_t *fence)
{
    return residency(dev, GMMU_OP_MAKE_RESIDENT, handles, count, fence);
}

int gmmu_evict(struct gmmu_dev *dev, const uint32_t *handles, size_t count)
{
    return residency(dev, GMMU_OP_EVICT, handles, count, NULL);
}

int gmmu_query_alloc(struct gmmu_dev *dev, uint32_t alloc_handle, struct gmmu_alloc_info *out)
{
    struct gmmu_handle_req req = { .handle = alloc_handle };
    struct gmmu_alloc_info rsp;
    int rc;

    if (!out)
        return GMMU_E_INVALID_ARG;
    rc = call_exact(dev, GMMU_OP_QUERY_ALLOC, &req, sizeof(req), &rsp, sizeof(rsp));
    if (rc == 0)
        *out = rsp;
    return rc;
}

int gmmu_wait_paging_fence(struct gmmu_dev *dev, uint64_t fence, unsigned tries)
{
    for (unsigned i = 0; i < tries; i++) {
        struct gmmu_vram_rsp v;
        int rc = gmmu_get_vram(dev, &v);

        if (rc)
            return rc;
        if (v.paging_fence >= fence)
            return 0;
    }
    return GMMU_E_TIMEOUT;
}

int gmmu_engine_run(struct gmmu_dev *dev, const struct gmmu_engine_req *req,
                    struct gmmu_engine_rsp *out)
{
    return call_exact(dev, GMMU_OP_ENGINE_RUN, req, sizeof *req, out, sizeof *out);
}

int gmmu_engine_start(struct gmmu_dev *dev, const struct gmmu_engine_req *req, uint32_t *out_asid)
{
    struct gmmu_engine_rsp rsp;
    int rc = call_exact(dev, GMMU_OP_ENGINE_START, req, sizeof *req, &rsp, sizeof rsp);

    if (rc == 0 && out_asid)
        *out_asid = rsp.asid;
    return rc;
}

int gmmu_engine_status(struct gmmu_dev *dev, uint32_t engine, uint32_t flags,
                       struct gmmu_engine_rsp *out)
{
    struct gmmu_engine_status_req req = { .engine = engine, .flags = flags };

    return call_exact(dev, GMMU_OP_ENGINE_STATUS, &req, sizeof req, out, sizeof *out);
}
