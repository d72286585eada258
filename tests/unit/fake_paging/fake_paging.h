// SPDX-License-Identifier: Apache-2.0
/*
 * A model of the paging engine behind paging_io_impl.h, for host tests.
 * Packets are validated and executed by the engine's reference model
 * (tests/paging/ref.c, written from the packet definition), not by an
 * inverse of the firmware's encoder. The engine runs only when the
 * producer reads TAIL, PACKETS_DONE or STATUS, and then a random number
 * of packets: anything the firmware reads from memory before it waited
 * may be stale, as on the SoC.
 */
#ifndef FAKE_PAGING_H
#define FAKE_PAGING_H

#include <stdbool.h>
#include <stdint.h>

#include "gmmu/paging.h"
#include "ref.h"

struct fake_paging {
    bool present;
    uint32_t ring_words;
    struct ref *ref;
    /* Called after each packet ran (the test mirrors its memory). */
    void (*after)(void *ctx, const uint64_t *packet);
    void *ctx;
    /* Most packets run per progress read (0: all published). */
    uint32_t max_step;
    /* Packets run so far never pass this index when stall is set. */
    bool stall;
    /* Inject an AXI write error at packet index fail_packet (once). */
    bool fail_armed;
    uint32_t fail_packet;
    uint32_t fail_code;
    uint64_t rng;
    /* Registers. */
    uint32_t head, tail, packets_done, ctrl, status, err_packet;
    uint64_t err_addr, fence;
    uint32_t irq_status, irq_enable, perf_packets, perf_beats, perf_busy;
    uint32_t restarts, flushes;
    uint64_t ring[GMMU_PAGING_QUEUE_WORDS_MAX];
};

extern struct fake_paging fake_paging;

/* Resets the model: present, ring_words, ref and its callback. */
void fake_paging_reset(uint32_t ring_words, struct ref *ref,
                       void (*after)(void *ctx, const uint64_t *packet), void *ctx);

/* Runs every published packet (or up to an error). */
void fake_paging_drain(void);

#endif
