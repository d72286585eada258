// SPDX-License-Identifier: Apache-2.0
/*
 * The system-memory port model (sim/sysmem_port.c) driven as the SoC's AXI4
 * master would: data lands in and comes from the resolver's memory, beats
 * with no memory behind them answer SLVERR, reads keep their latency, and
 * the AxCACHE of each burst is counted as coherent or not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "sysmem_port.h"

#define BASE        0x100000000ull
#define SIZE        4096u
#define LATENCY     30u
#define COHERENT    0xFu
#define NONCOHERENT 0x3u

static uint8_t memory[SIZE];
static bool memory_present;

static void *resolve(void *ctx, uint64_t addr, uint64_t len)
{
    (void)ctx;
    if (!memory_present || addr < BASE || addr - BASE > SIZE || len > SIZE - (addr - BASE))
        return NULL;
    return memory + (addr - BASE);
}

struct rig {
    struct sysmem_port *port;
    struct sysmem_pins pins;
    uint64_t cycle;
};

static struct rig make_rig(void)
{
    struct rig r = { .port = sysmem_port_create(LATENCY, COHERENT, resolve, NULL) };
    assert_non_null(r.port);
    for (unsigned i = 0; i < SIZE; i++)
        memory[i] = (uint8_t)(i * 7 + 1);
    memory_present = true;
    return r;
}

/* One clock: slave outputs, then the edge with the master's inputs as set. */
static void tick(struct rig *r)
{
    sysmem_port_clock(r->port, &r->pins);
    r->cycle++;
    sysmem_port_drive(r->port, &r->pins);
}

static uint64_t expected_word(uint64_t addr)
{
    uint64_t w = 0;
    for (unsigned i = 0; i < 8; i++)
        w |= (uint64_t)memory[addr - BASE + i] << (8 * i);
    return w;
}

static void issue_read(struct rig *r, uint64_t addr, uint8_t len, uint8_t cache)
{
    sysmem_port_drive(r->port, &r->pins);
    assert_true(r->pins.arready);
    r->pins.arvalid = 1;
    r->pins.araddr = addr;
    r->pins.arid = 0x2A;
    r->pins.arlen = len;
    r->pins.arsize = 3;
    r->pins.arburst = 1;
    r->pins.arcache = cache;
    r->pins.rready = 1;
    tick(r);
    r->pins.arvalid = 0;
}

/* Collects len+1 beats: data into out, responses into resp; returns the
 * cycles from the AR to the first beat. */
static uint64_t collect(struct rig *r, unsigned beats, uint64_t *out, uint8_t *resp)
{
    uint64_t start = r->cycle, first = 0;
    for (unsigned got = 0; got < beats;) {
        assert_true(r->cycle - start < 1000);
        if (r->pins.rvalid) {
            if (got == 0)
                first = r->cycle - start;
            assert_int_equal(r->pins.rid, 0x2A);
            assert_int_equal(r->pins.rlast, got + 1 == beats);
            out[got] = r->pins.rdata;
            resp[got++] = r->pins.rresp;
        }
        tick(r);
    }
    return first;
}

static void test_read_burst(void **state)
{
    (void)state;
    struct rig r = make_rig();
    issue_read(&r, BASE + 64, 7, COHERENT);
    uint64_t data[8];
    uint8_t resp[8];
    uint64_t first = collect(&r, 8, data, resp);
    assert_true(first + 1 >= LATENCY && first <= LATENCY);
    for (unsigned i = 0; i < 8; i++) {
        assert_int_equal(resp[i], 0);
        assert_int_equal(data[i], expected_word(BASE + 64 + 8 * i));
    }
    struct sysmem_port_stats st = sysmem_port_get_stats(r.port);
    assert_int_equal(st.read_bursts, 1);
    assert_int_equal(st.coherent_read_bursts, 1);
    assert_int_equal(st.read_beats, 8);
    sysmem_port_destroy(r.port);
}

