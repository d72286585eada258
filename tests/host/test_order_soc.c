// SPDX-License-Identifier: Apache-2.0
/*
 * Ordered paging and engine jobs, randomized, on the simulated SoC (issue
 * 30's main check): the four engines and the update queue run a random
 * graph of operations ordered only by fences, and every byte a job reads
 * is checked against a model that applies the operations in fence order.
 *
 * One address space holds ALLOCS allocations of one 64 KiB tile each
 * (mapped by MAP_VA: their "own" VA), a reserved range of TILES tiles
 * pointed at them by UPDATE_VA, and a witness buffer. Each round plans up
 * to ROUND_OPS operations:
 *   - jobs on random engines (ENGINE_SUBMIT): READ copies 1-4 blocks of
 *     4 KiB of a tile into the job's own witness slot (what the job saw);
 *     FILL_TILE and FILL_OWN write a pattern through a mapped tile or an
 *     allocation's own VA;
 *   - batches (UPDATE_SUBMIT) of 1-3 tile operations: MAP to a random
 *     allocation, UNMAP (invalid, or Zero pages), COPY of another tile.
 * Fences: G (the host's go, one value per round), E0..E3 (each engine's
 * jobs signal the next value of their engine's fence, in queue order) and
 * B (each batch signals the next value). Every operation waits for one
 * value of one of them, chosen at random among those that order it after
 * every earlier operation it conflicts with: jobs touching the same
 * allocation's blocks with one writing, a job using a tile that a batch
 * changes. A job after such a batch waits for B directly (the firmware
 * counts a job waiting for a batch's fence as ordered after it; any other
 * wait still needs the tile, and the batch would wait for the job).
 * Happens-before is tracked with vector clocks over the five queues; the
 * planned order is a linearization of it, so applying the plan in order
 * gives the one answer every run must give. Operations that conflict with
 * nothing stay unordered and run concurrently.
 *
 * Everything is submitted while G holds it; then plain UNMAP_VA, UPDATE_VA
 * and FREE over what queued jobs need must be BUSY (memory in use); then
 * one FENCE_SIGNAL releases the round, gmmu_fence_wait waits for each
 * queue's last fence, and the witness slots (every READ: a tile remapped
 * before the read in fence order shows the new allocation's bytes, one
 * remapped after shows the old; an invalid tile faults and copies
 * nothing), every allocation's bytes and every tile's translation
 * (QUERY_VA) are checked, with ENGINE_QUEUE and UPDATE_QUEUE counters. At
 * the end everything is freed and GET_VRAM is back to the start.
 *
 * Also the benchmark "a map's paging fence to a dependent job's start":
 * see test_paging_fence_to_job.
 *
 * Environment: GMMU_ORDER_SEED (default 1), GMMU_ORDER_OPS (default 64),
 * both printed.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmmu/engine_regs.h>
#include <gmmu/soc.h>

#include "soc_test_util.h"

#define KIB          1024ull
#define WAIT_MS      120000
#define OP_FILL      0u
#define OP_COPY      1u
#define OP_CHECKSUM  2u
#define STATUS_FAULT 0x4u

enum {
    TILES = 8,
    ALLOCS = 6,
    TILE = 64 * 1024,
    BLOCK = 4096,
    BLOCKS = TILE / BLOCK,
    SLOT_BLOCKS = 4,
    SLOTS = 24,
    ROUND_OPS = 16,
    ROUND_BATCHES = 6,
    ENGINE_JOBS = 7,
    DELAY_LEN = 512 * 1024, /* a CHECKSUM of Zero pages: about 65,000 cycles, touching no memory */
    QUEUES = GMMU_ENGINES + 1, /* the four engines, then the update queue */
    QB = GMMU_ENGINES,
};

enum { T_INVALID = -1, T_ZERO = -2 };
enum { READ, FILL_TILE, FILL_OWN, BATCH, DELAY };

static struct gmmu_dev *dev;
static uint64_t rng, seed0;
static unsigned total_ops = 64;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static unsigned below(unsigned n)
{
    return (unsigned)(rnd() % n);
}

/* ------------------------------------------------------------------ model */

