// SPDX-License-Identifier: Apache-2.0
/*
 * System memory (segment 0) end to end on the simulated SoC: the host
 * registers a buffer of its own memory with the simulated link
 * (gmmu_sysmem_alloc), VidMm maps it as an ALLOC_FLAG_SYSTEM allocation,
 * and GPU engines fill it, copy it to and from VRAM and checksum it through
 * the MMU. The bytes are checked directly in the host buffer and through the
 * VRAM aperture against values computed here. The simulator log (argv[1])
 * shows what reached the system-memory port per host: CacheCoherent pages
 * must arrive as coherent bursts, the others as non-coherent ones.
 * Accesses beyond the buffer, and to it after its host has left, must fault
 * cleanly while the device keeps serving.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gmmu/pte.h"
#include "soc_test_util.h"

#define KIB             1024ull
#define OP_FILL         0u
#define OP_COPY         1u
#define OP_CHECKSUM     2u
#define STATUS_FAULT    0x4u
#define FAULT_BUS_ERROR 4u
#define ACCESS_READ     0u
#define ACCESS_WRITE    1u
#define CHUNK           64u /* bytes per engine burst */

static const char *sim_log;

/* ------------------------------------------------------------ helpers */

static struct gmmu_dev *open_dev(void)
{
    struct gmmu_dev *dev = NULL;
    assert_int_equal(soc_open(&dev), 0);
    return dev;
}

static uint64_t word_at(size_t i)
{
    return (uint64_t)i * 0x9E3779B97F4A7C15ull ^ 0xA5A5F00D12345678ull;
}

static void checksum(const uint64_t *w, size_t n, uint64_t *s1, uint64_t *s2)
{
    *s1 = *s2 = 0;
    for (size_t i = 0; i < n; i++) {
        *s1 += w[i];
        *s2 += *s1;
    }
}

static uint32_t sys_alloc(struct gmmu_dev *dev, uint64_t size, uint64_t bus)
{
    struct gmmu_alloc_req req = { .size = size, .flags = GMMU_ALLOC_FLAG_SYSTEM, .sys_addr = bus };
    struct gmmu_alloc_rsp rsp;
    assert_int_equal(gmmu_alloc(dev, &req, &rsp), 0);
    assert_int_equal(rsp.base, bus);
    return rsp.handle;
}

static uint32_t vram_alloc(struct gmmu_dev *dev, uint64_t size, uint64_t *base)
{
    struct gmmu_alloc_req req = { .size = size, .flags = GMMU_ALLOC_FLAG_CONTIGUOUS };
    struct gmmu_alloc_rsp rsp;
    assert_int_equal(gmmu_alloc(dev, &req, &rsp), 0);
    *base = rsp.base;
    return rsp.handle;
}

static uint64_t map(struct gmmu_dev *dev, uint32_t as, uint32_t alloc, uint64_t size,
                    uint32_t flags)
{
    struct gmmu_map_req req = {
        .as_handle = as, .alloc_handle = alloc, .size = size, .flags = flags
    };
    uint64_t va = 0;
    assert_int_equal(gmmu_map_va(dev, &req, &va), 0);
    return va;
}

static void assert_ok(const struct gmmu_engine_rsp *r, uint32_t len)
{
    if (r->engine_status & STATUS_FAULT)
        fail_msg("engine fault: status %#x at VA %#llx", r->engine_status,
                 (unsigned long long)r->fault_va);
    assert_int_equal(r->bytes_done, len);
}

static void assert_fault(const struct gmmu_engine_rsp *r, unsigned access, uint64_t va,
                         uint32_t bytes_done)
{
    assert_int_equal(r->engine_status & STATUS_FAULT, STATUS_FAULT);
    assert_int_equal((r->engine_status >> 4) & 7u, FAULT_BUS_ERROR);
    assert_int_equal((r->engine_status >> 8) & 3u, access);
    assert_int_equal(r->fault_va, va);
    assert_int_equal(r->bytes_done, bytes_done);
}

static void assert_words(const uint64_t *got, uint64_t (*want)(size_t), size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want(i))
            fail_msg("%s: word %zu is %#llx, want %#llx", what, i, (unsigned long long)got[i],
                     (unsigned long long)want(i));
    }
}

static void assert_all(const uint64_t *got, uint64_t value, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != value)
            fail_msg("%s: word %zu is %#llx, want %#llx", what, i, (unsigned long long)got[i],
                     (unsigned long long)value);
    }
}

