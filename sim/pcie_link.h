// SPDX-License-Identifier: Apache-2.0
/*
 * The simulated PCIe link, device side.
 *
 * The Verilator harness owns one pcie_link. It calls pcie_link_poll() once
 * per simulated cycle; the link never blocks, so the simulation keeps its
 * pace whatever the host does. Host BAR accesses come out as requests
 * (pcie_link_next_request); the harness runs each one on the RTL (BAR0 on
 * the AXI4-Lite slave, BAR1 on the aperture) and answers reads with
 * pcie_link_complete_read. pcie_link_raise_irq forwards the device's MSI.
 *
 * One host is connected at a time. Hosts may come and go while the
 * simulation runs: each connection gets a new generation number, and work
 * belonging to a host that has left is dropped quietly (its pending reads
 * are never handed out, its late completions are not sent), so the device
 * stays healthy when a host vanishes mid-command. Posted writes a host sent
 * before leaving are still delivered, as on a real bus.
 *
 * Garbage from a host (unknown type, bad size, bad BAR, offset beyond the
 * BAR) never reaches the harness: bad reads are answered with an error
 * status at once, bad writes and unknown messages are dropped, and all of
 * them are counted in pcie_link_stats.bad_frames.
 *
 * A host may register buffers of its memory as system memory (SYSMEM_MAP
 * with a sealed memfd); pcie_link_sysmem() finds them for the harness's
 * system-memory port. They go when the host unmaps them or leaves.
 *
 * Interrupts raised while no host has completed the handshake are dropped
 * (and counted): a host must read the device's status after connecting
 * rather than rely on an interrupt it could not have received.
 *
 * Not thread-safe: call every function from the simulation thread.
 * The wire protocol is in include/gmmu/simlink.h and docs/sim-link.md.
 */
#ifndef GMMU_SIM_PCIE_LINK_H
#define GMMU_SIM_PCIE_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "gmmu/simlink.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pcie_link;

enum pcie_link_kind { PCIE_LINK_READ, PCIE_LINK_WRITE };

/* One host BAR access, already checked against the BAR sizes. */
struct pcie_link_request {
    enum pcie_link_kind kind;
    unsigned bar;        /* 0 or 1 */
    uint64_t offset;     /* byte offset inside the BAR, size-aligned */
    unsigned size;       /* bytes; always 4 today */
    uint32_t data;       /* write data (0 for reads) */
    uint32_t tag;        /* host's tag, echoed in the completion */
    uint32_t generation; /* which connection sent it (1 = first host) */
};

struct pcie_link_stats {
    uint64_t requests; /* good requests queued for the harness */
    uint64_t reads;
    uint64_t writes;
    uint64_t bad_frames; /* unknown type, bad BAR/size/offset */
    uint64_t connects;
    uint64_t disconnects; /* includes hosts dropped for misbehaving */
    uint64_t irqs_sent;
    uint64_t irqs_dropped;        /* raised while no host was ready */
    uint64_t stale_reads_dropped; /* reads of a host that left, not run */
    uint64_t completions_dropped; /* answers for a host that left */
    uint64_t sysmem_maps;         /* buffers registered (SYSMEM_MAP OK) */
    uint64_t sysmem_unmaps;       /* by SYSMEM_UNMAP; a leaving host's are not counted */
    uint64_t sysmem_rejected;     /* SYSMEM_MAP refused */
    uint64_t faults_armed;        /* DDR_FAULT frames the handler took (OK) */
};

/* Listens on socket_path (a stale socket file there is removed first; any
 * other kind of file is left alone and makes this fail with EEXIST). A BAR
 * size of 0 means the BAR is not implemented. Prints nothing: returns NULL
 * with errno set on failure. */
struct pcie_link *pcie_link_open(const char *socket_path, uint64_t bar0_size, uint64_t bar1_size);

/* Disconnects the host, removes the socket file and frees the link.
 * NULL is accepted. */
void pcie_link_close(struct pcie_link *link);

/* Non-blocking: accepts a host if none is connected, receives what the host
 * sent, sends what is waiting to go out, notices a disconnect. To keep the
 * cost per simulated cycle low, only every Nth call touches the socket
 * (N = the poll interval, default 8; see pcie_link_set_poll_interval). */
void pcie_link_poll(struct pcie_link *link);

/* 1 makes every pcie_link_poll call look at the socket (lowest latency);
 * larger values trade host latency for simulation speed. 0 is taken as 1. */
void pcie_link_set_poll_interval(struct pcie_link *link, unsigned calls);

/* Pops the oldest request into *out; false when there is none. */
bool pcie_link_next_request(struct pcie_link *link, struct pcie_link_request *out);

/* Answers a read popped from pcie_link_next_request. status is
 * GMMU_SIMLINK_ST_OK, or GMMU_SIMLINK_ST_BUS_ERROR when the RTL answered
 * with an AXI error. Dropped silently if that host has gone. */
void pcie_link_complete_read(struct pcie_link *link, const struct pcie_link_request *req,
                             uint32_t data, int status);

/* Sends an IRQ message with the given MSI vector bitmask to the connected
 * host; dropped (and counted) when no host has completed the handshake. */
void pcie_link_raise_irq(struct pcie_link *link, uint32_t vectors);

/* True while a host is connected (it may not have sent HELLO yet). */
bool pcie_link_connected(const struct pcie_link *link);

/* Generation of the current (or last) host; 0 before the first one. */
uint32_t pcie_link_generation(const struct pcie_link *link);

void pcie_link_get_stats(const struct pcie_link *link, struct pcie_link_stats *out);

/* System memory: where the device's access to [bus_addr, bus_addr + len)
 * lands in this process, when the whole range lies in one buffer the
 * connected host registered (SYSMEM_MAP); NULL otherwise, including after
 * that host left. The pointer is good until the next pcie_link_poll. */
void *pcie_link_sysmem(struct pcie_link *link, uint64_t bus_addr, uint64_t len);

/* Test hook (DDR_FAULT, protocol version 3): the harness's way to arm
 * errors in its DDR model when a host asks. Called from pcie_link_poll as
 * the frame arrives: kinds (GMMU_SIMLINK_FAULT_*, 0 = remove every window),
 * [lo, hi), count (0 = until removed). Returns a GMMU_SIMLINK_ST_* status
 * and the model's counts of read beats and write bursts failed so far.
 * Without a handler the link answers BAD_FAULT. */
typedef uint8_t (*pcie_link_fault_fn)(void *ctx, unsigned kinds, uint64_t lo, uint64_t hi,
                                      unsigned count, uint64_t *read_beats, uint64_t *write_bursts);
void pcie_link_set_fault_handler(struct pcie_link *link, pcie_link_fault_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_SIM_PCIE_LINK_H */
