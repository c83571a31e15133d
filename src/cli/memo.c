/*
 * Output that repeats, rendered once and copied after.  A folder of
 * bounces explains the same few codes over and over, each in full (the
 * verdict, the meaning, causes, fixes...): rendering a code's explanation
 * wraps and escapes a few kilobytes of the table's text, copying it is
 * one memcpy().  Output is captured (output.h) the first time, kept under
 * its key, and written from memory after that.
 *
 * The cache is small and of fixed size, so memory stays flat however
 * many messages are read: what is kept goes into one arena of
 * MEMO_BUDGET bytes, taken when first needed and given back at the end
 * (a folder of bounces uses a few hundred kilobytes of it; an evicted
 * key's bytes are not reused, and once the arena is full nothing more is
 * kept).  Memory in one piece, not a block per key, also spares the C
 * library's allocator a map and an unmap per size of block.
 *
 * A key may sit in one of a few slots (hash.h).  A collision costs a
 * render, never a wrong answer: keys are compared whole.
 *
 * The longest part of a code's explanation (its meaning, causes, fixes,
 * related codes and sources) is not copied at all: a reader of a folder
 * of bounces wants it once, not once per recipient, so memo_explained()
 * tells which entries were explained in full already.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "memo.h"
#include "smtpcode.h"
#include "output.h"

#define MEMO_SLOTS 512 /* a power of two */
#define MEMO_MAX 16384 /* longer output is rendered each time */
#define MEMO_BUDGET ((size_t)1 << 20) /* the arena's bytes */
#define ARENA_WORDS (MEMO_BUDGET / sizeof(uint64_t))

/* A key and its output, in one block of the arena: the key's words, then
 * the text. */
struct slot {
	uint64_t hash;
	size_t words; /* 0: the slot is free */
	size_t len;
	const uint64_t *block;
};

static struct slot slots[MEMO_SLOTS];
static uint64_t *arena;            /* ARENA_WORDS words, or NULL */
static size_t used;                /* words of the arena taken */
static struct out_capture scratch; /* where output is rendered first */
static unsigned char *explained;   /* a bit for each entry of the table */
static bool on;

void memo_on(void)
{
	on = true;
}

void memo_off(void)
{
	if (arena) /* (no slot is taken without it) */
		for (size_t i = 0; i < MEMO_SLOTS; i++)
			slots[i] = (struct slot){0, 0, 0, NULL};
	free(arena);
	arena = NULL;
	free(explained);
	explained = NULL;
	used = 0;
	out_capture_free(&scratch);
	on = false;
}

static uint64_t key_hash(const uint64_t *key, size_t n)
{
	uint64_t h = n;
	for (size_t i = 0; i < n; i++)
		h = mix(h ^ key[i]);
	return h;
}

/* Whether s holds key[0..n) (h its hash).  Word by word: musl's
 * memcmp() goes byte by byte. */
static bool holds(const struct slot *s, uint64_t h, const uint64_t *key,
                  size_t n)
{
	if (s->words != n || s->hash != h)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s->block[i] != key[i])
			return false;
	return true;
}

/* Where a key of hash h that is not kept goes. */
static struct slot *new_slot(uint64_t h)
{
	unsigned char state[WAYS];
	for (size_t i = 0; i < WAYS; i++)
		state[i] = slots[way(h, i, MEMO_SLOTS)].words ? SLOT_NEW : SLOT_FREE;
	return &slots[way(h, victim(h, state), MEMO_SLOTS)];
}

/* Output text[0..len) kept in s under key[0..n); when it is too long, or
 * there is no room or memory for it, it is not, and is rendered again
 * next time. */
static void keep(struct slot *s, uint64_t h, const uint64_t *key, size_t n,
                 const char *text, size_t len)
{
	size_t words = n + (len + sizeof *key - 1) / sizeof *key;
	uint64_t *block;
	if (len > MEMO_MAX || words > ARENA_WORDS - used ||
	    (!arena && !(arena = malloc(MEMO_BUDGET))))
		return;
	block = arena + used;
	used += words;
	memcpy(block, key, n * sizeof *key);
	if (len) /* text may be NULL then */
		memcpy(block + n, text, len);
	s->hash = h;
	s->words = n;
	s->len = len;
	s->block = block;
}

/* The slot that holds key[0..n) (h its hash), or NULL. */
static const struct slot *find(uint64_t h, const uint64_t *key, size_t n)
{
	for (size_t i = 0; i < WAYS; i++) {
		const struct slot *s = &slots[way(h, i, MEMO_SLOTS)];
		if (holds(s, h, key, n))
			return s;
	}
	return NULL;
}

void memo_out(const uint64_t *key, size_t n, void (*render)(const void *),
              const void *arg)
{
	const struct slot *s;
	uint64_t h;

	if (!on || n == 0 || n > MEMO_WORDS) {
		render(arg);
		return;
	}
	h = key_hash(key, n);
	if ((s = find(h, key, n)) != NULL) {
		out_write((const char *)(s->block + n), s->len);
		return;
	}
	out_capture_begin(&scratch);
	render(arg);
	out_capture_end();
	/* Written first: memory that ran out is an output error. */
	out_capture_write(&scratch);
	if (!scratch.failed)
		keep(new_slot(h), h, key, n, scratch.text, scratch.len);
}

bool memo_explained(const struct smtpcode_entry *e)
{
	size_t n = smtpcode_table_size(), i = smtpcode_entry_index(e);
	if (!on || i >= n ||
	    (!explained && !(explained = calloc(n / 8 + 1, 1))))
		return false;
	if (explained[i / 8] >> (i % 8) & 1)
		return true;
	explained[i / 8] |= (unsigned char)(1u << (i % 8));
	return false;
}
