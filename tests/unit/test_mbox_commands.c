// SPDX-License-Identifier: Apache-2.0
/*
 * The mailbox service's command registration, on the host: BAR0 is an
 * array (fake_mbox/mbox_io_impl.h) and commands go through the command
 * ring as a host would send them.
 *
 * An opcode has exactly one handler: a set that repeats an opcode already
 * registered, or one of its own, is refused whole. A handler gets the ctx
 * its set was registered with: the firmware's VidMm set runs on the vidmm
 * instance given at registration (here a simulated one), and answers
 * INTERNAL when given none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fence.h"
#include "mbox_service.h"
#include "vidmm_cmds.h"
#include "vidmm_sim.h"

uint32_t fake_bar0[GMMU_BAR0_BYTES / 4];

static struct mbox_service svc;
static uint32_t next_seq;

static int reset(void **state)
{
    (void)state;
    memset(fake_bar0, 0, sizeof fake_bar0);
    mbox_service_init(&svc);
    next_seq = 0;
    return 0;
}

static uint32_t bar(uint32_t off)
{
    return fake_bar0[off / 4];
}

/* Sends one command with a payload of at most one slot's room, serves it
   and returns the completion's status; its payload goes to rsp. */
static uint32_t send(uint16_t opcode, const void *req, uint32_t len, void *rsp, uint32_t *rsp_len)
{
    uint32_t head = bar(GMMU_MBOX_CMD_HEAD), cpl = bar(GMMU_MBOX_CPL_HEAD);
    uint32_t slot = GMMU_CMD_RING + (head % GMMU_CMD_SLOTS) * GMMU_SLOT_BYTES;
    uint32_t hdr[4] = { opcode | (GMMU_MSG_HDR_BYTES + len) << 16, next_seq++, 0, 0 };

    assert_true(len <= GMMU_SLOT_BYTES - GMMU_MSG_HDR_BYTES);
    memcpy(&fake_bar0[slot / 4], hdr, sizeof hdr);
    if (len)
        memcpy(&fake_bar0[slot / 4 + 4], req, len);
    fake_bar0[GMMU_MBOX_CMD_HEAD / 4] = head + 1;
    assert_int_equal(mbox_service_poll(&svc), 1);
    assert_int_equal(bar(GMMU_MBOX_CPL_HEAD), cpl + 1);

    uint32_t at = GMMU_CPL_RING + (cpl % GMMU_CPL_SLOTS) * GMMU_SLOT_BYTES;
    assert_int_equal(bar(at) & 0xFFFFu, opcode);
    *rsp_len = (bar(at) >> 16) - GMMU_MSG_HDR_BYTES;
    assert_true(*rsp_len <= GMMU_SLOT_BYTES - GMMU_MSG_HDR_BYTES);
    memcpy(rsp, &fake_bar0[at / 4 + 4], *rsp_len);
    return bar(at + 8);
}

static uint32_t status_of(uint16_t opcode)
{
    uint8_t rsp[GMMU_SLOT_BYTES];
    uint32_t len;
    return send(opcode, NULL, 0, rsp, &len);
}

static uint32_t answer(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                       uint32_t resp_cap, uint32_t *resp_len)
{
    (void)req;
    (void)req_len;
    return mbox_reply(GMMU_STATUS_OK, ctx, sizeof(uint32_t), resp, resp_cap, resp_len);
}

/* ------------------------------------------------------------ tests */
static void test_nothing_registered(void **state)
{
    (void)state;
    assert_int_equal(status_of(GMMU_OP_PING), GMMU_STATUS_UNSUPPORTED_OPCODE);
}

static void test_ping(void **state)
{
    const uint32_t payload[3] = { 0x11223344, 0x55667788, 0x99 };
    uint32_t rsp[GMMU_SLOT_BYTES / 4], len;

    (void)state;
    assert_true(mbox_service_register(&svc, &mbox_service_commands, &svc));
    assert_int_equal(send(GMMU_OP_PING, payload, 10, rsp, &len), GMMU_STATUS_OK);
    assert_int_equal(len, 10);
    assert_memory_equal(rsp, payload, 10);
    assert_int_equal(status_of(GMMU_OP_GET_INFO), GMMU_STATUS_UNSUPPORTED_OPCODE);
}

