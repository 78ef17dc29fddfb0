# series-iouring's ABI, as everything here that calls it raw builds
# against it (abi/: libcompat's iouring backend, the benchmark's
# iouring-raw method, the fuzzer; each includes abi/iouring-spawn.h): the
# series' uapi headers first, then series-liburing's liburing; and the
# io_uring CLONE/EXEC tests of series-iouring. Included by the top-level
# Makefile (cwd: the repository root). Needs the series' uapi headers:
# the top-level Makefile installs them (vm/kernel-tree headers).
#
#   $(TESTS_OUT)/clone3-selftests-iouring/   the kernel's clone3 selftests,
#                                 from the series' worktree
#
# The series' ABI and stress tests are series-liburing's test programs
# (liburing.mk); its fuzzer is fuzz/iouring-fuzz.c (fuzz/fuzz.mk), which,
# like libcompat's backend, uses series-liburing's liburing (liburing.mk:
# LIBURING_CFLAGS, LIBURING_LIB), whose io_uring_prep_clone() and
# io_uring_prep_exec*() are the prep helpers. liburing carries its own copy of <linux/io_uring.h>
# under the same include guard: abi/iouring-spawn.h includes the
# series' header first, so that the kernel's uapi is the one in force, and
# fails to build if it is not ours.

TESTS_OUT ?= build/tests
UAPI_INCLUDE_iouring ?= build/uapi/iouring/include

# the uapi directory comes first, before the system headers
IOURING_CFLAGS := -I$(UAPI_INCLUDE_iouring) $(LIBURING_CFLAGS) -std=gnu11 -D_GNU_SOURCE -O2 -g \
	-Wall -Wextra -Werror

# the fuzzer execs tiny (common-tests/build.mk), next to it
.PHONY: tests-iouring
tests-iouring: $(TESTS_OUT)/clone3-selftests-iouring/clone3 $(TESTS_OUT)/tiny \
	$(TESTS_OUT)/iouring-fuzz

$(TESTS_OUT)/clone3-selftests-iouring/clone3: $(UAPI_INCLUDE_iouring)/linux/io_uring.h build/src/.iouring.applied
	@mkdir -p $(@D)
	$(call clone3_selftests,iouring,$(UAPI_INCLUDE_iouring))

# libcompat's iouring backend needs the series' uapi too, ahead of any other
# uapi directory (include this file after common-tests/build.mk and
# libcompat/shim/shim.mk, whose position-independent copy takes the same), and the
# patched liburing: linked, as a static archive, into what links libcompat.
TESTS_OBJ ?= build/tests-obj
IOURING_OBJS := $(TESTS_OBJ)/libcompat/iouring.o $(SHIM_OBJ)/libcompat/iouring.o
$(IOURING_OBJS): TESTS_CFLAGS := -I$(UAPI_INCLUDE_iouring) $(LIBURING_CFLAGS) $(TESTS_CFLAGS)
$(IOURING_OBJS): $(UAPI_INCLUDE_iouring)/linux/io_uring.h \
	abi/iouring-spawn.h $(LIBURING_LIB)
LIBCOMPAT_LIBS += $(LIBURING_LIB)
