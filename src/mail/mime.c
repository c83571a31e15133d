/*
 * Reading Internet messages for the bounce parser: RFC 5322 header
 * fields, MIME types and multipart bodies (RFC 2045, 2046), and the
 * quoted-printable and base64 encodings.  See mime.h.
 *
 * Every loop advances through a span towards its end, so each function
 * costs at most a constant times the bytes it is given.
 */
#include <stdint.h>
#include <string.h>

#include "mime.h"
#include "scan.h"

struct span mime_span(const char *p, size_t len)
{
	struct span s = {p, p ? p + len : p};
	return s;
}

struct span mime_trim(struct span s)
{
	while (s.p < s.e && mime_is_space(*s.p))
		s.p++;
	while (s.e > s.p && mime_is_space(s.e[-1]))
		s.e--;
	return s;
}

struct span mime_trim_left(struct span s)
{
	while (s.p < s.e && mime_is_wsp(*s.p))
		s.p++;
	return s;
}

bool mime_istarts_n(struct span s, const char *lit, size_t n)
{
	if (mime_len(s) < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (mime_lower(s.p[i]) != mime_lower(lit[i]))
			return false;
	return true;
}

const char *mime_ifind_n(struct span s, const char *lit, size_t n)
{
	char first;
	if (n == 0 || mime_len(s) < n)
		return NULL;
	first = mime_lower(lit[0]);
	for (const char *p = s.p; p <= s.e - n; p++) {
		struct span rest = {p, s.e};
		if (mime_lower(*p) == first && mime_istarts_n(rest, lit, n))
			return p;
	}
	return NULL;
}

const char *mime_find(struct span s, char c)
{
	return scan_byte(s.p, s.e, c);
}

/* ---- Lines ---- */

/* Most lines are shorter than this: their end is looked for in a window
 * of it first, which spares them the setup of a long search (scan.h's,
 * sixty-four bytes a step, meant for log lines). */
#define SHORT_LINE 63

bool mime_line(struct span *rest, struct span *line)
{
	const char *lf, *window;
	if (mime_empty(*rest))
		return false;
	window = rest->e - rest->p > SHORT_LINE ? rest->p + SHORT_LINE
	                                         : rest->e;
	lf = scan_byte(rest->p, window, '\n');
	if (!lf && window < rest->e)
		lf = scan_byte(window, rest->e, '\n');
	line->p = rest->p;
	line->e = lf ? lf : rest->e;
	rest->p = lf ? lf + 1 : rest->e;
	/* CRLF and LF both end lines: the CR is not part of the text. */
	if (line->e > line->p && line->e[-1] == '\r')
		line->e--;
	return true;
}

bool mime_cr_lines(struct span s)
{
	const char *lf = mime_find(s, '\n');
	struct span first = {s.p, lf ? lf : s.e};
	const char *cr = mime_find(first, '\r');
	if (!cr)
		return false;
	/* "\r\r\n", a CRLF file converted twice, still ends in LF. */
	while (cr < s.e && *cr == '\r')
		cr++;
	return cr == s.e || *cr != '\n';
}

bool mime_blank(struct span line)
{
	for (const char *p = line.p; p < line.e; p++)
		if (!mime_is_space(*p))
			return false;
	return true;
}

/* ---- Header fields ---- */

static bool is_name_char(char c) { return c > ' ' && c < 127 && c != ':'; }

#ifdef SCAN_SSE2
/* Bit i set when at[i] is not a name character: a control, a space,
 * DEL, a byte >= 0x80 (below 0x21 as a signed byte) or ':'. */
static inline unsigned not_name16(const char *at)
{
	__m128i x = scan_load(at);
	__m128i low = _mm_cmplt_epi8(x, _mm_set1_epi8(0x21));
	__m128i del = _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f));
	__m128i colon = _mm_cmpeq_epi8(x, _mm_set1_epi8(':'));
	return (unsigned)_mm_movemask_epi8(
	    _mm_or_si128(low, _mm_or_si128(del, colon)));
}
#endif

