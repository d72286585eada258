// SPDX-License-Identifier: Apache-2.0
#include "fake_paging.h"

#include <string.h>

#include "paging_io_impl.h"

struct fake_paging fake_paging;

void fake_paging_reset(uint32_t ring_words, struct ref *ref,
                       void (*after)(void *ctx, const uint64_t *packet), void *ctx)
{
    memset(&fake_paging, 0, sizeof fake_paging);
    fake_paging.present = true;
    fake_paging.ring_words = ring_words;
    fake_paging.ref = ref;
    fake_paging.after = after;
    fake_paging.ctx = ctx;
    fake_paging.rng = 0x9E3779B97F4A7C15ull;
    if (ref)
        ref->cfg.queue_words = ring_words;
}

static uint32_t rnd(uint32_t n)
{
    struct fake_paging *f = &fake_paging;

    f->rng ^= f->rng << 13;
    f->rng ^= f->rng >> 7;
    f->rng ^= f->rng << 17;
    return n ? (uint32_t)(f->rng % n) : 0;
}

static void stop(uint32_t code, uint64_t addr)
{
    struct fake_paging *f = &fake_paging;

    f->status = GMMU_PAGING_STATUS_ERROR | code << GMMU_PAGING_STATUS_CODE_LSB;
    f->err_packet = f->packets_done;
    f->err_addr = addr;
    f->irq_status |= GMMU_PAGING_IRQ_STATUS_ERROR;
}

/* Runs the packet at TAIL if it is published whole. False when none ran. */
static bool run_one(void)
{
    struct fake_paging *f = &fake_paging;
    uint64_t w[GMMU_PAGING_QUEUE_WORDS_MAX];
    uint32_t n, mask = f->ring_words - 1;
    unsigned err;

    if (f->status & GMMU_PAGING_STATUS_ERROR || !(f->ctrl & GMMU_PAGING_CTRL_ENABLE) ||
        f->head == f->tail)
        return false;
    if (f->stall)
        return false;
    w[0] = f->ring[f->tail & mask];
    n = ref_packet_words(w[0]);
    if (n > f->ring_words) {
        stop(GMMU_PAGING_ERR_MALFORMED, f->tail);
        return false;
    }
    if (f->head - f->tail < n)
        return false;
    for (uint32_t i = 1; i < n; i++)
        w[i] = f->ring[(f->tail + i) & mask];
    err = ref_validate(&f->ref->cfg, w);
    if (err != GMMU_PAGING_ERR_NONE) {
        stop(err, f->tail);
        return false;
    }
    if (f->fail_armed && f->packets_done == f->fail_packet) {
        f->fail_armed = false;
        stop(f->fail_code, w[1]);
        return false;
    }
    ref_exec(f->ref, w);
    if (f->after)
        f->after(f->ctx, w);
    if ((w[0] & 0xFF) == GMMU_PAGING_OP_FENCE) {
        f->fence = w[2];
        if (w[0] & GMMU_PAGING_HDR_FENCE_IRQ)
            f->irq_status |= GMMU_PAGING_IRQ_STATUS_FENCE;
    }
    if ((w[0] & 0xFF) == GMMU_PAGING_OP_FLUSH_TLB)
        f->flushes++;
    f->tail += n;
    f->packets_done++;
    f->perf_packets++;
    f->perf_busy += 6;
    return true;
}

static void progress(void)
{
    uint32_t steps = fake_paging.max_step ? 1 + rnd(fake_paging.max_step) : UINT32_MAX;

    while (steps-- && run_one())
        ;
}

void fake_paging_drain(void)
{
    while (run_one())
        ;
}

static uint32_t busy(void)
{
    struct fake_paging *f = &fake_paging;

    return (f->head != f->tail && !(f->status & GMMU_PAGING_STATUS_ERROR)) ? 1u : 0u;
}

uint32_t fake_paging_read32(uint32_t offset)
{
    struct fake_paging *f = &fake_paging;

    if (!f->present)
        return 0xFFFFFFFFu;
    switch (offset) {
    case GMMU_PAGING_ID:
        return GMMU_PAGING_ID_VALUE;
    case GMMU_PAGING_CONFIG:
        return 16u | 128u << 16;
    case GMMU_PAGING_CTRL:
        return f->ctrl;
    case GMMU_PAGING_STATUS:
        progress();
        return f->status | busy();
    case GMMU_PAGING_QUEUE_WORDS:
        return f->ring_words;
    case GMMU_PAGING_HEAD:
        return f->head;
    case GMMU_PAGING_TAIL:
        progress();
        return f->tail;
    case GMMU_PAGING_PACKETS_DONE:
        progress();
        return f->packets_done;
    case GMMU_PAGING_ERR_PACKET:
        return f->err_packet;
    case GMMU_PAGING_ERR_ADDR_LO:
        return (uint32_t)f->err_addr;
    case GMMU_PAGING_ERR_ADDR_HI:
        return (uint32_t)(f->err_addr >> 32);
    case GMMU_PAGING_FENCE_LO:
        return (uint32_t)f->fence;
    case GMMU_PAGING_FENCE_HI:
        return (uint32_t)(f->fence >> 32);
    case GMMU_PAGING_IRQ_STATUS:
        return f->irq_status;
    case GMMU_PAGING_IRQ_ENABLE:
        return f->irq_enable;
    case GMMU_PAGING_PERF_PACKETS:
        return f->perf_packets;
    case GMMU_PAGING_PERF_BEATS:
        return f->perf_beats;
    case GMMU_PAGING_PERF_BUSY_CYCLES:
        return f->perf_busy;
    default:
        return 0; /* the queue window reads 0 */
    }
}

void fake_paging_write32(uint32_t offset, uint32_t value)
{
    struct fake_paging *f = &fake_paging;

    if (!f->present)
        return;
    if (offset >= GMMU_PAGING_QUEUE_OFFSET && offset < GMMU_PAGING_WINDOW_BYTES) {
        uint32_t word = (offset - GMMU_PAGING_QUEUE_OFFSET) / 8;
        uint64_t *p = &f->ring[word % GMMU_PAGING_QUEUE_WORDS_MAX];

        if (word >= f->ring_words)
            return;
        if (offset & 4)
            *p = (*p & 0xFFFFFFFFull) | (uint64_t)value << 32;
        else
            *p = (*p & ~0xFFFFFFFFull) | value;
        return;
    }
    switch (offset) {
    case GMMU_PAGING_CTRL:
        f->ctrl = value & GMMU_PAGING_CTRL_ENABLE;
        if (value & GMMU_PAGING_CTRL_RESTART) {
            f->tail = f->head;
            f->status = 0;
            f->restarts++;
        }
        break;
    case GMMU_PAGING_HEAD:
        f->head = value;
        break;
    case GMMU_PAGING_IRQ_STATUS:
        f->irq_status &= ~value;
        break;
    case GMMU_PAGING_IRQ_ENABLE:
        f->irq_enable = value;
        break;
    case GMMU_PAGING_PERF_PACKETS:
        f->perf_packets = value;
        break;
    case GMMU_PAGING_PERF_BEATS:
        f->perf_beats = value;
        break;
    case GMMU_PAGING_PERF_BUSY_CYCLES:
        f->perf_busy = value;
        break;
    default:
        break;
    }
}
