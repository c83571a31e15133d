/*
 * --suppressions' list (src/cli/suppressions.c): one row per address,
 * deduplicated with the domain compared without case, its action decided
 * over its records (suppress sticky, else keep or watch by the latest),
 * where it was first and last seen, and the three outputs to the byte.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output.h"
#include "suppressions.h"

/* A record of address a (a C string), with where it was seen. */
static struct supp_record rec(const char *a, enum supp_outcome o,
                              bool suppress, const char *reason,
                              const char *code, const char *file,
                              unsigned long line, long message)
{
	struct supp_record r = {{a, strlen(a)}, o, suppress, reason, code,
	                        file, line, message};
	return r;
}

/* A log line's record. */
static struct supp_record at_line(const char *a, enum supp_outcome o,
                                  bool suppress, const char *reason,
                                  const char *code, unsigned long line)
{
	return rec(a, o, suppress, reason, code, "mail.log", line, -1);
}

static void add(struct suppressions *s, struct supp_record r)
{
	assert_int_equal(suppressions_add(s, &r), 0);
}

/* What suppressions_write() writes in format f (to be freed), and it
 * returned n. */
static char *written(const struct suppressions *s, enum record_format f,
                     size_t n)
{
	struct out_capture c = {0};
	char *text;

	out_capture_begin(&c);
	assert_int_equal(suppressions_write(s, f), n);
	out_capture_end();
	assert_false(c.failed);
	text = malloc(c.len + 1);
	assert_non_null(text);
	if (c.len)
		memcpy(text, c.text, c.len);
	text[c.len] = '\0';
	out_capture_free(&c);
	return text;
}

/* The output of s in format f is expect, of n addresses. */
static void same(const struct suppressions *s, enum record_format f, size_t n,
                 const char *expect)
{
	char *text = written(s, f, n);
	assert_string_equal(text, expect);
	free(text);
}

#define CSV_HEAD "address,action,reason,code,count,first_seen,last_seen\n"
#define TSV_HEAD "address\taction\treason\tcode\tcount\tfirst_seen\tlast_seen\n"

static void test_empty(void **state)
{
	struct suppressions *s = suppressions_new();
	(void)state;
	assert_non_null(s);
	assert_int_equal(suppressions_count(s), 0);
	same(s, RECORD_TEXT, 0, CSV_HEAD);
	same(s, RECORD_TSV, 0, TSV_HEAD);
	same(s, RECORD_JSON, 0, "");
	suppressions_free(s);
	suppressions_free(NULL);
}

/* The same address twice, its domain in another case: one row, the
 * domain shown in lower case; another local part's case is another
 * address. */
static void test_dedup(void **state)
{
	struct suppressions *s = suppressions_new();
	(void)state;
	add(s, at_line("Ann@Example.COM", SUPP_TEMPORARY, false, "mailboxfull",
	               "4.2.2", 3));
	add(s, at_line("Ann@example.com", SUPP_TEMPORARY, false, "mailboxfull",
	               "4.2.2", 8));
	add(s, at_line("ann@EXAMPLE.com", SUPP_TEMPORARY, false, "mailboxfull",
	               "452", 9));
	assert_int_equal(suppressions_count(s), 2);
	same(s, RECORD_TEXT, 2,
	     CSV_HEAD
	     "Ann@example.com,watch,mailboxfull,4.2.2,2,mail.log:3,mail.log:8\n"
	     "ann@example.com,watch,mailboxfull,452,1,mail.log:9,mail.log:9\n");
	suppressions_free(s);
}

/* A suppressing record decides for good: a later success or temporary
 * failure counts, and moves last_seen, but the action, reason and code
 * stay the first suppressing record's. */
static void test_sticky_suppress(void **state)
{
	struct suppressions *s = suppressions_new();
	(void)state;
	add(s, at_line("bob@x.org", SUPP_TEMPORARY, false, "mailboxfull", "4.2.2", 1));
	add(s, at_line("bob@x.org", SUPP_PERMANENT, true, "userunknown", "5.1.1", 2));
	add(s, at_line("bob@x.org", SUPP_PERMANENT, true, "baddomain", "5.1.2", 3));
	add(s, at_line("bob@x.org", SUPP_SUCCESS, false, NULL, "250", 4));
	add(s, at_line("bob@x.org", SUPP_TEMPORARY, false, "systemfull", "4.3.1", 5));
	/* A complaint suppresses too, with its own reason and no code. */
	add(s, at_line("carol@x.org", SUPP_SUCCESS, false, NULL, "2.0.0", 6));
	add(s, rec("carol@x.org", SUPP_COMPLAINT, false, "complaint", NULL,
	           "fbl.mbox", 0, 2));
	add(s, at_line("carol@x.org", SUPP_SUCCESS, false, NULL, "2.0.0", 7));
	same(s, RECORD_TEXT, 2,
	     CSV_HEAD
	     "bob@x.org,suppress,userunknown,5.1.1,5,mail.log:1,mail.log:5\n"
	     "carol@x.org,suppress,complaint,-,3,mail.log:6,mail.log:7\n");
	suppressions_free(s);
}

