/*
 * Writing the table: records sorted by key, strings interned once in one
 * pool (offsets, not pointers, so the table needs no relocations), list
 * items in one array.  Output goes to a temporary file renamed into place
 * only when everything was written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentable.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct {
	char *s;
	size_t n, cap;
	uint32_t *slots; /* hash of interned offsets; 0 is empty */
	size_t nslots, used;
} pool;

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void rehash(void)
{
	uint32_t *old = pool.slots;
	size_t n = pool.nslots;
	pool.nslots = n ? 2 * n : 4096;
	pool.slots = calloc(pool.nslots, sizeof *pool.slots);
	if (!pool.slots) {
		perror("gentable");
		exit(2);
	}
	for (size_t i = 0; i < n; i++) {
		size_t j;
		if (!old[i])
			continue;
		j = hash(pool.s + old[i]) & (pool.nslots - 1);
		while (pool.slots[j])
			j = (j + 1) & (pool.nslots - 1);
		pool.slots[j] = old[i];
	}
	free(old);
}

/* Offset of s in the pool, adding it if new.  Offset 0 is "". */
static uint32_t intern(const char *s)
{
	size_t len = strlen(s), j;
	if (len == 0)
		return 0;
	if (2 * (pool.used + 1) > pool.nslots)
		rehash();
	j = hash(s) & (pool.nslots - 1);
	for (; pool.slots[j]; j = (j + 1) & (pool.nslots - 1))
		if (strcmp(pool.s + pool.slots[j], s) == 0)
			return pool.slots[j];
	if (pool.n + len + 1 > pool.cap) {
		pool.cap = 2 * (pool.n + len + 1);
		pool.s = xrealloc(pool.s, pool.cap);
	}
	memcpy(pool.s + pool.n, s, len + 1);
	pool.slots[j] = (uint32_t)pool.n;
	pool.used++;
	pool.n += len + 1;
	return pool.slots[j];
}

/*
 * The generator's own entries and items: pool offsets whole (the pool is
 * over 64 KB before the prose is packed), written narrow once packing
 * has moved every string (see table.h).  Their members are
 * smtpcode_entry's and table_item's, so the code below reads alike.
 */
struct entry {
	uint32_t key;
	uint16_t provider;
	uint32_t text[SMTPCODE_NTEXTS];
	uint16_t first[SMTPCODE_NLISTS];
	uint8_t count[SMTPCODE_NLISTS];
	uint8_t value[SMTPCODE_NFIELDS];
	uint8_t reason_from_words;
};

struct item {
	uint32_t key;
	uint32_t text;
};

static int by_key(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->provider != y->provider)
		return x->provider < y->provider ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static struct item *items;
static size_t nitems, capitems;

static void add_item(const char *key, const char *text)
{
	if (nitems == capitems) {
		capitems = capitems ? 2 * capitems : 1024;
		items = xrealloc(items, capitems * sizeof *items);
	}
	items[nitems].key = intern(key);
	items[nitems].text = intern(text);
	nitems++;
}

/* The runs of items the lists hold, by a hash of their items: a list
 * the same as one before (a class's entry shows its X.S.D record's
 * causes and fixes, as do the other classes') shares its items, which
 * took one item in five. */
static struct run {
	uint64_t hash;
	size_t first, n;
} *runs;
static size_t nruns;

/* The items from start to nitems as a run: where an equal run starts,
 * the new items taken back, or start, the run noted. */
static size_t share_run(size_t start)
{
	uint64_t h = 14695981039346656037u; /* FNV-1a */
	size_t n = nitems - start;
	if (!n)
		return start;
	for (size_t i = start; i < nitems; i++)
		h = ((h ^ items[i].key) * 1099511628211u ^ items[i].text) *
		    1099511628211u;
	for (size_t k = 0; k < nruns; k++)
		if (runs[k].hash == h && runs[k].n == n &&
		    memcmp(&items[runs[k].first], &items[start],
		           n * sizeof *items) == 0) {
			nitems = start;
			return runs[k].first;
		}
	runs = xrealloc(runs, (nruns + 1) * sizeof *runs);
	runs[nruns++] = (struct run){h, start, n};
	return start;
}

/* Lists whose items are plain text, without a key. */
static int plain_list(int list)
{
	return list == SMTPCODE_CAUSES || list == SMTPCODE_SOURCES ||
	       list == SMTPCODE_NOTES || list == SMTPCODE_MATCHES ||
	       list == SMTPCODE_AVOID || list == SMTPCODE_FAQ;
}

