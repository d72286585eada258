// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer harness of the fences, the engine job queues and the update
 * queue together (firmware/lib/fence.c, engine_queue.c, update_queue.c),
 * driven through their command handlers and polls, over a fake engine, a
 * fake apply and a fake check, against a reference model written here.
 *
 * An input is a sequence of steps, each a selector byte and a few bytes of
 * its own (see step()): the five fence commands, ENGINE_SUBMIT, _CANCEL,
 * _QUEUE, UPDATE_SUBMIT, _CANCEL, _QUEUE (each now and then with a wrong
 * length), a run ending, a run the queues did not start, one poll of
 * either queue, a settle (poll until nothing moves), toggles of what the
 * fakes answer, a paging-fence signal, a memory-in-use query
 * (engine_queue_uses). Fence values are chosen near the
 * fence's value, near 2^64 or 2^63 ahead, so values wrap. Owners are one
 * host's token until a step switches host. An input of odd length starts
 * the job and batch ids just short of 2^32, so they wrap.
 *
 * The fakes: a job's address space handle carries its tag (and what
 * activate answers for it: OK, BUSY while "pinned", BAD_HANDLE); its
 * pattern carries the tag too, so a start names the job; an engine runs
 * until a step ends it (or it is aborted). A batch's operations carry its
 * tag and their index; apply answers OK (and signals the paging fence, as
 * vidmm does), BUSY while "in use", or a failure, as the batch says; check
 * refuses batches that say so.
 *
 * Checked, from the model's own bookkeeping (never the modules'):
 *  - every status is a protocol status, never INTERNAL; the response length
 *    is the command's on OK and 0 otherwise; statuses are those the model
 *    expects (any of the applicable ones when several fields are bad);
 *  - fence values equal the model's, only move forward modulo 2^64 (each
 *    value published), a host signal behind is refused; every armed wait
 *    fires once, lowest first, when reached, with the right owner;
 *  - a job starts only on an idle engine, as its queue's oldest, with its
 *    wait reached (modulo 2^64); a batch is applied only as the oldest,
 *    with its wait reached, with its own operations, in submit order;
 *  - an ended job or batch (failed ones too) raised its signal fence to at
 *    least its value; cancelled ones signal nothing; a job or batch leaves
 *    the queue unannounced only when its wait fence was destroyed;
 *  - BUSY for a full queue exactly when the model's is full; a new owner
 *    cancels the previous owner's waiting jobs and batches (running jobs
 *    run on);
 *  - after a settle nothing that may move waits: an idle engine's oldest
 *    job waits for its fence or a hardware id, the oldest batch for its
 *    fence or memory in use (head_in_use);
 *  - ENGINE_QUEUE and UPDATE_QUEUE answers equal the model's, and so does
 *    engine_queue_uses (a held job of the address space touching the
 *    range, unless it waits for a paging or `after` value not reached);
 *  - at the end of an input, with every run ended and everything
 *    cancelled, every accepted job and batch started/was applied or was
 *    cancelled, and the modules' counters agree (nothing lost).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmmu/engine_regs.h>

#include "engine_queue.h"
#include "fence.h"
#include "update_queue.h"

#define NE        GMMU_ENGINES
#define DEPTH     GMMU_ENGINE_QUEUE_DEPTH
#define UDEPTH    GMMU_UPDATE_QUEUE_DEPTH
#define UOPS      GMMU_UPDATE_QUEUE_OPS
#define MAX_STEPS 160
#define MAX_PEND  64
#define HALF      (1ull << 63)
#define AS_TAG    0x40000000u /* a job's as_handle: AS_TAG | behaviour << 20 | tag */
#define UAS_TAG   0x41000000u /* a batch's as_handle: UAS_TAG | tag */

static _Noreturn void broken(const char *what, unsigned long long a, unsigned long long b)
{
    fprintf(stderr, "fuzz_queues: %s (0x%llx, 0x%llx)\n", what, a, b);
    abort();
}

/* Modulo 2^64, as docs/fences.md states it: a is at or past b. */
static bool at_or_past(uint64_t a, uint64_t b)
{
    return a - b < HALF;
}

/* ------------------------------------------------------------ modules */

static struct fences f;
static struct engine_queue eq;
static struct update_queue uq;
static struct gmmu_update_op store[UOPS];

/* ------------------------------------------------------------ model */

static struct {
    bool live[GMMU_FENCES];
    uint32_t handle[GMMU_FENCES];
    uint64_t value[GMMU_FENCES];
    uint64_t published[GMMU_FENCES];
    uint32_t stale[8]; /* destroyed handles */
    unsigned n_stale;
    uint32_t owner;
    struct mwait {
        uint32_t handle;
        uint64_t value;
    } waits[GMMU_FENCE_WAITS];
    unsigned n_waits;
    /* FENCE_WAIT answers at once: the one event expected during the call */
    bool expect_now;
    struct mwait now;
    bool creating; /* a publish of any value is fine (a new fence) */
} mf;

struct pend {
    uint32_t handle;
    uint64_t value;
};
static struct pend pending[MAX_PEND];
static unsigned n_pending;

struct mjob {
    uint32_t tag, id, wait_h, sig_h, as, op, len;
    uint64_t wait_v, sig_v, dst, src;
    uint8_t behav; /* 0 OK, 1 BUSY while pinned, 2 BAD_HANDLE at activate */
    bool running;
};

static struct {
    struct mjob j[DEPTH];
    unsigned n;
    uint32_t finished, cancelled, last_job, last_status;
    uint32_t accepted;
} mr[NE];

static struct {
    bool busy[NE]; /* the fake engine runs */
    bool qrun[NE]; /* ... a run the queue started and has not finished */
    bool pinned;   /* activate answers BUSY for behaviour-1 jobs */
    uint32_t activated;
    uint32_t owner, next_id;
    uint32_t aborts;
} me;

struct mbatch {
    uint32_t tag, id, count, wait_h, sig_h;
    uint64_t wait_v, sig_v;
    uint8_t behav; /* 0 OK, 1 BUSY while in use, 2 fails */
};

static struct {
    struct mbatch b[UDEPTH];
    unsigned n, ops;
    bool in_use;
    uint32_t owner, next_id;
    uint32_t applied, failed, cancelled, last_batch, last_status, accepted;
} mu;

static uint32_t host_owner, next_tag;
static bool trace;             /* FUZZ_QUEUES_TRACE set: each step and answer on stderr */
static unsigned long progress; /* starts, ends, applies, publishes, drops */

static int slot_of(uint32_t handle)
{
    uint32_t s = (handle & 0xFFFFu) - 1u;

    if ((handle & 0xFF000000u) != FENCE_HANDLE_TAG || s >= GMMU_FENCES || !mf.live[s] ||
        mf.handle[s] != handle)
        return -1;
    return (int)s;
}

static bool mlive(uint32_t handle)
{
    return slot_of(handle) >= 0;
}

static uint64_t mvalue(uint32_t handle)
{
    int s = slot_of(handle);

    return s < 0 ? 0 : mf.value[s];
}

