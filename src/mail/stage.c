/*
 * The SMTP step a bounce's recipient was refused at, as the message's
 * own text says it (smtpcode_mail_stage()).  A DSN's Diagnostic-Code
 * holds the remote reply only; Postfix writes the step in the
 * human-readable part, in the recipient's paragraph: "<bob@example.org>:
 * host mx.example.org[192.0.2.1] said: 550 Unknown user (in reply to
 * end of DATA command)".  The judgement needs it: a refusal of the
 * recipient after DATA is a filter's, not a missing mailbox.
 *
 * The address is looked for in the STAGE_WINDOW bytes after the
 * message's header only (the human-readable part comes first), at most
 * STAGE_TRIES times, and the step within STAGE_PARAGRAPH bytes after it:
 * the cost stays bounded whatever the message.
 */
#include <stdbool.h>
#include <string.h>

#include "dialect.h"
#include "smtpcode.h"

#define STAGE_WINDOW 16384
#define STAGE_TRIES 8
#define STAGE_PARAGRAPH 2048

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Where the words of w (single spaces between them) end in [p, end),
 * ASCII case aside and a space matching any run of blanks (lines are
 * wrapped); NULL when they are not there. */
static const char *words_at(const char *p, const char *end, const char *w)
{
	for (; *w; w++) {
		if (*w == ' ') {
			if (p == end || !blank(*p))
				return NULL;
			while (p < end && blank(*p))
				p++;
		} else if (p == end || (*p | 0x20) != *w) {
			return NULL;
		} else {
			p++;
		}
	}
	return p;
}

/* Where the paragraph that starts at p ends (at its blank line, or at
 * end). */
static const char *paragraph_end(const char *p, const char *end)
{
	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL && ++p < end)
		if (*p == '\n' || (*p == '\r' && p + 1 < end && p[1] == '\n'))
			return p;
	return end;
}

/* The step of the paragraph that starts at p (before end), or absent:
 * "(in reply to X command)" before the paragraph's blank line. */
static struct smtpcode_text paragraph_stage(const char *p, const char *end)
{
	struct smtpcode_text none = {NULL, 0};
	char step[48];
	size_t n = 0;
	const char *s = NULL;

	if (end - p > STAGE_PARAGRAPH)
		end = p + STAGE_PARAGRAPH;
	end = paragraph_end(p, end);
	while (!s && (p = memchr(p, '(', (size_t)(end - p))) != NULL)
		s = words_at(++p, end, "in reply to ");
	if (!s)
		return none;
	/* The step, its blanks made single spaces, up to ')' */
	for (; s < end && *s != ')' && n < sizeof step - 1; s++)
		if (!blank(*s))
			step[n++] = *s;
		else if (n && step[n - 1] != ' ')
			step[n++] = ' ';
	while (n && step[n - 1] == ' ')
		n--;
	if (n > 8 && memcmp(step + n - 8, " command", 8) == 0)
		n -= 8;
	return log_stage_of(step, step + n);
}

struct smtpcode_text smtpcode_mail_stage(const char *msg, size_t len,
                                         struct smtpcode_text recipient)
{
	struct smtpcode_text none = {NULL, 0};
	const char *at, *end, *p;
	size_t local, rest;
	int tries = 0;

	if (!msg || !recipient.len || !recipient.s ||
	    !(at = memchr(recipient.s, '@', recipient.len)))
		return none;
	/* The address is looked for by its '@', rarer in a message than any
	 * letter: the local part before it, the domain after. */
	local = (size_t)(at - recipient.s);
	rest = recipient.len - local;
	/* After the message's header, whose Received: and Message-ID: lines
	 * hold many '@' and never the step. */
	p = paragraph_end(msg, msg + len);
	end = p + ((size_t)(msg + len - p) < STAGE_WINDOW
	               ? (size_t)(msg + len - p) : STAGE_WINDOW);
	for (p += local; tries < STAGE_TRIES && p < end &&
	                 (size_t)(end - p) >= rest;
	     p++) {
		struct smtpcode_text s;
		if (!(p = memchr(p, '@', (size_t)(end - p) - rest + 1)))
			break;
		if (memcmp(p, at, rest) != 0 ||
		    memcmp(p - local, recipient.s, local) != 0)
			continue;
		tries++;
		s = paragraph_stage(p + rest, msg + len);
		if (s.len)
			return s;
	}
	return none;
}
