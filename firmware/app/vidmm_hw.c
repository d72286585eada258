// SPDX-License-Identifier: Apache-2.0
/*
 * VidMm's platform hooks on the SoC. With the paging engine (found by its
 * ID register at boot) page tables are written by its packets and
 * invalidated by its FLUSH_TLB (ptm_paging over paging_queue); without it
 * by CPU stores and the MMU's INV_* registers. Table reads are CPU reads
 * through the cached DDR alias either way; the address-space table is
 * always the MMU's registers.
 */
#include "vidmm_hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmmu/engine_regs.h>
#include <gmmu/mmu_regs.h>
#include <gmmu/paging.h>

#include "engine_cmd.h"
#include "hal.h"
#include "mbox_hw.h"
#include "paging_io_impl.h"
#include "paging_queue.h"
#include "ptm_paging.h"
#include "sys.h"

#define VA_LIMIT (UINT64_C(1) << GMMU_VA_BITS_DEFAULT)
#define VALID_LO ((uint32_t)GMMU_PTE_VALID)

/*
 * The instance (under 1 KB) comes from the heap once at boot. As a static
 * it would put __bss_size next to the global pointer, where binutils 2.40
 * relaxes crt0's load of that absolute symbol to a gp-relative one that no
 * longer fits after relaxation. Its tables (27 KB) and vram_alloc's
 * metadata (25 KB for a 256 MiB segment) live in the firmware's DDR area
 * (fw_area below), through the cached alias: on-chip RAM had no room left
 * for them next to the code.
 */
static struct vidmm *vm;
static struct vram_alloc vram;
static struct gmmu_pt_stats stats;
/* The paging engine, when there is one. */
static bool engine;
static uint64_t fence_page = UINT64_MAX;   /* DDR offset of the fence page */
static uint64_t aperture_table;            /* DDR offset of the aperture table */
static struct gmmu_update_op *batch_store; /* UPDATE_QUEUE_OPS operations */
static struct pq queue;
static struct ptm_paging pager;

/* ------------------------------------------------------------ VRAM */

/*
 * Tables go through the cached alias. A read that misses refills a 32-byte
 * line (four entries) in one burst, where an uncached read pays the DDR
 * latency for each 32-bit half; scans and walks read runs of entries. The
 * data cache is write-through, so every store still reaches DDR at once
 * (the walker sees it) and a cached line holding it is updated. That keeps
 * the cache right because only the firmware writes tables, always through
 * here, and a block becomes a table only after this alias cleared or
 * filled every word of it: stale lines from a block's earlier life as
 * someone's memory are overwritten first.
 */
static volatile uint32_t *ddr_word(uint64_t vram_offset)
{
    return (volatile uint32_t *)(uintptr_t)hal_ddr_cached(vram_offset);
}

/* Only the firmware writes tables, so the two halves read are one word. */
static uint64_t hw_read64(void *ctx, uint64_t off)
{
    volatile uint32_t *p = ddr_word(off);
    uint32_t lo = p[0];

    (void)ctx;
    stats.words_read++;
    return (uint64_t)p[1] << 32 | lo;
}

static void hw_read_run(void *ctx, uint64_t off, uint64_t *words, size_t n)
{
    volatile uint32_t *p = ddr_word(off);

    (void)ctx;
    stats.words_read += (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        uint32_t lo = p[2 * i];

        words[i] = (uint64_t)p[2 * i + 1] << 32 | lo;
    }
}

/*
 * The walker reads 64-bit words while the CPU writes 32-bit halves, so an
 * entry must never be seen torn. The low half holds VALID:
 *  - a new invalid entry: low half first (invalid at once), then high;
 *  - a valid entry over an invalid one: high half, then the low half makes
 *    it valid (the walker ignores the high half of an invalid entry);
 *  - same high half: one write of the low half replaces the entry whole;
 *  - otherwise: clear VALID, write the high half, then the low half. The
 *    entry reads invalid for two writes; this only happens when the high
 *    half (PA bits 51:32, segment) changes under a valid entry.
 * Each DDR store waits for its AXI write response (tens of cycles), so the
 * old halves are read (through the cache) to store as few as can be.
 */
