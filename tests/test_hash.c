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

/* hash_bytes() as it was written first, its last bytes taken one by one:
 * the eight bytes loaded back from the end must give the same number. */
static uint64_t bytewise(uint64_t h, const char *s, size_t n)
{
	uint64_t g = ~h, w, v;
	for (; n >= 16; s += 16, n -= 16) {
		memcpy(&w, s, sizeof w);
		memcpy(&v, s + 8, sizeof v);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		g = (g ^ v) * 0xc4ceb9fe1a85ec53u;
	}
	h ^= h >> 32;
	h ^= (g ^ g >> 29) * 0x9e3779b97f4a7c15u;
	if (n >= 8) {
		memcpy(&w, s, sizeof w);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	if (n) {
		w = 0;
		for (size_t i = 0; i < n; i++)
			w |= (uint64_t)(unsigned char)s[i] << (8 * i);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	}
	return h;
}

/* The same hash at every length and alignment, for bytes of every value
 * (the tables' placement, so the order of what is shown, depends on it). */
static void test_tail_as_bytewise(void **state)
{
	char s[72];
	(void)state;
	for (size_t i = 0; i < sizeof s; i++)
		s[i] = (char)(i * 37 + 200);
	for (size_t at = 0; at < 8; at++)
		for (size_t n = 0; at + n <= sizeof s; n++)
			assert_true(hash_bytes(n, s + at, n) ==
			            bytewise(n, s + at, n));
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
	    cmocka_unit_test(test_tail_as_bytewise),
	    cmocka_unit_test(test_victim),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
