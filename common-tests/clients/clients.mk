# Issue 23's real clients (DESIGN.md, "Real clients"). Included by the
# top-level Makefile (cwd: the repository root); `make tests` builds:
#
#   $(TESTS_OUT)/run-clients            the driver: run-clients OUTDIR BACKEND...
#   $(TESTS_OUT)/clients/clientcheck    its logic: the generated builds, the verdicts
#   $(TESTS_OUT)/clients/glibc/tst-*    glibc 2.36's own posix_spawn tests,
#                                       unmodified, against the installed glibc
#   $(TESTS_OUT)/clients/python-tests   the CPython tests it runs (stage-guest too)
#
# glibc's tests come from Debian's glibc-source tarball (the upstream 2.36
# release; Debian's patches change none of these tests). They include
# <support/...> and a few glibc-internal headers, and link glibc's support/
# test library, built here on its own: only the support files these tests
# need (the closure the linker takes from the whole of support/), compiled
# with the installed glibc's public headers first and glibc's source folders
# searched last (-idirafter), so that only headers the system lacks come
# from glibc's tree. No config.h: the few values it would give are set per
# file below.

GLIBC_TARBALL := /usr/src/glibc/glibc-2.36.tar.xz
GLIBC_SRC := build/glibc-2.36
GLIBC_OBJ := $(TESTS_OBJ)/glibc
CLIENTS_OUT := $(TESTS_OUT)/clients

GLIBC_TESTS := tst-spawn tst-spawn2 tst-spawn3 tst-spawn4 tst-spawn5 tst-spawn6 \
	tst-spawn-chdir tst-posix_spawn-fd tst-posix_spawn-setsid
GLIBC_SUPPORT := check oom_error support-open-dev-null-range support_paths \
	support_quote_blob support_record_failure support_test_compare_blob \
	support_test_compare_failure support_test_main support_test_verify_impl \
	temp_file write_message xasprintf xcalloc xchdir xclose xfclose xfopen xfork \
	xlseek xmalloc xmemstream xmkdir xopen xreadlink xrealloc xstrdup xstrndup \
	xsymlink xwaitpid xwrite
# the files of the tarball these need: support/, the tests, the old test
# skeleton (tst-posix_spawn-fd), four internal headers
GLIBC_MEMBERS := support $(addprefix posix/,$(addsuffix .c,$(GLIBC_TESTS))) test-skeleton.c \
	include/array_length.h include/intprops.h include/scratch_buffer.h \
	sysdeps/unix/sysv/linux/arch-fd_to_filename.h

GLIBC_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O2 -g -idirafter $(GLIBC_SRC) \
	-idirafter $(GLIBC_SRC)/support -idirafter $(GLIBC_SRC)/include \
	-idirafter $(GLIBC_SRC)/sysdeps/unix/sysv/linux

# config.h's default
$(GLIBC_OBJ)/support_test_main.o: GLIBC_CFLAGS += -DTIMEOUTFACTOR=1
# NAME_MAX, which glibc's internal headers bring in
$(GLIBC_OBJ)/temp_file.o: GLIBC_CFLAGS += -include limits.h
# the installed glibc's layout (support/Makefile passes its build's); only
# a debugger's script uses them
$(GLIBC_OBJ)/support_paths.o: GLIBC_CFLAGS += -DSRCDIR_PATH=\"$(abspath $(GLIBC_SRC))\" \
	-DOBJDIR_PATH=\"$(abspath $(CLIENTS_OUT))\" \
	-DOBJDIR_ELF_LDSO_PATH=\"/lib64/ld-linux-x86-64.so.2\" -DINSTDIR_PATH=\"/usr\" \
	-DLIBDIR_PATH=\"/usr/lib/x86_64-linux-gnu\" -DBINDIR_PATH=\"/usr/bin\" \
	-DSBINDIR_PATH=\"/usr/sbin\" -DSLIBDIR_PATH=\"/lib/x86_64-linux-gnu\" \
	-DROOTSBINDIR_PATH=\"/sbin\" -DCOMPLOCALEDIR_PATH=\"/usr/lib/locale\"
# glibc's internal scratch_buffer.h marks its functions hidden inside libc;
# here they are the installed libc's (__libc_scratch_buffer_grow@GLIBC_PRIVATE)
$(GLIBC_OBJ)/xreadlink.o: GLIBC_CFLAGS += '-Dlibc_hidden_proto(name)='
# the folder tst-spawn3 writes its pid file into (glibc's build folder there);
# /tmp exists on the host and in the guests
$(GLIBC_OBJ)/tst-spawn3.o: GLIBC_CFLAGS += -DOBJPFX=\"/tmp/\"

