/*
 * What the probe prints: one text line or JSON object per step, with the
 * table's verdict of each reply, and the sentence that ends an attempt.
 */
#ifndef SMTPCODE_PROBE_REPORT_H
#define SMTPCODE_PROBE_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

struct report {
	bool json;
	unsigned attempt;     /* with --watch: the attempt's number, else 0 */
	/* The verdict of the last failure reply, for the sentence. */
	char code[32];        /* "4.3.1" */
	char name[160];       /* the table's name of it, or "" */
	int severity, scope, retry;
};

/* The step's line (or object), to stdout. */
void report_step(struct report *rp, const struct step *s);
/* Remember the verdict of s's reply when it is a failure, without
 * printing it (for a step --watch does not show again). */
void report_note(struct report *rp, const struct step *s);

/* The sentence of an attempt's outcome into buf[0..size): host is the
 * server that answered (or NULL), what the command that failed (or the
 * error of an unreachable one); from and rcpt as given. */
void report_sentence(const struct report *rp, enum outcome outcome,
                     const char *host, const char *what, const char *from,
                     const char *rcpt, char *buf, size_t size);
/* The last line (or "result" object): the sentence, the exit status,
 * and with --watch, cleared_ms >= 0: how long it took to clear. */
void report_result(const struct report *rp, enum outcome outcome,
                   const char *sentence, int status, long long cleared_ms);

#endif
