/* Text output for the CLI: see output.c. */
#ifndef SMTPCODE_OUTPUT_H
#define SMTPCODE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>

#include "scan.h"

/* d[0..n) = s[0..n).  A record's pieces are a few to a hundred bytes,
 * where a call of memcpy() costs more than the copy (musl's starts a
 * string instruction): fixed-size copies, which compile to moves, the
 * last one overlapping. */
static inline void copy_bytes(char *d, const char *s, size_t n)
{
	uint64_t a, b;
	if (n > 128) {
		memcpy(d, s, n);
	} else if (n >= 16) { /* sixteen bytes a step */
#ifdef SCAN_SSE2
		for (size_t i = 0; i + 16 < n; i += 16)
			_mm_storeu_si128((__m128i *)(void *)(d + i), scan_load(s + i));
		_mm_storeu_si128((__m128i *)(void *)(d + n - 16), scan_load(s + n - 16));
#else
		for (size_t i = 0; i + 16 < n; i += 16) {
			memcpy(&a, s + i, 8);
			memcpy(&b, s + i + 8, 8);
			memcpy(d + i, &a, 8);
			memcpy(d + i + 8, &b, 8);
		}
		memcpy(&a, s + n - 16, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d + n - 16, &a, 8);
		memcpy(d + n - 8, &b, 8);
#endif
	} else if (n >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t c, e;
		memcpy(&c, s, 4);
		memcpy(&e, s + n - 4, 4);
		memcpy(d, &c, 4);
		memcpy(d + n - 4, &e, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	}
}

void out_set_width(unsigned width);
/* Whether paragraphs wrap (a width was set). */
bool out_wrapping(void);

/* Colour, for the text output on a terminal only. */
enum sgr { SGR_RESET, SGR_BOLD, SGR_RED, SGR_GREEN, SGR_YELLOW };
void out_set_color(bool on);
/* The escape sequence for s, or "" when colour is off.  Only ever used in
 * the leads of out_para, never inside text it escapes. */
const char *out_sgr(enum sgr s);
void out_write(const char *s, size_t n);
/* Inline: most strings written are literals, whose length the compiler
 * knows (strlen was a twentieth of --mail's time). */
static inline void out_str(const char *s)
{
	out_write(s, strlen(s));
}
void out_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_para(const char *lead, unsigned indent, const char *text);
void out_para_untrusted(const char *lead, unsigned indent, const char *s,
                        size_t n);
/*
 * Text from the input, made visible rather than obeyed: s[0..n) to fp
 * with a backslash shown as \\, a control byte (below 0x20, 0x7f) and
 * a byte that is not UTF-8 as \xHH, and a code point that would steer
 * the terminal (a C1 control, a bidirectional control, U+2028, U+2029:
 * utf8_steers()) as \uXXXX.  Every text and TSV output of such text, and
 * every message on stderr, shows it so.
 */
void out_escaped(FILE *fp, const char *s, size_t n);
/* Whether byte c is shown as it is, without a look at the bytes after it:
 * printable ASCII but the backslash. */
static inline bool out_plain(char c)
{
	return c >= 0x20 && c <= 0x7e && c != '\\';
}

#ifdef SCAN_SSE2
/* 0xff in each byte of x that out_plain() takes: one added, printable
 * ASCII is the signed bytes above 0x20 (those below stay at or below it,
 * 0x7f and those from 0x80 on become negative), then the backslash out. */
static inline __m128i out_plain16(__m128i x)
{
	__m128i printable = _mm_cmpgt_epi8(_mm_add_epi8(x, _mm_set1_epi8(1)),
	                                   _mm_set1_epi8(0x20));
	return _mm_andnot_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')),
	                        printable);
}
#endif

/* The escape out_escaped() shows for s[i..n), when there is one, into
 * esc (8 bytes at least): its length, and in *used the bytes of s it
 * stands for; 0 when the *used bytes at s + i are shown as they are. */
size_t out_escape_at(const char *s, size_t n, size_t i, char *esc,
                     size_t *used);

/*
 * Output held in memory: between out_capture_begin(c) and
 * out_capture_end(), whatever this thread writes goes to c instead of
 * stdout.  out_capture_write(c) writes it out (one thread at a time).
 *
 * A capture grows as it needs to, unless it has a drain: then it keeps
 * its size, and when it is full drain(c) is called, which must wait until
 * this thread may write to stdout, write c out and empty it (logs.c).
 * Output longer than the capture then goes to stdout directly.
 */
struct out_capture {
	char *text;
	size_t len, size;
	bool failed; /* memory ran out: reported at the end */
	void (*drain)(struct out_capture *c);
};

/*
 * Room for n bytes of output, to be written in place and then committed
 * with out_commit() (before any other output); NULL when there is none.
 * The log modes reserve and commit once per record, into a capture: that
 * case is inline, the rest is out_reserve_more() and out_commit_more().
 */
extern _Thread_local struct out_capture *out_capturing; /* or NULL */
char *out_reserve_more(size_t n);
void out_commit_more(size_t n);

static inline char *out_reserve(size_t n)
{
	struct out_capture *c = out_capturing;

	if (c && n <= c->size - c->len)
		return c->text + c->len;
	return out_reserve_more(n);
}

static inline void out_commit(size_t n)
{
	struct out_capture *c = out_capturing;

	if (c)
		c->len += n;
	else
		out_commit_more(n);
}
void out_capture_begin(struct out_capture *c);
void out_capture_end(void);
void out_capture_write(const struct out_capture *c);
/* When stdout is a pipe, make it larger where the system can. */
void out_grow_pipe(void);
void out_capture_free(struct out_capture *c);

/* Memory ran out: the output is incomplete, and out_finish() says so. */
void out_no_memory(void);

/* What this thread wrote (not into a capture) out to stdout now: 0, or
 * -1 when a write to stdout has failed (out_finish() says why), so that a
 * program that runs until stopped learns of it at once. */
int out_flush(void);

/* Flush and close stdout: 0, or 1 when something failed to be written
 * (errno says why), or 2 when memory ran out (out_no_memory()). */
int out_finish(void);

#endif
