# SPDX-License-Identifier: Apache-2.0
# libgmmu's submit/wait flow and its timeouts against the firmware's mailbox
# service (firmware/lib/mbox_service.c) on the host, over an in-process
# transport with a configurable per-access delay.
UNIT_TESTS += libgmmu_flow
libgmmu_flow_SRCS := tests/unit/test_libgmmu_flow.c firmware/lib/mbox_service.c \
                     host/libgmmu/libgmmu.c host/libgmmu/transport.c \
                     host/libgmmu/transport_sim.c host/libgmmu/transport_pci.c \
                     host/libgmmu/transport_uart.c
libgmmu_flow_CFLAGS := -Ihost/libgmmu -Itests/unit/fake_mbox -pthread
