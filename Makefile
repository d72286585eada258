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
# C++ optimisation of the Verilator harnesses. Verilator compiles its
# per-cycle code at -Os whatever this says (OPT_FAST, appended last); this
# flag reaches only the construction code and the harness, where -O1 halves
# the compile time of the MMU testbench (77 s -> 40 s of CPU) and leaves
# the simulation speed as it was (measured: 200 000 random translations,
# 7.8 s either way).
VL_CXXOPT ?= -O1
# Waveforms: the Verilator harnesses are built with FST tracing only when
# asked (VL_TRACE=1, or TRACE=1 as for sim-run), in their own object
# directory. Trace code was about a third of the verilated SoC and no test
# reads a waveform; without it the SoC simulator compiles in 76 s of CPU
# instead of 110 s and runs 9% faster (135k vs 124k cycles/s, measured
# side by side). A harness built without traces refuses --trace.
VL_TRACE ?= $(if $(filter 1,$(TRACE)),1,0)
VL_TRACE_FLAGS := $(if $(filter 1,$(VL_TRACE)),--trace-fst)
VL_OBJ := obj$(if $(filter 1,$(VL_TRACE)),-trace)
# Rewritten only when VL_TRACE changes, so that the harnesses relink then.
VL_TRACE_CFG := $(BUILD)/vl-trace.cfg
$(shell mkdir -p $(BUILD) && { echo $(VL_TRACE) | cmp -s - $(VL_TRACE_CFG) || echo $(VL_TRACE) >$(VL_TRACE_CFG); })

.PHONY: help deps demo test firmware sim lint defs check-defs unit clean sim-run

help:
	@echo "make demo | test | deps | firmware | sim | lint | unit | clean"

deps:
	@bash tools/deps.sh

demo: deps
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
include tools/mk/cdc.mk
include tools/mk/bench.mk
