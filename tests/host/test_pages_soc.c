// SPDX-License-Identifier: Apache-2.0
/*
 * System-memory allocations as page lists (ALLOC_PAGES) on the simulated
 * SoC, randomized: each round takes host pages scattered on purpose
 * (gmmu_sysmem_alloc_pages: one buffer cut into random runs handed out in
 * a random order), allocates them with gmmu_alloc_pages and maps them.
 * The host writes patterns into its own pages and engines checksum them
 * through the GPU VA; engines fill and copy through the GPU VA and the
 * host reads its pages back. Everything is checked against a model of the
 * allocation's bytes kept here; QUERY_VA of random offsets must give the
 * listed page and the page size worked out from the list (64 KB where 16
 * listed pages are consecutive and aligned in both VA and PA). A bad list
 * in each round is refused with nothing allocated.
 *
 *   test_pages_soc [ROUNDS [SEED]]   (GMMU_PAGES_ROUNDS, GMMU_PAGES_SEED)
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soc_test_util.h"

#define KIB         1024ull
#define PAGE        4096ull
#define OP_FILL     0u
#define OP_COPY     1u
#define OP_CHECKSUM 2u
#define STATUS_DONE 0x2u
#define STATUS_FLT  0x4u

static unsigned rounds = 6;
static uint64_t seed = 1;
static uint64_t rng_state;
static unsigned large_checked; /* QUERY_VAs that expected a 64 KB or 2 MB page */

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in [lo, hi]. */
static uint64_t between(uint64_t lo, uint64_t hi)
{
    return lo + rnd() % (hi - lo + 1);
}

static void checksum(const uint8_t *bytes, size_t len, uint64_t *s1, uint64_t *s2)
{
    *s1 = *s2 = 0;
    for (size_t i = 0; i < len; i += 8) {
        uint64_t w;

        memcpy(&w, bytes + i, 8);
        *s1 += w;
        *s2 += *s1;
    }
}

/* Runs of consecutive pages in the list: what the device must report. */
static uint32_t list_runs(const uint64_t *bus, size_t n)
{
    uint32_t runs = 1;

    for (size_t i = 1; i < n; i++)
        runs += bus[i] != bus[i - 1] + PAGE;
    return runs;
}

/* The page size a mapping at va of the list's n pages must use at offset
   off: the largest of 64 KB and 2 MB whose aligned block around va + off
   lies in the mapping, and whose listed pages follow each other from a PA
   aligned to it; else 4 KB. */
static unsigned want_shift(const uint64_t *bus, size_t n, uint64_t va, uint64_t off)
{
    static const unsigned shifts[] = { 21, 16 };

    for (int s = 0; s < 2; s++) {
        uint64_t size = 1ull << shifts[s];
        uint64_t start = ((va + off) & ~(size - 1)) - va;
        bool ok = (va + off) >= va && ((va + off) & ~(size - 1)) >= va &&
                  start + size <= n * PAGE && bus[start / PAGE] % size == 0;

        for (uint64_t k = 1; ok && k < size / PAGE; k++)
            ok = bus[start / PAGE + k] == bus[start / PAGE] + k * PAGE;
        if (ok)
            return shifts[s];
    }
    return 12;
}

/* The host's pages hold the model's bytes. */
static void expect_host(void *const *host, const uint8_t *model, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(host[i], model + i * PAGE, PAGE)) {
            for (size_t b = 0; b < PAGE; b++)
                if (((const uint8_t *)host[i])[b] != model[i * PAGE + b])
                    fail_msg("%s: page %zu byte %zu is %#x, the model says %#x", what, i, b,
                             ((const uint8_t *)host[i])[b], model[i * PAGE + b]);
        }
}

static void engine_ok(const struct gmmu_engine_rsp *r, uint32_t len, const char *what)
{
    if (r->engine_status & STATUS_FLT)
        fail_msg("%s: engine fault, status %#x at VA %#llx", what, r->engine_status,
                 (unsigned long long)r->fault_va);
    assert_int_equal(r->bytes_done, len);
}

/* A range of the allocation for an engine: 64-byte aligned (the engines'
   burst), at most 16 KiB. */
static void pick_range(size_t bytes, uint64_t *off, uint32_t *len)
{
    uint64_t l = between(1, 256) * 64;

    if (l > bytes)
        l = bytes;
    *len = (uint32_t)l;
    *off = between(0, (bytes - l) / 64) * 64;
}

/* Like gmmu_sysmem_alloc_pages, but cut only at 64 KB boundaries (n a
   multiple of 16): the buffer is 2 MiB aligned, so every piece is 64 KB
   aligned in PA and, the VA being congruent to the first page, in VA. */
