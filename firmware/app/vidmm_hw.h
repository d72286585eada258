// SPDX-License-Identifier: Apache-2.0
/*
 * VidMm on the SoC: the VRAM segment in DDR, the MMU's invalidation and
 * address-space table registers, and the one vidmm instance the mailbox
 * handlers serve (the firmware registers them with it: commands.c).
 *
 * DDR layout (offsets = VRAM offsets), from the bottom:
 *   [0, segment)                  the VRAM segment (vram_alloc)
 *   [segment, segment + 4 KB)     the fence page (fence_hw.c), the end of
 *                                 what BAR1 reaches
 *   the firmware's area, at the top of DDR (placed by fw_area_place() in
 *   vidmm_hw.c, whole 4 KB pages, the CPU's alone, cached alias):
 *     table counts                the page tables' valid-entry counts, 16
 *                                 bytes per 4 KB page of the DDR, at most
 *                                 VIDMM_HW_VRAM_MAX (1 MiB)
 *     vram_alloc's metadata       sized for VIDMM_HW_VRAM_MAX
 *     vidmm's tables              struct vidmm_tables
 *     VA nodes                    VIDMM_HW_NODES_BYTES, up to the end of DDR
 * The segment is the DDR below the firmware's area and the fence page, at
 * most VIDMM_HW_VRAM_MAX. The DDR self-test has run (and finished with the
 * DDR) before vidmm starts, so it needs nothing reserved.
 */
#ifndef VIDMM_HW_H
#define VIDMM_HW_H

#include <stdbool.h>
#include <stdint.h>

#include <gmmu/mailbox.h>

#include "mbox_service.h"
#include "vidmm.h"

#define VIDMM_HW_VRAM_MAX     (256u << 20)
#define VIDMM_HW_NODES_PER_AS VA_ALLOC_NODES_DEFAULT
#define VIDMM_HW_NODES_BYTES \
    ((uint64_t)VIDMM_MAX_AS * VIDMM_HW_NODES_PER_AS * sizeof(struct va_node))
/* Cycles an invalidation may take before it is reported as stuck. */
#define VIDMM_HW_INV_TIMEOUT 100000u

/* Sets up the segment and vidmm (vidmm_hw_instance()). Touches no MMU
   register. False (with a message) if the DDR is too small or the heap
   cannot hold the state. */
bool vidmm_hw_init(void);

struct vidmm *vidmm_hw_instance(void); /* NULL before a good init */
/* DDR offset of the fence page (4 KB just above the VRAM segment, inside
   the BAR1 aperture), or UINT64_MAX without a segment. */
uint64_t vidmm_hw_fence_page(void);

/* GMMU_UPDATE_QUEUE_OPS operations in the firmware's DDR area, for the
   waiting UPDATE_SUBMIT batches (update_queue); NULL without vidmm. */
struct gmmu_update_op *vidmm_hw_batch_store(void);
/* Whether the paging engine writes the page tables (found at init). */
bool vidmm_hw_engine(void);
/* Page-table words moved and invalidations since boot: GET_PT_STATS's ctx. */
struct gmmu_pt_stats *vidmm_hw_stats(void);
/* GET_PT_STATS. ctx: vidmm_hw_stats(). */
extern const struct mbox_command_set vidmm_hw_commands;

#endif
