/*
 * The fields of one result (see fields.h): what each JSON key, TSV column
 * and --field name holds.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "fields.h"
#include "rules.h"

static const char *const names[NFIELDS] = {
	"input", "code", "kind", "known", "registered", "severity", "final",
	"name", "scope", "acts", "retry", "suppress", "bounce", "reason", "basic",
	"meaning", "causes", "fixes", "related", "group", "provider",
	"sources", "warnings", "verdict_from", "reason_phrase", "frequency",
	"duration", "avoid", "faq",
};

const char *field_name(enum field_id f)
{
	return (unsigned)f < NFIELDS ? names[f] : NULL;
}

int field_parse(const char *s)
{
	for (int f = 0; f < NFIELDS; f++)
		if (strcmp(names[f], s) == 0)
			return f;
	return -1;
}

__attribute__((format(printf, 2, 3)))
static void warn(struct row *w, const char *fmt, ...)
{
	va_list ap;
	if (w->nwarnings == sizeof w->warnings / sizeof *w->warnings)
		return; /* (six at most are ever made) */
	va_start(ap, fmt);
	format_v(w->warning_text[w->nwarnings], sizeof w->warning_text[0], fmt,
	          ap); /* (gentable keeps the data's part of a warning short) */
	va_end(ap);
	w->warnings[w->nwarnings] = w->warning_text[w->nwarnings];
	w->nwarnings++;
}

const char *decided_by(const struct smtpcode_verdict *v, char *buf,
                       size_t size)
{
	const struct smtpcode_entry *p = v->from ? smtpcode_provider_of(v->from)
	                                         : NULL;
	buf[0] = '\0';
	if (v->value[SMTPCODE_SUPPRESS] !=
	    smtpcode_value_parse(SMTPCODE_SUPPRESS, "unknown", 7))
		return buf;
	if (v->provider_guess && p)
		format(buf, size, "the reply: only %s gives %s this meaning, and "
		         "another server may mean something else by it",
		         smtpcode_text(p, SMTPCODE_CODE),
		         smtpcode_text(v->from, SMTPCODE_CODE));
	else if (v->from)
		format(buf, size, "%s", smtpcode_text(v->from, SMTPCODE_DECIDES));
	return buf;
}

/* The warnings of a verdict that more than its entry decided, or that
 * nothing decides. */
static void verdict_warnings(struct row *w, const struct smtpcode_result *r)
{
	const struct smtpcode_verdict *v = &w->verdict;
	unsigned basic = r->query.basic;
	char decides[512];

	if (v->basic_decides)
		warn(w, "%u and %s disagree: the SMTP exchange acted on %u, so "
		     "the verdict is %s's", basic, w->code, basic,
		     smtpcode_text(v->from, SMTPCODE_CODE));
	else if (basic && r->query.enhanced && r->pairing == SMTPCODE_PAIR_MISMATCH)
		warn(w, "%u and %s disagree: the class of the enhanced code must "
		     "match the first digit of the basic code", basic, w->code);
	if (*decided_by(v, decides, sizeof decides))
		warn(w, "%s alone does not tell whether the address is bad; "
		     "decided by %s", smtpcode_text(v->from, SMTPCODE_CODE), decides);
	if (v->report_decides)
		warn(w, v->value[SMTPCODE_FINAL] == 2
		     ? "the report is final: the message was returned although %s "
		       "is temporary" : "the report is a delay: the message is "
		       "still queued although %s reports an expiry", w->code);
}

const char *decided_by_words(const char *verdict_from)
{
	static const char *const said[][2] = {
		{"code", "the reply's own code"},
		{"dsn", "the Status: field (the reporting server's code)"},
		{"phrase", "a provider's phrase in the reply"},
		{"words", "the reply's words"},
		{"rules", "your rules"},
		{"stage", "the SMTP step: a refusal after DATA is a filter's"},
		{"message", "what the message is"},
	};
	for (size_t i = 0; verdict_from && i < sizeof said / sizeof *said; i++)
		if (strcmp(said[i][0], verdict_from) == 0)
			return said[i][1];
	return "nothing: no code and no known words";
}

void judge(struct smtpcode_evidence *ev, struct smtpcode_judgement *j)
{
	ev->rules = rules_loaded();
	smtpcode_judge(ev, j);
}

/* The row of result r for input: its entry and code; the verdict is the
 * caller's to set. */
static void row_fill(struct row *w, const struct smtpcode_result *r,
                     const char *input)
{
	memset(w, 0, sizeof *w);
	w->input = input;
	w->r = r;
	w->entry = smtpcode_answer(r);
	if (r->query.basic || r->query.enhanced)
		smtpcode_format(&r->query, w->code, sizeof w->code);
	w->code_given = w->code[0] != '\0';
}

