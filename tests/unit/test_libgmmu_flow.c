// SPDX-License-Identifier: Apache-2.0
/*
 * libgmmu's command flow (submit, wait, back-pressure from full rings,
 * timeouts) against the firmware's own mailbox service running on the host.
 *
 * A transport registered as "fw:" keeps BAR0 in an array
 * (fake_mbox/mbox_io_impl.h); before each host access the firmware gets one
 * service pass, unless the test has stalled it, and the access waits a
 * configurable delay that stands in for a slow link (the UART bridge).
 * The service runs the firmware's own PING (mbox_service_commands), which
 * echoes its payload, so each completion is checked against what was sent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "libgmmu.h"
#include "mbox_service.h"

uint32_t fake_bar0[GMMU_BAR0_BYTES / 4];

static struct {
    struct mbox_service svc;
    bool stalled;
    long delay_us;
    /* A firmware inside a long command, as the registers show it: each host
       access is a heartbeat tick (FW_HEARTBEAT + 1, FW_STATE.RUNNING when
       show_running), and after busy_accesses of them the command ends. */
    bool ticking, show_running;
    uint32_t busy_accesses;
} fw;

/* ------------------------------------------------------------ transport */
static const struct gmmu_transport_ops fw_ops;

static int fw_open(const char *rest, struct gmmu_transport **out)
{
    (void)rest;
    struct gmmu_transport *t = calloc(1, sizeof *t);
    if (!t)
        return GMMU_E_NO_MEMORY;
    gmmu_transport_init(t, &fw_ops);
    t->bar_size[0] = GMMU_BAR0_BYTES;
    *out = t;
    return GMMU_OK;
}

static void firmware_tick(void)
{
    fake_bar0[GMMU_MBOX_FW_HEARTBEAT / 4]++;
    if (fw.show_running)
        fake_bar0[GMMU_MBOX_FW_STATE / 4] |= GMMU_MBOX_FW_STATE_RUNNING;
    if (fw.busy_accesses && --fw.busy_accesses == 0) {
        fake_bar0[GMMU_MBOX_FW_STATE / 4] &= ~GMMU_MBOX_FW_STATE_RUNNING;
        fw.ticking = fw.stalled = false;
    }
}

static void link_latency_then_firmware(void)
{
    if (fw.delay_us) {
        struct timespec ts = { 0, fw.delay_us * 1000 };
        nanosleep(&ts, NULL);
    }
    if (fw.ticking)
        firmware_tick();
    if (!fw.stalled)
        mbox_service_poll(&fw.svc);
}

static int fw_read32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t *val)
{
    (void)t;
    if (bar != 0 || off >= GMMU_BAR0_BYTES)
        return GMMU_E_INVALID_ARG;
    link_latency_then_firmware();
    *val = fake_bar0[off / 4];
    return GMMU_OK;
}

static int fw_write32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t val)
{
    (void)t;
    if (bar != 0 || off >= GMMU_BAR0_BYTES)
        return GMMU_E_INVALID_ARG;
    link_latency_then_firmware();
    fake_bar0[off / 4] = val;
    return GMMU_OK;
}

static void fw_close(struct gmmu_transport *t)
{
    free(t);
}

static const struct gmmu_transport_ops fw_ops = {
    .scheme = "fw",
    .open = fw_open,
    .read32 = fw_read32,
    .write32 = fw_write32,
    .close = fw_close, /* no wait_irq: the library polls */
};

/* ------------------------------------------------------------ fixtures */
static int boot_firmware(void **state)
{
    (void)state;
    memset(fake_bar0, 0, sizeof fake_bar0);
    memset(&fw, 0, sizeof fw);
    fake_bar0[GMMU_MBOX_IDENT_MAGIC / 4] = GMMU_MBOX_MAGIC;
    fake_bar0[GMMU_MBOX_IDENT_PROTO / 4] = GMMU_PROTO_VERSION;
    fake_bar0[GMMU_MBOX_FW_STATE / 4] = GMMU_FW_STATE_READY;
    mbox_service_init(&fw.svc);
    assert_true(mbox_service_register(&fw.svc, &mbox_service_commands, &fw.svc));
    return 0;
}

static struct gmmu_dev *open_dev(int timeout_ms)
{
    struct gmmu_dev *dev = NULL;
    assert_int_equal(gmmu_open("fw:", &dev), 0);
    gmmu_set_timeout(dev, timeout_ms);
    return dev;
}

static void submit_ping(struct gmmu_dev *dev, uint32_t i, uint32_t *seq)
{
    uint32_t payload[2] = { i, ~i };
    assert_int_equal(gmmu_submit(dev, GMMU_OP_PING, payload, sizeof payload, seq), 0);
}

static void expect_echo(struct gmmu_dev *dev, uint32_t seq, uint32_t i)
{
    struct gmmu_completion c;
    assert_int_equal(gmmu_wait(dev, seq, &c, 10000), 0);
    assert_int_equal(c.status, GMMU_STATUS_OK);
    assert_int_equal(c.payload_len, 8);
    uint32_t echoed[2];
    memcpy(echoed, c.payload, sizeof echoed);
    assert_int_equal(echoed[0], i);
    assert_int_equal(echoed[1], ~i);
}

/* ------------------------------------------------------------ tests */

/* Three rings' worth of pings before the first wait: the firmware fills the
 * completion ring, stops, and the command ring fills behind it; each submit
 * then has to drain a full completion ring (64 completions of 6 words)
 * before space appears. At 1 ms per access that drain takes ~0.4 s, four
 * times the 100 ms timeout, yet the firmware never stalls: the submit must
 * not time out. */
