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
 * The receiving side (records of side reject and auth: what this server
 * refused others) is counted apart, so that "we could not deliver" and
 * "we refused others" never mix: the sections by code and domain are
 * the sending side's (and lines that do not say their side), the
 * receiving side's are rejects by code and reason and by client, and
 * failed logins by client.  A client is written by whoever connects, so
 * its tables are bounded (CLIENTS_MAX): a new client then takes the place
 * of one seldom seen (client_group()), whose lines are counted, and said
 * to be, as no longer listed.
 *
 * Speed: this runs once per log line.  A line's (code, domain) pair is
 * looked up by the code as a number and the domain's hash; the code and
 * the domain are looked up only when the pair is new.  A recipient is
 * hashed once for the three sketches it goes into.  Texts are made only
 * for new groups.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "hash.h"
#include "layout.h"
#include "output.h"
#include "render.h"
#include "scan.h"
#include "summary.h"

#define SKETCH_LOG2 12
#define SKETCH_BITS (1u << SKETCH_LOG2) /* places of a sketch */
#define SKETCH_FEW 4        /* places held in the sketch itself */
#define CLIENTS_MAX 4096  /* clients listed, each side: see above */
#define CLIENTS_SHOWN 20  /* in text; JSON lists all those kept */
#define CLIENTS_PROBED 8  /* the least frequent of these makes room */
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
	uint32_t code;       /* codes, pairs and rejects: the code's number */
	/* Pairs: their code's and domain's groups, as indices.  Codes and
	 * domains of a summary being merged into another: their own index
	 * in that other (summary_merge()).  Rejects: code_group is the
	 * reason their words give (a SMTPCODE_REASON value, 0 none). */
	uint32_t code_group, domain_group;
	unsigned char scope; /* pairs: the SMTPCODE_SCOPE value of their first
	                        line's verdict, provider entries included */
	bool late;           /* clients: came when the table was full, so
	                        their count is a lower bound */
	struct sketch recipients;
};

/* At most this many groups in a map: the index's 32-bit entries hold
 * their positions + 1. */
#define MAP_MAX ((size_t)1 << 30)
/* Reasons of rejects' words kept (a power of two), and the longest key
 * kept: see reject_reason(). */
#define WORDINGS_KEPT 64
#define WORDING_KEY_MAX 200

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
	const struct smtpcode_entry *provider; /* --provider, for the pairs' verdicts */
	struct map codes, domains, pairs;
	/* The receiving side: its lines, rejects by (code, reason), and the
	 * clients refused, with the lines of clients past CLIENTS_MAX. */
	unsigned long rejects, auth_failures;
	struct map reasons, reject_clients, auth_clients;
	unsigned long unlisted_rejects, unlisted_auth;
	const char *failed; /* why counting stopped, or NULL */
	struct kept_wording { /* reject_reason()'s, by a key's hash */
		uint64_t hash;
		int reason;
		unsigned char len; /* 0: none kept */
		char key[WORDING_KEY_MAX];
	} wordings[WORDINGS_KEPT];
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
		uint32_t *index = index_items(m->groups, sizeof *m->groups,
		                              offsetof(struct group, hash),
		                              m->used, n);
		if (!index)
			goto no_memory;
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


struct summary *summary_new(const struct smtpcode_entry *provider)
{
	struct summary *s = calloc(1, sizeof *s);
	if (s) { /* (the caller reports a failure) */
		sip_key_random(&s->key, s);
		s->provider = provider;
	}
	return s;
}

/* Domains compare without case: t lowered into buf. */
static void lower(char *buf, struct smtpcode_text t)
{
	for (size_t i = 0; i < t.len; i++)
		buf[i] = t.s[i] >= 'A' && t.s[i] <= 'Z' ? (char)(t.s[i] + 32)
		                                        : t.s[i];
}

/* The scope of the verdict of a line's code q, reply and status, its
 * provider's entry included (Yahoo's [TSS04] is about the sender): what
 * a pair's finding rests on with the spread of its recipients.  Worked
 * out for a pair's first line only, as a reply's resolving costs more
 * than counting it. */
