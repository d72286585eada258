// SPDX-License-Identifier: Apache-2.0
/* Unit tests of the translation reference model (tests/model/gmmu_ref.c)
 * and the PTE helpers (include/gmmu/pte_util.h).
 *
 * Tables are hand-built in a small VRAM array. Every expected address, entry
 * offset, fault and read count below is worked out by hand and written as a
 * literal, so the tests do not share the model's arithmetic. The PTE
 * builders are checked against literal words first, then used to fill
 * tables readably.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gmmu/pte_util.h"
#include "gmmu_ref.h"

/* ------------------------------------------------------------ test VRAM */

#define VRAM_BYTES 0x10000u

struct vram {
    uint8_t bytes[VRAM_BYTES];
    bool fail_enabled; /* make the read of fail_offset a bus error */
    uint64_t fail_offset;
    unsigned reads;
};

static struct vram vram;

static int vram_read64(void *ctx, uint64_t offset, uint64_t *value)
{
    struct vram *mem = ctx;
    uint64_t word = 0;

    mem->reads++;
    assert_int_equal(offset % 8, 0); /* the model must never read unaligned */
    if (offset > VRAM_BYTES - 8)
        return -1;
    if (mem->fail_enabled && offset == mem->fail_offset)
        return -1;
    for (int i = 7; i >= 0; i--)
        word = (word << 8) | mem->bytes[offset + (unsigned)i];
    *value = word;
    return 0;
}

static void put(uint64_t offset, uint64_t word)
{
    assert_true(offset + 8 <= VRAM_BYTES);
    for (unsigned i = 0; i < 8; i++)
        vram.bytes[offset + i] = (uint8_t)(word >> (8 * i));
}

static void fail_read_at(uint64_t offset)
{
    vram.fail_enabled = true;
    vram.fail_offset = offset;
}

static int reset_vram(void **state)
{
    (void)state;
    memset(&vram, 0, sizeof vram);
    return 0;
}

/* ------------------------------------------------------ the test layout */

/* Tables (VRAM offsets) of the four-level layout most tests use. */
#define L3_TABLE 0x1000u
#define L2_TABLE 0x2000u
#define L1_TABLE 0x4000u /* 8 KB dual table */
#define LEAF_4K  0x6000u
#define LEAF_64K 0x7100u /* 256-byte aligned on purpose */

/* VA 0x80_C045_3ABC splits into L3 index 1, L2 index 3, L1 index 2,
 * leaf index 0x53 (so 64 KB index 0x53 >> 4 = 5), page offset 0xABC.
 * Entry offsets: 0x1000 + 1*8, 0x2000 + 3*8, 0x4000 + 2*16 (+8),
 * 0x6000 + 0x53*8, 0x7100 + 5*8. */
#define VA             UINT64_C(0x80C0453ABC)
#define L3_ENTRY       0x1008u
#define L2_ENTRY       0x2018u
#define L1_WORD0       0x4020u
#define L1_WORD1       0x4028u
#define LEAF_4K_ENTRY  0x6298u
#define LEAF_64K_ENTRY 0x7128u

/* Pages the tests map, and what VA translates to through each. */
#define PAGE_4K  UINT64_C(0x123456000)
#define PA_4K    UINT64_C(0x123456ABC) /* | VA[11:0] */
#define PAGE_64K UINT64_C(0xABC0000)
#define PA_64K   UINT64_C(0xABC3ABC) /* | VA[15:0] */
#define PAGE_2M  UINT64_C(0x40600000)
#define PA_2M    UINT64_C(0x40653ABC) /* | VA[20:0] */
#define PAGE_1G  UINT64_C(0x140000000)
#define PA_1G    UINT64_C(0x140453ABC) /* | VA[29:0] */

static void map_down_to_l1(void)
{
    put(L3_ENTRY, gmmu_pte_make_table(L2_TABLE));
    put(L2_ENTRY, gmmu_pte_make_table(L1_TABLE));
}

static void map_4k_page(uint64_t leaf_entry)
{
    map_down_to_l1();
    put(L1_WORD0, gmmu_pte_make_table(LEAF_4K));
    put(LEAF_4K_ENTRY, leaf_entry);
}