static void hw_write64(void *ctx, uint64_t off, uint64_t value)
{
    volatile uint32_t *p = ddr_word(off);
    uint32_t lo = (uint32_t)value, hi = (uint32_t)(value >> 32);

    (void)ctx;
    stats.words_written++;
    if (!(lo & VALID_LO)) {
        p[0] = lo;
        p[1] = hi;
        stats.bus_writes += 2;
        return;
    }
    stats.valid_written++;
    stats.words_read++;
    if (!(p[0] & VALID_LO)) {
        p[1] = hi;
        p[0] = lo;
        stats.bus_writes += 2;
        return;
    }
    if (p[1] != hi) {
        p[0] = lo & ~VALID_LO;
        p[1] = hi;
        stats.bus_writes += 2;
    }
    p[0] = lo;
    stats.bus_writes++;
}

static void hw_write_run(void *ctx, uint64_t off, const uint64_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        hw_write64(ctx, off + 8 * i, words[i]);
}

/* ------------------------------------------------------------ MMU */

static void mmu_write(uint32_t reg, uint32_t value)
{
    hal_write32(GMMU_MMU_BASE + reg, value);
}

static uint32_t mmu_read(uint32_t reg)
{
    return hal_read32(GMMU_MMU_BASE + reg);
}

/* Waits for INV_STATUS.DONE, at most VIDMM_HW_INV_TIMEOUT cycles. A stuck
   invalidation is counted and reported once; the command carries on. */
static void wait_invalidation(void)
{
    uint32_t start = hal_cycles32(), waited = 0;

    while (!(mmu_read(GMMU_MMU_INV_STATUS) & GMMU_MMU_INV_STATUS_DONE)) {
        waited = hal_cycles32() - start;
        if (waited > VIDMM_HW_INV_TIMEOUT) {
            if (!stats.inv_timeouts++)
                printf("vidmm: MMU invalidation not done after %lu cycles\n",
                       (unsigned long)waited);
            return;
        }
    }
    stats.inv_cycles += waited;
    if (waited > stats.inv_max_cycles)
        stats.inv_max_cycles = waited;
}

/* [start, end) of asid; the whole space (or more) is one INV_ASID. */
static void hw_invalidate(void *ctx, uint32_t asid, uint64_t start, uint64_t end)
{
    uint32_t type = GMMU_INV_ASID;

    (void)ctx;
    mmu_write(GMMU_MMU_INV_ASID, asid);
    if (start != 0 || end < VA_LIMIT) {
        uint64_t last = end - 1; /* INV_END is inclusive */

        type = GMMU_INV_RANGE;
        mmu_write(GMMU_MMU_INV_START_LO, (uint32_t)start);
        mmu_write(GMMU_MMU_INV_START_HI, (uint32_t)(start >> 32));
        mmu_write(GMMU_MMU_INV_END_LO, (uint32_t)last);
        mmu_write(GMMU_MMU_INV_END_HI, (uint32_t)(last >> 32));
    }
    mmu_write(GMMU_MMU_INV_CMD, type << GMMU_MMU_INV_CMD_TYPE_LSB);
    stats.invalidations++;
    wait_invalidation();
}

/* Valid entries get their high half first, and lose VALID first. */
static void hw_set_as(void *ctx, uint32_t asid, uint64_t root, bool valid)
{
    uint32_t entry = asid * GMMU_AS_STRIDE;

    (void)ctx;
    if (!valid) {
        mmu_write(GMMU_MMU_AS_ROOT_LO + entry, 0);
        mmu_write(GMMU_MMU_AS_ROOT_HI + entry, 0);
        return;
    }
    mmu_write(GMMU_MMU_AS_ROOT_HI + entry, (uint32_t)(root >> 32));
    mmu_write(GMMU_MMU_AS_ROOT_LO + entry,
              ((uint32_t)root & GMMU_MMU_AS_ROOT_LO_ROOT) | GMMU_MMU_AS_ROOT_LO_VALID);
}

