/*
 * Patterns and search words: smtpcode_pattern_parse() and
 * smtpcode_pattern_match() over the whole table, and
 * smtpcode_search_match().  The input's first line is the pattern; the
 * rest, split at blanks, are the search words (at most 4).
 *
 * Invariants: a pattern is OK or ESYNTAX; a parsed pattern is in range,
 * and written back canonically ("5.7.*", "X.2.X", "4xx") it parses to the
 * same pattern; only basic and enhanced entries match, and exactly those
 * whose codes agree with every part; a search matches an entry exactly
 * when each word does on its own, which a naive search of the entry's
 * texts confirms; no words at all match every basic and enhanced entry,
 * and nothing else.  Each input checks a window of the table that it
 * picks (see PATTERN_WINDOW).
 */
#include "fuzz.h"

#define MAX_WORDS 4

/* Write p back as a pattern. */
static void canonical(const struct smtpcode_pattern *p, char *buf,
                      size_t size)
{
	char part[3][16];
	if (p->kind == SMTPCODE_PATTERN_ALL) {
		snprintf(buf, size, "*");
		return;
	}
	for (int i = 0; i < 3; i++) {
		if (p->part[i] >= 0)
			snprintf(part[i], sizeof part[i], "%d", p->part[i]);
		else if (p->kind == SMTPCODE_PATTERN_BASIC)
			snprintf(part[i], sizeof part[i], "x");
		else if (i == 0 && !p->wild)
			snprintf(part[i], sizeof part[i], "X"); /* X.3.1 */
		else
			snprintf(part[i], sizeof part[i], "*");
	}
	if (p->kind == SMTPCODE_PATTERN_BASIC)
		snprintf(buf, size, "%s%s%s", part[0], part[1], part[2]);
	else
		snprintf(buf, size, "%s.%s.%s", part[0], part[1], part[2]);
}

static int same_pattern(const struct smtpcode_pattern *a,
                        const struct smtpcode_pattern *b)
{
	return a->kind == b->kind && a->wild == b->wild &&
	       a->part[0] == b->part[0] && a->part[1] == b->part[1] &&
	       a->part[2] == b->part[2];
}

static int part_ok(int want, unsigned have)
{
	return want < 0 || (unsigned)want == have;
}

/* What matching means, from the entry's code. */
static int should_match(const struct smtpcode_pattern *p,
                        const struct smtpcode_entry *e)
{
	enum smtpcode_kind k = smtpcode_kind(e);
	const char *code = smtpcode_text(e, SMTPCODE_CODE);
	struct smtpcode_query q;

	if (k != SMTPCODE_KIND_BASIC && k != SMTPCODE_KIND_ENHANCED)
		return 0;
	if (p->kind == SMTPCODE_PATTERN_ALL)
		return 1;
	CHECK(smtpcode_parse(code, strlen(code), &q) == SMTPCODE_OK);
	if (p->kind == SMTPCODE_PATTERN_BASIC)
		return k == SMTPCODE_KIND_BASIC && part_ok(p->part[0], q.basic / 100) &&
		       part_ok(p->part[1], q.basic / 10 % 10) &&
		       part_ok(p->part[2], q.basic % 10);
	return k == SMTPCODE_KIND_ENHANCED && part_ok(p->part[0], q.cls) &&
	       part_ok(p->part[1], q.subject) && part_ok(p->part[2], q.detail);
}

/* Matching is checked over a window of PATTERN_WINDOW entries that the
 * input picks, search over one of SEARCH_WINDOW: the whole table (783
 * entries, 236 kB of text) for every input would run a few hundred
 * inputs a second. */
#define PATTERN_WINDOW 64
#define SEARCH_WINDOW 4

