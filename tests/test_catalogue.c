/*
 * The bad-input catalogue: the TSV files of tests/catalogue/, read at run
 * time, one named test per row, so that a failure names its file, line
 * and id.  The columns of each file are described by the comment at its
 * top; the cell syntax shared by all of them is:
 *
 *   escapes   \\ \t \n \r \0 (NUL) \e (ESC) \s (space) \xHH (any byte),
 *             \! (a '!' that does not negate a CLI fragment),
 *             \R{N}{TEXT}: TEXT (itself escaped, no '}') repeated N times
 *   inputs    "repeat:N:TEXT" (TEXT repeated N times) and "file:PATH"
 *             (a file's bytes, PATH relative to tests/catalogue/) stand
 *             for the whole cell; a cell that is empty is the empty string
 *   expected  "-" absent / none / empty, "*" not checked
 *
 * Library rows call the library on a block of exactly the input's size
 * (no NUL after it), so ASan or valgrind see any read past the end, and
 * check invariants on top of the expected fields: every span lies inside
 * the input, a parsed code formats and parses back to itself, an error
 * leaves the query zeroed.  CLI rows run the built binary with a time
 * limit, and check on top of the status and fragments that neither
 * stdout nor stderr carries a raw control character: only \n and \t
 * pass, and SGR colour sequences on stdout under --color=always; a C1
 * control written in UTF-8 (U+0080-U+009F) counts as raw too.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "codes.h"
#include "smtpcode.h"

#ifndef CATALOGUE_DIR
#error "CATALOGUE_DIR must name tests/catalogue"
#endif

#define MAXCELLS 24
#define TIME_LIMIT 20 /* seconds per row: a hang fails the row */
#define MAXRCPT 64

/* ---- Rows ---- */

enum kind { K_CODES, K_REPLIES, K_FIND, K_PATTERNS, K_LOGS, K_MAIL, K_CLI };

static const struct {
	const char *file;
	enum kind kind;
	size_t ncells; /* exactly, or at least for K_CLI (its arguments) */
} files[] = {
	{"codes.tsv", K_CODES, 6},     {"replies.tsv", K_REPLIES, 9},
	{"find.tsv", K_FIND, 5},       {"patterns.tsv", K_PATTERNS, 4},
	{"logs.tsv", K_LOGS, 11},      {"mail.tsv", K_MAIL, 9},
	{"cli.tsv", K_CLI, 5},
	/* Hostile input by area, in the same columns as cli.tsv. */
	{"summary.tsv", K_CLI, 5},     {"bounces.tsv", K_CLI, 5},
	{"output.tsv", K_CLI, 5},      {"memory.tsv", K_CLI, 5},
};

struct row {
	enum kind kind;
	const char *file;
	unsigned line;
	char *cell[MAXCELLS];
	size_t ncells;
	char name[96];
};

static const struct row *current; /* for the time limit's message */

/* ---- Memory: everything a row allocates is freed when it ends, even
 * when a failure leaves it early (cmocka's fail_msg does not return). ---- */

static void **held;
static size_t nheld, capheld;

static void *hold(void *p)
{
	if (!p)
		fail_msg("out of memory");
	if (nheld == capheld) {
		void **more;
		capheld = capheld ? capheld * 2 : 64;
		more = realloc(held, capheld * sizeof *held);
		if (!more)
			fail_msg("out of memory");
		held = more;
	}
	held[nheld++] = p;
	return p;
}

static void release_all(void)
{
	for (size_t i = 0; i < nheld; i++)
		free(held[i]);
	nheld = 0;
}

/* ---- Cells ---- */

