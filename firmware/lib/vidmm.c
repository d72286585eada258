// SPDX-License-Identifier: Apache-2.0
/*
 * VidMm command layer: allocations, address spaces, mappings, tiles.
 * See vidmm.h for the model and docs/vidmm.md for the rules.
 */
#include "vidmm.h"

#include <string.h>

#define PAGE_SIZE (UINT64_C(1) << GMMU_PAGE_SHIFT_4K)
#define SIZE_64K  (UINT64_C(1) << GMMU_PAGE_SHIFT_64K)
#define SIZE_2M   (UINT64_C(1) << 21)
#define SIZE_1G   (UINT64_C(1) << 30)
#define VA_LIMIT  (UINT64_C(1) << GMMU_VA_BITS_DEFAULT)
#define PA_LIMIT  (UINT64_C(1) << PTM_PA_BITS)
#define NIL       0xFFFFu

#define PLACE_FLAGS (GMMU_ALLOC_FLAG_VRAM_PREFERRED | GMMU_ALLOC_FLAG_SYSTEM_ONLY)
#define ALLOC_FLAGS \
    (GMMU_ALLOC_FLAG_PREFER_64K | GMMU_ALLOC_FLAG_CONTIGUOUS | GMMU_ALLOC_FLAG_SYSTEM | PLACE_FLAGS)
/* vidmm_alloc.flags: a contiguous allocation made with lowest, highest or
   boundary (never evicted: they are not kept to bring it back). */
#define ALLOC_CONSTRAINED 0x80u
_Static_assert(!(ALLOC_FLAGS & ALLOC_CONSTRAINED), "a free ALLOC_FLAG bit");
#define ATTR_FLAGS \
    (GMMU_MAP_FLAG_READ_ONLY | GMMU_MAP_FLAG_NO_EXECUTE | GMMU_MAP_FLAG_CACHE_COHERENT)

/* The wire flags are the manager's attributes and page-size bits. */
_Static_assert(GMMU_MAP_FLAG_READ_ONLY == PTM_ATTR_READ_ONLY &&
                   GMMU_MAP_FLAG_NO_EXECUTE == PTM_ATTR_NO_EXECUTE &&
                   GMMU_MAP_FLAG_CACHE_COHERENT == PTM_ATTR_CACHE_COHERENT,
               "attribute bits");
_Static_assert(PTM_PAGE_4K == 1 && PTM_PAGE_64K == 2 && PTM_PAGE_2M == 4 && PTM_PAGE_1G == 8,
               "map_req.page_sizes bits");
_Static_assert(PTM_PAGE_INVALID == 0 && PTM_PAGE_ZERO == 1 && PTM_PAGE_MAPPED == 2,
               "query_rsp.state values");
_Static_assert(VIDMM_MAX_AS < VIDMM_NO_OWNER, "AS slots fit a byte");
_Static_assert(VIDMM_HW_ASIDS_MAX < VIDMM_NO_ASID, "hardware ids fit a byte");
_Static_assert(VIDMM_MAX_ALLOCS < 0xFFFF, "allocation slots fit a handle");
_Static_assert(VIDMM_MAX_EXTENTS < NIL, "extent indices fit 16 bits");
_Static_assert(VIDMM_ALLOC_EXTENTS <= VIDMM_MAX_EXTENTS, "extents per allocation");
_Static_assert(VIDMM_MAX_RECORDS <= UINT8_MAX, "a space's record count fits a byte");
_Static_assert(VRAM_SEGMENT_MAX >> GMMU_PAGE_SHIFT_4K <= UINT32_MAX,
               "offsets in pages fit 32 bits");
_Static_assert(ALLOC_FLAGS <= UINT8_MAX, "allocation flags fit a byte");

/* ------------------------------------------------------------ status */

uint32_t vidmm_status_from_ptm(enum ptm_status st)
{
    switch (st) {
    case PTM_OK:
        return GMMU_STATUS_OK;
    case PTM_ERR_INVALID:
        return GMMU_STATUS_INVALID_ARGUMENT;
    case PTM_ERR_ALIGN:
        return GMMU_STATUS_UNALIGNED;
    case PTM_ERR_RANGE:
        return GMMU_STATUS_OUT_OF_RANGE;
    case PTM_ERR_OVERLAP:
        return GMMU_STATUS_OVERLAP;
    case PTM_ERR_NO_VA:
        return GMMU_STATUS_NO_MEMORY;
    case PTM_ERR_NO_NODES:
        return GMMU_STATUS_NO_MEMORY;
    case PTM_ERR_NOT_FOUND:
        return GMMU_STATUS_INVALID_ARGUMENT;
    case PTM_ERR_NO_VRAM:
        return GMMU_STATUS_NO_MEMORY;
    case PTM_ERR_BUSY:
        return GMMU_STATUS_BUSY;
    case PTM_ERR_ENGINE:
        return GMMU_STATUS_DEVICE_ERROR;
    }
    return GMMU_STATUS_INTERNAL;
}

uint32_t vidmm_status_from_vram(int err)
{
    switch (err) {
    case VRAM_OK:
        return GMMU_STATUS_OK;
    case VRAM_ERR_INVALID:
        return GMMU_STATUS_INVALID_ARGUMENT;
    case VRAM_ERR_NO_MEMORY:
        return GMMU_STATUS_NO_MEMORY;
    /* No state of the segment could meet the constraints: retrying
       after frees would not help, so this is not NO_MEMORY. */
    case VRAM_ERR_CONSTRAINT:
        return GMMU_STATUS_INVALID_ARGUMENT;
    default:
        return GMMU_STATUS_INTERNAL;
    }
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* ------------------------------------------------------------ handles */

/*
 * A handle is tag | generation << 16 | (slot + 1): never 0, and a slot
 * reused after a free gets a new generation, so the old handle is stale.
 * The tag keeps allocation and address-space handles apart.
 */
#define HANDLE_SLOT_MASK 0xFFFFu
#define HANDLE_GEN_SHIFT 16
#define HANDLE_GEN_MASK  0x7FFFu
#define HANDLE_TAG_ALLOC 0u
#define HANDLE_TAG_AS    (1u << 31)

static uint32_t handle_make(uint32_t tag, uint32_t slot, uint16_t gen)
{
    return tag | (uint32_t)(gen & HANDLE_GEN_MASK) << HANDLE_GEN_SHIFT | (slot + 1u);
}

static bool handle_split(uint32_t handle, uint32_t tag, uint32_t slots, uint32_t *slot,
                         uint16_t *gen)
{
    uint32_t s = handle & HANDLE_SLOT_MASK;

    *slot = 0;
    if ((handle & HANDLE_TAG_AS) != tag || s == 0 || s > slots)
        return false;
    *slot = s - 1u;
    *gen = (uint16_t)((handle >> HANDLE_GEN_SHIFT) & HANDLE_GEN_MASK);
    return true;
}

static uint16_t next_gen(uint16_t gen)
{
    return (uint16_t)((gen + 1u) & HANDLE_GEN_MASK);
}

static struct vidmm_alloc *alloc_lookup(struct vidmm *vm, uint32_t handle, uint32_t *slot)
{
    uint16_t gen;

    if (!handle_split(handle, HANDLE_TAG_ALLOC, VIDMM_MAX_ALLOCS, slot, &gen))
        return NULL;
    if (!vm->allocs[*slot].live || vm->allocs[*slot].gen != gen)
        return NULL;
    return &vm->allocs[*slot];
}

static bool as_find(const struct vidmm *vm, uint32_t handle, uint32_t *slot)
{
    uint16_t gen;

    return handle_split(handle, HANDLE_TAG_AS, VIDMM_MAX_AS, slot, &gen) && vm->as[*slot].live &&
           vm->as[*slot].gen == gen;
}

static struct vidmm_as *as_lookup(struct vidmm *vm, uint32_t handle, uint32_t *slot)
{
    return as_find(vm, handle, slot) ? &vm->as[*slot] : NULL;
}

/* ------------------------------------------------------------ hardware */

/*
 * The page-table managers reach the platform through these: their context
 * is the vidmm and their "asid" the address-space slot, which never changes,
 * while the hardware id it runs under may.
 */
static uint64_t tramp_read64(void *ctx, uint64_t off)
{
    struct vidmm *vm = ctx;

    return vm->hw->read64(vm->hw_ctx, off);
}

static void tramp_read_run(void *ctx, uint64_t off, uint64_t *words, size_t n)
{
    struct vidmm *vm = ctx;

    if (vm->hw->read_run) {
        vm->hw->read_run(vm->hw_ctx, off, words, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        words[i] = vm->hw->read64(vm->hw_ctx, off + 8 * i);
}

static void tramp_write64(void *ctx, uint64_t off, uint64_t value)
{
    struct vidmm *vm = ctx;

    vm->hw->write64(vm->hw_ctx, off, value);
}

static void tramp_write_run(void *ctx, uint64_t off, const uint64_t *words, size_t n)
{
    struct vidmm *vm = ctx;

    vm->hw->write_run(vm->hw_ctx, off, words, n);
}

static void tramp_write_pattern(void *ctx, uint64_t off, uint64_t first, uint64_t step, size_t n)
{
    struct vidmm *vm = ctx;

    vm->hw->write_pattern(vm->hw_ctx, off, first, step, n);
}

static bool tramp_complete(void *ctx)
{
    struct vidmm *vm = ctx;

    return vm->hw->complete(vm->hw_ctx);
}

static bool tramp_failed(void *ctx)
{
    struct vidmm *vm = ctx;

    return vm->hw->failed && vm->hw->failed(vm->hw_ctx);
}

/* An address space without a hardware id has nothing cached: its id was
   invalidated in full when it was taken away. */
static void tramp_invalidate(void *ctx, uint32_t slot, uint64_t start, uint64_t end)
{
    struct vidmm *vm = ctx;
    uint8_t id = vm->as[slot].hw_asid;

    if (id != VIDMM_NO_ASID)
        vm->hw->invalidate(vm->hw_ctx, id, start, end);
}

static void tramp_table_freed(void *ctx, uint64_t off, uint64_t bytes)
{
    struct vidmm *vm = ctx;

    if (vm->hw->table_freed)
        vm->hw->table_freed(vm->hw_ctx, off, bytes);
}

static void tramp_direct(void *ctx, bool on)
{
    struct vidmm *vm = ctx;

    if (vm->hw->direct)
        vm->hw->direct(vm->hw_ctx, on);
}

static const struct ptm_hw tramp_runs = {
    .read64 = tramp_read64,
    .read_run = tramp_read_run,
    .write64 = tramp_write64,
    .write_run = tramp_write_run,
    .invalidate = tramp_invalidate,
    .table_freed = tramp_table_freed,
};

/* Writes through a paging engine: runs and clears as patterns, and each
   command waits for its completion. */
static const struct ptm_hw tramp_engine = {
    .read64 = tramp_read64,
    .read_run = tramp_read_run,
    .write64 = tramp_write64,
    .write_run = tramp_write_run,
    .write_pattern = tramp_write_pattern,
    .invalidate = tramp_invalidate,
    .complete = tramp_complete,
    .failed = tramp_failed,
    .table_freed = tramp_table_freed,
    .direct = tramp_direct,
};

static const struct ptm_hw tramp_words = {
    .read64 = tramp_read64,
    .read_run = tramp_read_run,
    .write64 = tramp_write64,
    .invalidate = tramp_invalidate,
    .table_freed = tramp_table_freed,
};

/* ------------------------------------------------------------ hardware ids */

/*
 * (Re)program hardware id `id` for address-space slot `slot`, or leave it
 * unused (VIDMM_NO_OWNER). The entry goes invalid first, so no new walk
 * starts from the old root; the full invalidation then drops everything
 * cached under the id (and waits for walks in flight); only then does the
 * new root go in.
 */
static void asid_program(struct vidmm *vm, uint32_t id, uint32_t slot)
{
    vm->hw->set_as(vm->hw_ctx, id, 0, false);
    vm->hw->invalidate(vm->hw_ctx, id, 0, UINT64_MAX);
    if (slot != VIDMM_NO_OWNER)
        vm->hw->set_as(vm->hw_ctx, id, ptm_root(&vm->as[slot].pm), true);
}

static bool asid_busy(const struct vidmm *vm, uint32_t id)
{
    return vm->hw->asid_busy && vm->hw->asid_busy(vm->hw_ctx, id);
}

/* A free id, else the one whose address space was used least recently,
   among those no engine runs under (there are more ids than engines). */
static uint32_t asid_pick(const struct vidmm *vm)
{
    uint32_t best = 0, best_age = 0;

    for (uint32_t id = 0; id < vm->hw_asids; id++) {
        uint8_t owner = vm->asid_owner[id];
        uint32_t age;

        if (owner == VIDMM_NO_OWNER)
            return id;
        if (asid_busy(vm, id))
            continue;
        age = vm->clock - vm->as[owner].last_use; /* wraps safely */
        if (age >= best_age) {
            best = id;
            best_age = age;
        }
    }
    return best;
}

static void as_bind(struct vidmm *vm, uint32_t slot)
{
    uint32_t id = asid_pick(vm);
    uint8_t old = vm->asid_owner[id];

    if (old != VIDMM_NO_OWNER) {
        vm->as[old].hw_asid = VIDMM_NO_ASID;
        vm->counters.asid_evictions++;
    }
    vm->asid_owner[id] = (uint8_t)slot;
    vm->as[slot].hw_asid = (uint8_t)id;
    vm->counters.asid_binds++;
    asid_program(vm, id, slot);
}

static void as_unbind(struct vidmm *vm, uint32_t slot)
{
    uint8_t id = vm->as[slot].hw_asid;

    if (id == VIDMM_NO_ASID)
        return;
    vm->asid_owner[id] = VIDMM_NO_OWNER;
    vm->as[slot].hw_asid = VIDMM_NO_ASID;
    asid_program(vm, id, VIDMM_NO_OWNER);
}

/* A command on the address space succeeded: it is the most recently used,
   and it runs under a hardware id from now on. */
static void as_touch(struct vidmm *vm, uint32_t slot)
{
    vm->as[slot].last_use = ++vm->clock;
    if (vm->as[slot].hw_asid == VIDMM_NO_ASID && !vm->as[slot].broken)
        as_bind(vm, slot);
}

/*
 * An engine error hit a command on the address space: some of its table
 * writes were dropped, so its tables may hold half a change, and the
 * manager's counts and lists (threaded through VRAM) no longer say what is
 * there. It leaves the MMU at once (its entry invalid, its id invalidated
 * in full), so no walk ever uses those tables again, and its tables are
 * given up, never read or freed (lost_bytes). Every later command on it
 * but DESTROY_AS answers DEVICE_ERROR.
 */
static void as_break(struct vidmm *vm, uint32_t slot)
{
    struct vidmm_as *as = &vm->as[slot];

    if (as->broken)
        return;
    as_unbind(vm, slot);
    vm->lost_bytes += ptm_abandon(&as->pm);
    as->broken = true;
    vm->counters.as_broken++;
}

/* A table command's status, the address space given up on an engine
   error. */
static enum ptm_status as_result(struct vidmm *vm, uint32_t slot, enum ptm_status st)
{
    if (st == PTM_ERR_ENGINE)
        as_break(vm, slot);
    return st;
}

/* ------------------------------------------------------------ records */

/* Memory in use: a submitted job of space `slot` still needs part of
   [va, va + size) and is not ordered after the change (vidmm_hw's
   va_in_use). */
static bool in_use(const struct vidmm *vm, uint32_t slot, uint64_t va, uint64_t size)
{
    const struct vidmm_as *as = &vm->as[slot];

    return vm->hw->va_in_use &&
           vm->hw->va_in_use(vm->hw_ctx, handle_make(HANDLE_TAG_AS, slot, as->gen),
                             as->hw_asid == VIDMM_NO_ASID ? UINT32_MAX : as->hw_asid, va, size,
                             vm->order_after);
}

/*
 * The allocation's next record after index *i: start with *i = UINT32_MAX
 * and *left = alloc_records[slot]; false once all of them are seen, so a
 * scan for an allocation's records stops there (none: no scan; the table
 * is larger than the D-cache).
 */
static bool rec_next(const struct vidmm *vm, uint32_t slot, uint32_t *i, uint32_t *left)
{
    while (*left && ++*i < VIDMM_MAX_RECORDS) {
        const struct vidmm_record *r = &vm->records[*i];

        if (r->kind != VIDMM_REC_FREE && r->alloc == slot) {
            --*left;
            return true;
        }
    }
    return false;
}

/* Some record of the allocation (a mapping, or tiles' hull) is in use;
   with running_space, also any record of a space an engine runs in now
   (asid_busy: the whole space, for moves). */
static bool records_in_use(const struct vidmm *vm, uint32_t alloc, bool running_space)
{
    for (uint32_t i = UINT32_MAX, left = vm->alloc_records[alloc];
         rec_next(vm, alloc, &i, &left);) {
        const struct vidmm_record *r = &vm->records[i];
        uint8_t id = vm->as[r->as].hw_asid;
        if ((running_space && id != VIDMM_NO_ASID && asid_busy(vm, id)) ||
            in_use(vm, r->as, r->va, r->size))
            return true;
    }
    return false;
}

static struct vidmm_record *record_take(struct vidmm *vm)
{
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++)
        if (vm->records[i].kind == VIDMM_REC_FREE)
            return &vm->records[i];
    return NULL;
}

/*
 * Every record changes kind and allocation through these two, so
 * as_records[] and alloc_records[] count the live records of each address
 * space and allocation exactly: DESTROY_AS of a space with none skips the
 * scan of the whole table (a few thousand cycles), and a scan for one
 * allocation's records stops once it has seen them all.
 */
static void record_set(struct vidmm *vm, struct vidmm_record *r, uint64_t va, uint64_t size,
                       uint32_t alloc, uint32_t as, uint8_t kind)
{
    if (r->kind == VIDMM_REC_FREE)
        vm->as_records[as]++;
    else
        vm->alloc_records[r->alloc]--;
    vm->alloc_records[alloc]++;
    r->va = va;
    r->size = size;
    r->alloc = (uint16_t)alloc;
    r->as = (uint8_t)as;
    r->kind = kind;
}

static void record_free(struct vidmm *vm, struct vidmm_record *r)
{
    if (r->kind != VIDMM_REC_FREE) {
        vm->as_records[r->as]--;
        vm->alloc_records[r->alloc]--;
    }
    r->kind = VIDMM_REC_FREE;
}

static struct vidmm_record *mapping_find(struct vidmm *vm, uint32_t as, uint64_t va)
{
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++) {
        struct vidmm_record *r = &vm->records[i];

        if (r->kind == VIDMM_REC_MAPPING && r->as == as && r->va == va)
            return r;
    }
    return NULL;
}

static bool in_range(uint64_t va, uint64_t start, uint64_t end)
{
    return va >= start && va < end;
}

/* The tile reference of allocation `alloc` in the reserved range
   [start, end) of address space `as`: its hull starts inside the range. */
static struct vidmm_record *tiles_find(struct vidmm *vm, uint32_t as, uint64_t start, uint64_t end,
                                       uint32_t alloc)
{
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++) {
        struct vidmm_record *r = &vm->records[i];

        if (r->kind == VIDMM_REC_TILES && r->as == as && r->alloc == alloc &&
            in_range(r->va, start, end))
            return r;
    }
    return NULL;
}

