// SPDX-License-Identifier: Apache-2.0
/*
 * Directed MMU tests: each PTE bit, each page size, dual-PTE precedence and
 * coverage, each fault reason, bus errors mid-walk, the fault FIFO and its
 * overflow, invalidation types and their DONE, the end of an L2 sweep, invalidation racing walks in
 * flight at every cycle offset, address-space isolation, miss merging, hit
 * latency, the stride prefetch (also against invalidation), the learned
 * jump of the prefetch and the registers. Every response is also checked against the
 * reference model by the testbench core; the tests add their own explicit
 * expectations on top.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmmu/mmu_regs.h"
#include "gmmu/pte_util.h"
#include "mmu_tests.h"
#include "tb.h"

#define TABLE_BASE (UINT64_C(16) << 20)
#define ERR_BASE   (UINT64_C(8) << 20)

struct dt {
    struct tb tb;
    uint64_t next;
    uint64_t root[64];
    unsigned levels;
    unsigned fails;
    const char *name;
};

static struct dt *cur;

static void failf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "  %s: ", cur->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    cur->fails++;
}

#define EXPECT(cond, ...)       \
    do {                        \
        if (!(cond))            \
            failf(__VA_ARGS__); \
    } while (0)

/* ------------------------------------------------------------ tables */

static uint64_t dt_alloc(struct dt *d, uint64_t bytes)
{
    uint64_t a = (d->next + bytes - 1) & ~(bytes - 1);
    d->next = a + bytes;
    return a;
}

static uint64_t rd(struct dt *d, uint64_t a)
{
    return sparse_mem_read_u64(d->tb.mem, a);
}

/* All changes made while no request is in flight count as committed. */
static void wr(struct dt *d, uint64_t a, uint64_t v)
{
    tb_write_word(&d->tb, a, v);
}

static void commit(struct dt *d)
{
    tb_invalidate(&d->tb, GMMU_INV_ALL, 0, 0, 0);
}

static void dt_new_as(struct dt *d, unsigned asid)
{
    d->root[asid] = dt_alloc(d, d->levels == 2 ? GMMU_L1_TABLE_BYTES : GMMU_TABLE_BYTES);
    tb_set_as(&d->tb, asid, true, d->root[asid]);
}

/* Address of the entry for va at level (>= 1; level 1: word 0 of the dual
 * entry), creating the tables above it. */
static uint64_t dt_slot(struct dt *d, unsigned asid, uint64_t va, unsigned level)
{
    uint64_t table = d->root[asid];
    for (unsigned l = d->levels - 1; l > level; l--) {
        uint64_t a = table + (uint64_t)gmmu_va_index(va, l) * (l == 1 ? 16 : 8);
        uint64_t e = rd(d, a);
        if (!gmmu_pte_is_valid(e) || gmmu_pte_is_large_page(e) || gmmu_pte_is_zero(e)) {
            e = gmmu_pte_make_table(
                dt_alloc(d, l - 1 == 1 ? GMMU_L1_TABLE_BYTES : GMMU_TABLE_BYTES));
            wr(d, a, e);
        }
        table = gmmu_pte_addr(e);
    }
    return table + (uint64_t)gmmu_va_index(va, level) * (level == 1 ? 16 : 8);
}

/* The 4 KB leaf entry of va (creating its table in dual word 0). */
static uint64_t dt_leaf4k(struct dt *d, unsigned asid, uint64_t va)
{
    uint64_t a = dt_slot(d, asid, va, 1);
    uint64_t w0 = rd(d, a);
    if (!gmmu_pte_is_valid(w0) || gmmu_pte_is_large_page(w0) || gmmu_pte_is_zero(w0)) {
        w0 = gmmu_pte_make_table(dt_alloc(d, GMMU_TABLE_BYTES));
        wr(d, a, w0);
    }
    return gmmu_pte_addr(w0) + (uint64_t)gmmu_va_index(va, 0) * 8;
}

/* The 64 KB leaf entry of va (creating its table in dual word 1). */
static uint64_t dt_leaf64k(struct dt *d, unsigned asid, uint64_t va)
{
    uint64_t a = dt_slot(d, asid, va, 1) + 8;
    uint64_t w1 = rd(d, a);
    if (!gmmu_pte_is_valid(w1) || gmmu_pte_is_large_page(w1) || gmmu_pte_is_zero(w1)) {
        w1 = gmmu_pte_make_table_64k(dt_alloc(d, GMMU_LEAF64K_TABLE_BYTES));
        wr(d, a, w1);
    }
    return gmmu_pte_addr(w1) + (uint64_t)gmmu_va_index_64k(va) * 8;
}

/* ------------------------------------------------------------ requests */

struct got {
    bool seen;
    struct dut_rsp rsp;
    uint64_t cycle;
};
static struct got got_tag[DUT_MAX_PORTS][TB_MAX_TAGS];

static void record_rsp(struct tb *tb, unsigned port, const struct dut_rsp *r,
                       const struct tb_pending *req, void *ctx)
{
    (void)tb;
    (void)req;
    (void)ctx;
    got_tag[port][r->tag] = (struct got){ true, *r, tb_now(tb) };
}

/* Present one request; returns its tag (the response lands in got_tag). */
static unsigned issue(struct dt *d, unsigned port, unsigned asid, uint64_t va, unsigned access)
{
    struct tb *tb = &d->tb;
    while (!tb_port_idle(tb, port))
        tb_cycle(tb);
    tb_present(tb, port, asid, va, access);
    unsigned tag = tb->io.req[port].tag;
    got_tag[port][tag].seen = false;
    return tag;
}

static struct dut_rsp wait_rsp(struct dt *d, unsigned port, unsigned tag)
{
    for (unsigned i = 0; i < 100000 && !got_tag[port][tag].seen; i++)
        tb_cycle(&d->tb);
    if (!got_tag[port][tag].seen)
        failf("no response on port %u tag %u", port, tag);
    return got_tag[port][tag].rsp;
}

static struct dut_rsp xlate(struct dt *d, unsigned asid, uint64_t va, unsigned access)
{
    unsigned tag = issue(d, 0, asid, va, access);
    return wait_rsp(d, 0, tag);
}

static void expect_fault(unsigned asid, uint64_t va, unsigned access, unsigned fault)
{
    struct dut_rsp r = xlate(cur, asid, va, access);
    EXPECT(r.fault == fault, "va 0x%" PRIx64 " access %u: fault %s, expected %s", va, access,
           gmmu_ref_fault_name(r.fault), gmmu_ref_fault_name(fault));
}

static void expect_page(unsigned asid, uint64_t va, unsigned access, uint64_t pa, unsigned psize,
                        unsigned seg)
{
    struct dut_rsp r = xlate(cur, asid, va, access);
    EXPECT(r.fault == GMMU_FAULT_NONE && !r.zero && r.pa == pa && r.psize == psize && r.seg == seg,
           "va 0x%" PRIx64 ": fault %s zero %u pa 0x%" PRIx64
           " psize %u seg %u, expected pa 0x%" PRIx64 " psize %u seg %u",
           va, gmmu_ref_fault_name(r.fault), r.zero, r.pa, r.psize, r.seg, pa, psize, seg);
}

static void expect_zero(unsigned asid, uint64_t va, unsigned access, unsigned psize)
{
    struct dut_rsp r = xlate(cur, asid, va, access);
    EXPECT(r.fault == GMMU_FAULT_NONE && r.zero && r.pa == 0 && r.psize == psize,
           "va 0x%" PRIx64 ": fault %s zero %u psize %u, expected a zero range of psize %u", va,
           gmmu_ref_fault_name(r.fault), r.zero, r.psize, psize);
}

/* Counters count an event one cycle after it (mmu_regs registers the
 * events), a port's events two (the port registers them too; so does the
 * shared fault count, which sums them), so a read right after a response
 * first lets those cycles pass. */
enum { PERF_LAG_CYCLES = 2 };

static uint32_t perf_read(struct dt *d, uint32_t addr)
{
    for (int i = 0; i < PERF_LAG_CYCLES; i++)
        tb_cycle(&d->tb);
    return tb_wb_read(&d->tb, addr);
}

static uint32_t perf_port(struct dt *d, unsigned port, unsigned c)
{
    return perf_read(d, GMMU_MMU_PERF_PORT + port * GMMU_PERF_PORT_STRIDE + 4 * c);
}

static uint32_t perf_shared(struct dt *d, unsigned c)
{
    return perf_read(d, GMMU_MMU_PERF_SHARED + 4 * c);
}

/* ------------------------------------------------------------ tests */

#define VA1 UINT64_C(0x0000123456789000)
#define PA1 UINT64_C(0x0000000ABCDE0000)

