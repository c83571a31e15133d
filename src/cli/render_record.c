/*
 * Records from logs and messages: the annotated line, and one line or
 * object per code found.  Input text is shown with control characters
 * escaped.
 *
 * A record is its origin (file, line, recipient: new each time) and its
 * verdict (the same for every record of the same code and provider
 * entry).  render_record_verdict() renders the verdict alone, so that the
 * log modes can render it once and copy it (logs.c); render_record()
 * renders both, for the rest.
 */
#include <stdint.h>
#include <string.h>

#include "logs.h"
#include "output.h"
#include "render.h"
#include "scan.h"

/* Whether the 8 bytes of w are all printable ASCII, tested at once (the
 * classic "a byte below n" and "a byte above n" tests on a word, exact
 * for "any"). */
static bool printable8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones << 7;
	return !((((w - ones * 0x20) & ~w) | ((w + ones) | w)) & highs);
}

static bool printable(const char *s, size_t n)
{
	uint64_t w;
	size_t i = 0;
	if (n < 8) {
		for (; i < n; i++)
			if (s[i] < 0x20 || s[i] > 0x7e)
				return false;
		return true;
	}
	for (; n - i > 8; i += 8) {
		memcpy(&w, s + i, sizeof w);
		if (!printable8(w))
			return false;
	}
	memcpy(&w, s + n - 8, sizeof w); /* the last word, overlapping */
	return printable8(w);
}

#ifdef SCAN_SSE2
/* Whether the sixteen bytes of x are all printable ASCII: as signed bytes,
 * those below 0x20 and those from 0x80 on are less than 0x20, and 0x7f is
 * the one left above 0x7e. */
static bool printable16(__m128i x)
{
	__m128i low = _mm_cmplt_epi8(x, _mm_set1_epi8(0x20));
	__m128i del = _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f));
	return !_mm_movemask_epi8(_mm_or_si128(low, del));
}
#endif

/*
 * Text from the input, shown through out_escaped(), which alone decides
 * how bytes other than printable ASCII appear.  Printable ASCII it shows
 * as it is, so such text is put in a sink directly, each word tested as
 * it is copied; any other fills the sink, so that the record is written
 * out piece by piece instead.
 */
static void escaped(struct sink *k, const char *s, size_t n)
{
	uint64_t w;
	char *d;

	if (!k) {
		out_escaped(stdout, s, n);
	} else if (n < 8) {
		if (printable(s, n))
			sink_write(k, s, n);
		else
			sink_fail(k);
	} else if ((d = sink_room(k, n)) == NULL) {
		return;
#ifdef SCAN_SSE2
	} else if (n >= 16) { /* sixteen bytes a step, the last overlapping */
		for (size_t i = 0;; i += 16) {
			__m128i x;
			if (n - i < 16)
				i = n - 16;
			x = scan_load(s + i);
			if (!printable16(x)) {
				sink_fail(k);
				return;
			}
			_mm_storeu_si128((__m128i *)(void *)(d + i), x);
			if (i == n - 16)
				return;
		}
#endif
	} else {
		for (size_t i = 0;; i += 8) {
			if (n - i < 8) /* the last word, overlapping */
				i = n - 8;
			memcpy(&w, s + i, sizeof w);
			if (!printable8(w)) {
				sink_fail(k);
				return;
			}
			memcpy(d + i, &w, sizeof w);
			if (i == n - 8)
				return;
		}
	}
}

static void put_text(struct sink *k, struct smtpcode_text t)
{
	if (t.len)
		escaped(k, t.s, t.len);
	else
		SINK_LITERAL(k, "-");
}

static void put(struct sink *k, const char *s)
{
	sink_write(k, s, strlen(s));
}

static const char *value(const struct row *w, enum field_id f)
{
	struct value v = field_value(w, f);
	return v.type == V_STRING ? v.s : v.type == V_BOOL ? (v.b ? "yes" : "no")
	                                                   : "-";
}

