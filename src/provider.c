/*
 * Providers' dialects: recognising the provider of a reply by its markers,
 * and picking that provider's entry for the code by the reply's phrases.
 * Bounded searches over the caller's text; no allocation.
 */
#include <stdint.h>
#include <string.h>

#include "scan.h"
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

/*
 * A reply being matched, and its copy in ASCII lower case: made once per
 * table_match, when a pick first has candidates, so that each phrase is
 * then found with scan_byte and scan_same rather than folding every byte for
 * every phrase.  Longer replies (rare) are searched folding as they go
 * instead, as the copy lives on the stack.
 */
#define FOLD_MAX 1024

struct reply {
	const char *s;
	size_t len;
	int folded; /* 1: low holds s in lower case; 0: not yet; -1: too long */
	unsigned char low[FOLD_MAX];
};

/*
 * The eight bytes of x in ASCII lower case: with bit 7 of each byte set,
 * subtracting 'A' and 'Z' + 1 leaves it set in those at least 'A' and in
 * those above 'Z', never borrowing from the next byte (so the byte order
 * does not matter); 0x20 goes to the bytes that differ and were ASCII.
 */
static inline uint64_t fold_word(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
	uint64_t y = x | high;
	return x | (((y - ones * 'A') ^ (y - ones * ('Z' + 1))) & ~x & high) >> 2;
}

/* d[0..n) = s[0..n) in ASCII lower case, eight bytes at a time; the last
 * eight are done again, overlapping, rather than one by one. */
static void fold_copy(unsigned char *d, const unsigned char *s, size_t n)
{
	uint64_t x;
	size_t i;
	if (n < 8) {
		for (i = 0; i < n; i++)
			d[i] = fold(s[i]);
		return;
	}
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, s + i, 8);
		x = fold_word(x);
		memcpy(d + i, &x, 8);
	}
	if (i < n) {
		memcpy(&x, s + n - 8, 8);
		x = fold_word(x);
		memcpy(d + n - 8, &x, 8);
	}
}

