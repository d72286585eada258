// SPDX-License-Identifier: Apache-2.0
/*
 * The firmware's fault forwarding and counter reply (mmu_report) and the
 * mailbox service's event ring, on the host: BAR0 is an array
 * (fake_mbox/mbox_io_impl.h) and the MMU a fake register file with a fault
 * FIFO. Expected layouts are written out from docs/mailbox.md and
 * docs/mmu.md (byte offsets, register addresses), not taken from the code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mbox_service.h"
#include "mmu_report.h"

uint32_t fake_bar0[GMMU_BAR0_BYTES / 4];

#define EVT_RING        0x3000u
#define EVT_HEAD        0x70u
#define EVT_TAIL        0x74u
#define EVT_DROPPED     0x30u
#define HOST_IRQ_STATUS 0x50u
#define IRQ_EVENT       0x2u
#define SLOTS           64u

/* ------------------------------------------------------------ fake MMU */
struct fake_fault {
    uint64_t va;
    uint32_t info, tag;
};

static struct {
    struct fake_fault fifo[32];
    unsigned head, count, pops;
    uint32_t overflow;
    uint32_t regs[0x2000 / 4];
    uint32_t perf_ctrl_writes;
} mmu;

static uint32_t fake_read(void *ctx, uint32_t reg)
{
    (void)ctx;
    const struct fake_fault *f = &mmu.fifo[mmu.head % 32];
    switch (reg) {
    case 0x44:
        return mmu.count ? (uint32_t)f->va : 0;
    case 0x48:
        return mmu.count ? (uint32_t)(f->va >> 32) : 0;
    case 0x4C:
        return mmu.count ? f->info | 1u << 31 : 0;
    case 0x50:
        return mmu.count ? f->tag : 0;
    case 0x58:
        return mmu.overflow;
    default:
        return mmu.regs[reg / 4];
    }
}

static void fake_write(void *ctx, uint32_t reg, uint32_t value)
{
    (void)ctx;
    if (reg == 0x54 && mmu.count) {
        mmu.head++;
        mmu.count--;
        mmu.pops++;
    } else if (reg == 0x60) {
        mmu.perf_ctrl_writes += value == 1;
    }
}

static uint64_t fake_cycles(void *ctx)
{
    (void)ctx;
    return 0x123456789ull;
}

/* Hardware id n belongs to handle 0x80000000 | n, except id 7: nobody. */
static uint32_t fake_as_handle(void *ctx, uint32_t asid)
{
    (void)ctx;
    return asid == 7 ? 0 : 0x80000000u | asid;
}

static const struct mmu_report_hw hw = {
    .read = fake_read,
    .write = fake_write,
    .cycles = fake_cycles,
    .as_handle = fake_as_handle,
};

static void push_fault(uint64_t va, uint32_t reason, uint32_t access, uint32_t port, uint32_t asid,
                       uint32_t tag)
{
    mmu.fifo[(mmu.head + mmu.count) % 32] = (struct fake_fault){
        .va = va, .info = reason | access << 4 | port << 8 | asid << 16, .tag = tag
    };
    mmu.count++;
}

/* ------------------------------------------------------------ helpers */
static struct mbox_service svc;

static int reset(void **state)
{
    (void)state;
    memset(fake_bar0, 0, sizeof fake_bar0);
    memset(&mmu, 0, sizeof mmu);
    mbox_service_init(&svc);
    return 0;
}

static uint32_t bar(uint32_t off)
{
    return fake_bar0[off / 4];
}

static uint32_t slot_word(uint32_t slot, uint32_t word)
{
    return bar(EVT_RING + ((slot % SLOTS) * 64u + 4u * word) % (SLOTS * 64u));
}

static uint64_t slot_u64(uint32_t slot, uint32_t word)
{
    return slot_word(slot, word) | (uint64_t)slot_word(slot, word + 1) << 32;
}

/* ------------------------------------------------------------ events */
static void test_fault_event_layout(void **state)
{
    (void)state;
    fake_bar0[0x2C / 4] = 41; /* CPL_FENCE: the event header carries it */
    mbox_service_init(&svc);
    push_fault(0x0000123456789A40ull, 2 /* READ_ONLY */, 1 /* WRITE */, 3, 5, 0x11);
    mmu.overflow = 9;
    assert_int_equal(mmu_report_drain_faults(&hw, &svc, 16), 1);
    assert_int_equal(mmu.pops, 1);
    assert_int_equal(bar(EVT_HEAD), 1);
    assert_true(bar(HOST_IRQ_STATUS) & IRQ_EVENT);
    /* Header: opcode 1 (EVT_FAULT), length 16 + 48, seq 0, status 0, fence. */
    assert_int_equal(slot_word(0, 0), 1u | 64u << 16);
    assert_int_equal(slot_word(0, 1), 0);
    assert_int_equal(slot_word(0, 2), 0);
    assert_int_equal(slot_word(0, 3), 41);
    /* Payload at header + 0: va, cycles, as_handle, asid, port, access,
       reason, tag, overflow, reserved. */
    assert_int_equal(slot_u64(0, 4), 0x0000123456789A40ull);
    assert_int_equal(slot_u64(0, 6), 0x123456789ull);
    assert_int_equal(slot_word(0, 8), 0x80000005u);
    assert_int_equal(slot_word(0, 9), 5);
    assert_int_equal(slot_word(0, 10), 3);
    assert_int_equal(slot_word(0, 11), 1);
    assert_int_equal(slot_word(0, 12), 2);
    assert_int_equal(slot_word(0, 13), 0x11);
    assert_int_equal(slot_word(0, 14), 9);
    assert_int_equal(slot_word(0, 15), 0);
}

