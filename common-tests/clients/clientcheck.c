/*
 * clientcheck: what run-clients needs beyond glue (DESIGN.md, "Real
 * clients").
 *
 *   clientcheck makefile DIR N   DIR/Makefile: N targets out/tK of 3
 *                                recipe lines each (3N spawns), and DIR/out
 *   clientcheck ninja DIR N      DIR/build.ninja: N edges (N spawns), DIR/out
 *   clientcheck tap NUM NAME SPAWNS STATUS COUNTS SAME SECONDS [STATUS COUNTS SAME SECONDS]
 *
 * tap prints one TAP test, clients::NAME, for a client's runs: SPAWNS is
 * the posix_spawn calls it makes (pinned or derived from its input); then
 * per run STATUS its exit status, COUNTS the shim's counts file ("-": the
 * run was under plain glibc, the control), SAME "same", "differs" or "-"
 * for its outputs against the control's, SECONDS its time. The first run
 * is in strict mode; the second, in fallback mode, comes when the backend
 * refused a call. The verdict is DESIGN.md's ("Real clients"); TAP
 * comments give each run's counts, per action kind too. Exits 1 when the
 * test fails.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_REASONS 4

static FILE *create(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/out", dir);
	if (mkdir(dir, 0755) != 0 || mkdir(path, 0755) != 0) {
		perror(path);
		exit(2);
	}
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "we");
	if (f == NULL) {
		perror(path);
		exit(2);
	}
	return f;
}

static void finish(FILE *f)
{
	if (fclose(f) != 0) {
		perror("clientcheck");
		exit(2);
	}
}

/* one line through the shell (redirections), one printf, one mv make execs
 * itself: every line is one posix_spawn */
static void makefile(const char *dir, int n)
{
	FILE *f = create(dir, "Makefile");

	fprintf(f, ".PHONY: all\nall:");
	for (int i = 1; i <= n; i++)
		fprintf(f, " out/t%d", i);
	fprintf(f, "\nout/t%%:\n\techo $* one > $@.tmp\n\tprintf '%%s\\n' $@ two >> $@.tmp\n"
		"\tmv $@.tmp $@\n");
	finish(f);
}

/* n - n/5 edges write a file each, n/5 concatenate them in groups */
static void ninja(const char *dir, int n)
{
	FILE *f = create(dir, "build.ninja");
	int cats = n / 5 > 0 ? n / 5 : 1, gens = n - cats;

	fprintf(f, "builddir = .ninja\nrule gen\n  command = printf '%%s\\n' $out > $out\n"
		"rule cat\n  command = cat $in > $out\n");
	for (int i = 1; i <= gens; i++)
		fprintf(f, "build out/g%d: gen\n", i);
	for (int c = 1; c <= cats; c++) {
		fprintf(f, "build out/c%d: cat", c);
		for (int i = c; i <= gens; i += cats)
			fprintf(f, " out/g%d", i);
		fprintf(f, "\n");
	}
	finish(f);
}

#define MAX_KINDS 16

struct tally {
	int routed, refused, unusable, fallback, lines;
	char reasons[MAX_REASONS][256];
	int n_reasons;
	char kind[MAX_KINDS][16];	/* the actions the calls became, */
	int kind_n[MAX_KINDS];		/* summed over the calls */
	int n_kinds;
};

/* KIND=N words between "error=E" and "reason=" */
static void add_kinds(struct tally *t, char *line)
{
	char *word = strstr(line, " error="), *end = strstr(line, " reason=");
	char name[16];
	int n, i;

	if (word == NULL || end == NULL)
		return;
	for (word = strchr(word + 1, ' '); word && word < end; word = strchr(word + 1, ' ')) {
		if (sscanf(word, " %15[a-z0-9]=%d", name, &n) != 2 || !strcmp(name, "reason"))
			continue;
		for (i = 0; i < t->n_kinds && strcmp(t->kind[i], name); i++)
			;
		if (i == MAX_KINDS)
			continue;
		if (i == t->n_kinds)
			snprintf(t->kind[t->n_kinds++], sizeof t->kind[0], "%s", name);
		t->kind_n[i] += n;
	}
}

/* the shim's lines: "OUTCOME pid=... error=E [KIND=N...] reason=WHY" */
static void read_counts(const char *path, struct tally *t)
{
	char line[1024];
	FILE *f;

	memset(t, 0, sizeof(*t));
	f = path ? fopen(path, "re") : NULL;
	if (f == NULL)
		return;		/* no call counted */
	while (fgets(line, sizeof line, f) != NULL) {
		char *reason = strstr(line, " reason=");

		t->lines++;
		add_kinds(t, line);
		if (strncmp(line, "routed ", 7) == 0) {
			t->routed++;
			continue;
		}
		if (strncmp(line, "refused ", 8) == 0)
			t->refused++;
		else if (strncmp(line, "unusable ", 9) == 0)
			t->unusable++;
		else if (strncmp(line, "fallback ", 9) == 0)
			t->fallback++;
		if (reason == NULL)
			continue;
		reason += 8;
		reason[strcspn(reason, "\n#")] = '\0';
		int i = 0;

		while (i < t->n_reasons && strcmp(t->reasons[i], reason) != 0)
			i++;
		if (i == t->n_reasons && i < MAX_REASONS)
			snprintf(t->reasons[t->n_reasons++], sizeof t->reasons[0], "%s", reason);
	}
	fclose(f);
}

static void join_reasons(const struct tally *t, char *out, size_t size)
{
	out[0] = '\0';
	for (int i = 0; i < t->n_reasons; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? "; " : "", t->reasons[i]);
}

