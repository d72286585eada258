// SPDX-License-Identifier: Apache-2.0
/*
 * The firmware's mailbox service: drains the command ring, runs each
 * command through the handler registered for its opcode and publishes one
 * completion per command.
 *
 * Portable: it reaches the BAR0 block only through the mbox_io_* accessors
 * (below), so it runs on the SoC (HAL accessors) and on the host (an array)
 * alike.
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
#include <string.h>

#include <gmmu/mailbox.h>

/* Access to the BAR0 block is bound at compile time: a build of the
   service puts a directory holding mbox_io_impl.h on the include path
   (firmware/hal on the SoC: inline volatile accesses; tests/unit/fake_mbox
   on the host: an array). It provides mbox_io_read32(offset),
   mbox_io_write32(offset, value) and the run copies mbox_io_read_run(offset,
   dst, count) and mbox_io_write_run(offset, src, count). The command path
   is short enough (target: 300 cycles) that an indirect call per register
   access would be a large share of it. This header does not include it, so
   command modules and their host tests build without any binding. */

/* Firmware hot path: kept together in .text.hot so the service loop fits
   the instruction cache without evicting itself. */
#if defined(__riscv)
#define MBOX_HOT __attribute__((section(".text.hot")))
#else
#define MBOX_HOT
#endif

/* Runs one command. ctx: the state the command's module was registered
   with. req/req_len: the payload after the header. Writes at most resp_cap
   bytes of completion payload and returns a GMMU_STATUS_*. */
typedef uint32_t (*mbox_handler_fn)(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                                    uint32_t resp_cap, uint32_t *resp_len);

struct mbox_command {
    uint16_t opcode;
    mbox_handler_fn run;
};

/*
 * Commands are registered by the module that serves them, as one set per
 * module: the module's file is the only place its opcodes are paired with
 * handlers. The firmware registers every set once at boot, each with the
 * module's state as its handlers' ctx (firmware/app/commands.c); host tests
 * register or look up the portable sets themselves.
 */
struct mbox_command_set {
    const struct mbox_command *commands;
    uint32_t count;
};

#define MBOX_COMMAND_SET(table)                     \
    {                                               \
        (table), sizeof(table) / sizeof((table)[0]) \
    }

/* The command of `set` with `opcode`, or NULL. */
static inline const struct mbox_command *mbox_command_find(const struct mbox_command_set *set,
                                                           uint16_t opcode)
{
    for (uint32_t i = 0; i < set->count; i++)
        if (set->commands[i].opcode == opcode)
            return &set->commands[i];
    return NULL;
}

/* memcpy for the command path: word by word when both ends are word
   aligned (the service's buffers and handlers' locals are), where
   picolibc's size-optimised memcpy moves a byte per iteration (about 10
   cycles a byte on this core). */
typedef uint32_t __attribute__((may_alias)) mbox_word;

static inline void mbox_copy(void *dst, const void *src, uint32_t len)
{
    if ((((uintptr_t)dst | (uintptr_t)src | len) & 3u) == 0) {
        mbox_word *d = (mbox_word *)dst;
        const mbox_word *s = (const mbox_word *)src;
        for (uint32_t i = 0; i < len / 4u; i++)
            d[i] = s[i];
        return;
    }
    memcpy(dst, src, len);
}

/* Ends a handler: on OK, copies the len-byte response into resp and sets
   *resp_len, or answers INTERNAL if it does not fit resp_cap (a firmware
   bug); any other status goes back with no payload. */
static inline uint32_t mbox_reply(uint32_t status, const void *data, uint32_t len, uint8_t *resp,
                                  uint32_t resp_cap, uint32_t *resp_len)
{
    *resp_len = 0;
    if (status != GMMU_STATUS_OK)
        return status;
    if (len > resp_cap)
        return GMMU_STATUS_INTERNAL;
    memcpy(resp, data, len);
    *resp_len = len;
    return GMMU_STATUS_OK;
}

