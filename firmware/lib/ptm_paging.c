// SPDX-License-Identifier: Apache-2.0
#include "ptm_paging.h"

void ptm_paging_init(struct ptm_paging *p, struct pq *q,
                     uint64_t (*read64)(void *ctx, uint64_t vram_offset),
                     void (*cache_drop)(void *ctx), void *ctx, uint64_t va_limit)
{
    *p = (struct ptm_paging){
        .q = q,
        .read64 = read64,
        .cache_drop = cache_drop,
        .ctx = ctx,
        .va_limit = va_limit,
    };
}

/* ------------------------------------------------------------ the record */

static void note(struct ptm_paging *p, uint64_t lo, uint64_t hi)
{
    for (uint32_t i = 0; i < p->n_ranges; i++) {
        /* Touching or overlapping: grow that range (tables are written in
         * ascending runs, so most writes extend the last one). */
        if (lo <= p->hi[i] && hi >= p->lo[i]) {
            p->lo[i] = lo < p->lo[i] ? lo : p->lo[i];
            p->hi[i] = hi > p->hi[i] ? hi : p->hi[i];
            return;
        }
    }
    if (p->n_ranges == PTM_PAGING_RANGES) {
        p->all = true;
        return;
    }
    p->lo[p->n_ranges] = lo;
    p->hi[p->n_ranges] = hi;
    p->n_ranges++;
}

/* Does [lo, hi) meet a range the engine may have written? */
static bool stale(const struct ptm_paging *p, uint64_t lo, uint64_t hi)
{
    if (p->all)
        return true;
    for (uint32_t i = 0; i < p->n_ranges; i++)
        if (lo < p->hi[i] && p->lo[i] < hi)
            return true;
    return false;
}

/* An engine error: remember it for complete, and restart the engine so
 * the firmware can go on (the packets not completed are dropped). */
static void fail(struct ptm_paging *p)
{
    if (!p->failed) {
        p->stats.failures++;
        p->stats.last_err_code = p->q->err_code;
    }
    p->failed = true;
    pq_restart(p->q);
}

static uint32_t clock_now(const struct ptm_paging *p)
{
    return p->now ? p->now() : 0;
}

/* Everything queued is in VRAM and the CPU holds no older copy of it. */
static void sync(struct ptm_paging *p)
{
    uint32_t t0 = clock_now(p);

    p->stats.syncs++;
    if (pq_sync(p->q) != PQ_OK)
        fail(p);
    p->stats.wait_cycles += clock_now(p) - t0;
    if (p->cache_drop)
        p->cache_drop(p->ctx);
    p->n_ranges = 0;
    p->all = false;
}

/* ------------------------------------------------------------ hooks */

void ptm_paging_read_range(struct ptm_paging *p, uint64_t lo, uint64_t hi)
{
    if ((p->n_ranges || p->all) && stale(p, lo, hi))
        sync(p);
}

uint64_t ptm_paging_read64(void *ctx, uint64_t off)
{
    struct ptm_paging *p = ctx;

    ptm_paging_read_range(p, off, off + 8);
    return p->failed ? 0 : p->read64(p->ctx, off); /* ptm_hw.failed */
}

void ptm_paging_read_run(void *ctx, uint64_t off, uint64_t *words, size_t n)
{
    struct ptm_paging *p = ctx;

    ptm_paging_read_range(p, off, off + 8 * (uint64_t)n);
    for (size_t i = 0; i < n; i++)
        words[i] = p->failed ? 0 : p->read64(p->ctx, off + 8 * i);
}

static void push(struct ptm_paging *p, const uint64_t *w, unsigned n, const uint64_t *body,
                 uint32_t nbody)
{
    if (p->failed)
        return; /* the command fails anyway; complete reports it */
    if (pq_push(p->q, w, n, body, nbody) != PQ_OK) {
        fail(p);
        return;
    }
    /* Published at once: the engine runs it while the CPU goes on with
       the command (one register write). */
    pq_publish(p->q);
}

void ptm_paging_write_run(void *ctx, uint64_t off, const uint64_t *words, size_t n)
{
    struct ptm_paging *p = ctx;
    /* A literal packet holds at most the ring less its two words. */
    size_t most = p->q->ring_words - 2;

    for (size_t done = 0; done < n;) {
        uint64_t w[PQ_PACKET_WORDS_MAX];
        uint32_t k = (uint32_t)(n - done < most ? n - done : most);
        unsigned hn = pq_enc_write_literal(w, off + 8 * done, k);

        push(p, w, hn, words + done, k);
        note(p, off + 8 * done, off + 8 * (done + k));
        done += k;
    }
    p->stats.entries += (uint32_t)n;
}

void ptm_paging_write64(void *ctx, uint64_t off, uint64_t value)
{
    ptm_paging_write_run(ctx, off, &value, 1);
}

void ptm_paging_write_pattern(void *ctx, uint64_t off, uint64_t first, uint64_t step, size_t n)
{
    struct ptm_paging *p = ctx;
    uint64_t w[PQ_PACKET_WORDS_MAX];
    unsigned hn;

    if (!n)
        return;
    if (step == 0)
        hn = pq_enc_fill(w, off, first, (uint32_t)n);
    else
        hn = pq_enc_write_run(w, off, first, step, (uint32_t)n);
    push(p, w, hn, NULL, 0);
    note(p, off, off + 8 * (uint64_t)n);
    p->stats.entries += (uint32_t)n;
}

void ptm_paging_flush(void *ctx, uint32_t asid, uint64_t start, uint64_t end)
{
    struct ptm_paging *p = ctx;
    uint64_t w[PQ_PACKET_WORDS_MAX];
    unsigned n;

    if (start == 0 && end >= p->va_limit)
        n = pq_enc_flush(w, GMMU_PAGING_FLUSH_ASID, asid, 0, 0);
    else
        n = pq_enc_flush(w, GMMU_PAGING_FLUSH_RANGE, asid, start, end - 1);
    push(p, w, n, NULL, 0);
    p->stats.flushes++;
}

void ptm_paging_wait(struct ptm_paging *p)
{
    if (!p->failed && pq_busy(p->q)) {
        uint32_t t0 = clock_now(p);

        p->stats.fences++;
        if (pq_fence_wait(p->q) != PQ_OK)
            fail(p);
        p->stats.wait_cycles += clock_now(p) - t0;
    }
}

bool ptm_paging_complete(void *ctx)
{
    struct ptm_paging *p = ctx;
    bool ok;

    ptm_paging_wait(p);
    ok = !p->failed;
    p->failed = false;
    return ok;
}

const struct ptm_hw ptm_paging_hw = {
    .read64 = ptm_paging_read64,
    .read_run = ptm_paging_read_run,
    .write64 = ptm_paging_write64,
    .write_run = ptm_paging_write_run,
    .write_pattern = ptm_paging_write_pattern,
    .invalidate = ptm_paging_flush,
    .complete = ptm_paging_complete,
    .failed = ptm_paging_failed,
};
