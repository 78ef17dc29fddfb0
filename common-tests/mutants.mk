# The mutation harness (DESIGN.md, "The corpus and its mutants"). Included by
# the top-level Makefile after common-tests/build.mk, whose variables it uses.
#
#   make mutants    builds each mutant of common-tests/mutants.txt into
#                   $(MUTANTS_OUT)/NAME/, runs the corpus on it, writes
#                   $(MUTANTS_RESULTS)/mutants.tap; fails if one survives
#   make crippled   runs each case of common-tests/crippled.txt (a backend
#                   that refuses or diverges more, expectations that no
#                   longer hold) in $(CRIPPLED_OUT)/NAME/, writes
#                   $(MUTANTS_RESULTS)/crippled.tap; fails unless the pinned
#                   expectations catch every one

MUTANTS_OUT ?= build/mutants
MUTANTS_RESULTS ?= build/results/host
CRIPPLED_OUT ?= build/crippled

# what both harnesses take from make (common-tests/mutants' head comment)
MUTANT_ENV = MUTATE=$(MUTANTS_OUT)/mutate CC="$(CC)" TESTS_OUT=$(TESTS_OUT) \
	MUTANT_CC="$(CC) $(TESTS_CFLAGS)" \
	MUTANT_LINK="$(CORPUS_OBJS) $(TESTS_OUT)/libcompat.a $(CRITERION_LIBS) $(LIBCOMPAT_LIBS)"

.PHONY: mutants crippled
mutants: $(addprefix $(TESTS_OUT)/,corpus probe tiny bigbss) $(MUTANTS_OUT)/mutate
	@echo "== mutants of the reference backend and the PATH search"
	@$(MUTANT_ENV) MUTANTS_OUT=$(MUTANTS_OUT) common-tests/mutants $(MUTANTS_RESULTS)

crippled: $(addprefix $(TESTS_OUT)/,corpus probe tiny bigbss run-corpus pinned expected.txt) \
		$(MUTANTS_OUT)/mutate
	@echo "== crippled backends and stale expectations against the pinned expectations"
	@$(MUTANT_ENV) CRIPPLED_OUT=$(CRIPPLED_OUT) common-tests/crippled $(MUTANTS_RESULTS)

$(MUTANTS_OUT)/mutate: common-tests/mutate.c
	@mkdir -p $(@D)
	$(CC) $(TESTS_CFLAGS) -o $@ $<
