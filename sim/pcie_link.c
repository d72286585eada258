// SPDX-License-Identifier: Apache-2.0
/*
 * The simulated PCIe link, device side: see pcie_link.h for the contract
 * and docs/sim-link.md for the protocol.
 *
 * Every socket is non-blocking and every send uses MSG_NOSIGNAL, so nothing
 * a host does can stall or kill the simulation. Back-pressure is explicit:
 * the link only receives as many bytes as its request queue can absorb, so
 * a host streaming writes faster than the RTL runs simply fills its socket
 * buffer and waits.
 *
 * System memory: a host's SYSMEM_MAP frame brings a file descriptor. The
 * link maps it only if it is sealed against shrinking (else the host could
 * truncate it and the simulator would die of SIGBUS on the next access), and
 * unmaps every buffer of a host when it leaves, so its bus addresses answer
 * errors from then on.
 */
#define _GNU_SOURCE /* memfd seals (F_GET_SEALS) */
#include "pcie_link.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define FRAME GMMU_SIMLINK_FRAME_BYTES

/* Requests waiting for the harness. Enough to hide socket latency; more
 * would only let a host run further ahead of the RTL. */
#define QUEUE_LEN             256u
/* One recv takes at most this many frames. */
#define RX_FRAMES             64u
/* Frames waiting to go to a host that is slow to read. A host that lets
 * this many pile up is not reading at all, and is disconnected. */
#define TX_FRAMES             1024u
#define DEFAULT_POLL_INTERVAL 8u
#define LISTEN_BACKLOG        4
/* File descriptors received but not yet claimed by their SYSMEM_MAP frame
 * (it is usually in the same recv). More than this is a confused host. */
#define PENDING_FDS           8u

struct sysmem_buffer {
    uint64_t bus; /* first bus address */
    uint64_t size;
    uint8_t *mem; /* our mapping of the host's memfd */
};
struct pcie_link {
    int listen_fd;
    int client_fd;       /* -1 when no host is connected */
    bool hello_done;     /* the host passed the version check */
    uint32_t version;    /* negotiated with the current host */
    uint32_t generation; /* of the current (or last) host */
    uint64_t bar_size[GMMU_SIMLINK_BARS];
    unsigned poll_interval;
    unsigned poll_countdown;

    struct pcie_link_request queue[QUEUE_LEN];
    unsigned queue_head;
    unsigned queue_count;

    uint8_t rx[RX_FRAMES * FRAME];
    size_t rx_len; /* < FRAME between polls: a partial frame */
    uint8_t tx[TX_FRAMES * FRAME];
    size_t tx_len;

    int pending_fds[PENDING_FDS];
    unsigned pending_fd_count;
    struct sysmem_buffer sysmem[GMMU_SIMLINK_SYSMEM_MAX_BUFFERS];
    unsigned sysmem_count;
    uint64_t next_bus; /* only grows: bus addresses are never reused */

    pcie_link_fault_fn fault_fn; /* DDR_FAULT: the harness's DDR model */
    void *fault_ctx;

