/* Hashing shared by the log caches and the summary's tables. */
#ifndef SMTPCODE_HASH_H
#define SMTPCODE_HASH_H

#include <stdint.h>

/* splitmix64's finish: spreads every bit of x over the result. */
static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebu;
	return x ^ x >> 31;
}

#endif
