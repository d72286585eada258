/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Paging engine testbench entry point.
 *
 *   paging_tb [--seed N] [--streams N] [--ddr-latency N] [--sys-latency N]
 *             [--only directed|random|errors|malformed|flush|throughput]
 *             [--throughput-kib N] [--throughput-check 0|1] [--trace FILE.fst]
 *
 * Exit status 0 when every test passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paging_tests.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: paging_tb [--seed N] [--streams N] [--ddr-latency N] [--sys-latency N]\n"
            "                 [--only directed|random|errors|malformed|flush|throughput]\n"
            "                 [--throughput-kib N] [--throughput-check 0|1] [--trace FILE.fst]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    unsigned streams = 40, ddr_lat = 40, sys_lat = 60, kib = 32, check = 1;
    const char *only = NULL, *trace = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc)
            usage();
        const char *v = argv[++i];
        if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--streams"))
            streams = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--ddr-latency"))
            ddr_lat = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--sys-latency"))
            sys_lat = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--throughput-kib"))
            kib = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--throughput-check"))
            check = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--only"))
            only = v;
        else if (!strcmp(a, "--trace"))
            trace = v;
        else
            usage();
    }
    struct tb *t = tb_create(seed, ddr_lat, sys_lat, trace);
    if (!t) {
        fprintf(stderr,
                "paging_tb: cannot set up the testbench (out of memory, or the trace above)\n");
        return 1;
    }
    struct dut_params p = dut_params();
    printf(
        "paging_tb: QueueWords=%u MaxBurst=%u CopyFifoBeats=%u Outstanding=%u PktSlots=%u AsidW=%u, "
        "seed %llu, DDR latency %u, system memory latency %u\n",
        p.queue_words, p.max_burst, p.copy_fifo_beats, p.outstanding, p.pkt_slots, p.asid_bits,
        (unsigned long long)seed, ddr_lat, sys_lat);
    tb_randomize_memory(t);
    bool ok = true;
    if (!only || !strcmp(only, "directed"))
        test_directed(t);
    if (!only || !strcmp(only, "random"))
        test_random(t, streams);
    if (!only || !strcmp(only, "errors"))
        test_axi_errors(t);
    if (!only || !strcmp(only, "malformed"))
        test_malformed(t);
    if (!only || !strcmp(only, "flush"))
        test_flush(t);
    if (!only || !strcmp(only, "throughput"))
        ok = test_throughput(t, kib, check != 0);
    printf("paging_tb: %llu cycles, %s\n", (unsigned long long)t->cycle, ok ? "PASS" : "FAIL");
    tb_destroy(t);
    return ok ? 0 : 1;
}
