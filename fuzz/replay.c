/*
 * Replays fuzz inputs without libFuzzer: calls LLVMFuzzerTestOneInput()
 * on every file named, and on every file of every directory named (not
 * recursively), so that the committed corpora run as regression tests on
 * the normal build (ctest: fuzz_replay_NAME).  A broken invariant aborts.
 *
 * usage: fuzz_replay_NAME DIR|FILE...
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long ninputs;

/* Run one input, in a buffer of exactly its size (so that the sanitizers
 * see any read past its end). */
static int replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t len = 0, cap = 0;

	if (!fp) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t got;
		if (len == cap) {
			unsigned char *p;
			cap = cap ? 2 * cap : 4096;
			if (!(p = realloc(data, cap))) {
				fprintf(stderr, "%s: out of memory\n", path);
				free(data);
				fclose(fp);
				return -1;
			}
			data = p;
		}
		got = fread(data + len, 1, cap - len, fp);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		free(data);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	{
		unsigned char *exact = malloc(len ? len : 1);
		if (!exact) {
			free(data);
			return -1;
		}
		if (len)
			memcpy(exact, data, len);
		free(data);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	ninputs++;
	return 0;
}

static int replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int status = 0;

	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >=
		    (int)sizeof path) {
			fprintf(stderr, "%s/%s: path too long\n", dir, e->d_name);
			status = -1;
			continue;
		}
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (replay_file(path) != 0)
			status = -1;
	}
	closedir(d);
	return status;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			status = 2;
		} else if (S_ISDIR(st.st_mode) ? replay_dir(argv[i])
		                               : replay_file(argv[i])) {
			status = 2;
		}
	}
	printf("replayed %lu inputs\n", ninputs);
	/* An empty corpus would make the test pass vacuously. */
	return status ? status : ninputs ? 0 : 2;
}
