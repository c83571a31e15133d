/*
 * The table's prose, packed: meanings, causes, fixes, notes and the other
 * long texts that only the renderers read are nine tenths of the pool,
 * and English prose halves under byte-pair encoding (the most frequent
 * pair of adjacent bytes replaced by a byte no prose uses, again and
 * again), which a dozen lines decode (src/core/prose.c).  Codes, names,
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

static struct {
	unsigned char *bytes; /* the packed strings, each ended by a 0 */
	size_t n;
	uint32_t *start;      /* each string's offset in bytes */
	size_t nstrings;
	size_t text;          /* the bytes all take decoded, their 0s too */
	uint8_t rules[256][2];
	size_t expanded[256]; /* the length of each byte's expansion */
	uint32_t *where; /* by pool offset: its new place (table.h) */
} packed;

static char *plain;
static size_t nplain;

/* Replace every pair a b in buf[0..n) by code; the new length. */
static size_t replace(unsigned char *buf, size_t n, unsigned a, unsigned b,
                      unsigned code)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && buf[i] == a && buf[i + 1] == b) {
			buf[o++] = (unsigned char)code;
			i++;
		} else {
			buf[o++] = buf[i];
		}
	}
	return o;
}

/* The rules, learnt on buf[0..n) (the prose, each string ended by a 0),
 * which they rewrite; the new length.  Ties go to the lowest pair, so
 * that the table depends on the data alone. */
static size_t learn(unsigned char *buf, size_t n)
{
	static uint32_t count[65536];
	int used[256] = {0};
	size_t *len = packed.expanded;
	for (size_t i = 0; i < n; i++)
		used[buf[i]] = 1;
	for (unsigned c = 0; c < 256; c++)
		len[c] = 1;
	for (unsigned code = 1; code < 256; code++) {
		unsigned best = 0;
		if (used[code])
			continue;
		memset(count, 0, sizeof count);
		for (size_t i = 0; i + 1 < n; i++)
			if (buf[i] && buf[i + 1] &&
			    len[buf[i]] + len[buf[i + 1]] < 256)
				count[buf[i] << 8 | buf[i + 1]]++;
		for (unsigned p = 1; p < 65536; p++)
			if (count[p] > count[best])
				best = p;
		if (count[best] < PAIR_MIN)
			break;
		packed.rules[code][0] = (uint8_t)(best >> 8);
		packed.rules[code][1] = (uint8_t)(best & 0xff);
		len[code] = len[best >> 8] + len[best & 0xff];
		n = replace(buf, n, best >> 8, best & 0xff, code);
	}
	return n;
}

/* Code's expansion written at p; the byte after it. */
static unsigned char *expand(unsigned code, unsigned char *p)
{
	if (!packed.rules[code][0]) {
		*p = (unsigned char)code;
		return p + 1;
	}
	return expand(packed.rules[code][1], expand(packed.rules[code][0], p));
}

void prose_pack(const char *pool, size_t n, const unsigned char *hot)
{
	unsigned char *buf = xrealloc(NULL, n + 1);
	size_t m = 0;

	packed.where = xrealloc(NULL, (n + 1) * sizeof *packed.where);
	plain = xrealloc(NULL, n + 1);
	nplain = 0;
	for (size_t off = 0; off < n; off += strlen(pool + off) + 1) {
		size_t len = strlen(pool + off);
		if (!hot[off] && len >= PROSE_MIN) {
			memcpy(buf + m, pool + off, len + 1);
			m += len + 1;
		} else {
			packed.where[off] = (uint32_t)nplain;
			memcpy(plain + nplain, pool + off, len + 1);
			nplain += len + 1;
		}
	}
	m = learn(buf, m);
	/* Each packed string, in pool order, known by its number. */
	packed.bytes = xrealloc(NULL, m + 1);
	packed.start = xrealloc(NULL, (m + 1) * sizeof *packed.start);
	packed.n = packed.nstrings = packed.text = 0;
	size_t at = 0;
	for (size_t off = 0; off < n; off += strlen(pool + off) + 1) {
		size_t len = strlen(pool + off), k, text = 0;
		if (hot[off] || len < PROSE_MIN)
			continue;
		packed.where[off] = TABLE_PROSE | (uint32_t)packed.nstrings;
		packed.start[packed.nstrings++] = (uint32_t)packed.n;
		for (k = 0; buf[at + k]; k++)
			text += packed.expanded[buf[at + k]];
		if (text != len) {
			fprintf(stderr, "gentable: prose at %zu decodes to %zu "
			        "bytes, not %zu\n", off, text, len);
			errors++;
		}
		memcpy(packed.bytes + packed.n, buf + at, k + 1);
		packed.n += k + 1;
		packed.text += len + 1;
		at += k + 1;
	}
	if (packed.n >= TABLE_PROSE || packed.text >= UINT32_MAX) {
		fprintf(stderr, "gentable: more than %lu bytes of prose\n",
		        (unsigned long)TABLE_PROSE);
		errors++;
	}
	free(buf);
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
		fprintf(out, "%s{%lu, %lu},", c % 6 ? " " : "\n\t",
		        (unsigned long)n, (unsigned long)packed.expanded[c]);
		n += packed.expanded[c];
	}
	fputs("\n};\n\nconst uint32_t table_prose_start[] = {", out);
	for (size_t i = 0; i < packed.nstrings; i++)
		fprintf(out, "%s%lu,", i % 8 ? " " : "\n\t",
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
}
