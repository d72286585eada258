// SPDX-License-Identifier: Apache-2.0
/*
 * MMU testbench entry point.
 *
 *   mmu_tb random   [--seed N] [--count N] [--ddr-latency N] [--no-changes] [--quiet] [--trace F.fst]
 *   mmu_tb directed [--only NAME] [--trace F.fst]
 *   mmu_tb bench    [--ddr-latency N]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmmu/mmu_regs.h"
#include "mmu_tests.h"
#include "tb_args.h"

static void usage(void)
{
    fprintf(stderr, "usage: mmu_tb random|directed|bench [--seed N] [--count N] [--ddr-latency N]\n"
                    "              [--only NAME] [--no-changes] [--quiet] [--trace FILE.fst]\n");
    exit(2);
}

bool mmu_check_counters(struct tb *tb)
{
    bool ok = true;
    /* Let prefetch walks (which answer no request) finish first. */
    tb_run(tb, 4000);
    uint64_t req = 0, hit = 0, miss = 0, merge = 0, flt = 0, acc = 0, fr = 0;
    for (unsigned p = 0; p < tb->prm.ports; p++) {
        uint32_t base = GMMU_MMU_PERF_PORT + p * GMMU_PERF_PORT_STRIDE;
        uint32_t c_req = tb_wb_read(tb, base + 4 * GMMU_PERF_PORT_REQUESTS);
        uint32_t c_flt = tb_wb_read(tb, base + 4 * GMMU_PERF_PORT_FAULTS);
        req += c_req;
        hit += tb_wb_read(tb, base + 4 * GMMU_PERF_PORT_HITS);
        miss += tb_wb_read(tb, base + 4 * GMMU_PERF_PORT_MISSES);
        merge += tb_wb_read(tb, base + 4 * GMMU_PERF_PORT_MERGES);
        flt += c_flt;
        acc += tb->accepted[p];
        fr += tb->fault_rsps[p];
        if (c_req != (uint32_t)tb->accepted[p] || c_flt != (uint32_t)tb->fault_rsps[p]) {
            fprintf(stderr,
                    "counters: port %u: REQUESTS %u FAULTS %u, testbench saw %" PRIu64
                    " and %" PRIu64 "\n",
                    p, c_req, c_flt, tb->accepted[p], tb->fault_rsps[p]);
            ok = false;
        }
    }
    uint32_t s[GMMU_PERF_SHARED_COUNTERS];
    for (unsigned i = 0; i < GMMU_PERF_SHARED_COUNTERS; i++)
        s[i] = tb_wb_read(tb, GMMU_MMU_PERF_SHARED + 4 * i);
    /* Every accepted request is a hit, a miss, or a VA_RANGE fault. */
    if ((uint32_t)(hit + miss + tb->by_fault[GMMU_FAULT_VA_RANGE]) != (uint32_t)req) {
        fprintf(stderr,
                "counters: hits %" PRIu64 " + misses %" PRIu64 " + VA_RANGE %" PRIu64
                " != requests %" PRIu64 "\n",
                hit, miss, tb->by_fault[GMMU_FAULT_VA_RANGE], req);
        ok = false;
    }
    if (s[GMMU_PERF_FAULTS] != (uint32_t)fr) {
        fprintf(stderr, "counters: FAULTS %u, testbench saw %" PRIu64 "\n", s[GMMU_PERF_FAULTS],
                fr);
        ok = false;
    }
    struct ddr_model_stats ds = ddr_model_get_stats(tb->ddr);
    if (s[GMMU_PERF_PTE_READS] != (uint32_t)ds.read_bursts) {
        fprintf(stderr, "counters: PTE_READS %u, DDR model saw %" PRIu64 " bursts\n",
                s[GMMU_PERF_PTE_READS], ds.read_bursts);
        ok = false;
    }
    if (ds.protocol_errors) {
        fprintf(stderr, "DDR model: %" PRIu64 " AXI protocol errors (last: %s)\n",
                ds.protocol_errors, ddr_model_last_protocol_error(tb->ddr));
        ok = false;
    }
    printf("counters: requests %" PRIu64 " hits %" PRIu64 " misses %" PRIu64 " merged %" PRIu64
           " faults %" PRIu64
           "; L2 lookups %u hits %u; walks %u, mean %.1f cycles, walk-cache hits %u;"
           " PTE reads %u, L2 neighbours %u; invalidations %u: %s\n",
           req, hit, miss, merge, flt, s[GMMU_PERF_L2_LOOKUPS], s[GMMU_PERF_L2_HITS],
           s[GMMU_PERF_WALKS],
           s[GMMU_PERF_WALKS] ? (double)s[GMMU_PERF_WALK_CYCLES] / s[GMMU_PERF_WALKS] : 0.0,
           s[GMMU_PERF_PWC_HITS], s[GMMU_PERF_PTE_READS], s[GMMU_PERF_L2_NEIGHBOURS],
           s[GMMU_PERF_INVALIDATIONS], ok ? "consistent" : "INCONSISTENT");
    (void)acc;
    return ok;
}

int main(int argc, char **argv)
{
    struct mmu_test_opts o = { .seed = 1, .count = 0 };
    if (argc < 2)
        usage();
    const struct tb_arg args[] = {
        { "--no-changes", TB_ARG_FLAG, &o.no_changes },
        { "--quiet", TB_ARG_FLAG, &o.quiet },
        { "--seed", TB_ARG_U64, &o.seed },
        { "--count", TB_ARG_U64, &o.count },
        { "--ddr-latency", TB_ARG_UNSIGNED, &o.ddr_latency },
        { "--trace", TB_ARG_STRING, &o.trace },
        { "--only", TB_ARG_STRING, &o.only },
    };
    if (!tb_parse_args(argc, argv, 2, args, sizeof args / sizeof args[0]))
        usage();
    if (!strcmp(argv[1], "random")) {
        if (!o.count)
            o.count = 100000;
        return mmu_test_random(&o);
    }
    if (!strcmp(argv[1], "directed"))
        return mmu_test_directed(&o);
    if (!strcmp(argv[1], "bench"))
        return mmu_bench(&o);
    usage();
    return 2;
}
