/*
 * The command's snprintf() subset (src/cli/format.c): for every
 * conversion it does itself and for those it leaves to the C library,
 * in every room from none to more than enough, the same bytes and the
 * same length as snprintf().
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"

/* format() and snprintf() of fmt, in rooms of 0 to 80 bytes. */
#define SAME(...) do { \
	for (size_t room = 0; room <= 80; room++) { \
		char a[96], b[96]; \
		memset(a, 'x', sizeof a); \
		memset(b, 'x', sizeof b); \
		int na = format(room ? a : NULL, room, __VA_ARGS__); \
		int nb = snprintf(room ? b : NULL, room, __VA_ARGS__); \
		assert_int_equal(na, nb); \
		assert_memory_equal(a, b, sizeof a); \
	} \
} while (0)

static void test_subset(void **state)
{
	(void)state;
	SAME("plain text, no conversion");
	SAME("%s", "");
	SAME("a %s b %s c", "one", "two");
	SAME("%-7s|%-10s|", "4.3.1", "an entry longer than ten");
	SAME("%10s|", "right");
	SAME("%u %u", 0u, 4294967295u);
	SAME("%d %d %d", 0, -2147483647 - 1, 2147483647);
	SAME("%zu and %lu", (size_t)18446744073709551615u, 12345ul);
	SAME("100%% of %s", "it");
	SAME("%s%s%s", "a", "", "c");
}

static void test_left_to_the_library(void **state)
{
	(void)state;
	SAME("%5u|%x|%s", 42u, 255u, "after");
	SAME("%s %.3s %c", "before", "truncated", 'z');
	SAME("%05d", -42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subset),
		cmocka_unit_test(test_left_to_the_library),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