/* Whether needle[0..m) occurs in s[0..n), ignoring ASCII case. */
static int contains_nocase(const char *s, size_t n, const char *needle,
                           size_t m)
{
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

/* Whether phrase ph, no longer than the reply, is in it, ignoring case;
 * r->folded is set. */
static int has_phrase(struct reply *r, const struct table_phrase *ph)
{
	const unsigned char *p = (const unsigned char *)table_pool + ph->folded;
	const unsigned char *at, *last;
	size_t m = ph->len, rare = ph->rare;

	if (r->folded < 0)
		return contains_nocase(r->s, r->len, table_pool +
		                       table_items[ph - table_phrases].text, m);
	/* Where the phrase's rarest byte would be, were it at 0, and at the
	 * last place it fits. */
	at = r->low + rare;
	last = r->low + (r->len - m) + rare;
	while ((at = (const unsigned char *)scan_byte(
	            (const char *)at, (const char *)last + 1, (char)p[rare])) != NULL) {
		if (scan_same((const char *)at - rare, (const char *)p, m))
			return 1;
		if (at++ == last)
			break;
	}
	return 0;
}

/* Adds the markers that start at u[i] to hits and markers: those, if
 * any, whose first three bytes hash to h, as u's there do (see table.h).
 * A provider already found keeps its first marker. */
static uint64_t markers_at(const unsigned char *u, size_t n, size_t i,
                           uint32_t h, uint64_t hits, const char *markers[64])
{
	for (size_t k = table_trigrams[h]; k < table_trigrams[h + 1]; k++) {
		const struct table_marker *m = &table_markers[k];
		const char *text = table_pool + m->text;
		uint64_t bit = (uint64_t)1 << (m->provider - 1);
		if (hits & bit || m->len > n - i ||
		    !scan_same((const char *)u + i, text, m->len))
			continue;
		hits |= bit;
		markers[m->provider - 1] = text;
	}
	return hits;
}

/*
 * The providers whose markers are in s[0..n): bit p - 1 of the result for
 * provider p, and markers[p - 1] the first of its markers found (the
 * earliest in the reply, then in the data).  One pass over s for all
 * markers, looking up the byte pairs at even offsets (see table.h), as
 * this runs on every distinct reply of a log.  The tables' addresses are
 * taken once, out of the loop.
 */
static uint64_t recognise(const char *s, size_t n, const char *markers[64])
{
	const unsigned char *u = (const unsigned char *)s;
	const uint8_t *pairs = table_pairs, *trigrams = table_trigrams;
	uint64_t hits = 0;
	for (size_t j = 0; j + 1 < n; j += 2) {
		unsigned bits = TABLE_PAIR_BITS(pairs, TABLE_PAIR(u[j], u[j + 1]));
		uint32_t h;
		if (!bits)
			continue;
		/* A marker may start at j - 1 (bit 1; it has 3 bytes, the last
		 * at j + 1), and at j (bit 0) if 3 bytes are left. */
		if (bits & 2 && j > 0) {
			h = TABLE_TRIGRAM(u[j - 1], u[j], u[j + 1]);
			if (trigrams[h] != trigrams[h + 1])
				hits = markers_at(u, n, j - 1, h, hits, markers);
		}
		if (bits & 1 && j + 2 < n) {
			h = TABLE_TRIGRAM(u[j], u[j + 1], u[j + 2]);
			if (trigrams[h] != trigrams[h + 1])
				hits = markers_at(u, n, j, h, hits, markers);
		}
	}
	return hits;
}

#define MAX_CANDIDATES 64

/* The ordinal of provider p, which its entries hold in e->provider; 0 when
 * p is not a provider, which has no entries then. */
static unsigned ordinal(const struct smtpcode_entry *p)
{
	if (p->key >> KEY_KIND_SHIFT != SMTPCODE_KIND_PROVIDER)
		return 0;
	return (unsigned)(p - &table_entries[table_provider_first]) + 1;
}

/* Whether e is provider po's (anyone's, po 0). */
static int belongs(const struct smtpcode_entry *e, unsigned po)
{
	return !po || e->provider == po;
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

/*
 * Provider po's entries (anyone's, po 0) for q's code, or the first entry
 * for a range of codes holding it; failing both, those for its basic
 * code.  They are a run of the table, at *run; returns how many, at most
 * MAX_CANDIDATES.  A code's entries are together, its standard entry
 * first, then each provider's in turn (the table is sorted by key, then
 * provider).
 */
static size_t candidates(const struct smtpcode_query *q, unsigned po,
                         const struct smtpcode_entry **run)
{
	for (bool enhanced = q->enhanced;; enhanced = false) {
		uint32_t key;
		size_t i, n = 0;
		if (enhanced)
			key = KEY_ENHANCED(q->cls, q->subject, q->detail);
		else if (q->basic)
			key = KEY_BASIC(q->basic);
		else
			return 0;
		if (po) { /* a search of po's codes, halving without branches */
			const struct table_group *g =
			    &table_groups[table_provider_groups[po - 1]];
			size_t k = (size_t)table_provider_groups[po] -
			           table_provider_groups[po - 1];
			for (; k > 1; k -= k / 2) /* g: the last key <= key */
				g += g[k / 2].key <= key ? k / 2 : 0;
			if (k && g->key == key) {
				*run = &table_entries[g->first];
				n = g->count;
			}
		} else {
			i = table_first(key);
			if (i < table_size && !table_entries[i].provider)
				i++;
			*run = &table_entries[i];
			while (i + n < table_size && table_entries[i + n].key == key)
				n++;
		}
		if (n)
			return n < MAX_CANDIDATES ? n : MAX_CANDIDATES;
		for (i = 0; enhanced && i < table_nranges; i++) {
			const struct smtpcode_entry *e = &table_entries[table_ranges[i]];
			if (belongs(e, po) && in_range(e, q)) {
				*run = e;
				return 1;
			}
		}
		if (!enhanced || !q->basic)
			return 0;
	}
}

static int has_standard(const struct smtpcode_query *q)
{
	return q->enhanced ? smtpcode_find_enhanced(q->cls, q->subject,
	                                            q->detail) != NULL
	                   : smtpcode_find_basic(q->basic) != NULL;
}

/* Picks provider p's entry (any provider's when p is NULL) for q: the
 * candidate with the longest phrase in the reply, the first of them on a
 * tie. */
static void pick(const struct smtpcode_query *q, struct reply *r,
                 const struct smtpcode_entry *p, struct smtpcode_match *m)
{
	const struct smtpcode_entry *run = NULL;
	unsigned po = p ? ordinal(p) : 0;
	size_t n = 0, best_len = 0;

	if (!p || po) /* a non-provider given as p has no entries */
		n = candidates(q, po, &run);
	m->provider = p;
	m->candidates = n;
	if (n && !r->folded) {
		r->folded = r->len <= FOLD_MAX ? 1 : -1;
		if (r->folded > 0)
			fold_copy(r->low, (const unsigned char *)r->s, r->len);
	}
	if (n) { /* the candidates' phrases, in their order (see table.h) */
		const struct table_phrase *ph = &table_phrases[run->first[SMTPCODE_MATCHES]];
		const struct table_phrase *end = &table_phrases[
		    run[n - 1].first[SMTPCODE_MATCHES] +
		    run[n - 1].count[SMTPCODE_MATCHES]];
		for (; ph < end; ph++)
			if (ph->len > best_len && ph->len <= r->len &&
			    has_phrase(r, ph)) {
				best_len = ph->len;
				m->entry = &table_entries[ph->entry];
				m->phrase = table_pool + table_items[ph - table_phrases].text;
			}
	}
	if (m->entry)
		m->how = SMTPCODE_MATCH_PHRASE;
	else if (n == 1)
		m->how = SMTPCODE_MATCH_ONLY, m->entry = run;
	else if (m->candidates > 1 && (q->text_len || p))
		m->how = SMTPCODE_MATCH_AMBIGUOUS;
	if (m->entry && !m->provider)
		m->provider = smtpcode_provider_of(m->entry);
}

/* The index of the lowest bit set in x, which is not 0: x & -x has only
 * that bit, and multiplying by a de Bruijn sequence puts a different
 * 6-bit pattern for each of the 64 in the top bits. */
static unsigned lowest_bit(uint64_t x)
{
	static const uint8_t index[64] = {
		0, 1, 2, 7, 3, 13, 8, 19, 4, 25, 14, 28, 9, 34, 20, 40,
		5, 17, 26, 38, 15, 46, 29, 48, 10, 31, 35, 54, 21, 50, 41, 57,
		63, 6, 12, 18, 24, 27, 33, 39, 16, 37, 45, 47, 30, 53, 49, 56,
		62, 11, 23, 32, 36, 44, 52, 55, 61, 22, 43, 51, 60, 42, 59, 58};
	return index[((x & (0 - x)) * 0x0218a392cd3d5dbfu) >> 58];
}

void table_match(const struct smtpcode_query *q, const char *input,
                 size_t len, const struct smtpcode_entry *provider,
                 struct smtpcode_match *m)
{
	struct smtpcode_match first;
	const char *markers[64];
	struct reply r;
	uint64_t hits;
	int recognised = 0;

	memset(m, 0, sizeof *m);
	r.s = input;
	r.len = len;
	r.folded = 0;
	if (provider) {
		pick(q, &r, provider, m);
		m->given = true;
		return;
	}
	/* Every provider whose marker is in the reply, in data order: the
	 * first whose phrases pick an entry, or else the first of them.  (An
	 * MTA's bounce quoting Gmail's reply names both.) */
	hits = len ? recognise(input, len, markers) : 0;
	for (; hits; hits &= hits - 1) {
		struct smtpcode_match t;
		unsigned p = lowest_bit(hits) + 1;
		memset(&t, 0, sizeof t);
		pick(q, &r, &table_entries[table_provider_first + p - 1], &t);
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
		pick(q, &r, NULL, m);
}

/* Whether a marker or phrase without a space starts at u[i + k] and ends
 * by u[to], x holding u[i..i + 8) folded: its trigram there is read from
 * x, and the words of the trigram's hash (usually none) compared. */
static inline bool word_in(const unsigned char *u, size_t i, size_t to,
                           uint64_t x, unsigned k)
{
	uint32_t t = (uint32_t)(x >> 8 * k) & 0xffffff, h = TABLE_WORD(t);

	for (size_t w = table_word_first[h]; w < table_word_first[h + 1]; w++) {
		const struct table_phrase *ph = &table_phrases[table_words[w].phrase];
		const unsigned char *p = (const unsigned char *)table_pool + ph->folded;
		size_t m = 3;
		if (table_words[w].trigram != t || ph->len > to - i - k)
			continue;
		while (m < ph->len && fold(u[i + k + m]) == p[m])
			m++;
		if (m == ph->len)
			return true;
	}
	return false;
}

/* u[0..n) (n <= 8) as a little-endian number: u[0] its low byte.  The
 * compilers make one load of it where the machine is little-endian. */
static inline uint64_t load_le(const unsigned char *u, size_t n)
{
	uint64_t x = 0;
	if (n >= 8)
		return (uint64_t)u[0] | (uint64_t)u[1] << 8 | (uint64_t)u[2] << 16 |
		       (uint64_t)u[3] << 24 | (uint64_t)u[4] << 32 |
		       (uint64_t)u[5] << 40 | (uint64_t)u[6] << 48 |
		       (uint64_t)u[7] << 56;
	for (size_t k = 0; k < n; k++)
		x |= (uint64_t)u[k] << 8 * k;
	return x;
}

/* Whether some marker or phrase holds a then b, in a row (folded): among
 * the few bytes that follow a, in increasing order. */
static bool has_pair(unsigned char a, unsigned char b)
{
	unsigned char fa = fold(a), fb = fold(b);

	for (size_t i = table_edge_first[fa]; i < table_edge_first[fa + 1]; i++)
		if (table_edge_second[i] >= fb)
			return table_edge_second[i] == fb;
	return false;
}

/*
 * No marker or phrase touches [from, to) (see table.h): none crosses its
 * edges, and none lies inside it, as it holds no space and none of those
 * without a space starts in it.  Eight bytes are folded at a time, and
 * the trigrams starting at the first six read from the folded word
 * (written out six times where all eight are the span's, the usual case).
 */
bool smtpcode_reply_ignores(const char *input, size_t len, size_t from,
                            size_t to)
{
	const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
	const unsigned char *u = (const unsigned char *)input;

	if (!input || from >= to || to > len)
		return false;
	/* The byte outside first: most ('<', '>') are in no pair so placed. */
	if (from > 0 && table_edges[fold(u[from - 1])] & TABLE_EDGE_FOLLOWED &&
	    has_pair(u[from - 1], u[from]))
		return false;
	if (to < len && table_edges[fold(u[to])] & TABLE_EDGE_PRECEDED &&
	    has_pair(u[to - 1], u[to]))
		return false;
	/* Up to the word that reaches the span's end: with it every byte has
	 * been seen, and no trigram starts after its sixth. */
	for (size_t i = from;; i += 6) {
		size_t n = to - i < 8 ? to - i : 8; /* the span's bytes here */
		uint64_t x = fold_word(load_le(u + i, len - i < 8 ? len - i : 8));
		uint64_t sp;
		if (n < 8) /* zero is not a space, and starts no trigram read */
			x &= ((uint64_t)1 << 8 * n) - 1;
		sp = x ^ ones * ' ';
		if ((sp - ones) & ~sp & high) /* a byte of sp is zero */
			return false;
		if (n == 8) {
			if (word_in(u, i, to, x, 0) || word_in(u, i, to, x, 1) ||
			    word_in(u, i, to, x, 2) || word_in(u, i, to, x, 3) ||
			    word_in(u, i, to, x, 4) || word_in(u, i, to, x, 5))
				return false;
		} else {
			for (unsigned k = 0; k + 3 <= n; k++)
				if (word_in(u, i, to, x, k))
					return false;
		}
		if (i + n == to)
			return true;
	}
}
