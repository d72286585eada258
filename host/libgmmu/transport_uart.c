// SPDX-License-Identifier: Apache-2.0
/*
 * "uart:PATH[,BAUD][,retry=MS][,tries=N][,seq=S][,simclock=FILE]": a board reached over a serial
 * line (a USB-serial adapter, or the simulation's pty), through the device's
 * uart_bar_bridge. Protocol: include/gmmu/uartlink.h; rules: docs/uart-link.md.
 *
 *   PATH      the tty, e.g. /dev/ttyUSB0 or /dev/pts/3 (no commas)
 *   BAUD      a standard rate (default GMMU_UART_DEFAULT_BAUD); a pty
 *             ignores it
 *   retry=MS  how long the first attempt waits for its answer (default 100;
 *             each attempt that times out doubles it, up to 16 times)
 *   tries=N   attempts per access before GMMU_E_TIMEOUT (default 8)
 *   seq=S     the first request's sequence number, 0-255 (default: a
 *             different one per handle); for reproducible byte streams
 *   simclock=FILE
 *             a simulated board's clock file (the simulator's --uart-clock):
 *             every wait of the link (retry, the handle's timeout, wait_irq)
 *             is measured in the simulated line's bit times at BAUD instead
 *             of the machine's clock, so a loaded machine that slows the
 *             simulation slows the timers with it; a simulation that stands
 *             still for the handle's timeout of the machine's clock fails
 *             the wait (GMMU_E_TIMEOUT)
 *
 * Stop-and-wait: every read and write is one request frame answered by one
 * response frame with the same sequence number. A NAK, a response with a bad
 * CRC, or no answer within retry=MS sends the same request again (the
 * device answers a repeat from memory, so it never runs twice). The handle's
 * timeout (gmmu_transport_set_timeout, GMMU_TIMEOUT_MS) bounds the whole
 * access as well. Unlike PCIe, writes are therefore confirmed: write32
 * returns once the device has done the write, and GMMU_E_LINK_ERROR if the
 * device's bus rejected it.
 *
 * IRQ frames can arrive between any two frames; they are OR-ed into a
 * pending mask that wait_irq hands out.
 */
#define _DEFAULT_SOURCE /* cfmakeraw, the B1000000-style rates */

#include "gmmu_transport.h"
#include "gmmu/uartlink.h"
#include "transport_deadline.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define GMMU_UART_DEFAULT_BAUD 1000000u
#define DEFAULT_RETRY_MS       100
#define DEFAULT_TRIES          8
#define MAX_TRIES              64
#define RX_BYTES               1024u
/* How often a wait on the simulated clock looks at it again. */
#define SIMCLOCK_POLL_MS       2

/* The clock the link's waits run on: the machine's (map NULL), or a
 * simulated board's (simclock=FILE). */
struct link_clock {
    const uint8_t *map;
    uint32_t cycles_per_bit;
    unsigned long baud;
    uint64_t seen_cycles;  /* the count last read */
    int64_t seen_moved_ms; /* machine time it was seen to move (or the wait began) */
};

struct uart_transport {
    struct gmmu_transport base; /* first: handles are cast both ways */
    int fd;                     /* -1 once the line is gone */
    int retry_ms;
    unsigned tries;
    uint8_t next_seq;
    uint32_t irq_pending;
    uint8_t rx[RX_BYTES];
    size_t rx_len;
    struct link_clock clock;
    struct gmmu_uartlink_stats st;
};

static struct uart_transport *to_uart(struct gmmu_transport *t)
{
    return (struct uart_transport *)t;
}

/* ------------------------------------------------------------ deadlines */

static uint64_t simulated_cycles(const struct link_clock *c)
{
    return __atomic_load_n(
        (const uint64_t *)(const void *)(c->map + GMMU_UARTLINK_SIMCLOCK_CYCLES_OFFSET),
        __ATOMIC_ACQUIRE);
}

/* Microseconds on the link's clock: the machine's (to the millisecond), or
 * the simulated line's bits at BAUD. Deadlines are kept in these. */
