// SPDX-License-Identifier: Apache-2.0
/*
 * MMU testbench core: runs the DUT cycle by cycle, drives its register port
 * (Wishbone) and its translation ports, and checks every response against
 * the reference model (tests/model/gmmu_ref.c) reading the DDR model's
 * memory.
 *
 * Page-table changes are tracked as versions: each change of a table word
 * (backdoor write into the DDR memory) or of an address-space entry is one
 * version. A request may be answered from any version between the one that
 * was *committed* when it was accepted (the firmware had seen INV_STATUS.DONE
 * after making that change) and the current one when its response arrives;
 * the check accepts a response that matches any of them, and nothing else.
 */
#ifndef GMMU_TESTS_MMU_TB_H
#define GMMU_TESTS_MMU_TB_H

#include <stdbool.h>
#include <stdint.h>

#include "dut.h"
#include "gmmu_ref.h"
#include "sparse_mem.h"
#include "tb_rng.h"

#define TB_MAX_ASIDS 256u
#define TB_MAX_TAGS  256u
#define TB_MAX_ERR   8u

/* ------------------------------------------------------------ tb */
struct tb_change {
    bool is_as;       /* an address-space entry (else a DDR word) */
    uint64_t addr;    /* DDR offset, or the ASID */
    uint64_t old_val; /* DDR word, or (root | valid) */
};

struct tb_pending {
    bool used;
    uint8_t access;
    uint32_t asid;
    uint64_t va;
    uint64_t accept_cycle;
    unsigned min_version;
};

struct tb_fault {
    uint32_t tag, asid;
    uint8_t access, reason;
    uint64_t va;
};

struct tb_fault_q {
    struct tb_fault *v;
    unsigned head, n, cap;
};

struct tb;
/* Called at the start of every cycle to set the request inputs. */
typedef void (*tb_gen_fn)(struct tb *tb, void *ctx);
/* Called for every response (after the check, if checking is on). */
typedef void (*tb_rsp_fn)(struct tb *tb, unsigned port, const struct dut_rsp *rsp,
                          const struct tb_pending *req, void *ctx);

struct tb {
    struct dut *dut;
    struct dut_io io;
    struct dut_params prm;
    struct ddr_model *ddr;
    struct sparse_mem *mem;
    uint64_t ddr_size;
    unsigned va_bits;
    struct gmmu_ref_config ref;

    /* The address-space table as the model sees it (current version). */
    bool as_valid[TB_MAX_ASIDS];
    uint64_t as_root[TB_MAX_ASIDS];

    /* Read-error ranges injected into the DDR model, mirrored. */
    uint64_t err_lo[TB_MAX_ERR], err_hi[TB_MAX_ERR];
    unsigned n_err;

    /* Versions: changes[i] turned version i into version i + 1. */
    struct tb_change *changes;
    unsigned n_changes, cap_changes;
    unsigned committed;

    /* Requests in flight, by port and tag. */
    struct tb_pending pend[DUT_MAX_PORTS][TB_MAX_TAGS];
    unsigned outstanding[DUT_MAX_PORTS];
    unsigned next_tag[DUT_MAX_PORTS];

    tb_gen_fn gen;
    void *gen_ctx;
    tb_rsp_fn on_rsp;
    void *rsp_ctx;
    bool check; /* compare responses with the model */
    unsigned rsp_ready_percent;
    /* A response offered and not taken, which must be offered unchanged next. */
    bool rsp_waiting[DUT_MAX_PORTS];
    struct dut_rsp rsp_offered[DUT_MAX_PORTS];
    struct rng rng;

    /* Wishbone master. */
    bool wb_busy, wb_done;
    uint32_t wb_rdata;

    /* Fault records: responses with a fault, and records read from the
     * FIFO, per port, matched in order. */
    struct tb_fault_q seen[DUT_MAX_PORTS], recs[DUT_MAX_PORTS];
    uint64_t faults_dropped; /* seen faults skipped by a later record */
    uint64_t records_read;

    /* Statistics. */
    uint64_t accepted[DUT_MAX_PORTS];
    uint64_t responses[DUT_MAX_PORTS];
    uint64_t fault_rsps[DUT_MAX_PORTS];
    uint64_t checked, mismatches, multi_version;
    uint64_t by_fault[8];
    uint64_t by_psize[8];
    uint64_t zero_rsps;
    unsigned max_mismatch_reports;
};

bool tb_init(struct tb *tb, const struct dut_config *cfg, uint64_t seed);
void tb_fini(struct tb *tb);

/* One clock cycle: generator, Wishbone, evaluation, checks, edge. */
void tb_cycle(struct tb *tb);
void tb_run(struct tb *tb, uint64_t cycles);
uint64_t tb_now(const struct tb *tb);

/* Register access through the Wishbone port (offsets from the MMU base).
 * They run cycles, so traffic goes on meanwhile. */
void tb_wb_write(struct tb *tb, uint32_t off, uint32_t value);
uint32_t tb_wb_read(struct tb *tb, uint32_t off);

/* Address-space table: writes the entry and records the change. */
void tb_set_as(struct tb *tb, unsigned asid, bool valid, uint64_t root);

/* A table word changed by the backdoor, recorded as a version. */
void tb_write_word(struct tb *tb, uint64_t addr, uint64_t value);

/* Read-error range in the DDR model (and in the model's view of memory). */
bool tb_inject_error(struct tb *tb, uint64_t lo, uint64_t hi);

/* Invalidation: program it, start it, wait for DONE, commit the changes
 * made so far. type is enum gmmu_inv. Returns the cycles it took. */
uint64_t tb_invalidate(struct tb *tb, unsigned type, unsigned asid, uint64_t va_start,
                       uint64_t va_end);
/* Start only (no wait); tb_wait_done waits and commits. */
void tb_invalidate_start(struct tb *tb, unsigned type, unsigned asid, uint64_t va_start,
                         uint64_t va_end);
uint64_t tb_wait_done(struct tb *tb);

/* Requests still in flight that may see a version older than the committed one. */
unsigned tb_pending_before_commit(const struct tb *tb);

/* Issue helpers for generators: the request to present on port p (held
 * until accepted). Returns false if the port already presents one or has
 * no free tag. */
bool tb_port_idle(const struct tb *tb, unsigned port);
void tb_present(struct tb *tb, unsigned port, uint32_t asid, uint64_t va, unsigned access);
unsigned tb_outstanding(const struct tb *tb);
/* Run until every request in flight has its response (generator off). */
bool tb_drain(struct tb *tb, uint64_t max_cycles);

/* Reads every fault record from the FIFO and matches it. */
void tb_faults_drain(struct tb *tb, unsigned max_records);
/* Final fault accounting: every record matched; dropped == FAULT_OVERFLOW. */
bool tb_faults_check(struct tb *tb);

/* Model expectation at a version. */
void tb_expect(struct tb *tb, unsigned version, uint32_t asid, uint64_t va, unsigned access,
               struct gmmu_ref_result *out);

unsigned tb_psize_of_shift(unsigned shift);
void tb_print_stats(const struct tb *tb, double seconds);

#endif /* GMMU_TESTS_MMU_TB_H */
