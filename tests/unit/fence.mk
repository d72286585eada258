# SPDX-License-Identifier: Apache-2.0
# Monitored fences (firmware/lib/fence.c): values, handles, waits and
# their events, modulo-2^64 ordering, through the module and its handlers.
UNIT_TESTS += fence
fence_SRCS := tests/unit/test_fence.c firmware/lib/fence.c
fence_CFLAGS := -Itests/unit/fake_mbox
