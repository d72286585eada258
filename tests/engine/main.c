// SPDX-License-Identifier: Apache-2.0
/*
 * GPU engine testbench entry point.
 *
 *   engine_tb [--seed N] [--count N] [--aborts N] [--ddr-latency N]
 *             [--only directed|random|abort|throughput] [--throughput-kib N]
 *             [--min-ratio X] [--trace FILE.fst]
 *
 * Exit status 0 when every test passed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_tests.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: engine_tb [--seed N] [--count N] [--aborts N] [--ddr-latency N]\n"
            "                 [--only directed|random|abort|throughput] [--throughput-kib N]\n"
            "                 [--min-ratio X] [--trace FILE.fst]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    unsigned count = 300, aborts = 40, latency = 40, tput_kib = 512;
    double min_ratio = 0.9;
    const char *only = NULL, *trace = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc)
            usage();
        const char *v = argv[++i];
        if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--count"))
            count = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--aborts"))
            aborts = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--ddr-latency"))
            latency = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--throughput-kib"))
            tput_kib = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--min-ratio"))
            min_ratio = strtod(v, NULL);
        else if (!strcmp(a, "--only"))
            only = v;
        else if (!strcmp(a, "--trace"))
            trace = v;
        else
            usage();
    }
    struct tb *tb = tb_create(seed, latency, trace);
    if (!tb) {
        fprintf(stderr,
                "engine_tb: cannot set up the testbench (out of memory, or the trace above)\n");
        return 1;
    }
    struct dut_params p = dut_params();
    printf("engine_tb: Slots=%u AsidW=%u TagW=%u PaBits=%u, DDR latency %u, seed %" PRIu64 "\n",
           p.slots, p.asid_bits, p.tag_bits, p.pa_bits, latency, seed);
    bool ok = true;
    if (!only || !strcmp(only, "directed"))
        ok &= test_directed(tb);
    if (!only || !strcmp(only, "random"))
        ok &= test_random(tb, count);
    if (!only || !strcmp(only, "abort"))
        ok &= test_abort(tb, aborts);
    if (!only || !strcmp(only, "throughput"))
        ok &= test_throughput(tb, (uint64_t)tput_kib << 10, min_ratio);
    ok &= tb->errors == 0;
    printf("engine_tb: %s (%" PRIu64 " cycles, %u failures)\n", ok ? "PASS" : "FAIL",
           dut_cycle(tb->dut), tb->errors);
    tb_destroy(tb);
    return ok ? 0 : 1;
}
