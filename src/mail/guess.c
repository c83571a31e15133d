/*
 * The last resort for a bounce that no layout reads (a message a mailer
 * daemon sent about delivery, in a form data/bounces/ does not know):
 * its recipients from the signs most bounces share, in the bounce's own
 * text, up to where the returned message starts (a line that starts with
 * a phrase of data/bounces/classify.txt's guess-end list, or with a header
 * field of its guess-header list at the line's very start):
 *  - an SMTP transcript: "RCPT TO:<x@y>", and the failure reply on one of
 *    the lines after it ("Received >>> 550 5.1.1 unknown user.");
 *  - a failure reply that names an address ("552 Message for <x@y> would
 *    exceed mailbox quota");
 *  - an address after a label of the address-label list ("Invalid final
 *    delivery userid: x@y", "Delivery failed 20 attempts: x@y"), alone on
 *    its line ("> x@y", "<x@y>"), at the start of a line ("x@y ...
 *    unknown host", "<x@y>: Requested action not taken", "x@y on DATE"),
 *    or at the end of a line after a label of two words or more and a
 *    colon ("Undeliverable Address: x@y"; not "To: x@y", which quotes
 *    the returned message's header), or on a line whose words give a
 *    reason (data/reasons/: "Local mailbox x@y is unavailable: user not
 *    found"): its reply is the next failure reply
 *    of the text (which then names no recipient of its own), else the
 *    first before it, else the lines of the label's paragraph, or of the
 *    paragraph after the address.
 * A reply is a code the table knows at the start of a word: "550 ...",
 * "Received >>> 550 5.1.1 ..." ("+1 925-423-5635" is not one).
 * The addresses the message names in its own From and To (the mailer
 * daemon, the original sender) and the mail system's (postmaster@,
 * mailer-daemon@) are never recipients.  One pass over the lines, and a
 * fixed number of recipients kept until their replies are known (when
 * more come, those kept are given with what is known), so the cost stays
 * linear and no recipient is left out.
 */
#include <string.h>

#include "guess.h"
#include "smtpcode.h"
#include "words.h"

/* Recipients found before the reply that goes with them is known. */
#define GUESS_MAX 128
/* Lines after "RCPT TO:" where its reply may be. */
#define TRANSCRIPT_LINES 3
/* Bytes of a reply parsed for its codes ("550-5.7.1 " and more). */
#define REPLY_HEAD 32
/* Lines of the paragraph that says why, after an address or a label. */
#define SAID_LINES 5

struct found {
	struct span addr, reply;
	struct span said; /* the label's line or the lines after the address,
	                     up to a blank line: its reply when the text has
	                     none */
};

struct guess {
	const struct guess_own *own;
	const struct text_sink *sink;
	struct found f[GUESS_MAX];
	size_t n;
	struct span first_reply; /* the text's first failure reply */
	struct span first_worded; /* its first line whose words give a reason
	                             and that names no address */
};

/* The mail system's own mailboxes, which a bounce names as its sender
 * (data/bounces/classify.txt, system-mailbox): a's start is one, and its
 * domain follows. */
static bool system_address(struct span a)
{
	size_t end;
	return phrase_starts(&phrases_system_mailbox, a.p, mime_len(a), &end) &&
	       end < mime_len(a);
}

static bool own_address(const struct guess *g, struct span a)
{
	for (size_t i = 0; i < g->own->n; i++)
		if (mail_same_text(a, g->own->addr[i]))
			return true;
	return system_address(a);
}

/* The recipients noted, each with its reply (its own, else the text's
 * first failure reply, else what was said with it, else the text's first
 * line whose words give a reason), to the sink; none noted after. */
static void give_all(struct guess *g)
{
	struct smtpcode_wording w;
	for (size_t i = 0; i < g->n; i++) {
		const struct found *f = &g->f[i];
		struct span reply = !mime_empty(f->reply) ? f->reply
		                  : !mime_empty(g->first_reply) ? g->first_reply
		                                                : f->said;
		/* What is said with an address may not say why: the text's
		 * first line that does, then (one line: no two recipients'
		 * texts are joined in place). */
		if (mime_empty(f->reply) && mime_empty(g->first_reply) &&
		    !mime_empty(g->first_worded) &&
		    (mime_empty(reply) ||
		     !smtpcode_wording(reply.p, mime_len(reply), &w)))
			reply = g->first_worded;
		g->sink->recipient(g->sink->ctx, f->addr, reply, mail_no_span());
	}
	g->n = 0;
}

