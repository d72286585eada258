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
#include "tb_args.h"

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
    const struct tb_arg args[] = {
        { "--seed", TB_ARG_U64, &seed },
        { "--streams", TB_ARG_UNSIGNED, &streams },
        { "--ddr-latency", TB_ARG_UNSIGNED, &ddr_lat },
        { "--sys-latency", TB_ARG_UNSIGNED, &sys_lat },
        { "--throughput-kib", TB_ARG_UNSIGNED, &kib },
        { "--throughput-check", TB_ARG_UNSIGNED, &check },
        { "--only", TB_ARG_STRING, &only },
        { "--trace", TB_ARG_STRING, &trace },
    };
    if (!tb_parse_args(argc, argv, 1, args, sizeof args / sizeof args[0]))
        usage();
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
    if (tb_selected(only, "directed"))
        test_directed(t);
    if (tb_selected(only, "random"))
        test_random(t, streams);
    if (tb_selected(only, "errors"))
        test_axi_errors(t);
    if (tb_selected(only, "malformed"))
        test_malformed(t);
    if (tb_selected(only, "flush"))
        test_flush(t);
    if (tb_selected(only, "throughput"))
        ok = test_throughput(t, kib, check != 0);
    printf("paging_tb: %llu cycles, %s\n", (unsigned long long)t->cycle, ok ? "PASS" : "FAIL");
    tb_destroy(t);
    return ok ? 0 : 1;
}
