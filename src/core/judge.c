/*
 * The judgement of one recipient or one reply (smtpcode_judge()): which
 * code the verdict rests on, which reason it gives, and the verdict that
 * reason brings.  Every mode of the command and every program using the
 * library asks here, so that one reply gets one verdict wherever it is
 * read.  The order in which the evidence decides is data
 * (data/reasons/precedence.txt: table_code_steps, table_reason_steps),
 * and so is what each reason brings (data/reasons/REASON.txt:
 * table_reasons); nothing here knows a particular code or reason.
 */
#include <string.h>

#include "logvocab.h"
#include "rules.h"
#include "smtpcode.h"
#include "table.h"

static const char *const decider_names[] = {
	[SMTPCODE_BY_NOTHING] = NULL,   [SMTPCODE_BY_CODE] = "code",
	[SMTPCODE_BY_STATUS] = "dsn", [SMTPCODE_BY_PHRASE] = "phrase",
	[SMTPCODE_BY_WORDS] = "words",  [SMTPCODE_BY_RULES] = "rules",
	[SMTPCODE_BY_STAGE] = "stage",  [SMTPCODE_BY_MESSAGE] = "message",
};

const char *smtpcode_decider_name(enum smtpcode_decider d)
{
	return (unsigned)d < sizeof decider_names / sizeof *decider_names
	           ? decider_names[d] : NULL;
}

static bool generic(const struct smtpcode_query *q)
{
	return q->enhanced && q->subject == 0 && q->detail == 0;
}

static bool has_code(const struct smtpcode_query *q)
{
	return q->basic || q->enhanced;
}

/* The codes of the reply: the caller's, else those found in it.  A reply
 * that gives only a basic code may carry its enhanced code further on,
 * as qmail writes it ("511 sorry, no mailbox here (#5.1.1)"): taken when
 * its class is the basic code's. */
static void reply_codes(const struct smtpcode_evidence *ev,
                        struct smtpcode_query *rq)
{
	struct smtpcode_text at;
	struct smtpcode_query later;
	const char *s = ev->reply.s;
	size_t len = ev->reply.len, from;

	memset(rq, 0, sizeof *rq);
	if (ev->reply_code) {
		*rq = *ev->reply_code;
	} else if (len && smtpcode_find_pasted(s, len, rq, &at)) {
		rq->text_off += (size_t)(at.s - s);
	}
	if (!rq->basic || rq->enhanced || rq->text_off > len)
		return;
	from = rq->text_off;
	if (smtpcode_find_code(s + from, len - from, &later, &at) &&
	    !later.basic && later.cls == rq->basic / 100) {
		rq->enhanced = true;
		rq->cls = later.cls;
		rq->subject = later.subject;
		rq->detail = later.detail;
	}
}

/* The code the verdict rests on, into *q (its text the reply's), by the
 * steps of data/reasons/precedence.txt; returns what decided it. */
static enum smtpcode_decider choose_code(const struct smtpcode_query *rq,
                                         const struct smtpcode_query *st,
                                         size_t reply_len,
                                         struct smtpcode_query *q)
{
	enum smtpcode_decider from = SMTPCODE_BY_NOTHING;
	struct smtpcode_query none = {0};
	bool status = false; /* q is the Status:'s */

