/*
 * The Sendmail dialect: delivery lines, "QID: to=<R>, delay=D, xdelay=D,
 * mailer=esmtp, pri=N, relay=H, dsn=X.Y.Z, stat=TEXT", and the rejects of
 * its rulesets, "QID: ruleset=check_rcpt, arg1=<R>, relay=C,
 * reject=550 5.7.1 <R>... Relaying denied".  The delivery lines share
 * the Postfix walk of "to=<>, name=value" fields (postfix.c), which reads
 * the recipient, relay= and dsn= of both and hands the closing stat= here.
 */
#include "dialect.h"
#include "logscan.h"
#include "logvocab.h"

/*
 * The fixed status of stat=[v, w): "Sent" and "Deferred" say it; any
 * other text ("User unknown", "Service unavailable") is Sendmail's word
 * for a failure, whose dsn= class tells a bounce from a deferral (the
 * text stays in the reply).  Absent when neither tells ("queued").
 */
static struct smtpcode_text stat_word(const struct smtpcode_logline *l,
                                      const char *v, const char *w)
{
	if (w - v == 4 && same(v, "Sent", 4))
		return LOG_WORD(LOG_STATUS_SENT);
	if (w - v == 8 && same(v, "Deferred", 8))
		return LOG_WORD(LOG_STATUS_DEFERRED);
	if (w == v) /* "stat=": nothing said */
		return span(NULL, NULL);
	if (l->dsn.len && l->dsn.s[0] == '5')
		return LOG_WORD(LOG_STATUS_BOUNCED);
	if (l->dsn.len && l->dsn.s[0] == '4')
		return LOG_WORD(LOG_STATUS_DEFERRED);
	return span(NULL, NULL);
}

/* stat=Deferred: 452 4.3.1 ..., stat=Sent (...), stat=User unknown */
void log_sendmail_stat(struct smtpcode_logline *l, const char *v,
                       const char *end)
{
	const char *colon, *paren, *e = end;

	if (!v) /* never: said for the analyzer, which sees find() test it */
		return;
	colon = scan_byte(v, end, ':');
	paren = FIND(v, colon ? colon : end, " (", 0, 1);

	l->format = SMTPCODE_LOG_SENDMAIL;
	if (paren) {
		if (e > paren + 2 && e[-1] == ')')
			e--;
		l->status = stat_word(l, v, paren);
		take_reply_or_words(l, paren + 2, e);
	} else if (colon) {
		l->status = stat_word(l, v, colon);
		take_reply_or_words(l, colon + 1, end);
	} else {
		trim(&v, &e);
		l->status = stat_word(l, v, e);
		/* Any text but "Sent" alone is a failure's words ("User
		 * unknown"), which the reply keeps. */
		if (!(e - v == 4 && same(v, "Sent", 4)))
			take_reply_or_words(l, v, e);
	}
}

/* The value of the ruleset line's field name= in [p, end), up to its
 * ", "; absent when the line has none. */
static struct smtpcode_text field(const char *p, const char *end,
                                  const char *name, size_t n)
{
	const char *v, *e;

	for (v = p; (v = find(v, end, name, n, 0, n - 1)) != NULL; v++)
		if (v >= p + 2 && v[-2] == ',' && v[-1] == ' ')
			break;
	if (!v)
		return span(NULL, NULL);
	v += n;
	e = FIND(v, end, ", ", 0, 1);
	return span(v, e ? e : end);
}
#define FIELD(p, end, lit) field((p), (end), (lit), sizeof(lit) - 1)

/* "ruleset=check_rcpt, arg1=<R>, relay=C, reject=REPLY": the ruleset
 * names the step refused (check_relay: the connection). */
bool log_sendmail_reject(struct smtpcode_logline *l, const char *s,
                         const char *from, const char *end)
{
	/* from is the line's first "reject": ", reject=" is looked for
	 * from there, "ruleset=" before it. */
	const char *r = FIND(from - s >= 2 ? from - 2 : s, end, ", reject=", 2, 4);
	const char *rs = r ? FIND_LAST(s, r, "ruleset=check_", 1) : NULL, *n;
	struct smtpcode_text arg;
	bool rcpt;

	if (!rs)
		return false;
	n = rs + sizeof "ruleset=check_" - 1;
	l->format = SMTPCODE_LOG_SENDMAIL;
	l->status = LOG_WORD(LOG_STATUS_REJECTED);
	if ((rcpt = STARTS(n, r, "rcpt")))
		l->stage = LOG_WORD(LOG_STAGE_RCPT);
	else if (STARTS(n, r, "mail"))
		l->stage = LOG_WORD(LOG_STAGE_MAIL);
	else if (STARTS(n, r, "relay"))
		l->stage = LOG_WORD(LOG_STAGE_CONNECT);
	l->relay = FIELD(rs, r, "relay=");
	arg = FIELD(rs, r, "arg1=");
	if (rcpt && arg.len)
		log_take_recipient(l, arg.s, arg.s + arg.len);
	take_reply_or_words(l, r + sizeof ", reject=" - 1, end);
	return true;
}
