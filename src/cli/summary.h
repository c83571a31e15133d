/* --summary: counts by code and by recipient domain; see summary.c. */
#ifndef SMTPCODE_SUMMARY_H
#define SMTPCODE_SUMMARY_H

#include <stdbool.h>

#include "smtpcode.h"

struct summary;

/* A new, empty summary; NULL (reported) when memory runs out.  When
 * memory runs out later, it counts no more: summary_render() says so and
 * ends the command with status 2, rather than show wrong counts. */
struct summary *summary_new(void);
/* One line: q is its code, or NULL for a line without one. */
void summary_add(struct summary *s, const struct smtpcode_query *q,
                 struct smtpcode_text recipient, struct smtpcode_text domain,
                 struct smtpcode_text status);
/* Add what from counted to into: the summaries of parts of the input,
 * made by different threads, become the summary of the whole.  from is
 * left empty (its memory moved to into where it can be): free it next. */
void summary_merge(struct summary *into, struct summary *from);
/* The summary on stdout; or, when counting failed, a message on stderr
 * and exit(2). */
void summary_render(const struct summary *s, bool json);
void summary_free(struct summary *s);

#endif
