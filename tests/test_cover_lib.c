/*
 * The library's edges that the area tests leave out: out-of-range
 * arguments to every accessor and lookup, NULL inputs where the header
 * allows them, the table walked through every public accessor, providers
 * given by the caller, ranges of provider codes, and the UTF-8 check the
 * command and the generator share (src/util/utf8.c).
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dialect.h"
#include "smtpcode.h"
#include "utf8.h"

static const struct smtpcode_entry *must(const struct smtpcode_entry *e)
{
	assert_non_null(e);
	return e;
}

static void test_lookup_ranges(void **state)
{
	(void)state;
	assert_null(smtpcode_find_basic(0));
	assert_null(smtpcode_find_basic(199));
	assert_null(smtpcode_find_basic(600));
	must(smtpcode_find_basic(452));
	assert_null(smtpcode_find_enhanced(3, 1, 1));
	assert_null(smtpcode_find_enhanced(6, 0, 0));
	assert_null(smtpcode_find_enhanced(5, 1000, 1));
	assert_null(smtpcode_find_enhanced(5, 1, 1000));
	assert_null(smtpcode_find_enhanced(5, 999, 999));
	must(smtpcode_find_enhanced(0, 3, 1));
	assert_null(smtpcode_find_class(10));
	assert_null(smtpcode_find_class(3));
	must(smtpcode_find_class(4));
	assert_null(smtpcode_find_subject(1000));
	assert_null(smtpcode_find_subject(8));
	must(smtpcode_find_subject(7));
	assert_null(smtpcode_find_basic_digit(0, 5));
	assert_null(smtpcode_find_basic_digit(3, 5));
	assert_null(smtpcode_find_basic_digit(1, 10));
	must(smtpcode_find_basic_digit(1, 5));
	must(smtpcode_find_basic_digit(2, 5));
	assert_null(smtpcode_table_entry(smtpcode_table_size()));
	/* not entries: their index is the table's size */
	assert_int_equal(smtpcode_entry_index(NULL), smtpcode_table_size());
	assert_int_equal(smtpcode_entry_index((const struct smtpcode_entry *)
	                                      (const void *)"4.3.1"),
	                 smtpcode_table_size());
	assert_int_equal(smtpcode_entry_index((const struct smtpcode_entry *)
	    (const void *)((const char *)smtpcode_table_entry(1) - 1)),
	    smtpcode_table_size());
}

static void test_named_lookups(void **state)
{
	(void)state;
	assert_null(smtpcode_find_category("", 0));
	assert_null(smtpcode_find_category(" \t\r\n", 4));
	must(smtpcode_find_category(" 4.xxx.yyy\r\n", 12));
	assert_null(smtpcode_find_category("4.XXX.YYYY", 10));
	assert_null(smtpcode_find_category("4.XXX.YY", 8));
	/* Bounded by len: a NUL inside is a byte like any other. */
	assert_null(smtpcode_find_category("4yz\0", 4));
	must(smtpcode_find_category("4yz\0", 3));
	assert_null(smtpcode_find_provider("", 0));
	assert_null(smtpcode_find_provider("gmai", 4));
	assert_null(smtpcode_find_provider("gmailx", 6));
	must(smtpcode_find_provider("\tGMAIL ", 7));
	assert_null(smtpcode_find_group("", 0));
	must(smtpcode_find_group("mailbox-full", 12));
	assert_null(smtpcode_find_group("gmail", 5));
	assert_null(smtpcode_provider_of(must(smtpcode_find_basic(550))));
}

