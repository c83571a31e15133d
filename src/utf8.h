/* UTF-8 validation shared by the generator and the CLI. */
#ifndef SMTPCODE_UTF8_H
#define SMTPCODE_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s[0..n) (n > 0), or 0 if the
 * bytes there are not valid UTF-8 (overlong forms and surrogates
 * included). */
size_t utf8_len(const unsigned char *s, size_t n);

#endif
