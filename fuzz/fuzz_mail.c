/*
 * Bounce messages: smtpcode_mail_parse() with a work buffer as large as
 * the message (which always suffices), twice (the second time with less
 * room for recipients, or none), then with a smaller work buffer.
 *
 * Invariants: every span lies inside the message or the work buffer; the
 * codes' texts lie inside their diagnostic and status, and the codes are
 * what the library's readers give for those texts as they are at the end
 * (so no text changed after its codes were read); a full-size work
 * buffer never overflows; the result does not depend on which buffer is
 * used or what it held before (the two runs compare equal, offset by
 * offset and byte by byte), nor on the size of the recipients array
 * (nrecipients counts them all, and the first min(nrecipients, max) are
 * stored); given an array of nrecipients, as --mail gives when the first
 * was too small, every recipient is stored and the first ones are the
 * same; a kind that has no recipients has none; From and Subject hold no
 * LF (unfolded, their encoded words decoded); a message without
 * LF reads as the same message with each CR an LF (bare CR line ends);
 * with a smaller work buffer the spans still lie inside, and when it
 * reports no overflow the result is the full one.
 */
#include "fuzz.h"

#define MAX_RECIPIENTS 8

struct run {
	struct smtpcode_mail m;
	struct smtpcode_mail_recipient r[MAX_RECIPIENTS];
	struct smtpcode_mail_recipient *all; /* NULL, or room for every one */
	char *work;
	size_t worksize;
	int ret;
};

static const char *msg_base;
static size_t msg_len;

static void check_text(const struct run *x, struct smtpcode_text t)
{
	CHECK(t.len == 0 || fuzz_inside(t.s, t.len, msg_base, msg_len) ||
	      fuzz_inside(t.s, t.len, x->work, x->worksize));
}

static void check_code_text(struct smtpcode_text t,
                            const struct smtpcode_query *q)
{
	CHECK(fuzz_query_ok(q));
	if (q->basic || q->enhanced)
		CHECK(q->text_off <= t.len && q->text_len <= t.len - q->text_off);
	else
		CHECK(fuzz_query_zero(q));
}

/* The diagnostic's codes, as smtpcode.h defines them, read again from
 * the diagnostic's final text: the reply it starts with, else the first
 * code in it (keeping a basic code it starts with), else a basic code
 * alone, or "554:" as Yahoo writes it.  A difference means the text
 * changed after its codes were read (a later in-place transform of the
 * work buffer), or the codes were read wrong. */
static void check_diagnostic(struct smtpcode_text d,
                             const struct smtpcode_query *q)
{
	struct smtpcode_query start, found;
	struct smtpcode_text at;
	bool parsed;

	if (!d.len) {
		CHECK(fuzz_query_zero(q));
		return;
	}
	parsed = smtpcode_parse(d.s, d.len, &start) == SMTPCODE_OK;
	if (parsed && start.enhanced) {
		CHECK(fuzz_query_eq(&start, q));
	} else if (smtpcode_find_code(d.s, d.len, &found, &at)) {
		found.text_off += (size_t)(at.s - d.s);
		if (parsed && !found.basic)
			found.basic = start.basic;
		CHECK(fuzz_query_eq(&found, q));
	} else if (parsed) {
		CHECK(fuzz_query_eq(&start, q));
	} else if (q->basic) {
		CHECK(!q->enhanced && d.len >= 3 && q->basic < 600 &&
		      (unsigned)(d.s[0] - '0') == q->basic / 100 &&
		      (unsigned)(d.s[1] - '0') == q->basic / 10 % 10 &&
		      (unsigned)(d.s[2] - '0') == q->basic % 10);
	} else {
		CHECK(fuzz_query_zero(q));
	}
}

static int has_line_break(struct smtpcode_text t)
{
	return t.len && memchr(t.s, '\n', t.len);
}

