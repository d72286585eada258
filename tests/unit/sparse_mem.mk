# SPDX-License-Identifier: Apache-2.0
UNIT_TESTS += sparse_mem
sparse_mem_SRCS := tests/unit/test_sparse_mem.c sim/sparse_mem.c
sparse_mem_CFLAGS := -Isim
