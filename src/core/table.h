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

/*
 * Entries and the lists' items name their strings in 16 bits
 * (table_text() reads them; see "Strings" below): ten thousand items and
 * a thousand entries took 59 KB more in 32 bits, of the command's 1 MiB.
 * The generator puts the plain strings they name first in the pool and
 * refuses a table whose strings 16 bits do not reach.
 *
 * The match lists' items are apart, in table_items: phrases and markers as
 * written, a plain pool offset each (the matcher reads them in place, and
 * a table may hold tens of thousands, more than 16 bits reach), indexed
 * like table_phrases; a match list has no keys.  The other lists' items
 * are in table_list_items.  An entry's first[l] indexes the array of its
 * list l.
 */
struct table_item {
	uint32_t text; /* pool offset */
};

struct table_list_item {
	uint16_t key;  /* string; 0 is "" */
	uint16_t text; /* string */
};

struct smtpcode_entry {
	uint32_t key;
	uint16_t provider;                 /* index of its provider, 0: none */
	uint16_t text[SMTPCODE_NTEXTS];    /* strings */
	uint16_t first[SMTPCODE_NLISTS];   /* index into table_items (the
	                                      match list) or table_list_items */
	uint8_t count[SMTPCODE_NLISTS];
	uint8_t value[SMTPCODE_NFIELDS];
	uint8_t reason_from_words; /* 1: the reply's words decide the reason
	                              when they name one (table_wordings) */
};

/* Shared between the library's files. */
size_t table_lower_bound(uint32_t key);
/* The index of the first entry of key, or table_size when none has it. */
size_t table_first(uint32_t key);
const struct smtpcode_entry *table_find_named(enum smtpcode_kind kind,
                                              const char *s, size_t len);
void table_match(const struct smtpcode_query *q, const char *input,
                 size_t len, const struct smtpcode_entry *provider,
                 struct smtpcode_match *m);

/*
 * The providers' markers, so a reply is scanned once for all of them.
 * Every marker is at least 3 bytes long (gentable refuses shorter ones),
 * so an occurrence covers the byte pairs at its offsets 0 and 1, one of
 * which starts at an even offset of the reply: the scan looks up only the
 * pairs at even offsets, in table_pairs (hashed to 13 bits, which only
 * lets more pairs through; two bits a pair, four pairs a byte): bit 0, a
 * marker starts with the pair; bit 1, a marker's second byte starts it.  A marker that may start there is one
 * whose first three bytes hash like the reply's, h = TABLE_TRIGRAM(...):
 * table_markers[table_trigrams[h]] up to table_markers[table_trigrams[h +
 * 1]], sorted by provider, then data order.
 */
#define TABLE_PAIR(a, b) ((unsigned)(a) << 5 ^ (unsigned)(b))
#define TABLE_PAIR_BITS(pairs, p) ((pairs)[(p) >> 2] >> 2 * ((p) & 3) & 3u)
#define TABLE_TRIGRAM_BITS 11
#define TABLE_TRIGRAM(a, b, c)                                              \
	((uint32_t)(((uint32_t)(a) << 16 | (uint32_t)(b) << 8 | (uint32_t)(c)) \
	            * 2654435761u) >> (32 - TABLE_TRIGRAM_BITS))
#define TABLE_MAX_MARKERS 65535 /* table_trigrams holds 16 bits */

struct table_marker {
	uint16_t provider; /* the provider's ordinal, from 1 */
	uint8_t len;      /* strlen of the marker: 3 to 80 */
	uint32_t text;    /* pool offset of the marker */
};

extern const uint8_t table_pairs[8192 / 4];
extern const uint16_t table_trigrams[(1 << TABLE_TRIGRAM_BITS) + 1];
extern const struct table_marker table_markers[];
extern const size_t table_nmarkers;

/*
 * The phrases of providers' entries (and the markers of providers, in the
 * same list), for matching without strlen or case folding at run time:
 * table_phrases[i] describes table_items[i], as the match lists of all
 * entries are in table_items, in the order of the entries (an
 * entry without one has its first[SMTPCODE_MATCHES] where it would be),
 * so that the phrases of a run of entries are a run too.  A phrase is
 * searched for by its rarest byte, then compared whole in lower case.
 */
struct table_phrase {
	uint32_t folded; /* pool offset of the phrase in ASCII lower case */
	uint8_t len;     /* strlen of the phrase: 3 to 80 */
	uint8_t rare;    /* offset of its byte least common in replies */
	uint16_t entry;  /* index of its entry in table_entries */
};

extern const struct table_phrase table_phrases[];
extern const size_t table_nphrases;

/* Index of the first provider in table_entries; provider p is at
 * table_provider_first + p - 1. */
extern const size_t table_provider_first;

/*
 * Each provider's entries by code, so that picking among them takes a
 * search of one provider's codes, not of the table: a group is the run of
 * provider p's entries for one code (the table is sorted by key, then
 * provider).  Provider p's groups, sorted by key, are
 * table_groups[table_provider_groups[p - 1]] up to
 * table_groups[table_provider_groups[p]].
 */
