/*
 * Search synonyms: the records of data/search/ ("synonyms: blocklist"),
 * each a list of phrases that mean one thing to someone searching
 * ("blacklisted", "blocklist", "denylist").  Checked here and written into
 * table.c as table_synonyms (src/core/table.h), which src/core/search.c
 * reads: a searched word or phrase that is one of them also finds the
 * entries holding any other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt.h"
#include "gentable.h"

#define SYNONYM_MIN 2  /* "ip" is a search word; one letter is not */
#define SYNONYM_MAX 40 /* what people type, not a sentence */

static struct record *kept;
static size_t nkept;

/* The search compares a synonym with the words typed, split at blanks, a
 * word at a time: a synonym is printable ASCII words separated by single
 * spaces, or it could never equal what was typed. */
static void check_phrase(const struct field *f)
{
	const char *v = f->value;
	size_t n = strlen(v);
	int bad = n < SYNONYM_MIN || n > SYNONYM_MAX || v[0] == ' ' ||
	          v[n - 1] == ' ';
	for (size_t i = 0; i < n && !bad; i++)
		bad = (v[i] == ' ' && v[i + 1] == ' ') ||
		      (unsigned char)v[i] < 0x20 || (unsigned char)v[i] > 0x7e;
	if (bad)
		fail(f->file, f->line, "a synonym is %d to %d characters of "
		     "ASCII words separated by single spaces", SYNONYM_MIN,
		     SYNONYM_MAX);
}

void check_synonyms(const struct record *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].def->name, "phrase") == 0) {
			check_phrase(&r->fields[i]);
			n++;
		}
	if (n < 2)
		fail(r->file, r->line, "synonyms %s needs at least two 'phrase:' "
		     "lines", r->codetext);
}

/* After every record's own checks: a phrase is in one list only, or a
 * word typed would stand for two lists at once. */
void check_synonym_lists(void)
{
	for (size_t i = 0; i < nrecords; i++) {
		const struct record *r = &records[i];
		if (r->kind != R_SYNONYMS)
			continue;
		phrases_once(i, "synonym", "synonyms");
	}
}

static int by_order(const void *a, const void *b)
{
	size_t x = ((const struct record *)a)->order;
	size_t y = ((const struct record *)b)->order;
	return x < y ? -1 : x > y;
}

void keep_synonyms(void)
{
	nkept = copy_records(R_SYNONYMS, &kept, by_order);
}

void write_synonyms(FILE *out)
{
	fputs("\n/* The search's synonyms (synonyms.c), in ASCII lower case: each "
	      "list's\n * phrases, each ended by a NUL, the list by one more; "
	      "the lists by an\n * empty one. */\nconst char table_synonyms[] "
	      "=\n", out);
	for (size_t i = 0; i < nkept; i++) {
		const struct record *r = &kept[i];
		fputs("\t\"", out);
		for (size_t k = 0; k < r->nfields; k++) {
			if (strcmp(r->fields[k].def->name, "phrase"))
				continue;
			for (const char *p = r->fields[k].value; *p; p++) {
				int c = datafmt_fold((unsigned char)*p);
				fprintf(out, c == '"' || c == '\\' || c == '?' ? "\\%c"
				        : "%c", c);
			}
			fputs("\\000", out); /* three digits: a digit may follow */
		}
		fputs("\\000\"\n", out);
	}
	fputs("\t\"\";\n", out);
	for (size_t i = 0; i < nkept; i++)
		free_fields(&kept[i]);
	free(kept);
	kept = NULL;
	nkept = 0;
}
