/*
 * The reason a reply's words give (data/reasons/): one pass over the
 * text, looking at each place only at the phrases whose first four bytes
 * hash like the text's there (table.h), so that the cost is the text's
 * length whatever the number of phrases.  Of the phrases found, the one
 * whose reason has the lowest priority wins.
 */
#include "smtpcode.h"
#include "table.h"

/* The room for a phrase of smtpcode_wording_has(): more than a phrase of
 * data/reasons/ may have (80 bytes). */
#define WORDING_HAS_ROOM 128

/* The byte of s at i as phrases are packed (table_wording_fold: folded,
 * a blank read as a space) into *c; where the next one starts: a run of
 * blanks reads as one space.  The one reading of a text's bytes. */
static size_t next_byte(const unsigned char *s, size_t len, size_t i,
                        unsigned char *c)
{
	*c = table_wording_fold[s[i++]];
	if (*c == ' ')
		while (i < len && table_wording_fold[s[i]] == ' ')
			i++;
	return i;
}

/* The four bytes of s[0..len) packed as table.h packs a phrase's tail:
 * 0 past the end; *used gets the bytes of s they took. */
static uint32_t four_at(const unsigned char *s, size_t len, size_t *used)
{
	uint32_t t = 0;
	size_t i = 0;
	for (int k = 0; k < 4 && i < len; k++) {
		unsigned char c;
		i = next_byte(s, len, i, &c);
		t |= (uint32_t)c << 8 * k;
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
		unsigned char c;
		if (i == len)
			return false;
		i = next_byte(s, len, i, &c);
		if (c != p[k])
			return false;
	}
	return true;
}

/* Where the <...> that opens at s[i] ends (past its '>'), or i when no
 * '>' closes it: what it encloses is an address or a host, not words.
 * *close keeps where the next '>' is (len when none), looked for once per
 * stretch, so that many '<' without a '>' cost no more than one. */
static inline size_t past_enclosed(const unsigned char *s, size_t len,
                                   size_t i, size_t *close)
{
	if (*close <= i)
		for (*close = i + 1; *close < len && s[*close] != '>';)
			(*close)++;
	return *close < len ? *close + 1 : i;
}

/* Where the four bytes of a head that ends at s[i] start in s: a run of
 * blanks is one byte of it, and starts at its first blank.  Looked for
 * only when a phrase is found, rather than kept for every place. */
static size_t head_start(const unsigned char *s, size_t i)
{
	for (int k = 0; k < 4; k++) {
		i--;
		if (table_wording_fold[s[i]] == ' ')
			while (i > 0 && table_wording_fold[s[i - 1]] == ' ')
				i--;
	}
	return i;
}

bool smtpcode_wording(const char *text, size_t len, struct smtpcode_wording *w)
{
	const unsigned char *s = (const unsigned char *)text;
	const struct table_wording *best = NULL;
	/* The last four bytes read, as table.h packs them: the oldest in the
	 * low byte.  0 stands for none yet (at the start, after a <...>): no
	 * phrase holds a 0, so a head with one matches none. */
	uint32_t head = 0;

	w->reason = 0;
	w->phrase = NULL;
	w->at = 0;
	if (!text)
		return false;
	for (size_t i = 0, close = 0; i < len;) {
		unsigned char c;
		size_t after = 0; /* where the tail ends in s */
		uint32_t tail = 0;
		unsigned k, end;
		bool tail_known;
		/* No phrase runs into <...> or across it. */
		if (s[i] == '<') {
			size_t past = past_enclosed(s, len, i, &close);
			if (past != i) {
				i = past;
				head = 0;
				continue;
			}
		}
		i = next_byte(s, len, i, &c);
		head = head >> 8 | (uint32_t)c << 24;
		if ((head & 0xff) == ' ') /* no phrase starts so */
			continue;
		k = table_wording_first[TABLE_WORDING_BUCKET(head)];
		end = table_wording_first[TABLE_WORDING_BUCKET(head) + 1];
		if (k == end) /* most places: no phrase starts so */
			continue;
		tail_known = false;
		for (; k < end; k++) {
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
				w->at = head_start(s, i);
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

bool smtpcode_wording_has(const char *text, size_t len, const char *phrase,
                          size_t *at)
{
	const unsigned char *s = (const unsigned char *)text;
	unsigned char p[WORDING_HAS_ROOM];
	size_t n = 0;

	if (!text || !phrase)
		return false;
	/* The phrase as the table packs one: folded, a blank a space. */
	for (; phrase[n]; n++) {
		if (n == sizeof p)
			return false;
		p[n] = table_wording_fold[(unsigned char)phrase[n]];
	}
	if (n == 0)
		return false;
	for (size_t i = 0, close = 0; i < len; i++) {
		if (s[i] == '<') {
			size_t past = past_enclosed(s, len, i, &close);
			if (past != i) {
				i = past - 1; /* (the loop steps past it) */
				continue;
			}
		}
		if (table_wording_fold[s[i]] == p[0] &&
		    (p[0] != ' ' || i == 0 || table_wording_fold[s[i - 1]] != ' ') &&
		    phrase_at(s + i, len - i, p, n)) {
			*at = i;
			return true;
		}
	}
	return false;
}
