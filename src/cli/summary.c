/*
 * --summary: counts by code, by recipient domain, and by code at each
 * domain, with distinct recipients, so a wave of 452 4.3.1 against many
 * recipients at one domain (the system there is out of storage) stands
 * apart from one full mailbox.
 *
 * Memory grows with distinct codes and domains only.  Recipients are
 * counted with a sketch of SKETCH_BITS places (linear counting), exact
 * for the first hundreds and close beyond; a sketch holds the places its
 * recipients fell on in itself, then in a list, and only past
 * SKETCH_LIST_MAX places as a bitmap, since most domains of a log have
 * few recipients (bench/run measures what a distinct domain costs).
 *
 * The tables are keyed by text from the log, which anyone who can send
 * mail writes: they are hashed with SipHash (hash.h) under a key drawn at
 * random for each summary, so that no one can choose domains that share
 * a hash and make each new one be compared with all the others.
 *
 * Nothing is dropped: when memory runs out the summary is marked failed
 * and counts no more, and summary_render() says so and ends the command
 * with status 2, rather than show counts that would be wrong.
 *
 * Speed: this runs once per log line.  A line's (code, domain) pair is
 * looked up by the code as a number and the domain's hash; the code and
 * the domain are looked up only when the pair is new.  A recipient is
 * hashed once for the three sketches it goes into.  Texts are made only
 * for new groups.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "hash.h"
#include "output.h"
#include "render.h"
#include "scan.h"
#include "summary.h"

#define SKETCH_LOG2 12
#define SKETCH_BITS (1u << SKETCH_LOG2) /* places of a sketch */
#define SKETCH_FEW 4        /* places held in the sketch itself */
#define SKETCH_LIST_MAX 128 /* places held in a list: 256 bytes, half a
                               bitmap */

static const char out_of_memory[] = "out of memory";

/* How a sketch holds its places. */
enum held { HELD_IN_PLACE, HELD_IN_LIST, HELD_IN_BITMAP };

/* The n distinct places a group's recipients fell on (sketch_place()). */
struct sketch {
	uint16_t n;
	unsigned char held; /* enum held */
	union {
		uint16_t few[SKETCH_FEW]; /* in place */
		uint16_t *list;           /* with room for list_room(n) */
		uint64_t *bits;           /* SKETCH_BITS bits */
	} u;
};

struct group {
	char *key;           /* codes: "4.3.1"; domains: lowered, as read (it
	                        may hold NUL bytes), NUL-terminated; pairs:
	                        NULL */
	uint64_t hash;       /* of what identifies it in its map */
	unsigned long count; /* lines */
	uint32_t len;        /* of key */
	uint32_t code;       /* codes and pairs: the code's number */
	/* Pairs: their code's and domain's groups, as indices.  Codes and
	 * domains of a summary being merged into another: their own index
	 * in that other (summary_merge()). */
	uint32_t code_group, domain_group;
	struct sketch recipients;
};

/* At most this many groups in a map: the index's 32-bit entries hold
 * their positions + 1. */
#define MAP_MAX ((size_t)1 << 30)

/* Groups in order of arrival (indices stay valid as it grows), found
 * through an open-addressing index of their positions + 1 (0: empty). */
struct map {
	struct group *groups;
	size_t used, room;
	uint32_t *index;
	size_t nindex; /* a power of two, at least twice used */
};

struct summary {
	unsigned long lines, with_code;
	struct sip_key key; /* of the maps' hashes: this summary's own */
	struct map codes, domains, pairs;
	const char *failed; /* why counting stopped, or NULL */
};

/* Counting stopped for why: the first reason is the one told. */
static void fail(struct summary *s, const char *why)
{
	if (!s->failed)
		s->failed = why;
}

/* ---- Sketches ---- */

/* Where a recipient falls in a sketch: the top bits of its hash, mixed
 * (FNV-1a's low bits, taken before, fell on half the places for
 * addresses such as a1@d1.com, a2@d2.com, ...).  Not keyed, so that the
 * same log gives the same estimates in every run. */
static unsigned sketch_place(struct smtpcode_text recipient)
{
	uint64_t h = hash_bytes(0x9e3779b97f4a7c15u ^ recipient.len,
	                        recipient.s, recipient.len);
	return (unsigned)(mix(h) >> (64 - SKETCH_LOG2));
}

