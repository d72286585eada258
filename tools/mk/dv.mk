# SPDX-License-Identifier: Apache-2.0
# Simulation-only checkers (rtl/dv/, list rtl/dv/dv.f; docs/architecture.md,
# "Protocol checkers"): the AXI4 protocol checker bound to every AXI port,
# and X checks, in every Verilator build.
#
#   make t-axi-checker   the checker catches injected violations (and fails
#                        the run), and passes legal traffic
#   VL_ASSERT=0 make ... build the simulators without the checkers and
#                        without --assert (to measure their cost)
#
# Every Verilator command line of the make fragments, the builds through
# vl_build and the lint-* targets alike, names $(RTL_INCDIRS); the checkers
# and --assert are added there, per target (the dv_use lines below; a new
# harness or lint target adds its own). A build takes the checker and rtl/dv/<module>_dv.sv (the
# bind of <module>) for each <module>.sv among its sources; a bind naming a
# module outside the build would make Verilator look for it. Yosys and the
# board flows read the RTL lists only, never rtl/dv.

RTL_DV := $(call rtl_files,dv)
VL_ASSERT ?= 1
dv_srcs = rtl/prim/axi4_pkg.sv rtl/dv/axi4_protocol_checker.sv rtl/dv/axi4_port_checker.sv \
  $(filter $(patsubst %.sv,rtl/dv/%_dv.sv,$(notdir $(filter %.sv,$(1)))),$(RTL_DV))

# A build without them has its own object directory, and the harnesses
# relink when VL_ASSERT changes (as with VL_TRACE).
VL_OBJ := $(VL_OBJ)$(if $(filter 1,$(VL_ASSERT)),,-noassert)
VL_ASSERT_CFG := $(BUILD)/vl-assert.cfg
$(shell mkdir -p $(BUILD) && { echo $(VL_ASSERT) | cmp -s - $(VL_ASSERT_CFG) || echo $(VL_ASSERT) >$(VL_ASSERT_CFG); })

#   $(call dv_use,TARGETS,RTL SOURCES)
define dv_use
$(1): RTL_INCDIRS += $(if $(filter 1,$(VL_ASSERT)),--assert $(call dv_srcs,$(2)))
$(1): $(call dv_srcs,$(2)) rtl/prim/prim_assert.svh $(VL_ASSERT_CFG)
endef
$(eval $(call dv_use,$(SIM_BIN) lint,$(RTL_ALL)))
$(eval $(call dv_use,$(UART_SIM_BIN),$(UART_SOC_RTL)))
# lint-uart also lints the bridge alone: only what both of its builds have.
$(eval $(call dv_use,lint-uart,$(UART_RTL)))
$(eval $(call dv_use,$(foreach c,$(MMU_CONFIGS),$(call mmu_tb_bin,$(c))) lint-mmu,$(MMU_RTL)))
$(eval $(call dv_use,$(foreach c,$(ENGINE_CONFIGS),$(call engine_tb_bin,$(c))) lint-engine,$(ENGINE_RTL)))
$(eval $(call dv_use,$(foreach c,$(PAGING_CONFIGS),$(call paging_tb_bin,$(c))) lint-paging,$(PAGING_RTL)))
$(eval $(call dv_use,$(CDC_BIN) lint-cdc,$(CDC_RTL)))
$(eval $(call dv_use,$(ROUTE_BIN),$(ROUTE_RTL)))
$(eval $(call dv_use,$(REF_SIM_BIN) lint-ref-soc,$(REF_SOC_RTL)))

# The checker's own bench (tests/dv/axi_checker_tb.sv): legal traffic, then
# one violation per case, each of which must stop the run on its assertion;
# then the segment router's bench (t-route) with a violation injected by its
# master, caught by the checker bound to axi4_demux; then axi4_arbiter's.
AXI_CHECKER_DIR := $(BUILD)/dv
AXI_CHECKER_BIN := $(AXI_CHECKER_DIR)/Vaxi_checker_tb
$(AXI_CHECKER_BIN): tests/dv/axi_checker_tb.sv rtl/dv/axi4_protocol_checker.sv rtl/prim/prim_assert.svh
	@mkdir -p $(AXI_CHECKER_DIR)
	verilator --binary --timing --assert -j $(JOBS) -Wall -Irtl/prim --top-module axi_checker_tb \
	  --Mdir $(AXI_CHECKER_DIR) tests/dv/axi_checker_tb.sv rtl/dv/axi4_protocol_checker.sv \
	  >$(AXI_CHECKER_DIR)/verilate.log 2>&1 || { tail -40 $(AXI_CHECKER_DIR)/verilate.log; exit 1; }

# axi4_arbiter with its checker bound, a slave not ready and a second master
# asking meanwhile: the waiting AR and AW must stay offered unchanged.
AXI_ARB_BIN := $(AXI_CHECKER_DIR)/arbiter/Vaxi4_arbiter_tb
AXI_ARB_SRCS := rtl/prim/axi4_pkg.sv tests/dv/axi4_arbiter_tb.sv rtl/prim/prim_lowest_set.sv \
  rtl/prim/prim_rr_arb.sv rtl/soc/axi4_arbiter.sv rtl/dv/axi4_protocol_checker.sv \
  rtl/dv/axi4_port_checker.sv rtl/dv/axi4_arbiter_dv.sv
$(AXI_ARB_BIN): $(AXI_ARB_SRCS) rtl/prim/prim_assert.svh
	@mkdir -p $(@D)
	verilator --binary --timing --assert -j $(JOBS) -Wall -Irtl/prim --top-module axi4_arbiter_tb \
	  --Mdir $(@D) $(AXI_ARB_SRCS) >$(@D)/verilate.log 2>&1 || { tail -40 $(@D)/verilate.log; exit 1; }

AXI_CHECKER_CASES := none:none valid_drop:ar_valid_held payload_change:aw_stable cross_4k:ar_cross_4k \
  wrap_len:aw_wrap_len extra_r:r_unexpected no_rlast:r_last same_id_order:r_last \
  b_early:b_unexpected wlast_early:w_count

TESTS += axi-checker
.PHONY: t-axi-checker
t-axi-checker: $(AXI_CHECKER_BIN) $(ROUTE_BIN) $(AXI_ARB_BIN)
	@set -e; for c in $(AXI_CHECKER_CASES); do \
	  tests/dv/expect_assert.sh $${c#*:} -- $(AXI_CHECKER_BIN) +case=$${c%%:*}; done
	tests/dv/expect_assert.sh none -- $(ROUTE_BIN)
	tests/dv/expect_assert.sh ar_valid_held -- $(ROUTE_BIN) --inject valid-drop
	tests/dv/expect_assert.sh ar_cross_4k -- $(ROUTE_BIN) --inject cross-4k
	tests/dv/expect_assert.sh none -- $(AXI_ARB_BIN)
