// SPDX-License-Identifier: Apache-2.0
/*
 * Residency moves in device cycles, on the simulated SoC (issue 28): a 2 MB
 * and a 64 MB VRAM_PREFERRED allocation brought into VRAM from the backing
 * pool (MAKE_RESIDENT) and moved out to it again (a VRAM-only ALLOC that
 * needs its room: the firmware has no command that moves an allocation out
 * by itself), each size twice: mapped with 4 KB pages in two address
 * spaces, and not mapped at all.
 *
 * The unmapped move is the paging engine's COPY with the move's fixed cost
 * around it (no page table points at the allocation); its engine busy
 * cycles (PERF_BUSY_CYCLES: the COPY packet and the move's FENCE) are the
 * COPY's rate on that route measured alone. The mapped move is the same
 * copy plus the rewrite of every PTE in both spaces; the rewrite's cycles
 * are the mapped move's less the unmapped move's, per page-table word
 * written (GET_PT_STATS). Cycles are CPL_LATENCY (the mailbox hardware's
 * doorbell-to-completion count).
 *
 * Checked (a failed check fails the run): the pool holds what the host
 * wrote there; the move in brings it to VRAM (GPU engine checksums of
 * windows through both address spaces against the host's own sums); the
 * move out writes it back to the pool (poisoned first, compared whole);
 * QUERY_ALLOC and QUERY_VA of both mappings (the same VA, the segment and
 * PA of the allocation's state) after every move; the engine's beats cover
 * the copy; VRAM, pool and tables are back where they started at the end.
 *
 *   bench_residency [--smoke]     (--smoke: the 2 MB case only)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmmu/engine_regs.h>
#include <gmmu/pte.h>

#include "bench_sample.h"
#include "libgmmu.h"

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)

#define PAGES_4K   0x1u
#define PAGE_4K    (4 * KIB)
#define POOL_UNIT  (64 * KIB) /* the pool's pieces, and ADD_BACKING's alignment */
#define POOL_BYTES (64 * MIB + 2 * MIB)
#define WINDOW     (4 * KIB) /* engine checksum windows */
#define POISON     0x5Au
#define SLACK      (1 * MIB) /* VRAM left free beside the moving allocation */

#define TIMEOUT_MS 3600000 /* a 64 MB mapping of 4 KB pages is minutes of wall clock */

/* Issue 28's targets: the copy at >= 0.8 of the engine's COPY alone; the
   PTE rewrite (paging-engine targets) <= 2 cycles per word from 512 words. */
#define COPY_RATIO_TARGET 0.8
#define WORDS_TARGETED    512u
#define CYC_WORD_TARGET   2.0

static struct gmmu_dev *dev;
static int failures, targets_missed;
static uint32_t as_a, as_b;
static uint64_t pool_bus;
static uint8_t *pool_host;

static const char prog[] = "bench_residency";

static void die(const char *what, int rc)
{
    bench_die(prog, what, rc);
}

