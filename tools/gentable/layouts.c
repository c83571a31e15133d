/*
 * Bounce layouts and phrase lists (data/bounces/, data/README.md): how
 * the plain-text bounces of an MTA are laid out, and the phrases mail
 * classification reads.  Checked here, then written into table.c as
 * compiled phrase sets (src/match/phrase.h) and the layout table that the
 * generic text-bounce reader interprets (src/mail/textbounce.h).
 *
 * A layout names its "shape", the few lines of C that read one form of
 * recipient paragraph, and gives every phrase that shape looks for.  A new
 * MTA whose bounces take an existing shape is a data file, no C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentable.h"

#define PHRASE_MIN 3   /* shorter ones would match by accident */
#define PHRASE_MAX 100 /* a phrase is a line's start, not a paragraph */
#define SET_MAX 65535  /* the ids are 16 bits */

/* The phrase keys of a layout, in the order of struct text_layout's sets.
 * "greeting" joins "intro" (first), so it has no set of its own. */
static const char *const set_keys[] = {"intro", "list", "list-within",
                                       "reply", "reply-line", "sentence",
                                       "end", "server"};
#define NSETS (sizeof set_keys / sizeof set_keys[0])

/* What each shape reads: the keys it takes besides layout, priority,
 * name, shape, intro, greeting and note; and which of them it needs. */
struct shape {
	const char *name, *cname;
	const char *const takes[6];
	const char *needs;
};
static const struct shape shapes[] = {
	{"address-paragraphs", "TEXT_SHAPE_ADDRESS_PARAGRAPHS",
	 {"address", "list", "reply", "reply-line", "end", NULL}, NULL},
	{"indented-blocks", "TEXT_SHAPE_INDENTED_BLOCKS",
	 {"list-within", NULL}, "list-within"},
	{"lone-addresses", "TEXT_SHAPE_LONE_ADDRESSES",
	 {"list", "sentence", "reply", NULL}, "list"},
	{"address-then-reply", "TEXT_SHAPE_ADDRESS_THEN_REPLY",
	 {"list", "reply", "server", "end", NULL}, "list"},
	{"address-mentions", "TEXT_SHAPE_ADDRESS_MENTIONS",
	 {"list", "end", NULL}, "list"},
	{"dated-addresses", "TEXT_SHAPE_DATED_ADDRESSES", {"list", NULL},
	 "list"},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* The phrase lists the library reads by name (src/match/phrase.h). */
static const char *const lists[] = {"autoreply-subject", "bounce-from",
                                    "bounce-subject", "delay-subject",
                                    "guess-end", "guess-header",
                                    "address-label", "system-mailbox"};
#define NLISTS (sizeof lists / sizeof lists[0])

static int is_key(const char *k, const char *name)
{
	return strcmp(k, name) == 0;
}

static const struct shape *shape_of(const struct record *r)
{
	const struct field *f = get(r, "shape");
	for (size_t i = 0; f && i < NSHAPES; i++)
		if (strcmp(f->value, shapes[i].name) == 0)
			return &shapes[i];
	return NULL;
}

static int takes(const struct shape *s, const char *key)
{
	for (size_t i = 0; s && s->takes[i]; i++)
		if (is_key(key, s->takes[i]))
			return 1;
	return 0;
}

int layout_record(const char *first_key)
{
	return is_key(first_key, "layout") || is_key(first_key, "phrases");
}

/* Keys of layouts and phrase lists only: no code record takes them. */
int layout_only(const char *key)
{
	static const char *const keys[] = {"layout", "shape", "address",
	    "greeting", "intro", "list", "list-within", "reply", "reply-line",
	    "sentence", "end", "server", "phrases", "phrase", NULL};
	for (const char *const *k = keys; *k; k++)
		if (is_key(key, *k))
			return 1;
	return 0;
}

int layout_allows(enum record_kind kind, const char *key)
{
	static const char *const common[] = {"layout", "priority", "name",
	    "shape", "address", "greeting", "intro", "list", "list-within",
	    "reply", "reply-line", "sentence", "end", "server", "note", NULL};
	static const char *const list[] = {"phrases", "phrase", "note", NULL};
	const char *const *k = kind == R_LAYOUT ? common : list;
	for (; *k; k++)
		if (is_key(key, *k))
			return 1;
	return 0;
}

/* One phrase: its length, its ends, and no twin in its set. */
static void check_phrase(const struct record *r, const struct field *f,
                         const char *set)
{
	size_t n = strlen(f->value);
	if (n < PHRASE_MIN || n > PHRASE_MAX || f->value[0] == ' ' ||
	    f->value[n - 1] == ' ')
		fail(f->file, f->line, "a phrase is %d to %d characters without "
		     "blanks at its ends", PHRASE_MIN, PHRASE_MAX);
	for (size_t i = 0; i < r->nfields; i++) {
		const struct field *g = &r->fields[i];
		if (g == f)
			break;
		if (strcmp(g->value, f->value) == 0 &&
		    (is_key(g->def->name, set) ||
		     (is_key(set, "intro") && is_key(g->def->name, "greeting"))))
			fail(f->file, f->line, "'%s' is already in this %s",
			     f->value, set);
	}
}

/* Whether a layout's key holds a phrase (the others: its id, priority,
 * name, shape, address form and notes). */
static int phrase_key(const char *key)
{
	for (size_t i = 0; i < NSETS; i++)
		if (is_key(key, set_keys[i]))
			return 1;
	return is_key(key, "greeting");
}

/* The set a phrase key belongs to. */
static const char *set_of(const char *key)
{
	return is_key(key, "greeting") ? "intro" : key;
}

static size_t count(const struct record *r, const char *key)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nfields; i++)
		n += is_key(r->fields[i].def->name, key) ||
		     (is_key(key, "intro") &&
		      is_key(r->fields[i].def->name, "greeting"));
	return n;
}

