/*
 * The generator's refusals: each row breaks tests/gentable/good.txt in one
 * way and names the line and message gentable must report.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../src/core/table.h" /* TABLE_SHARED */
#include "run.h"

struct mutation {
	const char *find;    /* first occurrence in good.txt ... */
	const char *replace; /* ... becomes this */
	const char *expect;  /* stderr holds "bad.txt:" followed by this;
	                        "": the change must be accepted */
};

static const struct mutation mutations[] = {
	/* syntax */
	{"scope: mailbox\n", "scope mailbox\n", "8: expected 'key: value'"},
	{"scope: mailbox\n", "colour: blue\n", "8: unknown key 'colour'"},
	{"scope: mailbox\n", "scope:\n", "8: empty value for 'scope'"},
	{"# A small", " continued\n# A small", "1: continuation line outside a record"},
	{"code: X.1.1\n", "name: first\n", "5: a record must start with 'code:'"},
	{"meaning: The address does not exist.",
	 "meaning: The address\tdoes not exist.", "10: control character 0x09 in column 21"},
	{"meaning: The address does not exist.",
	 "meaning: The address \xc3\x28 exist.", "10: invalid UTF-8 in column 22"},
	{"meaning: The address does not exist.",
	 "meaning: Overlong \xc0\xaf slash.", "10: invalid UTF-8"},
	{"meaning: The address does not exist.", "meaning: \x1b[31mred",
	 "10: control character 0x1b"},
	/* codes */
	{"code: 550\n", "code: 5.5\n", "28: '5.5' is not a code"},
	{"code: X.1.1\n", "code: x.1.1\n", "5: write the code as 'X.1.1'"},
	{"code: 550\n", "code: 5.1.1\n", "28: duplicate code 5.1.1 (first at "},
	{"code: X.1.1\n", "code: X.1.2\n", "16: 5.1.1 has no record for X.1.1"},
	{"code: 5.XXX.YYY\n", "code: X.1.2\nname: n\nregistered: yes\nmeaning: m.\n"
	 "source: s\n\ncode: 5.XXX.YYY\n", "47: X.1.2 has no class variant"},
	/* required fields and where they belong */
	{"name: Bad destination mailbox address\n", "",
	 "5: X.1.1: missing 'name'"},
	{"cause: A typing mistake.\n", "", "16: 5.1.1: needs at least 2 'cause' lines"},
	{"fix: sender: Correct the address.\n", "", "16: 5.1.1: missing 'fix'"},
	{"severity: permanent\nacts: sender\nretry: never",
	 "acts: sender\nretry: never", "16: 5.1.1: missing 'severity'"},
	{"now: Not delivered.\n", "", "28: 550: missing 'now'"},
	{"related: 550: the basic code.\n", "", "15: 5.1.1: missing 'related'"},
	{"with: 5.1.1: no such user\n", "with: 5.1.1: no such user\nbasic: 550\n",
	 "44: 'basic' does not belong in a record for 550"},
	{"bounce: hard\nnow: Not delivered;", "bounce: hard\nwith: 550: x\nnow: Not delivered;",
	 "22: 'with' does not belong in a record for 5.1.1"},
	{"scope: mailbox\n", "scope: mailbox\nscope: system\n",
	 "9: 'scope' given twice"},
	{"meaning: Final.\n", "meaning: Final.\nacts: sender\n",
	 "51: 'acts' does not belong in a record for 5.XXX.YYY"},
	/* vocabularies */
	{"scope: mailbox\n", "scope: planet\n",
	 "8: unknown scope 'planet' (expected one of: mailbox, domain, system, "
	 "message, sender, network, session)"},
	{"reason: userunknown\n", "reason: nosuchuser\n", "9: unknown reason 'nosuchuser'"},
	{"acts: sender\nretry: never", "acts: nobody\nretry: never",
	 "18: unknown acts 'nobody'"},
	{"fix: sender: Correct", "fix: Correct", "26: a fix starts with who does it"},
	{"fix: sender: Correct", "fix: none: Correct", "26: a fix starts with who does it"},
	{"basic: 550\n", "basic: 45\n", "11: '45' is not a basic code"},
	{"basic: 550\n", "basic: 551: remark\n",
	 "11: basic names '551', which is not in the table"},
	/* references */
	{"related: 550: the basic code.", "related: 5.1.9: another code.",
	 "13: related names '5.1.9', which is not in the table"},
	{"with: 5.1.1: no such user", "with: 5.1.1 no such user",
	 "43: expected 'with: CODE: how it differs'"},
	{"related: 5.1.1: the enhanced form.", "related: 550: itself.",
	 "44: related names the entry itself"},
	/* providers and groups */
	{"provider: example\nname: Example Mail", "provider: Example\nname: Example Mail",
	 "58: 'Example' is not a valid provider id"},
	{"code: 5.1.1\nprovider: example", "code: 5.1.1\nprovider: exampel",
	 "66: unknown provider 'exampel' (no 'provider: exampel' record)"},
	{"group: address-unknown\nverified", "group: address-gone\nverified",
	 "70: unknown group 'address-gone' (no 'group: address-gone' record)"},
	{"verified: 2026-11-29\n", "", "65: 5.1.1: a provider's entry needs its own 'verified'"},
	{"verified: 2026-11-29\n", "verified: last week\n",
	 "71: expected the date it was verified as YYYY-MM-DD"},
	{"meaning: Example's words for an unknown user.\n", "",
	 "65: 5.1.1: a provider's entry needs its own 'meaning'"},
	{"code: 5.1.1\nprovider: example", "code: X.1.1\nprovider: example",
	 "65: a provider's entry names a class: write 4.1.1 or 5.1.1, not X.1.1"},
	{"match: no such user here\n", "match: no\n",
	 "69: a match is a fragment of 3 to 80 characters"},
	{"marker: mx.example\n", "", "58: example: missing 'marker'"},
	/* the library's scan relies on markers of 3 bytes or more */
	{"marker: mx.example\n", "marker: mx\n",
	 "60: a marker is a fragment of 3 to 80 characters"},
	{"marker: mx.example\n", "marker: MX!\n", ""},
	{"marker: mx.example\n", "marker: mx.example\nmatch: phrase\n",
	 "61: 'match' does not belong in a record for example"},
	{"match: no such user here\n", "",
	 ""}, /* a provider's only entry for a code needs no phrase */
	/* the library's span tables have a class for each byte of the
	 * markers and phrases, and one shared by those past the first 62
	 * (table.h): more are accepted (test_shared_class) */
	{"match: no such user here\n", "match: no such user here\n"
	 "match: abcdefghijklmnopqrstuvwxyz\n"
	 "match: 0123456789.!\"$%&'()*+,-/:;<=>?@[]^_{|}~\n", ""},
	{"source: Example: postmaster page\n\ncode: 5.1.1",
	 "source: Example: postmaster page\n\ncode: 5.1.1\nprovider: example\n"
	 "name: n\nmeaning: m\nverified: 2026-11-29\nsource: s\n\ncode: 5.1.1",
	 "65: 5.1.1 has several example entries: each needs 'match:' lines"},
	/* a group's members share its scope */
	{"name: Address does not exist\nscope: mailbox",
	 "name: Address does not exist\nscope: system",
	 "70: 5.1.1: scope 'mailbox' differs from its group address-unknown's "
	 "'system'"},
	{"scope: mailbox\nmeaning: Nobody", "meaning: Nobody",
	 "53: address-unknown: missing 'scope'"},
	/* suppress yes only for a bad address */
	{"reason: userunknown\n", "reason: blocked\n",
	 "20: 5.1.1: 'suppress: yes' needs scope mailbox or domain and a "
	 "bad-address reason"},
	{"scope: mailbox\n", "scope: sender\n",
	 "20: 5.1.1: 'suppress: yes' needs scope mailbox or domain"},
	/* a verdict the code cannot give is unknown, and says what decides */
	{"retry: never\nsuppress: yes\nbounce: hard\nnow:",
	 "retry: after-fix\nsuppress: unknown\nbounce: unknown\n"
	 "decides: the reply's words.\nnow:", ""},
	{"retry: never\nsuppress: yes\nbounce: hard\nnow:",
	 "retry: after-fix\nsuppress: unknown\nbounce: hard\nnow:",
	 "20: 5.1.1: 'suppress: unknown' and 'bounce: unknown' go together"},
	{"retry: never\nsuppress: yes\nbounce: hard\nnow:",
	 "retry: after-fix\nsuppress: unknown\nbounce: unknown\nnow:",
	 "20: 5.1.1: 'suppress: unknown' needs 'decides:'"},
	{"retry: never\nsuppress: yes\nbounce: hard\nnow:",
	 "retry: never\nsuppress: unknown\nbounce: unknown\ndecides: d.\nnow:",
	 "19: 5.1.1: an unknown verdict takes 'retry: after-fix'"},
	{"bounce: hard\nnow: Not delivered;", "bounce: hard\ndecides: d.\n"
	 "now: Not delivered;",
	 "22: 5.1.1: 'decides' belongs only with 'suppress: unknown'"},
	{"reason: userunknown\n", "reason: userunknown\ndecides: d.\n",
	 "10: 'decides' does not belong in a record for X.1.1"},
	/* final: for temporary codes that end delivery */
	{"severity: permanent\nacts: sender\nretry: never",
	 "severity: permanent\nfinal: yes\nacts: sender\nretry: never",
	 "18: 5.1.1: 'final' is for temporary codes"},
	{"reason: userunknown\n", "reason: userunknown\nfinal: yes\n",
	 "10: 'final' does not belong in a record for X.1.1"},
	/* sources: a provider's own page or a corpus; RFCs for the registry */
	{"source: Example: postmaster page\n\ncorpus",
	 "source: observed replies\n\ncorpus",
	 "72: 5.1.1: 'observed replies' is no source"},
	{"source: Example: postmaster page\n\ncorpus",
	 "source: A blog: typical errors\n\ncorpus",
	 "65: 5.1.1: no source is example's own page"},
	{"source: Example: postmaster page\n\ncorpus",
	 "source: Example bounce archive: message 12\n\ncorpus", ""},
	{"source: Example: postmaster page\n\ncorpus",
	 "source: Example bounce archive\n\ncorpus",
	 "65: 5.1.1: no source is example's own page"},
	{"source: RFC 3463 section 3.2\n", "source: Example: page\n",
	 "14: X.1.1: a registered code cites RFCs, drafts and the IANA "
	 "registry only"},
	{"site: Example\n", "", "58: example: missing 'site'"},
	/* a provider's priority orders the markers' tries */
	{"priority: 10\n", "", "58: provider example has no 'priority:'"},
	{"priority: 10\n", "priority: first\n",
	 "62: priority 'first' is not a whole number from 1 to 65535"},
	{"priority: 10\n", "priority: 65536\n",
	 "62: priority '65536' is not a whole number from 1 to 65535"},
	{"source: Example: postmaster page\n\ncode: 5.1.1",
	 "source: Example: postmaster page\n\nprovider: other\npriority: 10\n"
	 "name: Other\nmarker: mx.other\nsite: Other\nsource: Other: page\n\n"
	 "code: 5.1.1",
	 "66: providers example and other have the same priority 10"},
	{"meaning: Replies collected", "note: Replies collected",
	 "74: example-bounces: missing 'meaning'"},
	{"verified: 2026-11-29\n", "verified: 2026-11-29\nsite: Example\n",
	 "72: 'site' does not belong in a record for 5.1.1"},
	{"corpus: example-bounces\n", "corpus: Example\n",
	 "74: 'Example' is not a valid corpus id"},
	/* a provider's entry is registered when its code is */
	{"verified: 2026-11-29\n", "verified: 2026-11-29\nregistered: no\n",
	 "72: 5.1.1: 'registered: no' but its code is registered"},
	{"code: 5.1.1\nprovider: example\nname: No such user at Example",
	 "code: 5.1.99\nprovider: example\nname: No such user at Example",
	 "65: 5.1.99: missing 'registered'"},
	{"code: 5.1.1\nprovider: example\nname: No such user at Example",
	 "code: 5.1.1\nprovider: example\nseverity: temporary\nname: No such user at Example",
	 "67: 5.1.1: severity 'temporary' contradicts the class digit 5"},

	/* the verdict must tell one story */
	{"severity: permanent\nacts: sender\nretry: never",
	 "severity: temporary\nacts: sender\nretry: never",
	 "17: 5.1.1: severity 'temporary' contradicts the class digit 5 "
	 "(expected 'permanent')"},
	{"severity: permanent\nscope: mailbox", "severity: success\nscope: mailbox",
	 "31: 550: severity 'success' contradicts the class digit 5"},
	{"severity: permanent\nmeaning: Final.", "severity: temporary\nmeaning: Final.",
	 "49: 5.XXX.YYY: severity contradicts the class digit 5"},
	{"suppress: yes\nbounce: hard\nnow: Not delivered;",
	 "suppress: yes\nbounce: block\nnow: Not delivered;",
	 "20: 5.1.1: 'bounce: hard', 'retry: never' and 'suppress: yes' go together"},
	{"retry: never\nsuppress: yes\nbounce: hard\nnow: Not delivered;",
	 "retry: auto\nsuppress: yes\nbounce: hard\nnow: Not delivered;",
	 "19: 5.1.1: a permanent failure takes 'retry: after-fix' or 'never'"},

	/* log dialects (data/logs/, tools/gentable/dialects.c); the record
	 * is at the end of good.txt, from line 78 */
	{"engine: fields\n", "engine: magic\n",
	 "79: unknown engine 'magic' (expected one of: postfix, exim, sendmail, fields)"},
	{"engine: fields\n", "", "78: dialect example-log: missing 'engine'"},
	{"name: Example MTA\n", "", "78: dialect example-log: missing 'name'"},
	{"marker: examplemta:\n", "", "78: dialect example-log: needs a 'marker'"},
	{"marker: examplemta:\n",
	 "marker: a::\nmarker: b::\nmarker: c::\nmarker: d::\nmarker: e::\n",
	 "85: dialect example-log: more than 4 markers"},
	{"separator: ,\n", "separator: ;;\n",
	 "82: separator: ';;' is not one character"},
	{"separator: ,\n", "", "78: dialect example-log: missing 'separator'"},
	{"separator: ,\n", "separator: \" \"\n", ""},
	{"recipient: rcpt=\n", "", "78: dialect example-log: missing 'recipient'"},
	{"reply: \": \"\n", "", "78: dialect example-log: missing 'reply'"},
	{"reply: \": \"\n", "reply: \": \n", "85: reply: unbalanced quotes in '\": '"},
	{"host: host=\n",
	 "host: a-field-name-of-more-than-sixty-four-bytes-which-no-mail-server-writes=\n",
	 "84: host: 'a-field-name-of-more-than-sixty-four-bytes-which-no-mail-server-writes=' "
	 "is longer than 64 bytes"},
	{"dialect: example-log\n", "dialect: Example_Log\n",
	 "78: 'Example_Log' is not a valid dialect id"},
	{"source: Example: log format page\n",
	 "source: Example: log format page\n\ndialect: example-log\nengine: fields\n",
	 "88: duplicate dialect example-log (first at "},
	{"reply: \": \"\n", "reply: \": \"\nmeaning: Courier's.\n",
	 "86: 'meaning' does not belong in a record for example-log"},
	{"scope: mailbox\n", "scope: mailbox\nrecipient: to=\n",
	 "9: 'recipient' does not belong in a record for "},
	/* a built-in engine's record names what the engine reads */
	{"engine: fields\n", "engine: postfix\n",
	 "82: engine postfix has its own separators"},
	{"engine: fields\n", "engine: postfix\n",
	 "83: dialect example-log: recipient 'rcpt=' is not what engine postfix "
	 "reads ('to=')"},
	{"engine: fields\n", "engine: exim\n",
	 "83: engine exim reads no 'recipient' field"},
	{"engine: fields\nname: Example MTA\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply: \": \"\n",
	 "engine: postfix\nname: Example MTA\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply: \" said: \"\n", ""},
};

