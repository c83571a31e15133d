/*
 * JSON Lines: one object per result, every key of fields.h always present
 * and in that order, strict RFC 8259 (control characters escaped, invalid
 * UTF-8 replaced by U+FFFD), never coloured.
 *
 * Speed: the log modes write an object per line of a log.  Strings go out
 * in runs of bytes that need no escaping, keys are literals of known
 * length, numbers are written by hand, and a record's verdict members are
 * rendered once per verdict into a sink (render.h) and copied after that.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "output.h"
#include "record.h"
#include "render.h"
#include "scan.h"
#include "utf8.h"

static void put(struct sink *k, const char *s)
{
	sink_write(k, s, strlen(s));
}

#define PUT(k, lit) SINK_LITERAL(k, lit)

/* Bytes written as they are inside a JSON string: printable ASCII but the
 * quote and the backslash. */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

#ifdef SCAN_SSE2
/* Bit i set when byte i of x is not plain: not printable, or quoting. */
static unsigned not_plain16(__m128i x)
{
	__m128i printable = printable16(x);
	__m128i quoting = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
	                               _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
	return (unsigned)_mm_movemask_epi8(_mm_andnot_si128(quoting, printable)) ^
	       0xffff;
}

/* The 4 to 15 bytes at p (m of them) as sixteen, some twice: two words of
 * 8 or of 4, the second overlapping the first. */
static __m128i short16(const unsigned char *p, size_t m)
{
	uint64_t a, b;
	uint32_t c, d;

	if (m >= 8) {
		memcpy(&a, p, sizeof a);
		memcpy(&b, p + m - 8, sizeof b);
	} else {
		memcpy(&c, p, sizeof c);
		memcpy(&d, p + m - 4, sizeof d);
		a = b = (uint64_t)d << 32 | c;
	}
	return _mm_set_epi64x((long long)b, (long long)a);
}
#else
/*
 * Whether all 8 bytes at p are plain, tested at once: the classic tests
 * for "a byte below n", "a byte above n" and "a zero byte" (of w ^ c, for
 * a byte equal to c) on a word, whose answer for "any" is exact.
 */
static bool plain8(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones << 7;
	uint64_t w, quote, backslash;
	memcpy(&w, p, sizeof w);
	quote = w ^ ones * '"';
	backslash = w ^ ones * '\\';
	return !((((w - ones * 0x20) & ~w) | /* below 0x20 */
	          ((w + ones) | w) |         /* above 0x7e */
	          ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash)) &
	         highs);
}
#endif

/*
 * The first byte of p[i..n) that is not plain, or n: sixteen bytes a step
 * (SSE2), the last step overlapping those before it, or all of fewer than
 * sixteen at once; else eight a step.  Where a short span is not all
 * plain, its bytes are looked at one by one.
 */
static size_t plain_end(const unsigned char *p, size_t i, size_t n)
{
#ifdef SCAN_SSE2
	const char *q;
	unsigned bad;

	for (; n - i >= 16; i += 16)
		if ((bad = not_plain16(scan_load((const char *)p + i))) != 0)
			return i + (size_t)__builtin_ctz(bad);
	if (i == n)
		return n;
	if (n >= 16) {
		q = scan_rest((const char *)p + i, (const char *)p + n,
		              not_plain16(scan_load((const char *)p + n - 16)));
		return q ? (size_t)((const unsigned char *)q - p) : n;
	}
	if (n - i >= 4 && !not_plain16(short16(p + i, n - i)))
		return n;
#else
	while (n - i >= 8 && plain8(p + i))
		i += 8;
#endif
	while (i < n && plain(p[i]))
		i++;
	return i;
}

/* The escape for an ASCII byte that is not plain. */
static void escape(struct sink *k, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	switch (c) {
	case '"': PUT(k, "\\\""); break;
	case '\\': PUT(k, "\\\\"); break;
	case '\n': PUT(k, "\\n"); break;
	case '\t': PUT(k, "\\t"); break;
	case '\r': PUT(k, "\\r"); break;
	default: /* < 0x20, 0x7f; no array of the six bytes on the stack,
	          * for json_escaped() to need no stack protector */
		PUT(k, "\\u00");
		sink_write(k, hex + (c >> 4), 1);
		sink_write(k, hex + (c & 15), 1);
		break;
	}
}

