/*
 * The table's strings: plain ones where they are, packed prose decoded on
 * first use into the next free bytes of the room the generator left for
 * all of it (table.h), so that a string keeps one address for the life of
 * the program, as if it had never been packed, and the strings a run uses
 * share pages (a page's first write is dear on a virtual machine; a
 * folder of bounces uses a few hundred strings of thousands).  One lock
 * for all who decode: several threads may ask, and decoding takes
 * microseconds; a string decoded before is read without it.
 */
#include <stdatomic.h>
#include <string.h>

#include "table.h"

static atomic_flag decoding = ATOMIC_FLAG_INIT;
static size_t used; /* bytes of table_prose_text taken */
/* Where the packed string after the last one this thread decoded
 * starts, and its number: an entry's strings lie one after the other,
 * and a renderer mostly asks for them in order, so the next one is found
 * without skipping from the start of its block.  Per thread, as
 * table_text_into() takes no lock. */
static _Thread_local const unsigned char *next_at;
static _Thread_local uint32_t next;

/* n bytes from src to out, sixteen in one move whatever n: up to fifteen
 * more are written, which the generator leaves room for (PROSE_SLACK).
 * Most expansions are two to five bytes, where a call of memcpy() costs
 * several times the copy (and a loop of small copies is compiled into
 * one). */
static char *put(char *out, const unsigned char *src, size_t n)
{
	memcpy(out, src, 16);
	if (n > 16)
		memcpy(out + 16, src + 16, n - 16);
	return out + n;
}

/* Packed string p into out[0..size), each byte standing for the bytes of
 * its expansion, or with the byte after it for a word of the dictionary
 * (a prefix byte has an expansion of length 0), ended by a 0 when size is
 * not 0; the length of the whole string.  The room the generator left for
 * all of them holds each with its slack: decoding there passes SIZE_MAX. */
static size_t unpack_into(const unsigned char *p, char *out, size_t size,
                          const unsigned char **end)
{
	size_t len = 0;
	for (; *p; p++) {
		const uint16_t *x = table_prose_expansion[*p];
		const unsigned char *src = table_prose_expanded + x[0];
		size_t n = x[1];
		if (n == 0) { /* a word: x[0] is its prefix's first */
			uint32_t w = table_prose_word[x[0] + *++p - 1u];
			src = table_prose_word_text + (w >> 8);
			n = w & 0xff;
		}
		if (len + n + 16 <= size)
			put(out + len, src, n);
		else if (len + 1 < size) /* the end of the room */
			memcpy(out + len, src, n < size - 1 - len ? n : size - 1 - len);
		len += n;
	}
	if (size)
		out[len < size ? len : size - 1] = '\0';
	*end = p + 1;
	return len;
}

/* Packed string i: from string from at p, the strings between skipped
 * (each ends with a 0 byte, which no packed byte is). */
static const unsigned char *skip(const unsigned char *p, uint32_t from,
                                 uint32_t i)
{
	for (; from < i; from++)
		p += strlen((const char *)p) + 1;
	return p;
}

/* Packed string i, from the end of the last one decoded when that is in
 * its block and not past it, else from the start of its block. */
static const unsigned char *packed(uint32_t i)
{
	uint32_t from = i - i % TABLE_PROSE_BLOCK;
	if (next_at && next >= from && next <= i)
		return skip(next_at, next, i);
	return skip(table_prose + table_prose_block[i / TABLE_PROSE_BLOCK],
	            from, i);
}

/* Packed string i decoded as unpack_into() does, where the next starts
 * noted. */
static size_t decode(uint32_t i, char *out, size_t size)
{
	size_t len = unpack_into(packed(i), out, size, &next_at);
	next = i + 1;
	return len;
}

size_t table_plain_into(const char *s, char *buf, size_t size)
{
	size_t len = strlen(s);
	if (size) {
		size_t n = len < size ? len : size - 1;
		memcpy(buf, s, n);
		buf[n] = '\0';
	}
	return len;
}

size_t table_text_into(uint32_t off, char *buf, size_t size)
{
	/* Decoded again even when kept: a look at table_prose_at would
	 * cost a page of it for each entry, decoding microseconds. */
	if (off & TABLE_PROSE)
		return decode(off & ~TABLE_PROSE, buf, size);
	return table_plain_into(table_pool + off, buf, size);
}

const char *table_text(uint32_t off)
{
	uint32_t at;
	if (!(off & TABLE_PROSE))
		return table_pool + off;
	off &= ~TABLE_PROSE;
	/* Decoded before (the common case): no lock.  A place is stored
	 * after its text, with release, so whoever sees it sees the text. */
	at = atomic_load_explicit(&table_prose_at[off], memory_order_acquire);
	if (at)
		return table_prose_text + at - 1;
	while (atomic_flag_test_and_set_explicit(&decoding, memory_order_acquire))
		;
	at = atomic_load_explicit(&table_prose_at[off], memory_order_relaxed);
	if (!at) {
		at = (uint32_t)used + 1;
		used += decode(off, table_prose_text + used, SIZE_MAX) + 1;
		atomic_store_explicit(&table_prose_at[off], at,
		                      memory_order_release);
	}
	atomic_flag_clear_explicit(&decoding, memory_order_release);
	return table_prose_text + at - 1;
}
