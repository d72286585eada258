// SPDX-License-Identifier: Apache-2.0
/*
 * End to end on the simulated SoC: the host maps memory through VidMm, a
 * GPU engine reads and writes it by GPU VA through the MMU, and the host
 * checks the bytes through the BAR1 aperture. Expected memory contents and
 * checksums are computed here, independently of the device.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soc_test_util.h"

#define KIB             1024ull
#define MIB             (1024ull * KIB)
#define FAULT_INVALID   1u
#define FAULT_READ_ONLY 2u

static struct gmmu_dev *dev;

static struct soc_buffer make_buffer(uint32_t as, uint64_t size, uint32_t map_flags, uint32_t pages)
{
    return soc_make_buffer(dev, as, size, GMMU_ALLOC_FLAG_CONTIGUOUS, map_flags, pages);
}

static struct gmmu_engine_rsp run(uint32_t engine, uint32_t op, uint32_t as, uint64_t dst,
                                  uint64_t src, uint32_t len, uint64_t pattern)
{
    return soc_engine_run(dev, engine, op, as, dst, src, len, pattern);
}

static unsigned fault_reason(const struct gmmu_engine_rsp *r)
{
    return (r->engine_status >> 4) & 7u;
}

static void test_fill_copy_checksum_through_the_mmu(void **state)
{
    (void)state;
    struct gmmu_vram_rsp v0, v1;
    assert_int_equal(gmmu_get_vram(dev, &v0), 0);
    uint32_t as, asid;
    assert_int_equal(gmmu_create_as(dev, &as, &asid), 0);
    /* A with 4 KB pages, B with the largest pages it can get. */
    struct soc_buffer a = make_buffer(as, 256 * KIB, 0, 0x1);
    struct soc_buffer b = make_buffer(as, 2 * MIB, 0, 0);
    enum { LEN = 64 * 1024 };
    const uint64_t pattern = 0x0123456789ABCDEFull;

    struct gmmu_engine_rsp r = run(0, 0 /* fill */, as, a.va + 4 * KIB, 0, LEN, pattern);
    assert_int_equal(r.engine_status & 0x4, 0);
    assert_int_equal(r.bytes_done, LEN);
    uint64_t *got = malloc(LEN + 8 * KIB);
    assert_int_equal(gmmu_vram_read(dev, a.base, got, LEN + 8 * KIB), 0);
    for (size_t i = 0; i < (LEN + 8 * KIB) / 8; i++) {
        uint64_t want = (i >= 512 && i < 512 + LEN / 8) ? pattern : got[i];
        if (got[i] != want)
            fail_msg("fill: word %zu is %llx", i, (unsigned long long)got[i]);
    }
    for (size_t i = 512; i < 512 + LEN / 8; i++)
        assert_int_equal(got[i], pattern);

    /* Copy A -> B on another engine, then compare B through the aperture. */
    r = run(1, 1 /* copy */, as, b.va + 1 * MIB, a.va + 4 * KIB, LEN, 0);
    assert_int_equal(r.engine_status & 0x4, 0);
    assert_int_equal(gmmu_vram_read(dev, b.base + 1 * MIB, got, LEN), 0);
    for (size_t i = 0; i < LEN / 8; i++)
        assert_int_equal(got[i], pattern);

    /* Checksum on a third engine: s1 = sum of words, s2 = sum of running s1. */
    uint64_t s1 = 0, s2 = 0;
    for (size_t i = 0; i < LEN / 8; i++) {
        s1 += pattern;
        s2 += s1;
    }
    r = run(2, 2 /* checksum */, as, 0, b.va + 1 * MIB, LEN, 0);
    assert_int_equal(r.result, s1);
    assert_int_equal(r.result2, s2);

    free(got);
    assert_int_equal(gmmu_free(dev, a.alloc), 0);
    assert_int_equal(gmmu_free(dev, b.alloc), 0);
    assert_int_equal(gmmu_destroy_as(dev, as), 0);
    assert_int_equal(gmmu_get_vram(dev, &v1), 0);
    assert_int_equal(v1.free_bytes, v0.free_bytes);
}

static void test_faults_isolation_and_use_after_unmap(void **state)
{
    (void)state;
    uint32_t as1, as2, asid;
    assert_int_equal(gmmu_create_as(dev, &as1, &asid), 0);
    assert_int_equal(gmmu_create_as(dev, &as2, &asid), 0);
    struct soc_buffer a = make_buffer(as1, 64 * KIB, 0, 0);
    struct soc_buffer ro = make_buffer(as1, 64 * KIB, GMMU_MAP_FLAG_READ_ONLY, 0);

    /* Read-only: the write faults at the first chunk, nothing is written. */
    struct gmmu_engine_rsp r = run(3, 0, as1, ro.va, 0, 4 * KIB, 0x1111);
    assert_int_equal(r.engine_status & 0x4, 0x4);
    assert_int_equal(fault_reason(&r), FAULT_READ_ONLY);
    assert_int_equal(r.fault_va, ro.va);
    assert_int_equal(r.bytes_done, 0);

    /* Isolation: the same VA in another address space is not mapped. */
    r = run(0, 0, as2, a.va, 0, 4 * KIB, 0x2222);
    assert_int_equal(fault_reason(&r), FAULT_INVALID);
    uint64_t w = 0;
    assert_int_equal(gmmu_vram_read(dev, a.base, &w, 8), 0);
    assert_int_not_equal(w, 0x2222);

    /* Warm the TLBs, unmap, and the old VA must fault. */
    r = run(1, 0, as1, a.va, 0, 4 * KIB, 0x3333);
    assert_int_equal(r.engine_status & 0x4, 0);
    assert_int_equal(gmmu_unmap_va(dev, as1, a.va, 64 * KIB), 0);
    r = run(1, 0, as1, a.va, 0, 4 * KIB, 0x4444);
    assert_int_equal(fault_reason(&r), FAULT_INVALID);
    assert_int_equal(r.fault_va, a.va);
    assert_int_equal(gmmu_vram_read(dev, a.base, &w, 8), 0);
    assert_int_equal(w, 0x3333);

    assert_int_equal(gmmu_free(dev, a.alloc), 0);
    assert_int_equal(gmmu_free(dev, ro.alloc), 0);
    assert_int_equal(gmmu_destroy_as(dev, as1), 0);
    assert_int_equal(gmmu_destroy_as(dev, as2), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_copy_checksum_through_the_mmu),
        cmocka_unit_test(test_faults_isolation_and_use_after_unmap),
    };
    return soc_run_tests(tests, &dev);
}