static void map_64k_page(uint64_t leaf_entry)
{
    map_down_to_l1();
    put(L1_WORD1, gmmu_pte_make_table_64k(LEAF_64K));
    put(LEAF_64K_ENTRY, leaf_entry);
}

/* ----------------------------------------------------- walk and expect */

static struct gmmu_ref_result translate(unsigned levels, uint64_t root, uint64_t va,
                                        enum gmmu_access access)
{
    struct gmmu_ref_config config = { .levels = levels };
    struct gmmu_ref_result result;

    vram.reads = 0;
    gmmu_ref_translate(&config, vram_read64, &vram, true, root, va, access, &result);
    assert_int_equal(result.reads, vram.reads);
    return result;
}

static struct gmmu_ref_result read4(uint64_t va)
{
    return translate(4, L3_TABLE, va, GMMU_ACCESS_READ);
}

static void expect_fault_name(enum gmmu_fault actual, enum gmmu_fault expected)
{
    assert_string_equal(gmmu_ref_fault_name(actual), gmmu_ref_fault_name(expected));
}

static void expect_page(struct gmmu_ref_result r, uint64_t pa, unsigned page_shift, unsigned level,
                        unsigned reads)
{
    expect_fault_name(r.fault, GMMU_FAULT_NONE);
    assert_false(r.zero);
    assert_int_equal(r.pa, pa);
    assert_int_equal(r.page_shift, page_shift);
    assert_int_equal(r.level, level);
    assert_int_equal(r.reads, reads);
}

static void expect_zero(struct gmmu_ref_result r, unsigned page_shift, unsigned level,
                        unsigned reads)
{
    expect_fault_name(r.fault, GMMU_FAULT_NONE);
    assert_true(r.zero);
    assert_int_equal(r.pa, 0);
    assert_int_equal(r.page_shift, page_shift);
    assert_int_equal(r.level, level);
    assert_int_equal(r.reads, reads);
}

/* A faulted result carries nothing but the reason, level and read count. */
static void expect_fault(struct gmmu_ref_result r, enum gmmu_fault fault, unsigned level,
                         unsigned reads)
{
    expect_fault_name(r.fault, fault);
    assert_int_equal(r.level, level);
    assert_int_equal(r.reads, reads);
    assert_false(r.zero);
    assert_int_equal(r.pa, 0);
    assert_int_equal(r.segment, 0);
    assert_int_equal(r.page_shift, 0);
    assert_false(r.cache_coherent);
    assert_false(r.read_only);
    assert_false(r.no_execute);
}

/* ---------------------------------------------------------- pte_util.h */

static void test_pte_builders_match_literal_words(void **state)
{
    (void)state;
    assert_int_equal(gmmu_pte_make_table(0x2000), UINT64_C(0x0010000000002001));
    assert_int_equal(gmmu_pte_make_table_64k(0x7100), UINT64_C(0x0010000000007141));
    assert_int_equal(gmmu_pte_make_page(UINT64_C(0x123456000), 1, 0), UINT64_C(0x0010000123456001));
    assert_int_equal(gmmu_pte_make_page(UINT64_C(0x123456000), 0, GMMU_PTE_PAGE_ATTRS),
                     UINT64_C(0x000000012345601D));
    assert_int_equal(gmmu_pte_make_large_page(UINT64_C(0x40600000), 1, GMMU_PTE_READ_ONLY),
                     UINT64_C(0x0010000040600029));
    assert_int_equal(gmmu_pte_make_zero(GMMU_PTE_NO_EXECUTE), UINT64_C(0x13));
    /* Out-of-field bits are dropped: address bits 7:0 and 63:52, segment
     * bits above 4, attribute bits that are not page attributes. */
    assert_int_equal(gmmu_pte_make_page(UINT64_MAX, 31, UINT64_MAX), UINT64_C(0x01FFFFFFFFFFFF1D));
    assert_int_equal(gmmu_pte_make_page(0, 32, 0), UINT64_C(0x1));
}

