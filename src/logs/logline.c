/*
 * Mail log lines: what the dialects share.  Each dialect is read in a file
 * of its own behind the interface of dialect.h (postfix.c: deliveries and
 * smtpd/cleanup rejects; exim.c: "**" and "==" lines; sendmail.c: "to="
 * lines); here are the prefilter and the dispatch that pick the readers
 * to try for a line, the dsn= field, and codes in any other text under
 * the policy against false positives below.
 *
 * Speed.  This runs over hundreds of megabytes of logs, so a line is never
 * walked byte by byte with function calls.  The prefilter ("Lines" below)
 * passes most lines without calling a reader.  Each layout is recognised by a
 * marker found with find(), which runs scan_pair() over two of the
 * marker's rarest bytes and compares the rest only at their hits (inline,
 * where the needle's length is a constant); each marker is looked for
 * once, and one that sits at the end of its text is looked for from the
 * end.  The fields a Postfix delivery line nearly always starts with
 * (to=, relay=, delay=, delays=, dsn=) are checked in their usual order,
 * each by the one name expected at its place, their ends found in one
 * pass, before the general walk of the fields takes over at the first
 * that is not.  The few per-byte loops
 * left only cross short tokens (a field's name, a host name).  The usual
 * shapes of a reply ("452 4.3.1 text") and of a dsn= field ("4.3.1") are
 * read in place; any other goes to smtpcode_parse().  Everything is
 * bounded by len and works on bytes: no NUL is needed or honoured,
 * nothing is allocated, and <ctype.h> is not used, so neither the locale
 * nor bytes >= 0x80 change a result.
 *
 * The policy of smtpcode_find_code() against false positives.  An
 * enhanced code is taken from free text only when all of these hold:
 *
 * 1. Shape: class 2, 4 or 5; a dot; a subject of one digit 0-7 (the only
 *    subjects RFC 3463 and the IANA registry define, so that versions such
 *    as Exim 4.94.2, Postfix 2.11.3 or perl/5.36.0 are not codes); a dot;
 *    a detail of 1 to 3 digits without a leading zero ("4.3.10" and
 *    "5.7.708" are codes, "4.3.1000" and "5.7.01" are not, and neither is
 *    a prefix of them).  The class-independent "X.7.1" is a notation of
 *    documentation, never of a server, and is not taken.
 *
 * 2. Left edge: the start of the text, or a byte that is none of: an ASCII
 *    letter or digit, '_', '.', '/', '@', '-', a byte >= 0x80.  So IP
 *    addresses ("10.5.7.1", "192.5.7.100"), versions ("v4.3.1", "Postfix
 *    3.5.7.1": its 5.7.1 follows a dot), queue IDs and hex ("ID4.2.2",
 *    "4F2A.5.7.1"), numbers glued to digits ("14.3.1"), paths and names
 *    ("perl/5.36.0", "lib-4.2.2") and a code touching a non-ASCII letter
 *    (UTF-8 "é5.7.1") are not codes.  White space, control bytes (NUL
 *    included) and the other punctuation separate: "(5.7.1)", "[4.4.1]",
 *    "#5.0.0", "dsn=5.1.1", "\"5.7.1\"", "<5.7.1>", ";5.7.1" are codes.
 *    The one exception to '-' is a continuation line, "550-5.7.1".
 *
 * 3. Right edge: the end of the text, or a byte that is none of: an ASCII
 *    letter or digit, '_', '@', a byte >= 0x80; nor '.', '-' or '/'
 *    followed by a letter, a digit, '_' or a byte >= 0x80; nor ':' followed
 *    by a digit.  So "5.7.1.2" and "2.0.0.1" (addresses, versions),
 *    "5.4.3.in-addr.arpa", "4.2.2-1" (a package version), "5.7.1x" and
 *    "4.3.1:25" (host and port: a reply never writes a code so) are not
 *    codes; "5.7.1." (end of a sentence), "4.3.1: text", "5.7.1)",
 *    "5.7.1," and "4.3.1:" are.
 *
 * 4. Timestamps ("12:45:51", "2024-05-01", "10:00:00.512") never have the
 *    shape of rule 1, and ports (":25") are digits without dots.
 *
 * 5. A basic code is taken with the enhanced code when exactly three
 *    digits 200-599 and one space or '-' precede it, and those digits
 *    themselves stand alone on the left (rule 2, '-' included): "550
 *    5.7.1" and "550-5.7.1" give 550 and 5.7.1; "1550 5.7.1" gives 5.7.1
 *    alone, and in "1550-5.7.1" the hyphen glues, so it is no code.  A
 *    lone basic code ("said 550") is not taken from free text: too many
 *    numbers look like one.  (Inside a reply that a layout locates, a
 *    basic code alone is taken: there it is in the place of a code.)
 *
 * What this misses or mistakes, knowingly: a code inside non-ASCII
 * punctuation (curly quotes, “5.7.1”) is missed, as missing a code is
 * better than inventing one; a date written d.m.yy ("5.1.24") has the
 * shape of a code and is taken.
 */
