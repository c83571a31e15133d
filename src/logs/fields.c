/*
 * The fields engine: a dialect read from its record in data/logs/ alone
 * (dialect.h), for MTAs whose lines are "name=value" fields and a reply,
 * as Courier's are:
 *
 *   courieresmtp: id=0001A2B3.5F3E4D5C.00001234,from=<a@example.org>,
 *   addr=<b@example.com>: 550 5.1.1 <b@example.com>... User unknown
 *
 * A line is the record's when it holds one of its markers, one of its
 * recipient fields, and a reply text or a status word; a record that
 * says its lines' side needs no recipient (qmail-send's "delivery 42:
 * failure: ..." names none).  The host and dsn fields are read when the
 * record names them; the reply starts after the first of the record's
 * reply texts found, looked for after the marker and the recipient's
 * value, then anywhere from the marker on (Courier's smtpd writes
 * msg="550 ..." before its cmd: RCPT TO:<x>); a reply text that ends in
 * a quote has its reply end at the closing one.  It is read as any reply is (logscan.h's take_reply(): its
 * usual shape, else a basic code where it starts, else a code under the
 * free-text policy): a basic code alone is taken here, because the layout
 * says the reply is there.
 *
 * Status and stage are the fixed words of logvocab.h: a record's status
 * words say which a text of the line means ("failure:" bounced); on the
 * sending side a reply's code says it first (a 4xx is deferred whatever
 * the words), on the others the side's own word is the default
 * (rejected, auth-failed).  The stage is the record's fixed one, or the
 * SMTP command written after its stage-after text.
 *
 * Not on the hot path: the dispatch (logline.c) calls log_fields_read()
 * only for lines the prefilter found a code in and no built-in reader
 * took, and for lines without one only when log_program_dialects()
 * (programs.c) finds that their syslog tag is a record's program; so
 * the names are compared as the record gives them, not as literals.  So
 * it is built for size, as the other cold readers are.
 */
#include "dialect.h"
#include "logscan.h"
#include "logvocab.h"

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

/* The value at v, up to stop: inside its quotes when quoted (which may
 * hold spaces: relay="mx.example.com [192.0.2.7]"); through its '>' when
 * in <> (which may hold the separator); else up to the separator, a
 * space, or, after a name ending in '(' (Dovecot's "lmtp(user)"), ')'. */
static struct smtpcode_text value_at(const char *v, const char *stop,
                                     char sep, const struct log_word *name)
{
	const char *e;
	char close = name->s[name->len - 1] == '(' ? ')' : sep;

	if (v < stop && *v == '"') {
		v++;
		return span(v, (e = scan_byte(v, stop, '"')) != NULL ? e : stop);
	}
	if (v < stop && *v == '<')
		return span(v, (e = scan_byte(v, stop, '>')) != NULL ? e + 1 : stop);
	for (e = v; e < stop && *e != sep && *e != ' ' && *e != close; e++)
		;
	return span(v, e);
}

/* An optional field's value, up to stop. */
static struct smtpcode_text optional(const char *p, const char *stop,
                                     const struct log_word *name, char sep)
{
	const char *v = name->len ? field_value(p, stop, name, sep) : NULL;

	return v ? value_at(v, stop, sep, name) : span(NULL, NULL);
}

/* The first of the record's texts ws[] found in [p, end), and which. */
static const char *find_alt(const char *p, const char *end,
                            const struct log_word *ws, size_t *which)
{
	const char *hit;

	for (size_t i = 0; i < LOG_ALTS && ws[i].len; i++)
		if ((hit = find_word(p, end, &ws[i])) != NULL) {
			*which = i;
			return hit;
		}
	return NULL;
}

/* A static word of logvocab.h as a span. */
static struct smtpcode_text word(const char *w)
{
	return w ? span(w, w + strlen(w)) : span(NULL, NULL);
}

/* Whether t is the static word w. */
static bool is_word_of(struct smtpcode_text t, const char *w)
{
	return t.len == strlen(w) && memcmp(t.s, w, t.len) == 0;
}

