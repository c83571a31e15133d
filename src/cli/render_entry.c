/*
 * The entries a person reads: the verdict (severity, what happens now,
 * scope, who acts, suppress) first, the explanation after.
 */
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "layout.h"
#include "output.h"
#include "render.h"
#include "rules.h"

static const char *text(const struct smtpcode_entry *e,
                        enum smtpcode_text_field f)
{
	return smtpcode_text(e, f);
}

/*
 * The explanation's texts are written once a run (--mail explains each
 * entry in full once), and what a verdict says happens now is short:
 * copied into the caller's TEXT_ROOM bytes, not decoded into memory kept
 * for the run, whose fresh pages cost more than decoding again.  A longer
 * one is read from the kept copy.
 */
#define TEXT_ROOM 2048

static const char *text_once(const struct smtpcode_entry *e,
                             enum smtpcode_text_field f, char *room)
{
	return smtpcode_text_into(e, f, room, TEXT_ROOM) < TEXT_ROOM
	           ? room : smtpcode_text(e, f);
}

static const char *item_once(const struct smtpcode_entry *e,
                             enum smtpcode_list l, size_t i, char *room)
{
	return smtpcode_item_text_into(e, l, i, room, TEXT_ROOM) < TEXT_ROOM
	           ? room : smtpcode_item(e, l, i).text;
}

/* "  5.2.2    ": a code padded to 8 columns. */
static void code_lead(char *lead, size_t size, const char *code)
{
	size_t n = str_cat(lead, size, "  ", code, (char *)NULL);
	while (n < 10 && n + 2 < size)
		lead[n++] = ' ';
	lead[n++] = ' ';
	lead[n] = '\0';
}

/* "452; 431 (Exchange only)" */
static void basic_line(const struct smtpcode_entry *e)
{
	char buf[512] = "";
	size_t n = smtpcode_count(e, SMTPCODE_BASIC), len = 0;
	for (size_t i = 0; i < n && len + 1 < sizeof buf; i++) {
		char room[TEXT_ROOM];
		const char *t = item_once(e, SMTPCODE_BASIC, i, room);
		len += str_cat(buf + len, sizeof buf - len, i ? "; " : "",
		               smtpcode_item_key(e, SMTPCODE_BASIC, i),
		               *t ? " (" : "", t, *t ? ")" : "", (char *)NULL);
	}
	text_line("Sent with", buf);
}

static void list_section(const char *title, const struct smtpcode_entry *e,
                         enum smtpcode_list l)
{
	size_t n = smtpcode_count(e, l);
	if (n == 0)
		return;
	heading(title);
	for (size_t i = 0; i < n; i++) {
		char room[TEXT_ROOM];
		out_para("  - ", 4, item_once(e, l, i, room));
	}
}

/* Items whose key is a code: "  5.2.2    how it differs". */
static void keyed_section(const char *title, const struct smtpcode_entry *e,
                          enum smtpcode_list l)
{
	size_t n = smtpcode_count(e, l);
	if (n == 0)
		return;
	heading(title);
	for (size_t i = 0; i < n; i++) {
		char lead[32], room[TEXT_ROOM];
		code_lead(lead, sizeof lead, smtpcode_item_key(e, l, i));
		out_para(lead, 11, item_once(e, l, i, room));
	}
}

/* Whether related item k of variant i repeats what is shown already: a
 * variant itself, or an earlier related item. */
static int shown(const struct smtpcode_entry *const *v, size_t nv, size_t i,
                 size_t k)
{
	const char *key = smtpcode_item_key(v[i], SMTPCODE_RELATED, k);
	for (size_t j = 0; j < nv; j++) {
		size_t n = j < i ? smtpcode_count(v[j], SMTPCODE_RELATED)
		         : j == i ? k : 0;
		if (strcmp(key, text(v[j], SMTPCODE_CODE)) == 0)
			return 1;
		for (size_t m = 0; m < n; m++)
			if (strcmp(key, smtpcode_item_key(v[j], SMTPCODE_RELATED,
			                                  m)) == 0)
				return 1;
	}
	return 0;
}

/* Related codes of all the variants, each once: what X.S.D as a whole is
 * confused with. */