#include <string.h>

#include "dialect.h"
#include "logscan.h"
#include "logvocab.h"

static bool has_code(const struct smtpcode_query *q)
{
	return q->basic != 0 || q->enhanced;
}

/* ---- Codes in free text (the policy is at the top of this file) ---- */

/* Bytes that make a code before them part of something else. */
static bool glues_left(char c)
{
	return is_word(c) || c == '.' || c == '/' || c == '@' || c == '-';
}

/* Whether what follows a code at p makes it part of something else. */
static bool glued_right(const char *p, const char *end)
{
	if (p == end)
		return false;
	if (is_word(*p) || *p == '@')
		return true;
	if (end - p < 2)
		return false;
	if (*p == '.' || *p == '-' || *p == '/')
		return is_word(p[1]);
	return *p == ':' && is_digit(p[1]);
}

/* Whether the three bytes before the separator at c[-1] are a basic code
 * 200-599 that stands alone on its left (rule 5). */
static bool basic_before(const char *s, const char *c)
{
	const char *b = c - 4;
	if (c - s < 4 || b[0] < '2' || b[0] > '5' || !is_digit(b[1]) ||
	    !is_digit(b[2]))
		return false;
	return b == s || !glues_left(b[-1]);
}

/* Where the enhanced code at c starts: at its basic code if it has one,
 * at c if it stands alone, NULL if it is glued to what precedes it. */
static const char *code_start(const char *s, const char *c)
{
	bool sep = c > s && (c[-1] == ' ' || c[-1] == '-');
	if (sep && basic_before(s, c))
		return c - 4;
	if (c > s && glues_left(c[-1]))
		return NULL;
	return c;
}

/*
 * Fill *q and *at for the code [from, code_end), which the scanner has
 * checked: at runs to the end of its line, and q's text (the rest of the
 * line) is given relative to at->s, as for a reply parsed from there.
 */
static bool take_code(const char *from, const char *code_end,
                      const char *end, struct smtpcode_query *q,
                      struct smtpcode_text *at)
{
	const char *eol = scan_byte(code_end, end, '\n'), *t = code_end;

	if (smtpcode_parse(from, (size_t)(code_end - from), q) != SMTPCODE_OK)
		return false;
	if (!eol)
		eol = end;
	while (eol > code_end && is_space(eol[-1]))
		eol--;
	while (t < eol && is_space(*t))
		t++;
	q->text_off = (size_t)(t - from);
	q->text_len = (size_t)(eol - t);
	*at = span(from, eol);
	return true;
}

/* smtpcode_find_code() over [s, end), where no code starts in [s, first)
 * but at s (s <= first): the text before first is still what a code's
 * left edge is judged by. */
static bool find_code_from(const char *s, const char *first, const char *end,
                           struct smtpcode_query *q, struct smtpcode_text *at)
{
	const char *dot = first;