static int64_t link_now_us(struct uart_transport *u)
{
    struct link_clock *c = &u->clock;
    if (c->map == NULL)
        return now_ms() * 1000;
    uint64_t cycles = simulated_cycles(c);
    if (cycles != c->seen_cycles) {
        c->seen_cycles = cycles;
        c->seen_moved_ms = now_ms();
    }
    return (int64_t)(cycles / c->cycles_per_bit * 1000000u / c->baud);
}

static int64_t link_deadline(struct uart_transport *u, int timeout_ms)
{
    return timeout_ms < 0 ? -1 : link_now_us(u) + (int64_t)timeout_ms * 1000;
}

/* A wait begins: the simulation has the handle's timeout from now to move. */
static void link_wait_begins(struct uart_transport *u)
{
    if (u->clock.map == NULL)
        return;
    u->clock.seen_cycles = simulated_cycles(&u->clock);
    u->clock.seen_moved_ms = now_ms();
}

/* The simulation stood still for the handle's timeout of the machine's
 * clock: stopped, or gone. Waiting longer would wait for ever. */
static bool link_stalled(const struct uart_transport *u)
{
    return u->clock.map != NULL && u->base.timeout_ms >= 0 &&
           now_ms() - u->clock.seen_moved_ms >= u->base.timeout_ms;
}

/* On the simulated clock: the deadline passed, or the simulation stalled. */
static bool link_expired(struct uart_transport *u, int64_t deadline)
{
    int64_t now = link_now_us(u);
    return (deadline >= 0 && now >= deadline) || link_stalled(u);
}

static int64_t earlier(int64_t a, int64_t b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    return a < b ? a : b;
}

/* ------------------------------------------------------------ the line */

static void line_gone(struct uart_transport *u)
{
    if (u->fd >= 0)
        close(u->fd);
    u->fd = -1;
    u->rx_len = 0;
}

