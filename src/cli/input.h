/* Reading files and pipes for the log and mail modes: see input.c. */
#ifndef SMTPCODE_INPUT_H
#define SMTPCODE_INPUT_H

#include <stddef.h>

/* The longest message --mail reads. */
#define MAX_MESSAGE ((size_t)64 << 20)

/* Called for each line, without its newline. */
typedef void line_fn(void *ctx, const char *line, size_t len,
                     unsigned long lineno);

/* Call fn for each line of path ("-": standard input).  A line longer than
 * the buffer (1 MiB) is refused with "FILE:LINE: line too long" and
 * skipped.  Returns 0, or -1 after reporting an error on stderr. */
int each_line(const char *path, line_fn *fn, void *ctx);

/* Read all of path into a new heap buffer *data of *len bytes; 0, or -1
 * after reporting the error. */
int read_whole(const char *path, char **data, size_t *len);

/* "smtpcode: FILE: why" on stderr. */
void input_error(const char *path, const char *why);

#endif
