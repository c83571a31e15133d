/*
 * Parsing of code strings and reply lines.  Bounded by len, never by a NUL,
 * and free of <ctype.h> so that bytes >= 0x80 and the locale cannot matter.
 */
#include <string.h>

#include "smtpcode.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Digits at s[0..end), at most 4 counted; *n gets their count. */
static unsigned read_number(const char *s, const char *end, size_t *n)
{
	unsigned v = 0;
	size_t i = 0;
	while (s + i < end && is_digit(s[i]) && i < 4)
		v = v * 10 + (unsigned)(s[i++] - '0');
	*n = i;
	return v;
}

/*
 * An enhanced code "C.S.D" at p, ending at a space or at end.  On success
 * sets q's enhanced fields and *next to the first byte after the code.
 */
static enum smtpcode_error parse_enhanced(const char *p, const char *end,
                                          struct smtpcode_query *q,
                                          const char **next)
{
	unsigned char cls;
	unsigned part[2];
	size_t n;

	if (*p == 'X' || *p == 'x')
		cls = 0;
	else if (*p == '2' || *p == '4' || *p == '5')
		cls = (unsigned char)(*p - '0');
	else if (is_digit(*p))
		return SMTPCODE_ECLASS;
	else
		return SMTPCODE_ESYNTAX;
	p++;
	for (int i = 0; i < 2; i++) {
		if (p == end || *p != '.')
			return SMTPCODE_EINCOMPLETE;
		p++;
		part[i] = read_number(p, end, &n);
		if (n == 0)
			return SMTPCODE_EINCOMPLETE;
		if (n > 3)
			return SMTPCODE_EDIGITS;
		if (n > 1 && *p == '0')
			return SMTPCODE_EZERO;
		p += n;
	}
	if (p != end && !is_space(*p))
		return SMTPCODE_ETRAILING;
	q->enhanced = true;
	q->cls = cls;
	q->subject = part[0];
	q->detail = part[1];
	*next = p;
	return SMTPCODE_OK;
}

/* Whether p starts an enhanced code rather than a word or a number. */
static int looks_enhanced(const char *p, const char *end)
{
	return end - p >= 2 && p[1] == '.' &&
	       (is_digit(p[0]) || p[0] == 'X' || p[0] == 'x');
}

static void set_text(struct smtpcode_query *q, const char *base,
                     const char *p, const char *end)
{
	while (p < end && is_space(*p))
		p++;
	q->text_off = (size_t)(p - base);
	q->text_len = (size_t)(end - p);
}

enum smtpcode_error smtpcode_parse(const char *s, size_t len,
                                   struct smtpcode_query *q)
{
	const char *p = s, *end = s + len, *next;
	struct smtpcode_query r = {0};
	enum smtpcode_error err;
	size_t n;

	memset(q, 0, sizeof *q);
	while (p < end && is_space(*p))
		p++;
	while (end > p && is_space(end[-1]))
		end--;
	if (p == end)
		return SMTPCODE_EEMPTY;

	if (looks_enhanced(p, end)) {
		err = parse_enhanced(p, end, &r, &next);
		if (err)
			return err;
		set_text(&r, s, next, end);
		*q = r;
		return SMTPCODE_OK;
	}
	if (!is_digit(*p))
		return SMTPCODE_ESYNTAX;

	r.basic = read_number(p, end, &n);
	if (n != 3 || r.basic < 200 || r.basic > 599)
		return SMTPCODE_EBASIC;
	p += n;
	if (p == end) {
		*q = r;
		return SMTPCODE_OK;
	}
	/* A reply line: "452 4.3.1 text", "452-4.3.1 text", "452 text". */
	if (*p != '-' && !is_space(*p))
		return SMTPCODE_ETRAILING;
	p++;
	while (p < end && is_space(*p))
		p++;
	if (looks_enhanced(p, end) &&
	    parse_enhanced(p, end, &r, &next) == SMTPCODE_OK)
		p = next;
	set_text(&r, s, p, end);
	*q = r;
	return SMTPCODE_OK;
}

const char *smtpcode_strerror(enum smtpcode_error err)
{
	switch (err) {
	case SMTPCODE_OK: return "no error";
	case SMTPCODE_EEMPTY: return "empty";
	case SMTPCODE_ESYNTAX: return "not a code";
	case SMTPCODE_EINCOMPLETE: return "incomplete enhanced code";
	case SMTPCODE_ECLASS: return "the class digit must be 2, 4, 5 or X";
	case SMTPCODE_EDIGITS: return "subject and detail take 1 to 3 digits";
	case SMTPCODE_EZERO: return "subject and detail have no leading zeros";
	case SMTPCODE_EBASIC: return "a basic code has three digits, 200 to 599";
	case SMTPCODE_ETRAILING: return "unexpected characters after the code";
	}
	return "unknown error";
}

/* v in decimal at p; returns the end. */
static char *put_number(char *p, unsigned v)
{
	char digits[12];
	size_t n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		*p++ = digits[--n];
	return p;
}

/* By hand rather than with snprintf(): bounces and logs format a code per
 * recipient, and the C library's formatter costs more than the lookup. */
size_t smtpcode_format(const struct smtpcode_query *q, char *buf, size_t size)
{
	char text[40], *p = text;
	size_t n;
	if (q->enhanced) {
		if (q->cls == 0)
			*p++ = 'X';
		else
			p = put_number(p, q->cls);
		*p++ = '.';
		p = put_number(p, q->subject);
		*p++ = '.';
		p = put_number(p, q->detail);
	} else {
		p = put_number(p, q->basic);
	}
	n = (size_t)(p - text);
	if (size) {
		size_t k = n < size ? n : size - 1;
		memcpy(buf, text, k);
		buf[k] = '\0';
	}
	return n;
}
