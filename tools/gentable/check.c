/*
 * Checking the records: what each code is, which keys each kind of record
 * may and must carry, allowed values, references between records, and a
 * verdict that tells one story.  Every problem is reported with the line
 * to blame; checking goes on so that one run reports them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt.h"
#include "gentable.h"

/* ---- Fields, and where a missing one comes from ---- */

struct field *get(const struct record *r, const char *key)
{
	for (size_t i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].def->name, key) == 0)
			return &r->fields[i];
	return NULL;
}

static const struct keydef *keydef(const char *key)
{
	for (size_t i = 0; i < nkeydefs; i++)
		if (strcmp(keydefs[i].name, key) == 0)
			return &keydefs[i];
	return NULL;
}

/* Whether r may take field 'key' from r->topic when it lacks it. */
static int inherits(const struct record *r, const char *key)
{
	return r->topic && (r->kind != R_PROVIDER || keydef(key)->inherit);
}

struct field *lookup(const struct record *r, const char *key)
{
	for (; r; r = inherits(r, key) ? r->topic : NULL) {
		struct field *f = get(r, key);
		if (f)
			return f;
	}
	return NULL;
}

static size_t count_list(const struct record *r, const char *key)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nfields; i++)
		n += strcmp(r->fields[i].def->name, key) == 0;
	return n;
}

/* A list set on a record replaces the inherited one whole. */
const struct record *list_owner(const struct record *r, const char *key)
{
	for (; r; r = inherits(r, key) ? r->topic : NULL)
		if (count_list(r, key))
			return r;
	return NULL;
}

static size_t effective_count(const struct record *r, const char *key)
{
	const struct record *owner = list_owner(r, key);
	return owner ? count_list(owner, key) : 0;
}

int value_of(const struct record *r, const char *key)
{
	struct field *f = lookup(r, key);
	if (!f)
		return 0;
	return smtpcode_value_parse((enum smtpcode_field)f->def->index,
	                            f->value, strlen(f->value));
}

/* Split "KEY: text" items; returns the text, sets *keylen. */
const char *split_item(const char *v, size_t *keylen)
{
	const char *colon = strstr(v, ": ");
	if (!colon) {
		*keylen = 0;
		return v;
	}
	*keylen = (size_t)(colon - v);
	return colon + 2;
}

static int usable(const struct record *r);

/* ---- What each record is ---- */

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/* Codes of the category rows, written the way RFC 3463 and RFC 5321 do. */
static int parse_category(struct record *r, const char *s)
{
	size_t n = strlen(s);
	if (n == 9 && strchr("245", s[0]) && strcmp(s + 1, ".XXX.YYY") == 0) {
		r->key = KEY_CATEGORY(CAT_CLASS, s[0] - '0');
		return 0;
	}
	if (n >= 7 && n <= 9 && s[0] == 'X' && s[1] == '.' &&
	    strcmp(s + n - 4, ".YYY") == 0 && all_digits(s + 2, n - 6) &&
	    (n == 7 || s[2] != '0')) {
		r->key = KEY_CATEGORY(CAT_SUBJECT, atoi(s + 2));
		return 0;
	}
	if (n == 3 && s[0] >= '1' && s[0] <= '5' && strcmp(s + 1, "yz") == 0) {
		r->key = KEY_CATEGORY(CAT_BASIC_FIRST, s[0] - '0');
		return 0;
	}
	if (n == 3 && s[0] == 'x' && s[1] >= '0' && s[1] <= '9' && s[2] == 'z') {
		r->key = KEY_CATEGORY(CAT_BASIC_SECOND, s[1] - '0');
		return 0;
	}
	return -1;
}

/* Parse a code as the library does; refuse reply text after it. */
static int parse_code(const char *s, struct smtpcode_query *q)
{
	return smtpcode_parse(s, strlen(s), q) != SMTPCODE_OK || q->text_len ||
	       (q->basic && q->enhanced);
}

/* Ids of providers and groups: lowercase letters, digits and '-'. */
static int valid_id(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '-'))
			return 0;
	return 1;
}

static void classify_definition(struct record *r, enum record_kind kind,
                                unsigned index)
{
	struct field *f = &r->fields[0];
	r->kind = kind;
	snprintf(r->codetext, sizeof r->codetext, "%s", f->value);
	r->key = kind == R_PROVIDER_DEF ? KEY_PROVIDER(index)
	       : kind == R_GROUP_DEF ? KEY_GROUP(index)
	       : KEY_KIND(7) | (uint32_t)kind << 24 | index; /* no entry */
	if (!valid_id(f->value) || strlen(f->value) >= sizeof r->codetext)
		fail(f->file, f->line, "'%s' is not a valid %s id (lowercase "
		     "letters, digits and '-')", f->value, f->def->name);
}