struct bytes {
	char *s; /* exactly len bytes (one for an empty string), no NUL after */
	size_t len;
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Append n bytes to a growing buffer. */
struct grow {
	char *s;
	size_t len, cap;
};

static void put(struct grow *g, const char *s, size_t n)
{
	if (g->len + n > g->cap) {
		size_t cap = g->cap ? g->cap : 64;
		while (cap < g->len + n)
			cap *= 2;
		g->s = realloc(g->s, cap);
		if (!g->s)
			fail_msg("out of memory");
		g->cap = cap;
	}
	memcpy(g->s + g->len, s, n);
	g->len += n;
}

static void unescape_into(struct grow *g, const char *s, size_t n);

/* \R{N}{TEXT} at s (after the backslash); returns the bytes it took. */
static size_t repeat_escape(struct grow *g, const char *s, size_t n)
{
	const char *end = s + n, *p = s + 1, *close;
	unsigned long count;
	char *stop;

	if (p >= end || *p != '{')
		fail_msg("bad \\R escape: expected \\R{N}{TEXT}");
	count = strtoul(p + 1, &stop, 10);
	if (stop >= end || stop[0] != '}' || stop + 1 >= end || stop[1] != '{')
		fail_msg("bad \\R escape: expected \\R{N}{TEXT}");
	p = stop + 2;
	close = memchr(p, '}', (size_t)(end - p));
	if (!close)
		fail_msg("bad \\R escape: no closing '}'");
	for (unsigned long i = 0; i < count; i++)
		unescape_into(g, p, (size_t)(close - p));
	return (size_t)(close + 1 - s);
}

static void unescape_into(struct grow *g, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i], b = 0;
		if (c != '\\' || i + 1 == n) {
			put(g, &c, 1);
			continue;
		}
		switch (s[++i]) {
		case '\\': b = '\\'; break;
		case 't': b = '\t'; break;
		case 'n': b = '\n'; break;
		case 'r': b = '\r'; break;
		case '0': b = '\0'; break;
		case 'e': b = '\033'; break;
		case 's': b = ' '; break;
		case '!': b = '!'; break;
		case 'x': {
			int hi = i + 2 < n ? hexval(s[i + 1]) : -1;
			int lo = i + 2 < n ? hexval(s[i + 2]) : -1;
			if (hi < 0 || lo < 0)
				fail_msg("bad \\x escape in '%s'", s);
			b = (char)(hi * 16 + lo);
			i += 2;
			break;
		}
		case 'R':
			i += repeat_escape(g, s + i, n - i) - 1;
			continue;
		default:
			fail_msg("unknown escape '\\%c'", s[i]);
		}
		put(g, &b, 1);
	}
}

static struct bytes exact(struct grow *g)
{
	struct bytes b;
	b.len = g->len;
	b.s = hold(malloc(g->len ? g->len : 1));
	if (g->len)
		memcpy(b.s, g->s, g->len);
	free(g->s);
	return b;
}

static struct bytes read_path(const char *path)
{
	struct grow g = {NULL, 0, 0};
	char chunk[65536];
	size_t n;
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		put(&g, chunk, n);
	fclose(f);
	return exact(&g);
}

/* An input cell: the repeat: and file: directives, else escaped text. */
static struct bytes input(const char *cell)
{
	struct grow g = {NULL, 0, 0};
	if (strncmp(cell, "repeat:", 7) == 0) {
		char *text;
		unsigned long n = strtoul(cell + 7, &text, 10);
		if (*text != ':')
			fail_msg("bad directive '%s' (expected repeat:N:TEXT)", cell);
		text++;
		for (unsigned long i = 0; i < n; i++)
			unescape_into(&g, text, strlen(text));
		return exact(&g);
	}
	if (strncmp(cell, "file:", 5) == 0) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", CATALOGUE_DIR, cell + 5);
		return read_path(path);
	}
	unescape_into(&g, cell, strlen(cell));
	return exact(&g);
}

/* An expected text cell, NUL-terminated too (for messages). */
static char *expected(const char *cell, size_t *len)
{
	struct grow g = {NULL, 0, 0};
	unescape_into(&g, cell, strlen(cell));
	put(&g, "", 1);
	*len = g.len - 1;
	return hold(g.s);
}

/* Text made printable for a failure message. */
static const char *show(const char *s, size_t n)
{
	static char buf[4][512];
	static int k;
	char *o = buf[k++ % 4];
	size_t j = 0;
	if (!s)
		return "(absent)";
	for (size_t i = 0; i < n && j + 8 < sizeof buf[0]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			o[j++] = (char)c;
		else
			j += (size_t)snprintf(o + j, 8, "\\x%02x", c);
	}
	if (j + 8 >= sizeof buf[0])
		j += (size_t)snprintf(o + j, 8, "...");
	o[j] = '\0';
	return o;
}

