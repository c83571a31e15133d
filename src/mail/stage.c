/*
 * The SMTP step a bounce's recipient was refused at, as the message's
 * own text says it (smtpcode_mail_stage()).  A DSN's Diagnostic-Code
 * holds the remote reply only; Postfix writes the step in the
 * human-readable part, in the recipient's paragraph: "<bob@example.org>:
 * host mx.example.org[192.0.2.1] said: 550 Unknown user (in reply to
 * end of DATA command)".  The judgement needs it: a refusal of the
 * recipient after DATA is a filter's, not a missing mailbox.
 *
 * The address is looked for in the first STAGE_WINDOW bytes only (the
 * human-readable part comes first), at most STAGE_TRIES times, and the
 * step within STAGE_PARAGRAPH bytes after it: the cost stays bounded
 * whatever the message.
 */
#include <stdbool.h>
#include <string.h>

#include "dialect.h"
#include "smtpcode.h"

#define STAGE_WINDOW 65536
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

/* The step of the paragraph that starts at p (before end), or absent:
 * "in reply to X command" before the paragraph's blank line. */
static struct smtpcode_text paragraph_stage(const char *p, const char *end)
{
	struct smtpcode_text none = {NULL, 0};
	char step[48];
	size_t n = 0;
	const char *s = NULL;

	if (end - p > STAGE_PARAGRAPH)
		end = p + STAGE_PARAGRAPH;
	for (; p < end && !s; p++) {
		if (*p == '\n' && p + 1 < end &&
		    (p[1] == '\n' || (p[1] == '\r' && p + 2 < end && p[2] == '\n')))
			return none; /* the paragraph ends */
		if ((*p | 0x20) == 'i')
			s = words_at(p, end, "in reply to ");
	}
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
	const char *p, *end;
	int tries = 0;

	if (!msg || !recipient.len || !recipient.s)
		return none;
	end = msg + (len < STAGE_WINDOW ? len : STAGE_WINDOW);
	for (p = msg; tries < STAGE_TRIES && (size_t)(end - p) >= recipient.len;
	     p++) {
		struct smtpcode_text s;
		p = memchr(p, recipient.s[0], (size_t)(end - p) - recipient.len + 1);
		if (!p)
			break;
		if (memcmp(p, recipient.s, recipient.len) != 0)
			continue;
		tries++;
		s = paragraph_stage(p + recipient.len, msg + len);
		if (s.len)
			return s;
	}
	return none;
}
