/*
 * What the log dialects (the .c files of src/logs/) share to read a line fast: byte
 * classes, spans, searches whose needle is a literal, and the taking of a
 * reply and a recipient.  All inline, in a header: each dialect's reader
 * is its own translation unit, and a call per byte class or per search
 * would cost more than the work itself (see logline.c, "Speed").  The
 * non-inline parts are in logline.c.
 */
#ifndef SMTPCODE_LOGSCAN_H
#define SMTPCODE_LOGSCAN_H

#include <string.h>

#include "dialect.h"
#include "logvocab.h"
#include "scan.h"
#include "smtpcode.h"

/* ---- Bytes ---- */

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static inline bool is_alpha(char c) { return is_upper(c) || (c >= 'a' && c <= 'z'); }
static inline bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Part of a word: bytes >= 0x80 are taken as letters (of UTF-8 or of an
 * unknown charset), since nothing tells them from letters cheaply. */
static inline bool is_word(char c)
{
	return is_digit(c) || is_alpha(c) || c == '_' || (unsigned char)c >= 0x80;
}

/* ---- Spans ---- */

static inline struct smtpcode_text span(const char *a, const char *b)
{
	struct smtpcode_text t = {NULL, 0};
	if (a && b > a) {
		t.s = a;
		t.len = (size_t)(b - a);
	}
	return t;
}

static inline void trim(const char **a, const char **b)
{
	while (*a < *b && is_space(**a))
		(*a)++;
	while (*b > *a && is_space((*b)[-1]))
		(*b)--;
}


/*
 * *l with every field absent, which is all zero bytes (NULL, 0, false,
 * SMTPCODE_LOG_NONE; POSIX makes a null pointer all zero bits).  Not one
 * memset() of it all: at this size GCC makes that a string instruction,
 * slow to start, and this runs per line; up to 64 bytes it stores
 * sixteen at a time, half the stores of field by field.
 */
static inline void log_clear(struct smtpcode_logline *l)
{
	char *b = (char *)l;

	_Static_assert(sizeof *l > 128 && sizeof *l <= 192,
	               "log_clear() stores three pieces of 64 bytes at most");
	memset(b, 0, 64);
	memset(b + 64, 0, 64);
	memset(b + 128, 0, sizeof *l - 128);
}

/* ---- Searching ---- */

/*
 * Whether p[0..n) holds lit[0..n).  The searches below are inline so that
 * n is a constant at each place they are used, where the compiler turns
 * scan_same() into a load or two, rather than a call per candidate.  (A
 * function of its own: called directly, cppcheck takes the short literals
 * here for reads past their end on scan_same()'s longer paths.)
 */
static inline bool same(const char *p, const char *lit, size_t n)
{
	return scan_same(p, lit, n);
}

/*
 * The first needle[0..n) in [p, end), or NULL.  scan_pair() runs over
 * needle[k] and needle[j] (k < j) together, which the caller picks as the
 * pair of the needle's bytes least often found so placed in logs (the ':'
 * and '=' of ": to=", the two '*' of " ** "), so the comparisons are few.
 * (memmem() is neither C11 nor POSIX.1-2008, and cannot be told which
 * bytes are rare.)
 */
static inline const char *find(const char *p, const char *end,
                               const char *needle, size_t n, size_t k,
                               size_t j)
{
	const char *hit;

	if (!p || end - p < (ptrdiff_t)n)
		return NULL;
	/* needle[k] at x: the needle starts at x - k and ends by end. */
	for (p += k; (hit = scan_pair(p, end - n + j + 1, needle[k], needle[j],
	                              j - k)) != NULL;
	     p = hit + 1)
		/* Two bytes (", "): scan_pair() has compared them both. */
		if (n == 2 || same(hit - k, needle, n))
			return hit - k;
	return NULL;
}

/*
 * The last needle[0..n) in [p, end), or NULL: searched backwards from
 * end, as the needles looked for so (" (in reply to ", " from ") sit near
 * the end of what they are looked for in; needle[k] is the byte looked
 * at first, the rarest.
 */
