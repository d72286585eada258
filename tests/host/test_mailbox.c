// SPDX-License-Identifier: Apache-2.0
/*
 * Mailbox host suite: libgmmu against a running simulation (GMMU_DEVICE,
 * e.g. sim:build/test/mbox.sock). Covers the good path of every command,
 * malformed input of every kind, back-pressure, doorbell storms and a host
 * that vanishes mid-command. Expectations are written out by hand from the
 * protocol (docs/mailbox.md), not taken from the code under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "libgmmu.h"

static const char *device;

static void sleep_ms(long ms)
{
    struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* The open handle, closed by the teardown even when a test fails: the link
   serves one host at a time, so a leaked handle would block every later test. */
static struct gmmu_dev *open_handle;

static struct gmmu_dev *open_dev(void)
{
    struct gmmu_dev *dev = NULL;
    int rc = gmmu_open(device, &dev);
    if (rc)
        fail_msg("gmmu_open(%s): %s", device, gmmu_strerror(rc));
    open_handle = dev;
    return dev;
}

static void close_dev(struct gmmu_dev *dev)
{
    gmmu_close(dev);
    open_handle = NULL;
}

static int teardown(void **state)
{
    (void)state;
    if (open_handle)
        close_dev(open_handle);
    return 0;
}

static uint32_t reg(struct gmmu_dev *dev, uint32_t off)
{
    uint32_t v = 0;
    assert_int_equal(gmmu_bar_read(dev, off, &v), 0);
    return v;
}

static struct gmmu_stats stats(struct gmmu_dev *dev)
{
    struct gmmu_stats s;
    assert_int_equal(gmmu_get_stats(dev, &s), 0);
    return s;
}

/* A raw command header, as a host with bugs might write it. */
static void raw_header(uint32_t *w, uint16_t opcode, uint16_t length, uint32_t seq)
{
    w[0] = (uint32_t)opcode | (uint32_t)length << 16;
    w[1] = seq;
    w[2] = 0;
    w[3] = 0;
}

static struct gmmu_completion *wait_cpl(struct gmmu_dev *dev, uint32_t seq)
{
    struct gmmu_completion *c = malloc(sizeof *c);
    assert_non_null(c);
    int rc = gmmu_wait(dev, seq, c, 20000);
    if (rc)
        fail_msg("no completion for seq %u: %s", seq, gmmu_strerror(rc));
    return c;
}

/* Sends a raw message and returns its completion, found by ring order. */
static struct gmmu_completion *raw_roundtrip(struct gmmu_dev *dev, const void *msg, size_t len,
                                             uint32_t slots)
{
    assert_int_equal(gmmu_submit_raw(dev, msg, len, slots), 0);
    struct gmmu_completion *c = malloc(sizeof *c);
    assert_non_null(c);
    for (int i = 0; i < 5000; i++) {
        int rc = gmmu_reap(dev, c);
        assert_true(rc >= 0);
        if (rc == 1)
            return c;
        sleep_ms(1);
    }
    fail_msg("no completion for a raw message");
    return NULL;
}

/* ------------------------------------------------------------ good path */
static void test_identity(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    struct gmmu_ident id;
    assert_int_equal(gmmu_read_ident(dev, &id), 0);
    assert_int_equal(id.magic, 0x58424D47);                         /* 'GMBX' */
    assert_int_equal(id.proto_version, 0x00010012);                 /* 1.18 */
    assert_int_equal(id.fw_state & 0xFF, 1);                        /* READY */
    assert_int_equal(id.rings, 6u | 6u << 8 | 6u << 16 | 6u << 24); /* 64 slots of 64 B */
    close_dev(dev);
}

static void test_ping_payload_sizes(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    static const size_t sizes[] = { 0, 1, 4, 47, 48, 49, 200, 1000, 4080 };
    uint8_t buf[4080];
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (size_t b = 0; b < sizes[i]; b++)
            buf[b] = (uint8_t)(b * 7 + i);
        int rc = gmmu_ping(dev, buf, sizes[i]);
        if (rc)
            fail_msg("ping of %zu bytes: %s", sizes[i], gmmu_strerror(rc));
    }
    close_dev(dev);
}

