// SPDX-License-Identifier: Apache-2.0
/*
 * Command lines of the Verilator testbenches (engine_tb, mmu_tb, paging_tb):
 * "--name VALUE" options and "--name" flags, read into the variables a
 * table names, so that every testbench takes numbers (decimal or 0x...)
 * and rejects a bad command line alike.
 */
#ifndef GMMU_TESTS_COMMON_TB_ARGS_H
#define GMMU_TESTS_COMMON_TB_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

enum tb_arg_kind {
    TB_ARG_U64,      /* uint64_t */
    TB_ARG_UNSIGNED, /* unsigned */
    TB_ARG_DOUBLE,   /* double */
    TB_ARG_STRING,   /* const char *, pointing into argv */
    TB_ARG_FLAG,     /* bool, set by the name alone */
};

struct tb_arg {
    const char *name; /* with its dashes: "--seed" */
    enum tb_arg_kind kind;
    void *value;
};

/* Reads argv[first] to argv[argc - 1]; false at an unknown name or a
 * missing value (the caller prints its usage). */
bool tb_parse_args(int argc, char **argv, int first, const struct tb_arg *args, size_t n);

/* Whether the test called name runs when the command line said --only
 * only (NULL: every test runs). */
static inline bool tb_selected(const char *only, const char *name)
{
    return !only || !strcmp(only, name);
}

#endif /* GMMU_TESTS_COMMON_TB_ARGS_H */
