// SPDX-License-Identifier: Apache-2.0
/*
 * The firmware's page-table work in device cycles, on the simulated SoC.
 *
 * Each case runs in a fresh address space at a fixed VA, so the tables it
 * needs are new (their clearing is part of the cost) and the figures do not
 * depend on the order of the cases. A case's cycles are CPL_LATENCY (the
 * mailbox hardware's doorbell-to-completion count); its words come from
 * GET_PT_STATS read before and after. Every mapping is checked with
 * QUERY_VA against addresses worked out here, so a failing map is never
 * measured. `bench_fw --smoke` runs the 4 KB and 2 MB cases only.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_sample.h"
#include "libgmmu.h"

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

/* Allowed page sizes (map_req.page_sizes). */
#define PAGES_4K  0x1u
#define PAGES_64K 0x2u
#define PAGES_2M  0x4u

/* Where the cases map: 1 GiB-aligned, so a 1 GiB range fills one level-1
   table. The 1 GiB cases map host memory at 4 GiB (segment 0): the VRAM
   segment of the simulated 256 MiB DDR cannot hold 1 GiB, and the
   firmware's table work does not depend on the segment. */
#define BENCH_VA   GIB
#define SYS_ADDR   (4 * GIB)
#define SEG_SYSTEM 0u
#define SEG_VRAM   1u

/* The DDR port is 64-bit AXI4: one page-table word per beat, a beat per cycle. */
#define BOUND_CYCLES_PER_WORD 1u

#define TIMEOUT_MS 1200000 /* a 1 GiB map takes minutes of wall clock */

struct mapping {
    uint32_t as, alloc;
    uint64_t offset; /* into the allocation */
    uint64_t base;   /* PA of the mapping's first byte */
    unsigned segment;
    uint64_t size;
    uint32_t pages;
};

static struct gmmu_dev *dev;
static int failures;

static const char prog[] = "bench_fw";

static void die(const char *what, int rc)
{
    bench_die(prog, what, rc);
}

