/*
 * The reason a reply's words give (data/reasons/): one pass over the
 * text, looking at each place only at the phrases whose first three bytes
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

/* The four bytes of s[0..len) packed as table.h packs a phrase's tail:
 * folded, a run of blanks as one space, 0 past the end; *used gets the
 * bytes of s they took. */
static uint32_t four_at(const unsigned char *s, size_t len, size_t *used)
{
	uint32_t t = 0;
	size_t i = 0;
	for (int k = 0; k < 4 && i < len; k++) {
		unsigned char c = table_wording_byte(s[i]);
		t |= (uint32_t)c << 8 * k;
		if (c == ' ')
			while (i < len && blank(s[i]))
				i++;
		else
			i++;
	}
	*used = i;
	return t;
}

/* The bytes of a tail a phrase of length n has (0 to 4), as a mask. */
static uint32_t tail_mask(size_t n)
{
	return n >= 8 ? 0xffffffffu : (uint32_t)(((uint64_t)1 << 8 * (n - 4)) - 1);
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
	uint32_t head = 0; /* the last four bytes read, as table.h packs them:
	                      the oldest in the low byte */
	size_t at[4];      /* where each of them starts in s */
	size_t n = 0;      /* bytes read since the start or a <...> */

	w->reason = 0;
	w->phrase = NULL;
	w->at = 0;
	if (!text)
		return false;
	/* close: where the next '>' is, or len; looked for once per stretch,
	 * so that many '<' without a '>' cost no more than one. */
	for (size_t i = 0, close = 0; i < len;) {
		unsigned char c = table_wording_byte(s[i]);
		size_t start, after = 0; /* after: where the tail ends in s */
		uint32_t b, tail = 0;
		bool tail_known;
		/* What <...> encloses is an address or a host, not words: no
		 * phrase runs into it or across it. */
		if (s[i] == '<') {
			if (close <= i)
				for (close = i + 1; close < len && s[close] != '>';)
					close++;
			if (close < len) {
				i = close + 1;
				n = 0;
				head = 0;
				continue;
			}
		}
		at[n++ & 3] = i;
		if (c == ' ') /* a run of blanks reads as one space */
			while (i < len && blank(s[i]))
				i++;
		else
			i++;
		head = head >> 8 | (uint32_t)c << 24;
		if (n < 4 || (head & 0xff) == ' ') /* no phrase starts so */
			continue;
		b = TABLE_WORDING_BUCKET(head);
		start = at[n & 3]; /* of the oldest of the four */
		tail_known = false;
		for (unsigned k = table_wording_first[b];
		     k < table_wording_first[b + 1]; k++) {
			const struct table_wording *t = &table_wordings[k];
			if (best && t->order >= best->order)
				break; /* the rest of the bucket comes later */
			if (t->head != head)
				continue;
			if (!tail_known) {
				tail = four_at(s + i, len - i, &after);
				after += i;
				tail_known = true;
			}
			/* Its first eight bytes are the head and tail just
			 * compared: the rest is compared after them. */
			if ((tail & tail_mask(t->len)) == t->tail &&
			    (t->len <= 8 ||
			     phrase_at(s + after, len - after, (const unsigned char *)
			               table_wording_text + t->text + 8, t->len - 8u))) {
				best = t;
				w->at = start;
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
