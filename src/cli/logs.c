/*
 * Mail logs: --annotate (each line, plus a short verdict), --extract (one
 * record per code found) and --summary (counts by code and by recipient
 * domain).  Lines come through input.c; the library parses them.
 *
 * Speed.  A log holds the same few replies and verdicts over and over, so
 * two small caches of fixed size (memory stays flat) keep the work per
 * record down to what is new in it:
 *  - a reply already resolved, with the same codes, is not resolved again
 *    (smtpcode_resolve() depends on nothing else: the codes, the reply's
 *    bytes and --provider, fixed for the run);
 *  - a verdict already rendered (the same codes, provider and entry,
 *    phrase and marker) is copied, not rendered again.
 * A key may sit in one of WAYS slots; a new key evicts, if it can, one
 * that was not found again since it came (hash.h).  A reply is compared
 * first with the one its codes last found again, before it is hashed
 * (resolve()).
 */
#include <pthread.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash.h"
#include "input.h"
#include "logs.h"
#include "output.h"
#include "pages.h"
#include "render.h"
#include "scan.h"
#include "select.h"
#include "summary.h"
#include "suppressions.h"

#define RESOLVED_SLOTS 256 /* a power of two */
#define RESOLVED_MAX 512   /* longer replies are resolved each time */
#define VERDICT_SLOTS 64   /* a power of two */
#define VERDICT_MAX 2048   /* longer verdicts are rendered each time */
#define DOMAIN_SLOTS 64    /* a power of two */
#define DOMAIN_MAX 64      /* longer domains are looked at each time */
#define LAST_BITS 8        /* slots remembered by codes and length */

/* A reply and its codes, with what else the line said (its context:
 * context_of()), judged. */
struct resolved {
	unsigned char state; /* enum slot_state */
	struct smtpcode_query q;
	uint64_t context;
	size_t len;
	char reply[RESOLVED_MAX];
	struct smtpcode_judgement j; /* (its words ignore what <...>
	                                encloses, as the key may) */
	const struct verdict *verdict; /* its verdict's slot, when there */
	unsigned long stamp; /* and that slot's stamp still: 0 none */
};

/* A verdict, rendered in the run's format. */
struct verdict {
	unsigned char state;         /* enum slot_state */
	unsigned long stamp;         /* new each time the slot is filled */
	struct smtpcode_query codes; /* only the codes: no text */
	struct smtpcode_match match; /* without its count of candidates */
	struct smtpcode_verdict verdict; /* the judgement's, from NULL */
	enum smtpcode_decider verdict_from;
	const char *phrase;          /* the words that gave the reason */
	char code[32];               /* as row_of_judgement() writes it */
	char text[VERDICT_MAX];
	struct rendered shown;       /* code and text, as rendered */
};

/* Whether a reply quoting an address at a domain may be keyed without
 * the domain part ("@example.org"), found once per domain (key_of()). */
struct domain {
	unsigned char state; /* enum slot_state */
	bool ignored;
	size_t len;
	char name[DOMAIN_MAX]; /* "@example.org" */
};

struct log_ctx {
	const struct log_options *o;
	const char *file;  /* as shown: "(standard input)" for "-" */
	struct summary *summary;
	struct resolved resolved[RESOLVED_SLOTS];
	struct verdict verdicts[VERDICT_SLOTS];
	struct domain domains[DOMAIN_SLOTS];
	unsigned short last[1 << LAST_BITS]; /* by last_place() */
	unsigned long stamps; /* verdict slots filled */
	/* The line read and its record, here rather than on each()'s stack:
	 * a local whose address is given away costs every line a stack
	 * protector's check. */
	struct smtpcode_logline line;
	struct origin origin;
	uint64_t context; /* context_of(&line), for resolve() */
	struct smtpcode_judgement own; /* a reply too long to keep, judged */
	struct smtpcode_csv_layout layout; /* the file's CSV header's, if any */
	bool selecting;         /* records go through select_record() */
	unsigned long selected; /* records selected that rest on something */
};

static const char *display_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

/* The code a line's summary counts: the reply's, else the dsn= field. */
static const struct smtpcode_query *chosen(const struct smtpcode_logline *l)
{
	return l->code.enhanced || l->code.basic ? &l->code : &l->dsn_code;
}

/* What a line says beyond its reply that its judgement depends on: the
 * dsn= field's codes, the report its status gives, its stage (a static
 * word, told apart by its length and first letter), packed in 64 bits
 * for the cache's key. */
static uint64_t context_of(const struct smtpcode_logline *l)
{
	const struct smtpcode_query *d = &l->dsn_code;
	uint64_t k = d->basic;
	k = k << 1 | d->enhanced;
	k = k << 4 | d->cls;
	k = k << 10 | d->subject;
	k = k << 10 | d->detail;
	k = k << 2 | (uint64_t)smtpcode_report_of(l->status.s, l->status.len);
	k = k << 4 | (l->stage.len & 15);
	return k << 8 | (l->stage.len ? (unsigned char)l->stage.s[0] : 0);
}

/* The evidence of line l whose reply is reply. */
static struct smtpcode_evidence evidence_of(const struct log_ctx *c,
                                            const struct smtpcode_logline *l,
                                            struct smtpcode_text reply)
{
	struct smtpcode_evidence ev = {.reply = reply, .reply_code = &l->code,
	    .status = &l->dsn_code, .stage = l->stage,
	    .report = smtpcode_report_of(l->status.s, l->status.len),
	    .provider = c->o->provider};
	return ev;
}

/* A hash of the codes of q (basic, class, subject, detail). */
static uint64_t codes_hash(const struct smtpcode_query *q)
{
	uint64_t h = q->basic;
	h = h << 1 | q->enhanced;
	h = h << 4 | q->cls;
	h = h << 10 | q->subject;
	h = h << 10 | q->detail;
	return mix(h);
}

/* Where replies of q's codes and len bytes (as keyed) remember the
 * resolved slot they last came to: replies that share a place cost a
 * comparison, never a wrong answer. */
static size_t last_place(const struct smtpcode_query *q, size_t len)
{
	uint32_t h = q->basic << 4 ^ q->cls ^ q->subject << 10 ^ q->detail << 20;
	return ((h ^ (uint32_t)len) * 0x9e3779b1u) >> (32 - LAST_BITS);
}

static uint64_t pointer_hash(uint64_t h, const void *p)
{
	return mix(h ^ (uint64_t)(uintptr_t)p);
}

static bool same_query(const struct smtpcode_query *a,
                       const struct smtpcode_query *b)
{
	return a->basic == b->basic && a->enhanced == b->enhanced &&
	       a->cls == b->cls && a->subject == b->subject &&
	       a->detail == b->detail && a->text_off == b->text_off &&
	       a->text_len == b->text_len;
}

