// SPDX-License-Identifier: Apache-2.0
/*
 * Page-table manager: edits one address space's tables in VRAM.
 *
 * Every command is one walk over its VA range [lo, hi), run twice:
 *  1. counting: nothing is written; every table the walk would create is
 *     counted (tables it would split are read as their split content);
 *  2. applying: the counted blocks are reserved from vram_alloc first, so
 *     this pass cannot fail, then the same decisions are taken and written.
 * Both passes take their decisions from the same reads, so the count is
 * exact (count_short/count_excess check that).
 *
 * What a command writes is described by a source: "invalid", "zero", a
 * list of physical extents, or a copy of another VA range (protect is a
 * copy of the range onto itself with new attributes). The walk asks the
 * source for runs: the longest piece from a VA that one entry could map.
 *
 * Layout choices (docs/page-table-manager.md):
 *  - a 2 MB region is a 2 MB page or zero entry in word 0, or 32 chunks of
 *    64 KB. A chunk is either one 64 KB entry (word-1 table) with its 16
 *    4 KB entries invalid, or 16 4 KB entries (word-0 table) with its 64 KB
 *    entry invalid: the 4 KB overlay never shadows a valid 64 KB page.
 *  - the 256-byte 64 KB-page tables of 16 neighbouring 2 MB regions (a
 *    32 MB window) share one 4 KB "slab" block, slot by VA; the slab is
 *    found through any valid word 1 of the window, so it needs no RAM.
 *  - invalid entries are always written as 0, so tables, slabs and freed
 *    blocks are all-zero when empty.
 *  - blocks reserved for a command, and blocks freed while waiting for the
 *    TLB invalidation, are kept on lists threaded through their own first
 *    word (an offset, so VALID stays 0): RAM use does not grow with them.
 */
#include "ptmgr.h"

#include "gmmu/pte_util.h"

#define LEAF        0u
#define DUAL        1u
#define ENTRIES     512u
#define SIZE_4K     (UINT64_C(1) << GMMU_PAGE_SHIFT_4K)
#define SIZE_64K    (UINT64_C(1) << GMMU_PAGE_SHIFT_64K)
#define SHIFT_2M    21u
#define SIZE_2M     (UINT64_C(1) << SHIFT_2M)
#define SIZE_1G     (UINT64_C(1) << 30)
#define CHUNKS      ((unsigned)(SIZE_2M / SIZE_64K))
#define CHUNK_PAGES ((unsigned)(SIZE_64K / SIZE_4K))
#define SLAB_SLOTS  (GMMU_TABLE_BYTES / GMMU_LEAF64K_TABLE_BYTES)
#define WINDOW_SPAN (SIZE_2M * SLAB_SLOTS)
#define DUAL_BYTES  (GMMU_L1_ENTRY_WORDS * GMMU_PTE_BYTES)
#define RUN_WORDS   32u
#define SCAN_WORDS  16u /* words freeing a subtree reads at once */
#define NO_BLOCK    UINT64_MAX

enum block_kind { BLOCK_4K = 0, BLOCK_8K = 1 };

static const uint64_t block_bytes[2] = { GMMU_TABLE_BYTES, GMMU_L1_TABLE_BYTES };
static const uint64_t zero_words[RUN_WORDS];

/* ------------------------------------------------------------ sources */

enum run_kind { RUN_INVALID, RUN_ZERO, RUN_MAPPED };

/* What [va, va + len) should become: uniform (invalid, or zero with the
 * same attributes) or one linear mapping. */
struct run {
    enum run_kind kind;
    uint64_t len;
    uint64_t pa; /* at the run's first byte */
    unsigned segment;
    uint64_t attrs; /* PTE attribute bits */
    unsigned pages; /* PTM_PAGE_* sizes the run may be mapped with */
    unsigned shift; /* lookups: size of the entry found */
};

/* Every field set: a partly initialised struct is a memset call at -Os,
 * and picolibc's memset takes about 12 cycles a byte on this core; runs
 * are made once per entry. */
static struct run run_make(enum run_kind kind, uint64_t len, uint64_t attrs)
{
    struct run r;

    r.kind = kind;
    r.len = len;
    r.pa = 0;
    r.segment = 0;
    r.attrs = attrs;
    r.pages = 0;
    r.shift = 0;
    return r;
}

enum source_kind { SRC_INVALID, SRC_ZERO, SRC_EXTENTS, SRC_COPY };

struct source {
    enum source_kind kind;
    uint64_t attrs;      /* PTE bits: ZERO, EXTENTS, protect */
    bool override_attrs; /* COPY as protect */
    unsigned segment;
    unsigned pages;
    const struct ptm_extent *ext;
    size_t ext_count;
    uint64_t va0;        /* the command's first VA */
    uint64_t copy_delta; /* src - dst, modulo 2^64 */
    size_t cur;          /* extent holding the last lookup */
    uint64_t cur_start;  /* its offset from va0 */
};

/* Every field set: an initialiser would clear the struct with picolibc's
   memset (about 10 cycles a byte at -Os), once per command. */
static void source_init(struct source *s, enum source_kind kind, uint64_t attrs)
{
    s->kind = kind;
    s->attrs = attrs;
    s->override_attrs = false;
    s->segment = 0;
    s->pages = 0;
    s->ext = NULL;
    s->ext_count = 0;
    s->va0 = 0;
    s->copy_delta = 0;
    s->cur = 0;
    s->cur_start = 0;
}

/* Pending words of one run of consecutive entries. With a write_pattern
 * hook, a run whose words step evenly (the entries of one linear mapping,
 * a clear) keeps growing past the buffer as (first, step, n): one packet
 * for a whole table. */
struct writer {
    uint64_t offset;
    uint32_t n;
    bool even;    /* words[] so far step by words[1] - words[0] */
    bool pattern; /* past the buffer: first + i * step, words[] unused */
    uint64_t first, step;
    uint64_t words[RUN_WORDS];
};

/* Longest pattern run: a 4 KB table's entries many times over, and well
 * inside the engine's 32-bit COUNT. */
#define PATTERN_MAX (1u << 20)

struct op {
    struct ptm *pm;
    struct source *src;
    bool counting;
    bool changed;
    uint32_t need[2]; /* blocks the counting pass found */
    uint64_t inv_start, inv_end;
    struct writer w;
};

/* A table of the walk. A virtual one exists only while counting: it is the
 * table the apply pass will create, and reads as the split of `split`.
 * delta: valid words gained by the command's writes into it (apply);
 * fresh: made by this command, so its count starts at 0. */
struct table {
    uint64_t offset;
    uint64_t split;
    bool is_virtual;
    bool fresh;
    int32_t delta;
};

/* ------------------------------------------------------------ PTE helpers */

static bool pte_valid(uint64_t e)
{
    return gmmu_pte_is_valid(e);
}

/* A valid entry that ends the walk: zero or large page. */
static bool pte_terminal(uint64_t e)
{
    return pte_valid(e) && (gmmu_pte_is_zero(e) || gmmu_pte_is_large_page(e));
}

static bool pte_table(uint64_t e)
{
    return pte_valid(e) && !pte_terminal(e);
}

static uint64_t attrs_to_pte(unsigned attrs)
{
    return ((attrs & PTM_ATTR_READ_ONLY) ? GMMU_PTE_READ_ONLY : 0) |
           ((attrs & PTM_ATTR_NO_EXECUTE) ? GMMU_PTE_NO_EXECUTE : 0) |
           ((attrs & PTM_ATTR_CACHE_COHERENT) ? GMMU_PTE_CACHE_COHERENT : 0);
}

static unsigned pte_to_attrs(uint64_t e)
{
    return (gmmu_pte_is_read_only(e) ? PTM_ATTR_READ_ONLY : 0) |
           (gmmu_pte_is_no_execute(e) ? PTM_ATTR_NO_EXECUTE : 0) |
           (gmmu_pte_is_cache_coherent(e) ? PTM_ATTR_CACHE_COHERENT : 0);
}

static uint64_t level_span(unsigned level)
{
    return UINT64_C(1) << gmmu_level_shift(level);
}

/* The PTM_PAGE_* size an entry of this level maps; 0 where no page fits
 * (level 3). Level 0 means a 64 KB chunk here: 4 KB pages are per page. */
