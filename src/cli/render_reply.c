/*
 * A lookup as a person reads it: for a reply, how its codes fit, its text
 * and its provider; then the entry that answers it.
 */
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "output.h"
#include "render.h"

static const char *text(const struct smtpcode_entry *e,
                        enum smtpcode_text_field f)
{
	return smtpcode_text(e, f);
}

/* How the two codes of a reply fit. */
static void pairing_line(const struct smtpcode_result *r)
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
		         "reply is wrong", q->basic, q->basic / 100, code,
		         (unsigned)q->cls);
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

/* What the codes of a reply say together, the reply's own text, and its
 * provider; nothing for a lone code. */
static void reply_header(const struct smtpcode_result *r, const char *input)
{
	const struct smtpcode_query *q = &r->query;
	const struct smtpcode_match *m = &r->match;
	int pair = q->basic && q->enhanced;
	char code[16];

	if (!pair && !q->text_len && !m->provider && m->how == SMTPCODE_MATCH_NONE)
		return;
	smtpcode_format(q, code, sizeof code);
	if (pair)
		out_printf("%u %s  reply\n", q->basic, code);
	else if (q->text_len)
		out_printf("%s  reply\n", code);
	else
		out_printf("%s  as %s uses it\n", code, text(m->provider,
		                                            SMTPCODE_NAME));
	if (pair)
		pairing_line(r);
	if (q->text_len)
		out_para_untrusted("  Reply text ", LABEL_WIDTH,
		                   input + q->text_off, q->text_len);
	match_lines(r, code);
	out_str("\n");
}

void render_text(const struct smtpcode_result *r, const char *input)
{
	const struct smtpcode_query *q = &r->query;
	char code[16];

	smtpcode_format(q, code, sizeof code);
	reply_header(r, input);
	if (r->match.entry)
		render_entry(r->match.entry);
	else if (q->enhanced && r->enhanced && q->cls == 0)
		render_topic(r->enhanced, q);
	else if (q->enhanced && r->enhanced)
		render_entry(r->enhanced);
	else if (q->enhanced)
		render_inferred(code, r);
	else if (r->basic)
		render_entry(r->basic);
	else
		render_inferred(code, r);
}

