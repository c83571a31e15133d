/*
 * The table's strings: plain ones where they are, packed prose decoded on
 * first use into the room the generator left for it (table.h), so that a
 * string keeps one address for the life of the program, as if it had
 * never been packed.  A decoded string starts with a non-zero byte (no
 * packed string is empty), which is how a second use knows it.  One lock
 * for all: several threads may ask, and decoding takes microseconds.
 */
#include <stdatomic.h>

#include "table.h"

static atomic_flag decoding = ATOMIC_FLAG_INIT;

/* Packed string p into out.  The rules form a tree whose leaves are
 * plain bytes, each rule made of bytes before it: a stack of 256 holds
 * any expansion (each step takes one and puts at most two). */
static void unpack(const unsigned char *p, char *out)
{
	unsigned char stack[256];
	size_t n;
	for (; *p; p++) {
		stack[0] = *p;
		n = 1;
		while (n) {
			unsigned char c = stack[--n];
			if (table_prose_rules[c][0]) {
				stack[n++] = table_prose_rules[c][1];
				stack[n++] = table_prose_rules[c][0];
			} else {
				*out++ = (char)c;
			}
		}
	}
	*out = '\0';
}

const char *table_text(uint32_t off)
{
	char *text;
	if (!(off & TABLE_PROSE))
		return table_pool + off;
	off &= ~TABLE_PROSE;
	text = table_prose_text + (size_t)TABLE_PROSE_ROOM * off;
	while (atomic_flag_test_and_set_explicit(&decoding, memory_order_acquire))
		;
	if (!text[0])
		unpack(table_prose + off, text);
	atomic_flag_clear_explicit(&decoding, memory_order_release);
	return text;
}