/* ------------------------------------------------------------ the sim log */

struct port_counts {
    unsigned long long rd, rd_coherent, wr, wr_coherent, rd_err, wr_err, proto;
};

/* The last per-host line the simulator printed, within 20 s of the host
 * leaving; false if none appeared. */
static bool last_host_counts(unsigned min_lines, struct port_counts *c)
{
    for (int tries = 0; tries < 200; tries++) {
        FILE *f = fopen(sim_log, "r");
        assert_non_null(f);
        char line[512];
        unsigned lines = 0;
        while (fgets(line, sizeof line, f)) {
            unsigned host;
            if (sscanf(line,
                       "sim: sysmem host %u: read bursts %llu (coherent %llu), write bursts "
                       "%llu (coherent %llu), error beats read %llu write %llu, protocol "
                       "errors %llu",
                       &host, &c->rd, &c->rd_coherent, &c->wr, &c->wr_coherent, &c->rd_err,
                       &c->wr_err, &c->proto) == 8)
                lines++;
        }
        fclose(f);
        if (lines >= min_lines)
            return true;
        struct timespec ts = { .tv_nsec = 100000000 };
        nanosleep(&ts, NULL);
    }
    return false;
}

static unsigned host_lines(void)
{
    FILE *f = fopen(sim_log, "r");
    assert_non_null(f);
    char line[512];
    unsigned n = 0;
    while (fgets(line, sizeof line, f))
        n += strncmp(line, "sim: sysmem host ", 17) == 0;
    fclose(f);
    return n;
}

/* ------------------------------------------------------------ tests */

enum { BUF = 256 * KIB, SRC = 64 * KIB, FILLED = 32 * KIB };
static const uint64_t pattern = 0xC0FFEE00DEADBEEFull;

/* Engines fill host memory, copy it to VRAM and back, and sum it; the host
 * sees every byte in its own buffer. Run alone on a connection, so the
 * per-host port counts are exactly the bursts computed here. */
static void test_engines_on_host_memory(void **state)
{
    (void)state;
    unsigned lines_before = host_lines();
    struct gmmu_dev *dev = open_dev();
    uint64_t bus = 0;
    void *host = NULL;
    assert_int_equal(gmmu_sysmem_alloc(dev, BUF, &bus, &host), 0);
    assert_int_equal(bus % (4 * KIB), 0);
    /* Above 4 GiB: the port's address bits above 31 carry the page. */
    assert_true(bus >= (1ull << 32));
    uint64_t *hw = host;
    for (size_t i = 0; i < SRC / 8; i++)
        hw[i] = word_at(i);

    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    uint32_t sys = sys_alloc(dev, BUF, bus);
    uint64_t va = map(dev, as, sys, BUF, GMMU_MAP_FLAG_CACHE_COHERENT);
    uint64_t va_nc = map(dev, as, sys, BUF, 0); /* the same pages, not coherent */
    uint64_t vram_base;
    uint32_t vram = vram_alloc(dev, SRC, &vram_base);
    uint64_t vva = map(dev, as, vram, SRC, 0);

    /* Fill: host memory [64K, 96K) only. */
    struct gmmu_engine_rsp r = soc_engine_run(dev, 0, OP_FILL, as, va + SRC, 0, FILLED, pattern);
    assert_ok(&r, FILLED);
    assert_words(hw, word_at, SRC / 8, "fill left the source alone");
    assert_all(hw + SRC / 8, pattern, FILLED / 8, "fill in host memory");
    assert_all(hw + (SRC + FILLED) / 8, 0, (BUF - SRC - FILLED) / 8, "beyond the fill");

    /* Host memory -> VRAM, checked through the aperture. */
    r = soc_engine_run(dev, 1, OP_COPY, as, vva, va, SRC, 0);
    assert_ok(&r, SRC);
    uint64_t *got = malloc(SRC);
    assert_int_equal(gmmu_vram_read(dev, vram_base, got, SRC), 0);
    assert_words(got, word_at, SRC / 8, "copy to VRAM");

    /* VRAM -> host memory [128K, 192K). */
    r = soc_engine_run(dev, 2, OP_COPY, as, va + 2 * SRC, vva, SRC, 0);
    assert_ok(&r, SRC);
    assert_words(hw + 2 * SRC / 8, word_at, SRC / 8, "copy from VRAM");

    /* Checksums, coherent and not, of what the host wrote and the fill. */
    uint64_t s1, s2;
    r = soc_engine_run(dev, 3, OP_CHECKSUM, as, 0, va, SRC, 0);
    assert_ok(&r, SRC);
    checksum(got, SRC / 8, &s1, &s2); /* got = word_at(i), checked above */
    assert_int_equal(r.result, s1);
    assert_int_equal(r.result2, s2);
    uint64_t fill_words[FILLED / 8];
    for (size_t i = 0; i < FILLED / 8; i++)
        fill_words[i] = pattern;
    checksum(fill_words, FILLED / 8, &s1, &s2);
    r = soc_engine_run(dev, 0, OP_CHECKSUM, as, 0, va_nc + SRC, FILLED, 0);
    assert_ok(&r, FILLED);
    assert_int_equal(r.result, s1);
    assert_int_equal(r.result2, s2);
    free(got);

    assert_int_equal(gmmu_free(dev, sys), 0);
    assert_int_equal(gmmu_free(dev, vram), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_sysmem_free(dev, bus), 0);
    gmmu_close(dev);

    /* What reached the port: one burst per 64-byte chunk; CacheCoherent
     * pages as coherent AxCACHE, the other mapping's as non-coherent. */
    struct port_counts c;
    assert_true(last_host_counts(lines_before + 1, &c));
    assert_int_equal(c.wr, (FILLED + SRC) / CHUNK);
    assert_int_equal(c.wr_coherent, (FILLED + SRC) / CHUNK);
    assert_int_equal(c.rd, (SRC + SRC + FILLED) / CHUNK);
    assert_int_equal(c.rd_coherent, (SRC + SRC) / CHUNK);
    assert_int_equal(c.rd_err + c.wr_err + c.proto, 0);
}