static void check(bool ok, const char *fmt, uint64_t a, uint64_t b)
{
    if (ok)
        return;
    fprintf(stderr, "bench_fw: FAIL: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    failures++;
}

static struct sample do_map(const struct mapping *m, uint64_t va)
{
    struct gmmu_map_req req = { .as_handle = m->as,
                                .alloc_handle = m->alloc,
                                .offset = m->offset,
                                .size = m->size,
                                .va = va,
                                .flags = GMMU_MAP_FLAG_FIXED_VA,
                                .page_sizes = m->pages };
    struct gmmu_pt_stats before = bench_pt_stats(dev, prog);
    uint64_t got = 0;
    int rc = gmmu_map_va(dev, &req, &got);
    if (rc)
        die("MAP_VA", rc);
    check(got == va, "MAP_VA at 0x%" PRIx64 ", expected 0x%" PRIx64, got, va);
    return bench_finish(dev, prog, &before);
}

static struct sample do_unmap(const struct mapping *m, uint64_t va)
{
    struct gmmu_pt_stats before = bench_pt_stats(dev, prog);
    int rc = gmmu_unmap_va(dev, m->as, va, m->size);
    if (rc)
        die("UNMAP_VA", rc);
    return bench_finish(dev, prog, &before);
}

static struct sample do_ping(void)
{
    struct gmmu_pt_stats before = bench_pt_stats(dev, prog);
    int rc = gmmu_ping(dev, NULL, 0);
    if (rc)
        die("PING", rc);
    return bench_finish(dev, prog, &before);
}

static struct gmmu_query_rsp query(uint32_t as, uint64_t va)
{
    struct gmmu_query_rsp q;
    int rc = gmmu_query_va(dev, as, va, &q);
    if (rc)
        die("QUERY_VA", rc);
    return q;
}

/* va (inside the mapping at map_va) translates to base + its offset with
   pages of 2^shift, in the mapping's segment. */
static void expect_mapped(const struct mapping *m, uint64_t map_va, uint64_t va, unsigned shift)
{
    struct gmmu_query_rsp q = query(m->as, va);
    check(q.state == 2, "VA 0x%" PRIx64 " state %" PRIu64 ", expected mapped", va, q.state);
    check(q.pa == m->base + (va - map_va), "PA 0x%" PRIx64 ", expected 0x%" PRIx64, q.pa,
          m->base + (va - map_va));
    check(q.page_shift == shift, "page shift %" PRIu64 ", expected %" PRIu64, q.page_shift, shift);
    check(q.segment == m->segment, "segment %" PRIu64 ", expected %" PRIu64, q.segment, m->segment);
}

static void expect_invalid(uint32_t as, uint64_t va)
{
    struct gmmu_query_rsp q = query(as, va);
    check(q.state == 0, "VA 0x%" PRIx64 " state %" PRIu64 ", expected invalid", va, q.state);
}

/* First, last and a middle byte of the mapping, and its neighbours. */
static void expect_range(const struct mapping *m, uint64_t va, unsigned shift)
{
    expect_mapped(m, va, va, shift);
    expect_mapped(m, va, va + m->size / 2 + 0x238, shift);
    expect_mapped(m, va, va + m->size - 8, shift);
    expect_invalid(m->as, va - 4 * KIB);
    expect_invalid(m->as, va + m->size);
}

/*
 * The figures before the paging engine (CPU stores; docs/performance.md's
 * bench-fw table, and issue 27's host-measured DESTROY_AS) and issue 27's
 * targets: 0 where a case has none of its own. Every case writing 512
 * words or more must also stay within 2 cycles per word.
 */
struct baseline {
    const char *name;
    uint32_t cycles;
    uint32_t target;
};

static const struct baseline baselines[] = {
    { "PING (empty: the mailbox path)", 333, 0 },
    { "map 4 KB page, new tables", 121488, 0 },
    { "map 4 KB page, tables present", 16035, 2000 },
    { "unmap 4 KB page, tables stay", 15085, 2000 },
    { "unmap 4 KB page, tables freed", 227976, 5000 },
    { "map 2 MB in 4 KB pages", 322691, 0 },
    { "unmap 2 MB in 4 KB pages", 201762, 0 },
    { "map 2 MB as one 2 MB page", 91927, 0 },
    { "unmap 2 MB page", 188296, 5000 },
    { "map 1 GiB in 2 MB pages (sysmem)", 1823073, 0 },
    { "unmap 1 GiB of 2 MB pages", 259286, 0 },
    { "map 1 GiB in 64 KB pages (sysmem)", 21391228, 70000 },
    { "unmap 1 GiB of 64 KB pages", 1053077, 0 },
    { "DESTROY_AS, no mappings", 860000, 5000 },
};

#define WORDS_TARGETED  512u /* cases writing this many words or more */
#define CYC_WORD_TARGET 2.0

static int targets_missed;

static const struct baseline *baseline_of(const char *name)
{
    for (size_t i = 0; i < sizeof baselines / sizeof baselines[0]; i++)
        if (strcmp(baselines[i].name, name) == 0)
            return &baselines[i];
    return NULL;
}

static void print_header(void)
{
    printf("%-34s %9s %6s %5s %5s %6s %7s %7s %8s %9s %7s %s\n", "case", "cycles", "words", "reads",
           "pkts", "beats", "busy", "wait", "cyc/word", "before", "faster", "target");
}

static void print_row(const char *name, const struct sample *s)
{
    const struct baseline *b = baseline_of(name);
    uint32_t w = s->d.words_written;
    double per_word = w ? (double)s->cycles / (w * BOUND_CYCLES_PER_WORD) : 0;
    bool met = true;
    char target[64] = "";

    printf("%-34s %9" PRIu32 " %6" PRIu32 " %5" PRIu32 " %5" PRIu32 " %6" PRIu32 " %7" PRIu32
           " %7" PRIu32,
           name, s->cycles, w, s->d.words_read, s->d.eng_packets, s->d.eng_beats,
           s->d.eng_busy_cycles, s->d.wait_cycles);
    if (w)
        printf(" %8.1f", per_word);
    else
        printf(" %8s", "-");
    if (b)
        printf(" %9" PRIu32 " %6.1fx", b->cycles, (double)b->cycles / s->cycles);
    else
        printf(" %9s %7s", "-", "-");
    if (b && b->target) {
        met = s->cycles <= b->target;
        snprintf(target, sizeof target, "<= %" PRIu32, b->target);
    }
    if (w >= WORDS_TARGETED) {
        size_t n = strlen(target);
        met = met && per_word <= CYC_WORD_TARGET;
        snprintf(target + n, sizeof target - n, "%s<= %.0f c/w", n ? ", " : "", CYC_WORD_TARGET);
    }
    if (target[0]) {
        printf(" %s %s", target, met ? "met" : "MISSED");
        targets_missed += !met;
    }
    printf("\n");
}

static uint32_t new_as(void)
{
    uint32_t as, asid;
    int rc = gmmu_create_as(dev, &as, &asid);
    if (rc)
        die("CREATE_AS", rc);
    return as;
}

static void end_mapping(const struct mapping *m)
{
    int rc = gmmu_destroy_as(dev, m->as);
    if (rc)
        die("DESTROY_AS", rc);
}

static uint32_t new_alloc(const struct gmmu_alloc_req *req, uint64_t *base)
{
    struct gmmu_alloc_rsp rsp;
    int rc = gmmu_alloc(dev, req, &rsp);
    if (rc)
        die("ALLOC", rc);
    *base = rsp.base;
    return rsp.handle;
}

static void free_alloc(uint32_t handle)
{
    int rc = gmmu_free(dev, handle);
    if (rc)
        die("FREE", rc);
}

/* One 4 KB page: into new tables, beside a page (tables present), its
   unmap (tables stay), and the unmap of the last page (tables freed). */
static void case_4k(void)
{
    struct gmmu_alloc_req req = { .size = 8 * KIB, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    struct mapping a = { .as = new_as(), .segment = SEG_VRAM, .size = 4 * KIB, .pages = PAGES_4K };
    a.alloc = new_alloc(&req, &a.base);
    struct mapping b = a; /* the allocation's second page, beside a's */
    b.offset = 4 * KIB;
    b.base += 4 * KIB;

    struct sample s = do_map(&a, BENCH_VA);
    print_row("map 4 KB page, new tables", &s);
    expect_range(&a, BENCH_VA, 12);
    s = do_map(&b, BENCH_VA + 4 * KIB);
    print_row("map 4 KB page, tables present", &s);
    expect_mapped(&b, BENCH_VA + 4 * KIB, BENCH_VA + 4 * KIB + 0x10, 12);

    s = do_unmap(&b, BENCH_VA + 4 * KIB);
    print_row("unmap 4 KB page, tables stay", &s);
    expect_invalid(b.as, BENCH_VA + 4 * KIB);
    expect_mapped(&a, BENCH_VA, BENCH_VA + 0xFF8, 12);
    s = do_unmap(&a, BENCH_VA);
    print_row("unmap 4 KB page, tables freed", &s);
    expect_invalid(a.as, BENCH_VA);
    end_mapping(&a);
    free_alloc(a.alloc);
}

/* Map (checked), then unmap (checked), of m in a fresh address space. */
static void map_unmap(struct mapping *m, const char *name, const char *unmap_name, unsigned shift)
{
    m->as = new_as();
    struct sample s = do_map(m, BENCH_VA);
    print_row(name, &s);
    expect_range(m, BENCH_VA, shift);
    s = do_unmap(m, BENCH_VA);
    print_row(unmap_name, &s);
    expect_invalid(m->as, BENCH_VA);
    expect_invalid(m->as, BENCH_VA + m->size - 8);
    end_mapping(m);
}

static void case_2m(void)
{
    struct gmmu_alloc_req req = { .size = 2 * MIB, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    struct mapping m = { .segment = SEG_VRAM, .size = 2 * MIB, .pages = PAGES_4K };
    m.alloc = new_alloc(&req, &m.base);
    check(m.base % (2 * MIB) == 0, "2 MB block at 0x%" PRIx64 " (want alignment %" PRIu64 ")",
          m.base, 2 * MIB);
    map_unmap(&m, "map 2 MB in 4 KB pages", "unmap 2 MB in 4 KB pages", 12);
    m.pages = PAGES_2M;
    map_unmap(&m, "map 2 MB as one 2 MB page", "unmap 2 MB page", 21);
    free_alloc(m.alloc);
}

static void case_1g(void)
{
    struct gmmu_alloc_req req = { .size = GIB,
                                  .flags = GMMU_ALLOC_FLAG_SYSTEM,
                                  .sys_addr = SYS_ADDR };
    struct mapping m = { .segment = SEG_SYSTEM, .size = GIB, .pages = PAGES_2M };
    m.alloc = new_alloc(&req, &m.base);
    check(m.base == SYS_ADDR, "system allocation at 0x%" PRIx64 ", expected 0x%" PRIx64, m.base,
          SYS_ADDR);
    map_unmap(&m, "map 1 GiB in 2 MB pages (sysmem)", "unmap 1 GiB of 2 MB pages", 21);
    m.pages = PAGES_64K;
    map_unmap(&m, "map 1 GiB in 64 KB pages (sysmem)", "unmap 1 GiB of 64 KB pages", 16);
    free_alloc(m.alloc);
}

/* Creating is not measured; destroying an address space that never held a
   mapping is. */
static void case_destroy_empty(void)
{
    uint32_t as = new_as();
    struct gmmu_pt_stats before = bench_pt_stats(dev, prog);
    int rc = gmmu_destroy_as(dev, as);
    if (rc)
        die("DESTROY_AS", rc);
    struct sample s = bench_finish(dev, prog, &before);
    print_row("DESTROY_AS, no mappings", &s);
}

static void print_legend(void)
{
    printf("Firmware page-table work on the simulated SoC, in device cycles (simulated; a\n"
           "run repeats to within a few cycles).\n"
           "  cycles   doorbell to completion (CPL_LATENCY, measured by the mailbox hardware):\n"
           "           decode, VA allocation, both ptmgr passes, the invalidation, the reply\n"
           "  words    64-bit page-table words written to DDR: entries, clears of new tables,\n"
           "           free-list links (GET_PT_STATS)\n"
           "  reads    64-bit page-table words the CPU read\n"
           "  pkts, beats, busy   the paging engine's packets, AXI beats and busy cycles\n"
           "  wait     cycles the CPU waited for the engine's fences (part of cycles)\n"
           "  cyc/word cycles / words: the DDR write bound is one 64-bit word per cycle\n"
           "  before   the same case with CPU stores (docs/performance.md; DESTROY_AS host-\n"
           "           measured, issue 27); faster = before / cycles\n"
           "  target   issue 27's: the case's own, and <= 2 cycles/word from 512 words\n"
           "  Each case maps at VA 1 GiB in a fresh address space. The 1 GiB cases map a\n"
           "  1 GiB system-memory allocation (host pages at 4 GiB, segment 0): the\n"
           "  simulated DDR (256 MiB) has no 1 GiB of VRAM, and the table work is the same.\n"
           "  Every mapping is checked with QUERY_VA before and after its unmap.\n\n");
}

static void open_dev(void)
{
    const char *spec = getenv("GMMU_DEVICE");
    int rc = spec ? gmmu_open(spec, &dev) : GMMU_STATUS_INVALID_ARGUMENT;
    if (rc)
        die("open GMMU_DEVICE", rc);
    gmmu_set_timeout(dev, TIMEOUT_MS);
}

int main(int argc, char **argv)
{
    bool smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    struct gmmu_vram_rsp v0, v1;

    /* A row as soon as it is measured: the 1 GiB cases take minutes. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    open_dev();
    print_legend();
    if (gmmu_get_vram(dev, &v0))
        die("GET_VRAM", 1);
    print_header();
    struct sample ping = do_ping();
    print_row("PING (empty: the mailbox path)", &ping);
    case_4k();
    case_destroy_empty();
    case_2m();
    if (!smoke)
        case_1g();
    if (gmmu_get_vram(dev, &v1))
        die("GET_VRAM", 1);
    check(v1.table_bytes == v0.table_bytes, "table bytes %" PRIu64 " after, %" PRIu64 " before",
          v1.table_bytes, v0.table_bytes);
    check(v1.free_bytes == v0.free_bytes, "free VRAM %" PRIu64 " after, %" PRIu64 " before",
          v1.free_bytes, v0.free_bytes);
    gmmu_close(dev);
    printf("\n%d target(s) missed\n", targets_missed);
    if (failures)
        fprintf(stderr, "bench_fw: %d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
