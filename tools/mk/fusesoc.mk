# SPDX-License-Identifier: Apache-2.0
# FuseSoC cores (rtl/*/*.core): the MMU gmmu:ip:mmu, the blocks it uses
# (gmmu:ip:prim, gmmu:ip:pkg), the engines, the UART link and the SoC
# gmmu:soc:soc_top, with VexRiscv from its pinned package through a
# generator (rtl/soc/vexriscv.core, tools/fusesoc_vexriscv.py).
#
#   make t-fusesoc   the cores against rtl/*/*.f, then make lint-mmu's four
#                    configurations and the SoC's lint through FuseSoC
#
# FuseSoC reads only rtl/ here and an empty configuration, so a user's own
# libraries and caches stay out of it; its work goes to build/fusesoc.

FUSESOC_DIR := $(BUILD)/fusesoc
FUSESOC = $(VENV)/bin/fusesoc --config $(FUSESOC_DIR)/fusesoc.conf --cores-root $(ROOT)/rtl
# mmu.mk's configurations as FuseSoC parameters: --NWalkers=1 ...
fusesoc_mmu_P = $(addprefix --,$(mmu_$(1)_P))

$(FUSESOC_DIR)/fusesoc.conf:
	@mkdir -p $(@D)
	printf '[main]\ncache_root = %s\n' $(FUSESOC_DIR)/cache >$@

.PHONY: t-fusesoc
TESTS += fusesoc
t-fusesoc: $(FUSESOC_DIR)/fusesoc.conf $(VENV_STAMP)
	$(PY) tools/fusesoc_check.py
	$(PY) tools/fusesoc_check.py --self-test
	$(FUSESOC) core-info gmmu:soc:soc_top >$(FUSESOC_DIR)/soc_top.info
	$(foreach c,$(MMU_CONFIGS),$(FUSESOC) run --build-root $(FUSESOC_DIR)/mmu-$(c) --target lint \
	  gmmu:ip:mmu $(call fusesoc_mmu_P,$(c)) >$(FUSESOC_DIR)/mmu-$(c).log 2>&1 \
	  || { tail -30 $(FUSESOC_DIR)/mmu-$(c).log; exit 1; }; echo "fusesoc: mmu_top ($(c)) lint clean";)
	$(FUSESOC) run --build-root $(FUSESOC_DIR)/soc --target lint gmmu:soc:soc_top >$(FUSESOC_DIR)/soc.log 2>&1 \
	  || { tail -30 $(FUSESOC_DIR)/soc.log; exit 1; }
	@echo "fusesoc: soc_top lint clean"