static void check_run(const struct run *x)
{
	const struct smtpcode_mail *m = &x->m;
	size_t stored = m->nrecipients < m->max ? m->nrecipients : m->max;

	check_text(x, m->from);
	check_text(x, m->subject);
	check_text(x, m->reporting_mta);
	if (x->worksize >= msg_len) /* room to unfold and decode */
		CHECK(!has_line_break(m->from) && !has_line_break(m->subject));
	CHECK(m->kind >= SMTPCODE_MAIL_OTHER && m->kind <= SMTPCODE_MAIL_FEEDBACK);
	if (m->kind == SMTPCODE_MAIL_OTHER || m->kind == SMTPCODE_MAIL_AUTOREPLY)
		CHECK(m->nrecipients == 0);
	if (m->kind == SMTPCODE_MAIL_FEEDBACK) /* the reported message's, if
	                                          its report part is there */
		CHECK(m->nrecipients <= 1);
	for (size_t i = 0; i < stored; i++) {
		const struct smtpcode_mail_recipient *r = &m->recipients[i];
		check_text(x, r->recipient);
		check_text(x, r->action);
		check_text(x, r->status);
		check_text(x, r->diagnostic);
		check_text(x, r->remote_mta);
		check_code_text(r->diagnostic, &r->diagnostic_code);
		check_code_text(r->status, &r->status_code);
		check_diagnostic(r->diagnostic, &r->diagnostic_code);
		/* The status code is the Status: field parsed, or zero. */
		{
			struct smtpcode_query st;
			if (r->status.len && smtpcode_parse(r->status.s, r->status.len,
			                                    &st) == SMTPCODE_OK)
				CHECK(fuzz_query_eq(&st, &r->status_code));
			else
				CHECK(fuzz_query_zero(&r->status_code));
		}
	}
}

/* Where a span is: in the message, at an offset of the work buffer, or
 * absent; and its bytes. */
static int same_text(const struct run *a, struct smtpcode_text x,
                     const struct run *b, struct smtpcode_text y)
{
	int in_msg_x, in_msg_y;
	if (x.len != y.len)
		return 0;
	if (x.len == 0)
		return 1;
	in_msg_x = fuzz_inside(x.s, x.len, msg_base, msg_len);
	in_msg_y = fuzz_inside(y.s, y.len, msg_base, msg_len);
	if (in_msg_x != in_msg_y)
		return 0;
	if (in_msg_x ? x.s != y.s
	             : (uintptr_t)x.s - (uintptr_t)a->work !=
	                   (uintptr_t)y.s - (uintptr_t)b->work)
		return 0;
	return memcmp(x.s, y.s, x.len) == 0;
}

static int same_recipient(const struct run *a,
                          const struct smtpcode_mail_recipient *x,
                          const struct run *b,
                          const struct smtpcode_mail_recipient *y)
{
	return same_text(a, x->recipient, b, y->recipient) &&
	       same_text(a, x->action, b, y->action) &&
	       same_text(a, x->status, b, y->status) &&
	       same_text(a, x->diagnostic, b, y->diagnostic) &&
	       same_text(a, x->remote_mta, b, y->remote_mta) &&
	       fuzz_query_eq(&x->status_code, &y->status_code) &&
	       fuzz_query_eq(&x->diagnostic_code, &y->diagnostic_code);
}

/* The same result; recipients compared as far as both stored them. */
static void check_same(const struct run *a, const struct run *b)
{
	size_t stored = a->m.nrecipients;
	if (stored > a->m.max)
		stored = a->m.max;
	if (stored > b->m.max)
		stored = b->m.max;
	CHECK(a->ret == b->ret);
	CHECK(a->m.kind == b->m.kind);
	CHECK(a->m.nrecipients == b->m.nrecipients);
	CHECK(same_text(a, a->m.from, b, b->m.from));
	CHECK(same_text(a, a->m.subject, b, b->m.subject));
	CHECK(same_text(a, a->m.reporting_mta, b, b->m.reporting_mta));
	for (size_t i = 0; i < stored; i++)
		CHECK(same_recipient(a, &a->m.recipients[i], b,
		                     &b->m.recipients[i]));
}

/* The same bytes (wherever they lie). */
static int same_bytes(struct smtpcode_text x, struct smtpcode_text y)
{
	return x.len == y.len && (x.len == 0 || memcmp(x.s, y.s, x.len) == 0);
}

/* The same result read from two different messages of the same length,
 * text by text. */
