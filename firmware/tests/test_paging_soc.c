// SPDX-License-Identifier: Apache-2.0
/* SoC test image of the paging engine (docs/paging-engine.md, make
   t-paging-soc): drives the engine through its registers with packets built
   here from the documented format (include/gmmu/paging.h; no firmware
   encoder), and checks every result by reading DDR back through the
   uncached alias against values computed here:
     FILL of a VRAM range (across 4 KiB pages), WRITE_PTES run and literal,
     COPY VRAM -> VRAM (reading what an earlier packet wrote),
     COPY VRAM <-> system memory (no host: the simulator's port answers
       SLVERR, so the engine stops with AXI_WRITE / AXI_READ at the bus
       address: the m_sys path through the system-memory arbiter),
     FLUSH_TLB reaching the MMU (INV_STATUS.COUNT, PERF_INVALIDATIONS) and
       waiting for a firmware-written invalidation that still runs,
     FENCE writing its value and raising IRQ 4 after the packets before it,
     a malformed packet and a range error stopping the engine (STATUS,
       ERR_PACKET, ERR_ADDR, TAIL, IRQ_STATUS.ERROR), RESTART, later packets.
   Prints "test_paging_soc: PASS" and exits 0, else exits 1. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <gmmu/mmu_regs.h>
#include <gmmu/paging.h>

#include "hal.h"

#define PG(off)  (GMMU_PAGING_BASE + (off))
#define MMU(off) (GMMU_MMU_BASE + (off))

/* VRAM areas used (DDR offsets, all far below the simulator's DDR size). */
#define A_FILL   0x00100328u /* not 4 KiB aligned: bursts split at pages */
#define A_RUN    0x00110010u
#define A_LIT    0x00118000u
#define A_SRC    0x00120040u
#define A_DST    0x00128ff8u
#define A_FENCE  0x00130000u
#define A_ERR    0x00138000u
#define SYS_ADDR 0x0000000123456000ull /* a host bus address no host registered */

#define POISON 0x5a5a5a5aa5a5a5a5ull

static unsigned failures;
static uint32_t head;   /* the stream position: words written so far */
static uint32_t qwords; /* QUEUE_WORDS */

static void check(bool ok, const char *what, uint64_t got, uint64_t want)
{
    if (ok)
        return;
    failures++;
    if (failures <= 20)
        printf("FAIL %s: got 0x%08lx%08lx want 0x%08lx%08lx\n", what, (unsigned long)(got >> 32),
               (unsigned long)got, (unsigned long)(want >> 32), (unsigned long)want);
}

static void check_eq(const char *what, uint64_t got, uint64_t want)
{
    check(got == want, what, got, want);
}

static uint32_t pg_rd(uint32_t off)
{
    return hal_read32(PG(off));
}

static void pg_wr(uint32_t off, uint32_t v)
{
    hal_write32(PG(off), v);
}

/* 64-bit DDR words through the uncached alias (two 32-bit accesses). */
static uint64_t ddr_rd(uint32_t off)
{
    volatile uint32_t *p = hal_ddr_uncached(off);
    return (uint64_t)p[0] | ((uint64_t)p[1] << 32);
}

static void ddr_wr(uint32_t off, uint64_t v)
{
    volatile uint32_t *p = hal_ddr_uncached(off);
    p[0] = (uint32_t)v;
    p[1] = (uint32_t)(v >> 32);
}

static void poison(uint32_t off, uint32_t words)
{
    for (uint32_t i = 0; i < words; i++)
        ddr_wr(off + 8 * i, POISON ^ i);
}

/* A packet word into the ring at the stream position (not yet published). */
static void put(uint64_t w)
{
    uint32_t slot = head & (qwords - 1);
    pg_wr(GMMU_PAGING_QUEUE_OFFSET + 8 * slot, (uint32_t)w);
    pg_wr(GMMU_PAGING_QUEUE_OFFSET + 8 * slot + 4, (uint32_t)(w >> 32));
    head++;
}

static uint64_t header(unsigned op, uint32_t flags, uint32_t count)
{
    return (uint64_t)op | flags | ((uint64_t)count << GMMU_PAGING_HDR_COUNT_LSB);
}

static void publish(void)
{
    pg_wr(GMMU_PAGING_HEAD, head);
}

