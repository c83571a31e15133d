/*
 * CSV logs whose header line names their columns: Exchange's message
 * tracking log ("#Fields: date-time,...,event-id,...,recipient-address,
 * recipient-status,..."), PowerMTA's accounting file ("type,timeLogged,
 * ...,rcpt,...,dsnStatus,dsnDiag,dsnMta,bounceCat,..."), and Microsoft
 * 365's message trace as exported ("Received,SenderAddress,
 * RecipientAddress,Subject,Status,..." from Get-MessageTrace, or the
 * same names in snake case from the admin center).  The header sets the
 * layout: which column holds each field, found by name, so that columns
 * added, dropped or moved by a version or a configuration are read as
 * well.  Names compare without regard to case, '-' and '_'
 * ("recipient-address", "RecipientAddress", "recipient_address").
 *
 * Fields are split at commas outside double quotes; a quoted field's
 * span is inside its quotes (a doubled quote in it stays doubled).  A
 * field is never longer than its line; a line never makes a copy.
 */
#include <string.h>

#include "logscan.h"
#include "logvocab.h"
#include "smtpcode.h"
#include "streams.h"

/* The fields a layout reads, the places of smtpcode_csv_layout's
 * column[] (each the column's index + 1, 0: the header has none). */
enum { F_KIND, F_RECIPIENT, F_REPLY, F_DSN, F_HOST, F_COUNT };

_Static_assert(F_COUNT <= sizeof ((struct smtpcode_csv_layout *)0)->column,
               "smtpcode_csv_layout has a column for each field");

struct kind {
	const char *value;  /* the kind column's, compared folded */
	const char *status; /* LOG_STATUS_ */
};

struct csv_dialect {
	const char *name;
	const char *head;   /* what the header line starts with, or "" */
	char list;          /* between recipients of a field: ';', or 0 */
	const char *column[F_COUNT]; /* names folded, '|' between
	                                alternatives; F_KIND and
	                                F_RECIPIENT needed */
	struct kind kinds[8]; /* others give no record (RECEIVE, "r") */
};

/* In smtpcode_csv_layout's kind: 1 + index. */
static const struct csv_dialect dialects[] = {
	{"exchange-tracking", "#Fields:", ';',
	 {"eventid", "recipientaddress", "recipientstatus", NULL,
	  "serverhostname"},
	 {{"fail", LOG_STATUS_BOUNCED},
	  {"defer", LOG_STATUS_DEFERRED},
	  {"deliver", LOG_STATUS_SENT},
	  {"send", LOG_STATUS_SENT}}},
	/* PowerMTA's record types: d delivered, b bounced, t transient
	 * (tq: of a queue), rb a bounce received later, f a feedback loop's
	 * complaint; r (received) says nothing of a delivery. */
	{"pmta-acct", "", 0,
	 {"type", "rcpt", "dsndiag", "dsnstatus", "dsnmta"},
	 {{"d", LOG_STATUS_SENT},
	  {"b", LOG_STATUS_BOUNCED},
	  {"rb", LOG_STATUS_BOUNCED},
	  {"t", LOG_STATUS_DEFERRED},
	  {"tq", LOG_STATUS_DEFERRED},
	  {"f", LOG_STATUS_COMPLAINED}}},
	/* The message trace gives a state, no reply: Delivered, Failed,
	 * Pending; Expanded (a group), FilteredAsSpam and Quarantined are
	 * not deliveries' outcomes. */
	{"m365-trace", "", 0,
	 {"status", "recipientaddress", "detail", NULL, "toip"},
	 {{"delivered", LOG_STATUS_SENT},
	  {"failed", LOG_STATUS_BOUNCED},
	  {"pending", LOG_STATUS_DEFERRED}}},
};

#define COUNT(a) (sizeof(a) / sizeof(a)[0])
#define MAX_COLUMN 254 /* a column's index + 1 fits a byte */

/* The next field of [*p, end), its quotes removed; *p moved past its
 * comma (to end after the last). */
static struct smtpcode_text next_field(const char **p, const char *end)
{
	const char *a = *p, *b;

	if (a < end && *a == '"') {
		for (b = ++a; b < end; b++)
			if (*b == '"') {
				if (b + 1 < end && b[1] == '"')
					b++; /* a doubled quote: one of the field's */
				else
					break;
			}
		*p = b < end ? b + 1 : end;
		while (*p < end && **p != ',')
			(*p)++;
	} else {
		b = scan_byte(a, end, ',');
		if (!b)
			b = end;
		*p = b;
	}
	if (*p < end)
		(*p)++;
	return (struct smtpcode_text){a, (size_t)(b - a)};
}