/* Items of list 'list' of record 'from', as r's entry shows them. */
static void emit_list(const struct record *r, const struct record *from,
                      int list, struct entry *e)
{
	size_t start = nitems;
	for (size_t i = 0; i < from->nfields; i++) {
		const struct field *f = &from->fields[i];
		size_t keylen;
		char key[64] = "";
		const char *text;
		if (f->def->type != LIST || f->def->index != list)
			continue;
		if (plain_list(list)) {
			add_item("", f->value);
			continue;
		}
		text = split_item(f->value, &keylen);
		if (list == SMTPCODE_BASIC && !keylen) {
			keylen = strlen(f->value);
			text = "";
		}
		snprintf(key, sizeof key, "%.*s", (int)keylen, f->value);
		/* A class's entry is sent with the X.S.D basic codes of its
		 * class. */
		if (list == SMTPCODE_BASIC && from->kind == R_TOPIC &&
		    r->code.cls && key[0] - '0' != r->code.cls)
			continue;
		add_item(key, text);
	}
	if (nitems - start > UINT8_MAX || start > UINT16_MAX) {
		fail(r->file, r->line, "%s: too many items", r->codetext);
		return;
	}
	e->count[list] = (uint8_t)(nitems - start);
	if (list != SMTPCODE_MATCHES) /* (one item per phrase: table.h) */
		start = share_run(start);
	e->first[list] = (uint16_t)start;
}

/* The lists of r's entry: its match list alone (matches), or all others. */
static void make_lists(const struct record *r, struct entry *e,
                       int matches)
{
	for (size_t k = 0; k < nkeydefs; k++) {
		const struct keydef *d = &keydefs[k];
		const struct record *owner;
		if (d->type == LIST && d->index != NOT_WRITTEN &&
		    (d->index == SMTPCODE_MATCHES) == matches &&
		    (owner = list_owner(r, d->name)))
			emit_list(r, owner, d->index, e);
	}
}

/* Fills r's entry *e, whose match list is already made. */
static void make_entry(const struct record *r, struct entry *e)
{
	int verdict = r->kind == R_BASIC || r->kind == R_VARIANT ||
	              r->kind == R_PROVIDER;

	e->key = r->key;
	e->provider = (uint8_t)r->provider;
	e->text[SMTPCODE_CODE] = intern(r->codetext);
	for (size_t k = 0; k < nkeydefs; k++) {
		const struct keydef *d = &keydefs[k];
		const struct field *f = lookup(r, d->name);
		if (d->type == SCALAR_TEXT && d->index > SMTPCODE_CODE && f)
			e->text[d->index] = intern(f->value);
		else if (d->type == SCALAR_VALUE)
			e->value[d->index] = (uint8_t)(f ? value_of(r, d->name) : 0);
	}
	make_lists(r, e, 0);
	/* A record that names its own reason says it, whatever the words,
	 * unless it says itself that they decide. */
	e->reason_from_words = lookup(r, "reason-from") != NULL &&
	                       (get(r, "reason-from") || !get(r, "reason"));
	if (verdict && !e->value[SMTPCODE_DIFFERS])
		e->value[SMTPCODE_DIFFERS] =
		    (uint8_t)smtpcode_value_parse(SMTPCODE_DIFFERS, "no", 2);
	/* Every permanent failure ends delivery; the rest only when the data
	 * says so (an expiry). */
	if (verdict && !e->value[SMTPCODE_FINAL])
		e->value[SMTPCODE_FINAL] = (uint8_t)(e->value[SMTPCODE_SEVERITY] ==
		                                     SMTPCODE_PERMANENT ? 2 : 1);
}

/* Whether record i is a member of group g, an entry of provider po (0:
 * a standard code). */
static int member_of(const struct entry *entries, size_t i,
                     size_t g, unsigned po)
{
	return records[i].kind != R_GROUP_DEF && entries[i].provider == po &&
	       entries[i].text[SMTPCODE_GROUP] == entries[g].text[SMTPCODE_GROUP];
}

/* Whether another member of group g is an entry of record i's provider
 * for its code ("exchange 4.3.1" twice): then the members carry their
 * names, which tell them apart. */
static int twin_in(const struct entry *entries, size_t i, size_t g)
{
	for (size_t k = 0; k < nrecords; k++)
		if (k != i && member_of(entries, k, g, entries[i].provider) &&
		    entries[i].provider && records[k].key == records[i].key)
			return 1;
	return 0;
}

