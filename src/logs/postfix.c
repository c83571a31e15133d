/*
 * The Postfix dialect: delivery lines, "QID: to=<R>, relay=H, delay=D,
 * delays=A/B/C/D, dsn=X.Y.Z, status=WORD (DETAIL)", and the rejects of
 * smtpd, postscreen and cleanup, "NOQUEUE: reject: RCPT from C: REPLY;
 * from=<> to=<> proto= helo=<>".
 *
 * Sendmail writes its delivery lines in the same "to=<>, name=value, ..."
 * shape, closed by stat= rather than status=: the walk of the fields here
 * reads both, in one pass, and hands stat= to sendmail.c.  Reading the
 * fields twice, once per dialect, would cost every delivery line a second
 * walk for nothing.  The field names are those of data/logs/postfix.txt
 * and sendmail.txt (LOG_POSTFIX_* in dialect.h), written here as literals
 * so that each comparison is a constant load or two.
 */
#include "dialect.h"
#include "logscan.h"
#include "logvocab.h"

/* The names are used below through dialect.h's macros; the first-byte
 * switch of field_at(), the prefilter's ": to=" (logline.c) and the
 * search offsets assume these. */
_Static_assert(sizeof LOG_POSTFIX_RECIPIENT == sizeof "to=" &&
               sizeof LOG_POSTFIX_STATUS == sizeof "status=" &&
               sizeof LOG_POSTFIX_DSN == sizeof "dsn=" &&
               sizeof LOG_POSTFIX_HOST == sizeof "relay=" &&
               sizeof LOG_SENDMAIL_STATUS == sizeof "stat=" &&
               sizeof LOG_SENDMAIL_RECIPIENT == sizeof "to=" &&
               sizeof LOG_SENDMAIL_HOST == sizeof "relay=" &&
               sizeof LOG_SENDMAIL_DSN == sizeof "dsn=",
               "field names of the lengths the walk is written for");

/* ---- Postfix and Sendmail delivery lines: "QID: to=<...>, name=value,
 * ..., status=..." (Postfix), "..., stat=..." (Sendmail) ---- */

/*
 * "(in reply to RCPT TO command)": the stage, RCPT TO, after the " (in
 * reply to " at inr.  " command" is looked for from inr on, a span long
 * enough to be passed sixteen bytes a step.  Of the places before the
 * stage only its last, a ' ', may start " command" (in "(in reply to
 * command X)"): the search is then made again from the stage on.
 */
static void postfix_stage(struct smtpcode_logline *l, const char *inr,
                          const char *end)
{
	const char *p = inr + sizeof " (in reply to " - 1;
	/* From inr, or from later where sixteen places end at end, which
	 * the search then passes in one step ("RCPT TO command)"). */
	const char *from = end - p > 23 ? p : end - inr > 23 ? end - 23 : inr;
	const char *e, *usual = end - (sizeof " command)" - 1);

	/* Nearly always the detail ends so: " command" at usual is the first
	 * from p on unless one starts before usual - 8, as two cannot
	 * overlap (no ' ' is in "command"), which a short stage ("RCPT TO",
	 * "end of DATA") leaves few places for, looked at one by one. */
	if (usual >= p && usual - p < 16 && same(usual, " command", 8)) {
		for (e = p; e + 8 <= usual; e++)
			if (*e == ' ' && same(e, " command", 8))
				break;
		l->stage = stage_word(p, e + 8 <= usual ? e : usual);
		return;
	}
	e = FIND(from, end, " command", 1, 7);
	if (e && e < p)
		e = FIND(p, end, " command", 1, 7);
	if (!e)
		e = scan_byte(p, end, ')');
	l->stage = stage_word(p, e ? e : end);
}

/*
 * Where the remote reply starts in a status=word (...) detail: after "host
 * H said: ", else after "host H refused to talk to me: "; NULL for a bare
 * reply or Postfix's own words.  Both markers end in ": ", so one
 * scan_pair() pass over the ": " finds the first of each.
 */
static const char *reply_after(const char *d, const char *de)
{
	static const char said[] = " said", refused[] = " refused to talk to me";
	const char *c = d, *first_refused = NULL;

	for (; (c = scan_pair(c, de, ':', ' ', 1)) != NULL; c++) {
		if (c - d >= 5 && same(c - 5, said, 5))
			return c + 2;
		if (!first_refused && c - d >= 22 && same(c - 22, refused, 22))
			first_refused = c + 2;
	}
	return first_refused;
}