static void test_info(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    struct gmmu_info info;
    assert_int_equal(gmmu_get_info(dev, &info), 0);
    assert_int_equal(info.proto_version, 0x00010012);
    assert_int_equal(info.ddr_mb, 256); /* the simulator's default */
    assert_int_equal(info.fw_version, reg(dev, GMMU_MBOX_IDENT_FW_VERSION));
    assert_int_equal(info.fw_build, reg(dev, GMMU_MBOX_IDENT_FW_BUILD));
    assert_true(info.uptime_cycles > 400000); /* past the boot self-test */
    close_dev(dev);
}

/* The firmware's GET_CAPS against the seed's DXGK_GPUMMUCAPS choices and
   against the capability word the RTL itself exposes in BAR0. */
static void test_caps(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    struct gmmu_caps c;
    assert_int_equal(gmmu_get_caps(dev, &c), 0);
    /* ReadOnly, NoExecute, Zero, ExplicitInvalidation, CacheCoherent,
       LargePage, DualPte set; AddressSpaceIdle and NonAlignedLargePage clear. */
    assert_int_equal(c.flags, 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x40 | 0x80);
    assert_int_equal(c.virtual_address_bit_count, 48);
    assert_int_equal(c.page_table_level_count, 4);
    assert_int_equal(c.leaf_page_table_size_for_64k_pages, 256);
    assert_int_equal(c.page_table_update_mode, 2); /* GPU_PHYSICAL: the paging engine */
    assert_int_equal(c.legacy_behaviors, 0);
    assert_int_equal(reg(dev, GMMU_MBOX_IDENT_CAPS), c.flags);
    uint32_t geo = reg(dev, GMMU_MBOX_IDENT_GEOMETRY);
    assert_int_equal(geo & 0xFF, c.virtual_address_bit_count);
    assert_int_equal((geo >> 8) & 0xF, c.page_table_level_count);
    assert_int_equal(geo >> 16, c.leaf_page_table_size_for_64k_pages);
    close_dev(dev);
}

static void test_stats_count_commands(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    struct gmmu_stats before = stats(dev);
    for (int i = 0; i < 5; i++)
        assert_int_equal(gmmu_ping(dev, NULL, 0), 0);
    struct gmmu_stats after = stats(dev);
    /* Five pings and the first GET_STATS itself. */
    assert_int_equal(after.commands - before.commands, 6);
    assert_int_equal(after.errors, before.errors);
    assert_int_equal(reg(dev, GMMU_MBOX_CPL_FENCE), gmmu_peek_seq(dev) - 1);
    close_dev(dev);
}

/* ------------------------------------------------------------ bad input */
static void test_unknown_opcode(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    struct gmmu_stats before = stats(dev);
    static const uint16_t bad_ops[] = { 0x0000, 0x000F, 0x00FF, 0x7FFF, 0xFFFF };
    for (size_t i = 0; i < sizeof bad_ops / sizeof bad_ops[0]; i++)
        assert_int_equal(gmmu_call(dev, bad_ops[i], NULL, 0, NULL, 0, NULL),
                         GMMU_STATUS_UNSUPPORTED_OPCODE);
    struct gmmu_stats after = stats(dev);
    assert_int_equal(after.unsupported - before.unsupported, 5);
    assert_int_equal(gmmu_ping(dev, "ok", 2), 0);
    close_dev(dev);
}

