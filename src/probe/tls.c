/*
 * STARTTLS's handshake and the bytes after it, through OpenSSL, on a
 * socket made non-blocking so that every step waits in poll() no longer
 * than its deadline.  The certificate is verified but never refused
 * (SSL_VERIFY_NONE): the result is read afterwards and reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "clock.h"
#include "tls.h"

struct tls {
	SSL *ssl;
	int fd;
	bool broken; /* a fatal error: no close_notify may be sent */
};

/* One context for every connection: the authorities are read once. */
static SSL_CTX *context;

static SSL_CTX *tls_context(void)
{
	if (context)
		return context;
	context = SSL_CTX_new(TLS_client_method());
	if (!context)
		return NULL;
	/* No minimum version of our own beyond the library's: the probe
	 * reports what a server negotiates, it does not judge it.
	 * SSL_CERT_FILE and SSL_CERT_DIR are honoured here (tests trust
	 * their own authority through SSL_CERT_FILE). */
	if (SSL_CTX_set_default_verify_paths(context) != 1) {
		SSL_CTX_free(context);
		context = NULL;
		return NULL;
	}
	SSL_CTX_set_verify(context, SSL_VERIFY_NONE, NULL);
	return context;
}

void tls_cleanup(void)
{
	SSL_CTX_free(context);
	context = NULL;
}

/*
 * A write to a socket the server closed raises SIGPIPE, which would end
 * the probe without a word; OpenSSL writes with write(2), so SIGPIPE is
 * held back around each OpenSSL call and, if one was raised there,
 * taken off (EPIPE is then the error).  The process's disposition of
 * SIGPIPE is left alone, for its writes to stdout.
 */
struct pipe_guard {
	sigset_t old;
	bool was_pending;
};

static void pipe_hold(struct pipe_guard *g)
{
	sigset_t pipe, pending;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe, &g->old);
	sigpending(&pending);
	g->was_pending = sigismember(&pending, SIGPIPE) == 1;
}

static void pipe_release(const struct pipe_guard *g)
{
	sigset_t pipe, pending;
	const struct timespec now = { 0, 0 };

	if (!g->was_pending && sigpending(&pending) == 0 &&
	    sigismember(&pending, SIGPIPE) == 1) {
		sigemptyset(&pipe);
		sigaddset(&pipe, SIGPIPE);
		while (sigtimedwait(&pipe, NULL, &now) < 0 && errno == EINTR)
			;
	}
	sigprocmask(SIG_SETMASK, &g->old, NULL);
}

/* Wait until fd can do what OpenSSL wants (err: SSL_get_error's), or the
 * deadline: 0 ready, -2 too late, -1 poll failed. */
static int tls_wait(int fd, int err, long long deadline)
{
	struct pollfd p;

	p.fd = fd;
	p.events = err == SSL_ERROR_WANT_WRITE ? POLLOUT : POLLIN;
	p.revents = 0;
	for (;;) {
		int left = clock_left(deadline);
		int r;

		if (left == 0)
			return -2;
		r = poll(&p, 1, left);
		if (r > 0)
			return 0;
		if (r == 0)
			return -2;
		if (errno != EINTR)
			return -1;
	}
}

/* The server ended the stream without close_notify (OpenSSL 3 reports it
 * as an error; OpenSSL 1.1 as SSL_ERROR_SYSCALL with no error at all). */
static bool tls_eof(int err, unsigned long first, int sys_errno)
{
	if (err == SSL_ERROR_ZERO_RETURN)
		return true;
	if (err == SSL_ERROR_SYSCALL && first == 0)
		return sys_errno == 0 || sys_errno == ECONNRESET ||
		       sys_errno == EPIPE;
	return err == SSL_ERROR_SSL &&
	       ERR_GET_LIB(first) == ERR_LIB_SSL &&
	       ERR_GET_REASON(first) == SSL_R_UNEXPECTED_EOF_WHILE_READING;
}

/* The message of a failed handshake, from OpenSSL's first error. */
static void handshake_error(int err, unsigned long first, int sys_errno,
                            char *msg, size_t size)
{
	const char *why;
	char buf[256];

	if (tls_eof(err, first, sys_errno)) {
		snprintf(msg, size, "the server closed the connection during "
		         "the TLS handshake");
		return;
	}
	if (first) {
		why = ERR_reason_error_string(first);
		if (!why) {
			ERR_error_string_n(first, buf, sizeof buf);
			why = buf;
		}
	} else if (sys_errno) {
		why = strerror(sys_errno);
	} else {
		why = "unknown error";
	}
	snprintf(msg, size, "TLS handshake failed: %s", why);
}

/* Copy the text src[0..len) into dst, a display field: a text too long
 * keeps its start and ends with "...". */
