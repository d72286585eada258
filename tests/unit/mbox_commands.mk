# SPDX-License-Identifier: Apache-2.0
# Command registration in the mailbox service (firmware/lib/mbox_service.c):
# one handler per opcode across the registered sets, and each set's ctx
# reaching its handlers, with the portable sets (PING, VidMm) on a fake BAR0.
UNIT_TESTS += mbox_commands
mbox_commands_SRCS := tests/unit/test_mbox_commands.c firmware/lib/mbox_service.c \
                      firmware/lib/vidmm_cmds.c firmware/lib/vidmm.c firmware/lib/fence.c firmware/lib/ptmgr.c \
                      firmware/lib/va_alloc.c firmware/lib/vram_alloc.c firmware/lib/backing_pool.c firmware/lib/aperture_alloc.c \
                      tests/fuzz/vidmm_sim.c \
                      tests/model/gmmu_ref.c
mbox_commands_CFLAGS := -Itests/unit/fake_mbox -Itests/fuzz
