/*
 * Phrase sets: the fixed wordings that recognise a text (a bounce's
 * intro, the line that starts its list of recipients, an auto-reply's
 * subject).  tools/gentable compiles them from data/bounces/ into table.c:
 * each phrase folded to ASCII lower case once, with its length and a
 * 16-bit id (its position in its set), so that matching compares bytes
 * and never measures or folds a phrase.  Internal to the library.
 *
 * Two questions are asked of a set, both in time linear in the text
 * (times the set's size, which is small):
 *  - which phrase starts this line, as a template writes it: after the
 *    line's indentation, ignoring ASCII case, a space matching any run of
 *    blanks and an apostrophe either apostrophe (ASCII's or U+2019);
 *  - where the first phrase of the set occurs in a text, ignoring ASCII
 *    case only.
 */
#ifndef SMTPCODE_PHRASE_H
#define SMTPCODE_PHRASE_H

#include <stddef.h>
#include <stdint.h>

struct phrase {
	uint32_t off; /* in its set's text */
	uint16_t len; /* bytes, at least 1 */
	uint16_t id;  /* its position in its set */
};

/* A set: n phrases (at most 65,535, the ids' range), their bytes in one
 * string, in the order of their first bytes and, among those of one first
 * byte, in the order they are tried (ids keep the data's order); firsts
 * has bit c (of word c / 32)
 * for each byte c a phrase may start with in the text (its first byte;
 * for an apostrophe, also U+2019's first), so that most lines and places
 * are passed over at one look. */
struct phrase_set {
	const char *text;
	const struct phrase *phrases;
	size_t n;
	uint32_t firsts[8];
};

/* The first phrase of set (in its order) that the line s[0..len) starts
 * with after its blanks, or NULL; *end (if not NULL) gets the offset in s
 * just past the phrase. */
const struct phrase *phrase_starts(const struct phrase_set *set,
                                   const char *s, size_t len, size_t *end);

/* The earliest occurrence in s[0..len) of a phrase of set, ignoring ASCII
 * case (the first of the set's order at one place), or NULL; *at (if not
 * NULL) gets its offset in s. */
const struct phrase *phrase_find(const struct phrase_set *set, const char *s,
                                 size_t len, size_t *at);

/*
 * A text searched for many phrases, one at a time (a reply, for the
 * phrases of a provider's entries): folded to ASCII lower case on the
 * first search, so that each phrase is then found by its rarest byte
 * (scan_byte) and compared whole (scan_same), rather than folding every
 * byte for every phrase.  A longer text (rare) is searched folding as it
 * goes, as the copy lives on the caller's stack.
 */
#define PHRASE_FOLD_MAX 1024

struct phrase_text {
	const char *s;
	size_t len;
	int folded; /* 1: low holds s in lower case; 0: not yet; -1: too long */
	unsigned char low[PHRASE_FOLD_MAX];
};

void phrase_text_init(struct phrase_text *t, const char *s, size_t len);

/* Whether the phrase p[0..m), in ASCII lower case, no longer than t and
 * whose byte at rare is its least common in replies, is in t, ignoring
 * ASCII case. */
int phrase_in(struct phrase_text *t, const char *p, size_t m, size_t rare);

/* Sets that mail classification reads, generated from data/bounces/ (a
 * 'phrases:' record each; an absent one is empty). */
extern const struct phrase_set phrases_autoreply_subject; /* prefixes */
extern const struct phrase_set phrases_bounce_from;       /* anywhere */
extern const struct phrase_set phrases_bounce_subject;    /* anywhere */
extern const struct phrase_set phrases_delay_subject;     /* anywhere */
extern const struct phrase_set phrases_guess_end;         /* line starts */
extern const struct phrase_set phrases_guess_header;      /* line starts */
extern const struct phrase_set phrases_address_label;     /* line starts */
extern const struct phrase_set phrases_system_mailbox;    /* prefixes */

#endif
