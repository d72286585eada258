# SPDX-License-Identifier: Apache-2.0
UNIT_TESTS += va_alloc
va_alloc_SRCS := tests/unit/test_va_alloc.c firmware/lib/va_alloc.c
