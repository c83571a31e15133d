/*
 * --suppressions: one row per recipient address seen in logs and bounces,
 * with what to do about it (suppress, watch, keep), why, how often it was
 * seen and where first and last.  See suppressions.c.
 */
#ifndef SMTPCODE_SUPPRESSIONS_H
#define SMTPCODE_SUPPRESSIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "logs.h"
#include "smtpcode.h"

struct suppressions;

/* What one record says happened to the address: the caller decides it
 * (the verdict's severity; SUPP_COMPLAINT for a feedback report's
 * recipient); nothing here knows any code. */
enum supp_outcome { SUPP_SUCCESS, SUPP_TEMPORARY, SUPP_PERMANENT, SUPP_COMPLAINT };

/* One record about an address: its outcome, and where it was seen.  Only
 * reason is kept as a pointer (a value name of the library's, which lives
 * as long as the program); the rest is copied. */
struct supp_record {
	struct smtpcode_text address; /* as written; the domain (after the
	                                 last '@') is compared without case
	                                 and shown in lower case */
	enum supp_outcome outcome;
	bool suppress;                /* the verdict's suppress field is true */
	const char *reason;           /* reason value name, or NULL */
	const char *code;             /* "5.1.1", "550", or NULL (at most
	                                 SUPP_CODE_MAX - 1 bytes kept) */
	const char *file;             /* as shown; NULL is "-" */
	unsigned long line;           /* a log line's number, or 0 */
	long message;                 /* a message's index in its mbox (from
	                                 0), or -1 */
};

/* The room kept for a record's code: that of struct row's code. */
#define SUPP_CODE_MAX 32

/* An empty list; NULL when memory runs out. */
struct suppressions *suppressions_new(void);

/*
 * Record r counted for its address (a record whose address is empty is
 * left out).  0, or -1 when memory ran out: then nothing of r was
 * counted, and the caller reports it (exit 2).  One thread at a time.
 */
int suppressions_add(struct suppressions *s, const struct supp_record *r);

/* The number of distinct addresses held. */
size_t suppressions_count(const struct suppressions *s);

/*
 * Every address, in the order first seen, to the output (output.h): as
 * CSV with a header line for RECORD_TEXT (the mode's default), TSV with
 * the same header for RECORD_TSV, one JSON object a line for RECORD_JSON.
 * Columns and keys: address, action, reason, code, count, first_seen,
 * last_seen.  Returns the number of addresses written.
 */
size_t suppressions_write(const struct suppressions *s,
                          enum record_format format);

void suppressions_free(struct suppressions *s);

#endif