static COLD unsigned char scope_of(const struct summary *s,
                                   const struct smtpcode_query *q,
                                   struct smtpcode_text reply,
                                   struct smtpcode_text status)
{
	struct smtpcode_evidence ev = {.reply = reply, .status = q,
	    .report = smtpcode_report_of(status.s, status.len),
	    .provider = s->provider};
	struct smtpcode_judgement j;

	judge(&ev, &j);
	return j.verdict.value[SMTPCODE_SCOPE];
}

/* Group pos of m out of m's index (backward-shift deletion: the entries
 * after it in its run move up where their home allows, so that lookups
 * need no tombstones). */
static void unindex(struct map *m, size_t pos)
{
	size_t mask = m->nindex - 1, i, k;

	for (i = (size_t)m->groups[pos].hash & mask; m->index[i] != pos + 1;)
		i = (i + 1) & mask;
	for (k = (i + 1) & mask; m->index[k]; k = (k + 1) & mask) {
		size_t home = (size_t)m->groups[m->index[k] - 1].hash & mask;
		/* k's entry may move to i when its home is not in (i, k] */
		if ((k > i && (home <= i || home > k)) ||
		    (k < i && home <= i && home > k)) {
			m->index[i] = m->index[k];
			i = k;
		}
	}
	m->index[i] = 0;
}

/* Group pos of m given to a new key of hash (its old key freed, its lines
 * counted in *unlisted), found through the index under it. */
static void reuse(struct map *m, size_t pos, uint64_t hash, char *key,
                  size_t len, unsigned long *unlisted)
{
	struct group *g = &m->groups[pos];
	size_t j;

	unindex(m, pos);
	*unlisted += g->count;
	free(g->key);
	memset(g, 0, sizeof *g);
	g->key = key;
	g->len = (uint32_t)len;
	g->hash = hash;
	g->late = true;
	for (j = (size_t)hash & (m->nindex - 1); m->index[j];)
		j = (j + 1) & (m->nindex - 1);
	m->index[j] = (uint32_t)(pos + 1);
}

/*
 * The group of client key[0..n) in m (as read), added if new; NULL (s
 * failed) when memory ran out.  A table of CLIENTS_MAX clients makes room
 * for a new one by giving it the place of the least frequent of a few
 * (CLIENTS_PROBED, picked by the new one's hash): that one's lines are
 * counted in *unlisted, and the new one's count, which misses its lines
 * of before, is a lower bound (late).  So the frequent clients stay
 * listed whatever order they come in, and memory stays bounded.
 */
static struct group *client_group(struct summary *s, struct map *m,
                                  struct smtpcode_text key,
                                  unsigned long *unlisted)
{
	uint64_t hash = sip13(&s->key, key.s, key.len);
	struct group *g;
	char *copy;
	size_t j, least;

	for (g = first(m, hash, &j); g; g = next(m, &j))
		if (g->hash == hash && g->len == key.len &&
		    scan_same(g->key, key.s, key.len))
			return g;
	if (!(copy = copy_key(s, key.s, key.len)))
		return NULL;
	if (m->used < CLIENTS_MAX) {
		if (!(g = add(s, m, hash, copy, key.len)))
			free(copy);
		return g;
	}
	least = (size_t)(hash >> 32) % m->used;
	for (size_t i = 1; i < CLIENTS_PROBED; i++) {
		size_t at = (size_t)((hash >> 32) + i * 2654435761u) % m->used;
		if (m->groups[at].count < m->groups[least].count)
			least = at;
	}
	reuse(m, least, hash, copy, key.len, unlisted);
	return &m->groups[least];
}

/* The group of rejects of code cid whose words give reason, added if
 * new; NULL (s failed) when memory ran out.  Its key is the code's text,
 * as a code group's. */