/*
 * A reply as the cache keys it: head and tail, with its codes in q.  Most
 * replies are keyed whole (tail empty).  One that quotes the record's
 * recipient ("550 5.1.1 <bob@example.com>: User unknown") is keyed
 * without the address when the library says the address cannot change
 * how the reply resolves, so that one slot serves every recipient; else,
 * so, without its local part ("<@gmx.net>", as a provider's marker may
 * be its domain), serving every recipient of that domain.  q's text is
 * then shorter by what is left out.  Only a bracketed address is cut, so
 * the text never becomes empty (which resolving looks at).
 */
struct reply_key {
	struct smtpcode_text head, tail;
	struct smtpcode_query q;
	uint64_t context; /* context_of() */
};

/* domain_ignored() for a domain not in the table: not inlined, for the
 * same reason as resolve_anew(). */
static NOINLINE bool domain_anew(struct log_ctx *c,
                                 struct smtpcode_text reply, size_t at,
                                 size_t to, uint64_t h)
{
	unsigned char state[WAYS];
	struct domain *d;

	for (size_t i = 0; i < WAYS; i++)
		state[i] = c->domains[way(h, i, DOMAIN_SLOTS)].state;
	d = &c->domains[way(h, victim(h, state), DOMAIN_SLOTS)];
	d->state = SLOT_NEW;
	d->len = to - at;
	memcpy(d->name, reply.s + at, to - at);
	d->ignored = smtpcode_reply_ignores(reply.s, reply.len, at, to);
	return d->ignored;
}

/*
 * Whether the domain part [at, to) of an address quoted in reply, whose
 * local part [from, at) is ignored, is too: then so is the whole address.
 * (A marker or phrase touching the whole would lie inside one part, or
 * cross an outer edge, which the two checks cover, or cross the '@',
 * which the local part's check refused: its right edge is that pair.)
 * The answer depends on the domain part alone then, and is kept per
 * domain, as a log names few and their check is most of the cost.
 */
static bool domain_ignored(struct log_ctx *c, struct smtpcode_text reply,
                           size_t at, size_t to)
{
	const char *name = reply.s + at;
	size_t len = to - at;
	uint64_t h;
	struct domain *d;

	if (len > DOMAIN_MAX)
		return smtpcode_reply_ignores(reply.s, reply.len, at, to);
	h = mix(hash_bytes(len, name, len));
	for (size_t i = 0; i < WAYS; i++) {
		d = &c->domains[way(h, i, DOMAIN_SLOTS)];
		if (d->state != SLOT_FREE && d->len == len &&
		    scan_same(d->name, name, len)) {
			d->state = SLOT_REUSED;
			return d->ignored;
		}
	}
	return domain_anew(c, reply, at, to, h);
}

/* The first address a reply quotes in <>, for a line that names no
 * recipient of its own: the reply's key leaves it out as it does a
 * recipient's, so that the replies of a log without recipient fields
 * (qmail's) are resolved once per wording, not once per address. */
static struct smtpcode_text quoted_address(struct smtpcode_text reply)
{
	const char *end = reply.s + reply.len, *p = reply.s, *q;

	while ((p = scan_byte(p, end, '<')) != NULL) {
		if ((q = scan_byte(++p, end, '>')) == NULL)
			break;
		if (q > p && scan_byte(p, q, '@'))
			return (struct smtpcode_text){p, (size_t)(q - p)};
	}
	return (struct smtpcode_text){NULL, 0};
}

static struct reply_key key_of(struct log_ctx *c,
                               const struct smtpcode_query *q,
                               struct smtpcode_text reply,
                               struct smtpcode_text rcpt)
{
	struct reply_key k = {reply, {NULL, 0}, *q, c->context};
	const char *p = reply.s, *end, *at;

	if (!reply.len) /* reply.s may be NULL then */
		return k;
	if (!rcpt.len) /* (qmail's lines name none) */
		rcpt = quoted_address(reply);
	if (!rcpt.len)
		return k;
	for (end = p + reply.len; (p = scan_byte(p, end, '<')) != NULL;) {
		size_t from = (size_t)(++p - reply.s), to = from + rcpt.len, cut = 0;
		size_t split;
		if ((size_t)(end - p) <= rcpt.len || p[rcpt.len] != '>' ||
		    !scan_same(p, rcpt.s, rcpt.len))
			continue;
		if (from < q->text_off || to > q->text_off + q->text_len)
			break;
		at = scan_last(p, p + rcpt.len, '@');
		split = at ? (size_t)(at - reply.s) : from;
		if (split > from &&
		    smtpcode_reply_ignores(reply.s, reply.len, from, split))
			cut = domain_ignored(c, reply, split, to) ? to : split;
		else if (smtpcode_reply_ignores(reply.s, reply.len, from, to))
			cut = to;
		if (cut) {
			k.head.len = from;
			k.tail = (struct smtpcode_text){reply.s + cut, reply.len - cut};
			k.q.text_len -= cut - from;
		}
		break;
	}
	return k;
}

static inline bool same_reply(const struct resolved *s,
                              const struct reply_key *k)
{
	return s->state != SLOT_FREE && s->len == k->head.len + k->tail.len &&
	       s->context == k->context && same_query(&s->q, &k->q) &&
	       scan_same(s->reply, k->head.s, k->head.len) &&
	       scan_same(s->reply + k->head.len, k->tail.s, k->tail.len);
}

/* resolve() for a reply not in the cache, of hash h, keyed k: not
 * inlined, as its locals' addresses, given away, would cost each() a
 * stack protector's check. */
static NOINLINE struct resolved *resolve_anew(struct log_ctx *c,
                                              struct smtpcode_text reply,
                                              struct reply_key k, uint64_t h)
{
	size_t len = k.head.len + k.tail.len;
	struct resolved *s;
	unsigned char state[WAYS];
	struct smtpcode_evidence ev = evidence_of(c, &c->line, reply);

	judge(&ev, &c->own);
	if (len > RESOLVED_MAX)
		return NULL;
	for (size_t i = 0; i < WAYS; i++)
		state[i] = c->resolved[way(h, i, RESOLVED_SLOTS)].state;
	s = &c->resolved[way(h, victim(h, state), RESOLVED_SLOTS)];
	s->state = SLOT_NEW;
	s->q = k.q;
	s->context = k.context;
	s->len = len;
	if (k.head.len)
		memcpy(s->reply, k.head.s, k.head.len);
	if (k.tail.len)
		memcpy(s->reply + k.head.len, k.tail.s, k.tail.len);
	s->j = c->own;
	s->stamp = 0;
	return s;
}

/*
 * q resolved against reply, which quotes rcpt or not: the cache's slot,
 * from before or filled now; NULL, with the result in c->own, for a reply
 * too long to keep.  The slot's result has the query of the reply that
 * filled it, which may differ from q in its text; the caller uses the
 * codes.
 *
 * A log's records with the same codes mostly repeat a reply or two, so
 * the slot that replies of these codes and length last found again is
 * tried before the key is hashed: first by the whole reply, which is how
 * most are keyed, before key_of() looks for the recipient in it (a slot
 * keyed by these very codes and bytes holds what this reply resolves to,
 * however this record would be keyed: an address left out changes
 * nothing); then, when an address is left out, by the key.  Only a slot
 * found again is remembered, so that where replies do not come back (a
 * queue ID in each) the comparison is rarely made.
 */
