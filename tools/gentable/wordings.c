/*
 * Reason wordings: the records of data/reasons/ ("reason-words:
 * mailboxfull"), each a reason of the vocabulary, a priority and the
 * phrases of replies that give that reason.  Checked here and written into
 * table.c as table_wordings[] (src/core/table.h), which src/match/wording.c
 * searches: where a code leaves the reason to the words (a code record's
 * "reason-from: words") or there is no code, the phrase found whose record
 * has the lowest priority decides it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt.h"
#include "gentable.h"

static struct record *kept;
static size_t nkept;

static void check_phrase(const struct field *f)
{
	const char *why = datafmt_wording_problem(f->value);
	if (why)
		fail(f->file, f->line, "%s", why);
}

void check_wording(const struct record *r)
{
	const struct field *id = &r->fields[0];
	if (smtpcode_value_parse(SMTPCODE_REASON, id->value,
	                         strlen(id->value)) <= 0)
		fail(id->file, id->line, "'%s' is not a reason (src/core/vocab.c "
		     "lists them)", id->value);
	if (!get(r, "phrase"))
		fail(r->file, r->line, "reason-words %s has no 'phrase:'",
		     id->value);
	for (size_t i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].def->name, "phrase") == 0)
			check_phrase(&r->fields[i]);
}

/* After every record's own checks: the priorities and the phrases are
 * unique across records, as a phrase gives one reason and two records
 * of one priority would be ordered by the file list. */
void check_wordings(void)
{
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].kind == R_WORDS)
			records[i].rank = record_priority(&records[i],
			                                  "decide when several are found");
	for (size_t i = 0; i < nrecords; i++) {
		const struct record *r = &records[i];
		if (r->kind != R_WORDS)
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct record *s = &records[j];
			if (s->kind != R_WORDS)
				continue;
			if (r->rank && r->rank == s->rank)
				fail(get(r, "priority")->file, get(r, "priority")->line,
				     "reason-words %s has the priority of %s (%s:%ld)",
				     r->codetext, s->codetext, s->file, s->line);
		}
		phrases_once(i, "phrase", "reason-words");
	}
}

static int by_rank(const void *a, const void *b)
{
	unsigned x = ((const struct record *)a)->rank;
	unsigned y = ((const struct record *)b)->rank;
	return x < y ? -1 : x > y;
}

void keep_wordings(void)
{
	nkept = copy_records(R_WORDS, &kept, by_rank);
}

struct wording {
	const char *phrase;
	uint32_t head, tail; /* its first four bytes, the four after (table.h) */
	unsigned bucket, reason;
	size_t order; /* by priority, then data order */
};

static int by_bucket(const void *a, const void *b)
{
	const struct wording *x = a, *y = b;
	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void write_wordings(FILE *out)
{
	struct wording *w = NULL;
	size_t n = 0, off = 0;

	for (size_t i = 0; i < nkept; i++) {
		const struct record *r = &kept[i];
		unsigned reason = (unsigned)smtpcode_value_parse(SMTPCODE_REASON,
		    r->codetext, strlen(r->codetext));
		for (size_t k = 0; k < r->nfields; k++) {
			const char *p = r->fields[k].value;
			if (strcmp(r->fields[k].def->name, "phrase"))
				continue;
			w = xrealloc(w, (n + 1) * sizeof *w);
			w[n].phrase = p;
			w[n].reason = reason;
			w[n].order = n;
			w[n].head = w[n].tail = 0;
			for (int b = 3; b >= 0; b--) /* check_phrase(): 4 at least */
				w[n].head = w[n].head << 8 |
				            table_wording_byte((unsigned char)p[b]);
			for (size_t b = strlen(p) < 8 ? strlen(p) : 8; b > 4; b--)
				w[n].tail = w[n].tail << 8 |
				            table_wording_byte((unsigned char)p[b - 1]);
			w[n].bucket = TABLE_WORDING_BUCKET(w[n].head);
			n++;
		}
	}
	if (n > 65535) {
		fprintf(stderr, "gentable: more than 65535 reason phrases\n");
		errors++;
	}
	if (n)
		qsort(w, n, sizeof *w, by_bucket);
	fputs("\n/* The reasons' phrases in ASCII lower case (wordings.c). */\n"
	      "const char table_wording_text[] =\n", out);
	for (size_t i = 0; i < n; i++) {
		fputs("\t\"", out);
		for (const char *p = w[i].phrase; *p; p++) {
			int c = datafmt_fold((unsigned char)*p);
			fprintf(out, c == '"' || c == '\\' || c == '?' ? "\\%c"
			        : c < 0x20 || c >= 0x7f ? "\\%03o" : "%c", c);
		}
		fputs("\\0\"\n", out);
	}
	fputs("\t\"\";\n\nconst struct table_wording table_wordings[] = {\n", out);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(w[i].phrase);
		fprintf(out, "\t{%zu, 0x%08lx, 0x%08lx, %zu, %u, %zu},\n", off,
		        (unsigned long)w[i].head, (unsigned long)w[i].tail, len,
		        w[i].reason, w[i].order);
		off += len + 1;
	}
	fputs("\t{0, 0, 0, 0, 0, 0}\n};\n\n"
	      "const uint16_t table_wording_first[] = {", out);
	for (unsigned b = 0, k = 0; b <= TABLE_WORDING_BUCKETS; b++) {
		while (k < n && w[k].bucket < b)
			k++;
		fprintf(out, "%s%u", !b ? "\n\t" : b % 16 ? ", " : ",\n\t", k);
	}
	fputs("\n};\n\n"
	      "const unsigned char table_wording_fold[256] = {", out);
	for (unsigned c = 0; c < 256; c++)
		fprintf(out, "%s%u", !c ? "\n\t" : c % 16 ? ", " : ",\n\t",
		        table_wording_byte((unsigned char)c));
	fputs("\n};\n", out);
	free(w);
	for (size_t i = 0; i < nkept; i++)
		free_fields(&kept[i]);
	free(kept);
	kept = NULL;
	nkept = 0;
}