static void classify(struct record *r)
{
	static unsigned ngroups, ncorpora, ndialects, nwordings, nsynonyms;
	struct field *f = &r->fields[0];
	const char *s = f->value;

	if (strcmp(f->def->name, "provider") == 0) {
		classify_definition(r, R_PROVIDER_DEF, r->rank);
		return;
	}
	if (strcmp(f->def->name, "group") == 0) {
		classify_definition(r, R_GROUP_DEF, ++ngroups);
		return;
	}
	if (strcmp(f->def->name, "corpus") == 0) {
		classify_definition(r, R_CORPUS, ++ncorpora);
		return;
	}
	if (layout_record(f->def->name)) {
		classify_definition(r, strcmp(f->def->name, "layout") == 0
		                       ? R_LAYOUT : R_PHRASES, (unsigned)r->order);
		return;
	}
	if (strcmp(f->def->name, "dialect") == 0) {
		classify_definition(r, R_DIALECT, ++ndialects);
		return;
	}
	if (strcmp(f->def->name, "reason-words") == 0) {
		classify_definition(r, R_WORDS, ++nwordings);
		return;
	}
	if (strcmp(f->def->name, "synonyms") == 0) {
		classify_definition(r, R_SYNONYMS, ++nsynonyms);
		return;
	}
	if (strcmp(f->def->name, "judge") == 0) {
		classify_definition(r, R_JUDGE, (unsigned)r->order);
		return;
	}
	if (parse_category(r, s) == 0) {
		r->kind = R_CATEGORY;
		snprintf(r->codetext, sizeof r->codetext, "%s", s);
		return;
	}
	if (parse_code(s, &r->code)) {
		fail(f->file, f->line, "'%s' is not a code (expected 452, "
		     "4.3.1, X.3.1, 4.XXX.YYY, X.3.YYY, 4yz or x5z)", s);
		r->kind = R_CATEGORY;
		r->key = UINT32_MAX;
		return;
	}
	smtpcode_format(&r->code, r->codetext, sizeof r->codetext);
	if (strcmp(r->codetext, s) != 0)
		fail(f->file, f->line, "write the code as '%s'", r->codetext);
	if (r->code.basic) {
		r->kind = R_BASIC;
		r->key = KEY_BASIC(r->code.basic);
	} else {
		r->kind = r->code.cls ? R_VARIANT : R_TOPIC;
		r->key = KEY_ENHANCED(r->code.cls, r->code.subject,
		                      r->code.detail);
	}
	if (get(r, "provider")) {
		if (r->kind == R_TOPIC)
			fail(f->file, f->line, "a provider's entry names a class: "
			     "write 4.%u.%u or 5.%u.%u, not %s", r->code.subject,
			     r->code.detail, r->code.subject, r->code.detail, s);
		r->kind = R_PROVIDER;
	}
}

/* The standard record (not a provider's) of a key, or NULL. */
static struct record *find_record(uint32_t key)
{
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].key == key && records[i].kind != R_PROVIDER)
			return &records[i];
	return NULL;
}

/* Any record of a code: the standard one, or else a provider's. */
static struct record *find_code(const char *s)
{
	struct smtpcode_query q;
	char text[16];
	uint32_t key;
	if (parse_code(s, &q))
		return NULL;
	smtpcode_format(&q, text, sizeof text);
	if (strcmp(text, s) != 0)
		return NULL;
	key = q.basic ? KEY_BASIC(q.basic)
	              : KEY_ENHANCED(q.cls, q.subject, q.detail);
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].key == key &&
		    records[i].kind != R_PROVIDER_DEF && records[i].kind != R_GROUP_DEF)
			return &records[i];
	return NULL;
}

/* Whether records of kind are named by an id rather than a code. */
static int named(enum record_kind kind)
{
	return kind == R_PROVIDER_DEF || kind == R_GROUP_DEF ||
	       kind == R_CORPUS || kind == R_LAYOUT || kind == R_PHRASES ||
	       kind == R_DIALECT || kind == R_WORDS || kind == R_SYNONYMS ||
	       kind == R_JUDGE;
}

static struct record *find_definition(enum record_kind kind, const char *id)
{
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].kind == kind && strcmp(records[i].codetext, id) == 0)
			return &records[i];
	return NULL;
}

/* ---- Which keys each kind of record may and must carry ---- */

static int one_of(const char *k, const char *const *keys)
{
	for (; *keys; keys++)
		if (strcmp(k, *keys) == 0)
			return 1;
	return 0;
}

static int allowed(enum record_kind kind, const struct keydef *def)
{
	static const char *const provider_only[] = {"match", "verified",
	    "differs", "marker", "through", "site", "corpus", NULL};
	/* What a standard code's classes share lives in its X record; what
	 * makes a verdict, in the class record. */
	static const char *const verdict_only[] = {"final", "decides", NULL};
	static const char *const category[] = {"code", "name", "meaning",
	    "severity", "scope", "now", "source", "note", NULL};
	static const char *const provider_def[] = {"provider", "priority",
	    "name", "marker", "site", "source", "note", NULL};
	static const char *const group_def[] = {"group", "name", "scope",
	                                        "meaning", "note", NULL};
	static const char *const corpus[] = {"corpus", "name", "meaning",
	                                     "note", NULL};
	static const char *const dialect[] = {"dialect", "engine", "name",
	    "marker", "separator", "recipient", "host", "status", "dsn", "reply-after",
	    "reports-as", "side", "status-word", "stage", "stage-after", "program",
	    "underscores", "auth-failed-reply", "auth-temp-reply", "source", "note",
	    NULL};
	static const char *const wording[] = {"reason-words", "priority",
	    "phrase", "suppress", "bounce", "scope", "acts", "beats-code",
	    "after-data", "note", NULL};
	static const char *const judge[] = {"judge", "step", "note", NULL};
	static const char *const synonyms[] = {"synonyms", "phrase", "note",
	                                       NULL};
	const char *k = def->name;
	if (kind == R_WORDS)
		return one_of(k, wording);
	if (kind == R_SYNONYMS)
		return one_of(k, synonyms);
	if (kind == R_JUDGE)
		return one_of(k, judge);
	if (layout_only(k) && kind != R_LAYOUT && kind != R_PHRASES)
		return 0;
	if (def->index == DIALECT_KEY && kind != R_DIALECT)
		return 0;
	switch (kind) {
	case R_BASIC:
		return strcmp(k, "basic") && !one_of(k, provider_only);
	case R_TOPIC:
		return strcmp(k, "with") && strcmp(k, "severity") &&
		       !one_of(k, provider_only) && !one_of(k, verdict_only);
	case R_VARIANT:
		return strcmp(k, "with") && strcmp(k, "basic") &&
		       !one_of(k, provider_only);
	case R_PROVIDER:
		return strcmp(k, "with") && strcmp(k, "marker") &&
		       strcmp(k, "site") && strcmp(k, "corpus");
	case R_CATEGORY:
		return one_of(k, category);
	case R_PROVIDER_DEF:
		return one_of(k, provider_def);
	case R_GROUP_DEF:
		return one_of(k, group_def);
	case R_CORPUS:
		return one_of(k, corpus);
	case R_LAYOUT:
	case R_PHRASES:
		return layout_allows(kind, k);
	case R_DIALECT:
		return one_of(k, dialect);
	case R_WORDS:
	case R_SYNONYMS:
	case R_JUDGE:
		break; /* above */
	}
	return 0;
}

