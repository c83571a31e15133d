/*
 * The log caches' hashing and slot policy (src/cli/hash.h): every byte
 * counts in a hash, in either lane, and a new key evicts a free slot, else
 * a key not found again, before a key that was.  The summary's keyed hash:
 * SipHash as its reference computes it, and domains crafted to share one
 * hash under the unkeyed hash the summary used before spread under it.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* SipHash against the reference implementation's vectors (key 00..0f,
 * message 00 01 02 ...): SipHash-2-4's, and SipHash-1-3's at lengths that
 * take each way through the last word (no byte, fewer than eight, eight
 * or more bytes before it). */
static void test_sip_reference(void **state)
{
	static const struct {
		size_t n;
		uint64_t hash;
	} sip13_vectors[] = {
	    {0, 0xabac0158050fc4dcu},  {1, 0xc9f49bf37d57ca93u},
	    {7, 0xd3927d989bb11140u},  {8, 0x369095118d299a8eu},
	    {9, 0x25a48eb36c063de4u},  {15, 0xd320d86d2a519956u},
	    {16, 0xcc4fdd1a7d908b66u}, {17, 0x9cf2689063dbd80cu},
	    {63, 0x9d199062b7bbb3a8u},
	};
	const struct sip_key k = {0x0706050403020100u, 0x0f0e0d0c0b0a0908u};
	unsigned char m[64];
	(void)state;
	for (size_t i = 0; i < sizeof m; i++)
		m[i] = (unsigned char)i;
	assert_true(sip_hash(k.k0, k.k1, m, 0, 2, 4) == 0x726fdb47dd0e0e31u);
	assert_true(sip_hash(k.k0, k.k1, m, 15, 2, 4) == 0xa129ca6149be45e5u);
	for (size_t i = 0; i < sizeof sip13_vectors / sizeof *sip13_vectors; i++)
		if (sip13(&k, m, sip13_vectors[i].n) != sip13_vectors[i].hash)
			fail_msg("SipHash-1-3 of %zu bytes", sip13_vectors[i].n);
}

#define CRAFTED 2048 /* domains */
#define SLOTS 4096   /* the summary's index holds twice its keys */
#define C1 0xff51afd7ed558ccdu /* hash_bytes()'s multiplier of a word */

/* The summary's hash of a domain before issue 17: no secret in it. */
static uint64_t unkeyed(const char *d, size_t n)
{
	return mix(hash_bytes(0x9e3779b97f4a7c15u ^ n, d, n));
}

/* The inverse of an odd number modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
	uint64_t x = a;
	for (int i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

/*
 * CRAFTED domains of 24 bytes with one unkeyed() hash, made as the attack
 * on it was (bench/domains.c makes them for the benchmark): hash_bytes()
 * ends a key of 24 bytes with h = (h ^ w) * C1, then h ^= h >> 32, where
 * w is the last eight bytes.  Both steps can be undone: the hash with w =
 * 0 gives the h before w, and then the w that gives any hash wanted.
 */
static void craft(char (*d)[24])
{
	const uint64_t wanted = 0x0123456789abcdefu, inv = inverse(C1);
	for (size_t i = 0; i < CRAFTED; i++) {
		uint64_t h, w;
		snprintf(d[i], 17, "c%015zu", i);
		memset(d[i] + 16, 0, 8);
		h = hash_bytes(0x9e3779b97f4a7c15u ^ 24, d[i], 24);
		h = (h ^ h >> 32) * inv; /* before w */
		w = wanted * inv ^ h;
		for (size_t b = 0; b < 8; b++)
			d[i][16 + b] = (char)(w >> 8 * b);
	}
}

/* The most slots a key of d looks at to find a free one when all are put
 * in a table of SLOTS by linear probing (as the summary's maps do), each
 * at its hash by key k, or by unkeyed() for k NULL. */
static size_t longest_probe(char (*d)[24], const struct sip_key *k)
{
	static unsigned char taken[SLOTS];
	size_t longest = 0;

	memset(taken, 0, sizeof taken);
	for (size_t i = 0; i < CRAFTED; i++) {
		uint64_t h = k ? sip13(k, d[i], 24) : unkeyed(d[i], 24);
		size_t j = (size_t)h & (SLOTS - 1), probes = 1;
		for (; taken[j]; probes++)
			j = (j + 1) & (SLOTS - 1);
		taken[j] = 1;
		if (probes > longest)
			longest = probes;
	}
	return longest;
}

/* Domains crafted to share a hash under the unkeyed hash (each new one
 * looked at every slot the others took: a summary of n such lines made
 * n^2 / 2 comparisons) spread under sip13() with any key: no probe longer
 * than a few dozen slots, where random keys take about as many. */
static void test_crafted_domains_spread(void **state)
{
	static char d[CRAFTED][24];
	static const struct sip_key keys[] = {
	    {1, 2}, {0x243f6a8885a308d3u, 0x13198a2e03707344u}, {~0u, 0}};
	(void)state;
	craft(d);
	for (size_t i = 1; i < CRAFTED; i++)
		assert_true(unkeyed(d[i], 24) == unkeyed(d[0], 24));
	assert_int_equal(longest_probe(d, NULL), CRAFTED);
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		size_t longest = longest_probe(d, &keys[k]);
		if (longest > 40)
			fail_msg("key %zu: a probe of %zu slots", k, longest);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_byte_counts),
	    cmocka_unit_test(test_tail_as_bytewise),
	    cmocka_unit_test(test_victim),
	    cmocka_unit_test(test_sip_reference),
	    cmocka_unit_test(test_crafted_domains_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
