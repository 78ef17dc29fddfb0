# io_uring CLONE/EXEC tests of series-iouring. Included by the top-level
# Makefile (cwd: the repository root). Needs the series' uapi headers:
# the top-level Makefile installs them (vm/kernel-tree headers).
#
#   $(TESTS_OUT)/iouring-abi      criterion ABI tests (run in the guest)
#   $(TESTS_OUT)/iouring-stress   10,000 spawns, 4 threads, memory before/after
#   $(TESTS_OUT)/iouring-child    their exec target (static)
#
# liburing 2.3 carries its own copy of <linux/io_uring.h> under the same
# include guard: common-tests/iouring-spawn.h includes the series' header
# first so that liburing uses it, and fails to build if it is not ours.

TESTS_OUT ?= build/tests
UAPI_INCLUDE_iouring ?= build/uapi/iouring/include

# the uapi directory comes first, before the system headers
IOURING_CFLAGS := -I$(UAPI_INCLUDE_iouring) -std=gnu11 -D_GNU_SOURCE -O2 -g \
	-Wall -Wextra -Werror

.PHONY: tests-iouring
tests-iouring: $(TESTS_OUT)/iouring-abi $(TESTS_OUT)/iouring-stress \
	$(TESTS_OUT)/iouring-child $(TESTS_OUT)/clone3-selftests-iouring/clone3

$(TESTS_OUT)/clone3-selftests-iouring/clone3: $(UAPI_INCLUDE_iouring)/linux/io_uring.h
	@mkdir -p $(@D)
	$(call clone3_selftests,iouring,$(UAPI_INCLUDE_iouring))

$(TESTS_OUT)/iouring-abi: common-tests/iouring-abi.c common-tests/iouring-spawn.h \
		common-tests/proc-children.h common-tests/seccomp-filter.h common-tests/tracefs.h \
		$(UAPI_INCLUDE_iouring)/linux/io_uring.h
	@mkdir -p $(@D)
	$(CC) $(IOURING_CFLAGS) $$(pkg-config --cflags criterion liburing) -o $@ $< \
		$$(pkg-config --libs criterion liburing)

$(TESTS_OUT)/iouring-stress: common-tests/iouring-stress.c common-tests/iouring-spawn.h \
		$(UAPI_INCLUDE_iouring)/linux/io_uring.h
	@mkdir -p $(@D)
	$(CC) $(IOURING_CFLAGS) -static -pthread -o $@ $< -luring

$(TESTS_OUT)/iouring-child: common-tests/iouring-child.c
	@mkdir -p $(@D)
	$(CC) $(IOURING_CFLAGS) -static -o $@ $<

# libcompat's iouring backend needs the series' uapi too, ahead of any other
# uapi directory (include this file after common-tests/build.mk), and
# liburing: linked, as a static archive, into what links libcompat.
TESTS_OBJ ?= build/tests-obj
$(TESTS_OBJ)/libcompat/iouring.o: TESTS_CFLAGS := -I$(UAPI_INCLUDE_iouring) $(TESTS_CFLAGS)
$(TESTS_OBJ)/libcompat/iouring.o: $(UAPI_INCLUDE_iouring)/linux/io_uring.h \
	common-tests/iouring-spawn.h
LIBCOMPAT_LIBS += -l:liburing.a
