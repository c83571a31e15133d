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

/* Call fn for each line of path ("-": standard input), read through buf
 * (BLOCK_SIZE bytes).  Returns 0, or -1 after reporting an error (or a
 * line too long) on stderr. */
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
/* Close r: 0, or -1 when a line was refused or a read failed (both
 * reported). */
int reader_close(struct reader *r);
/* Call fn for each line of b, without its newline. */
void each_line_in(const struct block *b, line_fn *fn, void *ctx);

/* Read all of path into the heap buffer *data of *size bytes (NULL and 0
 * at first; grown as needed, and kept for the next message), *len bytes
 * of it read; 0, or -1 after reporting the error (those of reader_open(),
 * or a message longer than MAX_MESSAGE). */
int read_whole(const char *path, char **data, size_t *size, size_t *len);

/* "smtpcode: FILE: why" on stderr. */
void input_error(const char *path, const char *why);

/* The newlines in [p, end): with AVX2 where the processor has it (the
 * reader counts every block; --extract's workers count their slices). */
size_t count_newlines(const char *p, const char *end);

#endif