/* "4.3.1 temporary (system): Mail system full; retry auto, suppress no",
 * and " [gmail]" when a provider's entry answers. */
static void verdict(const struct row *w, struct sink *k)
{
	const struct smtpcode_match *m = &w->r->match;
	const char *const pieces[] = {w->code, " ", value(w, F_SEVERITY), " (",
	    value(w, F_SCOPE), "): ", value(w, F_NAME), "; retry ",
	    value(w, F_RETRY), ", suppress ", value(w, F_SUPPRESS)};
	for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++)
		put(k, pieces[i]);
	if (m->entry) {
		const char *id = smtpcode_text(m->provider, SMTPCODE_CODE);
		SINK_LITERAL(k, " [");
		put(k, id);
		SINK_LITERAL(k, "]");
	}
}

/* The MTA's own dsn= when it says something else than the reply's code
 * (code[0..code_len)). */
static void dsn_note(struct sink *k, const struct origin *o, const char *code,
                     size_t code_len)
{
	if (o->dsn.len &&
	    (o->dsn.len != code_len || !scan_same(o->dsn.s, code, code_len)) &&
	    strcmp(o->verdict_from, "dsn") != 0) {
		SINK_LITERAL(k, "; dsn=");
		put_text(k, o->dsn);
	}
}

/* The columns from the code on: code, severity, scope, acts, reason,
 * name. */
static void tsv_verdict(const struct row *w, struct sink *k)
{
	const char *const columns[] = {w->code, value(w, F_SEVERITY),
	    value(w, F_SCOPE), value(w, F_ACTS), value(w, F_REASON),
	    value(w, F_NAME)};
	for (size_t i = 0; i < sizeof columns / sizeof *columns; i++) {
		SINK_LITERAL(k, "\t");
		put(k, columns[i]);
	}
	SINK_LITERAL(k, "\n");
}

void render_record_verdict(enum record_format format, const struct row *w,
                           struct sink *k)
{
	switch (format) {
	case RECORD_JSON: json_verdict(w, k); break;
	case RECORD_TSV: tsv_verdict(w, k); break;
	default: verdict(w, k); break;
	}
}

/*
 * A record's file name, escaped.  It is the same for every record of a
 * file: its length and whether it needs escaping are found once per file
 * (per thread: the log modes render on several), not once per record.
 */
static void file_name(struct sink *k, const char *file)
{
	static _Thread_local const char *last;
	static _Thread_local size_t len;
	static _Thread_local bool plain;

	if (file != last) {
		len = strlen(file);
		plain = printable(file, len);
		last = file;
	}
	if (k && plain)
		sink_write(k, file, len);
	else
		escaped(k, file, len);
}

/*
 * A log record's line number.  A thread's records come in the order of
 * their lines, most a line or two apart: the last number's digits are
 * kept and counted up, which costs less than writing them anew (a
 * division per two digits).  Any other number is written anew.
 */
static inline void line_number(struct sink *k, unsigned long line)
{
	/* last's digits end text, the bytes before them '0', so that a
	 * carry out of the first digit makes a new one. */
	static _Thread_local char text[24];
	static _Thread_local unsigned long last;
	static _Thread_local size_t len; /* 0: none kept */
	char *end = text + sizeof text;
	unsigned long gap = line - last; /* huge when line <= last */

	if (!k) {
		sink_number(k, line);
		return;
	}
	if (len && gap - 1 < 16) {
		do {
			char *d = end - 1;
			while (*d == '9')
				*d-- = '0';
			++*d;
			if (end - d > (ptrdiff_t)len)
				len = (size_t)(end - d);
		} while (--gap);
	} else {
		struct sink t = {text, 0, sizeof text, false};
		sink_number(&t, line);
		memmove(end - t.len, text, t.len);
		memset(text, '0', sizeof text - t.len);
		len = t.len; /* at most 20 digits: never full */
	}
	last = line;
	/* len < sizeof text always; said so, the compiler sees the copy
	 * stays inside text. */
	sink_write(k, end - len, len < sizeof text ? len : 0);
}

