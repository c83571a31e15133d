/*
 * Reading Internet messages for the bounce parser (src/mail/mail.c): spans,
 * lines, header fields, Content-Type, multipart bodies and the two
 * transfer encodings.  Internal to the library.
 *
 * Everything here is bounded by explicit ends, never by a NUL; nothing
 * allocates; and no <ctype.h>, so neither the locale nor bytes >= 0x80
 * change what is read.
 */
#ifndef SMTPCODE_MIME_H
#define SMTPCODE_MIME_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The bytes [p, e) of the message or of the work buffer.  p == e: empty
 * (p may then be NULL). */
struct span {
	const char *p, *e;
};

static inline bool mime_is_wsp(char c) { return c == ' ' || c == '\t'; }
static inline bool mime_is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool mime_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
static inline char mime_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}
static inline size_t mime_len(struct span s) { return (size_t)(s.e - s.p); }
static inline bool mime_empty(struct span s) { return s.p == s.e; }

struct span mime_span(const char *p, size_t len);
/* s without white space (SP, HT, CR, LF) at either end. */
struct span mime_trim(struct span s);
/* s without SP and HT at its start. */
struct span mime_trim_left(struct span s);

/* Whether s starts with lit[0..n), ignoring ASCII case. */
bool mime_istarts_n(struct span s, const char *lit, size_t n);
/* The first occurrence of lit[0..n) in s, ignoring ASCII case, or NULL.
 * Cost at most len(s) * n; callers pass short literals. */
const char *mime_ifind_n(struct span s, const char *lit, size_t n);

/* The same for a string lit, and whether s is lit, ignoring ASCII case.
 * Inline: they run for every header field and line, mostly with literals,
 * whose strlen() is then worked out at compile time. */
static inline bool mime_istarts(struct span s, const char *lit)
{
	return mime_istarts_n(s, lit, strlen(lit));
}
static inline bool mime_ieq(struct span s, const char *lit)
{
	size_t n = strlen(lit);
	return mime_len(s) == n && mime_istarts_n(s, lit, n);
}
static inline const char *mime_ifind(struct span s, const char *lit)
{
	return mime_ifind_n(s, lit, strlen(lit));
}
/* The first occurrence of byte c in s, or NULL. */
const char *mime_find(struct span s, char c);

/* ---- Lines ---- */

/* Take the next line off *rest into *line, without its line break (LF or
 * CRLF).  False when *rest is empty. */
bool mime_line(struct span *rest, struct span *line);
/* Whether the lines of s end in a bare CR (old Macintosh files): its
 * first line break is a CR with no LF after it. */
bool mime_cr_lines(struct span s);
/* Whether a line holds nothing but SP, HT and CR. */
bool mime_blank(struct span line);

/* ---- Header fields ---- */

/* Whether a line starts a header field: a name of printable characters,
 * optional blanks (obsolete syntax), then a colon. */
bool mime_field_line(struct span line);

struct mime_field {
	struct span name;
	struct span value; /* trimmed; folded lines keep their line breaks */
};

/*
 * A header block, read field by field up to the blank line that ends it,
 * in one pass (finding that line first and then reading the fields would
 * read every line twice).
 */
struct mime_header {
	struct span rest; /* not read yet; after the blank line, at the end */
	const char *end;  /* the end of the last line read before it */
};
void mime_header_begin(struct mime_header *h, struct span s);
/* Take the next field off h.  Lines that are neither fields nor their
 * continuations are skipped.  False at the blank line that ends the block
 * or at the end of s: the block was then [s.p, h->end), and h->rest holds
 * what follows the blank line (empty when there is none), where the next
 * call goes on reading. */
bool mime_header_next(struct mime_header *h, struct mime_field *f);

/* ---- Content-Type and Content-Transfer-Encoding ---- */

