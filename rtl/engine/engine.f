// SPDX-License-Identifier: Apache-2.0
// The GPU copy/fill engines and their register block.
// One path per line, relative to the repository root; read by tools/mk/rtl.mk
// (rtl_files) for every Verilator, Yosys and board flow. Order matters only
// for packages, which come before their users.
rtl/engine/gpu_engine.sv
rtl/engine/gpu_engine_regs.sv