/* errno of a read or write that moved nothing: waiting may still help. */
static bool transient(int err)
{
    return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

/* A read or write failed otherwise: the line is dropped. EIO, ENXIO and
 * ENODEV are a line that went away (adapter unplugged, pty closed). */
static int line_failed(struct uart_transport *u, int err)
{
    int rc = err == EIO || err == ENXIO || err == ENODEV ? GMMU_E_DISCONNECTED : GMMU_E_IO;
    line_gone(u);
    return rc;
}

static int wait_fd(struct uart_transport *u, short events, int64_t deadline)
{
    struct pollfd p = { .fd = u->fd, .events = events };
    for (;;) {
        /* poll() sleeps on the machine's clock: on a simulated one, look
         * at the clock every few milliseconds instead. */
        bool simulated = u->clock.map != NULL;
        int n = poll(&p, 1,
                     simulated ? SIMCLOCK_POLL_MS : ms_left(deadline < 0 ? -1 : deadline / 1000));
        if (n > 0) {
            if ((p.revents & (POLLERR | POLLNVAL)) ||
                ((p.revents & POLLHUP) && !(p.revents & POLLIN))) {
                line_gone(u);
                return GMMU_E_DISCONNECTED;
            }
            return GMMU_OK;
        }
        if (n == 0 && (!simulated || link_expired(u, deadline)))
            return GMMU_E_TIMEOUT;
        if (n < 0 && errno != EINTR)
            return GMMU_E_IO;
    }
}

static int send_bytes(struct uart_transport *u, const uint8_t *buf, size_t len, int64_t deadline)
{
    size_t sent = 0;
    while (sent < len) {
        if (u->fd < 0)
            return GMMU_E_DISCONNECTED;
        ssize_t n = write(u->fd, buf + sent, len - sent);
        if (n > 0) {
            sent += (size_t)n;
            continue;
        }
        if (n < 0 && !transient(errno))
            return line_failed(u, errno);
        /* A partial frame is harmless: the device drops it on its idle
         * timeout and the retry sends the whole frame again. */
        int rc = wait_fd(u, POLLOUT, deadline);
        if (rc != GMMU_OK)
            return rc;
    }
    return GMMU_OK;
}

/* Takes one well-formed response out of the buffer, skipping garbage and
 * frames with a bad CRC (dropping only their SOF, so a real frame that
 * starts inside a damaged one is still found). */
static bool take_frame(struct uart_transport *u, struct gmmu_uartlink_rsp *r)
{
    size_t pos = 0;
    bool found = false;
    while (pos < u->rx_len) {
        if (u->rx[pos] != GMMU_UARTLINK_SOF) {
            pos++;
            continue;
        }
        if (u->rx_len - pos < GMMU_UARTLINK_RSP_BYTES)
            break; /* the rest has not arrived yet */
        if (gmmu_uartlink_decode_rsp(u->rx + pos, r) == 0) {
            pos += GMMU_UARTLINK_RSP_BYTES;
            found = true;
            break;
        }
        u->st.crc_errors++;
        pos++;
    }
    u->rx_len -= pos;
    memmove(u->rx, u->rx + pos, u->rx_len);
    return found;
}

/* What recv_frame returns, besides GMMU_OK and errors, when it has thrown
 * away a damaged frame and nothing else is buffered. */
#define RECV_DAMAGED 1

/* Next response frame before the deadline. IRQ frames are recorded here
 * as well, whatever the caller waits for. */
static int recv_frame(struct uart_transport *u, int64_t deadline, struct gmmu_uartlink_rsp *r)
{
    uint64_t crc_before = u->st.crc_errors;
    for (;;) {
        if (take_frame(u, r)) {
            if (r->type == GMMU_UARTLINK_IRQ) {
                u->irq_pending |= r->data;
                u->st.irqs++;
            }
            return GMMU_OK;
        }
        if (u->fd < 0)
            return GMMU_E_DISCONNECTED;
        if (u->rx_len == sizeof(u->rx))
            u->rx_len = 0; /* a full buffer without a frame: all garbage */
        ssize_t n = read(u->fd, u->rx + u->rx_len, sizeof(u->rx) - u->rx_len);
        if (n > 0) {
            u->rx_len += (size_t)n;
            continue;
        }
        /* 0 is "no data" on a tty with VMIN = 0; poll() tells a hang-up. */
        if (n < 0 && !transient(errno))
            return line_failed(u, errno);
        if (u->st.crc_errors != crc_before)
            return RECV_DAMAGED;
        int rc = wait_fd(u, POLLIN, deadline);
        if (rc != GMMU_OK)
            return rc;
    }
}

/* ------------------------------------------------------------ requests */

static uint8_t answer_type(uint8_t req_type)
{
    switch (req_type) {
    case GMMU_UARTLINK_HELLO:
        return GMMU_UARTLINK_HELLO_ACK;
    case GMMU_UARTLINK_READ:
        return GMMU_UARTLINK_READ_RSP;
    default:
        return GMMU_UARTLINK_WRITE_ACK;
    }
}

/* One request, resent until answered: GMMU_OK with *out, or an error. */
static int transact(struct uart_transport *u, uint8_t type, unsigned bar, uint32_t off,
                    uint32_t data, struct gmmu_uartlink_rsp *out)
{
    uint8_t frame[GMMU_UARTLINK_REQ_BYTES];
    /* The seq is used up even if this request fails: the device may have
     * run it, and the next request must not look like its resend. */
    uint8_t seq = u->next_seq++;
    gmmu_uartlink_encode_req(frame, type, seq, (uint8_t)bar, off, data);
    link_wait_begins(u);
    int64_t overall = link_deadline(u, u->base.timeout_ms);

    /* Each attempt that times out doubles the next one's wait (up to 16
     * times retry_ms): when the device or the line is slower than retry_ms,
     * resends would otherwise queue up ahead of the answers and make every
     * later attempt time out too. A NAK or a damaged answer resends at once
     * without growing the wait. */
    unsigned backoff = 0;
    for (unsigned attempt = 0; attempt < u->tries; attempt++) {
        if (attempt > 0)
            u->st.retries++;
        int64_t deadline = earlier(overall, link_deadline(u, u->retry_ms << backoff));
        int rc = send_bytes(u, frame, sizeof(frame), overall);
        if (rc != GMMU_OK)
            return rc;
        for (;;) {
            struct gmmu_uartlink_rsp r;
            rc = recv_frame(u, deadline, &r);
            if (rc == GMMU_E_TIMEOUT) {
                u->st.timeouts++;
                if (link_stalled(u))
                    return rc; /* a resend would not be heard either */
                if (backoff < 4)
                    backoff++;
                break; /* resend */
            }
            if (rc == RECV_DAMAGED)
                break; /* it may have been our answer: ask again at once */
            if (rc != GMMU_OK)
                return rc;
            if (r.type == GMMU_UARTLINK_NAK) {
                u->st.naks++;
                break; /* the device saw a damaged frame: resend at once */
            }
            if (r.type == answer_type(type) && r.seq == seq) {
                u->st.requests++;
                *out = r;
                return GMMU_OK;
            }
            if (r.type != GMMU_UARTLINK_IRQ)
                u->st.stale++; /* a repeated answer to an earlier request */
        }
        if (overall >= 0 && link_now_us(u) >= overall)
            return GMMU_E_TIMEOUT;
    }
    return GMMU_E_TIMEOUT;
}

static int uart_read32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t *val)
{
    struct uart_transport *u = to_uart(t);
    *val = 0xFFFFFFFFu;
    if (off >> GMMU_UARTLINK_OFFSET_BITS)
        return GMMU_E_INVALID_ARG;
    struct gmmu_uartlink_rsp r;
    int rc = transact(u, GMMU_UARTLINK_READ, bar, (uint32_t)off, 0, &r);
    if (rc != GMMU_OK)
        return rc;
    if (r.status != GMMU_UARTLINK_ST_OK)
        return GMMU_E_LINK_ERROR;
    *val = r.data;
    return GMMU_OK;
}

