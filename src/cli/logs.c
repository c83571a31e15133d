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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash.h"
#include "input.h"
#include "logs.h"
#include "output.h"
#include "render.h"
#include "scan.h"
#include "summary.h"

#define RESOLVED_SLOTS 256 /* a power of two */
#define RESOLVED_MAX 512   /* longer replies are resolved each time */
#define VERDICT_SLOTS 64   /* a power of two */
#define VERDICT_MAX 2048   /* longer verdicts are rendered each time */
#define DOMAIN_SLOTS 64    /* a power of two */
#define DOMAIN_MAX 64      /* longer domains are looked at each time */
#define LAST_BITS 8        /* slots remembered by codes and length */

/* A reply and its codes, resolved. */
struct resolved {
	unsigned char state; /* enum slot_state */
	struct smtpcode_query q;
	size_t len;
	char reply[RESOLVED_MAX];
	struct smtpcode_result r;
	const struct verdict *verdict; /* its verdict's slot, when there */
	unsigned long stamp; /* and that slot's stamp still: 0 none */
};

/* A verdict, rendered in the run's format. */
struct verdict {
	unsigned char state;         /* enum slot_state */
	unsigned long stamp;         /* new each time the slot is filled */
	struct smtpcode_query codes; /* only the codes: no text */
	struct smtpcode_match match; /* without its count of candidates */
	enum smtpcode_report report; /* what the line said of the message */
	char code[32];               /* as row_of_result() writes it */
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
	struct smtpcode_result own; /* a reply too long to keep, resolved */
};

static const char *display_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

/* The code a line's verdict rests on: the reply's, else the dsn= field. */
static const struct smtpcode_query *chosen(const struct smtpcode_logline *l)
{
	return l->code.enhanced || l->code.basic ? &l->code : &l->dsn_code;
}

/* Which code that is, as JSON's verdict_from says. */
static const char *chosen_from(const struct smtpcode_logline *l)
{
	if (l->code.enhanced || l->code.basic)
		return l->code.enhanced ? "reply" : "reply basic code";
	return "dsn";
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

static struct reply_key key_of(struct log_ctx *c,
                               const struct smtpcode_query *q,
                               struct smtpcode_text reply,
                               struct smtpcode_text rcpt)
{
	struct reply_key k = {reply, {NULL, 0}, *q};
	const char *p = reply.s, *end, *at;

	if (!rcpt.len || !reply.len) /* reply.s may be NULL then */
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
	       same_query(&s->q, &k->q) &&
	       scan_same(s->reply, k->head.s, k->head.len) &&
	       scan_same(s->reply + k->head.len, k->tail.s, k->tail.len);
}

/* resolve() for a reply not in the cache, of hash h, keyed k: not
 * inlined, as its locals' addresses, given away, would cost each() a
 * stack protector's check. */
static NOINLINE struct resolved *resolve_anew(struct log_ctx *c,
                                              const struct smtpcode_query *q,
                                              struct smtpcode_text reply,
                                              struct reply_key k, uint64_t h)
{
	size_t len = k.head.len + k.tail.len;
	struct resolved *s;
	unsigned char state[WAYS];

	smtpcode_resolve(q, reply.s, reply.len, c->o->provider, &c->own);
	if (len > RESOLVED_MAX)
		return NULL;
	for (size_t i = 0; i < WAYS; i++)
		state[i] = c->resolved[way(h, i, RESOLVED_SLOTS)].state;
	s = &c->resolved[way(h, victim(h, state), RESOLVED_SLOTS)];
	s->state = SLOT_NEW;
	s->q = k.q;
	s->len = len;
	if (k.head.len)
		memcpy(s->reply, k.head.s, k.head.len);
	if (k.tail.len)
		memcpy(s->reply + k.head.len, k.tail.s, k.tail.len);
	s->r = c->own;
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
	    same_query(&s->q, q) && scan_same(s->reply, reply.s, reply.len))
		return s;
	k = key_of(c, q, reply, rcpt);
	len = k.head.len + k.tail.len;
	if (k.tail.s) {
		last = &c->last[last_place(q, len)];
		s = &c->resolved[*last];
		if (s->state == SLOT_REUSED && same_reply(s, &k))
			return s;
	}
	h = mix(hash_bytes(hash_bytes(codes_hash(q) ^ q->text_off, k.head.s,
	                              k.head.len),
	                   k.tail.s, k.tail.len));
	for (size_t i = 0; i < WAYS; i++)
		if (same_reply(s = &c->resolved[way(h, i, RESOLVED_SLOTS)], &k)) {
			s->state = SLOT_REUSED;
			*last = (unsigned short)(s - c->resolved);
			return s;
		}
	return resolve_anew(c, q, reply, k, h);
}

