/* The log modes: --annotate, --extract, --summary; see logs.c. */
#ifndef SMTPCODE_LOGS_H
#define SMTPCODE_LOGS_H

#include "smtpcode.h"

enum log_mode { LOG_ANNOTATE, LOG_EXTRACT, LOG_SUMMARY };
enum record_format { RECORD_TEXT, RECORD_JSON, RECORD_TSV };

struct log_options {
	enum log_mode mode;
	enum record_format format;
	const struct smtpcode_entry *provider; /* --provider, or NULL */
	int workers; /* threads to read with: 0 one per core (at most
	                LOG_MAX_WORKERS), 1 this one alone */
	/* --extract --field NAME: one value per record, of a key of the
	 * record's own (record_key, its place in record_fields.def) or of
	 * its verdict (field, an enum field_id); -1 for none. */
	int record_key, field;
};

/* The most threads the log modes read with. */
#define LOG_MAX_WORKERS 4

/* Read each file ("-": standard input; none: standard input).  Returns 0,
 * or -1 when a file could not be read (reported; the others are read). */
int read_logs(const struct log_options *o, int nfiles, char **files);

#endif
