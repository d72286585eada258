# SPDX-License-Identifier: Apache-2.0
# VidMm command layer (firmware/lib/vidmm*.c) on the simulated platform of
# tests/fuzz/vidmm_sim.c, with the limits the firmware ships with.
VIDMM_TEST_SRCS := tests/fuzz/vidmm_sim.c firmware/lib/vidmm.c firmware/lib/vidmm_cmds.c \
                   firmware/lib/ptmgr.c firmware/lib/va_alloc.c firmware/lib/vram_alloc.c \
                   firmware/lib/backing_pool.c firmware/lib/aperture_alloc.c \
                   tests/model/gmmu_ref.c

UNIT_TESTS += vidmm
vidmm_SRCS := tests/unit/test_vidmm.c $(VIDMM_TEST_SRCS)
vidmm_CFLAGS := -Itests/fuzz

# Randomized differential test of the commands against a page model.
UNIT_TESTS += vidmm_diff
vidmm_diff_SRCS := tests/unit/test_vidmm_diff.c $(VIDMM_TEST_SRCS)
vidmm_diff_CFLAGS := -Itests/fuzz

# Residency (issue 28): placements, over-commit, MAKE_RESIDENT/EVICT, moves.
UNIT_TESTS += vidmm_residency
vidmm_residency_SRCS := tests/unit/test_vidmm_residency.c $(VIDMM_TEST_SRCS)
vidmm_residency_CFLAGS := -Itests/fuzz

# System-memory allocations as page lists (issue 29): ALLOC_PAGES.
UNIT_TESTS += vidmm_pages
vidmm_pages_SRCS := tests/unit/test_vidmm_pages.c $(VIDMM_TEST_SRCS)
vidmm_pages_CFLAGS := -Itests/fuzz

# A longer run of the differential test, outside make test: a million
# commands (VIDMM_DIFF_SEED picks another sequence).
.PHONY: soak-vidmm_diff
soak-vidmm_diff: $(BUILD)/unit/vidmm_diff
	VIDMM_DIFF_OPS=1000000 $<

# The aperture segment (issue 29): its offset allocator, and vidmm mapping
# AccessedPhysically system allocations into it.
UNIT_TESTS += aperture
aperture_SRCS := tests/unit/test_aperture.c $(VIDMM_TEST_SRCS)
aperture_CFLAGS := -Itests/fuzz
