/*
 * A site's rules (smtpcode_rules_parse(), rules.c), as the library's
 * judgement applies them: before the built-in knowledge.  Library-internal.
 * rules may be NULL: then nothing is found.
 */
#ifndef SMTPCODE_CORE_RULES_H
#define SMTPCODE_CORE_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "smtpcode.h"

/* The reason the rules' phrases (reason-words records) give text[0..len),
 * as smtpcode_wording() does for the built-in ones (the record of the
 * lowest priority wins): false when no rule's phrase is in it. */
bool rules_wording(const struct smtpcode_rules *rules, const char *text, size_t len, struct smtpcode_wording *w);

/* The reason a site's entry (a code record) gives result res's reply
 * text[0..len): one for its code, and its provider when it names one,
 * whose match: fragment the text holds; false when none.  Before any
 * other reason: the site says what this wording means with this code. */
bool rules_entry(const struct smtpcode_rules *rules, const struct smtpcode_result *res, const char *text, size_t len, struct smtpcode_wording *w);

/* The provider whose marker, added by a rule, text[0..len) holds, the
 * marker in *marker; NULL when none. */
const struct smtpcode_entry *rules_provider(const struct smtpcode_rules *rules, const char *text, size_t len, const char **marker);

#endif
