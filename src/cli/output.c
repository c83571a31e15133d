/*
 * Text output for the CLI: buffered writes to stdout whose failure is
 * reported at exit, paragraphs wrapped to a width, and control characters
 * from untrusted text made visible instead of reaching the terminal.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"

static unsigned width; /* 0: do not wrap */
static bool color;

void out_set_width(unsigned w)
{
	width = w;
}

void out_set_color(bool on)
{
	color = on;
}

const char *out_sgr(enum sgr s)
{
	static const char *const seq[] = {
		[SGR_RESET] = "\033[0m", [SGR_BOLD] = "\033[1m",
		[SGR_RED] = "\033[31m", [SGR_GREEN] = "\033[32m",
		[SGR_YELLOW] = "\033[33m",
	};
	return color ? seq[s] : "";
}

/*
 * Our own buffer over write(2) rather than stdio: output is the hot path
 * of the log modes, and a failed write must be seen, remembered and
 * reported at the end, however much came after it.
 */
static char obuf[1 << 16];
static size_t olen;
static int oerr; /* errno of the first failed write */

static void write_all(const char *s, size_t n)
{
	while (n && !oerr) {
		ssize_t w = write(STDOUT_FILENO, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			oerr = errno;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

static void flush_buffer(void)
{
	write_all(obuf, olen);
	olen = 0;
}

void out_write(const char *s, size_t n)
{
	if (n > sizeof obuf - olen) {
		flush_buffer();
		if (n > sizeof obuf) {
			write_all(s, n);
			return;
		}
	}
	memcpy(obuf + olen, s, n);
	olen += n;
}

void out_str(const char *s)
{
	out_write(s, strlen(s));
}

static void out_char(char c)
{
	if (olen == sizeof obuf)
		flush_buffer();
	obuf[olen++] = c;
}

void out_printf(const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(obuf + olen, sizeof obuf - olen, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof obuf - olen) {
		olen += (size_t)n;
		return;
	}
	/* It did not fit: flush, and format again into the whole buffer,
	 * or (longer than that) into memory of its own. */
	flush_buffer();
	if ((size_t)n < sizeof obuf) {
		va_start(ap, fmt);
		vsnprintf(obuf, sizeof obuf, fmt, ap);
		va_end(ap);
		olen = (size_t)n;
	} else {
		char *big = malloc((size_t)n + 1);
		if (!big) {
			oerr = ENOMEM;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		write_all(big, (size_t)n);
		free(big);
	}
}

/* Whether any of the 8 bytes of w is a control character (below 0x20, or
 * 0x7f): the classic "has a byte less than n" and "has a zero byte" tests
 * on a whole word, so plain text goes 8 bytes a step. */
static int has_control(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t del = w ^ (ones * 0x7f);
	return (((w - ones * 0x20) & ~w) | ((del - ones) & ~del)) & highs ? 1 : 0;
}

void out_escaped(FILE *fp, const char *s, size_t n)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char hex[8];
		uint64_t w;
		if (i + 8 <= n) {
			memcpy(&w, s + i, 8);
			if (!has_control(w)) {
				run += 8;
				i += 7;
				continue;
			}
		}
		if (c >= 0x20 && c != 0x7f) {
			run++;
			continue;
		}
		snprintf(hex, sizeof hex, "\\x%02x", c);
		if (fp == stdout) {
			out_write(s + i - run, run);
			out_str(hex);
		} else {
			fwrite(s + i - run, 1, run, fp);
			fputs(hex, fp);
		}
		run = 0;
	}
	if (fp == stdout)
		out_write(s + n - run, run);
	else
		fwrite(s + n - run, 1, run, fp);
}

static void put_safe(const char *s, size_t n)
{
	out_escaped(stdout, s, n);
}

/* Display columns of s[0..n): UTF-8 continuation bytes and our own
 * colour sequences take none. */
static size_t columns(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\033') {
			while (i < n && s[i] != 'm')
				i++;
			continue;
		}
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	}
	return c;
}

static void indent_by(unsigned n)
{
	while (n--)
		out_char(' ');
}

/*
 * Print text as a paragraph: the first line starts with lead (already
 * "indent" columns wide, or shorter and padded), later lines are indented
 * by indent.  Words wrap at the width; a "\n" in text starts a new line.
 */
void out_para(const char *lead, unsigned indent, const char *text)
{
	size_t col = columns(lead, strlen(lead));
	const char *p = text;
	int fresh = 1; /* at the start of a line: no space before a word */

	out_str(lead);
	if (col < indent) {
		indent_by(indent - (unsigned)col);
		col = indent;
	}
	if (!width) { /* not wrapping: each paragraph is one line */
		for (;;) {
			size_t n = strcspn(p, "\n");
			put_safe(p, n);
			if (!p[n])
				break;
			out_char('\n');
			indent_by(indent);
			p += n + 1;
		}
		out_char('\n');
		return;
	}
	while (*p) {
		size_t n = strcspn(p, " \n"), w = columns(p, n);
		if (n == 0) {
			if (*p == '\n') {
				out_char('\n');
				indent_by(indent);
				col = indent;
				fresh = 1;
			}
			p++;
			continue;
		}
		if (!fresh && width && col + 1 + w > width) {
			out_char('\n');
			indent_by(indent);
			col = indent;
			fresh = 1;
		}
		if (!fresh) {
			out_char(' ');
			col++;
		}
		put_safe(p, n);
		col += w;
		p += n;
		fresh = 0;
	}
	out_char('\n');
}

/* Like out_para for text of known length from the input (not the table). */
void out_para_untrusted(const char *lead, unsigned indent, const char *s,
                        size_t n)
{
	char buf[1024];
	size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
	memcpy(buf, s, k);
	buf[k] = '\0';
	/* Bytes after a NUL are still shown, as \x00 and the rest. */
	if (memchr(s, '\0', k)) {
		out_str(lead);
		indent_by(indent > strlen(lead) ? indent - (unsigned)strlen(lead) : 0);
		put_safe(s, k);
		out_char('\n');
	} else {
		out_para(lead, indent, buf);
	}
	if (k < n)
		out_printf("%*s(%zu more bytes not shown)\n", (int)indent, "", n - k);
}

int out_finish(void)
{
	flush_buffer();
	if (!oerr && close(STDOUT_FILENO) != 0 && errno != EBADF)
		oerr = errno;
	if (oerr)
		errno = oerr;
	return oerr != 0;
}
