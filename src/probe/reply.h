/*
 * An SMTP server's reply, read from the bytes it sends (RFC 5321 4.2):
 * one or more lines "CODE-text" ending with one "CODE text" (or a bare
 * "CODE"), each ended by CRLF (a bare LF is taken too).  The reader is fed
 * whatever arrived and never holds more than the bounds below: a server
 * is a stranger, and its reply may be endless, binary or malformed.
 */
#ifndef SMTPCODE_PROBE_REPLY_H
#define SMTPCODE_PROBE_REPLY_H

#include <stdbool.h>
#include <stddef.h>

/* RFC 5321 4.5.3.1.5 allows 512 octets a reply line, its code and CRLF
 * included; real servers send longer ones (long policy texts and links),
 * so the bound is wider.  It counts the line end too (CRLF or LF). */
#define REPLY_LINE_MAX 2048
#define REPLY_LINES_MAX 100
#define REPLY_TEXT_MAX 65536

enum reply_state {
	REPLY_MORE,  /* the reply is not complete: feed more */
	REPLY_DONE,  /* a whole reply was read */
	REPLY_BAD    /* the bytes are not a reply, or too much: see error */
};

enum reply_error {
	REPLY_OK,
	REPLY_ELINE,     /* a line longer than REPLY_LINE_MAX, its end
	                    included */
	REPLY_ELINES,    /* more than REPLY_LINES_MAX lines (known at the
	                    end of a continuation line numbered the max) */
	REPLY_ETEXT,     /* more than REPLY_TEXT_MAX bytes of text */
	REPLY_ESYNTAX,   /* a line that does not start with a code 100-599
	                    and then a space, a hyphen or its end */
	REPLY_ECODE,     /* a line whose code is not the first line's */
	REPLY_ENUL       /* a NUL byte */
};

struct reply {
	unsigned code;          /* the three digits, 100-599, once the first
	                           line has them (0 before) */
	unsigned nlines;
	size_t len;             /* text[0..len): the lines as sent, without
	                           their line ends, joined by '\n' */
	char text[REPLY_TEXT_MAX];
	enum reply_error error;
	/* the line being read */
	size_t line_len;
	char line[REPLY_LINE_MAX];
};

void reply_init(struct reply *r);
/*
 * Read buf[0..n): returns how many bytes were used, which stops right
 * after the line that ends the reply (bytes after it belong to the next
 * reply) or right after the byte that made it bad; *state says which.
 * Any split of the same bytes into calls gives the same reply.  Once the
 * reply is DONE or BAD, a call uses nothing and says so again, until
 * reply_init() starts the next reply.
 */
size_t reply_feed(struct reply *r, const char *buf, size_t n,
                  enum reply_state *state);
/* What is wrong, for messages: "a reply line longer than 2048 bytes". */
const char *reply_strerror(enum reply_error e);
/* The length of the first line in text: text[0..n) is that line, its
 * code included, as the verdict's lookup takes it (smtpcode_parse() of
 * "452 4.3.1 Insufficient ..."). */
size_t reply_first_line(const struct reply *r);

#endif
