/*
 * The fields engine: a dialect read from its record in data/logs/ alone
 * (dialect.h), for MTAs whose delivery lines are "name=value" fields
 * followed by a reply, as Courier's are:
 *
 *   courieresmtp: id=0001A2B3.5F3E4D5C.00001234,from=<a@example.org>,
 *   addr=<b@example.com>: 550 5.1.1 <b@example.com>... User unknown
 *
 * A line is the dialect's when it holds one of the record's markers and,
 * after it, the recipient's field; the host, status and dsn fields are
 * read when the record names them; the reply starts after the record's
 * reply text, looked for after the recipient's value, and is read as any
 * reply is (logscan.h's take_reply(): its usual shape, else a code under
 * the free-text policy).
 *
 * Not on the hot path: the dispatch (logline.c) calls this only for lines
 * the prefilter found a code in and no built-in reader took, so the names
 * are compared as the record gives them, not as literals.
 */
#include "dialect.h"
#include "logscan.h"

/* The first w in [p, end), or NULL. */
static const char *find_word(const char *p, const char *end,
                             const struct log_word *w)
{
	if (w->len == 1)
		return scan_byte(p, end, w->s[0]);
	/* Its first and last bytes, then the rest at their hits. */
	return find(p, end, w->s, w->len, 0, (size_t)w->len - 1u);
}

/* Where the value of field name starts in [p, end): just after the
 * first name at p or after the separator or a space; NULL without one. */
static const char *field_value(const char *p, const char *end,
                               const struct log_word *name, char sep)
{
	const char *from = p, *hit;

	for (; (hit = find_word(from, end, name)) != NULL; from = hit + 1)
		if (hit == p || hit[-1] == sep || hit[-1] == ' ')
			return hit + name->len;
	return NULL;
}

/* Where a value at v ends: after its '>' when it is in <> (which may
 * hold the separator), else at the separator, a space, or stop. */
static const char *value_end(const char *v, const char *stop, char sep)
{
	const char *e;

	if (v < stop && *v == '<')
		return (e = scan_byte(v, stop, '>')) != NULL ? e + 1 : stop;
	for (e = v; e < stop && *e != sep && *e != ' '; e++)
		;
	return e;
}

/* An optional field's value, up to stop. */
static struct smtpcode_text optional(const char *p, const char *stop,
                                     const struct log_word *name, char sep)
{
	const char *v = name->len ? field_value(p, stop, name, sep) : NULL;

	return v ? span(v, value_end(v, stop, sep)) : span(NULL, NULL);
}

bool log_fields_read(const struct log_dialect_rec *d,
                     struct smtpcode_logline *l, const char *s,
                     const char *end)
{
	const char *p = NULL, *v, *ve, *r;
	size_t i;

	for (i = 0; i < LOG_MARKERS && d->marker[i].len && !p; i++)
		if ((p = find_word(s, end, &d->marker[i])) != NULL)
			p += d->marker[i].len;
	if (!p)
		return false;
	while (p < end && *p == ' ')
		p++;
	if ((v = field_value(p, end, &d->recipient, d->separator)) == NULL)
		return false;
	ve = value_end(v, end, d->separator);
	/* A bare value ("rcpt=a@b: 550 ...") ends where the reply's text
	 * starts, if that is inside it. */
	if (v < ve && *v != '<' && d->reply.len &&
	    (r = find_word(v, end, &d->reply)) != NULL && r < ve)
		ve = r;
	/* The reply, after the recipient's value: the fields before it are
	 * looked for before it only ("said: ... from=<x>" is the reply's). */
	r = d->reply.len ? find_word(ve, end, &d->reply) : NULL;
	l->format = SMTPCODE_LOG_FIELDS;
	log_take_recipient(l, v, ve);
	l->relay = optional(p, r ? r : end, &d->host, d->separator);
	l->status = optional(p, r ? r : end, &d->status, d->separator);
	l->dsn = optional(p, r ? r : end, &d->dsn, d->separator);
	if (r)
		take_reply(l, r + d->reply.len, end);
	return true;
}