static void t_registers(struct dt *d)
{
    struct tb *tb = &d->tb;
    struct dut_params p = tb->prm;
    EXPECT(tb_wb_read(tb, GMMU_MMU_ID) == GMMU_MMU_ID_VALUE, "ID");
    uint32_t c = tb_wb_read(tb, GMMU_MMU_CONFIG);
    EXPECT((c & GMMU_MMU_CONFIG_PORTS) == p.ports, "CONFIG.PORTS %u", c & GMMU_MMU_CONFIG_PORTS);
    EXPECT(((c & GMMU_MMU_CONFIG_LEVELS) >> GMMU_MMU_CONFIG_LEVELS_LSB) == p.levels,
           "CONFIG.LEVELS");
    EXPECT(((c & GMMU_MMU_CONFIG_WALKERS) >> GMMU_MMU_CONFIG_WALKERS_LSB) == p.walkers,
           "CONFIG.WALKERS");
    EXPECT(((c & GMMU_MMU_CONFIG_L1_ENTRIES) >> GMMU_MMU_CONFIG_L1_ENTRIES_LSB) == p.l1_entries,
           "CONFIG.L1_ENTRIES");
    EXPECT(((c & GMMU_MMU_CONFIG_ASID_BITS) >> GMMU_MMU_CONFIG_ASID_BITS_LSB) == p.asid_bits,
           "CONFIG.ASID_BITS");
    uint32_t c2 = tb_wb_read(tb, GMMU_MMU_CONFIG2);
    EXPECT((c2 & GMMU_MMU_CONFIG2_L2_ENTRIES) >= 512, "CONFIG2.L2_ENTRIES %u", c2 & 0xFFFF);
    EXPECT(((c2 & GMMU_MMU_CONFIG2_PWC_ENTRIES) >> GMMU_MMU_CONFIG2_PWC_ENTRIES_LSB) ==
               p.pwc_entries,
           "CONFIG2.PWC_ENTRIES");
    EXPECT(((c2 & GMMU_MMU_CONFIG2_FAULT_DEPTH) >> GMMU_MMU_CONFIG2_FAULT_DEPTH_LSB) ==
               GMMU_FAULT_FIFO_DEPTH,
           "CONFIG2.FAULT_DEPTH");
    /* Read-back of the invalidation parameters (low 12 bits read as 0). */
    tb_wb_write(tb, GMMU_MMU_INV_START_LO, 0x12345FFF);
    tb_wb_write(tb, GMMU_MMU_INV_START_HI, 0xCAFE);
    tb_wb_write(tb, GMMU_MMU_INV_END_LO, 0xFFFFFFFF);
    tb_wb_write(tb, GMMU_MMU_INV_ASID, 5);
    EXPECT(tb_wb_read(tb, GMMU_MMU_INV_START_LO) == 0x12345000, "INV_START_LO read-back");
    EXPECT(tb_wb_read(tb, GMMU_MMU_INV_START_HI) == 0xCAFE, "INV_START_HI read-back");
    EXPECT(tb_wb_read(tb, GMMU_MMU_INV_END_LO) == 0xFFFFF000, "INV_END_LO read-back");
    EXPECT(tb_wb_read(tb, GMMU_MMU_INV_ASID) == 5, "INV_ASID read-back");
    /* Address-space table read-back, first and last entry. */
    unsigned last = (1u << p.asid_bits) - 1;
    tb_wb_write(tb, GMMU_MMU_AS_ROOT_LO + last * GMMU_AS_STRIDE, 0xABCDE001);
    tb_wb_write(tb, GMMU_MMU_AS_ROOT_HI + last * GMMU_AS_STRIDE, 0x000F1234);
    EXPECT(tb_wb_read(tb, GMMU_MMU_AS_ROOT_LO + last * GMMU_AS_STRIDE) == 0xABCDE001, "AS_ROOT_LO");
    EXPECT(tb_wb_read(tb, GMMU_MMU_AS_ROOT_HI + last * GMMU_AS_STRIDE) == 0x000F1234, "AS_ROOT_HI");
    tb_wb_write(tb, GMMU_MMU_AS_ROOT_LO + last * GMMU_AS_STRIDE, 0);
    EXPECT(tb_wb_read(tb, GMMU_MMU_AS_ROOT_LO) == 0, "AS entry 0 after reset");
    EXPECT(tb_wb_read(tb, 0x0ffc) == 0, "unused offset reads 0");
    EXPECT(tb_wb_read(tb, GMMU_MMU_INV_STATUS) & GMMU_MMU_INV_STATUS_DONE, "DONE after reset");
    EXPECT(tb_wb_read(tb, GMMU_MMU_FAULT_STATUS) == 0, "fault FIFO empty after reset");
    EXPECT(!tb->io.irq, "no interrupt after reset");
    /* Perf counters count and clear. */
    EXPECT(perf_shared(d, GMMU_PERF_CYCLES) > 0, "PERF_CYCLES counts");
    tb_wb_write(tb, GMMU_MMU_PERF_CTRL, GMMU_MMU_PERF_CTRL_CLEAR);
    EXPECT(perf_shared(d, GMMU_PERF_CYCLES) < 4, "PERF_CTRL.CLEAR");
}

/* Every attribute bit on a 4 KB page, with every access type. */
static void t_pte_bits(struct dt *d)
{
    dt_new_as(d, 1);
    static const uint64_t attr_sets[8] = { 0,
                                           GMMU_PTE_CACHE_COHERENT,
                                           GMMU_PTE_READ_ONLY,
                                           GMMU_PTE_NO_EXECUTE,
                                           GMMU_PTE_READ_ONLY | GMMU_PTE_NO_EXECUTE,
                                           GMMU_PTE_PAGE_ATTRS,
                                           GMMU_PTE_CACHE_COHERENT | GMMU_PTE_NO_EXECUTE,
                                           GMMU_PTE_CACHE_COHERENT | GMMU_PTE_READ_ONLY };
    for (unsigned i = 0; i < 8; i++) {
        uint64_t va = VA1 + i * 0x1000;
        wr(d, dt_leaf4k(d, 1, va), gmmu_pte_make_page(PA1 + i * 0x1000, i % 2, attr_sets[i]));
    }
    /* Segments: every value is carried for pages. Reserved bits and
     * TABLE_64K are ignored; PA[11:8] of a 4 KB page is masked. */
    for (unsigned s = 0; s < 32; s++)
        wr(d, dt_leaf4k(d, 1, VA1 + 0x100000 + s * 0x1000),
           gmmu_pte_make_page(PA1 + s * 0x1000, s, 0) | (s & 1 ? UINT64_C(0xFE00000000000080) : 0) |
               (s & 2 ? GMMU_PTE_TABLE_64K : 0) | gmmu_pte_addr_bits(0x300));
    commit(d);
    for (unsigned i = 0; i < 8; i++) {
        uint64_t va = VA1 + i * 0x1000 + 0x123;
        uint64_t a = attr_sets[i];
        for (unsigned acc = 0; acc < 3; acc++) {
            struct dut_rsp r = xlate(d, 1, va, acc);
            unsigned want =
                (acc == GMMU_ACCESS_WRITE && (a & GMMU_PTE_READ_ONLY))      ? GMMU_FAULT_READ_ONLY
                : (acc == GMMU_ACCESS_EXECUTE && (a & GMMU_PTE_NO_EXECUTE)) ? GMMU_FAULT_NO_EXECUTE
                                                                            : GMMU_FAULT_NONE;
            EXPECT(r.fault == want, "attrs %u access %u: fault %s", i, acc,
                   gmmu_ref_fault_name(r.fault));
            if (want == GMMU_FAULT_NONE) {
                EXPECT(r.pa == PA1 + i * 0x1000 + 0x123, "attrs %u: pa", i);
                EXPECT(r.cc == !!(a & GMMU_PTE_CACHE_COHERENT) &&
                           r.ro == !!(a & GMMU_PTE_READ_ONLY) &&
                           r.nx == !!(a & GMMU_PTE_NO_EXECUTE) && r.seg == i % 2,
                       "attrs %u: cc %u ro %u nx %u seg %u", i, r.cc, r.ro, r.nx, r.seg);
            }
        }
    }
    for (unsigned s = 0; s < 32; s++)
        expect_page(1, VA1 + 0x100000 + s * 0x1000 + 0xFFF, GMMU_ACCESS_READ,
                    PA1 + s * 0x1000 + 0xFFF, GMMU_PSIZE_4K, s);
    /* VALID = 0 with everything else set: INVALID. */
    wr(d, dt_leaf4k(d, 1, VA1), gmmu_pte_make_page(PA1, 1, GMMU_PTE_PAGE_ATTRS) & ~GMMU_PTE_VALID);
    commit(d);
    expect_fault(1, VA1, GMMU_ACCESS_READ, GMMU_FAULT_INVALID);
}

/* 4 KB, 64 KB (dual word 1), 2 MB (word 0 large), 1 GB (level 2 large),
 * and zero ranges at every level. */
static void t_page_sizes(struct dt *d)
{
    dt_new_as(d, 2);
    uint64_t base = UINT64_C(0x0000008000000000); /* level-3 index 1 */
    /* 4 KB */
    wr(d, dt_leaf4k(d, 2, base), gmmu_pte_make_page(0x1000, 1, 0));
    /* 64 KB: a region with only a 64 KB table; PA low bits are masked. */
    uint64_t v64 = base + (UINT64_C(1) << 21);
    wr(d, dt_leaf64k(d, 2, v64 + 0x30000), gmmu_pte_make_page(UINT64_C(0x7650000) | 0xF00, 1, 0));
    /* 2 MB: word 0 large, PA low bits masked. */
    uint64_t v2m = base + (UINT64_C(2) << 21);
    wr(d, dt_slot(d, 2, v2m, 1), gmmu_pte_make_large_page(UINT64_C(0x40000000) | 0x1FF000, 0, 0));
    /* 1 GB: level-2 large page. */
    uint64_t v1g = base + (UINT64_C(1) << 30);
    wr(d, dt_slot(d, 2, v1g, 2),
       gmmu_pte_make_large_page(UINT64_C(0x80000000), 1, GMMU_PTE_CACHE_COHERENT));
    /* Zero ranges: level 3 (512 GB), level 2 (1 GB), word 0 (2 MB), word 1
     * (2 MB), 4 KB leaf, 64 KB leaf. */
    uint64_t vz3 = UINT64_C(2) << 39;
    wr(d, dt_slot(d, 2, vz3, 3), gmmu_pte_make_zero(0));
    uint64_t vz2 = base + (UINT64_C(2) << 30);
    wr(d, dt_slot(d, 2, vz2, 2), gmmu_pte_make_zero(GMMU_PTE_READ_ONLY));
    uint64_t vz1 = base + (UINT64_C(3) << 21);
    wr(d, dt_slot(d, 2, vz1, 1), gmmu_pte_make_zero(0));
    uint64_t vz1b = base + (UINT64_C(4) << 21);
    wr(d, dt_slot(d, 2, vz1b, 1) + 8, gmmu_pte_make_zero(GMMU_PTE_NO_EXECUTE));
    uint64_t vz0 = base + (UINT64_C(5) << 21);
    wr(d, dt_leaf4k(d, 2, vz0), gmmu_pte_make_zero(0));
    wr(d, dt_leaf64k(d, 2, vz0 + 0x10000), gmmu_pte_make_zero(0));
    commit(d);

    expect_page(2, base + 0xABC, GMMU_ACCESS_READ, 0x1ABC, GMMU_PSIZE_4K, 1);
    expect_page(2, v64 + 0x3FEDC, GMMU_ACCESS_WRITE, 0x765FEDC, GMMU_PSIZE_64K, 1);
    expect_page(2, v2m + 0x12345, GMMU_ACCESS_EXECUTE, UINT64_C(0x40012345), GMMU_PSIZE_2M, 0);
    expect_page(2, v1g + 0x3FFFFFFF, GMMU_ACCESS_READ, UINT64_C(0xBFFFFFFF), GMMU_PSIZE_1G, 1);
    expect_zero(2, vz3 + UINT64_C(0x7012345678), GMMU_ACCESS_WRITE, GMMU_PSIZE_512G);
    expect_zero(2, vz2 + 0x1234, GMMU_ACCESS_READ, GMMU_PSIZE_1G);
    expect_fault(2, vz2 + 0x1234, GMMU_ACCESS_WRITE, GMMU_FAULT_READ_ONLY); /* RO zero range */
    expect_zero(2, vz1 + 0x1FFFFF, GMMU_ACCESS_EXECUTE, GMMU_PSIZE_2M);
    expect_zero(2, vz1b, GMMU_ACCESS_WRITE, GMMU_PSIZE_2M);
    expect_fault(2, vz1b, GMMU_ACCESS_EXECUTE, GMMU_FAULT_NO_EXECUTE);
    expect_zero(2, vz0 + 0x10, GMMU_ACCESS_READ, GMMU_PSIZE_4K);
    expect_zero(2, vz0 + 0x10010, GMMU_ACCESS_READ, GMMU_PSIZE_64K);
    /* Second time round: the same answers from the TLBs. */
    expect_page(2, v1g + 0x1000, GMMU_ACCESS_READ, UINT64_C(0x80001000), GMMU_PSIZE_1G, 1);
    expect_page(2, v2m + 0x1FFFFF, GMMU_ACCESS_READ, UINT64_C(0x401FFFFF), GMMU_PSIZE_2M, 0);
    expect_page(2, v64 + 0x30000, GMMU_ACCESS_READ, 0x7650000, GMMU_PSIZE_64K, 1);
    expect_zero(2, vz3 + 0x55555000, GMMU_ACCESS_READ, GMMU_PSIZE_512G);
}