static void check_list(const struct record *r)
{
	const struct field *id = &r->fields[0];
	size_t k = 0;
	while (k < NLISTS && strcmp(lists[k], id->value))
		k++;
	if (k == NLISTS)
		fail(id->file, id->line, "unknown phrase list '%s' (expected "
		     "autoreply-subject, bounce-from, bounce-subject, "
		     "delay-subject, guess-end, guess-header, address-label or "
		     "system-mailbox)", id->value);
	if (!get(r, "phrase"))
		fail(r->file, r->line, "%s: missing 'phrase'", id->value);
	if (count(r, "phrase") > SET_MAX)
		fail(r->file, r->line, "%s: more than %d phrases", id->value,
		     SET_MAX);
	for (size_t i = 0; i < r->nfields; i++)
		if (is_key(r->fields[i].def->name, "phrase"))
			check_phrase(r, &r->fields[i], "phrase");
}

void check_layout(const struct record *r)
{
	const struct shape *s = shape_of(r);
	const struct field *f;

	if (r->kind == R_PHRASES) {
		check_list(r);
		return;
	}
	f = get(r, "shape");
	if (!f) {
		fail(r->file, r->line, "layout %s: missing 'shape'", r->codetext);
	} else if (!s) {
		char names[256] = "";
		for (size_t i = 0; i < NSHAPES; i++) {
			strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
			strncat(names, shapes[i].name,
			        sizeof names - strlen(names) - 1);
		}
		fail(f->file, f->line, "unknown shape '%s' (expected one of: %s)",
		     f->value, names);
	}
	if (!count(r, "intro"))
		fail(r->file, r->line, "layout %s: missing 'intro' (the phrases "
		     "that recognise its bounces)", r->codetext);
	if (s && s->needs && !get(r, s->needs))
		fail(r->file, r->line, "layout %s: shape %s needs '%s'",
		     r->codetext, s->name, s->needs);
	f = get(r, "address");
	if (f && strcmp(f->value, "angle") && strcmp(f->value, "bare"))
		fail(f->file, f->line, "unknown address '%s' (expected angle or "
		     "bare)", f->value);
	for (size_t i = 0; i < NSETS; i++)
		if (count(r, set_keys[i]) > SET_MAX)
			fail(r->file, r->line, "layout %s: more than %d %s phrases",
			     r->codetext, SET_MAX, set_keys[i]);
	for (size_t i = 0; i < r->nfields; i++) {
		const struct field *fi = &r->fields[i];
		const char *k = fi->def->name;
		if (!phrase_key(k))
			continue;
		check_phrase(r, fi, set_of(k));
		if (s && !is_key(k, "intro") && !is_key(k, "greeting") &&
		    !takes(s, k))
			fail(fi->file, fi->line, "shape %s does not read '%s'",
			     s->name, k);
	}
	if (s && (f = get(r, "address")) != NULL && !takes(s, "address"))
		fail(f->file, f->line, "shape %s does not read 'address'",
		     s->name);
}