/* Host memory is reached only by the paging engine's system-memory port:
   a write the host's side refuses (or an error slave, on a board without
   the path) fails the probe. */
static bool eng_sys_reachable(void *ctx, uint64_t sys_addr)
{
    (void)ctx;
    return pq_probe_write(&queue, sys_addr, GMMU_PAGING_HDR_DST_SYS) == PQ_OK;
}

static bool cpu_sys_reachable(void *ctx, uint64_t sys_addr)
{
    (void)ctx;
    (void)sys_addr;
    return false; /* the CPU has no path to host memory */
}

/* GPU engines started by ENGINE_START keep their address space's id. */
static bool hw_asid_busy(void *ctx, uint32_t asid)
{
    (void)ctx;
    return engine_cmd_asid_busy(asid);
}

/* A contiguous allocation under a physical-mode run is not freed (BUSY). */
static bool hw_phys_busy(void *ctx, uint64_t offset, uint64_t bytes)
{
    (void)ctx;
    return engine_cmd_phys_busy(offset, bytes);
}

/* Memory in use: the engines' runs and the queues' jobs (engine_cmd). */
static bool hw_va_in_use(void *ctx, uint32_t as_handle, uint32_t asid, uint64_t va, uint64_t bytes,
                         uint32_t after)
{
    (void)ctx;
    return engine_cmd_va_busy(as_handle, asid, va, bytes, after);
}

/*
 * The aperture table (docs/aperture.md): CPU stores through the uncached
 * alias, each acknowledged once DDR has it, so an entry is in DDR before
 * the INVALIDATE that follows it reaches the translators (the CPU bus keeps
 * their order). The translators only read the table.
 */
static void hw_aperture_write(void *ctx, uint32_t page, uint64_t entry)
{
    volatile uint32_t *p =
        hal_ddr_uncached(aperture_table + (uint64_t)page * GMMU_APERTURE_ENTRY_BYTES);

    (void)ctx;
    p[1] = (uint32_t)(entry >> 32);
    p[0] = (uint32_t)entry;
}

/* Every translator drops its lines at the edge that takes this write,
   before its acknowledge. */
static void hw_aperture_invalidate(void *ctx)
{
    (void)ctx;
    hal_write32(GMMU_APERTURE_BASE + GMMU_APERTURE_INVALIDATE, 1);
}

static const struct vidmm_hw hooks = {
    .read64 = hw_read64,
    .read_run = hw_read_run,
    .write64 = hw_write64,
    .write_run = hw_write_run,
    .invalidate = hw_invalidate,
    .set_as = hw_set_as,
    .asid_busy = hw_asid_busy,
    .phys_busy = hw_phys_busy,
    .va_in_use = hw_va_in_use,
    .sys_reachable = cpu_sys_reachable,
    .aperture_write = hw_aperture_write,
    .aperture_invalidate = hw_aperture_invalidate,
};

/* ------------------------------------------------------------ paging engine */

/*
 * The engine writes DDR behind the data cache. ptm_paging keeps a record
 * of the ranges queued since the CPU last waited for the engine; a table
 * read inside one waits and then drops every cached line (the cache is
 * small and write-through, so dropping it loses nothing but refills),
 * other reads go through the cache as before.
 */
static void drop_cache(void *ctx)
{
    (void)ctx;
    hal_dcache_invalidate();
}

static uint64_t cpu_read64(void *ctx, uint64_t off)
{
    return hw_read64(ctx, off);
}

/* Most reads find nothing queued since the last wait: one call less. */
static uint64_t eng_read64(void *ctx, uint64_t off)
{
    if (ptm_paging_clean(&pager))
        return ptm_paging_failed(&pager) ? 0 : hw_read64(ctx, off);
    return ptm_paging_read64(&pager, off);
}

/* One staleness check for the run, then the words straight from the
   cache; zeros once the engine failed (ptm_hw.failed). */
