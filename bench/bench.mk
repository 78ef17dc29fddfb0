# The spawn benchmark (bench/), included by the top-level Makefile: `make
# bench` builds build/bench/spawnbench and its child build/bench/stamp, a
# folder that vm/run --add copies into a guest as it is. libcompat's iouring
# backend needs liburing (LIBCOMPAT_LIBS, from common-tests/iouring.mk).

BENCH_OUT ?= build/bench
BENCH_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Ilibcompat

.PHONY: bench
bench: $(BENCH_OUT)/spawnbench $(BENCH_OUT)/stamp

$(BENCH_OUT)/spawnbench: bench/spawnbench.c libcompat/libcompat.h $(TESTS_OUT)/libcompat.a
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $(TESTS_OUT)/libcompat.a -lpthread $(LIBCOMPAT_LIBS)

# no libc: the child's first instruction is the entry point's
$(BENCH_OUT)/stamp: bench/stamp.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -static -nostdlib -ffreestanding -fno-stack-protector \
		-fno-asynchronous-unwind-tables -o $@ $<
