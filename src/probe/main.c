/*
 * smtpcode-probe (smtpcode --probe): ask a domain's mail servers, or one
 * server, what they answer to a mail, and explain every reply.  This file
 * reads the command line, finds the servers (MX order, RFC 5321 5.1),
 * tries them one at a time and turns the outcome into the exit status.
 */
#include <arpa/inet.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "output.h"
#include "smtpcode.h"
#include "report.h"
#include "resolve.h"
#include "session.h"
#include "tls.h"
#include "watch.h"

enum { EXIT_ACCEPTED = 0, EXIT_FAILED = 1, EXIT_ERROR = 2,
       EXIT_UNREACHABLE = 3 };

/* SMTP's port (RFC 5321 4.5.4.2), and message submission over implicit
 * TLS (RFC 8314 7.3). */
enum { PORT_SMTP = 25, PORT_SUBMISSIONS = 465 };

static const char help_text[] =
    "usage: smtpcode --probe [OPTIONS] DOMAIN | HOST[:PORT] | [IP]:PORT | IP\n"
    "Ask a domain's mail servers (MX order) or one server what they answer,\n"
    "step by step, and explain each reply.  Never sends DATA.\n"
    "  --rcpt ADDRESS        also send RCPT TO:<ADDRESS>\n"
    "  --from ADDRESS        MAIL FROM:<ADDRESS> (default: the null sender <>)\n"
    "  --helo NAME           the name given in EHLO (default: this host's)\n"
    "  --port PORT           the MX hosts' port (default 25)\n"
    "  --resolver IP[:PORT]  the DNS server to ask (default: the system's)\n"
    "  --timeout SECONDS     one time-out for every step (default: RFC 5321's,\n"
    "                        5 min a reply, 30 s to connect, 10 s for DNS)\n"
    "  --no-tls              do not use STARTTLS even when offered\n"
    "  --tls-on-connect      TLS from the start, before the banner (the\n"
    "                        default on port 465)\n"
    "  --watch SECONDS       repeat until the server accepts (60 at least,\n"
    "                        but for loopback addresses); show what changed\n"
    "  --attempts N          with --watch: give up after N attempts\n"
    "  -j, --json            one JSON object per step, then a \"result\" one\n"
    "  -h, --help            this help;  -V, --version  the version\n"
    "Exit status: 0 the server accepted every step; 1 it answered a step\n"
    "with a failure code (4xx, 5xx); 2 usage or local error; 3 no server\n"
    "could be reached (DNS, refused, timed out, TLS handshake failed,\n"
    "closed or bad reply).  --watch ended by SIGINT or SIGTERM: that signal\n"
    "(130 or 143 in the shell).  See smtpcode(1), PROBING A SERVER.\n";

struct probe {
	struct session_opts so;
	const char *target;
	const char *resolver_addr;
	unsigned port;          /* of the target, or of the MX hosts */
	bool domain;            /* resolved through MX */
	bool literal;           /* an IP address: no DNS at all */
	bool loopback_only;     /* --watch under 60 s: refuse other hosts */
	char host[RESOLVE_NAME_MAX];
	struct resolver *resolver;
};

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fputs("smtpcode-probe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'smtpcode --probe --help' for more information.\n", stderr);
	return EXIT_ERROR;
}

/* Whether s may go into a command line: no controls, spaces, '<', '>'
 * (which would end the address or start another command). */
static bool safe_word(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f || *s == '<' ||
		    *s == '>')
			return false;
	return true;
}

/* A number from min to max, all of s. */
static bool number(const char *s, unsigned long min, unsigned long max,
                   unsigned long *v)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	*v = strtoul(s, &end, 10);
	return *end == '\0' && *v >= min && *v <= max;
}

/* Seconds, whole or with a fraction ("0.5"), above 0 and at most a day:
 * in milliseconds. */
static bool seconds(const char *s, long long *ms)
{
	unsigned long whole, frac = 0, scale = 1000;
	const char *dot = strchr(s, '.');
	char buf[16];

	if (strlen(s) >= sizeof buf || (dot && dot == s))
		return false;
	memcpy(buf, s, strlen(s) + 1);
	if (dot) {
		buf[dot - s] = '\0';
		for (const char *p = dot + 1; *p && scale > 1; p++) {
			if (*p < '0' || *p > '9')
				return false;
			scale /= 10;
			frac += (unsigned long)(*p - '0') * scale;
		}
		if (dot[1] == '\0' || strlen(dot + 1) > 3)
			return false;
	}
	if (!number(buf, 0, 86400, &whole))
		return false;
	*ms = (long long)(whole * 1000 + frac);
	return *ms > 0 && *ms <= 86400000;
}