/* \uXXXX for code point c (below U+10000). */
static void escape_point(struct sink *k, uint32_t c)
{
	static const char hex[] = "0123456789abcdef";

	PUT(k, "\\u");
	for (int shift = 12; shift >= 0; shift -= 4)
		sink_write(k, hex + ((c >> shift) & 15), 1);
}

/*
 * s[0..n) as a JSON string.  Plain ASCII and valid UTF-8 go out in runs;
 * control characters (NUL included) are escaped, and so are the code
 * points that steer a terminal (utf8_steers(): C1 and bidirectional
 * controls, U+2028, U+2029), as the text outputs escape them; a byte
 * that starts no valid UTF-8 sequence becomes U+FFFD.
 */
static void json_escaped(struct sink *k, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len = 0;

	PUT(k, "\"");
	while (i < n) {
		size_t run = i;
		for (;;) { /* a run of plain ASCII and valid UTF-8 */
			i = plain_end(p, i, n);
			if (i == n || p[i] < 0x80 ||
			    (len = utf8_len(p + i, n - i)) == 0 ||
			    utf8_steers(utf8_point(p + i, len)))
				break;
			i += len;
		}
		sink_write(k, s + run, i - run);
		if (i == n)
			break;
		if (p[i] < 0x80) {
			escape(k, p[i]);
		} else if (len) {
			escape_point(k, utf8_point(p + i, len));
			i += len - 1;
		} else {
			PUT(k, "\\ufffd");
		}
		i++;
	}
	PUT(k, "\"");
}

/* The same, where most strings are plain: those in one piece. */
static void json_string(struct sink *k, const char *s, size_t n)
{
	char *d;

	if (!k || plain_end((const unsigned char *)s, 0, n) != n) {
		json_escaped(k, s, n);
	} else if ((d = sink_room(k, n + 2)) != NULL) {
		d[0] = '"';
		copy_bytes(d + 1, s, n);
		d[n + 1] = '"';
	}
}

void json_plain(const char *s)
{
	json_string(NULL, s, strlen(s));
}

void json_bytes(const char *s, size_t n)
{
	json_string(NULL, s, n);
}

static void string_or_null(struct sink *k, const char *s)
{
	if (s && *s)
		json_string(k, s, strlen(s));
	else
		PUT(k, "null");
}

/* "key":value, after "{" (first) or ",". */
static void member(struct sink *k, const char *key, const char *value,
                   int first)
{
	put(k, first ? "{\"" : ",\"");
	put(k, key);
	PUT(k, "\":");
	string_or_null(k, value);
}

static void json_list(struct sink *k, const struct smtpcode_entry *e,
                      const struct value *v)
{
	size_t n = e ? smtpcode_count(e, v->list) : 0;
	PUT(k, "[");
	for (size_t i = 0; i < n; i++) {
		struct smtpcode_item it = smtpcode_item(e, v->list, i);
		if (i)
			PUT(k, ",");
		if (v->type == V_LIST) {
			const char *t = v->list == SMTPCODE_BASIC ? it.key : it.text;
			json_string(k, t, strlen(t));
			continue;
		}
		member(k, v->type == V_FIXES ? "who" : "code", it.key, 1);
		member(k, "text", it.text, 0);
		PUT(k, "}");
	}
	PUT(k, "]");
}

static void json_provider(struct sink *k, const struct smtpcode_match *m)
{
	static const char *const how[] = {"none", "only", "phrase", "ambiguous"};
	const struct smtpcode_entry *p = m->provider;
	member(k, "id", smtpcode_text(p, SMTPCODE_CODE), 1);
	member(k, "name", smtpcode_text(p, SMTPCODE_NAME), 0);
	member(k, "marker", m->marker, 0);
	member(k, "rule", how[m->how], 0);
	member(k, "phrase", m->phrase, 0);
	member(k, "verified", m->entry ? smtpcode_text(m->entry,
	                                               SMTPCODE_VERIFIED) : NULL, 0);
	PUT(k, ",\"given\":");
	put(k, m->given ? "true" : "false");
	PUT(k, ",\"differs\":");
	put(k, m->entry && smtpcode_value(m->entry, SMTPCODE_DIFFERS) == 2
	           ? "true" : "false");
	PUT(k, "}");
}

