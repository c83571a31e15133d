/*
 * Matching compiled phrase sets (phrase.h).  No <ctype.h>: neither the
 * locale nor bytes >= 0x80 change what matches.
 */
#include <string.h>

#include "phrase.h"

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
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

const struct phrase *phrase_starts(const struct phrase_set *set,
                                   const char *s, size_t len, size_t *end)
{
	size_t from = 0, stop;
	char first;
	while (from < len && is_blank(s[from]))
		from++;
	/* Sets are tried on every line, and a line's first byte rules out
	 * most of their phrases: it is compared before anything else. */
	first = from < len ? lower(s[from]) : '\0';
	for (size_t i = 0; i < set->n; i++) {
		const struct phrase *ph = &set->phrases[i];
		const char *t = set->text + ph->off;
		if (t[0] != '\'' && t[0] != first)
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
		for (size_t i = 0; i < set->n; i++) {
			const struct phrase *ph = &set->phrases[i];
			const char *t = set->text + ph->off;
			if (t[0] != c || ph->len > len - p ||
			    !same_at(t, ph->len, s, p))
				continue;
			if (at)
				*at = p;
			return ph;
		}
	}
	return NULL;
}