/* The file at path, which the test cannot do without. */
static char *read_all(const char *path)
{
	char *buf = read_whole_file(path);
	assert_non_null(buf);
	return buf;
}

static char dir[] = "/tmp/smtpcode-gentable-XXXXXX";

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fputs(s, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* Run gentable on one data file; returns its exit status. */
static int gentable(const char *data, struct run *r)
{
	char out[64], date[64], bad[64];
	char *argv[] = {GENTABLE_BIN, out, date, bad, NULL};
	snprintf(out, sizeof out, "%s/table.c", dir);
	snprintf(date, sizeof date, "%s/DATE", dir);
	snprintf(bad, sizeof bad, "%s/bad.txt", dir);
	write_file(bad, data);
	run(r, argv, NULL, NULL);
	return r->status;
}

static int setup(void **state)
{
	char path[64];
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/DATE", dir);
	write_file(path, "2026-11-29\n");
	return 0;
}

static int teardown(void **state)
{
	char path[64];
	(void)state;
	snprintf(path, sizeof path, "%s/DATE", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/bad.txt", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/table.c", dir);
	unlink(path);
	return rmdir(dir);
}

static void test_accepts_good(void **state)
{
	char *good = read_all(GOOD_DATA);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	if (gentable(good, r) != 0)
		fail_msg("good.txt refused:\n%s", r->err);
	assert_string_equal(r->err, "");
	test_free(r);
	free(good);
}

static void test_refuses(void **state)
{
	char *good = read_all(GOOD_DATA);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	for (size_t i = 0; i < sizeof mutations / sizeof *mutations; i++) {
		const struct mutation *m = &mutations[i];
		char *at = strstr(good, m->find), *bad, want[512];
		size_t pre;
		if (!at)
			fail_msg("row %zu: '%s' is not in good.txt", i, m->find);
		pre = (size_t)(at - good);
		bad = malloc(strlen(good) + strlen(m->replace) + 1);
		assert_non_null(bad);
		memcpy(bad, good, pre);
		strcpy(bad + pre, m->replace);
		strcat(bad, at + strlen(m->find));
		snprintf(want, sizeof want, "bad.txt:%s", m->expect);
		if (!*m->expect) { /* a change the generator must accept */
			if (gentable(bad, r) != 0)
				fail_msg("row %zu: refused:\n%s", i, r->err);
			free(bad);
			continue;
		}
		if (gentable(bad, r) != 1 || !strstr(r->err, want))
			fail_msg("row %zu: want exit 1 and \"%s\"; got %d:\n%s", i,
			         want, r->status, r->err);
		assert_non_null(strstr(r->err, "table not written\n"));
		free(bad);
	}
	test_free(r);
	free(good);
}

/* The library's tables have room for 255 markers and phrases without a
 * space (table.h): one more is refused, at the record that brings it.
 * They are spread over two records, as a record's list holds 255 items. */
static void test_too_many_words(void **state)
{
	static const char *const after[] = {"marker: mx.example\n",
	                                    "match: no such user here\n"};
	char *good = read_all(GOOD_DATA), *bad = malloc(strlen(good) + 256 * 32);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	assert_non_null(bad);
	for (int words = 255; words <= 256; words++) {
		const char *from = good;
		size_t len = 0;
		for (int k = 0; k < 2; k++) { /* 149 markers, then matches */
			const char *at = strstr(from, after[k]);
			size_t n;
			assert_non_null(at);
			n = (size_t)(at - from) + strlen(after[k]);
			memcpy(bad + len, from, n);
			len += n;
			from += n;
			for (int i = 0; i < (k ? words - 150 : 149); i++)
				len += (size_t)sprintf(bad + len, "%s: word%d%03d\n",
				                       k ? "match" : "marker", k, i);
		}
		strcpy(bad + len, from);
		if (words == 255 && gentable(bad, r) != 0)
			fail_msg("255 words refused:\n%s", r->err);
		if (words == 256 &&
		    (gentable(bad, r) != 1 || !strstr(r->err, "bad.txt:") ||
		     !strstr(r->err, ": more than 255 markers and phrases "
		                     "without a space\n")))
			fail_msg("256 words: got %d:\n%s", r->status, r->err);
	}
	free(bad);
	test_free(r);
	free(good);
}

static void test_bad_date(void **state)
{
	char path[64];
	char *good = read_all(GOOD_DATA);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	snprintf(path, sizeof path, "%s/DATE", dir);
	write_file(path, "29 November\n");
	assert_int_equal(gentable(good, r), 1);
	assert_non_null(strstr(r->err, "DATE:1: expected the date of the data "
	                                "as YYYY-MM-DD"));
	write_file(path, "2026-11-29\n");
	test_free(r);
	free(good);
}

/* How many bytes table.c's table_class gives class cls. */
static int in_class(unsigned cls)
{
	char path[64], *table, *p;
	int n = 0;
	snprintf(path, sizeof path, "%s/table.c", dir);
	table = read_all(path);
	p = strstr(table, "table_class[256] = {");
	assert_non_null(p);
	p += strlen("table_class[256] = {");
	for (int c = 0; c < 256; c++) {
		char *end;
		unsigned long v = strtoul(p, &end, 0);
		assert_true(end != p);
		n += v == cls;
		p = end + strspn(end, ", \t\n");
	}
	free(table);
	return n;
}

/* Markers and phrases may hold any bytes: those past the first 62 share
 * the last class (table.h), whose rows are full. */
static void test_shared_class(void **state)
{
	static const char at[] = "match: no such user here\n";
	char *good = read_all(GOOD_DATA), *more = malloc(strlen(good) + 256);
	struct run *r = test_malloc(sizeof *r);
	const char *p = strstr(good, at);
	(void)state;
	assert_non_null(more);
	assert_non_null(p);
	assert_int_equal(gentable(good, r), 0);
	assert_int_equal(in_class(TABLE_SHARED), 0);
	sprintf(more, "%.*smatch: abcdefghijklmnopqrstuvwxyz\n"
	        "match: 0123456789.!\"$%%&'()*+,-/:;<=>?@[]^_{|}~\n"
	        "match: caf\xc3\xa9 f\xc3\xbcr\n%s", (int)(p - good), good, p);
	if (gentable(more, r) != 0)
		fail_msg("many bytes refused:\n%s", r->err);
	assert_true(in_class(TABLE_SHARED) > 1);
	test_free(r);
	free(more);
	free(good);
}

static void test_missing_file(void **state)
{
	char out[64], date[64];
	char *argv[] = {GENTABLE_BIN, out, date, "/nonexistent/data.txt", NULL};
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	snprintf(out, sizeof out, "%s/table.c", dir);
	snprintf(date, sizeof date, "%s/DATE", dir);
	run(r, argv, NULL, NULL);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "/nonexistent/data.txt: No such file "
	                                "or directory\n"));
	test_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_accepts_good),
	    cmocka_unit_test(test_refuses),
	    cmocka_unit_test(test_too_many_words),
	    cmocka_unit_test(test_bad_date),
	    cmocka_unit_test(test_shared_class),
	    cmocka_unit_test(test_missing_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
