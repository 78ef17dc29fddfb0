# series-builder's ABI, as everything here that calls it raw builds against
# it (abi/builder-spawn.h: libcompat's builder backend, the benchmark's
# builder methods, the fuzzer): the series' uapi headers first. Included by
# the top-level Makefile (cwd: the repository root), which installs the
# headers (vm/kernel-tree headers builder).

UAPI_INCLUDE_builder ?= build/uapi/builder/include

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
