/*
 * Shared by the fuzz targets (fuzz/fuzz_*.c): the libFuzzer entry point,
 * and the checks that turn a broken invariant into an abort() that
 * libFuzzer (or fuzz/replay.c) reports with the input.
 */
#ifndef SMTPCODE_FUZZ_H
#define SMTPCODE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smtpcode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* For the targets' own oracles (naive searches): no coverage feedback,
 * which would only slow them and steer the fuzzer by their loops. */
#if defined(__clang__)
#define FUZZ_ORACLE __attribute__((no_sanitize("coverage")))
#else
#define FUZZ_ORACLE
#endif

/* Abort, naming the invariant, when cond is false. */
#define CHECK(cond)                                                      \
	do {                                                             \
		if (!(cond))                                             \
			fuzz_fail(__FILE__, __LINE__, #cond);            \
	} while (0)

static inline void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
	abort();
}

/* Whether [p, p + n) lies inside [base, base + size).  Compared as
 * integers: relational operators on pointers into different objects are
 * undefined. */
static inline int fuzz_inside(const void *p, size_t n, const void *base,
                              size_t size)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;
	return p && base && a >= b && a - b <= size && n <= size - (a - b);
}

/* A span of the input: absent (len 0) or inside it. */
static inline int fuzz_span_ok(struct smtpcode_text t, const void *base,
                               size_t size)
{
	return t.len == 0 || fuzz_inside(t.s, t.len, base, size);
}

/* Whether a query's fields are in their documented ranges. */
static inline int fuzz_query_ok(const struct smtpcode_query *q)
{
	if (q->basic && (q->basic < 200 || q->basic > 599))
		return 0;
	if (q->enhanced && ((q->cls != 0 && q->cls != 2 && q->cls != 4 &&
	                     q->cls != 5) ||
	                    q->subject > 999 || q->detail > 999))
		return 0;
	if (!q->enhanced && (q->cls || q->subject || q->detail))
		return 0;
	return 1;
}

static inline int fuzz_query_zero(const struct smtpcode_query *q)
{
	return !q->basic && !q->enhanced && !q->cls && !q->subject &&
	       !q->detail && !q->text_off && !q->text_len;
}

static inline int fuzz_query_eq(const struct smtpcode_query *a,
                                const struct smtpcode_query *b)
{
	return a->basic == b->basic && a->enhanced == b->enhanced &&
	       a->cls == b->cls && a->subject == b->subject &&
	       a->detail == b->detail && a->text_off == b->text_off &&
	       a->text_len == b->text_len;
}

/* The same codes, whatever the text. */
static inline int fuzz_codes_eq(const struct smtpcode_query *a,
                                const struct smtpcode_query *b)
{
	return a->basic == b->basic && a->enhanced == b->enhanced &&
	       a->cls == b->cls && a->subject == b->subject &&
	       a->detail == b->detail;
}

/* A NUL-terminated copy of data, for the functions that take strings. */
static inline char *fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