/* Forget every tile reference inside [start, end) of an address space
   (the reserved range is going away). */
static void tiles_drop(struct vidmm *vm, uint32_t as, uint64_t start, uint64_t end)
{
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++) {
        struct vidmm_record *r = &vm->records[i];

        if (r->kind == VIDMM_REC_TILES && r->as == as && in_range(r->va, start, end))
            record_free(vm, r);
    }
}

static void records_drop_as(struct vidmm *vm, uint32_t as)
{
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS && vm->as_records[as]; i++)
        if (vm->records[i].as == as)
            record_free(vm, &vm->records[i]);
}

static void hull_extend(struct vidmm_record *r, uint64_t lo, uint64_t hi)
{
    uint64_t start = min64(r->va, lo);

    r->size = max64(r->va + r->size, hi) - start;
    r->va = start;
}

/* Tiles of [lo, hi), inside reserved range [start, end), may now map
   `alloc`. False if that needs a new record and none is free. */
static bool tiles_note(struct vidmm *vm, uint32_t as, uint64_t start, uint64_t end, uint32_t alloc,
                       uint64_t lo, uint64_t hi)
{
    struct vidmm_record *r = tiles_find(vm, as, start, end, alloc);

    if (r) {
        hull_extend(r, lo, hi);
        return true;
    }
    r = record_take(vm);
    if (!r)
        return false;
    record_set(vm, r, lo, hi - lo, alloc, as, VIDMM_REC_TILES);
    return true;
}

/* ------------------------------------------------------------ extents */

static uint16_t extent_take(struct vidmm *vm)
{
    uint16_t idx = vm->free_extent;

    if (idx != NIL) {
        vm->free_extent = vm->extents[idx].next;
        vm->free_extents--;
    }
    return idx;
}

static void extent_give(struct vidmm *vm, uint16_t idx)
{
    vm->extents[idx].next = vm->free_extent;
    vm->free_extent = idx;
    vm->free_extents++;
}

static uint64_t extent_offset(const struct vidmm_extent *e)
{
    return ((uint64_t)e->page_hi << 32 | e->page) << GMMU_PAGE_SHIFT_4K;
}

static uint64_t extent_bytes(const struct vidmm_extent *e)
{
    return (uint64_t)e->pages << GMMU_PAGE_SHIFT_4K;
}

/*
 * Adds block [off, off + bytes) to the end of the allocation's backing,
 * growing the last piece when the block continues it (and merge allows:
 * pool pieces never cross ranges). *last is the last piece (NIL for none).
 * False when the piece records run out.
 */
static bool piece_append(struct vidmm *vm, struct vidmm_alloc *a, uint16_t *last, uint64_t off,
                         uint64_t bytes, bool merge)
{
    uint16_t idx;

    if (*last != NIL && merge) {
        struct vidmm_extent *e = &vm->extents[*last];

        if (extent_offset(e) + extent_bytes(e) == off) {
            e->pages += (uint32_t)(bytes >> GMMU_PAGE_SHIFT_4K);
            return true;
        }
    }
    if (a->extents == VIDMM_ALLOC_EXTENTS)
        return false;
    idx = extent_take(vm);
    if (idx == NIL)
        return false;
    vm->extents[idx] = (struct vidmm_extent){
        .page = (uint32_t)(off >> GMMU_PAGE_SHIFT_4K),
        .pages = (uint32_t)(bytes >> GMMU_PAGE_SHIFT_4K),
        .next = NIL,
        .page_hi = (uint16_t)(off >> (32 + GMMU_PAGE_SHIFT_4K)),
    };
    if (*last == NIL)
        a->first_extent = idx;
    else
        vm->extents[*last].next = idx;
    *last = idx;
    a->extents++;
    return true;
}

static bool backing_append(struct vidmm *vm, struct vidmm_alloc *a, uint16_t *last, uint64_t off,
                           uint64_t bytes)
{
    return piece_append(vm, a, last, off, bytes, true);
}

/* Gives the allocation's pages back: VRAM pieces are runs of whole blocks,
   pool pieces only count, host pages are the host's. */
static void backing_release(struct vidmm *vm, struct vidmm_alloc *a)
{
    uint16_t idx = a->first_extent;

    while (idx != NIL) {
        struct vidmm_extent *e = &vm->extents[idx];
        uint16_t next = e->next;

        if (a->where == VIDMM_AT_POOL)
            vm->backing.used -= extent_bytes(e);
        else if (a->where == VIDMM_AT_VRAM)
            vram_alloc_free_range(vm->vram, extent_offset(e), extent_bytes(e));
        extent_give(vm, idx);
        idx = next;
    }
    a->first_extent = NIL;
    a->extents = 0;
}

/*
 * Non-contiguous VRAM: naturally aligned 1 GB, 2 MB, 64 KB and 4 KB blocks,
 * largest first and as many of each as are free, so mappings can use the
 * largest pages. Blocks come best fit, so on a tidy segment they are
 * consecutive and merge into few pieces.
 */
static uint32_t backing_carve(struct vidmm *vm, struct vidmm_alloc *a, uint64_t size)
{
    static const uint64_t piece[] = { SIZE_1G, SIZE_2M, SIZE_64K, PAGE_SIZE };
    struct vram_stats st;
    uint16_t last = NIL;
    uint64_t left = size;

    vram_alloc_stats(vm->vram, &st);
    if (st.free_bytes < size)
        return GMMU_STATUS_NO_MEMORY;
    for (unsigned k = 0; k < 4 && left; k++) {
        uint64_t off;

        while (left >= piece[k] && vram_alloc_block(vm->vram, piece[k], &off) == VRAM_OK) {
            if (!backing_append(vm, a, &last, off, piece[k])) {
                vram_alloc_free_block(vm->vram, off, NULL);
                backing_release(vm, a);
                return GMMU_STATUS_NO_MEMORY;
            }
            left -= piece[k];
        }
    }
    if (left) {
        backing_release(vm, a);
        return GMMU_STATUS_NO_MEMORY;
    }
    return GMMU_STATUS_OK;
}

/* One contiguous block within the request's constraints (none for an
   evicted allocation coming back: only unconstrained ones are evicted),
   aligned to the largest page it can use if that is possible, else to 4 KB. */
static uint32_t backing_contig(struct vidmm *vm, struct vidmm_alloc *a,
                               const struct gmmu_alloc_req *req, uint64_t size)
{
    struct vram_contig c = {
        .size = size,
        .lowest = req->lowest,
        .highest = req->highest ? req->highest : UINT64_MAX,
        .boundary = req->boundary,
        .align = min64(va_alloc_page_align(size), SIZE_2M),
    };
    uint16_t last = NIL;
    uint64_t off;
    int err = vram_alloc_contig(vm->vram, &c, &off);

    if (err != VRAM_OK && c.align > PAGE_SIZE) {
        c.align = 0;
        err = vram_alloc_contig(vm->vram, &c, &off);
    }
    if (err != VRAM_OK)
        return vidmm_status_from_vram(err);
    if (!backing_append(vm, a, &last, off, size)) {
        vram_alloc_free_range(vm->vram, off, size);
        return GMMU_STATUS_NO_MEMORY;
    }
    return GMMU_STATUS_OK;
}

static bool is_system(const struct vidmm_alloc *a)
{
    return a->flags & GMMU_ALLOC_FLAG_SYSTEM;
}

/* A SYSTEM allocation of one host buffer (ALLOC's sys_addr) keeps no
   pieces; one of a page list (ALLOC_PAGES) has a piece per run. */
static bool host_buffer(const struct vidmm_alloc *a)
{
    return is_system(a) && a->first_extent == NIL;
}

/* ------------------------------------------------------------ the aperture */

/* Mapped into the aperture segment (an AccessedPhysically SYSTEM
   allocation), and its physical-mode address there. */
static bool in_aperture(const struct vidmm_alloc *a)
{
    return a->apt_page != 0;
}

static uint64_t aperture_addr(const struct vidmm_alloc *a)
{
    return GMMU_APERTURE_PHYS_BASE + ((uint64_t)(a->apt_page - 1) << GMMU_PAGE_SHIFT_4K);
}

static uint64_t piece_pa(const struct vidmm *vm, const struct vidmm_alloc *a,
                         const struct vidmm_extent *e);

/*
 * Maps an allocation's system-memory pages into the aperture, in order (a
 * SYSTEM one's host pages, an evicted contiguous one's pool pieces): the
 * lowest run of free aperture pages that fits, its entries written, then
 * the translators invalidated (a line cached before may hold these
 * entries as they were: invalid, or, when an evicted allocation moves
 * within the pool, its old pages). NO_MEMORY, nothing changed, without
 * room or an aperture.
 */
static void aperture_fill(struct vidmm *vm, struct vidmm_alloc *a, uint32_t first, uint64_t pages)
{
    uint16_t x = a->first_extent;
    /* A host buffer is one run; pieces are loaded as the runs end. */
    uint64_t pa = a->sys_addr, n = x == NIL ? pages : 0;

    /* Pool pieces are 64 KB units: the entries stop at the size. */
    for (uint64_t i = 0; i < pages; i++, n--, pa += PAGE_SIZE) {
        if (!n) {
            pa = piece_pa(vm, a, &vm->extents[x]);
            n = vm->extents[x].pages;
            x = vm->extents[x].next;
        }
        vm->hw->aperture_write(vm->hw_ctx, first + (uint32_t)i, pa | GMMU_APERTURE_ENTRY_VALID);
    }
    vm->hw->aperture_invalidate(vm->hw_ctx);
    a->apt_page = first + 1;
}

/* The lowest run of free aperture pages for `size` bytes into *first;
   false without room or an aperture. */
static bool aperture_take(struct vidmm *vm, uint64_t size, uint32_t *first)
{
    uint64_t pages = size >> GMMU_PAGE_SHIFT_4K;

    return pages <= UINT32_MAX && aperture_alloc_take(&vm->aperture, (uint32_t)pages, first);
}

static uint32_t aperture_map(struct vidmm *vm, struct vidmm_alloc *a, uint64_t size)
{
    uint32_t first;

    if (!aperture_take(vm, size, &first))
        return GMMU_STATUS_NO_MEMORY;
    aperture_fill(vm, a, first, size >> GMMU_PAGE_SHIFT_4K);
    return GMMU_STATUS_OK;
}

/*
 * Takes an allocation out of the aperture: its entries cleared, the
 * translators invalidated, and only then its aperture pages free (and,
 * after FREE, its host pages the host's again): no engine access reaches
 * the old pages after this (docs/aperture.md, "Invalidation").
 */
static void aperture_unmap(struct vidmm *vm, struct vidmm_alloc *a)
{
    uint32_t first = a->apt_page - 1;
    uint32_t pages = (uint32_t)(a->size >> GMMU_PAGE_SHIFT_4K);

    for (uint32_t i = 0; i < pages; i++)
        vm->hw->aperture_write(vm->hw_ctx, first + i, 0);
    vm->hw->aperture_invalidate(vm->hw_ctx);
    aperture_alloc_give(&vm->aperture, first, pages);
    a->apt_page = 0;
}

/* Where an engine in physical mode addresses it: its aperture address, or
   the VRAM offset of its block (a contiguous one in VRAM). */
static uint64_t phys_addr(const struct vidmm *vm, const struct vidmm_alloc *a)
{
    return in_aperture(a) ? aperture_addr(a) : extent_offset(&vm->extents[a->first_extent]);
}