static inline const char *find_last(const char *p, const char *end,
                                    const char *needle, size_t n, size_t k)
{
	const char *hit, *stop = end - n + k + 1; /* needle[k] before stop */

	if (!p || end - p < (ptrdiff_t)n)
		return NULL;
	for (; (hit = scan_last(p + k, stop, needle[k])) != NULL; stop = hit)
		if (same(hit - k, needle, n))
			return hit - k;
	return NULL;
}

/* For string literals: the needle's length is known at compile time. */
#define FIND(p, end, lit, k, j) \
	find((p), (end), (lit), sizeof(lit) - 1, (k), (j))
#define FIND_LAST(p, end, lit, k) \
	find_last((p), (end), (lit), sizeof(lit) - 1, (k))
#define STARTS(p, end, lit) starts((p), (end), (lit), sizeof(lit) - 1)

/* The first w (a data record's word, dialect.h) in [p, end), or NULL. */
static inline const char *find_word(const char *p, const char *end,
                                    const struct log_word *w)
{
	if (w->len == 1)
		return scan_byte(p, end, w->s[0]);
	/* Its first and last bytes, then the rest at their hits. */
	return find(p, end, w->s, w->len, 0, (size_t)w->len - 1u);
}

static inline bool starts(const char *p, const char *end, const char *lit,
                          size_t n)
{
	return end - p >= (ptrdiff_t)n && same(p, lit, n);
}

/* Just after needle in [p, end), or NULL. */
static inline const char *after(const char *p, const char *end,
                                const char *needle, size_t n, size_t k,
                                size_t j)
{
	const char *hit = find(p, end, needle, n, k, j);
	return hit ? hit + n : NULL;
}
#define AFTER(p, end, lit, k, j) \
	after((p), (end), (lit), sizeof(lit) - 1, (k), (j))


/* Length of an enhanced code of rule 1 at c (c[1] is a dot), or 0.  Its
 * detail's digits are looked at one by one, not in a loop: nearly every
 * detail has one. */
static inline size_t enhanced_length(const char *c, const char *end)
{
	const char *d = c + 4;

	if (end - c < 5 || (c[0] != '2' && c[0] != '4' && c[0] != '5') ||
	    c[2] < '0' || c[2] > '7' || c[3] != '.' || !is_digit(d[0]))
		return 0;
	if (d + 1 == end || !is_digit(d[1]))
		return 5;
	if (d[0] == '0') /* a leading zero */
		return 0;
	if (d + 2 == end || !is_digit(d[2]))
		return 6;
	if (d + 3 == end || !is_digit(d[3]))
		return 7;
	return 0; /* four digits or more */
}
/* ---- Replies ---- */

/*
 * The reply [a, b) (trimmed) when it has the usual shape, "452 4.3.1
 * text" or "550-5.7.1 text" with a code of rule 1: its codes, as
 * smtpcode_parse() reads them, taken here for speed, since every line
 * with a reply has one.  False for any other shape, which
 * smtpcode_parse() then reads.  (Forced inline: GCC otherwise made it a
 * call of its own once take_reply() was split.)
 */
static ALWAYS_INLINE bool usual_reply(const char *a, const char *b,
                                      struct smtpcode_query *q)
{
	const char *c = a + 4, *t;
	unsigned detail = 0;
	size_t n;

	if (b - a < 9 || a[0] < '2' || a[0] > '5' || !is_digit(a[1]) ||
	    !is_digit(a[2]) || (a[3] != ' ' && a[3] != '-') || c[1] != '.')
		return false;
	n = enhanced_length(c, b);
	if (n == 0 || (c + n < b && !is_space(c[n])))
		return false;
	for (t = c + 4; t < c + n; t++)
		detail = detail * 10 + (unsigned)(*t - '0');
	if (t < b) /* past c[n], white space as checked above */
		t++;
	while (t < b && is_space(*t))
		t++;
	*q = (struct smtpcode_query){0};
	q->basic = (unsigned)(a[0] - '0') * 100 + (unsigned)(a[1] - '0') * 10 +
	           (unsigned)(a[2] - '0');
	q->enhanced = true;
	q->cls = (unsigned char)(c[0] - '0');
	q->subject = (unsigned)(c[2] - '0');
	q->detail = detail;
	q->text_off = (size_t)(t - a);
	q->text_len = (size_t)(b - t);
	return true;
}

