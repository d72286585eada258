# SPDX-License-Identifier: Apache-2.0
# Ordered paging (firmware/lib/update_queue.c): over a fake apply with the
# real fence module (order, waits across the wrap, memory in use, failures,
# a full queue, cancel, a departed owner, the handlers), then over VidMm on
# the simulated platform (VIDMM_TEST_SRCS comes from vidmm.mk, read after
# this file: hence `=`).
UNIT_TESTS += update_queue
update_queue_SRCS = tests/unit/test_update_queue.c firmware/lib/update_queue.c firmware/lib/fence.c \
                    $(VIDMM_TEST_SRCS)
update_queue_CFLAGS := -Itests/unit/fake_mbox -Itests/fuzz
