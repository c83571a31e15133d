/*
 * The SMTP dialogue with one server, as a sending server opens it but
 * never sending DATA: connect, banner, EHLO (HELO when refused), STARTTLS
 * when offered, MAIL, RCPT when an address is given, then RSET and QUIT.
 * Each step is handed to a callback as it ends.
 */
#ifndef SMTPCODE_PROBE_SESSION_H
#define SMTPCODE_PROBE_SESSION_H

#include <stdbool.h>

#include "reply.h"
#include "resolve.h"
#include "tls.h"

enum step_id {
	STEP_MX,       /* the domain's mail hosts (main.c) */
	STEP_ADDRESS,  /* a host's addresses (main.c) */
	STEP_CONNECT, STEP_BANNER, STEP_EHLO, STEP_HELO, STEP_STARTTLS,
	STEP_TLS, STEP_MAIL, STEP_RCPT, STEP_RSET, STEP_QUIT
};

/* One step as it ended: a reply, a TLS peer, or an error (else none:
 * a connect that worked). */
struct step {
	enum step_id id;
	const char *host;          /* the host's name (or the domain's) */
	const char *address;       /* "192.0.2.1", or NULL before one */
	unsigned port;
	long long ms;              /* how long it took */
	const char *command;       /* the line sent, without CRLF, or NULL */
	const struct reply *reply; /* the server's, or NULL */
	const struct tls_peer *tls;     /* STEP_TLS */
	const char *error;         /* what went wrong, or NULL */
	/* STEP_MX: the hosts found, and whether they are the domain's
	 * own address (no MX) */
	const struct mail_host *hosts;
	size_t nhosts;
};

typedef void step_fn(const struct step *s, void *ctx);

/* Per-step time-outs, in milliseconds. */
struct timeouts {
	int connect, banner, command, dns;
};

struct session_opts {
	const char *helo;   /* the name in EHLO and HELO */
	const char *from;   /* MAIL FROM:<from>; "" for the null sender */
	const char *rcpt;   /* RCPT TO:<rcpt>, or NULL: stop after MAIL */
	bool no_tls;
	bool tls_on_connect; /* implicit TLS (RFC 8314 3.3): the handshake
	                        comes before the banner, and no STARTTLS */
	struct timeouts t;
};

enum outcome {
	OUTCOME_ACCEPTED,    /* every step had a success reply */
	OUTCOME_FAILED,      /* a step had a 4xx or 5xx reply */
	OUTCOME_UNREACHABLE  /* no reply to tell: refused, timed out, ... */
};

struct session_result {
	enum outcome outcome;
	bool past_banner;   /* the server greeted with a success code: the
	                       one to report, not to skip for another */
	enum step_id step;  /* the step that decided a failure */
	bool timed_out;     /* unreachable: that step's deadline passed */
	char command[600];  /* its command line ("RCPT TO:<bob@...>") */
	char error[256];    /* the error of an unreachable server */
};

/* Talk to host at address a; every step to each(step, ctx). */
void session_run(const struct session_opts *o, const char *host,
                 const struct host_addr *a, unsigned port, step_fn *each,
                 void *ctx, struct session_result *res);

/* The step's name as the output shows it: "rcpt". */
const char *step_name(enum step_id id);

#endif