/* An engine in physical mode runs over this AccessedPhysically allocation:
   neither freed nor moved under it. */
static bool phys_running(const struct vidmm *vm, const struct vidmm_alloc *a)
{
    return (a->flags & GMMU_ALLOC_FLAG_CONTIGUOUS) && vm->hw->phys_busy &&
           vm->hw->phys_busy(vm->hw_ctx, phys_addr(vm, a), a->size);
}

void vidmm_aperture_usage(const struct vidmm *vm, uint64_t *bytes, uint64_t *in_use)
{
    *bytes = (uint64_t)vm->aperture.pages << GMMU_PAGE_SHIFT_4K;
    *in_use = (uint64_t)vm->aperture.used << GMMU_PAGE_SHIFT_4K;
}

static unsigned alloc_segment(const struct vidmm_alloc *a)
{
    return a->where == VIDMM_AT_VRAM ? GMMU_SEGMENT_VRAM : GMMU_SEGMENT_SYSTEM;
}

/* VRAM only (no placement flag): evicted, it is not resident and its
   mappings are invalid. A contiguous (AccessedPhysically) one evicted is
   resident in the pool, mapped there and in the aperture. */
static bool vram_only(const struct vidmm_alloc *a)
{
    return !(a->flags & (PLACE_FLAGS | GMMU_ALLOC_FLAG_SYSTEM | GMMU_ALLOC_FLAG_CONTIGUOUS));
}

static bool offline(const struct vidmm_alloc *a)
{
    return a->where == VIDMM_AT_POOL && vram_only(a);
}

/* ------------------------------------------------------------ backing pool */

#define POOL_UNIT  SIZE_64K
#define POOL_LIMIT (UINT64_C(1) << (32 + GMMU_PAGE_SHIFT_4K))

static uint64_t round_unit(uint64_t bytes)
{
    return (bytes + POOL_UNIT - 1) & ~(POOL_UNIT - 1);
}

/* The range holding pool offset `lin` (bytes across the ranges): the host
   address of lin, and the pool offsets where the range starts and ends. */
static bool pool_range(const struct backing_pool *b, uint64_t lin, uint64_t *pa, uint64_t *start,
                       uint64_t *end)
{
    uint64_t base = 0;

    for (uint32_t i = 0; i < b->count; i++) {
        if (lin - base < b->range[i].size) {
            *pa = b->range[i].addr + (lin - base);
            *start = base;
            *end = base + b->range[i].size;
            return true;
        }
        base += b->range[i].size;
    }
    return false;
}

static bool pool_locate(const struct backing_pool *b, uint64_t lin, uint64_t *pa, uint64_t *end)
{
    uint64_t start;

    return pool_range(b, lin, pa, &start, end);
}

static uint64_t pool_pa(const struct backing_pool *b, uint64_t lin)
{
    uint64_t pa = 0, end;

    pool_locate(b, lin, &pa, &end);
    return pa;
}

/*
 * The free run of the pool at or after `*at`: moves *at past pieces of
 * allocations in the pool and returns where the run ends (the next piece
 * or the range's end), or 0 when the pool ends first.
 */
static uint64_t pool_gap(const struct vidmm *vm, uint64_t *at)
{
    for (;;) {
        uint64_t pa, end, cur;

        if (*at < vm->pool_lo)
            *at = vm->pool_lo;
        if (*at >= vm->skip_lo && *at < vm->skip_hi)
            *at = vm->skip_hi;
        cur = *at;
        if (cur >= vm->pool_hi || !pool_locate(&vm->backing, cur, &pa, &end))
            return 0;
        end = min64(end, vm->pool_hi);
        if (cur < vm->skip_lo)
            end = min64(end, vm->skip_lo);
        for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS && cur == *at; i++) {
            const struct vidmm_alloc *a = &vm->allocs[i];

            if (!a->live || a->where != VIDMM_AT_POOL)
                continue;
            for (uint16_t idx = a->first_extent; idx != NIL; idx = vm->extents[idx].next) {
                uint64_t s = extent_offset(&vm->extents[idx]);
                uint64_t t = s + extent_bytes(&vm->extents[idx]);

                if (s <= cur && cur < t) {
                    *at = t;
                    break;
                }
                if (s > cur && s < end)
                    end = s;
            }
        }
        if (cur == *at)
            return end;
    }
}

/* Pool pieces for `size` bytes (rounded up to 64 KB), lowest first. */
static uint32_t pool_carve(struct vidmm *vm, struct vidmm_alloc *a, uint64_t size)
{
    uint64_t left = round_unit(size), at = 0;
    uint16_t last = NIL;

    if (left > vm->backing.bytes - vm->backing.used)
        return GMMU_STATUS_NO_MEMORY;
    a->where = VIDMM_AT_POOL;
    while (left) {
        uint64_t end = pool_gap(vm, &at), pa, rstart, rend, take;

        if (!end)
            break;
        pool_range(&vm->backing, at, &pa, &rstart, &rend);
        take = min64(left, end - at);
        /* A piece continues the last one only inside one range. */
        if (!piece_append(vm, a, &last, at, take, at != rstart))
            break;
        vm->backing.used += take;
        left -= take;
        at += take;
    }
    if (left) {
        backing_release(vm, a);
        return GMMU_STATUS_NO_MEMORY;
    }
    return GMMU_STATUS_OK;
}

/* Where a piece starts in its segment. */
static uint64_t piece_pa(const struct vidmm *vm, const struct vidmm_alloc *a,
                         const struct vidmm_extent *e)
{
    if (a->where == VIDMM_AT_POOL)
        return pool_pa(&vm->backing, extent_offset(e));
    return extent_offset(e);
}

/* Fills vm->map_extents with the pieces behind [offset, offset + size) of
   the allocation (inside it); returns their number. */
static size_t map_extents_build(struct vidmm *vm, const struct vidmm_alloc *a, uint64_t offset,
                                uint64_t size)
{
    size_t n = 0;

    if (host_buffer(a)) {
        vm->map_extents[0] = (struct ptm_extent){ .pa = a->sys_addr + offset, .size = size };
        return 1;
    }
    for (uint16_t idx = a->first_extent; idx != NIL && size; idx = vm->extents[idx].next) {
        const struct vidmm_extent *e = &vm->extents[idx];
        uint64_t bytes = extent_bytes(e), take;

        if (offset >= bytes) {
            offset -= bytes;
            continue;
        }
        take = min64(bytes - offset, size);
        vm->map_extents[n++] =
            (struct ptm_extent){ .pa = piece_pa(vm, a, e) + offset, .size = take };
        offset = 0;
        size -= take;
    }
    return n;
}

/* Whether the page at (segment, pa) belongs to the allocation, and at
   which offset. */
static bool alloc_offset_of(const struct vidmm *vm, const struct vidmm_alloc *a, unsigned segment,
                            uint64_t pa, uint64_t *offset)
{
    uint64_t base = 0;

    if (segment != alloc_segment(a))
        return false;
    if (host_buffer(a)) {
        *offset = pa - a->sys_addr;
        return pa >= a->sys_addr && pa - a->sys_addr < a->size;
    }
    for (uint16_t idx = a->first_extent; idx != NIL; idx = vm->extents[idx].next) {
        const struct vidmm_extent *e = &vm->extents[idx];
        uint64_t start = piece_pa(vm, a, e);

        if (pa >= start && pa - start < extent_bytes(e)) {
            *offset = base + (pa - start);
            return *offset < a->size;
        }
        base += extent_bytes(e);
    }
    return false;
}

/* Whether the page at (segment, pa) belongs to the allocation. */
static bool alloc_holds(const struct vidmm *vm, const struct vidmm_alloc *a, unsigned segment,
                        uint64_t pa)
{
    uint64_t off;

    return alloc_offset_of(vm, a, segment, pa, &off);
}

/* ------------------------------------------------------------ init */

uint32_t vidmm_init(struct vidmm *vm, const struct vidmm_config *cfg)
{
    const struct vidmm_hw *hw = cfg ? cfg->hw : NULL;

    if (!vm || !hw || !hw->read64 || !hw->write64 || !hw->invalidate || !hw->set_as || !cfg->vram ||
        !cfg->table_counts || !cfg->tables || !cfg->va_nodes || !cfg->va_nodes_per_as ||
        !cfg->hw_asids || cfg->hw_asids > VIDMM_HW_ASIDS_MAX ||
        !hw->aperture_write != !hw->aperture_invalidate ||
        cfg->aperture_pages > VIDMM_APERTURE_PAGES_MAX)
        return GMMU_STATUS_INVALID_ARGUMENT;
    memset(vm, 0, sizeof(*vm));
    memset(cfg->tables, 0, sizeof(*cfg->tables));
    vm->allocs = cfg->tables->allocs;
    vm->extents = cfg->tables->extents;
    vm->as = cfg->tables->as;
    vm->records = cfg->tables->records;
    vm->rec_map = cfg->tables->rec_map;
    vm->stage = &cfg->tables->stage;
    vm->hw = hw;
    vm->hw_ctx = cfg->hw_ctx;
    vm->vram = cfg->vram;
    vm->table_counts = cfg->table_counts;
    vm->va_nodes = cfg->va_nodes;
    vm->va_nodes_per_as = cfg->va_nodes_per_as;
    vm->hw_asids = cfg->hw_asids;
    if (hw->write_pattern && hw->complete && hw->write_run)
        vm->ptm_hw = &tramp_engine;
    else
        vm->ptm_hw = hw->write_run ? &tramp_runs : &tramp_words;
    vm->free_extent = NIL;
    for (uint32_t i = VIDMM_MAX_EXTENTS; i-- > 0;)
        extent_give(vm, (uint16_t)i);
    for (uint32_t i = 0; i < VIDMM_MAX_AS; i++)
        vm->as[i].hw_asid = VIDMM_NO_ASID;
    memset(vm->asid_owner, VIDMM_NO_OWNER, sizeof(vm->asid_owner));
    backing_pool_init(&vm->backing, PA_LIMIT);
    aperture_alloc_init(&vm->aperture, cfg->tables->aperture_bits,
                        hw->aperture_write ? cfg->aperture_pages : 0);
    vm->pool_lo = vm->skip_lo = vm->skip_hi = 0;
    vm->pool_hi = UINT64_MAX;
    return GMMU_STATUS_OK;
}

/* ------------------------------------------------------------ ALLOC / FREE */

static uint32_t alloc_check(const struct gmmu_alloc_req *req)
{
    bool system = req->flags & GMMU_ALLOC_FLAG_SYSTEM;
    bool contig = req->flags & GMMU_ALLOC_FLAG_CONTIGUOUS;
    bool constrained = req->lowest || req->highest || req->boundary;

    unsigned place = req->flags & PLACE_FLAGS;

    if (req->reserved || (req->flags & ~ALLOC_FLAGS) || !req->size)
        return GMMU_STATUS_INVALID_ARGUMENT;
    /* One placement, and none for memory that never moves. */
    if (place == PLACE_FLAGS || (place && (system || contig)))
        return GMMU_STATUS_INVALID_ARGUMENT;
    /* Constraints only for contiguous VRAM; a host address only for system memory. */
    if ((constrained && (system || !contig)) || (req->sys_addr && !system))
        return GMMU_STATUS_INVALID_ARGUMENT;
    if ((req->size | (system ? req->sys_addr : 0)) & (PAGE_SIZE - 1))
        return GMMU_STATUS_UNALIGNED;
    if (system && (req->sys_addr >= PA_LIMIT || req->size > PA_LIMIT - req->sys_addr))
        return GMMU_STATUS_OUT_OF_RANGE;
    if (req->size > VRAM_SEGMENT_MAX && !system)
        return GMMU_STATUS_NO_MEMORY;
    return GMMU_STATUS_OK;
}

static int alloc_free_slot(const struct vidmm *vm)
{
    for (int i = 0; i < VIDMM_MAX_ALLOCS; i++)
        if (!vm->allocs[i].live)
            return i;
    return -1;
}

#define SLOT_BITS ((VIDMM_MAX_ALLOCS + 7) / 8)

/*
 * The moves one command made, so that a command that fails after moving
 * others can move them back ("NO_MEMORY, and nothing changes") and a
 * command that succeeds signals the paging fence once per allocation that
 * ended elsewhere. A move back clears the bit the move set.
 */
struct moves {
    uint8_t out[SLOT_BITS]; /* moved out of VRAM */
    uint8_t in[SLOT_BITS];  /* moved into VRAM */
};

static bool plan_room(const struct vidmm *vm, uint64_t need, const uint8_t *skip);
static uint32_t make_room(struct vidmm *vm, uint64_t need, uint8_t *skip, struct moves *log);
static void moves_undo(struct vidmm *vm, struct moves *log);
static void moves_signal(struct vidmm *vm, const struct moves *log);

static bool bit_get(const uint8_t *bits, uint32_t i)
{
    return bits[i / 8] & (1u << (i % 8));
}

static void bit_set(uint8_t *bits, uint32_t i)
{
    bits[i / 8] |= (uint8_t)(1u << (i % 8));
}

static void bit_clear(uint8_t *bits, uint32_t i)
{
    bits[i / 8] &= (uint8_t) ~(1u << (i % 8));
}

/*
 * Pages for a new allocation that may move, by placement: VRAM only takes
 * VRAM, making room by evicting when the sums show it can; VRAM preferred
 * takes VRAM if it is free, else the pool; system only takes the pool.
 */
static uint32_t place_new(struct vidmm *vm, struct vidmm_alloc *a, uint64_t size)
{
    uint8_t skip[SLOT_BITS] = { 0 };
    struct moves log = { { 0 }, { 0 } };
    uint32_t st;

    if (a->flags & GMMU_ALLOC_FLAG_SYSTEM_ONLY)
        return pool_carve(vm, a, size);
    st = backing_carve(vm, a, size);
    if (st == GMMU_STATUS_OK)
        return st;
    if (a->flags & GMMU_ALLOC_FLAG_VRAM_PREFERRED)
        return pool_carve(vm, a, size);
    if (!plan_room(vm, size, skip))
        return GMMU_STATUS_NO_MEMORY;
    st = make_room(vm, size, skip, &log);
    if (st == GMMU_STATUS_OK)
        st = backing_carve(vm, a, size);
    /* The sums said yes but a victim's move was refused or the pieces ran
       short: the victims come back. */
    if (st != GMMU_STATUS_OK)
        moves_undo(vm, &log);
    moves_signal(vm, &log);
    return st;
}

