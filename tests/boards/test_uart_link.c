// SPDX-License-Identifier: Apache-2.0
/*
 * UART host link suite (include/gmmu/uartlink.h, host/libgmmu/transport_uart.c,
 * rtl/link/uart_bar_bridge.sv).
 *
 * Offline part (always runs): the CRC and frame helpers, spec parsing, and
 * the transport's retry logic against a scripted fake device on a pty of
 * its own (no answer, NAK, damaged answer, stale answer, IRQ in between),
 * and its waits on a simulated clock that the test itself moves.
 *
 * Device part (GMMU_DEVICE=uart:..., the simulated board from
 * tests/boards/with_uart_sim.sh, normally with --uart-error-rate): values
 * written and read back over the noisy line must be intact, writes must run
 * exactly once (the mailbox counts refused host writes), bad offsets must
 * be reported, mailbox commands must work. With GMMU_UART_EXPECT_ERRORS=1
 * the counters must show that damaged frames were seen and recovered from.
 */
#define _GNU_SOURCE /* posix_openpt, ptsname_r, cfmakeraw */

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "gmmu/mailbox.h"
#include "gmmu/uartlink.h"
#include "libgmmu.h"
#include "transport_deadline.h"

static const char *device;
static struct gmmu_uartlink_stats total; /* summed over the device tests */

static uint32_t rand32(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* ------------------------------------------------------------ frames */

static void test_crc_and_frames(void **state)
{
    (void)state;
    assert_int_equal(gmmu_uartlink_crc16((const uint8_t *)"123456789", 9), 0x29B1);

    uint8_t req[GMMU_UARTLINK_REQ_BYTES];
    gmmu_uartlink_encode_req(req, GMMU_UARTLINK_WRITE, 0x5A, 1, 0xABCDEC, 0x01234567);
    assert_int_equal(req[0], GMMU_UARTLINK_SOF);
    assert_int_equal(req[4], 0xEC); /* little-endian offset */
    assert_int_equal(req[6], 0xAB);
    assert_int_equal(req[7], 0x67); /* little-endian data */
    /* The CRC goes MSB first, so the remainder over it is 0. */
    assert_int_equal(gmmu_uartlink_crc16(req + 1, GMMU_UARTLINK_REQ_BYTES - 1), 0);

    struct gmmu_uartlink_rsp r = { GMMU_UARTLINK_READ_RSP, 9, GMMU_UARTLINK_ST_OK, 0xDEADBEEF }, d;
    uint8_t rsp[GMMU_UARTLINK_RSP_BYTES];
    gmmu_uartlink_encode_rsp(rsp, &r);
    assert_int_equal(gmmu_uartlink_decode_rsp(rsp, &d), 0);
    assert_int_equal(d.type, r.type);
    assert_int_equal(d.seq, r.seq);
    assert_int_equal(d.data, r.data);

    /* Every single and double bit error after the SOF is caught. */
    unsigned bits = 8 * (GMMU_UARTLINK_RSP_BYTES - 1);
    for (unsigned a = 0; a < bits; a++) {
        for (unsigned b = a; b < bits; b++) {
            uint8_t bad[GMMU_UARTLINK_RSP_BYTES];
            memcpy(bad, rsp, sizeof bad);
            bad[1 + a / 8] ^= (uint8_t)(1u << (a % 8));
            if (b != a)
                bad[1 + b / 8] ^= (uint8_t)(1u << (b % 8));
            assert_int_equal(gmmu_uartlink_decode_rsp(bad, &d), -1);
        }
    }
    /* So is a dropped byte (the frame shifts by one). */
    for (unsigned i = 1; i < GMMU_UARTLINK_RSP_BYTES; i++) {
        uint8_t bad[GMMU_UARTLINK_RSP_BYTES];
        memcpy(bad, rsp, i);
        memcpy(bad + i, rsp + i + 1, GMMU_UARTLINK_RSP_BYTES - i - 1);
        bad[GMMU_UARTLINK_RSP_BYTES - 1] = GMMU_UARTLINK_SOF;
        assert_int_equal(gmmu_uartlink_decode_rsp(bad, &d), -1);
    }
}

/* ------------------------------------------------------------ a fake device */

struct pty {
    int master;
    char name[64];
};

static void pty_open(struct pty *p)
{
    p->master = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(p->master >= 0);
    assert_int_equal(grantpt(p->master), 0);
    assert_int_equal(unlockpt(p->master), 0);
    assert_int_equal(ptsname_r(p->master, p->name, sizeof p->name), 0);
}

static void test_spec_errors(void **state)
{
    (void)state;
    struct pty p;
    pty_open(&p);
    char spec[160];
    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open("uart:", &t), GMMU_E_BAD_SPEC);
    assert_int_equal(gmmu_transport_open("uart:,115200", &t), GMMU_E_BAD_SPEC);
    assert_int_equal(gmmu_transport_open("uart:/nonexistent/tty", &t), GMMU_E_NO_DEVICE);
    assert_int_equal(gmmu_transport_open("uart:/dev/null", &t), GMMU_E_NO_DEVICE); /* not a tty */
    snprintf(spec, sizeof spec, "uart:%s,123456", p.name); /* not a standard rate */
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    snprintf(spec, sizeof spec, "uart:%s,retry=0", p.name);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    snprintf(spec, sizeof spec, "uart:%s,tries=1000", p.name);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    snprintf(spec, sizeof spec, "uart:%s,seq=256", p.name);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    snprintf(spec, sizeof spec, "uart:%s,seq=", p.name);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    snprintf(spec, sizeof spec, "uart:%s,115200,bogus", p.name);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    assert_null(t);
    close(p.master);
}

