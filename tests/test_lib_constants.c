/* The named values of include/smtpcode.h are the ids the vocabularies
 * (src/core/vocab.c) give, which the generator writes into the table:
 * the constants, smtpcode_value_parse() and lookups agree. */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "smtpcode.h"

static int parse(enum smtpcode_field f, const char *name)
{
	return smtpcode_value_parse(f, name, strlen(name));
}

static void suppress_values(void **state)
{
	(void)state;
	assert_int_equal(SMTPCODE_SUPPRESS_NO, parse(SMTPCODE_SUPPRESS, "no"));
	assert_int_equal(SMTPCODE_SUPPRESS_YES, parse(SMTPCODE_SUPPRESS, "yes"));
	assert_int_equal(SMTPCODE_SUPPRESS_UNKNOWN,
	                 parse(SMTPCODE_SUPPRESS, "unknown"));
	/* The command's words (-f suppress, JSON) for the same values. */
	assert_int_equal(SMTPCODE_SUPPRESS_FALSE, SMTPCODE_SUPPRESS_NO);
	assert_int_equal(SMTPCODE_SUPPRESS_TRUE, SMTPCODE_SUPPRESS_YES);
	assert_string_equal(smtpcode_value_name(SMTPCODE_SUPPRESS,
	                                        SMTPCODE_SUPPRESS_UNSET), "");
	assert_int_equal(smtpcode_value_count(SMTPCODE_SUPPRESS),
	                 SMTPCODE_SUPPRESS_UNKNOWN + 1);
}

static void severity_values(void **state)
{
	(void)state;
	assert_int_equal(SMTPCODE_SUCCESS, parse(SMTPCODE_SEVERITY, "success"));
	assert_int_equal(SMTPCODE_TEMPORARY,
	                 parse(SMTPCODE_SEVERITY, "temporary"));
	assert_int_equal(SMTPCODE_PERMANENT,
	                 parse(SMTPCODE_SEVERITY, "permanent"));
	assert_int_equal(smtpcode_value_count(SMTPCODE_SEVERITY),
	                 SMTPCODE_PERMANENT + 1);
}

static void frequency_values(void **state)
{
	(void)state;
	assert_int_equal(SMTPCODE_COMMON, parse(SMTPCODE_FREQUENCY, "common"));
	assert_int_equal(SMTPCODE_OCCASIONAL,
	                 parse(SMTPCODE_FREQUENCY, "occasional"));
	assert_int_equal(SMTPCODE_RARE, parse(SMTPCODE_FREQUENCY, "rare"));
	assert_int_equal(SMTPCODE_OBSOLETE, parse(SMTPCODE_FREQUENCY, "obsolete"));
	assert_int_equal(smtpcode_value_count(SMTPCODE_FREQUENCY),
	                 SMTPCODE_OBSOLETE + 1);
	assert_string_equal(smtpcode_field_name(SMTPCODE_FREQUENCY), "frequency");
}

/* The table as generated: a bad mailbox is suppressed, a full system
 * is not, a bare 550 cannot tell. */
static void table_values(void **state)
{
	(void)state;
	const struct smtpcode_entry *e = smtpcode_find_enhanced(5, 1, 1);
	assert_non_null(e);
	assert_int_equal(smtpcode_value(e, SMTPCODE_SUPPRESS), SMTPCODE_SUPPRESS_YES);
	e = smtpcode_find_enhanced(4, 3, 1);
	assert_non_null(e);
	assert_int_equal(smtpcode_value(e, SMTPCODE_SUPPRESS), SMTPCODE_SUPPRESS_NO);
	e = smtpcode_find_basic(550);
	assert_non_null(e);
	assert_int_equal(smtpcode_value(e, SMTPCODE_SUPPRESS),
	                 SMTPCODE_SUPPRESS_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(suppress_values),
		cmocka_unit_test(severity_values),
		cmocka_unit_test(frequency_values),
		cmocka_unit_test(table_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
