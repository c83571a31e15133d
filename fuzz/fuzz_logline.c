/*
 * Mail log lines: smtpcode_log_parse(), and smtpcode_find_code() over the
 * same bytes.
 *
 * Invariants: every span lies inside the input and before its trailing
 * white space, but status and stage, which are fixed words (logvocab.h)
 * or absent, and the reply of a Postfix failed login (from data); the domain is the recipient's tail after an '@'; the
 * reply's code text lies inside the reply, the dsn code's inside the dsn
 * field; the codes are what smtpcode_parse() (or, failing it,
 * smtpcode_find_code()) reads from the reply, and the dsn code what
 * smtpcode_parse() reads from the dsn field; the return
 * value says whether a code was found; a known layout with no code still
 * names its format, no layout and no code leaves everything absent;
 * parsing twice gives the same result.  For find_code: the span starts at
 * the code and stays on its line, the code obeys the policy of
 * src/logs/logline.c (class 2, 4 or 5, subject 0-7, not glued on the left),
 * the codes parse back from the span, and the documented way to look for
 * the next code always moves forward.
 */
#include "fuzz.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int is_word(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_' || (unsigned char)c >= 0x80;
}

static int glues_left(char c)
{
	return is_word(c) || c == '.' || c == '/' || c == '@' || c == '-';
}

static int same_text(struct smtpcode_text a, struct smtpcode_text b)
{
	return a.len == b.len && (a.len == 0 || a.s == b.s);
}

static int same_line(const struct smtpcode_logline *a,
                     const struct smtpcode_logline *b)
{
	return a->format == b->format && same_text(a->recipient, b->recipient) &&
	       same_text(a->domain, b->domain) && same_text(a->relay, b->relay) &&
	       same_text(a->status, b->status) && same_text(a->stage, b->stage) &&
	       same_text(a->reply, b->reply) && same_text(a->dsn, b->dsn) &&
	       fuzz_query_eq(&a->code, &b->code) &&
	       fuzz_query_eq(&a->dsn_code, &b->dsn_code);
}

static int has_code(const struct smtpcode_query *q)
{
	return q->basic || q->enhanced;
}

/* Inside the input, and not in its trailing white space. */
static void check_span(struct smtpcode_text t, const char *s, size_t trimmed)
{
	CHECK(fuzz_span_ok(t, s, trimmed));
}

/* Whether t is one of the words[0..n) (the fixed words of logvocab.h,
 * which smtpcode.h lists for callers). */
static int is_one_of(struct smtpcode_text t, const char *const *words,
                     size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t.len == strlen(words[i]) && memcmp(t.s, words[i], t.len) == 0)
			return 1;
	return 0;
}

static int is_status_word(struct smtpcode_text t)
{
	static const char *const w[] = {"sent", "deferred", "bounced",
	                                "expired", "rejected", "warned",
	                                "discarded", "auth-failed",
	                                "complained"};
	return is_one_of(t, w, sizeof w / sizeof *w);
}

static int is_stage_word(struct smtpcode_text t)
{
	static const char *const w[] = {"connect", "helo", "starttls", "auth",
	                                "mail", "rcpt", "data", "end-of-data",
	                                "header", "body", "quit"};
	return is_one_of(t, w, sizeof w / sizeof *w);
}

/* The codes of a data dialect's reply (format SMTPCODE_LOG_FIELDS), read
 * as the fields engine reads it: its '_' as spaces (qmail), its code at
 * its start or after its words ("(#5.1.1)"). */
/* Whether text [t, t + n) gives l's codes as the library reads a reply:
 * smtpcode_parse() for one that starts with its codes, else
 * smtpcode_find_code(). */
static bool reads_as(const struct smtpcode_logline *l, const char *t,
                     size_t n)
{
	struct smtpcode_query p;
	struct smtpcode_text at;

	if (smtpcode_parse(t, n, &p) == SMTPCODE_OK &&
	    (p.enhanced || !l->code.enhanced))
		return fuzz_codes_eq(&p, &l->code);
	return smtpcode_find_code(t, n, &p, &at) && fuzz_codes_eq(&p, &l->code);
}

static void check_fields_reply(const struct smtpcode_logline *l)
{
	char copy[512];
	size_t n = l->reply.len < sizeof copy ? l->reply.len : sizeof copy;

	/* The engine reads '_' as spaces in a copy of this size: a longer
	 * reply is a dialect's that writes its spaces as spaces, where a '_'
	 * is a byte like any other (a fuzzed rblsmtpd line's); its codes are
	 * checked with the others' spans. */
	if (l->reply.len > sizeof copy)
		return;
	/* Only a dialect that writes its spaces as '_' (qmail) reads them
	 * so: the reply as it is, for the others, is read first. */
	if (reads_as(l, l->reply.s, n))
		return;
	for (size_t i = 0; i < n; i++)
		copy[i] = l->reply.s[i] == '_' ? ' ' : l->reply.s[i];
	CHECK(reads_as(l, copy, n));
}