/*
 * The text in status=word (...): "host H said: REPLY (in reply to X
 * command)", "host H refused to talk to me: REPLY", a bare reply ("250
 * 2.0.0 Ok: queued as ..."), or Postfix's own words ("connect to ...:
 * Connection timed out", "unknown user: \"x\""), which hold no code.
 */
static void postfix_detail(struct smtpcode_logline *l, const char *d,
                           const char *de)
{
	const char *r = reply_after(d, de), *inr;

	if (!r) {
		take_reply_or_words(l, d, de);
		return;
	}
	inr = FIND_LAST(r, de, " (in reply to ", 1);
	if (inr) {
		postfix_stage(l, inr, de);
		de = inr;
	}
	take_reply_or_words(l, r, de);
}

/* The fixed status (logvocab.h) of status=[v, w): Postfix writes four
 * words, which are the vocabulary's own; any other (an address probe's
 * "deliverable") says nothing of a delivery and is left absent. */
static struct smtpcode_text postfix_status_word(const char *v, const char *w)
{
	switch (w - v) {
	case 4:
		if (same(v, LOG_STATUS_SENT, 4))
			return LOG_WORD(LOG_STATUS_SENT);
		break;
	case 7:
		if (same(v, LOG_STATUS_BOUNCED, 7))
			return LOG_WORD(LOG_STATUS_BOUNCED);
		if (same(v, LOG_STATUS_EXPIRED, 7))
			return LOG_WORD(LOG_STATUS_EXPIRED);
		break;
	case 8:
		if (same(v, LOG_STATUS_DEFERRED, 8))
			return LOG_WORD(LOG_STATUS_DEFERRED);
		break;
	}
	return span(NULL, NULL);
}

/* status=deferred (...), status=sent (...), status=expired, returned ... */
static void postfix_status(struct smtpcode_logline *l, const char *v,
                           const char *end)
{
	const char *w = v;

	l->format = SMTPCODE_LOG_POSTFIX;
	/* The word ends at ' ', ',' or '(', which are below '-' as no letter
	 * is: the bytes above are passed sixteen at a time. */
	for (;; w++) {
		if ((w = scan_upto(w, end, ',')) == NULL)
			w = end;
		if (w == end || *w == ' ' || *w == ',' || *w == '(')
			break;
	}
	l->status = postfix_status_word(v, w);
	if (STARTS(w, end, " (")) {
		/* The detail runs to the line's last ')': it holds parentheses
		 * of its own ("(in reply to ...)"). */
		const char *de = end;
		if (de > w + 2 && de[-1] == ')')
			de--;
		postfix_detail(l, w + 2, de);
	}
}

/* Where a field's value [v, ...) ends: at the ", " before the next field,
 * looked for after the closing '>' of a <> value ("to=<a, b@x>"), which
 * *gt gets (NULL for a value without <>). */
static inline const char *field_end(const char *v, const char *end,
                                    const char **gt)
{
	const char *from = v;

	*gt = NULL;
	if (v < end && *v == '<') {
		if ((*gt = scan_byte(v, end, '>')) == NULL)
			return NULL;
		from = *gt + 1;
	}
	return FIND(from, end, ", ", 0, 1);
}

/*
 * The successive ", " of a line from a place on, each after the one
 * before: where the values of relay=, delay=, delays= and dsn= end, one
 * after another, when none is in <> (field_end() looks for the ", " after
 * a '>').  With SSE2 they are found in one pass of sixteen bytes a step,
 * not by a search per field; next_sep() gives NULL where it cannot tell
 * (the last sixteen bytes of the line), for the walk to read the field.
 */
struct seps {
	const char *at; /* where the search goes on (SSE2: the sixteen read) */
#ifdef SCAN_SSE2
	unsigned bits; /* of the ", " at at + i not yet given */
#endif
};

#ifdef SCAN_SSE2
/* Bit i set when at[i] == ',' and at[i + 1] == ' ' (seventeen bytes read). */
static inline unsigned seps16(const char *at)
{
	return (unsigned)_mm_movemask_epi8(
	    _mm_and_si128(_mm_cmpeq_epi8(scan_load(at), _mm_set1_epi8(',')),
	                  _mm_cmpeq_epi8(scan_load(at + 1), _mm_set1_epi8(' '))));
}
#endif

static inline void seps_from(struct seps *c, const char *p, const char *end)
{
	c->at = p;
#ifdef SCAN_SSE2
	c->bits = end - p >= 17 ? seps16(p) : 0;
#else
	(void)end;
#endif
}

