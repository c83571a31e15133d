/*
 * The probe's reply reader (src/probe/reply.c) on what hostile and real
 * servers send (the same cases as fuzz/corpus/probe_reply/): the exact
 * state, bytes used, code, lines, text and error of each, given at once,
 * one byte at a time and in chunks of several sizes; pipelined replies
 * read one after another; every bound at its edge; a 10 MB flood read
 * no further than the bound.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reply.h"

/* One expected reading.  text NULL: no line was read (len 0). */
struct expect {
	const char *name;
	const char *in;
	size_t in_len;
	enum reply_state state;
	size_t used;
	unsigned code, nlines;
	const char *text;
	size_t text_len;
	enum reply_error error;
};

#define IN(s) s, sizeof s - 1
#define TEXT(s) s, sizeof s - 1
#define NO_TEXT NULL, 0

static const struct expect cases[] = {
	{"banner", IN("220 mx.example.org ESMTP Postfix (Debian/GNU)\r\n"),
	 REPLY_DONE, 47, 220, 1,
	 TEXT("220 mx.example.org ESMTP Postfix (Debian/GNU)"), REPLY_OK},
	{"452 4.3.1", IN("452 4.3.1 Insufficient system storage\r\n"), REPLY_DONE,
	 39, 452, 1, TEXT("452 4.3.1 Insufficient system storage"), REPLY_OK},
	{"421 TSS04",
	 IN("421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due "
	    "to unexpected volume or user complaints - 4.16.55.1; see "
	    "https://postmaster.yahooinc.com/error-codes\r\n"),
	 REPLY_DONE, 169, 421, 1,
	 TEXT("421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred "
	      "due to unexpected volume or user complaints - 4.16.55.1; see "
	      "https://postmaster.yahooinc.com/error-codes"),
	 REPLY_OK},
	{"gmail 550-5.7.1",
	 IN("550-5.7.1 [192.0.2.1] The IP you're using to send mail is not "
	    "authorized to\r\n"
	    "550-5.7.1 send email directly to our servers. Please use the SMTP "
	    "relay at your\r\n"
	    "550-5.7.1 service provider instead. For more information, go to\r\n"
	    "550 5.7.1  https://support.google.com/mail/?p=NotAuthorizedError "
	    "a1si2345678wrb.123 - gsmtp\r\n"),
	 REPLY_DONE, 316, 550, 4,
	 TEXT("550-5.7.1 [192.0.2.1] The IP you're using to send mail is not "
	      "authorized to\n"
	      "550-5.7.1 send email directly to our servers. Please use the "
	      "SMTP relay at your\n"
	      "550-5.7.1 service provider instead. For more information, go to\n"
	      "550 5.7.1  https://support.google.com/mail/?p=NotAuthorizedError "
	      "a1si2345678wrb.123 - gsmtp"),
	 REPLY_OK},
	{"EHLO with STARTTLS",
	 IN("250-mx.example.org Hello [192.0.2.1]\r\n250-SIZE 52428800\r\n"
	    "250-8BITMIME\r\n250-PIPELINING\r\n250-ENHANCEDSTATUSCODES\r\n"
	    "250-CHUNKING\r\n250-STARTTLS\r\n250 SMTPUTF8\r\n"),
	 REPLY_DONE, 154, 250, 8,
	 TEXT("250-mx.example.org Hello [192.0.2.1]\n250-SIZE 52428800\n"
	      "250-8BITMIME\n250-PIPELINING\n250-ENHANCEDSTATUSCODES\n"
	      "250-CHUNKING\n250-STARTTLS\n250 SMTPUTF8"),
	 REPLY_OK},
	{"bare code", IN("250\r\n"), REPLY_DONE, 5, 250, 1, TEXT("250"),
	 REPLY_OK},
	{"bare code ends a multi-line reply", IN("250-\r\n250\r\n"), REPLY_DONE,
	 11, 250, 2, TEXT("250-\n250"), REPLY_OK},
	{"bare LF", IN("220-mx.example.org\n220 ESMTP ready\n"), REPLY_DONE, 35,
	 220, 2, TEXT("220-mx.example.org\n220 ESMTP ready"), REPLY_OK},
	{"bare code, bare LF", IN("354\n"), REPLY_DONE, 4, 354, 1, TEXT("354"),
	 REPLY_OK},
	{"no line end", IN("220 mx.example.org ESMTP ready"), REPLY_MORE, 30,
	 220, 0, NO_TEXT, REPLY_OK},
	{"220- then the end", IN("220-"), REPLY_MORE, 4, 220, 0, NO_TEXT,
	 REPLY_OK},
	{"cut mid-reply", IN("220-first line\r\n220-sec"), REPLY_MORE, 23, 220, 1,
	 TEXT("220-first line"), REPLY_OK},
	{"a CR, then the end", IN("250 ok\r"), REPLY_MORE, 7, 250, 0, NO_TEXT,
	 REPLY_OK},
	{"NUL in the text", IN("220 mx\0.example.org ESMTP\r\n"), REPLY_BAD, 7,
	 220, 0, NO_TEXT, REPLY_ENUL},
	{"NUL first", IN("\0\0\0\0"), REPLY_BAD, 1, 0, 0, NO_TEXT, REPLY_ENUL},
	{"NUL in a second line", IN("250-a\r\n250 \0\r\n"), REPLY_BAD, 12, 250, 1,
	 TEXT("250-a"), REPLY_ENUL},
	{"another code on line 2", IN("250-mx.example.org\r\n251 ok\r\n"),
	 REPLY_BAD, 23, 250, 1, TEXT("250-mx.example.org"), REPLY_ECODE},
	{"another class on line 2", IN("250-a\r\n550 no\r\n"), REPLY_BAD, 8, 250,
	 1, TEXT("250-a"), REPLY_ECODE},
	{"not a digit on line 2", IN("250-a\r\n2x0 no\r\n"), REPLY_BAD, 9, 250,
	 1, TEXT("250-a"), REPLY_ESYNTAX},
	{"a line of only 2", IN("2\r\n"), REPLY_BAD, 2, 0, 0, NO_TEXT,
	 REPLY_ESYNTAX},
	{"2, bare LF", IN("2\n"), REPLY_BAD, 2, 0, 0, NO_TEXT, REPLY_ESYNTAX},
	{"four-digit code", IN("2500 ok\r\n"), REPLY_BAD, 4, 250, 0, NO_TEXT,
	 REPLY_ESYNTAX},
	{"code 600", IN("600 too high\r\n"), REPLY_BAD, 1, 0, 0, NO_TEXT,
	 REPLY_ESYNTAX},
	{"code 099", IN("099 too low\r\n"), REPLY_BAD, 1, 0, 0, NO_TEXT,
	 REPLY_ESYNTAX},
	{"code 100", IN("100 lowest\r\n"), REPLY_DONE, 12, 100, 1,
	 TEXT("100 lowest"), REPLY_OK},
	{"code 599", IN("599 highest\r\n"), REPLY_DONE, 13, 599, 1,
	 TEXT("599 highest"), REPLY_OK},
	{"empty line", IN("\r\n"), REPLY_BAD, 1, 0, 0, NO_TEXT, REPLY_ESYNTAX},
	{"empty line, bare LF", IN("\n"), REPLY_BAD, 1, 0, 0, NO_TEXT,
	 REPLY_ESYNTAX},
	{"tab after the code", IN("250\tok\r\n"), REPLY_BAD, 4, 250, 0, NO_TEXT,
	 REPLY_ESYNTAX},
	{"CR after the code, then text", IN("250\rx\r\n"), REPLY_BAD, 5, 250, 0,
	 NO_TEXT, REPLY_ESYNTAX},
	{"CR in the text", IN("220 a\rb\r\n"), REPLY_DONE, 9, 220, 1,
	 TEXT("220 a\rb"), REPLY_OK},
	{"CR without LF", IN("220 mx.example.org\r220 again\r"), REPLY_MORE, 29,
	 220, 0, NO_TEXT, REPLY_OK},
	{"terminal escapes",
	 IN("220 \x1b[2J\x1b]0;owned\x07 mx \b\b\x7f \x1b[31mred\x1b[0m ESMTP\r\n"),
	 REPLY_DONE, 46, 220, 1,
	 TEXT("220 \x1b[2J\x1b]0;owned\x07 mx \b\b\x7f \x1b[31mred\x1b[0m ESMTP"),
	 REPLY_OK},
	{"UTF-8", IN("220 mx pr\xc3\xaat \xe2\x80\x94 \xe6\xac\xa2\xe8\xbf\x8e\r\n"),
	 REPLY_DONE, 25, 220, 1,
	 TEXT("220 mx pr\xc3\xaat \xe2\x80\x94 \xe6\xac\xa2\xe8\xbf\x8e"), REPLY_OK},
	{"invalid UTF-8", IN("220 \xff\xfe \xc3\x28 \xed\xa0\x80 \xc0\xaf\r\n"),
	 REPLY_DONE, 18, 220, 1, TEXT("220 \xff\xfe \xc3\x28 \xed\xa0\x80 \xc0\xaf"),
	 REPLY_OK},
	{"bytes after the reply", IN("250 ok\r\nxyz"), REPLY_DONE, 8, 250, 1,
	 TEXT("250 ok"), REPLY_OK},
	{"a TLS record", IN("\x16\x03\x01\x00\xa5\x01"), REPLY_BAD, 1, 0, 0,
	 NO_TEXT, REPLY_ESYNTAX},
};

