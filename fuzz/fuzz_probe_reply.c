/*
 * The probe's reply reader (src/probe/reply.c): the input is what a
 * server sends, read as one reply after another as the probe reads a
 * pipelined answer.
 *
 * Invariants: the input given at once, one byte at a time and in chunks
 * of sizes picked by the input gives the same replies (state, bytes
 * used, code, lines, text, error); used bytes lie inside the input, and a
 * reply still incomplete used all of it; the bounds hold (len <=
 * REPLY_TEXT_MAX, nlines <= REPLY_LINES_MAX, line_len < REPLY_LINE_MAX);
 * a DONE reply's text is exactly the bytes used with the line ends taken
 * out (a CR before each LF, the LF between lines made '\n', the last one
 * dropped), and it starts with its code, each of its lines does, its
 * last line ends the reply and the others go on; a BAD one names an
 * error that its last byte explains (a NUL; the LF of a line that
 * would be one too many, or one too long for the text; a byte among the
 * code's and separator's; a byte past the line's room); a finished reply
 * uses nothing more.  And, as a server that repeats itself: the input
 * fed again and again, more bytes than a reply can hold, gives a first
 * reply the same at once and in chunks, which ended or was refused.
 */
#include "fuzz.h"
#include "reply.h"

/* The three readers compared; static: a struct reply is 66 KB. */
static struct reply whole, bytes, chunks;

/* A small deterministic generator of chunk sizes, seeded by the input. */
static uint32_t next_size(uint32_t *seed, uint32_t max)
{
	*seed = *seed * 1103515245u + 12345u;
	return 1 + (*seed >> 16) % max;
}

static int same_reply(const struct reply *a, const struct reply *b)
{
	return a->code == b->code && a->nlines == b->nlines &&
	       a->len == b->len && a->error == b->error &&
	       a->line_len == b->line_len &&
	       memcmp(a->text, b->text, a->len) == 0;
}

/* One reply from s[0..n) fed in chunks of at most max bytes (0: at
 * once); *used gets the bytes it took. */
static enum reply_state read_chunked(struct reply *r, const char *s,
                                     size_t n, uint32_t *seed, uint32_t max,
                                     size_t *used)
{
	enum reply_state st = REPLY_MORE;
	size_t off = 0;

	reply_init(r);
	do {
		size_t k = max ? next_size(seed, max) : n - off;
		size_t got;
		if (k > n - off)
			k = n - off;
		got = reply_feed(r, s + off, k, &st);
		CHECK(got <= k);
		CHECK(st != REPLY_MORE || got == k);
		off += got;
	} while (st == REPLY_MORE && off < n);
	*used = off;
	return st;
}

FUZZ_ORACLE static void check_done(const struct reply *r, const char *s,
                                   size_t used)
{
	size_t t = 0, line = 0;
	char code[4];

	CHECK(r->error == REPLY_OK && r->nlines >= 1 && r->len >= 3);
	CHECK(r->code >= 100 && r->code <= 599);
	snprintf(code, sizeof code, "%u", r->code);
	CHECK(memcmp(r->text, code, 3) == 0);
	CHECK(used >= 4 && s[used - 1] == '\n');
	/* text: the bytes used, line ends out. */
	for (size_t i = 0; i < used; i++) {
		if (s[i] == '\r' && i + 1 < used && s[i + 1] == '\n')
			continue;
		if (s[i] == '\n') {
			CHECK(i == used - 1 || (t < r->len && r->text[t++] == '\n'));
			continue;
		}
		CHECK(s[i] != '\0' && t < r->len && r->text[t++] == s[i]);
	}
	CHECK(t == r->len);
	/* Each line: the code, then '-' on all but the last. */
	for (unsigned k = 0; k < r->nlines; k++) {
		size_t end = line;
		while (end < r->len && r->text[end] != '\n')
			end++;
		CHECK(end - line >= 3 && end - line + 1 <= REPLY_LINE_MAX);
		CHECK(memcmp(r->text + line, code, 3) == 0);
		if (k + 1 < r->nlines)
			CHECK(end < r->len && r->text[line + 3] == '-');
		else
			CHECK(end == r->len && (end - line == 3 ||
			                        r->text[line + 3] == ' '));
		if (k == 0)
			CHECK(reply_first_line(r) == end - line);
		line = end + 1;
	}
}

