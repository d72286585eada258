/* GPU MMU firmware: boot, self-test, then serve the host. */
#include <stdio.h>
#include <stdlib.h>

#include "ddr_selftest.h"
#include "hal.h"
#include "version.h"

int main(void)
{
    uint64_t boot_cycles = hal_cycles();
    printf("\ngmmu firmware %s (build %s), VexRiscv rv32im\n", GMMU_FW_VERSION, GMMU_FW_BUILD_ID);
    printf("DDR: %lu MiB behind AXI4\n", (unsigned long)(hal_ddr_size() >> 20));

    struct ddr_selftest_result st;
    uint64_t t0 = hal_cycles();
    ddr_selftest_run(&st);
    uint64_t t1 = hal_cycles();
    if (st.errors) {
        printf("DDR self-test: FAIL, %lu of %lu words wrong; first at 0x%08lx: expected 0x%08lx, read 0x%08lx\n",
               (unsigned long)st.errors, (unsigned long)st.words_checked,
               (unsigned long)st.first_bad_offset, (unsigned long)st.first_bad_expected,
               (unsigned long)st.first_bad_actual);
        return 2;
    }
    printf("DDR self-test: PASS, %lu words checked in %lu cycles\n",
           (unsigned long)st.words_checked, (unsigned long)(t1 - t0));
    printf("boot: %lu cycles to main, %lu cycles total\n", (unsigned long)boot_cycles,
           (unsigned long)hal_cycles());
    return 0;
}
