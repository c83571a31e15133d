/*
 * A lookup as a person reads it: for a reply, how its codes fit, its text
 * and its provider; then the entry that answers it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "memo.h"
#include "output.h"
#include "render.h"

static const char *text(const struct smtpcode_entry *e,
                        enum smtpcode_text_field f)
{
	return smtpcode_text(e, f);
}

/* How the two codes of a reply fit. */
static void pairing_line(const struct smtpcode_result *r,
                         const struct smtpcode_verdict *v)
{
	const struct smtpcode_query *q = &r->query;
	char code[16], line[512];

	smtpcode_format(q, code, sizeof code);
	snprintf(line, sizeof line, "%u", q->basic);
	text_line(line, r->basic ? text(r->basic, SMTPCODE_NAME)
	                         : "not a registered code");
	text_line(code, r->enhanced ? text(r->enhanced, SMTPCODE_NAME)
	          : r->match.entry ? text(r->match.entry, SMTPCODE_NAME)
	                           : "not a registered code");
	switch (r->pairing) {
	case SMTPCODE_PAIR_USUAL:
		snprintf(line, sizeof line, "consistent: %u is a basic code "
		         "%s is sent with", q->basic, code);
		break;
	case SMTPCODE_PAIR_UNUSUAL:
		snprintf(line, sizeof line, "consistent classes, but %u is not "
		         "a usual basic code for %s; trust the enhanced code",
		         q->basic, code);
		break;
	case SMTPCODE_PAIR_MISMATCH:
		snprintf(line, sizeof line, "inconsistent: %u is class %u but %s "
		         "is class %u; the first digit of the basic code and the "
		         "class of the enhanced code must agree, so this server's "
		         "reply is wrong%s%s%s", q->basic, q->basic / 100, code,
		         (unsigned)q->cls,
		         v->basic_decides ? ". The SMTP exchange acted on the basic "
		                            "code: the verdict below is " : "",
		         v->basic_decides ? text(v->from, SMTPCODE_CODE) : "",
		         v->basic_decides ? "'s" : "");
		flagged_line("Pairing", "WARNING:", SGR_RED, line);
		return;
	}
	text_line("Pairing", line);
}

/* Which provider the reply came from, and how its entry was picked. */
static void match_lines(const struct smtpcode_result *r, const char *code)
{
	const struct smtpcode_match *m = &r->match;
	const char *id = m->provider ? text(m->provider, SMTPCODE_CODE) : "";
	char line[512];

	if (m->provider) {
		if (m->marker)
			snprintf(line, sizeof line, "%s (recognised by \"%s\")",
			         text(m->provider, SMTPCODE_NAME), m->marker);
		else
			snprintf(line, sizeof line, "%s%s",
			         text(m->provider, SMTPCODE_NAME),
			         m->given ? " (given with --provider)" : "");
		text_line("Provider", line);
	}
	switch (m->how) {
	case SMTPCODE_MATCH_PHRASE:
		snprintf(line, sizeof line, "the phrase \"%s\" picks %s's entry "
		         "for %s", m->phrase, text(smtpcode_provider_of(m->entry),
		                                  SMTPCODE_CODE), code);
		break;
	case SMTPCODE_MATCH_ONLY:
		snprintf(line, sizeof line, "the only %s entry for %s",
		         text(smtpcode_provider_of(m->entry), SMTPCODE_CODE), code);
		break;
	case SMTPCODE_MATCH_AMBIGUOUS:
		/* The list is under the standard entry, when there is one. */
		snprintf(line, sizeof line, "ambiguous: none of the %zu %s%sentries "
		         "that could apply matches this text; the standard meaning "
		         "follows%s", m->candidates, id, *id ? " " : "",
		         smtpcode_answer(r) ? ", and the providers' meanings are "
		         "listed under \"How providers say it\"" : "");
		break;
	case SMTPCODE_MATCH_NONE:
		if (!m->provider)
			return;
		snprintf(line, sizeof line, "%s has no entry of its own for %s; "
		         "the standard meaning follows", id, code);
		break;
	}
	text_line("Rule", line);
}

/* Whether the reply has anything to say besides its entry: nothing for a
 * lone code. */
static bool has_header(const struct smtpcode_result *r)
{
	const struct smtpcode_query *q = &r->query;
	return (q->basic && q->enhanced) || q->text_len || r->match.provider ||
	       r->match.how != SMTPCODE_MATCH_NONE;
}

/* The top of the header: what the codes of a reply say together. */
static void header_top(const void *arg)
{
	const struct row *w = arg;
	const struct smtpcode_result *r = w->r;
	const struct smtpcode_query *q = &r->query;
	char code[16];

	smtpcode_format(q, code, sizeof code);
	if (q->basic && q->enhanced)
		out_printf("%u %s  reply\n", q->basic, code);
	else if (q->text_len)
		out_printf("%s  reply\n", code);
	else
		out_printf("%s  as %s uses it\n", code, text(r->match.provider,
		                                            SMTPCODE_NAME));
	if (q->basic && q->enhanced)
		pairing_line(r, &w->verdict);
}

