// SPDX-License-Identifier: Apache-2.0
/*
 * gmmuctl: UPDATE_VA, the batches of operations on reserved ranges
 * (tiled resources) that the firmware runs as one unit: `update` reads a
 * batch from a file or stdin; zero, protect and copy-va are batches of one;
 * update-submit queues a batch that waits for and signals fences
 * (UPDATE_SUBMIT), update-cancel and update-queue manage the queue.
 *
 * A batch has one operation per line ('#' starts a comment):
 *
 *   map     VA SIZE ALLOC [offset=N] [ro] [nx] [cc]
 *   unmap   VA SIZE [zero]
 *   copy    VA SIZE SRC_VA
 *   protect VA SIZE [ro] [nx] [cc]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmmuctl.h"

#define MAX_WORDS 8

/* The help text of update says how many operations a batch holds. */
_Static_assert(GMMU_UPDATE_MAX_OPS == 101, "update's help names 101 operations");

/* A line's words: at most MAX_WORDS, after a '#' none. */
static int split_words(char *line, char **words)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    int n = 0;
    char *save;
    for (char *w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == MAX_WORDS)
            return -1;
        words[n++] = w;
    }
    return n;
}

/* One batch line's words into *op; NULL, or what is wrong with them. */
static const char *parse_op(char **w, int n, struct gmmu_update_op *op)
{
    static const struct {
        const char *name;
        uint32_t op;
        int numbers; /* positional numbers after the name */
    } kinds[] = {
        { "map", GMMU_UPDATE_OP_MAP, 3 },
        { "unmap", GMMU_UPDATE_OP_UNMAP, 2 },
        { "copy", GMMU_UPDATE_OP_COPY, 3 },
        { "protect", GMMU_UPDATE_OP_PROTECT, 2 },
    };
    size_t k = 0;
    while (k < sizeof kinds / sizeof kinds[0] && strcmp(w[0], kinds[k].name))
        k++;
    if (k == sizeof kinds / sizeof kinds[0])
        return "not an operation (map, unmap, copy, protect)";
    uint64_t num[3];
    if (n < 1 + kinds[k].numbers)
        return "too few arguments";
    for (int i = 0; i < kinds[k].numbers; i++)
        if (!number_arg(w[1 + i], &num[i]))
            return "not a number";
    *op = (struct gmmu_update_op){ .op = kinds[k].op, .va = num[0], .size = num[1] };
    int from = 1 + kinds[k].numbers;
    for (int i = from; i < n; i++) {
        bool prot = !strcmp(w[i], "ro") || !strcmp(w[i], "nx") || !strcmp(w[i], "cc");
        if (op->op == GMMU_UPDATE_OP_MAP && !strncmp(w[i], "offset=", 7)) {
            if (!number_arg(w[i] + 7, &op->arg))
                return "offset= is not a number";
        } else if (op->op == GMMU_UPDATE_OP_UNMAP && !strcmp(w[i], "zero")) {
            op->flags |= GMMU_MAP_FLAG_ZERO;
        } else if (!(prot && (op->op == GMMU_UPDATE_OP_MAP || op->op == GMMU_UPDATE_OP_PROTECT))) {
            return "an option this operation does not take";
        }
    }
    op->flags |= protection_flags((const char *const *)w, n, from);
    if (op->op == GMMU_UPDATE_OP_MAP) {
        if (num[2] > UINT32_MAX)
            return "ALLOC is not a handle";
        op->alloc_handle = (uint32_t)num[2];
    } else if (op->op == GMMU_UPDATE_OP_COPY) {
        op->arg = num[2];
    }
    return NULL;
}

static int read_batch(FILE *f, const char *name, struct gmmu_update_op *ops, size_t *count)
{
    char *line = NULL;
    size_t cap = 0;
    unsigned lineno = 0;
    int status = 0;
    *count = 0;
    while (status == 0 && getline(&line, &cap, f) >= 0) {
        lineno++;
        char *w[MAX_WORDS];
        int n = split_words(line, w);
        const char *why = n < 0 ? "too many words" : NULL;
        if (n == 0)
            continue;
        if (!why && *count == GMMU_UPDATE_MAX_OPS)
            why = "more operations than one UPDATE_VA holds";
        if (!why)
            why = parse_op(w, n, &ops[*count]);
        if (why) {
            fprintf(stderr, "gmmuctl: update: %s line %u: %s\n", name, lineno, why);
            status = EXIT_USAGE;
        } else {
            (*count)++;
        }
    }
    free(line);
    if (status == 0 && ferror(f)) {
        fprintf(stderr, "gmmuctl: update: reading %s: %s\n", name, strerror(errno));
        status = EXIT_USAGE;
    }
    if (status == 0 && *count == 0) {
        fprintf(stderr, "gmmuctl: update: no operations in %s\n", name);
        status = EXIT_USAGE;
    }
    return status;
}

