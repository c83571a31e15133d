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
 * A fields record may also say what its lines are (issue 21): the side
 * they are from, the status a text of theirs says, their stage or where
 * the SMTP command they answer is written, the programs whose lines are
 * read without a dotted code, and whether the reply's spaces are written
 * as '_' (qmail).  Statuses and stages are the fixed words of
 * src/logs/logvocab.h, whose macros give the lists below.
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
#include "logvocab.h"

/* The fields a dialect record may name, in struct log_dialect_rec's
 * order after the markers. */
static const char *const field_keys[] = {"recipient", "host", "status",
                                         "dsn", "reply-after"};
#define NFIELD_KEYS (sizeof field_keys / sizeof field_keys[0])

/* The keys only the fields engine reads. */
static const char *const fields_only[] = {"reports-as", "side", "status-word",
                                          "stage", "stage-after", "program",
                                          "underscores"};
#define NFIELDS_ONLY (sizeof fields_only / sizeof fields_only[0])

/* The fixed words of logvocab.h: statuses with their side, stages. */
static const struct {
	const char *word;
	enum smtpcode_log_side side;
} statuses[] = {
	{LOG_STATUS_SENT, SMTPCODE_SIDE_DELIVERY},
	{LOG_STATUS_DEFERRED, SMTPCODE_SIDE_DELIVERY},
	{LOG_STATUS_BOUNCED, SMTPCODE_SIDE_DELIVERY},
	{LOG_STATUS_EXPIRED, SMTPCODE_SIDE_DELIVERY},
	{LOG_STATUS_REJECTED, SMTPCODE_SIDE_REJECT},
	{LOG_STATUS_WARNED, SMTPCODE_SIDE_REJECT},
	{LOG_STATUS_DISCARDED, SMTPCODE_SIDE_REJECT},
	{LOG_STATUS_AUTH_FAILED, SMTPCODE_SIDE_AUTH},
};
#define NSTATUSES (sizeof statuses / sizeof statuses[0])
static const char *const stages[] = {
	LOG_STAGE_CONNECT, LOG_STAGE_HELO, LOG_STAGE_STARTTLS, LOG_STAGE_AUTH,
	LOG_STAGE_MAIL, LOG_STAGE_RCPT, LOG_STAGE_DATA, LOG_STAGE_END_OF_DATA,
	LOG_STAGE_HEADER, LOG_STAGE_BODY, LOG_STAGE_QUIT};
#define NSTAGES (sizeof stages / sizeof stages[0])
/* The sides a record may give, by the names smtpcode_side_name() gives. */
static const char *const sides[] = {"", "delivery", "reject", "auth"};
#define NSIDES (sizeof sides / sizeof sides[0])

static int side_of(const char *v)
{
	for (int i = 1; i < (int)NSIDES; i++)
		if (strcmp(v, sides[i]) == 0)
			return i;
	return 0;
}

static int status_index(const char *v)
{
	for (size_t i = 0; i < NSTATUSES; i++)
		if (strcmp(v, statuses[i].word) == 0)
			return (int)i;
	return -1;
}

static int stage_index(const char *v)
{
	for (size_t i = 0; i < NSTAGES; i++)
		if (strcmp(v, stages[i]) == 0)
			return (int)i;
	return -1;
}

/* A status word's value, "TEXT STATUS": where STATUS starts (after the
 * last space), or NULL when there is none. */
static const char *status_part(const char *v)
{
	const char *sp = strrchr(v, ' ');
	return sp && sp > v ? sp + 1 : NULL;
}

