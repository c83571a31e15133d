/*
 * The CLI's JSON output (src/cli/render_json.c, src/util/utf8.c): json_plain()
 * on the input as a string, render_json() of the input looked up as a
 * code or reply (with no provider, and with one given), of a category
 * row, and of a log line's record, whose spans are the raw input.
 *
 * Invariants: every output is strict JSON (RFC 8259) in valid UTF-8,
 * checked by a validator of its own below: one value (a string for
 * json_plain, an object per result) and then exactly one "\n" for an
 * object; no raw control characters, escapes well formed, no lone
 * surrogates, no duplicate keys; a lookup's keys are those of fields.h
 * in their order.  A string decodes back to the input, with each byte of
 * invalid UTF-8 as U+FFFD.
 *
 * The output functions of src/cli/output.c are replaced here by ones that
 * collect the output in memory.
 */
#include <stdarg.h>

#include "fields.h"
#include "fuzz.h"
#include "output.h"
#include "render.h"

/* ---- Output, into memory ---- */

static char *obuf;
static size_t olen, ocap;

void out_write(const char *s, size_t n)
{
	if (olen + n + 1 > ocap) {
		ocap = 2 * (olen + n + 1);
		obuf = realloc(obuf, ocap);
		if (!obuf)
			abort();
	}
	memcpy(obuf + olen, s, n);
	olen += n;
	obuf[olen] = '\0';
}

/* Records reserve room and commit what they used (output.h). */
_Thread_local struct out_capture *out_capturing;

char *out_reserve_more(size_t n)
{
	if (olen + n + 1 > ocap) {
		ocap = 2 * (olen + n + 1);
		obuf = realloc(obuf, ocap);
		if (!obuf)
			abort();
	}
	return obuf + olen;
}

void out_commit_more(size_t n)
{
	olen += n;
	obuf[olen] = '\0';
}

void out_printf(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	CHECK(n >= 0 && (size_t)n < sizeof buf);
	out_write(buf, (size_t)n);
}

/* ---- UTF-8, independently of src/util/utf8.c (Unicode, table 3-7) ---- */

static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c == 0xe0)
		len = 3, lo = 0xa0;
	else if (c == 0xed)
		len = 3, hi = 0x9f;
	else if (c >= 0xe1 && c <= 0xef)
		len = 3;
	else if (c == 0xf0)
		len = 4, lo = 0x90;
	else if (c == 0xf4)
		len = 4, hi = 0x8f;
	else if (c >= 0xf1 && c <= 0xf3)
		len = 4;
	else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static int valid_utf8(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq(u + i, n - i);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

/* ---- A strict JSON validator ---- */

struct parser {
	const char *p, *end;
	/* The decoded text of the last string, for the round trip. */
	char *str;
	size_t slen, scap;
	/* The top-level object's keys, in order. */
	char keys[64][32];
	size_t nkeys;
	int depth;
};

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
	                           *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static void put(struct parser *ps, const char *s, size_t n)
{
	if (ps->slen + n > ps->scap) {
		ps->scap = 2 * (ps->slen + n);
		ps->str = realloc(ps->str, ps->scap);
		if (!ps->str)
			abort();
	}
	memcpy(ps->str + ps->slen, s, n);
	ps->slen += n;
}

static int hex4(const char *p, const char *end, unsigned *v)
{
	*v = 0;
	if (end - p < 4)
		return 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
		           : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
		           : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;
		if (d == 16)
			return 0;
		*v = *v << 4 | d;
	}
	return 1;
}