/* Whether a text span equals the expected cell ("-": absent, "*": any). */
static void check_text(const char *what, const char *cell, const char *s,
                       size_t n)
{
	size_t wlen;
	char *want;
	if (strcmp(cell, "*") == 0)
		return;
	if (strcmp(cell, "-") == 0) {
		if (n != 0)
			fail_msg("%s: want absent, got \"%s\"", what, show(s, n));
		return;
	}
	want = expected(cell, &wlen);
	if (n != wlen || memcmp(s, want, n) != 0)
		fail_msg("%s: want \"%s\", got \"%s\"", what, show(want, wlen),
		         show(s, n));
}

/* Whether [s, s + n) lies inside [base, base + size). */
static bool inside(const char *s, size_t n, const char *base, size_t size)
{
	uintptr_t a = (uintptr_t)s, b = (uintptr_t)base;
	if (n == 0)
		return true;
	return s && a >= b && a - b <= size && n <= size - (a - b);
}

static void check_inside(const char *what, struct smtpcode_text t,
                         const char *base, size_t size)
{
	if (!inside(t.s, t.len, base, size))
		fail_msg("%s lies outside the input", what);
}

/* ---- Codes ---- */

static const char *const error_names[] = {
	"OK", "EEMPTY", "ESYNTAX", "EINCOMPLETE", "ECLASS", "EDIGITS", "EZERO",
	"EBASIC", "ETRAILING",
};

static void check_codes(const char *what, const char *cell,
                        const struct smtpcode_query *q)
{
	char got[64];
	if (strcmp(cell, "*") == 0)
		return;
	if (!*codes_text(q, got, sizeof got))
		snprintf(got, sizeof got, "-");
	if (strcmp(got, cell) != 0)
		fail_msg("%s: want %s, got %s", what, cell, got);
}

static bool zeroed(const struct smtpcode_query *q)
{
	return !q->basic && !q->enhanced && !q->cls && !q->subject &&
	       !q->detail && !q->text_off && !q->text_len;
}

/* The parse of in: result, basic, enhanced, text (cells c[0..3]). */
static void check_parse(char *const *c, struct bytes in,
                        struct smtpcode_query *q)
{
	enum smtpcode_error err = smtpcode_parse(in.s, in.len, q);
	const char *got = (unsigned)err < 9 ? error_names[err] : "?";
	char basic[16], buf[32];

	if (strcmp(got, c[0]) != 0)
		fail_msg("parse: want %s, got %s (%s)", c[0], got,
		         smtpcode_strerror(err));
	if (err) {
		if (!zeroed(q))
			fail_msg("an error must leave the query zeroed");
		if (!*smtpcode_strerror(err))
			fail_msg("no message for the error");
		return;
	}
	snprintf(basic, sizeof basic, "%u", q->basic);
	if (strcmp(c[1], "*") != 0 &&
	    strcmp(c[1], q->basic ? basic : "-") != 0)
		fail_msg("basic: want %s, got %s", c[1], q->basic ? basic : "-");
	if (strcmp(c[2], "*") != 0) {
		struct smtpcode_query e = *q;
		e.basic = 0;
		smtpcode_format(&e, buf, sizeof buf);
		if (strcmp(c[2], q->enhanced ? buf : "-") != 0)
			fail_msg("enhanced: want %s, got %s", c[2],
			         q->enhanced ? buf : "-");
	}
	if (q->text_off > in.len || q->text_len > in.len - q->text_off)
		fail_msg("the reply text lies outside the input");
	check_text("text", c[3], in.s + q->text_off, q->text_len);
	/* The code formats to text that parses back to it. */
	{
		struct smtpcode_query back;
		size_t n = smtpcode_format(q, buf, sizeof buf);
		if (n == 0 || n >= sizeof buf ||
		    smtpcode_parse(buf, n, &back) != SMTPCODE_OK ||
		    back.enhanced != q->enhanced || back.cls != q->cls ||
		    back.subject != q->subject || back.detail != q->detail ||
		    (!q->enhanced && back.basic != q->basic))
			fail_msg("'%s' does not parse back to the same code", buf);
	}
}

static void run_codes(const struct row *r)
{
	struct bytes in = input(r->cell[1]);
	struct smtpcode_query q;
	check_parse(r->cell + 2, in, &q);
}

static const char *const how_names[] = {"none", "only", "phrase",
                                        "ambiguous"};

