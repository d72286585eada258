// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests for sim/ddr_model.c, the cycle-level AXI4 slave DDR model.
 *
 * A small scripted master (the "bench") presents queued AR/AW/W requests,
 * one per channel per cycle, and records every R and B handshake with its
 * cycle number. Expected cycles and data are worked out by hand in each test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ddr_model.h"
#include "sparse_mem.h"

#define MAX_REQUESTS   32
#define MAX_W_BEATS    600
#define MAX_R_BEATS    1024
#define TIMEOUT_CYCLES 2000

struct address_request {
    uint32_t addr;
    uint8_t id, len, size, burst;
    uint64_t not_before; /* the master waits until this cycle to raise valid */
};

struct w_request {
    uint64_t data;
    uint8_t strb;
    bool last;
};

struct r_seen {
    uint64_t cycle, data;
    uint8_t id, resp;
    bool last;
};

struct b_seen {
    uint64_t cycle;
    uint8_t id, resp;
};

struct bench {
    struct ddr_model *m;
    struct axi4_pins pins; /* after bench_cycle: what was on the bus that cycle */
    uint64_t cycle;
    bool rready, bready;

    struct address_request ar[MAX_REQUESTS], aw[MAX_REQUESTS];
    unsigned ar_count, ar_next, aw_count, aw_next;
    uint64_t ar_accepted[MAX_REQUESTS], aw_accepted[MAX_REQUESTS];

    struct w_request w[MAX_W_BEATS];
    unsigned w_count, w_next;
    uint64_t w_accepted[MAX_W_BEATS];

    struct r_seen r[MAX_R_BEATS];
    unsigned r_count;
    struct b_seen b[MAX_REQUESTS];
    unsigned b_count;
};

/* ------------------------------------------------------------------ bench */

static struct bench *bench_create(const struct ddr_model_config *cfg)
{
    struct bench *tb = test_calloc(1, sizeof *tb);
    tb->m = ddr_model_create(cfg);
    assert_non_null(tb->m);
    tb->rready = true;
    tb->bready = true;
    return tb;
}

static void bench_destroy(struct bench *tb)
{
    ddr_model_destroy(tb->m);
    test_free(tb);
}

static struct sparse_mem *bench_mem(struct bench *tb)
{
    return ddr_model_mem(tb->m);
}

static const struct address_request *pending(const struct address_request *queue, unsigned next,
                                             unsigned count, uint64_t cycle)
{
    if (next == count || queue[next].not_before > cycle)
        return NULL;
    return &queue[next];
}

static void present_master_outputs(struct bench *tb)
{
    struct axi4_pins *p = &tb->pins;
    const struct address_request *ar = pending(tb->ar, tb->ar_next, tb->ar_count, tb->cycle);
    const struct address_request *aw = pending(tb->aw, tb->aw_next, tb->aw_count, tb->cycle);
    static const struct address_request idle = { 0 };

    p->arvalid = ar != NULL;
    ar = ar != NULL ? ar : &idle;
    p->araddr = ar->addr, p->arid = ar->id, p->arlen = ar->len;
    p->arsize = ar->size, p->arburst = ar->burst;

    p->awvalid = aw != NULL;
    aw = aw != NULL ? aw : &idle;
    p->awaddr = aw->addr, p->awid = aw->id, p->awlen = aw->len;
    p->awsize = aw->size, p->awburst = aw->burst;

    p->wvalid = tb->w_next < tb->w_count;
    if (p->wvalid) {
        p->wdata = tb->w[tb->w_next].data;
        p->wstrb = tb->w[tb->w_next].strb;
        p->wlast = tb->w[tb->w_next].last;
    }
    p->rready = tb->rready;
    p->bready = tb->bready;
}

static void record_handshakes(struct bench *tb)
{
    const struct axi4_pins *p = &tb->pins;
    if (p->arvalid && p->arready)
        tb->ar_accepted[tb->ar_next++] = tb->cycle;
    if (p->awvalid && p->awready)
        tb->aw_accepted[tb->aw_next++] = tb->cycle;
    if (p->wvalid && p->wready)
        tb->w_accepted[tb->w_next++] = tb->cycle;
    if (p->rvalid && p->rready) {
        assert_true(tb->r_count < MAX_R_BEATS);
        tb->r[tb->r_count++] = (struct r_seen){ tb->cycle, p->rdata, p->rid, p->rresp, p->rlast };
    }
    if (p->bvalid && p->bready) {
        assert_true(tb->b_count < MAX_REQUESTS);
        tb->b[tb->b_count++] = (struct b_seen){ tb->cycle, p->bid, p->bresp };
    }
}

static void bench_cycle(struct bench *tb)
{
    present_master_outputs(tb);
    ddr_model_drive(tb->m, &tb->pins);
    record_handshakes(tb);
    ddr_model_clock(tb->m, &tb->pins);
    tb->cycle++;
}

static void bench_run(struct bench *tb, unsigned cycles)
{
    for (unsigned i = 0; i < cycles; i++)
        bench_cycle(tb);
}

static void bench_run_until_r_beats(struct bench *tb, unsigned beats)
{
    uint64_t deadline = tb->cycle + TIMEOUT_CYCLES;
    while (tb->r_count < beats && tb->cycle < deadline)
        bench_cycle(tb);
    assert_int_equal(tb->r_count, beats);
}

static void bench_run_until_b_responses(struct bench *tb, unsigned responses)
{
    uint64_t deadline = tb->cycle + TIMEOUT_CYCLES;
    while (tb->b_count < responses && tb->cycle < deadline)
        bench_cycle(tb);
    assert_int_equal(tb->b_count, responses);
}

