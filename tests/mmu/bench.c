// SPDX-License-Identifier: Apache-2.0
/*
 * MMU benchmark, in simulated cycles (DDR model latency 40 unless told):
 *   - L1 hit latency and throughput, per port and with all ports at once;
 *   - latency of an L2 hit and of walks: cold, and after walk-cache hits;
 *   - throughput on request traces (streaming, strided, tiled 2D, random
 *     gather, four ports mixed) over 4 KB, 64 KB and 2 MB pages, against the
 *     ideal of one translation per cycle per port (translation for free).
 * Run it on the default build and on the "blocking" build (one walk in
 * flight, no walk cache) to compare; tests/mmu/bench_report.py does that.
 * Every response is still checked against the reference model.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gmmu/mmu_regs.h"
#include "gmmu/pte_util.h"
#include "mmu_tests.h"
#include "tb.h"

#define TABLE_BASE   (UINT64_C(16) << 20)
#define REGION_BYTES (UINT64_C(64) << 20)
#define R4K          UINT64_C(0x0000001000000000)
#define R64K         UINT64_C(0x0000002000000000)
#define R2M          UINT64_C(0x0000003000000000)
#define ASID         1u
#define ACCESS_BYTES 64u

struct bench {
    struct tb tb;
    uint64_t next;
    uint64_t root;
    unsigned levels;
    /* traces */
    struct trace {
        unsigned kind;
        uint64_t base, size, n, issued, answered;
        struct rng rng;
    } tr[DUT_MAX_PORTS];
    uint64_t last_rsp_cycle;
    uint64_t rsp_cycle[DUT_MAX_PORTS][TB_MAX_TAGS];
};

static uint64_t alloc(struct bench *b, uint64_t bytes)
{
    uint64_t a = (b->next + bytes - 1) & ~(bytes - 1);
    b->next = a + bytes;
    return a;
}

static uint64_t rd(struct bench *b, uint64_t a)
{
    return sparse_mem_read_u64(b->tb.mem, a);
}
static void wr(struct bench *b, uint64_t a, uint64_t v)
{
    sparse_mem_write_u64(b->tb.mem, a, v);
}

/* The level-1 dual entry of va (creating the tables above it). */
static uint64_t dual_slot(struct bench *b, uint64_t va)
{
    uint64_t table = b->root;
    for (unsigned l = b->levels - 1; l > 1; l--) {
        uint64_t a = table + (uint64_t)gmmu_va_index(va, l) * 8;
        uint64_t e = rd(b, a);
        if (!gmmu_pte_is_valid(e)) {
            e = gmmu_pte_make_table(alloc(b, l - 1 == 1 ? GMMU_L1_TABLE_BYTES : GMMU_TABLE_BYTES));
            wr(b, a, e);
        }
        table = gmmu_pte_addr(e);
    }
    return table + (uint64_t)gmmu_va_index(va, 1) * 16;
}

/* Map [va, va + bytes) linearly to PA = va & 0xFFFFFFFFF with pages of
 * 2^shift bytes (12, 16 or 21). */
static void map_range(struct bench *b, uint64_t va, uint64_t bytes, unsigned shift)
{
    for (uint64_t off = 0; off < bytes; off += UINT64_C(1) << shift) {
        uint64_t v = va + off, pa = v & UINT64_C(0xFFFFFFFFF);
        uint64_t d = dual_slot(b, v);
        if (shift == 21) {
            wr(b, d, gmmu_pte_make_large_page(pa, GMMU_SEGMENT_VRAM, 0));
            continue;
        }
        unsigned slot = shift == 12 ? 0 : 8;
        uint64_t w = rd(b, d + slot);
        if (!gmmu_pte_is_valid(w)) {
            w = gmmu_pte_make_table(
                alloc(b, shift == 12 ? GMMU_TABLE_BYTES : GMMU_LEAF64K_TABLE_BYTES));
            wr(b, d + slot, w);
        }
        unsigned idx = shift == 12 ? gmmu_va_index(v, 0) : gmmu_va_index_64k(v);
        wr(b, gmmu_pte_addr(w) + idx * 8u, gmmu_pte_make_page(pa, GMMU_SEGMENT_VRAM, 0));
    }
}

/* ------------------------------------------------------------ traces */

enum { TR_STREAM, TR_STRIDED, TR_TILED, TR_GATHER };
static const char *const trace_names[] = { "streaming", "strided", "tiled 2D", "random gather" };
static const char *const trace_keys[] = { "streaming", "strided", "tiled-2D", "random-gather" };

#define PITCH (UINT64_C(16) << 10) /* 4096 pixels of 4 bytes */