static int run_batch(struct gmmu_dev *dev, const struct options *o, const char *what, uint32_t as,
                     const struct gmmu_update_op *ops, size_t count)
{
    int rc = gmmu_update_va(dev, as, ops, count);
    if (rc)
        return fail(o, what, rc);
    if (o->json)
        printf("{\"operations\": %zu}\n", count);
    else if (!strcmp(what, "update"))
        printf("%zu operation(s) done as one batch\n", count);
    return 0;
}

/* The batch of FILE ("-": stdin) into a new array of GMMU_UPDATE_MAX_OPS
   (the caller frees it); 0, or the exit status. */
static int load_batch(const struct options *o, const char *what, const char *path,
                      struct gmmu_update_op **ops, size_t *count)
{
    bool from_stdin = !strcmp(path, "-");
    FILE *f = from_stdin ? stdin : fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gmmuctl: %s: %s: %s\n", what, path, strerror(errno));
        return EXIT_USAGE;
    }
    *ops = calloc(GMMU_UPDATE_MAX_OPS, sizeof **ops);
    *count = 0;
    int status = *ops ? read_batch(f, from_stdin ? "stdin" : path, *ops, count)
                      : fail(o, what, GMMU_E_NO_MEMORY);
    if (!from_stdin)
        fclose(f);
    return status;
}

static int cmd_update(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t as;
    if (o->nargs < 1 || o->nargs > 2 || !number_arg(o->args[0], &as) || as > UINT32_MAX)
        return usage();
    struct gmmu_update_op *ops = NULL;
    size_t count;
    int status = load_batch(o, "update", o->nargs == 2 ? o->args[1] : "-", &ops, &count);
    if (status == 0)
        status = run_batch(dev, o, "update", (uint32_t)as, ops, count);
    free(ops);
    return status;
}

/* UPDATE_SUBMIT: the batch of FILE, waiting and signalling as asked. */
static int cmd_update_submit(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t as, wh = 0, wv = 0, sh = 0, sv = 0;
    if (o->nargs < 2 || !number_arg(o->args[0], &as) || as > UINT32_MAX)
        return usage();
    (void)option_number(o, 2, "wait", &wh);
    (void)option_number(o, 2, "wait-value", &wv);
    (void)option_number(o, 2, "signal", &sh);
    (void)option_number(o, 2, "signal-value", &sv);
    if (wh > UINT32_MAX || sh > UINT32_MAX)
        return usage();
    struct gmmu_update_op *ops = NULL;
    size_t count;
    int status = load_batch(o, "update-submit", o->args[1], &ops, &count);
    if (status == 0 && (!count || count > GMMU_UPDATE_QUEUE_OPS))
        status = fail(o, "update-submit", GMMU_E_INVALID_ARG);
    if (status == 0) {
        struct gmmu_update_submit_req rq = {
            .as_handle = (uint32_t)as,
            .wait_handle = (uint32_t)wh,
            .wait_value = wv,
            .signal_handle = (uint32_t)sh,
            .signal_value = sv,
            .owner = GMMUCTL_OWNER,
        };
        uint32_t batch = 0;
        int rc = gmmu_update_submit(dev, &rq, ops, count, &batch);
        if (rc)
            status = fail(o, "update-submit", rc);
        else if (o->json)
            printf("{\"batch\": %" PRIu32 "}\n", batch);
        else
            printf("batch %" PRIu32 " queued (%zu operation(s))\n", batch, count);
    }
    free(ops);
    return status;
}

static int cmd_update_cancel(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t batch = 0;
    struct gmmu_update_cancel_req rq = { .owner = GMMUCTL_OWNER };
    if (o->nargs != 1)
        return usage();
    if (!strcmp(o->args[0], "all"))
        rq.flags = GMMU_UPDATE_CANCEL_FLAG_ALL;
    else if (!number_arg(o->args[0], &batch) || batch > UINT32_MAX)
        return usage();
    rq.batch = (uint32_t)batch;
    struct gmmu_update_cancel_rsp rsp;
    int rc = gmmu_update_cancel(dev, &rq, &rsp);
    if (rc)
        return fail(o, "update-cancel", rc);
    if (o->json)
        printf("{\"cancelled\": %" PRIu32 ", \"queued\": %" PRIu32 "}\n", rsp.cancelled,
               rsp.queued);
    else
        printf("%" PRIu32 " batch(es) cancelled, %" PRIu32 " waiting\n", rsp.cancelled, rsp.queued);
    return 0;
}