/* "FILE:LINE: " (logs) or "FILE: recipient N: " (messages), TSV's
 * "FILE\tLINE\t" or "FILE\t#INDEX\t", then the recipient (and for TSV
 * its domain). */
static void record_origin(enum record_format format, const struct origin *o,
                          struct sink *k)
{
	file_name(k, o->file);
	if (format == RECORD_TSV) {
		SINK_LITERAL(k, "\t");
		if (o->index >= 0)
			SINK_LITERAL(k, "#");
		if (o->index < 0)
			line_number(k, o->line);
		else
			sink_number(k, (unsigned long)o->index);
		SINK_LITERAL(k, "\t");
		put_text(k, o->recipient);
		SINK_LITERAL(k, "\t");
		put_text(k, o->domain);
		return;
	}
	if (o->index < 0) {
		SINK_LITERAL(k, ":");
		line_number(k, o->line);
	} else {
		SINK_LITERAL(k, ": recipient ");
		sink_number(k, (unsigned long)o->index + 1);
	}
	SINK_LITERAL(k, ": ");
	put_text(k, o->recipient);
	SINK_LITERAL(k, " ");
}

/* A record: its origin, its verdict, and for text the dsn note. */
static void record_with(enum record_format format, const struct origin *o,
                        const struct rendered *v, struct sink *k)
{
	if (format == RECORD_JSON)
		json_origin(o, k);
	else
		record_origin(format, o, k);
	sink_write(k, v->text, v->len);
	if (format == RECORD_TEXT) {
		dsn_note(k, o, v->code, v->code_len);
		SINK_LITERAL(k, "\n");
	}
}

/*
 * Records are put together in place in the output's buffer and committed
 * at once: a call to the output per piece cost more than the pieces.  A
 * record that does not fit (a long reply, a long recipient, text to
 * escape) is written piece by piece instead.
 */
#define RECORD_ROOM 8192

void render_record_with(enum record_format format, const struct origin *o,
                        const struct rendered *v)
{
	struct sink k = {out_reserve(RECORD_ROOM), 0, RECORD_ROOM, false};

	if (k.text)
		record_with(format, o, v, &k);
	if (!k.text || k.full)
		record_with(format, o, v, NULL);
	else
		out_commit(k.len);
}

static void annotation_with(const char *line, size_t len,
                            const struct origin *o, const struct rendered *v,
                            struct sink *k)
{
	escaped(k, line, len);
	SINK_LITERAL(k, "\n  => ");
	sink_write(k, v->text, v->len);
	dsn_note(k, o, v->code, v->code_len);
	SINK_LITERAL(k, "\n");
}

void render_annotation_with(const char *line, size_t len,
                            const struct origin *o, const struct rendered *v)
{
	struct sink k = {out_reserve(RECORD_ROOM), 0, RECORD_ROOM, false};

	if (k.text)
		annotation_with(line, len, o, v, &k);
	if (!k.text || k.full)
		annotation_with(line, len, o, v, NULL);
	else
		out_commit(k.len);
}

void render_annotation(const char *line, size_t len, const struct row *w)
{
	escaped(NULL, line, len);
	SINK_LITERAL(NULL, "\n");
	if (!w)
		return;
	SINK_LITERAL(NULL, "  => ");
	verdict(w, NULL);
	dsn_note(NULL, w->origin, w->code, strlen(w->code));
	SINK_LITERAL(NULL, "\n");
}

void render_record(enum record_format format, const struct row *w)
{
	if (format == RECORD_JSON) {
		render_json(w);
		return;
	}
	record_origin(format, w->origin, NULL);
	render_record_verdict(format, w, NULL);
	if (format == RECORD_TEXT) {
		dsn_note(NULL, w->origin, w->code, strlen(w->code));
		SINK_LITERAL(NULL, "\n");
	}
}