    struct pcie_link_stats stats;
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

/* ------------------------------------------------------------ socket setup */

static int make_address(const char *path, struct sockaddr_un *addr)
{
    memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    if (path == NULL || path[0] == '\0') {
        errno = EINVAL;
        return -1;
    }
    if (strlen(path) >= sizeof(addr->sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(addr->sun_path, path);
    return 0;
}

/* A socket file left behind by a simulation that died is removed. One that
 * a live simulation still listens on is not: two simulations must not
 * silently share a path. Anything that is not a socket is not ours. */
static int remove_stale_socket(const struct sockaddr_un *addr)
{
    struct stat st;
    if (lstat(addr->sun_path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISSOCK(st.st_mode)) {
        errno = EEXIST;
        return -1;
    }
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (probe < 0)
        return -1;
    int rc = connect(probe, (const struct sockaddr *)addr, sizeof(*addr));
    int connect_errno = errno;
    close(probe);
    if (rc == 0 || connect_errno == EAGAIN) {
        errno = EADDRINUSE;
        return -1;
    }
    return unlink(addr->sun_path) == 0 || errno == ENOENT ? 0 : -1;
}

static int listen_on(const struct sockaddr_un *addr)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (bind(fd, (const struct sockaddr *)addr, sizeof(*addr)) != 0 ||
        listen(fd, LISTEN_BACKLOG) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

struct pcie_link *pcie_link_open(const char *socket_path, uint64_t bar0_size, uint64_t bar1_size)
{
    struct sockaddr_un addr;
    if (make_address(socket_path, &addr) != 0 || remove_stale_socket(&addr) != 0)
        return NULL;

    struct pcie_link *link = calloc(1, sizeof(*link));
    if (link == NULL)
        return NULL;
    link->listen_fd = listen_on(&addr);
    if (link->listen_fd < 0) {
        int saved = errno;
        free(link);
        errno = saved;
        return NULL;
    }
    link->client_fd = -1;
    link->bar_size[0] = bar0_size;
    link->bar_size[1] = bar1_size;
    link->poll_interval = DEFAULT_POLL_INTERVAL;
    link->poll_countdown = 1;
    link->next_bus = GMMU_SIMLINK_SYSMEM_BUS_BASE;
    strcpy(link->path, addr.sun_path);
    return link;
}

/* ------------------------------------------------------------ connection */

static void close_pending_fds(struct pcie_link *link)
{
    for (unsigned i = 0; i < link->pending_fd_count; i++)
        close(link->pending_fds[i]);
    link->pending_fd_count = 0;
}

static void unmap_sysmem(struct sysmem_buffer *b)
{
    munmap(b->mem, (size_t)b->size);
}

static void unmap_all_sysmem(struct pcie_link *link)
{
    for (unsigned i = 0; i < link->sysmem_count; i++)
        unmap_sysmem(&link->sysmem[i]);
    link->sysmem_count = 0;
}

/* Forgets everything about the current host. Its generation stays as it
 * was, which is what makes its queued reads and late completions stale;
 * its system memory goes, so the device's accesses to it now fail. */
static void drop_client(struct pcie_link *link)
{
    if (link->client_fd < 0)
        return;
    close(link->client_fd);
    close_pending_fds(link);
    unmap_all_sysmem(link);
    link->client_fd = -1;
    link->hello_done = false;
    link->version = 0;
    link->rx_len = 0;
    link->tx_len = 0;
    link->stats.disconnects++;
}

static void accept_client(struct pcie_link *link)
{
    int fd = accept(link->listen_fd, NULL, NULL);
    if (fd < 0)
        return; /* nobody waiting, or a transient error: try next poll */
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 ||
        fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
        close(fd);
        return;
    }
    link->client_fd = fd;
    link->generation++;
    link->stats.connects++;
}

void pcie_link_close(struct pcie_link *link)
{
    if (link == NULL)
        return;
    drop_client(link);
    close(link->listen_fd);
    unlink(link->path);
    free(link);
}

bool pcie_link_connected(const struct pcie_link *link)
{
    return link->client_fd >= 0;
}

uint32_t pcie_link_generation(const struct pcie_link *link)
{
    return link->generation;
}

void pcie_link_get_stats(const struct pcie_link *link, struct pcie_link_stats *out)
{
    *out = link->stats;
}

void pcie_link_set_poll_interval(struct pcie_link *link, unsigned calls)
{
    link->poll_interval = calls ? calls : 1;
    link->poll_countdown = 1;
}

/* ------------------------------------------------------------ sending */

static void flush_tx(struct pcie_link *link)
{
    if (link->client_fd < 0 || link->tx_len == 0)
        return;
    ssize_t n = send(link->client_fd, link->tx, link->tx_len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            drop_client(link);
        return;
    }
    link->tx_len -= (size_t)n;
    memmove(link->tx, link->tx + n, link->tx_len);
}

static void send_frame(struct pcie_link *link, const struct gmmu_simlink_frame *f)
{
    if (link->client_fd < 0)
        return;
    if (link->tx_len + FRAME > sizeof(link->tx)) {
        drop_client(link); /* the host stopped reading long ago */
        return;
    }
    gmmu_simlink_encode(f, link->tx + link->tx_len);
    link->tx_len += FRAME;
    flush_tx(link);
}

static void send_completion(struct pcie_link *link, const struct gmmu_simlink_frame *req,
                            uint32_t data, uint8_t status)
{
    struct gmmu_simlink_frame f = {
        .type = GMMU_SIMLINK_READ_COMPLETION,
        .bar = req->bar,
        .size = req->size,
        .status = status,
        .tag = req->tag,
        .addr = req->addr,
        .data = data,
    };
    send_frame(link, &f);
}

/* ------------------------------------------------------------ receiving */

static uint8_t check_access(const struct pcie_link *link, const struct gmmu_simlink_frame *f)
{
    if (f->bar >= GMMU_SIMLINK_BARS || link->bar_size[f->bar] == 0)
        return GMMU_SIMLINK_ST_BAD_BAR;
    if (f->size != 4)
        return GMMU_SIMLINK_ST_BAD_SIZE;
    uint64_t bar_size = link->bar_size[f->bar];
    if (f->addr % f->size != 0 || f->addr >= bar_size || bar_size - f->addr < f->size)
        return GMMU_SIMLINK_ST_BAD_OFFSET;
    return GMMU_SIMLINK_ST_OK;
}

static void queue_request(struct pcie_link *link, const struct gmmu_simlink_frame *f,
                          enum pcie_link_kind kind)
{
    /* receive_from_client never takes in more frames than there are free
     * slots, so the queue cannot be full here. */
    unsigned slot = (link->queue_head + link->queue_count) % QUEUE_LEN;
    link->queue[slot] = (struct pcie_link_request){
        .kind = kind,
        .bar = f->bar,
        .offset = f->addr,
        .size = f->size,
        .data = kind == PCIE_LINK_WRITE ? (uint32_t)f->data : 0,
        .tag = f->tag,
        .generation = link->generation,
    };
    link->queue_count++;
    link->stats.requests++;
    if (kind == PCIE_LINK_READ)
        link->stats.reads++;
    else
        link->stats.writes++;
}

/* A host of any version this device still speaks gets its own version
 * back; one it does not speak gets BAD_VERSION and the device's version. */
static void handle_hello(struct pcie_link *link, const struct gmmu_simlink_frame *f)
{
    bool compatible = f->tag >= GMMU_SIMLINK_VERSION_MIN && f->tag <= GMMU_SIMLINK_VERSION;
    struct gmmu_simlink_frame ack = {
        .type = GMMU_SIMLINK_HELLO_ACK,
        .status = compatible ? GMMU_SIMLINK_ST_OK : GMMU_SIMLINK_ST_BAD_VERSION,
        .tag = compatible ? f->tag : GMMU_SIMLINK_VERSION,
        .addr = link->bar_size[0],
        .data = link->bar_size[1],
    };
    link->hello_done = compatible;
    link->version = compatible ? f->tag : 0;
    send_frame(link, &ack);
}

/* ------------------------------------------------------------ system memory */

static int take_pending_fd(struct pcie_link *link)
{
    if (link->pending_fd_count == 0)
        return -1;
    int fd = link->pending_fds[0];
    link->pending_fd_count--;
    memmove(link->pending_fds, link->pending_fds + 1,
            link->pending_fd_count * sizeof(link->pending_fds[0]));
    return fd;
}

static bool sysmem_size_ok(uint64_t size)
{
    return size != 0 && size % GMMU_SIMLINK_SYSMEM_ALIGN == 0 &&
           size <= GMMU_SIMLINK_SYSMEM_MAX_BYTES;
}

/* Only a memfd whose size can no longer drop below what we map is safe to
 * touch from the simulation thread for as long as we like. */
static bool fd_is_safe_buffer(int fd, uint64_t size)
{
    struct stat st;
    int seals = fcntl(fd, F_GET_SEALS);
    return seals >= 0 && (seals & F_SEAL_SHRINK) && fstat(fd, &st) == 0 && st.st_size >= 0 &&
           (uint64_t)st.st_size >= size;
}

static uint64_t round_up(uint64_t v, uint64_t granule)
{
    return (v + granule - 1) / granule * granule;
}

/* Maps the buffer at the next free bus address; a GMMU_SIMLINK_ST_* code. */
static uint8_t map_sysmem(struct pcie_link *link, int fd, uint64_t size, uint64_t *bus)
{
    if (!sysmem_size_ok(size) || !fd_is_safe_buffer(fd, size))
        return GMMU_SIMLINK_ST_BAD_BUFFER;
    uint64_t span = round_up(size, GMMU_SIMLINK_SYSMEM_PLACEMENT) + GMMU_SIMLINK_SYSMEM_PLACEMENT;
    if (link->sysmem_count == GMMU_SIMLINK_SYSMEM_MAX_BUFFERS ||
        link->next_bus + span > (1ull << 52))
        return GMMU_SIMLINK_ST_NO_SPACE;
    void *mem = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mem == MAP_FAILED)
        return GMMU_SIMLINK_ST_NO_SPACE;
    *bus = link->next_bus;
    link->next_bus += span;
    link->sysmem[link->sysmem_count++] = (struct sysmem_buffer){ *bus, size, (uint8_t *)mem };
    return GMMU_SIMLINK_ST_OK;
}

static bool sysmem_negotiated(const struct pcie_link *link)
{
    return link->hello_done && link->version >= GMMU_SIMLINK_VERSION_SYSMEM;
}

static void handle_sysmem_map(struct pcie_link *link, const struct gmmu_simlink_frame *f)
{
    int fd = take_pending_fd(link);
    uint64_t bus = 0;
    uint8_t status = GMMU_SIMLINK_ST_BAD_BUFFER;
    if (fd >= 0 && f->addr == 0)
        status = map_sysmem(link, fd, f->data, &bus);
    if (fd >= 0)
        close(fd); /* the mapping keeps the memory */
    if (status == GMMU_SIMLINK_ST_OK)
        link->stats.sysmem_maps++;
    else
        link->stats.sysmem_rejected++;
    struct gmmu_simlink_frame ack = {
        .type = GMMU_SIMLINK_SYSMEM_MAP_ACK,
        .status = status,
        .tag = f->tag,
        .addr = bus,
        .data = status == GMMU_SIMLINK_ST_OK ? f->data : 0,
    };
    send_frame(link, &ack);
}

static void handle_sysmem_unmap(struct pcie_link *link, const struct gmmu_simlink_frame *f)
{
    uint8_t status = GMMU_SIMLINK_ST_NOT_MAPPED;
    for (unsigned i = 0; i < link->sysmem_count; i++) {
        if (link->sysmem[i].bus != f->addr)
            continue;
        unmap_sysmem(&link->sysmem[i]);
        link->sysmem[i] = link->sysmem[--link->sysmem_count];
        link->stats.sysmem_unmaps++;
        status = GMMU_SIMLINK_ST_OK;
        break;
    }
    struct gmmu_simlink_frame ack = {
        .type = GMMU_SIMLINK_SYSMEM_UNMAP_ACK,
        .status = status,
        .tag = f->tag,
        .addr = f->addr,
    };
    send_frame(link, &ack);
}

void *pcie_link_sysmem(struct pcie_link *link, uint64_t bus_addr, uint64_t len)
{
    for (unsigned i = 0; i < link->sysmem_count; i++) {
        const struct sysmem_buffer *b = &link->sysmem[i];
        if (bus_addr >= b->bus && bus_addr - b->bus <= b->size &&
            len <= b->size - (bus_addr - b->bus))
            return b->mem + (bus_addr - b->bus);
    }
    return NULL;
}

/* ------------------------------------------------------------ test hooks */

void pcie_link_set_fault_handler(struct pcie_link *link, pcie_link_fault_fn fn, void *ctx)
{
    link->fault_fn = fn;
    link->fault_ctx = ctx;
}

static void handle_ddr_fault(struct pcie_link *link, const struct gmmu_simlink_frame *f)
{
    uint64_t reads = 0, writes = 0;
    uint8_t status = GMMU_SIMLINK_ST_BAD_FAULT;
    if (link->fault_fn != NULL)
        status =
            link->fault_fn(link->fault_ctx, f->size, f->addr, f->data, f->bar, &reads, &writes);
    if (status == GMMU_SIMLINK_ST_OK)
        link->stats.faults_armed++;
    struct gmmu_simlink_frame ack = {
        .type = GMMU_SIMLINK_DDR_FAULT_ACK,
        .status = status,
        .tag = f->tag,
        .addr = reads,
        .data = writes,
    };
    send_frame(link, &ack);
}

static void handle_read(struct pcie_link *link, const struct gmmu_simlink_frame *f)
{
    uint8_t status = check_access(link, f);
    if (status == GMMU_SIMLINK_ST_OK) {
        queue_request(link, f, PCIE_LINK_READ);
        return;
    }
    link->stats.bad_frames++;
    send_completion(link, f, 0xFFFFFFFFu, status); /* all ones, like a PCIe UR */
}

static void handle_write(struct pcie_link *link, const struct gmmu_simlink_frame *f)
{
    if (check_access(link, f) == GMMU_SIMLINK_ST_OK)
        queue_request(link, f, PCIE_LINK_WRITE);
    else
        link->stats.bad_frames++; /* posted: nobody to tell */
}

static void handle_frame(struct pcie_link *link, const uint8_t *bytes)
{
    struct gmmu_simlink_frame f;
    gmmu_simlink_decode(bytes, &f);
    switch (f.type) {
    case GMMU_SIMLINK_HELLO:
        handle_hello(link, &f);
        break;
    case GMMU_SIMLINK_MEM_READ:
        handle_read(link, &f);
        break;
    case GMMU_SIMLINK_MEM_WRITE:
        handle_write(link, &f);
        break;
    case GMMU_SIMLINK_SYSMEM_MAP:
    case GMMU_SIMLINK_SYSMEM_UNMAP:
        if (!sysmem_negotiated(link)) {
            link->stats.bad_frames++; /* a host that did not ask for them */
            break;
        }
        if (f.type == GMMU_SIMLINK_SYSMEM_MAP)
            handle_sysmem_map(link, &f);
        else
            handle_sysmem_unmap(link, &f);
        break;
    case GMMU_SIMLINK_DDR_FAULT:
        if (!link->hello_done || link->version < GMMU_SIMLINK_VERSION_FAULT)
            link->stats.bad_frames++;
        else
            handle_ddr_fault(link, &f);
        break;
    default:
        /* Device-to-host types, reserved and unknown types: a newer or
         * confused host. Skipping the frame keeps the stream aligned. */
        link->stats.bad_frames++;
        break;
    }
}

/* Keeps the descriptors a host sends (SCM_RIGHTS) for the SYSMEM_MAP frame
 * they came with; any beyond PENDING_FDS are closed at once. */
static void keep_fds(struct pcie_link *link, struct msghdr *msg)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c != NULL; c = CMSG_NXTHDR(msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (link->pending_fd_count < PENDING_FDS)
                link->pending_fds[link->pending_fd_count++] = fd;
            else
                close(fd);
        }
    }
}

static ssize_t recv_with_fds(struct pcie_link *link, size_t want)
{
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(PENDING_FDS * sizeof(int))];
    } control;
    struct iovec iov = { .iov_base = link->rx + link->rx_len, .iov_len = want };
    struct msghdr msg = { .msg_iov = &iov,
                          .msg_iovlen = 1,
                          .msg_control = control.buf,
                          .msg_controllen = sizeof(control.buf) };
    ssize_t n = recvmsg(link->client_fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n >= 0)
        keep_fds(link, &msg);
    return n;
}

