/*
 * The Exim dialect: "DATE ID ** rcpt <orig> R=... T=... H=host [ip]: SMTP
 * error from remote mail server after RCPT TO:<rcpt>: 550 ..." (a bounce)
 * and the same with "==" (a deferral).  The marker is found by the
 * dispatch's prefilter (logline.c) from its doubled byte.
 */
#include "dialect.h"
#include "logscan.h"

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
	l->stage = span(p, colon);
	r = AFTER(colon, end, ": ", 0, 1);
	if (r && STARTS(r, end, "host ")) {
		if (!l->relay.len)
			l->relay = exim_host(r + 5, end);
		r = AFTER(r, end, ": ", 0, 1);
	}
	if (r)
		take_reply(l, r, end);
}

bool log_exim_read(struct smtpcode_logline *l, const char *s,
                   const char *from, const char *end)
{
	static const char failed[] = "failed", deferred[] = "deferred";
	bool bounce;
	const char *m = exim_marker(s, from, end, &bounce), *rcpt, *tail, *aft, *h;

	if (!m)
		return false;
	l->format = SMTPCODE_LOG_EXIM;
	/* The line writes only the marker: these two words are the one
	 * span not inside the input (see smtpcode.h). */
	l->status.s = bounce ? failed : deferred;
	l->status.len = bounce ? sizeof failed - 1 : sizeof deferred - 1;

	rcpt = m + 4;
	tail = scan_byte(rcpt, end, ' ');
	if (!tail)
		tail = end;
	/* "** x@y: Unrouteable address": the colon is not the address's. */
	log_take_recipient(l, rcpt, tail > rcpt && tail[-1] == ':' ? tail - 1 : tail);

	aft = FIND(tail, end, LOG_EXIM_REPLY, 1, 2);
	h = FIND(tail, aft ? aft : end, " " LOG_EXIM_HOST, 1, 2);
	if (h)
		l->relay = exim_host(h + 3, aft ? aft : end);
	if (aft)
		exim_after(l, aft + sizeof LOG_EXIM_REPLY - 1, end);
	else
		take_reply(l, tail, end);
	return true;
}
