/*
 * Coverage of the standards: every code the IANA registry enumerates, every
 * class and subject row, and every basic reply code must be in the table,
 * under its registered name.  The lists are facts kept in tests/facts/,
 * independent of data/.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "smtpcode.h"

/* Calls fn for each "CODE|NAME[|FLAG]" line of a facts file; returns the
 * number of lines. */
static int each_fact(const char *file,
                     void (*fn)(const char *code, const char *name,
                                const char *flag))
{
	char path[512], line[512];
	FILE *f;
	int n = 0;
	snprintf(path, sizeof path, "%s/%s", FACTS_DIR, file);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f)) {
		char *name, *flag;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		name = strchr(line, '|');
		assert_non_null(name);
		*name++ = '\0';
		flag = strchr(name, '|');
		if (flag)
			*flag++ = '\0';
		fn(line, name, flag ? flag : "");
		n++;
	}
	fclose(f);
	return n;
}

static const struct smtpcode_entry *find(const char *code)
{
	struct smtpcode_query q;
	if (smtpcode_parse(code, strlen(code), &q) != SMTPCODE_OK)
		fail_msg("'%s' does not parse", code);
	return q.basic ? smtpcode_find_basic(q.basic)
	               : smtpcode_find_enhanced(q.cls, q.subject, q.detail);
}

static void check_enhanced(const char *code, const char *name, const char *flag)
{
	const struct smtpcode_entry *e = find(code);
	struct smtpcode_query q;
	int variants = 0;
	(void)flag;
	if (!e)
		fail_msg("registered code %s is missing from the table", code);
	if (*name && strcmp(smtpcode_text(e, SMTPCODE_NAME), name) != 0)
		fail_msg("%s is named '%s'; the registry says '%s'", code,
		         smtpcode_text(e, SMTPCODE_NAME), name);
	if (smtpcode_value(e, SMTPCODE_REGISTERED) != 2)
		fail_msg("%s is not marked registered", code);
	smtpcode_parse(code, strlen(code), &q);
	for (unsigned cls = 2; cls <= 5; cls++)
		variants += smtpcode_find_enhanced(cls, q.subject, q.detail) != NULL;
	if (variants == 0)
		fail_msg("%s answers for no class", code);
}

static void check_basic(const char *code, const char *name, const char *flag)
{
	const struct smtpcode_entry *e = find(code);
	int registry_only = strcmp(flag, "registry-only") == 0;
	if (!e)
		fail_msg("basic code %s is missing from the table", code);
	if (strcmp(smtpcode_text(e, SMTPCODE_NAME), name) != 0)
		fail_msg("%s is named '%s'; its RFC says '%s'", code,
		         smtpcode_text(e, SMTPCODE_NAME), name);
	/* The six that no RFC defines are labelled as such. */
	if (registry_only && (smtpcode_value(e, SMTPCODE_REGISTERED) != 1 ||
	                      smtpcode_count(e, SMTPCODE_NOTES) == 0))
		fail_msg("%s appears only in the registry: it must say so", code);
	if (!registry_only && smtpcode_value(e, SMTPCODE_REGISTERED) != 2)
		fail_msg("%s is not marked registered", code);
}

static void check_category(const char *code, const char *name, const char *flag)
{
	const struct smtpcode_entry *e = smtpcode_find_category(code, strlen(code));
	(void)flag;
	if (!e)
		fail_msg("category row %s is missing from the table", code);
	assert_string_equal(smtpcode_text(e, SMTPCODE_NAME), name);
}

static void test_registered_enhanced(void **state)
{
	(void)state;
	assert_int_equal(each_fact("iana-enhanced.txt", check_enhanced), 81);
}

static void test_basic_codes(void **state)
{
	(void)state;
	assert_int_equal(each_fact("basic-codes.txt", check_basic), 44);
}

static void test_class_and_subject_rows(void **state)
{
	(void)state;
	assert_int_equal(each_fact("iana-subjects.txt", check_category), 11);
}

/* Class-specific answers: success codes read as success, and the classes
 * of one code differ where they should. */
static void test_classes(void **state)
{
	static const char *success[] = {"2.0.0", "2.1.5", "2.6.4", "2.3.6"};
	const struct smtpcode_entry *t, *p;
	(void)state;
	for (size_t i = 0; i < sizeof success / sizeof *success; i++) {
		const struct smtpcode_entry *e = find(success[i]);
		assert_non_null(e);
		assert_int_equal(smtpcode_value(e, SMTPCODE_SEVERITY), SMTPCODE_SUCCESS);
		assert_string_equal(smtpcode_value_name(SMTPCODE_BOUNCE,
		                    smtpcode_value(e, SMTPCODE_BOUNCE)), "none");
	}
	t = find("4.2.2");
	p = find("5.2.2");
	assert_non_null(t);
	assert_non_null(p);
	assert_non_null(find("X.2.2"));
	assert_string_not_equal(smtpcode_text(t, SMTPCODE_NOW),
	                        smtpcode_text(p, SMTPCODE_NOW));
	assert_int_not_equal(smtpcode_value(t, SMTPCODE_RETRY),
	                     smtpcode_value(p, SMTPCODE_RETRY));
}

/* Suppression follows the address: never for blocks, system problems or
 * temporary failures; of the security codes only those that say the
 * address changed hands (X.7.17 mailbox owner, X.7.18 domain owner,
 * RFC 7293), whose reason, hasmoved, drops it. */
static void test_suppress_follows_the_address(void **state)
{
	static const char *suppress[] = {"5.1.1", "5.1.2", "5.1.3", "5.1.6",
	                                 "5.1.10", "5.2.1"};
	(void)state;
	for (size_t i = 0; i < sizeof suppress / sizeof *suppress; i++) {
		const struct smtpcode_entry *e = find(suppress[i]);
		if (!e)
			fail_msg("%s is missing", suppress[i]);
		assert_string_equal(smtpcode_value_name(SMTPCODE_SUPPRESS,
		                    smtpcode_value(e, SMTPCODE_SUPPRESS)), "yes");
	}
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		const char *code = smtpcode_text(e, SMTPCODE_CODE);
		int yes = smtpcode_value(e, SMTPCODE_SUPPRESS) == 2;
		/* Providers' own entries follow the provider (Microsoft's
		 * 5.7.504 is an unknown recipient). */
		if (smtpcode_kind(e) != SMTPCODE_KIND_ENHANCED ||
		    smtpcode_provider_of(e))
			continue;
		bool moved = smtpcode_value(e, SMTPCODE_REASON) ==
		             smtpcode_value_parse(SMTPCODE_REASON, "hasmoved", 8);
		if (yes && (code[0] != '5' ||
		            (strncmp(code + 1, ".7.", 3) == 0 && !moved) ||
		            strncmp(code + 1, ".3.", 3) == 0))
			fail_msg("%s must not suppress the address", code);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_registered_enhanced),
	    cmocka_unit_test(test_basic_codes),
	    cmocka_unit_test(test_class_and_subject_rows),
	    cmocka_unit_test(test_classes),
	    cmocka_unit_test(test_suppress_follows_the_address),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
