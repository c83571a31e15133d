/* UTF-8 validation shared by the generator and the CLI. */
#ifndef SMTPCODE_UTF8_H
#define SMTPCODE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of the valid UTF-8 sequence at s[0..n) (n > 0), or 0 if the
 * bytes there are not valid UTF-8 (overlong forms and surrogates
 * included). */
size_t utf8_len(const unsigned char *s, size_t n);

/* The code point of the valid sequence s[0..len) (len from utf8_len()). */
uint32_t utf8_point(const unsigned char *s, size_t len);

/* Whether code point c steers how a terminal shows what follows instead
 * of showing itself: a C1 control (U+0080-U+009F), a bidirectional
 * control (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), or the
 * line and paragraph separators U+2028 and U+2029.  Text from the input
 * shows these escaped. */
bool utf8_steers(uint32_t c);

#endif
