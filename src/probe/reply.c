/*
 * The bounded reader of SMTP replies (reply.h).  It takes one byte at a
 * time and keeps all it needs in struct reply, so that however the
 * server's bytes are split into reads the reply is the same, and however
 * many it sends the memory is the struct's.
 */
#include <string.h>

#include "reply.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static int is_digit(char c) { return c >= '0' && c <= '9'; }

void reply_init(struct reply *r)
{
	/* The buffers are not cleared: only text[0..len) and
	 * line[0..line_len) are ever read. */
	r->code = 0;
	r->nlines = 0;
	r->len = 0;
	r->error = REPLY_OK;
	r->line_len = 0;
}

static enum reply_state fail(struct reply *r, enum reply_error e)
{
	r->error = e;
	return REPLY_BAD;
}

/* Whether the lines read so far are a whole reply: the last one (after
 * the last '\n' of text) is a bare code or a code and a space.  Derived
 * from the text, so that the struct holds no state it could contradict. */
static int ended(const struct reply *r)
{
	size_t start = r->len;

	if (r->nlines == 0 || r->line_len != 0)
		return 0;
	while (start > 0 && r->text[start - 1] != '\n')
		start--;
	return r->len - start == 3 || r->text[start + 3] == ' ';
}

/* The LF that ends the line being read: the line joins the text. */
static enum reply_state end_line(struct reply *r)
{
	size_t n = r->line_len;
	int last;

	if (n > 0 && r->line[n - 1] == '\r')
		n--;
	if (n < 3)
		return fail(r, REPLY_ESYNTAX);
	last = n == 3 || r->line[3] == ' ';
	/* A continuation as the last line allowed: the reply would need
	 * one more, so it is refused now rather than after another read. */
	if (!last && r->nlines + 1 >= REPLY_LINES_MAX)
		return fail(r, REPLY_ELINES);
	if (r->len + (r->nlines > 0) + n > REPLY_TEXT_MAX)
		return fail(r, REPLY_ETEXT);
	if (r->nlines > 0)
		r->text[r->len++] = '\n';
	memcpy(r->text + r->len, r->line, n);
	r->len += n;
	r->nlines++;
	r->line_len = 0;
	return last ? REPLY_DONE : REPLY_MORE;
}

/* One byte of the line being read, checked as soon as it can be: the
 * code's digits one by one (and against the first line's), then the
 * separator. */
static enum reply_state take(struct reply *r, char c)
{
	size_t at = r->line_len;

	if (c == '\0')
		return fail(r, REPLY_ENUL);
	if (c == '\n')
		return end_line(r);
	/* Room is kept for the LF still to come: the bound counts the
	 * line end, as RFC 5321 4.5.3.1.5 does. */
	if (at >= REPLY_LINE_MAX - 1)
		return fail(r, REPLY_ELINE);
	if (at < 3) {
		if (!is_digit(c) || (at == 0 && (c < '1' || c > '5')))
			return fail(r, REPLY_ESYNTAX);
		if (r->nlines > 0 && c != r->text[at])
			return fail(r, REPLY_ECODE);
		if (at == 2 && r->nlines == 0)
			r->code = (unsigned)(r->line[0] - '0') * 100 +
			          (unsigned)(r->line[1] - '0') * 10 +
			          (unsigned)(c - '0');
	} else if (at == 3 && c != ' ' && c != '-' && c != '\r') {
		return fail(r, REPLY_ESYNTAX);
	} else if (at == 4 && r->line[3] == '\r') {
		/* "250\r" then not LF: a CR that does not end the line. */
		return fail(r, REPLY_ESYNTAX);
	}
	r->line[r->line_len++] = c;
	return REPLY_MORE;
}

/* Whether the line being read is past its code and separator, where
 * only a NUL, the LF and the bound matter. */
static int in_text(const struct reply *r)
{
	return r->line_len > 4 || (r->line_len == 4 && r->line[3] != '\r');
}

/* The text of a line, stored in one copy up to the first NUL or LF or
 * the bound's last byte, any of which take() then sees: the same result
 * as take() byte by byte, without its checks on every byte. */
static size_t take_text(struct reply *r, const char *p, size_t n)
{
	size_t room = REPLY_LINE_MAX - 1 - r->line_len, k = 0;

	if (n > room)
		n = room;
	while (k < n && p[k] != '\n' && p[k] != '\0')
		k++;
	memcpy(r->line + r->line_len, p, k);
	r->line_len += k;
	return k;
}

size_t reply_feed(struct reply *r, const char *buf, size_t n,
                  enum reply_state *state)
{
	enum reply_state s = r->error != REPLY_OK ? REPLY_BAD
	                     : ended(r)           ? REPLY_DONE
	                                          : REPLY_MORE;
	size_t i = 0;

	while (s == REPLY_MORE && i < n) {
		if (in_text(r))
			i += take_text(r, buf + i, n - i);
		if (i < n)
			s = take(r, buf[i++]);
	}
	*state = s;
	return i;
}

const char *reply_strerror(enum reply_error e)
{
	switch (e) {
	case REPLY_OK:
		return "no error";
	case REPLY_ELINE:
		return "a reply line longer than " STR(REPLY_LINE_MAX) " bytes";
	case REPLY_ELINES:
		return "a reply of more than " STR(REPLY_LINES_MAX) " lines";
	case REPLY_ETEXT:
		return "a reply longer than " STR(REPLY_TEXT_MAX) " bytes";
	case REPLY_ESYNTAX:
		return "a reply line that does not start with a code from 100 to 599 and a space or a hyphen";
	case REPLY_ECODE:
		return "a reply line whose code is not its first line's";
	case REPLY_ENUL:
		return "a NUL byte in a reply";
	}
	return "an unknown reply error";
}

size_t reply_first_line(const struct reply *r)
{
	const char *nl = memchr(r->text, '\n', r->len);
	return nl ? (size_t)(nl - r->text) : r->len;
}
