# SPDX-License-Identifier: Apache-2.0
# GPU MMU soft core: top-level build.
#
#   make demo      build everything, boot the SoC in Verilator, run the demo
#   make test      the test suite (what CI runs)
#   make deps      install tools and the pinned Python venv (idempotent)
#
# The user-facing targets run `deps` first and then re-enter make, so nothing
# below is evaluated before the tools exist.

.DEFAULT_GOAL := help
ROOT   := $(abspath .)
BUILD  := $(ROOT)/build
VENV   := $(ROOT)/.venv
PY     := $(VENV)/bin/python
JOBS   ?= 2
# C++ optimisation of the Verilator harnesses. VL_CXXOPT reaches the
# construction code and the harness, where -O1 halves the compile time of
# the MMU testbench (77 s -> 40 s of CPU) and leaves the simulation speed
# as it was (measured: 200 000 random translations, 7.8 s either way).
# VL_OPT_FAST is Verilator's OPT_FAST, the per-cycle code (Verilator's own
# default is -Os): -O2 runs the SoC simulator 7-8% faster for about 10% more
# compile time (docs/performance.md, "Simulator speed").
VL_CXXOPT ?= -O1
VL_OPT_FAST ?= -O2
# VL_OPT_SLOW is Verilator's OPT_SLOW, the code run once (construction,
# initial blocks, the first settling): at -O0 the SoC's compiles in about
# 8 s of CPU less, and it runs before the first cycle.
VL_OPT_SLOW ?= -O0
# The harnesses' C++ compiler (and the shared run-time library's): with
# clang++ the SoC simulator compiles in about two thirds of g++'s CPU and
# simulates about 15% more cycles per CPU second (docs/performance.md,
# "The suite's build and schedule"). clang is a make deps package.
VL_CXX ?= clang++
# Waveforms: the Verilator harnesses are built with FST tracing only when
# asked (VL_TRACE=1, or TRACE=1 as for sim-run), in their own object
# directory. Trace code was about a third of the verilated SoC and no test
# reads a waveform; without it the SoC simulator compiles in 76 s of CPU
# instead of 110 s and runs 9% faster (135k vs 124k cycles/s, measured
# side by side). A harness built without traces refuses --trace.
VL_TRACE ?= $(if $(filter 1,$(TRACE)),1,0)
VL_TRACE_FLAGS := $(if $(filter 1,$(VL_TRACE)),--trace-fst)
VL_OBJ := obj$(if $(filter 1,$(VL_TRACE)),-trace)
# Rewritten only when VL_TRACE or the C++ compiler changes, so that the
# harnesses are built again then.
VL_BUILD_CFG := $(BUILD)/vl-build.cfg
$(shell mkdir -p $(BUILD) && { echo $(VL_TRACE) $(VL_CXX) | cmp -s - $(VL_BUILD_CFG) || echo $(VL_TRACE) $(VL_CXX) >$(VL_BUILD_CFG); })

.PHONY: help deps demo test firmware sim lint defs check-defs unit clean sim-run