/* What each built-in engine reads, by the keys above ("" for none). */
static const struct engine {
	const char *name;
	enum log_engine id;
	bool auth_failed_reply; /* whether it reads 'auth-failed-reply' */
	const char *reads[NFIELD_KEYS];
} engines[] = {
	{"postfix", LOG_ENGINE_POSTFIX, true,
	 {LOG_POSTFIX_RECIPIENT, LOG_POSTFIX_HOST, LOG_POSTFIX_STATUS,
	  LOG_POSTFIX_DSN, LOG_POSTFIX_REPLY}},
	{"exim", LOG_ENGINE_EXIM, false,
	 {LOG_EXIM_RECIPIENT, LOG_EXIM_HOST, LOG_EXIM_STATUS, LOG_EXIM_DSN,
	  LOG_EXIM_REPLY}},
	{"sendmail", LOG_ENGINE_SENDMAIL, false,
	 {LOG_SENDMAIL_RECIPIENT, LOG_SENDMAIL_HOST, LOG_SENDMAIL_STATUS,
	  LOG_SENDMAIL_DSN, LOG_SENDMAIL_REPLY}},
	{"fields", LOG_ENGINE_FIELDS, false, {NULL}},
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
	/* In quotes, \" is a quote and \\ a backslash: a value may end in
	 * a quote (reply-after: "msg=\""). */
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		buf[k++] = v != f->value && v[i] == '\\' && i + 1 < n &&
		                   (v[i + 1] == '"' || v[i + 1] == '\\')
		               ? v[++i]
		               : v[i];
	buf[k] = '\0';
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

/* How many fields of key r has, each unquoted (and reported) on the way;
 * more than LOG_ALTS reported. */
static size_t count_alts(const struct record *r, const char *key)
{
	char buf[MAX_WORD + 8];
	size_t n = 0;

	for (size_t i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].def->name, key) == 0) {
			if (strcmp(key, "status-word") != 0)
				unquote(&r->fields[i], buf, sizeof buf);
			if (++n == LOG_ALTS + 1)
				fail(r->fields[i].file, r->fields[i].line,
				     "dialect %s: more than %d '%s' lines", r->codetext,
				     LOG_ALTS, key);
		}
	return n;
}

/* The text of a status word "TEXT STATUS" into buf, unquoted; NULL
 * (reported) when it is not one. */
static const char *status_text(const struct field *f, char *buf, size_t size)
{
	const char *st = status_part(f->value);
	struct field text = *f;
	char whole[MAX_WORD * 2 + 8];
	size_t n;

	if (!st || status_index(st) < 0) {
		fail(f->file, f->line, "status-word: '%s' is not TEXT and a "
		     "status (sent, deferred, bounced, expired, rejected, "
		     "warned, discarded, auth-failed)", f->value);
		return NULL;
	}
	n = (size_t)(st - 1 - f->value);
	if (n >= sizeof whole) {
		fail(f->file, f->line, "status-word: '%s' is longer than %d "
		     "bytes", f->value, MAX_WORD);
		return NULL;
	}
	memcpy(whole, f->value, n);
	whole[n] = '\0';
	text.value = whole;
	return unquote(&text, buf, size);
}

