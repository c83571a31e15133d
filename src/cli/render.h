/* Renderers of a resolved lookup; each writes through output.h. */
#ifndef SMTPCODE_RENDER_H
#define SMTPCODE_RENDER_H

#include <stdint.h>
#include <string.h>

#include "fields.h"
#include "logs.h"
#include "output.h"
#include "scan.h"
#include "smtpcode.h"

/* The entry a person reads for row w (a lookup's); input is the
 * argument, for the reply text. */
void render_text(const struct row *w, const char *input);

/* One entry in full: the verdict v, then the explanation. */
void render_entry(const struct smtpcode_entry *e,
                  const struct smtpcode_verdict *v, const char *reason_phrase);
/* Its two parts: the title and the verdict, which depend on v (and the
 * words that gave the reason, when they did), and the rest, which depends
 * on e alone (so that the rest is rendered once for every verdict). */
void render_entry_verdict(const struct smtpcode_entry *e,
                          const struct smtpcode_verdict *v,
                          const char *reason_phrase);
void render_entry_body(const struct smtpcode_entry *e);
/* In its place, where e was explained in full before (--mail): one line
 * that says so. */
void render_entry_body_again(const struct smtpcode_entry *e);
/* A class-independent code (X.3.1): what each class of it means. */
void render_topic(const struct smtpcode_entry *e,
                  const struct smtpcode_query *q);
/* A code the table lacks: what its digits still tell. */
void render_inferred(const char *code, const struct smtpcode_result *r);
/* A category row ("4.XXX.YYY", "x5z"): what a digit means. */
void render_category(const struct smtpcode_entry *e);

/* s as a JSON string, escaped (RFC 8259; invalid UTF-8 as U+FFFD). */
void json_plain(const char *s);
/* The same for s[0..n), which may hold NUL (text from the input, kept
 * with its length). */
void json_bytes(const char *s, size_t n);

/*
 * Output that repeats from record to record (the verdict of a code) is
 * rendered once into memory and copied after that, and a record is put
 * together in memory and written at once (logs.c).  A sink is that
 * memory: text[0..len) of size bytes; full is set, and the text left
 * incomplete, when more did not fit.  A NULL sink writes to stdout.
 */
struct sink {
	char *text;
	size_t len, size;
	bool full;
};

#ifdef SCAN_SSE2
/* 0xff in each byte of x that is printable ASCII (0x20 to 0x7e): one
 * added, those are the signed bytes above 0x20; the bytes below 0x20 stay
 * at or below it, and 0x7f and those from 0x80 on become negative (0xff,
 * zero). */
static inline __m128i printable16(__m128i x)
{
	return _mm_cmpgt_epi8(_mm_add_epi8(x, _mm_set1_epi8(1)),
	                      _mm_set1_epi8(0x20));
}
#endif

/* Sink k full: nothing more goes in (its size is cut to its length, so
 * that a write tests the room left alone). */
static inline void sink_fail(struct sink *k)
{
	k->full = true;
	k->size = k->len;
}

/* Room for n more bytes in sink k, now counted in its length; NULL, and
 * the sink full, when there is none. */
static inline char *sink_room(struct sink *k, size_t n)
{
	char *d;
	if (n > k->size - k->len) {
		sink_fail(k);
		return NULL;
	}
	d = k->text + k->len;
	k->len += n;
	return d;
}

/* Inline: records are made of many short pieces, most of them literals
 * whose length is then known here. */
static inline void sink_write(struct sink *k, const char *s, size_t n)
{
	char *d;
	if (!k)
		out_write(s, n);
	else if ((d = sink_room(k, n)) != NULL)
		copy_bytes(d, s, n);
}

/* The room a record is put together in, in place in the output's buffer
 * (render_record.c, render_json.c): one that does not fit is written
 * piece by piece instead. */
#define RECORD_ROOM 8192

/* A string literal (only: sizeof would be a pointer's for any other). */
#define SINK_LITERAL(k, lit) sink_write((k), "" lit, sizeof(lit) - 1)
/* A number in decimal. */
void sink_number(struct sink *k, unsigned long v);

/* The part of a record that depends on its code and verdict only: for
 * text, the verdict ("4.3.1 temporary (system): ... [gmail]"); for TSV,
 * the columns from the code on, newline included; for JSON, the members
 * from "code" on, closing brace and newline included. */
void render_record_verdict(enum record_format format, const struct row *w,
                           struct sink *k);
/* A verdict as render_record_verdict() made it, and the code it is for
 * (w->code). */
struct rendered {
	const char *code;
	size_t code_len;
	const char *text;
	size_t len;
};
/* A record whose verdict was rendered before, for the same format. */
void render_record_with(enum record_format format, const struct origin *o,
                        const struct rendered *v);
/* The same for --annotate: the line (as render_annotation() shows it),
 * then "  => " and the verdict. */
void render_annotation_with(const char *line, size_t len,
                            const struct origin *o, const struct rendered *v);
/* A record's JSON object up to its verdict (render_record_verdict()). */
void json_origin(const struct origin *o, struct sink *k);
/* The verdict members of a record's JSON object, into k. */
void json_verdict(const struct row *w, struct sink *k);

/* One line or object per result, for scripts. */
void render_json(const struct row *w);
void render_tsv(const struct row *w);
void render_brief(const struct row *w);
void render_field(const struct row *w, enum field_id f);

/* A log line as read (but the CR of a CRLF ending), then (w non-NULL)
 * "  => " and its verdict. */
void render_annotation(const char *line, size_t len, const struct row *w);
/* The value of key (record_key_parse()) of o as TSV writes it, then a
 * newline: --extract --field. */
void render_record_key(const struct origin *o, int key);
/* A record's one value (-f NAME) of row w: of its origin's key
 * record_key when that is not -1, else of its verdict's field. */
void render_record_value(const struct row *w, int record_key, int field);
/* A record from a log or a message, in the chosen format. */
void render_record(enum record_format format, const struct row *w);

/* The providers, with how many entries each has: text, "id\tcount\tname"
 * lines (TSV) or an object per provider (JSON). */
void render_providers(enum record_format format);

#endif
