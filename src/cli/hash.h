/* Hashing shared by the log caches and the summary's tables, and
 * the placement of the caches' keys.  The caches (a few slots a key, so a
 * collision costs an eviction at worst) use hash_bytes(); the summary's
 * tables, which grow with what they hold, sip13() under a random key. */
#ifndef SMTPCODE_HASH_H
#define SMTPCODE_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

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
 * SipHash (Aumasson and Bernstein) of s[0..n) under the key k0, k1, with c
 * rounds a word and d at the end: for tables keyed by text from the input.
 * hash_bytes() has no secret and each of its steps can be undone, so that
 * anyone can make any number of keys share a hash, and a table whose
 * growth follows its keys then compares each new key with all the others;
 * under a key drawn at random for the run, no one can choose keys that
 * collide.  sip13() is the form used (1 and 3 rounds, as Rust's HashMap);
 * tests/test_hash.c checks sip_hash() against the reference's vectors.
 */
static inline uint64_t rotl64(uint64_t x, unsigned b)
{
	return x << b | x >> (64 - b);
}

/* r rounds of SipHash's mixing of its state v. */
static inline void sip_rounds(uint64_t v[4], int r)
{
	for (int i = 0; i < r; i++) {
		v[0] += v[1];
		v[1] = rotl64(v[1], 13) ^ v[0];
		v[0] = rotl64(v[0], 32);
		v[2] += v[3];
		v[3] = rotl64(v[3], 16) ^ v[2];
		v[0] += v[3];
		v[3] = rotl64(v[3], 21) ^ v[0];
		v[2] += v[1];
		v[1] = rotl64(v[1], 17) ^ v[2];
		v[2] = rotl64(v[2], 32);
	}
}

static inline uint64_t sip_hash(uint64_t k0, uint64_t k1, const void *s,
                                size_t n, int c, int d)
{
	const unsigned char *u = s;
	uint64_t v[4] = {k0 ^ 0x736f6d6570736575u, k1 ^ 0x646f72616e646f6du,
	                 k0 ^ 0x6c7967656e657261u, k1 ^ 0x7465646279746573u};
	uint64_t m = (uint64_t)n << 56; /* the last word: length, last bytes */
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t w = load_le64(u + i);
		v[3] ^= w;
		sip_rounds(v, c);
		v[0] ^= w;
	}
	if (n % 8 && n >= 8) /* the last bytes, from the eight that end s */
		m |= load_le64(u + n - 8) >> (64 - 8 * (n % 8));
	else
		for (size_t j = 0; i + j < n; j++)
			m |= (uint64_t)u[i + j] << (8 * j);
	v[3] ^= m;
	sip_rounds(v, c);
	v[0] ^= m;
	v[2] ^= 0xff;
	sip_rounds(v, d);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* A key for sip13(): drawn at random once per table (summary.c). */
struct sip_key {
	uint64_t k0, k1;
};

static inline uint64_t sip13(const struct sip_key *k, const void *s, size_t n)
{
	return sip_hash(k->k0, k->k1, s, n, 1, 3);
}

/*
 * The caches' slots (logs.c): a key may sit in WAYS slots in a row
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

/*
 * An open-addressing index of n slots (a power of two, more than used)
 * for the used items of an array, item i's 64-bit hash at byte offset
 * hash_at of items + i * stride: a slot holds i + 1, 0 when empty, found
 * by linear probing from hash & (n - 1).  NULL when memory ran out.  For
 * the tables that grow with what they hold (summary.c, suppressions.c),
 * rebuilt whole as they double.
 */
static inline uint32_t *index_items(const void *items, size_t stride,
                                    size_t hash_at, size_t used, size_t n)
{
	uint32_t *index = n <= SIZE_MAX / sizeof *index
	                      ? (uint32_t *)calloc(n, sizeof *index)
	                      : NULL;
	for (size_t i = 0; index && i < used; i++) {
		uint64_t h;
		memcpy(&h, (const char *)items + i * stride + hash_at, sizeof h);
		size_t j = (size_t)h & (n - 1);
		while (index[j])
			j = (j + 1) & (n - 1);
		index[j] = (uint32_t)(i + 1);
	}
	return index;
}

/* A random key k for SipHash, which no one who writes the input can
 * know: from the system's source, else (a kernel without getrandom(), or
 * its entropy not yet there at boot) from the time and the address of
 * the table it keys, salt, which address-space randomisation moves:
 * weaker, still not known ahead. */
static inline void sip_key_random(struct sip_key *k, const void *salt)
{
	struct timespec t;

	if (getrandom(k, sizeof *k, GRND_NONBLOCK) == (ssize_t)sizeof *k)
		return;
	clock_gettime(CLOCK_REALTIME, &t);
	k->k0 = mix((uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec);
	k->k1 = mix(k->k0 ^ (uint64_t)(uintptr_t)salt);
}

#endif
