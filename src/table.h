/*
 * Layout of the generated table (table.c in the build tree, written by
 * tools/gentable.c from data/).  Strings are offsets into one pool rather
 * than pointers, so the table needs no relocations at load time.
 */
#ifndef SMTPCODE_TABLE_H
#define SMTPCODE_TABLE_H

#include <stdint.h>

#include "smtpcode.h"

/*
 * Sort key of an entry: the kind in the top three bits, then
 *   basic:    the code (200-599);
 *   enhanced: subject << 18 | detail << 4 | class (0 for X);
 *   category: type << 8 | digit, type 0 class digit, 1 subject,
 *             2 first digit of a basic code, 3 its second digit;
 *   provider, group: their index in data order.
 * A provider's entry for a code has the code's key and a non-zero
 * provider; the table is sorted by key, then provider (the standard entry,
 * provider 0, first), then data order.
 */
#define KEY_KIND_SHIFT 29
#define KEY_KIND(kind) ((uint32_t)(kind) << KEY_KIND_SHIFT)
#define KEY_BASIC(code) ((uint32_t)(code))
#define KEY_ENHANCED(cls, subj, det)                                   \
	(KEY_KIND(SMTPCODE_KIND_ENHANCED) | (uint32_t)(subj) << 18 |   \
	 (uint32_t)(det) << 4 | (uint32_t)(cls))
#define KEY_CATEGORY(type, digit)                                      \
	(KEY_KIND(SMTPCODE_KIND_CATEGORY) | (uint32_t)(type) << 8 |    \
	 (uint32_t)(digit))
#define KEY_PROVIDER(index) (KEY_KIND(SMTPCODE_KIND_PROVIDER) | (uint32_t)(index))
#define KEY_GROUP(index) (KEY_KIND(SMTPCODE_KIND_GROUP) | (uint32_t)(index))

enum category_type { CAT_CLASS, CAT_SUBJECT, CAT_BASIC_FIRST, CAT_BASIC_SECOND };

struct table_item {
	uint32_t key;  /* pool offset; 0 is "" */
	uint32_t text; /* pool offset */
};

struct smtpcode_entry {
	uint32_t key;
	uint8_t provider;                  /* index of its provider, 0: none */
	uint32_t text[SMTPCODE_NTEXTS];    /* pool offsets */
	uint16_t first[SMTPCODE_NLISTS];   /* index into table_items */
	uint8_t count[SMTPCODE_NLISTS];
	uint8_t value[SMTPCODE_NFIELDS];
};

/* Shared between the library's files. */
size_t table_lower_bound(uint32_t key);
const struct smtpcode_entry *table_find_named(enum smtpcode_kind kind,
                                              const char *s, size_t len);
void table_match(const struct smtpcode_query *q, const char *input,
                 size_t len, const struct smtpcode_entry *provider,
                 struct smtpcode_match *m);

/* The providers' markers, by their first two bytes, so a reply is
 * scanned once for all of them: a bit per byte pair in table_bigrams,
 * then the markers of that pair, sorted by it. */
struct table_marker {
	uint16_t bigram;   /* first byte << 8 | second byte */
	uint16_t provider; /* the provider's ordinal, from 1 */
	uint32_t text;     /* pool offset of the marker */
};

extern const uint8_t table_bigrams[8192];
extern const struct table_marker table_markers[];
extern const size_t table_nmarkers;
/* Index of the first provider in table_entries; provider p is at
 * table_provider_first + p - 1. */
extern const size_t table_provider_first;

/* Indices of the entries that stand for a range of codes (through:). */
extern const uint32_t table_ranges[];
extern const size_t table_nranges;

extern const char table_pool[];
extern const struct table_item table_items[];
extern const struct smtpcode_entry table_entries[];
extern const size_t table_size;
extern const uint32_t table_keys[]; /* table_entries[i].key, packed */
extern const char table_date[];

#endif
