# SPDX-License-Identifier: Apache-2.0
# The harness's system-memory AXI4 slave (sim/sysmem_port.c).
UNIT_TESTS += sysmem_port
sysmem_port_SRCS := tests/unit/test_sysmem_port.c sim/sysmem_port.c
sysmem_port_CFLAGS := -Isim
