// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of the VRAM segment allocator (firmware/lib/vram_alloc.c).
 *
 * Expectations come from hand-computed offsets or from a page-per-entry
 * model of the segment, never from the allocator's own bookkeeping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "vram_alloc.h"

#define KiB  1024ull
#define MiB  (1024ull * KiB)
#define GiB  (1024ull * MiB)
#define PAGE 4096ull

/* ------------------------------------------------------------ fixtures */

struct seg {
    struct vram_alloc va;
    uint32_t *meta;
    size_t meta_bytes;
    uint64_t bytes;
};

static struct vram_alloc *seg_init(struct seg *s, uint64_t bytes)
{
    s->bytes = bytes;
    s->meta_bytes = vram_alloc_metadata_bytes(bytes);
    assert_true(s->meta_bytes > 0);
    s->meta = malloc(s->meta_bytes);
    assert_non_null(s->meta);
    assert_int_equal(vram_alloc_init(&s->va, s->meta, s->meta_bytes, bytes), VRAM_OK);
    return &s->va;
}

static void seg_drop(struct seg *s)
{
    free(s->meta);
    s->meta = NULL;
}

static struct vram_stats stats_of(const struct vram_alloc *va)
{
    struct vram_stats st;

    vram_alloc_stats(va, &st);
    return st;
}

/* A copy of the metadata and statistics, to prove a failed call changed nothing. */
struct snapshot {
    uint32_t *meta;
    size_t bytes;
    struct vram_stats st;
};

static void snap_take(struct snapshot *snap, const struct seg *s)
{
    snap->bytes = s->meta_bytes;
    snap->meta = malloc(s->meta_bytes);
    assert_non_null(snap->meta);
    memcpy(snap->meta, s->meta, s->meta_bytes);
    snap->st = stats_of(&s->va);
}

static void snap_check(const struct snapshot *snap, const struct seg *s)
{
    struct vram_stats st = stats_of(&s->va);

    assert_memory_equal(snap->meta, s->meta, snap->bytes);
    assert_int_equal(st.free_bytes, snap->st.free_bytes);
    assert_int_equal(st.used_bytes, snap->st.used_bytes);
    assert_int_equal(st.used_blocks, snap->st.used_blocks);
    assert_int_equal(st.free_blocks, snap->st.free_blocks);
    assert_int_equal(st.largest_free, snap->st.largest_free);
}

static void snap_drop(struct snapshot *snap)
{
    free(snap->meta);
}

/* Each randomized test seeds it: the same seed, the same run. */
static uint64_t rng = 1;
#include "test_rng.h"

/* ------------------------------------------------------ metadata and init */

static void test_metadata_size(void **state)
{
    (void)state;
    /*
     * 256 MiB = 65536 pages: 131071 free bits = 4096 words, summaries
     * 128 + 4 + 1 words, 65535 split bits = 2048 words: 6277 words.
     */
    assert_int_equal(vram_alloc_metadata_bytes(256 * MiB), 6277 * 4);
    /* 4 GiB: 65536 + 2048 + 64 + 2 + 1 free words, 32768 split words. */
    assert_int_equal(vram_alloc_metadata_bytes(4 * GiB), 100419 * 4);
    /* One page: one free word, no split bits. */
    assert_int_equal(vram_alloc_metadata_bytes(PAGE), 4);
    /* 12 pages: 12 + 6 + 3 + 1 free bits, 10 split bits. */
    assert_int_equal(vram_alloc_metadata_bytes(12 * PAGE), 8);
    /* The budget: a little over 3 bits per page. */
    assert_true(vram_alloc_metadata_bytes(256 * MiB) * 8 <= 65536 * 31 / 10);

    assert_int_equal(vram_alloc_metadata_bytes(0), 0);
    assert_int_equal(vram_alloc_metadata_bytes(4095), 0);
    assert_int_equal(vram_alloc_metadata_bytes(PAGE + 1), 0);
    assert_int_equal(vram_alloc_metadata_bytes(4 * GiB + PAGE), 0);
    assert_int_equal(vram_alloc_metadata_bytes(UINT64_MAX), 0);
}

static void test_init_rejects_bad_input(void **state)
{
    struct vram_alloc va;
    size_t need = vram_alloc_metadata_bytes(16 * MiB);
    uint32_t *meta = malloc(need + 8);
    uint64_t off;

    (void)state;
    assert_non_null(meta);
    assert_int_equal(vram_alloc_init(NULL, meta, need, 16 * MiB), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_init(&va, NULL, need, 16 * MiB), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_init(&va, (char *)meta + 1, need, 16 * MiB), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_init(&va, meta, need - 1, 16 * MiB), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_init(&va, meta, need, 0), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_init(&va, meta, need, 16 * MiB + 1), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_init(&va, meta, need, 8 * GiB), VRAM_ERR_INVALID);

    /* A never-initialised allocator refuses work instead of crashing. */
    memset(&va, 0, sizeof(va));
    assert_int_equal(vram_alloc_block(&va, PAGE, &off), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_free_block(&va, 0, NULL), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_reserve(&va, 0, PAGE), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_block(NULL, PAGE, &off), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_free_range(NULL, 0, PAGE), VRAM_ERR_INVALID);

    assert_int_equal(vram_alloc_init(&va, meta, need, 16 * MiB), VRAM_OK);
    assert_int_equal(stats_of(&va).free_bytes, 16 * MiB);
    assert_int_equal(stats_of(&va).largest_free, 16 * MiB);
    assert_int_equal(stats_of(&va).free_blocks, 1);
    assert_int_equal(vram_alloc_block(&va, PAGE, NULL), VRAM_ERR_INVALID);
    vram_alloc_stats(&va, NULL);
    free(meta);
}

static void test_strerror(void **state)
{
    (void)state;
    assert_string_equal(vram_alloc_strerror(VRAM_OK), "ok");
    assert_string_equal(vram_alloc_strerror(VRAM_ERR_NOT_ALLOCATED), "not an allocated block");
    assert_string_equal(vram_alloc_strerror(12345), "unknown error");
}

/* ------------------------------------------------------ exhaust and free */

static void shuffle(uint64_t *v, size_t n)
{
    size_t i;

    for (i = n; i > 1; i--) {
        size_t j = below(i);
        uint64_t t = v[i - 1];

        v[i - 1] = v[j];
        v[j] = t;
    }
}

static void test_exhaust_then_free_all(void **state)
{
    /* 1283 pages: not a power of two, so the tail blocks matter too. */
    const uint64_t bytes = 5 * MiB + 12 * KiB;
    const uint32_t pages = (uint32_t)(bytes / PAGE);
    struct seg s;
    struct vram_alloc *va = seg_init(&s, bytes);
    uint8_t *used = calloc(pages, 1);
    uint64_t *offs = malloc(pages * sizeof(*offs));
    uint32_t *fresh = malloc(s.meta_bytes);
    uint64_t off;
    uint32_t n = 0, i;

    (void)state;
    rng = 0x1234567;
    memcpy(fresh, s.meta, s.meta_bytes);
    /* 4 MiB is the largest aligned power of two in 1283 pages. */
    assert_int_equal(stats_of(va).largest_free, 4 * MiB);

    /* 64 KB blocks while they last, then 4 KB pages. */
    while (vram_alloc_block(va, 64 * KiB, &off) == VRAM_OK)
        for (i = 0; i < 16; i++)
            offs[n++] = off + i * PAGE;
    assert_int_equal(n, 1280);
    while (vram_alloc_block(va, PAGE, &off) == VRAM_OK)
        offs[n++] = off;
    assert_int_equal(n, pages);
    for (i = 0; i < n; i++) {
        assert_true(offs[i] < bytes);
        assert_int_equal(used[offs[i] / PAGE], 0);
        used[offs[i] / PAGE] = 1;
    }
    assert_int_equal(stats_of(va).free_bytes, 0);
    assert_int_equal(stats_of(va).largest_free, 0);
    assert_int_equal(stats_of(va).used_blocks, 80 + 3);
    assert_int_equal(vram_alloc_block(va, PAGE, &off), VRAM_ERR_NO_MEMORY);

    /* Free the 64 KB blocks whole and the pages one by one, shuffled. */
    for (i = 0; i < 1280; i += 16)
        offs[i / 16] = offs[i];
    for (i = 1280; i < pages; i++)
        offs[80 + i - 1280] = offs[i];
    shuffle(offs, 83);
    for (i = 0; i < 83; i++)
        assert_int_equal(vram_alloc_free_block(va, offs[i], NULL), VRAM_OK);

    assert_int_equal(stats_of(va).free_bytes, bytes);
    assert_int_equal(stats_of(va).used_blocks, 0);
    assert_int_equal(stats_of(va).largest_free, 4 * MiB);
    /* Merging restored exactly the state of a fresh allocator. */
    assert_memory_equal(fresh, s.meta, s.meta_bytes);

    free(fresh);
    free(offs);
    free(used);
    seg_drop(&s);
}

