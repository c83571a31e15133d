/*
 * Records from logs and messages: the annotated line, and one line or
 * object per code found.  Input text is shown with control characters
 * escaped.
 *
 * A record is its origin (the keys of record_fields.def: file, line,
 * recipient...: new each time) and its verdict (the same for every record
 * of the same code and provider entry).  The origin's writers are made
 * from that list (record.h).  render_record_verdict() renders the verdict
 * alone, so that the log modes can render it once and copy it (logs.c);
 * render_record() renders both, for the rest.
 */
#include <stdint.h>
#include <string.h>

#include "layout.h"
#include "logs.h"
#include "output.h"
#include "record.h"
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
	/* A line without a code whose words gave its reason: that reason,
	 * and what it says of the address (unknown unless the report is
	 * final; no severity or retry without a code). */
	if (!w->code[0] && w->verdict_from &&
	    strcmp(w->verdict_from, "words") == 0) {
		SINK_LITERAL(k, "no code; by its words: ");
		put(k, value(w, F_REASON));
		SINK_LITERAL(k, ", suppress ");
		put(k, value(w, F_SUPPRESS));
		return;
	}
	const unsigned char *val = w->verdict.value;
	bool final = val[SMTPCODE_SEVERITY] == SMTPCODE_TEMPORARY &&
	             val[SMTPCODE_FINAL] == 2;
	/* The severity word in colour when colour is on (text only: this is
	 * the text record's verdict, which logs.c renders once a verdict). */
	const char *severity = value(w, F_SEVERITY);
	const char *on = severity_sgr(severity);
	const char *const pieces[] = {w->code, " ", on, severity,
	    *on ? out_sgr(SGR_RESET) : "", final ? ", final (" : " (",
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

/*
 * The keys of a record (record_fields.def), each written by the functions
 * of its kind (record.h), which take the same arguments for every kind:
 * write_KIND() into sink k, piece by piece (text from the input escaped);
 * place_KIND() in place (see place()); most_KIND() the most place_KIND()
 * takes.  format is RECORD_TEXT or RECORD_TSV (a recipient's index is
 * counted from 1 in text alone).  The writers put the literal before each
 * key (record_fields.def's text_before or tsv_before).
 */

/* A line number's digits, into k. */
static void line_number(struct sink *k, unsigned long line)
{
	size_t n;
	const char *digits = line_digits(line, &n);

	sink_write(k, digits, n);
}

static void write_R_NAME(struct sink *k, enum record_format format,
                         const char *s)
{
	(void)format;
	escaped(k, s, strlen(s));
}

static void write_R_LINE(struct sink *k, enum record_format format,
                         unsigned long line)
{
	(void)format;
	line_number(k, line);
}

static void write_R_INDEX(struct sink *k, enum record_format format, long i)
{
	if (i < 0) /* the message's own record */
		put(k, "-");
	else
		sink_number(k, (unsigned long)i + (format == RECORD_TSV ? 0 : 1));
}

static void write_R_TEXT(struct sink *k, enum record_format format,
                         struct smtpcode_text t)
{
	(void)format;
	put_text(k, t);
}

static void write_R_WORD(struct sink *k, enum record_format format,
                         const char *s)
{
	(void)format;
	put(k, s && *s ? s : "-");
}

/* The literal lit into k, when there is one. */
#define WRITE_LITERAL(k, lit)                                                 \
	do {                                                                  \
		if (sizeof(lit) > 1)                                          \
			SINK_LITERAL(k, lit);                                 \
	} while (0)

int record_key_parse(const char *name)
{
	static const char *const keys[] = {
#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before) #key,
#include "record_fields.def"
#undef RECORD_FIELD
	};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (strcmp(keys[i], name) == 0)
			return (int)i;
	return -1;
}

void render_record_key(const struct origin *o, int key)
{
	int i = 0;

#define RECORD_FIELD(key_, kind, modes, text, text_before, tsv, tsv_before)   	if (i++ == key)                                                       		write_##kind(NULL, RECORD_TSV, o->key_);
#include "record_fields.def"
#undef RECORD_FIELD
	SINK_LITERAL(NULL, "\n");
}

/* A key's value as text, to compare with a code (TEXT_NOTE): a span's or
 * a word's; a number is never a note. */
static inline struct smtpcode_text text_R_TEXT(struct smtpcode_text t)
{
	return t;
}

static inline struct smtpcode_text text_of(const char *s)
{
	return (struct smtpcode_text){s, s ? strlen(s) : 0};
}

#define text_R_NAME(s) text_of(s)
#define text_R_WORD(s) text_of(s)
#define text_R_LINE(n) ((void)(n), (struct smtpcode_text){NULL, 0})
#define text_R_INDEX(n) ((void)(n), (struct smtpcode_text){NULL, 0})

/* Whether a TEXT_NOTE key of value t is shown: when it says something
 * else than the code the verdict rests on (code[0..code_len)), and the
 * verdict does not rest on the key itself (verdict_from). */
static inline bool note_shown(struct smtpcode_text t, const char *key,
                              const struct origin *o, const char *code,
                              size_t code_len)
{
	return t.len && (t.len != code_len || !scan_same(t.s, code, code_len)) &&
	       (!o->verdict_from || strcmp(o->verdict_from, key) != 0);
}

/* The TEXT_NOTE keys of a text record, after its verdict (for the code
 * code[0..code_len)), into k. */
static void notes(struct sink *k, const struct origin *o, const char *code,
                  size_t code_len)
{
	const enum record_mode mode = record_mode(o);

	(void)mode; /* read only for keys one mode carries */
#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before)    \
	if ((text) == TEXT_NOTE && RECORD_CARRIES(modes, mode) &&             \
	    note_shown(text_##kind(o->key), #key, o, code, code_len)) {       \
		WRITE_LITERAL(k, text_before);                                \
		write_##kind(k, RECORD_TEXT, o->key);                         \
	}
#include "record_fields.def"
#undef RECORD_FIELD
}

/* A text record's TEXT_HEAD keys and the space before its verdict, or a
 * TSV record's columns before its verdict's, written to the output piece
 * by piece: "FILE:LINE: RECIPIENT " (logs), "FILE: recipient N: RECIPIENT
 * " (messages), "FILE\tLINE\tRECIPIENT\tDOMAIN", "FILE\t#INDEX\t...".
 * text_in_place() and tsv_in_place() write the same for a log record that
 * needs no escaping. */
static void record_origin(enum record_format format, const struct origin *o)
{
	const enum record_mode mode = record_mode(o);
	const bool tsv = format == RECORD_TSV;

#define RECORD_FIELD(key, kind, modes, text, text_before, tsv_, tsv_before)   \
	if (RECORD_CARRIES(modes, mode) &&                                    \
	    (tsv ? (tsv_) == TSV_COLUMN : (text) == TEXT_HEAD)) {             \
		if (tsv)                                                      \
			WRITE_LITERAL(NULL, tsv_before);                      \
		else                                                          \
			WRITE_LITERAL(NULL, text_before);                     \
		write_##kind(NULL, format, o->key);                           \
	}
#include "record_fields.def"
#undef RECORD_FIELD
	if (!tsv)
		SINK_LITERAL(NULL, " ");
}

/* A text or TSV record with its verdict rendered (v), piece by piece:
 * its origin, its verdict, and for text its notes. */
static void record_with(enum record_format format, const struct origin *o,
                        const struct rendered *v)
{
	record_origin(format, o);
	sink_write(NULL, v->text, v->len);
	if (format == RECORD_TEXT) {
		notes(NULL, o, v->code, v->code_len);
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

/* The place_KIND() functions; f is what file_name() found of the file's
 * name (R_NAME), found plain before. */
static ALWAYS_INLINE char *place_R_NAME(char *d, enum record_format format,
                                        const struct file_name *f,
                                        const char *s)
{
	(void)format;
	(void)s;
	return place(d, f->s, f->len);
}

static ALWAYS_INLINE char *place_R_LINE(char *d, enum record_format format,
                                        const struct file_name *f,
                                        unsigned long line)
{
	(void)format;
	(void)f;
	return place_line(d, line);
}

static char *place_R_INDEX(char *d, enum record_format format,
                           const struct file_name *f, long i)
{
	struct sink k = {d, 0, 20, false};

	(void)f;
	write_R_INDEX(&k, format, i);
	return d + k.len;
}

static ALWAYS_INLINE char *place_R_TEXT(char *d, enum record_format format,
                                        const struct file_name *f,
                                        struct smtpcode_text t)
{
	(void)format;
	(void)f;
	return place_text(d, t);
}

static ALWAYS_INLINE char *place_R_WORD(char *d, enum record_format format,
                                        const struct file_name *f,
                                        const char *s)
{
	(void)format;
	(void)f;
	if (!s || !*s)
		return PLACE_LITERAL(d, "-");
	return place(d, s, strlen(s));
}

static inline size_t most_R_NAME(const struct file_name *f, const char *s)
{
	(void)s;
	return f->len;
}

static inline size_t most_R_LINE(const struct file_name *f,
                                 unsigned long line)
{
	(void)f;
	(void)line;
	return 20;
}

static inline size_t most_R_INDEX(const struct file_name *f, long i)
{
	(void)f;
	(void)i;
	return 20;
}

static inline size_t most_R_TEXT(const struct file_name *f,
                                 struct smtpcode_text t)
{
	(void)f;
	return t.len + 1;
}

static inline size_t most_R_WORD(const struct file_name *f, const char *s)
{
	(void)f;
	return (s ? strlen(s) : 0) + 1;
}

/* The larger of the lengths of two literals. */
#define LONGER(a, b) (sizeof(a) > sizeof(b) ? sizeof(a) - 1 : sizeof(b) - 1)

/* The most a log record takes, text or TSV: its verdict, a space and a
 * newline, and each key either shows, with the literal before it. */
static size_t record_most(const struct file_name *f, const struct origin *o,
                          const struct rendered *v)
{
	size_t n = v->len + 2;

#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before)    \
	if (RECORD_CARRIES(modes, REC_LOG) &&                                 \
	    ((text) != TEXT_NO || (tsv) == TSV_COLUMN))                       \
		n += LONGER(text_before, tsv_before) + most_##kind(f, o->key);
#include "record_fields.def"
#undef RECORD_FIELD
	return n;
}

/* A key of a log record in place, after the literal lit: NULL out of
 * the writer when it cannot be. */
#define PLACE_KEY(d, lit, kind, format, f, value)                             \
	do {                                                                  \
		(d) = PLACE_LITERAL((d), lit);                                \
		if (!((d) = place_##kind((d), (format), (f), (value))))       \
			return NULL;                                          \
	} while (0)

/* A log record's TEXT_HEAD keys, " ", its verdict, the notes shown, "\n":
 * as record_with() writes them. */
static char *text_in_place(char *d, const struct file_name *f,
                           const struct origin *o, const struct rendered *v)
{
#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before)    \
	if ((text) == TEXT_HEAD && RECORD_CARRIES(modes, REC_LOG))            \
		PLACE_KEY(d, text_before, kind, RECORD_TEXT, f, o->key);
#include "record_fields.def"
#undef RECORD_FIELD
	d = PLACE_LITERAL(d, " ");
	d = place(d, v->text, v->len);
#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before)    \
	if ((text) == TEXT_NOTE && RECORD_CARRIES(modes, REC_LOG) &&          \
	    note_shown(text_##kind(o->key), #key, o, v->code, v->code_len))   \
		PLACE_KEY(d, text_before, kind, RECORD_TEXT, f, o->key);
#include "record_fields.def"
#undef RECORD_FIELD
	return PLACE_LITERAL(d, "\n");
}

/* A log record's TSV columns, then the verdict's: as record_with() writes
 * them. */
static char *tsv_in_place(char *d, const struct file_name *f,
                          const struct origin *o, const struct rendered *v)
{
#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before)    \
	if ((tsv) == TSV_COLUMN && RECORD_CARRIES(modes, REC_LOG))            \
		PLACE_KEY(d, tsv_before, kind, RECORD_TSV, f, o->key);
#include "record_fields.def"
#undef RECORD_FIELD
	return place(d, v->text, v->len);
}

/*
 * Records are put together in place in the output's buffer and committed
 * at once: a call to the output per piece cost more than the pieces.  A
 * text or TSV record's most is known before, and reserved.  JSON's is not
 * worth finding (an escape is longer than what it stands for):
 * RECORD_ROOM (render.h) is reserved, and each piece tested against it.  A record
 * that does not fit (a long reply, a long recipient), or has text to
 * escape, is written piece by piece instead.
 */
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
	if (record_mode(o) == REC_LOG && f->plain &&
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
	notes(k, o, v->code, v->code_len);
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
	notes(NULL, w->origin, w->code, strlen(w->code));
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
		notes(NULL, w->origin, w->code, strlen(w->code));
		SINK_LITERAL(NULL, "\n");
	}
}

void render_record_value(const struct row *w, int record_key, int field)
{
	if (record_key >= 0)
		render_record_key(w->origin, record_key);
	else
		render_field(w, (enum field_id)field);
}