static unsigned bench_read_at(struct bench *tb, uint64_t not_before, uint8_t id, uint32_t addr,
                              uint8_t len, uint8_t size, uint8_t burst)
{
    assert_true(tb->ar_count < MAX_REQUESTS);
    tb->ar[tb->ar_count] = (struct address_request){ addr, id, len, size, burst, not_before };
    return tb->ar_count++;
}

static unsigned bench_read(struct bench *tb, uint8_t id, uint32_t addr, uint8_t len, uint8_t size,
                           uint8_t burst)
{
    return bench_read_at(tb, 0, id, addr, len, size, burst);
}

static void bench_queue_w_beat(struct bench *tb, uint64_t data, uint8_t strb, bool last)
{
    assert_true(tb->w_count < MAX_W_BEATS);
    tb->w[tb->w_count++] = (struct w_request){ data, strb, last };
}

/* Queues the AW and its len + 1 W beats (wlast on the final one). strb NULL means all lanes. */
static void bench_write_at(struct bench *tb, uint64_t aw_not_before, uint8_t id, uint32_t addr,
                           uint8_t len, uint8_t size, uint8_t burst, const uint64_t *data,
                           const uint8_t *strb)
{
    assert_true(tb->aw_count < MAX_REQUESTS);
    tb->aw[tb->aw_count++] = (struct address_request){ addr, id, len, size, burst, aw_not_before };
    for (unsigned i = 0; i <= len; i++)
        bench_queue_w_beat(tb, data[i], strb != NULL ? strb[i] : 0xFF, i == len);
}

static void bench_write(struct bench *tb, uint8_t id, uint32_t addr, uint8_t len, uint8_t size,
                        uint8_t burst, const uint64_t *data, const uint8_t *strb)
{
    bench_write_at(tb, 0, id, addr, len, size, burst, data, strb);
}

static void backdoor_fill(struct bench *tb, uint64_t addr, const uint64_t *words, unsigned count)
{
    for (unsigned i = 0; i < count; i++)
        sparse_mem_write_u64(bench_mem(tb), addr + 8u * i, words[i]);
}

static uint64_t backdoor_word(struct bench *tb, uint64_t addr)
{
    return sparse_mem_read_u64(bench_mem(tb), addr);
}

static void assert_beat(const struct r_seen *beat, uint64_t cycle, uint8_t id, uint64_t data,
                        uint8_t resp, bool last)
{
    assert_int_equal(beat->cycle, cycle);
    assert_int_equal(beat->id, id);
    assert_true(beat->data == data);
    assert_int_equal(beat->resp, resp);
    assert_int_equal(beat->last, last);
}

static const struct ddr_model_config latency5 = { .read_latency = 5 };

/* ------------------------------------------------------------------ read timing */

static void first_beat_arrives_exactly_at_accept_plus_default_latency(void **state)
{
    (void)state;
    struct bench *tb = bench_create(NULL);
    sparse_mem_write_u64(bench_mem(tb), 0x1000, 0xCAFEF00DDEADBEEFu);
    bench_read(tb, 3, 0x1000, 0, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 1);

    assert_int_equal(tb->ar_accepted[0], 0);
    assert_beat(&tb->r[0], 40, 3, 0xCAFEF00DDEADBEEFu, AXI_RESP_OKAY, true);
    bench_destroy(tb);
}

static void first_beat_arrives_exactly_at_accept_plus_configured_latency(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    sparse_mem_write_u64(bench_mem(tb), 0x40, 0x0123456789ABCDEFu);
    bench_read_at(tb, 7, 9, 0x40, 0, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 1);

    assert_int_equal(tb->ar_accepted[0], 7);
    assert_beat(&tb->r[0], 12, 9, 0x0123456789ABCDEFu, AXI_RESP_OKAY, true);
    bench_destroy(tb);
}

static void incr_burst_of_8_streams_on_consecutive_cycles(void **state)
{
    (void)state;
    struct bench *tb = bench_create(NULL);
    const uint64_t words[8] = { 0x1010101010101010u, 0x2020202020202020u, 0x3030303030303030u,
                                0x4040404040404040u, 0x5050505050505050u, 0x6060606060606060u,
                                0x7070707070707070u, 0x8080808080808080u };
    backdoor_fill(tb, 0x2000, words, 8);
    bench_read_at(tb, 3, 5, 0x2000, 7, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 8);

    for (unsigned i = 0; i < 8; i++)
        assert_beat(&tb->r[i], 43 + i, 5, words[i], AXI_RESP_OKAY, i == 7);
    bench_destroy(tb);
}

static void longest_burst_of_256_beats_streams_without_gaps(void **state)
{
    (void)state;
    struct bench *tb = bench_create(NULL);
    for (uint64_t i = 0; i < 256; i++)
        sparse_mem_write_u64(bench_mem(tb), 0x10000 + 8 * i, i * 0x0101010101u + 7);
    bench_read(tb, 1, 0x10000, 255, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 256);

    for (uint64_t i = 0; i < 256; i++)
        assert_beat(&tb->r[i], 40 + i, 1, i * 0x0101010101u + 7, AXI_RESP_OKAY, i == 255);
    bench_destroy(tb);
}

