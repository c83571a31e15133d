/*
 * The data format of data/ (data/README.md), shared by the generator,
 * which compiles data/ at build time, and the command, which reads a
 * site's rules files (--rules) in the same format at run time: so that
 * both read a line, and judge a phrase or a marker, the same way.
 */
#ifndef SMTPCODE_DATAFMT_H
#define SMTPCODE_DATAFMT_H

#include <stddef.h>

enum datafmt_line {
	DATAFMT_BLANK,        /* ends a record */
	DATAFMT_COMMENT,      /* "#" in the first column */
	DATAFMT_CONTINUATION, /* indented: more of the last field's value */
	DATAFMT_FIELD,        /* "key: value" */
	DATAFMT_ERROR         /* why says what is wrong */
};

struct datafmt_field {
	const char *key;   /* DATAFMT_FIELD: the key, keylen bytes */
	size_t keylen;
	const char *value; /* the value (a continuation's text), to the
	                      line's end */
};

/* What the line s[0..n) is (its newline left out); a field's key and
 * value, or a continuation's text, into *f.  DATAFMT_ERROR with the
 * message in why[0..size): a NUL or other control byte, a byte that is
 * not UTF-8, no "key:", an empty value. */
enum datafmt_line datafmt_line(const char *s, size_t n,
                               struct datafmt_field *f, char *why,
                               size_t size);

/* The limits of a reason's phrase (data/reasons/): shorter ones match by
 * accident (and the matcher buckets by four bytes); longer ones are a
 * paragraph, not a fragment of a reply. */
#define DATAFMT_WORDING_MIN 4
#define DATAFMT_WORDING_MAX 80

/* Why p cannot be a reason's phrase, or NULL when it can. */
const char *datafmt_wording_problem(const char *p);

/* c in ASCII lower case, as the matchers fold what they compare. */
static inline int datafmt_fold(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
}

/* Whether a and b are one phrase to the matchers and the search (ASCII
 * case aside): a list holds a phrase once. */
int datafmt_same_phrase(const char *a, const char *b);

/* Why s cannot be a marker or a match fragment (3 to 80 characters, no
 * blank at its end), or NULL when it can. */
const char *datafmt_fragment_problem(const char *s);

#endif
