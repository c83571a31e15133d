/*
 * STARTTLS (RFC 3207) through OpenSSL on a connected socket.  The
 * certificate is checked against the system's authorities and the host's
 * name, and what was found is reported, never refused: the probe asks
 * what a server says, and a sending server with opportunistic TLS takes a
 * certificate it cannot verify.
 */
#ifndef SMTPCODE_PROBE_TLS_H
#define SMTPCODE_PROBE_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tls_peer {
	char version[32];        /* "TLSv1.3" */
	char cipher[64];
	/* Display fields: a name longer than its field keeps its start and
	 * ends with "..." (names are plain ASCII: RFC 2253's escapes). */
	char subject[256];       /* "CN=mx.example.org", RFC 2253 form */
	char issuer[256];
	char not_after[32];      /* "2027-03-01 12:00:00 UTC" */
	long days_left;          /* whole days to not_after, rounded down:
	                            negative once it has passed */
	bool verified;           /* chain and name both check out */
	char verify_error[128];  /* why not, when not: "certificate has
	                            expired", "hostname mismatch", ... */
};

struct tls;

/* The handshake on fd, naming host (SNI, and the name checked; an IP
 * literal, without brackets, is checked as an address and not sent; NULL:
 * no name checked), until deadline (clock.h).  fd is left non-blocking.
 * The plain bytes read after STARTTLS's 220 must be dropped before this
 * (RFC 3207 4.2).  NULL with err ("TLS handshake failed: <OpenSSL's
 * reason>", "the server closed the connection during the TLS handshake",
 * "TLS handshake timed out") on failure; fills *peer on success. */
struct tls *tls_start(int fd, const char *host, long long deadline,
                      struct tls_peer *peer, char *err, size_t errsize);
/* As read() and write() until deadline: bytes moved; 0 at the end of the
 * stream (read; with or without the server's close_notify); -1 on error
 * with errno (EPROTO for a TLS error), -2 when the deadline passed.  A
 * server that closed the connection raises no SIGPIPE: EPIPE. */
ssize_t tls_read(struct tls *t, void *buf, size_t n, long long deadline);
ssize_t tls_write(struct tls *t, const void *buf, size_t n,
                  long long deadline);
/* close_notify (best effort, without waiting), then free; not the fd. */
void tls_close(struct tls *t);
/* Free what every connection shares (the context and its authorities),
 * once no connection is left: before the program ends, so that memory
 * checkers see nothing left.  tls_start may be called again after it. */
void tls_cleanup(void);

#endif