/* The status of the line: see the top of this file. */
static const char *status_of(const struct log_dialect_rec *d,
                             const struct smtpcode_logline *l, const char *p,
                             const char *end)
{
	const struct smtpcode_query *q = &l->code;
	size_t i;
	unsigned cls = q->basic ? q->basic / 100 : q->enhanced ? q->cls : 0;

	if (d->side == SMTPCODE_SIDE_DELIVERY && cls >= 2 && cls <= 5 &&
	    cls != 3)
		return cls == 2 ? LOG_STATUS_SENT
		     : cls == 4 ? LOG_STATUS_DEFERRED : LOG_STATUS_BOUNCED;
	if (find_alt(p, end, d->status_word, &i))
		return d->status_of[i];
	return d->side == SMTPCODE_SIDE_REJECT ? LOG_STATUS_REJECTED
	     : d->side == SMTPCODE_SIDE_AUTH ? LOG_STATUS_AUTH_FAILED : NULL;
}

/* The longest reply whose spaces are written as '_' (qmail's) that is
 * read: its codes are at its start or after its words, never further. */
#define UNDERSCORED_MAX 512

/*
 * The reply [a, b): taken by take_reply(), from a copy with its '_' made
 * spaces when the dialect writes them so (qmail: "Remote_host_said:_451_
 * 4.7.1_..."), the spans put back into the line (the copy has the same
 * offsets).  A code that qmail writes after its words, "(#5.1.1)", keeps
 * the reply whole: those words are the reply.
 */
static void reply_in(const struct log_dialect_rec *d,
                     struct smtpcode_logline *l, const char *a, const char *b)
{
	char copy[UNDERSCORED_MAX];
	const char *from = a;

	if (d->underscores) {
		const char *e = (size_t)(b - a) < sizeof copy ? b : a + sizeof copy;
		char *u;
		/* qmail ends each sentence of its report with '/'
		 * ("..._User_unknown/Giving_up_on_192.0.2.7./"): the reply
		 * ends at the first, as a '/' inside it ("http://") is not
		 * followed by a capital or the end. */
		for (const char *q = a; (q = scan_byte(q, e, '/')) != NULL; q++)
			if (q + 1 == e || is_upper(q[1])) {
				e = q;
				break;
			}
		memcpy(copy, a, (size_t)(e - a));
		b = copy + (e - a);
		for (u = copy; (u = (char *)scan_byte(u, b, '_')) != NULL; u++)
			*u = ' ';
		from = copy;
	}
	/* A reply without a code keeps its words as the line's reply, as
	 * the built-in dialects' do (Dovecot's "save failed to INBOX: Quota
	 * exceeded"): a caller classifies the line by them.  Not a copy's,
	 * which dies with this call. */
	if (from == copy)
		take_reply(l, from, b);
	else
		take_reply_or_words(l, from, b);
	if (l->reply.len && l->reply.s - from >= 2 && l->reply.s[-1] == '#' &&
	    l->reply.s[-2] == '(') {
		const char *w = from;
		while (w < l->reply.s && is_space(*w))
			w++;
		l->reply = span(w, l->reply.s + l->reply.len);
		l->code.text_off = 0;
		l->code.text_len = l->reply.len;
	}
	/* Back into the line: the copy dies with this call. */
	if (from == copy && l->reply.len)
		l->reply.s = a + (l->reply.s - copy);
}