/* Waits for STATUS.BUSY low; false on a timeout. */
static bool wait_idle(const char *what)
{
    uint32_t start = hal_cycles32();
    while (pg_rd(GMMU_PAGING_STATUS) & GMMU_PAGING_STATUS_BUSY) {
        if (hal_cycles32() - start > 2000000u) {
            printf("FAIL %s: engine still busy (STATUS 0x%08lx)\n", what,
                   (unsigned long)pg_rd(GMMU_PAGING_STATUS));
            failures++;
            return false;
        }
    }
    return true;
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s;
}

/* ---------------------------------------------------------------- IRQ 4 */
static volatile uint32_t irq_count, irq_causes;
static volatile uint64_t irq_fill_last; /* the FILL's last word, read in the handler */

static void on_paging_irq(void *ctx)
{
    (void)ctx;
    uint32_t st = pg_rd(GMMU_PAGING_IRQ_STATUS);
    irq_causes |= st;
    irq_count++;
    irq_fill_last = ddr_rd(A_FILL + 8 * 999);
    pg_wr(GMMU_PAGING_IRQ_STATUS, st); /* W1C: the level drops */
}

/* ---------------------------------------------------------------- tests */
static void test_fill(void)
{
    const uint32_t n = 1000;
    const uint64_t pattern = 0xfeedface00c0ffeeull;
    poison(A_FILL - 8, n + 2);
    uint32_t done0 = pg_rd(GMMU_PAGING_PACKETS_DONE);
    put(header(GMMU_PAGING_OP_FILL, 0, n));
    put(A_FILL);
    put(pattern);
    publish();
    wait_idle("fill");
    check_eq("fill PACKETS_DONE", pg_rd(GMMU_PAGING_PACKETS_DONE), done0 + 1);
    check_eq("fill TAIL", pg_rd(GMMU_PAGING_TAIL), head);
    check_eq("fill guard before", ddr_rd(A_FILL - 8), POISON ^ 0);
    check_eq("fill guard after", ddr_rd(A_FILL + 8 * n), POISON ^ (n + 1));
    unsigned bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += ddr_rd(A_FILL + 8 * i) != pattern;
    check_eq("fill words wrong", bad, 0);
}

static void test_write_ptes(void)
{
    const uint32_t n = 700, nlit = 37;
    const uint64_t first = 0x0000000123456001ull, inc = 0x1000;
    poison(A_RUN - 8, n + 2);
    poison(A_LIT - 8, nlit + 2);
    put(header(GMMU_PAGING_OP_WRITE_PTES, 0, n));
    put(A_RUN);
    put(first);
    put(inc);
    uint64_t s = 12345;
    put(header(GMMU_PAGING_OP_WRITE_PTES, GMMU_PAGING_HDR_LITERAL, nlit));
    put(A_LIT);
    for (uint32_t i = 0; i < nlit; i++)
        put(lcg(&s));
    publish();
    wait_idle("write_ptes");
    unsigned bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += ddr_rd(A_RUN + 8 * i) != first + i * inc;
    check_eq("run entries wrong", bad, 0);
    check_eq("run guard before", ddr_rd(A_RUN - 8), POISON ^ 0);
    check_eq("run guard after", ddr_rd(A_RUN + 8 * n), POISON ^ (n + 1));
    s = 12345;
    bad = 0;
    for (uint32_t i = 0; i < nlit; i++)
        bad += ddr_rd(A_LIT + 8 * i) != lcg(&s);
    check_eq("literal entries wrong", bad, 0);
    check_eq("literal guard after", ddr_rd(A_LIT + 8 * nlit), POISON ^ (nlit + 1));
    check_eq("write_ptes TAIL", pg_rd(GMMU_PAGING_TAIL), head);
}

/* COPY reads what the WRITE_PTES before it in the same publish wrote. */
static void test_copy_vram(void)
{
    const uint32_t n = 600;
    const uint64_t first = 0x8000000000000003ull, inc = 0x10001;
    poison(A_SRC, n);
    poison(A_DST - 8, n + 2);
    put(header(GMMU_PAGING_OP_WRITE_PTES, 0, n));
    put(A_SRC);
    put(first);
    put(inc);
    put(header(GMMU_PAGING_OP_COPY, 0, n));
    put(A_DST);
    put(A_SRC);
    publish();
    wait_idle("copy");
    unsigned bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += ddr_rd(A_DST + 8 * i) != first + i * inc;
    check_eq("copy words wrong", bad, 0);
    check_eq("copy guard before", ddr_rd(A_DST - 8), POISON ^ 0);
    check_eq("copy guard after", ddr_rd(A_DST + 8 * n), POISON ^ (n + 1));
}