static void eng_read_run(void *ctx, uint64_t off, uint64_t *words, size_t n)
{
    if (!ptm_paging_clean(&pager))
        ptm_paging_read_range(&pager, off, off + 8 * (uint64_t)n);
    if (ptm_paging_failed(&pager)) {
        for (size_t i = 0; i < n; i++)
            words[i] = 0;
        return;
    }
    hw_read_run(ctx, off, words, n);
}

/*
 * A few words of one leaf table (ptm_hw.direct): with nothing queued still
 * pending, the CPU stores them (hw_write64: never seen torn, each store
 * acknowledged once DDR has it, and the cached line updated, so the record
 * needs no entry) and invalidates through INV_*: the packets' pushes, the
 * FLUSH_TLB and the FENCE's wait cost several times that. Any packet still
 * pending keeps the command on the engine, which keeps the writes in order.
 * A DDR error on those stores (or on hw_write64's reads) must fail the
 * command as the engine's would, not stop the firmware: BUS_ERROR is
 * masked while direct is on, and the edit's end (complete, or direct(ctx,
 * false) in a batch) takes a recorded error as the engine's failure
 * (ptm_hw.failed) and drops the data cache, whose write-through lines may
 * hold a word DDR refused.
 */
static bool direct;

/* Reads and clears SYSCTL.BUSERR_STATUS: whether a CPU access got a bus
   error since it was last cleared. */
static bool bus_error_taken(void)
{
    uint32_t sysctl = GMMU_SYSCTL_BASE + GMMU_SYSCTL_BUSERR_STATUS;

    if (!(hal_read32(sysctl) & GMMU_SYSCTL_BUSERR_STATUS_PENDING))
        return false;
    hal_write32(sysctl, GMMU_SYSCTL_BUSERR_STATUS_PENDING);
    return true;
}

static __attribute__((noinline)) void direct_end(void)
{
    if (!direct)
        return;
    direct = false;
    if (bus_error_taken()) {
        hal_dcache_invalidate();
        pager.failed = true;
        pager.stats.failures++;
    }
    hal_irq_unmask(GMMU_IRQ_BUS_ERROR);
}

static void eng_direct(void *ctx, bool on)
{
    (void)ctx;
    if (!on) {
        direct_end();
    } else if (!pq_busy(&queue) && !ptm_paging_failed(&pager)) {
        hal_irq_mask(GMMU_IRQ_BUS_ERROR);
        direct = true;
    }
}

static void eng_write64(void *ctx, uint64_t off, uint64_t value)
{
    if (direct) {
        hw_write64(ctx, off, value);
        return;
    }
    stats.words_written++;
    ptm_paging_write64(&pager, off, value);
}

static void eng_write_run(void *ctx, uint64_t off, const uint64_t *words, size_t n)
{
    if (direct) {
        hw_write_run(ctx, off, words, n);
        return;
    }
    stats.words_written += (uint32_t)n;
    ptm_paging_write_run(&pager, off, words, n);
}

static void eng_write_pattern(void *ctx, uint64_t off, uint64_t first, uint64_t step, size_t n)
{
    (void)ctx;
    stats.words_written += (uint32_t)n;
    ptm_paging_write_pattern(&pager, off, first, step, n);
}

/* A FLUSH_TLB behind every write queued, and the wait for it: callers
   (ptmgr before freeing tables, vidmm before binding an id) need it done. */
static void eng_invalidate(void *ctx, uint32_t asid, uint64_t start, uint64_t end)
{
    uint32_t t0 = hal_cycles32(), waited;

    /* Nothing queued pending (a direct edit, DESTROY_AS, a binding): the
       registers, as without the engine. */
    if (!pq_busy(&queue) && !ptm_paging_failed(&pager)) {
        hw_invalidate(ctx, asid, start, end);
        return;
    }
    ptm_paging_flush(&pager, asid, start, end);
    ptm_paging_wait(&pager);
    waited = hal_cycles32() - t0;
    stats.invalidations++;
    stats.inv_cycles += waited;
    if (waited > stats.inv_max_cycles)
        stats.inv_max_cycles = waited;
}

static bool eng_complete(void *ctx)
{
    (void)ctx;
    direct_end();
    return ptm_paging_complete(&pager);
}