static int uart_write32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t val)
{
    struct uart_transport *u = to_uart(t);
    if (off >> GMMU_UARTLINK_OFFSET_BITS)
        return GMMU_E_INVALID_ARG;
    struct gmmu_uartlink_rsp r;
    int rc = transact(u, GMMU_UARTLINK_WRITE, bar, (uint32_t)off, val, &r);
    if (rc != GMMU_OK)
        return rc;
    return r.status == GMMU_UARTLINK_ST_OK ? GMMU_OK : GMMU_E_LINK_ERROR;
}

static int uart_wait_irq(struct gmmu_transport *t, int timeout_ms, uint32_t *vectors)
{
    struct uart_transport *u = to_uart(t);
    link_wait_begins(u);
    int64_t deadline = link_deadline(u, timeout_ms);
    while (u->irq_pending == 0) {
        struct gmmu_uartlink_rsp r;
        int rc = recv_frame(u, deadline, &r); /* records IRQs; drops late answers */
        if (rc == RECV_DAMAGED)
            continue;
        if (rc != GMMU_OK)
            return rc;
        if (r.type != GMMU_UARTLINK_IRQ)
            u->st.stale++;
    }
    *vectors = u->irq_pending;
    u->irq_pending = 0;
    return GMMU_OK;
}

/* ------------------------------------------------------------ open/close */

static bool baud_constant(unsigned long baud, speed_t *out)
{
    static const struct {
        unsigned long rate;
        speed_t code;
    } rates[] = {
        { 9600, B9600 },       { 19200, B19200 },     { 38400, B38400 },     { 57600, B57600 },
        { 115200, B115200 },   { 230400, B230400 },   { 460800, B460800 },   { 500000, B500000 },
        { 576000, B576000 },   { 921600, B921600 },   { 1000000, B1000000 }, { 1152000, B1152000 },
        { 1500000, B1500000 }, { 2000000, B2000000 }, { 2500000, B2500000 }, { 3000000, B3000000 },
        { 3500000, B3500000 }, { 4000000, B4000000 },
    };
    for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
        if (rates[i].rate == baud) {
            *out = rates[i].code;
            return true;
        }
    }
    return false;
}

static bool parse_number(const char *s, size_t len, unsigned long min, unsigned long max,
                         unsigned long *out)
{
    if (len == 0 || len > 10)
        return false;
    unsigned long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (unsigned long)(s[i] - '0');
    }
    if (v < min || v > max)
        return false;
    *out = v;
    return true;
}

struct uart_options {
    speed_t speed;
    unsigned long baud;
    int retry_ms;
    unsigned tries;
    int first_seq;        /* -1: chosen at open */
    const char *simclock; /* points into the spec, or NULL */
    size_t simclock_len;
};

