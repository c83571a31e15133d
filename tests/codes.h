/* A query's codes as a reply writes them, for the tests' messages. */
#ifndef SMTPCODE_TEST_CODES_H
#define SMTPCODE_TEST_CODES_H

#include <stddef.h>

#include <stdbool.h>

#include "smtpcode.h"

/* "550 5.1.1", "5.1.1", "550", or "" for a query without a code, into
 * buf[0..size); returns buf. */
const char *codes_text(const struct smtpcode_query *q, char *buf,
                       size_t size);

/* Whether span t holds exactly want (NULL: nothing), its bytes compared
 * only when it has some (an empty span's pointer may be NULL). */
bool text_is(struct smtpcode_text t, const char *want);

#endif