static void test_one_handler_per_opcode(void **state)
{
    static uint32_t first = 1, second = 2;
    static const struct mbox_command info[] = { { GMMU_OP_GET_INFO, answer } };
    static const struct mbox_command info_again[] = { { GMMU_OP_GET_CAPS, answer },
                                                      { GMMU_OP_GET_INFO, answer } };
    static const struct mbox_command caps_twice[] = { { GMMU_OP_GET_CAPS, answer },
                                                      { GMMU_OP_GET_CAPS, answer } };
    const struct mbox_command_set info_set = MBOX_COMMAND_SET(info);
    const struct mbox_command_set info_again_set = MBOX_COMMAND_SET(info_again);
    const struct mbox_command_set caps_twice_set = MBOX_COMMAND_SET(caps_twice);
    uint32_t rsp[GMMU_SLOT_BYTES / 4], len;

    (void)state;
    assert_true(mbox_service_register(&svc, &mbox_service_commands, &svc));
    assert_true(mbox_service_register(&svc, &info_set, &first));
    /* The same set again, a set that repeats an opcode, a set with an
       opcode twice: refused, and nothing of them is registered. */
    assert_false(mbox_service_register(&svc, &mbox_service_commands, &svc));
    assert_false(mbox_service_register(&svc, &info_set, &second));
    assert_false(mbox_service_register(&svc, &info_again_set, &second));
    assert_false(mbox_service_register(&svc, &caps_twice_set, &second));
    assert_int_equal(status_of(GMMU_OP_GET_CAPS), GMMU_STATUS_UNSUPPORTED_OPCODE);
    assert_int_equal(send(GMMU_OP_GET_INFO, NULL, 0, rsp, &len), GMMU_STATUS_OK);
    assert_int_equal(len, 4);
    assert_int_equal(rsp[0], first);
}

static void test_set_limit(void **state)
{
    static struct mbox_command one[MBOX_MAX_SETS + 1][1];
    static uint32_t ctx[MBOX_MAX_SETS + 1];
    uint32_t rsp[GMMU_SLOT_BYTES / 4], len;

    (void)state;
    for (uint32_t i = 0; i <= MBOX_MAX_SETS; i++) {
        one[i][0] = (struct mbox_command){ (uint16_t)(0x100 + i), answer };
        ctx[i] = 100 + i;
        const struct mbox_command_set set = MBOX_COMMAND_SET(one[i]);
        assert_int_equal(mbox_service_register(&svc, &set, &ctx[i]), i < MBOX_MAX_SETS);
    }
    /* Registered in order, each with its own ctx; the last one not. */
    for (uint32_t i = 0; i < MBOX_MAX_SETS; i++) {
        assert_int_equal(send((uint16_t)(0x100 + i), NULL, 0, rsp, &len), GMMU_STATUS_OK);
        assert_int_equal(rsp[0], 100 + i);
    }
    assert_int_equal(status_of(0x100 + MBOX_MAX_SETS), GMMU_STATUS_UNSUPPORTED_OPCODE);
}

/* The VidMm set through the ring, on the instance registered as its ctx. */
static void test_vidmm_ctx(void **state)
{
    struct vidmm_sim sim;
    struct gmmu_as_rsp as;
    struct gmmu_handle_req destroy;
    uint32_t len;

    (void)state;
    vidmm_sim_init(&sim, 4u << 20, 4, 16);
    assert_true(mbox_service_register(&svc, &vidmm_commands, sim.vm));
    assert_int_equal(send(GMMU_OP_CREATE_AS, NULL, 0, &as, &len), GMMU_STATUS_OK);
    assert_int_equal(len, sizeof as);
    assert_int_equal(sim.vm->live_as, 1);
    destroy = (struct gmmu_handle_req){ .handle = as.handle };
    assert_int_equal(send(GMMU_OP_DESTROY_AS, &destroy, sizeof destroy, &as, &len), GMMU_STATUS_OK);
    assert_int_equal(len, 0);
    assert_int_equal(sim.vm->live_as, 0);
    vidmm_sim_fini(&sim);
}

/* The fence set beside VidMm's, as the firmware binds them (fence_hw.c):
   the paging fence is the fence module's slot 0, MAP_VA and UNMAP_VA
   return the values they signalled, and a wait on it posts EVT_FENCE on
   the event ring before the completion of the command that reached it. */
