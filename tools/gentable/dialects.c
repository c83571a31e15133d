/*
 * Log dialects: the records of data/logs/ ("dialect: courier"), checked
 * and written into table.c as table_dialects[] (src/logs/dialect.h).
 *
 * A record names its engine.  The fields engine (src/logs/fields.c) reads
 * a line by the record alone, so the record must say all it needs: a
 * marker, the separator of the fields, the recipient's field and what
 * precedes the reply.  A built-in engine (postfix, exim, sendmail) reads
 * by code; its record must then name exactly the fields the engine reads
 * (dialect.h's LOG_*_ macros, which the engines' sources check too), so
 * that the data and the code cannot tell two stories.
 *
 * Values that begin or end with a space are written in double quotes
 * (reply-after: " said: "), since the reader drops the spaces after a key's
 * colon; the quotes are not part of the value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialect.h"
#include "gentable.h"

/* The fields a dialect record may name, in struct log_dialect_rec's
 * order after the markers. */
static const char *const field_keys[] = {"recipient", "host", "status",
                                         "dsn", "reply-after"};
#define NFIELD_KEYS (sizeof field_keys / sizeof field_keys[0])

/* What each built-in engine reads, by the keys above ("" for none). */
static const struct engine {
	const char *name;
	enum log_engine id;
	const char *reads[NFIELD_KEYS];
	bool auth_failed_reply; /* whether it reads 'auth-failed-reply' */
} engines[] = {
	{"postfix", LOG_ENGINE_POSTFIX,
	 {LOG_POSTFIX_RECIPIENT, LOG_POSTFIX_HOST, LOG_POSTFIX_STATUS,
	  LOG_POSTFIX_DSN, LOG_POSTFIX_REPLY}, true},
	{"exim", LOG_ENGINE_EXIM,
	 {LOG_EXIM_RECIPIENT, LOG_EXIM_HOST, LOG_EXIM_STATUS, LOG_EXIM_DSN,
	  LOG_EXIM_REPLY}, false},
	{"sendmail", LOG_ENGINE_SENDMAIL,
	 {LOG_SENDMAIL_RECIPIENT, LOG_SENDMAIL_HOST, LOG_SENDMAIL_STATUS,
	  LOG_SENDMAIL_DSN, LOG_SENDMAIL_REPLY}, false},
	{"fields", LOG_ENGINE_FIELDS, {NULL}, false},
};
#define NENGINES (sizeof engines / sizeof engines[0])

/* Longest word a record may give: table.c stores lengths in a byte, and
 * a field name or marker longer than this is a mistake. */
#define MAX_WORD 64

/* A value without its quotes, into buf; NULL (reported) when its quotes
 * are unbalanced or it is too long or empty. */
static const char *unquote(const struct field *f, char *buf, size_t size)
{
	const char *v = f->value;
	size_t n = strlen(v);

	if (v[0] == '"' || v[n - 1] == '"') {
		if (n < 3 || v[0] != '"' || v[n - 1] != '"') {
			fail(f->file, f->line, "%s: unbalanced quotes in '%s' (write "
			     "\"...\" around a value with spaces at its ends)",
			     f->def->name, v);
			return NULL;
		}
		v++;
		n -= 2;
	}
	if (n > MAX_WORD || n >= size) {
		fail(f->file, f->line, "%s: '%s' is longer than %d bytes",
		     f->def->name, f->value, MAX_WORD);
		return NULL;
	}
	memcpy(buf, v, n);
	buf[n] = '\0';
	return buf;
}

static const struct engine *engine_of(const struct record *r)
{
	const struct field *f = get(r, "engine");

	for (size_t i = 0; f && i < NENGINES; i++)
		if (strcmp(f->value, engines[i].name) == 0)
			return &engines[i];
	return NULL;
}

/*
 * 'auth-failed-reply': the reply an MTA sends a client whose login failed,
 * which its log line of the failure does not write (Postfix: "535 5.7.8
 * Error: authentication failed: ..." for "SASL LOGIN authentication
 * failed").  Only an engine that reads such lines takes it; it must be a
 * reply with a code of the authentication's failure (class 4 or 5).
 */
static void check_auth_failed_reply(const struct record *r,
                                    const struct engine *e)
{
	const struct field *g = get(r, "auth-failed-reply");
	struct smtpcode_query q;
	char buf[MAX_WORD + 8];
	const char *v;

	if (!g || !(v = unquote(g, buf, sizeof buf)))
		return;
	if (!e->auth_failed_reply)
		fail(g->file, g->line, "engine %s reads no 'auth-failed-reply' "
		     "(no line of it logs a failed login without its reply)",
		     e->name);
	else if (smtpcode_parse(v, strlen(v), &q) != SMTPCODE_OK ||
	         !q.basic || (q.basic / 100 != 4 && q.basic / 100 != 5))
		fail(g->file, g->line, "auth-failed-reply: '%s' is not a reply "
		     "with a 4xx or 5xx code (\"535 5.7.8 text\")", v);
}

