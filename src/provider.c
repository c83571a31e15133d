/*
 * Providers' dialects: recognising the provider of a reply by its markers,
 * and picking that provider's entry for the code by the reply's phrases.
 * Bounded searches over the caller's text; no allocation.
 */
#include <stdint.h>
#include <string.h>

#include "table.h"

const struct smtpcode_entry *smtpcode_find_provider(const char *s, size_t len)
{
	return table_find_named(SMTPCODE_KIND_PROVIDER, s, len);
}

const struct smtpcode_entry *smtpcode_find_group(const char *s, size_t len)
{
	return table_find_named(SMTPCODE_KIND_GROUP, s, len);
}

const struct smtpcode_entry *smtpcode_provider_of(const struct smtpcode_entry *e)
{
	if (!e->provider)
		return NULL;
	return &table_entries[table_provider_first + e->provider - 1];
}

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

/* Whether needle occurs in s[0..n), ignoring ASCII case. */
static int contains_nocase(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle);
	const unsigned char *h = (const unsigned char *)s;
	const unsigned char *p = (const unsigned char *)needle;
	if (m == 0 || m > n)
		return 0;
	for (size_t i = 0; i + m <= n; i++) {
		size_t k = 0;
		if (fold(h[i]) != fold(p[0]))
			continue;
		while (k < m && fold(h[i + k]) == fold(p[k]))
			k++;
		if (k == m)
			return 1;
	}
	return 0;
}

/*
 * The providers whose markers are in s[0..n): bit p - 1 of the result for
 * provider p, and markers[p - 1] the first of its markers found.  One pass
 * over s, looking up each byte pair in the generated index, rather than a
 * search per marker: this runs on every line of a log.
 */
static uint64_t recognise(const char *s, size_t n, const char *markers[64])
{
	const unsigned char *u = (const unsigned char *)s;
	uint64_t hits = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		unsigned b = (unsigned)u[i] << 8 | u[i + 1];
		size_t lo = 0, hi = table_nmarkers;
		if (!(table_bigrams[b / 8] >> (b % 8) & 1))
			continue;
		while (lo < hi) { /* the first marker of this pair */
			size_t mid = lo + (hi - lo) / 2;
			if (table_markers[mid].bigram < b)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < table_nmarkers && table_markers[lo].bigram == b; lo++) {
			const struct table_marker *m = &table_markers[lo];
			const char *text = table_pool + m->text;
			size_t len = strlen(text);
			uint64_t bit = (uint64_t)1 << (m->provider - 1);
			if (hits & bit || len > n - i || memcmp(s + i, text, len))
				continue;
			hits |= bit;
			markers[m->provider - 1] = text;
		}
	}
	return hits;
}

#define MAX_CANDIDATES 64

static int belongs(const struct smtpcode_entry *e,
                   const struct smtpcode_entry *provider)
{
	return !provider || smtpcode_provider_of(e) == provider;
}

/* Whether e covers a range of codes (5.7.606 through 5.7.649) holding q. */
static int in_range(const struct smtpcode_entry *e,
                    const struct smtpcode_query *q)
{
	const char *through = table_pool + e->text[SMTPCODE_THROUGH];
	const char *code = table_pool + e->text[SMTPCODE_CODE];
	struct smtpcode_query lo, hi;
	return *through && q->enhanced &&
	       !smtpcode_parse(code, strlen(code), &lo) &&
	       !smtpcode_parse(through, strlen(through), &hi) &&
	       lo.cls == q->cls && lo.subject == q->subject &&
	       lo.detail <= q->detail && q->detail <= hi.detail;
}

/* Provider p's entries (anyone's, p NULL) for q's code, or for a range
 * holding it; failing both, for its basic code.  Returns how many. */
static size_t candidates(const struct smtpcode_query *q,
                         const struct smtpcode_entry *p,
                         const struct smtpcode_entry **out)
{
	size_t first, n = smtpcode_code_range(q, &first), k = 0;
	for (size_t i = first; i < first + n && k < MAX_CANDIDATES; i++)
		if (table_entries[i].provider && belongs(&table_entries[i], p))
			out[k++] = &table_entries[i];
	for (size_t i = 0; k == 0 && q->enhanced && i < table_nranges; i++) {
		const struct smtpcode_entry *e = &table_entries[table_ranges[i]];
		if (belongs(e, p) && in_range(e, q))
			out[k++] = e;
	}
	if (k == 0 && q->enhanced && q->basic) {
		struct smtpcode_query b = *q;
		b.enhanced = false;
		return candidates(&b, p, out);
	}
	return k;
}

static int has_standard(const struct smtpcode_query *q)
{
	return q->enhanced ? smtpcode_find_enhanced(q->cls, q->subject,
	                                            q->detail) != NULL
	                   : smtpcode_find_basic(q->basic) != NULL;
}

/* Picks provider p's entry (any provider's when p is NULL) for q. */
static void pick(const struct smtpcode_query *q, const char *input,
                 size_t len, const struct smtpcode_entry *p,
                 struct smtpcode_match *m)
{
	const struct smtpcode_entry *cand[MAX_CANDIDATES];
	size_t n = candidates(q, p, cand), best_len = 0;

	m->provider = p;
	m->candidates = n;
	for (size_t i = 0; i < n; i++) {
		const struct smtpcode_entry *e = cand[i];
		for (size_t k = 0; k < smtpcode_count(e, SMTPCODE_MATCHES); k++) {
			const char *phrase = smtpcode_item(e, SMTPCODE_MATCHES, k).text;
			size_t plen = strlen(phrase);
			if (plen > best_len && contains_nocase(input, len, phrase)) {
				best_len = plen;
				m->entry = e;
				m->phrase = phrase;
			}
		}
	}
	if (m->entry)
		m->how = SMTPCODE_MATCH_PHRASE;
	else if (n == 1)
		m->how = SMTPCODE_MATCH_ONLY, m->entry = cand[0];
	else if (m->candidates > 1 && (q->text_len || p))
		m->how = SMTPCODE_MATCH_AMBIGUOUS;
	if (m->entry && !m->provider)
		m->provider = smtpcode_provider_of(m->entry);
}

void table_match(const struct smtpcode_query *q, const char *input,
                 size_t len, const struct smtpcode_entry *provider,
                 struct smtpcode_match *m)
{
	struct smtpcode_match first;
	const char *markers[64];
	uint64_t hits;
	int recognised = 0;

	memset(m, 0, sizeof *m);
	if (provider) {
		pick(q, input, len, provider, m);
		m->given = true;
		return;
	}
	/* Every provider whose marker is in the reply, in data order: the
	 * first whose phrases pick an entry, or else the first of them.  (An
	 * MTA's bounce quoting Gmail's reply names both.) */
	hits = len ? recognise(input, len, markers) : 0;
	for (unsigned p = 1; p <= 64 && hits >> (p - 1); p++) {
		struct smtpcode_match t;
		if (!(hits >> (p - 1) & 1))
			continue;
		memset(&t, 0, sizeof t);
		pick(q, input, len, &table_entries[table_provider_first + p - 1], &t);
		t.marker = markers[p - 1];
		if (t.how == SMTPCODE_MATCH_PHRASE) {
			*m = t;
			return;
		}
		if (!recognised++)
			first = t;
	}
	if (recognised) {
		*m = first;
		return;
	}
	/* Phrases are a provider's words: without knowing the provider, a
	 * standard code keeps its standard meaning ("Insufficient system
	 * storage" is RFC 5321's text, not one MTA's).  A code only
	 * providers define is looked for among all of them. */
	if (!has_standard(q))
		pick(q, input, len, NULL, m);
}