/* The simulated board's clock file when GMMU_DEVICE names one
   (",simclock=FILE"), else NULL: the raw line tests then wait in the
   simulated line's time, as the transport does. */
static const uint8_t *device_clock;

/* Milliseconds of the device's line at the default 1 Mbaud, or of the
   machine's clock. */
static int64_t device_now_ms(void)
{
    if (device_clock == NULL)
        return now_ms();
    uint64_t cycles = __atomic_load_n(
        (const uint64_t *)(const void *)(device_clock + GMMU_UARTLINK_SIMCLOCK_CYCLES_OFFSET),
        __ATOMIC_ACQUIRE);
    uint32_t cycles_per_bit;
    memcpy(&cycles_per_bit, device_clock + GMMU_UARTLINK_SIMCLOCK_CYCLES_PER_BIT_OFFSET, 4);
    return cycles_per_bit ? (int64_t)(cycles / cycles_per_bit / 1000u) : now_ms();
}

/* A simulation that stopped moving fails the wait after this much of the
   machine's clock instead of hanging the test. */
#define STALLED_DEVICE_MS 60000

/* Reads len bytes from fd, starting at the next SOF, within timeout_ms of
   the device's clock; 0, or -1 if they did not all come. */
static int read_frame(int fd, uint8_t *frame, size_t len, int timeout_ms)
{
    size_t got = 0;
    int64_t deadline = device_now_ms() + timeout_ms;
    int64_t stalled = now_ms() + STALLED_DEVICE_MS;
    while (got < len) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        int left = (int)(deadline - device_now_ms());
        if (left <= 0 || now_ms() >= stalled)
            return -1;
        int n_ready = poll(&pfd, 1, left < 2 ? left : 2);
        if (n_ready < 0)
            return -1;
        if (n_ready == 0)
            continue;
        ssize_t n = read(fd, frame + got, got == 0 ? 1 : len - got);
        if (n <= 0)
            return -1;
        if (got == 0 && frame[0] != GMMU_UARTLINK_SOF)
            continue;
        got += (size_t)n;
    }
    return 0;
}

/* Reads one request frame from the master within timeout_ms; 0 or -1. */
static int read_request(int fd, uint8_t *frame, int timeout_ms)
{
    if (read_frame(fd, frame, GMMU_UARTLINK_REQ_BYTES, timeout_ms) != 0)
        return -1;
    return gmmu_uartlink_crc16(frame + 1, GMMU_UARTLINK_REQ_BYTES - 1) == 0 ? 0 : -1;
}

/* No device: HELLO is sent `tries` times, with one seq, then open fails. */
static void test_no_answer_gives_up(void **state)
{
    (void)state;
    struct pty p;
    pty_open(&p);
    char spec[160];
    snprintf(spec, sizeof spec, "uart:%s,retry=20,tries=3", p.name);
    struct gmmu_transport *t = NULL;
    int64_t start = now_ms();
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_TIMEOUT);
    int64_t took = now_ms() - start;
    assert_true(took >= 55 && took < 2000);
    uint8_t f[GMMU_UARTLINK_REQ_BYTES];
    int seq = -1;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(read_request(p.master, f, 500), 0);
        assert_int_equal(f[1], GMMU_UARTLINK_HELLO);
        if (seq >= 0)
            assert_int_equal(f[2], seq); /* a resend keeps its seq */
        seq = f[2];
    }
    assert_int_equal(read_request(p.master, f, 50), -1); /* and no fourth */
    close(p.master);
}

/* What the fake device does with the request it receives. */
enum action { ANSWER, IGNORE, NAK, DAMAGE, STALE_THEN_ANSWER, IRQ_THEN_ANSWER, SPLIT_ANSWER };

struct fake {
    int fd;
    const enum action *script;
    size_t steps;
    uint32_t value;  /* READ_RSP data */
    size_t requests; /* frames received */
    uint8_t seqs[32];
};

static void send_rsp(int fd, uint8_t type, uint8_t seq, uint8_t status, uint32_t data, bool damage)
{
    struct gmmu_uartlink_rsp r = { type, seq, status, data };
    uint8_t buf[GMMU_UARTLINK_RSP_BYTES];
    gmmu_uartlink_encode_rsp(buf, &r);
    if (damage)
        buf[5] ^= 0x10;
    assert_int_equal(write(fd, buf, sizeof buf), (ssize_t)sizeof buf);
}

