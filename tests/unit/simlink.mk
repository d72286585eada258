# SPDX-License-Identifier: Apache-2.0
# The simulated PCIe link (sim/pcie_link.c) against libgmmu's transports.
UNIT_TESTS += simlink
simlink_SRCS := tests/unit/test_simlink.c sim/pcie_link.c host/libgmmu/transport.c \
                host/libgmmu/transport_sim.c host/libgmmu/transport_pci.c \
                host/libgmmu/transport_uart.c
simlink_CFLAGS := -Ihost/libgmmu -Isim -pthread