/*
 * The reply [a, b) (trimmed, not empty) of a shape usual_reply() does not
 * read: what smtpcode_parse() reads in it, else the first code the
 * free-text policy accepts in it.  smtpcode_parse() reads only what
 * starts with a digit or an X: Postfix's own words ("connect to ...:
 * Connection timed out") go straight to the free-text search.  Not
 * inlined: its locals, whose addresses are passed on, would give every
 * line with a reply a stack-protector check.
 */

/* ---- Replies and recipients (the non-inline parts are in logline.c) ---- */

/* The reply [a, b) (trimmed, not empty) of a shape usual_reply() does not
 * read: see logline.c. */
void log_take_other_reply(struct smtpcode_logline *l, const char *a,
                          const char *b);
/* A recipient as written, <> removed, and its domain. */
void log_take_recipient(struct smtpcode_logline *l, const char *a,
                        const char *b);


/*
 * The reply in [a, b): a reply line starting there ("452 4.3.1 text",
 * "550 text"), else the first code the free-text policy accepts in it.
 * The reply is left absent when it holds no code.  The usual shape is
 * read into l->code in place (usual_reply() writes nothing when it fails).
 */
static inline void take_reply(struct smtpcode_logline *l, const char *a,
                              const char *b)
{
	if (a >= b)
		return;
	trim(&a, &b);
	if (a == b)
		return;
	if (usual_reply(a, b, &l->code))
		l->reply = span(a, b);
	else
		log_take_other_reply(l, a, b);
}

/*
 * take_reply(), and, when [a, b) holds no code, its words as the reply
 * (the code left absent): the dialects' own wordings ("unknown user",
 * "Unrouteable address", "Connection timed out") are what a caller
 * classifies such a line by (smtpcode.h, struct smtpcode_logline).  A
 * text in quotes loses them: they are the log's, not the reply's.
 */
static inline void take_reply_or_words(struct smtpcode_logline *l,
                                       const char *a, const char *b)
{
	trim(&a, &b);
	if (b - a >= 2 && (*a == '"' || *a == '\'') && b[-1] == *a) {
		a++;
		b--;
	}
	take_reply(l, a, b);
	if (!l->reply.len)
		l->reply = span(a, b);
}

/*
 * The fixed stage word of the step [p, e) a delivery line names: nearly
 * always one of the few compared here by length and bytes, a load or two
 * each, as this runs for most delivery lines (Postfix's "(in reply to
 * RCPT TO command)", Exim's "after end of data:"); any other is left to
 * log_stage_of().
 */
static inline struct smtpcode_text stage_word(const char *p, const char *e)
{
	switch (e - p) {
	case 4:
		if (same(p, "DATA", 4))
			return LOG_WORD(LOG_STAGE_DATA);
		break;
	case 7:
		if (same(p, "RCPT TO", 7))
			return LOG_WORD(LOG_STAGE_RCPT);
		break;
	case 9:
		if (same(p, "MAIL FROM", 9))
			return LOG_WORD(LOG_STAGE_MAIL);
		break;
	case 11:
		if (same(p, "end of DATA", 11) || same(p, "end of data", 11))
			return LOG_WORD(LOG_STAGE_END_OF_DATA);
		break;
	}
	return log_stage_of(p, e);
}

/* The recipient [a, b), <> removed; its domain after at, its last '@'
 * (NULL when it has none). */
static inline void take_address_at(struct smtpcode_logline *l, const char *a,
                                   const char *at, const char *b)
{
	l->recipient = span(a, b);
	/* A later to= without an '@' must not keep an earlier one's domain. */
	l->domain = at ? span(at + 1, b) : span(b, b);
}

/* The recipient [a, b), <> removed; its domain after the last '@'. */
static inline void take_address(struct smtpcode_logline *l, const char *a,
                                const char *b)
{
	take_address_at(l, a, scan_last(a, b, '@'), b);
}


#endif
