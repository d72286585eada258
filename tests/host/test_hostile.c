// SPDX-License-Identifier: Apache-2.0
/*
 * Hostile host: raw BAR0/BAR1 accesses over the simulation link (frames of
 * include/gmmu/simlink.h on the socket, no libgmmu), across every
 * host-owned register and value class. Each attack checks what
 * docs/mailbox.md ("A misbehaving host") says the device does; after each
 * one a normal host (libgmmu) must open the device and be served, the
 * heartbeat must keep its promise over simulated time, and VidMm's VRAM
 * accounting must be what it was.
 *
 *   test_hostile [--rounds N] [--seed S] [--only ATTACK]   (GMMU_DEVICE=sim:PATH)
 *
 * The directed attacks (or only the one named) run first, then N rounds of random ones (default
 * 8; `make soak-hostile` runs many more). Every wait is counted in device
 * cycles (the CYCLE register); wall-clock limits only catch a dead link.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gmmu/mailbox.h>
#include <gmmu/simlink.h>

#include "libgmmu.h"
#include "libgmmu_vidmm.h"

#define SLOT_WORDS   (GMMU_SLOT_BYTES / 4u)
#define HB_PERIOD    65536u   /* FW_HEARTBEAT's promise: at least one per 2^16 cycles */
#define CMD_WAIT     2000000u /* device cycles a command may take here */
#define LINK_DEAD_MS 120000   /* no frame for this long: the simulator is gone */

static const char *spec, *sock_path;
static unsigned failures;
static const char *attack = "setup";

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL [%s]: ", attack);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    failures++;
}

#define CHECK_EQ(what, got, want)                                             \
    do {                                                                      \
        uint64_t g_ = (got), w_ = (want);                                     \
        if (g_ != w_)                                                         \
            fail("%s: 0x%llx, expected 0x%llx", what, (unsigned long long)g_, \
                 (unsigned long long)w_);                                     \
    } while (0)

static void die(const char *what)
{
    fprintf(stderr, "FAIL [%s]: %s\n", attack, what);
    exit(1);
}

/* ------------------------------------------------------------- the link */

static int fd = -1;
static uint32_t next_tag = 1;

static void send_frame(const struct gmmu_simlink_frame *f)
{
    uint8_t b[GMMU_SIMLINK_FRAME_BYTES];
    gmmu_simlink_encode(f, b);
    if (send(fd, b, sizeof b, MSG_NOSIGNAL) != (ssize_t)sizeof b)
        die("link: send failed");
}

/* The next frame that is not an interrupt. */
static void recv_frame(struct gmmu_simlink_frame *f)
{
    for (;;) {
        uint8_t b[GMMU_SIMLINK_FRAME_BYTES];
        size_t got = 0;
        while (got < sizeof b) {
            struct pollfd p = { .fd = fd, .events = POLLIN };
            if (poll(&p, 1, LINK_DEAD_MS) <= 0)
                die("link: no answer (simulator stalled or gone)");
            ssize_t n = recv(fd, b + got, sizeof b - got, 0);
            if (n <= 0)
                die("link: closed by the device");
            got += (size_t)n;
        }
        gmmu_simlink_decode(b, f);
        if (f->type != GMMU_SIMLINK_IRQ)
            return;
    }
}

static void link_open(void)
{
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    snprintf(a.sun_path, sizeof a.sun_path, "%s", sock_path);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
        die("link: cannot connect");
    send_frame(
        &(struct gmmu_simlink_frame){ .type = GMMU_SIMLINK_HELLO, .tag = GMMU_SIMLINK_VERSION });
    struct gmmu_simlink_frame f;
    recv_frame(&f);
    if (f.type != GMMU_SIMLINK_HELLO_ACK || f.status != GMMU_SIMLINK_ST_OK)
        die("link: HELLO refused");
}

static void link_close(void)
{
    close(fd);
    fd = -1;
}

static void wr(unsigned bar, uint32_t off, uint32_t v)
{
    send_frame(&(struct gmmu_simlink_frame){
        .type = GMMU_SIMLINK_MEM_WRITE, .bar = (uint8_t)bar, .size = 4, .addr = off, .data = v });
}

