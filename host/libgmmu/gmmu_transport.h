// SPDX-License-Identifier: Apache-2.0
/*
 * libgmmu transports: how the library reaches a device's BARs.
 *
 * A transport moves 32-bit BAR reads and writes and, where it can, the
 * device's interrupts. The library above opens one with a spec string,
 * "scheme:rest":
 *
 *   sim:PATH           a Verilator simulation's socket (sim/pcie_link.c)
 *   pci:DDDD:BB:DD.F   a real PCIe function through sysfs (also BB:DD.F)
 *
 * and then only uses the gmmu_transport_* calls, so adding a transport
 * (say uart:/dev/ttyX) changes no caller: write a struct gmmu_transport_ops
 * and add it to the table in transport.c (one line), or register it at run
 * time with gmmu_transport_register().
 *
 * Every call returns 0 or a negative enum gmmu_host_error. Calls on one
 * handle must not overlap (the library above serialises them); different
 * handles are independent.
 */
#ifndef GMMU_HOST_TRANSPORT_H
#define GMMU_HOST_TRANSPORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum gmmu_host_error {
    GMMU_OK = 0,
    GMMU_E_TIMEOUT = -1,       /* no answer in time */
    GMMU_E_DEVICE_GONE = -2,   /* reads all-ones: surprise removal, dead link */
    GMMU_E_DISCONNECTED = -3,  /* the simulation closed the connection */
    GMMU_E_IO = -4,            /* an unexpected system call failure */
    GMMU_E_BAD_SPEC = -5,      /* malformed transport spec string */
    GMMU_E_NOT_SUPPORTED = -6, /* e.g. wait_irq on a transport without IRQs */
    GMMU_E_NO_MEMORY = -7,
    GMMU_E_LINK_ERROR = -8,   /* the device answered a read with an error */
    GMMU_E_NO_DEVICE = -9,    /* nothing at that socket path or PCI address */
    GMMU_E_PERMISSION = -10,  /* not allowed to open the device */
    GMMU_E_INVALID_ARG = -11, /* bad BAR number, unaligned offset, NULL */
    GMMU_E_PROTOCOL = -12     /* the peer speaks another protocol version */
};

/* Never NULL; "unknown error" for values outside the enum. */
const char *gmmu_host_strerror(int err);

/* BARs a transport can address: 0 = registers, 1 = aperture. */
#define GMMU_TRANSPORT_BARS 2u

/* How long a transport waits for the device by default, and the
 * environment variable that overrides it (e.g. for a traced, slow
 * simulation). */
#define GMMU_TRANSPORT_DEFAULT_TIMEOUT_MS 5000
#define GMMU_TRANSPORT_TIMEOUT_ENV        "GMMU_TIMEOUT_MS"

/* The BAR0 register that identifies the device and can never read as all
 * ones; an all-ones value there means the device has gone. */
#define GMMU_TRANSPORT_ID_OFFSET 0x0u

struct gmmu_transport;

/* ------------------------------------------------------------ using one */

/* Opens the transport named by spec. On success *out is a handle to pass to
 * the calls below and to gmmu_transport_close. */
int gmmu_transport_open(const char *spec, struct gmmu_transport **out);
void gmmu_transport_close(struct gmmu_transport *t); /* NULL is fine */

/* off must be 4-byte aligned. A read the device rejects returns
 * GMMU_E_LINK_ERROR with *val = 0xFFFFFFFF. */
int gmmu_transport_read32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t *val);
/* Posted, like a PCIe memory write: returns once the write is on its way. */
int gmmu_transport_write32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t val);

/* Waits up to timeout_ms (0 = just look, negative = forever) for device
 * interrupts and returns the MSI vectors raised since the last call as a
 * bitmask. Interrupts that arrive while no one waits are kept, not lost.
 * GMMU_E_NOT_SUPPORTED means this transport cannot deliver interrupts and
 * the caller must poll the device's status registers instead. */
int gmmu_transport_wait_irq(struct gmmu_transport *t, int timeout_ms, uint32_t *vectors);

/* Size in bytes of a BAR as the device reported it; 0 if absent. */
uint64_t gmmu_transport_bar_size(const struct gmmu_transport *t, unsigned bar);

