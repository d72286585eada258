# SPDX-License-Identifier: Apache-2.0
# The test suite. `make test` runs tools/testrun.sh over TESTS; each test is
# a target t-NAME whose exit status is its verdict.

FW_ELF = $(FW_BUILD)/$(1).elf
EXPECT := tests/sim/expect_run.sh

TESTS := check-defs lint $(addprefix unit-,$(UNIT_TESTS)) boot trap ddr-bus-error

# The longest tests (a few minutes each on the 2-core machine) start first,
# longest first, so that the suite does not end with one core running a
# long test alone. Only the wall-clock time depends on this order.
TESTS_LONG := residency-soc engine-soc mailbox-uart stale-soc synth-check-xilinx sysmem-soc e2e-soc synth-check \
              uart-link hostile demo mmu-random clock-gate vidmm-soc mailbox faults-soc python mailbox-newlib order-soc
test-run:
	@bash tools/testrun.sh $(filter $(TESTS),$(TESTS_LONG)) $(filter-out $(TESTS_LONG),$(TESTS))

t-check-defs: check-defs
t-lint: lint

$(addprefix t-unit-,$(UNIT_TESTS)): t-unit-%: $(BUILD)/unit/%
	$<

t-boot: $(SIM_BIN) $(call FW_ELF,gmmu)
	$(EXPECT) --rc 0 --grep '^gmmu firmware [0-9.]+ \(build' --grep 'DDR self-test: PASS' \
	  --grep 'firmware exit code 0' -- $(SIM_BIN) --boot-arg 1 --max-cycles 5000000 $(call FW_ELF,gmmu)

# The expected PC is the address of the illegal instruction's symbol.
t-trap: $(SIM_BIN) $(call FW_ELF,test_trap)
	pc=$$($(FW_CROSS)nm $(call FW_ELF,test_trap) | awk '/ illegal_insn_pc$$/ {print $$1}'); \
	$(EXPECT) --rc 1 --grep "TRAP: mcause=0x00000002 \(illegal instruction\) mepc=0x$$pc" \
	  --grep 'firmware exit code 258' -- $(SIM_BIN) --max-cycles 1000000 $(call FW_ELF,test_trap)

# 16 MiB of DDR; the image loads at 16 MiB + 0x100.
t-ddr-bus-error: $(SIM_BIN) $(call FW_ELF,test_ddr_buserr)
	$(EXPECT) --rc 1 --grep 'BUS ERROR: read at 0xc1000100' --grep 'firmware exit code 512' \
	  --grep -v 'no fault was taken' -- $(SIM_BIN) --ddr-size-mb 16 --max-cycles 1000000 $(call FW_ELF,test_ddr_buserr)

# The paging engine in the SoC (firmware/tests/test_paging_soc.c): packets
# built by the image, results read back from DDR; its system-memory bursts
# (answered SLVERR: no host) must all have gone out CacheCoherent.
TESTS += paging-soc
t-paging-soc: $(SIM_BIN) $(call FW_ELF,test_paging_soc)
	$(EXPECT) --rc 0 --grep '^test_paging_soc: PASS' --grep 'firmware exit code 0' \
	  --grep 'sysmem total: read bursts ([1-9][0-9]*) \(coherent \1\), write bursts ([1-9][0-9]*) \(coherent \2\)' \
	  -- $(SIM_BIN) --max-cycles 5000000 $(call FW_ELF,test_paging_soc)

