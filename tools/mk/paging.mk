# SPDX-License-Identifier: Apache-2.0
# Paging engine (rtl/paging/, docs/paging-engine.md): lint, the Verilator
# testbench (tests/paging) against two AXI slave models and a modelled MMU,
# the throughput bench and a Yosys 0.23 synthesis check.
#
#   make lint-paging     verilator -Wall on paging_engine, several configurations
#   make paging-tb       build the testbench (default configuration)
#   make t-paging        the tests (part of make test), two configurations
#   make bench-paging    FILL, WRITE_PTES and COPY beats per cycle (PAGING_DDR_LATENCY)
#   make synth-paging    Debian yosys 0.23: synth_ecp5, LUT/FF/BRAM

PAGING_RTL := rtl/pkg/gmmu_paging_pkg.sv rtl/prim/wb_pkg.sv rtl/prim/prim_wb_reg.sv rtl/prim/prim_ram_1r1w.sv \
  rtl/prim/prim_sim_clock_gate.sv $(RTL_PAGING)
PAGING_DIR := $(BUILD)/paging

PAGING_TB_CSRCS := tests/paging/tb.c tests/paging/ref.c tests/paging/tests.c tests/paging/main.c tests/common/tb_args.c \
                   sim/ddr_model.c sim/sparse_mem.c
PAGING_TB_HDRS  := $(wildcard tests/paging/*.h tests/common/*.h sim/*.h include/gmmu/*.h)
PAGING_TB_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
                    -Iinclude -Isim -Itests/paging -Itests/common
PAGING_TB_LIB   := $(PAGING_DIR)/libpagingtb.a

# Configurations: paging_<cfg>_P are paging_engine parameters; the testbench
# reads the same values through -D (dut_params()).
PAGING_CONFIGS := default small
paging_default_P := QueueWords=512 MaxBurst=16 CopyFifoBeats=128 Outstanding=8 PktSlots=8 AsidW=6
paging_small_P   := QueueWords=16 MaxBurst=2 CopyFifoBeats=4 Outstanding=2 PktSlots=2 AsidW=4
paging_param = $(patsubst $(1)=%,%,$(filter $(1)=%,$(paging_$(2)_P)))
paging_G = $(addprefix -G,$(paging_$(1)_P))
paging_D = -DDUT_QUEUE_WORDS=$(call paging_param,QueueWords,$(1)) -DDUT_MAX_BURST=$(call paging_param,MaxBurst,$(1)) \
           -DDUT_COPY_FIFO_BEATS=$(call paging_param,CopyFifoBeats,$(1)) \
           -DDUT_OUTSTANDING=$(call paging_param,Outstanding,$(1)) -DDUT_PKT_SLOTS=$(call paging_param,PktSlots,$(1)) \
           -DDUT_ASID_BITS=$(call paging_param,AsidW,$(1))
paging_tb_bin = $(PAGING_DIR)/$(1)/paging_tb

PAGING_DDR_LATENCY ?= 40

.PHONY: lint-paging paging-tb bench-paging synth-paging

lint-paging:
	verilator --lint-only -Wall --assert $(RTL_INCDIRS) --top-module paging_engine $(PAGING_RTL)
	verilator --lint-only -Wall --assert $(RTL_INCDIRS) --top-module paging_engine $(call paging_G,small) $(PAGING_RTL)
	verilator --lint-only -Wall --assert $(RTL_INCDIRS) --top-module paging_engine -GMaxBurst=256 -GCopyFifoBeats=512 \
	  -GOutstanding=4 -GPktSlots=16 -GAsidW=16 -GDdrIdW=1 -GSysIdW=8 $(PAGING_RTL)
	@echo "lint-paging: clean"

$(PAGING_DIR)/c/%.o: %.c $(PAGING_TB_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(PAGING_TB_CFLAGS) -c -o $@ $<

$(PAGING_TB_LIB): $(patsubst %.c,$(PAGING_DIR)/c/%.o,$(PAGING_TB_CSRCS))
	rm -f $@ && ar rcs $@ $^

define paging_tb_rule
$(call paging_tb_bin,$(1)): $(PAGING_RTL) tests/paging/dut.cpp tests/paging/dut.h $(wildcard tests/common/vl_*.h) $(PAGING_TB_LIB) tools/mk/paging.mk sim/fst_trace.h sim/vl_env.h $(VL_BUILD_CFG)
	$$(call vl_build,$$@,paging_engine,$(PAGING_RTL) $(ROOT)/tests/paging/dut.cpp,-I$(ROOT)/tests/paging -I$(ROOT)/tests/common $(call paging_D,$(1)),$(PAGING_TB_LIB),--assert $(call paging_G,$(1)))
endef
$(foreach c,$(PAGING_CONFIGS),$(eval $(call paging_tb_rule,$(c))))

paging-tb: $(call paging_tb_bin,default)

# The default configuration runs everything, including the throughput
# targets (FILL and WRITE_PTES >= 0.9 beats per cycle, COPY >= 0.8, 32 KiB
# runs at 40 cycles of DDR latency); the small one (two-beat bursts, a
# 16-word queue, two packets in flight) runs the functional tests only.
TESTS += paging lint-paging synth-paging
t-paging: $(foreach c,$(PAGING_CONFIGS),$(call paging_tb_bin,$(c)))
	$(call paging_tb_bin,default) --seed 1 --streams 60 --ddr-latency $(PAGING_DDR_LATENCY)
	$(call paging_tb_bin,small) --seed 2 --streams 40 --ddr-latency 7 --sys-latency 13 --throughput-kib 4 --throughput-check 0

t-lint-paging: lint-paging

t-synth-paging: synth-paging

bench-paging: $(call paging_tb_bin,default)
	$< --only throughput --ddr-latency $(PAGING_DDR_LATENCY) --throughput-kib 256 --throughput-check 0

# Debian's yosys 0.23 reads the RTL directly (read_verilog -sv), so the
# engine keeps to the subset it accepts (package items by qualified name).
PAGING_SYNTH_DIR := $(PAGING_DIR)/synth
synth-paging:
	@mkdir -p $(PAGING_SYNTH_DIR)
	yosys -q -l $(PAGING_SYNTH_DIR)/ecp5.log -p "read_verilog -sv $(PAGING_RTL); synth_ecp5 -top paging_engine; tee -o $(PAGING_SYNTH_DIR)/ecp5.stat stat" >/dev/null
	@echo "synth-paging (ECP5, default parameters):"
	@grep -E '^ +(LUT4|TRELLIS_FF|DP16KD|TRELLIS_DPR16X4|CCU2C) +[0-9]+$$' $(PAGING_SYNTH_DIR)/ecp5.stat | sed 's/^ */  /'