/* Whether a header's name is one of names ("x|y"), folded and without
 * '-', '_' and blanks. */
static bool name_is(struct smtpcode_text t, const char *names)
{
	const char *n = names;

	if (!names)
		return false;
	for (;;) {
		size_t i = 0;
		const char *k = n;
		for (; i < t.len; i++) {
			unsigned char c = scan_fold((unsigned char)t.s[i]);
			if (c == '-' || c == '_' || c == ' ')
				continue;
			if (*k == '|' || !*k || c != (unsigned char)*k)
				break;
			k++;
		}
		if (i == t.len && (!*k || *k == '|'))
			return true;
		if (!(n = strchr(n, '|')))
			return false;
		n++;
	}
}

bool smtpcode_csv_header(const char *s, size_t len,
                         struct smtpcode_csv_layout *layout)
{
	const char *end = s ? s + len : s;

	if (!s || !layout)
		return false;
	while (end > s && is_space(end[-1]))
		end--;
	for (size_t d = 0; d < COUNT(dialects); d++) {
		const struct csv_dialect *c = &dialects[d];
		size_t head = strlen(c->head);
		struct smtpcode_csv_layout l = {0};
		const char *p = s;
		unsigned col = 0;

		if ((size_t)(end - s) < head || memcmp(s, c->head, head) != 0 ||
		    (!head && s < end && *s == '#'))
			continue;
		p += head;
		while (p < end && *p == ' ')
			p++;
		while (p < end && col < MAX_COLUMN) {
			struct smtpcode_text t = next_field(&p, end);
			col++;
			for (int f = 0; f < F_COUNT; f++)
				if (!l.column[f] && name_is(t, c->column[f]))
					l.column[f] = (unsigned char)col;
		}
		if (l.column[F_KIND] && l.column[F_RECIPIENT]) {
			l.kind = (unsigned char)(d + 1);
			*layout = l;
			return true;
		}
	}
	return false;
}

/* The host as a PowerMTA dsnMta gives it: "mx.example.com (192.0.2.1)"
 * names the host first. */
static struct smtpcode_text host_name(struct smtpcode_text t)
{
	const char *open = t.len ? memchr(t.s, ' ', t.len) : NULL;
	if (open)
		t.len = (size_t)(open - t.s);
	return t;
}

int log_csv_read(const char *s, size_t len,
                 const struct smtpcode_csv_layout *layout,
                 smtpcode_stream_fn *fn, void *ctx)
{
	const struct csv_dialect *c;
	struct smtpcode_text field[F_COUNT] = {{0}};
	struct stream_fields f = {0};
	const char *p = s, *end = s + len, *r, *rend;
	char scratch[STREAM_SCRATCH];
	unsigned col = 0, last = 0;
	int n = 0;

	if (layout->kind < 1 || layout->kind > COUNT(dialects))
		return -1;
	c = &dialects[layout->kind - 1];
	while (end > s && is_space(end[-1]))
		end--;
	if (p == end || *p == '#')
		return 0; /* a blank line, Exchange's comments */
	for (int k = 0; k < F_COUNT; k++)
		if (layout->column[k] > last)
			last = layout->column[k];
	while (p < end && col < last) {
		struct smtpcode_text t = next_field(&p, end);
		col++;
		for (int k = 0; k < F_COUNT; k++)
			if (layout->column[k] == col)
				field[k] = t;
	}
	for (size_t k = 0; k < COUNT(c->kinds) && c->kinds[k].value; k++)
		if (field[F_KIND].len &&
		    stream_is(field[F_KIND].s, field[F_KIND].len, c->kinds[k].value))
			f.status = c->kinds[k].status;
	if (!f.status)
		return 0; /* the header again, a receipt, an expansion */
	f.reply = field[F_REPLY];
	f.dsn = field[F_DSN];
	f.host = host_name(field[F_HOST]);
	/* One record per recipient of the field (Exchange lists them with
	 * ';'), each with the line's status and reply. */
	if (!field[F_RECIPIENT].len) {
		struct smtpcode_logline l;
		stream_fill(&l, &f, scratch);
		fn(ctx, &l, c->name);
		return 1;
	}
	r = field[F_RECIPIENT].s;
	rend = r + field[F_RECIPIENT].len;
	do {
		const char *stop = c->list ? scan_byte(r, rend, c->list) : NULL;
		struct smtpcode_logline l;
		if (!stop)
			stop = rend;
		f.recipient = span(r, stop);
		stream_fill(&l, &f, scratch);
		fn(ctx, &l, c->name);
		n++;
		r = stop + 1;
	} while (r < rend);
	return n;
}
