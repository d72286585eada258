// SPDX-License-Identifier: Apache-2.0
/*
 * GPU engine testbench entry point.
 *
 *   engine_tb [--seed N] [--count N] [--aborts N] [--phys N] [--ddr-latency N]
 *             [--only directed|random|abort|phys|throughput] [--throughput-kib N]
 *             [--min-ratio X] [--trace FILE.fst]
 *
 * Exit status 0 when every test passed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_tests.h"
#include "tb_args.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: engine_tb [--seed N] [--count N] [--aborts N] [--phys N] [--ddr-latency N]\n"
            "                 [--only directed|random|abort|phys|throughput] [--throughput-kib N]\n"
            "                 [--min-ratio X] [--trace FILE.fst]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    unsigned count = 300, aborts = 40, phys = 100, latency = 40, tput_kib = 512;
    double min_ratio = 0.9;
    const char *only = NULL, *trace = NULL;
    const struct tb_arg args[] = {
        { "--seed", TB_ARG_U64, &seed },
        { "--count", TB_ARG_UNSIGNED, &count },
        { "--aborts", TB_ARG_UNSIGNED, &aborts },
        { "--phys", TB_ARG_UNSIGNED, &phys },
        { "--ddr-latency", TB_ARG_UNSIGNED, &latency },
        { "--throughput-kib", TB_ARG_UNSIGNED, &tput_kib },
        { "--min-ratio", TB_ARG_DOUBLE, &min_ratio },
        { "--only", TB_ARG_STRING, &only },
        { "--trace", TB_ARG_STRING, &trace },
    };
    if (!tb_parse_args(argc, argv, 1, args, sizeof args / sizeof args[0]))
        usage();
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
    if (tb_selected(only, "directed"))
        ok &= test_directed(tb);
    if (tb_selected(only, "random"))
        ok &= test_random(tb, count);
    if (tb_selected(only, "abort"))
        ok &= test_abort(tb, aborts);
    if (tb_selected(only, "phys"))
        ok &= test_phys(tb, phys, (uint64_t)tput_kib << 10);
    if (tb_selected(only, "throughput"))
        ok &= test_throughput(tb, (uint64_t)tput_kib << 10, min_ratio);
    ok &= tb->errors == 0;
    printf("engine_tb: %s (%" PRIu64 " cycles, %u failures)\n", ok ? "PASS" : "FAIL",
           dut_cycle(tb->dut), tb->errors);
    tb_destroy(tb);
    return ok ? 0 : 1;
}