static void run_replies(const struct row *r)
{
	struct bytes in = input(r->cell[1]);
	struct smtpcode_query q;
	struct smtpcode_result res;
	const char *provider;

	check_parse(r->cell + 2, in, &q);
	if (strcmp(r->cell[2], "OK") != 0)
		return;
	smtpcode_resolve(&q, in.s, in.len, NULL, &res);
	if (strcmp(r->cell[6], "*") != 0 &&
	    strcmp(r->cell[6], res.known ? "yes" : "no") != 0)
		fail_msg("known: want %s, got %s", r->cell[6],
		         res.known ? "yes" : "no");
	provider = res.match.provider ? smtpcode_text(res.match.provider,
	                                              SMTPCODE_CODE)
	                              : "-";
	if (strcmp(r->cell[7], "*") != 0 && strcmp(r->cell[7], provider) != 0)
		fail_msg("provider: want %s, got %s", r->cell[7], provider);
	if (strcmp(r->cell[8], "*") != 0 &&
	    strcmp(r->cell[8], how_names[res.match.how]) != 0)
		fail_msg("how: want %s, got %s", r->cell[8],
		         how_names[res.match.how]);
	if (res.match.marker && !*res.match.marker)
		fail_msg("an empty marker");
	/* The answer, when there is one, is an entry with a code. */
	if (smtpcode_answer(&res) &&
	    !*smtpcode_text(smtpcode_answer(&res), SMTPCODE_CODE))
		fail_msg("the answer has no code");
}

static void run_find(const struct row *r)
{
	struct bytes in = input(r->cell[1]);
	struct smtpcode_query q;
	struct smtpcode_text at;
	bool found = smtpcode_find_code(in.s, in.len, &q, &at);
	char want[64];

	snprintf(want, sizeof want, "%s%s%s",
	         strcmp(r->cell[2], "-") ? r->cell[2] : "",
	         strcmp(r->cell[2], "-") && strcmp(r->cell[3], "-") ? " " : "",
	         strcmp(r->cell[3], "-") ? r->cell[3] : "");
	check_codes("code", *want ? want : "-", &q);
	if (found != (strcmp(r->cell[3], "-") != 0))
		fail_msg("found: want %s", found ? "none" : "a code");
	if (!found) {
		if (!zeroed(&q) || at.s || at.len)
			fail_msg("nothing found must leave *q and *at zeroed");
		return;
	}
	check_inside("the code's span", at, in.s, in.len);
	if (q.text_off > at.len || q.text_len > at.len - q.text_off)
		fail_msg("the text lies outside the code's span");
	check_text("at", r->cell[4], at.s, at.len);
}

static void run_patterns(const struct row *r)
{
	static const char *const kinds[] = {"all", "basic", "enhanced"};
	struct bytes in = input(r->cell[1]);
	struct smtpcode_pattern p;
	enum smtpcode_error err = smtpcode_pattern_parse(in.s, in.len, &p);
	char parts[64];
	size_t matches = 0;

	if (strcmp(r->cell[2], err ? "ESYNTAX" : kinds[p.kind]) != 0)
		fail_msg("want %s, got %s", r->cell[2],
		         err ? "ESYNTAX" : kinds[p.kind]);
	if (err)
		return;
	snprintf(parts, sizeof parts, "%d %d %d%s", p.part[0], p.part[1],
	         p.part[2], p.wild ? " wild" : "");
	if (strcmp(r->cell[3], "*") != 0 && strcmp(r->cell[3], parts) != 0)
		fail_msg("parts: want '%s', got '%s'", r->cell[3], parts);
	/* Matching the whole table stays within it. */
	for (size_t i = 0; i < smtpcode_table_size(); i++)
		matches += smtpcode_pattern_match(&p, smtpcode_table_entry(i));
	if (matches > smtpcode_table_size())
		fail_msg("more matches than entries");
}

/* ---- Log lines ---- */

static const char *const format_names[] = {"none", "text", "postfix",
                                           "smtpd", "exim", "sendmail"};

/* The fixed words of a record's status and stage (smtpcode.h). */
static const char *const status_words[] = {
	"sent", "deferred", "bounced", "expired", "rejected", "warned",
	"discarded", "auth-failed", NULL};
static const char *const stage_words[] = {
	"connect", "helo", "starttls", "auth", "mail", "rcpt", "data",
	"end-of-data", "header", "body", "quit", NULL};

/* Whether t is absent or one of words[], and not inside any input: a
 * static string. */
static bool fixed_word(struct smtpcode_text t, const char *const *words)
{
	if (!t.len)
		return true;
	for (; *words; words++)
		if (t.len == strlen(*words) && memcmp(t.s, *words, t.len) == 0)
			return true;
	return false;
}

