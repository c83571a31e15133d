/*
 * A site's own rules (smtpcode_rules_parse(), rules.h).  A site meets
 * wordings no table has yet; its rules file says what they mean, in the
 * format of data/, and the lines, phrases and markers are judged by the
 * generator's own rules (src/util/datafmt.c).  Three kinds of record,
 * each with note: lines if wanted:
 *
 *   reason-words: REASON      phrases that give a reason, tried before
 *   priority: N               the built-in ones (the lowest priority of
 *   phrase: ...               the records found wins), where the code
 *                             leaves the reason to the words
 *   provider: ID              markers that recognise a provider smtpcode
 *   marker: ...               knows, tried before the built-in ones
 *   code: 550                 a site's entry: a reply with this code (of
 *   provider: ID              this provider, when given) that holds one
 *   name: ...                 of its match: fragments gets its reason,
 *   reason: REASON            whatever the code's own; its name says
 *   match: ...                which rule decided
 *   meaning: ...
 *
 * The rules are few and read once; they are kept on the heap, in the
 * struct smtpcode_rules the caller holds (no global state), as large as
 * the file's rules, which is bounded (SMTPCODE_RULES_MAX).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt.h"
#include "rules.h"
#include "smtpcode.h"

enum rule_kind { RULE_PHRASE, RULE_MARKER, RULE_ENTRY };

/* One phrase, marker or match fragment, with what its record says. */
struct rule {
	enum rule_kind kind;
	int reason;         /* RULE_PHRASE, RULE_ENTRY */
	unsigned priority;  /* RULE_PHRASE: its record's */
	const struct smtpcode_entry *provider; /* RULE_MARKER; RULE_ENTRY:
	                                          NULL for any */
	struct smtpcode_query code;            /* RULE_ENTRY */
	size_t entry;       /* RULE_ENTRY: its record's name, in names[] */
	char *text;         /* the phrase, marker or fragment */
	char *origin;       /* FILE:LINE, the file's name whole */
};

struct smtpcode_rules {
	struct rule *rule;
	size_t n;
	char **names;       /* the entries' names */
	size_t nnames;
};

/* The record being read. */
struct record {
	enum rule_kind kind;
	long line;
	int reason;
	unsigned priority;
	bool has_priority, has_name, has_reason, has_provider;
	const struct smtpcode_entry *provider;
	struct smtpcode_query code;
	size_t name;        /* its name in names[] */
	size_t first;       /* its rules: rule[first..n) */
	char key[32];       /* the key of its last field, for continuations */
};

struct reading {
	const char *name;   /* the file's, for messages and origins */
	void (*report)(void *ctx, const char *message);
	void *ctx;
	struct smtpcode_rules *rs;
	long line;
	int errors;
	bool open;          /* inside a record */
	bool skipping;      /* inside a record refused at its first line */
	struct record rec;
};

/* One problem: "NAME:LINE: message" to the caller's report(). */
__attribute__((format(printf, 3, 4)))
static void fail(struct reading *rd, long line, const char *fmt, ...)
{
	char small[512], *msg = NULL;
	size_t size = sizeof small;
	va_list ap;
	int head, body;

	rd->errors++;
	if (!rd->report)
		return;
	head = snprintf(NULL, 0, "%s:%ld: ", rd->name, line);
	va_start(ap, fmt);
	body = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (head >= 0 && body >= 0) {
		size = (size_t)head + (size_t)body + 1;
		msg = size > sizeof small ? malloc(size) : small;
	}
	if (!msg) { /* cut short rather than lost */
		msg = small;
		size = sizeof small;
	}
	head = snprintf(msg, size, "%s:%ld: ", rd->name, line);
	if (head >= 0 && (size_t)head < size) {
		va_start(ap, fmt);
		vsnprintf(msg + head, size - (size_t)head, fmt, ap);
		va_end(ap);
	}
	rd->report(rd->ctx, msg);
	if (msg != small)
		free(msg);
}

static bool same_key(const struct datafmt_field *f, const char *key)
{
	return f->keylen == strlen(key) && memcmp(f->key, key, f->keylen) == 0;
}

static const char *kind_name(enum rule_kind k)
{
	return k == RULE_PHRASE ? "reason-words" : k == RULE_MARKER ? "provider"
	                                                            : "code";
}

/* Whether entry rule r is for code q: the same enhanced code, or the
 * same basic code when r names one (a reply "550 5.7.1" is a 550's). */
