// SPDX-License-Identifier: Apache-2.0
/*
 * gmmu_demo: the scripted session `make demo` runs against the simulated
 * SoC, through libgmmu only, the way a kernel driver would drive the device.
 *
 *   gmmu_demo [-d DEVICE] [--residency]   (DEVICE defaults to $GMMU_DEVICE)
 *
 * --residency runs the over-commit story instead (issue 28), meant for a
 * SoC with a small VRAM (make demo starts a second simulator with 2 MiB of
 * DDR for it): about 1.5 times the VRAM allocated, engines checksumming all
 * of it, allocations moving between VRAM and a backing pool of this
 * process's memory while their VAs stay, every byte back.
 *
 * Every step checks its outcome against what the demo computed itself
 * (expected bytes, checksums, page sizes, fault reasons), and prints one
 * table row: step, result, device cycles, and the MMU's L1 TLB hits and
 * misses and page walks during the step. Exit status 0 when every step
 * passed, 1 otherwise.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmmu/engine_regs.h>
#include <gmmu/pte.h>
#include <gmmu/soc.h>

#include "libgmmu.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)

#define PAGES_4K  0x1u
#define PAGES_64K 0x2u
#define PAGES_2M  0x4u

enum { ENGINE_FILL = 0, ENGINE_COPY = 1, ENGINE_CHECKSUM = 2 };

/* The MMU counters the table shows, summed over the translation ports. */
struct mmu_totals {
    bool valid;
    uint32_t l1_hits, l1_misses, walks;
};

struct demo {
    struct gmmu_dev *dev;
    unsigned steps, failed;
    /* The step in progress. */
    uint32_t cycle0;
    struct mmu_totals mmu0;
    char result[64];
    bool ok;
};

struct buffer {
    uint32_t alloc;
    uint64_t base, size, va;
    uint32_t as;
};

/* ------------------------------------------------------------ the table */

static void read_mmu_totals(struct gmmu_dev *dev, struct mmu_totals *t)
{
    struct gmmu_mmu_perf p;
    memset(t, 0, sizeof(*t));
    if (gmmu_get_mmu_counters(dev, 0, &p) != 0)
        return;
    t->valid = true;
    for (uint32_t i = 0; i < p.c.ports; i++) {
        t->l1_hits += p.port[i].hits;
        t->l1_misses += p.port[i].misses;
    }
    t->walks = p.c.walks;
}

static void begin(struct demo *d)
{
    d->ok = true;
    d->result[0] = '\0';
    if (gmmu_bar_read(d->dev, GMMU_MBOX_CYCLE, &d->cycle0) != 0)
        d->cycle0 = 0;
    read_mmu_totals(d->dev, &d->mmu0);
}

static void say(struct demo *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->result, sizeof(d->result), fmt, ap);
    va_end(ap);
}

/* Records a failed check; the first one names the step's result. */
static bool check(struct demo *d, bool cond, const char *fmt, ...)
{
    if (cond)
        return true;
    if (d->ok) {
        va_list ap;
        va_start(ap, fmt);
        char why[sizeof(d->result) - 6];
        vsnprintf(why, sizeof(why), fmt, ap);
        va_end(ap);
        snprintf(d->result, sizeof(d->result), "FAIL %s", why);
    }
    d->ok = false;
    return false;
}

static bool call_ok(struct demo *d, int rc, const char *what)
{
    return check(d, rc == 0, "%s: %s", what, gmmu_strerror(rc));
}

static void end(struct demo *d, const char *step)
{
    uint32_t cycle1 = 0;
    struct mmu_totals mmu1;
    (void)gmmu_bar_read(d->dev, GMMU_MBOX_CYCLE, &cycle1);
    read_mmu_totals(d->dev, &mmu1);
    d->steps++;
    if (!d->ok)
        d->failed++;
    printf("%2u  %-34s %-42s %9" PRIu32, d->steps, step, d->result, cycle1 - d->cycle0);
    if (d->mmu0.valid && mmu1.valid)
        printf(" %8" PRIu32 " %7" PRIu32 " %6" PRIu32 "\n", mmu1.l1_hits - d->mmu0.l1_hits,
               mmu1.l1_misses - d->mmu0.l1_misses, mmu1.walks - d->mmu0.walks);
    else
        printf(" %8s %7s %6s\n", "-", "-", "-");
}

/* ------------------------------------------------------------ helpers */