struct model {
    uint64_t blk[ALLOCS][BLOCKS]; /* each 4 KiB block holds one word */
    uint64_t wit[SLOTS][SLOT_BLOCKS];
    int tile[TILES]; /* allocation index, T_INVALID or T_ZERO */
};

struct plan_op {
    int kind, queue, index; /* index: 1.. within its queue this round */
    int wait_q, wait_i;     /* wait_q -1: G */
    int vc[QUEUES];
    /* jobs */
    int tile, alloc, blk, nblk, slot; /* alloc: what the job touches (resolved) */
    uint64_t pattern;
    bool fault, zero;
    /* batches */
    int nops, dest[3];
    struct gmmu_update_op uops[3];
};

static struct model m;
static struct plan_op plan[ROUND_OPS];
static int nplan, count[QUEUES];

/* Device objects. */
static uint32_t as;
static uint32_t alloc_h[ALLOCS];
static uint64_t own_va[ALLOCS], alloc_pa[ALLOCS], rsv, wit_va, zero_va;
static uint32_t wit_alloc;
static uint32_t fence_g, fence_q[QUEUES];
static uint64_t base_q[QUEUES], round_no;

static struct {
    unsigned jobs, reads, faults, zeros, fills, batches, uops, busy, unordered, waits_b;
} stats;

#define CHECK(cond, ...)                                                                    \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "order-soc: round %" PRIu64 " of seed %" PRIu64 ": ", round_no, \
                    seed0);                                                                 \
            fprintf(stderr, __VA_ARGS__);                                                   \
            fprintf(stderr, "\n");                                                          \
            describe_plan();                                                                \
            fail_msg("round %" PRIu64 " of seed %" PRIu64 " (see above)", round_no, seed0); \
        }                                                                                   \
    } while (0)

static void describe_plan(void);

static void sums_add(uint64_t *s1, uint64_t *s2, uint64_t word, size_t words)
{
    for (size_t i = 0; i < words; i++) {
        *s1 += word;
        *s2 += *s1;
    }
}

static bool overlap(int b1, int n1, int b2, int n2)
{
    return b1 < b2 + n2 && b2 < b1 + n1;
}

static bool uses_tile(const struct plan_op *o)
{
    return o->kind == READ || o->kind == FILL_TILE;
}

static bool writes(const struct plan_op *o)
{
    return o->kind == FILL_TILE || o->kind == FILL_OWN;
}

/* Does p (earlier in the plan) conflict with the new job o?  *direct_b is
   raised to the batch index o must wait for on B directly. */
static bool conflicts(const struct plan_op *p, const struct plan_op *o, int *direct_b)
{
    if (p->kind == BATCH && o->kind == BATCH)
        return false; /* one queue, in order */
    if (p->kind == BATCH) {
        for (int k = 0; k < p->nops; k++)
            if (uses_tile(o) && p->dest[k] == o->tile) {
                if (p->index > *direct_b)
                    *direct_b = p->index;
                return true;
            }
        return false;
    }
    if (o->kind == BATCH) {
        for (int k = 0; k < o->nops; k++)
            if (uses_tile(p) && o->dest[k] == p->tile)
                return true;
        return false;
    }
    return p->alloc >= 0 && p->alloc == o->alloc && (writes(p) || writes(o)) &&
           overlap(p->blk, p->nblk, o->blk, o->nblk);
}

static void vc_of_wait(int q, int i, int *vc)
{
    memset(vc, 0, sizeof(int) * QUEUES);
    if (q < 0)
        return;
    for (int k = 0; k < nplan; k++)
        if (plan[k].queue == q && plan[k].index == i) {
            memcpy(vc, plan[k].vc, sizeof(int) * QUEUES);
            return;
        }
}

/* The new op's clock with wait (q, i); true if it covers need[]. */
static bool try_wait(struct plan_op *o, int q, int i, const int *need)
{
    int vc[QUEUES], prev[QUEUES];
    vc_of_wait(q, i, vc);
    vc_of_wait(o->queue, count[o->queue], prev);
    for (int k = 0; k < QUEUES; k++) {
        if (prev[k] > vc[k])
            vc[k] = prev[k];
        if (vc[k] < need[k])
            return false;
    }
    vc[o->queue] = o->index;
    memcpy(o->vc, vc, sizeof vc);
    o->wait_q = q;
    o->wait_i = i;
    return true;
}

