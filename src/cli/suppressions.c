/*
 * --suppressions: the recipients of logs and bounces, one row per address,
 * with what a sender should do about each.
 *
 * An address's action is decided over its records in the order they are
 * added: a complaint, or a permanent failure whose verdict says suppress,
 * makes it `suppress`, for good (later records still count, and move
 * last_seen); until then the latest record decides: a success `keep`,
 * anything else (a temporary failure, a permanent one that does not say
 * suppress) `watch`.  The reason and code shown are those of the record
 * that decided: the first suppressing one, else the latest.
 *
 * Addresses are text from the input, which anyone who sends mail writes:
 * they are keyed by SipHash (hash.h) under a key drawn at random for each
 * list, in a table that grows with the distinct addresses, as summary.c's
 * tables do.  An address is kept with its domain (after its last '@') in
 * lower case, so that User@Example.COM and User@example.com are one, and
 * its local part as written.
 *
 * Memory grows with the distinct addresses only: an address's entry holds
 * its key, its counts and its code, and the names of the files it was
 * first and last seen in are shared by all the entries that name them and
 * freed when none does.  An allocation that fails leaves the list as it
 * was, and suppressions_add() says so.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "output.h"
#include "render.h"
#include "suppressions.h"

enum action { ACT_WATCH, ACT_KEEP, ACT_SUPPRESS };
static const char *const action_names[] = {"watch", "keep", "suppress"};

/* A file's name as shown, shared by the places that name it. */
struct file {
	size_t refs;
	size_t len;
	char name[];
};

/* Where a record was seen. */
struct place {
	struct file *file;
	unsigned long line; /* a log line's, or 0 */
	long message;       /* a message's index in its mbox, or -1 */
};

struct entry {
	char *key; /* the address, its domain in lower case */
	size_t len;
	uint64_t hash;
	unsigned long count;
	enum action action;
	const char *reason; /* of the record that decided, or NULL */
	char code[SUPP_CODE_MAX]; /* its code, or "" */
	struct place first, last;
};

struct suppressions {
	struct sip_key key;
	struct entry *entries; /* in the order first seen */
	size_t used, room;
	uint32_t *index; /* an entry's place + 1, or 0; nindex a power of 2 */
	size_t nindex;
	char *keybuf; /* the address being added, its domain lowered */
	size_t keyroom;
	struct file *current; /* the file of the last record (one ref) */
	char *scratch; /* a place as JSON writes it: the longest file's name
	                  and its number */
	size_t scratch_room;
};

/* Room for a place's suffix: ':' or '#' and 20 digits. */
#define SUFFIX_MAX 24


struct suppressions *suppressions_new(void)
{
	struct suppressions *s = calloc(1, sizeof *s);
	if (s)
		sip_key_random(&s->key, s);
	return s;
}

size_t suppressions_count(const struct suppressions *s)
{
	return s->used;
}

/* Room for n bytes in *buf of *room: false when memory ran out (the
 * buffer then as it was). */
static bool reserve(char **buf, size_t *room, size_t n)
{
	char *b;
	size_t want = *room ? *room : 64;

	if (n <= *room)
		return true;
	while (want < n)
		want = want > SIZE_MAX / 2 ? n : want * 2;
	if ((b = realloc(*buf, want)) == NULL)
		return false;
	*buf = b;
	*room = want;
	return true;
}

static void file_release(struct file *f)
{
	if (f && --f->refs == 0)
		free(f);
}

/* The shared name of file (NULL: "-"): the last one's when it is the
 * same, else a new one, which becomes the last; NULL when memory ran
 * out.  The scratch buffer is made room for its places in JSON. */
static struct file *file_of(struct suppressions *s, const char *file)
{
	const char *name = file ? file : "-";
	size_t len = strlen(name);
	struct file *f = s->current;

	if (f && f->len == len && memcmp(f->name, name, len) == 0)
		return f;
	if (len > SIZE_MAX - sizeof *f - SUFFIX_MAX ||
	    !reserve(&s->scratch, &s->scratch_room, len + SUFFIX_MAX) ||
	    (f = malloc(sizeof *f + len + 1)) == NULL)
		return NULL;
	f->refs = 1; /* the list's, as its current file */
	f->len = len;
	memcpy(f->name, name, len);
	f->name[len] = '\0';
	file_release(s->current);
	s->current = f;
	return f;
}

/* Place p now file f, line and message. */
static void place_set(struct place *p, struct file *f, unsigned long line,
                      long message)
{
	f->refs++;
	file_release(p->file);
	p->file = f;
	p->line = line;
	p->message = message;
}

