/*
 * The probe's DNS: a domain's mail hosts (MX, else the domain itself) and
 * a host's addresses, asked through c-ares so that the server can be
 * given (--resolver) and no query waits longer than its time-out.  The
 * queries run in a poll() loop of our own over the sockets c-ares tells
 * us about (ARES_OPT_SOCK_STATE_CB), ended by a deadline.
 * Answers come from strangers: c-ares parses them, and only a bounded
 * number of hosts and addresses is kept, whatever the answer holds.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <sys/select.h>  /* fd_set, struct timeval: ares.h uses them */
#include <ares.h>

#include "clock.h"
#include "resolve.h"

/* Sockets c-ares may have open at once: one a server over UDP, one more
 * over TCP for a truncated answer; the system's configuration names at
 * most a few servers. */
#define SOCKS_MAX 16

/* RFC 1035 3.2.2 and 3.2.4: the MX type, the Internet class. */
#define DNS_TYPE_MX 15
#define DNS_CLASS_IN 1

struct sock {
	ares_socket_t fd;
	short events;
};

struct resolver {
	ares_channel channel;
	int timeout_ms;
	char where[80];  /* the server asked, for messages */
	struct sock socks[SOCKS_MAX];
	size_t nsocks;
};

/* c-ares wants ares_library_init() before any channel, once. */
static bool library_ready(void)
{
	static bool ready;
	if (!ready)
		ready = ares_library_init(ARES_LIB_INIT_ALL) == ARES_SUCCESS;
	return ready;
}

/* c-ares says which of its sockets to watch for what: kept for poll(). */
static void sock_state(void *data, ares_socket_t fd, int readable,
                       int writable)
{
	struct resolver *r = data;
	short events = (short)((readable ? POLLIN : 0) | (writable ? POLLOUT : 0));
	size_t i;

	for (i = 0; i < r->nsocks && r->socks[i].fd != fd; i++)
		;
	if (!events) {
		if (i < r->nsocks)
			r->socks[i] = r->socks[--r->nsocks];
		return;
	}
	if (i == r->nsocks) {
		/* More sockets than a query uses: this one is not watched,
		 * and its query ends at the deadline. */
		if (r->nsocks == SOCKS_MAX)
			return;
		r->nsocks++;
	}
	r->socks[i].fd = fd;
	r->socks[i].events = events;
}

/* A port: digits only, 1 to 65535. */
static bool parse_port(const char *s, unsigned *port)
{
	unsigned long v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > 65535)
			return false;
	}
	*port = (unsigned)v;
	return v > 0;
}

/* "IP", "IP:PORT", "IPv6", "[IP]" or "[IP]:PORT" into the form
 * ares_set_servers_ports_csv() takes, port always given. */
static bool server_csv(const char *server, char *csv, size_t size)
{
	char ip[INET6_ADDRSTRLEN + 1];
	unsigned char bin[sizeof(struct in6_addr)];
	const char *end, *colon = strchr(server, ':');
	unsigned port = 53;
	size_t len;
	bool v6;

	if (*server == '[') {
		if (!(end = strchr(server, ']')))
			return false;
		if (end[1] && (end[1] != ':' || !parse_port(end + 2, &port)))
			return false;
		server++;
	} else if (colon && !strchr(colon + 1, ':')) {
		if (!parse_port(colon + 1, &port))
			return false;
		end = colon;
	} else {
		end = server + strlen(server);  /* no port, or a bare IPv6 */
	}
	len = (size_t)(end - server);
	if (len >= sizeof ip)
		return false;
	memcpy(ip, server, len);
	ip[len] = '\0';
	v6 = inet_pton(AF_INET6, ip, bin) == 1;
	if (!v6 && inet_pton(AF_INET, ip, bin) != 1)
		return false;
	return (size_t)snprintf(csv, size, v6 ? "[%s]:%u" : "%s:%u", ip,
	                        port) < size;
}

