// SPDX-License-Identifier: Apache-2.0
// The MMU: ports with L1 TLBs, shared L2, page-walk cache, walkers, registers.
// A file list as tools/mk/rtl.mk describes (rtl_files).
rtl/mmu/mmu_top.sv
rtl/mmu/mmu_port.sv
rtl/mmu/mmu_prefetch.sv
rtl/mmu/mmu_l1_tlb.sv
rtl/mmu/mmu_l2_tlb.sv
rtl/mmu/mmu_pwc.sv
rtl/mmu/mmu_walker.sv
rtl/mmu/mmu_walk_beat.sv
rtl/mmu/mmu_fault_fifo.sv
rtl/mmu/mmu_regs.sv
