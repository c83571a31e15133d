/*
 * Mail log lines: Postfix delivery lines and smtpd/cleanup rejects, Exim
 * "**" and "==" lines, Sendmail "to=" lines, and codes in any other text.
 *
 * Speed.  This runs over hundreds of megabytes of logs, so a line is never
 * walked byte by byte with function calls.  Each layout is recognised by a
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

#include "scan.h"
#include "smtpcode.h"

/* ---- Bytes ---- */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_alpha(char c) { return is_upper(c) || (c >= 'a' && c <= 'z'); }
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Part of a word: bytes >= 0x80 are taken as letters (of UTF-8 or of an
 * unknown charset), since nothing tells them from letters cheaply. */
static bool is_word(char c)
{
	return is_digit(c) || is_alpha(c) || c == '_' || (unsigned char)c >= 0x80;
}

/* ---- Spans ---- */

static struct smtpcode_text span(const char *a, const char *b)
{
	struct smtpcode_text t = {NULL, 0};
	if (a && b > a) {
		t.s = a;
		t.len = (size_t)(b - a);
	}
	return t;
}

static inline void trim(const char **a, const char **b)
{
	while (*a < *b && is_space(**a))
		(*a)++;
	while (*b > *a && is_space((*b)[-1]))
		(*b)--;
}

/*
 * *l with every field absent, which is all zero bytes (NULL, 0, false,
 * SMTPCODE_LOG_NONE; POSIX makes a null pointer all zero bits).  Not one
 * memset() of it all: at this size GCC makes that a string instruction,
 * slow to start, and this runs per line; up to 64 bytes it stores
 * sixteen at a time, half the stores of field by field.
 */
static void clear(struct smtpcode_logline *l)
{
	char *b = (char *)l;

	_Static_assert(sizeof *l > 128 && sizeof *l <= 192,
	               "clear() stores three pieces of 64 bytes at most");
	memset(b, 0, 64);
	memset(b + 64, 0, 64);
	memset(b + 128, 0, sizeof *l - 128);
}

static bool has_code(const struct smtpcode_query *q)
{
	return q->basic != 0 || q->enhanced;
}

/* ---- Searching ---- */

/*
 * Whether p[0..n) holds lit[0..n).  The searches below are inline so that
 * n is a constant at each place they are used, where the compiler turns
 * scan_same() into a load or two, rather than a call per candidate.  (A
 * function of its own: called directly, cppcheck takes the short literals
 * here for reads past their end on scan_same()'s longer paths.)
 */
static inline bool same(const char *p, const char *lit, size_t n)
{
	return scan_same(p, lit, n);
}

/*
 * The first needle[0..n) in [p, end), or NULL.  scan_pair() runs over
 * needle[k] and needle[j] (k < j) together, which the caller picks as the
 * pair of the needle's bytes least often found so placed in logs (the ':'
 * and '=' of ": to=", the two '*' of " ** "), so the comparisons are few.
 * (memmem() is neither C11 nor POSIX.1-2008, and cannot be told which
 * bytes are rare.)
 */
static inline const char *find(const char *p, const char *end,
                               const char *needle, size_t n, size_t k,
                               size_t j)
{
	const char *hit;

	if (!p || end - p < (ptrdiff_t)n)
		return NULL;
	/* needle[k] at x: the needle starts at x - k and ends by end. */
	for (p += k; (hit = scan_pair(p, end - n + j + 1, needle[k], needle[j],
	                              j - k)) != NULL;
	     p = hit + 1)
		/* Two bytes (", "): scan_pair() has compared them both. */
		if (n == 2 || same(hit - k, needle, n))
			return hit - k;
	return NULL;
}

/*
 * The last needle[0..n) in [p, end), or NULL: searched backwards from
 * end, as the needles looked for so (" (in reply to ", " from ") sit near
 * the end of what they are looked for in; needle[k] is the byte looked
 * at first, the rarest.
 */
static inline const char *find_last(const char *p, const char *end,
                                    const char *needle, size_t n, size_t k)
{
	const char *hit, *stop = end - n + k + 1; /* needle[k] before stop */

	if (!p || end - p < (ptrdiff_t)n)
		return NULL;
	for (; (hit = scan_last(p + k, stop, needle[k])) != NULL; stop = hit)
		if (same(hit - k, needle, n))
			return hit - k;
	return NULL;
}

