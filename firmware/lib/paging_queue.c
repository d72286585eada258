// SPDX-License-Identifier: Apache-2.0
/*
 * The paging engine's producer. HEAD, TAIL and PACKETS_DONE are
 * free-running 32-bit counts, so every comparison is modulo 2^32.
 */
#include "paging_queue.h"

#include <stddef.h>

#include "paging_io_impl.h"

static uint64_t header(unsigned op, uint32_t flags, uint32_t count)
{
    return (uint64_t)op | flags | (uint64_t)count << GMMU_PAGING_HDR_COUNT_LSB;
}

unsigned pq_enc_write_run(uint64_t *w, uint64_t dst, uint64_t first, uint64_t step, uint32_t count)
{
    w[0] = header(GMMU_PAGING_OP_WRITE_PTES, 0, count);
    w[1] = dst;
    w[2] = first;
    w[3] = step;
    return 4;
}

unsigned pq_enc_write_literal(uint64_t *w, uint64_t dst, uint32_t count)
{
    w[0] = header(GMMU_PAGING_OP_WRITE_PTES, GMMU_PAGING_HDR_LITERAL, count);
    w[1] = dst;
    return 2;
}

unsigned pq_enc_fill(uint64_t *w, uint64_t dst, uint64_t pattern, uint32_t count)
{
    w[0] = header(GMMU_PAGING_OP_FILL, 0, count);
    w[1] = dst;
    w[2] = pattern;
    return 3;
}

unsigned pq_enc_copy(uint64_t *w, uint64_t dst, uint64_t src, uint32_t count, uint32_t flags)
{
    w[0] = header(GMMU_PAGING_OP_COPY, flags & (GMMU_PAGING_HDR_DST_SYS | GMMU_PAGING_HDR_SRC_SYS),
                  count);
    w[1] = dst;
    w[2] = src;
    return 3;
}

unsigned pq_enc_flush(uint64_t *w, unsigned type, uint32_t asid, uint64_t first_va,
                      uint64_t last_va)
{
    w[0] = header(GMMU_PAGING_OP_FLUSH_TLB, 0, type & 3u);
    w[1] = asid;
    w[2] = first_va;
    w[3] = last_va;
    return 4;
}

unsigned pq_enc_fence(uint64_t *w, uint64_t addr, uint64_t value, uint32_t flags)
{
    w[0] = header(GMMU_PAGING_OP_FENCE, 0, 0) |
           (flags &
            (GMMU_PAGING_HDR_FENCE_WRITE | GMMU_PAGING_HDR_FENCE_IRQ | GMMU_PAGING_HDR_DST_SYS));
    w[1] = addr;
    w[2] = value;
    return 3;
}

/* ------------------------------------------------------------ registers */

static uint32_t rd(uint32_t reg)
{
    return paging_io_read32(reg);
}

static void wr(uint32_t reg, uint32_t value)
{
    paging_io_write32(reg, value);
}

static void take_ring(struct pq *q)
{
    q->head = q->published = rd(GMMU_PAGING_HEAD);
    q->tail = rd(GMMU_PAGING_TAIL);
    q->queued = q->done = rd(GMMU_PAGING_PACKETS_DONE);
}

/* STATUS.ERROR: note the error for the caller. */
static bool stopped(struct pq *q)
{
    uint32_t st = rd(GMMU_PAGING_STATUS);

    if (!(st & GMMU_PAGING_STATUS_ERROR))
        return false;
    q->err_code = (st & GMMU_PAGING_STATUS_CODE) >> GMMU_PAGING_STATUS_CODE_LSB;
    q->err_packet = rd(GMMU_PAGING_ERR_PACKET);
    q->err_addr = (uint64_t)rd(GMMU_PAGING_ERR_ADDR_HI) << 32 | rd(GMMU_PAGING_ERR_ADDR_LO);
    q->stats.errors++;
    return true;
}

enum pq_status pq_restart(struct pq *q)
{
    uint32_t polls = 0;

    if (!q->present)
        return PQ_ERR_ABSENT;
    wr(GMMU_PAGING_CTRL, GMMU_PAGING_CTRL_ENABLE | GMMU_PAGING_CTRL_RESTART);
    while (rd(GMMU_PAGING_STATUS) &
           (GMMU_PAGING_STATUS_BUSY | GMMU_PAGING_STATUS_RESTARTING | GMMU_PAGING_STATUS_ERROR)) {
        if (++polls > PQ_POLL_LIMIT) {
            q->stats.timeouts++;
            return PQ_ERR_TIMEOUT;
        }
    }
    q->stats.restarts++;
    take_ring(q);
    return PQ_OK;
}