/* One ",NAME=VALUE" or ",BAUD" option. */
static bool parse_option(const char *opt, size_t olen, bool *have_baud, struct uart_options *o)
{
    unsigned long v;
    if (olen > 6 && strncmp(opt, "retry=", 6) == 0 &&
        parse_number(opt + 6, olen - 6, 1, 600000, &v))
        o->retry_ms = (int)v;
    else if (olen > 6 && strncmp(opt, "tries=", 6) == 0 &&
             parse_number(opt + 6, olen - 6, 1, MAX_TRIES, &v))
        o->tries = (unsigned)v;
    else if (olen > 4 && strncmp(opt, "seq=", 4) == 0 &&
             parse_number(opt + 4, olen - 4, 0, 255, &v))
        o->first_seq = (int)v;
    else if (olen > 9 && olen < 9 + 4096 && strncmp(opt, "simclock=", 9) == 0 &&
             o->simclock == NULL) {
        o->simclock = opt + 9;
        o->simclock_len = olen - 9;
    } else if (!*have_baud && parse_number(opt, olen, 1, 100000000, &v) &&
               baud_constant(v, &o->speed)) {
        *have_baud = true;
        o->baud = v;
    } else
        return false;
    return true;
}

/* PATH[,BAUD][,retry=MS][,tries=N][,seq=S][,simclock=FILE] */
static int parse_spec(const char *rest, char **path, struct uart_options *o)
{
    const char *comma = strchr(rest, ',');
    size_t plen = comma ? (size_t)(comma - rest) : strlen(rest);
    if (plen == 0 || plen >= 4096)
        return GMMU_E_BAD_SPEC;
    bool have_baud = false;
    o->baud = GMMU_UART_DEFAULT_BAUD;
    baud_constant(o->baud, &o->speed);
    while (comma != NULL) {
        const char *opt = comma + 1;
        comma = strchr(opt, ',');
        size_t olen = comma ? (size_t)(comma - opt) : strlen(opt);
        if (!parse_option(opt, olen, &have_baud, o))
            return GMMU_E_BAD_SPEC;
    }
    *path = strndup(rest, plen);
    return *path ? GMMU_OK : GMMU_E_NO_MEMORY;
}

static int open_errno_to_error(int err)
{
    switch (err) {
    case ENOENT:
    case ENODEV:
    case ENXIO:
    case ENOTDIR:
        return GMMU_E_NO_DEVICE;
    case EACCES:
    case EPERM:
        return GMMU_E_PERMISSION;
    case EBUSY:
        return GMMU_E_TIMEOUT;
    default:
        return GMMU_E_IO;
    }
}

static int configure_line(int fd, speed_t speed)
{
    struct termios tio;
    if (tcgetattr(fd, &tio) != 0)
        return GMMU_E_INVALID_ARG; /* not a tty */
    cfmakeraw(&tio);
    tio.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS);
    tio.c_cflag |= CLOCAL | CREAD | CS8;
    tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
    tio.c_cc[VMIN] = 0;
    tio.c_cc[VTIME] = 0;
    if (cfsetispeed(&tio, speed) != 0 || cfsetospeed(&tio, speed) != 0 ||
        tcsetattr(fd, TCSANOW, &tio) != 0)
        return GMMU_E_IO;
    tcflush(fd, TCIOFLUSH); /* whatever earlier hosts left on the line */
    return GMMU_OK;
}

