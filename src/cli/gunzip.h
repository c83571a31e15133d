/* Inflating gzip data as it is read: see gunzip.c. */
#ifndef SMTPCODE_GUNZIP_H
#define SMTPCODE_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the first n bytes of a file, at p, start gzip data (its magic
 * bytes 1f 8b, as gzip(1) tells it). */
bool gunzip_magic(const char *p, size_t n);

/* More compressed bytes, up to n into buf: how many, 0 at the end of the
 * file, -1 after reporting a read error. */
typedef long gunzip_more_fn(void *ctx, char *buf, size_t n);

struct gunzip;
/* An inflater of the gzip data whose first n bytes are first[0..n) (they
 * are copied), the rest from more(ctx, ...); NULL when there is no memory
 * for it. */
struct gunzip *gunzip_open(const char *first, size_t n, gunzip_more_fn *more,
                           void *ctx);
/* Up to n (> 0) inflated bytes into buf: how many, 0 at the end of the
 * data, or -1 with *why saying what is wrong with it (corrupt, truncated,
 * no memory), or NULL when more() failed (it reported why). */
long gunzip_read(struct gunzip *g, char *buf, size_t n, const char **why);
void gunzip_close(struct gunzip *g);

#endif