/* A wait of a job or batch: none, or live and reached. */
static bool wait_met(uint32_t handle, uint64_t value)
{
    return !handle || (mlive(handle) && at_or_past(mvalue(handle), value));
}

/* Signals the module makes after the callback that announced them (a
   job's or batch's end): applied at the next callback or the step's end. */
static void settle_pending(void)
{
    for (unsigned i = 0; i < n_pending; i++) {
        int s = slot_of(pending[i].handle);

        /* Raised when ahead, by a move shorter than 2^63: a value exactly
           2^63 ahead is neither reached nor a move a fence can make. */
        if (s >= 0 && pending[i].value - mf.value[s] - 1u < HALF - 1u)
            mf.value[s] = pending[i].value;
    }
    n_pending = 0;
}

static void pend(uint32_t handle, uint64_t value)
{
    if (!handle)
        return;
    if (n_pending == MAX_PEND)
        broken("too many signals pending", handle, value);
    pending[n_pending++] = (struct pend){ handle, value };
}

/* ------------------------------------------------------------ fakes */

static void f_publish(void *ctx, uint32_t slot, uint64_t value)
{
    (void)ctx;
    settle_pending();
    progress++;
    if (slot >= GMMU_FENCES)
        broken("publish of a slot out of range", slot, value);
    if (!mf.creating) {
        if (!mf.live[slot] || mf.value[slot] != value)
            broken("published value is not the model's", slot, value);
        if (!at_or_past(value, mf.published[slot]) || value == mf.published[slot])
            broken("published value did not move forward", mf.published[slot], value);
    }
    mf.published[slot] = value;
}

static void f_notify(void *ctx, const struct gmmu_fence_evt *evt)
{
    (void)ctx;
    settle_pending();
    if (evt->owner != mf.owner)
        broken("EVT_FENCE of another owner", evt->owner, mf.owner);
    if (mf.expect_now && evt->handle == mf.now.handle && evt->wait_value == mf.now.value) {
        mf.expect_now = false;
        if (evt->value != mvalue(evt->handle))
            broken("EVT_FENCE value", evt->value, mvalue(evt->handle));
        return;
    }
    int s = slot_of(evt->handle);
    if (s < 0 || evt->value != mf.value[s])
        broken("EVT_FENCE of a dead fence or a wrong value", evt->handle, evt->value);
    uint64_t now = mf.value[s];
    unsigned k = mf.n_waits;
    for (unsigned i = 0; i < mf.n_waits; i++) {
        const struct mwait *w = &mf.waits[i];

        if (w->handle != evt->handle || !at_or_past(now, w->value))
            continue;
        if (w->value == evt->wait_value)
            k = i;
        else if (now - w->value > now - evt->wait_value)
            broken("EVT_FENCE not lowest first", w->value, evt->wait_value);
    }
    if (k == mf.n_waits)
        broken("EVT_FENCE of no armed, reached wait", evt->handle, evt->wait_value);
    mf.waits[k] = mf.waits[--mf.n_waits];
}

/* Where slot's record is for the host. */
static uint64_t f_offset(void *ctx, uint32_t slot)
{
    (void)ctx;
    return 0x10000000ull + slot * 16ull;
}

static const struct fence_hw fhw = { .publish = f_publish, .notify = f_notify, .offset = f_offset };

/* fence_info.offset of a handle's fence. */
static uint64_t offset_of(uint32_t handle)
{
    return 0x10000000ull + ((handle & 0xFFFFu) - 1u) * 16ull;
}

/* The model job of a tag, and its engine. */
static struct mjob *find_job(uint32_t tag, uint32_t *engine, unsigned *at)
{
    for (uint32_t e = 0; e < NE; e++)
        for (unsigned i = 0; i < mr[e].n; i++)
            if (mr[e].j[i].tag == tag) {
                *engine = e;
                *at = i;
                return &mr[e].j[i];
            }
    return NULL;
}

static void job_remove(uint32_t e, unsigned at)
{
    memmove(&mr[e].j[at], &mr[e].j[at + 1], (mr[e].n - at - 1) * sizeof(mr[e].j[0]));
    mr[e].n--;
}

/* Jobs ahead of `at` may have gone only because their wait fence did. */
static void drop_ahead(uint32_t e, unsigned at)
{
    for (unsigned i = 0; i < at; i++) {
        if (mr[e].j[0].running || mlive(mr[e].j[0].wait_h) || !mr[e].j[0].wait_h)
            broken("a job started ahead of an older one", mr[e].j[0].id, e);
        job_remove(e, 0);
        mr[e].cancelled++;
        progress++;
    }
}

static void job_ended(uint32_t e, uint32_t status)
{
    struct mjob *j = &mr[e].j[0];

    pend(j->sig_h, j->sig_v);
    mr[e].finished++;
    mr[e].last_job = j->id;
    mr[e].last_status = status;
    job_remove(e, 0);
    progress++;
}

static uint32_t f_activate(void *ctx, uint32_t as, uint32_t *asid)
{
    uint32_t e;
    unsigned at;
    struct mjob *j;

    (void)ctx;
    settle_pending();
    if ((as & 0xFF000000u) != AS_TAG || !(j = find_job(as & 0xFFFFF, &e, &at)))
        broken("activate of no queued job", as, 0);
    drop_ahead(e, at);
    j = &mr[e].j[0];
    if (j->running || me.busy[e] || me.qrun[e])
        broken("activate on a busy engine or of a running job", e, j->id);
    if (!wait_met(j->wait_h, j->wait_v))
        broken("a job activated before its wait was reached", j->id, mvalue(j->wait_h));
    *asid = j->tag & 0x3F;
    if (j->behav == 1 && me.pinned)
        return GMMU_STATUS_BUSY;
    if (j->behav == 2) {
        job_ended(e, GMMU_STATUS_BAD_HANDLE);
        return GMMU_STATUS_BAD_HANDLE;
    }
    me.activated = j->tag;
    return GMMU_STATUS_OK;
}

static void f_start(void *ctx, uint32_t e, const struct gmmu_engine_req *rq, uint32_t asid)
{
    (void)ctx;
    settle_pending();
    if (e >= NE || !mr[e].n || rq->pattern != me.activated || mr[e].j[0].tag != me.activated ||
        rq->engine != e || asid != (me.activated & 0x3F))
        broken("start of a job that was not the activated head", e, rq->pattern);
    if (me.busy[e] || mr[e].j[0].running)
        broken("start on a busy engine", e, me.busy[e]);
    me.activated = 0;
    me.busy[e] = me.qrun[e] = true;
    mr[e].j[0].running = true;
    progress++;
}

static bool f_busy(void *ctx, uint32_t e)
{
    (void)ctx;
    if (e >= NE)
        broken("busy of an engine out of range", e, 0);
    return me.busy[e];
}

static void f_finish(void *ctx, uint32_t e, struct gmmu_engine_rsp *out)
{
    (void)ctx;
    settle_pending();
    if (e >= NE || me.busy[e] || !me.qrun[e] || !mr[e].n || !mr[e].j[0].running)
        broken("finish of no ended queue run", e, 0);
    me.qrun[e] = false;
    *out = (struct gmmu_engine_rsp){ .bytes_done = mr[e].j[0].tag };
    job_ended(e, GMMU_STATUS_OK);
}

