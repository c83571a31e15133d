/*
 * A subset of snprintf() (format.h): %s (with a width, and '-' to pad on
 * the right), %u, %d, %zu, %lu and %%; anything else goes to vsnprintf().
 */
#include <stdio.h>
#include <string.h>

#include "format.h"

struct sink {
	char *buf;
	size_t size, len; /* len: what the whole result takes so far */
};

static void put(struct sink *k, const char *s, size_t n)
{
	if (k->len + 1 < k->size) {
		size_t room = k->size - 1 - k->len;
		memcpy(k->buf + k->len, s, n < room ? n : room);
	}
	k->len += n;
}

static void pad(struct sink *k, size_t n)
{
	while (n--)
		put(k, " ", 1);
}

static void number(struct sink *k, unsigned long long v, int negative)
{
	char d[24];
	size_t i = sizeof d;
	do
		d[--i] = (char)('0' + v % 10);
	while (v /= 10);
	if (negative)
		d[--i] = '-';
	put(k, d + i, sizeof d - i);
}

/* Whether the conversion at p (after the '%', flag and width) is of the
 * subset. */
static int known(const char *p, size_t width)
{
	if (*p == 's')
		return 1;
	if (width)
		return 0;
	return *p == 'u' || *p == 'd' || *p == '%' ||
	       ((*p == 'z' || *p == 'l') && p[1] == 'u');
}

int format_v(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink k = {buf, size, 0};
	const char *p = fmt;
	va_list again;
	int n;

	va_copy(again, ap);
	while (*p) {
		const char *pct = strchr(p, '%'), *s;
		int left = 0, v;
		size_t width = 0, len;
		if (!pct) {
			put(&k, p, strlen(p));
			break;
		}
		put(&k, p, (size_t)(pct - p));
		p = pct + 1;
		if (*p == '-') {
			left = 1;
			p++;
		}
		while (*p >= '0' && *p <= '9')
			width = width * 10 + (size_t)(*p++ - '0');
		if (!known(p, width)) {
			n = vsnprintf(buf, size, fmt, again);
			va_end(again);
			return n;
		}
		switch (*p) {
		case 's':
			s = va_arg(ap, const char *);
			len = strlen(s);
			if (!left && len < width)
				pad(&k, width - len);
			put(&k, s, len);
			if (left && len < width)
				pad(&k, width - len);
			break;
		case 'u':
			number(&k, va_arg(ap, unsigned), 0);
			break;
		case 'd':
			v = va_arg(ap, int);
			number(&k, v < 0 ? 0u - (unsigned long long)v
			                 : (unsigned long long)v, v < 0);
			break;
		case 'z':
			number(&k, va_arg(ap, size_t), 0);
			p++;
			break;
		case 'l':
			number(&k, va_arg(ap, unsigned long), 0);
			p++;
			break;
		default: /* '%' */
			put(&k, "%", 1);
			break;
		}
		p++;
	}
	va_end(again);
	if (size)
		buf[k.len < size ? k.len : size - 1] = '\0';
	return (int)k.len;
}

int format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = format_v(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