/* Feeds e's input in chunks of at most k bytes, as reads would return
 * it, until the reply is no longer MORE; checks the outcome. */
static void check_chunked(const struct expect *e, size_t k)
{
	static struct reply r;
	enum reply_state st = REPLY_MORE;
	size_t off = 0;

	reply_init(&r);
	do {
		size_t n = e->in_len - off < k ? e->in_len - off : k;
		size_t got = reply_feed(&r, e->in + off, n, &st);
		assert_true(got <= n);
		if (st == REPLY_MORE)
			assert_int_equal(got, n);
		off += got;
	} while (st == REPLY_MORE && off < e->in_len);
	if (st != e->state || off != e->used || r.code != e->code ||
	    r.nlines != e->nlines || r.error != e->error ||
	    r.len != e->text_len ||
	    (e->text && memcmp(r.text, e->text, e->text_len) != 0))
		fail_msg("%s, chunks of %zu: state %d used %zu code %u lines %u "
		         "len %zu error %d", e->name, k, (int)st, off, r.code,
		         r.nlines, r.len, (int)r.error);
}

static void test_cases(void **state)
{
	static const size_t sizes[] = {1, 2, 3, 7, 64, SIZE_MAX};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
			check_chunked(&cases[i], sizes[k]);
}

/* A finished reply takes nothing more until reply_init(). */
static void test_finished(void **state)
{
	static struct reply r;
	enum reply_state st;
	(void)state;

	reply_init(&r);
	assert_int_equal(reply_feed(&r, "250 ok\r\n", 8, &st), 8);
	assert_int_equal(st, REPLY_DONE);
	assert_int_equal(reply_feed(&r, "250 ok\r\n", 8, &st), 0);
	assert_int_equal(st, REPLY_DONE);
	assert_int_equal(r.nlines, 1);
	assert_int_equal(r.len, 6);

	reply_init(&r);
	assert_int_equal(reply_feed(&r, "25x", 3, &st), 3);
	assert_int_equal(st, REPLY_BAD);
	assert_int_equal(reply_feed(&r, "250 ok\r\n", 8, &st), 0);
	assert_int_equal(st, REPLY_BAD);
	assert_int_equal(r.error, REPLY_ESYNTAX);

	/* Nothing fed: still MORE, and the next reply is clean. */
	reply_init(&r);
	assert_int_equal(reply_feed(&r, "", 0, &st), 0);
	assert_int_equal(st, REPLY_MORE);
	assert_int_equal(r.code, 0);
	assert_int_equal(r.error, REPLY_OK);
}

