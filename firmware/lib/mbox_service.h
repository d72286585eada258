/*
 * The firmware's mailbox service: drains the command ring, runs each
 * command through a handler table and publishes one completion per command.
 *
 * Portable: it reaches the BAR0 block only through struct mbox_io, so it
 * runs on the SoC (HAL accessors) and on the host (an array) alike.
 *
 * Framing rules (docs/mailbox.md): a message takes ceil(length / SLOT_BYTES)
 * slots. A header whose length is impossible (below the header, above
 * MSG_MAX_BYTES, or more slots than the host published) gets a
 * MALFORMED_LENGTH completion and consumes one slot, so the service always
 * makes progress. A command whose sequence number is not NEXT_SEQ gets
 * BAD_SEQUENCE and is not run. Every command gets exactly one completion.
 */
#ifndef GMMU_MBOX_SERVICE_H
#define GMMU_MBOX_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmmu/mailbox.h>

/* Access to the BAR0 block is bound at compile time: the build puts a
   directory holding mbox_io_impl.h on the include path (firmware/hal on the
   SoC: inline volatile accesses; tests/unit on the host: an array). It
   provides mbox_io_read32(offset), mbox_io_write32(offset, value) and the
   run copies mbox_io_read_run(offset, dst, count) and
   mbox_io_write_run(offset, src, count). The
   command path is short enough (target: 300 cycles) that an indirect call
   per register access would be a large share of it. */
#include "mbox_io_impl.h"

/* Firmware hot path: kept together in .text.hot so the service loop fits
   the instruction cache without evicting itself. */
#if defined(__riscv)
#define MBOX_HOT __attribute__((section(".text.hot")))
#else
#define MBOX_HOT
#endif

/* Runs one command. req/req_len: the payload after the header. Writes at
   most resp_cap bytes of completion payload and returns a GMMU_STATUS_*. */
typedef uint32_t (*mbox_handler_fn)(void *ctx, const uint8_t *req, uint32_t req_len,
                                    uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);

struct mbox_command {
    uint16_t opcode;
    mbox_handler_fn run;
};

struct mbox_service {
    const struct mbox_command *commands;
    size_t command_count;
    void *handler_ctx;
    uint32_t cmd_tail, cpl_head, cpl_tail, next_seq, cpl_fence;
    bool cpl_pending;   /* cpl_hdr/cpl hold a completion not yet published */
    bool cpl_waiting;   /* ... and the ring was full when last tried */
    struct gmmu_stats stats;
    /* Headers live apart from the payload buffers, beside the hot fields,
       so the common header-only command touches few data-cache lines. */
    uint32_t cmd_hdr[GMMU_MSG_HDR_BYTES / 4];
    uint32_t cpl_hdr[GMMU_MSG_HDR_BYTES / 4];
    uint32_t msg[(GMMU_MSG_MAX_BYTES - GMMU_MSG_HDR_BYTES) / 4];  /* command payload */
    /* Keeps msg[i] and cpl[i] off the same line of the 4 KiB direct-mapped
       data cache: copying one into the other would miss on every access. */
    uint32_t cache_line_pad[8];
    uint32_t cpl[(GMMU_MSG_MAX_BYTES - GMMU_MSG_HDR_BYTES) / 4];  /* completion payload */
    /* Event ring: last, so the command path's cache layout is unchanged. */
    uint32_t evt_head, evt_tail, evt_seq;
};

void mbox_service_init(struct mbox_service *svc, const struct mbox_command *commands,
                       size_t command_count, void *handler_ctx);

/* Serves every command the host has published, as far as completion-ring
   space allows. Returns the number of commands completed. */
unsigned mbox_service_poll(struct mbox_service *svc);

/* True when the host has published commands not yet served. */
bool mbox_service_pending(const struct mbox_service *svc);

/* Posts one event (header + payload, at most MSG_MAX_BYTES) on the event
   ring and raises HOST_IRQ_STATUS.EVENT. Never waits: when the ring lacks
   room (a slow or absent host) the event is dropped and counted in
   EVT_DROPPED and stats.events_dropped. Every event, posted or dropped,
   takes the next event number (the header's seq), so a host sees a drop as
   a gap. Returns true if the event was posted. */
bool mbox_service_post_event(struct mbox_service *svc, uint16_t evt, const void *payload,
                             uint32_t len);

#endif /* GMMU_MBOX_SERVICE_H */
