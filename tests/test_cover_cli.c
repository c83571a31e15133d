/*
 * The command's paths that test_cli.c and the catalogue leave out: every
 * --field for every kind of result, category rows in every output mode,
 * colour on every kind of entry, a summary of many codes and domains,
 * outputs larger than the output buffer, write errors mid-stream, read
 * errors, standard input that is a directory, a message over the size
 * limit, and a verdict that rests on the dsn= field.  Run through
 * tests/run.c like test_cli.c, plus one runner of its own for the standard
 * inputs run.c cannot give (unreadable, a directory).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "run.h"

#define MAXARGS 8

/* ---- Table-driven cases ---- */

struct cover_case {
	const char *args[MAXARGS];
	int status;
	const char *out; /* a fragment stdout holds, or NULL */
	const char *err; /* a fragment stderr holds, or NULL: stderr empty */
};

static const char *const fields[] = {
	"input", "code", "kind", "known", "registered", "severity", "name",
	"scope", "acts", "retry", "suppress", "bounce", "reason", "basic",
	"meaning", "causes", "fixes", "related", "group", "provider", "sources",
	"warnings",
};

/* Results of every kind, for every field: a basic code, an enhanced code
 * with class, a class-independent one, an unknown one, a category row, a
 * mismatched pair, an ambiguous provider reply, a provider's own code, a
 * provider's meaning that differs from the registry's. */
static const char *const inputs[] = {
	"452", "4.3.1", "X.3.1", "4.3.99", "599", "4.XXX.YYY", "x5z",
	"452 5.2.2 full", "421 4.7.0 A reply nobody has documented - gsmtp",
	"5.7.708", "550 5.7.26 the sender is unauthenticated gsmtp",
};

static const struct cover_case cases[] = {
	/* Category rows in every mode. */
	{{"-j", "4.XXX.YYY"}, 0, "\"code\":\"4.XXX.YYY\"", NULL},
	{{"-t", "x5z"}, 0, "x5z\t", NULL},
	{{"-b", "X.3.YYY"}, 0, "X.3.YYY", NULL},
	{{"-q", "4yz"}, 0, NULL, NULL},
	{{"--color=always", "5yz"}, 0, "\033[1m", NULL},
	/* Colour on each severity, on unknown codes, replies, providers. */
	{{"--color=always", "2.1.5"}, 0, "\033[32m", NULL},
	{{"--color=always", "5.1.1"}, 0, "\033[31m", NULL},
	{{"--color=always", "4.3.99"}, 1, "4.3.99  not a registered code", NULL},
	{{"--color=always", "452 5.2.2 x"}, 0, "WARNING", NULL},
	{{"--color=always", "550 5.7.26 the sender is unauthenticated gsmtp"}, 0,
	 "Gmail", NULL},
	{{"--color=always", "-p", "gmail", "5.7.27"}, 0, "Registry", NULL},
	/* A provider given that has no entry for the code. */
	{{"-p", "apple", "4.3.1"}, 0, "has no entry of its own for 4.3.1", NULL},
	/* A provider's own code, and a provider's range. */
	{{"5.7.708"}, 0, "not a registered code: this meaning is the provider's own",
	 NULL},
	{{"550 5.7.620 banned"}, 0, "  Range      ", NULL},
	/* Narrow and wide wrapping of long words. */
	{{"-w", "21", "550 5.7.1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbb"}, 0,
	 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL},
	{{"-w", "1000", "5.7.1"}, 0, "5.7.1  Delivery not authorized", NULL},
	/* Lists and searches in every mode, with and without providers. */
	{{"-l", "-j", "5.2.*"}, 0, "\"code\":\"5.2.2\"", NULL},
	{{"-l", "-f", "name", "4.2.*"}, 0, "Mailbox full\n", NULL},
	{{"-l", "-q", "4xx"}, 0, NULL, NULL},
	{{"-l", "-p", "all", "-t", "5.7.26"}, 0, "5.7.26\t", NULL},
	{{"-s", "-t", "-p", "gmail", "unauthenticated"}, 0, "5.7.26\t", NULL},
	{{"-s", "-j", "mailbox", "full"}, 0, "\"code\":\"5.2.2\"", NULL},
	{{"--providers", "-j"}, 0, "gmail", NULL},
	/* Bounces as TSV and JSON, with recipients. */
	{{"--mail", "--tsv", MAIL_DIR "/postfix-dsn-3.eml"}, 0, "\t#0\t", NULL},
	{{"--mail", "--json", MAIL_DIR "/exim.eml"}, 0, "\"index\":1", NULL},
	{{"--mail", MAIL_DIR "/exchange-online.eml", MAIL_DIR "/gmail.eml",
	  MAIL_DIR "/yahoo.eml", MAIL_DIR "/qmail.eml"}, 0, "Recipient 1: ", NULL},
	/* -p selects records in --mail: those of the provider the reply
	 * names (Postfix's, relayed by Gmail), a line each. */
	{{"--mail", "-p", "postfix", MAIL_DIR "/gmail.eml"}, 0,
	 "gmail.eml: recipient 1: nobody@example.com 5.1.1 ", NULL},
	{{"--mail", "-p", "gmail", MAIL_DIR "/gmail.eml"}, 1, NULL, NULL},
	{{"--summary", "--json", LOGS_DIR "/sample.log"}, 0, "\"lines\":11", NULL},
	{{"--annotate", "-p", "gmail", LOGS_DIR "/sample.log"}, 0, "  => ", NULL},
	{{"--extract", "--json", "-p", "postfix", LOGS_DIR "/sample.log"}, 0,
	 "\"file\":", NULL},
};