/* Layouts are tried in the order of their priorities: two with one would
 * be ordered by the file list, which nobody chose. */
void check_layout_order(void)
{
	size_t n = 0;
	for (size_t i = 0; i < nrecords; i++) {
		struct record *r = &records[i];
		if (r->kind != R_LAYOUT)
			continue;
		if (++n > TABLE_LAYOUTS_MAX)
			fail(r->file, r->line, "layout %s: more than %d layouts "
			     "(TABLE_LAYOUTS_MAX in src/core/table.h)",
			     r->codetext, TABLE_LAYOUTS_MAX);
		r->rank = record_priority(r, "are tried first");
		for (size_t j = 0; j < i && r->rank; j++)
			if (records[j].kind == R_LAYOUT &&
			    records[j].rank == r->rank)
				fail(get(r, "priority")->file,
				     get(r, "priority")->line, "layouts %s and %s "
				     "have the same priority %u", records[j].codetext,
				     r->codetext, r->rank);
	}
}

/* ---- Writing ---- */

static struct record *kept;
static size_t nkept;

void layout_keep(const struct record *r)
{
	kept = xrealloc(kept, (nkept + 1) * sizeof *kept);
	kept[nkept++] = *r;
}

static int by_priority(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Phrases written so far, and the sets they form. */
static struct {
	char **text;
	size_t *id; /* each one's place in its set as the data gives it */
	size_t n;
	size_t *set_first, *set_len; /* sets written, to share twins */
	size_t nsets;
} out_phrases;

/* The phrases of r under key (greetings before intros), as a range of
 * the phrase array; a set written before with the same phrases is
 * shared. */
static size_t add_set(const struct record *r, const char *key, size_t *len)
{
	size_t first = out_phrases.n, n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->nfields; i++) {
			const char *k = r->fields[i].def->name;
			char *t;
			if (pass == 0 ? !(is_key(key, "intro") &&
			                  is_key(k, "greeting"))
			              : !is_key(k, key))
				continue;
			t = xrealloc(NULL, strlen(r->fields[i].value) + 1);
			for (size_t c = 0; (t[c] = r->fields[i].value[c]); c++)
				if (t[c] >= 'A' && t[c] <= 'Z')
					t[c] = (char)(t[c] - 'A' + 'a');
			out_phrases.text = xrealloc(out_phrases.text,
			    (out_phrases.n + 1) * sizeof *out_phrases.text);
			out_phrases.id = xrealloc(out_phrases.id,
			    (out_phrases.n + 1) * sizeof *out_phrases.id);
			out_phrases.id[out_phrases.n] = n++;
			out_phrases.text[out_phrases.n++] = t;
		}
	*len = n;
	for (size_t s = 0; s < out_phrases.nsets; s++) {
		size_t k = 0;
		if (out_phrases.set_len[s] != n)
			continue;
		while (k < n && strcmp(out_phrases.text[first + k],
		                       out_phrases.text[out_phrases.set_first[s] + k]) == 0)
			k++;
		if (k == n) { /* a twin: drop the copy */
			while (out_phrases.n > first)
				free(out_phrases.text[--out_phrases.n]);
			return out_phrases.set_first[s];
		}
	}
	out_phrases.set_first = xrealloc(out_phrases.set_first,
	    (out_phrases.nsets + 1) * sizeof *out_phrases.set_first);
	out_phrases.set_len = xrealloc(out_phrases.set_len,
	    (out_phrases.nsets + 1) * sizeof *out_phrases.set_len);
	out_phrases.set_first[out_phrases.nsets] = first;
	out_phrases.set_len[out_phrases.nsets++] = n;
	return first;
}