static inline struct resolved *resolve(struct log_ctx *c,
                                       const struct smtpcode_query *q,
                                       struct smtpcode_text reply,
                                       struct smtpcode_text rcpt)
{
	unsigned short *last = &c->last[last_place(q, reply.len)];
	struct resolved *s = &c->resolved[*last];
	struct reply_key k;
	size_t len;
	uint64_t h;

	if (s->state == SLOT_REUSED && s->len == reply.len &&
	    s->context == c->context && same_query(&s->q, q) &&
	    scan_same(s->reply, reply.s, reply.len))
		return s;
	k = key_of(c, q, reply, rcpt);
	len = k.head.len + k.tail.len;
	if (k.tail.s) {
		last = &c->last[last_place(q, len)];
		s = &c->resolved[*last];
		if (s->state == SLOT_REUSED && same_reply(s, &k))
			return s;
	}
	h = mix(hash_bytes(hash_bytes(codes_hash(q) ^ q->text_off ^
	                                  mix(c->context), k.head.s, k.head.len),
	                   k.tail.s, k.tail.len));
	for (size_t i = 0; i < WAYS; i++)
		if (same_reply(s = &c->resolved[way(h, i, RESOLVED_SLOTS)], &k)) {
			s->state = SLOT_REUSED;
			*last = (unsigned short)(s - c->resolved);
			return s;
		}
	return resolve_anew(c, reply, k, h);
}

/* The key of j's verdict: its codes, how the provider's entry was
 * picked, and the verdict, zeroed around them so that keys compare
 * whole. */
static void verdict_key(const struct smtpcode_judgement *j,
                        struct smtpcode_query *codes,
                        struct smtpcode_match *m, struct smtpcode_verdict *v)
{
	const struct smtpcode_result *r = &j->result;
	memset(codes, 0, sizeof *codes);
	codes->basic = r->query.basic;
	codes->enhanced = r->query.enhanced;
	codes->cls = r->query.cls;
	codes->subject = r->query.subject;
	codes->detail = r->query.detail;
	memset(m, 0, sizeof *m);
	m->how = r->match.how;
	m->provider = r->match.provider;
	m->given = r->match.given;
	m->marker = r->match.marker;
	m->entry = r->match.entry;
	m->phrase = r->match.phrase;
	memset(v, 0, sizeof *v);
	memcpy(v->value, j->verdict.value, sizeof v->value);
	v->basic_decides = j->verdict.basic_decides;
	v->report_decides = j->verdict.report_decides;
	v->provider_guess = j->verdict.provider_guess;
}

static bool same_verdict(const struct smtpcode_verdict *a,
                         const struct smtpcode_verdict *b)
{
	return memcmp(a->value, b->value, sizeof a->value) == 0 &&
	       a->basic_decides == b->basic_decides &&
	       a->report_decides == b->report_decides &&
	       a->provider_guess == b->provider_guess;
}

static bool same_match(const struct smtpcode_match *a,
                       const struct smtpcode_match *b)
{
	return a->how == b->how && a->provider == b->provider &&
	       a->given == b->given && a->marker == b->marker &&
	       a->entry == b->entry && a->phrase == b->phrase;
}

/* The verdict of r rendered in format, from the cache when it was made
 * before; NULL when it is too long to keep.  Not inlined, for the same
 * reason as resolve_anew(). */
static NOINLINE const struct verdict *
verdict_of(struct log_ctx *c, enum record_format format,
           const struct smtpcode_judgement *j)
{
	struct smtpcode_query codes;
	struct smtpcode_match m;
	struct smtpcode_verdict said;
	struct verdict *v;
	unsigned char state[WAYS];
	struct sink k;
	struct row w;
	uint64_t h;

	verdict_key(j, &codes, &m, &said);
	h = codes_hash(&codes) ^ (uint64_t)m.how << 1 ^ (uint64_t)m.given ^
	    (uint64_t)j->verdict_from << 5;
	h = hash_bytes(h, (const char *)said.value, sizeof said.value);
	h = pointer_hash(h, m.entry);
	h = pointer_hash(h, m.phrase);
	h = pointer_hash(h, m.provider);
	h = pointer_hash(h, m.marker);
	h = pointer_hash(h, j->wording.phrase);
	for (size_t i = 0; i < WAYS; i++) {
		v = &c->verdicts[way(h, i, VERDICT_SLOTS)];
		if (v->state != SLOT_FREE && same_query(&v->codes, &codes) &&
		    same_match(&v->match, &m) && same_verdict(&v->verdict, &said) &&
		    v->verdict_from == j->verdict_from &&
		    v->phrase == j->wording.phrase) {
			v->state = SLOT_REUSED;
			return v;
		}
	}
	for (size_t i = 0; i < WAYS; i++)
		state[i] = c->verdicts[way(h, i, VERDICT_SLOTS)].state;
	v = &c->verdicts[way(h, victim(h, state), VERDICT_SLOTS)];
	v->stamp = 0; /* what points to the slot's old verdict no longer may */
	row_of_judgement(&w, j, NULL);
	k.text = v->text;
	k.len = 0;
	k.size = sizeof v->text;
	k.full = false;
	render_record_verdict(format, &w, &k);
	v->state = k.full ? SLOT_FREE : SLOT_NEW;
	if (k.full)
		return NULL;
	v->stamp = ++c->stamps;
	v->codes = codes;
	v->match = m;
	v->verdict = said;
	v->verdict_from = j->verdict_from;
	v->phrase = j->wording.phrase;
	memcpy(v->code, w.code, sizeof v->code);
	v->shown = (struct rendered){v->code, strlen(v->code), v->text, k.len};
	return v;
}

/* Whether --extract writes one value of each record (--field). */
static inline bool one_value(const struct log_options *o)
{
	return o->mode == LOG_EXTRACT && (o->record_key >= 0 || o->field >= 0);
}

/* The origin of the record of c->line, whole (only JSON shows the codes
 * as seen): each key of record_fields.def.  Inlined in record(): a call
 * a record cost 0.3% of --extract. */
static ALWAYS_INLINE void set_origin(struct log_ctx *c, unsigned long lineno,
                                     enum record_format format)
{
	const struct smtpcode_logline *l = &c->line;
	struct origin *o = &c->origin;
	enum smtpcode_log_side side;