/* A group lists its members, standard codes first, then providers'
 * entries as "gmail 4.2.2" (with the entry's name when the provider has
 * two for the code), by the providers' priority (the big mailbox
 * providers first, as a reader meets them most): in one place, so showing
 * them touches a few pages rather than every member's entry. */
static void list_members(struct entry *entries)
{
	unsigned last = 0;
	for (size_t i = 0; i < nrecords; i++)
		if (entries[i].provider > last)
			last = entries[i].provider;
	for (size_t g = 0; g < nrecords; g++) {
		size_t start = nitems;
		if (records[g].kind != R_GROUP_DEF)
			continue;
		for (unsigned po = 0; po <= last; po++) /* 0: standard codes */
			for (size_t i = 0; i < nrecords; i++) {
				char label[64];
				if (!member_of(entries, i, g, po))
					continue;
				snprintf(label, sizeof label, "%s%s%s",
				         po ? get(&records[i], "provider")->value : "",
				         po ? " " : "", records[i].codetext);
				add_item(label, twin_in(entries, i, g) ?
				                    get(&records[i], "name")->value : "");
			}
		if (nitems - start > UINT8_MAX) {
			fail(records[g].file, records[g].line, "%s: more than %d "
			     "members", records[g].codetext, UINT8_MAX);
			return;
		}
		entries[g].first[SMTPCODE_RELATED] = (uint16_t)start;
		entries[g].count[SMTPCODE_RELATED] = (uint8_t)(nitems - start);
	}
}

/* Entry e, whose lists but the match list start at their index in
 * table_list_items, nphrases past their index in items. */
static void write_entry(FILE *out, const struct entry *e, size_t nphrases,
                        const char *comment)
{
	fprintf(out, "\t{0x%08lx, %u, {", (unsigned long)e->key, e->provider);
	for (int k = 0; k < SMTPCODE_NTEXTS; k++)
		fprintf(out, "%s%lu", k ? ", " : "", (unsigned long)e->text[k]);
	fputs("}, {", out);
	for (int k = 0; k < SMTPCODE_NLISTS; k++) {
		size_t first = e->first[k];
		if (k != SMTPCODE_MATCHES) /* (an empty list's: none) */
			first = e->count[k] ? first - nphrases : 0;
		fprintf(out, "%s%zu", k ? ", " : "", first);
	}
	fputs("}, {", out);
	for (int k = 0; k < SMTPCODE_NLISTS; k++)
		fprintf(out, "%s%u", k ? ", " : "", e->count[k]);
	fputs("}, {", out);
	for (int k = 0; k < SMTPCODE_NFIELDS; k++)
		fprintf(out, "%s%u", k ? ", " : "", e->value[k]);
	fprintf(out, "}, %u}, /* %s */\n", e->reason_from_words, comment);
}

/*
 * How common a byte is in replies, roughly (0 rarest): a phrase is looked
 * for by its rarest byte, so the search stops at few false starts.
 * Letters go by their frequency in English text; spaces and the
 * punctuation of addresses and host names are the most common.
 */
