// SPDX-License-Identifier: Apache-2.0
/*
 * VidMm's platform hooks on the SoC: VRAM through the uncached DDR alias,
 * invalidation and the address-space table through the MMU registers.
 */
#include "vidmm_hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmmu/mmu_regs.h>

#include "hal.h"

#define VA_LIMIT (UINT64_C(1) << GMMU_VA_BITS_DEFAULT)
#define VALID_LO ((uint32_t)GMMU_PTE_VALID)

/*
 * The instance and vram_alloc's metadata (about 27 KB and 25 KB for a
 * 256 MiB segment) come from the heap once at boot, sized for the segment
 * there is. As statics they would put __bss_size next to the global
 * pointer, where binutils 2.40 relaxes crt0's load of that absolute symbol
 * to a gp-relative one that no longer fits after relaxation.
 */
static struct vidmm *vm;
static struct vram_alloc vram;
static struct gmmu_pt_stats stats;

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

static const struct vidmm_hw hooks = {
    .read64 = hw_read64,
    .write64 = hw_write64,
    .write_run = hw_write_run,
    .invalidate = hw_invalidate,
    .set_as = hw_set_as,
};

/* ------------------------------------------------------------ init */

/* The DDR below the firmware's area, at most VIDMM_HW_VRAM_MAX; 0 if none. */
static uint64_t segment_bytes(uint64_t ddr)
{
    uint64_t segment;

    if (ddr <= VIDMM_HW_DDR_AREA)
        return 0;
    segment = ddr - VIDMM_HW_DDR_AREA;
    if (segment > VIDMM_HW_VRAM_MAX)
        segment = VIDMM_HW_VRAM_MAX;
    return segment & ~(uint64_t)(VRAM_PAGE_SIZE - 1);
}

bool vidmm_hw_init(void)
{
    uint64_t ddr = hal_ddr_size(), segment = segment_bytes(ddr);
    size_t meta_bytes = vram_alloc_metadata_bytes(segment);
    void *meta = meta_bytes ? malloc(meta_bytes) : NULL;
    struct vidmm_config cfg;

    vm = malloc(sizeof(*vm));
    if (!meta || !vm || vram_alloc_init(&vram, meta, meta_bytes, segment) != VRAM_OK) {
        printf("vidmm: no room for a %lu KiB VRAM segment (%lu + %lu bytes of RAM)\n",
               (unsigned long)(segment >> 10), (unsigned long)sizeof(*vm),
               (unsigned long)meta_bytes);
        free(meta);
        free(vm);
        vm = NULL;
        return false;
    }
    cfg = (struct vidmm_config){
        .hw = &hooks,
        .vram = &vram,
        .va_nodes = (struct va_node *)hal_ddr_uncached(ddr - VIDMM_HW_DDR_AREA),
        .va_nodes_per_as = VIDMM_HW_NODES_PER_AS,
        .hw_asids = GMMU_ASIDS,
    };
    if (vidmm_init(vm, &cfg) != GMMU_STATUS_OK)
        return false;
    printf("vidmm: VRAM segment %lu KiB; %u address spaces on %u hardware ids, "
           "%u allocations; %lu + %lu bytes of RAM\n",
           (unsigned long)(segment >> 10), VIDMM_MAX_AS, GMMU_ASIDS, VIDMM_MAX_ALLOCS,
           (unsigned long)sizeof(*vm), (unsigned long)meta_bytes);
    return true;
}

struct vidmm *vidmm_hw_instance(void)
{
    return vm;
}

struct gmmu_pt_stats *vidmm_hw_stats(void)
{
    return &stats;
}

static uint32_t cmd_pt_stats(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                             uint32_t cap, uint32_t *resp_len)
{
    (void)req;
    if (req_len != 0)
        return GMMU_STATUS_MALFORMED_LENGTH;
    return mbox_reply(GMMU_STATUS_OK, ctx, sizeof(struct gmmu_pt_stats), resp, cap, resp_len);
}

static const struct mbox_command commands[] = {
    { GMMU_OP_GET_PT_STATS, cmd_pt_stats },
};
const struct mbox_command_set vidmm_hw_commands = MBOX_COMMAND_SET(commands);