static void test_pte_decoders_read_each_field(void **state)
{
    (void)state;
    assert_int_equal(gmmu_pte_addr(UINT64_C(0x0010000000007141)), 0x7100);
    assert_int_equal(gmmu_pte_segment(UINT64_C(0x0010000000007141)), 1);
    assert_true(gmmu_pte_is_table_64k(UINT64_C(0x0010000000007141)));
    assert_int_equal(gmmu_pte_addr(UINT64_MAX), UINT64_C(0x000FFFFFFFFFFF00));
    assert_int_equal(gmmu_pte_segment(UINT64_MAX), 31);

    assert_true(gmmu_pte_is_valid(0x01));
    assert_true(gmmu_pte_is_zero(0x02));
    assert_true(gmmu_pte_is_cache_coherent(0x04));
    assert_true(gmmu_pte_is_read_only(0x08));
    assert_true(gmmu_pte_is_no_execute(0x10));
    assert_true(gmmu_pte_is_large_page(0x20));
    assert_true(gmmu_pte_is_table_64k(0x40));
    /* Each decoder looks at its own bit only. */
    assert_false(gmmu_pte_is_valid(~UINT64_C(0x01)));
    assert_false(gmmu_pte_is_zero(~UINT64_C(0x02)));
    assert_false(gmmu_pte_is_cache_coherent(~UINT64_C(0x04)));
    assert_false(gmmu_pte_is_read_only(~UINT64_C(0x08)));
    assert_false(gmmu_pte_is_no_execute(~UINT64_C(0x10)));
    assert_false(gmmu_pte_is_large_page(~UINT64_C(0x20)));
    assert_false(gmmu_pte_is_table_64k(~UINT64_C(0x40)));
}

static void test_va_geometry(void **state)
{
    (void)state;
    assert_int_equal(gmmu_va_bits(2), 30);
    assert_int_equal(gmmu_va_bits(3), 39);
    assert_int_equal(gmmu_va_bits(4), 48);
    assert_int_equal(gmmu_level_shift(0), 12);
    assert_int_equal(gmmu_level_shift(1), 21);
    assert_int_equal(gmmu_level_shift(2), 30);
    assert_int_equal(gmmu_level_shift(3), 39);
    assert_int_equal(gmmu_va_index(VA, 3), 1);
    assert_int_equal(gmmu_va_index(VA, 2), 3);
    assert_int_equal(gmmu_va_index(VA, 1), 2);
    assert_int_equal(gmmu_va_index(VA, 0), 0x53);
    assert_int_equal(gmmu_va_index_64k(VA), 5);
    assert_int_equal(gmmu_va_index(UINT64_C(0xFFFFFFFFFFFF), 3), 0x1FF);
    assert_int_equal(gmmu_va_index_64k(UINT64_C(0x1F0000)), 31);
}

/* ------------------------------------------------------- page sizes */

/* The walk of docs/page-tables.md, with every word written out. */
static void test_4k_page_from_raw_words(void **state)
{
    (void)state;
    put(0x1008, UINT64_C(0x0010000000002001));
    put(0x2018, UINT64_C(0x0010000000004001));
    put(0x4020, UINT64_C(0x0010000000006001));
    put(0x6298, UINT64_C(0x0010000123456019)); /* READ_ONLY | NO_EXECUTE */

    struct gmmu_ref_result r = read4(VA);
    expect_page(r, UINT64_C(0x123456ABC), 12, 0, 5);
    assert_int_equal(r.segment, 1);
    assert_false(r.cache_coherent);
    assert_true(r.read_only);
    assert_true(r.no_execute);
    expect_fault(translate(4, 0x1000, VA, GMMU_ACCESS_WRITE), GMMU_FAULT_READ_ONLY, 0, 5);
    expect_fault(translate(4, 0x1000, VA, GMMU_ACCESS_EXECUTE), GMMU_FAULT_NO_EXECUTE, 0, 5);
}

static void test_64k_page_with_only_word1_valid(void **state)
{
    (void)state;
    map_64k_page(gmmu_pte_make_page(PAGE_64K, 1, 0));
    expect_page(read4(VA), PA_64K, 16, 0, 5);
}

