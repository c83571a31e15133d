/* --summary: counts by code and by recipient domain; see summary.c. */
#ifndef SMTPCODE_SUMMARY_H
#define SMTPCODE_SUMMARY_H

#include <stdbool.h>

#include "smtpcode.h"

struct summary;

/* A new, empty summary, whose verdicts take provider (--provider, or
 * NULL); NULL (reported) when memory runs out.  When
 * memory runs out later, it counts no more: summary_render() says so and
 * ends the command with status 2, rather than show wrong counts. */
struct summary *summary_new(const struct smtpcode_entry *provider);
/* What a log line gives a summary: its fields as parsed. */
struct summary_line {
	struct smtpcode_text recipient, domain;
	struct smtpcode_text status; /* its side, and its report */
	struct smtpcode_text host;   /* the client, on the receiving side */
	struct smtpcode_text reply;
};
/* One line: q is its code, or NULL for a line without one. */
void summary_add(struct summary *s, const struct smtpcode_query *q,
                 const struct summary_line *l);
/* Add what from counted to into: the summaries of parts of the input,
 * made by different threads, become the summary of the whole.  from is
 * left empty (its memory moved to into where it can be): free it next. */
void summary_merge(struct summary *into, struct summary *from);
/* The summary on stdout; or, when counting failed, a message on stderr
 * and exit(2). */
void summary_render(const struct summary *s, bool json);
/* The lines counted whose code is in the table (the receiving side's:
 * with a code), for the exit status. */
unsigned long summary_known(const struct summary *s);
void summary_free(struct summary *s);

#endif
