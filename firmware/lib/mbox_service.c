// SPDX-License-Identifier: Apache-2.0
#include "mbox_service.h"

#include <string.h>

#include "mbox_io_impl.h"

#define SLOT_WORDS (GMMU_SLOT_BYTES / 4u)
#define HDR_WORDS  (GMMU_MSG_HDR_BYTES / 4u)

static inline uint32_t rd(const struct mbox_service *svc, uint32_t offset)
{
    (void)svc;
    return mbox_io_read32(offset);
}

static inline void wr(const struct mbox_service *svc, uint32_t offset, uint32_t value)
{
    (void)svc;
    mbox_io_write32(offset, value);
}

MBOX_HOT static uint32_t slots_for(uint32_t bytes)
{
    return (bytes + GMMU_SLOT_BYTES - 1u) / GMMU_SLOT_BYTES;
}

/* Ring sizes are powers of two, so wrapping is a mask, never a division
   (this core's divider takes 33 cycles). */
_Static_assert((GMMU_CMD_SLOTS & (GMMU_CMD_SLOTS - 1)) == 0, "CMD_SLOTS is a power of two");
_Static_assert((GMMU_CPL_SLOTS & (GMMU_CPL_SLOTS - 1)) == 0, "CPL_SLOTS is a power of two");
_Static_assert((GMMU_EVT_SLOTS & (GMMU_EVT_SLOTS - 1)) == 0, "EVT_SLOTS is a power of two");
_Static_assert(GMMU_EVT_SLOTS *GMMU_SLOT_BYTES >= GMMU_MSG_MAX_BYTES, "an event fits the ring");
_Static_assert(MBOX_MAX_SETS <= 7, "a set's number plus one fits direct[]'s three bits");

/* Copies `count` words of the message at free-running slot `slot`, from
   word `first` on. The ring may wrap, so the copy is at most two runs of
   consecutive registers. */
MBOX_HOT static void ring_read(uint32_t ring, uint32_t slots, uint32_t slot, uint32_t first,
                               uint32_t *dst, uint32_t count)
{
    uint32_t ring_words = slots * SLOT_WORDS;
    uint32_t start = (slot * SLOT_WORDS + first) & (ring_words - 1u);
    uint32_t run = count < ring_words - start ? count : ring_words - start;
    mbox_io_read_run(ring + start * 4u, dst, run);
    if (run < count)
        mbox_io_read_run(ring, dst + run, count - run);
}

MBOX_HOT static void ring_write(uint32_t ring, uint32_t slots, uint32_t slot, uint32_t first,
                                const uint32_t *src, uint32_t count)
{
    uint32_t ring_words = slots * SLOT_WORDS;
    uint32_t start = (slot * SLOT_WORDS + first) & (ring_words - 1u);
    uint32_t run = count < ring_words - start ? count : ring_words - start;
    mbox_io_write_run(ring + start * 4u, src, run);
    if (run < count)
        mbox_io_write_run(ring, src + run, count - run);
}

void mbox_service_init(struct mbox_service *svc)
{
    memset(svc, 0, sizeof *svc);
    /* Resume where the rings stand: the firmware may restart under a host. */
    svc->cmd_tail = rd(svc, GMMU_MBOX_CMD_TAIL);
    svc->cpl_head = rd(svc, GMMU_MBOX_CPL_HEAD);
    svc->cpl_tail = rd(svc, GMMU_MBOX_CPL_TAIL);
    svc->next_seq = rd(svc, GMMU_MBOX_NEXT_SEQ);
    svc->cpl_fence = rd(svc, GMMU_MBOX_CPL_FENCE);
    svc->evt_head = rd(svc, GMMU_MBOX_EVT_HEAD);
    svc->evt_tail = rd(svc, GMMU_MBOX_EVT_TAIL);
    svc->stats.events_dropped = rd(svc, GMMU_MBOX_EVT_DROPPED);
    /* Exact while every event takes one slot, which the fault events do. */
    svc->evt_seq = svc->evt_head + svc->stats.events_dropped;
}

bool mbox_service_register(struct mbox_service *svc, const struct mbox_command_set *set, void *ctx)
{
    struct mbox_binding *slot = svc->sets;
    while (slot->commands)
        slot++;
    /* The last binding stays empty: it ends the lookup. */
    if (slot == &svc->sets[MBOX_MAX_SETS] || !set->commands)
        return false;
    for (uint32_t i = 0; i < set->count; i++) {
        uint16_t opcode = set->commands[i].opcode;
        const struct mbox_command_set before = { set->commands, i };
        if (mbox_command_find(&before, opcode))
            return false;
        for (const struct mbox_binding *b = svc->sets; b < slot; b++) {
            const struct mbox_command_set bound = { b->commands, b->count };
            if (mbox_command_find(&bound, opcode))
                return false;
        }
    }
    *slot = (struct mbox_binding){ set->commands, set->count, ctx };
    for (uint32_t i = 0; i < set->count && i < 32u; i++) {
        uint16_t opcode = set->commands[i].opcode;
        if (opcode < MBOX_DIRECT_OPCODES)
            svc->direct[opcode] = (uint8_t)((uint32_t)(slot - svc->sets + 1) << 5 | i);
    }
    return true;
}