/* keep when the last record is a success, whatever came before (but a
 * suppressing one); back to watch when a failure follows it. */
static void test_keep_and_watch(void **state)
{
	struct suppressions *s = suppressions_new();
	(void)state;
	add(s, at_line("dan@x.org", SUPP_TEMPORARY, false, "mailboxfull", "4.2.2", 1));
	add(s, at_line("dan@x.org", SUPP_PERMANENT, false, "policy", "5.7.1", 2));
	add(s, at_line("dan@x.org", SUPP_SUCCESS, false, NULL, "2.0.0", 3));
	add(s, at_line("eve@x.org", SUPP_SUCCESS, false, NULL, "250", 4));
	add(s, at_line("eve@x.org", SUPP_TEMPORARY, false, "greylisted", "4.7.1", 5));
	same(s, RECORD_TEXT, 2,
	     CSV_HEAD
	     "dan@x.org,keep,-,2.0.0,3,mail.log:1,mail.log:3\n"
	     "eve@x.org,watch,greylisted,4.7.1,2,mail.log:4,mail.log:5\n");
	suppressions_free(s);
}

/* Temporary failures and permanent ones that do not say suppress are
 * counted and watched, the latest one's reason and code shown. */
static void test_watch_counts(void **state)
{
	struct suppressions *s = suppressions_new();
	(void)state;
	for (unsigned long i = 1; i <= 7; i++)
		add(s, at_line("fay@x.org", SUPP_TEMPORARY, false, "mailboxfull",
		               "4.2.2", i * 10));
	add(s, at_line("fay@x.org", SUPP_PERMANENT, false, "policy", "5.7.1", 80));
	add(s, at_line("gus@x.org", SUPP_PERMANENT, false, NULL, NULL, 90));
	same(s, RECORD_TEXT, 2,
	     CSV_HEAD
	     "fay@x.org,watch,policy,5.7.1,8,mail.log:10,mail.log:80\n"
	     "gus@x.org,watch,-,-,1,mail.log:90,mail.log:90\n");
	suppressions_free(s);
}

/* first_seen and last_seen: FILE:LINE for a log line, FILE#N for a
 * message of an mbox (N from 1), FILE for a message file; across files,
 * and "-" for standard input (a NULL file). */
static void test_seen(void **state)
{
	struct suppressions *s = suppressions_new();
	(void)state;
	add(s, rec("hal@x.org", SUPP_TEMPORARY, false, NULL, "451", "a.log", 12, -1));
	add(s, rec("hal@x.org", SUPP_TEMPORARY, false, NULL, "451", "box.mbox", 0, 0));
	add(s, rec("ida@x.org", SUPP_TEMPORARY, false, NULL, "451", "box.mbox", 0, 41));
	add(s, rec("ida@x.org", SUPP_TEMPORARY, false, NULL, "451", "new/1.eml", 0, -1));
	add(s, rec("jo@x.org", SUPP_TEMPORARY, false, NULL, "451", NULL, 5, -1));
	add(s, rec("jo@x.org", SUPP_TEMPORARY, false, NULL, "451", "a.log", 99, -1));
	same(s, RECORD_TEXT, 3,
	     CSV_HEAD
	     "hal@x.org,watch,-,451,2,a.log:12,box.mbox#1\n"
	     "ida@x.org,watch,-,451,2,box.mbox#42,new/1.eml\n"
	     "jo@x.org,watch,-,451,2,-:5,a.log:99\n");
	suppressions_free(s);
}

/* Records in no order of their own: addresses interleaved, lines and
 * files going backwards.  Rows come in the order first added, and
 * last_seen is the last record added, not the greatest line. */
