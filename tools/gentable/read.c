/*
 * Reading data files into records: "key: value" lines, continuation lines,
 * comments and blank lines between records.  Bytes are checked here:
 * no control characters, valid UTF-8 only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt.h"
#include "gentable.h"

static size_t caprecords;

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

static struct record *new_record(const char *file, long line)
{
	struct record *r;
	if (nrecords == caprecords) {
		caprecords = caprecords ? 2 * caprecords : 256;
		records = xrealloc(records, caprecords * sizeof *records);
	}
	r = &records[nrecords];
	memset(r, 0, sizeof *r);
	r->file = file;
	r->line = line;
	r->order = nrecords++;
	return r;
}

static void add_field(struct record *r, const struct keydef *def,
                      const char *value, const char *file, long line)
{
	if (r->nfields == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->fields = xrealloc(r->fields, r->cap * sizeof *r->fields);
	}
	r->fields[r->nfields++] =
	    (struct field){def, xstrdup(value), file, line};
}

static void append_value(struct field *f, const char *more)
{
	size_t a = strlen(f->value), b = strlen(more);
	int paragraph = strcmp(more, ".") == 0;
	f->value = xrealloc(f->value, a + b + 2);
	if (paragraph) {
		memcpy(f->value + a, "\n", 2);
	} else {
		f->value[a] = a && f->value[a - 1] == '\n' ? '\0' : ' ';
		memcpy(f->value + a + (f->value[a] == ' '), more, b + 1);
	}
}

static const struct keydef *find_keydef(const char *name, size_t n)
{
	for (size_t i = 0; i < nkeydefs; i++)
		if (strlen(keydefs[i].name) == n &&
		    memcmp(keydefs[i].name, name, n) == 0)
			return &keydefs[i];
	return NULL;
}

void read_stream(FILE *fp, const char *file)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t got;
	long line = 0;
	struct record *r = NULL;

	while ((got = getline(&buf, &cap, fp)) != -1) {
		size_t n = (size_t)got;
		struct datafmt_field f;
		const struct keydef *def;
		char why[128];

		line++;
		if (n && buf[n - 1] == '\n')
			buf[--n] = '\0';
		switch (datafmt_line(buf, n, &f, why, sizeof why)) {
		case DATAFMT_ERROR:
			fail(file, line, "%s", why);
			continue;
		case DATAFMT_BLANK: /* ends the record */
			r = NULL;
			continue;
		case DATAFMT_COMMENT:
			continue;
		case DATAFMT_CONTINUATION: /* of the last field */
			if (!r) {
				fail(file, line, "continuation line outside a record");
				continue;
			}
			append_value(&r->fields[r->nfields - 1], f.value);
			continue;
		case DATAFMT_FIELD:
			break;
		}
		def = find_keydef(f.key, f.keylen);
		if (!def) {
			fail(file, line, "unknown key '%.*s'", (int)f.keylen, f.key);
			continue;
		}
		if (!r) {
			if (strcmp(def->name, "code") && strcmp(def->name, "provider") &&
			    strcmp(def->name, "group") && strcmp(def->name, "corpus") &&
			    !layout_record(def->name) && strcmp(def->name, "dialect") &&
			    strcmp(def->name, "reason-words") &&
			    strcmp(def->name, "synonyms") &&
			    strcmp(def->name, "judge")) {
				fail(file, line, "a record must start with 'code:', "
				     "'provider:', 'group:', 'corpus:', 'layout:', "
				     "'phrases:', 'dialect:', 'reason-words:' or "
				     "'synonyms:'");
				continue;
			}
			r = new_record(file, line);
		}
		add_field(r, def, f.value, file, line);
	}
	if (ferror(fp)) {
		fprintf(stderr, "%s: %s\n", file, strerror(errno));
		errors++;
	}
	free(buf);
}

void read_file(const char *file)
{
	FILE *fp = fopen(file, "r");

	if (!fp) {
		fprintf(stderr, "%s: %s\n", file, strerror(errno));
		errors++;
		return;
	}
	read_stream(fp, file);
	fclose(fp);
}

size_t copy_records(enum record_kind kind, struct record **out,
                    int (*order)(const void *, const void *))
{
	size_t n = 0;
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].kind == kind) {
			*out = xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n++] = records[i];
		}
	if (n)
		qsort(*out, n, sizeof **out, order);
	return n;
}

void free_fields(struct record *r)
{
	for (size_t k = 0; k < r->nfields; k++)
		free(r->fields[k].value);
	free(r->fields);
}

void free_records(void)
{
	for (size_t i = 0; i < nrecords; i++)
		free_fields(&records[i]);
	free(records);
	records = NULL;
	nrecords = 0;
	caprecords = 0;
}

int read_date(const char *file, char date[11])
{
	FILE *fp = fopen(file, "r");
	char buf[64] = "";
	int ok;
	if (!fp) {
		fprintf(stderr, "%s: %s\n", file, strerror(errno));
		return -1;
	}
	ok = fgets(buf, sizeof buf, fp) != NULL;
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	ok = ok && strlen(buf) == 10 && all_digits(buf, 4) && buf[4] == '-' &&
	     all_digits(buf + 5, 2) && buf[7] == '-' && all_digits(buf + 8, 2);
	if (!ok) {
		fprintf(stderr, "%s:1: expected the date of the data as "
		        "YYYY-MM-DD\n", file);
		return -1;
	}
	memcpy(date, buf, 11);
	return 0;
}