static void test_2m_page_ignores_word1(void **state)
{
    (void)state;
    map_down_to_l1();
    put(L1_WORD0, gmmu_pte_make_large_page(PAGE_2M, 1, 0));
    put(L1_WORD1, GMMU_PTE_VALID | GMMU_PTE_LARGE_PAGE); /* would fault if looked at */
    expect_page(read4(VA), PA_2M, 21, 1, 4);
}

static void test_1g_page(void **state)
{
    (void)state;
    put(L3_ENTRY, gmmu_pte_make_table(L2_TABLE));
    put(L2_ENTRY, gmmu_pte_make_large_page(PAGE_1G, 1, 0));
    expect_page(read4(VA), PA_1G, 30, 2, 2);
}

static void test_misaligned_page_addresses_are_masked(void **state)
{
    (void)state;
    put(L3_ENTRY, gmmu_pte_make_table(L2_TABLE));
    put(L2_ENTRY, gmmu_pte_make_large_page(UINT64_C(0x17FFFFF00), 1, 0));
    expect_page(read4(VA), PA_1G, 30, 2, 2);

    put(L2_ENTRY, gmmu_pte_make_table(L1_TABLE));
    put(L1_WORD0, gmmu_pte_make_large_page(UINT64_C(0x407FFF00), 1, 0));
    expect_page(read4(VA), PA_2M, 21, 1, 4);

    put(L1_WORD0, 0);
    map_64k_page(gmmu_pte_make_page(UINT64_C(0xABCFF00), 1, 0));
    expect_page(read4(VA), PA_64K, 16, 0, 5);

    map_4k_page(gmmu_pte_make_page(UINT64_C(0x123456F00), 1, 0));
    expect_page(read4(VA), PA_4K, 12, 0, 5);
}

/* --------------------------------------------------------- dual PTE */

static void test_dual_both_valid_4k_wins(void **state)
{
    (void)state;
    map_64k_page(gmmu_pte_make_page(PAGE_64K, 1, 0));
    map_4k_page(gmmu_pte_make_page(PAGE_4K, 1, 0));
    expect_page(read4(VA), PA_4K, 12, 0, 5);
}

static void test_dual_4k_hole_falls_through_to_64k(void **state)
{
    (void)state;
    map_64k_page(gmmu_pte_make_page(PAGE_64K, 1, 0));
    map_4k_page(0);
    put(LEAF_4K_ENTRY - 8, gmmu_pte_make_page(PAGE_4K, 1, 0)); /* a neighbour only */
    expect_page(read4(VA), PA_64K, 16, 0, 6);
}

static void test_dual_4k_hole_over_zero_word1(void **state)
{
    (void)state;
    map_4k_page(0);
    put(L1_WORD1, gmmu_pte_make_zero(0));
    expect_zero(read4(VA), 21, 1, 5);
}

static void test_2_level_uses_the_whole_8k_root(void **state)
{
    (void)state;
    /* VA 0x3FFFFFFF: L1 index 0x1FF, entry at 0x4000 + 0x1FF*16 = 0x5FF0. */
    put(0x5FF0, gmmu_pte_make_large_page(0x200000, 1, 0));
    expect_page(translate(2, L1_TABLE, UINT64_C(0x3FFFFFFF), GMMU_ACCESS_READ), 0x3FFFFF, 21, 1, 2);
}

/* ------------------------------------------------- attributes, permissions */

struct attribute_case {
    uint64_t leaf_entry;
    unsigned segment;
    bool cache_coherent, read_only, no_execute;
};

static void test_each_attribute_reaches_the_result(void **state)
{
    static const struct attribute_case cases[] = {
        { UINT64_C(0x0010000123456001), 1, false, false, false },
        { UINT64_C(0x0010000123456005), 1, true, false, false },
        { UINT64_C(0x0010000123456009), 1, false, true, false },
        { UINT64_C(0x0010000123456011), 1, false, false, true },
        { UINT64_C(0x0000000123456001), 0, false, false, false },
        { UINT64_C(0x01F000012345601D), 31, true, true, true },
        { UINT64_C(0x0010000123456041), 1, false, false, false }, /* TABLE_64K: no meaning here */
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        map_4k_page(cases[i].leaf_entry);
        struct gmmu_ref_result r = read4(VA);
        expect_page(r, PA_4K, 12, 0, 5);
        assert_int_equal(r.segment, cases[i].segment);
        assert_int_equal(r.cache_coherent, cases[i].cache_coherent);
        assert_int_equal(r.read_only, cases[i].read_only);
        assert_int_equal(r.no_execute, cases[i].no_execute);
    }
}

