// SPDX-License-Identifier: Apache-2.0
#include "mbox_hw.h"

#include "hal.h"
#include "mbox_io_impl.h"

MBOX_HOT uint32_t mbox_hw_read(uint32_t offset)
{
    return mbox_io_read32(offset);
}

MBOX_HOT void mbox_hw_write(uint32_t offset, uint32_t value)
{
    mbox_io_write32(offset, value);
}
