/*
 * Providers' dialects: recognising the provider of a reply by its markers,
 * and picking that provider's entry for the code by the reply's phrases.
 * Bounded searches over the caller's text; no allocation.
 */
#include <stdint.h>
#include <string.h>

#include "phrase.h"
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

/*
 * The providers whose markers a reply holds, by ordinal (that is, by
 * priority), each with the first of its markers found: the earliest in
 * the reply, then in the data.  A reply holding more providers' markers
 * than MAX_HITS keeps the MAX_HITS first by priority, the ones tried
 * first; no real reply names more than a few.
 */
#define MAX_HITS 64

struct hits {
	size_t n;
	struct hit {
		unsigned provider;
		const char *marker;
	} hit[MAX_HITS];
};

/* Adds provider p, found by marker, to h unless it is there already. */
static void add_hit(struct hits *h, unsigned p, const char *marker)
{
	size_t i = h->n;
	while (i > 0 && h->hit[i - 1].provider > p)
		i--;
	if ((i > 0 && h->hit[i - 1].provider == p) || i == MAX_HITS)
		return;
	if (h->n == MAX_HITS)
		h->n--; /* the last by priority gives way */
	memmove(&h->hit[i + 1], &h->hit[i], (h->n - i) * sizeof h->hit[0]);
	h->hit[i].provider = p;
	h->hit[i].marker = marker;
	h->n++;
}

/* Adds the markers that start at u[i] to h: those, if any, whose first
 * three bytes hash to t, as u's there do (see table.h). */
static void markers_at(const unsigned char *u, size_t n, size_t i,
                       uint32_t t, struct hits *h)
{
	for (size_t k = table_trigrams[t]; k < table_trigrams[t + 1]; k++) {
		const struct table_marker *m = &table_markers[k];
		const char *text = table_pool + m->text;
		if (m->len <= n - i && scan_same((const char *)u + i, text, m->len))
			add_hit(h, m->provider, text);
	}
}

/*
 * The providers whose markers are in s[0..n), into h.  One pass over s
 * for all markers, looking up the byte pairs at even offsets (see
 * table.h), as this runs on every distinct reply of a log.  The tables'
 * addresses are taken once, out of the loop.
 */
static void recognise(const char *s, size_t n, struct hits *hits)
{
	const unsigned char *u = (const unsigned char *)s;
	const uint8_t *pairs = table_pairs;
	const uint16_t *trigrams = table_trigrams;
	hits->n = 0;
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
				markers_at(u, n, j - 1, h, hits);
		}
		if (bits & 1 && j + 2 < n) {
			h = TABLE_TRIGRAM(u[j], u[j + 1], u[j + 2]);
			if (trigrams[h] != trigrams[h + 1])
				markers_at(u, n, j, h, hits);
		}
	}
}

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
 * code.  They are a run of the table, at *run; returns how many.  A code's entries are together, its standard entry
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
			return n;
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

/* Of the entries run[0..n), the one whose phrase found in r is longer
 * than *best_len and the longest (the first on a tie), into *entry and
 * *phrase, *best_len updated; they stay as they were when none is.  The
 * phrases of a run of entries are a run too (see table.h). */
static void longest_phrase(const struct smtpcode_entry *run, size_t n,
                           struct phrase_text *r, size_t *best_len,
                           const struct smtpcode_entry **entry,
                           const char **phrase)
{
	const struct table_phrase *ph = &table_phrases[run->first[SMTPCODE_MATCHES]];
	const struct table_phrase *end = &table_phrases[
	    run[n - 1].first[SMTPCODE_MATCHES] + run[n - 1].count[SMTPCODE_MATCHES]];
	for (; ph < end; ph++)
		if (ph->len > *best_len && ph->len <= r->len &&
		    phrase_in(r, table_pool + ph->folded, ph->len, ph->rare)) {
			*best_len = ph->len;
			*entry = &table_entries[ph->entry];
			*phrase = table_pool + table_items[ph - table_phrases].text;
		}
}

/* Picks provider p's entry (any provider's when p is NULL) for q: the
 * candidate with the longest phrase in the reply, the first of them on a
 * tie. */
