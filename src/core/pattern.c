/*
 * Patterns of codes for listing ("5.7.*", "X.2.X", "4xx").  Bounded by
 * len, ASCII only, no allocation.  Word search is search.c's.
 */
#include <string.h>

#include "table.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_wild(char c) { return c == '*' || c == 'x' || c == 'X'; }

/* One part of an enhanced pattern at s[0..n): 1-3 digits or a wildcard. */
static int parse_part(const char *s, size_t n, int *v)
{
	if (n == 1 && is_wild(*s)) {
		*v = -1;
		return 0;
	}
	if (n < 1 || n > 3)
		return -1;
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

static enum smtpcode_error parse_enhanced(const char *s, size_t len,
                                          struct smtpcode_pattern *p)
{
	size_t start = 0, nparts = 0;
	p->kind = SMTPCODE_PATTERN_ENHANCED;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		if (nparts == 3 ||
		    parse_part(s + start, i - start, &p->part[nparts]) != 0)
			return SMTPCODE_ESYNTAX;
		nparts++;
		start = i + 1;
	}
	/* "5.*": a last "*" stands for the parts after it too. */
	if (nparts < 3 && !(s[len - 1] == '*'))
		return SMTPCODE_ESYNTAX;
	if (p->part[0] >= 0 && p->part[0] != 2 && p->part[0] != 4 &&
	    p->part[0] != 5)
		return SMTPCODE_ESYNTAX;
	p->wild = nparts < 3 || p->part[1] < 0 || p->part[2] < 0 ||
	          (p->part[0] < 0 && s[0] == '*');
	return SMTPCODE_OK;
}

static enum smtpcode_error parse_basic(const char *s, size_t len,
                                       struct smtpcode_pattern *p)
{
	p->kind = SMTPCODE_PATTERN_BASIC;
	if (len > 3 || (len < 3 && s[len - 1] != '*'))
		return SMTPCODE_ESYNTAX;
	for (size_t i = 0; i < len; i++) {
		if (is_digit(s[i]))
			p->part[i] = s[i] - '0';
		else if (is_wild(s[i]))
			p->wild = true;
		else
			return SMTPCODE_ESYNTAX;
	}
	if (p->part[0] >= 0 && (p->part[0] < 2 || p->part[0] > 5))
		return SMTPCODE_ESYNTAX;
	return SMTPCODE_OK;
}

enum smtpcode_error smtpcode_pattern_parse(const char *s, size_t len,
                                           struct smtpcode_pattern *p)
{
	enum smtpcode_error err;
	memset(p, 0, sizeof *p);
	p->part[0] = p->part[1] = p->part[2] = -1;
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len == 1 && *s == '*') {
		p->wild = true;
		return SMTPCODE_OK;
	}
	if (len == 0)
		return SMTPCODE_ESYNTAX;
	err = memchr(s, '.', len) ? parse_enhanced(s, len, p)
	                          : parse_basic(s, len, p);
	if (err) {
		memset(p, 0, sizeof *p);
		p->part[0] = p->part[1] = p->part[2] = -1;
	}
	return err;
}

static bool part_matches(int want, unsigned have)
{
	return want < 0 || (unsigned)want == have;
}

bool smtpcode_pattern_match(const struct smtpcode_pattern *p,
                            const struct smtpcode_entry *e)
{
	const char *code = table_pool + e->text[SMTPCODE_CODE];
	enum smtpcode_kind kind = smtpcode_kind(e);
	struct smtpcode_query q;

	if (kind != SMTPCODE_KIND_BASIC && kind != SMTPCODE_KIND_ENHANCED)
		return false;
	if (p->kind == SMTPCODE_PATTERN_ALL)
		return true;
	if (smtpcode_parse(code, strlen(code), &q) != SMTPCODE_OK)
		return false;
	if (p->kind == SMTPCODE_PATTERN_BASIC)
		return kind == SMTPCODE_KIND_BASIC &&
		       part_matches(p->part[0], q.basic / 100) &&
		       part_matches(p->part[1], q.basic / 10 % 10) &&
		       part_matches(p->part[2], q.basic % 10);
	/* A class digit matches its variants; a wildcard class also X.S.D. */
	return kind == SMTPCODE_KIND_ENHANCED &&
	       (p->part[0] < 0 || (unsigned)p->part[0] == q.cls) &&
	       part_matches(p->part[1], q.subject) &&
	       part_matches(p->part[2], q.detail);
}