static bool check(bool ok, const char *fmt, uint64_t a, uint64_t b)
{
    if (ok)
        return true;
    fprintf(stderr, "bench_residency: FAIL: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    failures++;
    return false;
}

static struct gmmu_alloc_info query_alloc(uint32_t h)
{
    struct gmmu_alloc_info i;
    int rc = gmmu_query_alloc(dev, h, &i);
    if (rc)
        die("QUERY_ALLOC", rc);
    return i;
}

static uint32_t alloc(uint64_t size, uint32_t flags)
{
    struct gmmu_alloc_req req = { .size = size, .flags = flags };
    struct gmmu_alloc_rsp rsp;
    int rc = gmmu_alloc(dev, &req, &rsp);
    if (rc)
        die("ALLOC", rc);
    return rsp.handle;
}

static void free_alloc(uint32_t h)
{
    int rc = gmmu_free(dev, h);
    if (rc)
        die("FREE", rc);
}

static struct gmmu_vram_rsp vram(void)
{
    struct gmmu_vram_rsp v;
    int rc = gmmu_get_vram(dev, &v);
    if (rc)
        die("GET_VRAM", rc);
    return v;
}

/* The contents the host puts in the pool: every word different, so a copy
   that drops, repeats or shifts a block shows. */
static uint64_t word_at(uint64_t tag, uint64_t i)
{
    return (i + 1) * UINT64_C(0x9E3779B97F4A7C15) ^ tag;
}

static void checksum(uint64_t tag, uint64_t first, uint64_t n, uint64_t *s1, uint64_t *s2)
{
    *s1 = *s2 = 0;
    for (uint64_t i = first; i < first + n; i++) {
        *s1 += word_at(tag, i);
        *s2 += *s1;
    }
}

/* The allocation's bytes in the pool, at QUERY_ALLOC's first piece (one
   piece: the pool is empty but for it, and taken first fit). */
static bool pool_holds(const struct gmmu_alloc_info *i, uint64_t tag)
{
    if (!check(i->extents == 1, "%" PRIu64 " pool pieces, expected %" PRIu64, i->extents, 1))
        return false;
    if (!check(i->base >= pool_bus && i->base + i->size <= pool_bus + POOL_BYTES,
               "pool piece at %#" PRIx64 " outside the pool at %#" PRIx64, i->base, pool_bus))
        return false;
    const uint64_t *w = (const uint64_t *)(pool_host + (i->base - pool_bus));
    for (uint64_t k = 0; k < i->size / 8; k++)
        if (!check(w[k] == word_at(tag, k), "pool word %" PRIu64 " differs (%#" PRIx64 ")", k,
                   w[k]))
            return false;
    return true;
}

struct subject {
    uint32_t h;
    uint64_t size, tag;
    bool mapped;
    uint64_t va[2]; /* in A and B */
};

/* QUERY_VA of the first, a middle and the last page in both spaces: the
   VA it was mapped at, the segment of its state, the PA of its one piece. */
static void check_vas(const struct subject *x, const struct gmmu_alloc_info *i)
{
    const uint32_t as[2] = { as_a, as_b };
    unsigned seg = i->state == GMMU_ALLOC_STATE_VRAM ? GMMU_SEGMENT_VRAM : GMMU_SEGMENT_SYSTEM;
    if (!x->mapped)
        return;
    for (int s = 0; s < 2; s++) {
        const uint64_t offs[3] = { 0, x->size / 2 + 0x238, x->size - 8 };
        for (int k = 0; k < 3; k++) {
            struct gmmu_query_rsp q;
            int rc = gmmu_query_va(dev, as[s], x->va[s] + offs[k], &q);
            if (rc)
                die("QUERY_VA", rc);
            check(q.state == 2 && q.segment == seg,
                  "VA %#" PRIx64 ": not mapped in segment %" PRIu64, x->va[s] + offs[k], seg);
            check(q.page_shift == 12, "VA %#" PRIx64 ": page 2^%" PRIu64 ", want 4 KB",
                  x->va[s] + offs[k], q.page_shift);
            if (i->extents == 1)
                check(q.pa == i->base + offs[k], "PA %#" PRIx64 ", want %#" PRIx64, q.pa,
                      i->base + offs[k]);
        }
    }
}

/* GPU engine checksums of three windows through each space's VA. */
static void check_engine_sums(const struct subject *x)
{
    const uint32_t as[2] = { as_a, as_b };
    const uint64_t at[3] = { 0, x->size / 2, x->size - WINDOW };
    if (!x->mapped)
        return;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++) {
            struct gmmu_engine_req req = { .engine = (uint32_t)(s * 2 + k % 2),
                                           .op = 2, /* checksum */
                                           .as_handle = as[s],
                                           .length = WINDOW,
                                           .src_va = x->va[s] + at[k] };
            struct gmmu_engine_rsp r;
            uint64_t s1, s2;
            int rc = gmmu_engine_run(dev, &req, &r);
            if (rc)
                die("ENGINE_RUN", rc);
            checksum(x->tag, at[k] / 8, WINDOW / 8, &s1, &s2);
            check(!(r.engine_status & GMMU_ENGINE_STATUS_FAULT),
                  "checksum at VA %#" PRIx64 " faulted (status %#" PRIx64 ")", x->va[s] + at[k],
                  r.engine_status);
            check(r.result == s1 && r.result2 == s2,
                  "checksum %#" PRIx64 " after the move in, want %#" PRIx64, r.result, s1);
        }
}

