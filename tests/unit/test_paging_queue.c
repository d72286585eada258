// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of the paging engine's producer (firmware/lib/paging_queue.c)
 * and of the page-table manager on top of it (firmware/lib/ptm_paging.c),
 * against a model of the engine (tests/unit/fake_paging) whose packets are
 * validated and executed by the engine's reference model tests/paging/ref.c.
 * Expectations are written here from the packet definition, or come from
 * the reference walker tests/model/gmmu_ref.c, never from the encoders.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "fake_paging.h"
#include "gmmu_ref.h"
#include "paging_queue.h"
#include "ptm_paging.h"
#include "ptmgr.h"
#include "vram_alloc.h"

#define MiB       (1024ull * 1024ull)
#define DDR_BYTES (8 * MiB)

static struct ref model;
static struct pq q;

static void engine_reset(uint32_t ring_words)
{
    sparse_mem_destroy(model.ddr);
    sparse_mem_destroy(model.sys);
    memset(&model, 0, sizeof model);
    model.cfg = (struct ref_cfg){
        .queue_words = ring_words, .asid_bits = 6, .ddr_size = DDR_BYTES, .sys_base = 1ull << 40
    };
    model.ddr = sparse_mem_create(DDR_BYTES);
    model.sys = sparse_mem_create(MiB);
    fake_paging_reset(ring_words, &model, NULL, NULL);
}

static int teardown(void **state)
{
    (void)state;
    sparse_mem_destroy(model.ddr);
    sparse_mem_destroy(model.sys);
    memset(&model, 0, sizeof model);
    return 0;
}

static uint64_t ddr(uint64_t addr)
{
    return sparse_mem_read_u64(model.ddr, addr);
}

/* ------------------------------------------------------------ producer */

static void test_absent(void **state)
{
    (void)state;
    engine_reset(512);
    fake_paging.present = false;
    assert_int_equal(pq_init(&q), PQ_ERR_ABSENT);
    assert_false(q.present);
    uint64_t w[4] = { 0 };
    assert_int_equal(pq_push(&q, w, 1, NULL, 0), PQ_ERR_ABSENT);
}

/* Each encoder's packet is valid for the reference model and does what
 * the packet definition says. */
static void test_encoders(void **state)
{
    uint64_t w[PQ_PACKET_WORDS_MAX], lit[3] = { 0x11, 0x22, 0x33 };
    unsigned n;

    (void)state;
    engine_reset(512);
    assert_int_equal(pq_init(&q), PQ_OK);
    assert_int_equal(q.ring_words, 512);

    n = pq_enc_write_run(w, 0x1000, 0x5003, 0x1000, 512);
    assert_int_equal(n, 4);
    assert_int_equal(ref_validate(&model.cfg, w), GMMU_PAGING_ERR_NONE);
    assert_int_equal(pq_push(&q, w, n, NULL, 0), PQ_OK);
    n = pq_enc_write_literal(w, 0x3000, 3);
    assert_int_equal(n, 2);
    assert_int_equal(pq_push(&q, w, n, lit, 3), PQ_OK);
    n = pq_enc_fill(w, 0x4000, 0xABCDull, 16);
    assert_int_equal(pq_push(&q, w, n, NULL, 0), PQ_OK);
    n = pq_enc_copy(w, 0x5000, 0x3000, 3, 0);
    assert_int_equal(pq_push(&q, w, n, NULL, 0), PQ_OK);
    n = pq_enc_flush(w, GMMU_PAGING_FLUSH_RANGE, 5, 0x200000, 0x3FFFFF);
    assert_int_equal(pq_push(&q, w, n, NULL, 0), PQ_OK);
    assert_int_equal(pq_fence_wait(&q), PQ_OK);

    for (unsigned i = 0; i < 512; i++)
        assert_int_equal(ddr(0x1000 + 8 * i), 0x5003 + 0x1000ull * i);
    assert_int_equal(ddr(0x3008), 0x22);
    assert_int_equal(ddr(0x4078), 0xABCD);
    assert_int_equal(ddr(0x4080), 0);
    assert_int_equal(ddr(0x5010), 0x33);
    assert_int_equal(model.n_flushes, 1);
    assert_int_equal(model.flushes[0].type, GMMU_PAGING_FLUSH_RANGE);
    assert_int_equal(model.flushes[0].asid, 5);
    assert_int_equal(model.flushes[0].first_page, 0x200);
    assert_int_equal(model.flushes[0].last_page, 0x3FF);
    assert_int_equal(model.fences, 1);
    assert_int_equal(model.fence_value, 1);
    assert_int_equal(q.done, 6);
    assert_false(pq_busy(&q));
}

