/*
 * A site's own rules (rules.h).  A site meets wordings no table has yet;
 * its rules file says what they mean, in the format of data/, and the
 * lines, phrases and markers are judged by the generator's own rules
 * (src/util/datafmt.c).  Two kinds of record:
 *
 *   reason-words: REASON      phrases that give a reason, tried before
 *   priority: N               the built-in ones (the lowest priority of
 *   phrase: ...               the records found wins), where the code
 *                             leaves the reason to the words
 *   provider: ID              markers that recognise a provider smtpcode
 *   marker: ...               knows, tried before the built-in ones
 *
 * with note: lines in either.  The rules are few and read once; they are
 * kept on the heap, as large as the file's rules, which is bounded.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt.h"
#include "rules.h"

enum rule_kind { RULE_PHRASE, RULE_MARKER };

struct rule {
	enum rule_kind kind;
	int reason;         /* RULE_PHRASE */
	unsigned priority;  /* RULE_PHRASE: its record's */
	const struct smtpcode_entry *provider; /* RULE_MARKER */
	char *text;         /* the phrase or marker */
	char origin[64];    /* FILE:LINE, shortened when long */
};

static struct rule *rules;
static size_t nrules;

/* The record being read. */
struct record {
	enum rule_kind kind;
	long line;
	int reason;
	unsigned priority;
	bool has_priority;
	const struct smtpcode_entry *provider;
	size_t first;       /* its rules: rules[first..nrules) */
	char key[32];       /* the key of its last field, for continuations */
};

struct reading {
	const char *path;
	long line;
	int errors;
	bool open;          /* inside a record */
	bool skipping;      /* inside a record refused at its first line */
	struct record rec;
};

__attribute__((format(printf, 3, 4)))
static void fail(struct reading *rd, long line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%ld: ", rd->path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	rd->errors++;
}

static bool same_key(const struct datafmt_field *f, const char *key)
{
	return f->keylen == strlen(key) && memcmp(f->key, key, f->keylen) == 0;
}

static void add_rule(struct reading *rd, const char *value, size_t len)
{
	struct rule *r, *more;
	const char *why;

	if (nrules == RULES_MAX) {
		fail(rd, rd->line, "more than %d phrases and markers", RULES_MAX);
		return;
	}
	if (!(more = realloc(rules, (nrules + 1) * sizeof *rules)) ||
	    !(more[nrules].text = malloc(len + 1))) {
		if (more)
			rules = more;
		fail(rd, rd->line, "out of memory");
		return;
	}
	rules = more;
	r = &rules[nrules];
	memcpy(r->text, value, len);
	r->text[len] = '\0';
	why = rd->rec.kind == RULE_PHRASE ? datafmt_wording_problem(r->text)
	                                  : datafmt_fragment_problem(r->text);
	if (why) {
		fail(rd, rd->line, rd->rec.kind == RULE_PHRASE ? "%s" :
		     "a marker is %s", why);
		free(r->text);
		return;
	}
	for (size_t i = 0; i < nrules; i++)
		if (rules[i].kind == rd->rec.kind &&
		    (rd->rec.kind == RULE_PHRASE ? datafmt_same_phrase(rules[i].text, r->text)
		                                 : strcmp(rules[i].text, r->text) == 0)) {
			fail(rd, rd->line, "'%s' is already a rule (%s)", r->text,
			     rules[i].origin);
			free(r->text);
			return;
		}
	r->kind = rd->rec.kind;
	r->reason = rd->rec.reason;
	r->priority = 0;
	r->provider = rd->rec.provider;
	snprintf(r->origin, sizeof r->origin, "%.50s:%ld", rd->path, rd->line);
	nrules++;
}

/* The end of a record: what it must hold. */
static void close_record(struct reading *rd)
{
	struct record *rec = &rd->rec;
	if (!rd->open)
		return;
	rd->open = false;
	if (rd->skipping) {
		rd->skipping = false;
		return;
	}
	if (nrules == rec->first)
		fail(rd, rec->line, rec->kind == RULE_PHRASE
		     ? "reason-words has no 'phrase:'" : "provider has no 'marker:'");
	if (rec->kind == RULE_PHRASE && !rec->has_priority)
		fail(rd, rec->line, "reason-words has no 'priority:' (1 to 65535: "
		     "the lowest wins when several records' phrases are found)");
	for (size_t i = rec->first; i < nrules; i++)
		rules[i].priority = rec->priority;
	if (rec->kind == RULE_PHRASE && rec->has_priority)
		for (size_t i = 0; i < rec->first; i++)
			if (rules[i].kind == RULE_PHRASE &&
			    rules[i].priority == rec->priority) {
				fail(rd, rec->line, "priority %u is already a "
				     "reason-words record's (%s)", rec->priority,
				     rules[i].origin);
				break;
			}
}

