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
	const char *verdict_from;           /* a lookup of text: "code" (a
	                                       code in it), "phrase" (no code:
	                                       a provider's phrase picked the
	                                       entry), "words" (no code: the
	                                       reason's words); else NULL */
	char code[32];                      /* the code shown */
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

/* The reason text[0..len)'s words give: a site's rules (rules.h) first,
 * then the built-in phrases (smtpcode_wording()). */
bool wording_of(const char *text, size_t len, struct smtpcode_wording *w);
/* What text[0..len) (a reply) says of r's reason when r leaves it to the
 * words (smtpcode_reason_from_words()): w->reason 0 when nothing. */
void words_of(const struct smtpcode_result *r, const char *text, size_t len,
              struct smtpcode_wording *w);
/* What text[0..len) that holds no code rests on, the one matcher of a
 * pasted text and of a log line without a code: the entry a recognised
 * provider's phrase picks ("phrase": r resolved, its reason from the words
 * where it leaves it to them), else the reason the words give ("words":
 * the verdict's fields stay unknown, as a guess is not for scripts to act
 * on; fields.c yes_no()); NULL when neither.  r and words are filled in. */
const char *rest_on_words(const char *text, size_t len,
                          const struct smtpcode_entry *provider,
                          struct smtpcode_result *r,
                          struct smtpcode_wording *words);
/* Fill a row for a lookup result, which report says more of (see
 * smtpcode_verdict()) and whose reason words gives when not NULL
 * (words_of()); or for a category. */
void row_of_result(struct row *w, const struct smtpcode_result *r,
                   const char *input, enum smtpcode_report report,
                   const struct smtpcode_wording *words);
void row_of_category(struct row *w, const struct smtpcode_entry *e,
                     const char *input);
/* row_of_result() without the warnings, for what shows none (the text
 * of --mail explains instead): formatting them is a tenth of its cost. */
void row_verdict(struct row *w, const struct smtpcode_result *r,
                 const char *input, enum smtpcode_report report,
                 const struct smtpcode_wording *words);

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
