/*
 * mutate: reads the mutant list of the mutation harness (common-tests/mutants.txt,
 * whose head comment gives the format) and applies one entry.
 *   mutate LIST               prints "NAME FILE [BACKEND...]", one mutant a line
 *   mutate LIST NAME OUT      writes NAME's FILE with its one line replaced to OUT
 * Fails, saying why, when the list is malformed or a mutant's line does not
 * occur exactly once in its file, so that a stale mutant cannot pass unseen.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mutant {
	char *header;		/* "NAME FILE [BACKEND...]" */
	char *from, *to;	/* the line and its replacement, without indentation */
};

static _Noreturn __attribute__((format(printf, 1, 2))) void fail(const char *format, ...)
{
	va_list args;

	va_start(args, format);
	fprintf(stderr, "mutate: ");
	vfprintf(stderr, format, args);
	fputc('\n', stderr);
	va_end(args);
	exit(1);
}

static const char *unindented(const char *line)
{
	return line + strspn(line, " \t");
}

/* The lines of a file, without their newlines; *count of them. */
static char **read_lines(const char *path, size_t *count)
{
	FILE *in = fopen(path, "r");
	char **lines = NULL, *line = NULL;
	size_t size = 0;
	ssize_t length;

	if (in == NULL)
		fail("cannot read %s", path);
	for (*count = 0; (length = getline(&line, &size, in)) >= 0; line = NULL, size = 0) {
		if (length > 0 && line[length - 1] == '\n')
			line[length - 1] = '\0';
		lines = realloc(lines, (*count + 1) * sizeof *lines);
		if (lines == NULL)
			fail("out of memory reading %s", path);
		lines[(*count)++] = line;
	}
	free(line);
	fclose(in);
	return lines;
}

/* The header's first word is the name, the second the file. */
static char *header_word(const char *header, int index)
{
	char *copy = strdup(header), *word = strtok(copy, " \t");

	while (word && index-- > 0)
		word = strtok(NULL, " \t");
	if (word == NULL)
		fail("mutant \"%s\" has no file", header);
	return word;
}

/* The list's mutants: each a header line, then "- LINE", then "+ LINE". */
static struct mutant *read_list(const char *path, size_t *count)
{
	size_t n_lines;
	char **lines = read_lines(path, &n_lines);
	struct mutant *mutants = calloc(n_lines + 1, sizeof *mutants);

	if (mutants == NULL)
		fail("out of memory reading %s", path);
	*count = 0;
	for (size_t i = 0; i < n_lines; i++) {
		char *line = lines[i];

		if (line[0] == '\0' || line[0] == '#')
			continue;
		if (line[0] != '-' && line[0] != '+') {
			mutants[(*count)++].header = line;
			continue;
		}
		if (*count == 0 || (line[1] != ' ' && line[1] != '\0'))
			fail("%s:%zu: not \"- LINE\" or \"+ LINE\" after a mutant's name", path, i + 1);
		char **field = line[0] == '-' ? &mutants[*count - 1].from : &mutants[*count - 1].to;

		if (*field)
			fail("%s:%zu: a second line of this kind for one mutant", path, i + 1);
		*field = line[1] ? line + 2 : line + 1;
	}
	for (size_t i = 0; i < *count; i++) {
		if (mutants[i].from == NULL || mutants[i].to == NULL)
			fail("mutant \"%s\" lacks its - or + line", mutants[i].header);
		if (strcmp(mutants[i].from, mutants[i].to) == 0)
			fail("mutant \"%s\" changes nothing", mutants[i].header);
		for (size_t j = 0; j < i; j++)
			if (strcmp(header_word(mutants[i].header, 0), header_word(mutants[j].header, 0)) == 0)
				fail("two mutants are called %s", header_word(mutants[i].header, 0));
	}
	return mutants;
}

static void apply(const struct mutant *mutant, const char *out_path)
{
	const char *file = header_word(mutant->header, 1);
	size_t n_lines, found = 0;
	char **lines = read_lines(file, &n_lines);
	FILE *out = fopen(out_path, "w");

	if (out == NULL)
		fail("cannot write %s", out_path);
	for (size_t i = 0; i < n_lines; i++) {
		const char *text = unindented(lines[i]);

		if (strcmp(text, mutant->from) != 0) {
			fprintf(out, "%s\n", lines[i]);
			continue;
		}
		found++;
		fprintf(out, "%.*s%s\n", (int)(text - lines[i]), lines[i], mutant->to);
	}
	if (fclose(out) != 0)
		fail("cannot write %s", out_path);
	if (found != 1)
		fail("the line of mutant \"%s\" occurs %zu times in %s, not once",
		     mutant->header, found, file);
}

int main(int argc, char **argv)
{
	size_t count;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: mutate LIST [NAME OUT]\n");
		return 2;
	}
	struct mutant *mutants = read_list(argv[1], &count);

	for (size_t i = 0; i < count; i++) {
		if (argc == 2)
			printf("%s\n", mutants[i].header);
		else if (strcmp(header_word(mutants[i].header, 0), argv[2]) == 0) {
			apply(&mutants[i], argv[3]);
			return 0;
		}
	}
	if (argc == 4)
		fail("no mutant called %s", argv[2]);
	return 0;
}