/* A head behind the tail or more than a ring ahead is nothing to serve.
   The hardware refuses host writes that would put CMD_HEAD there; this
   keeps the loop from replaying the ring should the register ever hold one
   (a firmware restart under old values). The unsigned difference minus one
   is below CMD_SLOTS exactly for 1..CMD_SLOTS published slots. */
MBOX_HOT static inline bool head_serves(const struct mbox_service *svc, uint32_t head)
{
    return head - svc->cmd_tail - 1u < GMMU_CMD_SLOTS;
}

MBOX_HOT bool mbox_service_pending(const struct mbox_service *svc)
{
    return head_serves(svc, rd(svc, GMMU_MBOX_CMD_HEAD));
}

/* The command registered for opcode and, in *set, the binding that holds
   it (its ctx); NULL if none is. */
MBOX_HOT static const struct mbox_command *
find_command(const struct mbox_service *svc, uint16_t opcode, const struct mbox_binding **set)
{
    uint32_t at = opcode < MBOX_DIRECT_OPCODES ? svc->direct[opcode] : 0;
    /* Expected: the straight-line path, which PING's latency needs. */
    if (__builtin_expect(at != 0, 1)) {
        *set = &svc->sets[(at >> 5) - 1u];
        return &(*set)->commands[at & 31u];
    }
    /* Large opcodes, unregistered ones and commands past the 32nd of a set
       (the table's index has five bits) are searched for. */
    for (const struct mbox_binding *b = svc->sets; b->commands; b++)
        for (uint32_t i = 0; i < b->count; i++)
            if (b->commands[i].opcode == opcode) {
                *set = b;
                return &b->commands[i];
            }
    return NULL;
}

/* Copies the message at cmd_tail into cmd_hdr and msg (the payload).
   Returns the slots it takes, or 0 if its length is impossible. */
MBOX_HOT static inline uint32_t fetch_message(struct mbox_service *svc, uint32_t published)
{
    ring_read(GMMU_CMD_RING, GMMU_CMD_SLOTS, svc->cmd_tail, 0, svc->cmd_hdr, HDR_WORDS);
    uint32_t length = svc->cmd_hdr[0] >> 16;
    uint32_t slots = slots_for(length);
    if (length < GMMU_MSG_HDR_BYTES || length > GMMU_MSG_MAX_BYTES || slots > published)
        return 0;
    uint32_t words = (length + 3u) / 4u;
    if (words > HDR_WORDS)
        ring_read(GMMU_CMD_RING, GMMU_CMD_SLOTS, svc->cmd_tail, HDR_WORDS, svc->msg,
                  words - HDR_WORDS);
    return slots;
}

MBOX_HOT static void count_error(struct gmmu_stats *st, uint32_t status)
{
    st->errors++;
    st->malformed += status == GMMU_STATUS_MALFORMED_LENGTH;
    st->bad_sequence += status == GMMU_STATUS_BAD_SEQUENCE;
    st->unsupported += status == GMMU_STATUS_UNSUPPORTED_OPCODE;
}

/* Runs the fetched message; leaves the completion payload in svc->cpl and
   returns its status and payload length. */
MBOX_HOT static inline uint32_t execute(struct mbox_service *svc, const struct gmmu_msg_hdr *hdr,
                                        uint32_t *resp_len)
{
    *resp_len = 0;
    if (hdr->seq != svc->next_seq)
        return GMMU_STATUS_BAD_SEQUENCE;
    /* From here the command counts as run, whatever its status (a handler's
       MALFORMED_LENGTH included): NEXT_SEQ and the fence move together. */
    svc->next_seq++;
    svc->cpl_fence = hdr->seq;
    if (hdr->status != 0 || hdr->fence != 0)
        return GMMU_STATUS_INVALID_ARGUMENT;
    const struct mbox_binding *set;
    const struct mbox_command *cmd = find_command(svc, hdr->opcode, &set);
    if (!cmd)
        return GMMU_STATUS_UNSUPPORTED_OPCODE;
    uint32_t cap = sizeof svc->cpl;
    svc->running = true;
    uint32_t status =
        cmd->run(set->ctx, (const uint8_t *)svc->msg, hdr->length - GMMU_MSG_HDR_BYTES,
                 (uint8_t *)svc->cpl, cap, resp_len);
    svc->running = false;
    /* After running is cleared a tick shows nothing, so this is the last
       write of RUNNING for the command, and it comes before its completion. */
    if (svc->running_shown) {
        svc->running_shown = false;
        wr(svc, GMMU_MBOX_FW_STATE, rd(svc, GMMU_MBOX_FW_STATE) & ~GMMU_MBOX_FW_STATE_RUNNING);
    }
    if (*resp_len > cap)
        *resp_len = 0, status = GMMU_STATUS_INTERNAL;
    return status;
}

