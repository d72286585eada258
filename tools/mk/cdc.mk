# SPDX-License-Identifier: Apache-2.0
# AXI4 clock-domain crossing (rtl/prim/prim_cdc_fifo.sv, rtl/soc/axi4_cdc.sv): lint and a
# Verilator test with two clocks against the DDR model (tests/cdc).
#
#   make lint-cdc   verilator -Wall, two configurations
#   make t-cdc      the test (part of make test): seven clock ratios, one
#                   jittered, random bursts checked against a shadow memory

CDC_RTL := rtl/prim/prim_cdc_fifo.sv rtl/prim/prim_sim_clock_gate.sv rtl/soc/axi4_cdc.sv
CDC_DIR := $(BUILD)/cdc
CDC_BIN := $(CDC_DIR)/cdc_test
CDC_TB_CSRCS := tests/cdc/cdc_test.c sim/ddr_model.c sim/sparse_mem.c
CDC_TB_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Iinclude -Isim -Itests/cdc
CDC_TB_LIB := $(CDC_DIR)/libcdctb.a

.PHONY: lint-cdc

lint-cdc:
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module axi4_cdc $(CDC_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module axi4_cdc -GIdW=2 -GAddrW=27 -GDataW=32 -GAddrDepth=8 -GDataDepth=16 $(CDC_RTL)
	@echo "lint-cdc: clean"

$(CDC_DIR)/c/%.o: %.c $(wildcard tests/cdc/*.h sim/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(CDC_TB_CFLAGS) -c -o $@ $<

$(CDC_TB_LIB): $(patsubst %.c,$(CDC_DIR)/c/%.o,$(CDC_TB_CSRCS))
	rm -f $@ && ar rcs $@ $^

$(CDC_BIN): $(CDC_RTL) tests/cdc/dut.cpp tests/cdc/dut.h $(wildcard tests/common/vl_*.h) $(CDC_TB_LIB) tools/mk/cdc.mk sim/fst_trace.h sim/vl_env.h $(VL_BUILD_CFG)
	$(call vl_build,$@,axi4_cdc,$(CDC_RTL) $(ROOT)/tests/cdc/dut.cpp,-I$(ROOT)/tests/cdc -I$(ROOT)/tests/common,$(CDC_TB_LIB))

TESTS += cdc lint-cdc
t-cdc: $(CDC_BIN)
	$(CDC_BIN) 40

t-lint-cdc: lint-cdc