static int is_date(const char *s)
{
	return strlen(s) == 10 && all_digits(s, 4) && s[4] == '-' &&
	       all_digits(s + 5, 2) && s[7] == '-' && all_digits(s + 8, 2);
}

static void check_value(const struct field *f)
{
	enum smtpcode_field vf = (enum smtpcode_field)f->def->index;
	char list[1024] = "";
	if (smtpcode_value_parse(vf, f->value, strlen(f->value)) >= 0)
		return;
	for (int v = 1; v < smtpcode_value_count(vf); v++) {
		strncat(list, v > 1 ? ", " : "", sizeof list - strlen(list) - 1);
		strncat(list, smtpcode_value_name(vf, v),
		        sizeof list - strlen(list) - 1);
	}
	fail(f->file, f->line, "unknown %s '%s' (expected one of: %s)",
	     f->def->name, f->value, list);
}

/* The form of one list item. */
static void check_item(const struct field *f)
{
	size_t keylen, len = strlen(f->value);
	const char *text = split_item(f->value, &keylen);
	switch (f->def->index) {
	case SMTPCODE_FIXES: {
		int who = smtpcode_value_parse(SMTPCODE_ACTS, f->value, keylen);
		if (who < 0 || strcmp(smtpcode_value_name(SMTPCODE_ACTS, who),
		                      "none") == 0)
			fail(f->file, f->line, "a fix starts with who does it: "
			     "'sender: ...', 'sender-admin: ...', "
			     "'recipient: ...' or 'recipient-admin: ...'");
		break;
	}
	case SMTPCODE_RELATED:
	case SMTPCODE_WITH:
		if (!keylen || !*text)
			fail(f->file, f->line, "expected '%s: CODE: how it differs'",
			     f->def->name);
		break;
	case SMTPCODE_BASIC:
		if (!keylen)
			keylen = len;
		if (keylen != 3 || !all_digits(f->value, 3) ||
		    f->value[0] < '2' || f->value[0] > '5')
			fail(f->file, f->line, "'%.*s' is not a basic code "
			     "(expected 'basic: 452' or 'basic: 452: remark')",
			     (int)keylen, f->value);
		break;
	case SMTPCODE_FAQ: {
		/* The question as asked, then its answer: "Q? A". */
		const char *mark = strstr(f->value, "? ");
		if (!mark || mark == f->value || !mark[2])
			fail(f->file, f->line, "faq: a question ends with \"? \" "
			     "and its answer follows");
		break;
	}
	case SMTPCODE_MATCHES:
		/* Short identifying fragments, matched ignoring case. */
		if (datafmt_fragment_problem(f->value))
			fail(f->file, f->line, "a %s is %s", f->def->name,
			     datafmt_fragment_problem(f->value));
		break;
	default:
		break;
	}
}

/* A range runs from the entry's code to a later detail of the same class
 * and subject. */
static void check_through(const struct record *r, const struct field *f)
{
	struct smtpcode_query q;
	if (parse_code(f->value, &q) || !q.enhanced || !r->code.enhanced ||
	    q.cls != r->code.cls || q.subject != r->code.subject ||
	    q.detail <= r->code.detail)
		fail(f->file, f->line, "'through: %s' must name a later code of "
		     "the form %u.%u.N", f->value, (unsigned)r->code.cls,
		     r->code.subject);
}

static void check_fields(const struct record *r)
{
	for (size_t i = 0; i < r->nfields; i++) {
		const struct field *f = &r->fields[i];
		const struct keydef *d = f->def;

		if (!allowed(r->kind, d)) {
			fail(f->file, f->line, "'%s' does not belong in a record "
			     "for %s", d->name, r->codetext);
			continue;
		}
		if (d->type != LIST && get(r, d->name) != f) {
			fail(f->file, f->line, "'%s' given twice", d->name);
			continue;
		}
		if (d->type == SCALAR_VALUE)
			check_value(f);
		else if (d->type == LIST)
			check_item(f);
		else if (d->index == SMTPCODE_VERIFIED && !is_date(f->value))
			fail(f->file, f->line, "expected the date it was verified "
			     "as YYYY-MM-DD");
		else if (d->index == SMTPCODE_THROUGH)
			check_through(r, f);
		else if (strcmp(d->name, "reason-from") == 0 &&
		         strcmp(f->value, "words") != 0)
			fail(f->file, f->line, "reason-from takes 'words' (the "
			     "reply's words decide the reason when they name one)");
	}
}

static void require(const struct record *r, const char *key, size_t min)
{
	if (effective_count(r, key) >= min)
		return;
	if (min == 1)
		fail(r->file, r->line, "%s: missing '%s'", r->codetext, key);
	else
		fail(r->file, r->line, "%s: needs at least %zu '%s' lines",
		     r->codetext, min, key);
}