static void rready_low_holds_the_beat_and_its_data(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[4] = { 0xA0, 0xA1, 0xA2, 0xA3 };
    backdoor_fill(tb, 0x800, words, 4);
    bench_read(tb, 2, 0x800, 3, 3, AXI_BURST_INCR);
    tb->rready = false;

    /* Cycles 0-4 wait out the latency; beat 0 is on the bus from cycle 5. */
    bench_run(tb, 5);
    assert_false(tb->pins.rvalid);
    sparse_mem_write_u64(bench_mem(tb), 0x800, 0xBAD);
    for (unsigned i = 0; i < 4; i++) {
        bench_cycle(tb);
        assert_true(tb->pins.rvalid);
        assert_true(tb->pins.rdata == 0xA0); /* the memory change must not leak into a held beat */
        assert_false(tb->pins.rlast);
    }
    assert_int_equal(tb->r_count, 0);

    /* From cycle 9, take a beat every other cycle. */
    for (unsigned i = 0; tb->r_count < 4 && i < 100; i++) {
        tb->rready = (i % 2) == 0;
        bench_cycle(tb);
    }
    assert_beat(&tb->r[0], 9, 2, 0xA0, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[1], 11, 2, 0xA1, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[2], 13, 2, 0xA2, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[3], 15, 2, 0xA3, AXI_RESP_OKAY, true);
    bench_destroy(tb);
}

static void outstanding_reads_stream_back_in_order_without_a_bubble(void **state)
{
    (void)state;
    struct bench *tb = bench_create(NULL);
    const uint64_t first[4] = { 0x11, 0x12, 0x13, 0x14 };
    const uint64_t second[4] = { 0x21, 0x22, 0x23, 0x24 };
    backdoor_fill(tb, 0x3000, first, 4);
    backdoor_fill(tb, 0x5000, second, 4);
    bench_read(tb, 0xA, 0x3000, 3, 3, AXI_BURST_INCR);
    bench_read(tb, 0x5, 0x5000, 3, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 8);

    /* Accepted in cycles 0 and 1; the second is due at 41 but queues behind the first. */
    assert_int_equal(tb->ar_accepted[0], 0);
    assert_int_equal(tb->ar_accepted[1], 1);
    for (unsigned i = 0; i < 4; i++) {
        assert_beat(&tb->r[i], 40 + i, 0xA, first[i], AXI_RESP_OKAY, i == 3);
        assert_beat(&tb->r[4 + i], 44 + i, 0x5, second[i], AXI_RESP_OKAY, i == 3);
    }
    bench_destroy(tb);
}

static void each_read_waits_for_its_own_latency(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&(struct ddr_model_config){ .read_latency = 10 });
    bench_read(tb, 1, 0x100, 0, 3, AXI_BURST_INCR);
    bench_read_at(tb, 3, 2, 0x108, 0, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 2);

    assert_int_equal(tb->r[0].cycle, 10);
    assert_int_equal(tb->r[1].cycle, 13); /* accepted at 3, not streamed right after the first */
    bench_destroy(tb);
}

static void arready_drops_when_the_read_queue_is_full(void **state)
{
    (void)state;
    struct bench *tb =
        bench_create(&(struct ddr_model_config){ .read_latency = 20, .max_outstanding_reads = 2 });
    for (uint8_t id = 0; id < 3; id++)
        bench_read(tb, id, 0x100, 0, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 3);

    /* The first burst leaves the queue with its last beat at cycle 20, so the
     * third AR is accepted at 21 and answered 20 cycles later. */
    assert_int_equal(tb->ar_accepted[0], 0);
    assert_int_equal(tb->ar_accepted[1], 1);
    assert_int_equal(tb->ar_accepted[2], 21);
    assert_int_equal(tb->r[0].cycle, 20);
    assert_int_equal(tb->r[1].cycle, 21);
    assert_int_equal(tb->r[2].cycle, 41);
    bench_destroy(tb);
}

static void slave_outputs_do_not_depend_on_master_inputs(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    bench_read(tb, 1, 0x100, 3, 3, AXI_BURST_INCR);
    const uint64_t data[2] = { 1, 2 };
    bench_write(tb, 2, 0x200, 1, 3, AXI_BURST_INCR, data, NULL);
    tb->bready = false;
    bench_run(tb, 6); /* a read beat and a write response are pending now */

    struct axi4_pins quiet, busy;
    memset(&quiet, 0, sizeof quiet);
    memset(&busy, 0xFF, sizeof busy);
    ddr_model_drive(tb->m, &quiet);
    ddr_model_drive(tb->m, &busy);

    assert_int_equal(quiet.rvalid, 1);
    assert_int_equal(quiet.bvalid, 1);
    assert_int_equal(quiet.arready, busy.arready);
    assert_int_equal(quiet.awready, busy.awready);
    assert_int_equal(quiet.wready, busy.wready);
    assert_int_equal(quiet.rvalid, busy.rvalid);
    assert_int_equal(quiet.rid, busy.rid);
    assert_true(quiet.rdata == busy.rdata);
    assert_int_equal(quiet.rresp, busy.rresp);
    assert_int_equal(quiet.rlast, busy.rlast);
    assert_int_equal(quiet.bvalid, busy.bvalid);
    assert_int_equal(quiet.bid, busy.bid);
    assert_int_equal(quiet.bresp, busy.bresp);
    bench_destroy(tb);
}

/* ------------------------------------------------------------------ burst types */

static void wrap_burst_of_4_wraps_inside_its_32_byte_window(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[4] = { 0xB0, 0xB1, 0xB2, 0xB3 };
    backdoor_fill(tb, 0x1000, words, 4);
    bench_read(tb, 3, 0x1010, 3, 3, AXI_BURST_WRAP); /* window 0x1000-0x101F */

    bench_run_until_r_beats(tb, 4);

    assert_beat(&tb->r[0], 5, 3, 0xB2, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[1], 6, 3, 0xB3, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[2], 7, 3, 0xB0, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[3], 8, 3, 0xB1, AXI_RESP_OKAY, true);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 0);
    bench_destroy(tb);
}