/* A read's status; *v gets its data. */
static uint8_t rd_status(unsigned bar, uint32_t off, uint32_t *v)
{
    uint32_t tag = next_tag++;
    send_frame(&(struct gmmu_simlink_frame){
        .type = GMMU_SIMLINK_MEM_READ, .bar = (uint8_t)bar, .size = 4, .tag = tag, .addr = off });
    struct gmmu_simlink_frame f;
    recv_frame(&f);
    if (f.type != GMMU_SIMLINK_READ_COMPLETION || f.tag != tag)
        die("link: unexpected frame");
    *v = (uint32_t)f.data;
    return f.status;
}

static uint32_t rd(uint32_t off)
{
    uint32_t v;
    if (rd_status(0, off, &v) != GMMU_SIMLINK_ST_OK)
        fail("BAR0 read of 0x%x failed", off);
    return v;
}

static uint32_t cycle(void)
{
    return rd(GMMU_MBOX_CYCLE);
}

/* ------------------------------------------------------------- raw commands */

/* Writes one message at CMD_HEAD and publishes it; rings if asked. */
static void publish(const uint32_t *words, uint32_t nwords, bool ring)
{
    uint32_t head = rd(GMMU_MBOX_CMD_HEAD);
    uint32_t ring_words = GMMU_CMD_SLOTS * SLOT_WORDS;
    for (uint32_t i = 0; i < nwords; i++)
        wr(0, GMMU_CMD_RING + ((head * SLOT_WORDS + i) % ring_words) * 4u, words[i]);
    wr(0, GMMU_MBOX_CMD_HEAD, head + (nwords + SLOT_WORDS - 1) / SLOT_WORDS);
    if (ring)
        wr(0, GMMU_MBOX_DOORBELL, 1);
}

static void command(uint16_t op, uint32_t seq, uint32_t length, const uint32_t *payload, bool ring)
{
    uint32_t w[8] = { op | length << 16, seq, 0, 0 };
    uint32_t n = (length + 3u) / 4u;
    if (n > 8)
        n = 8;
    for (uint32_t i = 4; i < n; i++)
        w[i] = payload ? payload[i - 4] : 0;
    publish(w, n < 4 ? 4 : n, ring);
}

/* Waits (in device cycles) for the next completion and takes it. */
static bool completion(uint32_t hdr[4])
{
    uint32_t tail = rd(GMMU_MBOX_CPL_TAIL), c0 = cycle();
    while (rd(GMMU_MBOX_CPL_HEAD) == tail) {
        if (cycle() - c0 > CMD_WAIT) {
            fail("no completion within %u cycles", CMD_WAIT);
            return false;
        }
    }
    for (uint32_t i = 0; i < 4; i++)
        hdr[i] = rd(GMMU_CPL_RING + ((tail % GMMU_CPL_SLOTS) * SLOT_WORDS + i) * 4u);
    uint32_t slots = ((hdr[0] >> 16) + GMMU_SLOT_BYTES - 1) / GMMU_SLOT_BYTES;
    wr(0, GMMU_MBOX_CPL_TAIL, tail + (slots ? slots : 1));
    return true;
}

/* ------------------------------------------------------------- checks */

static struct gmmu_vram_rsp vram_ref;
static uint32_t ddr_bytes;

/* A normal host: libgmmu opens (taking the rings over from whatever the
   attack left), PING works, and VidMm's accounting is unchanged. */
static void normal_host(bool record)
{
    struct gmmu_dev *dev = NULL;
    int rc = gmmu_open(spec, &dev);
    if (rc) {
        fail("a normal host cannot open the device: %s", gmmu_strerror(rc));
        return;
    }
    gmmu_set_timeout(dev, 60000);
    rc = gmmu_ping(dev, "hostile", 8);
    if (rc)
        fail("PING: %s", gmmu_strerror(rc));
    struct gmmu_vram_rsp v;
    rc = gmmu_get_vram(dev, &v);
    if (rc)
        fail("GET_VRAM: %s", gmmu_strerror(rc));
    if (record) {
        struct gmmu_info info;
        vram_ref = v;
        if (gmmu_get_info(dev, &info) == 0)
            ddr_bytes = info.ddr_mb << 20;
    } else if (rc == 0 && memcmp(&v, &vram_ref, sizeof v) != 0) {
        fail("VRAM accounting changed: free %llu -> %llu, allocations %u -> %u",
             (unsigned long long)vram_ref.free_bytes, (unsigned long long)v.free_bytes,
             vram_ref.allocations, v.allocations);
    }
    gmmu_close(dev);
}

