/*
 * Matching compiled phrase sets (phrase.h).  No <ctype.h>: neither the
 * locale nor bytes >= 0x80 change what matches.
 */
#include <stdint.h>
#include <string.h>

#include "phrase.h"
#include "scan.h"

static char lower(char c)
{
	return (char)scan_fold((unsigned char)c);
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* U+2019, the typographic apostrophe that some templates use for ASCII's. */
static const char right_quote[] = "\xe2\x80\x99";

/* Whether s[from..len) starts with phrase ph (see phrase.h); *end gets the
 * offset past it. */
static int starts_with(const char *ph, size_t n, const char *s, size_t from,
                       size_t len, size_t *end)
{
	size_t p = from;
	for (size_t i = 0; i < n; i++) {
		char q = ph[i];
		if (q == ' ' && p < len && is_blank(s[p])) {
			while (p < len && is_blank(s[p]))
				p++;
		} else if (q == '\'' && len - p >= 3 &&
		           memcmp(s + p, right_quote, 3) == 0) {
			p += 3;
		} else if (p < len && lower(s[p]) == q) {
			p++;
		} else {
			return 0;
		}
	}
	*end = p;
	return 1;
}

/* Whether a phrase of set may start with byte c (folded). */
static int may_start(const struct phrase_set *set, char c)
{
	unsigned char u = (unsigned char)c;
	return set->firsts[u >> 5] >> (u & 31) & 1;
}

/* The first phrase of set whose first byte is c or after it: a set's
 * phrases are in the order of their first bytes (the data's order among
 * those of one byte), so that those starting with c follow it. */
static size_t first_with(const struct phrase_set *set, unsigned char c)
{
	size_t lo = 0, hi = set->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((unsigned char)set->text[set->phrases[mid].off] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct phrase *phrase_starts(const struct phrase_set *set,
                                   const char *s, size_t len, size_t *end)
{
	size_t from = 0, stop;
	char first, second;
	while (from < len && is_blank(s[from]))
		from++;
	/* Sets are tried on every line, and a line's first byte rules out
	 * most of their phrases: it is compared before anything else. */
	first = from < len ? lower(s[from]) : '\0';
	if (!may_start(set, first))
		return NULL;
	second = from + 1 < len ? lower(s[from + 1]) : '\0';
	/* Only phrases of that first byte can match, save those starting
	 * with an apostrophe, which U+2019 (0xe2 ...) matches too. */
	int any = first == '\'' || (unsigned char)first == 0xe2;
	for (size_t i = any ? 0 : first_with(set, (unsigned char)first);
	     i < set->n; i++) {
		const struct phrase *ph = &set->phrases[i];
		const char *t = set->text + ph->off;
		if (!any && t[0] != first)
			break; /* past those of its first byte */
		if (t[0] != '\'' && t[0] != first)
			continue;
		/* The second byte too, where it is a byte of its own (most
		 * phrases of a set share their first letter with others). */
		if (t[0] != '\'' && ph->len > 1 && t[1] != ' ' && t[1] != '\'' &&
		    t[1] != second)
			continue;
		if (starts_with(t, ph->len, s, from, len, &stop)) {
			if (end)
				*end = stop;
			return ph;
		}
	}
	return NULL;
}

/* Whether s[p..) holds phrase t[0..n), ignoring ASCII case only. */
static int same_at(const char *t, size_t n, const char *s, size_t p)
{
	for (size_t i = 0; i < n; i++)
		if (lower(s[p + i]) != t[i])
			return 0;
	return 1;
}

const struct phrase *phrase_find(const struct phrase_set *set, const char *s,
                                 size_t len, size_t *at)
{
	for (size_t p = 0; p < len; p++) {
		char c = lower(s[p]);
		if (!may_start(set, c))
			continue;
		for (size_t i = first_with(set, (unsigned char)c); i < set->n; i++) {
			const struct phrase *ph = &set->phrases[i];
			const char *t = set->text + ph->off;
			if (t[0] != c)
				break; /* past those starting with c */
			if (ph->len > len - p || !same_at(t, ph->len, s, p))
				continue;
			if (at)
				*at = p;
			return ph;
		}
	}
	return NULL;
}

void phrase_text_init(struct phrase_text *t, const char *s, size_t len)
{
	t->s = s;
	t->len = len;
	t->folded = 0;
}

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
			d[i] = (unsigned char)lower((char)s[i]);
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

int phrase_in(struct phrase_text *t, const char *p, size_t m, size_t rare)
{
	const unsigned char *at, *last;

	if (!t->folded) {
		t->folded = t->len <= PHRASE_FOLD_MAX ? 1 : -1;
		if (t->folded > 0)
			fold_copy(t->low, (const unsigned char *)t->s, t->len);
	}
	if (m == 0 || m > t->len)
		return 0;
	if (t->folded < 0) {
		for (size_t i = 0; i + m <= t->len; i++)
			if (same_at(p, m, t->s, i))
				return 1;
		return 0;
	}
	/* Where the phrase's rarest byte would be, were it at 0, and at the
	 * last place it fits. */
	at = t->low + rare;
	last = t->low + (t->len - m) + rare;
	while ((at = (const unsigned char *)scan_byte(
	            (const char *)at, (const char *)last + 1, p[rare])) != NULL) {
		if (scan_same((const char *)at - rare, p, m))
			return 1;
		if (at++ == last)
			break;
	}
	return 0;
}