enum pq_status pq_init(struct pq *q)
{
    *q = (struct pq){ .present = false };
    if (rd(GMMU_PAGING_ID) != GMMU_PAGING_ID_VALUE)
        return PQ_ERR_ABSENT;
    q->present = true;
    q->ring_words = rd(GMMU_PAGING_QUEUE_WORDS);
    if (!q->ring_words || q->ring_words > GMMU_PAGING_QUEUE_WORDS_MAX ||
        (q->ring_words & (q->ring_words - 1))) {
        q->present = false;
        return PQ_ERR_ABSENT;
    }
    wr(GMMU_PAGING_IRQ_ENABLE, 0);
    /* A ring left by an earlier run (a firmware restart) is dropped. */
    if ((rd(GMMU_PAGING_STATUS) & GMMU_PAGING_STATUS_ERROR) ||
        rd(GMMU_PAGING_HEAD) != rd(GMMU_PAGING_TAIL)) {
        enum pq_status st = pq_restart(q);

        if (st != PQ_OK)
            return st;
    }
    wr(GMMU_PAGING_CTRL, GMMU_PAGING_CTRL_ENABLE);
    take_ring(q);
    return PQ_OK;
}

void pq_publish(struct pq *q)
{
    if (q->published != q->head) {
        wr(GMMU_PAGING_HEAD, q->head);
        q->published = q->head;
    }
}

/* Until n words are free: publishing first, since TAIL only moves over
 * what the engine was given. */
static enum pq_status wait_room(struct pq *q, uint32_t n)
{
    uint32_t polls = 0;

    if (q->ring_words - (q->head - q->tail) >= n)
        return PQ_OK;
    q->stats.full_waits++;
    pq_publish(q);
    for (;;) {
        uint32_t tail = rd(GMMU_PAGING_TAIL);

        if (tail != q->tail) {
            q->tail = tail;
            polls = 0;
            if (q->ring_words - (q->head - q->tail) >= n)
                return PQ_OK;
            continue;
        }
        if (stopped(q))
            return PQ_ERR_ENGINE;
        if (++polls > PQ_POLL_LIMIT) {
            q->stats.timeouts++;
            return PQ_ERR_TIMEOUT;
        }
    }
}

static void put_word(struct pq *q, uint32_t pos, uint64_t v)
{
    uint32_t at = GMMU_PAGING_QUEUE_OFFSET + 8u * (pos & (q->ring_words - 1));

    wr(at, (uint32_t)v);
    wr(at + 4, (uint32_t)(v >> 32));
}

enum pq_status pq_push(struct pq *q, const uint64_t *w, uint32_t n, const uint64_t *body,
                       uint32_t nbody)
{
    enum pq_status st;

    if (!q->present)
        return PQ_ERR_ABSENT;
    if (nbody > q->ring_words || n + nbody > q->ring_words)
        return PQ_ERR_TOO_BIG;
    st = wait_room(q, n + nbody);
    if (st != PQ_OK)
        return st;
    for (uint32_t i = 0; i < n; i++)
        put_word(q, q->head + i, w[i]);
    for (uint32_t i = 0; i < nbody; i++)
        put_word(q, q->head + n + i, body[i]);
    q->head += n + nbody;
    q->queued++;
    q->stats.packets++;
    q->stats.words += n + nbody;
    return PQ_OK;
}

enum pq_status pq_wait(struct pq *q, uint32_t packets)
{
    uint32_t polls = 0;

    if (!q->present)
        return PQ_ERR_ABSENT;
    pq_publish(q);
    q->stats.waits++;
    for (;;) {
        uint32_t done = rd(GMMU_PAGING_PACKETS_DONE);

        if (done != q->done) {
            q->done = done;
            polls = 0;
        }
        if ((int32_t)(q->done - packets) >= 0)
            return PQ_OK;
        if (stopped(q))
            return PQ_ERR_ENGINE;
        if (++polls > PQ_POLL_LIMIT) {
            q->stats.timeouts++;
            return PQ_ERR_TIMEOUT;
        }
    }
}

enum pq_status pq_sync(struct pq *q)
{
    return pq_wait(q, q->queued);
}

enum pq_status pq_probe_write(struct pq *q, uint64_t addr, uint32_t flags)
{
    uint64_t w[PQ_PACKET_WORDS_MAX];
    unsigned n = pq_enc_fence(w, addr, q->fence,
                              GMMU_PAGING_HDR_FENCE_WRITE | (flags & GMMU_PAGING_HDR_DST_SYS));
    enum pq_status st = pq_push(q, w, n, NULL, 0);

    if (st == PQ_OK)
        st = pq_sync(q);
    if (st != PQ_OK)
        pq_restart(q);
    return st;
}

enum pq_status pq_fence_wait(struct pq *q)
{
    uint64_t w[PQ_PACKET_WORDS_MAX];
    unsigned n = pq_enc_fence(w, 0, q->fence + 1, 0);
    enum pq_status st = pq_push(q, w, n, NULL, 0);

    if (st != PQ_OK)
        return st;
    q->fence++;
    return pq_sync(q);
}
