/*
 * The fields of one result, as scripts see them: the JSON keys, in their
 * fixed order, which are also the names --field takes.  One table serves
 * the JSON, TSV, brief and --field outputs.
 */
#ifndef SMTPCODE_FIELDS_H
#define SMTPCODE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "record.h"
#include "smtpcode.h"

enum field_id {
	F_INPUT, F_CODE, F_KIND, F_KNOWN, F_REGISTERED, F_SEVERITY, F_FINAL,
	F_NAME, F_SCOPE, F_ACTS, F_RETRY, F_SUPPRESS, F_BOUNCE, F_REASON, F_BASIC,
	F_MEANING, F_CAUSES, F_FIXES, F_RELATED, F_GROUP, F_PROVIDER,
	F_SOURCES, F_WARNINGS, F_VERDICT_FROM, F_REASON_PHRASE,
	/* what people ask (issue 23), after the keys scripts knew before */
	F_FREQUENCY, F_DURATION, F_AVOID, F_FAQ, NFIELDS
};

/* One result to show: a lookup, an entry of a list, or a category row. */
struct row {
	const struct origin *origin;        /* records only, else NULL */
	const char *input;                  /* what the user typed, or NULL */
	const struct smtpcode_result *r;    /* NULL for a category row */
	const struct smtpcode_entry *entry; /* the answer, or NULL if unknown */
	struct smtpcode_verdict verdict;    /* what scripts act on */
	struct smtpcode_wording wording;    /* the reply's words, when they
	                                       gave the reason */
	const char *verdict_from;           /* what decided the reason and
	                                       the verdict
	                                       (smtpcode_decider_name()):
	                                       code, status, phrase, words,
	                                       rules, stage, message; NULL:
	                                       nothing, or a table entry */
	char code[32];                      /* the code shown */
	bool code_given;                    /* the input held it (else a
	                                       provider's phrase picked its
	                                       entry, or there is none) */
	const char *warnings[6];
	size_t nwarnings;
	char warning_text[6][512];
};

enum value_type {
	V_NULL, V_STRING, V_BOOL, V_LIST, V_FIXES, V_RELATED, V_PROVIDER,
	V_WARNINGS,
	V_FREQUENCY, /* s: the value's name; JSON: it and the entry's note */
	V_FAQ,       /* the entry's questions and answers */
	V_UNKNOWN /* a yes-or-no the code cannot decide: JSON's null, the
	             word "unknown" elsewhere */
};

struct value {
	enum value_type type;
	const char *s;          /* V_STRING */
	bool b;                 /* V_BOOL */
	enum smtpcode_list list; /* V_LIST: items' keys (basic) or texts */
};

/* What verdict_from (smtpcode_decider_name()) names, said for a person:
 * "the reply's words"; for NULL, that nothing decided. */
const char *decided_by_words(const char *verdict_from);
/* Judge the evidence ev (smtpcode_judge()) with the site's rules the
 * command loaded: the one judgement every mode shows. */
void judge(struct smtpcode_evidence *ev, struct smtpcode_judgement *j);
/* Fill a row for judgement j of input (which may be NULL), with the
 * warnings that explain it; j must outlive the row. */
void row_of_judgement(struct row *w, const struct smtpcode_judgement *j,
                      const char *input);
/* row_of_judgement() without the warnings, for what shows none (the text
 * of --mail explains instead): formatting them is a tenth of its cost. */
void row_verdict(struct row *w, const struct smtpcode_judgement *j,
                 const char *input);
/* A row for a table entry's own result, its verdict the entry's (lists,
 * searches, a code given alone); or for a category. */
void row_of_result(struct row *w, const struct smtpcode_result *r,
                   const char *input);
void row_of_category(struct row *w, const struct smtpcode_entry *e,
                     const char *input);

/* What would decide a suppress and bounce that v leaves unknown (the
 * data's 'decides', or the reply's provider), into buf[0..size); "" when
 * v knows them.  Returns buf. */
const char *decided_by(const struct smtpcode_verdict *v, char *buf,
                       size_t size);

/* The basic or enhanced code of q as written at the start of reply. */
struct smtpcode_text seen_code(struct smtpcode_text reply,
                               const struct smtpcode_query *q, int enhanced);

/* A question and its answer as the data gives them, "Q? A": the
 * question's length, its '?' included (the whole when it has no "? ");
 * returns the answer ("" when none). */
const char *faq_split(const char *item, size_t *question_len);

const char *field_name(enum field_id f);
/* The field named s, or -1. */
int field_parse(const char *s);
struct value field_value(const struct row *w, enum field_id f);

#endif
