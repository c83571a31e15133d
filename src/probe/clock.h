/* Deadlines for the probe's steps: milliseconds of the monotonic clock. */
#ifndef SMTPCODE_PROBE_CLOCK_H
#define SMTPCODE_PROBE_CLOCK_H

#include <time.h>

/* Now, in milliseconds of CLOCK_MONOTONIC (never steps back). */
static inline long long clock_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* What is left until deadline, for poll(): 0 once it has passed, capped
 * at what an int holds. */
static inline int clock_left(long long deadline)
{
	long long left = deadline - clock_ms();
	if (left < 0)
		return 0;
	return left > 0x7fffffff ? 0x7fffffff : (int)left;
}

#endif
