# The three fuzzers (fuzz/), included by the top-level Makefile after
# abi/iouring.mk, abi/clone-actions.mk and abi/builder.mk, whose flags
# (the series' uapi headers first) they use. Neither the shared corpus nor
# a series' own tests: they drive one ABI each with input made from a
# seed and check invariants after every call.
#
#   $(TESTS_OUT)/clone-actions-fuzz   clone_args and action lists
#   $(TESTS_OUT)/iouring-fuzz         chains of CLONE and other requests
#   $(TESTS_OUT)/builder-fuzz         process builders, from open to close
#
# They exec $(TESTS_OUT)/tiny (common-tests/build.mk), next to them, and
# builder-fuzz probe too; make check's guests run each twice for 30 s
# (FUZZ_SECONDS in vm/guest-check) and replay calls once flagged.

$(TESTS_OUT)/clone-actions-fuzz: fuzz/clone-actions-fuzz.c fuzz/fuzz.h \
		testlib/proc-children.h abi/clone-actions-spawn.h \
		$(UAPI_INCLUDE_clone_actions)/linux/sched.h
	@mkdir -p $(@D)
	$(CC) $(CLONE_ACTIONS_CFLAGS) -static -o $@ $< -lpthread

$(TESTS_OUT)/iouring-fuzz: fuzz/iouring-fuzz.c fuzz/fuzz.h \
		testlib/proc-children.h abi/iouring-spawn.h \
		$(UAPI_INCLUDE_iouring)/linux/io_uring.h $(LIBURING_LIB)
	@mkdir -p $(@D)
	$(CC) $(IOURING_CFLAGS) -static -pthread -o $@ $< $(LIBURING_LIB)

$(TESTS_OUT)/builder-fuzz: fuzz/builder-fuzz.c fuzz/fuzz.h testlib/proc-children.h \
		abi/builder-spawn.h $(UAPI_INCLUDE_builder)/linux/spawn.h
	@mkdir -p $(@D)
	$(CC) $(BUILDER_CFLAGS) -static -o $@ $< -lpthread

# make fuzz-SERIES [FUZZ_SECONDS=600] [FUZZ_SEED=S]: the series' fuzzer in
# its debug guest, a third of the time each single-threaded, in 4 threads
# with a waiting thread, and with SIGUSR1 storms besides; fails on a
# violation or a kernel splat (vm/run). Without FUZZ_SEED the fuzzer picks a
# seed and prints it. `make fuzz` runs the three.
FUZZ_SECONDS ?= 600
FUZZ_SEED ?=
.PHONY: $(addprefix fuzz-,$(SERIES))
$(addprefix fuzz-,$(SERIES)): fuzz-%: kernel-% tests
	vm/run --kernel $* --timeout $$(( $(FUZZ_SECONDS) + 300 )) --add $(TESTS_OUT) -- \
		tests/$*-fuzz --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))
