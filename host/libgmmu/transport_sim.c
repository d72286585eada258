/*
 * "sim:PATH": the device is a Verilator simulation listening on a Unix
 * socket (sim/pcie_link.c). Protocol: include/gmmu/simlink.h.
 *
 * Every wait is bounded by poll() with a deadline, and the socket is
 * non-blocking, so a stalled or vanished simulation yields GMMU_E_TIMEOUT or
 * GMMU_E_DISCONNECTED instead of a hung host. IRQ messages can arrive
 * between any two frames (for instance while a read waits for its
 * completion); they are OR-ed into a pending mask that wait_irq hands out,
 * so none is lost.
 */
#include "gmmu_transport.h"
#include "gmmu/simlink.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define FRAME GMMU_SIMLINK_FRAME_BYTES
#define RX_FRAMES 16u

struct sim_transport {
    struct gmmu_transport base; /* first: handles are cast both ways */
    int fd;                     /* -1 once the connection is broken */
    uint32_t next_tag;
    uint32_t irq_pending;       /* vectors received, not yet returned */
    uint8_t rx[RX_FRAMES * FRAME];
    size_t rx_len;
};

static struct sim_transport *to_sim(struct gmmu_transport *t)
{
    return (struct sim_transport *)t;
}

/* ------------------------------------------------------------ deadlines */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* -1 = no deadline */
static int64_t deadline_after(int timeout_ms)
{
    return timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
}

/* What to pass to poll(): -1 forever, else the milliseconds left (>= 0). */
static int ms_left(int64_t deadline)
{
    if (deadline < 0)
        return -1;
    int64_t left = deadline - now_ms();
    if (left < 0)
        return 0;
    return left > INT_MAX ? INT_MAX : (int)left;
}

/* ------------------------------------------------------------ frames */

static void break_connection(struct sim_transport *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    s->rx_len = 0;
}

static bool is_disconnect_errno(int err)
{
    return err == EPIPE || err == ECONNRESET || err == ENOTCONN || err == ECONNREFUSED;
}

static int wait_fd(struct sim_transport *s, short events, int64_t deadline)
{
    struct pollfd p = { .fd = s->fd, .events = events };
    for (;;) {
        int n = poll(&p, 1, ms_left(deadline));
        if (n > 0)
            return GMMU_OK; /* readable, writable, or hung up: the caller finds out */
        if (n == 0)
            return GMMU_E_TIMEOUT;
        if (errno != EINTR)
            return GMMU_E_IO;
    }
}

static int send_frame(struct sim_transport *s, const struct gmmu_simlink_frame *f)
{
    if (s->fd < 0)
        return GMMU_E_DISCONNECTED;
    uint8_t buf[FRAME];
    gmmu_simlink_encode(f, buf);

    int64_t deadline = deadline_after(s->base.timeout_ms);
    size_t sent = 0;
    while (sent < FRAME) {
        ssize_t n = send(s->fd, buf + sent, FRAME - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            sent += (size_t)n;
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            int rc = is_disconnect_errno(errno) ? GMMU_E_DISCONNECTED : GMMU_E_IO;
            break_connection(s);
            return rc;
        }
        int rc = wait_fd(s, POLLOUT, deadline);
        if (rc != GMMU_OK) {
            /* Half a frame on the wire would misalign every later one. */
            if (sent > 0)
                break_connection(s);
            return rc;
        }
    }
    return GMMU_OK;
}

static bool take_buffered_frame(struct sim_transport *s, struct gmmu_simlink_frame *f)
{
    if (s->rx_len < FRAME)
        return false;
    gmmu_simlink_decode(s->rx, f);
    s->rx_len -= FRAME;
    memmove(s->rx, s->rx + FRAME, s->rx_len);
    return true;
}

/* Next frame from the simulation. IRQ frames are also OR-ed into the
 * pending mask here, so they are kept whatever the caller was waiting for. */
static int recv_frame(struct sim_transport *s, int64_t deadline, struct gmmu_simlink_frame *f)
{
    for (;;) {
        if (take_buffered_frame(s, f)) {
            if (f->type == GMMU_SIMLINK_IRQ)
                s->irq_pending |= (uint32_t)f->data;
            return GMMU_OK;
        }
        if (s->fd < 0)
            return GMMU_E_DISCONNECTED;
        ssize_t n = recv(s->fd, s->rx + s->rx_len, sizeof(s->rx) - s->rx_len, MSG_DONTWAIT);
        if (n > 0) {
            s->rx_len += (size_t)n;
            continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            int rc = n == 0 || is_disconnect_errno(errno) ? GMMU_E_DISCONNECTED : GMMU_E_IO;
            break_connection(s);
            return rc;
        }
        int rc = wait_fd(s, POLLIN, deadline);
        if (rc != GMMU_OK)
            return rc;
    }
}

/* ------------------------------------------------------------ accesses */