/* The room of a list of n places: a power of two, at least twice the
 * places held in place. */
static size_t list_room(size_t n)
{
	size_t room = 2 * SKETCH_FEW;
	while (room < n)
		room *= 2;
	return room;
}

/* The places of k not in a bitmap, in the order they came. */
static uint16_t *places(struct sketch *k)
{
	return k->held == HELD_IN_PLACE ? k->u.few : k->u.list;
}

/* k's places as a bitmap; false when memory ran out. */
static bool to_bitmap(struct sketch *k)
{
	uint64_t *bits = calloc(SKETCH_BITS / 64, sizeof *bits);
	const uint16_t *v = places(k);

	if (!bits)
		return false;
	for (size_t i = 0; i < k->n; i++)
		bits[v[i] / 64] |= (uint64_t)1 << (v[i] % 64);
	if (k->held == HELD_IN_LIST)
		free(k->u.list);
	k->u.bits = bits;
	k->held = HELD_IN_BITMAP;
	return true;
}

/* Room for one more place in k, full: a list, a list twice as long, or
 * past SKETCH_LIST_MAX places a bitmap; false when memory ran out. */
static bool sketch_grow(struct sketch *k)
{
	uint16_t *list;

	if (k->held == HELD_IN_PLACE) {
		if (!(list = malloc(list_room(k->n + 1) * sizeof *list)))
			return false;
		memcpy(list, k->u.few, sizeof k->u.few);
		k->u.list = list;
		k->held = HELD_IN_LIST;
	} else if (k->n < SKETCH_LIST_MAX) {
		if (!(list = realloc(k->u.list, 2 * (size_t)k->n * sizeof *list)))
			return false;
		k->u.list = list;
	} else {
		return to_bitmap(k);
	}
	return true;
}

/* Whether p is among v[0..n).  A scan, not a search of a sorted list:
 * the list is short (SKETCH_LIST_MAX), and keeping it sorted moved half
 * of it for each new place (a fifth of --summary's time). */
static bool listed(const uint16_t *v, size_t n, unsigned p)
{
	size_t i = 0;
#ifdef SCAN_SSE2
	const __m128i want = _mm_set1_epi16((short)p);
	for (; i + 8 <= n; i += 8) {
		__m128i at = _mm_loadu_si128((const __m128i *)(const void *)(v + i));
		if (_mm_movemask_epi8(_mm_cmpeq_epi16(at, want)))
			return true;
	}
#endif
	for (; i < n; i++)
		if (v[i] == p)
			return true;
	return false;
}

/* Place p in k; false when memory ran out. */
static bool sketch_add(struct sketch *k, unsigned p)
{
	if (k->held == HELD_IN_BITMAP) {
		uint64_t bit = (uint64_t)1 << (p % 64);
		k->n = (uint16_t)(k->n + !(k->u.bits[p / 64] & bit));
		k->u.bits[p / 64] |= bit;
		return true;
	}
	if (listed(places(k), k->n, p))
		return true;
	if (k->n == (k->held == HELD_IN_PLACE ? SKETCH_FEW : list_room(k->n))) {
		if (!sketch_grow(k))
			return false;
		if (k->held == HELD_IN_BITMAP)
			return sketch_add(k, p);
	}
	places(k)[k->n++] = (uint16_t)p;
	return true;
}

/* Bits set in w: the classic bit-parallel sums (of pairs, nibbles, then
 * bytes). */
static unsigned ones(uint64_t w)
{
	w -= w >> 1 & 0x5555555555555555u;
	w = (w & 0x3333333333333333u) + (w >> 2 & 0x3333333333333333u);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (unsigned)(w * 0x0101010101010101u >> 56);
}

/* from's places in into too; false when memory ran out. */
static COLD bool sketch_union(struct sketch *into, struct sketch *from)
{
	if (from->held == HELD_IN_BITMAP) {
		unsigned n = 0;
		if (into->held != HELD_IN_BITMAP && !to_bitmap(into))
			return false;
		for (size_t i = 0; i < SKETCH_BITS / 64; i++) {
			into->u.bits[i] |= from->u.bits[i];
			n += ones(into->u.bits[i]);
		}
		into->n = (uint16_t)n;
		return true;
	}
	for (size_t i = 0; i < from->n; i++)
		if (!sketch_add(into, places(from)[i]))
			return false;
	return true;
}