static void variants_related(const struct smtpcode_entry *const *v, size_t nv)
{
	int printed = 0;
	for (size_t i = 0; i < nv; i++) {
		for (size_t k = 0; k < smtpcode_count(v[i], SMTPCODE_RELATED); k++) {
			char lead[32], room[TEXT_ROOM];
			if (shown(v, nv, i, k))
				continue;
			if (!printed++)
				heading("Not to be confused with");
			code_lead(lead, sizeof lead,
			          smtpcode_item_key(v[i], SMTPCODE_RELATED, k));
			out_para(lead, 11, item_once(v[i], SMTPCODE_RELATED, k, room));
		}
	}
}

static void fixes_section(const struct smtpcode_entry *e)
{
	size_t n = smtpcode_count(e, SMTPCODE_FIXES);
	if (n == 0)
		return;
	heading("How to fix it");
	for (size_t i = 0; i < n; i++) {
		const char *key = smtpcode_item_key(e, SMTPCODE_FIXES, i);
		int who = smtpcode_value_parse(SMTPCODE_ACTS, key, strlen(key));
		char lead[96], room[TEXT_ROOM];
		str_cat(lead, sizeof lead, "  For ",
		        who > 0 ? smtpcode_value_label(SMTPCODE_ACTS, who) : key,
		        ": ", (char *)NULL);
		out_para(lead, 4, item_once(e, SMTPCODE_FIXES, i, room));
	}
}

/* "  How common occasional (who usually sends it)" and "  Lasts      ...":
 * what a worried reader asks first, after the verdict. */
static void frequency_lines(const struct smtpcode_entry *e)
{
	int v = smtpcode_value(e, SMTPCODE_FREQUENCY);
	char room[TEXT_ROOM];
	if (v > 0) {
		const char *note = text_once(e, SMTPCODE_FREQUENCY_NOTE, room);
		char line[TEXT_ROOM + 64];
		str_cat(line, sizeof line, smtpcode_value_name(SMTPCODE_FREQUENCY, v),
		        *note ? " (" : "", note, *note ? ")" : "", (char *)NULL);
		text_line("How common", line);
	}
	text_line("Lasts", text_once(e, SMTPCODE_DURATION, room));
}

/* "  Q: the question?" then "     A: the answer", each wrapped. */
static void questions_section(const struct smtpcode_entry *e)
{
	size_t n = smtpcode_count(e, SMTPCODE_FAQ);
	if (n == 0)
		return;
	heading("Questions");
	for (size_t i = 0; i < n; i++) {
		char room[TEXT_ROOM], question[TEXT_ROOM];
		const char *item = item_once(e, SMTPCODE_FAQ, i, room);
		size_t qlen;
		const char *answer = faq_split(item, &qlen);
		format(question, sizeof question, "%.*s", (int)qlen, item);
		out_para("  Q: ", 5, question);
		if (*answer)
			out_para("     A: ", 8, answer);
	}
}

/* The explanation shared by every kind of entry; related codes come from
 * the entry itself, or for a class-independent code from its variants. */
static void body(const struct smtpcode_entry *e,
                 const struct smtpcode_entry *const *variants, size_t nv)
{
	char room[TEXT_ROOM];
	const char *meaning = text_once(e, SMTPCODE_MEANING, room);
	if (*meaning) {
		heading("Meaning");
		out_para("  ", 2, meaning);
	}
	list_section("Likely causes", e, SMTPCODE_CAUSES);
	fixes_section(e);
	list_section("What not to do", e, SMTPCODE_AVOID);
	keyed_section("Comes with", e, SMTPCODE_WITH);
	if (nv == 0)
		keyed_section("Not to be confused with", e, SMTPCODE_RELATED);
	else
		variants_related(variants, nv);
	questions_section(e);
	list_section("Notes", e, SMTPCODE_NOTES);
	list_section("Sources", e, SMTPCODE_SOURCES);
}

