UNIT_TESTS += sparse_mem
sparse_mem_SRCS := tests/unit/test_sparse_mem.c sim/sparse_mem.c
sparse_mem_CFLAGS := -Isim
