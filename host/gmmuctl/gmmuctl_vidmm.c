// SPDX-License-Identifier: Apache-2.0
/*
 * gmmuctl: address spaces, mappings, GPU engines and the VRAM aperture, so
 * that every step of `make demo` can be done by hand against `make
 * sim-server` (docs/getting-started.md).
 *
 * Positional arguments come first; options are words (ro, nx, cc) or
 * key=value pairs (va=0x200000, pages=4k,64k).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmmu/engine_regs.h>
#include <gmmu/pte.h>

#include "gmmuctl.h"

unsigned long long parse_number(const char *s, char **end)
{
    char *e;
    unsigned long long v = strtoull(s, &e, 0);
    switch (*e) {
    case 'K':
    case 'k':
        v <<= 10;
        e++;
        break;
    case 'M':
    case 'm':
        v <<= 20;
        e++;
        break;
    case 'G':
    case 'g':
        v <<= 30;
        e++;
        break;
    default:
        break;
    }
    if (end)
        *end = e;
    return v;
}

bool number_arg(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s)
        return false;
    *out = parse_number(s, &end);
    return *end == '\0';
}

/* The positional arguments: each must be a number. */
static bool positional(const struct options *o, int count, uint64_t *out)
{
    if (o->nargs < count)
        return false;
    for (int i = 0; i < count; i++)
        if (!number_arg(o->args[i], &out[i]))
            return false;
    return true;
}

bool option_number(const struct options *o, int from, const char *key, uint64_t *out)
{
    size_t n = strlen(key);
    for (int i = from; i < o->nargs; i++)
        if (!strncmp(o->args[i], key, n) && o->args[i][n] == '=')
            return number_arg(o->args[i] + n + 1, out);
    return false;
}

uint32_t protection_flags(const char *const *args, int nargs, int from)
{
    uint32_t flags = 0;
    for (int i = from; i < nargs; i++) {
        if (!strcmp(args[i], "ro"))
            flags |= GMMU_MAP_FLAG_READ_ONLY;
        else if (!strcmp(args[i], "nx"))
            flags |= GMMU_MAP_FLAG_NO_EXECUTE;
        else if (!strcmp(args[i], "cc"))
            flags |= GMMU_MAP_FLAG_CACHE_COHERENT;
    }
    return flags;
}

/* pages=4k,64k,2m,1g -> the page_sizes bit mask of map_req. */
static bool page_sizes(const struct options *o, int from, uint32_t *mask)
{
    static const char *const names[] = { "4k", "64k", "2m", "1g" };
    *mask = 0;
    for (int i = from; i < o->nargs; i++) {
        if (strncmp(o->args[i], "pages=", 6))
            continue;
        char list[64];
        snprintf(list, sizeof(list), "%s", o->args[i] + 6);
        for (char *w = strtok(list, ","); w; w = strtok(NULL, ",")) {
            size_t k = 0;
            while (k < 4 && strcmp(w, names[k]))
                k++;
            if (k == 4)
                return false;
            *mask |= 1u << k;
        }
    }
    return true;
}

static int cmd_as_create(struct gmmu_dev *dev, const struct options *o)
{
    uint32_t as, asid;
    int rc = gmmu_create_as(dev, &as, &asid);
    if (rc)
        return fail(o, "as-create", rc);
    if (o->json)
        printf("{\"as\": %" PRIu32 ", \"asid\": %" PRIu32 "}\n", as, asid);
    else
        printf("address space 0x%" PRIx32 " (hardware ASID %" PRIu32 ")\n", as, asid);
    return 0;
}

static int cmd_as_destroy(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t as;
    if (!positional(o, 1, &as))
        return usage();
    int rc = gmmu_destroy_as(dev, (uint32_t)as);
    return rc ? fail(o, "as-destroy", rc) : 0;
}

static void print_va(const struct options *o, const char *what, uint64_t va)
{
    if (o->json)
        printf("{\"va\": %" PRIu64 "}\n", va);
    else
        printf("%s at VA 0x%" PRIx64 "\n", what, va);
}