static void title(const char *code, const struct smtpcode_entry *e)
{
	const struct smtpcode_entry *p = smtpcode_provider_of(e);
	int unregistered = smtpcode_value(e, SMTPCODE_REGISTERED) == 1;
	/* Pieces, not out_printf(): a folder of bounces has a title per
	 * recipient, and formatting cost more than the rest of the line. */
	out_str(out_sgr(SGR_BOLD));
	out_str(code);
	out_str(out_sgr(SGR_RESET));
	out_str("  ");
	out_str(text(e, SMTPCODE_NAME));
	if (p) {
		out_str("  [");
		out_str(text(p, SMTPCODE_NAME));
		out_str(unregistered ? "; not a registered code]" : "]");
	} else if (unregistered)
		out_str("  [not a registered code]");
	out_str("\n");
}

/* "Group      mailbox-full (Mailbox full): also 5.2.2, 452, gmail 4.2.2":
 * the group's members but e, standard codes first, at most ten. */
static void group_line(const struct smtpcode_entry *e)
{
	const char *id = text(e, SMTPCODE_GROUP);
	const struct smtpcode_entry *g, *p = smtpcode_provider_of(e);
	char line[1024], self[64];
	size_t len, shown = 0, n;

	if (!*id || !(g = smtpcode_find_group(id, strlen(id))))
		return;
	str_cat(self, sizeof self, p ? text(p, SMTPCODE_CODE) : "", p ? " " : "",
	        text(e, SMTPCODE_CODE), (char *)NULL);
	len = str_cat(line, sizeof line, id, " (", text(g, SMTPCODE_NAME),
	              "): also", (char *)NULL);
	n = smtpcode_count(g, SMTPCODE_RELATED);
	for (size_t i = 0; i < n && shown < 10; i++) {
		struct smtpcode_item m = smtpcode_item(g, SMTPCODE_RELATED, i);
		/* Two entries of one provider for a code carry their names. */
		if (strcmp(m.key, self) == 0 &&
		    (!*m.text || strcmp(m.text, text(e, SMTPCODE_NAME)) == 0))
			continue;
		len += str_cat(line + len, sizeof line - len, shown++ ? ", " : " ",
		               m.key, *m.text ? " (" : "", m.text,
		               *m.text ? ")" : "", (char *)NULL);
	}
	if (n > shown + 1)
		format(line + len, sizeof line - len, " and %zu more",
		         n - shown - 1);
	if (shown)
		text_line("Group", line);
}

/* Where a provider's entry comes from, and how it stands to the registry. */
static void provider_lines(const struct smtpcode_entry *e)
{
	const struct smtpcode_entry *std;
	const char *code = text(e, SMTPCODE_CODE);
	struct smtpcode_query q;
	char line[512];

	text_line("Verified", text(e, SMTPCODE_VERIFIED));
	if (*text(e, SMTPCODE_THROUGH)) {
		format(line, sizeof line, "%s through %s", text(e, SMTPCODE_CODE),
		         text(e, SMTPCODE_THROUGH));
		text_line("Range", line);
	}
	smtpcode_parse(code, strlen(code), &q);
	std = q.enhanced ? smtpcode_find_enhanced(q.cls, q.subject, q.detail)
	                 : smtpcode_find_basic(q.basic);
	if (!std) {
		text_line("Registry", "not a registered code: this meaning is the "
		                      "provider's own");
		return;
	}
	format(line, sizeof line, "%s %s%s", code, text(std, SMTPCODE_NAME),
	         smtpcode_value(e, SMTPCODE_DIFFERS) == 2
	             ? " (the provider gives the code a different meaning)" : "");
	text_line("Registry", line);
}

/* Under a standard entry: the providers' own entries for its code. */
static void providers_section(const struct smtpcode_entry *e)
{
	const char *code = text(e, SMTPCODE_CODE);
	struct smtpcode_query q;
	size_t first, n;

	if (smtpcode_parse(code, strlen(code), &q) != SMTPCODE_OK)
		return;
	n = smtpcode_code_range(&q, &first);
	for (size_t i = first, printed = 0; i < first + n; i++) {
		const struct smtpcode_entry *m = smtpcode_table_entry(i);
		const struct smtpcode_entry *p = smtpcode_provider_of(m);
		char lead[40], line[512];
		if (!p)
			continue;
		if (!printed++)
			heading("How providers say it");
		label_lead(lead, sizeof lead, text(p, SMTPCODE_CODE));
		str_cat(line, sizeof line, text(m, SMTPCODE_NAME),
		        smtpcode_value(m, SMTPCODE_DIFFERS) == 2
		            ? " (differs from the registry)" : "", (char *)NULL);
		out_para(lead, LABEL_WIDTH, line);
	}
}