# One line per user-facing target, by group; t-NAME runs one test of `make test`.
help:
	@echo 'Getting started'
	@echo '  make deps            install the Debian packages and the pinned Python venv (.venv)'
	@echo '  make demo            boot the SoC in Verilator and run the host demo against it'
	@echo '  make clean           remove build/'
	@echo 'Build'
	@echo '  make firmware        the firmware images (LIBC=picolibc or newlib)'
	@echo '  make newlib          build (or report) the cached newlib for LIBC=newlib'
	@echo '  make host            libgmmu (static and shared), gmmuctl'
	@echo '  make defs            regenerate headers, packages and doc tables from include/defs/*.toml'
	@echo 'Simulation'
	@echo '  make sim             verilate the SoC (build/sim/Vsoc_top), with the AXI protocol checkers (VL_ASSERT=0: without)'
	@echo '  make sim-run         run one image: FW=gmmu SIM_ARGS=... (TRACE=1 for an FST waveform)'
	@echo '  make sim-server      the SoC serving hosts on build/sim/gmmu.sock (then gmmuctl -d sim:...)'
	@echo '  make uart-sim        the UART board SoC simulator'
	@echo '  make uart-server     the simulated UART board serving gmmuctl -d uart:...'
	@echo '  make mmu-tb | engine-tb | paging-tb   build the MMU, GPU engine or paging engine testbench'
	@echo 'Tests'
	@echo '  make test            the whole suite (what CI runs); logs in build/test/NAME.log'
	@echo '  make t-NAME          one test of the suite, e.g. t-boot, t-mailbox, t-python, t-install'
	@echo '  make unit            the cmocka unit tests'
	@echo '  make lint            Verilator lint of the SoC'
	@echo '  make lint-mmu | lint-engine | lint-paging | lint-cdc | lint-uart   lint of one block'
	@echo '  make lint-ref-soc    lint of the reference SoC of bench-sim (its idle stand-ins)'
	@echo '  make check-defs      generated files match include/defs/*.toml'
	@echo '  make format          clang-format every hand-written C file (t-format checks it)'
	@echo '  make soak-mmu        10^8 random MMU translations'
	@echo '  make soak-hostile    the hostile-host test, HOSTILE_ROUNDS random rounds (HOSTILE_SEED)'
	@echo '  make soak-residency-soc  the randomized over-commit SoC test, RESIDENCY_OPS ops (RESIDENCY_SEED)'
	@echo '  make soak-order-soc  the randomized fence-order SoC test, ORDER_OPS ops (ORDER_SEED)'
	@echo '  make soak-vidmm_diff the VidMm differential test, 10^6 commands (VIDMM_DIFF_SEED)'
	@echo '  make fuzz-vidmm      fuzz the VidMm handlers for FUZZ_TIME seconds'
	@echo '  make fuzz-queues     fuzz the fences, engine job queues and update queue for FUZZ_TIME seconds'
	@echo 'Benchmarks'
	@echo '  make bench-mailbox   PING latency in device cycles'
	@echo '  make bench-fw        firmware page-table work against the DDR bound (long)'
	@echo '  make bench-residency residency moves of 2 MB and 64 MB: copy rate and PTE rewrite (long)'
	@echo '  make bench-mmu       MMU translation throughput, against a blocking baseline'
	@echo '  make bench-engine    GPU engine throughput'
	@echo '  make bench-paging    paging engine FILL, WRITE_PTES and COPY beats per cycle'
	@echo '  make bench-sim       simulator speed: the SoC against one without MMU and engines'
	@echo 'Synthesis and boards (BOARD=orangecrab-85f or litefury)'
	@echo '  make bitstream       the board bitstream'
	@echo '  make flash           program the board'
	@echo '  make synth-report    resources by part and by block, and timing'
	@echo '  make synth-report-yosys   the same without place and route (OrangeCrab)'
	@echo '  make synth-mmu       the MMU alone through Yosys 0.23 (ECP5 and Xilinx 7 resources)'
	@echo '  make synth-paging    the paging engine alone through Yosys 0.23 (ECP5)'
	@echo '  make synth-full      uart_soc through synth_ecp5 and synth_xilinx'
	@echo '  make fmax-mmu        the MMU placed and routed alone on the ECP5-85F'
	@echo '  make paths-mmu | paths-board   long paths estimated from the netlist'
	@echo '  make board-deps      install the pinned board-flow tools into .venv'
	@echo 'Install'
	@echo '  make install         libgmmu (.a, .so, gmmu.pc), headers, gmmuctl and its man page'
	@echo '                       into PREFIX (/usr/local), staged under DESTDIR'
	@echo '  make uninstall       remove what make install put there'

deps:
	@bash tools/deps.sh

# The venv brought up to date when its pins change: a prerequisite of the
# targets that run its tools (FuseSoC, the plots) without make deps first.
VENV_STAMP := $(VENV)/.deps-stamp
$(VENV_STAMP): tools/requirements.txt
	@bash tools/deps.sh

demo: deps
	@echo "demo: building what is missing: the firmware, libgmmu and the SoC simulator (from a fresh"
	@echo "      clone about 3 minutes on 2 cores, most of it verilating the SoC; then the demo, about a minute and a half)"
	@$(MAKE) --no-print-directory -s demo-run

test: deps
	@$(MAKE) --no-print-directory test-run

clean:
	rm -rf $(BUILD)

# ------------------------------------------------------------ definitions
DEFS_SRC := $(wildcard include/defs/*.toml)

defs:
	python3 tools/gendefs.py

check-defs:
	python3 tools/gendefs.py --check

include tools/mk/firmware.mk
include tools/mk/rtl.mk
include tools/mk/unit.mk
include tools/mk/host.mk
include tools/mk/tests.mk
include tools/mk/libc.mk
include tools/mk/mmu.mk
include tools/mk/boards.mk
include tools/mk/fuzz.mk
include tools/mk/engine.mk
include tools/mk/paging.mk
include tools/mk/cdc.mk
include tools/mk/bench.mk
include tools/mk/package.mk
include tools/mk/fusesoc.mk
include tools/mk/dv.mk
