// SPDX-License-Identifier: Apache-2.0
/*
 * Simulated PCIe link: the wire protocol between a host process (libgmmu's
 * "sim:" transport) and the Verilator simulation (sim/pcie_link.c).
 *
 * Both sides include this file, so the protocol is defined exactly once. The
 * transport is a Unix domain stream socket carrying fixed-size frames of
 * GMMU_SIMLINK_FRAME_BYTES bytes. Every multi-byte field is little-endian on
 * the wire whatever the machine, so the encode/decode helpers below build
 * frames byte by byte rather than copying a struct.
 *
 * docs/sim-link.md has the message table and a sequence example.
 */
#ifndef GMMU_SIMLINK_H
#define GMMU_SIMLINK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a frame layout or the meaning of a field changes, or
 * messages are added. The device serves every host version from
 * GMMU_SIMLINK_VERSION_MIN to its own and answers HELLO with the version
 * both speak; messages of a later version are only sent to, and only
 * accepted from, a host that negotiated it. */
#define GMMU_SIMLINK_VERSION        3u
#define GMMU_SIMLINK_VERSION_MIN    1u
/* The first version with the SYSMEM_* messages. */
#define GMMU_SIMLINK_VERSION_SYSMEM 2u
/* The first version with DDR_FAULT (a test hook). */
#define GMMU_SIMLINK_VERSION_FAULT  3u

/* Frame layout (byte offsets):
 *   0 type   u8   enum gmmu_simlink_type
 *   1 bar    u8   BAR number (0 = registers, 1 = aperture)
 *   2 size   u8   access size in bytes (only 4 today)
 *   3 status u8   enum gmmu_simlink_status (answers only; 0 in requests)
 *   4 tag    u32  matches a READ_COMPLETION to its MEM_READ (a SYSMEM_*_ACK
 *                 to its request); version in HELLO*
 *   8 addr   u64  offset inside the BAR; BAR0 size in HELLO_ACK; bus address
 *                 in SYSMEM_MAP_ACK and SYSMEM_UNMAP
 *  16 data   u64  write/read data in the low 32 bits (high bits zero);
 *                 BAR1 size in HELLO_ACK; vector bitmask in IRQ; buffer
 *                 size in SYSMEM_MAP and SYSMEM_MAP_ACK
 * DDR_FAULT uses them otherwise: see enum gmmu_simlink_type.
 */
#define GMMU_SIMLINK_FRAME_BYTES 24u

/* Number of BARs the protocol can name (0 and 1). */
#define GMMU_SIMLINK_BARS 2u

enum gmmu_simlink_type {
    GMMU_SIMLINK_INVALID = 0x00,         /* never sent: catches all-zero garbage */
    GMMU_SIMLINK_HELLO = 0x01,           /* host -> device, tag = host version */
    GMMU_SIMLINK_HELLO_ACK = 0x02,       /* device -> host, tag = device version */
    GMMU_SIMLINK_MEM_READ = 0x03,        /* host -> device, answered */
    GMMU_SIMLINK_READ_COMPLETION = 0x04, /* device -> host */
    GMMU_SIMLINK_MEM_WRITE = 0x05,       /* host -> device, posted (no answer) */
    GMMU_SIMLINK_IRQ = 0x06,             /* device -> host, data = vector bitmask */
    /* 0x07..0x0F: reserved for more link control messages. */
    GMMU_SIMLINK_RESERVED_LINK_FIRST = 0x07,
    GMMU_SIMLINK_RESERVED_LINK_LAST = 0x0F,
    /* 0x10..0x1F: system memory (version >= GMMU_SIMLINK_VERSION_SYSMEM).
     * SYSMEM_MAP carries a file descriptor (SCM_RIGHTS, sent with the
     * frame's bytes): a memfd sealed against shrinking, data bytes long
     * (GMMU_SIMLINK_SYSMEM_ALIGN multiple), addr 0. The device maps it and
     * serves the SoC's system-memory port from it at the bus address of
     * the ACK until SYSMEM_UNMAP or the host disconnects. */
    GMMU_SIMLINK_SYSMEM_MAP = 0x10,       /* host -> device, answered */
    GMMU_SIMLINK_SYSMEM_MAP_ACK = 0x11,   /* status, addr = bus address, data = size */
    GMMU_SIMLINK_SYSMEM_UNMAP = 0x12,     /* host -> device, addr = bus address, answered */
    GMMU_SIMLINK_SYSMEM_UNMAP_ACK = 0x13, /* status, addr echoed */
    /* 0x14..0x1F: reserved, e.g. for the device's DMA to host memory over
     * the socket on a host that cannot share memory. */
    GMMU_SIMLINK_RESERVED_SYSMEM_FIRST = 0x14,
    GMMU_SIMLINK_RESERVED_SYSMEM_LAST = 0x1F,
    /* 0x20..0x2F: test hooks of the simulation, no PCIe counterpart
     * (version >= GMMU_SIMLINK_VERSION_FAULT).
     * DDR_FAULT arms errors in the simulator's DDR model: size = kinds
     * (GMMU_SIMLINK_FAULT_*; 0 removes every window), bar = count (bursts
     * the window fails, 0 = every one until removed), addr = first byte,
     * data = end (exclusive) of the window, tag. Taken when the frame
     * arrives, ahead of requests still queued. The ACK echoes tag, with
     * status OK or BAD_FAULT, addr = read beats and data = write bursts
     * the injected errors have failed since the simulation started. */
    GMMU_SIMLINK_DDR_FAULT = 0x20,     /* host -> device, answered */
    GMMU_SIMLINK_DDR_FAULT_ACK = 0x21, /* status, addr/data = error counts */
    GMMU_SIMLINK_RESERVED_TEST_FIRST = 0x22,
    GMMU_SIMLINK_RESERVED_TEST_LAST = 0x2F
};