/* A 16-word ring, the engine a few packets at a time: packets wrap the
 * ring, literal ones split across its end, and all run in order. */
static void test_wrap(void **state)
{
    uint64_t w[PQ_PACKET_WORDS_MAX], body[12];

    (void)state;
    engine_reset(16);
    fake_paging.max_step = 2;
    assert_int_equal(pq_init(&q), PQ_OK);
    for (unsigned k = 0; k < 300; k++) {
        uint64_t dst = 0x10000 + 8ull * 16 * (k % 64);

        if (k % 3 == 0) {
            unsigned len = 1 + k % 12;

            for (unsigned i = 0; i < len; i++)
                body[i] = (uint64_t)k << 16 | i;
            pq_enc_write_literal(w, dst, len);
            assert_int_equal(pq_push(&q, w, 2, body, len), PQ_OK);
        } else {
            unsigned n = pq_enc_write_run(w, dst, (uint64_t)k << 16, 1, 16);
            assert_int_equal(pq_push(&q, w, n, NULL, 0), PQ_OK);
        }
    }
    assert_true(q.stats.full_waits > 0);
    assert_int_equal(pq_sync(&q), PQ_OK);
    assert_int_equal(fake_paging.packets_done, 300);
    /* The last writer of each slot won. */
    for (unsigned s = 0; s < 64; s++) {
        unsigned k = 300 - 64 + s;

        while (k % 64 != s)
            k++;
        if (k >= 300)
            k -= 64;
        uint64_t got = ddr(0x10000 + 8ull * 16 * s);
        assert_int_equal(got, (uint64_t)k << 16);
    }
    assert_int_equal(q.head, fake_paging.tail);
}

/* A stalled engine: the producer fills the ring, then times out waiting
 * for room instead of writing over unfinished packets. */
static void test_full_queue(void **state)
{
    uint64_t w[PQ_PACKET_WORDS_MAX];
    unsigned pushed = 0;

    (void)state;
    engine_reset(16);
    assert_int_equal(pq_init(&q), PQ_OK);
    fake_paging.stall = true;
    for (;;) {
        unsigned n = pq_enc_fill(w, 0x2000 + 8 * pushed, pushed, 1);
        enum pq_status st = pq_push(&q, w, n, NULL, 0);

        if (st != PQ_OK) {
            assert_int_equal(st, PQ_ERR_TIMEOUT);
            break;
        }
        pushed++;
    }
    assert_int_equal(pushed, 5); /* 5 x 3 words in 16 */
    assert_int_equal(fake_paging.head, 15);
    assert_int_equal(pq_enc_write_literal(w, 0, 15), 2);
    assert_int_equal(pq_push(&q, w, 2, w, 15), PQ_ERR_TOO_BIG);
    fake_paging.stall = false;
    assert_int_equal(pq_sync(&q), PQ_OK);
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(ddr(0x2000 + 8 * i), i);
}

/* An AXI error at packet 2: the wait fails with the engine's status; the
 * restart drops what did not complete; later packets run. */