static int sim_read32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t *val)
{
    struct sim_transport *s = to_sim(t);
    uint32_t tag = s->next_tag++;
    struct gmmu_simlink_frame req = {
        .type = GMMU_SIMLINK_MEM_READ, .bar = (uint8_t)bar, .size = 4, .tag = tag, .addr = off,
    };
    *val = 0xFFFFFFFFu;
    int rc = send_frame(s, &req);
    if (rc != GMMU_OK)
        return rc;

    int64_t deadline = deadline_after(t->timeout_ms);
    for (;;) {
        struct gmmu_simlink_frame f;
        rc = recv_frame(s, deadline, &f);
        if (rc != GMMU_OK)
            return rc;
        /* IRQs are already recorded by recv_frame; another completion is
         * the late answer to an earlier read that timed out. */
        if (f.type != GMMU_SIMLINK_READ_COMPLETION || f.tag != tag)
            continue;
        if (f.status != GMMU_SIMLINK_ST_OK)
            return GMMU_E_LINK_ERROR;
        *val = (uint32_t)f.data;
        return GMMU_OK;
    }
}

static int sim_write32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t val)
{
    struct gmmu_simlink_frame req = {
        .type = GMMU_SIMLINK_MEM_WRITE, .bar = (uint8_t)bar, .size = 4, .addr = off, .data = val,
    };
    return send_frame(to_sim(t), &req);
}

static int sim_wait_irq(struct gmmu_transport *t, int timeout_ms, uint32_t *vectors)
{
    struct sim_transport *s = to_sim(t);
    int64_t deadline = deadline_after(timeout_ms);
    /* recv_frame records IRQs; other frames (late completions) are dropped. */
    while (s->irq_pending == 0) {
        struct gmmu_simlink_frame f;
        int rc = recv_frame(s, deadline, &f);
        if (rc != GMMU_OK)
            return rc;
    }
    *vectors = s->irq_pending;
    s->irq_pending = 0;
    return GMMU_OK;
}

/* ------------------------------------------------------------ open/close */

static int connect_errno_to_error(int err)
{
    switch (err) {
    case ENOENT:
    case ECONNREFUSED: /* a socket file left by a simulation that ended */
    case ENOTDIR:
        return GMMU_E_NO_DEVICE;
    case EACCES:
    case EPERM:
        return GMMU_E_PERMISSION;
    case EAGAIN:       /* listen backlog full: the simulation is not polling */
    case EINPROGRESS:
        return GMMU_E_TIMEOUT;
    default:
        return GMMU_E_IO;
    }
}

static int connect_socket(struct sim_transport *s, const char *path)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    if (path[0] == '\0' || strlen(path) >= sizeof(addr.sun_path))
        return GMMU_E_BAD_SPEC;
    strcpy(addr.sun_path, path);

    s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s->fd < 0)
        return GMMU_E_IO;
    if (connect(s->fd, (const struct sockaddr *)&addr, sizeof(addr)) != 0)
        return connect_errno_to_error(errno);
    return GMMU_OK;
}

/* The simulation only accepts one host at a time; while another is
 * connected this one's HELLO stays unanswered and open times out. */
static int handshake(struct sim_transport *s)
{
    struct gmmu_simlink_frame hello = { .type = GMMU_SIMLINK_HELLO, .tag = GMMU_SIMLINK_VERSION };
    int rc = send_frame(s, &hello);
    if (rc != GMMU_OK)
        return rc;

    int64_t deadline = deadline_after(s->base.timeout_ms);
    struct gmmu_simlink_frame ack;
    do {
        rc = recv_frame(s, deadline, &ack);
        if (rc != GMMU_OK)
            return rc;
    } while (ack.type != GMMU_SIMLINK_HELLO_ACK);

    if (ack.status != GMMU_SIMLINK_ST_OK || ack.tag != GMMU_SIMLINK_VERSION)
        return GMMU_E_PROTOCOL;
    s->base.bar_size[0] = ack.addr;
    s->base.bar_size[1] = ack.data;
    return GMMU_OK;
}

static void sim_close(struct gmmu_transport *t)
{
    struct sim_transport *s = to_sim(t);
    break_connection(s);
    free(s);
}

static int sim_open(const char *rest, struct gmmu_transport **out)
{
    struct sim_transport *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return GMMU_E_NO_MEMORY;
    gmmu_transport_init(&s->base, &gmmu_transport_sim_ops);
    s->fd = -1;
    s->next_tag = 1;

    int rc = connect_socket(s, rest);
    if (rc == GMMU_OK)
        rc = handshake(s);
    if (rc != GMMU_OK) {
        sim_close(&s->base);
        return rc;
    }
    *out = &s->base;
    return GMMU_OK;
}

const struct gmmu_transport_ops gmmu_transport_sim_ops = {
    .scheme = "sim",
    .open = sim_open,
    .read32 = sim_read32,
    .write32 = sim_write32,
    .wait_irq = sim_wait_irq,
    .close = sim_close,
};
