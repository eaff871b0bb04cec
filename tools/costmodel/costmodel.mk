# tools/costmodel/costmodel.mk — the cost-model QEMU plugin and its host tests.
#
#   make costmodel                                   build/costmodel/libcostmodel.so
#   make -f tools/costmodel/costmodel.mk costmodel-tests   build and run the host tests
#
# Included from the top-level Makefile; also usable on its own (from the
# repo root).  The tests (tests/costmodel/) build into $(BUILD)/host-tests/ as
# test_costmodel_*, where `make host-tests` and `./hako test-all` find and
# count them with the other host tests.

BUILD ?= build
HOST_CC ?= gcc
CM_DIR := tools/costmodel
CM_OUT := $(BUILD)/costmodel
CM_MODEL_SRC := $(addprefix $(CM_DIR)/,profile.c cache.c stream.c tlb.c model.c regions.c sections.c decode.c decode_sh4.c sh4.c pcprof.c turns.c epochs.c vclock.c vclock_device.c hostwait.c options.c)
CM_HEADERS := $(wildcard $(CM_DIR)/*.h) kernel/uapi/hako_region.h kernel/uapi/hako_region_ids.h kernel/arch/x86_64/include/arch/layout.h

CM_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter
CM_PLUGIN := $(CM_OUT)/libcostmodel.so

CM_TEST_DIR := tests/costmodel
CM_TEST_OUT := $(BUILD)/host-tests
CM_TESTS := $(patsubst $(CM_TEST_DIR)/test_%.c,$(CM_TEST_OUT)/test_costmodel_%,$(sort $(wildcard $(CM_TEST_DIR)/test_*.c)))
CM_TEST_FLAGS := $(CM_CFLAGS) -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -Itests/host -Itests/include -I$(CM_DIR)

.PHONY: costmodel costmodel-tests-build costmodel-tests

costmodel: $(CM_PLUGIN)

# The plugin resolves QEMU's (and glib's) functions when QEMU loads it.
$(CM_PLUGIN): $(CM_MODEL_SRC) $(CM_DIR)/plugin.c $(CM_DIR)/plugin_x86.c $(CM_DIR)/plugin_sh4.c $(CM_DIR)/plugin_hostwait.c $(CM_HEADERS) $(CM_DIR)/costmodel.mk
	@mkdir -p $(@D)
	$(HOST_CC) $(CM_CFLAGS) -shared -fPIC -fvisibility=hidden -pthread -o $@ $(CM_DIR)/plugin.c $(CM_DIR)/plugin_x86.c $(CM_DIR)/plugin_sh4.c $(CM_DIR)/plugin_hostwait.c $(CM_MODEL_SRC)

$(CM_TEST_OUT)/test_costmodel_%: $(CM_TEST_DIR)/test_%.c $(CM_MODEL_SRC) $(CM_HEADERS) tests/host/check.h tests/include/checks.h $(CM_DIR)/costmodel.mk
	@mkdir -p $(@D)
	$(HOST_CC) $(CM_TEST_FLAGS) -o $@ $< $(CM_MODEL_SRC)

costmodel-tests-build: $(CM_TESTS)

# Every test binary runs even after a failure; the target fails if any did.
costmodel-tests: costmodel-tests-build
	@status=0; for t in $(CM_TESTS); do $$t || status=1; done; exit $$status