static int cmd_update_queue(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_update_queue_rsp q;
    if (o->nargs != 0)
        return usage();
    int rc = gmmu_update_queue(dev, &q);
    if (rc)
        return fail(o, "update-queue", rc);
    if (o->json)
        printf("{\"queued\": %" PRIu32 ", \"ops\": %" PRIu32 ", \"head\": %" PRIu32
               ", \"head_in_use\": %" PRIu32 ", \"last_batch\": %" PRIu32
               ", \"last_status\": %" PRIu32 ", \"applied\": %" PRIu32 ", \"failed\": %" PRIu32
               ", \"cancelled\": %" PRIu32 "}\n",
               q.queued, q.ops, q.head, q.head_in_use, q.last_batch, q.last_status, q.applied,
               q.failed, q.cancelled);
    else
        printf("waiting %" PRIu32 " batch(es), %" PRIu32 " operation(s); head %" PRIu32 "%s\n"
               "last batch %" PRIu32 ": %s; applied %" PRIu32 ", failed %" PRIu32
               ", cancelled %" PRIu32 "\n",
               q.queued, q.ops, q.head, q.head_in_use ? " (waits for a job using its ranges)" : "",
               q.last_batch, q.last_status ? gmmu_strerror((int)q.last_status) : "applied",
               q.applied, q.failed, q.cancelled);
    return 0;
}

/* A batch of one: AS, then the operation's numbers, then its options. */
static int one_op(struct gmmu_dev *dev, const struct options *o, const char *what, const char *kind)
{
    uint64_t as;
    if (o->nargs < 1 || !number_arg(o->args[0], &as) || as > UINT32_MAX)
        return usage();
    char *w[MAX_WORDS] = { (char *)kind };
    int n = 1;
    for (int i = 1; i < o->nargs && n < MAX_WORDS; i++)
        w[n++] = (char *)o->args[i];
    struct gmmu_update_op op;
    if (parse_op(w, n, &op))
        return usage();
    return run_batch(dev, o, what, (uint32_t)as, &op, 1);
}

/* UNMAP to Zero: the range reads as zeros and drops writes. */
static int cmd_zero(struct gmmu_dev *dev, const struct options *o)
{
    if (o->nargs != 3)
        return usage();
    const char *args[] = { o->args[0], o->args[1], o->args[2], "zero" };
    struct options z = *o;
    memcpy(z.args, args, sizeof args);
    z.nargs = 4;
    return one_op(dev, &z, "zero", "unmap");
}

static int cmd_protect(struct gmmu_dev *dev, const struct options *o)
{
    return one_op(dev, o, "protect", "protect");
}

/* copy-va AS DST SRC SIZE: in batch order, copy VA SIZE SRC_VA. */
static int cmd_copy_va(struct gmmu_dev *dev, const struct options *o)
{
    if (o->nargs != 4)
        return usage();
    struct options c = *o;
    c.args[2] = o->args[3];
    c.args[3] = o->args[2];
    return one_op(dev, &c, "copy-va", "copy");
}

const struct gmmuctl_cmd gmmuctl_update_cmds[] = {
    { "update", "AS [FILE|-]", "UPDATE_VA",
      "a batch of map/unmap/copy/protect operations, run as one unit",
      "The batch comes from FILE, or from stdin when FILE is - or missing: one operation\n"
      "per line, '#' starts a comment, numbers as everywhere:\n"
      "  map     VA SIZE ALLOC [offset=N] [ro] [nx] [cc]   tile-pool pages of ALLOC\n"
      "  unmap   VA SIZE [zero]     invalid again, or Zero (reads 0, writes dropped)\n"
      "  copy    VA SIZE SRC_VA     the mappings of [SRC_VA, SRC_VA+SIZE) to VA\n"
      "  protect VA SIZE [ro] [nx] [cc]   set the protection to exactly these\n"
      "One UPDATE_VA holds at most 101 operations; the batch runs entirely or not at all.\n",
      SEC_MEMORY, cmd_update },
    { "zero", "AS VA SIZE", "UPDATE_VA", "UNMAP to Zero: reads give 0, writes are dropped", NULL,
      SEC_MEMORY, cmd_zero },
    { "protect", "AS VA SIZE [ro] [nx] [cc]", "UPDATE_VA",
      "PROTECT: set the range's ReadOnly/NoExecute/CacheCoherent", NULL, SEC_MEMORY, cmd_protect },
    { "copy-va", "AS DST_VA SRC_VA SIZE", "UPDATE_VA", "COPY: give DST_VA the mappings of SRC_VA",
      NULL, SEC_MEMORY, cmd_copy_va },
    { "update-submit", "AS FILE|- [wait=FENCE] [wait-value=N] [signal=FENCE] [signal-value=N]",
      "UPDATE_SUBMIT",
      "queue a batch that waits for a fence value and signals one; returns at once",
      "The batch is read as for update (at most 96 operations). The device applies\n"
      "waiting batches in order, each once FENCE is at wait-value and no submitted\n"
      "engine job still needs a range it changes, then raises the signal fence.\n",
      SEC_MEMORY, cmd_update_submit },
    { "update-cancel", "BATCH|all", "UPDATE_CANCEL",
      "cancel a waiting batch, or all of them (never applied, nothing signalled)", NULL, SEC_MEMORY,
      cmd_update_cancel },
    { "update-queue", "", "UPDATE_QUEUE", "the waiting batches and the last one that ended", NULL,
      SEC_MEMORY, cmd_update_queue },
    { NULL, NULL, NULL, NULL, NULL, SEC_DEVICE, NULL },
};