void row_verdict(struct row *w, const struct smtpcode_judgement *j,
                 const char *input)
{
	row_fill(w, &j->result, input);
	w->verdict = j->verdict;
	w->wording = j->wording;
	w->verdict_from = smtpcode_decider_name(j->verdict_from);
	w->code_given = j->code_from != SMTPCODE_BY_NOTHING;
}

/* The warnings of a row: what decided its verdict, and what is odd in
 * its codes. */
static void row_warnings(struct row *w)
{
	const struct smtpcode_result *r = w->r;
	const struct smtpcode_match *m = &r->match;
	unsigned basic = r->query.basic;
	const char *origin = rules_origin(w->wording.phrase);
	const char *name = rules_name(w->wording.phrase);

	if (w->wording.phrase && origin)
		warn(w, "the reason comes from your rule %s%s%s%s: \"%s\" means %s",
		     origin, name ? " (" : "", name ? name : "", name ? ")" : "",
		     w->wording.phrase,
		     smtpcode_value_name(SMTPCODE_REASON, w->wording.reason));
	else if (w->wording.phrase &&
	         w->verdict.value[SMTPCODE_REASON] != w->wording.reason)
		warn(w, "the reply's words \"%s\" say %s, and the SMTP step it "
		     "answered makes it %s: a refusal after DATA comes from a "
		     "filter, not a missing mailbox", w->wording.phrase,
		     smtpcode_value_name(SMTPCODE_REASON, w->wording.reason),
		     smtpcode_value_name(SMTPCODE_REASON,
		                         w->verdict.value[SMTPCODE_REASON]));
	else if (w->wording.phrase)
		warn(w, "the reason comes from the reply's words: \"%s\" means "
		     "%s%s", w->wording.phrase,
		     smtpcode_value_name(SMTPCODE_REASON, w->wording.reason),
		     w->entry && !smtpcode_reason_from_words(r)
		         ? ", which says more than the code"
		         : " (the code leaves the reason to the words)");
	if (!w->code[0])
		warn(w, "%s", "no code was found");
	else if (!r->known)
		warn(w, "%s is not in the table: what its digits tell is all "
		     "there is", w->code);
	verdict_warnings(w, r);
	if (r->query.basic && r->query.enhanced &&
	         r->pairing == SMTPCODE_PAIR_UNUSUAL)
		warn(w, "%u is not a usual basic code for %s", basic, w->code);
	if (m->how == SMTPCODE_MATCH_AMBIGUOUS)
		warn(w, "ambiguous: none of the %s entries for %s matches the "
		     "reply text", m->provider ? smtpcode_text(m->provider,
		                                               SMTPCODE_CODE)
		                               : "providers'", w->code);
	if (m->entry && smtpcode_value(m->entry, SMTPCODE_DIFFERS) == 2)
		warn(w, "%s gives %s a meaning of its own, unlike the registry",
		     smtpcode_text(m->provider, SMTPCODE_CODE), w->code);
}

void row_of_judgement(struct row *w, const struct smtpcode_judgement *j,
                      const char *input)
{
	row_verdict(w, j, input);
	row_warnings(w);
}

void row_of_result(struct row *w, const struct smtpcode_result *r,
                   const char *input)
{
	row_fill(w, r, input);
	smtpcode_verdict(r, SMTPCODE_REPORT_UNSAID, &w->verdict);
	row_warnings(w);
}

void row_of_category(struct row *w, const struct smtpcode_entry *e,
                     const char *input)
{
	memset(w, 0, sizeof *w);
	w->input = input;
	w->entry = e;
	format(w->code, sizeof w->code, "%s", smtpcode_text(e, SMTPCODE_CODE));
}

static struct value string(const char *s)
{
	struct value v = {V_NULL, NULL, false, SMTPCODE_CAUSES};
	if (s && *s) {
		v.type = V_STRING;
		v.s = s;
	}
	return v;
}

static struct value boolean(bool b)
{
	struct value v = {V_BOOL, NULL, b, SMTPCODE_CAUSES};
	return v;
}

static struct value of_type(enum value_type t, enum smtpcode_list l)
{
	struct value v = {t, NULL, false, l};
	return v;
}

/* The name of an enumerated value, or NULL when it is unset. */
static struct value enumerated(const struct smtpcode_entry *e,
                               enum smtpcode_field f)
{
	return string(e ? smtpcode_value_name(f, smtpcode_value(e, f)) : NULL);
}

/* A field of the verdict: a lookup's, or a category row's own. */
static struct value verdict_value(const struct row *w, enum smtpcode_field f)
{
	if (!w->r)
		return enumerated(w->entry, f);
	return string(smtpcode_value_name(f, w->verdict.value[f]));
}