/* Note addr with its reply (empty: not known yet) and what was said
 * with it; the first mention of an address stands, but a reply found
 * later completes it.  Its entry, or NULL when it is not one. */
static struct found *note(struct guess *g, struct span addr,
                          struct span reply, struct span said)
{
	struct found *f;
	if (mime_empty(addr) || !mime_find(addr, '.') || own_address(g, addr))
		return NULL;
	for (size_t i = 0; i < g->n; i++)
		if (mail_same_text(g->f[i].addr, addr)) {
			if (mime_empty(g->f[i].reply))
				g->f[i].reply = reply;
			return &g->f[i];
		}
	/* Room for more: those noted go now, with what is known of their
	 * replies so far, rather than a recipient being left out.  (One noted
	 * again after that is given twice.) */
	if (g->n == GUESS_MAX)
		give_all(g);
	f = &g->f[g->n++];
	f->addr = addr;
	f->reply = reply;
	f->said = said;
	return f;
}

/* Give reply to the recipients noted without one; whether there were. */
static bool answer_waiting(struct guess *g, struct span reply)
{
	bool any = false;
	for (size_t i = 0; i < g->n; i++)
		if (mime_empty(g->f[i].reply)) {
			g->f[i].reply = reply;
			any = true;
		}
	return any;
}

/* A failure reply that starts a word of line ("Received >>> 550 5.1.1
 * unknown user."), with a code the table knows: from its code to the
 * line's end. */
static bool reply_in_line(struct span line, struct span *reply)
{
	for (const char *p = line.p; p < line.e; p++) {
		struct smtpcode_query q;
		/* The codes are at the start: what is parsed need not be
		 * longer, and a line of many digits stays linear. */
		size_t n = (size_t)(line.e - p) < REPLY_HEAD
		               ? (size_t)(line.e - p) : REPLY_HEAD;
		if ((*p != '4' && *p != '5') ||
		    (p > line.p && (mime_is_digit(p[-1]) || p[-1] == '.' ||
		                    p[-1] == '-' || p[-1] == '+')))
			continue;
		if (smtpcode_parse(p, n, &q) != SMTPCODE_OK ||
		    (q.enhanced ? q.cls < 4 : q.basic < 400))
			continue;
		if (q.enhanced || smtpcode_find_basic(q.basic)) {
			reply->p = p;
			reply->e = line.e;
			*reply = mime_trim(*reply);
			return true;
		}
	}
	return false;
}

/* The line without the marks that quote, point, enclose or rule ("> ",
 * ">>> ", "<<< ", "* ", "(", "|----"); an address's own '<' stays. */
static struct span unmarked(struct span line)
{
	struct span t = mime_trim(line);
	while (t.p < t.e && (*t.p == '>' || *t.p == '<' || *t.p == '*' ||
	                     *t.p == '-' || *t.p == '(' || *t.p == '|') &&
	       !(*t.p == '<' && !mime_empty(mail_address_in(mail_first_word(t))) &&
	         mail_address_in(mail_first_word(t)).p == t.p + 1))
		t.p++;
	return mime_trim(t);
}

/* An address that starts the line, bracketed, quoted or not ("x@y ...
 * unknown host", "<x@y>: reply", "\"x@y\" <x@y>"); *after gets the rest
 * of the line. */
static bool leading(struct span t, struct span *addr, struct span *after)
{
	struct span word = mail_first_word(t), a = mail_address_in(word);
	if (mime_empty(a) ||
	    (a.p != t.p && !(a.p == t.p + 1 && (*t.p == '<' || *t.p == '"'))))
		return false;
	*addr = a;
	after->p = a.e;
	after->e = t.e;
	while (after->p < after->e &&
	       (*after->p == '>' || *after->p == ':' || *after->p == '"'))
		after->p++;
	*after = mime_trim(*after);
	return true;
}

/* An address that ends the line after "Two words or more: "; the label
 * of one word ("To:", "From:") quotes the returned message's header. */