static void test_large_page_attributes(void **state)
{
    (void)state;
    map_down_to_l1();
    put(L1_WORD0,
        gmmu_pte_make_large_page(PAGE_2M, 0, GMMU_PTE_CACHE_COHERENT | GMMU_PTE_NO_EXECUTE));
    struct gmmu_ref_result r = read4(VA);
    expect_page(r, PA_2M, 21, 1, 4);
    assert_int_equal(r.segment, 0);
    assert_true(r.cache_coherent);
    assert_false(r.read_only);
    assert_true(r.no_execute);
}

struct permission_case {
    uint64_t attrs;
    enum gmmu_access access;
    enum gmmu_fault fault;
};

static void test_permissions(void **state)
{
    static const struct permission_case cases[] = {
        { 0, GMMU_ACCESS_READ, GMMU_FAULT_NONE },
        { 0, GMMU_ACCESS_WRITE, GMMU_FAULT_NONE },
        { 0, GMMU_ACCESS_EXECUTE, GMMU_FAULT_NONE },
        { GMMU_PTE_READ_ONLY, GMMU_ACCESS_READ, GMMU_FAULT_NONE },
        { GMMU_PTE_READ_ONLY, GMMU_ACCESS_WRITE, GMMU_FAULT_READ_ONLY },
        { GMMU_PTE_READ_ONLY, GMMU_ACCESS_EXECUTE, GMMU_FAULT_NONE },
        { GMMU_PTE_NO_EXECUTE, GMMU_ACCESS_READ, GMMU_FAULT_NONE },
        { GMMU_PTE_NO_EXECUTE, GMMU_ACCESS_WRITE, GMMU_FAULT_NONE },
        { GMMU_PTE_NO_EXECUTE, GMMU_ACCESS_EXECUTE, GMMU_FAULT_NO_EXECUTE },
        { GMMU_PTE_READ_ONLY | GMMU_PTE_NO_EXECUTE, GMMU_ACCESS_READ, GMMU_FAULT_NONE },
        { GMMU_PTE_READ_ONLY | GMMU_PTE_NO_EXECUTE, GMMU_ACCESS_WRITE, GMMU_FAULT_READ_ONLY },
        { GMMU_PTE_READ_ONLY | GMMU_PTE_NO_EXECUTE, GMMU_ACCESS_EXECUTE, GMMU_FAULT_NO_EXECUTE },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        map_4k_page(gmmu_pte_make_page(PAGE_4K, 1, cases[i].attrs));
        struct gmmu_ref_result r = translate(4, L3_TABLE, VA, cases[i].access);
        if (cases[i].fault == GMMU_FAULT_NONE)
            expect_page(r, PA_4K, 12, 0, 5);
        else
            expect_fault(r, cases[i].fault, 0, 5);
    }
}

static void test_permission_on_large_page(void **state)
{
    (void)state;
    put(L3_ENTRY, gmmu_pte_make_table(L2_TABLE));
    put(L2_ENTRY, gmmu_pte_make_large_page(PAGE_1G, 1, GMMU_PTE_READ_ONLY));
    expect_fault(translate(4, L3_TABLE, VA, GMMU_ACCESS_WRITE), GMMU_FAULT_READ_ONLY, 2, 2);
}

/* --------------------------------------------------------------- zero */

static void test_zero_at_4k_leaf(void **state)
{
    (void)state;
    map_4k_page(gmmu_pte_make_zero(GMMU_PTE_CACHE_COHERENT));
    struct gmmu_ref_result r = translate(4, L3_TABLE, VA, GMMU_ACCESS_WRITE);
    expect_zero(r, 12, 0, 5);
    assert_true(r.cache_coherent);
}