/* ------------------------------------------------------ fragmentation */

static void test_fragmentation(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 16 * MiB);
    struct vram_block blocks[32];
    struct vram_contig req = { .size = 8 * KiB, .highest = UINT64_MAX };
    struct snapshot snap;
    uint64_t off;
    size_t count;
    uint32_t i;

    (void)state;
    /* Best fit, lowest address first: the pages come out in order. */
    for (i = 0; i < 4096; i++) {
        assert_int_equal(vram_alloc_block(va, PAGE, &off), VRAM_OK);
        assert_int_equal(off, i * PAGE);
    }
    for (i = 1; i < 4096; i += 2)
        assert_int_equal(vram_alloc_free_block(va, i * PAGE, NULL), VRAM_OK);

    assert_int_equal(stats_of(va).free_bytes, 8 * MiB);
    assert_int_equal(stats_of(va).largest_free, PAGE);
    assert_int_equal(stats_of(va).free_blocks, 2048);
    assert_int_equal(stats_of(va).used_blocks, 2048);

    snap_take(&snap, &s);
    assert_int_equal(vram_alloc_block(va, 64 * KiB, &off), VRAM_ERR_NO_MEMORY);
    assert_int_equal(vram_alloc_block(va, 8 * KiB, &off), VRAM_ERR_NO_MEMORY);
    assert_int_equal(vram_alloc_contig(va, &req, &off), VRAM_ERR_NO_MEMORY);
    snap_check(&snap, &s);
    snap_drop(&snap);

    /* Non-contiguous 64 KB still works, from the 16 lowest free pages. */
    assert_int_equal(vram_alloc_pages_array(va, 64 * KiB, blocks, 32, &count), VRAM_OK);
    assert_int_equal(count, 16);
    for (i = 0; i < 16; i++) {
        assert_int_equal(blocks[i].offset, (2 * i + 1) * PAGE);
        assert_int_equal(blocks[i].size, PAGE);
    }
    assert_int_equal(stats_of(va).free_bytes, 8 * MiB - 64 * KiB);
    seg_drop(&s);
}

/* ------------------------------------------------ alignment preference */

struct collected {
    struct vram_block b[64];
    size_t n;
};

static void collect(void *ctx, uint64_t offset, uint64_t size)
{
    struct collected *c = ctx;

    assert_true(c->n < 64);
    c->b[c->n].offset = offset;
    c->b[c->n].size = size;
    c->n++;
}

static void expect_blocks(const struct vram_block *got, size_t n, const struct vram_block *want,
                          size_t want_n)
{
    size_t i;

    assert_int_equal(n, want_n);
    for (i = 0; i < n; i++) {
        assert_int_equal(got[i].offset, want[i].offset);
        assert_int_equal(got[i].size, want[i].size);
    }
}

static void test_alignment_preference(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 256 * MiB);
    struct vram_block out[8];
    struct collected c = { .n = 0 };
    size_t count;
    const struct vram_block three[] = {
        { 0, 2 * MiB },
        { 2 * MiB, 64 * KiB },
        { 2 * MiB + 64 * KiB, PAGE },
    };
    const struct vram_block around_reserved[] = {
        { 0, 2 * MiB },
        { 4 * MiB, 2 * MiB },
    };

    (void)state;
    assert_int_equal(vram_alloc_pages_array(va, 2 * MiB + 64 * KiB + PAGE, out, 8, &count),
                     VRAM_OK);
    expect_blocks(out, count, three, 3);
    assert_int_equal(stats_of(va).used_blocks, 3);
    seg_drop(&s);

    /* The callback form sees the same blocks. */
    va = seg_init(&s, 256 * MiB);
    assert_int_equal(vram_alloc_pages(va, 2 * MiB + 64 * KiB + PAGE, collect, &c), VRAM_OK);
    expect_blocks(c.b, c.n, three, 3);
    seg_drop(&s);

    /*
     * A 4 KB page reserved at 2 MB leaves [0, 2 MB) free as one block
     * and splits [2 MB, 4 MB): 4 MB comes back as two aligned 2 MB
     * blocks around it.
     */
    va = seg_init(&s, 256 * MiB);
    assert_int_equal(vram_alloc_reserve(va, 2 * MiB, PAGE), VRAM_OK);
    assert_int_equal(vram_alloc_pages_array(va, 4 * MiB, out, 8, &count), VRAM_OK);
    expect_blocks(out, count, around_reserved, 2);
    seg_drop(&s);
}

static void test_alignment_fallback(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 4 * MiB);
    struct vram_block out[32];
    size_t count;
    uint64_t off;
    uint32_t i;

    (void)state;
    /*
     * Page 0 taken: the free blocks are orders 0..8 at pages 1, 2, 4,
     * ... 256 and the 2 MB block at page 512.
     */
    assert_int_equal(vram_alloc_block(va, PAGE, &off), VRAM_OK);
    assert_int_equal(off, 0);
    assert_int_equal(vram_alloc_pages_array(va, 2 * MiB, out, 32, &count), VRAM_OK);
    assert_int_equal(count, 1);
    assert_int_equal(out[0].offset, 2 * MiB);

    /*
     * No 2 MB block is left, so 1 MB falls to 64 KB blocks, best fit:
     * pages 16, 32, 48, ... 256.
     */
    assert_int_equal(vram_alloc_pages_array(va, 1 * MiB, out, 32, &count), VRAM_OK);
    assert_int_equal(count, 16);
    for (i = 0; i < 16; i++) {
        assert_int_equal(out[i].offset, (16 + 16 * i) * PAGE);
        assert_int_equal(out[i].size, 64 * KiB);
    }

    /* 15 pages below 64 KB plus 240 pages above: 15 + 15 blocks. */
    assert_int_equal(vram_alloc_pages_array(va, 255 * PAGE, out, 32, &count), VRAM_OK);
    assert_int_equal(count, 30);
    assert_int_equal(stats_of(va).free_bytes, 0);
    seg_drop(&s);
}

static void test_alignment_fallback_counts(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 8 * MiB);
    static struct vram_block out[128];
    size_t count, i, sizes[3] = { 0, 0, 0 };

    (void)state;
    /*
     * Pages 0 and 16 taken: three 2 MB blocks are free, and 30 whole
     * 64 KB blocks in the first 2 MB. Taking everything (2046 pages):
     * 3 x 2 MB, then 510 pages left but only 30 x 64 KB, then 30 pages.
     */
    assert_int_equal(vram_alloc_reserve(va, 0, PAGE), VRAM_OK);
    assert_int_equal(vram_alloc_reserve(va, 16 * PAGE, PAGE), VRAM_OK);
    assert_int_equal(vram_alloc_pages_array(va, 2046 * PAGE, out, 128, &count), VRAM_OK);
    assert_int_equal(count, 63);
    for (i = 0; i < count; i++)
        sizes[out[i].size == 2 * MiB ? 0 : out[i].size == 64 * KiB ? 1 : 2]++;
    assert_int_equal(sizes[0], 3);
    assert_int_equal(sizes[1], 30);
    assert_int_equal(sizes[2], 30);
    assert_int_equal(stats_of(va).free_bytes, 0);
    seg_drop(&s);
}