static bool trailing(struct span t, struct span *addr)
{
	struct span a;
	const char *colon;
	while (t.e > t.p && (t.e[-1] == '>' || t.e[-1] == '.'))
		t.e--;
	a = t;
	while (a.p < a.e && (a.e[-1] != ' ' && a.e[-1] != '<' && a.e[-1] != '\t'))
		a.e--;
	a.p = a.e;
	a.e = t.e;
	if (!mail_is_address(a))
		return false;
	colon = a.p;
	while (colon > t.p && (colon[-1] == ' ' || colon[-1] == '<'))
		colon--;
	if (colon == t.p || colon[-1] != ':')
		return false;
	for (const char *p = t.p; p < colon - 1; p++)
		if (*p == ' ') {
			*addr = a;
			return true;
		}
	return false;
}

/* Whether line (t, without its marks) starts the returned message: a
 * phrase of guess-end, or a header field of guess-header at the line's
 * very start. */
static bool ends_text(struct span line, struct span t)
{
	return phrase_starts(&phrases_guess_end, t.p, mime_len(t), NULL) ||
	       (!mime_empty(line) && !mime_is_wsp(*line.p) &&
	        phrase_starts(&phrases_guess_header, line.p, mime_len(line),
	                      NULL));
}

/* An address alone, bracketed or quoted or not: "x@y", "<x@y>",
 * "\"x@y\"". */
static bool lone(struct span t, struct span *addr)
{
	if (mime_len(t) > 2 && ((*t.p == '<' && t.e[-1] == '>') ||
	                        (*t.p == '"' && t.e[-1] == '"'))) {
		t.p++;
		t.e--;
	}
	return mail_lone_address(t, addr);
}

/* The address in a line after a heading that names none ("did not
 * reach the following recipient(s):"), wherever it is; an X.400 name's
 * ("c=US;...;dda:SMTP=x@y;") without its "SMTP=". */
static bool after_heading(struct span t, struct span *addr)
{
	struct span words = t, a;
	const char *eq;
	if (!mail_next_address(&words, &a))
		return false;
	a = mail_address_in(a);
	while ((eq = mime_find(a, '=')) != NULL && eq < mime_find(a, '@'))
		a.p = eq + 1;
	*addr = a;
	return !mime_empty(a) && mail_is_address(a);
}

/* Whether a line ends a sentence or a heading, so that an address at the
 * start of the next is not a sentence's next word ("... e.g., if" then
 * "x@y fails, try ..."). */
static bool ends_sentence(struct span t)
{
	if (mime_empty(t))
		return true;
	switch (t.e[-1]) {
	case '.': case ':': case '!': case '?': case ')': case '|': case '-':
	case '=': case '*': case '>':
		return true;
	default:
		return false;
	}
}

/* The address after a label at the line's start, anywhere after it. */
static bool labelled(const struct phrase_set *labels, struct span t,
                     struct span *addr)
{
	size_t end;
	struct span words;
	if (!phrase_starts(labels, t.p, mime_len(t), &end))
		return false;
	words.p = t.p + end;
	words.e = t.e;
	return mail_next_address(&words, addr) &&
	       !mime_empty(*addr = mail_address_in(*addr));
}

/* Whether the word before a, in t, is "from": a sender ("not accepting
 * mail from x@y"), not a recipient. */
static bool after_from(struct span t, struct span a)
{
	const char *p = a.p;
	while (p > t.p && (p[-1] == ' ' || p[-1] == '<' || p[-1] == ':'))
		p--;
	return p - t.p >= 4 && mime_ifind((struct span){p - 4, p}, "from");
}

/* The one address of a line whose words give a reason, but a sender's. */
static bool worded(struct span t, struct span *addr)
{
	struct span words = t, a, other;
	struct smtpcode_wording w;
	if (!mail_next_address(&words, &a) || mail_next_address(&words, &other))
		return false;
	*addr = mail_address_in(a);
	return !mime_empty(*addr) && !after_from(t, *addr) &&
	       smtpcode_wording(t.p, mime_len(t), &w);
}

/* Whether line t holds a sign of its own (a recipient, a reply, the
 * returned message's start): where what is said of an address ends, so
 * that no two recipients' texts share a line (the parser joins a text's
 * lines in place). */
static bool sign(struct span t)
{
	struct span a, b;
	return phrase_starts(&phrases_guess_end, t.p, mime_len(t), NULL) ||
	       phrase_starts(&phrases_guess_header, t.p, mime_len(t), NULL) ||
	       mime_ifind(t, "RCPT TO:") || reply_in_line(t, &a) ||
	       (mime_find(t, '@') &&
	        (labelled(&phrases_address_label, t, &a) || lone(t, &a) ||
	         leading(t, &a, &b) || trailing(t, &a) || worded(t, &a)));
}