static void field(char *dst, size_t size, const char *src, size_t len)
{
	if (len < size) {
		memcpy(dst, src, len);
		dst[len] = '\0';
		return;
	}
	memcpy(dst, src, size - 4);
	memcpy(dst + size - 4, "...", 4);
}

static void field_str(char *dst, size_t size, const char *src)
{
	field(dst, size, src ? src : "", src ? strlen(src) : 0);
}

/* A name in RFC 2253's one-line form ("CN=mx.example.org,O=Example").
 * Its flags escape control characters and bytes past ASCII, so what is
 * kept is plain ASCII. */
static void name_text(char *dst, size_t size, const X509_NAME *name)
{
	BIO *b = BIO_new(BIO_s_mem());

	dst[0] = '\0';
	if (!b)
		return;
	if (name && X509_NAME_print_ex(b, name, 0, XN_FLAG_RFC2253) >= 0) {
		char *p;
		long n = BIO_get_mem_data(b, &p);

		if (n > 0)
			field(dst, size, p, (size_t)n);
	}
	BIO_free(b);
}

/* When the certificate ends, and how many whole days from now: rounded
 * down, so that an expired certificate always has a negative count. */
static void expiry(struct tls_peer *peer, const ASN1_TIME *end)
{
	struct tm tm;
	int days, secs;

	peer->not_after[0] = '\0';
	peer->days_left = 0;
	if (!end)
		return;
	if (ASN1_TIME_to_tm(end, &tm) == 1 &&
	    strftime(peer->not_after, sizeof peer->not_after,
	             "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		peer->not_after[0] = '\0';
	if (ASN1_TIME_diff(&days, &secs, NULL, end) == 1)
		peer->days_left = (long)days - (secs < 0 ? 1 : 0);
}

static void describe(SSL *ssl, struct tls_peer *peer)
{
	X509 *cert = SSL_get1_peer_certificate(ssl);
	long result = SSL_get_verify_result(ssl);

	memset(peer, 0, sizeof *peer);
	field_str(peer->version, sizeof peer->version, SSL_get_version(ssl));
	field_str(peer->cipher, sizeof peer->cipher,
	          SSL_CIPHER_get_name(SSL_get_current_cipher(ssl)));
	if (!cert) {
		field_str(peer->verify_error, sizeof peer->verify_error,
		          "no certificate");
		return;
	}
	name_text(peer->subject, sizeof peer->subject,
	          X509_get_subject_name(cert));
	name_text(peer->issuer, sizeof peer->issuer,
	          X509_get_issuer_name(cert));
	expiry(peer, X509_get0_notAfter(cert));
	/* The chain and the name were checked during the handshake; the
	 * first problem found is what OpenSSL keeps. */
	peer->verified = result == X509_V_OK;
	if (!peer->verified)
		field_str(peer->verify_error, sizeof peer->verify_error,
		          X509_verify_cert_error_string(result));
	X509_free(cert);
}

/* Name the server: SNI and the name checked for a host name, the address
 * checked for an IP literal (which SNI may not carry, RFC 6066 3). */
static bool name_server(SSL *ssl, const char *host)
{
	unsigned char addr[sizeof(struct in6_addr)];
	char name[256];
	size_t len;

	if (!host || !*host)
		return true;
	if (inet_pton(AF_INET, host, addr) == 1 ||
	    inet_pton(AF_INET6, host, addr) == 1)
		return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl),
		                                     host) == 1;
	/* An absolute name ("mx.example.org.") is sent and checked
	 * without its final dot, as certificates and SNI write names. */
	len = strlen(host);
	if (len >= sizeof name)
		return false;
	memcpy(name, host, len + 1);
	if (len > 1 && name[len - 1] == '.')
		name[len - 1] = '\0';
	return SSL_set_tlsext_host_name(ssl, name) == 1 &&
	       SSL_set1_host(ssl, name) == 1;
}

static bool nonblocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags >= 0 &&
	       ((flags & O_NONBLOCK) || fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0);
}

/* The handshake, until it ends or the deadline: 0 done, -2 too late,
 * else SSL_get_error's code with *first and *sys_errno for the message. */
static int handshake(SSL *ssl, int fd, long long deadline,
                     unsigned long *first, int *sys_errno)
{
	for (;;) {
		struct pipe_guard g;
		int r, err, w;

		ERR_clear_error();
		errno = 0;
		pipe_hold(&g);
		r = SSL_connect(ssl);
		*sys_errno = errno;
		pipe_release(&g);
		if (r == 1)
			return 0;
		err = SSL_get_error(ssl, r);
		if (err != SSL_ERROR_WANT_READ && err != SSL_ERROR_WANT_WRITE) {
			*first = ERR_peek_error();
			return err;
		}
		w = tls_wait(fd, err, deadline);
		if (w == -2)
			return -2;
		if (w < 0) {
			*first = 0;
			*sys_errno = errno;
			return SSL_ERROR_SYSCALL;
		}
	}
}

