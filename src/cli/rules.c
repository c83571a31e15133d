/*
 * A site's own rules (rules.h): the file read, its rules parsed and
 * checked by the library (smtpcode_rules_parse(), src/core/rules.c), and
 * kept for the command's run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

/* The command's rules: NULL until rules_load() reads some. */
static struct smtpcode_rules *loaded;

/* One problem the library found: a line on stderr. */
static void to_stderr(void *ctx, const char *message)
{
	(void)ctx;
	fprintf(stderr, "%s\n", message);
}

/* The rules file's bytes read whole into *text, *len: 0, or -1 after
 * saying why not on stderr. */
static int read_file(const char *path, char **text, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int err = 0;

	if (!fp) {
		fprintf(stderr, "smtpcode: %s: %s (the rules file)\n", path,
		        strerror(errno));
		return -1;
	}
	for (;;) {
		if (n == cap) {
			size_t more = cap ? cap * 2 : 4096;
			char *grown = more > cap ? realloc(buf, more) : NULL;
			if (!grown) {
				err = ENOMEM;
				break;
			}
			buf = grown;
			cap = more;
		}
		size_t got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (got == 0) {
			if (ferror(fp))
				err = errno ? errno : EIO;
			break;
		}
	}
	fclose(fp);
	if (err) {
		fprintf(stderr, "smtpcode: %s: %s (the rules file)\n", path,
		        strerror(err));
		free(buf);
		return -1;
	}
	*text = buf;
	*len = n;
	return 0;
}

int rules_load(const char *path)
{
	char *text = NULL;
	size_t len = 0;

	rules_free();
	errno = 0;
	if (read_file(path, &text, &len) != 0)
		return -1;
	loaded = smtpcode_rules_parse(path, text, len, to_stderr, NULL);
	free(text);
	return loaded ? 0 : -1;
}

void rules_free(void)
{
	smtpcode_rules_free(loaded);
	loaded = NULL;
}

const struct smtpcode_rules *rules_loaded(void)
{
	return loaded;
}

const char *rules_origin(const char *s)
{
	return smtpcode_rules_origin(loaded, s);
}

const char *rules_name(const char *s)
{
	return smtpcode_rules_name(loaded, s);
}