static bool for_code(const struct rule *r, const struct smtpcode_query *q)
{
	const struct smtpcode_query *c = &r->code;
	if (c->enhanced)
		return q->enhanced && q->cls == c->cls &&
		       q->subject == c->subject && q->detail == c->detail;
	return q->basic == c->basic;
}

/* Whether rules a and b, of one kind, hold the same text to its matcher
 * (entries: for the same code and provider). */
static bool same_rule(const struct rule *a, const struct rule *b)
{
	if (a->kind == RULE_MARKER)
		return strcmp(a->text, b->text) == 0;
	if (a->kind == RULE_ENTRY &&
	    (!for_code(a, &b->code) || a->code.enhanced != b->code.enhanced ||
	     a->provider != b->provider))
		return false;
	return datafmt_same_phrase(a->text, b->text);
}

static void add_rule(struct reading *rd, const char *value)
{
	struct smtpcode_rules *rs = rd->rs;
	struct record *rec = &rd->rec;
	size_t len = strlen(value);
	struct rule *r, *more;
	const char *why;

	if (rs->n == SMTPCODE_RULES_MAX) {
		fail(rd, rd->line, "more than %d phrases, markers and matches",
		     SMTPCODE_RULES_MAX);
		return;
	}
	why = rec->kind == RULE_PHRASE ? datafmt_wording_problem(value)
	                               : datafmt_fragment_problem(value);
	if (why) {
		fail(rd, rd->line, rec->kind == RULE_PHRASE ? "%s" : "a %s is %s",
		     rec->kind == RULE_PHRASE ? why : rec->kind == RULE_MARKER
		         ? "marker" : "match", why);
		return;
	}
	if (!(more = realloc(rs->rule, (rs->n + 1) * sizeof *rs->rule))) {
		fail(rd, rd->line, "out of memory");
		return;
	}
	rs->rule = more;
	r = &rs->rule[rs->n];
	memset(r, 0, sizeof *r);
	r->kind = rec->kind;
	r->reason = rec->reason;
	r->provider = rec->provider;
	r->code = rec->code;
	r->entry = rec->name;
	r->text = (char *)value; /* compared; copied below */
	for (size_t i = 0; i < rs->n; i++)
		if (rs->rule[i].kind == r->kind && same_rule(&rs->rule[i], r)) {
			fail(rd, rd->line, "'%s' is already a rule (%s)", value,
			     rs->rule[i].origin);
			return;
		}
	int olen = snprintf(NULL, 0, "%s:%ld", rd->name, rd->line);
	char *text = malloc(len + 1);
	char *origin = olen < 0 ? NULL : malloc((size_t)olen + 1);
	if (!text || !origin) {
		free(text);
		free(origin);
		fail(rd, rd->line, "out of memory");
		return;
	}
	memcpy(text, value, len + 1);
	snprintf(origin, (size_t)olen + 1, "%s:%ld", rd->name, rd->line);
	r->text = text;
	r->origin = origin;
	rs->n++;
}