struct tls *tls_start(int fd, const char *host, long long deadline,
                      struct tls_peer *peer, char *err, size_t errsize)
{
	SSL_CTX *ctx;
	struct tls *t;
	unsigned long first = 0;
	int sys_errno = 0;
	int r;

	ERR_clear_error();
	ctx = tls_context();
	if (!ctx || !nonblocking(fd)) {
		handshake_error(SSL_ERROR_SSL, ERR_peek_error(), errno,
		                err, errsize);
		ERR_clear_error();
		return NULL;
	}
	t = malloc(sizeof *t);
	if (!t) {
		snprintf(err, errsize, "TLS handshake failed: %s",
		         strerror(ENOMEM));
		return NULL;
	}
	t->fd = fd;
	t->broken = false;
	t->ssl = SSL_new(ctx);
	/* SSL_set_fd's socket BIO does not close fd: the caller owns it. */
	if (!t->ssl || !name_server(t->ssl, host) ||
	    SSL_set_fd(t->ssl, fd) != 1) {
		handshake_error(SSL_ERROR_SSL, ERR_peek_error(), 0,
		                err, errsize);
		goto fail;
	}
	r = handshake(t->ssl, fd, deadline, &first, &sys_errno);
	if (r == -2) {
		snprintf(err, errsize, "TLS handshake timed out");
		goto fail;
	}
	if (r != 0) {
		handshake_error(r, first, sys_errno, err, errsize);
		goto fail;
	}
	describe(t->ssl, peer);
	ERR_clear_error();
	return t;
fail:
	ERR_clear_error();
	SSL_free(t->ssl);
	free(t);
	return NULL;
}

/*
 * The end of a failed SSL_read or SSL_write: 0 for the end of the stream
 * (reading), else -1 with errno: the system's error (EPIPE when the server
 * had closed), or EPROTO for a TLS protocol error; and no close_notify
 * after a fatal error.
 */
static ssize_t tls_failed(struct tls *t, int err, int sys_errno,
                          bool reading)
{
	unsigned long first = ERR_peek_error();

	ERR_clear_error();
	if (reading && tls_eof(err, first, sys_errno)) {
		if (err != SSL_ERROR_ZERO_RETURN)
			t->broken = true;
		return 0;
	}
	t->broken = true;
	/* Writing after the server's close_notify is SSL_ERROR_ZERO_RETURN,
	 * whatever the socket said. */
	if (err == SSL_ERROR_SYSCALL || err == SSL_ERROR_ZERO_RETURN)
		errno = sys_errno ? sys_errno : EPIPE;
	else
		errno = EPROTO;
	return -1;
}

/* As read(2) into rbuf, or write(2) from wbuf, over TLS, until the
 * deadline. */
static ssize_t tls_io(struct tls *t, void *rbuf, const void *wbuf, size_t n,
                      long long deadline)
{
	bool reading = rbuf != NULL;
	/* SSL_read and SSL_write take an int; fewer bytes are moved, as
	 * read(2) and write(2) may. */
	int len = n > INT_MAX ? INT_MAX : (int)n;

	if (n == 0)
		return 0;
	for (;;) {
		struct pipe_guard g;
		int r, err, w, sys_errno;

		ERR_clear_error();
		errno = 0;
		pipe_hold(&g);
		r = reading ? SSL_read(t->ssl, rbuf, len)
		            : SSL_write(t->ssl, wbuf, len);
		sys_errno = errno;
		pipe_release(&g);
		if (r > 0)
			return r;
		err = SSL_get_error(t->ssl, r);
		if (err != SSL_ERROR_WANT_READ && err != SSL_ERROR_WANT_WRITE)
			return tls_failed(t, err, sys_errno, reading);
		/* A write not finished is retried with the same bytes, as
		 * OpenSSL requires. */
		w = tls_wait(t->fd, err, deadline);
		if (w == -2)
			return -2;
		if (w < 0)
			return -1;
	}
}

ssize_t tls_read(struct tls *t, void *buf, size_t n, long long deadline)
{
	return tls_io(t, buf, NULL, n, deadline);
}

ssize_t tls_write(struct tls *t, const void *buf, size_t n,
                  long long deadline)
{
	return tls_io(t, NULL, buf, n, deadline);
}

void tls_close(struct tls *t)
{
	struct pipe_guard g;

	if (!t)
		return;
	if (!t->broken) {
		/* Once, without waiting for the server's own close_notify:
		 * the connection is closed next. */
		ERR_clear_error();
		pipe_hold(&g);
		SSL_shutdown(t->ssl);
		pipe_release(&g);
		ERR_clear_error();
	}
	SSL_free(t->ssl);
	free(t);
}
