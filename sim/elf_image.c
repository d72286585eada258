// SPDX-License-Identifier: Apache-2.0
#include "elf_image.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t n, const char *what, const char *path)
{
    snprintf(err, n, "%s: %s", path, what);
    return -1;
}

static int read_all(FILE *f, long offset, void *buf, size_t len)
{
    if (fseek(f, offset, SEEK_SET) != 0)
        return -1;
    return fread(buf, 1, len, f) == len ? 0 : -1;
}

static int check_header(const Elf32_Ehdr *eh)
{
    return memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS32 &&
                   eh->e_ident[EI_DATA] == ELFDATA2LSB && eh->e_machine == EM_RISCV &&
                   eh->e_phentsize == sizeof(Elf32_Phdr)
               ? 0
               : -1;
}

static int load_segment(FILE *f, const Elf32_Phdr *ph, uint8_t *ram, size_t ram_bytes,
                        uint32_t ram_base)
{
    if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
        return 0;
    uint64_t start = ph->p_paddr, end = start + ph->p_memsz;
    if (start < ram_base || end > (uint64_t)ram_base + ram_bytes || ph->p_filesz > ph->p_memsz)
        return -1;
    uint8_t *dst = ram + (start - ram_base);
    memset(dst, 0, ph->p_memsz);
    return ph->p_filesz ? read_all(f, (long)ph->p_offset, dst, ph->p_filesz) : 0;
}

int elf_image_load(const char *path, uint8_t *ram, size_t ram_bytes, uint32_t ram_base, char *err,
                   size_t err_bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(err, err_bytes, strerror(errno), path);
    Elf32_Ehdr eh;
    int rc = 0;
    if (read_all(f, 0, &eh, sizeof eh) != 0 || check_header(&eh) != 0) {
        rc = fail(err, err_bytes, "not a 32-bit little-endian RISC-V ELF", path);
    }
    for (unsigned i = 0; rc == 0 && i < eh.e_phnum; i++) {
        Elf32_Phdr ph;
        if (read_all(f, (long)(eh.e_phoff + i * sizeof ph), &ph, sizeof ph) != 0)
            rc = fail(err, err_bytes, "truncated program header", path);
        else if (load_segment(f, &ph, ram, ram_bytes, ram_base) != 0)
            rc = fail(err, err_bytes, "a loadable segment lies outside on-chip RAM or is truncated",
                      path);
    }
    fclose(f);
    return rc;
}
