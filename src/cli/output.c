/*
 * Text output for the CLI: buffered writes to stdout whose failure is
 * reported at exit, paragraphs wrapped to a width, and control characters
 * from untrusted text made visible instead of reaching the terminal.
 */
/* F_SETPIPE_SZ (Linux) is outside POSIX: see out_grow_pipe(). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "output.h"
#include "utf8.h"

static unsigned width; /* 0: do not wrap */
static bool color;

void out_set_width(unsigned w)
{
	width = w;
}

bool out_wrapping(void)
{
	return width != 0;
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
static int oerr;    /* errno of the first failed write */
static bool nomem;  /* memory ran out: output is missing */

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

/* s[0..n) to stdout through the buffer, whether this thread captures or
 * not. */
static void buffer_write(const char *s, size_t n)
{
	if (n > sizeof obuf - olen) {
		flush_buffer();
		if (n > sizeof obuf) {
			write_all(s, n);
			return;
		}
	}
	copy_bytes(obuf + olen, s, n);
	olen += n;
}

void out_no_memory(void)
{
	nomem = true;
}

/*
 * A thread's output held in memory instead: the log modes' workers each
 * render a slice of a log so, for the output to be written in the order
 * of the slices (logs.c).
 */
_Thread_local struct out_capture *out_capturing;

void out_capture_begin(struct out_capture *c)
{
	c->len = 0;
	out_capturing = c;
}

void out_capture_end(void)
{
	out_capturing = NULL;
}

void out_capture_free(struct out_capture *c)
{
	free(c->text);
	c->text = NULL;
	c->len = c->size = 0;
}

/* Room for n more bytes in c, made (c has less): where they go, or NULL
 * when there is none.  A capture with a drain is emptied, and has none
 * for more than its size; any other grows, or fails when memory runs
 * out. */
static char *capture_grow(struct out_capture *c, size_t n)
{
	size_t size = c->size ? c->size : sizeof obuf;
	char *text;
	if (c->drain) {
		c->drain(c);
		return n <= c->size ? c->text : NULL;
	}
	while (n > size - c->len)
		size *= 2;
	if (c->failed || !(text = realloc(c->text, size))) {
		c->failed = true;
		return NULL;
	}
	c->text = text;
	c->size = size;
	return text + c->len;
}

/* Room for n more bytes in c, made when need be: where they go, or NULL
 * (the test apart, inline: output.h's out_reserve() makes it too). */
static inline char *capture_room(struct out_capture *c, size_t n)
{
	return n <= c->size - c->len ? c->text + c->len : capture_grow(c, n);
}

/* Output longer than a capture with a drain: it was drained (this thread
 * may write to stdout), and the rest goes there directly. */
static void write_past(const char *s, size_t n)
{
	flush_buffer();
	write_all(s, n);
}

static void capture_write(struct out_capture *c, const char *s, size_t n)
{
	char *d;
	if (!n) /* c may have no memory yet */
		return;
	if ((d = capture_room(c, n)) != NULL) {
		copy_bytes(d, s, n);
		c->len += n;
	} else if (c->drain) {
		write_past(s, n);
	}
}

/*
 * The log modes write tens of megabytes: when stdout is a pipe, a larger
 * one (1 MiB, Linux's default limit for a user, against 64 KiB) lets the
 * writer hand a block's output to the reader at the other end in a few
 * turns, not dozens, each a wake-up of both.  Where the system has no
 * such call, or refuses, the pipe stays as it is.
 */
void out_grow_pipe(void)
{
#ifdef F_SETPIPE_SZ
	struct stat st;
	if (fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
#endif
}

/* Writes c's output (from one thread at a time): a log mode's (with a
 * drain) or a large one directly, not copied into the buffer first. */
void out_capture_write(const struct out_capture *c)
{
	if (c->failed)
		nomem = true;
	if (c->drain || c->len >= sizeof obuf / 2)
		write_past(c->text, c->len);
	else if (c->len) /* c->text may be NULL then */
		buffer_write(c->text, c->len);
}

void out_write(const char *s, size_t n)
{
	if (!n) /* s may be NULL then (an empty capture) */
		return;
	if (out_capturing)
		capture_write(out_capturing, s, n);
	else
		buffer_write(s, n);
}

/* out_reserve() when not into a capture with the room. */
char *out_reserve_more(size_t n)
{
	if (out_capturing)
		return capture_room(out_capturing, n);
	if (n > sizeof obuf)
		return NULL;
	if (n > sizeof obuf - olen)
		flush_buffer();
	return obuf + olen;
}

/* out_commit() when not into a capture. */
void out_commit_more(size_t n)
{
	olen += n;
}

static void out_char(char c)
{
	if (out_capturing) {
		capture_write(out_capturing, &c, 1);
		return;
	}
	if (olen == sizeof obuf)
		flush_buffer();
	obuf[olen++] = c;
}

/* What fmt and ap make, written whole: in memory of its own, as it is
 * longer than the buffer or the capture it goes to. */
__attribute__((format(printf, 2, 0)))
static void printf_long(size_t n, const char *fmt, va_list ap)
{
	char *big = malloc(n + 1);
	if (!big) {
		nomem = true;
		return;
	}
	format_v(big, n + 1, fmt, ap);
	out_write(big, n);
	free(big);
}

void out_printf(const char *fmt, ...)
{
	struct out_capture *c = out_capturing;
	va_list ap;
	int n;
	char *d;
	if (c) { /* measured, then formatted in place */
		va_start(ap, fmt);
		n = format_v(NULL, 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		va_start(ap, fmt);
		if ((d = capture_room(c, (size_t)n + 1)) != NULL) {
			format_v(d, (size_t)n + 1, fmt, ap);
			c->len += (size_t)n;
		} else if (c->drain) {
			printf_long((size_t)n, fmt, ap);
		}
		va_end(ap);
		return;
	}
	va_start(ap, fmt);
	n = format_v(obuf + olen, sizeof obuf - olen, fmt, ap);
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
	va_start(ap, fmt);
	if ((size_t)n < sizeof obuf) {
		format_v(obuf, sizeof obuf, fmt, ap);
		olen = (size_t)n;
	} else {
		printf_long((size_t)n, fmt, ap);
	}
	va_end(ap);
}

#ifdef SCAN_SSE2
/* Bit i set when byte i of the sixteen at at is not plain. */
static inline unsigned not_plain16(const char *at)
{
	return (unsigned)_mm_movemask_epi8(out_plain16(scan_load(at))) ^ 0xffffu;
}
#endif

/* The first byte of s[i..n) that is not plain (out_plain()), or n:
 * sixteen bytes a step where SSE2 is, the last step overlapping. */
static size_t plain_end(const char *s, size_t i, size_t n)
{
#ifdef SCAN_SSE2
	unsigned bad;
	for (; n - i >= 16; i += 16)
		if ((bad = not_plain16(s + i)) != 0)
			return i + (size_t)__builtin_ctz(bad);
	if (i < n && n >= 16) {
		const char *q = scan_rest(s + i, s + n, not_plain16(s + n - 16));
		return q ? (size_t)(q - s) : n;
	}
#endif
	while (i < n && out_plain(s[i]))
		i++;
	return i;
}

size_t out_escape_at(const char *s, size_t n, size_t i, char *esc,
                     size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s + i;
	size_t k;
	uint32_t c;

	*used = 1;
	if (*u == '\\') {
		memcpy(esc, "\\\\", 2);
		return 2;
	}
	if (out_plain((char)*u))
		return 0;
	if (*u >= 0x80 && (k = utf8_len(u, n - i)) != 0) {
		*used = k;
		if (!utf8_steers(c = utf8_point(u, k)))
			return 0;
		memcpy(esc, "\\u", 2);
		for (int d = 0; d < 4; d++)
			esc[2 + d] = hex[(c >> (12 - 4 * d)) & 15];
		return 6;
	}
	memcpy(esc, "\\x", 2);
	esc[2] = hex[*u >> 4];
	esc[3] = hex[*u & 15];
	return 4;
}

/* s[0..n) to fp: stdout through this file's buffer, else through
 * stdio. */
static void put_to(FILE *fp, const char *s, size_t n)
{
	if (fp == stdout)
		out_write(s, n);
	else
		fwrite(s, 1, n, fp);
}

void out_escaped(FILE *fp, const char *s, size_t n)
{
	size_t from = 0; /* where the bytes not yet written begin */
	if (n == 0) /* s may be NULL then: an empty field */
		return;
	for (size_t i = 0; (i = plain_end(s, i, n)) < n;) {
		char esc[8];
		size_t k, len = out_escape_at(s, n, i, esc, &k);
		if (len) {
			put_to(fp, s + from, i - from);
			put_to(fp, esc, len);
			from = i + k;
		}
		i += k;
	}
	put_to(fp, s + from, n - from);
}

/* Text of a paragraph: the input's escaped, the table's as it is (the
 * generator refuses control characters and bytes that are not UTF-8). */
static void put_text(const char *s, size_t n, int untrusted)
{
	if (untrusted)
		out_escaped(stdout, s, n);
	else
		out_write(s, n);
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

/* Length of the next word of p[0..n): up to a space, or (in the table's
 * own text, not untrusted input) a newline. */
static size_t word_len(const char *p, size_t n, int untrusted)
{
	size_t i = 0;
	while (i < n && p[i] != ' ' && (untrusted || p[i] != '\n'))
		i++;
	return i;
}

/*
 * Print text[0..n) as a paragraph: the first line starts with lead
 * (already "indent" columns wide, or shorter and padded), later lines are
 * indented by indent.  Words wrap at the width.  A newline in the table's
 * text starts a new line; in untrusted input it is shown as \x0a, like
 * every control character.
 */
static void para(const char *lead, unsigned indent, const char *text,
                 size_t n, int untrusted)
{
	size_t col = columns(lead, strlen(lead));
	const char *p = text, *end = text + n;
	int fresh = 1; /* at the start of a line: no space before a word */

	out_str(lead);
	if (col < indent) {
		indent_by(indent - (unsigned)col);
		col = indent;
	}
	if (!width) { /* not wrapping: no word by word, one line a paragraph */
		while (p < end) {
			const char *nl = untrusted ? NULL : scan_byte(p, end, '\n');
			size_t k = nl ? (size_t)(nl - p) : (size_t)(end - p);
			put_text(p, k, untrusted);
			p += k;
			if (p < end) { /* a newline of the table's own text */
				out_char('\n');
				indent_by(indent);
				p++;
			}
		}
		out_char('\n');
		return;
	}
	while (p < end) {
		size_t k = word_len(p, (size_t)(end - p), untrusted);
		size_t w = columns(p, k);
		if (k == 0) {
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
		put_text(p, k, untrusted);
		col += w;
		p += k;
		fresh = 0;
	}
	out_char('\n');
}

void out_para(const char *lead, unsigned indent, const char *text)
{
	para(lead, indent, text, strlen(text), 0);
}

void out_para_untrusted(const char *lead, unsigned indent, const char *s,
                        size_t n)
{
	para(lead, indent, s, n, 1);
}

int out_flush(void)
{
	flush_buffer();
	return oerr ? -1 : 0;
}

int out_finish(void)
{
	flush_buffer();
	if (!oerr && close(STDOUT_FILENO) != 0 && errno != EBADF)
		oerr = errno;
	if (oerr)
		errno = oerr;
	return oerr ? 1 : nomem ? 2 : 0;
}
