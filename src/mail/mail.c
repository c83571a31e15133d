/*
 * Bounce messages: RFC 3464 delivery status notifications, the plain-text
 * bounces of common MTAs and mailbox providers, and the automatic
 * messages that are not bounces (auto-replies, ARF feedback reports).
 *
 * The message is read once into a small summary (its header fields of
 * interest, its first delivery-status part, its first few text parts);
 * only then is it classified, in order of the evidence's strength: a
 * feedback report, a delivery-status part, a text bounce that an MTA's
 * own wording identifies, X-Failed-Recipients, auto-reply markers.  A
 * message that none of these identify is "other" and yields no
 * recipients, whatever codes its text happens to quote.
 *
 * Text recognisers look for whole phrases at the start of lines, so a
 * bounce quoted in a reply ("> Delivery has failed ...") is not taken for
 * one.  Returned originals (message/rfc822, text/rfc822-headers) are never
 * read: the bounce of a bounce must not yield the inner recipients.
 *
 * Limits: multiparts are read MAIL_MAX_DEPTH levels deep, the first
 * MAIL_MAX_TEXTS text/plain parts are tried, and body lookups for
 * X-Failed-Recipients stop after MAIL_MAX_LOOKUPS addresses, so that the
 * cost stays linear in the message's length.
 */
#include <string.h>

#include "mime.h"
#include "smtpcode.h"

#define MAIL_MAX_DEPTH 8    /* deepest part read: 8 nested multiparts */
#define MAIL_MAX_TEXTS 4    /* text/plain parts tried for text bounces */
#define MAIL_MAX_LOOKUPS 16 /* X-Failed-Recipients addresses looked up */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct text_part {
	struct mime_part part;
	struct span text; /* decoded, once decoded */
	bool decoded;
};

/* What one pass over the message found. */
struct parser {
	struct smtpcode_mail *m;
	struct mime_work work;
	struct span headers;   /* the message's own header block */
	bool autoreply_header; /* X-Autoreply, X-Autorespond, Precedence:
	                          auto_reply: written by auto-responders */
	bool auto_replied;     /* Auto-Submitted: auto-replied (RFC 3834),
	                          which bounces carry too */
	bool failed_header;    /* X-Failed-Recipients */
	bool feedback;         /* an ARF report or part */
	bool dsn_report;       /* a multipart/report of delivery-status */
	bool have_status;      /* status: the first delivery-status part */
	struct mime_part status;
	bool have_feedback;    /* feedback: the first feedback-report part */
	struct mime_part feedback_part;
	struct text_part texts[MAIL_MAX_TEXTS];
	size_t ntexts;
};

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static struct smtpcode_text text_of(struct span s)
{
	struct smtpcode_text t = {NULL, 0};
	if (!mime_empty(s)) {
		t.s = s.p;
		t.len = mime_len(s);
	}
	return t;
}

static struct span empty_span(void)
{
	struct span s = {NULL, NULL};
	return s;
}

/* s up to its first blank, ';' or '(' : a code, a host, an action. */
static struct span first_word(struct span s)
{
	const char *p;
	s = mime_trim(s);
	for (p = s.p; p < s.e; p++)
		if (mime_is_space(*p) || *p == ';' || *p == '(')
			break;
	s.e = p;
	return s;
}

/* ---- Codes ---- */

/* A three-digit basic code at the start of s followed by something other
 * than a digit or a decimal point: Yahoo's "554: delivery error". */
static bool leading_basic(struct span s, struct smtpcode_query *q)
{
	unsigned v;
	const char *p;
	if (mime_len(s) < 3 || !is_digit(s.p[0]) || !is_digit(s.p[1]) ||
	    !is_digit(s.p[2]))
		return false;
	if (mime_len(s) > 3 && (is_digit(s.p[3]) || s.p[3] == '.'))
		return false;
	v = (unsigned)(s.p[0] - '0') * 100 + (unsigned)(s.p[1] - '0') * 10 +
	    (unsigned)(s.p[2] - '0');
	if (v < 200 || v > 599)
		return false;
	memset(q, 0, sizeof *q);
	q->basic = v;
	for (p = s.p + 3; p < s.e && (*p == ':' || mime_is_space(*p)); p++)
		;
	q->text_off = (size_t)(p - s.p);
	q->text_len = (size_t)(s.e - p);
	return true;
}

/*
 * The codes of a diagnostic text d (already trimmed): the reply it starts
 * with ("550 5.1.1 ...", the usual form), else the first enhanced code in
 * it (keeping a basic code it starts with), else a basic code alone.
 * Offsets in *q count from d.p.
 */
static void diagnostic_codes(struct span d, struct smtpcode_query *q)
{
	struct smtpcode_query start, found;
	struct smtpcode_text at;
	bool parsed;

	memset(q, 0, sizeof *q);
	if (mime_empty(d))
		return;
	parsed = smtpcode_parse(d.p, mime_len(d), &start) == SMTPCODE_OK;
	if (parsed && start.enhanced) {
		*q = start;
	} else if (smtpcode_find_code(d.p, mime_len(d), &found, &at)) {
		/* find_code counts its offsets from the code it found. */
		found.text_off += (size_t)(at.s - d.p);
		if (parsed && found.basic == 0)
			found.basic = start.basic;
		*q = found;
	} else if (parsed) {
		*q = start;
	} else {
		(void)leading_basic(d, q);
	}
}

/* Whether q is a failure: what a code at the start of a bounce's line
 * must be (a line "250 messages a day" is not a reply). */
static bool failure_code(const struct smtpcode_query *q)
{
	if (q->enhanced)
		return q->cls == 4 || q->cls == 5;
	return q->basic >= 400;
}

/* Character classes as switches, not strchr(): they run per byte. */
static bool leads_into_reply(char c)
{
	switch (c) {
	case ':': case ';': case ',': case '>': case ')':
		return true;
	default:
		return mime_is_space(c);
	}
}

/* Whether s, after blanks and the punctuation that leads into a reply
 * (": ", "> "), starts with a failure code; *reply gets it to s's end.
 * Else the first enhanced code in s, if any. */
