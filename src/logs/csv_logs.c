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

/*
 * CSV(name, head, list, kind, recipient, reply, dsn, host, kinds): a
 * layout (a row of a table as text, streams.h).  head, what its header
 * line starts with ("" none); list, the byte between recipients of a
 * field (Exchange's ';'), "" none; then the names of the columns of each
 * field (folded, '|' between alternatives; kind and recipient needed);
 * kinds, "value=status ..." for the kind column's values that give a
 * record (others give none: Exchange's RECEIVE, PowerMTA's r).
 */
#define CSV(name, head, list, kind, recipient, reply, dsn, host, kinds) \
	name "\t" head "\t" list "\t" kind "\t" recipient "\t" reply "\t" dsn \
	"\t" host "\t" kinds "\n"
enum { C_NAME, C_HEAD, C_LIST, C_COLUMN, C_KINDS = C_COLUMN + F_COUNT,
       C_FIELDS };

/* In smtpcode_csv_layout's kind: 1 + the row's index. */
static const char layouts[] =
	CSV("exchange-tracking", "#Fields:", ";", "eventid", "recipientaddress",
	    "recipientstatus", "", "serverhostname",
	    "fail=bounced defer=deferred deliver=sent send=sent")
	/* PowerMTA's record types: d delivered, b bounced, t transient (tq:
	 * of a queue), rb a bounce received later, f a feedback loop's
	 * complaint; r (received) says nothing of a delivery. */
	CSV("pmta-acct", "", "", "type", "rcpt", "dsndiag", "dsnstatus",
	    "dsnmta",
	    "d=sent b=bounced rb=bounced t=deferred tq=deferred f=complained")
	/* The message trace gives a state, no reply: Delivered, Failed,
	 * Pending; Expanded (a group), FilteredAsSpam and Quarantined are
	 * not deliveries' outcomes. */
	CSV("m365-trace", "", "", "status", "recipientaddress", "detail", "",
	    "toip", "delivered=sent failed=bounced pending=deferred");

/* The names of the layouts, in the table's order, as static strings: a
 * record's dialect. */
static const char *const names[] = {"exchange-tracking", "pmta-acct",
                                    "m365-trace"};

/* Row i of the table into f; false when there is none. */
static bool layout_row(size_t i, struct smtpcode_text *f)
{
	const char *p = layouts;
	for (size_t k = 0; stream_row(&p, f, C_FIELDS); k++)
		if (k == i)
			return true;
	return false;
}

/* The status kinds ("value=status ...") give to value, or NULL. */
static const char *kind_status(struct smtpcode_text kinds,
                               struct smtpcode_text value)
{
	const char *p = kinds.s, *end = kinds.s + kinds.len;

	while (p < end) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		const char *stop = sp ? sp : end;
		const char *eq = memchr(p, '=', (size_t)(stop - p));
		if (eq && value.len && value.len == (size_t)(eq - p)) {
			bool same = true;
			for (size_t i = 0; i < value.len && same; i++)
				same = scan_fold((unsigned char)value.s[i]) ==
				       (unsigned char)p[i];
			if (same)
				return stream_status(span(eq + 1, stop));
		}
		p = stop + 1;
	}
	return NULL;
}

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

/* Whether a header's name t is one of alts ("x|y"), folded and without
 * '-', '_' and blanks. */
static bool name_is(struct smtpcode_text t, struct smtpcode_text alts)
{
	const char *n = alts.s, *end = alts.s + alts.len;

	while (n < end) {
		const char *bar = memchr(n, '|', (size_t)(end - n));
		const char *stop = bar ? bar : end, *k = n;
		size_t i = 0;
		for (; i < t.len; i++) {
			unsigned char c = scan_fold((unsigned char)t.s[i]);
			if (c == '-' || c == '_' || c == ' ')
				continue;
			if (k == stop || c != (unsigned char)*k)
				break;
			k++;
		}
		if (i == t.len && k == stop && k > n)
			return true;
		n = stop + 1;
	}
	return false;
}

bool smtpcode_csv_header(const char *s, size_t len,
                         struct smtpcode_csv_layout *layout)
{
	const char *end = s ? s + len : s;
	struct smtpcode_text c[C_FIELDS];

	if (!s || !layout)
		return false;
	while (end > s && is_space(end[-1]))
		end--;
	for (size_t d = 0; layout_row(d, c); d++) {
		struct smtpcode_csv_layout l = {0};
		const char *p = s;
		size_t head = c[C_HEAD].len;
		unsigned col = 0;

		if ((size_t)(end - s) < head || memcmp(s, c[C_HEAD].s, head) != 0 ||
		    (!head && s < end && *s == '#'))
			continue;
		p += head;
		while (p < end && *p == ' ')
			p++;
		while (p < end && col < MAX_COLUMN) {
			struct smtpcode_text t = next_field(&p, end);
			col++;
			for (int f = 0; f < F_COUNT; f++)
				if (!l.column[f] && name_is(t, c[C_COLUMN + f]))
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
	struct smtpcode_text c[C_FIELDS], field[F_COUNT] = {{0}};
	struct stream_fields f = {0};
	const char *p = s, *end = s + len, *r, *rend;
	char scratch[STREAM_SCRATCH];
	unsigned col = 0, last = 0;
	int n = 0;

	const char *name;
	char list;

	if (layout->kind < 1 || layout->kind > COUNT(names) ||
	    !layout_row(layout->kind - 1u, c))
		return -1;
	name = names[layout->kind - 1];
	list = c[C_LIST].len ? c[C_LIST].s[0] : 0;
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
	f.status = kind_status(c[C_KINDS], field[F_KIND]);
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
		fn(ctx, &l, name);
		return 1;
	}
	r = field[F_RECIPIENT].s;
	rend = r + field[F_RECIPIENT].len;
	do {
		const char *stop = list ? scan_byte(r, rend, list) : NULL;
		struct smtpcode_logline l;
		if (!stop)
			stop = rend;
		f.recipient = span(r, stop);
		stream_fill(&l, &f, scratch);
		fn(ctx, &l, name);
		n++;
		r = stop + 1;
	} while (r < rend);
	return n;
}