.PHONY: tests-clients
tests: tests-clients
tests-clients: $(TESTS_OUT)/run-clients $(CLIENTS_OUT)/clientcheck \
	$(addprefix $(CLIENTS_OUT)/glibc/,$(GLIBC_TESTS)) $(CLIENTS_OUT)/python-tests

# (not on the tarball: make reads this before deps installs it; Debian
# updates the package's patches, never bookworm's 2.36 tarball)
$(GLIBC_SRC)/.extracted: common-tests/clients/clients.mk | deps
	rm -rf $(GLIBC_SRC)
	@mkdir -p $(@D)
	tar -xmJf $(GLIBC_TARBALL) -C $(dir $(GLIBC_SRC)) $(addprefix glibc-2.36/,$(GLIBC_MEMBERS))
	touch $@
GLIBC_SUPPORT_SRCS := $(addprefix $(GLIBC_SRC)/support/,$(addsuffix .c,$(GLIBC_SUPPORT)))
GLIBC_TEST_SRCS := $(addprefix $(GLIBC_SRC)/posix/,$(addsuffix .c,$(GLIBC_TESTS)))
# they come with the extraction
$(GLIBC_SUPPORT_SRCS) $(GLIBC_TEST_SRCS): | $(GLIBC_SRC)/.extracted ;

# static pattern rules: make keeps what they name
$(addprefix $(GLIBC_OBJ)/,$(addsuffix .o,$(GLIBC_SUPPORT))): $(GLIBC_OBJ)/%.o: $(GLIBC_SRC)/support/%.c
	@mkdir -p $(@D)
	$(CC) $(GLIBC_CFLAGS) -c -o $@ $<

$(addprefix $(GLIBC_OBJ)/,$(addsuffix .o,$(GLIBC_TESTS))): $(GLIBC_OBJ)/%.o: $(GLIBC_SRC)/posix/%.c
	@mkdir -p $(@D)
	$(CC) $(GLIBC_CFLAGS) -c -o $@ $<

$(GLIBC_OBJ)/libsupport.a: $(addprefix $(GLIBC_OBJ)/,$(addsuffix .o,$(GLIBC_SUPPORT)))
	rm -f $@
	$(AR) rcs $@ $^

$(addprefix $(CLIENTS_OUT)/glibc/,$(GLIBC_TESTS)): $(CLIENTS_OUT)/glibc/%: $(GLIBC_OBJ)/%.o \
		$(GLIBC_OBJ)/libsupport.a
	@mkdir -p $(@D)
	$(CC) -o $@ $^

$(CLIENTS_OUT)/clientcheck: $(TESTS_OBJ)/common-tests/clients/clientcheck.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^

$(TESTS_OBJ)/common-tests/clients/clientcheck.o: common-tests/clients/clientcheck.c | deps
	@mkdir -p $(@D)
	$(CC) $(TESTS_CFLAGS) -c -o $@ $<

$(CLIENTS_OUT)/python-tests: common-tests/clients/python-tests
	@mkdir -p $(@D)
	cp $< $@

$(TESTS_OUT)/run-clients: common-tests/clients/run-clients
	@mkdir -p $(@D)
	cp $< $@
	chmod 755 $@

-include $(TESTS_OBJ)/common-tests/clients/clientcheck.d

# What a guest needs beyond busybox for the clients (stage-guest): GNU
# make, ninja, python3.11 with the standard library its spawn tests load,
# their libraries. vm/check-guest adds it, guest-check copies it over the
# guest's /; make check-clients-chroot proves it on the host. The programs
# are prerequisites once vm/install-deps has installed them.
GUEST_CLIENTS := build/guest-clients

.PHONY: guest-clients check-clients-chroot
guest-clients: $(GUEST_CLIENTS)/MANIFEST
$(GUEST_CLIENTS)/MANIFEST: common-tests/clients/stage-guest common-tests/clients/python-tests \
		$(wildcard /usr/bin/make /usr/bin/ninja /usr/bin/python3.11 \
		/usr/lib/python3.11/test/test_posix.py) | deps
	common-tests/clients/stage-guest $(GUEST_CLIENTS)

# The clients in the guest's root, on the host's kernel (vm/chroot-run):
# plain glibc, posix and vfork; TAP in build/results/chroot/.
check-clients-chroot: deps tests guest-clients
	@rm -rf build/results/chroot
	@echo "== real clients in the guest's root, under chroot on the host ($$(uname -r))"
	@mkdir -p build/results/chroot && printf 'version=%s\nplace=chroot (the guest root, host kernel)\n' \
		"$$(uname -r)" > build/results/chroot/kernel
	@vm/chroot-run --add $(TESTS_OUT) --add $(GUEST_CLIENTS) --out build/results/chroot \
		-- tests/guest-check clients /spawnlab/out posix vfork
