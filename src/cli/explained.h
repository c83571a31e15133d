/* Which codes a run of --mail has explained in full: see explained.c. */
#ifndef SMTPCODE_EXPLAINED_H
#define SMTPCODE_EXPLAINED_H

#include <stdbool.h>

#include "smtpcode.h"

/* Note the entries explained in full from explained_on() to
 * explained_off(), which forgets them. */
void explained_on(void);
void explained_off(void);

/* Whether entry e was explained in full before, since explained_on():
 * false the first time (and it is noted), and whenever notes are off or
 * there is no memory for them (then the caller explains it in full
 * again). */
bool explained_before(const struct smtpcode_entry *e);

#endif
