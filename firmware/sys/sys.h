// SPDX-License-Identifier: Apache-2.0
/*
 * The firmware's system layer: what the C library needs from the platform.
 * Exactly one sys_<libc>.c is linked (LIBC=picolibc or newlib); the rest of
 * the firmware only uses standard C (printf, exit, malloc) and this header.
 */
#ifndef GMMU_SYS_H
#define GMMU_SYS_H

/* Bytes of heap still available to malloc, for the boot report. */
unsigned long sys_heap_free(void);

#endif /* GMMU_SYS_H */