	o->file = c->file;
	o->line = lineno;
	o->index = RECORD_LOG_INDEX;
	o->recipient = l->recipient;
	o->domain = l->domain;
	o->relay = l->relay;
	o->stage = l->stage;
	o->status = l->status;
	side = smtpcode_status_side(l->status.s, l->status.len);
	/* A text record names the side only when it is not the usual one,
	 * a delivery: "side: reject" stands out, and the bytes of the
	 * others' notes were a tenth of --extract's cost. */
	o->side = format == RECORD_TEXT && side == SMTPCODE_SIDE_DELIVERY &&
	                  !one_value(c->o)
	              ? NULL
	              : smtpcode_side_name(side);
	o->dsn = l->dsn;
	o->reply = l->reply;
	o->verdict_from = NULL; /* (the judgement's: the caller's) */
	o->report = smtpcode_report_of(l->status.s, l->status.len);
	o->seen_basic = o->seen_enhanced = (struct smtpcode_text){NULL, 0};
	if (format == RECORD_JSON) {
		o->seen_basic = seen_code(l->reply, &l->code, 0);
		o->seen_enhanced = seen_code(l->reply, &l->code, 1);
	}
}

/* A record whose verdict is not kept, r, rendered whole.  Not inlined,
 * for the same reason as resolve_anew(). */
static NOINLINE void record_whole(struct log_ctx *c, const char *line,
                                  size_t len, enum record_format format,
                                  const struct smtpcode_judgement *j)
{
	struct row w;

	row_of_judgement(&w, j, NULL);
	w.origin = &c->origin;
	if (c->o->mode == LOG_ANNOTATE)
		render_annotation(line, len, &w);
	else
		render_record(format, &w);
}

/* --extract --field: the one value asked for of the record in c->origin,
 * whose verdict is j's. */
static NOINLINE void field_record(struct log_ctx *c,
                                  const struct smtpcode_judgement *j)
{
	struct row w;

	if (c->o->record_key >= 0) {
		render_record_key(&c->origin, c->o->record_key);
		return;
	}
	row_of_judgement(&w, j, NULL);
	w.origin = &c->origin;
	render_field(&w, (enum field_id)c->o->field);
}

_Noreturn void records_found_quietly(void)
{
	_exit(0);
}

/*
 * The record in c->origin, of line[0..len), whose verdict is j's, when
 * filters, -q, -c or --suppressions are given: written when
 * record_chosen() says so.  Not inlined: the records of a plain
 * --extract never come here.
 */
static NOINLINE void select_record(struct log_ctx *c, const char *line,
                                   size_t len,
                                   const struct smtpcode_judgement *j)
{
	const struct log_options *o = c->o;
	struct row w;

	row_of_judgement(&w, j, NULL);
	w.origin = &c->origin;
	if (!record_chosen(&o->choice, &w, j->result.known || j->verdict_from,
	                   &c->selected))
		return;
	if (one_value(o))
		render_record_value(&w, o->record_key, o->field);
	else if (o->mode == LOG_ANNOTATE)
		render_annotation(line, len, &w);
	else
		render_record(o->format, &w);
}

/* The record of c->line, read from line[0..len). */
static void record(struct log_ctx *c, const char *line, size_t len,
                   unsigned long lineno)
{
	const struct smtpcode_logline *l = &c->line;
	enum log_mode mode = c->o->mode;
	/* --annotate shows the text verdict whatever the format. */
	enum record_format format =
	    mode == LOG_ANNOTATE ? RECORD_TEXT : c->o->format;
	/* A reply without a code (the MTA's own words, smtpcode.h) is
	 * judged with the dsn= code, its words as evidence like any
	 * reply's: such replies are keyed whole (no code bounds where an
	 * address may be left out), so they find the cache less often. */
	struct resolved *s;
	const struct smtpcode_judgement *j;
	const struct verdict *v;

	c->context = context_of(l);
	s = resolve(c, &l->code, l->reply, l->recipient);
	j = s ? &s->j : &c->own;
	set_origin(c, lineno, format);
	c->origin.verdict_from = smtpcode_decider_name(j->verdict_from);
	c->origin.reason_phrase = j->wording.phrase;
	if (c->selecting) {
		select_record(c, line, len, j);
		return;
	}
	c->selected += j->result.known || j->verdict_from;
	if (one_value(c->o)) {
		field_record(c, j);
		return;
	}
	if (s && s->stamp && s->verdict->stamp == s->stamp) {
		v = s->verdict; /* this reply's, as last time */
	} else if ((v = verdict_of(c, format, j)) != NULL && s) {
		s->verdict = v;
		s->stamp = v->stamp;
	}
	if (!v)
		record_whole(c, line, len, format, j);
	else if (mode == LOG_ANNOTATE)
		render_annotation_with(line, len, &c->origin, &v->shown);
	else
		render_record_with(format, &c->origin, &v->shown);
}

/*
 * The words of a line of a known layout without a code that may tell why
 * its message failed or waits: the library gives them as its reply (the
 * MTA's own words: Postfix's "unknown user: \"x\"", Exim's "Unrouteable
 * address").  Empty for a line that does not say so: free text, no
 * recipient, a status that says nothing of the message's fate (sent) or
 * is of the receiving side.
 */
static struct smtpcode_text failure_words(const struct smtpcode_logline *l)
{
	struct smtpcode_text none = {NULL, 0};
	enum smtpcode_log_side side;

	if (l->format <= SMTPCODE_LOG_TEXT || !l->recipient.len ||
	    smtpcode_report_of(l->status.s, l->status.len) ==
	        SMTPCODE_REPORT_UNSAID)
		return none;
	side = smtpcode_status_side(l->status.s, l->status.len);
	if (side == SMTPCODE_SIDE_REJECT || side == SMTPCODE_SIDE_AUTH)
		return none;
	return l->reply;
}

/*
 * A line of a known layout without a code whose words tell a reason:
 * its record rests on them, as a pasted text's lookup does (the one
 * judgement, smtpcode_judge()): a provider's entry that its phrase picks,
 * else the reason, whose verdict a final report (status=bounced) takes.
 * False when the line gives none.  Not inlined: such lines are few, and it is no
 * part of the way of the lines with a code.
 */
static NOINLINE bool words_record(struct log_ctx *c, const char *line,
                                  size_t len, unsigned long lineno)
{
	struct smtpcode_text t = failure_words(&c->line);
	enum record_format format =
	    c->o->mode == LOG_ANNOTATE ? RECORD_TEXT : c->o->format;
	struct smtpcode_evidence ev = evidence_of(c, &c->line, t);
	struct row w;

	if (!t.len)
		return false;
	judge(&ev, &c->own);
	if (!c->own.verdict_from)
		return false;
	set_origin(c, lineno, format);
	c->origin.reply = t;
	c->origin.verdict_from = smtpcode_decider_name(c->own.verdict_from);
	c->origin.reason_phrase = c->own.wording.phrase;
	if (c->selecting) {
		select_record(c, line, len, &c->own);
		return true;
	}
	c->selected++;
	if (one_value(c->o)) {
		field_record(c, &c->own);
		return true;
	}
	row_of_judgement(&w, &c->own, NULL);
	w.origin = &c->origin;
	if (c->o->mode == LOG_ANNOTATE)
		render_annotation(line, len, &w);
	else
		render_record(format, &w);
	return true;
}

/* Whether the filters sel select the record of line l (--summary's
 * lines, which are counted, not resolved, else). */
