// SPDX-License-Identifier: Apache-2.0
/* The mailbox service's BAR0 access on the SoC: the MBOX region, uncached. */
#ifndef GMMU_MBOX_IO_IMPL_H
#define GMMU_MBOX_IO_IMPL_H

#include <stdint.h>

#include <gmmu/soc.h>

static inline uint32_t mbox_io_read32(uint32_t offset)
{
    return *(volatile uint32_t *)(uintptr_t)(GMMU_MBOX_BASE + offset);
}

static inline void mbox_io_write32(uint32_t offset, uint32_t value)
{
    *(volatile uint32_t *)(uintptr_t)(GMMU_MBOX_BASE + offset) = value;
}

static inline void mbox_io_read_run(uint32_t offset, uint32_t *dst, uint32_t count)
{
    const volatile uint32_t *src = (const volatile uint32_t *)(uintptr_t)(GMMU_MBOX_BASE + offset);
    for (uint32_t i = 0; i < count; i++)
        dst[i] = src[i];
}

static inline void mbox_io_write_run(uint32_t offset, const uint32_t *src, uint32_t count)
{
    volatile uint32_t *dst = (volatile uint32_t *)(uintptr_t)(GMMU_MBOX_BASE + offset);
    for (uint32_t i = 0; i < count; i++)
        dst[i] = src[i];
}

#endif
