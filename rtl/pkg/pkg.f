// SPDX-License-Identifier: Apache-2.0
// SystemVerilog packages generated from include/defs/*.toml by tools/gendefs.py.
// A file list as tools/mk/rtl.mk describes (rtl_files).
rtl/pkg/gmmu_soc_pkg.sv
rtl/pkg/gmmu_pte_pkg.sv
rtl/pkg/gmmu_mbox_pkg.sv
rtl/pkg/gmmu_mmu_pkg.sv
rtl/pkg/gmmu_engine_pkg.sv
rtl/pkg/gmmu_uartlink_pkg.sv
rtl/pkg/gmmu_paging_pkg.sv
