/* Hashing shared by the log caches and the summary's tables. */
#ifndef SMTPCODE_HASH_H
#define SMTPCODE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* splitmix64's finish: spreads every bit of x over the result. */
static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebu;
	return x ^ x >> 31;
}

/* A hash of s[0..n), eight bytes at a time, continuing from h.  Not
 * mixed at the end (see mix()); the tables that use it compare keys
 * whole, so a collision costs a probe, never a wrong answer. */
static inline uint64_t hash_bytes(uint64_t h, const char *s, size_t n)
{
	for (; n >= 8; s += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, s, sizeof w);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	if (n) { /* the last bytes, one by one: not a call of memcpy() */
		uint64_t w = 0;
		for (size_t i = 0; i < n; i++)
			w |= (uint64_t)(unsigned char)s[i] << (8 * i);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	}
	return h;
}

#endif
