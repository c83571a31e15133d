/* Finding, counting and comparing bytes (src/util/scan.h): every start, length and place
 * of the byte, against a byte-by-byte search, in an exactly sized heap
 * buffer so that a read past the span shows under ASan and valgrind. */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mime.h"
#include "scan.h"

#define MAXLEN 200

static const char *naive_find(const char *p, const char *end, char c)
{
	for (; p < end; p++)
		if (*p == c)
			return p;
	return NULL;
}

static size_t naive_count(const char *p, const char *end, char c)
{
	size_t n = 0;
	for (; p < end; p++)
		n += *p == c;
	return n;
}

static const char *naive_last(const char *p, const char *end, char c)
{
	const char *last = NULL;
	for (; p < end; p++)
		if (*p == c)
			last = p;
	return last;
}

/* Spans of every length 0..MAXLEN, the byte absent, or at one place, or
 * at two (the first must be found, or the last), each span alone in its
 * allocation. */
static void test_every_place(void **state)
{
	(void)state;
	for (size_t len = 0; len <= MAXLEN; len++) {
		for (size_t at = 0; at <= len; at++) { /* at == len: absent */
			char *s = malloc(len ? len : 1);
			assert_non_null(s);
			memset(s, 'a', len);
			if (at < len)
				s[at] = '\n';
			if (at + 37 < len)
				s[at + 37] = '\n';
			assert_ptr_equal(scan_byte(s, s + len, '\n'),
			                 naive_find(s, s + len, '\n'));
			assert_int_equal(scan_count(s, s + len, '\n'),
			                 naive_count(s, s + len, '\n'));
			assert_ptr_equal(scan_last(s, s + len, '\n'),
			                 naive_last(s, s + len, '\n'));
			/* From every start, too. */
			for (size_t from = 0; from < len; from += 7) {
				assert_ptr_equal(scan_byte(s + from, s + len, '\n'),
				                 naive_find(s + from, s + len, '\n'));
				assert_ptr_equal(scan_last(s + from, s + len, '\n'),
				                 naive_last(s + from, s + len, '\n'));
			}
			free(s);
		}
	}
}

/* Bytes >= 0x80 and NUL are bytes like any other; a count of more than
 * 255 per lane (the SSE2 counter's limit) is still exact. */
static void test_any_byte_and_long_counts(void **state)
{
	static char big[70000];
	(void)state;
	for (int c = 0; c < 256; c++) {
		char s[40];
		memset(s, c == 'x' ? 'y' : 'x', sizeof s);
		s[33] = (char)c;
		assert_ptr_equal(scan_byte(s, s + sizeof s, (char)c), s + 33);
	}
	memset(big, '\n', sizeof big);
	assert_int_equal(scan_count(big, big + sizeof big, '\n'), sizeof big);
	big[12345] = 'z';
	assert_int_equal(scan_count(big, big + sizeof big, '\n'), sizeof big - 1);
	assert_ptr_equal(scan_byte(big, big + sizeof big, 'z'), big + 12345);
	assert_null(scan_byte(big, big, '\n'));
	/* Around the counters' limit: a run of steps and then a tail. */
	memset(big, '\n', sizeof big);
	for (size_t len = 8000; len < 8300; len++)
		assert_int_equal(scan_count(big, big + len, '\n'), len);
}

static const char *naive_pair(const char *p, const char *end, char a, char b,
                              size_t d)
{
	for (; end - p > (ptrdiff_t)d; p++)
		if (p[0] == a && p[d] == b)
			return p;
	return NULL;
}

/* Pairs at every place of spans of every length, for several distances,
 * among decoys (an a without its b, a b without its a), from several
 * starts; each span alone in its allocation. */
static void test_pair(void **state)
{
	static const size_t ds[] = {1, 2, 4, 7};
	(void)state;
	for (size_t k = 0; k < sizeof ds / sizeof *ds; k++) {
		size_t d = ds[k];
		for (size_t len = 0; len <= 80; len++) {
			for (size_t at = 0; at <= len; at++) {
				char *s = malloc(len ? len : 1);
				assert_non_null(s);
				for (size_t i = 0; i < len; i++) /* decoys */
					s[i] = i % 11 == 3 ? ':' : i % 13 == 5 ? '=' : 'x';
				if (at + d < len) {
					s[at] = ':';
					s[at + d] = '=';
				}
				for (size_t from = 0; from <= len; from += 3)
					assert_ptr_equal(
					    scan_pair(s + from, s + len, ':', '=', d),
					    naive_pair(s + from, s + len, ':', '=', d));
				free(s);
			}
		}
	}
}

static const char *naive_doubled(const char *p, const char *end, char a,
                                 char b)
{
	for (; end - p > 1; p++)
		if (p[0] == p[1] && (p[0] == a || p[0] == b))
			return p;
	return NULL;
}

/* A doubled byte (either of two) at every place, among single ones and
 * doubled others, from several starts. */