static void test_gigabyte_pieces(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 4 * GiB);
    struct vram_block out[4];
    size_t count;
    const struct vram_block want[] = {
        { 0, 1 * GiB },
        { 1 * GiB, 2 * MiB },
        { 1 * GiB + 2 * MiB, 64 * KiB },
    };
    uint64_t off;

    (void)state;
    assert_int_equal(stats_of(va).largest_free, 4 * GiB);
    assert_int_equal(vram_alloc_pages_array(va, 1 * GiB + 2 * MiB + 64 * KiB, out, 4, &count),
                     VRAM_OK);
    expect_blocks(out, count, want, 3);
    /* The whole segment as one block only fits once it is all free. */
    assert_int_equal(vram_alloc_block(va, 4 * GiB, &off), VRAM_ERR_NO_MEMORY);
    assert_int_equal(vram_alloc_free_block(va, 0, NULL), VRAM_OK);
    assert_int_equal(vram_alloc_free_block(va, 1 * GiB, NULL), VRAM_OK);
    assert_int_equal(vram_alloc_free_block(va, 1 * GiB + 2 * MiB, NULL), VRAM_OK);
    assert_int_equal(vram_alloc_block(va, 4 * GiB, &off), VRAM_OK);
    assert_int_equal(off, 0);
    assert_int_equal(vram_alloc_block(va, 8 * GiB, &off), VRAM_ERR_NO_MEMORY);
    seg_drop(&s);
}

static void test_array_full_changes_nothing(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 256 * MiB);
    struct vram_block out[2];
    struct snapshot snap;
    size_t count = 0;

    (void)state;
    snap_take(&snap, &s);
    assert_int_equal(vram_alloc_pages_array(va, 2 * MiB + 64 * KiB + PAGE, out, 2, &count),
                     VRAM_ERR_ARRAY_FULL);
    assert_int_equal(count, 3);
    snap_check(&snap, &s);
    assert_int_equal(vram_alloc_pages_array(va, PAGE, NULL, 2, &count), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_pages_array(va, PAGE, out, 2, NULL), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_pages(va, PAGE, NULL, NULL), VRAM_ERR_INVALID);
    snap_check(&snap, &s);
    snap_drop(&snap);
    seg_drop(&s);
}

/* ------------------------------------------------------------ contiguous */

static struct vram_contig contig(uint64_t size, uint64_t lowest, uint64_t highest,
                                 uint64_t boundary, uint64_t align)
{
    struct vram_contig req = { size, lowest, highest, boundary, align };

    return req;
}

static int alloc_contig(struct vram_alloc *va, struct vram_contig req, uint64_t *off)
{
    return vram_alloc_contig(va, &req, off);
}

static void test_contig_constraints_met(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 256 * MiB);
    uint64_t off;

    (void)state;
    /* lowest not page aligned rounds up to the next page. */
    assert_int_equal(alloc_contig(va, contig(12 * KiB, 0x4001, UINT64_MAX, 0, 0), &off), VRAM_OK);
    assert_int_equal(off, 0x5000);
    /* Held as the aligned blocks [5] and [6, 8). */
    assert_int_equal(stats_of(va).used_blocks, 2);

    /* [0xE000, 0x12000) would cross 64 KB: moved up to the boundary. */
    assert_int_equal(alloc_contig(va, contig(16 * KiB, 0xE000, UINT64_MAX, 64 * KiB, 0), &off),
                     VRAM_OK);
    assert_int_equal(off, 0x10000);

    /* Alignment applies on top of lowest. */
    assert_int_equal(alloc_contig(va, contig(PAGE, PAGE, UINT64_MAX, 0, 1 * MiB), &off), VRAM_OK);
    assert_int_equal(off, 1 * MiB);

    /*
     * Alignment below a page means a page. Best fit takes the lone free
     * page 4 before splitting the free block [0, 4).
     */
    assert_int_equal(alloc_contig(va, contig(PAGE, 0, UINT64_MAX, 0, 256), &off), VRAM_OK);
    assert_int_equal(off, 4 * PAGE);

    /* Alignment above the boundary implies the boundary. */
    assert_int_equal(
        alloc_contig(va, contig(16 * KiB, 2 * MiB + PAGE, UINT64_MAX, 16 * KiB, 64 * KiB), &off),
        VRAM_OK);
    assert_int_equal(off, 2 * MiB + 64 * KiB);

    /* A window in the middle, boundary 16 MiB: 8 MiB fits at 100 MiB... */
    assert_int_equal(alloc_contig(va, contig(8 * MiB, 100 * MiB, 120 * MiB - 1, 16 * MiB, 0), &off),
                     VRAM_OK);
    assert_int_equal(off, 100 * MiB);
    /* ...but from 109 MiB it would cross 112 MiB, so it goes there. */
    assert_int_equal(alloc_contig(va, contig(8 * MiB, 109 * MiB, 127 * MiB, 16 * MiB, 0), &off),
                     VRAM_OK);
    assert_int_equal(off, 112 * MiB);
    assert_int_equal(vram_alloc_free_range(va, 112 * MiB, 8 * MiB), VRAM_OK);
    seg_drop(&s);

    /* highest is the inclusive end. */
    va = seg_init(&s, 256 * MiB);
    assert_int_equal(vram_alloc_reserve(va, 0, 8 * KiB), VRAM_OK);
    assert_int_equal(alloc_contig(va, contig(8 * KiB, 0, 0x3FFF, 0, 0), &off), VRAM_OK);
    assert_int_equal(off, 0x2000);
    /* Possible in principle, but the window is full: no memory. */
    assert_int_equal(alloc_contig(va, contig(PAGE, 0, 0x3FFF, 0, 0), &off), VRAM_ERR_NO_MEMORY);
    assert_int_equal(alloc_contig(va, contig(8 * KiB, 0, 0x3FFE, 0, 0), &off), VRAM_ERR_NO_MEMORY);
    /* The top of the segment, highest beyond it. */
    assert_int_equal(
        alloc_contig(va, contig(12 * KiB, 256 * MiB - 12 * KiB, UINT64_MAX, 0, 0), &off), VRAM_OK);
    assert_int_equal(off, 256 * MiB - 12 * KiB);
    seg_drop(&s);
}

/*
 * drm_buddy's range tests, ported: a window of a prime number of free
 * pages, starting at an odd page, in an otherwise full segment. No single
 * buddy block holds it (its free pages are several blocks of different
 * parents), yet it must be served, exactly there; one page more is refused.
 */
static void test_contig_across_blocks(void **state)
{
    static const uint32_t primes[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 509 };
    struct seg s;
    uint64_t off;

    (void)state;
    for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++) {
        uint64_t first = (2 * i + 3) * PAGE * 7, size = primes[i] * PAGE;
        struct vram_alloc *va = seg_init(&s, 64 * MiB);

        assert_int_equal(vram_alloc_reserve(va, 0, first), VRAM_OK);
        assert_int_equal(vram_alloc_reserve(va, first + size, 64 * MiB - first - size), VRAM_OK);
        assert_int_equal(stats_of(va).free_bytes, size);
        assert_int_equal(alloc_contig(va, contig(size + PAGE, 0, UINT64_MAX, 0, 0), &off),
                         VRAM_ERR_NO_MEMORY);
        assert_int_equal(alloc_contig(va, contig(size, first, first + size - 1, 0, 0), &off),
                         VRAM_OK);
        assert_int_equal(off, first);
        assert_int_equal(stats_of(va).free_bytes, 0);
        /* Held as blocks; freed as the range, the segment is whole again. */
        assert_int_equal(vram_alloc_free_range(va, first, size), VRAM_OK);
        assert_int_equal(vram_alloc_free_range(va, 0, first), VRAM_OK);
        assert_int_equal(vram_alloc_free_range(va, first + size, 64 * MiB - first - size), VRAM_OK);
        assert_int_equal(stats_of(va).free_bytes, 64 * MiB);
        assert_int_equal(stats_of(va).largest_free, 64 * MiB);
        seg_drop(&s);
    }
}

