// SPDX-License-Identifier: Apache-2.0
/*
 * picolibc binding: stdout/stderr write to the console, _exit ends the
 * simulation. picolibc's own sbrk serves malloc from __heap_start ..
 * __heap_end (linker script), and fails with ENOMEM past that.
 */
#include <stdio.h>
#include <stdint.h>

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

unsigned long sys_heap_free(void)
{
    extern char __heap_start[], __heap_end[];
    /* picolibc does not expose its break; report the region size. */
    return (unsigned long)(__heap_end - __heap_start);
}
