/*
 * The words of a bounce's text (words.h): addresses, replies, hosts and
 * continuation lines, read the same way by every reader.
 */
#include <string.h>

#include "smtpcode.h"
#include "words.h"

/* The longest parts of an address taken: see mail_address_in(). */
#define ADDRESS_LOCAL_MAX 256
#define ADDRESS_DOMAIN_MAX 255

struct span mail_no_span(void)
{
	struct span s = {NULL, NULL};
	return s;
}

bool mail_same_text(struct span a, struct span b)
{
	if (mime_len(a) != mime_len(b))
		return false;
	for (size_t i = 0; i < mime_len(a); i++)
		if (mime_lower(a.p[i]) != mime_lower(b.p[i]))
			return false;
	return true;
}

/* s up to its first blank, ';' or '(' : a code, a host, an action. */
struct span mail_first_word(struct span s)
{
	const char *p;
	s = mime_trim(s);
	for (p = s.p; p < s.e; p++)
		if (mime_is_space(*p) || *p == ';' || *p == '(')
			break;
	s.e = p;
	return s;
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
bool mail_reply_in(struct span s, struct span *reply)
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
struct span mail_address_in(struct span s)
{
	const char *at = mime_find(s, '@');
	struct span a;
	if (!at)
		return mail_no_span();
	for (a.p = at; a.p > s.p && is_address_char(a.p[-1]); a.p--)
		;
	for (a.e = at + 1; a.e < s.e && is_address_char(*a.e); a.e++)
		;
	while (a.e > at + 1 && a.e[-1] == '.')
		a.e--; /* the end of a sentence */
	if (a.p == at || a.e == at + 1)
		return mail_no_span();
	/* RFC 5321 allows 64 octets before the "@" and 255 after it; servers
	 * write longer local parts (VERP, SRS) up to a few hundred: a word
	 * of kilobytes is not an address. */
	if (at - a.p > ADDRESS_LOCAL_MAX || a.e - (at + 1) > ADDRESS_DOMAIN_MAX)
		return mail_no_span();
	return a;
}

/* Whether s is an address and nothing else. */
bool mail_is_address(struct span s)
{
	struct span a = mail_address_in(s);
	return !mime_empty(s) && a.p == s.p && a.e == s.e;
}

/* A line that holds only an address (blanks around it, or "x@y<mailto:..>"
 * as Exchange writes them): the address. */
bool mail_lone_address(struct span line, struct span *addr)
{
	struct span t = mime_trim(line);
	const char *mailto = mime_ifind(t, "<mailto:");
	if (mailto)
		t.e = mailto;
	if (!mail_is_address(t))
		return false;
	*addr = t;
	return true;
}

/* Take the next word that holds an '@' off *words: the addresses a text
 * names, in one pass however many '@' it holds. */
bool mail_next_address(struct span *words, struct span *addr)
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

/* Leading blanks of a line, a tab counting as 8. */
size_t mail_indent(struct span line)
{
	size_t n = 0;
	for (const char *p = line.p; p < line.e && mime_is_wsp(*p); p++)
		n += *p == '\t' ? 8 : 1;
	return n;
}

/* The host named after an MTA's greeting ("... at host mail.example.net."
 * or "... program at mail.example.net."). */
struct span mail_host_after(struct span s)
{
	s = mime_trim(s);
	if (mime_istarts(s, "at "))
		s.p += 3;
	s = mail_first_word(s);
	while (s.e > s.p && (s.e[-1] == '.' || s.e[-1] == ':'))
		s.e--;
	return s;
}

/* [start, end of the indented lines that follow it in *rest): a text that
 * wraps onto continuation lines, as Postfix and Exim wrap replies. */
struct span mail_continued(struct span start, struct span *rest)
{
	struct span next = *rest, line;
	while (!mime_empty(next) && mime_is_wsp(*next.p) &&
	       mime_line(&next, &line) && !mime_blank(line)) {
		start.e = line.e;
		*rest = next;
	}
	return start;
}

