/*
 * The SMTP dialogue with one server (RFC 5321 3.1 to 3.3, 4.1.1; STARTTLS:
 * RFC 3207), step by step, each handed to the caller as it ends.  What to
 * do after each reply is decided here; what a reply means is the table's
 * (report.c), never this file's.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "conn.h"
#include "session.h"

const char *step_name(enum step_id id)
{
	static const char *const names[] = {
		[STEP_MX] = "mx", [STEP_ADDRESS] = "address",
		[STEP_CONNECT] = "connect", [STEP_BANNER] = "banner",
		[STEP_EHLO] = "ehlo", [STEP_HELO] = "helo",
		[STEP_STARTTLS] = "starttls", [STEP_TLS] = "tls",
		[STEP_MAIL] = "mail", [STEP_RCPT] = "rcpt", [STEP_RSET] = "rset",
		[STEP_QUIT] = "quit",
	};
	return names[id];
}

/* One reply at a time: the reader's buffer (64 KB) is kept here rather
 * than on the stack. */
static struct reply reply;

struct run {
	const struct session_opts *o;
	struct step s;
	struct conn c;
	step_fn *each;
	void *ctx;
	struct session_result *res;
	long long start;     /* when the current step began */
	char err[256];
};

static void emit(struct run *r, enum step_id id, const char *command,
                 const struct reply *rep, const struct tls_peer *tls,
                 const char *error)
{
	r->s.id = id;
	r->s.ms = clock_ms() - r->start;
	r->s.command = command;
	r->s.reply = rep;
	r->s.tls = tls;
	r->s.error = error;
	r->each(&r->s, r->ctx);
}

/* The server cannot be talked to any more (st says why): close without
 * QUIT. */
static void unreachable(struct run *r, enum step_id id, const char *command,
                        enum conn_status st)
{
	emit(r, id, command, NULL, NULL, r->err);
	r->res->outcome = OUTCOME_UNREACHABLE;
	r->res->step = id;
	r->res->timed_out = st == CONN_TIMEOUT;
	snprintf(r->res->error, sizeof r->res->error, "%s", r->err);
	conn_close(&r->c);
}

/*
 * Send command (NULL: none, for the banner), read the reply: its class
 * digit (2 to 5), or 0 when the connection failed (reported, and
 * closed).
 */
static unsigned exchange(struct run *r, enum step_id id, const char *command,
                         int timeout_ms)
{
	char line[620];
	enum conn_status st = CONN_OK;
	long long deadline;

	r->start = clock_ms();
	deadline = r->start + timeout_ms;
	if (command) {
		int n = snprintf(line, sizeof line, "%s\r\n", command);
		st = conn_send(&r->c, line, (size_t)n, deadline, r->err,
		               sizeof r->err);
	}
	if (st == CONN_OK)
		st = conn_reply(&r->c, &reply, deadline, r->err, sizeof r->err);
	if (st != CONN_OK) {
		unreachable(r, id, command, st);
		return 0;
	}
	emit(r, id, command, &reply, NULL, NULL);
	return reply.code / 100;
}

/* A failure code: the step decides the outcome; QUIT unless the server
 * said it is closing (421) or nothing is left to say it to. */
static void failed(struct run *r, enum step_id id, const char *command)
{
	struct session_result *res = r->res;

	snprintf(res->command, sizeof res->command, "%s",
	         command ? command : "the connection");
	/* QUIT's own answer, or its failure, does not change the outcome. */
	if (reply.code != 421)
		exchange(r, STEP_QUIT, "QUIT", r->o->t.command);
	res->outcome = OUTCOME_FAILED;
	res->step = id;
	res->error[0] = '\0';
	conn_close(&r->c);
}

/* Whether the EHLO reply lists STARTTLS (a line "250-STARTTLS" or
 * "250 STARTTLS", in any case). */
static bool offers_starttls(const struct reply *rep)
{
	const char *p = rep->text, *end = rep->text + rep->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n >= 12 && strncasecmp(p + 4, "STARTTLS", 8) == 0 &&
		    (n == 12 || p[12] == ' '))
			return true;
		p += n + 1;
	}
	return false;
}

/* EHLO, or HELO when EHLO is refused as not understood (5xx): whether
 * the session goes on; *tls whether STARTTLS is offered. */
