# SPDX-License-Identifier: Apache-2.0
UNIT_TESTS += gmmu_ref
gmmu_ref_SRCS := tests/unit/test_gmmu_ref.c tests/model/gmmu_ref.c