static void aligned_pages(struct gmmu_dev *dev, size_t n, size_t runs, uint64_t *bus, void **host)
{
    size_t chunks = n / 16, cut[33], np = 0, order[32];
    uint64_t base;
    void *ptr;

    assert_int_equal(gmmu_sysmem_alloc(dev, n * PAGE, &base, &ptr), 0);
    assert_int_equal(base % (64 * KIB), 0);
    cut[np++] = 0;
    for (size_t c = 1; c < chunks && np < runs; c++)
        if (chunks - c <= runs - np || rnd() % chunks < runs)
            cut[np++] = c;
    cut[np] = chunks;
    for (size_t k = 0; k < np; k++)
        order[k] = k;
    for (size_t k = np; k > 1; k--) {
        size_t j = (size_t)(rnd() % k), t = order[k - 1];

        order[k - 1] = order[j];
        order[j] = t;
    }
    for (size_t k = 0, i = 0; k < np; k++)
        for (size_t pg = cut[order[k]] * 16; pg < cut[order[k] + 1] * 16; pg++, i++) {
            bus[i] = base + pg * PAGE;
            host[i] = (uint8_t *)ptr + pg * PAGE;
        }
}

static void one_round(struct gmmu_dev *dev, uint32_t as, unsigned round)
{
    /* Most rounds 16 .. 160 pages; one round a list longer than a message. */
    size_t n = round == 1 ? 600 : (size_t)between(16, 160);
    /* Odd rounds: pieces of whole 64 KB pages. */
    bool aligned = round & 1;
    size_t runs;

    n = aligned ? (n + 15) & ~(size_t)15 : n;
    runs = (size_t)between(1, aligned ? (n / 16 < 32 ? n / 16 : 32) : n < 32 ? n : 32);
    size_t bytes = n * PAGE;
    uint64_t *bus = calloc(n, sizeof(*bus));
    void **host = calloc(n, sizeof(*host));
    uint8_t *model = malloc(bytes);
    struct gmmu_alloc_rsp rsp;
    struct gmmu_vram_rsp v0, v1;
    struct gmmu_map_req mr = { .as_handle = as, .size = bytes };
    uint64_t va = 0;
    char what[96];

    assert_non_null(bus);
    assert_non_null(host);
    assert_non_null(model);
    if (aligned)
        aligned_pages(dev, n, runs, bus, host);
    else
        assert_int_equal(gmmu_sysmem_alloc_pages(dev, n, runs, rnd(), bus, host), 0);
    assert_true(list_runs(bus, n) <= runs);
    printf("round %u: %zu pages in %u runs%s\n", round, n, list_runs(bus, n),
           aligned ? " of whole 64 KB pages" : "");

    /* A bad list first: a page twice. Nothing is allocated. */
    assert_int_equal(gmmu_get_vram(dev, &v0), 0);
    {
        uint64_t dup[3] = { bus[0], bus[n - 1], bus[0] };

        assert_int_equal(gmmu_alloc_pages(dev, dup, 3, &rsp), GMMU_STATUS_OVERLAP);
    }
    assert_int_equal(gmmu_get_vram(dev, &v1), 0);
    assert_int_equal(v1.allocations, v0.allocations);

    assert_int_equal(gmmu_alloc_pages(dev, bus, n, &rsp), 0);
    assert_int_equal(rsp.extents, list_runs(bus, n));
    assert_int_equal(rsp.size, bytes);
    assert_int_equal(rsp.base, bus[0]);
    mr.alloc_handle = rsp.handle;
    mr.flags = (rnd() & 1) ? GMMU_MAP_FLAG_CACHE_COHERENT : 0;
    assert_int_equal(gmmu_map_va(dev, &mr, &va), 0);

    /* The host writes its pages; the model is what it wrote. */
    for (size_t i = 0; i < bytes; i += 8) {
        uint64_t w = rnd();

        memcpy(model + i, &w, 8);
    }
    for (size_t i = 0; i < n; i++)
        memcpy(host[i], model + i * PAGE, PAGE);

    /* Where the tables put each page, and with which page size. */
    for (int k = 0; k < 8; k++) {
        uint64_t off = between(0, n - 1) * PAGE + between(0, 511) * 8;
        struct gmmu_query_rsp q;

        assert_int_equal(gmmu_query_va(dev, as, va + off, &q), 0);
        assert_int_equal(q.state, 2);
        assert_int_equal(q.segment, 0);
        assert_int_equal(q.pa, bus[off / PAGE] + off % PAGE);
        assert_int_equal(q.page_shift, want_shift(bus, n, va, off));
        large_checked += q.page_shift > 12;
    }

    for (int k = 0; k < 6; k++) {
        uint64_t off, src, s1, s2;
        uint32_t len;
        struct gmmu_engine_rsp r;
        unsigned op = (unsigned)(rnd() % 3);
        uint32_t engine = (uint32_t)(rnd() % 4);

        pick_range(bytes, &off, &len);
        if (op == OP_CHECKSUM) {
            r = soc_engine_run(dev, engine, OP_CHECKSUM, as, 0, va + off, len, 0);
            snprintf(what, sizeof(what), "round %u checksum [%#llx, +%u)", round,
                     (unsigned long long)off, len);
            engine_ok(&r, len, what);
            checksum(model + off, len, &s1, &s2);
            assert_int_equal(r.result, s1);
            assert_int_equal(r.result2, s2);
        } else if (op == OP_FILL) {
            uint64_t pattern = rnd();

            r = soc_engine_run(dev, engine, OP_FILL, as, va + off, 0, len, pattern);
            snprintf(what, sizeof(what), "round %u fill [%#llx, +%u)", round,
                     (unsigned long long)off, len);
            engine_ok(&r, len, what);
            for (uint32_t b = 0; b < len; b += 8)
                memcpy(model + off + b, &pattern, 8);
            expect_host(host, model, n, what);
        } else {
            /* A source that does not overlap the destination. */
            uint32_t tries = 0;

            do {
                src = between(0, (bytes - len) / 64) * 64;
            } while (src < off + len && off < src + len && ++tries < 64);
            if (src < off + len && off < src + len)
                continue;
            r = soc_engine_run(dev, engine, OP_COPY, as, va + off, va + src, len, 0);
            snprintf(what, sizeof(what), "round %u copy [%#llx, +%u) to %#llx", round,
                     (unsigned long long)src, len, (unsigned long long)off);
            engine_ok(&r, len, what);
            memmove(model + off, model + src, len);
            expect_host(host, model, n, what);
        }
    }
    /* The host writes again, an engine sums the whole list. */
    for (size_t i = 0; i < n; i++) {
        uint64_t w = rnd();

        memcpy(model + i * PAGE, &w, 8);
        memcpy(host[i], &w, 8);
    }
    {
        uint32_t len = bytes > 64 * KIB ? 64 * KIB : (uint32_t)bytes;
        uint64_t off = bytes - len, s1, s2;
        struct gmmu_engine_rsp r = soc_engine_run(dev, 3, OP_CHECKSUM, as, 0, va + off, len, 0);

        engine_ok(&r, len, "final checksum");
        checksum(model + off, len, &s1, &s2);
        assert_int_equal(r.result, s1);
        assert_int_equal(r.result2, s2);
    }
    assert_int_equal(gmmu_free(dev, rsp.handle), 0);
    assert_int_equal(gmmu_get_vram(dev, &v1), 0);
    assert_int_equal(v1.allocations, v0.allocations);
    assert_int_equal(gmmu_sysmem_free_pages(dev, bus, n), 0);
    free(bus);
    free(host);
    free(model);
}