/* Chooses o's wait; false if none orders it after what it conflicts with. */
static bool choose_wait(struct plan_op *o)
{
    int need[QUEUES] = { 0 }, direct_b = 0;
    for (int k = 0; k < nplan; k++)
        if (conflicts(&plan[k], o, &direct_b) && plan[k].index > need[plan[k].queue])
            need[plan[k].queue] = plan[k].index;
    if (direct_b) {
        int i = direct_b + (int)below((unsigned)(count[QB] - direct_b + 1));
        for (int t = 0; t <= count[QB] - direct_b; t++, i = i < count[QB] ? i + 1 : direct_b)
            if (try_wait(o, QB, i, need))
                return true;
        return false;
    }
    /* Half the time the newest op first (chains), then random candidates
       (G, or any earlier op), then each queue's last op (the most
       ordering). */
    if (nplan && below(2) && try_wait(o, plan[nplan - 1].queue, plan[nplan - 1].index, need))
        return true;
    /* A batch after the newest fill: what it maps then shows that fill. */
    for (int k = nplan - 1; o->kind == BATCH && k >= 0; k--)
        if (writes(&plan[k])) {
            if (below(2) && try_wait(o, plan[k].queue, plan[k].index, need))
                return true;
            break;
        }
    for (int t = 0; t < 12; t++) {
        if (!nplan || below(4) == 0) {
            if (try_wait(o, -1, 0, need))
                return true;
            continue;
        }
        const struct plan_op *p = &plan[below((unsigned)nplan)];
        if (try_wait(o, p->queue, p->index, need))
            return true;
    }
    for (int q = 0; q < QUEUES; q++)
        if (count[q] && try_wait(o, q, count[q], need))
            return true;
    return false;
}

static int resolve(int tile)
{
    return m.tile[tile];
}

/* Biases toward what ordering can get wrong: an allocation the newest
   fill of the round wrote (a batch maps a tile to it), a tile a batch of
   the round changed (a job reads it), an allocation a tile shows. */
static int recent_fill(void)
{
    for (int k = nplan - 1; k >= 0; k--)
        if (writes(&plan[k]) && plan[k].alloc >= 0)
            return plan[k].alloc;
    return (int)below(ALLOCS);
}

static int changed_tile(void)
{
    for (int k = nplan - 1; k >= 0; k--)
        if (plan[k].kind == BATCH)
            return plan[k].dest[below((unsigned)plan[k].nops)];
    return (int)below(TILES);
}