/* Pipelined replies in one buffer (MAIL, RCPT, DATA's 354), read one
 * after another, at once and one byte at a time. */
static void test_pipelined(void **state)
{
	static const char in[] =
		"250 2.1.0 Ok\r\n250-2.1.5 Ok\r\n250 2.1.5 really\r\n354 go ahead\n";
	static const char *const want[] = {"250 2.1.0 Ok",
	                                    "250-2.1.5 Ok\n250 2.1.5 really",
	                                    "354 go ahead"};
	static const size_t ends[] = {14, 46, 59};
	static struct reply r;
	(void)state;

	for (size_t k = 1; k <= sizeof in; k += sizeof in - 2) {
		size_t off = 0;
		for (size_t i = 0; i < 3; i++) {
			enum reply_state st = REPLY_MORE;
			reply_init(&r);
			while (st == REPLY_MORE && off < sizeof in - 1) {
				size_t n = sizeof in - 1 - off < k ? sizeof in - 1 - off : k;
				off += reply_feed(&r, in + off, n, &st);
			}
			assert_int_equal(st, REPLY_DONE);
			assert_int_equal(off, ends[i]);
			assert_int_equal(r.len, strlen(want[i]));
			assert_memory_equal(r.text, want[i], r.len);
		}
		assert_int_equal(off, sizeof in - 1);
	}
}

