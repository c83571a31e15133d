/* Lookups, resolution of queries, and the pairing check (src/core/lookup.c). */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "smtpcode.h"

static struct smtpcode_result resolve(const char *s)
{
	struct smtpcode_query q;
	struct smtpcode_result r;
	assert_int_equal(smtpcode_parse(s, strlen(s), &q), SMTPCODE_OK);
	smtpcode_resolve(&q, s, strlen(s), NULL, &r);
	return r;
}

static void test_find(void **state)
{
	const struct smtpcode_entry *e;
	(void)state;
	e = smtpcode_find_enhanced(4, 3, 1);
	assert_non_null(e);
	assert_string_equal(smtpcode_text(e, SMTPCODE_CODE), "4.3.1");
	assert_string_equal(smtpcode_text(e, SMTPCODE_NAME), "Mail system full");
	assert_int_equal(smtpcode_value(e, SMTPCODE_SEVERITY), SMTPCODE_TEMPORARY);
	assert_string_equal(smtpcode_value_name(SMTPCODE_SCOPE,
	                    smtpcode_value(e, SMTPCODE_SCOPE)), "system");
	assert_string_equal(smtpcode_value_name(SMTPCODE_SUPPRESS,
	                    smtpcode_value(e, SMTPCODE_SUPPRESS)), "no");
	assert_int_equal(smtpcode_kind(e), SMTPCODE_KIND_ENHANCED);

	e = smtpcode_find_basic(452);
	assert_non_null(e);
	assert_int_equal(smtpcode_kind(e), SMTPCODE_KIND_BASIC);
	assert_null(smtpcode_find_basic(599));
	assert_null(smtpcode_find_basic(1000));
	assert_null(smtpcode_find_enhanced(3, 3, 1));
	assert_null(smtpcode_find_enhanced(4, 3, 99));
	assert_null(smtpcode_find_enhanced(4, 1000, 1));

	e = smtpcode_find_class(4);
	assert_non_null(e);
	assert_string_equal(smtpcode_text(e, SMTPCODE_CODE), "4.XXX.YYY");
	assert_string_equal(smtpcode_text(smtpcode_find_subject(3), SMTPCODE_CODE),
	                    "X.3.YYY");
	assert_null(smtpcode_find_subject(9));
	assert_string_equal(smtpcode_text(smtpcode_find_basic_digit(1, 5),
	                                  SMTPCODE_CODE), "5yz");
	assert_string_equal(smtpcode_text(smtpcode_find_basic_digit(2, 5),
	                                  SMTPCODE_CODE), "x5z");
	assert_null(smtpcode_find_basic_digit(3, 1));
}

/* A variant inherits the topic's shared fields and gets only the basic
 * codes of its own class. */
static void test_variant_inherits(void **state)
{
	const struct smtpcode_entry *v = smtpcode_find_enhanced(5, 3, 1);
	const struct smtpcode_entry *t = smtpcode_find_enhanced(0, 3, 1);
	(void)state;
	assert_string_equal(smtpcode_text(v, SMTPCODE_MEANING),
	                    smtpcode_text(t, SMTPCODE_MEANING));
	assert_int_equal(smtpcode_value(t, SMTPCODE_SEVERITY), 0);
	assert_int_equal(smtpcode_count(t, SMTPCODE_BASIC), 2);
	assert_int_equal(smtpcode_count(v, SMTPCODE_BASIC), 0);
	assert_int_equal(smtpcode_count(smtpcode_find_enhanced(4, 3, 1),
	                                SMTPCODE_BASIC), 2);
	assert_string_equal(smtpcode_item(t, SMTPCODE_BASIC, 1).key, "431");
	assert_string_equal(smtpcode_item(t, SMTPCODE_BASIC, 99).key, "");
}

static void test_resolve(void **state)
{
	struct smtpcode_result r;
	(void)state;
	r = resolve("4.3.1");
	assert_true(r.known);
	assert_non_null(r.enhanced);
	assert_non_null(r.topic);
	assert_null(r.basic);
	assert_string_equal(smtpcode_text(r.cls, SMTPCODE_CODE), "4.XXX.YYY");

	r = resolve("452 4.3.1 Insufficient system storage");
	assert_true(r.known);
	assert_non_null(r.basic);
	assert_int_equal(r.pairing, SMTPCODE_PAIR_USUAL);

	r = resolve("4.3.99");
	assert_false(r.known);
	assert_null(r.enhanced);
	assert_null(r.topic);
	assert_non_null(r.cls);
	assert_non_null(r.subject);

	r = resolve("2.3.1");
	assert_false(r.known);
	assert_null(r.enhanced);
	assert_non_null(r.topic);

	r = resolve("599");
	assert_false(r.known);

	r = resolve("599 4.3.1");
	assert_false(r.known);
	assert_non_null(r.enhanced);
	assert_int_equal(r.pairing, SMTPCODE_PAIR_MISMATCH);
}

