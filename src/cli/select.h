/* The record filters of the log and bounce modes; see select.c. */
#ifndef SMTPCODE_SELECT_H
#define SMTPCODE_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "fields.h"
#include "smtpcode.h"

/* The most values one filter takes (--domain given this often is refused
 * with a message, never cut). */
#define SELECT_MAX 16

/* The filters of the enumerated fields, in this order. */
enum select_field { SEL_SEVERITY, SEL_SCOPE, SEL_REASON, SEL_SUPPRESS,
                    SEL_NFIELDS };

struct selection {
	bool active; /* a filter was given */
	/* Per field, the value ids accepted (bit v of word v / 64); none
	 * set: any value. */
	uint64_t values[SEL_NFIELDS][4];
	bool given[SEL_NFIELDS];
	const struct smtpcode_entry *providers[SELECT_MAX];
	size_t nproviders;
	const char *domains[SELECT_MAX];
	size_t ndomains;
};

/* The option of select_field f, or of a provider (-1) or a domain (-2),
 * with its value, taken into s: NULL, or a message saying what is wrong
 * with the value (for a usage error). */
const char *selection_take(struct selection *s, int f, const char *value,
                           char *why, size_t size);

/* Whether the record of row w (its verdict and its result, w->r), whose
 * recipient's domain is domain, passes every filter of s. */
bool selection_pass(const struct selection *s, const struct row *w,
                    struct smtpcode_text domain);

struct suppressions;

/* What the records of a mode of records go through when filters, -q, -c
 * or --suppressions are given. */
struct choice {
	const struct selection *sel; /* NULL: every record */
	bool quiet, count;
	struct suppressions *supp;
};

/*
 * Whether the record of row w (w->origin its origin), which rests on
 * something (rests: a code in the table, or words or a message that gave
 * a reason), is to be written: not when the filters refuse it, nor when
 * it is counted (-c), listed (--suppressions) or ends the command (-q:
 * records_found_quietly()) instead.  *selected counts it when it is
 * selected and rests on something.  A full memory while listing it is
 * reported through out_no_memory().
 */
bool record_chosen(const struct choice *k, const struct row *w, bool rests,
                   unsigned long *selected);

/* Whether k asks anything of the records (else each is written). */
static inline bool choosing(const struct choice *k)
{
	return k->sel || k->quiet || k->count || k->supp;
}

#endif