/* The text of an argument for a message, escaped. */
static void complain(const char *opt, const char *arg, const char *why)
{
	fprintf(stderr, "smtpcode-probe: %s '", opt);
	out_escaped(stderr, arg, strlen(arg));
	fprintf(stderr, "' %s\n", why);
}

/* The target: a literal address, HOST:PORT, or a domain. */
static int read_target(struct probe *p, const char *t)
{
	const char *colon = strrchr(t, ':');
	unsigned long port;
	struct in6_addr a6;
	struct in_addr a4;
	size_t n = strlen(t);

	if (t[0] == '[') {
		const char *close = strchr(t, ']');
		if (!close || (close[1] && close[1] != ':'))
			return usage_error("'%s' is not [IP] or [IP]:PORT", t);
		n = (size_t)(close - t - 1);
		colon = close[1] ? close + 1 : NULL;
		t++;
	} else if (colon && strchr(t, ':') != colon) {
		colon = NULL; /* a bare IPv6 address */
	} else if (colon) {
		n = (size_t)(colon - t);
	}
	if (n == 0 || n >= sizeof p->host)
		return usage_error("'%s' is not a domain, HOST:PORT or IP", t);
	memcpy(p->host, t, n);
	p->host[n] = '\0';
	if (!safe_word(p->host)) {
		complain("target", p->host, "is not a host name or address");
		return EXIT_ERROR;
	}
	if (colon) {
		if (!number(colon + 1, 1, 65535, &port)) {
			complain("port", colon + 1, "is not a port (1 to 65535)");
			return EXIT_ERROR;
		}
		p->port = (unsigned)port;
	}
	p->literal = inet_pton(AF_INET, p->host, &a4) == 1 ||
	             inet_pton(AF_INET6, p->host, &a6) == 1;
	p->domain = !p->literal && !colon;
	return -1;
}

enum { OPT_RCPT = 256, OPT_FROM, OPT_HELO, OPT_PORT, OPT_RESOLVER,
       OPT_TIMEOUT, OPT_NO_TLS, OPT_TLS_ON_CONNECT, OPT_WATCH, OPT_ATTEMPTS };

static const struct {
	const char *name;
	int id;
	bool arg;
} options[] = {
	{"--rcpt", OPT_RCPT, true}, {"--from", OPT_FROM, true},
	{"--helo", OPT_HELO, true}, {"--port", OPT_PORT, true},
	{"--resolver", OPT_RESOLVER, true}, {"--timeout", OPT_TIMEOUT, true},
	{"--no-tls", OPT_NO_TLS, false},
	{"--tls-on-connect", OPT_TLS_ON_CONNECT, false},
	{"--watch", OPT_WATCH, true},
	{"--attempts", OPT_ATTEMPTS, true}, {"--json", 'j', false},
	{"-j", 'j', false}, {"--help", 'h', false}, {"-h", 'h', false},
	{"--version", 'V', false}, {"-V", 'V', false},
};

struct cmdline {
	long long timeout_ms, watch_ms;
	unsigned long attempts;
	bool json, watch;
};

/* One option (argv[*i], its value after it or after '='): -1 to go on,
 * else the exit status to end with now. */