/* Waits for the stop, checks the error registers, then RESTARTs. */
static void expect_error(const char *what, unsigned code, uint32_t err_packet, uint64_t err_addr)
{
    char buf[64];
    wait_idle(what);
    uint32_t st = pg_rd(GMMU_PAGING_STATUS);
    snprintf(buf, sizeof buf, "%s STATUS.ERROR", what);
    check_eq(buf, (st & GMMU_PAGING_STATUS_ERROR) != 0, 1);
    snprintf(buf, sizeof buf, "%s STATUS.CODE", what);
    check_eq(buf, (st & GMMU_PAGING_STATUS_CODE) >> GMMU_PAGING_STATUS_CODE_LSB, code);
    snprintf(buf, sizeof buf, "%s ERR_PACKET", what);
    check_eq(buf, pg_rd(GMMU_PAGING_ERR_PACKET), err_packet);
    snprintf(buf, sizeof buf, "%s PACKETS_DONE", what);
    check_eq(buf, pg_rd(GMMU_PAGING_PACKETS_DONE), err_packet);
    snprintf(buf, sizeof buf, "%s ERR_ADDR", what);
    check_eq(buf, pg_rd(GMMU_PAGING_ERR_ADDR_LO) | ((uint64_t)pg_rd(GMMU_PAGING_ERR_ADDR_HI) << 32),
             err_addr);
    snprintf(buf, sizeof buf, "%s IRQ_STATUS.ERROR", what);
    check_eq(buf, (irq_causes & GMMU_PAGING_IRQ_STATUS_ERROR) != 0, 1);
    irq_causes = 0;

    pg_wr(GMMU_PAGING_CTRL, GMMU_PAGING_CTRL_ENABLE | GMMU_PAGING_CTRL_RESTART);
    wait_idle(what);
    st = pg_rd(GMMU_PAGING_STATUS);
    snprintf(buf, sizeof buf, "%s STATUS after RESTART", what);
    check_eq(buf, st, 0);
    snprintf(buf, sizeof buf, "%s TAIL after RESTART", what);
    check_eq(buf, pg_rd(GMMU_PAGING_TAIL), head);
}

/* No host registered system memory, so the simulator's port answers
   SLVERR: the m_sys bursts reached it through the system-memory arbiter. */
static void test_copy_sys(void)
{
    uint32_t done0 = pg_rd(GMMU_PAGING_PACKETS_DONE);
    put(header(GMMU_PAGING_OP_COPY, GMMU_PAGING_HDR_DST_SYS, 64));
    put(SYS_ADDR);
    put(A_SRC);
    publish();
    expect_error("copy vram->sys", GMMU_PAGING_ERR_AXI_WRITE, done0, SYS_ADDR);

    poison(A_ERR, 64);
    put(header(GMMU_PAGING_OP_COPY, GMMU_PAGING_HDR_SRC_SYS, 64));
    put(A_ERR);
    put(SYS_ADDR + 0x100);
    publish();
    expect_error("copy sys->vram", GMMU_PAGING_ERR_AXI_READ, done0, SYS_ADDR + 0x100);
    /* After a read error no burst is started on its data. */
    unsigned bad = 0;
    for (uint32_t i = 0; i < 64; i++)
        bad += ddr_rd(A_ERR + 8 * i) != (POISON ^ i);
    check_eq("copy sys->vram wrote VRAM", bad, 0);
}

static uint32_t mmu_inv_count(void)
{
    return hal_read32(MMU(GMMU_MMU_INV_STATUS)) >> GMMU_MMU_INV_STATUS_COUNT_LSB;
}

static uint32_t mmu_perf_inv(void)
{
    return hal_read32(MMU(GMMU_MMU_PERF_SHARED + 4 * GMMU_PERF_INVALIDATIONS));
}

static void flush_packet(unsigned type, uint32_t asid, uint64_t first_va, uint64_t last_va)
{
    put(header(GMMU_PAGING_OP_FLUSH_TLB, 0, type));
    put(asid);
    put(first_va);
    put(last_va);
}

