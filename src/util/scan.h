/*
 * Finding a byte in a span, counting it, comparing spans: the inner loops
 * of reading logs (a line's end, a field's delimiter, a marker's rarest
 * byte, a cached reply).  Inline, because most
 * searches cross a few dozen bytes, where a call to memchr() costs more
 * than the search; sixteen bytes a step with SSE2 (part of every x86-64),
 * a byte a step elsewhere.  Loads stay inside [p, end): no byte outside
 * the span is read, so sanitizers and valgrind see only what C allows.
 */
#ifndef SMTPCODE_SCAN_H
#define SMTPCODE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Inlining where the compilers' own choice measured worse on the hot
 * paths (the log readers), for GCC and clang; elsewhere their choice.
 * COLD: run once a command (a summary's rendering), built for size. */
#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define COLD __attribute__((cold))
#else
#define NOINLINE
#define ALWAYS_INLINE inline
#define COLD
#endif

/* c in ASCII lower case: no <ctype.h>, whose answer follows the locale. */
static inline unsigned char scan_fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define SCAN_SSE2 1

/* The sixteen bytes at at. */
static inline __m128i scan_load(const char *at)
{
	return _mm_loadu_si128((const __m128i *)(const void *)at);
}

/* 0xff in each byte of the sixteen at at that is the pattern's. */
static inline __m128i scan_eq(const char *at, __m128i pattern)
{
	return _mm_cmpeq_epi8(scan_load(at), pattern);
}

/* Bit i set when at[i] is the pattern's byte. */
static inline unsigned scan_hits(const char *at, __m128i pattern)
{
	return (unsigned)_mm_movemask_epi8(scan_eq(at, pattern));
}

/*
 * How the forward searches end, after their sixteen-byte steps: the first
 * place in [q, end) (1 to 15 places left) whose bit is set in last, the
 * bits of the sixteen places that end at end, read again overlapping
 * those already seen, whose bits are shifted out; or NULL.  (The callers
 * test q == end first, so that the last read is made only when needed.)
 */
static inline const char *scan_rest(const char *q, const char *end,
                                    unsigned last)
{
	last >>= 16 - (unsigned)(end - q);
	return last ? q + __builtin_ctz(last) : NULL;
}
#endif

/* The first c in [p, end), or NULL. */
static inline const char *scan_byte(const char *p, const char *end, char c)
{
#ifdef SCAN_SSE2
	if (end - p >= 16) {
		const __m128i pattern = _mm_set1_epi8(c);
		const char *q = p;
		unsigned hits;
		/* Long spans (a line's end) sixty-four bytes a step. */
		for (; end - q >= 64; q += 64) {
			__m128i a = scan_eq(q, pattern), b = scan_eq(q + 16, pattern);
			__m128i c2 = scan_eq(q + 32, pattern), d = scan_eq(q + 48, pattern);
			if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c2, d))))
				break;
		}
		for (; end - q >= 16; q += 16)
			if ((hits = scan_hits(q, pattern)) != 0)
				return q + __builtin_ctz(hits);
		if (q == end)
			return NULL;
		return scan_rest(q, end, scan_hits(end - 16, pattern));
	}
#endif
	for (; p < end; p++)
		if (*p == c)
			return p;
	return NULL;
}

/* The first byte in [p, end) that is c or below it (as unsigned bytes),
 * or NULL: the end of a word, when the bytes that may end it are below
 * every byte that may be in it (a status word: ' ', ',', '('). */
