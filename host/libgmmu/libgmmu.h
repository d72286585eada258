// SPDX-License-Identifier: Apache-2.0
/*
 * libgmmu: the host library of the GPU MMU soft core.
 *
 * One API over swappable transports (gmmu_transport.h): "sim:PATH" (the
 * Verilator simulation's socket), "pci:DDDD:BB:DD.F" (BAR0 through sysfs),
 * and whatever registers itself later (a UART bridge). It speaks the mailbox
 * protocol of include/gmmu/mailbox.h: commands into the command ring,
 * doorbell, completions out of the completion ring.
 *
 * Return values: 0 is success; a positive value is a device status
 * (GMMU_STATUS_*, the command ran and failed); a negative value is a host
 * error (enum gmmu_host_error). gmmu_strerror() names all of them.
 *
 * Thread safety: every call on one device handle may come from any thread;
 * the handle serialises transport access, and a thread waiting for its
 * completion does not block other threads' submissions.
 */
#ifndef GMMU_LIBGMMU_H
#define GMMU_LIBGMMU_H

#include <stddef.h>
#include <stdint.h>

#include <gmmu/mailbox.h>
#include <gmmu/mmu_regs.h>

#include "gmmu_transport.h"
#include "gmmu_version.h"

/* gmmu_call waits at most this many timeouts for a command the device
   shows running (10 minutes at the default 5 s). */
#define GMMU_LONG_COMMAND_TIMEOUTS 120

