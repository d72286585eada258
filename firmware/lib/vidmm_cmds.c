/*
 * VidMm mailbox handlers: payload in, vidmm command, payload out.
 * Payloads are copied into local structures, so their alignment in the
 * message buffer does not matter. The wire is little-endian, like both
 * ends of the link.
 */
#include "vidmm_cmds.h"

#include <string.h>

static struct vidmm *served;

void vidmm_cmds_attach(struct vidmm *vm)
{
	served = vm;
}

/* Copies a fixed-size request; false if the length is not exactly it. */
static bool take(void *dst, size_t size, const uint8_t *req, uint32_t req_len)
{
	if (req_len != size)
		return false;
	memcpy(dst, req, size);
	return true;
}

static uint32_t give(uint32_t status, const void *src, size_t size, uint8_t *resp,
		     uint32_t resp_cap, uint32_t *resp_len)
{
	*resp_len = 0;
	if (status != GMMU_STATUS_OK)
		return status;
	if (size > resp_cap)
		return GMMU_STATUS_INTERNAL;
	memcpy(resp, src, size);
	*resp_len = (uint32_t)size;
	return GMMU_STATUS_OK;
}

uint32_t vidmm_cmd_alloc(VIDMM_CMD_ARGS)
{
	struct gmmu_alloc_req in;
	struct gmmu_alloc_rsp out;

	(void)ctx;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (!take(&in, sizeof(in), req, req_len))
		return GMMU_STATUS_MALFORMED_LENGTH;
	return give(vidmm_alloc(served, &in, &out), &out, sizeof(out), resp, resp_cap, resp_len);
}

uint32_t vidmm_cmd_free(VIDMM_CMD_ARGS)
{
	struct gmmu_handle_req in;

	(void)ctx;
	(void)resp;
	(void)resp_cap;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (!take(&in, sizeof(in), req, req_len))
		return GMMU_STATUS_MALFORMED_LENGTH;
	return vidmm_free(served, &in);
}

uint32_t vidmm_cmd_create_as(VIDMM_CMD_ARGS)
{
	struct gmmu_as_rsp out;

	(void)ctx;
	(void)req;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (req_len != 0)
		return GMMU_STATUS_MALFORMED_LENGTH;
	return give(vidmm_create_as(served, &out), &out, sizeof(out), resp, resp_cap, resp_len);
}

uint32_t vidmm_cmd_destroy_as(VIDMM_CMD_ARGS)
{
	struct gmmu_handle_req in;

	(void)ctx;
	(void)resp;
	(void)resp_cap;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (!take(&in, sizeof(in), req, req_len))
		return GMMU_STATUS_MALFORMED_LENGTH;
	return vidmm_destroy_as(served, &in);
}

uint32_t vidmm_cmd_map_va(VIDMM_CMD_ARGS)
{
	struct gmmu_map_req in;
	struct gmmu_va_rsp out;

	(void)ctx;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (!take(&in, sizeof(in), req, req_len))
		return GMMU_STATUS_MALFORMED_LENGTH;
	return give(vidmm_map_va(served, &in, &out), &out, sizeof(out), resp, resp_cap, resp_len);
}

uint32_t vidmm_cmd_unmap_va(VIDMM_CMD_ARGS)
{
	struct gmmu_range_req in;

	(void)ctx;
	(void)resp;
	(void)resp_cap;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (!take(&in, sizeof(in), req, req_len))
		return GMMU_STATUS_MALFORMED_LENGTH;
	return vidmm_unmap_va(served, &in);
}

uint32_t vidmm_cmd_reserve_va(VIDMM_CMD_ARGS)
{
	struct gmmu_reserve_req in;
	struct gmmu_va_rsp out;

	(void)ctx;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (!take(&in, sizeof(in), req, req_len))
		return GMMU_STATUS_MALFORMED_LENGTH;
	return give(vidmm_reserve_va(served, &in, &out), &out, sizeof(out), resp, resp_cap,
		    resp_len);
}

/* The header, then exactly `count` operations: anything else is malformed. */
uint32_t vidmm_cmd_update_va(VIDMM_CMD_ARGS)
{
	struct gmmu_update_req in;

	(void)ctx;
	(void)resp;
	(void)resp_cap;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (req_len < sizeof(in))
		return GMMU_STATUS_MALFORMED_LENGTH;
	memcpy(&in, req, sizeof(in));
	if ((uint64_t)in.count * GMMU_UPDATE_OP_BYTES != req_len - sizeof(in))
		return GMMU_STATUS_MALFORMED_LENGTH;
	return vidmm_update_va(served, &in, req + sizeof(in));
}

uint32_t vidmm_cmd_query_va(VIDMM_CMD_ARGS)
{
	struct gmmu_query_req in;
	struct gmmu_query_rsp out;

	(void)ctx;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (!take(&in, sizeof(in), req, req_len))
		return GMMU_STATUS_MALFORMED_LENGTH;
	return give(vidmm_query_va(served, &in, &out), &out, sizeof(out), resp, resp_cap,
		    resp_len);
}

uint32_t vidmm_cmd_get_vram(VIDMM_CMD_ARGS)
{
	struct gmmu_vram_rsp out;

	(void)ctx;
	(void)req;
	*resp_len = 0;
	if (!served)
		return GMMU_STATUS_INTERNAL;
	if (req_len != 0)
		return GMMU_STATUS_MALFORMED_LENGTH;
	vidmm_get_vram(served, &out);
	return give(GMMU_STATUS_OK, &out, sizeof(out), resp, resp_cap, resp_len);
}

const struct vidmm_cmd vidmm_cmds[] = {
	{ GMMU_OP_ALLOC, vidmm_cmd_alloc },
	{ GMMU_OP_FREE, vidmm_cmd_free },
	{ GMMU_OP_CREATE_AS, vidmm_cmd_create_as },
	{ GMMU_OP_DESTROY_AS, vidmm_cmd_destroy_as },
	{ GMMU_OP_MAP_VA, vidmm_cmd_map_va },
	{ GMMU_OP_UNMAP_VA, vidmm_cmd_unmap_va },
	{ GMMU_OP_RESERVE_VA, vidmm_cmd_reserve_va },
	{ GMMU_OP_UPDATE_VA, vidmm_cmd_update_va },
	{ GMMU_OP_QUERY_VA, vidmm_cmd_query_va },
	{ GMMU_OP_GET_VRAM, vidmm_cmd_get_vram },
};
const unsigned vidmm_cmd_count = sizeof(vidmm_cmds) / sizeof(vidmm_cmds[0]);
