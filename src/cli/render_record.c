/*
 * Records from logs and messages: the annotated line, and one line or
 * object per code found.  Input text is shown with control characters
 * escaped.
 */
#include <string.h>

#include "logs.h"
#include "output.h"
#include "render.h"

static void put_text(struct smtpcode_text t)
{
	if (t.len)
		out_escaped(stdout, t.s, t.len);
	else
		out_str("-");
}

static const char *value(const struct row *w, enum field_id f)
{
	struct value v = field_value(w, f);
	return v.type == V_STRING ? v.s : v.type == V_BOOL ? (v.b ? "yes" : "no")
	                                                   : "-";
}

/* "4.3.1 temporary (system): Mail system full; retry auto, suppress no" */
static void verdict(const struct row *w)
{
	const struct smtpcode_match *m = &w->r->match;
	/* Pieces rather than printf: this runs once per log line. */
	const char *const pieces[] = {w->code, " ", value(w, F_SEVERITY), " (",
	    value(w, F_SCOPE), "): ", value(w, F_NAME), "; retry ",
	    value(w, F_RETRY), ", suppress ", value(w, F_SUPPRESS)};
	for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++)
		out_str(pieces[i]);
	if (m->entry) {
		out_str(" [");
		out_str(smtpcode_text(m->provider, SMTPCODE_CODE));
		out_str("]");
	}
	/* The MTA's own dsn= when it says something else than the reply. */
	if (w->origin->dsn.len && strcmp(w->origin->verdict_from, "dsn") != 0 &&
	    (w->origin->dsn.len != strlen(w->code) ||
	     memcmp(w->origin->dsn.s, w->code, w->origin->dsn.len) != 0)) {
		out_str("; dsn=");
		put_text(w->origin->dsn);
	}
}

void render_annotation(const char *line, size_t len, const struct row *w)
{
	out_escaped(stdout, line, len);
	out_str("\n");
	if (!w)
		return;
	out_str("  => ");
	verdict(w);
	out_str("\n");
}

void render_record(enum record_format format, const struct row *w)
{
	const struct origin *o = w->origin;
	switch (format) {
	case RECORD_JSON:
		render_json(w);
		return;
	case RECORD_TSV:
		out_escaped(stdout, o->file, strlen(o->file));
		if (o->index < 0)
			out_printf("\t%lu\t", o->line);
		else
			out_printf("\t#%ld\t", o->index);
		put_text(o->recipient);
		out_str("\t");
		put_text(o->domain);
		out_printf("\t%s\t%s\t%s\t%s\t%s\t%s\n", w->code, value(w, F_SEVERITY),
		           value(w, F_SCOPE), value(w, F_ACTS), value(w, F_REASON),
		           value(w, F_NAME));
		return;
	default:
		out_escaped(stdout, o->file, strlen(o->file));
		if (o->index < 0) {
			char num[32];
			snprintf(num, sizeof num, ":%lu: ", o->line);
			out_str(num);
		} else
			out_printf(": recipient %ld: ", o->index + 1);
		put_text(o->recipient);
		out_str(" ");
		verdict(w);
		out_str("\n");
	}
}
