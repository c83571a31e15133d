/*
 * snprintf() for the lines the command writes per record: the %s, %u and
 * %zu they use, without the C library's printf machinery, which musl runs
 * twice a call (once to check the arguments) and which a folder of
 * bounces calls a few thousand times.  Any other conversion is left to
 * vsnprintf(), so that the result is always what snprintf() would give.
 */
#ifndef SMTPCODE_FORMAT_H
#define SMTPCODE_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* As vsnprintf(buf, size, fmt, ap): the length the whole result has,
 * of which size - 1 bytes at most are written, and a 0 after them. */
__attribute__((format(printf, 3, 0)))
int format_v(char *buf, size_t size, const char *fmt, va_list ap);
__attribute__((format(printf, 3, 4)))
int format(char *buf, size_t size, const char *fmt, ...);

#endif