static void check(const struct cover_case *c, const char *in)
{
	char *argv[MAXARGS + 2] = {SMTPCODE_BIN};
	struct run *r = test_malloc(sizeof *r);
	size_t n = 0;
	while (n < MAXARGS && c->args[n]) {
		argv[n + 1] = (char *)c->args[n];
		n++;
	}
	run(r, argv, in, NULL);
	if (r->status != c->status)
		fail_msg("%s ...: exit %d, want %d; stderr:\n%s", c->args[0],
		         r->status, c->status, r->err);
	if (c->out && !strstr(r->out, c->out))
		fail_msg("%s ...: stdout lacks \"%s\"; it was:\n%.2000s", c->args[0],
		         c->out, r->out);
	if (!c->out && c->args[0] && strcmp(c->args[0], "-q") == 0 && r->out[0])
		fail_msg("-q printed something");
	if (c->err ? !strstr(r->err, c->err) : r->err[0] != '\0')
		fail_msg("%s ...: stderr:\n%s", c->args[0], r->err);
	test_free(r);
}

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		check(&cases[i], NULL);
}

/* Every field of every kind of result: one line each, never empty. */
static void test_every_field(void **state)
{
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
		for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
			char *argv[] = {SMTPCODE_BIN, "-f", (char *)fields[f],
			                (char *)inputs[i], NULL};
			run(r, argv, NULL, NULL);
			if (r->status > 1 || r->err[0])
				fail_msg("-f %s '%s': exit %d: %s", fields[f], inputs[i],
				         r->status, r->err);
			if (!r->out[0] || r->out[strlen(r->out) - 1] != '\n' ||
			    strchr(r->out, '\n') != r->out + strlen(r->out) - 1)
				fail_msg("-f %s '%s': not one line: '%s'", fields[f],
				         inputs[i], r->out);
		}
	}
	test_free(r);
}

/* A log of many codes and domains: the summary's tables grow. */
static char *many_lines(size_t n, int distinct)
{
	static const char *const codes[] = {"452 4.3.1", "550 5.1.1", "452 4.2.2",
	                                    "550 5.7.1", "421 4.7.0", "554 5.7.26"};
	size_t size = n * 256, len = 0;
	char *s = malloc(size);
	assert_non_null(s);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(
			s + len, size - len,
			"mx postfix/smtp[1]: Q%zu: to=<u%zu@d%zu.example>, relay=none, "
			"dsn=4.0.0, status=deferred (host mx said: %s text (in reply "
			"to RCPT TO command))\n",
			i, i, distinct ? i : i % 3, codes[i % 6]);
	return s;
}

static void test_summary_grows(void **state)
{
	char *log = many_lines(500, 1);
	struct run *r = test_malloc(sizeof *r);
	char *text[] = {SMTPCODE_BIN, "--summary", NULL};
	char *json[] = {SMTPCODE_BIN, "--summary", "--json", NULL};
	(void)state;
	run(r, text, log, NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "Lines: 500 read, 500 with a code"));
	assert_non_null(strstr(r->out, "d499.example"));
	run(r, json, log, NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "\"lines\":500"));
	free(log);
	log = many_lines(3000, 0);
	run(r, text, log, NULL);
	assert_non_null(strstr(r->out, "Lines: 3000 read"));
	test_free(r);
	free(log);
}