	/* Every enhanced code has a dot after its class digit and another
	 * after its subject digit: look at such pairs of dots only. */
	while (end - dot > 1 &&
	       (dot = scan_pair(dot + 1, end, '.', '.', 2)) != NULL) {
		const char *c = dot - 1, *from;
		size_t n = enhanced_length(c, end);
		if (n == 0 || glued_right(c + n, end))
			continue;
		from = code_start(s, c);
		if (from && take_code(from, c + n, end, q, at))
			return true;
	}
	memset(q, 0, sizeof *q);
	return false;
}

bool smtpcode_find_code(const char *s, size_t len, struct smtpcode_query *q,
                        struct smtpcode_text *at)
{
	memset(q, 0, sizeof *q);
	memset(at, 0, sizeof *at);
	return s && find_code_from(s, s, s + len, q, at);
}

/*
 * A basic code alone, for pasted text (smtpcode_find_pasted()): 4xx or
 * 5xx, standing where a reply starts.  That is the start of a line (after
 * blanks and '>' quoting), after a colon and blanks ("said: 550 ...",
 * "RCPT TO:<x@y>: 550 ..."), after a semicolon (a DSN's "smtp;550 ..."
 * or "smtp; 550 ..."), or right after a quote or '#' ("returned '554
 * ...'", "#550"); it ends at the text's end, a blank or a '-' that a
 * letter follows ("550-Mailbox").  So numbers in prose ("3 of 550
 * messages"), ports ("host:550"), times and sizes are not taken.
 */
static bool basic_reply_at(const char *s, const char *c, const char *end)
{
	const char *p = c;
	if (end - c < 3 || (c[0] != '4' && c[0] != '5') || !is_digit(c[1]) ||
	    !is_digit(c[2]))
		return false;
	if (c + 3 < end && c[3] != ' ' && c[3] != '\t' &&
	    !(c[3] == '-' && c + 4 < end && is_alpha(c[4])))
		return false;
	while (p > s && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '>'))
		p--;
	if (p == s || p[-1] == '\n' || p[-1] == '\r' || p[-1] == ';')
		return true;
	if (p < c && p[-1] == ':')
		return true;
	return p == c && (c[-1] == '\'' || c[-1] == '"' || c[-1] == '#');
}

/* A reply quoted in the text ("returned '550 5.1.1 ...'") ends before its
 * closing quote: the quote is not the reply's. */
static void unquote(const char *s, struct smtpcode_query *q,
                    struct smtpcode_text *at)
{
	char open = at->s > s ? at->s[-1] : 0;
	if ((open == '\'' || open == '"') && q->text_len &&
	    at->s[q->text_off + q->text_len - 1] == open) {
		q->text_len--;
		at->len--;
	}
}

bool smtpcode_find_pasted(const char *s, size_t len, struct smtpcode_query *q,
                          struct smtpcode_text *at)
{
	const char *end;
	if (smtpcode_find_code(s, len, q, at)) {
		unquote(s, q, at);
		return true;
	}
	if (!s)
		return false; /* (zeroed by smtpcode_find_code()) */
	end = s + len;
	for (const char *c = s; c < end; c++)
		if ((*c == '4' || *c == '5') && basic_reply_at(s, c, end) &&
		    take_code(c, c + 3, end, q, at)) {
			unquote(s, q, at);
			return true;
		}
	memset(q, 0, sizeof *q);
	return false;
}

/* ---- Replies ---- */

/*
 * The reply [a, b) (trimmed, not empty) of a shape usual_reply() does not
 * read: what smtpcode_parse() reads in it, else the first code the
 * free-text policy accepts in it.  smtpcode_parse() reads only what
 * starts with a digit or an X: Postfix's own words ("connect to ...:
 * Connection timed out") go straight to the free-text search.  Not
 * inlined: its locals, whose addresses are passed on, would give every
 * line with a reply a stack-protector check.
 */
NOINLINE void log_take_other_reply(struct smtpcode_logline *l,
                                   const char *a, const char *b)
{
	struct smtpcode_query q;
	struct smtpcode_text at;

	if ((is_digit(*a) || *a == 'X' || *a == 'x') &&
	    smtpcode_parse(a, (size_t)(b - a), &q) == SMTPCODE_OK) {
		l->reply = span(a, b);
		l->code = q;
	} else if (smtpcode_find_code(a, (size_t)(b - a), &q, &at)) {
		l->reply = at;
		l->code = q;
	}
}