/* For string literals: the needle's length is known at compile time. */
#define FIND(p, end, lit, k, j) \
	find((p), (end), (lit), sizeof(lit) - 1, (k), (j))
#define FIND_LAST(p, end, lit, k) \
	find_last((p), (end), (lit), sizeof(lit) - 1, (k))
#define STARTS(p, end, lit) starts((p), (end), (lit), sizeof(lit) - 1)

static inline bool starts(const char *p, const char *end, const char *lit,
                          size_t n)
{
	return end - p >= (ptrdiff_t)n && same(p, lit, n);
}

/* Just after needle in [p, end), or NULL. */
static inline const char *after(const char *p, const char *end,
                                const char *needle, size_t n, size_t k,
                                size_t j)
{
	const char *hit = find(p, end, needle, n, k, j);
	return hit ? hit + n : NULL;
}
#define AFTER(p, end, lit, k, j) \
	after((p), (end), (lit), sizeof(lit) - 1, (k), (j))

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

/* Length of an enhanced code of rule 1 at c (c[1] is a dot), or 0.  Its
 * detail's digits are looked at one by one, not in a loop: nearly every
 * detail has one. */
static inline size_t enhanced_length(const char *c, const char *end)
{
	const char *d = c + 4;

	if (end - c < 5 || (c[0] != '2' && c[0] != '4' && c[0] != '5') ||
	    c[2] < '0' || c[2] > '7' || c[3] != '.' || !is_digit(d[0]))
		return 0;
	if (d + 1 == end || !is_digit(d[1]))
		return 5;
	if (d[0] == '0') /* a leading zero */
		return 0;
	if (d + 2 == end || !is_digit(d[2]))
		return 6;
	if (d + 3 == end || !is_digit(d[3]))
		return 7;
	return 0; /* four digits or more */
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

/* ---- Replies ---- */

/*
 * The reply [a, b) (trimmed) when it has the usual shape, "452 4.3.1
 * text" or "550-5.7.1 text" with a code of rule 1: its codes, as
 * smtpcode_parse() reads them, taken here for speed, since every line
 * with a reply has one.  False for any other shape, which
 * smtpcode_parse() then reads.  (Forced inline: GCC otherwise made it a
 * call of its own once take_reply() was split.)
 */
static ALWAYS_INLINE bool usual_reply(const char *a, const char *b,
                                      struct smtpcode_query *q)
{
	const char *c = a + 4, *t;
	unsigned detail = 0;
	size_t n;

	if (b - a < 9 || a[0] < '2' || a[0] > '5' || !is_digit(a[1]) ||
	    !is_digit(a[2]) || (a[3] != ' ' && a[3] != '-') || c[1] != '.')
		return false;
	n = enhanced_length(c, b);
	if (n == 0 || (c + n < b && !is_space(c[n])))
		return false;
	for (t = c + 4; t < c + n; t++)
		detail = detail * 10 + (unsigned)(*t - '0');
	if (t < b) /* past c[n], white space as checked above */
		t++;
	while (t < b && is_space(*t))
		t++;
	*q = (struct smtpcode_query){0};
	q->basic = (unsigned)(a[0] - '0') * 100 + (unsigned)(a[1] - '0') * 10 +
	           (unsigned)(a[2] - '0');
	q->enhanced = true;
	q->cls = (unsigned char)(c[0] - '0');
	q->subject = (unsigned)(c[2] - '0');
	q->detail = detail;
	q->text_off = (size_t)(t - a);
	q->text_len = (size_t)(b - t);
	return true;
}

/*
 * The reply [a, b) (trimmed, not empty) of a shape usual_reply() does not
 * read: what smtpcode_parse() reads in it, else the first code the
 * free-text policy accepts in it.  smtpcode_parse() reads only what
 * starts with a digit or an X: Postfix's own words ("connect to ...:
 * Connection timed out") go straight to the free-text search.  Not
 * inlined: its locals, whose addresses are passed on, would give every
 * line with a reply a stack-protector check.
 */
static NOINLINE void take_other_reply(struct smtpcode_logline *l,
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

/*
 * The reply in [a, b): a reply line starting there ("452 4.3.1 text",
 * "550 text"), else the first code the free-text policy accepts in it.
 * The reply is left absent when it holds no code.  The usual shape is
 * read into l->code in place (usual_reply() writes nothing when it fails).
 */
static inline void take_reply(struct smtpcode_logline *l, const char *a,
                              const char *b)
{
	if (a >= b)
		return;
	trim(&a, &b);
	if (a == b)
		return;
	if (usual_reply(a, b, &l->code))
		l->reply = span(a, b);
	else
		take_other_reply(l, a, b);
}

/* The recipient [a, b), <> removed; its domain after at, its last '@'
 * (NULL when it has none). */
static inline void take_address_at(struct smtpcode_logline *l, const char *a,
                                   const char *at, const char *b)
{
	l->recipient = span(a, b);
	/* A later to= without an '@' must not keep an earlier one's domain. */
	l->domain = at ? span(at + 1, b) : span(b, b);
}

/* The recipient [a, b), <> removed; its domain after the last '@'. */
static inline void take_address(struct smtpcode_logline *l, const char *a,
                                const char *b)
{
	take_address_at(l, a, scan_last(a, b, '@'), b);
}

/* A recipient as written, <> removed, and its domain. */
static void take_recipient(struct smtpcode_logline *l, const char *a,
                           const char *b)
{
	trim(&a, &b);
	if (a < b && *a == '<') {
		const char *gt = scan_byte(++a, b, '>');
		b = gt ? gt : b;
	}
	take_address(l, a, b);
}

/* ---- Postfix and Sendmail delivery lines: "QID: to=<...>, name=value,
 * ..., status=..." (Postfix), "..., stat=..." (Sendmail) ---- */

/*
 * "(in reply to RCPT TO command)": the stage, RCPT TO, after the " (in
 * reply to " at inr.  " command" is looked for from inr on, a span long
 * enough to be passed sixteen bytes a step.  Of the places before the
 * stage only its last, a ' ', may start " command" (in "(in reply to
 * command X)"): the search is then made again from the stage on.
 */
static void postfix_stage(struct smtpcode_logline *l, const char *inr,
                          const char *end)
{
	const char *p = inr + sizeof " (in reply to " - 1;
	/* From inr, or from later where sixteen places end at end, which
	 * the search then passes in one step ("RCPT TO command)"). */
	const char *from = end - p > 23 ? p : end - inr > 23 ? end - 23 : inr;
	const char *e, *usual = end - (sizeof " command)" - 1);

	/* Nearly always the detail ends so: " command" at usual is the first
	 * from p on unless one starts before usual - 8, as two cannot
	 * overlap (no ' ' is in "command"), which a short stage ("RCPT TO",
	 * "end of DATA") leaves few places for, looked at one by one. */
	if (usual >= p && usual - p < 16 && same(usual, " command", 8)) {
		for (e = p; e + 8 <= usual; e++)
			if (*e == ' ' && same(e, " command", 8))
				break;
		l->stage = span(p, e + 8 <= usual ? e : usual);
		return;
	}
	e = FIND(from, end, " command", 1, 7);
	if (e && e < p)
		e = FIND(p, end, " command", 1, 7);
	if (!e)
		e = scan_byte(p, end, ')');
	l->stage = span(p, e ? e : end);
}

/*
 * Where the remote reply starts in a status=word (...) detail: after "host
 * H said: ", else after "host H refused to talk to me: "; NULL for a bare
 * reply or Postfix's own words.  Both markers end in ": ", so one
 * scan_pair() pass over the ": " finds the first of each.
 */
static const char *reply_after(const char *d, const char *de)
{
	static const char said[] = " said", refused[] = " refused to talk to me";
	const char *c = d, *first_refused = NULL;

	for (; (c = scan_pair(c, de, ':', ' ', 1)) != NULL; c++) {
		if (c - d >= 5 && same(c - 5, said, 5))
			return c + 2;
		if (!first_refused && c - d >= 22 && same(c - 22, refused, 22))
			first_refused = c + 2;
	}
	return first_refused;
}

/*
 * The text in status=word (...): "host H said: REPLY (in reply to X
 * command)", "host H refused to talk to me: REPLY", a bare reply ("250
 * 2.0.0 Ok: queued as ..."), or Postfix's own words ("connect to ...:
 * Connection timed out", "unknown user: \"x\""), which hold no code.
 */
static void postfix_detail(struct smtpcode_logline *l, const char *d,
                           const char *de)
{
	const char *r = reply_after(d, de), *inr;

	if (!r) {
		take_reply(l, d, de);
		return;
	}
	inr = FIND_LAST(r, de, " (in reply to ", 1);
	if (inr) {
		postfix_stage(l, inr, de);
		de = inr;
	}
	take_reply(l, r, de);
}

/* status=deferred (...), status=sent (...), status=expired, returned ... */
static void postfix_status(struct smtpcode_logline *l, const char *v,
                           const char *end)
{
	const char *w = v;

	l->format = SMTPCODE_LOG_POSTFIX;
	/* The word ends at ' ', ',' or '(', which are below '-' as no letter
	 * is: the bytes above are passed sixteen at a time. */
	for (;; w++) {
		if ((w = scan_upto(w, end, ',')) == NULL)
			w = end;
		if (w == end || *w == ' ' || *w == ',' || *w == '(')
			break;
	}
	l->status = span(v, w);
	if (STARTS(w, end, " (")) {
		/* The detail runs to the line's last ')': it holds parentheses
		 * of its own ("(in reply to ...)"). */
		const char *de = end;
		if (de > w + 2 && de[-1] == ')')
			de--;
		postfix_detail(l, w + 2, de);
	}
}

/* stat=Deferred: 452 4.3.1 ..., stat=Sent (...), stat=User unknown */
static void sendmail_stat(struct smtpcode_logline *l, const char *v,
                          const char *end)
{
	const char *colon = scan_byte(v, end, ':');
	const char *paren = FIND(v, colon ? colon : end, " (", 0, 1);

	l->format = SMTPCODE_LOG_SENDMAIL;
	if (paren) {
		const char *de = end;
		if (de > paren + 2 && de[-1] == ')')
			de--;
		l->status = span(v, paren);
		take_reply(l, paren + 2, de);
	} else if (colon) {
		l->status = span(v, colon);
		take_reply(l, colon + 1, end);
	} else {
		const char *e = end;
		trim(&v, &e);
		l->status = span(v, e);
	}
}

/* Where a field's value [v, ...) ends: at the ", " before the next field,
 * looked for after the closing '>' of a <> value ("to=<a, b@x>"), which
 * *gt gets (NULL for a value without <>). */
static inline const char *field_end(const char *v, const char *end,
                                    const char **gt)
{
	const char *from = v;

	*gt = NULL;
	if (v < end && *v == '<') {
		if ((*gt = scan_byte(v, end, '>')) == NULL)
			return NULL;
		from = *gt + 1;
	}
	return FIND(from, end, ", ", 0, 1);
}

/*
 * The successive ", " of a line from a place on, each after the one
 * before: where the values of relay=, delay=, delays= and dsn= end, one
 * after another, when none is in <> (field_end() looks for the ", " after
 * a '>').  With SSE2 they are found in one pass of sixteen bytes a step,
 * not by a search per field; next_sep() gives NULL where it cannot tell
 * (the last sixteen bytes of the line), for the walk to read the field.
 */
struct seps {
	const char *at; /* where the search goes on (SSE2: the sixteen read) */
#ifdef SCAN_SSE2
	unsigned bits; /* of the ", " at at + i not yet given */
#endif
};

#ifdef SCAN_SSE2
/* Bit i set when at[i] == ',' and at[i + 1] == ' ' (seventeen bytes read). */
static inline unsigned seps16(const char *at)
{
	return (unsigned)_mm_movemask_epi8(
	    _mm_and_si128(_mm_cmpeq_epi8(scan_load(at), _mm_set1_epi8(',')),
	                  _mm_cmpeq_epi8(scan_load(at + 1), _mm_set1_epi8(' '))));
}
#endif

static inline void seps_from(struct seps *c, const char *p, const char *end)
{
	c->at = p;
#ifdef SCAN_SSE2
	c->bits = end - p >= 17 ? seps16(p) : 0;
#else
	(void)end;
#endif
}

static inline const char *next_sep(struct seps *c, const char *end)
{
	const char *hit;
#ifdef SCAN_SSE2
	while (c->bits == 0) {
		if (end - c->at < 16 + 17)
			return NULL;
		c->at += 16;
		c->bits = seps16(c->at);
	}
	hit = c->at + __builtin_ctz(c->bits);
	c->bits &= c->bits - 1;
#else
	if ((hit = FIND(c->at, end, ", ", 0, 1)) != NULL)
		c->at = hit + 2;
#endif
	return hit;
}

/* Whether the field name[0..n) is at p with a value not in <>, whose end
 * *e is then the next ", " of c (the name holds no ','; where the line
 * ends with the name, no ", " follows it). */
static inline bool usual_field(const char *p, const char *end,
                               const char *name, size_t n, struct seps *c,
                               const char **e)
{
	return end - p > (ptrdiff_t)n && same(p, name, n) && p[n] != '<' &&
	       (*e = next_sep(c, end)) != NULL;
}
#define USUAL_FIELD(p, end, lit, c, e) \
	usual_field((p), (end), (lit), sizeof(lit) - 1, (c), (e))

/*
 * The '>' that closes a recipient <R> whose R starts at a, or NULL; *at
 * gets R's last '@' (NULL if none), which take_address() would look for
 * backwards over the same bytes: both are found in one pass.
 */
static inline const char *recipient_end(const char *a, const char *end,
                                        const char **at)
{
	const char *gt, *x;

	*at = NULL;
#ifdef SCAN_SSE2
	/* Thirty-two bytes a step: most recipients fit in one. */
	for (; end - a >= 32; a += 32) {
		const __m128i gt_ = _mm_set1_epi8('>'), at_ = _mm_set1_epi8('@');
		uint32_t close = scan_hits(a, gt_) | scan_hits(a + 16, gt_) << 16;
		uint32_t sign = scan_hits(a, at_) | scan_hits(a + 16, at_) << 16;
		if (close)
			sign &= (close & -close) - 1; /* the '@' before it */
		if (sign)
			*at = a + 31 - __builtin_clz(sign);
		if (close)
			return a + __builtin_ctz(close);
	}
#endif
	if ((gt = scan_byte(a, end, '>')) != NULL && (x = scan_last(a, gt, '@')))
		*at = x;
	return gt;
}

/*
 * The fields a Postfix delivery line nearly always starts with, in their
 * order: "to=<R>, relay=H, delay=D, delays=A/B/C/D, dsn=X.Y.Z, ".  Each
 * is read as the walk in parse_delivery() reads it, but by the one name
 * expected at its place, without the walk's dispatch on every name.
 * Returns where the first field not so read starts (status=, or anything
 * unusual: orig_to=, conn_use=, a name out of order), for the walk to go
 * on from there.
 */
static const char *usual_fields(struct smtpcode_logline *l, const char *p,
                                const char *end)
{
	const char *gt, *at, *e;
	struct seps c;

	/* "to=<R>": what take_recipient() would find, as its '>' is known;
	 * the value ends at the first ", " after it. */
	if (!STARTS(p, end, "to=<") ||
	    (gt = recipient_end(p + 4, end, &at)) == NULL)
		return p;
	seps_from(&c, gt + 1, end);
	if ((e = next_sep(&c, end)) == NULL)
		return p;
	take_address_at(l, p + 4, at, gt);
	p = e + 2;
	if (!USUAL_FIELD(p, end, "relay=", &c, &e))
		return p;
	l->relay = span(p + sizeof "relay=" - 1, e);
	p = e + 2;
	if (!USUAL_FIELD(p, end, "delay=", &c, &e))
		return p;
	p = e + 2;
	if (!USUAL_FIELD(p, end, "delays=", &c, &e))
		return p;
	p = e + 2;
	if (!USUAL_FIELD(p, end, "dsn=", &c, &e))
		return p;
	l->dsn = span(p + sizeof "dsn=" - 1, e);
	return e + 2;
}

/* The fields of a delivery line that are read; the others are passed. */
enum field { FIELD_OTHER, FIELD_TO, FIELD_RELAY, FIELD_DSN, FIELD_STATUS,
             FIELD_STAT };

/*
 * The field at p, and in *eq the '=' that ends its name (end when there
 * is none).  A name holds no '=', so "relay=" at p is the name "relay":
 * the names read are recognised whole, without a walk; any other name is
 * walked to its '='.
 */
static enum field field_at(const char *p, const char *end, const char **eq)
{
#define NAMED(lit, f)                                \
	if (STARTS(p, end, lit)) {                   \
		*eq = p + sizeof(lit) - 2;           \
		return (f);                          \
	}
	switch (p < end ? *p : '\0') {
	case 'd':
		NAMED("delay=", FIELD_OTHER);
		NAMED("delays=", FIELD_OTHER);
		NAMED("dsn=", FIELD_DSN);
		break;
	case 'r': NAMED("relay=", FIELD_RELAY); break;
	case 's':
		NAMED("status=", FIELD_STATUS);
		NAMED("stat=", FIELD_STAT);
		break;
	case 't': NAMED("to=", FIELD_TO); break;
	}
#undef NAMED
	while (p < end && *p != '=')
		p++;
	*eq = p;
	return FIELD_OTHER;
}

/* Walk the fields from "to=" on, to status= (Postfix) or stat=
 * (Sendmail), keeping the recipient, relay and dsn; ": to=" is not before
 * from.  Returns false, leaving *l zeroed, for any other line. */
static bool parse_delivery(struct smtpcode_logline *l, const char *from,
                           const char *end)
{
	const char *p = STARTS(from, end, ": to=")
	                    ? from : FIND(from + 1, end, ": to=", 0, 4);
	const char *eq, *v, *vend, *gt, *comma;

	if (!p)
		return false;
	for (p = usual_fields(l, p + 2, end);; p = vend + 2) {
		enum field f = field_at(p, end, &eq);
		if (eq == end)
			break;
		v = eq + 1;
		if (f == FIELD_STATUS) {
			postfix_status(l, v, end);
			return true;
		}
		if (f == FIELD_STAT) {
			sendmail_stat(l, v, end);
			return true;
		}
		if ((vend = field_end(v, end, &gt)) == NULL)
			break;
		switch (f) {
		case FIELD_TO:
			/* "to=<a@x>" as in usual_fields().  Sendmail lists
			 * recipients: "to=<a@x>,<b@x>", "to=a@x,b@x". */
			if (gt) {
				take_address(l, v + 1, gt);
				break;
			}
			comma = scan_byte(v, vend, ',');
			take_recipient(l, v, comma ? comma : vend);
			break;
		case FIELD_RELAY: l->relay = span(v, vend); break;
		case FIELD_DSN: l->dsn = span(v, vend); break;
		default: break;
		}
	}
	clear(l); /* fields of a line that is not one */
	return false;
}

/* ---- Exim: "DATE ID ** rcpt <orig> R=... T=... H=host [ip]: SMTP error
 * from remote mail server after RCPT TO:<rcpt>: 550 ...", "== ..." ---- */

/* Whether [a, b) is an Exim message ID: 1rfXyz-000AbC-2D (6-6-2), or
 * 1rfXyz-00000000AbC-2DxY (6-11-4) since Exim 4.97. */
static bool is_exim_id(const char *a, const char *b)
{
	/* The two hyphens, not an array of part lengths: an array would give
	 * smtpcode_log_parse(), where this is inlined, a stack-protector
	 * check on every line. */
	const char *h1 = NULL, *h2 = NULL, *p;

	for (p = a; p < b; p++) {
		if (*p == '-') {
			if (h2)
				return false;
			if (h1)
				h2 = p;
			else
				h1 = p;
		} else if (!is_digit(*p) && !is_alpha(*p)) {
			return false;
		}
	}
	return h2 && h1 - a == 6 && h2 - h1 - 1 >= 6 && h2 - h1 - 1 <= 11 &&
	       b - h2 - 1 >= 2 && b - h2 - 1 <= 4;
}

/* Whether a marker at m follows a message ID. */
static bool after_exim_id(const char *s, const char *m)
{
	const char *w = m;
	while (w > s && m - w < 24 && w[-1] != ' ')
		w--;
	return (w == s || w[-1] == ' ') && is_exim_id(w, m);
}

/* The first " ** " after a message ID, else the first " == " after one
 * (*bounce tells which), else NULL: both looked for in one pass. */
static const char *exim_marker(const char *s, const char *from,
                               const char *end, bool *bounce)
{
	const char *d = from + 1, *deferral = NULL;

	while ((d = scan_doubled(d, end - 2, '*', '=')) != NULL) {
		const char *m = d - 1;
		if (m[0] == ' ' && d[2] == ' ' && after_exim_id(s, m)) {
			if (*d == '*') {
				*bounce = true;
				return m;
			}
			if (!deferral)
				deferral = m;
		}
		d++;
	}
	*bounce = false;
	return deferral;
}

/* An Exim host: "mx.example.com [192.0.2.5]", with ":port" if written. */
static struct smtpcode_text exim_host(const char *p, const char *end)
{
	const char *q = p, *rb;

	while (q < end && *q != ' ' && *q != ':')
		q++;
	if (STARTS(q, end, " [") && (rb = scan_byte(q, end, ']')) != NULL)
		q = rb + 1;
	if (end - q >= 2 && *q == ':' && is_digit(q[1]))
		for (q++; q < end && is_digit(*q); q++)
			;
	return span(p, q);
}

/* "after RCPT TO:<x>: 550 ...", "after end of data: 550 ...", "after
 * pipelined MAIL FROM:<x> SIZE=1: 550", and before Exim 4.90 "...: host
 * mx [ip]: 550 ...". */
static void exim_after(struct smtpcode_logline *l, const char *p,
                       const char *end)
{
	const char *colon, *r;

	if (STARTS(p, end, "pipelined "))
		p += sizeof "pipelined " - 1;
	colon = scan_byte(p, end, ':');
	if (!colon) {
		take_reply(l, p, end);
		return;
	}
	l->stage = span(p, colon);
	r = AFTER(colon, end, ": ", 0, 1);
	if (r && STARTS(r, end, "host ")) {
		if (!l->relay.len)
			l->relay = exim_host(r + 5, end);
		r = AFTER(r, end, ": ", 0, 1);
	}
	if (r)
		take_reply(l, r, end);
}

static bool parse_exim(struct smtpcode_logline *l, const char *s,
                       const char *from, const char *end)
{
	static const char failed[] = "failed", deferred[] = "deferred";
	bool bounce;
	const char *m = exim_marker(s, from, end, &bounce), *rcpt, *tail, *aft, *h;

	if (!m)
		return false;
	l->format = SMTPCODE_LOG_EXIM;
	/* The line writes only the marker: these two words are the one
	 * span not inside the input (see smtpcode.h). */
	l->status.s = bounce ? failed : deferred;
	l->status.len = bounce ? sizeof failed - 1 : sizeof deferred - 1;

	rcpt = m + 4;
	tail = scan_byte(rcpt, end, ' ');
	if (!tail)
		tail = end;
	/* "** x@y: Unrouteable address": the colon is not the address's. */
	take_recipient(l, rcpt, tail > rcpt && tail[-1] == ':' ? tail - 1 : tail);

	aft = FIND(tail, end, " after ", 1, 2);
	h = FIND(tail, aft ? aft : end, " H=", 1, 2);
	if (h)
		l->relay = exim_host(h + 3, aft ? aft : end);
	if (aft)
		exim_after(l, aft + sizeof " after " - 1, end);
	else
		take_reply(l, tail, end);
	return true;
}

/* ---- Postfix rejects: "NOQUEUE: reject: RCPT from client: REPLY;
 * from=<> to=<> proto= helo=<>", reject_warning, milter-reject, and
 * cleanup's "reject: header ... from client; from=<> ...: REPLY" ---- */

/* The reject word after ": " (reject, reject_warning, milter-reject), or
 * NULL; *word_end gets the end of the word. */
static const char *reject_word(const char *s, const char *from,
                               const char *end, const char **word_end)
{
	const char *r = from;

	while ((r = FIND(r, end, "reject", 2, 3)) != NULL) {
		const char *w = r, *e = r + 6;
		if (STARTS(e, end, "_warning"))
			e += sizeof "_warning" - 1;
		if (STARTS(e, end, ": ")) {
			while (w > s && r - w < 16 &&
			       (is_alpha(w[-1]) || w[-1] == '-'))
				w--;
			if (w - s >= 2 && w[-2] == ':' && w[-1] == ' ') {
				*word_end = e;
				return w;
			}
		}
		r++;
	}
	return NULL;
}

/* Where Postfix's "; from=<a> to=<b> proto=ESMTP helo=<h>" starts: the
 * last "; " followed by one of its names (the reply may hold "; "),
 * looked for from the end, where it is. */
static const char *reject_meta(const char *p, const char *end)
{
	const char *hit, *stop = end;

	for (; (hit = FIND_LAST(p, stop, "; ", 0)) != NULL; stop = hit + 1) {
		const char *n = hit + 2;
		if (STARTS(n, end, "from=<") || STARTS(n, end, "to=<") ||
		    STARTS(n, end, "proto=") || STARTS(n, end, "helo=<"))
			return hit;
	}
	return NULL;
}

static bool is_command_word(const char *a, const char *b)
{
	if (a == b)
		return false;
	for (; a < b; a++)
		if (!is_upper(*a) && *a != '-')
			return false;
	return true;
}

static bool parse_reject(struct smtpcode_logline *l, const char *s,
                         const char *first, const char *end)
{
	const char *we, *w = reject_word(s, first, end, &we), *msg, *sp, *meta, *t;

	if (!w)
		return false;
	l->format = SMTPCODE_LOG_SMTPD;
	l->status = span(w, we);
	msg = we + 2;
	sp = scan_byte(msg, end, ' ');
	if (!sp)
		sp = end;
	l->stage = span(msg, sp);
	meta = reject_meta(sp, end);
	if (is_command_word(msg, sp) && STARTS(sp, end, " from ")) {
		/* smtpd, postscreen, milters: "RCPT from client: REPLY; meta". */
		const char *client = sp + sizeof " from " - 1;
		const char *ce = FIND(client, meta ? meta : end, ": ", 0, 1);
		if (ce) {
			l->relay = span(client, ce);
			take_reply(l, ce + 2, meta ? meta : end);
		}
	} else if (meta) {
		/* cleanup: "header X: y from client; meta: REPLY". */
		const char *from = FIND_LAST(sp, meta, " from ", 1);
		const char *r = AFTER(meta, end, ": ", 0, 1);
		if (from)
			l->relay = span(from + sizeof " from " - 1, meta);
		if (r)
			take_reply(l, r, end);
	} else {
		take_reply(l, sp, end);
	}
	if (meta && (t = AFTER(meta, end, "to=<", 2, 3)) != NULL) {
		const char *gt = scan_byte(t, end, '>');
		take_recipient(l, t, gt ? gt : end);
	}
	return true;
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
 * and " == ", the second (for the lines that are neither) for "reject"
 * and codes.  Each tests the places y with y + 4 < end: any of these
 * starts at or after one, and none is that short.
 */

/* Whether ": to=" (its ':' and '=') or an Exim marker (its doubled '*'
 * or '=', at y + 3 and y + 4) may start at y. */
static inline bool may_mark(const char *y)
{
	return (y[0] == ':' && y[4] == '=') ||
	       (y[3] == y[4] && (y[4] == '*' || y[4] == '='));
}

/* Whether "reject" (its "je") or a code at y + 1 may start at y: a code
 * (rules 1 and 2) by its two dots, after a byte that does not glue as
 * '.', '/' and the digits do. */
static inline bool may_code(const char *y)
{
	unsigned char before = (unsigned char)(y[0] - '.');
	return (y[2] == 'j' && y[3] == 'e') ||
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
	              dot = _mm_set1_epi8('.');
	__m128i y2 = scan_load(at + 2);
	__m128i reject = _mm_and_si128(_mm_cmpeq_epi8(y2, j),
	                               _mm_cmpeq_epi8(scan_load(at + 3), e));
	__m128i dots = _mm_and_si128(_mm_cmpeq_epi8(y2, dot),
	                             _mm_cmpeq_epi8(scan_load(at + 4), dot));
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
	__m128i dots = _mm_and_si128(_mm_cmpeq_epi8(scan_load(at + 2), dot),
	                             _mm_cmpeq_epi8(scan_load(at + 4), dot));
	return (unsigned)_mm_movemask_epi8(
	    _mm_andnot_si128(_mm_and_si128(glued, dots), may_code16(at)));
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

/* Bit i set when may_code() may hold at at + i: its places have 'j' or
 * '.' at y + 2. */
static inline unsigned may_code16_rough(const char *at)
{
	__m128i y2 = scan_load(at + 2);
	return (unsigned)_mm_movemask_epi8(
	    _mm_or_si128(_mm_cmpeq_epi8(y2, _mm_set1_epi8('j')),
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
 * when there is neither.  Not inlined: inside smtpcode_log_parse() it
 * made GCC stop inlining postfix_detail() (30 instructions a delivery
 * line, where this is not called). */
static NOINLINE const char *first_code_place(const char *s, const char *end)
{
	if (end - s >= 5 && s[1] == '.' && s[3] == '.')
		return s; /* a code at the very start: nothing glues before it */
	return FIRST_PLACE(s, end, code);
}

bool smtpcode_log_parse(const char *s, size_t len, struct smtpcode_logline *l)
{
	const char *end, *from;

	clear(l);
	if (!s)
		return false;
	end = s + len;
	while (end > s && is_space(end[-1]))
		end--;
	from = FIRST_PLACE(s, end, mark);
	if (!from ||
	    (!parse_delivery(l, from, end) && !parse_exim(l, s, from, end))) {
		if ((from = first_code_place(s, end)) != NULL &&
		    !parse_reject(l, s, from, end) &&
		    find_code_from(s, from, end, &l->code, &l->reply))
			l->format = SMTPCODE_LOG_TEXT;
	}
	if (l->dsn.len)
		take_dsn(l);
	return has_code(&l->code) || has_code(&l->dsn_code);
}