static void run_logs(const struct row *r)
{
	struct bytes in = input(r->cell[1]);
	struct smtpcode_logline l;
	bool found = smtpcode_log_parse(in.s, in.len, &l);
	char *const *c = r->cell + 2;
	const struct smtpcode_text *spans[] = {&l.recipient, &l.domain, &l.relay,
	                                       &l.dsn};

	if (strcmp(c[0], "*") != 0 && strcmp(c[0], found ? "yes" : "no") != 0)
		fail_msg("found: want %s", c[0]);
	if (strcmp(c[1], "*") != 0 && strcmp(c[1], format_names[l.format]) != 0)
		fail_msg("format: want %s, got %s", c[1], format_names[l.format]);
	for (size_t i = 0; i < sizeof spans / sizeof *spans; i++)
		check_inside("a field", *spans[i], in.s, in.len);
	/* The reply is the line's, but the one Postfix sends for a failed
	 * login, which its line leaves out (data/logs/postfix.txt). */
	if (!inside(l.reply.s, l.reply.len, in.s, in.len) &&
	    !(l.format == SMTPCODE_LOG_SMTPD && l.status.len &&
	      strcmp(l.status.s, "auth-failed") == 0))
		fail_msg("the reply lies outside the input");
	/* status and stage are fixed words, never the line's bytes. */
	if (!fixed_word(l.status, status_words))
		fail_msg("status \"%s\" is not a fixed word",
		         show(l.status.s, l.status.len));
	if (!fixed_word(l.stage, stage_words))
		fail_msg("stage \"%s\" is not a fixed word",
		         show(l.stage.s, l.stage.len));
	if (l.code.text_off > l.reply.len ||
	    l.code.text_len > l.reply.len - l.code.text_off)
		fail_msg("the code's text lies outside the reply");
	/* Trailing white space is part of no field. */
	for (size_t i = 0; i < sizeof spans / sizeof *spans; i++)
		if (spans[i]->len && (spans[i]->s[spans[i]->len - 1] == '\r' ||
		                      spans[i]->s[spans[i]->len - 1] == '\n'))
			fail_msg("a field ends in a line break: \"%s\"",
			         show(spans[i]->s, spans[i]->len));
	check_text("recipient", c[2], l.recipient.s, l.recipient.len);
	check_text("domain", c[3], l.domain.s, l.domain.len);
	check_text("relay", c[4], l.relay.s, l.relay.len);
	check_text("status", c[5], l.status.s, l.status.len);
	check_text("stage", c[6], l.stage.s, l.stage.len);
	check_codes("code", c[7], &l.code);
	check_codes("dsn", c[8], &l.dsn_code);
}

/* ---- Bounce messages ---- */

static const char *const mail_kinds[] = {"other", "dsn", "bounce",
                                         "autoreply", "feedback"};

static void check_mail_spans(const struct smtpcode_mail *m, struct bytes in,
                             const char *work, size_t worksize)
{
	const struct smtpcode_text *t[] = {&m->from, &m->subject,
	                                   &m->reporting_mta};
	for (size_t i = 0; i < 3; i++)
		if (!inside(t[i]->s, t[i]->len, in.s, in.len) &&
		    !inside(t[i]->s, t[i]->len, work, worksize))
			fail_msg("a header span lies outside the message and work");
	for (size_t k = 0; k < m->nrecipients && k < m->max; k++) {
		const struct smtpcode_mail_recipient *p = &m->recipients[k];
		const struct smtpcode_text *u[] = {&p->recipient, &p->action,
		                                   &p->status, &p->diagnostic,
		                                   &p->remote_mta};
		for (size_t i = 0; i < 5; i++)
			if (!inside(u[i]->s, u[i]->len, in.s, in.len) &&
			    !inside(u[i]->s, u[i]->len, work, worksize))
				fail_msg("recipient %zu: a span lies outside the "
				         "message and work", k + 1);
		if (p->diagnostic_code.text_off > p->diagnostic.len ||
		    p->diagnostic_code.text_len >
		        p->diagnostic.len - p->diagnostic_code.text_off)
			fail_msg("recipient %zu: the diagnostic's text lies outside "
			         "it", k + 1);
	}
}

