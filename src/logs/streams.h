/*
 * Event streams: the delivery events of mail services (JSON, json_events.c)
 * and the CSV logs whose header line names their columns (csv_logs.c),
 * read into the same record as a log line (struct smtpcode_logline), by
 * the fields each source gives apart.  What the two share is here and in
 * streams.c: turning those fields into a record, so that the two readers
 * fill a record the same way.
 */
#ifndef SMTPCODE_STREAMS_H
#define SMTPCODE_STREAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "scan.h"
#include "smtpcode.h"

/* Whether p[0..n) is lit (lower case, n bytes long), the case of ASCII
 * letters aside: the services' words come in either case. */
static inline bool stream_is(const char *p, size_t n, const char *lit)
{
	size_t i;
	for (i = 0; i < n && lit[i]; i++)
		if (scan_fold((unsigned char)p[i]) != (unsigned char)lit[i])
			return false;
	return i == n && !lit[i];
}

/* The fields of one event, as its source gives them; absent: len 0. */
struct stream_fields {
	struct smtpcode_text recipient; /* an address, <> allowed */
	struct smtpcode_text host;      /* the remote host, as written */
	struct smtpcode_text dsn;       /* an enhanced code: "5.1.1", or
	                                   "5.1.1 (its words)" */
	struct smtpcode_text reply;     /* the diagnostic: "smtp; 550 5.1.1
	                                   ...", "550 ...", or words alone */
	const char *status;             /* a LOG_STATUS_ word, or NULL */
	unsigned basic;                 /* a basic code given apart from the
	                                   reply (Mailgun's code), 0 none */
};

/* Room for a reply the reader composes (a basic code given apart put
 * before its words): longer words are cut there. */
#define STREAM_SCRATCH 1024

/* *l filled from f; scratch (STREAM_SCRATCH bytes) may hold its reply,
 * so l lives as long as f's texts and scratch do. */
void stream_fill(struct smtpcode_logline *l, const struct stream_fields *f,
                 char *scratch);

/*
 * The readers' tables are text, a row a line, its fields parted by tabs
 * ("" for none), made by macros that name the fields: structs of
 * pointers would cost the static command a relocation of 24 bytes per
 * pointer, some 400 of them.  stream_row() cuts the row at *p into n
 * fields f[0..n) and moves *p to the next; false at the table's end.
 */
bool stream_row(const char **p, struct smtpcode_text *f, int n);

/* A status a table names, as the static word of logvocab.h a record
 * holds (sent, deferred, bounced, complained); NULL for another. */
const char *stream_status(struct smtpcode_text w);

/* The readers, each as smtpcode_stream_parse() says (-1: not its line). */
int log_json_read(const char *s, size_t len, smtpcode_stream_fn *fn,
                  void *ctx);
int log_csv_read(const char *s, size_t len,
                 const struct smtpcode_csv_layout *layout,
                 smtpcode_stream_fn *fn, void *ctx);

#endif
