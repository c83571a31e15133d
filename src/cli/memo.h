/* Output that repeats, rendered once and copied after: see memo.c. */
#ifndef SMTPCODE_MEMO_H
#define SMTPCODE_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smtpcode.h"

/* The most words a key may have. */
#define MEMO_WORDS 24

/* Keep output from memo_on() to memo_off(), which frees it.  Not under
 * out_capture_begin(): memo_out() captures output itself. */
void memo_on(void);
void memo_off(void);

/*
 * Write what render(arg) writes.  key[0..n) must hold everything that
 * output depends on besides the run's fixed settings (width, colour), as
 * words (pointers and numbers: no padding, so keys compare whole); n is
 * at most MEMO_WORDS.  Between memo_on() and memo_off(), output rendered
 * before under the same key is copied instead; otherwise render(arg) is
 * simply called.
 */
void memo_out(const uint64_t *key, size_t n, void (*render)(const void *),
              const void *arg);

/* Whether entry e was explained in full before, between memo_on() and
 * memo_off(): false the first time (and it is noted), and whenever memo
 * is off or there is no memory for the note (then the caller explains it
 * in full again).  A note per entry, never dropped: which records are
 * explained in full does not depend on anything but the input. */
bool memo_explained(const struct smtpcode_entry *e);

#endif
