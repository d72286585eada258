# SPDX-License-Identifier: Apache-2.0
# Firmware: rv32im for VexRiscv, linked with picolibc (default) or newlib.
#
# Every image links the same runtime (reset and trap entry, HAL, libc
# binding) plus its own sources. build/fw-$(LIBC)/<image>.elf

LIBC       ?= picolibc
FW_CROSS   ?= riscv64-unknown-elf-
FW_CC      := $(FW_CROSS)gcc
FW_BUILD   := $(BUILD)/fw-$(LIBC)
FW_ARCH    := -march=rv32im -mabi=ilp32 -misa-spec=2.2
FW_CFLAGS  := $(FW_ARCH) -std=c11 -O3 -g -Wall -Wextra -Werror \
              -ffunction-sections -fdata-sections -fno-common \
              -fno-tree-loop-distribute-patterns \
              -Iinclude -Ifirmware/hal -Ifirmware/sys -Ifirmware/lib -Ifirmware/app -I$(FW_BUILD)
# One RAM holds code and data, so its segment is RWX by design.
FW_LDFLAGS := $(FW_ARCH) -T $(FW_BUILD)/soc.ld -Wl,--gc-sections -Wl,--no-warn-rwx-segments

ifeq ($(LIBC),picolibc)
# The hosted crt0 calls exit(main()), so a return from main ends the run.
# The firmware prints no floating point (nor long long), so printf is
# picolibc's integer one (__i_vfprintf): its default pulls in the double
# conversion (dtoa_ryu and its tables), about 4 KB of the on-chip RAM.
FW_LIBC_FLAGS := --specs=picolibc.specs --crt0=hosted -DPICOLIBC_INTEGER_PRINTF_SCANF
else ifeq ($(LIBC),newlib)
# Built on first use into a cache outside the tree (tools/build_newlib.sh).
# The firmware brings its own crt0; gcc's default libs name libgloss, which
# is not built, so the libraries are named here, after the objects.
NEWLIB_PREFIX := $(shell bash tools/build_newlib.sh --prefix)
ifeq ($(NEWLIB_PREFIX),)
$(error cannot locate the newlib build: run make deps (newlib-source, gcc-riscv64-unknown-elf))
endif
FW_LIBC_FLAGS := -isystem $(NEWLIB_PREFIX)/include -nostdlib
FW_LIBC_SRCS  := firmware/sys/crt0_newlib.S
FW_LIBC_LIBS  := -L$(NEWLIB_PREFIX)/lib -Wl,--start-group -lc -lgcc -Wl,--end-group
FW_LIBC_DEPS  := $(NEWLIB_PREFIX)/lib/libc.a

$(FW_LIBC_DEPS):
	@bash tools/build_newlib.sh
else
$(error LIBC=$(LIBC) is not supported; use picolibc or newlib)
endif

FW_RUNTIME := firmware/hal/start.S firmware/hal/hal_soc.c firmware/sys/sys_$(LIBC).c $(FW_LIBC_SRCS)
FW_VERSION := $(shell cat VERSION)
FW_BUILD_ID := $(shell git rev-parse --short=8 HEAD 2>/dev/null || echo 00000000)

# Images: the firmware proper and boot-test images.
FW_IMAGES        := gmmu test_trap test_ddr_buserr test_heap test_paging_soc
gmmu_FW_SRCS     := firmware/app/main.c firmware/app/ddr_selftest.c firmware/app/commands.c \
                    firmware/app/mbox_hw.c firmware/lib/mbox_service.c \
                    $(addprefix $(FW_BUILD)/os/,fence.o fence_hw.o engine_queue.o update_queue.o vidmm_hw.o vidmm.o vidmm_cmds.o ptmgr.o ptm_paging.o paging_queue.o va_alloc.o vram_alloc.o backing_pool.o aperture_alloc.o \
                      engine_cmd.o mmu_events.o mmu_report.o)
test_trap_FW_SRCS := firmware/tests/test_trap.c
test_ddr_buserr_FW_SRCS := firmware/tests/test_ddr_buserr.c
test_heap_FW_SRCS := firmware/tests/test_heap.c
test_paging_soc_FW_SRCS := firmware/tests/test_paging_soc.c

FW_ELFS := $(addprefix $(FW_BUILD)/,$(addsuffix .elf,$(FW_IMAGES)))

firmware: $(FW_ELFS)

$(FW_BUILD)/soc.ld: linker/soc.ld.S include/gmmu/soc.h
	@mkdir -p $(@D)
	$(FW_CC) -E -P -x assembler-with-cpp -D__ASSEMBLER__ -Iinclude $< -o $@

$(FW_BUILD)/version.h: VERSION tools/mk/firmware.mk $(wildcard .git/HEAD .git/index)
	@mkdir -p $(@D)
	@printf '#define GMMU_FW_VERSION "%s"\n#define GMMU_FW_BUILD_ID "%s"\n#define GMMU_FW_VERSION_CODE 0x%02x%02x%02xu\n#define GMMU_FW_BUILD_CODE 0x%su\n' \
	  '$(FW_VERSION)' '$(FW_BUILD_ID)' $(subst ., ,$(FW_VERSION)) '$(FW_BUILD_ID)' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

FW_DEPS := tools/mk/firmware.mk $(FW_RUNTIME) $(FW_LIBC_DEPS) $(wildcard firmware/*/*.h include/gmmu/*.h) $(FW_BUILD)/soc.ld $(FW_BUILD)/version.h

# VidMm and the modules under it are off the command hot path and large:
# built for size, they leave the 128 KiB RAM room for their state.
.PRECIOUS: $(FW_BUILD)/os/%.o
$(FW_BUILD)/os/%.o: firmware/lib/%.c $(FW_DEPS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -Os $(FW_LIBC_FLAGS) -c -o $@ $<
$(FW_BUILD)/os/%.o: firmware/app/%.c $(FW_DEPS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -Os $(FW_LIBC_FLAGS) -c -o $@ $<

.SECONDEXPANSION:
$(FW_BUILD)/%.elf: $$(%_FW_SRCS) $(FW_DEPS)
	$(FW_CC) $(FW_CFLAGS) $(FW_LIBC_FLAGS) $(FW_LDFLAGS) -Wl,-Map,$(@:.elf=.map) -o $@ $(FW_RUNTIME) $($*_FW_SRCS) $(FW_LIBC_LIBS)
	@$(FW_CROSS)size $@ | tail -1 | awk '{printf "  %s: text %d, data %d, bss %d bytes\n", "$*", $$1, $$2, $$3}'
