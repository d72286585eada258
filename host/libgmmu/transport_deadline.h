// SPDX-License-Identifier: Apache-2.0
/*
 * Deadlines of the stream transports (sim, uart): a wait is bounded by an
 * absolute CLOCK_MONOTONIC deadline in milliseconds, so a loop that polls
 * many times still ends when its timeout says. Private to libgmmu; static
 * inline because each transport is also compiled alone into unit tests.
 */
#ifndef GMMU_HOST_TRANSPORT_DEADLINE_H
#define GMMU_HOST_TRANSPORT_DEADLINE_H

#include <limits.h>
#include <stdint.h>
#include <time.h>

static inline int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* -1 = no deadline */
static inline int64_t deadline_after(int timeout_ms)
{
    return timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
}

/* What to pass to poll(): -1 forever, else the milliseconds left (>= 0). */
static inline int ms_left(int64_t deadline)
{
    if (deadline < 0)
        return -1;
    int64_t left = deadline - now_ms();
    if (left < 0)
        return 0;
    return left > INT_MAX ? INT_MAX : (int)left;
}

#endif /* GMMU_HOST_TRANSPORT_DEADLINE_H */
