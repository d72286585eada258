# SPDX-License-Identifier: Apache-2.0
# make bench-fw: the firmware's page-table work (map/unmap of 4 KB, 2 MB and
# 1 GiB in each page size) in device cycles on the simulated SoC, against
# the DDR write bound; every mapping checked with QUERY_VA. Several minutes.
# Its table goes to build/bench-fw.txt and its plot, cycles per word against
# the bound, to build/bench-fw.png (tools/plots.py).
# t-bench-fw-smoke (in make test): the 4 KB and 2 MB cases only, plotted the
# same way (build/test/bench-fw-smoke.png), so the plot follows the format.

BENCH_FW := $(HOST_DIR)/bench_fw

$(BENCH_FW): tests/host/bench_fw.c tests/host/bench_sample.h $(LIBGMMU) $(wildcard host/libgmmu/*.h include/gmmu/*.h)
	$(HOST_CC) $(HOST_APP_CFLAGS) -o $@ $< $(LIBGMMU) -pthread

.PHONY: bench-fw
# The full run is tens of millions of simulated cycles: up to an hour of
# wall clock on a loaded machine.
bench-fw: $(SIM_BIN) $(call FW_ELF,gmmu) $(BENCH_FW) $(VENV_STAMP)
	@SIM_MAX_CYCLES=0 GMMU_HOST_TIMEOUT=3600 tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/bench-fw-sim.log -- \
	  bash -o pipefail -c '$(BENCH_FW) | tee $(BUILD)/bench-fw.txt'
	@$(PY) tools/plots.py bench-fw $(BUILD)/bench-fw.txt -o $(BUILD)/bench-fw.png

# About 5 million simulated cycles, 35 s of CPU (most of them the host's
# BAR round trips, which the simulation runs through).
TESTS += bench-fw-smoke
t-bench-fw-smoke: $(SIM_BIN) $(call FW_ELF,gmmu) $(BENCH_FW) $(VENV_STAMP)
	@mkdir -p $(BUILD)/test
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/bench-fw-smoke-sim.log -- \
	  bash -o pipefail -c '$(BENCH_FW) --smoke | tee $(BUILD)/test/bench-fw-smoke.txt'
	$(PY) tools/plots.py bench-fw $(BUILD)/test/bench-fw-smoke.txt -o $(BUILD)/test/bench-fw-smoke.png

# make bench-residency: residency moves (issue 28) on the simulated SoC: a
# 2 MB and a 64 MB allocation brought into VRAM from the backing pool and
# moved out again, unmapped (the paging engine's COPY alone) and mapped
# with 4 KB pages in two address spaces (the PTE rewrite); contents,
# QUERY_VA and accounting checked. Tens of millions of simulated cycles.
BENCH_RESIDENCY := $(HOST_DIR)/bench_residency

$(BENCH_RESIDENCY): tests/host/bench_residency.c tests/host/bench_sample.h $(LIBGMMU) $(wildcard host/libgmmu/*.h include/gmmu/*.h)
	$(HOST_CC) $(HOST_APP_CFLAGS) -o $@ $< $(LIBGMMU) -pthread

.PHONY: bench-residency
bench-residency: $(SIM_BIN) $(call FW_ELF,gmmu) $(BENCH_RESIDENCY)
	@SIM_MAX_CYCLES=0 GMMU_HOST_TIMEOUT=7200 tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) \
	  $(BUILD)/bench-residency-sim.log -- bash -o pipefail -c '$(BENCH_RESIDENCY) | tee $(BUILD)/bench-residency.txt'

# The plots (tools/plots.py) on the sample outputs in tests/plots: each says
# what it drew and writes a PNG that is a real picture (test_plots.py).
TESTS += plots
.PHONY: t-plots
t-plots: $(VENV_STAMP)
	$(PY) tests/plots/test_plots.py $(BUILD)/test/plots

# make bench-sim: simulator speed, in simulated cycles per CPU second, of
# the SoC as built against the reference SoC without the MMU, the GPU
# engines and the paging engine (tools/bench_sim.sh; docs/performance.md,
# "Simulator speed"). The reference SoC instantiates generated idle
# stand-ins of those three modules (tools/gen_ref_stub.py: same name,
# parameters and ports, outputs idle), so soc_top is the same file in both.
REF_SIM_DIR  := $(BUILD)/sim-ref
REF_SIM_BIN  := $(REF_SIM_DIR)/Vsoc_top
REF_STUBS    := $(addprefix $(REF_SIM_DIR)/stubs/,mmu_top.sv gpu_engine.sv paging_engine.sv)
REF_SOC_RTL  := rtl/soc/vexriscv_waiver.vlt $(RTL_PKGS) $(RTL_PRIM) $(RTL_SOC) $(REF_STUBS)

$(REF_SIM_DIR)/stubs/mmu_top.sv: rtl/mmu/mmu_top.sv
$(REF_SIM_DIR)/stubs/gpu_engine.sv: rtl/engine/gpu_engine.sv
$(REF_SIM_DIR)/stubs/paging_engine.sv: rtl/paging/paging_engine.sv
$(REF_STUBS): tools/gen_ref_stub.py | $(VENV_STAMP)
	@mkdir -p $(dir $@)
	$(PY) tools/gen_ref_stub.py $(filter rtl/%,$^) $@

$(REF_SIM_BIN): $(REF_SOC_RTL) $(SIM_CXX) $(SIM_CLIB) $(wildcard sim/*.h) $(VL_BUILD_CFG)
	$(call vl_build,$@,soc_top,$(REF_SOC_RTL) $(VEXRISCV_V) $(ROOT)/$(SIM_CXX),,$(SIM_CLIB))

.PHONY: bench-sim lint-ref-soc
bench-sim: $(SIM_BIN) $(REF_SIM_BIN) $(call FW_ELF,gmmu) $(BENCH_FW)
	@tools/bench_sim.sh $(SIM_BIN) $(REF_SIM_BIN) $(call FW_ELF,gmmu) $(BENCH_FW) $(BUILD)/bench-sim \
	  | tee $(BUILD)/bench-sim.txt

# The stand-ins follow the modules' ports: the reference SoC lints clean.
TESTS += lint-ref-soc
# (t-lint-ref-soc through lint-ref-soc, which dv.mk gives the checkers.)
t-lint-ref-soc: lint-ref-soc
lint-ref-soc: $(REF_STUBS)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module soc_top $(REF_SOC_RTL) $(VEXRISCV_V)
	@echo "lint-ref-soc: clean"

# The simulators' clock gating (rtl/prim/prim_sim_clock_gate.sv,
# docs/performance.md "Simulator speed"): each run below, with gating and
# with every clock edge kept (GMMU_NO_CLOCK_GATE=1), prints the same, cycle
# counts included: the MMU's directed tests and random translations with
# idle gaps, the GPU and paging engines' random streams, the SoC's boot and
# its paging-engine firmware test. (Here, after mmu.mk, engine.mk and
# paging.mk: the prerequisites name their testbenches.)
TESTS += clock-gate
CLOCK_GATE_CHECK := tools/clock_gate_check.sh
t-clock-gate: $(call mmu_tb_bin,default) $(call engine_tb_bin,default) $(call paging_tb_bin,default) \
              $(SIM_BIN) $(call FW_ELF,gmmu) $(call FW_ELF,test_paging_soc)
	$(CLOCK_GATE_CHECK) mmu-directed -- $(call mmu_tb_bin,default) directed
	$(CLOCK_GATE_CHECK) mmu-random -- $(call mmu_tb_bin,default) random --count 100000 --seed 11 --quiet
	$(CLOCK_GATE_CHECK) engine -- $(call engine_tb_bin,default) --seed 5 --count 100 --aborts 10 \
	  --ddr-latency $(ENGINE_DDR_LATENCY)
	$(CLOCK_GATE_CHECK) paging -- $(call paging_tb_bin,default) --seed 5 --streams 20 \
	  --ddr-latency $(PAGING_DDR_LATENCY)
	$(CLOCK_GATE_CHECK) soc-boot -- $(SIM_BIN) --boot-arg 1 --max-cycles 5000000 $(call FW_ELF,gmmu)
	$(CLOCK_GATE_CHECK) soc-paging -- $(SIM_BIN) --max-cycles 5000000 $(call FW_ELF,test_paging_soc)