static uint64_t trace_va(struct trace *t, uint64_t i)
{
    switch (t->kind) {
    case TR_STREAM:
        return t->base + (i * ACCESS_BYTES) % t->size;
    case TR_STRIDED: {
        /* Down a column of a 16 KB-pitch surface, then the next column. */
        uint64_t rows = t->size / PITCH;
        return t->base + (i % rows) * PITCH + ((i / rows) * ACCESS_BYTES) % PITCH;
    }
    case TR_TILED: {
        /* 64 x 64-pixel tiles (256 B x 64 rows), row-major over tiles; a
         * tile is 4 accesses per row. */
        uint64_t in_tile = i % 256, tile = i / 256;
        uint64_t tiles_per_row = PITCH / 256;
        uint64_t tx = tile % tiles_per_row, ty = (tile / tiles_per_row) % (t->size / PITCH / 64);
        return t->base + (ty * 64 + in_tile / 4) * PITCH + tx * 256 + (in_tile % 4) * ACCESS_BYTES;
    }
    default:
        return t->base + (rng_below(&t->rng, t->size / ACCESS_BYTES) * ACCESS_BYTES);
    }
}

static void trace_gen(struct tb *tb, void *ctx)
{
    struct bench *b = ctx;
    for (unsigned p = 0; p < tb->prm.ports; p++) {
        struct trace *t = &b->tr[p];
        if (t->issued < t->n && tb_port_idle(tb, p)) {
            tb_present(tb, p, ASID, trace_va(t, t->issued), GMMU_ACCESS_READ);
            t->issued++;
        }
    }
}

static void on_rsp(struct tb *tb, unsigned port, const struct dut_rsp *r,
                   const struct tb_pending *req, void *ctx)
{
    struct bench *b = ctx;
    (void)req;
    b->tr[port].answered++;
    b->last_rsp_cycle = tb_now(tb);
    b->rsp_cycle[port][r->tag] = tb_now(tb);
}

/* Runs the traces set in b->tr; returns the cycles from the first request
 * to the last response. */
static uint64_t run_traces(struct bench *b)
{
    struct tb *tb = &b->tb;
    uint64_t start = tb_now(tb), total = 0;
    for (unsigned p = 0; p < tb->prm.ports; p++)
        total += b->tr[p].n;
    tb->gen = trace_gen;
    tb->gen_ctx = b;
    uint64_t done = 0;
    while (done < total) {
        tb_cycle(tb);
        done = 0;
        for (unsigned p = 0; p < tb->prm.ports; p++)
            done += b->tr[p].answered;
        if (tb_now(tb) - start > 100000000ull)
            break;
    }
    tb->gen = NULL;
    return b->last_rsp_cycle + 1 - start;
}

static void set_trace(struct bench *b, unsigned port, unsigned kind, uint64_t base, uint64_t size,
                      uint64_t n)
{
    b->tr[port] = (struct trace){ kind, base, size, n, 0, 0, { 0 } };
    rng_seed(&b->tr[port].rng, 42 + port);
}

static void clear_traces(struct bench *b)
{
    memset(b->tr, 0, sizeof b->tr);
}

/* Port 0's and the shared counters, to print what a trace cost. */
struct bench_ctr {
    uint32_t hits, misses, merges, pf, l2hits, walks;
};

static struct bench_ctr read_ctr(struct bench *b)
{
    struct tb *tb = &b->tb;
    uint32_t pb = GMMU_MMU_PERF_PORT;
    return (struct bench_ctr){ tb_wb_read(tb, pb + 4 * GMMU_PERF_PORT_HITS),
                               tb_wb_read(tb, pb + 4 * GMMU_PERF_PORT_MISSES),
                               tb_wb_read(tb, pb + 4 * GMMU_PERF_PORT_MERGES),
                               tb_wb_read(tb, pb + 4 * GMMU_PERF_PORT_PREFETCHES),
                               tb_wb_read(tb, GMMU_MMU_PERF_SHARED + 4 * GMMU_PERF_L2_HITS),
                               tb_wb_read(tb, GMMU_MMU_PERF_SHARED + 4 * GMMU_PERF_WALKS) };
}

static void print_ctr(const struct bench_ctr *a, const struct bench_ctr *z)
{
    printf("      port 0: %u hits, %u misses (%u merged), %u prefetches; L2 hits %u, walks %u\n",
           z->hits - a->hits, z->misses - a->misses, z->merges - a->merges, z->pf - a->pf,
           z->l2hits - a->l2hits, z->walks - a->walks);
}

static void flush(struct bench *b)
{
    tb_invalidate(&b->tb, GMMU_INV_ALL, 0, 0, 0);
}