uint32_t vidmm_alloc(struct vidmm *vm, const struct gmmu_alloc_req *req, struct gmmu_alloc_rsp *rsp)
{
    uint32_t st = alloc_check(req);
    int slot = alloc_free_slot(vm);
    struct vidmm_alloc *a;
    uint64_t size = req->size;

    if (st != GMMU_STATUS_OK)
        return st;
    /* The backing pool is the device's: the host cannot also map it. */
    if ((req->flags & GMMU_ALLOC_FLAG_SYSTEM) &&
        backing_pool_overlaps(&vm->backing, req->sys_addr, req->size))
        return GMMU_STATUS_OVERLAP;
    if (slot < 0)
        return GMMU_STATUS_NO_MEMORY;
    /* 64 KB pages need 64 KB of backing at the tail too (a host buffer
       is what it is). */
    if ((req->flags & GMMU_ALLOC_FLAG_PREFER_64K) && !(req->flags & GMMU_ALLOC_FLAG_SYSTEM))
        size = (size + SIZE_64K - 1) & ~(SIZE_64K - 1);
    a = &vm->allocs[slot];
    a->flags = (uint8_t)(req->flags |
                         (req->lowest | req->highest | req->boundary ? ALLOC_CONSTRAINED : 0));
    a->first_extent = NIL;
    a->extents = 0;
    a->sys_addr = req->sys_addr; /* 0 unless SYSTEM (checked) */
    a->residency = 0;
    a->apt_page = 0;
    a->where = is_system(a) ? VIDMM_AT_HOST : VIDMM_AT_VRAM;
    if ((req->flags & GMMU_ALLOC_FLAG_SYSTEM) && (req->flags & GMMU_ALLOC_FLAG_CONTIGUOUS))
        st = aperture_map(vm, a, size); /* AccessedPhysically: into the aperture */
    else if (req->flags & GMMU_ALLOC_FLAG_SYSTEM)
        st = GMMU_STATUS_OK;
    else if (req->flags & GMMU_ALLOC_FLAG_CONTIGUOUS)
        st = backing_contig(vm, a, req, size);
    else
        st = place_new(vm, a, size);
    if (st != GMMU_STATUS_OK)
        return st;
    a->size = size;
    a->live = true;
    a->last_use = ++vm->clock;
    vm->live_allocs++;
    if (a->where == VIDMM_AT_VRAM)
        vm->alloc_vram_bytes += size;
    *rsp = (struct gmmu_alloc_rsp){
        .handle = handle_make(HANDLE_TAG_ALLOC, (uint32_t)slot, a->gen),
        .extents = host_buffer(a) ? 1u : a->extents,
        .size = size,
        .base = in_aperture(a)   ? aperture_addr(a)
                : host_buffer(a) ? a->sys_addr
                                 : piece_pa(vm, a, &vm->extents[a->first_extent]),
    };
    return GMMU_STATUS_OK;
}

/* The pages of a tile hull that point into a freed allocation are whole
   pages inside the hull, so unmapping them needs no table. */
static void unmap_run(struct ptm *pm, uint64_t start, uint64_t end)
{
    if (end > start)
        ptm_unmap(pm, start, end - start);
}

/*
 * Unmaps the pages of one reserved range's tile hull that point into the
 * allocation. Tiles are 64 KB granular, so the first page of each tile
 * speaks for the tile; a larger page is skipped over whole.
 */
static void tiles_purge(struct vidmm *vm, const struct vidmm_record *r, const struct vidmm_alloc *a)
{
    struct ptm *pm = &vm->as[r->as].pm;
    uint64_t end = r->va + r->size, run_start = 0, run_end = 0;

    if (vm->as[r->as].broken)
        return; /* off the MMU: nothing reaches its tables */
    ptm_batch_begin(pm);
    for (uint64_t va = r->va; va < end;) {
        struct ptm_translation t = { .state = PTM_PAGE_INVALID };
        uint64_t page = VIDMM_TILE_SIZE, start;

        ptm_query(pm, va, &t);
        vm->counters.tile_scans++;
        if (t.state != PTM_PAGE_INVALID)
            page = max64(page, UINT64_C(1) << t.page_shift);
        start = max64(va & ~(page - 1), r->va);
        va = (va & ~(page - 1)) + page;
        if (t.state != PTM_PAGE_MAPPED || !alloc_holds(vm, a, t.segment, t.pa))
            continue;
        if (start != run_end) {
            unmap_run(pm, run_start, run_end);
            run_start = start;
        }
        run_end = min64(va, end);
    }
    unmap_run(pm, run_start, run_end);
    as_result(vm, r->as, ptm_batch_end(pm));
}

/*
 * Unmaps a MAP_VA mapping. It covers every page it mapped whole and
 * nothing else, so no large page is cut: the unmap needs no table and
 * cannot fail.
 */
static void mapping_remove(struct vidmm *vm, struct vidmm_record *r)
{
    struct vidmm_as *as = &vm->as[r->as];

    if (!as->broken)
        as_result(vm, r->as, ptm_unmap(&as->pm, r->va, r->size));
    va_alloc_free(&as->vs, r->va, r->size);
    record_free(vm, r);
}

/* ------------------------------------------------------------ ALLOC_PAGES */

#define PAGES_FLAGS \
    (GMMU_ALLOC_PAGES_FLAG_BEGIN | GMMU_ALLOC_PAGES_FLAG_COMMIT | GMMU_ALLOC_PAGES_FLAG_PHYSICAL)

_Static_assert(GMMU_MSG_HDR_BYTES + GMMU_ALLOC_PAGES_REQ_BYTES +
                       GMMU_ALLOC_PAGES_MAX * sizeof(uint64_t) <=
                   GMMU_MSG_MAX_BYTES,
               "ALLOC_PAGES_MAX pages fit one message");

static void stage_drop(struct vidmm *vm)
{
    vm->stage->active = false;
    vm->stage->runs = 0;
    vm->stage->staged = 0;
}

/* What is staged so far (handle 0: no allocation yet). */
static void stage_report(const struct vidmm_stage *st, struct gmmu_alloc_rsp *rsp)
{
    *rsp = (struct gmmu_alloc_rsp){
        .handle = 0,
        .extents = st->runs,
        .size = st->staged << GMMU_PAGE_SHIFT_4K,
        .base = st->runs ? st->run_pa[0] : 0,
    };
}

/*
 * One page at the end of the list: checked (alignment, the PTE's PA,
 * the size, not already in the list), then it grows the last run when it
 * follows it, else starts a run. Duplicates are found against the runs,
 * so a page costs at most VIDMM_PAGE_RUNS comparisons.
 */
static uint32_t stage_page(struct vidmm_stage *st, uint64_t pa)
{
    uint32_t last = st->runs - 1;

    if (pa & (PAGE_SIZE - 1))
        return GMMU_STATUS_UNALIGNED;
    if (pa >= PA_LIMIT || st->staged >= st->size >> GMMU_PAGE_SHIFT_4K)
        return GMMU_STATUS_OUT_OF_RANGE;
    for (uint32_t r = 0; r < st->runs; r++)
        if (pa - st->run_pa[r] < (uint64_t)st->run_pages[r] << GMMU_PAGE_SHIFT_4K)
            return GMMU_STATUS_OVERLAP;
    st->staged++;
    if (st->runs &&
        st->run_pa[last] + ((uint64_t)st->run_pages[last] << GMMU_PAGE_SHIFT_4K) == pa) {
        st->run_pages[last]++;
        return GMMU_STATUS_OK;
    }
    if (st->runs == VIDMM_PAGE_RUNS)
        return GMMU_STATUS_NO_MEMORY;
    st->run_pa[st->runs] = pa;
    st->run_pages[st->runs++] = 1;
    return GMMU_STATUS_OK;
}

/* COMMIT: the list covers the size, no run lies in the backing pool (it
   may have grown since the pages came), and a slot and pieces are free. */
static uint32_t stage_commit(struct vidmm *vm, struct gmmu_alloc_rsp *rsp)
{
    struct vidmm_stage *st = vm->stage;
    int slot = alloc_free_slot(vm);
    struct vidmm_alloc *a;
    uint16_t last = NIL;

    if (st->staged != st->size >> GMMU_PAGE_SHIFT_4K)
        return GMMU_STATUS_INVALID_ARGUMENT;
    for (uint32_t r = 0; r < st->runs; r++)
        if (backing_pool_overlaps(&vm->backing, st->run_pa[r],
                                  (uint64_t)st->run_pages[r] << GMMU_PAGE_SHIFT_4K))
            return GMMU_STATUS_OVERLAP;
    if (slot < 0 || vm->free_extents < st->runs)
        return GMMU_STATUS_NO_MEMORY;
    a = &vm->allocs[slot];
    a->flags = GMMU_ALLOC_FLAG_SYSTEM | (st->physical ? GMMU_ALLOC_FLAG_CONTIGUOUS : 0);
    a->first_extent = NIL;
    a->extents = 0;
    a->sys_addr = st->run_pa[0];
    a->residency = 0;
    a->apt_page = 0;
    a->where = VIDMM_AT_HOST;
    /* Runs never merge (consecutive runs do not follow each other, or
       they would be one), and the pieces were counted: this cannot fail. */
    for (uint32_t r = 0; r < st->runs; r++)
        if (!piece_append(vm, a, &last, st->run_pa[r],
                          (uint64_t)st->run_pages[r] << GMMU_PAGE_SHIFT_4K, false)) {
            backing_release(vm, a);
            return GMMU_STATUS_INTERNAL;
        }
    if (st->physical) {
        uint32_t status = aperture_map(vm, a, st->size);

        if (status != GMMU_STATUS_OK) {
            backing_release(vm, a);
            return status;
        }
    }
    a->size = st->size;
    a->live = true;
    a->last_use = ++vm->clock;
    vm->live_allocs++;
    *rsp = (struct gmmu_alloc_rsp){
        .handle = handle_make(HANDLE_TAG_ALLOC, (uint32_t)slot, a->gen),
        .extents = a->extents,
        .size = a->size,
        .base = in_aperture(a) ? aperture_addr(a) : a->sys_addr,
    };
    return GMMU_STATUS_OK;
}

uint32_t vidmm_alloc_pages(struct vidmm *vm, const struct gmmu_alloc_pages_req *req,
                           const void *pages, struct gmmu_alloc_rsp *rsp)
{
    struct vidmm_stage *st = vm->stage;
    const uint8_t *in = pages;
    uint32_t status = GMMU_STATUS_OK;

    if (req->flags & GMMU_ALLOC_PAGES_FLAG_BEGIN) {
        /* Whoever staged a list before has left or starts again. */
        stage_drop(vm);
        if (req->reserved || (req->flags & ~PAGES_FLAGS) || req->count > GMMU_ALLOC_PAGES_MAX ||
            !req->size)
            return GMMU_STATUS_INVALID_ARGUMENT;
        if (req->size & (PAGE_SIZE - 1))
            return GMMU_STATUS_UNALIGNED;
        if (req->size >> GMMU_PAGE_SHIFT_4K > UINT32_MAX)
            return GMMU_STATUS_OUT_OF_RANGE;
        *st =
            (struct vidmm_stage){ .size = req->size,
                                  .owner = req->owner,
                                  .active = true,
                                  .physical = (req->flags & GMMU_ALLOC_PAGES_FLAG_PHYSICAL) != 0 };
    } else if (!st->active || st->owner != req->owner) {
        /* Not this host's list: it stays as it is. */
        return GMMU_STATUS_BAD_HANDLE;
    } else if (req->reserved || (req->flags & ~PAGES_FLAGS) || req->count > GMMU_ALLOC_PAGES_MAX ||
               req->size != st->size) {
        status = GMMU_STATUS_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < req->count && status == GMMU_STATUS_OK; i++) {
        uint64_t pa;

        memcpy(&pa, in + i * sizeof(pa), sizeof(pa));
        status = stage_page(st, pa);
    }
    if (status == GMMU_STATUS_OK && (req->flags & GMMU_ALLOC_PAGES_FLAG_COMMIT)) {
        status = stage_commit(vm, rsp);
        if (status == GMMU_STATUS_OK) {
            stage_drop(vm);
            return status;
        }
    }
    /* A list its host got wrong is not resumed: it starts again. */
    if (status != GMMU_STATUS_OK) {
        stage_drop(vm);
        return status;
    }
    stage_report(st, rsp);
    return GMMU_STATUS_OK;
}

/* FREE's work, after its checks: mappings and tiles gone, pages back. */
static void alloc_release(struct vidmm *vm, uint32_t slot)
{
    struct vidmm_alloc *a = &vm->allocs[slot];

    if (in_aperture(a))
        aperture_unmap(vm, a);

    for (uint32_t i = UINT32_MAX, left = vm->alloc_records[slot]; rec_next(vm, slot, &i, &left);) {
        struct vidmm_record *r = &vm->records[i];

        if (r->kind == VIDMM_REC_MAPPING) {
            mapping_remove(vm, r);
            continue;
        }
        tiles_purge(vm, r, a);
        record_free(vm, r);
    }
    if (a->where == VIDMM_AT_VRAM)
        vm->alloc_vram_bytes -= a->size;
    backing_release(vm, a);
    a->live = false;
    a->gen = next_gen(a->gen);
    vm->live_allocs--;
}

uint32_t vidmm_free(struct vidmm *vm, const struct gmmu_handle_req *req)
{
    uint32_t slot;
    const struct vidmm_alloc *a;

    if (req->reserved)
        return GMMU_STATUS_INVALID_ARGUMENT;
    a = alloc_lookup(vm, req->handle, &slot);
    if (!a)
        return GMMU_STATUS_BAD_HANDLE;
    /* An engine in physical mode has no mapping to lose: freed under it,
       the block (or the host pages behind the aperture) would be written
       after their next owner got them. */
    if (phys_running(vm, a))
        return GMMU_STATUS_BUSY;
    /* Its mappings and the tiles pointing at it go with it. */
    if (records_in_use(vm, slot, false)) {
        vm->counters.in_use_refusals++;
        return GMMU_STATUS_BUSY;
    }
    alloc_release(vm, slot);
    return GMMU_STATUS_OK;
}

bool vidmm_phys_range_ok(const struct vidmm *vm, uint64_t offset, uint64_t bytes)
{
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++) {
        const struct vidmm_alloc *a = &vm->allocs[i];
        uint64_t base;

        /* A contiguous allocation is one VRAM piece, or, evicted, in the
           aperture; an AccessedPhysically system allocation is contiguous
           in the aperture. */
        if (!a->live || !(a->flags & GMMU_ALLOC_FLAG_CONTIGUOUS))
            continue;
        if (in_aperture(a))
            base = aperture_addr(a);
        else if (a->where == VIDMM_AT_VRAM && a->extents == 1)
            base = piece_pa(vm, a, &vm->extents[a->first_extent]);
        else
            continue;
        /* Written so that no sum can wrap: offset and bytes are the host's. */
        if (offset >= base && bytes <= a->size && offset - base <= a->size - bytes)
            return true;
    }
    return false;
}

/* ------------------------------------------------------------ address spaces */

uint32_t vidmm_create_as(struct vidmm *vm, struct gmmu_as_rsp *rsp)
{
    /* Reads need no slot-to-id translation: straight to the platform. */
    struct ptm_config pc = {
        .hw = vm->ptm_hw,
        .hw_ctx = vm,
        .vram = vm->vram,
        .table_counts = vm->table_counts,
        .read64 = vm->hw->read64,
        .read_ctx = vm->hw_ctx,
    };
    uint32_t slot = 0;
    struct vidmm_as *as;
    enum ptm_status st;

    while (slot < VIDMM_MAX_AS && vm->as[slot].live)
        slot++;
    if (slot == VIDMM_MAX_AS)
        return GMMU_STATUS_NO_MEMORY;
    as = &vm->as[slot];
    pc.asid = slot;
    st = ptm_init(&as->pm, &pc);
    if (st != PTM_OK)
        return vidmm_status_from_ptm(st);
    st = va_alloc_init(&as->vs, vm->va_nodes + (size_t)slot * vm->va_nodes_per_as,
                       vm->va_nodes_per_as, 0, VA_LIMIT);
    if (st != PTM_OK) {
        ptm_destroy(&as->pm);
        return GMMU_STATUS_INTERNAL;
    }
    as->live = true;
    vm->live_as++;
    as_touch(vm, slot);
    *rsp = (struct gmmu_as_rsp){
        .handle = handle_make(HANDLE_TAG_AS, slot, as->gen),
        .asid = as->hw_asid,
    };
    return GMMU_STATUS_OK;
}