static inline const char *next_sep(struct seps *c, const char *end)
{
	const char *hit;
#ifdef SCAN_SSE2
	while (c->bits == 0) {
		if (end - c->at < 16 + 17)
			return NULL;
		c->at += 16;
		c->bits = seps16(c->at);
	}
	hit = c->at + __builtin_ctz(c->bits);
	c->bits &= c->bits - 1;
#else
	if ((hit = FIND(c->at, end, ", ", 0, 1)) != NULL)
		c->at = hit + 2;
#endif
	return hit;
}

/* Whether the field name[0..n) is at p with a value not in <>, whose end
 * *e is then the next ", " of c (the name holds no ','; where the line
 * ends with the name, no ", " follows it). */
static inline bool usual_field(const char *p, const char *end,
                               const char *name, size_t n, struct seps *c,
                               const char **e)
{
	return end - p > (ptrdiff_t)n && same(p, name, n) && p[n] != '<' &&
	       (*e = next_sep(c, end)) != NULL;
}
#define USUAL_FIELD(p, end, lit, c, e) \
	usual_field((p), (end), (lit), sizeof(lit) - 1, (c), (e))

/*
 * The '>' that closes a recipient <R> whose R starts at a, or NULL; *at
 * gets R's last '@' (NULL if none), which take_address() would look for
 * backwards over the same bytes: both are found in one pass.
 */
static inline const char *recipient_end(const char *a, const char *end,
                                        const char **at)
{
	const char *gt, *x;

	*at = NULL;
#ifdef SCAN_SSE2
	/* Thirty-two bytes a step: most recipients fit in one. */
	for (; end - a >= 32; a += 32) {
		const __m128i gt_ = _mm_set1_epi8('>'), at_ = _mm_set1_epi8('@');
		uint32_t close = scan_hits(a, gt_) | scan_hits(a + 16, gt_) << 16;
		uint32_t sign = scan_hits(a, at_) | scan_hits(a + 16, at_) << 16;
		if (close)
			sign &= (close & -close) - 1; /* the '@' before it */
		if (sign)
			*at = a + 31 - __builtin_clz(sign);
		if (close)
			return a + __builtin_ctz(close);
	}
#endif
	if ((gt = scan_byte(a, end, '>')) != NULL && (x = scan_last(a, gt, '@')))
		*at = x;
	return gt;
}

/*
 * The fields a Postfix delivery line nearly always starts with, in their
 * order: "to=<R>, relay=H, delay=D, delays=A/B/C/D, dsn=X.Y.Z, ".  Each
 * is read as the walk in parse_delivery() reads it, but by the one name
 * expected at its place, without the walk's dispatch on every name.
 * Returns where the first field not so read starts (status=, or anything
 * unusual: orig_to=, conn_use=, a name out of order), for the walk to go
 * on from there.
 */
static const char *usual_fields(struct smtpcode_logline *l, const char *p,
                                const char *end)
{
	const char *gt, *at, *e;
	struct seps c;

	/* "to=<R>": what log_take_recipient() would find, as its '>' is known;
	 * the value ends at the first ", " after it. */
	if (!STARTS(p, end, LOG_POSTFIX_RECIPIENT "<") ||
	    (gt = recipient_end(p + 4, end, &at)) == NULL)
		return p;
	seps_from(&c, gt + 1, end);
	if ((e = next_sep(&c, end)) == NULL)
		return p;
	take_address_at(l, p + 4, at, gt);
	p = e + 2;
	if (!USUAL_FIELD(p, end, LOG_POSTFIX_HOST, &c, &e))
		return p;
	l->relay = span(p + sizeof LOG_POSTFIX_HOST - 1, e);
	p = e + 2;
	if (!USUAL_FIELD(p, end, "delay=", &c, &e))
		return p;
	p = e + 2;
	if (!USUAL_FIELD(p, end, "delays=", &c, &e))
		return p;
	p = e + 2;
	if (!USUAL_FIELD(p, end, LOG_POSTFIX_DSN, &c, &e))
		return p;
	l->dsn = span(p + sizeof LOG_POSTFIX_DSN - 1, e);
	return e + 2;
}

/* The fields of a delivery line that are read; the others are passed. */
enum field { FIELD_OTHER, FIELD_TO, FIELD_RELAY, FIELD_DSN, FIELD_STATUS,
             FIELD_STAT };

/*
 * The field at p, and in *eq the '=' that ends its name (end when there
 * is none).  A name holds no '=', so "relay=" at p is the name "relay":
 * the names read are recognised whole, without a walk; any other name is
 * walked to its '='.
 */
