/*
 * The log caches' hashing and slot policy (src/cli/hash.h): every byte
 * counts in a hash, in either lane, and a new key evicts a free slot, else
 * a key not found again, before a key that was.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hash.h"

/* Changing any one byte of s[0..n) changes the hash, at every length up
 * to three steps of sixteen and for every byte value tried. */
static void test_every_byte_counts(void **state)
{
	char s[64];
	(void)state;
	for (size_t i = 0; i < sizeof s; i++)
		s[i] = (char)('a' + i % 26);
	for (size_t n = 1; n <= 50; n++) {
		uint64_t h = hash_bytes(7, s, n);
		for (size_t i = 0; i < n; i++) {
			char was = s[i];
			for (int d = 1; d < 256; d += 37) {
				s[i] = (char)(was + d);
				if (hash_bytes(7, s, n) == h)
					fail_msg("length %zu: byte %zu not hashed", n, i);
			}
			s[i] = was;
		}
		assert_true(hash_bytes(8, s, n) != h); /* and the seed counts */
	}
}

static void test_victim(void **state)
{
	unsigned char st[WAYS];
	(void)state;
	memset(st, SLOT_REUSED, sizeof st);
	st[2] = SLOT_FREE;
	st[1] = SLOT_NEW;
	assert_int_equal(victim(0, st), 2); /* free first */
	st[2] = SLOT_REUSED;
	assert_int_equal(victim(0, st), 1); /* then one not found again */
	st[1] = SLOT_REUSED;
	/* all found again: the hash's top bits pick */
	for (uint64_t w = 0; w < WAYS; w++)
		assert_int_equal(victim(w << 60, st), w % WAYS);
	assert_int_equal(way(0xff, 1, 256), 0); /* ways wrap around */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_byte_counts),
	    cmocka_unit_test(test_victim),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
