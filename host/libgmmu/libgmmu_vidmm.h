// SPDX-License-Identifier: Apache-2.0
/*
 * libgmmu: the VidMm commands (ALLOC..GET_VRAM of include/defs/mailbox.toml).
 *
 * Thin synchronous wrappers over gmmu_call(): each sends one command and
 * waits for its completion. Return values as everywhere in libgmmu: 0 on
 * success, a positive device status (GMMU_STATUS_*: the command ran and
 * failed, and changed nothing), or a negative host error (GMMU_E_*). A
 * completion whose payload is not the opcode's size is GMMU_E_PROTOCOL.
 * Outputs are written only on success.
 *
 * The semantics of each command are in docs/vidmm.md.
 */
#ifndef GMMU_LIBGMMU_VIDMM_H
#define GMMU_LIBGMMU_VIDMM_H

#include <stddef.h>
#include <stdint.h>

#include <gmmu/mailbox.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gmmu_dev;

/* Operations one UPDATE_VA message holds. */
#define GMMU_UPDATE_MAX_OPS \
    ((GMMU_MSG_MAX_BYTES - GMMU_MSG_HDR_BYTES - GMMU_UPDATE_REQ_BYTES) / GMMU_UPDATE_OP_BYTES)

/* A physical memory object: req->size bytes with req->flags (ALLOC_FLAG_*). */
int gmmu_alloc(struct gmmu_dev *dev, const struct gmmu_alloc_req *req, struct gmmu_alloc_rsp *out);
/* A system-memory allocation over `count` host pages (4 KiB each, any
   order; page i backs bytes [i x 4 KiB, (i + 1) x 4 KiB)): ALLOC_PAGES in
   messages of at most GMMU_ALLOC_PAGES_MAX pages, BEGIN on the first and
   COMMIT on the last, under this process's owner token. The list must form
   at most GMMU_ALLOC_PAGES_RUNS runs of consecutive pages. A refused
   message ends the list on the device: nothing is allocated. Calls of one
   process are serialised, so two threads' lists never mix. */
int gmmu_alloc_pages(struct gmmu_dev *dev, const uint64_t *pages, size_t count,
                     struct gmmu_alloc_rsp *out);
/* gmmu_alloc_pages with ALLOC_PAGES_FLAG_* on the first message: with
   GMMU_ALLOC_PAGES_FLAG_PHYSICAL the allocation is AccessedPhysically, its
   pages mapped into the aperture segment in list order, and out->base is
   its physical-mode address (GMMU_APERTURE_PHYS_BASE + aperture offset),
   for engine jobs with GMMU_ENGINE_OP_FLAG_PHYSICAL. */
int gmmu_alloc_pages_flags(struct gmmu_dev *dev, const uint64_t *pages, size_t count,
                           uint32_t flags, struct gmmu_alloc_rsp *out);
/* Unmaps it from every address space, then frees it. */
int gmmu_free(struct gmmu_dev *dev, uint32_t alloc_handle);

/* *asid: the hardware id it runs under now (ids are recycled). */
int gmmu_create_as(struct gmmu_dev *dev, uint32_t *as_handle, uint32_t *asid);
int gmmu_destroy_as(struct gmmu_dev *dev, uint32_t as_handle);

/* Maps req->size bytes of an allocation from req->offset; *va gets the VA. */
int gmmu_map_va(struct gmmu_dev *dev, const struct gmmu_map_req *req, uint64_t *va);
/* A whole mapping or reserved range, by its start and size. -EBUSY (BUSY)
   while a submitted engine job of the space still needs part of it and
   does not wait for the paging fence (docs/vidmm.md, "Memory in use"). */
int gmmu_unmap_va(struct gmmu_dev *dev, uint32_t as_handle, uint64_t va, uint64_t size);
/* flags: 0 (the firmware picks *va) or MAP_FLAG_FIXED_VA (at va). */
int gmmu_reserve_va(struct gmmu_dev *dev, uint32_t as_handle, uint32_t flags, uint64_t va,
                    uint64_t size, uint64_t *out_va);
/* A batch of at most GMMU_UPDATE_MAX_OPS operations, run as one unit. */
int gmmu_update_va(struct gmmu_dev *dev, uint32_t as_handle, const struct gmmu_update_op *ops,
                   size_t count);
int gmmu_query_va(struct gmmu_dev *dev, uint32_t as_handle, uint64_t va,
                  struct gmmu_query_rsp *out);
int gmmu_get_vram(struct gmmu_dev *dev, struct gmmu_vram_rsp *out);
/* The device's segments (GET_SEGMENTS), in id order: the first `cap` go to
   out, *count says how many there are (at most GMMU_SEGMENTS_MAX). */
int gmmu_get_segments(struct gmmu_dev *dev, struct gmmu_segment_desc *out, size_t cap,
                      size_t *count);
