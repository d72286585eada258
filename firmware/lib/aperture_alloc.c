// SPDX-License-Identifier: Apache-2.0
/* The aperture's offset allocator (aperture_alloc.h). */
#include "aperture_alloc.h"

#include <stddef.h>

bool aperture_alloc_used(const struct aperture_alloc *ap, uint32_t p)
{
    return p < ap->pages && (ap->bits[p / 32] >> (p % 32) & 1u);
}

static void set_run(struct aperture_alloc *ap, uint32_t first, uint32_t n, bool used)
{
    for (uint32_t p = first; p < first + n; p++) {
        if (used)
            ap->bits[p / 32] |= 1u << (p % 32);
        else
            ap->bits[p / 32] &= ~(1u << (p % 32));
    }
}

void aperture_alloc_init(struct aperture_alloc *ap, uint32_t *bits, uint32_t pages)
{
    ap->bits = bits;
    ap->pages = bits ? pages : 0;
    ap->used = 0;
    for (uint32_t w = 0; w < (ap->pages + 31) / 32; w++)
        bits[w] = 0;
}

bool aperture_alloc_take(struct aperture_alloc *ap, uint32_t n, uint32_t *first)
{
    uint32_t run = 0;

    if (n == 0 || n > ap->pages - ap->used)
        return false;
    for (uint32_t p = 0; p < ap->pages; p++) {
        /* A whole free word skips 32 pages at once. */
        if (p % 32 == 0 && ap->bits[p / 32] == 0 && ap->pages - p >= 32) {
            run += 32;
            p += 31;
        } else if (aperture_alloc_used(ap, p)) {
            run = 0;
            continue;
        } else {
            run++;
        }
        if (run >= n) {
            uint32_t start = p + 1 - run;

            set_run(ap, start, n, true);
            ap->used += n;
            *first = start;
            return true;
        }
    }
    return false;
}

bool aperture_alloc_give(struct aperture_alloc *ap, uint32_t first, uint32_t n)
{
    if (n == 0 || first >= ap->pages || n > ap->pages - first)
        return false;
    for (uint32_t p = first; p < first + n; p++)
        if (!aperture_alloc_used(ap, p))
            return false;
    set_run(ap, first, n, false);
    ap->used -= n;
    return true;
}