/* Over 2^17 device cycles the heartbeat moves at least once per 2^16. */
static void heartbeat_moves(void)
{
    uint32_t h0 = rd(GMMU_MBOX_FW_HEARTBEAT), c0 = cycle(), c1;
    while ((c1 = cycle()) - c0 < 2 * HB_PERIOD)
        ;
    uint32_t h1 = rd(GMMU_MBOX_FW_HEARTBEAT);
    uint32_t want = (c1 - c0) / HB_PERIOD - 1;
    if (h1 - h0 < want)
        fail("heartbeat moved %u times in %u cycles (at least %u promised)", h1 - h0, c1 - c0,
             want);
}

/* The three pointer pairs are always in range: the hardware refuses the
   writes that would put them out of it. */
static void pointers_in_range(void)
{
    uint32_t ch = rd(GMMU_MBOX_CMD_HEAD), ct = rd(GMMU_MBOX_CMD_TAIL);
    uint32_t ph = rd(GMMU_MBOX_CPL_HEAD), pt = rd(GMMU_MBOX_CPL_TAIL);
    uint32_t eh = rd(GMMU_MBOX_EVT_HEAD), et = rd(GMMU_MBOX_EVT_TAIL);
    if (ch - ct > GMMU_CMD_SLOTS)
        fail("CMD_HEAD 0x%x out of range of CMD_TAIL 0x%x", ch, ct);
    if (ph - pt > GMMU_CPL_SLOTS)
        fail("CPL_TAIL 0x%x out of range of CPL_HEAD 0x%x", pt, ph);
    if (eh - et > GMMU_EVT_SLOTS)
        fail("EVT_TAIL 0x%x out of range of EVT_HEAD 0x%x", et, eh);
}

static void after_attack(void)
{
    if (fd >= 0) {
        pointers_in_range();
        link_close();
    }
    normal_host(false);
    link_open();
    heartbeat_moves();
    link_close();
}

/* A host write the docs say is refused: the register keeps its value,
   HOST_WRITE_ERRORS counts it and HOST_WRITE_LAST names it. */
static void refused(uint32_t off, uint32_t value, uint32_t reason)
{
    uint32_t before = rd(off), errs = rd(GMMU_MBOX_HOST_WRITE_ERRORS);
    wr(0, off, value);
    CHECK_EQ("register after a refused write", rd(off), before);
    CHECK_EQ("HOST_WRITE_ERRORS", rd(GMMU_MBOX_HOST_WRITE_ERRORS), errs + 1);
    CHECK_EQ("HOST_WRITE_LAST", rd(GMMU_MBOX_HOST_WRITE_LAST),
             off | reason << GMMU_MBOX_HOST_WRITE_LAST_REASON_LSB);
}

/* ------------------------------------------------------------- attacks */

/* Offsets from the pointer's partner: behind, ahead, wrapped, far. */
static const int64_t bad_cmd_head[] = { -1, -64, GMMU_CMD_SLOTS + 1, 0x80000000LL, 0xFFFFFF00LL };
static const int64_t bad_tail[] = {
    1, 5, -1, -(int64_t)GMMU_CPL_SLOTS, 0x80000000LL, 0x7FFFFFFFLL
};

static void attack_cmd_head(void)
{
    attack = "CMD_HEAD out of range";
    link_open();
    for (size_t i = 0; i < sizeof bad_cmd_head / sizeof bad_cmd_head[0]; i++) {
        uint32_t tail = rd(GMMU_MBOX_CMD_TAIL);
        refused(GMMU_MBOX_CMD_HEAD, tail + (uint32_t)bad_cmd_head[i], GMMU_HOST_WRITE_RANGE);
        wr(0, GMMU_MBOX_DOORBELL, 1);
        /* No replay: nothing is consumed. */
        uint32_t c0 = cycle();
        while (cycle() - c0 < 20000)
            ;
        CHECK_EQ("CMD_TAIL after a bad CMD_HEAD", rd(GMMU_MBOX_CMD_TAIL), tail);
    }
    after_attack();
}

