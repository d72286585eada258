// SPDX-License-Identifier: Apache-2.0
// SystemVerilog packages generated from include/defs/*.toml by tools/gendefs.py.
// One path per line, relative to the repository root; read by tools/mk/rtl.mk
// (rtl_files) for every Verilator, Yosys and board flow. Order matters only
// for packages, which come before their users.
rtl/pkg/gmmu_soc_pkg.sv
rtl/pkg/gmmu_pte_pkg.sv
rtl/pkg/gmmu_mbox_pkg.sv
rtl/pkg/gmmu_mmu_pkg.sv
rtl/pkg/gmmu_engine_pkg.sv
rtl/pkg/gmmu_uartlink_pkg.sv
rtl/pkg/gmmu_paging_pkg.sv
