// SPDX-License-Identifier: Apache-2.0
/*
 * The simulated PCIe link end to end: a thread plays the simulator (it
 * polls sim/pcie_link.c and serves requests from in-memory BARs) while the
 * test, as the host, uses libgmmu's transports. Raw socket clients play
 * broken or hostile hosts. Every wait is bounded.
 */
#define _GNU_SOURCE /* memfd_create and seals, for hostile system-memory hosts */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "gmmu/simlink.h"
#include "gmmu_transport.h"
#include "pcie_link.h"
#include "transport_batch.h"
#include "transport_deadline.h"

/* ------------------------------------------------------------ fake device */

#define BAR0_SIZE      0x1000u
#define BAR1_SIZE      0x4000u
#define DOORBELL_OFF   0x40u /* BAR0 write: raise an IRQ, data = vectors */
#define SLOW_OFF       0x80u /* BAR0 read: answered late (or when the host leaves) */
#define SLOW_VALUE     0x5105u
#define SLOW_MS        500
/* System memory as the device sees it: write the bus address to
 * SYSMEM_ADDR_LO/HI, then read or write the word there at SYSMEM_DATA (a
 * bus error if no buffer of the host covers it). */
#define SYSMEM_ADDR_LO 0x90u
#define SYSMEM_ADDR_HI 0x94u
#define SYSMEM_DATA    0x98u

struct fake_device {
    struct pcie_link *link;
    pthread_t thread;
    bool running;
    atomic_bool stop;
    uint32_t bar[2][BAR1_SIZE / 4];
    bool slow_pending;
    struct pcie_link_request slow_req;
    int64_t slow_due_ms;
    uint64_t sysmem_addr;
    /* DDR_FAULT calls seen by the harness's handler (device thread). */
    unsigned fault_calls;
    unsigned fault_kinds, fault_count;
    uint64_t fault_lo, fault_hi;
    struct pcie_link_stats stats; /* valid after stop_device */
    char dir[64];
    char path[128];
    char spec[160];
};

static void finish_slow_read(struct fake_device *d, bool force)
{
    if (!d->slow_pending)
        return;
    bool host_left =
        !pcie_link_connected(d->link) || pcie_link_generation(d->link) != d->slow_req.generation;
    if (force || host_left || now_ms() >= d->slow_due_ms) {
        pcie_link_complete_read(d->link, &d->slow_req, SLOW_VALUE, GMMU_SIMLINK_ST_OK);
        d->slow_pending = false;
    }
}

/* The device's own access to system memory, as its DMA would make it. */
static bool serve_sysmem(struct fake_device *d, const struct pcie_link_request *r)
{
    if (r->bar != 0 ||
        (r->offset != SYSMEM_ADDR_LO && r->offset != SYSMEM_ADDR_HI && r->offset != SYSMEM_DATA))
        return false;
    unsigned shift = r->offset == SYSMEM_ADDR_HI ? 32 : 0;
    if (r->kind == PCIE_LINK_WRITE && r->offset != SYSMEM_DATA) {
        d->sysmem_addr &= ~(0xFFFFFFFFull << shift);
        d->sysmem_addr |= (uint64_t)r->data << shift;
        return true;
    }
    uint8_t *mem = pcie_link_sysmem(d->link, d->sysmem_addr, 4);
    uint32_t v = 0xFFFFFFFFu;
    if (mem != NULL && r->kind == PCIE_LINK_WRITE)
        memcpy(mem, &r->data, 4);
    if (mem != NULL && r->kind == PCIE_LINK_READ)
        memcpy(&v, mem, 4);
    if (r->kind == PCIE_LINK_READ)
        pcie_link_complete_read(d->link, r, v,
                                mem != NULL ? GMMU_SIMLINK_ST_OK : GMMU_SIMLINK_ST_BUS_ERROR);
    return true;
}

static void serve(struct fake_device *d, const struct pcie_link_request *r)
{
    uint32_t *word = &d->bar[r->bar][r->offset / 4];
    if (serve_sysmem(d, r))
        return;
    if (r->kind == PCIE_LINK_WRITE) {
        if (r->bar == 0 && r->offset == DOORBELL_OFF)
            pcie_link_raise_irq(d->link, r->data);
        else
            *word = r->data;
    } else if (r->bar == 0 && r->offset == SLOW_OFF) {
        finish_slow_read(d, true); /* one slow read at a time */
        d->slow_req = *r;
        d->slow_pending = true;
        d->slow_due_ms = now_ms() + SLOW_MS;
    } else {
        pcie_link_complete_read(d->link, r, *word, GMMU_SIMLINK_ST_OK);
    }
}

/* The harness's DDR_FAULT handler: records the request; refuses windows
 * past 64 KiB; the counts answered are the number of calls and 100 more. */
static uint8_t fake_fault(void *ctx, unsigned kinds, uint64_t lo, uint64_t hi, unsigned count,
                          uint64_t *read_beats, uint64_t *write_bursts)
{
    struct fake_device *d = ctx;
    d->fault_calls++;
    d->fault_kinds = kinds;
    d->fault_count = count;
    d->fault_lo = lo;
    d->fault_hi = hi;
    *read_beats = d->fault_calls;
    *write_bursts = 100u + d->fault_calls;
    return hi > 0x10000 ? GMMU_SIMLINK_ST_BAD_FAULT : GMMU_SIMLINK_ST_OK;
}

static void *device_main(void *arg)
{
    struct fake_device *d = arg;
    while (!atomic_load(&d->stop)) {
        struct pcie_link_request r;
        pcie_link_poll(d->link);
        while (pcie_link_next_request(d->link, &r))
            serve(d, &r);
        finish_slow_read(d, false);
        struct timespec ts = { .tv_nsec = 20000 };
        nanosleep(&ts, NULL);
    }
    pcie_link_get_stats(d->link, &d->stats);
    return NULL;
}

static void stop_device(struct fake_device *d)
{
    if (!d->running)
        return;
    atomic_store(&d->stop, true);
    pthread_join(d->thread, NULL);
    d->running = false;
}

static int setup_device(void **state)
{
    struct fake_device *d = calloc(1, sizeof(*d));
    if (d == NULL)
        return -1;
    strcpy(d->dir, "/tmp/simlink-XXXXXX");
    if (mkdtemp(d->dir) == NULL)
        return -1;
    snprintf(d->path, sizeof(d->path), "%s/link.sock", d->dir);
    snprintf(d->spec, sizeof(d->spec), "sim:%s", d->path);
    d->link = pcie_link_open(d->path, BAR0_SIZE, BAR1_SIZE);
    if (d->link == NULL)
        return -1;
    pcie_link_set_poll_interval(d->link, 1);
    pcie_link_set_fault_handler(d->link, fake_fault, d);
    atomic_init(&d->stop, false);
    if (pthread_create(&d->thread, NULL, device_main, d) != 0)
        return -1;
    d->running = true;
    *state = d;
    return 0;
}

static int teardown_device(void **state)
{
    struct fake_device *d = *state;
    stop_device(d);
    pcie_link_close(d->link);
    rmdir(d->dir);
    free(d);
    return 0;
}