static void test_flush(void)
{
    /* Alone: each type reaches the MMU once. */
    uint32_t cnt0 = mmu_inv_count(), perf0 = mmu_perf_inv();
    uint32_t done0 = pg_rd(GMMU_PAGING_PACKETS_DONE);
    flush_packet(GMMU_PAGING_FLUSH_ALL, 0, 0, 0);
    flush_packet(GMMU_PAGING_FLUSH_ASID, 3, 0, 0);
    flush_packet(GMMU_PAGING_FLUSH_RANGE, 5, 0x10000, 0x7ffff000);
    publish();
    wait_idle("flush");
    check_eq("flush PACKETS_DONE", pg_rd(GMMU_PAGING_PACKETS_DONE), done0 + 3);
    check_eq("flush INV_STATUS.COUNT", (mmu_inv_count() - cnt0) & 0xffff, 3);
    check_eq("flush PERF_INVALIDATIONS", mmu_perf_inv() - perf0, 3);
    check_eq("flush INV_STATUS.DONE",
             hal_read32(MMU(GMMU_MMU_INV_STATUS)) & GMMU_MMU_INV_STATUS_DONE, 1);

    /* Behind a firmware-written range invalidation (its sweeps take many
       cycles): the engine's flush must wait for it, and complete only when
       the MMU is done, so whenever PACKETS_DONE shows it, INV_STATUS.DONE
       is 1. */
    cnt0 = mmu_inv_count();
    perf0 = mmu_perf_inv();
    done0 = pg_rd(GMMU_PAGING_PACKETS_DONE);
    hal_write32(MMU(GMMU_MMU_INV_ASID), 7);
    hal_write32(MMU(GMMU_MMU_INV_START_LO), 0);
    hal_write32(MMU(GMMU_MMU_INV_START_HI), 0);
    hal_write32(MMU(GMMU_MMU_INV_END_LO), 0xfffff000u);
    hal_write32(MMU(GMMU_MMU_INV_END_HI), 0);
    flush_packet(GMMU_PAGING_FLUSH_RANGE, 7, 0x200000, 0x3ff000);
    hal_write32(MMU(GMMU_MMU_INV_CMD), 2); /* INV_RANGE */
    publish();
    unsigned waited = 0, early = 0;
    uint32_t start = hal_cycles32();
    for (;;) {
        uint32_t done = pg_rd(GMMU_PAGING_PACKETS_DONE);
        uint32_t inv_done = hal_read32(MMU(GMMU_MMU_INV_STATUS)) & GMMU_MMU_INV_STATUS_DONE;
        if (done != done0) {
            early += !inv_done;
            break;
        }
        waited += !inv_done;
        if (hal_cycles32() - start > 1000000u)
            break;
    }
    wait_idle("flush behind firmware");
    check_eq("flush completed while the MMU was busy", early, 0);
    check(waited > 0, "flush never seen waiting for the MMU", waited, 1);
    check_eq("flush+firmware INV_STATUS.COUNT", (mmu_inv_count() - cnt0) & 0xffff, 2);
    check_eq("flush+firmware PERF_INVALIDATIONS", mmu_perf_inv() - perf0, 2);
    check_eq("flush+firmware PACKETS_DONE", pg_rd(GMMU_PAGING_PACKETS_DONE), done0 + 1);
    printf(
        "test_paging_soc: flush behind a firmware range invalidation: %u polls saw the MMU busy\n",
        waited);
}

static void test_fence(void)
{
    const uint64_t value = 0x0123456789abcdefull, pattern = 0x1111222233334444ull;
    poison(A_FILL, 1000);
    ddr_wr(A_FENCE, 0);
    irq_count = 0;
    irq_causes = 0;
    put(header(GMMU_PAGING_OP_FILL, 0, 1000));
    put(A_FILL);
    put(pattern);
    put(header(GMMU_PAGING_OP_FENCE, GMMU_PAGING_HDR_FENCE_WRITE | GMMU_PAGING_HDR_FENCE_IRQ, 0));
    put(A_FENCE);
    put(value);
    publish();
    wait_idle("fence");
    uint32_t start = hal_cycles32();
    while (irq_count == 0 && hal_cycles32() - start < 100000u)
        ;
    check_eq("fence IRQ 4 taken", irq_count, 1);
    check_eq("fence IRQ_STATUS.FENCE", irq_causes & GMMU_PAGING_IRQ_STATUS_FENCE,
             GMMU_PAGING_IRQ_STATUS_FENCE);
    check_eq("fence: FILL done before the IRQ", irq_fill_last, pattern);
    check_eq("fence value in DDR", ddr_rd(A_FENCE), value);
    check_eq("FENCE_LO/HI",
             pg_rd(GMMU_PAGING_FENCE_LO) | ((uint64_t)pg_rd(GMMU_PAGING_FENCE_HI) << 32), value);
    check_eq("IRQ_STATUS cleared", pg_rd(GMMU_PAGING_IRQ_STATUS), 0);
    irq_causes = 0;
}

