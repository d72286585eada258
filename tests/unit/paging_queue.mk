# SPDX-License-Identifier: Apache-2.0
UNIT_TESTS += paging_queue
paging_queue_SRCS := tests/unit/test_paging_queue.c firmware/lib/paging_queue.c \
                     firmware/lib/ptm_paging.c firmware/lib/ptmgr.c firmware/lib/vram_alloc.c \
                     firmware/lib/va_alloc.c tests/model/gmmu_ref.c \
                     tests/unit/fake_paging/fake_paging.c tests/paging/ref.c sim/sparse_mem.c
paging_queue_CFLAGS := -Itests/unit/fake_paging -Itests/paging -Isim -DPQ_POLL_LIMIT=1000