static void test_wrong_length_for_opcode(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    uint32_t junk = 0;
    assert_int_equal(gmmu_call(dev, GMMU_OP_GET_INFO, &junk, 4, NULL, 0, NULL),
                     GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(gmmu_call(dev, GMMU_OP_GET_CAPS, &junk, 1, NULL, 0, NULL),
                     GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(gmmu_call(dev, GMMU_OP_GET_STATS, &junk, 4, NULL, 0, NULL),
                     GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(gmmu_ping(dev, NULL, 0), 0);
    close_dev(dev);
}

static void test_wrong_sequence(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    uint32_t expected = gmmu_peek_seq(dev);
    static const uint32_t offsets[] = { 1, 5, 0x80000000u, 0xFFFFFFFFu };
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        uint32_t w[4];
        raw_header(w, GMMU_OP_PING, 16, expected + offsets[i]);
        struct gmmu_completion *c = raw_roundtrip(dev, w, sizeof w, 1);
        assert_int_equal(c->status, GMMU_STATUS_BAD_SEQUENCE);
        assert_int_equal(c->seq, expected + offsets[i]);
        free(c);
    }
    /* Not run, so the expected sequence has not moved. */
    assert_int_equal(reg(dev, GMMU_MBOX_NEXT_SEQ), expected);
    assert_int_equal(gmmu_ping(dev, "after", 5), 0);
    close_dev(dev);
}

static void test_malformed_lengths(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    struct gmmu_stats before = stats(dev);
    uint32_t seq = gmmu_peek_seq(dev);
    /* Below the header, above the largest message, and more slots than
       were published (128 bytes claimed, one slot given). */
    static const uint16_t lengths[] = { 0, 15, 4097, 0xFFFF, 128 };
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        uint32_t w[16] = { 0 };
        raw_header(w, GMMU_OP_PING, lengths[i], seq);
        struct gmmu_completion *c = raw_roundtrip(dev, w, sizeof w, 1);
        assert_int_equal(c->status, GMMU_STATUS_MALFORMED_LENGTH);
        free(c);
    }
    struct gmmu_stats after = stats(dev);
    assert_int_equal(after.malformed - before.malformed, 5);
    assert_int_equal(gmmu_ping(dev, "still alive", 11), 0);
    close_dev(dev);
}

static void test_reserved_header_fields(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    uint32_t w[4];
    raw_header(w, GMMU_OP_PING, 16, gmmu_peek_seq(dev));
    w[2] = 7; /* status must be 0 in a command */
    struct gmmu_completion *c = raw_roundtrip(dev, w, sizeof w, 1);
    assert_int_equal(c->status, GMMU_STATUS_INVALID_ARGUMENT);
    free(c);
    gmmu_skip_seq(dev); /* it was consumed */
    assert_int_equal(gmmu_ping(dev, NULL, 0), 0);
    close_dev(dev);
}

/* Collects every completion until the firmware has consumed all commands
   and nothing more arrives for a while. */
static int reap_all(struct gmmu_dev *dev, int (*check)(const struct gmmu_completion *))
{
    struct gmmu_completion *c = malloc(sizeof *c);
    assert_non_null(c);
    int seen = 0, quiet = 0;
    for (int i = 0; i < 5000 && quiet < 20; i++) {
        int rc = gmmu_reap(dev, c);
        assert_true(rc >= 0);
        if (rc == 1) {
            seen++;
            quiet = 0;
            assert_int_equal(check(c), 1);
        } else if (reg(dev, GMMU_MBOX_CMD_TAIL) == reg(dev, GMMU_MBOX_CMD_HEAD)) {
            quiet++;
        }
    }
    free(c);
    return seen;
}

static int is_rejected(const struct gmmu_completion *c)
{
    return c->status == GMMU_STATUS_BAD_SEQUENCE || c->status == GMMU_STATUS_MALFORMED_LENGTH;
}

/* Random bytes in whole slots: every message the firmware frames is
   answered and rejected, nothing stops the loop, and the device serves
   normally afterwards. */
static void test_garbage_slots(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    struct gmmu_stats before = stats(dev);
    srand(1234);
    for (int round = 0; round < 20; round++) {
        uint32_t w[32];
        for (int i = 0; i < 32; i++)
            w[i] = (uint32_t)rand() * 2654435761u;
        w[1] = gmmu_peek_seq(dev) + 1000 + (uint32_t)round; /* never the expected one */
        assert_int_equal(gmmu_submit_raw(dev, w, sizeof w, 2), 0);
    }
    int seen = reap_all(dev, is_rejected);
    /* 40 slots of garbage frame into at least one and at most 40 messages. */
    assert_true(seen >= 1 && seen <= 40);
    struct gmmu_stats after = stats(dev);
    assert_int_equal(after.commands - before.commands, (uint32_t)seen + 1);
    assert_int_equal(reg(dev, GMMU_MBOX_NEXT_SEQ), gmmu_peek_seq(dev));
    assert_int_equal(gmmu_ping(dev, "ok", 2), 0);
    close_dev(dev);
}

static void test_host_cannot_write_firmware_registers(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    uint32_t errors = reg(dev, GMMU_MBOX_HOST_WRITE_ERRORS);
    uint32_t tail = reg(dev, GMMU_MBOX_CMD_TAIL);
    uint32_t seq = reg(dev, GMMU_MBOX_NEXT_SEQ);
    assert_int_equal(gmmu_bar_write(dev, GMMU_MBOX_CMD_TAIL, tail + 7), 0);
    assert_int_equal(gmmu_bar_write(dev, GMMU_MBOX_NEXT_SEQ, 12345), 0);
    assert_int_equal(gmmu_bar_write(dev, GMMU_MBOX_IDENT_MAGIC, 0), 0);
    assert_int_equal(gmmu_bar_write(dev, GMMU_CPL_RING, 0xDEADBEEF), 0);
    assert_int_equal(reg(dev, GMMU_MBOX_HOST_WRITE_ERRORS) - errors, 4);
    assert_int_equal(reg(dev, GMMU_MBOX_CMD_TAIL), tail);
    assert_int_equal(reg(dev, GMMU_MBOX_NEXT_SEQ), seq);
    assert_int_equal(reg(dev, GMMU_MBOX_IDENT_MAGIC), 0x58424D47);
    assert_int_equal(gmmu_ping(dev, NULL, 0), 0);
    close_dev(dev);
}

/* ---------------------------------------------------------- load and loss */
static void test_flood_larger_than_ring(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    enum { N = 300 }; /* several times the 64-slot rings */
    uint32_t seqs[N];
    for (uint32_t i = 0; i < N; i++) {
        uint32_t payload[2] = { i, ~i };
        assert_int_equal(gmmu_submit(dev, GMMU_OP_PING, payload, sizeof payload, &seqs[i]), 0);
        assert_int_equal(seqs[i], seqs[0] + i);
    }
    for (uint32_t i = 0; i < N; i++) {
        struct gmmu_completion *c = wait_cpl(dev, seqs[i]);
        assert_int_equal(c->status, GMMU_STATUS_OK);
        assert_int_equal(c->payload_len, 8);
        uint32_t echo[2];
        memcpy(echo, c->payload, 8);
        assert_int_equal(echo[0], i);
        assert_int_equal(echo[1], ~i);
        free(c);
    }
    /* Exactly once: nothing left over. */
    struct gmmu_completion extra;
    assert_int_equal(gmmu_reap(dev, &extra), 0);
    assert_int_equal(reg(dev, GMMU_MBOX_CPL_FENCE), seqs[N - 1]);
    close_dev(dev);
}

static void test_doorbell_storm(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    struct gmmu_stats before = stats(dev);
    for (int i = 0; i < 2000; i++)
        assert_int_equal(gmmu_bar_write(dev, GMMU_MBOX_DOORBELL, (uint32_t)i), 0);
    assert_int_equal(gmmu_ping(dev, "storm", 5), 0);
    struct gmmu_stats after = stats(dev);
    /* The ping and the first GET_STATS; the doorbells ran nothing. */
    assert_int_equal(after.commands - before.commands, 2);
    assert_true(after.doorbells > before.doorbells);
    close_dev(dev);
}

/* A host process that queues commands and half a message, then dies. */
static void test_host_disappears_mid_command(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            struct gmmu_dev *dev;
            if (gmmu_open(device, &dev))
                _exit(1);
            for (int i = 0; i < 10; i++)
                gmmu_submit(dev, GMMU_OP_PING, "bye", 3, NULL);
            /* Half a message: slots written, CMD_HEAD never moved. */
            gmmu_bar_write(dev, GMMU_CMD_RING, 0x00400001u);
            _exit(0); /* no close: the socket just drops */
        }
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

        struct gmmu_dev *dev = open_dev();
        assert_int_equal(reg(dev, GMMU_MBOX_FW_STATE) & 0xFF, 1);
        assert_int_equal(reg(dev, GMMU_MBOX_CMD_TAIL), reg(dev, GMMU_MBOX_CMD_HEAD));
        uint32_t beat = reg(dev, GMMU_MBOX_FW_HEARTBEAT);
        assert_int_equal(gmmu_ping(dev, "back", 4), 0);
        struct gmmu_info info;
        assert_int_equal(gmmu_get_info(dev, &info), 0);
        /* The heartbeat moves at least every 2^16 cycles; 300 BAR reads
           take over 120 000. */
        int reads = 0;
        while (reg(dev, GMMU_MBOX_FW_HEARTBEAT) == beat && reads < 300)
            reads++;
        assert_true(reads < 300);
        close_dev(dev);
    }
}