static int read_option(struct probe *p, struct cmdline *c, char **argv,
                       int argc, int *i)
{
	const char *a = argv[*i], *eq = strchr(a, '='), *v = "";
	size_t n = eq && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
	unsigned long num;
	size_t k;

	for (k = 0; k < sizeof options / sizeof *options; k++)
		if (strlen(options[k].name) == n &&
		    strncmp(options[k].name, a, n) == 0)
			break;
	if (k == sizeof options / sizeof *options)
		return usage_error("unknown option '%s'", a);
	if (options[k].arg) {
		if (eq && a[1] == '-')
			v = eq + 1;
		else if (*i + 1 < argc)
			v = argv[++*i];
		else
			return usage_error("%s needs a value", options[k].name);
	} else if (n != strlen(a)) {
		return usage_error("%s takes no value", options[k].name);
	}
	switch (options[k].id) {
	case OPT_RCPT:
	case OPT_FROM:
	case OPT_HELO:
		if (!safe_word(v) || (!*v && options[k].id != OPT_FROM)) {
			complain(options[k].name, v, "holds a space, a control "
			         "character, '<' or '>', or nothing: refused");
			return EXIT_ERROR;
		}
		/* RFC 5321 4.5.3.1.3: a path is at most 256 octets, its
		 * brackets included; a domain 255 (4.5.3.1.2). */
		if (strlen(v) > 254) {
			complain(options[k].name, v, "is longer than the 254 "
			         "bytes SMTP allows: refused");
			return EXIT_ERROR;
		}
		if (options[k].id == OPT_RCPT)
			p->so.rcpt = v;
		else if (options[k].id == OPT_FROM)
			p->so.from = v;
		else
			p->so.helo = v;
		break;
	case OPT_PORT:
		if (!number(v, 1, 65535, &num)) {
			complain("--port", v, "is not a port (1 to 65535)");
			return EXIT_ERROR;
		}
		p->port = (unsigned)num;
		break;
	case OPT_RESOLVER: p->resolver_addr = v; break;
	case OPT_TIMEOUT:
		if (!seconds(v, &c->timeout_ms)) {
			complain("--timeout", v, "is not a number of seconds above 0");
			return EXIT_ERROR;
		}
		break;
	case OPT_NO_TLS: p->so.no_tls = true; break;
	case OPT_TLS_ON_CONNECT: p->so.tls_on_connect = true; break;
	case OPT_WATCH:
		if (!number(v, 1, 86400, &num)) {
			complain("--watch", v, "is not a number of seconds (1 to "
			         "86400)");
			return EXIT_ERROR;
		}
		c->watch = true;
		c->watch_ms = (long long)num * 1000;
		break;
	case OPT_ATTEMPTS:
		if (!number(v, 1, 1000000, &c->attempts)) {
			complain("--attempts", v, "is not a number of attempts");
			return EXIT_ERROR;
		}
		break;
	case 'j': c->json = true; break;
	case 'h':
		out_str(help_text);
		return EXIT_ACCEPTED;
	case 'V':
		out_printf("smtpcode-probe %s\n", SMTPCODE_VERSION);
		return EXIT_ACCEPTED;
	}
	return -1;
}

static int read_command_line(struct probe *p, struct cmdline *c, int argc,
                             char **argv)
{
	int status;
	const char *target = NULL;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			if ((status = read_option(p, c, argv, argc, &i)) >= 0)
				return status;
		} else if (target) {
			return usage_error("one target only, not '%s' too", argv[i]);
		} else {
			target = argv[i];
		}
	}
	if (!target)
		return usage_error("no target: give a DOMAIN, HOST[:PORT] or IP");
	if (c->attempts && !c->watch)
		return usage_error("--attempts goes with --watch");
	if (p->so.tls_on_connect && p->so.no_tls)
		return usage_error("--tls-on-connect and --no-tls: give one");
	p->target = target;
	if ((status = read_target(p, target)) >= 0)
		return status;
	/* RFC 8314 3.3: port 465 takes TLS at once, and a probe waiting
	 * for a plain banner there would only time out. */
	if (p->port == PORT_SUBMISSIONS && !p->so.no_tls)
		p->so.tls_on_connect = true;
	return -1;
}

/* ---- An attempt ---- */

/* What the attempt resolved before connecting anywhere: at most
 * RESOLVE_HOSTS_MAX hosts of RESOLVE_ADDRS_MAX addresses. */
struct plan {
	struct mail_host hosts[RESOLVE_HOSTS_MAX];
	size_t nhosts;
	struct host_addr addrs[RESOLVE_HOSTS_MAX][RESOLVE_ADDRS_MAX];
	size_t naddrs[RESOLVE_HOSTS_MAX];
	enum resolve_status status[RESOLVE_HOSTS_MAX];
	char err[RESOLVE_HOSTS_MAX][160];
};

static const char *resolve_message(enum resolve_status st, const char *err)
{
	switch (st) {
	case RESOLVE_NULL_MX:
		return "null MX: the domain takes no mail (RFC 7505)";
	case RESOLVE_NXDOMAIN: return "no such domain (NXDOMAIN)";
	case RESOLVE_NODATA: return "no MX and no address";
	case RESOLVE_TIMEOUT: return "DNS timed out";
	default: return err;
	}
}