/* Dual PTE: which slot wins, and what a translation may be reused for. */
static void t_dual_pte(struct dt *d)
{
    dt_new_as(d, 3);
    uint64_t r = UINT64_C(0x40000000); /* a 2 MB region with both tables */
    /* 64 KB page 0 of the region (covers 4 KB pages 0..15); 4 KB pages 1
     * and 5 punched into it. */
    wr(d, dt_leaf64k(d, 3, r), gmmu_pte_make_page(0x100000, 1, 0));
    wr(d, dt_leaf4k(d, 3, r + 0x1000), gmmu_pte_make_page(0x201000, 1, 0));
    wr(d, dt_leaf4k(d, 3, r + 0x5000), gmmu_pte_make_page(0x205000, 0, GMMU_PTE_READ_ONLY));
    /* Region 2: word 0 is a 2 MB page, word 1 a 64 KB table: word 0 wins. */
    uint64_t r2 = r + (UINT64_C(1) << 21);
    wr(d, dt_leaf64k(d, 3, r2), gmmu_pte_make_page(0x300000, 1, 0));
    wr(d, dt_slot(d, 3, r2, 1), gmmu_pte_make_large_page(UINT64_C(0x60000000), 1, 0));
    /* Region 3: word 0 a 4 KB table with page 2 only, word 1 a zero range. */
    uint64_t r3 = r + (UINT64_C(2) << 21);
    wr(d, dt_leaf4k(d, 3, r3 + 0x2000), gmmu_pte_make_page(0x402000, 1, 0));
    wr(d, dt_slot(d, 3, r3, 1) + 8, gmmu_pte_make_zero(0));
    /* Region 4: word 0 invalid, word 1 a large page: INVALID (2 MB pages
     * belong in word 0). Region 5: word 1 with a bad segment. */
    uint64_t r4 = r + (UINT64_C(3) << 21), r5 = r + (UINT64_C(4) << 21);
    wr(d, dt_slot(d, 3, r4, 1) + 8, gmmu_pte_make_large_page(0x800000, 1, 0));
    wr(d, dt_slot(d, 3, r5, 1) + 8, gmmu_pte_make_table(0x900000) & ~GMMU_PTE_SEGMENT);
    commit(d);

    /* Through the empty 4 KB slot first: the 64 KB page, reused only for
     * that 4 KB page; then the punched-in 4 KB pages must still win. */
    expect_page(3, r + 0x2345, GMMU_ACCESS_READ, 0x102345, GMMU_PSIZE_64K, 1);
    expect_page(3, r + 0x1345, GMMU_ACCESS_READ, 0x201345, GMMU_PSIZE_4K, 1);
    expect_page(3, r + 0x5345, GMMU_ACCESS_READ, 0x205345, GMMU_PSIZE_4K, 0);
    expect_fault(3, r + 0x5345, GMMU_ACCESS_WRITE, GMMU_FAULT_READ_ONLY);
    expect_page(3, r + 0xF000, GMMU_ACCESS_WRITE, 0x10F000, GMMU_PSIZE_64K, 1);
    expect_page(3, r + 0x1000, GMMU_ACCESS_WRITE, 0x201000, GMMU_PSIZE_4K, 1);
    expect_fault(3, r + 0x10000, GMMU_ACCESS_READ, GMMU_FAULT_INVALID);
    expect_page(3, r2 + 0x1234, GMMU_ACCESS_READ, UINT64_C(0x60001234), GMMU_PSIZE_2M, 1);
    /* The zero range of word 1 stands only where the 4 KB slot is empty. */
    expect_zero(3, r3 + 0x3000, GMMU_ACCESS_READ, GMMU_PSIZE_2M);
    expect_page(3, r3 + 0x2008, GMMU_ACCESS_READ, 0x402008, GMMU_PSIZE_4K, 1);
    expect_zero(3, r3 + 0x1FF000, GMMU_ACCESS_READ, GMMU_PSIZE_2M);
    expect_page(3, r3 + 0x2FF8, GMMU_ACCESS_READ, 0x402FF8, GMMU_PSIZE_4K, 1);
    expect_fault(3, r4 + 0x10, GMMU_ACCESS_READ, GMMU_FAULT_INVALID);
    expect_fault(3, r5 + 0x10, GMMU_ACCESS_READ, GMMU_FAULT_INVALID);
    /* Now remove the 64 KB table: only the 4 KB pages stay (after the
     * invalidation of the region). */
    wr(d, dt_slot(d, 3, r, 1) + 8, 0);
    tb_invalidate(&d->tb, GMMU_INV_RANGE, 3, r, r + 0x1FFFFF);
    expect_fault(3, r + 0x2345, GMMU_ACCESS_READ, GMMU_FAULT_INVALID);
    expect_page(3, r + 0x1345, GMMU_ACCESS_READ, 0x201345, GMMU_PSIZE_4K, 1);
}

/* Every fault reason, at every level it can come from. */
static void t_faults(struct dt *d)
{
    struct tb *tb = &d->tb;
    dt_new_as(d, 4);
    uint64_t b = UINT64_C(0x0000100000000000);
    /* INVALID: V=0 at level 3, 2, dual (both words), leaf; LARGE_PAGE at
     * level 3 and on a leaf; table pointers with a bad segment. */
    uint64_t v[12];
    for (unsigned i = 0; i < 12; i++)
        v[i] = b + ((uint64_t)i << 39);
    wr(d, dt_slot(d, 4, v[0], 3), gmmu_pte_make_table(0x5000) & ~GMMU_PTE_VALID);
    wr(d, dt_slot(d, 4, v[1], 2), 0);
    wr(d, dt_slot(d, 4, v[2], 1), 0);
    wr(d, dt_leaf4k(d, 4, v[3]), 0);
    wr(d, dt_slot(d, 4, v[4], 3), gmmu_pte_make_large_page(0, 1, 0));
    wr(d, dt_leaf4k(d, 4, v[5]), gmmu_pte_make_large_page(0x1000, 1, 0));
    wr(d, dt_slot(d, 4, v[6], 3), gmmu_pte_make_table(0x6000) & ~GMMU_PTE_SEGMENT);
    wr(d, dt_slot(d, 4, v[7], 2),
       (gmmu_pte_make_table(0x6000) & ~GMMU_PTE_SEGMENT) | gmmu_pte_segment_bits(2));
    wr(d, dt_slot(d, 4, v[8], 1), gmmu_pte_make_table(0x6000) & ~GMMU_PTE_SEGMENT);
    /* BUS_ERROR: a table beyond the DDR (DECERR), beyond the AXI address
     * space (no read at all), and in a range that answers SLVERR. */
    wr(d, dt_slot(d, 4, v[9], 3), gmmu_pte_make_table(tb->ddr_size + 0x1000));
    wr(d, dt_slot(d, 4, v[10], 2), gmmu_pte_make_table(UINT64_C(0x123400000000)));
    wr(d, dt_slot(d, 4, v[11], 3), gmmu_pte_make_table(ERR_BASE));
    tb_inject_error(tb, ERR_BASE, ERR_BASE + 0x1000);
    /* READ_ONLY / NO_EXECUTE. */
    uint64_t vp = b + 0x1000;
    wr(d, dt_leaf4k(d, 4, vp),
       gmmu_pte_make_page(0x7000, 1, GMMU_PTE_READ_ONLY | GMMU_PTE_NO_EXECUTE));
    commit(d);

    static const unsigned want[12] = {
        GMMU_FAULT_INVALID, GMMU_FAULT_INVALID,   GMMU_FAULT_INVALID,   GMMU_FAULT_INVALID,
        GMMU_FAULT_INVALID, GMMU_FAULT_INVALID,   GMMU_FAULT_INVALID,   GMMU_FAULT_INVALID,
        GMMU_FAULT_INVALID, GMMU_FAULT_BUS_ERROR, GMMU_FAULT_BUS_ERROR, GMMU_FAULT_BUS_ERROR
    };
    uint64_t reads0 = ddr_model_get_stats(tb->ddr).read_bursts;
    for (unsigned i = 0; i < 12; i++)
        for (unsigned acc = 0; acc < 3; acc++)
            expect_fault(4, v[i] + 0x123, acc, want[i]);
    (void)reads0;
    expect_page(4, vp, GMMU_ACCESS_READ, 0x7000, GMMU_PSIZE_4K, 1);
    expect_fault(4, vp, GMMU_ACCESS_WRITE, GMMU_FAULT_READ_ONLY);
    expect_fault(4, vp, GMMU_ACCESS_EXECUTE, GMMU_FAULT_NO_EXECUTE);
    /* ASID_INVALID: an entry that is not valid (with a good root). */
    tb_set_as(tb, 6, false, d->root[4]);
    commit(d);
    expect_fault(6, vp, GMMU_ACCESS_READ, GMMU_FAULT_ASID_INVALID);
    /* VA_RANGE: bit VA_BITS and bit 63. */
    expect_fault(4, UINT64_C(1) << tb->va_bits, GMMU_ACCESS_READ, GMMU_FAULT_VA_RANGE);
    expect_fault(4, vp | (UINT64_C(1) << 63), GMMU_ACCESS_WRITE, GMMU_FAULT_VA_RANGE);
    expect_fault(6, UINT64_C(0xFFFFFFFFFFFFFFFF), GMMU_ACCESS_READ, GMMU_FAULT_VA_RANGE);
    /* A table beyond 4 GiB is never read: no AXI burst for it. */
    uint64_t before = ddr_model_get_stats(tb->ddr).read_bursts;
    uint32_t pte0 = perf_shared(d, GMMU_PERF_PTE_READS);
    expect_fault(4, v[10] + 0x8000, GMMU_ACCESS_READ, GMMU_FAULT_BUS_ERROR);
    uint64_t after = ddr_model_get_stats(tb->ddr).read_bursts;
    EXPECT(after - before == (uint64_t)(perf_shared(d, GMMU_PERF_PTE_READS) - pte0),
           "PTE_READS counts AXI bursts");
}

/* A bus error in the middle of a walk at each level, incl. one word of the
 * dual entry only; the walk never hangs and nothing is cached: once the
 * error is gone the same VA translates without any invalidation. */