/* The engine moved at least the copy's beats (a read and a write a word). */
static void check_copy_beats(const struct sample *s, uint64_t size)
{
    check(s->d.eng_beats >= size / 4, "engine beats %" PRIu64 ", the copy alone is %" PRIu64,
          s->d.eng_beats, size / 4);
    check(s->d.eng_errors == 0, "%" PRIu64 " engine errors, want %" PRIu64, s->d.eng_errors, 0);
}

struct moves {
    struct sample in, out;
    struct sample alloc_alone; /* the out row's ALLOC, same size, nothing to move */
};

/* One allocation of `size`: placed in the pool (VRAM is filled first),
   written by the host there, moved in (MAKE_RESIDENT), moved out (a
   VRAM-only ALLOC that needs its room); then freed. */
static struct moves run_case(uint64_t size, bool mapped, uint64_t tag)
{
    struct subject x = { .size = size, .tag = tag, .mapped = mapped };
    struct moves m;
    struct gmmu_vram_rsp v = vram();

    /* VRAM held but for `size` and a little, pinned (count 1): so the
       moves below have one victim, and the ALLOC that moves it out carves
       little besides (its carve is part of its cycles). */
    uint32_t pinned = alloc(v.free_bytes - size - SLACK, 0);
    int rc = gmmu_make_resident(dev, &pinned, 1, NULL);
    if (rc)
        die("MAKE_RESIDENT", rc);
    /* Then VRAM full but for less than `size`: the allocation goes to the
       pool. A VRAM_PREFERRED ALLOC evicts nothing, so the filler stays. */
    v = vram();
    uint32_t filler = alloc(v.free_bytes - size + POOL_UNIT, 0);
    x.h = alloc(size, GMMU_ALLOC_FLAG_VRAM_PREFERRED);
    struct gmmu_alloc_info i = query_alloc(x.h);
    check(i.state == GMMU_ALLOC_STATE_BACKING, "allocation in state %" PRIu64 ", want %" PRIu64,
          i.state, GMMU_ALLOC_STATE_BACKING);
    if (mapped) {
        const uint32_t as[2] = { as_a, as_b };
        for (int s = 0; s < 2; s++) {
            struct gmmu_map_req req = {
                .as_handle = as[s], .alloc_handle = x.h, .size = size, .page_sizes = PAGES_4K
            };
            int rc = gmmu_map_va(dev, &req, &x.va[s]);
            if (rc)
                die("MAP_VA", rc);
        }
    }
    uint64_t *w = (uint64_t *)(pool_host + (i.base - pool_bus));
    for (uint64_t k = 0; k < size / 8; k++)
        w[k] = word_at(tag, k);
    check_vas(&x, &i);
    free_alloc(filler);

    struct gmmu_pt_stats before = bench_pt_stats(dev, prog);
    uint64_t fence = 0;
    rc = gmmu_make_resident(dev, &x.h, 1, &fence);
    if (rc)
        die("MAKE_RESIDENT", rc);
    m.in = bench_finish(dev, prog, &before);
    i = query_alloc(x.h);
    check(i.state == GMMU_ALLOC_STATE_VRAM && i.residency == 1,
          "after MAKE_RESIDENT: state %" PRIu64 ", count %" PRIu64, i.state, i.residency);
    check_vas(&x, &i);
    check_engine_sums(&x);
    check_copy_beats(&m.in, size);

    rc = gmmu_evict(dev, &x.h, 1);
    if (rc)
        die("EVICT", rc);
    memset(pool_host, POISON, POOL_BYTES);
    v = vram();
    check(v.paging_fence - fence < (UINT64_C(1) << 63),
          "paging fence %" PRIu64 " after MAKE_RESIDENT answered %" PRIu64, v.paging_fence, fence);
    before = bench_pt_stats(dev, prog);
    filler = alloc(v.free_bytes + POOL_UNIT, 0);
    m.out = bench_finish(dev, prog, &before);
    i = query_alloc(x.h);
    check(i.state == GMMU_ALLOC_STATE_BACKING, "after the ALLOC: state %" PRIu64 ", want %" PRIu64,
          i.state, GMMU_ALLOC_STATE_BACKING);
    check_vas(&x, &i);
    pool_holds(&i, tag);
    check_copy_beats(&m.out, size);