uint32_t vidmm_destroy_as(struct vidmm *vm, const struct gmmu_handle_req *req)
{
    uint32_t slot;
    struct vidmm_as *as;

    if (req->reserved)
        return GMMU_STATUS_INVALID_ARGUMENT;
    as = as_lookup(vm, req->handle, &slot);
    if (!as)
        return GMMU_STATUS_BAD_HANDLE;
    if (as->hw_asid != VIDMM_NO_ASID && asid_busy(vm, as->hw_asid))
        return GMMU_STATUS_BUSY;
    records_drop_as(vm, slot);
    /* Off the hardware first: then nothing can walk the tables that
       ptm_destroy hands back (a broken space's are given up already). */
    as_unbind(vm, slot);
    if (!as->broken)
        ptm_destroy(&as->pm);
    as->broken = false;
    as->live = false;
    as->gen = next_gen(as->gen);
    vm->live_as--;
    return GMMU_STATUS_OK;
}

uint32_t vidmm_activate_as(struct vidmm *vm, uint32_t as_handle, uint32_t *hw_asid)
{
    uint32_t slot;

    if (!as_lookup(vm, as_handle, &slot))
        return GMMU_STATUS_BAD_HANDLE;
    if (vm->as[slot].broken)
        return GMMU_STATUS_DEVICE_ERROR;
    as_touch(vm, slot);
    *hw_asid = vm->as[slot].hw_asid;
    return GMMU_STATUS_OK;
}

bool vidmm_as_info(const struct vidmm *vm, uint32_t as_handle, uint64_t *root, uint32_t *hw_asid)
{
    uint32_t slot;

    if (!as_find(vm, as_handle, &slot))
        return false;
    *root = ptm_root(&vm->as[slot].pm);
    *hw_asid = vm->as[slot].hw_asid;
    return true;
}

uint32_t vidmm_as_handle_of_asid(const struct vidmm *vm, uint32_t hw_asid)
{
    uint32_t slot;

    if (hw_asid >= vm->hw_asids || vm->asid_owner[hw_asid] == VIDMM_NO_OWNER)
        return 0;
    slot = vm->asid_owner[hw_asid];
    if (slot >= VIDMM_MAX_AS || !vm->as[slot].live)
        return 0;
    return handle_make(HANDLE_TAG_AS, slot, vm->as[slot].gen);
}

/* ------------------------------------------------------------ MAP / UNMAP / RESERVE */

/* The largest page in `pages` not above the largest a mapping of `size`
   can use (at least the smallest page in `pages`). */
static uint64_t page_align_for(uint64_t size, unsigned pages)
{
    static const uint64_t page[] = { PAGE_SIZE, SIZE_64K, SIZE_2M, SIZE_1G };
    uint64_t limit = va_alloc_page_align(size), align = 0;

    for (unsigned k = 0; k < 4; k++)
        if ((pages & (1u << k)) && (!align || page[k] <= limit))
            align = page[k];
    return align;
}

/*
 * Automatic placement: the lowest free VA congruent to the first PA modulo
 * the largest page the mapping can use, so that every large page of the
 * backing can be a large page of the mapping.
 */
static enum ptm_status place_auto(struct va_space *vs, uint64_t pa, uint64_t size, unsigned pages,
                                  uint64_t *va)
{
    uint64_t align = page_align_for(size, pages);

    return va_alloc_any(vs, size, align, pa & (align - 1), 0, 0, VA_KIND_MAPPED, va);
}

static uint32_t map_check(const struct gmmu_map_req *req, const struct vidmm_alloc *a)
{
    if ((req->flags & ~(ATTR_FLAGS | GMMU_MAP_FLAG_FIXED_VA)) ||
        (req->page_sizes & ~PTM_PAGE_ALL) || !req->size ||
        (!(req->flags & GMMU_MAP_FLAG_FIXED_VA) && req->va))
        return GMMU_STATUS_INVALID_ARGUMENT;
    if ((req->offset | req->size) & (PAGE_SIZE - 1))
        return GMMU_STATUS_UNALIGNED;
    if (req->offset > a->size || req->size > a->size - req->offset)
        return GMMU_STATUS_OUT_OF_RANGE;
    return GMMU_STATUS_OK;
}

uint32_t vidmm_map_va(struct vidmm *vm, const struct gmmu_map_req *req, struct gmmu_va_rsp *rsp)
{
    uint32_t as_slot, alloc_slot, st;
    struct vidmm_as *as = as_lookup(vm, req->as_handle, &as_slot);
    struct vidmm_alloc *a = alloc_lookup(vm, req->alloc_handle, &alloc_slot);
    unsigned pages = req->page_sizes ? req->page_sizes : PTM_PAGE_ALL;
    struct vidmm_record *rec;
    enum ptm_status pst;
    size_t n;
    uint64_t va = req->va;

    if (!as || !a)
        return GMMU_STATUS_BAD_HANDLE;
    if (as->broken)
        return GMMU_STATUS_DEVICE_ERROR;
    st = map_check(req, a);
    if (st != GMMU_STATUS_OK)
        return st;
    n = map_extents_build(vm, a, req->offset, req->size);
    if (req->flags & GMMU_MAP_FLAG_FIXED_VA)
        pst = va_alloc_fixed(&as->vs, va, req->size, VA_KIND_MAPPED);
    else
        pst = place_auto(&as->vs, vm->map_extents[0].pa, req->size, pages, &va);
    if (pst != PTM_OK)
        return vidmm_status_from_ptm(pst);
    /* After the VA: an overlapping fixed VA is OVERLAP even with no record free.
       A VRAM-only allocation that is not resident stays invalid there. */
    rec = record_take(vm);
    pst = !rec         ? PTM_ERR_NO_NODES
          : offline(a) ? PTM_OK
                       : ptm_map_extents(&as->pm, va, vm->map_extents, n, alloc_segment(a),
                                         req->flags & ATTR_FLAGS, pages);
    if (as_result(vm, as_slot, pst) != PTM_OK) {
        va_alloc_free(&as->vs, va, req->size);
        return vidmm_status_from_ptm(pst);
    }
    record_set(vm, rec, va, req->size, alloc_slot, as_slot, VIDMM_REC_MAPPING);
    rec->offset_pages = (uint32_t)(req->offset >> GMMU_PAGE_SHIFT_4K);
    vm->rec_map[rec - vm->records] = (uint8_t)((req->flags & ATTR_FLAGS) | pages << 3);
    as_touch(vm, as_slot);
    rsp->va = va;
    return GMMU_STATUS_OK;
}

uint32_t vidmm_unmap_va(struct vidmm *vm, const struct gmmu_range_req *req)
{
    uint32_t slot;
    struct vidmm_as *as = as_lookup(vm, req->as_handle, &slot);
    struct vidmm_record *rec = NULL;
    struct va_extent ext;
    enum ptm_status st;

    if ((req->flags & ~(uint32_t)GMMU_UNMAP_FLAG_UNDER_JOBS) || !req->size)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (!as)
        return GMMU_STATUS_BAD_HANDLE;
    if (as->broken)
        return GMMU_STATUS_DEVICE_ERROR;
    if ((req->va | req->size) & (PAGE_SIZE - 1))
        return GMMU_STATUS_UNALIGNED;
    /* Only a whole mapping or reservation, named by its start and size. */
    if (!va_alloc_find(&as->vs, req->va, &ext) || ext.start != req->va || ext.size != req->size)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (!(req->flags & GMMU_UNMAP_FLAG_UNDER_JOBS) && in_use(vm, slot, req->va, req->size)) {
        vm->counters.in_use_refusals++;
        return GMMU_STATUS_BUSY;
    }
    if (ext.kind == VA_KIND_MAPPED) {
        rec = mapping_find(vm, slot, req->va);
        if (!rec)
            return GMMU_STATUS_INTERNAL;
    }
    st = as_result(vm, slot, ptm_unmap(&as->pm, req->va, req->size));
    if (st != PTM_OK)
        return vidmm_status_from_ptm(st);
    if (rec)
        record_free(vm, rec);
    else
        tiles_drop(vm, slot, req->va, req->va + req->size);
    va_alloc_free(&as->vs, req->va, req->size);
    as_touch(vm, slot);
    return GMMU_STATUS_OK;
}

uint32_t vidmm_reserve_va(struct vidmm *vm, const struct gmmu_reserve_req *req,
                          struct gmmu_va_rsp *rsp)
{
    uint32_t slot;
    struct vidmm_as *as = as_lookup(vm, req->as_handle, &slot);
    bool fixed = req->flags & GMMU_MAP_FLAG_FIXED_VA;
    uint64_t va = req->va;
    enum ptm_status st;

    if ((req->flags & ~GMMU_MAP_FLAG_FIXED_VA) || !req->size || (!fixed && req->va))
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (!as)
        return GMMU_STATUS_BAD_HANDLE;
    if (as->broken)
        return GMMU_STATUS_DEVICE_ERROR;
    if ((req->size | (fixed ? req->va : 0)) & (VIDMM_TILE_SIZE - 1))
        return GMMU_STATUS_UNALIGNED;
    if (fixed)
        st = va_alloc_fixed(&as->vs, va, req->size, VA_KIND_RESERVED);
    else
        st = va_alloc_any(&as->vs, req->size, 0, 0, 0, 0, VA_KIND_RESERVED, &va);
    if (st != PTM_OK)
        return vidmm_status_from_ptm(st);
    as_touch(vm, slot);
    rsp->va = va;
    return GMMU_STATUS_OK;
}

/* ------------------------------------------------------------ UPDATE */

/* One operation of a batch, checked, with what it resolved to. */
struct upd {
    struct gmmu_update_op op;
    uint64_t dst_start, dst_end; /* the reserved range holding the target */
    uint64_t src_start, src_end; /* COPY: the one holding the source */
    uint32_t alloc;              /* MAP: allocation slot */
    const struct vidmm_alloc *a;
};

/* The reserved range that holds all of [va, va + size), if one does. */
static bool reserved_holding(const struct va_space *vs, uint64_t va, uint64_t size, uint64_t *start,
                             uint64_t *end)
{
    struct va_extent ext;

    if (!va_alloc_find(vs, va, &ext) || ext.kind != VA_KIND_RESERVED ||
        size > ext.start + ext.size - va)
        return false;
    *start = ext.start;
    *end = ext.start + ext.size;
    return true;
}

static bool tile_aligned(uint64_t v)
{
    return !(v & (VIDMM_TILE_SIZE - 1));
}

static uint32_t upd_check_map(struct vidmm *vm, struct upd *u)
{
    const struct gmmu_update_op *op = &u->op;

    if (op->flags & ~ATTR_FLAGS)
        return GMMU_STATUS_INVALID_ARGUMENT;
    u->a = alloc_lookup(vm, op->alloc_handle, &u->alloc);
    if (!u->a)
        return GMMU_STATUS_BAD_HANDLE;
    if (!tile_aligned(op->arg))
        return GMMU_STATUS_UNALIGNED;
    if (op->arg > u->a->size || op->size > u->a->size - op->arg)
        return GMMU_STATUS_OUT_OF_RANGE;
    /* Tiles of a VRAM-only allocation could not be put back after an
       eviction: it must be resident (and then stays put). */
    if (offline(u->a))
        return GMMU_STATUS_INVALID_ARGUMENT;
    return GMMU_STATUS_OK;
}

static uint32_t upd_check_copy(const struct vidmm_as *as, struct upd *u)
{
    const struct gmmu_update_op *op = &u->op;

    if (op->flags || op->alloc_handle)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (!tile_aligned(op->arg))
        return GMMU_STATUS_UNALIGNED;
    if (!reserved_holding(&as->vs, op->arg, op->size, &u->src_start, &u->src_end))
        return GMMU_STATUS_OUT_OF_RANGE;
    if (op->arg != op->va && op->arg < op->va + op->size && op->va < op->arg + op->size)
        return GMMU_STATUS_OVERLAP;
    return GMMU_STATUS_OK;
}

/* Everything an operation needs, checked against the state before the
   batch (operations change tables only, never what is checked here). */
static uint32_t upd_check(struct vidmm *vm, const struct vidmm_as *as, struct upd *u)
{
    const struct gmmu_update_op *op = &u->op;

    if (op->reserved || !op->size || op->op < GMMU_UPDATE_OP_MAP || op->op > GMMU_UPDATE_OP_PROTECT)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (!tile_aligned(op->va | op->size))
        return GMMU_STATUS_UNALIGNED;
    if (!reserved_holding(&as->vs, op->va, op->size, &u->dst_start, &u->dst_end))
        return GMMU_STATUS_OUT_OF_RANGE;
    switch (op->op) {
    case GMMU_UPDATE_OP_MAP:
        return upd_check_map(vm, u);
    case GMMU_UPDATE_OP_COPY:
        return upd_check_copy(as, u);
    case GMMU_UPDATE_OP_UNMAP:
        if ((op->flags & ~GMMU_MAP_FLAG_ZERO) || op->alloc_handle || op->arg)
            return GMMU_STATUS_INVALID_ARGUMENT;
        return GMMU_STATUS_OK;
    default: /* PROTECT */
        if ((op->flags & ~ATTR_FLAGS) || op->alloc_handle || op->arg)
            return GMMU_STATUS_INVALID_ARGUMENT;
        return GMMU_STATUS_OK;
    }
}

/*
 * Upper bound of the page-table blocks an operation can take: every table
 * whose span meets the range, at each level (level-2 tables span 512 GB,
 * the 8 KB level-1 tables 1 GB, leaf tables 2 MB, and a 4 KB slab of
 * 64 KB-page tables 32 MB). Unmapping to invalid and protecting only split
 * the entries cut by the two ends of the range.
 */
struct table_need {
    uint64_t blocks_4k, blocks_8k;
};

static uint64_t spans(uint64_t lo, uint64_t hi, unsigned shift)
{
    return ((hi - 1) >> shift) - (lo >> shift) + 1;
}

static void need_range(struct table_need *n, uint64_t lo, uint64_t hi)
{
    n->blocks_4k += spans(lo, hi, 39) + spans(lo, hi, 21) + spans(lo, hi, 25);
    n->blocks_8k += spans(lo, hi, 30);
}

static void need_op(struct table_need *n, const struct gmmu_update_op *op)
{
    uint64_t lo = op->va, hi = op->va + op->size;
    bool edges_only = op->op == GMMU_UPDATE_OP_PROTECT ||
                      (op->op == GMMU_UPDATE_OP_UNMAP && !(op->flags & GMMU_MAP_FLAG_ZERO));

    if (!edges_only) {
        need_range(n, lo, hi);
        return;
    }
    need_range(n, lo, lo + PAGE_SIZE);
    need_range(n, hi - PAGE_SIZE, hi);
}

/*
 * Whether blocks_8k 8 KB and blocks_4k 4 KB blocks can all be taken now.
 * One free block as large as the total always can; otherwise they are
 * taken (8 KB first, as ptmgr does), threaded through their own first word,
 * and given back. The segment is as before either way.
 */