/* An allocation larger than the registered buffer: the engine's bursts
 * beyond it answer SLVERR and fault; the device goes on serving. */
static void test_beyond_the_buffer_faults(void **state)
{
    (void)state;
    unsigned lines_before = host_lines();
    struct gmmu_dev *dev = open_dev();
    uint64_t bus = 0;
    void *host = NULL;
    assert_int_equal(gmmu_sysmem_alloc(dev, BUF, &bus, &host), 0);
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    uint32_t sys = sys_alloc(dev, BUF + 64 * KIB, bus);
    uint64_t va = map(dev, as, sys, BUF + 64 * KIB, 0);

    struct gmmu_engine_rsp r = soc_engine_run(dev, 1, OP_FILL, as, va + BUF, 0, 4 * KIB, 0x1234);
    assert_fault(&r, ACCESS_WRITE, va + BUF, 0);
    /* A checksum that runs off the end: the part inside is summed. */
    uint64_t *hw = host;
    for (size_t i = 0; i < BUF / 8; i++)
        hw[i] = word_at(i);
    r = soc_engine_run(dev, 2, OP_CHECKSUM, as, 0, va + BUF - 8 * KIB, 16 * KIB, 0);
    assert_fault(&r, ACCESS_READ, va + BUF, 8 * KIB);
    uint64_t s1, s2;
    checksum(hw + (BUF - 8 * KIB) / 8, 8 * KIB / 8, &s1, &s2);
    assert_int_equal(r.result, s1);
    assert_int_equal(r.result2, s2);

    /* Still serving: inside the buffer, and VRAM. */
    r = soc_engine_run(dev, 3, OP_FILL, as, va, 0, 4 * KIB, pattern);
    assert_ok(&r, 4 * KIB);
    assert_all(hw, pattern, 4 * KIB / 8, "fill after the faults");
    uint64_t vram_base;
    uint32_t vram = vram_alloc(dev, 64 * KIB, &vram_base);
    uint64_t vva = map(dev, as, vram, 64 * KIB, 0);
    r = soc_engine_run(dev, 0, OP_COPY, as, vva, va, 4 * KIB, 0);
    assert_ok(&r, 4 * KIB);
    uint64_t got[4 * KIB / 8];
    assert_int_equal(gmmu_vram_read(dev, vram_base, got, sizeof got), 0);
    assert_all(got, pattern, 4 * KIB / 8, "copy after the faults");

    assert_int_equal(gmmu_free(dev, sys), 0);
    assert_int_equal(gmmu_free(dev, vram), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    gmmu_close(dev); /* leaves the buffer registered: closing frees it */

    struct port_counts c;
    assert_true(last_host_counts(lines_before + 1, &c));
    assert_true(c.wr_err >= 8); /* at least the first burst beyond the end */
    assert_true(c.rd_err >= 8);
    assert_int_equal(c.proto, 0);
}

/* A host leaves with its memory still mapped on the device: the next
 * host's engine runs on those pages fault instead of reaching anything,
 * and a new buffer never gets the old bus address. */
static void test_memory_of_a_host_that_left(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    uint64_t bus = 0;
    void *host = NULL;
    assert_int_equal(gmmu_sysmem_alloc(dev, BUF, &bus, &host), 0);
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    uint32_t sys = sys_alloc(dev, BUF, bus);
    uint64_t va = map(dev, as, sys, BUF, GMMU_MAP_FLAG_CACHE_COHERENT);
    struct gmmu_engine_rsp r = soc_engine_run(dev, 0, OP_FILL, as, va, 0, 4 * KIB, pattern);
    assert_ok(&r, 4 * KIB);
    gmmu_close(dev); /* no free: the allocation and mapping stay */

    dev = open_dev();
    r = soc_engine_run(dev, 1, OP_FILL, as, va, 0, 4 * KIB, 0x5555);
    assert_fault(&r, ACCESS_WRITE, va, 0);
    r = soc_engine_run(dev, 2, OP_CHECKSUM, as, 0, va, 4 * KIB, 0);
    assert_fault(&r, ACCESS_READ, va, 0);
    uint64_t bus2 = 0;
    void *host2 = NULL;
    assert_int_equal(gmmu_sysmem_alloc(dev, BUF, &bus2, &host2), 0);
    assert_true(bus2 != bus);
    assert_int_equal(gmmu_sysmem_free(dev, bus2), 0);
    assert_int_equal(gmmu_sysmem_free(dev, bus2), GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_free(dev, sys), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    gmmu_close(dev);
}

/* ADD_BACKING on registered host memory: the device checks it can write
 * both ends (the two 8-byte words change, nothing between), GET_VRAM
 * counts the range; a range the host never registered is refused and the
 * paging engine serves on; the pool and a SYSTEM allocation never share
 * pages. The range stays the device's when this host leaves: the next
 * test recovers from that. */
static void test_backing_pool_on_host_memory(void **state)
{
    (void)state;
    enum { POOL = 128 * 1024, SPAN = POOL + 64 * 1024 };
    struct gmmu_dev *dev = open_dev();
    uint64_t bus = 0;
    void *host = NULL;
    assert_int_equal(gmmu_sysmem_alloc(dev, SPAN, &bus, &host), 0);
    uint64_t at = (bus + 0xFFFF) & ~(uint64_t)0xFFFF; /* 64 KB aligned */
    uint8_t *pool = (uint8_t *)host + (at - bus);
    memset(pool, 0xAB, POOL);
    struct gmmu_vram_rsp v0, v;
    assert_int_equal(gmmu_get_vram(dev, &v0), 0);

    assert_int_equal(gmmu_add_backing(dev, UINT64_C(1) << 40, 64 * KIB), GMMU_STATUS_OUT_OF_RANGE);
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    assert_int_equal(v.backing_ranges, v0.backing_ranges);

    assert_int_equal(gmmu_add_backing(dev, at, POOL), 0);
    static const uint8_t untouched[8] = { 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB };
    assert_true(memcmp(pool, untouched, 8) != 0);
    assert_true(memcmp(pool + POOL - 8, untouched, 8) != 0);
    assert_memory_equal(pool + 8, untouched, 8);
    assert_memory_equal(pool + POOL / 2, untouched, 8);
    assert_memory_equal(pool + POOL - 16, untouched, 8);
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    assert_int_equal(v.backing_ranges, v0.backing_ranges + 1);
    assert_int_equal(v.backing_bytes, v0.backing_bytes + POOL);
    assert_int_equal(v.backing_free, v0.backing_free + POOL);

    assert_int_equal(gmmu_add_backing(dev, at, 64 * KIB), GMMU_STATUS_OVERLAP);
    struct gmmu_alloc_req req = { .size = 4 * KIB,
                                  .flags = GMMU_ALLOC_FLAG_SYSTEM,
                                  .sys_addr = at };
    struct gmmu_alloc_rsp rsp;
    assert_int_equal(gmmu_alloc(dev, &req, &rsp), GMMU_STATUS_OVERLAP);

    /* The paging engine, restarted after the refused probe, still maps. */
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    struct soc_buffer b = soc_make_buffer(dev, as, 64 * KIB, 0, 0, 0);
    struct gmmu_query_rsp q;
    assert_int_equal(gmmu_query_va(dev, as, b.va, &q), 0);
    assert_int_equal(q.pa, b.base);
    assert_int_equal(gmmu_free(dev, b.alloc), 0);

    /* Residency through the paging engine: a VRAM-preferred allocation
       evicted to this pool by a VRAM-only ALLOC that needs its room keeps
       its VA, and its bytes are in host memory; MAKE_RESIDENT brings them
       back into VRAM. */
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    assert_int_equal(v.allocations, 0); /* so the allocation is the only victim */
    req = (struct gmmu_alloc_req){ .size = 64 * KIB, .flags = GMMU_ALLOC_FLAG_VRAM_PREFERRED };
    assert_int_equal(gmmu_alloc(dev, &req, &rsp), 0);
    uint32_t a = rsp.handle;
    uint8_t pattern[64 * 1024], got[64 * 1024];
    for (size_t i = 0; i < sizeof pattern; i++)
        pattern[i] = (uint8_t)(i * 7 + (i >> 12));
    assert_int_equal(gmmu_vram_write(dev, rsp.base, pattern, sizeof pattern), 0);
    struct gmmu_map_req mr = { .as_handle = as, .alloc_handle = a, .size = 64 * KIB };
    uint64_t va;
    assert_int_equal(gmmu_map_va(dev, &mr, &va), 0);

    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    assert_int_equal(v.evictable_bytes, 64 * KIB);
    req = (struct gmmu_alloc_req){ .size = v.free_bytes + 4 * KIB };
    assert_int_equal(gmmu_alloc(dev, &req, &rsp), 0);
    uint32_t filler = rsp.handle;
    struct gmmu_alloc_info ai;
    assert_int_equal(gmmu_query_alloc(dev, a, &ai), 0);
    assert_int_equal(ai.state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(ai.base, at); /* first fit in the pool */
    assert_memory_equal(pool, pattern, sizeof pattern);
    assert_int_equal(gmmu_query_va(dev, as, va + 0x1000, &q), 0);
    assert_int_equal(q.segment, GMMU_SEGMENT_SYSTEM);
    assert_int_equal(q.pa, at + 0x1000);

    assert_int_equal(gmmu_free(dev, filler), 0);
    uint64_t fence = 0;
    assert_int_equal(gmmu_make_resident(dev, &a, 1, &fence), 0);
    assert_int_equal(gmmu_wait_paging_fence(dev, fence, 1), 0);
    assert_int_equal(gmmu_query_alloc(dev, a, &ai), 0);
    assert_int_equal(ai.state, GMMU_ALLOC_STATE_VRAM);
    assert_int_equal(ai.residency, 1);
    assert_int_equal(gmmu_vram_read(dev, ai.base, got, sizeof got), 0);
    assert_memory_equal(got, pattern, sizeof pattern);
    assert_int_equal(gmmu_query_va(dev, as, va + 0x1000, &q), 0);
    assert_int_equal(q.segment, GMMU_SEGMENT_VRAM);
    assert_int_equal(q.pa, ai.base + 0x1000);
    assert_int_equal(gmmu_evict(dev, &a, 1), 0);
    assert_int_equal(gmmu_evict(dev, &a, 1), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(gmmu_free(dev, a), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    assert_int_equal(v.backing_free, v.backing_bytes);
    gmmu_close(dev);
}

/* The pool range the last test's host gave is gone with that host (the
 * simulator unmaps a leaving host's buffers). A new host finds it in
 * GET_VRAM; an allocation placed there before the recovery faults on use;
 * REMOVE_BACKING UNREACHABLE removes the range and frees what lived in it.
 * Then a range of its own: REMOVE_BACKING moves a system-only allocation
 * into the other range with the paging engine (its bytes follow, its VA
 * stays), and refuses when nothing can take it, changing nothing. */
static void test_pool_of_a_host_that_left(void **state)
{
    (void)state;
    enum { RANGE = 64 * 1024, SPAN = 3 * RANGE };
    struct gmmu_dev *dev = open_dev();
    struct gmmu_vram_rsp v0, v;
    struct gmmu_backing_remove_rsp rr;
    struct gmmu_alloc_info ai;
    struct gmmu_query_rsp q;
    struct gmmu_engine_rsp er;
    uint32_t as, asid;

    assert_int_equal(gmmu_get_vram(dev, &v0), 0);
    assert_int_equal(v0.backing_ranges, 1); /* the last test's, dangling */
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    struct gmmu_alloc_req req = { .size = RANGE, .flags = GMMU_ALLOC_FLAG_SYSTEM_ONLY };
    struct gmmu_alloc_rsp rsp;
    assert_int_equal(gmmu_alloc(dev, &req, &rsp), 0);
    uint32_t lost = rsp.handle;
    uint64_t va = map(dev, as, lost, RANGE, 0);
    er = soc_engine_run(dev, 0, OP_FILL, as, va, 0, CHUNK, 1);
    assert_fault(&er, ACCESS_WRITE, va, 0);

    assert_int_equal(gmmu_remove_backing(dev, 0, 0, GMMU_REMOVE_BACKING_FLAG_UNREACHABLE, &rr), 0);
    assert_int_equal(rr.ranges, 1);
    assert_int_equal(rr.freed, 1);
    assert_int_equal(rr.moved, 0);
    assert_int_equal(gmmu_query_alloc(dev, lost, &ai), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(gmmu_query_va(dev, as, va, &q), 0);
    assert_int_equal(q.state, 0); /* unmapped with it */
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    assert_int_equal(v.backing_ranges, 0);
    assert_int_equal(v.backing_bytes, 0);
    assert_int_equal(v.allocations, v0.allocations);

    /* Two ranges of this host's memory; a system-only allocation in the
       first, its bytes written by the host. */
    uint64_t bus = 0;
    void *host = NULL;
    assert_int_equal(gmmu_sysmem_alloc(dev, SPAN, &bus, &host), 0);
    uint64_t at = (bus + 0xFFFF) & ~(uint64_t)0xFFFF;
    uint8_t *mem = (uint8_t *)host + (at - bus);
    assert_int_equal(gmmu_add_backing(dev, at, RANGE), 0);
    assert_int_equal(gmmu_add_backing(dev, at + RANGE, RANGE), 0);
    assert_int_equal(gmmu_alloc(dev, &req, &rsp), 0);
    uint32_t a = rsp.handle;
    assert_int_equal(rsp.base, at);
    for (size_t i = 0; i < RANGE / 8; i++)
        memcpy(mem + 8 * i, &(uint64_t){ word_at(i) }, 8);
    va = map(dev, as, a, RANGE, 0);

    assert_int_equal(gmmu_remove_backing(dev, at, RANGE, 0, &rr), 0);
    assert_int_equal(rr.ranges, 1);
    assert_int_equal(rr.moved, 1);
    assert_int_equal(gmmu_query_alloc(dev, a, &ai), 0);
    assert_int_equal(ai.state, GMMU_ALLOC_STATE_BACKING);
    assert_int_equal(ai.base, at + RANGE);
    assert_words((const uint64_t *)(const void *)(mem + RANGE), word_at, RANGE / 8,
                 "the allocation's bytes in the second range");
    assert_int_equal(gmmu_query_va(dev, as, va + 0x1000, &q), 0);
    assert_int_equal(q.segment, GMMU_SEGMENT_SYSTEM);
    assert_int_equal(q.pa, at + RANGE + 0x1000);

    /* Nowhere else for it: refused, nothing changed. */
    assert_int_equal(gmmu_get_vram(dev, &v0), 0);
    assert_int_equal(gmmu_remove_backing(dev, at + RANGE, RANGE, 0, &rr), GMMU_STATUS_NO_MEMORY);
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    assert_memory_equal(&v, &v0, sizeof v);
    assert_int_equal(gmmu_query_alloc(dev, a, &ai), 0);
    assert_int_equal(ai.base, at + RANGE);

    assert_int_equal(gmmu_free(dev, a), 0);
    assert_int_equal(gmmu_remove_backing(dev, at + RANGE, RANGE, 0, &rr), 0);
    assert_int_equal(rr.moved, 0);
    assert_int_equal(gmmu_get_vram(dev, &v), 0);
    assert_int_equal(v.backing_ranges, 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_sysmem_free(dev, bus), 0);
    gmmu_close(dev);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s SIM_LOG (with GMMU_DEVICE set)\n", argv[0]);
        return 2;
    }
    sim_log = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engines_on_host_memory),
        cmocka_unit_test(test_beyond_the_buffer_faults),
        cmocka_unit_test(test_memory_of_a_host_that_left),
        cmocka_unit_test(test_backing_pool_on_host_memory),
        cmocka_unit_test(test_pool_of_a_host_that_left),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