	if (!st)
		st = &none;
	for (const uint8_t *step = table_code_steps; *step && !from; step++) {
		if (*step == TABLE_STEP_REPLY && rq->enhanced && !generic(rq)) {
			*q = *rq;
			from = SMTPCODE_BY_CODE;
		} else if (*step == TABLE_STEP_STATUS && st->enhanced &&
		           !generic(st)) {
			*q = *st;
			from = SMTPCODE_BY_STATUS;
			status = true;
		}
	}
	if (!from) {
		/* Nothing specific: the reply's generic code, else the
		 * Status:'s (generic, or a basic code a Status: holds), else the
		 * reply's basic code. */
		if (rq->enhanced || (!st->enhanced && !st->basic && rq->basic)) {
			*q = *rq;
			from = SMTPCODE_BY_CODE;
		} else if (st->enhanced || st->basic) {
			/* (a generic Status adds nothing to the reply's basic
			 * code, which decides) */
			*q = *st;
			from = generic(st) && rq->basic ? SMTPCODE_BY_CODE
			                                : SMTPCODE_BY_STATUS;
			status = true;
		} else {
			memset(q, 0, sizeof *q);
			return SMTPCODE_BY_NOTHING;
		}
	}
	if (status) {
		/* The reply's basic code goes with the Status: when their
		 * classes agree (the SMTP exchange acted on it), and the text
		 * after the reply's codes is the reply text. */
		q->basic = 0;
		if (rq->basic && (!q->enhanced || q->cls == rq->basic / 100))
			q->basic = rq->basic;
		else if (!q->enhanced)
			q->basic = st->basic;
		q->text_off = has_code(rq) ? rq->text_off : 0;
		q->text_len = has_code(rq) ? rq->text_len : reply_len;
	}
	return from;
}

/* An enhanced code that says no more than its class (X.0.0) adds nothing
 * to a basic code: a provider's entry for the basic code answers, as it
 * would for the basic code alone (smtpcode_verdict() takes the basic
 * code's standard entry over X.0.0's). */
static void basic_entry(const struct smtpcode_query *q,
                        const struct smtpcode_evidence *ev,
                        const struct smtpcode_entry *provider,
                        struct smtpcode_result *r)
{
	struct smtpcode_query basic = *q;
	struct smtpcode_result b;

	if (!generic(q) || !q->basic || q->cls == 2 || r->match.entry)
		return;
	basic.enhanced = false;
	basic.cls = 0;
	smtpcode_resolve(&basic, ev->reply.s, ev->reply.len, provider, &b);
	if (b.match.entry)
		r->match = b.match;
}

/* Whether the reply answered DATA or came after it: the evidence's stage,
 * else what the reply says it answered ("(in reply to end of DATA
 * command)"), else what the bounce says for the recipient; the stage
 * read goes into j->stage. */
static bool after_data(const struct smtpcode_evidence *ev,
                       struct smtpcode_judgement *j)
{
	static const char *const stages[] = {LOG_STAGE_DATA,
	    LOG_STAGE_END_OF_DATA, LOG_STAGE_HEADER, LOG_STAGE_BODY};
	const struct smtpcode_text *s = &j->stage;
	size_t at;

	if (!s->len && ev->reply.len &&
	    (smtpcode_wording_has(ev->reply.s, ev->reply.len,
	                          "in reply to end of data command", &at) ||
	     smtpcode_wording_has(ev->reply.s, ev->reply.len,
	                          "in reply to data command", &at)))
		return true;
	if (!s->len)
		j->stage = smtpcode_mail_stage(ev->message.s, ev->message.len,
		                               ev->recipient);
	for (size_t i = 0; i < sizeof stages / sizeof *stages; i++)
		if (strlen(stages[i]) == s->len &&
		    memcmp(stages[i], s->s, s->len) == 0)
			return true;
	return false;
}

static unsigned char named(enum smtpcode_field f, const char *name)
{
	return (unsigned char)smtpcode_value_parse(f, name, strlen(name));
}

/* The reason, by the steps of data/reasons/precedence.txt, into
 * j->wording when words decided it; returns it, *from what decided it. */
static int decide_reason(const struct smtpcode_evidence *ev,
                         struct smtpcode_judgement *j,
                         enum smtpcode_decider *from)
{
	const struct smtpcode_result *r = &j->result;
	const struct smtpcode_entry *e = j->verdict.from;
	const char *text = ev->reply.s;
	size_t len = ev->reply.len;
	bool words_leave = smtpcode_reason_from_words(r);
	bool success = j->verdict.value[SMTPCODE_SEVERITY] == SMTPCODE_SUCCESS;
	struct smtpcode_wording w = {0, NULL, 0};
	bool found = len && !success && smtpcode_wording(text, len, &w);