/* Plans one random op into plan[nplan] and applies it to the model. */
static bool plan_one(void)
{
    struct plan_op o;
    memset(&o, 0, sizeof o);
    if (!nplan) {
        /* A slow first job that later ones often chain behind, so that the
           host submits the rest while it runs: work let through early
           (out of fence order) runs before what should precede it. */
        o.kind = DELAY;
        o.queue = (int)below(GMMU_ENGINES);
        o.index = 1;
        o.tile = o.alloc = -1;
        o.wait_q = -1;
        o.vc[o.queue] = 1;
        count[o.queue]++;
        plan[nplan++] = o;
        return true;
    }
    unsigned r = below(10);
    if (r < 3 && count[QB] < ROUND_BATCHES) {
        o.kind = BATCH;
        o.queue = QB;
        o.nops = 1 + (int)below(3);
        int tiles[TILES]; /* a scratch model of the tiles through the batch */
        memcpy(tiles, m.tile, sizeof tiles);
        for (int k = 0; k < o.nops; k++) {
            int t = (int)below(TILES);
            struct gmmu_update_op *u = &o.uops[k];
            u->va = rsv + (uint64_t)t * TILE;
            u->size = TILE;
            o.dest[k] = t;
            unsigned what = below(7);
            if (what < 3) {
                int a = below(3) ? recent_fill() : (int)below(ALLOCS);
                u->op = GMMU_UPDATE_OP_MAP;
                u->alloc_handle = alloc_h[a];
                tiles[t] = a;
            } else if (what < 5) {
                u->op = GMMU_UPDATE_OP_UNMAP;
                u->flags = below(2) ? GMMU_MAP_FLAG_ZERO : 0;
                tiles[t] = u->flags ? T_ZERO : T_INVALID;
            } else {
                int s = (int)below(TILES);
                if (s == t)
                    s = (s + 1) % TILES;
                u->op = GMMU_UPDATE_OP_COPY;
                u->arg = rsv + (uint64_t)s * TILE;
                tiles[t] = tiles[s];
            }
        }
        o.index = count[QB] + 1;
        if (!choose_wait(&o))
            return false;
        memcpy(m.tile, tiles, sizeof tiles);
        stats.batches++;
        stats.uops += (unsigned)o.nops;
    } else {
        int e = (int)below(GMMU_ENGINES);
        if (count[e] >= ENGINE_JOBS)
            return false;
        o.queue = e;
        o.index = count[e] + 1;
        r = below(10);
        o.kind = r < 5 ? READ : r < 8 ? FILL_TILE : FILL_OWN;
        o.nblk = 1 + (int)below(SLOT_BLOCKS);
        o.blk = (int)below((unsigned)(BLOCKS - o.nblk + 1));
        o.pattern = rnd();
        if (o.kind == READ) {
            o.slot = -1;
            for (int s = 0; s < SLOTS; s++) {
                bool used = false;
                for (int k = 0; k < nplan; k++)
                    used |= plan[k].kind == READ && plan[k].slot == s;
                if (!used) {
                    o.slot = s;
                    break;
                }
            }
            if (o.slot < 0)
                return false;
        }
        if (o.kind == FILL_OWN) {
            o.tile = -1;
            o.alloc = (int)below(ALLOCS);
            int shown = m.tile[below(TILES)];
            if (below(2) && shown >= 0)
                o.alloc = shown;
        } else {
            o.tile = below(2) ? changed_tile() : (int)below(TILES);
            for (int t = 0; o.kind == READ && below(3) == 0 && t < TILES; t++)
                if (m.tile[t] < 0) { /* an unmapped tile: faults, or reads zeros */
                    o.tile = t;
                    break;
                }
            o.alloc = resolve(o.tile);
            if (o.kind == FILL_TILE && o.alloc < 0)
                return false; /* writes only through mapped tiles */
            /* A read half the time where the newest fill of its allocation
               wrote: what it shows depends on that fill's order. */
            for (int k = nplan - 1; o.kind == READ && o.alloc >= 0 && k >= 0; k--)
                if (writes(&plan[k]) && plan[k].alloc == o.alloc) {
                    if (below(2)) {
                        o.blk = plan[k].blk;
                        o.nblk = plan[k].nblk;
                    }
                    break;
                }
        }
        if (!choose_wait(&o))
            return false;
        if (o.kind == READ) {
            for (int b = 0; b < o.nblk; b++) {
                if (o.alloc >= 0)
                    m.wit[o.slot][b] = m.blk[o.alloc][o.blk + b];
                else if (o.alloc == T_ZERO)
                    m.wit[o.slot][b] = 0;
            }
            o.fault = o.alloc == T_INVALID;
            o.zero = o.alloc == T_ZERO;
            stats.reads++;
            stats.faults += o.fault;
            stats.zeros += o.zero;
        } else {
            for (int b = 0; b < o.nblk; b++)
                m.blk[o.alloc][o.blk + b] = o.pattern;
            stats.fills++;
        }
        stats.jobs++;
    }
    if (o.wait_q == QB)
        stats.waits_b++;
    count[o.queue]++;
    plan[nplan++] = o;
    return true;
}

/* ---------------------------------------------------------------- device */

static uint32_t new_fence(void)
{
    struct gmmu_fence_info fi;
    assert_int_equal(gmmu_fence_create(dev, 0, &fi), 0);
    return fi.handle;
}

static void wait_fence(uint32_t handle, uint64_t value)
{
    int rc = gmmu_fence_wait(dev, handle, value, WAIT_MS);
    CHECK(!rc, "fence %08x to %" PRIu64 ": %s", handle, value, gmmu_strerror(rc));
}

static struct gmmu_engine_queue_rsp queue_of(uint32_t engine)
{
    struct gmmu_engine_queue_rsp q;
    assert_int_equal(gmmu_engine_queue(dev, engine, &q), 0);
    return q;
}