/* stdout of argv with stdin in, whole (run.c keeps 64 kB of it). */
static char *run_to_file(char *const argv[], const char *in, int *status)
{
	char path[] = "/tmp/smtpcode-cover-out-XXXXXX";
	struct run *r = test_malloc(sizeof *r);
	int fd = mkstemp(path);
	FILE *f;
	char *out;
	long n;
	assert_true(fd >= 0);
	close(fd);
	run(r, argv, in, path);
	*status = r->status;
	test_free(r);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	out = malloc((size_t)n + 1);
	assert_non_null(out);
	assert_int_equal(fread(out, 1, (size_t)n, f), (size_t)n);
	out[n] = '\0';
	fclose(f);
	unlink(path);
	return out;
}

/* More output than the 64 kB output buffer, in every record format: every
 * record arrives whole and in order, whichever write fills the buffer (a
 * plain write, or a formatted one that must be redone after the flush);
 * and the same to a full disk, which must be reported. */
static void test_big_output(void **state)
{
	static const char *const modes[][2] = {
		{"--extract", NULL}, {"--extract", "--tsv"}, {"--extract", "--json"},
		{"--annotate", NULL},
	};
	const size_t lines = 3000;
	char *log = many_lines(lines, 1);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
		char *argv[] = {SMTPCODE_BIN, (char *)modes[i][0],
		                (char *)modes[i][1], NULL};
		int status;
		char *out = run_to_file(argv, log, &status), *p = out;
		assert_int_equal(status, 0);
		for (size_t k = 1; k <= lines; k++) {
			char want[64];
			char *nl = strchr(p, '\n');
			if (!nl)
				fail_msg("%s %s: record %zu missing", modes[i][0],
				         modes[i][1] ? modes[i][1] : "", k);
			if (i == 0)
				snprintf(want, sizeof want, "(standard input):%zu: u%zu@d%zu."
				         "example ", k, k - 1, k - 1);
			else if (i == 1)
				snprintf(want, sizeof want, "(standard input)\t%zu\tu%zu@",
				         k, k - 1);
			else if (i == 2)
				snprintf(want, sizeof want, "{\"file\":\"(standard input)\","
				         "\"line\":%zu,", k);
			else
				snprintf(want, sizeof want, "mx postfix/smtp[1]: Q%zu: ",
				         k - 1);
			if (strncmp(p, want, strlen(want)) != 0)
				fail_msg("%s %s: record %zu: want '%s', got '%.80s'",
				         modes[i][0], modes[i][1] ? modes[i][1] : "", k,
				         want, p);
			if (i == 1) { /* eleven columns */
				size_t tabs = 0;
				for (char *t = p; t < nl; t++)
					tabs += *t == '\t';
				assert_int_equal(tabs, 10);
			}
			if (i == 2)
				assert_int_equal(nl[-1], '}');
			p = nl + 1;
			if (i == 3) { /* the verdict line under each log line */
				assert_memory_equal(p, "  => ", 5);
				p = strchr(p, '\n') + 1;
			}
		}
		assert_string_equal(p, "");
		free(out);
		run(r, argv, log, "/dev/full");
		assert_int_equal(r->status, 2);
		assert_non_null(strstr(r->err, "write error"));
	}
	{
		char *list[] = {SMTPCODE_BIN, "--list", "-j", NULL};
		run(r, list, NULL, "/dev/full");
		assert_int_equal(r->status, 2);
	}
	test_free(r);
	free(log);
}

/* A verdict that rests on dsn=, the reply holding no code (1); the
 * reply's own specific code beats dsn= (2: 5.7.1 leaves the reason to
 * words the reply lacks, so suppress is unknown); a generic dsn=4.0.0
 * adds nothing to the reply's 452 (3): the record takes its detail, the
 * verdict is 452's (system, systemfull) and rests on the reply's code. */