/* How long read32/write32 wait for the device (negative = forever). */
void gmmu_transport_set_timeout(struct gmmu_transport *t, int timeout_ms);

/* The scheme the handle was opened with, e.g. "sim". */
const char *gmmu_transport_scheme(const struct gmmu_transport *t);

/* System memory: size bytes (a multiple of 4 KiB) of this process's memory
 * that the device reaches at bus addresses [*bus_addr, *bus_addr + size),
 * mapped here at *host_ptr. GMMU_E_NOT_SUPPORTED where the transport cannot
 * do it (pci: needs a kernel driver for DMA memory; uart:). The memory stays
 * until sysmem_free with that bus address, or close. */
int gmmu_transport_sysmem_alloc(struct gmmu_transport *t, uint64_t size, uint64_t *bus_addr,
                                void **host_ptr);
int gmmu_transport_sysmem_free(struct gmmu_transport *t, uint64_t bus_addr);

/* Test hook, for tests only: arms errors in the simulator's DDR model
 * (sim: transport, protocol version 3; docs/sim-link.md, DDR_FAULT). Bursts
 * touching [lo, hi) fail: kinds GMMU_SIMLINK_FAULT_WRITE (SLVERR, nothing
 * written) and/or _READ (SLVERR, data 0), for the next `count` bursts
 * (1..255) or, with count 0, until removed; kinds 0 removes every window.
 * *read_beats and *write_bursts (either may be NULL) get how many the
 * injected errors have failed since the simulation started. Taken as soon
 * as the simulation receives it, ahead of BAR writes still on their way.
 * GMMU_E_NOT_SUPPORTED: not a sim: transport, or an older simulation;
 * GMMU_E_INVALID_ARG: bad arguments, or the simulation refused (BAD_FAULT). */
int gmmu_transport_sim_test_ddr_fault(struct gmmu_transport *t, unsigned kinds, uint64_t lo,
                                      uint64_t hi, unsigned count, uint64_t *read_beats,
                                      uint64_t *write_bursts);

/* ------------------------------------------------------------ writing one */

struct gmmu_transport_ops {
    const char *scheme; /* the part of the spec before the first ':' */
    /* rest: the spec after "scheme:". Calls gmmu_transport_init() on the
     * handle it allocates. */
    int (*open)(const char *rest, struct gmmu_transport **out);
    int (*read32)(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t *val);
    int (*write32)(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t val);
    /* NULL, or returning GMMU_E_NOT_SUPPORTED: the caller polls. */
    int (*wait_irq)(struct gmmu_transport *t, int timeout_ms, uint32_t *vectors);
    void (*close)(struct gmmu_transport *t); /* frees the handle */
    /* NULL: GMMU_E_NOT_SUPPORTED. Arguments are checked by the wrappers. */
    int (*sysmem_alloc)(struct gmmu_transport *t, uint64_t size, uint64_t *bus_addr,
                        void **host_ptr);
    int (*sysmem_free)(struct gmmu_transport *t, uint64_t bus_addr);
};

/* The common part of every handle. A concrete transport embeds it as its
 * first member and casts between the two. Callers of the API above never
 * look inside. */
struct gmmu_transport {
    const struct gmmu_transport_ops *ops;
    uint64_t bar_size[GMMU_TRANSPORT_BARS]; /* set by the transport's open */
    int timeout_ms;
};

/* Fills the common part: ops, no BARs, the default timeout (or the one in
 * GMMU_TIMEOUT_MS). */
void gmmu_transport_init(struct gmmu_transport *t, const struct gmmu_transport_ops *ops);

/* Adds a transport at run time (call before any open that needs it; not
 * thread-safe). Fails with GMMU_E_INVALID_ARG for incomplete ops or a
 * scheme already known, GMMU_E_NO_MEMORY when the table is full. */
int gmmu_transport_register(const struct gmmu_transport_ops *ops);

/* The built-in transports. */
extern const struct gmmu_transport_ops gmmu_transport_sim_ops;
extern const struct gmmu_transport_ops gmmu_transport_pci_ops;

/* Testing aid: where the pci transport looks for devices instead of
 * /sys/bus/pci/devices (NULL restores it). Lets tests fake a device with
 * ordinary files. */
void gmmu_transport_pci_set_sysfs_root(const char *dir);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_HOST_TRANSPORT_H */
