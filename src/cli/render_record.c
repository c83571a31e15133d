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

/*
 * Text from the input is shown as it is where it is plain (out_plain():
 * printable ASCII but the backslash, which out_escaped() shows as \\ so
 * that "\x09" in the input does not read as an escaped tab).
 */

/* The high bit of a byte of the result set when any of the 8 bytes of w
 * is not plain, all tested at once (the classic "a byte below n", "a
 * byte above n" and "a zero byte" (of w ^ '\\') tests on a word, exact
 * for "any"). */
static uint64_t not_plain8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones << 7;
	uint64_t backslash = w ^ ones * '\\';
	return (((w - ones * 0x20) & ~w) | ((w + ones) | w) |
	        ((backslash - ones) & ~backslash)) & highs;
}

static bool plain(const char *s, size_t n)
{
	uint64_t w;
	size_t i = 0;
	if (n < 8) {
		for (; i < n; i++)
			if (!out_plain(s[i]))
				return false;
		return true;
	}
	for (; n - i > 8; i += 8) {
		memcpy(&w, s + i, sizeof w);
		if (not_plain8(w))
			return false;
	}
	memcpy(&w, s + n - 8, sizeof w); /* the last word, overlapping */
	return !not_plain8(w);
}

/*
 * d[0..n) = s[0..n), when that is all plain: whether it was.  A word at a
 * time as copy_bytes() copies, the last one overlapping, each tested as
 * it goes and the tests' results looked at once at the end (d has the
 * text whatever it is).
 */
static inline bool copy_plain(char *d, const char *s, size_t n)
{
	uint64_t w, bad = 0;

	if (n < 8) {
		for (size_t i = 0; i < n; i++) {
			if (!out_plain(s[i]))
				return false;
			d[i] = s[i];
		}
		return true;
	}
#ifdef SCAN_SSE2
	if (n >= 16) {
		__m128i x, all = _mm_set1_epi8(-1);
		for (size_t i = 0; i + 16 < n; i += 16) {
			x = scan_load(s + i);
			all = _mm_and_si128(all, out_plain16(x));
			_mm_storeu_si128((__m128i *)(void *)(d + i), x);
		}
		x = scan_load(s + n - 16);
		all = _mm_and_si128(all, out_plain16(x));
		_mm_storeu_si128((__m128i *)(void *)(d + n - 16), x);
		return _mm_movemask_epi8(all) == 0xffff;
	}
#endif
	for (size_t i = 0; i + 8 < n; i += 8) {
		memcpy(&w, s + i, sizeof w);
		bad |= not_plain8(w);
		memcpy(d + i, &w, sizeof w);
	}
	memcpy(&w, s + n - 8, sizeof w);
	bad |= not_plain8(w);
	memcpy(d + n - 8, &w, sizeof w);
	return !bad;
}

/*
 * Text from the input, shown through out_escaped(), which alone decides
 * how bytes other than plain ones appear.  Plain text it shows as it is,
 * so such text is put in a sink directly; any other fills the sink, so
 * that the record is written out piece by piece instead.
 */
static void escaped(struct sink *k, const char *s, size_t n)
{
	char *d;

	if (!k)
		out_escaped(stdout, s, n);
	else if ((d = sink_room(k, n)) != NULL && !copy_plain(d, s, n))
		sink_fail(k);
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
	     : v.type == V_UNKNOWN ? "unknown" : "-";
}

/* "4.3.1 temporary (system): Mail system full; retry auto, suppress no",
 * "temporary, final" for a temporary code that ended delivery, and
 * " [gmail]" when a provider's entry answers. */
