# SPDX-License-Identifier: Apache-2.0
# MMU (rtl/mmu/, list rtl/mmu/mmu.f): lint, the Verilator testbench (tests/mmu), its tests,
# a synthesis check and the benchmark.
#
#   make lint-mmu     verilator -Wall on the MMU, several configurations
#   make mmu-tb       build the testbench (default configuration)
#   make t-mmu-random / t-mmu-directed / ...   the tests (part of make test)
#   make soak-mmu     10^8 random translations (SOAK_COUNT, SOAK_SEED)
#   make synth-mmu    yosys synth_ecp5 and synth_xilinx: LUT/FF/BRAM
#   make bench-mmu    latency/throughput benchmark (docs/performance.md), and its
#                     plot build/mmu/bench/bench-mmu.png (tools/plots.py)

# The packages the MMU imports (Yosys 0.23 in synth-mmu reads only these).
MMU_PKGS := rtl/pkg/gmmu_pte_pkg.sv rtl/pkg/gmmu_mmu_pkg.sv
MMU_RTL  := $(MMU_PKGS) $(RTL_PRIM) $(RTL_MMU)
MMU_DIR  := $(BUILD)/mmu

# Testbench C (compiled once, configuration independent) and the C++ shell.
MMU_TB_CSRCS := tests/mmu/tb.c tests/mmu/pt.c tests/mmu/random.c tests/mmu/directed.c \
                tests/mmu/bench.c tests/mmu/main.c tests/model/gmmu_ref.c tests/common/tb_args.c \
                sim/ddr_model.c sim/sparse_mem.c
