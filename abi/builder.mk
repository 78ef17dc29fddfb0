# series-builder's ABI, as everything here that calls it raw builds against
# it (abi/builder-spawn.h: libcompat's builder backend, the benchmark's
# builder methods, the fuzzer): the series' uapi headers first. Included by
# the top-level Makefile (cwd: the repository root), which installs the
# headers (vm/kernel-tree headers builder).

UAPI_INCLUDE_builder ?= build/uapi/builder/include

# the uapi directory comes first, before the system headers
BUILDER_CFLAGS := -I$(UAPI_INCLUDE_builder) -std=gnu11 -D_GNU_SOURCE -O2 -g \
	-Wall -Wextra -Werror

# what a guest runs of it: the fuzzer (fuzz/fuzz.mk), which execs tiny and
# probe (common-tests/build.mk) next to it
TESTS_OUT ?= build/tests
.PHONY: tests-builder
tests-builder: $(TESTS_OUT)/builder-fuzz $(TESTS_OUT)/tiny $(TESTS_OUT)/probe