static void receive_from_client(struct pcie_link *link)
{
    size_t free_slots = QUEUE_LEN - link->queue_count;
    if (free_slots == 0)
        return; /* back-pressure: the host waits in its socket buffer */
    size_t want = free_slots * FRAME - link->rx_len;
    if (want > sizeof(link->rx) - link->rx_len)
        want = sizeof(link->rx) - link->rx_len;

    ssize_t n = recv_with_fds(link, want);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        drop_client(link); /* a partial frame left behind is discarded */
        return;
    }
    if (n < 0)
        return;
    link->rx_len += (size_t)n;

    size_t pos = 0;
    while (link->client_fd >= 0 && pos + FRAME <= link->rx_len) {
        handle_frame(link, link->rx + pos);
        pos += FRAME;
    }
    if (link->client_fd >= 0) { /* else drop_client already emptied rx */
        link->rx_len -= pos;
        memmove(link->rx, link->rx + pos, link->rx_len);
    }
}

void pcie_link_poll(struct pcie_link *link)
{
    if (--link->poll_countdown != 0)
        return;
    link->poll_countdown = link->poll_interval;

    if (link->client_fd < 0)
        accept_client(link);
    if (link->client_fd < 0)
        return;
    flush_tx(link);
    if (link->client_fd >= 0)
        receive_from_client(link);
}