/* One request on port 0; returns accept-to-response cycles. */
static uint64_t one(struct bench *b, uint64_t va)
{
    struct tb *tb = &b->tb;
    tb_present(tb, 0, ASID, va, GMMU_ACCESS_READ);
    unsigned tag = tb->io.req[0].tag;
    uint64_t accepted = 0;
    while (tb->io.req[0].valid) {
        accepted = tb_now(tb);
        tb_cycle(tb);
    }
    b->rsp_cycle[0][tag] = 0;
    while (!b->rsp_cycle[0][tag])
        tb_cycle(tb);
    return b->rsp_cycle[0][tag] - accepted;
}

/* ------------------------------------------------------------ the bench */

struct region {
    const char *name;
    uint64_t base;
};

/* The single-port traces again over smaller working sets (the main table's
 * is the whole 64 MB region): streaming and the tiled surface wrap around,
 * the strided column and the random gather stay inside. 1 MB is the
 * smallest size that holds one band of 64-row tiles. */
static void bench_working_sets(struct bench *b, const struct region *regions, uint64_t n)
{
    enum { N_WS = 3 };
    static const unsigned ws_mb[N_WS] = { 1, 4, 16 };
    printf("working sets: %" PRIu64 " requests on one port, cycles (of ideal):\n", n);
    for (unsigned r = 0; r < 3; r++) {
        for (unsigned k = TR_STREAM; k <= TR_GATHER; k++) {
            uint64_t c[N_WS];
            for (unsigned w = 0; w < N_WS; w++) {
                flush(b);
                clear_traces(b);
                set_trace(b, 0, k, regions[r].base, (uint64_t)ws_mb[w] << 20, n);
                c[w] = run_traces(b);
            }
            printf("  %-14s %-4s pages:", trace_names[k], regions[r].name);
            for (unsigned w = 0; w < N_WS; w++)
                printf(" %2u MB %7" PRIu64 " (%.3f)", ws_mb[w], c[w], (double)n / c[w]);
            printf("\n");
            for (unsigned w = 0; w < N_WS; w++)
                printf("bench-result ws %s-%s-%uM %" PRIu64 " %" PRIu64 "\n", trace_keys[k],
                       regions[r].name, ws_mb[w], c[w], n);
        }
    }
}