static void *fake_device(void *arg)
{
    struct fake *f = arg;
    for (size_t i = 0; i < f->steps; i++) {
        uint8_t req[GMMU_UARTLINK_REQ_BYTES];
        if (read_request(f->fd, req, 3000) != 0)
            return NULL;
        f->seqs[__atomic_fetch_add(&f->requests, 1, __ATOMIC_ACQ_REL) % 32] = req[2];
        uint8_t type = req[1] == GMMU_UARTLINK_HELLO  ? GMMU_UARTLINK_HELLO_ACK
                       : req[1] == GMMU_UARTLINK_READ ? GMMU_UARTLINK_READ_RSP
                                                      : GMMU_UARTLINK_WRITE_ACK;
        uint32_t data = type == GMMU_UARTLINK_HELLO_ACK ? (1u | 16u << 8 | 24u << 16) : f->value;
        switch (f->script[i]) {
        case IGNORE:
            break;
        case NAK:
            send_rsp(f->fd, GMMU_UARTLINK_NAK, req[2], GMMU_UARTLINK_NAK_CRC, 0, false);
            break;
        case DAMAGE:
            send_rsp(f->fd, type, req[2], 0, data, true);
            break;
        case STALE_THEN_ANSWER:
            send_rsp(f->fd, type, (uint8_t)(req[2] - 1), 0, 0x5555, false);
            send_rsp(f->fd, type, req[2], 0, data, false);
            break;
        case IRQ_THEN_ANSWER:
            send_rsp(f->fd, GMMU_UARTLINK_IRQ, 0, 0, 0x4, false);
            send_rsp(f->fd, type, req[2], 0, data, false);
            break;
        case SPLIT_ANSWER: {
            /* Garbage, then the answer in two pieces. */
            struct gmmu_uartlink_rsp r = { type, req[2], 0, data };
            uint8_t buf[GMMU_UARTLINK_RSP_BYTES + 3] = { 0x00, GMMU_UARTLINK_SOF, 0x13 };
            gmmu_uartlink_encode_rsp(buf + 3, &r);
            assert_int_equal(write(f->fd, buf, 7), 7);
            struct timespec ts = { 0, 5 * 1000000L };
            nanosleep(&ts, NULL);
            assert_int_equal(write(f->fd, buf + 7, sizeof buf - 7), (ssize_t)(sizeof buf - 7));
            break;
        }
        default:
            send_rsp(f->fd, type, req[2], 0, data, false);
            break;
        }
    }
    return NULL;
}

/* The script below against the transport, whose first seq is first_seq.
   Which bytes of the damaged and split answers happen to equal the SOF
   depends on the seq (it and the CRC are in the frame); each stray SOF with
   a full frame's worth of bytes after it is one more damaged frame. */
static void retries_against_fake_device(unsigned first_seq, unsigned damaged_frames)
{
    static const enum action script[] = {
        NAK,
        ANSWER, /* HELLO: NAKed once */
        DAMAGE,
        ANSWER, /* read 1: damaged answer */
        IGNORE,
        STALE_THEN_ANSWER, /* read 2: lost, then a stale answer first */
        IRQ_THEN_ANSWER,   /* read 3 */
        SPLIT_ANSWER,      /* read 4 */
        ANSWER,            /* write */
    };
    struct pty p;
    pty_open(&p);
    struct fake f = { .fd = p.master,
                      .script = script,
                      .steps = sizeof script / sizeof script[0],
                      .value = 0xC0FFEE00 };
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, fake_device, &f), 0);

    char spec[160];
    snprintf(spec, sizeof spec, "uart:%s,115200,retry=100,tries=4,seq=%u", p.name, first_seq);
    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open(spec, &t), 0);
    assert_int_equal(gmmu_transport_bar_size(t, 0), 1u << 16);
    assert_int_equal(gmmu_transport_bar_size(t, 1), 1u << 24);
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        assert_int_equal(gmmu_transport_read32(t, 0, 0x40 + 4u * (unsigned)i, &v), 0);
        assert_int_equal(v, 0xC0FFEE00);
    }
    assert_int_equal(gmmu_transport_write32(t, 0, 0x60, 7), 0);
    uint32_t vec = 0;
    assert_int_equal(gmmu_transport_wait_irq(t, 0, &vec), 0);
    assert_int_equal(vec, 0x4);

    struct gmmu_uartlink_stats st;
    assert_int_equal(gmmu_transport_uart_stats(t, &st), 0);
    assert_int_equal(st.requests, 6); /* HELLO, 4 reads, 1 write */
    assert_int_equal(st.retries, 3);  /* after the NAK, the damage, the loss */
    assert_int_equal(st.naks, 1);
    assert_int_equal(st.crc_errors, damaged_frames);
    assert_int_equal(st.timeouts, 1);
    assert_int_equal(st.stale, 1);
    assert_int_equal(st.irqs, 1);
    gmmu_transport_close(t);
    pthread_join(th, NULL);

    /* Resends carried the seq of the first try; new requests the next one. */
    assert_int_equal(f.requests, 9);
    assert_int_equal(f.seqs[1], f.seqs[0]);
    assert_int_equal(f.seqs[2], (uint8_t)(f.seqs[0] + 1));
    assert_int_equal(f.seqs[3], f.seqs[2]);
    assert_int_equal(f.seqs[5], f.seqs[4]);
    assert_int_equal(f.seqs[8], (uint8_t)(f.seqs[0] + 5));
    assert_int_equal(f.seqs[0], first_seq);
    assert_int_not_equal(gmmu_transport_uart_stats(NULL, &st), 0);
    close(p.master);
}