static void f_abort(void *ctx, uint32_t e)
{
    (void)ctx;
    if (e >= NE || !me.qrun[e])
        broken("abort of an engine not running a job", e, 0);
    me.aborts++;
    me.busy[e] = false; /* it stops at once */
}

static bool f_as_exists(void *ctx, uint32_t as)
{
    (void)ctx;
    return (as >> 20 & 0xF) != 3;
}

static const struct engine_queue_ops eops = { f_start,    f_busy,      f_finish, f_abort,
                                              f_activate, f_as_exists, NULL };

static void batch_remove(unsigned at)
{
    mu.ops -= mu.b[at].count;
    memmove(&mu.b[at], &mu.b[at + 1], (mu.n - at - 1) * sizeof(mu.b[0]));
    mu.n--;
}

static void check_ops(const struct gmmu_update_op *ops, uint32_t count, uint32_t tag)
{
    for (uint32_t k = 0; k < count; k++)
        if (ops[k].va != ((uint64_t)tag << 8 | k) || ops[k].size != count)
            broken("a batch's operations are not its own", tag, k);
}

static uint32_t f_apply(void *ctx, uint32_t as, const struct gmmu_update_op *ops, uint32_t count,
                        uint32_t after)
{
    unsigned at = 0;

    (void)ctx;
    settle_pending();
    while (at < mu.n && mu.b[at].tag != (as & 0xFFFFFF))
        at++;
    if ((as & 0xFF000000u) != UAS_TAG || at == mu.n)
        broken("apply of no queued batch", as, 0);
    for (unsigned i = 0; i < at; i++) {
        if (mlive(mu.b[0].wait_h) || !mu.b[0].wait_h)
            broken("a batch applied ahead of an older one", mu.b[0].id, as);
        batch_remove(0);
        mu.cancelled++;
        progress++;
    }
    struct mbatch b = mu.b[0];
    if (count != b.count || after != b.sig_h)
        broken("apply's count or after", count, after);
    check_ops(ops, count, b.tag);
    if (!wait_met(b.wait_h, b.wait_v))
        broken("a batch applied before its wait was reached", b.id, mvalue(b.wait_h));
    if (b.behav == 1 && mu.in_use)
        return GMMU_STATUS_BUSY;
    batch_remove(0);
    progress++;
    mu.last_batch = b.id;
    if (b.behav == 2) {
        mu.failed++;
        mu.last_status = GMMU_STATUS_OUT_OF_RANGE;
        pend(b.sig_h, b.sig_v);
        return GMMU_STATUS_OUT_OF_RANGE;
    }
    mu.applied++;
    mu.last_status = GMMU_STATUS_OK;
    mf.value[0]++; /* UPDATE_VA signals the paging fence */
    fence_paging_signal(&f);
    pend(b.sig_h, b.sig_v);
    return GMMU_STATUS_OK;
}

static uint32_t f_check(void *ctx, uint32_t as, const struct gmmu_update_op *ops, uint32_t count)
{
    (void)ctx;
    check_ops(ops, count, as & 0xFFFFFF);
    return (ops[0].alloc_handle & 0xF0) == 0xF0 ? GMMU_STATUS_OUT_OF_RANGE : GMMU_STATUS_OK;
}

static const struct update_queue_ops uops = { f_apply, f_check, NULL };

/* ------------------------------------------------------------ input */

struct input {
    const uint8_t *data;
    size_t left;
};

static uint8_t byte(struct input *in)
{
    if (!in->left)
        return 0;
    in->left--;
    return *in->data++;
}

static uint64_t u64(struct input *in)
{
    uint64_t v = 0;

    for (int i = 0; i < 8; i++)
        v = v << 8 | byte(in);
    return v;
}

/* A fence handle: none (when allowed), a live one, a destroyed one, junk. */
static uint32_t pick_fence(struct input *in, bool none_ok)
{
    uint8_t h = byte(in);
    uint32_t live[GMMU_FENCES];
    unsigned n = 0;

    if (none_ok && h < 0x50)
        return 0;
    if (h < 0xF0) { /* the fence in slot h % 16 if live, else another */
        if (mf.live[h & 0xF])
            return mf.handle[h & 0xF];
        for (uint32_t s = 0; s < GMMU_FENCES; s++)
            if (mf.live[s])
                live[n++] = mf.handle[s];
        return live[h % n];
    }
    if (h < 0xF8 && mf.n_stale)
        return mf.stale[h % mf.n_stale];
    switch (h & 3) {
    case 0:
        return 0;
    case 1:
        return FENCE_HANDLE_TAG | (h & 0x1Fu); /* slot 0x1F: beyond the table */
    case 2:
        return 0x47000002u;
    default:
        return FENCE_HANDLE_TAG | 0x00050000u | (h >> 4 & 0xFu); /* wrong generation */
    }
}

/* A value near base (the fence's value), near 2^64, or 2^63 ahead. */
static uint64_t pick_value(struct input *in, uint64_t base)
{
    uint8_t m = byte(in), b = byte(in);

    switch (m & 7) {
    case 0:
        return base + b;
    case 1:
        return base - b;
    case 2:
        return UINT64_MAX - b;
    case 3:
        return b;
    case 4:
        return base + HALF - 1 - (b & 3);
    case 5:
        return base + HALF + (b & 3);
    case 6:
        return u64(in);
    default:
        return base + 1;
    }
}

static uint32_t pick_owner(struct input *in)
{
    uint8_t o = byte(in);

    if (o >= 0xE0)
        host_owner = 0x80000000u | (o & 3u);
    return host_owner;
}

/* A wrong length now and then: mode's high nibble 0xF. */
static uint32_t length(uint8_t mode, uint32_t len)
{
    uint32_t d = (mode & 7u) + 1u;

    if ((mode & 0xF0) != 0xF0)
        return len;
    return (mode & 8) && len >= d ? len - d : len + d;
}

/* ------------------------------------------------------------ checks */

static uint8_t req[8192], rsp[GMMU_MSG_MAX_BYTES];

static void expect(const char *what, uint32_t st, uint32_t rlen, uint32_t ok_len,
                   const uint32_t *errs, unsigned n_errs, uint32_t want)
{
    bool fine = false;

    if (trace)
        fprintf(stderr, "  %s: %u\n", what, st);
    if (st == GMMU_STATUS_INTERNAL || !gmmu_status_name(st))
        broken("bad status", st, 0);
    if (rlen != (st == GMMU_STATUS_OK ? ok_len : 0))
        broken("bad response length", st, rlen);
    if (n_errs) {
        for (unsigned i = 0; i < n_errs; i++)
            fine |= st == errs[i];
    } else {
        fine = st == want;
    }
    if (!fine) {
        fprintf(stderr, "fuzz_queues: %s answered %u, expected %u (%u refusals possible)\n", what,
                st, n_errs ? errs[0] : want, n_errs);
        abort();
    }
}

/* The modules' queues hold what the model holds, in order; a job or batch
   the module dropped unannounced must have lost its wait fence. */