bool log_fields_read(const struct log_dialect_rec *d,
                     struct smtpcode_logline *l, const char *s,
                     const char *end)
{
	const char *m = NULL, *v = NULL, *r = NULL, *after = NULL, *re = end;
	struct smtpcode_text rcpt = span(NULL, NULL);
	size_t i, k;

	for (i = 0; i < LOG_MARKERS && d->marker[i].len && !m; i++)
		if ((m = find_word(s, end, &d->marker[i])) != NULL)
			after = m + d->marker[i].len;
	if (!m)
		return false;
	/* The fields are looked for in the whole line, each at a field's
	 * start: Haraka's marker (" retval=DENY") follows its recipient. */
	for (i = 0; i < LOG_ALTS && d->recipient[i].len && !v; i++)
		if ((v = field_value(s, end, &d->recipient[i], d->separator)))
			rcpt = value_at(v, end, d->separator, &d->recipient[i]);
	if (!v && !d->side)
		return false;
	/* A bare value ("rcpt=a@b: 550 ...") ends where the reply's text
	 * starts, if that is inside it. */
	if (rcpt.len && *rcpt.s != '<' &&
	    (r = find_alt(rcpt.s, end, d->reply, &k)) != NULL &&
	    r < rcpt.s + rcpt.len)
		rcpt = span(rcpt.s, r);
	if (rcpt.len && rcpt.s + rcpt.len > after)
		after = rcpt.s + rcpt.len;
	/* The reply, after the marker and the recipient's value, else after
	 * the marker's start (qmail's ": failure: " is both; Courier's msg=
	 * precedes its cmd: RCPT TO:<x>): the fields before it are looked for
	 * before it only ("said: ... from=<x>" is the reply's). */
	if ((r = find_alt(after, end, d->reply, &k)) == NULL)
		r = find_alt(m, end, d->reply, &k);
	/* A line with neither a reply nor a status word is another of the
	 * program's (Dovecot's "lmtp(6120): Connect from local"). */
	if (!r && !find_alt(s, end, d->status_word, &i))
		return false;
	l->format = SMTPCODE_LOG_FIELDS;
	if (rcpt.len)
		log_take_recipient(l, rcpt.s, rcpt.s + rcpt.len);
	l->relay = optional(s, r ? r : end, &d->host, d->separator);
	l->dsn = optional(s, r ? r : end, &d->dsn, d->separator);
	if (r) {
		const struct log_word *w = &d->reply[k];
		r += w->len;
		if (w->s[w->len - 1] == '"' && (re = scan_byte(r, end, '"')) == NULL)
			re = end;
		reply_in(d, l, r, re);
	}
	l->status = word(status_of(d, l, s, end));
	/* Words without a code tell why a message failed or waits; on a
	 * line that says it was delivered they are none ("status:
	 * success"). */
	if (!l->code.basic && !l->code.enhanced &&
	    is_word_of(l->status, LOG_STATUS_SENT))
		l->reply = span(NULL, NULL);
	if (d->stage)
		l->stage = word(d->stage);
	else if (d->stage_after.len &&
	         (v = find_word(s, end, &d->stage_after)) != NULL)
		l->stage = log_stage_of(v + d->stage_after.len, end);
	/* A failed login answered AUTH, whatever the line names as the
	 * command (Courier's is the client's last line: in a login, its
	 * base64 answer). */
	if (!l->stage.len && is_word_of(l->status, LOG_STATUS_AUTH_FAILED))
		l->stage = word(LOG_STAGE_AUTH);
	/* The address of a command before RCPT (Haraka's params= of a
	 * refused MAIL FROM) is the sender's: no recipient. */
	if (l->stage.len && !is_word_of(l->stage, LOG_STAGE_RCPT) &&
	    !is_word_of(l->stage, LOG_STAGE_DATA) &&
	    !is_word_of(l->stage, LOG_STAGE_END_OF_DATA))
		l->recipient = l->domain = span(NULL, NULL);
	return true;
}

/*
 * The data dialects, see dialect.h.  A line without a dotted code is read
 * by its program's records only, so that a basic code alone (Courier's
 * msg="550 User unknown.", rblsmtpd's 451) and a line of words alone
 * (qmail's "success:") are read where the layout says, and no other line
 * costs more than the scan for its tag.  A coded line is tried on its
 * program's records first, where it nearly always is, and then on every
 * record by its markers (a Courier line whose tag is not courieresmtp).
 */
bool log_fields_line(struct smtpcode_logline *l, const char *s,
                     const char *end, bool coded, uint32_t mine,
                     const struct log_dialect_rec **rec)
{
	const struct log_dialect_rec *d;
	size_t i;

	/* The program's records, lowest bit first: in table order.  The
	 * bits are taken one by one, as qmail's is bit 10. */
	for (uint32_t m = mine; m; m &= m - 1)
		if (log_fields_read(d = &table_dialects[__builtin_ctz(m)], l, s,
		                    end))
			goto took;
	/* (i < table_ndialects <= 32 keeps each shift inside the mask.) */
	for (i = 0; coded && i < table_ndialects; i++)
		if (!(mine >> i & 1u) &&
		    (d = &table_dialects[i])->engine == LOG_ENGINE_FIELDS &&
		    log_fields_read(d, l, s, end))
			goto took;
	return false;
took:
	if (rec)
		*rec = d;
	return true;
}