static enum field field_at(const char *p, const char *end, const char **eq)
{
#define NAMED(lit, f)                                \
	if (STARTS(p, end, lit)) {                   \
		*eq = p + sizeof(lit) - 2;           \
		return (f);                          \
	}
	switch (p < end ? *p : '\0') {
	case 'd':
		NAMED("delay=", FIELD_OTHER);
		NAMED("delays=", FIELD_OTHER);
		NAMED(LOG_POSTFIX_DSN, FIELD_DSN);
		break;
	case 'r': NAMED(LOG_POSTFIX_HOST, FIELD_RELAY); break;
	case 's':
		NAMED(LOG_POSTFIX_STATUS, FIELD_STATUS);
		NAMED(LOG_SENDMAIL_STATUS, FIELD_STAT);
		break;
	case 't': NAMED(LOG_POSTFIX_RECIPIENT, FIELD_TO); break;
	}
#undef NAMED
	while (p < end && *p != '=')
		p++;
	*eq = p;
	return FIELD_OTHER;
}

/* Walk the fields from "to=" on, to status= (Postfix) or stat=
 * (Sendmail), keeping the recipient, relay and dsn; ": to=" is not before
 * from.  Returns false, leaving *l zeroed, for any other line. */
bool log_postfix_delivery(struct smtpcode_logline *l, const char *s,
                          const char *from, const char *end)
{
	const char *p = STARTS(from, end, ": " LOG_POSTFIX_RECIPIENT)
	                    ? from : FIND(from + 1, end, ": " LOG_POSTFIX_RECIPIENT, 0, 4);
	const char *eq, *v, *vend, *gt, *comma;

	(void)s; /* the marker is at from, or after it */
	if (!p)
		return false;
	for (p = usual_fields(l, p + 2, end);; p = vend + 2) {
		enum field f = field_at(p, end, &eq);
		if (eq == end)
			break;
		v = eq + 1;
		if (f == FIELD_STATUS) {
			postfix_status(l, v, end);
			return true;
		}
		if (f == FIELD_STAT) {
			log_sendmail_stat(l, v, end);
			return true;
		}
		if ((vend = field_end(v, end, &gt)) == NULL)
			break;
		switch (f) {
		case FIELD_TO:
			/* "to=<a@x>" as in usual_fields().  Sendmail lists
			 * recipients: "to=<a@x>,<b@x>", "to=a@x,b@x". */
			if (gt) {
				take_address(l, v + 1, gt);
				break;
			}
			comma = scan_byte(v, vend, ',');
			log_take_recipient(l, v, comma ? comma : vend);
			break;
		case FIELD_RELAY: l->relay = span(v, vend); break;
		case FIELD_DSN: l->dsn = span(v, vend); break;
		default: break;
		}
	}
	log_clear(l); /* fields of a line that is not one */
	return false;
}

/* ---- Postfix rejects: "NOQUEUE: reject: RCPT from client: REPLY;
 * from=<> to=<> proto= helo=<>", reject_warning, milter-reject, and
 * cleanup's "reject: header ... from client; from=<> ...: REPLY" ---- */

/* The reject word after ": " (reject, reject_warning, milter-reject), or
 * NULL; *word_end gets the end of the word. */
static const char *reject_word(const char *s, const char *from,
                               const char *end, const char **word_end)
{
	const char *r = from;

	while ((r = FIND(r, end, "reject", 2, 3)) != NULL) {
		const char *w = r, *e = r + 6;
		if (STARTS(e, end, "_warning"))
			e += sizeof "_warning" - 1;
		if (STARTS(e, end, ": ")) {
			while (w > s && r - w < 16 &&
			       (is_alpha(w[-1]) || w[-1] == '-'))
				w--;
			if (w - s >= 2 && w[-2] == ':' && w[-1] == ' ') {
				*word_end = e;
				return w;
			}
		}
		r++;
	}
	return NULL;
}

/* Where Postfix's "; from=<a> to=<b> proto=ESMTP helo=<h>" starts: the
 * last "; " followed by one of its names (the reply may hold "; "),
 * looked for from the end, where it is. */
static const char *reject_meta(const char *p, const char *end)
{
	const char *hit, *stop = end;

	for (; (hit = FIND_LAST(p, stop, "; ", 0)) != NULL; stop = hit + 1) {
		const char *n = hit + 2;
		if (STARTS(n, end, "from=<") || STARTS(n, end, "to=<") ||
		    STARTS(n, end, "proto=") || STARTS(n, end, "helo=<"))
			return hit;
	}
	return NULL;
}

