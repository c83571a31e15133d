/*
 * Three functions of glibc's _FORTIFY_SOURCE that Debian's libjansson.a
 * calls (it is built fortified, against glibc), for the static command
 * linked with musl, which has no fortified functions: the command links
 * the archive by its full path (CMakeLists.txt), and these keep its
 * checks.  As glibc's, each checks the size of the destination it was
 * given and aborts when the call would write past it; then it does what
 * the plain function does.  Compiled only into the musl command: with
 * glibc, glibc's own are used.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen,
                   const char *format, ...)
    __attribute__((format(printf, 5, 6)));
int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen,
                    const char *format, va_list ap)
    __attribute__((format(printf, 5, 0)));
char *__strncpy_chk(char *dest, const char *src, size_t len, size_t destlen);

int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen,
                    const char *format, va_list ap)
{
	(void)flag;
	if (maxlen > slen)
		abort(); /* glibc's __chk_fail(): the buffer is smaller */
	return vsnprintf(s, maxlen, format, ap);
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen,
                   const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = __vsnprintf_chk(s, maxlen, flag, slen, format, ap);
	va_end(ap);
	return n;
}

char *__strncpy_chk(char *dest, const char *src, size_t len, size_t destlen)
{
	if (len > destlen)
		abort();
	return strncpy(dest, src, len);
}
