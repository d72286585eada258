// SPDX-License-Identifier: Apache-2.0
/* libgmmu: VidMm command wrappers (libgmmu_vidmm.h). */
#include "libgmmu_vidmm.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* A command whose completion payload is rsp_size bytes, or old_size from
   a device older than protocol 1.8 (the rest of *rsp is then zero). */
static int call_either(struct gmmu_dev *dev, uint16_t opcode, const void *req, size_t req_len,
                       void *rsp, size_t rsp_size, size_t old_size)
{
    size_t got = 0;
    int rc;

    memset(rsp, 0, rsp_size);
    rc = gmmu_call(dev, opcode, req, req_len, rsp, rsp_size, &got);
    return rc == 0 && got != rsp_size && got != old_size ? GMMU_E_PROTOCOL : rc;
}

int gmmu_map_va_fence(struct gmmu_dev *dev, const struct gmmu_map_req *req, uint64_t *va,
                      uint64_t *fence)
{
    struct gmmu_map_rsp rsp;
    int rc;

    if (!req)
        return GMMU_E_INVALID_ARG;
    rc = call_either(dev, GMMU_OP_MAP_VA, req, sizeof(*req), &rsp, sizeof(rsp), GMMU_VA_RSP_BYTES);
    if (rc == 0 && va)
        *va = rsp.va;
    if (rc == 0 && fence)
        *fence = rsp.fence;
    return rc;
}

int gmmu_map_va(struct gmmu_dev *dev, const struct gmmu_map_req *req, uint64_t *va)
{
    return gmmu_map_va_fence(dev, req, va, NULL);
}

int gmmu_unmap_va_flags(struct gmmu_dev *dev, uint32_t as_handle, uint64_t va, uint64_t size,
                        uint32_t flags, uint64_t *fence)
{
    struct gmmu_range_req req = { .as_handle = as_handle, .flags = flags, .va = va, .size = size };
    struct gmmu_paging_rsp rsp;
    int rc = call_either(dev, GMMU_OP_UNMAP_VA, &req, sizeof(req), &rsp, sizeof(rsp), 0);

    if (rc == 0 && fence)
        *fence = rsp.fence;
    return rc;
}

int gmmu_unmap_va_fence(struct gmmu_dev *dev, uint32_t as_handle, uint64_t va, uint64_t size,
                        uint64_t *fence)
{
    return gmmu_unmap_va_flags(dev, as_handle, va, size, 0, fence);
}