struct resolver *resolver_open(const char *server, int timeout_ms, char *err,
                               size_t errsize)
{
	struct ares_options opt;
	int mask = ARES_OPT_FLAGS | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES |
	           ARES_OPT_DOMAINS | ARES_OPT_SOCK_STATE_CB;
	struct resolver *r;
	char csv[sizeof r->where];
	int status;

	if (server && !server_csv(server, csv, sizeof csv)) {
		snprintf(err, errsize,
		         "--resolver: expected IP or IP:PORT, got \"%s\"", server);
		return NULL;
	}
	if (!library_ready()) {
		snprintf(err, errsize, "cannot start c-ares");
		return NULL;
	}
	if (!(r = calloc(1, sizeof *r))) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	r->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
	snprintf(r->where, sizeof r->where, "%s",
	         server ? csv : "the system's");

	memset(&opt, 0, sizeof opt);
	/* A domain is absolute: no search list, whatever resolv.conf says. */
	opt.flags = ARES_FLAG_NOSEARCH;
	opt.ndomains = 0;
	/* Three tries in the time (c-ares doubles the wait at each), so that
	 * one lost datagram is sent again; the deadline ends the rest. */
	opt.timeout = r->timeout_ms / 3 > 0 ? r->timeout_ms / 3 : 1;
	opt.tries = 3;
	opt.sock_state_cb = sock_state;
	opt.sock_state_cb_data = r;
	if (server) {
		/* The server given answers alone: not /etc/hosts either. */
		opt.lookups = (char *)"b";
		mask |= ARES_OPT_LOOKUPS;
	}
	status = ares_init_options(&r->channel, &opt, mask);
	if (status == ARES_SUCCESS && server)
		status = ares_set_servers_ports_csv(r->channel, csv);
	if (status != ARES_SUCCESS) {
		snprintf(err, errsize, "cannot set up the resolver: %s",
		         ares_strerror(status));
		if (r->channel)
			ares_destroy(r->channel);
		free(r);
		return NULL;
	}
	return r;
}

void resolver_close(struct resolver *r)
{
	if (!r)
		return;
	ares_destroy(r->channel);
	free(r);
}

/* One wait of at most left ms for c-ares's sockets, then what it has to
 * do: read answers, send again, end queries whose time is up.  False
 * when poll() itself failed. */
static bool step(struct resolver *r, int left)
{
	struct pollfd pfd[SOCKS_MAX];
	struct timeval most, tv;
	const struct timeval *next;
	nfds_t i, n;
	int got;

	most.tv_sec = left / 1000;
	most.tv_usec = (left % 1000) * 1000;
	next = ares_timeout(r->channel, &most, &tv);
	for (n = 0; n < r->nsocks; n++) {
		pfd[n].fd = r->socks[n].fd;
		pfd[n].events = r->socks[n].events;
		pfd[n].revents = 0;
	}
	/* rounded up: an early wake-up would find nothing to do */
	got = poll(pfd, n,
	           (int)(next->tv_sec * 1000 + (next->tv_usec + 999) / 1000));
	if (got < 0)
		return errno == EINTR;
	if (got == 0) {
		ares_process_fd(r->channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
		return true;
	}
	for (i = 0; i < n; i++) {
		bool in = (pfd[i].revents & (POLLIN | POLLERR | POLLHUP)) != 0;
		bool out = (pfd[i].revents & POLLOUT) != 0;
		if (in || out)
			ares_process_fd(r->channel,
			                in ? pfd[i].fd : ARES_SOCKET_BAD,
			                out ? pfd[i].fd : ARES_SOCKET_BAD);
	}
	return true;
}

/* Runs the channel until *pending queries have called back, or the
 * deadline: then they are cancelled (their callbacks see
 * ARES_ECANCELLED).  False when poll() itself failed. */
static bool run(struct resolver *r, long long deadline, const int *pending)
{
	while (*pending > 0) {
		int left = clock_left(deadline);
		if (!left || !step(r, left)) {
			int saved = errno;
			ares_cancel(r->channel);
			errno = saved;
			return left == 0;
		}
	}
	return true;
}

/* What went wrong, in the probe's words, for the failures that are not
 * a status of their own. */
static const char *failure(int status)
{
	switch (status) {
	case ARES_ESERVFAIL:
		return "the server failed (SERVFAIL)";
	case ARES_EREFUSED:
		return "the server refused the query (REFUSED)";
	case ARES_EFORMERR:
		return "the server could not read the query (FORMERR)";
	case ARES_ENOTIMP:
		return "the server does not do such queries (NOTIMP)";
	case ARES_EBADRESP:
		return "the answer is malformed";
	case ARES_ECONNREFUSED:
		return "connection refused: no DNS server listens there";
	case ARES_EBADNAME:
		return "not a valid domain name";
	case ARES_ENOMEM:
		return "out of memory";
	default:
		return ares_strerror(status);
	}
}

/* The status and message of a query that did not answer: what, the
 * query, "MX example.org" or "AAAA and A mx.example.org". */
static enum resolve_status fail(const struct resolver *r, int status,
                                const char *what, const char *name,
                                char *err, size_t errsize)
{
	if (status == ARES_ENOTFOUND) {
		snprintf(err, errsize,
		         "DNS query for %s %s: no such domain (NXDOMAIN)", what,
		         name);
		return RESOLVE_NXDOMAIN;
	}
	if (status == ARES_ETIMEOUT || status == ARES_ECANCELLED) {
		if (r->timeout_ms % 1000)
			snprintf(err, errsize,
			         "DNS query for %s %s timed out after %d ms "
			         "(resolver %s)",
			         what, name, r->timeout_ms, r->where);
		else
			snprintf(err, errsize,
			         "DNS query for %s %s timed out after %d s "
			         "(resolver %s)",
			         what, name, r->timeout_ms / 1000, r->where);
		return RESOLVE_TIMEOUT;
	}
	snprintf(err, errsize, "DNS query for %s %s failed: %s (resolver %s)",
	         what, name, failure(status), r->where);
	return RESOLVE_FAILED;
}

/* A name c-ares can be asked for and a struct mail_host can hold. */
static bool name_fits(const char *name)
{
	size_t len = strlen(name);
	return len > 0 && len < RESOLVE_NAME_MAX;
}

struct addr_query {
	int pending;
	int status;
	unsigned port;
	struct host_addr *addrs;
	size_t max, n;
};

/* The nodes of family into q->addrs, while there is room. */
static void keep_addrs(struct addr_query *q,
                       const struct ares_addrinfo_node *node, int family)
{
	for (; node && q->n < q->max; node = node->ai_next) {
		struct host_addr *a = &q->addrs[q->n];
		const void *bin;

		if (node->ai_family != family)
			continue;
		if (family == AF_INET6) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&a->sa;
			if (node->ai_addrlen < sizeof *s6)
				continue;
			memset(&a->sa, 0, sizeof a->sa);
			memcpy(s6, node->ai_addr, sizeof *s6);
			s6->sin6_port = htons((uint16_t)q->port);
			a->len = sizeof *s6;
			bin = &s6->sin6_addr;
		} else {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&a->sa;
			if (node->ai_addrlen < sizeof *s4)
				continue;
			memset(&a->sa, 0, sizeof a->sa);
			memcpy(s4, node->ai_addr, sizeof *s4);
			s4->sin_port = htons((uint16_t)q->port);
			a->len = sizeof *s4;
			bin = &s4->sin_addr;
		}
		if (!inet_ntop(family, bin, a->text, sizeof a->text))
			continue;
		q->n++;
	}
}