static void attack_cmd_ring_garbage(void)
{
    attack = "a whole ring of garbage";
    link_open();
    uint32_t head = rd(GMMU_MBOX_CMD_HEAD), seq = rd(GMMU_MBOX_NEXT_SEQ);
    uint32_t fence = rd(GMMU_MBOX_CPL_FENCE);
    for (uint32_t i = 0; i < GMMU_CMD_SLOTS * SLOT_WORDS; i++)
        wr(0, GMMU_CMD_RING + i * 4u, 0xDEADBEEFu ^ i);
    wr(0, GMMU_MBOX_CMD_HEAD, head + GMMU_CMD_SLOTS);
    wr(0, GMMU_MBOX_DOORBELL, 1);
    for (uint32_t i = 0; i < GMMU_CMD_SLOTS; i++) {
        uint32_t hdr[4];
        if (!completion(hdr))
            break;
        CHECK_EQ("status of a garbage slot", hdr[2], GMMU_STATUS_MALFORMED_LENGTH);
    }
    CHECK_EQ("NEXT_SEQ after garbage", rd(GMMU_MBOX_NEXT_SEQ), seq);
    CHECK_EQ("CPL_FENCE after garbage", rd(GMMU_MBOX_CPL_FENCE), fence);
    after_attack();
}

static void attack_no_doorbell(void)
{
    attack = "published, left without the doorbell";
    link_open();
    command(GMMU_OP_PING, rd(GMMU_MBOX_NEXT_SEQ), GMMU_MSG_HDR_BYTES, NULL, false);
    after_attack();
}

static void attack_leave_queued(void)
{
    attack = "left with commands queued and completions unread";
    link_open();
    uint32_t seq = rd(GMMU_MBOX_NEXT_SEQ);
    for (uint32_t i = 0; i < 40; i++)
        command(GMMU_OP_PING, seq + i, GMMU_MSG_HDR_BYTES, NULL, true);
    after_attack();
}

static void attack_tails(void)
{
    attack = "CPL_TAIL and EVT_TAIL out of range";
    link_open();
    /* Everything read: each offset below moves a tail back or past its head. */
    wr(0, GMMU_MBOX_CPL_TAIL, rd(GMMU_MBOX_CPL_HEAD));
    wr(0, GMMU_MBOX_EVT_TAIL, rd(GMMU_MBOX_EVT_HEAD));
    for (size_t i = 0; i < sizeof bad_tail / sizeof bad_tail[0]; i++) {
        refused(GMMU_MBOX_CPL_TAIL, rd(GMMU_MBOX_CPL_HEAD) + (uint32_t)bad_tail[i],
                GMMU_HOST_WRITE_RANGE);
        refused(GMMU_MBOX_EVT_TAIL, rd(GMMU_MBOX_EVT_HEAD) + (uint32_t)bad_tail[i],
                GMMU_HOST_WRITE_RANGE);
    }
    after_attack();
}

/* A host that stops reading completions: a ring of PINGs fills the
   completion ring, the next command's completion is held, and the firmware
   waits for the host. The heartbeat must go on meanwhile. */
static void attack_busy_heartbeat(void)
{
    attack = "heartbeat while a completion waits for ring space";
    link_open();
    uint32_t seq = rd(GMMU_MBOX_NEXT_SEQ);
    for (uint32_t i = 0; i < GMMU_CMD_SLOTS; i++)
        command(GMMU_OP_PING, seq + i, GMMU_MSG_HDR_BYTES, NULL, i + 1 == GMMU_CMD_SLOTS);
    uint32_t head = rd(GMMU_MBOX_CMD_HEAD), c0 = cycle();
    while (rd(GMMU_MBOX_CMD_TAIL) != head)
        if (cycle() - c0 > CMD_WAIT) {
            fail("a ring of PINGs not served within %u cycles", CMD_WAIT);
            break;
        }
    for (uint32_t i = 0; i < 8; i++)
        command(GMMU_OP_PING, seq + GMMU_CMD_SLOTS + i, GMMU_MSG_HDR_BYTES, NULL, true);
    heartbeat_moves();
    CHECK_EQ("CMD_TAIL while the completion ring is full", rd(GMMU_MBOX_CMD_TAIL), head);
    after_attack();
}

