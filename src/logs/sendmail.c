/*
 * The Sendmail dialect: "QID: to=<R>, delay=D, xdelay=D, mailer=esmtp,
 * pri=N, relay=H, dsn=X.Y.Z, stat=TEXT".  Its lines share the Postfix
 * walk of "to=<>, name=value" fields (postfix.c), which reads the
 * recipient, relay= and dsn= of both and hands the closing stat= here.
 */
#include "dialect.h"
#include "logscan.h"

/* stat=Deferred: 452 4.3.1 ..., stat=Sent (...), stat=User unknown */
void log_sendmail_stat(struct smtpcode_logline *l, const char *v,
                       const char *end)
{
	const char *colon, *paren;

	if (!v) /* never: said for the analyzer, which sees find() test it */
		return;
	colon = scan_byte(v, end, ':');
	paren = FIND(v, colon ? colon : end, " (", 0, 1);

	l->format = SMTPCODE_LOG_SENDMAIL;
	if (paren) {
		const char *de = end;
		if (de > paren + 2 && de[-1] == ')')
			de--;
		l->status = span(v, paren);
		take_reply(l, paren + 2, de);
	} else if (colon) {
		l->status = span(v, colon);
		take_reply(l, colon + 1, end);
	} else {
		const char *e = end;
		trim(&v, &e);
		l->status = span(v, e);
	}
}