/* ------------------------------------------------------------ raw clients */

static int raw_connect(const char *path)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
    return fd;
}

static void raw_send_bytes(int fd, const void *buf, size_t len)
{
    assert_int_equal(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

static void raw_send(int fd, struct gmmu_simlink_frame f)
{
    uint8_t buf[GMMU_SIMLINK_FRAME_BYTES];
    gmmu_simlink_encode(&f, buf);
    raw_send_bytes(fd, buf, sizeof(buf));
}

/* One whole frame, or fails the test after 2 s. */
static struct gmmu_simlink_frame raw_recv(int fd)
{
    uint8_t buf[GMMU_SIMLINK_FRAME_BYTES];
    size_t got = 0;
    int64_t deadline = now_ms() + 2000;
    while (got < sizeof(buf)) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int left = (int)(deadline - now_ms());
        assert_true(left > 0);
        assert_true(poll(&p, 1, left) == 1);
        ssize_t n = recv(fd, buf + got, sizeof(buf) - got, 0);
        assert_true(n > 0);
        got += (size_t)n;
    }
    struct gmmu_simlink_frame f;
    gmmu_simlink_decode(buf, &f);
    return f;
}

static struct gmmu_simlink_frame raw_read(int fd, uint8_t bar, uint8_t size, uint64_t addr,
                                          uint32_t tag)
{
    raw_send(
        fd,
        (struct gmmu_simlink_frame){
            .type = GMMU_SIMLINK_MEM_READ, .bar = bar, .size = size, .tag = tag, .addr = addr });
    return raw_recv(fd);
}

static void raw_hello(int fd)
{
    raw_send(
        fd, (struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_HELLO, .tag = GMMU_SIMLINK_VERSION });
    struct gmmu_simlink_frame ack = raw_recv(fd);
    assert_int_equal(ack.type, GMMU_SIMLINK_HELLO_ACK);
    assert_int_equal(ack.status, GMMU_SIMLINK_ST_OK);
}

/* ------------------------------------------------------------ helpers */

static struct gmmu_transport *open_sim(struct fake_device *d)
{
    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open(d->spec, &t), GMMU_OK);
    assert_non_null(t);
    return t;
}

static void assert_reads(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t want)
{
    uint32_t v = 0;
    assert_int_equal(gmmu_transport_read32(t, bar, off, &v), GMMU_OK);
    assert_int_equal(v, want);
}

/* ------------------------------------------------------------ sim tests */

static void test_round_trip(void **state)
{
    struct fake_device *d = *state;
    struct gmmu_transport *t = open_sim(d);
    assert_string_equal(gmmu_transport_scheme(t), "sim");
    assert_int_equal(gmmu_transport_bar_size(t, 0), BAR0_SIZE);
    assert_int_equal(gmmu_transport_bar_size(t, 1), BAR1_SIZE);
    assert_int_equal(gmmu_transport_bar_size(t, 2), 0);

    assert_int_equal(gmmu_transport_write32(t, 0, 0x10, 0x12345678u), GMMU_OK);
    assert_reads(t, 0, 0x10, 0x12345678u);
    assert_int_equal(gmmu_transport_write32(t, 1, BAR1_SIZE - 4, 0xCAFEF00Du), GMMU_OK);
    assert_reads(t, 1, BAR1_SIZE - 4, 0xCAFEF00Du);

    /* More posted writes than the link queues: back-pressure, not loss. */
    for (uint32_t i = 0; i < BAR1_SIZE / 4; i++)
        assert_int_equal(gmmu_transport_write32(t, 1, i * 4, i * 2654435761u), GMMU_OK);
    for (uint32_t i = 0; i < BAR1_SIZE / 4; i++)
        assert_reads(t, 1, i * 4, i * 2654435761u);

    gmmu_transport_close(t);
    stop_device(d);
    assert_int_equal(d->stats.bad_frames, 0);
    assert_int_equal(d->stats.writes, 2 + BAR1_SIZE / 4);
    assert_int_equal(d->stats.reads, 2 + BAR1_SIZE / 4);
}

/* Many reads in flight (libgmmu's BAR1 reads): each word comes back to its
 * place, a failed one in the middle is all ones and reported, the stream
 * stays aligned for the next request. */
static void test_read_many(void **state)
{
    struct fake_device *d = *state;
    struct gmmu_transport *t = open_sim(d);
    enum { N = BAR1_SIZE / 4 };
    static uint64_t off[N];
    static uint32_t val[N];
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(gmmu_transport_write32(t, 1, i * 4, i * 2246822519u + 7), GMMU_OK);
        off[i] = (uint64_t)(N - 1 - i) * 4; /* backwards: order is the caller's */
    }
    assert_int_equal(transport_read_many(t, 1, off, val, N), GMMU_OK);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(val[i], (N - 1 - i) * 2246822519u + 7);

    off[100] = BAR1_SIZE; /* beyond the BAR: answered with an error */
    memset(val, 0, sizeof val);
    assert_int_equal(transport_read_many(t, 1, off, val, 200), GMMU_E_LINK_ERROR);
    assert_int_equal(val[100], 0xFFFFFFFFu);
    assert_int_equal(val[99], (N - 100) * 2246822519u + 7);
    assert_int_equal(val[199], (N - 200) * 2246822519u + 7);
    assert_reads(t, 1, 8, 2 * 2246822519u + 7);

    off[0] = 2; /* caught before the wire */
    assert_int_equal(transport_read_many(t, 1, off, val, 1), GMMU_E_INVALID_ARG);
    assert_int_equal(transport_read_many(t, 0, off, val, 0), GMMU_OK);
    gmmu_transport_close(t);
    stop_device(d);
    assert_int_equal(d->stats.reads, N + 199 + 1); /* the refused one is not a read */
}