static void attack_fw_registers(void)
{
    static const uint32_t fw_owned[] = {
        GMMU_MBOX_IDENT_MAGIC,     GMMU_MBOX_FW_STATE,
        GMMU_MBOX_FW_HEARTBEAT,    GMMU_MBOX_NEXT_SEQ,
        GMMU_MBOX_CPL_FENCE,       GMMU_MBOX_CMD_TAIL,
        GMMU_MBOX_CPL_HEAD,        GMMU_MBOX_EVT_HEAD,
        GMMU_MBOX_DEV_IRQ_MASK,    GMMU_MBOX_HOST_WRITE_ERRORS,
        GMMU_MBOX_HOST_WRITE_LAST, GMMU_CPL_RING,
        GMMU_EVT_RING + 4u,        0x0FFCu,
    };
    attack = "firmware-owned registers";
    link_open();
    for (size_t i = 0; i < sizeof fw_owned / sizeof fw_owned[0]; i++) {
        if (fw_owned[i] == GMMU_MBOX_FW_HEARTBEAT) {
            /* It moves by itself: only the refusal is checked. */
            uint32_t errs = rd(GMMU_MBOX_HOST_WRITE_ERRORS);
            wr(0, fw_owned[i], 0);
            CHECK_EQ("HOST_WRITE_ERRORS", rd(GMMU_MBOX_HOST_WRITE_ERRORS), errs + 1);
            continue;
        }
        if (fw_owned[i] == GMMU_MBOX_HOST_WRITE_ERRORS || fw_owned[i] == GMMU_MBOX_HOST_WRITE_LAST)
            continue; /* checked by the next refusal's own count */
        refused(fw_owned[i], 0x5A5A5A5Au, GMMU_HOST_WRITE_NOT_HOST);
    }
    after_attack();
}

static void attack_irq_registers(void)
{
    attack = "interrupt registers and a doorbell storm";
    link_open();
    wr(0, GMMU_MBOX_HOST_IRQ_MASK, 0xFFFFFFFFu);
    wr(0, GMMU_MBOX_HOST_IRQ_STATUS, 0xFFFFFFFFu);
    for (int i = 0; i < 200; i++)
        wr(0, GMMU_MBOX_DOORBELL, (uint32_t)i * 0x01010101u);
    wr(0, GMMU_MBOX_HOST_IRQ_MASK, 0);
    after_attack();
}

/* The fence rule for every completion of a command whose seq was right:
   fence == seq and CPL_FENCE == seq, whatever the status. */
static void attack_fence(void)
{
    static const struct {
        uint16_t op;
        uint32_t length;
    } wrong[] = {
        { GMMU_OP_GET_INFO, 20 },  { GMMU_OP_GET_CAPS, 20 },
        { GMMU_OP_GET_STATS, 24 }, { GMMU_OP_GET_VRAM, 20 },
        { GMMU_OP_ALLOC, 20 },     { GMMU_OP_QUERY_VA, 20 },
        { GMMU_OP_FREE, 32 },      { 0x7F, 16 },
    };
    attack = "fence after failed commands";
    link_open();
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        uint32_t seq = rd(GMMU_MBOX_NEXT_SEQ), hdr[4];
        command(wrong[i].op, seq, wrong[i].length, NULL, true);
        if (!completion(hdr))
            break;
        if (hdr[2] == GMMU_STATUS_OK)
            fail("opcode 0x%x with length %u completed OK", wrong[i].op, wrong[i].length);
        CHECK_EQ("completion fence", hdr[3], seq);
        CHECK_EQ("CPL_FENCE", rd(GMMU_MBOX_CPL_FENCE), seq);
        CHECK_EQ("NEXT_SEQ", rd(GMMU_MBOX_NEXT_SEQ), seq + 1);
    }
    /* Framing errors and a wrong seq run nothing: neither moves. */
    uint32_t seq = rd(GMMU_MBOX_NEXT_SEQ), fence = rd(GMMU_MBOX_CPL_FENCE), hdr[4];
    command(GMMU_OP_PING, seq, 8, NULL, true);
    if (completion(hdr))
        CHECK_EQ("framing error status", hdr[2], GMMU_STATUS_MALFORMED_LENGTH);
    command(GMMU_OP_PING, seq + 7, GMMU_MSG_HDR_BYTES, NULL, true);
    if (completion(hdr))
        CHECK_EQ("wrong seq status", hdr[2], GMMU_STATUS_BAD_SEQUENCE);
    CHECK_EQ("CPL_FENCE after runs of nothing", rd(GMMU_MBOX_CPL_FENCE), fence);
    CHECK_EQ("NEXT_SEQ after runs of nothing", rd(GMMU_MBOX_NEXT_SEQ), seq);
    after_attack();
}