static void wrap_burst_of_8_starting_at_the_last_word(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[8] = { 100, 101, 102, 103, 104, 105, 106, 107 };
    backdoor_fill(tb, 0x3000, words, 8);
    bench_read(tb, 4, 0x3038, 7, 3, AXI_BURST_WRAP); /* window 0x3000-0x303F */

    bench_run_until_r_beats(tb, 8);

    const uint64_t expected[8] = { 107, 100, 101, 102, 103, 104, 105, 106 };
    for (unsigned i = 0; i < 8; i++)
        assert_beat(&tb->r[i], 5 + i, 4, expected[i], AXI_RESP_OKAY, i == 7);
    bench_destroy(tb);
}

static void narrow_wrap_burst_uses_the_lanes_of_each_address(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[2] = { 0x1111111122222222u, 0x3333333344444444u };
    backdoor_fill(tb, 0x100, words, 2);
    /* Four 4-byte beats wrapping in 0x100-0x10F: 0x104, 0x108, 0x10C, 0x100. */
    bench_read(tb, 6, 0x104, 3, 2, AXI_BURST_WRAP);

    bench_run_until_r_beats(tb, 4);

    assert_true(tb->r[0].data == 0x1111111100000000u);
    assert_true(tb->r[1].data == 0x0000000044444444u);
    assert_true(tb->r[2].data == 0x3333333300000000u);
    assert_true(tb->r[3].data == 0x0000000022222222u);
    assert_true(tb->r[3].last);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 0);
    bench_destroy(tb);
}

static void fixed_burst_reads_the_same_address_every_beat(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[2] = { 0x55, 0x66 };
    backdoor_fill(tb, 0x500, words, 2);
    bench_read(tb, 1, 0x500, 2, 3, AXI_BURST_FIXED);

    bench_run_until_r_beats(tb, 3);

    for (unsigned i = 0; i < 3; i++)
        assert_beat(&tb->r[i], 5 + i, 1, 0x55, AXI_RESP_OKAY, i == 2);
    bench_destroy(tb);
}

static void fixed_burst_write_leaves_the_last_beat_in_memory(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t data[3] = { 0xAAA, 0xBBB, 0xCCC };
    bench_write(tb, 1, 0x500, 2, 3, AXI_BURST_FIXED, data, NULL);

    bench_run_until_b_responses(tb, 1);

    assert_true(backdoor_word(tb, 0x500) == 0xCCC);
    assert_true(backdoor_word(tb, 0x508) == 0);
    bench_destroy(tb);
}

static void narrow_read_puts_data_on_the_lanes_of_its_address(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    sparse_mem_write_u64(bench_mem(tb), 0x200, 0x1122334455667788u);
    bench_read(tb, 1, 0x204, 0, 2, AXI_BURST_INCR); /* 4 bytes at 0x204: lanes 4-7 */
    bench_read(tb, 2, 0x201, 0, 0, AXI_BURST_INCR); /* 1 byte at 0x201: lane 1 */

    bench_run_until_r_beats(tb, 2);

    assert_true(tb->r[0].data == 0x1122334400000000u);
    assert_true(tb->r[1].data == 0x0000000000007700u);
    bench_destroy(tb);
}

static void narrow_incr_burst_walks_across_lanes_and_words(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[2] = { 0x0706050403020100u, 0x0F0E0D0C0B0A0908u };
    backdoor_fill(tb, 0x300, words, 2);
    /* 2-byte beats at 0x306, 0x308, 0x30A, 0x30C. */
    bench_read(tb, 1, 0x306, 3, 1, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 4);

    assert_true(tb->r[0].data == 0x0706000000000000u);
    assert_true(tb->r[1].data == 0x0000000000000908u);
    assert_true(tb->r[2].data == 0x000000000B0A0000u);
    assert_true(tb->r[3].data == 0x00000D0C00000000u);
    bench_destroy(tb);
}

static void unaligned_incr_read_starts_mid_word_then_aligns(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[2] = { 0x0706050403020100u, 0x0F0E0D0C0B0A0908u };
    backdoor_fill(tb, 0x600, words, 2);
    bench_read(tb, 1, 0x603, 1, 3, AXI_BURST_INCR); /* beat 0: 0x603-0x607, beat 1: 0x608-0x60F */

    bench_run_until_r_beats(tb, 2);

    assert_true(tb->r[0].data == 0x0706050403000000u);
    assert_true(tb->r[1].data == 0x0F0E0D0C0B0A0908u);
    bench_destroy(tb);
}

static void incr_burst_crossing_4k_continues_linearly_and_is_reported(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    sparse_mem_write_u64(bench_mem(tb), 0xFF8, 0xF8);
    sparse_mem_write_u64(bench_mem(tb), 0x1000, 0x100);
    bench_read(tb, 1, 0xFF8, 1, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 2);

    assert_beat(&tb->r[0], 5, 1, 0xF8, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[1], 6, 1, 0x100, AXI_RESP_OKAY, true);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 1);
    bench_destroy(tb);
}

/* ------------------------------------------------------------------ writes */