static void put_code_point(struct parser *ps, unsigned cp)
{
	char b[4];
	size_t n;
	if (cp < 0x80) {
		b[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	put(ps, b, n);
}

static void string(struct parser *ps)
{
	ps->slen = 0;
	CHECK(ps->p < ps->end && *ps->p == '"');
	ps->p++;
	for (;;) {
		unsigned char c;
		CHECK(ps->p < ps->end); /* unterminated string */
		c = (unsigned char)*ps->p;
		if (c == '"') {
			ps->p++;
			return;
		}
		CHECK(c >= 0x20); /* raw control character */
		if (c != '\\') {
			size_t k = utf8_seq((const unsigned char *)ps->p,
			                    (size_t)(ps->end - ps->p));
			CHECK(k > 0);
			put(ps, ps->p, k);
			ps->p += k;
			continue;
		}
		CHECK(ps->end - ps->p >= 2);
		c = (unsigned char)ps->p[1];
		ps->p += 2;
		switch (c) {
		case '"': put(ps, "\"", 1); break;
		case '\\': put(ps, "\\", 1); break;
		case '/': put(ps, "/", 1); break;
		case 'b': put(ps, "\b", 1); break;
		case 'f': put(ps, "\f", 1); break;
		case 'n': put(ps, "\n", 1); break;
		case 'r': put(ps, "\r", 1); break;
		case 't': put(ps, "\t", 1); break;
		case 'u': {
			unsigned v, w;
			CHECK(hex4(ps->p, ps->end, &v));
			ps->p += 4;
			CHECK(v < 0xdc00 || v > 0xdfff); /* lone low surrogate */
			if (v >= 0xd800 && v <= 0xdbff) {
				CHECK(ps->end - ps->p >= 6 && ps->p[0] == '\\' &&
				      ps->p[1] == 'u');
				CHECK(hex4(ps->p + 2, ps->end, &w));
				CHECK(w >= 0xdc00 && w <= 0xdfff);
				ps->p += 6;
				v = 0x10000 + ((v - 0xd800) << 10) + (w - 0xdc00);
			}
			put_code_point(ps, v);
			break;
		}
		default:
			fuzz_fail(__FILE__, __LINE__, "a valid escape");
		}
	}
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static void number(struct parser *ps)
{
	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	CHECK(ps->p < ps->end && is_digit(*ps->p));
	if (*ps->p == '0')
		ps->p++;
	else
		while (ps->p < ps->end && is_digit(*ps->p))
			ps->p++;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		CHECK(ps->p < ps->end && is_digit(*ps->p));
		while (ps->p < ps->end && is_digit(*ps->p))
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		CHECK(ps->p < ps->end && is_digit(*ps->p));
		while (ps->p < ps->end && is_digit(*ps->p))
			ps->p++;
	}
}

static void literal(struct parser *ps, const char *lit)
{
	size_t n = strlen(lit);
	CHECK((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, lit, n) == 0);
	ps->p += n;
}

static void value(struct parser *ps);

static void object(struct parser *ps)
{
	char keys[64][64]; /* this object's, to refuse duplicates */
	size_t nkeys = 0;
	int top = ps->depth == 1;

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return;
	}
	for (;;) {
		skip_ws(ps);
		string(ps);
		CHECK(ps->slen < 64 && !memchr(ps->str, '\0', ps->slen));
		CHECK(nkeys < 64);
		memcpy(keys[nkeys], ps->str, ps->slen);
		keys[nkeys][ps->slen] = '\0';
		for (size_t i = 0; i < nkeys; i++)
			CHECK(strcmp(keys[i], keys[nkeys]) != 0); /* duplicate */
		if (top && ps->nkeys < 64 && ps->slen < 32) {
			memcpy(ps->keys[ps->nkeys], ps->str, ps->slen);
			ps->keys[ps->nkeys++][ps->slen] = '\0';
		}
		nkeys++;
		skip_ws(ps);
		CHECK(ps->p < ps->end && *ps->p == ':');
		ps->p++;
		value(ps);
		skip_ws(ps);
		CHECK(ps->p < ps->end);
		if (*ps->p == '}') {
			ps->p++;
			return;
		}
		CHECK(*ps->p == ',');
		ps->p++;
	}
}

static void array(struct parser *ps)
{
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return;
	}
	for (;;) {
		value(ps);
		skip_ws(ps);
		CHECK(ps->p < ps->end);
		if (*ps->p == ']') {
			ps->p++;
			return;
		}
		CHECK(*ps->p == ',');
		ps->p++;
	}
}

static void value(struct parser *ps)
{
	skip_ws(ps);
	CHECK(ps->p < ps->end);
	CHECK(++ps->depth < 16);
	switch (*ps->p) {
	case '{': object(ps); break;
	case '[': array(ps); break;
	case '"': string(ps); break;
	case 't': literal(ps, "true"); break;
	case 'f': literal(ps, "false"); break;
	case 'n': literal(ps, "null"); break;
	default: number(ps); break;
	}
	ps->depth--;
}

/* The output holds one JSON value, then exactly `after` ("\n" or ""). */
static void validate(struct parser *ps, const char *after)
{
	memset(ps, 0, sizeof *ps);
	CHECK(valid_utf8(obuf, olen));
	ps->p = obuf;
	ps->end = obuf + olen;
	value(ps);
	CHECK((size_t)(ps->end - ps->p) == strlen(after) &&
	      memcmp(ps->p, after, strlen(after)) == 0);
}