/* Damaged frames: the damaged answer and the split one's stray SOF. The
   first seq was random until a run met one of the two seqs (of 256) below
   and counted 3: it is fixed now. */
static void test_retries_against_fake_device(void **state)
{
    (void)state;
    retries_against_fake_device(0, 2);
}

/* With these seqs, a byte of a damaged frame equals the SOF as well: one
   more damaged frame, and still no answer lost or taken twice. Found by
   running all 256 seqs (only 72 and 164 do this). */
static void test_stray_sof_inside_damaged_frame(void **state)
{
    (void)state;
    retries_against_fake_device(72, 3);
    retries_against_fake_device(164, 3);
}

/* A request that failed all its attempts may still have run on the device
   (only its answers were lost): the next request must not reuse its seq, or
   the device would answer it from memory with the old result. */
static void test_failed_request_uses_up_its_seq(void **state)
{
    (void)state;
    static const enum action script[] = { ANSWER, IGNORE, IGNORE, ANSWER };
    struct pty p;
    pty_open(&p);
    struct fake f = { .fd = p.master, .script = script, .steps = 4, .value = 0x1234 };
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, fake_device, &f), 0);
    char spec[160];
    snprintf(spec, sizeof spec, "uart:%s,retry=30,tries=2", p.name);
    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open(spec, &t), 0);
    uint32_t v = 0;
    assert_int_equal(gmmu_transport_read32(t, 0, 0x40, &v), GMMU_E_TIMEOUT);
    assert_int_equal(v, 0xFFFFFFFFu);
    assert_int_equal(gmmu_transport_read32(t, 0, 0x40, &v), 0);
    assert_int_equal(v, 0x1234);
    gmmu_transport_close(t);
    pthread_join(th, NULL);
    assert_int_equal(f.requests, 4);
    assert_int_equal(f.seqs[2], f.seqs[1]);                /* the resend */
    assert_int_equal(f.seqs[3], (uint8_t)(f.seqs[1] + 1)); /* a new seq after the failure */
    close(p.master);
}

/* ------------------------------------------------------------ simulated clock */

/* A clock file as the simulator writes it (GMMU_UARTLINK_SIMCLOCK_*), moved
   by the test by hand. */
struct sim_clock {
    char path[64];
    uint8_t *map;
};

static void sim_clock_create(struct sim_clock *c, uint32_t magic, uint32_t cycles_per_bit)
{
    snprintf(c->path, sizeof c->path, "/tmp/gmmu-simclock.XXXXXX");
    int fd = mkstemp(c->path);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, GMMU_UARTLINK_SIMCLOCK_BYTES), 0);
    c->map = mmap(NULL, GMMU_UARTLINK_SIMCLOCK_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    assert_true(c->map != MAP_FAILED);
    close(fd);
    memcpy(c->map, &magic, 4);
    memcpy(c->map + GMMU_UARTLINK_SIMCLOCK_CYCLES_PER_BIT_OFFSET, &cycles_per_bit, 4);
}

static void sim_clock_set(struct sim_clock *c, uint64_t cycles)
{
    __atomic_store_n((uint64_t *)(void *)(c->map + GMMU_UARTLINK_SIMCLOCK_CYCLES_OFFSET), cycles,
                     __ATOMIC_RELEASE);
}

static void sim_clock_remove(struct sim_clock *c)
{
    munmap(c->map, GMMU_UARTLINK_SIMCLOCK_BYTES);
    unlink(c->path);
}

