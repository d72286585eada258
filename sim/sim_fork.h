// SPDX-License-Identifier: Apache-2.0
/*
 * One boot serving many runs: the SoC simulator's fork server.
 *
 * Every host test boots the firmware (DDR self-test, VidMm set-up: about
 * 0.85 M cycles, several CPU seconds) before its host can connect, and for
 * the same image and options that boot is the same to the cycle. A fork
 * server (Vsoc_top --fork-server CTL) boots once, stops at the firmware's
 * "mailbox: ready" line and waits on the control socket CTL; a client
 * (Vsoc_top --fork-from CTL ..., otherwise the usual command line) hands it
 * its standard output and its run's own options, and the server forks a
 * copy of the booted simulator for it. The copy writes the boot's console
 * transcript to the client's output, opens the client's PCIe link socket and
 * runs on from the cycle the server stopped at, exactly as a simulator that
 * had booted by itself and was still waiting for a host would. The client
 * waits for it, passes SIGINT and SIGTERM on, and exits with its status.
 *
 * A server only serves runs of its own binary and image (the same files: a
 * rebuilt one is another) with its own options (DDR size and latency,
 * boot argument, link and system-memory latencies); the link socket and the
 * cycle limit are the run's. A client that finds no server,
 * or one with other options, or one that ended before serving it, runs the
 * simulation itself: the fork server only saves time, it never decides an
 * outcome.
 */
#ifndef GMMU_SIM_FORK_H
#define GMMU_SIM_FORK_H

#include <signal.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a run is: the fields that must match the server's, and its own. */
struct sim_fork_request {
    char elf[512];
    uint32_t ddr_size_mb, ddr_latency, boot_arg, bar_read_latency, sysmem_latency;
    /* The simulator binary (filled in by sim_fork_serve and sim_fork_client):
     * a rebuilt one is another file. */
    uint64_t exe_dev, exe_ino, exe_mtime_ns;
    uint64_t elf_dev, elf_ino, elf_mtime_ns; /* the image likewise */
    /* The run's own: */
    char socket[108];
    uint64_t max_cycles;
};

/* Server: listens on path (a stale socket there is replaced). The fd, or -1
 * with errno set. Clients that connect before the server serves wait. */
int sim_fork_listen(const char *path);

/* Server: serves clients until *stop is set (checked several times a
 * second) or the socket fails; then returns -1. For each client whose
 * request matches self, it forks: in the child it returns 0 with *req the
 * client's request, standard output and error on the client's output and
 * *status_fd the descriptor sim_fork_report writes the run's status to. */
int sim_fork_serve(int lfd, const struct sim_fork_request *self, struct sim_fork_request *req,
                   int *status_fd, volatile sig_atomic_t *stop);

/* Child: the run's exit status to the waiting client. */
void sim_fork_report(int status_fd, int status);

/* Client: asks the server at path to run req on this process's standard
 * output, waits for the run and returns its status (SIGINT and SIGTERM are
 * passed on to it meanwhile). -1 when there is no server to run it (none
 * listening, other options, or it ended first): run it here then. */
int sim_fork_client(const char *path, const struct sim_fork_request *req);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_SIM_FORK_H */