static void test_contig_impossible(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 256 * MiB);
    struct snapshot snap;
    uint64_t off;

    (void)state;
    snap_take(&snap, &s);
    /* Constraints that no state could satisfy. */
    assert_int_equal(alloc_contig(va, contig(128 * KiB, 0, UINT64_MAX, 64 * KiB, 0), &off),
                     VRAM_ERR_CONSTRAINT);
    assert_int_equal(alloc_contig(va, contig(16 * KiB, 0, 0x2FFF, 0, 0), &off),
                     VRAM_ERR_CONSTRAINT);
    assert_int_equal(alloc_contig(va, contig(PAGE, 256 * MiB, UINT64_MAX, 0, 0), &off),
                     VRAM_ERR_CONSTRAINT);
    assert_int_equal(alloc_contig(va, contig(PAGE, 2 * MiB, 1 * MiB, 0, 0), &off),
                     VRAM_ERR_CONSTRAINT);
    assert_int_equal(alloc_contig(va, contig(512 * MiB, 0, UINT64_MAX, 0, 0), &off),
                     VRAM_ERR_CONSTRAINT);
    /* The only 1 GiB-aligned start, 0, is below lowest. */
    assert_int_equal(alloc_contig(va, contig(PAGE, PAGE, UINT64_MAX, 0, 1 * GiB), &off),
                     VRAM_ERR_CONSTRAINT);
    /* Each alone is fine; together no start from 109 MiB ends by 119. */
    assert_int_equal(alloc_contig(va, contig(8 * MiB, 109 * MiB, 119 * MiB, 16 * MiB, 0), &off),
                     VRAM_ERR_CONSTRAINT);
    /* Boundary 4 KB: one page never crosses it, two always do. */
    assert_int_equal(alloc_contig(va, contig(8 * KiB, 0, UINT64_MAX, PAGE, 0), &off),
                     VRAM_ERR_CONSTRAINT);

    /* Malformed requests. */
    assert_int_equal(alloc_contig(va, contig(0, 0, UINT64_MAX, 0, 0), &off), VRAM_ERR_INVALID);
    assert_int_equal(alloc_contig(va, contig(PAGE + 1, 0, UINT64_MAX, 0, 0), &off),
                     VRAM_ERR_INVALID);
    assert_int_equal(alloc_contig(va, contig(PAGE, 0, UINT64_MAX, 0, 3 * PAGE), &off),
                     VRAM_ERR_INVALID);
    assert_int_equal(alloc_contig(va, contig(PAGE, 0, UINT64_MAX, 48 * KiB, 0), &off),
                     VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_contig(va, NULL, &off), VRAM_ERR_INVALID);
    assert_int_equal(alloc_contig(va, contig(PAGE, 0, UINT64_MAX, 0, 0), NULL), VRAM_ERR_INVALID);
    snap_check(&snap, &s);
    snap_drop(&snap);

    /* Boundary 4 KB with one page is fine. */
    assert_int_equal(alloc_contig(va, contig(PAGE, 0, UINT64_MAX, PAGE, 0), &off), VRAM_OK);
    assert_int_equal(off, 0);
    seg_drop(&s);
}

/* ------------------------------------------------- frees that must fail */

static void test_double_free(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 256 * MiB);
    struct vram_block out[4];
    struct snapshot snap;
    uint64_t off, a, size = 0;
    size_t count, i;

    (void)state;
    assert_int_equal(vram_alloc_block(va, PAGE, &a), VRAM_OK);
    assert_int_equal(vram_alloc_block(va, 64 * KiB, &off), VRAM_OK);
    assert_int_equal(vram_alloc_free_block(va, off, &size), VRAM_OK);
    assert_int_equal(size, 64 * KiB);
    snap_take(&snap, &s);
    assert_int_equal(vram_alloc_free_block(va, off, &size), VRAM_ERR_NOT_ALLOCATED);
    snap_check(&snap, &s);
    snap_drop(&snap);

    assert_int_equal(alloc_contig(va, contig(12 * KiB, 0, UINT64_MAX, 0, 0), &off), VRAM_OK);
    assert_int_equal(vram_alloc_free_range(va, off, 12 * KiB), VRAM_OK);
    snap_take(&snap, &s);
    assert_int_equal(vram_alloc_free_range(va, off, 12 * KiB), VRAM_ERR_NOT_ALLOCATED);
    snap_check(&snap, &s);
    snap_drop(&snap);

    assert_int_equal(vram_alloc_pages_array(va, 64 * KiB + 2 * PAGE, out, 4, &count), VRAM_OK);
    for (i = 0; i < count; i++)
        assert_int_equal(vram_alloc_free_block(va, out[i].offset, NULL), VRAM_OK);
    snap_take(&snap, &s);
    for (i = 0; i < count; i++)
        assert_int_equal(vram_alloc_free_block(va, out[i].offset, NULL), VRAM_ERR_NOT_ALLOCATED);
    snap_check(&snap, &s);
    snap_drop(&snap);

    assert_int_equal(vram_alloc_free_block(va, a, NULL), VRAM_OK);
    assert_int_equal(stats_of(va).free_bytes, 256 * MiB);
    assert_int_equal(stats_of(va).free_blocks, 1);
    seg_drop(&s);
}

static void test_unknown_offsets(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 256 * MiB);
    struct snapshot snap;
    uint64_t off, size;

    (void)state;
    assert_int_equal(vram_alloc_block(va, 64 * KiB, &off), VRAM_OK);
    assert_int_equal(off, 0);
    snap_take(&snap, &s);
    /* Inside the block, a free page, and beyond the segment. */
    assert_int_equal(vram_alloc_free_block(va, PAGE, NULL), VRAM_ERR_NOT_ALLOCATED);
    assert_int_equal(vram_alloc_free_block(va, 60 * KiB, NULL), VRAM_ERR_NOT_ALLOCATED);
    assert_int_equal(vram_alloc_free_block(va, 64 * KiB, NULL), VRAM_ERR_NOT_ALLOCATED);
    assert_int_equal(vram_alloc_free_block(va, 200 * MiB, NULL), VRAM_ERR_NOT_ALLOCATED);
    assert_int_equal(vram_alloc_free_block(va, 256 * MiB, NULL), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_free_block(va, 1ull << 40, NULL), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_free_block(va, 0x800, NULL), VRAM_ERR_INVALID);
    /* Ranges that cut the block or run into free pages. */
    assert_int_equal(vram_alloc_free_range(va, 0, 32 * KiB), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_free_range(va, 0, 128 * KiB), VRAM_ERR_NOT_ALLOCATED);
    assert_int_equal(vram_alloc_free_range(va, 0, 0), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_free_range(va, 0, 256 * MiB + PAGE), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_free_range(va, 256 * MiB - PAGE, 2 * PAGE), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_free_range(va, PAGE, UINT64_MAX - PAGE + 1), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_free_range(va, 0, 64 * KiB + 1), VRAM_ERR_INVALID);
    snap_check(&snap, &s);
    snap_drop(&snap);

    /* A contiguous range is made of blocks that can be freed alone. */
    assert_int_equal(alloc_contig(va, contig(12 * KiB, 68 * KiB, UINT64_MAX, 0, 0), &off), VRAM_OK);
    assert_int_equal(off, 68 * KiB);
    assert_int_equal(vram_alloc_free_block(va, 72 * KiB, &size), VRAM_OK);
    assert_int_equal(size, 8 * KiB);
    assert_int_equal(vram_alloc_free_range(va, 68 * KiB, 12 * KiB), VRAM_ERR_NOT_ALLOCATED);
    assert_int_equal(vram_alloc_free_range(va, 68 * KiB, PAGE), VRAM_OK);
    assert_int_equal(vram_alloc_free_block(va, 0, &size), VRAM_OK);
    assert_int_equal(size, 64 * KiB);
    assert_int_equal(stats_of(va).free_bytes, 256 * MiB);
    assert_int_equal(stats_of(va).free_blocks, 1);
    seg_drop(&s);
}