/* BAR1 reaches DDR at APERTURE_BASE: data written through one window
   position reads back through another, and the library moves the window. */
static void test_aperture_windows(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    enum { WORDS = 64 };
    uint32_t out[WORDS], in[WORDS];
    for (int i = 0; i < WORDS; i++)
        out[i] = 0xA5000000u + (uint32_t)i * 0x01010101u;
    /* Below 1 MiB (the firmware's self-test region starts there), across
       the 16 MiB window size, and at the top of the VRAM segment (BAR1
       stops there: the DDR above it is the firmware's). */
    struct gmmu_vram_rsp vr;
    assert_int_equal(gmmu_get_vram(dev, &vr), 0);
    const uint64_t offsets[] = { 0x40000, 0xFFFF00, vr.segment_bytes - sizeof out };
    for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
        assert_int_equal(gmmu_vram_write(dev, offsets[k], out, sizeof out), 0);
        memset(in, 0, sizeof in);
        assert_int_equal(gmmu_vram_read(dev, offsets[k], in, sizeof in), 0);
        assert_memory_equal(in, out, sizeof out);
    }
    /* The same DDR word through two window positions, by raw BAR1 access. */
    struct gmmu_transport *t = NULL;
    assert_int_equal(gmmu_bar_write(dev, GMMU_MBOX_APERTURE_BASE, 0x00040000), 0);
    uint32_t v = 0;
    assert_int_equal(gmmu_bar_read(dev, GMMU_MBOX_APERTURE_BASE, &v), 0);
    assert_int_equal(v, 0x00040000);
    (void)t;
    close_dev(dev);
}

