/*
 * --watch: repeat the probe until the server accepts.  Each attempt's
 * steps are compared with the previous attempt's, in order (step, host,
 * address, and the reply's code and text, or the error), and only those
 * that differ are shown again, so that a watch of an unchanged refusal
 * prints one short line an attempt.  Sleeps are poll() with a time-out,
 * ended early by SIGINT or SIGTERM.
 */
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "clock.h"
#include "output.h"
#include "watch.h"

#define WATCH_STEPS 512 /* steps compared an attempt; more are shown */

struct watch {
	struct report *rp;
	long long start;            /* when the first attempt began */
	unsigned attempt;
	bool shown;                 /* this attempt's header was printed */
	uint64_t prev[WATCH_STEPS], cur[WATCH_STEPS];
	size_t nprev, ncur;
};

static volatile sig_atomic_t stopped;   /* the signal that came, or 0 */
static volatile sig_atomic_t attempting; /* an attempt is under way */

/* During an attempt a signal ends the program at once (its output so far
 * is flushed step by step); between attempts it ends the sleep. */
static void on_signal(int sig)
{
	if (attempting) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	stopped = sig;
}

/* FNV-1a over s[0..n), from h. */
static uint64_t hash(uint64_t h, const void *s, size_t n)
{
	const unsigned char *p = s;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3u;
	return (h ^ 0xff) * 0x100000001b3u; /* a separator between pieces */
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	return s ? hash(h, s, strlen(s)) : hash(h, "", 0);
}

/* What makes a step the same as the previous attempt's: not its time. */
static uint64_t step_key(const struct step *s)
{
	uint64_t h = hash(0xcbf29ce484222325u, &s->id, sizeof s->id);
	h = hash_str(hash_str(h, s->host), s->address);
	h = hash_str(h, s->error);
	if (s->reply)
		h = hash(h, s->reply->text, s->reply->len);
	if (s->tls)
		h = hash_str(hash(h, &s->tls->verified, sizeof s->tls->verified),
		             s->tls->subject);
	for (size_t i = 0; i < s->nhosts; i++)
		h = hash_str(h, s->hosts[i].name);
	return h;
}

/* "42 s", "3 min 5 s", "2 h 1 min" */
static void print_elapsed(long long ms)
{
	long long s = ms / 1000;
	if (s < 60)
		out_printf("%lld s", s);
	else if (s < 3600)
		out_printf("%lld min %lld s", s / 60, s % 60);
	else
		out_printf("%lld h %lld min", s / 3600, s % 3600 / 60);
}

static void header(struct watch *w)
{
	if (w->shown || w->rp->json || w->attempt == 1)
		return;
	out_printf("attempt %u (+", w->attempt);
	print_elapsed(clock_ms() - w->start);
	out_str("):\n");
	w->shown = true;
}

static void each_step(const struct step *s, void *ctx)
{
	struct watch *w = ctx;
	uint64_t key = step_key(s);
	size_t i = w->ncur;

	if (w->ncur < WATCH_STEPS)
		w->cur[w->ncur++] = key;
	if (w->attempt > 1 && i < w->nprev && w->prev[i] == key) {
		report_note(w->rp, s);
		return;
	}
	header(w);
	report_step(w->rp, s);
}

/* Sleep until deadline, or a signal: whether it was slept out. */
static bool sleep_until(long long deadline)
{
	while (!stopped && clock_left(deadline) > 0)
		poll(NULL, 0, clock_left(deadline) > 1000 ? 1000
		                                           : clock_left(deadline));
	return !stopped;
}

int watch_run(long long interval_ms, unsigned max_attempts,
              struct report *rp, attempt_fn *run, void *ctx)
{
	static struct watch w; /* 8 KB of keys: not on the stack */
	char last[sizeof ((struct attempt *)0)->sentence] = "";

	memset(&w, 0, sizeof w);
	w.rp = rp;
	w.start = clock_ms();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (;;) {
		struct attempt a;
		long long began = clock_ms();
		int status;

		w.attempt++;
		rp->attempt = w.attempt;
		w.shown = false;
		w.ncur = 0;
		attempting = 1;
		status = run(ctx, rp, each_step, &w, &a);
		attempting = 0;
		if (status == 2)
			return status;
		if (rp->json || strcmp(a.sentence, last) != 0 ||
		    a.outcome == OUTCOME_ACCEPTED) {
			header(&w);
			report_result(rp, a.outcome, a.sentence, status,
			              a.outcome == OUTCOME_ACCEPTED
			                  ? clock_ms() - w.start : -1);
		} else if (!w.shown) {
			out_printf("attempt %u (+", w.attempt);
			print_elapsed(clock_ms() - w.start);
			out_str("): no change\n");
		}
		memcpy(last, a.sentence, sizeof last);
		memcpy(w.prev, w.cur, w.ncur * sizeof *w.cur);
		w.nprev = w.ncur;
		if (a.outcome == OUTCOME_ACCEPTED) {
			if (!rp->json) {
				out_printf("cleared after %u attempt%s and ", w.attempt,
				           w.attempt == 1 ? "" : "s");
				print_elapsed(clock_ms() - w.start);
				out_str("\n");
			}
			return 0;
		}
		if (max_attempts && w.attempt >= max_attempts) {
			if (!rp->json) {
				out_printf("still failing after %u attempts and ",
				           w.attempt);
				print_elapsed(clock_ms() - w.start);
				out_str("\n");
			}
			return status;
		}
		/* A watch without --attempts may never end: a full disk or a
		 * closed pipe ends it now, not when it clears. */
		if (out_flush() != 0)
			return 2;
		if (!sleep_until(began + interval_ms)) {
			if (!rp->json) {
				out_printf("stopped after %u attempt%s\n", w.attempt,
				           w.attempt == 1 ? "" : "s");
			}
			out_flush();
			signal((int)stopped, SIG_DFL);
			raise((int)stopped);
			return 2;
		}
	}
}
