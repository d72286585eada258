// SPDX-License-Identifier: Apache-2.0
/*
 * Sparse byte-addressable backing store for simulation models.
 *
 * A large memory (e.g. 1 GiB of DDR) costs nothing until it is written:
 * storage is allocated in fixed-size chunks on the first write into each
 * chunk. Bytes never written read as zero.
 */
#ifndef GMMU_SIM_SPARSE_MEM_H
#define GMMU_SIM_SPARSE_MEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPARSE_MEM_CHUNK_SHIFT 16u
#define SPARSE_MEM_CHUNK_BYTES (1u << SPARSE_MEM_CHUNK_SHIFT) /* 64 KiB */

struct sparse_mem;

/* Returns NULL if out of host memory. size_bytes must be > 0. */
struct sparse_mem *sparse_mem_create(uint64_t size_bytes);
void sparse_mem_destroy(struct sparse_mem *mem); /* NULL is ignored */

uint64_t sparse_mem_size(const struct sparse_mem *mem);

/*
 * The range [addr, addr + len) may span chunks but must lie inside the
 * memory (asserted). Reading never allocates.
 */
void sparse_mem_read(const struct sparse_mem *mem, uint64_t addr, void *buf, size_t len);
void sparse_mem_write(struct sparse_mem *mem, uint64_t addr, const void *buf, size_t len);

/* Little-endian 64-bit word helpers, for testbenches and the harness. */
uint64_t sparse_mem_read_u64(const struct sparse_mem *mem, uint64_t addr);
void sparse_mem_write_u64(struct sparse_mem *mem, uint64_t addr, uint64_t value);

size_t sparse_mem_chunks_allocated(const struct sparse_mem *mem);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_SIM_SPARSE_MEM_H */