/* What a provider's entry must say itself rather than inherit. */
static void require_own(const struct record *r, const char *key)
{
	if (!get(r, key))
		fail(r->file, r->line, "%s: a provider's entry needs its own '%s'",
		     r->codetext, key);
}

static int severity_of_digit(int digit)
{
	return digit == 4 ? SMTPCODE_TEMPORARY
	     : digit == 5 ? SMTPCODE_PERMANENT
	     : SMTPCODE_SUCCESS; /* 2yz and the positive intermediate 3yz */
}

/* The line to blame for a value: where the field was set. */
static const struct field *blame(const struct record *r, const char *key)
{
	static struct field none;
	const struct field *f = lookup(r, key);
	if (f)
		return f;
	none.file = r->file;
	none.line = r->line;
	return &none;
}

static int is(const struct record *r, const char *key, const char *name)
{
	int v = value_of(r, key);
	const char *vs = v > 0 ? smtpcode_value_name(
	    (enum smtpcode_field)lookup(r, key)->def->index, v) : NULL;
	return vs && strcmp(vs, name) == 0;
}

/* Only a bad address is suppressed: one whose mailbox or domain is
 * gone or unusable, said by a reason of that kind. */
static void check_suppress(const struct record *r)
{
	static const char *const address_reasons[] = {"userunknown",
	    "hostunknown", "hasmoved", "suspend", "notaccept", NULL};
	int reason = value_of(r, "reason");
	const struct field *f = blame(r, "suppress");
	if (!is(r, "suppress", "yes") || reason <= 0)
		return;
	if (!(is(r, "scope", "mailbox") || is(r, "scope", "domain")) ||
	    !one_of(smtpcode_value_name(SMTPCODE_REASON, reason),
	            address_reasons))
		fail(f->file, f->line, "%s: 'suppress: yes' needs scope mailbox "
		     "or domain and a bad-address reason (userunknown, "
		     "hostunknown, hasmoved, suspend, notaccept): only a bad "
		     "address is suppressed", r->codetext);
}

/* A verdict the code alone cannot give is unknown, and says what would
 * decide it. */
static void check_unknown(const struct record *r)
{
	int su = is(r, "suppress", "unknown"), bu = is(r, "bounce", "unknown");
	const struct field *d = lookup(r, "decides");
	const struct field *own = get(r, "decides");
	const struct field *f = blame(r, "suppress");
	if (su != bu)
		fail(f->file, f->line, "%s: 'suppress: unknown' and 'bounce: "
		     "unknown' go together", r->codetext);
	else if (su && !is(r, "retry", "after-fix"))
		fail(blame(r, "retry")->file, blame(r, "retry")->line, "%s: an "
		     "unknown verdict takes 'retry: after-fix'", r->codetext);
	else if (su && !d)
		fail(f->file, f->line, "%s: 'suppress: unknown' needs 'decides:' "
		     "(what would decide the verdict)", r->codetext);
	else if (!su && own)
		fail(own->file, own->line, "%s: 'decides' belongs only with "
		     "'suppress: unknown'", r->codetext);
}

/* How long a condition lasts is a temporary code's to say: a permanent
 * failure or a success does not pass.  Blamed where it is set, which may
 * be the X.S.D record its class records inherit from. */
static void check_duration(const struct record *r)
{
	const struct field *f = lookup(r, "duration");
	int sev = value_of(r, "severity");
	if (f && sev > 0 && sev != SMTPCODE_TEMPORARY)
		fail(f->file, f->line, "duration: only a temporary code has one");
}

/* Severity, retry, bounce and suppress must tell one story. */
static void check_verdict(const struct record *r)
{
	int sev = value_of(r, "severity"), retry = value_of(r, "retry");
	int bounce = value_of(r, "bounce"), suppress = value_of(r, "suppress");
	int final = is(r, "final", "yes");
	const char *rs = smtpcode_value_name(SMTPCODE_RETRY, retry);
	const char *bs = smtpcode_value_name(SMTPCODE_BOUNCE, bounce);
	const char *ss = smtpcode_value_name(SMTPCODE_SUPPRESS, suppress);
	int digit = r->code.basic ? (int)(r->code.basic / 100) : r->code.cls;
	const struct field *f;

	if (sev <= 0 || retry <= 0 || bounce <= 0 || suppress <= 0)
		return; /* missing or unknown: reported already */
	if (sev != severity_of_digit(digit)) {
		f = blame(r, "severity");
		fail(f->file, f->line, "%s: severity '%s' contradicts the class "
		     "digit %d (expected '%s')", r->codetext,
		     smtpcode_value_name(SMTPCODE_SEVERITY, sev), digit,
		     smtpcode_value_name(SMTPCODE_SEVERITY, severity_of_digit(digit)));
		return;
	}
	if (lookup(r, "final") && sev != SMTPCODE_TEMPORARY) {
		f = blame(r, "final");
		fail(f->file, f->line, "%s: 'final' is for temporary codes that "
		     "end delivery (an expiry): a permanent failure is final "
		     "already", r->codetext);
	} else if (sev == SMTPCODE_SUCCESS &&
	    (strcmp(rs, "none") || strcmp(bs, "none") || strcmp(ss, "no"))) {
		f = blame(r, "retry");
		fail(f->file, f->line, "%s: a success takes 'retry: none', "
		     "'bounce: none' and 'suppress: no'", r->codetext);
	} else if (sev == SMTPCODE_TEMPORARY &&
	           (strcmp(rs, final ? "after-fix" : "auto") ||
	            strcmp(bs, "soft") || strcmp(ss, "no"))) {
		f = blame(r, "retry");
		fail(f->file, f->line, "%s: a temporary failure takes 'retry: "
		     "auto' ('after-fix' with 'final: yes'), 'bounce: soft' and "
		     "'suppress: no'", r->codetext);
	} else if (sev == SMTPCODE_PERMANENT &&
	           (!strcmp(rs, "none") || !strcmp(rs, "auto") ||
	            !strcmp(bs, "none"))) {
		f = blame(r, "retry");
		fail(f->file, f->line, "%s: a permanent failure takes 'retry: "
		     "after-fix' or 'never' and a bounce of soft, hard, block or "
		     "unknown", r->codetext);
	} else if (sev == SMTPCODE_PERMANENT &&
	           (!strcmp(bs, "hard") != !strcmp(rs, "never") ||
	            !strcmp(bs, "hard") != !strcmp(ss, "yes"))) {
		f = blame(r, "suppress");
		fail(f->file, f->line, "%s: 'bounce: hard', 'retry: never' and "
		     "'suppress: yes' go together: only a bad address is "
		     "suppressed", r->codetext);
	}
	check_unknown(r);
	check_suppress(r);
	if (sev == SMTPCODE_PERMANENT)
		check_reason_verdict(r);
}

