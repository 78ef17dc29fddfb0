# series-builder's ABI, as everything here that calls it raw builds against
# it (abi/builder-spawn.h: libcompat's builder backend, the benchmark's
# builder methods, the fuzzer): the series' uapi headers first. Included by
# the top-level Makefile (cwd: the repository root), which installs the
# headers (vm/kernel-tree headers builder).

UAPI_INCLUDE_builder ?= build/uapi/builder/include

TESTS_OUT ?= build/tests

# series-builder's kselftests (its patch 18), from the series' worktree,
# against its uapi headers: $(TESTS_OUT)/spawn-selftests/spawn_builder_test,
# the ABI, settings and hazard tests and the 10,000-spawn stress test
# (vm/guest-check runs them apart: -T stress, -t stress); and the kernel's
# clone3 selftests from the same worktree (the series changes
# kernel/fork.c), for the series' own guest; the fuzzer (fuzz/fuzz.mk),
# which execs tiny and probe (common-tests/build.mk) next to it.
.PHONY: tests-builder
tests-builder: $(TESTS_OUT)/spawn-selftests/spawn_builder_test \
	$(TESTS_OUT)/clone3-selftests-builder/clone3 \
	$(TESTS_OUT)/builder-fuzz $(TESTS_OUT)/tiny $(TESTS_OUT)/probe

$(TESTS_OUT)/clone3-selftests-builder/clone3: $(UAPI_INCLUDE_builder)/linux/spawn.h build/src/.builder.applied
	@mkdir -p $(@D)
	$(call clone3_selftests,builder,$(UAPI_INCLUDE_builder))

$(TESTS_OUT)/spawn-selftests/spawn_builder_test: $(UAPI_INCLUDE_builder)/linux/spawn.h build/src/.builder.applied
	@mkdir -p $(@D)
	$(MAKE) -s -C build/src/builder/tools/testing/selftests/spawn \
		OUTPUT=$(abspath $(@D)) KHDR_INCLUDES="-isystem $(abspath $(UAPI_INCLUDE_builder))"

# the uapi directory comes first, before the system headers
BUILDER_CFLAGS := -I$(UAPI_INCLUDE_builder) -std=gnu11 -D_GNU_SOURCE -O2 -g \
	-Wall -Wextra -Werror

# libcompat's builder backend needs the series' uapi too, ahead of any other
# uapi directory (include this file after common-tests/build.mk and
# libcompat/shim/shim.mk, whose position-independent copy takes the same).
TESTS_OBJ ?= build/tests-obj
BUILDER_OBJS := $(TESTS_OBJ)/libcompat/builder.o $(SHIM_OBJ)/libcompat/builder.o
$(BUILDER_OBJS): TESTS_CFLAGS := -I$(UAPI_INCLUDE_builder) $(TESTS_CFLAGS)
$(BUILDER_OBJS): $(UAPI_INCLUDE_builder)/linux/spawn.h abi/builder-spawn.h
