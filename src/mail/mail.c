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
 * Plain-text bounces are read by layout (textbounce.c, data/bounces/),
 * never from returned originals (message/rfc822, text/rfc822-headers):
 * the bounce of a bounce must not yield the inner recipients.
 *
 * Limits: multiparts are read MAIL_MAX_DEPTH levels deep, the first
 * MAIL_MAX_TEXTS text/plain parts are tried, and body lookups for
 * X-Failed-Recipients stop after MAIL_MAX_LOOKUPS addresses, so that the
 * cost stays linear in the message's length.
 */
#include <string.h>

#include "mime.h"
#include "phrase.h"
#include "smtpcode.h"
#include "guess.h"
#include "textbounce.h"
#include "words.h"

#define MAIL_MAX_DEPTH 8    /* deepest part read: 8 nested multiparts */
#define MAIL_MAX_TEXTS 4    /* text/plain parts tried for text bounces */
#define MAIL_MAX_LOOKUPS 16 /* X-Failed-Recipients addresses looked up */


struct text_part {
	struct mime_part part;
	struct span text; /* decoded, once decoded */
	bool decoded;
	bool html;        /* text/html: read as its text */
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
	struct span to;        /* the address of the message's own To */
	struct span complainer; /* X-HmXmrOriginalRecipient: the recipient
	                           who complained, in Microsoft's feedback
	                           reports (JMRP), which are not ARF */
	bool have_original;    /* original: the first returned message or
	                          its header (message/rfc822,
	                          text/rfc822-headers) */
	struct mime_part original;
};


static struct smtpcode_text text_of(struct span s)
{
	struct smtpcode_text t = {NULL, 0};
	if (!mime_empty(s)) {
		t.s = s.p;
		t.len = mime_len(s);
	}
	return t;
}

/* The reverse: an empty span for an absent text (no arithmetic on NULL). */
static struct span span_of(struct smtpcode_text t)
{
	struct span s = {NULL, NULL};
	if (t.len) {
		s.p = t.s;
		s.e = t.s + t.len;
	}
	return s;
}



/* ---- Codes ---- */

/* A three-digit basic code at the start of s followed by something other
 * than a digit or a decimal point: Yahoo's "554: delivery error". */
