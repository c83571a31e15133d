/*
 * The Exim dialect: "DATE ID ** rcpt <orig> R=... T=... H=host [ip]: SMTP
 * error from remote mail server after RCPT TO:<rcpt>: 550 ..." (a bounce)
 * and the same with "==" (a deferral), whose marker the dispatch's
 * prefilter (logline.c) finds from its doubled byte; and the receiving
 * side's "H=client F=<s> rejected RCPT <r>: TEXT" (RCPT, MAIL, after
 * DATA, EHLO or HELO, connection) and "NAME authenticator failed for
 * client: 535 TEXT", found as lines with a reject or a code are.
 */
#include "dialect.h"
#include "logscan.h"
#include "logvocab.h"

_Static_assert(sizeof LOG_EXIM_REPLY == sizeof " after " &&
               sizeof LOG_EXIM_HOST == sizeof "H=",
               "names of the lengths the search offsets are written for");

/* Whether [a, b) is an Exim message ID: 1rfXyz-000AbC-2D (6-6-2), or
 * 1rfXyz-00000000AbC-2DxY (6-11-4) since Exim 4.97. */
static bool is_exim_id(const char *a, const char *b)
{
	/* The two hyphens, not an array of part lengths: an array would give
	 * smtpcode_log_parse(), where this is inlined, a stack-protector
	 * check on every line. */
	const char *h1 = NULL, *h2 = NULL, *p;

	for (p = a; p < b; p++) {
		if (*p == '-') {
			if (h2)
				return false;
			if (h1)
				h2 = p;
			else
				h1 = p;
		} else if (!is_digit(*p) && !is_alpha(*p)) {
			return false;
		}
	}
	return h2 && h1 - a == 6 && h2 - h1 - 1 >= 6 && h2 - h1 - 1 <= 11 &&
	       b - h2 - 1 >= 2 && b - h2 - 1 <= 4;
}

/* Whether a marker at m follows a message ID. */
static bool after_exim_id(const char *s, const char *m)
{
	const char *w = m;
	while (w > s && m - w < 24 && w[-1] != ' ')
		w--;
	return (w == s || w[-1] == ' ') && is_exim_id(w, m);
}

/* The first " ** " after a message ID, else the first " == " after one
 * (*bounce tells which), else NULL: both looked for in one pass. */
static const char *exim_marker(const char *s, const char *from,
                               const char *end, bool *bounce)
{
	const char *d = from + 1, *deferral = NULL;

	while ((d = scan_doubled(d, end - 2, '*', '=')) != NULL) {
		const char *m = d - 1;
		if (m[0] == ' ' && d[2] == ' ' && after_exim_id(s, m)) {
			if (*d == '*') {
				*bounce = true;
				return m;
			}
			if (!deferral)
				deferral = m;
		}
		d++;
	}
	*bounce = false;
	return deferral;
}

/* An Exim host: "mx.example.com [192.0.2.5]", with ":port" if written. */
static struct smtpcode_text exim_host(const char *p, const char *end)
{
	const char *q = p, *rb;

	while (q < end && *q != ' ' && *q != ':')
		q++;
	if (STARTS(q, end, " [") && (rb = scan_byte(q, end, ']')) != NULL)
		q = rb + 1;
	if (end - q >= 2 && *q == ':' && is_digit(q[1]))
		for (q++; q < end && is_digit(*q); q++)
			;
	return span(p, q);
}

/* "after RCPT TO:<x>: 550 ...", "after end of data: 550 ...", "after
 * pipelined MAIL FROM:<x> SIZE=1: 550", and before Exim 4.90 "...: host
 * mx [ip]: 550 ...". */
static void exim_after(struct smtpcode_logline *l, const char *p,
                       const char *end)
{
	const char *colon, *r;

	if (STARTS(p, end, "pipelined "))
		p += sizeof "pipelined " - 1;
	colon = scan_byte(p, end, ':');
	if (!colon) {
		take_reply(l, p, end);
		return;
	}
	l->stage = stage_word(p, colon);
	r = AFTER(colon, end, ": ", 0, 1);
	if (r && STARTS(r, end, "host ")) {
		if (!l->relay.len)
			l->relay = exim_host(r + 5, end);
		r = AFTER(r, end, ": ", 0, 1);
	}
	if (r)
		take_reply(l, r, end);
}

/* Whether " after " at aft follows the words that open a remote reply:
 * "SMTP error from remote mail server after", "LMTP error after", "...
 * remote mailer after" (Exim before 4.90); not a " after " of Exim's own
 * words ("retry time not reached for any host after a long failure
 * period"). */
static bool after_error(const char *words, const char *aft)
{
	return (aft - words >= 5 && same(aft - 5, "error", 5)) ||
	       (aft - words >= 6 && (same(aft - 6, "server", 6) ||
	                             same(aft - 6, "mailer", 6)));
}

