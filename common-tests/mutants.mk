# The mutation harness (DESIGN.md, "The corpus and its mutants"). Included by
# the top-level Makefile after common-tests/build.mk, whose variables it uses.
#
#   make mutants    builds each mutant of common-tests/mutants.txt into
#                   $(MUTANTS_OUT)/NAME/, runs the corpus on it, writes
#                   $(MUTANTS_RESULTS)/mutants.tap; fails if one survives

MUTANTS_OUT ?= build/mutants
MUTANTS_RESULTS ?= build/results/host

.PHONY: mutants
mutants: $(addprefix $(TESTS_OUT)/,corpus probe tiny) $(MUTANTS_OUT)/mutate
	@echo "== mutants of the reference backend and the PATH search"
	@MUTATE=$(MUTANTS_OUT)/mutate CC="$(CC)" TESTS_OUT=$(TESTS_OUT) MUTANTS_OUT=$(MUTANTS_OUT) \
		MUTANT_CC="$(CC) $(TESTS_CFLAGS)" \
		MUTANT_LINK="$(CORPUS_OBJS) $(TESTS_OUT)/libcompat.a $(CRITERION_LIBS) $(LIBCOMPAT_LIBS)" \
		common-tests/mutants $(MUTANTS_RESULTS)

$(MUTANTS_OUT)/mutate: common-tests/mutate.c
	@mkdir -p $(@D)
	$(CC) $(TESTS_CFLAGS) -o $@ $<
