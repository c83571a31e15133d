/*
 * Word search over entries (smtpcode --search): which entries hold the
 * words typed, and how well.  The words are read as blank-separated
 * tokens, whichever argument they came in, so "mailbox full" and
 * mailbox full search alike.  Runs of tokens that are a phrase of a
 * synonym list (data/search/, table_synonyms) form one unit, which also
 * finds the list's other phrases; any other token is a unit of its own.
 * Bounded by the texts, ASCII case folded, no allocation; only searches
 * come here, never a lookup.
 */
#include <string.h>

#include "scan.h"
#include "table.h"

/* Where the next token starts: at or after byte off of word w. */
struct pos {
	size_t w, off;
};

/* The tokens [from, to) and, when they are one of its phrases, the
 * synonym list they stand for (NULL: none). */
struct unit {
	struct pos from, to;
	const char *list;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static bool same(const struct pos *a, const struct pos *b)
{
	return a->w == b->w && a->off == b->off;
}

/* The token at or after *p, into tok[0..*len); *p moves past it.  False
 * when no token is left. */
static bool next_token(const char *const *words, size_t n, struct pos *p,
                       const char **tok, size_t *len)
{
	for (; p->w < n; p->w++, p->off = 0) {
		const char *s = words[p->w] + p->off;
		while (blank(*s))
			s++;
		if (*s) {
			size_t k = 0;
			while (s[k] && !blank(s[k]))
				k++;
			*tok = s;
			*len = k;
			p->off = (size_t)(s - words[p->w]) + k;
			return true;
		}
	}
	return false;
}

static bool equal_fold(const char *a, const char *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (scan_fold((unsigned char)a[i]) != scan_fold((unsigned char)b[i]))
			return false;
	return true;
}

/* How many tokens from *p phrase (lower case, words split by single
 * spaces) equals, at most max; 0 when it is not there.  *end: after them. */
static size_t phrase_tokens(const char *phrase, const char *const *words,
                            size_t n, struct pos p, size_t max,
                            struct pos *end)
{
	size_t count = 0;
	while (*phrase) {
		const char *tok;
		size_t len, k = strcspn(phrase, " ");
		if (count == max || !next_token(words, n, &p, &tok, &len) ||
		    len != k || !equal_fold(tok, phrase, k))
			return 0;
		count++;
		phrase += k + (phrase[k] == ' ');
	}
	*end = p;
	return count;
}

/* The unit that starts at or after p: the longest run of tokens that is a
 * synonym (max tokens at most), else one token.  False when none is left. */
static bool next_unit(const char *const *words, size_t n, struct pos p,
                      size_t max, struct unit *u)
{
	const char *tok;
	size_t len, best = 0;

	u->from = p;
	if (!next_token(words, n, &p, &tok, &len))
		return false;
	u->to = p;
	u->list = NULL;
	for (const char *list = table_synonyms; *list;) {
		const char *phrase = list;
		for (; *phrase; phrase += strlen(phrase) + 1) {
			struct pos end;
			size_t k;
			/* Most phrases differ from the first token at once. */
			if (scan_fold((unsigned char)*tok) != (unsigned char)*phrase)
				continue;
			k = phrase_tokens(phrase, words, n, u->from, max, &end);
			if (k > best) {
				best = k;
				u->to = end;
				u->list = list;
			}
		}
		list = phrase + 1;
	}
	return true;
}

/* Where the unit's tokens, as typed, end when they start at text + i: a
 * token may start or end inside a word ("throttl" finds "throttled"), and
 * a run of blanks stands between two; 0 when they are not there. */
static size_t typed_at(const char *text, size_t i, const char *const *words,
                       size_t n, const struct unit *u)
{
	struct pos p = u->from;
	const char *tok;
	size_t len;
	bool first = true;

	while (!same(&p, &u->to) && next_token(words, n, &p, &tok, &len)) {
		if (!first) {
			if (!blank(text[i]))
				return 0;
			while (blank(text[i]))
				i++;
		}
		if (!equal_fold(text + i, tok, len)) /* stops at text's NUL */
			return 0;
		i += len;
		first = false;
	}
	return i;
}

/* Where a synonym's phrase ends when it stands at text + i as whole words
 * ("listed" is not found in "unlisted"), a space of it matching a run of
 * blanks; 0 when it is not there. */
static size_t synonym_at(const char *text, size_t i, const char *phrase)
{
	if (i > 0 && alnum(text[i - 1]))
		return 0;
	for (; *phrase; phrase++) {
		if (*phrase == ' ') {
			if (!blank(text[i]))
				return 0;
			while (blank(text[i]))
				i++;
		} else if (scan_fold((unsigned char)text[i++]) != (unsigned char)*phrase) {
			return 0;
		}
	}
	return alnum(text[i]) ? 0 : i;
}

static bool rest_at(const char *text, size_t i, const char *const *words,
                    size_t n, struct pos p);

/* Whether unit u, typed or as one of its synonyms, starts at text + i and
 * the units after it follow as a phrase (all of them, when rest). */
static bool unit_at(const char *text, size_t i, const char *const *words,
                    size_t n, const struct unit *u, bool rest)
{
	size_t end = typed_at(text, i, words, n, u);
	if (end && (!rest || rest_at(text, end, words, n, u->to)))
		return true;
	for (const char *s = u->list; s && *s; s += strlen(s) + 1)
		if ((end = synonym_at(text, i, s)) &&
		    (!rest || rest_at(text, end, words, n, u->to)))
			return true;
	return false;
}

/* Whether the units from p follow text + i as a phrase: after a run of
 * blanks, unless none is left.  Reached only past a unit found, so the
 * units are read again only where a phrase may be. */
static bool rest_at(const char *text, size_t i, const char *const *words,
                    size_t n, struct pos p)
{
	struct unit u;
	if (!next_unit(words, n, p, SIZE_MAX, &u))
		return true;
	if (!blank(text[i]))
		return false;
	while (blank(text[i]))
		i++;
	return unit_at(text, i, words, n, &u, true);
}

/* Whether list l of a provider's entry e is the one it took from the
 * standard entry of its code: searched there only, so that words of a
 * question do not list every provider's entry too.  The generator gives
 * equal lists the same items, so where they start tells, without
 * unpacking their prose. */
static bool inherited(const struct smtpcode_entry *e, enum smtpcode_list l)
{
	size_t i = table_first(e->key);
	const struct smtpcode_entry *s = &table_entries[i];
	return e->provider && i != table_size && !s->provider &&
	       e->count[l] == s->count[l] && e->first[l] == s->first[l];
}

/* Text k of entry e that search reads: its name, its meaning, a
 * provider's entry's phrases, then what not to do and the questions and
 * answers (a provider's entry's own only); NULL past the last. */
static const char *text_of(const struct smtpcode_entry *e, size_t k)
{
	static const enum smtpcode_list lists[] = {SMTPCODE_AVOID, SMTPCODE_FAQ};
	size_t n;
	if (k < 2)
		return smtpcode_text(e, k ? SMTPCODE_MEANING : SMTPCODE_NAME);
	k -= 2;
	n = e->provider ? smtpcode_count(e, SMTPCODE_MATCHES) : 0;
	if (k < n)
		return smtpcode_item(e, SMTPCODE_MATCHES, k).text;
	k -= n;
	for (size_t i = 0; i < sizeof lists / sizeof *lists; k -= n, i++) {
		n = inherited(e, lists[i]) ? 0 : smtpcode_count(e, lists[i]);
		if (k < n)
			return smtpcode_item(e, lists[i], k).text;
	}
	return NULL;
}

/* Whether unit u starts somewhere in a text of e (with the units after
 * it as a phrase, when rest).  Tried only where the text's first two
 * bytes may start the word typed or a synonym, folded as the table folds
 * phrases (a blank as a space): few places pass, so a search of the whole
 * table costs milliseconds. */
static bool found(const struct smtpcode_entry *e, const char *const *words,
                  size_t n, const struct unit *u, bool rest)
{
	bool first[256] = {false}, second[256] = {false};
	struct pos p = u->from;
	const char *text, *tok;
	size_t len;

	if (!next_token(words, n, &p, &tok, &len))
		return false;
	first[table_wording_fold[(unsigned char)tok[0]]] = true;
	if (len == 1)
		memset(second, true, sizeof second);
	else
		second[table_wording_fold[(unsigned char)tok[1]]] = true;
	for (const char *s = u->list; s && *s; s += strlen(s) + 1) {
		first[(unsigned char)s[0]] = true; /* two bytes at least */
		second[(unsigned char)s[1]] = true;
	}
	for (size_t k = 0; (text = text_of(e, k)); k++)
		for (size_t i = 0; text[i]; i++)
			if (first[table_wording_fold[(unsigned char)text[i]]] &&
			    second[table_wording_fold[(unsigned char)text[i + 1]]] &&
			    unit_at(text, i, words, n, u, rest))
				return true;
	return false;
}

/* Whether every unit is in e's texts; a unit of several tokens
 * ("mailbox full") also when each of its tokens is, anywhere. */
static bool all_found(const struct smtpcode_entry *e,
                      const char *const *words, size_t n)
{
	struct unit u, t;
	for (struct pos p = {0, 0}; next_unit(words, n, p, SIZE_MAX, &u);
	     p = u.to) {
		if (found(e, words, n, &u, false))
			continue;
		if (!u.list) /* one token, not found */
			return false;
		for (struct pos q = u.from; !same(&q, &u.to); q = t.to)
			if (!next_unit(words, n, q, 1, &t) ||
			    !found(e, words, n, &t, false))
				return false;
	}
	return true;
}

unsigned smtpcode_search_rank(const struct smtpcode_entry *e,
                              const char *const *words, size_t n)
{
	enum smtpcode_kind kind = smtpcode_kind(e);
	struct unit u;
	bool phrase;

	if (kind != SMTPCODE_KIND_BASIC && kind != SMTPCODE_KIND_ENHANCED)
		return 0;
	if (!all_found(e, words, n))
		return 0;
	phrase = !next_unit(words, n, (struct pos){0, 0}, SIZE_MAX, &u) ||
	         found(e, words, n, &u, true);
	/* The whole query as a phrase says more than where the entry comes
	 * from: a provider's "Mailbox full" before a standard code that
	 * holds "mailbox" and "full" apart. */
	return phrase ? (e->provider ? 2 : 1) : (e->provider ? 4 : 3);
}

bool smtpcode_search_match(const struct smtpcode_entry *e,
                           const char *const *words, size_t n)
{
	return smtpcode_search_rank(e, words, n) != 0;
}
