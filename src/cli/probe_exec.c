/*
 * smtpcode --probe runs smtpcode-probe, as git runs its sub-commands: the
 * probe needs a resolver and TLS, which the command itself (static, and
 * measured for its size and start) must not carry.  It is looked for
 * beside this program first, so that a build or an installation runs its
 * own, then on PATH.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "probe_exec.h"

#define PROBE_NAME "smtpcode-probe"

int probe_dispatch(int argc, char **argv)
{
	char path[PATH_MAX];
	ssize_t n;
	int at = 0;

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--probe") == 0) {
			at = i;
			break;
		}
	if (!at)
		return -1;
	/* The probe's arguments: these but --probe, in their order. */
	for (int i = at; i < argc; i++)
		argv[i] = argv[i + 1];
	argv[0] = PROBE_NAME;
	n = readlink("/proc/self/exe", path, sizeof path);
	if (n > 0 && (size_t)n < sizeof path) {
		char *slash;
		path[n] = '\0';
		slash = strrchr(path, '/');
		if (slash && (size_t)(slash - path) + sizeof PROBE_NAME + 1 <
		                 sizeof path) {
			memcpy(slash + 1, PROBE_NAME, sizeof PROBE_NAME);
			execv(path, argv);
		}
	}
	execvp(PROBE_NAME, argv);
	fprintf(stderr, "smtpcode: --probe needs %s, which cannot be run: %s "
	        "(it is built where c-ares and OpenSSL are installed)\n",
	        PROBE_NAME, strerror(errno));
	return 2;
}