/* v in decimal into d[0..n), n its number of digits; two digits at a
 * time. */
static void digits(char *d, size_t n, unsigned long v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930313233"
	    "34353637383940414243444546474849505152535455565758596061626364656667"
	    "6869707172737475767778798081828384858687888990919293949596979899";

	for (; v >= 100; v /= 100) {
		n -= 2;
		memcpy(d + n, pairs + 2 * (v % 100), 2);
	}
	if (v >= 10)
		memcpy(d + n - 2, pairs + 2 * v, 2);
	else
		d[n - 1] = (char)('0' + v);
}

/* A number, without printf: this runs once per record, so its digits go
 * straight into the sink. */
void sink_number(struct sink *k, unsigned long v)
{
	static const unsigned long powers[] = {10, 100, 1000, 10000, 100000,
	    1000000, 10000000, 100000000, 1000000000};
	char buf[24], *d;
	size_t n = 1;

	while (n <= sizeof powers / sizeof *powers && v >= powers[n - 1])
		n++;
	if (n > sizeof powers / sizeof *powers) /* ten digits or more */
		for (unsigned long t = v / powers[n - 2]; t >= 10; t /= 10)
			n++;
	if (!k) {
		digits(buf, n, v);
		out_write(buf, n);
	} else if ((d = sink_room(k, n)) != NULL) {
		digits(d, n, v);
	}
}

/*
 * A record's "{"file":NAME" (its R_NAME key, first).  It is the same for
 * every record of a file: made once per file (per thread: the log modes
 * render on several), and copied after that, when it fits in the room
 * kept for it.  key[0..n) is the key's literal, as json_R_NAME() takes
 * it (the same each time: there is one key of this kind).
 */
static void json_file(struct sink *k, const char *key, size_t n,
                      const char *file)
{
	static _Thread_local const char *last;
	static _Thread_local size_t len;
	static _Thread_local char text[256];
	static _Thread_local struct sink made; /* in text */

	/* (!last: file is never NULL, but clang's analyzer cannot tell.) */
	if (!last || file != last) {
		last = file;
		len = strlen(file);
		made = (struct sink){text, 0, sizeof text, false};
		sink_write(&made, key, n);
		json_string(&made, file, len);
	}
	if (k && !made.full) {
		sink_write(k, made.text, made.len);
	} else {
		sink_write(k, key, n);
		json_string(k, file, len);
	}
}

/*
 * The members of a record's keys (record_fields.def), by kind (record.h):
 * json_KIND() writes key[0..n), the key's literal with the '{' or ','
 * before it and the ':' after, then the value; or, when the record does
 * not carry the key or the value is absent, key[0..n + 4), where the
 * literal goes on with "null".
 */
static inline void json_R_NAME(struct sink *k, const char *key, size_t n,
                               bool carried, const char *s)
{
	if (carried)
		json_file(k, key, n, s);
	else
		sink_write(k, key, n + 4);
}

static inline void json_R_LINE(struct sink *k, const char *key, size_t n,
                               bool carried, unsigned long line)
{
	if (carried) {
		sink_write(k, key, n);
		sink_number(k, line);
	} else {
		sink_write(k, key, n + 4);
	}
}

static inline void json_R_INDEX(struct sink *k, const char *key, size_t n,
                                bool carried, long i)
{
	/* a message's own record: null */
	json_R_LINE(k, key, n, carried && i >= 0, (unsigned long)i);
}

/* A span of the input, whole: a string, or null when absent. */
static inline void json_R_TEXT(struct sink *k, const char *key, size_t n,
                               bool carried, struct smtpcode_text t)
{
	if (carried && t.len) {
		sink_write(k, key, n);
		json_string(k, t.s, t.len);
	} else {
		sink_write(k, key, n + 4);
	}
}

static inline void json_R_WORD(struct sink *k, const char *key, size_t n,
                               bool carried, const char *s)
{
	if (carried && s && *s) {
		sink_write(k, key, n);
		json_string(k, s, strlen(s));
	} else {
		sink_write(k, key, n + 4);
	}
}

/* Where a record came from, and the codes exactly as seen: its object up
 * to the verdict's members. */