static inline const char *scan_upto(const char *p, const char *end,
                                    unsigned char c)
{
#ifdef SCAN_SSE2
	const __m128i top = _mm_set1_epi8((char)c);
	unsigned hits;
	/* min(x, c) == x where x <= c. */
#define SCAN_UPTO_AT(at) \
	((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8( \
	    _mm_min_epu8(scan_load(at), top), scan_load(at))))
	if (end - p >= 16) {
		const char *q = p;
		for (; end - q >= 16; q += 16)
			if ((hits = SCAN_UPTO_AT(q)) != 0)
				return q + __builtin_ctz(hits);
		if (q == end)
			return NULL;
		return scan_rest(q, end, SCAN_UPTO_AT(end - 16));
	}
#undef SCAN_UPTO_AT
#endif
	for (; p < end; p++)
		if ((unsigned char)*p <= c)
			return p;
	return NULL;
}

/*
 * The first x in [p, end) with x[0] == a and x[d] == b (d >= 1, x + d <
 * end), or NULL: a marker found by two of its bytes at once (": to=" by
 * its ':' and '=', " == " by its two '='), so that the many places where
 * only one of them is ("from=", "10:00:00") cost nothing.
 */
static inline const char *scan_pair(const char *p, const char *end, char a,
                                    char b, size_t d)
{
	if (end - p <= (ptrdiff_t)d)
		return NULL;
	end -= d; /* x < end from here on */
#ifdef SCAN_SSE2
	if (end - p >= 16) {
		const __m128i pa = _mm_set1_epi8(a), pb = _mm_set1_epi8(b);
		const char *q = p;
		unsigned hits;
#define SCAN_PAIR_AT(at) \
	((unsigned)_mm_movemask_epi8( \
	    _mm_and_si128(scan_eq((at), pa), scan_eq((at) + d, pb))))
		for (; end - q >= 16; q += 16)
			if ((hits = SCAN_PAIR_AT(q)) != 0)
				return q + __builtin_ctz(hits);
		if (q == end)
			return NULL;
		return scan_rest(q, end, SCAN_PAIR_AT(end - 16));
#undef SCAN_PAIR_AT
	}
#endif
	for (; p < end; p++)
		if (p[0] == a && p[d] == b)
			return p;
	return NULL;
}

#ifdef SCAN_SSE2
/* Bit i set when at[i] == at[i + 1] and is a or b (17 bytes read). */
static inline unsigned scan_doubled16(const char *at, __m128i a, __m128i b)
{
	__m128i x = scan_load(at), y = scan_load(at + 1);
	return (unsigned)_mm_movemask_epi8(_mm_and_si128(
	    _mm_cmpeq_epi8(x, y),
	    _mm_or_si128(_mm_cmpeq_epi8(x, a), _mm_cmpeq_epi8(x, b))));
}
#endif

/* The first x in [p, end) with x[0] == x[1] == a or x[0] == x[1] == b
 * (x + 1 < end), or NULL: the doubled byte of Exim's " ** " and " == ",
 * both found in one pass. */
static inline const char *scan_doubled(const char *p, const char *end, char a,
                                       char b)
{
	if (end - p < 2)
		return NULL;
	end--; /* x < end from here on */
#ifdef SCAN_SSE2
	if (end - p >= 16) {
		const __m128i pa = _mm_set1_epi8(a), pb = _mm_set1_epi8(b);
		/* Bounded by the last place sixteen fit, not by end - q: a
		 * step less per sixteen bytes, as this search (Exim's marker)
		 * runs the whole of most lines. */
		const char *q = p, *last = end - 16;
		unsigned hits;
		for (; q <= last; q += 16)
			if ((hits = scan_doubled16(q, pa, pb)) != 0)
				return q + __builtin_ctz(hits);
		if (q == end)
			return NULL;
		return scan_rest(q, end, scan_doubled16(end - 16, pa, pb));
	}
#endif
	for (; p < end; p++)
		if (p[0] == p[1] && (p[0] == a || p[0] == b))
			return p;
	return NULL;
}

/* The last c in [p, end), or NULL: for what sits near the end of a span
 * (Postfix's " (in reply to RCPT TO command)"). */
