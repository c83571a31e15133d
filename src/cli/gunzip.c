/*
 * Inflating gzip data as it is read, for --mail and the log modes: a
 * message, an mbox or a log compressed with gzip is read through zlib, a
 * buffer of compressed bytes at a time, so that memory stays the same
 * whatever the data inflates to (a gzip bomb is cut by the reader's limit
 * on a message or a line, not by memory).
 * Members one after another (gzip a b > c, or cat a.gz b.gz) are one
 * stream of data, as gunzip(1) reads them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "gunzip.h"

/* Compressed bytes read at a time. */
#define GUNZIP_IN ((size_t)64 << 10)

struct gunzip {
	z_stream z;
	gunzip_more_fn *more;
	void *ctx;
	bool in_member; /* inside a member: the file must not end here */
	bool ended;     /* the file has ended */
	size_t room;    /* of in */
	char why[96];   /* what is wrong with the data */
	unsigned char in[];
};

bool gunzip_magic(const char *p, size_t n)
{
	return n >= 2 && (unsigned char)p[0] == 0x1f &&
	       (unsigned char)p[1] == 0x8b;
}

struct gunzip *gunzip_open(const char *first, size_t n, gunzip_more_fn *more,
                           void *ctx)
{
	/* The caller read the first bytes into its own buffer to look at
	 * them, as many as it asked for: all are kept here, where the rest
	 * will come. */
	size_t room = n > GUNZIP_IN ? n : GUNZIP_IN;
	struct gunzip *g = malloc(sizeof *g + room);

	if (!g)
		return NULL;
	memset(&g->z, 0, sizeof g->z);
	/* 15 + 32: the largest window, and a gzip (or zlib) header told by
	 * its first bytes. */
	if (inflateInit2(&g->z, 15 + 32) != Z_OK) {
		free(g);
		return NULL;
	}
	g->more = more;
	g->ctx = ctx;
	g->in_member = true;
	g->ended = false;
	g->room = room;
	memcpy(g->in, first, n);
	g->z.next_in = g->in;
	g->z.avail_in = (uInt)n;
	return g;
}

/* More compressed bytes, when those read are used up: 1, 0 at the end of
 * the file, -1 when more() failed. */
static int refill(struct gunzip *g)
{
	long got;
	if (g->z.avail_in)
		return 1;
	if (g->ended)
		return 0;
	/* (room fits in a uInt: GUNZIP_IN, or what the caller first read,
	 * at most its buffer for a message) */
	if ((got = g->more(g->ctx, (char *)g->in, g->room)) < 0)
		return -1;
	g->ended = got == 0;
	g->z.next_in = g->in;
	g->z.avail_in = (uInt)got;
	return got > 0;
}

/* The reason for a failure of zlib's: ret, and its message. */
static const char *failure(struct gunzip *g, int ret)
{
	if (ret == Z_MEM_ERROR)
		return "out of memory";
	if (!g->z.msg)
		return "corrupt gzip data";
	snprintf(g->why, sizeof g->why, "corrupt gzip data (%s)", g->z.msg);
	return g->why;
}

long gunzip_read(struct gunzip *g, char *buf, size_t n, const char **why)
{
	*why = NULL;
	g->z.next_out = (unsigned char *)buf;
	g->z.avail_out = n > UINT_MAX ? UINT_MAX : (uInt)n;
	/* Until some bytes come out: a header, or a member's end, gives
	 * none. */
	while (g->z.next_out == (unsigned char *)buf) {
		int more = refill(g), ret;
		if (more < 0)
			return -1;
		if (more == 0 && !g->in_member)
			break; /* the end, between members */
		if (more == 0) {
			*why = "truncated gzip data";
			return -1;
		}
		if (!g->in_member) { /* the next member */
			if ((ret = inflateReset(&g->z)) != Z_OK) {
				*why = failure(g, ret);
				return -1;
			}
			g->in_member = true;
		}
		ret = inflate(&g->z, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			g->in_member = false;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			*why = failure(g, ret); /* Z_DATA_ERROR, Z_NEED_DICT... */
			return -1;
		}
	}
	return (long)((char *)g->z.next_out - buf);
}

void gunzip_close(struct gunzip *g)
{
	if (g) {
		inflateEnd(&g->z);
		free(g);
	}
}