static bool reply_in(struct span s, struct span *reply)
{
	struct smtpcode_query q;
	struct smtpcode_text at;
	struct span t = s;

	while (t.p < t.e && leads_into_reply(*t.p))
		t.p++;
	t = mime_trim(t);
	if (!mime_empty(t) &&
	    smtpcode_parse(t.p, mime_len(t), &q) == SMTPCODE_OK &&
	    failure_code(&q)) {
		*reply = t;
		return true;
	}
	if (!mime_empty(s) && smtpcode_find_code(s.p, mime_len(s), &q, &at) &&
	    failure_code(&q)) {
		reply->p = at.s;
		reply->e = s.e;
		*reply = mime_trim(*reply);
		return true;
	}
	return false;
}

/* ---- Recipients ---- */

static void add_recipient(struct parser *ps,
                          const struct smtpcode_mail_recipient *r)
{
	struct smtpcode_mail *m = ps->m;
	if (m->recipients && m->nrecipients < m->max)
		m->recipients[m->nrecipients] = *r;
	m->nrecipients++;
}

/* Set r's diagnostic to d, unfolded, and its codes. */
static void set_diagnostic(struct parser *ps,
                           struct smtpcode_mail_recipient *r, struct span d)
{
	d = mime_unfold(&ps->work, d);
	r->diagnostic = text_of(d);
	diagnostic_codes(d, &r->diagnostic_code);
}

static void add_text_recipient(struct parser *ps, struct span addr,
                               struct span diag, struct span remote)
{
	struct smtpcode_mail_recipient r;
	memset(&r, 0, sizeof r);
	r.recipient = text_of(addr);
	r.remote_mta = text_of(remote);
	set_diagnostic(ps, &r, diag);
	add_recipient(ps, &r);
}

static void set_reporting_mta(struct parser *ps, struct span host)
{
	if (!ps->m->reporting_mta.len)
		ps->m->reporting_mta = text_of(host);
}

/* ---- Addresses ---- */

static bool is_address_char(char c)
{
	switch (c) {
	case '<': case '>': case '(': case ')': case '[': case ']':
	case ',': case ';': case ':': case '"': case '\'':
		return false;
	default:
		return (unsigned char)c > ' ' && c != 127;
	}
}

/* The address around the first '@' of s, as bounces write it among other
 * words: "x@y" in "Name (x@y)", "<x@y>:", "x@y<mailto:x@y>", "to x@y.";
 * empty when there is none. */
static struct span address_in(struct span s)
{
	const char *at = mime_find(s, '@');
	struct span a;
	if (!at)
		return empty_span();
	for (a.p = at; a.p > s.p && is_address_char(a.p[-1]); a.p--)
		;
	for (a.e = at + 1; a.e < s.e && is_address_char(*a.e); a.e++)
		;
	while (a.e > at + 1 && a.e[-1] == '.')
		a.e--; /* the end of a sentence */
	if (a.p == at || a.e == at + 1)
		return empty_span();
	return a;
}

/* Whether s is an address and nothing else. */
static bool is_address(struct span s)
{
	struct span a = address_in(s);
	return !mime_empty(s) && a.p == s.p && a.e == s.e;
}

/* A line that holds only an address (blanks around it, or "x@y<mailto:..>"
 * as Exchange writes them): the address. */
static bool lone_address(struct span line, struct span *addr)
{
	struct span t = mime_trim(line);
	const char *mailto = mime_ifind(t, "<mailto:");
	if (mailto)
		t.e = mailto;
	if (!is_address(t))
		return false;
	*addr = t;
	return true;
}

/* A DSN address: "<x@y>" loses its brackets. */
static struct span bare_address(struct span s)
{
	s = mime_trim(s);
	if (mime_len(s) >= 2 && s.p[0] == '<' && s.e[-1] == '>') {
		s.p++;
		s.e--;
	}
	return s;
}

/* Take the next word that holds an '@' off *words: the addresses a text
 * names, in one pass however many '@' it holds. */
static bool next_address(struct span *words, struct span *addr)
{
	const char *p = words->p;
	while (p < words->e) {
		while (p < words->e && !is_address_char(*p))
			p++;
		addr->p = p;
		while (p < words->e && is_address_char(*p))
			p++;
		addr->e = p;
		while (addr->e > addr->p && addr->e[-1] == '.')
			addr->e--; /* the end of a sentence */
		if (mime_find(*addr, '@')) {
			words->p = p;
			return true;
		}
	}
	words->p = words->e;
	return false;
}

/* Whether a and b are the same text, ignoring ASCII case. */
static bool same_text(struct span a, struct span b)
{
	if (mime_len(a) != mime_len(b))
		return false;
	for (size_t i = 0; i < mime_len(a); i++)
		if (mime_lower(a.p[i]) != mime_lower(b.p[i]))
			return false;
	return true;
}

/* ---- Lines and phrases ---- */

/* Leading blanks of a line, a tab counting as 8. */
static size_t indent_of(struct span line)
{
	size_t n = 0;
	for (const char *p = line.p; p < line.e && mime_is_wsp(*p); p++)
		n += *p == '\t' ? 8 : 1;
	return n;
}

/* U+2019, the typographic apostrophe that some templates use for ASCII's. */
static const char right_quote[] = "\xe2\x80\x99";

/*
 * Whether line, after its indentation, starts with phrase, ignoring ASCII
 * case; a space in phrase matches any run of blanks and an apostrophe
 * either apostrophe.  *after (if not NULL) gets the rest of the line.
 */
static bool line_starts(struct span line, const char *phrase,
                        struct span *after)
{
	const char *p = mime_trim_left(line).p;
	for (const char *q = phrase; *q; q++) {
		if (*q == ' ' && p < line.e && mime_is_wsp(*p)) {
			while (p < line.e && mime_is_wsp(*p))
				p++;
		} else if (*q == '\'' && line.e - p >= 3 &&
		           memcmp(p, right_quote, 3) == 0) {
			p += 3;
		} else if (p < line.e && mime_lower(*p) == mime_lower(*q)) {
			p++;
		} else {
			return false;
		}
	}
	if (after) {
		after->p = p;
		after->e = line.e;
	}
	return true;
}

