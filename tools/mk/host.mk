# Host side: libgmmu (static library) and the gmmuctl CLI.

HOST_DIR     := $(BUILD)/host
LIBGMMU_SRCS := host/libgmmu/libgmmu.c host/libgmmu/transport.c \
                host/libgmmu/transport_sim.c host/libgmmu/transport_pci.c \
                host/libgmmu/transport_uart.c
LIBGMMU_SRCS += host/libgmmu/libgmmu_vidmm.c
LIBGMMU      := $(HOST_DIR)/libgmmu.a
GMMUCTL      := $(HOST_DIR)/gmmuctl
HOST_APP_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -pthread -D_POSIX_C_SOURCE=200809L -Iinclude -Ihost/libgmmu

host: $(LIBGMMU) $(GMMUCTL)

$(HOST_DIR)/obj/%.o: host/%.c $(wildcard host/libgmmu/*.h host/gmmuctl/*.h include/gmmu/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_APP_CFLAGS) -c -o $@ $<

$(LIBGMMU): $(patsubst host/%.c,$(HOST_DIR)/obj/%.o,$(LIBGMMU_SRCS))
	rm -f $@ && ar rcs $@ $^

$(GMMUCTL): $(HOST_DIR)/obj/gmmuctl/gmmuctl.o $(HOST_DIR)/obj/gmmuctl/gmmuctl_vidmm.o $(LIBGMMU)
	$(HOST_CC) -pthread -o $@ $^

# Host suites run against a live simulation server, started and stopped
# around them by tests/host/with_sim_server.sh.
HOST_TESTS := test_mailbox test_vidmm_soc test_engine_soc test_sysmem_soc test_faults_soc test_e2e_soc
HOST_TEST_BINS := $(addprefix $(HOST_DIR)/,$(HOST_TESTS))
$(HOST_TEST_BINS): $(HOST_DIR)/%: tests/host/%.c $(LIBGMMU) $(wildcard host/libgmmu/*.h include/gmmu/*.h)
	$(HOST_CC) $(HOST_APP_CFLAGS) -o $@ $< $(LIBGMMU) -lcmocka -pthread
