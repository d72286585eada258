# SPDX-License-Identifier: Apache-2.0
# The differential test with the tables written through the paging engine's
# queue, its packets run by the engine's reference model (tests/paging/ref.c).
UNIT_TESTS += ptmgr_diff_engine
ptmgr_diff_engine_SRCS := tests/unit/test_ptmgr_diff.c firmware/lib/ptmgr.c \
                          firmware/lib/va_alloc.c firmware/lib/vram_alloc.c tests/model/gmmu_ref.c \
                          firmware/lib/paging_queue.c firmware/lib/ptm_paging.c \
                          tests/unit/fake_paging/fake_paging.c tests/paging/ref.c sim/sparse_mem.c
ptmgr_diff_engine_CFLAGS := -DPTMGR_DIFF_ENGINE -Itests/unit/fake_paging -Itests/paging -Isim