static void sketch_free(struct sketch *k)
{
	if (k->held == HELD_IN_LIST)
		free(k->u.list);
	else if (k->held == HELD_IN_BITMAP)
		free(k->u.bits);
	memset(k, 0, sizeof *k);
}

/* Natural logarithm of x > 0, to double precision: x = m 2^e with m in
 * [1/sqrt 2, sqrt 2], then ln m = 2 atanh t, t = (m - 1) / (m + 1) and
 * |t| < 0.18, by its series.  Enough for the one estimate below, which
 * needed libm for nothing else. */
static COLD double natural_log(double x)
{
	double t, t2, term, sum = 0;
	int e = 0;
	while (x > 1.4142135623730951) {
		x /= 2;
		e++;
	}
	while (x < 0.70710678118654752) {
		x *= 2;
		e--;
	}
	t = (x - 1) / (x + 1);
	t2 = t * t;
	term = t;
	for (int k = 1; k < 40; k += 2) {
		sum += term / k;
		term *= t2;
	}
	return 2 * sum + e * 0.69314718055994531;
}

#define LN_MILLION 13.815510557964274 /* ln 10^6, for distinct() */

/*
 * Distinct recipients of a group: linear counting, rounded to the nearest
 * (the estimate is never exactly halfway), and never more than its lines.
 * A full sketch tells a lower bound only (*at_least set): each of m places
 * stays empty after n recipients with odds e^(-n/m), so all m are filled
 * with odds about exp(-m e^(-n/m)), under one in a million for n below
 * m ln(m / ln 10^6), about 23,300: the bound given.
 */
static COLD unsigned long distinct(const struct group *g, bool *at_least)
{
	const double m = SKETCH_BITS;
	unsigned zero = SKETCH_BITS - g->recipients.n;
	double estimate = zero ? -m * natural_log(zero / m)
	                       : m * natural_log(m / LN_MILLION);
	unsigned long n = (unsigned long)(estimate + 0.5);

	*at_least = zero == 0;
	return n < g->count ? n : g->count;
}

/* ---- Maps ---- */

/* Room for one more group in m: the array and the index grown as needed;
 * false (s failed) when memory ran out or m is full. */
static bool reserve(struct summary *s, struct map *m)
{
	if (m->used == MAP_MAX) {
		fail(s, "more than 2^30 distinct codes, domains or pairs");
		return false;
	}
	if (m->used == m->room) {
		size_t room = m->room ? 2 * m->room : 32;
		struct group *g = realloc(m->groups, room * sizeof *g);
		if (!g)
			goto no_memory;
		m->groups = g;
		m->room = room;
	}
	if (2 * (m->used + 1) > m->nindex) {
		size_t n = m->nindex ? 2 * m->nindex : 64;
		uint32_t *index = calloc(n, sizeof *index);
		if (!index)
			goto no_memory;
		for (size_t i = 0; i < m->used; i++) {
			size_t j = (size_t)m->groups[i].hash & (n - 1);
			while (index[j])
				j = (j + 1) & (n - 1);
			index[j] = (uint32_t)(i + 1);
		}
		free(m->index);
		m->index = index;
		m->nindex = n;
	}
	return true;
no_memory:
	fail(s, out_of_memory);
	return false;
}

/* A new group of m, of hash, whose key (NULL for a pair, else allocated,
 * NUL-terminated after its len bytes) it takes; NULL (s failed, the key
 * still the caller's) when memory ran out.  It may move m's groups. */
static struct group *add(struct summary *s, struct map *m, uint64_t hash,
                         char *key, size_t len)
{
	struct group *g;
	size_t j;

	if (!reserve(s, m))
		return NULL;
	g = &m->groups[m->used];
	memset(g, 0, sizeof *g);
	g->key = key;
	g->len = (uint32_t)len; /* a line's part: at most MAX_LINE bytes */
	g->hash = hash;
	for (j = (size_t)hash & (m->nindex - 1); m->index[j];)
		j = (j + 1) & (m->nindex - 1);
	m->index[j] = (uint32_t)++m->used;
	return g;
}

