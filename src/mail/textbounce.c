/*
 * The one reader of plain-text bounces.  Knowledge of MTAs is data: a
 * layout (data/bounces/, textbounce.h) gives the phrases that recognise a
 * bounce (its intro, at a line's start), where its list of recipients
 * starts, where a reply is, and where the bounce's own text ends.  What is
 * C is the shape of the recipient paragraphs, a handful of forms that
 * many MTAs share; a layout names one.
 *
 * Text is matched by phrases at the start of lines, so a bounce quoted in
 * a reply ("> Delivery has failed ...") is not taken for one.  Every shape
 * reads the text's lines in one pass or a fixed few, so that the cost
 * stays linear in the text's length.
 */
#include <string.h>

#include "scan.h"
#include "smtpcode.h"
#include "table.h"
#include "textbounce.h"
#include "words.h"

struct reader {
	const struct text_layout *l;
	const struct text_sink *sink;
	size_t added; /* recipients found so far */
};

static void add(struct reader *rd, struct span addr, struct span diag,
                struct span remote)
{
	rd->sink->recipient(rd->sink->ctx, addr, diag, remote);
	rd->added++;
}

static void reporting_mta(struct reader *rd, struct span host)
{
	rd->sink->reporting_mta(rd->sink->ctx, host);
}

/* ---- Phrases on lines ---- */

/* The phrase of set that line starts with (phrase.h), or NULL; *after
 * (if not NULL) gets the rest of the line. */
static const struct phrase *starts(const struct phrase_set *set,
                                   struct span line, struct span *after)
{
	size_t end;
	const struct phrase *ph = phrase_starts(set, line.p, mime_len(line),
	                                        &end);
	if (ph && after) {
		after->p = line.p + end;
		after->e = line.e;
	}
	return ph;
}

/* Take lines off *rest up to and including the first that starts with a
 * phrase of set; that phrase, or NULL (and *rest empty). */
static const struct phrase *seek(const struct phrase_set *set,
                                 struct span *rest, struct span *after)
{
	struct span line;
	while (mime_line(rest, &line)) {
		const struct phrase *ph = starts(set, line, after);
		if (ph)
			return ph;
	}
	return NULL;
}

/* Whether line holds a phrase of set, anywhere. */
static bool holds(const struct phrase_set *set, struct span line)
{
	return phrase_find(set, line.p, mime_len(line), NULL) != NULL;
}

/* A layout's end: the returned original or its headers. */
static bool ends(const struct reader *rd, struct span line)
{
	return starts(&rd->l->end, line, NULL) != NULL;
}

/* Words a shape reads inside its own paragraphs, as one-phrase sets (lower
 * case, as phrase.h wants them). */