    /* The same ALLOC again, now that the room is there: its own cost
       (carve, reply), which the move out does not owe. */
    uint64_t filler_size = v.free_bytes + POOL_UNIT;
    free_alloc(filler);
    before = bench_pt_stats(dev, prog);
    filler = alloc(filler_size, 0);
    m.alloc_alone = bench_finish(dev, prog, &before);
    check(m.alloc_alone.d.eng_beats < size / 4,
          "the ALLOC with room moved %" PRIu64 " beats (size %" PRIu64 ")",
          m.alloc_alone.d.eng_beats, size);
    free_alloc(filler);
    free_alloc(x.h); /* unmaps it from both spaces */
    rc = gmmu_evict(dev, &pinned, 1);
    if (rc)
        die("EVICT", rc);
    free_alloc(pinned);
    return m;
}

/* ------------------------------------------------------------ the table */

static void print_header(void)
{
    printf("%-44s %10s %6s %10s %8s %7s %6s %-12s %s\n", "case", "cycles", "words", "busy",
           "bytes/c", "ratio", "c/word", "target", "met");
}

static void print_row(const char *name, const struct sample *s, uint64_t bytes, double ratio,
                      double per_word, const char *target, int met)
{
    printf("%-44s %10" PRIu32 " %6" PRIu32 " %10" PRIu32 " %8.3f", name, s->cycles,
           s->d.words_written, s->d.eng_busy_cycles, (double)bytes / s->cycles);
    if (ratio > 0)
        printf(" %7.3f", ratio);
    else
        printf(" %7s", "-");
    if (per_word > 0)
        printf(" %6.1f", per_word);
    else
        printf(" %6s", "-");
    printf(" %-12s %s\n", target, met < 0 ? "" : met ? "yes" : "NO");
    targets_missed += met == 0;
}

/* The COPY alone (the engine's busy cycles in the unmapped move), that move
   against it (less the command's own cost when it has one: `own`, the out
   row's ALLOC with nothing to move), and the mapped move's PTE rewrite. */
static void report(const char *size_name, const char *dir, const struct sample *alone,
                   const struct sample *mapped, const struct sample *own, uint64_t bytes)
{
    char name[64];
    struct sample copy = { .cycles = alone->d.eng_busy_cycles, .d = alone->d };
    double rate_alone = (double)bytes / copy.cycles;
    double move = (double)alone->cycles - (own ? own->cycles : 0);
    double ratio = ((double)bytes / move) / rate_alone;

    snprintf(name, sizeof name, "%s %s: COPY alone (engine busy)", size_name, dir);
    copy.d.words_written = 0;
    print_row(name, &copy, bytes, 0, 0, "", -1);
    if (own) {
        snprintf(name, sizeof name, "%s %s: the ALLOC alone (no move)", size_name, dir);
        print_row(name, own, 0, 0, 0, "", -1);
    }
    snprintf(name, sizeof name, "%s %s, not mapped", size_name, dir);
    print_row(name, alone, bytes, ratio, 0, ">= 0.8 copy", ratio >= COPY_RATIO_TARGET);

    uint32_t w = mapped->d.words_written;
    double rewrite = (double)mapped->cycles - alone->cycles;
    double per_word = w ? rewrite / w : 0;
    snprintf(name, sizeof name, "%s %s, 4 KB pages in 2 spaces", size_name, dir);
    print_row(name, mapped, bytes, ((double)bytes / mapped->cycles) / rate_alone, per_word,
              w >= WORDS_TARGETED ? "<= 2 c/word" : "",
              w >= WORDS_TARGETED ? per_word <= CYC_WORD_TARGET : -1);
}

static void run_size(uint64_t size, const char *size_name)
{
    struct moves plain = run_case(size, false, 0xA11CE000u + size);
    struct moves mapped = run_case(size, true, 0xB0B00000u + size);
    report(size_name, "in ", &plain.in, &mapped.in, NULL, size);
    report(size_name, "out", &plain.out, &mapped.out, &plain.alloc_alone, size);
}

