/*
 * The generator's data-file reader and checker (tools/gentable): any
 * bytes, read as a data file from memory with read_stream() and checked
 * with check_all(), must be refused line by line or accepted, never
 * crash.  The records are freed after each input, and the error count
 * reset.
 *
 * The generator's main() is compiled in here, renamed, for its keydefs,
 * globals and helpers; fail() is replaced by a quiet one that still
 * formats each message (so that a bad format argument shows) without
 * writing thousands of lines to stderr.  FUZZ_VERBOSE=1 in the
 * environment prints them.
 */
#include <stdarg.h>
#include <stdio.h>

int gentable_main(int argc, char **argv);
#define main gentable_main
#define fail gentable_fail
#include "../tools/gentable/main.c"
#undef main
#undef fail

#include "fuzz.h"

void fail(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int verbose = -1;

void fail(const char *file, long line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (verbose < 0)
		verbose = getenv("FUZZ_VERBOSE") != NULL;
	if (verbose)
		fprintf(stderr, "%s:%ld: %s\n", file, line, msg);
	errors++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* fmemopen() wants a buffer it may not need: give it a copy, with
	 * one byte more so that an empty input is still a stream. */
	char *copy = fuzz_strdup(data, size);
	FILE *fp = fmemopen(copy, size ? size : 1, "r");

	CHECK(fp != NULL);
	errors = 0;
	if (size)
		read_stream(fp, "fuzz.txt");
	fclose(fp);
	check_all();
	CHECK(errors >= 0);
	free_records();
	free(copy);
	return 0;
}
