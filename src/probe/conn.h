/*
 * One connection to an SMTP server: a TCP connect with a deadline (IPv4
 * or IPv6), then lines sent and replies read with deadlines, over the
 * plain socket or, after STARTTLS, over TLS.  Bytes that arrive after a
 * reply are kept for the next one (a server may answer pipelined
 * commands at once).
 */
#ifndef SMTPCODE_PROBE_CONN_H
#define SMTPCODE_PROBE_CONN_H

#include <stdbool.h>
#include <stddef.h>

#include "reply.h"
#include "resolve.h"
#include "tls.h"

/* How an operation on a connection ended. */
enum conn_status {
	CONN_OK,
	CONN_REFUSED,  /* connect: nothing listens there */
	CONN_TIMEOUT,  /* the deadline passed */
	CONN_CLOSED,   /* the server closed the connection (mid-reply) */
	CONN_BAD,      /* the reply is not one, or too long: see the message */
	CONN_ERROR     /* any other failure: see the message */
};

#define CONN_BUF 4096 /* bytes read at a time, kept between replies */

struct conn {
	int fd;
	struct tls *tls;  /* after STARTTLS, else NULL */
	size_t in_off, in_len; /* in[in_off..in_len): read, not yet used */
	char in[CONN_BUF];
};

/* Connect to a before deadline (clock.h): CONN_OK with c ready, else the
 * reason, with a message in err. */
enum conn_status conn_open(struct conn *c, const struct host_addr *a,
                           long long deadline, char *err, size_t errsize);
/* Send s[0..n) whole before deadline. */
enum conn_status conn_send(struct conn *c, const char *s, size_t n,
                           long long deadline, char *err, size_t errsize);
/* Read one whole reply into r before deadline. */
enum conn_status conn_reply(struct conn *c, struct reply *r,
                            long long deadline, char *err, size_t errsize);
/* The TLS handshake (after the server's 220 to STARTTLS, or at once on
 * a port of implicit TLS), host named for SNI and the certificate's
 * check; *peer says what was found. */
enum conn_status conn_tls_start(struct conn *c, const char *host,
                                long long deadline, struct tls_peer *peer,
                                char *err, size_t errsize);
/* Close (TLS first, when started); c may be closed already. */
void conn_close(struct conn *c);

#endif