static void test_unaligned_sizes(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 256 * MiB);
    struct snapshot snap;
    uint64_t off;
    struct collected c = { .n = 0 };

    (void)state;
    snap_take(&snap, &s);
    assert_int_equal(vram_alloc_block(va, 12 * KiB, &off), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_block(va, 0, &off), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_block(va, 2 * KiB, &off), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_block(va, 512 * MiB, &off), VRAM_ERR_NO_MEMORY);
    assert_int_equal(vram_alloc_block(va, 1ull << 63, &off), VRAM_ERR_NO_MEMORY);
    assert_int_equal(vram_alloc_pages(va, PAGE + 1, collect, &c), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_pages(va, 0, collect, &c), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_pages(va, 256 * MiB + PAGE, collect, &c), VRAM_ERR_NO_MEMORY);
    assert_int_equal(vram_alloc_pages(va, UINT64_MAX - PAGE + 1, collect, &c), VRAM_ERR_NO_MEMORY);
    assert_int_equal(vram_alloc_reserve(va, PAGE + 1, PAGE), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_reserve(va, 0, 100), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_reserve(va, 0, 0), VRAM_ERR_INVALID);
    assert_int_equal(vram_alloc_reserve(va, 256 * MiB - PAGE, 2 * PAGE), VRAM_ERR_INVALID);
    assert_int_equal(c.n, 0);
    snap_check(&snap, &s);
    snap_drop(&snap);
    seg_drop(&s);
}

/* ------------------------------------------------------------ reserve */

static void test_reserve(void **state)
{
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 256 * MiB);
    struct snapshot snap;
    uint64_t off;
    uint32_t n = 0;

    (void)state;
    /* A firmware region at the bottom: one aligned 1 MiB block. */
    assert_int_equal(vram_alloc_reserve(va, 0, 1 * MiB), VRAM_OK);
    assert_int_equal(stats_of(va).used_blocks, 1);

    snap_take(&snap, &s);
    assert_int_equal(vram_alloc_reserve(va, 512 * KiB, 8 * KiB), VRAM_ERR_BUSY);
    assert_int_equal(vram_alloc_reserve(va, 1 * MiB - PAGE, 2 * PAGE), VRAM_ERR_BUSY);
    snap_check(&snap, &s);
    snap_drop(&snap);

    /* Odd placement: pages 769..773 are [769], [770, 772), [772, 774). */
    assert_int_equal(vram_alloc_reserve(va, 3 * MiB + PAGE, 5 * PAGE), VRAM_OK);
    assert_int_equal(stats_of(va).used_blocks, 4);
    /* Across two free blocks, [1 MiB, 2 MiB) and [2 MiB, 4 MiB). */
    assert_int_equal(vram_alloc_reserve(va, 1536 * KiB, 1 * MiB), VRAM_OK);
    assert_int_equal(stats_of(va).free_bytes, 256 * MiB - 2 * MiB - 5 * PAGE);

    /* Nothing handed out afterwards lands in a reserved range. */
    while (vram_alloc_block(va, PAGE, &off) == VRAM_OK) {
        assert_false(off < 1 * MiB);
        assert_false(off >= 1536 * KiB && off < 2560 * KiB);
        assert_false(off >= 3 * MiB + PAGE && off < 3 * MiB + 6 * PAGE);
        n++;
    }
    assert_int_equal(n, 65536 - 512 - 5);
    assert_int_equal(vram_alloc_free_range(va, 0, 1 * MiB), VRAM_OK);
    assert_int_equal(stats_of(va).free_bytes, 1 * MiB);
    seg_drop(&s);
}

/* ------------------------------------------- randomized against a model */

/*
 * The model: one entry per page saying who holds it. An allocation is
 * either a single block (freed with free_block) or a range (contiguous or
 * reserved, freed with free_range).
 */
enum { FREE_PAGE = 0, HELD_BLOCK, HELD_RANGE };

struct model {
    uint32_t pages;
    uint8_t *kind;    /* per page */
    uint32_t *first;  /* per page: first page of its allocation */
    uint32_t *prefix; /* free pages in [0, i), rebuilt when stale */
    bool prefix_stale;
    uint32_t free_pages;
    uint32_t blocks; /* buddy blocks the allocator should count */
    struct live {
        uint32_t first, count;
        uint8_t kind;
    } * live;
    uint32_t nlive;
};

static unsigned int log2_floor(uint64_t x)
{
    unsigned int n = 0;

    while (x >>= 1)
        n++;
    return n;
}

/*
 * Aligned blocks a range is held as: the largest that fit, in order.
 * Returns how many; *last_size (optional) gets the last one's page count.
 */
static uint32_t canonical_pieces_last(uint32_t first, uint32_t count, uint32_t *last_size)
{
    uint32_t n = 0, size = 0;

    while (count) {
        size = 1;
        while (!(first & size) && size * 2 <= count)
            size *= 2;
        first += size;
        count -= size;
        n++;
    }
    if (last_size)
        *last_size = size;
    return n;
}

static uint32_t canonical_pieces(uint32_t first, uint32_t count)
{
    return canonical_pieces_last(first, count, NULL);
}

static void model_prefix(struct model *m)
{
    uint32_t i;

    m->prefix[0] = 0;
    for (i = 0; i < m->pages; i++)
        m->prefix[i + 1] = m->prefix[i] + (m->kind[i] == FREE_PAGE);
}

static bool model_range_free(struct model *m, uint64_t first, uint64_t count)
{
    if (m->prefix_stale) {
        model_prefix(m);
        m->prefix_stale = false;
    }
    if (first + count > m->pages)
        return false;
    return m->prefix[first + count] - m->prefix[first] == count;
}

/* Wholly free naturally aligned blocks of order k inside the segment. */
static uint32_t model_free_nodes(struct model *m, unsigned int k)
{
    uint32_t i, n = 0;

    for (i = 0; (uint64_t)(i + 1) << k <= m->pages; i++)
        n += model_range_free(m, (uint64_t)i << k, 1ull << k);
    return n;
}

static void model_hold(struct model *m, uint32_t first, uint32_t count, uint8_t kind)
{
    uint32_t i;

    for (i = first; i < first + count; i++) {
        assert_int_equal(m->kind[i], FREE_PAGE);
        m->kind[i] = kind;
        m->first[i] = first;
    }
    m->free_pages -= count;
    m->blocks += kind == HELD_BLOCK ? 1 : canonical_pieces(first, count);
    m->live[m->nlive].first = first;
    m->live[m->nlive].count = count;
    m->live[m->nlive].kind = kind;
    m->nlive++;
    m->prefix_stale = true;
}

static void model_release(struct model *m, uint32_t index)
{
    struct live e = m->live[index];
    uint32_t i;

    for (i = e.first; i < e.first + e.count; i++)
        m->kind[i] = FREE_PAGE;
    m->free_pages += e.count;
    m->blocks -= e.kind == HELD_BLOCK ? 1 : canonical_pieces(e.first, e.count);
    m->live[index] = m->live[--m->nlive];
    m->prefix_stale = true;
}

struct random_run {
    struct seg s;
    struct vram_alloc *va;
    struct model m;
    unsigned int max_order;
    uint32_t *fresh; /* the metadata as init left it */
};

static void check_accounting(struct random_run *r, bool deep)
{
    struct vram_stats st = stats_of(r->va);
    struct model *m = &r->m;
    uint32_t free_blocks = 0;
    uint64_t largest = 0;
    unsigned int k;
    uint32_t i;

    assert_int_equal(st.segment_bytes, (uint64_t)m->pages * PAGE);
    assert_int_equal(st.free_bytes, (uint64_t)m->free_pages * PAGE);
    assert_int_equal(st.used_bytes, (uint64_t)(m->pages - m->free_pages) * PAGE);
    assert_int_equal(st.used_blocks, m->blocks);
    if (!deep)
        return;
    /*
     * Buddy blocks are the wholly free aligned blocks whose parent is
     * not wholly free (or sticks out of the segment).
     */
    for (k = 0; k <= r->max_order; k++) {
        for (i = 0; (uint64_t)(i + 1) << k <= m->pages; i++) {
            bool parent_inside =
                (uint64_t)((i >> 1) + 1) << (k + 1) <= m->pages && k < r->max_order;

            if (!model_range_free(m, (uint64_t)i << k, 1ull << k))
                continue;
            largest = (uint64_t)PAGE << k;
            if (!parent_inside || !model_range_free(m, (uint64_t)(i >> 1) << (k + 1), 2ull << k))
                free_blocks++;
        }
    }
    assert_int_equal(st.largest_free, largest);
    assert_int_equal(st.free_blocks, free_blocks);
}