/* A copy of t[0..n), NUL-terminated; NULL (s failed) when memory ran
 * out. */
static char *copy_key(struct summary *s, const char *t, size_t n)
{
	char *key = malloc(n + 1);
	if (!key) {
		fail(s, out_of_memory);
		return NULL;
	}
	memcpy(key, t, n);
	key[n] = '\0';
	return key;
}

/* The groups of m that hash may have found, in turn: first(), then
 * next(), until NULL (an empty slot of the index). */
static struct group *first(const struct map *m, uint64_t hash, size_t *j)
{
	if (!m->nindex)
		return NULL;
	*j = (size_t)hash & (m->nindex - 1);
	return m->index[*j] ? &m->groups[m->index[*j] - 1] : NULL;
}

static struct group *next(const struct map *m, size_t *j)
{
	*j = (*j + 1) & (m->nindex - 1);
	return m->index[*j] ? &m->groups[m->index[*j] - 1] : NULL;
}

static size_t index_of(const struct map *m, const struct group *g)
{
	return (size_t)(g - m->groups);
}

/* ---- Codes, domains and pairs ---- */

/* A code as a number: class, subject and detail, or the basic code. */
static uint32_t code_number(const struct smtpcode_query *q)
{
	if (q->enhanced)
		return (uint32_t)1 << 31 | (uint32_t)q->cls << 20 |
		       (uint32_t)q->subject << 10 | q->detail;
	return q->basic;
}

/* The code whose number is cid (code_number()), as a query. */
static struct smtpcode_query code_of(uint32_t cid)
{
	struct smtpcode_query q = {0};
	if (cid >> 31) {
		q.enhanced = true;
		q.cls = (unsigned char)(cid >> 20 & 0xf);
		q.subject = (unsigned)(cid >> 10 & 0x3ff);
		q.detail = (unsigned)(cid & 0x3ff);
	} else {
		q.basic = (unsigned)cid;
	}
	return q;
}

static uint64_t code_hash(const struct summary *s, uint32_t cid)
{
	return sip13(&s->key, &cid, sizeof cid);
}

/* The group of code cid (of hash code_hash()) in s, or NULL. */
static struct group *find_code(const struct summary *s, uint32_t cid,
                               uint64_t hash)
{
	struct group *g;
	size_t j;

	for (g = first(&s->codes, hash, &j); g; g = next(&s->codes, &j))
		if (g->code == cid)
			return g;
	return NULL;
}

/* The group of code cid in s, added if new; NULL (s failed) when memory
 * ran out.  Only a new code is written out as text. */
static struct group *code_group(struct summary *s, uint32_t cid)
{
	uint64_t hash = code_hash(s, cid);
	struct group *g = find_code(s, cid, hash);
	struct smtpcode_query q;
	char text[16], *key;

	if (g)
		return g;
	q = code_of(cid);
	if (!(key = copy_key(s, text, smtpcode_format(&q, text, sizeof text))))
		return NULL;
	if (!(g = add(s, &s->codes, hash, key, strlen(key)))) {
		free(key);
		return NULL;
	}
	g->code = cid;
	return g;
}

/* The group of the domain dom[0..n) (lowered) of hash dhash in s, or
 * NULL. */
static struct group *find_domain(const struct summary *s, const char *dom,
                                 size_t n, uint64_t dhash)
{
	struct group *g;
	size_t j;

	for (g = first(&s->domains, dhash, &j); g; g = next(&s->domains, &j))
		if (g->hash == dhash && g->len == n && scan_same(g->key, dom, n))
			return g;
	return NULL;
}

/* The hash in s of the pair (code cid, domain at buf + 4, n bytes): cid
 * put in buf's first four bytes, and the whole hashed at once. */
static uint64_t pair_hash(const struct summary *s, char *buf, uint32_t cid,
                          size_t n)
{
	memcpy(buf, &cid, sizeof cid);
	return sip13(&s->key, buf, sizeof cid + n);
}

/* The group of the pair of hash (pair_hash()), code cid and domain
 * dom[0..n) in s, or NULL. */
static struct group *find_pair(const struct summary *s, uint64_t hash,
                               uint32_t cid, const char *dom, size_t n)
{
	struct group *g;
	size_t j;

	for (g = first(&s->pairs, hash, &j); g; g = next(&s->pairs, &j)) {
		const struct group *d = &s->domains.groups[g->domain_group];
		if (g->hash == hash && g->code == cid && d->len == n &&
		    scan_same(d->key, dom, n))
			return g;
	}
	return NULL;
}

