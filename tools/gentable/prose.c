/*
 * The table's prose, packed: meanings, causes, fixes, notes and the other
 * long texts that only the renderers read are nine tenths of the pool,
 * and English prose halves under byte-pair encoding (the most frequent
 * pair of adjacent bytes replaced by a byte no prose uses, again and
 * again), which a dozen lines decode (src/core/prose.c).  Codes,
 * phrases and markers, which lookups and matching read as they are, stay
 * plain.  See table.h for the layout the library reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentable.h"

/* Strings shorter than this stay plain: a few bytes saved would not pay
 * for decoding them. */
#define PROSE_MIN 16
/* Bytes past the expansions and past the room for the decoded prose:
 * decoding copies sixteen bytes at a time (prose.c). */
#define PROSE_SLACK 16
/* A pair that occurs fewer times than this is not worth a rule. */
#define PAIR_MIN 4
/*
 * Before the pairs, whole words: the most frequent and longest words of
 * the prose (a letter run, with the space before it) are each written as
 * two bytes, a prefix byte that no prose uses and an index byte (1 to
 * 255), and kept once in a dictionary.  Byte pairs alone spend their few
 * codes on fragments and leave a long word at four or five bytes; the
 * words took the prose from 52% to 41% of its size (the pairs then work
 * on the rest).  Eight prefixes, 2040 words, gave the most: more words
 * save less than their dictionary costs.
 */
#define WORD_PREFIXES 8
#define WORDS_MAX (WORD_PREFIXES * 255)
#define WORD_MIN 4       /* bytes, its space counted: shorter save nothing */
#define WORD_COUNT_MIN 3 /* times it occurs */

static struct {
	unsigned char *bytes; /* the packed strings, each ended by a 0 */
	size_t n;
	uint32_t *start;      /* each string's offset in bytes */
	size_t nstrings;
	size_t text;          /* the bytes all take decoded, their 0s too */
	uint8_t rules[256][2];
	size_t expanded[256]; /* the length of each byte's expansion; 0 for
	                         a word's prefix */
	int prefix[256];      /* a word's prefix byte: its number + 1 */
	unsigned char prefixes[WORD_PREFIXES];
	size_t nprefixes;
	uint32_t *where; /* by pool offset: its new place (table.h) */
} packed;

/* The dictionary, in index order. */
static struct word {
	const unsigned char *s;
	size_t len;
	size_t count;
	long score;
} *words;
static size_t nwords;

static unsigned char *word_source;

static char *plain;
static size_t nplain;

