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

/* The value of key of r, 0 when absent. */
static int own_value(const struct record *r, const char *key,
                     enum smtpcode_field f)
{
	const struct field *v = get(r, key);
	return v ? smtpcode_value_parse(f, v->value, strlen(v->value)) : 0;
}

static int yes_no(const struct record *r, const char *key)
{
	const struct field *v = get(r, key);
	if (!v)
		return -1;
	if (strcmp(v->value, "yes") == 0 || strcmp(v->value, "no") == 0)
		return v->value[0] == 'y';
	fail(v->file, v->line, "%s takes yes or no", key);
	return -1;
}

/* A reason's verdict, which it brings to a permanent failure that it
 * decides: suppress and bounce tell one story, as an entry's do. */
static void check_reason_values(const struct record *r)
{
	static const char *const keys[] = {"suppress", "bounce", "scope",
	                                   "acts", "beats-code"};
	const char *s, *b;
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
		if (!get(r, keys[k]))
			fail(r->file, r->line, "reason-words %s has no '%s:' (the "
			     "verdict the reason brings)", r->codetext, keys[k]);
	yes_no(r, "beats-code");
	if (!get(r, "suppress") || !get(r, "bounce"))
		return;
	s = get(r, "suppress")->value;
	b = get(r, "bounce")->value;
	if (!strcmp(s, "unknown") != !strcmp(b, "unknown") ||
	    (!strcmp(b, "hard") && strcmp(s, "yes")) ||
	    (!strcmp(s, "yes") && strcmp(b, "hard") && strcmp(b, "none")))
		fail(get(r, "suppress")->file, get(r, "suppress")->line,
		     "reason-words %s: 'suppress: %s' with 'bounce: %s': unknown "
		     "goes with unknown, hard with yes, and yes with hard (or "
		     "none, for what is no bounce)", r->codetext, s, b);
}

void check_wording(const struct record *r)
{
	const struct field *id = &r->fields[0];
	const struct field *after = get(r, "after-data");
	if (smtpcode_value_parse(SMTPCODE_REASON, id->value,
	                         strlen(id->value)) <= 0)
		fail(id->file, id->line, "'%s' is not a reason (src/core/vocab.c "
		     "lists them)", id->value);
	if (after && smtpcode_value_parse(SMTPCODE_REASON, after->value,
	                                  strlen(after->value)) <= 0)
		fail(after->file, after->line, "after-data: '%s' is not a reason",
		     after->value);
	check_reason_values(r);
	for (size_t i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].def->name, "phrase") == 0)
			check_phrase(&r->fields[i]);
}

const struct record *reason_record(int reason)
{
	const char *name = smtpcode_value_name(SMTPCODE_REASON, reason);
	for (size_t i = 0; name && i < nrecords; i++)
		if (records[i].kind == R_WORDS &&
		    strcmp(records[i].codetext, name) == 0)
			return &records[i];
	return NULL;
}

void check_reason_verdict(const struct record *r)
{
	const struct record *w = reason_record(value_of(r, "reason"));
	int su = value_of(r, "suppress"), bo = value_of(r, "bounce");
	const struct field *f = lookup(r, "suppress");
	if (!w || !f)
		return;
	if (su != own_value(w, "suppress", SMTPCODE_SUPPRESS) ||
	    bo != own_value(w, "bounce", SMTPCODE_BOUNCE))
		fail(f->file, f->line, "%s: 'suppress: %s' and 'bounce: %s' "
		     "contradict its reason %s, whose verdict is suppress %s, "
		     "bounce %s (%s:%ld)", r->codetext,
		     smtpcode_value_name(SMTPCODE_SUPPRESS, su),
		     smtpcode_value_name(SMTPCODE_BOUNCE, bo), w->codetext,
		     get(w, "suppress") ? get(w, "suppress")->value : "?",
		     get(w, "bounce") ? get(w, "bounce")->value : "?", w->file,
		     w->line);
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
	for (int v = 1; v < smtpcode_value_count(SMTPCODE_REASON); v++)
		if (!reason_record(v))
			fail("data/reasons", 0, "reason %s has no record (data/reasons/"
			     "%s.txt: its verdict, and its phrases if any)",
			     smtpcode_value_name(SMTPCODE_REASON, v),
			     smtpcode_value_name(SMTPCODE_REASON, v));
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

/* Each reason's verdict, by its value (table_reasons, table.h). */
static void write_reasons(FILE *out)
{
	fputs("\nconst struct table_reason table_reasons[] = {\n"
	      "\t{0, 0, 0, 0, 0, 0},\n", out);
	for (int v = 1; v < smtpcode_value_count(SMTPCODE_REASON); v++) {
		const struct record *r = NULL;
		const struct field *after;
		for (size_t i = 0; i < nkept; i++)
			if (strcmp(kept[i].codetext,
			           smtpcode_value_name(SMTPCODE_REASON, v)) == 0)
				r = &kept[i];
		if (!r) { /* check_wordings() refused it */
			fputs("\t{0, 0, 0, 0, 0, 0},\n", out);
			continue;
		}
		after = get(r, "after-data");
		fprintf(out, "\t{%d, %d, %d, %d, %d, %d}, /* %s */\n",
		        own_value(r, "suppress", SMTPCODE_SUPPRESS),
		        own_value(r, "bounce", SMTPCODE_BOUNCE),
		        own_value(r, "scope", SMTPCODE_SCOPE),
		        own_value(r, "acts", SMTPCODE_ACTS),
		        yes_no(r, "beats-code") == 1,
		        after ? smtpcode_value_parse(SMTPCODE_REASON, after->value,
		                                     strlen(after->value)) : 0,
		        r->codetext);
	}
	fputs("};\n", out);
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
	write_reasons(out);
	for (size_t i = 0; i < nkept; i++)
		free_fields(&kept[i]);
	free(kept);
	kept = NULL;
	nkept = 0;
}
