/* Parsing of code strings and reply lines (src/core/parse.c). */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "smtpcode.h"

static struct smtpcode_query parse_ok(const char *s)
{
	struct smtpcode_query q;
	enum smtpcode_error e = smtpcode_parse(s, strlen(s), &q);
	if (e != SMTPCODE_OK)
		fail_msg("'%s': %s", s, smtpcode_strerror(e));
	return q;
}

static void expect_error(const char *s, size_t len, enum smtpcode_error want)
{
	struct smtpcode_query q;
	enum smtpcode_error e = smtpcode_parse(s, len, &q);
	if (e != want)
		fail_msg("'%.*s': got '%s', want '%s'", (int)len, s,
		         smtpcode_strerror(e), smtpcode_strerror(want));
	assert_int_equal(q.basic, 0);
	assert_false(q.enhanced);
}

static void test_enhanced(void **state)
{
	struct smtpcode_query q;
	(void)state;
	q = parse_ok("4.3.1");
	assert_true(q.enhanced);
	assert_int_equal(q.cls, 4);
	assert_int_equal(q.subject, 3);
	assert_int_equal(q.detail, 1);
	assert_int_equal(q.basic, 0);
	assert_int_equal(q.text_len, 0);
	q = parse_ok("X.7.30");
	assert_int_equal(q.cls, 0);
	assert_int_equal(q.detail, 30);
	q = parse_ok("x.2.2");
	assert_int_equal(q.cls, 0);
	q = parse_ok("  5.999.999\r\n");
	assert_int_equal(q.subject, 999);
	assert_int_equal(q.detail, 999);
	q = parse_ok("2.0.0");
	assert_int_equal(q.cls, 2);
}

static void test_basic(void **state)
{
	struct smtpcode_query q;
	(void)state;
	q = parse_ok("452");
	assert_int_equal(q.basic, 452);
	assert_false(q.enhanced);
	assert_int_equal(parse_ok("200").basic, 200);
	assert_int_equal(parse_ok("599").basic, 599);
	assert_int_equal(parse_ok("\t250 ").basic, 250);
}

static void test_reply_lines(void **state)
{
	const char *s = "452 4.3.1 Insufficient system storage";
	struct smtpcode_query q;
	(void)state;
	q = parse_ok(s);
	assert_int_equal(q.basic, 452);
	assert_true(q.enhanced);
	assert_int_equal(q.cls, 4);
	assert_int_equal(q.text_len, strlen("Insufficient system storage"));
	assert_memory_equal(s + q.text_off, "Insufficient system storage",
	                    q.text_len);

	q = parse_ok("550-5.7.26 This mail has been blocked");
	assert_int_equal(q.basic, 550);
	assert_int_equal(q.detail, 26);

	q = parse_ok("452 4.3.1");
	assert_int_equal(q.basic, 452);
	assert_true(q.enhanced);
	assert_int_equal(q.text_len, 0);

	/* A reply without an enhanced code keeps all its text. */
	s = "554 No SMTP service here";
	q = parse_ok(s);
	assert_int_equal(q.basic, 554);
	assert_false(q.enhanced);
	assert_memory_equal(s + q.text_off, "No SMTP service here", q.text_len);

	/* Text that only looks like a code start is text. */
	q = parse_ok("550 4.3 oops");
	assert_false(q.enhanced);
	assert_int_equal(q.text_len, strlen("4.3 oops"));

	/* An enhanced code leading the text, as in DSN diagnostics. */
	s = "5.1.1 user unknown";
	q = parse_ok(s);
	assert_int_equal(q.basic, 0);
	assert_int_equal(q.cls, 5);
	assert_memory_equal(s + q.text_off, "user unknown", q.text_len);

	/* CRLF and trailing space are not text. */
	q = parse_ok("421 4.4.5 busy\r\n");
	assert_int_equal(q.text_len, 4);
}

static void test_malformed(void **state)
{
	(void)state;
	expect_error("", 0, SMTPCODE_EEMPTY);
	expect_error(" \t\r\n", 4, SMTPCODE_EEMPTY);
	expect_error("4.3", 3, SMTPCODE_EINCOMPLETE);
	expect_error("5.7.", 4, SMTPCODE_EINCOMPLETE);
	expect_error("5..1", 4, SMTPCODE_EINCOMPLETE);
	expect_error("5.", 2, SMTPCODE_EINCOMPLETE);
	expect_error("abc", 3, SMTPCODE_ESYNTAX);
	expect_error(".7.1", 4, SMTPCODE_ESYNTAX);
	expect_error("+550", 4, SMTPCODE_ESYNTAX);
	expect_error("600", 3, SMTPCODE_EBASIC);
	expect_error("199", 3, SMTPCODE_EBASIC);
	expect_error("5500", 4, SMTPCODE_EBASIC);
	expect_error("55", 2, SMTPCODE_EBASIC);
	expect_error("0x226", 5, SMTPCODE_EBASIC);
	expect_error("10.5.7.1", 8, SMTPCODE_EBASIC);
	expect_error("5.1000.1", 8, SMTPCODE_EDIGITS);
	expect_error("5.1.1000", 8, SMTPCODE_EDIGITS);
	expect_error("5.01.1", 6, SMTPCODE_EZERO);
	expect_error("6.0.0", 5, SMTPCODE_ECLASS);
	expect_error("1.0.0", 5, SMTPCODE_ECLASS);
	expect_error("3.1.1", 5, SMTPCODE_ECLASS);
	expect_error("5.7.1.", 6, SMTPCODE_ETRAILING);
	expect_error("5.7.1x", 6, SMTPCODE_ETRAILING);
	expect_error("550x", 4, SMTPCODE_ETRAILING);
	expect_error("4.3.1\xc2\xa0", 7, SMTPCODE_ETRAILING);
	/* Full-width digits are not digits. */
	expect_error("\xef\xbc\x95\xef\xbc\x95\xef\xbc\x90", 9, SMTPCODE_ESYNTAX);
}

/* The parser honours len and never needs a NUL. */
static void test_bounded(void **state)
{
	const char buf[] = {'4', '.', '3', '.', '1', '9', '9'};
	struct smtpcode_query q;
	(void)state;
	assert_int_equal(smtpcode_parse(buf, 5, &q), SMTPCODE_OK);
	assert_int_equal(q.detail, 1);
	assert_int_equal(smtpcode_parse(buf, 6, &q), SMTPCODE_OK);
	assert_int_equal(q.detail, 19);
	assert_int_equal(smtpcode_parse(buf, 3, &q), SMTPCODE_EINCOMPLETE);
	assert_int_equal(smtpcode_parse("4\0.3.1", 6, &q), SMTPCODE_EBASIC);
}

static void test_format_round_trip(void **state)
{
	static const char *codes[] = {"4.3.1", "X.3.1", "5.999.999", "2.0.0",
	                              "452", "X.7.30"};
	(void)state;
	for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
		struct smtpcode_query q = parse_ok(codes[i]);
		char buf[16];
		assert_int_equal(smtpcode_format(&q, buf, sizeof buf),
		                 strlen(codes[i]));
		assert_string_equal(buf, codes[i]);
	}
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(smtpcode_strerror(SMTPCODE_EINCOMPLETE),
	                    "incomplete enhanced code");
	assert_string_equal(smtpcode_strerror((enum smtpcode_error)99),
	                    "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_enhanced),
	    cmocka_unit_test(test_basic),
	    cmocka_unit_test(test_reply_lines),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_bounded),
	    cmocka_unit_test(test_format_round_trip),
	    cmocka_unit_test(test_strerror),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