static void check_logline(const char *s, size_t size)
{
	struct smtpcode_logline l, l2;
	size_t trimmed = size;
	bool found = smtpcode_log_parse(s, size, &l);

	while (trimmed && is_space(s[trimmed - 1]))
		trimmed--;
	CHECK(smtpcode_log_parse(s, size, &l2) == found);
	CHECK(same_line(&l, &l2));
	{
		/* The event API reads the line as the logline API does. */
		struct smtpcode_event_space space;
		const struct smtpcode_event *e =
		    smtpcode_event_parse(s, size, &space, sizeof space);
		struct smtpcode_text r = smtpcode_event_reply(e);
		CHECK(e != NULL && smtpcode_event_format(e) == l.format);
		CHECK((smtpcode_event_code(e) != NULL ||
		       smtpcode_event_dsn_code(e) != NULL) == found);
		CHECK(r.s == l.reply.s && r.len == l.reply.len);
		CHECK((smtpcode_event_dialect(e) == NULL) ==
		      (l.format == SMTPCODE_LOG_NONE));
	}

	check_span(l.recipient, s, trimmed);
	check_span(l.domain, s, trimmed);
	check_span(l.relay, s, trimmed);
	if (l.reply.len && !fuzz_inside(l.reply.s, l.reply.len, s, size)) {
		/* The one reply not in the line: the one Postfix sends for a
		 * failed login, which its line leaves out (data/logs/). */
		CHECK(l.format == SMTPCODE_LOG_SMTPD);
		CHECK(l.status.len == 11 && memcmp(l.status.s, "auth-failed", 11) == 0);
	} else {
		check_span(l.reply, s, trimmed);
	}
	check_span(l.dsn, s, trimmed);
	/* status and stage are fixed words, never spans of the line. */
	CHECK(!l.status.len || is_status_word(l.status));
	CHECK(!l.stage.len || is_stage_word(l.stage));

	if (l.domain.len) {
		CHECK(l.recipient.len > l.domain.len);
		CHECK(l.domain.s + l.domain.len == l.recipient.s + l.recipient.len);
		CHECK(l.domain.s[-1] == '@');
	}
	CHECK(found == (has_code(&l.code) || has_code(&l.dsn_code)));
	CHECK(fuzz_query_ok(&l.code) && fuzz_query_ok(&l.dsn_code));
	/* The reply is there when its code is, and holds its text; without
	 * a code it is a layout's words, in which no code is to be found. */
	CHECK(!has_code(&l.code) || l.reply.len > 0);
	if (l.reply.len && !has_code(&l.code)) {
		struct smtpcode_query f;
		struct smtpcode_text at;
		CHECK(l.format != SMTPCODE_LOG_NONE &&
		      l.format != SMTPCODE_LOG_TEXT);
		CHECK(!smtpcode_find_code(l.reply.s, l.reply.len, &f, &at));
	} else if (l.reply.len) {
		struct smtpcode_query p, f;
		struct smtpcode_text at;
		CHECK(l.code.text_off <= l.reply.len &&
		      l.code.text_len <= l.reply.len - l.code.text_off);
		/* The codes are what the library's own readers give for the
		 * reply: smtpcode_parse() for a reply that starts with its
		 * codes, else smtpcode_find_code(), which then finds them at
		 * the reply's start (as when "550 5.7.1:" reads as 550 alone
		 * to smtpcode_parse()). */
		if (l.format == SMTPCODE_LOG_FIELDS) {
			check_fields_reply(&l);
		} else if (smtpcode_parse(l.reply.s, l.reply.len, &p) == SMTPCODE_OK &&
		    (p.enhanced || !l.code.enhanced)) {
			CHECK(fuzz_query_eq(&p, &l.code));
		} else {
			CHECK(smtpcode_find_code(l.reply.s, l.reply.len, &f, &at));
			CHECK(at.s == l.reply.s && at.len == l.reply.len);
			CHECK(fuzz_query_eq(&f, &l.code));
		}
	} else {
		CHECK(fuzz_query_zero(&l.code));
	}
	/* The dsn code is the dsn field parsed, when that is a code. */
	if (l.dsn.len) {
		struct smtpcode_query d;
		if (smtpcode_parse(l.dsn.s, l.dsn.len, &d) == SMTPCODE_OK)
			CHECK(fuzz_query_eq(&d, &l.dsn_code));
		else
			CHECK(fuzz_query_zero(&l.dsn_code));
	} else {
		CHECK(fuzz_query_zero(&l.dsn_code));
	}
	if (l.format == SMTPCODE_LOG_NONE) {
		CHECK(!found);
		CHECK(!l.recipient.len && !l.domain.len && !l.relay.len &&
		      !l.status.len && !l.stage.len && !l.reply.len && !l.dsn.len);
	}
	if (l.format == SMTPCODE_LOG_TEXT)
		CHECK(found && l.code.enhanced && !l.recipient.len &&
		      !l.dsn.len);

	/* What the CLI does next. */
	{
		struct smtpcode_result r;
		smtpcode_resolve(&l.code, l.reply.s, l.reply.len, NULL, &r);
		CHECK(fuzz_query_eq(&r.query, &l.code));
	}
}