static void test_out_of_order(void **state)
{
	struct suppressions *s = suppressions_new();
	(void)state;
	add(s, rec("kim@x.org", SUPP_TEMPORARY, false, NULL, "4.4.1", "b.log", 50, -1));
	add(s, rec("lee@x.org", SUPP_SUCCESS, false, NULL, "250", "b.log", 40, -1));
	add(s, rec("kim@x.org", SUPP_SUCCESS, false, NULL, "250", "a.log", 30, -1));
	add(s, rec("max@x.org", SUPP_PERMANENT, true, "userunknown", "5.1.1",
	           "a.log", 20, -1));
	add(s, rec("lee@x.org", SUPP_PERMANENT, true, "userunknown", "5.1.1",
	           "a.log", 10, -1));
	add(s, rec("kim@x.org", SUPP_TEMPORARY, false, "mailboxfull", "4.2.2",
	           "a.log", 5, -1));
	add(s, rec("max@x.org", SUPP_SUCCESS, false, NULL, "250", "a.log", 1, -1));
	same(s, RECORD_TEXT, 3,
	     CSV_HEAD
	     "kim@x.org,watch,mailboxfull,4.2.2,3,b.log:50,a.log:5\n"
	     "lee@x.org,suppress,userunknown,5.1.1,2,b.log:40,a.log:10\n"
	     "max@x.org,suppress,userunknown,5.1.1,2,a.log:20,a.log:1\n");
	suppressions_free(s);
}

/* CSV per RFC 4180: a field with a comma or a quote is quoted, its
 * quotes doubled; control bytes and backslashes shown as every output
 * of the input shows them (never a raw newline in a row). */
static void test_csv_quoting(void **state)
{
	struct suppressions *s = suppressions_new();
	static const char nul[] = "nul\0byte@x.org";
	struct supp_record r = at_line("", SUPP_TEMPORARY, false, NULL, NULL, 1);
	(void)state;
	add(s, at_line("\"a,b\"@X.org", SUPP_PERMANENT, true, "userunknown",
	               "5.1.1", 1));
	add(s, at_line("c,d@x.org", SUPP_TEMPORARY, false, NULL, "451", 2));
	add(s, rec("e\nf\\g@x.org", SUPP_TEMPORARY, false, NULL, "451",
	           "we,ird\"name.log", 3, -1));
	add(s, rec("h@x.org", SUPP_TEMPORARY, false, NULL, "451",
	           "tab\there.mbox", 0, 6));
	r.address.s = nul;
	r.address.len = sizeof nul - 1;
	add(s, r);
	same(s, RECORD_TEXT, 5,
	     CSV_HEAD
	     "\"\"\"a,b\"\"@x.org\",suppress,userunknown,5.1.1,1,mail.log:1,mail.log:1\n"
	     "\"c,d@x.org\",watch,-,451,1,mail.log:2,mail.log:2\n"
	     "e\\x0af\\\\g@x.org,watch,-,451,1,\"we,ird\"\"name.log:3\","
	     "\"we,ird\"\"name.log:3\"\n"
	     "h@x.org,watch,-,451,1,tab\\x09here.mbox#7,tab\\x09here.mbox#7\n"
	     "nul\\x00byte@x.org,watch,-,-,1,mail.log:1,mail.log:1\n");
	suppressions_free(s);
}

/* TSV: the same columns, tab-separated, with the header; a tab or a
 * newline of the input escaped, a comma or a quote as it is. */
static void test_tsv(void **state)
{
	struct suppressions *s = suppressions_new();
	(void)state;
	add(s, at_line("\"a,b\"@x.org", SUPP_PERMANENT, true, "userunknown",
	               "5.1.1", 1));
	add(s, rec("t\tu@x.org", SUPP_SUCCESS, false, NULL, NULL, "in\nbox", 0, 0));
	same(s, RECORD_TSV, 2,
	     TSV_HEAD
	     "\"a,b\"@x.org\tsuppress\tuserunknown\t5.1.1\t1\tmail.log:1\tmail.log:1\n"
	     "t\\x09u@x.org\tkeep\t-\t-\t1\tin\\x0abox#1\tin\\x0abox#1\n");
	suppressions_free(s);
}

/* JSON Lines: one object per address, keys in the order of the columns,
 * count a number, reason and code null when absent, strings escaped per
 * RFC 8259. */
