/* --mail: explain bounce messages; see mails.c. */
#ifndef SMTPCODE_MAILS_H
#define SMTPCODE_MAILS_H

#include "logs.h"
#include "smtpcode.h"

struct mail_options {
	enum record_format format;
	const struct smtpcode_entry *provider;
};

/* Explain each message file ("-" or none: standard input).  Returns 0, or
 * -1 when a file could not be read (reported; the others are read). */
int read_mails(const struct mail_options *o, int nfiles, char **files);

/* Explain one message, text[0..len), whose records name it name (a
 * lookup's standard input that holds a message).  Returns as
 * read_mails() does. */
int read_mail_text(const struct mail_options *o, const char *name,
                   const char *text, size_t len);

#endif