static int cmd_map(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t a[3];
    struct gmmu_map_req req = { 0 };
    if (!positional(o, 3, a) || !page_sizes(o, 3, &req.page_sizes))
        return usage();
    req.as_handle = (uint32_t)a[0];
    req.alloc_handle = (uint32_t)a[1];
    req.size = a[2];
    (void)option_number(o, 3, "offset", &req.offset);
    if (option_number(o, 3, "va", &req.va))
        req.flags |= GMMU_MAP_FLAG_FIXED_VA;
    req.flags |= protection_flags(o->args, o->nargs, 3);
    uint64_t va;
    int rc = gmmu_map_va(dev, &req, &va);
    if (rc)
        return fail(o, "map", rc);
    print_va(o, "mapped", va);
    return 0;
}

static int cmd_unmap(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t a[3];
    uint32_t flags = 0;
    if (!positional(o, 3, a))
        return usage();
    for (int i = 3; i < o->nargs; i++)
        if (!strcmp(o->args[i], "under-jobs"))
            flags |= GMMU_UNMAP_FLAG_UNDER_JOBS;
    int rc = gmmu_unmap_va_flags(dev, (uint32_t)a[0], a[1], a[2], flags, NULL);
    return rc ? fail(o, "unmap", rc) : 0;
}

static int cmd_reserve(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t a[2], va = 0, out;
    if (!positional(o, 2, a))
        return usage();
    uint32_t flags = option_number(o, 2, "va", &va) ? GMMU_MAP_FLAG_FIXED_VA : 0;
    int rc = gmmu_reserve_va(dev, (uint32_t)a[0], flags, va, a[1], &out);
    if (rc)
        return fail(o, "reserve", rc);
    print_va(o, "reserved", out);
    return 0;
}

static int cmd_query(struct gmmu_dev *dev, const struct options *o)
{
    static const char *const states[] = { "invalid", "zero", "mapped" };
    uint64_t a[2];
    if (!positional(o, 2, a))
        return usage();
    struct gmmu_query_rsp q;
    int rc = gmmu_query_va(dev, (uint32_t)a[0], a[1], &q);
    if (rc)
        return fail(o, "query", rc);
    const char *state = q.state < 3 ? states[q.state] : "?";
    if (o->json) {
        printf("{\"state\": \"%s\", \"segment\": %" PRIu32 ", \"pa\": %" PRIu64
               ", \"page_shift\": %" PRIu32 ", \"flags\": %" PRIu32 "}\n",
               state, q.segment, q.pa, q.page_shift, q.flags);
        return 0;
    }
    printf("VA 0x%" PRIx64 ": %s", a[1], state);
    if (q.state == 2)
        printf(", %s PA 0x%" PRIx64 ", %" PRIu64 " KiB page%s%s%s", q.segment ? "VRAM" : "system",
               q.pa, ((uint64_t)1 << q.page_shift) >> 10,
               (q.flags & GMMU_MAP_FLAG_READ_ONLY) ? ", read-only" : "",
               (q.flags & GMMU_MAP_FLAG_NO_EXECUTE) ? ", no-execute" : "",
               (q.flags & GMMU_MAP_FLAG_CACHE_COHERENT) ? ", cache-coherent" : "");
    printf("\n");
    return 0;
}

/* fill, copy, checksum or fetch: the ENGINE_OP names of engine.toml, any case. */
static bool engine_op(const char *name, uint32_t *op)
{
    for (uint32_t i = 0; gmmu_engine_op_name(i); i++)
        if (!strcasecmp(name, gmmu_engine_op_name(i))) {
            *op = i;
            return true;
        }
    return false;
}

static void print_engine_rsp(const struct options *o, const struct gmmu_engine_rsp *r)
{
    unsigned reason =
        (r->engine_status & GMMU_ENGINE_STATUS_REASON) >> GMMU_ENGINE_STATUS_REASON_LSB;
    bool faulted = r->engine_status & GMMU_ENGINE_STATUS_FAULT;
    if (o->json) {
        printf("{\"status\": %" PRIu32 ", \"fault\": %s, \"reason\": %u, \"fault_va\": %" PRIu64
               ", \"bytes_done\": %" PRIu32 ", \"cycles\": %" PRIu32 ", \"result\": %" PRIu64
               ", \"result2\": %" PRIu64 "}\n",
               r->engine_status, faulted ? "true" : "false", reason, r->fault_va, r->bytes_done,
               r->cycles, r->result, r->result2);
        return;
    }
    printf("%" PRIu32 " bytes in %" PRIu32 " cycles", r->bytes_done, r->cycles);
    if (faulted) {
        const char *name = gmmu_fault_name(reason);
        printf(", FAULT %s at VA 0x%" PRIx64, name ? name : "?", r->fault_va);
    }
    printf(", checksum 0x%016" PRIx64 " 0x%016" PRIx64 "\n", r->result, r->result2);
}

