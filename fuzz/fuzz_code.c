/*
 * Code strings: smtpcode_parse() and smtpcode_format(), the category,
 * provider and group lookups by name, and smtpcode_resolve().
 *
 * Invariants: a failed parse leaves the query zeroed; a parsed query is in
 * range, its text lies inside the input, and its codes format back to the
 * input as written (modulo the case of X, the white space around and
 * between the codes, and a continuation '-'); format behaves like
 * snprintf; the name lookups answer only for their own text; resolve
 * never crashes and is consistent with the query.
 */
#include "fuzz.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* Whether s[0..n) starts with lit, ignoring the case of letters (the X of
 * a class-independent code). */
static int starts_nocase(const char *s, size_t n, const char *lit)
{
	size_t m = strlen(lit);
	if (m > n)
		return 0;
	for (size_t i = 0; i < m; i++)
		if (upper(s[i]) != upper(lit[i]))
			return 0;
	return 1;
}

/* smtpcode_format() into buffers of every size up to what it needs: the
 * same length each time, and a NUL-terminated prefix. */
static void check_format(const struct smtpcode_query *q, const char *full,
                         size_t n)
{
	char buf[32];
	for (size_t size = 0; size <= n + 1 && size <= sizeof buf; size++) {
		memset(buf, '#', sizeof buf);
		CHECK(smtpcode_format(q, buf, size) == n);
		if (size == 0) {
			CHECK(buf[0] == '#');
			continue;
		}
		CHECK(strlen(buf) == (size - 1 < n ? size - 1 : n));
		CHECK(strncmp(buf, full, size - 1) == 0);
	}
}

/* The codes are written at the start of the (trimmed) input: the basic
 * code, a separator, the enhanced code; then the text, if any. */
static void check_round_trip(const char *s, size_t len,
                             const struct smtpcode_query *q)
{
	const char *p = s, *end = s + len;
	char code[32];
	size_t n;

	while (p < end && is_space(*p))
		p++;
	while (end > p && is_space(end[-1]))
		end--;
	if (q->basic) {
		struct smtpcode_query b = *q;
		b.enhanced = false;
		n = smtpcode_format(&b, code, sizeof code);
		CHECK(n == 3);
		CHECK(starts_nocase(p, (size_t)(end - p), code));
		p += n;
		/* One '-' or blank, then any blanks. */
		if (p < end) {
			CHECK(*p == '-' || is_space(*p));
			p++;
		}
		while (p < end && is_space(*p))
			p++;
	}
	if (q->enhanced) {
		struct smtpcode_query e = *q;
		e.basic = 0;
		n = smtpcode_format(&e, code, sizeof code);
		CHECK(n < sizeof code);
		CHECK(starts_nocase(p, (size_t)(end - p), code));
		p += n;
	}
	/* What follows the codes is blanks, then the text (if any) up to
	 * the end of the trimmed input. */
	while (p < end && is_space(*p))
		p++;
	if (q->text_len) {
		CHECK(s + q->text_off == p);
		CHECK(s + q->text_off + q->text_len == end);
	} else {
		CHECK(p == end);
	}
}

/* A lookup by name answers only for the entry whose code is the input,
 * trimmed, ignoring case. */
static void check_named(const struct smtpcode_entry *e, const char *s,
                        size_t len, enum smtpcode_kind kind)
{
	const char *code;
	if (!e)
		return;
	CHECK(smtpcode_kind(e) == kind);
	code = smtpcode_text(e, SMTPCODE_CODE);
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && is_space(s[len - 1]))
		len--;
	CHECK(strlen(code) == len);
	for (size_t i = 0; i < len; i++) {
		char a = s[i], b = code[i];
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		CHECK(a == b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct smtpcode_query q, q2;
	struct smtpcode_result r;
	enum smtpcode_error err = smtpcode_parse(s, size, &q);
	const char *msg = smtpcode_strerror(err);

	CHECK(msg && *msg);
	CHECK(smtpcode_parse(s, size, &q2) == err);
	CHECK(fuzz_query_eq(&q, &q2));
	if (err != SMTPCODE_OK) {
		CHECK(err >= SMTPCODE_EEMPTY && err <= SMTPCODE_ETRAILING);
		CHECK(fuzz_query_zero(&q));
	} else {
		char code[32];
		size_t n = smtpcode_format(&q, code, sizeof code);
		CHECK(q.basic || q.enhanced);
		CHECK(fuzz_query_ok(&q));
		CHECK(q.text_off <= size && q.text_len <= size - q.text_off);
		CHECK(n > 0 && n < sizeof code && strlen(code) == n);
		check_format(&q, code, n);
		check_round_trip(s, size, &q);
		/* The canonical text parses to the same code. */
		{
			struct smtpcode_query c;
			struct smtpcode_query want = q;
			CHECK(smtpcode_parse(code, n, &c) == SMTPCODE_OK);
			if (q.enhanced)
				want.basic = 0;
			want.text_off = want.text_len = 0;
			c.text_off = 0;
			CHECK(fuzz_query_eq(&c, &want));
		}
	}

	/* resolve never fails, whatever the query; it copies the query and
	 * looks up exactly its codes. */
	smtpcode_resolve(&q, size ? s : NULL, size, NULL, &r);
	CHECK(fuzz_query_eq(&r.query, &q));
	CHECK(!r.basic || (q.basic && smtpcode_find_basic(q.basic) == r.basic));
	CHECK(!r.enhanced || (q.enhanced && smtpcode_find_enhanced(
	                          q.cls, q.subject, q.detail) == r.enhanced));
	CHECK(smtpcode_answer(&r) == (r.match.entry ? r.match.entry
	                              : q.enhanced ? r.enhanced : r.basic));

	check_named(smtpcode_find_category(s, size), s, size,
	            SMTPCODE_KIND_CATEGORY);
	check_named(smtpcode_find_provider(s, size), s, size,
	            SMTPCODE_KIND_PROVIDER);
	check_named(smtpcode_find_group(s, size), s, size, SMTPCODE_KIND_GROUP);
	return 0;
}
