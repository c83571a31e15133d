/*
 * The data format's lines and phrases (see datafmt.h): one reading for
 * the generator and for rules files.
 */
#include <stdio.h>
#include <string.h>

#include "datafmt.h"
#include "utf8.h"

enum datafmt_line datafmt_line(const char *s, size_t n,
                               struct datafmt_field *f, char *why,
                               size_t size)
{
	size_t indent = 0;
	const char *colon;

	memset(f, 0, sizeof *f);
	if (memchr(s, '\0', n)) {
		snprintf(why, size, "NUL byte");
		return DATAFMT_ERROR;
	}
	while (indent < n && s[indent] == ' ')
		indent++;
	if (indent == n)
		return DATAFMT_BLANK;
	if (s[0] == '#')
		return DATAFMT_COMMENT;
	/* No control characters (tabs included: they render
	 * unpredictably), and valid UTF-8 only. */
	for (size_t i = indent, k; i < n; i += k) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f) {
			snprintf(why, size, "control character 0x%02x in column "
			         "%zu", c, i + 1);
			return DATAFMT_ERROR;
		}
		if ((k = utf8_len((const unsigned char *)s + i, n - i)) == 0) {
			snprintf(why, size, "invalid UTF-8 in column %zu", i + 1);
			return DATAFMT_ERROR;
		}
	}
	if (indent) {
		f->value = s + indent;
		return DATAFMT_CONTINUATION;
	}
	if (!(colon = memchr(s, ':', n))) {
		snprintf(why, size, "expected 'key: value'");
		return DATAFMT_ERROR;
	}
	f->key = s;
	f->keylen = (size_t)(colon - s);
	f->value = colon + 1;
	while (f->value < s + n && *f->value == ' ')
		f->value++;
	if (f->value == s + n) {
		snprintf(why, size, "empty value for '%.*s'", (int)f->keylen, s);
		return DATAFMT_ERROR;
	}
	return DATAFMT_FIELD;
}

const char *datafmt_wording_problem(const char *p)
{
	size_t n = strlen(p);
	if (n < DATAFMT_WORDING_MIN || n > DATAFMT_WORDING_MAX || p[0] == ' ' ||
	    p[n - 1] == ' ')
		return "a reason's phrase is 4 to 80 characters without blanks "
		       "at its ends";
	/* The matcher passes over <...> (an address or a host, not the
	 * reply's words): a phrase there would never be found. */
	if (strpbrk(p, "<>"))
		return "a reason's phrase has no '<' or '>' (the matcher skips "
		       "what they enclose)";
	if (strstr(p, "  "))
		return "a reason's phrase has no double spaces (a space matches "
		       "any run of blanks)";
	return NULL;
}

const char *datafmt_fragment_problem(const char *s)
{
	size_t n = strlen(s);
	if (n < 3 || n > 80 || s[n - 1] == ' ')
		return "a fragment of 3 to 80 characters";
	return NULL;
}

int datafmt_same_phrase(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = datafmt_fold((unsigned char)*a);
		int y = datafmt_fold((unsigned char)*b);
		if (x != y)
			return 0;
		if (!x)
			return 1;
	}
}
