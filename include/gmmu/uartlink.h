/*
 * UART host link: the wire protocol between a host (libgmmu's "uart:"
 * transport) and the device's uart_bar_bridge (rtl/link/uart_bar_bridge.sv), for
 * boards without a PCIe link (the OrangeCrab: ECP5 has no open PCIe PHY).
 * It carries BAR0/BAR1 32-bit reads and writes and the device's MSI.
 *
 * The same constants are in rtl/pkg/gmmu_uartlink_pkg.sv for the RTL; the test
 * tests/boards/check_uartlink_defs.py fails when the two disagree. The frame
 * table and the rules are in docs/boards.md ("UART host link").
 *
 * Line: 8 data bits, no parity, 1 stop bit, LSB first, idle high.
 *
 * Every frame has a fixed size, starts with GMMU_UARTLINK_SOF and ends with
 * a CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no
 * reflection, no final XOR) over every byte after the SOF, sent most
 * significant byte first; running the CRC over those bytes *and* the two CRC
 * bytes therefore gives 0. Multi-byte fields other than the CRC are
 * little-endian.
 *
 *   request (host -> device), GMMU_UARTLINK_REQ_BYTES = 13:
 *     0 SOF  1 type  2 seq  3 bar  4..6 offset (24 bits)  7..10 data  11..12 CRC
 *   response (device -> host), GMMU_UARTLINK_RSP_BYTES = 10:
 *     0 SOF  1 type  2 seq  3 status  4..7 data  8..9 CRC
 *
 * Reliability (stop-and-wait, at-most-once):
 *   - The host sends one request and waits for its answer. Every request is
 *     answered (writes too: WRITE_ACK), so a lost or corrupted frame in
 *     either direction is noticed: by the CRC, by the device's idle timeout
 *     on an incomplete frame (it answers NAK, once the line is quiet), or by
 *     the host's retry timeout. The host then resends the *same* request
 *     with the *same* seq.
 *   - The device remembers the seq, type and answer of the last READ/WRITE
 *     it executed. A request repeating them is answered from that memory and
 *     not executed again, so a resent write never runs twice and a resent
 *     read never re-reads a register with side effects.
 *   - HELLO forgets that memory (a new host may start at any seq) and is
 *     answered with HELLO_ACK carrying the link version and BAR sizes.
 *   - IRQ frames are sent whenever the device raises an MSI and the line is
 *     free; they are not acknowledged. A corrupted IRQ frame is dropped by
 *     the host, whose waits are bounded and re-read the device's status.
 */
#ifndef GMMU_UARTLINK_H
#define GMMU_UARTLINK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a frame layout or the meaning of a field changes. */
#define GMMU_UARTLINK_VERSION 1u

#define GMMU_UARTLINK_SOF 0xA5u
#define GMMU_UARTLINK_REQ_BYTES 13u
#define GMMU_UARTLINK_RSP_BYTES 10u

/* CRC-16/CCITT-FALSE parameters (check value over "123456789": 0x29B1). */
#define GMMU_UARTLINK_CRC_POLY 0x1021u
#define GMMU_UARTLINK_CRC_INIT 0xFFFFu

/* The device drops a frame whose bytes stop arriving for this many byte
 * times (10 bit times each) and answers NAK / NAK_TIMEOUT. */
#define GMMU_UARTLINK_FRAME_TIMEOUT_BYTES 32u

/* The device sends a NAK only once its receiver is hunting for a SOF and
 * the line has been quiet for this many byte times. A NAK sent earlier
 * (a frame that ended inside the host's bytes) would make the host resend
 * while the device is still collecting a frame that began at a 0xA5 inside
 * the request's body; that frame would swallow the resend's first bytes,
 * end inside it again, and so on for as long as the host resends. Bad
 * frames that end before the line goes quiet share one NAK. */
#define GMMU_UARTLINK_NAK_QUIET_BYTES 2u

/* Request types (host -> device). */
enum gmmu_uartlink_req_type {
    GMMU_UARTLINK_HELLO = 0x01, /* forget the last request; answered by HELLO_ACK */
    GMMU_UARTLINK_READ = 0x02,  /* bar, offset; answered by READ_RSP */
    GMMU_UARTLINK_WRITE = 0x03  /* bar, offset, data; answered by WRITE_ACK */
};

/* Response types (device -> host). */
enum gmmu_uartlink_rsp_type {
    GMMU_UARTLINK_HELLO_ACK = 0x81, /* seq echoed; data = GMMU_UARTLINK_HELLO_DATA */
    GMMU_UARTLINK_READ_RSP = 0x82,  /* seq echoed; status; data = the word read */
    GMMU_UARTLINK_WRITE_ACK = 0x83, /* seq echoed; status */
    GMMU_UARTLINK_IRQ = 0x84,       /* seq = IRQ frame count; data = MSI vector bitmask */
    GMMU_UARTLINK_NAK = 0x85        /* seq as received (may be garbage); status = reason */
};

/* Status of READ_RSP / WRITE_ACK / HELLO_ACK. */
enum gmmu_uartlink_status {
    GMMU_UARTLINK_ST_OK = 0x00,
    GMMU_UARTLINK_ST_BAD_BAR = 0x01,    /* BAR number other than 0 or 1 */
    GMMU_UARTLINK_ST_BAD_OFFSET = 0x02, /* beyond the BAR, or not 4-aligned */
    GMMU_UARTLINK_ST_BUS_ERROR = 0x03   /* the AXI4-Lite slave answered SLVERR/DECERR */
};