bool log_exim_read(struct smtpcode_logline *l, const char *s,
                   const char *from, const char *end)
{
	bool bounce;
	const char *m = exim_marker(s, from, end, &bounce), *rcpt, *tail, *aft,
	           *h, *words;

	if (!m)
		return false;
	l->format = SMTPCODE_LOG_EXIM;
	l->status = bounce ? LOG_WORD(LOG_STATUS_BOUNCED)
	                   : LOG_WORD(LOG_STATUS_DEFERRED);

	rcpt = m + 4;
	tail = scan_byte(rcpt, end, ' ');
	if (!tail)
		tail = end;
	/* "** x@y: Unrouteable address": the colon is not the address's; the
	 * words follow it.  Else they follow the fields ("R=r T=t: retry
	 * timeout exceeded", "H=host [ip]: SMTP error ..."). */
	words = tail > rcpt && tail[-1] == ':' ? tail : NULL;
	log_take_recipient(l, rcpt, words ? tail - 1 : tail);
	/* The remote reply follows " after " and the words that open one,
	 * nearly always; any other " after " (Exim's own words) counts only
	 * before the words that follow the fields' ": ". */
	aft = FIND(tail, end, LOG_EXIM_REPLY, 1, 2);
	if (!aft || !after_error(tail, aft)) {
		if (!words)
			words = AFTER(tail, end, ": ", 0, 1);
		if (aft && words && words <= aft)
			aft = NULL;
	}
	h = FIND(tail, aft ? aft : end, " " LOG_EXIM_HOST, 1, 2);
	if (h)
		l->relay = exim_host(h + 3, aft ? aft : end);
	if (aft) {
		exim_after(l, aft + sizeof LOG_EXIM_REPLY - 1, end);
		return true;
	}
	if (!words)
		return true;
	if (bounce && FIND(words, end, "retry timeout exceeded", 5, 6))
		l->status = LOG_WORD(LOG_STATUS_EXPIRED);
	/* "defer (110): Connection timed out H=mx [ip]": the host is not
	 * the reply's. */
	take_reply_or_words(l, words, h && h > words ? h : end);
	return true;
}

/* ---- The receiving side ---- */

/* "rejected RCPT <r>: TEXT", "rejected MAIL <s>: TEXT", "rejected after
 * DATA: TEXT", "rejected EHLO or HELO x: TEXT", "rejected connection in
 * \"connect\" ACL: TEXT", after "H=client": the step at w. */
static bool exim_rejected(struct smtpcode_logline *l, const char *s,
                          const char *rj, const char *end)
{
	const char *w = rj + sizeof " rejected " - 1, *h, *lt, *gt, *r = w;
	bool rcpt = STARTS(w, end, "RCPT "), mail = STARTS(w, end, "MAIL ");

	if (rcpt || mail)
		l->stage = rcpt ? LOG_WORD(LOG_STAGE_RCPT) : LOG_WORD(LOG_STAGE_MAIL);
	else if (STARTS(w, end, "after DATA"))
		l->stage = LOG_WORD(LOG_STAGE_END_OF_DATA);
	else if (STARTS(w, end, "EHLO") || STARTS(w, end, "HELO"))
		l->stage = LOG_WORD(LOG_STAGE_HELO);
	else if (STARTS(w, end, "connection"))
		l->stage = LOG_WORD(LOG_STAGE_CONNECT);
	else
		return false;
	if ((h = FIND_LAST(s, rj, " " LOG_EXIM_HOST, 1)) == NULL &&
	    !STARTS(s, rj, LOG_EXIM_HOST)) {
		l->stage = span(NULL, NULL);
		return false;
	}
	l->format = SMTPCODE_LOG_EXIM;
	l->status = LOG_WORD(LOG_STATUS_REJECTED);
	l->relay = exim_host(h ? h + 3 : s + 2, rj);
	/* The address refused is in <>; the text follows it. */
	lt = w + 5;
	if ((rcpt || mail) && lt < end && *lt == '<' &&
	    (gt = scan_byte(lt, end, '>')) != NULL) {
		if (rcpt)
			log_take_recipient(l, lt, gt + 1);
		r = gt;
	}
	if ((r = AFTER(r, end, ": ", 0, 1)) != NULL)
		take_reply_or_words(l, r, end);
	return true;
}

/* "dovecot_login authenticator failed for (helo) [ip]:port I=[ip]:587:
 * 535 Incorrect authentication data (set_id=user)": the client's login
 * refused, with the reply Exim sent it. */
static void exim_auth_failed(struct smtpcode_logline *l, const char *af,
                             const char *end)
{
	const char *c = af + sizeof " authenticator failed for " - 1, *r, *id;

	l->format = SMTPCODE_LOG_EXIM;
	l->status = LOG_WORD(LOG_STATUS_AUTH_FAILED);
	l->stage = LOG_WORD(LOG_STAGE_AUTH);
	l->relay = exim_host(c, end);
	r = AFTER(c + l->relay.len, end, ": ", 0, 1);
	if (!r)
		return;
	/* The login's name is the log's, not the reply's. */
	id = FIND_LAST(r, end, " (set_id=", 2);
	take_reply_or_words(l, r, id ? id : end);
}

bool log_exim_reject(struct smtpcode_logline *l, const char *s,
                     const char *from, const char *end)
{
	const char *rj;

	/* from is the line's first "reject": " rejected " starts before. */
	for (rj = from > s ? from - 1 : from;
	     (rj = FIND(rj, end, " rejected ", 3, 4)) != NULL; rj++)
		if (exim_rejected(l, s, rj, end))
			return true;
	log_clear(l);
	return false;
}

bool log_exim_auth(struct smtpcode_logline *l, const char *s,
                   const char *from, const char *end)
{
	/* from is the line's first "authen". */
	const char *af = FIND(from > s ? from - 1 : s, end,
	                      " authenticator failed for ", 2, 15);

	if (!af)
		return false;
	exim_auth_failed(l, af, end);
	return true;
}