static void random_alloc_block(struct random_run *r)
{
    struct model *m = &r->m;
    unsigned int k = below(8) ? below(5) : below(14);
    bool possible = k <= r->max_order && model_free_nodes(m, k) > 0;
    uint64_t off;
    int err = vram_alloc_block(r->va, PAGE << k, &off);

    if (!possible) {
        assert_int_equal(err, VRAM_ERR_NO_MEMORY);
        return;
    }
    assert_int_equal(err, VRAM_OK);
    assert_int_equal(off % (PAGE << k), 0);
    assert_true(off + (PAGE << k) <= r->s.bytes);
    assert_true(model_range_free(m, off / PAGE, 1u << k));
    model_hold(m, (uint32_t)(off / PAGE), 1u << k, HELD_BLOCK);
}

static unsigned int piece_kind(uint64_t size)
{
    return size == GiB ? 0 : size == 2 * MiB ? 1 : size == 64 * KiB ? 2 : 3;
}

static void random_alloc_pages(struct random_run *r)
{
    static struct vram_block out[1024];
    static const unsigned int orders[] = { 18, 9, 4, 0 };
    struct model *m = &r->m;
    uint32_t pages = 1 + (below(4) ? below(40) : below(700));
    uint32_t want[4], left = pages, taken = 0, n, got[4] = { 0 };
    size_t count, i;
    int err = vram_alloc_pages_array(r->va, pages * PAGE, out, 1024, &count);

    if (pages > m->free_pages) {
        assert_int_equal(err, VRAM_ERR_NO_MEMORY);
        return;
    }
    assert_int_equal(err, VRAM_OK);
    /* Each size takes what the model says is wholly free, largest first. */
    for (n = 0; n < 4; n++) {
        uint32_t units = model_free_nodes(m, orders[n]) - (taken >> orders[n]);
        uint32_t fit = left >> orders[n];

        want[n] = fit < units ? fit : units;
        left -= want[n] << orders[n];
        taken += want[n] << orders[n];
    }
    for (i = 0; i < count; i++) {
        uint64_t size = out[i].size;

        assert_true(size == PAGE || size == 64 * KiB || size == 2 * MiB || size == GiB);
        assert_true(i == 0 || size <= out[i - 1].size);
        assert_int_equal(out[i].offset % size, 0);
        assert_true(out[i].offset + size <= r->s.bytes);
        got[piece_kind(size)]++;
        /* model_hold() asserts the pages were free. */
        model_hold(m, (uint32_t)(out[i].offset / PAGE), (uint32_t)(size / PAGE), HELD_BLOCK);
    }
    for (n = 0; n < 4; n++)
        assert_int_equal(got[n], want[n]);
}

/* Brute force over every start page: does any satisfy the constraints? */
static bool contig_valid_start(const struct vram_contig *q, uint64_t a, uint64_t pages)
{
    uint64_t start = a * PAGE, last = (a + pages) * PAGE - 1;

    if (start < q->lowest || last > q->highest)
        return false;
    if (q->align > PAGE && start % q->align)
        return false;
    return !q->boundary || start / q->boundary == last / q->boundary;
}

/* What a run of contiguous requests met, so a test can show it saw each case. */
struct contig_tally {
    uint32_t served;     /* succeeded */
    uint32_t across;     /* succeeded where no single free buddy block could hold it */
    uint32_t exact;      /* served exactly at the only valid start */
    uint32_t no_memory;  /* refused: no valid start has its range free */
    uint32_t constraint; /* refused: no valid start at all */
};

/*
 * Could one free buddy block have held the range at page a: a wholly free
 * naturally aligned block of at least the request's rounded-up size and
 * alignment that contains it? (A wholly free aligned block is always inside
 * one free buddy block: buddies merge when both are free.)
 */
static bool model_one_block_holds(struct random_run *r, const struct vram_contig *q, uint64_t a,
                                  uint32_t pages)
{
    unsigned int k = log2_floor(pages) + ((pages & (pages - 1)) != 0);
    unsigned int align_order = q->align > PAGE ? log2_floor(q->align / PAGE) : 0;

    if (align_order > k)
        k = align_order;
    if (k > r->max_order) /* only page 0 is aligned enough: the largest block holds it */
        k = r->max_order;
    for (; k <= r->max_order; k++) {
        uint64_t node = a >> k;

        if (a + pages <= (node + 1) << k && model_range_free(&r->m, node << k, 1ull << k))
            return true;
    }
    return false;
}

/*
 * The documented promise: a contiguous request succeeds whenever some
 * valid start has every page of its range free, across buddy-block
 * boundaries (issue 29; drm_buddy's contiguous path). The model is a shadow
 * of the segment kept from what the test took and gave back, and every
 * start is tried on it by brute force: a refusal must have no fit and
 * change nothing; a success must lie in the window, aligned, inside one
 * boundary window, on free pages. Returns the error; *off is the start.
 */
static int contig_checked(struct random_run *r, const struct vram_contig *q, uint64_t *off,
                          struct contig_tally *tally)
{
    struct model *m = &r->m;
    uint32_t pages = (uint32_t)(q->size / PAGE);
    uint32_t valid_starts = 0, first_fit = UINT32_MAX, a;
    struct snapshot snap;
    int err;

    for (a = 0; a + pages <= m->pages; a++) {
        if (!contig_valid_start(q, a, pages))
            continue;
        valid_starts++;
        if (model_range_free(m, a, pages)) {
            first_fit = a;
            break;
        }
    }

    snap_take(&snap, &r->s);
    err = vram_alloc_contig(r->va, q, off);
    if (first_fit == UINT32_MAX) {
        assert_int_equal(err, valid_starts ? VRAM_ERR_NO_MEMORY : VRAM_ERR_CONSTRAINT);
        /* Nothing changed: metadata byte for byte, and the accounting. */
        snap_check(&snap, &r->s);
        snap_drop(&snap);
        if (tally) {
            tally->no_memory += valid_starts != 0;
            tally->constraint += valid_starts == 0;
        }
        return err;
    }
    snap_drop(&snap);
    assert_int_equal(err, VRAM_OK);
    assert_int_equal(*off % PAGE, 0);
    assert_true(*off >= q->lowest && *off + q->size - 1 <= q->highest);
    assert_true(q->align <= PAGE || *off % q->align == 0);
    assert_true(!q->boundary || *off / q->boundary == (*off + q->size - 1) / q->boundary);
    assert_true(*off + q->size <= r->s.bytes);
    assert_true(model_range_free(m, *off / PAGE, pages));
    if (tally) {
        tally->served++;
        tally->across += !model_one_block_holds(r, q, *off / PAGE, pages);
    }
    /* model_hold() checks again, page by page, that nothing overlaps. */
    model_hold(m, (uint32_t)(*off / PAGE), pages, HELD_RANGE);
    return err;
}

static void random_contig(struct random_run *r)
{
    uint32_t pages = 1 + (below(4) ? below(16) : below(600));
    uint64_t seg = r->s.bytes;
    struct vram_contig q = { .size = pages * PAGE };
    uint64_t off;

    q.lowest = below(3) ? rnd() % seg : 0;
    q.highest = below(3) ? q.lowest + rnd() % seg : UINT64_MAX;
    q.boundary = below(2) ? 0 : PAGE << below(12);
    q.align = below(2) ? 0 : 1ull << below(25);
    contig_checked(r, &q, &off, NULL);
}

