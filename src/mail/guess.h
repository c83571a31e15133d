/*
 * The last resort for bounces no layout reads: recipients from the signs
 * most bounces share (guess.c).  Internal to the library.
 */
#ifndef SMTPCODE_GUESS_H
#define SMTPCODE_GUESS_H

#include "mime.h"
#include "textbounce.h"

/* The addresses a message names as its own (its From and To): never
 * recipients. */
struct guess_own {
	struct span addr[2];
	size_t n;
};

/* Read text, the text of a message that says it is a bounce, for
 * recipients, into sink. */
void text_bounce_guess(struct span text, const struct guess_own *own,
                       const struct text_sink *sink);

/* The first failure reply on a line of text's own part (before the
 * returned message), one line; else the first line there whose words give
 * a reason (data/reasons/: "-SYSTEM-F-EXDISKQUOTA, disk quota
 * exceeded"); empty when there is neither. */
struct span text_first_reply(struct span text);

#endif
