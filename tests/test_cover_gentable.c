/*
 * The generator's validation paths that test_generator.c leaves out: the
 * category rows of subjects and basic-code digits, 'through:' ranges, the
 * verdicts of success and temporary codes, references written in another
 * case, NUL bytes, paragraphs, list limits, and the generator's own
 * failures (usage, a missing DATE, a data file that is a directory, an
 * output it cannot write).  Like test_generator.c: each row changes
 * tests/gentable/good.txt in one place and names the refusal expected.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "run.h"

struct mutation {
	const char *find;    /* first occurrence in good.txt ... */
	const char *replace; /* ... becomes this */
	const char *expect;  /* stderr holds "bad.txt:" and this; "": the
	                        change must be accepted */
};

#define BEFORE_CLASS "code: 5.XXX.YYY\n"
#define PROVIDER_ENTRY "code: 5.1.1\nprovider: example\n"
#define VARIANT "code: 5.1.1\nseverity: permanent\n"
/* A class variant of X.1.1 with the given verdict lines. */
#define VARIANT_OF(cls, verdict)                                             \
	"code: " cls "\n" verdict "now: n.\ncause: a.\ncause: b.\n"          \
	"fix: sender: c.\n\n" VARIANT

static const struct mutation mutations[] = {
	/* Category rows: subjects (X.S.YYY) and basic-code digits. */
	{BEFORE_CLASS, "code: X.1.YYY\nname: Addressing Status\nmeaning: m.\n"
	 "source: s\n\n" BEFORE_CLASS, ""},
	{BEFORE_CLASS, "code: X.10.YYY\nname: Ten\nmeaning: m.\nsource: s\n\n"
	 BEFORE_CLASS, ""},
	{BEFORE_CLASS, "code: X.01.YYY\nname: n\nmeaning: m.\nsource: s\n\n"
	 BEFORE_CLASS, "47: 'X.01.YYY' is not a code"},
	{BEFORE_CLASS, "code: X.1a.YYY\nname: n\nmeaning: m.\nsource: s\n\n"
	 BEFORE_CLASS, "47: 'X.1a.YYY' is not a code"},
	{BEFORE_CLASS, "code: X.1234.YYY\nname: n\nmeaning: m.\nsource: s\n\n"
	 BEFORE_CLASS, "47: 'X.1234.YYY' is not a code"},
	{BEFORE_CLASS, "code: 4yz\nname: Transient\nseverity: temporary\n"
	 "meaning: m.\nsource: s\n\n" BEFORE_CLASS, ""},
	{BEFORE_CLASS, "code: 4yz\nname: Transient\nseverity: permanent\n"
	 "meaning: m.\nsource: s\n\n" BEFORE_CLASS,
	 "49: 4yz: severity contradicts the class digit 4"},
	{BEFORE_CLASS, "code: 6yz\nname: n\nmeaning: m.\nsource: s\n\n"
	 BEFORE_CLASS, "47: '6yz' is not a code"},
	{BEFORE_CLASS, "code: x5z\nname: Mail system\nmeaning: m.\nsource: s\n\n"
	 BEFORE_CLASS, ""},
	{BEFORE_CLASS, "code: xaz\nname: n\nmeaning: m.\nsource: s\n\n"
	 BEFORE_CLASS, "47: 'xaz' is not a code"},
	{BEFORE_CLASS, "code: x5z\nname: n\nmeaning: m.\nsource: s\n"
	 "severity: permanent\n\n" BEFORE_CLASS, ""},
	{BEFORE_CLASS, "code: x5z\nname: n\nmeaning: m.\nsource: s\n"
	 "acts: sender\n\n" BEFORE_CLASS,
	 "51: 'acts' does not belong in a record for x5z"},
	/* References must name a code exactly as the table writes it. */
	{"related: 550: the basic code.", "related: x.1.1: lower case.",
	 "13: related names 'x.1.1', which is not in the table"},
	{"related: 550: the basic code.", "related: 5.1.1 550: two codes.",
	 "13: related names '5.1.1 550', which is not in the table"},
	/* Ranges of a provider's codes. */
	{PROVIDER_ENTRY, PROVIDER_ENTRY "through: 5.1.9\n", ""},
	{PROVIDER_ENTRY, PROVIDER_ENTRY "through: 5.1.1\n",
	 "67: 'through: 5.1.1' must name a later code of the form 5.1.N"},
	{PROVIDER_ENTRY, PROVIDER_ENTRY "through: 4.1.9\n",
	 "67: 'through: 4.1.9' must name a later code"},
	{PROVIDER_ENTRY, PROVIDER_ENTRY "through: 5.2.9\n",
	 "67: 'through: 5.2.9' must name a later code"},
	{PROVIDER_ENTRY, PROVIDER_ENTRY "through: 550\n",
	 "67: 'through: 550' must name a later code"},
	{PROVIDER_ENTRY, PROVIDER_ENTRY "through: 5.1.9 text\n",
	 "67: 'through: 5.1.9 text' must name a later code"},
	{PROVIDER_ENTRY, PROVIDER_ENTRY "through: later\n",
	 "67: 'through: later' must name a later code"},
	{VARIANT, VARIANT "through: 5.1.9\n",
	 "18: 'through' does not belong in a record for 5.1.1"},
	/* The verdict of a success and of a temporary failure. */
	{VARIANT, VARIANT_OF("2.1.1", "severity: success\nacts: none\n"
	                     "retry: none\nsuppress: no\nbounce: none\n"), ""},
	{VARIANT, VARIANT_OF("2.1.1", "severity: success\nacts: none\n"
	                     "retry: auto\nsuppress: no\nbounce: none\n"),
	 "19: 2.1.1: a success takes 'retry: none', 'bounce: none' and "
	 "'suppress: no'"},
	{VARIANT, VARIANT_OF("2.1.1", "severity: success\nacts: none\n"
	                     "retry: none\nsuppress: yes\nbounce: none\n"),
	 "19: 2.1.1: a success takes"},
	{VARIANT, VARIANT_OF("2.1.1", "severity: success\nacts: none\n"
	                     "retry: none\nsuppress: no\nbounce: soft\n"),
	 "19: 2.1.1: a success takes"},
	{VARIANT, VARIANT_OF("4.1.1", "severity: temporary\nacts: sender\n"
	                     "retry: auto\nsuppress: no\nbounce: soft\n"), ""},
	{VARIANT, VARIANT_OF("4.1.1", "severity: temporary\nacts: sender\n"
	                     "retry: never\nsuppress: no\nbounce: soft\n"),
	 "19: 4.1.1: a temporary failure takes 'retry: auto' ('after-fix' "
	 "with 'final: yes'), 'bounce: soft' and 'suppress: no'"},
	/* A temporary code that ends delivery (an expiry) is final. */
	{VARIANT, VARIANT_OF("4.1.1", "severity: temporary\nfinal: yes\n"
	                     "acts: sender\nretry: after-fix\nsuppress: no\n"
	                     "bounce: soft\n"), ""},
	{VARIANT, VARIANT_OF("4.1.1", "severity: temporary\nfinal: yes\n"
	                     "acts: sender\nretry: auto\nsuppress: no\n"
	                     "bounce: soft\n"),
	 "20: 4.1.1: a temporary failure takes"},
	/* The failure classes of one code share its reason and group. */
	{VARIANT, VARIANT_OF("4.1.1", "severity: temporary\nreason: blocked\n"
	                     "acts: sender\nretry: auto\nsuppress: no\n"
	                     "bounce: soft\n"),
	 "9: 5.1.1: reason 'userunknown' differs from 4.1.1's 'blocked'"},
	{VARIANT, VARIANT_OF("4.1.1", "severity: temporary\n"
	                     "group: address-unknown\nacts: sender\n"
	                     "retry: auto\nsuppress: no\nbounce: soft\n"),
	 "28: 5.1.1: group '(none)' differs from 4.1.1's 'address-unknown'"},
	{VARIANT, VARIANT_OF("4.1.1", "severity: temporary\nacts: sender\n"
	                     "retry: auto\nsuppress: no\nbounce: hard\n"),
	 "19: 4.1.1: a temporary failure takes"},
	{VARIANT, VARIANT_OF("4.1.1", "severity: temporary\nacts: sender\n"
	                     "retry: auto\nsuppress: yes\nbounce: soft\n"),
	 "19: 4.1.1: a temporary failure takes"},
	{VARIANT, VARIANT_OF("5.1.1", "severity: permanent\nacts: sender\n"
	                     "retry: never\nsuppress: yes\nbounce: hard\n"),
	 "27: duplicate code 5.1.1 (first at "},
	/* Values and items. */
	{"verified: 2026-11-29\n", "verified: 2026-1a-29\n",
	 "71: expected the date it was verified as YYYY-MM-DD"},
	{"verified: 2026-11-29\n", "verified: 2026/11/29\n",
	 "71: expected the date it was verified"},
	{"with: 5.1.1: no such user", "with: 5.1.1:",
	 "43: expected 'with: CODE: how it differs'"},
	{"with: 5.1.1: no such user", "with: : no such user",
	 "43: expected 'with: CODE: how it differs'"},
	{"basic: 550\n", "basic: 650\n", "11: '650' is not a basic code"},
	{"basic: 550\n", "basic: 5a0\n", "11: '5a0' is not a basic code"},
	{"match: no such user here\n",
	 "match: a match that is far too long to be a fragment of a reply, "
	 "more than eighty characters long\n", "69: a match is a fragment"},
	{"match: no such user here\n", "match: trailing \n",
	 "69: a match is a fragment"},
	/* Paragraphs: a continuation line holding "." starts one. */
	{"meaning: The address does not exist.\n",
	 "meaning: The address does not exist.\n .\n A second paragraph.\n", ""},
	/* Ids. */
	{"group: address-unknown\nname", "group: address_unknown\nname",
	 "53: 'address_unknown' is not a valid group id"},
	{"group: address-unknown\nname", "group: address-unknown\nname: twice\n\n"
	 "group: address-unknown\nname",
	 "56: duplicate group address-unknown (first at "},
	{"provider: example\nname: Example Mail",
	 "provider: example\nname: Again\nmarker: m.example\nsource: s\n\n"
	 "provider: example\nname: Example Mail",
	 "63: duplicate provider example (first at "},
};