static void expect_bar1_error(uint32_t base, uint32_t off)
{
    uint32_t v;
    wr(0, GMMU_MBOX_APERTURE_BASE, base);
    uint8_t st = rd_status(1, off, &v);
    if (st != GMMU_SIMLINK_ST_BUS_ERROR || v != 0xFFFFFFFFu)
        fail("BAR1 read at base 0x%x + 0x%x: status %u data 0x%x (expected BUS_ERROR, all ones)",
             base, off, st, v);
}

static void attack_aperture(void)
{
    attack = "aperture beyond DDR and beyond 4 GiB";
    link_open();
    uint32_t v, probe = 0x10;
    wr(0, GMMU_MBOX_APERTURE_BASE, 0);
    if (rd_status(1, probe, &v) != GMMU_SIMLINK_ST_OK)
        fail("BAR1 read at DDR offset 0x10 failed");
    /* base + offset = 4 GiB + 0x10: must not land at 0x10. */
    wr(0, GMMU_MBOX_APERTURE_BASE, 0xFFFFF000u);
    wr(1, 0x1000 + probe, ~v);
    expect_bar1_error(0xFFFFF000u, 0x1000 + probe);
    uint32_t after;
    wr(0, GMMU_MBOX_APERTURE_BASE, 0);
    rd_status(1, probe, &after);
    if (after != v) {
        fail("a BAR1 write beyond 4 GiB wrapped to DDR offset 0x10");
        wr(1, probe, v);
    }
    expect_bar1_error(ddr_bytes, 0);
    expect_bar1_error(ddr_bytes - 0x1000u, 0x1000);
    /* The firmware's DDR area above the VRAM segment (APERTURE_LIMIT): the
       allocator's metadata, the table counts, vidmm's tables, the VA nodes.
       Writes there are refused; after_attack then finds the device serving
       and GET_VRAM unchanged. */
    uint32_t limit = rd(GMMU_MBOX_APERTURE_LIMIT);
    CHECK_EQ("APERTURE_LIMIT is the VRAM segment and the fence page", limit,
             (uint32_t)vram_ref.segment_bytes + 0x1000u);
    wr(0, GMMU_MBOX_APERTURE_BASE, limit);
    for (uint32_t off = 0; off < 0x10000; off += 0x100)
        wr(1, off, 0xFFFFFFFFu);
    expect_bar1_error(limit, 0);
    expect_bar1_error(limit - 0x1000u, 0x1000);
    wr(0, GMMU_MBOX_APERTURE_LIMIT, 0xFFFFFFFFu);
    CHECK_EQ("APERTURE_LIMIT after a host write", rd(GMMU_MBOX_APERTURE_LIMIT), limit);
    /* Low bits are ignored. */
    wr(0, GMMU_MBOX_APERTURE_BASE, 0x123);
    CHECK_EQ("APERTURE_BASE low bits", rd(GMMU_MBOX_APERTURE_BASE), 0);
    after_attack();
}

static void attack_unaligned(void)
{
    attack = "unaligned BAR0 accesses";
    link_open();
    uint32_t head = rd(GMMU_MBOX_CMD_HEAD), v;
    wr(0, GMMU_MBOX_CMD_HEAD + 1, head + 1);
    uint8_t st = rd_status(0, GMMU_MBOX_CMD_HEAD + 2, &v);
    if (st != GMMU_SIMLINK_ST_BAD_OFFSET || v != 0xFFFFFFFFu)
        fail("unaligned read: status %u data 0x%x", st, v);
    CHECK_EQ("CMD_HEAD after an unaligned write", rd(GMMU_MBOX_CMD_HEAD), head);
    after_attack();
}

/* ------------------------------------------------------------- random */

static uint64_t rng;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

static uint32_t value_class(uint32_t ref)
{
    switch (rnd() % 7) {
    case 0:
        return ref - 1 - rnd() % 8; /* behind */
    case 1:
        return ref + rnd() % (GMMU_CMD_SLOTS + 8); /* ahead, in range or just past */
    case 2:
        return ref + 0xFFFFFFFFu - rnd() % 128; /* wrapped */
    case 3:
        return ref + 0x80000000u + rnd() % 16; /* far */
    case 4:
        return rnd() | 1u; /* odd, anywhere */
    case 5:
        return ref;
    default:
        return rnd();
    }
}