static void addr_answer(void *arg, int status, int timeouts,
                        struct ares_addrinfo *res)
{
	struct addr_query *q = arg;

	(void)timeouts;
	q->pending--;
	q->status = status;
	if (!res)
		return;
	/* IPv6 first, then IPv4, each in the order of the answer (the
	 * answer is not sorted: ARES_AI_NOSORT). */
	if (status == ARES_SUCCESS) {
		keep_addrs(q, res->nodes, AF_INET6);
		keep_addrs(q, res->nodes, AF_INET);
	}
	ares_freeaddrinfo(res);
}

enum resolve_status resolve_addrs(struct resolver *r, const char *host,
                                  unsigned port, struct host_addr *addrs,
                                  size_t max, size_t *n, char *err,
                                  size_t errsize)
{
	static const char what[] = "AAAA and A";
	struct ares_addrinfo_hints hints;
	struct addr_query q;

	*n = 0;
	if (!name_fits(host) || port > 65535)
		return fail(r, ARES_EBADNAME, what, host, err, errsize);
	memset(&hints, 0, sizeof hints);
	hints.ai_flags = ARES_AI_NOSORT;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;
	q.pending = 1;
	q.status = ARES_ETIMEOUT;
	q.port = port;
	q.addrs = addrs;
	q.max = max;
	q.n = 0;
	ares_getaddrinfo(r->channel, host, NULL, &hints, addr_answer, &q);
	if (!run(r, clock_ms() + r->timeout_ms, &q.pending)) {
		snprintf(err, errsize, "DNS query for %s %s: poll: %s", what,
		         host, strerror(errno));
		return RESOLVE_FAILED;
	}
	if (q.status == ARES_SUCCESS && q.n) {
		*n = q.n;
		return RESOLVE_OK;
	}
	if (q.status == ARES_SUCCESS || q.status == ARES_ENODATA) {
		snprintf(err, errsize, "DNS query for %s %s: no AAAA or A record",
		         what, host);
		return RESOLVE_NODATA;
	}
	return fail(r, q.status, what, host, err, errsize);
}

struct mx_query {
	int pending;
	int status;
	bool null_mx;  /* an MX record whose host is the root, "." */
	bool unusable; /* an MX record whose host cannot be a name */
	struct mail_host *hosts;
	size_t max, n;
};

