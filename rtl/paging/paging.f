// SPDX-License-Identifier: Apache-2.0
// The paging engine (docs/paging-engine.md). Its generated package
// rtl/pkg/gmmu_paging_pkg.sv comes first in every flow (tools/mk/paging.mk).
// A file list as tools/mk/rtl.mk describes (rtl_files).
rtl/paging/paging_pkg.sv
rtl/paging/paging_burst_len.sv
rtl/paging/paging_regs.sv
rtl/paging/paging_ctrl.sv
rtl/paging/paging_fetch.sv
rtl/paging/paging_exec.sv
rtl/paging/paging_wr.sv
rtl/paging/paging_rd.sv
rtl/paging/paging_fifo.sv
rtl/paging/paging_track.sv
rtl/paging/paging_engine.sv