/* The last byte used explains the error: where it stands in its line. */
FUZZ_ORACLE static void check_bad(const struct reply *r, const char *s,
                                  size_t used)
{
	size_t bad = used - 1, start = bad;
	char c = s[bad];

	while (start > 0 && s[start - 1] != '\n')
		start--;
	switch (r->error) {
	case REPLY_ENUL:
		CHECK(c == '\0');
		break;
	case REPLY_ELINES:
		CHECK(c == '\n' && r->nlines == REPLY_LINES_MAX - 1);
		break;
	case REPLY_ETEXT:
		CHECK(c == '\n' && r->len + 1 + bad - start > REPLY_TEXT_MAX);
		break;
	case REPLY_ESYNTAX:
		CHECK(bad - start <= 4);
		break;
	case REPLY_ECODE:
		CHECK(bad - start <= 2 && r->nlines >= 1 && c != r->text[bad - start]);
		break;
	case REPLY_ELINE:
		CHECK(c != '\n' && bad - start == REPLY_LINE_MAX - 1);
		break;
	default:
		fuzz_fail(__FILE__, __LINE__, "a known reply error");
	}
}

static void check_reply(struct reply *r, enum reply_state st,
                        const char *s, size_t n, size_t used)
{
	CHECK(used <= n);
	CHECK(r->len <= REPLY_TEXT_MAX && r->nlines <= REPLY_LINES_MAX);
	CHECK(r->line_len < REPLY_LINE_MAX);
	CHECK(reply_first_line(r) <= r->len);
	switch (st) {
	case REPLY_MORE:
		CHECK(used == n && r->error == REPLY_OK);
		break;
	case REPLY_DONE:
		check_done(r, s, used);
		break;
	case REPLY_BAD:
		CHECK(used >= 1 && r->error != REPLY_OK);
		CHECK(*reply_strerror(r->error) != '\0');
		check_bad(r, s, used);
		break;
	default:
		fuzz_fail(__FILE__, __LINE__, "a known reply state");
	}
	/* Finished: nothing more is used, the state is said again. */
	if (st != REPLY_MORE) {
		/* Its scalars: a copy of the struct would be 66 KB. */
		unsigned code = r->code, nlines = r->nlines;
		size_t len = r->len, line_len = r->line_len;
		enum reply_error error = r->error;
		enum reply_state again;
		CHECK(reply_feed(r, "250 x\r\n", 7, &again) == 0);
		CHECK(again == st && r->code == code && r->nlines == nlines &&
		      r->len == len && r->line_len == line_len &&
		      r->error == error);
	}
}

/* The replies of s[0..n), read one after another by the three readers. */
static void read_all(const char *s, size_t n, uint32_t seed)
{
	size_t off = 0;

	for (;;) {
		size_t u1, u2, u3;
		enum reply_state s1, s2, s3;

		s1 = read_chunked(&whole, s + off, n - off, &seed, 0, &u1);
		check_reply(&whole, s1, s + off, n - off, u1);
		s2 = read_chunked(&chunks, s + off, n - off, &seed, 97, &u2);
		CHECK(s2 == s1 && u2 == u1 && same_reply(&chunks, &whole));
		s3 = read_chunked(&bytes, s + off, n - off, &seed, 1, &u3);
		CHECK(s3 == s1 && u3 == u1 && same_reply(&bytes, &whole));
		off += u1;
		if (s1 != REPLY_DONE || off == n)
			return;
	}
}

/* Room for the repeated input: past the text bound, so that some
 * reply outgrows a bound (lines, text, or a line). */
#define STREAM_MAX (REPLY_TEXT_MAX + 2 * REPLY_LINE_MAX)
static char stream[STREAM_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	uint32_t seed = 2166136261u;
	enum reply_state st;
	size_t used, used2;

	for (size_t i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 16777619u;
	read_all(size ? s : "", size, seed);

	/* The input again and again, when its first reply is still open
	 * at its end. */
	st = read_chunked(&whole, size ? s : "", size, &seed, 0, &used);
	if (size > 0 && st == REPLY_MORE) {
		size_t n = 0;
		while (n < STREAM_MAX) {
			size_t k = size < STREAM_MAX - n ? size : STREAM_MAX - n;
			memcpy(stream + n, s, k);
			n += k;
		}
		/* Its first reply only: the stream's others are the
		 * input's again.  More bytes than the bounds let one reply
		 * hold: it ended, or a bound refused it. */
		st = read_chunked(&whole, stream, n, &seed, 0, &used);
		check_reply(&whole, st, stream, n, used);
		CHECK(st != REPLY_MORE);
		CHECK(read_chunked(&chunks, stream, n, &seed, 97, &used2) == st);
		CHECK(used2 == used && same_reply(&chunks, &whole));
	}
	return 0;
}
