/*
 * Event streams: which reader a line goes to (smtpcode_stream_parse()),
 * and the one way both readers turn an event's fields into a record
 * (stream_fill()), so that a SES bounce and a PowerMTA accounting line
 * give records a script reads alike.
 */
#include <stdio.h>
#include <string.h>

#include "logscan.h"
#include "logvocab.h"
#include "smtpcode.h"
#include "streams.h"

int smtpcode_stream_parse(const char *s, size_t len,
                          const struct smtpcode_csv_layout *layout,
                          smtpcode_stream_fn *fn, void *ctx)
{
	const char *p = s, *end;

	if (!s || !fn)
		return -1;
	end = s + len;
	while (p < end && is_space(*p))
		p++;
	if (p < end && (*p == '{' || *p == '['))
		return log_json_read(p, (size_t)(end - p), fn, ctx);
	if (layout && layout->kind)
		return log_csv_read(s, len, layout, fn, ctx);
	return -1;
}

/* The first word of [a, b): a dsn field's code, its words after it left
 * out ("5.1.1 (bad destination mailbox address)"). */
static struct smtpcode_text first_word(struct smtpcode_text t)
{
	const char *a = t.s, *b, *w;

	if (!t.len)
		return t;
	b = t.s + t.len;
	trim(&a, &b);
	for (w = a; w < b && !is_space(*w); w++)
		;
	return span(a, w);
}

void stream_fill(struct smtpcode_logline *l, const struct stream_fields *f,
                 char *scratch)
{
	const char *a = f->reply.s, *b = a ? a + f->reply.len : a;

	log_clear(l);
	l->format = SMTPCODE_LOG_FIELDS;
	if (f->recipient.len)
		log_take_recipient(l, f->recipient.s,
		                   f->recipient.s + f->recipient.len);
	if (f->host.len) {
		const char *h = f->host.s, *e = f->host.s + f->host.len;
		trim(&h, &e);
		l->relay = span(h, e);
	}
	if (f->status)
		l->status = (struct smtpcode_text){f->status, strlen(f->status)};
	if (f->reply.len) {
		/* A DSN's diagnostic names its type first ("smtp; 550 ..."):
		 * the reply is what follows. */
		trim(&a, &b);
		if (b - a >= 5 && stream_is(a, 5, "smtp;")) {
			a += 5;
			trim(&a, &b);
		}
		/* A basic code given apart (Mailgun's "code": 550) goes before
		 * words that do not start with one ("5.1.1 The email ..."), as
		 * the server said it. */
		if (f->basic >= 200 && f->basic <= 599 && a < b &&
		    !(b - a >= 3 && is_digit(a[0]) && is_digit(a[1]) &&
		      is_digit(a[2]) && (b - a == 3 || (!is_digit(a[3]) && a[3] != '.')))) {
			int n = snprintf(scratch, STREAM_SCRATCH, "%u %.*s", f->basic,
			                 (int)(b - a < STREAM_SCRATCH ? b - a
			                                              : STREAM_SCRATCH),
			                 a);
			if (n > 0) {
				a = scratch;
				b = scratch + (n < STREAM_SCRATCH ? n : STREAM_SCRATCH - 1);
			}
		}
		take_reply(l, a, b);
	}
	l->dsn = first_word(f->dsn);
	if (l->dsn.len &&
	    smtpcode_parse(l->dsn.s, l->dsn.len, &l->dsn_code) != SMTPCODE_OK)
		l->dsn_code = (struct smtpcode_query){0};
}

bool stream_row(const char **p, struct smtpcode_text *f, int n)
{
	const char *a = *p, *end;

	if (!*a)
		return false;
	end = strchr(a, '\n');
	for (int i = 0; i < n; i++) {
		const char *tab = i + 1 < n ? memchr(a, '\t', (size_t)(end - a)) : NULL;
		const char *stop = tab ? tab : end;
		f[i] = (struct smtpcode_text){a, (size_t)(stop - a)};
		a = tab ? tab + 1 : end;
	}
	*p = end + 1;
	return true;
}

const char *stream_status(struct smtpcode_text w)
{
	static const char *const words[] = {
		LOG_STATUS_SENT, LOG_STATUS_DEFERRED, LOG_STATUS_BOUNCED,
		LOG_STATUS_COMPLAINED,
	};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strlen(words[i]) == w.len && memcmp(words[i], w.s, w.len) == 0)
			return words[i];
	return NULL;
}