/* The first byte of p[0..e) that is not a name character, or e.  Lines
 * of a body come through here too, whose first word may be long:
 * sixteen bytes a step where SSE2 is. */
static const char *name_end(const char *p, const char *e)
{
#ifdef SCAN_SSE2
	for (; e - p >= 16; p += 16) {
		unsigned bad = not_name16(p);
		if (bad)
			return p + __builtin_ctz(bad);
	}
#endif
	while (p < e && is_name_char(*p))
		p++;
	return p;
}

/* The end of the field name that starts line, or NULL: the position of
 * its colon. */
static const char *field_colon(struct span line)
{
	const char *p = name_end(line.p, line.e);
	if (p == line.p)
		return NULL;
	while (p < line.e && mime_is_wsp(*p))
		p++;
	return p < line.e && *p == ':' ? p : NULL;
}

bool mime_field_line(struct span line)
{
	return field_colon(line) != NULL;
}

void mime_header_begin(struct mime_header *h, struct span s)
{
	h->rest = s;
	h->end = s.p;
}

bool mime_header_next(struct mime_header *h, struct mime_field *f)
{
	struct span line, next;
	const char *colon;

	while (mime_line(&h->rest, &line)) {
		if (mime_blank(line))
			return false;
		h->end = line.e;
		colon = field_colon(line);
		if (!colon)
			continue; /* a stray continuation, or garbage */
		f->name.p = line.p;
		f->name.e = colon;
		while (f->name.e > f->name.p && mime_is_wsp(f->name.e[-1]))
			f->name.e--;
		f->value.p = colon + 1;
		f->value.e = line.e;
		/* Continuation lines start with a blank (RFC 5322, 2.2.3); a
		 * line of blanks only ends the block instead. */
		next = h->rest;
		while (!mime_empty(next) && mime_is_wsp(*next.p) &&
		       mime_line(&next, &line) && !mime_blank(line)) {
			f->value.e = h->end = line.e;
			h->rest = next;
		}
		f->value = mime_trim(f->value);
		return true;
	}
	return false;
}

/* ---- Content-Type ---- */

/* Past white space, line breaks and (possibly nested) comments. */
static const char *skip_cfws(const char *p, const char *e)
{
	unsigned depth = 0;
	for (; p < e; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth > 0)
			depth--;
		else if (*p == '\\' && depth > 0 && p + 1 < e)
			p++;
		else if (depth == 0 && !mime_is_space(*p))
			break;
	}
	return p;
}

/* RFC 2045's token: not a space, a control or a tspecial (a switch, not
 * strchr(): it runs per byte). */
static bool is_token_char(char c)
{
	switch (c) {
	case '(': case ')': case '<': case '>': case '@': case ',': case ';':
	case ':': case '\\': case '"': case '/': case '[': case ']': case '?':
	case '=':
		return false;
	default:
		return c > ' ' && c < 127;
	}
}

static struct span token(const char **pp, const char *e)
{
	struct span t = {*pp, *pp};
	while (t.e < e && is_token_char(*t.e))
		t.e++;
	*pp = t.e;
	return t;
}

/* A parameter value: a quoted string (without its quotes) or, leniently,
 * everything up to the next ';' or blank, since generators do write
 * unquoted boundaries that hold '=' or '/'. */
static struct span param_value(const char **pp, const char *e)
{
	const char *p = *pp;
	struct span v;
	if (p < e && *p == '"') {
		v.p = ++p;
		while (p < e && *p != '"')
			p += (*p == '\\' && p + 1 < e) ? 2 : 1;
		v.e = p < e ? p : e;
		*pp = p < e ? p + 1 : e;
		return v;
	}
	v.p = p;
	while (p < e && *p != ';' && !mime_is_space(*p))
		p++;
	v.e = p;
	*pp = p;
	return v;
}