/* Each set's phrases in the order of their first bytes, the data's order
 * kept among those of one first byte (src/match/phrase.c looks only at
 * those a line's first byte may start); done once every set is in, as
 * twins are found by the data's order. */
static void sort_sets(void)
{
	for (size_t s = 0; s < out_phrases.nsets; s++) {
		size_t first = out_phrases.set_first[s];
		size_t end = first + out_phrases.set_len[s];
		for (size_t i = first + 1; i < end; i++) { /* stable */
			char *t = out_phrases.text[i];
			size_t id = out_phrases.id[i], j = i;
			unsigned char c = (unsigned char)t[0];
			for (; j > first &&
			       (unsigned char)out_phrases.text[j - 1][0] > c; j--) {
				out_phrases.text[j] = out_phrases.text[j - 1];
				out_phrases.id[j] = out_phrases.id[j - 1];
			}
			out_phrases.text[j] = t;
			out_phrases.id[j] = id;
		}
	}
}

/* Phrases first .. first + n - 1 as a struct phrase_set, with the bytes
 * they may start with in a text (src/match/phrase.h). */
static void write_set(FILE *out, size_t first, size_t n)
{
	uint32_t firsts[8] = {0};
	for (size_t i = first; i < first + n; i++) {
		unsigned char c = (unsigned char)out_phrases.text[i][0];
		firsts[c >> 5] |= (uint32_t)1 << (c & 31);
		if (c == '\'') /* U+2019 matches it: 0xe2 0x80 0x99 */
			firsts[0xe2 >> 5] |= (uint32_t)1 << (0xe2 & 31);
	}
	fprintf(out, "{bounce_text, bounce_phrases + %zu, %zu, {", first, n);
	for (size_t w = 0; w < 8; w++)
		fprintf(out, "%s0x%lx", w ? ", " : "", (unsigned long)firsts[w]);
	fputs("}}", out);
}

/* The byte string of the phrases, each ending in NUL. */
static void write_text(FILE *out)
{
	fputs("static const char bounce_text[] =\n\t\"", out);
	for (size_t i = 0; i < out_phrases.n; i++) {
		for (const char *s = out_phrases.text[i]; *s; s++) {
			unsigned char c = (unsigned char)*s;
			if (c == '"' || c == '\\')
				fprintf(out, "\\%c", c);
			else if (c == '?' || c >= 0x80)
				fprintf(out, "\\%03o", c); /* no trigraphs */
			else
				fputc(c, out);
		}
		fputs(i + 1 < out_phrases.n ? "\\0\"\n\t\"" : "", out);
	}
	fputs("\";\n", out);
}

/* Set bit in seconds[c] for each byte c a line may hold second when it
 * starts with phrase t (folded), as phrase_starts() reads it: a space of
 * t is any blank, an apostrophe also U+2019 (0xe2 0x80 0x99: after one
 * that starts t, 0x80 comes second); a phrase of one byte, any byte. */
static void mark_seconds(uint64_t seconds[256], const char *t, uint64_t bit)
{
	unsigned char c = (unsigned char)t[1];
	if (!c) {
		for (unsigned b = 0; b < 256; b++)
			seconds[b] |= bit;
		return;
	}
	seconds[c] |= bit;
	if (c == ' ')
		seconds['\t'] |= bit;
	if (c == '\'')
		seconds[0xe2] |= bit;
	if (t[0] == '\'')
		seconds[0x80] |= bit;
}

/* A byte's layouts, bit k for layout k, as the array name[256]. */
static void write_masks(FILE *out, const char *name, const uint64_t m[256])
{
	fprintf(out, "const uint64_t %s[256] = {", name);
	for (unsigned c = 0; c < 256; c++)
		fprintf(out, "%s0x%llx,", c % 4 ? " " : "\n\t",
		        (unsigned long long)m[c]);
	fputs("\n};\n\n", out);
}

