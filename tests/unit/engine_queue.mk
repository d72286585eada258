# SPDX-License-Identifier: Apache-2.0
# The engine job queues (firmware/lib/engine_queue.c) over a fake engine and
# the real fence module: order, waits across the wrap, signals, a full
# queue, cancel, a departed owner, the handlers.
UNIT_TESTS += engine_queue
engine_queue_SRCS := tests/unit/test_engine_queue.c firmware/lib/engine_queue.c firmware/lib/fence.c
engine_queue_CFLAGS := -Itests/unit/fake_mbox
