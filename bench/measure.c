/*
 * measure: run a command RUNS times with stdout to /dev/null and print the
 * best wall time in seconds and the largest peak RSS in KiB, tab-separated.
 * Lets bench/run time commands and read their memory without GNU time.
 *
 * usage: measure RUNS COMMAND [ARG...]
 */
/* wait4() is a BSD call, not POSIX. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double best = 1e300;
	long maxrss = 0;
	int runs = argc > 2 ? atoi(argv[1]) : 0;

	if (runs < 1) {
		fputs("usage: measure RUNS COMMAND [ARG...]\n", stderr);
		return 2;
	}
	for (int i = 0; i < runs; i++) {
		struct rusage ru;
		int status;
		double start = now(), t;
		pid_t pid = fork();
		if (pid < 0) {
			perror("measure: fork");
			return 2;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);
			if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
				_exit(127);
			execvp(argv[2], argv + 2);
			perror("measure: exec");
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("measure: wait4");
			return 2;
		}
		t = now() - start;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return 2;
		if (t < best)
			best = t;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
	}
	printf("%.6f\t%ld\n", best, maxrss);
	return 0;
}