#ifdef __cplusplus
extern "C" {
#endif

struct gmmu_dev;

/* How a wait learns of completions: the transport's interrupt (MSI) where
   it has one, else polling; or polling always. */
enum gmmu_wait_mode { GMMU_WAIT_AUTO, GMMU_WAIT_POLL };

struct gmmu_ident {
    uint32_t magic, proto_version, fw_version, fw_build, caps_flags, geometry, rings;
    uint32_t fw_state, heartbeat, next_seq, cpl_fence, host_write_errors;
};

struct gmmu_completion {
    uint16_t opcode;
    uint32_t seq, status, fence, payload_len;
    uint8_t payload[GMMU_MSG_MAX_BYTES - GMMU_MSG_HDR_BYTES];
};

/* Connects, checks identity and protocol, waits for the firmware to leave
   BOOTING, and takes over the rings from any previous host (commands it
   left are allowed to finish; their completions are discarded). */
int gmmu_open(const char *spec, struct gmmu_dev **out);
void gmmu_close(struct gmmu_dev *dev);

void gmmu_set_timeout(struct gmmu_dev *dev, int timeout_ms); /* default 5000 */
void gmmu_set_wait_mode(struct gmmu_dev *dev, enum gmmu_wait_mode mode);
int gmmu_read_ident(struct gmmu_dev *dev, struct gmmu_ident *out);

/* Asynchronous: queue a command and learn its sequence number; collect it
   with gmmu_wait. While the ring is full it drains completions and waits;
   GMMU_E_TIMEOUT once the firmware has made no progress (command tail or
   completions) for the handle's timeout, with nothing published. */
int gmmu_submit(struct gmmu_dev *dev, uint16_t opcode, const void *payload, size_t len,
                uint32_t *seq);
/* For tests of the device's input checking: the bytes go into the ring as
   they are, taking `slots` slots; *seq is the sequence the library would
   have used (so a matching header can be built). */
int gmmu_submit_raw(struct gmmu_dev *dev, const void *msg, size_t len, uint32_t slots);
uint32_t gmmu_peek_seq(struct gmmu_dev *dev);
/* Tell the library a raw message consumed a sequence number. */
void gmmu_skip_seq(struct gmmu_dev *dev);
int gmmu_wait(struct gmmu_dev *dev, uint32_t seq, struct gmmu_completion *out, int timeout_ms);

/* Where command seq stands on the device, from its registers. */
enum gmmu_cmd_state {
    GMMU_CMD_PENDING, /* not taken yet, or running for less than a heartbeat tick */
    GMMU_CMD_RUNNING, /* running for a heartbeat tick or more (FW_STATE.RUNNING) */
    GMMU_CMD_DONE     /* completed (CPL_FENCE has reached it) */
};
int gmmu_command_state(struct gmmu_dev *dev, uint32_t seq, enum gmmu_cmd_state *out);
/* Next completion in ring order, whatever its sequence: 1 if one was
   returned, 0 if none is there, or a host error. */
int gmmu_reap(struct gmmu_dev *dev, struct gmmu_completion *out);

/* Synchronous: submit and wait. resp may be NULL when resp_cap is 0. The
   handle's timeout runs from the device's last sign of work: while the
   firmware shows a command running (FW_STATE.RUNNING) and its heartbeat
   moves, the wait goes on, up to GMMU_LONG_COMMAND_TIMEOUTS timeouts in
   all; a device that stops shows nothing and times out as before. */
int gmmu_call(struct gmmu_dev *dev, uint16_t opcode, const void *req, size_t req_len, void *resp,
              size_t resp_cap, size_t *resp_len);
int gmmu_ping(struct gmmu_dev *dev, const void *data, size_t len);
int gmmu_get_info(struct gmmu_dev *dev, struct gmmu_info *out);
int gmmu_get_caps(struct gmmu_dev *dev, struct gmmu_caps *out);
int gmmu_get_stats(struct gmmu_dev *dev, struct gmmu_stats *out);
/* GET_PT_STATS: the firmware's page-table work since boot (for benchmarks). */
int gmmu_get_pt_stats(struct gmmu_dev *dev, struct gmmu_pt_stats *out);

/* VRAM through the BAR1 aperture (the window moves as needed; callers on
   other threads see the window move, the library serialises access). Offsets
   and lengths are multiples of 4 bytes. */
int gmmu_vram_read(struct gmmu_dev *dev, uint64_t vram_offset, void *buf, size_t len);
int gmmu_vram_write(struct gmmu_dev *dev, uint64_t vram_offset, const void *buf, size_t len);

/* System memory (segment 0): size bytes (a multiple of 4 KiB) of this
   process's memory that the device reaches at host bus addresses
   [*bus_addr, *bus_addr + size), mapped here at *host_ptr. *bus_addr is what
   ALLOC with GMMU_ALLOC_FLAG_SYSTEM takes as sys_addr. GMMU_E_NOT_SUPPORTED
   where the transport has no way to share memory with the device (pci:
   without a kernel driver, uart:). The memory lives until gmmu_sysmem_free
   or gmmu_close; after that the device's accesses to it fail (an engine
   reports a BUS_ERROR fault). */
int gmmu_sysmem_alloc(struct gmmu_dev *dev, size_t size, uint64_t *bus_addr, void **host_ptr);
int gmmu_sysmem_free(struct gmmu_dev *dev, uint64_t bus_addr);
/* `count` 4 KiB pages of system memory as a device sees a process's pages:
   scattered. One gmmu_sysmem_alloc buffer of count pages is cut at
   runs - 1 random page boundaries (runs: 1 .. count, clamped) and the
   pieces are handed out in a random order from `seed`, so the list has at
   most `runs` runs of consecutive pages (two pieces that land in their
   old order make one). bus_addrs[i] is page i's bus address (for
   ALLOC_PAGES), host_ptrs[i] (host_ptrs may be NULL) where it is mapped
   here. Freed with gmmu_sysmem_free_pages. */
int gmmu_sysmem_alloc_pages(struct gmmu_dev *dev, size_t count, size_t runs, uint64_t seed,
                            uint64_t *bus_addrs, void **host_ptrs);
/* Frees the buffer behind a gmmu_sysmem_alloc_pages list. */
int gmmu_sysmem_free_pages(struct gmmu_dev *dev, const uint64_t *bus_addrs, size_t count);

/* Test hook, for tests only: errors in the simulator's DDR model, as
   gmmu_transport_sim_test_ddr_fault (gmmu_transport.h) on the handle's
   transport. GMMU_E_NOT_SUPPORTED on any device but a simulation. */
int gmmu_sim_test_ddr_fault(struct gmmu_dev *dev, unsigned kinds, uint64_t lo, uint64_t hi,
                            unsigned count, uint64_t *read_beats, uint64_t *write_bursts);

/* Raw BAR0 access, for tools and tests. */
int gmmu_bar_read(struct gmmu_dev *dev, uint32_t offset, uint32_t *value);
int gmmu_bar_write(struct gmmu_dev *dev, uint32_t offset, uint32_t value);

/* A sentence for any return value: the device status's description (from
   include/defs/mailbox.toml) or the host error's. Never NULL. */
const char *gmmu_strerror(int rc);
/* The name of any return value: "OK", a device status ("BAD_HANDLE") or a
   host error ("E_TIMEOUT"); "UNKNOWN" for values outside both. Never NULL. */
const char *gmmu_error_name(int rc);

/* The version of the library as built (GMMU_VERSION of the gmmu_version.h it
   was compiled with), which may differ from the header a caller was
   compiled with when the shared library was replaced. */
const char *gmmu_version(void);

/* ---------------------------------------------------------------- events
 * The device posts events (MMU faults: EVT_FAULT) on the event ring; a full
 * ring drops them (EVT_DROPPED counts them) and the device never waits.
 * Events stay in the ring across opens, so a tool started later still sees
 * them. One reader per device: two handles would take each other's. Each
 * event is returned once, to whichever caller (or the callback thread) of
 * this handle takes it first. */
struct gmmu_event {
    uint16_t type;  /* GMMU_EVT_* */
    uint32_t seq;   /* event number; dropped events take one too */
    uint32_t fence; /* CPL_FENCE when the event was posted */
    uint32_t lost;  /* events dropped since the previous one this handle read */
    uint32_t payload_len;
    union {
        struct gmmu_fault_evt fault; /* type GMMU_EVT_FAULT */
        struct gmmu_fence_evt fence; /* type GMMU_EVT_FENCE */
        uint8_t raw[GMMU_MSG_MAX_BYTES - GMMU_MSG_HDR_BYTES];
    } u;
};

/* Non-blocking: 1 with *out filled, 0 if the ring is empty, or a host
   error. A malformed event is skipped and reported as GMMU_E_PROTOCOL. */
int gmmu_next_event(struct gmmu_dev *dev, struct gmmu_event *out);
/* Waits up to timeout_ms (negative: the handle's timeout; 0: just look)
   for an event: 0 with *out filled, GMMU_E_TIMEOUT, or a host error.
   Polls the ring at most every GMMU_EVENT_POLL_MS without holding the
   handle, so other threads' commands go on meanwhile. */
#define GMMU_EVENT_POLL_MS 5
int gmmu_wait_event(struct gmmu_dev *dev, int timeout_ms, struct gmmu_event *out);

/* Runs fn for every event on a thread the library owns, until replaced,
   removed (fn NULL) or gmmu_close. fn runs without the handle's lock and
   may call any libgmmu function on the handle, gmmu_close included (the
   thread then finishes the close once fn returns); only
   gmmu_set_event_callback is refused there (GMMU_E_INVALID_ARG), since the
   thread cannot wait for itself. A host error while waiting is passed as
   ev NULL with rc, then retried. */
typedef void (*gmmu_event_fn)(struct gmmu_dev *dev, const struct gmmu_event *ev, int rc, void *arg);
int gmmu_set_event_callback(struct gmmu_dev *dev, gmmu_event_fn fn, void *arg);

/* ---------------------------------------------------------- MMU counters */
/* Most ports a counter reply can carry: MMU CONFIG.PORTS is this wide. */
#define GMMU_MMU_PORTS_MAX (GMMU_MMU_CONFIG_PORTS >> GMMU_MMU_CONFIG_PORTS_LSB)

struct gmmu_mmu_perf {
    struct gmmu_mmu_counters c; /* shared counters; c.ports entries of port[] */
    struct gmmu_mmu_port_counters port[GMMU_MMU_PORTS_MAX];
};

/* GET_MMU_COUNTERS; flags: GMMU_MMU_COUNTERS_FLAG_CLEAR clears them after
   reading. A reply whose length does not match its port count is
   GMMU_E_PROTOCOL. */
int gmmu_get_mmu_counters(struct gmmu_dev *dev, uint32_t flags, struct gmmu_mmu_perf *out);
/* after - before, counter by counter, modulo 2^32 (the counters wrap;
   fault_overflow saturates, so its difference holds until it does); ports
   is after's. */
void gmmu_mmu_perf_delta(const struct gmmu_mmu_perf *before, const struct gmmu_mmu_perf *after,
                         struct gmmu_mmu_perf *delta);

#ifdef __cplusplus
}
#endif

/* The VidMm commands: allocations, address spaces, map/unmap/reserve/update. */
#include "libgmmu_vidmm.h"

#endif /* GMMU_LIBGMMU_H */