/* The index of the first of phrases[0..n) that line starts with, or -1.
 * Text recognisers try a dozen phrases on every line, and a line's first
 * byte rules out most of them: it is compared before anything else. */
static int starts_any(struct span line, const char *const *phrases, size_t n,
                      struct span *after)
{
	struct span t = mime_trim_left(line);
	char first = mime_empty(t) ? '\0' : mime_lower(*t.p);
	for (size_t i = 0; i < n; i++) {
		char c = phrases[i][0];
		if (c && c != '\'' && mime_lower(c) != first)
			continue;
		if (line_starts(line, phrases[i], after))
			return (int)i;
	}
	return -1;
}

/* Take lines off *rest up to and including the first that starts with
 * one of phrases[0..n); its index, or -1 (and *rest empty). */
static int seek_phrase(struct span *rest, const char *const *phrases,
                       size_t n, struct span *after)
{
	struct span line;
	while (mime_line(rest, &line)) {
		int i = starts_any(line, phrases, n, after);
		if (i >= 0)
			return i;
	}
	return -1;
}

/* Lines of the returned original or its headers: where the bounce's own
 * text ends. */
static bool original_marker(struct span line)
{
	static const char *const markers[] = {
		"--- Below this line is a copy of the message", /* qmail */
		"--- Enclosed are the original headers",        /* qmail */
		"----- Transcript of session follows",          /* Sendmail */
		"----- Original message -----",                 /* Gmail */
		"------ This is a copy of the message",         /* Exim */
		"Original message headers:",                    /* Exchange */
	};
	return starts_any(line, markers, COUNT(markers), NULL) >= 0;
}

/* The host named after an MTA's greeting ("... at host mail.example.net."
 * or "... program at mail.example.net."). */
static struct span host_after(struct span s)
{
	s = mime_trim(s);
	if (mime_istarts(s, "at "))
		s.p += 3;
	s = first_word(s);
	while (s.e > s.p && (s.e[-1] == '.' || s.e[-1] == ':'))
		s.e--;
	return s;
}

/* [start, end of the indented lines that follow it in *rest): a text that
 * wraps onto continuation lines, as Postfix and Exim wrap replies. */
static struct span with_continuations(struct span start, struct span *rest)
{
	struct span next = *rest, line;
	while (!mime_empty(next) && mime_is_wsp(*next.p) &&
	       mime_line(&next, &line) && !mime_blank(line)) {
		start.e = line.e;
		*rest = next;
	}
	return start;
}

/* ---- Postfix, qmail, Yahoo, Sendmail: "<address>:" paragraphs ---- */

/* Whether line is "<x@y>:", "<x@y> (expanded from <z@y>): text" or a
 * bare "<x@y>" (Sendmail) at its very start; *tail gets the text after
 * the colon. */
static bool angle_line(struct span line, struct span *addr, struct span *tail)
{
	struct span inner, rest;
	const char *close, *p;

	if (mime_empty(line) || *line.p != '<')
		return false;
	inner.p = line.p + 1;
	inner.e = line.e;
	close = mime_find(inner, '>');
	if (!close)
		return false;
	inner.e = close;
	if (!is_address(inner))
		return false;
	rest.p = close + 1;
	rest.e = line.e;
	rest = mime_trim_left(rest);
	if (!mime_empty(rest) && *rest.p == '(') {
		p = mime_find(rest, ')');
		if (!p)
			return false;
		rest.p = p + 1;
		rest = mime_trim_left(rest);
	}
	if (!mime_empty(rest) && *rest.p == ':')
		rest.p++;
	else if (!mime_empty(mime_trim(rest)))
		return false; /* prose that happens to start with an address */
	*addr = inner;
	*tail = mime_trim(rest);
	return true;
}

/* "... said: 550 ..." (Postfix's "host X said:", qmail's "Remote host
 * said:") anywhere in the text t, which may run over several lines: the
 * reply after it, to the end of t. */
static bool said_reply(struct span t, struct span *reply)
{
	const char *p = mime_ifind(t, "said:");
	if (!p)
		return false;
	reply->p = p + 5;
	reply->e = t.e;
	*reply = mime_trim(*reply);
	return true;
}

/* Postfix's "host mx.example.com[192.0.2.25] said:": the host's name, from
 * the word before "said:" (qmail's "Remote host said:" names none). */
static struct span postfix_host(struct span t)
{
	const char *said = mime_ifind(t, "said:"), *bracket;
	struct span word;
	if (!said)
		return empty_span();
	for (word.e = said; word.e > t.p && mime_is_space(word.e[-1]); word.e--)
		;
	word.p = word.e;
	while (word.p > t.p && !mime_is_space(word.p[-1]))
		word.p--;
	bracket = mime_find(word, '[');
	if (!bracket || bracket == word.p)
		return empty_span();
	word.e = bracket;
	return word;
}

/* Sendmail's "(reason: 550 5.1.1 ...)". */
static bool sendmail_reason(struct span line, struct span *reply)
{
	struct span t = mime_trim(line);
	if (!mime_istarts(t, "(reason:"))
		return false;
	t.p += 8;
	if (t.e > t.p && t.e[-1] == ')')
		t.e--;
	*reply = mime_trim(t);
	return true;
}

/* Whether the line after a paragraph's first ends the paragraph. */
static bool paragraph_ends(struct span line)
{
	struct span addr, tail;
	return mime_blank(line) || angle_line(line, &addr, &tail) ||
	       original_marker(line);
}

/*
 * The diagnostic of a recipient's paragraph, and the remote host it names:
 * the reply after "said:" wherever it is, or Sendmail's reason, else the
 * paragraph's first text (after the address, or on the next line).  Each
 * text runs on over the indented lines that continue it.  Takes the lines
 * it reads off *rest.
 */
