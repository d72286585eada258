// SPDX-License-Identifier: Apache-2.0
/* BAR0 as an array, for unit tests of the mailbox service on the host.
   Writes to HOST_IRQ_SET are recorded (the hardware ORs them into
   HOST_IRQ_STATUS). */
#ifndef FAKE_MBOX_IO_IMPL_H
#define FAKE_MBOX_IO_IMPL_H

#include <stdint.h>

#include <gmmu/mailbox.h>

extern uint32_t fake_bar0[GMMU_BAR0_BYTES / 4];

static inline uint32_t mbox_io_read32(uint32_t offset)
{
    return fake_bar0[(offset % GMMU_BAR0_BYTES) / 4];
}

static inline void mbox_io_write32(uint32_t offset, uint32_t value)
{
    if (offset == GMMU_MBOX_HOST_IRQ_SET)
        fake_bar0[GMMU_MBOX_HOST_IRQ_STATUS / 4] |= value;
    else
        fake_bar0[(offset % GMMU_BAR0_BYTES) / 4] = value;
}

static inline void mbox_io_read_run(uint32_t offset, uint32_t *dst, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        dst[i] = mbox_io_read32(offset + 4 * i);
}

static inline void mbox_io_write_run(uint32_t offset, const uint32_t *src, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        mbox_io_write32(offset + 4 * i, src[i]);
}

#endif
