// SPDX-License-Identifier: Apache-2.0
/* The paging engine's registers and queue window on the host: a model of
   the engine (fake_paging.c) that runs packets through the reference model
   tests/paging/ref.c when the producer reads its progress registers. */
#ifndef FAKE_PAGING_IO_IMPL_H
#define FAKE_PAGING_IO_IMPL_H

#include <stdint.h>

uint32_t fake_paging_read32(uint32_t offset);
void fake_paging_write32(uint32_t offset, uint32_t value);

static inline uint32_t paging_io_read32(uint32_t offset)
{
    return fake_paging_read32(offset);
}

static inline void paging_io_write32(uint32_t offset, uint32_t value)
{
    fake_paging_write32(offset, value);
}

#endif