static struct span angle_diagnostic(struct span tail, struct span *rest,
                                    struct span *remote)
{
	struct span fallback = empty_span(), line, next, reply;

	if (!mime_empty(tail)) {
		fallback = with_continuations(tail, rest);
		if (said_reply(fallback, &reply)) {
			*remote = postfix_host(fallback);
			return reply;
		}
	}
	for (next = *rest; mime_line(&next, &line) && !paragraph_ends(line);
	     next = *rest) {
		struct span text;
		*rest = next;
		text = with_continuations(mime_trim(line), rest);
		if (said_reply(text, &reply)) {
			*remote = postfix_host(text);
			return reply;
		}
		if (sendmail_reason(text, &reply))
			return reply;
		if (mime_empty(fallback))
			fallback = text;
	}
	return fallback;
}

static const char *const angle_intros[] = {
	"This is the mail system at host",                   /* Postfix */
	"Hi. This is the qmail-send program",                /* qmail */
	"I'm sorry to have to inform you that your message", /* Postfix */
	"I'm afraid I wasn't able to deliver your message",  /* qmail */
	"Sorry, we were unable to deliver your message",     /* Yahoo */
	"----- The following addresses had permanent fatal errors",
	"----- The following addresses had transient non-fatal errors",
};

static bool read_angle_bounce(struct parser *ps, struct span text)
{
	struct span rest = text, after, line, addr, tail, diag, remote;
	int which = seek_phrase(&rest, angle_intros, COUNT(angle_intros),
	                        &after);
	if (which < 0)
		return false;
	if (which <= 1) /* the greetings name the reporting host */
		set_reporting_mta(ps, host_after(after));
	while (mime_line(&rest, &line) && !original_marker(line)) {
		if (!angle_line(line, &addr, &tail))
			continue;
		remote = empty_span();
		diag = angle_diagnostic(tail, &rest, &remote);
		add_text_recipient(ps, addr, diag, remote);
	}
	return true;
}

/* ---- Exim ---- */

static const char *const exim_intros[] = {
	"This message was created automatically by mail delivery software",
	"A message that you sent could not be delivered",
	"A message that you sent has not yet been delivered",
};

/* Where the list of addresses starts: the end of a line holding one. */
static const char *const exim_lists[] = {
	"following address(es) failed",
	"following addresses failed",
	"following address failed",
	"has not yet been delivered is:",
	"has not yet been delivered are:",
};

static bool exim_list_line(struct span line)
{
	for (size_t i = 0; i < COUNT(exim_lists); i++)
		if (mime_ifind(line, exim_lists[i]))
			return true;
	return false;
}

/*
 * The reply in an Exim address's detail lines, and the remote host they
 * name ("host mx.example.com [192.0.2.25]").  The reply runs from the
 * first line that starts with a failure code, or from the code after
 * "host h [ip]: ", to the end; without a code it is the text after a host
 * line that starts the details ("Connection timed out"), else all of them
 * ("Unrouteable address").  The host is taken only before the reply: the
 * reply may be unfolded in place (decoded text, bare CR line ends), which
 * would move a host inside it.
 */
static struct span exim_diagnostic(struct span details, struct span *host)
{
	struct span rest = details, line, reply, after;
	const char *colon;

	*host = empty_span();
	while (mime_line(&rest, &line)) {
		const char *p = mime_ifind(line, "]: ");
		struct span tail = line;
		/* A host on the reply's first line stays where it is:
		 * unfolding moves only what follows a line break. */
		if (mime_empty(*host) && line_starts(line, "host ", &after))
			*host = first_word(after);
		if (p)
			tail.p = p + 3;
		if (reply_in(mime_trim(line), &reply) ||
		    (p && reply_in(tail, &reply))) {
			reply.e = details.e;
			return reply;
		}
	}
	rest = details;
	if (!mime_line(&rest, &line) || !line_starts(line, "host ", &after)) {
		*host = empty_span();
		return details;
	}
	*host = first_word(after);
	colon = mime_ifind(line, "]: ");
	if (colon) {
		reply.p = colon + 3;
		reply.e = details.e;
		return mime_trim(reply);
	}
	return mime_trim(rest);
}

/* Take the next address's block off *rest: its address line ("  x@y",
 * indented one to three columns; blank lines before it are skipped) and
 * the detail lines indented further.  False at the end of the list, a
 * line that is not indented. */
static bool exim_block(struct span *rest, struct span *addr,
                       struct span *details)
{
	struct span line, next;
	size_t indent;

	do {
		if (!mime_line(rest, &line))
			return false;
	} while (mime_blank(line));
	indent = indent_of(line);
	if (indent == 0)
		return false;
	/* A pipe or a file has no '@': its block is skipped. */
	*addr = indent < 4 ? address_in(first_word(line)) : empty_span();
	*details = empty_span();
	for (next = *rest; mime_line(&next, &line) && !mime_blank(line) &&
	                   indent_of(line) >= 4;
	     *rest = next) {
		if (mime_empty(*details))
			details->p = mime_trim(line).p;
		details->e = line.e;
	}
	return true;
}

static bool read_exim_bounce(struct parser *ps, struct span text)
{
	struct span rest = text, line, addr, details;

	if (seek_phrase(&rest, exim_intros, COUNT(exim_intros), NULL) < 0)
		return false;
	while (mime_line(&rest, &line) && !exim_list_line(line))
		;
	while (exim_block(&rest, &addr, &details)) {
		struct span host, diag = exim_diagnostic(details, &host);
		if (!mime_empty(addr))
			add_text_recipient(ps, addr, diag, host);
	}
	return true;
}

/* ---- Gmail ---- */

static const char *const gmail_lists[] = {
	"Delivery to the following recipient failed permanently:",
	"Delivery to the following recipients failed permanently:",
	"Delivery to the following recipient has been delayed:",
	"Delivery to the following recipients has been delayed:",
};

static const char *const gmail_sentences[] = {
	"Your message wasn't delivered to",
	"There was a problem delivering your message to",
};

static const char *const gmail_replies[] = {
	"The response from the remote server was:",
	"The error that the other server returned was:",
	"The response was:",
};