/* ENGINE fill|copy|checksum|fetch AS len=N [dst=VA] [src=VA] [pattern=N] [phys]:
   run and start take the same request. With phys, dst and src are VRAM
   offsets (ENGINE_OP_FLAG_PHYSICAL) and AS must be 0. */
static bool engine_req_args(const struct options *o, struct gmmu_engine_req *req)
{
    uint64_t engine, as, len;
    if (o->nargs < 3 || !number_arg(o->args[0], &engine) || !engine_op(o->args[1], &req->op) ||
        !number_arg(o->args[2], &as) || !option_number(o, 3, "len", &len) || len > UINT32_MAX ||
        engine > UINT32_MAX)
        return false;
    req->engine = (uint32_t)engine;
    req->as_handle = (uint32_t)as;
    req->length = (uint32_t)len;
    (void)option_number(o, 3, "dst", &req->dst_va);
    (void)option_number(o, 3, "src", &req->src_va);
    (void)option_number(o, 3, "pattern", &req->pattern);
    for (int i = 3; i < o->nargs; i++)
        if (!strcmp(o->args[i], "phys"))
            req->op |= GMMU_ENGINE_OP_FLAG_PHYSICAL;
    return true;
}

static int cmd_run(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_engine_req req = { 0 };
    if (!engine_req_args(o, &req))
        return usage();
    struct gmmu_engine_rsp rsp;
    int rc = gmmu_engine_run(dev, &req, &rsp);
    if (rc)
        return fail(o, "run", rc);
    print_engine_rsp(o, &rsp);
    return (rsp.engine_status & GMMU_ENGINE_STATUS_FAULT) ? 1 : 0;
}

static int cmd_start(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_engine_req req = { 0 };
    uint32_t asid = 0;
    if (!engine_req_args(o, &req))
        return usage();
    int rc = gmmu_engine_start(dev, &req, &asid);
    if (rc)
        return fail(o, "start", rc);
    if (o->json)
        printf("{\"asid\": %" PRIu32 "}\n", asid);
    else
        printf("engine %" PRIu32 " started, ASID %" PRIu32 "\n", req.engine, asid);
    return 0;
}

static int cmd_engine_status(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t engine;
    uint32_t flags = 0;
    if (!positional(o, 1, &engine) || engine > UINT32_MAX)
        return usage();
    for (int i = 1; i < o->nargs; i++) {
        if (strcmp(o->args[i], "abort") != 0)
            return usage();
        flags |= GMMU_ENGINE_STATUS_FLAG_ABORT;
    }
    struct gmmu_engine_rsp rsp;
    int rc = gmmu_engine_status(dev, (uint32_t)engine, flags, &rsp);
    if (rc)
        return fail(o, "engine-status", rc);
    if (!o->json)
        printf("%s: ", (rsp.engine_status & GMMU_ENGINE_STATUS_BUSY) ? "running" : "stopped");
    print_engine_rsp(o, &rsp);
    return 0;
}

/* [wait=FENCE wait-value=N] [signal=FENCE signal-value=N] after the job. */
static int cmd_submit(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_engine_req req = { 0 };
    uint64_t wh = 0, wv = 0, sh = 0, sv = 0;
    if (!engine_req_args(o, &req))
        return usage();
    (void)option_number(o, 3, "wait", &wh);
    (void)option_number(o, 3, "wait-value", &wv);
    (void)option_number(o, 3, "signal", &sh);
    (void)option_number(o, 3, "signal-value", &sv);
    if (wh > UINT32_MAX || sh > UINT32_MAX)
        return usage();
    struct gmmu_engine_submit_req rq = {
        .engine = req.engine,
        .op = req.op,
        .as_handle = req.as_handle,
        .length = req.length,
        .dst_va = req.dst_va,
        .src_va = req.src_va,
        .pattern = req.pattern,
        .wait_handle = (uint32_t)wh,
        .wait_value = wv,
        .signal_handle = (uint32_t)sh,
        .signal_value = sv,
        .owner = GMMUCTL_OWNER,
    };
    uint32_t job = 0;
    int rc = gmmu_engine_submit(dev, &rq, &job);
    if (rc)
        return fail(o, "submit", rc);
    if (o->json)
        printf("{\"job\": %" PRIu32 "}\n", job);
    else
        printf("job %" PRIu32 " queued on engine %" PRIu32 "\n", job, req.engine);
    return 0;
}