int gmmu_unmap_va(struct gmmu_dev *dev, uint32_t as_handle, uint64_t va, uint64_t size)
{
    return gmmu_unmap_va_fence(dev, as_handle, va, size, NULL);
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
int gmmu_update_va_fence(struct gmmu_dev *dev, uint32_t as_handle, const struct gmmu_update_op *ops,
                         size_t count, uint64_t *fence)
{
    uint8_t msg[GMMU_UPDATE_REQ_BYTES + GMMU_UPDATE_MAX_OPS * GMMU_UPDATE_OP_BYTES];
    struct gmmu_update_req req = { .as_handle = as_handle, .count = (uint32_t)count };
    struct gmmu_paging_rsp rsp;
    int rc;

    if (count > GMMU_UPDATE_MAX_OPS || (count && !ops))
        return GMMU_E_INVALID_ARG;
    memcpy(msg, &req, sizeof(req));
    if (count)
        memcpy(msg + sizeof(req), ops, count * sizeof(*ops));
    rc = call_either(dev, GMMU_OP_UPDATE_VA, msg, sizeof(req) + count * sizeof(*ops), &rsp,
                     sizeof(rsp), 0);
    if (rc == 0 && fence)
        *fence = rsp.fence;
    return rc;
}

int gmmu_update_va(struct gmmu_dev *dev, uint32_t as_handle, const struct gmmu_update_op *ops,
                   size_t count)
{
    return gmmu_update_va_fence(dev, as_handle, ops, count, NULL);
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

int gmmu_get_segments(struct gmmu_dev *dev, struct gmmu_segment_desc *out, size_t cap,
                      size_t *count)
{
    struct {
        struct gmmu_segments_rsp hdr;
        struct gmmu_segment_desc seg[GMMU_SEGMENTS_MAX];
    } rsp;
    size_t got = 0;
    int rc;

    if (!count || (cap && !out))
        return GMMU_E_INVALID_ARG;
    rc = gmmu_call(dev, GMMU_OP_GET_SEGMENTS, NULL, 0, &rsp, sizeof(rsp), &got);
    if (rc)
        return rc;
    if (got < sizeof(rsp.hdr) || rsp.hdr.count > GMMU_SEGMENTS_MAX ||
        got != sizeof(rsp.hdr) + rsp.hdr.count * sizeof(rsp.seg[0]))
        return GMMU_E_PROTOCOL;
    *count = rsp.hdr.count;
    memcpy(out, rsp.seg, (cap < rsp.hdr.count ? cap : rsp.hdr.count) * sizeof(rsp.seg[0]));
    return 0;
}

int gmmu_add_backing(struct gmmu_dev *dev, uint64_t sys_addr, uint64_t size)
{
    struct gmmu_backing_req req = { .sys_addr = sys_addr, .size = size };

    return call_exact(dev, GMMU_OP_ADD_BACKING, &req, sizeof req, NULL, 0);
}

int gmmu_remove_backing(struct gmmu_dev *dev, uint64_t sys_addr, uint64_t size, uint32_t flags,
                        struct gmmu_backing_remove_rsp *rsp)
{
    struct gmmu_backing_remove_req req = { .sys_addr = sys_addr, .size = size, .flags = flags };
    struct gmmu_backing_remove_rsp out;
    int rc = call_exact(dev, GMMU_OP_REMOVE_BACKING, &req, sizeof req, &out, sizeof out);

    if (rc == 0 && rsp)
        *rsp = out;
    return rc;
}

/* One list at a time per process: the device stages one per owner token,
   and the token is the process's. */
static pthread_mutex_t pages_lock = PTHREAD_MUTEX_INITIALIZER;

int gmmu_alloc_pages(struct gmmu_dev *dev, const uint64_t *pages, size_t count,
                     struct gmmu_alloc_rsp *out)
{
    return gmmu_alloc_pages_flags(dev, pages, count, 0, out);
}

int gmmu_alloc_pages_flags(struct gmmu_dev *dev, const uint64_t *pages, size_t count,
                           uint32_t flags, struct gmmu_alloc_rsp *out)
{
    uint8_t msg[GMMU_ALLOC_PAGES_REQ_BYTES + 8 * GMMU_ALLOC_PAGES_MAX];
    struct gmmu_alloc_rsp rsp;
    size_t done = 0;
    int rc;

    if (!dev || !pages || !out || !count || count > UINT64_MAX / 4096 ||
        (flags & (GMMU_ALLOC_PAGES_FLAG_BEGIN | GMMU_ALLOC_PAGES_FLAG_COMMIT)))
        return GMMU_E_INVALID_ARG;
    pthread_mutex_lock(&pages_lock);
    do {
        size_t k = count - done < GMMU_ALLOC_PAGES_MAX ? count - done : GMMU_ALLOC_PAGES_MAX;
        struct gmmu_alloc_pages_req req = {
            .owner = gmmu_fence_owner(),
            .flags = (done ? 0u : GMMU_ALLOC_PAGES_FLAG_BEGIN | flags) |
                     (done + k == count ? GMMU_ALLOC_PAGES_FLAG_COMMIT : 0u),
            .size = (uint64_t)count * 4096,
            .count = (uint32_t)k,
        };

        memcpy(msg, &req, sizeof(req));
        memcpy(msg + sizeof(req), pages + done, 8 * k);
        rc = call_exact(dev, GMMU_OP_ALLOC_PAGES, msg, sizeof(req) + 8 * k, &rsp, sizeof(rsp));
        done += k;
    } while (rc == 0 && done < count);
    pthread_mutex_unlock(&pages_lock);
    if (rc == 0)
        *out = rsp;
    return rc;
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

int gmmu_engine_submit(struct gmmu_dev *dev, const struct gmmu_engine_submit_req *req,
                       uint32_t *job)
{
    struct gmmu_engine_submit_req rq = *req;
    struct gmmu_engine_submit_rsp rsp;

    if (!rq.owner)
        rq.owner = gmmu_fence_owner();
    int rc = call_exact(dev, GMMU_OP_ENGINE_SUBMIT, &rq, sizeof rq, &rsp, sizeof rsp);
    if (rc == 0 && job)
        *job = rsp.job;
    return rc;
}

int gmmu_engine_cancel(struct gmmu_dev *dev, const struct gmmu_engine_cancel_req *rq,
                       struct gmmu_engine_cancel_rsp *out)
{
    struct gmmu_engine_cancel_req req = *rq;
    struct gmmu_engine_cancel_rsp rsp;

    if (!req.owner)
        req.owner = gmmu_fence_owner();
    int rc = call_exact(dev, GMMU_OP_ENGINE_CANCEL, &req, sizeof req, &rsp, sizeof rsp);

    if (rc == 0 && out)
        *out = rsp;
    return rc;
}

int gmmu_engine_queue(struct gmmu_dev *dev, uint32_t engine, struct gmmu_engine_queue_rsp *out)
{
    struct gmmu_engine_status_req req = { .engine = engine };

    return call_exact(dev, GMMU_OP_ENGINE_QUEUE, &req, sizeof req, out, sizeof *out);
}

int gmmu_update_submit(struct gmmu_dev *dev, const struct gmmu_update_submit_req *req,
                       const struct gmmu_update_op *ops, size_t count, uint32_t *batch)
{
    uint8_t msg[sizeof(struct gmmu_update_submit_req) +
                GMMU_UPDATE_QUEUE_OPS * sizeof(struct gmmu_update_op)];
    struct gmmu_update_submit_req rq = *req;
    struct gmmu_update_submit_rsp rsp;

    if (!count || count > GMMU_UPDATE_QUEUE_OPS || !ops)
        return GMMU_E_INVALID_ARG;
    rq.count = (uint32_t)count;
    if (!rq.owner)
        rq.owner = gmmu_fence_owner();
    memcpy(msg, &rq, sizeof(rq));
    memcpy(msg + sizeof(rq), ops, count * sizeof(*ops));
    int rc = call_exact(dev, GMMU_OP_UPDATE_SUBMIT, msg, sizeof(rq) + count * sizeof(*ops), &rsp,
                        sizeof rsp);
    if (rc == 0 && batch)
        *batch = rsp.batch;
    return rc;
}

int gmmu_update_cancel(struct gmmu_dev *dev, const struct gmmu_update_cancel_req *req,
                       struct gmmu_update_cancel_rsp *out)
{
    struct gmmu_update_cancel_req rq = *req;
    struct gmmu_update_cancel_rsp rsp;

    if (!rq.owner)
        rq.owner = gmmu_fence_owner();
    int rc = call_exact(dev, GMMU_OP_UPDATE_CANCEL, &rq, sizeof rq, &rsp, sizeof rsp);
    if (rc == 0 && out)
        *out = rsp;
    return rc;
}

int gmmu_update_queue(struct gmmu_dev *dev, struct gmmu_update_queue_rsp *out)
{
    return call_exact(dev, GMMU_OP_UPDATE_QUEUE, NULL, 0, out, sizeof *out);
}

/* ------------------------------------------------------------ fences */

uint32_t gmmu_fence_owner(void)
{
    /* One host process drives the device at a time; its waits carry its
       process id, so the next process's first wait drops what a departed
       one left armed. Never 0. */
    return (uint32_t)getpid() | 0x80000000u;
}

static int fence_info_call(struct gmmu_dev *dev, uint16_t opcode, const void *req, size_t len,
                           struct gmmu_fence_info *out)
{
    struct gmmu_fence_info rsp;
    int rc = call_exact(dev, opcode, req, len, &rsp, sizeof(rsp));

    if (rc == 0 && out)
        *out = rsp;
    return rc;
}

int gmmu_fence_create(struct gmmu_dev *dev, uint64_t value, struct gmmu_fence_info *out)
{
    struct gmmu_fence_create_req req = { .value = value };

    if (!out)
        return GMMU_E_INVALID_ARG;
    return fence_info_call(dev, GMMU_OP_FENCE_CREATE, &req, sizeof(req), out);
}

int gmmu_fence_destroy(struct gmmu_dev *dev, uint32_t handle)
{
    return handle_command(dev, GMMU_OP_FENCE_DESTROY, handle);
}

int gmmu_fence_signal(struct gmmu_dev *dev, uint32_t handle, uint64_t value,
                      struct gmmu_fence_info *out)
{
    struct gmmu_fence_signal_req req = { .handle = handle, .value = value };

    return fence_info_call(dev, GMMU_OP_FENCE_SIGNAL, &req, sizeof(req), out);
}

int gmmu_fence_read(struct gmmu_dev *dev, uint32_t handle, struct gmmu_fence_info *out)
{
    struct gmmu_handle_req req = { .handle = handle };

    if (!out)
        return GMMU_E_INVALID_ARG;
    return fence_info_call(dev, GMMU_OP_FENCE_READ, &req, sizeof(req), out);
}

int gmmu_fence_arm(struct gmmu_dev *dev, uint32_t handle, uint64_t value, uint32_t flags,
                   struct gmmu_fence_info *out)
{
    struct gmmu_fence_wait_req req = {
        .handle = handle, .owner = gmmu_fence_owner(), .value = value, .flags = flags
    };

    return fence_info_call(dev, GMMU_OP_FENCE_WAIT, &req, sizeof(req), out);
}

static int64_t mono_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool fence_reached(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b) >= 0;
}

int gmmu_fence_wait(struct gmmu_dev *dev, uint32_t handle, uint64_t value, int timeout_ms)
{
    struct gmmu_fence_info fi;
    struct gmmu_event ev;
    int rc = gmmu_fence_arm(dev, handle, value, 0, &fi);

    if (rc || fi.reached) /* reached: its event is on the ring, left there */
        return rc;
    /* One deadline for the whole wait, however many other events come. */
    int64_t deadline = mono_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    for (;;) {
        int64_t left = deadline - mono_ms();
        if (left <= 0)
            break;
        rc = gmmu_wait_event(dev, (int)left, &ev);
        if (rc == GMMU_E_TIMEOUT)
            break;
        if (rc)
            return rc;
        if (ev.type == GMMU_EVT_FENCE && ev.payload_len == sizeof(struct gmmu_fence_evt) &&
            ev.u.fence.handle == handle && ev.u.fence.wait_value == value &&
            ev.u.fence.owner == gmmu_fence_owner())
            return 0;
    }
    /* No event in time (or it was dropped on a full ring): cancel the wait,
       and the cancel's reply says whether the value came meanwhile. */
    rc = gmmu_fence_arm(dev, handle, value, GMMU_FENCE_WAIT_FLAG_CANCEL, &fi);
    if (rc)
        return rc;
    return fence_reached(fi.value, value) ? 0 : GMMU_E_TIMEOUT;
}

int gmmu_fence_read_mapped(struct gmmu_dev *dev, uint64_t offset, uint64_t *value)
{
    for (int tries = 0; tries < 1000; tries++) {
        struct gmmu_fence_record r;
        uint32_t seq2;
        int rc = gmmu_vram_read(dev, offset, &r, sizeof(r));

        if (rc == 0)
            rc = gmmu_vram_read(dev, offset, &seq2, sizeof(seq2));
        if (rc)
            return rc;
        if (!(r.seq & 1u) && r.seq == seq2) {
            *value = r.value;
            return 0;
        }
    }
    return GMMU_E_TIMEOUT;
}