static void narrow_write_with_strobes_touches_only_strobed_bytes(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t background[2] = { 0xAAAAAAAAAAAAAAAAu, 0xBBBBBBBBBBBBBBBBu };
    backdoor_fill(tb, 0x400, background, 2);
    const uint64_t data[1] = { 0x1122334455667788u };
    const uint8_t strb[1] = { 0x30 }; /* 4-byte transfer at 0x404 (lanes 4-7), strobing 4 and 5 */
    bench_write(tb, 7, 0x404, 0, 2, AXI_BURST_INCR, data, strb);

    bench_run_until_b_responses(tb, 1);

    assert_int_equal(tb->b[0].id, 7);
    assert_int_equal(tb->b[0].resp, AXI_RESP_OKAY);
    assert_true(backdoor_word(tb, 0x400) == 0xAAAA3344AAAAAAAAu);
    assert_true(backdoor_word(tb, 0x408) == 0xBBBBBBBBBBBBBBBBu);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 0);
    bench_destroy(tb);
}

static void strobes_outside_a_narrow_transfer_are_ignored_and_reported(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t data[1] = { 0x1122334455667788u };
    const uint8_t strb[1] = { 0xFF }; /* only lanes 0-3 belong to a 4-byte transfer at 0x400 */
    bench_write(tb, 0, 0x400, 0, 2, AXI_BURST_INCR, data, strb);

    bench_run_until_b_responses(tb, 1);

    assert_true(backdoor_word(tb, 0x400) == 0x0000000055667788u);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 1);
    bench_destroy(tb);
}

static void unaligned_write_leaves_the_bytes_below_its_address(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t background[2] = { 0xAAAAAAAAAAAAAAAAu, 0xAAAAAAAAAAAAAAAAu };
    backdoor_fill(tb, 0x600, background, 2);
    const uint64_t data[2] = { 0x0706050403020100u, 0x0F0E0D0C0B0A0908u };
    const uint8_t strb[2] = { 0xFE, 0xFF };
    bench_write(tb, 0, 0x601, 1, 3, AXI_BURST_INCR, data, strb);

    bench_run_until_b_responses(tb, 1);

    assert_true(backdoor_word(tb, 0x600) == 0x07060504030201AAu);
    assert_true(backdoor_word(tb, 0x608) == 0x0F0E0D0C0B0A0908u);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 0);
    bench_destroy(tb);
}

static void write_response_follows_the_last_beat_and_the_data_is_readable(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t data[4] = { 0xD0, 0xD1, 0xD2, 0xD3 };
    bench_write(tb, 0xC, 0x7000, 3, 3, AXI_BURST_INCR, data, NULL);

    bench_run_until_b_responses(tb, 1);

    /* AW and W all start in cycle 0: beats in cycles 0-3, B presented in 4. */
    assert_int_equal(tb->aw_accepted[0], 0);
    assert_int_equal(tb->w_accepted[3], 3);
    assert_int_equal(tb->b[0].cycle, 4);
    assert_int_equal(tb->b[0].id, 0xC);
    assert_int_equal(tb->b[0].resp, AXI_RESP_OKAY);

    bench_read_at(tb, tb->cycle, 1, 0x7000, 3, 3, AXI_BURST_INCR);
    bench_run_until_r_beats(tb, 4);
    for (unsigned i = 0; i < 4; i++)
        assert_true(tb->r[i].data == data[i]);
    bench_destroy(tb);
}

static void write_data_may_arrive_before_its_address(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t data[3] = { 0xE0, 0xE1, 0xE2 };
    bench_write_at(tb, 6, 3, 0x7100, 2, 3, AXI_BURST_INCR, data, NULL);

    bench_run_until_b_responses(tb, 1);

    assert_int_equal(tb->w_accepted[0], 0);
    assert_int_equal(tb->w_accepted[2], 2);
    assert_int_equal(tb->aw_accepted[0], 6);
    assert_int_equal(tb->b[0].cycle, 7);
    assert_int_equal(tb->b[0].id, 3);
    for (unsigned i = 0; i < 3; i++)
        assert_true(backdoor_word(tb, 0x7100 + 8 * i) == data[i]);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 0);
    bench_destroy(tb);
}

static void write_responses_come_back_in_order_with_their_ids(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t first[2] = { 1, 2 }, second[1] = { 3 };
    bench_write(tb, 0x9, 0x7200, 1, 3, AXI_BURST_INCR, first, NULL);
    bench_write(tb, 0x4, 0x7300, 0, 3, AXI_BURST_INCR, second, NULL);

    bench_run_until_b_responses(tb, 2);

    /* W beats go in cycles 0, 1 (first burst) and 2 (second). */
    assert_int_equal(tb->b[0].id, 0x9);
    assert_int_equal(tb->b[0].cycle, 2);
    assert_int_equal(tb->b[1].id, 0x4);
    assert_int_equal(tb->b[1].cycle, 3);
    assert_true(backdoor_word(tb, 0x7208) == 2);
    assert_true(backdoor_word(tb, 0x7300) == 3);
    bench_destroy(tb);
}

static void misplaced_wlast_is_reported_and_awlen_is_followed(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    tb->aw[tb->aw_count++] = (struct address_request){ 0x7400, 1, 3, 3, AXI_BURST_INCR, 0 };
    bench_queue_w_beat(tb, 0xF0, 0xFF, false);
    bench_queue_w_beat(tb, 0xF1, 0xFF, true); /* early */
    bench_queue_w_beat(tb, 0xF2, 0xFF, false);
    bench_queue_w_beat(tb, 0xF3, 0xFF, false); /* missing */

    bench_run_until_b_responses(tb, 1);

    assert_int_equal(tb->b[0].cycle, 4);
    assert_true(backdoor_word(tb, 0x7418) == 0xF3);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 2);
    assert_non_null(ddr_model_last_protocol_error(tb->m));
    bench_destroy(tb);
}

