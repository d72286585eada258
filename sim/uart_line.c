// SPDX-License-Identifier: Apache-2.0
/*
 * The simulated serial line: a pty on the host side, 8N1 bit timing on the
 * RTL side, and seeded fault injection in between. See uart_line.h.
 */
#define _GNU_SOURCE /* posix_openpt, ptsname_r, cfmakeraw */

#include "uart_line.h"

#include "gmmu/uartlink.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#define QUEUE_BYTES    65536u /* power of two */
#define SLAVE_NAME_MAX 64

struct byte_queue {
    uint8_t buf[QUEUE_BYTES];
    uint32_t head, tail; /* free-running */
};

static bool q_empty(const struct byte_queue *q)
{
    return q->head == q->tail;
}
static uint32_t q_len(const struct byte_queue *q)
{
    return q->tail - q->head;
}
static bool q_push(struct byte_queue *q, uint8_t b)
{
    if (q_len(q) == QUEUE_BYTES)
        return false;
    q->buf[q->tail++ % QUEUE_BYTES] = b;
    return true;
}
static uint8_t q_pop(struct byte_queue *q)
{
    return q->buf[q->head++ % QUEUE_BYTES];
}

struct uart_line {
    struct uart_line_config cfg;
    int master;
    int slave; /* held open so the pty never hangs up between hosts */
    char slave_name[SLAVE_NAME_MAX];
    char *link_path;
    uint64_t rng;
    unsigned poll_count;
    uint64_t cycles;    /* uart_line_sample calls: the simulated cycles */
    uint8_t *clock_map; /* the shared clock file, or NULL */
    char *clock_path;

    /* host -> device: bytes from the pty, then the bit serialiser */
    struct byte_queue to_dev;
    bool ser_busy;
    uint16_t ser_bits;  /* 10 bits, LSB first: start, data, stop */
    unsigned ser_bit;   /* 0..9 */
    unsigned ser_cycle; /* 0..clk_div-1 within the bit */

    /* device -> host: the deserialiser, then bytes for the pty */
    struct byte_queue to_host;
    bool des_busy;
    unsigned des_cycle; /* cycles since the start edge */
    uint16_t des_bits;

    struct uart_line_stats st;
};

/* ------------------------------------------------------------ faults */