static void t_bus_error_mid_walk(struct dt *d)
{
    struct tb *tb = &d->tb;
    dt_new_as(d, 5);
    uint64_t va = UINT64_C(0x0000654321000000);
    uint64_t leaf = dt_leaf4k(d, 5, va);
    wr(d, leaf, gmmu_pte_make_page(0xAB000, 1, 0));
    commit(d);
    uint64_t words[5];
    words[0] = dt_slot(d, 5, va, 3);
    words[1] = dt_slot(d, 5, va, 2);
    words[2] = dt_slot(d, 5, va, 1);
    words[3] = words[2] + 8;
    words[4] = leaf;
    for (unsigned w = 0; w < 5; w++) {
        /* Only the one word fails (8 bytes). */
        ddr_model_clear_errors(tb->ddr);
        tb->n_err = 0;
        tb_inject_error(tb, words[w], words[w] + 8);
        tb_invalidate(tb, GMMU_INV_ALL, 0, 0, 0);
        for (unsigned k = 0; k < 3; k++)
            expect_fault(5, va + k * 8, GMMU_ACCESS_READ, GMMU_FAULT_BUS_ERROR);
        /* Errors gone: the very next request walks again and succeeds. */
        ddr_model_clear_errors(tb->ddr);
        tb->n_err = 0;
        expect_page(5, va + 0x10, GMMU_ACCESS_READ, 0xAB010, GMMU_PSIZE_4K, 1);
    }
    /* The same for a fault on an invalid leaf: fixing the entry needs no
     * invalidation (faults are never cached), and the walk cache, which may
     * hold the upper levels, still leads to the fixed entry. */
    wr(d, leaf, 0);
    tb->committed = tb->n_changes; /* nothing can hold the old leaf: it faulted */
    tb_invalidate(tb, GMMU_INV_ALL, 0, 0, 0);
    expect_fault(5, va, GMMU_ACCESS_READ, GMMU_FAULT_INVALID);
    wr(d, leaf, gmmu_pte_make_page(0xCD000, 1, 0));
    tb->committed = tb->n_changes;
    expect_page(5, va, GMMU_ACCESS_READ, 0xCD000, GMMU_PSIZE_4K, 1);
}

/* A leaf table at the top of the AXI address space (4 GB less 2 KB: table
 * pointers are in 256-byte units, so firmware could place one there). The
 * line holding index 0xFF ends at the space's last byte: its read is sent
 * (and fails, DECERR: beyond the DDR). Index 0x100 is the first byte past
 * the space: no read is sent and the walk faults at once. The walker tells
 * them apart without the whole address add (the table's upper bits, and the
 * carry out of the low 13 bits), so the carry is what this checks: a read
 * of the wrapped address would answer from the DDR's first bytes. */
static void t_table_at_axi_top(struct dt *d)
{
    struct tb *tb = &d->tb;
    const unsigned as = 15;
    dt_new_as(d, as);
    const uint64_t va = UINT64_C(0x0000000023400000); /* below 1 GB: every configuration */
    wr(d, dt_slot(d, as, va, 1), gmmu_pte_make_table((UINT64_C(1) << 32) - 0x800));
    for (unsigned k = 0; k < 2; k++) {
        commit(d); /* a cold walk: every level read */
        uint64_t reads0 = ddr_model_get_stats(tb->ddr).read_bursts;
        expect_fault(as, va + (0xFF + k) * UINT64_C(0x1000), GMMU_ACCESS_READ,
                     GMMU_FAULT_BUS_ERROR);
        uint64_t reads = ddr_model_get_stats(tb->ddr).read_bursts - reads0;
        EXPECT(reads == d->levels - k, "leaf index 0x%x: %" PRIu64 " reads, expected %u", 0xFF + k,
               reads, d->levels - k);
    }
}

/* Fault FIFO: records in order with every field, overflow counted,
 * interrupt level, pop and clear. */
static void t_fault_fifo(struct dt *d)
{
    struct tb *tb = &d->tb;
    dt_new_as(d, 7);
    commit(d);
    unsigned n = GMMU_FAULT_FIFO_DEPTH + 5;
    for (unsigned i = 0; i < n; i++) {
        unsigned port = i % tb->prm.ports;
        unsigned tag = issue(d, port, 7, UINT64_C(0x1000) * (i + 1) + i, i % 3);
        wait_rsp(d, port, tag);
    }
    tb_run(tb, 10);
    uint32_t st = tb_wb_read(tb, GMMU_MMU_FAULT_STATUS);
    EXPECT((st & GMMU_MMU_FAULT_STATUS_COUNT) == GMMU_FAULT_FIFO_DEPTH, "COUNT %u", st & 0xFF);
    EXPECT(st & GMMU_MMU_FAULT_STATUS_PENDING, "PENDING");
    EXPECT(tb->io.irq, "IRQ with records");
    EXPECT(tb_wb_read(tb, GMMU_MMU_FAULT_OVERFLOW) == 5, "OVERFLOW %u",
           tb_wb_read(tb, GMMU_MMU_FAULT_OVERFLOW));
    EXPECT(perf_shared(d, GMMU_PERF_FAULTS) == n, "PERF_FAULTS");
    for (unsigned i = 0; i < GMMU_FAULT_FIFO_DEPTH; i++) {
        uint64_t va = ((uint64_t)tb_wb_read(tb, GMMU_MMU_FAULT_VA_HI) << 32) |
                      tb_wb_read(tb, GMMU_MMU_FAULT_VA_LO);
        uint32_t info = tb_wb_read(tb, GMMU_MMU_FAULT_INFO);
        uint32_t tag = tb_wb_read(tb, GMMU_MMU_FAULT_TAG);
        tb_wb_write(tb, GMMU_MMU_FAULT_POP, 1);
        EXPECT(va == UINT64_C(0x1000) * (i + 1) + i, "record %u: va 0x%" PRIx64, i, va);
        EXPECT((info & GMMU_MMU_FAULT_INFO_REASON) == GMMU_FAULT_INVALID, "record %u: reason", i);
        EXPECT(((info & GMMU_MMU_FAULT_INFO_ACCESS) >> GMMU_MMU_FAULT_INFO_ACCESS_LSB) == i % 3,
               "record %u: access", i);
        EXPECT(((info & GMMU_MMU_FAULT_INFO_PORT) >> GMMU_MMU_FAULT_INFO_PORT_LSB) ==
                   i % tb->prm.ports,
               "record %u: port", i);
        EXPECT(((info & GMMU_MMU_FAULT_INFO_ASID) >> GMMU_MMU_FAULT_INFO_ASID_LSB) == 7,
               "record %u: asid", i);
        EXPECT(info & GMMU_MMU_FAULT_INFO_VALID, "record %u: VALID", i);
        (void)tag;
    }
    EXPECT(tb_wb_read(tb, GMMU_MMU_FAULT_STATUS) == 0, "empty after popping");
    EXPECT(!(tb_wb_read(tb, GMMU_MMU_FAULT_INFO) & GMMU_MMU_FAULT_INFO_VALID),
           "INFO.VALID when empty");
    tb_run(tb, 2);
    EXPECT(!tb->io.irq, "IRQ drops when empty");
    tb_wb_write(tb, GMMU_MMU_FAULT_POP, 1); /* pop when empty: harmless */
    EXPECT(tb_wb_read(tb, GMMU_MMU_FAULT_STATUS) == 0, "pop of an empty FIFO");
    tb_wb_write(tb, GMMU_MMU_FAULT_OVERFLOW, 0);
    EXPECT(tb_wb_read(tb, GMMU_MMU_FAULT_OVERFLOW) == 0, "OVERFLOW cleared");
    /* The records above were read by hand: start the accounting afresh. */
    for (unsigned p = 0; p < tb->prm.ports; p++)
        tb->seen[p].n = tb->recs[p].n = 0;
    tb->faults_dropped = 0;
    /* Four ports faulting in the same cycles: nothing lost. */
    for (unsigned round = 0; round < 8; round++) {
        unsigned tags[DUT_MAX_PORTS];
        for (unsigned p = 0; p < tb->prm.ports; p++)
            tb_present(tb, p, 7, UINT64_C(0x5000) + p, GMMU_ACCESS_READ),
                tags[p] = tb->io.req[p].tag;
        for (unsigned p = 0; p < tb->prm.ports; p++)
            wait_rsp(d, p, tags[p]);
    }
    tb_run(tb, 10);
    unsigned cnt = tb_wb_read(tb, GMMU_MMU_FAULT_STATUS) & GMMU_MMU_FAULT_STATUS_COUNT;
    unsigned ovf = tb_wb_read(tb, GMMU_MMU_FAULT_OVERFLOW);
    EXPECT(cnt + ovf == 8 * tb->prm.ports, "simultaneous faults: %u recorded + %u dropped", cnt,
           ovf);
    EXPECT(tb_faults_check(tb), "fault records match the responses");
}