static void type_parameter(struct span name, struct span value,
                           struct mime_type *t)
{
	if (mime_ieq(name, "boundary") && mime_empty(t->boundary))
		t->boundary = value;
	else if (mime_ieq(name, "report-type") && mime_empty(t->report_type))
		t->report_type = value;
}

void mime_content_type(struct span v, struct mime_type *t)
{
	const char *p = v.p, *e = v.e;

	memset(t, 0, sizeof *t);
	p = skip_cfws(p, e);
	t->type = token(&p, e);
	p = skip_cfws(p, e);
	if (p < e && *p == '/') {
		p = skip_cfws(p + 1, e);
		t->subtype = token(&p, e);
	}
	while (p < e) {
		struct span name;
		/* Anything unexpected is skipped up to the next parameter,
		 * quoted strings whole since they may hold a ';'. */
		while (p < e && *p != ';') {
			if (*p == '"')
				(void)param_value(&p, e);
			else
				p++;
		}
		if (p == e)
			break;
		p = skip_cfws(p + 1, e);
		name = token(&p, e);
		p = skip_cfws(p, e);
		if (p == e || *p != '=')
			continue;
		p = skip_cfws(p + 1, e);
		type_parameter(name, param_value(&p, e), t);
	}
}

enum mime_encoding mime_encoding(struct span value)
{
	value = mime_trim(value);
	if (mime_ieq(value, "base64"))
		return MIME_BASE64;
	if (mime_ieq(value, "quoted-printable"))
		return MIME_QUOTED_PRINTABLE;
	return MIME_IDENTITY;
}

/* Note f in part when it is the first Content-Type or the first
 * Content-Transfer-Encoding. */
static void part_field(struct mime_part *part, const struct mime_field *f,
                       bool *have_type, bool *have_encoding)
{
	if (!*have_type && mime_ieq(f->name, "Content-Type")) {
		mime_content_type(f->value, &part->type);
		*have_type = true;
	} else if (!*have_encoding &&
	           mime_ieq(f->name, "Content-Transfer-Encoding")) {
		part->encoding = mime_encoding(f->value);
		*have_encoding = true;
	}
}

void mime_part(struct span s, struct mime_part *part, mime_field_fn *fn,
               void *ctx)
{
	struct span rest = s, first;
	struct mime_header h;
	struct mime_field f;
	bool have_type = false, have_encoding = false;

	memset(part, 0, sizeof *part);
	part->headers.p = part->headers.e = s.p;
	if (mime_line(&rest, &first) && !mime_blank(first) &&
	    !mime_field_line(first)) {
		part->body = s;
		return;
	}
	mime_header_begin(&h, s);
	while (mime_header_next(&h, &f)) {
		part_field(part, &f, &have_type, &have_encoding);
		if (fn)
			fn(ctx, &f);
	}
	/* A part's header that a blank line splits before its type (seen in
	 * real reports: "Content-Description: Delivery report", a blank
	 * line, "Content-Type: message/delivery-status"): a part with no
	 * type whose body starts with one reads on.  Once: a body that holds
	 * a header itself is text after that. */
	rest = h.rest;
	if (!have_type && mime_line(&rest, &first) &&
	    mime_istarts(first, "Content-Type:")) {
		mime_header_begin(&h, h.rest);
		while (mime_header_next(&h, &f)) {
			part_field(part, &f, &have_type, &have_encoding);
			if (fn)
				fn(ctx, &f);
		}
	}
	part->headers.e = h.end;
	part->body = h.rest;
}

/* ---- Multipart ---- */

void mime_multipart_begin(struct mime_multipart *mp, struct span body,
                          struct span boundary)
{
	mp->rest = body;
	mp->boundary = boundary;
	mp->started = false;
	/* RFC 2046 boundaries have 1 to 70 characters; an empty one would
	 * match every line that starts with "--". */
	mp->done = mime_empty(boundary);
}