/* Reads buf[0..n) in reads of 4096 bytes until the reply is not MORE;
 * returns the bytes used. */
static size_t read_stream(struct reply *r, const char *buf, size_t n,
                          enum reply_state *st)
{
	size_t off = 0;
	reply_init(r);
	*st = REPLY_MORE;
	while (*st == REPLY_MORE && off < n) {
		size_t k = n - off < 4096 ? n - off : 4096;
		off += reply_feed(r, buf + off, k, st);
	}
	return off;
}

/* Lines of its code at the bound, its end counted: CRLF or LF. */
static void test_line_bound(void **state)
{
	static struct reply r;
	static char buf[REPLY_LINE_MAX + 8];
	enum reply_state st;
	(void)state;

	/* "220 " + x..x + CRLF, exactly REPLY_LINE_MAX bytes: taken. */
	memcpy(buf, "220 ", 4);
	memset(buf + 4, 'x', REPLY_LINE_MAX - 6);
	memcpy(buf + REPLY_LINE_MAX - 2, "\r\n", 2);
	assert_int_equal(read_stream(&r, buf, REPLY_LINE_MAX, &st),
	                 REPLY_LINE_MAX);
	assert_int_equal(st, REPLY_DONE);
	assert_int_equal(r.len, REPLY_LINE_MAX - 2);
	assert_int_equal(reply_first_line(&r), REPLY_LINE_MAX - 2);

	/* One x more: refused at its CR, the byte past the bound's room. */
	memset(buf + 4, 'x', REPLY_LINE_MAX - 5);
	memcpy(buf + REPLY_LINE_MAX - 1, "\r\n", 2);
	assert_int_equal(read_stream(&r, buf, REPLY_LINE_MAX + 1, &st),
	                 REPLY_LINE_MAX);
	assert_int_equal(st, REPLY_BAD);
	assert_int_equal(r.error, REPLY_ELINE);
	assert_int_equal(r.code, 220);

	/* The same bytes ended by a bare LF: REPLY_LINE_MAX in all. */
	buf[REPLY_LINE_MAX - 1] = '\n';
	assert_int_equal(read_stream(&r, buf, REPLY_LINE_MAX, &st),
	                 REPLY_LINE_MAX);
	assert_int_equal(st, REPLY_DONE);
	assert_int_equal(r.len, REPLY_LINE_MAX - 1);
}

/* "250-" + 1500 bytes + CRLF again and again: 43 lines fit the text
 * bound (64714 bytes), the 44th is refused at its LF. */
static void test_text_bound(void **state)
{
	enum { LINE = 4 + 1500 + 2, NL = 50 };
	static struct reply r;
	static char buf[LINE * NL];
	enum reply_state st;
	(void)state;

	for (size_t i = 0; i < NL; i++) {
		memcpy(buf + i * LINE, "250-", 4);
		memset(buf + i * LINE + 4, 'y', 1500);
		memcpy(buf + i * LINE + LINE - 2, "\r\n", 2);
	}
	assert_int_equal(read_stream(&r, buf, sizeof buf, &st), 44 * LINE);
	assert_int_equal(st, REPLY_BAD);
	assert_int_equal(r.error, REPLY_ETEXT);
	assert_int_equal(r.nlines, 43);
	assert_int_equal(r.len, 43 * 1504 + 42);
	assert_true(r.len <= REPLY_TEXT_MAX);
}

