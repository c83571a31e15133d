/*
 * --summary: counts by code, by recipient domain, and by code at each
 * domain, with distinct recipients, so a wave of 452 4.3.1 against many
 * recipients at one domain (the system there is out of storage) stands
 * apart from one full mailbox.  Memory grows with distinct codes and
 * domains only: recipients are counted with a fixed-size sketch (linear
 * counting), exact for the first hundreds and close beyond.
 *
 * Speed: this runs once per log line.  Codes and (code, domain) pairs are
 * looked up by numbers, not by text, so nothing is formatted per line; a
 * domain is lowered and hashed once; a recipient is hashed once for the
 * three sketches it goes into.  Texts are made only for new groups.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "output.h"
#include "render.h"
#include "scan.h"
#include "summary.h"

#define SKETCH_BITS 4096

struct group {
	char *key;       /* "4.3.1", "example.com", "4.3.1 example.com" */
	size_t len;      /* of key, which may hold NUL bytes from the input */
	uint64_t hash;   /* of what identifies it in its map */
	uint64_t code;   /* codes and pairs: the code as a number */
	size_t code_group, domain_group; /* pairs: theirs, as indices */
	unsigned long count;
	unsigned char sketch[SKETCH_BITS / 8];
};

/* Groups in order of arrival (indices stay valid as it grows), found
 * through an open-addressing index of their positions + 1 (0: empty). */
struct map {
	struct group *groups;
	size_t used, room;
	size_t *index;
	size_t nindex; /* a power of two, at least twice used */
};

struct summary {
	unsigned long lines, with_code;
	struct map codes, domains, pairs;
};

/* Room for one more group: the array and the index grown as needed. */
static int reserve(struct map *m)
{
	if (m->used == m->room) {
		size_t room = m->room ? 2 * m->room : 32;
		struct group *g = realloc(m->groups, room * sizeof *g);
		if (!g)
			return -1;
		m->groups = g;
		m->room = room;
	}
	if (2 * (m->used + 1) > m->nindex) {
		size_t n = m->nindex ? 2 * m->nindex : 64;
		size_t *index = calloc(n, sizeof *index);
		if (!index)
			return -1;
		for (size_t i = 0; i < m->used; i++) {
			size_t j = (size_t)m->groups[i].hash & (n - 1);
			while (index[j])
				j = (j + 1) & (n - 1);
			index[j] = i + 1;
		}
		free(m->index);
		m->index = index;
		m->nindex = n;
	}
	return 0;
}

/* A new group of m, found by hash, keyed a (then " " and b, for b
 * non-NULL); NULL when memory runs out.  It may move the groups of m. */
static struct group *add(struct map *m, uint64_t hash, const char *a,
                         size_t alen, const char *b, size_t blen)
{
	size_t n = alen + (b ? 1 + blen : 0), j;
	struct group *g;
	char *key;

	if (reserve(m) != 0 || !(key = malloc(n + 1)))
		return NULL;
	memcpy(key, a, alen);
	if (b) {
		key[alen] = ' ';
		memcpy(key + alen + 1, b, blen);
	}
	key[n] = '\0';
	g = &m->groups[m->used];
	memset(g, 0, sizeof *g);
	g->key = key;
	g->len = n;
	g->hash = hash;
	for (j = (size_t)hash & (m->nindex - 1); m->index[j];)
		j = (j + 1) & (m->nindex - 1);
	m->index[j] = ++m->used;
	return g;
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

/* Where a recipient falls in a sketch: FNV-1a, whose bits the estimates
 * printed so far were made with. */
static unsigned sketch_bit(struct smtpcode_text recipient)
{
	uint64_t h = 14695981039346656037u;
	for (size_t i = 0; i < recipient.len; i++)
		h = (h ^ (unsigned char)recipient.s[i]) * 1099511628211u;
	return (unsigned)(h % SKETCH_BITS);
}

/* A group seen once more; bit is the recipient's, or -1 for none. */
static void count(struct group *g, long bit)
{
	g->count++;
	if (bit >= 0)
		g->sketch[bit / 8] |= (unsigned char)(1u << (bit % 8));
}

/* Natural logarithm of x > 0, to double precision: x = m 2^e with m in
 * [1/sqrt 2, sqrt 2], then ln m = 2 atanh t, t = (m - 1) / (m + 1) and
 * |t| < 0.18, by its series.  Enough for the one estimate below, which
 * needed libm for nothing else. */
static double natural_log(double x)
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

/* Bits not set in a sketch: 64 at a time, counted by the classic
 * bit-parallel sums (of pairs, nibbles, then bytes). */
static unsigned long zero_bits(const unsigned char *sketch, size_t n)
{
	unsigned long ones = 0;
	for (size_t i = 0; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, sketch + i, sizeof w);
		w -= w >> 1 & 0x5555555555555555u;
		w = (w & 0x3333333333333333u) + (w >> 2 & 0x3333333333333333u);
		w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fu;
		ones += (unsigned long)(w * 0x0101010101010101u >> 56);
	}
	return 8 * (unsigned long)n - ones;
}

