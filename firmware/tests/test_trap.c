// SPDX-License-Identifier: Apache-2.0
/* Boot-test image: executes an illegal instruction. The trap handler must
   report cause 2 and this PC, then stop the simulation with a failure code. */
#include <stdio.h>

int main(void)
{
    printf("test_trap: executing an illegal instruction\n");
    __asm__ volatile(".globl illegal_insn_pc\nillegal_insn_pc:\n.word 0x00000000");
    printf("test_trap: still running, the trap was not taken\n");
    return 0;
}