static void test_aperture_raw_and_errors(void **state)
{
    (void)state;
    /* The allocator's state before: the device through libgmmu, closed
       again before the raw link is used. */
    struct gmmu_dev *dev = open_dev();
    struct gmmu_vram_rsp vr, vr_after;
    assert_int_equal(gmmu_get_vram(dev, &vr), 0);
    close_dev(dev);
    struct gmmu_transport *t;
    assert_int_equal(gmmu_transport_open(device, &t), 0);
    uint32_t v = 0;
    /* Base 0x1000: BAR1 offset 0x3F000 is DDR 0x40000, written above. */
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_MBOX_APERTURE_BASE, 0x1234), 0);
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_APERTURE_BASE, &v), 0);
    assert_int_equal(v, 0x1000); /* low 12 bits ignored */
    assert_int_equal(gmmu_transport_read32(t, 1, 0x3F000, &v), 0);
    assert_int_equal(v, 0xA5000000u);
    assert_int_equal(gmmu_transport_read32(t, 1, 0x3F004, &v), 0);
    assert_int_equal(v, 0xA6010101u);
    /* BAR1 stops at the end of the fence page just above the VRAM segment
       (APERTURE_LIMIT, which the firmware sets to GET_VRAM's segment size
       plus 4 KiB, docs/fences.md): the DDR above it holds the firmware's
       own state (vidmm's tables, the allocator's metadata, the VA nodes).
       The host cannot move the limit. */
    uint32_t limit = 0;
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_APERTURE_LIMIT, &limit), 0);
    assert_int_equal(limit, vr.segment_bytes + 0x1000u);
    assert_true(limit < 256u << 20);
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_MBOX_APERTURE_LIMIT, 0xFFFFFFFFu), 0);
    assert_int_equal(gmmu_transport_read32(t, 0, GMMU_MBOX_APERTURE_LIMIT, &v), 0);
    assert_int_equal(v, limit);
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_MBOX_APERTURE_BASE, limit - 0x1000u), 0);
    assert_int_equal(gmmu_transport_read32(t, 1, 0xFFC, &v), 0); /* the fence page's last word */
    assert_int_equal(gmmu_transport_read32(t, 1, 0x1000, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(v, 0xFFFFFFFFu);
    /* Posted on the PCIe link (nothing reported), answered with the error
       over the UART bridge: what the writes did not reach is checked below,
       through the allocator. */
    for (uint32_t off = 0x1000; off < 0x11000; off += 0x400) {
        int rc = gmmu_transport_write32(t, 1, off, 0xDEADBEEFu);
        assert_true(rc == 0 || rc == GMMU_E_LINK_ERROR);
    }
    /* Past the end of the 256 MiB DDR: an error, not a hang or junk. */
    assert_int_equal(gmmu_transport_write32(t, 0, GMMU_MBOX_APERTURE_BASE, 0x0FFFF000u), 0);
    assert_int_equal(gmmu_transport_read32(t, 1, 0x1000, &v), GMMU_E_LINK_ERROR);
    assert_int_equal(gmmu_transport_read32(t, 1, 0xFFC, &v), GMMU_E_LINK_ERROR);
    gmmu_transport_close(t);
    /* The refused writes reached nothing: the allocator is as it was. */
    dev = open_dev();
    assert_int_equal(gmmu_get_vram(dev, &vr_after), 0);
    assert_memory_equal(&vr, &vr_after, sizeof vr);
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    close_dev(dev);
}

/* One handle, several threads, each checking its own echoes. */
struct pinger {
    struct gmmu_dev *dev;
    uint32_t id;
    int failures;
};

static void *ping_thread(void *arg)
{
    struct pinger *p = arg;
    for (uint32_t i = 0; i < 40; i++) {
        uint32_t payload[3] = { p->id, i, p->id * 1000u + i };
        if (gmmu_ping(p->dev, payload, sizeof payload) != 0)
            p->failures++;
    }
    return NULL;
}

static void test_threads_share_one_handle(void **state)
{
    (void)state;
    struct gmmu_dev *dev = open_dev();
    struct gmmu_stats before = stats(dev);
    enum { THREADS = 4 };
    pthread_t tid[THREADS];
    struct pinger p[THREADS];
    for (uint32_t t = 0; t < THREADS; t++) {
        p[t] = (struct pinger){ .dev = dev, .id = t + 1 };
        assert_int_equal(pthread_create(&tid[t], NULL, ping_thread, &p[t]), 0);
    }
    for (uint32_t t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(tid[t], NULL), 0);
        assert_int_equal(p[t].failures, 0);
    }
    struct gmmu_stats after = stats(dev);
    assert_int_equal(after.commands - before.commands, THREADS * 40 + 1);
    assert_int_equal(after.errors, before.errors);
    close_dev(dev);
}