int mmu_bench(const struct mmu_test_opts *o)
{
    static struct bench bs;
    struct bench *b = &bs;
    memset(b, 0, sizeof *b);
    struct dut_config cfg = { 0 };
    cfg.ddr_latency = o->ddr_latency ? o->ddr_latency : 40;
    cfg.trace_path = o->trace;
    if (!tb_init(&b->tb, &cfg, 1))
        return 2;
    struct tb *tb = &b->tb;
    b->levels = tb->prm.levels;
    if (b->levels != 4) {
        fprintf(stderr, "bench: needs the 4-level build\n");
        return 2;
    }
    b->next = TABLE_BASE;
    b->root = alloc(b, GMMU_TABLE_BYTES);
    map_range(b, R4K, REGION_BYTES, 12);
    map_range(b, R64K, REGION_BYTES, 16);
    map_range(b, R2M, REGION_BYTES, 21);
    tb_set_as(tb, ASID, true, b->root);
    tb->committed = tb->n_changes;
    tb->on_rsp = on_rsp;
    tb->rsp_ctx = b;
    unsigned lat = cfg.ddr_latency, ports = tb->prm.ports;

    printf("bench: %u ports, %u walkers, walk cache %u entries, DDR read latency %u cycles\n",
           ports, tb->prm.walkers, tb->prm.pwc_entries, lat);
    printf("bench-result config walkers=%u pwc=%u latency=%u\n", tb->prm.walkers,
           tb->prm.pwc_entries, lat);

    /* --- latencies ------------------------------------------------------ */
    flush(b);
    uint64_t cold = one(b, R4K + 0x5000);
    uint64_t hit = one(b, R4K + 0x5040);
    /* Same 2 MB: leaf only. Not 0x6000: that is in the leaf line of 0x5000
     * (an L2 hit) and among the ranges the first hit prefetches. */
    uint64_t pwc1 = one(b, R4K + 0x10000);
    uint64_t pwc2 = one(b, R4K + (UINT64_C(5) << 21)); /* same 1 GB: dual + leaf */
    /* An L2 hit: push the page out of the 16-entry L1 with other pages. */
    for (unsigned i = 0; i < 2 * tb->prm.l1_entries; i++)
        one(b, R4K + 0x100000 + i * 0x1000);
    uint64_t l2hit = one(b, R4K + 0x5080);
    flush(b);
    uint64_t cold2m = one(b, R2M + 0x123456);
    printf("latency (request accepted to response), cycles:\n");
    printf("  L1 hit                         %4" PRIu64 "\n", hit);
    printf("  L2 hit                         %4" PRIu64 "\n", l2hit);
    printf("  walk, cold, 4 KB page          %4" PRIu64
           "   (5 table words in 4 reads: 4 x %u = %u; overhead %" PRId64 ")\n",
           cold, lat, 4 * lat, (int64_t)cold - 4 * (int64_t)lat);
    printf("  walk, cold, 2 MB page          %4" PRIu64 "   (3 reads: %u; overhead %" PRId64 ")\n",
           cold2m, 3 * lat, (int64_t)cold2m - 3 * (int64_t)lat);
    printf("  walk, walk-cache hit level 2   %4" PRIu64 "   (2 reads: %u; overhead %" PRId64 ")\n",
           pwc2, 2 * lat, (int64_t)pwc2 - 2 * (int64_t)lat);
    printf("  walk, walk-cache hit level 1   %4" PRIu64 "   (1 read: %u; overhead %" PRId64 ")\n",
           pwc1, lat, (int64_t)pwc1 - (int64_t)lat);
    printf("bench-result latency l1=%" PRIu64 " l2=%" PRIu64 " cold=%" PRIu64 " cold2m=%" PRIu64
           " pwc2=%" PRIu64 " pwc1=%" PRIu64 "\n",
           hit, l2hit, cold, cold2m, pwc2, pwc1);

    /* --- hit throughput ------------------------------------------------- */
    const uint64_t nh = 4096;
    for (unsigned p = 0; p < ports; p++)
        one(b, R2M + p * 0x10000);
    clear_traces(b);
    set_trace(b, 0, TR_STREAM, R2M, 0x10000, nh);
    uint64_t c1 = run_traces(b);
    clear_traces(b);
    for (unsigned p = 0; p < ports; p++)
        set_trace(b, p, TR_STREAM, R2M + p * 0x10000, 0x10000, nh);
    uint64_t c4 = run_traces(b);
    printf(
        "L1 hit throughput: one port %.3f translations/cycle, %u ports %.3f per port per cycle\n",
        (double)nh / c1, ports, (double)nh / c4);
    printf("bench-result hits one=%.4f all=%.4f\n", (double)nh / c1, (double)nh / c4);

    /* --- traces --------------------------------------------------------- */
    const struct region regions[3] = { { "4K", R4K }, { "64K", R64K }, { "2M", R2M } };
    const uint64_t n = o->count ? o->count : 32768;
    printf("traces: %" PRIu64
           " requests of %u bytes per port, cycles (ideal = 1 translation/cycle/port):\n",
           n, ACCESS_BYTES);
    for (unsigned r = 0; r < 3; r++) {
        for (unsigned k = TR_STREAM; k <= TR_GATHER; k++) {
            flush(b);
            clear_traces(b);
            set_trace(b, 0, k, regions[r].base, REGION_BYTES, n);
            struct bench_ctr c0 = read_ctr(b);
            uint64_t c = run_traces(b);
            struct bench_ctr c1 = read_ctr(b);
            printf("  %-14s %-4s pages, 1 port : %8" PRIu64 " cycles, %.3f of ideal\n",
                   trace_names[k], regions[r].name, c, (double)n / c);
            print_ctr(&c0, &c1);
            printf("bench-result trace %s-%s-1 %" PRIu64 " %" PRIu64 "\n", trace_keys[k],
                   regions[r].name, c, n);
        }
        /* Four ports, each its own trace over its own quarter. */
        flush(b);
        clear_traces(b);
        for (unsigned p = 0; p < ports; p++)
            set_trace(b, p, p % 4, regions[r].base + p * (REGION_BYTES / 4), REGION_BYTES / 4, n);
        uint64_t c = run_traces(b);
        printf("  %-14s %-4s pages, %u ports: %8" PRIu64 " cycles, %.3f of ideal\n", "mixed",
               regions[r].name, ports, c, (double)n / c);
        printf("bench-result trace mixed-%s-%u %" PRIu64 " %" PRIu64 "\n", regions[r].name, ports,
               c, n);
    }
    bench_working_sets(b, regions, n);
    mmu_check_counters(tb);
    bool ok = tb->mismatches == 0;
    printf("bench: %s (%" PRIu64 " translations checked against the model, %" PRIu64
           " mismatches)\n",
           ok ? "done" : "FAIL", tb->checked, tb->mismatches);
    tb_fini(tb);
    return ok ? 0 : 1;
}
