# The man pages and documents of docs/. Included by the top-level Makefile (cwd: the
# repository root), after abi/clone-actions.mk.
#
#   make check-docs    docs/check-docs: each page lints clean (mandoc -T lint
#                      -W warning), series-liburing's pages too
#                      (build/src/liburing/man, liburing.mk), its EXAMPLES
#                      program is the file below, its structures and
#                      constants are the series' uapi; in README.md,
#                      DESIGN.md and docs/*.md every relative link
#                      resolves and every file of the repository they
#                      name exists;
#                      TAP in build/results/docs/, the pages rendered there
#                      as .txt and .html
#   $(TESTS_OUT)/clone3-actions-example   clone3-actions.2's EXAMPLES
#                      program, built against the series' uapi headers so
#                      that it cannot rot (runs in the clone-actions guest)

DOCS_RESULTS ?= build/results/docs
# as a man-pages example is built: it defines _GNU_SOURCE itself
DOCS_EXAMPLE_CFLAGS := -I$(UAPI_INCLUDE_clone_actions) -std=gnu11 -O2 -g -Wall -Wextra -Werror

.PHONY: check-docs
tests-clone-actions: $(TESTS_OUT)/clone3-actions-example
$(TESTS_OUT)/clone3-actions-example: docs/clone3-actions-example.c \
		$(UAPI_INCLUDE_clone_actions)/linux/sched.h
	@mkdir -p $(@D)
	$(CC) $(DOCS_EXAMPLE_CFLAGS) -o $@ $<

check-docs: deps $(TESTS_OUT)/clone3-actions-example $(LIBURING_PAGES)
	@echo "== man pages (docs/check-docs)"
	@mkdir -p $(DOCS_RESULTS)
	@docs/check-docs --self-test --tap $(DOCS_RESULTS)/selftest.tap \
		$(UAPI_INCLUDE_clone_actions)/linux/sched.h
	@docs/check-docs --tap $(DOCS_RESULTS)/lint.tap --out $(DOCS_RESULTS) \
		$(addprefix --page ,$(LIBURING_PAGES)) \
		$(UAPI_INCLUDE_clone_actions)/linux/sched.h