enum delimiter { NOT_DELIMITER, DELIMITER, CLOSE_DELIMITER };

/* Whether a line is "--boundary" or "--boundary--", then only blanks
 * (RFC 2046's transport padding).  Anything else after them makes it
 * text: "--B--x" is the delimiter of an inner boundary "B--x", not the
 * end of B's parts. */
static enum delimiter delimiter_kind(struct span line, struct span boundary)
{
	size_t n = mime_len(boundary);
	enum delimiter kind = DELIMITER;
	const char *p;
	if (mime_len(line) < n + 2 || line.p[0] != '-' || line.p[1] != '-' ||
	    memcmp(line.p + 2, boundary.p, n) != 0)
		return NOT_DELIMITER;
	p = line.p + 2 + n;
	if (line.e - p >= 2 && p[0] == '-' && p[1] == '-') {
		kind = CLOSE_DELIMITER;
		p += 2;
	}
	while (p < line.e && mime_is_wsp(*p))
		p++;
	return p == line.e ? kind : NOT_DELIMITER;
}

/* Past the next delimiter line; false at the end of the body.  Only a
 * line that starts with '-' can be one: the next such line is found by
 * its line break and first byte together, not line by line. */
static bool next_delimiter(struct mime_multipart *mp, const char **at,
                           enum delimiter *kind)
{
	struct span line;
	while (!mime_empty(mp->rest)) {
		if (*mp->rest.p != '-') {
			const char *lf =
			    scan_pair(mp->rest.p, mp->rest.e, '\n', '-', 1);
			mp->rest.p = lf ? lf + 1 : mp->rest.e;
		}
		if (!mime_line(&mp->rest, &line))
			break;
		*kind = delimiter_kind(line, mp->boundary);
		if (*kind != NOT_DELIMITER) {
			*at = line.p;
			return true;
		}
	}
	return false;
}

bool mime_multipart_next(struct mime_multipart *mp, struct span *part)
{
	enum delimiter kind;
	const char *at;

	if (mp->done)
		return false;
	if (!mp->started) {
		/* The preamble, before the first delimiter, is not a part. */
		mp->started = true;
		if (!next_delimiter(mp, &at, &kind) ||
		    kind == CLOSE_DELIMITER) {
			mp->done = true;
			return false;
		}
	}
	if (mime_empty(mp->rest)) {
		mp->done = true;
		return false;
	}
	part->p = mp->rest.p;
	if (!next_delimiter(mp, &at, &kind)) {
		/* Truncated: no further delimiter, the part runs to the end. */
		part->e = mp->rest.e;
		mp->done = true;
		return true;
	}
	/* The line break before a delimiter belongs to the delimiter. */
	if (at > part->p && at[-1] == '\n')
		at--;
	if (at > part->p && at[-1] == '\r')
		at--;
	part->e = at;
	mp->done = kind == CLOSE_DELIMITER;
	return true;
}

/* ---- Decoding ---- */

/* Whether p points into [base, base + size].  Compared as integers:
 * relational operators on pointers to different objects are undefined. */
static bool inside(const char *p, const char *base, size_t size)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;
	return base && a >= b && a - b <= size;
}

/* Where the transform of the text starting at p goes (see mime.h), and
 * how many bytes are free there; NULL when there is no room at all. */