struct mime_type {
	struct span type, subtype; /* empty when absent */
	struct span boundary;      /* the boundary parameter, unquoted */
	struct span report_type;   /* the report-type parameter */
};
void mime_content_type(struct span value, struct mime_type *t);
/* Whether t is type/subtype, ignoring case; subtype NULL: any subtype. */
static inline bool mime_type_is(const struct mime_type *t, const char *type,
                                const char *subtype)
{
	return mime_ieq(t->type, type) &&
	       (!subtype || mime_ieq(t->subtype, subtype));
}

enum mime_encoding { MIME_IDENTITY, MIME_QUOTED_PRINTABLE, MIME_BASE64 };
enum mime_encoding mime_encoding(struct span value);

/* One entity: a message or a body part. */
struct mime_part {
	struct span headers; /* its header block */
	struct span body;
	struct mime_type type;
	enum mime_encoding encoding;
};
/* Split s into headers and body and read its Content-Type and encoding;
 * fn (if not NULL) is called with each of its header fields too.  A part
 * whose first line is not a header field has no headers (a malformed part
 * that starts with its text). */
typedef void mime_field_fn(void *ctx, const struct mime_field *f);
void mime_part(struct span s, struct mime_part *part, mime_field_fn *fn,
               void *ctx);

/* ---- Multipart bodies (RFC 2046, section 5.1) ---- */

struct mime_multipart {
	struct span rest;     /* not yet read */
	struct span boundary;
	bool started, done;
};
void mime_multipart_begin(struct mime_multipart *mp, struct span body,
                          struct span boundary);
/* The next body part, without the line break that belongs to the next
 * delimiter.  A missing close delimiter ends the last part at the end of
 * the body.  False when no part is left. */
bool mime_multipart_next(struct mime_multipart *mp, struct span *part);

/* ---- Decoding into the work buffer ---- */

/*
 * The caller's work buffer.  The decoded or unfolded form of the bytes at
 * offset o of the message is written at offset o of the buffer: the
 * transforms only ever shrink text, so disjoint pieces of the message
 * land in disjoint pieces of the buffer, and a buffer as large as the
 * message always suffices whatever the message holds.  Text that already
 * lies in the buffer is transformed in place.
 */
struct mime_work {
	const char *msg;
	size_t len;
	char *buf;
	size_t size;
	bool overflow; /* some text did not fit */
};

/* body decoded: itself for the identity encoding, else its decoded form
 * in the work buffer (as much as fits; the rest sets overflow). */
struct span mime_decode(struct mime_work *w, struct span body,
                        enum mime_encoding enc);
/* s trimmed, with each line break (LF or CRLF) and the blanks around it
 * made one space.  s itself when it holds no line break, or when the
 * buffer has no room (which sets overflow). */
struct span mime_unfold(struct mime_work *w, struct span s);
/* s with each CR that no LF follows made an LF, so that mime_line() ends
 * lines there: a copy in the buffer (the same length).  s itself when the
 * buffer cannot hold it whole (which sets overflow). */
struct span mime_cr_to_lf(struct mime_work *w, struct span s);
/* s with its RFC 2047 encoded words ("=?UTF-8?Q?R=C3=A9ponse?=") decoded:
 * Q and B, UTF-8 and US-ASCII as they are, ISO-8859-1 made UTF-8; words
 * in other charsets, or malformed, are left as they are, and the blanks
 * between two decoded words dropped.  s itself when it holds none, or
 * when the buffer has no room (which sets overflow). */
struct span mime_decode_words(struct mime_work *w, struct span s);
/* The text of HTML s, for readers of plain text: tags dropped (those that
 * break lines, <br>, <p>, <div>, <tr>, <li>, as a line break), scripts
 * and styles dropped whole, the common entities (&lt; &gt; &amp; &quot;
 * &nbsp; &#NN;) as their characters.  No longer than s, in the buffer at
 * s's place (so it may be s's own decoded copy); s itself when the buffer
 * has no room (which sets overflow). */
struct span mime_html_text(struct mime_work *w, struct span s);

#endif