static void output_reset(void)
{
	olen = 0;
	if (obuf)
		obuf[0] = '\0';
}

/* ---- The targets ---- */

/* json_plain(s): a string that decodes to s, invalid UTF-8 replaced. */
static void check_plain(const char *s)
{
	struct parser ps;
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), j = 0;

	output_reset();
	json_plain(s);
	validate(&ps, "");
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq(u + i, n - i);
		if (k == 0) {
			CHECK(ps.slen - j >= 3 &&
			      memcmp(ps.str + j, "\xef\xbf\xbd", 3) == 0);
			j += 3;
			i++;
			continue;
		}
		CHECK(ps.slen - j >= k && memcmp(ps.str + j, s + i, k) == 0);
		j += k;
		i += k;
	}
	CHECK(j == ps.slen);
	free(ps.str);
}

/* A lookup's object: every key of fields.h, in order. */
static void check_row(const struct row *w)
{
	struct parser ps;
	output_reset();
	render_json(w);
	validate(&ps, "\n");
	CHECK(ps.nkeys == NFIELDS);
	for (int f = 0; f < NFIELDS; f++)
		CHECK(strcmp(ps.keys[f], field_name((enum field_id)f)) == 0);
	free(ps.str);
}

static void check_lookup(const char *s, const struct smtpcode_entry *given)
{
	struct smtpcode_query q;
	struct smtpcode_evidence ev = {.reply = {s, strlen(s)}, .reply_code = &q,
	                               .provider = given};
	struct smtpcode_judgement j;
	struct row w;
	size_t len = strlen(s);

	if (smtpcode_parse(s, len, &q) == SMTPCODE_OK) {
		smtpcode_judge(&ev, &j);
		row_of_judgement(&w, &j, s);
		check_row(&w);
	} else if (!given) {
		const struct smtpcode_entry *e = smtpcode_find_category(s, len);
		if (e) {
			row_of_category(&w, e, s);
			check_row(&w);
		}
	}
}

/* A log line's record, built as src/cli/logs.c builds one: the origin
 * from the line's spans, the verdict from its reply's or dsn's code. */
static void check_log_record(const char *line, size_t len)
{
	struct smtpcode_logline l;
	struct smtpcode_evidence ev;
	struct smtpcode_judgement j;
	struct origin o;
	struct row w;
	struct parser ps;

	if (!smtpcode_log_parse(line, len, &l))
		return;
	memset(&o, 0, sizeof o);
	o.file = "fuzz.log";
	o.line = 1;
	o.index = -1;
	o.recipient = l.recipient;
	o.domain = l.domain;
	o.relay = l.relay;
	o.stage = l.stage;
	o.status = l.status;
	o.seen_basic = seen_code(l.reply, &l.code, 0);
	o.seen_enhanced = seen_code(l.reply, &l.code, 1);
	o.dsn = l.dsn;
	o.reply = l.reply;
	o.report = smtpcode_report_of(l.status.s, l.status.len);
	CHECK(fuzz_span_ok(o.seen_basic, line, len));
	CHECK(fuzz_span_ok(o.seen_enhanced, line, len));
	memset(&ev, 0, sizeof ev);
	ev.reply = l.reply;
	ev.reply_code = &l.code;
	ev.status = &l.dsn_code;
	ev.stage = l.stage;
	ev.report = o.report;
	smtpcode_judge(&ev, &j);
	row_of_judgement(&w, &j, NULL);
	o.verdict_from = w.verdict_from;
	w.origin = &o;
	output_reset();
	render_json(&w);
	validate(&ps, "\n");
	free(ps.str);
}

/* The provider at position pick among the table's providers. */
static const struct smtpcode_entry *some_provider(unsigned pick)
{
	static const struct smtpcode_entry *p[256];
	static size_t n;
	static bool done;
	for (size_t i = 0; !done && i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		if (smtpcode_kind(e) == SMTPCODE_KIND_PROVIDER && n < 256)
			p[n++] = e;
	}
	done = true;
	CHECK(n > 0);
	return p[pick % n];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strdup(data, size);
	unsigned pick = 0;

	for (size_t i = 0; i < size; i++)
		pick = pick * 31 + data[i];
	check_plain(s);
	check_lookup(s, NULL);
	check_lookup(s, some_provider(pick));
	check_log_record((const char *)data, size);
	free(s);
	return 0;
}