static void reconcile(void)
{
    settle_pending();
    for (uint32_t e = 0; e < NE; e++) {
        const struct engine_ring *r = &eq.ring[e];
        unsigned k = 0;

        for (unsigned i = 0; i < mr[e].n;) {
            const struct engine_job *job = k < r->count ? &r->job[(r->head + k) % DEPTH] : NULL;

            if (job && job->id == mr[e].j[i].id) {
                i++, k++;
                continue;
            }
            if (mr[e].j[i].running || !mr[e].j[i].wait_h || mlive(mr[e].j[i].wait_h))
                broken("a job left its queue unannounced", mr[e].j[i].id, e);
            job_remove(e, i);
            mr[e].cancelled++;
            progress++;
        }
        if (k != r->count)
            broken("a queue holds a job the model does not", e, r->count);
        if (r->running != (mr[e].n && mr[e].j[0].running))
            broken("running job disagrees", e, r->running);
        if (r->last.cancelled != mr[e].cancelled || r->last.finished != mr[e].finished)
            broken("engine counters", r->last.cancelled, mr[e].cancelled);
    }
    uint32_t held = 0;
    for (uint32_t e = 0; e < NE; e++)
        held += mr[e].n;
    if (engine_queue_active(&eq) != (held != 0) || eq.held != held)
        broken("jobs held", eq.held, held);
    unsigned k = 0;
    for (unsigned i = 0; i < mu.n;) {
        if (k < uq.count && uq.batch[k].id == mu.b[i].id) {
            i++, k++;
            continue;
        }
        if (!mu.b[i].wait_h || mlive(mu.b[i].wait_h))
            broken("a batch left the queue unannounced", mu.b[i].id, i);
        batch_remove(i);
        mu.cancelled++;
        progress++;
    }
    if (k != uq.count || uq.ops_held != mu.ops)
        broken("the update queue holds what the model does not", uq.count, uq.ops_held);
    if (uq.last.cancelled != mu.cancelled || uq.last.applied != mu.applied ||
        uq.last.failed != mu.failed)
        broken("update counters", uq.last.cancelled, mu.cancelled);
}

static void check_fences(void)
{
    for (uint32_t s = 0; s < GMMU_FENCES; s++) {
        uint64_t v = 0;

        if (!mf.live[s])
            continue;
        if (trace)
            fprintf(stderr, "  fence %u: 0x%llx model 0x%llx\n", s, (unsigned long long)f.value[s],
                    (unsigned long long)mf.value[s]);
        if (!fence_value_of(&f, mf.handle[s], &v) || v != mf.value[s])
            broken("fence value differs from the model's", mf.handle[s], v);
    }
    for (unsigned i = 0; i < mf.n_stale; i++) {
        uint64_t v;

        if (!mlive(mf.stale[i]) && fence_value_of(&f, mf.stale[i], &v))
            broken("a destroyed fence's handle still works", mf.stale[i], v);
    }
    for (unsigned i = 0; i < mf.n_waits; i++)
        if (wait_met(mf.waits[i].handle, mf.waits[i].value))
            broken("a reached wait did not fire", mf.waits[i].handle, mf.waits[i].value);
    if (fence_paging_value(&f) != mf.value[0])
        broken("paging fence", fence_paging_value(&f), mf.value[0]);
    if (fence_waits_armed(&f) != mf.n_waits)
        broken("armed waits", fence_waits_armed(&f), mf.n_waits);
    if (mf.expect_now)
        broken("no EVT_FENCE for a wait reached already", mf.now.handle, mf.now.value);
}

/* After polling until nothing moves: nothing that may move waits. */
static void check_settled(void)
{
    for (uint32_t e = 0; e < NE; e++) {
        const struct mjob *j = &mr[e].j[0];

        if (!mr[e].n)
            continue;
        if (j->running) {
            if (!me.busy[e])
                broken("an ended run was not finished", e, j->id);
            continue;
        }
        if (me.busy[e])
            continue; /* a run the queue did not start */
        if (j->wait_h && !mlive(j->wait_h))
            broken("a job whose wait fence is gone still waits", j->id, e);
        if (wait_met(j->wait_h, j->wait_v) && !(j->behav == 1 && me.pinned))
            broken("a job that may start waits", j->id, e);
    }
    if (mu.n) {
        const struct mbatch *b = &mu.b[0];
        bool due = wait_met(b->wait_h, b->wait_v);

        if (b->wait_h && !mlive(b->wait_h))
            broken("a batch whose wait fence is gone still waits", b->id, 0);
        if (due && !(b->behav == 1 && mu.in_use))
            broken("a batch that may be applied waits", b->id, 0);
        if (due && !uq.head_in_use)
            broken("a batch waiting for memory in use is not head_in_use", b->id, 0);
    }
}

/* update_queue_poll, whose answer is how many batches ended. */
static uint32_t update_poll(void)
{
    uint32_t before = mu.applied + mu.failed, ended = update_queue_poll(&uq);

    if (ended != mu.applied + mu.failed - before)
        broken("update_queue_poll's count of ended batches", ended,
               mu.applied + mu.failed - before);
    return ended;
}

static void poll_round(void)
{
    for (uint32_t e = 0; e < NE; e++)
        engine_queue_poll(&eq);
    if (update_queue_active(&uq) && update_poll())
        engine_queue_poll(&eq);
    reconcile();
}

static void settle(void)
{
    for (int round = 0; round < 64; round++) {
        unsigned long before = progress;

        poll_round();
        if (progress == before) {
            /* Once more: the engine poll reads one engine per call. */
            poll_round();
            if (progress == before)
                break;
        }
    }
    check_settled();
}

/* ------------------------------------------------------------ steps */

static uint32_t run_fence(uint16_t op, uint32_t len, uint32_t *rlen)
{
    const struct mbox_command *cmd = mbox_command_find(&fence_commands, op);

    *rlen = 0;
    return cmd->run(&f, req, len, rsp, sizeof rsp, rlen);
}

static void fence_create_step(struct input *in, uint8_t mode)
{
    struct gmmu_fence_create_req rq = { .value = pick_value(in, 0) };
    struct gmmu_fence_info fi;
    uint32_t len = length(mode, sizeof rq), rlen, st, want = GMMU_STATUS_NO_MEMORY;
    uint32_t errs[1] = { GMMU_STATUS_MALFORMED_LENGTH };

    for (uint32_t s = 1; s < GMMU_FENCES; s++)
        if (!mf.live[s])
            want = GMMU_STATUS_OK;
    memcpy(req, &rq, sizeof rq);
    mf.creating = true;
    st = run_fence(GMMU_OP_FENCE_CREATE, len, &rlen);
    mf.creating = false;
    expect("FENCE_CREATE", st, rlen, GMMU_FENCE_INFO_BYTES, errs, len != sizeof rq, want);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&fi, rsp, sizeof fi);
    uint32_t s = (fi.handle & 0xFFFFu) - 1u;
    if ((fi.handle & 0xFF000000u) != FENCE_HANDLE_TAG || s == 0 || s >= GMMU_FENCES || mf.live[s] ||
        fi.value != rq.value || fi.reached || fi.offset != offset_of(fi.handle))
        broken("FENCE_CREATE's answer", fi.handle, fi.value);
    for (unsigned i = 0; i < mf.n_stale; i++)
        if (mf.stale[i] == fi.handle)
            broken("FENCE_CREATE gave a destroyed fence's handle again", fi.handle, 0);
    mf.live[s] = true;
    mf.handle[s] = fi.handle;
    mf.value[s] = rq.value;
}

