# RTL: lint and the Verilator simulator of soc_top.
#
# VexRiscv's Verilog is resolved from the pinned pythondata-cpu-vexriscv
# package at build time (tools/vexriscv_path.py); it is never copied here.

VEXRISCV_VARIANT ?= VexRiscv
VEXRISCV_V = $(shell $(PY) tools/vexriscv_path.py $(VEXRISCV_VARIANT))

# Packages first: modules import them.
RTL_PKGS := rtl/gmmu_soc_pkg.sv rtl/gmmu_pte_pkg.sv rtl/gmmu_mbox_pkg.sv rtl/gmmu_mmu_pkg.sv \
            rtl/gmmu_engine_pkg.sv
# The SoC's modules, listed rather than globbed so a module under development
# in rtl/ does not enter the SoC build before it is instantiated.
RTL_SRCS := rtl/soc_top.sv rtl/wb_arbiter.sv rtl/wb_decoder.sv rtl/wb_ram.sv \
            rtl/wb_sysctl.sv rtl/wb_console.sv rtl/wb_timer.sv rtl/wb_to_axi4.sv \
            rtl/axi4lite_to_reg.sv rtl/mbox.sv rtl/dp_ram.sv rtl/axi4_arbiter.sv \
            rtl/axi4_demux.sv rtl/axi4_err_slave.sv rtl/bar1_aperture.sv \
            $(sort $(wildcard rtl/mmu_*.sv)) rtl/gpu_engine.sv \
            rtl/gpu_engine_regs.sv
RTL_ALL  := rtl/vexriscv_waiver.vlt $(RTL_PKGS) $(RTL_SRCS)

SIM_DIR   := $(BUILD)/sim
SIM_BIN   := $(SIM_DIR)/Vsoc_top
SIM_CSRCS := sim/ddr_model.c sim/sparse_mem.c sim/elf_image.c sim/pcie_link.c sim/bar_master.c \
             sim/sysmem_port.c
SIM_CXX   := sim/sim_main.cpp
SIM_CLIB  := $(SIM_DIR)/libsimc.a
SIM_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Iinclude -Isim

sim: $(SIM_BIN)

lint:
	verilator --lint-only -Wall -Irtl --top-module soc_top $(RTL_ALL) $(VEXRISCV_V)
	@echo "lint: clean"

$(SIM_DIR)/c/%.o: sim/%.c $(wildcard sim/*.h include/gmmu/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_CFLAGS) -c -o $@ $<

$(SIM_CLIB): $(patsubst sim/%.c,$(SIM_DIR)/c/%.o,$(SIM_CSRCS))
	rm -f $@ && ar rcs $@ $^

# -Wno-fatal is not used: our RTL must be warning-free in the build too.
$(SIM_BIN): $(RTL_ALL) $(SIM_CXX) $(SIM_CLIB) $(wildcard sim/*.h) $(VL_TRACE_CFG)
	@mkdir -p $(SIM_DIR)
	verilator --cc --exe --build -j $(JOBS) -Wall -O3 $(VL_TRACE_FLAGS) --x-assign fast --x-initial fast \
	  -Irtl --top-module soc_top --Mdir $(SIM_DIR)/$(VL_OBJ) \
	  -CFLAGS "-std=c++17 $(VL_CXXOPT) -I$(ROOT)/include -I$(ROOT)/sim" \
	  -LDFLAGS "$(SIM_CLIB)" \
	  $(RTL_ALL) $(VEXRISCV_V) $(ROOT)/$(SIM_CXX) -o $(SIM_BIN) >$(SIM_DIR)/verilate.log 2>&1 \
	  || { tail -40 $(SIM_DIR)/verilate.log; exit 1; }
	@echo "sim: built $(SIM_BIN)"

# Run one firmware image: make sim-run FW=gmmu [SIM_ARGS=...]
FW ?= gmmu
sim-run: $(SIM_BIN) $(FW_BUILD)/$(FW).elf
	$(SIM_BIN) $(SIM_ARGS) $(FW_BUILD)/$(FW).elf

# The segment router (axi4_demux + axi4_err_slave, as soc_top uses them)
# under random traffic against two sysmem_port slave models: make t-route.
# The test is C (built here with the C flags), Verilator's part thin C++.
ROUTE_DIR := $(BUILD)/route
ROUTE_BIN := $(ROUTE_DIR)/route_tb
ROUTE_RTL := rtl/axi4_demux.sv rtl/axi4_err_slave.sv tests/route/route_tb_top.sv
ROUTE_LIB := $(ROUTE_DIR)/libroutetb.a
ROUTE_OBJS := $(ROUTE_DIR)/c/route_test.o $(ROUTE_DIR)/c/sysmem_port.o

$(ROUTE_DIR)/c/%.o: tests/route/%.c tests/route/dut.h sim/sysmem_port.h
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_CFLAGS) -Itests/route -c -o $@ $<

$(ROUTE_DIR)/c/sysmem_port.o: sim/sysmem_port.c sim/sysmem_port.h
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_CFLAGS) -c -o $@ $<

$(ROUTE_LIB): $(ROUTE_OBJS)
	rm -f $@ && ar rcs $@ $^

$(ROUTE_BIN): $(ROUTE_RTL) tests/route/dut.cpp tests/route/dut.h $(ROUTE_LIB)
	@mkdir -p $(ROUTE_DIR)
	verilator --cc --exe --build -j $(JOBS) -Wall -O2 -Irtl --top-module route_tb_top \
	  --Mdir $(ROUTE_DIR)/obj -CFLAGS "$(VL_CXXOPT) -I$(ROOT)/sim -I$(ROOT)/tests/route" \
	  -LDFLAGS "$(ROUTE_LIB)" $(ROUTE_RTL) $(ROOT)/tests/route/dut.cpp -o $@ \
	  >$(ROUTE_DIR)/verilate.log 2>&1 || { tail -40 $(ROUTE_DIR)/verilate.log; exit 1; }

t-route: $(ROUTE_BIN)
	$(ROUTE_BIN)
