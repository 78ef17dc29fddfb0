# libcompat and the conformance corpus. Included by the top-level Makefile
# (make's cwd is the repository root); `make tests` builds into $(TESTS_OUT)
# everything the corpus needs at run time, so that the folder can be copied
# anywhere (into a guest) and run from there.

TESTS_OUT ?= build/tests
# objects and dependency files stay out of $(TESTS_OUT)
TESTS_OBJ ?= build/tests-obj
# kernel uapi headers for backends that need newer ones than /usr/include has;
# one backend alone can take its own with a target-specific variable:
#   $(TESTS_OBJ)/libcompat/NAME.o: TESTS_CFLAGS += -IDIR
UAPI_INCLUDE ?=

TESTS_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -MMD -MP \
	-Ilibcompat $(addprefix -I,$(UAPI_INCLUDE))
# Expanded when a recipe runs, after `deps` has installed pkg-config and
# criterion: never while make reads this file on a fresh machine.
CRITERION_CFLAGS = $(shell pkg-config --cflags criterion)
CRITERION_LIBS = $(shell pkg-config --libs criterion)
# libraries that libcompat's backends need (abi/iouring.mk adds)
LIBCOMPAT_LIBS :=

LIBCOMPAT_OBJS := $(patsubst %.c,$(TESTS_OBJ)/%.o,$(wildcard libcompat/*.c))
# the suites and their helpers, listed: other files here have builds of their own
CORPUS_SRCS := $(addprefix common-tests/,attrs.c basic.c errors.c files.c load.c path.c \
	report.c safety.c support.c)
CORPUS_OBJS := $(patsubst %.c,$(TESTS_OBJ)/%.o,$(CORPUS_SRCS))
PROGRAM_OBJS := $(patsubst %.c,$(TESTS_OBJ)/%.o,$(wildcard common-tests/programs/*.c))

.PHONY: tests
tests: $(addprefix $(TESTS_OUT)/,libcompat.a corpus probe tiny bigbss backends run-corpus run-reachable \
	pinned expected.txt guest-check)

$(LIBCOMPAT_OBJS) $(PROGRAM_OBJS): $(TESTS_OBJ)/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(TESTS_CFLAGS) -c -o $@ $<

$(CORPUS_OBJS): $(TESTS_OBJ)/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(TESTS_CFLAGS) $(CRITERION_CFLAGS) -c -o $@ $<

# errors::refusals_follow_features' table: a line of common-tests/features.txt,
# "BACKEND [FEATURE...]", becomes { "BACKEND", 0 | LACKS(FEATURE)... },
$(TESTS_OBJ)/common-tests/pinned-features.h: common-tests/features.txt
	@mkdir -p $(@D)
	awk '!/^#/ && NF { printf "{ \"%s\", 0", $$1; \
		for (i = 2; i <= NF; i++) printf " | LACKS(%s)", $$i; print " }," }' $< > $@
$(TESTS_OBJ)/common-tests/errors.o: $(TESTS_OBJ)/common-tests/pinned-features.h
$(TESTS_OBJ)/common-tests/errors.o: TESTS_CFLAGS += -I$(TESTS_OBJ)/common-tests

$(TESTS_OUT)/libcompat.a: $(LIBCOMPAT_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(TESTS_OUT)/corpus: $(CORPUS_OBJS) $(TESTS_OUT)/libcompat.a
	$(CC) -o $@ $^ $(CRITERION_LIBS) $(LIBCOMPAT_LIBS)

$(TESTS_OUT)/backends: $(TESTS_OBJ)/common-tests/programs/backends.o $(TESTS_OUT)/libcompat.a
	$(CC) -o $@ $^ $(LIBCOMPAT_LIBS)

# the children are static: quick to start in a guest, nothing to look up
$(TESTS_OUT)/probe $(TESTS_OUT)/tiny $(TESTS_OUT)/bigbss: $(TESTS_OUT)/%: $(TESTS_OBJ)/common-tests/programs/%.o
	@mkdir -p $(@D)
	$(CC) -static -o $@ $<

$(TESTS_OUT)/run-corpus $(TESTS_OUT)/run-reachable $(TESTS_OUT)/pinned: $(TESTS_OUT)/%: common-tests/%
	@mkdir -p $(@D)
	cp $< $@
	chmod 755 $@

# what runs inside a guest (vm/check-guest), staged beside the corpus
$(TESTS_OUT)/guest-check: vm/guest-check
	@mkdir -p $(@D)
	cp $< $@
	chmod 755 $@

$(TESTS_OUT)/expected.txt: common-tests/expected.txt
	@mkdir -p $(@D)
	cp $< $@

# The kernel's clone3 selftests, from the worktree of series $(1), compiled
# against its uapi headers $(2) (lib.mk takes KHDR_INCLUDES, not
# /usr/include), into the folder of the target: every series changes
# kernel/fork.c, and the guest of each runs them.
clone3_selftests = $(MAKE) -s -C build/src/$(1)/tools/testing/selftests/clone3 \
	OUTPUT=$(abspath $(@D)) KHDR_INCLUDES="-isystem $(abspath $(2))"

-include $(LIBCOMPAT_OBJS:.o=.d) $(CORPUS_OBJS:.o=.d) $(PROGRAM_OBJS:.o=.d)