/* What follows the reply's text: its provider and how its entry was
 * picked. */
static void header_rule(const void *arg)
{
	const struct smtpcode_result *r = ((const struct row *)arg)->r;
	char code[16];

	smtpcode_format(&r->query, code, sizeof code);
	match_lines(r, code);
	out_str("\n");
}

static void entry_verdict_out(const void *arg)
{
	const struct row *w = arg;
	render_entry_verdict(w->entry, &w->verdict, w->wording.phrase);
}

static void topic_out(const void *arg)
{
	const struct smtpcode_result *r = ((const struct row *)arg)->r;
	render_topic(r->enhanced, &r->query);
}

static void inferred_out(const void *arg)
{
	const struct smtpcode_result *r = ((const struct row *)arg)->r;
	char code[16];

	smtpcode_format(&r->query, code, sizeof code);
	render_inferred(code, r);
}

/*
 * What render_text() writes depends on the reply's own text in its
 * "Reply text" line only.  The rest is kept by memo.c, in parts: the
 * header's lines before and after that line, under the words of
 * text_key(), which hold the codes and everything they resolved to; the
 * title and verdict of the entry that answers them, under the entry, the
 * verdict and the words that gave its reason; and the rest of the entry,
 * under the entry alone (so rendered once, whatever its verdicts).
 */
enum part { PART_TOP, PART_RULE, PART_ENTRY, PART_TOPIC,
            PART_INFERRED };

/* The verdict v as two words, for keys. */
static void verdict_words(const struct smtpcode_verdict *v, uint64_t *key)
{
	uint64_t a = 0;
	for (int f = 0; f < SMTPCODE_NFIELDS; f++)
		a = a << 6 | v->value[f]; /* every vocabulary has under 64 */
	key[0] = a;
	key[1] = (uint64_t)(uintptr_t)v->from << 3 ^ (uint64_t)v->basic_decides ^
	         (uint64_t)v->report_decides << 1 ^ (uint64_t)v->provider_guess << 2;
}

/* The codes of w's result and all it resolved to, as words:
 * key[0..MEMO_WORDS), key[0] left for the part; returns how many. */
static size_t text_key(const struct row *w, uint64_t *key)
{
	const struct smtpcode_result *r = w->r;
	const struct smtpcode_query *q = &r->query;
	const struct smtpcode_match *m = &r->match;
	const void *const pointers[] = {r->basic, r->enhanced, r->topic, r->cls,
	                                r->subject, m->provider, m->marker,
	                                m->entry, m->phrase};
	size_t n = 0;

	key[n++] = 0;
	key[n++] = q->basic;
	key[n++] = q->enhanced;
	key[n++] = q->cls;
	key[n++] = q->subject;
	key[n++] = q->detail;
	key[n++] = q->text_len != 0;
	key[n++] = (uint64_t)r->pairing;
	key[n++] = (uint64_t)m->how;
	key[n++] = m->given;
	key[n++] = m->candidates;
	for (size_t i = 0; i < sizeof pointers / sizeof *pointers; i++)
		key[n++] = (uint64_t)(uintptr_t)pointers[i];
	verdict_words(&w->verdict, key + n);
	return n + 2;
}

/* The entry that answers r: a provider's entry picked by the reply, else
 * the enhanced code's (for a class-independent code, what each class of
 * it means), else the basic code's; what the digits tell of a code the
 * table lacks. */
static void answer(const struct row *w, uint64_t *key, size_t n)
{
	const struct smtpcode_result *r = w->r;
	const struct smtpcode_query *q = &r->query;
	const struct smtpcode_entry *e = w->entry;

	if (e && (r->match.entry || !q->enhanced || q->cls != 0)) {
		uint64_t entry_key[5] = {PART_ENTRY, (uint64_t)(uintptr_t)e,
		                         (uint64_t)(uintptr_t)w->wording.phrase};
		verdict_words(&w->verdict, entry_key + 3);
		memo_out(entry_key, 5, entry_verdict_out, w);
		/* A folder of bounces meets the same few codes again and
		 * again: each is explained in full the first time only. */
		if (memo_explained(e))
			render_entry_body_again(e);
		else
			render_entry_body(e);
		return;
	}
	key[0] = e ? PART_TOPIC : PART_INFERRED;
	memo_out(key, n, e ? topic_out : inferred_out, w);
}

void render_text(const struct row *w, const char *input)
{
	const struct smtpcode_query *q = &w->r->query;
	uint64_t key[MEMO_WORDS];
	size_t n = text_key(w, key);

	if (has_header(w->r)) {
		key[0] = PART_TOP;
		memo_out(key, n, header_top, w);
		if (q->text_len)
			out_para_untrusted("  Reply text ", LABEL_WIDTH,
			                   input + q->text_off, q->text_len);
		key[0] = PART_RULE;
		memo_out(key, n, header_rule, w);
	}
	answer(w, key, n);
}