static const char *const gmail_intros[] = {
	"** Address not found **",
	"** Message not delivered **",
	"** Message blocked **",
	"** Delivery incomplete **",
	"Delivery to the following recipient",
	"Your message wasn't delivered to",
	"There was a problem delivering your message to",
};

/* The lines after "The response was:" up to a blank line. */
static struct span gmail_reply(struct span text)
{
	struct span rest = text, line, reply = empty_span();
	if (seek_phrase(&rest, gmail_replies, COUNT(gmail_replies), NULL) < 0)
		return reply;
	while (mime_line(&rest, &line)) {
		if (mime_blank(line)) {
			if (mime_empty(reply))
				continue;
			break;
		}
		if (mime_empty(reply))
			reply.p = line.p;
		reply.e = line.e;
	}
	return reply;
}

/* The indented addresses after "Delivery to the following recipient...". */
static void read_gmail_list(struct parser *ps, struct span rest,
                            struct span reply)
{
	struct span line, addr;
	bool any = false;
	while (mime_line(&rest, &line)) {
		if (mime_blank(line) && !any)
			continue;
		if (!lone_address(line, &addr))
			break;
		add_text_recipient(ps, addr, reply, empty_span());
		any = true;
	}
}

static bool read_gmail_bounce(struct parser *ps, struct span text)
{
	struct span rest = text, line, after, reply;
	size_t before = ps->m->nrecipients;

	if (seek_phrase(&rest, gmail_intros, COUNT(gmail_intros), NULL) < 0)
		return false;
	reply = gmail_reply(text);
	rest = text;
	while (ps->m->nrecipients == before && mime_line(&rest, &line)) {
		if (starts_any(line, gmail_lists, COUNT(gmail_lists),
		               NULL) >= 0)
			read_gmail_list(ps, rest, reply);
		else if (starts_any(line, gmail_sentences,
		                    COUNT(gmail_sentences), &after) >= 0 &&
		         !mime_empty(address_in(first_word(after))))
			add_text_recipient(ps, address_in(first_word(after)),
			                   reply, empty_span());
	}
	return true;
}

/* ---- Exchange and Office 365 NDRs ---- */

static const char *const exchange_intros[] = {
	"Delivery has failed to these recipients or groups",
	"Diagnostic information for administrators",
	"Your message did not reach some or all of the intended recipients",
};

static const char *const exchange_2003_lists[] = {
	"The following recipient(s) cannot be reached:",
	"The following recipient(s) could not be reached:",
};

/* "<host #5.1.1 smtp;550 5.1.1 text>" (and the '#...##' form): the reply
 * after "smtp;", else the text after '#'. */
static struct span exchange_hash_reply(struct span t)
{
	const char *p;
	bool bracketed = !mime_empty(t) && *t.p == '<';
	if ((p = mime_ifind(t, "smtp;")) != NULL)
		t.p = p + 5;
	else if ((p = mime_find(t, '#')) != NULL)
		t.p = p + 1;
	t = mime_trim(t);
	if (bracketed && t.e > t.p && t.e[-1] == '>')
		t.e--;
	while (t.e > t.p && (t.e[-1] == '#' || mime_is_space(t.e[-1])))
		t.e--;
	return mime_trim(t);
}

/* "Remote Server returned '550 5.1.1 ...'", "Remote Server at mx.example.com
 * (192.0.2.25) returned '...'" or "#550 5.1.1 ... ##": the reply, and the
 * remote host when named. */
static bool exchange_reply(struct span t, struct span *reply,
                           struct span *remote)
{
	struct span after;
	const char *p;

	if (!mime_empty(t) && *t.p == '#') {
		*reply = exchange_hash_reply(t);
		return true;
	}
	if (!line_starts(t, "Remote Server", &after) ||
	    (p = mime_ifind(t, "returned '")) == NULL)
		return false;
	if (line_starts(after, "at", &after))
		*remote = first_word(after);
	reply->p = p + 10;
	reply->e = t.e;
	while (reply->e > reply->p && reply->e[-1] != '\'')
		reply->e--;
	if (reply->e > reply->p)
		reply->e--; /* the closing quote */
	else
		reply->e = t.e; /* unclosed: the rest of the line */
	*reply = mime_trim(*reply);
	if (!mime_empty(*reply) && *reply->p == '<')
		*reply = exchange_hash_reply(*reply);
	return true;
}

struct pending {
	struct span addr, reply, remote;
};

static void flush_pending(struct parser *ps, struct pending *r)
{
	if (!mime_empty(r->addr))
		add_text_recipient(ps, r->addr, r->reply, r->remote);
	memset(r, 0, sizeof *r);
}

/* After "Diagnostic information for administrators:": each address on a
 * line of its own, then the reply the remote server returned. */
static void read_exchange_diagnostics(struct parser *ps, struct span rest)
{
	struct pending r = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
	struct span line, after, addr;

	while (mime_line(&rest, &line) && !original_marker(line)) {
		struct span t = mime_trim(line);
		if (line_starts(t, "Generating server:", &after))
			set_reporting_mta(ps, first_word(after));
		else if (lone_address(t, &addr)) {
			flush_pending(ps, &r);
			r.addr = addr;
		} else if (!mime_empty(r.addr) && mime_empty(r.reply))
			(void)exchange_reply(t, &r.reply, &r.remote);
	}
	flush_pending(ps, &r);
}

/* After "Delivery has failed to these recipients or groups:": lines that
 * name an address ("Name (x@y)", "x@y<mailto:x@y>"), between sentences
 * that explain the failure. */
static void read_exchange_list(struct parser *ps, struct span rest)
{
	struct span line;
	while (mime_line(&rest, &line)) {
		struct span t = mime_trim(line);
		if (line_starts(t, "Diagnostic information for administrators",
		                NULL) ||
		    original_marker(t))
			break;
		if (!mime_empty(t) && t.e[-1] != '.' &&
		    !mime_empty(address_in(t)))
			add_text_recipient(ps, address_in(t), empty_span(),
			                   empty_span());
	}
}