	for (const uint8_t *step = table_reason_steps; *step; step++) {
		switch ((enum table_step)*step) {
		case TABLE_STEP_MESSAGE:
			if (ev->reason) {
				*from = SMTPCODE_BY_MESSAGE;
				return ev->reason;
			}
			break;
		case TABLE_STEP_RULES: {
			struct smtpcode_wording rw = {0, NULL, 0};
			if (!ev->rules || !len || success)
				break;
			/* A site's entry for the code decides; its phrases only
			 * where the code leaves the reason to the words. */
			if (rules_entry(ev->rules, r, text, len, &rw) ||
			    (words_leave &&
			     rules_wording(ev->rules, text, len, &rw))) {
				j->wording = rw;
				*from = SMTPCODE_BY_RULES;
				return rw.reason;
			}
			break;
		}
		case TABLE_STEP_OWN_MEANING:
		case TABLE_STEP_PHRASE:
			if (e && r->match.entry == e && r->match.phrase &&
			    !e->reason_from_words &&
			    (*step == TABLE_STEP_PHRASE ||
			     e->value[SMTPCODE_DIFFERS] == named(SMTPCODE_DIFFERS,
			                                         "yes"))) {
				*from = SMTPCODE_BY_PHRASE;
				return j->verdict.value[SMTPCODE_REASON];
			}
			break;
		case TABLE_STEP_SPECIFIC_WORDS:
			/* (words that say what the code says leave it to the
			 * code, whose entry says more) */
			if (found && table_reasons[w.reason].beats_code &&
			    !(e && !words_leave &&
			      w.reason == j->verdict.value[SMTPCODE_REASON])) {
				j->wording = w;
				*from = SMTPCODE_BY_WORDS;
				return w.reason;
			}
			break;
		case TABLE_STEP_CODE:
			if (e && !words_leave && j->verdict.value[SMTPCODE_REASON]) {
				*from = j->code_from;
				return j->verdict.value[SMTPCODE_REASON];
			}
			break;
		case TABLE_STEP_WORDS:
			if (found) {
				j->wording = w;
				*from = SMTPCODE_BY_WORDS;
				return w.reason;
			}
			break;
		case TABLE_STEP_END:
		case TABLE_STEP_REPLY:
		case TABLE_STEP_STATUS:
			break;
		}
	}
	/* Nothing but the code: its own reason, which names no cause
	 * (undefined, for the codes that leave it to the words). */
	*from = e && j->verdict.value[SMTPCODE_REASON] ? j->code_from
	                                               : SMTPCODE_BY_NOTHING;
	return e ? j->verdict.value[SMTPCODE_REASON] : 0;
}


/* The verdict reason brings to v: its scope and who acts; for a failure
 * that ended delivery, its suppress and bounce (a temporary failure
 * keeps the address and is soft whatever the reason). */
static void bring(struct smtpcode_verdict *v, int reason, bool ended)
{
	const struct table_reason *t = &table_reasons[reason];
	unsigned char *val = v->value;

	val[SMTPCODE_REASON] = (unsigned char)reason;
	if (t->scope)
		val[SMTPCODE_SCOPE] = t->scope;
	if (t->acts)
		val[SMTPCODE_ACTS] = t->acts;
	if (!ended || !t->suppress)
		return;
	val[SMTPCODE_SUPPRESS] = t->suppress;
	val[SMTPCODE_BOUNCE] = t->bounce;
	if (val[SMTPCODE_SEVERITY] != SMTPCODE_TEMPORARY)
		val[SMTPCODE_RETRY] = named(SMTPCODE_RETRY,
		    t->bounce == named(SMTPCODE_BOUNCE, "hard") ? "never"
		                                                : "after-fix");
}

void smtpcode_judge(const struct smtpcode_evidence *ev,
                    struct smtpcode_judgement *j)
{
	struct smtpcode_query rq, q;
	const struct smtpcode_entry *provider = ev->provider;
	const char *marker = NULL;
	enum smtpcode_decider from;
	unsigned char *val;
	int reason, severity;
	bool ended;