/* The key of r's verdict: its codes and how the provider's entry was
 * picked, zeroed around them so that keys compare whole. */
static void verdict_key(const struct smtpcode_result *r,
                        struct smtpcode_query *codes,
                        struct smtpcode_match *m)
{
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
           const struct smtpcode_result *r, enum smtpcode_report report)
{
	struct smtpcode_query codes;
	struct smtpcode_match m;
	struct verdict *v;
	unsigned char state[WAYS];
	struct sink k;
	struct row w;
	uint64_t h;

	verdict_key(r, &codes, &m);
	h = codes_hash(&codes) ^ (uint64_t)m.how << 1 ^ (uint64_t)m.given ^
	    (uint64_t)report << 5;
	h = pointer_hash(h, m.entry);
	h = pointer_hash(h, m.phrase);
	h = pointer_hash(h, m.provider);
	h = pointer_hash(h, m.marker);
	for (size_t i = 0; i < WAYS; i++) {
		v = &c->verdicts[way(h, i, VERDICT_SLOTS)];
		if (v->state != SLOT_FREE && same_query(&v->codes, &codes) &&
		    same_match(&v->match, &m) && v->report == report) {
			v->state = SLOT_REUSED;
			return v;
		}
	}
	for (size_t i = 0; i < WAYS; i++)
		state[i] = c->verdicts[way(h, i, VERDICT_SLOTS)].state;
	v = &c->verdicts[way(h, victim(h, state), VERDICT_SLOTS)];
	v->stamp = 0; /* what points to the slot's old verdict no longer may */
	row_of_result(&w, r, NULL, report);
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
	v->report = report;
	memcpy(v->code, w.code, sizeof v->code);
	v->shown = (struct rendered){v->code, strlen(v->code), v->text, k.len};
	return v;
}

/* The origin of the record of c->line, whole (only JSON shows the codes
 * as seen). */
static void set_origin(struct log_ctx *c, unsigned long lineno,
                       enum record_format format)
{
	const struct smtpcode_logline *l = &c->line;
	struct origin *o = &c->origin;

	o->file = c->file;
	o->line = lineno;
	o->index = -1;
	o->recipient = l->recipient;
	o->domain = l->domain;
	o->relay = l->relay;
	o->stage = l->stage;
	o->status = l->status;
	o->dsn = l->dsn;
	o->reply = l->reply;
	o->verdict_from = chosen_from(l);
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
                                  const struct smtpcode_result *r)
{
	struct row w;

	row_of_result(&w, r, NULL, c->origin.report);
	w.origin = &c->origin;
	if (c->o->mode == LOG_ANNOTATE)
		render_annotation(line, len, &w);
	else
		render_record(format, &w);
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
	struct resolved *s = resolve(c, chosen(l), l->reply, l->recipient);
	const struct smtpcode_result *r = s ? &s->r : &c->own;
	const struct verdict *v;

	set_origin(c, lineno, format);
	if (s && s->stamp && s->verdict->stamp == s->stamp &&
	    s->verdict->report == c->origin.report) {
		v = s->verdict; /* this reply's, as last time */
	} else if ((v = verdict_of(c, format, r, c->origin.report)) != NULL &&
	           s) {
		s->verdict = v;
		s->stamp = v->stamp;
	}
	if (!v)
		record_whole(c, line, len, format, r);
	else if (mode == LOG_ANNOTATE)
		render_annotation_with(line, len, &c->origin, &v->shown);
	else
		render_record_with(format, &c->origin, &v->shown);
}

/* One line into a summary (a line_fn, ctx the summary).  Not inlined in
 * each(), for the same reason as resolve_anew(). */
static NOINLINE void summarise(void *ctx, const char *line, size_t len,
                               unsigned long lineno)
{
	struct summary *s = ctx;
	struct smtpcode_logline l;
	bool found = smtpcode_log_parse(line, len, &l);

	(void)lineno;
	summary_add(s, found ? chosen(&l) : NULL, l.recipient, l.domain,
	            l.status);
}

static void each(void *ctx, const char *line, size_t len, unsigned long lineno)
{
	struct log_ctx *c = ctx;

	if (c->o->mode == LOG_SUMMARY)
		summarise(c->summary, line, len, lineno);
	else if (smtpcode_log_parse(line, len, &c->line))
		record(c, line, len, lineno);
	else if (c->o->mode == LOG_ANNOTATE)
		render_annotation(line, len, NULL);
}

/*
 * The log modes on several cores.  The main thread reads blocks of whole
 * lines (input.h) into a pool of buffers; workers take the blocks in the
 * order they were read.  For --summary each worker counts into a summary
 * of its own, and the summaries are merged at the end: the counts do not
 * depend on which worker saw which line.  For --extract and --annotate
 * each worker renders a block's output into memory (a capture of the
 * pool's), with caches of its own, and a writer thread writes the
 * captures in the order the blocks were read: the output is the same as
 * from one thread, and a worker goes on to the next block while its
 * output waits for the reader at the other end of a pipe.
 *
 * No deadlock: a block is taken together with a free capture, both in
 * the order the blocks were read, so the oldest block whose output is
 * not yet written always has its capture, in some worker's hands or
 * ready for the writer.
 */
