// SPDX-License-Identifier: Apache-2.0
/*
 * picolibc binding: stdout/stderr write to the console, _exit ends the
 * simulation. picolibc's own sbrk serves malloc from __heap_start ..
 * __heap_end (linker script), and fails with ENOMEM past that.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hal.h"
#include "sys.h"

static int console_put(char c, FILE *file)
{
    (void)file;
    hal_console_putc(c);
    return (unsigned char)c;
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &console;
FILE *const stderr = &console;

_Noreturn void _exit(int code)
{
    hal_exit((uint32_t)code);
}

/* picolibc's sbrk (which malloc grows the heap with) hands out
   __heap_start .. __heap_end; sbrk(0) is its break. unistd.h declares it
   only outside strict C11. */
void *sbrk(ptrdiff_t increment);

unsigned long sys_heap_free(void)
{
    extern char __heap_end[];

    return (unsigned long)(__heap_end - (char *)sbrk(0));
}
