/*
 * Where a domain's mail goes (RFC 5321 5.1): its MX records in order of
 * preference, else the domain itself as the only host; and a host's
 * addresses, IPv6 and IPv4.  Through c-ares, so that a resolver address
 * can be given (--resolver) and every query has a time-out.
 */
#ifndef SMTPCODE_PROBE_RESOLVE_H
#define SMTPCODE_PROBE_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <netinet/in.h>

#define RESOLVE_HOSTS_MAX 16  /* MX hosts kept, the most preferred first */
#define RESOLVE_ADDRS_MAX 8   /* addresses kept per host */
#define RESOLVE_NAME_MAX 256

enum resolve_status {
	RESOLVE_OK,
	RESOLVE_NULL_MX,   /* "MX 0 ." (RFC 7505): the domain takes no mail */
	RESOLVE_NXDOMAIN,  /* the name does not exist */
	RESOLVE_NODATA,    /* no MX and no address (for a host: no address) */
	RESOLVE_TIMEOUT,   /* the resolver did not answer in time */
	RESOLVE_FAILED     /* any other failure: the message says which */
};

struct mail_host {
	unsigned preference;
	bool implicit;     /* no MX: the domain itself, as RFC 5321 5.1 says */
	char name[RESOLVE_NAME_MAX];
};

struct host_addr {
	struct sockaddr_storage sa; /* with the port set */
	socklen_t len;
	char text[64];              /* "192.0.2.1", "2001:db8::1" */
};

struct resolver;

/* A resolver asking server ("IP", "IP:PORT", "IPv6", "[IP]:PORT"; port 53
 * when none is given) and nothing else (no /etc/hosts), or the system's
 * configured servers when server is NULL; never a search list: a name is
 * absolute.  Every query waits at most timeout_ms.  NULL with a message
 * in err on failure. */
struct resolver *resolver_open(const char *server, int timeout_ms,
                               char *err, size_t errsize);
void resolver_close(struct resolver *r);

/* The domain's mail hosts, the most preferred first (equal preferences
 * in the order the answer gave them): *n of them into hosts[0..max).
 * Unless RESOLVE_OK, err says why and names the query ("DNS query for MX
 * example.org: ..."); it holds names as given or as the DNS sent them,
 * to be escaped when shown. */
enum resolve_status resolve_mail_hosts(struct resolver *r, const char *domain,
                                       struct mail_host *hosts, size_t max,
                                       size_t *n, char *err, size_t errsize);
/* The host's addresses (AAAA, then A), port set: *n into addrs[0..max). */
enum resolve_status resolve_addrs(struct resolver *r, const char *host,
                                  unsigned port, struct host_addr *addrs,
                                  size_t max, size_t *n, char *err,
                                  size_t errsize);

#endif
