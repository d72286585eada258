#include "libgmmu.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_TIMEOUT_MS 5000
#define SLOT_WORDS (GMMU_SLOT_BYTES / 4u)
#define POLL_SLICE_MS 2 /* longest a waiter holds the lock in one go */

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
    uint64_t aperture_base;    /* last value written to APERTURE_BASE */
    bool aperture_known;
};

/* ------------------------------------------------------------- helpers */
static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

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

/* ----------------------------------------------------------- completions */
static int read_one_completion(struct gmmu_dev *dev, struct gmmu_completion *out)
{
    uint32_t w[GMMU_MSG_MAX_BYTES / 4];
    int rc;
    for (uint32_t i = 0; i < GMMU_MSG_HDR_BYTES / 4; i++)
        if ((rc = rd(dev, ring_offset(GMMU_CPL_RING, GMMU_CPL_SLOTS, dev->cpl_tail, i), &w[i])))
            return rc;
    struct gmmu_msg_hdr hdr;
    memcpy(&hdr, w, sizeof hdr);
    uint32_t length = hdr.length;
    if (length < GMMU_MSG_HDR_BYTES || length > GMMU_MSG_MAX_BYTES)
        return GMMU_E_PROTOCOL;
    for (uint32_t i = GMMU_MSG_HDR_BYTES / 4; i < (length + 3) / 4; i++)
        if ((rc = rd(dev, ring_offset(GMMU_CPL_RING, GMMU_CPL_SLOTS, dev->cpl_tail, i), &w[i])))
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
    int64_t deadline = now_ms() + dev->timeout_ms;
    for (;;) {
        pthread_mutex_lock(&dev->lock);
        int rc = 0;
        if (GMMU_CMD_SLOTS - (dev->cmd_head - dev->cmd_tail) < slots)
            rc = rd(dev, GMMU_MBOX_CMD_TAIL, &dev->cmd_tail);
        if (rc == 0 && GMMU_CMD_SLOTS - (dev->cmd_head - dev->cmd_tail) >= slots)
            return 0;
        /* The firmware may be waiting for completion space: make some. */
        if (rc == 0)
            rc = drain_completions(dev);
        pthread_mutex_unlock(&dev->lock);
        if (rc)
            return rc;
        if (now_ms() >= deadline)
            return GMMU_E_TIMEOUT;
        idle_slice(dev, deadline);
    }
}

/* Writes the words of a message at cmd_head and publishes it. Caller locks. */
static int post_message(struct gmmu_dev *dev, const uint32_t *words, size_t nwords, uint32_t slots)
{
    int rc = 0;
    for (size_t i = 0; i < nwords && rc == 0; i++)
        rc = wr(dev, ring_offset(GMMU_CMD_RING, GMMU_CMD_SLOTS, dev->cmd_head, (uint32_t)i), words[i]);
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
    uint32_t words[GMMU_MSG_MAX_BYTES / 4] = {0};
    int rc = reserve_slots(dev, slots_for(length));
    if (rc)
        return rc;
    struct gmmu_msg_hdr hdr = {.opcode = opcode, .length = (uint16_t)length, .seq = dev->next_seq};
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
    if (slots == 0 || slots > GMMU_CMD_SLOTS || len > (size_t)slots * GMMU_SLOT_BYTES || (len && !msg))
        return GMMU_E_INVALID_ARG;
    uint32_t words[GMMU_MSG_MAX_BYTES / 4] = {0};
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
int gmmu_call(struct gmmu_dev *dev, uint16_t opcode, const void *req, size_t req_len,
              void *resp, size_t resp_cap, size_t *resp_len)
{
    uint32_t seq;
    int rc = gmmu_submit(dev, opcode, req, req_len, &seq);
    if (rc)
        return rc;
    struct gmmu_completion *cpl = malloc(sizeof *cpl);
    if (!cpl)
        return GMMU_E_NO_MEMORY;
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

static int vram_access(struct gmmu_dev *dev, uint64_t offset, uint32_t *words, size_t count,
                       bool write)
{
    int rc = 0;
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < count && rc == 0; i++) {
        uint64_t bar1_off;
        rc = aperture_window(dev, offset + 4 * i, &bar1_off);
        if (rc == 0)
            rc = write ? gmmu_transport_write32(dev->t, 1, bar1_off, words[i])
                       : gmmu_transport_read32(dev->t, 1, bar1_off, &words[i]);
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
        GMMU_MBOX_IDENT_MAGIC, GMMU_MBOX_IDENT_PROTO, GMMU_MBOX_IDENT_FW_VERSION,
        GMMU_MBOX_IDENT_FW_BUILD, GMMU_MBOX_IDENT_CAPS, GMMU_MBOX_IDENT_GEOMETRY,
        GMMU_MBOX_IDENT_RINGS, GMMU_MBOX_FW_STATE, GMMU_MBOX_FW_HEARTBEAT,
        GMMU_MBOX_NEXT_SEQ, GMMU_MBOX_CPL_FENCE, GMMU_MBOX_HOST_WRITE_ERRORS,
    };
    uint32_t v[sizeof offs / sizeof offs[0]];
    int rc = 0;
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < sizeof offs / sizeof offs[0] && rc == 0; i++)
        rc = rd(dev, offs[i], &v[i]);
    pthread_mutex_unlock(&dev->lock);
    if (rc)
        return rc;
    *out = (struct gmmu_ident){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11]};
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
   reaches CMD_HEAD, the CPL_HEAD read after it covers every leftover. */
static int take_over_rings(struct gmmu_dev *dev, int64_t deadline)
{
    int rc = rd(dev, GMMU_MBOX_CMD_HEAD, &dev->cmd_head);
    for (;;) {
        uint32_t cpl_head;
        if (rc == 0)
            rc = rd(dev, GMMU_MBOX_CMD_TAIL, &dev->cmd_tail);
        if (rc == 0)
            rc = rd(dev, GMMU_MBOX_CPL_HEAD, &cpl_head);
        if (rc == 0)
            rc = wr(dev, GMMU_MBOX_CPL_TAIL, cpl_head);
        if (rc)
            return rc;
        dev->cpl_tail = cpl_head;
        if (dev->cmd_tail == dev->cmd_head)
            break;
        if (now_ms() >= deadline)
            return GMMU_E_TIMEOUT;
        sleep_ms(1);
    }
    rc = rd(dev, GMMU_MBOX_NEXT_SEQ, &dev->next_seq);
    if (rc == 0)
        rc = wr(dev, GMMU_MBOX_HOST_IRQ_STATUS, 0xFFFFFFFFu);
    if (rc == 0)
        rc = wr(dev, GMMU_MBOX_HOST_IRQ_MASK, GMMU_MBOX_HOST_IRQ_STATUS_CPL |
                                                  GMMU_MBOX_HOST_IRQ_STATUS_EVENT |
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

void gmmu_close(struct gmmu_dev *dev)
{
    if (!dev)
        return;
    while (unpark(dev, 0, true, NULL))
        ;
    gmmu_transport_close(dev->t);
    pthread_mutex_destroy(&dev->lock);
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

const char *gmmu_strerror(int rc)
{
    if (rc < 0)
        return gmmu_host_strerror(rc);
    const char *s = gmmu_status_desc((unsigned)rc);
    return s ? s : "unknown device status";
}