static void run_mail(const struct row *r)
{
	static struct smtpcode_mail_recipient rcpt[MAXRCPT];
	struct bytes in = input(r->cell[1]);
	char *const *c = r->cell + 2;
	struct smtpcode_mail m;
	size_t worksize;
	char *work, count[32];
	int ret;

	if (strcmp(c[0], "len") == 0)
		worksize = in.len;
	else
		worksize = (size_t)strtoul(c[0], NULL, 10);
	work = worksize ? hold(malloc(worksize)) : NULL;
	memset(&m, 0, sizeof m);
	m.recipients = rcpt;
	m.max = MAXRCPT;
	ret = smtpcode_mail_parse(in.len ? in.s : NULL, in.len, work, worksize,
	                          &m);
	if (strcmp(c[1], "*") != 0 && atoi(c[1]) != ret)
		fail_msg("returned %d, want %s", ret, c[1]);
	if ((unsigned)m.kind >= 5)
		fail_msg("kind out of range");
	if (strcmp(c[2], "*") != 0 && strcmp(c[2], mail_kinds[m.kind]) != 0)
		fail_msg("kind: want %s, got %s", c[2], mail_kinds[m.kind]);
	snprintf(count, sizeof count, "%zu", m.nrecipients);
	if (strcmp(c[3], "*") != 0 && strcmp(c[3], count) != 0)
		fail_msg("recipients: want %s, got %s", c[3], count);
	if (m.kind == SMTPCODE_MAIL_OTHER && m.nrecipients)
		fail_msg("a message that is not a bounce has recipients");
	check_mail_spans(&m, in, work, worksize);
	if (m.nrecipients) {
		check_text("recipient", c[4], rcpt[0].recipient.s,
		           rcpt[0].recipient.len);
		check_codes("status", c[5], &rcpt[0].status_code);
		check_codes("diagnostic", c[6], &rcpt[0].diagnostic_code);
	} else if (strcmp(c[4], "-") || strcmp(c[5], "-") || strcmp(c[6], "-")) {
		if (strcmp(c[4], "*") || strcmp(c[5], "*") || strcmp(c[6], "*"))
			fail_msg("no recipient to check");
	}
	/* Without a work buffer: no crash, spans in the message only. */
	memset(&m, 0, sizeof m);
	m.recipients = rcpt;
	m.max = 1;
	ret = smtpcode_mail_parse(in.len ? in.s : NULL, in.len, NULL, 0, &m);
	if (ret != 0 && ret != -1)
		fail_msg("returned %d without a work buffer", ret);
	check_mail_spans(&m, in, NULL, 0);
}

/* ---- The command line ---- */

struct output {
	int status;
	struct bytes out, err;
};

static struct bytes slurp_fd(int fd)
{
	struct grow g = {NULL, 0, 0};
	char chunk[65536];
	ssize_t n;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		put(&g, chunk, (size_t)n);
	close(fd);
	put(&g, "", 1); /* a NUL after it, for strstr on fragments */
	g.len--;
	return exact(&g);
}

static int temp_fd(void)
{
	FILE *f = tmpfile();
	int fd;
	if (!f)
		fail_msg("tmpfile: %s", strerror(errno));
	fd = dup(fileno(f));
	fclose(f);
	if (fd < 0)
		fail_msg("dup: %s", strerror(errno));
	return fd;
}

/* Run argv with stdin from in (NULL: /dev/null), under the time limit. */
static void run_cli(char *const *argv, const struct bytes *in,
                    struct output *o)
{
	int ofd = temp_fd(), efd = temp_fd(), ifd, wstatus;
	pid_t pid;

