# SPDX-License-Identifier: Apache-2.0
# Ready for others to use: licence lines, the one version, the installed
# library, gmmuctl's interface and the Python binding, each as a test.

# The binding's generated definitions follow the TOML files and VERSION
# (python/gen_defs.py writes it only when it changes).
PY_DEFS := $(ROOT)/python/gmmu/_defs.py
$(PY_DEFS): VERSION python/gen_defs.py include/defs/mailbox.toml include/defs/engine.toml \
            include/defs/pte.toml include/defs/mmu.toml
	python3 python/gen_defs.py

# Every tracked source file carries an SPDX-License-Identifier line
# (tools/check_spdx.py --fix adds the missing ones).
TESTS += spdx
t-spdx:
	python3 tools/check_spdx.py

# The version is VERSION alone: the generated gmmu_version.h, the
# firmware's version.h (GET_INFO), gmmuctl --version, the shared library's
# file name and soname, the Python binding and CHANGELOG.md all follow it.
TESTS += version
t-version: $(GMMUCTL) $(LIBGMMU_SO) $(FW_BUILD)/version.h $(PY_DEFS)
	@set -e; v=$$(tr -d ' \n' <VERSION); echo "VERSION $$v"; \
	fail() { echo "t-version: $$*"; exit 1; }; \
	[ ! -e firmware/VERSION ] || fail "firmware/VERSION is a second version: VERSION is the one"; \
	sh host/gen_version.sh VERSION | cmp -s - $(GMMU_VERSION_H) || fail "$(GMMU_VERSION_H) is stale: make host"; \
	grep -qx "#define GMMU_FW_VERSION \"$$v\"" $(FW_BUILD)/version.h || fail "firmware version.h: $$(head -1 $(FW_BUILD)/version.h)"; \
	[ "$$($(GMMUCTL) --version | head -1)" = "gmmuctl $$v" ] || fail "gmmuctl --version: $$($(GMMUCTL) --version)"; \
	[ "$(notdir $(LIBGMMU_SO))" = "libgmmu.so.$$v" ] || fail "library file $(notdir $(LIBGMMU_SO))"; \
	readelf -d $(LIBGMMU_SO) | grep -q "SONAME.*\[libgmmu.so.$${v%%.*}\]" || fail "soname is not libgmmu.so.$${v%%.*}"; \
	python3 python/gen_defs.py --check || fail "python/gmmu/_defs.py does not say $$v"; \
	grep -q "^## $$v\b" CHANGELOG.md || fail "CHANGELOG.md has no '## $$v' entry"; \
	echo "t-version: $$v everywhere"

# gmmuctl without a device: --help/help COMMAND, every opcode reachable,
# --version, usage errors.
TESTS += gmmuctl-help
t-gmmuctl-help: $(GMMUCTL)
	tests/host/gmmuctl_help.sh $(GMMUCTL)

# gmmuctl's UPDATE_VA batches, pt-stats and status names on the simulated SoC.
TESTS += gmmuctl-update
t-gmmuctl-update: $(SIM_BIN) $(call FW_ELF,gmmu) $(GMMUCTL)
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/gmmuctl-update-sim.log -- \
	  tests/host/gmmuctl_update.sh $(GMMUCTL)

# make install into a temporary prefix; an example built with pkg-config alone.
# A plain `make`, not $(MAKE): make -n would run a recipe naming $(MAKE).
TESTS += install
t-install: $(LIBGMMU) $(LIBGMMU_SO) $(GMMUCTL)
	tests/host/test_install.sh make

# The Python binding (python/gmmu, ctypes over libgmmu.so) against the
# simulated SoC. It is used from the tree through PYTHONPATH, so no install
# step can leave the venv with a stale copy.
TESTS += python
t-python: $(SIM_BIN) $(call FW_ELF,gmmu) $(LIBGMMU_SO) $(PY_DEFS)
	tests/host/with_sim_server.sh $(SIM_BIN) $(call FW_ELF,gmmu) $(BUILD)/test/python-sim.log -- \
	  env PYTHONPATH=$(ROOT)/python GMMU_LIBRARY=$(LIBGMMU_SO) PYTHONDONTWRITEBYTECODE=1 \
	  $(PY) -m pytest -q -p no:cacheprovider tests/python

# make help names every user-facing target: each .PHONY target of the
# Makefile and tools/mk/*.mk but the tests (t-*) and the internal ones here.
HELP_INTERNAL := help test-run demo-run oc-soc-mhz synth-check
TESTS += help
t-help:
	@help=$$($(MAKE) --no-print-directory -s help); missing=; \
	for t in $$(sed -n 's/^\.PHONY: *//p' Makefile tools/mk/*.mk); do \
	  case " $(HELP_INTERNAL) " in *" $$t "*) continue ;; esac; \
	  case "$$t" in t-*) continue ;; esac; \
	  echo "$$help" | grep -Eq "(make|\|) $$t( |$$)" || missing="$$missing $$t"; \
	done; \
	[ -z "$$missing" ] || { echo "t-help: make help does not name:$$missing"; exit 1; }; \
	echo "t-help: make help names every user-facing target"
