/*
 * The delivery events of mail services, one JSON value a line, parsed by
 * jansson (README, "Design notes": why jansson), and `journalctl -o json`.
 *
 * A service is known by its shape (keys its events always have), then an
 * event by its kind ("event": "bounce"); one table, services[] and
 * rules[] below, says which keys each service uses, so that a service is
 * a few rows, not code.  A path names a key inside objects, "a.b" for
 * key b of object a, "x|y" for x, else y; in a rule whose records come
 * from a list (SES's bouncedRecipients[]), a path starting with '@' is
 * read in the list's item, "@" alone being the item itself.
 *
 * jansson seeds the hash of its objects' keys once per process from
 * /dev/urandom (else from the time and the process id: hashtable_seed.c,
 * json_object_seed(0) on the first object): keys chosen to collide cannot
 * make a line slow.  A line's tree is freed before the next is read, and
 * jansson caps nesting (2048): memory follows the line, which the reader
 * caps (input.h, MAX_LINE).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "logscan.h"
#include "logvocab.h"
#include "smtpcode.h"
#include "streams.h"

/*
 * The table, as text (streams.h: stream_row()).
 *
 * SERVICE(name, root, shape, shape2): a service; root, the event inside
 * a wrapper when there is one (Mailgun's webhook: "event-data"); shape
 * and shape2, keys every event has.  In order: SendGrid's and Mailgun's
 * events both have "event", told apart by sg_ ids and "recipient".
 */
#define SERVICE(name, root, shape, shape2) \
	name "\t" root "\t" shape "\t" shape2 "\n"
static const char services[] =
	SERVICE("ses", "", "notificationType|eventType", "mail")
	SERVICE("sendgrid", "", "event", "sg_event_id|sg_message_id")
	SERVICE("mailgun", "event-data", "event", "recipient")
	SERVICE("postmark", "", "RecordType|TypeCode", "MessageID")
	SERVICE("sparkpost", "msys.message_event", "type", "rcpt_to")
	SERVICE("journald", "", "MESSAGE", "__REALTIME_TIMESTAMP|SYSLOG_IDENTIFIER");

/*
 * RULE(service, kind, sub, status, list, recipient, reply, dsn, host,
 * basic): how a kind of event of a service becomes records.  kind and sub
 * are "path=value" (the value compared without regard to case); sub "":
 * any.  The first rule of the service whose kind and sub hold is used.
 * status is a word of logvocab.h; list, the array of recipients ("": one
 * record); then the paths of the record's fields (streams.h).
 */
#define RULE(...) RULE_(__VA_ARGS__) /* its shared parts expanded first */
#define RULE_(service, kind, sub, status, list, recipient, reply, dsn, host, \
              basic) \
	service "\t" kind "\t" sub "\t" status "\t" list "\t" recipient "\t" \
	reply "\t" dsn "\t" host "\t" basic "\n"
enum { R_SERVICE, R_KIND, R_SUB, R_STATUS, R_LIST, R_RECIPIENT, R_REPLY,
       R_DSN, R_HOST, R_BASIC, R_FIELDS };

#define SES_KIND "notificationType|eventType"
#define SES_BOUNCE "bounce.bouncedRecipients", "@emailAddress", \
	"@diagnosticCode", "@status", "bounce.remoteMtaIp", ""
#define SENDGRID "", "email", "reason|response", "status", "", ""
#define MAILGUN "", "recipient", \
	"delivery-status.message|delivery-status.description", \
	"delivery-status.enhanced-code", "delivery-status.mx-host", \
	"delivery-status.code"
#define POSTMARK "", "Email|Recipient", "Details", "", "", ""
#define SPARKPOST "", "rcpt_to", "raw_reason|reason", "", "", "error_code"

