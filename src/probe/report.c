/*
 * The probe's output: a line (or, with --json, an object) per step, each
 * reply's verdict from the table through the main command's own pieces
 * (row_verdict(), json_verdict(), out_escaped()), and the sentence that
 * says what an attempt found, made of the table's name and value labels.
 */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "output.h"
#include "render.h"
#include "report.h"

/* A reply looked up as the main command looks up a reply line: its codes
 * from the first line, a provider's markers and the reason's words from
 * the whole text. */
static void judge_reply(const struct reply *rep,
                        struct smtpcode_judgement *j, struct row *w)
{
	size_t first = reply_first_line(rep);
	struct smtpcode_query q;
	struct smtpcode_evidence ev = {.reply = {rep->text, rep->len},
	                               .reply_code = &q};

	if (smtpcode_parse(rep->text, first, &q) != SMTPCODE_OK) {
		memset(&q, 0, sizeof q);
		q.basic = rep->code;
	}
	judge(&ev, j);
	row_verdict(w, j, NULL);
}

static const char *name_of(const struct row *w)
{
	return w->entry ? smtpcode_text(w->entry, SMTPCODE_NAME) : "";
}

static const char *value_name(const struct row *w, enum smtpcode_field f)
{
	const char *s = smtpcode_value_name(f, w->verdict.value[f]);
	return s ? s : "";
}

void report_note(struct report *rp, const struct step *s)
{
	struct smtpcode_judgement res;
	struct row w;

	if (!s->reply || s->reply->code < 400 || s->id == STEP_QUIT ||
	    s->id == STEP_RSET)
		return;
	judge_reply(s->reply, &res, &w);
	snprintf(rp->code, sizeof rp->code, "%s", w.code[0] ? w.code : "?");
	snprintf(rp->name, sizeof rp->name, "%s", name_of(&w));
	rp->severity = w.verdict.value[SMTPCODE_SEVERITY];
	rp->scope = w.verdict.value[SMTPCODE_SCOPE];
	rp->retry = w.verdict.value[SMTPCODE_RETRY];
}

/* ---- Text ---- */

/* The reply's lines, escaped, separated by a space. */
static void text_reply(const struct reply *rep)
{
	const char *p = rep->text, *end = rep->text + rep->len;
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		out_escaped(stdout, p, (size_t)((nl ? nl : end) - p));
		if (!nl)
			break;
		out_str(" ");
		p = nl + 1;
	}
}

/* "4.3.1 temporary (system): Mail system full; acts none" */
static void text_verdict(const struct row *w)
{
	const char *scope = value_name(w, SMTPCODE_SCOPE);
	const char *acts = value_name(w, SMTPCODE_ACTS);
	const char *name = name_of(w);

	out_printf("%s %s", w->code[0] ? w->code : "?",
	           value_name(w, SMTPCODE_SEVERITY));
	if (*scope)
		out_printf(" (%s)", scope);
	out_printf(": %s", *name ? name : "not in the table");
	if (*acts)
		out_printf("; acts %s", acts);
}

static void text_tls(const struct tls_peer *p)
{
	size_t date = strcspn(p->not_after, " ");
	out_printf("%s %s; certificate ", p->version, p->cipher);
	out_escaped(stdout, p->subject, strlen(p->subject));
	out_printf(", expires %.*s", (int)date, p->not_after);
	if (p->days_left >= 0)
		out_printf(" (in %ld days)", p->days_left);
	else
		out_printf(" (%ld days ago)", -p->days_left);
	if (p->verified) {
		out_str("; verified");
	} else {
		out_str("; not verified: ");
		out_escaped(stdout, p->verify_error, strlen(p->verify_error));
	}
}

/* "example.org: MX 10 mx1.example.org, 20 mx2.example.org" */
static void text_mx(const struct step *s)
{
	out_escaped(stdout, s->host, strlen(s->host));
	out_str(": ");
	if (s->error) {
		out_escaped(stdout, s->error, strlen(s->error));
	} else if (s->nhosts == 1 && s->hosts[0].implicit) {
		out_str("no MX, its own address");
	} else {
		out_str("MX");
		for (size_t i = 0; i < s->nhosts; i++) {
			out_printf("%s %u ", i ? "," : "", s->hosts[i].preference);
			out_escaped(stdout, s->hosts[i].name,
			            strlen(s->hosts[i].name));
		}
	}
	out_str("\n");
}

static void text_step(const struct step *s)
{
	struct smtpcode_judgement res;
	struct row w;

	if (s->id == STEP_MX || s->id == STEP_ADDRESS) {
		text_mx(s);
		return;
	}
	if (s->id == STEP_CONNECT) {
		out_escaped(stdout, s->host, strlen(s->host));
		out_printf(" [%s]:%u\n", s->address, s->port);
	}
	out_printf("  %-9s%5lld ms", step_name(s->id), s->ms);
	if (s->error) {
		out_str("  ");
		out_escaped(stdout, s->error, strlen(s->error));
	} else if (s->tls) {
		out_str("  ");
		text_tls(s->tls);
	} else if (s->reply) {
		out_str("  ");
		text_reply(s->reply);
		out_str("  => ");
		judge_reply(s->reply, &res, &w);
		text_verdict(&w);
	}
	out_str("\n");
}

