# The spawn benchmark (bench/), included by the top-level Makefile: `make
# bench` builds build/bench/spawnbench and its child build/bench/stamp, a
# folder that vm/run --add copies into a guest as it is. libcompat's iouring
# backend and the iouring-raw method need series-liburing's liburing
# (LIBURING_CFLAGS and LIBCOMPAT_LIBS, from liburing.mk and
# abi/iouring.mk). The raw methods (bench/raw-*.c) compile each
# against its own series' uapi headers, put first; their objects go with
# libcompat's (TESTS_OBJ), so a build against other headers has its own.
# clone-actions-raw and the builder's take a signal mask's bits from
# libcompat (compat_signal_bits(), libcompat/backend.h).

BENCH_OUT ?= build/bench
BENCH_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Ilibcompat
BENCH_RAW := $(TESTS_OBJ)/bench/raw-iouring.o $(TESTS_OBJ)/bench/raw-clone-actions.o \
	$(TESTS_OBJ)/bench/raw-builder.o

.PHONY: bench
bench: $(BENCH_OUT)/spawnbench $(BENCH_OUT)/stamp

$(BENCH_OUT)/spawnbench: bench/spawnbench.c bench/raw.h libcompat/libcompat.h $(BENCH_RAW) \
		$(TESTS_OUT)/libcompat.a
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $(BENCH_RAW) $(TESTS_OUT)/libcompat.a -lpthread \
		$(LIBCOMPAT_LIBS)

$(TESTS_OBJ)/bench/raw-iouring.o: BENCH_UAPI := $(UAPI_INCLUDE_iouring) $(LIBURING_CFLAGS)
$(TESTS_OBJ)/bench/raw-iouring.o: $(UAPI_INCLUDE_iouring)/linux/io_uring.h \
	abi/iouring-spawn.h $(LIBURING_LIB)
$(TESTS_OBJ)/bench/raw-clone-actions.o: BENCH_UAPI := $(UAPI_INCLUDE_clone_actions)
$(TESTS_OBJ)/bench/raw-clone-actions.o: $(UAPI_INCLUDE_clone_actions)/linux/sched.h \
	abi/clone-actions-spawn.h libcompat/backend.h
$(TESTS_OBJ)/bench/raw-builder.o: BENCH_UAPI := $(UAPI_INCLUDE_builder)
$(TESTS_OBJ)/bench/raw-builder.o: $(UAPI_INCLUDE_builder)/linux/spawn.h abi/builder-spawn.h \
	libcompat/backend.h
$(BENCH_RAW): $(TESTS_OBJ)/bench/%.o: bench/%.c bench/raw.h
	@mkdir -p $(@D)
	$(CC) -I$(BENCH_UAPI) $(BENCH_CFLAGS) -c -o $@ $<

# no libc: the child's first instruction is the entry point's
$(BENCH_OUT)/stamp: bench/stamp.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -static -nostdlib -ffreestanding -fno-stack-protector \
		-fno-asynchronous-unwind-tables -o $@ $<

# An instruction profile of every method (vm/profile): the combined kernel's
# profile flavour under icount, function_graph over each method's spawns;
# results in build/report/profile/ (REPORT.md shows them).
.PHONY: profile
profile: deps
	@vm/profile
