// SPDX-License-Identifier: Apache-2.0
/* The paging engine's registers and queue window on the SoC: the PAGING
   region, uncached (bit 31 set). */
#ifndef GMMU_PAGING_IO_IMPL_H
#define GMMU_PAGING_IO_IMPL_H

#include <stdint.h>

#include <gmmu/soc.h>

static inline uint32_t paging_io_read32(uint32_t offset)
{
    return *(volatile uint32_t *)(uintptr_t)(GMMU_PAGING_BASE + offset);
}

static inline void paging_io_write32(uint32_t offset, uint32_t value)
{
    *(volatile uint32_t *)(uintptr_t)(GMMU_PAGING_BASE + offset) = value;
}

#endif
