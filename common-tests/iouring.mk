# io_uring CLONE/EXEC tests of series-iouring. Included by the top-level
# Makefile (cwd: the repository root). Needs the series' uapi headers:
# the top-level Makefile installs them (vm/kernel-tree headers).
#
#   $(TESTS_OUT)/iouring-fuzz     seeded chains of CLONE and other requests,
#                                 invariants after each (execs tiny)
#   $(TESTS_OUT)/clone3-selftests-iouring/   the kernel's clone3 selftests,
#                                 from the series' worktree
#
# The series' ABI and stress tests are series-liburing's test programs
# (liburing.mk). The fuzzer uses series-liburing's liburing (liburing.mk:
# LIBURING_CFLAGS, LIBURING_LIB), whose io_uring_prep_clone() and
# io_uring_prep_exec*() are the prep helpers. liburing carries its own copy of <linux/io_uring.h>
# under the same include guard: common-tests/iouring-spawn.h includes the
# series' header first, so that the kernel's uapi is the one in force, and
# fails to build if it is not ours.

TESTS_OUT ?= build/tests
UAPI_INCLUDE_iouring ?= build/uapi/iouring/include

# the uapi directory comes first, before the system headers
IOURING_CFLAGS := -I$(UAPI_INCLUDE_iouring) $(LIBURING_CFLAGS) -std=gnu11 -D_GNU_SOURCE -O2 -g \
	-Wall -Wextra -Werror

# iouring-fuzz execs tiny (common-tests/build.mk), next to it
.PHONY: tests-iouring
tests-iouring: $(TESTS_OUT)/clone3-selftests-iouring/clone3 $(TESTS_OUT)/tiny \
	$(TESTS_OUT)/iouring-fuzz

$(TESTS_OUT)/clone3-selftests-iouring/clone3: $(UAPI_INCLUDE_iouring)/linux/io_uring.h
	@mkdir -p $(@D)
	$(call clone3_selftests,iouring,$(UAPI_INCLUDE_iouring))

$(TESTS_OUT)/iouring-fuzz: common-tests/iouring-fuzz.c common-tests/fuzz.h \
		common-tests/proc-children.h common-tests/iouring-spawn.h \
		$(UAPI_INCLUDE_iouring)/linux/io_uring.h $(LIBURING_LIB)
	@mkdir -p $(@D)
	$(CC) $(IOURING_CFLAGS) -static -pthread -o $@ $< $(LIBURING_LIB)

# make fuzz-iouring [FUZZ_SECONDS=600] [FUZZ_SEED=S]: the fuzzer in the iouring
# debug guest, a third of the time each single-threaded, in 4 threads with a
# waiter thread, and with SIGUSR1 storms besides; fails on a violation or a
# kernel splat (vm/run). `make fuzz` runs it and fuzz-clone-actions.
FUZZ_SECONDS ?= 600
FUZZ_SEED ?=
.PHONY: fuzz-iouring
fuzz-iouring: kernel-iouring tests
	vm/run --kernel iouring --timeout $$(( $(FUZZ_SECONDS) + 300 )) --add $(TESTS_OUT) -- \
		tests/iouring-fuzz --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

# libcompat's iouring backend needs the series' uapi too, ahead of any other
# uapi directory (include this file after common-tests/build.mk), and the
# patched liburing: linked, as a static archive, into what links libcompat.
TESTS_OBJ ?= build/tests-obj
$(TESTS_OBJ)/libcompat/iouring.o: TESTS_CFLAGS := -I$(UAPI_INCLUDE_iouring) $(LIBURING_CFLAGS) \
	$(TESTS_CFLAGS)
$(TESTS_OBJ)/libcompat/iouring.o: $(UAPI_INCLUDE_iouring)/linux/io_uring.h \
	common-tests/iouring-spawn.h $(LIBURING_LIB)
LIBCOMPAT_LIBS += $(LIBURING_LIB)
