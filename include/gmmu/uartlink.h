// SPDX-License-Identifier: Apache-2.0
/*
 * UART host link: the wire protocol between a host (libgmmu's "uart:"
 * transport) and the device's uart_bar_bridge (rtl/link/uart_bar_bridge.sv), for
 * boards without a PCIe link (the OrangeCrab: ECP5 has no open PCIe PHY).
 * It carries BAR0/BAR1 32-bit reads and writes and the device's MSI.
 *
 * The constants (frame sizes, CRC parameters, type, status and NAK codes)
 * are defined in include/defs/uartlink.toml; tools/gendefs.py writes them to
 * gmmu/uartlink_defs.h (included here) and, for the RTL, to
 * rtl/pkg/gmmu_uartlink_pkg.sv. The frame table and the rules are in
 * docs/uart-link.md.
 *
 * Line: 8 data bits, no parity, 1 stop bit, LSB first, idle high.
 *
 * Every frame has a fixed size, starts with GMMU_UARTLINK_SOF and ends with
 * a CRC-16/CCITT-FALSE (GMMU_UARTLINK_CRC_POLY and _INIT, no reflection, no
 * final XOR) over every byte after the SOF, sent most significant byte
 * first; running the CRC over those bytes *and* the two CRC bytes therefore
 * gives 0. Multi-byte fields other than the CRC are little-endian.
 *
 *   request (host -> device), GMMU_UARTLINK_REQ_BYTES:
 *     0 SOF  1 type  2 seq  3 bar  4..6 offset (24 bits)  7..10 data  11..12 CRC
 *   response (device -> host), GMMU_UARTLINK_RSP_BYTES:
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

#include "gmmu/uartlink_defs.h"

#ifdef __cplusplus
extern "C" {
#endif

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