static int commonness(unsigned char c)
{
	static const char letters[] = "zqjxkvbpygfwmucldrhsnioate";
	const char *at;
	if (c == ' ')
		return 40;
	if (c >= 'a' && c <= 'z' && (at = strchr(letters, c)) != NULL)
		return 10 + (int)(at - letters);
	if (c >= '0' && c <= '9')
		return 30;
	if (c == '.' || c == '-' || c == ':' || c == '@' || c == '<' ||
	    c == '>' || c == '/' || c == '=')
		return 35;
	return c >= 0x80 ? 0 : 5;
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

/* What the library needs of each match-list item (phrase or marker):
 * the first nphrases items, before any other list's, in the order of the
 * entries.  Interns the folded copies, so it runs before the pool is
 * written. */
static struct table_phrase *make_phrases(size_t nphrases,
                                         const struct entry *entries)
{
	struct table_phrase *ph = xrealloc(NULL, (nphrases + 1) * sizeof *ph);
	for (size_t e = 0; e < nrecords; e++)
		for (size_t k = 0; k < entries[e].count[SMTPCODE_MATCHES]; k++)
			ph[entries[e].first[SMTPCODE_MATCHES] + k].entry = (uint16_t)e;
	for (size_t i = 0; i < nphrases; i++) {
		const char *t = pool.s + items[i].text;
		char folded[UINT8_MAX + 1];
		size_t len = strlen(t), rare = 0;
		if (len < 3 || len > UINT8_MAX) { /* check.c refuses these */
			fprintf(stderr, "gentable: phrase '%s' is not 3 to %u "
			        "bytes long\n", t, (unsigned)UINT8_MAX);
			errors++;
			len = 0;
		}
		for (size_t k = 0; k < len; k++) {
			folded[k] = (char)lower((unsigned char)t[k]);
			if (commonness((unsigned char)folded[k]) <
			    commonness((unsigned char)folded[rare]))
				rare = k;
		}
		folded[len] = '\0';
		ph[i].folded = intern(folded);
		ph[i].len = (uint8_t)len;
		ph[i].rare = (uint8_t)rare;
	}
	return ph;
}

/* What goes before item i of an array written per lines of n items. */
static const char *item_sep(size_t i, size_t n)
{
	return i % n ? ", " : i ? ",\n\t" : "\n\t";
}

static void write_bytes(FILE *out, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%u", item_sep(i, 32), b[i]);
}

static void write_shorts(FILE *out, const uint16_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%u", item_sep(i, 16), v[i]);
}

/* Words in the order of their hash, then of their phrases. */
static int by_word(const void *a, const void *b)
{
	const struct table_word *x = a, *y = b;
	uint32_t hx = TABLE_WORD(x->trigram), hy = TABLE_WORD(y->trigram);
	if (hx != hy)
		return hx < hy ? -1 : 1;
	return x->phrase < y->phrase ? -1 : x->phrase > y->phrase;
}

/* What smtpcode_reply_ignores() looks up (see table.h), built before the
 * table is written, which it may refuse. */
static struct {
	uint8_t class[256]; /* of each byte, folded */
	unsigned nclasses;
	uint64_t pairs[TABLE_CLASSES];  /* table_edge_pairs */
	uint64_t starts[TABLE_CLASSES]; /* table_word_starts */
	uint64_t skips[TABLE_CLASSES];  /* table_word_skips */
	uint16_t first[(1 << TABLE_WORD_BITS) + 1];
	struct table_word *w;
	size_t n;
} spans;

/* The class of byte c (folded), given one if it has none yet: bytes past
 * the first TABLE_SHARED - 1 share TABLE_SHARED, whose rows are made
 * full (make_spans()), so that they only make the library look closer. */
static unsigned class_of(unsigned char c)
{
	if (!spans.class[c])
		spans.class[c] = (uint8_t)(spans.nclasses < TABLE_SHARED
		                               ? spans.nclasses++ : TABLE_SHARED);
	return spans.class[c];
}

/* Phrase t[0..len)'s bytes given classes, and its pairs noted. */
static void add_pairs(const unsigned char *t, size_t len)
{
	for (size_t k = 1; k < len; k++)
		spans.pairs[class_of(t[k - 1])] |= (uint64_t)1 << class_of(t[k]);
}

static void make_spans(const struct table_phrase *ph, size_t nphrases)
{
	struct table_word *w = xrealloc(NULL, (nphrases + 1) * sizeof *w);
	size_t n = 0;
	unsigned space;

	memset(&spans, 0, sizeof spans);
	spans.nclasses = 1; /* 0: in no marker or phrase */
	space = class_of(' ');
	spans.starts[space] = spans.skips[space] = ~(uint64_t)0;
	spans.pairs[TABLE_SHARED] = spans.starts[TABLE_SHARED] =
	    spans.skips[TABLE_SHARED] = ~(uint64_t)0;
	for (size_t i = 0; i < nphrases; i++) {
		const unsigned char *t = (const unsigned char *)pool.s + ph[i].folded;
		const struct record *r = &records[ph[i].entry];
		bool again = false;
		if (ph[i].len < 3)
			continue; /* refused by make_phrases() */
		add_pairs(t, ph[i].len);
		if (memchr(t, ' ', ph[i].len))
			continue;
		spans.starts[spans.class[t[0]]] |= (uint64_t)1 << spans.class[t[1]];
		spans.skips[spans.class[t[0]]] |= (uint64_t)1 << spans.class[t[2]];
		/* the same words are interned once: one is enough */
		for (size_t k = 0; k < n && !again; k++)
			again = ph[w[k].phrase].folded == ph[i].folded;
		if (again)
			continue;
		if (n == TABLE_MAX_WORDS) {
			fail(r->file, r->line, "more than %d markers and phrases "
			     "without a space", TABLE_MAX_WORDS);
			break;
		}
		w[n].trigram = t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16;
		w[n].phrase = (uint16_t)i;
		n++;
	}
	if (n)
		qsort(w, n, sizeof *w, by_word);
	/* first[h]: the first word of hash h or above. */
	for (size_t h = 0, k = 0; h < COUNT(spans.first); h++) {
		while (k < n && TABLE_WORD(w[k].trigram) < h)
			k++;
		spans.first[h] = (uint16_t)k;
	}
	spans.w = w;
	spans.n = n;
}

static void write_rows(FILE *out, const char *name, const uint64_t *rows)
{
	fprintf(out, "\nconst uint64_t %s[TABLE_CLASSES] = {", name);
	for (size_t i = 0; i < TABLE_CLASSES; i++)
		fprintf(out, "%s0x%016llx", item_sep(i, 4),
		        (unsigned long long)rows[i]);
	fputs("\n};\n", out);
}

static void write_spans(FILE *out)
{
	uint8_t class[256];

	for (size_t c = 0; c < 256; c++) /* ASCII upper case as lower */
		class[c] = spans.class[lower((unsigned char)c)];
	fputs("\nconst uint8_t table_class[256] = {", out);
	write_bytes(out, class, sizeof class);
	fputs("\n};\n", out);
	write_rows(out, "table_edge_pairs", spans.pairs);
	write_rows(out, "table_word_starts", spans.starts);
	write_rows(out, "table_word_skips", spans.skips);
	fputs("\nconst uint16_t table_word_first[] = {", out);
	write_shorts(out, spans.first, COUNT(spans.first));
	fputs("\n};\n\nconst struct table_word table_words[] = {\n", out);
	for (size_t i = 0; i < spans.n; i++)
		fprintf(out, "\t{0x%06lx, %u},\n", (unsigned long)spans.w[i].trigram,
		        (unsigned)spans.w[i].phrase);
	fputs("\t{0, 0}\n};\n", out);
}

static void write_phrases(FILE *out, const struct table_phrase *ph,
                          size_t nphrases)
{
	fputs("\nconst struct table_phrase table_phrases[] = {\n", out);
	for (size_t i = 0; i < nphrases; i++)
		fprintf(out, "\t{%lu, %u, %u, %u},\n", (unsigned long)ph[i].folded,
		        ph[i].len, ph[i].rare, ph[i].entry);
	fprintf(out, "\t{0, 0, 0, 0}\n};\n\nconst size_t table_nphrases = %zu;\n",
	        nphrases);
}

struct marker {
	uint32_t hash; /* TABLE_TRIGRAM of its first three bytes */
	size_t order;  /* position in the data */
	struct table_marker m;
};

static int by_trigram(const void *a, const void *b)
{
	const struct marker *x = a, *y = b;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->m.provider != y->m.provider)
		return x->m.provider < y->m.provider ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The index of the providers' markers (see table.h), built before the
 * table is written, which it may refuse. */
static struct {
	uint8_t pairs[8192 / 4]; /* see TABLE_PAIR_BITS */
	uint16_t trigrams[(1 << TABLE_TRIGRAM_BITS) + 1];
	struct marker *m;
	size_t n, first; /* first: index of the first provider */
} markers;

/* Sets bits (1, 2) for pair p in markers.pairs. */
static void pair_bits(unsigned p, unsigned bits)
{
	markers.pairs[p >> 2] |= (uint8_t)(bits << 2 * (p & 3));
}

static void make_markers(const struct entry *entries)
{
	struct marker *m = NULL;
	size_t n = 0, first = nrecords;

	memset(&markers, 0, sizeof markers);
	for (size_t i = 0; i < nrecords; i++) {
		const struct entry *e = &entries[i];
		if (records[i].kind != R_PROVIDER_DEF)
			continue;
		if (first == nrecords)
			first = i;
		for (unsigned k = 0; k < e->count[SMTPCODE_MATCHES]; k++) {
			const struct item *it = &items[e->first[SMTPCODE_MATCHES] + k];
			const unsigned char *t = (const unsigned char *)pool.s + it->text;
			size_t len = strlen((const char *)t);
			/* check.c refuses these; the scan relies on it */
			if (len < 3 || len > UINT8_MAX) {
				fail(records[i].file, records[i].line, "marker '%s' "
				     "is not 3 to %d bytes long", (const char *)t,
				     UINT8_MAX);
				continue;
			}
			m = xrealloc(m, (n + 1) * sizeof *m);
			m[n].hash = TABLE_TRIGRAM(t[0], t[1], t[2]);
			m[n].order = n;
			m[n].m.provider = (uint16_t)(e->key & 0xffff);
			m[n].m.len = (uint8_t)len;
			m[n].m.text = it->text;
			pair_bits(TABLE_PAIR(t[0], t[1]), 1);
			pair_bits(TABLE_PAIR(t[1], t[2]), 2);
			n++;
		}
	}
	if (n > TABLE_MAX_MARKERS)
		fail(records[first].file, records[first].line, "more than %d "
		     "markers", TABLE_MAX_MARKERS);
	if (n)
		qsort(m, n, sizeof *m, by_trigram);
	/* trigrams[h]: the first marker of hash h or above. */
	for (size_t h = 0, k = 0; h < COUNT(markers.trigrams); h++) {
		while (k < n && m[k].hash < h)
			k++;
		markers.trigrams[h] = (uint16_t)k;
	}
	markers.m = m;
	markers.n = n;
	markers.first = first;
}

/* The end of the run of entries from i with its key and provider. */
static size_t group_end(const struct entry *entries, size_t i)
{
	size_t j = i + 1;
	while (j < nrecords && entries[j].key == entries[i].key &&
	       entries[j].provider == entries[i].provider)
		j++;
	return j;
}

/* Each provider's entries by code: see table.h. */
static void write_groups(FILE *out, const struct entry *entries)
{
	size_t n = 0, nproviders = 0, *starts;
	for (size_t i = 0; i < nrecords; i++)
		nproviders += records[i].kind == R_PROVIDER_DEF;
	starts = xrealloc(NULL, (nproviders + 1) * sizeof *starts);
	fputs("\nconst struct table_group table_groups[] = {\n", out);
	for (unsigned p = 1; p <= nproviders; p++) {
		starts[p - 1] = n;
		for (size_t i = 0, end; i < nrecords; i = end) {
			end = group_end(entries, i);
			if (entries[i].provider != p)
				continue;
			fprintf(out, "\t{0x%08lx, %zu, %zu}, /* %s */\n",
			        (unsigned long)entries[i].key, i, end - i,
			        records[i].codetext);
			n++;
		}
	}
	starts[nproviders] = n;
	fputs("\t{0, 0, 0}\n};\n\nconst uint16_t table_provider_groups[] = {",
	      out);
	for (size_t p = 0; p <= nproviders; p++)
		fprintf(out, "%s%zu", p ? ", " : "", starts[p]);
	fputs("};\n", out);
	free(starts);
}

/* The index of keys by hash: see table.h. */
static void write_slots(FILE *out, const struct entry *entries)
{
	unsigned bits = 6;
	size_t nkeys = 0, nslots;
	uint16_t *slots;

	for (size_t i = 0; i < nrecords; i++)
		nkeys += !i || entries[i].key != entries[i - 1].key;
	while (((size_t)1 << bits) < 2 * nkeys)
		bits++;
	nslots = (size_t)1 << bits;
	slots = xrealloc(NULL, nslots * sizeof *slots);
	memset(slots, 0, nslots * sizeof *slots);
	for (size_t i = 0; i < nrecords; i++) {
		uint32_t h;
		if (i && entries[i].key == entries[i - 1].key)
			continue;
		for (h = TABLE_SLOT(entries[i].key, 32 - bits); slots[h];
		     h = (h + 1) & (uint32_t)(nslots - 1))
			;
		slots[h] = (uint16_t)(i + 1);
	}
	fprintf(out, "\nconst unsigned table_slot_shift = %u;\n"
	        "const uint16_t table_slots[] = {", 32 - bits);
	for (size_t i = 0; i < nslots; i++)
		fprintf(out, "%s%u", item_sep(i, 16), (unsigned)slots[i]);
	fputs("\n};\n", out);
	free(slots);
}

static void write_markers(FILE *out, const struct entry *entries)
{
	size_t n = 0;
	fputs("\nconst uint8_t table_pairs[] = {", out);
	write_bytes(out, markers.pairs, sizeof markers.pairs);
	fputs("\n};\n\nconst uint16_t table_trigrams[] = {", out);
	write_shorts(out, markers.trigrams, COUNT(markers.trigrams));
	fputs("\n};\n\nconst struct table_marker table_markers[] = {\n", out);
	for (size_t i = 0; i < markers.n; i++)
		fprintf(out, "\t{%u, %u, %lu},\n", markers.m[i].m.provider,
		        markers.m[i].m.len, (unsigned long)markers.m[i].m.text);
	fprintf(out, "\t{0, 0, 0}\n};\n\nconst size_t table_nmarkers = %zu;\n"
	        "const size_t table_provider_first = %zu;\n", markers.n,
	        markers.first);
	free(markers.m);
	write_groups(out, entries);
	/* The few entries that stand for a range of codes. */
	fputs("\nconst uint32_t table_ranges[] = {", out);
	for (size_t i = 0; i < nrecords; i++)
		if (entries[i].text[SMTPCODE_THROUGH])
			fprintf(out, "%s%zu", n++ ? ", " : "", i);
	fprintf(out, "%s};\nconst size_t table_nranges = %zu;\n", n ? "" : "0",
	        n);
}

/* Pool offset off's new place (prose_where()) as entries and items hold
 * it, in 16 bits: TABLE_PROSE | a packed string's number, or a plain
 * string's offset, under TABLE_PROSE as prose_pack() put them first.
 * One error for all the strings past them (*told). */
static uint32_t narrow(uint32_t off, int *told)
{
	uint32_t w = prose_where(off), n = w & ~PROSE_PACKED;
	if (n >= TABLE_PROSE && !(*told)++) {
		fprintf(stderr, "gentable: %s strings past the %lu that 16 bits "
		        "reach (table.h)\n", w & PROSE_PACKED ? "packed" : "plain",
		        (unsigned long)TABLE_PROSE);
		errors++;
	}
	return w & PROSE_PACKED ? TABLE_PROSE | n : n;
}

/* The pool split into plain strings and packed prose (prose.c), and
 * every offset moved to its new place.  What the library reads in place
 * stays plain: codes (lookups, lists), what decides an unknown verdict
 * (records' warnings), what matching compares (the phrases, folded and as
 * written, and the markers) and the items' keys.  Names are prose like
 * the rest: a renderer asks for a few, and kept plain they took more
 * than the 16 bits of the entries could reach. */
static void pack(struct entry *entries, struct table_phrase *ph,
                 size_t nphrases)
{
	unsigned char *hot = xrealloc(NULL, pool.n);
	int told = 0;
	memset(hot, 0, pool.n);
	for (size_t i = 0; i < nrecords; i++) {
		hot[entries[i].text[SMTPCODE_CODE]] = 1;
		hot[entries[i].text[SMTPCODE_THROUGH]] = 1;
		/* every record's warnings name it (--mail, --extract) */
		hot[entries[i].text[SMTPCODE_DECIDES]] = 1;
	}
	for (size_t i = 0; i < nitems; i++) {
		hot[items[i].key] = 1;
		if (i < nphrases) /* the match lists, markers among them */
			hot[items[i].text] = 1;
	}
	for (size_t i = 0; i < nphrases; i++)
		hot[ph[i].folded] = 1;
	/* What entries and the lists' items name is kept in 16 bits
	 * (table.h): those that stay plain go first in the pool. */
	for (size_t i = 0; i < nrecords; i++)
		for (int k = 0; k < SMTPCODE_NTEXTS; k++)
			hot[entries[i].text[k]] |= PROSE_NARROW;
	for (size_t i = nphrases; i < nitems; i++) {
		hot[items[i].key] |= PROSE_NARROW;
		hot[items[i].text] |= PROSE_NARROW;
	}
	prose_pack(pool.s, pool.n, hot);
	free(hot);
	for (size_t i = 0; i < nrecords; i++)
		for (int k = 0; k < SMTPCODE_NTEXTS; k++)
			entries[i].text[k] = narrow(entries[i].text[k], &told);
	for (size_t i = 0; i < nitems; i++) {
		items[i].key = i < nphrases ? prose_where(items[i].key)
		                            : narrow(items[i].key, &told);
		items[i].text = i < nphrases ? prose_where(items[i].text)
		                             : narrow(items[i].text, &told);
	}
	for (size_t i = 0; i < nphrases; i++)
		ph[i].folded = prose_where(ph[i].folded);
	for (size_t i = 0; i < markers.n; i++)
		markers.m[i].m.text = prose_where(markers.m[i].m.text);
}

int write_table(const char *path, const char *date)
{
	char tmp[4096];
	struct entry *entries;
	struct table_phrase *phrases;
	size_t nphrases;
	FILE *out;

	/* Corpora serve the checks only: the table has no entry for them;
	 * layouts and phrase lists are written apart (layouts.c), and so are
	 * dialects (dialects.c), whose fields keep_dialects() takes now. */
	keep_dialects();
	keep_wordings();
	keep_judges();
	keep_synonyms();
	for (size_t i = 0, n = nrecords; i < n; i++)
		if (records[i].kind == R_LAYOUT || records[i].kind == R_PHRASES) {
			layout_keep(&records[i]);
			nrecords--;
		} else if (records[i].kind == R_DIALECT || records[i].kind == R_WORDS ||
		           records[i].kind == R_SYNONYMS) {
			nrecords--;
		} else if (records[i].kind == R_JUDGE) {
			free_fields(&records[i]); /* keep_judges() took its steps */
			nrecords--;
		} else if (records[i].kind == R_CORPUS) {
			free_fields(&records[i]);
			nrecords--;
		} else {
			records[i - (n - nrecords)] = records[i];
		}
	qsort(records, nrecords, sizeof *records, by_key);
	/* Sorting moved the records: link each to its topic anew. */
	for (size_t i = 0; i < nrecords; i++) {
		struct record *r = &records[i];
		r->topic = NULL;
		for (size_t j = 0; r->kind == R_VARIANT && j < nrecords; j++)
			if (records[j].kind == R_TOPIC &&
			    records[j].key == KEY_ENHANCED(0, r->code.subject,
			                                   r->code.detail))
				r->topic = &records[j];
		for (size_t j = 0; r->kind == R_PROVIDER && j < nrecords; j++)
			if (records[j].key == r->key && records[j].kind != R_PROVIDER)
				r->topic = &records[j];
	}
	pool.s = xrealloc(NULL, 1);
	pool.s[0] = '\0';
	pool.n = pool.cap = 1;
	entries = xrealloc(NULL, (nrecords + 1) * sizeof *entries);
	memset(entries, 0, (nrecords + 1) * sizeof *entries);
	/* Match lists first, in the order of the entries, so that
	 * table_phrases is indexed like table_items and a run of entries
	 * has a run of phrases (see table.h). */
	for (size_t i = 0; i < nrecords; i++) {
		entries[i].first[SMTPCODE_MATCHES] = (uint16_t)nitems;
		make_lists(&records[i], &entries[i], 1);
	}
	nphrases = nitems;
	for (size_t i = 0; i < nrecords; i++)
		make_entry(&records[i], &entries[i]);
	list_members(entries);
	phrases = make_phrases(nphrases, entries);
	make_markers(entries);
	make_spans(phrases, nphrases);
	pack(entries, phrases, nphrases);
	if (nrecords > UINT16_MAX) /* table_groups holds 16-bit indices */
		fail(records[UINT16_MAX].file, records[UINT16_MAX].line,
		     "more than %d entries", UINT16_MAX);
	if (errors)
		return -1;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	out = fopen(tmp, "w");
	if (!out) {
		fprintf(stderr, "gentable: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	fputs("/* Generated by tools/gentable from data/; do not edit. */\n"
	      "#include \"table.h\"\n#include \"textbounce.h\"\n\n", out);
	fprintf(out, "const char table_date[] = \"%s\";\n\n", date);
	prose_write(out);
	/* The match lists' items (without a key), then the other lists'. */
	fputs("\nconst struct table_item table_items[] = {\n", out);
	for (size_t i = 0; i < nphrases; i++)
		fprintf(out, "\t{%lu},\n", (unsigned long)items[i].text);
	fputs("\t{0}\n};\n\nconst struct table_list_item table_list_items[] = {\n",
	      out);
	for (size_t i = nphrases; i < nitems; i++)
		fprintf(out, "\t{%lu, %lu},\n", (unsigned long)items[i].key,
		        (unsigned long)items[i].text);
	fputs("\t{0, 0}\n};\n\nconst struct smtpcode_entry table_entries[] = {\n",
	      out);
	for (size_t i = 0; i < nrecords; i++)
		write_entry(out, &entries[i], nphrases, records[i].codetext);
	fprintf(out, "};\n\nconst size_t table_size = %zu;\n", nrecords);
	/* The keys again, packed, for binary search: a lookup touches a few
	 * pages of them instead of a dozen scattered pages of entries. */
	fputs("\nconst uint32_t table_keys[] = {", out);
	for (size_t i = 0; i < nrecords; i++)
		fprintf(out, "%s0x%08lx", item_sep(i, 8),
		        (unsigned long)entries[i].key);
	fputs("\n};\n", out);
	write_slots(out, entries);
	write_phrases(out, phrases, nphrases);
	write_spans(out);
	write_markers(out, entries);
	write_layouts(out);
	write_dialects(out);
	write_wordings(out);
	write_judges(out);
	write_synonyms(out);
	free(phrases);
	free(runs);
	runs = NULL;
	nruns = 0;
	free(spans.w);
	free(entries);
	if (ferror(out) | fclose(out)) {
		fprintf(stderr, "gentable: %s: write error\n", tmp);
		remove(tmp);
		return -1;
	}
	if (rename(tmp, path) != 0) {
		fprintf(stderr, "gentable: %s: %s\n", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}
