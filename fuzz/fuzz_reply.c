/*
 * Reply lines: smtpcode_parse() then smtpcode_resolve() with the text, as
 * the CLI does with a pasted reply, with no provider and with one given.
 *
 * Invariants: the reply text lies inside the input; the match is
 * consistent: a marker is one of its provider's markers and occurs in
 * the input, a phrase is one of the picked entry's phrases and occurs in
 * the input (ignoring case), the picked entry belongs to the provider and
 * is an entry for the reply's code (or a range holding it, or its basic
 * code); "how" agrees with what was picked; known and the answer follow
 * from the entries; resolving twice gives the same result.  As pasted
 * text: the code found lies inside the input, with its text inside its
 * span, or nothing is found and all is zero; an entry picked without a
 * code is its provider's, picked by a phrase and a marker the input
 * holds.
 */
#include "fuzz.h"

FUZZ_ORACLE static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

FUZZ_ORACLE static int contains(const char *s, size_t n, const char *needle,
                                int nocase)
{
	size_t m = strlen(needle);
	if (m == 0 || m > n)
		return 0;
	for (size_t i = 0; i + m <= n; i++) {
		size_t k = 0;
		while (k < m &&
		       (nocase ? fold((unsigned char)s[i + k]) ==
		                     fold((unsigned char)needle[k])
		               : s[i + k] == needle[k]))
			k++;
		if (k == m)
			return 1;
	}
	return 0;
}

/* Whether text is (the same pointer as) an item of list l of e. */
static int is_item(const struct smtpcode_entry *e, enum smtpcode_list l,
                   const char *text)
{
	for (size_t i = 0; i < smtpcode_count(e, l); i++)
		if (smtpcode_item(e, l, i).text == text)
			return 1;
	return 0;
}

/* Whether provider entry e stands for q's code: the same enhanced code,
 * a range of them holding it, or (failing those) q's basic code. */
static int entry_for(const struct smtpcode_entry *e,
                     const struct smtpcode_query *q)
{
	const char *code = smtpcode_text(e, SMTPCODE_CODE);
	const char *through = smtpcode_text(e, SMTPCODE_THROUGH);
	struct smtpcode_query c, t;

	CHECK(smtpcode_parse(code, strlen(code), &c) == SMTPCODE_OK);
	if (c.enhanced) {
		if (!q->enhanced || c.cls != q->cls || c.subject != q->subject)
			return 0;
		if (c.detail == q->detail)
			return 1;
		return *through &&
		       smtpcode_parse(through, strlen(through), &t) == SMTPCODE_OK &&
		       c.detail <= q->detail && q->detail <= t.detail;
	}
	return q->basic && c.basic == q->basic;
}

static int same_result(const struct smtpcode_result *a,
                       const struct smtpcode_result *b)
{
	return fuzz_query_eq(&a->query, &b->query) && a->basic == b->basic &&
	       a->enhanced == b->enhanced && a->topic == b->topic &&
	       a->cls == b->cls && a->subject == b->subject &&
	       a->pairing == b->pairing && a->known == b->known &&
	       a->match.how == b->match.how &&
	       a->match.provider == b->match.provider &&
	       a->match.given == b->match.given &&
	       a->match.marker == b->match.marker &&
	       a->match.entry == b->match.entry &&
	       a->match.phrase == b->match.phrase &&
	       a->match.candidates == b->match.candidates;
}