static void test_bad_accesses(void **state)
{
    struct fake_device *d = *state;
    struct gmmu_transport *t = open_sim(d);
    uint32_t v = 0;

    assert_int_equal(gmmu_transport_read32(t, 0, BAR0_SIZE, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(v, 0xFFFFFFFFu);
    assert_int_equal(gmmu_transport_read32(t, 1, UINT64_MAX - 3, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(gmmu_transport_write32(t, 0, BAR0_SIZE + 64, 1), GMMU_OK); /* posted */

    /* Caught before the wire. */
    assert_int_equal(gmmu_transport_read32(t, 0, 2, &v), GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_read32(t, 2, 0, &v), GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_read32(t, 0, 0, NULL), GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_write32(t, 5, 0, 1), GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_read32(NULL, 0, 0, &v), GMMU_E_INVALID_ARG);

    assert_int_equal(gmmu_transport_write32(t, 0, 0x20, 7), GMMU_OK);
    assert_reads(t, 0, 0x20, 7);
    gmmu_transport_close(t);
    stop_device(d);
    assert_int_equal(d->stats.bad_frames, 3);
}

static void test_garbage_does_not_hurt(void **state)
{
    struct fake_device *d = *state;

    /* Random bytes, not even a whole number of frames. */
    int fd = raw_connect(d->path);
    uint8_t junk[4099];
    srand(1234);
    for (size_t i = 0; i < sizeof(junk); i++)
        junk[i] = (uint8_t)rand();
    raw_send_bytes(fd, junk, sizeof(junk));
    close(fd);

    /* Well-framed nonsense: skipped or answered with an error status. */
    fd = raw_connect(d->path);
    raw_hello(fd);
    static const uint8_t bad_types[] = { GMMU_SIMLINK_INVALID,
                                         GMMU_SIMLINK_IRQ,
                                         GMMU_SIMLINK_READ_COMPLETION,
                                         0x09,
                                         GMMU_SIMLINK_SYSMEM_MAP_ACK,
                                         0x1F,
                                         0xFF };
    for (size_t i = 0; i < sizeof(bad_types); i++)
        raw_send(fd, (struct gmmu_simlink_frame){ .type = bad_types[i], .size = 4 });
    raw_send(fd, (struct gmmu_simlink_frame){
                     .type = GMMU_SIMLINK_MEM_WRITE, .bar = 7, .size = 4, .data = 1 });
    assert_int_equal(raw_read(fd, 3, 4, 0, 11).status, GMMU_SIMLINK_ST_BAD_BAR);
    assert_int_equal(raw_read(fd, 0, 2, 0, 12).status, GMMU_SIMLINK_ST_BAD_SIZE);
    assert_int_equal(raw_read(fd, 0, 8, 0, 12).status, GMMU_SIMLINK_ST_BAD_SIZE);
    assert_int_equal(raw_read(fd, 0, 4, 2, 13).status, GMMU_SIMLINK_ST_BAD_OFFSET);
    assert_int_equal(raw_read(fd, 1, 4, BAR1_SIZE, 14).status, GMMU_SIMLINK_ST_BAD_OFFSET);
    struct gmmu_simlink_frame c = raw_read(fd, 1, 4, BAR1_SIZE - 4, 15);
    assert_int_equal(c.type, GMMU_SIMLINK_READ_COMPLETION);
    assert_int_equal(c.status, GMMU_SIMLINK_ST_OK);
    assert_int_equal(c.tag, 15);

    /* A HELLO of another protocol version is refused. */
    raw_send(fd, (struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_HELLO, .tag = 99 });
    struct gmmu_simlink_frame ack = raw_recv(fd);
    assert_int_equal(ack.type, GMMU_SIMLINK_HELLO_ACK);
    assert_int_equal(ack.status, GMMU_SIMLINK_ST_BAD_VERSION);
    close(fd);

    /* The device still serves a proper host. */
    struct gmmu_transport *t = open_sim(d);
    assert_int_equal(gmmu_transport_write32(t, 0, 0x30, 0xA5A5A5A5u), GMMU_OK);
    assert_reads(t, 0, 0x30, 0xA5A5A5A5u);
    gmmu_transport_close(t);
    stop_device(d);
    assert_true(d->stats.bad_frames >= 12);
    assert_int_equal(d->stats.connects, 3);
}

static void test_partial_frames(void **state)
{
    struct fake_device *d = *state;
    int fd = raw_connect(d->path);
    uint8_t buf[2 * GMMU_SIMLINK_FRAME_BYTES];
    struct gmmu_simlink_frame hello = { .type = GMMU_SIMLINK_HELLO, .tag = GMMU_SIMLINK_VERSION };
    struct gmmu_simlink_frame read = {
        .type = GMMU_SIMLINK_MEM_READ, .size = 4, .tag = 77, .addr = 0x44
    };
    gmmu_simlink_encode(&hello, buf);
    gmmu_simlink_encode(&read, buf + GMMU_SIMLINK_FRAME_BYTES);
    d->bar[0][0x44 / 4] = 0x600DF00Du; /* before the first read: no race */

    /* Trickled out in uneven pieces, with the device polling between them. */
    static const size_t pieces[] = { 1, 5, 17, 3, 9, 13 };
    size_t pos = 0;
    for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
        raw_send_bytes(fd, buf + pos, pieces[i]);
        pos += pieces[i];
        sleep_ms(2);
    }
    assert_int_equal(pos, sizeof(buf));
    assert_int_equal(raw_recv(fd).type, GMMU_SIMLINK_HELLO_ACK);
    struct gmmu_simlink_frame c = raw_recv(fd);
    assert_int_equal(c.tag, 77);
    assert_int_equal(c.data, 0x600DF00Du);
    close(fd);
}

/* Hosts that leave with a read in flight, one after another: the device
 * drops their answers and the next host is served normally. */
static void test_hosts_come_and_go(void **state)
{
    struct fake_device *d = *state;
    const int rounds = 4;
    for (int i = 0; i < rounds; i++) {
        struct gmmu_transport *t = open_sim(d);
        gmmu_transport_set_timeout(t, 50);
        uint32_t v;
        assert_int_equal(gmmu_transport_read32(t, 0, SLOW_OFF, &v), GMMU_E_TIMEOUT);
        gmmu_transport_close(t);

        /* A raw host that asks and hangs up without waiting. */
        int fd = raw_connect(d->path);
        raw_hello(fd);
        raw_send(fd, (struct gmmu_simlink_frame){
                         .type = GMMU_SIMLINK_MEM_READ, .size = 4, .addr = SLOW_OFF, .tag = 5 });
        close(fd);

        t = open_sim(d);
        assert_int_equal(gmmu_transport_write32(t, 1, 0x100, (uint32_t)i), GMMU_OK);
        assert_reads(t, 1, 0x100, (uint32_t)i);
        gmmu_transport_close(t);
    }
    /* Being let in proves the device saw every earlier host leave. */
    gmmu_transport_close(open_sim(d));
    stop_device(d);
    assert_int_equal(d->stats.connects, 3 * rounds + 1);
    assert_true(d->stats.disconnects >= 3 * rounds);
    /* Each host that left had one slow read: never run, or answered into
     * the void. */
    assert_int_equal(d->stats.completions_dropped + d->stats.stale_reads_dropped, 2 * rounds);
}

/* A completion that arrives after its read timed out must not be taken as
 * the answer to the next read. */
static void test_late_completion_ignored(void **state)
{
    struct fake_device *d = *state;
    struct gmmu_transport *t = open_sim(d);
    gmmu_transport_set_timeout(t, 50);
    uint32_t v;
    assert_int_equal(gmmu_transport_read32(t, 0, SLOW_OFF, &v), GMMU_E_TIMEOUT);
    assert_int_equal(v, 0xFFFFFFFFu);
    sleep_ms(SLOW_MS + 100); /* the late answer is now in the socket */
    gmmu_transport_set_timeout(t, 2000);
    assert_int_equal(gmmu_transport_write32(t, 0, 0x50, 0x1234u), GMMU_OK);
    assert_reads(t, 0, 0x50, 0x1234u);
    gmmu_transport_close(t);
}

static void test_irq(void **state)
{
    struct fake_device *d = *state;
    struct gmmu_transport *t = open_sim(d);
    uint32_t vec = 123;

    int64_t start = now_ms();
    assert_int_equal(gmmu_transport_wait_irq(t, 50, &vec), GMMU_E_TIMEOUT);
    int64_t waited = now_ms() - start;
    assert_true(waited >= 45 && waited < 2000);
    assert_int_equal(vec, 0);

    assert_int_equal(gmmu_transport_write32(t, 0, DOORBELL_OFF, 0x5), GMMU_OK);
    assert_int_equal(gmmu_transport_wait_irq(t, 2000, &vec), GMMU_OK);
    assert_int_equal(vec, 0x5);

    /* Interrupts that arrive while a read waits are kept, and merged. */
    assert_int_equal(gmmu_transport_write32(t, 0, DOORBELL_OFF, 0x1), GMMU_OK);
    assert_int_equal(gmmu_transport_write32(t, 0, DOORBELL_OFF, 0x8), GMMU_OK);
    assert_reads(t, 0, 0x0, 0);
    assert_int_equal(gmmu_transport_wait_irq(t, 0, &vec), GMMU_OK);
    assert_int_equal(vec, 0x9);
    assert_int_equal(gmmu_transport_wait_irq(t, 0, &vec), GMMU_E_TIMEOUT);

    gmmu_transport_close(t);
    stop_device(d);
    assert_int_equal(d->stats.irqs_sent, 3);
}

static void test_second_host_waits_its_turn(void **state)
{
    struct fake_device *d = *state;
    struct gmmu_transport *first = open_sim(d);
    struct gmmu_transport *second = NULL;

    setenv(GMMU_TRANSPORT_TIMEOUT_ENV, "100", 1);
    assert_int_equal(gmmu_transport_open(d->spec, &second), GMMU_E_TIMEOUT);
    unsetenv(GMMU_TRANSPORT_TIMEOUT_ENV);
    assert_null(second);

    assert_int_equal(gmmu_transport_write32(first, 0, 0x60, 60), GMMU_OK);
    assert_reads(first, 0, 0x60, 60);
    gmmu_transport_close(first);

    second = open_sim(d);
    assert_reads(second, 0, 0x60, 60);
    gmmu_transport_close(second);
}

static void test_simulation_goes_away(void **state)
{
    struct fake_device *d = *state;
    struct gmmu_transport *t = open_sim(d);
    stop_device(d);
    pcie_link_close(d->link);
    d->link = NULL;

    uint32_t v;
    assert_int_equal(gmmu_transport_read32(t, 0, 0, &v), GMMU_E_DISCONNECTED);
    assert_int_equal(gmmu_transport_write32(t, 0, 0, 1), GMMU_E_DISCONNECTED);
    assert_int_equal(gmmu_transport_wait_irq(t, 1000, &v), GMMU_E_DISCONNECTED);
    gmmu_transport_close(t);

    /* Nothing listens any more: the socket file is gone. */
    assert_int_equal(gmmu_transport_open(d->spec, &t), GMMU_E_NO_DEVICE);
}

/* ------------------------------------------------------------ link setup */

static void test_link_open_rules(void **state)
{
    (void)state;
    char dir[] = "/tmp/simlink-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64], spec[80];
    snprintf(path, sizeof(path), "%s/s", dir);
    snprintf(spec, sizeof(spec), "sim:%s", path);
    struct gmmu_transport *t = NULL;

    /* No simulation yet. */
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_NO_DEVICE);

    /* A socket file left by a dead simulation: the host is told there is no
     * device, and a new simulation takes the path over. */
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    strcpy(addr.sun_path, path);
    assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
    close(fd);
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_E_NO_DEVICE);
    struct pcie_link *link = pcie_link_open(path, 4096, 0);
    assert_non_null(link);

    /* A live simulation's socket is not stolen. */
    errno = 0;
    assert_null(pcie_link_open(path, 4096, 0));
    assert_int_equal(errno, EADDRINUSE);
    pcie_link_close(link);
    struct stat st;
    assert_int_not_equal(lstat(path, &st), 0);

    /* Nor is a file that is not a socket. */
    fd = open(path, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    close(fd);
    errno = 0;
    assert_null(pcie_link_open(path, 4096, 0));
    assert_int_equal(errno, EEXIST);
    unlink(path);

    errno = 0;
    assert_null(pcie_link_open("", 4096, 0));
    assert_int_equal(errno, EINVAL);
    char long_path[200];
    memset(long_path, 'x', sizeof(long_path) - 1);
    long_path[sizeof(long_path) - 1] = '\0';
    assert_null(pcie_link_open(long_path, 4096, 0));
    assert_int_equal(errno, ENAMETOOLONG);
    pcie_link_close(NULL);
    rmdir(dir);
}

/* Single-threaded, as the harness uses it: poll the link while waiting. */
static struct gmmu_simlink_frame pump_until_frame(struct pcie_link *link, int fd)
{
    for (int i = 0; i < 400; i++) {
        pcie_link_poll(link);
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 5) == 1)
            break;
    }
    return raw_recv(fd);
}

