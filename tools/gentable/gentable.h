/*
 * gentable: compile data/ into the static table of src/core/table.h.  Shared
 * declarations of its three stages: read.c turns data files into records,
 * check.c refuses anything inconsistent, write.c writes the C table.
 */
#ifndef GENTABLE_H
#define GENTABLE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "table.h"

enum field_type { SCALAR_TEXT, SCALAR_VALUE, LIST };

/* The provider a code record belongs to; not one of the entry's texts. */
#define PROVIDER_REF (-1)
/* Keys that only the checks read: a provider's sites, a corpus. */
#define NOT_WRITTEN (-2)
/* Keys of dialect records only, which dialects.c reads and writes. */
#define DIALECT_KEY (-3)

struct keydef {
	const char *name;
	enum field_type type;
	int index;   /* text field, value field or list; or PROVIDER_REF */
	int inherit; /* whether a provider's entry takes it from the
	                standard entry of its code when it lacks it */
};

extern const struct keydef keydefs[];
extern const size_t nkeydefs;

struct field {
	const struct keydef *def;
	char *value;
	const char *file;
	long line;
};

/* What a record describes: the form of its code and of its first key. */
enum record_kind {
	R_BASIC,        /* 452 */
	R_TOPIC,        /* X.3.1: shared by the class variants */
	R_VARIANT,      /* 4.3.1 */
	R_CATEGORY,     /* 4.XXX.YYY, X.3.YYY, 4yz, x5z */
	R_PROVIDER,     /* a provider's own entry for a code */
	R_PROVIDER_DEF, /* provider: gmail */
	R_GROUP_DEF,    /* group: mailbox-full */
	R_CORPUS,       /* corpus: sisimai-rhost; dropped once checked */
	R_LAYOUT,       /* layout: postfix (layouts.c) */
	R_PHRASES,      /* phrases: autoreply-subject (layouts.c) */
	R_DIALECT,      /* dialect: courier; written by dialects.c */
	R_WORDS,        /* reason-words: mailboxfull; wordings.c */
	R_SYNONYMS,     /* synonyms: blocklist; synonyms.c */
	R_JUDGE         /* judge: reason; precedence.c */
};

struct record {
	const char *file;
	long line;
	size_t order; /* position in the data, for a stable sort */
	struct field *fields;
	size_t nfields, cap;
	enum record_kind kind;
	struct smtpcode_query code;
	uint32_t key;
	unsigned provider;    /* provider entries: index of the provider */
	unsigned rank;        /* provider definitions: index by priority;
	                         layouts: their priority */
	char codetext[32];
	struct record *topic; /* where missing fields come from: a variant's
	                         X.S.D, a provider entry's standard entry */
	int has_variant;      /* topics: whether any variant names them */
};

extern struct record *records;
extern size_t nrecords;
extern int errors;

void fail(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void *xrealloc(void *p, size_t n);

/* check.c: the priority of a provider or layout record, a whole number
 * from 1 to 65535 (lower ones are tried first, as tried says); 0 when it
 * has none or a bad one (reported). */
unsigned record_priority(const struct record *r, const char *tried);

/* read.c */
void read_file(const char *file);
/* For the fuzz target, which reads input after input from memory: records
 * from an open stream, as read_file() does from a named file (file names
 * the stream in messages; fp stays open); and undoing what reading did. */
void read_stream(FILE *fp, const char *file);
void free_records(void);
/* Frees what reading gave record r: its fields and their values. */
void free_fields(struct record *r);
/* The records of kind, copied into *out (grown) and sorted by order: the
 * records a writer keeps before write_table() drops them; how many. */
size_t copy_records(enum record_kind kind, struct record **out,
                    int (*order)(const void *, const void *));
int read_date(const char *file, char date[11]);

/* check.c */
void check_all(void);
/* Fails each 'phrase:' of records[i] that a record of its kind before it,
 * or itself before that line, already holds (ASCII case aside): "NOUN
 * 'x' is already in KIND id (FILE:LINE)". */
void phrases_once(size_t i, const char *noun, const char *kind);
struct field *get(const struct record *r, const char *key);
struct field *lookup(const struct record *r, const char *key);
/* The record whose list 'key' an entry shows: its own, or inherited. */
const struct record *list_owner(const struct record *r, const char *key);
const char *split_item(const char *v, size_t *keylen);
int value_of(const struct record *r, const char *key);

/* layouts.c: bounce layouts and phrase lists (data/bounces/) */
int layout_record(const char *first_key); /* whether it starts one */
int layout_allows(enum record_kind kind, const char *key);
int layout_only(const char *key); /* no other record takes it */
void check_layout(const struct record *r);
void check_layout_order(void);
void layout_keep(const struct record *r); /* for write_layouts */
void write_layouts(FILE *out);

/* prose.c: the pool split into plain strings and packed prose.  hot[off]
 * has bit 1 for a string the library reads in place (a code, a phrase),
 * and PROSE_NARROW for one that entries or items name in 16
 * bits, which, when plain, goes first in the new pool; prose_where(off)
 * is the string's place in the new table: a plain pool offset, or
 * PROSE_PACKED | the number of a packed one (table.h's TABLE_PROSE marks
 * those in 16 bits). */
#define PROSE_NARROW 2
#define PROSE_PACKED 0x80000000u
void prose_pack(const char *pool, size_t n, const unsigned char *hot);
uint32_t prose_where(uint32_t off);
void prose_write(FILE *out); /* table_pool, table_prose... */

/* write.c */
int write_table(const char *path, const char *date);

/* dialects.c: log dialect records (data/logs/) */
void check_dialect(const struct record *r);
/* Before write_table() drops them; then their table, into table.c. */
void keep_dialects(void);
void write_dialects(FILE *out);

/* wordings.c: reason wordings (data/reasons/) */
void check_wording(const struct record *r);
void check_wordings(void); /* across records, after each's own checks */
/* Before write_table() drops them; then their table, into table.c. */
void keep_wordings(void);
void write_wordings(FILE *out);

/* The reason-words record of reason value reason, or NULL. */
const struct record *reason_record(int reason);
/* Whether the permanent verdict of entry record r (its suppress and
 * bounce) contradicts its reason's; then fails. */
void check_reason_verdict(const struct record *r);

/* precedence.c: the judgement's steps (data/reasons/precedence.txt) */
void check_judge(const struct record *r);
void check_judges(void); /* every part judged once */
void keep_judges(void);
void write_judges(FILE *out);

/* synonyms.c: search synonyms (data/search/) */
void check_synonyms(const struct record *r);
void check_synonym_lists(void); /* across records, after each's own */
/* Before write_table() drops them; then their table, into table.c. */
void keep_synonyms(void);
void write_synonyms(FILE *out);

#endif