/* DDR_FAULT kinds (the frame's size field), as sim/ddr_model.h's. A write
 * burst touching the window answers SLVERR and writes nothing; a read
 * burst touching it answers SLVERR with data 0 on the beats inside it. */
#define GMMU_SIMLINK_FAULT_READ      0x1u
#define GMMU_SIMLINK_FAULT_WRITE     0x2u
#define GMMU_SIMLINK_FAULT_MAX_COUNT 255u

/* Host bus addresses the device gives out for registered buffers: from 4 GiB
 * up (so system-memory traffic exercises the address bits above 31), each
 * buffer GMMU_SIMLINK_SYSMEM_PLACEMENT aligned, followed by an unmapped gap
 * of the same size (an access just past the end faults), and never reused
 * while the simulation runs (a stale address of a host that left never
 * reaches another host's buffer). */
#define GMMU_SIMLINK_SYSMEM_BUS_BASE    0x100000000ull
#define GMMU_SIMLINK_SYSMEM_PLACEMENT   0x200000ull
#define GMMU_SIMLINK_SYSMEM_ALIGN       0x1000ull     /* size granule */
#define GMMU_SIMLINK_SYSMEM_MAX_BYTES   0x40000000ull /* per buffer */
#define GMMU_SIMLINK_SYSMEM_MAX_BUFFERS 16u           /* per host */

enum gmmu_simlink_status {
    GMMU_SIMLINK_ST_OK = 0,
    GMMU_SIMLINK_ST_BAD_BAR = 1,     /* BAR number not implemented */
    GMMU_SIMLINK_ST_BAD_OFFSET = 2,  /* beyond the BAR, or not size-aligned */
    GMMU_SIMLINK_ST_BAD_SIZE = 3,    /* access size other than 4 */
    GMMU_SIMLINK_ST_BUS_ERROR = 4,   /* the device's bus answered an error */
    GMMU_SIMLINK_ST_BAD_VERSION = 5, /* HELLO_ACK: versions incompatible */
    GMMU_SIMLINK_ST_BAD_BUFFER = 6,  /* SYSMEM_MAP: no fd, not a shrink-sealed
                                        memfd of that size, bad size or addr */
    GMMU_SIMLINK_ST_NO_SPACE = 7,    /* SYSMEM_MAP: buffer table or bus
                                        addresses exhausted, mmap failed */
    GMMU_SIMLINK_ST_NOT_MAPPED = 8,  /* SYSMEM_UNMAP: no buffer of this host
                                        starts at that bus address */
    GMMU_SIMLINK_ST_BAD_FAULT = 9    /* DDR_FAULT: empty window, unknown kind,
                                        every window in use, or no DDR model
                                        to arm */
};

/* One frame with its fields in host byte order. */
struct gmmu_simlink_frame {
    uint8_t type;
    uint8_t bar;
    uint8_t size;
    uint8_t status;
    uint32_t tag;
    uint64_t addr;
    uint64_t data;
};

static inline void gmmu_simlink_put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8u * i));
}

static inline uint64_t gmmu_simlink_get_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8u * i);
    return v;
}

static inline void gmmu_simlink_encode(const struct gmmu_simlink_frame *f,
                                       uint8_t out[GMMU_SIMLINK_FRAME_BYTES])
{
    out[0] = f->type;
    out[1] = f->bar;
    out[2] = f->size;
    out[3] = f->status;
    gmmu_simlink_put_le(out + 4, f->tag, 4);
    gmmu_simlink_put_le(out + 8, f->addr, 8);
    gmmu_simlink_put_le(out + 16, f->data, 8);
}

static inline void gmmu_simlink_decode(const uint8_t in[GMMU_SIMLINK_FRAME_BYTES],
                                       struct gmmu_simlink_frame *f)
{
    f->type = in[0];
    f->bar = in[1];
    f->size = in[2];
    f->status = in[3];
    f->tag = (uint32_t)gmmu_simlink_get_le(in + 4, 4);
    f->addr = gmmu_simlink_get_le(in + 8, 8);
    f->data = gmmu_simlink_get_le(in + 16, 8);
}

#ifdef __cplusplus
}
#endif

#endif /* GMMU_SIMLINK_H */