static void test_doubled(void **state)
{
	(void)state;
	for (size_t len = 0; len <= 80; len++) {
		for (size_t at = 0; at <= len; at++) {
			char *s = malloc(len ? len : 1);
			assert_non_null(s);
			for (size_t i = 0; i < len; i++) /* decoys */
				s[i] = i % 7 == 2 ? '*' : i % 11 < 2 ? '-' : 'x';
			if (at + 1 < len)
				s[at] = s[at + 1] = at % 2 ? '*' : '=';
			for (size_t from = 0; from <= len; from += 3)
				assert_ptr_equal(
				    scan_doubled(s + from, s + len, '*', '='),
				    naive_doubled(s + from, s + len, '*', '='));
			free(s);
		}
	}
}

static const char *naive_upto(const char *p, const char *end, unsigned char c)
{
	for (; p < end; p++)
		if ((unsigned char)*p <= c)
			return p;
	return NULL;
}

/* A byte at or below the limit at every place of spans of every length,
 * among bytes above it, from several starts; and every byte value against
 * every limit, unsigned (0x80 and above are above ','). */
static void test_upto(void **state)
{
	(void)state;
	for (size_t len = 0; len <= 80; len++) {
		for (size_t at = 0; at <= len; at++) {
			char *s = malloc(len ? len : 1);
			assert_non_null(s);
			for (size_t i = 0; i < len; i++) /* above ',' */
				s[i] = i % 5 == 1 ? '-' : i % 7 == 3 ? (char)0xe9 : 'x';
			if (at < len)
				s[at] = at % 3 == 0 ? ',' : at % 3 == 1 ? ' ' : '\0';
			if (at + 19 < len)
				s[at + 19] = '(';
			for (size_t from = 0; from <= len; from += 3)
				assert_ptr_equal(scan_upto(s + from, s + len, ','),
				                 naive_upto(s + from, s + len, ','));
			free(s);
		}
	}
	for (int c = 0; c < 256; c++) {
		for (int limit = 0; limit < 256; limit += 5) {
			char s[40];
			memset(s, (char)0xff, sizeof s);
			s[21] = (char)c;
			assert_ptr_equal(
			    scan_upto(s, s + sizeof s, (unsigned char)limit),
			    naive_upto(s, s + sizeof s, (unsigned char)limit));
			assert_ptr_equal(
			    scan_upto(s + 9, s + 30, (unsigned char)limit),
			    naive_upto(s + 9, s + 30, (unsigned char)limit));
		}
	}
}

/* Equal spans of every length, and a difference at every place. */
static void test_same(void **state)
{
	(void)state;
	for (size_t len = 0; len <= 70; len++) {
		char *a = malloc(len ? len : 1), *b = malloc(len ? len : 1);
		assert_non_null(a);
		assert_non_null(b);
		for (size_t i = 0; i < len; i++)
			a[i] = b[i] = (char)('a' + i % 26);
		assert_true(scan_same(a, b, len));
		for (size_t at = 0; at < len; at++) {
			b[at] = '#';
			assert_false(scan_same(a, b, len));
			b[at] = a[at];
		}
		free(a);
		free(b);
	}
}

/* A header field's name (src/mail/mime.c, sixteen bytes a step): a line
 * is a field when a run of name characters (33-126 but ':') is followed
 * by blanks and a colon, whatever the run's length, for every byte that
 * may end it, at every place in and after the first sixteen, and what
 * follows the byte that ends it does not make it a field. */
static int field_reference(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (unsigned char)s[i] > ' ' && (unsigned char)s[i] < 127 &&
	       s[i] != ':')
		i++;
	if (i == 0)
		return 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < n && s[i] == ':';
}

static void test_field_names(void **state)
{
	static const char enders[] = {':', ' ', '\t', '\x7f', '\x80', '\xff',
	                              '\x01', '\x20', '\x21', '\x7e', '\x39', '\x3b'};
	char line[64];
	(void)state;
	for (size_t len = 0; len < 48; len++) {
		for (size_t e = 0; e < sizeof enders; e++) {
			for (size_t tail = 0; tail < 4; tail++) {
				struct span sp;
				size_t n = len;
				memset(line, 'X', sizeof line);
				line[n++] = enders[e];
				if (tail == 1)
					line[n++] = ':';
				if (tail == 2) {
					line[n++] = ' ';
					line[n++] = ':';
				}
				if (tail == 3) { /* a name does not go on past it */
					line[n++] = 'Y';
					line[n++] = ':';
				}
				memcpy(line + n, " value", 6);
				n += 6;
				sp.p = line;
				sp.e = line + n;
				if (mime_field_line(sp) != (field_reference(line, n) != 0))
					fail_msg("name of %zu, ender 0x%02x, tail %zu", len,
					         (unsigned char)enders[e], tail);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_place),
		cmocka_unit_test(test_field_names),
		cmocka_unit_test(test_any_byte_and_long_counts),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_doubled),
		cmocka_unit_test(test_upto),
		cmocka_unit_test(test_same),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