static bool headroom(struct vidmm *vm, const struct table_need *n)
{
    static const uint64_t bytes[2] = { 2 * PAGE_SIZE, PAGE_SIZE };
    uint64_t count[2] = { n->blocks_8k, n->blocks_4k }, total, head = UINT64_MAX, taken = 0;
    struct vram_stats st;
    bool ok = true;

    total = n->blocks_8k * bytes[0] + n->blocks_4k * bytes[1];
    vram_alloc_stats(vm->vram, &st);
    if (total > st.free_bytes)
        return false;
    if (total <= st.largest_free)
        return true;
    vm->counters.batch_reservations++;
    for (unsigned k = 0; k < 2 && ok; k++) {
        for (uint64_t i = 0; i < count[k] && ok; i++) {
            uint64_t off;

            ok = vram_alloc_block(vm->vram, bytes[k], &off) == VRAM_OK;
            if (ok) {
                vm->hw->write64(vm->hw_ctx, off, head);
                head = off;
                taken += bytes[k];
            }
        }
    }
    while (head != UINT64_MAX) {
        uint64_t next = vm->hw->read64(vm->hw_ctx, head), bytes_freed;

        vram_alloc_free_block(vm->vram, head, &bytes_freed);
        taken -= bytes_freed;
        head = next;
        /* A link the engine failed to write reads stale: stop following
           them; the blocks not found again are lost. */
        if (vm->hw->failed && vm->hw->failed(vm->hw_ctx)) {
            vm->lost_bytes += taken;
            break;
        }
    }
    return ok;
}

/*
 * The records of a batch are written before its first table change, so
 * that a batch that cannot record every tile it points at changes nothing:
 * a refused batch puts back the hulls saved here, in tiles. tiles 0 marks
 * a record that was free (a hull is at least one tile, and a reserved
 * range, which holds it, is below 2^48 bytes: the count fits).
 */
struct hull_save {
    uint32_t first, tiles;
};

#define TILE_SHIFT GMMU_PAGE_SHIFT_64K

static void records_restore(struct vidmm *vm, uint32_t as, const struct hull_save *saved)
{
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++) {
        struct vidmm_record *r = &vm->records[i];

        if (r->kind != VIDMM_REC_TILES || r->as != as)
            continue;
        if (!saved[i].tiles) {
            record_free(vm, r);
            continue;
        }
        r->va = (uint64_t)saved[i].first << TILE_SHIFT;
        r->size = (uint64_t)saved[i].tiles << TILE_SHIFT;
    }
}

static bool hull_meets(const struct vidmm_record *r, uint64_t lo, uint64_t hi)
{
    return r->va < hi && lo < r->va + r->size;
}

/* COPY carries the source range's references whose hulls, as the batch
   has grown them so far, meet the copied range. */
static bool copy_refs(struct vidmm *vm, uint32_t as, const struct upd *u)
{
    uint64_t lo = u->op.arg, hi = u->op.arg + u->op.size;
    bool ok = true;

    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS && ok; i++) {
        struct vidmm_record *r = &vm->records[i];

        if (r->kind != VIDMM_REC_TILES || r->as != as ||
            !in_range(r->va, u->src_start, u->src_end) || !hull_meets(r, lo, hi))
            continue;
        if (u->src_start == u->dst_start)
            hull_extend(r, u->op.va, u->op.va + u->op.size);
        else
            ok = tiles_note(vm, as, u->dst_start, u->dst_end, r->alloc, u->op.va,
                            u->op.va + u->op.size);
    }
    return ok;
}

static void upd_load(struct upd *u, const void *ops, uint32_t i)
{
    memset(u, 0, sizeof(*u));
    memcpy(&u->op, (const uint8_t *)ops + (size_t)i * sizeof(u->op), sizeof(u->op));
}

/*
 * Before any table changes: every operation valid (the first bad one's
 * status wins), then the records of what the batch will point at, then
 * the tables it may need. A failure puts the records back. Not inlined:
 * the saved hulls leave the stack before the tables are written.
 */
__attribute__((noinline)) static uint32_t upd_plan(struct vidmm *vm, uint32_t slot, const void *ops,
                                                   uint32_t count)
{
    struct hull_save saved[VIDMM_MAX_RECORDS];
    struct table_need need = { 0, 0 };
    uint32_t st = GMMU_STATUS_OK;
    bool noted = true;

    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++) {
        const struct vidmm_record *r = &vm->records[i];
        bool mine = r->kind == VIDMM_REC_TILES && r->as == slot;

        saved[i].first = mine ? (uint32_t)(r->va >> TILE_SHIFT) : 0;
        saved[i].tiles = mine ? (uint32_t)(r->size >> TILE_SHIFT) : 0;
    }
    for (uint32_t i = 0; i < count; i++) {
        struct upd u;

        upd_load(&u, ops, i);
        st = upd_check(vm, &vm->as[slot], &u);
        if (st != GMMU_STATUS_OK)
            break;
        need_op(&need, &u.op);
        if (!noted)
            continue;
        if (u.op.op == GMMU_UPDATE_OP_MAP)
            noted =
                tiles_note(vm, slot, u.dst_start, u.dst_end, u.alloc, u.op.va, u.op.va + u.op.size);
        else if (u.op.op == GMMU_UPDATE_OP_COPY)
            noted = copy_refs(vm, slot, &u);
    }
    if (st == GMMU_STATUS_OK && (!noted || !headroom(vm, &need)))
        st = GMMU_STATUS_NO_MEMORY;
    if (st != GMMU_STATUS_OK)
        records_restore(vm, slot, saved);
    return st;
}

static enum ptm_status upd_apply(struct vidmm *vm, uint32_t slot, const struct upd *u)
{
    struct ptm *pm = &vm->as[slot].pm;
    const struct gmmu_update_op *op = &u->op;
    size_t n;

    switch (op->op) {
    case GMMU_UPDATE_OP_MAP:
        n = map_extents_build(vm, u->a, op->arg, op->size);
        return ptm_map_extents(pm, op->va, vm->map_extents, n, alloc_segment(u->a), op->flags,
                               PTM_PAGE_ALL);
    case GMMU_UPDATE_OP_UNMAP:
        if (op->flags & GMMU_MAP_FLAG_ZERO)
            return ptm_map_zero(pm, op->va, op->size, 0);
        return ptm_unmap(pm, op->va, op->size);
    case GMMU_UPDATE_OP_COPY:
        return ptm_copy(pm, op->arg, op->va, op->size);
    default: /* PROTECT */
        return ptm_protect(pm, op->va, op->size, op->flags);
    }
}

/* Some operation's destination range is in use. Looked at op by op only
   when the hull of them all is: one question for a batch while nothing
   runs there. Before the operations are checked, so a range is taken as
   given (saturated, never wrapped). */
static bool batch_in_use(const struct vidmm *vm, uint32_t slot, const void *ops, uint32_t count)
{
    uint64_t lo = UINT64_MAX, hi = 0;

    if (!vm->hw->va_in_use)
        return false;
    for (uint32_t pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < count; i++) {
            struct gmmu_update_op op;
            uint64_t end;

            memcpy(&op, (const uint8_t *)ops + (size_t)i * sizeof(op), sizeof(op));
            end = op.va + op.size < op.va ? UINT64_MAX : op.va + op.size;
            if (pass == 0) {
                lo = min64(lo, op.va);
                hi = max64(hi, end);
            } else if (in_use(vm, slot, op.va, end - op.va)) {
                return true;
            }
        }
        if (pass == 0 && (lo >= hi || !in_use(vm, slot, lo, hi - lo)))
            return false;
    }
    return false;
}

uint32_t vidmm_update_va(struct vidmm *vm, const struct gmmu_update_req *req, const void *ops)
{
    uint32_t slot, st;
    struct vidmm_as *as = as_lookup(vm, req->as_handle, &slot);
    enum ptm_status pst = PTM_OK;

    if (!as)
        return GMMU_STATUS_BAD_HANDLE;
    if (as->broken)
        return GMMU_STATUS_DEVICE_ERROR;
    if (req->count > VIDMM_UPDATE_MAX_OPS)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (batch_in_use(vm, slot, ops, req->count)) {
        vm->counters.in_use_refusals++;
        return GMMU_STATUS_BUSY;
    }
    st = upd_plan(vm, slot, ops, req->count);
    if (st != GMMU_STATUS_OK)
        return st;
    /* One invalidation for the whole batch, at ptm_batch_end. */
    ptm_batch_begin(&as->pm);
    for (uint32_t i = 0; i < req->count && pst == PTM_OK; i++) {
        struct upd u;

        upd_load(&u, ops, i);
        upd_check(vm, as, &u);
        pst = upd_apply(vm, slot, &u);
    }
    /* The batch's writes and its invalidation complete here: a paging
       engine that failed them is the device's error (as for MAP_VA). */
    enum ptm_status end = ptm_batch_end(&as->pm);

    if (pst == PTM_OK)
        pst = end;
    if (as_result(vm, slot, pst) == PTM_ERR_ENGINE)
        return GMMU_STATUS_DEVICE_ERROR;
    /* With the headroom taken no operation can run out of VRAM, and every
       other failure was checked for: this is a broken invariant. */
    if (pst != PTM_OK)
        return GMMU_STATUS_INTERNAL;
    as_touch(vm, slot);
    return GMMU_STATUS_OK;
}

uint32_t vidmm_update_va_after(struct vidmm *vm, const struct gmmu_update_req *req, const void *ops,
                               uint32_t after)
{
    vm->order_after = after;
    uint32_t st = vidmm_update_va(vm, req, ops);
    vm->order_after = 0;
    return st;
}

uint32_t vidmm_update_va_check(struct vidmm *vm, const struct gmmu_update_req *req, const void *ops)
{
    uint32_t slot;
    struct vidmm_as *as = as_lookup(vm, req->as_handle, &slot);

    if (!as)
        return GMMU_STATUS_BAD_HANDLE;
    if (as->broken)
        return GMMU_STATUS_DEVICE_ERROR;
    if (req->count > VIDMM_UPDATE_MAX_OPS)
        return GMMU_STATUS_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < req->count; i++) {
        struct upd u;
        uint32_t st;

        upd_load(&u, ops, i);
        st = upd_check(vm, as, &u);
        if (st != GMMU_STATUS_OK)
            return st;
    }
    return GMMU_STATUS_OK;
}

/* ------------------------------------------------------------ residency */

/* An engine runs now in an address space that maps the allocation, or in
   physical mode over it, or a submitted job needs one of its mappings
   (memory in use). */
static bool alloc_busy(const struct vidmm *vm, uint32_t slot)
{
    return records_in_use(vm, slot, true) || phys_running(vm, &vm->allocs[slot]);
}

static bool has_tiles(const struct vidmm *vm, uint32_t slot)
{
    for (uint32_t i = UINT32_MAX, left = vm->alloc_records[slot]; rec_next(vm, slot, &i, &left);)
        if (vm->records[i].kind == VIDMM_REC_TILES)
            return true;
    return false;
}

/*
 * May the allocation be moved out of VRAM now? In VRAM, nobody holds it
 * resident, not contiguous with constraints (it could not come back
 * within them: they are not kept) nor contiguous on a platform without an
 * aperture (it could not go there), no engine runs in a space that maps
 * it or in physical mode over it, and, VRAM only, no tile points at it
 * (tiles of an allocation that is not resident could not be put back).
 */
static bool evictable(const struct vidmm *vm, uint32_t slot)
{
    const struct vidmm_alloc *a = &vm->allocs[slot];

    return a->live && a->where == VIDMM_AT_VRAM && !a->residency &&
           !(a->flags & ALLOC_CONSTRAINED) && vm->hw->copy &&
           (!(a->flags & GMMU_ALLOC_FLAG_CONTIGUOUS) || vm->aperture.pages) &&
           !(vram_only(a) && has_tiles(vm, slot)) && !alloc_busy(vm, slot);
}

/* The evictable allocation used least recently, not in `skip`; -1 if none.
   Stops once it has seen every live allocation (the table, 6 KB in DDR,
   is larger than the D-cache). */
static int victim_pick(const struct vidmm *vm, const uint8_t *skip)
{
    int best = -1;
    uint32_t best_age = 0;

    for (uint32_t i = 0, left = vm->live_allocs; i < VIDMM_MAX_ALLOCS && left; i++) {
        uint32_t age = vm->clock - vm->allocs[i].last_use;

        left -= vm->allocs[i].live;
        if (bit_get(skip, i) || !evictable(vm, i))
            continue;
        if (best < 0 || age > best_age) {
            best = (int)i;
            best_age = age;
        }
    }
    return best;
}

/* Whether evicting least recently used first can free `need` bytes of
   VRAM, each victim fitting the pool. Changes nothing. */
static bool plan_room(const struct vidmm *vm, uint64_t need, const uint8_t *skip)
{
    uint8_t mark[SLOT_BITS];
    struct vram_stats st;
    uint64_t pool_free = vm->backing.bytes - vm->backing.used;

    memcpy(mark, skip, sizeof(mark));
    vram_alloc_stats(vm->vram, &st);
    while (st.free_bytes < need) {
        int v = victim_pick(vm, mark);
        uint64_t bytes;

        if (v < 0)
            return false;
        bit_set(mark, (uint32_t)v);
        bytes = round_unit(vm->allocs[v].size);
        if (bytes > pool_free)
            continue;
        pool_free -= bytes;
        st.free_bytes += vm->allocs[v].size;
    }
    return true;
}

/*
 * One scan of the allocation's records for a move onto the pieces of
 * `to`: adds to `n` the page-table blocks rewriting every PTE of the
 * allocation can take (every table under its mappings and tile hulls, see
 * need_range), and returns whether every MAP_VA mapping can be mapped on
 * those pieces with the page sizes it was made with (each piece aligned
 * to the smallest of them).
 */
static bool move_plan(struct vidmm *vm, uint32_t slot, const struct vidmm_alloc *to,
                      struct table_need *n)
{
    for (uint32_t i = UINT32_MAX, left = vm->alloc_records[slot]; rec_next(vm, slot, &i, &left);) {
        const struct vidmm_record *r = &vm->records[i];
        uint64_t align;
        size_t k;

        need_range(n, r->va, r->va + r->size);
        if (r->kind != VIDMM_REC_MAPPING)
            continue;
        align = page_align_for(PAGE_SIZE, vm->rec_map[i] >> 3);
        k = map_extents_build(vm, to, (uint64_t)r->offset_pages << GMMU_PAGE_SHIFT_4K, r->size);
        while (k--)
            if ((vm->map_extents[k].pa | vm->map_extents[k].size) & (align - 1))
                return false;
    }
    return true;
}

/* Copies the allocation's bytes from the pieces of `from` to those of `to`
   (same offsets), in runs as long as both pieces allow. */
static bool move_copy(struct vidmm *vm, const struct vidmm_alloc *from,
                      const struct vidmm_alloc *to, uint64_t size)
{
    uint16_t fi = from->first_extent, ti = to->first_extent;
    uint64_t fo = 0, to_off = 0; /* bytes used of the current pieces */

    while (size && fi != NIL && ti != NIL) {
        const struct vidmm_extent *fe = &vm->extents[fi], *te = &vm->extents[ti];
        uint64_t run = min64(min64(extent_bytes(fe) - fo, extent_bytes(te) - to_off), size);

        if (!vm->hw->copy(vm->hw_ctx, alloc_segment(to), piece_pa(vm, to, te) + to_off,
                          alloc_segment(from), piece_pa(vm, from, fe) + fo, run))
            return false;
        size -= run;
        fo += run;
        to_off += run;
        if (fo == extent_bytes(fe)) {
            fi = fe->next;
            fo = 0;
        }
        if (to_off == extent_bytes(te)) {
            ti = te->next;
            to_off = 0;
        }
    }
    return !size;
}