static void test_simclock_spec_errors(void **state)
{
    (void)state;
    struct pty p;
    pty_open(&p);
    char spec[256];
    struct gmmu_transport *t = NULL;
    snprintf(spec, sizeof spec, "uart:%s,simclock=/nonexistent/clock", p.name);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_NO_DEVICE);
    snprintf(spec, sizeof spec, "uart:%s,simclock=", p.name);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    snprintf(spec, sizeof spec, "uart:%s,simclock=/dev/null", p.name); /* not a file */
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    struct sim_clock c;
    sim_clock_create(&c, 0x12345678, 4); /* no magic: not a clock, or not ready */
    snprintf(spec, sizeof spec, "uart:%s,simclock=%s", p.name, c.path);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    sim_clock_remove(&c);
    sim_clock_create(&c, GMMU_UARTLINK_SIMCLOCK_MAGIC, 0); /* no line speed */
    snprintf(spec, sizeof spec, "uart:%s,simclock=%s", p.name, c.path);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    snprintf(spec, sizeof spec, "uart:%s,simclock=%s,simclock=%s", p.name, c.path, c.path);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_BAD_SPEC);
    sim_clock_remove(&c);
    assert_null(t);
    close(p.master);
}

/* 4 cycles a bit at the default 1 Mbaud: 4 000 cycles a millisecond. */
#define CYCLES_PER_MS 4000u

struct frozen_clock_watch {
    struct sim_clock *clock;
    struct fake *device;
    int frozen_ms;
    size_t requests_while_frozen;
};

/* Holds the clock still for frozen_ms of the machine's clock, notes what
   the device had received by then, and moves the clock past the retry. */
static void *hold_then_move_clock(void *arg)
{
    struct frozen_clock_watch *w = arg;
    sleep_ms(w->frozen_ms);
    w->requests_while_frozen = __atomic_load_n(&w->device->requests, __ATOMIC_ACQUIRE);
    sim_clock_set(w->clock, 11u * CYCLES_PER_MS);
    return NULL;
}

/* With simclock=, a lost answer is resent when the *simulated* retry time
   has passed, however much of the machine's time passes first: ten times
   the retry of the machine's clock goes by with no resend, and the resend
   follows the clock's move. */
static void test_retry_runs_on_simulated_time(void **state)
{
    (void)state;
    static const enum action script[] = { ANSWER, IGNORE, ANSWER };
    struct pty p;
    pty_open(&p);
    struct sim_clock c;
    sim_clock_create(&c, GMMU_UARTLINK_SIMCLOCK_MAGIC, 4);
    sim_clock_set(&c, 0);
    struct fake f = { .fd = p.master, .script = script, .steps = 3, .value = 0xABCD };
    pthread_t device_thread, clock_thread;
    assert_int_equal(pthread_create(&device_thread, NULL, fake_device, &f), 0);
    char spec[256];
    snprintf(spec, sizeof spec, "uart:%s,retry=10,tries=2,simclock=%s", p.name, c.path);
    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open(spec, &t), 0);

    struct frozen_clock_watch w = { .clock = &c, .device = &f, .frozen_ms = 100 };
    assert_int_equal(pthread_create(&clock_thread, NULL, hold_then_move_clock, &w), 0);
    int64_t start = now_ms();
    uint32_t v = 0;
    assert_int_equal(gmmu_transport_read32(t, 0, 0x40, &v), 0);
    int64_t took = now_ms() - start;
    pthread_join(clock_thread, NULL);
    assert_int_equal(v, 0xABCD);
    assert_true(took >= w.frozen_ms);
    assert_int_equal(w.requests_while_frozen, 2); /* HELLO and the first try only */

    struct gmmu_uartlink_stats st;
    assert_int_equal(gmmu_transport_uart_stats(t, &st), 0);
    assert_int_equal(st.timeouts, 1);
    assert_int_equal(st.retries, 1);
    gmmu_transport_close(t);
    pthread_join(device_thread, NULL);
    assert_int_equal(f.requests, 3);
    assert_int_equal(f.seqs[2], f.seqs[1]); /* the resend */
    sim_clock_remove(&c);
    close(p.master);
}

/* A simulation that stops (a debugger, a crash that left the pty open):
   the access fails after the handle's timeout of the machine's clock,
   without resends, since no simulated time passed. */
static void test_stalled_simulation_times_out(void **state)
{
    (void)state;
    static const enum action script[] = { ANSWER, IGNORE };
    struct pty p;
    pty_open(&p);
    struct sim_clock c;
    sim_clock_create(&c, GMMU_UARTLINK_SIMCLOCK_MAGIC, 4);
    sim_clock_set(&c, 12345);
    struct fake f = { .fd = p.master, .script = script, .steps = 2 };
    pthread_t device_thread;
    assert_int_equal(pthread_create(&device_thread, NULL, fake_device, &f), 0);
    char spec[256];
    snprintf(spec, sizeof spec, "uart:%s,retry=5,tries=8,simclock=%s", p.name, c.path);
    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open(spec, &t), 0);
    gmmu_transport_set_timeout(t, 150);
    int64_t start = now_ms();
    uint32_t v = 0;
    assert_int_equal(gmmu_transport_read32(t, 0, 0x40, &v), GMMU_E_TIMEOUT);
    int64_t took = now_ms() - start;
    assert_true(took >= 150);
    struct gmmu_uartlink_stats st;
    assert_int_equal(gmmu_transport_uart_stats(t, &st), 0);
    assert_int_equal(st.retries, 0);
    gmmu_transport_close(t);
    pthread_join(device_thread, NULL);
    assert_int_equal(f.requests, 2);
    sim_clock_remove(&c);
    close(p.master);
}