static void check_category(const struct record *r)
{
	unsigned type = r->key >> 8 & 0xff;
	require(r, "name", 1);
	require(r, "meaning", 1);
	require(r, "source", 1);
	if (type == CAT_CLASS || type == CAT_BASIC_FIRST) {
		int digit = (int)(r->key & 0xff), sev = value_of(r, "severity");
		require(r, "severity", 1);
		if (sev > 0 && sev != severity_of_digit(digit))
			fail(blame(r, "severity")->file, blame(r, "severity")->line,
			     "%s: severity contradicts the class digit %d",
			     r->codetext, digit);
	}
}

static void check_record(const struct record *r)
{
	static const char *const verdict[] = {"name", "registered", "severity",
	    "scope", "acts", "retry", "suppress", "bounce", "reason", "meaning",
	    "now", "source", NULL};
	check_fields(r);
	switch (r->kind) {
	case R_CATEGORY:
		check_category(r);
		return;
	case R_PROVIDER_DEF:
		require(r, "name", 1);
		require(r, "marker", 1);
		require(r, "site", 1);
		require(r, "source", 1);
		return;
	case R_GROUP_DEF:
		require(r, "name", 1);
		require(r, "scope", 1);
		require(r, "meaning", 1);
		return;
	case R_CORPUS:
		require(r, "name", 1);
		require(r, "meaning", 1);
		return;
	case R_LAYOUT:
	case R_PHRASES:
		check_layout(r);
		return;
	case R_DIALECT:
		check_dialect(r);
		return;
	case R_WORDS:
		check_wording(r);
		return;
	case R_SYNONYMS:
		check_synonyms(r);
		return;
	case R_JUDGE:
		check_judge(r);
		return;
	case R_TOPIC:
		require(r, "name", 1);
		require(r, "registered", 1);
		require(r, "meaning", 1);
		require(r, "source", 1);
		return;
	case R_PROVIDER:
		require_own(r, "name");
		require_own(r, "meaning");
		require_own(r, "source");
		require_own(r, "verified");
		break;
	case R_VARIANT:
		if (!get(r, "severity"))
			fail(r->file, r->line, "%s: missing 'severity' (each class "
			     "variant states its own)", r->codetext);
		break;
	case R_BASIC:
		break;
	}
	for (const char *const *k = verdict; *k; k++)
		if (strcmp(*k, "severity") || r->kind != R_VARIANT)
			require(r, *k, 1);
	require(r, "cause", 2);
	require(r, "fix", 1);
	require(r, "related", 1);
	check_verdict(r);
	check_duration(r);
}

/* Whether source line v starts with "PREFIX: " for a value PREFIX of
 * list key of record d. */
static int cites(const char *v, const struct record *d, const char *key)
{
	for (size_t i = 0; d && i < d->nfields; i++) {
		const struct field *f = &d->fields[i];
		size_t n = strlen(f->value);
		if (strcmp(f->def->name, key) == 0 && strncmp(v, f->value, n) == 0 &&
		    v[n] == ':' && v[n + 1] == ' ')
			return 1;
	}
	return 0;
}

/* A provider's entry rests on the provider's own page (one of its
 * site: lines) or on a public corpus of real replies (data/sources/corpora.txt);
 * a registered code's entry on RFCs, drafts and the registry alone, so
 * that no provider's meaning passes for the standard one. */
static void check_sources(const struct record *r)
{
	const struct record *p = r->kind == R_PROVIDER
	    ? find_definition(R_PROVIDER_DEF, get(r, "provider")->value) : NULL;
	int own = 0;
	for (size_t i = 0; i < r->nfields; i++) {
		const struct field *f = &r->fields[i];
		int corpus = 0;
		if (strcmp(f->def->name, "source"))
			continue;
		if (r->kind != R_PROVIDER) {
			if (strncmp(f->value, "RFC ", 4) && strncmp(f->value, "IANA ", 5) &&
			    strncmp(f->value, "draft-", 6))
				fail(f->file, f->line, "%s: a registered code cites RFCs, "
				     "drafts and the IANA registry only: a provider's use "
				     "of it belongs in the provider's entry", r->codetext);
			continue;
		}
		for (size_t k = 0; k < nrecords && !corpus; k++)
			corpus = records[k].kind == R_CORPUS &&
			         cites(f->value, &records[k], "name");
		if (strncmp(f->value, "observed", 8) == 0)
			fail(f->file, f->line, "%s: 'observed replies' is no source: "
			     "cite the provider's page or a corpus of "
			     "data/sources/corpora.txt and where in it", r->codetext);
		own |= corpus || cites(f->value, p, "site");
	}
	if (r->kind == R_PROVIDER && p && !own)
		fail(r->file, r->line, "%s: no source is %s's own page (a 'site:' "
		     "of the provider) or a corpus of data/sources/corpora.txt",
		     r->codetext, p->codetext);
}