static void test_accessors_out_of_range(void **state)
{
	const struct smtpcode_entry *e = must(smtpcode_find_enhanced(4, 3, 1));
	struct smtpcode_item it;
	(void)state;
	assert_string_equal(smtpcode_text(e, SMTPCODE_NTEXTS), "");
	assert_string_equal(smtpcode_text(e, (enum smtpcode_text_field)-1), "");
	assert_int_equal(smtpcode_value(e, SMTPCODE_NFIELDS), 0);
	assert_int_equal(smtpcode_count(e, SMTPCODE_NLISTS), 0);
	it = smtpcode_item(e, SMTPCODE_NLISTS, 0);
	assert_string_equal(it.key, "");
	assert_string_equal(it.text, "");
	it = smtpcode_item(e, SMTPCODE_CAUSES, smtpcode_count(e, SMTPCODE_CAUSES));
	assert_string_equal(it.text, "");
	for (int f = 0; f < SMTPCODE_NFIELDS; f++) {
		int n = smtpcode_value_count((enum smtpcode_field)f);
		assert_true(n > 1);
		assert_non_null(smtpcode_field_name((enum smtpcode_field)f));
		assert_null(smtpcode_value_name((enum smtpcode_field)f, -1));
		assert_null(smtpcode_value_name((enum smtpcode_field)f, n));
		assert_null(smtpcode_value_label((enum smtpcode_field)f, -1));
		assert_null(smtpcode_value_label((enum smtpcode_field)f, n));
		assert_string_equal(smtpcode_value_name((enum smtpcode_field)f, 0), "");
		assert_int_equal(smtpcode_value_parse((enum smtpcode_field)f, "", 0), -1);
		assert_int_equal(smtpcode_value_parse((enum smtpcode_field)f,
		                                      "no-such-value", 13), -1);
		for (int v = 1; v < n; v++) {
			const char *name = smtpcode_value_name((enum smtpcode_field)f, v);
			assert_non_null(smtpcode_value_label((enum smtpcode_field)f, v));
			assert_int_equal(smtpcode_value_parse((enum smtpcode_field)f,
			                                      name, strlen(name)), v);
			/* A prefix is not the value. */
			assert_int_not_equal(smtpcode_value_parse((enum smtpcode_field)f,
			                                          name, strlen(name) - 1), v);
		}
	}
	assert_null(smtpcode_field_name(SMTPCODE_NFIELDS));
	assert_int_equal(smtpcode_value_count(SMTPCODE_NFIELDS), 0);
	assert_null(smtpcode_value_name(SMTPCODE_NFIELDS, 1));
	assert_null(smtpcode_value_label(SMTPCODE_NFIELDS, 1));
	assert_int_equal(smtpcode_value_parse(SMTPCODE_NFIELDS, "yes", 3), -1);
	assert_string_equal(smtpcode_strerror((enum smtpcode_error)99),
	                    "unknown error");
	assert_string_equal(smtpcode_version(), SMTPCODE_VERSION);
	assert_int_equal(strlen(smtpcode_data_date()), 10);
}

static void test_format_small_buffers(void **state)
{
	struct smtpcode_query q;
	char buf[4] = "zzz";
	(void)state;
	assert_int_equal(smtpcode_parse("5.999.999", 9, &q), SMTPCODE_OK);
	assert_int_equal(smtpcode_format(&q, NULL, 0), 9);
	assert_int_equal(smtpcode_format(&q, buf, 1), 9);
	assert_string_equal(buf, "");
	assert_int_equal(smtpcode_format(&q, buf, sizeof buf), 9);
	assert_string_equal(buf, "5.9");
	assert_int_equal(smtpcode_parse("X.1.1", 5, &q), SMTPCODE_OK);
	assert_int_equal(smtpcode_format(&q, buf, sizeof buf), 5);
	assert_string_equal(buf, "X.1");
}

/* Every entry, through every accessor, and resolved as itself. */
static void test_whole_table(void **state)
{
	size_t codes = 0, providers = 0;
	(void)state;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		enum smtpcode_kind k = smtpcode_kind(e);
		struct smtpcode_result r;
		assert_int_equal(smtpcode_entry_index(e), i);
		for (int t = 0; t < SMTPCODE_NTEXTS; t++)
			assert_non_null(smtpcode_text(e, (enum smtpcode_text_field)t));
		for (int f = 0; f < SMTPCODE_NFIELDS; f++)
			assert_non_null(smtpcode_value_name(
				(enum smtpcode_field)f,
				smtpcode_value(e, (enum smtpcode_field)f)));
		for (int l = 0; l < SMTPCODE_NLISTS; l++)
			for (size_t n = 0; n < smtpcode_count(e, (enum smtpcode_list)l); n++)
				assert_non_null(smtpcode_item(e, (enum smtpcode_list)l, n).text);
		smtpcode_resolve_entry(e, &r);
		if (k == SMTPCODE_KIND_BASIC || k == SMTPCODE_KIND_ENHANCED) {
			codes++;
			assert_true(r.known);
			assert_ptr_equal(smtpcode_answer(&r), e);
			providers += smtpcode_provider_of(e) != NULL;
		} else {
			/* Categories, providers and groups are no codes. */
			assert_false(r.known);
			assert_null(smtpcode_answer(&r));
		}
	}
	assert_true(codes > 100);
	assert_true(providers > 100);
}