/* ------------------------------------------------------------------ errors */

static const struct ddr_model_config small_ddr = { .size_bytes = 0xFF10, .read_latency = 5 };

static void read_past_the_end_gets_decerr_on_every_beat(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&small_ddr);
    sparse_mem_write_u64(bench_mem(tb), 0xFF00, 0x1234);
    bench_read(tb, 1, 0xFF00, 3, 3, AXI_BURST_INCR); /* 0xFF00-0xFF1F straddles the end */
    bench_read(tb, 2, 0x80000000u, 1, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 6);

    for (unsigned i = 0; i < 4; i++)
        assert_beat(&tb->r[i], 5 + i, 1, 0, AXI_RESP_DECERR, i == 3);
    for (unsigned i = 4; i < 6; i++)
        assert_beat(&tb->r[i], 5 + i, 2, 0, AXI_RESP_DECERR, i == 5);
    bench_destroy(tb);
}

static void write_past_the_end_gets_decerr_and_changes_nothing(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&small_ddr);
    const uint64_t background[2] = { 0x1111, 0x2222 };
    backdoor_fill(tb, 0xFF00, background, 2);
    const uint64_t data[4] = { 0xE0, 0xE1, 0xE2, 0xE3 };
    bench_write(tb, 3, 0xFF00, 3, 3, AXI_BURST_INCR, data, NULL);
    bench_write(tb, 4, 0x20000, 0, 3, AXI_BURST_INCR, data, NULL);

    bench_run_until_b_responses(tb, 2);

    assert_int_equal(tb->b[0].id, 3);
    assert_int_equal(tb->b[0].resp, AXI_RESP_DECERR);
    assert_int_equal(tb->b[1].id, 4);
    assert_int_equal(tb->b[1].resp, AXI_RESP_DECERR);
    assert_true(backdoor_word(tb, 0xFF00) == 0x1111);
    assert_true(backdoor_word(tb, 0xFF08) == 0x2222);
    assert_int_equal(sparse_mem_chunks_allocated(bench_mem(tb)), 1);
    bench_destroy(tb);
}

static void injected_read_error_gives_slverr_on_the_covered_beats(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[4] = { 0x40, 0x41, 0x42, 0x43 };
    backdoor_fill(tb, 0x800, words, 4);
    assert_true(ddr_model_inject_read_error(tb->m, 0x80C, 0x810)); /* upper half of word 1 */
    assert_false(ddr_model_inject_read_error(tb->m, 0x900, 0x900));
    bench_read(tb, 1, 0x800, 3, 3, AXI_BURST_INCR);

    bench_run_until_r_beats(tb, 4);

    assert_beat(&tb->r[0], 5, 1, 0x40, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[1], 6, 1, 0, AXI_RESP_SLVERR, false);
    assert_beat(&tb->r[2], 7, 1, 0x42, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[3], 8, 1, 0x43, AXI_RESP_OKAY, true);

    ddr_model_clear_errors(tb->m);
    bench_read_at(tb, tb->cycle, 1, 0x808, 0, 3, AXI_BURST_INCR);
    bench_run_until_r_beats(tb, 5);
    assert_int_equal(tb->r[4].resp, AXI_RESP_OKAY);
    assert_true(tb->r[4].data == 0x41);
    bench_destroy(tb);
}

static void injected_write_error_fails_the_next_bursts_touching_the_window(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t background[4] = { 0x11, 0x12, 0x13, 0x14 };
    backdoor_fill(tb, 0x1000, background, 4);
    assert_false(ddr_model_inject_write_error(tb->m, 0x1010, 0x1010, 1));
    assert_false(ddr_model_inject_error(tb->m, 0, 0x1000, 0x1010, 1));
    assert_false(ddr_model_inject_error(tb->m, 4, 0x1000, 0x1010, 1));
    /* The window is the last byte of word 2; two bursts fail, then it goes. */
    assert_true(ddr_model_inject_write_error(tb->m, 0x1017, 0x1018, 2));
    const uint64_t data[4] = { 0xA0, 0xA1, 0xA2, 0xA3 };
    bench_write(tb, 1, 0x1000, 1, 3, AXI_BURST_INCR, data, NULL); /* words 0-1: outside */
    const uint64_t lost[4] = { 0xB0, 0xB1, 0xB2, 0xB3 };
    bench_write(tb, 2, 0x1000, 3, 3, AXI_BURST_INCR, lost, NULL);     /* words 0-3: fails */
    bench_write(tb, 3, 0x1010, 0, 3, AXI_BURST_INCR, data + 2, NULL); /* word 2: fails */
    bench_write(tb, 4, 0x1010, 1, 3, AXI_BURST_INCR, data + 2, NULL); /* words 2-3: spent, OK */

    bench_run_until_b_responses(tb, 4);

    assert_int_equal(tb->b[0].id, 1);
    assert_int_equal(tb->b[0].resp, AXI_RESP_OKAY);
    assert_int_equal(tb->b[1].id, 2);
    assert_int_equal(tb->b[1].resp, AXI_RESP_SLVERR);
    assert_int_equal(tb->b[2].id, 3);
    assert_int_equal(tb->b[2].resp, AXI_RESP_SLVERR);
    assert_int_equal(tb->b[3].id, 4);
    assert_int_equal(tb->b[3].resp, AXI_RESP_OKAY);
    /* Words 0-1 from the first burst (the failed one wrote none of its
       beats), 2-3 from the last. */
    assert_true(backdoor_word(tb, 0x1000) == 0xA0);
    assert_true(backdoor_word(tb, 0x1008) == 0xA1);
    assert_true(backdoor_word(tb, 0x1010) == 0xA2);
    assert_true(backdoor_word(tb, 0x1018) == 0xA3);
    assert_int_equal(ddr_model_get_stats(tb->m).injected_write_bursts, 2);
    assert_int_equal(ddr_model_get_stats(tb->m).injected_read_beats, 0);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 0);
    bench_destroy(tb);
}

