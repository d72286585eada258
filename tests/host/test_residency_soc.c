// SPDX-License-Identifier: Apache-2.0
/*
 * Residency on the simulated SoC, randomized (issue 28): a small VRAM
 * segment (the simulator runs with a small --ddr-size-mb) over-committed
 * at least twice into a backing pool of this process's memory (ADD_BACKING
 * of gmmu_sysmem_alloc buffers), under random ALLOC (VRAM only, VRAM
 * preferred, system only, contiguous), FREE, MAP_VA, UNMAP_VA, UPDATE_VA
 * tiles into allocations, MAKE_RESIDENT and EVICT, with GPU engine fills,
 * copies and checksums through the VAs.
 *
 * The model kept here knows, for each allocation, its placement, residency
 * count, state (VRAM, BACKING, OFFLINE), LRU order, tile references and
 * bytes (a whole fill when it was created, then every fill and copy); for
 * each mapping and tile its VA and what it maps. Checked:
 *
 *   - the paging fence each command answers (MAP_VA, UNMAP_VA, UPDATE_VA,
 *     MAKE_RESIDENT) counts its moves; only a VRAM-only ALLOC and
 *     MAKE_RESIDENT move, and GET_VRAM every few operations shows no move
 *     went unseen;
 *   - after a move, QUERY_ALLOC of every allocation that could have moved:
 *     as many changes as moves, each one the rules allow (out only of an
 *     evictable one the command did not list, in only of a listed one;
 *     VRAM only never BACKING, VRAM preferred never OFFLINE), counts as
 *     the model's; then QUERY_VA of each mapping and tile of the moved
 *     ones; GET_VRAM's resident, evictable and pool bytes as the model's;
 *   - refusals where the rules decide them: NO_MEMORY with nothing moved
 *     exactly when evicting least recently used first cannot make room
 *     (VRAM-only ALLOC, MAKE_RESIDENT of OFFLINE ones); an ALLOC that may
 *     use the pool refused only when the pool is short; a tile MAP of an
 *     OFFLINE allocation refused.
 *
 * Engine checksums must equal the model's (docs/engine.md); a fill, copy
 * or checksum touching an OFFLINE allocation must fault (INVALID, at its
 * first chunk, nothing written) and post its fault event. QUERY_VA, after
 * moves and at random: the same VA maps the same bytes (the PA of the
 * allocation's primary mapping at that offset, QUERY_ALLOC's first piece
 * at offset 0), segment 1 in VRAM, 0 in the pool, invalid while OFFLINE,
 * the mapping's attributes kept. At the end everything is freed and
 * GET_VRAM (free, pool, resident, tables) and GET_SEGMENTS are back where
 * they started.
 *
 * Options (or environment): --seed N (GMMU_RES_SEED), --ops N
 * (GMMU_RES_OPS).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gmmu/engine_regs.h>
#include <gmmu/pte.h>

#include "soc_test_util.h"

static uint64_t rng = 1;
#include "../unit/test_rng.h"

#define KIB   UINT64_C(1024)
#define MIB   (1024 * KIB)
#define TILE  (64 * KIB)
#define PAGE  (4 * KIB)
#define CHUNK 64u

enum {
    NAS = 2,       /* address spaces */
    NTILES = 16,   /* tiles of each reserved range */
    MAX_A = 128,   /* allocations the model tracks */
    MAX_M = 160,   /* mappings (the firmware has 192 records) */
    MAX_EXTRA = 2, /* mappings beside the primary one, per allocation */
    MAX_XFER = 64 * 1024,
    FW_EXTENTS = 256, /* VIDMM_MAX_EXTENTS */
    FW_PIECES = 32    /* VIDMM_ALLOC_EXTENTS */
};
#define RATIO_LOW  2.05 /* live bytes / VRAM segment, never below after set-up */
#define RATIO_HIGH 2.5

enum {
    ST_VRAM = GMMU_ALLOC_STATE_VRAM,
    ST_BACKING = GMMU_ALLOC_STATE_BACKING,
    ST_OFFLINE = GMMU_ALLOC_STATE_OFFLINE
};

struct alloc_m {
    bool live;
    uint32_t h;
    uint32_t flags;
    uint64_t size;
    unsigned count; /* residency */
    unsigned state;
    unsigned extents;
    uint64_t stamp; /* LRU: ALLOC, MAKE_RESIDENT, EVICT */
    unsigned tiled; /* bit per reserved range holding a tile reference */
    int prim;       /* its mapping of [0, size) */
    unsigned extra; /* its other mappings */
    uint64_t *w;    /* its bytes, as 64-bit words */
};

struct map_m {
    bool live;
    unsigned as, a;
    uint64_t va, off, size;
    uint32_t flags, pages;
};

struct tile_m {
    int a; /* -1: invalid */
    uint64_t off;
    uint32_t flags;
};

struct range_m {
    uint64_t va;
    struct tile_m t[NTILES];
};

static struct gmmu_dev *dev;
static uint32_t as_h[NAS];
static struct range_m R[NAS];
static struct alloc_m A[MAX_A];
static struct map_m M[MAX_M];
static struct gmmu_vram_rsp v0, vcur;
static uint64_t seg_bytes, pool_bus[2], pool_len[2], seed0, lru_clock;
static uint64_t fence_now; /* the device's paging fence as the model knows it */
static unsigned op_no, nops = 80;
static const char *phase = "set-up step";
static bool pre_evictable[MAX_A];

static struct {
    unsigned alloc[4], alloc_nomem[4], frees, maps, map_nomem, unmaps, updates, update_nomem,
        update_offline, make_resident, mr_nomem, evicts, fills, sums, copies, queries, faults,
        moves_out, moves_in, rereserve;
    double ratio_min, ratio_max;
} S = { .ratio_min = 1e9 };

#define FAIL(...)                                                                        \
    do {                                                                                 \
        fprintf(stderr, "residency: %s %u of seed %#" PRIx64 ": ", phase, op_no, seed0); \
        fprintf(stderr, __VA_ARGS__);                                                    \
        fprintf(stderr, "\n");                                                           \
        fail_msg("%s %u of seed %#" PRIx64 " (see above)", phase, op_no, seed0);         \
    } while (0)

#define CHECK(cond, ...)       \
    do {                       \
        if (!(cond))           \
            FAIL(__VA_ARGS__); \
    } while (0)

