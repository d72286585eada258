// SPDX-License-Identifier: Apache-2.0
#include "fence_hw.h"

#include "hal.h"

_Static_assert(GMMU_FENCES *GMMU_FENCE_RECORD_BYTES <= 4096, "the records fit one page");

static struct {
    struct mbox_service *svc;
    struct fences *fences;
    uint64_t page;
} bind;

/* A sequence lock over two 32-bit halves: the host reads seq, the value,
   seq again, and keeps the value only when both reads are the same even
   number. Uncached stores reach DDR in program order on the one AXI port. */
static void publish(void *ctx, uint32_t slot, uint64_t value)
{
    (void)ctx;
    if (bind.page == UINT64_MAX)
        return;
    volatile uint32_t *r = hal_ddr_uncached(bind.page + (uint64_t)slot * GMMU_FENCE_RECORD_BYTES);
    uint32_t seq = r[0];

    seq |= 1u; /* odd: being written (also after a restart left it odd) */
    r[0] = seq;
    r[2] = (uint32_t)value;
    r[3] = (uint32_t)(value >> 32);
    r[1] = 0;
    r[0] = seq + 1u;
}

static void notify(void *ctx, const struct gmmu_fence_evt *evt)
{
    (void)ctx;
    mbox_service_post_event(bind.svc, GMMU_EVT_FENCE, evt, sizeof(*evt));
}

static uint64_t offset(void *ctx, uint32_t slot)
{
    (void)ctx;
    return bind.page == UINT64_MAX ? UINT64_MAX
                                   : bind.page + (uint64_t)slot * GMMU_FENCE_RECORD_BYTES;
}

static uint32_t now(void *ctx)
{
    (void)ctx;
    return (uint32_t)hal_cycles();
}

static const struct fence_hw hw = {
    .publish = publish, .notify = notify, .offset = offset, .now = now
};

static uint64_t paging_signal(void *ctx)
{
    return fence_paging_signal(ctx);
}

static uint64_t paging_value(void *ctx)
{
    return fence_paging_value(ctx);
}

static struct vidmm_paging_fence paging = { .signal = paging_signal, .value = paging_value };

void fence_hw_init(struct fences *f, struct mbox_service *svc, struct vidmm *vm, uint64_t page)
{
    bind.svc = svc;
    bind.fences = f;
    bind.page = page;
    fence_init(f, &hw);
    paging.ctx = f;
    if (vm)
        vidmm_set_paging_fence(vm, &paging);
}