/* An IP literal as the only address. */
static bool literal_addr(const char *ip, unsigned port, struct host_addr *a)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)(void *)&a->sa;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)(void *)&a->sa;

	memset(a, 0, sizeof *a);
	if (inet_pton(AF_INET, ip, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((unsigned short)port);
		a->len = sizeof *s4;
		return inet_ntop(AF_INET, &s4->sin_addr, a->text, sizeof a->text);
	}
	if (inet_pton(AF_INET6, ip, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((unsigned short)port);
		a->len = sizeof *s6;
		return inet_ntop(AF_INET6, &s6->sin6_addr, a->text, sizeof a->text);
	}
	return false;
}

static bool loopback(const struct host_addr *a)
{
	if (a->sa.ss_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)&a->sa;
		return (ntohl(s->sin_addr.s_addr) >> 24) == 127;
	}
	const struct sockaddr_in6 *s6 = (const void *)&a->sa;
	return IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr);
}

/* The hosts and their addresses; an MX or address step for each lookup
 * that a person needs to see.  The exit status when nothing is left to
 * try, else -1. */
static int make_plan(struct probe *p, struct plan *pl, struct report *rp,
                     step_fn *each, void *ctx, struct attempt *a)
{
	struct step s;
	char err[160] = "";
	enum resolve_status st = RESOLVE_OK;

	memset(&s, 0, sizeof s);
	s.host = p->host;
	s.port = p->port;
	pl->nhosts = 1;
	snprintf(pl->hosts[0].name, sizeof pl->hosts[0].name, "%s", p->host);
	pl->hosts[0].implicit = true;
	if (p->literal) {
		literal_addr(p->host, p->port, &pl->addrs[0][0]);
		pl->naddrs[0] = 1;
		pl->status[0] = RESOLVE_OK;
		return -1;
	}
	if (p->domain) {
		long long t0 = clock_ms();
		st = resolve_mail_hosts(p->resolver, p->host, pl->hosts,
		                        RESOLVE_HOSTS_MAX, &pl->nhosts, err,
		                        sizeof err);
		s.id = STEP_MX;
		s.ms = clock_ms() - t0;
		s.error = st == RESOLVE_OK ? NULL : resolve_message(st, err);
		s.hosts = pl->hosts;
		s.nhosts = st == RESOLVE_OK ? pl->nhosts : 0;
		each(&s, ctx);
		if (st != RESOLVE_OK) {
			a->outcome = OUTCOME_UNREACHABLE;
			report_sentence(rp, a->outcome, NULL, s.error, "", NULL,
			                a->sentence, sizeof a->sentence);
			return EXIT_UNREACHABLE;
		}
	}
	for (size_t h = 0; h < pl->nhosts; h++) {
		long long t0 = clock_ms();
		pl->status[h] = resolve_addrs(p->resolver, pl->hosts[h].name,
		                              p->port, pl->addrs[h],
		                              RESOLVE_ADDRS_MAX, &pl->naddrs[h],
		                              pl->err[h], sizeof pl->err[h]);
		if (pl->status[h] != RESOLVE_OK) {
			pl->naddrs[h] = 0;
			s.id = STEP_ADDRESS;
			s.host = pl->hosts[h].name;
			s.ms = clock_ms() - t0;
			s.hosts = NULL;
			s.nhosts = 0;
			s.error = pl->status[h] == RESOLVE_NODATA ? "no address"
			        : resolve_message(pl->status[h], pl->err[h]);
			each(&s, ctx);
		}
	}
	return -1;
}