static void unlimited_write_error_fails_every_burst_until_cleared(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t data[1] = { 0x77 };
    assert_true(ddr_model_inject_write_error(tb->m, 0x2000, 0x3000, 0));
    for (uint8_t i = 0; i < 3; i++)
        bench_write(tb, i, 0x2000 + 8u * i, 0, 3, AXI_BURST_INCR, data, NULL);
    bench_run_until_b_responses(tb, 3);
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(tb->b[i].resp, AXI_RESP_SLVERR);
        assert_true(backdoor_word(tb, 0x2000 + 8u * i) == 0);
    }
    /* Reads are not touched by a write window. */
    bench_read(tb, 5, 0x2000, 0, 3, AXI_BURST_INCR);
    bench_run_until_r_beats(tb, 1);
    assert_int_equal(tb->r[0].resp, AXI_RESP_OKAY);

    ddr_model_clear_errors(tb->m);
    bench_write_at(tb, tb->cycle, 6, 0x2000, 0, 3, AXI_BURST_INCR, data, NULL);
    bench_run_until_b_responses(tb, 4);
    assert_int_equal(tb->b[3].resp, AXI_RESP_OKAY);
    assert_true(backdoor_word(tb, 0x2000) == 0x77);
    assert_int_equal(ddr_model_get_stats(tb->m).injected_write_bursts, 3);
    bench_destroy(tb);
}

static void counted_read_error_fails_the_covered_beats_of_the_next_bursts(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[2] = { 0x51, 0x52 };
    backdoor_fill(tb, 0x3000, words, 2);
    /* Both kinds, one burst: the read takes it, the write after is fine. */
    assert_true(ddr_model_inject_error(tb->m, DDR_MODEL_FAULT_READ | DDR_MODEL_FAULT_WRITE, 0x3008,
                                       0x3010, 1));
    bench_read(tb, 1, 0x3000, 1, 3, AXI_BURST_INCR);
    bench_read(tb, 2, 0x3000, 1, 3, AXI_BURST_INCR);
    bench_run_until_r_beats(tb, 4);
    assert_beat(&tb->r[0], 5, 1, 0x51, AXI_RESP_OKAY, false);
    assert_beat(&tb->r[1], 6, 1, 0, AXI_RESP_SLVERR, true);
    assert_int_equal(tb->r[2].resp, AXI_RESP_OKAY);
    assert_int_equal(tb->r[3].resp, AXI_RESP_OKAY);
    assert_true(tb->r[3].data == 0x52);
    const uint64_t data[1] = { 0x99 };
    bench_write_at(tb, tb->cycle, 3, 0x3008, 0, 3, AXI_BURST_INCR, data, NULL);
    bench_run_until_b_responses(tb, 1);
    assert_int_equal(tb->b[0].resp, AXI_RESP_OKAY);
    assert_true(backdoor_word(tb, 0x3008) == 0x99);
    assert_int_equal(ddr_model_get_stats(tb->m).injected_read_beats, 1);
    assert_int_equal(ddr_model_get_stats(tb->m).injected_write_bursts, 0);
    bench_destroy(tb);
}

static void reserved_burst_type_is_reported_and_treated_as_incr(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t words[2] = { 0x31, 0x32 };
    backdoor_fill(tb, 0x900, words, 2);
    bench_read(tb, 1, 0x900, 1, 3, 3);

    bench_run_until_r_beats(tb, 2);

    assert_true(tb->r[0].data == 0x31);
    assert_true(tb->r[1].data == 0x32);
    assert_int_equal(ddr_model_protocol_errors(tb->m), 1);
    bench_destroy(tb);
}

static void arvalid_dropped_before_arready_is_reported(void **state)
{
    (void)state;
    struct ddr_model *m =
        ddr_model_create(&(struct ddr_model_config){ .max_outstanding_reads = 1 });
    struct axi4_pins pins;
    memset(&pins, 0, sizeof pins);
    pins.arvalid = 1; /* cycle 0: accepted; cycle 1: refused (queue full) */
    for (unsigned i = 0; i < 2; i++) {
        ddr_model_drive(m, &pins);
        ddr_model_clock(m, &pins);
    }
    assert_int_equal(ddr_model_protocol_errors(m), 0);

    pins.arvalid = 0;
    ddr_model_drive(m, &pins);
    assert_int_equal(pins.arready, 0);
    ddr_model_clock(m, &pins);

    assert_int_equal(ddr_model_protocol_errors(m), 1);
    ddr_model_destroy(m);
}

/* ------------------------------------------------------------------ misc */

static void untouched_memory_reads_zero(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    bench_read(tb, 1, 0x3FFFFFF8u, 0, 3, AXI_BURST_INCR); /* last word of 1 GiB */

    bench_run_until_r_beats(tb, 1);

    assert_beat(&tb->r[0], 5, 1, 0, AXI_RESP_OKAY, true);
    assert_int_equal(sparse_mem_chunks_allocated(bench_mem(tb)), 0);
    bench_destroy(tb);
}

