# SPDX-License-Identifier: Apache-2.0
# RTL: lint and the Verilator simulator of soc_top.
#
# VexRiscv's Verilog is resolved from the pinned pythondata-cpu-vexriscv
# package at build time (tools/vexriscv_path.py); it is never copied here.

VEXRISCV_VARIANT ?= VexRiscv
VEXRISCV_V = $(shell $(PY) tools/vexriscv_path.py $(VEXRISCV_VARIANT))

# Source lists: one file list per RTL folder (rtl/<folder>/<folder>.f), so a
# module under development does not enter a build before a list names it.
# A list has one path per line, relative to the repository root, and //
# comments; every Verilator, Yosys and board flow reads it through
# rtl_files. Order matters only for packages, which come before their users.
rtl_files = $(shell sed -e 's://.*$$::' -e '/^[[:space:]]*$$/d' rtl/$(1)/$(1).f)
RTL_PKGS   := $(call rtl_files,pkg)
RTL_PRIM   := $(call rtl_files,prim)
RTL_MMU    := $(call rtl_files,mmu)
RTL_ENGINE := $(call rtl_files,engine)
RTL_PAGING := $(call rtl_files,paging)
RTL_LINK   := $(call rtl_files,link)
RTL_SOC    := $(call rtl_files,soc)
RTL_INCDIRS := -Irtl/pkg -Irtl/prim -Irtl/soc -Irtl/mmu -Irtl/engine -Irtl/paging -Irtl/link
# Packages first: modules import them.
RTL_SRCS := $(RTL_PRIM) $(RTL_SOC) $(RTL_MMU) $(RTL_ENGINE) $(RTL_PAGING)
RTL_ALL  := rtl/soc/vexriscv_waiver.vlt $(RTL_PKGS) $(RTL_SRCS)

# One Verilator build for every harness (the SoC, the UART board, the MMU,
# engine, CDC and router testbenches):
#   $(call vl_build,BINARY,TOP,SOURCES,CFLAGS,LIBS,VERILATOR_FLAGS)
# SOURCES are the RTL and the thin C++ shell; LIBS the harness's C archive;
# the object directory and verilate.log go beside BINARY. Only the first
# lines of a failure's log are shown.
#
# When the C++ compiler or VL_TRACE changed ($(VL_BUILD_CFG) is newer), the
# harness's objects are removed first: Verilator leaves the files it
# generates the same untouched, so make would not compile them again.
#
# A build says what it verilates and about how long it takes before it
# starts (VL_ABOUT_<top>: measured from scratch on the 2-core machine, the
# other core idle; longer when it is busy), then every VL_PROGRESS_SECS
# how many of its C++ objects are compiled (tools/with_progress.sh).
VL_ABOUT_soc_top       := about 2 minutes
VL_ABOUT_uart_soc      := about 2 minutes
VL_ABOUT_mmu_top       := about a minute
VL_ABOUT_gpu_engine    := about 20 seconds
VL_ABOUT_paging_engine := about 20 seconds
VL_PROGRESS_SECS ?= 30
# Verilator's run-time library (verilated.cpp, its DPI and thread parts) is
# the same in every harness built without traces: it is compiled once into
# $(VL_RT_DIR), with the flags Verilator's own make rules give it, and
# linked into each, instead of compiled again in each object directory
# (about 6 s of CPU a harness). The first build to need it builds it, under
# a lock, so parallel builds never compile it twice. Traced builds (they
# need verilated_fst_c as well) compile their own, as before.
VL_RT_DIR  := $(BUILD)/vlrt
VL_RT_OBJS := $(addprefix $(VL_RT_DIR)/,verilated.o verilated_dpi.o verilated_threads.o)
VL_RT_INC  := $(shell verilator --getenv VERILATOR_ROOT)/include
VL_RT_CXXFLAGS := -I$(VL_RT_INC) -I$(VL_RT_INC)/vltstd -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=0 \
  -DVM_TRACE_FST=0 -DVM_TRACE_VCD=0 -faligned-new -fcf-protection=none -Wno-bool-operation -Wno-sign-compare \
  -Wno-uninitialized -Wno-unused-but-set-variable -Wno-unused-parameter -Wno-unused-variable -Wno-shadow \
  -Wno-unknown-warning-option -std=c++17 -Os
$(VL_RT_DIR)/%.o: $(VL_RT_INC)/%.cpp $(VL_BUILD_CFG)
	@mkdir -p $(@D)
	$(VL_CXX) $(VL_RT_CXXFLAGS) -c -o $@ $<