/* The sentence's host: its name, or its address when it is one. */
static int attempt(void *ctx, struct report *rp, step_fn *each,
                   void *each_ctx, struct attempt *a)
{
	static struct plan pl; /* 20 KB: not on the stack */
	struct probe *p = ctx;
	struct session_result res, kept;
	const char *kept_host = NULL, *what;
	bool tried = false, have_failure = false;
	int status;

	memset(a, 0, sizeof *a);
	memset(&kept, 0, sizeof kept);
	if ((status = make_plan(p, &pl, rp, each, each_ctx, a)) >= 0)
		return status;
	if (p->loopback_only)
		for (size_t h = 0; h < pl.nhosts; h++)
			for (size_t i = 0; i < pl.naddrs[h]; i++)
				if (!loopback(&pl.addrs[h][i])) {
					fprintf(stderr, "smtpcode-probe: --watch under 60 "
					        "seconds is for loopback addresses only, "
					        "and %s is not one\n", pl.addrs[h][i].text);
					return EXIT_ERROR;
				}
	for (size_t h = 0; h < pl.nhosts; h++) {
		for (size_t i = 0; i < pl.naddrs[h]; i++) {
			session_run(&p->so, pl.hosts[h].name, &pl.addrs[h][i], p->port,
			            each, each_ctx, &res);
			tried = true;
			/* A failure reply is what a server said: kept over a later
			 * server's silence. */
			if (res.past_banner || res.outcome != OUTCOME_UNREACHABLE ||
			    !have_failure) {
				kept = res;
				kept_host = pl.hosts[h].name;
				have_failure |= res.outcome == OUTCOME_FAILED;
			}
			if (res.past_banner)
				goto done;
		}
	}
done:
	if (!tried) {
		kept.outcome = OUTCOME_UNREACHABLE;
		snprintf(kept.error, sizeof kept.error, "%s",
		         pl.nhosts == 1 ? resolve_message(pl.status[0], pl.err[0])
		                        : "no MX host has an address");
	}
	a->outcome = kept.outcome;
	what = kept.outcome == OUTCOME_FAILED ? kept.command : kept.error;
	/* Silence at connect on port 25 is most often the probing side's
	 * network, which drops outgoing port 25 as many ISPs and clouds do:
	 * said, since the server cannot be told from it. */
	if (kept.outcome == OUTCOME_UNREACHABLE && kept.step == STEP_CONNECT &&
	    kept.timed_out && p->port == PORT_SMTP)
		what = "timed out at connect (many networks block outgoing "
		       "port 25: if every server times out, try from a mail "
		       "server)";
	report_sentence(rp, a->outcome, kept_host, what, p->so.from, p->so.rcpt,
	                a->sentence, sizeof a->sentence);
	a->status = a->outcome == OUTCOME_ACCEPTED ? EXIT_ACCEPTED
	          : a->outcome == OUTCOME_FAILED ? EXIT_FAILED : EXIT_UNREACHABLE;
	return a->status;
}

static void print_step(const struct step *s, void *ctx)
{
	report_step(ctx, s);
}

/* Everything written reaches its file, or the exit status says so. */
static int finish(int status)
{
	switch (out_finish()) {
	case 0: return status;
	case 1: perror("smtpcode-probe: write error"); break;
	default: fputs("smtpcode-probe: out of memory\n", stderr); break;
	}
	return EXIT_ERROR;
}

/* This machine's name for EHLO, or "localhost" when it has none that can
 * be sent. */
static const char *own_name(char *buf, size_t size)
{
	if (gethostname(buf, size) != 0 || !buf[0] || !safe_word(buf))
		return "localhost";
	buf[size - 1] = '\0';
	return buf;
}

int main(int argc, char **argv)
{
	static struct probe p;
	struct cmdline c = {0, 0, 0, false, false};
	struct report rp;
	struct attempt a;
	static char name[256]; /* p.so.helo may point here */
	char err[256];
	int status;

	signal(SIGPIPE, SIG_DFL);
	p.so.from = "";
	p.port = PORT_SMTP;
	p.so.t = (struct timeouts){30000, 300000, 300000, 10000};
	if ((status = read_command_line(&p, &c, argc, argv)) >= 0)
		return finish(status);
	if (!p.so.helo)
		p.so.helo = own_name(name, sizeof name);
	if (c.timeout_ms)
		p.so.t = (struct timeouts){(int)c.timeout_ms, (int)c.timeout_ms,
		                           (int)c.timeout_ms, (int)c.timeout_ms};
	p.loopback_only = c.watch && c.watch_ms < 60000;
	if (!p.literal) {
		p.resolver = resolver_open(p.resolver_addr, p.so.t.dns, err,
		                           sizeof err);
		if (!p.resolver) {
			complain("--resolver", p.resolver_addr ? p.resolver_addr : "",
			         err);
			return EXIT_ERROR;
		}
	} else if (p.resolver_addr) {
		/* Not used, but still checked: a typo should not pass. */
		p.resolver = resolver_open(p.resolver_addr, p.so.t.dns, err,
		                           sizeof err);
		if (!p.resolver) {
			complain("--resolver", p.resolver_addr, err);
			return EXIT_ERROR;
		}
	}
	memset(&rp, 0, sizeof rp);
	rp.json = c.json;
	if (c.watch) {
		status = watch_run(c.watch_ms, (unsigned)c.attempts, &rp, attempt,
		                   &p);
	} else {
		status = attempt(&p, &rp, print_step, &rp, &a);
		if (status != EXIT_ERROR)
			report_result(&rp, a.outcome, a.sentence, status, -1);
	}
	if (p.resolver)
		resolver_close(p.resolver);
	tls_cleanup();
	return finish(status);
}
