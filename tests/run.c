#include "run.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void slurp(FILE *f, char *buf, size_t size)
{
	size_t n;
	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

void run(struct run *r, char *const argv[], const char *in,
         const char *stdout_path)
{
	FILE *out = tmpfile(), *err = tmpfile(), *inf = tmpfile();
	int wstatus;
	pid_t pid;

	if (!out || !err || !inf) {
		perror("tmpfile");
		exit(99);
	}
	if (in) {
		fputs(in, inf);
		fflush(inf);
		rewind(inf);
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(99);
	}
	if (pid == 0) {
		int ofd = stdout_path ? open(stdout_path, O_WRONLY) : fileno(out);
		int ifd = in ? fileno(inf) : open("/dev/null", O_RDONLY);
		if (ofd < 0 || ifd < 0)
			_exit(98);
		dup2(ifd, 0);
		dup2(ofd, 1);
		dup2(fileno(err), 2);
		execv(argv[0], argv);
		_exit(97);
	}
	waitpid(pid, &wstatus, 0);
	r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
	                               : 128 + WTERMSIG(wstatus);
	slurp(out, r->out, sizeof r->out);
	slurp(err, r->err, sizeof r->err);
	fclose(inf);
}

char *read_whole_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0) {
		rewind(f);
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}