struct table_group {
	uint32_t key;   /* the code's */
	uint16_t first; /* index of its first entry in table_entries */
	uint16_t count; /* how many entries */
};

extern const struct table_group table_groups[];
extern const uint16_t table_provider_groups[]; /* one per provider, + 1 */

/*
 * The phrases that give a reason (data/reasons/, the generator's
 * wordings.c), in ASCII lower case in table_wording_text, bucketed by their
 * first four bytes, t (the first in the low byte; every phrase has four, no
 * double space, and the matcher reads a run of blanks as one space): those
 * of hash TABLE_WORDING_BUCKET(t) are table_wordings[table_wording_first[
 * b]] up to table_wordings[table_wording_first[b + 1]], in order (their
 * reasons' priority, then data order), so that the first found at a place
 * is the one that would win there.  Four bytes, not two: most places of a
 * text then have no phrase to try ("th" starts dozens, "the " few).
 */
#define TABLE_WORDING_BITS 12
#define TABLE_WORDING_BUCKETS (1u << TABLE_WORDING_BITS)
#define TABLE_WORDING_BUCKET(t) \
	((uint32_t)((uint32_t)(t) * 2654435761u) >> (32 - TABLE_WORDING_BITS))

/* A byte as phrase heads and tails are packed (the generator and the
 * matcher alike): ASCII upper case folded, a blank read as a space. */
static inline unsigned char table_wording_byte(unsigned char c)
{
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
		return ' ';
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 'a' - 'A') : c;
}

struct table_wording {
	uint32_t text;   /* offset in table_wording_text */
	uint32_t head;   /* its first four bytes, t */
	uint32_t tail;   /* the four after them (0 past its end), packed
	                    alike: phrases of one head ("mail", "not ") are
	                    told apart at a look */
	uint8_t len;     /* strlen of the phrase: 4 to 80 */
	uint8_t reason;  /* a SMTPCODE_REASON value */
	uint16_t order;  /* lower wins */
};

extern const char table_wording_text[];
extern const struct table_wording table_wordings[];
extern const uint16_t table_wording_first[TABLE_WORDING_BUCKETS + 1];
/* table_wording_byte() of every byte: the matcher reads a byte a step. */
extern const unsigned char table_wording_fold[256];

/*
 * What each reason brings to a verdict (data/reasons/, the generator's
 * wordings.c), indexed by its SMTPCODE_REASON value: the suppress and
 * bounce of a permanent failure it decides, the scope and acts, whether
 * its words beat a code's own reason, and the reason it becomes in a
 * reply to DATA (0: itself).
 */
struct table_reason {
	uint8_t suppress, bounce, scope, acts;
	uint8_t beats_code;
	uint8_t after_data;
};
extern const struct table_reason table_reasons[];

/*
 * The steps of a judgement, in the order data/reasons/precedence.txt
 * gives them (the generator's precedence.c): what decides the code, what
 * decides the reason.  Each list ends with TABLE_STEP_END.
 */
enum table_step {
	TABLE_STEP_END,
	TABLE_STEP_REPLY, TABLE_STEP_STATUS,             /* code */
	TABLE_STEP_MESSAGE, TABLE_STEP_RULES, TABLE_STEP_OWN_MEANING,
	TABLE_STEP_PHRASE, TABLE_STEP_SPECIFIC_WORDS, TABLE_STEP_CODE,
	TABLE_STEP_WORDS                                 /* reason */
};
extern const uint8_t table_code_steps[];
extern const uint8_t table_reason_steps[];

/*
 * The search's synonyms (data/search/, the generator's synonyms.c), in
 * ASCII lower case: each list's phrases ("blacklisted\0blocklist\0"),
 * each ended by a NUL and the list by one more, the lists ended by an
 * empty one.  A phrase's words are separated by single spaces.  Read by
 * src/core/search.c only: a lookup never touches them.
 */
extern const char table_synonyms[];

/* The most layouts data/bounces may define: the text bounce reader keeps
 * what it found of each on its stack (textbounce.c). */
#define TABLE_LAYOUTS_MAX 64

/* Indices of the entries that stand for a range of codes (through:). */
extern const uint32_t table_ranges[];
extern const size_t table_nranges;

/*
 * Strings: an offset into table_pool, or, with TABLE_PROSE set (in the
 * 16 bits of entries and list items), the number of a string of
 * table_prose, where the long texts only renderers read (names, meanings,
 * causes, fixes, notes...) are kept packed by byte-pair encoding (the
 * generator's prose.c): a byte c stands for the
 * table_prose_expansion[c][1] bytes at table_prose_expanded +
 * table_prose_expansion[c][0] (c itself when no rule made it).  Codes,
 * phrases and markers are plain.  The packed strings lie one after the
 * other, each ended by a 0 byte; only every TABLE_PROSE_BLOCK-th one's
 * start is kept (table_prose_block[i / TABLE_PROSE_BLOCK]) and string i
 * is found from it by skipping the strings between, or from the end of
 * the last one the thread decoded, when that is in i's block and not
 * past it (prose.c): a start for every one cost 29 KB of the command's
 * 1 MiB, a skip costs a few hundred bytes scanned, and a renderer mostly
 * asks for an entry's strings in the order they lie.  It is decoded, on
 * first use, into the next free bytes of
 * table_prose_text (room for all of them, table_prose_room bytes), where
 * table_prose_at[i] keeps its place (table_text(), prose.c): the strings
 * a run uses sit together, on a few pages, whichever entries they are of.
 */
