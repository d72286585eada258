# SPDX-License-Identifier: Apache-2.0
# Fuzzing (libFuzzer, clang): the VidMm mailbox handlers; the fences, engine
# job queues and update queue.
#
#   make fuzz-vidmm                 fuzz for FUZZ_TIME seconds (default 600),
#                                   keeping the corpus in build/fuzz/corpus-vidmm
#   make t-fuzz-vidmm               the short run `make test` does
#   make fuzz-queues, t-fuzz-queues the same for fuzz_queues (corpus-queues)
#
# A failing input is saved as build/fuzz/crash-*; replay it with
# build/fuzz/fuzz_vidmm FILE (fuzz_queues: FUZZ_QUEUES_TRACE=1 prints each
# step and answer).
#
# The harness is built with small VidMm limits so every pool runs out.

FUZZ_CC     ?= clang
FUZZ_DIR    := $(BUILD)/fuzz
FUZZ_TIME   ?= 600
FUZZ_RUNS   ?= 20000
FUZZ_LIMITS := -DVIDMM_MAX_AS=8 -DVIDMM_MAX_ALLOCS=16 -DVIDMM_MAX_EXTENTS=48 \
               -DVIDMM_ALLOC_EXTENTS=8 -DVIDMM_MAX_RECORDS=24
FUZZ_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
               -Iinclude -Ifirmware/lib -Itests/model -Itests/fuzz $(FUZZ_LIMITS)
FUZZ_VIDMM_SRCS := tests/fuzz/fuzz_vidmm.c tests/fuzz/vidmm_sim.c firmware/lib/vidmm.c \
                   firmware/lib/vidmm_cmds.c firmware/lib/ptmgr.c firmware/lib/va_alloc.c \
                   firmware/lib/vram_alloc.c firmware/lib/backing_pool.c firmware/lib/aperture_alloc.c \
                   tests/model/gmmu_ref.c

.PHONY: fuzz-vidmm

$(FUZZ_DIR)/fuzz_vidmm: $(FUZZ_VIDMM_SRCS) $(wildcard include/gmmu/*.h firmware/lib/*.h tests/model/*.h tests/fuzz/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_VIDMM_SRCS)

# Hand-made command sequences that reach deep states (tiles, recycling).
$(FUZZ_DIR)/seeds-vidmm: tests/fuzz/vidmm_seeds.py
	rm -rf $@ && python3 $< $@

# A fixed seed, run count and starting corpus: the same inputs every time.
TESTS += fuzz-vidmm
t-fuzz-vidmm: $(FUZZ_DIR)/fuzz_vidmm $(FUZZ_DIR)/seeds-vidmm tests/fuzz/vidmm.dict
	rm -rf $(FUZZ_DIR)/smoke-vidmm && mkdir -p $(FUZZ_DIR)/smoke-vidmm
	$< -seed=1 -runs=$(FUZZ_RUNS) -max_len=2048 -dict=tests/fuzz/vidmm.dict -artifact_prefix=$(FUZZ_DIR)/ \
	  $(FUZZ_DIR)/smoke-vidmm $(FUZZ_DIR)/seeds-vidmm

fuzz-vidmm: $(FUZZ_DIR)/fuzz_vidmm $(FUZZ_DIR)/seeds-vidmm
	@mkdir -p $(FUZZ_DIR)/corpus-vidmm
	$< -max_total_time=$(FUZZ_TIME) -max_len=4096 -print_final_stats=1 -dict=tests/fuzz/vidmm.dict \
	  -artifact_prefix=$(FUZZ_DIR)/ \
	  $(FUZZ_DIR)/corpus-vidmm $(FUZZ_DIR)/seeds-vidmm

# The fences, the engine job queues and the update queue together, over a
# fake engine and a fake apply, against a model (tests/fuzz/fuzz_queues.c).
FUZZ_QUEUES_SRCS := tests/fuzz/fuzz_queues.c firmware/lib/fence.c firmware/lib/engine_queue.c \
                    firmware/lib/update_queue.c
FUZZ_QUEUES_RUNS ?= 20000

.PHONY: fuzz-queues

$(FUZZ_DIR)/fuzz_queues: $(FUZZ_QUEUES_SRCS) $(wildcard include/gmmu/*.h firmware/lib/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_QUEUES_SRCS)

$(FUZZ_DIR)/seeds-queues: tests/fuzz/queues_seeds.py
	rm -rf $@ && python3 $< $@

TESTS += fuzz-queues
t-fuzz-queues: $(FUZZ_DIR)/fuzz_queues $(FUZZ_DIR)/seeds-queues tests/fuzz/queues.dict
	rm -rf $(FUZZ_DIR)/smoke-queues && mkdir -p $(FUZZ_DIR)/smoke-queues
	$< -seed=1 -runs=$(FUZZ_QUEUES_RUNS) -max_len=1024 -dict=tests/fuzz/queues.dict \
	  -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/smoke-queues $(FUZZ_DIR)/seeds-queues

fuzz-queues: $(FUZZ_DIR)/fuzz_queues $(FUZZ_DIR)/seeds-queues tests/fuzz/queues.dict
	@mkdir -p $(FUZZ_DIR)/corpus-queues
	$< -max_total_time=$(FUZZ_TIME) -max_len=2048 -print_final_stats=1 -dict=tests/fuzz/queues.dict \
	  -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/corpus-queues $(FUZZ_DIR)/seeds-queues
