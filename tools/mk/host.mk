# SPDX-License-Identifier: Apache-2.0
# Host side: libgmmu (static and shared library, gmmu.pc) and the gmmuctl
# CLI, and make install.

HOST_DIR     := $(BUILD)/host
LIBGMMU_SRCS := host/libgmmu/libgmmu.c host/libgmmu/transport.c \
                host/libgmmu/transport_sim.c host/libgmmu/transport_pci.c \
                host/libgmmu/transport_uart.c
LIBGMMU_SRCS += host/libgmmu/libgmmu_vidmm.c
LIBGMMU_OBJS := $(patsubst host/%.c,$(HOST_DIR)/obj/%.o,$(LIBGMMU_SRCS))
LIBGMMU      := $(HOST_DIR)/libgmmu.a
GMMUCTL      := $(HOST_DIR)/gmmuctl
HOST_APP_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -pthread -D_POSIX_C_SOURCE=200809L -Iinclude -Ihost/libgmmu

# The one version number (VERSION) reaches the library as gmmu_version.h,
# a generated header kept in the tree so that everything compiling libgmmu's
# sources (the unit tests too) sees it without a build directory; it is
# rewritten here when VERSION changes, and t-version fails if it is stale.
GMMU_VERSION       := $(shell cat VERSION)
GMMU_VERSION_MAJOR := $(word 1,$(subst ., ,$(GMMU_VERSION)))
# An absolute path, so that the test runner's first phase (which builds the
# absolute-path prerequisites) rewrites it before tests run side by side.
GMMU_VERSION_H     := $(ROOT)/host/libgmmu/gmmu_version.h

$(GMMU_VERSION_H): VERSION host/gen_version.sh
	@sh host/gen_version.sh VERSION >$@.tmp && { cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@; }

# The shared library: libgmmu.so.MAJOR is its soname, so a program built
# against 0.x keeps running with any later 0.y.
LIBGMMU_SONAME := libgmmu.so.$(GMMU_VERSION_MAJOR)
LIBGMMU_SO     := $(HOST_DIR)/libgmmu.so.$(GMMU_VERSION)

host: $(LIBGMMU) $(LIBGMMU_SO) $(GMMUCTL)

