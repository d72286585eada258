# SPDX-License-Identifier: Apache-2.0
# Host-side unit tests (cmocka), built with sanitizers.
#
# Each tests/unit/<name>.mk fragment adds one test:
#     UNIT_TESTS += <name>
#     <name>_SRCS := tests/unit/test_<name>.c firmware/lib/<module>.c ...
# and may set <name>_CFLAGS. The binary is build/unit/<name>.

HOST_CC      ?= gcc
HOST_CFLAGS  := -std=c11 -g -O1 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
                -fsanitize=address,undefined -fno-omit-frame-pointer \
                -Iinclude -Ifirmware/lib -Itests/model
HOST_LDFLAGS := -fsanitize=address,undefined
UNIT_TESTS   :=

include $(wildcard tests/unit/*.mk)

UNIT_BINS := $(addprefix $(BUILD)/unit/,$(UNIT_TESTS))

define unit_rule
$(BUILD)/unit/$(1): $$($(1)_SRCS) $$(wildcard include/gmmu/*.h firmware/lib/*.h tests/model/*.h tests/unit/*.h)
	@mkdir -p $$(@D)
	$$(HOST_CC) $$(HOST_CFLAGS) $$($(1)_CFLAGS) -o $$@ $$($(1)_SRCS) $$(HOST_LDFLAGS) -lcmocka
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_rule,$(t))))

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done
