// SPDX-License-Identifier: Apache-2.0
#include "libgmmu.h"

#include "transport_batch.h"
#include "transport_deadline.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_TIMEOUT_MS 5000
#define SLOT_WORDS         (GMMU_SLOT_BYTES / 4u)
#define POLL_SLICE_MS      2 /* longest a waiter holds the lock in one go */

/* A completion read from the ring whose waiter has not collected it yet. */
struct parked {
    struct parked *next;
    struct gmmu_completion cpl;
};

struct gmmu_dev {
    pthread_mutex_t lock;
    struct gmmu_transport *t;
    int timeout_ms;
    enum gmmu_wait_mode wait_mode;
    uint32_t cmd_head, cmd_tail, cpl_tail;
    uint32_t next_seq;
    struct parked *parked;
    uint64_t aperture_base; /* last value written to APERTURE_BASE */
    bool aperture_known;
    uint32_t evt_tail, evt_head; /* evt_head: last EVT_HEAD read */
    uint32_t evt_next_seq;       /* seq the next event should carry */
    bool evt_seq_known;
    /* The callback thread: cb_lock serialises starting and stopping it; the
       fields below are under lock. */
    pthread_mutex_t cb_lock;
    gmmu_event_fn evt_fn;
    void *evt_arg;
    bool evt_stop, evt_thread_live;
    bool evt_close; /* the callback closed the handle */
    pthread_t evt_thread;
};

/* ------------------------------------------------------------- helpers */
static int rd(struct gmmu_dev *dev, uint32_t off, uint32_t *v)
{
    int rc = gmmu_transport_read32(dev->t, 0, off, v);
    /* All ones from the identity register means the device has gone. */
    if (rc == 0 && off == GMMU_MBOX_IDENT_MAGIC && *v == 0xFFFFFFFFu)
        return GMMU_E_DEVICE_GONE;
    return rc;
}

static int wr(struct gmmu_dev *dev, uint32_t off, uint32_t v)
{
    return gmmu_transport_write32(dev->t, 0, off, v);
}

static uint32_t slots_for(size_t bytes)
{
    return (uint32_t)((bytes + GMMU_SLOT_BYTES - 1) / GMMU_SLOT_BYTES);
}

static uint32_t ring_offset(uint32_t ring, uint32_t slots, uint32_t slot, uint32_t word)
{
    uint32_t w = ((slot % slots) * SLOT_WORDS + word) % (slots * SLOT_WORDS);
    return ring + 4u * w;
}

/* Words [from, to) of the message at slot `slot` of a device-to-host ring,
   read together (transport_read_many: ring memory has no read side
   effects). Caller locks. */
static int read_ring_words(struct gmmu_dev *dev, uint32_t ring, uint32_t slots, uint32_t slot,
                           uint32_t *w, uint32_t from, uint32_t to)
{
    uint64_t offs[GMMU_MSG_MAX_BYTES / 4];
    if (to <= from)
        return 0;
    for (uint32_t i = from; i < to; i++)
        offs[i - from] = ring_offset(ring, slots, slot, i);
    return transport_read_many(dev->t, 0, offs, w + from, to - from);
}

/* ----------------------------------------------------------- completions */
static int read_one_completion(struct gmmu_dev *dev, struct gmmu_completion *out)
{
    uint32_t w[GMMU_MSG_MAX_BYTES / 4];
    /* Where reads overlap, the whole first slot with the header: most
       completions fit in it (the slot is the message's: the firmware wrote
       it before CPL_HEAD, which the caller read). */
    uint32_t first = transport_reads_overlap(dev->t) ? SLOT_WORDS : GMMU_MSG_HDR_BYTES / 4;
    int rc = read_ring_words(dev, GMMU_CPL_RING, GMMU_CPL_SLOTS, dev->cpl_tail, w, 0, first);
    if (rc)
        return rc;
    struct gmmu_msg_hdr hdr;
    memcpy(&hdr, w, sizeof hdr);
    uint32_t length = hdr.length;
    if (length < GMMU_MSG_HDR_BYTES || length > GMMU_MSG_MAX_BYTES)
        return GMMU_E_PROTOCOL;
    rc = read_ring_words(dev, GMMU_CPL_RING, GMMU_CPL_SLOTS, dev->cpl_tail, w, first,
                         (length + 3) / 4);
    if (rc)
        return rc;
    out->opcode = hdr.opcode;
    out->seq = hdr.seq;
    out->status = hdr.status;
    out->fence = hdr.fence;
    out->payload_len = length - GMMU_MSG_HDR_BYTES;
    memcpy(out->payload, (uint8_t *)w + GMMU_MSG_HDR_BYTES, out->payload_len);
    dev->cpl_tail += slots_for(length);
    return 0;
}

static int park(struct gmmu_dev *dev, const struct gmmu_completion *cpl)
{
    struct parked *p = malloc(sizeof *p);
    if (!p)
        return GMMU_E_NO_MEMORY;
    p->cpl = *cpl;
    p->next = NULL;
    struct parked **tail = &dev->parked;
    while (*tail)
        tail = &(*tail)->next;
    *tail = p;
    return 0;
}