/* The end of a record: what it must hold. */
static void close_record(struct reading *rd)
{
	struct smtpcode_rules *rs = rd->rs;
	struct record *rec = &rd->rec;
	if (!rd->open)
		return;
	rd->open = false;
	if (rd->skipping) {
		rd->skipping = false;
		return;
	}
	if (rs->n == rec->first)
		fail(rd, rec->line, "%s has no '%s:'", kind_name(rec->kind),
		     rec->kind == RULE_PHRASE ? "phrase" : rec->kind == RULE_MARKER
		         ? "marker" : "match");
	if (rec->kind == RULE_PHRASE && !rec->has_priority)
		fail(rd, rec->line, "reason-words has no 'priority:' (1 to 65535: "
		     "the lowest wins when several records' phrases are found)");
	if (rec->kind == RULE_ENTRY && !rec->has_name)
		fail(rd, rec->line, "code has no 'name:'");
	if (rec->kind == RULE_ENTRY && !rec->has_reason)
		fail(rd, rec->line, "code has no 'reason:'");
	for (size_t i = rec->first; i < rs->n; i++) {
		rs->rule[i].priority = rec->priority;
		rs->rule[i].reason = rec->reason;
		rs->rule[i].provider = rec->provider;
	}
	if (rec->kind == RULE_PHRASE && rec->has_priority)
		for (size_t i = 0; i < rec->first; i++)
			if (rs->rule[i].kind == RULE_PHRASE &&
			    rs->rule[i].priority == rec->priority) {
				fail(rd, rec->line, "priority %u is already a "
				     "reason-words record's (%s)", rec->priority,
				     rs->rule[i].origin);
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
	rec->first = rd->rs->n;
	rec->name = SIZE_MAX; /* none yet */
	snprintf(rec->key, sizeof rec->key, "%.*s", (int)f->keylen, f->key);
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
	} else if (same_key(f, "code")) {
		rec->kind = RULE_ENTRY;
		if (smtpcode_parse(value, strlen(value), &rec->code) ||
		    rec->code.text_len || (rec->code.basic && rec->code.enhanced) ||
		    (rec->code.enhanced && rec->code.cls == 0)) {
			fail(rd, rd->line, "'%s' is not a code a server sends (expected "
			     "452 or 4.3.1)", value);
			rd->skipping = true;
		}
	} else {
		fail(rd, rd->line, "a rules file's record starts with "
		     "'reason-words:', 'provider:' or 'code:', not '%.*s:'",
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

/* A code record's name, kept for what it decides. */
static void take_name(struct reading *rd, const char *value)
{
	struct smtpcode_rules *rs = rd->rs;
	char **more, *copy;
	size_t n = strlen(value);
	if (n > 120) {
		fail(rd, rd->line, "a name is at most 120 characters");
		return;
	}
	if (!(more = realloc(rs->names, (rs->nnames + 1) * sizeof *rs->names)) ||
	    !(copy = malloc(n + 1))) {
		if (more)
			rs->names = more;
		fail(rd, rd->line, "out of memory");
		return;
	}
	rs->names = more;
	memcpy(copy, value, n + 1);
	rd->rec.name = rs->nnames;
	rs->names[rs->nnames++] = copy;
}

/* A field after the first of its record. */
static void take_field(struct reading *rd, const struct datafmt_field *f,
                       const char *value)
{
	struct record *rec = &rd->rec;
	enum rule_kind k = rec->kind;

	if (rd->skipping)
		return;
	snprintf(rec->key, sizeof rec->key, "%.*s", (int)f->keylen, f->key);
	if (same_key(f, "note") || (k == RULE_ENTRY && same_key(f, "meaning")))
		return;
	if (same_key(f, k == RULE_PHRASE ? "phrase" : k == RULE_MARKER
	                                               ? "marker" : "match")) {
		if (k == RULE_ENTRY && !rec->has_name)
			fail(rd, rd->line, "a code's 'name:' comes before its "
			     "'match:' lines");
		else
			add_rule(rd, value);
	} else if (k == RULE_PHRASE && same_key(f, "priority")) {
		if (rec->has_priority)
			fail(rd, rd->line, "'priority' given twice");
		else if (!priority_of(value, &rec->priority))
			fail(rd, rd->line, "priority '%s' is not a whole number "
			     "from 1 to 65535", value);
		rec->has_priority = true;
	} else if (k == RULE_ENTRY && same_key(f, "name") && !rec->has_name) {
		rec->has_name = true;
		take_name(rd, value);
	} else if (k == RULE_ENTRY && same_key(f, "reason") && !rec->has_reason) {
		rec->has_reason = true;
		rec->reason = smtpcode_value_parse(SMTPCODE_REASON, value,
		                                   strlen(value));
		if (rec->reason <= 0)
			fail(rd, rd->line, "'%s' is not a reason (such as userunknown, "
			     "mailboxfull, blocked: smtpcode(1) lists them)", value);
	} else if (k == RULE_ENTRY && same_key(f, "provider") &&
	           !rec->has_provider) {
		rec->has_provider = true;
		rec->provider = smtpcode_find_provider(value, strlen(value));
		if (!rec->provider)
			fail(rd, rd->line, "'%s' is not a provider smtpcode knows "
			     "(see smtpcode --providers)", value);
	} else if (k == RULE_ENTRY && (same_key(f, "name") ||
	           same_key(f, "reason") || same_key(f, "provider"))) {
		fail(rd, rd->line, "'%s' given twice", rec->key);
	} else {
		fail(rd, rd->line, "a rules file's %s record takes %s, not '%.*s'",
		     kind_name(k), k == RULE_PHRASE ? "priority:, phrase: and note:"
		     : k == RULE_MARKER ? "marker: and note:"
		     : "provider:, name:, reason:, match:, meaning: and note:",
		     (int)f->keylen, f->key);
	}
}

/* One line, s[0..n), NUL-terminated at n. */
static void take_line(struct reading *rd, const char *s, size_t n)
{
	struct datafmt_field f;
	char why[160];

	switch (datafmt_line(s, n, &f, why, sizeof why)) {
	case DATAFMT_ERROR:
		fail(rd, rd->line, "%s", why);
		break;
	case DATAFMT_BLANK:
		close_record(rd);
		break;
	case DATAFMT_COMMENT:
		break;
	case DATAFMT_CONTINUATION:
		/* A note or meaning goes on; the rest is one line. */
		if (!rd->open)
			fail(rd, rd->line, "continuation line outside a record");
		else if (!rd->skipping && strcmp(rd->rec.key, "note") != 0 &&
		         strcmp(rd->rec.key, "meaning") != 0)
			fail(rd, rd->line, "a %s is one line", rd->rec.key);
		break;
	case DATAFMT_FIELD:
		if (!rd->open)
			open_record(rd, &f, f.value);
		else
			take_field(rd, &f, f.value);
		break;
	}
}

struct smtpcode_rules *smtpcode_rules_parse(const char *name,
    const char *text, size_t len,
    void (*report)(void *ctx, const char *message), void *ctx)
{
	struct reading rd;
	char *buf;
	size_t at = 0;

	memset(&rd, 0, sizeof rd);
	rd.name = name ? name : "(rules)";
	rd.report = report;
	rd.ctx = ctx;
	if (!text)
		len = 0;
	if (!(rd.rs = calloc(1, sizeof *rd.rs))) {
		fail(&rd, 0, "out of memory");
		return NULL;
	}
	/* Each line is copied, NUL-terminated, into room for the longest
	 * there can be. */
	if (!(buf = malloc(len + 1))) {
		fail(&rd, 0, "out of memory");
		smtpcode_rules_free(rd.rs);
		return NULL;
	}
	/* Line by line, as getline() reads a file: the last line's newline
	 * may be missing; NUL bytes are the line's, for datafmt to refuse. */
	while (at < len) {
		const char *s = text + at;
		const char *nl = memchr(s, '\n', len - at);
		size_t n = nl ? (size_t)(nl - s) : len - at;
		at += n + (nl != NULL);
		rd.line++;
		memcpy(buf, s, n);
		buf[n] = '\0';
		take_line(&rd, buf, n);
	}
	close_record(&rd);
	free(buf);
	if (rd.errors) {
		smtpcode_rules_free(rd.rs);
		return NULL;
	}
	return rd.rs;
}

void smtpcode_rules_free(struct smtpcode_rules *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->rule[i].text);
		free(rs->rule[i].origin);
	}
	for (size_t i = 0; i < rs->nnames; i++)
		free(rs->names[i]);
	free(rs->rule);
	free(rs->names);
	free(rs);
}

/* Whether entry rule r is for the code and provider of result res. */
static bool entry_applies(const struct rule *r,
                          const struct smtpcode_result *res)
{
	return (!r->provider || r->provider == res->match.provider) &&
	       for_code(r, &res->query);
}

bool rules_entry(const struct smtpcode_rules *rs,
                 const struct smtpcode_result *res, const char *text,
                 size_t len, struct smtpcode_wording *w)
{
	size_t at;
	for (size_t i = 0; rs && i < rs->n; i++) {
		const struct rule *r = &rs->rule[i];
		if (r->kind == RULE_ENTRY && entry_applies(r, res) &&
		    smtpcode_wording_has(text, len, r->text, &at)) {
			w->reason = r->reason;
			w->phrase = r->text;
			w->at = at;
			return true;
		}
	}
	return false;
}

bool rules_wording(const struct smtpcode_rules *rs, const char *text,
                   size_t len, struct smtpcode_wording *w)
{
	const struct rule *best = NULL;
	size_t at = 0, best_at = 0;
	for (size_t i = 0; rs && i < rs->n; i++) {
		const struct rule *r = &rs->rule[i];
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

const struct smtpcode_entry *rules_provider(const struct smtpcode_rules *rs,
                                            const char *text, size_t len,
                                            const char **marker)
{
	for (size_t i = 0; rs && text && i < rs->n; i++) {
		const struct rule *r = &rs->rule[i];
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

/* The rule that holds s, or NULL. */
static const struct rule *rule_of(const struct smtpcode_rules *rs,
                                  const char *s)
{
	for (size_t i = 0; rs && s && i < rs->n; i++)
		if (rs->rule[i].text == s)
			return &rs->rule[i];
	return NULL;
}

const char *smtpcode_rules_origin(const struct smtpcode_rules *rs,
                                  const char *s)
{
	const struct rule *r = rule_of(rs, s);
	return r ? r->origin : NULL;
}

const char *smtpcode_rules_name(const struct smtpcode_rules *rs,
                                const char *s)
{
	const struct rule *r = rule_of(rs, s);
	return r && r->kind == RULE_ENTRY && r->entry < rs->nnames
	           ? rs->names[r->entry] : NULL;
}