static void test_resolve_edges(void **state)
{
	struct smtpcode_query q, zero;
	struct smtpcode_result r;
	size_t first = 99;
	(void)state;
	memset(&zero, 0, sizeof zero);
	assert_int_equal(smtpcode_code_range(&zero, &first), 0);
	assert_int_equal(first, 0);
	/* No input at all: input may be NULL when len is 0. */
	assert_int_equal(smtpcode_parse("550 5.7.1", 9, &q), SMTPCODE_OK);
	smtpcode_resolve(&q, NULL, 0, NULL, &r);
	assert_true(r.known);
	assert_int_equal(r.match.how, SMTPCODE_MATCH_NONE);
	/* A provider given: its entries whatever the text says. */
	smtpcode_resolve(&q, "550 5.7.1 gsmtp", 15,
	                 must(smtpcode_find_provider("yahoo", 5)), &r);
	assert_true(r.match.given);
	assert_ptr_equal(r.match.provider, smtpcode_find_provider("yahoo", 5));
	/* A code inside a provider's range (5.7.606 through 5.7.649). */
	assert_int_equal(smtpcode_parse("550 5.7.620 banned", 18, &q), SMTPCODE_OK);
	smtpcode_resolve(&q, "550 5.7.620 banned", 18, NULL, &r);
	assert_true(r.known);
	assert_non_null(r.match.entry);
	assert_string_equal(smtpcode_text(r.match.provider, SMTPCODE_CODE),
	                    "microsoft");
	assert_string_equal(smtpcode_text(r.match.entry, SMTPCODE_THROUGH),
	                    "5.7.649");
	/* Pairings. */
	assert_int_equal(smtpcode_check_pair(550, 4, NULL), SMTPCODE_PAIR_MISMATCH);
	assert_int_equal(smtpcode_check_pair(550, 5, NULL), SMTPCODE_PAIR_UNUSUAL);
	assert_int_equal(smtpcode_check_pair(550, 0,
	                                     must(smtpcode_find_enhanced(0, 1, 1))),
	                 SMTPCODE_PAIR_USUAL);
	assert_int_equal(smtpcode_check_pair(421, 0,
	                                     must(smtpcode_find_enhanced(0, 1, 1))),
	                 SMTPCODE_PAIR_UNUSUAL);
}

static void test_patterns_and_search(void **state)
{
	const struct smtpcode_entry *cat = must(smtpcode_find_category("4yz", 3));
	const struct smtpcode_entry *e = must(smtpcode_find_enhanced(5, 2, 2));
	const char *words[] = {"MAILBOX", "full"}, *none[] = {"xyzzy"};
	struct smtpcode_pattern p;
	(void)state;
	assert_int_equal(smtpcode_pattern_parse("*", 1, &p), SMTPCODE_OK);
	assert_true(smtpcode_pattern_match(&p, e));
	assert_false(smtpcode_pattern_match(&p, cat));
	assert_false(smtpcode_pattern_match(&p, must(smtpcode_find_provider("gmail", 5))));
	assert_int_equal(smtpcode_pattern_parse("55x", 3, &p), SMTPCODE_OK);
	assert_false(smtpcode_pattern_match(&p, e));
	assert_true(smtpcode_pattern_match(&p, must(smtpcode_find_basic(552))));
	assert_int_equal(smtpcode_pattern_parse("5.2.*", 5, &p), SMTPCODE_OK);
	assert_false(smtpcode_pattern_match(&p, must(smtpcode_find_basic(552))));
	assert_true(smtpcode_pattern_match(&p, e));
	assert_true(smtpcode_search_match(e, words, 2));
	assert_true(smtpcode_search_match(e, words, 0));
	assert_false(smtpcode_search_match(e, none, 1));
	assert_false(smtpcode_search_match(cat, words, 0));
}

static void test_null_inputs(void **state)
{
	struct smtpcode_query q;
	struct smtpcode_text at;
	struct smtpcode_logline l;
	struct smtpcode_mail m;
	(void)state;
	assert_false(smtpcode_find_code(NULL, 0, &q, &at));
	assert_false(smtpcode_find_code("", 0, &q, &at));
	assert_false(smtpcode_log_parse(NULL, 0, &l));
	assert_int_equal(l.format, SMTPCODE_LOG_NONE);
	memset(&m, 0, sizeof m);
	assert_int_equal(smtpcode_mail_parse(NULL, 0, NULL, 0, &m), 0);
	assert_int_equal(m.kind, SMTPCODE_MAIL_OTHER);
	/* msg NULL with a length: read as empty. */
	assert_int_equal(smtpcode_mail_parse(NULL, 10, NULL, 0, &m), 0);
	assert_int_equal(m.nrecipients, 0);
}