/* A new pair of hash in s, of the code group and domain group of those
 * indices; NULL (s failed) when memory ran out. */
static struct group *add_pair(struct summary *s, uint64_t hash, uint32_t cid,
                              size_t code_group, size_t domain_group)
{
	struct group *p = add(s, &s->pairs, hash, NULL, 0);
	if (p) {
		p->code = cid;
		p->code_group = (uint32_t)code_group;
		p->domain_group = (uint32_t)domain_group;
	}
	return p;
}

/* A new pair (code cid, domain dom[0..n)), of hash, with its code's and
 * domain's groups found or added; NULL (s failed) when memory ran out. */
static struct group *new_pair(struct summary *s, uint64_t hash, uint32_t cid,
                              const char *dom, size_t n)
{
	struct group *c = code_group(s, cid), *d;
	uint64_t dhash = sip13(&s->key, dom, n);
	size_t ci;
	char *key;

	if (!c)
		return NULL;
	ci = index_of(&s->codes, c);
	if (!(d = find_domain(s, dom, n, dhash))) {
		if (!(key = copy_key(s, dom, n)))
			return NULL;
		if (!(d = add(s, &s->domains, dhash, key, n))) {
			free(key);
			return NULL;
		}
	}
	return add_pair(s, hash, cid, ci, index_of(&s->domains, d));
}

/* A group seen once more; place is its recipient's, or -1 for none.
 * False when memory ran out. */
static bool count(struct group *g, long place)
{
	g->count++;
	return place < 0 || sketch_add(&g->recipients, (unsigned)place);
}

/* A random key for s's hashes, which no one who writes to the log can
 * know: from the system's source, else (a kernel without getrandom(), or
 * its entropy not yet there at boot) from the time and s's address, which
 * address-space randomisation moves: weaker, still not known ahead. */
