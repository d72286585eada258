# SPDX-License-Identifier: Apache-2.0
UNIT_TESTS += ptmgr
ptmgr_SRCS := tests/unit/test_ptmgr.c firmware/lib/ptmgr.c firmware/lib/va_alloc.c \
              firmware/lib/vram_alloc.c tests/model/gmmu_ref.c