/* Distinct recipients seen in a group: linear counting, rounded to the
 * nearest (the estimate is never exactly halfway). */
static unsigned long distinct(const struct group *g)
{
	unsigned long zero = zero_bits(g->sketch, sizeof g->sketch);
	if (zero == 0)
		return SKETCH_BITS * 8; /* saturated: at least this many */
	return (unsigned long)(-(double)SKETCH_BITS *
	                       natural_log((double)zero / SKETCH_BITS) + 0.5);
}

struct summary *summary_new(void)
{
	struct summary *s = calloc(1, sizeof *s);
	if (!s)
		perror("smtpcode");
	return s;
}

/* Domains compare without case. */
static size_t lower(char *buf, size_t size, struct smtpcode_text t)
{
	size_t n = t.len < size ? t.len : size;
	for (size_t i = 0; i < n; i++)
		buf[i] = t.s[i] >= 'A' && t.s[i] <= 'Z' ? (char)(t.s[i] + 32)
		                                        : t.s[i];
	return n;
}

/* A code as a number: class, subject and detail, or the basic code. */
static uint64_t code_number(const struct smtpcode_query *q)
{
	if (q->enhanced)
		return (uint64_t)1 << 40 | (uint64_t)q->cls << 20 |
		       (uint64_t)q->subject << 10 | q->detail;
	return q->basic;
}

static size_t digits(unsigned v)
{
	size_t n = 1;
	for (; v >= 10; v /= 10)
		n++;
	return n;
}

/* The length of q as smtpcode_format() writes it ("4.3.1", "X.7.26",
 * "550"), without writing it: only new groups need the text. */
static size_t code_length(const struct smtpcode_query *q)
{
	return q->enhanced ? 3 + digits(q->subject) + digits(q->detail)
	                   : digits(q->basic);
}

/* The group of code q, whose number is cid, added if new; NULL when
 * memory runs out.  Only a new code is written out as text. */
static struct group *code_group(struct map *m, const struct smtpcode_query *q,
                                uint64_t cid)
{
	uint64_t hash = mix(cid);
	struct group *g;
	char code[16];
	size_t j;

	for (g = first(m, hash, &j); g; g = next(m, &j))
		if (g->code == cid)
			return g;
	g = add(m, hash, code, smtpcode_format(q, code, sizeof code), NULL, 0);
	if (g)
		g->code = cid;
	return g;
}

/* The group of domain dom[0..n) (lowered; hash its mixed hash_bytes()),
 * added if new; NULL when memory runs out. */
static struct group *domain_group(struct map *m, const char *dom, size_t n,
                                  uint64_t hash)
{
	struct group *g;
	size_t j;

	for (g = first(m, hash, &j); g; g = next(m, &j))
		if (g->hash == hash && g->len == n && scan_same(g->key, dom, n))
			return g;
	return add(m, hash, dom, n, NULL, 0);
}

/* The group of the pair (code cid, domain dom[0..n) of hash dhash), or
 * NULL when it is new. */