static bool eng_failed(void *ctx)
{
    (void)ctx;
    return ptm_paging_failed(&pager);
}

/* A move's copy: COPY packets (at most 2^27 words each), waited for, so
   the old pages can be freed once vidmm's rewrite completes. The engine
   wrote DDR behind the data cache: dropped after. */
static bool eng_copy(void *ctx, unsigned dst_seg, uint64_t dst, unsigned src_seg, uint64_t src,
                     uint64_t bytes)
{
    uint32_t flags = (dst_seg == GMMU_SEGMENT_SYSTEM ? GMMU_PAGING_HDR_DST_SYS : 0u) |
                     (src_seg == GMMU_SEGMENT_SYSTEM ? GMMU_PAGING_HDR_SRC_SYS : 0u);

    while (bytes) {
        uint64_t w[3], chunk = bytes < (UINT64_C(1) << 30) ? bytes : UINT64_C(1) << 30;

        pq_enc_copy(w, dst, src, (uint32_t)(chunk / 8), flags);
        if (pq_push(&queue, w, 3, NULL, 0) != PQ_OK)
            goto failed;
        dst += chunk;
        src += chunk;
        bytes -= chunk;
    }
    if (pq_sync(&queue) == PQ_OK) {
        drop_cache(ctx);
        return true;
    }
    /* An error seen while waiting for room stops the queue as one seen by
       the sync does: restart it, or the next command would meet it. */
failed:
    pq_restart(&queue);
    return false;
}

static const struct vidmm_hw engine_hooks = {
    .read64 = eng_read64,
    .read_run = eng_read_run,
    .write64 = eng_write64,
    .write_run = eng_write_run,
    .write_pattern = eng_write_pattern,
    .complete = eng_complete,
    .failed = eng_failed,
    .direct = eng_direct,
    .invalidate = eng_invalidate,
    .set_as = hw_set_as,
    .asid_busy = hw_asid_busy,
    .phys_busy = hw_phys_busy,
    .va_in_use = hw_va_in_use,
    .sys_reachable = eng_sys_reachable,
    .copy = eng_copy,
    .aperture_write = hw_aperture_write,
    .aperture_invalidate = hw_aperture_invalidate,
};

/*
 * Is the engine there? On a SoC without it the decoder answers the ID read
 * with a bus error, which would stop the firmware: the BUS_ERROR line is
 * masked around the read and a recorded error cleared.
 */
static bool engine_probe(void)
{
    bool found;

    hal_irq_mask(GMMU_IRQ_BUS_ERROR);
    found = pq_init(&queue) == PQ_OK;
    if (bus_error_taken())
        found = false;
    hal_irq_unmask(GMMU_IRQ_BUS_ERROR);
    if (!found)
        return false;
    ptm_paging_init(&pager, &queue, cpu_read64, drop_cache, NULL, VA_LIMIT);
    pager.now = hal_cycles32;
    return true;
}

bool vidmm_hw_engine(void)
{
    return engine;
}

/* ------------------------------------------------------------ init */

/*
 * The firmware's DDR area at the top of DDR, laid out here and nowhere else
 * (DDR offsets, each part in whole 4 KB pages, from the top down). The
 * fence page and the VRAM segment go below `bottom`, and BAR1 stops at the
 * fence page's end.
 *
 * Every part is used through the cached alias, which is right only while
 * nothing but the CPU writes it (the data cache is write-through, so DDR is
 * always current; a device's write would leave a stale line). Nothing else
 * does: BAR1 stops below the area (APERTURE_LIMIT), the paging engine writes
 * page tables and copies allocations' pages, all in the segment or in host
 * memory, and the GPU engines reach only what the MMU maps, which is
 * allocations.
 */
struct fw_area {
    uint64_t aperture; /* the aperture table: read by the translators, never written */
    uint64_t nodes;    /* VA nodes of every address space */
    uint64_t tables;   /* vidmm's tables (struct vidmm_tables) */
    uint64_t meta;     /* vram_alloc's metadata, for the largest segment */
    uint64_t counts;   /* the page tables' valid-entry counts (ptmgr) */
    uint64_t batches;  /* the waiting UPDATE_SUBMIT batches' operations */
    uint64_t bottom;   /* the area's first byte */
};

