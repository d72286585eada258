// SPDX-License-Identifier: Apache-2.0
/* Boot-test image: loads from a DDR offset beyond the DDR size. The DDR
   answers DECERR; the bridge turns it into a Wishbone ERR, which completes
   the load and raises the BUS_ERROR interrupt with the address recorded:
   the firmware must report it and stop, never hang or carry on. */
#include <stdio.h>
#include <stdint.h>

#include "hal.h"

int main(void)
{
    uint64_t beyond = hal_ddr_size() + 0x100;
    printf("test_ddr_buserr: loading DDR offset 0x%08lx (size 0x%08lx)\n", (unsigned long)beyond,
           (unsigned long)hal_ddr_size());
    uint32_t v = *(volatile uint32_t *)hal_ddr_uncached(beyond);
    printf("test_ddr_buserr: load returned 0x%08lx, no fault was taken\n", (unsigned long)v);
    return 0;
}