/* Whether [p, end) starts with the lower-case word lit[0..n), ASCII case
 * aside, and the word ends there (not followed by a letter or '-'). */
static inline bool starts_word(const char *p, const char *end,
                               const char *lit, size_t n)
{
	if ((size_t)(end - p) < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((p[i] | (is_alpha(p[i]) ? 0x20 : 0)) != lit[i])
			return false;
	return p + n == end || !(is_alpha(p[n]) || p[n] == '-');
}

/* Called once per line that names a step, nearly every delivery line:
 * the steps are told apart by their first letter, so that a line costs
 * a comparison or two, not one per step. */
struct smtpcode_text log_stage_of(const char *a, const char *b)
{
#define STEP(lit, word)                                         \
	if (starts_word(a, b, (lit), sizeof(lit) - 1))          \
		return LOG_WORD(word);
	trim(&a, &b);
	if (a == b)
		return span(NULL, NULL);
	switch (*a | 0x20) {
	case 'r': STEP("rcpt", LOG_STAGE_RCPT); break;
	case 'm': STEP("mail", LOG_STAGE_MAIL); break;
	case 'e':
		STEP("end of data", LOG_STAGE_END_OF_DATA);
		STEP("end-of-message", LOG_STAGE_END_OF_DATA);
		STEP("ehlo", LOG_STAGE_HELO);
		break;
	case 'd': STEP("data", LOG_STAGE_DATA); break;
	case 'l': STEP("lhlo", LOG_STAGE_HELO); break; /* LMTP's */
	case 'c': STEP("connect", LOG_STAGE_CONNECT); break;
	case 'i': STEP("initial connection", LOG_STAGE_CONNECT); break;
	case 'h':
		STEP("helo", LOG_STAGE_HELO);
		STEP("header", LOG_STAGE_HEADER);
		break;
	case 's': STEP("starttls", LOG_STAGE_STARTTLS); break;
	case 'a': STEP("auth", LOG_STAGE_AUTH); break;
	case 'q': STEP("quit", LOG_STAGE_QUIT); break;
	case 'b':
		STEP("body", LOG_STAGE_BODY);
		STEP("bdat", LOG_STAGE_DATA); /* CHUNKING's DATA */
		break;
	}
#undef STEP
	return span(NULL, NULL);
}

/* A recipient as written, <> removed, and its domain. */
void log_take_recipient(struct smtpcode_logline *l, const char *a,
                        const char *b)
{
	trim(&a, &b);
	if (a < b && *a == '<') {
		const char *gt = scan_byte(++a, b, '>');
		b = gt ? gt : b;
	}
	take_address(l, a, b);
}

/*
 * dsn= parsed.  It nearly always holds a bare enhanced code ("4.2.2") of
 * the shape enhanced_length() checks (given the dot): read that here, as
 * smtpcode_parse() would (codes, no basic code, no text), and leave
 * anything else to it.
 */
static void take_dsn(struct smtpcode_logline *l)
{
	const char *c = l->dsn.s, *d;
	size_t n = l->dsn.len;
	struct smtpcode_query *q = &l->dsn_code;
	unsigned detail = 0;

	if (n >= 5 && c[1] == '.' && enhanced_length(c, c + n) == n) {
		for (d = c + 4; d < c + n; d++)
			detail = detail * 10 + (unsigned)(*d - '0');
		q->enhanced = true;
		q->cls = (unsigned char)(c[0] - '0');
		q->subject = (unsigned)(c[2] - '0');
		q->detail = detail;
		q->text_off = n;
		return;
	}
	if (smtpcode_parse(c, n, q) != SMTPCODE_OK)
		*q = (struct smtpcode_query){0};
}

/* ---- Lines ---- */

/*
 * Most lines of a mail log (connections, logins, a queue manager's from=)
 * hold no layout's marker and no code, and each search for one would
 * cross the whole line to find so.  Two passes find where the searches
 * may start, from bytes each marker and code has at a fixed place, and
 * tell when a line holds none: the first for ": to=" and Exim's " ** "
 * and " == ", the second (for the lines that are neither) for "reject",
 * "authen" and codes.  Each tests the places y with y + 4 < end: any of these
 * starts at or after one, and none is that short.
 */

/* Whether ": to=" (its ':' and '=') or an Exim marker (its doubled '*'
 * or '=', at y + 3 and y + 4) may start at y. */
static inline bool may_mark(const char *y)
{
	return (y[0] == ':' && y[4] == '=') ||
	       (y[3] == y[4] && (y[4] == '*' || y[4] == '='));
}

/* Whether "reject" (its "je"), "authen" (its "hen": a login refused,
 * whose line may hold no code) or a code at y + 1 may start at y: a code
 * (rules 1 and 2) by its two dots, after a byte that does not glue as
 * '.', '/' and the digits do. */
static inline bool may_code(const char *y)
{
	unsigned char before = (unsigned char)(y[0] - '.');
	return (y[2] == 'j' && y[3] == 'e') ||
	       (y[2] == 'h' && y[3] == 'e' && y[4] == 'n') ||
	       (y[2] == '.' && y[4] == '.' && before > '9' - '.');
}

#ifdef SCAN_SSE2
/* may_mark() at the sixteen places from at on (twenty bytes read). */
static inline __m128i may_mark16(const char *at)
{
	const __m128i colon = _mm_set1_epi8(':'), eq = _mm_set1_epi8('='),
	              star = _mm_set1_epi8('*');
	__m128i y0 = scan_load(at), y3 = scan_load(at + 3),
	        y4 = scan_load(at + 4), eq4 = _mm_cmpeq_epi8(y4, eq);
	__m128i to = _mm_and_si128(_mm_cmpeq_epi8(y0, colon), eq4);
	__m128i exim = _mm_and_si128(
	    _mm_cmpeq_epi8(y3, y4), _mm_or_si128(eq4, _mm_cmpeq_epi8(y4, star)));
	return _mm_or_si128(to, exim);
}

/* may_code() at the sixteen places from at on, but for the byte before a
 * code, which may_code16_exact() tests. */
static inline __m128i may_code16(const char *at)
{
	const __m128i j = _mm_set1_epi8('j'), e = _mm_set1_epi8('e'),
	              h = _mm_set1_epi8('h'), dot = _mm_set1_epi8('.');
	__m128i y2 = scan_load(at + 2), y4 = scan_load(at + 4);
	__m128i e3 = _mm_cmpeq_epi8(scan_load(at + 3), e);
	/* "je" or "he": 'j' or 'h' at y + 2, 'e' at y + 3 ("hen" is told
	 * from "he" by may_code16_exact()). */
	__m128i reject = _mm_and_si128(
	    _mm_or_si128(_mm_cmpeq_epi8(y2, j), _mm_cmpeq_epi8(y2, h)), e3);
	__m128i dots = _mm_and_si128(_mm_cmpeq_epi8(y2, dot),
	                             _mm_cmpeq_epi8(y4, dot));
	return _mm_or_si128(reject, dots);
}

/* Bit i set when may_code(at + i).  Two dots so placed are also in IP
 * addresses ("192.0.2.1"), where a digit or a dot glues to them: such
 * places are taken off here, where few remain. */
static inline unsigned may_code16_exact(const char *at)
{
	const __m128i dot = _mm_set1_epi8('.'), span = _mm_set1_epi8('9' - '.');
	__m128i before = _mm_sub_epi8(scan_load(at), dot);
	__m128i glued = _mm_cmpeq_epi8(_mm_min_epu8(before, span), before);
	__m128i y2 = scan_load(at + 2), y4 = scan_load(at + 4);
	__m128i dots = _mm_and_si128(_mm_cmpeq_epi8(y2, dot),
	                             _mm_cmpeq_epi8(y4, dot));
	/* A "he" not followed by 'n' ("the", "helo") is no "authen". */
	__m128i he_not_n = _mm_andnot_si128(_mm_cmpeq_epi8(y4, _mm_set1_epi8('n')),
	                                    _mm_cmpeq_epi8(y2, _mm_set1_epi8('h')));
	return (unsigned)_mm_movemask_epi8(_mm_andnot_si128(
	    _mm_or_si128(_mm_and_si128(glued, dots), he_not_n), may_code16(at)));
}

static inline unsigned may_mark16_exact(const char *at)
{
	return (unsigned)_mm_movemask_epi8(may_mark16(at));
}

/* Bit i set when may_mark() may hold at at + i: its places have '=' or
 * '*' at y + 4, which a syslog prefix ("May  1 10:00:00 mx1
 * postfix/smtp[25636]: ") does not hold. */
static inline unsigned may_mark16_rough(const char *at)
{
	__m128i y4 = scan_load(at + 4);
	return (unsigned)_mm_movemask_epi8(
	    _mm_or_si128(_mm_cmpeq_epi8(y4, _mm_set1_epi8('=')),
	                 _mm_cmpeq_epi8(y4, _mm_set1_epi8('*'))));
}

/* Bit i set when may_code() may hold at at + i: its places have 'j',
 * 'h' or '.' at y + 2. */
static inline unsigned may_code16_rough(const char *at)
{
	__m128i y2 = scan_load(at + 2);
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    _mm_or_si128(_mm_cmpeq_epi8(y2, _mm_set1_epi8('j')),
	                 _mm_cmpeq_epi8(y2, _mm_set1_epi8('h'))),
	    _mm_cmpeq_epi8(y2, _mm_set1_epi8('.'))));
}
#endif