static void test_zero_at_64k_leaf(void **state)
{
    (void)state;
    map_64k_page(gmmu_pte_make_zero(0));
    expect_zero(read4(VA), 16, 0, 5);
}

static void test_zero_in_each_dual_word(void **state)
{
    (void)state;
    map_down_to_l1();
    put(L1_WORD0, gmmu_pte_make_zero(0));
    expect_zero(read4(VA), 21, 1, 4);

    put(L1_WORD0, 0);
    put(L1_WORD1, gmmu_pte_make_zero(0));
    expect_zero(read4(VA), 21, 1, 4);
}

static void test_zero_at_level_2_and_3(void **state)
{
    (void)state;
    put(L3_ENTRY, gmmu_pte_make_table(L2_TABLE));
    put(L2_ENTRY, gmmu_pte_make_zero(0));
    expect_zero(read4(VA), 30, 2, 2);

    put(L3_ENTRY, gmmu_pte_make_zero(0));
    expect_zero(read4(VA), 39, 3, 1);
}

static void test_zero_beats_large_page(void **state)
{
    (void)state;
    put(L3_ENTRY, gmmu_pte_make_zero(0) | GMMU_PTE_LARGE_PAGE);
    expect_zero(read4(VA), 39, 3, 1);

    map_4k_page(gmmu_pte_make_zero(0) | GMMU_PTE_LARGE_PAGE);
    expect_zero(read4(VA), 12, 0, 5);
}

static void test_read_only_zero_faults_writes(void **state)
{
    (void)state;
    map_4k_page(gmmu_pte_make_zero(GMMU_PTE_READ_ONLY));
    expect_fault(translate(4, L3_TABLE, VA, GMMU_ACCESS_WRITE), GMMU_FAULT_READ_ONLY, 0, 5);
    expect_zero(read4(VA), 12, 0, 5);
}

static void test_zero_without_valid_is_invalid(void **state)
{
    (void)state;
    put(L3_ENTRY, GMMU_PTE_ZERO);
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 3, 1);
}

/* ------------------------------------------------------ INVALID faults */

static void test_invalid_at_each_level(void **state)
{
    (void)state;
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 3, 1);

    put(L3_ENTRY, gmmu_pte_make_table(L2_TABLE));
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 2, 2);

    put(L2_ENTRY, gmmu_pte_make_table(L1_TABLE));
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 1, 4);

    put(L1_WORD0, gmmu_pte_make_table(LEAF_4K));
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 0, 5);

    put(L1_WORD1, gmmu_pte_make_table_64k(LEAF_64K));
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 0, 6);

    put(L1_WORD0, 0);
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 0, 5);
}

static void test_table_pointer_outside_vram(void **state)
{
    (void)state;
    put(L3_ENTRY, gmmu_pte_make_table(L2_TABLE) & ~GMMU_PTE_SEGMENT); /* segment 0 */
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 3, 1);

    map_down_to_l1();
    put(L1_WORD0, GMMU_PTE_VALID | LEAF_4K | (UINT64_C(2) << 52)); /* segment 2 */
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 1, 4);

    /* A bad 4 KB-table pointer faults; it does not fall through to word 1. */
    map_64k_page(gmmu_pte_make_page(PAGE_64K, 1, 0));
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 1, 4);

    put(L1_WORD0, 0);
    put(L1_WORD1, GMMU_PTE_VALID | LEAF_64K); /* segment 0 */
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 1, 4);
}

static void test_large_page_at_root_level_3_is_invalid(void **state)
{
    (void)state;
    put(L3_ENTRY, gmmu_pte_make_large_page(0, 1, 0));
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 3, 1);
}

static void test_large_page_in_leaf_tables_is_invalid(void **state)
{
    (void)state;
    map_4k_page(gmmu_pte_make_page(PAGE_4K, 1, 0) | GMMU_PTE_LARGE_PAGE);
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 0, 5);

    put(L1_WORD0, 0);
    map_64k_page(gmmu_pte_make_page(PAGE_64K, 1, 0) | GMMU_PTE_LARGE_PAGE);
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 0, 5);
}

