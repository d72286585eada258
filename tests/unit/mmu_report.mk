# SPDX-License-Identifier: Apache-2.0
# Fault events and MMU counters (firmware/lib/mmu_report.c) and the event
# ring of the mailbox service, against a fake BAR0 and a fake MMU.
UNIT_TESTS += mmu_report
mmu_report_SRCS := tests/unit/test_mmu_report.c firmware/lib/mmu_report.c firmware/lib/mbox_service.c
mmu_report_CFLAGS := -Itests/unit/fake_mbox