static struct gmmu_update_queue_rsp update_state(void)
{
    struct gmmu_update_queue_rsp q;
    assert_int_equal(gmmu_update_queue(dev, &q), 0);
    return q;
}

static void wait_of(const struct plan_op *o, uint32_t *h, uint64_t *v)
{
    if (o->wait_q < 0) {
        *h = fence_g;
        *v = round_no;
    } else {
        *h = fence_q[o->wait_q];
        *v = base_q[o->wait_q] + (uint64_t)o->wait_i;
    }
}

static void submit(const struct plan_op *o)
{
    uint32_t wh;
    uint64_t wv;
    wait_of(o, &wh, &wv);
    int rc;
    if (o->kind == BATCH) {
        struct gmmu_update_submit_req rq = { .as_handle = as,
                                             .wait_handle = wh,
                                             .wait_value = wv,
                                             .signal_handle = fence_q[QB],
                                             .signal_value = base_q[QB] + (uint64_t)o->index };
        rc = gmmu_update_submit(dev, &rq, o->uops, (size_t)o->nops, NULL);
        CHECK(!rc, "UPDATE_SUBMIT: %s", gmmu_strerror(rc));
        return;
    }
    uint64_t tva = o->tile >= 0 ? rsv + (uint64_t)o->tile * TILE : own_va[o->alloc];
    tva += (uint64_t)o->blk * BLOCK;
    struct gmmu_engine_submit_req rq = { .engine = (uint32_t)o->queue,
                                         .as_handle = as,
                                         .length = (uint32_t)(o->nblk * BLOCK),
                                         .wait_handle = wh,
                                         .wait_value = wv,
                                         .signal_handle = fence_q[o->queue],
                                         .signal_value = base_q[o->queue] + (uint64_t)o->index };
    if (o->kind == DELAY) {
        rq.op = OP_CHECKSUM;
        rq.src_va = zero_va;
        rq.length = DELAY_LEN;
    } else if (o->kind == READ) {
        rq.op = OP_COPY;
        rq.src_va = tva;
        rq.dst_va = wit_va + (uint64_t)o->slot * SLOT_BLOCKS * BLOCK;
    } else {
        rq.op = OP_FILL;
        rq.dst_va = tva;
        rq.pattern = o->pattern;
    }
    rc = gmmu_engine_submit(dev, &rq, NULL);
    CHECK(!rc, "ENGINE_SUBMIT: %s", gmmu_strerror(rc));
}

/* ENGINE_RUN CHECKSUM of [va, va + len) against the words of `blocks`. */
static void expect_blocks(uint64_t va, const uint64_t *words, int blocks, const char *what, int i)
{
    uint64_t s1 = 0, s2 = 0;
    for (int b = 0; b < blocks; b++)
        sums_add(&s1, &s2, words[b], BLOCK / 8);
    struct gmmu_engine_rsp r =
        soc_engine_run(dev, 0, OP_CHECKSUM, as, 0, va, (uint32_t)(blocks * BLOCK), 0);
    CHECK(!(r.engine_status & STATUS_FAULT), "checksum of %s %d faulted", what, i);
    if (r.result == s1 && r.result2 == s2)
        return;
    /* Which block: one at a time. */
    for (int b = 0; b < blocks; b++) {
        r = soc_engine_run(dev, 0, OP_CHECKSUM, as, 0, va + (uint64_t)b * BLOCK, BLOCK, 0);
        uint64_t t1 = 0, t2 = 0;
        sums_add(&t1, &t2, words[b], BLOCK / 8);
        if (r.result != t1 || r.result2 != t2) {
            CHECK(0, "%s %d block %d: sums %" PRIx64 " %" PRIx64 ", model word %016" PRIx64, what,
                  i, b, r.result, r.result2, words[b]);
        }
    }
    CHECK(0, "%s %d: sums differ but no block does", what, i);
}