/* start, extended over the next lines of rest up to a blank line or a
 * line with a sign of its own (at most SAID_LINES in all; blank lines
 * right after start are passed over, as "Address: x@y", a blank line,
 * then "Reason: ..."); rest is not taken. */
static struct span paragraph(struct span start, struct span rest)
{
	struct span line;
	bool more = false; /* a line was added */
	for (unsigned n = 1; n < SAID_LINES && mime_line(&rest, &line); n++) {
		if (mime_blank(line)) {
			if (more)
				break;
			continue;
		}
		if (sign(unmarked(line)))
			break;
		if (mime_empty(start))
			start.p = line.p;
		start.e = line.e;
		more = true;
	}
	return mime_trim(start);
}

/* The address of line t, in the first of the shapes an address comes in
 * that t has, noted with what is said with it (rest: the lines after t). */
static void note_address(struct guess *g, struct span t, struct span rest,
                         bool sentence_ended, bool heading)
{
	struct span addr, after;
	if (labelled(&phrases_address_label, t, &addr))
		(void)note(g, addr, mail_no_span(), paragraph(t, rest));
	else if (lone(t, &addr))
		(void)note(g, addr, mail_no_span(), paragraph(mail_no_span(), rest));
	else if (sentence_ended && leading(t, &addr, &after))
		(void)note(g, addr, mail_no_span(), paragraph(after, rest));
	else if (heading && after_heading(t, &addr))
		(void)note(g, addr, mail_no_span(), paragraph(t, rest));
	else if (trailing(t, &addr) || worded(t, &addr))
		(void)note(g, addr, mail_no_span(), paragraph(t, rest));
}

void text_bounce_guess(struct span text, const struct guess_own *own,
                       const struct text_sink *sink)
{
	struct guess g;
	struct span rest = text, line, pending = mail_no_span();
	unsigned since_rcpt = 0;
	bool sentence_ended = true; /* by the line before */
	bool heading = false;       /* the line before is a label without an
	                               address */
	struct smtpcode_wording w;

	memset(&g, 0, sizeof g);
	g.own = own;
	g.sink = sink;
	while (mime_line(&rest, &line)) {
		struct span t = unmarked(line), reply, addr;
		const char *rcpt;
		bool has_at, named; /* t holds an '@'; an address */

		if (ends_text(line, t))
			break;
		if (mime_empty(t)) {
			sentence_ended = true;
			continue;
		}
		if ((rcpt = mime_ifind(t, "RCPT TO:")) != NULL) {
			struct span words = {rcpt + 8, t.e};
			pending = mail_next_address(&words, &addr)
			              ? mail_address_in(addr) : mail_no_span();
			since_rcpt = 0;
			continue;
		}
		if (reply_in_line(t, &reply)) {
			if (mime_empty(g.first_reply))
				g.first_reply = reply;
			if (!mime_empty(pending) && since_rcpt < TRANSCRIPT_LINES)
				(void)note(&g, pending, reply, mail_no_span());
			else if (!answer_waiting(&g, reply) &&
			         !mime_empty(addr = mail_address_in(reply)))
				(void)note(&g, addr, reply, mail_no_span());
			pending = mail_no_span();
			continue;
		}
		since_rcpt++;
		/* Most lines name no address: one look for an '@' spares them
		 * the shapes an address comes in. */
		has_at = mime_find(t, '@') != NULL;
		if (has_at)
			note_address(&g, t, rest, sentence_ended, heading);
		named = has_at && !mime_empty(mail_address_in(t));
		if (mime_empty(g.first_worded) && !named &&
		    smtpcode_wording(t.p, mime_len(t), &w))
			g.first_worded = t;
		sentence_ended = ends_sentence(t);
		heading = !named && phrase_starts(&phrases_address_label, t.p,
		                                  mime_len(t), NULL);
	}
	give_all(&g);
}

struct span text_first_reply(struct span text)
{
	struct span rest = text, line, reply, worded = mail_no_span();
	struct smtpcode_wording w;
	while (mime_line(&rest, &line)) {
		struct span t = unmarked(line);
		if (ends_text(line, t))
			break;
		if (reply_in_line(t, &reply))
			return reply;
		if (mime_empty(worded) && !mime_empty(t) &&
		    smtpcode_wording(t.p, mime_len(t), &w))
			worded = t;
	}
	return worded;
}