static void check_pattern(const char *s, size_t len, unsigned pick)
{
	struct smtpcode_pattern p, c;
	enum smtpcode_error err = smtpcode_pattern_parse(s, len, &p);
	size_t entries = smtpcode_table_size();
	char text[64];

	CHECK(err == SMTPCODE_OK || err == SMTPCODE_ESYNTAX);
	if (err != SMTPCODE_OK)
		return;
	switch (p.kind) {
	case SMTPCODE_PATTERN_ALL:
		CHECK(p.wild);
		break;
	case SMTPCODE_PATTERN_BASIC:
		CHECK(p.part[0] == -1 || (p.part[0] >= 2 && p.part[0] <= 5));
		CHECK(p.part[1] >= -1 && p.part[1] <= 9);
		CHECK(p.part[2] >= -1 && p.part[2] <= 9);
		CHECK(p.wild == (p.part[0] < 0 || p.part[1] < 0 || p.part[2] < 0));
		break;
	case SMTPCODE_PATTERN_ENHANCED:
		CHECK(p.part[0] == -1 || p.part[0] == 2 || p.part[0] == 4 ||
		      p.part[0] == 5);
		CHECK(p.part[1] >= -1 && p.part[1] <= 999);
		CHECK(p.part[2] >= -1 && p.part[2] <= 999);
		if (p.part[1] < 0 || p.part[2] < 0)
			CHECK(p.wild);
		break;
	default:
		fuzz_fail(__FILE__, __LINE__, "a known pattern kind");
	}
	canonical(&p, text, sizeof text);
	CHECK(smtpcode_pattern_parse(text, strlen(text), &c) == SMTPCODE_OK);
	CHECK(same_pattern(&p, &c));
	for (size_t j = 0; j < PATTERN_WINDOW && j < entries; j++) {
		const struct smtpcode_entry *e =
		    smtpcode_table_entry((pick + j) % entries);
		bool m = smtpcode_pattern_match(&p, e);
		CHECK(m == should_match(&p, e));
	}
}

FUZZ_ORACLE static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

FUZZ_ORACLE static int naive_has(const char *text, const char *word)
{
	size_t n = strlen(text), m = strlen(word);
	if (m == 0)
		return 1;
	for (size_t i = 0; i + m <= n; i++) {
		size_t k = 0;
		while (k < m && fold((unsigned char)text[i + k]) ==
		                    fold((unsigned char)word[k]))
			k++;
		if (k == m)
			return 1;
	}
	return 0;
}

/* Whether word is in e's name, meaning or (a provider's entry) phrases. */
static int naive_match(const struct smtpcode_entry *e, const char *word)
{
	const struct smtpcode_entry *prov = smtpcode_provider_of(e);
	if (naive_has(smtpcode_text(e, SMTPCODE_NAME), word) ||
	    naive_has(smtpcode_text(e, SMTPCODE_MEANING), word))
		return 1;
	for (size_t k = 0; prov && k < smtpcode_count(e, SMTPCODE_MATCHES); k++)
		if (naive_has(smtpcode_item(e, SMTPCODE_MATCHES, k).text, word))
			return 1;
	return 0;
}

static void check_search(char *rest, size_t len, unsigned pick)
{
	const char *words[MAX_WORDS];
	size_t n = 0, entries = smtpcode_table_size();
	char *p = rest, *end = rest + len;

	/* Words split at blanks, as the shell splits the CLI's. */
	while (p < end && n < MAX_WORDS) {
		while (p < end && (*p == ' ' || *p == '\n' || *p == '\t'))
			*p++ = '\0';
		if (p == end)
			break;
		words[n++] = p;
		while (p < end && *p != ' ' && *p != '\n' && *p != '\t')
			p++;
		if (p < end)
			*p++ = '\0';
	}
	for (size_t j = 0; j < SEARCH_WINDOW && j < entries; j++) {
		const struct smtpcode_entry *e =
		    smtpcode_table_entry((pick + j) % entries);
		enum smtpcode_kind k = smtpcode_kind(e);
		bool all = smtpcode_search_match(e, words, n), want = true;
		unsigned rank = smtpcode_search_rank(e, words, n);
		if (k != SMTPCODE_KIND_BASIC && k != SMTPCODE_KIND_ENHANCED) {
			CHECK(!all);
			continue;
		}
		CHECK(smtpcode_search_match(e, words, 0));
		/* A word a naive search of the entry's texts finds matches (a
		 * synonym may match more); all words match when each does (and
		 * may when some do not: "over quota" finds "mailbox full"). */
		for (size_t w = 0; w < n; w++) {
			bool one = smtpcode_search_match(e, &words[w], 1);
			CHECK(one || !naive_match(e, words[w]));
			want = want && one;
		}
		CHECK(all || !want);
		/* The rank: 0 exactly when no match; a provider's entry odd
		 * ranks never, a standard entry's even ranks never. */
		CHECK((rank != 0) == all);
		CHECK(rank <= SMTPCODE_SEARCH_RANKS);
		CHECK(!rank || (rank % 2 == 0) == (smtpcode_provider_of(e) != NULL));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *nl = size ? memchr(s, '\n', size) : NULL;
	size_t plen = nl ? (size_t)(nl - s) : size;
	unsigned pick = 0;
	char *rest;

	for (size_t i = 0; i < size; i++)
		pick = pick * 131 + data[i];
	check_pattern(s, plen, pick);
	rest = fuzz_strdup(nl ? data + plen + 1 : data + size,
	                   nl ? size - plen - 1 : 0);
	check_search(rest, strlen(rest), pick);
	free(rest);
	return 0;
}