/* ------------------------------------------------------------ the device */

static struct gmmu_transport *open_link(void)
{
    struct gmmu_transport *t = NULL;
    int rc = gmmu_transport_open(device, &t);
    if (rc)
        fail_msg("open %s: %s", device, gmmu_host_strerror(rc));
    return t;
}

static void close_link(struct gmmu_transport *t)
{
    struct gmmu_uartlink_stats st;
    assert_int_equal(gmmu_transport_uart_stats(t, &st), 0);
    total.requests += st.requests;
    total.retries += st.retries;
    total.naks += st.naks;
    total.timeouts += st.timeouts;
    total.crc_errors += st.crc_errors;
    total.stale += st.stale;
    total.irqs += st.irqs;
    gmmu_transport_close(t);
}

static void test_device_identity(void **state)
{
    (void)state;
    for (int round = 0; round < 5; round++) { /* HELLO again every time */
        struct gmmu_transport *t = open_link();
        assert_int_equal(gmmu_transport_bar_size(t, 0), GMMU_BAR0_BYTES);
        assert_int_equal(gmmu_transport_bar_size(t, 1), GMMU_BAR1_BYTES);
        uint32_t v = 0;
        assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_IDENT_MAGIC, &v), 0);
        assert_int_equal(v, 0x58424D47);
        close_link(t);
    }
}

/* Random words into the command ring (slots the firmware reads only after
   CMD_HEAD moves, which this test never does) and back. */
static void test_readback_under_noise(void **state)
{
    (void)state;
    struct gmmu_transport *t = open_link();
    uint32_t seed = 0x1234567;
    enum { WORDS = 512, ROUNDS = 1 };
    static uint32_t want[WORDS];
    for (int round = 0; round < ROUNDS; round++) {
        for (unsigned i = 0; i < WORDS; i++) {
            want[i] = rand32(&seed);
            assert_int_equal(gmmu_transport_write32(t, 0, GMMU_CMD_RING + 4u * i, want[i]), 0);
        }
        for (unsigned i = 0; i < WORDS; i++) {
            uint32_t v = 0;
            assert_int_equal(gmmu_transport_read32(t, 0, GMMU_CMD_RING + 4u * i, &v), 0);
            if (v != want[i])
                fail_msg("word %u: wrote %08x, read %08x", i, want[i], v);
        }
    }
    /* And DDR through the BAR1 aperture (window at DDR 0: below the
       firmware's self-test region). */
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_MBOX_APERTURE_BASE, 0), 0);
    for (unsigned i = 0; i < WORDS; i++) {
        want[i] = rand32(&seed);
        assert_int_equal(gmmu_transport_write32(t, 1, 0x10000 + 4u * i, want[i]), 0);
    }
    for (unsigned i = 0; i < WORDS; i++) {
        uint32_t v = 0;
        assert_int_equal(gmmu_transport_read32(t, 1, 0x10000 + 4u * i, &v), 0);
        if (v != want[i])
            fail_msg("DDR word %u: wrote %08x, read %08x", i, want[i], v);
    }
    close_link(t);
}

/* The mailbox counts host writes to firmware-owned registers: a write the
   link resent must still count once. */
static void test_writes_run_exactly_once(void **state)
{
    (void)state;
    struct gmmu_transport *t = open_link();
    uint32_t before = 0, after = 0, tail = 0;
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_HOST_WRITE_ERRORS, &before), 0);
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_CMD_TAIL, &tail), 0);
    enum { N = 300 };
    for (unsigned i = 0; i < N; i++)
        assert_int_equal(gmmu_transport_write32(t, 0, GMMU_MBOX_CMD_TAIL, tail + 1 + i), 0);
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_HOST_WRITE_ERRORS, &after), 0);
    assert_int_equal(after - before, N);
    uint32_t v = 0;
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_CMD_TAIL, &v), 0);
    assert_int_equal(v, tail);
    close_link(t);
}

