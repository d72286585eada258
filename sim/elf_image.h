// SPDX-License-Identifier: Apache-2.0
/* Loads a firmware ELF into the image of the on-chip RAM. */
#ifndef GMMU_SIM_ELF_IMAGE_H
#define GMMU_SIM_ELF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies every PT_LOAD segment of a 32-bit little-endian RISC-V ELF into
   ram (which stands for addresses ram_base .. ram_base + ram_bytes) and
   zero-fills up to p_memsz. Returns 0, or -1 with a reason in err. */
int elf_image_load(const char *path, uint8_t *ram, size_t ram_bytes, uint32_t ram_base, char *err,
                   size_t err_bytes);

#ifdef __cplusplus
}
#endif

#endif