/* A class variant (4.3.1) or a basic code (452): the full verdict, v,
 * which is e's own unless more than e decided it. */
void render_entry(const struct smtpcode_entry *e,
                  const struct smtpcode_verdict *v, const char *reason_phrase)
{
	render_entry_verdict(e, v, reason_phrase);
	render_entry_body(e);
}

/* The reason v's entry names of its own; 0 for none or undefined (a
 * code that leaves the reason to the words). */
static int own_reason(const struct smtpcode_verdict *v)
{
	int r = v->from ? smtpcode_value(v->from, SMTPCODE_REASON) : 0;
	return r == smtpcode_value_parse(SMTPCODE_REASON, "undefined", 9) ? 0 : r;
}

void render_entry_verdict(const struct smtpcode_entry *e,
                          const struct smtpcode_verdict *v,
                          const char *reason_phrase)
{
	const unsigned char *val = v->value;
	const struct smtpcode_entry *now = v->basic_decides ? v->from : e;
	char decided[512];
	bool final_temporary = val[SMTPCODE_SEVERITY] == SMTPCODE_TEMPORARY &&
	                       val[SMTPCODE_FINAL] == 2;
	title(text(e, SMTPCODE_CODE), e);
	if (final_temporary) /* the class's label would promise retries */
		flagged_line("Severity", "temporary", SGR_YELLOW, "(the class of "
		             "the code: a transient condition, but this report "
		             "is final)");
	else
		verdict_line("Severity", SMTPCODE_SEVERITY, val[SMTPCODE_SEVERITY]);
	/* Final in spite of the class, or not in spite of the entry. */
	if (v->report_decides || final_temporary)
		verdict_line("Final", SMTPCODE_FINAL, val[SMTPCODE_FINAL]);
	if (v->report_decides) { /* the entry's "now" is for the other case */
		char line[256];
		str_cat(line, sizeof line, smtpcode_value_label(SMTPCODE_FINAL,
		        val[SMTPCODE_FINAL]), ".", (char *)NULL);
		line[0] = (char)(line[0] - 'a' + 'A');
		text_line("Message", line);
	} else {
		char room[TEXT_ROOM];
		text_line("Message", text_once(now, SMTPCODE_NOW, room));
	}
	verdict_line("Scope", SMTPCODE_SCOPE, val[SMTPCODE_SCOPE]);
	/* "Wait while the queue retries" is for failures only. */
	if (val[SMTPCODE_SEVERITY] == SMTPCODE_SUCCESS &&
	    val[SMTPCODE_ACTS] == smtpcode_value_parse(SMTPCODE_ACTS, "none", 4))
		text_line("Who acts", "none (nothing to do)");
	else
		verdict_line("Who acts", SMTPCODE_ACTS, val[SMTPCODE_ACTS]);
	verdict_line("Retry", SMTPCODE_RETRY, val[SMTPCODE_RETRY]);
	verdict_line("Suppress", SMTPCODE_SUPPRESS, val[SMTPCODE_SUPPRESS]);
	verdict_line("Bounce", SMTPCODE_BOUNCE, val[SMTPCODE_BOUNCE]);
	verdict_line("Reason", SMTPCODE_REASON, val[SMTPCODE_REASON]);
	if (reason_phrase) {
		char line[256];
		const char *rule = rules_origin(reason_phrase);
		const char *name = rules_name(reason_phrase);
		if (rule)
			str_cat(line, sizeof line, "your rule ", rule, name ? " (" : "",
			        name ? name : "", name ? ")" : "", ": the words \"",
			        reason_phrase, "\"", (char *)NULL);
		else /* a code of another reason beaten, or one of none */
			str_cat(line, sizeof line, "the reply's words \"", reason_phrase,
			        own_reason(v) && own_reason(v) != val[SMTPCODE_REASON]
			            ? "\", which say more than the code"
			            : "\" (the code leaves the reason to them)",
			        (char *)NULL);
		text_line("Reason by", line);
	}
	text_line("Decided by", decided_by(v, decided, sizeof decided));
}