void write_layouts(FILE *out)
{
	size_t (*first)[NSETS] = xrealloc(NULL, (nkept + 1) * sizeof *first);
	size_t (*len)[NSETS] = xrealloc(NULL, (nkept + 1) * sizeof *len);
	struct record **layouts = xrealloc(NULL, (nkept + 1) * sizeof *layouts);
	size_t lfirst[NLISTS], llen[NLISTS], off = 0, nlayouts = 0;
	uint64_t starts[256] = {0}; /* text_layout_starts (textbounce.h) */
	uint64_t seconds[256] = {0}; /* text_layout_seconds */

	qsort(kept, nkept, sizeof *kept, by_priority);
	for (size_t i = 0; i < nkept; i++)
		if (kept[i].kind == R_LAYOUT)
			layouts[nlayouts++] = &kept[i];
	for (size_t i = 0; i < nlayouts; i++)
		for (size_t k = 0; k < NSETS; k++)
			first[i][k] = add_set(layouts[i], set_keys[k], &len[i][k]);
	for (size_t k = 0; k < NLISTS; k++) {
		lfirst[k] = llen[k] = 0;
		for (size_t i = 0; i < nkept; i++)
			if (kept[i].kind == R_PHRASES &&
			    strcmp(kept[i].codetext, lists[k]) == 0)
				lfirst[k] = add_set(&kept[i], "phrase", &llen[k]);
	}

	sort_sets();
	fputs("\n/* Bounce layouts and phrase lists (data/bounces/), their "
	      "phrases folded\n * to lower case. */\n", out);
	write_text(out);
	fputs("static const struct phrase bounce_phrases[] = {\n", out);
	for (size_t i = 0; i < out_phrases.n; i++) {
		size_t n = strlen(out_phrases.text[i]);
		fprintf(out, "\t{%zu, %zu, %zu},\n", off, n, out_phrases.id[i]);
		off += n + 1;
	}
	fputs("\t{0, 0, 0}\n};\n\nconst struct text_layout text_layouts[] = {\n",
	      out);
	for (size_t i = 0; i < nlayouts; i++) {
		const struct record *r = layouts[i];
		const struct field *a = get(r, "address");
		size_t same = 0; /* the first layout of the same intro (set 0) */
		while (first[same][0] != first[i][0] || len[same][0] != len[i][0])
			same++;
		if (same == i)
			for (size_t p = first[i][0]; p < first[i][0] + len[i][0]; p++) {
				const char *t = out_phrases.text[p];
				unsigned char c = (unsigned char)t[0];
				starts[c] |= (uint64_t)1 << i;
				if (c == '\'') /* U+2019: 0xe2 0x80 0x99 */
					starts[0xe2] |= (uint64_t)1 << i;
				mark_seconds(seconds, t, (uint64_t)1 << i);
			}
		fprintf(out, "\t{ /* %s */\n\t\t%s, %d, %zu, %zu,\n", r->codetext,
		        shape_of(r)->cname, a && strcmp(a->value, "bare") == 0,
		        count(r, "greeting"), same);
		for (size_t k = 0; k < NSETS; k++) {
			fputs(k % 2 ? " " : "\t\t", out);
			write_set(out, first[i][k], len[i][k]);
			fputs(k + 1 < NSETS ? (k % 2 ? ",\n" : ",") : "\n", out);
		}
		fputs("\t},\n", out);
	}
	fprintf(out, "};\nconst size_t text_layouts_count = %zu;\n\n", nlayouts);
	write_masks(out, "text_layout_starts", starts);
	write_masks(out, "text_layout_seconds", seconds);
	for (size_t k = 0; k < NLISTS; k++) {
		fputs("const struct phrase_set phrases_", out);
		for (const char *c = lists[k]; *c; c++)
			fputc(*c == '-' ? '_' : *c, out);
		fputs(" = ", out);
		write_set(out, lfirst[k], llen[k]);
		fputs(";\n", out);
	}
	for (size_t i = 0; i < out_phrases.n; i++)
		free(out_phrases.text[i]);
	free(out_phrases.text);
	free(out_phrases.id);
	free(out_phrases.set_first);
	free(out_phrases.set_len);
	for (size_t i = 0; i < nkept; i++)
		free_fields(&kept[i]);
	free(kept);
	free(first);
	free(len);
	free(layouts);
	memset(&out_phrases, 0, sizeof out_phrases);
	kept = NULL;
	nkept = 0;
}