static bool greet(struct run *r, bool *tls)
{
	char ehlo[300], helo[300];
	unsigned cls;

	snprintf(ehlo, sizeof ehlo, "EHLO %s", r->o->helo);
	snprintf(helo, sizeof helo, "HELO %s", r->o->helo);
	*tls = false;
	const char *sent = ehlo;
	enum step_id id = STEP_EHLO;

	cls = exchange(r, id, ehlo, r->o->t.command);
	if (cls == 2) {
		*tls = offers_starttls(&reply);
		return true;
	}
	if (cls == 5 && reply.code != 421) {
		sent = helo;
		id = STEP_HELO;
		cls = exchange(r, id, helo, r->o->t.command);
	}
	if (cls == 2)
		return true;
	if (cls)
		failed(r, id, sent);
	return false;
}

/* The TLS handshake, reported as its own step: whether it worked. */
static bool handshake(struct run *r, const char *host, int timeout_ms)
{
	struct tls_peer peer;
	enum conn_status st;

	r->start = clock_ms();
	memset(&peer, 0, sizeof peer);
	st = conn_tls_start(&r->c, host, r->start + timeout_ms, &peer, r->err,
	                    sizeof r->err);
	if (st != CONN_OK) {
		unreachable(r, STEP_TLS, NULL, st);
		return false;
	}
	emit(r, STEP_TLS, NULL, NULL, &peer, NULL);
	return true;
}

/* STARTTLS, the handshake and EHLO again: whether the session goes on. */
static bool starttls(struct run *r, const char *host)
{
	bool again;
	unsigned cls = exchange(r, STEP_STARTTLS, "STARTTLS", r->o->t.command);

	if (cls != 2) {
		if (cls)
			failed(r, STEP_STARTTLS, "STARTTLS");
		return false;
	}
	return handshake(r, host, r->o->t.command) && greet(r, &again);
}

/* MAIL, then RCPT when an address was given: whether both succeeded. */
static bool envelope(struct run *r)
{
	char mail[600], rcpt[600];
	unsigned cls;

	snprintf(mail, sizeof mail, "MAIL FROM:<%s>", r->o->from);
	cls = exchange(r, STEP_MAIL, mail, r->o->t.command);
	if (cls != 2) {
		if (cls)
			failed(r, STEP_MAIL, mail);
		return false;
	}
	if (!r->o->rcpt)
		return true;
	snprintf(rcpt, sizeof rcpt, "RCPT TO:<%s>", r->o->rcpt);
	cls = exchange(r, STEP_RCPT, rcpt, r->o->t.command);
	if (cls != 2) {
		if (cls)
			failed(r, STEP_RCPT, rcpt);
		return false;
	}
	return true;
}

void session_run(const struct session_opts *o, const char *host,
                 const struct host_addr *a, unsigned port, step_fn *each,
                 void *ctx, struct session_result *res)
{
	struct run r;
	bool tls;
	unsigned cls;
	enum conn_status st;

	memset(res, 0, sizeof *res);
	memset(&r, 0, offsetof(struct run, c));
	r.c.fd = -1;
	r.o = o;
	r.each = each;
	r.ctx = ctx;
	r.res = res;
	r.s.host = host;
	r.s.address = a->text;
	r.s.port = port;
	r.start = clock_ms();
	st = conn_open(&r.c, a, r.start + o->t.connect, r.err, sizeof r.err);
	if (st != CONN_OK) {
		unreachable(&r, STEP_CONNECT, NULL, st);
		return;
	}
	emit(&r, STEP_CONNECT, NULL, NULL, NULL, NULL);
	/* The server's wait for a ClientHello would otherwise look like a
	 * silent banner, five minutes long. */
	if (o->tls_on_connect && !handshake(&r, host, o->t.banner))
		return;
	cls = exchange(&r, STEP_BANNER, NULL, o->t.banner);
	if (cls != 2) {
		if (cls)
			failed(&r, STEP_BANNER, NULL);
		return;
	}
	res->past_banner = true;
	if (!greet(&r, &tls))
		return;
	if (tls && !o->no_tls && !o->tls_on_connect && !starttls(&r, host))
		return;
	if (!envelope(&r))
		return;
	/* What QUIT and RSET answer does not change what the server said
	 * of the mail. */
	if (exchange(&r, STEP_RSET, "RSET", o->t.command))
		exchange(&r, STEP_QUIT, "QUIT", o->t.command);
	if (r.c.fd >= 0)
		conn_close(&r.c);
	res->outcome = OUTCOME_ACCEPTED;
}