static void random_free(struct random_run *r)
{
    struct model *m = &r->m;
    uint32_t index;
    struct live e;
    uint64_t size;

    if (!m->nlive)
        return;
    index = below(m->nlive);
    e = m->live[index];
    if (e.kind == HELD_BLOCK) {
        assert_int_equal(vram_alloc_free_block(r->va, e.first * PAGE, &size), VRAM_OK);
        assert_int_equal(size, e.count * PAGE);
    } else {
        uint32_t last;

        /* One page short cuts the last block unless it is a page. */
        canonical_pieces_last(e.first, e.count, &last);
        if (last > 1)
            assert_int_equal(vram_alloc_free_range(r->va, e.first * PAGE, (e.count - 1) * PAGE),
                             VRAM_ERR_INVALID);
        assert_int_equal(vram_alloc_free_range(r->va, e.first * PAGE, e.count * PAGE), VRAM_OK);
    }
    model_release(m, index);
    /* Freed twice: nothing was allocated in between. */
    assert_int_equal(vram_alloc_free_block(r->va, e.first * PAGE, NULL), VRAM_ERR_NOT_ALLOCATED);
}

/* A page that is free or inside a block must be refused, changing nothing. */
static void random_bad_free(struct random_run *r)
{
    struct model *m = &r->m;
    uint32_t page = below(m->pages);
    struct snapshot snap;

    if (m->kind[page] == HELD_RANGE || (m->kind[page] == HELD_BLOCK && m->first[page] == page))
        return;
    snap_take(&snap, &r->s);
    assert_int_equal(vram_alloc_free_block(r->va, page * PAGE, NULL), VRAM_ERR_NOT_ALLOCATED);
    assert_int_equal(vram_alloc_free_block(r->va, page * PAGE + 8, NULL), VRAM_ERR_INVALID);
    snap_check(&snap, &r->s);
    snap_drop(&snap);
}

static void random_reserve(struct random_run *r)
{
    struct model *m = &r->m;
    uint32_t first = below(m->pages);
    uint32_t count = 1 + below(below(8) ? 8 : 1024);
    int err;

    /* Mostly start on a free page, or nearly every attempt is busy. */
    if (below(4))
        while (first + 1 < m->pages && m->kind[first] != FREE_PAGE)
            first++;
    if (count > m->pages - first)
        count = m->pages - first;
    err = vram_alloc_reserve(r->va, first * PAGE, count * PAGE);
    if (!model_range_free(m, first, count)) {
        assert_int_equal(err, VRAM_ERR_BUSY);
        return;
    }
    assert_int_equal(err, VRAM_OK);
    model_hold(m, first, count, HELD_RANGE);
}

static void run_open(struct random_run *r, uint32_t pages, uint64_t seed)
{
    struct model *m = &r->m;

    rng = seed;
    r->va = seg_init(&r->s, (uint64_t)pages * PAGE);
    r->max_order = log2_floor(pages);
    r->fresh = malloc(r->s.meta_bytes);
    assert_non_null(r->fresh);
    memcpy(r->fresh, r->s.meta, r->s.meta_bytes);
    m->pages = pages;
    m->kind = calloc(pages, 1);
    m->first = calloc(pages, sizeof(*m->first));
    m->prefix = calloc(pages + 1, sizeof(*m->prefix));
    m->live = calloc(pages, sizeof(*m->live));
    m->free_pages = pages;
    m->blocks = 0;
    m->nlive = 0;
    m->prefix_stale = true;
}

/* Random operations of every kind, checked against the model. */
static void run_ops(struct random_run *r, uint32_t ops)
{
    struct model *m = &r->m;
    uint32_t op;

    for (op = 0; op < ops; op++) {
        uint32_t pick = below(100);

        /* Free more as the segment fills, so it hovers around half. */
        if (pick < 47 && below(m->pages) >= m->free_pages + m->pages / 8)
            pick = 50;
        if (pick < 25)
            random_alloc_block(r);
        else if (pick < 37)
            random_alloc_pages(r);
        else if (pick < 47)
            random_contig(r);
        else if (pick < 82)
            random_free(r);
        else if (pick < 92)
            random_bad_free(r);
        else
            random_reserve(r);
        check_accounting(r, op % 64 == 0);
    }
    check_accounting(r, true);
}

/* Free everything: the metadata must be exactly as after init. */
static void run_close(struct random_run *r)
{
    struct model *m = &r->m;

    while (m->nlive)
        random_free(r);
    check_accounting(r, true);
    assert_memory_equal(r->fresh, r->s.meta, r->s.meta_bytes);

    free(m->live);
    free(m->prefix);
    free(m->first);
    free(m->kind);
    free(r->fresh);
    seg_drop(&r->s);
}

static void random_run(uint32_t pages, uint32_t ops, uint64_t seed)
{
    struct random_run r;

    run_open(&r, pages, seed);
    run_ops(&r, ops);
    run_close(&r);
}
static void test_random_against_model(void **state)
{
    (void)state;
    /* 18 MiB + 68 KiB: 2 MB blocks exist and the tail is ragged. */
    random_run(4625, 100000, 0x9e3779b97f4a7c15ull);
    random_run(1024, 10000, 42);
    random_run(3, 3000, 7);
    random_run(1, 1000, 99);
}

/* ------------------------------------ contiguous requests: fit or no fit */

/*
 * Prime page counts, as in drm_buddy's range tests: never a power of two,
 * so a free run that holds one is seldom a single buddy block.
 */
static const uint32_t prime_pages[] = { 2,  3,  5,  7,  11, 13, 17, 19,  23,  29,  31,  37,
                                        41, 43, 47, 53, 61, 67, 97, 127, 131, 251, 257, 509 };
#define PRIME_COUNTS (sizeof(prime_pages) / sizeof(prime_pages[0]))

/* A prime of at most n pages (n >= 2), small ones more often. */
static uint32_t random_prime(uint32_t n)
{
    uint32_t fit = 0;

    while (fit < PRIME_COUNTS && prime_pages[fit] <= n)
        fit++;
    if (below(2) && fit > 11)
        fit = 11;
    return prime_pages[below(fit)];
}

/* Free the range the last contig_checked() took, in the allocator and the model. */
static void release_last(struct random_run *r, uint64_t off, uint64_t size)
{
    assert_int_equal(vram_alloc_free_range(r->va, off, size), VRAM_OK);
    model_release(&r->m, r->m.nlive - 1);
}

/*
 * A prime-sized request with a random window (lowest inside a page at
 * times, highest inclusive), alignment and boundary multiple. Half of what
 * is served is given back at once so the pool stays fragmented.
 */
static void prime_request(struct random_run *r, struct contig_tally *tally)
{
    uint64_t seg = r->s.bytes, off;
    struct vram_contig q = { .size = random_prime(509) * PAGE, .highest = UINT64_MAX };

    switch (below(3)) {
    case 0: /* the whole segment */
        break;
    case 1: /* anywhere, any width */
        q.lowest = below(seg / PAGE) * PAGE + (below(4) ? 0 : below(PAGE));
        q.highest = q.lowest + below(seg) - (below(4) ? 0 : 1);
        break;
    default: /* a narrow window: up to twice the size */
        q.lowest = below(seg / PAGE) * PAGE;
        q.highest = q.lowest + q.size + below(q.size / PAGE + 1) * PAGE - 1;
        break;
    }
    if (!below(3))
        q.align = below(4) ? PAGE << below(8) : 1ull << below(12); /* under a page: a page */
    if (!below(3))
        q.boundary = PAGE << below(11);
    if (contig_checked(r, &q, &off, tally) == VRAM_OK && below(2))
        release_last(r, off, q.size);
}

/*
 * drm_buddy's range test in a fragmented pool: a window exactly as large
 * as a prime number of free pages inside a free run. Its one valid start
 * has every page free, so it must be served exactly there.
 */
