/* gmmuctl: what its command files share. */
#ifndef GMMUCTL_H
#define GMMUCTL_H

#include <stdbool.h>

#include "libgmmu.h"

#define EXIT_USAGE 64
#define MAX_ARGS 8

struct options {
    const char *device;
    const char *command;
    const char *arg;            /* args[0], or NULL */
    const char *args[MAX_ARGS]; /* the words after COMMAND */
    int nargs;
    bool json;
    bool clear;
    int timeout_ms;
    int wait_ms;                /* faults --wait; -1: do not wait */
};

typedef int (*gmmuctl_cmd_fn)(struct gmmu_dev *dev, const struct options *o);

int usage(void);
/* Prints the error (JSON with --json) and returns the exit status. */
int fail(const struct options *o, const char *what, int rc);
/* A number in C syntax (0x...) with an optional K, M or G suffix; *end
   (if not NULL) points past it. */
unsigned long long parse_number(const char *s, char **end);

/* gmmuctl_vidmm.c: the address-space, mapping, engine and aperture commands. */
extern const char gmmuctl_vidmm_usage[];
gmmuctl_cmd_fn gmmuctl_vidmm_command(const char *name);

#endif /* GMMUCTL_H */
