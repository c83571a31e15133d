/* The log modes: --annotate, --extract, --summary; see logs.c. */
#ifndef SMTPCODE_LOGS_H
#define SMTPCODE_LOGS_H

#include "smtpcode.h"

#include "select.h"

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
	/* The records written, counted or listed are those the filters
	 * select (select.h; NULL: all).  quiet (-q): none is written, and
	 * the first selected ends the command with status 0; count (-c):
	 * only their number is written; supp (--suppressions): they go
	 * there, to be listed by address, rather than written. */
	struct choice choice;
};

/* The most threads the log modes read with. */
#define LOG_MAX_WORKERS 4

/* Read each file ("-": standard input; none: standard input).  Returns 0,
 * or -1 when a file could not be read (reported; the others are read);
 * *selected gets the number of records selected whose verdict rests on
 * something (a code in the table, or words that gave a reason). */
int read_logs(const struct log_options *o, int nfiles, char **files,
              unsigned long *selected);

/* The end of the command once -q's first record is selected: status 0,
 * at once, whatever is still being read (as grep -q). */
_Noreturn void records_found_quietly(void);

#endif