# make demo: boot the SoC in Verilator with the firmware, then drive it
# from the host library through the scripted session of host/demo (one table
# row per step). The simulator's own output goes to build/demo-sim.log.
# Then the residency story (gmmu_demo --residency: 1.5x the VRAM, moves,
# every byte back) on a second SoC with DEMO_RESIDENCY_DDR_MB of DDR: the
# default 256 MiB would take minutes to fill and checksum 1.5 times over.
DEMO_BIN := $(HOST_DIR)/gmmu_demo
DEMO_RESIDENCY_DDR_MB ?= 2
$(DEMO_BIN): host/demo/gmmu_demo.c $(LIBGMMU) $(wildcard host/libgmmu/*.h include/gmmu/*.h)
	$(HOST_CC) $(HOST_APP_CFLAGS) -o $@ $< $(LIBGMMU) -pthread

demo-run: $(SIM_BIN) $(call FW_ELF,gmmu) $(DEMO_BIN)
	@echo "== booting the GPU MMU SoC in Verilator (VexRiscv, MMU, 4 GPU engines, DDR model; firmware: $(LIBC))"
	@echo "== simulator log: $(BUILD)/demo-sim.log"
	@tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/demo-sim.log -- $(DEMO_BIN)
	@echo "== residency: a second SoC with $(DEMO_RESIDENCY_DDR_MB) MiB of DDR, over-committed into host memory (log: $(BUILD)/demo-residency-sim.log)"
	@SIM_ARGS='--ddr-size-mb $(DEMO_RESIDENCY_DDR_MB)' tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) \
	  $(BUILD)/demo-residency-sim.log -- $(DEMO_BIN) --residency

# The demo is part of the suite: every step checks itself, so a regression
# in any layer it crosses fails it.
TESTS += demo
t-demo: demo-run

# Mailbox host suite through libgmmu against the simulated SoC.
TESTS += mailbox
t-mailbox: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_mailbox
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/mailbox-sim.log -- \
	  $(HOST_DIR)/test_mailbox

# Hostile host: raw register writes over the sim link across every
# host-owned register and value class (docs/mailbox.md, "A misbehaving
# host"), a normal host checked after each attack. make soak-hostile runs
# HOSTILE_ROUNDS random rounds (HOSTILE_SEED).
TESTS += hostile
t-hostile: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_hostile
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/hostile-sim.log -- \
	  $(HOST_DIR)/test_hostile --rounds 8 --seed 1

HOSTILE_ROUNDS ?= 400
HOSTILE_SEED ?= 1
soak-hostile: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_hostile
	@mkdir -p $(BUILD)/test
	SIM_MAX_CYCLES=0 GMMU_HOST_TIMEOUT=86400 tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) \
	  $(BUILD)/test/soak-hostile-sim.log -- $(HOST_DIR)/test_hostile --rounds $(HOSTILE_ROUNDS) --seed $(HOSTILE_SEED)
.PHONY: soak-hostile

# make bench-mailbox: PING latency, firmware side (doorbell to completion
# published, measured by the mailbox hardware) and host round trip, in
# device cycles at the default link latency.
PING_TARGET_CYCLES := 300
bench-mailbox: $(SIM_BIN) $(call FW_ELF,gmmu) $(GMMUCTL)
	@tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/bench-mailbox-sim.log -- \
	  tools/bench_mailbox.sh $(GMMUCTL) $(PING_TARGET_CYCLES)

# make sim-server: the simulated SoC in the foreground, serving hosts on a
# socket until Ctrl-C. Then: build/host/gmmuctl -d sim:$(SIM_SOCKET) info
SIM_SOCKET ?= $(BUILD)/sim/gmmu.sock
sim-server: $(SIM_BIN) $(call FW_ELF,gmmu) $(GMMUCTL)
	@echo "sim-server: socket $(SIM_SOCKET)"
	@echo "sim-server: try  $(GMMUCTL) -d sim:$(SIM_SOCKET) info"
	$(SIM_BIN) --max-cycles 0 --socket $(SIM_SOCKET) $(SIM_ARGS) $(call FW_ELF,gmmu)

# VidMm commands on the simulated SoC: tables in the DDR model, real MMU registers.
TESTS += vidmm-soc
t-vidmm-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_vidmm_soc
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/vidmm-soc-sim.log -- \
	  $(HOST_DIR)/test_vidmm_soc

# gmmuctl caps --json against the RTL's build parameters.
TESTS += caps-vs-rtl
t-caps-vs-rtl: $(SIM_BIN) $(call FW_ELF,gmmu) $(GMMUCTL)
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/caps-sim.log -- \
	  tests/host/caps_vs_rtl.sh $(GMMUCTL)

# End to end: engines through the MMU, data checked through the aperture.
TESTS += engine-soc
t-engine-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_engine_soc
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/engine-soc-sim.log -- \
	  $(HOST_DIR)/test_engine_soc

# The aperture segment (docs/aperture.md): physical-mode jobs through the
# aperture on scattered host pages, refused jobs, invalidation, and the
# aperture-against-VA benchmark.
TESTS += aperture-soc
t-aperture-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_aperture_soc
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/aperture-soc-sim.log -- \
	  $(HOST_DIR)/test_aperture_soc

# System memory end to end: a host buffer registered with the simulated link,
# engines on it through the MMU; the test reads the per-host port counts from
# the simulator log.
TESTS += sysmem-soc
t-sysmem-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_sysmem_soc
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/sysmem-soc-sim.log -- \
	  $(HOST_DIR)/test_sysmem_soc $(BUILD)/test/sysmem-soc-sim.log

# System-memory allocations as page lists (ALLOC_PAGES), randomized: host
# pages scattered on purpose, engines on them through the GPU VA, the host
# reading its pages, against a model (PAGES_ROUNDS rounds from PAGES_SEED).
PAGES_ROUNDS ?= 6
PAGES_SEED ?= 1
TESTS += pages-soc
t-pages-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_pages_soc
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/pages-soc-sim.log -- \
	  $(HOST_DIR)/test_pages_soc $(PAGES_ROUNDS) $(PAGES_SEED)

# Monitored fences end to end: the paging fence of MAP_VA/UNMAP_VA, read by
# command and through BAR1, waits told by EVT_FENCE.
TESTS += fence-soc
t-fence-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_fence_soc
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/fence-soc-sim.log -- \
	  $(HOST_DIR)/test_fence_soc

# Asynchronous engine jobs end to end: four queued jobs held by a host fence,
# then run at once and signalling fences; cancel, bad input, a departed
# host, PING while the four engines run and the queued-vs-one-after-another
# ratio. Its simulated time is bounded (SIM_MAX_CYCLES) well above what it
# needs, so a job that never ends fails it rather than hangs it.
TESTS += queue-soc
t-queue-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_queue_soc
	SIM_MAX_CYCLES=60000000 tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) \
	  $(BUILD)/test/queue-soc-sim.log -- $(HOST_DIR)/test_queue_soc

# Ordered paging randomized (issue 30): the four engines' jobs and the
# update queue's batches ordered only by fences, every byte a job reads
# checked against a model applied in fence order; BUSY under queued jobs.
# GMMU_ORDER_OPS ops (default 64) from GMMU_ORDER_SEED (default 1);
# make soak-order-soc runs ORDER_OPS from ORDER_SEED.
TESTS += order-soc
t-order-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_order_soc
	SIM_MAX_CYCLES=60000000 tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) \
	  $(BUILD)/test/order-soc-sim.log -- $(HOST_DIR)/test_order_soc

ORDER_OPS ?= 2000
ORDER_SEED ?= 1
soak-order-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_order_soc
	@mkdir -p $(BUILD)/test
	SIM_MAX_CYCLES=0 GMMU_HOST_TIMEOUT=86400 GMMU_ORDER_OPS=$(ORDER_OPS) GMMU_ORDER_SEED=$(ORDER_SEED) \
	  tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) \
	  $(BUILD)/test/soak-order-soc-sim.log -- $(HOST_DIR)/test_order_soc
.PHONY: soak-order-soc

# MMU faults as events and the MMU counters, end to end; then gmmuctl's
# faults and counters subcommands on the same server.
TESTS += faults-soc
t-faults-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_faults_soc $(GMMUCTL)
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/faults-soc-sim.log -- \
	  sh -c '$(HOST_DIR)/test_faults_soc && tests/host/gmmuctl_faults.sh $(GMMUCTL)'

# No stale translation: a GPU engine runs (ENGINE_START) through a mapping
# while the host unmaps it and maps the VA elsewhere.
TESTS += stale-soc
t-stale-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_stale_soc
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/stale-soc-sim.log -- \
	  $(HOST_DIR)/test_stale_soc

# Paging-engine errors (issue 27): a write error armed in the DDR model
# (the sim-link's DDR_FAULT hook) fails a MAP_VA and an UNMAP_VA; the space
# is given up, the engine restarted, the rest untouched.
TESTS += engine-fault-soc
t-engine-fault-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_engine_fault_soc
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/engine-fault-soc-sim.log -- \
	  $(HOST_DIR)/test_engine_fault_soc

# The segment router alone, random traffic (rules in tools/mk/rtl.mk).
TESTS += route

# The demo's steps by hand with gmmuctl, as docs/getting-started.md shows.
TESTS += gmmuctl-session
t-gmmuctl-session: $(SIM_BIN) $(call FW_ELF,gmmu) $(GMMUCTL)
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/gmmuctl-session-sim.log -- \
	  tests/host/gmmuctl_session.sh $(GMMUCTL)

# Randomized end to end: random mappings in two address spaces, engine
# traffic, every byte against a model (aperture and checksums), isolation,
# use after unmap, tiles, faults as events, nothing lost.
TESTS += e2e-soc
t-e2e-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_e2e_soc
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/e2e-soc-sim.log -- \
	  $(HOST_DIR)/test_e2e_soc

# Residency randomized (issue 28): a small VRAM (SIM_ARGS --ddr-size-mb)
# over-committed at least twice into a backing pool of host memory; random
# ALLOC, FREE, MAP_VA, UPDATE_VA tiles, MAKE_RESIDENT, EVICT and engine
# traffic against a model of placements, counts, VAs and bytes. make
# soak-residency-soc runs RESIDENCY_OPS ops from RESIDENCY_SEED.
RESIDENCY_SIM_ARGS ?= --ddr-size-mb 2
TESTS += residency-soc
t-residency-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_residency_soc
	SIM_ARGS='$(RESIDENCY_SIM_ARGS)' tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) \
	  $(BUILD)/test/residency-soc-sim.log -- $(HOST_DIR)/test_residency_soc

RESIDENCY_OPS ?= 2000
RESIDENCY_SEED ?= 1
soak-residency-soc: $(SIM_BIN) $(call FW_ELF,gmmu) $(HOST_DIR)/test_residency_soc
	@mkdir -p $(BUILD)/test
	SIM_ARGS='$(RESIDENCY_SIM_ARGS)' SIM_MAX_CYCLES=0 GMMU_HOST_TIMEOUT=86400 tests/host/with_sim_server.sh $(SIM_BIN) \
	  $(call FW_ELF,gmmu) $(BUILD)/test/soak-residency-soc-sim.log -- \
	  $(HOST_DIR)/test_residency_soc --ops $(RESIDENCY_OPS) --seed $(RESIDENCY_SEED)
.PHONY: soak-residency-soc

# C style: .clang-format is the style of every hand-written C and C++ file
# (generated headers excepted). make format rewrites them; t-format fails on
# any file clang-format would change.
FORMAT_SRCS = $(shell git ls-files 'firmware/*.[ch]' 'host/*.[ch]' 'sim/*.[ch]' 'sim/*.cpp' \
  'tests/*.[ch]' 'tests/*.cpp' 'boards/*.[ch]' 'boards/*.cpp' | grep -v '/gmmu_version\.h$$')
.PHONY: format
format:
	clang-format -i $(FORMAT_SRCS)
TESTS += format
t-format:
	clang-format --dry-run --Werror $(FORMAT_SRCS)