static NOINLINE bool line_selected(const struct selection *sel,
                                   const struct smtpcode_logline *l)
{
	struct smtpcode_evidence ev = {.reply = l->reply, .reply_code = &l->code,
	    .status = &l->dsn_code, .stage = l->stage,
	    .report = smtpcode_report_of(l->status.s, l->status.len)};
	struct smtpcode_judgement j;
	struct row w;

	judge(&ev, &j);
	row_verdict(&w, &j, NULL);
	return selection_pass(sel, &w, l->domain);
}

/*
 * Event streams: JSON events of mail services, a line each, and CSV logs
 * (smtpcode_stream_parse()).  A CSV file's header line, among its first
 * CSV_HEAD_LINES, sets the layout of the lines after it: a file read on
 * several threads has it found in its first block, before the block is
 * cut, and each slice carries it (struct job); on one thread, as the
 * lines come.  Other lines pay a byte's test.
 */
#define CSV_HEAD_LINES 16

/* What a line's records go to: a summary (of those sel selects), or c's
 * records. */
struct stream_ctx {
	struct summary *summary;
	const struct selection *sel;
	struct log_ctx *c;
	const char *line;
	size_t len;
	unsigned long lineno;
	bool shown; /* a record was written */
};

static void stream_record(void *ctx, const struct smtpcode_logline *l,
                          const char *dialect)
{
	struct stream_ctx *k = ctx;
	bool found = l->code.basic || l->code.enhanced || l->dsn_code.basic ||
	             l->dsn_code.enhanced;

	(void)dialect;
	if (k->summary) {
		struct summary_line sl = {l->recipient, l->domain, l->status,
		                          l->relay, l->reply};
		if (found && k->sel && !line_selected(k->sel, l))
			sl = (struct summary_line){0}, found = false;
		summary_add(k->summary, found ? chosen(l) : NULL, &sl);
	} else if (found) {
		k->c->line = *l;
		record(k->c, k->line, k->len, k->lineno);
		k->shown = true;
	}
}

static inline bool may_stream(const struct smtpcode_csv_layout *layout,
                              const char *line, size_t len,
                              unsigned long lineno)
{
	return layout->kind || lineno <= CSV_HEAD_LINES ||
	       (len && (line[0] == '{' || line[0] == '['));
}

/* Whether line is an event stream's (its records made), or a CSV header
 * (then *layout is set).  Not inlined, for the same reason as
 * resolve_anew(). */
static NOINLINE bool stream_line(struct summary *summary,
                                 const struct selection *sel,
                                 struct log_ctx *c,
                                 struct smtpcode_csv_layout *layout,
                                 const char *line, size_t len,
                                 unsigned long lineno)
{
	struct stream_ctx k = {summary, sel, c, line, len, lineno, false};
	int n = 0;

	if ((layout->kind || !smtpcode_csv_header(line, len, layout)) &&
	    (n = smtpcode_stream_parse(line, len, layout, stream_record, &k)) < 0)
		return false;
	if (summary && !n) /* a line read, as a log line without a code */
		summary_add(summary, NULL, &(struct summary_line){0});
	if (c && !k.shown && c->o->mode == LOG_ANNOTATE && !c->selecting)
		render_annotation(line, len, NULL);
	return true;
}

/* One line into summary, after the CSV header *layout: inlined in the
 * line_fn of the workers (a call more per line cost --summary 15%). */
static ALWAYS_INLINE void summarise_in(struct summary *s,
                                  const struct selection *sel,
                                  struct smtpcode_csv_layout *layout,
                                  const char *line, size_t len,
                                  unsigned long lineno)
{
	struct smtpcode_logline l;
	bool found;

	if (may_stream(layout, line, len, lineno) &&
	    stream_line(s, sel, NULL, layout, line, len, lineno))
		return;
	found = smtpcode_log_parse(line, len, &l);
	if (sel && found && !line_selected(sel, &l)) {
		summary_add(s, NULL, &(struct summary_line){0});
		return;
	}
	summary_add(s, found ? chosen(&l) : NULL,
	            &(struct summary_line){l.recipient, l.domain, l.status,
	                                   l.relay, l.reply});
}

/* A summarising worker's line_fn context. */
struct sum_ctx {
	struct summary *summary;
	const struct selection *sel;
	struct smtpcode_csv_layout layout;
};

/* One line into a summary (a line_fn, ctx a struct sum_ctx).  Not
 * inlined in each(), for the same reason as resolve_anew(). */
static NOINLINE void summarise(void *ctx, const char *line, size_t len,
                               unsigned long lineno)
{
	struct sum_ctx *k = ctx;
	summarise_in(k->summary, k->sel, &k->layout, line, len, lineno);
}

/* summarise_in() for this thread's context, out of each(), for the same
 * reason as resolve_anew(). */
static NOINLINE void summarise_one(struct log_ctx *c, const char *line,
                                   size_t len, unsigned long lineno)
{
	summarise_in(c->summary, c->o->choice.sel, &c->layout, line, len,
	             lineno);
}

static void each(void *ctx, const char *line, size_t len, unsigned long lineno)
{
	struct log_ctx *c = ctx;

	if (c->o->mode == LOG_SUMMARY)
		summarise_one(c, line, len, lineno);
	else if (may_stream(&c->layout, line, len, lineno) &&
	         stream_line(NULL, NULL, c, &c->layout, line, len, lineno))
		return;
	else if (smtpcode_log_parse(line, len, &c->line))
		record(c, line, len, lineno);
	else if (c->line.format > SMTPCODE_LOG_TEXT &&
	         words_record(c, line, len, lineno))
		; /* a record by its words */
	else if (c->o->mode == LOG_ANNOTATE && !c->selecting)
		render_annotation(line, len, NULL);
}

/*
 * The log modes on several cores.  The main thread reads blocks of whole
 * lines (input.h) into a few buffers and cuts each into slices of lines;
 * workers take the slices in the order they were cut.  For --summary each
 * worker counts into a summary of its own, and the summaries are merged
 * at the end: the counts do not depend on which worker saw which line.
 * For --extract and --annotate each worker renders a slice's output into
 * a capture of fixed size, with caches of its own, and the output is
 * written in the order of the slices: the same as from one thread.
 *
 * Memory stays flat whatever the lines, the file names and the number of
 * workers: NBUFFERS blocks however many workers there are (their jobs are
 * slices of a block, not blocks), and a capture per worker and two more,
 * which share CAPTURES_SIZE bytes, all taken at the start, none grown.  A capture full before its slice
 * is done is written out then if its slice is the next to be written,
 * else when it becomes so (drain(): its worker waits), and the worker
 * goes on into the emptied capture: a slice whose output is large (a long
 * file name repeated in every record, JSON of short lines) is written in
 * pieces, in order.
 *
 * A slice's size follows the output its lines made lately (slice_size()),
 * so that slices whose output fits a capture are as long as they may be:
 * a slice costs a few locks and a write.  Its first line's number comes
 * from counting the lines of the slices before it in its block (only for
 * --extract, which shows the numbers).
 *
 * Who writes: the worker that finishes the slice next in order writes its
 * capture, then those of the slices after it that are done, until one is
 * not; a slice done out of order leaves its capture ready for that.  So
 * output goes out as soon as it may, without a thread to wake for it.
 *
 * No deadlock: a slice is taken together with a free capture, both in the
 * order the slices were cut, so the slice next to be written always has
 * its capture, in the hands of a worker that does not wait for its turn
 * (it has it), or ready for the worker that makes it next.
 */