/* Invalidation types, scopes and DONE. */
static void t_invalidation(struct dt *d)
{
    struct tb *tb = &d->tb;
    dt_new_as(d, 8);
    dt_new_as(d, 9);
    uint64_t a = UINT64_C(0x0000200000000000), b = a + (UINT64_C(1) << 30);
    wr(d, dt_leaf4k(d, 8, a), gmmu_pte_make_page(0x10000, 1, 0));
    wr(d, dt_leaf4k(d, 8, b), gmmu_pte_make_page(0x20000, 1, 0));
    wr(d, dt_leaf4k(d, 9, a), gmmu_pte_make_page(0x30000, 1, 0));
    commit(d);
    /* DONE timing: ALL completes at once; ASID and RANGE sweep the L2. */
    uint64_t t_all = tb_invalidate(tb, GMMU_INV_ALL, 0, 0, 0);
    uint64_t t_asid = tb_invalidate(tb, GMMU_INV_ASID, 8, 0, 0);
    uint64_t t_range = tb_invalidate(tb, GMMU_INV_RANGE, 8, a, a);
    printf("  invalidation, register write to DONE seen: ALL %" PRIu64 ", ASID %" PRIu64
           ", RANGE %" PRIu64 " cycles (incl. register accesses)\n",
           t_all, t_asid, t_range);
    uint32_t cnt0 = tb_wb_read(tb, GMMU_MMU_INV_STATUS) >> GMMU_MMU_INV_STATUS_COUNT_LSB;
    tb_wb_write(tb, GMMU_MMU_INV_CMD, GMMU_INV_ASID);
    EXPECT(!(tb_wb_read(tb, GMMU_MMU_INV_STATUS) & GMMU_MMU_INV_STATUS_DONE),
           "DONE low while sweeping");
    tb_wb_write(tb, GMMU_MMU_INV_CMD, GMMU_INV_RANGE); /* while busy: widened */
    tb_wait_done(tb);
    uint32_t cnt1 = tb_wb_read(tb, GMMU_MMU_INV_STATUS) >> GMMU_MMU_INV_STATUS_COUNT_LSB;
    EXPECT(cnt1 != cnt0, "INV_STATUS.COUNT advances (%u -> %u)", cnt0, cnt1);

    /* Fill the TLBs with the three translations, then check scopes through
     * the hit counter of port 0. */
    struct {
        unsigned asid;
        uint64_t va;
    } t[3] = { { 8, a }, { 8, b }, { 9, a } };
    for (unsigned kind = 0; kind < 4; kind++) {
        for (unsigned i = 0; i < 3; i++)
            xlate(d, t[i].asid, t[i].va, GMMU_ACCESS_READ);
        switch (kind) {
        case 0:
            tb_invalidate(tb, GMMU_INV_ALL, 0, 0, 0);
            break;
        case 1:
            tb_invalidate(tb, GMMU_INV_ASID, 8, 0, 0);
            break;
        case 2:
            tb_invalidate(tb, GMMU_INV_RANGE, 8, a, a + 0xFFF);
            break;
        case 3:
            tb_invalidate(tb, GMMU_INV_RANGE, 8, b + 0xFFF, b + 0xFFF);
            break;
        }
        static const bool kept[4][3] = { { 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 1 }, { 1, 0, 1 } };
        for (unsigned i = 0; i < 3; i++) {
            uint32_t h0 = perf_port(d, 0, GMMU_PERF_PORT_HITS);
            xlate(d, t[i].asid, t[i].va + 8, GMMU_ACCESS_READ);
            uint32_t h1 = perf_port(d, 0, GMMU_PERF_PORT_HITS);
            EXPECT((h1 - h0 == 1) == kept[kind][i], "invalidation kind %u: entry %u %s", kind, i,
                   kept[kind][i] ? "lost" : "kept");
        }
        tb_invalidate(tb, GMMU_INV_ALL, 0, 0, 0);
    }
    /* A changed mapping is seen after change + invalidate + DONE, on every
     * port (the model check enforces it). */
    wr(d, dt_leaf4k(d, 8, a), gmmu_pte_make_page(0x40000, 1, 0));
    tb_invalidate(tb, GMMU_INV_RANGE, 8, a, a);
    for (unsigned p = 0; p < tb->prm.ports; p++)
        wait_rsp(d, p, issue(d, p, 8, a + p, GMMU_ACCESS_READ));
    /* The address-space table: a new root takes effect after INV_ASID. */
    uint64_t old_root = d->root[9];
    dt_new_as(d, 9);
    wr(d, dt_leaf4k(d, 9, a), gmmu_pte_make_page(0x50000, 1, 0));
    tb_invalidate(tb, GMMU_INV_ASID, 9, 0, 0);
    expect_page(9, a, GMMU_ACCESS_READ, 0x50000, GMMU_PSIZE_4K, 1);
    (void)old_root;
}

/* The end of an L2 sweep: the last set it compares is cleared a cycle or
 * two after its read, and no lookup may enter before that (it would read
 * the set's valid bits before the clear, hit the invalidated entry and,
 * starting after the invalidation, install it in the L1 for requests after
 * DONE). A page of the L2's last 4 KB set is changed and range-invalidated;
 * a request that misses the swept L1 meanwhile waits at the L2 until the
 * sweep ends, and the request after DONE must see the new page. */
static void t_sweep_end(struct dt *d)
{
    struct tb *tb = &d->tb;
    const unsigned asid = 10;
    /* The 4 KB bank's set: page-number bits [6:0] ^ [13:7] ^ asid (128 sets). */
    uint64_t va = UINT64_C(0x0000300000000000) | ((uint64_t)(127u ^ asid) << 12);
    dt_new_as(d, asid);
    wr(d, dt_leaf4k(d, asid, va), gmmu_pte_make_page(0x60000, 1, 0));
    commit(d);
    expect_page(asid, va, GMMU_ACCESS_READ, 0x60000, GMMU_PSIZE_4K, 1);
    wr(d, dt_leaf4k(d, asid, va), gmmu_pte_make_page(0x70000, 1, 0));
    tb_invalidate_start(tb, GMMU_INV_RANGE, asid, va, va);
    tb_run(tb, 40); /* past the L1's 16-entry sweep, well inside the L2's */
    unsigned tag = issue(d, 0, asid, va + 0x10, GMMU_ACCESS_READ);
    tb_wait_done(tb);
    wait_rsp(d, 0, tag);
    expect_page(asid, va + 0x20, GMMU_ACCESS_READ, 0x70020, GMMU_PSIZE_4K, 1);
}

/* The same VA in different address spaces never hits the other's entry. */
static void t_asid_isolation(struct dt *d)
{
    struct tb *tb = &d->tb;
    unsigned n = 1u << tb->prm.asid_bits;
    uint64_t va = UINT64_C(0x0000000040001000);
    for (unsigned s = 0; s < n; s++) {
        dt_new_as(d, s);
        wr(d, dt_leaf4k(d, s, va),
           gmmu_pte_make_page(UINT64_C(0x1000000) * (s + 1), 1, s % 2 ? GMMU_PTE_READ_ONLY : 0));
    }
    commit(d);
    for (unsigned round = 0; round < 3; round++)
        for (unsigned s = 0; s < n; s++)
            expect_page(s, va + s, s % 2 ? GMMU_ACCESS_READ : GMMU_ACCESS_WRITE,
                        UINT64_C(0x1000000) * (s + 1) + s, GMMU_PSIZE_4K, 1);
}

/* Leaf lines: a walk to a 4 KB page reads the GMMU_LEAF_LINE_PTES entries
 * of its aligned line; the valid neighbours are installed in the L2, so
 * their first requests are L2 hits without a walk. An invalid neighbour is
 * not installed (it faults after a walk of its own), nor is an entry of
 * another line. */
static void t_leaf_line(struct dt *d)
{
    const unsigned line = GMMU_LEAF_LINE_PTES;
    const uint64_t base = UINT64_C(0x0000000230000000); /* line-aligned */
    dt_new_as(d, 14);
    for (unsigned i = 0; i < 2 * line; i++)
        if (i != 2)
            wr(d, dt_leaf4k(d, 14, base + i * UINT64_C(0x1000)),
               gmmu_pte_make_page(0x500000 + i * 0x3000, 1, 0));
    commit(d);
    /* Valid neighbours of page 0 in its line: all but page 0 and page 2. */
    const unsigned nb_valid = line > 2 ? line - 2 : line - 1;
    uint32_t walks0 = perf_shared(d, GMMU_PERF_WALKS),
             nb0 = perf_shared(d, GMMU_PERF_L2_NEIGHBOURS);
    expect_page(14, base + 0x10, GMMU_ACCESS_READ, 0x500010, GMMU_PSIZE_4K, 1);
    EXPECT(perf_shared(d, GMMU_PERF_WALKS) - walks0 == 1, "one walk for the first page");
    EXPECT(perf_shared(d, GMMU_PERF_L2_NEIGHBOURS) - nb0 == nb_valid, "neighbours installed: %u",
           perf_shared(d, GMMU_PERF_L2_NEIGHBOURS) - nb0);
    /* The neighbours, from another port (its L1 is cold, its prefetcher idle). */
    uint32_t l2h0 = perf_shared(d, GMMU_PERF_L2_HITS);
    for (unsigned i = 1; i < line; i++) {
        if (i == 2)
            continue;
        unsigned tag = issue(d, 1, 14, base + i * UINT64_C(0x1000) + 8, GMMU_ACCESS_WRITE);
        struct dut_rsp r = wait_rsp(d, 1, tag);
        EXPECT(r.fault == GMMU_FAULT_NONE && r.pa == 0x500000 + i * 0x3000 + 8,
               "neighbour %u: pa 0x%" PRIx64, i, r.pa);
    }
    EXPECT(perf_shared(d, GMMU_PERF_WALKS) - walks0 == 1, "neighbours walked: %u walks",
           perf_shared(d, GMMU_PERF_WALKS) - walks0);
    EXPECT(perf_shared(d, GMMU_PERF_L2_HITS) - l2h0 >= nb_valid, "neighbours hit in the L2");
    if (line > 2) {
        expect_fault(14, base + 2 * UINT64_C(0x1000), GMMU_ACCESS_READ, GMMU_FAULT_INVALID);
        EXPECT(perf_shared(d, GMMU_PERF_WALKS) - walks0 == 2, "the invalid neighbour is walked");
    }
    /* The next line is not installed by the first. */
    unsigned tag = issue(d, 2, 14, base + line * UINT64_C(0x1000), GMMU_ACCESS_READ);
    wait_rsp(d, 2, tag);
    EXPECT(perf_shared(d, GMMU_PERF_WALKS) - walks0 == (line > 2 ? 3u : 2u),
           "the next line is walked");
}

/* Walk following: walks that start while a walk of the same 2 MB range is
 * in flight wait for it instead of reading the same entries. Misses of
 * four ports at once to four 4 KB pages of one 64 KB page cost the reads of
 * one cold walk (root, level 2, dual entry, leaf: 4 bursts); then four
 * 4 KB pages of a fresh 2 MB range, each in its own 64 KB range, read that
 * range's dual entry once (the level-2 entry is in the walk cache by then)
 * and each its own leaf line: 1 + 4 bursts, where walking alone costs 8;
 * then four 64 KB pages of another fresh 2 MB range: a walk never takes
 * the answer of a leader in another 64 KB range (1 + 4 bursts, each its
 * own page); last, four ports missing on one 4 KB page of a fresh 2 MB
 * range take one walk's answer (dual entry + leaf: 2 bursts, 5 if the
 * others read their own leaf). The counts hold for builds with 4 levels, 4 ports, 4 or
 * more walkers and a walk cache; other builds check the answers only. */