/* ---- JSON ---- */

static void json_string_or_null(const char *s)
{
	if (s)
		json_plain(s);
	else
		out_str("null");
}

static void json_head(const struct report *rp, const char *step)
{
	out_str("{\"step\":");
	json_plain(step);
	if (rp->attempt)
		out_printf(",\"attempt\":%u", rp->attempt);
}

static void json_tls(const struct tls_peer *p)
{
	const char *const keys[] = {"version", "cipher", "subject", "issuer",
	                            "expires"};
	const char *const values[] = {p->version, p->cipher, p->subject,
	                              p->issuer, p->not_after};
	out_str(",\"tls\":{");
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		out_printf("%s\"%s\":", i ? "," : "", keys[i]);
		json_plain(values[i]);
	}
	out_printf(",\"days_left\":%ld,\"verified\":%s,\"verify_error\":",
	           p->days_left, p->verified ? "true" : "false");
	json_string_or_null(p->verified ? NULL : p->verify_error);
	out_str("}");
}

static void json_mx(const struct step *s)
{
	out_str(",\"mx\":[");
	for (size_t i = 0; !s->error && i < s->nhosts; i++) {
		out_printf("%s{\"preference\":%u,\"host\":", i ? "," : "",
		           s->hosts[i].preference);
		json_plain(s->hosts[i].name);
		out_printf(",\"implicit\":%s}",
		           s->hosts[i].implicit ? "true" : "false");
	}
	out_str("]");
}

static void json_step(const struct report *rp, const struct step *s)
{
	struct smtpcode_judgement res;
	struct row w;

	json_head(rp, step_name(s->id));
	out_str(",\"host\":");
	json_plain(s->host);
	out_str(",\"address\":");
	json_string_or_null(s->address);
	out_printf(",\"port\":%u,\"ms\":%lld", s->port, s->ms);
	if (s->id == STEP_MX)
		json_mx(s);
	if (s->tls)
		json_tls(s->tls);
	out_str(",\"error\":");
	json_string_or_null(s->error);
	out_str(",\"reply\":");
	if (!s->reply) {
		/* No reply, no verdict. */
		out_str("null,\"code\":null}\n");
		return;
	}
	json_bytes(s->reply->text, s->reply->len);
	judge_reply(s->reply, &res, &w);
	json_verdict(&w, NULL);
}

void report_step(struct report *rp, const struct step *s)
{
	report_note(rp, s);
	if (rp->json)
		json_step(rp, s);
	else
		text_step(s);
	out_flush();
}

/* ---- The end ---- */

void report_sentence(const struct report *rp, enum outcome outcome,
                     const char *host, const char *what, const char *from,
                     const char *rcpt, char *buf, size_t size)
{
	const char *scope = smtpcode_value_label(SMTPCODE_SCOPE, rp->scope);
	const char *retry = smtpcode_value_label(SMTPCODE_RETRY, rp->retry);
	const char *severity =
	    smtpcode_value_name(SMTPCODE_SEVERITY, rp->severity);

	switch (outcome) {
	case OUTCOME_ACCEPTED:
		if (rcpt)
			snprintf(buf, size, "the server accepts mail for %s now",
			         rcpt);
		else
			snprintf(buf, size, "the server accepts mail from <%s> "
			         "now; give --rcpt ADDRESS to test an address", from);
		break;
	case OUTCOME_FAILED:
		snprintf(buf, size, "%s refused %s%s: %s (%s)%s%s%s%s.",
		         host ? host : "the server", what,
		         rp->severity == SMTPCODE_TEMPORARY ? " for now" : "",
		         *rp->name ? rp->name
		                   : severity && *severity ? severity : "failure",
		         rp->code, scope && *scope ? ", " : "", scope ? scope : "",
		         retry && *retry ? "; " : "", retry ? retry : "");
		break;
	case OUTCOME_UNREACHABLE:
		snprintf(buf, size, "no server could be reached: %s", what);
		break;
	}
}

void report_result(const struct report *rp, enum outcome outcome,
                   const char *sentence, int status, long long cleared_ms)
{
	static const char *const outcomes[] = {
		[OUTCOME_ACCEPTED] = "accepted", [OUTCOME_FAILED] = "failed",
		[OUTCOME_UNREACHABLE] = "unreachable",
	};

	if (!rp->json) {
		out_escaped(stdout, sentence, strlen(sentence));
		out_str("\n");
	} else {
		json_head(rp, "result");
		out_str(",\"outcome\":");
		json_plain(outcomes[outcome]);
		out_str(",\"sentence\":");
		json_plain(sentence);
		out_printf(",\"exit\":%d", status);
		if (cleared_ms >= 0)
			out_printf(",\"cleared_after_ms\":%lld", cleared_ms);
		out_str("}\n");
	}
	out_flush();
}
