/*
 * Log dialects: how each MTA writes a delivery line, behind one small
 * interface, so that logline.c only finds codes and dispatches.
 *
 * A dialect is read by an engine.  Three engines are code, as their
 * lines have shapes that are read fastest by hand (postfix.c, exim.c,
 * sendmail.c); the fourth, fields.c, reads any "name=value" dialect from
 * its record in data/logs/, compiled by tools/gentable (dialects.c) into
 * table_dialects[] below: a new MTA is then data, not C.  Every dialect,
 * the built-in ones included, has a record in data/logs/ naming its
 * marker and the fields that carry the recipient, host, status, dsn and
 * reply; for a built-in engine the generator checks that the record says
 * what the engine reads (the LOG_*_ macros below, which the engines use),
 * so the data and the code cannot drift apart.  A built-in engine's
 * markers name the programs that write its lines; the engine itself
 * recognises them by their shape, from the bytes the dispatch's
 * prefilter looks for (logline.c: ": to=", Exim's doubled '*' or '=').
 * A data dialect needs no such bytes: it is tried only on lines where
 * the prefilter found a code and no built-in reader took the line.
 */
#ifndef SMTPCODE_DIALECT_H
#define SMTPCODE_DIALECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smtpcode.h"

/* The engines; the values are written into table.c by the generator. */
enum log_engine {
	LOG_ENGINE_POSTFIX = 1, /* postfix.c: deliveries, smtpd rejects */
	LOG_ENGINE_EXIM,        /* exim.c: ** and == lines */
	LOG_ENGINE_SENDMAIL,    /* sendmail.c: to=, stat= */
	LOG_ENGINE_FIELDS       /* fields.c: any dialect its record describes */
};

/* What the built-in engines read, which their records in data/logs/ must
 * say (tools/gentable/dialects.c checks).  "" for a field the engine does
 * not read by name (Exim's recipient follows its marker). */
#define LOG_POSTFIX_RECIPIENT "to="
#define LOG_POSTFIX_HOST "relay="
#define LOG_POSTFIX_STATUS "status="
#define LOG_POSTFIX_DSN "dsn="
#define LOG_POSTFIX_REPLY " said: "
#define LOG_EXIM_RECIPIENT ""
#define LOG_EXIM_HOST "H="
#define LOG_EXIM_STATUS ""
#define LOG_EXIM_DSN ""
#define LOG_EXIM_REPLY " after "
#define LOG_SENDMAIL_RECIPIENT "to="
#define LOG_SENDMAIL_HOST "relay="
#define LOG_SENDMAIL_STATUS "stat="
#define LOG_SENDMAIL_DSN "dsn="
#define LOG_SENDMAIL_REPLY ""

/* A word of a record: bytes and length (no NUL needed). */
struct log_word {
	const char *s;
	uint8_t len; /* 0: the dialect has no such field */
};

/* Markers a record may list: a line is the dialect's when it holds one. */
#define LOG_MARKERS 4
/* Alternatives a fields record may list for its recipient, its reply,
 * its status words and its programs: the first found is taken. */
#define LOG_ALTS 4

/* A dialect record of data/logs/, as the generator writes it. */
struct log_dialect_rec {
	const char *name;  /* "courier-smtpd": the record's id */
	uint8_t engine;    /* enum log_engine */
	char separator;    /* between fields: ',' (Courier), ' ' */
	struct log_word marker[LOG_MARKERS]; /* unused ones have len 0 */
	struct log_word recipient[LOG_ALTS], host, status, dsn;
	struct log_word reply[LOG_ALTS]; /* what precedes the reply, after the
	                          recipient's field: ": ", " said: " */
	/* The fields engine's, from issue 21 on (all absent for the rest): */
	const char *dialect; /* smtpcode_event_dialect(): "courier" for all
	                        of Courier's records (reports-as), else name */
	uint8_t side;        /* enum smtpcode_log_side of every line; 0:
	                        the record says nothing of it */
	struct log_word status_word[LOG_ALTS]; /* a text of the line ... */
	const char *status_of[LOG_ALTS];       /* ... and the status it says
	                                          (logvocab.h's static word) */
	const char *stage;   /* a fixed stage (logvocab.h), or NULL */
	struct log_word stage_after; /* the SMTP command answered follows */
	/* Its programs, the syslog tags whose lines are read even without
	 * a dotted code, are in table_programs below. */
	bool underscores;    /* the line writes the reply's spaces as '_' */
	struct log_word auth_failed_reply; /* the reply the MTA sends a
	                                      client whose login failed, for
	                                      a line that logs the failure
	                                      without it (Postfix's "SASL
	                                      LOGIN authentication failed");
	                                      len 0: none */
	struct log_word auth_temp_words, auth_temp_reply; /* the reply sent
	                                      instead when the failure's
	                                      reason holds these words (the
	                                      auth service did not answer) */
};

