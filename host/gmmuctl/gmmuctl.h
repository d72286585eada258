// SPDX-License-Identifier: Apache-2.0
/* gmmuctl: what its command files share. */
#ifndef GMMUCTL_H
#define GMMUCTL_H

#include <stdbool.h>

#include "libgmmu.h"

#define EXIT_USAGE 64
#define MAX_ARGS   8

struct options {
    const char *device;
    const char *command;
    const char *arg;            /* args[0], or NULL */
    const char *args[MAX_ARGS]; /* the words after COMMAND */
    int nargs;
    bool json;
    bool clear;
    bool help;
    bool version;
    int timeout_ms;
    int wait_ms; /* faults --wait; -1: do not wait */
};

typedef int (*gmmuctl_cmd_fn)(struct gmmu_dev *dev, const struct options *o);

/* The sections of gmmuctl --help, in the order it prints them. */
enum gmmuctl_section { SEC_DEVICE, SEC_MEMORY, SEC_ENGINE, SEC_EVENTS, SEC_COUNT };

/* One subcommand. Each command file has a table of them, ended by an entry
   whose name is NULL; --help and `help COMMAND` are printed from them. */
struct gmmuctl_cmd {
    const char *name;
    const char *args;    /* synopsis after the name, "" for none */
    const char *opcode;  /* the mailbox command it sends (OP_* name), or NULL */
    const char *summary; /* one line for --help */
    const char *details; /* more for `help COMMAND`, or NULL */
    enum gmmuctl_section section;
    gmmuctl_cmd_fn run;
};

extern const struct gmmuctl_cmd gmmuctl_core_cmds[];   /* gmmuctl.c */
extern const struct gmmuctl_cmd gmmuctl_vidmm_cmds[];  /* gmmuctl_vidmm.c */
extern const struct gmmuctl_cmd gmmuctl_update_cmds[]; /* gmmuctl_update.c */

/* A usage error of the command being run: its synopsis on stderr; returns
   EXIT_USAGE. */
int usage(void);
/* Prints the error (JSON with --json) and returns the exit status. */
int fail(const struct options *o, const char *what, int rc);
/* A number in C syntax (0x...) with an optional K, M or G suffix; *end
   (if not NULL) points past it. */
unsigned long long parse_number(const char *s, char **end);
/* A whole-word number: false if s is not one. */
bool number_arg(const char *s, uint64_t *out);
/* The value of key=N among the options after the first `from` arguments. */
bool option_number(const struct options *o, int from, const char *key, uint64_t *out);
/* The MAP_FLAG_* the words ro, nx and cc among args[from..] name. */
uint32_t protection_flags(const char *const *args, int nargs, int from);

/* One owner token for every gmmuctl process (bit 31 clear: never a
   library process's, gmmu_fence_owner), so jobs and batches queued by one
   invocation survive the next; a library host's first submit or cancel
   takes over. */
#define GMMUCTL_OWNER 0x676D6374u

#endif /* GMMUCTL_H */
