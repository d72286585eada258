# SPDX-License-Identifier: Apache-2.0
# GPU engine (rtl/engine/, docs/engine.md): lint and the Verilator
# testbench (tests/engine) against the DDR model and a C stand-in for the MMU.
#
#   make lint-engine     verilator -Wall on the engine, several configurations
#   make engine-tb       build the testbench (default configuration)
#   make t-engine        the tests (part of make test): directed, random,
#                        abort and throughput runs in two configurations
#   make bench-engine    the throughput measurement alone (ENGINE_DDR_LATENCY)

ENGINE_RTL := rtl/pkg/gmmu_pte_pkg.sv rtl/pkg/gmmu_engine_pkg.sv rtl/prim/wb_pkg.sv rtl/prim/prim_wb_reg.sv \
  rtl/prim/prim_sim_clock_gate.sv $(RTL_ENGINE)
ENGINE_DIR := $(BUILD)/engine

ENGINE_TB_CSRCS := tests/engine/tb.c tests/engine/tests.c tests/engine/main.c tests/common/tb_args.c \
                   sim/ddr_model.c sim/sparse_mem.c
ENGINE_TB_HDRS  := $(wildcard tests/engine/*.h tests/common/*.h sim/*.h include/gmmu/*.h)
ENGINE_TB_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
                    -Iinclude -Isim -Itests/engine -Itests/common
ENGINE_TB_LIB   := $(ENGINE_DIR)/libenginetb.a

# Configurations: engine_<cfg>_P are gpu_engine parameters; the testbench
# reads the same values through -D (dut_params()).
ENGINE_CONFIGS := default small
engine_default_P := Slots=8 AsidW=6 TagW=8 PaBits=52
engine_small_P   := Slots=2 AsidW=4 TagW=2 PaBits=40
engine_param = $(patsubst $(1)=%,%,$(filter $(1)=%,$(engine_$(2)_P)))
engine_G = $(addprefix -G,$(engine_$(1)_P))
engine_D = -DDUT_SLOTS=$(call engine_param,Slots,$(1)) -DDUT_ASID_BITS=$(call engine_param,AsidW,$(1)) \
           -DDUT_TAG_BITS=$(call engine_param,TagW,$(1)) -DDUT_PA_BITS=$(call engine_param,PaBits,$(1))
engine_tb_bin = $(ENGINE_DIR)/$(1)/engine_tb

ENGINE_DDR_LATENCY ?= 40

.PHONY: lint-engine engine-tb bench-engine

lint-engine:
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module gpu_engine $(ENGINE_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module gpu_engine $(call engine_G,small) $(ENGINE_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module gpu_engine -GSlots=16 -GTagW=5 $(ENGINE_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module gpu_engine -GSlots=4 -GAsidW=8 -GPaBits=64 $(ENGINE_RTL)
	@echo "lint-engine: clean"

$(ENGINE_DIR)/c/%.o: %.c $(ENGINE_TB_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(ENGINE_TB_CFLAGS) -c -o $@ $<

$(ENGINE_TB_LIB): $(patsubst %.c,$(ENGINE_DIR)/c/%.o,$(ENGINE_TB_CSRCS))
	rm -f $@ && ar rcs $@ $^

define engine_tb_rule
$(call engine_tb_bin,$(1)): $(ENGINE_RTL) tests/engine/dut.cpp tests/engine/dut.h $(wildcard tests/common/vl_*.h) $(ENGINE_TB_LIB) tools/mk/engine.mk sim/fst_trace.h sim/vl_env.h $(VL_BUILD_CFG)
	$$(call vl_build,$$@,gpu_engine,$(ENGINE_RTL) $(ROOT)/tests/engine/dut.cpp,-I$(ROOT)/tests/engine -I$(ROOT)/tests/common $(call engine_D,$(1)),$(ENGINE_TB_LIB),$(call engine_G,$(1)))
endef
$(foreach c,$(ENGINE_CONFIGS),$(eval $(call engine_tb_rule,$(c))))

engine-tb: $(call engine_tb_bin,default)

# The default configuration runs everything, including the throughput
# check (long runs must approach one beat per cycle); the two-slot one runs
# the functional tests only (two slots cannot hide a 40-cycle DDR).
TESTS += engine lint-engine
t-engine: $(foreach c,$(ENGINE_CONFIGS),$(call engine_tb_bin,$(c)))
	$(call engine_tb_bin,default) --seed 1 --count 300 --aborts 40 --ddr-latency $(ENGINE_DDR_LATENCY)
	$(call engine_tb_bin,small) --seed 2 --count 150 --aborts 20 --ddr-latency 7 --throughput-kib 64 --min-ratio 0

t-lint-engine: lint-engine

bench-engine: $(call engine_tb_bin,default)
	$< --only throughput --ddr-latency $(ENGINE_DDR_LATENCY) --throughput-kib 2048 --min-ratio 0

# The aperture translator's bench (tests/aperture/aperture_xlate_tb.sv, a
# self-checking SystemVerilog bench with its models of the table and of
# system memory; docs/aperture.md).
APERTURE_TB_DIR := $(BUILD)/aperture
APERTURE_TB_BIN := $(APERTURE_TB_DIR)/Vaperture_xlate_tb
APERTURE_TB_SRCS := rtl/prim/axi4_pkg.sv rtl/engine/aperture_xlate.sv tests/aperture/aperture_xlate_tb.sv
$(APERTURE_TB_BIN): $(APERTURE_TB_SRCS) rtl/prim/prim_assert.svh
	@mkdir -p $(@D)
	verilator --binary --timing --assert -j $(JOBS) -Wall -Wno-fatal -Irtl/prim --top-module aperture_xlate_tb \
	  --Mdir $(@D) $(APERTURE_TB_SRCS) >$(@D)/verilate.log 2>&1 || { tail -40 $(@D)/verilate.log; exit 1; }

TESTS += aperture
.PHONY: t-aperture
t-aperture: $(APERTURE_TB_BIN)
	$(APERTURE_TB_BIN)
	verilator --lint-only -Wall -Irtl/prim --top-module aperture_xlate rtl/prim/axi4_pkg.sv rtl/engine/aperture_xlate.sv
	verilator --lint-only -Wall -Irtl/prim --top-module aperture_xlate -GLines=1 -GPaBits=40 rtl/prim/axi4_pkg.sv rtl/engine/aperture_xlate.sv