/* Moves every published completion into the parked list. Caller locks. */
static int drain_completions(struct gmmu_dev *dev)
{
    /* Clear the status before reading the head: a completion published
       after this point raises a fresh MSI. */
    int rc = wr(dev, GMMU_MBOX_HOST_IRQ_STATUS, GMMU_MBOX_HOST_IRQ_STATUS_CPL);
    uint32_t head;
    if (rc == 0)
        rc = rd(dev, GMMU_MBOX_CPL_HEAD, &head);
    if (rc)
        return rc;
    if (head - dev->cpl_tail > GMMU_CPL_SLOTS)
        return GMMU_E_PROTOCOL;
    bool moved = false;
    while (dev->cpl_tail != head) {
        struct gmmu_completion *cpl = malloc(sizeof *cpl);
        if (!cpl)
            return GMMU_E_NO_MEMORY;
        rc = read_one_completion(dev, cpl);
        if (rc == 0)
            rc = park(dev, cpl);
        free(cpl);
        if (rc)
            return rc;
        moved = true;
    }
    /* Free the slots only after they are read: the pointer goes last. */
    return moved ? wr(dev, GMMU_MBOX_CPL_TAIL, dev->cpl_tail) : 0;
}

/* Takes the parked completion for seq (any seq if match_any). */
static bool unpark(struct gmmu_dev *dev, uint32_t seq, bool match_any, struct gmmu_completion *out)
{
    for (struct parked **pp = &dev->parked; *pp; pp = &(*pp)->next) {
        if (match_any || (*pp)->cpl.seq == seq) {
            struct parked *p = *pp;
            *pp = p->next;
            if (out)
                *out = p->cpl;
            free(p);
            return true;
        }
    }
    return false;
}

/* Waits a short slice for news from the device, with the lock released. */
static void idle_slice(struct gmmu_dev *dev, int64_t deadline)
{
    int slice = (int)(deadline - now_ms());
    slice = slice < 0 ? 0 : slice > POLL_SLICE_MS ? POLL_SLICE_MS : slice;
    if (dev->wait_mode == GMMU_WAIT_AUTO) {
        uint32_t vectors;
        pthread_mutex_lock(&dev->lock);
        int rc = gmmu_transport_wait_irq(dev->t, slice, &vectors);
        if (rc == GMMU_E_NOT_SUPPORTED)
            dev->wait_mode = GMMU_WAIT_POLL;
        pthread_mutex_unlock(&dev->lock);
        if (rc != GMMU_E_NOT_SUPPORTED)
            return;
    }
    sleep_ms(slice ? 1 : 0);
}

int gmmu_wait(struct gmmu_dev *dev, uint32_t seq, struct gmmu_completion *out, int timeout_ms)
{
    int64_t deadline = now_ms() + (timeout_ms < 0 ? dev->timeout_ms : timeout_ms);
    for (;;) {
        pthread_mutex_lock(&dev->lock);
        int rc = unpark(dev, seq, false, out) ? 1 : drain_completions(dev);
        if (rc == 0 && unpark(dev, seq, false, out))
            rc = 1;
        pthread_mutex_unlock(&dev->lock);
        if (rc == 1)
            return 0;
        if (rc < 0)
            return rc;
        if (now_ms() >= deadline)
            return GMMU_E_TIMEOUT;
        idle_slice(dev, deadline);
    }
}

int gmmu_command_state(struct gmmu_dev *dev, uint32_t seq, enum gmmu_cmd_state *out)
{
    uint32_t fence, state, next;
    pthread_mutex_lock(&dev->lock);
    int rc = rd(dev, GMMU_MBOX_CPL_FENCE, &fence);
    if (rc == 0)
        rc = rd(dev, GMMU_MBOX_FW_STATE, &state);
    if (rc == 0)
        rc = rd(dev, GMMU_MBOX_NEXT_SEQ, &next);
    pthread_mutex_unlock(&dev->lock);
    if (rc)
        return rc;
    /* Sequence numbers wrap: compare by difference. */
    if ((int32_t)(seq - fence) <= 0)
        *out = GMMU_CMD_DONE;
    else if ((state & GMMU_MBOX_FW_STATE_RUNNING) && next - 1u == seq)
        *out = GMMU_CMD_RUNNING;
    else
        *out = GMMU_CMD_PENDING;
    return 0;
}

/* After a wait timed out: is the device still at work on something, so
   the wait should go on? The heartbeat must have moved since *heartbeat
   (updated), and the firmware must show a long command running (this one,
   or one before it) now or at the last check (*was_running, updated): the
   firmware clears RUNNING just before it publishes the completion, so a
   command that ended at the check gets one more wait to be collected. */
static bool still_working(struct gmmu_dev *dev, uint32_t *heartbeat, bool *was_running)
{
    uint32_t beat, state;
    pthread_mutex_lock(&dev->lock);
    int rc = rd(dev, GMMU_MBOX_FW_HEARTBEAT, &beat);
    if (rc == 0)
        rc = rd(dev, GMMU_MBOX_FW_STATE, &state);
    pthread_mutex_unlock(&dev->lock);
    if (rc || beat == *heartbeat)
        return false;
    *heartbeat = beat;
    bool running = state & GMMU_MBOX_FW_STATE_RUNNING, go_on = running || *was_running;
    *was_running = running;
    return go_on;
}

