/*
 * One line per result, for scripts and quick reading: TSV (code,
 * severity, scope, acts, reason, name), brief (code, severity, name) and
 * a single --field.  Text from the input (--field input) is escaped as
 * out_escaped() says; the table's text is shown as it is.  A missing
 * value is "-".
 */
#include <string.h>

#include "fields.h"
#include "layout.h"
#include "output.h"
#include "render.h"

static void put(const char *s)
{
	out_str(s);
}

/* A provider's entry names its provider: "gmail: Unauthenticated ...". */
static void put_name(const struct row *w)
{
	const struct smtpcode_entry *p = w->entry ? smtpcode_provider_of(w->entry)
	                                          : NULL;
	struct value v = field_value(w, F_NAME);
	if (p)
		out_printf("%s: ", smtpcode_text(p, SMTPCODE_CODE));
	put(v.type == V_STRING ? v.s : "-");
}

/* The value of one field, lists joined with "; " (basic codes ", "). */
static void put_value(const struct row *w, enum field_id f)
{
	struct value v = field_value(w, f);
	const struct smtpcode_entry *e = w->entry;
	size_t n = e && (v.type == V_LIST || v.type == V_FIXES ||
	                 v.type == V_RELATED || v.type == V_FAQ)
	               ? smtpcode_count(e, v.list) : 0;

	switch (v.type) {
	case V_NULL: put("-"); return;
	case V_STRING:
	case V_FREQUENCY:
		if (f == F_INPUT)
			out_escaped(stdout, v.s, strlen(v.s));
		else
			put(v.s);
		return;
	case V_BOOL: out_str(v.b ? "yes" : "no"); return; /* JSON: true, false */
	case V_UNKNOWN: out_str("unknown"); return;
	case V_PROVIDER:
		put(smtpcode_text(w->r->match.provider, SMTPCODE_CODE));
		return;
	case V_WARNINGS:
		for (size_t i = 0; i < w->nwarnings; i++) {
			out_str(i ? "; " : "");
			put(w->warnings[i]);
		}
		return;
	case V_LIST:
	case V_FIXES:
	case V_RELATED:
	case V_FAQ:
		break;
	}
	for (size_t i = 0; i < n; i++) {
		struct smtpcode_item it = smtpcode_item(e, v.list, i);
		out_str(i ? (v.list == SMTPCODE_BASIC ? ", " : "; ") : "");
		if (v.type == V_FIXES || v.type == V_RELATED) {
			put(it.key);
			out_str(": ");
		}
		put(v.list == SMTPCODE_BASIC ? it.key : it.text);
	}
}

void render_tsv(const struct row *w)
{
	static const enum field_id columns[] = {F_CODE, F_SEVERITY, F_SCOPE,
	                                        F_ACTS, F_REASON};
	for (size_t i = 0; i < sizeof columns / sizeof *columns; i++) {
		put_value(w, columns[i]);
		out_str("\t");
	}
	put_name(w);
	out_str("\n");
}

void render_brief(const struct row *w)
{
	struct value sev = field_value(w, F_SEVERITY);
	out_printf("%-9s ", w->code);
	out_severity(sev.type == V_STRING ? sev.s : "-", 10);
	out_str(" ");
	put_name(w);
	out_str("\n");
}

void render_field(const struct row *w, enum field_id f)
{
	put_value(w, f);
	out_str("\n");
}