static const char rules[] =
	RULE("ses", SES_KIND "=Bounce", "bounce.bounceType=Transient",
	     LOG_STATUS_DEFERRED, SES_BOUNCE)
	RULE("ses", SES_KIND "=Bounce", "", LOG_STATUS_BOUNCED, SES_BOUNCE)
	RULE("ses", SES_KIND "=Complaint", "", LOG_STATUS_COMPLAINED,
	     "complaint.complainedRecipients", "@emailAddress",
	     "complaint.complaintFeedbackType", "", "", "")
	RULE("ses", SES_KIND "=Delivery", "", LOG_STATUS_SENT,
	     "delivery.recipients", "@", "delivery.smtpResponse", "",
	     "delivery.reportingMTA", "")
	RULE("sendgrid", "event=bounce", "", LOG_STATUS_BOUNCED, SENDGRID)
	RULE("sendgrid", "event=dropped", "", LOG_STATUS_BOUNCED, SENDGRID)
	RULE("sendgrid", "event=deferred", "", LOG_STATUS_DEFERRED, SENDGRID)
	RULE("sendgrid", "event=delivered", "", LOG_STATUS_SENT, SENDGRID)
	RULE("sendgrid", "event=spamreport", "", LOG_STATUS_COMPLAINED, SENDGRID)
	RULE("mailgun", "event=failed", "severity=temporary", LOG_STATUS_DEFERRED,
	     MAILGUN)
	RULE("mailgun", "event=failed", "", LOG_STATUS_BOUNCED, MAILGUN)
	RULE("mailgun", "event=delivered", "", LOG_STATUS_SENT, MAILGUN)
	RULE("mailgun", "event=complained", "", LOG_STATUS_COMPLAINED, MAILGUN)
	RULE("postmark", "RecordType=SpamComplaint", "", LOG_STATUS_COMPLAINED,
	     POSTMARK)
	RULE("postmark", "RecordType=Delivery", "", LOG_STATUS_SENT, POSTMARK)
	RULE("postmark", "Type=SpamComplaint", "", LOG_STATUS_COMPLAINED,
	     POSTMARK)
	RULE("postmark", "Type=SoftBounce", "", LOG_STATUS_DEFERRED, POSTMARK)
	RULE("postmark", "Type=Transient", "", LOG_STATUS_DEFERRED, POSTMARK)
	RULE("postmark", "RecordType=Bounce", "", LOG_STATUS_BOUNCED, POSTMARK)
	RULE("sparkpost", "type=bounce", "", LOG_STATUS_BOUNCED, SPARKPOST)
	RULE("sparkpost", "type=out_of_band", "", LOG_STATUS_BOUNCED, SPARKPOST)
	RULE("sparkpost", "type=policy_rejection", "", LOG_STATUS_BOUNCED,
	     SPARKPOST)
	RULE("sparkpost", "type=delay", "", LOG_STATUS_DEFERRED, SPARKPOST)
	RULE("sparkpost", "type=delivery", "", LOG_STATUS_SENT, SPARKPOST)
	RULE("sparkpost", "type=spam_complaint", "", LOG_STATUS_COMPLAINED,
	     SPARKPOST);

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

/* The value at path in v ('@' paths in item), or NULL. */
static json_t *at(json_t *v, json_t *item, struct smtpcode_text path)
{
	const char *alt = path.s, *pend = path.s + path.len;

	if (!path.len)
		return NULL;
	if (*alt == '@') {
		if (path.len == 1)
			return item;
		v = item;
		alt++;
	}
	for (;;) { /* each alternative, "x|y" */
		const char *bar = memchr(alt, '|', (size_t)(pend - alt));
		const char *end = bar ? bar : pend, *k = alt;
		json_t *o = v;
		while (o && k < end) {
			const char *dot = memchr(k, '.', (size_t)(end - k));
			const char *ke = dot ? dot : end;
			o = json_is_object(o) ? json_object_getn(o, k, (size_t)(ke - k))
			                      : NULL;
			k = dot ? dot + 1 : end;
		}
		if (o && !json_is_null(o))
			return o;
		if (!bar)
			return NULL;
		alt = bar + 1;
	}
}

/* A path written in C. */
static struct smtpcode_text path_of(const char *p)
{
	return (struct smtpcode_text){p, strlen(p)};
}

static struct smtpcode_text text_of(json_t *v)
{
	struct smtpcode_text t = {NULL, 0};
	if (json_is_string(v)) {
		t.s = json_string_value(v);
		t.len = json_string_length(v);
	}
	return t;
}

/* A basic code given as a number (550) or a string ("550"); 0 none. */
static unsigned basic_of(json_t *v)
{
	struct smtpcode_text t = text_of(v);
	json_int_t n = 0;

	if (json_is_integer(v))
		n = json_integer_value(v);
	else if (t.len == 3 && is_digit(t.s[0]) && is_digit(t.s[1]) &&
	         is_digit(t.s[2]))
		n = (t.s[0] - '0') * 100 + (t.s[1] - '0') * 10 + (t.s[2] - '0');
	return n >= 200 && n <= 599 ? (unsigned)n : 0;
}

/* Whether test, "path=value", holds in v; "" holds always. */
static bool holds(json_t *v, struct smtpcode_text test)
{
	const char *eq = test.len ? memchr(test.s, '=', test.len) : NULL;
	struct smtpcode_text t, want;

	if (!test.len)
		return true;
	if (!eq)
		return false;
	t = text_of(at(v, NULL, span(test.s, eq)));
	want = span(eq + 1, test.s + test.len);
	if (!t.len || t.len != want.len)
		return false;
	for (size_t i = 0; i < t.len; i++)
		if (scan_fold((unsigned char)t.s[i]) !=
		    scan_fold((unsigned char)want.s[i]))
			return false;
	return true;
}

/* The service whose shape *v has, its name in *name; *v moved to the
 * event inside its wrapper.  false for none. */
static bool service_of(json_t **v, struct smtpcode_text *name)
{
	const char *p = services;
	struct smtpcode_text f[4];

	while (stream_row(&p, f, 4)) {
		json_t *e = at(*v, NULL, f[1]);
		json_t *o = e ? e : *v;
		if (at(o, NULL, f[2]) && (!f[3].len || at(o, NULL, f[3]))) {
			*v = o;
			*name = f[0];
			return true;
		}
	}
	return false;
}

/* One record of the rule r (its fields) from event v (item: its list's,
 * or NULL), to fn with the dialect's name, name. */