static void t_walk_follow(struct dt *d)
{
    struct tb *tb = &d->tb;
    const bool counted = tb->prm.levels == 4 && tb->prm.ports >= 4 && tb->prm.walkers >= 4 &&
                         tb->prm.pwc_entries > 0;
    const unsigned n = tb->prm.ports < 4 ? tb->prm.ports : 4;
    const uint64_t big = UINT64_C(0x0000000340000000); /* its own level-2 entry */
    const uint64_t fresh = big + UINT64_C(0x200000);   /* the next 2 MB range */
    const uint64_t fresh64 = big + UINT64_C(0x400000); /* and the one after */
    const uint64_t shared = big + UINT64_C(0x600000);  /* and the one after that */
    dt_new_as(d, 16);
    wr(d, dt_leaf64k(d, 16, big), gmmu_pte_make_page(0x7700000, 1, 0));
    for (unsigned i = 0; i < n; i++)
        wr(d, dt_leaf4k(d, 16, fresh + i * UINT64_C(0x10000)),
           gmmu_pte_make_page(0x8800000 + i * 0x5000, 1, 0));
    for (unsigned i = 0; i < n; i++)
        wr(d, dt_leaf64k(d, 16, fresh64 + i * UINT64_C(0x10000)),
           gmmu_pte_make_page(0x9900000 + i * 0x20000, 1, 0));
    wr(d, dt_leaf4k(d, 16, shared), gmmu_pte_make_page(0xAA00000, 1, 0));
    commit(d);

    const uint64_t base[4] = { big, fresh, fresh64, shared },
                   step[4] = { 0x1000, 0x10000, 0x10000, 8 };
    const uint64_t pa0[4] = { 0x7700000, 0x8800000, 0x9900000, 0xAA00000 };
    const uint64_t pa_step[4] = { 0x1000, 0x5000, 0x20000, 8 };
    const unsigned psize[4] = { GMMU_PSIZE_64K, GMMU_PSIZE_4K, GMMU_PSIZE_64K, GMMU_PSIZE_4K };
    const uint64_t expect_reads[4] = { 4, 5, 5, 2 };
    for (unsigned part = 0; part < 4; part++) {
        uint32_t reads0 = perf_shared(d, GMMU_PERF_PTE_READS);
        unsigned tags[4];
        for (unsigned i = 0; i < n; i++)
            tags[i] = issue(d, i, 16, base[part] + i * step[part] + 0x18, GMMU_ACCESS_READ);
        for (unsigned i = 0; i < n; i++) {
            struct dut_rsp r = wait_rsp(d, i, tags[i]);
            uint64_t pa = pa0[part] + i * pa_step[part] + 0x18;
            EXPECT(r.fault == GMMU_FAULT_NONE && r.pa == pa && r.psize == psize[part],
                   "part %u port %u: fault %s pa 0x%" PRIx64 " psize %u, expected pa 0x%" PRIx64,
                   part, i, gmmu_ref_fault_name(r.fault), r.pa, r.psize, pa);
        }
        uint32_t reads = perf_shared(d, GMMU_PERF_PTE_READS) - reads0;
        if (counted)
            EXPECT(reads == expect_reads[part], "part %u: %u table reads, expected %" PRIu64, part,
                   reads, expect_reads[part]);
    }
}

/* Requests to one page back to back: one walk, the rest merged; hits are
 * answered the next cycle at one per cycle. */
static void t_merge_and_hits(struct dt *d)
{
    struct tb *tb = &d->tb;
    dt_new_as(d, 10);
    uint64_t va = UINT64_C(0x0000000012345000);
    wr(d, dt_leaf4k(d, 10, va), gmmu_pte_make_page(0x77000, 1, 0));
    commit(d);
    uint32_t walks0 = perf_shared(d, GMMU_PERF_WALKS);
    uint32_t merges0 = perf_port(d, 0, GMMU_PERF_PORT_MERGES);
    unsigned tags[64];
    assert(tb->prm.mshrs <= 64);
    uint64_t t0 = tb_now(tb);
    for (unsigned i = 0; i < tb->prm.mshrs; i++)
        tags[i] = issue(d, 0, 10, va + i * 8, GMMU_ACCESS_READ);
    for (unsigned i = 0; i < tb->prm.mshrs; i++)
        wait_rsp(d, 0, tags[i]);
    EXPECT(perf_shared(d, GMMU_PERF_WALKS) - walks0 == 1, "one walk for %u misses to one page (%u)",
           tb->prm.mshrs, perf_shared(d, GMMU_PERF_WALKS) - walks0);
    EXPECT(perf_port(d, 0, GMMU_PERF_PORT_MERGES) - merges0 == tb->prm.mshrs - 1,
           "merged misses %u", perf_port(d, 0, GMMU_PERF_PORT_MERGES) - merges0);
    (void)t0;
    /* Hits: a response the cycle after each request, one per cycle. */
    uint64_t first = 0, last = 0;
    for (unsigned i = 0; i < 64; i++) {
        unsigned tag = issue(d, 0, 10, va + i * 16, GMMU_ACCESS_READ);
        uint64_t acc = tb_now(tb);
        if (i == 0)
            first = acc;
        last = acc;
        (void)tag;
    }
    tb_drain(tb, 1000);
    /* One per cycle, but for the cycle in which the fill of the next-page
     * prefetch (triggered by the first hit) arrives. */
    EXPECT(last - first <= 64, "64 hits accepted in %" PRIu64 " cycles", last - first + 1);
    unsigned tag = issue(d, 0, 10, va, GMMU_ACCESS_READ);
    tb_cycle(tb); /* the cycle the request is accepted */
    uint64_t acc = tb_now(tb) - 1;
    struct dut_rsp r = wait_rsp(d, 0, tag);
    EXPECT(got_tag[0][tag].cycle - acc == 1, "hit latency %" PRIu64 " cycles",
           got_tag[0][tag].cycle - acc);
    EXPECT(r.pa == 0x77000, "hit pa");
    /* Hit under miss: a miss in flight does not hold up hits. */
    uint64_t va2 = va + (UINT64_C(1) << 30);
    wr(d, dt_leaf4k(d, 10, va2), gmmu_pte_make_page(0x88000, 1, 0));
    commit(d);
    xlate(d, 10, va, GMMU_ACCESS_READ);
    unsigned mtag = issue(d, 0, 10, va2, GMMU_ACCESS_READ);
    tb_cycle(tb);
    unsigned htag = issue(d, 0, 10, va + 0x20, GMMU_ACCESS_READ);
    wait_rsp(d, 0, htag);
    EXPECT(!got_tag[0][mtag].seen, "hit answered while the miss is in flight");
    wait_rsp(d, 0, mtag);
}

/* Invalidation racing walks in flight: the change and INV_CMD are placed
 * at every cycle offset from the request, across the whole walk; the
 * request may see either mapping, every later request only the new one. */
static void t_inval_race(struct dt *d)
{
    struct tb *tb = &d->tb;
    dt_new_as(d, 11);
    dt_new_as(d, 12);
    uint64_t va = UINT64_C(0x0000345678901000);
    uint64_t leaf = dt_leaf4k(d, 11, va);
    wr(d, leaf, gmmu_pte_make_page(0xA000, 1, 0));
    uint64_t upper = dt_slot(d, 11, va, 2);
    wr(d, dt_leaf4k(d, 12, va), gmmu_pte_make_page(0xC000, 1, 0));
    commit(d);
    unsigned walk = 6 * ddr_model_get_config(tb->ddr).read_latency + 40;
    unsigned types[3] = { GMMU_INV_RANGE, GMMU_INV_ASID, GMMU_INV_ALL };
    for (unsigned what = 0; what < 3; what++) {
        for (unsigned delay = 0; delay < walk; delay++) {
            unsigned type = types[(delay + what) % 3];
            uint64_t addr = what == 0 ? leaf : what == 1 ? upper : leaf;
            uint64_t old = rd(d, addr);
            uint64_t nw =
                what == 0 ? gmmu_pte_make_page(0xB000 + (delay % 2) * 0x1000, 1, GMMU_PTE_READ_ONLY)
                : what == 1 ? 0
                            : old ^ GMMU_PTE_VALID;
            /* Requests on every port, some to the other address space. */
            for (unsigned p = 0; p < tb->prm.ports; p++)
                issue(d, p, p == 3 ? 12 : 11, va + p * 8,
                      p == 2 ? GMMU_ACCESS_WRITE : GMMU_ACCESS_READ);
            tb_run(tb, delay);
            wr(d, addr, nw);
            tb_invalidate_start(tb, type, 11, va, va + 0xFFF + (what == 1 ? UINT64_C(1) << 30 : 0));
            /* Requests while the invalidation runs (either mapping). */
            for (unsigned p = 0; p < tb->prm.ports; p++)
                issue(d, p, 11, va + 0x40 + p, GMMU_ACCESS_READ);
            tb_wait_done(tb);
            /* After DONE: only the new mapping (checked by the model). */
            for (unsigned p = 0; p < tb->prm.ports; p++)
                wait_rsp(d, p, issue(d, p, 11, va + 0x100 + p, GMMU_ACCESS_READ));
            tb_drain(tb, 10000);
            wr(d, addr, old);
            tb_invalidate(tb, type, 11, va, va + 0xFFF + (what == 1 ? UINT64_C(1) << 30 : 0));
            tb_drain(tb, 10000);
        }
    }
    printf("  %u race points, %" PRIu64 " answers checked against two versions\n", 3 * walk,
           tb->multi_version);
}

/* An address-space invalidation in the cycle a walk-cache install lands.
 * The walk cache is first filled with another address space's entries, so
 * the slot the victim's walk installs into holds a valid entry that the
 * invalidation does not remove; the victim's level-2 entry is then cleared
 * in memory and INV_ASID started at each cycle offset around the walk's
 * answer (its installs follow it). After DONE the victim's VA must fault:
 * an install that landed with the invalidation and kept the slot's valid
 * bit would leave the old level-2 entry cached. */
static void t_pwc_inv_race(struct dt *d)
{
    struct tb *tb = &d->tb;
    const unsigned victim = 3, filler = 4;
    if (tb->prm.pwc_entries == 0 || d->levels < 3) {
        printf("  no walk cache or fewer than 3 levels: nothing to race\n");
        return;
    }
    dt_new_as(d, victim);
    dt_new_as(d, filler);
    const uint64_t va = UINT64_C(0x0000001234567000), fill_base = UINT64_C(0x0000002000000000);
    wr(d, dt_leaf4k(d, victim, va), gmmu_pte_make_page(0xD000, 1, 0));
    for (unsigned k = 0; k < tb->prm.pwc_entries; k++)
        wr(d, dt_leaf4k(d, filler, fill_base + ((uint64_t)k << 30)),
           gmmu_pte_make_page(0xE000, 1, 0));
    const uint64_t upper = dt_slot(d, victim, va, 2);
    const uint64_t upper_old = rd(d, upper);
    commit(d);

    /* The walk's answer time, from a cold start. */
    unsigned tag = issue(d, 0, victim, va, GMMU_ACCESS_READ);
    uint64_t t0 = tb_now(tb);
    wait_rsp(d, 0, tag);
    const unsigned answer = (unsigned)(got_tag[0][tag].cycle - t0);
    unsigned points = 0;
    for (unsigned delay = answer > 12 ? answer - 12 : 0; delay < answer + 12; delay++, points++) {
        commit(d);
        /* Every walk installs at least its level-2 and level-1 entries. */
        for (unsigned k = 0; k < tb->prm.pwc_entries; k++)
            xlate(d, filler, fill_base + ((uint64_t)k << 30), GMMU_ACCESS_READ);
        issue(d, 0, victim, va, GMMU_ACCESS_READ);
        tb_run(tb, delay);
        wr(d, upper, 0);
        tb_invalidate_start(tb, GMMU_INV_ASID, victim, 0, 0);
        tb_wait_done(tb);
        expect_fault(victim, va, GMMU_ACCESS_READ, GMMU_FAULT_INVALID);
        tb_drain(tb, 10000);
        wr(d, upper, upper_old);
    }
    commit(d);
    printf("  %u race points around the answer at %u cycles\n", points, answer);
}

