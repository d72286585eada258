// SPDX-License-Identifier: Apache-2.0
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
 *
 * System memory (protocol version 2): the buffer is a memfd sealed against
 * resizing, mapped here and handed to the simulation with SCM_RIGHTS, so
 * both processes share the pages and the simulation can never see them
 * shrink under it.
 */
#define _GNU_SOURCE /* memfd_create, seals */
#include "gmmu_transport.h"
#include "gmmu/simlink.h"
#include "transport_batch.h"
#include "transport_deadline.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define FRAME     GMMU_SIMLINK_FRAME_BYTES
#define RX_FRAMES 16u

struct sysmem_buf {
    uint64_t bus, size;
    void *mem;
};

struct sim_transport {
    struct gmmu_transport base; /* first: handles are cast both ways */
    int fd;                     /* -1 once the connection is broken */
    uint32_t version;           /* negotiated in HELLO */
    struct sysmem_buf sysmem[GMMU_SIMLINK_SYSMEM_MAX_BUFFERS];
    unsigned sysmem_count;
    uint32_t next_tag;
    uint32_t irq_pending; /* vectors received, not yet returned */
    uint8_t rx[RX_FRAMES * FRAME];
    size_t rx_len;
};

static struct sim_transport *to_sim(struct gmmu_transport *t)
{
    return (struct sim_transport *)t;
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

/* The descriptor (or -1) rides with the frame's first byte. */
static ssize_t send_some(int sock, const uint8_t *buf, size_t len, int fd)
{
    if (fd < 0)
        return send(sock, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof(control));
    struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
    struct msghdr msg = { .msg_iov = &iov,
                          .msg_iovlen = 1,
                          .msg_control = control.buf,
                          .msg_controllen = sizeof(control.buf) };
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    return sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static int send_frame_fd(struct sim_transport *s, const struct gmmu_simlink_frame *f, int fd)
{
    if (s->fd < 0)
        return GMMU_E_DISCONNECTED;
    uint8_t buf[FRAME];
    gmmu_simlink_encode(f, buf);

    int64_t deadline = deadline_after(s->base.timeout_ms);
    size_t sent = 0;
    while (sent < FRAME) {
        ssize_t n = send_some(s->fd, buf + sent, FRAME - sent, sent == 0 ? fd : -1);
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

static int send_frame(struct sim_transport *s, const struct gmmu_simlink_frame *f)
{
    return send_frame_fd(s, f, -1);
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

/* Waits for the answer of type `type` to the request tagged `tag`. IRQs
 * are already recorded by recv_frame; other answers are late ones to
 * earlier requests that timed out. */
static int wait_answer(struct sim_transport *s, uint8_t type, uint32_t tag,
                       struct gmmu_simlink_frame *out)
{
    int64_t deadline = deadline_after(s->base.timeout_ms);
    for (;;) {
        int rc = recv_frame(s, deadline, out);
        if (rc != GMMU_OK)
            return rc;
        if (out->type == type && out->tag == tag)
            return GMMU_OK;
    }
}

/* ------------------------------------------------------------ accesses */

static int sim_read32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t *val)
{
    struct sim_transport *s = to_sim(t);
    uint32_t tag = s->next_tag++;
    struct gmmu_simlink_frame req = {
        .type = GMMU_SIMLINK_MEM_READ,
        .bar = (uint8_t)bar,
        .size = 4,
        .tag = tag,
        .addr = off,
    };
    *val = 0xFFFFFFFFu;
    int rc = send_frame(s, &req);
    struct gmmu_simlink_frame f;
    if (rc == GMMU_OK)
        rc = wait_answer(s, GMMU_SIMLINK_READ_COMPLETION, tag, &f);
    if (rc != GMMU_OK)
        return rc;
    if (f.status != GMMU_SIMLINK_ST_OK)
        return GMMU_E_LINK_ERROR;
    *val = (uint32_t)f.data;
    return GMMU_OK;
}

/* Reads in flight at once: well under the link's request queue (256), so
 * the simulation always has room to take them while it answers. */
#define READ_WINDOW 32u

/* Answers come back by tag: the harness runs reads in order, but the link
 * answers a read it refuses (bad BAR or offset) at once. Each answer is
 * waited for up to the timeout, as one read32's would be. */
int sim_transport_read_many(struct gmmu_transport *t, unsigned bar, const uint64_t *off,
                            uint32_t *val, size_t n)
{
    struct sim_transport *s = to_sim(t);
    bool *answered = calloc(n, sizeof *answered);
    if (answered == NULL)
        return GMMU_E_NO_MEMORY;
    uint32_t first_tag = s->next_tag;
    s->next_tag += (uint32_t)n;
    int rc = GMMU_OK, first_error = GMMU_OK;
    size_t sent = 0, received = 0;
    while (received < n && rc == GMMU_OK) {
        while (sent < n && sent - received < READ_WINDOW && rc == GMMU_OK) {
            struct gmmu_simlink_frame req = {
                .type = GMMU_SIMLINK_MEM_READ,
                .bar = (uint8_t)bar,
                .size = 4,
                .tag = first_tag + (uint32_t)sent,
                .addr = off[sent],
            };
            rc = send_frame(s, &req);
            sent++;
        }
        if (rc != GMMU_OK)
            break;
        /* The next answer to one of ours; IRQs are kept by recv_frame,
         * anything else is a late answer to an earlier request. */
        int64_t deadline = deadline_after(s->base.timeout_ms);
        struct gmmu_simlink_frame f;
        while ((rc = recv_frame(s, deadline, &f)) == GMMU_OK) {
            size_t k = (size_t)(f.tag - first_tag);
            if (f.type == GMMU_SIMLINK_READ_COMPLETION && k < sent && !answered[k]) {
                answered[k] = true;
                received++;
                if (f.status == GMMU_SIMLINK_ST_OK)
                    val[k] = (uint32_t)f.data;
                else if (first_error == GMMU_OK)
                    first_error = GMMU_E_LINK_ERROR;
                break;
            }
        }
    }
    free(answered);
    return rc != GMMU_OK ? rc : first_error;
}

static int sim_write32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t val)
{
    struct gmmu_simlink_frame req = {
        .type = GMMU_SIMLINK_MEM_WRITE,
        .bar = (uint8_t)bar,
        .size = 4,
        .addr = off,
        .data = val,
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
    case EAGAIN: /* listen backlog full: the simulation is not polling */
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

static int hello(struct sim_transport *s, uint32_t version, struct gmmu_simlink_frame *ack)
{
    struct gmmu_simlink_frame f = { .type = GMMU_SIMLINK_HELLO, .tag = version };
    int rc = send_frame(s, &f);
    if (rc != GMMU_OK)
        return rc;
    int64_t deadline = deadline_after(s->base.timeout_ms);
    do {
        rc = recv_frame(s, deadline, ack);
        if (rc != GMMU_OK)
            return rc;
    } while (ack->type != GMMU_SIMLINK_HELLO_ACK);
    return GMMU_OK;
}

static bool version_known(uint32_t v)
{
    return v >= GMMU_SIMLINK_VERSION_MIN && v <= GMMU_SIMLINK_VERSION;
}

/* The simulation only accepts one host at a time; while another is
 * connected this one's HELLO stays unanswered and open times out. An older
 * simulation refuses our version and names its own: we speak that if we
 * still can (without system memory). */
static int handshake(struct sim_transport *s)
{
    struct gmmu_simlink_frame ack;
    int rc = hello(s, GMMU_SIMLINK_VERSION, &ack);
    if (rc == GMMU_OK && ack.status == GMMU_SIMLINK_ST_BAD_VERSION &&
        ack.tag < GMMU_SIMLINK_VERSION && version_known(ack.tag))
        rc = hello(s, ack.tag, &ack);
    if (rc != GMMU_OK)
        return rc;
    if (ack.status != GMMU_SIMLINK_ST_OK || !version_known(ack.tag))
        return GMMU_E_PROTOCOL;
    s->version = ack.tag;
    s->base.bar_size[0] = ack.addr;
    s->base.bar_size[1] = ack.data;
    return GMMU_OK;
}

/* ------------------------------------------------------------ system memory */

static int sysmem_status_to_error(uint8_t status)
{
    switch (status) {
    case GMMU_SIMLINK_ST_OK:
        return GMMU_OK;
    case GMMU_SIMLINK_ST_BAD_BUFFER:
        return GMMU_E_INVALID_ARG;
    case GMMU_SIMLINK_ST_NO_SPACE:
        return GMMU_E_NO_MEMORY;
    case GMMU_SIMLINK_ST_NOT_MAPPED:
        return GMMU_E_INVALID_ARG;
    default:
        return GMMU_E_LINK_ERROR;
    }
}

/* A memfd of `size` bytes that nobody can shrink or grow any more. */
static int make_sealed_memfd(uint64_t size)
{
    int fd = memfd_create("gmmu-sysmem", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return -1;
    if (ftruncate(fd, (off_t)size) != 0 ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int register_buffer(struct sim_transport *s, int fd, uint64_t size, uint64_t *bus)
{
    uint32_t tag = s->next_tag++;
    struct gmmu_simlink_frame req = { .type = GMMU_SIMLINK_SYSMEM_MAP, .tag = tag, .data = size };
    struct gmmu_simlink_frame ack;
    int rc = send_frame_fd(s, &req, fd);
    if (rc == GMMU_OK)
        rc = wait_answer(s, GMMU_SIMLINK_SYSMEM_MAP_ACK, tag, &ack);
    if (rc == GMMU_OK)
        rc = sysmem_status_to_error(ack.status);
    if (rc == GMMU_OK)
        *bus = ack.addr;
    return rc;
}

static int sim_sysmem_alloc(struct gmmu_transport *t, uint64_t size, uint64_t *bus_addr,
                            void **host_ptr)
{
    struct sim_transport *s = to_sim(t);
    if (s->version < GMMU_SIMLINK_VERSION_SYSMEM)
        return GMMU_E_NOT_SUPPORTED;
    if (s->sysmem_count == GMMU_SIMLINK_SYSMEM_MAX_BUFFERS || size > SIZE_MAX)
        return GMMU_E_NO_MEMORY;
    int fd = make_sealed_memfd(size);
    if (fd < 0)
        return errno == ENOMEM || errno == EMFILE ? GMMU_E_NO_MEMORY : GMMU_E_IO;
    void *mem = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    uint64_t bus = 0;
    int rc = mem == MAP_FAILED ? GMMU_E_NO_MEMORY : register_buffer(s, fd, size, &bus);
    close(fd); /* the mappings on both sides keep the memory */
    if (rc != GMMU_OK) {
        if (mem != MAP_FAILED)
            munmap(mem, (size_t)size);
        return rc;
    }
    s->sysmem[s->sysmem_count++] = (struct sysmem_buf){ bus, size, mem };
    *bus_addr = bus;
    *host_ptr = mem;
    return GMMU_OK;
}

/* Our mapping goes whatever the simulation answers: if it has gone, the
 * buffer went with the connection. */
static int sim_sysmem_free(struct gmmu_transport *t, uint64_t bus_addr)
{
    struct sim_transport *s = to_sim(t);
    unsigned i = 0;
    while (i < s->sysmem_count && s->sysmem[i].bus != bus_addr)
        i++;
    if (i == s->sysmem_count)
        return GMMU_E_INVALID_ARG;
    munmap(s->sysmem[i].mem, (size_t)s->sysmem[i].size);
    s->sysmem[i] = s->sysmem[--s->sysmem_count];

    uint32_t tag = s->next_tag++;
    struct gmmu_simlink_frame req = { .type = GMMU_SIMLINK_SYSMEM_UNMAP,
                                      .tag = tag,
                                      .addr = bus_addr };
    struct gmmu_simlink_frame ack;
    int rc = send_frame(s, &req);
    if (rc == GMMU_OK)
        rc = wait_answer(s, GMMU_SIMLINK_SYSMEM_UNMAP_ACK, tag, &ack);
    return rc == GMMU_OK ? sysmem_status_to_error(ack.status) : rc;
}

/* ------------------------------------------------------------ test hooks */

int gmmu_transport_sim_test_ddr_fault(struct gmmu_transport *t, unsigned kinds, uint64_t lo,
                                      uint64_t hi, unsigned count, uint64_t *read_beats,
                                      uint64_t *write_bursts)
{
    if (t == NULL)
        return GMMU_E_INVALID_ARG;
    if (t->ops != &gmmu_transport_sim_ops)
        return GMMU_E_NOT_SUPPORTED;
    struct sim_transport *s = to_sim(t);
    if (s->version < GMMU_SIMLINK_VERSION_FAULT)
        return GMMU_E_NOT_SUPPORTED;
    if ((kinds & ~(GMMU_SIMLINK_FAULT_READ | GMMU_SIMLINK_FAULT_WRITE)) ||
        count > GMMU_SIMLINK_FAULT_MAX_COUNT || (kinds && lo >= hi))
        return GMMU_E_INVALID_ARG;
    uint32_t tag = s->next_tag++;
    struct gmmu_simlink_frame req = { .type = GMMU_SIMLINK_DDR_FAULT,
                                      .bar = (uint8_t)count,
                                      .size = (uint8_t)kinds,
                                      .tag = tag,
                                      .addr = lo,
                                      .data = hi };
    struct gmmu_simlink_frame ack;
    int rc = send_frame(s, &req);
    if (rc == GMMU_OK)
        rc = wait_answer(s, GMMU_SIMLINK_DDR_FAULT_ACK, tag, &ack);
    if (rc != GMMU_OK)
        return rc;
    if (read_beats != NULL)
        *read_beats = ack.addr;
    if (write_bursts != NULL)
        *write_bursts = ack.data;
    return ack.status == GMMU_SIMLINK_ST_OK ? GMMU_OK : GMMU_E_INVALID_ARG;
}

static void sim_close(struct gmmu_transport *t)
{
    struct sim_transport *s = to_sim(t);
    break_connection(s); /* first: the simulation drops its mappings with us */
    for (unsigned i = 0; i < s->sysmem_count; i++)
        munmap(s->sysmem[i].mem, (size_t)s->sysmem[i].size);
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
    .sysmem_alloc = sim_sysmem_alloc,
    .sysmem_free = sim_sysmem_free,
};