static bool pump_until_request(struct pcie_link *link, struct pcie_link_request *r)
{
    for (int i = 0; i < 400; i++) {
        pcie_link_poll(link);
        if (pcie_link_next_request(link, r))
            return true;
        sleep_ms(1);
    }
    return false;
}

/* The harness's view: default poll interval, interrupts with no host,
 * BAR1 absent, error completions. */
static void test_link_harness_api(void **state)
{
    (void)state;
    char dir[] = "/tmp/simlink-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof(path), "%s/s", dir);
    struct pcie_link *link = pcie_link_open(path, 4096, 0);
    assert_non_null(link);

    pcie_link_raise_irq(link, 1);
    pcie_link_poll(link);
    assert_false(pcie_link_connected(link));
    assert_int_equal(pcie_link_generation(link), 0);

    int fd = raw_connect(path);
    for (int i = 0; i < 64 && !pcie_link_connected(link); i++)
        pcie_link_poll(link);
    assert_true(pcie_link_connected(link));
    assert_int_equal(pcie_link_generation(link), 1);
    pcie_link_raise_irq(link, 2); /* no HELLO yet: dropped */

    raw_send(
        fd, (struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_HELLO, .tag = GMMU_SIMLINK_VERSION });
    struct gmmu_simlink_frame f = pump_until_frame(link, fd);
    assert_int_equal(f.type, GMMU_SIMLINK_HELLO_ACK);
    assert_int_equal(f.tag, GMMU_SIMLINK_VERSION);
    assert_int_equal(f.addr, 4096);
    assert_int_equal(f.data, 0);

    raw_send(fd, (struct gmmu_simlink_frame){
                     .type = GMMU_SIMLINK_MEM_READ, .bar = 1, .size = 4, .tag = 3 });
    f = pump_until_frame(link, fd);
    assert_int_equal(f.status, GMMU_SIMLINK_ST_BAD_BAR);
    assert_int_equal(f.tag, 3);

    /* A read the RTL answers with a bus error. */
    raw_send(fd, (struct gmmu_simlink_frame){
                     .type = GMMU_SIMLINK_MEM_READ, .size = 4, .tag = 4, .addr = 0xFFC });
    struct pcie_link_request r;
    assert_true(pump_until_request(link, &r));
    assert_int_equal(r.kind, PCIE_LINK_READ);
    assert_int_equal(r.bar, 0);
    assert_int_equal(r.offset, 0xFFC);
    assert_int_equal(r.size, 4);
    assert_int_equal(r.tag, 4);
    assert_int_equal(r.generation, 1);
    pcie_link_complete_read(link, &r, 0, GMMU_SIMLINK_ST_BUS_ERROR);
    f = raw_recv(fd);
    assert_int_equal(f.type, GMMU_SIMLINK_READ_COMPLETION);
    assert_int_equal(f.status, GMMU_SIMLINK_ST_BUS_ERROR);
    assert_int_equal(f.tag, 4);
    pcie_link_complete_read(link, &r, 0, 1000); /* nonsense status: a bus error */
    assert_int_equal(raw_recv(fd).status, GMMU_SIMLINK_ST_BUS_ERROR);

    raw_send(fd, (struct gmmu_simlink_frame){
                     .type = GMMU_SIMLINK_MEM_WRITE, .size = 4, .addr = 8, .data = 0xABCDu });
    assert_true(pump_until_request(link, &r));
    assert_int_equal(r.kind, PCIE_LINK_WRITE);
    assert_int_equal(r.offset, 8);
    assert_int_equal(r.data, 0xABCDu);
    assert_false(pcie_link_next_request(link, &r));

    pcie_link_raise_irq(link, 4);
    f = raw_recv(fd);
    assert_int_equal(f.type, GMMU_SIMLINK_IRQ);
    assert_int_equal(f.data, 4);
    close(fd);
    for (int i = 0; i < 400 && pcie_link_connected(link); i++) {
        pcie_link_poll(link);
        sleep_ms(1);
    }
    assert_false(pcie_link_connected(link));

    struct pcie_link_stats s;
    pcie_link_get_stats(link, &s);
    assert_int_equal(s.irqs_dropped, 2);
    assert_int_equal(s.irqs_sent, 1);
    assert_int_equal(s.connects, 1);
    assert_int_equal(s.disconnects, 1);
    assert_int_equal(s.requests, 2);
    assert_int_equal(s.bad_frames, 1);
    pcie_link_close(link);
    rmdir(dir);
}