static void test_malformed(void)
{
    const uint64_t pa = 0xaaaaaaaa00000001ull, pb = 0xbbbbbbbb00000002ull;
    poison(A_ERR, 32);
    uint32_t done0 = pg_rd(GMMU_PAGING_PACKETS_DONE);
    put(header(GMMU_PAGING_OP_FILL, 0, 16)); /* good: runs */
    put(A_ERR);
    put(pa);
    uint32_t bad_pos = head;
    put(header(GMMU_PAGING_OP_FILL, 1u << 13, 16)); /* reserved bit 13 */
    put(A_ERR + 128);
    put(pb);
    put(header(GMMU_PAGING_OP_FILL, 0, 16)); /* after it: must not run */
    put(A_ERR + 128);
    put(pb);
    publish();
    wait_idle("malformed");
    check_eq("malformed TAIL", pg_rd(GMMU_PAGING_TAIL), bad_pos);
    expect_error("malformed", GMMU_PAGING_ERR_MALFORMED, done0 + 1, bad_pos);
    unsigned bad = 0;
    for (uint32_t i = 0; i < 16; i++) {
        bad += ddr_rd(A_ERR + 8 * i) != pa;
        bad += ddr_rd(A_ERR + 128 + 8 * i) != (POISON ^ (16 + i));
    }
    check_eq("malformed: words before/after wrong", bad, 0);

    /* A VRAM range past the DDR: RANGE. */
    done0 = pg_rd(GMMU_PAGING_PACKETS_DONE);
    bad_pos = head;
    put(header(GMMU_PAGING_OP_FILL, 0, 2));
    put(hal_ddr_size() - 8);
    put(pb);
    publish();
    expect_error("range", GMMU_PAGING_ERR_RANGE, done0, bad_pos);

    /* After RESTART, later packets run. */
    put(header(GMMU_PAGING_OP_FILL, 0, 16));
    put(A_ERR + 128);
    put(pb);
    publish();
    wait_idle("after restart");
    bad = 0;
    for (uint32_t i = 0; i < 16; i++)
        bad += ddr_rd(A_ERR + 128 + 8 * i) != pb;
    check_eq("after restart: words wrong", bad, 0);
    check_eq("after restart STATUS", pg_rd(GMMU_PAGING_STATUS), 0);
}

int main(void)
{
    check_eq("ID", pg_rd(GMMU_PAGING_ID), GMMU_PAGING_ID_VALUE);
    qwords = pg_rd(GMMU_PAGING_QUEUE_WORDS);
    check(qwords >= 16 && (qwords & (qwords - 1)) == 0, "QUEUE_WORDS", qwords, 16);
    uint32_t cfg = pg_rd(GMMU_PAGING_CONFIG);
    printf("test_paging_soc: QUEUE_WORDS %lu, MAX_BURST %lu, COPY_FIFO_BEATS %lu\n",
           (unsigned long)qwords, (unsigned long)(cfg & GMMU_PAGING_CONFIG_MAX_BURST),
           (unsigned long)(cfg >> GMMU_PAGING_CONFIG_COPY_FIFO_BEATS_LSB));
    if (failures)
        return 1;
    head = pg_rd(GMMU_PAGING_HEAD);
    hal_irq_attach(GMMU_IRQ_PAGING, on_paging_irq, NULL);
    pg_wr(GMMU_PAGING_IRQ_ENABLE, GMMU_PAGING_IRQ_STATUS_FENCE | GMMU_PAGING_IRQ_STATUS_ERROR);
    pg_wr(GMMU_PAGING_CTRL, GMMU_PAGING_CTRL_ENABLE);

    test_fill();
    test_write_ptes();
    test_copy_vram();
    test_copy_sys();
    test_flush();
    test_fence();
    test_malformed();

    printf("test_paging_soc: %lu packets, %lu beats, %lu busy cycles\n",
           (unsigned long)pg_rd(GMMU_PAGING_PERF_PACKETS),
           (unsigned long)pg_rd(GMMU_PAGING_PERF_BEATS),
           (unsigned long)pg_rd(GMMU_PAGING_PERF_BUSY_CYCLES));
    if (failures) {
        printf("test_paging_soc: FAIL (%u)\n", failures);
        return 1;
    }
    printf("test_paging_soc: PASS\n");
    return 0;
}