/* r's address into s->keybuf, its domain in lower case: its length, or
 * (size_t)-1 when memory ran out. */
static size_t make_key(struct suppressions *s, struct smtpcode_text a)
{
	size_t at = a.len;

	if (!reserve(&s->keybuf, &s->keyroom, a.len ? a.len : 1))
		return (size_t)-1;
	memcpy(s->keybuf, a.s, a.len);
	while (at > 0 && a.s[at - 1] != '@')
		at--;
	if (at == 0) /* no '@': the whole as written */
		return a.len;
	for (size_t i = at; i < a.len; i++)
		if (s->keybuf[i] >= 'A' && s->keybuf[i] <= 'Z')
			s->keybuf[i] = (char)(s->keybuf[i] - 'A' + 'a');
	return a.len;
}

/* The entry of key keybuf[0..n) of hash h, or NULL; *slot the index's
 * slot where it is or would go. */
static struct entry *find(const struct suppressions *s, size_t n, uint64_t h,
                          size_t *slot)
{
	size_t j;

	if (!s->nindex) {
		*slot = 0;
		return NULL;
	}
	for (j = (size_t)h & (s->nindex - 1); s->index[j];
	     j = (j + 1) & (s->nindex - 1)) {
		struct entry *e = &s->entries[s->index[j] - 1];
		if (e->hash == h && e->len == n && memcmp(e->key, s->keybuf, n) == 0) {
			*slot = j;
			return e;
		}
	}
	*slot = j;
	return NULL;
}

/* Room for one more entry, the index at most half full after it: false
 * when memory ran out (or the index would pass its 32 bits), s as it
 * was. */
static bool grow(struct suppressions *s)
{
	if (s->used == s->room) {
		size_t room = s->room ? s->room * 2 : 64;
		struct entry *e;
		if (room > SIZE_MAX / sizeof *e || room > UINT32_MAX - 1)
			return false;
		if ((e = realloc(s->entries, room * sizeof *e)) == NULL)
			return false;
		s->entries = e;
		s->room = room;
	}
	if ((s->used + 1) * 2 > s->nindex) {
		size_t n = s->nindex ? s->nindex * 2 : 128;
		uint32_t *index = index_items(s->entries, sizeof *s->entries,
		                              offsetof(struct entry, hash),
		                              s->used, n);
		if (!index)
			return false;
		free(s->index);
		s->index = index;
		s->nindex = n;
	}
	return true;
}

/* The decision of record r on entry e (see the top). */
static void decide(struct entry *e, const struct supp_record *r)
{
	size_t n;

	if (e->action == ACT_SUPPRESS)
		return;
	if (r->outcome == SUPP_COMPLAINT ||
	    (r->outcome == SUPP_PERMANENT && r->suppress))
		e->action = ACT_SUPPRESS;
	else if (r->outcome == SUPP_SUCCESS)
		e->action = ACT_KEEP;
	else
		e->action = ACT_WATCH;
	e->reason = r->reason;
	n = r->code ? strlen(r->code) : 0;
	if (n >= sizeof e->code)
		n = sizeof e->code - 1;
	memcpy(e->code, r->code ? r->code : "", n);
	e->code[n] = '\0';
}

int suppressions_add(struct suppressions *s, const struct supp_record *r)
{
	struct entry *e;
	struct file *f;
	size_t n, slot;
	uint64_t h;

	if (r->address.len == 0)
		return 0;
	if ((n = make_key(s, r->address)) == (size_t)-1 ||
	    (f = file_of(s, r->file)) == NULL)
		return -1;
	h = sip13(&s->key, s->keybuf, n);
	if ((e = find(s, n, h, &slot)) == NULL) {
		char *key = malloc(n);
		if (!key || !grow(s)) {
			free(key);
			return -1;
		}
		memcpy(key, s->keybuf, n);
		find(s, n, h, &slot); /* the index may have grown: its slot */
		e = &s->entries[s->used];
		memset(e, 0, sizeof *e);
		e->key = key;
		e->len = n;
		e->hash = h;
		s->index[slot] = (uint32_t)++s->used;
		place_set(&e->first, f, r->line, r->message);
	}
	e->count++;
	place_set(&e->last, f, r->line, r->message);
	decide(e, r);
	return 0;
}

void suppressions_free(struct suppressions *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->used; i++) {
		free(s->entries[i].key);
		file_release(s->entries[i].first.file);
		file_release(s->entries[i].last.file);
	}
	file_release(s->current);
	free(s->entries);
	free(s->index);
	free(s->keybuf);
	free(s->scratch);
	free(s);
}

