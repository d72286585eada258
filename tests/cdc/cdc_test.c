// SPDX-License-Identifier: Apache-2.0
/*
 * axi4_cdc test: a random AXI4 master on the s clock, the DDR model as the
 * slave on the m clock, under several clock ratios (one of them with
 * jittered periods, so the edges take every phase against each other).
 *
 * The master runs rounds of random INCR bursts (1 to 8 beats of 8 bytes,
 * random IDs, strobes and data, random valid gaps and ready stalls). Each
 * round writes one half of a 64 KB window and reads the other half, which
 * the round before wrote and finished, so every read beat has one expected
 * value: a shadow copy kept by the master. Checked: each read beat's data,
 * RRESP and RLAST, and that it answers the oldest burst of its ID; each B
 * answers an outstanding write of its ID with OKAY; at the end nothing is
 * outstanding, every beat sent arrived once (the model's counters), and the
 * model saw no protocol error. A round that makes no progress for 100 000
 * edges is a hang and fails.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddr_model.h"
#include "dut.h"

#define WINDOW_WORDS 8192u /* 64 KB */
#define HALF_WORDS   (WINDOW_WORDS / 2)
#define MAX_LEN      8u
#define IDS          16u
#define MAX_BURSTS   64u
#define HANG_EDGES   100000u