/* NAK reasons (status of a NAK). The request was not executed. */
enum gmmu_uartlink_nak {
    GMMU_UARTLINK_NAK_CRC = 0x10,      /* CRC mismatch */
    GMMU_UARTLINK_NAK_TIMEOUT = 0x11,  /* frame incomplete: a byte was lost */
    GMMU_UARTLINK_NAK_FRAMING = 0x12,  /* a byte of the frame had a bad stop bit */
    GMMU_UARTLINK_NAK_BAD_TYPE = 0x13  /* good CRC, unknown request type */
};

/* HELLO_ACK data: [7:0] link version, [15:8] log2(BAR0 bytes),
 * [23:16] log2(BAR1 bytes) (0: no BAR1), [31:24] 0. */
#define GMMU_UARTLINK_HELLO_VERSION_SHIFT 0u
#define GMMU_UARTLINK_HELLO_BAR0_LOG2_SHIFT 8u
#define GMMU_UARTLINK_HELLO_BAR1_LOG2_SHIFT 16u

/* Largest BAR offset a frame can carry (24 bits). */
#define GMMU_UARTLINK_OFFSET_BITS 24u

/* ------------------------------------------------------------ helpers */

static inline uint16_t gmmu_uartlink_crc16_byte(uint16_t crc, uint8_t b)
{
    crc ^= (uint16_t)((uint16_t)b << 8);
    for (unsigned i = 0; i < 8; i++)
        crc = (uint16_t)((crc & 0x8000u) ? ((unsigned)crc << 1) ^ GMMU_UARTLINK_CRC_POLY
                                         : (unsigned)crc << 1);
    return crc;
}

static inline uint16_t gmmu_uartlink_crc16(const uint8_t *p, unsigned n)
{
    uint16_t crc = GMMU_UARTLINK_CRC_INIT;
    for (unsigned i = 0; i < n; i++)
        crc = gmmu_uartlink_crc16_byte(crc, p[i]);
    return crc;
}

/* Fills buf[GMMU_UARTLINK_REQ_BYTES] with a request, CRC included. */
static inline void gmmu_uartlink_encode_req(uint8_t *buf, uint8_t type, uint8_t seq, uint8_t bar,
                                            uint32_t offset, uint32_t data)
{
    buf[0] = GMMU_UARTLINK_SOF;
    buf[1] = type;
    buf[2] = seq;
    buf[3] = bar;
    for (unsigned i = 0; i < 3; i++)
        buf[4 + i] = (uint8_t)(offset >> (8u * i));
    for (unsigned i = 0; i < 4; i++)
        buf[7 + i] = (uint8_t)(data >> (8u * i));
    uint16_t crc = gmmu_uartlink_crc16(buf + 1, GMMU_UARTLINK_REQ_BYTES - 3);
    buf[11] = (uint8_t)(crc >> 8);
    buf[12] = (uint8_t)crc;
}

/* One response with its fields in host byte order. */
struct gmmu_uartlink_rsp {
    uint8_t type;
    uint8_t seq;
    uint8_t status;
    uint32_t data;
};

/* Fills buf[GMMU_UARTLINK_RSP_BYTES] with a response, CRC included. */
static inline void gmmu_uartlink_encode_rsp(uint8_t *buf, const struct gmmu_uartlink_rsp *r)
{
    buf[0] = GMMU_UARTLINK_SOF;
    buf[1] = r->type;
    buf[2] = r->seq;
    buf[3] = r->status;
    for (unsigned i = 0; i < 4; i++)
        buf[4 + i] = (uint8_t)(r->data >> (8u * i));
    uint16_t crc = gmmu_uartlink_crc16(buf + 1, GMMU_UARTLINK_RSP_BYTES - 3);
    buf[8] = (uint8_t)(crc >> 8);
    buf[9] = (uint8_t)crc;
}

/* Decodes buf[GMMU_UARTLINK_RSP_BYTES]; returns 0 when the SOF and CRC are
 * right, -1 otherwise (*r untouched). */
static inline int gmmu_uartlink_decode_rsp(const uint8_t *buf, struct gmmu_uartlink_rsp *r)
{
    if (buf[0] != GMMU_UARTLINK_SOF || gmmu_uartlink_crc16(buf + 1, GMMU_UARTLINK_RSP_BYTES - 1) != 0)
        return -1;
    r->type = buf[1];
    r->seq = buf[2];
    r->status = buf[3];
    r->data = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 | (uint32_t)buf[6] << 16 |
              (uint32_t)buf[7] << 24;
    return 0;
}

/* ------------------------------------------------- host-side diagnostics */

/* Counters of a "uart:" transport handle since it was opened. */
struct gmmu_uartlink_stats {
    uint64_t requests;      /* requests completed (answered) */
    uint64_t retries;       /* requests sent again */
    uint64_t naks;          /* NAKs received */
    uint64_t timeouts;      /* attempts that got no answer in time */
    uint64_t crc_errors;    /* response frames dropped for a bad CRC */
    uint64_t stale;         /* good frames answering an earlier request */
    uint64_t irqs;          /* IRQ frames received */
};

struct gmmu_transport;
struct gmmu_transport_ops;

/* The "uart" entry of libgmmu's transport table (transport_uart.c). */
extern const struct gmmu_transport_ops gmmu_transport_uart_ops;

/* Fills *out for a handle opened with "uart:"; returns 0, or
 * GMMU_E_INVALID_ARG for any other handle. Defined in transport_uart.c. */
int gmmu_transport_uart_stats(const struct gmmu_transport *t, struct gmmu_uartlink_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_UARTLINK_H */
