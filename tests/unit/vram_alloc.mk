# SPDX-License-Identifier: Apache-2.0
UNIT_TESTS += vram_alloc
vram_alloc_SRCS := tests/unit/test_vram_alloc.c firmware/lib/vram_alloc.c