static void test_error_restart(void **state)
{
    uint64_t w[PQ_PACKET_WORDS_MAX];

    (void)state;
    engine_reset(64);
    assert_int_equal(pq_init(&q), PQ_OK);
    fake_paging.fail_armed = true;
    fake_paging.fail_packet = 2;
    fake_paging.fail_code = GMMU_PAGING_ERR_AXI_WRITE;
    for (unsigned i = 0; i < 4; i++) {
        unsigned n = pq_enc_fill(w, 0x8000 + 0x100 * i, 0x100 + i, 4);
        assert_int_equal(pq_push(&q, w, n, NULL, 0), PQ_OK);
    }
    assert_int_equal(pq_sync(&q), PQ_ERR_ENGINE);
    assert_int_equal(q.err_code, GMMU_PAGING_ERR_AXI_WRITE);
    assert_int_equal(q.err_packet, 2);
    assert_int_equal(q.err_addr, 0x8200);
    assert_int_equal(ddr(0x8100), 0x101);
    assert_int_equal(ddr(0x8200), 0);
    assert_int_equal(pq_restart(&q), PQ_OK);
    assert_int_equal(fake_paging.restarts, 1);
    assert_int_equal(ddr(0x8300), 0); /* dropped */
    assert_int_equal(q.queued, q.done);
    assert_int_equal(q.done, 2);
    pq_enc_fill(w, 0x8300, 0x77, 1);
    assert_int_equal(pq_push(&q, w, 3, NULL, 0), PQ_OK);
    assert_int_equal(pq_fence_wait(&q), PQ_OK);
    assert_int_equal(ddr(0x8300), 0x77);
    assert_int_equal(q.stats.errors, 1);
}

/* A malformed packet stops the engine with MALFORMED, never a hang. */
static void test_malformed(void **state)
{
    uint64_t bad[3] = { 0x7F, 0, 0 };

    (void)state;
    engine_reset(64);
    assert_int_equal(pq_init(&q), PQ_OK);
    assert_int_equal(pq_push(&q, bad, 3, NULL, 0), PQ_OK);
    assert_int_equal(pq_sync(&q), PQ_ERR_ENGINE);
    assert_int_equal(q.err_code, GMMU_PAGING_ERR_MALFORMED);
    assert_int_equal(pq_restart(&q), PQ_OK);
    assert_int_equal(pq_fence_wait(&q), PQ_OK);
}

/* A firmware restart finds a stopped engine with packets left: init
 * restarts it and starts from its counters. */
static void test_init_takes_ring(void **state)
{
    uint64_t w[PQ_PACKET_WORDS_MAX];

    (void)state;
    engine_reset(64);
    assert_int_equal(pq_init(&q), PQ_OK);
    pq_enc_fill(w, 0x100, 1, 1);
    pq_push(&q, w, 3, NULL, 0);
    pq_push(&q, w, 3, NULL, 0);
    fake_paging.stall = true;
    pq_publish(&q);
    fake_paging.stall = false;
    fake_paging.status = GMMU_PAGING_STATUS_ERROR | 4u << GMMU_PAGING_STATUS_CODE_LSB;
    assert_int_equal(pq_init(&q), PQ_OK);
    assert_int_equal(fake_paging.restarts, 1);
    assert_int_equal(q.head, 6);
    assert_int_equal(q.tail, 6);
    assert_false(pq_busy(&q));
}

/* ------------------------------------------------------------ ptmgr on it */

struct vsim {
    uint8_t *mem;
    uint64_t bytes;
    uint32_t drops;
};

static struct vsim vs;

/* The engine's writes land in the host buffer the manager reads. */
static void mirror(void *ctx, const uint64_t *w)
{
    struct vsim *s = ctx;
    unsigned op = (unsigned)(w[0] & 0xFF);
    uint32_t n = (uint32_t)(w[0] >> 32);

    if (op == GMMU_PAGING_OP_WRITE_PTES || op == GMMU_PAGING_OP_FILL || op == GMMU_PAGING_OP_COPY) {
        assert_true(w[1] + 8ull * n <= s->bytes);
        sparse_mem_read(model.ddr, w[1], s->mem + w[1], 8ull * n);
    }
}

static uint64_t vs_read64(void *ctx, uint64_t off)
{
    struct vsim *s = ctx;
    uint64_t v;

    assert_true(off + 8 <= s->bytes);
    memcpy(&v, s->mem + off, 8);
    return v;
}

static void vs_drop(void *ctx)
{
    ((struct vsim *)ctx)->drops++;
}