/* In table.c, generated from data/logs/ (sorted by name); the fields
 * engine's are tried in this order.  At most LOG_DIALECTS_MAX of them
 * (the generator refuses more): a log_program's mask has a bit each. */
#define LOG_DIALECTS_MAX 32
extern const struct log_dialect_rec table_dialects[];
extern const size_t table_ndialects;
/* A program that some records name (program:), with the records that
 * name it, bit i for table_dialects[i]: the line's syslog tag is looked
 * up once here, not in every record's programs. */
struct log_program {
	struct log_word name;
	uint32_t dialects;
};
/* Each program once, in the order the records first name them; then
 * {{NULL, 0}, 0}, so that the array is not empty without programs. */
extern const struct log_program table_programs[];
extern const size_t table_nprograms;
/* The records' programs at a glance, so that most lines' syslog tags are
 * passed by two tests: bit n of table_program_lengths is set when some
 * program is n bytes long (1 to 63), bit c of table_program_firsts when
 * one starts with byte c. */
extern const uint64_t table_program_lengths;
extern const uint8_t table_program_firsts[32];

/* ---- The interface of a dialect's reader ---- */

/*
 * Read line [s, end) (trailing white space already cut) into *l, which is
 * all absent on entry.  from is the first place the dispatch's prefilter
 * found (logline.c, "Lines"), s <= from < end: no marker or code the
 * reader looks for starts before it.  Returns true when the line is of
 * the dialect (l->format set), else false with *l all absent again.
 */
typedef bool log_read_fn(struct smtpcode_logline *l, const char *s,
                         const char *from, const char *end);

/* Which place a reader waits for, its from: a field marker (": to=", an
 * Exim " ** ", the prefilter's first place of one); the first "reject"
 * (Postfix's reject:, Sendmail's reject=, Exim's rejected) or "authen"
 * (a failed login) from the prefilter's first place of a code or either
 * word on, each looked for once by the dispatch, however many readers
 * wait for it (the readers are not called when the line has none). */
enum log_stage { LOG_AT_MARK, LOG_AT_REJECT, LOG_AT_AUTH };

struct log_dialect {
	const char *name; /* as in its record */
	enum log_stage stage;
	log_read_fn *read;
};

/* The readers of the engines. */
log_read_fn log_postfix_delivery; /* postfix.c: Postfix and Sendmail "QID:
                                     to=<>, name=value, ..." lines */
log_read_fn log_postfix_reject;   /* postfix.c: NOQUEUE: reject: ... */
log_read_fn log_postfix_auth;     /* postfix.c: SASL ... authentication
                                     failed */
log_read_fn log_exim_read;        /* exim.c */
/* sendmail.c: the stat= field that closes a Sendmail delivery line, read
 * by the delivery walk of postfix.c, which the two MTAs' lines share. */
void log_sendmail_stat(struct smtpcode_logline *l, const char *v,
                       const char *end);
log_read_fn log_sendmail_reject; /* sendmail.c: ruleset=, reject= */
log_read_fn log_exim_reject;     /* exim.c: rejected RCPT, MAIL, after
                                    DATA, EHLO, connection */
log_read_fn log_exim_auth;       /* exim.c: authenticator failed */
/* fields.c: line [s, end) read as dialect d; the same contract. */
bool log_fields_read(const struct log_dialect_rec *d,
                     struct smtpcode_logline *l, const char *s,
                     const char *end);
/* fields.c: the data dialects whose records name the program that wrote
 * line [s, end) (its syslog tag), as a mask (bit i: table_dialects[i]);
 * 0 when none does, as for most lines of a log.  A leaf of its own, so
 * that an uncoded line no record's program wrote costs this alone. */
uint32_t log_program_dialects(const char *s, const char *end);
/* fields.c: line [s, end) read by the data dialects (engine fields):
 * first those whose program wrote it (mine, log_program_dialects()),
 * then, when coded (the prefilter found a code in it), every one by its
 * markers.  A line without a code is read only by its program's records.
 * *rec (rec non-NULL) is set to the record that took it. */
bool log_fields_line(struct smtpcode_logline *l, const char *s,
                     const char *end, bool coded, uint32_t mine,
                     const struct log_dialect_rec **rec);

/* The fixed stage word (logvocab.h) of the SMTP step [a, b) names, as
 * the dialects write it ("RCPT TO", "RCPT", "end of DATA",
 * "END-OF-MESSAGE", "MAIL FROM:<x>", "EHLO x", "header"), ASCII case
 * aside; absent for a step that is none of them. */
struct smtpcode_text log_stage_of(const char *a, const char *b);

/*
 * The engine of smtpcode_log_parse() and smtpcode_event_parse(): *l
 * filled, and, rec non-NULL, *rec the fields engine's record that read
 * it (NULL for a built-in dialect, free text or nothing).  Returns
 * whether a code was found.
 */
bool log_parse(const char *s, size_t len, struct smtpcode_logline *l,
               const struct log_dialect_rec **rec);

#endif