static void test_pairs(void **state)
{
	(void)state;
	assert_int_equal(resolve("452 4.3.1").pairing, SMTPCODE_PAIR_USUAL);
	assert_int_equal(resolve("431 4.3.1").pairing, SMTPCODE_PAIR_USUAL);
	assert_int_equal(resolve("452 X.3.1").pairing, SMTPCODE_PAIR_USUAL);
	assert_int_equal(resolve("421 4.3.1").pairing, SMTPCODE_PAIR_UNUSUAL);
	assert_int_equal(resolve("452 5.2.2").pairing, SMTPCODE_PAIR_MISMATCH);
	assert_int_equal(resolve("250 5.1.1").pairing, SMTPCODE_PAIR_MISMATCH);
	assert_int_equal(resolve("452 4.3.99").pairing, SMTPCODE_PAIR_UNUSUAL);
	assert_int_equal(smtpcode_check_pair(552, 4, NULL), SMTPCODE_PAIR_MISMATCH);
}

static void test_data_date(void **state)
{
	const char *d = smtpcode_data_date();
	(void)state;
	assert_int_equal(strlen(d), 10);
	assert_int_equal(d[4], '-');
}

/* s copied by into into rooms of every size up to its length and one
 * more: the whole length each time, its first size - 1 bytes and a 0,
 * and not a byte past the room. */
static void check_copy(const char *s, size_t (*into)(const struct smtpcode_entry *,
                       int, size_t, char *, size_t),
                       const struct smtpcode_entry *e, int which, size_t i)
{
	size_t len = strlen(s);
	char buf[4096];
	assert_true(len + 2 < sizeof buf);
	assert_int_equal(into(e, which, i, NULL, 0), len);
	for (size_t size = 1; size <= len + 1; size += size < 40 ? 1 : 37) {
		memset(buf, '#', sizeof buf);
		assert_int_equal(into(e, which, i, buf, size), len);
		assert_memory_equal(buf, s, size - 1);
		assert_int_equal(buf[size - 1], '\0');
		assert_int_equal(buf[size], '#');
	}
	memset(buf, '#', sizeof buf);
	assert_int_equal(into(e, which, i, buf, sizeof buf), len);
	assert_string_equal(buf, s);
}

static size_t text_into(const struct smtpcode_entry *e, int f, size_t i,
                        char *buf, size_t size)
{
	(void)i;
	return smtpcode_text_into(e, (enum smtpcode_text_field)f, buf, size);
}

static size_t item_into(const struct smtpcode_entry *e, int l, size_t i,
                        char *buf, size_t size)
{
	return smtpcode_item_text_into(e, (enum smtpcode_list)l, i, buf, size);
}

/* Every text and item of the table, copied into the caller's memory
 * (packed prose decoded there) before and after smtpcode_text() and
 * smtpcode_item() decode and keep it: the same bytes. */
static void test_text_into(void **state)
{
	size_t packed = 0;
	(void)state;
	for (size_t k = 0; k < smtpcode_table_size(); k++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(k);
		for (int f = 0; f < SMTPCODE_NTEXTS; f++) {
			char first[4096];
			size_t n = smtpcode_text_into(e, (enum smtpcode_text_field)f,
			                              first, sizeof first);
			const char *kept = smtpcode_text(e, (enum smtpcode_text_field)f);
			assert_string_equal(first, kept);
			assert_int_equal(n, strlen(kept));
			packed += n >= 16;
			if (k % 25 == 0) /* every size: a sample of entries */
				check_copy(kept, text_into, e, f, 0);
		}
		for (int l = 0; l < SMTPCODE_NLISTS; l++) {
			for (size_t i = 0; i < smtpcode_count(e, (enum smtpcode_list)l); i++) {
				struct smtpcode_item it;
				char first[4096];
				size_t n = smtpcode_item_text_into(e, (enum smtpcode_list)l,
				                                   i, first, sizeof first);
				it = smtpcode_item(e, (enum smtpcode_list)l, i);
				assert_string_equal(first, it.text);
				assert_int_equal(n, strlen(it.text));
				assert_ptr_equal(smtpcode_item_key(e, (enum smtpcode_list)l, i),
				                 it.key);
				if (k % 25 == 0)
					check_copy(it.text, item_into, e, l, i);
			}
		}
	}
	assert_true(packed > 1000); /* the packed prose was among them */
	/* Out of range: "" */
	{
		const struct smtpcode_entry *e = smtpcode_table_entry(0);
		char buf[8] = "x";
		assert_int_equal(smtpcode_text_into(e, SMTPCODE_NTEXTS, buf, sizeof buf), 0);
		assert_string_equal(buf, "");
		strcpy(buf, "x");
		assert_int_equal(smtpcode_item_text_into(e, SMTPCODE_CAUSES,
		                 smtpcode_count(e, SMTPCODE_CAUSES), buf, sizeof buf), 0);
		assert_string_equal(buf, "");
		assert_string_equal(smtpcode_item_key(e, SMTPCODE_NLISTS, 0), "");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_find),
	    cmocka_unit_test(test_variant_inherits),
	    cmocka_unit_test(test_resolve),
	    cmocka_unit_test(test_pairs),
	    cmocka_unit_test(test_data_date),
	    cmocka_unit_test(test_text_into),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
