/*
 * The reason a reply's words give (data/reasons/): one pass over the
 * text, looking at each place only at the phrases whose first two bytes
 * hash like the text's there (table.h), so that the cost is the text's
 * length whatever the number of phrases.  Of the phrases found, the one
 * whose reason has the lowest priority wins.
 */
#include "smtpcode.h"
#include "table.h"

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 'a' - 'A') : c;
}

static bool blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The byte buckets are made of: blanks as one space. */
static unsigned char bucket_byte(unsigned char c)
{
	return blank(c) ? ' ' : fold(c);
}

/* Whether phrase p[0..n) (lower case) is at s[0..len): ASCII case aside,
 * a space of p matching any run of blanks. */
static bool phrase_at(const unsigned char *s, size_t len,
                      const unsigned char *p, size_t n)
{
	size_t i = 0;
	for (size_t k = 0; k < n; k++) {
		if (i == len)
			return false;
		if (p[k] == ' ') {
			if (!blank(s[i]))
				return false;
			while (i < len && blank(s[i]))
				i++;
		} else if (fold(s[i++]) != p[k]) {
			return false;
		}
	}
	return true;
}

bool smtpcode_wording(const char *text, size_t len, struct smtpcode_wording *w)
{
	const unsigned char *s = (const unsigned char *)text;
	const struct table_wording *best = NULL;

	w->reason = 0;
	w->phrase = NULL;
	w->at = 0;
	if (!text)
		return false;
	for (size_t i = 0; i + 1 < len; i++) {
		unsigned b;
		/* What <...> encloses is an address or a host, not words. */
		if (s[i] == '<') {
			size_t j = i + 1;
			while (j < len && s[j] != '>')
				j++;
			if (j < len) {
				i = j;
				continue;
			}
		}
		b = TABLE_WORDING_BUCKET(bucket_byte(s[i]), bucket_byte(s[i + 1]));
		for (unsigned k = table_wording_first[b];
		     k < table_wording_first[b + 1]; k++) {
			const struct table_wording *t = &table_wordings[k];
			if (best && t->order >= best->order)
				break; /* the rest of the bucket comes later */
			if (phrase_at(s + i, len - i, (const unsigned char *)
			              table_wording_text + t->text, t->len)) {
				best = t;
				w->at = i;
				break;
			}
		}
	}
	if (!best)
		return false;
	w->reason = best->reason;
	w->phrase = table_wording_text + best->text;
	return true;
}