#define MAX_WORKERS LOG_MAX_WORKERS
#define WORKER_STACK ((size_t)8 << 20)
#define NBUFFERS 2                  /* one read while one is worked on */
/* The captures' bytes, shared by as many as there are: 128 KiB each for
 * two workers, less for more, so that memory does not grow with them. */
#define CAPTURES_SIZE ((size_t)512 << 10)
/* A buffer's room in the pool: whole pages (of any size up to 64 KiB),
 * so that each buffer starts on a page of its own. */
#define PAGE_ROUND ((size_t)64 << 10)
#define BUFFER_STRIDE ((BLOCK_SIZE + PAGE_ROUND - 1) & ~(PAGE_ROUND - 1))
/* A worker's context in the pool, aligned as malloc() would. */
#define CTX_STRIDE ((sizeof(struct log_ctx) + 63) & ~(size_t)63)
#define NCAPTURES (MAX_WORKERS + 2) /* one a worker, and two done early */
/* A slice's lines: at least SLICE_MIN bytes (but the last of a block),
 * as many as should make half a capture of output (slice_size()). */
#define SLICE_MIN ((size_t)4 << 10)
#define SLICE_FIRST ((size_t)32 << 10) /* before any output is measured */
#define SLICE_MAX ((size_t)256 << 10)
#define MAX_SLICES (BLOCK_SIZE / SLICE_MIN + 1)
#define MAX_JOBS (NBUFFERS * MAX_SLICES)

struct job {
	struct block slice; /* lines of a block, numbered from slice.first */
	int buffer;         /* the block's */
	int capture;        /* where its output goes; -1 for --summary */
	const char *file;   /* as shown */
	unsigned long seq;  /* slices cut before it */
	struct smtpcode_csv_layout layout; /* its file's CSV header's */
};

enum capture_state { CAPTURE_FREE, CAPTURE_RENDERING, CAPTURE_READY,
                     CAPTURE_WRITING };

struct pool;

/* A slice's output, in the order the slices were cut. */
struct capture {
	struct out_capture out; /* first: drain() is given its address */
	struct pool *pool;
	enum capture_state state;
	unsigned long seq;      /* the slice it holds */
	size_t drained;         /* of its output, written before it was done */
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t buffer_free; /* for the reader */
	pthread_cond_t job_free;    /* slices queued, a capture freed, the end */
	pthread_cond_t turn;        /* slices written */
	char *memory;               /* the buffers' and the captures' */
	size_t size;                /* of memory */
	size_t capture_size;        /* of each capture */
	bool huge;                  /* memory in huge pages (pages.c) */
	char *contexts;             /* the workers', CTX_STRIDE bytes each */
	char *buffers[NBUFFERS];
	int slices_left[NBUFFERS];  /* of its block: not yet worked on */
	bool busy[NBUFFERS];
	bool numbered;              /* slices need their first line's number */
	const struct selection *sel; /* --summary's filters */
	struct capture captures[NCAPTURES];
	int ncaptures;              /* 0 for --summary */
	struct job queue[MAX_JOBS]; /* cut, not yet taken */
	size_t head, queued;
	bool closed;                /* nothing more to read */
	unsigned long ncut;         /* slices queued so far */
	unsigned long nwritten;     /* slices whose output is written */
	uint64_t bytes_in, bytes_out; /* of the slices done lately */
};

struct worker {
	pthread_t thread;
	struct pool *pool;
	struct summary *summary; /* --summary */
	struct sum_ctx sum;      /* its lines' context */
	struct log_ctx *ctx;     /* the other modes */
};

/* The capture in state st holding slice seq (any, for CAPTURE_FREE), or
 * NULL. */
static struct capture *capture_in(struct pool *p, enum capture_state st,
                                  unsigned long seq)
{
	for (int i = 0; i < p->ncaptures; i++)
		if (p->captures[i].state == st &&
		    (st == CAPTURE_FREE || p->captures[i].seq == seq))
			return &p->captures[i];
	return NULL;
}

/* The next slice, with a capture for its output unless the pool keeps
 * none; false when there are no more slices. */
static bool take_job(struct pool *p, struct job *j)
{
	struct capture *c = NULL;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		if (p->queued &&
		    (!p->ncaptures || (c = capture_in(p, CAPTURE_FREE, 0)) != NULL))
			break;
		if (!p->queued && p->closed) {
			pthread_mutex_unlock(&p->lock);
			return false;
		}
		pthread_cond_wait(&p->job_free, &p->lock);
	}
	*j = p->queue[p->head];
	p->head = (p->head + 1) % MAX_JOBS;
	p->queued--;
	j->capture = c ? (int)(c - p->captures) : -1;
	if (c) {
		c->state = CAPTURE_RENDERING;
		c->seq = j->seq;
		c->drained = 0;
	}
	pthread_mutex_unlock(&p->lock);
	return true;
}

/* With the lock held: the captures of the slices done, from the next one
 * to be written on, written out in order (the lock let go meanwhile). */
static void write_ready(struct pool *p)
{
	struct capture *c;
	unsigned long from = p->nwritten;

	while ((c = capture_in(p, CAPTURE_READY, p->nwritten)) != NULL) {
		c->state = CAPTURE_WRITING;
		pthread_mutex_unlock(&p->lock);
		out_capture_write(&c->out);
		pthread_mutex_lock(&p->lock);
		c->state = CAPTURE_FREE;
		p->nwritten++;
	}
	if (p->nwritten != from) {
		pthread_cond_broadcast(&p->turn);
		pthread_cond_broadcast(&p->job_free);
	}
}

/* A capture full before its slice is done (out_capture's drain): written
 * out and emptied once its slice is the next to be written.  Until its
 * slice is done, nothing else is written: this worker has the turn. */
static void drain(struct out_capture *out)
{
	struct capture *c = (struct capture *)(void *)out;
	struct pool *p = c->pool;

	pthread_mutex_lock(&p->lock);
	while (p->nwritten != c->seq)
		pthread_cond_wait(&p->turn, &p->lock);
	pthread_mutex_unlock(&p->lock);
	out_capture_write(out);
	c->drained += out->len;
	out->len = 0;
}

/* Slice j done: its block's buffer freed when it was the last of it, its
 * output ready to be written. */