/* One code found by smtpcode_find_code() in s[0..len), which starts at
 * base[off]. */
static void check_found(const char *base, size_t size, const char *s,
                        size_t len, const struct smtpcode_query *q,
                        struct smtpcode_text at)
{
	const char *c, *line_end, *end = s + len;
	struct smtpcode_query p;

	CHECK(at.len > 0 && fuzz_inside(at.s, at.len, s, len));
	CHECK(fuzz_inside(at.s, at.len, base, size));
	CHECK(fuzz_query_ok(q) && q->enhanced);
	CHECK(q->cls == 2 || q->cls == 4 || q->cls == 5);
	CHECK(q->subject <= 7);
	CHECK(q->text_off <= at.len && q->text_len <= at.len - q->text_off);
	/* Not glued to what precedes it. */
	CHECK(at.s == s || !glues_left(at.s[-1]));
	/* The span runs to the end of the code's line, white space
	 * excluded. */
	CHECK(!memchr(at.s, '\n', at.len));
	CHECK(!is_space(at.s[at.len - 1]));
	line_end = at.s + at.len;
	while (line_end < end && *line_end != '\n') {
		CHECK(is_space(*line_end));
		line_end++;
	}
	/* The codes, as written at the start of the span, parse back. */
	CHECK(smtpcode_parse(at.s, q->text_off, &p) == SMTPCODE_OK);
	CHECK(fuzz_codes_eq(&p, q));
	CHECK(p.text_len == 0);
	/* The enhanced code, where it is written, stands alone on the right
	 * (rule 3 of the policy). */
	c = at.s;
	if (q->basic)
		c += 4;
	{
		char code[32];
		size_t n = smtpcode_format(q, code, sizeof code);
		const char *after = c + n;
		CHECK(n <= (size_t)(end - c) && memcmp(c, code, n) == 0);
		if (after < end) {
			CHECK(!is_word(*after) && *after != '@');
			if (end - after >= 2 && (*after == '.' || *after == '-' ||
			                         *after == '/'))
				CHECK(!is_word(after[1]));
			if (end - after >= 2 && *after == ':')
				CHECK(!(after[1] >= '0' && after[1] <= '9'));
		}
	}
}

static void check_find_code(const char *s, size_t size)
{
	const char *p = s;
	size_t left = size;
	struct smtpcode_query q;
	struct smtpcode_text at;

	/* Each code, then the next from where its text starts. */
	for (int i = 0; i < 10000; i++) {
		const char *next;
		if (!smtpcode_find_code(p, left, &q, &at)) {
			CHECK(fuzz_query_zero(&q) && at.len == 0 && !at.s);
			return;
		}
		check_found(s, size, p, left, &q, at);
		next = at.s + q.text_off;
		CHECK(next > p);
		left -= (size_t)(next - p);
		p = next;
	}
}

/* A record of an event stream: its status one of the fixed words, its
 * domain the recipient's tail, its code's text inside its reply. */
static void check_record(void *ctx, const struct smtpcode_logline *l,
                         const char *dialect)
{
	int known = !l->status.len || is_status_word(l->status);

	++*(int *)ctx;
	CHECK(dialect != NULL);
	CHECK(known || strcmp(dialect, "journald") == 0);
	if (l->domain.len)
		CHECK(fuzz_inside(l->domain.s, l->domain.len, l->recipient.s,
		                  l->recipient.len));
	CHECK(fuzz_query_ok(&l->code));
	if (l->code.basic || l->code.enhanced)
		CHECK(l->code.text_off + l->code.text_len <= l->reply.len);
}

/*
 * Event streams: the input as a JSON line, and as CSV lines after each
 * layout's header: the count returned is the records given, -1 giving
 * none.
 */
static void check_streams(const char *s, size_t size)
{
	static const char *const headers[] = {
		"#Fields: event-id,recipient-address,recipient-status,server-hostname",
		"type,rcpt,dsnStatus,dsnDiag,dsnMta",
		"Status,RecipientAddress,ToIP",
	};
	struct smtpcode_csv_layout layout = {0};
	int n = 0, r;

	r = smtpcode_stream_parse(s, size, NULL, check_record, &n);
	CHECK(r == (r < 0 ? -1 : n));
	for (size_t i = 0; i < sizeof headers / sizeof *headers; i++) {
		CHECK(smtpcode_csv_header(headers[i], strlen(headers[i]), &layout));
		n = 0;
		r = smtpcode_stream_parse(s, size, &layout, check_record, &n);
		CHECK(r == (r < 0 ? -1 : n));
	}
	(void)smtpcode_csv_header(s, size, &layout);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	check_logline(s, size);
	check_find_code(s, size);
	check_streams(s, size);
	return 0;
}