static void describe_plan(void)
{
    for (int k = 0; k < nplan; k++) {
        const struct plan_op *o = &plan[k];
        fprintf(stderr, "  #%d %s q%d.%d waits %s%d.%d", k,
                o->kind == READ        ? "READ "
                : o->kind == FILL_TILE ? "FILLT"
                : o->kind == FILL_OWN  ? "FILLO"
                : o->kind == DELAY     ? "DELAY"
                                       : "BATCH",
                o->queue, o->index, o->wait_q < 0 ? "G" : "q", o->wait_q, o->wait_i);
        if (o->kind == BATCH) {
            for (int i = 0; i < o->nops; i++)
                fprintf(stderr, " [%s t%d%s]",
                        o->uops[i].op == GMMU_UPDATE_OP_MAP     ? "MAP"
                        : o->uops[i].op == GMMU_UPDATE_OP_UNMAP ? "UNMAP"
                                                                : "COPY",
                        o->dest[i],
                        o->uops[i].op == GMMU_UPDATE_OP_UNMAP && o->uops[i].flags ? " zero" : "");
        } else {
            fprintf(stderr, " tile %d alloc %d blocks %d+%d", o->tile, o->alloc, o->blk, o->nblk);
            if (o->kind == READ)
                fprintf(stderr, " -> slot %d", o->slot);
        }
        fprintf(stderr, "\n");
    }
}

/* Plain commands over what queued jobs need: BUSY, nothing changed. */
static void probe_busy(int submitted)
{
    for (int t = 0; t < 2; t++) {
        const struct plan_op *o = &plan[below((unsigned)submitted)];
        if (o->kind == BATCH || o->kind == DELAY)
            continue;
        int rc;
        if (o->tile >= 0) {
            struct gmmu_update_op u = { .op = GMMU_UPDATE_OP_UNMAP,
                                        .va = rsv + (uint64_t)o->tile * TILE,
                                        .size = TILE };
            rc = gmmu_update_va(dev, as, &u, 1);
            CHECK(rc == GMMU_STATUS_BUSY, "UPDATE_VA UNMAP of tile %d under a queued job: %s",
                  o->tile, gmmu_strerror(rc));
        } else if (below(2)) {
            rc = gmmu_unmap_va_flags(dev, as, own_va[o->alloc], TILE, 0, NULL);
            CHECK(rc == GMMU_STATUS_BUSY, "UNMAP_VA of allocation %d under a queued job: %s",
                  o->alloc, gmmu_strerror(rc));
        } else {
            rc = gmmu_free(dev, alloc_h[o->alloc]);
            CHECK(rc == GMMU_STATUS_BUSY, "FREE of allocation %d under a queued job: %s", o->alloc,
                  gmmu_strerror(rc));
        }
        stats.busy++;
    }
}

