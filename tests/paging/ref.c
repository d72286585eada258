/* SPDX-License-Identifier: Apache-2.0 */
#include "ref.h"

#include "gmmu/paging.h"

static unsigned opcode(uint64_t h)
{
    return (unsigned)(h & 0xFF);
}
static uint32_t count(uint64_t h)
{
    return (uint32_t)(h >> GMMU_PAGING_HDR_COUNT_LSB);
}

unsigned ref_packet_words(uint64_t h)
{
    switch (opcode(h)) {
    case GMMU_PAGING_OP_WRITE_PTES:
        return (h & GMMU_PAGING_HDR_LITERAL) ? 2u + count(h) : 4u;
    case GMMU_PAGING_OP_FLUSH_TLB:
        return 4u;
    case GMMU_PAGING_OP_FILL:
    case GMMU_PAGING_OP_COPY:
    case GMMU_PAGING_OP_FENCE:
        return 3u;
    default:
        return 1u;
    }
}

/* [addr, addr + bytes) in VRAM must end at or below min(ddr_size, 4 GiB);
 * in system memory it must not pass 2^64. */
static bool range_bad(const struct ref_cfg *c, bool sys, uint64_t addr, uint64_t bytes)
{
    if (sys)
        return bytes != 0 && addr + bytes - 1 < addr;
    uint64_t limit = c->ddr_size < (UINT64_C(1) << 32) ? c->ddr_size : (UINT64_C(1) << 32);
    return addr > limit || bytes > limit - addr;
}

unsigned ref_validate(const struct ref_cfg *c, const uint64_t *w)
{
    uint64_t h = w[0];
    unsigned op = opcode(h);
    uint32_t n = count(h);
    bool dst_sys = h & GMMU_PAGING_HDR_DST_SYS, src_sys = h & GMMU_PAGING_HDR_SRC_SYS;
    if ((h & GMMU_PAGING_HDR_RESERVED) != 0)
        return GMMU_PAGING_ERR_MALFORMED;
    switch (op) {
    case GMMU_PAGING_OP_WRITE_PTES:
    case GMMU_PAGING_OP_FILL:
    case GMMU_PAGING_OP_COPY:
        if (n == 0 || (w[1] & 7) != 0)
            return GMMU_PAGING_ERR_MALFORMED;
        if (op == GMMU_PAGING_OP_COPY && (w[2] & 7) != 0)
            return GMMU_PAGING_ERR_MALFORMED;
        if (op == GMMU_PAGING_OP_WRITE_PTES && (h & GMMU_PAGING_HDR_LITERAL) &&
            (uint64_t)n + 2 > c->queue_words)
            return GMMU_PAGING_ERR_MALFORMED;
        if (range_bad(c, dst_sys, w[1], (uint64_t)n * 8))
            return GMMU_PAGING_ERR_RANGE;
        if (op == GMMU_PAGING_OP_COPY && range_bad(c, src_sys, w[2], (uint64_t)n * 8))
            return GMMU_PAGING_ERR_RANGE;
        return GMMU_PAGING_ERR_NONE;
    case GMMU_PAGING_OP_FLUSH_TLB: {
        unsigned type = n & 3;
        if ((n >> 2) != 0 || type == 3)
            return GMMU_PAGING_ERR_MALFORMED;
        if (type != GMMU_PAGING_FLUSH_ALL && c->asid_bits < 64 && (w[1] >> c->asid_bits) != 0)
            return GMMU_PAGING_ERR_MALFORMED;
        if (type == GMMU_PAGING_FLUSH_RANGE && (w[2] >> 12) > (w[3] >> 12))
            return GMMU_PAGING_ERR_MALFORMED;
        return GMMU_PAGING_ERR_NONE;
    }
    case GMMU_PAGING_OP_FENCE:
        if (n != 0)
            return GMMU_PAGING_ERR_MALFORMED;
        if (h & GMMU_PAGING_HDR_FENCE_WRITE) {
            if ((w[1] & 7) != 0)
                return GMMU_PAGING_ERR_MALFORMED;
            if (range_bad(c, dst_sys, w[1], 8))
                return GMMU_PAGING_ERR_RANGE;
        }
        return GMMU_PAGING_ERR_NONE;
    default:
        return GMMU_PAGING_ERR_MALFORMED;
    }
}

uint64_t ref_read(const struct ref *r, bool sys, uint64_t addr)
{
    return sys ? sparse_mem_read_u64(r->sys, addr - r->cfg.sys_base)
               : sparse_mem_read_u64(r->ddr, addr);
}

void ref_write(struct ref *r, bool sys, uint64_t addr, uint64_t v)
{
    if (sys)
        sparse_mem_write_u64(r->sys, addr - r->cfg.sys_base, v);
    else
        sparse_mem_write_u64(r->ddr, addr, v);
}

void ref_exec(struct ref *r, const uint64_t *w)
{
    uint64_t h = w[0];
    uint32_t n = count(h);
    bool dst_sys = h & GMMU_PAGING_HDR_DST_SYS, src_sys = h & GMMU_PAGING_HDR_SRC_SYS;
    switch (opcode(h)) {
    case GMMU_PAGING_OP_WRITE_PTES:
        for (uint32_t i = 0; i < n; i++) {
            uint64_t v = (h & GMMU_PAGING_HDR_LITERAL) ? w[2 + i] : w[2] + (uint64_t)i * w[3];
            ref_write(r, dst_sys, w[1] + 8ull * i, v);
        }
        break;
    case GMMU_PAGING_OP_FILL:
        for (uint32_t i = 0; i < n; i++)
            ref_write(r, dst_sys, w[1] + 8ull * i, w[2]);
        break;
    case GMMU_PAGING_OP_COPY:
        for (uint32_t i = 0; i < n; i++)
            ref_write(r, dst_sys, w[1] + 8ull * i, ref_read(r, src_sys, w[2] + 8ull * i));
        break;
    case GMMU_PAGING_OP_FLUSH_TLB:
        if (r->n_flushes < REF_MAX_FLUSHES) {
            struct ref_flush f = { n & 3, w[1], w[2] >> 12, w[3] >> 12 };
            r->flushes[r->n_flushes++] = f;
        }
        break;
    case GMMU_PAGING_OP_FENCE:
        if (h & GMMU_PAGING_HDR_FENCE_WRITE)
            ref_write(r, dst_sys, w[1], w[2]);
        r->fence_value = w[2];
        r->fences++;
        if (h & GMMU_PAGING_HDR_FENCE_IRQ)
            r->fence_irq = true;
        break;
    default:
        break;
    }
}
