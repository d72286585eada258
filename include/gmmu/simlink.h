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

/* Bumped whenever a frame layout or the meaning of a field changes. */
#define GMMU_SIMLINK_VERSION 1u

/* Frame layout (byte offsets):
 *   0 type   u8   enum gmmu_simlink_type
 *   1 bar    u8   BAR number (0 = registers, 1 = aperture)
 *   2 size   u8   access size in bytes (only 4 today)
 *   3 status u8   enum gmmu_simlink_status (answers only; 0 in requests)
 *   4 tag    u32  matches a READ_COMPLETION to its MEM_READ; version in HELLO*
 *   8 addr   u64  offset inside the BAR; BAR0 size in HELLO_ACK
 *  16 data   u64  write/read data in the low 32 bits (high bits zero);
 *                 BAR1 size in HELLO_ACK; vector bitmask in IRQ
 */
#define GMMU_SIMLINK_FRAME_BYTES 24u

/* Number of BARs the protocol can name (0 and 1). */
#define GMMU_SIMLINK_BARS 2u

enum gmmu_simlink_type {
    GMMU_SIMLINK_INVALID = 0x00,   /* never sent: catches all-zero garbage */
    GMMU_SIMLINK_HELLO = 0x01,     /* host -> device, tag = host version */
    GMMU_SIMLINK_HELLO_ACK = 0x02, /* device -> host, tag = device version */
    GMMU_SIMLINK_MEM_READ = 0x03,  /* host -> device, answered */
    GMMU_SIMLINK_READ_COMPLETION = 0x04, /* device -> host */
    GMMU_SIMLINK_MEM_WRITE = 0x05, /* host -> device, posted (no answer) */
    GMMU_SIMLINK_IRQ = 0x06,       /* device -> host, data = vector bitmask */
    /* 0x07..0x0F: reserved for more link control messages. */
    GMMU_SIMLINK_RESERVED_LINK_FIRST = 0x07,
    GMMU_SIMLINK_RESERVED_LINK_LAST = 0x0F,
    /* 0x10..0x1F: reserved for system memory: the host registering a
     * buffer as system memory, and the device's DMA reads and writes of it. */
    GMMU_SIMLINK_RESERVED_SYSMEM_FIRST = 0x10,
    GMMU_SIMLINK_RESERVED_SYSMEM_LAST = 0x1F
};

enum gmmu_simlink_status {
    GMMU_SIMLINK_ST_OK = 0,
    GMMU_SIMLINK_ST_BAD_BAR = 1,     /* BAR number not implemented */
    GMMU_SIMLINK_ST_BAD_OFFSET = 2,  /* beyond the BAR, or not size-aligned */
    GMMU_SIMLINK_ST_BAD_SIZE = 3,    /* access size other than 4 */
    GMMU_SIMLINK_ST_BUS_ERROR = 4,   /* the device's bus answered an error */
    GMMU_SIMLINK_ST_BAD_VERSION = 5  /* HELLO_ACK: versions incompatible */
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