static char *work_slot(const struct mime_work *w, const char *p,
                       size_t *room)
{
	size_t off;
	if (inside(p, w->buf, w->size))
		off = (size_t)((uintptr_t)p - (uintptr_t)w->buf);
	else if (inside(p, w->msg, w->len))
		off = (size_t)((uintptr_t)p - (uintptr_t)w->msg);
	else
		return NULL;
	if (off >= w->size)
		return NULL;
	*room = w->size - off;
	return w->buf + off;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = mime_lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* A soft line break at p ("=", optional blanks, line break): its end. */
static const char *soft_break(const char *p, const char *e)
{
	const char *q = p + 1;
	while (q < e && mime_is_wsp(*q))
		q++;
	if (q < e && *q == '\r')
		q++;
	if (q == e)
		return e; /* "=" at the very end of the body */
	return *q == '\n' ? q + 1 : NULL;
}

/*
 * Quoted-printable (RFC 2045, 6.7) from src into dst[0..room).  The
 * writer never overtakes the reader, so dst may be src itself.
 */
static size_t decode_qp(struct span src, char *dst, size_t room,
                        bool *overflow)
{
	const char *p = src.p, *next;
	size_t n = 0;
	int hi, lo;

	while (p < src.e) {
		char c = *p;
		if (c != '=') {
			p++;
		} else if ((next = soft_break(p, src.e)) != NULL) {
			p = next;
			continue;
		} else if (src.e - p >= 3 && (hi = hex_value(p[1])) >= 0 &&
		           (lo = hex_value(p[2])) >= 0) {
			c = (char)(hi << 4 | lo);
			p += 3;
		} else {
			p++; /* a stray '=' is kept as it is */
		}
		if (n == room) {
			*overflow = true;
			break;
		}
		dst[n++] = c;
	}
	return n;
}

static int base64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* The bytes of a group of k sextets: 3 for a whole group, fewer at a '='
 * or at the end, where 0 or 1 sextets hold no byte. */
static size_t flush_group(unsigned long bits, int k, char *dst, size_t n,
                          size_t room, bool *overflow)
{
	int bytes = k == 4 ? 3 : k - 1;
	bits <<= 6 * (4 - k);
	for (int i = 0; i < bytes; i++) {
		if (n == room) {
			*overflow = true;
			return n;
		}
		dst[n++] = (char)((bits >> (16 - 8 * i)) & 0xff);
	}
	return n;
}

/*
 * Base64 (RFC 2045, 6.8) from src into dst[0..room), skipping line breaks
 * and any other byte outside the alphabet.  A '=' ends a group, so bodies
 * that concatenate several encoded blocks still decode.  In place is
 * safe: four bytes are read before three are written.
 */
static size_t decode_base64(struct span src, char *dst, size_t room,
                            bool *overflow)
{
	unsigned long bits = 0;
	size_t n = 0;
	int k = 0, v;

	for (const char *p = src.p; p < src.e && !*overflow; p++) {
		if (*p == '=') {
			n = flush_group(bits, k, dst, n, room, overflow);
			bits = 0;
			k = 0;
			continue;
		}
		if ((v = base64_value(*p)) < 0)
			continue;
		bits = bits << 6 | (unsigned long)v;
		if (++k == 4) {
			n = flush_group(bits, 4, dst, n, room, overflow);
			bits = 0;
			k = 0;
		}
	}
	if (k > 0 && !*overflow)
		n = flush_group(bits, k, dst, n, room, overflow);
	return n;
}

struct span mime_decode(struct mime_work *w, struct span body,
                        enum mime_encoding enc)
{
	size_t room = 0, n;
	char *dst;
	struct span out;

	if (enc == MIME_IDENTITY || mime_empty(body))
		return body;
	dst = work_slot(w, body.p, &room);
	if (!dst) {
		w->overflow = true;
		return mime_span(body.p, 0);
	}
	n = enc == MIME_BASE64 ? decode_base64(body, dst, room, &w->overflow)
	                       : decode_qp(body, dst, room, &w->overflow);
	out.p = dst;
	out.e = dst + n;
	return out;
}

struct span mime_unfold(struct mime_work *w, struct span s)
{
	size_t room = 0, n = 0, len;
	const char *p;
	char *dst;

	s = mime_trim(s);
	/* Only LF (perhaps after a CR) breaks a line: a lone CR inside a
	 * line is text.  So a text of one line is never copied, and two
	 * that overlap on one line (two addresses' replies in a line of
	 * X-Failed-Recipients text) cannot overwrite each other's copies. */
	if (!mime_find(s, '\n'))
		return s;
	len = mime_len(s);
	dst = work_slot(w, s.p, &room);
	if (!dst || room < len) {
		w->overflow = true;
		return s;
	}
	for (p = s.p; p < s.e; p++) {
		if (*p != '\n' && !(*p == '\r' && p + 1 < s.e && p[1] == '\n')) {
			dst[n++] = *p;
			continue;
		}
		while (n > 0 && mime_is_wsp(dst[n - 1]))
			n--;
		while (p + 1 < s.e && mime_is_space(p[1]))
			p++;
		dst[n++] = ' ';
	}
	/* In place, the bytes left over would read as a second copy of the
	 * tail: blank them, so the region still reads as the same text. */
	memset(dst + n, ' ', len - n);
	return mime_span(dst, n);
}

struct span mime_cr_to_lf(struct mime_work *w, struct span s)
{
	size_t room = 0, len = mime_len(s);
	char *dst = work_slot(w, s.p, &room);
	if (!dst || room < len) {
		w->overflow = true;
		return s;
	}
	for (size_t i = 0; i < len; i++)
		dst[i] = s.p[i] == '\r' && (i + 1 == len || s.p[i + 1] != '\n')
		                 ? '\n'
		                 : s.p[i];
	return mime_span(dst, len);
}

/* ---- Encoded words (RFC 2047) ---- */

/* "=?charset?Q?text?=" or "=?charset?B?text?=". */
struct encoded_word {
	struct span charset, text;
	bool base64;
	const char *end; /* past its "?=" */
};

/* The encoded word that starts at p, if one does.  The charset and the
 * text each end at the first '?' after them, so a failed attempt reads
 * no further than the third '?' after p, and no byte is read by more
 * than three attempts. */
static bool encoded_word(const char *p, const char *e, struct encoded_word *w)
{
	const char *q = p + 2;
	if (e - p < 8 || p[0] != '=' || p[1] != '?')
		return false;
	w->charset.p = q;
	while (q < e && is_token_char(*q))
		q++;
	w->charset.e = q;
	if (q == w->charset.p || e - q < 5 || q[0] != '?' || q[2] != '?')
		return false;
	if (q[1] == 'B' || q[1] == 'b')
		w->base64 = true;
	else if (q[1] == 'Q' || q[1] == 'q')
		w->base64 = false;
	else
		return false;
	q += 3;
	w->text.p = q;
	while (q < e && *q > ' ' && *q < 127 && *q != '?')
		q++;
	w->text.e = q;
	if (e - q < 2 || q[0] != '?' || q[1] != '=')
		return false;
	w->end = q + 2;
	return true;
}

enum word_charset { CHARSET_UTF8, CHARSET_LATIN1, CHARSET_OTHER };

/* UTF-8 and US-ASCII are copied as they are, ISO-8859-1 made UTF-8;
 * other charsets are left encoded (their bytes are not UTF-8). */
static enum word_charset word_charset(struct span name)
{
	const char *star = mime_find(name, '*'); /* RFC 2231's "*language" */
	if (star)
		name.e = star;
	if (mime_ieq(name, "utf-8") || mime_ieq(name, "us-ascii"))
		return CHARSET_UTF8;
	if (mime_ieq(name, "iso-8859-1") || mime_ieq(name, "iso_8859-1") ||
	    mime_ieq(name, "latin1"))
		return CHARSET_LATIN1;
	return CHARSET_OTHER;
}

/* The Q encoding: '_' is a space, "=XX" a byte, anything else itself.
 * Each byte written takes at least one read, so dst may lie at or before
 * t.p in the same text. */
static size_t decode_q(struct span t, char *dst)
{
	size_t n = 0;
	int hi, lo;
	for (const char *p = t.p; p < t.e; p++) {
		if (*p == '_') {
			dst[n++] = ' ';
		} else if (*p == '=' && t.e - p >= 3 &&
		           (hi = hex_value(p[1])) >= 0 &&
		           (lo = hex_value(p[2])) >= 0) {
			dst[n++] = (char)(hi << 4 | lo);
			p += 2;
		} else {
			dst[n++] = *p;
		}
	}
	return n;
}

/* How many bytes base64 text t decodes to, and how many of them are
 * >= 0x80, without writing them: decode_base64()'s groups, counted. */
static void base64_count(struct span t, size_t *bytes, size_t *high)
{
	unsigned long bits = 0;
	int k = 0, v;
	char group[3];
	bool full = false;

	*bytes = *high = 0;
	for (const char *p = t.p; p <= t.e; p++) {
		size_t n;
		if (p < t.e && (v = base64_value(*p)) >= 0) {
			bits = bits << 6 | (unsigned long)v;
			if (++k < 4)
				continue;
		} else if (p < t.e && *p != '=') {
			continue;
		}
		n = flush_group(bits, k, group, 0, sizeof group, &full);
		*bytes += n;
		for (size_t i = 0; i < n; i++)
			*high += (unsigned char)group[i] >= 0x80;
		bits = 0;
		k = 0;
	}
}

/* ISO-8859-1 bytes s[0..n) made UTF-8 in place (s holds room for the
 * two-byte forms); the new length.  Written from the end, so that no
 * byte is overwritten before it is read. */
static size_t latin1_to_utf8(char *s, size_t n)
{
	size_t high = 0, total, out;
	for (size_t i = 0; i < n; i++)
		high += (unsigned char)s[i] >= 0x80;
	total = out = n + high;
	for (size_t i = n; high > 0 && i-- > 0;) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80) {
			s[--out] = (char)c;
			continue;
		}
		s[--out] = (char)(0x80 | (c & 0x3f));
		s[--out] = (char)(0xc0 | c >> 6);
		high--;
	}
	return total;
}