static struct group *reason_group(struct summary *s, uint32_t cid,
                                  uint32_t reason)
{
	uint64_t both = (uint64_t)cid << 32 | reason;
	uint64_t hash = sip13(&s->key, &both, sizeof both);
	struct smtpcode_query q;
	struct group *g;
	char text[16], *key;
	size_t j;

	for (g = first(&s->reasons, hash, &j); g; g = next(&s->reasons, &j))
		if (g->code == cid && g->code_group == reason)
			return g;
	q = code_of(cid);
	if (!(key = copy_key(s, text, smtpcode_format(&q, text, sizeof text))))
		return NULL;
	if (!(g = add(s, &s->reasons, hash, key, strlen(key)))) {
		free(key);
		return NULL;
	}
	g->code = cid;
	g->code_group = reason;
	return g;
}

/* The key of reply's wording into key (WORDING_KEY_MAX bytes): its bytes
 * without what a closed <...> encloses, which the matcher passes over as
 * past_enclosed() in wording.c finds it (a phrase holds no '<' or '>':
 * datafmt.c); its length, 0 when it does not fit. */
static size_t wording_key(struct smtpcode_text reply, char *key)
{
	const char *p = reply.s, *end = reply.s + reply.len;
	size_t n = 0;

	while (p < end) {
		const char *lt = scan_byte(p, end, '<');
		const char *gt = lt ? scan_byte(lt + 1, end, '>') : NULL;
		/* Through the '<' of a closed <...>, else to the end (a '<'
		 * that no '>' closes is a byte like the others, and so is
		 * every '<' after it). */
		size_t m = (size_t)((gt ? lt + 1 : end) - p);
		if (n + m + 1 > WORDING_KEY_MAX)
			return 0;
		memcpy(key + n, p, m);
		n += m;
		if (!gt)
			break;
		key[n++] = '>';
		p = gt + 1;
	}
	return n;
}

/* The reason the words of a reject's reply give (0: none), kept for the
 * next: a log's refusals repeat a few wordings, each with another
 * address in <...>, which the key leaves out.  A slot is taken by the
 * key's hash (this summary's own key: the replies are others' words),
 * and a key is compared whole before its reason is used. */
/* The reason the judgement gives a refusal's reply; 0 when nothing
 * decides one. */
static int words_reason(struct smtpcode_text reply)
{
	struct smtpcode_evidence ev = {.reply = reply};
	struct smtpcode_judgement j;

	if (!reply.len)
		return 0;
	judge(&ev, &j);
	return j.verdict_from ? j.verdict.value[SMTPCODE_REASON] : 0;
}

static int reject_reason(struct summary *s, struct smtpcode_text reply)
{
	char key[WORDING_KEY_MAX];
	size_t n = reply.len ? wording_key(reply, key) : 0;
	struct kept_wording *k;
	uint64_t hash;

	if (n == 0) /* none, or too long to keep: its words read again */
		return words_reason(reply);
	hash = sip13(&s->key, key, n);
	k = &s->wordings[hash & (WORDINGS_KEPT - 1)];
	if (k->len == n && k->hash == hash && memcmp(k->key, key, n) == 0)
		return k->reason;
	k->reason = words_reason(reply);
	k->hash = hash;
	k->len = (unsigned char)n;
	memcpy(k->key, key, n);
	return k->reason;
}

/* A line of the receiving side (side reject or auth): counted by its
 * client (host) and, for a reject with a code, by the code and the
 * reason its reply's words give. */
static void add_receiving(struct summary *s, enum smtpcode_log_side side,
                          const struct smtpcode_query *q,
                          struct smtpcode_text host,
                          struct smtpcode_text reply)
{
	bool reject = side == SMTPCODE_SIDE_REJECT;
	struct group *g;

	if (reject)
		s->rejects++;
	else
		s->auth_failures++;
	if (s->failed)
		return;
	if (reject && q &&
	    (g = reason_group(s, code_number(q),
	                      (uint32_t)reject_reason(s, reply))) != NULL)
		g->count++;
	if (!host.len)
		return;
	g = client_group(s, reject ? &s->reject_clients : &s->auth_clients,
	                 host, reject ? &s->unlisted_rejects : &s->unlisted_auth);
	if (g)
		g->count++;
}