static void test_unowned_asid_reports_handle_zero(void **state)
{
    (void)state;
    push_fault(0x1000, 1, 0, 0, 7, 0);
    assert_int_equal(mmu_report_drain_faults(&hw, &svc, 16), 1);
    assert_int_equal(slot_word(0, 8), 0);
    assert_int_equal(slot_word(0, 9), 7);
}

static void test_drain_is_bounded_and_in_order(void **state)
{
    (void)state;
    for (uint32_t i = 0; i < 20; i++)
        push_fault(0x10000ull * (i + 1), 1, 0, i & 3, i, i);
    assert_int_equal(mmu_report_drain_faults(&hw, &svc, 16), 16);
    assert_int_equal(mmu.count, 4);
    assert_int_equal(mmu_report_drain_faults(&hw, &svc, 16), 4);
    assert_int_equal(mmu_report_drain_faults(&hw, &svc, 16), 0);
    assert_int_equal(bar(EVT_HEAD), 20);
    for (uint32_t i = 0; i < 20; i++) {
        assert_int_equal(slot_word(i, 1), i); /* event numbers */
        assert_int_equal(slot_u64(i, 4), 0x10000ull * (i + 1));
        assert_int_equal(slot_word(i, 10), i & 3);
    }
}

static void test_full_ring_drops_and_counts(void **state)
{
    (void)state;
    /* The host reads nothing: 64 events fit, the next 6 are dropped. */
    for (uint32_t i = 0; i < SLOTS + 6; i++) {
        push_fault(0x4000ull + 0x1000ull * i, 1, 1, 0, 1, 0);
        assert_int_equal(mmu_report_drain_faults(&hw, &svc, 16), 1);
    }
    assert_int_equal(mmu.pops, SLOTS + 6);
    assert_int_equal(bar(EVT_HEAD), SLOTS);
    assert_int_equal(bar(EVT_DROPPED), 6);
    assert_int_equal(svc.stats.events_dropped, 6);
    /* The oldest unread event was not overwritten. */
    assert_int_equal(slot_u64(0, 4), 0x4000ull);
    /* The host frees two slots: the next event is posted with the number
       after the dropped ones, so the host sees the gap. */
    fake_bar0[EVT_TAIL / 4] = 2;
    push_fault(0xABC000, 1, 1, 0, 1, 0);
    assert_int_equal(mmu_report_drain_faults(&hw, &svc, 16), 1);
    assert_int_equal(bar(EVT_HEAD), SLOTS + 1);
    assert_int_equal(slot_word(SLOTS, 1), SLOTS + 6);
    assert_int_equal(slot_u64(SLOTS, 4), 0xABC000ull);
}

static void test_nonsense_tail_drops_without_hanging(void **state)
{
    (void)state;
    for (uint32_t i = 0; i < SLOTS; i++)
        assert_true(mbox_service_post_event(&svc, 1, &i, sizeof i));
    fake_bar0[EVT_TAIL / 4] = 1000; /* ahead of the head: a broken host */
    for (uint32_t i = 0; i < 3; i++)
        assert_false(mbox_service_post_event(&svc, 1, &i, sizeof i));
    assert_int_equal(bar(EVT_HEAD), SLOTS);
    assert_int_equal(bar(EVT_DROPPED), 3);
    fake_bar0[EVT_TAIL / 4] = SLOTS; /* the host read everything */
    assert_true(mbox_service_post_event(&svc, 1, NULL, 0));
    assert_int_equal(bar(EVT_HEAD), SLOTS + 1);
}

static void test_long_event_wraps_the_ring(void **state)
{
    (void)state;
    /* Start two slots before the end; a 3-slot event wraps. */
    fake_bar0[EVT_HEAD / 4] = fake_bar0[EVT_TAIL / 4] = SLOTS - 2;
    mbox_service_init(&svc);
    uint8_t payload[150];
    for (size_t i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)(i * 7 + 1);
    assert_true(mbox_service_post_event(&svc, 9, payload, sizeof payload));
    assert_int_equal(bar(EVT_HEAD), SLOTS + 1);
    uint8_t got[sizeof payload];
    for (size_t i = 0; i < sizeof payload; i += 4) {
        uint32_t w = slot_word(SLOTS - 2, 4 + (uint32_t)i / 4);
        memcpy(got + i, &w, sizeof payload - i < 4 ? sizeof payload - i : 4);
    }
    assert_memory_equal(got, payload, sizeof payload);
    /* Too long for any ring: dropped, not written. */
    assert_false(mbox_service_post_event(&svc, 9, payload, GMMU_MSG_MAX_BYTES));
    assert_int_equal(bar(EVT_DROPPED), 1);
}