static int is_letter(unsigned c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* The word at s[i..n) (a letter run, or a space and one), its length; 0
 * when none starts there.  Every string is cut into words the same way
 * when counting and when packing. */
static size_t word_at(const unsigned char *s, size_t i, size_t n)
{
	size_t j = i;
	if (s[i] == ' ' && i + 1 < n && is_letter(s[i + 1]))
		j++;
	else if (!is_letter(s[i]))
		return 0;
	while (j < n && is_letter(s[j]))
		j++;
	return j - i;
}

static int by_text(const void *a, const void *b)
{
	const struct word *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int by_score(const void *a, const void *b)
{
	const struct word *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return by_text(a, b); /* the table depends on the data alone */
}

/* The dictionary: of the words of buf[0..n) (strings ended by 0s), those
 * that save the most bytes, at most max. */
static void choose_words(const unsigned char *buf, size_t n, size_t max)
{
	struct word *all = NULL;
	size_t nall = 0, cap = 0, k = 0;

	for (size_t i = 0; i < n;) {
		size_t len = buf[i] ? word_at(buf, i, n) : 0;
		if (len == 0) {
			i++;
			continue;
		}
		if (len >= WORD_MIN) {
			if (nall == cap) {
				cap = cap ? 2 * cap : 4096;
				all = xrealloc(all, cap * sizeof *all);
			}
			all[nall++] = (struct word){buf + i, len, 1, 0};
		}
		i += len;
	}
	if (nall)
		qsort(all, nall, sizeof *all, by_text);
	for (size_t i = 0; i < nall; i++) { /* counted, one each */
		if (k && by_text(&all[k - 1], &all[i]) == 0) {
			all[k - 1].count++;
			continue;
		}
		all[k++] = all[i];
	}
	for (size_t i = 0; i < k; i++) /* two bytes for each, and once whole */
		all[i].score = (long)(all[i].count * (all[i].len - 3)) -
		               (long)(all[i].len + 3);
	if (k)
		qsort(all, k, sizeof *all, by_score);
	nwords = 0;
	while (nwords < k && nwords < max && all[nwords].score > 0 &&
	       all[nwords].count >= WORD_COUNT_MIN)
		nwords++;
	words = all;
}

/* The dictionary index of s[0..len), or -1. */
static long word_index(const unsigned char *s, size_t len, const size_t *order)
{
	size_t lo = 0, hi = nwords;
	struct word key = {s, len, 0, 0};
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = by_text(&words[order[mid]], &key);
		if (c == 0)
			return (long)order[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static const struct word *sorted_words;
static int by_index_text(const void *a, const void *b)
{
	return by_text(&sorted_words[*(const size_t *)a],
	               &sorted_words[*(const size_t *)b]);
}

/* buf[0..n) as symbols: bytes, and 256 + i for word i of the dictionary;
 * how many, into *out. */
static size_t to_symbols(const unsigned char *buf, size_t n, uint16_t **out)
{
	uint16_t *sym = xrealloc(NULL, (n + 1) * sizeof *sym);
	size_t *order = xrealloc(NULL, (nwords + 1) * sizeof *order), m = 0;

	for (size_t i = 0; i < nwords; i++)
		order[i] = i;
	sorted_words = words;
	if (nwords)
		qsort(order, nwords, sizeof *order, by_index_text);
	for (size_t i = 0; i < n;) {
		size_t len = buf[i] ? word_at(buf, i, n) : 0;
		long w = len >= WORD_MIN ? word_index(buf + i, len, order) : -1;
		if (w >= 0) {
			sym[m++] = (uint16_t)(256 + w);
			i += len;
		} else if (len) {
			for (size_t k = 0; k < len; k++)
				sym[m++] = buf[i + k];
			i += len;
		} else {
			sym[m++] = buf[i++];
		}
	}
	free(order);
	*out = sym;
	return m;
}

/* Replace every pair a b in sym[0..n) by code; the new length. */
static size_t replace(uint16_t *sym, size_t n, unsigned a, unsigned b,
                      unsigned code)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && sym[i] == a && sym[i + 1] == b) {
			sym[o++] = (uint16_t)code;
			i++;
		} else {
			sym[o++] = sym[i];
		}
	}
	return o;
}

/* The rules, learnt on sym[0..n) (the prose, each string ended by a 0),
 * which they rewrite, on bytes that are no word of the dictionary and
 * with codes no prose uses and no word's prefix is; the new length.  Ties
 * go to the lowest pair, so that the table depends on the data alone. */
static size_t learn(uint16_t *sym, size_t n, const int *used)
{
	static uint32_t count[65536];
	size_t *len = packed.expanded;
	for (unsigned code = 1; code < 256; code++) {
		unsigned best = 0;
		if (used[code] || packed.prefix[code])
			continue;
		memset(count, 0, sizeof count);
		for (size_t i = 0; i + 1 < n; i++)
			if (sym[i] && sym[i + 1] && sym[i] < 256 && sym[i + 1] < 256 &&
			    len[sym[i]] + len[sym[i + 1]] < 256)
				count[sym[i] << 8 | sym[i + 1]]++;
		for (unsigned p = 1; p < 65536; p++)
			if (count[p] > count[best])
				best = p;
		if (count[best] < PAIR_MIN)
			break;
		packed.rules[code][0] = (uint8_t)(best >> 8);
		packed.rules[code][1] = (uint8_t)(best & 0xff);
		len[code] = len[best >> 8] + len[best & 0xff];
		n = replace(sym, n, best >> 8, best & 0xff, code);
	}
	return n;
}

/* Code's expansion written at p; the byte after it. */
static unsigned char *expand(unsigned code, unsigned char *p)
{
	if (packed.prefix[code])
		return p;
	if (!packed.rules[code][0]) {
		*p = (unsigned char)code;
		return p + 1;
	}
	return expand(packed.rules[code][1], expand(packed.rules[code][0], p));
}

/* Whether a string of len bytes, hot as prose_pack() is told, is packed. */
static int packs(unsigned hot, size_t len)
{
	return !(hot & 1) && len >= PROSE_MIN;
}

void prose_pack(const char *pool, size_t n, const unsigned char *hot)
{
	unsigned char *buf = xrealloc(NULL, n + 1);
	uint16_t *sym;
	size_t m = 0, nsym;
	int used[256] = {0};

	packed.where = xrealloc(NULL, (n + 1) * sizeof *packed.where);
	plain = xrealloc(NULL, n + 1);
	nplain = 0;
	/* The plain strings entries and items name first ("" among them, at
	 * 0), as they hold their offsets in 16 bits; then the others. */
	for (int narrow = 1; narrow >= 0; narrow--) {
		for (size_t off = 0; off < n; off += strlen(pool + off) + 1) {
			size_t len = strlen(pool + off);
			int first = off == 0 || (hot[off] & PROSE_NARROW);
			if (packs(hot[off], len) || first != narrow)
				continue;
			packed.where[off] = (uint32_t)nplain;
			memcpy(plain + nplain, pool + off, len + 1);
			nplain += len + 1;
		}
	}
	for (size_t off = 0; off < n; off += strlen(pool + off) + 1) {
		size_t len = strlen(pool + off);
		if (packs(hot[off], len)) {
			memcpy(buf + m, pool + off, len + 1);
			m += len + 1;
		}
	}
	for (size_t i = 0; i < m; i++)
		used[buf[i]] = 1;
	for (unsigned c = 0; c < 256; c++)
		packed.expanded[c] = 1;
	/* The prefixes: the highest bytes no prose uses. */
	packed.nprefixes = 0;
	for (unsigned c = 255; c > 0 && packed.nprefixes < WORD_PREFIXES; c--)
		if (!used[c]) {
			packed.prefixes[packed.nprefixes] = (unsigned char)c;
			packed.prefix[c] = (int)++packed.nprefixes;
			packed.expanded[c] = 0;
		}
	choose_words(buf, m, packed.nprefixes * 255);
	nsym = to_symbols(buf, m, &sym);
	nsym = learn(sym, nsym, used);
	word_source = buf; /* the words point into it */
	/* Each packed string, in pool order, known by its number. */
	packed.bytes = xrealloc(NULL, 2 * nsym + 1);
	packed.start = xrealloc(NULL, (nsym + 1) * sizeof *packed.start);
	packed.n = packed.nstrings = packed.text = 0;
	size_t at = 0;
	for (size_t off = 0; off < n; off += strlen(pool + off) + 1) {
		size_t len = strlen(pool + off), k, text = 0;
		if (!packs(hot[off], len))
			continue;
		packed.where[off] = PROSE_PACKED | (uint32_t)packed.nstrings;
		packed.start[packed.nstrings++] = (uint32_t)packed.n;
		for (k = 0; sym[at + k]; k++) {
			unsigned s = sym[at + k];
			if (s < 256) {
				text += packed.expanded[s];
				packed.bytes[packed.n++] = (unsigned char)s;
			} else { /* a word: its prefix, then its index from 1 */
				text += words[s - 256].len;
				packed.bytes[packed.n++] = packed.prefixes[(s - 256) / 255];
				packed.bytes[packed.n++] = (unsigned char)((s - 256) % 255 + 1);
			}
		}
		if (text != len) {
			fprintf(stderr, "gentable: prose at %zu decodes to %zu "
			        "bytes, not %zu\n", off, text, len);
			errors++;
		}
		packed.bytes[packed.n++] = 0;
		packed.text += len + 1;
		at += k + 1;
	}
	if (packed.n >= PROSE_PACKED || packed.text >= UINT32_MAX) {
		fprintf(stderr, "gentable: more than %lu bytes of prose\n",
		        (unsigned long)PROSE_PACKED);
		errors++;
	}
	free(sym);
}

uint32_t prose_where(uint32_t off)
{
	return packed.where[off];
}

/* s[0..n) as C string literals, 0s included, a line each 64 bytes. */
static void write_literal(FILE *out, const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned c = s[i];
		if (i % 64 == 0)
			fputs(i ? "\"\n\t\"" : "\t\"", out);
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '?')
			fputs("\\?", out); /* no trigraphs */
		else if (c < 0x20 || c >= 0x7f) /* three digits: the escape
		                                  takes no digit after it */
			fprintf(out, "\\%03o", c);
		else
			fputc((int)c, out);
	}
	fputs("\"", out);
}