static void drop_fence_waits(uint32_t handle)
{
    for (unsigned i = 0; i < mf.n_waits;)
        if (!handle || mf.waits[i].handle == handle)
            mf.waits[i] = mf.waits[--mf.n_waits];
        else
            i++;
}

static void fence_destroy_step(struct input *in, uint8_t mode)
{
    struct gmmu_handle_req rq = { .handle = pick_fence(in, false) };
    uint32_t errs[3], n = 0, rlen, st, len = length(mode, sizeof rq);

    rq.reserved = mode & 0x80 && !(mode & 0x70) ? 1 : 0;
    if (len != sizeof rq)
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    else {
        if (rq.reserved)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
        if (!mlive(rq.handle))
            errs[n++] = GMMU_STATUS_BAD_HANDLE;
        if (rq.handle == GMMU_FENCE_PAGING)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
    }
    memcpy(req, &rq, sizeof rq);
    st = run_fence(GMMU_OP_FENCE_DESTROY, len, &rlen);
    expect("FENCE_DESTROY", st, rlen, 0, errs, n, GMMU_STATUS_OK);
    if (st != GMMU_STATUS_OK)
        return;
    int s = slot_of(rq.handle);
    mf.live[s] = false;
    drop_fence_waits(rq.handle);
    mf.stale[mf.n_stale < 8 ? mf.n_stale++ : rq.handle % 8] = rq.handle;
}

static void fence_signal_step(struct input *in, uint8_t mode)
{
    struct gmmu_fence_signal_req rq = { .handle = pick_fence(in, false) };
    uint32_t errs[4], n = 0, rlen, st, len = length(mode, sizeof rq);
    struct gmmu_fence_info fi;

    rq.value = pick_value(in, mvalue(rq.handle));
    rq.reserved = mode & 0x80 && !(mode & 0x70) ? 1 : 0;
    if (len != sizeof rq)
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    else {
        if (rq.reserved)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
        if (!mlive(rq.handle))
            errs[n++] = GMMU_STATUS_BAD_HANDLE;
        if (rq.handle == GMMU_FENCE_PAGING)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
        else if (mlive(rq.handle) && !at_or_past(rq.value, mvalue(rq.handle)))
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
    }
    if (!n) /* the model moves first: publish and events compare with it */
        mf.value[slot_of(rq.handle)] = rq.value;
    memcpy(req, &rq, sizeof rq);
    st = run_fence(GMMU_OP_FENCE_SIGNAL, len, &rlen);
    expect("FENCE_SIGNAL", st, rlen, GMMU_FENCE_INFO_BYTES, errs, n, GMMU_STATUS_OK);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&fi, rsp, sizeof fi);
    if (fi.handle != rq.handle || fi.value != rq.value || fi.offset != offset_of(rq.handle))
        broken("FENCE_SIGNAL's answer", fi.handle, fi.value);
}

static void fence_read_step(struct input *in, uint8_t mode)
{
    struct gmmu_handle_req rq = { .handle = pick_fence(in, false) };
    uint32_t errs[2], n = 0, rlen, st, len = length(mode, sizeof rq);
    struct gmmu_fence_info fi;

    rq.reserved = mode & 0x80 && !(mode & 0x70) ? 1 : 0;
    if (len != sizeof rq)
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    else {
        if (rq.reserved)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
        if (!mlive(rq.handle))
            errs[n++] = GMMU_STATUS_BAD_HANDLE;
    }
    memcpy(req, &rq, sizeof rq);
    st = run_fence(GMMU_OP_FENCE_READ, len, &rlen);
    expect("FENCE_READ", st, rlen, GMMU_FENCE_INFO_BYTES, errs, n, GMMU_STATUS_OK);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&fi, rsp, sizeof fi);
    if (fi.handle != rq.handle || fi.value != mvalue(rq.handle) || fi.reached ||
        fi.offset != offset_of(rq.handle))
        broken("FENCE_READ's answer", fi.handle, fi.value);
}

static void fence_wait_step(struct input *in, uint8_t mode)
{
    struct gmmu_fence_wait_req rq = { .handle = pick_fence(in, false) };
    uint32_t errs[3], n = 0, rlen, st, len = length(mode, sizeof rq), want = GMMU_STATUS_OK;
    struct gmmu_fence_info fi;
    bool reached = false;
    unsigned armed = mf.n_waits;

    rq.value = pick_value(in, mvalue(rq.handle));
    rq.owner = pick_owner(in);
    rq.flags = mode & 0x40 ? GMMU_FENCE_WAIT_FLAG_CANCEL : 0;
    if ((mode & 0xF0) == 0xB0)
        rq.flags |= 2u; /* unknown flag */
    rq.reserved = (mode & 0xF0) == 0xA0;
    if (len != sizeof rq)
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    else {
        if (rq.reserved || rq.flags > 1)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
        if (!mlive(rq.handle))
            errs[n++] = GMMU_STATUS_BAD_HANDLE;
    }
    if (!n) {
        if (rq.owner != mf.owner) {
            drop_fence_waits(0);
            mf.owner = rq.owner;
        }
        for (unsigned i = 0; i < mf.n_waits; i++)
            if (mf.waits[i].handle == rq.handle && mf.waits[i].value == rq.value)
                armed = i;
        if (rq.flags) {
            if (armed < mf.n_waits)
                mf.waits[armed] = mf.waits[--mf.n_waits];
        } else if (at_or_past(mvalue(rq.handle), rq.value)) {
            reached = mf.expect_now = true;
            mf.now = (struct mwait){ rq.handle, rq.value };
        } else if (armed < mf.n_waits) {
        } else if (mf.n_waits == GMMU_FENCE_WAITS) {
            want = GMMU_STATUS_BUSY;
        } else {
            mf.waits[mf.n_waits++] = (struct mwait){ rq.handle, rq.value };
        }
    }
    memcpy(req, &rq, sizeof rq);
    st = run_fence(GMMU_OP_FENCE_WAIT, len, &rlen);
    expect("FENCE_WAIT", st, rlen, GMMU_FENCE_INFO_BYTES, errs, n, want);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&fi, rsp, sizeof fi);
    if (fi.handle != rq.handle || fi.value != mvalue(rq.handle) || fi.reached != reached)
        broken("FENCE_WAIT's answer", fi.value, fi.reached);
}

/* A new owner: the previous one's jobs that have not started go. */
static void jobs_take_owner(uint32_t owner)
{
    if (owner == me.owner)
        return;
    for (uint32_t e = 0; e < NE; e++)
        for (unsigned i = mr[e].n; i-- > 0;)
            if (!mr[e].j[i].running) {
                job_remove(e, i);
                mr[e].cancelled++;
            }
    me.owner = owner;
}