static void test_large_page_in_word1_is_invalid(void **state)
{
    (void)state;
    map_down_to_l1();
    put(L1_WORD1, gmmu_pte_make_large_page(PAGE_2M, 1, 0));
    expect_fault(read4(VA), GMMU_FAULT_INVALID, 1, 4);
}

/* ---------------------------------------------------------- bus errors */

static void test_bus_error_at_each_read(void **state)
{
    (void)state;
    map_4k_page(0);
    map_64k_page(gmmu_pte_make_page(PAGE_64K, 1, 0));
    expect_page(read4(VA), PA_64K, 16, 0, 6); /* the path with six reads */

    fail_read_at(L3_ENTRY);
    expect_fault(read4(VA), GMMU_FAULT_BUS_ERROR, 3, 1);
    fail_read_at(L2_ENTRY);
    expect_fault(read4(VA), GMMU_FAULT_BUS_ERROR, 2, 2);
    fail_read_at(L1_WORD0);
    expect_fault(read4(VA), GMMU_FAULT_BUS_ERROR, 1, 3);
    fail_read_at(L1_WORD1);
    expect_fault(read4(VA), GMMU_FAULT_BUS_ERROR, 1, 4);
    fail_read_at(LEAF_4K_ENTRY);
    expect_fault(read4(VA), GMMU_FAULT_BUS_ERROR, 0, 5);
    fail_read_at(LEAF_64K_ENTRY);
    expect_fault(read4(VA), GMMU_FAULT_BUS_ERROR, 0, 6);
}

static void test_bus_error_in_word1_beside_a_2m_page(void **state)
{
    (void)state;
    map_down_to_l1();
    put(L1_WORD0, gmmu_pte_make_large_page(PAGE_2M, 1, 0));
    fail_read_at(L1_WORD1);
    expect_fault(read4(VA), GMMU_FAULT_BUS_ERROR, 1, 4);
}

static void test_bus_error_for_a_table_beyond_vram(void **state)
{
    (void)state;
    put(L3_ENTRY, gmmu_pte_make_table(UINT64_C(0x100000)));
    expect_fault(read4(VA), GMMU_FAULT_BUS_ERROR, 2, 2);
}

/* ----------------------------------------- VA range, root, other depths */

static void test_va_range(void **state)
{
    (void)state;
    expect_fault(read4(UINT64_C(0x0001000000000000)), GMMU_FAULT_VA_RANGE, 3, 0);
    expect_fault(read4(UINT64_C(0x8000000000000000)), GMMU_FAULT_VA_RANGE, 3, 0);
    /* The top in-range VA walks (and finds an empty root entry). */
    expect_fault(read4(UINT64_C(0x0000FFFFFFFFFFFF)), GMMU_FAULT_INVALID, 3, 1);

    expect_fault(translate(3, L2_TABLE, UINT64_C(0x8000000000), GMMU_ACCESS_READ),
                 GMMU_FAULT_VA_RANGE, 2, 0);
    expect_fault(translate(3, L2_TABLE, UINT64_C(0x7FFFFFFFFF), GMMU_ACCESS_READ),
                 GMMU_FAULT_INVALID, 2, 1);
    expect_fault(translate(2, L1_TABLE, UINT64_C(0x40000000), GMMU_ACCESS_READ),
                 GMMU_FAULT_VA_RANGE, 1, 0);
    expect_fault(translate(2, L1_TABLE, UINT64_C(0x3FFFFFFF), GMMU_ACCESS_READ), GMMU_FAULT_INVALID,
                 1, 2);
}

static void test_root_not_valid(void **state)
{
    struct gmmu_ref_config config = { .levels = 4 };
    struct gmmu_ref_result r;
    (void)state;
    map_4k_page(gmmu_pte_make_page(PAGE_4K, 1, 0));

    gmmu_ref_translate(&config, vram_read64, &vram, false, L3_TABLE, VA, GMMU_ACCESS_READ, &r);
    expect_fault(r, GMMU_FAULT_ASID_INVALID, 3, 0);
    assert_int_equal(vram.reads, 0);

    /* The VA is checked before the root. */
    gmmu_ref_translate(&config, vram_read64, &vram, false, L3_TABLE, UINT64_C(0x0001000000000000),
                       GMMU_ACCESS_READ, &r);
    expect_fault(r, GMMU_FAULT_VA_RANGE, 3, 0);
}

