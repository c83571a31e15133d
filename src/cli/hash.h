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

/* u[0..8) as a little-endian number: one load where the machine is
 * little-endian (the compilers see the pattern). */
static inline uint64_t load_le64(const unsigned char *u)
{
	return (uint64_t)u[0] | (uint64_t)u[1] << 8 | (uint64_t)u[2] << 16 |
	       (uint64_t)u[3] << 24 | (uint64_t)u[4] << 32 |
	       (uint64_t)u[5] << 40 | (uint64_t)u[6] << 48 |
	       (uint64_t)u[7] << 56;
}

/* A hash of s[0..n), continuing from h.  Not mixed at the end (see
 * mix()); the tables that use it compare keys whole, so a collision costs
 * a probe, never a wrong answer.  Sixteen bytes a step in two lanes,
 * whose multiplications do not wait for each other (a reply is hashed per
 * record; one lane took a third longer), then eight, then the last bytes
 * as a little-endian number: shifted out of the eight bytes that end the
 * key when it has eight (a domain, hashed per record by logs.c and
 * summary.c), else one by one (not a call of memcpy()). */
static inline uint64_t hash_bytes(uint64_t h, const char *s, size_t n)
{
	uint64_t g = ~h, w, v;
	bool eight = n >= 8;

	/* Each step a bijection of its lane (xor, then an odd multiplier), so
	 * no byte is lost; the lanes are folded together, and mix() spreads
	 * the high bits over the low ones at the end. */
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
		const unsigned char *u = (const unsigned char *)s;
		if (eight) {
			w = load_le64(u + n - 8) >> (64 - 8 * n);
		} else {
			w = 0;
			for (size_t i = 0; i < n; i++)
				w |= (uint64_t)u[i] << (8 * i);
		}
		h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	}
	return h;
}

/*
 * The caches' slots (logs.c, memo.c): a key may sit in WAYS slots in a row
 * from its hash, so that a few keys whose hashes collide do not keep
 * evicting each other.  A slot is free, holds a key not found again since
 * it came, or one found again: a new key goes to a free slot, else to one
 * not found again (so that a log's one-off replies evict each other, not
 * the replies that come back), else to one its hash picks.
 */
#define WAYS 4

enum slot_state { SLOT_FREE, SLOT_NEW, SLOT_REUSED };

/* Way i of hash h, in a table of nslots (a power of two). */
static inline size_t way(uint64_t h, size_t i, size_t nslots)
{
	return (size_t)(h + i) & (nslots - 1);
}

/* The way a new key of hash h takes, state[i] that of way i. */
static inline size_t victim(uint64_t h, const unsigned char state[WAYS])
{
	for (unsigned char want = SLOT_FREE; want < SLOT_REUSED; want++)
		for (size_t i = 0; i < WAYS; i++)
			if (state[i] == want)
				return i;
	return (size_t)(h >> 60) % WAYS;
}

#endif