int gmmu_reap(struct gmmu_dev *dev, struct gmmu_completion *out)
{
    pthread_mutex_lock(&dev->lock);
    int rc = unpark(dev, 0, true, out) ? 1 : drain_completions(dev);
    if (rc == 0 && unpark(dev, 0, true, out))
        rc = 1;
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

/* ------------------------------------------------------------ submission */
/* Makes room for `slots` command slots; the lock is held on return 0. */
static int reserve_slots(struct gmmu_dev *dev, uint32_t slots)
{
    /* The deadline runs from the firmware's last progress, not from the
     * call: the command tail moving, or completions it published that we
     * drained. Over a slow link (the UART bridge in simulation) draining a
     * full completion ring alone can take longer than the timeout while
     * the firmware is well. */
    int64_t deadline = now_ms() + dev->timeout_ms;
    for (;;) {
        pthread_mutex_lock(&dev->lock);
        int rc = 0;
        uint32_t cmd_tail_before = dev->cmd_tail;
        uint32_t cpl_tail_before = dev->cpl_tail;
        if (GMMU_CMD_SLOTS - (dev->cmd_head - dev->cmd_tail) < slots)
            rc = rd(dev, GMMU_MBOX_CMD_TAIL, &dev->cmd_tail);
        if (rc == 0 && GMMU_CMD_SLOTS - (dev->cmd_head - dev->cmd_tail) >= slots)
            return 0;
        /* The firmware may be waiting for completion space: make some. */
        if (rc == 0)
            rc = drain_completions(dev);
        bool progress = dev->cmd_tail != cmd_tail_before || dev->cpl_tail != cpl_tail_before;
        pthread_mutex_unlock(&dev->lock);
        if (rc)
            return rc;
        if (progress)
            deadline = now_ms() + dev->timeout_ms;
        else if (now_ms() >= deadline)
            return GMMU_E_TIMEOUT;
        idle_slice(dev, deadline);
    }
}

/* Writes the words of a message at cmd_head and publishes it. Caller locks. */
static int post_message(struct gmmu_dev *dev, const uint32_t *words, size_t nwords, uint32_t slots)
{
    int rc = 0;
    for (size_t i = 0; i < nwords && rc == 0; i++)
        rc = wr(dev, ring_offset(GMMU_CMD_RING, GMMU_CMD_SLOTS, dev->cmd_head, (uint32_t)i),
                words[i]);
    if (rc)
        return rc;
    dev->cmd_head += slots;
    /* Data before the pointer, pointer before the doorbell. */
    rc = wr(dev, GMMU_MBOX_CMD_HEAD, dev->cmd_head);
    return rc ? rc : wr(dev, GMMU_MBOX_DOORBELL, 1);
}

int gmmu_submit(struct gmmu_dev *dev, uint16_t opcode, const void *payload, size_t len,
                uint32_t *seq)
{
    size_t length = GMMU_MSG_HDR_BYTES + len;
    if (length > GMMU_MSG_MAX_BYTES || (len && !payload))
        return GMMU_E_INVALID_ARG;
    uint32_t words[GMMU_MSG_MAX_BYTES / 4] = { 0 };
    int rc = reserve_slots(dev, slots_for(length));
    if (rc)
        return rc;
    struct gmmu_msg_hdr hdr = { .opcode = opcode,
                                .length = (uint16_t)length,
                                .seq = dev->next_seq };
    memcpy(words, &hdr, sizeof hdr);
    if (len)
        memcpy((uint8_t *)words + sizeof hdr, payload, len);
    rc = post_message(dev, words, (length + 3) / 4, slots_for(length));
    if (rc == 0) {
        if (seq)
            *seq = dev->next_seq;
        dev->next_seq++;
    }
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

int gmmu_submit_raw(struct gmmu_dev *dev, const void *msg, size_t len, uint32_t slots)
{
    if (slots == 0 || slots > GMMU_CMD_SLOTS || len > (size_t)slots * GMMU_SLOT_BYTES ||
        (len && !msg))
        return GMMU_E_INVALID_ARG;
    uint32_t words[GMMU_MSG_MAX_BYTES / 4] = { 0 };
    memcpy(words, msg, len);
    int rc = reserve_slots(dev, slots);
    if (rc)
        return rc;
    rc = post_message(dev, words, (len + 3) / 4, slots);
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

uint32_t gmmu_peek_seq(struct gmmu_dev *dev)
{
    pthread_mutex_lock(&dev->lock);
    uint32_t seq = dev->next_seq;
    pthread_mutex_unlock(&dev->lock);
    return seq;
}

void gmmu_skip_seq(struct gmmu_dev *dev)
{
    pthread_mutex_lock(&dev->lock);
    dev->next_seq++;
    pthread_mutex_unlock(&dev->lock);
}

/* ------------------------------------------------------------ sync calls */
int gmmu_call(struct gmmu_dev *dev, uint16_t opcode, const void *req, size_t req_len, void *resp,
              size_t resp_cap, size_t *resp_len)
{
    uint32_t seq;
    int rc = gmmu_submit(dev, opcode, req, req_len, &seq);
    if (rc)
        return rc;
    struct gmmu_completion *cpl = malloc(sizeof *cpl);
    if (!cpl)
        return GMMU_E_NO_MEMORY;
    uint32_t heartbeat = 0;
    bool was_running = false;
    pthread_mutex_lock(&dev->lock);
    rc = rd(dev, GMMU_MBOX_FW_HEARTBEAT, &heartbeat);
    pthread_mutex_unlock(&dev->lock);
    if (rc == 0)
        rc = gmmu_wait(dev, seq, cpl, -1);
    for (int more = 1; rc == GMMU_E_TIMEOUT && more < GMMU_LONG_COMMAND_TIMEOUTS &&
                       still_working(dev, &heartbeat, &was_running);
         more++)
        rc = gmmu_wait(dev, seq, cpl, -1);
    if (rc == 0 && cpl->opcode != opcode)
        rc = GMMU_E_PROTOCOL;
    if (rc == 0) {
        size_t n = cpl->payload_len < resp_cap ? cpl->payload_len : resp_cap;
        if (n)
            memcpy(resp, cpl->payload, n);
        if (resp_len)
            *resp_len = cpl->payload_len;
        rc = (int)cpl->status;
    }
    free(cpl);
    return rc;
}

static int call_fixed(struct gmmu_dev *dev, uint16_t opcode, void *out, size_t size)
{
    size_t got = 0;
    int rc = gmmu_call(dev, opcode, NULL, 0, out, size, &got);
    return rc == 0 && got != size ? GMMU_E_PROTOCOL : rc;
}

int gmmu_ping(struct gmmu_dev *dev, const void *data, size_t len)
{
    uint8_t echo[GMMU_MSG_MAX_BYTES];
    size_t got = 0;
    int rc = gmmu_call(dev, GMMU_OP_PING, data, len, echo, sizeof echo, &got);
    if (rc == 0 && (got != len || (len && memcmp(echo, data, len) != 0)))
        rc = GMMU_E_PROTOCOL;
    return rc;
}

int gmmu_get_info(struct gmmu_dev *dev, struct gmmu_info *out)
{
    return call_fixed(dev, GMMU_OP_GET_INFO, out, sizeof *out);
}

int gmmu_get_caps(struct gmmu_dev *dev, struct gmmu_caps *out)
{
    return call_fixed(dev, GMMU_OP_GET_CAPS, out, sizeof *out);
}

int gmmu_get_stats(struct gmmu_dev *dev, struct gmmu_stats *out)
{
    return call_fixed(dev, GMMU_OP_GET_STATS, out, sizeof *out);
}

int gmmu_get_pt_stats(struct gmmu_dev *dev, struct gmmu_pt_stats *out)
{
    return call_fixed(dev, GMMU_OP_GET_PT_STATS, out, sizeof *out);
}

/* --------------------------------------------------------------- events */
/* Learns EVT_HEAD; EVENT is cleared first so that an event posted after
   the read raises a fresh MSI. Caller locks. */
static int refresh_evt_head(struct gmmu_dev *dev)
{
    uint32_t head;
    int rc = wr(dev, GMMU_MBOX_HOST_IRQ_STATUS, GMMU_MBOX_HOST_IRQ_STATUS_EVENT);
    if (rc == 0)
        rc = rd(dev, GMMU_MBOX_EVT_HEAD, &head);
    /* Out of step (another handle read the ring, or the firmware
       restarted): take the device's tail as ours. */
    if (rc == 0 && head - dev->evt_tail > GMMU_EVT_SLOTS)
        rc = rd(dev, GMMU_MBOX_EVT_TAIL, &dev->evt_tail);
    if (rc)
        return rc;
    if (head - dev->evt_tail > GMMU_EVT_SLOTS)
        return GMMU_E_PROTOCOL;
    dev->evt_head = head;
    return 0;
}

static int read_evt_words(struct gmmu_dev *dev, uint32_t *w, uint32_t from, uint32_t to)
{
    return read_ring_words(dev, GMMU_EVT_RING, GMMU_EVT_SLOTS, dev->evt_tail, w, from, to);
}

/* Frees `slots` slots; the pointer goes only after the slots were read. */
static int consume_evt(struct gmmu_dev *dev, uint32_t slots)
{
    dev->evt_tail += slots;
    return wr(dev, GMMU_MBOX_EVT_TAIL, dev->evt_tail);
}

static void note_seq(struct gmmu_dev *dev, struct gmmu_event *ev)
{
    ev->lost = dev->evt_seq_known ? ev->seq - dev->evt_next_seq : 0;
    dev->evt_next_seq = ev->seq + 1;
    dev->evt_seq_known = true;
}

/* Reads the event at evt_tail (the caller knows there is one). A header
   that cannot be right costs one slot, so a corrupt ring is left behind
   rather than read forever. Caller locks. */
static int read_one_event(struct gmmu_dev *dev, struct gmmu_event *out)
{
    uint32_t w[GMMU_MSG_MAX_BYTES / 4];
    struct gmmu_msg_hdr hdr;
    int rc = read_evt_words(dev, w, 0, GMMU_MSG_HDR_BYTES / 4);
    if (rc)
        return rc;
    memcpy(&hdr, w, sizeof hdr);
    uint32_t slots = slots_for(hdr.length);
    if (hdr.length < GMMU_MSG_HDR_BYTES || hdr.length > GMMU_MSG_MAX_BYTES ||
        slots > dev->evt_head - dev->evt_tail ||
        (hdr.opcode == GMMU_EVT_FAULT && hdr.length != GMMU_MSG_HDR_BYTES + GMMU_FAULT_EVT_BYTES)) {
        rc = consume_evt(dev, 1);
        return rc ? rc : GMMU_E_PROTOCOL;
    }
    rc = read_evt_words(dev, w, GMMU_MSG_HDR_BYTES / 4, (hdr.length + 3u) / 4u);
    if (rc == 0)
        rc = consume_evt(dev, slots);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    out->type = hdr.opcode;
    out->seq = hdr.seq;
    out->fence = hdr.fence;
    out->payload_len = hdr.length - GMMU_MSG_HDR_BYTES;
    memcpy(out->u.raw, (uint8_t *)w + GMMU_MSG_HDR_BYTES, out->payload_len);
    note_seq(dev, out);
    return 0;
}

int gmmu_next_event(struct gmmu_dev *dev, struct gmmu_event *out)
{
    if (!dev || !out)
        return GMMU_E_INVALID_ARG;
    pthread_mutex_lock(&dev->lock);
    int rc = dev->evt_tail == dev->evt_head ? refresh_evt_head(dev) : 0;
    if (rc == 0 && dev->evt_tail != dev->evt_head) {
        rc = read_one_event(dev, out);
        if (rc == 0)
            rc = 1;
    }
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

int gmmu_wait_event(struct gmmu_dev *dev, int timeout_ms, struct gmmu_event *out)
{
    if (!dev || !out)
        return GMMU_E_INVALID_ARG;
    pthread_mutex_lock(&dev->lock);
    int64_t deadline = now_ms() + (timeout_ms < 0 ? dev->timeout_ms : timeout_ms);
    pthread_mutex_unlock(&dev->lock);
    for (;;) {
        int rc = gmmu_next_event(dev, out);
        if (rc != 0)
            return rc == 1 ? 0 : rc;
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return GMMU_E_TIMEOUT;
        /* Sleeps rather than waiting for the MSI: the interrupt wait holds
           the handle, and events are not worth delaying commands for. */
        sleep_ms(left < GMMU_EVENT_POLL_MS ? (int)left : GMMU_EVENT_POLL_MS);
    }
}

/* How long the callback thread waits before it looks at its stop flag. */
#define EVENT_THREAD_SLICE_MS 50

static bool event_thread_should_stop(struct gmmu_dev *dev, gmmu_event_fn *fn, void **arg)
{
    pthread_mutex_lock(&dev->lock);
    bool stop = dev->evt_stop;
    *fn = dev->evt_fn;
    *arg = dev->evt_arg;
    pthread_mutex_unlock(&dev->lock);
    return stop;
}

static void close_now(struct gmmu_dev *dev);

static bool closed_by_callback(struct gmmu_dev *dev)
{
    pthread_mutex_lock(&dev->lock);
    bool closing = dev->evt_close;
    pthread_mutex_unlock(&dev->lock);
    return closing;
}

static void *event_thread(void *p)
{
    struct gmmu_dev *dev = p;
    struct gmmu_event *ev = malloc(sizeof *ev);
    gmmu_event_fn fn;
    void *arg;
    while (!event_thread_should_stop(dev, &fn, &arg)) {
        int rc = ev ? gmmu_wait_event(dev, EVENT_THREAD_SLICE_MS, ev) : GMMU_E_NO_MEMORY;
        if (rc == 0)
            fn(dev, ev, 0, arg);
        else if (rc != GMMU_E_TIMEOUT) {
            fn(dev, NULL, rc, arg);
            /* A dead device answers at once: do not spin on it. */
            sleep_ms(EVENT_THREAD_SLICE_MS);
        }
    }
    free(ev);
    /* No one will join a thread whose callback closed the handle: it
       finishes the close itself, after its last use of the handle. */
    if (closed_by_callback(dev)) {
        pthread_detach(pthread_self());
        close_now(dev);
    }
    return NULL;
}

static bool on_event_thread(struct gmmu_dev *dev)
{
    pthread_mutex_lock(&dev->lock);
    bool self = dev->evt_thread_live && pthread_equal(dev->evt_thread, pthread_self());
    pthread_mutex_unlock(&dev->lock);
    return self;
}

static void stop_event_thread(struct gmmu_dev *dev)
{
    pthread_mutex_lock(&dev->lock);
    bool live = dev->evt_thread_live;
    dev->evt_stop = true;
    pthread_mutex_unlock(&dev->lock);
    if (live)
        pthread_join(dev->evt_thread, NULL);
    pthread_mutex_lock(&dev->lock);
    dev->evt_thread_live = false;
    dev->evt_fn = NULL;
    pthread_mutex_unlock(&dev->lock);
}

int gmmu_set_event_callback(struct gmmu_dev *dev, gmmu_event_fn fn, void *arg)
{
    if (!dev || on_event_thread(dev))
        return GMMU_E_INVALID_ARG;
    pthread_mutex_lock(&dev->cb_lock);
    stop_event_thread(dev);
    int rc = 0;
    if (fn) {
        pthread_mutex_lock(&dev->lock);
        dev->evt_fn = fn;
        dev->evt_arg = arg;
        dev->evt_stop = false;
        rc = pthread_create(&dev->evt_thread, NULL, event_thread, dev) ? GMMU_E_NO_MEMORY : 0;
        dev->evt_thread_live = rc == 0;
        pthread_mutex_unlock(&dev->lock);
    }
    pthread_mutex_unlock(&dev->cb_lock);
    return rc;
}

/* --------------------------------------------------------- MMU counters */
int gmmu_get_mmu_counters(struct gmmu_dev *dev, uint32_t flags, struct gmmu_mmu_perf *out)
{
    if (!dev || !out)
        return GMMU_E_INVALID_ARG;
    struct gmmu_mmu_counters_req req = { .flags = flags };
    struct gmmu_mmu_perf got;
    size_t len = 0;
    int rc = gmmu_call(dev, GMMU_OP_GET_MMU_COUNTERS, &req, sizeof req, &got, sizeof got, &len);
    if (rc)
        return rc;
    if (len < sizeof got.c || got.c.ports > GMMU_MMU_PORTS_MAX ||
        len != sizeof got.c + got.c.ports * sizeof got.port[0])
        return GMMU_E_PROTOCOL;
    memset(got.port + got.c.ports, 0, (GMMU_MMU_PORTS_MAX - got.c.ports) * sizeof got.port[0]);
    *out = got;
    return 0;
}

/* Both structures are made of 32-bit counters only, so the difference is
   taken word by word. */
static void sub_words(const void *before, const void *after, void *delta, size_t bytes)
{
    for (size_t i = 0; i < bytes / 4; i++) {
        uint32_t b, a;
        memcpy(&b, (const uint8_t *)before + 4 * i, 4);
        memcpy(&a, (const uint8_t *)after + 4 * i, 4);
        a -= b;
        memcpy((uint8_t *)delta + 4 * i, &a, 4);
    }
}

void gmmu_mmu_perf_delta(const struct gmmu_mmu_perf *before, const struct gmmu_mmu_perf *after,
                         struct gmmu_mmu_perf *delta)
{
    struct gmmu_mmu_perf d;
    sub_words(before, after, &d, sizeof d);
    d.c.ports = after->c.ports;
    d.c.reserved = 0;
    *delta = d;
}

/* ------------------------------------------------------------- aperture */
#define APERTURE_ALIGN 4096u

/* Points BAR1 at a window holding [offset, offset + 4). Caller locks. */
static int aperture_window(struct gmmu_dev *dev, uint64_t offset, uint64_t *bar1_off)
{
    uint64_t window = gmmu_transport_bar_size(dev->t, 1);
    if (window < APERTURE_ALIGN)
        return GMMU_E_NOT_SUPPORTED;
    if (!dev->aperture_known || offset < dev->aperture_base ||
        offset + 4 > dev->aperture_base + window) {
        uint64_t base = offset & ~(uint64_t)(APERTURE_ALIGN - 1);
        if (base > 0xFFFFFFFFu)
            return GMMU_E_INVALID_ARG;
        int rc = wr(dev, GMMU_MBOX_APERTURE_BASE, (uint32_t)base);
        if (rc)
            return rc;
        dev->aperture_base = base;
        dev->aperture_known = true;
    }
    *bar1_off = offset - dev->aperture_base;
    return 0;
}

/* Words read through BAR1 in one go (transport_read_many): the aperture
   has no read side effects, so the reads of one window go out together. */
#define VRAM_READ_BATCH 256u

static int vram_access(struct gmmu_dev *dev, uint64_t offset, uint32_t *words, size_t count,
                       bool write)
{
    int rc = 0;
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < count && rc == 0;) {
        uint64_t bar1_off;
        rc = aperture_window(dev, offset + 4 * i, &bar1_off);
        if (rc != 0)
            break;
        if (write) {
            rc = gmmu_transport_write32(dev->t, 1, bar1_off, words[i]);
            i++;
            continue;
        }
        /* As many words as the window holds from here, up to a batch. */
        uint64_t in_window = (gmmu_transport_bar_size(dev->t, 1) - bar1_off) / 4;
        size_t n = count - i;
        if (n > in_window)
            n = (size_t)in_window;
        if (n > VRAM_READ_BATCH)
            n = VRAM_READ_BATCH;
        uint64_t offs[VRAM_READ_BATCH];
        for (size_t k = 0; k < n; k++)
            offs[k] = bar1_off + 4 * k;
        rc = transport_read_many(dev->t, 1, offs, &words[i], n);
        i += n;
    }
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

int gmmu_vram_read(struct gmmu_dev *dev, uint64_t vram_offset, void *buf, size_t len)
{
    if ((vram_offset | len) & 3u || (len && !buf))
        return GMMU_E_INVALID_ARG;
    uint32_t *words = malloc(len ? len : 1);
    if (!words)
        return GMMU_E_NO_MEMORY;
    int rc = vram_access(dev, vram_offset, words, len / 4, false);
    if (rc == 0 && len)
        memcpy(buf, words, len);
    free(words);
    return rc;
}

int gmmu_vram_write(struct gmmu_dev *dev, uint64_t vram_offset, const void *buf, size_t len)
{
    if ((vram_offset | len) & 3u || (len && !buf))
        return GMMU_E_INVALID_ARG;
    uint32_t *words = malloc(len ? len : 1);
    if (!words)
        return GMMU_E_NO_MEMORY;
    if (len)
        memcpy(words, buf, len);
    int rc = vram_access(dev, vram_offset, words, len / 4, true);
    free(words);
    return rc;
}

/* ------------------------------------------------------------- identity */
int gmmu_bar_read(struct gmmu_dev *dev, uint32_t offset, uint32_t *value)
{
    pthread_mutex_lock(&dev->lock);
    int rc = rd(dev, offset, value);
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

int gmmu_bar_write(struct gmmu_dev *dev, uint32_t offset, uint32_t value)
{
    pthread_mutex_lock(&dev->lock);
    int rc = wr(dev, offset, value);
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

int gmmu_read_ident(struct gmmu_dev *dev, struct gmmu_ident *out)
{
    static const uint32_t offs[] = {
        GMMU_MBOX_IDENT_MAGIC,    GMMU_MBOX_IDENT_PROTO, GMMU_MBOX_IDENT_FW_VERSION,
        GMMU_MBOX_IDENT_FW_BUILD, GMMU_MBOX_IDENT_CAPS,  GMMU_MBOX_IDENT_GEOMETRY,
        GMMU_MBOX_IDENT_RINGS,    GMMU_MBOX_FW_STATE,    GMMU_MBOX_FW_HEARTBEAT,
        GMMU_MBOX_NEXT_SEQ,       GMMU_MBOX_CPL_FENCE,   GMMU_MBOX_HOST_WRITE_ERRORS,
    };
    uint32_t v[sizeof offs / sizeof offs[0]];
    int rc = 0;
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < sizeof offs / sizeof offs[0] && rc == 0; i++)
        rc = rd(dev, offs[i], &v[i]);
    pthread_mutex_unlock(&dev->lock);
    if (rc)
        return rc;
    *out = (struct gmmu_ident){ v[0], v[1], v[2], v[3], v[4],  v[5],
                                v[6], v[7], v[8], v[9], v[10], v[11] };
    return 0;
}

/* ------------------------------------------------------------ open/close */
static int check_identity(struct gmmu_dev *dev)
{
    uint32_t magic, proto;
    int rc = rd(dev, GMMU_MBOX_IDENT_MAGIC, &magic);
    if (rc == 0)
        rc = rd(dev, GMMU_MBOX_IDENT_PROTO, &proto);
    if (rc)
        return rc;
    if (magic != GMMU_MBOX_MAGIC || (proto >> 16) != (GMMU_PROTO_VERSION >> 16))
        return GMMU_E_PROTOCOL;
    return 0;
}

static int wait_until_booted(struct gmmu_dev *dev, int64_t deadline)
{
    for (;;) {
        uint32_t state;
        int rc = rd(dev, GMMU_MBOX_FW_STATE, &state);
        if (rc)
            return rc;
        if ((state & 0xFFu) != GMMU_FW_STATE_BOOTING)
            return 0;
        if (now_ms() >= deadline)
            return GMMU_E_TIMEOUT;
        sleep_ms(1);
    }
}

/* Lets commands of a previous host finish, discarding their completions,
   then learns the sequence number the firmware expects. The firmware moves
   CMD_TAIL only after publishing a command's completion, so once CMD_TAIL
   reaches CMD_HEAD, the CPL_HEAD read after it covers every leftover.
   Whatever the previous host left: commands it published without ringing
   are served because the loop rings the doorbell; a CMD_HEAD behind the
   firmware's tail (left by an older device, which took any value) is set to CMD_TAIL. */
static int take_over_rings(struct gmmu_dev *dev, int64_t deadline)
{
    int rc = rd(dev, GMMU_MBOX_CMD_HEAD, &dev->cmd_head);
    for (;;) {
        uint32_t cpl_head;
        if (rc == 0)
            rc = rd(dev, GMMU_MBOX_CMD_TAIL, &dev->cmd_tail);
        if (rc == 0 && dev->cmd_head - dev->cmd_tail > GMMU_CMD_SLOTS) {
            rc = wr(dev, GMMU_MBOX_CMD_HEAD, dev->cmd_tail);
            dev->cmd_head = dev->cmd_tail;
        }
        if (rc == 0)
            rc = rd(dev, GMMU_MBOX_CPL_HEAD, &cpl_head);
        if (rc == 0)
            rc = wr(dev, GMMU_MBOX_CPL_TAIL, cpl_head);
        if (rc)
            return rc;
        dev->cpl_tail = cpl_head;
        if (dev->cmd_tail == dev->cmd_head)
            break;
        rc = wr(dev, GMMU_MBOX_DOORBELL, 1);
        if (rc)
            return rc;
        if (now_ms() >= deadline)
            return GMMU_E_TIMEOUT;
        sleep_ms(1);
    }
    rc = rd(dev, GMMU_MBOX_NEXT_SEQ, &dev->next_seq);
    /* Events are left in place: they may be what the new host came for. */
    if (rc == 0)
        rc = rd(dev, GMMU_MBOX_EVT_TAIL, &dev->evt_tail);
    dev->evt_head = dev->evt_tail;
    if (rc == 0)
        rc = wr(dev, GMMU_MBOX_HOST_IRQ_STATUS, 0xFFFFFFFFu);
    if (rc == 0)
        rc = wr(dev, GMMU_MBOX_HOST_IRQ_MASK,
                GMMU_MBOX_HOST_IRQ_STATUS_CPL | GMMU_MBOX_HOST_IRQ_STATUS_EVENT |
                    GMMU_MBOX_HOST_IRQ_STATUS_STATE);
    return rc;
}

int gmmu_open(const char *spec, struct gmmu_dev **out)
{
    if (!spec || !out)
        return GMMU_E_INVALID_ARG;
    struct gmmu_dev *dev = calloc(1, sizeof *dev);
    if (!dev)
        return GMMU_E_NO_MEMORY;
    pthread_mutex_init(&dev->lock, NULL);
    pthread_mutex_init(&dev->cb_lock, NULL);
    dev->timeout_ms = DEFAULT_TIMEOUT_MS;
    int rc = gmmu_transport_open(spec, &dev->t);
    int64_t deadline = now_ms() + dev->timeout_ms;
    if (rc == 0)
        rc = check_identity(dev);
    if (rc == 0)
        rc = wait_until_booted(dev, deadline);
    if (rc == 0)
        rc = take_over_rings(dev, deadline);
    if (rc) {
        gmmu_close(dev);
        return rc;
    }
    *out = dev;
    return 0;
}

static void stop_event_thread(struct gmmu_dev *dev);

void gmmu_close(struct gmmu_dev *dev)
{
    if (!dev)
        return;
    if (on_event_thread(dev)) {
        pthread_mutex_lock(&dev->lock);
        dev->evt_close = dev->evt_stop = true;
        pthread_mutex_unlock(&dev->lock);
        return;
    }
    pthread_mutex_lock(&dev->cb_lock);
    stop_event_thread(dev);
    pthread_mutex_unlock(&dev->cb_lock);
    close_now(dev);
}

static void close_now(struct gmmu_dev *dev)
{
    while (unpark(dev, 0, true, NULL))
        ;
    gmmu_transport_close(dev->t);
    pthread_mutex_destroy(&dev->lock);
    pthread_mutex_destroy(&dev->cb_lock);
    free(dev);
}

void gmmu_set_timeout(struct gmmu_dev *dev, int timeout_ms)
{
    pthread_mutex_lock(&dev->lock);
    dev->timeout_ms = timeout_ms > 0 ? timeout_ms : DEFAULT_TIMEOUT_MS;
    gmmu_transport_set_timeout(dev->t, dev->timeout_ms);
    pthread_mutex_unlock(&dev->lock);
}

void gmmu_set_wait_mode(struct gmmu_dev *dev, enum gmmu_wait_mode mode)
{
    pthread_mutex_lock(&dev->lock);
    dev->wait_mode = mode;
    pthread_mutex_unlock(&dev->lock);
}

const char *gmmu_version(void)
{
    return GMMU_VERSION;
}

const char *gmmu_error_name(int rc)
{
    static const char *const host[] = {
        [-GMMU_E_TIMEOUT] = "E_TIMEOUT",           [-GMMU_E_DEVICE_GONE] = "E_DEVICE_GONE",
        [-GMMU_E_DISCONNECTED] = "E_DISCONNECTED", [-GMMU_E_IO] = "E_IO",
        [-GMMU_E_BAD_SPEC] = "E_BAD_SPEC",         [-GMMU_E_NOT_SUPPORTED] = "E_NOT_SUPPORTED",
        [-GMMU_E_NO_MEMORY] = "E_NO_MEMORY",       [-GMMU_E_LINK_ERROR] = "E_LINK_ERROR",
        [-GMMU_E_NO_DEVICE] = "E_NO_DEVICE",       [-GMMU_E_PERMISSION] = "E_PERMISSION",
        [-GMMU_E_INVALID_ARG] = "E_INVALID_ARG",   [-GMMU_E_PROTOCOL] = "E_PROTOCOL",
    };
    const char *s = NULL;
    if (rc >= 0)
        s = gmmu_status_name((unsigned)rc);
    else if ((size_t) - (long)rc < sizeof host / sizeof host[0])
        s = host[-rc];
    return s ? s : "UNKNOWN";
}

const char *gmmu_strerror(int rc)
{
    if (rc < 0)
        return gmmu_host_strerror(rc);
    const char *s = gmmu_status_desc((unsigned)rc);
    return s ? s : "unknown device status";
}

/* -------------------------------------------------------- system memory */
int gmmu_sysmem_alloc(struct gmmu_dev *dev, size_t size, uint64_t *bus_addr, void **host_ptr)
{
    pthread_mutex_lock(&dev->lock);
    int rc = gmmu_transport_sysmem_alloc(dev->t, size, bus_addr, host_ptr);
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

int gmmu_sysmem_free(struct gmmu_dev *dev, uint64_t bus_addr)
{
    pthread_mutex_lock(&dev->lock);
    int rc = gmmu_transport_sysmem_free(dev->t, bus_addr);
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

int gmmu_sim_test_ddr_fault(struct gmmu_dev *dev, unsigned kinds, uint64_t lo, uint64_t hi,
                            unsigned count, uint64_t *read_beats, uint64_t *write_bursts)
{
    pthread_mutex_lock(&dev->lock);
    int rc =
        gmmu_transport_sim_test_ddr_fault(dev->t, kinds, lo, hi, count, read_beats, write_bursts);
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

/* splitmix64: a small, seedable generator for the scatter. */
static uint64_t scatter_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

int gmmu_sysmem_alloc_pages(struct gmmu_dev *dev, size_t count, size_t runs, uint64_t seed,
                            uint64_t *bus_addrs, void **host_ptrs)
{
    uint64_t base, state = seed;
    void *host;
    size_t *start, *order, n = 0;
    int rc;

    if (!dev || !count || !bus_addrs || count > SIZE_MAX / 4096)
        return GMMU_E_INVALID_ARG;
    runs = runs < 1 ? 1 : runs > count ? count : runs;
    /* start[k]: first page of piece k; a page is a cut with probability
       runs / count until there are runs pieces, so they are spread. */
    start = calloc(runs + 1, sizeof(*start));
    order = calloc(runs, sizeof(*order));
    if (!start || !order) {
        free(start);
        free(order);
        return GMMU_E_NO_MEMORY;
    }
    rc = gmmu_sysmem_alloc(dev, count * 4096, &base, &host);
    if (rc) {
        free(start);
        free(order);
        return rc;
    }
    start[n++] = 0;
    for (size_t p = 1; p < count && n < runs; p++)
        /* Cut where the pieces left to place need every remaining page, or
           at random. */
        if (count - p <= runs - n || scatter_next(&state) % count < runs)
            start[n++] = p;
    start[n] = count;
    for (size_t k = 0; k < n; k++)
        order[k] = k;
    for (size_t k = n; k > 1; k--) {
        size_t j = (size_t)(scatter_next(&state) % k), t = order[k - 1];

        order[k - 1] = order[j];
        order[j] = t;
    }
    for (size_t k = 0, i = 0; k < n; k++)
        for (size_t p = start[order[k]]; p < start[order[k] + 1]; p++, i++) {
            bus_addrs[i] = base + (uint64_t)p * 4096;
            if (host_ptrs)
                host_ptrs[i] = (uint8_t *)host + p * 4096;
        }
    free(start);
    free(order);
    return 0;
}

int gmmu_sysmem_free_pages(struct gmmu_dev *dev, const uint64_t *bus_addrs, size_t count)
{
    uint64_t base = UINT64_MAX;

    if (!dev || !bus_addrs || !count)
        return GMMU_E_INVALID_ARG;
    for (size_t i = 0; i < count; i++)
        base = bus_addrs[i] < base ? bus_addrs[i] : base;
    return gmmu_sysmem_free(dev, base);
}