static void run_round(unsigned ops)
{
    round_no++;
    nplan = 0;
    memset(count, 0, sizeof count);
    for (unsigned tries = 0; (unsigned)nplan < ops && tries < ops * 8; tries++)
        plan_one();
    for (int i = 0; i < nplan; i++)
        for (int j = i + 1; j < nplan; j++)
            if (plan[i].queue != QB && plan[j].queue != QB && plan[i].queue != plan[j].queue &&
                plan[j].vc[plan[i].queue] < plan[i].index)
                stats.unordered++;
    if (getenv("GMMU_ORDER_VERBOSE"))
        describe_plan();

    uint32_t finished[GMMU_ENGINES];
    for (uint32_t e = 0; e < GMMU_ENGINES; e++)
        finished[e] = queue_of(e).finished;
    struct gmmu_update_queue_rsp uq0 = update_state();

    /* The host releases the round (G) after submitting all of it, or half
       the time at a random point of its submission, and then goes on
       submitting while the engines and the update queue run what it
       submitted. Before G, nothing may start. */
    int release = below(2) ? nplan : (int)below((unsigned)nplan + 1), held[QUEUES] = { 0 };
    for (int k = 0; k < release; k++) {
        submit(&plan[k]);
        held[plan[k].queue]++;
    }
    for (uint32_t e = 0; e < GMMU_ENGINES; e++) {
        struct gmmu_engine_queue_rsp q = queue_of(e);
        CHECK(q.queued == (uint32_t)held[e] && !q.running,
              "engine %u before the go: %u queued, running %u (%d submitted)", e, q.queued,
              q.running, held[e]);
    }
    CHECK(update_state().queued == (uint32_t)held[QB], "batches queued before the go");
    if (release)
        probe_busy(release);
    assert_int_equal(gmmu_fence_signal(dev, fence_g, round_no, NULL), 0);
    for (int k = release; k < nplan; k++)
        submit(&plan[k]);
    for (int q = 0; q < QUEUES; q++)
        if (count[q])
            wait_fence(fence_q[q], base_q[q] + (uint64_t)count[q]);

    /* Queues drained, counters. */
    for (uint32_t e = 0; e < GMMU_ENGINES; e++) {
        struct gmmu_engine_queue_rsp q = queue_of(e);
        CHECK(q.queued == 0 && q.finished == finished[e] + (uint32_t)count[e],
              "engine %u: %u queued, %u finished (%u before, %d jobs)", e, q.queued, q.finished,
              finished[e], count[e]);
        if (!count[e])
            continue;
        const struct plan_op *last = NULL;
        for (int k = 0; k < nplan; k++)
            if (plan[k].queue == (int)e)
                last = &plan[k];
        CHECK(q.last_status == GMMU_STATUS_OK, "engine %u last status %u", e, q.last_status);
        CHECK(!!(q.engine_status & STATUS_FAULT) == last->fault,
              "engine %u's last job: engine_status %#x, the model says %s", e, q.engine_status,
              last->fault ? "fault" : "no fault");
    }
    struct gmmu_update_queue_rsp uq = update_state();
    CHECK(uq.queued == 0 && uq.applied == uq0.applied + (uint32_t)count[QB] &&
              uq.failed == uq0.failed,
          "update queue: %u queued, %u applied (%u before), %u failed", uq.queued, uq.applied,
          uq0.applied, uq.failed);
    if (count[QB])
        CHECK(uq.last_status == GMMU_STATUS_OK, "last batch %u", uq.last_status);

    /* What each READ saw, every allocation's bytes, every tile. */
    for (int k = 0; k < nplan; k++)
        if (plan[k].kind == READ)
            expect_blocks(wit_va + (uint64_t)plan[k].slot * SLOT_BLOCKS * BLOCK,
                          m.wit[plan[k].slot], plan[k].nblk, "read #", k);
    for (int a = 0; a < ALLOCS; a++)
        expect_blocks(own_va[a], m.blk[a], BLOCKS, "allocation", a);
    for (int t = 0; t < TILES; t++) {
        struct gmmu_query_rsp qr;
        assert_int_equal(gmmu_query_va(dev, as, rsv + (uint64_t)t * TILE, &qr), 0);
        int want = m.tile[t];
        CHECK(qr.state == (want >= 0        ? 2u
                           : want == T_ZERO ? 1u
                                            : 0u) &&
                  (want < 0 || qr.pa == alloc_pa[want]),
              "tile %d: state %u pa %" PRIx64 ", model %d", t, qr.state, qr.pa, want);
    }
    for (int q = 0; q < QUEUES; q++)
        base_q[q] += (uint64_t)count[q];
}

static uint64_t uptime(void)
{
    struct gmmu_stats s;
    assert_int_equal(gmmu_get_stats(dev, &s), 0);
    return s.uptime_cycles;
}