/*
 * Word w, which starts at start, decoded into dst[0..room), room reaching
 * to where w's own end would be written (see mime_decode_words()): the
 * bytes written, and whether it was decoded or kept as it is.
 *
 * It always fits.  UTF-8 and Q's ISO-8859-1 are no longer than the text
 * (a two-byte form comes from three characters, "=E9"); B's ISO-8859-1
 * can be longer (three bytes from four characters, each perhaps doubled),
 * so it is counted first and kept encoded when it would not fit.
 */
static size_t decode_word(const struct encoded_word *w, const char *start,
                          char *dst, size_t room, bool *decoded)
{
	enum word_charset charset = word_charset(w->charset);
	size_t n = 0, high = 0;
	bool full = false;

	if (charset == CHARSET_LATIN1 && w->base64)
		base64_count(w->text, &n, &high);
	*decoded = charset != CHARSET_OTHER && n + high <= room;
	if (!*decoded) {
		n = (size_t)(w->end - start);
		memmove(dst, start, n);
		return n;
	}
	n = w->base64 ? decode_base64(w->text, dst, room, &full)
	              : decode_q(w->text, dst);
	/* A line break in a header field's value would start a field of
	 * its own where the header is read again in place (a message with
	 * bare CR line ends lies in the work buffer). */
	for (size_t i = 0; i < n; i++)
		if (dst[i] == '\r' || dst[i] == '\n')
			dst[i] = ' ';
	return charset == CHARSET_LATIN1 ? latin1_to_utf8(dst, n) : n;
}

