// SPDX-License-Identifier: Apache-2.0
// The GPU copy/fill engines and their register block; the aperture segment's
// translator and registers.
// A file list as tools/mk/rtl.mk describes (rtl_files).
rtl/engine/gpu_engine.sv
rtl/engine/gpu_engine_regs.sv
rtl/engine/aperture_xlate.sv
rtl/engine/aperture_regs.sv
