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
		if ((smtpcode_kind(e) != SMTPCODE_KIND_BASIC &&
		     smtpcode_kind(e) != SMTPCODE_KIND_ENHANCED) ||
		    smtpcode_provider_of(e))
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

/* The iteration order is the sort order: kinds in order, codes ascending
 * (basic codes, then enhanced codes by subject, detail and class, X
 * first), each standard entry before the providers' entries for its code. */
static void test_order(void **state)
{
	unsigned long last = 0;
	int last_kind = -1, first_of_kind = 1;
	(void)state;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		const char *code = code_of(e);
		int kind = (int)smtpcode_kind(e), provider = smtpcode_provider_of(e) != NULL;
		struct smtpcode_query q;
		unsigned long order;
		if (kind < last_kind)
			fail_msg("%s: kinds out of order", code);
		if (kind != last_kind)
			first_of_kind = 1;
		last_kind = kind;
		if (kind != SMTPCODE_KIND_BASIC && kind != SMTPCODE_KIND_ENHANCED)
			continue;
		assert_int_equal(smtpcode_parse(code, strlen(code), &q), SMTPCODE_OK);
		order = q.basic ? q.basic : (q.subject * 1000UL + q.detail) * 10 + q.cls;
		if (!first_of_kind && (order < last || (order == last && !provider)))
			fail_msg("%s is out of order", code);
		last = order;
		first_of_kind = 0;
	}
	assert_int_equal(last_kind >= SMTPCODE_KIND_CATEGORY, 1);
}

/* Entries with a verdict carry all of it; lists that name codes name
 * entries of the table. */
static void test_complete(void **state)
{
	(void)state;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		const char *code = code_of(e);
		enum smtpcode_kind kind = smtpcode_kind(e);
		int topic = code[0] == 'X';
		if (!*smtpcode_text(e, SMTPCODE_NAME))
			fail_msg("%s lacks a name", code);
		if (kind == SMTPCODE_KIND_PROVIDER) {
			if (!smtpcode_count(e, SMTPCODE_MATCHES) ||
			    !smtpcode_count(e, SMTPCODE_SOURCES))
				fail_msg("provider %s lacks markers or sources", code);
			continue;
		}
		if (!*smtpcode_text(e, SMTPCODE_MEANING))
			fail_msg("%s lacks a meaning", code);
		if (kind == SMTPCODE_KIND_GROUP)
			continue;
		if (smtpcode_count(e, SMTPCODE_SOURCES) == 0)
			fail_msg("%s lacks a source", code);
		if (smtpcode_provider_of(e) && strlen(smtpcode_text(e,
		                                      SMTPCODE_VERIFIED)) != 10)
			fail_msg("%s lacks the date it was verified", code);
		if (kind == SMTPCODE_KIND_CATEGORY || topic)
			continue;
		for (int f = 0; f < SMTPCODE_NFIELDS; f++)
			/* A provider's own code may say nothing of how common
			 * it is; every standard code does (tests/sh/answers.sh). */
			if ((f != SMTPCODE_FREQUENCY || !smtpcode_provider_of(e)) &&
			    smtpcode_value(e, (enum smtpcode_field)f) == 0)
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
