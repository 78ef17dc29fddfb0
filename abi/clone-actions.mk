# series-clone-actions' ABI, as everything here that calls it raw builds
# against it (abi/: libcompat's clone-actions backend, the benchmark's
# clone-actions-raw method, the fuzzer; each includes
# abi/clone-actions-spawn.h): the series' uapi headers first; and the
# clone3() CLONE_ACTIONS tests of series-clone-actions. Included by the
# top-level Makefile (cwd: the repository root). Needs the series' uapi
# headers: the top-level Makefile installs them (vm/kernel-tree headers).
#
#   $(TESTS_OUT)/clone3-selftests/      the kernel's clone3 selftests, from
#                                       the series' worktree: upstream's (no
#                                       regression) and the series' own,
#                                       clone3_actions (the ABI and hazard
#                                       tests) and clone3_actions_stress
#                                       (10,000 spawns); both exec /bin/true
#                                       and themselves, clone3_actions also
#                                       clone3_actions_bigbss beside it
#   $(TESTS_OUT)/clone-actions-fuzz     the action-list fuzzer (fuzz/fuzz.mk)

TESTS_OUT ?= build/tests
UAPI_INCLUDE_clone_actions ?= build/uapi/clone-actions/include

# the uapi directory comes first, before the system headers
CLONE_ACTIONS_CFLAGS := -I$(UAPI_INCLUDE_clone_actions) -std=gnu11 -D_GNU_SOURCE -O2 -g \
	-Wall -Wextra -Werror

.PHONY: tests-clone-actions
tests-clone-actions: $(TESTS_OUT)/clone-actions-fuzz $(TESTS_OUT)/clone3-selftests/clone3

$(TESTS_OUT)/clone3-selftests/clone3: $(UAPI_INCLUDE_clone_actions)/linux/sched.h build/src/.clone-actions.applied
	@mkdir -p $(@D)
	$(call clone3_selftests,clone-actions,$(UAPI_INCLUDE_clone_actions))

# libcompat's clone-actions backend needs the series' uapi too, ahead of any
# other uapi directory (include this file after common-tests/build.mk and
# libcompat/shim/shim.mk, whose position-independent copy takes the same).
TESTS_OBJ ?= build/tests-obj
CLONE_ACTIONS_OBJS := $(TESTS_OBJ)/libcompat/clone-actions.o $(SHIM_OBJ)/libcompat/clone-actions.o
$(CLONE_ACTIONS_OBJS): TESTS_CFLAGS := -I$(UAPI_INCLUDE_clone_actions) $(TESTS_CFLAGS)
$(CLONE_ACTIONS_OBJS): $(UAPI_INCLUDE_clone_actions)/linux/sched.h \
	abi/clone-actions-spawn.h