static void give(const struct smtpcode_text *r, const char *name, json_t *v,
                 json_t *item, smtpcode_stream_fn *fn, void *ctx)
{
	struct stream_fields f;
	struct smtpcode_logline l;
	char scratch[STREAM_SCRATCH];

	f.recipient = text_of(at(v, item, r[R_RECIPIENT]));
	f.reply = text_of(at(v, item, r[R_REPLY]));
	f.dsn = text_of(at(v, item, r[R_DSN]));
	f.host = text_of(at(v, item, r[R_HOST]));
	f.basic = basic_of(at(v, item, r[R_BASIC]));
	f.status = stream_status(r[R_STATUS]);
	/* SES's reportingMTA is "dns; a.example.com": the host follows. */
	if (f.host.len > 4 && stream_is(f.host.s, 4, "dns;")) {
		f.host.s += 4;
		f.host.len -= 4;
	}
	stream_fill(&l, &f, scratch);
	fn(ctx, &l, name);
}

/* `journalctl -o json`: the MESSAGE field, after "IDENTIFIER[PID]: ",
 * read as the syslog line it was (its dialect's reader finds the
 * program's name there: "postfix/smtp[123]: ..."). */
static int journald(json_t *v, smtpcode_stream_fn *fn, void *ctx)
{
	struct smtpcode_text msg = text_of(at(v, NULL, path_of("MESSAGE")));
	struct smtpcode_text id = text_of(at(v, NULL, path_of("SYSLOG_IDENTIFIER")));
	struct smtpcode_text pid = text_of(at(v, NULL, path_of("SYSLOG_PID|_PID")));
	struct smtpcode_logline l;
	size_t n = 0, size = id.len + pid.len + msg.len + 8;
	char *line;

	if (!msg.len)
		return 0; /* MESSAGE as an array of bytes: not text */
	if (!(line = malloc(size)))
		return 0;
	if (id.len) {
		memcpy(line, id.s, id.len);
		n = id.len;
		if (pid.len) {
			line[n++] = '[';
			memcpy(line + n, pid.s, pid.len);
			n += pid.len;
			line[n++] = ']';
		}
		line[n++] = ':';
		line[n++] = ' ';
	}
	memcpy(line + n, msg.s, msg.len);
	n += msg.len;
	smtpcode_log_parse(line, n, &l);
	fn(ctx, &l, "journald");
	free(line);
	return 1;
}

/* The names of the dialects, as static strings: a record's. */
static const char *dialect_name(struct smtpcode_text name)
{
	static const char *const names[] = {"ses", "sendgrid", "mailgun",
	                                    "postmark", "sparkpost"};
	for (size_t i = 0; i < COUNT(names); i++)
		if (strlen(names[i]) == name.len &&
		    memcmp(names[i], name.s, name.len) == 0)
			return names[i];
	return NULL;
}

/* The records of event v: how many, or -1 when no service writes it. */
static int event(json_t *v, smtpcode_stream_fn *fn, void *ctx)
{
	struct smtpcode_text name, r[R_FIELDS];
	const char *p = rules, *dialect;

	if (!json_is_object(v) || !service_of(&v, &name))
		return -1;
	if (name.len == 8 && memcmp(name.s, "journald", 8) == 0)
		return journald(v, fn, ctx);
	dialect = dialect_name(name);
	while (stream_row(&p, r, R_FIELDS)) {
		json_t *item;
		size_t k;
		int n = 0;
		if (r[R_SERVICE].len != name.len ||
		    memcmp(r[R_SERVICE].s, name.s, name.len) != 0 ||
		    !holds(v, r[R_KIND]) || !holds(v, r[R_SUB]))
			continue;
		if (!r[R_LIST].len) {
			give(r, dialect, v, NULL, fn, ctx);
			return 1;
		}
		json_array_foreach(at(v, NULL, r[R_LIST]), k, item) {
			give(r, dialect, v, item, fn, ctx);
			n++;
		}
		return n;
	}
	return 0; /* an event of the service that is no delivery's */
}

int log_json_read(const char *s, size_t len, smtpcode_stream_fn *fn,
                  void *ctx)
{
	json_error_t err;
	json_t *root = json_loadb(s, len, 0, &err), *v, *inner = NULL;
	int n = -1;

	if (!root)
		return -1;
	/* SES through SNS: the notification is a JSON string in the
	 * envelope's Message. */
	if (json_is_object(root) && holds(root, path_of("Type=Notification")) &&
	    (v = json_object_get(root, "Message")) != NULL && json_is_string(v))
		inner = json_loadb(json_string_value(v), json_string_length(v), 0,
		                   &err);
	v = inner ? inner : root;
	if (json_is_array(v)) { /* a batch: SendGrid's, SparkPost's */
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			int k = event(e, fn, ctx);
			if (k > 0)
				n = (n < 0 ? 0 : n) + k;
			else if (k == 0 && n < 0)
				n = 0;
		}
	} else {
		n = event(v, fn, ctx);
	}
	json_decref(inner);
	json_decref(root);
	return n;
}