/*
 * One line: q is its code, or NULL for a line without one.  A line with
 * a domain costs one lookup, of its (code, domain) pair, whose code and
 * domain groups the pair knows; the code and the domain are looked up
 * only when the pair is new.  After a failure only lines are counted:
 * no summary will be shown.
 */
void summary_add(struct summary *s, const struct smtpcode_query *q,
                 const struct summary_line *l)
{
	char stack[4 + 256], *buf = stack; /* the code, then the domain */
	struct smtpcode_text recipient = l->recipient, domain = l->domain;
	enum smtpcode_log_side side;
	struct group *g;
	uint64_t hash;
	uint32_t cid;
	long place;

	s->lines++;
	if (q && !q->basic && !q->enhanced)
		q = NULL;
	if (q)
		s->with_code++;
	side = smtpcode_status_side(l->status.s, l->status.len);
	if (side == SMTPCODE_SIDE_REJECT || side == SMTPCODE_SIDE_AUTH) {
		add_receiving(s, side, q, l->host, l->reply);
		return;
	}
	if (!q)
		return;
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
	if (!g && (g = new_pair(s, hash, cid, buf + 4, domain.len)) != NULL)
		g->scope = scope_of(s, q, l->reply, l->status);
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
		/* The first lines differ from summary to summary: the
		 * least scope of theirs, so that the order of merges does
		 * not matter. */
		if (ok && f->scope && (!g->scope || f->scope < g->scope))
			g->scope = f->scope;
	}
	free(buf);
	return ok;
}

/* from's rejects by code and reason counted in into. */
static COLD bool merge_reasons(struct summary *into, struct summary *from)
{
	for (size_t i = 0; i < from->reasons.used; i++) {
		struct group *f = &from->reasons.groups[i];
		struct group *g = reason_group(into, f->code, f->code_group);
		if (!g)
			return false;
		g->count += f->count;
	}
	return true;
}

/* from's clients of map m counted in into's map to (whose room is made
 * as client_group() makes it), with from's unlisted lines. */