static void test_read_beyond_memory(void **state)
{
    (void)state;
    struct rig r = make_rig();
    issue_read(&r, BASE + SIZE - 32, 7, NONCOHERENT); /* half in, half out */
    uint64_t data[8];
    uint8_t resp[8];
    collect(&r, 8, data, resp);
    for (unsigned i = 0; i < 8; i++) {
        assert_int_equal(resp[i], i < 4 ? 0 : 2);
        assert_int_equal(data[i], i < 4 ? expected_word(BASE + SIZE - 32 + 8 * i) : 0);
    }
    memory_present = false; /* the host left */
    issue_read(&r, BASE, 1, NONCOHERENT);
    collect(&r, 2, data, resp);
    assert_int_equal(resp[0], 2);
    assert_int_equal(resp[1], 2);
    struct sysmem_port_stats st = sysmem_port_get_stats(r.port);
    assert_int_equal(st.read_bursts, 2);
    assert_int_equal(st.coherent_read_bursts, 0);
    assert_int_equal(st.read_error_beats, 6);
    sysmem_port_destroy(r.port);
}

/* AW, then the beats; returns BRESP. */
static uint8_t write_burst(struct rig *r, uint64_t addr, unsigned beats, uint8_t strb,
                           uint64_t seed, uint8_t cache)
{
    sysmem_port_drive(r->port, &r->pins);
    r->pins.awvalid = 1;
    r->pins.awaddr = addr;
    r->pins.awid = 0x15;
    r->pins.awlen = (uint8_t)(beats - 1);
    r->pins.awsize = 3;
    r->pins.awburst = 1;
    r->pins.awcache = cache;
    r->pins.bready = 1;
    assert_true(r->pins.awready);
    tick(r);
    r->pins.awvalid = 0;
    for (unsigned i = 0; i < beats;) {
        r->pins.wvalid = 1;
        r->pins.wdata = seed + i;
        r->pins.wstrb = strb;
        r->pins.wlast = i + 1 == beats;
        bool taken = r->pins.wready;
        tick(r);
        i += taken;
    }
    r->pins.wvalid = 0;
    for (int waited = 0; !r->pins.bvalid; waited++) {
        assert_true(waited < 10);
        tick(r);
    }
    assert_int_equal(r->pins.bid, 0x15);
    uint8_t resp = r->pins.bresp;
    tick(r);
    return resp;
}

static void test_write_burst(void **state)
{
    (void)state;
    struct rig r = make_rig();
    assert_int_equal(write_burst(&r, BASE + 128, 8, 0xFF, 0x1111222233334444ull, COHERENT), 0);
    for (unsigned i = 0; i < 8; i++)
        assert_int_equal(expected_word(BASE + 128 + 8 * i), 0x1111222233334444ull + i);
    /* Strobes: only the low four bytes change. */
    uint64_t before = expected_word(BASE + 512);
    assert_int_equal(write_burst(&r, BASE + 512, 1, 0x0F, 0xAAAAAAAABBBBBBBBull, COHERENT), 0);
    assert_int_equal(expected_word(BASE + 512), (before & 0xFFFFFFFF00000000ull) | 0xBBBBBBBBull);
    /* Off the end: SLVERR, the beats inside still land. */
    assert_int_equal(write_burst(&r, BASE + SIZE - 16, 4, 0xFF, 0x77, NONCOHERENT), 2);
    assert_int_equal(expected_word(BASE + SIZE - 16), 0x77);
    assert_int_equal(expected_word(BASE + SIZE - 8), 0x78);
    struct sysmem_port_stats st = sysmem_port_get_stats(r.port);
    assert_int_equal(st.write_bursts, 3);
    assert_int_equal(st.coherent_write_bursts, 2);
    assert_int_equal(st.write_error_beats, 2);
    assert_int_equal(st.protocol_errors, 0);
    sysmem_port_destroy(r.port);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_burst),
        cmocka_unit_test(test_read_beyond_memory),
        cmocka_unit_test(test_write_burst),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
