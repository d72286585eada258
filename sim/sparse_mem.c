// SPDX-License-Identifier: Apache-2.0
/*
 * Plain C11, but kept valid C++ too (casts on calloc): Verilator's generated
 * makefile compiles .c files given to it with g++.
 */
#include "sparse_mem.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INITIAL_SLOT_SHIFT 6u /* 64 slots: enough for a small test without growing */

/* A slot is empty when data is NULL. */
struct chunk_slot {
    uint64_t chunk_index;
    uint8_t *data;
};

struct sparse_mem {
    uint64_t size_bytes;
    struct chunk_slot *slots;
    unsigned slot_shift; /* the table has 1 << slot_shift slots */
    size_t chunks_allocated;
};

/* Allocation failure mid-simulation cannot be reported through the bus, so give up loudly. */
static void *calloc_or_die(size_t count, size_t size)
{
    void *p = calloc(count, size);
    if (p == NULL) {
        fprintf(stderr, "sparse_mem: out of host memory\n");
        abort();
    }
    return p;
}

static size_t slot_count(const struct sparse_mem *mem)
{
    return (size_t)1 << mem->slot_shift;
}

/* Fibonacci hashing spreads consecutive chunk indices across the table. */
static size_t home_slot(uint64_t chunk_index, unsigned slot_shift)
{
    return (size_t)((chunk_index * UINT64_C(0x9E3779B97F4A7C15)) >> (64u - slot_shift));
}

/* Linear probing: returns the slot holding chunk_index, or the empty slot where it would go. */
static struct chunk_slot *probe(struct chunk_slot *slots, unsigned slot_shift, uint64_t chunk_index)
{
    size_t mask = ((size_t)1 << slot_shift) - 1;
    size_t i = home_slot(chunk_index, slot_shift);
    while (slots[i].data != NULL && slots[i].chunk_index != chunk_index)
        i = (i + 1) & mask;
    return &slots[i];
}

static const uint8_t *find_chunk(const struct sparse_mem *mem, uint64_t chunk_index)
{
    return probe(mem->slots, mem->slot_shift, chunk_index)->data;
}

static void grow_table(struct sparse_mem *mem)
{
    unsigned new_shift = mem->slot_shift + 1;
    struct chunk_slot *new_slots =
        (struct chunk_slot *)calloc_or_die((size_t)1 << new_shift, sizeof *new_slots);
    for (size_t i = 0; i < slot_count(mem); i++) {
        if (mem->slots[i].data != NULL)
            *probe(new_slots, new_shift, mem->slots[i].chunk_index) = mem->slots[i];
    }
    free(mem->slots);
    mem->slots = new_slots;
    mem->slot_shift = new_shift;
}

static uint8_t *find_or_allocate_chunk(struct sparse_mem *mem, uint64_t chunk_index)
{
    struct chunk_slot *slot = probe(mem->slots, mem->slot_shift, chunk_index);
    if (slot->data != NULL)
        return slot->data;

    /* Keep the load factor at most 1/2 so probe sequences stay short. */
    if (2 * (mem->chunks_allocated + 1) > slot_count(mem)) {
        grow_table(mem);
        slot = probe(mem->slots, mem->slot_shift, chunk_index);
    }
    slot->chunk_index = chunk_index;
    slot->data = (uint8_t *)calloc_or_die(1, SPARSE_MEM_CHUNK_BYTES);
    mem->chunks_allocated++;
    return slot->data;
}

struct sparse_mem *sparse_mem_create(uint64_t size_bytes)
{
    assert(size_bytes > 0);
    struct sparse_mem *mem = (struct sparse_mem *)calloc(1, sizeof *mem);
    if (mem == NULL)
        return NULL;
    mem->slot_shift = INITIAL_SLOT_SHIFT;
    mem->slots = (struct chunk_slot *)calloc(slot_count(mem), sizeof *mem->slots);
    if (mem->slots == NULL) {
        free(mem);
        return NULL;
    }
    mem->size_bytes = size_bytes;
    return mem;
}

void sparse_mem_destroy(struct sparse_mem *mem)
{
    if (mem == NULL)
        return;
    for (size_t i = 0; i < slot_count(mem); i++)
        free(mem->slots[i].data);
    free(mem->slots);
    free(mem);
}

uint64_t sparse_mem_size(const struct sparse_mem *mem)
{
    return mem->size_bytes;
}

static bool range_inside(const struct sparse_mem *mem, uint64_t addr, size_t len)
{
    return addr <= mem->size_bytes && len <= mem->size_bytes - addr;
}

/* Bytes from addr up to the end of its chunk, capped at remaining. */
static size_t span_in_chunk(uint64_t addr, size_t remaining)
{
    size_t room = SPARSE_MEM_CHUNK_BYTES - (size_t)(addr & (SPARSE_MEM_CHUNK_BYTES - 1));
    return remaining < room ? remaining : room;
}

void sparse_mem_read(const struct sparse_mem *mem, uint64_t addr, void *buf, size_t len)
{
    assert(range_inside(mem, addr, len));
    uint8_t *out = (uint8_t *)buf;
    while (len > 0) {
        size_t span = span_in_chunk(addr, len);
        const uint8_t *chunk = find_chunk(mem, addr >> SPARSE_MEM_CHUNK_SHIFT);
        if (chunk == NULL)
            memset(out, 0, span);
        else
            memcpy(out, chunk + (addr & (SPARSE_MEM_CHUNK_BYTES - 1)), span);
        out += span;
        addr += span;
        len -= span;
    }
}

void sparse_mem_write(struct sparse_mem *mem, uint64_t addr, const void *buf, size_t len)
{
    assert(range_inside(mem, addr, len));
    const uint8_t *in = (const uint8_t *)buf;
    while (len > 0) {
        size_t span = span_in_chunk(addr, len);
        uint8_t *chunk = find_or_allocate_chunk(mem, addr >> SPARSE_MEM_CHUNK_SHIFT);
        memcpy(chunk + (addr & (SPARSE_MEM_CHUNK_BYTES - 1)), in, span);
        in += span;
        addr += span;
        len -= span;
    }
}

/* Explicit byte order so results do not depend on the host's endianness. */
uint64_t sparse_mem_read_u64(const struct sparse_mem *mem, uint64_t addr)
{
    uint8_t bytes[8];
    sparse_mem_read(mem, addr, bytes, sizeof bytes);
    uint64_t value = 0;
    for (unsigned i = 0; i < 8; i++)
        value |= (uint64_t)bytes[i] << (8 * i);
    return value;
}

void sparse_mem_write_u64(struct sparse_mem *mem, uint64_t addr, uint64_t value)
{
    uint8_t bytes[8];
    for (unsigned i = 0; i < 8; i++)
        bytes[i] = (uint8_t)(value >> (8 * i));
    sparse_mem_write(mem, addr, bytes, sizeof bytes);
}

size_t sparse_mem_chunks_allocated(const struct sparse_mem *mem)
{
    return mem->chunks_allocated;
}