static void attack_random(unsigned round)
{
    static char name[64];
    snprintf(name, sizeof name, "random round %u", round);
    attack = name;
    link_open();
    unsigned writes = 1 + rnd() % 40;
    for (unsigned i = 0; i < writes; i++) {
        switch (rnd() % 10) {
        case 0:
            wr(0, GMMU_MBOX_CMD_HEAD, value_class(rd(GMMU_MBOX_CMD_TAIL)));
            break;
        case 1:
            wr(0, GMMU_MBOX_CPL_TAIL, value_class(rd(GMMU_MBOX_CPL_HEAD)));
            break;
        case 2:
            wr(0, GMMU_MBOX_EVT_TAIL, value_class(rd(GMMU_MBOX_EVT_HEAD)));
            break;
        case 3:
            wr(0, GMMU_MBOX_APERTURE_BASE, value_class(0));
            break;
        case 4:
            wr(0, GMMU_MBOX_HOST_IRQ_MASK, rnd());
            break;
        case 5:
            wr(0, GMMU_MBOX_HOST_IRQ_STATUS, rnd());
            break;
        case 6: {
            uint32_t word = rnd() % (GMMU_CMD_SLOTS * SLOT_WORDS);
            wr(0, GMMU_CMD_RING + word * 4u, rnd());
            break;
        }
        case 7: { /* any register */
            uint32_t reg = rnd() % 0x100u;
            wr(0, reg * 4u, rnd());
            break;
        }
        case 8: {
            /* A CREATE_AS of just a header is a well-formed command: the
               device serves it and the new space keeps its root table, a
               change of GET_VRAM that this round made on purpose and cannot
               undo (it never reads the handle). Rounds send a PING instead;
               the rest either fail or change nothing GET_VRAM counts. */
            uint16_t op = (uint16_t)(rnd() % 0x22);
            if (op == GMMU_OP_CREATE_AS)
                op = GMMU_OP_PING;
            /* One draw per statement: the order of a call's arguments is
               unspecified, and a seed must give the same rounds with any
               compiler. */
            uint32_t seq = rd(GMMU_MBOX_NEXT_SEQ) + rnd() % 2;
            uint32_t length = value_class(GMMU_MSG_HDR_BYTES) & 0xFFFFu;
            bool ring = rnd() % 2;
            command(op, seq, length, NULL, ring);
            break;
        }
        default:
            wr(0, GMMU_MBOX_DOORBELL, rnd());
            break;
        }
        pointers_in_range();
    }
    after_attack();
}

/* ------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    unsigned rounds = 8;
    uint64_t seed = 1;
    const char *only = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--only"))
            only = argv[i + 1];
        else if (!strcmp(argv[i], "--rounds"))
            rounds = (unsigned)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[i + 1], NULL, 0);
    }
    spec = getenv("GMMU_DEVICE");
    if (!spec || strncmp(spec, "sim:", 4) != 0) {
        fprintf(stderr, "test_hostile: GMMU_DEVICE=sim:PATH needed\n");
        return 2;
    }
    sock_path = spec + 4;
    rng = seed * 0x9E3779B97F4A7C15ull + 1;

    static const struct {
        const char *key;
        void (*run)(void);
    } directed[] = {
        { "fence", attack_fence },
        { "cmd-head", attack_cmd_head },
        { "no-doorbell", attack_no_doorbell },
        { "tails", attack_tails },
        { "busy-heartbeat", attack_busy_heartbeat },
        { "aperture", attack_aperture },
        { "garbage", attack_cmd_ring_garbage },
        { "leave-queued", attack_leave_queued },
        { "fw-registers", attack_fw_registers },
        { "irq-registers", attack_irq_registers },
        { "unaligned", attack_unaligned },
    };
    normal_host(true);
    unsigned ran = 0;
    for (size_t i = 0; i < sizeof directed / sizeof directed[0]; i++)
        if (!only || !strcmp(only, directed[i].key)) {
            directed[i].run();
            ran++;
        }
    for (unsigned r = 0; r < rounds; r++)
        attack_random(r);

    printf("test_hostile: %u directed attacks, %u random rounds (seed %llu): %s (%u failures)\n",
           ran, rounds, (unsigned long long)seed, failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