/* Gives the device [sys_addr, sys_addr + size) of host memory (64 KB
   aligned; from gmmu_sysmem_alloc, say) for its backing pool. The device
   writes 8 bytes at each end to check it can reach them. */
int gmmu_add_backing(struct gmmu_dev *dev, uint64_t sys_addr, uint64_t size);
/* Takes a range of the backing pool back (exactly as gmmu_add_backing gave
   it), or with GMMU_REMOVE_BACKING_FLAG_UNREACHABLE (sys_addr and size 0)
   every range the device can no longer reach, such as one a host that
   left had given. Allocations in a reachable range move to VRAM or the
   rest of the pool first (NO_MEMORY, nothing changed, if they cannot);
   those in an unreachable one are freed. rsp (may be NULL) counts ranges,
   moves and frees. Do this before freeing memory given to the pool. */
int gmmu_remove_backing(struct gmmu_dev *dev, uint64_t sys_addr, uint64_t size, uint32_t flags,
                        struct gmmu_backing_remove_rsp *rsp);
/* Raises the residency count of each of `count` allocations (1 ..
   GMMU_RESIDENCY_MAX, repeats count twice) and brings each into its
   preferred segment, evicting others; all or nothing over the list. *fence
   (may be NULL) gets the paging fence of its moves, complete on return. */
int gmmu_make_resident(struct gmmu_dev *dev, const uint32_t *handles, size_t count,
                       uint64_t *fence);
/* Lowers each count; at 0 an allocation may be moved out when room is
   needed. Below 0 anywhere: GMMU_STATUS_INVALID_ARGUMENT, nothing changed. */
int gmmu_evict(struct gmmu_dev *dev, const uint32_t *handles, size_t count);
/* Where an allocation lives now (ALLOC_STATE_*), its residency count. */
int gmmu_query_alloc(struct gmmu_dev *dev, uint32_t alloc_handle, struct gmmu_alloc_info *out);
/* Waits until the device's paging fence (GET_VRAM paging_fence) reaches
   `fence`, polling up to `tries` times; GMMU_E_TIMEOUT if it does not. */
int gmmu_wait_paging_fence(struct gmmu_dev *dev, uint64_t fence, unsigned tries);
/* Runs a GPU engine and waits for it; a translation fault is reported in
   out->engine_status (FAULT, REASON, ACCESS) with the command status OK.
   req->op | GMMU_ENGINE_OP_FLAG_PHYSICAL runs it in physical mode: as_handle
   0, dst_va and src_va VRAM offsets inside CONTIGUOUS allocations (else
   OUT_OF_RANGE, nothing started). */
int gmmu_engine_run(struct gmmu_dev *dev, const struct gmmu_engine_req *req,
                    struct gmmu_engine_rsp *out);
/* Starts a GPU engine and returns at once; *out_asid (may be NULL) is the
   hardware id it runs under. The engine runs on beside later commands:
   its address space cannot be destroyed until it stops (BUSY). */
int gmmu_engine_start(struct gmmu_dev *dev, const struct gmmu_engine_req *req, uint32_t *out_asid);
/* A GPU engine's state now: out->engine_status has BUSY while it runs,
   DONE (and FAULT ...) once it has stopped. flags: 0, or
   GMMU_ENGINE_STATUS_FLAG_ABORT to stop the run first (ABORTED is set). */
int gmmu_engine_status(struct gmmu_dev *dev, uint32_t engine, uint32_t flags,
                       struct gmmu_engine_rsp *out);

/* ------------------------------------------------------------ job queues
 * Asynchronous engine jobs (docs/engine.md, "Job queues"): a job waits for
 * wait_handle to reach wait_value (0: no wait), runs after the jobs ahead
 * of it on its engine, and raises signal_handle to signal_value when it
 * ends (0: no signal); wait for that with gmmu_fence_wait. */
/* Queues a job and returns at once; *job (may be NULL) is its id.
   req->owner 0 is this process's token (gmmu_fence_owner). A full queue is
   GMMU_STATUS_BUSY, an unknown fence GMMU_STATUS_BAD_HANDLE. */
int gmmu_engine_submit(struct gmmu_dev *dev, const struct gmmu_engine_submit_req *req,
                       uint32_t *job);
/* Cancels req->job of req->engine (flags 0) or every queued job of the
   engine (GMMU_ENGINE_CANCEL_FLAG_ALL, job ignored). A queued job never
   runs; the running one is aborted and still signals. req->owner 0 is this
   process's token. out may be NULL. */
int gmmu_engine_cancel(struct gmmu_dev *dev, const struct gmmu_engine_cancel_req *req,
                       struct gmmu_engine_cancel_rsp *out);