static void engine_submit_step(struct input *in, uint8_t mode)
{
    struct gmmu_engine_submit_req rq = { 0 };
    struct gmmu_engine_submit_rsp rs;
    uint32_t errs[6], n = 0, rlen = 0, st, len = length(mode, sizeof rq), want = GMMU_STATUS_OK;
    uint8_t eb = byte(in), ob = byte(in), behav = byte(in), ab = byte(in);
    uint32_t tag = ++next_tag;

    rq.engine = eb < 0xF8 ? eb % NE : eb;
    rq.op = ob < 0xF8 ? ob % 4u : (ob & 1 ? GMMU_ENGINE_OP_FLAG_PHYSICAL : ob);
    rq.length = 64u * (ab & 0x3F) + (ab >= 0xF8 ? 8u : 64u);
    rq.dst_va = 0x100000 + (tag & 3) * 0x800ull; /* ranges that meet now and then */
    rq.src_va = 0x100000 + (tag >> 2 & 3) * 0x800ull;
    rq.pattern = tag;
    uint8_t b = (behav & 3) == 3 ? 0 : behav & 3;
    if ((behav & 0xF0) == 0xF0)
        b = 3; /* no such address space */
    rq.as_handle = AS_TAG | (uint32_t)b << 20 | tag;
    rq.wait_handle = pick_fence(in, true);
    rq.wait_value = pick_value(in, mvalue(rq.wait_handle));
    rq.signal_handle = pick_fence(in, true);
    rq.signal_value = pick_value(in, mvalue(rq.signal_handle));
    rq.owner = pick_owner(in);
    rq.reserved = (mode & 0xF0) == 0xA0;
    if (len != sizeof rq) {
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    } else {
        if (rq.reserved || rq.engine >= NE || rq.op > 3)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
        if (rq.length % 64)
            errs[n++] = GMMU_STATUS_UNALIGNED;
        if ((rq.as_handle >> 20 & 0xF) == 3)
            errs[n++] = GMMU_STATUS_BAD_HANDLE;
        if ((rq.wait_handle && !mlive(rq.wait_handle)) ||
            (rq.signal_handle && !mlive(rq.signal_handle)))
            errs[n++] = GMMU_STATUS_BAD_HANDLE;
        if (rq.signal_handle == GMMU_FENCE_PAGING)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
    }
    if (!n) {
        jobs_take_owner(rq.owner);
        if (mr[rq.engine].n == DEPTH)
            want = GMMU_STATUS_BUSY;
    }
    memcpy(req, &rq, sizeof rq);
    st = engine_queue_cmd_submit(&eq, req, len, rsp, sizeof rsp, &rlen);
    expect("ENGINE_SUBMIT", st, rlen, sizeof rs, errs, n, want);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&rs, rsp, sizeof rs);
    uint32_t e = rq.engine;
    if (rs.job != me.next_id || rs.queued != mr[e].n + 1)
        broken("ENGINE_SUBMIT's answer", rs.job, rs.queued);
    me.next_id = me.next_id + 1 ? me.next_id + 1 : 1;
    mr[e].j[mr[e].n++] = (struct mjob){
        .tag = tag,
        .id = rs.job,
        .wait_h = rq.wait_handle,
        .sig_h = rq.signal_handle,
        .wait_v = rq.wait_value,
        .sig_v = rq.signal_value,
        .behav = b,
        .as = rq.as_handle,
        .op = rq.op,
        .len = rq.length,
        .dst = rq.dst_va,
        .src = rq.src_va,
    };
    mr[e].accepted++;
}

static void engine_cancel_step(struct input *in, uint8_t mode)
{
    struct gmmu_engine_cancel_req rq = { 0 };
    struct gmmu_engine_cancel_rsp rs;
    uint32_t errs[1], n = 0, rlen = 0, st, len = length(mode, sizeof rq), cancelled = 0;
    uint8_t eb = byte(in), jb = byte(in);
    bool abort_it = false;

    rq.engine = eb < 0xF8 ? eb % NE : eb;
    rq.owner = pick_owner(in);
    if (jb >= 0xF8) {
        rq.flags = GMMU_ENGINE_CANCEL_FLAG_ALL;
    } else if (jb >= 0xF0) {
        rq.job = 0;
    } else if (jb >= 0xE0 || rq.engine >= NE || !mr[rq.engine].n) {
        rq.job = me.next_id - 1 - (jb & 7);
    } else {
        rq.job = mr[rq.engine].j[jb % mr[rq.engine].n].id;
    }
    if ((mode & 0xF0) == 0xB0)
        rq.flags |= 4u;
    bool all = rq.flags & GMMU_ENGINE_CANCEL_FLAG_ALL;
    if (len != sizeof rq)
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    else if (rq.engine >= NE || rq.flags > 1 || (!all && !rq.job))
        errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
    if (!n) {
        uint32_t e = rq.engine;

        jobs_take_owner(rq.owner);
        if (!all && mr[e].n && mr[e].j[0].running && mr[e].j[0].id == rq.job) {
            abort_it = true;
        } else {
            for (unsigned i = mr[e].n; i-- > 0;)
                if (!mr[e].j[i].running && (all || mr[e].j[i].id == rq.job)) {
                    job_remove(e, i);
                    mr[e].cancelled++;
                    cancelled++;
                }
        }
    }
    uint32_t aborts = me.aborts;
    memcpy(req, &rq, sizeof rq);
    st = engine_queue_cmd_cancel(&eq, req, len, rsp, sizeof rsp, &rlen);
    expect("ENGINE_CANCEL", st, rlen, sizeof rs, errs, n, GMMU_STATUS_OK);
    if (me.aborts != aborts + abort_it)
        broken("abort called or not", abort_it, me.aborts - aborts);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&rs, rsp, sizeof rs);
    if (rs.cancelled != cancelled || rs.aborted != abort_it)
        broken("ENGINE_CANCEL's answer", rs.cancelled, rs.aborted);
}

static void engine_queue_step(struct input *in, uint8_t mode)
{
    struct gmmu_engine_status_req rq = { 0 };
    struct gmmu_engine_queue_rsp rs;
    uint32_t errs[1], n = 0, rlen = 0, st, len = length(mode, sizeof rq);
    uint8_t eb = byte(in);

    rq.engine = eb < 0xF8 ? eb % NE : eb;
    rq.flags = (mode & 0xF0) == 0xB0;
    if (len != sizeof rq)
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    else if (rq.engine >= NE || rq.flags)
        errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
    settle_pending();
    memcpy(req, &rq, sizeof rq);
    st = engine_queue_cmd_queue(&eq, req, len, rsp, sizeof rsp, &rlen);
    expect("ENGINE_QUEUE", st, rlen, sizeof rs, errs, n, GMMU_STATUS_OK);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&rs, rsp, sizeof rs);
    uint32_t e = rq.engine;
    uint32_t running = mr[e].n && mr[e].j[0].running ? mr[e].j[0].id : 0;
    if (rs.queued != mr[e].n || rs.running != running || rs.last_job != mr[e].last_job ||
        rs.last_status != mr[e].last_status || rs.finished != mr[e].finished ||
        rs.cancelled != mr[e].cancelled)
        broken("ENGINE_QUEUE's answer", e, rs.queued);
    if (rs.last_job && rs.last_status == GMMU_STATUS_OK && rs.bytes_done == 0)
        broken("ENGINE_QUEUE's last result is not the fake's", e, rs.last_job);
}