/* ------------------------------------------------------------ specs */

static void test_spec_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        "sim",
        ":x",
        "nope:/tmp/x",
        "SIM:/tmp/x",
        "sim:",
        "pci:",
        "pci:0000:01:00",
        "pci:0000:01:00.0x",
        "pci:0000:01:20.0",
        "pci:0000:01:00.8",
        "pci:zz:00.0",
        "pci:000:01:00.0",
        "pci:000000000:01:00.0",
        "pci:0000:1:00.0",
        "pci:0000:01:0.0",
        "pci:0000:01:00:0",
        "pci:0000:01:00.0:1",
        "pci:01-00.0",
        "pci: 01:00.0",
    };
    static struct gmmu_transport sentinel;
    struct gmmu_transport *t;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        t = &sentinel; /* open must clear it on failure */
        assert_int_equal(gmmu_transport_open(bad[i], &t), GMMU_E_BAD_SPEC);
        assert_null(t);
    }
    assert_int_equal(gmmu_transport_open(NULL, &t), GMMU_E_BAD_SPEC);
    assert_int_equal(gmmu_transport_open("sim:/tmp/x", NULL), GMMU_E_INVALID_ARG);

    char long_spec[300] = "sim:/";
    memset(long_spec + 5, 'a', sizeof(long_spec) - 6);
    long_spec[sizeof(long_spec) - 1] = '\0';
    assert_int_equal(gmmu_transport_open(long_spec, &t), GMMU_E_BAD_SPEC);
}

static void test_strerror(void **state)
{
    (void)state;
    for (int e = GMMU_OK; e >= GMMU_E_PROTOCOL; e--) {
        const char *msg = gmmu_host_strerror(e);
        assert_non_null(msg);
        assert_string_not_equal(msg, "unknown error");
        for (int other = e + 1; other <= GMMU_OK; other++)
            assert_string_not_equal(msg, gmmu_host_strerror(other));
    }
    assert_string_equal(gmmu_host_strerror(GMMU_E_PROTOCOL - 1), "unknown error");
    assert_string_equal(gmmu_host_strerror(42), "unknown error");
}

/* ------------------------------------------------------------ pci */

static void test_pci_missing_device(void **state)
{
    (void)state;
    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open("pci:ffff:ff:1f.7", &t), GMMU_E_NO_DEVICE);
    assert_null(t);
}

static void write_file(const char *dir, const char *name, size_t size, uint8_t fill)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
    assert_true(fd >= 0);
    uint8_t buf[256];
    memset(buf, fill, sizeof(buf));
    for (size_t done = 0; done < size; done += sizeof(buf))
        assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
    close(fd);
}

static uint32_t file_word(const char *dir, const char *name, off_t off)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    uint8_t b[4];
    assert_int_equal(pread(fd, b, 4, off), 4);
    close(fd);
    return (uint32_t)gmmu_simlink_get_le(b, 4);
}

static void remove_device_dir(const char *root, const char *bdf)
{
    static const char *const files[] = { "enable", "resource0", "resource1" };
    char path[256];
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "%s/%s/%s", root, bdf, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof(path), "%s/%s", root, bdf);
    rmdir(path);
}

