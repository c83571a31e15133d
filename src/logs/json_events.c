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

struct service {
	const char *name;   /* the dialect's */
	const char *root;   /* the event inside a wrapper, when there is one
	                       (Mailgun's webhook: "event-data"), or NULL */
	const char *shape[2]; /* keys every event has (NULL: none more) */
};

/* In order: SendGrid's and Mailgun's events both have "event", told
 * apart by sg_ ids and "recipient". */
static const struct service services[] = {
	{"ses", NULL, {"notificationType|eventType", "mail"}},
	{"sendgrid", NULL, {"event", "sg_event_id|sg_message_id"}},
	{"mailgun", "event-data", {"event", "recipient"}},
	{"postmark", NULL, {"RecordType|TypeCode", "MessageID"}},
	{"sparkpost", "msys.message_event", {"type", "rcpt_to"}},
	{"journald", NULL, {"MESSAGE", "__REALTIME_TIMESTAMP|SYSLOG_IDENTIFIER"}},
};

/* How a kind of event of a service becomes records.  kind and sub are
 * "path=value" (the value compared without regard to case); sub NULL:
 * any.  The first rule of the service whose kind and sub hold is used. */
struct rule {
	const char *service;
	const char *kind, *sub;
	const char *status; /* LOG_STATUS_ */
	const char *list;   /* the array of recipients, or NULL: one record */
	const char *recipient, *reply, *dsn, *host, *basic;
};

#define SES_BOUNCE "bounce.bouncedRecipients", "@emailAddress", \
	"@diagnosticCode", "@status", "bounce.remoteMtaIp", NULL
#define SES_KIND "notificationType|eventType"
#define SENDGRID "email", "reason|response", "status", NULL, NULL
#define MAILGUN "recipient", "delivery-status.message|delivery-status.description", \
	"delivery-status.enhanced-code", "delivery-status.mx-host", \
	"delivery-status.code"
#define POSTMARK "Email|Recipient", "Details", NULL, NULL, NULL
#define SPARKPOST "rcpt_to", "raw_reason|reason", NULL, NULL, "error_code"

static const struct rule rules[] = {
	{"ses", SES_KIND "=Bounce", "bounce.bounceType=Transient",
	 LOG_STATUS_DEFERRED, SES_BOUNCE},
	{"ses", SES_KIND "=Bounce", NULL, LOG_STATUS_BOUNCED, SES_BOUNCE},
	{"ses", SES_KIND "=Complaint", NULL, LOG_STATUS_COMPLAINED,
	 "complaint.complainedRecipients", "@emailAddress", NULL, NULL, NULL, NULL},
	{"ses", SES_KIND "=Delivery", NULL, LOG_STATUS_SENT, "delivery.recipients",
	 "@", "delivery.smtpResponse", NULL, "delivery.reportingMTA", NULL},
	{"sendgrid", "event=bounce", NULL, LOG_STATUS_BOUNCED, NULL, SENDGRID},
	{"sendgrid", "event=dropped", NULL, LOG_STATUS_BOUNCED, NULL, SENDGRID},
	{"sendgrid", "event=deferred", NULL, LOG_STATUS_DEFERRED, NULL, SENDGRID},
	{"sendgrid", "event=delivered", NULL, LOG_STATUS_SENT, NULL, SENDGRID},
	{"sendgrid", "event=spamreport", NULL, LOG_STATUS_COMPLAINED, NULL, SENDGRID},
	{"mailgun", "event=failed", "severity=temporary", LOG_STATUS_DEFERRED,
	 NULL, MAILGUN},
	{"mailgun", "event=failed", NULL, LOG_STATUS_BOUNCED, NULL, MAILGUN},
	{"mailgun", "event=delivered", NULL, LOG_STATUS_SENT, NULL, MAILGUN},
	{"mailgun", "event=complained", NULL, LOG_STATUS_COMPLAINED, NULL, MAILGUN},
	{"postmark", "RecordType=SpamComplaint", NULL, LOG_STATUS_COMPLAINED,
	 NULL, POSTMARK},
	{"postmark", "RecordType=Delivery", NULL, LOG_STATUS_SENT, NULL, POSTMARK},
	{"postmark", "Type=SpamComplaint", NULL, LOG_STATUS_COMPLAINED, NULL,
	 POSTMARK},
	{"postmark", "Type=SoftBounce", NULL, LOG_STATUS_DEFERRED, NULL, POSTMARK},
	{"postmark", "Type=Transient", NULL, LOG_STATUS_DEFERRED, NULL, POSTMARK},
	{"postmark", "RecordType=Bounce", NULL, LOG_STATUS_BOUNCED, NULL, POSTMARK},
	{"sparkpost", "type=bounce", NULL, LOG_STATUS_BOUNCED, NULL, SPARKPOST},
	{"sparkpost", "type=out_of_band", NULL, LOG_STATUS_BOUNCED, NULL, SPARKPOST},
	{"sparkpost", "type=policy_rejection", NULL, LOG_STATUS_BOUNCED, NULL,
	 SPARKPOST},
	{"sparkpost", "type=delay", NULL, LOG_STATUS_DEFERRED, NULL, SPARKPOST},
	{"sparkpost", "type=delivery", NULL, LOG_STATUS_SENT, NULL, SPARKPOST},
	{"sparkpost", "type=spam_complaint", NULL, LOG_STATUS_COMPLAINED, NULL,
	 SPARKPOST},
};

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