static void exact_window(struct random_run *r, struct contig_tally *tally)
{
    struct model *m = &r->m;
    uint32_t page = below(m->pages), tries, first, end, pages;
    uint64_t off;

    for (tries = 0; m->kind[page] != FREE_PAGE; tries++) {
        if (tries == m->pages)
            return;
        page = (page + 1) % m->pages;
    }
    for (first = page; first && m->kind[first - 1] == FREE_PAGE; first--)
        ;
    for (end = page + 1; end < m->pages && m->kind[end] == FREE_PAGE; end++)
        ;
    if (end - first < 2)
        return;
    pages = random_prime(end - first);
    first += below(end - first - pages + 1);

    struct vram_contig q = { .size = pages * PAGE,
                             .lowest = first * PAGE,
                             .highest = (first + pages) * PAGE - 1 };

    assert_int_equal(contig_checked(r, &q, &off, tally), VRAM_OK);
    assert_int_equal(off, first * PAGE);
    tally->exact++;
    if (below(2))
        release_last(r, off, q.size);
}

/*
 * Issue 29's check. Pools fragmented by random allocations and frees of
 * mixed sizes (blocks, page lists, contiguous ranges, reserved ranges),
 * then prime-sized contiguous requests with random windows, alignments
 * and boundary multiples, and exact windows; contig_checked() holds every
 * refusal against a brute-force search of the model. The tally shows the
 * run met every case, including fits that span several buddy blocks.
 */
static void test_contig_fit_or_no_fit(void **state)
{
    /* 8 MiB, and a ragged 11.7 MiB whose tail blocks never merge. */
    static const struct {
        uint32_t pages;
        uint64_t seed;
    } pools[] = { { 2048, 0x2545f4914f6cdd1dull }, { 3001, 0x853c49e6748fea9bull } };
    struct contig_tally tally = { 0 };
    struct random_run r;
    uint32_t round, n;

    (void)state;
    for (size_t p = 0; p < sizeof(pools) / sizeof(pools[0]); p++) {
        run_open(&r, pools[p].pages, pools[p].seed);
        run_ops(&r, 3000);
        for (round = 0; round < 20; round++) {
            for (n = 0; n < 100; n++) {
                if (below(4))
                    prime_request(&r, &tally);
                else
                    exact_window(&r, &tally);
            }
            check_accounting(&r, true);
            run_ops(&r, 200);
        }
        run_close(&r);
    }
    print_message("contiguous: %u served (%u spanning blocks, %u exact windows), %u no memory, "
                  "%u constraint\n",
                  tally.served, tally.across, tally.exact, tally.no_memory, tally.constraint);
    assert_true(tally.across >= 100);
    assert_true(tally.exact >= 100);
    assert_true(tally.no_memory >= 100);
    assert_true(tally.constraint >= 20);
}

/* ------------------------------------------------------ operation count */

/*
 * Inner-loop iterations per operation on a heavily fragmented 256 MiB
 * segment (every other page in use) stay within 64 * log2(pages): no
 * operation scans the 32768 free blocks, but for a two-page contiguous
 * request that no free block holds, which has to look at each.
 */
static void test_operation_count_is_logarithmic(void **state)
{
    const uint32_t bound = 64 * 16;
    struct seg s;
    struct vram_alloc *va = seg_init(&s, 256 * MiB);
    uint64_t off;
    uint32_t i;

    (void)state;
    /* Fresh: one page splits 16 levels down, freeing merges 16 back. */
    va->steps = 0;
    assert_int_equal(vram_alloc_block(va, PAGE, &off), VRAM_OK);
    assert_true(va->steps <= bound);
    va->steps = 0;
    assert_int_equal(vram_alloc_free_block(va, off, NULL), VRAM_OK);
    assert_true(va->steps <= bound);

    for (i = 0; i < 65536; i++)
        assert_int_equal(vram_alloc_block(va, PAGE, &off), VRAM_OK);
    for (i = 0; i < 65536; i += 2)
        assert_int_equal(vram_alloc_free_block(va, i * PAGE, NULL), VRAM_OK);
    assert_int_equal(stats_of(va).free_blocks, 32768);

    va->steps = 0;
    assert_int_equal(vram_alloc_block(va, PAGE, &off), VRAM_OK);
    assert_true(va->steps <= bound);
    va->steps = 0;
    assert_int_equal(vram_alloc_free_block(va, off, NULL), VRAM_OK);
    assert_true(va->steps <= bound);

    va->steps = 0;
    assert_int_equal(vram_alloc_block(va, 64 * KiB, &off), VRAM_ERR_NO_MEMORY);
    assert_true(va->steps <= bound);

    /*
     * Three pages: every order from 16 KB up is searched for one block and
     * found empty, and any run of three would hold a free 8 KB block:
     * there is none, so the run search ends at once.
     */
    va->steps = 0;
    assert_int_equal(alloc_contig(va, contig(12 * KiB, 0, UINT64_MAX, 0, 0), &off),
                     VRAM_ERR_NO_MEMORY);
    assert_true(va->steps <= bound);

    /*
     * Two pages could be any two neighbouring free blocks: the one
     * request whose refusal has to look at each of the 32768 free pages,
     * about three steps each (the pages in use are never visited).
     */
    va->steps = 0;
    assert_int_equal(alloc_contig(va, contig(8 * KiB, 0, UINT64_MAX, 0, 0), &off),
                     VRAM_ERR_NO_MEMORY);
    assert_true(va->steps <= 4 * 32768);

    /*
     * Pages 2000-2004 free: 16 KB at 2000 and a page at 2004, of different
     * parents. Five pages are found there from the one free block of 8 KB
     * or more, without visiting the 2000 blocks below it.
     */
    assert_int_equal(vram_alloc_free_block(va, 2001 * PAGE, NULL), VRAM_OK);
    assert_int_equal(vram_alloc_free_block(va, 2003 * PAGE, NULL), VRAM_OK);
    va->steps = 0;
    assert_int_equal(alloc_contig(va, contig(5 * PAGE, 0, UINT64_MAX, 0, 0), &off), VRAM_OK);
    assert_int_equal(off, 2000 * PAGE);
    assert_true(va->steps <= bound);

    va->steps = 0;
    assert_int_equal(alloc_contig(va, contig(PAGE, 200 * MiB + PAGE, UINT64_MAX, 0, 0), &off),
                     VRAM_OK);
    assert_int_equal(off, 200 * MiB + 2 * PAGE);
    assert_true(va->steps <= bound);

    va->steps = 0;
    assert_int_equal(vram_alloc_reserve(va, 100 * MiB, PAGE), VRAM_OK);
    assert_true(va->steps <= bound);

    /* Freeing page 1 merges it with pages 0 into an 8 KB block. */
    va->steps = 0;
    assert_int_equal(vram_alloc_free_block(va, PAGE, NULL), VRAM_OK);
    assert_true(va->steps <= bound);
    assert_int_equal(stats_of(va).largest_free, 8 * KiB);

    va->steps = 0;
    assert_int_equal(vram_alloc_free_block(va, 3 * PAGE + 4096 * PAGE, NULL), VRAM_OK);
    assert_true(va->steps <= bound);
    seg_drop(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metadata_size),
        cmocka_unit_test(test_init_rejects_bad_input),
        cmocka_unit_test(test_strerror),
        cmocka_unit_test(test_exhaust_then_free_all),
        cmocka_unit_test(test_fragmentation),
        cmocka_unit_test(test_alignment_preference),
        cmocka_unit_test(test_alignment_fallback),
        cmocka_unit_test(test_alignment_fallback_counts),
        cmocka_unit_test(test_gigabyte_pieces),
        cmocka_unit_test(test_array_full_changes_nothing),
        cmocka_unit_test(test_contig_constraints_met),
        cmocka_unit_test(test_contig_impossible),
        cmocka_unit_test(test_double_free),
        cmocka_unit_test(test_unknown_offsets),
        cmocka_unit_test(test_unaligned_sizes),
        cmocka_unit_test(test_reserve),
        cmocka_unit_test(test_random_against_model),
        cmocka_unit_test(test_contig_across_blocks),
        cmocka_unit_test(test_contig_fit_or_no_fit),
        cmocka_unit_test(test_operation_count_is_logarithmic),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
