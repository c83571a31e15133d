/*
 * A record from a log line or a bounce's recipient: where it came from and
 * what it said, as record_fields.def lists it.  That list is the one place
 * a key of the record is named; struct origin and every writer of a record
 * (render_record.c: text and TSV, in place and piece by piece, and the
 * most a record takes; render_json.c: JSON) are made from it with
 * RECORD_FIELD, so that each writer's fields are known when it is
 * compiled and cost no more than when they were written out by hand.
 */
#ifndef SMTPCODE_RECORD_H
#define SMTPCODE_RECORD_H

#include <stdbool.h>

#include "smtpcode.h"

/*
 * The kinds of value a key may hold: each has its C type (KIND_TYPE), and
 * each writer a function per kind (write_KIND(), place_KIND(),
 * most_KIND(), json_KIND()).
 *   R_NAME   the file's name (const char *): shown as it is, text from the
 *            input escaped; a JSON string.  The same for every record of a
 *            file: the writers keep what they find of it per file, so
 *            there is one key of this kind.  Takes its length.
 *   R_LINE   a line number (unsigned long): decimal.  Takes 20 digits.
 *   R_INDEX  an index (long), a recipient's in its message, a message's in
 *            its mbox: decimal, counted from 1 in text, from 0 in TSV and
 *            JSON; none (negative: a message's own record,
 *            RECORD_MESSAGE_INDEX; a file that is one message): "-",
 *            JSON's null.  Takes 20 digits.
 *   R_TEXT   a span of the input (struct smtpcode_text): escaped in text
 *            and TSV, "-" when absent; a JSON string, or null.  Takes its
 *            length, or 1.
 *   R_WORD   a word of the program's (const char *): as it is, "-" when
 *            absent; a JSON string, or null.  Takes its length, or 1.
 */
enum record_kind { R_NAME, R_LINE, R_INDEX, R_TEXT, R_WORD };
#define R_NAME_TYPE const char *
#define R_LINE_TYPE unsigned long
#define R_INDEX_TYPE long
#define R_TEXT_TYPE struct smtpcode_text
#define R_WORD_TYPE const char *

/* The records a key is in (record_fields.def's modes). */
enum record_mode { REC_LOG = 1, REC_MAIL = 2 };
/* Where the text record shows a key, and whether TSV does. */
enum record_text { TEXT_NO, TEXT_HEAD, TEXT_NOTE };
enum record_tsv { TSV_NO, TSV_COLUMN };

/* Where a record from a log or a message came from, and what it said: a
 * member per key of record_fields.def, in its order. */
struct origin {
#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before) \
	kind##_TYPE key;
#include "record_fields.def"
#undef RECORD_FIELD
	enum smtpcode_report report; /* what the line or DSN says of the
	                                message's fate (not written) */
};

/* The index of a log line's record, and of a message's own record (one
 * that names no recipient: an auto-reply, a bounce whose recipients were
 * not found, a message that is not a bounce). */
#define RECORD_LOG_INDEX (-1)
#define RECORD_MESSAGE_INDEX (-2)

/* Which record o is: a log's line, or a message's (a recipient's, or the
 * message's own). */
static inline enum record_mode record_mode(const struct origin *o)
{
	return o->index == RECORD_LOG_INDEX ? REC_LOG : REC_MAIL;
}

/* Whether a key of modes is in a record of mode: known when compiled for
 * a key in both. */
#define RECORD_CARRIES(modes, mode) \
	((modes) == (REC_LOG | REC_MAIL) || ((modes) & (mode)) != 0)

/* The number of keys. */
enum {
	RECORD_KEYS = 0
#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before) + 1
#include "record_fields.def"
#undef RECORD_FIELD
};

/* One key of kind R_NAME (the writers keep what they find of its value
 * per file, not per key). */
_Static_assert(0
#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before) \
	+ ((kind) == R_NAME)
#include "record_fields.def"
#undef RECORD_FIELD
               == 1, "record_fields.def: one key of kind R_NAME");

/* The place in record_fields.def of the key named name, or -1. */
int record_key_parse(const char *name);

#endif