/* Exchange 2000/2003: "      x@y on 1/15/2024 10:00 AM" then, indented
 * further, the explanation and "<host #5.1.1 smtp;550 5.1.1 ...>". */
static void read_exchange_2003(struct parser *ps, struct span rest)
{
	struct pending r = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
	struct span line, t;

	while (mime_line(&rest, &line)) {
		if (mime_blank(line))
			continue;
		if (indent_of(line) == 0)
			break;
		t = mime_trim(line);
		if (*t.p == '<' && mime_find(t, '#')) {
			if (!mime_empty(r.addr) && mime_empty(r.reply))
				r.reply = exchange_hash_reply(t);
		} else if (mime_ifind(t, " on ") &&
		           !mime_empty(address_in(first_word(t)))) {
			flush_pending(ps, &r);
			r.addr = address_in(first_word(t));
		}
	}
	flush_pending(ps, &r);
}

static bool read_exchange_bounce(struct parser *ps, struct span text)
{
	static const char *const diagnostics[] = {
		"Diagnostic information for administrators:"};
	static const char *const list[] = {
		"Delivery has failed to these recipients or groups:"};
	struct span rest = text;
	size_t before = ps->m->nrecipients;

	if (seek_phrase(&rest, exchange_intros, COUNT(exchange_intros),
	                NULL) < 0)
		return false;
	rest = text;
	if (seek_phrase(&rest, diagnostics, 1, NULL) >= 0)
		read_exchange_diagnostics(ps, rest);
	rest = text;
	if (ps->m->nrecipients == before &&
	    seek_phrase(&rest, list, 1, NULL) >= 0)
		read_exchange_list(ps, rest);
	rest = text;
	if (ps->m->nrecipients == before &&
	    seek_phrase(&rest, exchange_2003_lists,
	                COUNT(exchange_2003_lists), NULL) >= 0)
		read_exchange_2003(ps, rest);
	return true;
}

/* ---- Text bounces ---- */

/* The text of text part i, decoded on first use (and only once: a second
 * decoding would undo what unfolding did in place). */
static struct span text_part(struct parser *ps, size_t i)
{
	struct text_part *t = &ps->texts[i];
	if (!t->decoded) {
		t->text = mime_decode(&ps->work, t->part.body,
		                      t->part.encoding);
		t->decoded = true;
	}
	return t->text;
}

/* Try each recogniser on each text part until one yields recipients.
 * Returns whether any recognised a bounce's wording. */
static bool read_text_bounces(struct parser *ps)
{
	static bool (*const readers[])(struct parser *, struct span) = {
		read_exchange_bounce, read_gmail_bounce, read_exim_bounce,
		read_angle_bounce,
	};
	const size_t *found = &ps->m->nrecipients;
	bool recognised = false;
	for (size_t i = 0; i < ps->ntexts && *found == 0; i++)
		for (size_t k = 0; k < COUNT(readers) && *found == 0; k++)
			recognised |= readers[k](ps, text_part(ps, i));
	return recognised;
}

/* ---- X-Failed-Recipients ---- */

/* Take the next comma- or blank-separated item off *list. */
static bool list_item(struct span *list, struct span *item)
{
	const char *p = list->p;
	while (p < list->e && (*p == ',' || mime_is_space(*p)))
		p++;
	if (p == list->e)
		return false;
	item->p = p;
	while (p < list->e && *p != ',' && !mime_is_space(*p))
		p++;
	item->e = p;
	list->p = p;
	return true;
}

/* Whether line names addr; *after gets the text that follows it. */
static bool names_address(struct span line, struct span addr,
                          struct span *after)
{
	struct span words = line, word;
	while (next_address(&words, &word))
		if (same_text(word, addr)) {
			after->p = word.e;
			after->e = line.e;
			return true;
		}
	return false;
}

/* The reply for addr in a body that lists failed addresses in its own
 * words: on the line that names it, after the address, or on one of the
 * next three lines. */
static struct span reply_for(struct span body, struct span addr)
{
	struct span rest = body, line, after, reply;
	while (mime_line(&rest, &line)) {
		if (!names_address(line, addr, &after))
			continue;
		if (reply_in(after, &reply))
			return reply;
		for (int k = 0; k < 3 && mime_line(&rest, &line); k++)
			if (reply_in(line, &reply))
				return reply;
		break;
	}
	return empty_span();
}

/* The first line of body that starts with a failure reply. */
static struct span first_reply(struct span body)
{
	struct span rest = body, line, reply;
	while (mime_line(&rest, &line))
		if (reply_in(line, &reply))
			return reply;
	return empty_span();
}

/* Add the n-th of total failed addresses, with its reply in body. */
static void add_failed(struct parser *ps, struct span body, struct span addr,
                       size_t n, size_t total)
{
	struct span reply = empty_span();
	if (n < MAIL_MAX_LOOKUPS)
		reply = reply_for(body, addr);
	if (mime_empty(reply) && total == 1)
		reply = first_reply(body);
	add_text_recipient(ps, addr, reply, empty_span());
}

/* Count the addresses of the X-Failed-Recipients fields; when total (their
 * count) is given, also add them as recipients, with their replies. */
static size_t failed_addresses(struct parser *ps, struct span body,
                               size_t total)
{
	struct mime_header h;
	struct span list, item, addr;
	struct mime_field f;
	size_t n = 0;

	mime_header_begin(&h, ps->headers);
	while (mime_header_next(&h, &f)) {
		if (!mime_ieq(f.name, "X-Failed-Recipients"))
			continue;
		list = f.value;
		while (list_item(&list, &item)) {
			addr = address_in(item);
			if (mime_empty(addr))
				continue;
			if (total > 0)
				add_failed(ps, body, addr, n, total);
			n++;
		}
	}
	return n;
}

/* Exim's header, also written by other MTAs: the failed addresses, with
 * the replies found for them in the body's text. */
static void read_failed_header(struct parser *ps)
{
	struct span body = ps->ntexts ? text_part(ps, 0) : empty_span();
	size_t total = failed_addresses(ps, body, 0);
	if (total > 0)
		(void)failed_addresses(ps, body, total);
}