#define MAX_WORKERS 4
#define WORKER_STACK ((size_t)8 << 20)
#define NBUFFERS (2 * MAX_WORKERS)

struct job {
	struct block block;
	int buffer;
	int capture;       /* where its output goes; -1 for --summary */
	const char *file;  /* as shown */
	unsigned long seq; /* blocks read before it */
};

enum capture_state { CAPTURE_FREE, CAPTURE_RENDERING, CAPTURE_READY };

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t changed; /* a block queued, a buffer or capture freed, an
	                           output ready or written, the end */
	char *buffers[NBUFFERS];
	bool busy[NBUFFERS];
	int nbuffers;
	struct out_capture captures[NBUFFERS];
	enum capture_state state[NBUFFERS];
	unsigned long capture_seq[NBUFFERS]; /* the block a ready one holds */
	int ncaptures;                        /* 0 for --summary */
	struct job queue[NBUFFERS];           /* read, not yet taken */
	int head, queued;
	bool closed;                /* nothing more to read */
	unsigned long nread;        /* blocks queued so far */
	unsigned long nwritten;     /* blocks whose output is written */
};

struct worker {
	pthread_t thread;
	struct pool *pool;
	struct summary *summary; /* --summary */
	struct log_ctx *ctx;     /* the other modes */
};

/* The first capture in state st (and, ready, holding block seq); -1. */
static int capture_in(const struct pool *p, enum capture_state st,
                      unsigned long seq)
{
	for (int i = 0; i < p->ncaptures; i++)
		if (p->state[i] == st &&
		    (st != CAPTURE_READY || p->capture_seq[i] == seq))
			return i;
	return -1;
}

/* The next block, with a capture for its output unless the pool keeps
 * none; false when there are no more blocks. */
static bool take_job(struct pool *p, struct job *j)
{
	int c = -1;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		if (p->queued &&
		    (!p->ncaptures || (c = capture_in(p, CAPTURE_FREE, 0)) >= 0))
			break;
		if (!p->queued && p->closed) {
			pthread_mutex_unlock(&p->lock);
			return false;
		}
		pthread_cond_wait(&p->changed, &p->lock);
	}
	*j = p->queue[p->head];
	p->head = (p->head + 1) % NBUFFERS;
	p->queued--;
	j->capture = c;
	if (c >= 0)
		p->state[c] = CAPTURE_RENDERING;
	pthread_mutex_unlock(&p->lock);
	return true;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;
	struct job j;

	while (take_job(p, &j)) {
		if (w->summary) {
			each_line_in(&j.block, summarise, w->summary);
		} else {
			w->ctx->file = j.file;
			out_capture_begin(&p->captures[j.capture]);
			each_line_in(&j.block, each, w->ctx);
			out_capture_end();
		}
		pthread_mutex_lock(&p->lock);
		p->busy[j.buffer] = false;
		if (j.capture >= 0) {
			p->state[j.capture] = CAPTURE_READY;
			p->capture_seq[j.capture] = j.seq;
		}
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* The writer: each block's output in turn, until all that was read is
 * written. */
static void *write_in_order(void *arg)
{
	struct pool *p = arg;
	int c;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		if ((c = capture_in(p, CAPTURE_READY, p->nwritten)) >= 0) {
			pthread_mutex_unlock(&p->lock);
			out_capture_write(&p->captures[c]);
			pthread_mutex_lock(&p->lock);
			p->state[c] = CAPTURE_FREE;
			p->nwritten++;
			pthread_cond_broadcast(&p->changed);
		} else if (p->closed && p->nwritten == p->nread) {
			break;
		} else {
			pthread_cond_wait(&p->changed, &p->lock);
		}
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* A free buffer of the pool, now taken. */
static int take_buffer(struct pool *p)
{
	int i;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		for (i = 0; i < p->nbuffers && p->busy[i]; i++)
			;
		if (i < p->nbuffers)
			break;
		pthread_cond_wait(&p->changed, &p->lock);
	}
	p->busy[i] = true;
	pthread_mutex_unlock(&p->lock);
	return i;
}

/* Block b of file, read into buffer i, for a worker; or (b NULL) buffer i
 * back. */
static void hand_over(struct pool *p, int i, const struct block *b,
                      const char *file)
{
	pthread_mutex_lock(&p->lock);
	if (b) {
		struct job *j = &p->queue[(p->head + p->queued) % NBUFFERS];
		j->block = *b;
		j->buffer = i;
		j->file = file;
		j->seq = p->nread++;
		p->queued++;
	} else {
		p->busy[i] = false;
	}
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
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
		for (;;) {
			int i = take_buffer(p);
			if (reader_next(r, p->buffers[i], &b) <= 0) {
				hand_over(p, i, NULL, NULL);
				break;
			}
			hand_over(p, i, &b, display_name(files[f]));
		}
		if (reader_close(r) != 0)
			status = -1; /* reported; the other files still count */
	}
	return status;
}

