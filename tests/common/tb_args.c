// SPDX-License-Identifier: Apache-2.0
#include "tb_args.h"

#include <stdint.h>
#include <stdlib.h>

static const struct tb_arg *find(const char *name, const struct tb_arg *args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(args[i].name, name))
            return &args[i];
    return NULL;
}

bool tb_parse_args(int argc, char **argv, int first, const struct tb_arg *args, size_t n)
{
    for (int i = first; i < argc; i++) {
        const struct tb_arg *a = find(argv[i], args, n);
        if (!a)
            return false;
        if (a->kind == TB_ARG_FLAG) {
            *(bool *)a->value = true;
            continue;
        }
        if (i + 1 >= argc)
            return false;
        const char *v = argv[++i];
        switch (a->kind) {
        case TB_ARG_U64:
            *(uint64_t *)a->value = strtoull(v, NULL, 0);
            break;
        case TB_ARG_UNSIGNED:
            *(unsigned *)a->value = (unsigned)strtoul(v, NULL, 0);
            break;
        case TB_ARG_DOUBLE:
            *(double *)a->value = strtod(v, NULL);
            break;
        case TB_ARG_STRING:
            *(const char **)a->value = v;
            break;
        case TB_ARG_FLAG:
            break;
        }
    }
    return true;
}