/* An engine's queue: jobs held, the running job, the last job's result. */
int gmmu_engine_queue(struct gmmu_dev *dev, uint32_t engine, struct gmmu_engine_queue_rsp *out);

/* ------------------------------------------------------------ ordered paging
 * UPDATE_VA batches that wait and signal (docs/vidmm.md, "Ordered paging"):
 * the device applies queued batches in order once req->wait_handle reached
 * req->wait_value (0: no wait) and no submitted job still needs a range a
 * batch changes, then raises req->signal_handle to req->signal_value. */
/* Queues a batch of count (1 .. GMMU_UPDATE_QUEUE_OPS) operations and
   returns at once; *batch (may be NULL) is its id. req->count is set from
   count; req->owner 0 is this process's token. A batch UPDATE_VA would
   refuse now answers that status; a full queue GMMU_STATUS_BUSY. */
int gmmu_update_submit(struct gmmu_dev *dev, const struct gmmu_update_submit_req *req,
                       const struct gmmu_update_op *ops, size_t count, uint32_t *batch);
/* Cancels req->batch (flags 0) or every waiting batch
   (GMMU_UPDATE_CANCEL_FLAG_ALL); a cancelled batch is never applied and
   signals nothing. req->owner 0 is this process's token; out may be NULL. */
int gmmu_update_cancel(struct gmmu_dev *dev, const struct gmmu_update_cancel_req *req,
                       struct gmmu_update_cancel_rsp *out);
/* The waiting batches and the last one that ended. */
int gmmu_update_queue(struct gmmu_dev *dev, struct gmmu_update_queue_rsp *out);

/* ------------------------------------------------------------ paging fence
 * MAP_VA, UNMAP_VA, UPDATE_VA and MAKE_RESIDENT signal the device's paging
 * fence (handle GMMU_FENCE_PAGING) and return the value; it is reached when
 * the call returns. *fence may be NULL (and reads 0 from a device older
 * than protocol 1.8). */
int gmmu_map_va_fence(struct gmmu_dev *dev, const struct gmmu_map_req *req, uint64_t *va,
                      uint64_t *fence);
int gmmu_unmap_va_fence(struct gmmu_dev *dev, uint32_t as_handle, uint64_t va, uint64_t size,
                        uint64_t *fence);
/* flags: GMMU_UNMAP_FLAG_UNDER_JOBS unmaps even under jobs that still use
   the range (they fault on it afterwards), as the host orders it. */
int gmmu_unmap_va_flags(struct gmmu_dev *dev, uint32_t as_handle, uint64_t va, uint64_t size,
                        uint32_t flags, uint64_t *fence);
int gmmu_update_va_fence(struct gmmu_dev *dev, uint32_t as_handle, const struct gmmu_update_op *ops,
                         size_t count, uint64_t *fence);

/* ------------------------------------------------------------ fences
 * Monitored fences (docs/fences.md): 64-bit values that only move forward,
 * compared modulo 2^64. Unknown handles are GMMU_STATUS_BAD_HANDLE. */
int gmmu_fence_create(struct gmmu_dev *dev, uint64_t value, struct gmmu_fence_info *out);
int gmmu_fence_destroy(struct gmmu_dev *dev, uint32_t handle);
/* A value behind the fence's is GMMU_STATUS_INVALID_ARGUMENT. out may be NULL. */
int gmmu_fence_signal(struct gmmu_dev *dev, uint32_t handle, uint64_t value,
                      struct gmmu_fence_info *out);
int gmmu_fence_read(struct gmmu_dev *dev, uint32_t handle, struct gmmu_fence_info *out);
/* The value from the fence page through BAR1 (out->offset of a
   gmmu_fence_info), without a command; GMMU_E_TIMEOUT if it kept changing. */
int gmmu_fence_read_mapped(struct gmmu_dev *dev, uint64_t offset, uint64_t *value);
/* FENCE_WAIT: the device posts one EVT_FENCE when the fence reaches value
   (at once, out->reached = 1, if it has). flags GMMU_FENCE_WAIT_FLAG_CANCEL
   drops that wait instead. For hosts with their own event loop
   (gmmu_set_event_callback). out may be NULL. */
int gmmu_fence_arm(struct gmmu_dev *dev, uint32_t handle, uint64_t value, uint32_t flags,
                   struct gmmu_fence_info *out);
/* Arms a wait and waits up to timeout_ms for its event: 0 once the fence
   reached value, GMMU_E_TIMEOUT (the wait cancelled) if it did not. It
   reads the event ring with gmmu_wait_event, so other events it reads
   meanwhile are consumed: do not mix with other readers of the ring. */
int gmmu_fence_wait(struct gmmu_dev *dev, uint32_t handle, uint64_t value, int timeout_ms);
/* The owner token FENCE_WAIT carries for this process. */
uint32_t gmmu_fence_owner(void);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_LIBGMMU_VIDMM_H */