static char dir[] = "/tmp/smtpcode-cover-gentable-XXXXXX";

/* The file at path, which the test cannot do without. */
static char *read_all(const char *path)
{
	char *buf = read_whole_file(path);
	assert_non_null(buf);
	return buf;
}

static void write_bytes(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void in_dir(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

/* Run gentable: OUTPUT DATE DATA (argv[1..3] given, NULL for defaults). */
static int gentable(const char *out, const char *date, const char *data,
                    struct run *r)
{
	char o[96], d[96], b[96];
	char *argv[] = {GENTABLE_BIN, o, d, b, NULL};
	in_dir(o, sizeof o, "table.c");
	in_dir(d, sizeof d, "DATE");
	in_dir(b, sizeof b, "bad.txt");
	if (out)
		argv[1] = (char *)out;
	if (date)
		argv[2] = (char *)date;
	if (data)
		argv[3] = (char *)data;
	run(r, argv, NULL, NULL);
	return r->status;
}

static int setup(void **state)
{
	char path[96];
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	in_dir(path, sizeof path, "DATE");
	write_bytes(path, "2026-11-29\n", 11);
	return 0;
}

static int teardown(void **state)
{
	static const char *const names[] = {"DATE", "bad.txt", "table.c",
	                                    "table.c.tmp", "outdir/table.c.tmp"};
	char path[96];
	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		in_dir(path, sizeof path, names[i]);
		unlink(path);
	}
	in_dir(path, sizeof path, "outdir/table.c");
	rmdir(path);
	in_dir(path, sizeof path, "outdir");
	rmdir(path);
	return rmdir(dir);
}

static void test_mutations(void **state)
{
	char *good = read_all(GOOD_DATA), path[96];
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	in_dir(path, sizeof path, "bad.txt");
	for (size_t i = 0; i < sizeof mutations / sizeof *mutations; i++) {
		const struct mutation *m = &mutations[i];
		char *at = strstr(good, m->find), *bad, want[512];
		size_t pre, n;
		if (!at)
			fail_msg("row %zu: '%s' is not in good.txt", i, m->find);
		pre = (size_t)(at - good);
		n = pre + strlen(m->replace) + strlen(at + strlen(m->find));
		bad = malloc(n + 1);
		assert_non_null(bad);
		memcpy(bad, good, pre);
		strcpy(bad + pre, m->replace);
		strcat(bad, at + strlen(m->find));
		write_bytes(path, bad, n);
		free(bad);
		if (!*m->expect) {
			if (gentable(NULL, NULL, NULL, r) != 0)
				fail_msg("row %zu: refused:\n%s", i, r->err);
			continue;
		}
		snprintf(want, sizeof want, "bad.txt:%s", m->expect);
		if (gentable(NULL, NULL, NULL, r) != 1 || !strstr(r->err, want))
			fail_msg("row %zu: want exit 1 and \"%s\"; got %d:\n%s", i,
			         want, r->status, r->err);
		assert_non_null(strstr(r->err, "table not written\n"));
	}
	test_free(r);
	free(good);
}

/* A NUL byte in a line, which a C string cannot carry through a row. */
static void test_nul_byte(void **state)
{
	char *good = read_all(GOOD_DATA), path[96];
	size_t n = strlen(good);
	char *at = strstr(good, "meaning: The address");
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	assert_non_null(at);
	at[9] = '\0';
	in_dir(path, sizeof path, "bad.txt");
	write_bytes(path, good, n);
	assert_int_equal(gentable(NULL, NULL, NULL, r), 1);
	assert_non_null(strstr(r->err, "bad.txt:10: NUL byte\n"));
	test_free(r);
	free(good);
}

/* More items in one list than an entry can hold (255). */
static void test_too_many_items(void **state)
{
	char *good = read_all(GOOD_DATA), path[96];
	const char *cause = "cause: A typing mistake.\n";
	char *at = strstr(good, cause), *bad;
	size_t size = strlen(good) + 300 * 40, n;
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	assert_non_null(at);
	bad = malloc(size);
	assert_non_null(bad);
	n = (size_t)(at - good);
	memcpy(bad, good, n);
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(bad + n, size - n, "cause: Cause %d.\n", i);
	n += (size_t)snprintf(bad + n, size - n, "%s", at);
	in_dir(path, sizeof path, "bad.txt");
	write_bytes(path, bad, n);
	assert_int_equal(gentable(NULL, NULL, NULL, r), 1);
	assert_non_null(strstr(r->err, "bad.txt:16: 5.1.1: too many items"));
	test_free(r);
	free(bad);
	free(good);
}

/* The generator's own failures: usage, inputs and output. */
static void test_generator_failures(void **state)
{
	char *good = read_all(GOOD_DATA), path[96], outdir[96], out[112];
	struct run *r = test_malloc(sizeof *r);
	char *usage[] = {GENTABLE_BIN, "x.c", "DATE", NULL};
	(void)state;
	in_dir(path, sizeof path, "bad.txt");
	write_bytes(path, good, strlen(good));

	run(r, usage, NULL, NULL);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "usage: gentable OUTPUT.c DATEFILE "
	                                "DATAFILE...\n"));
	/* A DATE file that is missing, or empty. */
	assert_int_equal(gentable(NULL, "/nonexistent/DATE", NULL, r), 1);
	assert_non_null(strstr(r->err, "/nonexistent/DATE: No such file or "
	                                "directory\n"));
	assert_int_equal(gentable(NULL, "/dev/null", NULL, r), 1);
	assert_non_null(strstr(r->err, "/dev/null:1: expected the date"));
	in_dir(path, sizeof path, "DATE");
	write_bytes(path, "2026-1a-29\n", 11);
	assert_int_equal(gentable(NULL, NULL, NULL, r), 1);
	assert_non_null(strstr(r->err, "DATE:1: expected the date of the data "
	                                "as YYYY-MM-DD\n"));
	write_bytes(path, "2026-11-29\n", 11);
	in_dir(path, sizeof path, "bad.txt");
	/* A data file that is a directory: a read error, reported. */
	assert_int_equal(gentable(NULL, NULL, dir, r), 1);
	assert_non_null(strstr(r->err, "Is a directory"));
	/* An output it cannot create, and one it cannot rename onto. */
	assert_int_equal(gentable("/nonexistent/table.c", NULL, NULL, r), 1);
	assert_non_null(strstr(r->err, "gentable: /nonexistent/table.c.tmp: "
	                                "No such file or directory\n"));
	in_dir(outdir, sizeof outdir, "outdir");
	assert_int_equal(mkdir(outdir, 0700), 0);
	snprintf(out, sizeof out, "%s/table.c", outdir);
	assert_int_equal(mkdir(out, 0700), 0);
	assert_int_equal(gentable(out, NULL, NULL, r), 1);
	assert_non_null(strstr(r->err, "gentable: "));
	assert_non_null(strstr(r->err, "/outdir/table.c: Is a directory\n"));
	/* The temporary file is removed on failure. */
	snprintf(out, sizeof out, "%s/table.c.tmp", outdir);
	assert_int_equal(access(out, F_OK), -1);
	test_free(r);
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_too_many_items),
		cmocka_unit_test(test_generator_failures),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