/* src/util/utf8.c: the shortest form of each length, and every way to fail. */
static void test_utf8(void **state)
{
	static const struct {
		const char *s;
		size_t n, want;
	} cases[] = {
		{"a", 1, 1},
		{"\xc2\x80", 2, 2},          {"\xdf\xbf", 2, 2},
		{"\xc0\xaf", 2, 0},          {"\xc1\xbf", 2, 0}, /* overlong */
		{"\xc2", 1, 0},              {"\xc2\x41", 2, 0},
		{"\xe0\xa0\x80", 3, 3},      {"\xe0\x80\xaf", 3, 0}, /* overlong */
		{"\xed\x9f\xbf", 3, 3},      {"\xed\xa0\x80", 3, 0}, /* surrogate */
		{"\xed\xbf\xbf", 3, 0},      {"\xef\xbf\xbf", 3, 3},
		{"\xe2\x82", 2, 0},          {"\xe2\x28\xa1", 3, 0},
		{"\xf0\x90\x80\x80", 4, 4},  {"\xf0\x80\x80\x80", 4, 0},
		{"\xf4\x8f\xbf\xbf", 4, 4},  {"\xf4\x90\x80\x80", 4, 0},
		{"\xf5\x80\x80\x80", 4, 0},  {"\xf0\x90\x80", 3, 0},
		{"\xf0\x90\x28\x80", 4, 0},  {"\x80", 1, 0},
		{"\xbf", 1, 0},              {"\xff", 1, 0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		if (utf8_len((const unsigned char *)cases[i].s, cases[i].n) !=
		    cases[i].want)
			fail_msg("case %zu: want %zu", i, cases[i].want);
}

/* The fields engine (src/logs/fields.c) reads a line by its record
 * alone: here one made by hand, as data/logs/ would give it. */
#define WORD(lit) {(lit), sizeof(lit) - 1}
static const struct log_dialect_rec hand = {
	.name = "hand", .engine = LOG_ENGINE_FIELDS, .separator = ',',
	.marker = {WORD("hand-mta:"), WORD("hand-lmtp:")},
	.recipient = {WORD("rcpt=")}, .host = WORD("host="),
	.dsn = WORD("dsn="), .reply = {WORD(": ")}, .dialect = "hand"};

static bool text_is(struct smtpcode_text t, const char *want)
{
	return t.len == strlen(want) && memcmp(t.s, want, t.len) == 0;
}

static bool fields(const char *line, struct smtpcode_logline *l)
{
	memset(l, 0, sizeof *l);
	return log_fields_read(&hand, l, line, line + strlen(line));
}

static void test_fields_engine(void **state)
{
	struct smtpcode_logline l;
	(void)state;
	assert_true(fields("x hand-mta: id=1,rcpt=<a@b.example>,host=mx.b,"
	                   "state=bounced,dsn=5.1.1: 550 5.1.1 gone", &l));
	assert_int_equal(l.format, SMTPCODE_LOG_FIELDS);
	assert_true(text_is(l.recipient, "a@b.example"));
	assert_true(text_is(l.domain, "b.example"));
	assert_true(text_is(l.relay, "mx.b"));
	/* A record that says no side gives no status: status= is no
	 * field the engine reads (its words are no fixed word). */
	assert_int_equal(l.status.len, 0);
	assert_true(text_is(l.dsn, "5.1.1"));
	assert_true(text_is(l.reply, "550 5.1.1 gone"));
	assert_int_equal(l.code.basic, 550);
	assert_int_equal(l.code.detail, 1);
	/* The second marker; a bare recipient; a reply with no code, whose
	 * words are the reply. */
	assert_true(fields("hand-lmtp: rcpt=c@d: no code here", &l));
	assert_true(text_is(l.recipient, "c@d"));
	assert_true(text_is(l.reply, "no code here"));
	assert_int_equal(l.code.basic, 0);
	/* A field name only counts at a field's start. */
	assert_false(fields("hand-mta: xrcpt=<a@b>: 550 5.1.1 x", &l));
	/* Fields after the reply are the reply's. */
	assert_true(fields("hand-mta: rcpt=<a@b>: 451 4.3.0 host=evil", &l));
	assert_int_equal(l.relay.len, 0);
	assert_int_equal(l.code.cls, 4);
	/* No marker, no recipient: not the dialect's. */
	assert_false(fields("other: rcpt=<a@b>: 550 5.1.1 x", &l));
	assert_false(fields("hand-mta: id=1: 550 5.1.1 x", &l));
	assert_false(fields("hand-mta:", &l));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_ranges),
		cmocka_unit_test(test_named_lookups),
		cmocka_unit_test(test_accessors_out_of_range),
		cmocka_unit_test(test_format_small_buffers),
		cmocka_unit_test(test_whole_table),
		cmocka_unit_test(test_resolve_edges),
		cmocka_unit_test(test_patterns_and_search),
		cmocka_unit_test(test_null_inputs),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_fields_engine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
