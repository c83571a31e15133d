/*
 * --watch: the whole probe again at an interval until the server accepts,
 * showing of each attempt after the first only the steps that changed.
 */
#ifndef SMTPCODE_PROBE_WATCH_H
#define SMTPCODE_PROBE_WATCH_H

#include "report.h"
#include "session.h"

/* What one attempt found. */
struct attempt {
	enum outcome outcome;
	int status;          /* the exit status it would have: 0, 1, 2 or 3 */
	char sentence[1024];
};

/* One attempt of the probe, each step to each(step, each_ctx), the
 * verdicts kept in rp: the exit status (2: a local error, reported). */
typedef int attempt_fn(void *ctx, struct report *rp, step_fn *each,
                       void *each_ctx, struct attempt *a);

/* Attempts every interval_ms until one is accepted (0), or max_attempts
 * (0: no limit) were made (the last one's status), or a signal ends it
 * (the program dies of that signal, after a last line). */
int watch_run(long long interval_ms, unsigned max_attempts,
              struct report *rp, attempt_fn *run, void *ctx);

#endif
