// SPDX-License-Identifier: Apache-2.0
/*
 * One command's cost, as the firmware benchmarks (bench_fw, bench_residency)
 * take it: the mailbox's hardware-measured CPL_LATENCY and the difference
 * of GET_PT_STATS's counters around the command.
 */
#ifndef BENCH_SAMPLE_H
#define BENCH_SAMPLE_H

#include <stdio.h>
#include <stdlib.h>

#include "libgmmu.h"

struct sample {
    uint32_t cycles;
    struct gmmu_pt_stats d; /* counters after - before; `engine` as after */
};

/* Exits the benchmark `prog` with the error. */
static inline void bench_die(const char *prog, const char *what, int rc)
{
    fprintf(stderr, "%s: %s: %s\n", prog, what, gmmu_strerror(rc));
    exit(1);
}

static inline struct gmmu_pt_stats bench_pt_stats(struct gmmu_dev *dev, const char *prog)
{
    struct gmmu_pt_stats s;
    size_t len = 0;
    int rc = gmmu_call(dev, GMMU_OP_GET_PT_STATS, NULL, 0, &s, sizeof s, &len);
    if (rc)
        bench_die(prog, "GET_PT_STATS", rc);
    if (len != sizeof s)
        bench_die(prog, "GET_PT_STATS length", GMMU_STATUS_MALFORMED_LENGTH);
    return s;
}

/* The command just completed, counters taken before it in b. The mailbox
   keeps the latency of the last command until the next one completes, so
   it is read before anything else is sent. */
static inline struct sample bench_finish(struct gmmu_dev *dev, const char *prog,
                                         const struct gmmu_pt_stats *b)
{
    struct sample s;
    int rc = gmmu_bar_read(dev, GMMU_MBOX_CPL_LATENCY, &s.cycles);
    if (rc)
        bench_die(prog, "read CPL_LATENCY", rc);
    struct gmmu_pt_stats a = bench_pt_stats(dev, prog);
    s.d = a;
    s.d.words_written = a.words_written - b->words_written;
    s.d.valid_written = a.valid_written - b->valid_written;
    s.d.words_read = a.words_read - b->words_read;
    s.d.bus_writes = a.bus_writes - b->bus_writes;
    s.d.invalidations = a.invalidations - b->invalidations;
    s.d.inv_cycles = a.inv_cycles - b->inv_cycles;
    s.d.eng_packets = a.eng_packets - b->eng_packets;
    s.d.eng_beats = a.eng_beats - b->eng_beats;
    s.d.eng_busy_cycles = a.eng_busy_cycles - b->eng_busy_cycles;
    s.d.queue_words = a.queue_words - b->queue_words;
    s.d.fences = a.fences - b->fences;
    s.d.syncs = a.syncs - b->syncs;
    s.d.wait_cycles = a.wait_cycles - b->wait_cycles;
    s.d.eng_errors = a.eng_errors - b->eng_errors;
    return s;
}

#endif
