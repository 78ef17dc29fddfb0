# series-liburing: liburing's side of series-iouring, a patch series against
# Debian's liburing source (vm/liburing-tree). Included by the top-level
# Makefile (cwd: the repository root), before docs/docs.mk.
#
#   make liburing          get the source (build/liburing), apply the series
#                          (build/src/liburing), build it in
#                          build/liburing-build and copy its tests
#                          test/clone-exec*.t to $(TESTS_OUT)/liburing/,
#                          which the iouring guest runs (vm/guest-check)
#   make export-liburing   the worktree's commits back into series-liburing/
#
# The project's io_uring code (libcompat's backend, the io_uring tests, the
# benchmark) uses the patched liburing: LIBURING_CFLAGS puts its headers
# first, and it links LIBURING_LIB, the static archive. Include this file
# before the makefiles that use them.

TESTS_OUT ?= build/tests
LIBURING_BUILD := build/liburing-build
LIBURING_LIB := $(LIBURING_BUILD)/src/liburing.a
LIBURING_CFLAGS := -I$(LIBURING_BUILD)/src/include
# the man pages the series adds (linted by make check-docs)
LIBURING_PAGES := $(addprefix build/src/liburing/man/io_uring_prep_,clone.3 clone_sigs.3 exec.3 \
	dup.3 dup_same.3 openat_fd.3 openat2_fd.3 close_range.3 resetids.3 setsid.3 setpgid.3 chdir.3 fchdir.3 umask.3 \
	sched.3 tcsetpgrp.3)

.PHONY: liburing export-liburing
liburing: $(TESTS_OUT)/liburing/.copied
tests-iouring: $(TESTS_OUT)/liburing/.copied

$(LIBURING_LIB): series-liburing/series $(wildcard series-liburing/*.patch) | deps
	@vm/liburing-tree build

# every test that vm/liburing-tree built, none left from an older series
$(TESTS_OUT)/liburing/.copied: $(LIBURING_LIB)
	rm -rf $(@D)
	mkdir -p $(@D)
	cp $(LIBURING_BUILD)/test/clone-exec*.t $(@D)/
	touch $@

$(LIBURING_PAGES): $(LIBURING_LIB)

export-liburing:
	@vm/liburing-tree export