#define WORD(name, text, first)                                         \
	static const struct phrase name##_phrase = {0, sizeof text - 1, 0}; \
	static const struct phrase_set name = {                             \
	    text, &name##_phrase, 1, {[(first) >> 5] = 1u << ((first) & 31)}}

WORD(host_word, "host ", 'h'); /* Exim's "host mx.example.com [192.0.2.1]" */
WORD(at_word, "at", 'a');      /* Exchange's "Remote Server at mx..." */

/* ---- address-paragraphs: "<x@y>: reply" (Postfix, qmail, Sendmail,
 * Yahoo), "x@y: reply" (OpenSMTPD) ---- */

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
	if (!mail_is_address(inner))
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

/* Whether line is "x@y: text" at its very start; *tail gets the text. */
static bool bare_line(struct span line, struct span *addr, struct span *tail)
{
	const char *colon = mime_find(line, ':');
	struct span inner = {line.p, colon};
	if (!colon || !mail_is_address(inner))
		return false;
	*addr = inner;
	tail->p = colon + 1;
	tail->e = line.e;
	*tail = mime_trim(*tail);
	return true;
}

static bool address_line(const struct reader *rd, struct span line,
                         struct span *addr, struct span *tail)
{
	return rd->l->bare ? bare_line(line, addr, tail)
	                   : angle_line(line, addr, tail);
}

/* The reply after a phrase of the layout's reply set ("said:") anywhere
 * in t, which may run over several lines, to the end of t; *at gets where
 * the phrase is. */
static bool reply_after(const struct reader *rd, struct span t,
                        struct span *reply, const char **at)
{
	size_t off;
	const struct phrase *ph = phrase_find(&rd->l->reply, t.p, mime_len(t),
	                                      &off);
	if (!ph)
		return false;
	*at = t.p + off;
	reply->p = t.p + off + ph->len;
	reply->e = t.e;
	*reply = mime_trim(*reply);
	return true;
}

/* Postfix's "host mx.example.com[192.0.2.25] said:": the host's name, from
 * the word before the reply phrase at 'said' (qmail's "Remote host said:"
 * names none). */
static struct span host_before(struct span t, const char *said)
{
	const char *bracket;
	struct span word;
	for (word.e = said; word.e > t.p && mime_is_space(word.e[-1]); word.e--)
		;
	word.p = word.e;
	while (word.p > t.p && !mime_is_space(word.p[-1]))
		word.p--;
	bracket = mime_find(word, '[');
	if (!bracket || bracket == word.p)
		return mail_no_span();
	word.e = bracket;
	return word;
}

/* A line that holds the reply after a phrase of the reply-line set
 * (Sendmail's "(reason: 550 5.1.1 ...)"), without the closing ')'. */
static bool line_reply(const struct reader *rd, struct span line,
                       struct span *reply)
{
	struct span t = mime_trim(line), after;
	if (!starts(&rd->l->reply_line, t, &after))
		return false;
	t.p = after.p;
	if (t.e > t.p && t.e[-1] == ')')
		t.e--;
	*reply = mime_trim(t);
	return true;
}

/* Whether the line after a paragraph's first ends the paragraph. */
static bool paragraph_ends(const struct reader *rd, struct span line)
{
	struct span addr, tail;
	return mime_blank(line) || address_line(rd, line, &addr, &tail) ||
	       ends(rd, line);
}

/*
 * The diagnostic of a recipient's paragraph, and the remote host it names:
 * the reply after a reply phrase wherever it is, or on a reply line, else
 * the paragraph's first text (after the address, or on the next line).
 * Each text runs on over the indented lines that continue it.  Takes the
 * lines it reads off *rest.
 */
static struct span paragraph_diagnostic(const struct reader *rd,
                                        struct span tail, struct span *rest,
                                        struct span *remote)
{
	struct span fallback = mail_no_span(), line, next, reply;
	const char *at;

	if (!mime_empty(tail)) {
		fallback = mail_continued(tail, rest);
		if (reply_after(rd, fallback, &reply, &at)) {
			*remote = host_before(fallback, at);
			return reply;
		}
	}
	for (next = *rest; mime_line(&next, &line) && !paragraph_ends(rd, line);
	     next = *rest) {
		struct span text;
		*rest = next;
		text = mail_continued(mime_trim(line), rest);
		if (reply_after(rd, text, &reply, &at)) {
			*remote = host_before(text, at);
			return reply;
		}
		if (line_reply(rd, text, &reply))
			return reply;
		if (mime_empty(fallback))
			fallback = text;
	}
	return fallback;
}

static void address_paragraphs(struct reader *rd, struct span text,
                               struct span rest)
{
	struct span line, addr, tail, diag, remote;
	(void)text;
	if (rd->l->list.n && !seek(&rd->l->list, &rest, NULL))
		return;
	while (mime_line(&rest, &line) && !ends(rd, line)) {
		if (!address_line(rd, line, &addr, &tail))
			continue;
		remote = mail_no_span();
		diag = paragraph_diagnostic(rd, tail, &rest, &remote);
		add(rd, addr, diag, remote);
	}
}

/* ---- indented-blocks: "  x@y" then details indented further (Exim) ---- */

/*
 * The reply in an address's detail lines, and the remote host they name
 * ("host mx.example.com [192.0.2.25]").  The reply runs from the first
 * line that starts with a failure code, or from the code after "host h
 * [ip]: ", to the end; without a code it is the text after a host line
 * that starts the details ("Connection timed out"), else all of them
 * ("Unrouteable address").  The host is taken only before the reply: the
 * reply may be unfolded in place (decoded text, bare CR line ends), which
 * would move a host inside it.
 */
static struct span block_diagnostic(struct span details, struct span *host)
{
	struct span rest = details, line, reply, after;
	const char *colon;

	*host = mail_no_span();
	while (mime_line(&rest, &line)) {
		const char *p = mime_ifind(line, "]: ");
		struct span tail = line;
		/* A host on the reply's first line stays where it is:
		 * unfolding moves only what follows a line break. */
		if (mime_empty(*host) && starts(&host_word, line, &after))
			*host = mail_first_word(after);
		if (p)
			tail.p = p + 3;
		if (mail_reply_in(mime_trim(line), &reply) ||
		    (p && mail_reply_in(tail, &reply))) {
			reply.e = details.e;
			return reply;
		}
	}
	rest = details;
	if (!mime_line(&rest, &line) || !starts(&host_word, line, &after)) {
		*host = mail_no_span();
		return details;
	}
	*host = mail_first_word(after);
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
static bool next_block(struct span *rest, struct span *addr,
                       struct span *details)
{
	struct span line, next, first; /* first: the address line's rest */
	size_t indent;

	do {
		if (!mime_line(rest, &line))
			return false;
	} while (mime_blank(line));
	indent = mail_indent(line);
	if (indent == 0)
		return false;
	/* A pipe or a file has no '@': its block is skipped. */
	*addr = indent < 4 ? mail_address_in(mail_first_word(line))
	                   : mail_no_span();
	first = mime_trim(line);
	first.p = mail_first_word(first).e;
	*details = mail_no_span();
	for (next = *rest; mime_line(&next, &line) && !mime_blank(line) &&
	                   mail_indent(line) >= 4;
	     *rest = next) {
		if (mime_empty(*details))
			details->p = mime_trim(line).p;
		details->e = line.e;
	}
	/* No detail lines: what follows the address on its own line is
	 * them ("  <x@y>: 550 5.1.1 ...", as MXLogic writes). */
	if (mime_empty(*details) && !mime_empty(*addr))
		*details = mime_trim(first);
	return true;
}

static void indented_blocks(struct reader *rd, struct span text,
                            struct span rest)
{
	struct span line, addr, details;
	(void)text;
	while (mime_line(&rest, &line) && !holds(&rd->l->list_within, line))
		;
	while (next_block(&rest, &addr, &details)) {
		struct span host, diag = block_diagnostic(details, &host);
		if (!mime_empty(addr))
			add(rd, addr, diag, host);
	}
}

/* ---- lone-addresses: addresses on lines of their own, and one reply
 * for all (Gmail) ---- */

/* The lines after a reply phrase ("The response was:") up to a blank
 * line. */
static struct span shared_reply(const struct reader *rd, struct span text)
{
	struct span rest = text, line, reply = mail_no_span();
	if (!seek(&rd->l->reply, &rest, NULL))
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

/* The addresses on the lines after a list phrase. */
static void read_lone_addresses(struct reader *rd, struct span rest,
                                struct span reply)
{
	struct span line, addr;
	bool any = false;
	while (mime_line(&rest, &line)) {
		if (mime_blank(line) && !any)
			continue;
		if (!mail_lone_address(line, &addr))
			break;
		add(rd, addr, reply, mail_no_span());
		any = true;
	}
}

static void lone_addresses(struct reader *rd, struct span text,
                           struct span rest)
{
	struct span line, after, reply = shared_reply(rd, text);
	rest = text;
	while (rd->added == 0 && mime_line(&rest, &line)) {
		if (starts(&rd->l->list, line, NULL))
			read_lone_addresses(rd, rest, reply);
		else if (starts(&rd->l->sentence, line, &after) &&
		         !mime_empty(mail_address_in(mail_first_word(after))))
			add(rd, mail_address_in(mail_first_word(after)), reply,
			    mail_no_span());
	}
}

/* ---- address-then-reply, address-mentions, dated-addresses: the parts
 * of an Exchange or Office 365 NDR ---- */

/* "<host #5.1.1 smtp;550 5.1.1 text>" (and the '#...##' form): the reply
 * after "smtp;", else the text after '#'. */
static struct span hash_reply(struct span t)
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

/* A reply phrase ("Remote Server") then "returned '550 5.1.1 ...'", with
 * "at mx.example.com (192.0.2.25)" between them when the host is named;
 * or "#550 5.1.1 ... ##": the reply, and the remote host when named. */
static bool quoted_reply(const struct reader *rd, struct span t,
                         struct span *reply, struct span *remote)
{
	struct span after;
	const char *p;

	if (!mime_empty(t) && *t.p == '#') {
		*reply = hash_reply(t);
		return true;
	}
	if (!starts(&rd->l->reply, t, &after) ||
	    (p = mime_ifind(t, "returned '")) == NULL)
		return false;
	if (starts(&at_word, after, &after))
		*remote = mail_first_word(after);
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
		*reply = hash_reply(*reply);
	return true;
}

struct pending {
	struct span addr, reply, remote;
};

static void flush_pending(struct reader *rd, struct pending *r)
{
	if (!mime_empty(r->addr))
		add(rd, r->addr, r->reply, r->remote);
	memset(r, 0, sizeof *r);
}

/* After the list phrase ("Diagnostic information for administrators:"):
 * each address on a line of its own, then the reply the remote server
 * returned. */
static void address_then_reply(struct reader *rd, struct span text,
                               struct span rest)
{
	struct pending r = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
	struct span line, after, addr;

	rest = text;
	if (!seek(&rd->l->list, &rest, NULL))
		return;
	while (mime_line(&rest, &line) && !ends(rd, line)) {
		struct span t = mime_trim(line);
		if (starts(&rd->l->server, t, &after))
			reporting_mta(rd, mail_first_word(after));
		else if (mail_lone_address(t, &addr)) {
			flush_pending(rd, &r);
			r.addr = addr;
		} else if (!mime_empty(r.addr) && mime_empty(r.reply))
			(void)quoted_reply(rd, t, &r.reply, &r.remote);
	}
	flush_pending(rd, &r);
}

/* After the list phrase ("Delivery has failed to these recipients or
 * groups:"): lines that name an address ("Name (x@y)",
 * "x@y<mailto:x@y>"), between sentences that explain the failure. */
static void address_mentions(struct reader *rd, struct span text,
                             struct span rest)
{
	struct span line;
	rest = text;
	if (!seek(&rd->l->list, &rest, NULL))
		return;
	while (mime_line(&rest, &line)) {
		struct span t = mime_trim(line);
		if (ends(rd, t))
			break;
		if (!mime_empty(t) && t.e[-1] != '.' &&
		    !mime_empty(mail_address_in(t)))
			add(rd, mail_address_in(t), mail_no_span(),
			    mail_no_span());
	}
}

/* After the list phrase (Exchange 2000/2003's "The following
 * recipient(s) could not be reached:"): "      x@y on 1/15/2024 10:00 AM"
 * then, indented further, the explanation and "<host #5.1.1 smtp;550
 * 5.1.1 ...>". */
static void dated_addresses(struct reader *rd, struct span text,
                            struct span rest)
{
	struct pending r = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
	struct span line, t;

	rest = text;
	if (!seek(&rd->l->list, &rest, NULL))
		return;
	while (mime_line(&rest, &line)) {
		if (mime_blank(line))
			continue;
		if (mail_indent(line) == 0)
			break;
		t = mime_trim(line);
		if (*t.p == '<' && mime_find(t, '#')) {
			if (!mime_empty(r.addr) && mime_empty(r.reply))
				r.reply = hash_reply(t);
		} else if (mime_ifind(t, " on ") &&
		           !mime_empty(mail_address_in(mail_first_word(t)))) {
			flush_pending(rd, &r);
			r.addr = mail_address_in(mail_first_word(t));
		}
	}
	flush_pending(rd, &r);
}

/* ---- The layouts, in turn ---- */

/* Each shape reads the text, and the lines after the intro's. */
static void (*const shapes[])(struct reader *, struct span, struct span) = {
	[TEXT_SHAPE_ADDRESS_PARAGRAPHS] = address_paragraphs,
	[TEXT_SHAPE_INDENTED_BLOCKS] = indented_blocks,
	[TEXT_SHAPE_LONE_ADDRESSES] = lone_addresses,
	[TEXT_SHAPE_ADDRESS_THEN_REPLY] = address_then_reply,
	[TEXT_SHAPE_ADDRESS_MENTIONS] = address_mentions,
	[TEXT_SHAPE_DATED_ADDRESSES] = dated_addresses,
};

/* Where a layout's intro is found in a text. */
struct intro {
	const struct phrase *ph; /* found, or NULL */
	struct span rest, after; /* the lines after its line; the rest of
	                            its line */
};

/* The first line of text that starts with each layout's intro, in one pass
 * over the lines rather than one per layout: a line's first two bytes name
 * the layouts whose intro it may start (text_layout_starts and
 * text_layout_seconds), which most lines' first bytes name none of.
 * Once an intro is found, the pass ends where the returned message starts
 * (a line of data/bounces/classify.txt's guess-end list): an intro quoted
 * in the returned message is not the bounce's, and the returned message
 * is most of a bounce's lines.  Before any intro, the pass goes on: a
 * bounce forwarded under "-----Original Message-----" is still read. */
static void find_intros(struct span text, struct intro *in)
{
	uint64_t sought = 0; /* layouts whose intro is not found yet */
	uint64_t all;
	struct span rest = text, line;

	for (size_t k = 0; k < text_layouts_count; k++) {
		in[k].ph = NULL;
		if (text_layouts[k].intro_of == k)
			sought |= (uint64_t)1 << k;
	}
	all = sought;
	while (sought && mime_line(&rest, &line)) {
		const char *p = line.p;
		uint64_t may;
		if (sought != all && phrase_starts(&phrases_guess_end, line.p,
		                                   mime_len(line), NULL))
			break;
		while (p < line.e && (*p == ' ' || *p == '\t'))
			p++;
		may = text_layout_starts[p < line.e ? scan_fold((unsigned char)*p)
		                                    : 0] &
		      text_layout_seconds[p + 1 < line.e
		                              ? scan_fold((unsigned char)p[1])
		                              : 0] & sought;
		for (; may; may &= may - 1) {
			size_t k = (size_t)__builtin_ctzll(may);
			const struct phrase_set *set = &text_layouts[k].intro;
			if (!(in[k].ph = starts(set, line, &in[k].after)))
				continue;
			in[k].rest = rest;
			sought &= ~((uint64_t)1 << k); /* found: sought no more */
		}
	}
}

bool text_bounce_read(struct span text, const struct text_sink *sink)
{
	struct reader rd = {NULL, sink, 0};
	struct intro in[TABLE_LAYOUTS_MAX];
	bool recognised = false;

	find_intros(text, in);
	for (size_t k = 0; k < text_layouts_count && rd.added == 0; k++) {
		const struct text_layout *l = &text_layouts[k];
		const struct intro *found = &in[l->intro_of];
		if (!found->ph || l->shape >= sizeof shapes / sizeof shapes[0])
			continue;
		recognised = true;
		rd.l = l;
		if (found->ph->id < l->greetings)
			reporting_mta(&rd, mail_host_after(found->after));
		shapes[l->shape](&rd, text, found->rest);
	}
	return recognised;
}
