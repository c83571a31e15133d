/* --mail: explain bounce messages; see mails.c. */
#ifndef SMTPCODE_MAILS_H
#define SMTPCODE_MAILS_H

#include "logs.h"
#include "smtpcode.h"

struct mail_options {
	enum record_format format;
	const struct smtpcode_entry *provider;
	bool brief; /* -b: a text record a recipient, as --extract's */
	/* -f NAME: one value a recipient, of a record's key (record_key)
	 * or of the verdict (field, an enum field_id); -1 for none */
	int record_key, field;
	struct choice choice;   /* as struct log_options' */
	unsigned long selected; /* records selected so far (out) */
};

/* Explain each message file ("-" or none: standard input).  Returns 0, or
 * -1 when a file could not be read (reported; the others are read). */
int read_mails(struct mail_options *o, int nfiles, char **files);

/* Explain one message, text[0..len), whose records name it name (a
 * lookup's standard input that holds a message).  Returns as
 * read_mails() does. */
int read_mail_text(struct mail_options *o, const char *name,
                   const char *text, size_t len);

#endif
