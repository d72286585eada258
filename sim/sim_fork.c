// SPDX-License-Identifier: Apache-2.0
/* The SoC simulator's fork server (sim_fork.h). A request goes as one
 * message carrying two descriptors (SCM_RIGHTS): the client's standard
 * output and the write end of a pipe the run's status comes back on. The
 * server answers with the child's pid, or 0 when the request is not its
 * own. */
#include "sim_fork.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

static int unix_addr(const char *path, struct sockaddr_un *a)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a->sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(a->sun_path, path);
    return 0;
}

int sim_fork_listen(const char *path)
{
    struct sockaddr_un a;
    if (unix_addr(path, &a) != 0)
        return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    unlink(path);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 64) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static void file_id(const char *path, uint64_t *dev, uint64_t *ino, uint64_t *mtime_ns)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    *dev = (uint64_t)st.st_dev;
    *ino = (uint64_t)st.st_ino;
    *mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
}

/* Which files the simulator and the image are. */
static void exe_id(struct sim_fork_request *r)
{
    r->elf[sizeof r->elf - 1] = '\0';
    file_id("/proc/self/exe", &r->exe_dev, &r->exe_ino, &r->exe_mtime_ns);
    file_id(r->elf, &r->elf_dev, &r->elf_ino, &r->elf_mtime_ns);
}

static int same_run(const struct sim_fork_request *a, const struct sim_fork_request *b)
{
    return a->exe_ino != 0 && a->exe_dev == b->exe_dev && a->exe_ino == b->exe_ino &&
           a->exe_mtime_ns == b->exe_mtime_ns && a->elf_ino != 0 && a->elf_dev == b->elf_dev &&
           a->elf_ino == b->elf_ino && a->elf_mtime_ns == b->elf_mtime_ns &&
           a->ddr_size_mb == b->ddr_size_mb && a->ddr_latency == b->ddr_latency &&
           a->boot_arg == b->boot_arg && a->bar_read_latency == b->bar_read_latency &&
           a->sysmem_latency == b->sysmem_latency;
}

/* One request and its two descriptors; 0 on success. */
static int recv_request(int fd, struct sim_fork_request *req, int fds[2])
{
    union {
        char buf[CMSG_SPACE(2 * sizeof(int))];
        struct cmsghdr align;
    } u;
    struct iovec iov = { .iov_base = req, .iov_len = sizeof *req };
    struct msghdr m = { 0 };
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = sizeof u.buf;
    ssize_t n;
    do
        n = recvmsg(fd, &m, MSG_WAITALL);
    while (n < 0 && errno == EINTR);
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    if (n != (ssize_t)sizeof *req || !c || c->cmsg_level != SOL_SOCKET ||
        c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(2 * sizeof(int))) {
        if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < k; i++) {
                int x;
                memcpy(&x, CMSG_DATA(c) + i * sizeof(int), sizeof x);
                close(x);
            }
        }
        return -1;
    }
    memcpy(fds, CMSG_DATA(c), 2 * sizeof(int));
    req->elf[sizeof req->elf - 1] = '\0';
    req->socket[sizeof req->socket - 1] = '\0';
    return 0;
}

static void send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;
        c += k;
        n -= (size_t)k;
    }
}

int sim_fork_serve(int lfd, const struct sim_fork_request *self, struct sim_fork_request *req,
                   int *status_fd, volatile sig_atomic_t *stop)
{
    struct sim_fork_request me = *self;
    exe_id(&me);
    /* Children are reaped by the system: their status goes to the client. */
    struct sigaction sa = { 0 };
    sa.sa_handler = SIG_IGN;
    sigaction(SIGCHLD, &sa, NULL);
    while (!*stop) {
        struct pollfd p = { .fd = lfd, .events = POLLIN };
        int r = poll(&p, 1, 200);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r <= 0)
            continue;
        int c = accept(lfd, NULL, NULL);
        if (c < 0)
            continue;
        int fds[2];
        if (recv_request(c, req, fds) != 0) {
            close(c);
            continue;
        }
        int32_t answer = 0;
        if (same_run(&me, req)) {
            fflush(stdout);
            fflush(stderr);
            pid_t pid = fork();
            if (pid == 0) {
                sa.sa_handler = SIG_DFL;
                sigaction(SIGCHLD, &sa, NULL);
                close(lfd);
                close(c);
                dup2(fds[0], STDOUT_FILENO);
                dup2(fds[0], STDERR_FILENO);
                close(fds[0]);
                *status_fd = fds[1];
                return 0;
            }
            answer = pid > 0 ? (int32_t)pid : 0;
        }
        send_all(c, &answer, sizeof answer);
        close(fds[0]);
        close(fds[1]);
        close(c);
    }
    return -1;
}

void sim_fork_report(int status_fd, int status)
{
    int32_t s = status;
    send_all(status_fd, &s, sizeof s);
    close(status_fd);
}

static volatile sig_atomic_t g_pass_on;

static void on_signal(int sig)
{
    g_pass_on = sig;
}

static int read_full(int fd, void *p, size_t n)
{
    char *c = p;
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, c + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        got += (size_t)k;
    }
    return 0;
}

int sim_fork_client(const char *path, const struct sim_fork_request *run)
{
    struct sim_fork_request r = *run, *req = &r;
    exe_id(req);
    struct sockaddr_un a;
    if (unix_addr(path, &a) != 0)
        return -1;
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0)
        return -1;
    if (connect(s, (struct sockaddr *)&a, sizeof a) != 0) {
        close(s);
        return -1;
    }
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        close(s);
        return -1;
    }
    int fds[2] = { STDOUT_FILENO, pipefd[1] };
    union {
        char buf[CMSG_SPACE(2 * sizeof(int))];
        struct cmsghdr align;
    } u;
    memset(&u, 0, sizeof u);
    struct iovec iov = { .iov_base = (void *)req, .iov_len = sizeof *req };
    struct msghdr m = { 0 };
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = sizeof u.buf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(2 * sizeof(int));
    memcpy(CMSG_DATA(c), fds, sizeof fds);
    fflush(stdout);
    ssize_t n;
    do
        n = sendmsg(s, &m, 0);
    while (n < 0 && errno == EINTR);
    close(pipefd[1]);
    /* Signals from here on are the run's: passed on once it has a pid. */
    struct sigaction sa = { 0 };
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int32_t pid = 0;
    if (n != (ssize_t)sizeof *req || read_full(s, &pid, sizeof pid) != 0 || pid <= 0) {
        close(s);
        close(pipefd[0]);
        sa.sa_handler = SIG_DFL;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        if (g_pass_on)
            raise(g_pass_on);
        return -1;
    }
    close(s);
    int32_t status = 1;
    for (;;) {
        if (g_pass_on) {
            kill((pid_t)pid, g_pass_on);
            g_pass_on = 0;
        }
        struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
        int r = poll(&p, 1, 100);
        if (r < 0 && errno != EINTR)
            break;
        if (r <= 0)
            continue;
        if (read_full(pipefd[0], &status, sizeof status) != 0) {
            fprintf(stderr, "sim: the forked simulator (pid %d) ended without a status\n",
                    (int)pid);
            status = 1;
        }
        break;
    }
    close(pipefd[0]);
    return status;
}