static uint64_t whole_pages(uint64_t bytes)
{
    return (bytes + VRAM_PAGE_SIZE - 1) & ~(uint64_t)(VRAM_PAGE_SIZE - 1);
}

/* False if DDR of ddr bytes cannot hold the area. */
static bool fw_area_place(uint64_t ddr, struct fw_area *area)
{
    /* The counts cover a segment the size of the DDR (at most
       VIDMM_HW_VRAM_MAX), so a small DDR keeps its VRAM. */
    uint64_t covered = ddr < VIDMM_HW_VRAM_MAX ? ddr : VIDMM_HW_VRAM_MAX;
    uint64_t nodes = whole_pages(VIDMM_HW_NODES_BYTES);
    uint64_t tables = whole_pages(sizeof(struct vidmm_tables));
    uint64_t meta = whole_pages(vram_alloc_metadata_bytes(VIDMM_HW_VRAM_MAX));
    uint64_t counts = whole_pages(PTM_COUNT_WORDS(covered) * sizeof(uint32_t));
    uint64_t batches = whole_pages(GMMU_UPDATE_QUEUE_OPS * sizeof(struct gmmu_update_op));
    uint64_t aperture = whole_pages(VIDMM_APERTURE_PAGES_MAX * GMMU_APERTURE_ENTRY_BYTES);

    if (ddr < aperture + nodes + tables + meta + counts + batches)
        return false;
    area->aperture = ddr - aperture;
    area->nodes = area->aperture - nodes;
    area->tables = area->nodes - tables;
    area->meta = area->tables - meta;
    area->counts = area->meta - counts;
    area->batches = area->counts - batches;
    area->bottom = area->batches;
    return true;
}

/* The DDR below the area and the fence page, at most VIDMM_HW_VRAM_MAX; 0
   if none. */
static uint64_t segment_bytes(const struct fw_area *area)
{
    uint64_t segment;

    if (area->bottom <= VRAM_PAGE_SIZE)
        return 0;
    segment = area->bottom - VRAM_PAGE_SIZE;
    if (segment > VIDMM_HW_VRAM_MAX)
        segment = VIDMM_HW_VRAM_MAX;
    return segment & ~(uint64_t)(VRAM_PAGE_SIZE - 1);
}

static void *ddr_cached_rw(uint64_t offset)
{
    return (void *)(uintptr_t)hal_ddr_cached(offset);
}

