# SPDX-License-Identifier: Apache-2.0
# Tests that the firmware builds and runs with either C library (docs/libc.md).
#
# LIBC picks the firmware build directory, so a test runs under the other
# library through a sub-make: t-NAME-newlib runs t-NAME with LIBC=newlib
# (and t-NAME-picolibc with picolibc), for any sim test NAME.

TESTS += heap boot-newlib heap-newlib newlib-cached mailbox-newlib

t-%-newlib:
	@$(MAKE) --no-print-directory LIBC=newlib t-$*

t-%-picolibc:
	@$(MAKE) --no-print-directory LIBC=picolibc t-$*

# malloc past the heap must fail with ENOMEM and leave the stack alone.
t-heap: $(SIM_BIN) $(call FW_ELF,test_heap)
	$(EXPECT) --rc 0 --grep '^test_heap: PASS' --grep 'firmware exit code 0' \
	  -- $(SIM_BIN) --max-cycles 5000000 $(call FW_ELF,test_heap)

# Runs after a newlib build (boot-newlib): the next one must reuse it. The
# cached library is its prerequisite, so that tools/testrun.sh, which starts
# each test once its files are built, starts it after that build.
NEWLIB_LIBC_A := $(shell bash tools/build_newlib.sh --prefix)/lib/libc.a
ifneq ($(LIBC),newlib)
$(NEWLIB_LIBC_A):
	@bash tools/build_newlib.sh
endif
t-newlib-cached: $(NEWLIB_LIBC_A)
	@out=$$(bash tools/build_newlib.sh) && echo "$$out" && \
	  echo "$$out" | grep -q '^newlib: using cached build at '

# Builds newlib now (or reports the cached build).
newlib:
	@bash tools/build_newlib.sh
.PHONY: newlib