static void batches_take_owner(uint32_t owner)
{
    if (owner == mu.owner)
        return;
    mu.cancelled += mu.n;
    mu.n = mu.ops = 0;
    mu.owner = owner;
}

static void update_submit_step(struct input *in, uint8_t mode)
{
    struct gmmu_update_submit_req rq = { 0 };
    struct gmmu_update_submit_rsp rs;
    uint32_t errs[5], n = 0, rlen = 0, st, want = GMMU_STATUS_OK;
    uint8_t cb = byte(in), behav = byte(in);
    uint32_t tag = ++next_tag & 0xFFFFFF;

    rq.count = cb < 0xF0    ? 1u + cb % 12u
               : cb == 0xF0 ? 0
               : cb == 0xF1 ? UOPS
               : cb == 0xF2 ? UOPS + 1
                            : 24u + (cb - 0xF3u) * 6u;
    rq.as_handle = UAS_TAG | tag;
    rq.wait_handle = pick_fence(in, true);
    rq.wait_value = pick_value(in, mvalue(rq.wait_handle));
    rq.signal_handle = pick_fence(in, true);
    rq.signal_value = pick_value(in, mvalue(rq.signal_handle));
    rq.owner = pick_owner(in);
    rq.reserved = (mode & 0xF0) == 0xA0;
    uint32_t len = length(mode, sizeof rq + rq.count * (uint32_t)sizeof(struct gmmu_update_op));
    if ((mode & 0xF0) == 0xE0)
        len = mode & 0xF; /* shorter than the header */
    memcpy(req, &rq, sizeof rq);
    for (uint32_t k = 0; k < rq.count; k++) {
        struct gmmu_update_op op = {
            .op = GMMU_UPDATE_OP_UNMAP,
            .va = (uint64_t)tag << 8 | k,
            .size = rq.count,
            .alloc_handle = behav,
        };
        memcpy(req + sizeof rq + k * sizeof op, &op, sizeof op);
    }
    if (len != sizeof rq + rq.count * sizeof(struct gmmu_update_op))
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    else {
        if (rq.reserved || !rq.count || rq.count > UOPS)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
        if ((rq.wait_handle && !mlive(rq.wait_handle)) ||
            (rq.signal_handle && !mlive(rq.signal_handle)))
            errs[n++] = GMMU_STATUS_BAD_HANDLE;
        if (rq.signal_handle == GMMU_FENCE_PAGING)
            errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
        if ((behav & 0xF0) == 0xF0)
            errs[n++] = GMMU_STATUS_OUT_OF_RANGE;
    }
    if (!n) {
        batches_take_owner(rq.owner);
        if (mu.n == UDEPTH || mu.ops + rq.count > UOPS)
            want = GMMU_STATUS_BUSY;
    }
    st = update_queue_cmd_submit(&uq, req, len, rsp, sizeof rsp, &rlen);
    expect("UPDATE_SUBMIT", st, rlen, sizeof rs, errs, n, want);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&rs, rsp, sizeof rs);
    if (rs.batch != mu.next_id || rs.queued != mu.n + 1)
        broken("UPDATE_SUBMIT's answer", rs.batch, rs.queued);
    mu.next_id = mu.next_id + 1 ? mu.next_id + 1 : 1;
    mu.b[mu.n++] = (struct mbatch){
        .tag = tag,
        .id = rs.batch,
        .count = rq.count,
        .wait_h = rq.wait_handle,
        .sig_h = rq.signal_handle,
        .wait_v = rq.wait_value,
        .sig_v = rq.signal_value,
        .behav = (behav & 3) == 3 ? 2 : (behav & 3) == 2,
    };
    mu.ops += rq.count;
    mu.accepted++;
}

static void update_cancel_step(struct input *in, uint8_t mode)
{
    struct gmmu_update_cancel_req rq = { 0 };
    struct gmmu_update_cancel_rsp rs;
    uint32_t errs[1], n = 0, rlen = 0, st, len = length(mode, sizeof rq), cancelled = 0;
    uint8_t jb = byte(in);

    rq.owner = pick_owner(in);
    if (jb >= 0xF8)
        rq.flags = GMMU_UPDATE_CANCEL_FLAG_ALL;
    else if (jb >= 0xF0)
        rq.batch = 0;
    else if (jb >= 0xE0 || !mu.n)
        rq.batch = mu.next_id - 1 - (jb & 7);
    else
        rq.batch = mu.b[jb % mu.n].id;
    if ((mode & 0xF0) == 0xB0)
        rq.flags |= 2u;
    rq.reserved = (mode & 0xF0) == 0xA0;
    bool all = rq.flags & GMMU_UPDATE_CANCEL_FLAG_ALL;
    if (len != sizeof rq)
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    else if (rq.reserved || rq.flags > 1 || (!all && !rq.batch))
        errs[n++] = GMMU_STATUS_INVALID_ARGUMENT;
    if (!n) {
        batches_take_owner(rq.owner);
        for (unsigned i = mu.n; i-- > 0;)
            if (all || mu.b[i].id == rq.batch) {
                batch_remove(i);
                mu.cancelled++;
                cancelled++;
            }
    }
    memcpy(req, &rq, sizeof rq);
    st = update_queue_cmd_cancel(&uq, req, len, rsp, sizeof rsp, &rlen);
    expect("UPDATE_CANCEL", st, rlen, sizeof rs, errs, n, GMMU_STATUS_OK);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&rs, rsp, sizeof rs);
    if (rs.cancelled != cancelled || rs.queued != mu.n)
        broken("UPDATE_CANCEL's answer", rs.cancelled, rs.queued);
}

static void update_queue_step(uint8_t mode)
{
    struct gmmu_update_queue_rsp rs;
    uint32_t errs[1], n = 0, rlen = 0, st, len = length(mode, 0);

    if (len)
        errs[n++] = GMMU_STATUS_MALFORMED_LENGTH;
    settle_pending();
    st = update_queue_cmd_queue(&uq, req, len, rsp, sizeof rsp, &rlen);
    expect("UPDATE_QUEUE", st, rlen, sizeof rs, errs, n, GMMU_STATUS_OK);
    if (st != GMMU_STATUS_OK)
        return;
    memcpy(&rs, rsp, sizeof rs);
    if (rs.queued != mu.n || rs.ops != mu.ops || rs.head != (mu.n ? mu.b[0].id : 0) ||
        rs.last_batch != mu.last_batch || (mu.last_batch && rs.last_status != mu.last_status) ||
        rs.applied != mu.applied || rs.failed != mu.failed || rs.cancelled != mu.cancelled ||
        rs.reserved)
        broken("UPDATE_QUEUE's answer", rs.queued, rs.head);
}

/* [a, a + la) and [b, b + lb) share a byte (small values: no wrap). */
static bool overlap(uint64_t a, uint64_t la, uint64_t b, uint64_t lb)
{
    return a < b + lb && b < a + la && la && lb;
}

