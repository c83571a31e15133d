/* Hashing shared by the log caches, memo.c and the summary's tables, and
 * the placement of the caches' keys. */
#ifndef SMTPCODE_HASH_H
#define SMTPCODE_HASH_H

#include <stdbool.h>
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

/*
 * The caches' slots (logs.c, memo.c): a key may sit in WAYS slots in a row
 * from its hash, so that a few keys whose hashes collide do not keep
 * evicting each other.  On a miss the key goes to a free one of them,
 * else to one its hash picks.
 */
#define WAYS 4

/* Way i of hash h, in a table of nslots (a power of two). */
static inline size_t way(uint64_t h, size_t i, size_t nslots)
{
	return (size_t)(h + i) & (nslots - 1);
}

/* The way a new key takes, taken[i] telling whether way i holds one: a
 * free one, else the one its hash picks. */
static inline size_t victim(uint64_t h, const bool taken[WAYS])
{
	for (size_t i = 0; i < WAYS; i++)
		if (!taken[i])
			return i;
	return (size_t)(h >> 60) % WAYS;
}

#endif
