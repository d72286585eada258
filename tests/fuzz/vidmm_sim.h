// SPDX-License-Identifier: Apache-2.0
/*
 * A simulated platform for vidmm on the host: VRAM in a buffer, the MMU's
 * address-space table, and a small TLB that keeps what accesses translated
 * until an invalidation drops it. Shared by the unit tests, the randomized
 * differential test and the fuzzer.
 *
 * The TLB is how the tests check invalidation independently of vidmm: after
 * a command every cached translation must still be what a fresh walk of
 * the tables gives (vidmm_sim_tlb_stale() == 0). A missed invalidation, an
 * id recycled without a full invalidation, or a table freed under a cached
 * walk shows up as a stale entry. Freed tables are poisoned with words that
 * have VALID set, so a dangling table pointer translates visibly wrong.
 *
 * Violations of the platform contract (access outside VRAM, an unaligned
 * word, a bad hardware id) abort with a message.
 */
#ifndef VIDMM_SIM_H
#define VIDMM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "gmmu_ref.h"
#include "vidmm.h"

#define VIDMM_SIM_TLB_ENTRIES 64
/* Host memory (Segment 0) of vidmm_sim_host: [BASE, BASE + bytes). */
#define VIDMM_SIM_HOST_BASE   (UINT64_C(1) << 40)

struct vidmm_sim_tlb {
    bool valid;
    uint32_t asid;
    uint64_t va_page;
    struct gmmu_ref_result result;
};

struct vidmm_sim {
    uint8_t *mem;
    uint64_t bytes;
    uint8_t *host; /* vidmm_sim_host: host memory the copy hook reaches */
    uint64_t host_bytes;
    struct vram_alloc vram;
    uint32_t *meta;
    uint32_t *counts; /* the page tables' valid-entry counts */
    uint64_t start_free;
    struct va_node *nodes;
    struct vidmm_tables *tables; /* apart from vm, as the SoC keeps them */
    struct vidmm *vm;
    struct vidmm_hw hw;
    uint32_t hw_asids, nodes_per_as;
    struct {
        uint64_t root;
        bool valid;
    } as_table[VIDMM_HW_ASIDS_MAX];
    struct vidmm_sim_tlb tlb[VIDMM_SIM_TLB_ENTRIES];
    uint32_t tlb_next;
    /* Counters of hardware calls. */
    uint64_t writes, invalidations, full_invalidations, set_as_calls, tables_freed;
    uint64_t copies, copy_bytes;
    /* Set by a test: the copy hook fills the source with POISON after
       copying, as if the old pages were reused at once, so a PTE left on
       them reads visibly wrong. Kept across resets. */
    bool poison_moved;
    /* Set by a test: host memory [gone_lo, gone_hi) (bus addresses) is
       gone, as when the host that gave it left: a copy touching it fails,
       as the SoC's bus error does, and it is unreachable. */
    uint64_t gone_lo, gone_hi;
    /* Set by a test: hardware ids an engine runs under now (asid_busy). */
    uint32_t busy_asids;
    /* Set by a test: an engine runs in physical mode over physical-mode
       addresses [phys_lo, phys_hi) (phys_busy); empty when equal. */
    uint64_t phys_lo, phys_hi;
    /* Set by a test: ranges submitted engine jobs still need (va_in_use:
       [va, va + bytes) of address space as_handle), and the `after` fence
       of the last question. */
    struct {
        uint32_t as_handle;
        uint64_t va, bytes;
    } in_use[4];
    uint32_t in_use_n;
    uint32_t in_use_after;
    /* vidmm_sim_engine: the paging engine's hooks; its next fail_completes
       completions report a failed engine. */
    bool engine;
    uint32_t fail_completes;
    /* vidmm_sim_engine: when non-zero, the engine fails at that write
       (counting from 1 at the next): it and every later write are dropped
       and the failed hook says so until the next completion, which
       reports the failure (as the SoC's paging engine does). */
    uint32_t fail_at_write;
    bool failing;
    uint64_t dropped_writes;
    uint32_t last_inv_asid;
    uint64_t last_inv_start, last_inv_end;
    /* vidmm_sim_aperture: the aperture table (apt_pages entries), and the
       order of its writes and invalidations (seq counts both). */
    uint64_t *apt_table;
    uint32_t apt_pages;
    uint64_t apt_writes, apt_invalidations, apt_seq, apt_last_write_seq, apt_last_inv_seq;
};

/* vram_bytes of VRAM, hw_asids hardware ids, nodes_per_as VA nodes per
   address space. Aborts if memory runs out. */
void vidmm_sim_init(struct vidmm_sim *s, uint64_t vram_bytes, uint32_t hw_asids,
                    uint32_t nodes_per_as);
void vidmm_sim_fini(struct vidmm_sim *s);

/* Gives vidmm a paging engine's hooks (write_pattern and complete, the
   writes landing at once) or takes them away, then resets. */
void vidmm_sim_engine(struct vidmm_sim *s, bool on);

/* Gives the platform `bytes` of host memory at VIDMM_SIM_HOST_BASE, a
   copy hook (so vidmm can move allocations) and a sys_reachable hook (so
   ADD_BACKING outside that memory is OUT_OF_RANGE), then resets. Without
   it there is neither. */
void vidmm_sim_host(struct vidmm_sim *s, uint64_t bytes);

/* Gives the platform an aperture segment of `pages` 4 KB pages (its table
   and hooks; 0: none), then resets. */
void vidmm_sim_aperture(struct vidmm_sim *s, uint32_t pages);

/* Back to a fresh segment and a fresh vidmm, keeping the buffers. */
void vidmm_sim_reset(struct vidmm_sim *s);

/* Bytes of VRAM in use now. */
uint64_t vidmm_sim_used(const struct vidmm_sim *s);

/* VRAM in use equals what allocations and page tables hold. */
bool vidmm_sim_accounting_ok(const struct vidmm_sim *s);

/* Walk the tables of an address space from its root, as the hardware would
   if it ran it (whether or not it holds a hardware id now). */
void vidmm_sim_walk(const struct vidmm_sim *s, uint64_t root, uint64_t va, enum gmmu_access access,
                    struct gmmu_ref_result *out);

/* A GPU access under hardware id asid: through the TLB, filling it. */
void vidmm_sim_access(struct vidmm_sim *s, uint32_t asid, uint64_t va, struct gmmu_ref_result *out);

/* TLB entries that no longer match a fresh walk under their id. */
unsigned vidmm_sim_tlb_stale(const struct vidmm_sim *s);

/* 64-bit word of VRAM (tests tag allocation pages with it). */
uint64_t vidmm_sim_peek(const struct vidmm_sim *s, uint64_t off);
void vidmm_sim_poke(struct vidmm_sim *s, uint64_t off, uint64_t value);
/* The same in a segment (GMMU_SEGMENT_SYSTEM: a host address). */
uint64_t vidmm_sim_peek_seg(const struct vidmm_sim *s, unsigned seg, uint64_t addr);
void vidmm_sim_poke_seg(struct vidmm_sim *s, unsigned seg, uint64_t addr, uint64_t value);

#endif