static void verdict(const struct row *w, struct sink *k)
{
	const struct smtpcode_match *m = &w->r->match;
	const unsigned char *val = w->verdict.value;
	bool final = val[SMTPCODE_SEVERITY] == SMTPCODE_TEMPORARY &&
	             val[SMTPCODE_FINAL] == 2;
	const char *const pieces[] = {w->code, " ", value(w, F_SEVERITY),
	    final ? ", final (" : " (",
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

/* Whether the MTA's own dsn= is shown: when it says something else than
 * the reply's code (code[0..code_len)). */
static inline bool dsn_differs(const struct origin *o, const char *code,
                               size_t code_len)
{
	return o->dsn.len &&
	       (o->dsn.len != code_len || !scan_same(o->dsn.s, code, code_len)) &&
	       strcmp(o->verdict_from, "dsn") != 0;
}

static void dsn_note(struct sink *k, const struct origin *o, const char *code,
                     size_t code_len)
{
	if (dsn_differs(o, code, code_len)) {
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
 * A record's file name.  It is the same for every record of a file: its
 * length and whether it needs escaping are found once per file (per
 * thread: the log modes render on several), not once per record.
 */
struct file_name {
	const char *s;
	size_t len;
	bool plain; /* shown as it is */
};

static inline const struct file_name *file_name(const char *file)
{
	static _Thread_local struct file_name last;

	if (file != last.s) {
		last.s = file;
		last.len = strlen(file);
		last.plain = plain(file, last.len);
	}
	return &last;
}

/*
 * A log record's line number in decimal: its digits, *n of them.  A
 * thread's records come in the order of their lines, most a line or two
 * apart: the last number's digits are kept and counted up, which costs
 * less than writing them anew (a division per two digits).  Any other
 * number is written anew.
 */
#define LINE_END 24 /* where the digits end in text */

struct line_digits {
	/* The digits end at text + LINE_END, the bytes before them '0', so
	 * that a carry out of the first digit makes a new one; the 16 bytes
	 * after them let up to 16 digits be copied as one piece. */
	char text[LINE_END + 16];
	unsigned long last;
	size_t len; /* 0: none kept */
};

static _Thread_local struct line_digits kept;

/* kept made line's digits, when it is not last + 1 with no carry. */
static void count_to(struct line_digits *k, unsigned long line)
{
	char *end = k->text + LINE_END;
	unsigned long gap = line - k->last; /* huge when line <= last */

	k->last = line;
	if (k->len && gap - 1 < 16) {
		do {
			char *d = end - 1;
			while (*d == '9')
				*d-- = '0';
			++*d;
			if (end - d > (ptrdiff_t)k->len)
				k->len = (size_t)(end - d);
		} while (--gap);
	} else {
		char *d = end;
		memset(k->text, '0', LINE_END);
		do
			*--d = (char)('0' + line % 10);
		while ((line /= 10) != 0);
		k->len = (size_t)(end - d); /* at most 20 digits */
	}
}

static inline const char *line_digits(unsigned long line, size_t *n)
{
	struct line_digits *k = &kept;
	char *end = k->text + LINE_END;

	if (k->len && line - k->last == 1 && end[-1] != '9') {
		++end[-1]; /* most records */
		k->last = line;
	} else {
		count_to(k, line);
	}
	/* len < LINE_END always; said so, the compiler sees the copy stays
	 * inside text. */
	*n = k->len < LINE_END ? k->len : 0;
	return end - *n;
}

/* A log record's line number, to the output. */
static void line_number(unsigned long line)
{
	size_t n;
	const char *digits = line_digits(line, &n);

	sink_write(NULL, digits, n);
}

/* "FILE:LINE: " (logs) or "FILE: recipient N: " (messages), TSV's
 * "FILE\tLINE\t" or "FILE\t#INDEX\t", then the recipient (and for TSV
 * its domain), written to the output piece by piece, text from the input
 * escaped.  text_in_place() and tsv_in_place() write the same for a log
 * record that needs no escaping. */
static void record_origin(enum record_format format, const struct origin *o)
{
	escaped(NULL, o->file, strlen(o->file));
	if (format == RECORD_TSV) {
		SINK_LITERAL(NULL, "\t");
		if (o->index >= 0)
			SINK_LITERAL(NULL, "#");
		if (o->index < 0)
			line_number(o->line);
		else
			sink_number(NULL, (unsigned long)o->index);
		SINK_LITERAL(NULL, "\t");
		put_text(NULL, o->recipient);
		SINK_LITERAL(NULL, "\t");
		put_text(NULL, o->domain);
		return;
	}
	if (o->index < 0) {
		SINK_LITERAL(NULL, ":");
		line_number(o->line);
	} else {
		SINK_LITERAL(NULL, ": recipient ");
		sink_number(NULL, (unsigned long)o->index + 1);
	}
	SINK_LITERAL(NULL, ": ");
	put_text(NULL, o->recipient);
	SINK_LITERAL(NULL, " ");
}

/* A text or TSV record with its verdict rendered (v), piece by piece:
 * its origin, its verdict, and for text the dsn note. */
static void record_with(enum record_format format, const struct origin *o,
                        const struct rendered *v)
{
	record_origin(format, o);
	sink_write(NULL, v->text, v->len);
	if (format == RECORD_TEXT) {
		dsn_note(NULL, o, v->code, v->code_len);
		SINK_LITERAL(NULL, "\n");
	}
}

/*
 * A log record, text or TSV, put together at d, whose room is what
 * record_most() says: its pieces go in without a test of room each.  They
 * return where the record ends, or NULL when text from the input needs
 * escaping (for the record to be written piece by piece instead).
 */
static inline char *place(char *d, const char *s, size_t n)
{
	copy_bytes(d, s, n);
	return d + n;
}

#define PLACE_LITERAL(d, lit) place((d), "" lit, sizeof(lit) - 1)

/* Text from the input, or "-" when there is none.  Always inlined: a
 * call per piece cost as much as a short recipient's copy. */
static ALWAYS_INLINE char *place_text(char *d, struct smtpcode_text t)
{
	if (!t.len)
		return PLACE_LITERAL(d, "-");
	return copy_plain(d, t.s, t.len) ? d + t.len : NULL;
}

/* A line number's digits, copied as sixteen bytes when there are no
 * more: the bytes after the digits are in the room record_most() counts
 * (20 for them, and more after). */
static inline char *place_line(char *d, unsigned long line)
{
	size_t n;
	const char *digits = line_digits(line, &n);

	if (n > 16)
		return place(d, digits, n);
	memcpy(d, digits, 16);
	return d + n;
}

/* The most a log record takes, text or TSV: the file name, the line
 * number (20 digits at most), the recipient, its domain and the dsn (each
 * "-" when absent), the verdict, and 16 bytes for the separators (11 at
 * most). */
static size_t record_most(const struct file_name *f, const struct origin *o,
                          const struct rendered *v)
{
	return f->len + 20 + o->recipient.len + 1 + o->domain.len + 1 +
	       o->dsn.len + 1 + v->len + 16;
}

/* "FILE:LINE: RECIPIENT VERDICT", "; dsn=DSN" when it differs, "\n": as
 * record_with() writes it. */
static char *text_in_place(char *d, const struct file_name *f,
                           const struct origin *o, const struct rendered *v)
{
	d = place(d, f->s, f->len);
	d = PLACE_LITERAL(d, ":");
	d = place_line(d, o->line);
	d = PLACE_LITERAL(d, ": ");
	if (!(d = place_text(d, o->recipient)))
		return NULL;
	d = PLACE_LITERAL(d, " ");
	d = place(d, v->text, v->len);
	if (dsn_differs(o, v->code, v->code_len)) {
		d = PLACE_LITERAL(d, "; dsn=");
		if (!(d = place_text(d, o->dsn)))
			return NULL;
	}
	return PLACE_LITERAL(d, "\n");
}

/* "FILE\tLINE\tRECIPIENT\tDOMAIN", then the verdict's columns: as
 * record_with() writes them. */
static char *tsv_in_place(char *d, const struct file_name *f,
                          const struct origin *o, const struct rendered *v)
{
	d = place(d, f->s, f->len);
	d = PLACE_LITERAL(d, "\t");
	d = place_line(d, o->line);
	d = PLACE_LITERAL(d, "\t");
	if (!(d = place_text(d, o->recipient)))
		return NULL;
	d = PLACE_LITERAL(d, "\t");
	if (!(d = place_text(d, o->domain)))
		return NULL;
	return place(d, v->text, v->len);
}

/*
 * Records are put together in place in the output's buffer and committed
 * at once: a call to the output per piece cost more than the pieces.  A
 * text or TSV record's most is known before, and reserved.  JSON's is not
 * worth finding (an escape is longer than what it stands for):
 * RECORD_ROOM is reserved, and each piece tested against it.  A record
 * that does not fit (a long reply, a long recipient), or has text to
 * escape, is written piece by piece instead.
 */
#define RECORD_ROOM 8192

/* Not inlined: its sink's address is given away, which would cost every
 * text record a stack protector's check too. */
static NOINLINE void json_record_with(const struct origin *o,
                                      const struct rendered *v)
{
	struct sink k = {out_reserve(RECORD_ROOM), 0, RECORD_ROOM, false};

	if (k.text) {
		json_origin(o, &k);
		sink_write(&k, v->text, v->len);
	}
	if (!k.text || k.full) {
		json_origin(o, NULL);
		sink_write(NULL, v->text, v->len);
	} else {
		out_commit(k.len);
	}
}

/* A text or TSV record: not inlined in render_record_with(), so that a
 * JSON record does not pay for saving the registers it uses. */
static NOINLINE void plain_record_with(enum record_format format,
                                       const struct origin *o,
                                       const struct rendered *v)
{
	const struct file_name *f = file_name(o->file);
	char *start, *end = NULL;

	/* Messages' records (o->index) come through render_record(). */
	if (o->index < 0 && f->plain &&
	    (start = out_reserve(record_most(f, o, v))) != NULL)
		end = format == RECORD_TSV ? tsv_in_place(start, f, o, v)
		                           : text_in_place(start, f, o, v);
	if (end)
		out_commit((size_t)(end - start));
	else
		record_with(format, o, v);
}

void render_record_with(enum record_format format, const struct origin *o,
                        const struct rendered *v)
{
	if (format == RECORD_JSON)
		json_record_with(o, v);
	else
		plain_record_with(format, o, v);
}

/* The length of a log line as --annotate shows it: without the CR of a
 * CRLF ending, which ends the line and is not part of its text. */
static inline size_t shown_len(const char *line, size_t len)
{
	return len && line[len - 1] == '\r' ? len - 1 : len;
}

static void annotation_with(const char *line, size_t len,
                            const struct origin *o, const struct rendered *v,
                            struct sink *k)
{
	escaped(k, line, shown_len(line, len));
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
	escaped(NULL, line, shown_len(line, len));
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
	record_origin(format, w->origin);
	render_record_verdict(format, w, NULL);
	if (format == RECORD_TEXT) {
		dsn_note(NULL, w->origin, w->code, strlen(w->code));
		SINK_LITERAL(NULL, "\n");
	}
}
