/*
 * gentable: compile the data files under data/ into the static table the
 * library searches (see src/core/table.h for its layout and data/README.md for
 * the format).  It refuses anything inconsistent with one line per problem,
 * "data/FILE:LINE: message", and a non-zero exit, so bad data fails the
 * build.
 *
 * usage: gentable OUTPUT.c DATEFILE DATAFILE...
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "gentable.h"

/* Every key the data files may use; data/README.md explains each. */
const struct keydef keydefs[] = {
	{"code", SCALAR_TEXT, SMTPCODE_CODE, 0},
	{"provider", SCALAR_TEXT, PROVIDER_REF, 0},
	{"group", SCALAR_TEXT, SMTPCODE_GROUP, 1},
	{"name", SCALAR_TEXT, SMTPCODE_NAME, 0},
	{"meaning", SCALAR_TEXT, SMTPCODE_MEANING, 0},
	{"now", SCALAR_TEXT, SMTPCODE_NOW, 1},
	{"verified", SCALAR_TEXT, SMTPCODE_VERIFIED, 0},
	{"through", SCALAR_TEXT, SMTPCODE_THROUGH, 0},
	{"severity", SCALAR_VALUE, SMTPCODE_SEVERITY, 1},
	{"scope", SCALAR_VALUE, SMTPCODE_SCOPE, 1},
	{"acts", SCALAR_VALUE, SMTPCODE_ACTS, 1},
	{"retry", SCALAR_VALUE, SMTPCODE_RETRY, 1},
	{"bounce", SCALAR_VALUE, SMTPCODE_BOUNCE, 1},
	{"reason", SCALAR_VALUE, SMTPCODE_REASON, 1},
	{"suppress", SCALAR_VALUE, SMTPCODE_SUPPRESS, 1},
	{"registered", SCALAR_VALUE, SMTPCODE_REGISTERED, 1},
	{"differs", SCALAR_VALUE, SMTPCODE_DIFFERS, 0},
	{"final", SCALAR_VALUE, SMTPCODE_FINAL, 1},
	{"decides", SCALAR_TEXT, SMTPCODE_DECIDES, 1},
	{"frequency", SCALAR_VALUE, SMTPCODE_FREQUENCY, 1},
	{"frequency-note", SCALAR_TEXT, SMTPCODE_FREQUENCY_NOTE, 1},
	{"duration", SCALAR_TEXT, SMTPCODE_DURATION, 1},
	/* "words": the reply's words decide the reason (write.c) */
	{"reason-from", SCALAR_TEXT, NOT_WRITTEN, 1},
	{"match", LIST, SMTPCODE_MATCHES, 0},
	{"marker", LIST, SMTPCODE_MATCHES, 0},
	{"cause", LIST, SMTPCODE_CAUSES, 1},
	{"fix", LIST, SMTPCODE_FIXES, 1},
	{"avoid", LIST, SMTPCODE_AVOID, 1},
	{"faq", LIST, SMTPCODE_FAQ, 1},
	{"related", LIST, SMTPCODE_RELATED, 1},
	{"basic", LIST, SMTPCODE_BASIC, 1},
	{"with", LIST, SMTPCODE_WITH, 0},
	{"source", LIST, SMTPCODE_SOURCES, 0},
	{"note", LIST, SMTPCODE_NOTES, 0},
	/* Checked, not written: what provider entries may cite. */
	{"corpus", SCALAR_TEXT, NOT_WRITTEN, 0},
	{"site", LIST, NOT_WRITTEN, 0},
	/* Read once: the order in which providers' markers are tried. */
	{"priority", SCALAR_TEXT, NOT_WRITTEN, 0},
	/* Bounce layouts and phrase lists: layouts.c writes them. */
	{"layout", SCALAR_TEXT, NOT_WRITTEN, 0},
	{"shape", SCALAR_TEXT, NOT_WRITTEN, 0},
	{"address", SCALAR_TEXT, NOT_WRITTEN, 0},
	{"greeting", LIST, NOT_WRITTEN, 0},
	{"intro", LIST, NOT_WRITTEN, 0},
	{"list", LIST, NOT_WRITTEN, 0},
	{"list-within", LIST, NOT_WRITTEN, 0},
	{"reply", LIST, NOT_WRITTEN, 0},
	{"reply-line", LIST, NOT_WRITTEN, 0},
	{"sentence", LIST, NOT_WRITTEN, 0},
	{"end", LIST, NOT_WRITTEN, 0},
	{"server", LIST, NOT_WRITTEN, 0},
	{"phrases", SCALAR_TEXT, NOT_WRITTEN, 0},
	{"phrase", LIST, NOT_WRITTEN, 0},
	/* Log dialects (data/logs/, tools/gentable/dialects.c); they share
	 * name, marker, note and source with the other records. */
	{"dialect", SCALAR_TEXT, DIALECT_KEY, 0},
	/* Reason wordings: wordings.c reads and writes them. */
	{"reason-words", SCALAR_TEXT, NOT_WRITTEN, 0},
	{"beats-code", SCALAR_TEXT, NOT_WRITTEN, 0},
	{"after-data", SCALAR_TEXT, NOT_WRITTEN, 0},
	/* The order of the judgement's steps: precedence.c. */
	{"judge", SCALAR_TEXT, NOT_WRITTEN, 0},
	{"step", LIST, NOT_WRITTEN, 0},
	/* Search synonyms: synonyms.c reads and writes them. */
	{"synonyms", SCALAR_TEXT, NOT_WRITTEN, 0},
	{"engine", SCALAR_TEXT, DIALECT_KEY, 0},
	{"separator", SCALAR_TEXT, DIALECT_KEY, 0},
	{"recipient", LIST, DIALECT_KEY, 0},
	{"host", SCALAR_TEXT, DIALECT_KEY, 0},
	{"status", SCALAR_TEXT, DIALECT_KEY, 0},
	{"dsn", SCALAR_TEXT, DIALECT_KEY, 0},
	{"reply-after", LIST, DIALECT_KEY, 0},
	{"reports-as", SCALAR_TEXT, DIALECT_KEY, 0},
	{"side", SCALAR_TEXT, DIALECT_KEY, 0},
	{"status-word", LIST, DIALECT_KEY, 0},
	{"stage", SCALAR_TEXT, DIALECT_KEY, 0},
	{"stage-after", SCALAR_TEXT, DIALECT_KEY, 0},
	{"program", LIST, DIALECT_KEY, 0},
	{"underscores", SCALAR_TEXT, DIALECT_KEY, 0},
	{"auth-failed-reply", SCALAR_TEXT, DIALECT_KEY, 0},
	{"auth-temp-reply", SCALAR_TEXT, DIALECT_KEY, 0},
};
const size_t nkeydefs = sizeof keydefs / sizeof keydefs[0];

struct record *records;
size_t nrecords;
int errors;

void fail(const char *file, long line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%ld: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	errors++;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("gentable");
		exit(2);
	}
	return p;
}

int main(int argc, char **argv)
{
	char date[11];
	if (argc < 4) {
		fputs("usage: gentable OUTPUT.c DATEFILE DATAFILE...\n", stderr);
		return 2;
	}
	if (read_date(argv[2], date))
		return 1;
	for (int i = 3; i < argc; i++)
		read_file(argv[i]);
	check_all();
	if (errors || write_table(argv[1], date)) {
		fprintf(stderr, "gentable: %d error%s; table not written\n",
		        errors, errors == 1 ? "" : "s");
		return 1;
	}
	return 0;
}
