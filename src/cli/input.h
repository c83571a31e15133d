/* Reading files and pipes for the log and mail modes: see input.c. */
#ifndef SMTPCODE_INPUT_H
#define SMTPCODE_INPUT_H

#include <stdbool.h>
#include <stddef.h>

/* The longest message --mail reads (64 MiB, which the error message
 * names): one of exactly this size is read, a longer one refused. */
#define MAX_MESSAGE ((size_t)64 << 20)

/* Called for each line, without its newline. */
typedef void line_fn(void *ctx, const char *line, size_t len,
                     unsigned long lineno);

/* The longest line read, its newline not counted (1 MiB): a longer one is
 * refused with "FILE:LINE: line too long" and skipped, never cut. */
#define MAX_LINE ((size_t)1 << 20)

/* Call fn for each line of path ("-": standard input; gzip data
 * inflated), read through buf (BLOCK_SIZE bytes), the output flushed
 * after each block when the input is live (reader_live()).  Returns 0, or
 * -1 after reporting an error (or a line too long, or a binary file) on
 * stderr. */
int each_line(const char *path, char *buf, line_fn *fn, void *ctx);

/*
 * The same reading, a block of whole lines at a time, into buffers of the
 * caller's (so that other threads can work on blocks while the next one is
 * read).  A block holds a line of MAX_LINE bytes and its newline.
 */
#define BLOCK_SIZE (MAX_LINE + 1)
/* A read asks for at most this much, more only while a line has not
 * ended: a block this small is still in the processor's cache when its
 * lines are counted and parsed, and only this part of a buffer is touched
 * unless a line is long (1 MiB reads went through memory three times:
 * bench/run's 20 MB --extract took 25 ms, 21 ms with 256 KiB). */
#define READ_SIZE ((size_t)256 << 10)

struct block {
	const char *text;    /* lines, each ending in '\n' but perhaps the */
	size_t len;          /* last of the file */
	unsigned long first; /* the number of the first */
};

struct reader;
/* A reader of path ("-": standard input); NULL after reporting why not:
 * it cannot be opened, is a directory, or is the regular file that
 * standard output writes to (as cat, which refuses it too). */
struct reader *reader_open(const char *path);
/* The next block, read into buf[0..BLOCK_SIZE): 1, or 0 at the end.  The
 * bytes of the previous block's buffer after that block (the start of a
 * line) must be left as they were until this call, which moves them over;
 * buf may be that same buffer. */
int reader_next(struct reader *r, char *buf, struct block *b);
/* Whether r reads a pipe, a socket or a terminal rather than a regular
 * file: what it gives is to be answered at once (`tail -F log |
 * smtpcode --annotate`), as each_line() does, before the wait for more. */
bool reader_live(const struct reader *r);
/* Close r: 0, or -1 when a line was refused, a read failed, the gzip
 * data were bad or the file was binary ("binary file, skipped": control
 * bytes that text does not hold in its first read; all reported). */
int reader_close(struct reader *r);
/* Call fn for each line of b, without its newline. */
void each_line_in(const struct block *b, line_fn *fn, void *ctx);

/*
 * --mail's reading: a file as it comes, its bytes, or what they inflate to
 * when it is gzip data (its first bytes tell).
 */
struct stream { /* input.c's */
	const char *path;
	int fd;
	bool positioned; /* read with pread() at offset at */
	bool ended;      /* (positioned) a short read was its end */
	bool looked;     /* the first bytes were looked at */
	size_t at;
	struct gunzip *gz; /* the bytes are gzip data, inflated by it */
};
/* Open s, a stream of path ("-": standard input): 0, or -1 after
 * reporting why not (it cannot be opened, or is the regular file that
 * standard output writes to). */
int stream_open(struct stream *s, const char *path);
/* Up to n bytes of s into buf: how many (a file's first read n >= 2, for
 * gzip's magic bytes), 0 at its end, -1 after reporting a read error or
 * bad gzip data, or STREAM_FOLDER, not reported, when the path is a
 * directory (found by its first read). */
#define STREAM_FOLDER (-2)
long stream_read(struct stream *s, char *buf, size_t n);
/* Close s (opened). */
void stream_close(struct stream *s);

/* "smtpcode: FILE: why" on stderr. */
void input_error(const char *path, const char *why);
/* "smtpcode: FILE, message N: why", N counted from 1, for the message of
 * index number (from 0) in the mbox path; input_error() when number is
 * negative (the file is one message). */
void message_error(const char *path, long number, const char *why);

/* The newlines in [p, end): with AVX2 where the processor has it (the
 * reader counts every block; --extract's workers count their slices). */
size_t count_newlines(const char *p, const char *end);

#endif