/* HELLO: the device forgets its last request, tells its version and BARs. */
static int handshake(struct uart_transport *u, int first_seq)
{
    /* Start somewhere else each time, so a stale answer seldom matches. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    u->next_seq = first_seq >= 0 ? (uint8_t)first_seq : (uint8_t)(ts.tv_nsec ^ getpid());

    struct gmmu_uartlink_rsp r;
    int rc = transact(u, GMMU_UARTLINK_HELLO, 0, 0, 0, &r);
    if (rc != GMMU_OK)
        return rc;
    unsigned version = (r.data >> GMMU_UARTLINK_HELLO_VERSION_SHIFT) & 0xFFu;
    unsigned bar0 = (r.data >> GMMU_UARTLINK_HELLO_BAR0_LOG2_SHIFT) & 0xFFu;
    unsigned bar1 = (r.data >> GMMU_UARTLINK_HELLO_BAR1_LOG2_SHIFT) & 0xFFu;
    if (r.status != GMMU_UARTLINK_ST_OK || version != GMMU_UARTLINK_VERSION ||
        bar0 > GMMU_UARTLINK_OFFSET_BITS || bar1 > GMMU_UARTLINK_OFFSET_BITS)
        return GMMU_E_PROTOCOL;
    u->base.bar_size[0] = bar0 ? UINT64_C(1) << bar0 : 0;
    u->base.bar_size[1] = bar1 ? UINT64_C(1) << bar1 : 0;
    return GMMU_OK;
}

/* Maps a simulated board's clock file: GMMU_E_NO_DEVICE if it is not
 * there, GMMU_E_BAD_SPEC if it is not a clock file. */
static int open_simclock(struct uart_transport *u, const struct uart_options *o)
{
    char *path = strndup(o->simclock, o->simclock_len);
    if (path == NULL)
        return GMMU_E_NO_MEMORY;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int err = errno;
    free(path);
    if (fd < 0)
        return open_errno_to_error(err);
    struct stat sb;
    void *map = MAP_FAILED;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= GMMU_UARTLINK_SIMCLOCK_BYTES)
        map = mmap(NULL, GMMU_UARTLINK_SIMCLOCK_BYTES, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return GMMU_E_BAD_SPEC;
    const uint8_t *bytes = map;
    uint32_t magic = __atomic_load_n((const uint32_t *)map, __ATOMIC_ACQUIRE);
    uint32_t cycles_per_bit;
    memcpy(&cycles_per_bit, bytes + GMMU_UARTLINK_SIMCLOCK_CYCLES_PER_BIT_OFFSET, 4);
    if (magic != GMMU_UARTLINK_SIMCLOCK_MAGIC || cycles_per_bit == 0) {
        munmap(map, GMMU_UARTLINK_SIMCLOCK_BYTES);
        return GMMU_E_BAD_SPEC;
    }
    u->clock.map = bytes;
    u->clock.cycles_per_bit = cycles_per_bit;
    u->clock.baud = o->baud;
    return GMMU_OK;
}

static void uart_close(struct gmmu_transport *t)
{
    struct uart_transport *u = to_uart(t);
    line_gone(u);
    if (u->clock.map != NULL)
        munmap((void *)(uintptr_t)u->clock.map, GMMU_UARTLINK_SIMCLOCK_BYTES);
    free(u);
}

static int uart_open(const char *rest, struct gmmu_transport **out)
{
    struct uart_transport *u = calloc(1, sizeof(*u));
    if (u == NULL)
        return GMMU_E_NO_MEMORY;
    gmmu_transport_init(&u->base, &gmmu_transport_uart_ops);
    u->fd = -1;
    struct uart_options opts = { .retry_ms = DEFAULT_RETRY_MS,
                                 .tries = DEFAULT_TRIES,
                                 .first_seq = -1 };
    char *path = NULL;
    int rc = parse_spec(rest, &path, &opts);
    u->retry_ms = opts.retry_ms;
    u->tries = opts.tries;
    if (rc == GMMU_OK && opts.simclock != NULL)
        rc = open_simclock(u, &opts);
    if (rc == GMMU_OK) {
        u->fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
        if (u->fd < 0)
            rc = open_errno_to_error(errno);
    }
    free(path);
    if (rc == GMMU_OK) {
        rc = configure_line(u->fd, opts.speed);
        if (rc == GMMU_E_INVALID_ARG)
            rc = GMMU_E_NO_DEVICE; /* the file is not a serial line */
    }
    if (rc == GMMU_OK)
        rc = handshake(u, opts.first_seq);
    if (rc != GMMU_OK) {
        uart_close(&u->base);
        return rc;
    }
    *out = &u->base;
    return GMMU_OK;
}

const struct gmmu_transport_ops gmmu_transport_uart_ops = {
    .scheme = "uart",
    .open = uart_open,
    .read32 = uart_read32,
    .write32 = uart_write32,
    .wait_irq = uart_wait_irq,
    .close = uart_close,
};

int gmmu_transport_uart_stats(const struct gmmu_transport *t, struct gmmu_uartlink_stats *out)
{
    if (t == NULL || out == NULL || t->ops != &gmmu_transport_uart_ops)
        return GMMU_E_INVALID_ARG;
    *out = ((const struct uart_transport *)t)->st;
    return GMMU_OK;
}