static int cmd_cancel(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t engine, job = 0;
    struct gmmu_engine_cancel_req rq = { .owner = GMMUCTL_OWNER };
    if (o->nargs != 2 || !number_arg(o->args[0], &engine) || engine > UINT32_MAX)
        return usage();
    if (!strcmp(o->args[1], "all"))
        rq.flags = GMMU_ENGINE_CANCEL_FLAG_ALL;
    else if (!number_arg(o->args[1], &job) || job == 0 || job > UINT32_MAX)
        return usage();
    rq.engine = (uint32_t)engine;
    rq.job = (uint32_t)job;
    struct gmmu_engine_cancel_rsp rsp;
    int rc = gmmu_engine_cancel(dev, &rq, &rsp);
    if (rc)
        return fail(o, "cancel", rc);
    if (o->json)
        printf("{\"cancelled\": %" PRIu32 ", \"aborted\": %" PRIu32 "}\n", rsp.cancelled,
               rsp.aborted);
    else
        printf("%" PRIu32 " queued job(s) cancelled%s\n", rsp.cancelled,
               rsp.aborted ? ", the running job aborted" : "");
    return 0;
}

static int cmd_queue(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t engine;
    if (!positional(o, 1, &engine) || engine > UINT32_MAX)
        return usage();
    struct gmmu_engine_queue_rsp q;
    int rc = gmmu_engine_queue(dev, (uint32_t)engine, &q);
    if (rc)
        return fail(o, "queue", rc);
    struct gmmu_engine_rsp last = { .engine_status = q.engine_status,
                                    .bytes_done = q.bytes_done,
                                    .fault_va = q.fault_va,
                                    .result = q.result,
                                    .result2 = q.result2,
                                    .cycles = q.cycles,
                                    .asid = q.asid };
    if (o->json) {
        printf("{\"queued\": %" PRIu32 ", \"running\": %" PRIu32 ", \"last_job\": %" PRIu32
               ", \"last_status\": %" PRIu32 ", \"finished\": %" PRIu32 ", \"cancelled\": %" PRIu32
               ", \"last\": ",
               q.queued, q.running, q.last_job, q.last_status, q.finished, q.cancelled);
        print_engine_rsp(o, &last); /* ends the line: the object closes below */
        printf("}\n");
        return 0;
    }
    printf("%" PRIu32 " job(s) queued, running: ", q.queued);
    if (q.running)
        printf("job %" PRIu32 "\n", q.running);
    else
        printf("none\n");
    printf("%" PRIu32 " ended, %" PRIu32 " cancelled since boot\n", q.finished, q.cancelled);
    if (q.last_job) {
        printf("last job %" PRIu32 " (%s): ", q.last_job,
               q.last_status ? gmmu_strerror((int)q.last_status) : "ran");
        print_engine_rsp(o, &last);
    }
    return 0;
}

#define MAX_DUMP (64 * 1024)

static int cmd_read(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t a[2];
    if (!positional(o, 2, a) || a[1] == 0 || a[1] > MAX_DUMP || a[1] % 4)
        return usage();
    uint32_t *words = malloc(a[1]);
    if (!words)
        return fail(o, "read", GMMU_E_NO_MEMORY);
    int rc = gmmu_vram_read(dev, a[0], words, a[1]);
    if (rc) {
        free(words);
        return fail(o, "read", rc);
    }
    for (uint64_t i = 0; i < a[1] / 4; i++) {
        if (i % 4 == 0)
            printf("%s%010" PRIx64 ":", i ? "\n" : "", a[0] + 4 * i);
        printf(" %08" PRIx32, words[i]);
    }
    printf("\n");
    free(words);
    return 0;
}

static int cmd_write(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t off, v;
    uint32_t words[MAX_ARGS];
    if (o->nargs < 2 || !number_arg(o->args[0], &off))
        return usage();
    for (int i = 1; i < o->nargs; i++) {
        if (!number_arg(o->args[i], &v) || v > UINT32_MAX)
            return usage();
        words[i - 1] = (uint32_t)v;
    }
    int rc = gmmu_vram_write(dev, off, words, 4u * (unsigned)(o->nargs - 1));
    return rc ? fail(o, "write", rc) : 0;
}