#define CALL(expr)                                                      \
    do {                                                                \
        int rc_ = (expr);                                               \
        CHECK(rc_ == 0, "%s: %d (%s)", #expr, rc_, gmmu_strerror(rc_)); \
    } while (0)

/* ---------------------------------------------------------------- model */

static uint64_t round64k(uint64_t x)
{
    return (x + TILE - 1) & ~(TILE - 1);
}

static bool vram_only(const struct alloc_m *a)
{
    return !(a->flags & (GMMU_ALLOC_FLAG_VRAM_PREFERRED | GMMU_ALLOC_FLAG_SYSTEM_ONLY |
                         GMMU_ALLOC_FLAG_CONTIGUOUS));
}

static const char *state_name(unsigned s)
{
    static const char *n[] = { "?", "VRAM", "BACKING", "OFFLINE", "HOST" };
    return s < 5 ? n[s] : "?";
}

static const char *placement(const struct alloc_m *a)
{
    if (a->flags & GMMU_ALLOC_FLAG_CONTIGUOUS)
        return "contiguous";
    if (a->flags & GMMU_ALLOC_FLAG_VRAM_PREFERRED)
        return "VRAM preferred";
    if (a->flags & GMMU_ALLOC_FLAG_SYSTEM_ONLY)
        return "system only";
    return "VRAM only";
}

/* What the firmware's evictable() says, as the model sees it (ENGINE_RUN
   is synchronous: no engine runs between commands). Contiguous ones too:
   the SoC has an aperture, and none here has constraints. */
static bool evictable(const struct alloc_m *a)
{
    return a->live && a->state == ST_VRAM && !a->count && !(vram_only(a) && a->tiled);
}

static uint64_t live_bytes(void)
{
    uint64_t n = 0;
    for (int i = 0; i < MAX_A; i++)
        n += A[i].live ? A[i].size : 0;
    return n;
}

static unsigned live_count(void)
{
    unsigned n = 0;
    for (int i = 0; i < MAX_A; i++)
        n += A[i].live;
    return n;
}

static unsigned extents_used(void)
{
    unsigned n = 0;
    for (int i = 0; i < MAX_A; i++)
        n += A[i].live ? A[i].extents : 0;
    return n;
}

static void model_totals(uint64_t *resident, uint64_t *pool_used, uint64_t *evict)
{
    *resident = *pool_used = *evict = 0;
    for (int i = 0; i < MAX_A; i++) {
        const struct alloc_m *a = &A[i];
        if (!a->live)
            continue;
        if (a->state == ST_VRAM)
            *resident += a->size;
        else
            *pool_used += round64k(a->size);
        if (evictable(a))
            *evict += a->size;
    }
}

/* The firmware's plan_room: whether evicting least recently used first
   (each victim fitting what is left of the pool) frees `need` bytes. */
static bool plan_room(uint64_t need, const bool *skip)
{
    bool mark[MAX_A];
    uint64_t free_b = vcur.free_bytes, pool = vcur.backing_free;
    memcpy(mark, skip, sizeof mark);
    while (free_b < need) {
        int v = -1;
        for (int i = 0; i < MAX_A; i++)
            if (!mark[i] && evictable(&A[i]) && (v < 0 || A[i].stamp < A[v].stamp))
                v = i;
        if (v < 0)
            return false;
        mark[v] = true;
        if (round64k(A[v].size) > pool)
            continue;
        pool -= round64k(A[v].size);
        free_b += A[v].size;
    }
    return true;
}

static void checksum(const uint64_t *w, size_t n, uint64_t *s1, uint64_t *s2)
{
    *s1 = *s2 = 0;
    for (size_t i = 0; i < n; i++) {
        *s1 += w[i];
        *s2 += *s1;
    }
}

/* ---------------------------------------------------------------- device */

static void get_vram(struct gmmu_vram_rsp *v)
{
    CALL(gmmu_get_vram(dev, v));
}

/* GET_VRAM; returns how far the paging fence moved beyond the model's. */
static uint64_t fence_moved(void)
{
    get_vram(&vcur);
    uint64_t d = vcur.paging_fence - fence_now;
    fence_now = vcur.paging_fence;
    return d;
}

/* A command that signalled the paging fence once after `moves` moves
   answered `fence`. */
static void fence_signalled(uint64_t fence, uint64_t moves, const char *what)
{
    CHECK(fence == fence_now + moves + 1,
          "%s answered fence %" PRIu64 ", want %" PRIu64 " (%" PRIu64 " moves)", what, fence,
          fence_now + moves + 1, moves);
    fence_now = fence;
}

/* The last GET_VRAM against the model. */
static void check_totals(const char *after)
{
    uint64_t resident, pool_used, evict;
    model_totals(&resident, &pool_used, &evict);
    CHECK(vcur.resident_bytes == resident, "after %s: resident %" PRIu64 ", model %" PRIu64, after,
          vcur.resident_bytes, resident);
    CHECK(vcur.backing_free == vcur.backing_bytes - pool_used,
          "after %s: pool free %" PRIu64 ", model %" PRIu64, after, vcur.backing_free,
          vcur.backing_bytes - pool_used);
    CHECK(vcur.evictable_bytes == evict, "after %s: evictable %" PRIu64 ", model %" PRIu64, after,
          vcur.evictable_bytes, evict);
    CHECK(vcur.allocations == v0.allocations + live_count(), "after %s: %u allocations, model %u",
          after, vcur.allocations, v0.allocations + live_count());
}

/* After a command that moves nothing: the fence's advance. */
static uint64_t check_vram(const char *after)
{
    uint64_t moved = fence_moved();
    check_totals(after);
    return moved;
}

static void snapshot_evictable(void)
{
    for (int i = 0; i < MAX_A; i++)
        pre_evictable[i] = evictable(&A[i]);
}

static bool in_pool(uint64_t pa)
{
    for (int r = 0; r < 2; r++)
        if (pa >= pool_bus[r] && pa < pool_bus[r] + pool_len[r])
            return true;
    return false;
}

static struct gmmu_query_rsp query(unsigned as, uint64_t va)
{
    struct gmmu_query_rsp q;
    CALL(gmmu_query_va(dev, as_h[as], va, &q));
    S.queries++;
    return q;
}

/* One page of what maps allocation a at `off`: VA unchanged, segment as
   the model's state, the same PA as its primary mapping there. */
static void check_va(unsigned as, uint64_t va, int ai, uint64_t off, uint32_t flags,
                     const char *what)
{
    const struct alloc_m *a = &A[ai];
    struct gmmu_query_rsp q = query(as, va);
    if (a->state == ST_OFFLINE) {
        CHECK(q.state == 0, "%s VA %#" PRIx64 " of OFFLINE allocation %d: state %u, want invalid",
              what, va, ai, q.state);
        return;
    }
    CHECK(q.state == 2,
          "%s VA %#" PRIx64 " (allocation %d, %s, %s, offset %#" PRIx64 "): state %u, want mapped",
          what, va, ai, placement(a), state_name(a->state), off, q.state);
    unsigned seg = a->state == ST_VRAM ? GMMU_SEGMENT_VRAM : GMMU_SEGMENT_SYSTEM;
    CHECK(q.segment == seg, "%s VA %#" PRIx64 " (allocation %d, %s): segment %u, want %u", what, va,
          ai, state_name(a->state), q.segment, seg);
    CHECK(q.flags == (flags & 7u), "%s VA %#" PRIx64 ": attributes %#x, want %#x", what, va,
          q.flags, flags & 7u);
    if (seg == GMMU_SEGMENT_VRAM)
        CHECK(q.pa < seg_bytes, "%s VA %#" PRIx64 ": PA %#" PRIx64 " outside the segment", what, va,
              q.pa);
    else
        CHECK(in_pool(q.pa), "%s VA %#" PRIx64 ": PA %#" PRIx64 " outside the pool", what, va,
              q.pa);
    const struct map_m *p = &M[a->prim < 0 ? 0 : a->prim];
    if (a->prim >= 0 && !(p->as == as && p->va + off == va)) {
        struct gmmu_query_rsp qp = query(p->as, p->va + off);
        CHECK(qp.state == 2 && qp.segment == q.segment && qp.pa == q.pa,
              "%s VA %#" PRIx64 " -> %u:%#" PRIx64 ", but allocation %d's primary VA %#" PRIx64
              " -> state %u %u:%#" PRIx64,
              what, va, q.segment, q.pa, ai, p->va + off, qp.state, qp.segment, qp.pa);
    }
}

/* Every mapping and tile of allocation ai, one random page each; the
   primary mapping's first page against QUERY_ALLOC's first piece. */
static void check_alloc_vas(int ai, uint64_t base)
{
    const struct alloc_m *a = &A[ai];
    for (int m = 0; m < MAX_M; m++) {
        if (!M[m].live || (int)M[m].a != ai)
            continue;
        uint64_t o = below(M[m].size / PAGE) * PAGE;
        check_va(M[m].as, M[m].va + o, ai, M[m].off + o, M[m].flags, "mapping");
    }
    for (unsigned r = 0; r < NAS; r++)
        for (unsigned t = 0; t < NTILES; t++)
            if (R[r].t[t].a == ai) {
                uint64_t o = below(TILE / PAGE) * PAGE;
                check_va(r, R[r].va + t * TILE + o, ai, R[r].t[t].off + o, R[r].t[t].flags, "tile");
            }
    /* In the aperture, QUERY_ALLOC reports the physical-mode address. */
    if (a->state != ST_OFFLINE && a->prim >= 0 && base < GMMU_APERTURE_PHYS_BASE) {
        struct gmmu_query_rsp q = query(M[a->prim].as, M[a->prim].va);
        CHECK(q.pa == base,
              "allocation %d: primary VA -> %#" PRIx64 ", QUERY_ALLOC's first piece %#" PRIx64, ai,
              q.pa, base);
    }
}

enum cmd { CMD_OTHER, CMD_ALLOC_VRAM, CMD_MAKE_RESIDENT };

/* After a command that may move allocations and moved `moves` (the paging
   fence's count): QUERY_ALLOC of each allocation that may have moved (the
   evictable ones and those listed), each change one the rules allow and
   as many as the moves, so no other one moved; then the VAs of the moved
   ones and GET_VRAM against the model. */
static void sync_states(enum cmd cmd, const bool *listed, uint64_t moves, const char *what)
{
    unsigned changed = 0;
    int moved[MAX_A];
    uint64_t base[MAX_A];
    for (int i = 0; i < MAX_A && moves; i++) {
        struct alloc_m *a = &A[i];
        if (!a->live || !(pre_evictable[i] || (listed && listed[i])))
            continue;
        struct gmmu_alloc_info info;
        CALL(gmmu_query_alloc(dev, a->h, &info));
        CHECK(info.residency == a->count, "%s: allocation %d count %u, model %u", what, i,
              info.residency, a->count);
        CHECK(info.size == a->size, "%s: allocation %d size changed", what, i);
        bool ok = (a->flags & GMMU_ALLOC_FLAG_SYSTEM_ONLY) ? info.state == ST_BACKING
                  : (a->flags & (GMMU_ALLOC_FLAG_VRAM_PREFERRED | GMMU_ALLOC_FLAG_CONTIGUOUS))
                      ? info.state == ST_VRAM || info.state == ST_BACKING
                      : info.state == ST_VRAM || info.state == ST_OFFLINE;
        CHECK(ok, "%s: allocation %d (%s) is %s", what, i, placement(a), state_name(info.state));
        /* A contiguous one evicted is in the aperture, reported there. */
        CHECK(info.segment == ((a->flags & GMMU_ALLOC_FLAG_CONTIGUOUS) && info.state == ST_BACKING
                                   ? GMMU_SEGMENT_APERTURE
                               : info.state == ST_VRAM ? GMMU_SEGMENT_VRAM
                                                       : GMMU_SEGMENT_SYSTEM) &&
                  (info.segment == GMMU_SEGMENT_APERTURE) == (info.base >= GMMU_APERTURE_PHYS_BASE),
              "%s: allocation %d (%s, %s) reported in segment %u at %#" PRIx64, what, i,
              placement(a), state_name(info.state), info.segment, info.base);
        a->extents = info.extents;
        if (info.state == a->state)
            continue;
        if (a->state == ST_VRAM) {
            CHECK(cmd != CMD_OTHER, "%s moved allocation %d out", what, i);
            CHECK(!(listed && listed[i]), "%s moved its listed allocation %d out", what, i);
            CHECK(pre_evictable[i],
                  "%s moved allocation %d (%s, count %u, tiled %#x) out: not evictable", what, i,
                  placement(a), a->count, a->tiled);
            S.moves_out++;
        } else {
            CHECK(cmd == CMD_MAKE_RESIDENT && listed && listed[i] && info.state == ST_VRAM,
                  "%s moved allocation %d from %s to %s", what, i, state_name(a->state),
                  state_name(info.state));
            S.moves_in++;
        }
        a->state = info.state;
        base[changed] = info.base;
        moved[changed++] = i;
    }
    CHECK(changed == moves,
          "%s: %u allocations changed place, the paging fence counts %" PRIu64 " moves", what,
          changed, moves);
    if (moves) {
        CHECK(fence_moved() == 0, "%s: the paging fence moved after it answered", what);
        check_totals(what);
    }
    for (unsigned k = 0; k < changed; k++)
        check_alloc_vas(moved[k], base[k]);
}

/* ---------------------------------------------------------------- engines */

static void drain_events(void)
{
    struct gmmu_event ev;
    int rc;
    while ((rc = gmmu_next_event(dev, &ev)) == 1)
        ;
    CHECK(rc == 0, "events: %d", rc);
}

static struct gmmu_engine_rsp run(uint32_t op, unsigned as, uint64_t dst, uint64_t src,
                                  uint64_t len, uint64_t pattern)
{
    return soc_engine_run(dev, (uint32_t)below(4), op, as_h[as], dst, src, (uint32_t)len, pattern);
}

static bool faulted(const struct gmmu_engine_rsp *r)
{
    return r->engine_status & GMMU_ENGINE_STATUS_FAULT;
}

/* A run that must have faulted INVALID at `va`, its first chunk: nothing
   done, and the fault posted as an event. */
static void expect_fault(const struct gmmu_engine_rsp *r, uint64_t va, const char *what)
{
    CHECK(faulted(r), "%s of an OFFLINE allocation at VA %#" PRIx64 " did not fault", what, va);
    unsigned why = (r->engine_status & GMMU_ENGINE_STATUS_REASON) >> GMMU_ENGINE_STATUS_REASON_LSB;
    CHECK(why == GMMU_FAULT_INVALID && r->fault_va == va && r->bytes_done == 0,
          "%s at VA %#" PRIx64 ": fault reason %u at %#" PRIx64 ", %u bytes done", what, va, why,
          r->fault_va, r->bytes_done);
    struct gmmu_event ev;
    for (;;) {
        int rc = gmmu_wait_event(dev, 5000, &ev);
        CHECK(rc == 0, "%s at VA %#" PRIx64 ": no fault event (%d)", what, va, rc);
        if (ev.type == GMMU_EVT_FAULT && ev.u.fault.va == va) {
            CHECK(ev.u.fault.reason == GMMU_FAULT_INVALID, "fault event reason %u",
                  ev.u.fault.reason);
            break;
        }
    }
    drain_events();
    S.faults++;
}

/* A range of bytes of one allocation reached through one VA. */
struct view {
    unsigned as;
    uint64_t va;
    int a;
    uint64_t off, len;
};

static uint64_t pick_len(uint64_t room)
{
    uint64_t max = room < MAX_XFER ? room : MAX_XFER;
    /* Mostly small, sometimes up to 64 KiB. */
    uint64_t n = chance(70) ? 1 + below(64) : 1 + below(max / CHUNK);
    n *= CHUNK;
    return n > max ? max : n;
}

/* A random view through a mapping (or a tile); `offline`: -1 any,
   0 not OFFLINE, 1 OFFLINE only. False if there is none. */
static bool pick_view(struct view *v, int offline)
{
    if (chance(25)) {
        for (int tries = 0; tries < 8; tries++) {
            unsigned r = (unsigned)below(NAS), t = (unsigned)below(NTILES);
            const struct tile_m *tm = &R[r].t[t];
            if (tm->a < 0 || (offline == 1))
                continue;
            uint64_t in = below(TILE / CHUNK) * CHUNK;
            v->as = r;
            v->a = tm->a;
            v->len = pick_len(TILE - in);
            v->va = R[r].va + t * TILE + in;
            v->off = tm->off + in;
            return true;
        }
    }
    int cand[MAX_M], n = 0;
    for (int m = 0; m < MAX_M; m++) {
        if (!M[m].live)
            continue;
        bool off = A[M[m].a].state == ST_OFFLINE;
        if (offline < 0 || (offline == 1) == off)
            cand[n++] = m;
    }
    if (!n)
        return false;
    const struct map_m *m = &M[cand[below((uint64_t)n)]];
    uint64_t in = below(m->size / CHUNK) * CHUNK;
    v->as = m->as;
    v->a = (int)m->a;
    v->len = pick_len(m->size - in);
    v->va = m->va + in;
    v->off = m->off + in;
    return true;
}

static void op_fill(int offline)
{
    struct view v;
    if (!pick_view(&v, offline))
        return;
    uint64_t pattern = rnd();
    if (A[v.a].state == ST_OFFLINE)
        drain_events();
    struct gmmu_engine_rsp r = run(GMMU_ENGINE_OP_FILL, v.as, v.va, 0, v.len, pattern);
    if (A[v.a].state == ST_OFFLINE) {
        expect_fault(&r, v.va, "fill");
        return;
    }
    CHECK(!faulted(&r) && r.bytes_done == v.len,
          "fill of %" PRIu64 " bytes at VA %#" PRIx64
          " (allocation %d, %s): status %#x at %#" PRIx64,
          v.len, v.va, v.a, state_name(A[v.a].state), r.engine_status, r.fault_va);
    for (uint64_t i = 0; i < v.len / 8; i++)
        A[v.a].w[v.off / 8 + i] = pattern;
    S.fills++;
}

static void op_checksum(int offline)
{
    struct view v;
    if (!pick_view(&v, offline))
        return;
    if (A[v.a].state == ST_OFFLINE)
        drain_events();
    struct gmmu_engine_rsp r = run(GMMU_ENGINE_OP_CHECKSUM, v.as, 0, v.va, v.len, 0);
    if (A[v.a].state == ST_OFFLINE) {
        expect_fault(&r, v.va, "checksum");
        return;
    }
    uint64_t s1, s2;
    checksum(A[v.a].w + v.off / 8, v.len / 8, &s1, &s2);
    CHECK(!faulted(&r) && r.bytes_done == v.len,
          "checksum at VA %#" PRIx64 " (allocation %d, %s): status %#x at %#" PRIx64, v.va, v.a,
          state_name(A[v.a].state), r.engine_status, r.fault_va);
    CHECK(r.result == s1 && r.result2 == s2,
          "checksum of %" PRIu64 " bytes at VA %#" PRIx64
          " (allocation %d, %s, %s, offset %#" PRIx64 "): %#" PRIx64 "/%#" PRIx64
          ", model %#" PRIx64 "/%#" PRIx64,
          v.len, v.va, v.a, placement(&A[v.a]), state_name(A[v.a].state), v.off, r.result,
          r.result2, s1, s2);
    S.sums++;
}

/* A copy between two views of one address space, not overlapping. */
static void op_copy(void)
{
    struct view s, d;
    if (!pick_view(&s, -1))
        return;
    bool found = false;
    for (int tries = 0; tries < 6 && !found; tries++)
        found = pick_view(&d, -1) && d.as == s.as;
    if (!found)
        return;
    uint64_t len = s.len < d.len ? s.len : d.len;
    if (s.a == d.a && s.off < d.off + len && d.off < s.off + len)
        return;
    bool s_off = A[s.a].state == ST_OFFLINE, d_off = A[d.a].state == ST_OFFLINE;
    if (s_off || d_off)
        drain_events();
    struct gmmu_engine_rsp r = run(GMMU_ENGINE_OP_COPY, s.as, d.va, s.va, len, 0);
    if (s_off || d_off) {
        /* The source is reported when both streams fault. */
        expect_fault(&r, s_off ? s.va : d.va, "copy");
        return;
    }
    CHECK(!faulted(&r) && r.bytes_done == len,
          "copy VA %#" PRIx64 " -> %#" PRIx64 ": status %#x at %#" PRIx64, s.va, d.va,
          r.engine_status, r.fault_va);
    memmove(A[d.a].w + d.off / 8, A[s.a].w + s.off / 8, len);
    S.copies++;
}

/* ---------------------------------------------------------------- commands */

static int free_slot_m(void)
{
    for (int m = 0; m < MAX_M; m++)
        if (!M[m].live)
            return m;
    return -1;
}

static unsigned live_maps(void)
{
    unsigned n = 0;
    for (int m = 0; m < MAX_M; m++)
        n += M[m].live;
    return n;
}

static const uint32_t page_choices[] = { 0, 0x1, 0x3, 0x2 };

/* MAP_VA of [off, off + size) of allocation ai, its fence left in
   map_fence for the caller; -1 on NO_MEMORY. */
static uint64_t map_fence;
static int map_raw(int ai, unsigned as, uint64_t off, uint64_t size, uint32_t pages, uint32_t flags)
{
    int m = free_slot_m();
    if (m < 0)
        return -1;
    struct gmmu_map_req req = { .as_handle = as_h[as],
                                .alloc_handle = A[ai].h,
                                .offset = off,
                                .size = size,
                                .flags = flags,
                                .page_sizes = pages };
    uint64_t va = 0;
    int rc = gmmu_map_va_fence(dev, &req, &va, &map_fence);
    /* 64 KB pages only need 64 KB-aligned pieces: VRAM taken in 4 KB
       blocks has none. */
    if (rc == GMMU_STATUS_NO_MEMORY || (rc == GMMU_STATUS_UNALIGNED && pages == 0x2)) {
        S.map_nomem++;
        return -1;
    }
    CHECK(rc == 0, "MAP_VA of allocation %d [%#" PRIx64 ", +%#" PRIx64 ") pages %#x: %d", ai, off,
          size, pages, rc);
    M[m] = (struct map_m){ .live = true,
                           .as = as,
                           .a = (unsigned)ai,
                           .va = va,
                           .off = off,
                           .size = size,
                           .flags = flags,
                           .pages = pages };
    S.maps++;
    return m;
}

static int map(int ai, unsigned as, uint64_t off, uint64_t size, uint32_t pages, uint32_t flags)
{
    int m = map_raw(ai, as, off, size, pages, flags);
    if (m >= 0)
        fence_signalled(map_fence, 0, "MAP_VA");
    return m;
}

static uint64_t pick_size(uint32_t flags)
{
    if (flags & GMMU_ALLOC_FLAG_CONTIGUOUS)
        return (1 + below(2)) * TILE;
    uint64_t size = (1 + below(4)) * TILE;
    if (!(flags & GMMU_ALLOC_FLAG_PREFER_64K) && chance(30))
        size += (1 + below(15)) * PAGE;
    return size;
}

static void free_alloc(int ai);

static void op_alloc(void)
{
    int ai = -1;
    for (int i = 0; i < MAX_A && ai < 0; i++)
        if (!A[i].live)
            ai = i;
    if (ai < 0 || live_maps() + 1 > MAX_M)
        return;
    unsigned kind = (unsigned)below(100);
    unsigned k = kind < 40 ? 0 : kind < 75 ? 1 : kind < 95 ? 2 : 3;
    static const uint32_t place[] = { 0, GMMU_ALLOC_FLAG_VRAM_PREFERRED,
                                      GMMU_ALLOC_FLAG_SYSTEM_ONLY, GMMU_ALLOC_FLAG_CONTIGUOUS };
    static const char *const kname[] = { "VRAM-only", "VRAM-preferred", "system-only",
                                         "contiguous" };
    uint32_t flags = place[k];
    if (k != 3 && chance(20))
        flags |= GMMU_ALLOC_FLAG_PREFER_64K;
    uint64_t size = pick_size(flags);
    struct alloc_m *a = &A[ai];
    bool skip[MAX_A] = { false };
    if (k == 0)
        check_vram("before a VRAM-only ALLOC"); /* free bytes for plan_room */
    bool plan = k == 0 ? plan_room(size, skip) : true;
    unsigned units = (unsigned)(round64k(size) / TILE);
    uint64_t resident, pool_used, evict;
    model_totals(&resident, &pool_used, &evict);
    bool pool_fits = v0.backing_bytes - pool_used >= round64k(size);
    bool pieces_fit = extents_used() + units <= FW_EXTENTS;
    snapshot_evictable();

    struct gmmu_alloc_req req = { .size = size, .flags = flags };
    struct gmmu_alloc_rsp rsp;
    int rc = gmmu_alloc(dev, &req, &rsp);
    S.alloc[k]++;
    if (rc == GMMU_STATUS_NO_MEMORY) {
        S.alloc_nomem[k]++;
        uint64_t moves = fence_moved();
        CHECK(k == 0 || !moves, "a refused %s ALLOC moved %" PRIu64 " allocations", kname[k],
              moves);
        CHECK(k == 0 || k == 3 || !pool_fits || !pieces_fit,
              "%s ALLOC of %" PRIu64 " KiB refused with %" PRIu64 " KiB of the pool free", kname[k],
              size / KIB, (v0.backing_bytes - pool_used) / KIB);
        CHECK(plan || !moves, "a VRAM-only ALLOC refused by its sums moved %" PRIu64, moves);
        sync_states(CMD_ALLOC_VRAM, NULL, moves, "refused VRAM-only ALLOC");
        return;
    }
    CHECK(rc == 0, "ALLOC %" PRIu64 " flags %#x: %d", size, flags, rc);
    CHECK(plan,
          "VRAM-only ALLOC of %" PRIu64 " KiB succeeded where evicting least recently "
          "used first could not make room",
          size / KIB);
    CHECK(k != 2 || pool_fits, "system-only ALLOC beyond the pool");
    CHECK(rsp.size == ((flags & GMMU_ALLOC_FLAG_PREFER_64K) ? round64k(size) : size),
          "ALLOC size %" PRIu64 " for %" PRIu64, rsp.size, size);
    *a = (struct alloc_m){ .live = true,
                           .h = rsp.handle,
                           .flags = flags,
                           .size = rsp.size,
                           .extents = rsp.extents,
                           .stamp = ++lru_clock,
                           .state = k == 2 ? ST_BACKING : ST_VRAM,
                           .prim = -1 };
    if (k == 1) {
        /* VRAM if there was room, else the pool: learnt here, and checked
           against GET_VRAM's totals below. */
        struct gmmu_alloc_info info;
        CALL(gmmu_query_alloc(dev, a->h, &info));
        CHECK(info.state == ST_VRAM || info.state == ST_BACKING, "new %s allocation is %s",
              kname[k], state_name(info.state));
        a->state = info.state;
    }
    a->w = malloc(a->size);
    CHECK(a->w != NULL, "out of host memory");

    /* Its primary mapping, then a fill of its first bytes, where every
       later check can find them. */
    uint32_t pages = page_choices[below(3)];
    uint32_t mflags = (uint32_t)below(4) * GMMU_MAP_FLAG_NO_EXECUTE; /* NX, CC */
    a->prim = map_raw(ai, (unsigned)below(NAS), 0, a->size, pages, mflags);
    uint64_t moves;
    if (a->prim >= 0) {
        moves = map_fence - fence_now - 1;
        fence_signalled(map_fence, moves, "ALLOC's MAP_VA");
    } else {
        moves = fence_moved();
    }
    CHECK(k == 0 || !moves, "a %s ALLOC moved %" PRIu64 " allocations", kname[k], moves);
    sync_states(CMD_ALLOC_VRAM, NULL, moves, "ALLOC");
    if (a->prim < 0) {
        free_alloc(ai);
        return;
    }
    uint64_t pattern = rnd();
    struct gmmu_engine_rsp r =
        run(GMMU_ENGINE_OP_FILL, M[a->prim].as, M[a->prim].va, 0, a->size, pattern);
    CHECK(!faulted(&r) && r.bytes_done == a->size, "first fill of allocation %d (%s): %#x", ai,
          state_name(a->state), r.engine_status);
    for (uint64_t i = 0; i < a->size / 8; i++)
        a->w[i] = pattern;
}

static void free_alloc(int ai)
{
    struct alloc_m *a = &A[ai];
    CALL(gmmu_free(dev, a->h));
    a->live = false;
    for (int m = 0; m < MAX_M; m++)
        if (M[m].live && (int)M[m].a == ai)
            M[m].live = false;
    int dead[NAS * NTILES][2], n = 0;
    for (unsigned r = 0; r < NAS; r++)
        for (unsigned t = 0; t < NTILES; t++)
            if (R[r].t[t].a == ai) {
                R[r].t[t].a = -1;
                dead[n][0] = (int)r;
                dead[n++][1] = (int)t;
            }
    free(a->w);
    a->w = NULL;
    /* Its tiles are invalid now. */
    for (int k = 0; k < n; k++) {
        struct gmmu_query_rsp q =
            query((unsigned)dead[k][0], R[dead[k][0]].va + (uint64_t)dead[k][1] * TILE);
        CHECK(q.state == 0, "tile %d of range %d still maps after FREE", dead[k][1], dead[k][0]);
    }
    S.frees++;
}

static int random_live(void)
{
    int cand[MAX_A], n = 0;
    for (int i = 0; i < MAX_A; i++)
        if (A[i].live)
            cand[n++] = i;
    return n ? cand[below((uint64_t)n)] : -1;
}

static void op_free(void)
{
    int ai = random_live();
    if (ai < 0)
        return;
    /* Keep the over-commit: never below RATIO_LOW. */
    if ((double)(live_bytes() - A[ai].size) < RATIO_LOW * (double)seg_bytes)
        return;
    free_alloc(ai);
}

static void op_map_extra(void)
{
    int ai = random_live();
    if (ai < 0 || A[ai].extra >= MAX_EXTRA || live_maps() + 8 > MAX_M)
        return;
    const struct alloc_m *a = &A[ai];
    uint32_t pages = page_choices[below(4)];
    uint64_t unit = pages == 0x2 ? TILE : PAGE;
    if (a->size < unit)
        return;
    uint64_t units = a->size / unit;
    uint64_t off = below(units) * unit, n = 1 + below(units - off / unit);
    if (n * unit > 256 * KIB)
        n = 256 * KIB / unit;
    uint32_t flags = (uint32_t)below(4) * GMMU_MAP_FLAG_NO_EXECUTE;
    if (map(ai, (unsigned)below(NAS), off, n * unit, pages, flags) >= 0)
        A[ai].extra++;
}

static void op_unmap_extra(void)
{
    int cand[MAX_M], n = 0;
    for (int m = 0; m < MAX_M; m++)
        if (M[m].live && A[M[m].a].prim != m)
            cand[n++] = m;
    if (!n)
        return;
    struct map_m *m = &M[cand[below((uint64_t)n)]];
    uint64_t fence;
    CALL(gmmu_unmap_va_fence(dev, as_h[m->as], m->va, m->size, &fence));
    m->live = false;
    A[m->a].extra--;
    fence_signalled(fence, 0, "UNMAP_VA");
    struct gmmu_query_rsp q = query(m->as, m->va);
    CHECK(q.state == 0, "VA %#" PRIx64 " still maps after UNMAP_VA", m->va);
    S.unmaps++;
}

/* A batch of one to three tile operations on one reserved range. */
static void op_update(void)
{
    unsigned r = (unsigned)below(NAS);
    struct gmmu_update_op ops[3];
    struct tile_m after[NTILES];
    memcpy(after, R[r].t, sizeof after);
    unsigned n = 1 + (unsigned)below(3);
    bool offline_map = false;
    int newref[3];
    for (unsigned i = 0; i < n; i++) {
        unsigned k = 1 + (unsigned)below(3), t = (unsigned)below(NTILES - k + 1);
        struct gmmu_update_op *o = &ops[i];
        *o = (struct gmmu_update_op){ .va = R[r].va + t * TILE, .size = k * TILE };
        newref[i] = -1;
        unsigned what = (unsigned)below(10);
        if (what < 6) {
            /* MAP, mostly of VRAM-preferred allocations (a tiled VRAM-only
               one stays in VRAM until it is freed). */
            int ai = -1;
            for (int tries = 0; tries < 8; tries++) {
                int c = random_live();
                if (c < 0)
                    break;
                if (A[c].size < k * TILE)
                    continue;
                ai = c;
                if (!vram_only(&A[c]) || chance(25))
                    break;
            }
            if (ai < 0)
                return;
            uint64_t off = below(A[ai].size / TILE - k + 1) * TILE;
            o->op = GMMU_UPDATE_OP_MAP;
            o->alloc_handle = A[ai].h;
            o->arg = off;
            o->flags = chance(30) ? GMMU_MAP_FLAG_NO_EXECUTE : 0;
            offline_map |= A[ai].state == ST_OFFLINE;
            for (unsigned j = 0; j < k; j++)
                after[t + j] = (struct tile_m){ .a = ai, .off = off + j * TILE, .flags = o->flags };
            newref[i] = ai;
        } else if (what < 8) {
            o->op = GMMU_UPDATE_OP_UNMAP;
            for (unsigned j = 0; j < k; j++)
                after[t + j].a = -1;
        } else {
            unsigned s = (unsigned)below(NTILES - k + 1);
            if (s < t + k && t < s + k)
                return; /* overlapping copies are refused */
            o->op = GMMU_UPDATE_OP_COPY;
            o->arg = R[r].va + s * TILE;
            struct tile_m tmp[3];
            memcpy(tmp, &after[s], k * sizeof tmp[0]);
            memcpy(&after[t], tmp, k * sizeof tmp[0]);
        }
    }
    snapshot_evictable();
    uint64_t fence;
    int rc = gmmu_update_va_fence(dev, as_h[r], ops, n, &fence);
    if (offline_map) {
        CHECK(rc == GMMU_STATUS_INVALID_ARGUMENT,
              "UPDATE_VA MAP of an OFFLINE allocation answered %d", rc);
        S.update_offline++;
        return;
    }
    if (rc == GMMU_STATUS_NO_MEMORY) {
        S.update_nomem++;
        return;
    }
    CHECK(rc == 0, "UPDATE_VA of %u operations: %d", n, rc);
    memcpy(R[r].t, after, sizeof after);
    for (unsigned i = 0; i < n; i++)
        if (newref[i] >= 0)
            A[newref[i]].tiled |= 1u << r;
    fence_signalled(fence, 0, "UPDATE_VA");
    /* The tiles the batch wrote. */
    for (unsigned t = 0; t < NTILES; t++) {
        const struct tile_m *tm = &R[r].t[t];
        bool written = false;
        for (unsigned i = 0; i < n; i++)
            written |=
                R[r].va + t * TILE >= ops[i].va && R[r].va + t * TILE < ops[i].va + ops[i].size;
        if (!written)
            continue;
        uint64_t o = below(TILE / PAGE) * PAGE;
        if (tm->a < 0) {
            struct gmmu_query_rsp q = query(r, R[r].va + t * TILE + o);
            CHECK(q.state == 0, "unmapped tile %u of range %u maps", t, r);
        } else {
            check_va(r, R[r].va + t * TILE + o, tm->a, tm->off + o, tm->flags, "tile");
        }
    }
    S.updates++;
}

/* The reserved range unmapped whole (its tile references go) and reserved again. */
static void op_rereserve(void)
{
    unsigned r = (unsigned)below(NAS);
    uint64_t fence;
    CALL(gmmu_unmap_va_fence(dev, as_h[r], R[r].va, NTILES * TILE, &fence));
    for (unsigned t = 0; t < NTILES; t++)
        R[r].t[t].a = -1;
    for (int i = 0; i < MAX_A; i++)
        A[i].tiled &= ~(1u << r);
    fence_signalled(fence, 0, "UNMAP_VA of a reserved range");
    CALL(gmmu_reserve_va(dev, as_h[r], 0, 0, NTILES * TILE, &R[r].va));
    S.rereserve++;
}

static void op_make_resident(void)
{
    uint32_t h[4];
    int idx[4];
    unsigned n = 1 + (unsigned)below(3);
    bool listed[MAX_A] = { false };
    int offl[MAX_A], no = 0;
    for (int i = 0; i < MAX_A; i++)
        if (A[i].live && A[i].state == ST_OFFLINE)
            offl[no++] = i;
    for (unsigned k = 0; k < n; k++) {
        int ai = (k == 0 && no && chance(60)) ? offl[below((uint64_t)no)]
                 : (k && chance(15))          ? idx[0]
                                              : random_live();
        if (ai < 0)
            return;
        idx[k] = ai;
        h[k] = A[ai].h;
        listed[ai] = true;
    }
    uint64_t need = 0;
    bool seen[MAX_A] = { false };
    for (unsigned k = 0; k < n; k++)
        if (!seen[idx[k]] && A[idx[k]].state == ST_OFFLINE) {
            seen[idx[k]] = true;
            need += A[idx[k]].size;
        }
    if (need)
        check_vram("before MAKE_RESIDENT"); /* free bytes for plan_room */
    bool plan = !need || plan_room(need, listed);
    snapshot_evictable();
    uint64_t fence = 0;
    int rc = gmmu_make_resident(dev, h, n, &fence);
    S.make_resident++;
    if (rc == GMMU_STATUS_NO_MEMORY) {
        S.mr_nomem++;
        CHECK(need, "MAKE_RESIDENT without an OFFLINE allocation refused");
        uint64_t moves = fence_moved();
        CHECK(plan || !moves, "MAKE_RESIDENT refused by its sums moved %" PRIu64, moves);
        sync_states(CMD_MAKE_RESIDENT, listed, moves, "refused MAKE_RESIDENT");
        return;
    }
    CHECK(rc == 0, "MAKE_RESIDENT: %d", rc);
    CHECK(plan, "MAKE_RESIDENT of %" PRIu64 " KiB OFFLINE succeeded where the sums say no room",
          need / KIB);
    for (unsigned k = 0; k < n; k++) {
        A[idx[k]].count++;
        A[idx[k]].stamp = ++lru_clock;
    }
    CHECK(fence > fence_now, "MAKE_RESIDENT: fence %" PRIu64 ", before %" PRIu64, fence, fence_now);
    uint64_t moves = fence - fence_now - 1;
    fence_signalled(fence, moves, "MAKE_RESIDENT");
    sync_states(CMD_MAKE_RESIDENT, listed, moves, "MAKE_RESIDENT");
    for (unsigned k = 0; k < n; k++)
        CHECK(!vram_only(&A[idx[k]]) || A[idx[k]].state == ST_VRAM,
              "VRAM-only allocation %d is %s after MAKE_RESIDENT", idx[k],
              state_name(A[idx[k]].state));
}

static void op_evict(void)
{
    int cand[MAX_A], nc = 0;
    for (int i = 0; i < MAX_A; i++)
        if (A[i].live && A[i].count)
            cand[nc++] = i;
    if (!nc)
        return;
    uint32_t h[2];
    int idx[2];
    unsigned n = 1 + (unsigned)below(2);
    for (unsigned k = 0; k < n; k++) {
        idx[k] = cand[below((uint64_t)nc)];
        if (k && idx[k] == idx[0] && A[idx[0]].count < 2)
            n = 1;
        h[k] = A[idx[k]].h;
    }
    CALL(gmmu_evict(dev, h, n));
    for (unsigned k = 0; k < n; k++) {
        A[idx[k]].count--;
        A[idx[k]].stamp = ++lru_clock;
    }
    S.evicts++;
}

/* QUERY_VA of a random mapping or tile page. */
static void op_query(void)
{
    if (chance(30)) {
        unsigned r = (unsigned)below(NAS), t = (unsigned)below(NTILES);
        const struct tile_m *tm = &R[r].t[t];
        uint64_t o = below(TILE / PAGE) * PAGE;
        if (tm->a >= 0)
            check_va(r, R[r].va + t * TILE + o, tm->a, tm->off + o, tm->flags, "tile");
        else
            CHECK(query(r, R[r].va + t * TILE + o).state == 0, "unmapped tile maps");
        return;
    }
    int cand[MAX_M], n = 0;
    for (int m = 0; m < MAX_M; m++)
        if (M[m].live)
            cand[n++] = m;
    if (!n)
        return;
    const struct map_m *m = &M[cand[below((uint64_t)n)]];
    uint64_t o = below(m->size / PAGE) * PAGE;
    check_va(m->as, m->va + o, (int)m->a, m->off + o, m->flags, "mapping");
}

/* ---------------------------------------------------------------- the test */

static double ratio(void)
{
    return (double)live_bytes() / (double)seg_bytes;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void mix_churn(double x)
{
    x < RATIO_HIGH ? op_alloc() : op_free();
}
static void mix_free(double x)
{
    (void)x;
    op_free();
}
static void mix_map(double x)
{
    (void)x;
    op_map_extra();
}
static void mix_unmap(double x)
{
    (void)x;
    op_unmap_extra();
}
static void mix_update(double x)
{
    (void)x;
    op_update();
}
static void mix_rereserve(double x)
{
    (void)x;
    op_rereserve();
}
static void mix_make_resident(double x)
{
    (void)x;
    op_make_resident();
}
static void mix_evict(double x)
{
    (void)x;
    op_evict();
}
static void mix_fill(double x)
{
    (void)x;
    op_fill(chance(10) ? 1 : -1);
}
static void mix_checksum(double x)
{
    (void)x;
    op_checksum(chance(10) ? 1 : -1);
}
static void mix_copy(double x)
{
    (void)x;
    op_copy();
}
static void mix_query(double x)
{
    (void)x;
    op_query();
}

/* The random operations and their weights. */
static struct {
    const char *name;
    unsigned weight;
    void (*run)(double ratio);
    double secs;
    unsigned count;
} mix[] = {
    { "ALLOC/FREE", 8, mix_churn, 0, 0 },
    { "FREE", 6, mix_free, 0, 0 },
    { "MAP_VA", 5, mix_map, 0, 0 },
    { "UNMAP_VA", 3, mix_unmap, 0, 0 },
    { "UPDATE_VA", 8, mix_update, 0, 0 },
    { "re-reserve", 1, mix_rereserve, 0, 0 },
    { "MAKE_RESIDENT", 10, mix_make_resident, 0, 0 },
    { "EVICT", 8, mix_evict, 0, 0 },
    { "fill", 16, mix_fill, 0, 0 },
    { "checksum", 18, mix_checksum, 0, 0 },
    { "copy", 5, mix_copy, 0, 0 },
    { "QUERY_VA", 12, mix_query, 0, 0 },
};

static void test_residency_random(void **state)
{
    (void)state;
    /* The device and its segments. */
    struct gmmu_segment_desc seg[GMMU_SEGMENTS_MAX];
    size_t nseg = 0;
    get_vram(&vcur);
    CALL(gmmu_get_segments(dev, seg, GMMU_SEGMENTS_MAX, &nseg));
    CHECK(nseg >= 2 && seg[1].id == 1 && seg[1].size == vcur.segment_bytes,
          "GET_SEGMENTS disagrees with GET_VRAM");
    seg_bytes = vcur.segment_bytes;
    CHECK(seg_bytes <= 64 * MIB,
          "VRAM segment %" PRIu64 " MiB: run the simulator with a small "
          "--ddr-size-mb (SIM_ARGS)",
          seg_bytes / MIB);
    CHECK(vcur.allocations == 0 && vcur.backing_ranges == 0,
          "run on a freshly booted device (one host per boot with a pool)");

    /* The pool: twice the segment, in two ranges of this process's memory. */
    uint64_t pool = round64k(2 * seg_bytes);
    pool_len[0] = round64k(pool * 3 / 5);
    pool_len[1] = pool - pool_len[0];
    for (int r = 0; r < 2; r++) {
        uint64_t bus;
        void *host;
        CALL(gmmu_sysmem_alloc(dev, pool_len[r] + TILE, &bus, &host));
        pool_bus[r] = round64k(bus);
        CALL(gmmu_add_backing(dev, pool_bus[r], pool_len[r]));
    }
    get_vram(&v0);
    vcur = v0;
    CHECK(v0.backing_bytes == pool && v0.backing_free == pool, "pool %" PRIu64 " of %" PRIu64,
          v0.backing_free, v0.backing_bytes);
    struct gmmu_segment_desc seg0[GMMU_SEGMENTS_MAX];
    CALL(gmmu_get_segments(dev, seg0, GMMU_SEGMENTS_MAX, &nseg));
    printf("residency: VRAM segment %" PRIu64 " KiB, pool %" PRIu64 " KiB in 2 ranges\n",
           seg_bytes / KIB, pool / KIB);

    for (unsigned i = 0; i < NAS; i++) {
        uint32_t asid;
        CALL(gmmu_create_as(dev, &as_h[i], &asid));
        CALL(gmmu_reserve_va(dev, as_h[i], 0, 0, NTILES * TILE, &R[i].va));
        for (unsigned t = 0; t < NTILES; t++)
            R[i].t[t].a = -1;
    }
    get_vram(&vcur);
    fence_now = vcur.paging_fence;

    /* Set-up: allocate to RATIO_HIGH (engines and residency between). */
    struct timespec t0, t1;
    struct gmmu_stats st0, st1;
    CALL(gmmu_get_stats(dev, &st0));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    op_no = 0;
    while (ratio() < (RATIO_LOW + RATIO_HIGH) / 2) {
        op_alloc();
        if (chance(15))
            op_make_resident();
        if (chance(15))
            op_evict();
        op_no++;
        CHECK(op_no < 400, "set-up did not reach the over-commit (%.2f)", ratio());
    }
    CHECK(check_vram("set-up") == 0, "the paging fence moved unseen");
    printf("residency: set-up %u steps in %.1f s, %u allocations, %.2fx the segment\n", op_no,
           now() - (double)t0.tv_sec - (double)t0.tv_nsec / 1e9, live_count(), ratio());
    phase = "op";
    for (op_no = 1; op_no <= nops; op_no++) {
        double x = ratio();
        S.ratio_min = x < S.ratio_min ? x : S.ratio_min;
        S.ratio_max = x > S.ratio_max ? x : S.ratio_max;
        unsigned total = 0, kind = 0;
        for (size_t i = 0; i < sizeof mix / sizeof mix[0]; i++)
            total += mix[i].weight;
        unsigned p = (unsigned)below(total);
        while (p >= mix[kind].weight)
            p -= mix[kind++].weight;
        double t = now();
        if (op_no % 8 == 0)
            CHECK(check_vram("periodic check") == 0, "the paging fence moved unseen");
        mix[kind].run(x);
        mix[kind].secs += now() - t;
        mix[kind].count++;
    }
    phase = "the end, after op";
    op_no = nops;

    /* The end: every allocation's bytes once more where they can be
       reached (a checksum of a random window; an OFFLINE one does not
       map), then everything freed. */
    for (int i = 0; i < MAX_A; i++)
        while (A[i].live && A[i].count) {
            uint32_t h = A[i].h;
            CALL(gmmu_evict(dev, &h, 1));
            A[i].count--;
            A[i].stamp = ++lru_clock;
        }
    CHECK(check_vram("the last EVICTs") == 0, "the paging fence moved unseen");
    for (int i = 0; i < MAX_A; i++) {
        if (!A[i].live)
            continue;
        const struct map_m *m = &M[A[i].prim];
        if (A[i].state == ST_OFFLINE) {
            CHECK(query(m->as, m->va).state == 0, "OFFLINE allocation %d maps", i);
        } else {
            uint64_t len = A[i].size < 4 * KIB ? A[i].size : 4 * KIB;
            uint64_t off = below((A[i].size - len) / CHUNK + 1) * CHUNK;
            struct gmmu_engine_rsp r = run(GMMU_ENGINE_OP_CHECKSUM, m->as, 0, m->va + off, len, 0);
            uint64_t s1, s2;
            checksum(A[i].w + off / 8, len / 8, &s1, &s2);
            CHECK(!faulted(&r) && r.result == s1 && r.result2 == s2,
                  "final checksum of allocation %d (%s, %s): %#" PRIx64 ", model %#" PRIx64, i,
                  placement(&A[i]), state_name(A[i].state), r.result, s1);
            S.sums++;
        }
        free_alloc(i);
    }
    for (unsigned i = 0; i < NAS; i++) {
        CALL(gmmu_unmap_va(dev, as_h[i], R[i].va, NTILES * TILE));
        CALL(gmmu_destroy_as(dev, as_h[i]));
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CALL(gmmu_get_stats(dev, &st1));

    struct gmmu_vram_rsp v;
    get_vram(&v);
    CHECK(v.free_bytes == v0.free_bytes && v.backing_free == v0.backing_free &&
              v.resident_bytes == v0.resident_bytes && v.evictable_bytes == 0 &&
              v.tables == v0.tables && v.allocations == v0.allocations,
          "accounting at the end: free %" PRIu64 " (was %" PRIu64 "), pool free %" PRIu64
          " (was %" PRIu64 "), resident %" PRIu64 " (was %" PRIu64 "), tables %u (was %u)",
          v.free_bytes, v0.free_bytes, v.backing_free, v0.backing_free, v.resident_bytes,
          v0.resident_bytes, v.tables, v0.tables);
    struct gmmu_segment_desc seg1[GMMU_SEGMENTS_MAX];
    CALL(gmmu_get_segments(dev, seg1, GMMU_SEGMENTS_MAX, &nseg));
    CHECK(seg1[0].in_use == seg0[0].in_use && seg1[1].in_use == seg0[1].in_use,
          "GET_SEGMENTS' use at the end differs from the start");

    printf("residency: set-up, %u ops and the end in %.1f s, %.1f M simulated cycles; over-commit "
           "%.2fx..%.2fx\n",
           nops, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
           (double)(st1.uptime_cycles - st0.uptime_cycles) / 1e6, S.ratio_min, S.ratio_max);
    printf("residency: ALLOC VRAM-only %u (refused %u), VRAM-preferred %u (%u), system-only %u "
           "(%u), contiguous %u (%u); FREE %u\n",
           S.alloc[0], S.alloc_nomem[0], S.alloc[1], S.alloc_nomem[1], S.alloc[2], S.alloc_nomem[2],
           S.alloc[3], S.alloc_nomem[3], S.frees);
    printf("residency: moves out %u, in %u; MAKE_RESIDENT %u (refused %u), EVICT %u; MAP_VA %u "
           "(refused %u), UNMAP_VA %u; UPDATE_VA %u (refused %u, of OFFLINE %u), re-reserved "
           "%u\n",
           S.moves_out, S.moves_in, S.make_resident, S.mr_nomem, S.evicts, S.maps, S.map_nomem,
           S.unmaps, S.updates, S.update_nomem, S.update_offline, S.rereserve);
    printf("residency: fills %u, checksums %u, copies %u, faults of OFFLINE %u, QUERY_VA %u\n",
           S.fills, S.sums, S.copies, S.faults, S.queries);
    printf("residency: wall time per kind:");
    for (size_t i = 0; i < sizeof mix / sizeof mix[0]; i++)
        printf(" %s %u/%.1fs", mix[i].name, mix[i].count, mix[i].secs);
    printf("\n");
}

int main(int argc, char **argv)
{
    const char *s = getenv("GMMU_RES_SEED"), *o = getenv("GMMU_RES_OPS");
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seed"))
            s = argv[i + 1];
        else if (!strcmp(argv[i], "--ops"))
            o = argv[i + 1];
        else {
            fprintf(stderr, "usage: %s [--seed N] [--ops N] (with GMMU_DEVICE set)\n", argv[0]);
            return 2;
        }
    }
    if (argc % 2 == 0) {
        fprintf(stderr, "usage: %s [--seed N] [--ops N]\n", argv[0]);
        return 2;
    }
    seed0 = s ? strtoull(s, NULL, 0) : 1;
    rng = seed0 ? seed0 : 1;
    if (o)
        nops = (unsigned)strtoul(o, NULL, 0);
    printf("residency: seed %#" PRIx64 " (--seed, GMMU_RES_SEED), %u ops (--ops, GMMU_RES_OPS)\n",
           seed0, nops);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_residency_random),
    };
    return soc_run_tests(tests, &dev);
}