/* One run of a client: its arguments STATUS COUNTS SAME SECONDS. */
struct run {
	int status;
	const char *counts, *same, *seconds;
	struct tally t;
};

static void read_run(struct run *r, char **arg)
{
	r->status = atoi(arg[0]);
	r->counts = arg[1];
	r->same = arg[2];
	r->seconds = arg[3];
	read_counts(strcmp(r->counts, "-") ? r->counts : NULL, &r->t);
}

/*
 * What fails any run: its exit status, outputs not the control's, and,
 * under the shim, calls lost: counted calls other than the spawns made.
 * Writes why into why; returns whether it failed.
 */
static bool run_failed(const struct run *r, int spawns, bool shim, char *why, size_t size)
{
	if (r->status != 0 && r->status != 77)
		snprintf(why, size, "exit %d", r->status);
	else if (strcmp(r->same, "differs") == 0)
		snprintf(why, size, "outputs differ from plain glibc's");
	else if (shim && r->status == 0 && r->t.lines != spawns)
		snprintf(why, size, "%d calls counted, spawns made %d", r->t.lines, spawns);
	else
		return false;
	return true;
}

/* "# MODE: made=N routed=N refused=N fallback=N exit=N outputs=S seconds=S KIND=N..." */
static void comment(const char *mode, const struct run *r, int spawns, bool shim)
{
	printf("# %s: made=%d", mode, spawns);
	if (shim)
		printf(" routed=%d refused=%d fallback=%d", r->t.routed, r->t.refused, r->t.fallback);
	printf(" exit=%d outputs=%s seconds=%s", r->status, r->same, r->seconds);
	for (int i = 0; i < r->t.n_kinds; i++)
		printf(" %s=%d", r->t.kind[i], r->t.kind_n[i]);
	printf("\n");
}

enum verdict { PASS, FAIL, SKIP };

/*
 * tap NUM NAME SPAWNS STATUS COUNTS SAME SECONDS [STATUS COUNTS SAME SECONDS]:
 * the strict run (or the control's, COUNTS "-"), then the fallback run
 * made when the backend refused a call.
 */
static int tap(int argc, char **argv)
{
	const char *num = argv[2], *name = argv[3];
	int spawns = atoi(argv[4]);
	struct run strict, fallback;
	bool control = strcmp(argv[6], "-") == 0, refused, has_fallback = argc == 13;
	enum verdict v = PASS;
	char why[1400] = "", reasons[MAX_REASONS * 258], fb_why[300] = "";

	read_run(&strict, argv + 5);
	if (has_fallback)
		read_run(&fallback, argv + 9);
	join_reasons(&strict.t, reasons, sizeof reasons);
	refused = strict.t.refused > 0;
	if (strict.t.unusable > 0) {
		/* the backend was named: one the shim cannot use is no result */
		v = FAIL;
		snprintf(why, sizeof why, "the shim could not use the backend for %d of %d calls: %s",
			 strict.t.unusable, strict.t.lines, reasons);
	} else if (refused && !has_fallback) {
		v = FAIL;
		snprintf(why, sizeof why, "refused %d of %d calls, and no fallback run", strict.t.refused,
			 strict.t.lines);
	} else if (refused && run_failed(&fallback, spawns, true, fb_why, sizeof fb_why)) {
		v = FAIL;
		snprintf(why, sizeof why, "in fallback mode: %s", fb_why);
	} else if (refused && fallback.t.refused > 0) {
		v = FAIL;
		snprintf(why, sizeof why, "in fallback mode: %d calls refused", fallback.t.refused);
	} else if (refused) {
		/* a result: what the backend cannot express, and what it can */
		join_reasons(&fallback.t, fb_why, sizeof fb_why);
		v = SKIP;
		snprintf(why, sizeof why, "refused %d of %d spawns, %d of %d routed in fallback mode: %s",
			 strict.t.refused, strict.t.lines, fallback.t.routed, spawns, fb_why);
	} else if (strict.t.fallback > 0) {
		v = FAIL;
		snprintf(why, sizeof why, "%d of %d spawns fell back to glibc in strict mode: %s",
			 strict.t.fallback, strict.t.lines, reasons);
	} else if (run_failed(&strict, spawns, !control, why, sizeof why)) {
		v = FAIL;
	} else if (strict.status == 77) {
		v = SKIP;
		snprintf(why, sizeof why, "the test is unsupported here");
	} else if (!control && strict.t.routed != spawns) {
		v = FAIL;
		snprintf(why, sizeof why, "routed %d, spawns made %d", strict.t.routed, spawns);
	}
	printf(v == PASS ? "ok %s - clients::%s\n" : v == FAIL ? "not ok %s - clients::%s (%s)\n" :
	       "ok %s - clients::%s # SKIP %s\n", num, name, why);
	comment(control ? "plain glibc" : "strict", &strict, spawns, !control);
	if (has_fallback)
		comment("fallback", &fallback, spawns, true);
	return v == FAIL;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "makefile") == 0)
		makefile(argv[2], atoi(argv[3]));
	else if (argc == 4 && strcmp(argv[1], "ninja") == 0)
		ninja(argv[2], atoi(argv[3]));
	else if ((argc == 9 || argc == 13) && strcmp(argv[1], "tap") == 0)
		return tap(argc, argv);
	else {
		fprintf(stderr, "usage: clientcheck makefile|ninja DIR N\n"
			"       clientcheck tap NUM NAME SPAWNS STATUS COUNTS SAME SECONDS"
			" [STATUS COUNTS SAME SECONDS]\n");
		return 2;
	}
	return 0;
}
