/*
 * The messages of a file for --mail: the file is one message (RFC 5322),
 * or an mbox when its first line starts with "From ", where each message
 * starts at a line "From " at the file's start or after a blank line
 * (mboxo and mboxrd alike: ">From " lines are left as they are, quoted).
 * An mbox is read as a stream, a message at a time, through one buffer:
 * memory grows with its largest message, not with the file.  Each message
 * is handed over without its From line and the blank line that ends it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "mailbox.h"

/* The buffer's first size: nearly all bounces fit, and are read with one
 * or two calls, of a quarter of the buffer at most.  A page's first write
 * is dear on a virtual machine (pages.c): reads of a quarter touch no more
 * of the buffer than the messages need, and a message that outgrows the
 * buffer costs a copy into fresh pages. */
#define FIRST_ROOM ((size_t)256 << 10)
/* The most an mbox message takes, its From line included, and the
 * "From " that ends it, to be seen before the message is taken whole:
 * one of exactly MAX_MESSAGE is read, as a file of one is. */
#define MBOX_ROOM (MAX_MESSAGE + 5)

#define TOO_BIG "message too big (the limit is 64 MiB)"

/* A file being read into a buffer. */
struct reading {
	const char *path;
	struct stream s;
	struct message_buffer *b;
	size_t have;  /* bytes in b */
	bool ended;   /* the file has no more */
};

/* More of r's file after the bytes in its buffer, grown as needed up to
 * most bytes (a message that fills most of it is read in fewer, larger
 * reads: a quarter of the buffer each), r->have < most: 1, 0 at the end,
 * -1 after reporting an error (no memory: the message of index number's),
 * or STREAM_FOLDER. */
static int read_more(struct reading *r, size_t most, long number)
{
	struct message_buffer *b = r->b;
	size_t room;
	long got;

	if ((r->have == b->size || b->size - r->have < b->size / 4) &&
	    b->size < most) {
		size_t bigger = b->size ? 2 * b->size : FIRST_ROOM;
		char *grown;
		if (bigger > most)
			bigger = most;
		if (!(grown = realloc(b->data, bigger))) {
			message_error(r->path, number, strerror(ENOMEM));
			return -1;
		}
		b->data = grown;
		b->size = bigger;
	}
	/* (the buffer may be larger, from an mbox read before) */
	room = (b->size < most ? b->size : most) - r->have;
	if (room > b->size / 4)
		room = b->size / 4;
	got = stream_read(&r->s, b->data + r->have, room);
	if (got < 0)
		return (int)got;
	r->ended = got == 0;
	r->have += (size_t)got;
	return got > 0;
}

/* The file is one message: read whole, up to and including MAX_MESSAGE
 * bytes. */
static int one_message(struct reading *r, message_fn *fn, void *ctx)
{
	int got;
	while (!r->ended) {
		if (r->have == MAX_MESSAGE) { /* the limit is inclusive */
			char probe;
			long more = stream_read(&r->s, &probe, 1);
			if (more > 0)
				input_error(r->path, TOO_BIG);
			if (more != 0)
				return -1;
			break;
		}
		if ((got = read_more(r, MAX_MESSAGE, -1)) < 0)
			return got;
	}
	return fn(ctx, r->b->data, r->have, -1);
}

/* Whether the line ending at d[q] (a newline) is blank, no byte before
 * d[from] looked at. */
static bool blank_line(const char *d, size_t from, size_t q)
{
	return (q > from && d[q - 1] == '\n') ||
	       (q > from + 1 && d[q - 1] == '\r' && d[q - 2] == '\n');
}

/*
 * Where the next message starts in d[0..have): the offset of the first
 * line "From " after a blank line, the blank line's newline at or after
 * *scan, nothing before from looked at; 0 when there is none yet, and
 * *scan is then where the next search starts, once more bytes are read
 * (each byte is looked at once).
 */
static size_t next_message(const char *d, size_t from, size_t *scan,
                           size_t have)
{
	size_t q = *scan;
	while (q + 6 <= have) { /* a newline, then "From " */
		const char *nl = memchr(d + q, '\n', have - 5 - q);
		if (!nl)
			break;
		q = (size_t)(nl - d);
		if (memcmp(nl + 1, "From ", 5) == 0 && blank_line(d, from, q)) {
			*scan = q + 1;
			return q + 1;
		}
		q++;
	}
	if (have >= 5 && have - 5 > *scan)
		*scan = have - 5;
	return 0;
}

/* Hand over the message of d[start..end) (end: the next message's start,
 * or the file's end when last), its From line and, unless last, the
 * blank line that ends it left out. */
static int give(struct reading *r, size_t start, size_t end, bool last,
                long number, message_fn *fn, void *ctx)
{
	const char *d = r->b->data;
	const char *nl = memchr(d + start, '\n', end - start);
	size_t text = nl ? (size_t)(nl + 1 - d) : end;

	if (end - start > MAX_MESSAGE) {
		message_error(r->path, number, TOO_BIG);
		return -1;
	}
	if (!last) /* the blank line: "\n" or "\r\n" before the From line */
		end -= end - 2 >= text && d[end - 2] == '\r' ? 2 : 1;
	return fn(ctx, d + text, end > text ? end - text : 0, number);
}

/* The file is an mbox: each message, as its end is found. */
static int mbox_messages(struct reading *r, message_fn *fn, void *ctx)
{
	size_t start = 0, scan = 0; /* the message's From line; see next_message() */
	long number = 0;
	bool skipping = false; /* in a message too big, up to its end */
	int status = 0;

	for (;;) {
		char *d = r->b->data;
		size_t next = next_message(d, skipping ? 0 : start, &scan, r->have);
		if (next) {
			if (!skipping && give(r, start, next, false, number, fn, ctx))
				status = -1;
			skipping = false;
			number++;
			start = scan = next;
			continue;
		}
		if (r->ended) {
			if (!skipping && give(r, start, r->have, true, number, fn, ctx))
				status = -1;
			return status;
		}
		/* More is needed: the message moves to the buffer's start. */
		if (start) {
			memmove(d, d + start, r->have - start);
			r->have -= start;
			scan -= start;
			start = 0;
		}
		if (r->have == MBOX_ROOM) { /* no end in sight */
			size_t keep = scan >= 2 ? scan - 2 : 0;
			if (!skipping)
				message_error(r->path, number, TOO_BIG);
			status = -1;
			skipping = true;
			/* Its bytes are dropped but those where the blank line
			 * and the From line that end it may have begun. */
			memmove(d, d + keep, r->have - keep);
			r->have -= keep;
			scan -= keep;
		}
		if (read_more(r, MBOX_ROOM, number) < 0)
			return -1;
	}
}

int each_message(const char *path, struct message_buffer *b, message_fn *fn,
                 void *ctx)
{
	struct reading r;
	int status = 0;

	if (stream_open(&r.s, path) != 0)
		return -1;
	r.path = path;
	r.b = b;
	r.have = 0;
	r.ended = false;
	/* The first bytes tell an mbox; a file gives all it has at once,
	 * a pipe may give less. */
	while (r.have < 5 && !r.ended && status == 0)
		if ((status = read_more(&r, MAX_MESSAGE, -1)) > 0)
			status = 0;
	if (status == 0)
		status = r.have >= 5 && memcmp(b->data, "From ", 5) == 0
		             ? mbox_messages(&r, fn, ctx)
		             : one_message(&r, fn, ctx);
	stream_close(&r.s);
	return status;
}
