/* SPDX-License-Identifier: Apache-2.0 */
/*
 * newlib start-up: the C runtime entry that _reset (hal/start.S) jumps to
 * with mtvec and sp already set.
 *
 * newlib's own crt0 lives in libgloss, which is built for hosted or
 * semihosted targets (it reads argc from the top of the stack, past the end
 * of our RAM), so the firmware brings this minimal one. The image is loaded
 * whole, so .data is already in place; only .bss needs clearing.
 */
    .section .text.init.enter, "ax"
    .globl  _start
_start:
    /* gp first: the linker relaxes small-data accesses, memset's included,
       to gp-relative ones. Not relaxed itself, or it would use gp. */
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop

    la      a0, __bss_start
    li      a1, 0
    la      a2, __bss_end
    sub     a2, a2, a0
    call    memset

    /* Constructors (the HAL's hal_init) run before main. Destructors are
       not registered: the firmware has none, and exit stays small. */
    call    __libc_init_array

    li      a0, 0           /* argc */
    li      a1, 0           /* argv */
    call    main
    tail    exit