static unsigned level_page(unsigned level)
{
    static const unsigned page[] = { PTM_PAGE_64K, PTM_PAGE_2M, PTM_PAGE_1G, 0 };
    return page[level];
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Entry mapping a run: a leaf page (level 0) or a large page or zero. */
static uint64_t make_entry(const struct run *r, uint64_t offset, unsigned level)
{
    if (r->kind == RUN_INVALID)
        return 0;
    if (r->kind == RUN_ZERO)
        return gmmu_pte_make_zero(r->attrs);
    if (level == LEAF)
        return gmmu_pte_make_page(r->pa + offset, r->segment, r->attrs);
    return gmmu_pte_make_large_page(r->pa + offset, r->segment, r->attrs);
}

/* Entry i of the table that replaces `parent` (a large page or zero entry)
 * one level down; the translation stays the same. Level-1 entries are
 * word 0; level 0 means the 64 KB chunks of a 2 MB page. */
static uint64_t split_child(uint64_t parent, unsigned child_level, unsigned i)
{
    uint64_t span = child_level == LEAF ? SIZE_64K : level_span(child_level);
    uint64_t pa;

    if (!pte_terminal(parent))
        return 0;
    if (gmmu_pte_is_zero(parent))
        return gmmu_pte_make_zero(parent & GMMU_PTE_PAGE_ATTRS);
    pa = gmmu_pte_addr(parent) + span * i;
    if (child_level == LEAF)
        return gmmu_pte_make_page(pa, gmmu_pte_segment(parent), parent & GMMU_PTE_PAGE_ATTRS);
    return gmmu_pte_make_large_page(pa, gmmu_pte_segment(parent), parent & GMMU_PTE_PAGE_ATTRS);
}

/* ------------------------------------------------------------ VRAM access */

static void hw_write_run(const struct ptm *pm, uint64_t offset, const uint64_t *words, size_t n)
{
    if (pm->hw->write_run) {
        pm->hw->write_run(pm->hw_ctx, offset, words, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        pm->hw->write64(pm->hw_ctx, offset + i * GMMU_PTE_BYTES, words[i]);
}

static uint64_t hw_read(const struct ptm *pm, uint64_t offset)
{
    return pm->read64(pm->read_ctx, offset);
}

static void hw_read_run(const struct ptm *pm, uint64_t offset, uint64_t *words, size_t n)
{
    if (pm->hw->read_run) {
        pm->hw->read_run(pm->hw_ctx, offset, words, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        words[i] = hw_read(pm, offset + i * GMMU_PTE_BYTES);
}

static void hw_write_pattern(const struct ptm *pm, uint64_t offset, uint64_t first, uint64_t step,
                             size_t n)
{
    pm->hw->write_pattern(pm->hw_ctx, offset, first, step, n);
}

/* Runs of three or more even words go out as one pattern: shorter than
 * the words themselves on a paging engine's queue. */
static void flush(struct op *op)
{
    struct writer *w = &op->w;

    if (!w->n)
        return;
    if (w->pattern)
        hw_write_pattern(op->pm, w->offset, w->first, w->step, w->n);
    else if (w->even && w->n >= 3 && op->pm->hw->write_pattern)
        hw_write_pattern(op->pm, w->offset, w->words[0], w->words[1] - w->words[0], w->n);
    else
        hw_write_run(op->pm, w->offset, w->words, w->n);
    w->n = 0;
    w->pattern = false;
}

/* Queue one entry write. Writes reach VRAM in the order they are put;
 * consecutive ones go out as one run. */
static void put(struct op *op, uint64_t offset, uint64_t value)
{
    struct writer *w = &op->w;
    bool next = w->n && offset == w->offset + w->n * GMMU_PTE_BYTES;

    op->changed = true;
    if (w->pattern) {
        if (next && value == w->first + w->n * w->step && w->n < PATTERN_MAX) {
            w->n++;
            return;
        }
        flush(op);
    } else if (w->n == RUN_WORDS && next && w->even && op->pm->hw->write_pattern &&
               value - w->words[RUN_WORDS - 1] == w->words[1] - w->words[0]) {
        w->pattern = true;
        w->first = w->words[0];
        w->step = w->words[1] - w->words[0];
        w->n++;
        return;
    } else if (w->n && (!next || w->n == RUN_WORDS)) {
        flush(op);
    }
    if (!w->n) {
        w->offset = offset;
        w->even = true;
    } else if (w->n >= 2 && value - w->words[w->n - 1] != w->words[1] - w->words[0]) {
        w->even = false;
    }
    w->words[w->n++] = value;
}

/* Queue n writes first + i * step from offset, as n put() calls would: a
 * pattern grows by n at once, so a run of like entries costs the same
 * whatever its length. Short runs, and hooks without write_pattern, go
 * word by word. */
static void put_pattern(struct op *op, uint64_t offset, uint64_t first, uint64_t step, uint32_t n)
{
    struct writer *w = &op->w;
    bool next = w->n && offset == w->offset + w->n * GMMU_PTE_BYTES;

    if (n < 3 || !op->pm->hw->write_pattern) {
        for (uint32_t i = 0; i < n; i++, first += step)
            put(op, offset + i * GMMU_PTE_BYTES, first);
        return;
    }
    op->changed = true;
    if (next && w->pattern && w->step == step && first == w->first + w->n * step &&
        w->n + n <= PATTERN_MAX) {
        w->n += n;
        return;
    }
    flush(op);
    w->offset = offset;
    w->pattern = true;
    w->first = first;
    w->step = step;
    w->n = n;
}

/* Read an entry, seeing the writes still queued. op may be NULL. */
static uint64_t get(const struct ptm *pm, const struct op *op, uint64_t offset)
{
    if (op && op->w.n && offset >= op->w.offset &&
        offset < op->w.offset + op->w.n * GMMU_PTE_BYTES) {
        uint64_t i = (offset - op->w.offset) / GMMU_PTE_BYTES;

        return op->w.pattern ? op->w.first + i * op->w.step : op->w.words[i];
    }
    return hw_read(pm, offset);
}

/* n consecutive entries, seeing the writes still queued. */
static void get_run(const struct op *op, uint64_t offset, uint64_t *words, size_t n)
{
    const struct writer *w = &op->w;

    if (w->n && offset < w->offset + w->n * GMMU_PTE_BYTES &&
        w->offset < offset + n * GMMU_PTE_BYTES) {
        for (size_t i = 0; i < n; i++)
            words[i] = get(op->pm, op, offset + i * GMMU_PTE_BYTES);
        return;
    }
    hw_read_run(op->pm, offset, words, n);
}

/* Queue the write of an entry that holds `old` now, keeping its table's
 * count of valid words (*delta, settled once per table and command). */
static void put_counted(struct op *op, int32_t *delta, uint64_t offset, uint64_t old,
                        uint64_t value)
{
    *delta += (int32_t)pte_valid(value) - (int32_t)pte_valid(old);
    put(op, offset, value);
}

/* ------------------------------------------------------------ valid counts */

/*
 * Every table's count of valid words lives in pm->counts, 16 bytes per
 * 4 KB page of the segment (PTM_COUNT_WORDS): a 4 KB or 8 KB table's is
 * word 0 of its first page's four, a 64 KB-page table's the byte of its
 * 256-byte slot. The root's is root_valid, in RAM. A command adds up the
 * changes of each table it writes (put_counted) and settles them once, so
 * a table's emptiness costs one count read instead of a scan of its words.
 */
static uint32_t *count_word(const struct ptm *pm, uint64_t table)
{
    return &pm->counts[(table >> GMMU_PAGE_SHIFT_4K) * 4u];
}

static uint8_t *count_byte(const struct ptm *pm, uint64_t leaf64k)
{
    return (uint8_t *)pm->counts + (leaf64k >> 8);
}

static uint32_t count_read(const struct ptm *pm, uint64_t table, bool leaf64k)
{
    if (table == pm->root)
        return pm->root_valid;
    return leaf64k ? *count_byte(pm, table) : *count_word(pm, table);
}

/* A table's count after the command's writes into it, stored if they
 * changed it; whether the table still holds a valid word. A table that was
 * there before and whose count did not change is in use (an empty one
 * would have been freed); a fresh one starts at 0. */
static bool count_settle(struct ptm *pm, uint64_t table, bool leaf64k, bool fresh, int32_t delta)
{
    uint32_t n;

    if (!delta)
        return !fresh;
    n = (uint32_t)((int32_t)(fresh ? 0 : count_read(pm, table, leaf64k)) + delta);
    if (table == pm->root)
        pm->root_valid = (uint16_t)n;
    else if (leaf64k)
        *count_byte(pm, table) = (uint8_t)n;
    else
        *count_word(pm, table) = n;
    return n != 0;
}

/* A new slab's slots hold no table: their counts start at 0, so that the
 * slab reads as empty once its last table goes (window_finish). */
static void count_clear_slab(const struct ptm *pm, uint64_t slab)
{
    uint32_t *c = count_word(pm, slab);

    c[0] = c[1] = c[2] = c[3] = 0;
}

static void fill_zero(struct op *op, uint64_t offset, uint64_t bytes)
{
    flush(op);
    if (op->pm->hw->write_pattern) {
        hw_write_pattern(op->pm, offset, 0, 0, (size_t)(bytes / GMMU_PTE_BYTES));
        return;
    }
    for (uint64_t done = 0; done < bytes; done += sizeof(zero_words))
        hw_write_run(op->pm, offset + done, zero_words,
                     (size_t)min64(RUN_WORDS, (bytes - done) / GMMU_PTE_BYTES));
}

static uint64_t table_word(struct op *op, const struct table *t, unsigned level, unsigned word)
{
    if (!t->is_virtual)
        return get(op->pm, op, t->offset + (uint64_t)word * GMMU_PTE_BYTES);
    if (level == DUAL)
        return (word & 1) ? 0 : split_child(t->split, DUAL, word / 2);
    return split_child(t->split, level, word);
}

/* ------------------------------------------------------------ block lists */

static void list_push(struct ptm *pm, struct ptm_block_list *list, uint64_t offset)
{
    pm->hw->write64(pm->hw_ctx, offset, list->head);
    list->head = offset;
    list->count++;
}

/* Whether the hardware dropped a write of this command: links written
   since may be missing (ptm_hw.failed). */
static bool hw_failed(const struct ptm *pm)
{
    return pm->hw->failed && pm->hw->failed(pm->hw_ctx);
}

/* Gives a list up without reading a link (its blocks are lost). */
static void list_abandon(struct ptm *pm, struct ptm_block_list *list, enum block_kind kind)
{
    pm->lost_bytes += (uint64_t)list->count * block_bytes[kind];
    list->count = 0;
}

/* The head (kept in CPU memory, so always right); the next is read from
   the head's first word. If the hardware has failed by then (the read
   waits for the writes it depends on, so it finds out), that link may
   never have been written: the rest of the list is given up (lost). */
static uint64_t list_pop(struct ptm *pm, struct ptm_block_list *list, enum block_kind kind)
{
    uint64_t offset = list->head;

    list->count--;
    if (!list->count)
        return offset;
    list->head = hw_read(pm, offset);
    if (hw_failed(pm))
        list_abandon(pm, list, kind);
    return offset;
}

/* was_table: the block was reachable by the walker (reported to the
 * table_freed hook); otherwise it was only reserved or never linked. */
static void free_block(struct ptm *pm, enum block_kind kind, uint64_t offset, bool was_table)
{
    if (was_table && pm->hw->table_freed)
        pm->hw->table_freed(pm->hw_ctx, offset, block_bytes[kind]);
    vram_alloc_free_block(pm->vram, offset, NULL);
}

static void free_list_all(struct ptm *pm, struct ptm_block_list *list, enum block_kind kind,
                          bool were_tables)
{
    while (list->count)
        free_block(pm, kind, list_pop(pm, list, kind), were_tables);
}

/* Four of these end every command, the lists almost always empty: the
   test is inline so an empty list costs no call. */
static inline void free_list(struct ptm *pm, struct ptm_block_list *list, enum block_kind kind,
                             bool were_tables)
{
    if (list->count)
        free_list_all(pm, list, kind, were_tables);
}

/* Reserve what the counting pass found, 8 KB blocks first so the 4 KB ones
 * do not split the larger free blocks. All or nothing. */
static enum ptm_status reserve_blocks(struct ptm *pm, const uint32_t need[2])
{
    static const enum block_kind order[2] = { BLOCK_8K, BLOCK_4K };

    for (unsigned k = 0; k < 2; k++) {
        enum block_kind kind = order[k];

        for (uint32_t i = 0; i < need[kind]; i++) {
            uint64_t offset;

            if (vram_alloc_block(pm->vram, block_bytes[kind], &offset) != VRAM_OK) {
                free_list(pm, &pm->reserved[BLOCK_4K], BLOCK_4K, false);
                free_list(pm, &pm->reserved[BLOCK_8K], BLOCK_8K, false);
                return PTM_ERR_NO_VRAM;
            }
            list_push(pm, &pm->reserved[kind], offset);
        }
    }
    return PTM_OK;
}

/* A block for a new table, cleared unless the caller fills every word.
 * While counting only the need is noted. */
static uint64_t take_block(struct op *op, enum block_kind kind, bool clear)
{
    struct ptm *pm = op->pm;
    uint64_t offset;

    if (op->counting) {
        op->need[kind]++;
        return NO_BLOCK;
    }
    flush(op);
    if (pm->reserved[kind].count) {
        offset = list_pop(pm, &pm->reserved[kind], kind);
    } else {
        /* The count was wrong: never expected, but try to carry on. */
        pm->count_short++;
        if (vram_alloc_block(pm->vram, block_bytes[kind], &offset) != VRAM_OK)
            return NO_BLOCK;
    }
    if (clear)
        fill_zero(op, offset, block_bytes[kind]);
    return offset;
}

/* Hold a freed table until the TLB invalidation covering [va_lo, va_hi)
 * has been issued. Its entries are already all invalid. */
static void defer_block(struct op *op, enum block_kind kind, uint64_t offset, uint64_t va_lo,
                        uint64_t va_hi)
{
    flush(op);
    list_push(op->pm, &op->pm->deferred[kind], offset);
    op->inv_start = min64(op->inv_start, va_lo);
    op->inv_end = max64(op->inv_end, va_hi);
    op->changed = true;
}

/* A table made by this command that ended up unused: never linked, so it
 * can go back at once. */
static void drop_fresh(struct op *op, enum block_kind kind, uint64_t offset)
{
    flush(op);
    free_block(op->pm, kind, offset, false);
}

/* ------------------------------------------------------------ source runs */

static bool runs_join(const struct run *a, const struct run *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == RUN_INVALID)
        return true;
    if (a->attrs != b->attrs)
        return false;
    return a->kind == RUN_ZERO || (b->segment == a->segment && b->pa == a->pa + a->len);
}

/* The run a terminal entry gives from va to the end of what it maps. */
static struct run entry_run(uint64_t e, uint64_t va, unsigned shift, unsigned pages)
{
    uint64_t mask = (UINT64_C(1) << shift) - 1;
    struct run r = run_make(RUN_INVALID, (mask + 1) - (va & mask), 0);

    r.shift = shift;

    if (!pte_valid(e))
        return r;
    r.attrs = e & GMMU_PTE_PAGE_ATTRS;
    if (gmmu_pte_is_zero(e)) {
        r.kind = RUN_ZERO;
        return r;
    }
    r.kind = RUN_MAPPED;
    r.pa = (gmmu_pte_addr(e) & ~mask) + (va & mask);
    r.segment = gmmu_pte_segment(e);
    r.pages = pages;
    return r;
}

/* An entry the walker rejects (large page where none is allowed, table in
 * the wrong segment) reads as invalid, as docs/page-tables.md says. */
static struct run invalid_run(uint64_t va, unsigned shift)
{
    return entry_run(0, va, shift, 0);
}

/* Level-1 entry cached by one lookup sequence. */
struct cursor {
    bool valid;
    uint64_t region; /* VA of the 2 MB region */
    uint64_t w0, w1;
};

/* A valid leaf entry; LARGE_PAGE is malformed there (the walker faults). */
static struct run leaf_run(uint64_t e, uint64_t va, unsigned shift, unsigned pages)
{
    if (gmmu_pte_is_large_page(e) && !gmmu_pte_is_zero(e))
        return invalid_run(va, shift);
    return entry_run(e, va, shift, pages);
}

static uint64_t leaf_offset(uint64_t table_ptr, uint64_t va, bool pages_64k)
{
    unsigned i = pages_64k ? gmmu_va_index_64k(va) : gmmu_va_index(va, LEAF);

    return gmmu_pte_addr(table_ptr) + (uint64_t)i * GMMU_PTE_BYTES;
}

/* Word 1 of a dual entry: the 64 KB-page table (or a zero 2 MB range). */
static struct run lookup_word1(const struct ptm *pm, const struct op *op, uint64_t w1, uint64_t va)
{
    uint64_t e;

    if (!pte_valid(w1))
        return invalid_run(va, SHIFT_2M);
    if (gmmu_pte_is_zero(w1))
        return entry_run(w1, va, SHIFT_2M, 0);
    if (gmmu_pte_is_large_page(w1) || gmmu_pte_segment(w1) != GMMU_SEGMENT_VRAM)
        return invalid_run(va, SHIFT_2M);
    e = get(pm, op, leaf_offset(w1, va, true));
    if (!pte_valid(e))
        return invalid_run(va, GMMU_PAGE_SHIFT_64K);
    return leaf_run(e, va, GMMU_PAGE_SHIFT_64K, PTM_PAGE_4K | PTM_PAGE_64K);
}

/* The 2 MB region's dual entry, in the order docs/page-tables.md gives:
 * word-0 terminal, then a valid 4 KB page, then word 1. */
static struct run lookup_dual(const struct ptm *pm, const struct op *op, const struct cursor *c,
                              uint64_t va)
{
    struct run r;
    uint64_t e;

    if (pte_terminal(c->w0))
        return entry_run(c->w0, va, SHIFT_2M, PTM_PAGE_4K | PTM_PAGE_64K | PTM_PAGE_2M);
    if (!pte_valid(c->w0))
        return lookup_word1(pm, op, c->w1, va);
    if (gmmu_pte_segment(c->w0) != GMMU_SEGMENT_VRAM)
        return invalid_run(va, GMMU_PAGE_SHIFT_4K);
    e = get(pm, op, leaf_offset(c->w0, va, false));
    if (pte_valid(e))
        return leaf_run(e, va, GMMU_PAGE_SHIFT_4K, PTM_PAGE_4K);
    /* The next page's 4 KB entry may win again: one page at a time. */
    r = lookup_word1(pm, op, c->w1, va);
    r.len = min64(r.len, SIZE_4K - (va & (SIZE_4K - 1)));
    return r;
}

/* What the tables say about va, as a run to the end of the entry that maps
 * it (or of the invalid entry). The walk of gmmu_ref, without permissions. */
static struct run lookup(const struct ptm *pm, const struct op *op, struct cursor *c, uint64_t va)
{
    uint64_t table = pm->root;
    unsigned level;

    if (c->valid && c->region == (va & ~(SIZE_2M - 1)))
        return lookup_dual(pm, op, c, va);
    for (level = pm->levels - 1u; level > DUAL; level--) {
        uint64_t e = get(pm, op, table + (uint64_t)gmmu_va_index(va, level) * GMMU_PTE_BYTES);
        unsigned shift = gmmu_level_shift(level);

        if (!pte_valid(e) || gmmu_pte_is_zero(e))
            return entry_run(e, va, shift, 0);
        if (gmmu_pte_is_large_page(e))
            return level == 2 ? entry_run(e, va, shift, PTM_PAGE_ALL) : invalid_run(va, shift);
        if (gmmu_pte_segment(e) != GMMU_SEGMENT_VRAM)
            return invalid_run(va, shift);
        table = gmmu_pte_addr(e);
    }
    table += (uint64_t)gmmu_va_index(va, DUAL) * DUAL_BYTES;
    *c = (struct cursor){
        .valid = true,
        .region = va & ~(SIZE_2M - 1),
        .w0 = get(pm, op, table),
        .w1 = get(pm, op, table + GMMU_PTE_BYTES),
    };
    return lookup_dual(pm, op, c, va);
}

/* A run that cannot become one entry of size `page` is not worth growing. */
static bool run_hopeless(const struct run *r, unsigned page, uint64_t va_span)
{
    if (!page || r->kind != RUN_MAPPED)
        return false;
    return !(r->pages & page) || (r->pa & (va_span - 1));
}

static struct run copy_run(struct op *op, uint64_t va, uint64_t max, unsigned page)
{
    struct source *s = op->src;
    struct cursor c = { .valid = false };
    uint64_t from = va + s->copy_delta;
    struct run r = lookup(op->pm, op, &c, from);

    r.len = min64(r.len, max);
    while (r.len < max && !run_hopeless(&r, page, max)) {
        struct run next = lookup(op->pm, op, &c, from + r.len);

        if (!runs_join(&r, &next))
            break;
        r.pages &= next.pages;
        r.len = min64(r.len + next.len, max);
    }
    if (s->override_attrs && r.kind != RUN_INVALID)
        r.attrs = s->attrs;
    return r;
}

static struct run extents_run(struct source *s, uint64_t va, uint64_t max)
{
    uint64_t off = va - s->va0;
    struct run r = run_make(RUN_MAPPED, 0, s->attrs);
    size_t j;

    r.segment = s->segment;
    r.pages = s->pages;

    while (off < s->cur_start) {
        s->cur--;
        s->cur_start -= s->ext[s->cur].size;
    }
    while (off >= s->cur_start + s->ext[s->cur].size) {
        s->cur_start += s->ext[s->cur].size;
        s->cur++;
    }
    r.pa = s->ext[s->cur].pa + (off - s->cur_start);
    r.len = s->ext[s->cur].size - (off - s->cur_start);
    /* Physically contiguous neighbours are one run. */
    for (j = s->cur + 1; r.len < max && j < s->ext_count && s->ext[j].pa == r.pa + r.len; j++)
        r.len += s->ext[j].size;
    r.len = min64(r.len, max);
    return r;
}

/*
 * The longest run from va (at most max bytes) of what the command wants
 * there. page: the entry size the caller hopes to use, so a copy can stop
 * reading early when that cannot work; 0 to get the full run.
 */
static struct run source_run(struct op *op, uint64_t va, uint64_t max, unsigned page)
{
    struct source *s = op->src;

    switch (s->kind) {
    case SRC_ZERO:
        return run_make(RUN_ZERO, max, s->attrs);
    case SRC_EXTENTS:
        return extents_run(s, va, max);
    case SRC_COPY:
        return copy_run(op, va, max, page);
    case SRC_INVALID:
        break;
    }
    return run_make(RUN_INVALID, max, 0);
}

/* Whether one entry of `span` bytes at this level can hold the run from
 * d bytes into it. */
static bool run_fits_entry(const struct run *r, uint64_t d, uint64_t span, unsigned page)
{
    if (r->len - d < span)
        return false;
    if (r->kind != RUN_MAPPED)
        return true;
    return page && (r->pages & page) && !((r->pa + d) & (span - 1));
}

/* Does the command leave [a, b) translating as the invalid or terminal
 * entry e (mapping 2^shift bytes) already does? Then nothing needs to
 * change there, and a large page need not be split. */
static bool source_matches(struct op *op, uint64_t e, unsigned shift, uint64_t a, uint64_t b)
{
    for (uint64_t pos = a; pos < b;) {
        struct run want = source_run(op, pos, b - pos, 0);
        struct run have = entry_run(e, pos, shift, 0);

        if (want.kind != have.kind)
            return false;
        if (want.kind != RUN_INVALID && want.attrs != have.attrs)
            return false;
        if (want.kind == RUN_MAPPED && (want.pa != have.pa || want.segment != have.segment))
            return false;
        pos += want.len;
    }
    return true;
}

/* ------------------------------------------------------------ freeing */

static void free_dual_table(struct op *op, uint64_t offset, uint64_t va)
{
    struct ptm *pm = op->pm;

    for (unsigned w = 0; w < ENTRIES / SLAB_SLOTS; w++) {
        uint64_t slab = NO_BLOCK;
        uint64_t run[2 * SLAB_SLOTS];

        /* The window's dual entries in one read. */
        get_run(op, offset + (uint64_t)w * SLAB_SLOTS * DUAL_BYTES, run, 2 * SLAB_SLOTS);
        for (unsigned j = 0; j < SLAB_SLOTS; j++) {
            uint64_t w0 = run[2 * j], w1 = run[2 * j + 1];
            uint64_t region = va + (uint64_t)(w * SLAB_SLOTS + j) * SIZE_2M;

            if (pte_table(w0)) {
                fill_zero(op, gmmu_pte_addr(w0), GMMU_TABLE_BYTES);
                defer_block(op, BLOCK_4K, gmmu_pte_addr(w0), region, region + SIZE_2M);
                pm->leaf4k_tables--;
            }
            if (pte_valid(w1)) {
                slab = gmmu_pte_addr(w1) & ~(uint64_t)(GMMU_TABLE_BYTES - 1);
                pm->leaf64k_tables--;
            }
        }
        if (slab != NO_BLOCK) {
            uint64_t wva = va + (uint64_t)w * WINDOW_SPAN;

            fill_zero(op, slab, GMMU_TABLE_BYTES);
            defer_block(op, BLOCK_4K, slab, wva, wva + WINDOW_SPAN);
            pm->slab_pages--;
        }
    }
    fill_zero(op, offset, GMMU_L1_TABLE_BYTES);
    defer_block(op, BLOCK_8K, offset, va, va + level_span(2));
    pm->l1_tables--;
}

/* Free a whole subtree whose parent entry no longer points at it: every
 * table is cleared (ExplicitPageTableInvalidation) and deferred. */
static void free_subtree(struct op *op, unsigned level, uint64_t offset, uint64_t va)
{
    if (level == DUAL) {
        free_dual_table(op, offset, va);
        return;
    }
    for (unsigned i = 0; i < ENTRIES; i += SCAN_WORDS) {
        uint64_t run[SCAN_WORDS];

        get_run(op, offset + (uint64_t)i * GMMU_PTE_BYTES, run, SCAN_WORDS);
        for (unsigned j = 0; j < SCAN_WORDS; j++)
            if (pte_table(run[j]))
                free_subtree(op, level - 1, gmmu_pte_addr(run[j]),
                             va + level_span(level) * (i + j));
    }
    fill_zero(op, offset, GMMU_TABLE_BYTES);
    defer_block(op, BLOCK_4K, offset, va, va + level_span(level + 1));
    op->pm->upper_tables--;
}

/* ------------------------------------------------------------ the walk */

static bool walk_table(struct op *op, unsigned level, struct table *t, uint64_t lo, uint64_t hi);

/* A new table one level below `parent`, holding its split. */
static bool new_table(struct op *op, unsigned level, uint64_t parent, struct table *t)
{
    enum block_kind kind = level == DUAL ? BLOCK_8K : BLOCK_4K;
    uint64_t stride = level == DUAL ? DUAL_BYTES : GMMU_PTE_BYTES;

    *t = (struct table){ .split = parent, .is_virtual = op->counting, .fresh = true };
    t->offset = take_block(op, kind, !pte_terminal(parent));
    if (op->counting)
        return true;
    if (t->offset == NO_BLOCK)
        return false;
    if (level == DUAL)
        op->pm->l1_tables++;
    else
        op->pm->upper_tables++;
    if (!pte_terminal(parent))
        return true;
    for (unsigned i = 0; i < ENTRIES; i++) {
        put_counted(op, &t->delta, t->offset + stride * i, 0, split_child(parent, level, i));
        if (level == DUAL)
            put(op, t->offset + stride * i + GMMU_PTE_BYTES, 0);
    }
    return true;
}

/* Entry e of t (level >= 2) is replaced by a terminal (or invalid) entry. */
static void replace_upper(struct op *op, unsigned level, struct table *t, uint64_t entry_offset,
                          uint64_t e, uint64_t ne, uint64_t base)
{
    if (ne == e)
        return;
    put_counted(op, &t->delta, entry_offset, e, ne);
    if (pte_table(e))
        free_subtree(op, level - 1, gmmu_pte_addr(e), base);
}

/* Go one level down below entry e of t for [a, b). Returns the entry
 * after. */
static uint64_t descend_upper(struct op *op, unsigned level, struct table *t, uint64_t entry_offset,
                              uint64_t e, uint64_t base, uint64_t a, uint64_t b)
{
    bool fresh = !pte_table(e);
    enum block_kind kind = level - 1 == DUAL ? BLOCK_8K : BLOCK_4K;
    struct table child = { .offset = gmmu_pte_addr(e) };
    bool in_use;

    if (fresh && !new_table(op, level - 1, e, &child))
        return e;
    in_use = walk_table(op, level - 1, &child, a, b);
    if (op->counting)
        return fresh ? GMMU_PTE_VALID : e;
    if (in_use) {
        /* The child is complete before the walker can reach it. */
        if (fresh)
            put_counted(op, &t->delta, entry_offset, e, gmmu_pte_make_table(child.offset));
        return fresh ? gmmu_pte_make_table(child.offset) : e;
    }
    if (level - 1 == DUAL)
        op->pm->l1_tables--;
    else
        op->pm->upper_tables--;
    if (fresh) {
        drop_fresh(op, kind, child.offset);
        if (pte_valid(e))
            put_counted(op, &t->delta, entry_offset, e, 0);
        return 0;
    }
    put_counted(op, &t->delta, entry_offset, e, 0);
    defer_block(op, kind, child.offset, base, base + level_span(level));
    return 0;
}

/* One entry of level >= 2 covering [base, base + span), of which the
 * command owns [a, b). Returns the entry after. */
static uint64_t upper_entry(struct op *op, unsigned level, struct table *t, uint64_t base,
                            uint64_t a, uint64_t b)
{
    uint64_t span = level_span(level);
    unsigned i = gmmu_va_index(base, level);
    uint64_t entry_offset = t->offset + (uint64_t)i * GMMU_PTE_BYTES;
    uint64_t e = table_word(op, t, level, i);

    if (!pte_table(e) && source_matches(op, e, gmmu_level_shift(level), a, b))
        return e;
    if (a == base && b == base + span) {
        struct run r = source_run(op, a, span, level_page(level));

        if (run_fits_entry(&r, 0, span, level_page(level))) {
            uint64_t ne = make_entry(&r, 0, level);

            if (!op->counting)
                replace_upper(op, level, t, entry_offset, e, ne, base);
            return ne;
        }
    }
    return descend_upper(op, level, t, entry_offset, e, base, a, b);
}

static bool walk_upper(struct op *op, unsigned level, struct table *t, uint64_t lo, uint64_t hi)
{
    uint64_t span = level_span(level);

    for (uint64_t base = lo & ~(span - 1); base < hi; base += span)
        upper_entry(op, level, t, base, max64(lo, base), min64(hi, base + span));
    if (op->counting)
        return true;
    return count_settle(op->pm, t->offset, false, t->fresh, t->delta);
}

/* ------------------------------------------------------------ level 1 */

/* The slab of one 32 MB window, and whether a slot of it was emptied. */
struct window {
    bool known;
    bool emptied;
    uint64_t slab;
};

static void window_note(struct window *win, uint64_t w1)
{
    win->known = true;
    win->slab = gmmu_pte_addr(w1) & ~(uint64_t)(GMMU_TABLE_BYTES - 1);
}

/* First dual entry of the window holding entry i. */
static unsigned window_first(unsigned i)
{
    return i & ~(SLAB_SLOTS - 1);
}

/* The 256-byte slot for entry i's 64 KB-page table, in the window's slab;
 * a new slab if the window has none. */
static uint64_t new_slot(struct op *op, const struct table *t, unsigned i, struct window *win)
{
    /* A new table's window has no slab but the command's. */
    for (unsigned j = window_first(i); !win->known && !t->fresh && j < window_first(i) + SLAB_SLOTS;
         j++) {
        uint64_t w1 = table_word(op, t, DUAL, 2 * j + 1);

        if (pte_valid(w1))
            window_note(win, w1);
    }
    if (!win->known) {
        win->slab = take_block(op, BLOCK_4K, true);
        win->known = true;
        if (op->counting || win->slab == NO_BLOCK)
            return NO_BLOCK;
        op->pm->slab_pages++;
        count_clear_slab(op->pm, win->slab);
    }
    if (op->counting || win->slab == NO_BLOCK)
        return NO_BLOCK;
    op->pm->leaf64k_tables++;
    return win->slab + (uint64_t)(i % SLAB_SLOTS) * GMMU_LEAF64K_TABLE_BYTES;
}

/* At the end of a window: a slab none of whose slots is in use goes. A
 * slot is in use exactly when its count is not 0 (a 64 KB-page table is
 * dropped when it empties, and a free slot's count is 0), so the slab's
 * 16 counts say it without reading the level-1 table. */
static void window_finish(struct op *op, uint64_t wbase, const struct window *win)
{
    const uint8_t *slots;

    if (op->counting || !win->emptied || win->slab == NO_BLOCK)
        return;
    slots = count_byte(op->pm, win->slab);
    for (unsigned j = 0; j < SLAB_SLOTS; j++)
        if (slots[j])
            return;
    /* Every slot was cleared as it emptied, so the block is all zero. */
    defer_block(op, BLOCK_4K, win->slab, wbase, wbase + WINDOW_SPAN);
    op->pm->slab_pages--;
}

enum chunk_action {
    CHUNK_KEEP,     /* untouched */
    CHUNK_64K,      /* one 64 KB entry (new64, maybe invalid); 4 KB entries cleared */
    CHUNK_4K,       /* 4 KB entries; 64 KB entry cleared */
    CHUNK_4K_SPLIT, /* 4 KB entries, the rest of the chunk from its 64 KB page */
};

/* The leaf tables of one 2 MB region while the command edits them. */
struct leaves {
    struct op *op;
    struct table *l1;
    unsigned index; /* of the dual entry */
    uint64_t entry_offset;
    uint64_t base, a, b; /* region VA; the command's part */
    uint64_t w0, w1;     /* the dual entry before */
    bool split;          /* w0 is a 2 MB page or zero, being split */
    uint64_t t4, t64;    /* leaf tables, NO_BLOCK if none */
    bool t4_fresh, t64_fresh;
    int32_t delta4, delta64;      /* valid words gained by t4, t64 */
    unsigned c0, c1;              /* chunks to visit, inclusive */
    uint64_t memo_va, memo_until; /* region_run: the source's run from memo_va */
    struct run memo;
    uint8_t action[CHUNKS];
    uint64_t new64[CHUNKS];
};

static uint64_t chunk_base(const struct leaves *lv, unsigned c)
{
    return lv->base + (uint64_t)c * SIZE_64K;
}

/* What chunk c's 64 KB entry translated to before the command. */
static uint64_t old64(const struct leaves *lv, unsigned c)
{
    if (lv->split)
        return split_child(lv->w0, LEAF, c);
    if (lv->t64 == NO_BLOCK || lv->t64_fresh)
        return 0;
    return get(lv->op->pm, lv->op, lv->t64 + (uint64_t)c * GMMU_PTE_BYTES);
}

/*
 * The source's run holding va, as lv->memo and the offset of va in it: a
 * run of extents or of a uniform source from va is the rest of any run
 * holding va, so one source_run to the command's end in the region serves
 * every chunk (and is never copied: a struct copy is a memcpy call). A
 * copy's run also depends on where it starts (the page sizes its pieces
 * allow) and on max, so a copy asks the source each time.
 */
static uint64_t region_run(struct leaves *lv, uint64_t va, uint64_t max, unsigned page)
{
    struct op *op = lv->op;
    bool copy = op->src->kind == SRC_COPY;

    if (copy || va < lv->memo_va || va >= lv->memo_until) {
        struct run r = source_run(op, va, copy ? max : lv->b - va, copy ? page : 0);

        /* Field by field: a struct assignment here is a memcpy call. */
        lv->memo.kind = r.kind;
        lv->memo.len = r.len;
        lv->memo.pa = r.pa;
        lv->memo.segment = r.segment;
        lv->memo.attrs = r.attrs;
        lv->memo.pages = r.pages;
        lv->memo.shift = r.shift;
        lv->memo_va = va;
        lv->memo_until = copy ? va : va + lv->memo.len;
    }
    return va - lv->memo_va;
}

/* Decide chunk c's layout, and that of the whole chunks after it that the
 * same run of the source covers (they decide alike: one entry each, the
 * next one step further, or 4 KB entries each); returns the last chunk
 * decided. Sets *need4 / *need64 when the decisions need a 4 KB / 64 KB-page
 * table with a valid entry in it. */
static unsigned plan_chunk(struct leaves *lv, unsigned c, bool *need4, bool *need64)
{
    struct op *op = lv->op;
    uint64_t cb0 = chunk_base(lv, c), cb1 = cb0 + SIZE_64K;
    uint64_t a = max64(lv->a, cb0), b = min64(lv->b, cb1);
    uint64_t was;

    if (a == cb0 && b == cb1) {
        uint64_t d = region_run(lv, a, SIZE_64K, PTM_PAGE_64K);
        bool fits = run_fits_entry(&lv->memo, d, SIZE_64K, PTM_PAGE_64K);
        uint64_t e = make_entry(&lv->memo, d, LEAF);
        uint64_t step = make_entry(&lv->memo, d + SIZE_64K, LEAF) - e;
        /* The chunks below `stop` end inside the run and the command. */
        unsigned stop = (unsigned)((min64(lv->b, lv->memo_until) - lv->base) / SIZE_64K);

        /* Not one entry: the run maps, so some page of the chunk is valid. */
        *need4 |= !fits;
        *need64 |= fits && pte_valid(e);
        for (;; c++, e += step) {
            lv->action[c] = fits ? CHUNK_64K : CHUNK_4K;
            lv->new64[c] = fits ? e : 0;
            if (c == lv->c1 || c + 1 >= stop)
                return c;
        }
    }
    was = old64(lv, c);
    lv->new64[c] = 0;
    if (a >= b) {
        /* Outside the command: only visited to carry a split over. */
        lv->action[c] = CHUNK_64K;
        lv->new64[c] = was;
    } else if (pte_valid(was) && source_matches(op, was, GMMU_PAGE_SHIFT_64K, a, b)) {
        lv->action[c] = CHUNK_KEEP;
        lv->new64[c] = was;
    } else if (pte_valid(was)) {
        lv->action[c] = CHUNK_4K_SPLIT;
        *need4 = true;
    } else {
        uint64_t d = region_run(lv, a, b - a, 0);

        /* A run ends where the source stops being what it was, so an
           invalid run shorter than [a, b) is followed by a valid one. */
        lv->action[c] = CHUNK_4K;
        *need4 |= lv->memo.kind != RUN_INVALID || lv->memo.len - d < b - a;
    }
    *need64 |= pte_valid(lv->new64[c]);
    return c;
}

/*
 * The 4 KB entries of [off, end) (offsets in the region, which fit 32 bits
 * and keep this code small) become what the run r says from d bytes into
 * it, or (r NULL) what the source says; old[] holds them now (NULL: a
 * fresh table, all invalid). Only the entries that change are written (an
 * unchanged one would cost a store and tell the walker nothing), each
 * stretch of them as one put_pattern: the entries of a run step evenly, so
 * a fresh table's run costs the same whatever its length.
 */
static void leaf_set(struct leaves *lv, const uint64_t *old, uint32_t off, uint32_t end,
                     const struct run *r, uint64_t d)
{
    while (off < end) {
        const struct run *run = r ? r : &lv->memo;
        uint64_t at = lv->t4 + (off / SIZE_4K) * GMMU_PTE_BYTES, from, want, step;
        uint32_t n, s = 0;
        int32_t valid;

        if (!r)
            d = region_run(lv, lv->base + off, end - off, 0);
        n = (uint32_t)min64(run->len - d, end - off) / (uint32_t)SIZE_4K;
        from = want = make_entry(run, d, LEAF);
        step = make_entry(run, d + SIZE_4K, LEAF) - from;
        valid = pte_valid(from);
        off += n * (uint32_t)SIZE_4K;
        d += n * (uint32_t)SIZE_4K;
        if (!old) {
            if (valid) {
                lv->delta4 += (int32_t)n;
                put_pattern(lv->op, at, from, step, n);
            }
            continue;
        }
        for (uint32_t i = 0; i < n; i++, want += step) {
            if (old[i] != want) {
                lv->delta4 += valid - (int32_t)pte_valid(old[i]);
                continue;
            }
            put_pattern(lv->op, at + s * GMMU_PTE_BYTES, from, step, i - s);
            s = i + 1;
            from = want + step;
        }
        put_pattern(lv->op, at + s * GMMU_PTE_BYTES, from, step, n - s);
        old += n;
    }
}

/*
 * Pass 1 (clear false): the 4 KB entries that become valid or change, in
 * ascending order: the command's from the source, the rest of a split
 * chunk from its 64 KB page. In a fresh table (all invalid) the chunks in
 * a row that turn to 4 KB entries are one range of the source, with
 * nothing to read. Pass 3 (clear true): the 4 KB entries under chunks that
 * are now one 64 KB entry (which is already in place) are cleared.
 */
static void pass_4k(struct leaves *lv, bool clear)
{
    static const struct run none = { .kind = RUN_INVALID, .len = SIZE_64K };
    uint64_t old[CHUNK_PAGES];
    uint32_t ra = (uint32_t)(lv->a - lv->base), rb = (uint32_t)(lv->b - lv->base);

    if (lv->t4 == NO_BLOCK || (clear && lv->t4_fresh))
        return;
    for (unsigned c = lv->c0; c <= lv->c1; c++) {
        uint32_t cb0 = c * (uint32_t)SIZE_64K, cb1 = cb0 + (uint32_t)SIZE_64K;
        uint32_t a = cb0 > ra ? cb0 : ra, b = cb1 < rb ? cb1 : rb;
        const uint64_t *o = lv->t4_fresh ? zero_words : old;
        unsigned act = lv->action[c];
        struct run r;

        if (clear != (act == CHUNK_64K) || act == CHUNK_KEEP)
            continue;
        if (act == CHUNK_4K && lv->t4_fresh) {
            while (c < lv->c1 && lv->action[c + 1] == CHUNK_4K)
                c++;
            cb1 = (c + 1) * (uint32_t)SIZE_64K;
            leaf_set(lv, NULL, a, cb1 < rb ? cb1 : rb, NULL, 0);
            continue;
        }
        if (o == old)
            get_run(lv->op, lv->t4 + (uint64_t)c * CHUNK_PAGES * GMMU_PTE_BYTES, old, CHUNK_PAGES);
        if (clear) {
            leaf_set(lv, old, cb0, cb1, &none, 0);
            continue;
        }
        if (act == CHUNK_4K_SPLIT) {
            r = entry_run(old64(lv, c), lv->base + cb0, GMMU_PAGE_SHIFT_64K, 0);
            leaf_set(lv, o, cb0, a, &r, 0);
        }
        leaf_set(lv, o + (a - cb0) / SIZE_4K, a, b, NULL, 0);
        if (act == CHUNK_4K_SPLIT)
            leaf_set(lv, o + (b - cb0) / SIZE_4K, b, cb1, &r, b - cb0);
    }
}

/* Pass 2: the 64 KB entries, set for 64 KB chunks and cleared for 4 KB ones
 * (whose 4 KB entries are already in place). In a fresh table (all
 * invalid) the valid entries in a row that step evenly are one
 * put_pattern. */
static void pass_64k(struct leaves *lv)
{
    if (lv->t64 == NO_BLOCK)
        return;
    for (unsigned c = lv->c0; c <= lv->c1; c++) {
        uint64_t at = lv->t64 + (uint64_t)c * GMMU_PTE_BYTES;
        uint64_t cur = lv->t64_fresh ? 0 : get(lv->op->pm, lv->op, at);
        /* A kept chunk is rewritten only when a split moves it. */
        uint64_t want = lv->new64[c];
        unsigned e = c;

        if (lv->t64_fresh && pte_valid(want)) {
            uint64_t step = c < lv->c1 ? lv->new64[c + 1] - want : 0;

            while (e < lv->c1 && pte_valid(lv->new64[e + 1]) &&
                   lv->new64[e + 1] - lv->new64[e] == step)
                e++;
            lv->delta64 += (int32_t)(e - c + 1);
            put_pattern(lv->op, at, want, step, e - c + 1);
            c = e;
        } else if (want != cur) {
            put_counted(lv->op, &lv->delta64, at, cur, want);
        }
    }
}

static bool leaf4k_in_use(struct leaves *lv)
{
    if (lv->t4 == NO_BLOCK)
        return false;
    return count_settle(lv->op->pm, lv->t4, false, lv->t4_fresh, lv->delta4);
}

/* A 64 KB-page table's count is settled even when it drops to 0: the free
 * slot must read 0 for window_finish. */
static bool leaf64k_in_use(struct leaves *lv)
{
    if (lv->t64 == NO_BLOCK)
        return false;
    return count_settle(lv->op->pm, lv->t64, true, lv->t64_fresh, lv->delta64);
}

/* Drop a 64 KB-page table whose entries are all invalid (so its slot is
 * all zero already); the slab goes at the window's end if it empties. */
static void drop_slot(struct leaves *lv, struct window *win)
{
    lv->op->pm->leaf64k_tables--;
    win->emptied = true;
    lv->op->inv_start = min64(lv->op->inv_start, lv->base);
    lv->op->inv_end = max64(lv->op->inv_end, lv->base + SIZE_2M);
}

static void drop_leaf4k(struct leaves *lv)
{
    lv->op->pm->leaf4k_tables--;
    if (lv->t4_fresh)
        drop_fresh(lv->op, BLOCK_4K, lv->t4);
    else
        defer_block(lv->op, BLOCK_4K, lv->t4, lv->base, lv->base + SIZE_2M);
}

/* Link the new tables and drop the emptied ones; returns the dual entry's
 * validity after. The walker sees a complete table or none. */
static bool leaves_finish(struct leaves *lv, struct window *win)
{
    struct op *op = lv->op;
    bool v4 = leaf4k_in_use(lv), v64 = leaf64k_in_use(lv);
    uint64_t w0_at = lv->entry_offset, w1_at = lv->entry_offset + GMMU_PTE_BYTES;

    int32_t *delta = &lv->l1->delta;

    if (lv->split) {
        /* The old 2 MB page shadows word 1, so word 1 goes first and
         * the single word-0 write switches over. */
        if (v64)
            put_counted(op, delta, w1_at, lv->w1, gmmu_pte_make_table_64k(lv->t64));
        put_counted(op, delta, w0_at, lv->w0, v4 ? gmmu_pte_make_table(lv->t4) : 0);
    } else {
        /* Fresh tables left empty were never linked. */
        if (lv->t4 != NO_BLOCK && !v4 && !lv->t4_fresh)
            put_counted(op, delta, w0_at, lv->w0, 0);
        if (lv->t64 != NO_BLOCK && !v64 && !lv->t64_fresh)
            put_counted(op, delta, w1_at, lv->w1, 0);
    }
    if (lv->t4 != NO_BLOCK && !v4)
        drop_leaf4k(lv);
    if (lv->t64 != NO_BLOCK && !v64)
        drop_slot(lv, win);
    /* The walk came down through tables, and the region keeps them: the
       next leaf edit here needs no upper read (ptm.leaf_key). */
    if (v4 && !v64) {
        op->pm->leaf_key = (lv->base >> SHIFT_2M) + 1;
        op->pm->leaf_table = lv->t4;
    }
    return v4 || v64;
}

/* A 2 MB region that needs leaf tables. Plan every chunk, create the
 * tables the plan needs, then write in an order that keeps every page
 * translating as before or as after, never invalid: new 4 KB entries,
 * the 64 KB entries, then the 4 KB entries under new 64 KB pages. */
static bool dual_leaves(struct leaves *lv, struct window *win)
{
    struct op *op = lv->op;
    bool need4 = false, need64 = false;
    unsigned i = lv->index;

    if (lv->split) {
        lv->c0 = 0;
        lv->c1 = CHUNKS - 1;
    } else {
        lv->c0 = (unsigned)((lv->a - lv->base) / SIZE_64K);
        lv->c1 = (unsigned)((lv->b - 1 - lv->base) / SIZE_64K);
    }
    for (unsigned c = lv->c0; c <= lv->c1; c++)
        c = plan_chunk(lv, c, &need4, &need64);

    if (need4 && lv->t4 == NO_BLOCK) {
        lv->t4 = take_block(op, BLOCK_4K, true);
        lv->t4_fresh = true;
        if (!op->counting && lv->t4 != NO_BLOCK)
            op->pm->leaf4k_tables++;
    }
    if (need64 && lv->t64 == NO_BLOCK) {
        lv->t64 = new_slot(op, lv->l1, i, win);
        lv->t64_fresh = true;
    }
    if (op->counting)
        return true;

    /* A fresh table is linked once it holds its valid entries; pass 3
     * only clears entries of a table that was there. */
    pass_4k(lv, false);
    if (!lv->split && lv->t4_fresh && lv->t4 != NO_BLOCK && lv->delta4)
        put_counted(op, &lv->l1->delta, lv->entry_offset, lv->w0, gmmu_pte_make_table(lv->t4));
    pass_64k(lv);
    if (!lv->split && lv->t64_fresh && lv->t64 != NO_BLOCK && lv->delta64)
        put_counted(op, &lv->l1->delta, lv->entry_offset + GMMU_PTE_BYTES, lv->w1,
                    gmmu_pte_make_table_64k(lv->t64));
    pass_4k(lv, true);
    return leaves_finish(lv, win);
}

/* The dual entry of t becomes terminal (2 MB page or zero) or invalid. */
static void replace_dual(struct op *op, struct table *t, uint64_t entry_offset, uint64_t w0,
                         uint64_t w1, uint64_t ne, uint64_t base, struct window *win)
{
    if (ne == w0 && !pte_valid(w1))
        return;
    put_counted(op, &t->delta, entry_offset, w0, ne);
    put_counted(op, &t->delta, entry_offset + GMMU_PTE_BYTES, w1, 0);
    if (pte_table(w0)) {
        fill_zero(op, gmmu_pte_addr(w0), GMMU_TABLE_BYTES);
        defer_block(op, BLOCK_4K, gmmu_pte_addr(w0), base, base + SIZE_2M);
        op->pm->leaf4k_tables--;
    }
    if (pte_valid(w1)) {
        fill_zero(op, gmmu_pte_addr(w1), GMMU_LEAF64K_TABLE_BYTES);
        *count_byte(op->pm, gmmu_pte_addr(w1)) = 0;
        op->pm->leaf64k_tables--;
        win->emptied = true;
    }
}

/* Field by field, as run_make: the per-chunk arrays (about 300 bytes) are
 * written by plan_chunk before anything reads them, so they are not
 * cleared. Once per 2 MB region and pass. */
static void leaves_init(struct leaves *lv, struct op *op, struct table *t, uint64_t base,
                        uint64_t a, uint64_t b)
{
    unsigned i = gmmu_va_index(base, DUAL);

    lv->op = op;
    lv->l1 = t;
    lv->index = i;
    lv->entry_offset = t->offset + (uint64_t)i * DUAL_BYTES;
    lv->base = base;
    lv->a = a;
    lv->b = b;
    lv->w0 = table_word(op, t, DUAL, 2 * i);
    lv->w1 = table_word(op, t, DUAL, 2 * i + 1);
    lv->split = false;
    lv->t4 = NO_BLOCK;
    lv->t64 = NO_BLOCK;
    lv->t4_fresh = lv->t64_fresh = false;
    lv->delta4 = lv->delta64 = 0;
    lv->c0 = lv->c1 = 0;
    lv->memo_va = lv->memo_until = 0;
}

/* One dual entry covering [base, base + 2 MB), of which the command owns
 * [a, b). Returns whether the entry maps anything after. */
static bool dual_entry(struct op *op, struct table *t, uint64_t base, uint64_t a, uint64_t b,
                       struct window *win)
{
    struct leaves lv;

    leaves_init(&lv, op, t, base, a, b);
    if (pte_valid(lv.w1))
        window_note(win, lv.w1);
    if (!pte_table(lv.w0) && !pte_valid(lv.w1) && source_matches(op, lv.w0, SHIFT_2M, a, b))
        return pte_valid(lv.w0);
    if (a == base && b == base + SIZE_2M) {
        uint64_t d = region_run(&lv, a, SIZE_2M, PTM_PAGE_2M);

        if (run_fits_entry(&lv.memo, d, SIZE_2M, PTM_PAGE_2M)) {
            uint64_t ne = make_entry(&lv.memo, d, DUAL);

            if (!op->counting)
                replace_dual(op, t, lv.entry_offset, lv.w0, lv.w1, ne, base, win);
            return pte_valid(ne);
        }
    }
    lv.split = pte_terminal(lv.w0);
    if (pte_table(lv.w0))
        lv.t4 = gmmu_pte_addr(lv.w0);
    if (pte_valid(lv.w1))
        lv.t64 = gmmu_pte_addr(lv.w1);
    return dual_leaves(&lv, win);
}

/*
 * A row of the n whole 2 MB regions from base (in one window) of a table
 * the command made from an invalid entry, so all invalid, decided at once
 * from one run of the source: 2 MB pages or zero entries, or 64 KB pages
 * in the window's slab, new unless the command made it (the row's slots
 * are consecutive, so their entries are one put_pattern). The decisions
 * are dual_entry's for each region; the row's dual entries are one run
 * from the writer's buffer (which flush empties). Returns the regions
 * done; 0 leaves base to dual_entry.
 */
static unsigned dual_row(struct op *op, struct table *t, uint64_t base, unsigned n,
                         struct window *win)
{
    unsigned i = gmmu_va_index(base, DUAL), word = 0;
    uint64_t *words = op->w.words, step, e, slot;
    struct run r;

    /* An unmap makes no table, and a copy's runs depend on where they
       start. */
    if (!n || !t->fresh || pte_valid(t->split) ||
        (op->src->kind != SRC_ZERO && op->src->kind != SRC_EXTENTS))
        return 0;
    r = source_run(op, base, (uint64_t)n << SHIFT_2M, 0);
    n = (unsigned)(r.len >> SHIFT_2M);
    step = r.kind == RUN_MAPPED ? gmmu_pte_addr_bits(SIZE_2M) : 0;
    e = make_entry(&r, 0, DUAL);
    if (!run_fits_entry(&r, 0, SIZE_2M, PTM_PAGE_2M)) {
        if (!n || !run_fits_entry(&r, 0, SIZE_64K, PTM_PAGE_64K))
            return 0;
        if (!win->known) {
            /* The slab's slots outside the row stay clear. */
            win->slab = take_block(op, BLOCK_4K, n < SLAB_SLOTS);
            win->known = true;
            if (win->slab != NO_BLOCK) {
                op->pm->slab_pages++;
                count_clear_slab(op->pm, win->slab);
            }
        }
        if (op->counting || win->slab == NO_BLOCK)
            return n;
        op->pm->leaf64k_tables += n;
        slot = win->slab + (uint64_t)(i % SLAB_SLOTS) * GMMU_LEAF64K_TABLE_BYTES;
        for (unsigned k = 0; k < n; k++)
            count_byte(op->pm, slot)[k] = CHUNKS;
        /* A mapped run: its 64 KB entry is its 2 MB one less LARGE_PAGE. */
        put_pattern(op, slot, e & ~GMMU_PTE_LARGE_PAGE, step / CHUNKS, n * CHUNKS);
        word = 1;
        e = gmmu_pte_make_table_64k(slot);
        step = gmmu_pte_addr_bits(GMMU_LEAF64K_TABLE_BYTES);
    }
    if (op->counting)
        return n;
    flush(op);
    op->changed = true;
    t->delta += (int32_t)n;
    for (unsigned j = 0; j < 2 * n; j += 2, e += step) {
        words[j + word] = e;
        words[j + 1 - word] = 0;
    }
    hw_write_run(op->pm, t->offset + (uint64_t)i * DUAL_BYTES, words, 2 * n);
    return n;
}

static bool walk_dual(struct op *op, struct table *t, uint64_t lo, uint64_t hi)
{
    for (uint64_t wbase = lo & ~(WINDOW_SPAN - 1); wbase < hi; wbase += WINDOW_SPAN) {
        struct window win = { .slab = NO_BLOCK };
        uint64_t end = min64(hi, wbase + WINDOW_SPAN);

        for (uint64_t base = max64(wbase, lo & ~(SIZE_2M - 1)); base < end;) {
            unsigned n = base < lo ? 0 : dual_row(op, t, base, (end - base) >> SHIFT_2M, &win);

            if (!n) {
                dual_entry(op, t, base, max64(lo, base), min64(hi, base + SIZE_2M), &win);
                n = 1;
            }
            base += (uint64_t)n << SHIFT_2M;
        }
        window_finish(op, wbase, &win);
    }
    if (op->counting)
        return true;
    return count_settle(op->pm, t->offset, false, t->fresh, t->delta);
}

/* Edit [lo, hi) of table t (level `level`); returns whether t still maps
 * anything (only meaningful when applying). */
static bool walk_table(struct op *op, unsigned level, struct table *t, uint64_t lo, uint64_t hi)
{
    if (level == DUAL)
        return walk_dual(op, t, lo, hi);
    return walk_upper(op, level, t, lo, hi);
}

/* ------------------------------------------------------------ commands */

static uint64_t va_limit(const struct ptm *pm)
{
    return UINT64_C(1) << ptm_va_bits(pm);
}

static bool range_ok(const struct ptm *pm, uint64_t va, uint64_t size)
{
    return size && va < va_limit(pm) && size <= va_limit(pm) - va;
}

/* Every write and invalidation asked for so far has completed (at once
 * without a complete hook: the stores were synchronous). */
static enum ptm_status hw_complete(const struct ptm *pm)
{
    if (pm->hw->complete && !pm->hw->complete(pm->hw_ctx))
        return PTM_ERR_ENGINE;
    return PTM_OK;
}

static enum ptm_status issue_invalidation(struct ptm *pm)
{
    enum ptm_status st;

    if (pm->inv_pending)
        pm->hw->invalidate(pm->hw_ctx, pm->asid, pm->inv_start, pm->inv_end);
    pm->inv_pending = false;
    /* The command completes here: its writes and its invalidation. */
    st = hw_complete(pm);
    /* Only now may the freed tables' VRAM be reused; not at all if a
       write failed: the entry that unlinked a table may not have landed,
       and the list's links may be missing. */
    if (st != PTM_OK) {
        list_abandon(pm, &pm->deferred[BLOCK_4K], BLOCK_4K);
        list_abandon(pm, &pm->deferred[BLOCK_8K], BLOCK_8K);
        return st;
    }
    free_list(pm, &pm->deferred[BLOCK_4K], BLOCK_4K, true);
    free_list(pm, &pm->deferred[BLOCK_8K], BLOCK_8K, true);
    return st;
}

static void note_invalidation(struct ptm *pm, const struct op *op)
{
    if (!op->changed)
        return;
    if (!pm->inv_pending) {
        pm->inv_start = op->inv_start;
        pm->inv_end = op->inv_end;
    }
    pm->inv_start = min64(pm->inv_start, op->inv_start);
    pm->inv_end = max64(pm->inv_end, op->inv_end);
    pm->inv_pending = true;
}

static void walk_root(struct op *op, uint64_t lo, uint64_t hi)
{
    struct table root = { .offset = op->pm->root };

    walk_table(op, op->pm->levels - 1u, &root, lo, hi);
}

/* An op for clearing blocks outside a command. Field by field: an
 * initialiser would clear the 256-byte write buffer (picolibc's memset,
 * about 10 cycles a byte: most of creating or destroying an empty space). */
static void op_bare(struct op *op, struct ptm *pm)
{
    op->pm = pm;
    op->src = NULL;
    op->counting = false;
    op->changed = false;
    op->need[BLOCK_4K] = op->need[BLOCK_8K] = 0;
    op->inv_start = op->inv_end = 0;
    op->w.offset = 0;
    op->w.n = 0;
    op->w.even = false;
    op->w.pattern = false;
}

/* How a command runs (plan_command). */
enum plan {
    PLAN_COUNT, /* count, reserve, apply: the general frame */
    PLAN_APPLY, /* apply only: no block can be taken */
    PLAN_LEAF,  /* leaf_edit: a few 4 KB entries of one leaf table */
};

/*
 * Whether the apply pass of [lo, hi) can take no block, so that counting
 * would find nothing: the range lies in one 2 MB region whose path from
 * the root is all tables down to a 4 KB-page table, and the region either
 * has its 64 KB-page table or the range holds no whole 64 KB chunk. Blocks
 * are taken only for a new or split upper table (every entry on the path
 * is a table), a new 4 KB-page table (there is one) and a new 64 KB-page
 * table slot (only for a chunk that becomes one 64 KB entry). It reads the
 * words the apply pass reads first. PLAN_COUNT when in doubt.
 *
 * PLAN_LEAF, within that, when the region has no 64 KB-page table either:
 * then every chunk the range touches is in 4 KB form and stays so, and
 * the command is its entries in the leaf table at *t4 (leaf_edit).
 */
static enum plan plan_command(struct op *op, uint64_t lo, uint64_t hi, uint64_t *t4)
{
    struct ptm *pm = op->pm;
    uint64_t table = pm->root, w0, w1, first_chunk;
    bool partial;

    if ((lo >> SHIFT_2M) != ((hi - 1) >> SHIFT_2M))
        return PLAN_COUNT;
    first_chunk = (lo + SIZE_64K - 1) & ~(SIZE_64K - 1);
    partial = first_chunk + SIZE_64K > hi;
    if (partial && pm->leaf_key == (lo >> SHIFT_2M) + 1) {
        *t4 = pm->leaf_table;
        return PLAN_LEAF;
    }
    for (unsigned level = pm->levels - 1u; level > DUAL; level--) {
        uint64_t e = get(pm, op, table + (uint64_t)gmmu_va_index(lo, level) * GMMU_PTE_BYTES);

        if (!pte_table(e))
            return PLAN_COUNT;
        table = gmmu_pte_addr(e);
    }
    table += (uint64_t)gmmu_va_index(lo, DUAL) * DUAL_BYTES;
    w0 = get(pm, op, table);
    if (!pte_table(w0))
        return PLAN_COUNT;
    /* Word 1 shares word 0's cache line. */
    w1 = get(pm, op, table + GMMU_PTE_BYTES);
    if (partial && !pte_valid(w1)) {
        *t4 = gmmu_pte_addr(w0);
        pm->leaf_key = (lo >> SHIFT_2M) + 1;
        pm->leaf_table = *t4;
        return PLAN_LEAF;
    }
    return partial || pte_valid(w1) ? PLAN_APPLY : PLAN_COUNT;
}

/*
 * The walk's result for PLAN_LEAF, in a few hundred bytes of code instead
 * of the general walk (whose code, several times the 4 KiB instruction
 * cache, was most of a one-page command): the range's entries (at most
 * two chunks) are read, replaced from the source, and the changed ones
 * written in ascending order, as the walk's first leaf pass does; the
 * table's count follows. An unmap that would empty the table, or a source
 * it does not handle, writes nothing and returns false: the general walk
 * then frees the table.
 */
static bool leaf_edit(struct op *op, uint64_t lo, uint64_t hi, uint64_t t4)
{
    uint64_t base = lo & ~(SIZE_64K - 1);
    unsigned i0 = (unsigned)((lo - base) / SIZE_4K), i1 = (unsigned)((hi - base) / SIZE_4K);
    uint64_t at = t4 + (uint64_t)gmmu_va_index(base, LEAF) * GMMU_PTE_BYTES;
    uint64_t old[2 * CHUNK_PAGES];
    int32_t delta = 0;

    if (op->src->kind != SRC_INVALID && op->src->kind != SRC_EXTENTS)
        return false;
    /* Only the range's entries are read, to leave the unchanged ones
       alone. */
    get_run(op, at + (uint64_t)i0 * GMMU_PTE_BYTES, old, i1 - i0);
    if (op->src->kind == SRC_INVALID) {
        for (unsigned i = 0; i < i1 - i0; i++)
            delta -= (int32_t)pte_valid(old[i]);
        if (!delta)
            return true;
        if ((int32_t)count_read(op->pm, t4, false) + delta == 0)
            return false;
        for (unsigned i = 0; i < i1 - i0; i++)
            if (old[i])
                put(op, at + (uint64_t)(i0 + i) * GMMU_PTE_BYTES, 0);
        count_settle(op->pm, t4, false, false, delta);
        return true;
    }
    for (uint64_t pos = lo; pos < hi;) {
        struct run r = source_run(op, pos, hi - pos, 0);

        for (uint64_t off = 0; off < r.len; off += SIZE_4K) {
            unsigned i = (unsigned)((pos + off - base) / SIZE_4K);
            uint64_t e = make_entry(&r, off, LEAF);

            if (e != old[i - i0])
                put_counted(op, &delta, at + (uint64_t)i * GMMU_PTE_BYTES, old[i - i0], e);
        }
        pos += r.len;
    }
    count_settle(op->pm, t4, false, false, delta);
    return true;
}

/* Count, reserve, apply, invalidate: the frame of every command. The
 * count is skipped where it would find nothing, and the walk where the
 * command is a few entries of one leaf table (plan_command): a map or
 * unmap of a few pages into tables that are there. */
static enum ptm_status run_command(struct ptm *pm, struct source *src, uint64_t lo, uint64_t hi)
{
    struct op op;
    enum ptm_status st;
    enum plan plan;
    uint64_t t4 = NO_BLOCK;
    bool direct = false;

    /* Not an initialiser: that would clear the 256-byte write buffer. */
    op.pm = pm;
    op.src = src;
    op.counting = true;
    op.changed = false;
    op.need[BLOCK_4K] = op.need[BLOCK_8K] = 0;
    op.inv_start = lo;
    op.inv_end = hi;
    op.w.offset = 0;
    op.w.n = 0;
    op.w.pattern = false;

    src->va0 = lo;
    plan = plan_command(&op, lo, hi, &t4);
    if (plan != PLAN_LEAF)
        pm->leaf_key = 0;
    if (plan == PLAN_COUNT) {
        walk_root(&op, lo, hi);
        st = reserve_blocks(pm, op.need);
        /* Counted over words the failed hardware left stale: its error,
           reported and cleared as at the end. */
        if (st != PTM_OK && hw_failed(pm))
            return hw_complete(pm) == PTM_OK ? st : PTM_ERR_ENGINE;
        if (st != PTM_OK)
            return st;
    }

    op.counting = false;
    src->cur = 0;
    src->cur_start = 0;
    if (plan == PLAN_LEAF && leaf_edit(&op, lo, hi, t4)) {
        direct = pm->hw->direct != NULL;
    } else {
        src->cur = 0;
        src->cur_start = 0;
        pm->leaf_key = 0;
        walk_root(&op, lo, hi);
    }
    /* leaf_edit only buffered its words: they are written here. */
    if (direct)
        pm->hw->direct(pm->hw_ctx, true);
    flush(&op);

    pm->count_excess += pm->reserved[BLOCK_4K].count + pm->reserved[BLOCK_8K].count;
    free_list(pm, &pm->reserved[BLOCK_4K], BLOCK_4K, false);
    free_list(pm, &pm->reserved[BLOCK_8K], BLOCK_8K, false);

    note_invalidation(pm, &op);
    st = pm->batch_depth ? PTM_OK : issue_invalidation(pm);
    if (direct)
        pm->hw->direct(pm->hw_ctx, false);
    return st;
}

static unsigned supported_pages(const struct ptm *pm)
{
    return pm->levels > 2 ? PTM_PAGE_ALL : PTM_PAGE_ALL & ~PTM_PAGE_1G;
}

static uint64_t smallest_page(unsigned pages)
{
    static const uint64_t size[] = { SIZE_4K, SIZE_64K, SIZE_2M, SIZE_1G };

    for (unsigned k = 0; k < 4; k++)
        if (pages & (1u << k))
            return size[k];
    return 0;
}

static enum ptm_status check_extents(const struct ptm_extent *ext, size_t count, uint64_t align,
                                     uint64_t *total)
{
    *total = 0;
    for (size_t i = 0; i < count; i++) {
        if (!ext[i].size)
            return PTM_ERR_INVALID;
        if ((ext[i].pa | ext[i].size) & (align - 1))
            return PTM_ERR_ALIGN;
        if (ext[i].pa >= (UINT64_C(1) << PTM_PA_BITS) ||
            ext[i].size > (UINT64_C(1) << PTM_PA_BITS) - ext[i].pa)
            return PTM_ERR_RANGE;
        if (ext[i].size > UINT64_MAX - *total)
            return PTM_ERR_RANGE;
        *total += ext[i].size;
    }
    return PTM_OK;
}

enum ptm_status ptm_map_extents(struct ptm *pm, uint64_t va, const struct ptm_extent *extents,
                                size_t count, unsigned segment, unsigned attrs, unsigned pages)
{
    struct source src;
    uint64_t align, total;
    enum ptm_status st;

    if (!pm || !extents || !count || (attrs & ~PTM_ATTR_ALL) ||
        segment > (GMMU_PTE_SEGMENT >> GMMU_PTE_SEGMENT_LSB) || !pages || (pages & ~PTM_PAGE_ALL))
        return PTM_ERR_INVALID;
    source_init(&src, SRC_EXTENTS, attrs_to_pte(attrs));
    src.segment = segment;
    src.ext = extents;
    src.ext_count = count;
    src.pages = pages & supported_pages(pm);
    align = smallest_page(src.pages);
    if (!align)
        return PTM_ERR_INVALID;
    st = check_extents(extents, count, align, &total);
    if (st != PTM_OK)
        return st;
    if (va & (align - 1))
        return PTM_ERR_ALIGN;
    if (!range_ok(pm, va, total))
        return PTM_ERR_RANGE;
    return run_command(pm, &src, va, va + total);
}

enum ptm_status ptm_map(struct ptm *pm, uint64_t va, uint64_t pa, uint64_t size, unsigned segment,
                        unsigned attrs, unsigned pages)
{
    struct ptm_extent one = { .pa = pa, .size = size };

    return ptm_map_extents(pm, va, &one, 1, segment, attrs, pages);
}

/* Checks of a plain 4 KB-granular range. */
static enum ptm_status check_range(const struct ptm *pm, uint64_t va, uint64_t size)
{
    if (!pm || !size)
        return PTM_ERR_INVALID;
    if ((va | size) & (SIZE_4K - 1))
        return PTM_ERR_ALIGN;
    if (!range_ok(pm, va, size))
        return PTM_ERR_RANGE;
    return PTM_OK;
}

enum ptm_status ptm_map_zero(struct ptm *pm, uint64_t va, uint64_t size, unsigned attrs)
{
    struct source src;
    enum ptm_status st = check_range(pm, va, size);

    if (st != PTM_OK)
        return st;
    if (attrs & ~PTM_ATTR_ALL)
        return PTM_ERR_INVALID;
    source_init(&src, SRC_ZERO, attrs_to_pte(attrs));
    return run_command(pm, &src, va, va + size);
}

enum ptm_status ptm_unmap(struct ptm *pm, uint64_t va, uint64_t size)
{
    struct source src;
    enum ptm_status st = check_range(pm, va, size);

    if (st != PTM_OK)
        return st;
    source_init(&src, SRC_INVALID, 0);
    return run_command(pm, &src, va, va + size);
}

enum ptm_status ptm_protect(struct ptm *pm, uint64_t va, uint64_t size, unsigned attrs)
{
    struct source src;
    enum ptm_status st = check_range(pm, va, size);

    if (st != PTM_OK)
        return st;
    if (attrs & ~PTM_ATTR_ALL)
        return PTM_ERR_INVALID;
    source_init(&src, SRC_COPY, attrs_to_pte(attrs));
    src.override_attrs = true;
    return run_command(pm, &src, va, va + size);
}

enum ptm_status ptm_copy(struct ptm *pm, uint64_t src_va, uint64_t dst_va, uint64_t size)
{
    struct source src;
    enum ptm_status st = check_range(pm, dst_va, size);

    if (st != PTM_OK)
        return st;
    st = check_range(pm, src_va, size);
    if (st != PTM_OK)
        return st;
    if (src_va == dst_va)
        return PTM_OK;
    if (src_va < dst_va + size && dst_va < src_va + size)
        return PTM_ERR_OVERLAP;
    source_init(&src, SRC_COPY, 0);
    src.copy_delta = src_va - dst_va;
    return run_command(pm, &src, dst_va, dst_va + size);
}

enum ptm_status ptm_query(const struct ptm *pm, uint64_t va, struct ptm_translation *out)
{
    struct cursor c = { .valid = false };
    struct run r;

    if (!pm || !out)
        return PTM_ERR_INVALID;
    if (va >= va_limit(pm))
        return PTM_ERR_RANGE;
    r = lookup(pm, NULL, &c, va);
    *out = (struct ptm_translation){ .state = PTM_PAGE_INVALID };
    if (r.kind == RUN_INVALID)
        return PTM_OK;
    out->page_shift = r.shift;
    out->state = r.kind == RUN_ZERO ? PTM_PAGE_ZERO : PTM_PAGE_MAPPED;
    out->attrs = pte_to_attrs(r.attrs);
    if (r.kind == RUN_MAPPED) {
        out->pa = r.pa;
        out->segment = r.segment;
    }
    return PTM_OK;
}

/* ------------------------------------------------------------ lifetime */

enum ptm_status ptm_init(struct ptm *pm, const struct ptm_config *cfg)
{
    unsigned levels;
    enum block_kind kind;
    struct op op;

    if (!pm || !cfg || !cfg->hw || !cfg->vram || !cfg->table_counts || !cfg->hw->read64 ||
        !cfg->hw->write64 || !cfg->hw->invalidate)
        return PTM_ERR_INVALID;
    levels = cfg->levels ? cfg->levels : GMMU_LEVELS_DEFAULT;
    if (levels < 2 || levels > 4)
        return PTM_ERR_INVALID;
    *pm = (struct ptm){
        .hw = cfg->hw,
        .hw_ctx = cfg->hw_ctx,
        .read64 = cfg->read64 ? cfg->read64 : cfg->hw->read64,
        .read_ctx = cfg->read64 ? cfg->read_ctx : cfg->hw_ctx,
        .vram = cfg->vram,
        .asid = cfg->asid,
        .levels = (uint8_t)levels,
        .counts = cfg->table_counts,
    };
    kind = levels == 2 ? BLOCK_8K : BLOCK_4K;
    if (vram_alloc_block(pm->vram, block_bytes[kind], &pm->root) != VRAM_OK)
        return PTM_ERR_NO_VRAM;
    op_bare(&op, pm);
    fill_zero(&op, pm->root, block_bytes[kind]);
    /* The root must be clear before anyone points the MMU at it. */
    if (hw_complete(pm) != PTM_OK) {
        vram_alloc_free_block(pm->vram, pm->root, NULL);
        return PTM_ERR_ENGINE;
    }
    if (kind == BLOCK_8K)
        pm->l1_tables = 1;
    else
        pm->upper_tables = 1;
    return PTM_OK;
}

void ptm_destroy(struct ptm *pm)
{
    enum block_kind kind = pm->levels == 2 ? BLOCK_8K : BLOCK_4K;
    struct op op;

    /* Unmapping everything needs no new table, so it cannot fail. One
     * invalidation of the whole space covers it and the root. An empty
     * root is all zero already: nothing to walk, read or clear. */
    pm->batch_depth = 1;
    if (pm->root_valid) {
        struct source src;

        source_init(&src, SRC_INVALID, 0);
        op_bare(&op, pm);
        run_command(pm, &src, 0, va_limit(pm));
        fill_zero(&op, pm->root, block_bytes[kind]);
        pm->root_valid = 0;
    }
    pm->batch_depth = 0;
    pm->inv_pending = true;
    pm->inv_start = 0;
    pm->inv_end = va_limit(pm);
    issue_invalidation(pm);
    free_block(pm, kind, pm->root, true);
    pm->upper_tables = 0;
    pm->l1_tables = 0;
    pm->root = NO_BLOCK;
}

uint64_t ptm_abandon(struct ptm *pm)
{
    struct ptm_usage u;

    list_abandon(pm, &pm->reserved[BLOCK_4K], BLOCK_4K);
    list_abandon(pm, &pm->reserved[BLOCK_8K], BLOCK_8K);
    list_abandon(pm, &pm->deferred[BLOCK_4K], BLOCK_4K);
    list_abandon(pm, &pm->deferred[BLOCK_8K], BLOCK_8K);
    ptm_usage(pm, &u);
    pm->leaf_key = 0;
    pm->upper_tables = pm->l1_tables = pm->leaf4k_tables = pm->leaf64k_tables = 0;
    pm->slab_pages = 0;
    pm->lost_bytes = 0;
    pm->root = NO_BLOCK;
    return u.vram_bytes;
}

uint64_t ptm_root(const struct ptm *pm)
{
    return pm->root;
}

unsigned ptm_va_bits(const struct ptm *pm)
{
    return gmmu_va_bits(pm->levels);
}

void ptm_batch_begin(struct ptm *pm)
{
    pm->batch_depth++;
}

enum ptm_status ptm_batch_end(struct ptm *pm)
{
    if (pm->batch_depth && --pm->batch_depth == 0)
        return issue_invalidation(pm);
    return PTM_OK;
}

void ptm_usage(const struct ptm *pm, struct ptm_usage *out)
{
    *out = (struct ptm_usage){
        .upper_tables = pm->upper_tables,
        .l1_tables = pm->l1_tables,
        .leaf4k_tables = pm->leaf4k_tables,
        .leaf64k_tables = pm->leaf64k_tables,
        .slab_pages = pm->slab_pages,
        .pending_free = pm->deferred[BLOCK_4K].count + pm->deferred[BLOCK_8K].count,
    };
    out->tables = out->upper_tables + out->l1_tables + out->leaf4k_tables + out->leaf64k_tables;
    out->table_bytes = (uint64_t)(out->upper_tables + out->leaf4k_tables) * GMMU_TABLE_BYTES +
                       (uint64_t)out->l1_tables * GMMU_L1_TABLE_BYTES +
                       (uint64_t)out->leaf64k_tables * GMMU_LEAF64K_TABLE_BYTES;
    out->vram_bytes =
        (uint64_t)(out->upper_tables + out->leaf4k_tables + out->slab_pages +
                   pm->deferred[BLOCK_4K].count) *
            GMMU_TABLE_BYTES +
        (uint64_t)(out->l1_tables + pm->deferred[BLOCK_8K].count) * GMMU_L1_TABLE_BYTES +
        pm->lost_bytes;
    out->lost_bytes = pm->lost_bytes;
}

uint32_t ptm_valid_count(const struct ptm *pm, uint64_t table, bool leaf64k)
{
    return count_read(pm, table, leaf64k);
}