static void check_result(const struct smtpcode_query *q, const char *s,
                         size_t len, const struct smtpcode_entry *given,
                         const struct smtpcode_result *r)
{
	const struct smtpcode_match *m = &r->match;

	CHECK(fuzz_query_eq(&r->query, q));
	CHECK(r->basic == (q->basic ? smtpcode_find_basic(q->basic) : NULL));
	CHECK(r->enhanced == (q->enhanced ? smtpcode_find_enhanced(
	                          q->cls, q->subject, q->detail) : NULL));
	CHECK(!r->basic || smtpcode_kind(r->basic) == SMTPCODE_KIND_BASIC);
	CHECK(!r->enhanced ||
	      smtpcode_kind(r->enhanced) == SMTPCODE_KIND_ENHANCED);
	CHECK(!r->cls || smtpcode_kind(r->cls) == SMTPCODE_KIND_CATEGORY);
	CHECK(!r->subject || smtpcode_kind(r->subject) == SMTPCODE_KIND_CATEGORY);

	/* The match. */
	CHECK(m->given == (given != NULL));
	if (given)
		CHECK(m->provider == given && !m->marker);
	if (m->provider)
		CHECK(smtpcode_kind(m->provider) == SMTPCODE_KIND_PROVIDER);
	if (m->marker) {
		CHECK(m->provider);
		CHECK(is_item(m->provider, SMTPCODE_MATCHES, m->marker));
		CHECK(contains(s, len, m->marker, 0));
	}
	switch (m->how) {
	case SMTPCODE_MATCH_NONE:
		CHECK(!m->entry && !m->phrase);
		break;
	case SMTPCODE_MATCH_ONLY:
		CHECK(m->entry && !m->phrase && m->candidates == 1);
		break;
	case SMTPCODE_MATCH_PHRASE:
		CHECK(m->entry && m->phrase && m->candidates >= 1);
		CHECK(is_item(m->entry, SMTPCODE_MATCHES, m->phrase));
		CHECK(contains(s, len, m->phrase, 1));
		break;
	case SMTPCODE_MATCH_AMBIGUOUS:
		CHECK(!m->entry && !m->phrase && m->candidates > 1);
		break;
	default:
		fuzz_fail(__FILE__, __LINE__, "a known match.how");
	}
	if (m->entry) {
		const struct smtpcode_entry *p = smtpcode_provider_of(m->entry);
		enum smtpcode_kind k = smtpcode_kind(m->entry);
		CHECK(p && p == m->provider);
		CHECK(k == SMTPCODE_KIND_BASIC || k == SMTPCODE_KIND_ENHANCED);
		CHECK(entry_for(m->entry, q));
	}
	CHECK(r->known == ((!q->basic || r->basic) &&
	                   (!q->enhanced || r->enhanced || m->entry)));
	CHECK(smtpcode_answer(r) == (m->entry ? m->entry
	                             : q->enhanced ? r->enhanced : r->basic));
	if (q->basic && q->enhanced)
		CHECK(r->pairing == smtpcode_check_pair(q->basic, q->cls,
		          r->enhanced ? r->enhanced : m->entry));
}

/* The table's providers, found once. */
static const struct smtpcode_entry *providers[256];
static size_t nproviders;

static void find_providers(void)
{
	if (nproviders)
		return;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		if (smtpcode_kind(e) == SMTPCODE_KIND_PROVIDER &&
		    nproviders < sizeof providers / sizeof *providers)
			providers[nproviders++] = e;
	}
	CHECK(nproviders > 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct smtpcode_query q;
	struct smtpcode_result r, r2;
	const struct smtpcode_entry *given;
	unsigned h = 0;

	find_providers();
	if (smtpcode_parse(s, size, &q) == SMTPCODE_OK)
		CHECK(q.text_off <= size && q.text_len <= size - q.text_off);
	/* Resolve even what did not parse: a zeroed query. */
	smtpcode_resolve(&q, size ? s : NULL, size, NULL, &r);
	check_result(&q, s, size, NULL, &r);
	smtpcode_resolve(&q, size ? s : NULL, size, NULL, &r2);
	CHECK(same_result(&r, &r2));

	/* With a provider given (--provider), one picked by the input. */
	for (size_t i = 0; i < size; i++)
		h = h * 31 + data[i];
	given = providers[h % nproviders];
	smtpcode_resolve(&q, size ? s : NULL, size, given, &r);
	check_result(&q, s, size, given, &r);

	/* As pasted text (the CLI's lookup of any text). */
	{
		struct smtpcode_query p;
		struct smtpcode_text at;
		if (smtpcode_find_pasted(size ? s : NULL, size, &p, &at)) {
			CHECK(p.basic || p.enhanced);
			CHECK(at.s >= s && at.len <= size - (size_t)(at.s - s));
			CHECK(p.text_off <= at.len && p.text_len <= at.len - p.text_off);
		} else {
			CHECK(!p.basic && !p.enhanced && !at.s && !at.len);
		}
		if (smtpcode_resolve_words(size ? s : NULL, size, NULL, &r)) {
			CHECK(r.match.how == SMTPCODE_MATCH_PHRASE && r.match.entry);
			CHECK(r.match.marker && contains(s, size, r.match.marker, 0));
			CHECK(contains(s, size, r.match.phrase, 1));
			CHECK(smtpcode_provider_of(r.match.entry) == r.match.provider);
			CHECK(smtpcode_answer(&r) == r.match.entry && r.known);
		}
		(void)smtpcode_is_message(size ? s : NULL, size);
	}

	/* Only the reply text, as the CLI passes a log's or a bounce's. */
	if (q.text_len) {
		smtpcode_resolve(&q, s + q.text_off, q.text_len, NULL, &r);
		check_result(&q, s + q.text_off, q.text_len, NULL, &r);
	}
	return 0;
}