struct span mime_decode_words(struct mime_work *w, struct span s)
{
	size_t room = 0, len = mime_len(s), n = 0, after_word = 0;
	bool between_words = false, decoded;
	struct encoded_word word;
	const char *p = s.p;
	char *dst;

	if (len < 8 || !scan_pair(s.p, s.e, '=', '?', 1))
		return s;
	dst = work_slot(w, s.p, &room);
	if (!dst || room < len) {
		w->overflow = true;
		return s;
	}
	/* The writer stays at or behind the reader: each word's output
	 * ends before its own end (decode_word()). */
	while (p < s.e) {
		if (*p == '=' && encoded_word(p, s.e, &word)) {
			/* Blanks between two encoded words are not text
			 * (RFC 2047, 6.2): a word split in two reads as one. */
			if (between_words)
				n = after_word;
			n += decode_word(&word, p, dst + n,
			                 (size_t)(word.end - s.p) - n, &decoded);
			p = word.end;
			after_word = n;
			between_words = decoded;
			continue;
		}
		if (!mime_is_space(*p))
			between_words = false;
		dst[n++] = *p++;
	}
	/* In place, the bytes left over would read as a second copy of the
	 * tail: blank them, as mime_unfold() does. */
	memset(dst + n, ' ', len - n);
	return mime_span(dst, n);
}

