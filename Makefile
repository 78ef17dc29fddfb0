# spawnlab: two kernel spawn ABIs, one test corpus, one report.
# make check     the tests (host corpus, harness self-test, corpus and both
#                series' tests in the debug kernel carrying both series,
#                benchmark smoke test), summary and build/results/matrix.md
# make check-series  each series alone in its own debug kernel (make report
#                runs it too)
# make report    the A/B report: release kernels, benchmarks, build/report/REPORT.md
# make check-fresh  the two commands' prerequisites proved in a debootstrap root
# See README.md.

SERIES := iouring clone-actions builder
# The debug kernel of make check: both series in one kernel (vm/kernel-tree's
# "combined"), so that a fresh machine builds one debug kernel, not two.
CHECK_KERNEL := combined
TESTS_OUT ?= build/tests
# Each kernel backend compiles against its own series' uapi headers, which
# vm/kernel-tree installs from the worktree without building a kernel.
UAPI_INCLUDE_iouring ?= build/uapi/iouring/include
UAPI_INCLUDE_clone_actions ?= build/uapi/clone-actions/include
UAPI_INCLUDE_builder ?= build/uapi/builder/include

.PHONY: all deps check check-host check-harness kernels kernels-release \
	check-deps check-report check-fresh check-series tests $(addprefix check-guest-,$(SERIES) combined) \
	$(addprefix kernel-,$(SERIES) combined) \
	$(addprefix export-,$(SERIES)) $(addprefix tree-,$(SERIES)) clean-results \
	report bench bench-smoke check-bench fuzz

all: kernels tests

deps:
	@vm/install-deps

include liburing.mk
include common-tests/build.mk
include libcompat/shim/shim.mk
include common-tests/clients/clients.mk
include common-tests/mutants.mk
include abi/iouring.mk abi/clone-actions.mk abi/builder.mk
include fuzz/fuzz.mk
include bench/bench.mk
include docs/docs.mk

# Everything a guest runs: the corpus, each series' ABI and stress tests.
tests: tests-iouring tests-clone-actions tests-builder | deps

$(UAPI_INCLUDE_iouring)/linux/io_uring.h: build/src/.iouring.applied | deps
	@vm/kernel-tree headers iouring
$(UAPI_INCLUDE_clone_actions)/linux/sched.h: build/src/.clone-actions.applied | deps
	@vm/kernel-tree headers clone-actions
$(UAPI_INCLUDE_builder)/linux/spawn.h: build/src/.builder.applied | deps
	@vm/kernel-tree headers builder

# Each series' worktree, applied (vm/kernel-tree's stamp): its uapi
# headers install from it, and the kernel's selftests build from it, also
# when the uapi headers come from elsewhere (make report takes the release
# kernel's). One rule applies, so that make -j never runs two at once.
.SECONDEXPANSION:
$(SERIES:%=build/src/.%.applied): build/src/.%.applied: series-%/series $$(wildcard series-%/*.patch) | deps
	@vm/kernel-tree apply $*

# Kernels: vm/build-kernel applies the series and builds incrementally.
# (Static pattern rules: make applies no implicit rule to a .PHONY target.)
$(addprefix kernel-,$(SERIES) combined): kernel-%: deps
	@vm/build-kernel $* debug
kernels: $(addprefix kernel-,$(SERIES) combined)
kernels-release: deps
	@for s in $(SERIES) combined; do vm/build-kernel $$s release || exit 1; done

# Worktrees: build/src/SERIES with series-SERIES applied; export after work.
$(addprefix tree-,$(SERIES)): tree-%: deps
	@vm/kernel-tree apply $*
$(addprefix export-,$(SERIES)): export-%:
	@vm/kernel-tree export $*

check-host: deps tests
	@rm -rf build/results/host
	@echo "== corpus on the host ($$(uname -r))"
	@mkdir -p build/results/host && printf 'version=%s\nplace=host\n' "$$(uname -r)" > build/results/host/kernel
	@status=0; $(TESTS_OUT)/run-corpus build/results/host || status=1; \
	echo "== the posix_spawn shim on the host, against glibc"; \
	$(TESTS_OUT)/shimtest build/results/host || status=1; \
	echo "== real clients on the host, under plain glibc and under the shim"; \
	$(TESTS_OUT)/run-clients build/results/host posix vfork || status=1; \
	exit $$status

# Every command the scripts run is installed by vm/install-deps (vm/deps) or
# comes with every Debian root; the checker's own tests first.
check-deps: deps
	@echo "== dependencies (vm/check-deps)"
	@mkdir -p build/results/deps
	@vm/check-deps --self-test --tap build/results/deps/selftest.tap
	@vm/check-deps --tap build/results/deps/commands.tap

# bench/report.pl's decision brief against a report of known figures
# (bench/report-fixture/): every cell, its link, the findings, and "not
# measured" where the data is missing.
check-report: deps
	@echo "== the report's decision brief (bench/report-selftest)"
	@mkdir -p build/results/report
	@bench/report-selftest --tap build/results/report/selftest.tap

# Not in make check: a debootstrap root, README's prerequisites, a clone,
# then check-deps, check-host and check-harness in it (about half an hour).
check-fresh:
	@vm/check-fresh

check-harness: kernel-$(CHECK_KERNEL)
	@echo "== harness self-test (vm/run on $(CHECK_KERNEL)-debug)"
	@vm/selftest $(CHECK_KERNEL)

$(addprefix check-guest-,$(SERIES) combined): check-guest-%: kernel-% tests guest-clients
	@echo "== corpus in the $*-debug guest"
	@vm/check-guest $*

# Runs every part even when one fails, then prints the summary.
check: deps
	@rm -rf build/results; status=0; \
	for t in check-deps check-docs check-report check-host mutants crippled check-harness check-guest-$(CHECK_KERNEL) check-bench; do \
		$(MAKE) --no-print-directory $$t || status=1; \
	done; \
	echo "== summary (matrix: build/results/matrix.md)"; \
	vm/tap-summary build/results || status=1; \
	exit $$status

# Each series' fuzzer in its debug guest, FUZZ_SECONDS each (600), with
# FUZZ_SEED if given; each runs even when one before it fails.
fuzz:
	@status=0; for t in fuzz-clone-actions fuzz-iouring fuzz-builder; do \
		$(MAKE) --no-print-directory $$t || status=1; \
	done; exit $$status

# The A/B report (issue 6): release kernels (both series and "combined", both
# applied), corpus, benchmarks on the host and in every kernel, REPORT.md.
report: deps
	@vm/report

# Each series alone in its own debug kernel; the second runs even when the
# first fails.
check-series:
	@status=0; for t in $(addprefix check-guest-,$(SERIES)); do \
		$(MAKE) --no-print-directory $$t || status=1; \
	done; exit $$status

# A few spawns per method on the host and in make check's debug kernel, so the
# benchmark cannot rot (CI).
bench-smoke: deps tests bench
	@vm/bench-smoke

# The same inside make check, counted in its summary (build/results/bench/).
check-bench: kernel-$(CHECK_KERNEL) tests bench
	@echo "== benchmark smoke test (host and the $(CHECK_KERNEL)-debug kernel)"
	@vm/bench-smoke build/results

clean-results:
	rm -rf build/results build/logs