static bool make_buffer(struct demo *d, struct buffer *b, uint32_t as, uint64_t size,
                        uint32_t pages, uint32_t map_flags)
{
    struct gmmu_alloc_req areq = { .size = size, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    if (pages == PAGES_64K)
        areq.flags |= GMMU_ALLOC_FLAG_PREFER_64K;
    struct gmmu_alloc_rsp arsp;
    if (!call_ok(d, gmmu_alloc(d->dev, &areq, &arsp), "ALLOC"))
        return false;
    *b = (struct buffer){ .alloc = arsp.handle, .base = arsp.base, .size = size, .as = as };
    struct gmmu_map_req mreq = { .as_handle = as,
                                 .alloc_handle = b->alloc,
                                 .size = size,
                                 .flags = map_flags,
                                 .page_sizes = pages };
    return call_ok(d, gmmu_map_va(d->dev, &mreq, &b->va), "MAP_VA");
}

/* The page size the tables give the buffer's first and last pages. */
static bool check_pages(struct demo *d, const struct buffer *b, unsigned want_shift)
{
    const uint64_t vas[2] = { b->va, b->va + b->size - 1 };
    for (int i = 0; i < 2; i++) {
        struct gmmu_query_rsp q;
        if (!call_ok(d, gmmu_query_va(d->dev, b->as, vas[i], &q), "QUERY_VA"))
            return false;
        uint64_t want_pa = b->base + (vas[i] - b->va);
        if (!check(d, q.state == 2 && q.pa == want_pa && q.page_shift == want_shift,
                   "VA %#" PRIx64 ": page 2^%u, PA %#" PRIx64, vas[i], q.page_shift, q.pa))
            return false;
    }
    return true;
}

static bool engine(struct demo *d, uint32_t eng, uint32_t op, const struct buffer *in, uint64_t dst,
                   uint64_t src, uint32_t len, uint64_t pattern, struct gmmu_engine_rsp *rsp)
{
    struct gmmu_engine_req req = { .engine = eng,
                                   .op = op,
                                   .as_handle = in->as,
                                   .length = len,
                                   .dst_va = dst,
                                   .src_va = src,
                                   .pattern = pattern };
    return call_ok(d, gmmu_engine_run(d->dev, &req, rsp), "ENGINE_RUN");
}

static bool engine_clean(struct demo *d, const struct gmmu_engine_rsp *r, uint32_t len)
{
    return check(d, !(r->engine_status & GMMU_ENGINE_STATUS_FAULT) && r->bytes_done == len,
                 "engine status %#x, %u bytes", r->engine_status, r->bytes_done);
}

static unsigned engine_fault_reason(const struct gmmu_engine_rsp *r)
{
    return (r->engine_status & GMMU_ENGINE_STATUS_REASON) >> GMMU_ENGINE_STATUS_REASON_LSB;
}

/* The engine's checksum, computed here: s1 sums the 64-bit words, s2 the
   running s1 (docs/engine.md). */
static void checksum(const uint64_t *w, size_t n, uint64_t *s1, uint64_t *s2)
{
    *s1 = *s2 = 0;
    for (size_t i = 0; i < n; i++) {
        *s1 += w[i];
        *s2 += *s1;
    }
}

/* Reads VRAM through the BAR1 aperture and compares it with want. */
static bool aperture_matches(struct demo *d, uint64_t vram, const uint64_t *want, size_t bytes)
{
    uint64_t *got = malloc(bytes);
    if (!check(d, got != NULL, "out of host memory"))
        return false;
    bool ok = call_ok(d, gmmu_vram_read(d->dev, vram, got, bytes), "aperture read");
    for (size_t i = 0; ok && i < bytes / 8; i++)
        ok = check(d, got[i] == want[i], "VRAM %#" PRIx64 ": %#" PRIx64 ", want %#" PRIx64,
                   vram + 8 * i, got[i], want[i]);
    free(got);
    return ok;
}

/* ------------------------------------------------------------ the session */

struct session {
    struct gmmu_vram_rsp vram0;
    uint32_t as_a, as_b, asid_a, asid_b;
    struct buffer b4k, b64k, b2m, ro, sys;
    uint64_t sys_bus;
    void *sys_host;
    uint64_t zero_va;
    uint64_t *model; /* what b2m should hold */
};

#define DEMO_TIMEOUT_MS 120000
#define FILL_LEN        (256u * 1024u)
#define ZERO_RANGE      (1 * MIB)
static const uint64_t PATTERN = 0x6D6D7567A5A5C3C3ull; /* "gumm" */

static void step_start(struct demo *d, struct session *s)
{
    begin(d);
    struct gmmu_info info;
    if (call_ok(d, gmmu_get_info(d->dev, &info), "GET_INFO") &&
        call_ok(d, gmmu_get_vram(d->dev, &s->vram0), "GET_VRAM"))
        say(d, "VRAM %" PRIu64 " MiB, %" PRIu64 " MiB free", s->vram0.segment_bytes / MIB,
            s->vram0.free_bytes / MIB);
    end(d, "connect, read VRAM accounting");
}

static void step_address_spaces(struct demo *d, struct session *s)
{
    begin(d);
    if (call_ok(d, gmmu_create_as(d->dev, &s->as_a, &s->asid_a), "CREATE_AS") &&
        call_ok(d, gmmu_create_as(d->dev, &s->as_b, &s->asid_b), "CREATE_AS") &&
        check(d, s->asid_a != s->asid_b, "both got ASID %u", s->asid_a))
        say(d, "A on ASID %u, B on ASID %u", s->asid_a, s->asid_b);
    end(d, "create address spaces A and B");
}

static void step_map(struct demo *d, struct session *s, struct buffer *b, uint64_t size,
                     uint32_t pages, uint32_t flags, unsigned shift, const char *name)
{
    begin(d);
    if (make_buffer(d, b, s->as_a, size, pages, flags) && check_pages(d, b, shift))
        say(d, "%" PRIu64 " KiB at VA %#" PRIx64 "%s", size / KIB, b->va,
            (flags & GMMU_MAP_FLAG_READ_ONLY) ? " (RO)" : "");
    end(d, name);
}

static void step_fill(struct demo *d, struct session *s)
{
    begin(d);
    struct gmmu_engine_rsp r;
    if (engine(d, 0, ENGINE_FILL, &s->b4k, s->b4k.va, 0, FILL_LEN, PATTERN, &r) &&
        engine_clean(d, &r, FILL_LEN))
        say(d, "engine 0: %u KiB in %u cycles", FILL_LEN / 1024, r.cycles);
    end(d, "fill 4 KB-page buffer");
}

/* 4 KB pages -> 64 KB pages -> 2 MB page, one engine each. */
static void step_copies(struct demo *d, struct session *s)
{
    begin(d);
    struct gmmu_engine_rsp r1, r2;
    uint64_t dst2 = s->b2m.va + 1 * MIB;
    if (engine(d, 1, ENGINE_COPY, &s->b4k, s->b64k.va, s->b4k.va, FILL_LEN, 0, &r1) &&
        engine_clean(d, &r1, FILL_LEN) &&
        engine(d, 2, ENGINE_COPY, &s->b4k, dst2, s->b64k.va, FILL_LEN, 0, &r2) &&
        engine_clean(d, &r2, FILL_LEN))
        say(d, "engines 1, 2: 2 x %u KiB", FILL_LEN / 1024);
    for (size_t i = 0; i < FILL_LEN / 8; i++)
        s->model[MIB / 8 + i] = PATTERN;
    end(d, "copy 4K -> 64K -> 2M pages");
}

/* Each 32-bit BAR1 read is one link round trip (hundreds of device cycles
   in simulation), so the aperture check reads windows around the copied
   range's edges and its middle; the checksum step covers every byte. */
static void step_readback(struct demo *d, struct session *s)
{
    begin(d);
    const uint64_t window = 4 * KIB;
    const uint64_t at[] = { 1 * MIB - window / 2, 1 * MIB + FILL_LEN / 2,
                            1 * MIB + FILL_LEN - window / 2 };
    bool ok = true;
    for (size_t i = 0; ok && i < sizeof(at) / sizeof(at[0]); i++)
        ok = aperture_matches(d, s->b2m.base + at[i], s->model + at[i] / 8, window);
    if (ok)
        say(d, "3 x 4 KiB around the copy match");
    end(d, "read back through the aperture");
}

static void step_checksum(struct demo *d, struct session *s)
{
    begin(d);
    uint64_t s1, s2;
    checksum(s->model, s->b2m.size / 8, &s1, &s2);
    struct gmmu_engine_rsp r;
    uint32_t len = (uint32_t)s->b2m.size;
    if (engine(d, 3, ENGINE_CHECKSUM, &s->b2m, 0, s->b2m.va, len, 0, &r) &&
        engine_clean(d, &r, len) &&
        check(d, r.result == s1 && r.result2 == s2, "checksum %#" PRIx64 ", want %#" PRIx64,
              r.result, s1))
        say(d, "engine 3: %#" PRIx64 " as computed", r.result);
    end(d, "checksum the 2 MB page");
}

/* A reserved range whose tiles are Zero PTEs: reads give zeros, writes are
   dropped (the DXGK_PTE Zero bit). */
static void step_zero_tiles(struct demo *d, struct session *s)
{
    begin(d);
    struct gmmu_update_op op = { .op = GMMU_UPDATE_OP_UNMAP,
                                 .flags = GMMU_MAP_FLAG_ZERO,
                                 .size = ZERO_RANGE };
    struct gmmu_engine_rsp fill, sum;
    struct buffer in_a = { .as = s->as_a };
    if (call_ok(d, gmmu_reserve_va(d->dev, s->as_a, 0, 0, ZERO_RANGE, &s->zero_va), "RESERVE_VA") &&
        (op.va = s->zero_va, call_ok(d, gmmu_update_va(d->dev, s->as_a, &op, 1), "UPDATE_VA")) &&
        engine(d, 0, ENGINE_FILL, &in_a, s->zero_va, 0, 64 * 1024, PATTERN, &fill) &&
        engine_clean(d, &fill, 64 * 1024) &&
        engine(d, 1, ENGINE_CHECKSUM, &in_a, 0, s->zero_va, 64 * 1024, 0, &sum) &&
        engine_clean(d, &sum, 64 * 1024) &&
        check(d, sum.result == 0 && sum.result2 == 0, "read back %#" PRIx64, sum.result))
        say(d, "1 MiB reserved; fill dropped, reads zero");
    end(d, "Zero tiles in a reserved range");
}

/* Pages in host memory (PTE Segment 0): the host registers a buffer with
   the link, VidMm maps it, an engine copies VRAM into it, and the host
   reads the bytes straight from its own memory. */
static void step_system_memory(struct demo *d, struct session *s)
{
    begin(d);
    const uint32_t len = 64 * 1024;
    struct gmmu_alloc_req areq = { .size = len, .flags = GMMU_ALLOC_FLAG_SYSTEM };
    struct gmmu_alloc_rsp arsp;
    struct gmmu_engine_rsp r;
    s->sys = (struct buffer){ .as = s->as_a, .size = len };
    struct gmmu_map_req mreq = { .as_handle = s->as_a,
                                 .size = len,
                                 .flags = GMMU_MAP_FLAG_CACHE_COHERENT };
    bool ok =
        call_ok(d, gmmu_sysmem_alloc(d->dev, len, &s->sys_bus, &s->sys_host), "sysmem") &&
        (areq.sys_addr = s->sys_bus,
         call_ok(d, gmmu_alloc(d->dev, &areq, &arsp), "ALLOC system")) &&
        (s->sys.alloc = mreq.alloc_handle = arsp.handle,
         call_ok(d, gmmu_map_va(d->dev, &mreq, &s->sys.va), "MAP_VA")) &&
        engine(d, 2, ENGINE_COPY, &s->sys, s->sys.va, s->b2m.va + 1 * MIB - len / 2, len, 0, &r) &&
        engine_clean(d, &r, len);
    const uint8_t *want = (const uint8_t *)(s->model + (1 * MIB - len / 2) / 8);
    if (ok && check(d, memcmp(s->sys_host, want, len) == 0, "host buffer differs"))
        say(d, "64 KiB copied to host memory at %#" PRIx64, s->sys_bus);
    end(d, "engine copy into system memory");
}

/* Takes the fault events the firmware posted for an engine's faulting run:
   one per faulting translation (the engine has several chunks in flight),
   each with the reason and a VA in [va, va + len), the first at va. */
static bool fault_events_match(struct demo *d, uint64_t va, uint32_t len, unsigned reason,
                               unsigned *count)
{
    struct gmmu_event ev;
    bool seen_first = false;
    *count = 0;
    int rc = gmmu_wait_event(d->dev, 2000, &ev);
    if (!call_ok(d, rc, "fault event"))
        return false;
    do {
        const struct gmmu_fault_evt *f = &ev.u.fault;
        if (!check(d,
                   ev.type == GMMU_EVT_FAULT && f->reason == reason && f->va >= va &&
                       f->va < va + len,
                   "event %u: VA %#" PRIx64 " reason %u", ev.type, f->va, f->reason))
            return false;
        seen_first |= f->va == va;
        (*count)++;
    } while ((rc = gmmu_next_event(d->dev, &ev)) == 1);
    return call_ok(d, rc, "next event") && check(d, seen_first, "no event at %#" PRIx64, va);
}

static void step_fault_read_only(struct demo *d, struct session *s)
{
    begin(d);
    struct gmmu_engine_rsp r;
    unsigned events;
    if (engine(d, 0, ENGINE_FILL, &s->ro, s->ro.va, 0, 4096, PATTERN, &r) &&
        check(d,
              (r.engine_status & GMMU_ENGINE_STATUS_FAULT) &&
                  engine_fault_reason(&r) == GMMU_FAULT_READ_ONLY && r.fault_va == s->ro.va,
              "engine status %#x", r.engine_status) &&
        fault_events_match(d, s->ro.va, 4096, GMMU_FAULT_READ_ONLY, &events))
        say(d, "write at %#" PRIx64 ": READ_ONLY, %u events", r.fault_va, events);
    end(d, "fault: write to the read-only range");
}

/* B has nothing mapped where A has its 64 KB buffer. */
static void step_fault_isolation(struct demo *d, struct session *s)
{
    begin(d);
    struct gmmu_engine_rsp r;
    unsigned events;
    struct buffer in_b = { .as = s->as_b };
    if (engine(d, 1, ENGINE_CHECKSUM, &in_b, 0, s->b64k.va, 4096, 0, &r) &&
        check(d,
              (r.engine_status & GMMU_ENGINE_STATUS_FAULT) &&
                  engine_fault_reason(&r) == GMMU_FAULT_INVALID,
              "engine status %#x", r.engine_status) &&
        fault_events_match(d, s->b64k.va, 4096, GMMU_FAULT_INVALID, &events))
        say(d, "read of A's VA in B: INVALID, %u events", events);
    end(d, "fault: B cannot reach A's memory");
}

/* Four engines at once, and tiles remapped between their jobs in fence
   order (ordered paging): four COPYs read one tile each (the first 256 KiB
   of the 2 MB page: zeros) while a queued UPDATE_SUBMIT batch waits for
   their fence and then points the four tiles at the pattern the copies
   step left at 1 MiB; four more COPYs, queued behind on the same engines,
   wait for the batch's fence. The first wave must copy zeros and the
   second the pattern, into the 64 KB-page buffer, checked by checksums.
   A plain UPDATE_VA of a tile the queued jobs need is BUSY meanwhile. */
#define TILE_64K (64 * KIB)
static void step_ordered_tiles(struct demo *d, struct session *s)
{
    begin(d);
    enum { TILES = GMMU_ENGINES };
    uint64_t rsv = 0;
    uint32_t go = 0, read = 0, swapped = 0, done[TILES] = { 0 };
    struct gmmu_fence_info fi;
    struct gmmu_update_op ops[TILES];
    bool ok =
        call_ok(d, gmmu_reserve_va(d->dev, s->as_a, 0, 0, TILES * TILE_64K, &rsv), "RESERVE_VA");
    for (uint32_t k = 0; k < TILES; k++)
        ops[k] = (struct gmmu_update_op){ .op = GMMU_UPDATE_OP_MAP,
                                          .va = rsv + k * TILE_64K,
                                          .size = TILE_64K,
                                          .alloc_handle = s->b2m.alloc,
                                          .arg = k * TILE_64K };
    ok = ok && call_ok(d, gmmu_update_va(d->dev, s->as_a, ops, TILES), "UPDATE_VA");
    uint32_t *fences[] = { &go, &read, &swapped, &done[0], &done[1], &done[2], &done[3] };
    for (size_t i = 0; ok && i < sizeof(fences) / sizeof(fences[0]); i++)
        ok = call_ok(d, gmmu_fence_create(d->dev, 0, &fi), "FENCE_CREATE") &&
             (*fences[i] = fi.handle) != 0;
    for (uint32_t k = 0; ok && k < TILES; k++) {
        struct gmmu_engine_submit_req rq = { .engine = k,
                                             .op = ENGINE_COPY,
                                             .as_handle = s->as_a,
                                             .length = TILE_64K,
                                             .dst_va = s->b64k.va + k * TILE_64K,
                                             .src_va = rsv + k * TILE_64K,
                                             .wait_handle = go,
                                             .wait_value = 1,
                                             .signal_handle = read,
                                             .signal_value = 1 };
        ok = call_ok(d, gmmu_engine_submit(d->dev, &rq, NULL), "ENGINE_SUBMIT");
        rq.dst_va += 4 * TILE_64K;
        rq.wait_handle = swapped;
        rq.signal_handle = done[k];
        ok = ok && call_ok(d, gmmu_engine_submit(d->dev, &rq, NULL), "ENGINE_SUBMIT");
        ops[k].arg = 1 * MIB + k * TILE_64K; /* the pattern */
    }
    struct gmmu_update_submit_req brq = { .as_handle = s->as_a,
                                          .wait_handle = read,
                                          .wait_value = 1,
                                          .signal_handle = swapped,
                                          .signal_value = 1 };
    ok = ok && call_ok(d, gmmu_update_submit(d->dev, &brq, ops, TILES, NULL), "UPDATE_SUBMIT");
    int busy = ok ? gmmu_update_va(d->dev, s->as_a, ops, 1) : 0;
    ok = ok &&
         check(d, busy == GMMU_STATUS_BUSY, "UPDATE_VA under queued jobs: %s",
               gmmu_strerror(busy)) &&
         call_ok(d, gmmu_fence_signal(d->dev, go, 1, NULL), "FENCE_SIGNAL");
    for (uint32_t k = 0; ok && k < TILES; k++)
        ok = call_ok(d, gmmu_fence_wait(d->dev, done[k], 1, DEMO_TIMEOUT_MS), "FENCE_WAIT");
    uint64_t z1, z2, p1, p2;
    checksum(s->model, TILE_64K / 8, &z1, &z2);
    checksum(s->model + MIB / 8, TILE_64K / 8, &p1, &p2);
    for (uint32_t k = 0; ok && k < 2 * TILES; k++) {
        struct gmmu_engine_rsp r;
        uint64_t want = k < TILES ? z1 : p1;
        ok = engine(d, k % TILES, ENGINE_CHECKSUM, &s->b64k, 0, s->b64k.va + k * TILE_64K, TILE_64K,
                    0, &r) &&
             engine_clean(d, &r, TILE_64K) &&
             check(d, r.result == want, "copy %u: checksum %#" PRIx64 ", want %#" PRIx64, k,
                   r.result, want);
    }
    struct gmmu_update_queue_rsp uq;
    ok = ok && call_ok(d, gmmu_update_queue(d->dev, &uq), "UPDATE_QUEUE") &&
         check(d, uq.queued == 0 && uq.last_status == 0, "batch ended %s",
               gmmu_strerror((int)uq.last_status));
    ok = ok && call_ok(d, gmmu_unmap_va(d->dev, s->as_a, rsv, TILES * TILE_64K), "UNMAP_VA");
    for (size_t i = 0; i < sizeof(fences) / sizeof(fences[0]); i++)
        if (*fences[i])
            (void)gmmu_fence_destroy(d->dev, *fences[i]);
    if (ok)
        say(d, "4 engines x 2 copies; tiles swapped between");
    end(d, "tiles remapped between jobs");
}

static void step_teardown(struct demo *d, struct session *s)
{
    begin(d);
    struct buffer *bufs[] = { &s->b4k, &s->b64k, &s->b2m, &s->ro, &s->sys };
    bool ok = call_ok(d, gmmu_unmap_va(d->dev, s->as_a, s->zero_va, ZERO_RANGE), "UNMAP_VA");
    for (size_t i = 0; ok && i < sizeof(bufs) / sizeof(bufs[0]); i++)
        ok = call_ok(d, gmmu_unmap_va(d->dev, s->as_a, bufs[i]->va, bufs[i]->size), "UNMAP_VA") &&
             call_ok(d, gmmu_free(d->dev, bufs[i]->alloc), "FREE");
    ok = ok && call_ok(d, gmmu_sysmem_free(d->dev, s->sys_bus), "sysmem free");
    struct gmmu_vram_rsp v;
    if (ok && call_ok(d, gmmu_destroy_as(d->dev, s->as_a), "DESTROY_AS") &&
        call_ok(d, gmmu_destroy_as(d->dev, s->as_b), "DESTROY_AS") &&
        call_ok(d, gmmu_get_vram(d->dev, &v), "GET_VRAM") &&
        check(d, v.free_bytes == s->vram0.free_bytes && v.tables == s->vram0.tables,
              "free %" PRIu64 " B, was %" PRIu64, v.free_bytes, s->vram0.free_bytes))
        say(d, "VRAM free %" PRIu64 " MiB, as at the start", v.free_bytes / MIB);
    end(d, "unmap, free, destroy everything");
}

static void run_session(struct demo *d)
{
    struct session s = { 0 };
    s.model = calloc(2 * MIB / 8, sizeof(uint64_t));
    if (!s.model) {
        fprintf(stderr, "gmmu_demo: out of memory\n");
        d->failed++;
        return;
    }
    step_start(d, &s);
    step_address_spaces(d, &s);
    step_map(d, &s, &s.b4k, FILL_LEN, PAGES_4K, 0, 12, "map 256 KiB with 4 KB pages");
    step_map(d, &s, &s.b64k, 1 * MIB, PAGES_64K, 0, 16, "map 1 MiB with 64 KB pages");
    step_map(d, &s, &s.b2m, 2 * MIB, PAGES_2M, 0, 21, "map 2 MiB as one 2 MB page");
    step_map(d, &s, &s.ro, 64 * KIB, 0, GMMU_MAP_FLAG_READ_ONLY, 16, "map 64 KiB read-only");
    /* The 2 MB buffer starts as whatever VRAM held: clear it first. */
    begin(d);
    struct gmmu_engine_rsp r;
    if (engine(d, 3, ENGINE_FILL, &s.b2m, s.b2m.va, 0, (uint32_t)s.b2m.size, 0, &r) &&
        engine_clean(d, &r, (uint32_t)s.b2m.size))
        say(d, "engine 3: 2 MiB of zeros");
    end(d, "clear the 2 MB page");
    step_fill(d, &s);
    step_copies(d, &s);
    step_readback(d, &s);
    step_checksum(d, &s);
    step_system_memory(d, &s);
    step_zero_tiles(d, &s);
    step_fault_read_only(d, &s);
    step_fault_isolation(d, &s);
    step_ordered_tiles(d, &s);
    step_teardown(d, &s);
    free(s.model);
}

/* ------------------------------------------------------------ residency */

/* The over-commit story on a small VRAM, in three VRAM_PREFERRED
   allocations sized from the segment: the first two fill VRAM, the third
   (about half the segment, so that the three make about 1.5 times it)
   starts in the backing pool. Each is made resident in turn (MAKE_RESIDENT),
   checksummed by an engine through its VA and evicted (EVICT: count back
   to 0); making the third resident brings it in and moves the least
   recently used one, the first, out. Three allocations rather than many
   small ones: a move has a fixed cost of 100-200 k cycles, and this step
   must stay short. */
#define RES_N        3
#define UNIT_64K     (64 * KIB)
#define RES_MIN_OVER 1.4 /* the three against the segment, at least */

struct res_alloc {
    uint32_t h;
    uint64_t size, va;
    unsigned first_state, state;
};

struct residency {
    struct gmmu_vram_rsp vram0;
    uint32_t as;
    uint64_t pool_bus, pool_bytes;
    uint8_t *pool_host;
    struct res_alloc a[RES_N];
};

static uint64_t down64k(uint64_t x)
{
    return x & ~(UNIT_64K - 1);
}

static uint64_t res_pattern(unsigned k)
{
    return PATTERN ^ ((uint64_t)(k + 1) << 40) ^ ((uint64_t)(k + 1) << 8);
}

static bool res_free_now(struct demo *d, uint64_t *free_bytes)
{
    struct gmmu_vram_rsp v;
    if (!call_ok(d, gmmu_get_vram(d->dev, &v), "GET_VRAM"))
        return false;
    *free_bytes = v.free_bytes;
    return true;
}

/* The VA maps the segment of the state (VRAM: 1, pool: 0), same VA. */
static bool res_va_ok(struct demo *d, const struct residency *r, const struct res_alloc *a,
                      struct gmmu_query_rsp *q)
{
    unsigned seg = a->state == GMMU_ALLOC_STATE_VRAM ? GMMU_SEGMENT_VRAM : GMMU_SEGMENT_SYSTEM;
    return call_ok(d, gmmu_query_va(d->dev, r->as, a->va, q), "QUERY_VA") &&
           check(d, q->state == 2 && q->segment == seg, "VA %#" PRIx64 ": segment %u, want %u",
                 a->va, q->segment, seg);
}

static void res_setup(struct demo *d, struct residency *r)
{
    begin(d);
    void *host = NULL;
    uint32_t asid;
    bool ok = call_ok(d, gmmu_get_vram(d->dev, &r->vram0), "GET_VRAM");
    /* enough for what does not fit in VRAM, with room to spare */
    r->pool_bytes = down64k(r->vram0.segment_bytes * 3 / 2 + UNIT_64K);
    ok = ok &&
         call_ok(d, gmmu_sysmem_alloc(d->dev, r->pool_bytes, &r->pool_bus, &host), "sysmem") &&
         (r->pool_host = host,
          call_ok(d, gmmu_add_backing(d->dev, r->pool_bus, r->pool_bytes), "ADD_BACKING")) &&
         call_ok(d, gmmu_create_as(d->dev, &r->as, &asid), "CREATE_AS");
    if (ok)
        say(d, "VRAM %" PRIu64 " KiB, pool %" PRIu64 " KiB", r->vram0.segment_bytes / KIB,
            r->pool_bytes / KIB);
    end(d, "backing pool of host memory");
}

/* ALLOC, MAP_VA and an engine fill of allocation k. */
static bool res_make(struct demo *d, struct residency *r, unsigned k, uint64_t size)
{
    struct res_alloc *a = &r->a[k];
    struct gmmu_alloc_req areq = { .size = size, .flags = GMMU_ALLOC_FLAG_VRAM_PREFERRED };
    struct gmmu_alloc_rsp arsp = { 0 };
    struct gmmu_engine_rsp e;
    a->size = size;
    bool ok = check(d, size >= UNIT_64K, "VRAM too small for this step") &&
              call_ok(d, gmmu_alloc(d->dev, &areq, &arsp), "ALLOC");
    a->h = arsp.handle;
    struct gmmu_map_req mreq = { .as_handle = r->as, .alloc_handle = a->h, .size = size };
    ok = ok && call_ok(d, gmmu_map_va(d->dev, &mreq, &a->va), "MAP_VA") &&
         engine(d, k, ENGINE_FILL, &(struct buffer){ .as = r->as }, a->va, 0, (uint32_t)size,
                res_pattern(k), &e) &&
         engine_clean(d, &e, (uint32_t)size);
    /* where ALLOC put it: its first piece in VRAM or in the pool */
    bool pool = arsp.base >= r->pool_bus && arsp.base < r->pool_bus + r->pool_bytes;
    a->state = a->first_state = pool ? GMMU_ALLOC_STATE_BACKING : GMMU_ALLOC_STATE_VRAM;
    return ok;
}

static void res_overcommit(struct demo *d, struct residency *r)
{
    begin(d);
    uint64_t free0 = 0, free1 = 0, free2 = 0, total = 0;
    /* 4/7 of VRAM, then what is left but for the tables the mappings may
       take; the third as large as evicting the first alone makes room for */
    bool ok = res_free_now(d, &free0) && res_make(d, r, 0, down64k(free0 * 4 / 7)) &&
              res_free_now(d, &free1) && res_make(d, r, 1, down64k(free1) - 2 * UNIT_64K) &&
              res_free_now(d, &free2) &&
              res_make(d, r, 2, down64k(free2 + r->a[0].size) - UNIT_64K);
    for (unsigned k = 0; k < RES_N; k++)
        total += r->a[k].size;
    double over = (double)total / (double)r->vram0.segment_bytes;
    /* ALLOC with VRAM_PREFERRED moves nothing: the first two are in VRAM,
       the third in the pool */
    for (unsigned k = 0; ok && k < RES_N; k++)
        ok = check(d, r->a[k].state == (k < 2 ? GMMU_ALLOC_STATE_VRAM : GMMU_ALLOC_STATE_BACKING),
                   "allocation %u in state %u", k, r->a[k].state);
    if (ok && check(d, over >= RES_MIN_OVER, "only %.2fx VRAM", over))
        say(d, "%" PRIu64 "+%" PRIu64 "+%" PRIu64 " KiB = %.2fx VRAM", r->a[0].size / KIB,
            r->a[1].size / KIB, r->a[2].size / KIB, over);
    end(d, "allocate 1.5x VRAM, engines fill it");
}

static void res_checksum_all(struct demo *d, struct residency *r)
{
    begin(d);
    unsigned moves = 0;
    bool ok = true;
    /* in order: the resident ones, then the one in the pool, which comes
       in and pushes the least recently used (the first) out */
    for (unsigned k = 0; ok && k < RES_N; k++) {
        struct res_alloc *a = &r->a[k];
        struct gmmu_engine_rsp e;
        struct gmmu_query_rsp q;
        uint64_t s1 = 0, s2 = 0;
        a->state = GMMU_ALLOC_STATE_VRAM; /* QUERY_VA must say segment 1 */
        ok = call_ok(d, gmmu_make_resident(d->dev, &a->h, 1, NULL), "MAKE_RESIDENT") &&
             res_va_ok(d, r, a, &q) &&
             engine(d, k, ENGINE_CHECKSUM, &(struct buffer){ .as = r->as }, 0, a->va,
                    (uint32_t)a->size, 0, &e) &&
             engine_clean(d, &e, (uint32_t)a->size);
        for (uint64_t i = 0; i < a->size / 8; i++) {
            s1 += res_pattern(k);
            s2 += s1;
        }
        ok = ok &&
             check(d, e.result == s1 && e.result2 == s2, "allocation %u: checksum %#" PRIx64, k,
                   e.result) &&
             call_ok(d, gmmu_evict(d->dev, &a->h, 1), "EVICT");
    }
    /* who moved: the third in, the first out, the second stayed */
    for (unsigned k = 0; ok && k < RES_N; k++) {
        struct gmmu_alloc_info i;
        ok = call_ok(d, gmmu_query_alloc(d->dev, r->a[k].h, &i), "QUERY_ALLOC");
        r->a[k].state = i.state;
        moves += i.state != r->a[k].first_state;
        ok = ok && check(d, i.state == (k == 0 ? GMMU_ALLOC_STATE_BACKING : GMMU_ALLOC_STATE_VRAM),
                         "allocation %u in state %u", k, i.state);
    }
    if (ok)
        say(d, "%u checksums as filled; %u moves", RES_N, moves);
    end(d, "make resident, checksum each");
}

/* The one pushed out: same VA, now segment 0, its bytes in the pool. */
static void res_moved_out(struct demo *d, struct residency *r)
{
    begin(d);
    const struct res_alloc *a = &r->a[0];
    struct gmmu_query_rsp first, last;
    bool ok = res_va_ok(d, r, a, &first) &&
              call_ok(d, gmmu_query_va(d->dev, r->as, a->va + a->size - 8, &last), "QUERY_VA") &&
              check(d, last.pa == first.pa + a->size - 8, "pieces at %#" PRIx64, first.pa) &&
              check(d, first.pa >= r->pool_bus && first.pa + a->size <= r->pool_bus + r->pool_bytes,
                    "PA %#" PRIx64 " outside the pool", first.pa);
    /* one run of pool pages (the pool is taken first fit, and was empty
       below where the third one had been) */
    const uint64_t *w = ok ? (const uint64_t *)(r->pool_host + (first.pa - r->pool_bus)) : NULL;
    for (size_t i = 0; ok && i < a->size / 8; i++)
        ok = check(d, w[i] == res_pattern(0), "word %zu differs", i);
    if (ok)
        say(d, "VA %#" PRIx64 " -> host %#" PRIx64 ", as filled", a->va, first.pa);
    end(d, "moved out: same VA, bytes in the pool");
}

static void res_teardown(struct demo *d, struct residency *r)
{
    begin(d);
    bool ok = true;
    for (unsigned k = 0; ok && k < RES_N; k++)
        ok = call_ok(d, gmmu_free(d->dev, r->a[k].h), "FREE");
    struct gmmu_vram_rsp v;
    if (ok && call_ok(d, gmmu_destroy_as(d->dev, r->as), "DESTROY_AS") &&
        call_ok(d, gmmu_get_vram(d->dev, &v), "GET_VRAM") &&
        check(d, v.free_bytes == r->vram0.free_bytes && v.backing_free == v.backing_bytes,
              "free %" PRIu64 " B, was %" PRIu64, v.free_bytes, r->vram0.free_bytes))
        say(d, "VRAM and pool free as at the start");
    end(d, "free everything");
}

static void run_residency(struct demo *d)
{
    struct residency r = { 0 };
    res_setup(d, &r);
    res_overcommit(d, &r);
    res_checksum_all(d, &r);
    res_moved_out(d, &r);
    /* where each one was: the VA never changed */
    for (unsigned k = 0; k < RES_N; k++)
        printf("    allocation %u, %4" PRIu64 " KiB at VA %#" PRIx64 ": %s, then %s\n", k,
               (uint64_t)(r.a[k].size / KIB), r.a[k].va,
               r.a[k].first_state == GMMU_ALLOC_STATE_VRAM ? "VRAM" : "the pool",
               r.a[k].state == GMMU_ALLOC_STATE_VRAM ? "VRAM" : "the pool");
    res_teardown(d, &r);
}

int main(int argc, char **argv)
{
    /* One row at a time, also when the output is a pipe or a log. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct demo d = { 0 };
    const char *spec = getenv("GMMU_DEVICE");
    bool residency = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d") && i + 1 < argc)
            spec = argv[++i];
        else if (!strcmp(argv[i], "--residency"))
            residency = true;
        else {
            fprintf(stderr, "usage: gmmu_demo [-d DEVICE] [--residency]\n");
            return 64;
        }
    }
    if (!spec) {
        fprintf(stderr, "gmmu_demo: no device (-d or GMMU_DEVICE)\n");
        return 64;
    }
    int rc = gmmu_open(spec, &d.dev);
    if (rc) {
        fprintf(stderr, "gmmu_demo: %s: %s\n", spec, gmmu_strerror(rc));
        return 1;
    }
    /* Commands take device cycles, and a simulated device on a busy
       machine runs far slower than real time. */
    gmmu_set_timeout(d.dev, DEMO_TIMEOUT_MS);
    printf("%2s  %-34s %-42s %9s %8s %7s %6s\n", "#", "step", "result", "cycles", "L1 hits",
           "misses", "walks");
    if (residency)
        run_residency(&d);
    else
        run_session(&d);
    gmmu_close(d.dev);
    printf("%u of %u steps passed\n", d.steps - d.failed, d.steps);
    return d.failed ? 1 : 0;
}