const struct gmmuctl_cmd gmmuctl_vidmm_cmds[] = {
    { "as-create", "", "CREATE_AS", "create a GPU address space; prints its handle and ASID", NULL,
      SEC_MEMORY, cmd_as_create },
    { "as-destroy", "AS", "DESTROY_AS", "destroy an address space and all its mappings", NULL,
      SEC_MEMORY, cmd_as_destroy },
    { "map", "AS ALLOC SIZE [offset=N] [va=N] [ro] [nx] [cc] [pages=4k,64k,2m,1g]", "MAP_VA",
      "map SIZE bytes of allocation ALLOC from offset N; prints the VA",
      "va=N maps at that VA (FIXED_VA); otherwise the firmware picks one aligned to the\n"
      "largest usable page. ro, nx and cc set ReadOnly, NoExecute and CacheCoherent;\n"
      "pages= limits the page sizes it may use.\n",
      SEC_MEMORY, cmd_map },
    { "unmap", "AS VA SIZE [under-jobs]", "UNMAP_VA", "unmap a whole mapping or reserved range",
      "BUSY while a submitted engine job of AS still needs part of it (and does not wait\n"
      "for the paging fence); under-jobs unmaps anyway, and the job faults on it.\n",
      SEC_MEMORY, cmd_unmap },
    { "reserve", "AS SIZE [va=N]", "RESERVE_VA",
      "reserve a VA range for tiled resources; prints the VA", NULL, SEC_MEMORY, cmd_reserve },
    { "query", "AS VA", "QUERY_VA", "translate a VA as the page tables say", NULL, SEC_MEMORY,
      cmd_query },
    { "run", "ENGINE fill|copy|checksum|fetch AS len=N [dst=VA] [src=VA] [pattern=N] [phys]",
      "ENGINE_RUN", "run a GPU engine in an address space and wait for it",
      "A translation fault is printed (FAULT and its reason) and exits 1.\n"
      "With phys, AS is 0 and dst and src are VRAM offsets inside one contiguous\n"
      "allocation each (physical mode); anything else is OUT_OF_RANGE.\n",
      SEC_ENGINE, cmd_run },
    { "start", "ENGINE fill|copy|checksum|fetch AS len=N [dst=VA] [src=VA] [pattern=N] [phys]",
      "ENGINE_START", "start a GPU engine and return while it runs",
      "The engine runs beside later commands; engine-status tells when it has stopped.\n"
      "Its address space cannot be destroyed meanwhile (BUSY); in physical mode (phys,\n"
      "as for run) the contiguous allocations it runs over cannot be freed.\n",
      SEC_ENGINE, cmd_start },
    { "engine-status", "ENGINE [abort]", "ENGINE_STATUS",
      "a GPU engine's state now, without waiting",
      "abort stops its run first (a run an earlier host left running, say).\n", SEC_ENGINE,
      cmd_engine_status },
    { "submit",
      "ENGINE fill|copy|checksum|fetch AS len=N [dst=VA] [src=VA] [pattern=N] [wait=FENCE "
      "wait-value=N] [signal=FENCE signal-value=N]",
      "ENGINE_SUBMIT", "queue a job on a GPU engine and return at once; prints its id",
      "The job runs after the jobs ahead of it on its engine, once FENCE (wait=) is at or\n"
      "past wait-value; when it ends (completed, faulted or aborted) it raises signal= to\n"
      "signal-value (wait for that with fence-wait). A full queue is BUSY. Every gmmuctl\n"
      "process submits with one owner token, so queued jobs outlive the invocation.\n",
      SEC_ENGINE, cmd_submit },
    { "cancel", "ENGINE JOB|all", "ENGINE_CANCEL",
      "cancel a queued job (it never runs), or abort the running one (it still signals)",
      "all cancels every job of the engine's queue that has not started.\n", SEC_ENGINE,
      cmd_cancel },
    { "queue", "ENGINE", "ENGINE_QUEUE",
      "an engine's job queue: jobs held, the running job, the last job's result", NULL, SEC_ENGINE,
      cmd_queue },
    { "read", "VRAM_OFFSET LEN", NULL, "read LEN bytes of VRAM (a multiple of 4, at most 64 KiB)",
      NULL, SEC_ENGINE, cmd_read },
    { "write", "VRAM_OFFSET WORD32...", NULL, "write 32-bit words to VRAM", NULL, SEC_ENGINE,
      cmd_write },
    { NULL, NULL, NULL, NULL, NULL, SEC_DEVICE, NULL },
};