/* sysfs faked with plain files: resourceN are mmap()ed just the same. */
static void test_pci_fake_sysfs(void **state)
{
    (void)state;
    char root[] = "/tmp/simlink-pci-XXXXXX";
    assert_non_null(mkdtemp(root));
    char dev[128];
    snprintf(dev, sizeof(dev), "%s/0000:03:00.0", root);
    assert_int_equal(mkdir(dev, 0700), 0);
    write_file(dev, "enable", 0, 0);
    write_file(dev, "resource0", 4096, 0);
    write_file(dev, "resource1", 8192, 0);
    gmmu_transport_pci_set_sysfs_root(root);

    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open("pci:03:00.0", &t), GMMU_OK);
    assert_string_equal(gmmu_transport_scheme(t), "pci");
    char enable[4] = { 0 };
    char path[256];
    snprintf(path, sizeof(path), "%s/enable", dev);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(enable, sizeof(enable), f));
    fclose(f);
    assert_string_equal(enable, "1");
    assert_int_equal(gmmu_transport_bar_size(t, 0), 4096);
    assert_int_equal(gmmu_transport_bar_size(t, 1), 8192);

    assert_int_equal(gmmu_transport_write32(t, 0, 0x10, 0x11223344u), GMMU_OK);
    assert_reads(t, 0, 0x10, 0x11223344u);
    assert_int_equal(gmmu_transport_write32(t, 1, 8188, 0xDEADBEEFu), GMMU_OK);
    assert_reads(t, 1, 8188, 0xDEADBEEFu);
    uint32_t v;
    assert_int_equal(gmmu_transport_read32(t, 1, 8192, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(gmmu_transport_write32(t, 0, 4096, 1), GMMU_E_LINK_ERROR);
    assert_int_equal(gmmu_transport_wait_irq(t, 10, &v), GMMU_E_NOT_SUPPORTED);

    /* All ones in the identity register: the device is gone. */
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_TRANSPORT_ID_OFFSET, 0xFFFFFFFFu), GMMU_OK);
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_TRANSPORT_ID_OFFSET, &v), GMMU_E_DEVICE_GONE);
    gmmu_transport_close(t);
    assert_int_equal(file_word(dev, "resource0", 0x10), 0x11223344u);
    assert_int_equal(file_word(dev, "resource1", 8188), 0xDEADBEEFu);
    assert_int_equal(gmmu_transport_open("pci:0000:03:00.0", &t), GMMU_E_DEVICE_GONE);
    assert_null(t);

    /* BAR1 is optional; BAR0 is not. */
    write_file(dev, "resource0", 4096, 0);
    snprintf(path, sizeof(path), "%s/resource1", dev);
    unlink(path);
    assert_int_equal(gmmu_transport_open("pci:0000:03:00.0", &t), GMMU_OK);
    assert_int_equal(gmmu_transport_bar_size(t, 1), 0);
    assert_int_equal(gmmu_transport_read32(t, 1, 0, &v), GMMU_E_LINK_ERROR);
    gmmu_transport_close(t);
    snprintf(path, sizeof(path), "%s/resource0", dev);
    unlink(path);
    assert_int_equal(gmmu_transport_open("pci:0000:03:00.0", &t), GMMU_E_NO_DEVICE);

    assert_int_equal(gmmu_transport_open("pci:0000:04:00.0", &t), GMMU_E_NO_DEVICE);

    gmmu_transport_pci_set_sysfs_root(NULL);
    remove_device_dir(root, "0000:03:00.0");
    rmdir(root);
}

/* ------------------------------------------------------------ registry */

/* A transport added at run time: a word of RAM per BAR. */
struct ram_transport {
    struct gmmu_transport base;
    uint32_t word[GMMU_TRANSPORT_BARS];
};

static const struct gmmu_transport_ops ram_ops;

static int ram_open(const char *rest, struct gmmu_transport **out)
{
    if (strcmp(rest, "x") != 0)
        return GMMU_E_BAD_SPEC;
    struct ram_transport *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return GMMU_E_NO_MEMORY;
    gmmu_transport_init(&r->base, &ram_ops);
    *out = &r->base;
    return GMMU_OK;
}

static int ram_read32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t *val)
{
    (void)off;
    *val = ((struct ram_transport *)t)->word[bar];
    return GMMU_OK;
}

static int ram_write32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t val)
{
    (void)off;
    ((struct ram_transport *)t)->word[bar] = val;
    return GMMU_OK;
}

static void ram_close(struct gmmu_transport *t)
{
    free(t);
}

static const struct gmmu_transport_ops ram_ops = {
    .scheme = "ram",
    .open = ram_open,
    .read32 = ram_read32,
    .write32 = ram_write32,
    .close = ram_close, /* no wait_irq: callers poll */
};

static void test_register_transport(void **state)
{
    (void)state;
    struct gmmu_transport_ops incomplete = ram_ops;
    incomplete.read32 = NULL;
    struct gmmu_transport_ops clash = ram_ops;
    clash.scheme = "sim";

    assert_int_equal(gmmu_transport_register(&incomplete), GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_register(&clash), GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_register(NULL), GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_register(&ram_ops), GMMU_OK);
    assert_int_equal(gmmu_transport_register(&ram_ops), GMMU_E_INVALID_ARG);

    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open("ram:y", &t), GMMU_E_BAD_SPEC);
    assert_int_equal(gmmu_transport_open("ram:x", &t), GMMU_OK);
    assert_int_equal(gmmu_transport_write32(t, 1, 0, 42), GMMU_OK);
    assert_reads(t, 1, 0, 42);
    uint64_t offs[3] = { 0, 4, 8 };
    uint32_t words[3] = { 0 };
    assert_int_equal(transport_read_many(t, 1, offs, words, 3), GMMU_OK); /* one by one */
    assert_int_equal(words[0], 42);
    assert_int_equal(words[2], 42);
    uint32_t v;
    assert_int_equal(gmmu_transport_wait_irq(t, 0, &v), GMMU_E_NOT_SUPPORTED);
    uint64_t bus;
    void *mem;
    assert_int_equal(gmmu_transport_sysmem_alloc(t, 4096, &bus, &mem), GMMU_E_NOT_SUPPORTED);
    assert_int_equal(gmmu_transport_sysmem_free(t, 0), GMMU_E_NOT_SUPPORTED);
    assert_int_equal(gmmu_transport_sysmem_alloc(t, 100, &bus, &mem), GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_sysmem_alloc(t, 4096, NULL, &mem), GMMU_E_INVALID_ARG);
    gmmu_transport_close(t);
}

/* ------------------------------------------------------------ system memory */

static void set_sysmem_addr(struct gmmu_transport *t, uint64_t bus)
{
    assert_int_equal(gmmu_transport_write32(t, 0, SYSMEM_ADDR_LO, (uint32_t)bus), GMMU_OK);
    assert_int_equal(gmmu_transport_write32(t, 0, SYSMEM_ADDR_HI, (uint32_t)(bus >> 32)), GMMU_OK);
}

/* What the device reads at a bus address, or the link error it gets. */
static int device_read(struct gmmu_transport *t, uint64_t bus, uint32_t *v)
{
    set_sysmem_addr(t, bus);
    return gmmu_transport_read32(t, 0, SYSMEM_DATA, v);
}