#define TABLE_PROSE 0x8000u
extern const char table_pool[];
extern const unsigned char table_prose[];
extern const unsigned char table_prose_expanded[];
extern const uint16_t table_prose_expansion[256][2];
/* The dictionary of whole words (the generator's prose.c): a byte whose
 * expansion has length 0 is a prefix, and with the byte after it, 1 to
 * 255, names word table_prose_expansion[prefix][0] + that - 1, whose
 * entry here is its start in table_prose_word_text << 8 | its length. */
extern const uint32_t table_prose_word[];
extern const unsigned char table_prose_word_text[];
#define TABLE_PROSE_BLOCK 16
extern const uint32_t table_prose_block[];
extern _Atomic uint32_t table_prose_at[];
extern char table_prose_text[];
extern const size_t table_prose_room;
/* The string at offset off (either kind), decoded. */
const char *table_text(uint32_t off);
/* The same string copied into buf[0..size) (see smtpcode_text_into()):
 * packed prose decoded there, and not kept; its length. */
size_t table_text_into(uint32_t off, char *buf, size_t size);
/* Plain string s copied so. */
size_t table_plain_into(const char *s, char *buf, size_t size);
extern const struct table_item table_items[];
extern const struct table_list_item table_list_items[];
extern const struct smtpcode_entry table_entries[];
extern const size_t table_size;
extern const uint32_t table_keys[]; /* table_entries[i].key, packed */

/*
 * Where each key's entries start, found by hashing the key rather than by
 * binary search (a lookup of a new reply's codes takes several): slot
 * TABLE_SLOT(key, table_slot_shift) and those after it, wrapping, hold 1 +
 * the index of the first entry of a key each, until an empty one (0).
 * gentable makes the index at least twice the number of keys, so that
 * every search ends soon.
 */
#define TABLE_SLOT(key, shift) ((uint32_t)((key) * 2654435761u) >> (shift))
extern const uint16_t table_slots[];
extern const unsigned table_slot_shift; /* 32 - log2 of the slots */
extern const char table_date[];

/*
 * What lets smtpcode_reply_ignores() tell that no marker or phrase can
 * touch a span of a reply (both folded to ASCII lower case, which only
 * lets more through: markers are matched as written).  Each byte that
 * some marker or phrase holds has a class, table_class[c] (that of c
 * folded), from 1 to TABLE_SHARED, the last shared by any bytes past the
 * first 62 (its rows are full: such bytes only cost a closer look); the
 * others, class 0.  A pair of bytes a then b is looked up as bit
 * table_class[b] of row table_class[a], each row 64 bits: row 0 is empty.
 *  - One that crosses the span's left edge holds the byte before the span
 *    and the span's first byte, in a row; one that crosses its right
 *    edge, its last byte and the byte after it: table_edge_pairs has the
 *    pairs in a row in some marker or phrase.
 *  - One that lies inside a span either has a space, and the span holds
 *    it, or has none: its first two bytes are then a pair of
 *    table_word_starts, its first and third a pair of table_word_skips.
 *    The space's rows there are full (the space always has a class), so
 *    that a look at each pair of the span finds where to look closer.
 *    Those without a space are table_words, by the hash h = TABLE_WORD(t)
 *    of their first three bytes (t, the first in the low byte): those of
 *    hash h are table_words[table_word_first[h]] up to
 *    table_words[table_word_first[h + 1]].
 */
#define TABLE_CLASSES 64 /* a row is 64 bits */
#define TABLE_SHARED 63  /* the class of the bytes past the first 62:
                            its rows are full */
#define TABLE_WORD_BITS 8
#define TABLE_WORD(t) ((uint32_t)((t) * 2654435761u) >> (32 - TABLE_WORD_BITS))
#define TABLE_MAX_WORDS 65535 /* table_word_first holds 16 bits */

struct table_word {
	uint32_t trigram; /* t of its first three bytes */
	uint16_t phrase;  /* index of it in table_phrases */
};

extern const uint8_t table_class[256];
extern const uint64_t table_edge_pairs[TABLE_CLASSES];
extern const uint64_t table_word_starts[TABLE_CLASSES];
extern const uint64_t table_word_skips[TABLE_CLASSES];
extern const uint16_t table_word_first[(1 << TABLE_WORD_BITS) + 1];
extern const struct table_word table_words[];

#endif
