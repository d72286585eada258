// SPDX-License-Identifier: Apache-2.0
/*
 * The simulated serial line between a host program and the RTL's UART pins.
 *
 * The host side is a pseudo-terminal: the line owns the master, and a host
 * opens the slave (/dev/pts/N, or a symlink to it) exactly like a USB-serial
 * adapter, with libgmmu's "uart:" transport. The device side is bit level:
 * every simulated cycle the harness calls
 *     rx_pin = uart_line_drive(line);          before evaluating the RTL
 *     uart_line_sample(line, tx_pin);          after it
 * and the line serialises the host's bytes onto rx_pin and deserialises the
 * RTL's tx_pin, clk_div cycles per bit, 8N1.
 *
 * Fault injection: each byte, in either direction, is damaged with
 * probability error_rate: a flipped data bit, a broken stop bit (host to
 * device only: the RTL must see a framing error) or a dropped byte, chosen
 * at random with a seeded generator, so a run can be repeated.
 *
 * The line keeps a slave descriptor open itself, so the pty never hangs up
 * between hosts and its raw mode stays set. Not thread-safe.
 *
 * Simulated time: the line counts the cycles it is clocked (one
 * uart_line_sample per cycle) and, with a clock_path, publishes the count
 * with its cycles per bit in a shared file. A host that reads it
 * ("uart:PATH,simclock=FILE") measures its retry and timeout waits in the
 * line's bit times instead of the machine's clock.
 */
#ifndef GMMU_SIM_UART_LINE_H
#define GMMU_SIM_UART_LINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uart_line_config {
    unsigned clk_div;       /* cycles per bit, >= 4 */
    double error_rate;      /* probability that a byte is damaged, 0..1 */
    uint64_t seed;          /* for the fault generator */
    unsigned poll_interval; /* cycles between looks at the pty (0: 16) */
    /* If not NULL: the simulated clock file (gmmu/uartlink.h,
     * GMMU_UARTLINK_SIMCLOCK_*) created here and kept current at every look
     * at the pty, so a host's link timers can run on simulated time. */
    const char *clock_path;
};

struct uart_line_stats {
    uint64_t host_to_dev_bytes;  /* taken from the pty */
    uint64_t dev_to_host_bytes;  /* decoded from tx_pin */
    uint64_t flipped;            /* bytes with one data bit flipped */
    uint64_t broken_stop;        /* host bytes sent with a 0 stop bit */
    uint64_t dropped;            /* bytes that never arrived */
    uint64_t dev_framing_errors; /* tx_pin bytes with a bad stop bit (an RTL bug) */
    uint64_t pty_overflow;       /* device bytes the pty could not take */
};

struct uart_line;

/* Opens a pty; NULL with errno set on failure. If link_path is not NULL a
 * symlink to the slave is created there (an old symlink is replaced). */
struct uart_line *uart_line_open(const struct uart_line_config *cfg, const char *link_path);
/* Removes the symlink, closes the pty. NULL is accepted. */
void uart_line_close(struct uart_line *l);

/* The slave's name, e.g. "/dev/pts/3". */
const char *uart_line_slave_name(const struct uart_line *l);

/* Level of the RTL's serial input this cycle. */
int uart_line_drive(struct uart_line *l);
/* The RTL's serial output this cycle; also moves bytes to and from the pty. */
void uart_line_sample(struct uart_line *l, int tx_pin);

void uart_line_get_stats(const struct uart_line *l, struct uart_line_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_SIM_UART_LINE_H */