static void print_legend(void)
{
    printf("Residency moves on the simulated SoC, in device cycles (issue 28).\n"
           "  in       MAKE_RESIDENT of a VRAM_PREFERRED allocation in the backing pool:\n"
           "           the paging engine's COPY system memory -> VRAM, then the PTE rewrite\n"
           "  out      a VRAM-only ALLOC that needs its room (its own carve included):\n"
           "           COPY VRAM -> system memory, then the PTE rewrite\n"
           "  cycles   doorbell to completion (CPL_LATENCY, the mailbox hardware's count)\n"
           "  words    page-table words written (GET_PT_STATS)\n"
           "  busy     the paging engine's busy cycles (PERF_BUSY_CYCLES)\n"
           "  bytes/c  bytes moved / cycles\n"
           "  COPY alone   the unmapped move's engine busy cycles: the COPY packet (and the\n"
           "           move's FENCE) on that route, nothing else queued\n"
           "  ALLOC alone  the out rows' ALLOC again, same size, with the room there:\n"
           "           the command's own cost, not the move's\n"
           "  ratio    the move's bytes/c against COPY alone (target >= 0.8 for the copy:\n"
           "           the unmapped move, the copy and the move's fixed cost; out: its\n"
           "           cycles less the ALLOC alone's)\n"
           "  c/word   the PTE rewrite: (mapped move - unmapped move) / words (target\n"
           "           <= 2 from 512 words, the paging engine's)\n"
           "  Mapped: 4 KB pages in two address spaces. Checked: contents both ways (the\n"
           "  pool compared whole, engine checksums through both VAs), QUERY_ALLOC and\n"
           "  QUERY_VA after every move, accounting back at the end.\n\n");
}

int main(int argc, char **argv)
{
    bool smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    const char *spec = getenv("GMMU_DEVICE");
    int rc = spec ? gmmu_open(spec, &dev) : GMMU_STATUS_INVALID_ARGUMENT;
    if (rc)
        die("open GMMU_DEVICE", rc);
    gmmu_set_timeout(dev, TIMEOUT_MS);
    setvbuf(stdout, NULL, _IOLBF, 0);
    print_legend();

    struct gmmu_vram_rsp v0 = vram();
    void *host;
    rc = gmmu_sysmem_alloc(dev, POOL_BYTES, &pool_bus, &host);
    if (rc)
        die("sysmem alloc", rc);
    pool_host = host;
    rc = gmmu_add_backing(dev, pool_bus, POOL_BYTES);
    if (rc)
        die("ADD_BACKING", rc);
    uint32_t asid;
    if ((rc = gmmu_create_as(dev, &as_a, &asid)) || (rc = gmmu_create_as(dev, &as_b, &asid)))
        die("CREATE_AS", rc);

    print_header();
    run_size(2 * MIB, "2 MB ");
    if (!smoke)
        run_size(64 * MIB, "64 MB");

    if ((rc = gmmu_destroy_as(dev, as_a)) || (rc = gmmu_destroy_as(dev, as_b)))
        die("DESTROY_AS", rc);
    struct gmmu_vram_rsp v1 = vram();
    check(v1.free_bytes == v0.free_bytes, "free VRAM %" PRIu64 " at the end, %" PRIu64 " before",
          v1.free_bytes, v0.free_bytes);
    check(v1.tables == v0.tables, "%" PRIu64 " tables at the end, %" PRIu64 " before", v1.tables,
          v0.tables);
    check(v1.backing_free == v1.backing_bytes && v1.backing_bytes == POOL_BYTES,
          "pool: %" PRIu64 " free of %" PRIu64, v1.backing_free, v1.backing_bytes);
    check(v1.resident_bytes == v0.resident_bytes, "resident %" PRIu64 " at the end, %" PRIu64,
          v1.resident_bytes, v0.resident_bytes);
    gmmu_close(dev);
    printf("\n%d target(s) missed\n", targets_missed);
    if (failures)
        fprintf(stderr, "bench_residency: %d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