static void job_done(struct pool *p, const struct job *j)
{
	pthread_mutex_lock(&p->lock);
	if (--p->slices_left[j->buffer] == 0) {
		p->busy[j->buffer] = false;
		pthread_cond_signal(&p->buffer_free);
	}
	if (j->capture >= 0) {
		struct capture *c = &p->captures[j->capture];
		c->state = CAPTURE_READY;
		p->bytes_in += j->slice.len;
		p->bytes_out += c->drained + c->out.len;
		if (p->bytes_in > (uint64_t)64 << 20) { /* what came lately counts */
			p->bytes_in /= 2;
			p->bytes_out /= 2;
		}
		write_ready(p);
	}
	pthread_mutex_unlock(&p->lock);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;
	struct job j;

	while (take_job(p, &j)) {
		if (w->summary) {
			w->sum.summary = w->summary;
			w->sum.sel = p->sel;
			w->sum.layout = j.layout;
			each_line_in(&j.slice, summarise, &w->sum);
		} else {
			w->ctx->file = j.file;
			w->ctx->layout = j.layout;
			out_capture_begin(&p->captures[j.capture].out);
			each_line_in(&j.slice, each, w->ctx);
			out_capture_end();
		}
		job_done(p, &j);
	}
	return NULL;
}

/* A free buffer of the pool, now taken. */
static int take_buffer(struct pool *p)
{
	int i;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		for (i = 0; i < NBUFFERS && p->busy[i]; i++)
			;
		if (i < NBUFFERS)
			break;
		pthread_cond_wait(&p->buffer_free, &p->lock);
	}
	p->busy[i] = true;
	pthread_mutex_unlock(&p->lock);
	return i;
}


/*
 * The bytes of log a slice takes: as many as made half a capture of
 * output in the slices done lately (4 KiB to 256 KiB), so that a slice's
 * output mostly fits its capture whatever the format and the lines.  For
 * --summary, which writes nothing, the most.
 */
static size_t slice_size(const struct pool *p)
{
	uint64_t size;

	if (!p->ncaptures)
		return SLICE_MAX;
	if (!p->bytes_out)
		return p->bytes_in ? SLICE_MAX : SLICE_FIRST;
	size = p->capture_size / 2 * p->bytes_in / p->bytes_out;
	return size < SLICE_MIN ? SLICE_MIN : size > SLICE_MAX ? SLICE_MAX
	                                                       : (size_t)size;
}

/* Block b cut into slices of at least size bytes at line ends, into
 * s[0..MAX_SLICES); how many.  Only where they are shown are the lines
 * counted, for the number of each slice's first. */
static int cut(const struct block *b, size_t size, bool numbered,
               struct job *s)
{
	const char *at = b->text, *end = b->text + b->len;
	unsigned long first = b->first;
	int n = 0;

	while (at < end) {
		const char *nl = (size_t)(end - at) > size
		                     ? scan_byte(at + size - 1, end, '\n')
		                     : NULL;
		const char *stop = nl ? nl + 1 : end;
		s[n].slice = (struct block){at, (size_t)(stop - at), first};
		if (numbered && stop < end)
			first += count_newlines(at, stop);
		n++;
		at = stop;
	}
	return n;
}

/* Block b of file, read into buffer i, cut into slices for the workers;
 * or (b NULL) buffer i back. */
static void hand_over(struct pool *p, int i, const struct block *b,
                      const char *file,
                      const struct smtpcode_csv_layout *layout)
{
	struct job slices[MAX_SLICES];
	size_t size;
	int n = 0;

	pthread_mutex_lock(&p->lock);
	size = slice_size(p);
	pthread_mutex_unlock(&p->lock);
	if (b)
		n = cut(b, size, p->numbered, slices);
	pthread_mutex_lock(&p->lock);
	for (int k = 0; k < n; k++) {
		struct job *j = &p->queue[(p->head + p->queued++) % MAX_JOBS];
		*j = slices[k];
		j->buffer = i;
		j->file = file;
		j->seq = p->ncut++;
		j->layout = *layout;
	}
	p->slices_left[i] = n;
	p->busy[i] = n > 0;
	if (n)
		pthread_cond_broadcast(&p->job_free);
	pthread_mutex_unlock(&p->lock);
}

/* The CSV header among the first lines of a file's first block, b. */
static void find_csv_header(const struct block *b,
                            struct smtpcode_csv_layout *layout)
{
	const char *at = b->text, *end = b->text + b->len;

	for (int n = 0; n < CSV_HEAD_LINES && at < end; n++) {
		const char *nl = scan_byte(at, end, '\n');
		const char *stop = nl ? nl : end;
		if (smtpcode_csv_header(at, (size_t)(stop - at), layout) || !nl)
			return;
		at = nl + 1;
	}
}

/* Read each file into the pool; 0, or -1 when one could not be read. */
static int read_into(struct pool *p, int nfiles, char **files)
{
	int status = 0;
	for (int f = 0; f < nfiles; f++) {
		struct reader *r = reader_open(files[f]);
		struct block b;
		if (!r) {
			status = -1;
			continue;
		}
		struct smtpcode_csv_layout layout = {0};
		for (bool first = true;; first = false) {
			int i = take_buffer(p);
			if (reader_next(r, p->buffers[i], &b) <= 0) {
				hand_over(p, i, NULL, NULL, &layout);
				break;
			}
			if (first)
				find_csv_header(&b, &layout);
			hand_over(p, i, &b, display_name(files[f]), &layout);
		}
		if (reader_close(r) != 0)
			status = -1; /* reported; the other files still count */
	}
	return status;
}

/* Workers for the cores there are (or as many as asked), or 0 when one
 * thread is as good. */