/* The value at path in v ('@' paths in item), or NULL. */
static json_t *at(json_t *v, json_t *item, const char *path)
{
	const char *alt = path;

	if (!path)
		return NULL;
	if (*path == '@') {
		if (!path[1])
			return item;
		v = item;
		alt = ++path;
	}
	for (;;) { /* each alternative, "x|y" */
		const char *end = alt + strcspn(alt, "|"), *k = alt;
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
		if (!*end)
			return NULL;
		alt = end + 1;
	}
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

/* Whether "path=value" holds in v. */
static bool holds(json_t *v, const char *test)
{
	const char *eq = strrchr(test, '=');
	char path[64];
	struct smtpcode_text t;
	size_t n = (size_t)(eq - test);

	if (n >= sizeof path)
		return false;
	memcpy(path, test, n);
	path[n] = '\0';
	t = text_of(at(v, NULL, path));
	if (!t.len || t.len != strlen(eq + 1))
		return false;
	for (size_t i = 0; i < t.len; i++)
		if (scan_fold((unsigned char)t.s[i]) !=
		    scan_fold((unsigned char)eq[1 + i]))
			return false;
	return true;
}

static const struct service *service_of(json_t **v)
{
	for (size_t i = 0; i < COUNT(services); i++) {
		const struct service *s = &services[i];
		json_t *e = s->root ? at(*v, NULL, s->root) : NULL;
		json_t *o = e ? e : *v;
		if (at(o, NULL, s->shape[0]) && (!s->shape[1] || at(o, NULL, s->shape[1]))) {
			*v = o;
			return s;
		}
	}
	return NULL;
}

/* One record of rule r from event v (item: its list's, or NULL). */
static void give(const struct rule *r, json_t *v, json_t *item,
                 smtpcode_stream_fn *fn, void *ctx)
{
	struct stream_fields f;
	struct smtpcode_logline l;
	char scratch[STREAM_SCRATCH];

	f.recipient = text_of(at(v, item, r->recipient));
	f.reply = text_of(at(v, item, r->reply));
	f.dsn = text_of(at(v, item, r->dsn));
	f.host = text_of(at(v, item, r->host));
	f.basic = basic_of(at(v, item, r->basic));
	f.status = r->status;
	/* SES's reportingMTA is "dns; a.example.com": the host follows. */
	if (f.host.len > 4 && stream_is(f.host.s, 4, "dns;")) {
		f.host.s += 4;
		f.host.len -= 4;
	}
	stream_fill(&l, &f, scratch);
	fn(ctx, &l, r->service);
}

/* `journalctl -o json`: the MESSAGE field, after "IDENTIFIER[PID]: ",
 * read as the syslog line it was (its dialect's reader finds the
 * program's name there: "postfix/smtp[123]: ..."). */
static int journald(json_t *v, smtpcode_stream_fn *fn, void *ctx)
{
	struct smtpcode_text msg = text_of(at(v, NULL, "MESSAGE"));
	struct smtpcode_text id = text_of(at(v, NULL, "SYSLOG_IDENTIFIER"));
	struct smtpcode_text pid = text_of(at(v, NULL, "SYSLOG_PID|_PID"));
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

/* The records of event v: how many, or -1 when no service writes it. */
static int event(json_t *v, smtpcode_stream_fn *fn, void *ctx)
{
	const struct service *s;
	int n = 0;

	if (!json_is_object(v) || !(s = service_of(&v)))
		return -1;
	if (strcmp(s->name, "journald") == 0)
		return journald(v, fn, ctx);
	for (size_t i = 0; i < COUNT(rules); i++) {
		const struct rule *r = &rules[i];
		json_t *list, *item;
		size_t k;
		if (strcmp(r->service, s->name) != 0 || !holds(v, r->kind) ||
		    (r->sub && !holds(v, r->sub)))
			continue;
		if (!r->list) {
			give(r, v, NULL, fn, ctx);
			return 1;
		}
		list = at(v, NULL, r->list);
		json_array_foreach(list, k, item) {
			give(r, v, item, fn, ctx);
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
	if (json_is_object(root) && holds(root, "Type=Notification") &&
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