static inline const char *scan_last(const char *p, const char *end, char c)
{
#ifdef SCAN_SSE2
	if (end - p >= 16) {
		const __m128i pattern = _mm_set1_epi8(c);
		const char *q = end;
		unsigned hits;
		for (; q - p >= 16; q -= 16)
			if ((hits = scan_hits(q - 16, pattern)) != 0)
				return q - 16 + (31 - __builtin_clz(hits));
		if (q == p)
			return NULL;
		/* The first sixteen bytes, overlapping those already seen:
		 * their bits are masked off. */
		hits = scan_hits(p, pattern) & ((1u << (unsigned)(q - p)) - 1);
		return hits ? p + (31 - __builtin_clz(hits)) : NULL;
	}
#endif
	while (end > p)
		if (*--end == c)
			return end;
	return NULL;
}

/* How many c there are in [p, end). */
static inline size_t scan_count(const char *p, const char *end, char c)
{
	size_t n = 0;
#ifdef SCAN_SSE2
	/* Each match is -1 in its byte of cmpeq's result: subtracting adds
	 * one per byte, which is summed up (psadbw) before it can wrap. */
	const __m128i pattern = _mm_set1_epi8(c), zero = _mm_setzero_si128();
	while (end - p >= 16) {
		__m128i counts = zero, more = zero, sums;
		/* Sixty-four bytes a step into two counters, each taking two a
		 * step: 126 steps and the three sixteens after them keep
		 * every byte of a counter under 256. */
		for (int k = 0; k < 126 && end - p >= 64; k++, p += 64) {
			counts = _mm_sub_epi8(counts, scan_eq(p, pattern));
			more = _mm_sub_epi8(more, scan_eq(p + 16, pattern));
			counts = _mm_sub_epi8(counts, scan_eq(p + 32, pattern));
			more = _mm_sub_epi8(more, scan_eq(p + 48, pattern));
		}
		if (end - p < 64)
			for (; end - p >= 16; p += 16)
				counts = _mm_sub_epi8(counts, scan_eq(p, pattern));
		sums = _mm_add_epi64(_mm_sad_epu8(counts, zero),
		                     _mm_sad_epu8(more, zero));
		n += (size_t)_mm_cvtsi128_si32(sums) +
		     (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
	}
#endif
	for (; p < end; p++)
		n += *p == c;
	return n;
}

/* Whether a[0..n) and b[0..n) hold the same bytes (markers, phrases, a
 * cached reply: a few to a few hundred bytes, where a call of memcmp()
 * costs more than the comparison, and musl's goes byte by byte). */
static inline bool scan_same(const char *a, const char *b, size_t n)
{
	if (n > 16) {
#ifdef SCAN_SSE2
		/* Sixteen bytes a step, the last sixteen read again
		 * overlapping. */
		for (size_t i = 0; n - i > 16; i += 16)
			if (scan_hits(a + i, scan_load(b + i)) != 0xffff)
				return false;
		return scan_hits(a + n - 16, scan_load(b + n - 16)) == 0xffff;
#endif
	} else if (n >= 8) { /* two loads each, the second overlapping */
		uint64_t x, y, u, v;
		memcpy(&x, a, 8), memcpy(&y, b, 8);
		/* cppcheck-suppress pointerOutOfBoundsCond ; as below */
		memcpy(&u, a + n - 8, 8), memcpy(&v, b + n - 8, 8);
		return x == y && u == v;
	} else if (n >= 4) {
		uint32_t p, q, r, t;
		memcpy(&p, a, 4), memcpy(&q, b, 4);
		/* b holds n bytes, as the caller promises: cppcheck 2.10
		 * pairs one caller's literal with another's n. */
		/* cppcheck-suppress pointerOutOfBoundsCond */
		memcpy(&r, a + n - 4, 4), memcpy(&t, b + n - 4, 4);
		return p == q && r == t;
	}
	for (size_t i = 0; i < n; i++) /* short, or without SSE2 */
		if (a[i] != b[i])
			return false;
	return true;
}

#endif
