/*
 * --summary: counts by code, by recipient domain, and by code at each
 * domain, with distinct recipients, so a wave of 452 4.3.1 against many
 * recipients at one domain (the system there is out of storage) stands
 * apart from one full mailbox.  Memory grows with distinct codes and
 * domains only: recipients are counted with a fixed-size sketch (linear
 * counting), exact for the first hundreds and close beyond.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "render.h"
#include "summary.h"

#define SKETCH_BITS 4096

struct group {
	char *key;       /* "4.3.1", "example.com", "4.3.1 example.com" */
	unsigned long count;
	unsigned char sketch[SKETCH_BITS / 8];
};

struct map {
	struct group *slots;
	size_t nslots, used;
};

struct summary {
	unsigned long lines, with_code;
	struct map codes, domains, pairs;
};

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static int grow(struct map *m)
{
	struct map bigger = {NULL, m->nslots ? 2 * m->nslots : 64, 0};
	bigger.slots = calloc(bigger.nslots, sizeof *bigger.slots);
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < m->nslots; i++) {
		struct group *g = &m->slots[i];
		size_t j;
		if (!g->key)
			continue;
		j = hash(g->key, strlen(g->key)) & (bigger.nslots - 1);
		while (bigger.slots[j].key)
			j = (j + 1) & (bigger.nslots - 1);
		bigger.slots[j] = *g;
		bigger.used++;
	}
	free(m->slots);
	*m = bigger;
	return 0;
}

/* The group of key[0..n), added if new; NULL when memory runs out. */
static struct group *find(struct map *m, const char *key, size_t n)
{
	size_t j;
	if (2 * (m->used + 1) > m->nslots && grow(m) != 0)
		return NULL;
	j = hash(key, n) & (m->nslots - 1);
	for (; m->slots[j].key; j = (j + 1) & (m->nslots - 1))
		if (strncmp(m->slots[j].key, key, n) == 0 && !m->slots[j].key[n])
			return &m->slots[j];
	m->slots[j].key = malloc(n + 1);
	if (!m->slots[j].key)
		return NULL;
	memcpy(m->slots[j].key, key, n);
	m->slots[j].key[n] = '\0';
	m->used++;
	return &m->slots[j];
}

static void count(struct map *m, const char *key, size_t n,
                  struct smtpcode_text recipient)
{
	struct group *g = find(m, key, n);
	uint64_t h;
	if (!g)
		return;
	g->count++;
	if (!recipient.len)
		return;
	h = hash(recipient.s, recipient.len) % SKETCH_BITS;
	g->sketch[h / 8] |= (unsigned char)(1u << (h % 8));
}

/* Distinct recipients seen in a group: linear counting. */
static unsigned long distinct(const struct group *g)
{
	unsigned long zero = 0;
	for (size_t i = 0; i < sizeof g->sketch; i++)
		for (int b = 0; b < 8; b++)
			zero += !(g->sketch[i] >> b & 1);
	if (zero == 0)
		return SKETCH_BITS * 8; /* saturated: at least this many */
	return (unsigned long)lround(-(double)SKETCH_BITS *
	                             log((double)zero / SKETCH_BITS));
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

void summary_add(struct summary *s, const struct smtpcode_query *q,
                 struct smtpcode_text recipient, struct smtpcode_text domain,
                 struct smtpcode_text status)
{
	char code[16], pair[300];
	size_t n, d;
	(void)status;
	s->lines++;
	if (!q || (!q->basic && !q->enhanced))
		return;
	s->with_code++;
	n = smtpcode_format(q, code, sizeof code);
	count(&s->codes, code, n, recipient);
	if (!domain.len)
		return;
	d = lower(pair + n + 1, sizeof pair - n - 1, domain);
	count(&s->domains, pair + n + 1, d, recipient);
	memcpy(pair, code, n);
	pair[n] = ' ';
	count(&s->pairs, pair, n + 1 + d, recipient);
}

static int by_count(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a;
	const struct group *y = *(const struct group *const *)b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* The groups of a map, most frequent first; NULL if none or no memory. */
static const struct group **sorted(const struct map *m)
{
	const struct group **v = malloc((m->used + 1) * sizeof *v);
	size_t n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < m->nslots; i++)
		if (m->slots[i].key)
			v[n++] = &m->slots[i];
	qsort(v, n, sizeof *v, by_count);
	v[n] = NULL;
	return v;
}

static const struct smtpcode_entry *entry_of(const char *code,
                                             struct smtpcode_result *r)
{
	struct smtpcode_query q;
	if (smtpcode_parse(code, strlen(code), &q) != SMTPCODE_OK)
		return NULL;
	smtpcode_resolve(&q, NULL, 0, NULL, r);
	return smtpcode_answer(r);
}

static const char *severity_of(const char *code)
{
	struct smtpcode_result r;
	const struct smtpcode_entry *e = entry_of(code, &r);
	int v = e ? smtpcode_value(e, SMTPCODE_SEVERITY)
	          : r.cls ? smtpcode_value(r.cls, SMTPCODE_SEVERITY) : 0;
	return v ? smtpcode_value_name(SMTPCODE_SEVERITY, v) : "-";
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
	for (size_t i = 0; i < m->nslots; i++)
		free(m->slots[i].key);
	free(m->slots);
}

void summary_free(struct summary *s)
{
	free_map(&s->codes);
	free_map(&s->domains);
	free_map(&s->pairs);
	free(s);
}