static uint64_t next_random(struct uart_line *l)
{
    /* splitmix64: good enough and fully determined by the seed */
    uint64_t z = (l->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static bool hit(struct uart_line *l)
{
    if (l->cfg.error_rate <= 0.0)
        return false;
    double u = (double)(next_random(l) >> 11) * (1.0 / 9007199254740992.0);
    return u < l->cfg.error_rate;
}

/* ------------------------------------------------------------ open/close */

static int set_raw(int fd)
{
    struct termios t;
    if (tcgetattr(fd, &t) != 0)
        return -1;
    cfmakeraw(&t);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    return tcsetattr(fd, TCSANOW, &t);
}

static uint64_t *clock_cycles(struct uart_line *l)
{
    return (uint64_t *)(void *)(l->clock_map + GMMU_UARTLINK_SIMCLOCK_CYCLES_OFFSET);
}

/* Written in full before the magic, so a host never takes a half-made file
 * for a clock. */
static int open_clock(struct uart_line *l, const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    void *map = MAP_FAILED;
    if (ftruncate(fd, GMMU_UARTLINK_SIMCLOCK_BYTES) == 0)
        map = mmap(NULL, GMMU_UARTLINK_SIMCLOCK_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int err = errno;
    close(fd);
    if (map == MAP_FAILED) {
        unlink(path);
        errno = err;
        return -1;
    }
    l->clock_map = map;
    l->clock_path = strdup(path);
    uint32_t cycles_per_bit = l->cfg.clk_div;
    memcpy(l->clock_map + GMMU_UARTLINK_SIMCLOCK_CYCLES_PER_BIT_OFFSET, &cycles_per_bit, 4);
    __atomic_store_n(clock_cycles(l), 0, __ATOMIC_RELEASE);
    uint32_t magic = GMMU_UARTLINK_SIMCLOCK_MAGIC;
    __atomic_store_n((uint32_t *)(void *)l->clock_map, magic, __ATOMIC_RELEASE);
    return l->clock_path != NULL ? 0 : -1;
}

struct uart_line *uart_line_open(const struct uart_line_config *cfg, const char *link_path)
{
    if (cfg == NULL || cfg->clk_div < 4 || cfg->error_rate < 0.0 || cfg->error_rate > 1.0) {
        errno = EINVAL;
        return NULL;
    }
    struct uart_line *l = calloc(1, sizeof(*l));
    if (l == NULL)
        return NULL;
    l->cfg = *cfg;
    if (l->cfg.poll_interval == 0)
        l->cfg.poll_interval = 16;
    l->rng = cfg->seed;
    l->slave = -1;

    l->master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (l->master < 0)
        goto fail;
    if (grantpt(l->master) != 0 || unlockpt(l->master) != 0 ||
        ptsname_r(l->master, l->slave_name, sizeof(l->slave_name)) != 0)
        goto fail;
    l->slave = open(l->slave_name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (l->slave < 0 || set_raw(l->slave) != 0)
        goto fail;

    /* Before the link: a host that finds the pty finds the clock too. */
    if (cfg->clock_path != NULL && open_clock(l, cfg->clock_path) != 0)
        goto fail;
    if (link_path != NULL) {
        struct stat sb;
        if (lstat(link_path, &sb) == 0) {
            if (!S_ISLNK(sb.st_mode)) {
                errno = EEXIST;
                goto fail;
            }
            unlink(link_path);
        }
        if (symlink(l->slave_name, link_path) != 0)
            goto fail;
        l->link_path = strdup(link_path);
        if (l->link_path == NULL)
            goto fail;
    }
    return l;

fail : {
    int err = errno;
    uart_line_close(l);
    errno = err;
    return NULL;
}
}

void uart_line_close(struct uart_line *l)
{
    if (l == NULL)
        return;
    if (l->link_path != NULL) {
        unlink(l->link_path);
        free(l->link_path);
    }
    if (l->clock_map != NULL)
        munmap(l->clock_map, GMMU_UARTLINK_SIMCLOCK_BYTES);
    if (l->clock_path != NULL) {
        unlink(l->clock_path);
        free(l->clock_path);
    }
    if (l->slave >= 0)
        close(l->slave);
    if (l->master >= 0)
        close(l->master);
    free(l);
}

const char *uart_line_slave_name(const struct uart_line *l)
{
    return l->slave_name;
}

/* ------------------------------------------------------------ pty */

static void pump_pty(struct uart_line *l)
{
    uint8_t buf[256];
    /* Take what the host wrote, as long as there is room for it. */
    while (QUEUE_BYTES - q_len(&l->to_dev) >= sizeof(buf)) {
        ssize_t n = read(l->master, buf, sizeof(buf));
        if (n <= 0)
            break; /* EAGAIN: nothing more; EIO cannot happen, the slave is held */
        for (ssize_t i = 0; i < n; i++)
            q_push(&l->to_dev, buf[i]);
        l->st.host_to_dev_bytes += (uint64_t)n;
    }
    /* Hand the device's bytes to the host. */
    while (!q_empty(&l->to_host)) {
        uint32_t n = 0;
        while (n < sizeof(buf) && n < q_len(&l->to_host)) {
            buf[n] = l->to_host.buf[(l->to_host.head + n) % QUEUE_BYTES];
            n++;
        }
        ssize_t w = write(l->master, buf, n);
        if (w <= 0) {
            if (w < 0 && errno == EAGAIN && q_len(&l->to_host) > QUEUE_BYTES / 2) {
                /* Nobody reads the pty: keep the newest half. */
                l->st.pty_overflow += q_len(&l->to_host) - QUEUE_BYTES / 2;
                l->to_host.head = l->to_host.tail - QUEUE_BYTES / 2;
            }
            break;
        }
        l->to_host.head += (uint32_t)w;
    }
}

/* ------------------------------------------------------------ bits */

int uart_line_drive(struct uart_line *l)
{
    if (!l->ser_busy) {
        while (!q_empty(&l->to_dev)) {
            uint8_t b = q_pop(&l->to_dev);
            uint16_t bits = (uint16_t)(1u << 9 | (unsigned)b << 1); /* stop, data, start */
            if (hit(l)) {
                switch (next_random(l) % 3) {
                case 0:
                    bits ^= (uint16_t)(1u << (1 + next_random(l) % 8));
                    l->st.flipped++;
                    break;
                case 1:
                    bits &= (uint16_t) ~(1u << 9);
                    l->st.broken_stop++;
                    break;
                default:
                    l->st.dropped++;
                    continue; /* never sent */
                }
            }
            l->ser_bits = bits;
            l->ser_busy = true;
            l->ser_bit = 0;
            l->ser_cycle = 0;
            break;
        }
        if (!l->ser_busy)
            return 1; /* idle */
    }
    int level = (l->ser_bits >> l->ser_bit) & 1;
    if (++l->ser_cycle == l->cfg.clk_div) {
        l->ser_cycle = 0;
        if (++l->ser_bit == 10)
            l->ser_busy = false;
    }
    return level;
}

void uart_line_sample(struct uart_line *l, int tx_pin)
{
    if (!l->des_busy) {
        if (!tx_pin) {
            l->des_busy = true;
            l->des_cycle = 0;
            l->des_bits = 0;
        }
    } else {
        l->des_cycle++;
        unsigned half = l->cfg.clk_div / 2;
        if (l->des_cycle >= half && (l->des_cycle - half) % l->cfg.clk_div == 0) {
            unsigned bit = (l->des_cycle - half) / l->cfg.clk_div;
            if (bit == 0 && tx_pin) {
                l->des_busy = false; /* a glitch, not a start bit */
            } else if (bit >= 1 && bit <= 8) {
                l->des_bits |= (uint16_t)((tx_pin ? 1u : 0u) << (bit - 1));
            } else if (bit == 9) {
                l->des_busy = false;
                if (!tx_pin) {
                    l->st.dev_framing_errors++;
                } else {
                    uint8_t b = (uint8_t)l->des_bits;
                    l->st.dev_to_host_bytes++;
                    bool keep = true;
                    if (hit(l)) {
                        if (next_random(l) % 2) {
                            b ^= (uint8_t)(1u << (next_random(l) % 8));
                            l->st.flipped++;
                        } else {
                            l->st.dropped++;
                            keep = false;
                        }
                    }
                    if (keep && !q_push(&l->to_host, b))
                        l->st.pty_overflow++;
                }
            }
        }
    }
    l->cycles++;
    if (++l->poll_count >= l->cfg.poll_interval) {
        l->poll_count = 0;
        if (l->clock_map != NULL)
            __atomic_store_n(clock_cycles(l), l->cycles, __ATOMIC_RELEASE);
        pump_pty(l);
    }
}

void uart_line_get_stats(const struct uart_line *l, struct uart_line_stats *out)
{
    *out = l->st;
}
