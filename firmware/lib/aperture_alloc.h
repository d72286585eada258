// SPDX-License-Identifier: Apache-2.0
/*
 * The aperture segment's offset allocator: which 4 KB pages of the
 * aperture (docs/aperture.md) hold an allocation. First fit over a bitmap
 * the caller lends (one bit per page), so an allocation gets the lowest
 * run of free pages that fits, and a refusal changes nothing.
 *
 * Portable C11, no hardware: vidmm writes the table entries and
 * invalidates the translators itself.
 */
#ifndef APERTURE_ALLOC_H
#define APERTURE_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

struct aperture_alloc {
    uint32_t *bits; /* (pages + 31) / 32 words: bit p set = page p in use */
    uint32_t pages; /* the aperture's size in 4 KB pages */
    uint32_t used;  /* pages in use */
};

/* An empty aperture of `pages` pages (0: none, every take fails). */
void aperture_alloc_init(struct aperture_alloc *ap, uint32_t *bits, uint32_t pages);

/* Takes the lowest run of n free pages into *first. False (nothing
   changed) when n is 0 or no run fits. */
bool aperture_alloc_take(struct aperture_alloc *ap, uint32_t n, uint32_t *first);

/* Gives back [first, first + n): every page must be in use (false, and
   nothing changed, otherwise). */
bool aperture_alloc_give(struct aperture_alloc *ap, uint32_t first, uint32_t n);

/* Whether page p is in use. */
bool aperture_alloc_used(const struct aperture_alloc *ap, uint32_t p);

#endif /* APERTURE_ALLOC_H */