static void pick(const struct smtpcode_query *q, struct phrase_text *r,
                 const struct smtpcode_entry *p, struct smtpcode_match *m)
{
	const struct smtpcode_entry *run = NULL;
	unsigned po = p ? ordinal(p) : 0;
	size_t n = 0, best_len = 0;

	if (!p || po) /* a non-provider given as p has no entries */
		n = candidates(q, po, &run);
	m->provider = p;
	m->candidates = n;
	if (n)
		longest_phrase(run, n, r, &best_len, &m->entry, &m->phrase);
	if (m->entry)
		m->how = SMTPCODE_MATCH_PHRASE;
	else if (n == 1)
		m->how = SMTPCODE_MATCH_ONLY, m->entry = run;
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
	struct phrase_text r;
	struct hits hits;

	memset(m, 0, sizeof *m);
	phrase_text_init(&r, input, len);
	if (provider) {
		pick(q, &r, provider, m);
		m->given = true;
		return;
	}
	/* Every provider whose marker is in the reply, in data order: the
	 * first whose phrases pick an entry, or else the first of them.  (An
	 * MTA's bounce quoting Gmail's reply names both.) */
	recognise(input, len, &hits);
	for (size_t i = 0; i < hits.n; i++) {
		struct smtpcode_match t;
		unsigned p = hits.hit[i].provider;
		memset(&t, 0, sizeof t);
		pick(q, &r, &table_entries[table_provider_first + p - 1], &t);
		t.marker = hits.hit[i].marker;
		if (t.how == SMTPCODE_MATCH_PHRASE) {
			*m = t;
			return;
		}
		if (i == 0)
			first = t;
	}
	if (hits.n) {
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

/* Provider p's entry (by ordinal) that the longest of its phrases found in
 * t picks, whatever its code; NULL when none is found.  *phrase is the
 * phrase.  A provider's entries are its groups' runs (table.h), and the
 * phrases of a run are a run too. */
static const struct smtpcode_entry *any_code_pick(unsigned p,
                                                  struct phrase_text *t,
                                                  const char **phrase)
{
	const struct smtpcode_entry *best = NULL;
	size_t best_len = 0;
	for (size_t g = table_provider_groups[p - 1]; g < table_provider_groups[p];
	     g++)
		longest_phrase(&table_entries[table_groups[g].first],
		               table_groups[g].count, t, &best_len, &best, phrase);
	return best;
}

bool smtpcode_resolve_words(const char *input, size_t len,
                            const struct smtpcode_entry *provider,
                            struct smtpcode_result *r)
{
	struct phrase_text t;
	struct hits hits;

	memset(r, 0, sizeof *r);
	hits.n = 0;
	if (provider && ordinal(provider)) {
		hits.hit[0].provider = ordinal(provider);
		hits.hit[0].marker = NULL;
		hits.n = 1;
	} else if (!provider && input) {
		recognise(input, len, &hits);
	}
	phrase_text_init(&t, input, len);
	for (size_t i = 0; i < hits.n; i++) {
		const char *phrase = NULL;
		const struct smtpcode_entry *e =
		    any_code_pick(hits.hit[i].provider, &t, &phrase);
		if (!e)
			continue;
		smtpcode_resolve_entry(e, r);
		r->match.how = SMTPCODE_MATCH_PHRASE;
		r->match.given = provider != NULL;
		r->match.marker = hits.hit[i].marker;
		r->match.phrase = phrase;
		r->query.text_off = 0;
		r->query.text_len = len;
		return true;
	}
	/* No entry, but the provider is known: the caller says so. */
	if (hits.n) {
		r->match.provider =
		    &table_entries[table_provider_first + hits.hit[0].provider - 1];
		r->match.marker = hits.hit[0].marker;
		r->match.given = provider != NULL;
	}
	r->query.text_len = len;
	return false;
}

/* Whether some marker or phrase holds a then b, in a row (folded). */
static inline bool edge_pair(unsigned char a, unsigned char b)
{
	return table_edge_pairs[table_class[a]] >> table_class[b] & 1;
}

/* Whether a marker or phrase without a space starts at s and ends by end:
 * the words of the hash of its trigram, s[0..3) folded, are compared. */
static bool word_at(const unsigned char *s, const unsigned char *end)
{
	uint32_t t = scan_fold(s[0]) | (uint32_t)scan_fold(s[1]) << 8 |
	             (uint32_t)scan_fold(s[2]) << 16,
	         h = TABLE_WORD(t);

	for (size_t w = table_word_first[h]; w < table_word_first[h + 1]; w++) {
		const struct table_phrase *ph = &table_phrases[table_words[w].phrase];
		const unsigned char *p = (const unsigned char *)table_pool + ph->folded;
		size_t m = 3;
		if (table_words[w].trigram != t || ph->len > (size_t)(end - s))
			continue;
		while (m < ph->len && scan_fold(s[m]) == p[m])
			m++;
		if (m == ph->len)
			return true;
	}
	return false;
}

/* Whether no marker or phrase lies inside [s, end) from s on: the rest of
 * smtpcode_reply_ignores() once one may start at s (seldom).  Not inlined:
 * its call of word_at() would make smtpcode_reply_ignores() save and
 * restore more registers for every span (20 instructions of 120). */
static NOINLINE bool clear_from(const unsigned char *s,
                                const unsigned char *end)
{
	for (; end - s >= 2; s++)
		if (table_word_starts[table_class[s[0]]] >> table_class[s[1]] & 1 &&
		    (s[0] == ' ' || (end - s >= 3 && word_at(s, end))))
			return false;
	return end[-1] != ' ';
}

/*
 * No marker or phrase touches [from, to) (see table.h): none crosses its
 * edges, and none lies inside it, as it holds no space and none of those
 * without a space starts in it.  Each pair of the span's bytes is looked
 * up once, and with the byte after it where it may start a word; the few
 * that pass (and spaces) are looked at closer.
 */
bool smtpcode_reply_ignores(const char *input, size_t len, size_t from,
                            size_t to)
{
	const unsigned char *u = (const unsigned char *)input, *last;
	uint64_t row;

	if (!input || from >= to || to > len)
		return false;
	if (from > 0 && edge_pair(u[from - 1], u[from]))
		return false;
	if (to < len && edge_pair(u[to - 1], u[to]))
		return false;
	last = u + to - 1;
	/* row: what may follow the byte at s to start a word */
	row = table_word_starts[table_class[u[from]]];
	for (const unsigned char *s = u + from; s < last; s++) {
		unsigned b = table_class[s[1]];
		if (row >> b & 1 &&
		    (s + 1 == last ||
		     table_word_skips[table_class[s[0]]] >> table_class[s[2]] & 1))
			return clear_from(s, last + 1);
		row = table_word_starts[b];
	}
	return *last != ' ';
}
