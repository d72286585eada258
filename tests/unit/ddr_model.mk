# SPDX-License-Identifier: Apache-2.0
UNIT_TESTS += ddr_model
ddr_model_SRCS := tests/unit/test_ddr_model.c sim/ddr_model.c sim/sparse_mem.c
ddr_model_CFLAGS := -Isim