/*
 * The first place y in [s, end - 4) where may(y), or NULL.  With SSE2,
 * rough16() passes the places that cannot be, by a byte each must have,
 * thirty-two a step, up to the first step with some that may, which
 * may() then tests one by one; after that step, many16() tests sixteen
 * places at once, roughly (a superset), and exact16() them as may() does,
 * where many16() found some.  (The byte rough16() looks for is rare in
 * the start of a line, a syslog prefix, and common after it: one step of
 * candidates at most bounds the cost of a line full of them.)
 */
static inline const char *first_place(const char *s, const char *end,
                                      bool (*may)(const char *)
#ifdef SCAN_SSE2
                                      , unsigned (*rough16)(const char *),
                                      __m128i (*many16)(const char *),
                                      unsigned (*exact16)(const char *)
#endif
)
{
	const char *y = s;
#ifdef SCAN_SSE2
	if (end - s >= 20) {
		const char *last = end - 20; /* where the last sixteen start */
		unsigned hits;
		/* rough16() reads from y + 4 at most: thirty-two places fit
		 * where y + 36 <= end. */
		for (; end - y >= 36; y += 32) {
			uint32_t maybe = rough16(y) | rough16(y + 16) << 16;
			if (maybe) {
				for (; maybe; maybe &= maybe - 1)
					if (may(y + __builtin_ctz(maybe)))
						return y + __builtin_ctz(maybe);
				y += 32;
				break;
			}
		}
		for (; y <= last; y += 16)
			if (_mm_movemask_epi8(many16(y)) &&
			    (hits = exact16(y)) != 0)
				return y + __builtin_ctz(hits);
		/* The places left, sixteen at most, from last on, which may
		 * overlap those already seen. */
		if (y <= last + 15 && (hits = exact16(last)) != 0)
			return last + __builtin_ctz(hits);
		return NULL;
	}
#endif
	for (; end - y > 4; y++)
		if (may(y))
			return y;
	return NULL;
}