/* ---- Delivery status notifications (RFC 3464) ---- */

struct dsn_recipient {
	struct smtpcode_mail_recipient r;
	struct span final, original;
	bool any; /* a per-recipient field was seen */
};

/* The value after "type;" ("rfc822; x@y", "smtp; 550 ...", "dns; host").
 * The type is one word: a value without one keeps its own semicolons. */
static struct span after_type(struct span v)
{
	const char *semi = mime_find(v, ';'), *p;
	if (!semi)
		return mime_trim(v);
	for (p = v.p; p < semi && !mime_is_space(*p); p++)
		;
	if (p == semi && p > v.p)
		v.p = semi + 1;
	return mime_trim(v);
}

static struct span typed_value(struct parser *ps, struct span v)
{
	return mime_unfold(&ps->work, after_type(v));
}

static void commit_recipient(struct parser *ps, struct dsn_recipient *cur)
{
	if (cur->any) {
		cur->r.recipient = text_of(
			!mime_empty(cur->final) ? cur->final : cur->original);
		add_recipient(ps, &cur->r);
	}
	memset(cur, 0, sizeof *cur);
}

/* A recipient's address field.  A second Final-Recipient (or Original-)
 * starts the next recipient even without the blank line that should
 * separate them. */
static void address_field(struct parser *ps, struct dsn_recipient *cur,
                          struct span *slot, struct span value)
{
	if (!mime_empty(*slot))
		commit_recipient(ps, cur);
	*slot = bare_address(typed_value(ps, value));
	cur->any = true;
}

static void dsn_field(struct parser *ps, struct dsn_recipient *cur,
                      const struct mime_field *f)
{
	struct smtpcode_mail_recipient *r = &cur->r;
	struct span v;

	if (mime_ieq(f->name, "Reporting-MTA")) {
		set_reporting_mta(ps, typed_value(ps, f->value));
	} else if (mime_ieq(f->name, "Final-Recipient")) {
		address_field(ps, cur, &cur->final, f->value);
	} else if (mime_ieq(f->name, "Original-Recipient")) {
		address_field(ps, cur, &cur->original, f->value);
	} else if (mime_ieq(f->name, "Action") && !r->action.len) {
		r->action = text_of(first_word(f->value));
		cur->any = true;
	} else if (mime_ieq(f->name, "Status") && !r->status.len) {
		v = first_word(f->value);
		r->status = text_of(v);
		/* Left zeroed when it is not a code. */
		(void)smtpcode_parse(v.p, mime_len(v), &r->status_code);
		cur->any = true;
	} else if (mime_ieq(f->name, "Diagnostic-Code") && !r->diagnostic.len) {
		set_diagnostic(ps, r, after_type(f->value));
		cur->any = true;
	} else if (mime_ieq(f->name, "Remote-MTA") && !r->remote_mta.len) {
		r->remote_mta = text_of(typed_value(ps, f->value));
		cur->any = true;
	}
}

/* The per-message fields, then one group of fields per recipient, groups
 * separated by blank lines. */
static void read_dsn(struct parser *ps, struct span body)
{
	struct dsn_recipient cur;
	struct mime_header h;
	struct mime_field f;

	memset(&cur, 0, sizeof cur);
	mime_header_begin(&h, body);
	while (!mime_empty(h.rest)) { /* a group, up to its blank line */
		while (mime_header_next(&h, &f))
			dsn_field(ps, &cur, &f);
		commit_recipient(ps, &cur);
	}
}

/* An ARF report (RFC 5965) names the MTA that made it. */
static void read_feedback(struct parser *ps)
{
	struct mime_header h;
	struct mime_field f;
	mime_header_begin(&h, mime_decode(&ps->work, ps->feedback_part.body,
	                                  ps->feedback_part.encoding));
	while (mime_header_next(&h, &f))
		if (mime_ieq(f.name, "Reporting-MTA"))
			set_reporting_mta(ps, typed_value(ps, f.value));
}

/* ---- The MIME tree ---- */

static void visit(struct parser *ps, const struct mime_part *part,
                  unsigned depth);

static void read_multipart(struct parser *ps, const struct mime_part *part,
                           unsigned depth)
{
	struct mime_multipart mp;
	struct mime_part child;
	struct span s;

	if (depth >= MAIL_MAX_DEPTH)
		return;
	mime_multipart_begin(&mp, part->body, part->type.boundary);
	while (mime_multipart_next(&mp, &s)) {
		mime_part(s, &child, NULL, NULL);
		visit(ps, &child, depth + 1);
	}
}

/* Note what a part is; descend into multiparts.  Recursion is bounded by
 * MAIL_MAX_DEPTH.  Other parts (the returned original, HTML versions,
 * attachments) are not read. */
static void visit(struct parser *ps, const struct mime_part *part,
                  unsigned depth)
{
	const struct mime_type *t = &part->type;

	if (mime_type_is(t, "multipart", NULL)) {
		if (mime_ieq(t->report_type, "delivery-status") ||
		    mime_ieq(t->report_type, "global-delivery-status"))
			ps->dsn_report = true;
		else if (mime_ieq(t->report_type, "feedback-report"))
			ps->feedback = true;
		read_multipart(ps, part, depth);
	} else if (mime_type_is(t, "message", "delivery-status") ||
	           mime_type_is(t, "message", "global-delivery-status")) {
		if (!ps->have_status) {
			ps->status = *part;
			ps->have_status = true;
		}
	} else if (mime_type_is(t, "message", "feedback-report")) {
		ps->feedback = true;
		if (!ps->have_feedback) {
			ps->feedback_part = *part;
			ps->have_feedback = true;
		}
	} else if ((mime_empty(t->type) || mime_type_is(t, "text", "plain")) &&
	           ps->ntexts < MAIL_MAX_TEXTS) {
		ps->texts[ps->ntexts].part = *part;
		ps->texts[ps->ntexts].decoded = false;
		ps->ntexts++;
	}
}

