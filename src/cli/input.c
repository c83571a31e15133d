/*
 * Reading files and pipes: line by line through one fixed buffer, so
 * memory stays flat however large the input; or whole, for a message.
 * Every failure names the file and the system error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

#define BUFFER_SIZE (1u << 20)

static int open_input(const char *path)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
	struct stat st;
	if (fd < 0) {
		input_error(path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		input_error(path, strerror(EISDIR));
		if (fd != STDIN_FILENO)
			close(fd);
		return -1;
	}
	return fd;
}

void input_error(const char *path, const char *why)
{
	fprintf(stderr, "smtpcode: %s: %s\n",
	        strcmp(path, "-") == 0 ? "(standard input)" : path, why);
}

int each_line(const char *path, line_fn *fn, void *ctx)
{
	static char buf[BUFFER_SIZE + 1];
	size_t have = 0;
	unsigned long lineno = 0;
	int fd = open_input(path), status = 0;
	int skipping = 0; /* inside a line longer than the buffer */

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t got = read(fd, buf + have, BUFFER_SIZE - have);
		size_t start = 0;
		char *nl;
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			input_error(path, strerror(errno));
			status = -1;
			break;
		}
		have += (size_t)got;
		while ((nl = memchr(buf + start, '\n', have - start))) {
			size_t len = (size_t)(nl - (buf + start));
			lineno++;
			if (!skipping)
				fn(ctx, buf + start, len, lineno);
			skipping = 0;
			start += len + 1;
		}
		if (got == 0) { /* the last line may lack its newline */
			if (have > start && !skipping)
				fn(ctx, buf + start, have - start, ++lineno);
			break;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have == BUFFER_SIZE) {
			/* No silent truncation: the line is refused whole. */
			if (!skipping)
				fprintf(stderr, "smtpcode: %s:%lu: line too long (> %u "
				        "bytes)\n", strcmp(path, "-") ? path
				        : "(standard input)", lineno + 1, BUFFER_SIZE);
			status = -1;
			skipping = 1;
			have = 0;
		}
	}
	if (fd != STDIN_FILENO)
		close(fd);
	return status;
}

int read_whole(const char *path, char **data, size_t *len)
{
	size_t cap = 1 << 16, have = 0;
	char *buf = malloc(cap);
	int fd = open_input(path);

	if (fd < 0 || !buf) {
		if (!buf && fd >= 0)
			input_error(path, strerror(ENOMEM));
		free(buf);
		if (fd > STDIN_FILENO)
			close(fd);
		return -1;
	}
	for (;;) {
		ssize_t got;
		if (have == cap) {
			char *bigger = cap < MAX_MESSAGE ? realloc(buf, 2 * cap) : NULL;
			if (!bigger) {
				input_error(path, cap < MAX_MESSAGE ? strerror(ENOMEM)
				                  : "message too big (> 64 MiB)");
				free(buf);
				if (fd != STDIN_FILENO)
					close(fd);
				return -1;
			}
			buf = bigger;
			cap *= 2;
		}
		got = read(fd, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			input_error(path, strerror(errno));
			free(buf);
			if (fd != STDIN_FILENO)
				close(fd);
			return -1;
		}
		if (got == 0)
			break;
		have += (size_t)got;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	*data = buf;
	*len = have;
	return 0;
}