struct rng {
    uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

static unsigned rng_below(struct rng *r, unsigned n)
{
    return (unsigned)(rng_next(r) % n);
}
static bool rng_chance(struct rng *r, unsigned percent)
{
    return rng_below(r, 100) < percent;
}

struct burst {
    unsigned id, word, len; /* word: first 8-byte word in the window; len: beats */
    unsigned beat;          /* reads: beats received */
    uint64_t expect[MAX_LEN];
};

struct master {
    struct rng rng;
    struct axi4_pins out; /* what the master drives */
    uint64_t shadow[WINDOW_WORDS];
    /* writes: to send (AW, then W beats in AW order), outstanding (B) */
    struct burst wr[MAX_BURSTS];
    unsigned n_wr, aw_next, w_burst, w_beat;
    unsigned b_wait[IDS];
    /* reads: to send (AR), outstanding per ID in order */
    struct burst rd[MAX_BURSTS];
    unsigned n_rd, ar_next;
    unsigned r_queue[IDS][MAX_BURSTS], r_head[IDS], r_tail[IDS];
    unsigned b_done, r_done;
    uint64_t w_beats, r_beats;
    unsigned errors;
};

#define FAIL(m, ...)                      \
    do {                                  \
        if ((m)->errors++ < 8) {          \
            fprintf(stderr, "  FAIL: ");  \
            fprintf(stderr, __VA_ARGS__); \
            fprintf(stderr, "\n");        \
        }                                 \
    } while (0)

/* A burst's first word in one half of the window, not crossing a 4 KB
 * boundary (AXI forbids it). */
static unsigned burst_start(struct rng *r, unsigned half, unsigned len)
{
    const unsigned page_words = 512;
    unsigned page = rng_below(r, HALF_WORDS / page_words);
    return half * HALF_WORDS + page * page_words + rng_below(r, page_words - len + 1);
}

static void plan_round(struct master *m, unsigned round, unsigned bursts)
{
    unsigned wr_half = round % 2, rd_half = 1 - wr_half;
    m->n_wr = m->n_rd = 0;
    m->aw_next = m->w_burst = m->w_beat = m->ar_next = 0;
    m->b_done = m->r_done = 0;
    for (unsigned i = 0; i < bursts; i++) {
        struct burst *w = &m->wr[m->n_wr++];
        w->id = rng_below(&m->rng, IDS);
        w->len = 1 + rng_below(&m->rng, MAX_LEN);
        w->word = burst_start(&m->rng, wr_half, w->len);
        if (round == 0)
            continue; /* the first round only writes: nothing is known yet */
        struct burst *r = &m->rd[m->n_rd++];
        r->id = rng_below(&m->rng, IDS);
        r->len = 1 + rng_below(&m->rng, MAX_LEN);
        r->word = burst_start(&m->rng, rd_half, r->len);
        r->beat = 0;
        for (unsigned k = 0; k < r->len; k++)
            r->expect[k] = m->shadow[r->word + k];
    }
}

static bool round_done(const struct master *m)
{
    return m->b_done == m->n_wr && m->r_done == m->n_rd;
}

static uint64_t merge_strobes(uint64_t old, uint64_t data, unsigned strb)
{
    for (unsigned b = 0; b < 8; b++) {
        if (strb & (1u << b)) {
            uint64_t mask = UINT64_C(0xFF) << (8 * b);
            old = (old & ~mask) | (data & mask);
        }
    }
    return old;
}

/* Handshakes at an s edge, with the crossing's outputs `in`. Returns true if
 * anything moved. */
static bool master_edge(struct master *m, const struct axi4_pins *in)
{
    struct axi4_pins *o = &m->out;
    bool moved = false;
    if (o->awvalid && in->awready) {
        o->awvalid = 0;
        m->aw_next++;
        moved = true;
    }
    if (o->wvalid && in->wready) {
        o->wvalid = 0;
        struct burst *w = &m->wr[m->w_burst];
        m->shadow[w->word + m->w_beat] =
            merge_strobes(m->shadow[w->word + m->w_beat], o->wdata, o->wstrb);
        m->w_beats++;
        if (++m->w_beat == w->len) {
            m->b_wait[w->id]++;
            m->w_burst++;
            m->w_beat = 0;
        }
        moved = true;
    }
    if (in->bvalid && o->bready) {
        if (in->bid >= IDS || m->b_wait[in->bid] == 0)
            FAIL(m, "B with ID %u that has no outstanding write", in->bid);
        else
            m->b_wait[in->bid]--;
        if (in->bresp != AXI_RESP_OKAY)
            FAIL(m, "B with resp %u", in->bresp);
        m->b_done++;
        moved = true;
    }
    if (o->arvalid && in->arready) {
        o->arvalid = 0;
        unsigned i = m->ar_next++, id = m->rd[i].id;
        m->r_queue[id][m->r_tail[id]++ % MAX_BURSTS] = i;
        moved = true;
    }
    if (in->rvalid && o->rready) {
        moved = true;
        m->r_beats++;
        if (in->rid >= IDS || m->r_head[in->rid] == m->r_tail[in->rid]) {
            FAIL(m, "R beat with ID %u that has no outstanding read", in->rid);
            return moved;
        }
        struct burst *r = &m->rd[m->r_queue[in->rid][m->r_head[in->rid] % MAX_BURSTS]];
        unsigned k = r->beat++;
        if (in->rdata != r->expect[k] || in->rresp != AXI_RESP_OKAY ||
            in->rlast != (k + 1 == r->len))
            FAIL(m,
                 "read ID %u word %u beat %u: data 0x%016" PRIx64
                 " resp %u last %u, expected 0x%016" PRIx64 " resp 0 last %u",
                 r->id, r->word, k, in->rdata, in->rresp, in->rlast, r->expect[k], k + 1 == r->len);
        if (k + 1 == r->len) {
            m->r_head[in->rid]++;
            m->r_done++;
        }
    }
    return moved;
}

/* The master's outputs for the next s cycle. A valid stays up with its
 * payload until taken (master_edge drops it then); a new one comes after a
 * random gap; W beats follow AWs already offered; the readies stall at
 * random. */
static void master_drive(struct master *m)
{
    struct axi4_pins *o = &m->out;
    if (!o->awvalid && m->aw_next < m->n_wr && !rng_chance(&m->rng, 30)) {
        const struct burst *w = &m->wr[m->aw_next];
        o->awvalid = 1;
        o->awid = (uint8_t)w->id;
        o->awaddr = w->word * 8u;
        o->awlen = (uint8_t)(w->len - 1);
        o->awsize = 3;
        o->awburst = AXI_BURST_INCR;
    }
    bool w_ready = m->w_burst < m->aw_next || (m->w_burst == m->aw_next && o->awvalid);
    if (!o->wvalid && m->w_burst < m->n_wr && w_ready && !rng_chance(&m->rng, 25)) {
        o->wvalid = 1;
        o->wdata = rng_next(&m->rng);
        o->wstrb = (uint8_t)rng_next(&m->rng);
        o->wlast = m->w_beat + 1 == m->wr[m->w_burst].len;
    }
    if (!o->arvalid && m->ar_next < m->n_rd && !rng_chance(&m->rng, 30)) {
        const struct burst *r = &m->rd[m->ar_next];
        o->arvalid = 1;
        o->arid = (uint8_t)r->id;
        o->araddr = r->word * 8u;
        o->arlen = (uint8_t)(r->len - 1);
        o->arsize = 3;
        o->arburst = AXI_BURST_INCR;
    }
    o->bready = !rng_chance(&m->rng, 20);
    o->rready = !rng_chance(&m->rng, 20);
}

struct scenario {
    const char *name;
    unsigned s_ps, m_ps; /* clock periods */
    unsigned jitter;     /* percent of the period, each edge */
};

static unsigned next_period(struct rng *r, unsigned p, unsigned jitter)
{
    if (!jitter)
        return p;
    unsigned span = p * jitter / 100;
    return p - span + rng_below(r, 2 * span + 1);
}

static bool run_scenario(const struct scenario *sc, unsigned rounds, unsigned bursts, uint64_t seed)
{
    static struct master m;
    memset(&m, 0, sizeof m);
    m.rng.s = seed * 0x9E3779B97F4A7C15ull + 1;
    struct ddr_model_config cfg = { .size_bytes = UINT64_C(1) << 20, .read_latency = 6 };
    struct ddr_model *ddr = ddr_model_create(&cfg);
    struct cdc_dut *d = cdc_dut_create(getenv("CDC_TRACE"));
    if (!ddr || !d) {
        fprintf(stderr, "cdc_test: out of memory\n");
        return false;
    }
    cdc_dut_reset(d);
    struct axi4_pins mp = { 0 }, sp = { 0 };
    ddr_model_drive(ddr, &mp);
    cdc_dut_set_m(d, &mp);
    unsigned long long t = 0, next_s = sc->s_ps, next_m = sc->m_ps / 2 + 1;
    uint64_t s_edges = 0, m_edges = 0;
    bool hang = false;
    for (unsigned round = 0; round < rounds && !hang; round++) {
        plan_round(&m, round, bursts);
        master_drive(&m);
        cdc_dut_set_s(d, &m.out);
        unsigned idle = 0;
        while (!round_done(&m)) {
            bool se = next_s <= next_m, me = next_m <= next_s;
            t = se ? next_s : next_m;
            cdc_dut_eval(d);
            bool moved = false;
            if (se) {
                cdc_dut_get_s(d, &sp);
                moved = master_edge(&m, &sp);
            }
            if (me) {
                cdc_dut_get_m(d, &mp);
                ddr_model_clock(ddr, &mp);
            }
            cdc_dut_edge(d, se, me, t);
            if (se) {
                master_drive(&m);
                cdc_dut_set_s(d, &m.out);
                next_s += next_period(&m.rng, sc->s_ps, sc->jitter);
                s_edges++;
            }
            if (me) {
                ddr_model_drive(ddr, &mp);
                cdc_dut_set_m(d, &mp);
                next_m += next_period(&m.rng, sc->m_ps, sc->jitter);
                m_edges++;
            }
            idle = moved ? 0 : idle + 1;
            if (idle > HANG_EDGES) {
                FAIL(&m, "round %u: no progress for %u edges (B %u of %u, reads %u of %u)", round,
                     HANG_EDGES, m.b_done, m.n_wr, m.r_done, m.n_rd);
                hang = true;
                break;
            }
        }
    }
    struct ddr_model_stats st = ddr_model_get_stats(ddr);
    for (unsigned id = 0; id < IDS; id++) {
        if (m.b_wait[id] || m.r_head[id] != m.r_tail[id])
            FAIL(&m, "ID %u: %u writes and %u reads still outstanding", id, m.b_wait[id],
                 m.r_tail[id] - m.r_head[id]);
    }
    if (st.write_beats != m.w_beats || st.read_beats != m.r_beats)
        FAIL(&m,
             "beats: model took %" PRIu64 " W and gave %" PRIu64 " R, master sent %" PRIu64
             " and took %" PRIu64,
             st.write_beats, st.read_beats, m.w_beats, m.r_beats);
    if (ddr_model_protocol_errors(ddr))
        FAIL(&m, "DDR model: %s", ddr_model_last_protocol_error(ddr));
    printf("%s %-28s s %5u ps, m %5u ps, jitter %2u%%: %6" PRIu64 " s and %6" PRIu64
           " m edges, %" PRIu64 " W and %" PRIu64 " R beats\n",
           m.errors ? "FAIL" : "PASS", sc->name, sc->s_ps, sc->m_ps, sc->jitter, s_edges, m_edges,
           m.w_beats, m.r_beats);
    cdc_dut_destroy(d);
    ddr_model_destroy(ddr);
    return m.errors == 0;
}

int main(int argc, char **argv)
{
    unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 40;
    static const struct scenario scenarios[] = {
        { "SoC 30 MHz, DDR 48 MHz", 33333, 20833, 0 },
        { "SoC 48 MHz, DDR 30 MHz", 20833, 33333, 0 },
        { "same period, in phase", 10000, 10000, 0 },
        { "same period, jittered", 10000, 10000, 20 },
        { "s 7x slower", 70000, 10000, 0 },
        { "m 7x slower", 10000, 70000, 0 },
        { "30 vs 48 MHz, jittered", 33333, 20833, 30 },
    };
    unsigned failed = 0, n = sizeof scenarios / sizeof scenarios[0];
    for (unsigned i = 0; i < n; i++)
        failed += !run_scenario(&scenarios[i], rounds, 16, 1 + i);
    printf("cdc: %u scenarios, %u failed: %s\n", n, failed, failed ? "FAIL" : "PASS");
    return failed ? 1 : 0;
}