/* An invalidation while a finished walk waits for the fill bus. L2 hits
 * take the fill bus before a finished walk (mmu_top's wq register holds the
 * walk's answer meanwhile), so the other ports first send a burst of L2
 * hits timed to cover the walk's answer; the victim's leaf entry is then
 * cleared in memory and INV_ASID started at each cycle offset around the
 * answer. After DONE the victim's VA must fault: an answer chosen before
 * the invalidation and taken after it must count as stale, or its old
 * translation lands in the L2 and the L1 after the invalidation cleared
 * them. The burst's timing is measured, not assumed: the test counts the
 * race points at which the answer waited behind an L2 hit (the victim's
 * response came later than alone). */
static void t_walk_wait_inv_race(struct dt *d)
{
    struct tb *tb = &d->tb;
    const unsigned victim = 7, other = 8;
    const unsigned hit_ports = tb->prm.ports - 1, per_port = tb->prm.mshrs;
    if (hit_ports == 0) {
        printf("  one port: no L2 hits to race with\n");
        return;
    }
    dt_new_as(d, victim);
    dt_new_as(d, other);
    const uint64_t va = UINT64_C(0x0000003456789000), hits = UINT64_C(0x0000000260000000);
    const uint64_t leaf = dt_leaf4k(d, victim, va);
    wr(d, leaf, gmmu_pte_make_page(0xD000, 1, 0));
    for (unsigned k = 0; k < hit_ports * per_port; k++)
        wr(d, dt_leaf4k(d, other, hits + k * UINT64_C(0x1000)),
           gmmu_pte_make_page(0xF000 + k * 0x1000, 1, 0));
    commit(d);

    /* The victim's answer time alone, from a cold start. */
    tb_invalidate(tb, GMMU_INV_ALL, 0, 0, 0);
    unsigned tag = issue(d, 0, victim, va, GMMU_ACCESS_READ);
    uint64_t t0 = tb_now(tb);
    wait_rsp(d, 0, tag);
    const unsigned answer = (unsigned)(got_tag[0][tag].cycle - t0);
    /* One L2 hit alone, so the burst can start with its first answer a few
     * cycles before the walk's. */
    for (unsigned k = 0; k < hit_ports * per_port; k++)
        xlate(d, other, hits + k * UINT64_C(0x1000), GMMU_ACCESS_READ);
    tag = issue(d, 1, other, hits, GMMU_ACCESS_READ); /* port 1's L1 is cold */
    t0 = tb_now(tb);
    wait_rsp(d, 1, tag);
    const unsigned l2_hit = (unsigned)(got_tag[1][tag].cycle - t0);
    const unsigned lead = answer > l2_hit + 4 ? answer - l2_hit - 4 : 0;

    unsigned points = 0, waited = 0;
    for (unsigned delay = answer > 12 ? answer - 12 : 0; delay < answer + 12; delay++, points++) {
        tb_invalidate(tb, GMMU_INV_ALL, 0, 0, 0);
        for (unsigned k = 0; k < hit_ports * per_port; k++) /* into the L2, from port 0 */
            xlate(d, other, hits + k * UINT64_C(0x1000), GMMU_ACCESS_READ);
        tag = issue(d, 0, victim, va, GMMU_ACCESS_READ);
        t0 = tb_now(tb);
        tb_run(tb, lead);
        for (unsigned k = 0; k < per_port; k++)
            for (unsigned p = 1; p <= hit_ports; p++)
                issue(d, p, other, hits + ((p - 1) * per_port + k) * UINT64_C(0x1000),
                      GMMU_ACCESS_READ);
        tb_run(tb, delay > tb_now(tb) - t0 ? delay - (tb_now(tb) - t0) : 0);
        wr(d, leaf, 0);
        tb_invalidate_start(tb, GMMU_INV_ASID, victim, 0, 0);
        tb_wait_done(tb);
        wait_rsp(d, 0, tag);
        if (got_tag[0][tag].cycle - t0 > answer)
            waited++;
        expect_fault(victim, va, GMMU_ACCESS_READ, GMMU_FAULT_INVALID);
        tb_drain(tb, 10000);
        wr(d, leaf, gmmu_pte_make_page(0xD000, 1, 0));
    }
    commit(d);
    printf("  %u race points around the answer at %u cycles (L2 hit %u); the answer waited at %u\n",
           points, answer, l2_hit, waited);
    EXPECT(waited > 0, "the walk's answer never waited behind an L2 hit: the race was not run");
}

/* An invalidation while an L2 hit is in the L2's pipeline. Port 0's walk
 * puts the page in the L2; port 1, whose L1 is cold, then asks for it, and
 * the page's leaf entry is cleared in memory and an invalidation (range,
 * address space and all in turn) started at each cycle offset from port 1's
 * request to past its answer. After DONE the page must fault on port 1: a
 * hit read from the L2 before the invalidation and installed in port 1's L1
 * after it would keep the old translation, so a lookup in any stage of the
 * L2 when an invalidation starts must come out stale. */
static void t_l2_hit_inv_race(struct dt *d)
{
    struct tb *tb = &d->tb;
    const unsigned as = 13;
    if (tb->prm.ports < 2) {
        printf("  one port: no cold L1 to race with\n");
        return;
    }
    dt_new_as(d, as);
    const uint64_t va = UINT64_C(0x0000004567891000);
    const uint64_t leaf = dt_leaf4k(d, as, va);
    const uint64_t mapped = gmmu_pte_make_page(0xE000, 1, 0);
    wr(d, leaf, mapped);
    commit(d);
    xlate(d, as, va, GMMU_ACCESS_READ);
    unsigned tag = issue(d, 1, as, va, GMMU_ACCESS_READ);
    uint64_t t0 = tb_now(tb);
    wait_rsp(d, 1, tag);
    const unsigned l2_hit = (unsigned)(got_tag[1][tag].cycle - t0);
    const unsigned types[3] = { GMMU_INV_RANGE, GMMU_INV_ASID, GMMU_INV_ALL };
    unsigned points = 0;
    for (unsigned delay = 0; delay < l2_hit + 4; delay++) {
        for (unsigned t = 0; t < 3; t++, points++) {
            commit(d);
            xlate(d, as, va, GMMU_ACCESS_READ); /* into the L2, from port 0 */
            tag = issue(d, 1, as, va, GMMU_ACCESS_READ);
            tb_run(tb, delay);
            wr(d, leaf, 0);
            tb_invalidate_start(tb, types[t], as, va, va + 0xFFF);
            tb_wait_done(tb);
            wait_rsp(d, 1, tag);
            struct dut_rsp r = wait_rsp(d, 1, issue(d, 1, as, va, GMMU_ACCESS_READ));
            EXPECT(r.fault == GMMU_FAULT_INVALID,
                   "invalidation type %u %u cycles after port 1's request: "
                   "fault %s after DONE, expected INVALID",
                   types[t], delay, gmmu_ref_fault_name(r.fault));
            tb_drain(tb, 10000);
            wr(d, leaf, mapped);
        }
    }
    commit(d);
    printf("  %u race points up to %u cycles after the request (L2 hit answered at %u)\n", points,
           l2_hit + 3, l2_hit);
}

/* Stride prefetch. A strided stream of 4 KB pages (every fourth page: the
 * rows of a tile over a 16 KB pitch), one request per page, waiting for the
 * prefetches between pages: the first three pages miss; the third confirms
 * the delta (seen twice) and prefetches the next three along it, and from
 * then on every page hits and each first use asks for one new page (the
 * other two were asked before), so hits and prefetches are counted by hand.
 * (Next-range prefetch alone gives no hit: the pages in between are never
 * used and no hit ever triggers it.) A jump to another place keeps the
 * stride (one mismatch lowers the confidence only): the page after the jump
 * misses and the next ones hit. Descending strides work alike. Then, at
 * every cycle offset across the walks, a page whose prefetch is in flight is
 * changed and invalidated (the three scopes): after DONE it must translate
 * to the new mapping, so a prefetch that began before the invalidation
 * installs nothing. */