/* Workers for the cores there are, or 0 when one thread is as good. */
static int workers_wanted(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 2 ? 0 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

/* Worker w set up for c's mode; false when memory ran out. */
static bool worker_init(struct worker *w, struct pool *p,
                        const struct log_ctx *c)
{
	memset(w, 0, sizeof *w);
	w->pool = p;
	if (c->summary)
		return (w->summary = summary_new()) != NULL;
	if (!(w->ctx = calloc(1, sizeof *w->ctx)))
		return false;
	w->ctx->o = c->o;
	return true;
}

/* Worker w's summary merged into c's, and its memory freed. */
static void worker_finish(struct worker *w, struct log_ctx *c)
{
	if (w->summary) {
		summary_merge(c->summary, w->summary);
		summary_free(w->summary);
	}
	free(w->ctx);
}

/*
 * The files read by nworkers threads (and a writer, but for --summary),
 * for c's mode; 0, -1 when a file could not be read, -2 when the threads
 * could not be set up (then nothing was read).
 */
static int read_in_parallel(struct log_ctx *c, int nworkers, int nfiles,
                            char **files)
{
	struct worker w[MAX_WORKERS];
	pthread_attr_t attr;
	pthread_t writer;
	struct pool p;
	int started = 0, status = -2;
	bool writing = false;

	memset(&p, 0, sizeof p);
	p.nbuffers = 2 * nworkers;
	p.ncaptures = c->summary ? 0 : p.nbuffers;
	if (pthread_mutex_init(&p.lock, NULL) != 0)
		return -2;
	if (pthread_cond_init(&p.changed, NULL) != 0) {
		pthread_mutex_destroy(&p.lock);
		return -2;
	}
	for (int i = 0; i < p.nbuffers; i++)
		if (!(p.buffers[i] = malloc(BLOCK_SIZE)))
			goto out;
	/* Stacks as large as the main thread's are elsewhere: musl's
	 * default (128 KiB) is not glibc's (8 MiB). */
	if (pthread_attr_init(&attr) != 0)
		goto out;
	pthread_attr_setstacksize(&attr, WORKER_STACK);
	for (; started < nworkers; started++) {
		if (!worker_init(&w[started], &p, c) ||
		    pthread_create(&w[started].thread, &attr, work, &w[started]) != 0) {
			worker_finish(&w[started], c);
			break;
		}
	}
	if (started == nworkers && p.ncaptures)
		out_grow_pipe();
	writing = started == nworkers && p.ncaptures &&
	          pthread_create(&writer, &attr, write_in_order, &p) == 0;
	pthread_attr_destroy(&attr);
	if (started < nworkers || (p.ncaptures && !writing))
		goto out;
	status = read_into(&p, nfiles, files);
out:
	pthread_mutex_lock(&p.lock);
	p.closed = true;
	pthread_cond_broadcast(&p.changed);
	pthread_mutex_unlock(&p.lock);
	for (int i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		worker_finish(&w[i], c);
	}
	if (writing)
		pthread_join(writer, NULL);
	for (int i = 0; i < p.nbuffers; i++) {
		free(p.buffers[i]);
		out_capture_free(&p.captures[i]);
	}
	pthread_cond_destroy(&p.changed);
	pthread_mutex_destroy(&p.lock);
	return status;
}

int read_logs(const struct log_options *o, int nfiles, char **files)
{
	static char *stdin_only[] = {"-"};
	static struct log_ctx c; /* its caches are large for the stack */
	int status = -2, nworkers;

	memset(&c, 0, sizeof c);
	c.o = o;
	if (nfiles == 0) {
		nfiles = 1;
		files = stdin_only;
	}
	if (o->mode == LOG_SUMMARY && !(c.summary = summary_new()))
		return -1;
	if ((nworkers = workers_wanted()) > 0)
		status = read_in_parallel(&c, nworkers, nfiles, files);
	if (status == -2) { /* on this thread */
		status = 0;
		for (int i = 0; i < nfiles; i++) {
			c.file = display_name(files[i]);
			if (each_line(files[i], each, &c) != 0)
				status = -1; /* reported; the others still count */
		}
	}
	if (c.summary) {
		summary_render(c.summary, o->format == RECORD_JSON);
		summary_free(c.summary);
	}
	return status;
}