static void random_key(struct summary *s)
{
	struct timespec t;

	if (getrandom(&s->key, sizeof s->key, GRND_NONBLOCK) ==
	    (ssize_t)sizeof s->key)
		return;
	clock_gettime(CLOCK_REALTIME, &t);
	s->key.k0 = mix((uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec);
	s->key.k1 = mix(s->key.k0 ^ (uint64_t)(uintptr_t)s);
}

struct summary *summary_new(void)
{
	struct summary *s = calloc(1, sizeof *s);
	if (s) /* (the caller reports a failure) */
		random_key(s);
	return s;
}

/* Domains compare without case: t lowered into buf. */
static void lower(char *buf, struct smtpcode_text t)
{
	for (size_t i = 0; i < t.len; i++)
		buf[i] = t.s[i] >= 'A' && t.s[i] <= 'Z' ? (char)(t.s[i] + 32)
		                                        : t.s[i];
}

/*
 * One line: q is its code, or NULL for a line without one.  A line with
 * a domain costs one lookup, of its (code, domain) pair, whose code and
 * domain groups the pair knows; the code and the domain are looked up
 * only when the pair is new.  After a failure only lines are counted:
 * no summary will be shown.
 */
void summary_add(struct summary *s, const struct smtpcode_query *q,
                 struct smtpcode_text recipient, struct smtpcode_text domain,
                 struct smtpcode_text status)
{
	char stack[4 + 256], *buf = stack; /* the code, then the domain */
	struct group *g;
	uint64_t hash;
	uint32_t cid;
	long place;

	(void)status;
	s->lines++;
	if (!q || (!q->basic && !q->enhanced))
		return;
	s->with_code++;
	if (s->failed)
		return;
	place = recipient.len ? (long)sketch_place(recipient) : -1;
	cid = code_number(q);
	if (!domain.len) {
		if ((g = code_group(s, cid)) != NULL && !count(g, place))
			fail(s, out_of_memory);
		return;
	}
	/* A domain longer than most, whole: a line holds it. */
	if (4 + domain.len > sizeof stack && !(buf = malloc(4 + domain.len))) {
		fail(s, out_of_memory);
		return;
	}
	lower(buf + 4, domain);
	hash = pair_hash(s, buf, cid, domain.len);
	g = find_pair(s, hash, cid, buf + 4, domain.len);
	if (!g)
		g = new_pair(s, hash, cid, buf + 4, domain.len);
	if (g && !(count(g, place) &&
	           count(&s->codes.groups[g->code_group], place) &&
	           count(&s->domains.groups[g->domain_group], place)))
		fail(s, out_of_memory);
	if (buf != stack)
		free(buf);
}

/* ---- Merging ---- */

/* What from counted, counted in to too; false when memory ran out.  A
 * group with no recipient yet (new, in particular) takes from's sketch
 * whole. */
static COLD bool take(struct group *to, struct group *from)
{
	to->count += from->count;
	if (!to->recipients.n) { /* held in place, nothing to free */
		to->recipients = from->recipients;
		memset(&from->recipients, 0, sizeof from->recipients);
		return true;
	}
	return sketch_union(&to->recipients, &from->recipients);
}

/* from's codes counted in into, each noting its index there. */
static COLD bool merge_codes(struct summary *into, struct summary *from)
{
	for (size_t i = 0; i < from->codes.used; i++) {
		struct group *f = &from->codes.groups[i];
		uint64_t hash = code_hash(into, f->code);
		struct group *g = find_code(into, f->code, hash);
		if (!g && (g = add(into, &into->codes, hash, f->key, f->len))) {
			f->key = NULL; /* into's now */
			g->code = f->code;
		}
		if (!g || !take(g, f))
			return false;
		f->code_group = (uint32_t)index_of(&into->codes, g);
	}
	return true;
}

/* from's domains counted in into, each noting its index there. */
static COLD bool merge_domains(struct summary *into, struct summary *from)
{
	for (size_t i = 0; i < from->domains.used; i++) {
		struct group *f = &from->domains.groups[i];
		uint64_t dhash = sip13(&into->key, f->key, f->len);
		struct group *g = find_domain(into, f->key, f->len, dhash);
		if (!g && (g = add(into, &into->domains, dhash, f->key, f->len)))
			f->key = NULL; /* into's now */
		if (!g || !take(g, f))
			return false;
		f->domain_group = (uint32_t)index_of(&into->domains, g);
	}
	return true;
}

/* from's pairs counted in into, whose codes and domains have from's. */
static COLD bool merge_pairs(struct summary *into, struct summary *from)
{
	size_t longest = 0;
	bool ok = true;
	char *buf; /* pair_hash()'s */

	for (size_t i = 0; i < into->domains.used; i++)
		if (into->domains.groups[i].len > longest)
			longest = into->domains.groups[i].len;
	if (!(buf = malloc(4 + longest)))
		return false;
	for (size_t i = 0; ok && i < from->pairs.used; i++) {
		struct group *f = &from->pairs.groups[i], *g;
		size_t ci = from->codes.groups[f->code_group].code_group;
		size_t di = from->domains.groups[f->domain_group].domain_group;
		const struct group *d = &into->domains.groups[di];
		uint64_t hash;

		memcpy(buf + 4, d->key, d->len);
		hash = pair_hash(into, buf, f->code, d->len);
		if (!(g = find_pair(into, hash, f->code, d->key, d->len)))
			g = add_pair(into, hash, f->code, ci, di);
		ok = g && take(g, f);
	}
	free(buf);
	return ok;
}

/*
 * from's counts counted in into too, and from emptied (its memory moved
 * rather than copied where it can be, so that merging needs little more
 * memory than the summaries merged).  The counts do not depend on the
 * order of the merges, nor on which summary counted which line.
 */
COLD void summary_merge(struct summary *into, struct summary *from)
{
	into->lines += from->lines;
	into->with_code += from->with_code;
	if (from->failed)
		fail(into, from->failed);
	if (into->failed)
		return;
	if (!into->codes.used) { /* into has no group: from's are its own */
		struct summary empty = *into;
		into->key = from->key;
		into->codes = from->codes;
		into->domains = from->domains;
		into->pairs = from->pairs;
		from->codes = empty.codes;
		from->domains = empty.domains;
		from->pairs = empty.pairs;
		return;
	}
	if (!merge_codes(into, from) || !merge_domains(into, from) ||
	    !merge_pairs(into, from))
		fail(into, out_of_memory);
}

/* ---- Rendering ---- */

/* Two keys in a fixed order: by their bytes (which may be NUL), then the
 * shorter first. */
static COLD int key_order(const struct group *x, const struct group *y)
{
	int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Codes and domains, most frequent first, then by key. */
static COLD int by_count(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a;
	const struct group *y = *(const struct group *const *)b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return key_order(x, y);
}

/* The summary whose pairs pair_by_count() orders: qsort() passes it no
 * context (rendering is on one thread). */
static const struct summary *sorting;

/* Pairs, most frequent first, then by code, then by domain. */
static COLD int pair_by_count(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a;
	const struct group *y = *(const struct group *const *)b;
	int c;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	c = key_order(&sorting->codes.groups[x->code_group],
	              &sorting->codes.groups[y->code_group]);
	return c ? c : key_order(&sorting->domains.groups[x->domain_group],
	                         &sorting->domains.groups[y->domain_group]);
}

/* The groups of a map in order, NULL after them; NULL when memory ran
 * out. */
static COLD const struct group **sorted(const struct map *m,
                                   int (*order)(const void *, const void *))
{
	const struct group **v = malloc((m->used + 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < m->used; i++)
		v[i] = &m->groups[i];
	qsort(v, m->used, sizeof *v, order);
	v[m->used] = NULL;
	return v;
}

static COLD const struct smtpcode_entry *entry_of(const char *code,
                                             struct smtpcode_result *r)
{
	struct smtpcode_query q;
	if (smtpcode_parse(code, strlen(code), &q) != SMTPCODE_OK) {
		memset(r, 0, sizeof *r); /* no entry, no class */
		return NULL;
	}
	smtpcode_resolve(&q, NULL, 0, NULL, r);
	return smtpcode_answer(r);
}

static COLD const char *severity_of(const char *code)
{
	struct smtpcode_result r;
	struct smtpcode_verdict v;
	entry_of(code, &r);
	smtpcode_verdict(&r, SMTPCODE_REPORT_UNSAID, &v);
	return v.value[SMTPCODE_SEVERITY]
	           ? smtpcode_value_name(SMTPCODE_SEVERITY, v.value[SMTPCODE_SEVERITY])
	           : "-";
}

static COLD const char *name_of(const char *code)
{
	struct smtpcode_result r;
	const struct smtpcode_entry *e = entry_of(code, &r);
	return e ? smtpcode_text(e, SMTPCODE_NAME) : "not a registered code";
}

/* A temporary failure at one domain: many recipients point at the
 * system there, one at a mailbox.  code is the pair's code group. */
static COLD const char *finding(const struct group *pair,
                                const struct group *code, const char **scope)
{
	bool at_least;
	unsigned long n = distinct(pair, &at_least);
	if (strcmp(severity_of(code->key), "temporary") != 0)
		return NULL;
	*scope = n > 1 ? "system" : "mailbox";
	return n > 1 ? "many recipients at one domain: a problem of the "
	               "receiving system there, not of one mailbox"
	             : "one recipient: one mailbox, not the whole system";
}

/* g's distinct recipients for a column of the table: "N", or ">= N" for
 * a lower bound. */
static COLD const char *recipients_column(const struct group *g, char *buf,
                                     size_t size)
{
	bool at_least;
	unsigned long n = distinct(g, &at_least);
	snprintf(buf, size, "%s%lu", at_least ? ">= " : "", n);
	return buf;
}

static COLD void
summary_text(const struct summary *s, const struct group **codes,
             const struct group **domains, const struct group **pairs)
{
	char column[32];

	out_printf("Lines: %lu read, %lu with a code, %lu without\n", s->lines,
	           s->with_code, s->lines - s->with_code);
	out_str("\nBy code\n    count  recipients  code     severity   name\n");
	for (size_t i = 0; codes[i]; i++)
		out_printf("  %7lu  %10s  %-8s %-10s %s\n", codes[i]->count,
		           recipients_column(codes[i], column, sizeof column),
		           codes[i]->key, severity_of(codes[i]->key),
		           name_of(codes[i]->key));
	out_str("\nBy recipient domain\n    count  recipients  domain\n");
	for (size_t i = 0; domains[i]; i++) {
		out_printf("  %7lu  %10s  ", domains[i]->count,
		           recipients_column(domains[i], column, sizeof column));
		out_escaped(stdout, domains[i]->key, domains[i]->len);
		out_str("\n");
	}
	out_str("\nTemporary failures by domain\n");
	for (size_t i = 0; pairs[i]; i++) {
		const struct group *code = &s->codes.groups[pairs[i]->code_group];
		const struct group *dom = &s->domains.groups[pairs[i]->domain_group];
		const char *scope, *why = finding(pairs[i], code, &scope);
		bool at_least;
		unsigned long n = distinct(pairs[i], &at_least);
		if (!why)
			continue;
		out_printf("  %s ", code->key);
		out_escaped(stdout, dom->key, dom->len);
		out_printf(": %lu lines, %s%lu recipients: %s\n", pairs[i]->count,
		           at_least ? "at least " : "", n, why);
	}
}

/* ,"recipients":N for g, and "recipients_at_least":true for a bound. */
static COLD void json_recipients(const struct group *g)
{
	bool at_least;
	unsigned long n = distinct(g, &at_least);
	out_printf(",\"recipients\":%lu%s", n,
	           at_least ? ",\"recipients_at_least\":true" : "");
}

static COLD void json_groups(const char *name, const struct group **v,
                        bool codes)
{
	out_printf(",\"%s\":[", name);
	for (size_t i = 0; v[i]; i++) {
		out_printf("%s{\"%s\":", i ? "," : "", codes ? "code" : "domain");
		json_bytes(v[i]->key, v[i]->len);
		out_printf(",\"count\":%lu", v[i]->count);
		json_recipients(v[i]);
		if (codes) {
			out_printf(",\"severity\":\"%s\",\"name\":",
			           severity_of(v[i]->key));
			json_plain(name_of(v[i]->key));
		}
		out_str("}");
	}
	out_str("]");
}

static COLD void
summary_json(const struct summary *s, const struct group **codes,
             const struct group **domains, const struct group **pairs)
{
	size_t k = 0;
	out_printf("{\"lines\":%lu,\"with_code\":%lu,\"without_code\":%lu",
	           s->lines, s->with_code, s->lines - s->with_code);
	json_groups("codes", codes, true);
	json_groups("domains", domains, false);
	out_str(",\"temporary_by_domain\":[");
	for (size_t i = 0; pairs[i]; i++) {
		const struct group *code = &s->codes.groups[pairs[i]->code_group];
		const struct group *dom = &s->domains.groups[pairs[i]->domain_group];
		const char *scope;
		if (!finding(pairs[i], code, &scope))
			continue;
		out_printf("%s{\"code\":\"%s\",\"domain\":", k++ ? "," : "",
		           code->key);
		json_bytes(dom->key, dom->len);
		out_printf(",\"count\":%lu", pairs[i]->count);
		json_recipients(pairs[i]);
		out_printf(",\"scope\":\"%s\"}", scope);
	}
	out_str("]}\n");
}

/* Counting failed: no summary, since its counts would be wrong, and the
 * command's status for an error. */
static _Noreturn void give_up(const char *why)
{
	fprintf(stderr, "smtpcode: --summary: %s: no summary shown, as its "
	                "counts would be wrong\n", why);
	exit(2);
}

COLD void summary_render(const struct summary *s, bool json)
{
	const struct group **codes, **domains, **pairs;
	bool shown;

	if (s->failed)
		give_up(s->failed);
	sorting = s;
	codes = sorted(&s->codes, by_count);
	domains = sorted(&s->domains, by_count);
	pairs = sorted(&s->pairs, pair_by_count);
	shown = codes && domains && pairs;
	if (shown && json)
		summary_json(s, codes, domains, pairs);
	else if (shown)
		summary_text(s, codes, domains, pairs);
	free(codes);
	free(domains);
	free(pairs);
	if (!shown)
		give_up(out_of_memory);
}

static COLD void free_map(struct map *m)
{
	for (size_t i = 0; i < m->used; i++) {
		free(m->groups[i].key);
		sketch_free(&m->groups[i].recipients);
	}
	free(m->groups);
	free(m->index);
}

COLD void summary_free(struct summary *s)
{
	free_map(&s->codes);
	free_map(&s->domains);
	free_map(&s->pairs);
	free(s);
}