void prose_write(FILE *out)
{
	fputs("const char table_pool[] =\n", out);
	write_literal(out, (const unsigned char *)plain, nplain);
	fputs(";\n\nconst unsigned char table_prose[] =\n", out);
	write_literal(out, packed.bytes, packed.n);
	/* Each byte's whole expansion, so that decoding is a copy per byte
	 * rather than a walk down the rules: where it starts in
	 * table_prose_expanded, and its length (learn() keeps it under
	 * 256). */
	fputs(";\n\nconst unsigned char table_prose_expanded[] =\n", out);
	size_t n = 0;
	for (unsigned c = 0; c < 256; c++)
		n += packed.expanded[c];
	if (n > UINT16_MAX) {
		fprintf(stderr, "gentable: prose expansions take %zu bytes, "
		        "more than %u\n", n, UINT16_MAX);
		errors++;
	}
	/* (and PROSE_SLACK bytes more: decoding copies sixteen at a time) */
	unsigned char *all = xrealloc(NULL, n + PROSE_SLACK), *p = all;
	for (unsigned c = 0; c < 256; c++)
		p = expand(c, p);
	memset(p, 0, PROSE_SLACK);
	write_literal(out, all, n + PROSE_SLACK);
	free(all);
	fputs(";\n\nconst uint16_t table_prose_expansion[256][2] = {", out);
	n = 0;
	for (unsigned c = 0; c < 256; c++) {
		/* a word's prefix: where its 255 words start, and length 0 */
		fprintf(out, "%s{%lu, %lu},", c % 6 ? " " : "\n\t",
		        (unsigned long)(packed.prefix[c] ? (size_t)(packed.prefix[c] - 1) * 255 : n),
		        (unsigned long)packed.expanded[c]);
		n += packed.expanded[c];
	}
	fputs("\n};\n\n/* The words: table_prose_word[i] is the start of word i in "
	      "table_prose_word_text << 8 | its length. */\n"
	      "const uint32_t table_prose_word[] = {", out);
	n = 0;
	for (size_t i = 0; i < nwords; i++) {
		fprintf(out, "%s%lu,", i % 6 ? " " : "\n\t",
		        (unsigned long)(n << 8 | words[i].len));
		n += words[i].len;
	}
	fputs("\n\t0\n};\n\nconst unsigned char table_prose_word_text[] =\n", out);
	all = xrealloc(NULL, n + PROSE_SLACK);
	p = all;
	for (size_t i = 0; i < nwords; i++) {
		memcpy(p, words[i].s, words[i].len);
		p += words[i].len;
	}
	memset(p, 0, PROSE_SLACK);
	write_literal(out, all, n + PROSE_SLACK);
	free(all);
	fputs(";\n\nconst uint32_t table_prose_block[] = {", out);
	for (size_t i = 0; i < packed.nstrings; i += TABLE_PROSE_BLOCK)
		fprintf(out, "%s%lu,", i / TABLE_PROSE_BLOCK % 8 ? " " : "\n\t",
		        (unsigned long)packed.start[i]);
	/* (a last 0: an empty initialiser is not C11) */
	fprintf(out, "\n\t0\n};\n\n/* Where each string is decoded: its offset "
	        "in table_prose_text plus one, 0 before. */\n"
	        "_Atomic uint32_t table_prose_at[%zu];\n/* Room for all, decoded. */\n"
	        "char table_prose_text[%zu];\n"
	        "const size_t table_prose_room = %zu;\n",
	        packed.nstrings + 1, packed.text + 1 + PROSE_SLACK,
	        packed.text + 1 + PROSE_SLACK);
	free(plain);
	free(packed.bytes);
	free(packed.start);
	free(packed.where);
	free(words);
	free(word_source);
	words = NULL;
	word_source = NULL;
	nwords = 0;
	memset(packed.prefix, 0, sizeof packed.prefix);
	memset(packed.rules, 0, sizeof packed.rules);
}