/* ---- HTML as text ---- */

/* Whether the tag at p (after '<', and '/' for a closing one) is name,
 * ignoring case: name then a blank, '>' or '/'. */
static bool tag_is(const char *p, const char *e, const char *name)
{
	size_t n = strlen(name);
	if ((size_t)(e - p) <= n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (mime_lower(p[i]) != name[i])
			return false;
	return p[n] == '>' || p[n] == '/' || mime_is_space(p[n]);
}

static bool breaks_line(const char *name, const char *e)
{
	static const char *const tags[] = {"br", "p", "div", "tr", "li",
	                                   "h1", "h2", "h3", "h4", "table"};
	for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
		if (tag_is(name, e, tags[i]))
			return true;
	return false;
}

/* The entity at p ('&'): its character and length, or 0. */
static size_t entity(const char *p, const char *e, char *c)
{
	static const struct {
		const char *name;
		char c;
	} named[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'},
	             {"&quot;", '"'}, {"&nbsp;", ' '}, {"&apos;", '\''}};
	for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
		size_t n = strlen(named[i].name);
		if ((size_t)(e - p) >= n && mime_istarts(mime_span(p, n),
		                                         named[i].name)) {
			*c = named[i].c;
			return n;
		}
	}
	if (e - p >= 4 && p[1] == '#') {
		unsigned v = 0;
		const char *q = p + 2;
		while (q < e && q - p < 6 && *q >= '0' && *q <= '9')
			v = v * 10 + (unsigned)(*q++ - '0');
		if (q < e && *q == ';' && q > p + 2 && v >= 32 && v < 127) {
			*c = (char)v;
			return (size_t)(q + 1 - p);
		}
	}
	return 0;
}

struct span mime_html_text(struct mime_work *w, struct span s)
{
	size_t room = 0;
	char *dst = mime_empty(s) ? NULL : work_slot(w, s.p, &room), *o;
	const char *p = s.p, *skip_to = NULL;

	if (!dst || room < mime_len(s)) {
		if (!mime_empty(s))
			w->overflow = true;
		return s;
	}
	o = dst;
	while (p < s.e) {
		const char *close;
		char c;
		size_t n;
		if (*p != '<') {
			if (skip_to)
				p++;
			else if (*p == '&' && (n = entity(p, s.e, &c)) != 0) {
				*o++ = c;
				p += n;
			} else
				*o++ = *p++;
			continue;
		}
		close = p + 1;
		while (close < s.e && *close != '>')
			close++;
		if (close == s.e) { /* not a tag: the rest as it is */
			if (!skip_to)
				while (p < s.e)
					*o++ = *p++;
			break;
		}
		if (skip_to) {
			if (p[1] == '/' && tag_is(p + 2, s.e, skip_to))
				skip_to = NULL;
		} else if (tag_is(p + 1, s.e, "script")) {
			skip_to = "script";
		} else if (tag_is(p + 1, s.e, "style")) {
			skip_to = "style";
		} else if (breaks_line(p + 1 + (p[1] == '/'), s.e)) {
			*o++ = '\n';
		}
		p = close + 1;
	}
	return mime_span(dst, (size_t)(o - dst));
}