void check_dialect(const struct record *r)
{
	const struct field *f = get(r, "engine"), *sep;
	const struct engine *e = engine_of(r);
	size_t nmarkers = 0;
	char buf[MAX_WORD + 8];

	if (!get(r, "name"))
		fail(r->file, r->line, "dialect %s: missing 'name'", r->codetext);
	if (!f) {
		fail(r->file, r->line, "dialect %s: missing 'engine' (postfix, "
		     "exim, sendmail or fields)", r->codetext);
		return;
	}
	if (!e) {
		fail(f->file, f->line, "unknown engine '%s' (expected one of: "
		     "postfix, exim, sendmail, fields)", f->value);
		return;
	}
	for (size_t i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].def->name, "marker") == 0) {
			unquote(&r->fields[i], buf, sizeof buf);
			if (++nmarkers == LOG_MARKERS + 1)
				fail(r->fields[i].file, r->fields[i].line,
				     "dialect %s: more than %d markers", r->codetext,
				     LOG_MARKERS);
		}
	if (!nmarkers)
		fail(r->file, r->line, "dialect %s: needs a 'marker' (text every "
		     "line of the dialect holds)", r->codetext);
	sep = get(r, "separator");
	if (sep && (!unquote(sep, buf, sizeof buf) || strlen(buf) != 1))
		fail(sep->file, sep->line, "separator: '%s' is not one character "
		     "(',', or \" \" for a space)", sep->value);
	check_auth_failed_reply(r, e);
	if (e->id != LOG_ENGINE_FIELDS) {
		/* A built-in engine: the record says what the code reads. */
		if (sep)
			fail(sep->file, sep->line, "engine %s has its own "
			     "separators: 'separator' is for the fields engine",
			     e->name);
		for (size_t k = 0; k < NFIELD_KEYS; k++) {
			const struct field *g = get(r, field_keys[k]);
			const char *v = g ? unquote(g, buf, sizeof buf) : "";
			if (!v)
				continue;
			if (strcmp(v, e->reads[k]) == 0)
				continue;
			if (g && !*e->reads[k]) /* g: "" was read above */
				fail(g->file, g->line, "engine %s reads no '%s' field",
				     e->name, field_keys[k]);
			else
				fail(g ? g->file : r->file, g ? g->line : r->line,
				     "dialect %s: %s '%s' is not what engine %s reads "
				     "('%s')", r->codetext, field_keys[k], v, e->name,
				     e->reads[k]);
		}
		return;
	}
	/* The fields engine: what it needs to read a line. */
	if (!sep)
		fail(r->file, r->line, "dialect %s: missing 'separator' (the "
		     "fields engine needs it)", r->codetext);
	if (!get(r, "recipient"))
		fail(r->file, r->line, "dialect %s: missing 'recipient' (the "
		     "fields engine needs it)", r->codetext);
	if (!get(r, "reply-after"))
		fail(r->file, r->line, "dialect %s: missing 'reply-after' (the "
		     "fields engine needs it)", r->codetext);
	for (size_t k = 0; k < NFIELD_KEYS; k++) {
		const struct field *g = get(r, field_keys[k]);
		if (g)
			unquote(g, buf, sizeof buf);
	}
}

/* ---- Writing ---- */

/* The dialect records, copied before write_table() drops them. */
static struct record *kept;
static size_t nkept;

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct record *)a)->codetext,
	              ((const struct record *)b)->codetext);
}

void keep_dialects(void)
{
	nkept = copy_records(R_DIALECT, &kept, by_name);
}

/* A word as C: {"text", length}; {NULL, 0} when absent. */
static void write_word(FILE *out, const struct field *f)
{
	char buf[MAX_WORD + 8];
	const char *v = f ? unquote(f, buf, sizeof buf) : NULL;

	if (!v) {
		fputs("{NULL, 0}", out);
		return;
	}
	fputc('{', out);
	fputc('"', out);
	for (; *v; v++) /* the checks let through no control bytes */
		fprintf(out, *v == '"' || *v == '\\' ? "\\%c" : "%c", *v);
	fprintf(out, "\", %zu}", strlen(buf));
}

void write_dialects(FILE *out)
{
	fputs("\n#include \"dialect.h\"\n\n"
	      "const struct log_dialect_rec table_dialects[] = {\n", out);
	for (size_t i = 0; i < nkept; i++) {
		const struct record *r = &kept[i];
		const struct field *sep = get(r, "separator");
		char buf[MAX_WORD + 8];
		size_t m = 0;

		fprintf(out, "\t{\"%s\", %d, '", r->codetext, engine_of(r)->id);
		if (sep && unquote(sep, buf, sizeof buf))
			fprintf(out, buf[0] == '\'' || buf[0] == '\\' ? "\\%c" : "%c",
			        buf[0]);
		else
			fputs("\\0", out);
		fputs("',\n\t {", out);
		for (size_t k = 0; k < r->nfields && m < LOG_MARKERS; k++)
			if (strcmp(r->fields[k].def->name, "marker") == 0) {
				fputs(m++ ? ", " : "", out);
				write_word(out, &r->fields[k]);
			}
		for (; m < LOG_MARKERS; m++) {
			fputs(m ? ", " : "", out);
			write_word(out, NULL);
		}
		fputs("},\n\t ", out);
		for (size_t k = 0; k < NFIELD_KEYS; k++) {
			fputs(k ? ", " : "", out);
			write_word(out, get(r, field_keys[k]));
		}
		fputs(", ", out);
		write_word(out, get(r, "auth-failed-reply"));
		fputs("},\n", out);
	}
	fprintf(out, "\t{NULL, 0, 0, {{NULL, 0}}, {NULL, 0}, {NULL, 0}, "
	        "{NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}}\n};\n"
	        "const size_t table_ndialects = %zu;\n", nkept);
	for (size_t i = 0; i < nkept; i++)
		free_fields(&kept[i]);
	free(kept);
	kept = NULL;
	nkept = 0;
}
