/*
 * clientcheck: what run-clients needs beyond glue (DESIGN.md, "Real
 * clients").
 *
 *   clientcheck makefile DIR N   DIR/Makefile: N targets out/tK of 3
 *                                recipe lines each (3N spawns), and DIR/out
 *   clientcheck ninja DIR N      DIR/build.ninja: N edges (N spawns), DIR/out
 *   clientcheck tap NUM NAME SPAWNS STATUS COUNTS SAME [LOST]
 *
 * tap prints one TAP test, clients::NAME, for one run of a client: STATUS
 * is its exit status, SPAWNS the posix_spawn calls it makes (pinned or
 * derived from its input), COUNTS the shim's counts file ("-": the run was
 * under plain glibc, the control), SAME "same", "differs" or "-" for its
 * outputs against the control's, LOST why the shim cannot write the
 * client's counts lines (a pinned divergence). Exits 1 when the test fails.
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

struct tally {
	int routed, refused, fallback, lines;
	char reasons[MAX_REASONS][256];
	int n_reasons;
};

/* the shim's lines: "OUTCOME pid=... reason=WHY" */
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
		if (strncmp(line, "routed ", 7) == 0) {
			t->routed++;
			continue;
		}
		if (strncmp(line, "refused ", 8) == 0)
			t->refused++;
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

enum verdict { PASS, FAIL, SKIP, DIVERGES };

static int tap(int argc, char **argv)
{
	const char *num = argv[2], *name = argv[3], *counts = argv[6], *same = argv[7];
	const char *lost = argc > 8 ? argv[8] : NULL;
	int spawns = atoi(argv[4]), status = atoi(argv[5]);
	bool control = strcmp(counts, "-") == 0;
	enum verdict v = PASS;
	char why[1200] = "", reasons[MAX_REASONS * 258] = "";
	struct tally t;

	read_counts(control ? NULL : counts, &t);
	for (int i = 0; i < t.n_reasons; i++)
		snprintf(reasons + strlen(reasons), sizeof reasons - strlen(reasons), "%s%s",
			 i ? "; " : "", t.reasons[i]);
	if (t.refused > 0) {
		v = SKIP;
		snprintf(why, sizeof why, "refused %d of %d spawns: %s", t.refused, t.lines, reasons);
	} else if (t.fallback > 0) {
		v = FAIL;
		snprintf(why, sizeof why, "%d of %d spawns fell back to glibc in strict mode: %s",
			 t.fallback, t.lines, reasons);
	} else if (status == 77) {
		v = SKIP;
		snprintf(why, sizeof why, "the test is unsupported here");
	} else if (status != 0) {
		v = FAIL;
		snprintf(why, sizeof why, "exit %d", status);
	} else if (strcmp(same, "differs") == 0) {
		v = FAIL;
		snprintf(why, sizeof why, "outputs differ from plain glibc's");
	} else if (control) {
		/* nothing is counted under plain glibc */
	} else if (lost != NULL) {
		v = t.lines > 0 ? FAIL : DIVERGES;
		snprintf(why, sizeof why, t.lines > 0 ? "counted, but pinned as lost: %s" :
			 "the shim's counts are lost: %s", lost);
	} else if (t.routed != spawns) {
		v = FAIL;
		snprintf(why, sizeof why, "routed %d, spawns made %d", t.routed, spawns);
	}
	printf(v == PASS ? "ok %s - clients::%s\n" : v == FAIL ? "not ok %s - clients::%s (%s)\n" :
	       v == SKIP ? "ok %s - clients::%s # SKIP %s\n" :
	       "not ok %s - clients::%s # TODO diverges: %s\n", num, name, why);
	if (control)
		printf("# plain glibc: exit %d, spawns %d\n", status, spawns);
	else
		printf("# spawns %d: routed %d, refused %d, fallback %d; exit %d\n", spawns,
		       t.routed, t.refused, t.fallback, status);
	return v == FAIL;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "makefile") == 0)
		makefile(argv[2], atoi(argv[3]));
	else if (argc == 4 && strcmp(argv[1], "ninja") == 0)
		ninja(argv[2], atoi(argv[3]));
	else if ((argc == 8 || argc == 9) && strcmp(argv[1], "tap") == 0)
		return tap(argc, argv);
	else {
		fprintf(stderr, "usage: clientcheck makefile|ninja DIR N\n"
			"       clientcheck tap NUM NAME SPAWNS STATUS COUNTS SAME [LOST]\n");
		return 2;
	}
	return 0;
}