/* ---- Writing ---- */

/* v in decimal into d (room for 20 digits): its length. */
static size_t digits(char *d, unsigned long v)
{
	char t[24];
	size_t n = 0, i = 0;

	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		d[i++] = t[--n];
	return i;
}

/* Where p is after its file's name: ":LINE", "#N" (N from 1), or none;
 * into d (SUFFIX_MAX bytes), its length. */
static size_t suffix(char *d, const struct place *p)
{
	if (p->line) {
		d[0] = ':';
		return 1 + digits(d + 1, p->line);
	}
	if (p->message >= 0) {
		d[0] = '#';
		return 1 + digits(d + 1, (unsigned long)p->message + 1);
	}
	return 0;
}

/* Whether CSV quotes a field holding s[0..n): a comma or a quote (a
 * newline or a CR does not reach it: out_escaped() shows them as \xHH). */
static bool csv_quoted(const char *s, size_t n)
{
	return memchr(s, ',', n) || memchr(s, '"', n);
}

/*
 * Text from the input s[0..n), then tail[0..m) (the program's), as one
 * field: escaped as every text output escapes the input (out_escaped());
 * for CSV, quoted per RFC 4180 when it needs to be, its quotes doubled.
 */
static void text_field(enum record_format format, const char *s, size_t n,
                       const char *tail, size_t m)
{
	if (format == RECORD_TEXT && csv_quoted(s, n)) {
		const char *q;
		out_write("\"", 1);
		while ((q = memchr(s, '"', n)) != NULL) {
			out_escaped(stdout, s, (size_t)(q - s));
			out_write("\"\"", 2);
			n -= (size_t)(q - s) + 1;
			s = q + 1;
		}
		out_escaped(stdout, s, n);
		out_write(tail, m);
		out_write("\"", 1);
		return;
	}
	out_escaped(stdout, s, n);
	out_write(tail, m);
}

/* A field of CSV or TSV that may be absent: "-" then. */
static void text_or_dash(enum record_format format, const char *s)
{
	if (s && *s)
		text_field(format, s, strlen(s), "", 0);
	else
		out_write("-", 1);
}

static void place_field(enum record_format format, const struct place *p)
{
	char tail[SUFFIX_MAX];
	size_t m = suffix(tail, p);
	text_field(format, p->file->name, p->file->len, tail, m);
}

/* A place as one JSON string, put together in s->scratch (made room for
 * when the file was first seen). */
static void json_place(const struct suppressions *s, const struct place *p)
{
	size_t len = p->file->len;
	memcpy(s->scratch, p->file->name, len);
	len += suffix(s->scratch + len, p);
	json_bytes(s->scratch, len);
}

static void json_or_null(const char *v)
{
	if (v && *v)
		json_plain(v);
	else
		out_str("null");
}

static void write_json(const struct suppressions *s, const struct entry *e)
{
	char n[24];

	out_str("{\"address\":");
	json_bytes(e->key, e->len);
	out_str(",\"action\":\"");
	out_str(action_names[e->action]);
	out_str("\",\"reason\":");
	json_or_null(e->reason);
	out_str(",\"code\":");
	json_or_null(e->code);
	out_str(",\"count\":");
	out_write(n, digits(n, e->count));
	out_str(",\"first_seen\":");
	json_place(s, &e->first);
	out_str(",\"last_seen\":");
	json_place(s, &e->last);
	out_str("}\n");
}

static void write_row(enum record_format format, const struct entry *e)
{
	const char *sep = format == RECORD_TSV ? "\t" : ",";
	char n[24];

	text_field(format, e->key, e->len, "", 0);
	out_str(sep);
	out_str(action_names[e->action]);
	out_str(sep);
	text_or_dash(format, e->reason);
	out_str(sep);
	text_or_dash(format, e->code);
	out_str(sep);
	out_write(n, digits(n, e->count));
	out_str(sep);
	place_field(format, &e->first);
	out_str(sep);
	place_field(format, &e->last);
	out_str("\n");
}

size_t suppressions_write(const struct suppressions *s,
                          enum record_format format)
{
	if (format == RECORD_TSV)
		out_str("address\taction\treason\tcode\tcount\tfirst_seen\tlast_seen\n");
	else if (format != RECORD_JSON)
		out_str("address,action,reason,code,count,first_seen,last_seen\n");
	for (size_t i = 0; i < s->used; i++) {
		if (format == RECORD_JSON)
			write_json(s, &s->entries[i]);
		else
			write_row(format, &s->entries[i]);
	}
	return s->used;
}