/* A provider's entry is registered exactly when its code's standard
 * entry is: a class the registry does not use (5.1.5, where only 2.1.5
 * is registered) is the provider's own. */
static void check_registered(const struct record *r)
{
	int want = r->topic && is(r->topic, "registered", "yes");
	const struct field *f = blame(r, "registered");
	if (r->kind == R_PROVIDER && value_of(r, "registered") > 0 &&
	    is(r, "registered", "yes") != want)
		fail(f->file, f->line, "%s: 'registered: %s' but %s", r->codetext,
		     want ? "no" : "yes", want ? "its code is registered"
		     : "the table has no registered standard entry for it");
}

/* A group's members share its scope. */
static void check_group_scope(const struct record *r)
{
	const struct field *g = lookup(r, "group");
	const struct record *d = g ? find_definition(R_GROUP_DEF, g->value) : NULL;
	int scope = value_of(r, "scope"), want = d ? value_of(d, "scope") : 0;
	/* Blame the record's own line: its scope, else its group line. */
	const struct field *f = get(r, "scope") ? get(r, "scope")
	                      : get(r, "group") ? get(r, "group") : NULL;
	if (scope > 0 && want > 0 && scope != want)
		fail(f ? f->file : r->file, f ? f->line : r->line, "%s: scope "
		     "'%s' differs from its group %s's '%s'", r->codetext,
		     smtpcode_value_name(SMTPCODE_SCOPE, scope), d->codetext,
		     smtpcode_value_name(SMTPCODE_SCOPE, want));
}

/* An entry as a message names it: "5.2.1", or "5.2.1 (gmail)" for a
 * provider's. */
static const char *entry_name(const struct record *r, char *buf, size_t n)
{
	const struct field *p = r->kind == R_PROVIDER ? get(r, "provider") : NULL;
	if (p)
		snprintf(buf, n, "%s (%s)", r->codetext, p->value);
	else
		snprintf(buf, n, "%s", r->codetext);
	return buf;
}

/* The line of r to blame for a verdict it may inherit: where it sets its
 * suppress or bounce, else its group line, else its first line. */
static const struct field *own_line(const struct record *r)
{
	static struct field none;
	const struct field *f = get(r, "suppress");
	if (f || (f = get(r, "bounce")) || (f = get(r, "group")))
		return f;
	none.file = r->file;
	none.line = r->line;
	return &none;
}

/* The codes of a group mean the same thing to a user ("mailbox full"), so
 * its permanent members, providers' entries too, give one verdict: the
 * same suppress and bounce.  Each member that differs from the group's
 * first permanent member is reported, naming both. */
static void check_group_verdicts(void)
{
	for (size_t g = 0; g < nrecords; g++) {
		const struct record *d = &records[g], *first = NULL;
		if (d->kind != R_GROUP_DEF || !usable(d))
			continue;
		for (size_t i = 0; i < nrecords; i++) {
			const struct record *r = &records[i];
			const struct field *grp = lookup(r, "group");
			int su, bo;
			char a[64], b[64];
			if ((r->kind != R_BASIC && r->kind != R_VARIANT &&
			     r->kind != R_PROVIDER) || !usable(r) || !grp ||
			    strcmp(grp->value, d->codetext) ||
			    !is(r, "severity", "permanent"))
				continue;
			su = value_of(r, "suppress");
			bo = value_of(r, "bounce");
			if (su <= 0 || bo <= 0)
				continue; /* missing or invalid: reported already */
			if (!first) {
				first = r;
				continue;
			}
			if (su == value_of(first, "suppress") &&
			    bo == value_of(first, "bounce"))
				continue;
			fail(own_line(r)->file, own_line(r)->line, "%s: 'suppress: %s' "
			     "and 'bounce: %s' differ from %s's 'suppress: %s' and "
			     "'bounce: %s' (%s:%ld), the first permanent member of group "
			     "%s: a group's permanent members share their verdict",
			     entry_name(r, a, sizeof a),
			     smtpcode_value_name(SMTPCODE_SUPPRESS, su),
			     smtpcode_value_name(SMTPCODE_BOUNCE, bo),
			     entry_name(first, b, sizeof b),
			     smtpcode_value_name(SMTPCODE_SUPPRESS,
			                         value_of(first, "suppress")),
			     smtpcode_value_name(SMTPCODE_BOUNCE,
			                         value_of(first, "bounce")),
			     first->file, first->line, d->codetext);
		}
	}
}

static int is_alnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* Where text holds word (n bytes) as a whole word, as written; with
 * capital, its first letter (a lowercase one) in capitals: "Gmail" for
 * gmail, "Exchange" for exchange, and not the word "exchange".  NULL when
 * it does not. */
static const char *has_word(const char *text, const char *word, size_t n,
                            int capital)
{
	for (const char *t = text; n && *t; t++) {
		size_t k = 0;
		while (k < n && t[k] &&
		       t[k] == (k || !capital ? word[k] : word[k] - 'a' + 'A'))
			k++;
		if (k == n && (t == text || !is_alnum((unsigned char)t[-1])) &&
		    !is_alnum((unsigned char)t[n]))
			return t;
	}
	return NULL;
}

/* The provider that text names, or NULL; *term, *len: where in text.
 * A provider is named by a part of its name as written ("Gmail / Google
 * Workspace" gives "Gmail" and "Google Workspace", "Cox Communications
 * (cox.net)" gives "Cox Communications"; "Spectrum", not the word
 * "spectrum"), and, with ids, by its id as a proper noun ("Microsoft",
 * "Exchange"), not in a registered name, which is title case
 * ("Authentication Exchange line is too long").  The names are tried
 * first, so that "Exchange Online" names microsoft, not exchange. */
