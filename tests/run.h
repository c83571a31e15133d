/* Run a program and capture what it prints, for the tests. */
#ifndef SMTPCODE_TEST_RUN_H
#define SMTPCODE_TEST_RUN_H

#include <stddef.h>

struct run {
	int status;     /* exit status, or 128 + signal */
	char out[65536]; /* stdout, NUL-terminated (cut at the buffer size) */
	char err[8192];  /* stderr, likewise */
};

/* Run argv (argv[0] a path) with stdin from in (NULL: /dev/null) and
 * stdout to the file stdout_path (NULL: captured into r->out). */
void run(struct run *r, char *const argv[], const char *in,
         const char *stdout_path);

/* The whole of path in a new NUL-terminated heap buffer, or NULL. */
char *read_whole_file(const char *path);

#endif