static void t_stride_prefetch(struct dt *d)
{
    struct tb *tb = &d->tb;
    const unsigned as = 14, n = 24, settle = 2000;
    const uint64_t base = UINT64_C(0x0000000250000000), stride = 4 * UINT64_C(0x1000);
    const uint64_t jump = base + (UINT64_C(3) << 21), down = base + (UINT64_C(6) << 21);
    dt_new_as(d, as);
    for (unsigned k = 0; k < n + 3; k++) {
        wr(d, dt_leaf4k(d, as, base + k * stride), gmmu_pte_make_page(0x100000 + k * 0x1000, 1, 0));
        wr(d, dt_leaf4k(d, as, jump + k * stride), gmmu_pte_make_page(0x200000 + k * 0x1000, 1, 0));
        wr(d, dt_leaf4k(d, as, down + k * stride), gmmu_pte_make_page(0x300000 + k * 0x1000, 1, 0));
    }
    commit(d);
    uint32_t h0 = perf_port(d, 0, GMMU_PERF_PORT_HITS),
             p0 = perf_port(d, 0, GMMU_PERF_PORT_PREFETCHES);
    unsigned bad = 0;
    for (unsigned k = 0; k < n; k++) {
        uint32_t h = perf_port(d, 0, GMMU_PERF_PORT_HITS);
        expect_page(as, base + k * stride + 0x40, GMMU_ACCESS_READ, 0x100040 + k * 0x1000,
                    GMMU_PSIZE_4K, 1);
        bool hit = perf_port(d, 0, GMMU_PERF_PORT_HITS) - h == 1;
        if (hit != (k >= 3) && bad++ < 4)
            failf("strided page %u: %s, expected a %s", k, hit ? "hit" : "miss",
                  k >= 3 ? "hit" : "miss");
        tb_run(tb, settle);
    }
    uint32_t hits = perf_port(d, 0, GMMU_PERF_PORT_HITS) - h0,
             pfs = perf_port(d, 0, GMMU_PERF_PORT_PREFETCHES) - p0;
    EXPECT(hits == n - 3, "strided stream: %u hits, expected %u", hits, n - 3);
    EXPECT(pfs == n, "strided stream: %u prefetches, expected %u", pfs, n);
    /* The jump: a miss, then hits along the same stride. */
    h0 = perf_port(d, 0, GMMU_PERF_PORT_HITS);
    for (unsigned k = 0; k < 8; k++) {
        uint32_t h = perf_port(d, 0, GMMU_PERF_PORT_HITS);
        expect_page(as, jump + k * stride, GMMU_ACCESS_READ, 0x200000 + k * 0x1000, GMMU_PSIZE_4K,
                    1);
        bool hit = perf_port(d, 0, GMMU_PERF_PORT_HITS) - h == 1;
        EXPECT(hit == (k >= 1), "after the jump, page %u: %s", k, hit ? "hit" : "miss");
        tb_run(tb, settle);
    }
    /* Descending: three misses retrain the detector to -4 pages. */
    for (unsigned k = 0; k < 8; k++) {
        unsigned r = n + 2 - k;
        uint32_t h = perf_port(d, 0, GMMU_PERF_PORT_HITS);
        expect_page(as, down + r * stride, GMMU_ACCESS_READ, 0x300000 + r * 0x1000, GMMU_PSIZE_4K,
                    1);
        bool hit = perf_port(d, 0, GMMU_PERF_PORT_HITS) - h == 1;
        EXPECT(hit == (k >= 3), "descending page %u: %s", k, hit ? "hit" : "miss");
        tb_run(tb, settle);
    }

    /* Invalidation against prefetches in flight. Pages 0..2 of a strided
     * stream are at the end of one 2 MB range, pages 3.. in the next one,
     * whose dual entry the walk cache does not hold, so their prefetch walks
     * read the dual entry and then the leaf, 2 reads. Each round: from an
     * empty L1, pages 0, 1 (waited for) and 2 (not: its miss confirms the
     * stride and prefetches pages 3..5), then after `delay` cycles either
     * page 4's leaf entry is changed or the dual entry is pointed at another
     * leaf table, and invalidated (the three scopes). After DONE page 4 must
     * give the new mapping: a prefetch walk that read the old entries before
     * the change and ends after the invalidation must install nothing. */
    unsigned walk = 4 * ddr_model_get_config(tb->ddr).read_latency + 60;
    unsigned types[3] = { GMMU_INV_RANGE, GMMU_INV_ASID, GMMU_INV_ALL };
    const uint64_t rb = UINT64_C(0x0000000280000000) + (UINT64_C(1) << 21); /* page 3 */
    uint64_t pg[6];
    for (unsigned j = 0; j < 6; j++) {
        pg[j] = rb + ((int64_t)j - 3) * (int64_t)stride;
        wr(d, dt_leaf4k(d, as, pg[j]), gmmu_pte_make_page(0x600000 + j * 0x1000, 1, 0));
    }
    uint64_t dual = dt_slot(d, as, rb, 1), dual_old = rd(d, dual);
    uint64_t t2 = dt_alloc(d, GMMU_TABLE_BYTES);
    for (unsigned m = 0; m < 64; m++)
        wr(d, t2 + (uint64_t)gmmu_va_index(rb + m * UINT64_C(0x1000), 0) * 8,
           gmmu_pte_make_page(0x700000 + m * 0x1000, 1, GMMU_PTE_READ_ONLY));
    uint64_t dual_new = gmmu_pte_make_table(t2);
    uint64_t leaf4 = dt_leaf4k(d, as, pg[4]), leaf_old = rd(d, leaf4);
    commit(d);
    uint32_t pf_start = perf_port(d, 0, GMMU_PERF_PORT_PREFETCHES);
    for (unsigned what = 0; what < 2; what++) {
        for (unsigned delay = 0; delay < walk; delay++) {
            unsigned type = types[delay % 3];
            uint64_t npa =
                what ? 0x700000 + ((pg[4] - rb) >> 12) * 0x1000 : 0x400000 + (delay % 2) * 0x1000;
            tb_invalidate(tb, GMMU_INV_ALL, 0, 0, 0);
            tb_run(tb, settle);
            xlate(d, as, pg[0], GMMU_ACCESS_READ);
            xlate(d, as, pg[1], GMMU_ACCESS_READ);
            issue(d, 0, as, pg[2], GMMU_ACCESS_READ);
            tb_run(tb, delay);
            if (what)
                wr(d, dual, dual_new);
            else
                wr(d, leaf4, gmmu_pte_make_page(npa, 1, GMMU_PTE_READ_ONLY));
            tb_invalidate_start(tb, type, as, what ? rb : pg[4],
                                what ? rb + (UINT64_C(1) << 21) - 1 : pg[4] + 0xFFF);
            tb_wait_done(tb);
            struct dut_rsp r = xlate(d, as, pg[4] + 8, GMMU_ACCESS_READ);
            EXPECT(r.fault == GMMU_FAULT_NONE && r.pa == npa + 8 && r.ro,
                   "%s changed at delay %u under the prefetch: pa 0x%" PRIx64
                   " ro %u, expected 0x%" PRIx64,
                   what ? "dual entry" : "leaf", delay, r.pa, r.ro, npa + 8);
            tb_drain(tb, 10000);
            if (what)
                wr(d, dual, dual_old);
            else
                wr(d, leaf4, leaf_old);
        }
    }
    tb_invalidate(tb, GMMU_INV_ALL, 0, 0, 0);
    uint32_t pf_race = perf_port(d, 0, GMMU_PERF_PORT_PREFETCHES) - pf_start;
    EXPECT(pf_race >= 2 * 3 * walk, "%u prefetches in %u race rounds", pf_race, 2 * walk);
    printf("  %u race points, %u prefetches\n", 2 * walk, pf_race);
}

/* Learned jump. Passes over a strided stream of 4 KB pages A[0..m-1]
 * (every fourth page, one request per page, waiting between pages; m more
 * than the L1 holds, so A[0] is gone at the end of a pass), each pass
 * starting again at A[0], like the rows of the tiles of one column. Misses
 * counted by hand: pass 1 misses A[0..2] (the stride is confirmed at A[2]);
 * pass 2 misses A[0] only (the jump A[m-1] -> A[0] breaks the confirmed
 * stride and is learned); pass 3 misses nothing (A[m-3]'s prefetches run
 * A[m-2], A[m-1], then A[0]); pass 4 goes on past A[m-1] to A[2m-1] and
 * misses A[m] only (the jump was predicted instead), which forgets the
 * jump; pass 5 misses A[0] again (the L1 lost it during pass 4's last m
 * pages). */
static void t_jump_prefetch(struct dt *d)
{
    struct tb *tb = &d->tb;
    const unsigned as = 6, settle = 2000, m = tb->prm.l1_entries + 8;
    const uint64_t base = UINT64_C(0x0000000260000000), stride = 4 * UINT64_C(0x1000);
    dt_new_as(d, as);
    for (unsigned k = 0; k < 2 * m + 4; k++)
        wr(d, dt_leaf4k(d, as, base + k * stride), gmmu_pte_make_page(0x500000 + k * 0x1000, 1, 0));
    commit(d);
    const struct {
        unsigned len, miss_lo, miss_hi;
    } pass[5] = { { m, 0, 2 }, { m, 0, 0 }, { m, m, m }, { 2 * m, m, m }, { m, 0, 0 } };
    for (unsigned p = 0; p < 5; p++) {
        unsigned bad = 0;
        for (unsigned k = 0; k < pass[p].len; k++) {
            uint32_t h = perf_port(d, 0, GMMU_PERF_PORT_HITS);
            expect_page(as, base + k * stride + 0x80, GMMU_ACCESS_READ, 0x500080 + k * 0x1000,
                        GMMU_PSIZE_4K, 1);
            bool hit = perf_port(d, 0, GMMU_PERF_PORT_HITS) - h == 1;
            bool miss_expected = k >= pass[p].miss_lo && k <= pass[p].miss_hi;
            if (hit == miss_expected && bad++ < 4)
                failf("pass %u, page %u: %s, expected a %s", p + 1, k, hit ? "hit" : "miss",
                      miss_expected ? "miss" : "hit");
            tb_run(tb, settle);
        }
    }
}

/* Back-pressure on responses: nothing lost, nothing duplicated. */
static void t_backpressure(struct dt *d)
{
    struct tb *tb = &d->tb;
    dt_new_as(d, 13);
    for (unsigned i = 0; i < 64; i++)
        wr(d, dt_leaf4k(d, 13, i * UINT64_C(0x201000)), gmmu_pte_make_page(i * 0x1000, 1, 0));
    commit(d);
    tb->rsp_ready_percent = 10;
    for (unsigned i = 0; i < 2000; i++) {
        unsigned p = i % tb->prm.ports;
        issue(d, p, 13, (i % 80) * UINT64_C(0x201000) + (i & 0xFF8), i % 3);
    }
    EXPECT(tb_drain(tb, 200000), "all answered under back-pressure");
    tb->rsp_ready_percent = 100;
}

/* ------------------------------------------------------------ runner */

struct dtest {
    const char *name;
    void (*fn)(struct dt *);
};

static const struct dtest tests[] = {
    { "registers", t_registers },
    { "pte_bits", t_pte_bits },
    { "page_sizes", t_page_sizes },
    { "dual_pte", t_dual_pte },
    { "faults", t_faults },
    { "bus_error_mid_walk", t_bus_error_mid_walk },
    { "table_at_axi_top", t_table_at_axi_top },
    { "fault_fifo", t_fault_fifo },
    { "invalidation", t_invalidation },
    { "sweep_end", t_sweep_end },
    { "asid_isolation", t_asid_isolation },
    { "merge_and_hits", t_merge_and_hits },
    { "leaf_line", t_leaf_line },
    { "walk_follow", t_walk_follow },
    { "inval_race", t_inval_race },
    { "pwc_inv_race", t_pwc_inv_race },
    { "walk_wait_inv_race", t_walk_wait_inv_race },
    { "l2_hit_inv_race", t_l2_hit_inv_race },
    { "stride_prefetch", t_stride_prefetch },
    { "jump_prefetch", t_jump_prefetch },
    { "backpressure", t_backpressure },
};

int mmu_test_directed(const struct mmu_test_opts *o)
{
    static struct dt dts;
    unsigned failed = 0, run = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (o->only && strcmp(o->only, tests[i].name))
            continue;
        struct dt *d = &dts;
        memset(d, 0, sizeof *d);
        struct dut_config cfg = { 0 };
        cfg.ddr_latency = o->ddr_latency;
        cfg.trace_path = o->trace;
        if (!tb_init(&d->tb, &cfg, o->seed + i))
            return 2;
        cur = d;
        d->name = tests[i].name;
        d->levels = d->tb.prm.levels;
        d->next = TABLE_BASE;
        d->tb.on_rsp = record_rsp;
        tests[i].fn(d);
        if (!tb_drain(&d->tb, 100000))
            failf("requests left unanswered");
        if (d->tb.mismatches)
            failf("%" PRIu64 " responses differ from the model", d->tb.mismatches);
        run++;
        printf("%s  %-20s %8" PRIu64 " cycles, %6" PRIu64 " translations checked\n",
               d->fails ? "FAIL" : "PASS", d->name, tb_now(&d->tb), d->tb.checked);
        fflush(stdout);
        failed += d->fails != 0;
        tb_fini(&d->tb);
    }
    printf("directed: %u run, %u failed: %s\n", run, failed, failed || !run ? "FAIL" : "PASS");
    return failed || !run ? 1 : 0;
}