/* Builds the completion header (layout: struct gmmu_msg_hdr) and marks the
   completion pending. */
MBOX_HOT static inline void stage_completion(struct mbox_service *svc, uint32_t opcode,
                                             uint32_t seq, uint32_t status, uint32_t resp_len)
{
    svc->cpl_hdr[0] = (opcode & 0xFFFFu) | (GMMU_MSG_HDR_BYTES + resp_len) << 16;
    svc->cpl_hdr[1] = seq;
    svc->cpl_hdr[2] = status;
    svc->cpl_hdr[3] = svc->cpl_fence;
    svc->cpl_pending = true;
}

static inline uint32_t free_slots_at(const struct mbox_service *svc, uint32_t tail)
{
    uint32_t used = svc->cpl_head - tail;
    return used > GMMU_CPL_SLOTS ? 0 : GMMU_CPL_SLOTS - used;
}

/* Free completion slots; the host's CPL_TAIL is read only when the last
   value seen does not leave room, since every bus read costs ~10 cycles. */
MBOX_HOT static uint32_t cpl_free_slots(struct mbox_service *svc, uint32_t needed)
{
    if (free_slots_at(svc, svc->cpl_tail) < needed)
        svc->cpl_tail = rd(svc, GMMU_MBOX_CPL_TAIL);
    return free_slots_at(svc, svc->cpl_tail);
}

/* Publishes the pending completion if the ring has room; a full ring (a slow
   or vanished host) leaves it pending and the service stays responsive. */
MBOX_HOT static inline bool flush_completion(struct mbox_service *svc)
{
    uint32_t length = svc->cpl_hdr[0] >> 16;
    if (slots_for(length) > cpl_free_slots(svc, slots_for(length))) {
        svc->stats.cpl_ring_full += !svc->cpl_waiting;
        svc->cpl_waiting = true;
        return false;
    }
    ring_write(GMMU_CPL_RING, GMMU_CPL_SLOTS, svc->cpl_head, 0, svc->cpl_hdr, HDR_WORDS);
    if (length > GMMU_MSG_HDR_BYTES)
        ring_write(GMMU_CPL_RING, GMMU_CPL_SLOTS, svc->cpl_head, HDR_WORDS, svc->cpl,
                   (length - GMMU_MSG_HDR_BYTES + 3u) / 4u);
    svc->cpl_head += slots_for(length);
    /* Data before the pointer: the host reads CPL_HEAD, then the slots.
       CMD_TAIL moves only after the completion is out, so a host that sees
       CMD_TAIL == CMD_HEAD knows every completion is published. */
    wr(svc, GMMU_MBOX_CPL_HEAD, svc->cpl_head);
    wr(svc, GMMU_MBOX_CMD_TAIL, svc->cmd_tail);
    svc->cpl_pending = svc->cpl_waiting = false;
    return true;
}

/* Consumes and runs the message at cmd_tail and stages its completion. */
MBOX_HOT static inline void serve_one(struct mbox_service *svc, uint32_t published)
{
    uint32_t slots = fetch_message(svc, published);
    const struct gmmu_msg_hdr hdr = { .opcode = (uint16_t)svc->cmd_hdr[0],
                                      .length = (uint16_t)(svc->cmd_hdr[0] >> 16),
                                      .seq = svc->cmd_hdr[1],
                                      .status = svc->cmd_hdr[2],
                                      .fence = svc->cmd_hdr[3] };
    /* The handler's response length lives in the service's first line,
       which every command has just read: on the stack, the load after the
       handler returned missed whenever the command's data evicted that
       stack line (the data cache is direct-mapped), about 15 cycles of
       PING's 300. */
    uint32_t status, resp_len;
    svc->resp_len = 0;
    if (slots == 0) {
        slots = 1;
        status = GMMU_STATUS_MALFORMED_LENGTH;
    } else {
        status = execute(svc, &hdr, &svc->resp_len);
    }
    svc->cmd_tail += slots;
    svc->stats.commands++;
    if (status != GMMU_STATUS_OK)
        count_error(&svc->stats, status);
    resp_len = svc->resp_len;
    stage_completion(svc, hdr.opcode, hdr.seq, status, resp_len);
}