static COLD bool merge_clients(struct summary *into, struct map *to,
                               const struct map *m, unsigned long *unlisted,
                               unsigned long from_unlisted)
{
	*unlisted += from_unlisted;
	for (size_t i = 0; i < m->used; i++) {
		const struct group *f = &m->groups[i];
		struct group *g = client_group(
		    into, to, (struct smtpcode_text){f->key, f->len}, unlisted);
		if (!g)
			return false;
		g->count += f->count;
		g->late |= f->late;
	}
	return true;
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
	into->rejects += from->rejects;
	into->auth_failures += from->auth_failures;
	if (from->failed)
		fail(into, from->failed);
	if (into->failed)
		return;
	if (!into->codes.used && !into->reasons.used &&
	    !into->reject_clients.used && !into->auth_clients.used) {
		/* into has no group: from's are its own, with their key */
		struct summary empty = *into;
		into->key = from->key;
		into->codes = from->codes;
		into->domains = from->domains;
		into->pairs = from->pairs;
		into->reasons = from->reasons;
		into->reject_clients = from->reject_clients;
		into->auth_clients = from->auth_clients;
		into->unlisted_rejects += from->unlisted_rejects;
		into->unlisted_auth += from->unlisted_auth;
		from->codes = empty.codes;
		from->domains = empty.domains;
		from->pairs = empty.pairs;
		from->reasons = empty.reasons;
		from->reject_clients = empty.reject_clients;
		from->auth_clients = empty.auth_clients;
		return;
	}
	if (!merge_codes(into, from) || !merge_domains(into, from) ||
	    !merge_pairs(into, from) || !merge_reasons(into, from) ||
	    !merge_clients(into, &into->reject_clients, &from->reject_clients,
	                   &into->unlisted_rejects, from->unlisted_rejects) ||
	    !merge_clients(into, &into->auth_clients, &from->auth_clients,
	                   &into->unlisted_auth, from->unlisted_auth))
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

/* Rejects, most frequent first, then by code, then by reason. */
static COLD int reason_by_count(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a;
	const struct group *y = *(const struct group *const *)b;
	int c = by_count(a, b);
	if (c || x->code_group == y->code_group)
		return c;
	return x->code_group < y->code_group ? -1 : 1;
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

unsigned long summary_known(const struct summary *s)
{
	struct smtpcode_result r;
	unsigned long n = 0;

	for (size_t i = 0; i < s->codes.used; i++)
		if (entry_of(s->codes.groups[i].key, &r) && r.known)
			n += s->codes.groups[i].count;
	for (size_t i = 0; i < s->reasons.used; i++)
		n += s->reasons.groups[i].count; /* rejects with a code */
	return n;
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

/* "1 line", "2 lines": a count and its noun, grammatical. */
static COLD const char *counted(unsigned long n, const char *one,
                                const char *many, char *buf, size_t size)
{
	snprintf(buf, size, "%lu %s", n, n == 1 ? one : many);
	return buf;
}

/*
 * A temporary failure at one domain: whom it is about, from the scope of
 * the code's verdict (its provider's entry included) and the spread of
 * its recipients together.  A code about a mailbox (4.2.2, full) is that
 * many mailboxes however many there are; one about the system (4.3.1) is
 * the system there; the network (a time-out), the session, the message
 * and the sender (Yahoo's [TSS04], our IP address) are neither one
 * mailbox nor, but the session, the system.
 * A code that says no scope leaves it to the spread: many recipients
 * point at the system, one at a mailbox.  *scope is the word JSON gives,
 * *from what it rests on ("code" or "recipients"); NULL when the code is
 * not temporary.
 */
static COLD const char *finding(const struct group *pair,
                                const struct group *code, const char **scope,
                                const char **from, char *buf, size_t size)
{
	bool at_least;
	unsigned long n = distinct(pair, &at_least);
	const char *name = pair->scope
	                       ? smtpcode_value_name(SMTPCODE_SCOPE, pair->scope)
	                       : NULL;

	if (strcmp(severity_of(code->key), "temporary") != 0)
		return NULL;
	*from = "code";
	*scope = name;
	if (name && strcmp(name, "mailbox") == 0) {
		if (n == 1 && !at_least)
			return "one mailbox (the code is about a mailbox), not "
			       "the receiving system";
		snprintf(buf, size, "%s%lu mailboxes, each its own (the code is "
		         "about a mailbox), not the receiving system",
		         at_least ? "at least " : "", n);
		return buf;
	}
	if (name && strcmp(name, "system") == 0)
		return n > 1 ? "the receiving system there (the code is about "
		               "the system, and many recipients share it)"
		             : "the receiving system there (the code is about "
		               "the system; one recipient seen)";
	if (name && strcmp(name, "network") == 0)
		return "the network on the way there (the code is about the "
		       "connection), not a mailbox";
	if (name && strcmp(name, "sender") == 0)
		return "the sending side: our IP address or domain (the code "
		       "is about the sender), not the recipients";
	if (name && strcmp(name, "message") == 0)
		return "this message itself (the code is about the message), "
		       "not the recipients nor their system";
	if (name && strcmp(name, "session") == 0)
		return "the session with the receiving system there (the code "
		       "is about the connection), not one mailbox";
	*from = "recipients";
	*scope = n > 1 ? "system" : "mailbox";
	return n > 1 ? "many recipients at one domain: likely the receiving "
	               "system there, not one mailbox"
	             : "one recipient: likely one mailbox, not the whole system";
}

/* The reason of a group of rejects: its words', else its code's own
 * verdict's; "-" for none. */
static COLD const char *reason_name(const struct group *g)
{
	struct smtpcode_result r;
	struct smtpcode_verdict v;
	const char *name;

	if (g->code_group)
		return smtpcode_value_name(SMTPCODE_REASON, (int)g->code_group);
	entry_of(g->key, &r);
	smtpcode_verdict(&r, SMTPCODE_REPORT_UNSAID, &v);
	name = v.value[SMTPCODE_REASON]
	           ? smtpcode_value_name(SMTPCODE_REASON, v.value[SMTPCODE_REASON])
	           : NULL;
	return name ? name : "-";
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

/* Clients of a table, the most frequent first: CLIENTS_SHOWN of them,
 * and how many more there are. */
static COLD void clients_text(const struct group **v, unsigned long unlisted)
{
	size_t i;
	char buf[64];

	out_str("    count  client\n");
	for (i = 0; i < CLIENTS_SHOWN && v[i]; i++) {
		snprintf(buf, sizeof buf, "%s%lu", v[i]->late ? ">= " : "",
		         v[i]->count);
		out_printf("  %7s  ", buf);
		out_escaped(stdout, v[i]->key, v[i]->len);
		out_str("\n");
	}
	for (; v[i]; i++)
		unlisted += v[i]->count;
	if (unlisted)
		out_printf("  and %s from other clients (--json lists up to %d "
		           "clients, those most seen)\n",
		           counted(unlisted, "line", "lines", buf, sizeof buf),
		           CLIENTS_MAX);
}

/* The receiving side: what this server refused others. */
static COLD void receiving_text(const struct summary *s,
                                const struct group **reasons,
                                const struct group **reject_clients,
                                const struct group **auth_clients)
{
	char buf[64];

	out_str("\nReceiving side: what this server refused others\n");
	out_printf("Rejects: %s\n",
	           counted(s->rejects, "line", "lines", buf, sizeof buf));
	if (reasons[0]) {
		out_str("  By code and reason\n"
		        "    count  code     reason            name\n");
		for (size_t i = 0; reasons[i]; i++)
			out_printf("  %7lu  %-8s %-17s %s\n", reasons[i]->count,
			           reasons[i]->key, reason_name(reasons[i]),
			           name_of(reasons[i]->key));
	}
	if (reject_clients[0]) {
		out_str("  By client\n");
		clients_text(reject_clients, s->unlisted_rejects);
	}
	out_printf("Failed logins: %s\n",
	           counted(s->auth_failures, "line", "lines", buf, sizeof buf));
	if (auth_clients[0]) {
		out_str("  By client\n");
		clients_text(auth_clients, s->unlisted_auth);
	}
}

static COLD void
summary_text(const struct summary *s, const struct group **codes,
             const struct group **domains, const struct group **pairs,
             const struct group **reasons, const struct group **reject_clients,
             const struct group **auth_clients)
{
	char column[32], word[32], text[256];

	out_printf("Lines: %lu read, %lu with a code, %lu without\n", s->lines,
	           s->with_code, s->lines - s->with_code);
	if (s->rejects || s->auth_failures)
		out_printf("The sections by code and domain are the sending "
		           "side's; the receiving side's %s below\n",
		           counted(s->rejects + s->auth_failures, "line is",
		                   "lines are", text, sizeof text));
	out_str("\nBy code\n    count  recipients  code     severity   name\n");
	for (size_t i = 0; codes[i]; i++) {
		out_printf("  %7lu  %10s  %-8s ", codes[i]->count,
		           recipients_column(codes[i], column, sizeof column),
		           codes[i]->key);
		out_severity(severity_of(codes[i]->key), 10);
		out_printf(" %s\n", name_of(codes[i]->key));
	}
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
		const char *scope, *from;
		const char *why = finding(pairs[i], code, &scope, &from, text,
		                          sizeof text);
		bool at_least;
		unsigned long n = distinct(pairs[i], &at_least);
		if (!why)
			continue;
		out_printf("  %s ", code->key);
		out_escaped(stdout, dom->key, dom->len);
		out_printf(": %s, %s%s: %s\n",
		           counted(pairs[i]->count, "line", "lines", column,
		                   sizeof column),
		           at_least ? "at least " : "",
		           counted(n, "recipient", "recipients", word, sizeof word),
		           why);
	}
	if (s->rejects || s->auth_failures)
		receiving_text(s, reasons, reject_clients, auth_clients);
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

/* "name":[{"client":...,"count":N},...],"name_unlisted":N */
static COLD void json_clients(const char *name, const struct group **v,
                              unsigned long unlisted)
{
	out_printf(",\"%s\":[", name);
	for (size_t i = 0; v[i]; i++) {
		out_str(i ? ",{\"client\":" : "{\"client\":");
		json_bytes(v[i]->key, v[i]->len);
		out_printf(",\"count\":%lu%s}", v[i]->count,
		           v[i]->late ? ",\"count_at_least\":true" : "");
	}
	out_printf("],\"%s_unlisted\":%lu", name, unlisted);
}

/* ,"receiving":{...}: what this server refused others. */
static COLD void receiving_json(const struct summary *s,
                                const struct group **reasons,
                                const struct group **reject_clients,
                                const struct group **auth_clients)
{
	out_printf(",\"receiving\":{\"rejects\":%lu,\"auth_failures\":%lu",
	           s->rejects, s->auth_failures);
	out_str(",\"rejects_by_reason\":[");
	for (size_t i = 0; reasons[i]; i++) {
		out_printf("%s{\"code\":\"%s\",\"reason\":", i ? "," : "",
		           reasons[i]->key);
		json_plain(reason_name(reasons[i]));
		out_str(",\"name\":");
		json_plain(name_of(reasons[i]->key));
		out_printf(",\"count\":%lu}", reasons[i]->count);
	}
	out_str("]");
	json_clients("rejects_by_client", reject_clients, s->unlisted_rejects);
	json_clients("auth_failures_by_client", auth_clients, s->unlisted_auth);
	out_str("}");
}

static COLD void
summary_json(const struct summary *s, const struct group **codes,
             const struct group **domains, const struct group **pairs,
             const struct group **reasons, const struct group **reject_clients,
             const struct group **auth_clients)
{
	char text[256];
	size_t k = 0;
	out_printf("{\"lines\":%lu,\"with_code\":%lu,\"without_code\":%lu",
	           s->lines, s->with_code, s->lines - s->with_code);
	json_groups("codes", codes, true);
	json_groups("domains", domains, false);
	out_str(",\"temporary_by_domain\":[");
	for (size_t i = 0; pairs[i]; i++) {
		const struct group *code = &s->codes.groups[pairs[i]->code_group];
		const struct group *dom = &s->domains.groups[pairs[i]->domain_group];
		const char *scope, *from;
		if (!finding(pairs[i], code, &scope, &from, text, sizeof text))
			continue;
		out_printf("%s{\"code\":\"%s\",\"domain\":", k++ ? "," : "",
		           code->key);
		json_bytes(dom->key, dom->len);
		out_printf(",\"count\":%lu", pairs[i]->count);
		json_recipients(pairs[i]);
		out_printf(",\"scope\":\"%s\",\"scope_from\":\"%s\"}", scope,
		           from);
	}
	out_str("]");
	receiving_json(s, reasons, reject_clients, auth_clients);
	out_str("}\n");
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
	const struct group **codes, **domains, **pairs, **reasons,
	    **reject_clients, **auth_clients;
	bool shown;

	if (s->failed)
		give_up(s->failed);
	sorting = s;
	codes = sorted(&s->codes, by_count);
	domains = sorted(&s->domains, by_count);
	pairs = sorted(&s->pairs, pair_by_count);
	reasons = sorted(&s->reasons, reason_by_count);
	reject_clients = sorted(&s->reject_clients, by_count);
	auth_clients = sorted(&s->auth_clients, by_count);
	shown = codes && domains && pairs && reasons && reject_clients &&
	        auth_clients;
	if (shown && json)
		summary_json(s, codes, domains, pairs, reasons, reject_clients,
		             auth_clients);
	else if (shown)
		summary_text(s, codes, domains, pairs, reasons, reject_clients,
		             auth_clients);
	free(codes);
	free(domains);
	free(pairs);
	free(reasons);
	free(reject_clients);
	free(auth_clients);
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
	free_map(&s->reasons);
	free_map(&s->reject_clients);
	free_map(&s->auth_clients);
	free(s);
}