static int vs_ref_read(void *ctx, uint64_t off, uint64_t *value)
{
    struct vsim *s = ctx;

    if (off + 8 > s->bytes)
        return 1;
    memcpy(value, s->mem + off, 8);
    return 0;
}

static struct gmmu_ref_result translate(uint64_t root, uint64_t va)
{
    struct gmmu_ref_config cfg = { .levels = 4 };
    struct gmmu_ref_result r;

    gmmu_ref_translate(&cfg, vs_ref_read, &vs, true, root, va, GMMU_ACCESS_READ, &r);
    return r;
}

/* A map is a few packets (a run-form WRITE_PTES for 512 pages), its flush
 * follows its writes in the queue, and it completes at its fence. An
 * injected engine error fails the command with PTM_ERR_ENGINE, the engine
 * is restarted, and later commands work. */
static void test_ptmgr_on_engine(void **state)
{
    struct vram_alloc vram;
    size_t meta_bytes = vram_alloc_metadata_bytes(DDR_BYTES);
    void *meta = malloc(meta_bytes);
    struct ptm_paging pp;
    struct ptm pm;
    uint32_t *counts = malloc(PTM_COUNT_WORDS(DDR_BYTES) * sizeof(uint32_t));
    struct ptm_config cfg = {
        .hw = &ptm_paging_hw, .hw_ctx = &pp, .vram = &vram, .table_counts = counts, .asid = 3
    };
    struct ptm_translation t;
    struct ptm_usage u;
    uint32_t before;

    (void)state;
    engine_reset(512);
    vs = (struct vsim){ .mem = calloc(1, DDR_BYTES), .bytes = DDR_BYTES };
    fake_paging.after = mirror;
    fake_paging.ctx = &vs;
    fake_paging.max_step = 3;
    assert_non_null(meta);
    assert_non_null(counts);
    assert_int_equal(vram_alloc_init(&vram, meta, meta_bytes, DDR_BYTES), VRAM_OK);
    assert_int_equal(pq_init(&q), PQ_OK);
    ptm_paging_init(&pp, &q, vs_read64, vs_drop, &vs, 1ull << 48);

    assert_int_equal(ptm_init(&pm, &cfg), PTM_OK);
    assert_false(pq_busy(&q));

    before = q.stats.packets;
    assert_int_equal(ptm_map(&pm, 0x40000000, 0x200000, 0x200000, 1, 0, PTM_PAGE_4K), PTM_OK);
    assert_false(pq_busy(&q));
    /* 3 new tables (FILL each), 512 leaves in one run, 3 table pointers,
     * the flush, the fence; plus the reserved list's links. */
    assert_true(q.stats.packets - before < 20);
    assert_int_equal(model.n_flushes, 1);
    assert_int_equal(model.flushes[0].asid, 3);
    assert_int_equal(model.flushes[0].first_page, 0x40000);
    assert_int_equal(model.flushes[0].last_page, 0x401FF);
    for (uint64_t va = 0x40000000; va < 0x40200000; va += 0x1000) {
        struct gmmu_ref_result r = translate(ptm_root(&pm), va);

        assert_int_equal(r.fault, GMMU_FAULT_NONE);
        assert_int_equal(r.pa, 0x200000 + (va - 0x40000000));
    }

    /* An AXI error in the next command's packets. */
    fake_paging.fail_armed = true;
    fake_paging.fail_packet = fake_paging.packets_done + 1;
    fake_paging.fail_code = GMMU_PAGING_ERR_AXI_WRITE;
    assert_int_equal(ptm_map(&pm, 0x80000000, 0x400000, 0x10000, 1, 0, PTM_PAGE_64K),
                     PTM_ERR_ENGINE);
    assert_int_equal(fake_paging.restarts, 1);
    assert_int_equal(pp.stats.last_err_code, GMMU_PAGING_ERR_AXI_WRITE);
    assert_false(fake_paging.status & GMMU_PAGING_STATUS_ERROR);

    /* Later commands work, and what the tables say is what completed. */
    assert_int_equal(ptm_unmap(&pm, 0x40000000, 0x1000), PTM_OK);
    assert_int_equal(translate(ptm_root(&pm), 0x40000000).fault, GMMU_FAULT_INVALID);
    assert_int_equal(translate(ptm_root(&pm), 0x40001000).pa, 0x201000);
    assert_int_equal(ptm_query(&pm, 0x40001000, &t), PTM_OK);
    assert_int_equal(t.pa, 0x201000);
    assert_int_equal(ptm_unmap(&pm, 0, 1ull << 40), PTM_OK);
    assert_int_equal(translate(ptm_root(&pm), 0x40001000).fault, GMMU_FAULT_INVALID);
    ptm_usage(&pm, &u);
    ptm_destroy(&pm);
    assert_false(pq_busy(&q));
    assert_true(pp.stats.syncs > 0);
    assert_true(vs.drops > 0);
    free(vs.mem);
    free(meta);
    free(counts);
}

