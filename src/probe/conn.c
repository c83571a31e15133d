/*
 * A connection to an SMTP server with a deadline on every operation: a
 * non-blocking socket, poll() until the deadline, and the bounded reply
 * reader fed from a small buffer, so that no server can make the probe
 * wait or hold more than those bounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "conn.h"

static enum conn_status fail(enum conn_status st, char *err, size_t errsize,
                             const char *what)
{
	snprintf(err, errsize, "%s", what);
	return st;
}

static enum conn_status fail_errno(char *err, size_t errsize, int e)
{
	if (e == ECONNREFUSED)
		return fail(CONN_REFUSED, err, errsize, "connection refused");
	if (e == ETIMEDOUT)
		return fail(CONN_TIMEOUT, err, errsize, "timed out");
	snprintf(err, errsize, "%s", strerror(e));
	return CONN_ERROR;
}

/* Wait until fd is ready for events or deadline: CONN_OK or why not. */
static enum conn_status wait_fd(int fd, short events, long long deadline,
                                char *err, size_t errsize)
{
	struct pollfd p = {fd, events, 0};
	for (;;) {
		int n = poll(&p, 1, clock_left(deadline));
		if (n > 0)
			return CONN_OK;
		if (n == 0)
			return fail(CONN_TIMEOUT, err, errsize, "timed out");
		if (errno != EINTR)
			return fail_errno(err, errsize, errno);
	}
}

enum conn_status conn_open(struct conn *c, const struct host_addr *a,
                           long long deadline, char *err, size_t errsize)
{
	int e = 0;
	socklen_t elen = sizeof e;
	enum conn_status st;

	memset(c, 0, offsetof(struct conn, in));
	c->fd = socket(a->sa.ss_family, SOCK_STREAM, 0);
	if (c->fd < 0)
		return fail_errno(err, errsize, errno);
	if (fcntl(c->fd, F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK) != 0) {
		e = errno;
		conn_close(c);
		return fail_errno(err, errsize, e);
	}
	if (connect(c->fd, (const struct sockaddr *)&a->sa, a->len) == 0)
		return CONN_OK;
	if (errno != EINPROGRESS && errno != EINTR) {
		e = errno;
		conn_close(c);
		return fail_errno(err, errsize, e);
	}
	st = wait_fd(c->fd, POLLOUT, deadline, err, errsize);
	if (st == CONN_OK &&
	    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &e, &elen) != 0)
		e = errno;
	if (st == CONN_OK && e)
		st = fail_errno(err, errsize, e);
	if (st != CONN_OK)
		conn_close(c);
	return st;
}

enum conn_status conn_send(struct conn *c, const char *s, size_t n,
                           long long deadline, char *err, size_t errsize)
{
	while (n) {
		ssize_t w;
		if (c->tls) {
			w = tls_write(c->tls, s, n, deadline);
			if (w == -2)
				return fail(CONN_TIMEOUT, err, errsize, "timed out");
			if (w <= 0)
				return fail(CONN_CLOSED, err, errsize,
				            "connection closed by the server");
		} else {
			enum conn_status st = wait_fd(c->fd, POLLOUT, deadline, err,
			                              errsize);
			if (st != CONN_OK)
				return st;
			/* MSG_NOSIGNAL: a server that closed is an answer to
			 * report, not a SIGPIPE. */
			w = send(c->fd, s, n, MSG_NOSIGNAL);
			if (w < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (w < 0 && (errno == EPIPE || errno == ECONNRESET))
				return fail(CONN_CLOSED, err, errsize,
				            "connection closed by the server");
			if (w < 0)
				return fail_errno(err, errsize, errno);
		}
		s += w;
		n -= (size_t)w;
	}
	return CONN_OK;
}

/* More bytes into c->in (which is empty): CONN_OK, or why none came. */
static enum conn_status fill(struct conn *c, long long deadline, char *err,
                             size_t errsize)
{
	for (;;) {
		ssize_t n;
		if (c->tls) {
			n = tls_read(c->tls, c->in, sizeof c->in, deadline);
			if (n == -2)
				return fail(CONN_TIMEOUT, err, errsize, "timed out");
			if (n < 0)
				return fail(CONN_ERROR, err, errsize,
				            "TLS read failed");
		} else {
			enum conn_status st = wait_fd(c->fd, POLLIN, deadline, err,
			                              errsize);
			if (st != CONN_OK)
				return st;
			n = read(c->fd, c->in, sizeof c->in);
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n < 0 && errno == ECONNRESET)
				n = 0;
			if (n < 0)
				return fail_errno(err, errsize, errno);
		}
		if (n == 0)
			return fail(CONN_CLOSED, err, errsize, "connection closed");
		c->in_off = 0;
		c->in_len = (size_t)n;
		return CONN_OK;
	}
}

/* Whether a reply line is longer, or the reply more, than the reader's
 * bounds (as opposed to not being a reply at all). */
static bool too_long(enum reply_error e)
{
	return e == REPLY_ELINE || e == REPLY_ELINES || e == REPLY_ETEXT;
}

enum conn_status conn_reply(struct conn *c, struct reply *r,
                            long long deadline, char *err, size_t errsize)
{
	reply_init(r);
	for (;;) {
		enum reply_state state = REPLY_MORE;
		enum conn_status st;
		if (c->in_off < c->in_len) {
			c->in_off += reply_feed(r, c->in + c->in_off,
			                        c->in_len - c->in_off, &state);
		}
		if (state == REPLY_DONE)
			return CONN_OK;
		if (state == REPLY_BAD) {
			snprintf(err, errsize, "%s: %s",
			         too_long(r->error) ? "reply too long"
			                            : "malformed reply",
			         reply_strerror(r->error));
			return CONN_BAD;
		}
		st = fill(c, deadline, err, errsize);
		if (st == CONN_CLOSED && (r->nlines || r->line_len))
			return fail(CONN_CLOSED, err, errsize,
			            "connection closed mid-reply");
		if (st != CONN_OK)
			return st;
	}
}

enum conn_status conn_tls_start(struct conn *c, const char *host,
                                long long deadline, struct tls_peer *peer,
                                char *err, size_t errsize)
{
	/* Bytes after the 220 came before the handshake, in plain text:
	 * taking them as the first encrypted reply is the injection of
	 * CVE-2011-0411, so they are an error. */
	if (c->in_off < c->in_len)
		return fail(CONN_BAD, err, errsize,
		            "TLS handshake failed: the server sent data after "
		            "its STARTTLS reply");
	c->tls = tls_start(c->fd, host, deadline, peer, err, errsize);
	if (!c->tls)
		return strstr(err, "timed out") ? CONN_TIMEOUT : CONN_ERROR;
	return CONN_OK;
}

void conn_close(struct conn *c)
{
	if (c->tls)
		tls_close(c->tls);
	c->tls = NULL;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}
