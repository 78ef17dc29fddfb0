# The posix_spawn shim (DESIGN.md, "The posix_spawn shim"). Included by the
# top-level Makefile after common-tests/build.mk and before the series'
# makefiles, which give the kernel backends' objects here their flags too.
#
#   $(TESTS_OUT)/libspawnshim.so   glibc's posix_spawn and posix_spawnp over
#                                  a libcompat backend, for LD_PRELOAD
#   $(TESTS_OUT)/shimtest          its tests, TAP: shimtest OUTDIR [BACKEND MODE]
#
# Both go with `make tests`; make check-host runs shimtest on the host.

# libcompat again, position-independent, for the shared object
SHIM_OBJ := $(TESTS_OBJ)/pic
SHIM_LIBCOMPAT_OBJS := $(patsubst %.c,$(SHIM_OBJ)/%.o,$(wildcard libcompat/*.c))
SHIM_OBJS := $(SHIM_LIBCOMPAT_OBJS) $(SHIM_OBJ)/libcompat/shim/shim.o \
	$(SHIM_OBJ)/libcompat/shim/shimtest.o

tests: $(TESTS_OUT)/libspawnshim.so $(TESTS_OUT)/shimtest

$(SHIM_OBJS): $(SHIM_OBJ)/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(TESTS_CFLAGS) -fPIC -c -o $@ $<

$(TESTS_OUT)/libspawnshim.so: $(SHIM_OBJ)/libcompat/shim/shim.o $(SHIM_LIBCOMPAT_OBJS) \
		libcompat/shim/exports.map
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-z,defs -Wl,--version-script=libcompat/shim/exports.map -o $@ \
		$(filter %.o,$^) $(LIBCOMPAT_LIBS)

# it finds libspawnshim.so, probe and tiny next to itself
$(TESTS_OUT)/shimtest: $(SHIM_OBJ)/libcompat/shim/shimtest.o $(SHIM_LIBCOMPAT_OBJS)
	@mkdir -p $(@D)
	$(CC) -pthread -o $@ $^ $(LIBCOMPAT_LIBS)

-include $(SHIM_OBJS:.o=.d)
