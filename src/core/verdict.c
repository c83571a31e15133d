/*
 * The verdict a result gives scripts (severity, retry, suppress, bounce,
 * reason...): the answering entry's values, except where the codes
 * contradict each other or the report says more than its code (see
 * struct smtpcode_verdict in smtpcode.h).  No knowledge of particular
 * codes: only classes, and the data's final field.
 */
#include <stdint.h>
#include <string.h>

#include "smtpcode.h"
#include "table.h"

static unsigned char value_named(enum smtpcode_field f, const char *name)
{
	return (unsigned char)smtpcode_value_parse(f, name, strlen(name));
}

/* The entry whose verdict a reply whose classes disagree gets: the
 * enhanced code's subject and detail in the basic code's class, else the
 * basic code. */
static const struct smtpcode_entry *basic_class_entry(
    const struct smtpcode_result *r)
{
	const struct smtpcode_query *q = &r->query;
	const struct smtpcode_entry *e =
	    smtpcode_find_enhanced(q->basic / 100, q->subject, q->detail);
	return e ? e : r->basic;
}

/* The entry the verdict of r comes from; *basic_decides set when the
 * classes disagree and the basic code's class decides. */
static const struct smtpcode_entry *verdict_entry(
    const struct smtpcode_result *r, bool *basic_decides)
{
	const struct smtpcode_query *q = &r->query;
	*basic_decides = false;
	if (q->basic && q->enhanced && q->cls &&
	    r->pairing == SMTPCODE_PAIR_MISMATCH && basic_class_entry(r)) {
		*basic_decides = true;
		return basic_class_entry(r);
	}
	/* An enhanced code that says nothing more than its class (X.0.0,
	 * "other or undefined status") adds nothing to a failure's basic
	 * code: 451 4.0.0 is what 451 is; unless a provider's entry
	 * answers.  (A success's 2.0.0 is its message's, as 250 is.) */
	if (q->basic && q->enhanced && q->cls != 2 && q->subject == 0 &&
	    q->detail == 0 && r->basic && !r->match.entry)
		return r->basic;
	return smtpcode_answer(r);
}

bool smtpcode_reason_from_words(const struct smtpcode_result *r)
{
	bool basic_decides;
	const struct smtpcode_entry *e = verdict_entry(r, &basic_decides);
	if (!e)
		return true;
	/* Words do not make a success a failure of some kind. */
	if (smtpcode_value(e, SMTPCODE_SEVERITY) == SMTPCODE_SUCCESS)
		return false;
	/* A provider's entry its own phrases picked says more than words,
	 * unless it too leaves the reason to them. */
	if (r->match.entry == e && r->match.phrase && !e->reason_from_words)
		return false;
	return e->reason_from_words != 0;
}

void smtpcode_verdict(const struct smtpcode_result *r,
                      enum smtpcode_report report, struct smtpcode_verdict *v)
{
	const struct smtpcode_query *q = &r->query;
	const struct smtpcode_entry *e;
	unsigned char *val;
	bool entry_final;

	memset(v, 0, sizeof *v);
	val = v->value;
	e = verdict_entry(r, &v->basic_decides);
	v->from = e;
	if (e) {
		for (int f = 0; f < SMTPCODE_NFIELDS; f++)
			val[f] = (unsigned char)smtpcode_value(e, (enum smtpcode_field)f);
	} else {
		/* A code the table lacks: what its class digit says. */
		unsigned digit = q->enhanced && q->cls ? q->cls : q->basic / 100;
		const struct smtpcode_entry *c = q->enhanced && q->cls
		    ? smtpcode_find_class(digit)
		    : smtpcode_find_basic_digit(1, digit);
		if (c)
			val[SMTPCODE_SEVERITY] =
			    (unsigned char)smtpcode_value(c, SMTPCODE_SEVERITY);
	}
	if (e && e == r->match.entry && !r->match.marker && !r->match.given &&
	    smtpcode_value(e, SMTPCODE_DIFFERS) == value_named(SMTPCODE_DIFFERS,
	                                                       "yes") &&
	    val[SMTPCODE_SEVERITY] == SMTPCODE_PERMANENT) {
		/* The one provider's own meaning of a code the registry uses
		 * otherwise, for a reply that need not be that provider's:
		 * what it says of the address is the provider's alone. */
		v->provider_guess = true;
		val[SMTPCODE_SUPPRESS] = value_named(SMTPCODE_SUPPRESS, "unknown");
		val[SMTPCODE_BOUNCE] = value_named(SMTPCODE_BOUNCE, "unknown");
		val[SMTPCODE_RETRY] = value_named(SMTPCODE_RETRY, "after-fix");
		val[SMTPCODE_REASON] = value_named(SMTPCODE_REASON, "undefined");
	}
	if (val[SMTPCODE_SEVERITY] == SMTPCODE_PERMANENT) {
		val[SMTPCODE_FINAL] = value_named(SMTPCODE_FINAL, "yes");
	} else if (val[SMTPCODE_SEVERITY] == SMTPCODE_TEMPORARY) {
		entry_final = val[SMTPCODE_FINAL] == value_named(SMTPCODE_FINAL, "yes");
		bool final = report == SMTPCODE_REPORT_FINAL ? true
		           : report == SMTPCODE_REPORT_DELAYED ? false
		           : entry_final;
		v->report_decides = final != entry_final;
		val[SMTPCODE_FINAL] = value_named(SMTPCODE_FINAL, final ? "yes" : "no");
		if (e)
			val[SMTPCODE_RETRY] =
			    value_named(SMTPCODE_RETRY, final ? "after-fix" : "auto");
		/* Nobody waits on a queue that gave up: the sender resends. */
		if (e && final && val[SMTPCODE_ACTS] == value_named(SMTPCODE_ACTS,
		                                                    "none"))
			val[SMTPCODE_ACTS] = value_named(SMTPCODE_ACTS, "sender");
	} else if (val[SMTPCODE_SEVERITY] == SMTPCODE_SUCCESS) {
		val[SMTPCODE_FINAL] = value_named(SMTPCODE_FINAL, "no");
	}
}

/* The four bytes at s, their letters folded to lower case (other bytes
 * change too, but then stay unlike any word's). */
static uint32_t folded4(const char *s)
{
	uint32_t x;
	memcpy(&x, s, 4);
	return x | 0x20202020u;
}

/* By length and first letter, then the word's first and last four
 * letters (they overlap, as words are 6 to 8 long): every line of a log
 * asks, most often with "sent". */
enum smtpcode_report smtpcode_report_of(const char *s, size_t len)
{
	const char *w;
	enum smtpcode_report report = SMTPCODE_REPORT_FINAL;
	if (!s || len < 6 || len > 8)
		return SMTPCODE_REPORT_UNSAID;
	switch (len << 8 | (unsigned char)(s[0] | 0x20)) {
	case 6 << 8 | 'f': w = "failed"; break;
	case 7 << 8 | 'b': w = "bounced"; break;
	case 7 << 8 | 'e': w = "expired"; break;
	case 7 << 8 | 'd': w = "delayed"; report = SMTPCODE_REPORT_DELAYED; break;
	case 8 << 8 | 'd': w = "deferred"; report = SMTPCODE_REPORT_DELAYED; break;
	default: return SMTPCODE_REPORT_UNSAID;
	}
	return folded4(s) == folded4(w) && folded4(s + len - 4) == folded4(w + len - 4)
	           ? report : SMTPCODE_REPORT_UNSAID;
}