MBOX_HOT unsigned mbox_service_poll(struct mbox_service *svc)
{
    unsigned served = 0;
    if (svc->cpl_pending && !flush_completion(svc))
        return 0;
    uint32_t head = rd(svc, GMMU_MBOX_CMD_HEAD);
    while (head_serves(svc, head)) {
        serve_one(svc, head - svc->cmd_tail);
        served++;
        if (!flush_completion(svc))
            break;
    }
    if (served) {
        wr(svc, GMMU_MBOX_NEXT_SEQ, svc->next_seq);
        wr(svc, GMMU_MBOX_CPL_FENCE, svc->cpl_fence);
        wr(svc, GMMU_MBOX_HOST_IRQ_SET, GMMU_MBOX_HOST_IRQ_STATUS_CPL);
    }
    return served;
}

void mbox_service_tick(struct mbox_service *svc)
{
    if (!svc->running || svc->running_shown)
        return;
    svc->running_shown = true;
    /* next_seq moved past the running command when it was taken. */
    wr(svc, GMMU_MBOX_NEXT_SEQ, svc->next_seq);
    wr(svc, GMMU_MBOX_FW_STATE, rd(svc, GMMU_MBOX_FW_STATE) | GMMU_MBOX_FW_STATE_RUNNING);
}

/* ------------------------------------------------------------- commands */

/* Payload and response buffers are word-aligned (the service keeps them as
   uint32_t arrays), so the echo copies words: picolibc's size-optimised
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

static const struct mbox_command own_commands[] = {
    { GMMU_OP_PING, cmd_ping },
};
const struct mbox_command_set mbox_service_commands = MBOX_COMMAND_SET(own_commands);

/* ------------------------------------------------------------- events */

/* Events are rare (faults): built for size, off the hot text. */
#define EVT_COLD __attribute__((cold))

EVT_COLD static uint32_t evt_free_at(const struct mbox_service *svc, uint32_t tail)
{
    uint32_t used = svc->evt_head - tail;
    return used > GMMU_EVT_SLOTS ? 0 : GMMU_EVT_SLOTS - used;
}

/* EVT_TAIL is the host's: a value that makes no sense (ahead of the head,
   or more than a ring behind) leaves no room, so events are dropped rather
   than written over ones the host has not read. */
EVT_COLD static uint32_t evt_free_slots(struct mbox_service *svc, uint32_t needed)
{
    if (evt_free_at(svc, svc->evt_tail) < needed)
        svc->evt_tail = rd(svc, GMMU_MBOX_EVT_TAIL);
    return evt_free_at(svc, svc->evt_tail);
}

EVT_COLD static void evt_write_payload(struct mbox_service *svc, const uint8_t *payload,
                                       uint32_t len)
{
    /* Staged through a small word buffer: the payload may be unaligned, and
       the command buffers may be in use by the handler posting the event. */
    uint32_t words[SLOT_WORDS];
    for (uint32_t off = 0; off < len; off += sizeof words) {
        uint32_t n = len - off < sizeof words ? len - off : (uint32_t)sizeof words;
        memset(words, 0, sizeof words);
        memcpy(words, payload + off, n);
        ring_write(GMMU_EVT_RING, GMMU_EVT_SLOTS, svc->evt_head, HDR_WORDS + off / 4u, words,
                   (n + 3u) / 4u);
    }
}

EVT_COLD bool mbox_service_post_event(struct mbox_service *svc, uint16_t evt, const void *payload,
                                      uint32_t len)
{
    uint32_t length = GMMU_MSG_HDR_BYTES + len;
    uint32_t seq = svc->evt_seq++;
    bool fits = length <= GMMU_MSG_MAX_BYTES && (len == 0 || payload);
    if (!fits || slots_for(length) > evt_free_slots(svc, slots_for(length))) {
        wr(svc, GMMU_MBOX_EVT_DROPPED, ++svc->stats.events_dropped);
        wr(svc, GMMU_MBOX_HOST_IRQ_SET, GMMU_MBOX_HOST_IRQ_STATUS_EVENT);
        return false;
    }
    const uint32_t hdr[HDR_WORDS] = { evt | length << 16, seq, 0, svc->cpl_fence };
    ring_write(GMMU_EVT_RING, GMMU_EVT_SLOTS, svc->evt_head, 0, hdr, HDR_WORDS);
    evt_write_payload(svc, payload, len);
    svc->evt_head += slots_for(length);
    /* Slots before the pointer, the pointer before the interrupt. */
    wr(svc, GMMU_MBOX_EVT_HEAD, svc->evt_head);
    wr(svc, GMMU_MBOX_HOST_IRQ_SET, GMMU_MBOX_HOST_IRQ_STATUS_EVENT);
    return true;
}