static void test_bad_accesses_reported(void **state)
{
    (void)state;
    struct gmmu_transport *t = open_link();
    uint32_t v = 0;
    /* Beyond BAR0: the bridge refuses it without a bus access. */
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_BAR0_BYTES, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(v, 0xFFFFFFFFu);
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_BAR0_BYTES + 8, 1), GMMU_E_LINK_ERROR);
    /* BAR1 at or past APERTURE_LIMIT (the end of the VRAM segment; the
       firmware's DDR area lies above it) or past the DDR: SLVERR. */
    uint32_t base = 0, limit = 0;
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_APERTURE_BASE, &base), 0);
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_APERTURE_LIMIT, &limit), 0);
    assert_true(limit > 0 && limit < 256u << 20);
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_MBOX_APERTURE_BASE, limit - 0x1000u), 0);
    assert_int_equal(gmmu_transport_read32(t, 1, 0xFFC, &v), 0); /* the last VRAM word is fine */
    assert_int_equal(gmmu_transport_read32(t, 1, 0x1000, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(gmmu_transport_write32(t, 1, 0x1000, 1), GMMU_E_LINK_ERROR);
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_MBOX_APERTURE_BASE, 0x0FFFF000u), 0);
    assert_int_equal(gmmu_transport_read32(t, 1, 0x1000, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(gmmu_transport_write32(t, 1, 0x1000, 1), GMMU_E_LINK_ERROR);
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_MBOX_APERTURE_BASE, base), 0);
    /* Past what a frame can carry. */
    assert_int_equal(gmmu_transport_read32(t, 1, 1u << 24, &v), GMMU_E_INVALID_ARG);
    /* And the link still works. */
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_IDENT_MAGIC, &v), 0);
    assert_int_equal(v, 0x58424D47);
    close_link(t);
}

/* Whole mailbox commands, with MSI frames, over the noisy line. */
static void test_commands_under_noise(void **state)
{
    (void)state;
    struct gmmu_dev *dev = NULL;
    int rc = gmmu_open(device, &dev);
    if (rc)
        fail_msg("gmmu_open: %s", gmmu_strerror(rc));
    uint8_t buf[256];
    for (int i = 0; i < 20; i++) {
        for (size_t b = 0; b < sizeof buf; b++)
            buf[b] = (uint8_t)(b * 13 + (size_t)i);
        rc = gmmu_ping(dev, buf, (size_t)(i * 12));
        if (rc)
            fail_msg("ping %d: %s", i, gmmu_strerror(rc));
    }
    struct gmmu_info info;
    assert_int_equal(gmmu_get_info(dev, &info), 0);
    assert_int_equal(info.proto_version, 0x00010012); /* 1.18 */
    gmmu_close(dev);
}

/* ------------------------------------------------------------ a quiet line */

/* The device's line, opened raw beside the transport: GMMU_DEVICE is
   "uart:PATH[,options]". */
static int open_device_line(void)
{
    char path[256];
    assert_true(strncmp(device, "uart:", 5) == 0);
    const char *p = device + 5;
    size_t n = strcspn(p, ",");
    assert_true(n > 0 && n < sizeof path);
    memcpy(path, p, n);
    path[n] = '\0';
    int fd = open(path, O_RDWR | O_NOCTTY);
    assert_true(fd >= 0);
    struct termios tio;
    assert_int_equal(tcgetattr(fd, &tio), 0);
    cfmakeraw(&tio);
    assert_int_equal(tcsetattr(fd, TCSANOW, &tio), 0);
    return fd;
}

/* The next response frame within timeout_ms; 0, or -1 if none came or
   its CRC is wrong. */
static int read_response(int fd, struct gmmu_uartlink_rsp *r, int timeout_ms)
{
    uint8_t buf[GMMU_UARTLINK_RSP_BYTES];
    if (read_frame(fd, buf, sizeof buf, timeout_ms) != 0)
        return -1;
    return gmmu_uartlink_decode_rsp(buf, r);
}

/* An answer takes about 25 byte times (0.25 ms at 1 Mbaud): these leave
   hundreds of times that, on the device's clock. */
#define ANSWER_MS 100
#define QUIET_MS  20

static void send_raw(int fd, const uint8_t *bytes, size_t len)
{
    assert_int_equal(write(fd, bytes, len), (ssize_t)len);
}

/* A host that resends at once on every NAK, against a device that has
   lost the frame boundary: a partial frame (SOF and 4 bytes) runs straight
   into a WRITE whose data byte 1 (frame byte 8) is 0xA5. The partial frame
   ends after the WRITE's byte 7 with a bad CRC, and the receiver, hunting,
   takes byte 8 for a SOF. Had the device NAKed then, the resend would have
   completed that false frame with its own bytes 0..7 and left its byte 8
   to start the next, on every resend. The device must NAK once, when the
   line is quiet and it hunts again, and then take the resend. */
