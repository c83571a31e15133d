/*
 * A site's own rules: a file in the format of data/ (--rules FILE, else
 * the file $SMTPCODE_RULES names), read at start and checked as the build
 * checks data/, applied before the built-in knowledge; see rules.c.
 */
#ifndef SMTPCODE_RULES_H
#define SMTPCODE_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "smtpcode.h"

/* The most rules (phrases and markers) one file may hold: a limit that
 * is reported, never a silent cut. */
#define RULES_MAX 10000

/* Read the rules of path: 0, or -1 after one "FILE:LINE: message" line
 * on stderr per error found. */
int rules_load(const char *path);
void rules_free(void);

/* The reason the rules' phrases give text[0..len), as smtpcode_wording()
 * does for the built-in ones (the record of the lowest priority wins):
 * false when no rule's phrase is in it. */
bool rules_wording(const char *text, size_t len, struct smtpcode_wording *w);

/* The reason a site's entry (a code record) gives result res's reply
 * text[0..len): one for its code, and its provider when it names one,
 * whose match: fragment the text holds; false when none.  Before any
 * other reason: the site says what this wording means with this code. */
bool rules_entry(const struct smtpcode_result *res, const char *text,
                 size_t len, struct smtpcode_wording *w);

/* The provider whose marker, added by a rule, text[0..len) holds, the
 * marker in *marker; NULL when none. */
const struct smtpcode_entry *rules_provider(const char *text, size_t len,
                                            const char **marker);

/* Where the rule that holds s (a phrase or marker rules_wording() or
 * rules_provider() gave) is written, "FILE:LINE"; NULL for any other s
 * (the built-in ones). */
const char *rules_origin(const char *s);
/* The name of the site's entry whose match fragment s is; NULL for any
 * other s. */
const char *rules_name(const char *s);

#endif
