# SPDX-License-Identifier: Apache-2.0
# make bench-fw: the firmware's page-table work (map/unmap of 4 KB, 2 MB and
# 1 GiB in each page size) in device cycles on the simulated SoC, against
# the DDR write bound; every mapping checked with QUERY_VA. Several minutes.
# Its table goes to build/bench-fw.txt and its plot, cycles per word against
# the bound, to build/bench-fw.png (tools/plots.py).
# t-bench-fw-smoke (in make test): the 4 KB and 2 MB cases only, plotted the
# same way (build/test/bench-fw-smoke.png), so the plot follows the format.

BENCH_FW := $(HOST_DIR)/bench_fw

$(BENCH_FW): tests/host/bench_fw.c $(LIBGMMU) $(wildcard host/libgmmu/*.h include/gmmu/*.h)
	$(HOST_CC) $(HOST_APP_CFLAGS) -o $@ $< $(LIBGMMU) -pthread

.PHONY: bench-fw
# The full run is tens of millions of simulated cycles: up to an hour of
# wall clock on a loaded machine.
bench-fw: $(SIM_BIN) $(call FW_ELF,gmmu) $(BENCH_FW) $(VENV_STAMP)
	@GMMU_HOST_TIMEOUT=3600 tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/bench-fw-sim.log -- \
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

# The plots (tools/plots.py) on the sample outputs in tests/plots: each says
# what it drew and writes a PNG that is a real picture (test_plots.py).
TESTS += plots
.PHONY: t-plots
t-plots: $(VENV_STAMP)
	$(PY) tests/plots/test_plots.py $(BUILD)/test/plots
