/* The generated table as a whole: order, self-lookup, completeness. */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "smtpcode.h"

static const char *code_of(const struct smtpcode_entry *e)
{
	return smtpcode_text(e, SMTPCODE_CODE);
}

/* Every code entry parses and finds itself; categories find themselves
 * through their own lookups; the iteration order is the sort order. */
static void test_every_entry_finds_itself(void **state)
{
	size_t n = smtpcode_table_size();
	(void)state;
	assert_true(n > 20);
	for (size_t i = 0; i < n; i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		const char *code = code_of(e);
		struct smtpcode_query q;
		if (smtpcode_kind(e) == SMTPCODE_KIND_CATEGORY)
			continue;
		if (smtpcode_parse(code, strlen(code), &q) != SMTPCODE_OK)
			fail_msg("entry %zu: '%s' does not parse", i, code);
		if (q.basic)
			assert_ptr_equal(smtpcode_find_basic(q.basic), e);
		else
			assert_ptr_equal(smtpcode_find_enhanced(q.cls, q.subject,
			                                        q.detail), e);
	}
	assert_null(smtpcode_table_entry(n));
}

/* Keys strictly increase: basic codes ascending, then enhanced codes by
 * subject, detail and class (X first), then categories. */
static void test_order(void **state)
{
	unsigned last_basic = 0;
	unsigned long last_enhanced = 0, order;
	int seen_enhanced = 0, seen_category = 0;
	(void)state;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		const char *code = code_of(e);
		struct smtpcode_query q;
		switch (smtpcode_kind(e)) {
		case SMTPCODE_KIND_BASIC:
			assert_false(seen_enhanced || seen_category);
			smtpcode_parse(code, strlen(code), &q);
			assert_true(q.basic > last_basic);
			last_basic = q.basic;
			break;
		case SMTPCODE_KIND_ENHANCED:
			assert_false(seen_category);
			smtpcode_parse(code, strlen(code), &q);
			order = (q.subject * 1000UL + q.detail) * 10 + q.cls;
			if (seen_enhanced && order <= last_enhanced)
				fail_msg("%s is out of order", code);
			last_enhanced = order;
			seen_enhanced = 1;
			break;
		case SMTPCODE_KIND_CATEGORY:
			seen_category = 1;
			break;
		}
	}
	assert_true(seen_enhanced && seen_category);
}

/* Entries with a verdict carry all of it; lists that name codes name
 * entries of the table. */
static void test_complete(void **state)
{
	(void)state;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		const char *code = code_of(e);
		int topic = code[0] == 'X';
		if (!*smtpcode_text(e, SMTPCODE_NAME) ||
		    !*smtpcode_text(e, SMTPCODE_MEANING) ||
		    smtpcode_count(e, SMTPCODE_SOURCES) == 0)
			fail_msg("%s lacks a name, meaning or source", code);
		if (smtpcode_kind(e) == SMTPCODE_KIND_CATEGORY || topic)
			continue;
		for (int f = 0; f < SMTPCODE_NFIELDS; f++)
			if (smtpcode_value(e, (enum smtpcode_field)f) == 0)
				fail_msg("%s lacks %s", code,
				         smtpcode_field_name((enum smtpcode_field)f));
		if (!*smtpcode_text(e, SMTPCODE_NOW) ||
		    smtpcode_count(e, SMTPCODE_CAUSES) < 2 ||
		    smtpcode_count(e, SMTPCODE_FIXES) < 1 ||
		    smtpcode_count(e, SMTPCODE_RELATED) < 1)
			fail_msg("%s lacks what happens now, causes, fixes or "
			         "related codes", code);
		for (size_t k = 0; k < smtpcode_count(e, SMTPCODE_RELATED); k++) {
			const char *rel = smtpcode_item(e, SMTPCODE_RELATED, k).key;
			struct smtpcode_query q;
			assert_int_equal(smtpcode_parse(rel, strlen(rel), &q),
			                 SMTPCODE_OK);
		}
	}
}

/* Each class variant's severity follows its class digit. */
static void test_severity_follows_class(void **state)
{
	(void)state;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		const char *code = code_of(e);
		int sev = smtpcode_value(e, SMTPCODE_SEVERITY);
		if (smtpcode_kind(e) != SMTPCODE_KIND_ENHANCED || code[0] == 'X')
			continue;
		assert_int_equal(sev, code[0] == '2' ? SMTPCODE_SUCCESS
		                    : code[0] == '4' ? SMTPCODE_TEMPORARY
		                                     : SMTPCODE_PERMANENT);
	}
}

static void test_vocabulary(void **state)
{
	(void)state;
	assert_string_equal(smtpcode_value_name(SMTPCODE_SEVERITY,
	                                        SMTPCODE_TEMPORARY), "temporary");
	assert_int_equal(smtpcode_value_parse(SMTPCODE_SCOPE, "system", 6) > 0, 1);
	assert_int_equal(smtpcode_value_parse(SMTPCODE_SCOPE, "planet", 6), -1);
	assert_int_equal(smtpcode_value_parse(SMTPCODE_SCOPE, "", 0), -1);
	assert_null(smtpcode_value_name(SMTPCODE_BOUNCE, 99));
	assert_null(smtpcode_value_name(SMTPCODE_NFIELDS, 1));
	assert_string_equal(smtpcode_field_name(SMTPCODE_REASON), "reason");
	/* Sisimai's vocabulary, as scripts see it. */
	assert_true(smtpcode_value_parse(SMTPCODE_REASON, "mailboxfull", 11) > 0);
	assert_true(smtpcode_value_parse(SMTPCODE_REASON, "undefined", 9) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_entry_finds_itself),
	    cmocka_unit_test(test_order),
	    cmocka_unit_test(test_complete),
	    cmocka_unit_test(test_severity_follows_class),
	    cmocka_unit_test(test_vocabulary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