static void test_json(void **state)
{
	struct suppressions *s = suppressions_new();
	(void)state;
	add(s, at_line("Ann@Example.COM", SUPP_PERMANENT, true, "userunknown",
	               "5.1.1", 3));
	add(s, rec("ann@example.com", SUPP_TEMPORARY, false, NULL, NULL,
	           "box.mbox", 0, 1));
	add(s, rec("Ann@example.com", SUPP_SUCCESS, false, NULL, "250",
	           "new/1.eml", 0, -1));
	add(s, rec("\"q\\\"\n\"@x.org", SUPP_TEMPORARY, false, "mailboxfull",
	           "4.2.2", "a \"b\".log", 7, -1));
	same(s, RECORD_JSON, 3,
	     "{\"address\":\"Ann@example.com\",\"action\":\"suppress\","
	     "\"reason\":\"userunknown\",\"code\":\"5.1.1\",\"count\":2,"
	     "\"first_seen\":\"mail.log:3\",\"last_seen\":\"new/1.eml\"}\n"
	     "{\"address\":\"ann@example.com\",\"action\":\"watch\","
	     "\"reason\":null,\"code\":null,\"count\":1,"
	     "\"first_seen\":\"box.mbox#2\",\"last_seen\":\"box.mbox#2\"}\n"
	     "{\"address\":\"\\\"q\\\\\\\"\\n\\\"@x.org\",\"action\":\"watch\","
	     "\"reason\":\"mailboxfull\",\"code\":\"4.2.2\",\"count\":1,"
	     "\"first_seen\":\"a \\\"b\\\".log:7\","
	     "\"last_seen\":\"a \\\"b\\\".log:7\"}\n");
	suppressions_free(s);
}

/* Edges: a record with no address is left out; an address without '@'
 * is kept as written; the file name is copied (the caller's buffer may
 * change); a code longer than the room kept is cut, not overrun. */
static void test_edges(void **state)
{
	struct suppressions *s = suppressions_new();
	char file[32], code[64];
	(void)state;
	add(s, at_line("", SUPP_PERMANENT, true, "userunknown", "5.1.1", 1));
	add(s, at_line("NoDomain", SUPP_TEMPORARY, false, NULL, "451", 2));
	add(s, at_line("nodomain", SUPP_TEMPORARY, false, NULL, "451", 3));
	add(s, at_line("x@", SUPP_TEMPORARY, false, NULL, "451", 4));
	strcpy(file, "first.log");
	add(s, rec("y@Z", SUPP_TEMPORARY, false, NULL, "451", file, 5, -1));
	strcpy(file, "second.log");
	memset(code, '9', sizeof code - 1);
	code[sizeof code - 1] = '\0';
	add(s, rec("y@z", SUPP_TEMPORARY, false, NULL, code, file, 6, -1));
	strcpy(file, "changed");
	assert_int_equal(suppressions_count(s), 4);
	same(s, RECORD_TEXT, 4,
	     CSV_HEAD
	     "NoDomain,watch,-,451,1,mail.log:2,mail.log:2\n"
	     "nodomain,watch,-,451,1,mail.log:3,mail.log:3\n"
	     "x@,watch,-,451,1,mail.log:4,mail.log:4\n"
	     "y@z,watch,-,9999999999999999999999999999999,2,first.log:5,"
	     "second.log:6\n");
	suppressions_free(s);
}

/* 10,000 addresses, each seen twice (the second time its domain in upper
 * case) and a thousand of them a third time suppressed: the table grows
 * many times over, and every address is still found again. */
static void test_many(void **state)
{
	enum { N = 10000 };
	struct suppressions *s = suppressions_new();
	char a[64], expect[160], *text, *line;
	size_t i;
	(void)state;

	for (int pass = 0; pass < 2; pass++)
		for (i = 0; i < N; i++) {
			snprintf(a, sizeof a, "user%zu@%s%zu.example", i,
			         pass ? "DOMAIN" : "domain", i % 97);
			add(s, rec(a, SUPP_TEMPORARY, false, "mailboxfull", "4.2.2",
			           pass ? "b.log" : "a.log", i + 1, -1));
		}
	for (i = 0; i < N; i += 10) {
		snprintf(a, sizeof a, "user%zu@Domain%zu.Example", i, i % 97);
		add(s, rec(a, SUPP_PERMANENT, true, "userunknown", "5.1.1",
		           "c.log", i + 1, -1));
	}
	assert_int_equal(suppressions_count(s), N);
	text = written(s, RECORD_TEXT, N);
	line = strchr(text, '\n') + 1;
	for (i = 0; i < N; i++) {
		char *end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		if (i % 10 == 0)
			snprintf(expect, sizeof expect,
			         "user%zu@domain%zu.example,suppress,userunknown,5.1.1,"
			         "3,a.log:%zu,c.log:%zu", i, i % 97, i + 1, i + 1);
		else
			snprintf(expect, sizeof expect,
			         "user%zu@domain%zu.example,watch,mailboxfull,4.2.2,"
			         "2,a.log:%zu,b.log:%zu", i, i % 97, i + 1, i + 1);
		assert_string_equal(line, expect);
		line = end + 1;
	}
	assert_string_equal(line, "");
	free(text);
	suppressions_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_dedup),
		cmocka_unit_test(test_sticky_suppress),
		cmocka_unit_test(test_keep_and_watch),
		cmocka_unit_test(test_watch_counts),
		cmocka_unit_test(test_seen),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_tsv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
