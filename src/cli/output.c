/*
 * Text output for the CLI: buffered writes to stdout whose failure is
 * reported at exit, paragraphs wrapped to a width, and control characters
 * from untrusted text made visible instead of reaching the terminal.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

void out_str(const char *s)
{
	fputs(s, stdout);
}

void out_write(const char *s, size_t n)
{
	if (n)
		fwrite(s, 1, n, stdout);
}

void out_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
}

/* Write s[0..n) with control characters and DEL shown as \xHH, and
 * invalid UTF-8 bytes likewise, so no escape sequence reaches a terminal. */
void out_escaped(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\x%02x", c);
		else
			putc(c, fp);
	}
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
		putchar(' ');
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
	while (*p) {
		size_t n = strcspn(p, " \n"), w = columns(p, n);
		if (n == 0) {
			if (*p == '\n') {
				putchar('\n');
				indent_by(indent);
				col = indent;
				fresh = 1;
			}
			p++;
			continue;
		}
		if (!fresh && width && col + 1 + w > width) {
			putchar('\n');
			indent_by(indent);
			col = indent;
			fresh = 1;
		}
		if (!fresh) {
			putchar(' ');
			col++;
		}
		put_safe(p, n);
		col += w;
		p += n;
		fresh = 0;
	}
	putchar('\n');
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
		putchar('\n');
	} else {
		out_para(lead, indent, buf);
	}
	if (k < n)
		out_printf("%*s(%zu more bytes not shown)\n", (int)indent, "", n - k);
}

int out_finish(void)
{
	int bad = fflush(stdout) != 0 || ferror(stdout);
	return fclose(stdout) != 0 || bad;
}
