/*
 * Mail logs: --annotate (each line, plus a short verdict), --extract (one
 * record per code found) and --summary (counts by code and by recipient
 * domain).  Lines come through input.c; the library parses them.
 */
#include <stdio.h>
#include <string.h>

#include "input.h"
#include "logs.h"
#include "output.h"
#include "render.h"
#include "summary.h"

struct log_ctx {
	const struct log_options *o;
	const char *file;
	struct summary *summary;
};

static const char *display_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

/* The code a line's verdict rests on: the reply's, else the dsn= field. */
static const char *choose(const struct smtpcode_logline *l,
                          struct smtpcode_query *q)
{
	if (l->code.enhanced || l->code.basic) {
		*q = l->code;
		return l->code.enhanced ? "reply" : "reply basic code";
	}
	*q = l->dsn_code;
	return "dsn";
}

static void record(struct log_ctx *c, const char *line, size_t len,
                   unsigned long lineno, const struct smtpcode_logline *l)
{
	struct smtpcode_query q;
	struct smtpcode_result r;
	struct origin o;
	struct row w;

	memset(&o, 0, sizeof o);
	o.file = display_name(c->file);
	o.line = lineno;
	o.index = -1;
	o.recipient = l->recipient;
	o.domain = l->domain;
	o.relay = l->relay;
	o.stage = l->stage;
	o.status = l->status;
	o.seen_basic = seen_code(l->reply, &l->code, 0);
	o.seen_enhanced = seen_code(l->reply, &l->code, 1);
	o.dsn = l->dsn;
	o.reply = l->reply;
	o.verdict_from = choose(l, &q);
	smtpcode_resolve(&q, l->reply.s, l->reply.len, c->o->provider, &r);
	row_of_result(&w, &r, NULL);
	w.origin = &o;
	if (c->o->mode == LOG_ANNOTATE)
		render_annotation(line, len, &w);
	else
		render_record(c->o->format, &w);
}

static void each(void *ctx, const char *line, size_t len, unsigned long lineno)
{
	struct log_ctx *c = ctx;
	struct smtpcode_logline l;
	bool found = smtpcode_log_parse(line, len, &l);

	if (c->o->mode == LOG_SUMMARY) {
		struct smtpcode_query q;
		if (found)
			choose(&l, &q);
		summary_add(c->summary, found ? &q : NULL, l.recipient, l.domain,
		            l.status);
		return;
	}
	if (found)
		record(c, line, len, lineno, &l);
	else if (c->o->mode == LOG_ANNOTATE)
		render_annotation(line, len, NULL);
}

int read_logs(const struct log_options *o, int nfiles, char **files)
{
	static char *stdin_only[] = {"-"};
	struct log_ctx c = {o, NULL, NULL};
	int status = 0;

	if (nfiles == 0) {
		nfiles = 1;
		files = stdin_only;
	}
	if (o->mode == LOG_SUMMARY && !(c.summary = summary_new()))
		return -1;
	for (int i = 0; i < nfiles; i++) {
		c.file = files[i];
		if (each_line(files[i], each, &c) != 0)
			status = -1; /* reported; the other files still count */
	}
	if (c.summary) {
		summary_render(c.summary, o->format == RECORD_JSON);
		summary_free(c.summary);
	}
	return status;
}
