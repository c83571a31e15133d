/*
 * measure: run a command RUNS times and print the best wall time in
 * seconds and the largest peak RSS in KiB, tab-separated.  Lets bench/run
 * time commands and read their memory without GNU time.
 *
 * The command's output goes into a pipe that measure drains, as when it
 * is piped into another command: a real sink, unlike /dev/null (GNU grep
 * stops at its first match when its output is /dev/null), and one that
 * costs every command alike for what it writes, where a file would
 * measure the kernel's page allocation as much as the command.
 *
 * usage: measure RUNS COMMAND [ARG...]
 */
/* wait4() is a BSD call, splice() a Linux one: neither is POSIX. */
#define _GNU_SOURCE
#include <errno.h>
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

/* Read fd to its end, discarding what comes: moved to /dev/null without
 * a copy where the system can (splice), else read.  0, or -1. */
static int drain(int fd, int null)
{
	static char buf[1 << 16];
	ssize_t n;

	while ((n = splice(fd, NULL, null, NULL, 1 << 20, SPLICE_F_MOVE)) > 0)
		;
	if (n == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		;
	return n == 0 ? 0 : -1;
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
		int status, out[2], null = open("/dev/null", O_WRONLY);
		double start, t;
		pid_t pid;

		if (null < 0 || pipe(out) < 0) {
			perror("measure: /dev/null or pipe");
			return 2;
		}
		start = now();
		if ((pid = fork()) < 0) {
			perror("measure: fork");
			return 2;
		}
		if (pid == 0) {
			close(out[0]);
			if (dup2(out[1], STDOUT_FILENO) < 0)
				_exit(127);
			close(out[1]);
			execvp(argv[2], argv + 2);
			perror("measure: exec");
			_exit(127);
		}
		close(out[1]);
		if (drain(out[0], null) < 0) {
			perror("measure: reading the output");
			return 2;
		}
		close(out[0]);
		close(null);
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