static void test_slow_link_flood_does_not_time_out(void **state)
{
    (void)state;
    enum { N = 3 * GMMU_CMD_SLOTS };
    struct gmmu_dev *dev = open_dev(100);
    fw.delay_us = 1000;
    uint32_t seqs[N];
    for (uint32_t i = 0; i < N; i++) {
        submit_ping(dev, i, &seqs[i]);
        assert_int_equal(seqs[i], seqs[0] + i);
    }
    for (uint32_t i = 0; i < N; i++)
        expect_echo(dev, seqs[i], i);
    struct gmmu_completion extra;
    assert_int_equal(gmmu_reap(dev, &extra), 0);
    assert_int_equal(fake_bar0[GMMU_MBOX_CPL_FENCE / 4], seqs[N - 1]);
    gmmu_close(dev);
}

/* A firmware that stops serving: once the command ring is full, a submit
 * returns GMMU_E_TIMEOUT and publishes nothing; every command published
 * before it still gets its completion when the firmware resumes. */
static void test_stalled_firmware_times_out_cleanly(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev(50);
    fw.stalled = true;
    uint32_t seqs[GMMU_CMD_SLOTS];
    for (uint32_t i = 0; i < GMMU_CMD_SLOTS; i++)
        submit_ping(dev, i, &seqs[i]);
    uint32_t head = fake_bar0[GMMU_MBOX_CMD_HEAD / 4];
    uint32_t payload[2] = { 0, 0 };
    assert_int_equal(gmmu_submit(dev, GMMU_OP_PING, payload, sizeof payload, NULL), GMMU_E_TIMEOUT);
    assert_int_equal(fake_bar0[GMMU_MBOX_CMD_HEAD / 4], head);
    assert_int_equal(head - fake_bar0[GMMU_MBOX_CMD_TAIL / 4], GMMU_CMD_SLOTS);

    fw.stalled = false;
    for (uint32_t i = 0; i < GMMU_CMD_SLOTS; i++)
        expect_echo(dev, seqs[i], i);
    uint32_t seq;
    submit_ping(dev, 1234, &seq);
    assert_int_equal(seq, seqs[GMMU_CMD_SLOTS - 1] + 1);
    expect_echo(dev, seq, 1234);
    gmmu_close(dev);
}

/* A command longer than the timeout, shown running with the heartbeat
 * moving: gmmu_call waits on (a few timeouts here) and gets its answer. */
static void test_long_command_outlasts_the_timeout(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev(50);
    fw.stalled = fw.ticking = fw.show_running = true;
    fw.busy_accesses = 200; /* about 1 ms apart: four timeouts */
    uint32_t payload[2] = { 7, ~7u }, echo[2] = { 0, 0 };
    size_t got = 0;
    assert_int_equal(gmmu_call(dev, GMMU_OP_PING, payload, sizeof payload, echo, sizeof echo, &got),
                     GMMU_STATUS_OK);
    assert_int_equal(got, sizeof echo);
    assert_int_equal(echo[0], 7);
    assert_int_equal(fw.busy_accesses, 0);
    gmmu_close(dev);
}

/* Either sign alone is not enough: a heartbeat without RUNNING (a firmware
 * that lost the command) and RUNNING without a heartbeat (a CPU that
 * stopped) both time out after one timeout. */
static void test_half_a_sign_of_work_times_out(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev(50);
    uint32_t payload[2] = { 1, 2 };
    fw.stalled = fw.ticking = true;
    fw.show_running = false;
    assert_int_equal(gmmu_call(dev, GMMU_OP_PING, payload, sizeof payload, NULL, 0, NULL),
                     GMMU_E_TIMEOUT);
    fw.ticking = false;
    fake_bar0[GMMU_MBOX_FW_STATE / 4] |= GMMU_MBOX_FW_STATE_RUNNING;
    assert_int_equal(gmmu_call(dev, GMMU_OP_PING, payload, sizeof payload, NULL, 0, NULL),
                     GMMU_E_TIMEOUT);
    gmmu_close(dev);
}

/* gmmu_command_state reads CPL_FENCE, FW_STATE.RUNNING and NEXT_SEQ. */
static void test_command_state(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev(1000);
    fw.stalled = true;
    enum gmmu_cmd_state st;
    fake_bar0[GMMU_MBOX_CPL_FENCE / 4] = 0xFFFFFFFEu; /* wraps below */
    fake_bar0[GMMU_MBOX_NEXT_SEQ / 4] = 0;
    assert_int_equal(gmmu_command_state(dev, 0xFFFFFFFEu, &st), 0);
    assert_int_equal(st, GMMU_CMD_DONE);
    assert_int_equal(gmmu_command_state(dev, 0xFFFFFFFFu, &st), 0);
    assert_int_equal(st, GMMU_CMD_PENDING);
    fake_bar0[GMMU_MBOX_FW_STATE / 4] |= GMMU_MBOX_FW_STATE_RUNNING;
    assert_int_equal(gmmu_command_state(dev, 0xFFFFFFFFu, &st), 0);
    assert_int_equal(st, GMMU_CMD_RUNNING);
    assert_int_equal(gmmu_command_state(dev, 0, &st), 0);
    assert_int_equal(st, GMMU_CMD_PENDING);
    gmmu_close(dev);
}

int main(void)
{
    if (gmmu_transport_register(&fw_ops) != GMMU_OK)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_slow_link_flood_does_not_time_out, boot_firmware),
        cmocka_unit_test_setup(test_stalled_firmware_times_out_cleanly, boot_firmware),
        cmocka_unit_test_setup(test_long_command_outlasts_the_timeout, boot_firmware),
        cmocka_unit_test_setup(test_half_a_sign_of_work_times_out, boot_firmware),
        cmocka_unit_test_setup(test_command_state, boot_firmware),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
