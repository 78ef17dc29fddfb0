# clone3() CLONE_ACTIONS tests of series-clone-actions. Included by the
# top-level Makefile (cwd: the repository root). Needs the series' uapi
# headers: the top-level Makefile installs them (vm/kernel-tree headers).
#
#   $(TESTS_OUT)/clone-actions-abi      criterion ABI tests (run in the guest)
#   $(TESTS_OUT)/clone-actions-stress   10,000 spawns, memory before/after
#   $(TESTS_OUT)/clone3-selftests/      the kernel's own clone3 selftests, from
#                                       the series' worktree (no regression)
# Both exec $(TESTS_OUT)/probe (common-tests/build.mk) and /bin/true.

TESTS_OUT ?= build/tests
UAPI_INCLUDE_clone_actions ?= build/uapi/clone-actions/include

# the uapi directory comes first, before the system headers
CLONE_ACTIONS_CFLAGS := -I$(UAPI_INCLUDE_clone_actions) -std=gnu11 -D_GNU_SOURCE -O2 -g \
	-Wall -Wextra -Werror

.PHONY: tests-clone-actions
tests-clone-actions: $(TESTS_OUT)/clone-actions-abi $(TESTS_OUT)/clone-actions-stress \
	$(TESTS_OUT)/clone3-selftests/clone3

$(TESTS_OUT)/clone3-selftests/clone3: $(UAPI_INCLUDE_clone_actions)/linux/sched.h
	@mkdir -p $(@D)
	$(call clone3_selftests,clone-actions,$(UAPI_INCLUDE_clone_actions))

$(TESTS_OUT)/clone-actions-abi: common-tests/clone-actions-abi.c common-tests/proc-children.h \
		common-tests/clone-actions-spawn.h $(UAPI_INCLUDE_clone_actions)/linux/sched.h
	@mkdir -p $(@D)
	$(CC) $(CLONE_ACTIONS_CFLAGS) $$(pkg-config --cflags criterion) -o $@ $< \
		$$(pkg-config --libs criterion) -lpthread

$(TESTS_OUT)/clone-actions-stress: common-tests/clone-actions-stress.c \
		common-tests/clone-actions-spawn.h $(UAPI_INCLUDE_clone_actions)/linux/sched.h
	@mkdir -p $(@D)
	$(CC) $(CLONE_ACTIONS_CFLAGS) -static -o $@ $<

# libcompat's clone-actions backend needs the series' uapi too, ahead of any
# other uapi directory (include this file after common-tests/build.mk).
TESTS_OBJ ?= build/tests-obj
$(TESTS_OBJ)/libcompat/clone-actions.o: TESTS_CFLAGS := -I$(UAPI_INCLUDE_clone_actions) $(TESTS_CFLAGS)
$(TESTS_OBJ)/libcompat/clone-actions.o: $(UAPI_INCLUDE_clone_actions)/linux/sched.h \
	common-tests/clone-actions-spawn.h
