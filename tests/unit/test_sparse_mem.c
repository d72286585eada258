// SPDX-License-Identifier: Apache-2.0
/* Unit tests for sim/sparse_mem.c: lazy chunk allocation and byte-exact storage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sparse_mem.h"

#define GIB   (UINT64_C(1) << 30)
#define CHUNK ((uint64_t)SPARSE_MEM_CHUNK_BYTES)

static void untouched_memory_reads_zero_and_allocates_nothing(void **state)
{
    (void)state;
    struct sparse_mem *mem = sparse_mem_create(GIB);
    uint8_t buf[300];
    memset(buf, 0xA5, sizeof buf);

    sparse_mem_read(mem, 0x12345678, buf, sizeof buf);

    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0);
    assert_int_equal(sparse_mem_read_u64(mem, GIB - 8), 0);
    assert_int_equal(sparse_mem_chunks_allocated(mem), 0);
    sparse_mem_destroy(mem);
}

static void three_touched_addresses_allocate_three_chunks(void **state)
{
    (void)state;
    struct sparse_mem *mem = sparse_mem_create(GIB);

    sparse_mem_write_u64(mem, 0x0, 0x1111111111111111u);
    sparse_mem_write_u64(mem, 0x2000000, 0x2222222222222222u);
    sparse_mem_write_u64(mem, GIB - 8, 0x3333333333333333u);
    /* A second write into an already-touched chunk must not allocate. */
    sparse_mem_write_u64(mem, 0x100, 0x4444444444444444u);

    assert_int_equal(sparse_mem_chunks_allocated(mem), 3);
    assert_true(sparse_mem_read_u64(mem, 0x0) == 0x1111111111111111u);
    assert_true(sparse_mem_read_u64(mem, 0x2000000) == 0x2222222222222222u);
    assert_true(sparse_mem_read_u64(mem, GIB - 8) == 0x3333333333333333u);
    assert_true(sparse_mem_read_u64(mem, 0x100) == 0x4444444444444444u);
    assert_true(sparse_mem_read_u64(mem, 0x108) == 0);
    sparse_mem_destroy(mem);
}

static void u64_helpers_are_little_endian(void **state)
{
    (void)state;
    struct sparse_mem *mem = sparse_mem_create(CHUNK);
    uint8_t bytes[8];

    sparse_mem_write_u64(mem, 16, 0x0807060504030201u);
    sparse_mem_read(mem, 16, bytes, sizeof bytes);

    for (unsigned i = 0; i < 8; i++)
        assert_int_equal(bytes[i], i + 1);
    sparse_mem_destroy(mem);
}

static void access_crossing_a_chunk_boundary_splits_correctly(void **state)
{
    (void)state;
    struct sparse_mem *mem = sparse_mem_create(4 * CHUNK);
    uint8_t in[100], out[104];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)(i + 1);
    uint64_t addr = 2 * CHUNK - 40; /* 40 bytes in chunk 1, 60 in chunk 2 */

    sparse_mem_write(mem, addr, in, sizeof in);
    sparse_mem_read(mem, addr - 2, out, sizeof out);

    assert_int_equal(sparse_mem_chunks_allocated(mem), 2);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 0);
    assert_memory_equal(out + 2, in, sizeof in);
    assert_int_equal(out[102], 0);
    assert_int_equal(out[103], 0);
    sparse_mem_destroy(mem);
}

static void write_spanning_three_chunks(void **state)
{
    (void)state;
    struct sparse_mem *mem = sparse_mem_create(8 * CHUNK);
    size_t len = (size_t)CHUNK + 20;
    uint8_t *in = test_malloc(len);
    uint8_t *out = test_malloc(len);
    for (size_t i = 0; i < len; i++)
        in[i] = (uint8_t)(i * 7);

    sparse_mem_write(mem, 3 * CHUNK - 10, in, len); /* 10 + CHUNK + 10 bytes */
    sparse_mem_read(mem, 3 * CHUNK - 10, out, len);

    assert_int_equal(sparse_mem_chunks_allocated(mem), 3);
    assert_memory_equal(out, in, len);
    test_free(in);
    test_free(out);
    sparse_mem_destroy(mem);
}

/* Enough chunks to grow the hash table several times; every chunk must survive rehashing. */
static void many_chunks_survive_table_growth(void **state)
{
    (void)state;
    enum { CHUNKS = 1000 };
    struct sparse_mem *mem = sparse_mem_create(GIB);
    /* Stride of 16 chunks (1 MiB) so that the keys are not consecutive. */
    for (uint64_t i = 0; i < CHUNKS; i++)
        sparse_mem_write_u64(mem, i * 16 * CHUNK + 8 * (i % 100), i * 3 + 1);

    assert_int_equal(sparse_mem_chunks_allocated(mem), CHUNKS);
    for (uint64_t i = 0; i < CHUNKS; i++) {
        assert_true(sparse_mem_read_u64(mem, i * 16 * CHUNK + 8 * (i % 100)) == i * 3 + 1);
        assert_true(sparse_mem_read_u64(mem, i * 16 * CHUNK + CHUNK - 8) == 0);
    }
    sparse_mem_destroy(mem);
}

static void last_byte_of_memory_is_usable(void **state)
{
    (void)state;
    struct sparse_mem *mem = sparse_mem_create(1000); /* not a multiple of the chunk size */
    uint8_t value = 0x5A, back = 0;

    sparse_mem_write(mem, 999, &value, 1);
    sparse_mem_read(mem, 999, &back, 1);

    assert_int_equal(back, 0x5A);
    assert_int_equal(sparse_mem_size(mem), 1000);
    sparse_mem_destroy(mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(untouched_memory_reads_zero_and_allocates_nothing),
        cmocka_unit_test(three_touched_addresses_allocate_three_chunks),
        cmocka_unit_test(u64_helpers_are_little_endian),
        cmocka_unit_test(access_crossing_a_chunk_boundary_splits_correctly),
        cmocka_unit_test(write_spanning_three_chunks),
        cmocka_unit_test(many_chunks_survive_table_growth),
        cmocka_unit_test(last_byte_of_memory_is_usable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