static bool is_command_word(const char *a, const char *b)
{
	if (a == b)
		return false;
	for (; a < b; a++)
		if (!is_upper(*a) && *a != '-')
			return false;
	return true;
}

bool log_postfix_reject(struct smtpcode_logline *l, const char *s,
                        const char *first, const char *end)
{
	const char *we, *w = reject_word(s, first, end, &we), *msg, *sp, *meta, *t;

	if (!w)
		return false;
	l->format = SMTPCODE_LOG_SMTPD;
	/* reject and milter-reject refused; reject_warning would have. */
	l->status = we - w > 6 && we[-1] == 'g' ? LOG_WORD(LOG_STATUS_WARNED)
	                                        : LOG_WORD(LOG_STATUS_REJECTED);
	msg = we + 2;
	sp = scan_byte(msg, end, ' ');
	if (!sp)
		sp = end;
	l->stage = log_stage_of(msg, sp);
	meta = reject_meta(sp, end);
	if (is_command_word(msg, sp) && STARTS(sp, end, " from ")) {
		/* smtpd, postscreen, milters: "RCPT from client: REPLY; meta". */
		const char *client = sp + sizeof " from " - 1;
		const char *ce = FIND(client, meta ? meta : end, ": ", 0, 1);
		if (ce) {
			l->relay = span(client, ce);
			take_reply_or_words(l, ce + 2, meta ? meta : end);
		}
	} else if (meta) {
		/* cleanup: "header X: y from client; meta: REPLY". */
		const char *from = FIND_LAST(sp, meta, " from ", 1);
		const char *r = AFTER(meta, end, ": ", 0, 1);
		if (from)
			l->relay = span(from + sizeof " from " - 1, meta);
		if (r)
			take_reply_or_words(l, r, end);
	} else {
		take_reply_or_words(l, sp, end);
	}
	if (meta && (t = AFTER(meta, end, "to=<", 2, 3)) != NULL) {
		const char *gt = scan_byte(t, end, '>');
		log_take_recipient(l, t, gt ? gt : end);
	}
	return true;
}

/* ---- Postfix's failed logins: "warning: unknown[192.0.2.7]: SASL LOGIN
 * authentication failed: UGFzc3dvcmQ6" ---- */

static struct smtpcode_text word_span(const struct log_word *w)
{
	return span(w->s, w->s + w->len);
}

/* The reply smtpd sends for a failed login whose reason is [r, end),
 * which its line leaves out: the record of data/logs/ says it
 * (auth-failed-reply; auth-temp-reply when the reason says the auth
 * service did not answer), read once per such line; absent (len 0) when
 * the record gives none. */
static struct smtpcode_text auth_failed_reply(const char *r, const char *end)
{
	for (size_t i = 0; i < table_ndialects; i++) {
		const struct log_dialect_rec *d = &table_dialects[i];
		if (d->engine != LOG_ENGINE_POSTFIX || !d->auth_failed_reply.len)
			continue;
		if (d->auth_temp_words.len &&
		    find_word(r, end, &d->auth_temp_words))
			return word_span(&d->auth_temp_reply);
		return word_span(&d->auth_failed_reply);
	}
	return span(NULL, NULL);
}

bool log_postfix_auth(struct smtpcode_logline *l, const char *s,
                      const char *from, const char *end)
{
	/* from is the line's first "authen". */
	const char *a = FIND(from > s ? from - 1 : s, end,
	                     " authentication failed", 2, 4);
	const char *sasl, *w;
	struct smtpcode_text r;

	if (!a || (sasl = FIND_LAST(s, a, ": SASL ", 2)) == NULL ||
	    scan_byte(sasl + sizeof ": SASL " - 1, a, ' ') ||
	    (w = FIND_LAST(s, sasl, "warning: ", 0)) == NULL)
		return false;
	l->format = SMTPCODE_LOG_SMTPD;
	l->status = LOG_WORD(LOG_STATUS_AUTH_FAILED);
	l->stage = LOG_WORD(LOG_STAGE_AUTH);
	l->relay = span(w + sizeof "warning: " - 1, sasl);
	r = auth_failed_reply(a, end);
	if (r.len && smtpcode_parse(r.s, r.len, &l->code) == SMTPCODE_OK)
		l->reply = r;
	else
		l->code = (struct smtpcode_query){0};
	return true;
}