static struct gmmu_dev *dev;

static void test_scattered_pages(void **state)
{
    uint32_t as, asid;
    struct gmmu_vram_rsp v0, v1;

    (void)state;
    rng_state = seed;
    printf("seed %llu, %u rounds\n", (unsigned long long)seed, rounds);
    assert_int_equal(gmmu_get_vram(dev, &v0), 0);
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    for (unsigned r = 0; r < rounds; r++)
        one_round(dev, as, r);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_get_vram(dev, &v1), 0);
    assert_int_equal(v1.allocations, v0.allocations);
    assert_int_equal(v1.free_bytes, v0.free_bytes);
    printf("%u of the QUERY_VAs expected a 64 KB or 2 MB page\n", large_checked);
}

int main(int argc, char **argv)
{
    const char *e;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scattered_pages),
    };

    if ((e = getenv("GMMU_PAGES_ROUNDS")))
        rounds = (unsigned)strtoul(e, NULL, 0);
    if ((e = getenv("GMMU_PAGES_SEED")))
        seed = strtoull(e, NULL, 0);
    if (argc > 1)
        rounds = (unsigned)strtoul(argv[1], NULL, 0);
    if (argc > 2)
        seed = strtoull(argv[2], NULL, 0);
    return soc_run_tests(tests, &dev);
}