/* Three levels: the root is the level-2 table; VA 0xC0453ABC uses the same
 * level-2, level-1 and leaf indices as VA. */
static void test_3_levels(void **state)
{
    (void)state;
    map_4k_page(gmmu_pte_make_page(PAGE_4K, 1, 0));
    expect_page(translate(3, L2_TABLE, UINT64_C(0xC0453ABC), GMMU_ACCESS_READ), PA_4K, 12, 0, 4);

    /* A large page at a level-2 root is a 1 GB page. */
    put(L2_ENTRY, gmmu_pte_make_large_page(PAGE_1G, 1, 0));
    expect_page(translate(3, L2_TABLE, UINT64_C(0xC0453ABC), GMMU_ACCESS_READ), PA_1G, 30, 2, 1);
}

/* Two levels: the root is the 8 KB level-1 dual table; VA 0x453ABC. */
static void test_2_levels(void **state)
{
    (void)state;
    map_4k_page(gmmu_pte_make_page(PAGE_4K, 1, 0));
    map_64k_page(gmmu_pte_make_page(PAGE_64K, 1, 0));
    expect_page(translate(2, L1_TABLE, UINT64_C(0x453ABC), GMMU_ACCESS_READ), PA_4K, 12, 0, 3);

    put(L1_WORD0, 0);
    expect_page(translate(2, L1_TABLE, UINT64_C(0x453ABC), GMMU_ACCESS_READ), PA_64K, 16, 0, 3);

    put(L1_WORD0, gmmu_pte_make_large_page(PAGE_2M, 1, 0));
    expect_page(translate(2, L1_TABLE, UINT64_C(0x453ABC), GMMU_ACCESS_READ), PA_2M, 21, 1, 2);
}

static void test_fault_names(void **state)
{
    (void)state;
    assert_string_equal(gmmu_ref_fault_name(GMMU_FAULT_NONE), "NONE");
    assert_string_equal(gmmu_ref_fault_name(GMMU_FAULT_VA_RANGE), "VA_RANGE");
    assert_string_equal(gmmu_ref_fault_name((enum gmmu_fault)99), "?");
}

#define TEST(fn) cmocka_unit_test_setup(fn, reset_vram)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST(test_pte_builders_match_literal_words),
        TEST(test_pte_decoders_read_each_field),
        TEST(test_va_geometry),
        TEST(test_4k_page_from_raw_words),
        TEST(test_64k_page_with_only_word1_valid),
        TEST(test_2m_page_ignores_word1),
        TEST(test_1g_page),
        TEST(test_misaligned_page_addresses_are_masked),
        TEST(test_dual_both_valid_4k_wins),
        TEST(test_dual_4k_hole_falls_through_to_64k),
        TEST(test_dual_4k_hole_over_zero_word1),
        TEST(test_2_level_uses_the_whole_8k_root),
        TEST(test_each_attribute_reaches_the_result),
        TEST(test_large_page_attributes),
        TEST(test_permissions),
        TEST(test_permission_on_large_page),
        TEST(test_zero_at_4k_leaf),
        TEST(test_zero_at_64k_leaf),
        TEST(test_zero_in_each_dual_word),
        TEST(test_zero_at_level_2_and_3),
        TEST(test_zero_beats_large_page),
        TEST(test_read_only_zero_faults_writes),
        TEST(test_zero_without_valid_is_invalid),
        TEST(test_invalid_at_each_level),
        TEST(test_table_pointer_outside_vram),
        TEST(test_large_page_at_root_level_3_is_invalid),
        TEST(test_large_page_in_leaf_tables_is_invalid),
        TEST(test_large_page_in_word1_is_invalid),
        TEST(test_bus_error_at_each_read),
        TEST(test_bus_error_in_word1_beside_a_2m_page),
        TEST(test_bus_error_for_a_table_beyond_vram),
        TEST(test_va_range),
        TEST(test_root_not_valid),
        TEST(test_3_levels),
        TEST(test_2_levels),
        TEST(test_fault_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
