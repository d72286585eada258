// SPDX-License-Identifier: Apache-2.0
/* The mailbox service bound to the SoC's BAR0 block through the HAL. */
#ifndef GMMU_MBOX_HW_H
#define GMMU_MBOX_HW_H

#include "mbox_service.h"

uint32_t mbox_hw_read(uint32_t offset);
void mbox_hw_write(uint32_t offset, uint32_t value);

#endif