static void one_gib_model_with_three_touched_addresses_has_three_chunks(void **state)
{
    (void)state;
    struct bench *tb = bench_create(NULL);
    const uint64_t data[1] = { 0x77 };
    sparse_mem_write_u64(bench_mem(tb), 0x0, 1);
    sparse_mem_write_u64(bench_mem(tb), 0x20000000u, 2);
    bench_write(tb, 0, 0x3FFF0000u, 0, 3, AXI_BURST_INCR, data, NULL);

    bench_run_until_b_responses(tb, 1);

    assert_true(ddr_model_get_config(tb->m).size_bytes == (UINT64_C(1) << 30));
    assert_int_equal(sparse_mem_chunks_allocated(bench_mem(tb)), 3);
    bench_destroy(tb);
}

static void counters_count_bursts_beats_and_cycles(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    const uint64_t data[2] = { 1, 2 };
    bench_read(tb, 1, 0x100, 3, 3, AXI_BURST_INCR);
    bench_read(tb, 2, 0x200, 0, 3, AXI_BURST_INCR);
    bench_write(tb, 3, 0x300, 1, 3, AXI_BURST_INCR, data, NULL);

    bench_run_until_r_beats(tb, 5);
    bench_run_until_b_responses(tb, 1);

    struct ddr_model_stats stats = ddr_model_get_stats(tb->m);
    assert_int_equal(stats.read_bursts, 2);
    assert_int_equal(stats.read_beats, 5);
    assert_int_equal(stats.write_bursts, 1);
    assert_int_equal(stats.write_beats, 2);
    assert_int_equal(stats.cycles, tb->cycle);
    assert_int_equal(ddr_model_cycles(tb->m), tb->cycle);
    assert_int_equal(stats.protocol_errors, 0);
    bench_destroy(tb);
}

static void reset_drops_in_flight_reads(void **state)
{
    (void)state;
    struct bench *tb = bench_create(&latency5);
    bench_read(tb, 1, 0x100, 3, 3, AXI_BURST_INCR);
    bench_run(tb, 2);

    ddr_model_reset(tb->m);
    bench_run(tb, 20);

    assert_int_equal(tb->r_count, 0);
    assert_int_equal(tb->pins.arready, 1);
    bench_destroy(tb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_beat_arrives_exactly_at_accept_plus_default_latency),
        cmocka_unit_test(first_beat_arrives_exactly_at_accept_plus_configured_latency),
        cmocka_unit_test(incr_burst_of_8_streams_on_consecutive_cycles),
        cmocka_unit_test(longest_burst_of_256_beats_streams_without_gaps),
        cmocka_unit_test(rready_low_holds_the_beat_and_its_data),
        cmocka_unit_test(outstanding_reads_stream_back_in_order_without_a_bubble),
        cmocka_unit_test(each_read_waits_for_its_own_latency),
        cmocka_unit_test(arready_drops_when_the_read_queue_is_full),
        cmocka_unit_test(slave_outputs_do_not_depend_on_master_inputs),
        cmocka_unit_test(wrap_burst_of_4_wraps_inside_its_32_byte_window),
        cmocka_unit_test(wrap_burst_of_8_starting_at_the_last_word),
        cmocka_unit_test(narrow_wrap_burst_uses_the_lanes_of_each_address),
        cmocka_unit_test(fixed_burst_reads_the_same_address_every_beat),
        cmocka_unit_test(fixed_burst_write_leaves_the_last_beat_in_memory),
        cmocka_unit_test(narrow_read_puts_data_on_the_lanes_of_its_address),
        cmocka_unit_test(narrow_incr_burst_walks_across_lanes_and_words),
        cmocka_unit_test(unaligned_incr_read_starts_mid_word_then_aligns),
        cmocka_unit_test(incr_burst_crossing_4k_continues_linearly_and_is_reported),
        cmocka_unit_test(narrow_write_with_strobes_touches_only_strobed_bytes),
        cmocka_unit_test(strobes_outside_a_narrow_transfer_are_ignored_and_reported),
        cmocka_unit_test(unaligned_write_leaves_the_bytes_below_its_address),
        cmocka_unit_test(write_response_follows_the_last_beat_and_the_data_is_readable),
        cmocka_unit_test(write_data_may_arrive_before_its_address),
        cmocka_unit_test(write_responses_come_back_in_order_with_their_ids),
        cmocka_unit_test(misplaced_wlast_is_reported_and_awlen_is_followed),
        cmocka_unit_test(read_past_the_end_gets_decerr_on_every_beat),
        cmocka_unit_test(write_past_the_end_gets_decerr_and_changes_nothing),
        cmocka_unit_test(injected_read_error_gives_slverr_on_the_covered_beats),
        cmocka_unit_test(injected_write_error_fails_the_next_bursts_touching_the_window),
        cmocka_unit_test(unlimited_write_error_fails_every_burst_until_cleared),
        cmocka_unit_test(counted_read_error_fails_the_covered_beats_of_the_next_bursts),
        cmocka_unit_test(reserved_burst_type_is_reported_and_treated_as_incr),
        cmocka_unit_test(arvalid_dropped_before_arready_is_reported),
        cmocka_unit_test(untouched_memory_reads_zero),
        cmocka_unit_test(one_gib_model_with_three_touched_addresses_has_three_chunks),
        cmocka_unit_test(counters_count_bursts_beats_and_cycles),
        cmocka_unit_test(reset_drops_in_flight_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
