// SPDX-License-Identifier: Apache-2.0
/*
 * CLOCK_MONOTONIC milliseconds: the deadlines of the stream transports (sim,
 * uart), where a wait is bounded by an absolute deadline so that a loop
 * that polls many times still ends when its timeout says, and the polling
 * sleeps of gmmu_call. Private to libgmmu (its tests use it too); static
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

static inline void sleep_ms(int ms)
{
    struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
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