static const struct record *provider_in(const char *text, int ids,
                                        const char **term, size_t *len)
{
	for (int pass = 0; pass < 1 + !!ids; pass++)
		for (size_t i = 0; i < nrecords; i++) {
			const struct record *p = &records[i];
			const struct field *name = get(p, "name");
			const char *s = pass || !name ? "" : name->value;
			if (p->kind != R_PROVIDER_DEF || !usable(p))
				continue;
			while (*s) {
				const char *end = strstr(s, " / "), *paren = strstr(s, " (");
				const char *next = end ? end + 3 : s + strlen(s);
				if (!end)
					end = s + strlen(s);
				if (paren && paren < end)
					end = paren;
				*len = (size_t)(end - s);
				if ((*term = has_word(text, s, *len, 0)) != NULL)
					return p;
				s = next;
			}
			*len = strlen(p->codetext);
			if (pass && p->codetext[0] >= 'a' && p->codetext[0] <= 'z' &&
			    (*term = has_word(text, p->codetext, *len, 1)) != NULL)
				return p;
		}
	return NULL;
}

/* A registered code's name and meaning are the registry's: a provider's
 * use of the code ("Gmail sends it for ...") belongs in the provider's
 * entry, where it is sourced and dated. */
static void check_provider_names(const struct record *r)
{
	static const char *const keys[] = {"name", "meaning"};
	if ((r->kind != R_BASIC && r->kind != R_TOPIC && r->kind != R_VARIANT) ||
	    !is(r, "registered", "yes"))
		return;
	for (size_t k = 0; k < 2; k++) {
		const struct field *f = get(r, keys[k]);
		const struct record *p;
		const char *term;
		size_t len;
		if (f && (p = provider_in(f->value, k == 1, &term, &len)) != NULL)
			fail(f->file, f->line, "%s: the %s of a registered code names "
			     "the provider '%.*s' (%s): a provider's use of it belongs "
			     "in the provider's entry (data/providers/)", r->codetext,
			     keys[k], (int)len, term, p->codetext);
	}
}

/* The failure classes of one standard code (4.7.27, 5.7.27) give one
 * reason and one group: what differs between them is the verdict. */
static void check_classes_agree(const struct record *a)
{
	static const char *const keys[] = {"reason", "group"};
	if (a->kind != R_VARIANT || a->code.cls != 5)
		return;
	for (size_t i = 0; i < nrecords; i++) {
		const struct record *b = &records[i];
		if (b->kind != R_VARIANT || b->code.cls != 4 || b->topic != a->topic)
			continue;
		for (size_t k = 0; k < 2; k++) {
			const struct field *fa = lookup(a, keys[k]);
			const struct field *fb = lookup(b, keys[k]);
			if (!fa != !fb || (fa && strcmp(fa->value, fb->value)))
				fail(blame(a, keys[k])->file, blame(a, keys[k])->line,
				     "%s: %s '%s' differs from %s's '%s': the classes "
				     "of one code share it", a->codetext, keys[k],
				     fa ? fa->value : "(none)", b->codetext,
				     fb ? fb->value : "(none)");
		}
	}
}

/* Codes named in related, with and basic lines must be entries of the
 * table, and groups must be defined. */
static void check_references(const struct record *r)
{
	const struct field *g = get(r, "group");
	if (g && !find_definition(R_GROUP_DEF, g->value))
		fail(g->file, g->line, "unknown group '%s' (no 'group: %s' record)",
		     g->value, g->value);
	for (size_t i = 0; i < r->nfields; i++) {
		const struct field *f = &r->fields[i];
		char code[32];
		size_t keylen;
		int list = f->def->index;
		if (f->def->type != LIST || (list != SMTPCODE_RELATED &&
		                             list != SMTPCODE_WITH &&
		                             list != SMTPCODE_BASIC))
			continue;
		split_item(f->value, &keylen);
		if (list == SMTPCODE_BASIC && !keylen)
			keylen = strlen(f->value);
		if (!keylen || keylen >= sizeof code)
			continue;
		memcpy(code, f->value, keylen);
		code[keylen] = '\0';
		if (!find_code(code))
			fail(f->file, f->line, "%s names '%s', which is not in the "
			     "table", f->def->name, code);
		else if (strcmp(code, r->codetext) == 0 && r->kind != R_PROVIDER)
			fail(f->file, f->line, "%s names the entry itself",
			     f->def->name);
	}
}

/* A provider's entries for one code are told apart by their phrases. */
static void check_provider_entries(const struct record *r)
{
	size_t same = 0;
	for (size_t i = 0; i < nrecords; i++)
		same += records[i].kind == R_PROVIDER && records[i].key == r->key &&
		        records[i].provider == r->provider;
	if (same > 1 && !get(r, "match"))
		fail(r->file, r->line, "%s has several %s entries: each needs "
		     "'match:' lines to tell them apart", r->codetext,
		     get(r, "provider")->value);
}

/* Link each record to what it inherits from, and its provider; refuse
 * a second record for one code, provider or group. */