/* One MX record into the hosts kept, in order of preference and after
 * those of the same preference; past max, the least preferred go. */
static void keep_mx(struct mx_query *q, const struct ares_mx_reply *mx)
{
	size_t at = q->n;

	/* c-ares gives the root as "" (some versions as ".") */
	if (!mx->host[0] || !strcmp(mx->host, ".")) {
		q->null_mx = true;
		return;
	}
	if (!name_fits(mx->host)) {
		q->unusable = true;  /* more than 255 bytes, escapes and all */
		return;
	}
	while (at > 0 && q->hosts[at - 1].preference > mx->priority)
		at--;
	if (at == q->max)
		return;
	if (q->n == q->max)
		q->n--;
	memmove(&q->hosts[at + 1], &q->hosts[at],
	        (q->n - at) * sizeof q->hosts[0]);
	q->hosts[at].preference = mx->priority;
	q->hosts[at].implicit = false;
	memcpy(q->hosts[at].name, mx->host, strlen(mx->host) + 1);
	q->n++;
}

/* ares_query() and ares_parse_mx_reply() are deprecated in newer c-ares
 * (for ares_query_dnsrec() and ares_dns_parse()), which 1.18 does not
 * have: the old calls stay, without the warning, until 1.18 is gone. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
static void mx_answer(void *arg, int status, int timeouts,
                      unsigned char *abuf, int alen)
{
	struct mx_query *q = arg;
	struct ares_mx_reply *list = NULL, *mx;

	(void)timeouts;
	q->pending--;
	if (status == ARES_SUCCESS)
		status = ares_parse_mx_reply(abuf, alen, &list);
	q->status = status;
	for (mx = list; mx; mx = mx->next)
		keep_mx(q, mx);
	if (list)
		ares_free_data(list);
}

static void ask_mx(struct resolver *r, const char *domain, struct mx_query *q)
{
	ares_query(r->channel, domain, DNS_CLASS_IN, DNS_TYPE_MX, mx_answer, q);
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* No MX: the domain itself is the host if it has an address (RFC 5321
 * 5.1). */
static enum resolve_status implicit_host(struct resolver *r,
                                         const char *domain,
                                         struct mail_host *hosts, size_t max,
                                         size_t *n, char *err, size_t errsize)
{
	struct host_addr addr;
	size_t got, len = strlen(domain);
	enum resolve_status s;

	s = resolve_addrs(r, domain, 0, &addr, 1, &got, err, errsize);
	if (s == RESOLVE_NODATA)
		snprintf(err, errsize,
		         "DNS query for MX %s: no MX record, and no AAAA or A "
		         "record either", domain);
	if (s != RESOLVE_OK || !max)
		return s;
	if (len > 1 && domain[len - 1] == '.')
		len--;  /* the name as a host is shown without the root */
	hosts[0].preference = 0;
	hosts[0].implicit = true;
	memcpy(hosts[0].name, domain, len);
	hosts[0].name[len] = '\0';
	*n = 1;
	return RESOLVE_OK;
}

enum resolve_status resolve_mail_hosts(struct resolver *r, const char *domain,
                                       struct mail_host *hosts, size_t max,
                                       size_t *n, char *err, size_t errsize)
{
	struct mx_query q;

	*n = 0;
	if (!name_fits(domain))
		return fail(r, ARES_EBADNAME, "MX", domain, err, errsize);
	q.pending = 1;
	q.status = ARES_ETIMEOUT;
	q.null_mx = false;
	q.unusable = false;
	q.hosts = hosts;
	q.max = max;
	q.n = 0;
	ask_mx(r, domain, &q);
	if (!run(r, clock_ms() + r->timeout_ms, &q.pending)) {
		snprintf(err, errsize, "DNS query for MX %s: poll: %s", domain,
		         strerror(errno));
		return RESOLVE_FAILED;
	}
	if (q.status == ARES_SUCCESS && q.n) {
		*n = q.n;
		return RESOLVE_OK;
	}
	if (q.status == ARES_SUCCESS && q.null_mx) {
		snprintf(err, errsize,
		         "DNS query for MX %s: null MX (\"0 .\", RFC 7505): the "
		         "domain accepts no mail", domain);
		return RESOLVE_NULL_MX;
	}
	if (q.status == ARES_SUCCESS && q.unusable) {
		snprintf(err, errsize,
		         "DNS query for MX %s: no MX record names a usable host",
		         domain);
		return RESOLVE_NODATA;
	}
	if (q.status == ARES_SUCCESS || q.status == ARES_ENODATA)
		return implicit_host(r, domain, hosts, max, n, err, errsize);
	return fail(r, q.status, "MX", domain, err, errsize);
}