bool vidmm_hw_init(void)
{
    struct fw_area area = { 0 };
    uint64_t segment = fw_area_place(hal_ddr_size(), &area) ? segment_bytes(&area) : 0;
    size_t meta_bytes = vram_alloc_metadata_bytes(segment);
    struct vidmm_config cfg;

    /* BAR1 reaches the VRAM segment and the fence page just above it, and
       stops there: the area above is the firmware's alone. The segment
       lies below 4 GiB with the area above it. */
    fence_page = segment ? segment : UINT64_MAX;
    mbox_hw_write(GMMU_MBOX_APERTURE_LIMIT, segment ? (uint32_t)(segment + VRAM_PAGE_SIZE) : 0);
    vm = malloc(sizeof(*vm));
    if (!segment || !vm ||
        vram_alloc_init(&vram, ddr_cached_rw(area.meta), meta_bytes, segment) != VRAM_OK) {
        /* The boot fails loudly here if the heap cannot hold vidmm. */
        printf("vidmm: no room for a %lu KiB VRAM segment (%lu bytes of RAM, %lu of DDR)\n",
               (unsigned long)(segment >> 10), (unsigned long)sizeof(*vm),
               (unsigned long)meta_bytes);
        free(vm);
        vm = NULL;
        return false;
    }
    engine = engine_probe();
    /* The aperture table, empty before the translators may read it. */
    aperture_table = area.aperture;
    if (engine) {
        ptm_paging_write_pattern(&pager, aperture_table, 0, 0, VIDMM_APERTURE_PAGES_MAX);
        ptm_paging_complete(&pager);
    } else {
        for (uint32_t i = 0; i < VIDMM_APERTURE_PAGES_MAX; i++)
            hw_aperture_write(NULL, i, 0);
    }
    hal_write32(GMMU_APERTURE_BASE + GMMU_APERTURE_TABLE, (uint32_t)aperture_table);
    hal_write32(GMMU_APERTURE_BASE + GMMU_APERTURE_PAGES, VIDMM_APERTURE_PAGES_MAX);
    hw_aperture_invalidate(NULL);
    cfg = (struct vidmm_config){
        .hw = engine ? &engine_hooks : &hooks,
        .vram = &vram,
        /* The tables, the counts and the nodes are the CPU's alone (see
           fw_area), so the cached alias keeps them right; uncached, every
           access paid the DDR latency per word (va_alloc's searches were
           ~1 000 cycles of a map and unmap), and a count is read once per
           table a command changes. */
        .tables = ddr_cached_rw(area.tables),
        .table_counts = ddr_cached_rw(area.counts),
        .va_nodes = ddr_cached_rw(area.nodes),
        .va_nodes_per_as = VIDMM_HW_NODES_PER_AS,
        .hw_asids = GMMU_ASIDS,
        .aperture_pages = VIDMM_APERTURE_PAGES_MAX,
    };
    if (vidmm_init(vm, &cfg) != GMMU_STATUS_OK)
        return false;
    batch_store = ddr_cached_rw(area.batches);
    printf("vidmm: VRAM segment %lu KiB; %u address spaces on %u hardware ids, "
           "%u allocations; %lu bytes of RAM, %lu of DDR for its tables, %lu for the VRAM "
           "allocator; %lu bytes of heap left\n",
           (unsigned long)(segment >> 10), VIDMM_MAX_AS, GMMU_ASIDS, VIDMM_MAX_ALLOCS,
           (unsigned long)sizeof(*vm), (unsigned long)sizeof(struct vidmm_tables),
           (unsigned long)meta_bytes, sys_heap_free());
    if (engine)
        printf("vidmm: page tables written by the paging engine (%lu-word queue)\n",
               (unsigned long)queue.ring_words);
    else
        printf("vidmm: no paging engine; page tables written by the CPU\n");
    return true;
}

struct gmmu_update_op *vidmm_hw_batch_store(void)
{
    return batch_store;
}

uint64_t vidmm_hw_fence_page(void)
{
    return fence_page;
}

struct vidmm *vidmm_hw_instance(void)
{
    return vm;
}

struct gmmu_pt_stats *vidmm_hw_stats(void)
{
    return &stats;
}

/* The engine's counters are read at the request; the firmware's own are
   kept by ptm_paging and paging_queue. */
static void engine_stats(struct gmmu_pt_stats *st)
{
    st->engine = engine;
    if (!engine)
        return;
    st->eng_packets = paging_io_read32(GMMU_PAGING_PERF_PACKETS);
    st->eng_beats = paging_io_read32(GMMU_PAGING_PERF_BEATS);
    st->eng_busy_cycles = paging_io_read32(GMMU_PAGING_PERF_BUSY_CYCLES);
    st->queue_words = queue.stats.words;
    st->bus_writes = 2 * queue.stats.words;
    st->fences = pager.stats.fences;
    st->syncs = pager.stats.syncs;
    st->eng_errors = pager.stats.failures;
    st->wait_cycles = pager.stats.wait_cycles;
}

static uint32_t cmd_pt_stats(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                             uint32_t cap, uint32_t *resp_len)
{
    (void)req;
    if (req_len != 0)
        return GMMU_STATUS_MALFORMED_LENGTH;
    engine_stats(ctx);
    return mbox_reply(GMMU_STATUS_OK, ctx, sizeof(struct gmmu_pt_stats), resp, cap, resp_len);
}

static const struct mbox_command commands[] = {
    { GMMU_OP_GET_PT_STATS, cmd_pt_stats },
};
const struct mbox_command_set vidmm_hw_commands = MBOX_COMMAND_SET(commands);