/* ------------------------------------------------------------ harness side */

static bool is_current_host(const struct pcie_link *link, uint32_t generation)
{
    return link->client_fd >= 0 && generation == link->generation;
}

bool pcie_link_next_request(struct pcie_link *link, struct pcie_link_request *out)
{
    while (link->queue_count > 0) {
        *out = link->queue[link->queue_head];
        link->queue_head = (link->queue_head + 1) % QUEUE_LEN;
        link->queue_count--;
        /* A read has side effects on some registers; nobody would see the
         * answer, so it is not run. Writes are posted and still land. */
        if (out->kind == PCIE_LINK_READ && !is_current_host(link, out->generation)) {
            link->stats.stale_reads_dropped++;
            continue;
        }
        return true;
    }
    return false;
}

void pcie_link_complete_read(struct pcie_link *link, const struct pcie_link_request *req,
                             uint32_t data, int status)
{
    if (req->kind != PCIE_LINK_READ)
        return;
    if (!is_current_host(link, req->generation)) {
        link->stats.completions_dropped++;
        return;
    }
    if (status < 0 || status > 0xFF)
        status = GMMU_SIMLINK_ST_BUS_ERROR;
    /* A failed read carries all ones whatever the RTL drove, as a PCIe
       error completion does (docs/sim-link.md). */
    if (status != GMMU_SIMLINK_ST_OK)
        data = 0xFFFFFFFFu;
    struct gmmu_simlink_frame echo = {
        .bar = (uint8_t)req->bar,
        .size = (uint8_t)req->size,
        .tag = req->tag,
        .addr = req->offset,
    };
    send_completion(link, &echo, data, (uint8_t)status);
}

void pcie_link_raise_irq(struct pcie_link *link, uint32_t vectors)
{
    if (vectors == 0)
        return;
    if (link->client_fd < 0 || !link->hello_done) {
        link->stats.irqs_dropped++;
        return;
    }
    struct gmmu_simlink_frame f = { .type = GMMU_SIMLINK_IRQ, .data = vectors };
    send_frame(link, &f);
    link->stats.irqs_sent++;
}