/* The service's own command: PING, which echoes its payload. */
extern const struct mbox_command_set mbox_service_commands;

/* Sets the firmware registers at most: one per module. */
#ifndef MBOX_MAX_SETS
#define MBOX_MAX_SETS 7
#endif

/* A registered set and its handlers' ctx. */
struct mbox_binding {
    const struct mbox_command *commands;
    uint32_t count;
    void *ctx;
};

/* Opcodes below this are found through a table built at registration
   (every command opcode the firmware defines is); larger ones by a search
   of the sets. */
#ifndef MBOX_DIRECT_OPCODES
#define MBOX_DIRECT_OPCODES 64
#endif

struct mbox_service {
    uint32_t cmd_tail, cpl_head, cpl_tail, next_seq, cpl_fence;
    uint32_t resp_len; /* the running handler's response length */
    bool cpl_pending;  /* cpl_hdr/cpl hold a completion not yet published */
    bool cpl_waiting;  /* ... and the ring was full when last tried */
    /* A handler is running (command next_seq - 1), and mbox_service_tick
       has shown it in FW_STATE.RUNNING. Shared with the timer interrupt. */
    volatile bool running, running_shown;
    /* Set by an interrupt handler that leaves work for the loop outside any
       command (the MMU's fault interrupt): the idle loop tests it with
       cpl_pending, whose data-cache line it shares, so it costs no line
       of its own (as a separate variable its line could evict, or be
       evicted by, one that PING uses, as code size moves the data). */
    volatile bool irq_work;
    /* By opcode: (set + 1) << 5 | the command's index in its set; 0 when
       the opcode is not in the table. One load finds the handler, where a
       search of the sets cost about 300 cycles for a VidMm command. Beside
       the ring fields, so PING's entry shares their data-cache line. */
    uint8_t direct[MBOX_DIRECT_OPCODES];
    /* Registered sets in registration order, then an empty one. */
    struct mbox_binding sets[MBOX_MAX_SETS + 1];
    struct gmmu_stats stats;
    /* Headers live apart from the payload buffers, beside the hot fields,
       so the common header-only command touches few data-cache lines. */
    uint32_t cmd_hdr[GMMU_MSG_HDR_BYTES / 4];
    uint32_t cpl_hdr[GMMU_MSG_HDR_BYTES / 4];
    uint32_t msg[(GMMU_MSG_MAX_BYTES - GMMU_MSG_HDR_BYTES) / 4]; /* command payload */
    /* Keeps msg[i] and cpl[i] off the same line of the 4 KiB direct-mapped
       data cache: copying one into the other would miss on every access. */
    uint32_t cache_line_pad[8];
    uint32_t cpl[(GMMU_MSG_MAX_BYTES - GMMU_MSG_HDR_BYTES) / 4]; /* completion payload */
    /* Event ring: last, so the command path's cache layout is unchanged. */
    uint32_t evt_head, evt_tail, evt_seq;
};

/* Picks up the rings where BAR0 says they stand, with no commands
   registered: until a set is, every opcode is UNSUPPORTED_OPCODE. */
void mbox_service_init(struct mbox_service *svc);

/* Adds set's commands, whose handlers get ctx. False, and nothing added, if
   one of its opcodes is registered already (or twice in the set), or
   MBOX_MAX_SETS sets are. */
bool mbox_service_register(struct mbox_service *svc, const struct mbox_command_set *set, void *ctx);

/* Serves every command the host has published, as far as completion-ring
   space allows. Returns the number of commands completed. */
unsigned mbox_service_poll(struct mbox_service *svc);

/* From a periodic timer interrupt (the heartbeat's): a command running at a
   tick is shown in FW_STATE.RUNNING (with NEXT_SEQ naming it) until its
   completion, so a host waiting on a long command knows it is running. A
   few stores, only while a command runs. */
void mbox_service_tick(struct mbox_service *svc);

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