/* A yes-or-no field of the verdict. */
static struct value yes_no(const struct row *w, enum smtpcode_field f)
{
	struct value v = verdict_value(w, f);
	/* A failure nothing decides (the judgement sets every other one):
	 * unknown, never no. */
	if ((v.type == V_STRING && strcmp(v.s, "unknown") == 0) ||
	    (w->r && v.type == V_NULL && f == SMTPCODE_SUPPRESS))
		v.type = V_UNKNOWN;
	else if (v.type == V_STRING || f == SMTPCODE_SUPPRESS)
		v = boolean(v.type == V_STRING && strcmp(v.s, "yes") == 0);
	return v;
}

struct value field_value(const struct row *w, enum field_id f)
{
	const struct smtpcode_entry *e = w->entry;
	switch (f) {
	case F_INPUT: return string(w->input);
	case F_CODE: return string(w->code);
	case F_KIND:
		if (!w->code[0])
			return string(NULL);
		return string(w->r ? (w->r->query.enhanced ? "enhanced" : "basic")
		                   : (strchr(w->code, '.') ? "enhanced" : "basic"));
	case F_KNOWN: return boolean(w->r ? w->r->known && w->code[0] : true);
	case F_REGISTERED:
		return boolean(e && smtpcode_value(e, SMTPCODE_REGISTERED) == 2);
	case F_SEVERITY: return verdict_value(w, SMTPCODE_SEVERITY);
	case F_FINAL: return yes_no(w, SMTPCODE_FINAL);
	case F_NAME: return string(e ? smtpcode_text(e, SMTPCODE_NAME) : NULL);
	case F_SCOPE: return verdict_value(w, SMTPCODE_SCOPE);
	case F_ACTS: return verdict_value(w, SMTPCODE_ACTS);
	case F_RETRY: return verdict_value(w, SMTPCODE_RETRY);
	case F_SUPPRESS: return yes_no(w, SMTPCODE_SUPPRESS);
	case F_BOUNCE: return verdict_value(w, SMTPCODE_BOUNCE);
	case F_REASON: return verdict_value(w, SMTPCODE_REASON);
	case F_BASIC: return of_type(V_LIST, SMTPCODE_BASIC);
	case F_MEANING:
		return string(e ? smtpcode_text(e, SMTPCODE_MEANING) : NULL);
	case F_CAUSES: return of_type(V_LIST, SMTPCODE_CAUSES);
	case F_FIXES: return of_type(V_FIXES, SMTPCODE_FIXES);
	case F_RELATED: return of_type(V_RELATED, SMTPCODE_RELATED);
	case F_GROUP: return string(e ? smtpcode_text(e, SMTPCODE_GROUP) : NULL);
	case F_PROVIDER:
		return w->r && w->r->match.provider ? of_type(V_PROVIDER,
		                                              SMTPCODE_MATCHES)
		                                    : string(NULL);
	case F_SOURCES: return of_type(V_LIST, SMTPCODE_SOURCES);
	case F_WARNINGS: return of_type(V_WARNINGS, SMTPCODE_NOTES);
	case F_VERDICT_FROM: return string(w->verdict_from);
	case F_REASON_PHRASE: return string(w->wording.phrase);
	case F_FREQUENCY: {
		struct value v = enumerated(e, SMTPCODE_FREQUENCY);
		if (v.type == V_STRING)
			v.type = V_FREQUENCY;
		return v;
	}
	case F_DURATION:
		return string(e ? smtpcode_text(e, SMTPCODE_DURATION) : NULL);
	case F_AVOID: return of_type(V_LIST, SMTPCODE_AVOID);
	case F_FAQ: return of_type(V_FAQ, SMTPCODE_FAQ);
	case NFIELDS: break;
	}
	return string(NULL);
}

const char *faq_split(const char *item, size_t *question_len)
{
	const char *mark = strstr(item, "? ");
	if (!mark) {
		*question_len = strlen(item);
		return "";
	}
	*question_len = (size_t)(mark - item) + 1;
	return mark + 2;
}

struct smtpcode_text seen_code(struct smtpcode_text reply,
                               const struct smtpcode_query *q, int enhanced)
{
	/* A reply starts with its codes: "550 5.1.1 ...", "550-5.1.1 ...";
	 * one that does not ("Sorry, no mailbox here (#5.1.1)") shows none. */
	struct smtpcode_text t = {NULL, 0};
	const char *p, *end;
	if (!reply.len || (enhanced ? !q->enhanced : !q->basic) ||
	    reply.s[0] < '0' || reply.s[0] > '9')
		return t;
	p = reply.s;
	end = reply.s + reply.len;
	if (enhanced && q->basic && reply.len > 4) {
		p += 4;
		while (p < end && *p == ' ')
			p++;
	}
	t.s = p;
	if (!enhanced && end - p > 3) /* a basic code: three bytes at most */
		end = p + 3;
	/* What is there up to a space, a '-' or the end must be the code:
	 * digits and dots. */
	while (p < end && ((*p >= '0' && *p <= '9') || *p == '.'))
		p++;
	if (p == end || *p == ' ' || *p == '-' || *p == '\r')
		t.len = (size_t)(p - t.s);
	return t;
}