/* 100 lines are a reply; a continuation as the 100th is refused at its
 * LF, before a 101st is read. */
static void test_lines_bound(void **state)
{
	static struct reply r;
	static char buf[7 * 101 + 2];
	enum reply_state st;
	(void)state;

	for (size_t i = 0; i < 101; i++)
		memcpy(buf + 7 * i, "250-x\r\n", 7);
	memcpy(buf + 7 * 99, "250 e\r\n", 7);
	assert_int_equal(read_stream(&r, buf, 7 * 100, &st), 700);
	assert_int_equal(st, REPLY_DONE);
	assert_int_equal(r.nlines, REPLY_LINES_MAX);
	assert_int_equal(r.len, 100 * 5 + 99);
	assert_int_equal(reply_first_line(&r), 5);

	memcpy(buf + 7 * 99, "250-x\r\n", 7);
	memcpy(buf + 7 * 100, "250 e\r\n", 7);
	assert_int_equal(read_stream(&r, buf, 7 * 101, &st), 700);
	assert_int_equal(st, REPLY_BAD);
	assert_int_equal(r.error, REPLY_ELINES);
	assert_int_equal(r.nlines, 99);
}

/* A 10 MB banner: of "220-" lines, read no further than the 100th; of
 * one line, no further than the line bound. */
static void test_flood(void **state)
{
	enum { SIZE = 10 * 1024 * 1024 };
	static const char line[] = "220-flooding the banner with lines\r\n";
	static struct reply r;
	char *buf = malloc(SIZE);
	enum reply_state st;
	(void)state;

	assert_non_null(buf);
	for (size_t i = 0; i + sizeof line - 1 <= SIZE; i += sizeof line - 1)
		memcpy(buf + i, line, sizeof line - 1);
	assert_int_equal(read_stream(&r, buf, SIZE, &st),
	                 100 * (sizeof line - 1));
	assert_int_equal(st, REPLY_BAD);
	assert_int_equal(r.error, REPLY_ELINES);

	memset(buf, 'z', SIZE);
	memcpy(buf, "220 ", 4);
	assert_int_equal(read_stream(&r, buf, SIZE, &st), REPLY_LINE_MAX);
	assert_int_equal(st, REPLY_BAD);
	assert_int_equal(r.error, REPLY_ELINE);
	free(buf);
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(reply_strerror(REPLY_ELINE),
	                    "a reply line longer than 2048 bytes");
	assert_string_equal(reply_strerror(REPLY_ELINES),
	                    "a reply of more than 100 lines");
	assert_string_equal(reply_strerror(REPLY_ETEXT),
	                    "a reply longer than 65536 bytes");
	assert_string_equal(reply_strerror(REPLY_ECODE),
	                    "a reply line whose code is not its first line's");
	assert_string_equal(reply_strerror(REPLY_ENUL), "a NUL byte in a reply");
	assert_non_null(strstr(reply_strerror(REPLY_ESYNTAX), "100 to 599"));
}

/* The first line of a multi-line reply, as the verdict's lookup takes it. */
static void test_first_line(void **state)
{
	static struct reply r;
	static const char in[] = "452-4.3.1 Insufficient system storage\r\n"
	                         "452 4.3.1 try later\r\n";
	enum reply_state st;
	(void)state;

	reply_init(&r);
	assert_int_equal(reply_feed(&r, in, sizeof in - 1, &st), sizeof in - 1);
	assert_int_equal(st, REPLY_DONE);
	assert_int_equal(reply_first_line(&r), 37);
	assert_memory_equal(r.text, "452-4.3.1 Insufficient system storage", 37);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_finished),
		cmocka_unit_test(test_pipelined),
		cmocka_unit_test(test_line_bound),
		cmocka_unit_test(test_text_bound),
		cmocka_unit_test(test_lines_bound),
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_first_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