static void test_resend_is_not_swallowed_after_lost_sync(void **state)
{
    (void)state;
    int fd = open_device_line();
    uint8_t frame[GMMU_UARTLINK_REQ_BYTES];
    struct gmmu_uartlink_rsp r;
    gmmu_uartlink_encode_req(frame, GMMU_UARTLINK_HELLO, 0x40, 0, 0, 0);
    send_raw(fd, frame, sizeof frame);
    assert_int_equal(read_response(fd, &r, ANSWER_MS), 0);
    assert_int_equal(r.type, GMMU_UARTLINK_HELLO_ACK);

    const uint32_t word = 0x1200A534; /* little-endian: 34 A5 00 12 */
    uint8_t burst[5 + GMMU_UARTLINK_REQ_BYTES] = { GMMU_UARTLINK_SOF, GMMU_UARTLINK_WRITE, 0x41, 0,
                                                   0 };
    gmmu_uartlink_encode_req(frame, GMMU_UARTLINK_WRITE, 0x41, 0, GMMU_CMD_RING, word);
    assert_int_equal(frame[8], GMMU_UARTLINK_SOF);
    memcpy(burst + 5, frame, sizeof frame);
    send_raw(fd, burst, sizeof burst);

    unsigned naks = 0;
    bool acked = false;
    for (int attempt = 0; attempt < 8 && !acked; attempt++) {
        assert_int_equal(read_response(fd, &r, ANSWER_MS), 0);
        if (r.type == GMMU_UARTLINK_NAK) {
            naks++;
            send_raw(fd, frame, sizeof frame);
            continue;
        }
        assert_int_equal(r.type, GMMU_UARTLINK_WRITE_ACK);
        assert_int_equal(r.seq, 0x41);
        assert_int_equal(r.status, GMMU_UARTLINK_ST_OK);
        acked = true;
    }
    assert_true(acked);
    assert_int_equal(naks, 1); /* the two dropped frames share one NAK */
    assert_int_equal(read_response(fd, &r, QUIET_MS), -1); /* and nothing else came */

    gmmu_uartlink_encode_req(frame, GMMU_UARTLINK_READ, 0x42, 0, GMMU_CMD_RING, 0);
    send_raw(fd, frame, sizeof frame);
    assert_int_equal(read_response(fd, &r, ANSWER_MS), 0);
    assert_int_equal(r.type, GMMU_UARTLINK_READ_RSP);
    assert_int_equal(r.data, word);
    close(fd);
}

static void test_noise_was_caught(void **state)
{
    (void)state;
    printf("uart link: %llu requests, %llu retries, %llu NAKs, %llu timeouts, "
           "%llu damaged frames, %llu stale answers, %llu IRQ frames\n",
           (unsigned long long)total.requests, (unsigned long long)total.retries,
           (unsigned long long)total.naks, (unsigned long long)total.timeouts,
           (unsigned long long)total.crc_errors, (unsigned long long)total.stale,
           (unsigned long long)total.irqs);
    const char *expect = getenv("GMMU_UART_EXPECT_ERRORS");
    if (expect && strcmp(expect, "1") == 0) {
        assert_true(total.retries > 0);
        assert_true(total.naks > 0);       /* the device caught damage */
        assert_true(total.crc_errors > 0); /* the host caught damage */
    }
}

/* Maps the clock file of ",simclock=FILE" in GMMU_DEVICE, if any. */
static void map_device_clock(void)
{
    const char *opt = device ? strstr(device, ",simclock=") : NULL;
    if (opt == NULL)
        return;
    char path[256];
    opt += strlen(",simclock=");
    size_t n = strcspn(opt, ",");
    if (n == 0 || n >= sizeof path)
        return;
    memcpy(path, opt, n);
    path[n] = '\0';
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    void *map = mmap(NULL, GMMU_UARTLINK_SIMCLOCK_BYTES, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map != MAP_FAILED)
        device_clock = map;
}

int main(void)
{
    device = getenv("GMMU_DEVICE");
    map_device_clock();
    const struct CMUnitTest offline[] = {
        cmocka_unit_test(test_crc_and_frames),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_no_answer_gives_up),
        cmocka_unit_test(test_retries_against_fake_device),
        cmocka_unit_test(test_stray_sof_inside_damaged_frame),
        cmocka_unit_test(test_failed_request_uses_up_its_seq),
        cmocka_unit_test(test_simclock_spec_errors),
        cmocka_unit_test(test_retry_runs_on_simulated_time),
        cmocka_unit_test(test_stalled_simulation_times_out),
    };
    const struct CMUnitTest on_device[] = {
        cmocka_unit_test(test_device_identity),
        cmocka_unit_test(test_readback_under_noise),
        cmocka_unit_test(test_writes_run_exactly_once),
        cmocka_unit_test(test_bad_accesses_reported),
        cmocka_unit_test(test_commands_under_noise),
        cmocka_unit_test(test_noise_was_caught),
    };
    const struct CMUnitTest on_quiet_line[] = {
        cmocka_unit_test(test_resend_is_not_swallowed_after_lost_sync),
    };
    int failed = cmocka_run_group_tests_name("uart link offline", offline, NULL, NULL);
    if (!device) {
        fprintf(stderr, "test_uart_link: GMMU_DEVICE not set, device tests skipped\n");
        return failed;
    }
    /* Tests that script the line byte by byte need it free of injected
       damage: the simulator runs without it for them (make t-uart-resync). */
    const char *quiet = getenv("GMMU_UART_QUIET_LINE");
    if (quiet && strcmp(quiet, "1") == 0)
        return failed +
               cmocka_run_group_tests_name("uart link on a quiet line", on_quiet_line, NULL, NULL);
    return failed + cmocka_run_group_tests_name("uart link on the device", on_device, NULL, NULL);
}