static void test_dsn_verdict(void **state)
{
	static const char line[] =
		"mx postfix/smtp[1]: Q1: to=<a@b.example>, relay=none, dsn=5.1.1, "
		"status=bounced (host mx said: no code here (in reply to RCPT TO "
		"command))\n"
		"mx postfix/smtp[1]: Q2: to=<a@b.example>, relay=none, dsn=5.1.1, "
		"status=bounced (host mx said: 550 5.7.1 other (in reply to RCPT TO "
		"command))\n"
		"mx postfix/smtp[1]: Q3: to=<a@b.example>, relay=none, dsn=4.0.0, "
		"status=deferred (host mx said: 452 insufficient (in reply to RCPT "
		"TO command))\n";
	char *text[] = {SMTPCODE_BIN, "--extract", NULL};
	char *json[] = {SMTPCODE_BIN, "--extract", "--json", NULL};
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	run(r, text, line, NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, ":1: a@b.example 5.1.1 permanent"));
	assert_non_null(strstr(r->out, ":2: a@b.example 5.7.1 permanent"));
	assert_non_null(strstr(r->out, "; dsn=5.1.1"));
	assert_non_null(strstr(r->out, ":2: a@b.example 5.7.1 permanent "
	                               "(sender): Delivery not authorized, "
	                               "message refused; retry after-fix, "
	                               "suppress unknown; dsn=5.1.1\n"));
	assert_non_null(strstr(r->out, ":3: a@b.example 4.0.0 temporary "
	                               "(system): Other undefined Status; "
	                               "retry auto, suppress no\n"));
	run(r, json, line, NULL);
	assert_non_null(strstr(r->out, "\"reply\":\"no code here\","
	                               "\"verdict_from\":\"dsn\""));
	assert_non_null(strstr(r->out, "\"reply\":\"550 5.7.1 other\","
	                               "\"verdict_from\":\"code\""));
	assert_non_null(strstr(r->out, "\"reason\":\"systemfull\""));
	assert_non_null(strstr(r->out, "\"reply\":\"452 insufficient\","
	                               "\"verdict_from\":\"code\""));
	test_free(r);
}

/* ---- Standard inputs run.c cannot give ---- */

/* Run argv with stdin opened from path with flags; returns the exit
 * status and leaves stderr in err. */
static int run_stdin(char *const argv[], const char *path, int flags,
                     char *err, size_t size)
{
	FILE *e = tmpfile();
	int wstatus;
	size_t n;
	pid_t pid;
	assert_non_null(e);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int in = open(path, flags), out = open("/dev/null", O_WRONLY);
		if (in < 0 || out < 0)
			_exit(98);
		dup2(in, 0);
		dup2(out, 1);
		dup2(fileno(e), 2);
		execv(argv[0], argv);
		_exit(97);
	}
	waitpid(pid, &wstatus, 0);
	rewind(e);
	n = fread(err, 1, size - 1, e);
	err[n] = '\0';
	fclose(e);
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

static void test_bad_stdin(void **state)
{
	static const char *const modes[] = {"--extract", "--summary", "--mail"};
	char err[4096];
	(void)state;
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
		char *argv[] = {SMTPCODE_BIN, (char *)modes[i], "-", NULL};
		/* Unreadable: opened for writing only. */
		assert_int_equal(run_stdin(argv, "/dev/null", O_WRONLY, err,
		                           sizeof err), 2);
		if (!strstr(err, "smtpcode: (standard input): Bad file descriptor\n"))
			fail_msg("%s: %s", modes[i], err);
		/* A directory. */
		assert_int_equal(run_stdin(argv, "/", O_RDONLY, err, sizeof err), 2);
		if (!strstr(err, "smtpcode: (standard input): Is a directory\n"))
			fail_msg("%s: %s", modes[i], err);
	}
}

/* A message over the 64 MiB limit is refused, not cut. */
static void test_message_too_big(void **state)
{
	size_t n = (64u << 20) + 16;
	char *big = malloc(n + 1);
	char *argv[] = {SMTPCODE_BIN, "--mail", NULL};
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	assert_non_null(big);
	memset(big, 'a', n);
	big[n] = '\0';
	run(r, argv, big, NULL);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "(standard input): message too big "
	                               "(the limit is 64 MiB)\n"));
	assert_string_equal(r->out, "");
	free(big);
	test_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_every_field),
		cmocka_unit_test(test_summary_grows),
		cmocka_unit_test(test_big_output),
		cmocka_unit_test(test_dsn_verdict),
		cmocka_unit_test(test_bad_stdin),
		cmocka_unit_test(test_message_too_big),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