static void post(void *ctx, const struct gmmu_fence_evt *evt)
{
    mbox_service_post_event(ctx, GMMU_EVT_FENCE, evt, sizeof *evt);
}

static uint64_t paging_signal(void *ctx)
{
    return fence_paging_signal(ctx);
}

static uint64_t paging_value(void *ctx)
{
    return fence_paging_value(ctx);
}

static void test_paging_fence_and_event(void **state)
{
    static struct fences fences;
    const struct fence_hw hw = { .notify = post, .ctx = &svc };
    const struct vidmm_paging_fence paging = { paging_signal, paging_value, &fences };
    struct vidmm_sim sim;
    struct gmmu_as_rsp as;
    struct gmmu_alloc_rsp al;
    struct gmmu_map_rsp map;
    struct gmmu_paging_rsp un;
    struct gmmu_fence_info fi;
    struct gmmu_vram_rsp vram;
    uint32_t len;

    (void)state;
    vidmm_sim_init(&sim, 4u << 20, 4, 16);
    fence_init(&fences, &hw);
    vidmm_set_paging_fence(sim.vm, &paging);
    assert_true(mbox_service_register(&svc, &vidmm_commands, sim.vm));
    assert_true(mbox_service_register(&svc, &fence_commands, &fences));
    assert_int_equal(send(GMMU_OP_CREATE_AS, NULL, 0, &as, &len), GMMU_STATUS_OK);
    struct gmmu_alloc_req areq = { .size = 0x10000 };
    assert_int_equal(send(GMMU_OP_ALLOC, &areq, sizeof areq, &al, &len), GMMU_STATUS_OK);
    struct gmmu_map_req mreq = { .as_handle = as.handle,
                                 .alloc_handle = al.handle,
                                 .size = 0x10000 };
    assert_int_equal(send(GMMU_OP_MAP_VA, &mreq, sizeof mreq, &map, &len), GMMU_STATUS_OK);
    assert_int_equal(len, GMMU_MAP_RSP_BYTES);
    assert_int_equal(map.fence, 1);
    /* A failed map signals nothing. */
    mreq.alloc_handle = 12345;
    assert_int_equal(send(GMMU_OP_MAP_VA, &mreq, sizeof mreq, &map, &len), GMMU_STATUS_BAD_HANDLE);
    struct gmmu_handle_req rd = { .handle = GMMU_FENCE_PAGING };
    assert_int_equal(send(GMMU_OP_FENCE_READ, &rd, sizeof rd, &fi, &len), GMMU_STATUS_OK);
    assert_int_equal(fi.value, 1);
    assert_int_equal(fi.offset, UINT64_MAX); /* no fence page here */
    vidmm_get_vram(sim.vm, &vram);
    assert_int_equal(vram.paging_fence, 1);

    /* Ask to hear of 2: nothing yet; the unmap signals 2 and the event is
       on the ring before the unmap's completion. */
    struct gmmu_fence_wait_req wq = { .handle = GMMU_FENCE_PAGING, .owner = 5, .value = 2 };
    assert_int_equal(send(GMMU_OP_FENCE_WAIT, &wq, sizeof wq, &fi, &len), GMMU_STATUS_OK);
    assert_int_equal(fi.reached, 0);
    assert_int_equal(bar(GMMU_MBOX_EVT_HEAD), 0);
    struct gmmu_range_req ureq = { .as_handle = as.handle, .va = map.va, .size = 0x10000 };
    assert_int_equal(send(GMMU_OP_UNMAP_VA, &ureq, sizeof ureq, &un, &len), GMMU_STATUS_OK);
    assert_int_equal(len, GMMU_PAGING_RSP_BYTES);
    assert_int_equal(un.fence, 2);
    assert_int_equal(bar(GMMU_MBOX_EVT_HEAD), 1);
    assert_int_equal(bar(GMMU_EVT_RING) & 0xFFFFu, GMMU_EVT_FENCE);
    assert_int_equal(bar(GMMU_EVT_RING) >> 16, GMMU_MSG_HDR_BYTES + GMMU_FENCE_EVT_BYTES);
    struct gmmu_fence_evt ev;
    memcpy(&ev, &fake_bar0[GMMU_EVT_RING / 4 + 4], sizeof ev);
    assert_int_equal(ev.handle, GMMU_FENCE_PAGING);
    assert_int_equal(ev.owner, 5);
    assert_int_equal(ev.wait_value, 2);
    assert_int_equal(ev.value, 2);
    /* Fired once: the next paging work posts nothing. */
    assert_int_equal(send(GMMU_OP_MAP_VA,
                          &(struct gmmu_map_req){
                              .as_handle = as.handle, .alloc_handle = al.handle, .size = 0x10000 },
                          sizeof mreq, &map, &len),
                     GMMU_STATUS_OK);
    assert_int_equal(map.fence, 3);
    assert_int_equal(bar(GMMU_MBOX_EVT_HEAD), 1);
    /* Unknown handles through the ring. */
    rd.handle = 0x46000002u;
    assert_int_equal(send(GMMU_OP_FENCE_READ, &rd, sizeof rd, &fi, &len), GMMU_STATUS_BAD_HANDLE);
    assert_int_equal(len, 0);
    vidmm_sim_fini(&sim);
}