void json_origin(const struct origin *o, struct sink *k)
{
	const enum record_mode mode = record_mode(o);
	bool first = true;

#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before)    \
	json_##kind(k, first ? "{\"" #key "\":null" : ",\"" #key "\":null",   \
	            sizeof(",\"" #key "\":") - 1, RECORD_CARRIES(modes, mode), \
	            o->key);                                                  \
	first = false;
#include "record_fields.def"
#undef RECORD_FIELD
}

/* A record's verdict: the lookup's keys but the long texts, which a
 * lookup of the code gives. */
static bool in_record(enum field_id f)
{
	return f != F_INPUT && f != F_BASIC && f != F_MEANING &&
	       f != F_CAUSES && f != F_FIXES && f != F_RELATED &&
	       f != F_SOURCES && f != F_VERDICT_FROM && f != F_REASON_PHRASE &&
	       f != F_FREQUENCY && f != F_DURATION && f != F_AVOID && f != F_FAQ;
}

/* "frequency": {"value": "occasional", "note": "..."} */
static void json_frequency(struct sink *k, const struct row *w,
                           const struct value *v)
{
	member(k, "value", v->s, 1);
	member(k, "note", smtpcode_text(w->entry, SMTPCODE_FREQUENCY_NOTE), 0);
	PUT(k, "}");
}

/* "faq": [{"question": "...?", "answer": "..."}] */
static void json_faq(struct sink *k, const struct smtpcode_entry *e)
{
	size_t n = e ? smtpcode_count(e, SMTPCODE_FAQ) : 0;
	PUT(k, "[");
	for (size_t i = 0; i < n; i++) {
		const char *item = smtpcode_item(e, SMTPCODE_FAQ, i).text;
		size_t qlen;
		const char *answer = faq_split(item, &qlen);
		if (i)
			PUT(k, ",");
		PUT(k, "{\"question\":");
		json_string(k, item, qlen);
		PUT(k, ",\"answer\":");
		json_string(k, answer, strlen(answer));
		PUT(k, "}");
	}
	PUT(k, "]");
}

static void json_value(struct sink *k, const struct row *w,
                       const struct value *v)
{
	switch (v->type) {
	case V_NULL:
	case V_UNKNOWN: PUT(k, "null"); break;
	case V_STRING: json_string(k, v->s, strlen(v->s)); break;
	case V_BOOL: put(k, v->b ? "true" : "false"); break;
	case V_LIST:
	case V_FIXES:
	case V_RELATED: json_list(k, w->entry, v); break;
	case V_PROVIDER: json_provider(k, &w->r->match); break;
	case V_FREQUENCY: json_frequency(k, w, v); break;
	case V_FAQ: json_faq(k, w->entry); break;
	case V_WARNINGS:
		PUT(k, "[");
		for (size_t i = 0; i < w->nwarnings; i++) {
			if (i)
				PUT(k, ",");
			json_string(k, w->warnings[i], strlen(w->warnings[i]));
		}
		PUT(k, "]");
		break;
	}
}

/* The members of fields.h from the first (after "{") or after others
 * (after ","): all of them for a lookup, in_record() ones for a record. */
static void json_fields(struct sink *k, const struct row *w, bool record)
{
	bool first = !record;
	for (int f = 0; f < NFIELDS; f++) {
		struct value v;
		if (record && !in_record((enum field_id)f))
			continue;
		v = field_value(w, (enum field_id)f);
		put(k, first ? "{\"" : ",\"");
		put(k, field_name((enum field_id)f));
		PUT(k, "\":");
		json_value(k, w, &v);
		first = false;
	}
	PUT(k, "}\n");
}

void json_verdict(const struct row *w, struct sink *k)
{
	json_fields(k, w, true);
}

static void json_row(const struct row *w, struct sink *k)
{
	if (w->origin)
		json_origin(w->origin, k);
	json_fields(k, w, w->origin != NULL);
}

/* A record (--mail's) is put together in place in RECORD_ROOM of the
 * output's buffer, as the log modes' are (render_record.c); a lookup's
 * entry (a single one, often longer) is written piece by piece. */
void render_json(const struct row *w)
{
	struct sink k = {w->origin ? out_reserve(RECORD_ROOM) : NULL, 0,
	                 RECORD_ROOM, false};

	if (k.text)
		json_row(w, &k);
	if (!k.text || k.full)
		json_row(w, NULL);
	else
		out_commit(k.len);
}