static void link_record(struct record *r)
{
	struct record *first;
	const struct field *p;

	if (r->kind == R_PROVIDER) {
		p = get(r, "provider");
		first = find_definition(R_PROVIDER_DEF, p->value);
		if (!first)
			fail(p->file, p->line, "unknown provider '%s' (no "
			     "'provider: %s' record)", p->value, p->value);
		else
			r->provider = first->key & 0xffffu;
		r->topic = find_record(r->key);
		return;
	}
	first = named(r->kind) ? find_definition(r->kind, r->codetext)
	            : find_record(r->key);
	if (first != r) {
		fail(r->file, r->line, "duplicate %s %s (first at %s:%ld)",
		     r->kind == R_PROVIDER_DEF ? "provider"
		     : r->kind == R_GROUP_DEF ? "group"
		     : r->kind == R_CORPUS ? "corpus"
		     : r->kind == R_LAYOUT ? "layout"
		     : r->kind == R_PHRASES ? "phrase list"
		     : r->kind == R_DIALECT ? "dialect"
		     : r->kind == R_WORDS ? "reason-words"
		     : r->kind == R_SYNONYMS ? "synonyms"
		     : r->kind == R_JUDGE ? "judge" : "code",
		     r->codetext, first->file, first->line);
		return;
	}
	if (r->kind == R_VARIANT) {
		r->topic = find_record(KEY_ENHANCED(0, r->code.subject,
		                                    r->code.detail));
		if (!r->topic)
			fail(r->file, r->line, "%s has no record for X.%u.%u (the "
			     "class-independent entry it belongs to)", r->codetext,
			     r->code.subject, r->code.detail);
		else
			r->topic->has_variant = 1;
	}
}

static int usable(const struct record *r)
{
	if (r->key == UINT32_MAX)
		return 0;
	if (r->kind == R_PROVIDER)
		return r->provider != 0;
	if (named(r->kind))
		return find_definition(r->kind, r->codetext) == r;
	return find_record(r->key) == r && (r->kind != R_VARIANT || r->topic);
}

unsigned record_priority(const struct record *r, const char *tried)
{
	const struct field *f = get(r, "priority");
	char *end;
	unsigned long v;

	if (!f) {
		fail(r->file, r->line, "%s %s has no 'priority:' (a whole "
		     "number: lower ones %s)", r->fields[0].def->name,
		     r->fields[0].value, tried);
		return 0;
	}
	v = strtoul(f->value, &end, 10);
	if (f->value[0] < '0' || f->value[0] > '9' || *end || v < 1 ||
	    v > 65535) {
		fail(f->file, f->line, "priority '%s' is not a whole number "
		     "from 1 to 65535", f->value);
		return 0;
	}
	return (unsigned)v;
}

/* Providers are numbered by priority, lowest first, wherever their files
 * are: a reply that holds several providers' markers is read as the
 * first's whose phrases pick an entry (src/match/provider.c).  Two with
 * one priority would be ordered by the file list: refused. */
static void rank_providers(void)
{
	struct record **defs = NULL;
	unsigned *prio = NULL;
	size_t n = 0;

	for (size_t i = 0; i < nrecords; i++) {
		struct record *r = &records[i];
		if (!r->nfields || strcmp(r->fields[0].def->name, "provider"))
			continue;
		defs = xrealloc(defs, (n + 1) * sizeof *defs);
		prio = xrealloc(prio, (n + 1) * sizeof *prio);
		defs[n] = r;
		prio[n++] = record_priority(r, "have their markers tried first");
	}
	for (size_t i = 0; i < n; i++) {
		unsigned rank = 1;
		for (size_t j = 0; j < n; j++) {
			if (j < i && prio[j] && prio[j] == prio[i])
				fail(get(defs[i], "priority")->file,
				     get(defs[i], "priority")->line,
				     "providers %s and %s have the same priority %u",
				     defs[j]->fields[0].value,
				     defs[i]->fields[0].value, prio[i]);
			rank += prio[j] < prio[i] || (j < i && prio[j] == prio[i]);
		}
		defs[i]->rank = rank;
	}
	free(defs);
	free(prio);
}

void check_all(void)
{
	rank_providers();
	for (size_t i = 0; i < nrecords; i++)
		classify(&records[i]);
	check_layout_order();
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].key != UINT32_MAX)
			link_record(&records[i]);
	/* Go on after errors, so one run reports every problem; skip only
	 * records that cannot be placed. */
	for (size_t i = 0; i < nrecords; i++) {
		const struct record *r = &records[i];
		if (!usable(r))
			continue;
		check_record(r);
		check_references(r);
		check_group_scope(r);
		check_registered(r);
		check_classes_agree(r);
		check_provider_names(r);
		if (r->kind == R_PROVIDER || ((r->kind == R_TOPIC ||
		     r->kind == R_BASIC) && is(r, "registered", "yes")))
			check_sources(r);
		if (r->kind == R_PROVIDER)
			check_provider_entries(r);
	}
	check_group_verdicts();
	check_wordings();
	check_judges();
	check_synonym_lists();
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].kind == R_TOPIC && !records[i].has_variant)
			fail(records[i].file, records[i].line, "%s has no class "
			     "variant (add a record for 2.x.x, 4.x.x or 5.x.x)",
			     records[i].codetext);
}

void phrases_once(size_t i, const char *noun, const char *kind)
{
	const struct record *r = &records[i];
	for (size_t k = 0; k < r->nfields; k++) {
		const struct field *f = &r->fields[k];
		if (strcmp(f->def->name, "phrase"))
			continue;
		for (size_t j = 0; j <= i; j++) {
			const struct record *s = &records[j];
			size_t end = j == i ? k : s->nfields;
			if (s->kind != r->kind)
				continue;
			for (size_t m = 0; m < end; m++)
				if (strcmp(s->fields[m].def->name, "phrase") == 0 &&
				    datafmt_same_phrase(s->fields[m].value, f->value))
					fail(f->file, f->line, "%s '%s' is already in %s %s "
					     "(%s:%ld)", noun, f->value, kind, s->codetext,
					     s->fields[m].file, s->fields[m].line);
		}
	}
}