void render_entry_body(const struct smtpcode_entry *e)
{
	frequency_lines(e);
	basic_line(e);
	group_line(e);
	if (smtpcode_provider_of(e))
		provider_lines(e);
	body(e, NULL, 0);
	if (!smtpcode_provider_of(e))
		providers_section(e);
}

void render_entry_body_again(const struct smtpcode_entry *e)
{
	const struct smtpcode_entry *p = smtpcode_provider_of(e);
	out_str("  Explained above: ");
	if (p) {
		out_str(text(p, SMTPCODE_NAME));
		out_str("'s ");
	}
	out_str(text(e, SMTPCODE_CODE));
	out_str(" (meaning, causes, fixes, related codes, sources).\n");
}

/* X.3.1: what the code means in each class it is used with. */
void render_topic(const struct smtpcode_entry *e,
                  const struct smtpcode_query *q)
{
	static const unsigned classes[] = {2, 4, 5};
	const struct smtpcode_entry *variants[3];
	size_t nv = 0;
	char each[96] = "";
	title(text(e, SMTPCODE_CODE), e);
	value_line("Scope", e, SMTPCODE_SCOPE);
	value_line("Reason", e, SMTPCODE_REASON);
	frequency_lines(e);
	basic_line(e);
	group_line(e);
	for (size_t i = 0; i < sizeof classes / sizeof *classes; i++) {
		const struct smtpcode_entry *v =
		    smtpcode_find_enhanced(classes[i], q->subject, q->detail);
		char lead[32], line[1024];
		if (!v)
			continue;
		variants[nv++] = v;
		format(each + strlen(each), sizeof each - strlen(each), "%ssmtpcode %s",
		         *each ? ", " : "", text(v, SMTPCODE_CODE));
		format(lead, sizeof lead, "  As %-7s ", text(v, SMTPCODE_CODE));
		const char *severity = smtpcode_value_name(SMTPCODE_SEVERITY,
		    smtpcode_value(v, SMTPCODE_SEVERITY));
		const char *on = severity_sgr(severity);
		/* The sequences take no column when out_para() wraps. */
		format(line, sizeof line, "%s%s%s: %s", on, severity,
		       *on ? out_sgr(SGR_RESET) : "", text(v, SMTPCODE_NOW));
		out_para(lead, LABEL_WIDTH, line);
	}
	body(e, variants, nv);
	heading("Each class in full");
	out_para("  ", 2, each);
}

/* A code the table lacks: what its digits still tell. */
void render_inferred(const char *code, const struct smtpcode_result *r)
{
	const struct smtpcode_query *q = &r->query;
	char lead[32], line[1024];

	out_printf("%s  not a registered code\n", code);
	if (q->enhanced && r->topic && !r->enhanced) {
		format(line, sizeof line, "X.%u.%u (%s) is registered, but is "
		         "not used with class %u", q->subject, q->detail,
		         text(r->topic, SMTPCODE_NAME), (unsigned)q->cls);
		text_line("Note", line);
	}
	const struct smtpcode_entry *cat[2] = {r->cls, r->subject};
	if (!q->enhanced) {
		cat[0] = smtpcode_find_basic_digit(1, q->basic / 100);
		cat[1] = smtpcode_find_basic_digit(2, q->basic / 10 % 10);
	}
	for (int i = 0; i < 2; i++) {
		if (!cat[i])
			continue;
		format(lead, sizeof lead, "  %-10s ", text(cat[i], SMTPCODE_CODE));
		format(line, sizeof line, "%s: %s", text(cat[i], SMTPCODE_NAME),
		         text(cat[i], SMTPCODE_MEANING));
		out_para(lead, LABEL_WIDTH, line);
	}
	if (q->enhanced && !r->subject) {
		format(line, sizeof line, "RFC 3463 defines subjects 0 to 7; "
		         "%u is none of them", q->subject);
		text_line("Subject", line);
	}
}

void render_category(const struct smtpcode_entry *e)
{
	struct smtpcode_verdict v;
	memset(&v, 0, sizeof v);
	for (int f = 0; f < SMTPCODE_NFIELDS; f++)
		v.value[f] = (unsigned char)smtpcode_value(e, (enum smtpcode_field)f);
	render_entry(e, &v, NULL);
}