#ifdef SCAN_SSE2
#define FIRST_PLACE(s, end, kind) \
	first_place((s), (end), may_##kind, may_##kind##16_rough, \
	            may_##kind##16, may_##kind##16_exact)
#else
#define FIRST_PLACE(s, end, kind) first_place((s), (end), may_##kind)
#endif

/* Where the search for a reject or a code in [s, end) may start, or NULL
 * when there is neither.  Not inlined: it was kept out of the parse when
 * inlining it there made GCC stop inlining postfix_detail() (now in
 * postfix.c, where that cannot happen); it stays out of line for the
 * lines a reader with a marker took, which never come here. */
static NOINLINE const char *first_code_place(const char *s, const char *end)
{
	if (end - s >= 5 && s[1] == '.' && s[3] == '.')
		return s; /* a code at the very start: nothing glues before it */
	return FIRST_PLACE(s, end, code);
}

/*
 * The built-in dialects' readers (dialect.h), in the order they are tried:
 * first those of lines with a field marker, at the prefilter's first
 * place of one, then those of lines with a code.  The order is the one
 * the readers were tried in before they had files of their own: a line
 * that two would take (a Postfix line quoting an Exim marker) is read as
 * it always was.
 */
static const struct log_dialect at_mark[] = {
	{"postfix", LOG_AT_MARK, log_postfix_delivery},
	{"exim", LOG_AT_MARK, log_exim_read},
};
static const struct log_dialect at_code[] = {
	{"postfix", LOG_AT_REJECT, log_postfix_reject},
	{"sendmail", LOG_AT_REJECT, log_sendmail_reject},
	{"exim", LOG_AT_REJECT, log_exim_reject},
	{"exim", LOG_AT_AUTH, log_exim_auth},
	{"postfix", LOG_AT_AUTH, log_postfix_auth},
};

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

bool log_parse(const char *s, size_t len, struct smtpcode_logline *l,
               const struct log_dialect_rec **rec)
{
	const char *end, *from, *reject, *authen;
	size_t i;

	log_clear(l);
	if (rec)
		*rec = NULL;
	if (!s)
		return false;
	end = s + len;
	while (end > s && is_space(end[-1]))
		end--;
	/* Most lines hold neither a marker nor a code: the prefilter says so
	 * without a reader being called. */
	if ((from = FIRST_PLACE(s, end, mark)) != NULL)
		for (i = 0; i < COUNT(at_mark); i++)
			if (at_mark[i].read(l, s, from, end))
				goto read;
	if ((from = first_code_place(s, end)) == NULL) {
		/* No code: a data dialect reads the line only when its program
		 * wrote it (fields.c: a basic code alone, or words alone).  The
		 * tag is tested before log_fields_line() is called, whose
		 * saving and restoring of registers cost the lines of other
		 * programs, most lines, some 30 instructions each for nothing
		 * (2.96M instructions for 4120 Postfix qmgr lines' --extract,
		 * from 3.09M; 150.5M for the generated 20 MB log, from
		 * 151.1M; a Dovecot line, whose program has a record, pays 8
		 * for the second call). */
		uint32_t mine = log_program_dialects(s, end);
		if (mine)
			log_fields_line(l, s, end, false, mine, rec);
		goto read;
	}
	/* The prefilter looks for "reject"'s "je" and "authen"'s "hen" at
	 * its place + 2: "reject" starts at or after from, "authen" at or
	 * after the byte before. */
	reject = FIND(from, end, "reject", 2, 3);
	authen = FIND(from > s ? from - 1 : from, end, "authen", 3, 5);
	for (i = 0; i < COUNT(at_code); i++) {
		const char *at =
		    at_code[i].stage == LOG_AT_REJECT ? reject : authen;
		if (at && at_code[i].read(l, s, at, end))
			goto read;
	}
	/* Then the dialects that are data (data/logs/, engine fields); a
	 * line none takes is free text. */
	if (log_fields_line(l, s, end, true, log_program_dialects(s, end),
	                    rec))
		goto read;
	if (find_code_from(s, from, end, &l->code, &l->reply))
		l->format = SMTPCODE_LOG_TEXT;
read:
	if (l->dsn.len)
		take_dsn(l);
	return has_code(&l->code) || has_code(&l->dsn_code);
}

/* The record of the dialect is not asked for: no local whose address
 * is given away, which would cost every line a stack-protector check,
 * and the call is a jump. */
bool smtpcode_log_parse(const char *s, size_t len, struct smtpcode_logline *l)
{
	return log_parse(s, len, l, NULL);
}
