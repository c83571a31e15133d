/* Patterns of codes (src/core/pattern.c) and word search
 * (src/core/search.c). */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "smtpcode.h"

static struct smtpcode_pattern pattern(const char *s)
{
	struct smtpcode_pattern p;
	if (smtpcode_pattern_parse(s, strlen(s), &p) != SMTPCODE_OK)
		fail_msg("'%s' should be a pattern", s);
	return p;
}

static bool matches(const char *pat, const char *code)
{
	struct smtpcode_pattern p = pattern(pat);
	struct smtpcode_query q;
	const struct smtpcode_entry *e;
	assert_int_equal(smtpcode_parse(code, strlen(code), &q), SMTPCODE_OK);
	e = q.basic ? smtpcode_find_basic(q.basic)
	            : smtpcode_find_enhanced(q.cls, q.subject, q.detail);
	assert_non_null(e);
	return smtpcode_pattern_match(&p, e);
}

static void test_parse(void **state)
{
	static const char *bad[] = {"", "5.7", "5.7.1.2", "6.*", "5.1000.*",
	                            "abc", "5.a.*", "1xx", "5555", "5", ".7.*"};
	struct smtpcode_pattern p;
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (smtpcode_pattern_parse(bad[i], strlen(bad[i]), &p) == SMTPCODE_OK)
			fail_msg("'%s' should not be a pattern", bad[i]);
	assert_true(pattern("5.7.*").wild);
	assert_true(pattern("X.2.X").wild);
	assert_true(pattern("5.*").wild);
	assert_true(pattern("4xx").wild);
	assert_true(pattern("*").wild);
	assert_false(pattern("X.3.1").wild); /* a lookup, not a list */
	assert_false(pattern("452").wild);
}

static void test_match(void **state)
{
	(void)state;
	assert_true(matches("5.7.*", "5.7.1"));
	assert_true(matches("5.7.*", "5.7.30"));
	assert_false(matches("5.7.*", "4.7.1"));
	assert_false(matches("5.7.*", "X.7.1"));
	assert_true(matches("X.2.X", "X.2.2"));
	assert_true(matches("X.2.X", "4.2.2"));
	assert_false(matches("X.2.X", "5.3.1"));
	assert_true(matches("5.*", "5.1.1"));
	assert_true(matches("4xx", "452"));
	assert_false(matches("4xx", "552"));
	assert_true(matches("55x", "556"));
	assert_false(matches("55x", "5.5.0"));
	assert_true(matches("5*", "530"));
	assert_true(matches("*", "2.0.0"));
	assert_false(smtpcode_pattern_match(&(struct smtpcode_pattern){0},
	                                    smtpcode_find_class(4)));
}

static void test_search(void **state)
{
	const char *words[] = {"MAILBOX", "full"};
	const char *none[] = {"xyzzy"};
	(void)state;
	assert_true(smtpcode_search_match(smtpcode_find_enhanced(5, 2, 2), words, 2));
	assert_false(smtpcode_search_match(smtpcode_find_enhanced(5, 3, 1), none, 1));
	assert_true(smtpcode_search_match(smtpcode_find_basic(452), words, 0));
	assert_false(smtpcode_search_match(smtpcode_find_class(4), words, 0));
}

/* A provider's entry named name (the first in table order). */
static const struct smtpcode_entry *provider_entry(const char *name)
{
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		if (smtpcode_provider_of(e) &&
		    strcmp(smtpcode_text(e, SMTPCODE_NAME), name) == 0)
			return e;
	}
	fail_msg("no provider's entry is named '%s'", name);
	return NULL;
}

/* Ranks: the words as a phrase before the words apart, a standard entry
 * before a provider's; one string of words searches as the words apart
 * do; a synonym finds its list's other phrases. */
static void test_search_rank(void **state)
{
	const char *two[] = {"mailbox", "full"}, *one[] = {" Mailbox\tfull "};
	const char *apart[] = {"full", "mailbox"}, *quota[] = {"over quota"};
	const char *listed[] = {"blacklisted"}, *slow[] = {"throttled"};
	const struct smtpcode_entry *full = smtpcode_find_enhanced(5, 2, 2);
	(void)state;
	assert_int_equal(smtpcode_search_rank(full, two, 2), 1);
	assert_int_equal(smtpcode_search_rank(full, one, 1), 1);
	assert_int_equal(smtpcode_search_rank(full, apart, 2), 3);
	assert_int_equal(smtpcode_search_rank(full, quota, 1), 1);
	assert_int_equal(smtpcode_search_rank(provider_entry("Mailbox full"),
	                                      two, 2), 2);
	assert_int_equal(smtpcode_search_rank(smtpcode_find_class(4), two, 0), 0);
	assert_true(smtpcode_search_match(
	    provider_entry("Sender IP address on a DNS blocklist"), listed, 1));
	assert_true(smtpcode_search_match(
	    provider_entry("Rate limit reached at GMX or WEB.DE"), slow, 1));
	/* Whole words only: "listed" is a synonym, "unlisted" holds none. */
	assert_false(smtpcode_search_match(
	    smtpcode_find_enhanced(5, 3, 1), listed, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_match),
	    cmocka_unit_test(test_search),
	    cmocka_unit_test(test_search_rank),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