static bool leading_basic(struct span s, struct smtpcode_query *q)
{
	unsigned v;
	const char *p;
	if (mime_len(s) < 3 || !mime_is_digit(s.p[0]) || !mime_is_digit(s.p[1]) ||
	    !mime_is_digit(s.p[2]))
		return false;
	if (mime_len(s) > 3 && (mime_is_digit(s.p[3]) || s.p[3] == '.'))
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


/* ---- Text bounces ---- */

/* The text of text part i, decoded on first use (and only once: a second
 * decoding would undo what unfolding did in place). */
static struct span text_part(struct parser *ps, size_t i)
{
	struct text_part *t = &ps->texts[i];
	if (!t->decoded) {
		t->text = mime_decode(&ps->work, t->part.body,
		                      t->part.encoding);
		if (t->html)
			t->text = mime_html_text(&ps->work, t->text);
		t->decoded = true;
	}
	return t->text;
}

static void text_recipient(void *ctx, struct span addr, struct span diag,
                           struct span remote)
{
	add_text_recipient(ctx, addr, diag, remote);
}

static void text_reporting_mta(void *ctx, struct span host)
{
	set_reporting_mta(ctx, host);
}

/* Read each text part by the bounce layouts (textbounce.c) until one
 * yields recipients.  Returns whether any layout recognised its text. */
static bool read_text_bounces(struct parser *ps)
{
	const struct text_sink sink = {ps, text_recipient, text_reporting_mta};
	bool recognised = false;
	for (size_t i = 0; i < ps->ntexts && ps->m->nrecipients == 0; i++)
		recognised |= text_bounce_read(text_part(ps, i), &sink);
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
	while (mail_next_address(&words, &word))
		if (mail_same_text(word, addr)) {
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
		if (mail_reply_in(after, &reply))
			return reply;
		for (int k = 0; k < 3 && mime_line(&rest, &line); k++)
			if (mail_reply_in(line, &reply))
				return reply;
		break;
	}
	return mail_no_span();
}

/* The first line of body that starts with a failure reply. */
static struct span first_reply(struct span body)
{
	struct span rest = body, line, reply;
	while (mime_line(&rest, &line))
		if (mail_reply_in(line, &reply))
			return reply;
	return mail_no_span();
}

/* Add the n-th of total failed addresses, with its reply in body. */
static void add_failed(struct parser *ps, struct span body, struct span addr,
                       size_t n, size_t total)
{
	struct span reply = mail_no_span();
	if (n < MAIL_MAX_LOOKUPS)
		reply = reply_for(body, addr);
	if (mime_empty(reply) && total == 1)
		reply = first_reply(body);
	add_text_recipient(ps, addr, reply, mail_no_span());
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
			addr = mail_address_in(item);
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
	struct span body = ps->ntexts ? text_part(ps, 0) : mail_no_span();
	size_t total = failed_addresses(ps, body, 0);
	if (total > 0)
		(void)failed_addresses(ps, body, total);
}

/* ---- Delivery status notifications (RFC 3464) ---- */

struct dsn_recipient {
	struct smtpcode_mail_recipient r;
	struct span final, original;
	struct span status_words; /* what Status: says after its code
	                             ("5.0.0 (recipient reached disk quota)",
	                             "553 Exceeded maximum size"): the
	                             diagnostic, when there is no other */
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

/* Whether a is an Internet address whose domain has a dot: not an X.400
 * name, a local name ("LOCAL;<f.b>") or a gateway's internal one
 * ("x@ims_daemon"). */
static bool internet_address(struct span a)
{
	const char *at = mime_find(a, '@');
	return at && mail_is_address(a) &&
	       mime_find((struct span){at + 1, a.e}, '.') != NULL;
}

/* Final-Recipient, unless it is not an Internet address and
 * Original-Recipient is. */
static void commit_recipient(struct parser *ps, struct dsn_recipient *cur)
{
	if (cur->any) {
		bool final = !mime_empty(cur->final) &&
		             (internet_address(cur->final) ||
		              !internet_address(cur->original));
		cur->r.recipient = text_of(final ? cur->final : cur->original);
		if (!cur->r.diagnostic.len && !mime_empty(cur->status_words))
			set_diagnostic(ps, &cur->r, cur->status_words);
		add_recipient(ps, &cur->r);
	}
	memset(cur, 0, sizeof *cur);
}

/* What Status: says after its code, its parentheses dropped: "5.0.0
 * (recipient reached disk quota)" says "recipient reached disk quota". */
static struct span status_words(struct span value, struct span code)
{
	struct span w = {code.e, value.e};
	w = mime_trim(w);
	if (mime_len(w) >= 2 && *w.p == '(' && w.e[-1] == ')') {
		w.p++;
		w.e--;
	}
	return mime_trim(w);
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
		r->action = text_of(mail_first_word(f->value));
		cur->any = true;
	} else if (mime_ieq(f->name, "Status") && !r->status.len) {
		v = mail_first_word(f->value);
		r->status = text_of(v);
		/* Left zeroed when it is not a code. */
		(void)smtpcode_parse(v.p, mime_len(v), &r->status_code);
		cur->status_words = status_words(f->value, v);
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
 * separated by blank lines.  A first group that names no address but
 * holds a recipient's fields (some reports put Action: and Remote-MTA:
 * among the per-message fields) is a recipient only when no group names
 * one. */
static void read_dsn(struct parser *ps, struct span body)
{
	struct dsn_recipient cur, first;
	struct mime_header h;
	struct mime_field f;
	size_t before = ps->m->nrecipients;

	memset(&cur, 0, sizeof cur);
	memset(&first, 0, sizeof first);
	mime_header_begin(&h, body);
	while (!mime_empty(h.rest)) { /* a group, up to its blank line */
		bool opening = h.rest.p == body.p;
		while (mime_header_next(&h, &f))
			dsn_field(ps, &cur, &f);
		if (opening && cur.any && ps->m->nrecipients == before &&
		    mime_empty(cur.final) && mime_empty(cur.original)) {
			first = cur;
			memset(&cur, 0, sizeof cur);
			continue;
		}
		commit_recipient(ps, &cur);
	}
	if (ps->m->nrecipients == before)
		commit_recipient(ps, &first);
}

/* The address in the first field name of the returned message's header
 * (X-HmXmrOriginalRecipient, To); empty when there is none. */
static struct span original_address(struct parser *ps, const char *name)
{
	struct mime_header h;
	struct mime_field f;
	if (!ps->have_original)
		return mail_no_span();
	mime_header_begin(&h, mime_decode(&ps->work, ps->original.body,
	                                  ps->original.encoding));
	while (mime_header_next(&h, &f))
		if (mime_ieq(f.name, name))
			return mail_address_in(f.value);
	return mail_no_span();
}

/* An ARF report (RFC 5965): the MTA that made it, and one recipient for
 * the reported message, whose action is the Feedback-Type (abuse, fraud,
 * virus, not-spam...) and whose address is the first Original-Rcpt-To,
 * else the Removal-Recipient, else the reported message's To (none when
 * there is neither). */
static void read_feedback(struct parser *ps)
{
	struct dsn_recipient cur;
	struct mime_header h;
	struct mime_field f;

	memset(&cur, 0, sizeof cur);
	mime_header_begin(&h, mime_decode(&ps->work, ps->feedback_part.body,
	                                  ps->feedback_part.encoding));
	while (mime_header_next(&h, &f))
		if (mime_ieq(f.name, "Reporting-MTA"))
			set_reporting_mta(ps, typed_value(ps, f.value));
		else if (mime_ieq(f.name, "Feedback-Type") && !cur.r.action.len)
			cur.r.action = text_of(mail_first_word(f.value));
		else if (mime_ieq(f.name, "Original-Rcpt-To") && mime_empty(cur.final))
			cur.final = mail_address_in(f.value);
		else if (mime_ieq(f.name, "Removal-Recipient") &&
		         mime_empty(cur.original))
			cur.original = mail_address_in(f.value);
	if (mime_empty(cur.final) && mime_empty(cur.original))
		cur.final = original_address(ps, "To");
	cur.any = true;
	commit_recipient(ps, &cur);
}

/* Microsoft's complaint (JMRP): the complainer, in the message's own
 * header or the returned message's; no action, as it states no type. */
static bool read_complaint(struct parser *ps)
{
	struct dsn_recipient cur;
	struct span who = !mime_empty(ps->complainer)
	                      ? ps->complainer
	                      : original_address(ps, "X-HmXmrOriginalRecipient");
	if (mime_empty(who))
		return false;
	memset(&cur, 0, sizeof cur);
	cur.final = who;
	cur.any = true;
	commit_recipient(ps, &cur);
	return true;
}

/* ---- The MIME tree ---- */

typedef void part_fn(struct parser *ps, const struct mime_part *part,
                     unsigned depth);

/* fn on each part of multipart part, one level deeper; none past
 * MAIL_MAX_DEPTH. */
static void each_part(struct parser *ps, const struct mime_part *part,
                      unsigned depth, part_fn *fn)
{
	struct mime_multipart mp;
	struct mime_part child;
	struct span s;

	if (depth >= MAIL_MAX_DEPTH)
		return;
	mime_multipart_begin(&mp, part->body, part->type.boundary);
	while (mime_multipart_next(&mp, &s)) {
		mime_part(s, &child, NULL, NULL);
		fn(ps, &child, depth + 1);
	}
}

/* Whether t is a delivery status report's machine-readable part. */
static bool is_status_type(const struct mime_type *t)
{
	return mime_type_is(t, "message", "delivery-status") ||
	       mime_type_is(t, "message", "global-delivery-status") ||
	       mime_type_is(t, "message", "xdelivery-status");
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
		each_part(ps, part, depth, visit);
	} else if (is_status_type(t)) {
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
	} else if (mime_type_is(t, "message", "rfc822") ||
	           mime_type_is(t, "text", "rfc822-headers")) {
		if (!ps->have_original) {
			ps->original = *part;
			ps->have_original = true;
		}
	} else if ((mime_empty(t->type) || mime_type_is(t, "text", "plain") ||
	            mime_type_is(t, "text", "html")) &&
	           ps->ntexts < MAIL_MAX_TEXTS) {
		/* HTML too: some bounces have no plain text. */
		ps->texts[ps->ntexts].part = *part;
		ps->texts[ps->ntexts].decoded = false;
		ps->texts[ps->ntexts].html = mime_type_is(t, "text", "html");
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
	} else if (mime_ieq(f->name, "X-HmXmrOriginalRecipient") &&
	           mime_empty(ps->complainer)) {
		ps->complainer = mail_address_in(f->value);
	} else if (mime_ieq(f->name, "To") && mime_empty(ps->to)) {
		ps->to = mail_address_in(f->value);
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

/* An auto-responder's subject: it starts with one of the phrases of
 * data/bounces/autoreply.txt. */
static bool autoreply_subject(struct smtpcode_text subject)
{
	return phrase_starts(&phrases_autoreply_subject, subject.s, subject.len,
	                     NULL) != NULL;
}

/* A message from the mail system about delivery, in a format none of the
 * layouts reads: a bounce still, without recipients.  Its From and Subject
 * hold phrases of data/bounces/classify.txt. */
static bool looks_like_bounce(const struct smtpcode_mail *m)
{
	return phrase_find(&phrases_bounce_from, m->from.s, m->from.len,
	                   NULL) != NULL &&
	       phrase_find(&phrases_bounce_subject, m->subject.s,
	                   m->subject.len, NULL) != NULL;
}

/* A bounce no layout read: its recipients from the signs most bounces
 * share (guess.c), in each text part until one yields some. */
static void guess_recipients(struct parser *ps)
{
	const struct text_sink sink = {ps, text_recipient, text_reporting_mta};
	const struct smtpcode_mail *m = ps->m;
	struct guess_own own;
	struct span from = span_of(m->from);

	own.n = 0;
	if (!mime_empty(from = mail_address_in(from)))
		own.addr[own.n++] = from;
	if (!mime_empty(ps->to))
		own.addr[own.n++] = ps->to;
	for (size_t i = 0; i < ps->ntexts && m->nrecipients == 0; i++)
		text_bounce_guess(text_part(ps, i), &own, &sink);
}

/* A lone recipient whose report gives no reply: the first failure reply
 * of the text parts (Exim's "SMTP error from remote server ... 550 user
 * unknown" not indented under its address), else their first line whose
 * words give a reason; one line, so that no other text it may overlap is
 * joined in place. */
static void first_reply_for_lone_recipient(struct parser *ps)
{
	struct smtpcode_mail *m = ps->m;
	struct smtpcode_mail_recipient *r = m->recipients;
	if (m->nrecipients != 1 || m->max < 1 || r->diagnostic.len)
		return;
	for (size_t i = 0; i < ps->ntexts; i++) {
		struct span reply = text_first_reply(text_part(ps, i));
		if (!mime_empty(reply)) {
			set_diagnostic(ps, r, reply);
			return;
		}
	}
}

/* Whether the message is from the mail system, by its From: a phrase, or
 * no address at all ("<>", the null sender of bounces). */
static bool from_mail_system(const struct smtpcode_mail *m)
{
	struct span from = span_of(m->from);
	return phrase_find(&phrases_bounce_from, m->from.s, m->from.len,
	                   NULL) != NULL ||
	       (m->from.len && mime_ifind(from, "<>") != NULL);
}

/* Whether the message says it is about delivery, by its From or its
 * Subject (either: enough to look for recipients by their signs). */
static bool says_bounce(const struct smtpcode_mail *m)
{
	return from_mail_system(m) ||
	       phrase_find(&phrases_bounce_subject, m->subject.s,
	                   m->subject.len, NULL) != NULL;
}

enum smtpcode_report smtpcode_mail_report(const struct smtpcode_mail *m,
                                   const struct smtpcode_mail_recipient *r)
{
	if (r && r->action.len && m->kind != SMTPCODE_MAIL_FEEDBACK)
		return smtpcode_report_of(r->action.s, r->action.len);
	if (m->kind != SMTPCODE_MAIL_BOUNCE)
		return SMTPCODE_REPORT_UNSAID;
	return phrase_find(&phrases_delay_subject, m->subject.s, m->subject.len,
	                   NULL) ? SMTPCODE_REPORT_DELAYED
	                         : SMTPCODE_REPORT_FINAL;
}

/* The first report part of part (a message/rfc822 one's message, or a
 * part of it), depth-first, as the report. */
static void find_status(struct parser *ps, const struct mime_part *part,
                        unsigned depth)
{
	if (ps->have_status)
		return;
	if (is_status_type(&part->type)) {
		ps->status = *part;
		ps->have_status = true;
	} else if (mime_type_is(&part->type, "multipart", NULL)) {
		each_part(ps, part, depth, find_status);
	}
}

/* A message from the mail system, or that calls itself a report, with no
 * report of its own, whose attached message is one: a report a relay
 * wrapped, as some postmaster accounts send them on.  A bounce's own
 * returned message is never a bounce (bounces are sent with a null return
 * path, and nothing is returned to that: RFC 5321, section 4.5.5), so the
 * report attached is the one to read.  A person's forward of a bounce is
 * not a bounce, and is not read so. */
static void read_forwarded_report(struct parser *ps)
{
	struct mime_part inner;
	if (!mime_type_is(&ps->original.type, "message", "rfc822"))
		return;
	mime_part(ps->original.body, &inner, NULL, NULL);
	find_status(ps, &inner, 1);
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
	if (!ps->have_status && !ps->dsn_report && read_complaint(ps))
		return SMTPCODE_MAIL_FEEDBACK;
	if (!ps->have_status && ps->have_original &&
	    (ps->dsn_report || from_mail_system(m)))
		read_forwarded_report(ps);
	if (ps->have_status || ps->dsn_report) {
		if (ps->have_status)
			read_dsn(ps, mime_decode(&ps->work, ps->status.body,
			                         ps->status.encoding));
		if (m->nrecipients == 0)
			(void)read_text_bounces(ps);
		if (m->nrecipients == 0)
			guess_recipients(ps);
		first_reply_for_lone_recipient(ps);
		return SMTPCODE_MAIL_DSN;
	}
	recognised = read_text_bounces(ps);
	if (m->nrecipients == 0 && ps->failed_header)
		read_failed_header(ps);
	if (m->nrecipients == 0 && (recognised || says_bounce(m)) &&
	    !ps->autoreply_header && !autoreply_subject(m->subject))
		guess_recipients(ps);
	first_reply_for_lone_recipient(ps);
	/* An MTA's own wording, or its header, outweighs "Auto-Submitted:
	 * auto-replied", which bounces carry too; the markers only
	 * auto-responders write outweigh a bounce-like From and Subject. */
	if (m->nrecipients > 0 || recognised || ps->failed_header)
		return SMTPCODE_MAIL_BOUNCE;
	if (ps->autoreply_header || autoreply_subject(m->subject))
		return SMTPCODE_MAIL_AUTOREPLY;
	if (looks_like_bounce(m))
		return SMTPCODE_MAIL_BOUNCE;
	/* "Auto-Submitted: auto-replied" from a mailer daemon: a bounce. */
	if (ps->auto_replied)
		return says_bounce(m) ? SMTPCODE_MAIL_BOUNCE
		                      : SMTPCODE_MAIL_AUTOREPLY;
	return SMTPCODE_MAIL_OTHER;
}

/* What comes before the header is not part of the message: an mbox
 * "From " line, and the blank lines some programs save a message with
 * (which would otherwise end an empty header). */
static struct span skip_mbox_line(struct span s)
{
	struct span rest = s, line;
	if (mime_len(s) >= 5 && memcmp(s.p, "From ", 5) == 0 &&
	    mime_line(&rest, &line))
		s = rest;
	for (rest = s; mime_line(&rest, &line) && mime_blank(line);)
		s = rest;
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

/* Whether p starts with the lower-case ASCII lit, ignoring case. */
static bool starts_folded(const char *p, size_t n, const char *lit)
{
	size_t m = strlen(lit);
	if (n <= m)
		return false;
	for (size_t i = 0; i < m; i++)
		if ((p[i] >= 'A' && p[i] <= 'Z' ? p[i] | 0x20 : p[i]) != lit[i])
			return false;
	return true;
}

/* Whether [p, end) starts with a header field's name and its colon. */
static bool field_line(const char *p, const char *end)
{
	const char *name = p;
	while (p < end && *p > ' ' && *p < 0x7f && *p != ':')
		p++;
	return p > name && p < end && *p == ':';
}

bool smtpcode_is_message(const char *s, size_t len)
{
	static const char *const fields[] = {
	    "from:", "received:", "return-path:", "message-id:", "date:",
	    "subject:", "mime-version:", "delivered-to:"};
	const char *p = s, *end;

	if (!s || len < 5)
		return false;
	end = s + len;
	if (memcmp(s, "From ", 5) == 0)
		return true;
	/* The header block, up to its blank line: every line a field or
	 * the continuation of one, and at least one field that only a
	 * message's header holds (a pasted DSN part has none). */
	for (bool seen = false; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);
		if (n == 0 || (n == 1 && *p == '\r'))
			return seen;
		if (*p != ' ' && *p != '\t') {
			if (!field_line(p, p + n))
				return false;
			for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
				seen |= starts_folded(p, n, fields[i]);
		} else if (p == s) {
			return false;
		}
		if (!eol)
			return seen;
		p = eol + 1;
	}
	return false;
}