static int workers_wanted(const struct log_options *o)
{
	long n = o->workers ? o->workers : sysconf(_SC_NPROCESSORS_ONLN);
	if (o->choice.supp) /* one list of addresses, filled in order */
		return 0;
	return n < 2 ? 0 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

/* The bytes the regular files among files hold (standard input and
 * pipes count nothing): what decides HUGE_FROM. */
static uint64_t input_size(int nfiles, char **files)
{
	uint64_t n = 0;
	struct stat st;
	for (int i = 0; i < nfiles; i++)
		if ((strcmp(files[i], "-") == 0 ? fstat(STDIN_FILENO, &st)
		                                : stat(files[i], &st)) == 0 &&
		    S_ISREG(st.st_mode))
			n += (uint64_t)st.st_size;
	return n;
}

/* Worker w set up for c's mode, with the context ctx (NULL for
 * --summary); false when memory ran out. */
static bool worker_init(struct worker *w, struct pool *p,
                        const struct log_ctx *c, struct log_ctx *ctx)
{
	memset(w, 0, sizeof *w);
	w->pool = p;
	if (c->summary)
		return (w->summary = summary_new(c->o->provider)) != NULL;
	w->ctx = ctx;
	w->ctx->o = c->o;
	w->ctx->selecting = c->selecting;
	return true;
}

/* Worker w's summary merged into c's, and its memory freed. */
static void worker_finish(struct worker *w, struct log_ctx *c)
{
	if (w->summary) {
		summary_merge(c->summary, w->summary);
		summary_free(w->summary);
	}
	if (w->ctx)
		c->selected += w->ctx->selected;
}

/* The pool's locks: false when they could not be had (never on Linux,
 * where they take no memory). */
static bool locks_init(struct pool *p)
{
	if (pthread_mutex_init(&p->lock, NULL) != 0)
		return false;
	if (pthread_cond_init(&p->buffer_free, NULL) == 0) {
		if (pthread_cond_init(&p->job_free, NULL) == 0) {
			if (pthread_cond_init(&p->turn, NULL) == 0)
				return true;
			pthread_cond_destroy(&p->job_free);
		}
		pthread_cond_destroy(&p->buffer_free);
	}
	pthread_mutex_destroy(&p->lock);
	return false;
}

/* The pool's memory for nworkers in c's mode, all of it taken now, in
 * one piece (pages.c; huge pages when huge): its blocks, its captures,
 * then the workers' contexts; false when it could not be had. */
static bool pool_init(struct pool *p, const struct log_ctx *c, int nworkers,
                      bool huge)
{
	int ncaptures = c->summary ? 0 : nworkers + 2;
	size_t nctx = c->summary ? 0 : (size_t)nworkers;
	char *at;

	if (ncaptures > NCAPTURES)
		ncaptures = NCAPTURES;
	p->numbered = c->o->mode == LOG_EXTRACT;
	p->sel = c->o->choice.sel;
	p->capture_size = ncaptures ? CAPTURES_SIZE / (size_t)ncaptures & ~(size_t)63
	                            : 0;
	p->huge = huge;
	p->size = NBUFFERS * BUFFER_STRIDE + (size_t)ncaptures * p->capture_size +
	          nctx * CTX_STRIDE;
	if (!(at = p->memory = pages_get(p->size, huge)))
		return false;
	for (int i = 0; i < NBUFFERS; i++, at += BUFFER_STRIDE)
		p->buffers[i] = at;
	for (; p->ncaptures < ncaptures; at += p->capture_size) {
		struct capture *k = &p->captures[p->ncaptures++];
		k->pool = p;
		k->out.drain = drain;
		k->out.text = at;
		k->out.size = p->capture_size;
	}
	p->contexts = at;
	return true;
}

/* Worker i's context in the pool, or NULL for --summary. */
static struct log_ctx *pool_context(const struct pool *p,
                                    const struct log_ctx *c, int i)
{
	return c->summary ? NULL
	                  : (struct log_ctx *)(void *)(p->contexts +
	                                               (size_t)i * CTX_STRIDE);
}

static void pool_free(struct pool *p)
{
	pages_put(p->memory, p->size, p->huge);
	pthread_cond_destroy(&p->turn);
	pthread_cond_destroy(&p->job_free);
	pthread_cond_destroy(&p->buffer_free);
	pthread_mutex_destroy(&p->lock);
}

/*
 * The files read by nworkers threads, for c's mode; 0, -1 when a file
 * could not be read, -2 when the threads or their memory could not be
 * had (then nothing was read, and one thread does it all).
 */
static int read_in_parallel(struct log_ctx *c, int nworkers, int nfiles,
                            char **files, bool huge)
{
	struct worker w[MAX_WORKERS];
	pthread_attr_t attr;
	struct pool p;
	int started = 0, status = -2;

	memset(&p, 0, sizeof p);
	if (!locks_init(&p))
		return -2;
	if (!pool_init(&p, c, nworkers, huge))
		goto out;
	/* Stacks as large as the main thread's are elsewhere: musl's
	 * default (128 KiB) is not glibc's (8 MiB). */
	if (pthread_attr_init(&attr) != 0)
		goto out;
	pthread_attr_setstacksize(&attr, WORKER_STACK);
	for (; started < nworkers; started++) {
		if (!worker_init(&w[started], &p, c,
		                 pool_context(&p, c, started)) ||
		    pthread_create(&w[started].thread, &attr, work, &w[started]) != 0) {
			worker_finish(&w[started], c);
			break;
		}
	}
	pthread_attr_destroy(&attr);
	if (started < nworkers)
		goto out;
	if (p.ncaptures)
		out_grow_pipe();
	status = read_into(&p, nfiles, files);
out:
	pthread_mutex_lock(&p.lock);
	p.closed = true;
	pthread_cond_broadcast(&p.job_free);
	pthread_mutex_unlock(&p.lock);
	for (int i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		worker_finish(&w[i], c);
	}
	pool_free(&p);
	return status;
}

/*
 * The files read on this thread into c, or for large inputs into a
 * context and a buffer of their own in huge pages (pages.c), as the
 * workers' are.  0, or -1 when a file could not be read.
 */
static int read_here(struct log_ctx *c, int nfiles, char **files, bool huge)
{
	static char buffer[BLOCK_SIZE];
	size_t size = BUFFER_STRIDE + sizeof *c;
	char *memory = huge ? pages_get(size, true) : NULL;
	char *buf = memory ? memory : buffer;
	struct log_ctx *ctx = c;
	int status = 0;

	if (memory) {
		ctx = (struct log_ctx *)(void *)(memory + BUFFER_STRIDE);
		ctx->o = c->o;
		ctx->summary = c->summary;
		ctx->selecting = c->selecting;
	}
	for (int i = 0; i < nfiles; i++) {
		ctx->file = display_name(files[i]);
		ctx->layout = (struct smtpcode_csv_layout){0};
		if (each_line(files[i], buf, each, ctx) != 0)
			status = -1; /* reported; the others still count */
	}
	if (memory) {
		c->selected += ctx->selected;
		pages_put(memory, size, true);
	}
	return status;
}

int read_logs(const struct log_options *o, int nfiles, char **files,
              unsigned long *selected)
{
	static char *stdin_only[] = {"-"};
	/* Large for the stack; zero, and untouched where the workers do
	 * the work (clearing it cost a millisecond: its pages' first touch). */
	static struct log_ctx c;
	int status = -2, nworkers;
	bool huge;

	c.o = o;
	c.selecting = choosing(&o->choice);
	c.selected = 0;
	if (nfiles == 0) {
		nfiles = 1;
		files = stdin_only;
	}
	if (o->mode == LOG_SUMMARY && !(c.summary = summary_new(o->provider))) {
		out_no_memory();
		return -1;
	}
	huge = input_size(nfiles, files) >= HUGE_FROM;
	if ((nworkers = workers_wanted(o)) > 0)
		status = read_in_parallel(&c, nworkers, nfiles, files, huge);
	if (status == -2) /* on this thread */
		status = read_here(&c, nfiles, files, huge);
	*selected = c.selected;
	if (c.summary) {
		*selected = summary_known(c.summary);
		if (*selected && o->choice.quiet)
			records_found_quietly();
		if (!o->choice.quiet)
			summary_render(c.summary, o->format == RECORD_JSON);
		summary_free(c.summary);
	}
	return status;
}