VL_RT_SHARED := $(if $(filter 1,$(VL_TRACE)),,1)
VL_RT_MAKE = $(if $(VL_RT_SHARED),flock $(BUILD)/vlrt.lock $(MAKE) --no-print-directory -s $(VL_RT_OBJS) &&)
VL_RT_LINK = $(if $(VL_RT_SHARED),$(VL_RT_OBJS))
VL_RT_MAKEFLAGS = $(if $(VL_RT_SHARED),VM_GLOBAL_FAST= VM_GLOBAL_SLOW=)
define vl_build
	@mkdir -p $(dir $(1)) && rm -f $(1)
	@echo "verilating $(2) into $(1)$(if $(VL_ABOUT_$(2)), ($(VL_ABOUT_$(2)) on 2 cores)) ..."
	@mkdir -p $(dir $(1))$(VL_OBJ)
	$(if $(filter $(VL_BUILD_CFG),$?),@rm -f $(dir $(1))$(VL_OBJ)/*.o)
	$(VL_RT_MAKE) PROGRESS_SECS=$(VL_PROGRESS_SECS) PROGRESS_COUNT="C++ objects compiled" PROGRESS_OUT=$(dir $(1))verilate.log \
	  tools/with_progress.sh $(dir $(1))$(VL_OBJ) '\.o$$' -- \
	  verilator --cc --exe --build -j $(JOBS) -Wall -O3 --x-assign fast --x-initial fast $(VL_TRACE_FLAGS) \
	  $(RTL_INCDIRS) --top-module $(2) $(6) --Mdir $(dir $(1))$(VL_OBJ) \
	  -CFLAGS "-std=c++17 $(VL_CXXOPT) -Wno-unknown-warning-option -Wno-parentheses-equality -I$(ROOT)/include -I$(ROOT)/sim $(4)" \
	  -LDFLAGS "$(5) $(VL_RT_LINK)" \
	  -MAKEFLAGS "CXX=$(VL_CXX) LINK=$(VL_CXX) OPT_FAST=$(VL_OPT_FAST) OPT_SLOW=$(VL_OPT_SLOW) $(VL_RT_MAKEFLAGS)" $(3) -o $(1) \
	  || { tail -40 $(dir $(1))verilate.log; exit 1; }
	@echo "built $(1)"
endef

SIM_DIR   := $(BUILD)/sim
SIM_BIN   := $(SIM_DIR)/Vsoc_top
SIM_CSRCS := sim/ddr_model.c sim/sparse_mem.c sim/elf_image.c sim/pcie_link.c sim/bar_master.c \
             sim/sysmem_port.c sim/sim_fork.c
SIM_CXX   := sim/sim_main.cpp
SIM_CLIB  := $(SIM_DIR)/libsimc.a
SIM_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Iinclude -Isim

sim: $(SIM_BIN)

lint:
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module soc_top $(RTL_ALL) $(VEXRISCV_V)
	@echo "lint: clean"

$(SIM_DIR)/c/%.o: sim/%.c $(wildcard sim/*.h include/gmmu/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(SIM_CFLAGS) -c -o $@ $<

$(SIM_CLIB): $(patsubst sim/%.c,$(SIM_DIR)/c/%.o,$(SIM_CSRCS))
	rm -f $@ && ar rcs $@ $^

# -Wno-fatal is not used: our RTL must be warning-free in the build too.
$(SIM_BIN): $(RTL_ALL) $(SIM_CXX) $(SIM_CLIB) $(wildcard sim/*.h) $(VL_BUILD_CFG)
	$(call vl_build,$@,soc_top,$(RTL_ALL) $(VEXRISCV_V) $(ROOT)/$(SIM_CXX),,$(SIM_CLIB))

# Run one firmware image: make sim-run FW=gmmu [SIM_ARGS=...]
FW ?= gmmu
sim-run: $(SIM_BIN) $(FW_BUILD)/$(FW).elf
	$(SIM_BIN) $(SIM_ARGS) $(FW_BUILD)/$(FW).elf

# The segment router (axi4_demux + axi4_err_slave, as soc_top uses them)
# under random traffic against two sysmem_port slave models: make t-route.
# The test is C (built here with the C flags), Verilator's part thin C++.
ROUTE_DIR := $(BUILD)/route
ROUTE_BIN := $(ROUTE_DIR)/route_tb
ROUTE_RTL := rtl/prim/axi4_pkg.sv rtl/prim/prim_sim_clock_gate.sv rtl/soc/axi4_demux.sv rtl/soc/axi4_err_slave.sv tests/route/route_tb_top.sv
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

$(ROUTE_BIN): $(ROUTE_RTL) tests/route/dut.cpp tests/route/dut.h tests/common/vl_packed.h sim/vl_env.h $(ROUTE_LIB) $(VL_BUILD_CFG)
	$(call vl_build,$@,route_tb_top,$(ROUTE_RTL) $(ROOT)/tests/route/dut.cpp,-I$(ROOT)/tests/route -I$(ROOT)/tests/common,$(ROUTE_LIB))

t-route: $(ROUTE_BIN)
	$(ROUTE_BIN)

# The saved GTKWave views sim/waves/*.gtkw (docs/getting-started.md): every
# signal they name must exist in the SoC with its range. The names come
# from Verilator's elaborated netlist (--xml-only, seconds), not from a
# traced build; tools/check_gtkw.py says how the two agree. A view with a
# wrong name and one with a wrong range must fail the check.
GTKW_DIR := $(BUILD)/gtkw
TESTS += gtkw
.PHONY: t-gtkw
t-gtkw:
	@mkdir -p $(GTKW_DIR)
	verilator --xml-only -Wno-fatal $(RTL_INCDIRS) --top-module soc_top $(RTL_ALL) $(VEXRISCV_V) \
	  --xml-output $(GTKW_DIR)/soc.xml >$(GTKW_DIR)/xml.log 2>&1 || { tail -20 $(GTKW_DIR)/xml.log; exit 1; }
	python3 tools/check_gtkw.py --xml $(GTKW_DIR)/soc.xml sim/waves/*.gtkw
	@printf 'TOP.soc_top.ddr_awaddr_o[31:0]\nTOP.soc_top.u_mbox.no_such_signal_q\n' >$(GTKW_DIR)/bad-name.gtkw
	@printf 'TOP.soc_top.ddr_awaddr_o[30:0]\n' >$(GTKW_DIR)/bad-range.gtkw
	@for v in bad-name bad-range; do \
	  if python3 tools/check_gtkw.py --xml $(GTKW_DIR)/soc.xml $(GTKW_DIR)/$$v.gtkw >$(GTKW_DIR)/$$v.log; then \
	    echo "t-gtkw: $$v.gtkw passed the check"; exit 1; fi; done
	@echo "t-gtkw: every view's signals exist; a wrong name and a wrong range are caught"
