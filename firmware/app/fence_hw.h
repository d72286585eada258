// SPDX-License-Identifier: Apache-2.0
/*
 * The fence module on the SoC: the fence page (one fence_record per fence,
 * in DDR just above the VRAM segment, inside the BAR1 aperture so the host
 * reads values there) and EVT_FENCE events on the mailbox's event ring.
 */
#ifndef GMMU_FENCE_HW_H
#define GMMU_FENCE_HW_H

#include "fence.h"
#include "mbox_service.h"
#include "vidmm.h"

/* Takes the fence page at DDR offset page (UINT64_MAX: none), posts events
   to svc, and makes slot 0 vm's paging fence (vm may be NULL). */
void fence_hw_init(struct fences *f, struct mbox_service *svc, struct vidmm *vm, uint64_t page);

#endif
