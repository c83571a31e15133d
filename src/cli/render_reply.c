/*
 * A lookup as a person reads it: for a reply, how its codes fit, its text
 * and its provider; then the entry that answers it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "explained.h"
#include "layout.h"
#include "output.h"
#include "render.h"
#include "rules.h"

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
	format(line, sizeof line, "%u", q->basic);
	text_line(line, r->basic ? text(r->basic, SMTPCODE_NAME)
	                         : "not a registered code");
	text_line(code, r->enhanced ? text(r->enhanced, SMTPCODE_NAME)
	          : r->match.entry ? text(r->match.entry, SMTPCODE_NAME)
	                           : "not a registered code");
	switch (r->pairing) {
	case SMTPCODE_PAIR_USUAL:
		format(line, sizeof line, "consistent: %u is a basic code "
		         "%s is sent with", q->basic, code);
		break;
	case SMTPCODE_PAIR_UNUSUAL:
		format(line, sizeof line, "consistent classes, but %u is not "
		         "a usual basic code for %s; trust the enhanced code",
		         q->basic, code);
		break;
	case SMTPCODE_PAIR_MISMATCH:
		format(line, sizeof line, "inconsistent: %u is class %u but %s "
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
		if (m->marker && rules_origin(m->marker))
			format(line, sizeof line, "%s (recognised by \"%s\", your "
			       "rule %s)", text(m->provider, SMTPCODE_NAME), m->marker,
			       rules_origin(m->marker));
		else if (m->marker)
			format(line, sizeof line, "%s (recognised by \"%s\")",
			         text(m->provider, SMTPCODE_NAME), m->marker);
		else
			format(line, sizeof line, "%s%s",
			         text(m->provider, SMTPCODE_NAME),
			         m->given ? " (given with --provider)" : "");
		text_line("Provider", line);
	}
	switch (m->how) {
	case SMTPCODE_MATCH_PHRASE:
		format(line, sizeof line, "the phrase \"%s\" picks %s's entry "
		         "for %s", m->phrase, text(smtpcode_provider_of(m->entry),
		                                  SMTPCODE_CODE), code);
		break;
	case SMTPCODE_MATCH_ONLY:
		format(line, sizeof line, "the only %s entry for %s",
		         text(smtpcode_provider_of(m->entry), SMTPCODE_CODE), code);
		break;
	case SMTPCODE_MATCH_AMBIGUOUS:
		/* The list is under the standard entry, when there is one. */
		format(line, sizeof line, "ambiguous: none of the %zu %s%sentries "
		         "that could apply matches this text; the standard meaning "
		         "follows%s", m->candidates, id, *id ? " " : "",
		         smtpcode_answer(r) ? ", and the providers' meanings are "
		         "listed under \"How providers say it\"" : "");
		break;
	case SMTPCODE_MATCH_NONE:
		if (!m->provider)
			return;
		format(line, sizeof line, "%s has no entry of its own for %s; "
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
static void header_top(const struct row *w)
{
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
static void header_rule(const struct row *w)
{
	const struct smtpcode_result *r = w->r;
	char code[16];

	smtpcode_format(&r->query, code, sizeof code);
	match_lines(r, code);
	out_str("\n");
}

/* The entry that answers r: a provider's entry picked by the reply, else
 * the enhanced code's (for a class-independent code, what each class of
 * it means), else the basic code's; what the digits tell of a code the
 * table lacks. */
static void answer(const struct row *w)
{
	const struct smtpcode_result *r = w->r;
	const struct smtpcode_query *q = &r->query;
	const struct smtpcode_entry *e = w->entry;
	char code[16];

	if (e && (r->match.entry || !q->enhanced || q->cls != 0)) {
		render_entry_verdict(e, &w->verdict, w->wording.phrase);
		/* A folder of bounces meets the same few codes again and
		 * again: each is explained in full the first time only. */
		if (explained_before(e))
			render_entry_body_again(e);
		else
			render_entry_body(e);
	} else if (e) {
		render_topic(r->enhanced, q);
	} else {
		smtpcode_format(q, code, sizeof code);
		render_inferred(code, r);
	}
}

/* Whether s[0..n) holds a letter or a digit (any byte past ASCII counts):
 * what is left after a code written as "(#5.1.1)" is ")", not text. */
static bool has_words(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x80 || (c >= '0' && c <= '9') ||
		    ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
			return true;
	}
	return false;
}

/* The registered codes whose reason is reason, into buf ("4.2.2, 5.2.2"):
 * what a server would have sent with the words; "" when none. */
static const char *codes_of_reason(int reason, char *buf, size_t size)
{
	size_t len = 0, n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < smtpcode_table_size() && n < 6; i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		const char *code = smtpcode_text(e, SMTPCODE_CODE);
		if (smtpcode_provider_of(e) || code[0] == 'X' ||
		    smtpcode_value(e, SMTPCODE_REGISTERED) != 2 ||
		    smtpcode_value(e, SMTPCODE_REASON) != reason)
			continue;
		len += (size_t)format(buf + len, size - len, "%s%s",
		                      n++ ? ", " : "", code);
		if (len >= size)
			break;
	}
	return buf;
}

/* Text without a code: what its wording says, and on what it rests. */
static void render_no_code(const struct row *w, const char *input)
{
	const struct smtpcode_result *r = w->r;
	const struct smtpcode_match *m = &r->match;
	int reason = w->verdict.value[SMTPCODE_REASON];
	char line[512], codes[128];

	if (m->entry)
		out_printf("no code in the text; by its wording: %s's entry for "
		           "%s\n", text(smtpcode_provider_of(m->entry),
		                        SMTPCODE_CODE), w->code);
	else
		out_printf("no code in the text; by its wording: %s\n",
		           smtpcode_value_name(SMTPCODE_REASON, reason));
	out_para_untrusted("  Text       ", LABEL_WIDTH, input, strlen(input));
	if (m->entry) {
		header_rule(w);
		answer(w);
		return;
	}
	format(line, sizeof line, "%s (%s)",
	       smtpcode_value_name(SMTPCODE_REASON, reason),
	       smtpcode_value_label(SMTPCODE_REASON, reason));
	text_line("Reason", line);
	if (rules_origin(w->wording.phrase))
		format(line, sizeof line, "your rule %s: the words \"%s\"",
		       rules_origin(w->wording.phrase), w->wording.phrase);
	else
		format(line, sizeof line, "the words \"%s\"", w->wording.phrase);
	text_line("Reason by", line);
	if (m->provider) {
		format(line, sizeof line, "%s (recognised by \"%s\")",
		       text(m->provider, SMTPCODE_NAME), m->marker);
		text_line("Provider", line);
	}
	text_line("Severity", "unknown: without a code the words do not say "
	          "whether the failure is temporary or permanent, nor whether "
	          "to drop the address; the reply's code or the bounce's "
	          "Status: field decides");
	if (*codes_of_reason(reason, codes, sizeof codes))
		text_line("Codes", codes);
}

void render_text(const struct row *w, const char *input)
{
	const struct smtpcode_query *q = &w->r->query;

	if (!w->code_given) {
		render_no_code(w, input);
		return;
	}
	if (has_header(w->r)) {
		header_top(w);
		if (q->text_len && has_words(input + q->text_off, q->text_len))
			out_para_untrusted("  Reply text ", LABEL_WIDTH,
			                   input + q->text_off, q->text_len);
		header_rule(w);
	}
	answer(w);
}