HOST_HDRS := $(GMMU_VERSION_H) $(wildcard host/libgmmu/*.h host/gmmuctl/*.h include/gmmu/*.h)

# The library's objects go into the shared library too, so they are
# position-independent; the static library gets the same objects.
$(LIBGMMU_OBJS): HOST_OBJ_CFLAGS := -fPIC

$(HOST_DIR)/obj/%.o: host/%.c $(HOST_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_APP_CFLAGS) $(HOST_OBJ_CFLAGS) -c -o $@ $<

$(LIBGMMU): $(LIBGMMU_OBJS)
	rm -f $@ && ar rcs $@ $^

# Only the gmmu_* functions are exported (host/libgmmu/libgmmu.map).
$(LIBGMMU_SO): $(LIBGMMU_OBJS) host/libgmmu/libgmmu.map
	$(HOST_CC) -shared -Wl,-soname,$(LIBGMMU_SONAME) -Wl,--version-script=host/libgmmu/libgmmu.map \
	  -Wl,-z,defs -o $@ $(LIBGMMU_OBJS) -pthread
	ln -sf $(notdir $@) $(HOST_DIR)/$(LIBGMMU_SONAME)
	ln -sf $(LIBGMMU_SONAME) $(HOST_DIR)/libgmmu.so

# gmmuctl links the static library, so an installed gmmuctl runs wherever
# it is put, whatever the loader's search path.
$(GMMUCTL): $(HOST_DIR)/obj/gmmuctl/gmmuctl.o $(HOST_DIR)/obj/gmmuctl/gmmuctl_vidmm.o \
            $(HOST_DIR)/obj/gmmuctl/gmmuctl_update.o $(LIBGMMU)
	$(HOST_CC) -pthread -o $@ $^

# Host suites run against a live simulation server, started and stopped
# around them by tests/host/with_sim_server.sh.
HOST_TESTS := test_mailbox test_vidmm_soc test_engine_soc test_sysmem_soc test_faults_soc test_e2e_soc test_hostile test_stale_soc test_fence_soc test_queue_soc \
              test_residency_soc test_pages_soc test_engine_fault_soc \
              test_aperture_soc test_order_soc
HOST_TEST_BINS := $(addprefix $(HOST_DIR)/,$(HOST_TESTS))
# The SoC suites share tests/host/soc_test_util.c (device, group, ENGINE_RUN).
HOST_SOC_TEST_BINS := $(filter %_soc,$(HOST_TEST_BINS))
$(HOST_SOC_TEST_BINS): HOST_TEST_UTIL := tests/host/soc_test_util.c
$(HOST_SOC_TEST_BINS): tests/host/soc_test_util.c tests/host/soc_test_util.h
$(HOST_TEST_BINS): $(HOST_DIR)/%: tests/host/%.c $(LIBGMMU) $(HOST_HDRS)
	$(HOST_CC) $(HOST_APP_CFLAGS) -o $@ $< $(HOST_TEST_UTIL) $(LIBGMMU) -lcmocka -pthread

# ---------------------------------------------------------------- install
# make install [PREFIX=/usr/local] [DESTDIR=staging]: the libraries, the
# public headers under include/gmmu/, gmmu.pc, gmmuctl and its man page.
# Programs then build with `pkg-config --cflags --libs gmmu` and include
# <gmmu/libgmmu.h>.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# libgmmu.h and what it includes; engine_regs.h for ENGINE_RUN's status bits.
GMMU_PUBLIC_HDRS := host/libgmmu/libgmmu.h host/libgmmu/libgmmu_vidmm.h \
                    host/libgmmu/gmmu_transport.h $(GMMU_VERSION_H) \
                    include/gmmu/defs_common.h include/gmmu/mailbox.h include/gmmu/mmu_regs.h \
                    include/gmmu/engine_regs.h

# gmmu.pc is written straight into the destination: it names PREFIX, and
# nothing in build/ should depend on which prefix was installed last.
install: $(LIBGMMU) $(LIBGMMU_SO) $(GMMUCTL) host/libgmmu/gmmu.pc.in
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(INCLUDEDIR)/gmmu $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(GMMUCTL) $(DESTDIR)$(BINDIR)/gmmuctl
	install -m 644 $(LIBGMMU) $(DESTDIR)$(LIBDIR)/libgmmu.a
	install -m 755 $(LIBGMMU_SO) $(DESTDIR)$(LIBDIR)/$(notdir $(LIBGMMU_SO))
	ln -sf $(notdir $(LIBGMMU_SO)) $(DESTDIR)$(LIBDIR)/$(LIBGMMU_SONAME)
	ln -sf $(LIBGMMU_SONAME) $(DESTDIR)$(LIBDIR)/libgmmu.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@VERSION@|$(GMMU_VERSION)|' host/libgmmu/gmmu.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/gmmu.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/gmmu.pc
	install -m 644 $(GMMU_PUBLIC_HDRS) $(DESTDIR)$(INCLUDEDIR)/gmmu/
	install -m 644 host/gmmuctl/gmmuctl.1 $(DESTDIR)$(MANDIR)/man1/gmmuctl.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gmmuctl $(DESTDIR)$(LIBDIR)/libgmmu.a \
	  $(DESTDIR)$(LIBDIR)/$(notdir $(LIBGMMU_SO)) $(DESTDIR)$(LIBDIR)/$(LIBGMMU_SONAME) \
	  $(DESTDIR)$(LIBDIR)/libgmmu.so $(DESTDIR)$(PKGCONFIGDIR)/gmmu.pc \
	  $(addprefix $(DESTDIR)$(INCLUDEDIR)/gmmu/,$(notdir $(GMMU_PUBLIC_HDRS))) \
	  $(DESTDIR)$(MANDIR)/man1/gmmuctl.1

.PHONY: host install uninstall