	if (in) {
		ifd = temp_fd();
		if (in->len && write(ifd, in->s, in->len) != (ssize_t)in->len)
			fail_msg("cannot write stdin");
		lseek(ifd, 0, SEEK_SET);
	} else {
		ifd = open("/dev/null", O_RDONLY);
	}
	pid = fork();
	if (pid < 0)
		fail_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		alarm(TIME_LIMIT); /* survives exec: a hang dies of SIGALRM */
		dup2(ifd, 0);
		dup2(ofd, 1);
		dup2(efd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	close(ifd);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	o->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
	                               : 128 + WTERMSIG(wstatus);
	o->out = slurp_fd(ofd);
	o->err = slurp_fd(efd);
}

/* A raw control character: anything below 0x20 but \n and \t, and DEL;
 * with colour, ESC only as "ESC [ digits/';' m". */
static const char *raw_control(struct bytes b, bool color)
{
	for (size_t i = 0; i < b.len; i++) {
		unsigned char c = (unsigned char)b.s[i];
		if (c == '\033' && color && i + 1 < b.len && b.s[i + 1] == '[') {
			size_t k = i + 2;
			while (k < b.len && ((b.s[k] >= '0' && b.s[k] <= '9') ||
			                     b.s[k] == ';'))
				k++;
			if (k < b.len && b.s[k] == 'm') {
				i = k;
				continue;
			}
		}
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			return b.s + i;
		/* A C1 control (U+0080-U+009F) in UTF-8: 0xc2 0x80-0x9f. */
		if (c == 0xc2 && i + 1 < b.len &&
		    (unsigned char)b.s[i + 1] >= 0x80 &&
		    (unsigned char)b.s[i + 1] <= 0x9f)
			return b.s + i;
	}
	return NULL;
}

static char *arg_of(const char *cell)
{
	static const struct {
		const char *token, *value;
	} dirs[] = {
		{"@CAT@", CATALOGUE_DIR},
		{"@MAIL@", MAIL_DIR},
		{"@LOGS@", LOGS_DIR},
	};
	struct grow g = {NULL, 0, 0};
	if (strcmp(cell, "''") == 0)
		return hold(calloc(1, 1));
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		size_t n = strlen(dirs[i].token);
		if (strncmp(cell, dirs[i].token, n) == 0) {
			put(&g, dirs[i].value, strlen(dirs[i].value));
			cell += n;
			break;
		}
	}
	unescape_into(&g, cell, strlen(cell));
	put(&g, "", 1);
	return hold(g.s);
}