static void test_vidmm_without_instance(void **state)
{
    (void)state;
    assert_true(mbox_service_register(&svc, &vidmm_commands, NULL));
    for (uint32_t i = 0; i < vidmm_commands.count; i++)
        assert_int_equal(status_of(vidmm_commands.commands[i].opcode), GMMU_STATUS_INTERNAL);
}

static uint32_t wrong_size(void *ctx, const uint8_t *req, uint32_t req_len, uint8_t *resp,
                           uint32_t resp_cap, uint32_t *resp_len)
{
    (void)ctx, (void)req, (void)req_len, (void)resp, (void)resp_cap, (void)resp_len;
    return GMMU_STATUS_MALFORMED_LENGTH;
}

/* Rule 2 for every run command: a handler's MALFORMED_LENGTH moves NEXT_SEQ
   and the fence together (the completion's fence and CPL_FENCE). */
static void test_fence_after_handler_error(void **state)
{
    (void)state;
    static const struct mbox_command cmds[] = { { 0x40, wrong_size } };
    const struct mbox_command_set set = MBOX_COMMAND_SET(cmds);
    assert_true(mbox_service_register(&svc, &set, NULL));
    assert_int_equal(status_of(0x40), GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(bar(GMMU_MBOX_NEXT_SEQ), 1);
    assert_int_equal(bar(GMMU_MBOX_CPL_FENCE), 0);
    assert_int_equal(status_of(0x40), GMMU_STATUS_MALFORMED_LENGTH);
    assert_int_equal(bar(GMMU_MBOX_CPL_FENCE), 1);
    assert_int_equal(bar(GMMU_CPL_RING + GMMU_SLOT_BYTES + 12), 1); /* its fence */
}

/* A CMD_HEAD behind the tail (or more than a ring ahead) is nothing to
   serve: no slot is consumed or replayed, and a head put back in range is
   served normally. */
static void test_bad_head_serves_nothing(void **state)
{
    (void)state;
    assert_true(mbox_service_register(&svc, &mbox_service_commands, NULL));
    assert_int_equal(status_of(GMMU_OP_PING), GMMU_STATUS_OK);
    static const uint32_t heads[] = { 0, 0xFFFFFFFFu, 1u + GMMU_CMD_SLOTS + 1u, 0x80000001u };
    for (unsigned i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        fake_bar0[GMMU_MBOX_CMD_HEAD / 4] = heads[i];
        assert_int_equal(mbox_service_poll(&svc), 0);
        assert_false(mbox_service_pending(&svc));
        assert_int_equal(bar(GMMU_MBOX_CMD_TAIL), 1);
        assert_int_equal(bar(GMMU_MBOX_CPL_HEAD), 1);
    }
    fake_bar0[GMMU_MBOX_CMD_HEAD / 4] = 1;
    assert_int_equal(status_of(GMMU_OP_PING), GMMU_STATUS_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_nothing_registered, reset),
        cmocka_unit_test_setup(test_ping, reset),
        cmocka_unit_test_setup(test_one_handler_per_opcode, reset),
        cmocka_unit_test_setup(test_set_limit, reset),
        cmocka_unit_test_setup(test_vidmm_ctx, reset),
        cmocka_unit_test_setup(test_paging_fence_and_event, reset),
        cmocka_unit_test_setup(test_vidmm_without_instance, reset),
        cmocka_unit_test_setup(test_fence_after_handler_error, reset),
        cmocka_unit_test_setup(test_bad_head_serves_nothing, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
