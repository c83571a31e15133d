/*
 * The program that wrote a log line, from its syslog tag, and the data
 * dialects (data/logs/) whose records name that program: asked of every
 * line that holds no code (logline.c), most of a log's lines, so it is
 * built for speed, apart from the fields engine (fields.c) it leads to.
 */
#include "dialect.h"
#include "logscan.h"

/* The end of splogger's stamp ("1157520813.485077 ", seconds and
 * microseconds) at p, or NULL when none is there. */
static const char *after_stamp(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && is_digit(*q))
		q++;
	if (q == p || q >= end || *q++ != '.' || q >= end || !is_digit(*q))
		return NULL;
	while (q < end && is_digit(*q))
		q++;
	return q < end && *q == ' ' ? q + 1 : NULL;
}

/* The tag whose ':' is at b, in [s, b): see program_of(). */
static const char *tag_before(const char *s, const char *b, const char **a)
{
	const char *p;
	size_t n;

	if (b > s && b[-1] == ']' && (p = scan_last(s, b, '[')) != NULL)
		b = p;
	p = (p = scan_last(s, b, ' ')) != NULL ? p + 1 : s;
	if (p < b && is_digit(*p) && p - s >= 2) {
		for (n = 0; p + n < b && is_digit(p[n]); n++)
			;
		if (p + n == b) {
			b = p - 1;
			p = (p = scan_last(s, b, ' ')) != NULL ? p + 1 : s;
		}
	}
	*a = p;
	return b;
}

/*
 * The program that wrote line [s, end), [*a, returned end): its syslog
 * tag, the word before the line's first ": " ("courieresmtpd:",
 * "haraka[123]:", its pid dropped), or, when that word is a number
 * (multilog's "delivery 42:"), the word before it; NULL when there is
 * none.  A program logging through splogger has its tag, then a stamp,
 * then its own name ("qmail: 1157520813.485077 rblsmtpd: 192.0.2.7 pid
 * 42: 451 ..."): that name is the program then.  Looked for within the
 * line's first 128 bytes: a scan of a short prefix, then the short walk
 * back over the tag.
 */
static const char *program_of(const char *s, const char *end, const char **a)
{
	const char *lim = end - s > 128 ? s + 128 : end;
	const char *b = scan_pair(s, lim, ':', ' ', 1), *r, *c;

	if (!b)
		return NULL;
	if ((r = after_stamp(b + 2, lim)) != NULL &&
	    (c = scan_pair(r, lim, ':', ' ', 1)) != NULL) {
		s = r;
		b = c;
	}
	return tag_before(s, b, a);
}

/* The data dialects whose records name program [a, b), as the mask of
 * table_programs (bit i: table_dialects[i]), 0 when none does.  Most
 * lines' tags are passed by the generator's masks of the programs'
 * lengths and first bytes; the rest are compared length first. */
static uint32_t dialects_of_program(const char *a, const char *b)
{
	size_t n = (size_t)(b - a);
	unsigned char c;

	if (n == 0 || n >= 64 || !(table_program_lengths >> n & 1u))
		return 0;
	c = (unsigned char)*a;
	if (!(table_program_firsts[c >> 3] >> (c & 7) & 1u))
		return 0;
	for (size_t i = 0; i < table_nprograms; i++)
		if (table_programs[i].name.len == n &&
		    scan_same(table_programs[i].name.s, a, n))
			return table_programs[i].dialects;
	return 0;
}

/* The data dialects whose programs wrote line [s, end): see dialect.h. */
uint32_t log_program_dialects(const char *s, const char *end)
{
	const char *a = NULL, *b = program_of(s, end, &a);

	return b ? dialects_of_program(a, b) : 0;
}