/* Points the pages of a tile hull that are in `old` at the same offsets
   of the allocation where it is now. */
static enum ptm_status tiles_move(struct vidmm *vm, const struct vidmm_record *r,
                                  const struct vidmm_alloc *old, const struct vidmm_alloc *a)
{
    struct ptm *pm = &vm->as[r->as].pm;
    uint64_t end = r->va + r->size;
    enum ptm_status st = PTM_OK;

    for (uint64_t va = r->va; va < end && st == PTM_OK;) {
        struct ptm_translation t = { .state = PTM_PAGE_INVALID };
        uint64_t page = VIDMM_TILE_SIZE, at = va, start, off;
        size_t n;

        ptm_query(pm, at, &t);
        vm->counters.tile_scans++;
        if (t.state != PTM_PAGE_INVALID)
            page = max64(page, UINT64_C(1) << t.page_shift);
        start = at & ~(page - 1);
        va = start + page;
        /* t.pa translates `at`; the page (or the tile of 4 KB pages, whose
           PA need not be 64 KB aligned) starts at t.pa - (at - start). */
        if (t.state != PTM_PAGE_MAPPED ||
            !alloc_offset_of(vm, old, t.segment, t.pa - (at - start), &off))
            continue;
        n = map_extents_build(vm, a, off, min64(page, a->size - off));
        st =
            ptm_map_extents(pm, start, vm->map_extents, n, alloc_segment(a), t.attrs, PTM_PAGE_ALL);
    }
    return st;
}

/* Makes every PTE that points into the allocation point where it is now
   (or invalid, for a VRAM-only allocation that is not resident). */
static enum ptm_status ptes_move(struct vidmm *vm, uint32_t slot, const struct vidmm_alloc *old)
{
    const struct vidmm_alloc *a = &vm->allocs[slot];
    enum ptm_status st = PTM_OK;

    for (uint32_t i = UINT32_MAX, left = vm->alloc_records[slot];
         st == PTM_OK && rec_next(vm, slot, &i, &left);) {
        struct vidmm_record *r = &vm->records[i];
        struct ptm *pm = &vm->as[r->as].pm;
        uint8_t m = vm->rec_map[i];
        size_t n;

        if (vm->as[r->as].broken)
            continue;
        if (r->kind == VIDMM_REC_TILES) {
            st = tiles_move(vm, r, old, a);
        } else if (offline(a)) {
            st = ptm_unmap(pm, r->va, r->size);
        } else {
            n = map_extents_build(vm, a, (uint64_t)r->offset_pages << GMMU_PAGE_SHIFT_4K, r->size);
            st = ptm_map_extents(pm, r->va, vm->map_extents, n, alloc_segment(a), m & ATTR_FLAGS,
                                 m >> 3);
        }
        /* That space is off the MMU now: the others are rewritten still,
           so no walk reaches the old pages once they are freed. */
        if (as_result(vm, r->as, st) == PTM_ERR_ENGINE)
            st = PTM_OK;
    }
    return st;
}

/*
 * Moves allocation `slot` into VRAM or out to the pool, its VAs unchanged:
 * new pages, the paging engine's copy, every PTE pointing into it
 * rewritten (each ptmgr command ends with its TLB flush), then the old
 * pages freed. Refused before anything changes when the new pages, the
 * tables the rewrite may need or the copy fail.
 */
static uint32_t alloc_move(struct vidmm *vm, uint32_t slot, bool to_vram, struct moves *log)
{
    struct vidmm_alloc *a = &vm->allocs[slot];
    struct vidmm_alloc old = *a, dst = *a;
    struct table_need need = { 0, 0 };
    bool from_vram = a->where == VIDMM_AT_VRAM;
    bool phys = a->flags & GMMU_ALLOC_FLAG_CONTIGUOUS;
    uint32_t st, apt = a->apt_page - 1;

    dst.first_extent = NIL;
    dst.extents = 0;
    dst.where = to_vram ? VIDMM_AT_VRAM : VIDMM_AT_POOL;
    st = !to_vram ? pool_carve(vm, &dst, a->size)
         : phys   ? backing_contig(vm, &dst, &(const struct gmmu_alloc_req){ 0 }, a->size)
                  : backing_carve(vm, &dst, a->size);
    if (st != GMMU_STATUS_OK)
        return st;
    /* AccessedPhysically into system memory: into the aperture too (room
       taken last, so nothing else needs undoing). */
    if ((!offline(&dst) && (!move_plan(vm, slot, &dst, &need) || !headroom(vm, &need))) ||
        (phys && from_vram && !aperture_take(vm, a->size, &apt))) {
        backing_release(vm, &dst);
        return GMMU_STATUS_NO_MEMORY;
    }
    if (!move_copy(vm, a, &dst, a->size)) {
        backing_release(vm, &dst);
        if (phys && from_vram)
            aperture_alloc_give(&vm->aperture, apt, (uint32_t)(a->size >> GMMU_PAGE_SHIFT_4K));
        return GMMU_STATUS_DEVICE_ERROR;
    }
    a->first_extent = dst.first_extent;
    a->extents = dst.extents;
    a->where = dst.where;
    /* The headroom was there: a failure is a broken invariant. Between
       ranges of the pool an OFFLINE one has no valid PTE to rewrite. */
    st = GMMU_STATUS_OK;
    if (!(offline(&old) && offline(a)) && ptes_move(vm, slot, &old) != PTM_OK)
        st = GMMU_STATUS_INTERNAL;
    if (vm->hw->complete)
        vm->hw->complete(vm->hw_ctx);
    /* The aperture entries leave the old pool pages (cleared, or onto the
       new ones, then INVALIDATE) before those can be reused. */
    if (phys && to_vram)
        aperture_unmap(vm, a);
    else if (phys)
        aperture_fill(vm, a, apt, a->size >> GMMU_PAGE_SHIFT_4K);
    backing_release(vm, &old);
    if (to_vram) {
        vm->alloc_vram_bytes += a->size;
        vm->counters.moves_in++;
    } else if (from_vram) {
        vm->alloc_vram_bytes -= a->size;
        vm->counters.moves_out++;
    } else {
        vm->counters.pool_moves++;
    }
    vm->counters.bytes_moved += a->size;
    if (!log || to_vram == from_vram)
        return st;
    if (bit_get(to_vram ? log->out : log->in, slot))
        bit_clear(to_vram ? log->out : log->in, slot); /* a move back */
    else
        bit_set(to_vram ? log->in : log->out, slot);
    return st;
}

/*
 * Moves back what a failing command moved: its listed allocations out
 * first (they took the VRAM), then the victims in, into the VRAM they
 * left. A move back is refused only if the segment's pieces or tables
 * ran short meanwhile, which nothing in between takes; then that
 * allocation stays where the command put it, VA and bytes intact, and the
 * paging fence counts its move.
 */
static void moves_undo(struct vidmm *vm, struct moves *log)
{
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++)
        if (bit_get(log->in, i) && alloc_move(vm, i, false, log) != GMMU_STATUS_OK)
            vm->counters.undo_refused++;
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++)
        if (bit_get(log->out, i) && alloc_move(vm, i, true, log) != GMMU_STATUS_OK)
            vm->counters.undo_refused++;
}

/* One paging fence value per allocation that ended the command elsewhere. */
static void moves_signal(struct vidmm *vm, const struct moves *log)
{
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++) {
        if (bit_get(log->in, i))
            vidmm_paging_signal(vm);
        if (bit_get(log->out, i))
            vidmm_paging_signal(vm);
    }
}

/* Evicts least recently used first until `need` bytes of VRAM are free;
   a victim that cannot move is skipped (and marked in skip). */
static uint32_t make_room(struct vidmm *vm, uint64_t need, uint8_t *skip, struct moves *log)
{
    struct vram_stats st;

    for (vram_alloc_stats(vm->vram, &st); st.free_bytes < need; vram_alloc_stats(vm->vram, &st)) {
        int v = victim_pick(vm, skip);
        uint32_t s;

        if (v < 0)
            return GMMU_STATUS_NO_MEMORY;
        s = alloc_move(vm, (uint32_t)v, false, log);
        if (s == GMMU_STATUS_INTERNAL)
            return s;
        if (s != GMMU_STATUS_OK)
            bit_set(skip, (uint32_t)v);
    }
    return GMMU_STATUS_OK;
}

/* Brings a listed allocation into VRAM, evicting others (not in `list`). */
static uint32_t bring_in(struct vidmm *vm, uint32_t slot, const uint8_t *list, struct moves *log)
{
    uint8_t skip[SLOT_BITS];
    uint32_t st;

    memcpy(skip, list, sizeof(skip));
    st = make_room(vm, vm->allocs[slot].size, skip, log);
    if (st == GMMU_STATUS_OK)
        st = alloc_move(vm, slot, true, log);
    /* Free bytes were not enough (pieces): one more victim at a time. */
    while (st == GMMU_STATUS_NO_MEMORY) {
        int v = victim_pick(vm, skip);

        if (v < 0)
            break;
        bit_set(skip, (uint32_t)v);
        if (alloc_move(vm, (uint32_t)v, false, log) == GMMU_STATUS_OK)
            st = alloc_move(vm, slot, true, log);
    }
    return st;
}

static uint32_t handle_at(const void *handles, uint32_t i)
{
    uint32_t h;

    memcpy(&h, (const uint8_t *)handles + 4u * i, 4);
    return h;
}

/* Every handle live (BAD_HANDLE), a sane count; marks their slots. */
static uint32_t list_check(struct vidmm *vm, const struct gmmu_residency_req *req,
                           const void *handles, uint8_t *list)
{
    memset(list, 0, SLOT_BITS);
    if (req->reserved || !req->count || req->count > GMMU_RESIDENCY_MAX)
        return GMMU_STATUS_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < req->count; i++) {
        uint32_t slot;

        if (!alloc_lookup(vm, handle_at(handles, i), &slot))
            return GMMU_STATUS_BAD_HANDLE;
        bit_set(list, slot);
    }
    return GMMU_STATUS_OK;
}

uint32_t vidmm_make_resident(struct vidmm *vm, const struct gmmu_residency_req *req,
                             const void *handles, struct gmmu_residency_rsp *rsp)
{
    uint8_t list[SLOT_BITS];
    struct moves log = { { 0 }, { 0 } };
    uint64_t need = 0;
    uint32_t st = list_check(vm, req, handles, list);

    if (st != GMMU_STATUS_OK)
        return st;
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++) {
        const struct vidmm_alloc *a = &vm->allocs[i];

        if (!bit_get(list, i))
            continue;
        /* Counts could wrap only after 65535 unmatched MAKE_RESIDENTs. */
        if (a->residency > UINT16_MAX - req->count)
            return GMMU_STATUS_INVALID_ARGUMENT;
        if (offline(a))
            need += a->size;
    }
    /* VRAM-only allocations must come in: refused while nothing moved
       when the sums show they cannot. */
    if (need && !plan_room(vm, need, list))
        return GMMU_STATUS_NO_MEMORY;
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS && st == GMMU_STATUS_OK; i++)
        if (bit_get(list, i) && offline(&vm->allocs[i]))
            st = bring_in(vm, i, list, &log);
    /* The sums said yes but pieces or tables ran short: every move of the
       command goes back, no count changed. */
    if (st != GMMU_STATUS_OK) {
        moves_undo(vm, &log);
        moves_signal(vm, &log);
        return st;
    }
    /* VRAM preferred, and evicted contiguous ones: into VRAM if room can
       be made, else resident in the pool (not a failure); never under a
       running engine. An attempt that fails puts back the victims it
       moved. */
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS && st == GMMU_STATUS_OK; i++) {
        const struct vidmm_alloc *a = &vm->allocs[i];

        if (!bit_get(list, i) || a->where != VIDMM_AT_POOL ||
            !(a->flags & (GMMU_ALLOC_FLAG_VRAM_PREFERRED | GMMU_ALLOC_FLAG_CONTIGUOUS)) ||
            alloc_busy(vm, i))
            continue;
        /* Cleared only for a slot that moves: zeroing it for each of the
           160 slots cost about 70 k cycles a command (picolibc's memset). */
        struct moves try = { { 0 }, { 0 } };
        st = bring_in(vm, i, list, &try);
        if (st == GMMU_STATUS_NO_MEMORY) {
            moves_undo(vm, &try);
            st = GMMU_STATUS_OK;
        }
        for (uint32_t k = 0; k < SLOT_BITS; k++) {
            log.in[k] |= try.in[k];
            log.out[k] |= try.out[k];
        }
    }
    moves_signal(vm, &log);
    if (st != GMMU_STATUS_OK)
        return st;
    for (uint32_t i = 0; i < req->count; i++) {
        uint32_t slot;

        alloc_lookup(vm, handle_at(handles, i), &slot);
        vm->allocs[slot].residency++;
        vm->allocs[slot].last_use = ++vm->clock;
    }
    rsp->fence = vidmm_paging_signal(vm);
    return GMMU_STATUS_OK;
}

uint32_t vidmm_evict(struct vidmm *vm, const struct gmmu_residency_req *req, const void *handles)
{
    uint8_t list[SLOT_BITS];
    uint32_t st = list_check(vm, req, handles, list), i, slot;

    if (st != GMMU_STATUS_OK)
        return st;
    for (i = 0; i < req->count; i++) {
        alloc_lookup(vm, handle_at(handles, i), &slot);
        if (!vm->allocs[slot].residency)
            break;
        vm->allocs[slot].residency--;
    }
    if (i == req->count) {
        for (i = 0; i < req->count; i++) {
            alloc_lookup(vm, handle_at(handles, i), &slot);
            vm->allocs[slot].last_use = ++vm->clock;
        }
        return GMMU_STATUS_OK;
    }
    /* Below zero: put back what this list took. */
    while (i-- > 0) {
        alloc_lookup(vm, handle_at(handles, i), &slot);
        vm->allocs[slot].residency++;
    }
    return GMMU_STATUS_INVALID_ARGUMENT;
}

uint32_t vidmm_query_alloc(struct vidmm *vm, const struct gmmu_handle_req *req,
                           struct gmmu_alloc_info *rsp)
{
    static const uint8_t state[] = {
        [VIDMM_AT_VRAM] = GMMU_ALLOC_STATE_VRAM,
        [VIDMM_AT_POOL] = GMMU_ALLOC_STATE_BACKING,
        [VIDMM_AT_HOST] = GMMU_ALLOC_STATE_HOST,
    };
    uint32_t slot;
    const struct vidmm_alloc *a;