static void check_same_text(const struct run *a, const struct run *b)
{
	size_t stored = a->m.nrecipients < MAX_RECIPIENTS ? a->m.nrecipients
	                                                  : MAX_RECIPIENTS;
	CHECK(a->ret == b->ret && a->m.kind == b->m.kind);
	CHECK(a->m.nrecipients == b->m.nrecipients);
	CHECK(same_bytes(a->m.from, b->m.from));
	CHECK(same_bytes(a->m.subject, b->m.subject));
	CHECK(same_bytes(a->m.reporting_mta, b->m.reporting_mta));
	for (size_t i = 0; i < stored; i++) {
		const struct smtpcode_mail_recipient *x = &a->r[i], *y = &b->r[i];
		CHECK(same_bytes(x->recipient, y->recipient));
		CHECK(same_bytes(x->action, y->action));
		CHECK(same_bytes(x->status, y->status));
		CHECK(same_bytes(x->diagnostic, y->diagnostic));
		CHECK(same_bytes(x->remote_mta, y->remote_mta));
		CHECK(fuzz_query_eq(&x->status_code, &y->status_code));
		CHECK(fuzz_query_eq(&x->diagnostic_code, &y->diagnostic_code));
	}
}

/* A run with a work buffer of exactly worksize bytes (NULL for 0),
 * filled with junk so that reading it before writing it shows. */
static void parse(struct run *x, const char *msg, size_t len,
                  size_t worksize, size_t max, int junk)
{
	memset(x, 0, sizeof *x);
	x->worksize = worksize;
	x->work = worksize ? malloc(worksize) : NULL;
	if (worksize && !x->work)
		abort();
	if (x->work)
		memset(x->work, junk, worksize);
	x->m.recipients = max ? x->r : NULL;
	x->m.max = max;
	if (max > MAX_RECIPIENTS) { /* room for all: an array of its own */
		x->all = malloc(max * sizeof *x->all);
		if (!x->all)
			abort();
		x->m.recipients = x->all;
	}
	/* Junk in the outputs too: the parser must set what it returns. */
	x->m.kind = (enum smtpcode_mail_kind)junk;
	x->m.nrecipients = (size_t)junk;
	x->ret = smtpcode_mail_parse(len ? msg : NULL, len, x->work, worksize,
	                             &x->m);
	check_run(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *msg = (const char *)data;
	struct run *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	size_t small;

	if (!a || !b)
		abort();
	msg_base = msg;
	msg_len = size;

	parse(a, msg, size, size, MAX_RECIPIENTS, 0xaa);
	CHECK(a->ret == 0); /* worksize >= len always suffices */
	/* Again, with other junk in the work buffer and a smaller array
	 * (none at all for a quarter of the inputs): the same result. */
	parse(b, msg, size, size, size ? data[0] % 4 : 0, 0x55);
	check_same(a, b);
	free(b->work);
	/* With room for every recipient: all stored, the first the same. */
	if (a->m.nrecipients > MAX_RECIPIENTS) {
		parse(b, msg, size, size, a->m.nrecipients, 0x33);
		check_same(a, b);
		free(b->work);
		free(b->all);
	}
	/* Without LF, CR ends lines: as the same message with LF. */
	if (size && !memchr(msg, '\n', size) && memchr(msg, '\r', size)) {
		char *lf = malloc(size);
		if (!lf)
			abort();
		for (size_t i = 0; i < size; i++)
			lf[i] = msg[i] == '\r' ? '\n' : msg[i];
		msg_base = lf;
		parse(b, lf, size, size, MAX_RECIPIENTS, 0x11);
		msg_base = msg;
		check_same_text(a, b);
		free(b->work);
		free(lf);
	}

	/* A smaller work buffer: half, or a size the message picks. */
	small = size / 2;
	if (size > 2)
		small = (size_t)data[size - 1] * 7 % size;
	parse(b, msg, size, small, MAX_RECIPIENTS, 0x20);
	CHECK(b->ret == 0 || b->ret == -1);
	if (b->ret == 0) {
		/* Nothing overflowed: the full result, at the same offsets
		 * of the smaller buffer. */
		check_same(a, b);
	}
	free(b->work);

	free(a->work);
	free(a);
	free(b);
	return 0;
}