/* Memory in use (docs/vidmm.md): a held job of the address space needs the
   range, unless it has not started and waits for a value of the paging
   fence or of `after` not reached yet. FILL writes dst; COPY reads src and
   writes dst; CHECKSUM and FETCH read src. */
static void uses_step(struct input *in)
{
    uint8_t eb = byte(in), jb = byte(in), vb = byte(in), bb = byte(in);
    uint32_t e = eb % NE, after = pick_fence(in, true), as = AS_TAG | 0xFFFFFu;
    uint64_t va = 0x100000 + (vb & 0x3Fu) * 0x80ull, bytes = 64ull * (1u + (bb & 0x3Fu));
    bool want = false;

    settle_pending();
    if (mr[e].n)
        as = mr[e].j[jb % mr[e].n].as;
    for (uint32_t k = 0; k < NE; k++)
        for (unsigned i = 0; i < mr[k].n; i++) {
            const struct mjob *j = &mr[k].j[i];
            bool later = !j->running && j->wait_h &&
                         (j->wait_h == GMMU_FENCE_PAGING || j->wait_h == after) &&
                         mlive(j->wait_h) && !at_or_past(mvalue(j->wait_h), j->wait_v);

            if (j->as != as || later)
                continue;
            want |= (j->op <= GMMU_ENGINE_OP_COPY && overlap(j->dst, j->len, va, bytes)) ||
                    (j->op != GMMU_ENGINE_OP_FILL && overlap(j->src, j->len, va, bytes));
        }
    if (engine_queue_uses(&eq, as, va, bytes, after) != want)
        broken("memory in use disagrees", as, want);
}

static void step(struct input *in)
{
    uint8_t sel = byte(in), mode = byte(in);
    uint32_t e = mode % NE;

    if (trace)
        fprintf(stderr, "step %u mode 0x%x\n", sel % 18u, mode);

    switch (sel % 18) {
    case 0:
        fence_create_step(in, mode);
        break;
    case 1:
        fence_destroy_step(in, mode);
        break;
    case 2:
        fence_signal_step(in, mode);
        break;
    case 3:
        fence_read_step(in, mode);
        break;
    case 4:
        fence_wait_step(in, mode);
        break;
    case 5:
        engine_submit_step(in, mode);
        break;
    case 6:
        engine_cancel_step(in, mode);
        break;
    case 7:
        engine_queue_step(in, mode);
        break;
    case 8:
        update_submit_step(in, mode);
        break;
    case 9:
        update_cancel_step(in, mode);
        break;
    case 10:
        update_queue_step(mode);
        break;
    case 11: /* the engine's run ends */
        me.busy[e] = false;
        break;
    case 12: /* a run the queue did not start (ENGINE_START) */
        if (!me.qrun[e])
            me.busy[e] = true;
        break;
    case 13:
        engine_queue_poll(&eq);
        break;
    case 14:
        update_poll();
        break;
    case 15:
        settle();
        break;
    case 17:
        uses_step(in);
        break;
    default:
        switch (mode >> 4 & 3) {
        case 0:
            me.pinned = !me.pinned;
            break;
        case 1:
            mu.in_use = !mu.in_use;
            break;
        default: /* paging work */
            mf.value[0]++;
            fence_paging_signal(&f);
            break;
        }
    }
    reconcile();
    check_fences();
}

/* Everything ends or is cancelled: nothing lost. */
static void finish_input(void)
{
    uint32_t rlen;

    me.pinned = mu.in_use = false;
    for (uint32_t e = 0; e < NE; e++)
        if (!me.qrun[e])
            me.busy[e] = false;
    settle();
    for (uint32_t e = 0; e < NE; e++) {
        struct gmmu_engine_cancel_req c = { .engine = e,
                                            .owner = me.owner,
                                            .flags = GMMU_ENGINE_CANCEL_FLAG_ALL };
        struct gmmu_engine_cancel_rsp rs;
        unsigned n = 0;

        for (unsigned i = mr[e].n; i-- > 0;)
            if (!mr[e].j[i].running) {
                job_remove(e, i);
                mr[e].cancelled++;
                n++;
            }
        if (engine_queue_cancel(&eq, &c, &rs) != GMMU_STATUS_OK || rs.cancelled != n)
            broken("final ENGINE_CANCEL ALL", e, rs.cancelled);
    }
    struct gmmu_update_cancel_req uc = { .owner = mu.owner, .flags = GMMU_UPDATE_CANCEL_FLAG_ALL };
    struct gmmu_update_cancel_rsp urs;
    unsigned n = mu.n;
    mu.cancelled += mu.n;
    mu.n = mu.ops = 0;
    if (update_queue_cancel(&uq, &uc, &urs) != GMMU_STATUS_OK || urs.cancelled != n)
        broken("final UPDATE_CANCEL ALL", n, urs.cancelled);
    for (uint32_t e = 0; e < NE; e++)
        me.busy[e] = false;
    settle();
    reconcile();
    check_fences();
    for (uint32_t e = 0; e < NE; e++) {
        struct gmmu_engine_status_req q = { .engine = e };

        memcpy(req, &q, sizeof q);
        if (engine_queue_cmd_queue(&eq, req, sizeof q, rsp, sizeof rsp, &rlen) != GMMU_STATUS_OK)
            broken("final ENGINE_QUEUE", e, 0);
        struct gmmu_engine_queue_rsp rs;
        memcpy(&rs, rsp, sizeof rs);
        if (mr[e].n || me.qrun[e] || rs.queued || rs.running ||
            rs.finished + rs.cancelled != mr[e].accepted || rs.finished != mr[e].finished)
            broken("a job lost", e, mr[e].accepted);
    }
    if (engine_queue_active(&eq) || update_queue_active(&uq) || mu.n ||
        mu.applied + mu.failed + mu.cancelled != mu.accepted || uq.last.applied != mu.applied ||
        uq.last.failed != mu.failed || uq.last.cancelled != mu.cancelled)
        broken("a batch lost", mu.accepted, uq.last.cancelled);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in = { data, size };

    trace = getenv("FUZZ_QUEUES_TRACE") != NULL;

    memset(&mf, 0, sizeof mf);
    memset(mr, 0, sizeof mr);
    memset(&me, 0, sizeof me);
    memset(&mu, 0, sizeof mu);
    n_pending = 0;
    progress = 0;
    next_tag = 0;
    host_owner = 0x80000000u;
    me.next_id = mu.next_id = 1;
    mf.live[0] = true;
    mf.handle[0] = GMMU_FENCE_PAGING;
    mf.creating = true;
    fence_init(&f, &fhw);
    mf.creating = false;
    engine_queue_init(&eq, &eops, &f);
    memset(store, 0xA5, sizeof store);
    update_queue_init(&uq, &uops, &f, store);
    if (size & 1) /* as after 2^32 - 7 submits: ids wrap, never 0 */
        eq.next_id = uq.next_id = me.next_id = mu.next_id = 0xFFFFFFF9u;
    for (int steps = 0; in.left && steps < MAX_STEPS; steps++)
        step(&in);
    finish_input();
    return 0;
}