/* ---- The message's own header ---- */

/* A field's value unfolded, its encoded words decoded: an encoded
 * "Undelivered Mail" or "Automatic reply" reads as one. */
static struct span header_text(struct parser *ps, struct span value)
{
	return mime_decode_words(&ps->work, mime_unfold(&ps->work, value));
}

/* A field of the message's own header (a mime_field_fn: read while the
 * header is split off, not in a pass of its own). */
static void header_field(void *ctx, const struct mime_field *f)
{
	struct parser *ps = ctx;
	struct smtpcode_mail *m = ps->m;
	if (mime_ieq(f->name, "From") && !m->from.len) {
		m->from = text_of(header_text(ps, f->value));
	} else if (mime_ieq(f->name, "Subject") && !m->subject.len) {
		m->subject = text_of(header_text(ps, f->value));
	} else if (mime_ieq(f->name, "Auto-Submitted")) {
		/* auto-generated is what notifications say, not replies. */
		if (mime_istarts(f->value, "auto-replied"))
			ps->auto_replied = true;
	} else if (mime_ieq(f->name, "X-Autoreply") ||
	           mime_ieq(f->name, "X-Autorespond") ||
	           mime_ieq(f->name, "X-Autoresponder")) {
		if (!mime_ieq(f->value, "no") && !mime_ieq(f->value, "false"))
			ps->autoreply_header = true;
	} else if (mime_ieq(f->name, "Precedence")) {
		if (mime_ieq(f->value, "auto_reply"))
			ps->autoreply_header = true;
	} else if (mime_ieq(f->name, "X-Failed-Recipients")) {
		ps->failed_header = true;
	}
}

static bool autoreply_subject(struct smtpcode_text subject)
{
	static const char *const prefixes[] = {
		"Automatic reply", "Auto-reply",        "Autoreply",
		"Auto reply",      "Auto-response",     "Auto response",
		"Autoresponse",    "Out of Office",     "Out of the Office",
		"Abwesenheitsnotiz",
	};
	struct span s = mime_span(subject.s, subject.len);
	return starts_any(s, prefixes, COUNT(prefixes), NULL) >= 0;
}

/* A message from the mail system about delivery, in a format none of the
 * recognisers reads: a bounce still, without recipients. */
static bool looks_like_bounce(const struct smtpcode_mail *m)
{
	static const char *const subjects[] = {
		"undeliver", "delivery status notification", "failure notice",
		"returned mail", "delivery failure", "mail delivery failed",
		"not delivered", "delivery has failed", "returned to sender",
	};
	struct span from = mime_span(m->from.s, m->from.len);
	struct span subject = mime_span(m->subject.s, m->subject.len);
	if (!mime_ifind(from, "mailer-daemon") &&
	    !mime_ifind(from, "postmaster@") &&
	    !mime_ifind(from, "Mail Delivery S"))
		return false;
	for (size_t i = 0; i < COUNT(subjects); i++)
		if (mime_ifind(subject, subjects[i]))
			return true;
	return false;
}

/* What the message is, from the strongest evidence down; reads the
 * recipients on the way. */
static enum smtpcode_mail_kind classify(struct parser *ps)
{
	struct smtpcode_mail *m = ps->m;
	bool recognised;

	if (ps->feedback) {
		if (ps->have_feedback)
			read_feedback(ps);
		return SMTPCODE_MAIL_FEEDBACK;
	}
	if (ps->have_status || ps->dsn_report) {
		if (ps->have_status)
			read_dsn(ps, mime_decode(&ps->work, ps->status.body,
			                         ps->status.encoding));
		if (m->nrecipients == 0)
			(void)read_text_bounces(ps);
		return SMTPCODE_MAIL_DSN;
	}
	recognised = read_text_bounces(ps);
	if (m->nrecipients == 0 && ps->failed_header)
		read_failed_header(ps);
	/* An MTA's own wording, or its header, outweighs "Auto-Submitted:
	 * auto-replied", which bounces carry too; the markers only
	 * auto-responders write outweigh a bounce-like From and Subject. */
	if (m->nrecipients > 0 || recognised || ps->failed_header)
		return SMTPCODE_MAIL_BOUNCE;
	if (ps->autoreply_header || autoreply_subject(m->subject))
		return SMTPCODE_MAIL_AUTOREPLY;
	if (looks_like_bounce(m))
		return SMTPCODE_MAIL_BOUNCE;
	if (ps->auto_replied)
		return SMTPCODE_MAIL_AUTOREPLY;
	return SMTPCODE_MAIL_OTHER;
}

/* An mbox "From " line before the header is not part of the message. */
static struct span skip_mbox_line(struct span s)
{
	struct span rest = s, line;
	if (mime_len(s) >= 5 && memcmp(s.p, "From ", 5) == 0 &&
	    mime_line(&rest, &line))
		return rest;
	return s;
}

int smtpcode_mail_parse(const char *msg, size_t len, char *work,
                        size_t worksize, struct smtpcode_mail *m)
{
	struct parser ps;
	struct mime_part top;
	struct span all;

	memset(&ps, 0, sizeof ps);
	m->kind = SMTPCODE_MAIL_OTHER;
	m->nrecipients = 0;
	memset(&m->from, 0, sizeof m->from);
	memset(&m->subject, 0, sizeof m->subject);
	memset(&m->reporting_mta, 0, sizeof m->reporting_mta);
	if (!msg)
		len = 0;
	ps.m = m;
	ps.work.msg = msg;
	ps.work.len = len;
	ps.work.buf = work;
	ps.work.size = work ? worksize : 0;

	all = mime_span(msg, len);
	/* Lines that end in a bare CR are read from a copy that ends them
	 * in LF: every reader then finds its lines. */
	if (mime_cr_lines(all))
		all = mime_cr_to_lf(&ps.work, all);
	mime_part(skip_mbox_line(all), &top, header_field, &ps);
	ps.headers = top.headers;
	visit(&ps, &top, 0);
	m->kind = classify(&ps);
	return ps.work.overflow ? -1 : 0;
}