static void test_random_order(void **state)
{
    (void)state;
    struct gmmu_vram_rsp v0, v1;
    assert_int_equal(gmmu_get_vram(dev, &v0), 0);
    uint64_t c0 = uptime();
    uint32_t asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    for (int a = 0; a < ALLOCS; a++) {
        struct soc_buffer b = soc_make_buffer(dev, as, TILE, 0, 0, 0);
        alloc_h[a] = b.alloc;
        own_va[a] = b.va;
        struct gmmu_query_rsp qr;
        assert_int_equal(gmmu_query_va(dev, as, b.va, &qr), 0);
        alloc_pa[a] = qr.pa;
        uint64_t word = 0xA110C00000000000ull | (uint64_t)a << 32 | (uint32_t)rnd();
        struct gmmu_engine_rsp r = soc_engine_run(dev, 1, OP_FILL, as, b.va, 0, TILE, word);
        assert_int_equal(r.engine_status & STATUS_FAULT, 0);
        for (int k = 0; k < BLOCKS; k++)
            m.blk[a][k] = word;
    }
    struct soc_buffer w = soc_make_buffer(dev, as, SLOTS * SLOT_BLOCKS * BLOCK, 0, 0, 0);
    wit_alloc = w.alloc;
    wit_va = w.va;
    uint64_t wword = 0x3717E55000000000ull | (uint32_t)rnd();
    assert_int_equal(
        soc_engine_run(dev, 2, OP_FILL, as, wit_va, 0, SLOTS * SLOT_BLOCKS * BLOCK, wword)
                .engine_status &
            STATUS_FAULT,
        0);
    for (int s = 0; s < SLOTS; s++)
        for (int k = 0; k < SLOT_BLOCKS; k++)
            m.wit[s][k] = wword;
    assert_int_equal(gmmu_reserve_va(dev, as, 0, 0, TILES * TILE, &rsv), 0);
    struct gmmu_update_op init[TILES];
    for (int t = 0; t < TILES; t++) {
        m.tile[t] = t % ALLOCS;
        init[t] = (struct gmmu_update_op){ .op = GMMU_UPDATE_OP_MAP,
                                           .va = rsv + (uint64_t)t * TILE,
                                           .size = TILE,
                                           .alloc_handle = alloc_h[t % ALLOCS] };
    }
    assert_int_equal(gmmu_update_va(dev, as, init, TILES), 0);
    assert_int_equal(gmmu_reserve_va(dev, as, 0, 0, DELAY_LEN, &zero_va), 0);
    struct gmmu_update_op zero = {
        .op = GMMU_UPDATE_OP_UNMAP, .flags = GMMU_MAP_FLAG_ZERO, .va = zero_va, .size = DELAY_LEN
    };
    assert_int_equal(gmmu_update_va(dev, as, &zero, 1), 0);
    fence_g = new_fence();
    for (int q = 0; q < QUEUES; q++)
        fence_q[q] = new_fence();

    unsigned done = 0;
    while (done < total_ops) {
        unsigned n = total_ops - done < ROUND_OPS ? total_ops - done : ROUND_OPS;
        run_round(n);
        done += (unsigned)nplan ? (unsigned)nplan : 1;
    }
    uint64_t c1 = uptime();
    printf("order-soc: %" PRIu64 " rounds: %u jobs (%u reads, %u of an invalid tile faulting, %u "
           "of Zero pages; %u fills), %u batches of %u tile operations, %u job waits on a "
           "batch's fence, %u pairs of jobs on different engines left unordered, %u BUSY "
           "probes; %" PRIu64 " simulated cycles\n",
           round_no, stats.jobs, stats.reads, stats.faults, stats.zeros, stats.fills, stats.batches,
           stats.uops, stats.waits_b, stats.unordered, stats.busy, c1 - c0);

    assert_int_equal(gmmu_fence_destroy(dev, fence_g), 0);
    for (int q = 0; q < QUEUES; q++)
        assert_int_equal(gmmu_fence_destroy(dev, fence_q[q]), 0);
    for (int a = 0; a < ALLOCS; a++)
        assert_int_equal(gmmu_free(dev, alloc_h[a]), 0);
    assert_int_equal(gmmu_free(dev, wit_alloc), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_get_vram(dev, &v1), 0);
    CHECK(v1.free_bytes == v0.free_bytes && v1.allocations == v0.allocations &&
              v1.address_spaces == v0.address_spaces && v1.tables == v0.tables,
          "GET_VRAM: free %" PRIu64 " (%" PRIu64 " at the start), %u allocations (%u), %u "
          "spaces (%u), %u tables (%u)",
          v1.free_bytes, v0.free_bytes, v1.allocations, v0.allocations, v1.address_spaces,
          v0.address_spaces, v1.tables, v0.tables);
}

int main(void)
{
    const char *s = getenv("GMMU_ORDER_SEED"), *o = getenv("GMMU_ORDER_OPS");
    seed0 = s ? strtoull(s, NULL, 0) : 1;
    if (o)
        total_ops = (unsigned)strtoul(o, NULL, 0);
    rng = seed0 * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (!rng)
        rng = 1;
    printf("order-soc: seed %" PRIu64 " (GMMU_ORDER_SEED), %u ops (GMMU_ORDER_OPS)\n", seed0,
           total_ops);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_order),
    };
    return soc_run_tests(tests, &dev);
}