	memset(j, 0, sizeof *j);
	j->stage = ev->stage;
	reply_codes(ev, &rq);
	j->code_from = choose_code(&rq, ev->status, ev->reply.len, &q);
	if (!provider && ev->rules && ev->reply.len)
		provider = rules_provider(ev->rules, ev->reply.s, ev->reply.len,
		                          &marker);
	if (j->code_from) {
		smtpcode_resolve(&q, ev->reply.s, ev->reply.len, provider,
		                 &j->result);
		basic_entry(&q, ev, provider, &j->result);
	} else if (!smtpcode_resolve_words(ev->reply.s, ev->reply.len, provider,
	                                   &j->result)) {
		/* (else a provider's phrase picked its entry, and code) */
		smtpcode_resolve(&q, NULL, 0, provider, &j->result);
	}
	if (marker) { /* a site's rule recognised the provider */
		j->result.match.given = false;
		j->result.match.marker = marker;
	}
	smtpcode_verdict(&j->result, ev->report, &j->verdict);
	val = j->verdict.value;
	reason = decide_reason(ev, j, &from);
	if (reason && table_reasons[reason].after_data &&
	    (from == SMTPCODE_BY_WORDS || from == SMTPCODE_BY_PHRASE) &&
	    after_data(ev, j)) {
		/* A refusal of the recipient after DATA, once RCPT was
		 * accepted, is a filter speaking, not a missing mailbox;
		 * unless a code (X.1.1) says the mailbox is missing. */
		reason = table_reasons[reason].after_data;
		from = SMTPCODE_BY_STAGE;
	}
	j->verdict_from = from;
	if (reason && j->verdict.from && (from == SMTPCODE_BY_CODE ||
	    from == SMTPCODE_BY_STATUS || from == SMTPCODE_BY_PHRASE)) {
		/* The entry's own verdict, which the generator checked against
		 * its reason. */
		val[SMTPCODE_REASON] = (unsigned char)reason;
		return;
	}
	if (!val[SMTPCODE_SEVERITY] && ev->report != SMTPCODE_REPORT_UNSAID)
		/* No code: the report says whether delivery has ended. */
		val[SMTPCODE_FINAL] = named(SMTPCODE_FINAL,
		    ev->report == SMTPCODE_REPORT_FINAL ? "yes" : "no");
	/* What ended delivery takes the reason's verdict: a permanent
	 * failure, or, with no code, a final report; a temporary failure
	 * keeps the address whatever its reason. */
	severity = val[SMTPCODE_SEVERITY];
	ended = severity == SMTPCODE_PERMANENT || from == SMTPCODE_BY_MESSAGE ||
	        (!severity && ev->report == SMTPCODE_REPORT_FINAL);
	if (reason)
		bring(&j->verdict, reason, ended);
	else if (severity == SMTPCODE_PERMANENT || severity == SMTPCODE_TEMPORARY)
		val[SMTPCODE_REASON] = named(SMTPCODE_REASON, "undefined");
	if (reason && ended)
		return;
	if (severity == SMTPCODE_TEMPORARY) {
		if (!val[SMTPCODE_SUPPRESS])
			val[SMTPCODE_SUPPRESS] = named(SMTPCODE_SUPPRESS, "no");
		if (!val[SMTPCODE_BOUNCE])
			val[SMTPCODE_BOUNCE] = named(SMTPCODE_BOUNCE, "soft");
	} else if (severity != SMTPCODE_SUCCESS) {
		/* Nothing decides whether the address is bad: unknown, never
		 * no. */
		val[SMTPCODE_SUPPRESS] = named(SMTPCODE_SUPPRESS, "unknown");
		val[SMTPCODE_BOUNCE] = named(SMTPCODE_BOUNCE, "unknown");
		if (severity == SMTPCODE_PERMANENT)
			val[SMTPCODE_RETRY] = named(SMTPCODE_RETRY, "after-fix");
	}
}