MMU_TB_HDRS  := $(wildcard tests/mmu/*.h tests/common/*.h tests/model/*.h sim/*.h include/gmmu/*.h)
MMU_TB_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
                 -Iinclude -Isim -Itests/model -Itests/mmu -Itests/common
MMU_TB_LIB   := $(MMU_DIR)/libmmutb.a

# Configurations: mmu_<cfg>_G are mmu_top parameters. The testbench reads
# the same values through -D (dut_params()).
MMU_CONFIGS := default blocking l3 l2
# The blocking baseline keeps 8 miss registers per port (the default is
# 16): with 16 and its one walker it is slower (mixed 2 MB 102 526 cycles
# instead of 41 131), which would flatter the speed-ups.
mmu_default_P  := NPorts=4 NWalkers=8 Levels=4 PwcEntries=16
mmu_blocking_P := NPorts=4 NWalkers=1 Levels=4 PwcEntries=0 Mshrs=8
mmu_l3_P       := NPorts=3 NWalkers=4 Levels=3 PwcEntries=8
mmu_l2_P       := NPorts=2 NWalkers=2 Levels=2 PwcEntries=4 Mshrs=2 MissSlots=3 WalkFollow=0 L1Entries=8
mmu_param = $(patsubst $(1)=%,%,$(filter $(1)=%,$(mmu_$(2)_P)))
mmu_G = $(addprefix -G,$(mmu_$(1)_P))
mmu_D = -DDUT_PORTS=$(call mmu_param,NPorts,$(1)) -DDUT_WALKERS=$(call mmu_param,NWalkers,$(1)) \
        -DDUT_LEVELS=$(call mmu_param,Levels,$(1)) -DDUT_PWC_ENTRIES=$(call mmu_param,PwcEntries,$(1)) \
        $(if $(call mmu_param,Mshrs,$(1)),-DDUT_MSHRS=$(call mmu_param,Mshrs,$(1))) \
        $(if $(call mmu_param,L1Entries,$(1)),-DDUT_L1_ENTRIES=$(call mmu_param,L1Entries,$(1)))

mmu_tb_bin = $(MMU_DIR)/$(1)/mmu_tb

.PHONY: lint-mmu mmu-tb synth-mmu bench-mmu soak-mmu

lint-mmu:
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module mmu_top $(MMU_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module mmu_top $(call mmu_G,blocking) $(MMU_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module mmu_top $(call mmu_G,l3) $(MMU_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module mmu_top $(call mmu_G,l2) $(MMU_RTL)
	@echo "lint-mmu: clean"

$(MMU_DIR)/c/%.o: %.c $(MMU_TB_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(MMU_TB_CFLAGS) -c -o $@ $<

$(MMU_TB_LIB): $(patsubst %.c,$(MMU_DIR)/c/%.o,$(MMU_TB_CSRCS))
	rm -f $@ && ar rcs $@ $^

define mmu_tb_rule
$(call mmu_tb_bin,$(1)): $(MMU_RTL) tests/mmu/dut.cpp tests/mmu/dut.h $(wildcard tests/common/vl_*.h) $(MMU_TB_LIB) tools/mk/mmu.mk sim/fst_trace.h sim/vl_env.h $(VL_BUILD_CFG)
	$$(call vl_build,$$@,mmu_top,$(MMU_RTL) $(ROOT)/tests/mmu/dut.cpp,-I$(ROOT)/tests/mmu -I$(ROOT)/tests/common $(call mmu_D,$(1)),$(MMU_TB_LIB),$(call mmu_G,$(1)))
endef
$(foreach c,$(MMU_CONFIGS),$(eval $(call mmu_tb_rule,$(c))))

mmu-tb: $(call mmu_tb_bin,default)

# ------------------------------------------------------------ tests
# make test: lint, 10^6 random translations on the default build (every one
# checked against the reference model), the other configurations (2 and 3
# levels, and the blocking walker) with fewer, and the directed tests.
MMU_RANDOM_COUNT ?= 1000000
MMU_CFG_COUNT    ?= 150000

TESTS += mmu-lint mmu-directed mmu-random mmu-random-configs

.PHONY: t-mmu-lint t-mmu-directed t-mmu-random t-mmu-random-configs t-mmu-lowest-set

t-mmu-lint: lint-mmu

t-mmu-directed: $(call mmu_tb_bin,default) $(call mmu_tb_bin,blocking)
	$(call mmu_tb_bin,default) directed
	$(call mmu_tb_bin,blocking) directed

t-mmu-random: $(call mmu_tb_bin,default)
	$< random --count $(MMU_RANDOM_COUNT) --seed 1

t-mmu-random-configs: $(call mmu_tb_bin,l3) $(call mmu_tb_bin,l2) $(call mmu_tb_bin,blocking)
	$(call mmu_tb_bin,l3) random --count $(MMU_CFG_COUNT) --seed 2
	$(call mmu_tb_bin,l2) random --count $(MMU_CFG_COUNT) --seed 3
	$(call mmu_tb_bin,blocking) random --count $(MMU_CFG_COUNT) --seed 4

# The priority encoder (rtl/prim/prim_lowest_set.sv) on its own: every input of
# several widths against a plain priority loop.
LOWEST_SET_BIN := $(MMU_DIR)/lowest_set/Vlowest_set_tb
$(LOWEST_SET_BIN): rtl/prim/prim_lowest_set.sv tests/mmu/lowest_set_tb.sv tools/mk/mmu.mk
	@mkdir -p $(MMU_DIR)/lowest_set
	verilator --binary --timing -j $(JOBS) -Wall --top-module lowest_set_tb --Mdir $(MMU_DIR)/lowest_set \
	  tests/mmu/lowest_set_tb.sv rtl/prim/prim_lowest_set.sv >$(MMU_DIR)/lowest_set/verilate.log 2>&1 \
	  || { tail -40 $(MMU_DIR)/lowest_set/verilate.log; exit 1; }

TESTS += mmu-lowest-set
t-mmu-lowest-set: $(LOWEST_SET_BIN)
	$<

# 10^8 random translations: SOAK_JOBS seeds in parallel, SOAK_COUNT each.
SOAK_JOBS  ?= 2
SOAK_COUNT ?= 50000000
SOAK_SEED  ?= 100
soak-mmu: $(call mmu_tb_bin,default)
	@mkdir -p $(MMU_DIR)/soak
	@for i in $$(seq 0 $$(($(SOAK_JOBS) - 1))); do \
	  s=$$(($(SOAK_SEED) + i)); \
	  $(call mmu_tb_bin,default) random --count $(SOAK_COUNT) --seed $$s >$(MMU_DIR)/soak/seed-$$s.log 2>&1 & \
	done; wait; \
	fail=0; for f in $(MMU_DIR)/soak/seed-*.log; do tail -1 $$f | grep -q PASS || fail=1; \
	  echo "$$f: $$(grep '^translations:' $$f)"; tail -1 $$f; done; exit $$fail

# ------------------------------------------------------------ synthesis
# Yosys 0.23 (Debian) reads the RTL directly; the MMU uses only the subset
# it accepts (no package imports, no struct-returning functions, ...).
MMU_SYNTH_DIR := $(MMU_DIR)/synth
synth-mmu:
	@mkdir -p $(MMU_SYNTH_DIR)
	yosys -q -l $(MMU_SYNTH_DIR)/ecp5.log -p "read_verilog -sv $(MMU_RTL); synth_ecp5 -top mmu_top; tee -o $(MMU_SYNTH_DIR)/ecp5.stat stat" >/dev/null
	yosys -q -l $(MMU_SYNTH_DIR)/xilinx.log -p "read_verilog -sv $(MMU_RTL); synth_xilinx -family xc7 -top mmu_top; tee -o $(MMU_SYNTH_DIR)/xilinx.stat stat" >/dev/null
	@python3 tests/mmu/synth_report.py $(MMU_SYNTH_DIR)/ecp5.stat $(MMU_SYNTH_DIR)/xilinx.stat

# ------------------------------------------------------------ benchmark
bench-mmu: $(call mmu_tb_bin,default) $(call mmu_tb_bin,blocking) $(VENV_STAMP)
	@mkdir -p $(MMU_DIR)/bench
	$(call mmu_tb_bin,default) bench >$(MMU_DIR)/bench/default.txt
	$(call mmu_tb_bin,blocking) bench >$(MMU_DIR)/bench/blocking.txt
	@python3 tests/mmu/bench_report.py $(MMU_DIR)/bench/default.txt $(MMU_DIR)/bench/blocking.txt
	@$(PY) tools/plots.py bench-mmu $(MMU_DIR)/bench/default.txt $(MMU_DIR)/bench/blocking.txt \
	  -o $(MMU_DIR)/bench/bench-mmu.png