/* The keys of issue 21 that only the fields engine reads. */
static void check_fields_only(const struct record *r)
{
	const struct field *f;
	char buf[MAX_WORD + 8];
	int side = 0;

	count_alts(r, "recipient");
	count_alts(r, "reply-after");
	count_alts(r, "program");
	count_alts(r, "status-word");
	for (size_t i = 0; i < r->nfields; i++) {
		const struct field *g = &r->fields[i];
		/* A syslog tag: the masks of write_program_masks() hold
		 * lengths up to 63. */
		if (strcmp(g->def->name, "program") == 0 &&
		    (strlen(g->value) > 63 || strpbrk(g->value, " :[\"")))
			fail(g->file, g->line, "program: '%s' is not a syslog tag "
			     "(up to 63 bytes, no space, ':', '[' or quote)",
			     g->value);
	}
	if ((f = get(r, "side")) != NULL && (side = side_of(f->value)) == 0)
		fail(f->file, f->line, "unknown side '%s' (expected delivery, "
		     "reject or auth)", f->value);
	for (size_t i = 0; i < r->nfields; i++) {
		const struct field *g = &r->fields[i];
		int st;
		if (strcmp(g->def->name, "status-word") != 0 ||
		    !status_text(g, buf, sizeof buf))
			continue;
		st = status_index(status_part(g->value));
		/* A record of one side may still say auth-failed: a
		 * receiving server's lines hold its AUTH refusals too. */
		if (side && (int)statuses[st].side != side &&
		    statuses[st].side != SMTPCODE_SIDE_AUTH)
			fail(g->file, g->line, "status-word: '%s' is not a status "
			     "of side %s", statuses[st].word, sides[side]);
	}
	if ((f = get(r, "stage")) != NULL && stage_index(f->value) < 0)
		fail(f->file, f->line, "unknown stage '%s' (expected one of "
		     "src/logs/logvocab.h: connect, helo, ..., quit)", f->value);
	if (f && get(r, "stage-after"))
		fail(f->file, f->line, "dialect %s: 'stage' and 'stage-after' "
		     "both given (a fixed stage, or where the command is)",
		     r->codetext);
	if ((f = get(r, "stage-after")) != NULL)
		unquote(f, buf, sizeof buf);
	if ((f = get(r, "underscores")) != NULL &&
	    strcmp(f->value, "yes") != 0 && strcmp(f->value, "no") != 0)
		fail(f->file, f->line, "underscores: '%s' is not yes or no",
		     f->value);
	if ((f = get(r, "reports-as")) != NULL) {
		size_t i = 0;
		while (i < nrecords && (records[i].kind != R_DIALECT ||
		                        strcmp(records[i].codetext, f->value)))
			i++;
		if (i == nrecords)
			fail(f->file, f->line, "reports-as: '%s' is no dialect of "
			     "data/logs/", f->value);
	}
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

/*
 * 'auth-temp-reply: "TEXT" REPLY': the reply sent instead of the
 * auth-failed-reply when the failure's reason holds TEXT, which says the
 * authentication service could not answer rather than that the password
 * was wrong (Postfix: "454 4.7.0 Temporary authentication failure" when
 * it lost its Dovecot auth server).  A 4xx reply, with an
 * auth-failed-reply beside it.  Its text into *text, its reply into
 * *reply (pointing into buf); false (reported) when it is not one.
 */
static bool auth_temp_reply(const struct field *g, char *buf, size_t size,
                            const char **text, const char **reply)
{
	const char *v = g->value, *q = v[0] == '"' ? strchr(v + 1, '"') : NULL;
	struct smtpcode_query c;
	size_t n = q ? (size_t)(q - v - 1) : 0;

	if (!q || n == 0 || q[1] != ' ' || !q[2]) {
		fail(g->file, g->line, "auth-temp-reply: '%s' is not \"TEXT\" "
		     "and a reply", v);
		return false;
	}
	if (n > MAX_WORD || strlen(q + 2) > MAX_WORD ||
	    n + 1 + strlen(q + 2) + 1 > size) {
		fail(g->file, g->line, "auth-temp-reply: '%s' is longer than %d "
		     "bytes", v, MAX_WORD);
		return false;
	}
	memcpy(buf, v + 1, n);
	buf[n] = '\0';
	*text = buf;
	memcpy(buf + n + 1, q + 2, strlen(q + 2) + 1); /* fits: checked above */
	*reply = buf + n + 1;
	if (smtpcode_parse(*reply, strlen(*reply), &c) != SMTPCODE_OK ||
	    c.basic / 100 != 4) {
		fail(g->file, g->line, "auth-temp-reply: '%s' is not a reply "
		     "with a 4xx code (\"454 4.7.0 text\")", *reply);
		return false;
	}
	return true;
}

static void check_auth_temp_reply(const struct record *r)
{
	const struct field *g = get(r, "auth-temp-reply");
	char buf[MAX_WORD * 4];
	const char *text, *reply;

	if (g && auth_temp_reply(g, buf, sizeof buf, &text, &reply) &&
	    !get(r, "auth-failed-reply"))
		fail(g->file, g->line, "auth-temp-reply without an "
		     "auth-failed-reply (the reply it replaces)");
}

void check_dialect(const struct record *r)
{
	const struct field *f = get(r, "engine"), *sep;
	const struct engine *e = engine_of(r);
	size_t nmarkers = 0;
	char buf[MAX_WORD + 8];

	/* A record past LOG_DIALECTS_MAX would have no bit in the masks of
	 * table_programs (write_program_masks()). */
	static size_t ndialects;

	if (++ndialects == LOG_DIALECTS_MAX + 1)
		fail(r->file, r->line, "dialect %s: more than %d dialects "
		     "(LOG_DIALECTS_MAX in src/logs/dialect.h)", r->codetext,
		     LOG_DIALECTS_MAX);
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
	check_auth_temp_reply(r);
	if (e->id != LOG_ENGINE_FIELDS) {
		/* A built-in engine: the record says what the code reads. */
		for (size_t k = 0; k < NFIELDS_ONLY; k++)
			if ((f = get(r, fields_only[k])) != NULL)
				fail(f->file, f->line, "engine %s reads its lines by "
				     "code: '%s' is for the fields engine", e->name,
				     fields_only[k]);
		if (sep)
			fail(sep->file, sep->line, "engine %s has its own "
			     "separators: 'separator' is for the fields engine",
			     e->name);
		if (count_alts(r, "recipient") > 1 || count_alts(r, "reply-after") > 1)
			fail(r->file, r->line, "dialect %s: engine %s reads one "
			     "'recipient' and one 'reply-after'", r->codetext, e->name);
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
	/* A line is known by its marker alone when the record says its
	 * side; else it must name its recipient too. */
	if (!get(r, "recipient") && !get(r, "side"))
		fail(r->file, r->line, "dialect %s: missing 'recipient' (the "
		     "fields engine needs it, or a 'side')", r->codetext);
	if (!get(r, "reply-after"))
		fail(r->file, r->line, "dialect %s: missing 'reply-after' (the "
		     "fields engine needs it)", r->codetext);
	for (size_t k = 1; k + 1 < NFIELD_KEYS; k++) /* host, status, dsn */
		if ((f = get(r, field_keys[k])) != NULL)
			unquote(f, buf, sizeof buf);
	if ((f = get(r, "status")) != NULL)
		fail(f->file, f->line, "engine fields reads no 'status' field: "
		     "say what the line's words mean with 'status-word'");
	check_fields_only(r);
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

/* A word's text as C: "text", length. */
static void write_word_text(FILE *out, const char *v)
{
	size_t n = strlen(v);

	fputc('"', out);
	for (; *v; v++) /* the checks let through no control bytes */
		fprintf(out, *v == '"' || *v == '\\' ? "\\%c" : "%c", *v);
	fprintf(out, "\", %zu", n);
}

/* An auth-temp-reply as C: its text's word and its reply's, after a
 * ", " each; {NULL, 0} twice when absent. */
static void write_auth_temp_reply(FILE *out, const struct field *g)
{
	char buf[MAX_WORD * 4];
	const char *text, *reply;

	if (!g || !auth_temp_reply(g, buf, sizeof buf, &text, &reply)) {
		fputs(", {NULL, 0}, {NULL, 0}", out);
		return;
	}
	fputs(", {", out);
	write_word_text(out, text);
	fputs("}, {", out);
	write_word_text(out, reply);
	fputc('}', out);
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
	write_word_text(out, v);
	fputc('}', out);
}

/* The fields of key, max of them (LOG_MARKERS, LOG_ALTS), as {{...},
 * ...}. */
static void write_words(FILE *out, const struct record *r, const char *key,
                        size_t max)
{
	size_t m = 0;

	fputc('{', out);
	for (size_t k = 0; k < r->nfields && m < max; k++)
		if (strcmp(r->fields[k].def->name, key) == 0) {
			fputs(m++ ? ", " : "", out);
			write_word(out, &r->fields[k]);
		}
	for (; m < max; m++) {
		fputs(m ? ", " : "", out);
		write_word(out, NULL);
	}
	fputc('}', out);
}

/* A C string literal of a checked word (no quote or backslash in it), or
 * NULL. */
static void write_cstr(FILE *out, const char *v)
{
	fprintf(out, v ? "\"%s\"" : "NULL", v);
}

/* The fields engine's keys of issue 21, after the reply. */
static void write_fields_only(FILE *out, const struct record *r)
{
	const struct field *f = get(r, "reports-as"), *sd = get(r, "side");
	char buf[MAX_WORD + 8];
	size_t m = 0;

	fputs(",\n\t ", out);
	write_cstr(out, f ? f->value : r->codetext);
	fprintf(out, ", %d, {", sd ? side_of(sd->value) : 0);
	for (size_t k = 0; k < r->nfields && m < LOG_ALTS; k++)
		if (strcmp(r->fields[k].def->name, "status-word") == 0) {
			const char *t = status_text(&r->fields[k], buf, sizeof buf);
			fputs(m++ ? ", {" : "{", out);
			write_word_text(out, t ? t : "");
			fputc('}', out);
		}
	for (size_t k = m; k < LOG_ALTS; k++)
		fputs(k ? ", {NULL, 0}" : "{NULL, 0}", out);
	fputs("}, {", out);
	m = 0;
	for (size_t k = 0; k < r->nfields && m < LOG_ALTS; k++)
		if (strcmp(r->fields[k].def->name, "status-word") == 0) {
			fputs(m++ ? ", " : "", out);
			write_cstr(out, status_part(r->fields[k].value));
		}
	for (size_t k = m; k < LOG_ALTS; k++)
		fputs(k ? ", NULL" : "NULL", out);
	fputs("},\n\t ", out);
	f = get(r, "stage");
	write_cstr(out, f ? f->value : NULL);
	fputs(", ", out);
	write_word(out, get(r, "stage-after"));
	/* Its programs: write_program_masks(). */
	f = get(r, "underscores");
	fprintf(out, ", %s", f && strcmp(f->value, "yes") == 0 ? "true"
	                                                       : "false");
}

/* Whether one of the first n fields of r is program: v. */
static bool names_program(const struct record *r, size_t n, const char *v)
{
	char buf[MAX_WORD + 8];

	for (size_t k = 0; k < n; k++)
		if (strcmp(r->fields[k].def->name, "program") == 0 &&
		    unquote(&r->fields[k], buf, sizeof buf) &&
		    strcmp(buf, v) == 0)
			return true;
	return false;
}

/* Whether v is named by a record before kept[i] or by one of its fields
 * before field k. */
static bool named_before(size_t i, size_t k, const char *v)
{
	for (size_t j = 0; j < i; j++)
		if (names_program(&kept[j], kept[j].nfields, v))
			return true;
	return names_program(&kept[i], k, v);
}

/* table_programs (dialect.h): each program once, where a record first
 * names it, with the mask of the records that name it (bit i: kept[i],
 * table_dialects[i]; check_dialect() lets no more than LOG_DIALECTS_MAX
 * through).  Then table_program_lengths and table_program_firsts, the
 * prefilter that passes most lines' tags before the lookup. */
static void write_program_masks(FILE *out)
{
	unsigned long long lengths = 0;
	unsigned char firsts[32] = {0};
	size_t nprograms = 0;

	fputs("const struct log_program table_programs[] = {\n", out);
	for (size_t i = 0; i < nkept; i++)
		for (size_t k = 0; k < kept[i].nfields; k++) {
			const struct field *f = &kept[i].fields[k];
			char buf[MAX_WORD + 8];
			unsigned long dialects = 0;
			size_t n;
			unsigned char c;
			if (strcmp(f->def->name, "program") != 0 ||
			    !unquote(f, buf, sizeof buf) || named_before(i, k, buf))
				continue;
			for (size_t j = i; j < nkept; j++)
				if (names_program(&kept[j], kept[j].nfields, buf))
					dialects |= 1ul << j;
			fputs("\t{{", out);
			write_word_text(out, buf);
			fprintf(out, "}, 0x%lxu},\n", dialects);
			nprograms++;
			n = strlen(buf);
			c = (unsigned char)buf[0];
			lengths |= 1ull << n; /* n <= 63: check_fields_only() */
			firsts[c >> 3] |= (unsigned char)(1u << (c & 7));
		}
	fprintf(out, "\t{{NULL, 0}, 0}\n};\n"
	        "const size_t table_nprograms = %zu;\n"
	        "const uint64_t table_program_lengths = 0x%llxu;\n"
	        "const uint8_t table_program_firsts[32] = {", nprograms, lengths);
	for (size_t i = 0; i < 32; i++)
		fprintf(out, "%s%u", i ? ", " : "", firsts[i]);
	fputs("};\n", out);
}

void write_dialects(FILE *out)
{
	fputs("\n#include \"dialect.h\"\n\n"
	      "const struct log_dialect_rec table_dialects[] = {\n", out);
	for (size_t i = 0; i < nkept; i++) {
		const struct record *r = &kept[i];
		const struct field *sep = get(r, "separator");
		char buf[MAX_WORD + 8];

		fprintf(out, "\t{\"%s\", %d, '", r->codetext, engine_of(r)->id);
		if (sep && unquote(sep, buf, sizeof buf))
			fprintf(out, buf[0] == '\'' || buf[0] == '\\' ? "\\%c" : "%c",
			        buf[0]);
		else
			fputs("\\0", out);
		fputs("',\n\t ", out);
		write_words(out, r, "marker", LOG_MARKERS);
		fputs(",\n\t ", out);
		write_words(out, r, "recipient", LOG_ALTS);
		for (size_t k = 1; k + 1 < NFIELD_KEYS; k++) {
			fputs(", ", out);
			write_word(out, get(r, field_keys[k]));
		}
		fputs(",\n\t ", out);
		write_words(out, r, "reply-after", LOG_ALTS);
		write_fields_only(out, r);
		fputs(", ", out);
		write_word(out, get(r, "auth-failed-reply"));
		write_auth_temp_reply(out, get(r, "auth-temp-reply"));
		fputs("},\n", out);
	}
	fprintf(out, "\t{NULL, 0, 0, {{NULL, 0}}, {{NULL, 0}}, {NULL, 0}, "
	        "{NULL, 0}, {NULL, 0}, {{NULL, 0}}, NULL, 0, {{NULL, 0}}, "
	        "{NULL}, NULL, {NULL, 0}, false, {NULL, 0}, {NULL, 0}, "
	        "{NULL, 0}}\n};\n"
	        "const size_t table_ndialects = %zu;\n", nkept);
	write_program_masks(out);
	for (size_t i = 0; i < nkept; i++)
		free_fields(&kept[i]);
	free(kept);
	kept = NULL;
	nkept = 0;
}