static struct group *pair_group(const struct summary *s, uint64_t cid,
                                const char *dom, size_t n, uint64_t dhash)
{
	uint64_t hash = mix(cid ^ dhash);
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

/* A new pair (code q, domain dom[0..n)), with its code's and domain's
 * groups found or added; NULL when memory runs out. */
static struct group *new_pair(struct summary *s, const struct smtpcode_query *q,
                              uint64_t cid, const char *dom, size_t n,
                              uint64_t dhash)
{
	const struct group *c = code_group(&s->codes, q, cid);
	const struct group *d = c ? domain_group(&s->domains, dom, n, dhash)
	                          : NULL;
	struct group *p;

	if (!d)
		return NULL;
	p = add(&s->pairs, mix(cid ^ dhash), c->key, c->len, dom, n);
	if (p) {
		p->code = cid;
		p->code_group = (size_t)(c - s->codes.groups);
		p->domain_group = (size_t)(d - s->domains.groups);
	}
	return p;
}

/*
 * One line: q is its code, or NULL for a line without one.  A line with
 * a domain costs one lookup, of its (code, domain) pair, whose code and
 * domain groups the pair knows; the code and the domain are looked up
 * only when the pair is new.
 */
void summary_add(struct summary *s, const struct smtpcode_query *q,
                 struct smtpcode_text recipient, struct smtpcode_text domain,
                 struct smtpcode_text status)
{
	char dom[300];
	struct group *g;
	uint64_t cid, dhash;
	size_t dn;
	long bit;

	(void)status;
	s->lines++;
	if (!q || (!q->basic && !q->enhanced))
		return;
	s->with_code++;
	bit = recipient.len ? (long)sketch_bit(recipient) : -1;
	cid = code_number(q);
	if (!domain.len) {
		if ((g = code_group(&s->codes, q, cid)) != NULL)
			count(g, bit);
		return;
	}
	/* A domain key holds what fits after the code in "CODE DOMAIN" of 300
	 * bytes, as the pair's does. */
	dn = lower(dom, sizeof dom - code_length(q) - 1, domain);
	dhash = mix(hash_bytes(0x9e3779b97f4a7c15u ^ dn, dom, dn));
	g = pair_group(s, cid, dom, dn, dhash);
	if (!g && !(g = new_pair(s, q, cid, dom, dn, dhash)))
		return;
	count(g, bit);
	count(&s->codes.groups[g->code_group], bit);
	count(&s->domains.groups[g->domain_group], bit);
}

/* The code whose number is cid (code_number()), as a query. */
static struct smtpcode_query code_of(uint64_t cid)
{
	struct smtpcode_query q = {0};
	if (cid >> 40) {
		q.enhanced = true;
		q.cls = (unsigned char)(cid >> 20 & 0xf);
		q.subject = (unsigned)(cid >> 10 & 0x3ff);
		q.detail = (unsigned)(cid & 0x3ff);
	} else {
		q.basic = (unsigned)cid;
	}
	return q;
}

/* What from counted, counted in to too. */
static void absorb(struct group *to, const struct group *from)
{
	to->count += from->count;
	for (size_t i = 0; i < sizeof to->sketch; i++)
		to->sketch[i] |= from->sketch[i];
}

void summary_merge(struct summary *into, const struct summary *from)
{
	into->lines += from->lines;
	into->with_code += from->with_code;
	for (size_t i = 0; i < from->codes.used; i++) {
		const struct group *g = &from->codes.groups[i];
		struct smtpcode_query q = code_of(g->code);
		struct group *c = code_group(&into->codes, &q, g->code);
		if (c)
			absorb(c, g);
	}
	for (size_t i = 0; i < from->domains.used; i++) {
		const struct group *g = &from->domains.groups[i];
		struct group *d = domain_group(&into->domains, g->key, g->len,
		                               g->hash);
		if (d)
			absorb(d, g);
	}
	for (size_t i = 0; i < from->pairs.used; i++) {
		const struct group *g = &from->pairs.groups[i];
		const struct group *d = &from->domains.groups[g->domain_group];
		struct smtpcode_query q = code_of(g->code);
		struct group *p = pair_group(into, g->code, d->key, d->len, d->hash);
		if (!p)
			p = new_pair(into, &q, g->code, d->key, d->len, d->hash);
		if (p)
			absorb(p, g);
	}
}

static int by_count(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a;
	const struct group *y = *(const struct group *const *)b;
	int c;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if ((c = strcmp(x->key, y->key)) != 0)
		return c;
	/* Keys alike up to a NUL: any fixed order, so output never varies. */
	c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The groups of a map, most frequent first; NULL if none or no memory. */
static const struct group **sorted(const struct map *m)
{
	const struct group **v = malloc((m->used + 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < m->used; i++)
		v[i] = &m->groups[i];
	qsort(v, m->used, sizeof *v, by_count);
	v[m->used] = NULL;
	return v;
}

static const struct smtpcode_entry *entry_of(const char *code,
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

static const char *severity_of(const char *code)
{
	struct smtpcode_result r;
	struct smtpcode_verdict v;
	entry_of(code, &r);
	smtpcode_verdict(&r, SMTPCODE_REPORT_UNSAID, &v);
	return v.value[SMTPCODE_SEVERITY]
	           ? smtpcode_value_name(SMTPCODE_SEVERITY, v.value[SMTPCODE_SEVERITY])
	           : "-";
}

static const char *name_of(const char *code)
{
	struct smtpcode_result r;
	const struct smtpcode_entry *e = entry_of(code, &r);
	return e ? smtpcode_text(e, SMTPCODE_NAME) : "not a registered code";
}

/* A temporary failure at one domain: many recipients point at the
 * system there, one at a mailbox. */
static const char *finding(const struct group *g, const char **scope)
{
	const char *sp = strchr(g->key, ' ');
	unsigned long n = distinct(g);
	char code[16];
	snprintf(code, sizeof code, "%.*s", (int)(sp - g->key), g->key);
	if (strcmp(severity_of(code), "temporary") != 0)
		return NULL;
	*scope = n > 1 ? "system" : "mailbox";
	return n > 1 ? "many recipients at one domain: a problem of the "
	               "receiving system there, not of one mailbox"
	             : "one recipient: one mailbox, not the whole system";
}

static void summary_text(const struct summary *s, const struct group **codes,
                        const struct group **domains,
                        const struct group **pairs)
{
	out_printf("Lines: %lu read, %lu with a code, %lu without\n", s->lines,
	           s->with_code, s->lines - s->with_code);
	out_str("\nBy code\n    count  recipients  code     severity   name\n");
	for (size_t i = 0; codes && codes[i]; i++)
		out_printf("  %7lu  %10lu  %-8s %-10s %s\n", codes[i]->count,
		           distinct(codes[i]), codes[i]->key,
		           severity_of(codes[i]->key), name_of(codes[i]->key));
	out_str("\nBy recipient domain\n    count  recipients  domain\n");
	for (size_t i = 0; domains && domains[i]; i++) {
		out_printf("  %7lu  %10lu  ", domains[i]->count,
		           distinct(domains[i]));
		out_escaped(stdout, domains[i]->key, strlen(domains[i]->key));
		out_str("\n");
	}
	out_str("\nTemporary failures by domain\n");
	for (size_t i = 0; pairs && pairs[i]; i++) {
		const char *scope, *why = finding(pairs[i], &scope);
		if (!why)
			continue;
		out_str("  ");
		out_escaped(stdout, pairs[i]->key, strlen(pairs[i]->key));
		out_printf(": %lu lines, %lu recipients: %s\n", pairs[i]->count,
		           distinct(pairs[i]), why);
	}
}

static void json_groups(const char *name, const struct group **v, int codes)
{
	out_printf(",\"%s\":[", name);
	for (size_t i = 0; v && v[i]; i++) {
		out_printf("%s{\"%s\":", i ? "," : "", codes ? "code" : "domain");
		json_plain(v[i]->key);
		out_printf(",\"count\":%lu,\"recipients\":%lu", v[i]->count,
		           distinct(v[i]));
		if (codes) {
			out_printf(",\"severity\":\"%s\",\"name\":",
			           severity_of(v[i]->key));
			json_plain(name_of(v[i]->key));
		}
		out_str("}");
	}
	out_str("]");
}

static void summary_json(const struct summary *s, const struct group **codes,
                        const struct group **domains,
                        const struct group **pairs)
{
	size_t k = 0;
	out_printf("{\"lines\":%lu,\"with_code\":%lu,\"without_code\":%lu",
	           s->lines, s->with_code, s->lines - s->with_code);
	json_groups("codes", codes, 1);
	json_groups("domains", domains, 0);
	out_str(",\"temporary_by_domain\":[");
	for (size_t i = 0; pairs && pairs[i]; i++) {
		const char *scope, *sp = strchr(pairs[i]->key, ' ');
		if (!finding(pairs[i], &scope))
			continue;
		out_printf("%s{\"code\":\"%.*s\",\"domain\":", k++ ? "," : "",
		           (int)(sp - pairs[i]->key), pairs[i]->key);
		json_plain(sp + 1);
		out_printf(",\"count\":%lu,\"recipients\":%lu,\"scope\":\"%s\"}",
		           pairs[i]->count, distinct(pairs[i]), scope);
	}
	out_str("]}\n");
}

void summary_render(const struct summary *s, bool json)
{
	const struct group **codes = sorted(&s->codes);
	const struct group **domains = sorted(&s->domains);
	const struct group **pairs = sorted(&s->pairs);
	if (json)
		summary_json(s, codes, domains, pairs);
	else
		summary_text(s, codes, domains, pairs);
	free(codes);
	free(domains);
	free(pairs);
}

static void free_map(struct map *m)
{
	for (size_t i = 0; i < m->used; i++)
		free(m->groups[i].key);
	free(m->groups);
	free(m->index);
}

void summary_free(struct summary *s)
{
	free_map(&s->codes);
	free_map(&s->domains);
	free_map(&s->pairs);
	free(s);
}