    if (req->reserved)
        return GMMU_STATUS_INVALID_ARGUMENT;
    a = alloc_lookup(vm, req->handle, &slot);
    if (!a)
        return GMMU_STATUS_BAD_HANDLE;
    *rsp = (struct gmmu_alloc_info){
        .size = a->size,
        /* In the aperture: where an engine in physical mode reaches it. */
        .base = in_aperture(a)   ? aperture_addr(a)
                : host_buffer(a) ? a->sys_addr
                                 : piece_pa(vm, a, &vm->extents[a->first_extent]),
        .segment = in_aperture(a) ? GMMU_SEGMENT_APERTURE : alloc_segment(a),
        .state = offline(a) ? GMMU_ALLOC_STATE_OFFLINE : state[a->where],
        .residency = a->residency,
        .flags = a->flags & ALLOC_FLAGS,
        .extents = host_buffer(a) ? 1u : a->extents,
    };
    return GMMU_STATUS_OK;
}

/* ------------------------------------------------------------ ADD_BACKING */

/* A SYSTEM allocation's pages are the host's own: none may be backing. */
static bool overlaps_system_alloc(const struct vidmm *vm, uint64_t addr, uint64_t size)
{
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++) {
        const struct vidmm_alloc *a = &vm->allocs[i];

        if (!a->live || !is_system(a))
            continue;
        if (host_buffer(a)) {
            if (addr < a->sys_addr + a->size && a->sys_addr < addr + size)
                return true;
            continue;
        }
        for (uint16_t idx = a->first_extent; idx != NIL; idx = vm->extents[idx].next) {
            uint64_t s = extent_offset(&vm->extents[idx]);

            if (addr < s + extent_bytes(&vm->extents[idx]) && s < addr + size)
                return true;
        }
    }
    return false;
}

uint32_t vidmm_add_backing(struct vidmm *vm, const struct gmmu_backing_req *req)
{
    static const uint32_t status[] = {
        [BACKING_OK] = GMMU_STATUS_OK,
        [BACKING_ERR_INVALID] = GMMU_STATUS_INVALID_ARGUMENT,
        [BACKING_ERR_UNALIGNED] = GMMU_STATUS_UNALIGNED,
        [BACKING_ERR_RANGE] = GMMU_STATUS_OUT_OF_RANGE,
        [BACKING_ERR_OVERLAP] = GMMU_STATUS_OVERLAP,
        [BACKING_ERR_FULL] = GMMU_STATUS_NO_MEMORY,
    };
    enum backing_pool_err err = backing_pool_check(&vm->backing, req->sys_addr, req->size);

    if (err != BACKING_OK)
        return status[err];
    /* Pool pieces count 4 KB pages in 32 bits: the pool stops at 16 TiB. */
    if (req->size > POOL_LIMIT - vm->backing.bytes)
        return GMMU_STATUS_OUT_OF_RANGE;
    if (overlaps_system_alloc(vm, req->sys_addr, req->size))
        return GMMU_STATUS_OVERLAP;
    /* Outside what the host can serve (or no path at all): the device's
       write at either end fails. */
    if (vm->hw->sys_reachable &&
        (!vm->hw->sys_reachable(vm->hw_ctx, req->sys_addr) ||
         !vm->hw->sys_reachable(vm->hw_ctx, req->sys_addr + req->size - 8)))
        return GMMU_STATUS_OUT_OF_RANGE;
    return status[backing_pool_add(&vm->backing, req->sys_addr, req->size)];
}

/* ------------------------------------------------------------ REMOVE_BACKING */

/* Pool offsets of range i. */
static void range_span(const struct backing_pool *b, uint32_t i, uint64_t *lo, uint64_t *hi)
{
    uint64_t base = 0;

    for (uint32_t k = 0; k < i; k++)
        base += b->range[k].size;
    *lo = base;
    *hi = base + b->range[i].size;
}

/* Whether the allocation has a piece in pool offsets [lo, hi) (pieces
   never cross a range's end). */
static bool pool_holds(const struct vidmm *vm, const struct vidmm_alloc *a, uint64_t lo,
                       uint64_t hi)
{
    if (!a->live || a->where != VIDMM_AT_POOL)
        return false;
    for (uint16_t idx = a->first_extent; idx != NIL; idx = vm->extents[idx].next) {
        uint64_t off = extent_offset(&vm->extents[idx]);

        if (off >= lo && off < hi)
            return true;
    }
    return false;
}

/*
 * Whether the device still reaches range i: its first and last 4 KB page
 * copied into a spare 4 KB block of VRAM, given back after. Only reads
 * touch the range (ADD_BACKING's probe writes, and the range may hold
 * allocations now that an engine is writing). A host that left took its
 * memory with it; on the SoC the read then ends in a bus error. NO_MEMORY
 * without a spare block.
 */
static uint32_t range_alive(struct vidmm *vm, uint32_t i, bool *alive)
{
    const struct backing_pool_range *r = &vm->backing.range[i];
    uint64_t spare;

    if (vram_alloc_block(vm->vram, PAGE_SIZE, &spare) != VRAM_OK)
        return GMMU_STATUS_NO_MEMORY;
    *alive = vm->hw->copy(vm->hw_ctx, GMMU_SEGMENT_VRAM, spare, GMMU_SEGMENT_SYSTEM, r->addr,
                          PAGE_SIZE) &&
             vm->hw->copy(vm->hw_ctx, GMMU_SEGMENT_VRAM, spare, GMMU_SEGMENT_SYSTEM,
                          r->addr + r->size - PAGE_SIZE, PAGE_SIZE);
    vram_alloc_free_block(vm->vram, spare, NULL);
    return GMMU_STATUS_OK;
}

/* Range [lo, hi) left the pool, empty: later pool offsets move down. */
static void pool_renumber(struct vidmm *vm, uint64_t lo, uint64_t hi)
{
    uint32_t shift = (uint32_t)((hi - lo) >> GMMU_PAGE_SHIFT_4K);

    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++) {
        const struct vidmm_alloc *a = &vm->allocs[i];

        if (!a->live || a->where != VIDMM_AT_POOL)
            continue;
        for (uint16_t idx = a->first_extent; idx != NIL; idx = vm->extents[idx].next)
            if (extent_offset(&vm->extents[idx]) >= hi)
                vm->extents[idx].page -= shift;
    }
}

/*
 * Moves a tenant out of the range being removed (skipped by pool_carve):
 * a VRAM-preferred one into VRAM if it fits now (nothing is evicted for
 * it), else into the rest of the pool; a VRAM-only (OFFLINE) one stays
 * OFFLINE in the pool if it can, else comes into VRAM; so does an evicted
 * contiguous one (the same aperture pages, onto its new pool pages).
 */
static uint32_t tenant_move(struct vidmm *vm, uint32_t slot)
{
    bool pref = vm->allocs[slot].flags & GMMU_ALLOC_FLAG_VRAM_PREFERRED;
    uint32_t st = GMMU_STATUS_NO_MEMORY;

    if (pref)
        st = alloc_move(vm, slot, true, NULL);
    if (st == GMMU_STATUS_NO_MEMORY)
        st = alloc_move(vm, slot, false, NULL);
    if (st == GMMU_STATUS_NO_MEMORY &&
        (vram_only(&vm->allocs[slot]) || (vm->allocs[slot].flags & GMMU_ALLOC_FLAG_CONTIGUOUS)))
        st = alloc_move(vm, slot, true, NULL);
    return st;
}

/* The tenants of range i: BUSY if an engine runs in a space that maps
   one (never moved or freed under it). */
static uint32_t range_tenants(const struct vidmm *vm, uint32_t i, uint8_t *tenants, uint32_t *n)
{
    uint64_t lo, hi;

    range_span(&vm->backing, i, &lo, &hi);
    memset(tenants, 0, SLOT_BITS);
    *n = 0;
    for (uint32_t slot = 0; slot < VIDMM_MAX_ALLOCS; slot++) {
        if (!pool_holds(vm, &vm->allocs[slot], lo, hi))
            continue;
        if (alloc_busy(vm, slot))
            return GMMU_STATUS_BUSY;
        bit_set(tenants, slot);
        (*n)++;
    }
    return GMMU_STATUS_OK;
}

/*
 * Empties range i and takes it out of the pool. Alive, every tenant is
 * moved out, or, if one cannot be, those moved go back into the range and
 * nothing changed; gone, its tenants are freed (their bytes went with the
 * host's memory).
 */
static uint32_t range_remove(struct vidmm *vm, uint32_t i, const uint8_t *tenants, bool alive,
                             struct gmmu_backing_remove_rsp *rsp)
{
    uint8_t moved[SLOT_BITS] = { 0 };
    uint32_t st = GMMU_STATUS_OK, n = 0;
    uint64_t lo, hi;

    range_span(&vm->backing, i, &lo, &hi);
    vm->skip_lo = lo;
    vm->skip_hi = hi;
    for (uint32_t slot = 0; slot < VIDMM_MAX_ALLOCS && st == GMMU_STATUS_OK; slot++) {
        if (!bit_get(tenants, slot))
            continue;
        if (!alive) {
            alloc_release(vm, slot);
            rsp->freed++;
            continue;
        }
        st = tenant_move(vm, slot);
        if (st == GMMU_STATUS_OK) {
            bit_set(moved, slot);
            n++;
        }
    }
    vm->skip_lo = vm->skip_hi = 0;
    if (st != GMMU_STATUS_OK) {
        /* Back into the range, which held them a moment ago. */
        vm->pool_lo = lo;
        vm->pool_hi = hi;
        for (uint32_t slot = 0; slot < VIDMM_MAX_ALLOCS; slot++) {
            if (!bit_get(moved, slot) || alloc_move(vm, slot, false, NULL) == GMMU_STATUS_OK)
                continue;
            vm->counters.undo_refused++;
            vidmm_paging_signal(vm);
        }
        vm->pool_lo = 0;
        vm->pool_hi = UINT64_MAX;
        return st;
    }
    for (uint32_t k = 0; k < n; k++)
        vidmm_paging_signal(vm);
    rsp->moved += n;
    pool_renumber(vm, lo, hi);
    backing_pool_remove(&vm->backing, i);
    rsp->ranges++;
    return GMMU_STATUS_OK;
}

uint32_t vidmm_remove_backing(struct vidmm *vm, const struct gmmu_backing_remove_req *req,
                              struct gmmu_backing_remove_rsp *rsp)
{
    bool unreachable = req->flags & GMMU_REMOVE_BACKING_FLAG_UNREACHABLE;
    uint8_t tenants[BACKING_MAX_RANGES][SLOT_BITS];
    bool dead[BACKING_MAX_RANGES] = { false };
    uint32_t st = GMMU_STATUS_OK, n, i;

    *rsp = (struct gmmu_backing_remove_rsp){ 0 };
    if (req->reserved || (req->flags & ~(uint32_t)GMMU_REMOVE_BACKING_FLAG_UNREACHABLE) ||
        (unreachable && (req->sys_addr || req->size)))
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (!unreachable) {
        for (i = 0; i < vm->backing.count; i++)
            if (vm->backing.range[i].addr == req->sys_addr &&
                vm->backing.range[i].size == req->size)
                break;
        if (i == vm->backing.count)
            return GMMU_STATUS_INVALID_ARGUMENT; /* not a range of the pool */
        bool alive = true;

        st = range_tenants(vm, i, tenants[0], &n);
        if (st == GMMU_STATUS_OK && n && !vm->hw->copy)
            st = GMMU_STATUS_DEVICE_ERROR; /* nothing can move them */
        if (st == GMMU_STATUS_OK && n)
            st = range_alive(vm, i, &alive);
        if (st == GMMU_STATUS_OK)
            st = range_remove(vm, i, tenants[0], alive, rsp);
        rsp->fence = vidmm_paging_value(vm);
        return st;
    }
    /* Without a copy engine the device cannot tell: nothing is removed.
       Every range is probed and BUSY checked before any goes. */
    for (i = 0; i < vm->backing.count && vm->hw->copy; i++) {
        bool alive;

        st = range_alive(vm, i, &alive);
        if (st != GMMU_STATUS_OK)
            return st;
        dead[i] = !alive;
        if (dead[i] && range_tenants(vm, i, tenants[i], &n) != GMMU_STATUS_OK)
            return GMMU_STATUS_BUSY;
    }
    /* Highest first: a removal moves the later ranges down. */
    for (i = vm->backing.count; i-- > 0;)
        if (dead[i])
            range_remove(vm, i, tenants[i], false, rsp);
    rsp->fence = vidmm_paging_value(vm);
    return GMMU_STATUS_OK;
}

/* ------------------------------------------------------------ QUERY / GET_VRAM */

uint32_t vidmm_query_va(struct vidmm *vm, const struct gmmu_query_req *req,
                        struct gmmu_query_rsp *rsp)
{
    uint32_t slot;
    struct vidmm_as *as = as_lookup(vm, req->as_handle, &slot);
    struct ptm_translation t;
    enum ptm_status st;

    if (req->reserved)
        return GMMU_STATUS_INVALID_ARGUMENT;
    if (!as)
        return GMMU_STATUS_BAD_HANDLE;
    if (as->broken)
        return GMMU_STATUS_DEVICE_ERROR;
    st = ptm_query(&as->pm, req->va, &t);
    if (st != PTM_OK)
        return vidmm_status_from_ptm(st);
    *rsp = (struct gmmu_query_rsp){
        .pa = t.pa,
        .state = t.state,
        .segment = t.segment,
        .flags = t.attrs,
        .page_shift = t.page_shift,
    };
    return GMMU_STATUS_OK;
}

void vidmm_table_usage(const struct vidmm *vm, uint32_t *tables, uint64_t *vram_bytes)
{
    uint32_t left = vm->live_as; /* each slot looked at is a line of DDR */

    *tables = 0;
    *vram_bytes = vm->lost_bytes;
    for (uint32_t i = 0; i < VIDMM_MAX_AS && left; i++) {
        struct ptm_usage u;

        if (!vm->as[i].live)
            continue;
        left--;
        ptm_usage(&vm->as[i].pm, &u);
        *tables += u.tables;
        *vram_bytes += u.vram_bytes;
    }
}

void vidmm_set_paging_fence(struct vidmm *vm, const struct vidmm_paging_fence *paging)
{
    vm->paging = paging;
}

uint64_t vidmm_paging_signal(struct vidmm *vm)
{
    if (vm->paging)
        return vm->paging->signal(vm->paging->ctx);
    return ++vm->fence;
}

uint64_t vidmm_paging_value(const struct vidmm *vm)
{
    return vm->paging ? vm->paging->value(vm->paging->ctx) : vm->fence;
}

void vidmm_get_vram(const struct vidmm *vm, struct gmmu_vram_rsp *rsp)
{
    struct vram_stats st;

    vram_alloc_stats(vm->vram, &st);
    *rsp = (struct gmmu_vram_rsp){
        .segment_bytes = st.segment_bytes,
        .free_bytes = st.free_bytes,
        .largest_free = st.largest_free,
        .allocations = vm->live_allocs,
        .address_spaces = vm->live_as,
        .backing_ranges = vm->backing.count,
        .backing_bytes = vm->backing.bytes,
        .backing_free = vm->backing.bytes - vm->backing.used,
        .resident_bytes = vm->alloc_vram_bytes,
        .paging_fence = vidmm_paging_value(vm),
    };
    /* Up to the last live allocation: each slot looked at is a line of
       DDR on the SoC. */
    for (uint32_t i = 0, left = vm->live_allocs; i < VIDMM_MAX_ALLOCS && left; i++) {
        if (!vm->allocs[i].live)
            continue;
        left--;
        if (evictable(vm, i))
            rsp->evictable_bytes += vm->allocs[i].size;
    }
    vidmm_table_usage(vm, &rsp->tables, &rsp->table_bytes);
}
