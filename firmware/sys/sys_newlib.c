// SPDX-License-Identifier: Apache-2.0
/*
 * newlib binding: the system calls newlib is built to expect from the
 * platform (it is configured without syscalls of its own). stdout and
 * stderr write to the console, _exit ends the simulation, and _sbrk hands
 * malloc the region __heap_start .. __heap_end from the linker script,
 * which stops short of the stack. Files do not exist: every other call
 * fails the way POSIX says a bad descriptor does.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hal.h"
#include "sys.h"

extern char __heap_start[], __heap_end[];

static char *heap_break = __heap_start;

static int is_console(int fd)
{
    return fd == STDIN_FILENO || fd == STDOUT_FILENO || fd == STDERR_FILENO;
}

/* Grows (or shrinks) the heap; never past __heap_end, so malloc gets NULL
   and ENOMEM instead of memory that the stack is using. */
void *_sbrk(ptrdiff_t increment)
{
    char *old_break = heap_break;
    if (increment > __heap_end - old_break || increment < __heap_start - old_break) {
        errno = ENOMEM;
        return (void *)-1;
    }
    heap_break = old_break + increment;
    return old_break;
}

unsigned long sys_heap_free(void)
{
    return (unsigned long)(__heap_end - heap_break);
}

int _write(int fd, const void *buf, size_t count)
{
    if (fd != STDOUT_FILENO && fd != STDERR_FILENO) {
        errno = EBADF;
        return -1;
    }
    const char *bytes = buf;
    for (size_t i = 0; i < count; i++)
        hal_console_putc(bytes[i]);
    return (int)count;
}

/* The console has no input. */
int _read(int fd, void *buf, size_t count)
{
    (void)buf;
    (void)count;
    if (fd != STDIN_FILENO) {
        errno = EBADF;
        return -1;
    }
    return 0;
}

/* A character device makes newlib line-buffer stdout, so a line shows as
   soon as it is complete. */
int _fstat(int fd, struct stat *st)
{
    if (!is_console(fd)) {
        errno = EBADF;
        return -1;
    }
    *st = (struct stat){ .st_mode = S_IFCHR };
    return 0;
}

int _isatty(int fd)
{
    if (!is_console(fd)) {
        errno = EBADF;
        return 0;
    }
    return 1;
}

int _close(int fd)
{
    (void)fd;
    errno = EBADF;
    return -1;
}

off_t _lseek(int fd, off_t offset, int whence)
{
    (void)offset;
    (void)whence;
    errno = is_console(fd) ? ESPIPE : EBADF;
    return -1;
}

pid_t _getpid(void)
{
    return 1;
}

/* The firmware is the only process and installs no signal handlers, so a
   signal to it ends it, with the shell's code for death by a signal
   (abort() exits with 134). */
int _kill(pid_t pid, int sig)
{
    if (pid != _getpid()) {
        errno = ESRCH;
        return -1;
    }
    if (sig == 0)
        return 0;
    hal_exit(128u + (uint32_t)sig);
}

_Noreturn void _exit(int code)
{
    hal_exit((uint32_t)code);
}