int main(void)
{
    device = getenv("GMMU_DEVICE");
    if (!device) {
        fprintf(stderr, "test_mailbox: set GMMU_DEVICE (e.g. sim:build/test/mbox.sock)\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_identity, teardown),
        cmocka_unit_test_teardown(test_ping_payload_sizes, teardown),
        cmocka_unit_test_teardown(test_info, teardown),
        cmocka_unit_test_teardown(test_caps, teardown),
        cmocka_unit_test_teardown(test_stats_count_commands, teardown),
        cmocka_unit_test_teardown(test_unknown_opcode, teardown),
        cmocka_unit_test_teardown(test_wrong_length_for_opcode, teardown),
        cmocka_unit_test_teardown(test_wrong_sequence, teardown),
        cmocka_unit_test_teardown(test_malformed_lengths, teardown),
        cmocka_unit_test_teardown(test_reserved_header_fields, teardown),
        cmocka_unit_test_teardown(test_garbage_slots, teardown),
        cmocka_unit_test_teardown(test_host_cannot_write_firmware_registers, teardown),
        cmocka_unit_test_teardown(test_flood_larger_than_ring, teardown),
        cmocka_unit_test_teardown(test_doorbell_storm, teardown),
        cmocka_unit_test_teardown(test_host_disappears_mid_command, teardown),
        cmocka_unit_test_teardown(test_threads_share_one_handle, teardown),
        cmocka_unit_test_teardown(test_aperture_windows, teardown),
        cmocka_unit_test_teardown(test_aperture_raw_and_errors, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