/* The first field of a record, f. */
static void open_record(struct reading *rd, const struct datafmt_field *f,
                        const char *value)
{
	struct record *rec = &rd->rec;
	memset(rec, 0, sizeof *rec);
	rd->open = true;
	rec->line = rd->line;
	rec->first = nrules;
	if (same_key(f, "reason-words")) {
		rec->kind = RULE_PHRASE;
		rec->reason = smtpcode_value_parse(SMTPCODE_REASON, value,
		                                   strlen(value));
		if (rec->reason <= 0) {
			fail(rd, rd->line, "'%s' is not a reason (such as userunknown, "
			     "mailboxfull, blocked: smtpcode(1) lists them)", value);
			rd->skipping = true;
		}
	} else if (same_key(f, "provider")) {
		rec->kind = RULE_MARKER;
		rec->provider = smtpcode_find_provider(value, strlen(value));
		if (!rec->provider) {
			fail(rd, rd->line, "'%s' is not a provider smtpcode knows "
			     "(see smtpcode --providers)", value);
			rd->skipping = true;
		}
	} else {
		fail(rd, rd->line, "a rules file's record starts with "
		     "'reason-words:' or 'provider:', not '%.*s:'",
		     (int)f->keylen, f->key);
		rd->skipping = true;
	}
}

/* Reads a priority, 1 to 65535. */
static bool priority_of(const char *s, unsigned *p)
{
	unsigned long v = 0;
	if (*s < '1' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9' && v <= 65535; s++)
		v = v * 10 + (unsigned long)(*s - '0');
	if (*s || v > 65535)
		return false;
	*p = (unsigned)v;
	return true;
}

/* A field after the first of its record. */
static void take_field(struct reading *rd, const struct datafmt_field *f,
                       const char *value)
{
	struct record *rec = &rd->rec;
	bool phrases = rec->kind == RULE_PHRASE;

	if (rd->skipping)
		return;
	snprintf(rec->key, sizeof rec->key, "%.*s", (int)f->keylen, f->key);
	if (same_key(f, "note"))
		return;
	if (same_key(f, phrases ? "phrase" : "marker")) {
		add_rule(rd, value, strlen(value));
	} else if (phrases && same_key(f, "priority")) {
		if (rec->has_priority)
			fail(rd, rd->line, "'priority' given twice");
		else if (!priority_of(value, &rec->priority))
			fail(rd, rd->line, "priority '%s' is not a whole number "
			     "from 1 to 65535", value);
		rec->has_priority = true;
	} else {
		fail(rd, rd->line, "a rules file's %s record takes %s, not "
		     "'%.*s'", phrases ? "reason-words" : "provider",
		     phrases ? "priority:, phrase: and note:" : "marker: and note:",
		     (int)f->keylen, f->key);
	}
}

int rules_load(const char *path)
{
	struct reading rd = {path, 0, 0, false, false, {0}};
	FILE *fp = fopen(path, "r");
	char *buf = NULL, why[160];
	size_t cap = 0;
	ssize_t got;

	if (!fp) {
		fprintf(stderr, "smtpcode: %s: %s (the rules file)\n", path,
		        strerror(errno));
		return -1;
	}
	while ((got = getline(&buf, &cap, fp)) != -1) {
		size_t n = (size_t)got;
		struct datafmt_field f;
		rd.line++;
		if (n && buf[n - 1] == '\n')
			buf[--n] = '\0';
		switch (datafmt_line(buf, n, &f, why, sizeof why)) {
		case DATAFMT_ERROR:
			fail(&rd, rd.line, "%s", why);
			break;
		case DATAFMT_BLANK:
			close_record(&rd);
			break;
		case DATAFMT_COMMENT:
			break;
		case DATAFMT_CONTINUATION:
			/* A note goes on; a phrase or marker is one line. */
			if (!rd.open)
				fail(&rd, rd.line, "continuation line outside a record");
			else if (!rd.skipping && strcmp(rd.rec.key, "note") != 0)
				fail(&rd, rd.line, "a %s is one line", rd.rec.key);
			break;
		case DATAFMT_FIELD:
			if (!rd.open)
				open_record(&rd, &f, f.value);
			else
				take_field(&rd, &f, f.value);
			break;
		}
	}
	if (ferror(fp)) {
		fprintf(stderr, "smtpcode: %s: %s (the rules file)\n", path,
		        strerror(errno));
		rd.errors++;
	}
	close_record(&rd);
	free(buf);
	fclose(fp);
	return rd.errors ? -1 : 0;
}

void rules_free(void)
{
	for (size_t i = 0; i < nrules; i++)
		free(rules[i].text);
	free(rules);
	rules = NULL;
	nrules = 0;
}

bool rules_wording(const char *text, size_t len, struct smtpcode_wording *w)
{
	const struct rule *best = NULL;
	size_t at = 0, best_at = 0;
	for (size_t i = 0; i < nrules; i++) {
		const struct rule *r = &rules[i];
		if (r->kind == RULE_PHRASE &&
		    (!best || r->priority < best->priority) &&
		    smtpcode_wording_has(text, len, r->text, &at)) {
			best = r;
			best_at = at;
		}
	}
	if (!best)
		return false;
	w->reason = best->reason;
	w->phrase = best->text;
	w->at = best_at;
	return true;
}

const struct smtpcode_entry *rules_provider(const char *text, size_t len,
                                            const char **marker)
{
	for (size_t i = 0; text && i < nrules; i++) {
		const struct rule *r = &rules[i];
		size_t m = strlen(r->text);
		if (r->kind != RULE_MARKER || m > len)
			continue;
		for (size_t k = 0; k + m <= len; k++)
			if (memcmp(text + k, r->text, m) == 0) {
				*marker = r->text;
				return r->provider;
			}
	}
	return NULL;
}

const char *rules_origin(const char *s)
{
	for (size_t i = 0; s && i < nrules; i++)
		if (rules[i].text == s)
			return rules[i].origin;
	return NULL;
}