/* The leaf passes read a 64 KB chunk's 16 entries as one run (read_run):
 * a run over entries still queued must wait for them like a single read
 * does. Inside a batch nothing waits for the engine between commands:
 * the map of page 17 is queued when the unmap reads chunk 1. Read before
 * that packet ran, page 17 would read invalid and stay mapped, and the
 * leaf table's count would keep it. */
static void test_ptmgr_engine_run_read_waits(void **state)
{
    struct vram_alloc vram;
    size_t meta_bytes = vram_alloc_metadata_bytes(DDR_BYTES);
    void *meta = malloc(meta_bytes);
    struct ptm_paging pp;
    struct ptm pm;
    uint32_t *counts = malloc(PTM_COUNT_WORDS(DDR_BYTES) * sizeof(uint32_t));
    struct ptm_config cfg = {
        .hw = &ptm_paging_hw, .hw_ctx = &pp, .vram = &vram, .table_counts = counts, .asid = 1
    };
    struct ptm_usage u;
    const uint64_t va = 0x40000000;

    (void)state;
    engine_reset(512);
    vs = (struct vsim){ .mem = calloc(1, DDR_BYTES), .bytes = DDR_BYTES };
    fake_paging.after = mirror;
    fake_paging.ctx = &vs;
    fake_paging.max_step = 1;
    assert_non_null(meta);
    assert_non_null(counts);
    assert_int_equal(vram_alloc_init(&vram, meta, meta_bytes, DDR_BYTES), VRAM_OK);
    assert_int_equal(pq_init(&q), PQ_OK);
    ptm_paging_init(&pp, &q, vs_read64, vs_drop, &vs, 1ull << 48);
    assert_int_equal(ptm_init(&pm, &cfg), PTM_OK);

    assert_int_equal(ptm_map(&pm, va, 0x200000, 0x1000, 1, 0, PTM_PAGE_4K), PTM_OK);
    ptm_batch_begin(&pm);
    assert_int_equal(ptm_map(&pm, va + 17 * 0x1000, 0x300000, 0x1000, 1, 0, PTM_PAGE_4K), PTM_OK);
    ptm_usage(&pm, &u);
    assert_int_equal(u.leaf4k_tables, 1);
    assert_int_equal(ptm_unmap(&pm, va, 18 * 0x1000), PTM_OK);
    assert_int_equal(ptm_batch_end(&pm), PTM_OK);
    ptm_usage(&pm, &u);
    assert_int_equal(u.leaf4k_tables, 0);
    assert_int_equal(translate(ptm_root(&pm), va + 17 * 0x1000).fault, GMMU_FAULT_INVALID);
    ptm_destroy(&pm);
    free(vs.mem);
    free(meta);
    free(counts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_absent, teardown),
        cmocka_unit_test_teardown(test_encoders, teardown),
        cmocka_unit_test_teardown(test_wrap, teardown),
        cmocka_unit_test_teardown(test_full_queue, teardown),
        cmocka_unit_test_teardown(test_error_restart, teardown),
        cmocka_unit_test_teardown(test_malformed, teardown),
        cmocka_unit_test_teardown(test_init_takes_ring, teardown),
        cmocka_unit_test_teardown(test_ptmgr_on_engine, teardown),
        cmocka_unit_test_teardown(test_ptmgr_engine_run_read_waits, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