static void test_sysmem_shared_with_the_device(void **state)
{
    struct fake_device *d = *state;
    struct gmmu_transport *t = open_sim(d);
    enum { SIZE = 64 * 1024 };
    uint64_t bus = 0, bus2 = 0;
    void *mem = NULL, *mem2 = NULL;
    assert_int_equal(gmmu_transport_sysmem_alloc(t, SIZE, &bus, &mem), GMMU_OK);
    assert_true(bus >= GMMU_SIMLINK_SYSMEM_BUS_BASE);
    assert_int_equal(bus % GMMU_SIMLINK_SYSMEM_PLACEMENT, 0);

    /* Host writes, device reads; device writes, host reads. */
    uint32_t *w = mem;
    w[0] = 0x11223344u;
    w[SIZE / 4 - 1] = 0xCAFEF00Du;
    uint32_t v = 0;
    assert_int_equal(device_read(t, bus, &v), GMMU_OK);
    assert_int_equal(v, 0x11223344u);
    assert_int_equal(device_read(t, bus + SIZE - 4, &v), GMMU_OK);
    assert_int_equal(v, 0xCAFEF00Du);
    set_sysmem_addr(t, bus + 8);
    assert_int_equal(gmmu_transport_write32(t, 0, SYSMEM_DATA, 0xABCD0123u), GMMU_OK);
    assert_reads(t, 0, SYSMEM_DATA, 0xABCD0123u); /* also orders the write before the check */
    assert_int_equal(w[2], 0xABCD0123u);

    /* Just past the end, and just before the start: nothing there. */
    assert_int_equal(device_read(t, bus + SIZE, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(device_read(t, bus - 4, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(device_read(t, bus + SIZE - 2, &v), GMMU_E_LINK_ERROR); /* straddles */

    /* A second buffer lies beyond the first and its guard gap. */
    assert_int_equal(gmmu_transport_sysmem_alloc(t, 4096, &bus2, &mem2), GMMU_OK);
    assert_true(bus2 >= bus + SIZE + GMMU_SIMLINK_SYSMEM_PLACEMENT);
    ((uint32_t *)mem2)[0] = 7;
    assert_int_equal(device_read(t, bus2, &v), GMMU_OK);
    assert_int_equal(v, 7);

    /* Freed: gone for the device, unknown to a second free. */
    assert_int_equal(gmmu_transport_sysmem_free(t, bus), GMMU_OK);
    assert_int_equal(device_read(t, bus, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(gmmu_transport_sysmem_free(t, bus), GMMU_E_INVALID_ARG);
    gmmu_transport_close(t); /* with bus2 still registered */

    /* The next host cannot reach the last one's memory, and gets new
     * addresses. */
    t = open_sim(d);
    assert_int_equal(device_read(t, bus2, &v), GMMU_E_LINK_ERROR);
    uint64_t bus3 = 0;
    assert_int_equal(gmmu_transport_sysmem_alloc(t, 4096, &bus3, &mem), GMMU_OK);
    assert_true(bus3 > bus2);
    gmmu_transport_close(t);
    stop_device(d);
    assert_int_equal(d->stats.sysmem_maps, 3);
    assert_int_equal(d->stats.sysmem_unmaps, 1);
    assert_int_equal(d->stats.sysmem_rejected, 0);
}

static int sealed_memfd(size_t size, unsigned seals)
{
    int fd = memfd_create("simlink-test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)size), 0);
    if (seals)
        assert_int_equal(fcntl(fd, F_ADD_SEALS, seals), 0);
    return fd;
}

/* SYSMEM_MAP from a raw client, with fd (or -1: none) attached. */
static struct gmmu_simlink_frame raw_map(int sock, int fd, uint64_t size, uint32_t tag)
{
    uint8_t buf[GMMU_SIMLINK_FRAME_BYTES];
    struct gmmu_simlink_frame f = { .type = GMMU_SIMLINK_SYSMEM_MAP, .tag = tag, .data = size };
    gmmu_simlink_encode(&f, buf);
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof(control));
    struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (fd >= 0) {
        msg.msg_control = control.buf;
        msg.msg_controllen = sizeof(control.buf);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    assert_int_equal(sendmsg(sock, &msg, MSG_NOSIGNAL), (ssize_t)sizeof(buf));
    struct gmmu_simlink_frame ack = raw_recv(sock);
    assert_int_equal(ack.type, GMMU_SIMLINK_SYSMEM_MAP_ACK);
    assert_int_equal(ack.tag, tag);
    return ack;
}

/* Buffers the simulator could not safely keep are refused; the host is
 * still served. */
static void test_sysmem_bad_buffers(void **state)
{
    struct fake_device *d = *state;
    int sock = raw_connect(d->path);
    raw_hello(sock);
    const unsigned shrink_sealed = F_SEAL_SHRINK | F_SEAL_GROW;
    int fd;

    assert_int_equal(raw_map(sock, -1, 4096, 1).status, GMMU_SIMLINK_ST_BAD_BUFFER);
    fd = sealed_memfd(4096, 0); /* could be truncated under the simulator */
    assert_int_equal(raw_map(sock, fd, 4096, 2).status, GMMU_SIMLINK_ST_BAD_BUFFER);
    close(fd);
    fd = sealed_memfd(4096, shrink_sealed);
    assert_int_equal(raw_map(sock, fd, 8192, 3).status, GMMU_SIMLINK_ST_BAD_BUFFER); /* > file */
    assert_int_equal(raw_map(sock, fd, 100, 4).status, GMMU_SIMLINK_ST_BAD_BUFFER);  /* granule */
    assert_int_equal(raw_map(sock, fd, 0, 5).status, GMMU_SIMLINK_ST_BAD_BUFFER);
    struct gmmu_simlink_frame ok = raw_map(sock, fd, 4096, 6);
    assert_int_equal(ok.status, GMMU_SIMLINK_ST_OK);
    close(fd);

    raw_send(sock, (struct gmmu_simlink_frame){
                       .type = GMMU_SIMLINK_SYSMEM_UNMAP, .tag = 7, .addr = ok.addr + 4096 });
    struct gmmu_simlink_frame ack = raw_recv(sock);
    assert_int_equal(ack.type, GMMU_SIMLINK_SYSMEM_UNMAP_ACK);
    assert_int_equal(ack.status, GMMU_SIMLINK_ST_NOT_MAPPED);
    raw_send(sock, (struct gmmu_simlink_frame){
                       .type = GMMU_SIMLINK_SYSMEM_UNMAP, .tag = 8, .addr = ok.addr });
    ack = raw_recv(sock);
    assert_int_equal(ack.status, GMMU_SIMLINK_ST_OK);
    assert_int_equal(ack.tag, 8);
    assert_int_equal(raw_read(sock, 0, 4, 0x20, 9).status, GMMU_SIMLINK_ST_OK);
    close(sock);
    stop_device(d);
    assert_int_equal(d->stats.sysmem_maps, 1);
    assert_int_equal(d->stats.sysmem_unmaps, 1);
    assert_int_equal(d->stats.sysmem_rejected, 5);
}

/* A version-1 host is still served, without system memory: its SYSMEM
 * frames are garbage to the device. */
static void test_old_host_version(void **state)
{
    struct fake_device *d = *state;
    int sock = raw_connect(d->path);
    raw_send(sock, (struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_HELLO, .tag = 1 });
    struct gmmu_simlink_frame ack = raw_recv(sock);
    assert_int_equal(ack.status, GMMU_SIMLINK_ST_OK);
    assert_int_equal(ack.tag, 1);
    raw_send(sock, (struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_SYSMEM_MAP, .data = 4096 });
    struct gmmu_simlink_frame c = raw_read(sock, 0, 4, 0x20, 5); /* the next answer is this */
    assert_int_equal(c.type, GMMU_SIMLINK_READ_COMPLETION);
    assert_int_equal(c.tag, 5);
    raw_send(sock, (struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_HELLO,
                                                .tag = GMMU_SIMLINK_VERSION + 1 });
    ack = raw_recv(sock);
    assert_int_equal(ack.status, GMMU_SIMLINK_ST_BAD_VERSION);
    assert_int_equal(ack.tag, GMMU_SIMLINK_VERSION);
    close(sock);
    stop_device(d);
    assert_int_equal(d->stats.sysmem_maps + d->stats.sysmem_rejected, 0);
    assert_true(d->stats.bad_frames >= 1);
}

/* DDR_FAULT, the test hook: the transport's call reaches the harness's
 * handler and returns its counts; bad arguments never leave the host; a
 * refusal is GMMU_E_INVALID_ARG; a version-2 host's DDR_FAULT is garbage. */
static void test_ddr_fault_hook(void **state)
{
    struct fake_device *d = *state;
    struct gmmu_transport *t = open_sim(d);
    uint64_t reads = 0, writes = 0;
    assert_int_equal(gmmu_transport_sim_test_ddr_fault(t, GMMU_SIMLINK_FAULT_WRITE, 0x1000, 0x2000,
                                                       3, &reads, &writes),
                     GMMU_OK);
    assert_int_equal(reads, 1);
    assert_int_equal(writes, 101);
    assert_int_equal(gmmu_transport_sim_test_ddr_fault(t, 4, 0x1000, 0x2000, 1, NULL, NULL),
                     GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_sim_test_ddr_fault(t, GMMU_SIMLINK_FAULT_READ, 0x1000, 0x2000,
                                                       256, NULL, NULL),
                     GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_sim_test_ddr_fault(t, GMMU_SIMLINK_FAULT_READ, 0x2000, 0x2000,
                                                       1, NULL, NULL),
                     GMMU_E_INVALID_ARG);
    assert_int_equal(gmmu_transport_sim_test_ddr_fault(NULL, 0, 0, 0, 0, NULL, NULL),
                     GMMU_E_INVALID_ARG);
    /* Refused by the harness. */
    assert_int_equal(gmmu_transport_sim_test_ddr_fault(t, GMMU_SIMLINK_FAULT_READ, 0x1000, 0x20000,
                                                       0, &reads, NULL),
                     GMMU_E_INVALID_ARG);
    assert_int_equal(reads, 2);
    /* Clear: kinds 0, no window. */
    assert_int_equal(gmmu_transport_sim_test_ddr_fault(t, 0, 0, 0, 0, NULL, &writes), GMMU_OK);
    assert_int_equal(writes, 103);
    gmmu_transport_close(t);

    int sock = raw_connect(d->path);
    raw_send(sock, (struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_HELLO, .tag = 2 });
    assert_int_equal(raw_recv(sock).status, GMMU_SIMLINK_ST_OK);
    raw_send(sock, (struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_DDR_FAULT,
                                                .size = GMMU_SIMLINK_FAULT_WRITE,
                                                .bar = 1,
                                                .addr = 0,
                                                .data = 8 });
    struct gmmu_simlink_frame c = raw_read(sock, 0, 4, 0x20, 6); /* the next answer is this */
    assert_int_equal(c.type, GMMU_SIMLINK_READ_COMPLETION);
    assert_int_equal(c.tag, 6);
    close(sock);
    stop_device(d);
    assert_int_equal(d->fault_calls, 3);
    assert_int_equal(d->fault_kinds, 0);
    assert_int_equal(d->stats.faults_armed, 2);
    assert_true(d->stats.bad_frames >= 1);
}

/* A version-1 simulation: refuses HELLO 2 naming version 1, then accepts
 * HELLO 1. Serves one host, answers nothing else, and goes when it leaves. */
struct old_device {
    int listen_fd;
    pthread_t thread;
    uint32_t hellos[2];
};

static void *old_device_main(void *arg)
{
    struct old_device *o = arg;
    int fd = accept(o->listen_fd, NULL, NULL);
    if (fd < 0)
        return NULL;
    for (unsigned i = 0; i < 2; i++) {
        struct gmmu_simlink_frame f = raw_recv(fd);
        o->hellos[i] = f.tag;
        bool ok = f.tag == 1;
        raw_send(fd, (struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_HELLO_ACK,
                                                  .tag = 1,
                                                  .addr = BAR0_SIZE,
                                                  .status = ok ? GMMU_SIMLINK_ST_OK
                                                               : GMMU_SIMLINK_ST_BAD_VERSION });
        if (ok)
            break;
    }
    char c;
    while (recv(fd, &c, 1, 0) > 0) /* until the host closes */
        ;
    close(fd);
    return NULL;
}

static void test_host_falls_back_to_an_old_device(void **state)
{
    (void)state;
    struct old_device o = { 0 };
    char dir[] = "/tmp/simlink-old-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/old.sock", dir);
    o.listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_int_equal(bind(o.listen_fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
    assert_int_equal(listen(o.listen_fd, 1), 0);
    assert_int_equal(pthread_create(&o.thread, NULL, old_device_main, &o), 0);

    char spec[160];
    snprintf(spec, sizeof(spec), "sim:%s", addr.sun_path);
    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_transport_open(spec, &t), GMMU_OK);
    assert_int_equal(gmmu_transport_bar_size(t, 0), BAR0_SIZE);
    uint64_t bus;
    void *mem;
    assert_int_equal(gmmu_transport_sysmem_alloc(t, 4096, &bus, &mem), GMMU_E_NOT_SUPPORTED);
    gmmu_transport_close(t);
    pthread_join(o.thread, NULL);
    assert_int_equal(o.hellos[0], GMMU_SIMLINK_VERSION);
    assert_int_equal(o.hellos[1], 1);
    close(o.listen_fd);
    unlink(addr.sun_path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup_device, teardown_device),
        cmocka_unit_test_setup_teardown(test_read_many, setup_device, teardown_device),
        cmocka_unit_test_setup_teardown(test_bad_accesses, setup_device, teardown_device),
        cmocka_unit_test_setup_teardown(test_garbage_does_not_hurt, setup_device, teardown_device),
        cmocka_unit_test_setup_teardown(test_partial_frames, setup_device, teardown_device),
        cmocka_unit_test_setup_teardown(test_hosts_come_and_go, setup_device, teardown_device),
        cmocka_unit_test_setup_teardown(test_late_completion_ignored, setup_device,
                                        teardown_device),
        cmocka_unit_test_setup_teardown(test_irq, setup_device, teardown_device),
        cmocka_unit_test_setup_teardown(test_second_host_waits_its_turn, setup_device,
                                        teardown_device),
        cmocka_unit_test_setup_teardown(test_simulation_goes_away, setup_device, teardown_device),
        cmocka_unit_test(test_link_open_rules),
        cmocka_unit_test(test_link_harness_api),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_strerror),
        cmocka_unit_test(test_pci_missing_device),
        cmocka_unit_test(test_pci_fake_sysfs),
        cmocka_unit_test(test_register_transport),
        cmocka_unit_test_setup_teardown(test_sysmem_shared_with_the_device, setup_device,
                                        teardown_device),
        cmocka_unit_test_setup_teardown(test_sysmem_bad_buffers, setup_device, teardown_device),
        cmocka_unit_test_setup_teardown(test_old_host_version, setup_device, teardown_device),
        cmocka_unit_test(test_host_falls_back_to_an_old_device),
        cmocka_unit_test_setup_teardown(test_ddr_fault_hook, setup_device, teardown_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