/* The first needle[0..n) in hay[0..len), or NULL (memmem is not POSIX). */
static const char *find_bytes(const char *hay, size_t len, const char *needle,
                              size_t n)
{
	if (n == 0)
		return hay;
	for (size_t i = 0; i + n <= len; i++)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

/* A fragment cell: "-" empty, "*" anything, "!TEXT" must not hold TEXT. */
static void check_fragment(const char *what, const char *cell,
                           struct bytes got)
{
	size_t n;
	char *want;
	bool negate = cell[0] == '!';
	if (strcmp(cell, "*") == 0)
		return;
	if (strcmp(cell, "-") == 0) {
		if (got.len)
			fail_msg("%s should be empty; it was:\n%s", what,
			         show(got.s, got.len));
		return;
	}
	want = expected(cell + negate, &n);
	if (!negate && !find_bytes(got.s, got.len, want, n))
		fail_msg("%s lacks \"%s\"; it was:\n%s", what, show(want, n),
		         show(got.s, got.len));
	if (negate && find_bytes(got.s, got.len, want, n))
		fail_msg("%s holds \"%s\"; it was:\n%s", what, show(want, n),
		         show(got.s, got.len));
}

static void run_cli_row(const struct row *r)
{
	char *argv[MAXCELLS + 2] = {SMTPCODE_BIN};
	struct bytes in = {NULL, 0};
	struct output o;
	const char *bad;
	bool color = false;
	size_t n = 1;

	for (size_t i = 5; i < r->ncells; i++) {
		argv[n] = arg_of(r->cell[i]);
		color |= strcmp(argv[n], "--color=always") == 0;
		n++;
	}
	argv[n] = NULL;
	if (strcmp(r->cell[4], "-") != 0)
		in = input(r->cell[4]);
	run_cli(argv, strcmp(r->cell[4], "-") ? &in : NULL, &o);
	if (o.status >= 128)
		fail_msg("killed by signal %d%s; stderr:\n%s", o.status - 128,
		         o.status - 128 == SIGALRM ? " (a hang: the time limit)" : "",
		         show(o.err.s, o.err.len));
	if (o.status != atoi(r->cell[1]))
		fail_msg("exit status %d, want %s; stderr:\n%s", o.status,
		         r->cell[1], show(o.err.s, o.err.len));
	check_fragment("stdout", r->cell[2], o.out);
	check_fragment("stderr", r->cell[3], o.err);
	if ((bad = raw_control(o.out, color)) != NULL)
		fail_msg("raw control character 0x%02x on stdout at byte %zu: "
		         "\"%s\"", (unsigned char)*bad, (size_t)(bad - o.out.s),
		         show(bad > o.out.s + 20 ? bad - 20 : o.out.s, 40));
	if ((bad = raw_control(o.err, false)) != NULL)
		fail_msg("raw control character 0x%02x on stderr: \"%s\"",
		         (unsigned char)*bad, show(o.err.s, o.err.len));
	if (o.err.len && o.err.s[o.err.len - 1] != '\n')
		fail_msg("stderr does not end in a newline");
}

/* ---- Running the rows ---- */

static void on_alarm(int sig)
{
	static const char msg[] = "\ntime limit: a hang in row ";
	(void)sig;
	if (write(2, msg, sizeof msg - 1) < 0 ||
	    (current && write(2, current->name, strlen(current->name)) < 0) ||
	    write(2, "\n", 1) < 0)
		_exit(3);
	_exit(3);
}

static void test_row(void **state)
{
	const struct row *r = *state;
	release_all(); /* what a failed row before this one left */
	current = r;
	alarm(TIME_LIMIT);
	switch (r->kind) {
	case K_CODES: run_codes(r); break;
	case K_REPLIES: run_replies(r); break;
	case K_FIND: run_find(r); break;
	case K_PATTERNS: run_patterns(r); break;
	case K_LOGS: run_logs(r); break;
	case K_MAIL: run_mail(r); break;
	case K_CLI: run_cli_row(r); break;
	}
	alarm(0);
	current = NULL;
	release_all();
}

/* A row whose columns do not fit its file fails by itself. */
static void test_malformed(void **state)
{
	const struct row *r = *state;
	fail_msg("%s:%u: %zu columns; this file's rows have %s%zu", r->file,
	         r->line, r->ncells, r->kind == K_CLI ? "at least " : "",
	         files[r->kind].ncells);
}

static struct row *rows;
static size_t nrows, caprows;

static void read_rows(size_t fi)
{
	char path[1024], *line = NULL;
	size_t cap = 0;
	ssize_t got;
	unsigned lineno = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", CATALOGUE_DIR, files[fi].file);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "catalogue: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while ((got = getline(&line, &cap, f)) >= 0) {
		struct row *r;
		char *p;
		lineno++;
		if (got && line[got - 1] == '\n')
			line[--got] = '\0';
		if (got == 0 || line[0] == '#')
			continue;
		if (nrows == caprows) {
			caprows = caprows ? caprows * 2 : 256;
			rows = realloc(rows, caprows * sizeof *rows);
			if (!rows)
				exit(1);
		}
		r = &rows[nrows++];
		memset(r, 0, sizeof *r);
		r->kind = files[fi].kind;
		r->file = files[fi].file;
		r->line = lineno;
		for (p = line; r->ncells < MAXCELLS;) {
			char *tab = strchr(p, '\t');
			size_t n = tab ? (size_t)(tab - p) : strlen(p);
			r->cell[r->ncells] = malloc(n + 1);
			if (!r->cell[r->ncells])
				exit(1);
			memcpy(r->cell[r->ncells], p, n);
			r->cell[r->ncells++][n] = '\0';
			if (!tab)
				break;
			p = tab + 1;
		}
		snprintf(r->name, sizeof r->name, "%s:%u %s", r->file, lineno,
		         r->cell[0]);
	}
	free(line);
	fclose(f);
}

int main(int argc, char **argv)
{
	struct CMUnitTest *tests;
	struct sigaction sa;
	size_t n = 0;
	int status;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	for (size_t i = 0; i < sizeof files / sizeof *files; i++)
		if (argc < 2 || strcmp(argv[1], files[i].file) == 0)
			read_rows(i);
	tests = calloc(nrows ? nrows : 1, sizeof *tests);
	if (!tests)
		return 1;
	for (size_t i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		size_t want = files[r->kind].ncells;
		bool ok = r->kind == K_CLI ? r->ncells >= want : r->ncells == want;
		tests[n].name = r->name;
		tests[n].test_func = ok ? test_row : test_malformed;
		tests[n].initial_state = r;
		n++;
	}
	status = _cmocka_run_group_tests("catalogue", tests, n, NULL, NULL);
	release_all();
	free(held);
	for (size_t i = 0; i < nrows; i++)
		for (size_t k = 0; k < rows[i].ncells; k++)
			free(rows[i].cell[k]);
	free(rows);
	free(tests);
	return status;
}