static void test_events_resume_after_restart(void **state)
{
    (void)state;
    fake_bar0[EVT_HEAD / 4] = 10;
    fake_bar0[EVT_TAIL / 4] = 10;
    fake_bar0[EVT_DROPPED / 4] = 3;
    mbox_service_init(&svc);
    assert_true(mbox_service_post_event(&svc, 1, NULL, 0));
    assert_int_equal(slot_word(10, 1), 13);
    assert_int_equal(svc.stats.events_dropped, 3);
}

/* ------------------------------------------------------------ counters */
static void set_counters(uint32_t ports)
{
    mmu.regs[0x04 / 4] = ports | 4u << 4; /* CONFIG: PORTS, LEVELS */
    for (uint32_t p = 0; p < 16; p++)
        for (uint32_t c = 0; c < 8; c++)
            mmu.regs[(0x800 + 0x20 * p + 4 * c) / 4] = 1000 * (p + 1) + c;
    for (uint32_t c = 0; c < 16; c++)
        mmu.regs[(0xA00 + 4 * c) / 4] = 500 + c;
}

static uint32_t counters(uint32_t flags, uint32_t reserved, uint32_t req_len, uint32_t cap,
                         uint8_t *resp, uint32_t *len)
{
    uint32_t req[2] = { flags, reserved };
    *len = 0;
    return mmu_report_counters(&hw, (const uint8_t *)req, req_len, resp, cap, len);
}

static uint32_t word_at(const uint8_t *b, size_t off)
{
    uint32_t w;
    memcpy(&w, b + off, 4);
    return w;
}

static void test_counters_reply(void **state)
{
    (void)state;
    set_counters(4);
    mmu.overflow = 77;
    uint8_t resp[1024];
    uint32_t len;
    assert_int_equal(counters(0, 0, 8, sizeof resp, resp, &len), GMMU_STATUS_OK);
    assert_int_equal(len, 48 + 4 * 24);
    assert_int_equal(word_at(resp, 0), 4);  /* ports */
    assert_int_equal(word_at(resp, 4), 77); /* fault_overflow */
    for (uint32_t c = 0; c < 9; c++)        /* l2_lookups .. cycles */
        assert_int_equal(word_at(resp, 8 + 4 * c), 500 + c);
    assert_int_equal(word_at(resp, 44), 0); /* reserved */
    for (uint32_t p = 0; p < 4; p++)        /* requests .. prefetches */
        for (uint32_t c = 0; c < 6; c++)
            assert_int_equal(word_at(resp, 48 + 24 * p + 4 * c), 1000 * (p + 1) + c);
    assert_int_equal(mmu.perf_ctrl_writes, 0);
    assert_int_equal(counters(1, 0, 8, sizeof resp, resp, &len), GMMU_STATUS_OK);
    assert_int_equal(mmu.perf_ctrl_writes, 1);
}

static void test_counters_bad_requests(void **state)
{
    (void)state;
    set_counters(15);
    uint8_t resp[1024];
    uint32_t len;
    assert_int_equal(counters(0, 0, 4, sizeof resp, resp, &len), GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(counters(0, 0, 12, sizeof resp, resp, &len), GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(counters(2, 0, 8, sizeof resp, resp, &len), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(counters(0, 1, 8, sizeof resp, resp, &len), GMMU_STATUS_INVALID_ARGUMENT);
    assert_int_equal(counters(1, 0, 8, 100, resp, &len), GMMU_STATUS_INTERNAL);
    assert_int_equal(mmu.perf_ctrl_writes, 0); /* nothing cleared on failure */
    assert_int_equal(counters(0, 0, 8, sizeof resp, resp, &len), GMMU_STATUS_OK);
    assert_int_equal(len, 48 + 15 * 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_fault_event_layout, reset),
        cmocka_unit_test_setup(test_unowned_asid_reports_handle_zero, reset),
        cmocka_unit_test_setup(test_drain_is_bounded_and_in_order, reset),
        cmocka_unit_test_setup(test_full_ring_drops_and_counts, reset),
        cmocka_unit_test_setup(test_nonsense_tail_drops_without_hanging, reset),
        cmocka_unit_test_setup(test_long_event_wraps_the_ring, reset),
        cmocka_unit_test_setup(test_events_resume_after_restart, reset),
        cmocka_unit_test_setup(test_counters_reply, reset),
        cmocka_unit_test_setup(test_counters_bad_requests, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
