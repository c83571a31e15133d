/* Mail log lines and codes in free text (src/logs/logline.c). */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codes.h"
#include "smtpcode.h"

/* ---- Helpers ---- */

/* A heap copy of s[0..n) with no byte after it, so that reading past n is
 * an error valgrind and ASan see. */
static char *exact_copy(const char *s, size_t n)
{
	char *p = malloc(n ? n : 1);
	assert_non_null(p);
	if (n)
		memcpy(p, s, n);
	return p;
}

static void expect_text(const char *what, const char *line,
                        struct smtpcode_text t, const char *want)
{
	if (!want)
		want = "";
	if (t.len != strlen(want) || (t.len && memcmp(t.s, want, t.len)))
		fail_msg("%s: got '%.*s', want '%s'\n  in: %s", what, (int)t.len,
		         t.s ? t.s : "", want, line);
}

static void expect_code(const char *what, const char *line,
                        const struct smtpcode_query *q, const char *want)
{
	char buf[64];
	if (!want)
		want = "";
	if (strcmp(codes_text(q, buf, sizeof buf), want) != 0)
		fail_msg("%s: got '%s', want '%s'\n  in: %s", what, buf, want,
		         line);
}

static void expect_inside(const char *what, struct smtpcode_text t,
                          const char *buf, size_t len)
{
	if (t.len == 0)
		return;
	if (t.s < buf || t.s > buf + len || t.len > (size_t)(buf + len - t.s))
		fail_msg("%s: span outside the input", what);
}

static bool has_any(const struct smtpcode_logline *l)
{
	return l->code.basic || l->code.enhanced;
}

/* The invariants of any parse of buf[0..len), whatever the input. */
static void expect_invariants(const struct smtpcode_logline *l,
                              const char *buf, size_t len)
{
	expect_inside("recipient", l->recipient, buf, len);
	expect_inside("domain", l->domain, buf, len);
	expect_inside("relay", l->relay, buf, len);
	/* The reply Postfix sends for a failed login is the data's. */
	if (!(l->format == SMTPCODE_LOG_SMTPD && l->status.len == 11 &&
	      memcmp(l->status.s, "auth-failed", 11) == 0))
		expect_inside("reply", l->reply, buf, len);
	expect_inside("dsn", l->dsn, buf, len);
	/* The code's text lies in the reply and runs to its end. */
	if (l->code.text_len) {
		assert_true(l->reply.len > 0);
		assert_int_equal(l->code.text_off + l->code.text_len,
		                 l->reply.len);
	}
	/* A reply without a code is a layout's words. */
	if (has_any(l))
		assert_true(l->reply.len > 0);
}

/* ---- Delivery lines: one realistic line per case ---- */

struct line_case {
	const char *line;
	enum smtpcode_log_format format;
	bool found;
	const char *recipient, *domain, *relay, *status, *stage, *reply;
	const char *code, *dsn, *dsn_code;
};

#define SYSLOG "Mar  1 10:00:00 mail "
#define EXIMTS "2024-03-01 10:00:00 "

static const struct line_case lines[] = {
    /* Postfix delivery agents. */
    {.line = SYSLOG "postfix/smtp[12345]: 3F2A81C0A2: to=<user@example.com>, "
             "relay=mx.example.com[192.0.2.10]:25, delay=1.2, "
             "delays=0.1/0/0.5/0.6, dsn=4.3.1, status=deferred (host "
             "mx.example.com[192.0.2.10] said: 452 4.3.1 Insufficient system "
             "storage (in reply to RCPT TO command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "user@example.com", .domain = "example.com",
     .relay = "mx.example.com[192.0.2.10]:25", .status = "deferred",
     .stage = "rcpt", .reply = "452 4.3.1 Insufficient system storage",
     .code = "452 4.3.1", .dsn = "4.3.1", .dsn_code = "4.3.1"},
    /* RFC 3339 prefix, custom syslog_name, orig_to, bounced. */
    {.line = "2024-05-01T10:00:00.123456+02:00 mx1 postfix-out/smtp[2211]: "
             "4TqR5Z1x2Bz9sWd: to=<bob@example.net>, "
             "orig_to=<info@example.org>, "
             "relay=mail.example.net[198.51.100.20]:25, delay=0.52, "
             "delays=0.01/0.01/0.3/0.2, dsn=5.1.1, status=bounced (host "
             "mail.example.net[198.51.100.20] said: 550 5.1.1 "
             "<bob@example.net>: Recipient address rejected: User unknown in "
             "virtual mailbox table (in reply to RCPT TO command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "bob@example.net", .domain = "example.net",
     .relay = "mail.example.net[198.51.100.20]:25", .status = "bounced",
     .stage = "rcpt",
     .reply = "550 5.1.1 <bob@example.net>: Recipient address rejected: User "
              "unknown in virtual mailbox table",
     .code = "550 5.1.1", .dsn = "5.1.1", .dsn_code = "5.1.1"},
    {.line = SYSLOG "postfix/smtp[12345]: 3F2A81C0A2: to=<user@example.com>, "
             "relay=mx.example.com[192.0.2.10]:25, delay=0.9, "
             "delays=0.1/0/0.3/0.5, dsn=2.0.0, status=sent (250 2.0.0 Ok: "
             "queued as 4TqR6B2cJfz1xyz)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "user@example.com", .domain = "example.com",
     .relay = "mx.example.com[192.0.2.10]:25", .status = "sent",
     .reply = "250 2.0.0 Ok: queued as 4TqR6B2cJfz1xyz", .code = "250 2.0.0",
     .dsn = "2.0.0", .dsn_code = "2.0.0"},
    /* Gmail: a multi-line reply joined on one line. */
    {.line = SYSLOG "postfix/smtp[3311]: 9B1C2D3E4F: to=<someone@gmail.com>, "
             "relay=gmail-smtp-in.l.google.com[142.250.27.26]:25, delay=1.4, "
             "delays=0.1/0/0.4/0.9, dsn=5.7.26, status=bounced (host "
             "gmail-smtp-in.l.google.com[142.250.27.26] said: 550-5.7.26 This "
             "mail has been blocked because the sender is unauthenticated. "
             "550-5.7.26 Gmail requires all senders to authenticate with "
             "either SPF or DKIM. 550 5.7.26 "
             "https://support.google.com/mail/answer/81126 - gsmtp (in reply "
             "to end of DATA command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "someone@gmail.com", .domain = "gmail.com",
     .relay = "gmail-smtp-in.l.google.com[142.250.27.26]:25",
     .status = "bounced", .stage = "end-of-data",
     .reply = "550-5.7.26 This mail has been blocked because the sender is "
              "unauthenticated. 550-5.7.26 Gmail requires all senders to "
              "authenticate with either SPF or DKIM. 550 5.7.26 "
              "https://support.google.com/mail/answer/81126 - gsmtp",
     .code = "550 5.7.26", .dsn = "5.7.26", .dsn_code = "5.7.26"},
    {.line = SYSLOG "postfix/smtp[4410]: 5C6D7E8F9A: to=<ann@example.org>, "
             "relay=mx.example.org[203.0.113.5]:25, delay=0.3, "
             "delays=0.01/0/0.2/0.09, dsn=4.7.0, status=deferred (host "
             "mx.example.org[203.0.113.5] said: 421 4.7.0 Sender rate limit "
             "exceeded (in reply to MAIL FROM command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "ann@example.org", .domain = "example.org",
     .relay = "mx.example.org[203.0.113.5]:25", .status = "deferred",
     .stage = "mail", .reply = "421 4.7.0 Sender rate limit exceeded",
     .code = "421 4.7.0", .dsn = "4.7.0", .dsn_code = "4.7.0"},
    /* The reply's code and dsn= differ: Postfix supplies 5.0.0 for a
     * reply without an enhanced code. */
    {.line = SYSLOG "postfix/smtp[4410]: 6D7E8F9A0B: to=<old@example.org>, "
             "relay=mx.example.org[203.0.113.5]:25, delay=0.4, "
             "delays=0.01/0/0.2/0.2, dsn=5.0.0, status=bounced (host "
             "mx.example.org[203.0.113.5] said: 550 Mailbox unavailable (in "
             "reply to RCPT TO command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "old@example.org", .domain = "example.org",
     .relay = "mx.example.org[203.0.113.5]:25", .status = "bounced",
     .stage = "rcpt", .reply = "550 Mailbox unavailable", .code = "550",
     .dsn = "5.0.0", .dsn_code = "5.0.0"},
    /* No remote reply: the code comes from dsn= alone. */
    {.line = SYSLOG "postfix/smtp[2301]: 7E3F1A2B3C: to=<ops@example.com>, "
             "relay=none, delay=30, delays=0.02/0/30/0, dsn=4.4.1, "
             "status=deferred (connect to mx.example.com[192.0.2.1]:25: "
             "Connection timed out)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "ops@example.com", .domain = "example.com",
     .relay = "none", .status = "deferred", .dsn = "4.4.1",
     .reply = "connect to mx.example.com[192.0.2.1]:25: Connection timed out",
     .dsn_code = "4.4.1"},
    {.line = SYSLOG "postfix/smtp[2301]: 8F4A2B3C4D: to=<ops@example.com>, "
             "relay=none, delay=0.1, delays=0.02/0/0.08/0, dsn=4.7.0, "
             "status=deferred (delivery temporarily suspended: host "
             "mx.example.com[192.0.2.1] refused to talk to me: 421 4.7.0 Try "
             "again later)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "ops@example.com", .domain = "example.com",
     .relay = "none", .status = "deferred",
     .reply = "421 4.7.0 Try again later", .code = "421 4.7.0",
     .dsn = "4.7.0", .dsn_code = "4.7.0"},
    /* Postfix's own bounce, by local(8). */
    {.line = SYSLOG "postfix/local[4102]: 5D6E7F8A9B: to=<x@mail.example.com>, "
             "relay=local, delay=0.03, delays=0.02/0/0/0.01, dsn=5.1.1, "
             "status=bounced (unknown user: \"x\")",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "x@mail.example.com", .domain = "mail.example.com",
     .relay = "local", .status = "bounced", .dsn = "5.1.1",
     .reply = "unknown user: \"x\"", .dsn_code = "5.1.1"},
    /* LMTP, with parentheses inside the reply. */
    {.line = SYSLOG "postfix/lmtp[5120]: 1A2B3C4D5E: to=<alice@example.com>, "
             "relay=mail.example.com[private/dovecot-lmtp], delay=0.1, "
             "delays=0.05/0.01/0/0.04, dsn=5.2.2, status=bounced (host "
             "mail.example.com[private/dovecot-lmtp] said: 552 5.2.2 "
             "<alice@example.com> Quota exceeded (mailbox for user is full) "
             "(in reply to end of DATA command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "alice@example.com", .domain = "example.com",
     .relay = "mail.example.com[private/dovecot-lmtp]", .status = "bounced",
     .stage = "end-of-data",
     .reply = "552 5.2.2 <alice@example.com> Quota exceeded (mailbox for user "
              "is full)",
     .code = "552 5.2.2", .dsn = "5.2.2", .dsn_code = "5.2.2"},
    {.line = SYSLOG "postfix/virtual[812]: 0C1D2E3F4A: to=<carol@example.org>, "
             "relay=virtual, delay=0.01, delays=0/0/0/0.01, dsn=5.2.2, "
             "status=bounced (cannot update mailbox "
             "/var/mail/vhosts/example.org/carol for user carol. file too "
             "large)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "carol@example.org", .domain = "example.org",
     .relay = "virtual", .status = "bounced", .dsn = "5.2.2",
     .reply = "cannot update mailbox /var/mail/vhosts/example.org/carol for "
              "user carol. file too large",
     .dsn_code = "5.2.2"},
    {.line = SYSLOG "postfix/pipe[9120]: 6B7C8D9E0F: to=<dave@example.com>, "
             "orig_to=<d@example.com>, relay=dovecot, delay=0.2, "
             "delays=0.1/0/0/0.1, dsn=5.1.1, status=bounced (user unknown. "
             "Command output: Invalid user specified. )",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "dave@example.com", .domain = "example.com",
     .relay = "dovecot", .status = "bounced", .dsn = "5.1.1",
     .reply = "user unknown. Command output: Invalid user specified.",
     .dsn_code = "5.1.1"},
    {.line = SYSLOG "postfix/error[7321]: C93CEB08A0: to=<order@example.ru>, "
             "relay=none, delay=432000, delays=431970/0.02/30/0, dsn=4.4.1, "
             "status=expired, returned to sender",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "order@example.ru", .domain = "example.ru",
     .relay = "none", .status = "expired", .dsn = "4.4.1",
     .dsn_code = "4.4.1"},
    /* A local recipient has no domain. */
    {.line = SYSLOG "postfix/local[4102]: 2B3C4D5E6F: to=<root>, "
             "relay=local, delay=0.01, delays=0/0/0/0.01, dsn=2.0.0, "
             "status=sent (delivered to mailbox)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "root",
     .relay = "local", .status = "sent", .dsn = "2.0.0",
     .reply = "delivered to mailbox", .dsn_code = "2.0.0"},

    /* Postfix rejects. */
    {.line = SYSLOG "postfix/smtpd[2211]: NOQUEUE: reject: RCPT from "
             "unknown[198.51.100.7]: 554 5.7.1 <spam@example.net>: Relay "
             "access denied; from=<a@example.org> to=<spam@example.net> "
             "proto=ESMTP helo=<x>",
     .format = SMTPCODE_LOG_SMTPD, .found = true,
     .recipient = "spam@example.net", .domain = "example.net",
     .relay = "unknown[198.51.100.7]", .status = "rejected", .stage = "rcpt",
     .reply = "554 5.7.1 <spam@example.net>: Relay access denied",
     .code = "554 5.7.1"},
    {.line = SYSLOG "postfix/smtpd[2211]: NOQUEUE: reject_warning: RCPT from "
             "mail.example.org[203.0.113.9]: 450 4.7.1 Client host rejected: "
             "cannot find your reverse hostname, [203.0.113.9]; "
             "from=<news@example.org> to=<me@example.com> proto=ESMTP "
             "helo=<mail.example.org>",
     .format = SMTPCODE_LOG_SMTPD, .found = true,
     .recipient = "me@example.com", .domain = "example.com",
     .relay = "mail.example.org[203.0.113.9]", .status = "warned",
     .stage = "rcpt",
     .reply = "450 4.7.1 Client host rejected: cannot find your reverse "
              "hostname, [203.0.113.9]",
     .code = "450 4.7.1"},
    /* postscreen: "; " inside the reply, ", " between the names. */
    {.line = SYSLOG "postfix/postscreen[1032]: NOQUEUE: reject: RCPT from "
             "[192.0.2.44]:51234: 550 5.7.1 Service unavailable; client "
             "[192.0.2.44] blocked using zen.spamhaus.org; "
             "from=<bulk@example.biz>, to=<me@example.com>, proto=ESMTP, "
             "helo=<bulk.example.biz>",
     .format = SMTPCODE_LOG_SMTPD, .found = true,
     .recipient = "me@example.com", .domain = "example.com",
     .relay = "[192.0.2.44]:51234", .status = "rejected", .stage = "rcpt",
     .reply = "550 5.7.1 Service unavailable; client [192.0.2.44] blocked "
              "using zen.spamhaus.org",
     .code = "550 5.7.1"},
    /* The names start at the last "; " followed by one of them: not at a
     * "; to=<" inside the reply, nor at a "; " inside a value. */
    {.line = SYSLOG "postfix/smtpd[2211]: NOQUEUE: reject: RCPT from "
             "unknown[198.51.100.7]: 550 5.7.1 Denied; to=<x@evil.example> "
             "listed; from=<a@example.org> to=<b@example.com> proto=ESMTP "
             "helo=<a; b>",
     .format = SMTPCODE_LOG_SMTPD, .found = true,
     .recipient = "b@example.com", .domain = "example.com",
     .relay = "unknown[198.51.100.7]", .status = "rejected", .stage = "rcpt",
     .reply = "550 5.7.1 Denied; to=<x@evil.example> listed",
     .code = "550 5.7.1"},
    {.line = SYSLOG "postfix/cleanup[3120]: 8A9B0C1D2E: milter-reject: "
             "END-OF-MESSAGE from unknown[198.51.100.7]: 5.7.1 Rejected by "
             "SPAM filter; from=<a@example.org> to=<b@example.com> "
             "proto=ESMTP helo=<x>",
     .format = SMTPCODE_LOG_SMTPD, .found = true,
     .recipient = "b@example.com", .domain = "example.com",
     .relay = "unknown[198.51.100.7]", .status = "rejected",
     .stage = "end-of-data", .reply = "5.7.1 Rejected by SPAM filter",
     .code = "5.7.1"},
    {.line = SYSLOG "postfix/smtpd[2211]: NOQUEUE: reject: MAIL from "
             "unknown[198.51.100.7]: 552 5.3.4 Message size exceeds fixed "
             "limit; proto=ESMTP helo=<x>",
     .format = SMTPCODE_LOG_SMTPD, .found = true,
     .relay = "unknown[198.51.100.7]", .status = "rejected", .stage = "mail",
     .reply = "552 5.3.4 Message size exceeds fixed limit",
     .code = "552 5.3.4"},
    {.line = SYSLOG "postfix/smtpd[2211]: 4F5A6B7C8D: reject: DATA from "
             "unknown[198.51.100.7]: 550 5.5.3 <DATA>: Data command "
             "rejected: Multi-recipient bounce; from=<> proto=ESMTP helo=<x>",
     .format = SMTPCODE_LOG_SMTPD, .found = true,
     .relay = "unknown[198.51.100.7]", .status = "rejected", .stage = "data",
     .reply = "550 5.5.3 <DATA>: Data command rejected: Multi-recipient "
              "bounce",
     .code = "550 5.5.3"},
    /* IPv6 client: colons inside brackets. */
    {.line = SYSLOG "postfix/smtpd[2211]: NOQUEUE: reject: CONNECT from "
             "unknown[2001:db8::5]: 554 5.7.1 <unknown[2001:db8::5]>: Client "
             "host rejected: Access denied; proto=SMTP",
     .format = SMTPCODE_LOG_SMTPD, .found = true,
     .relay = "unknown[2001:db8::5]", .status = "rejected",
     .stage = "connect",
     .reply = "554 5.7.1 <unknown[2001:db8::5]>: Client host rejected: "
              "Access denied",
     .code = "554 5.7.1"},
    /* Found by fuzzing: the client's ": " is not looked for past the
     * names, so no inverted span reaches the reply. */
    {.line = SYSLOG "postfix/cleanup[3120]: 8A9B0C1D2E: milter-reject: "
             "END-OF-MESSAGE from unknown[198.51.100.7]:. 57.1 Rejected; "
             "from=<a@example.org> to=<b@example.com> note: 5.7.1 x",
     .format = SMTPCODE_LOG_SMTPD, .found = false,
     .recipient = "b@example.com", .domain = "example.com",
     .status = "rejected", .stage = "end-of-data"},
    /* cleanup's header_checks: the reply comes after the names. */
    {.line = SYSLOG "postfix/cleanup[3120]: 8A9B0C1D2E: reject: header "
             "Subject: You won from unknown[198.51.100.7]; "
             "from=<a@example.org> to=<b@example.com> proto=ESMTP helo=<x>: "
             "5.7.1 Message content rejected",
     .format = SMTPCODE_LOG_SMTPD, .found = true,
     .recipient = "b@example.com", .domain = "example.com",
     .relay = "unknown[198.51.100.7]", .status = "rejected",
     .stage = "header", .reply = "5.7.1 Message content rejected",
     .code = "5.7.1"},

    /* Exim. */
    {.line = EXIMTS "1rfXyz-000AbC-2D ** user@example.com R=dnslookup "
             "T=remote_smtp H=mx.example.com [192.0.2.5]: SMTP error from "
             "remote mail server after RCPT TO:<user@example.com>: 550 5.1.1 "
             "<user@example.com>: Recipient address rejected: User unknown",
     .format = SMTPCODE_LOG_EXIM, .found = true,
     .recipient = "user@example.com", .domain = "example.com",
     .relay = "mx.example.com [192.0.2.5]", .status = "bounced",
     .stage = "rcpt",
     .reply = "550 5.1.1 <user@example.com>: Recipient address rejected: "
              "User unknown",
     .code = "550 5.1.1"},
    /* Exim 4.97 message ID, pid, parent address, fields after H=. */
    {.line = "2024-03-01 10:00:05.123 [4242] 1sUkxA-00000000Dbg-0bSP ** "
             "bob@example.net <info@example.org> F=<news@example.org> "
             "R=dnslookup T=remote_smtp H=mail.example.net [198.51.100.20] "
             "X=TLS1.3:TLS_AES_256_GCM_SHA384:256 CV=yes: SMTP error from "
             "remote mail server after end of data: 550 5.7.1 Message "
             "rejected as spam",
     .format = SMTPCODE_LOG_EXIM, .found = true,
     .recipient = "bob@example.net", .domain = "example.net",
     .relay = "mail.example.net [198.51.100.20]", .status = "bounced",
     .stage = "end-of-data", .reply = "550 5.7.1 Message rejected as spam",
     .code = "550 5.7.1"},
    {.line = EXIMTS "1rfXyz-000AbC-2D == user@example.com R=dnslookup "
             "T=remote_smtp defer (-44) H=mx.example.com [192.0.2.5]: SMTP "
             "error from remote mail server after RCPT TO:<user@example.com>: "
             "452 4.2.2 Mailbox full",
     .format = SMTPCODE_LOG_EXIM, .found = true,
     .recipient = "user@example.com", .domain = "example.com",
     .relay = "mx.example.com [192.0.2.5]", .status = "deferred",
     .stage = "rcpt", .reply = "452 4.2.2 Mailbox full",
     .code = "452 4.2.2"},
    /* Before Exim 4.90 the host followed the command. */
    {.line = "2019-06-01 08:00:00 1hWqZx-0001Ab-9C == user@example.com "
             "R=dnslookup T=remote_smtp defer (-44): SMTP error from remote "
             "mail server after RCPT TO:<user@example.com>: host "
             "mx.example.com [192.0.2.5]: 451 4.7.1 Greylisted, try again "
             "later",
     .format = SMTPCODE_LOG_EXIM, .found = true,
     .recipient = "user@example.com", .domain = "example.com",
     .relay = "mx.example.com [192.0.2.5]", .status = "deferred",
     .stage = "rcpt", .reply = "451 4.7.1 Greylisted, try again later",
     .code = "451 4.7.1"},
    {.line = EXIMTS "1rfXyz-000AbC-2D ** user@example.com R=dnslookup "
             "T=remote_smtp H=mx.example.com [192.0.2.5]:587: SMTP error "
             "from remote mail server after pipelined MAIL "
             "FROM:<news@example.org> SIZE=2048: 550 5.7.1 Sender rejected",
     .format = SMTPCODE_LOG_EXIM, .found = true,
     .recipient = "user@example.com", .domain = "example.com",
     .relay = "mx.example.com [192.0.2.5]:587", .status = "bounced",
     .stage = "mail", .reply = "550 5.7.1 Sender rejected",
     .code = "550 5.7.1"},
    {.line = EXIMTS "1rfXyz-000AbC-2D ** alice@example.com R=virtual_user "
             "T=dovecot_lmtp: LMTP error after RCPT TO:<alice@example.com>: "
             "552 5.2.2 Mailbox is full",
     .format = SMTPCODE_LOG_EXIM, .found = true,
     .recipient = "alice@example.com", .domain = "example.com",
     .status = "bounced", .stage = "rcpt",
     .reply = "552 5.2.2 Mailbox is full", .code = "552 5.2.2"},
    /* Exim's own texts: no code, so false, but the line is read, its
     * words as the reply. */
    {.line = EXIMTS "1rfXyz-000AbC-2D ** x@y.example: Unrouteable address",
     .format = SMTPCODE_LOG_EXIM, .found = false, .recipient = "x@y.example",
     .domain = "y.example", .status = "bounced",
     .reply = "Unrouteable address"},
    {.line = EXIMTS "1rfXyz-000AbC-2D == user@example.com R=dnslookup "
             "T=remote_smtp defer (110): Connection timed out H=mx.example.com "
             "[192.0.2.5]",
     .format = SMTPCODE_LOG_EXIM, .found = false,
     .recipient = "user@example.com", .domain = "example.com",
     .relay = "mx.example.com [192.0.2.5]", .status = "deferred",
     .reply = "Connection timed out"},

    /* Sendmail. */
    {.line = SYSLOG "sm-mta[123]: 41AB0x1N012345: to=<user@example.com>, "
             "delay=00:00:01, xdelay=00:00:01, mailer=esmtp, pri=120, "
             "relay=mx.example.com. [192.0.2.9], dsn=4.3.1, stat=Deferred: "
             "452 4.3.1 Insufficient system storage",
     .format = SMTPCODE_LOG_SENDMAIL, .found = true,
     .recipient = "user@example.com", .domain = "example.com",
     .relay = "mx.example.com. [192.0.2.9]", .status = "deferred",
     .reply = "452 4.3.1 Insufficient system storage", .code = "452 4.3.1",
     .dsn = "4.3.1", .dsn_code = "4.3.1"},
    {.line = SYSLOG "sendmail[4567]: 41AB0x1N012346: to=<nobody@example.com>, "
             "ctladdr=<root@mail.example.com> (0/0), delay=00:00:00, "
             "xdelay=00:00:00, mailer=esmtp, pri=30504, "
             "relay=mx.example.com. [192.0.2.9], dsn=5.1.1, stat=User unknown",
     .format = SMTPCODE_LOG_SENDMAIL, .found = true,
     .recipient = "nobody@example.com", .domain = "example.com",
     .relay = "mx.example.com. [192.0.2.9]", .status = "bounced",
     .reply = "User unknown", .dsn = "5.1.1", .dsn_code = "5.1.1"},
    {.line = SYSLOG "sm-mta[123]: 41AB0x1N012348: to=<info@example.net>, "
             "delay=00:00:03, xdelay=00:00:03, mailer=esmtp, pri=120, "
             "relay=mx.example.net. [198.51.100.3], dsn=5.0.0, stat=Service "
             "unavailable",
     .format = SMTPCODE_LOG_SENDMAIL, .found = true,
     .recipient = "info@example.net", .domain = "example.net",
     .relay = "mx.example.net. [198.51.100.3]",
     .status = "bounced", .reply = "Service unavailable", .dsn = "5.0.0",
     .dsn_code = "5.0.0"},
    /* Several recipients, without <>: the first is reported. */
    {.line = SYSLOG "sm-mta[123]: 41AB0x1N012347: "
             "to=alice@example.com,bob@example.com, delay=00:00:02, "
             "xdelay=00:00:02, mailer=esmtp, pri=150, "
             "relay=mx.example.com. [192.0.2.9], dsn=2.0.0, stat=Sent "
             "(41AC1y2P Message accepted for delivery)",
     .format = SMTPCODE_LOG_SENDMAIL, .found = true,
     .recipient = "alice@example.com", .domain = "example.com",
     .relay = "mx.example.com. [192.0.2.9]", .status = "sent",
     .reply = "41AC1y2P Message accepted for delivery", .dsn = "2.0.0",
     .dsn_code = "2.0.0"},
    {.line = SYSLOG "sm-mta[123]: 41AB0x1N012349: "
             "to=<a@example.com>,<b@example.com>, delay=00:00:02, "
             "xdelay=00:00:02, mailer=esmtp, pri=150, "
             "relay=mx.example.com. [192.0.2.9], dsn=2.0.0, stat=Sent (Ok: "
             "queued as 4TqR6B2cJfz1xyz)",
     .format = SMTPCODE_LOG_SENDMAIL, .found = true,
     .recipient = "a@example.com", .domain = "example.com",
     .relay = "mx.example.com. [192.0.2.9]", .status = "sent",
     .reply = "Ok: queued as 4TqR6B2cJfz1xyz", .dsn = "2.0.0",
     .dsn_code = "2.0.0"},

    /* Other lines: codes in free text. */
    {.line = SYSLOG "postfix/smtp[3311]: 9B1C2D3E4F: host "
             "mx.example.com[192.0.2.10] said: 421 4.7.0 Try again later, "
             "closing connection. (in reply to end of DATA command)",
     .format = SMTPCODE_LOG_TEXT, .found = true,
     .reply = "421 4.7.0 Try again later, closing connection. (in reply to "
              "end of DATA command)",
     .code = "421 4.7.0"},
    {.line = "Remote Server returned '550 5.1.10 "
             "RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP "
             "address lookup'",
     .format = SMTPCODE_LOG_TEXT, .found = true,
     .reply = "550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not "
              "found by SMTP address lookup'",
     .code = "550 5.1.10"},
    /* The usual fields' fast path: the recipient's last '@' before its
     * '>' (an '@' after it, in another field, is not its), across the
     * sixteen bytes read at a time, or none; ", " inside <>. */
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, "
             "relay=c@d[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=2.0.0, "
             "status=sent (250 2.0.0 Ok)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "c@d[192.0.2.1]:25", .status = "sent",
     .reply = "250 2.0.0 Ok", .code = "250 2.0.0", .dsn = "2.0.0",
     .dsn_code = "2.0.0"},
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: "
             "to=<\"x@y\"@a-rather-long-domain.example.com>, relay=none, "
             "delay=1, delays=0/0/0/1, dsn=4.4.1, status=deferred",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "\"x@y\"@a-rather-long-domain.example.com",
     .domain = "a-rather-long-domain.example.com", .relay = "none",
     .status = "deferred", .dsn = "4.4.1", .dsn_code = "4.4.1"},
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: "
             "to=<some.long.local.part@example.org>, relay=none, delay=1, "
             "delays=0/0/0/1, dsn=4.4.1, status=deferred",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "some.long.local.part@example.org",
     .domain = "example.org", .relay = "none", .status = "deferred",
     .dsn = "4.4.1", .dsn_code = "4.4.1"},
    {.line = SYSLOG "postfix/local[1]: 3F2A81C0A2: "
             "to=<a-local-postmaster-alias>, relay=local, delay=1, "
             "delays=0/0/0/1, dsn=5.1.1, status=bounced",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "a-local-postmaster-alias", .relay = "local",
     .status = "bounced", .dsn = "5.1.1", .dsn_code = "5.1.1"},
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a, b@x>, "
             "relay=<mx, 1>, delay=1, delays=0/0/0/1, dsn=4.4.1, "
             "status=deferred",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a, b@x",
     .domain = "x", .relay = "<mx, 1>", .status = "deferred",
     .dsn = "4.4.1", .dsn_code = "4.4.1"},
    /* The usual fields running into the line's last sixteen bytes. */
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, relay=r, "
             "delay=1, delays=0, dsn=4.4.1, status=x",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "r", .dsn = "4.4.1",
     .dsn_code = "4.4.1"},
    /* The usual end " command)" read from the end: " command" twice (the
     * first is the stage's end), at the stage's start, a stage too long
     * for the places looked at one by one. */
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, relay=r, "
             "delay=1, delays=0, dsn=4.2.2, status=deferred (host h said: "
             "452 4.2.2 Full (in reply to RCPT TO command command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "r", .status = "deferred", .stage = "rcpt",
     .reply = "452 4.2.2 Full", .code = "452 4.2.2", .dsn = "4.2.2",
     .dsn_code = "4.2.2"},
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, relay=r, "
             "delay=1, delays=0, dsn=4.2.2, status=deferred (host h said: "
             "452 4.2.2 Full (in reply to  command command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "r", .status = "deferred", .stage = NULL,
     .reply = "452 4.2.2 Full", .code = "452 4.2.2", .dsn = "4.2.2",
     .dsn_code = "4.2.2"},
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, relay=r, "
             "delay=1, delays=0, dsn=4.2.2, status=deferred (host h said: "
             "452 4.2.2 Full (in reply to end of DATA x command y command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "r", .status = "deferred",
     .stage = "end-of-data", .reply = "452 4.2.2 Full",
     .code = "452 4.2.2", .dsn = "4.2.2", .dsn_code = "4.2.2"},
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, relay=r, "
             "delay=1, delays=0, dsn=4.2.2, status=deferred (host h said: "
             "452 4.2.2 Full (in reply to a stage of many words command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "r", .status = "deferred",
     .reply = "452 4.2.2 Full",
     .code = "452 4.2.2", .dsn = "4.2.2", .dsn_code = "4.2.2"},
    /* Recipients whose '>' is past the first thirty-two bytes read for
     * it, with the last '@' before and after that place. */
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@abcdefghijklmnopqrst"
             "uvwxyz0123.example>, relay=r, delay=1, delays=0, dsn=2.0.0, "
             "status=sent (250 2.0.0 Ok)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "a@abcdefghijklmnopqrstuvwxyz0123.example",
     .domain = "abcdefghijklmnopqrstuvwxyz0123.example", .relay = "r",
     .status = "sent", .reply = "250 2.0.0 Ok", .code = "250 2.0.0",
     .dsn = "2.0.0", .dsn_code = "2.0.0"},
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b@abcdefghijklmnopqr"
             "stuvwxyz0123456789@c.example>, relay=r, delay=1, delays=0, "
             "dsn=2.0.0, status=sent (250 2.0.0 Ok)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true,
     .recipient = "a@b@abcdefghijklmnopqrstuvwxyz0123456789@c.example",
     .domain = "c.example", .relay = "r", .status = "sent",
     .reply = "250 2.0.0 Ok", .code = "250 2.0.0", .dsn = "2.0.0",
     .dsn_code = "2.0.0"},
    /* A stage that starts with "command"; details of three digits, of
     * four, with a leading zero. */
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, relay=r, "
             "delay=1, delays=0/0/0/1, dsn=5.7.708, status=bounced (host h "
             "said: 550 5.7.708 Denied (in reply to command DATA command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "r", .status = "bounced",
     .reply = "550 5.7.708 Denied",
     .code = "550 5.7.708", .dsn = "5.7.708", .dsn_code = "5.7.708"},
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, relay=r, "
             "delay=1, delays=0/0/0/1, dsn=4.3.01, status=deferred (host h "
             "said: 452 4.3.1000 Full (in reply to RCPT TO command))",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "r", .status = "deferred", .stage = "rcpt",
     .reply = "452 4.3.1000 Full", .code = "452", .dsn = "4.3.01"},
    /* Postfix's own words, and a detail that starts as a code may. */
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, relay=none, "
             "delay=1, delays=0/0/0/1, dsn=4.4.1, status=deferred (connect "
             "to mx.example.com[192.0.2.1]:25: Connection timed out)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "none", .status = "deferred", .dsn = "4.4.1",
     .reply = "connect to mx.example.com[192.0.2.1]:25: Connection timed out",
     .dsn_code = "4.4.1"},
    {.line = SYSLOG "postfix/smtp[1]: 3F2A81C0A2: to=<a@b>, relay=none, "
             "delay=1, delays=0/0/0/1, dsn=4.4.1, status=deferred (X.4.1 "
             "timed out, 4.4.2 later)",
     .format = SMTPCODE_LOG_POSTFIX, .found = true, .recipient = "a@b",
     .domain = "b", .relay = "none", .status = "deferred",
     .reply = "X.4.1 timed out, 4.4.2 later", .code = "X.4.1",
     .dsn = "4.4.1", .dsn_code = "4.4.1"},
    /* No code anywhere. */
    {.line = SYSLOG "postfix/qmgr[22753]: C93CEB08A046: "
             "from=<ina@example.com>, status=expired, returned to sender",
     .format = SMTPCODE_LOG_NONE, .found = false},
    {.line = SYSLOG "postfix/smtpd[2211]: connect from "
             "mail.example.org[203.0.113.9]",
     .format = SMTPCODE_LOG_NONE, .found = false},
    {.line = "", .format = SMTPCODE_LOG_NONE, .found = false},
};

static void check_line(const struct line_case *c, const char *suffix)
{
	size_t n = strlen(c->line), m = strlen(suffix);
	char *buf = malloc(n + m ? n + m : 1); /* no NUL after the line */
	struct smtpcode_logline l;
	bool got;

	assert_non_null(buf);
	memcpy(buf, c->line, n);
	memcpy(buf + n, suffix, m);
	got = smtpcode_log_parse(buf, n + m, &l);
	if (got != c->found)
		fail_msg("found: got %d, want %d\n  in: %s", got, c->found, c->line);
	if (l.format != c->format)
		fail_msg("format: got %d, want %d\n  in: %s", (int)l.format,
		         (int)c->format, c->line);
	expect_text("recipient", c->line, l.recipient, c->recipient);
	expect_text("domain", c->line, l.domain, c->domain);
	expect_text("relay", c->line, l.relay, c->relay);
	expect_text("status", c->line, l.status, c->status);
	expect_text("stage", c->line, l.stage, c->stage);
	expect_text("reply", c->line, l.reply, c->reply);
	expect_code("code", c->line, &l.code, c->code);
	expect_text("dsn", c->line, l.dsn, c->dsn);
	expect_code("dsn_code", c->line, &l.dsn_code, c->dsn_code);
	/* The suffix (CR, LF) is part of no field. */
	expect_invariants(&l, buf, n);
	free(buf);
}

static void test_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		check_line(&lines[i], "");
		check_line(&lines[i], "\r");
		check_line(&lines[i], "\r\n");
		check_line(&lines[i], "\n");
	}
}

/* The code's text offsets let the reply be resolved as a whole. */
static void test_reply_text(void **state)
{
	const char *s = lines[0].line;
	struct smtpcode_logline l;
	(void)state;
	assert_true(smtpcode_log_parse(s, strlen(s), &l));
	assert_int_equal(l.code.text_len, strlen("Insufficient system storage"));
	assert_memory_equal(l.reply.s + l.code.text_off,
	                    "Insufficient system storage", l.code.text_len);
}

/* Every prefix of every line: no read past the end, spans inside. */
static void test_truncated(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		size_t n = strlen(lines[i].line);
		for (size_t k = 0; k <= n; k++) {
			char *buf = exact_copy(lines[i].line, k);
			struct smtpcode_logline l;
			smtpcode_log_parse(buf, k, &l);
			expect_invariants(&l, buf, k);
			free(buf);
		}
	}
}

/* Random bytes written over the lines, NUL and >= 0x80 included. */
static void test_mutated(void **state)
{
	uint32_t seed = 12345;
	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		size_t n = strlen(lines[i].line);
		for (int round = 0; n && round < 300; round++) {
			char *buf = exact_copy(lines[i].line, n);
			struct smtpcode_logline l;
			for (int k = 0; k < 1 + round % 4; k++) {
				seed = seed * 1103515245u + 12345u;
				buf[(seed >> 8) % n] = (char)(seed >> 24);
			}
			smtpcode_log_parse(buf, n, &l);
			expect_invariants(&l, buf, n);
			free(buf);
		}
	}
}

/* NUL bytes are ordinary bytes. */
static void test_nul_bytes(void **state)
{
	static const char s[] =
	    "Mar  1 10:00:00 mail\0postfix/smtp[1]: 3F2A: to=<u@example.com>, "
	    "relay=mx.example.com[192.0.2.10]:25, delay=1, delays=0/0/0/1, "
	    "dsn=4.2.2, status=deferred (host mx.example.com[192.0.2.10] said: "
	    "452 4.2.2 Mailbox\0full (in reply to RCPT TO command))";
	struct smtpcode_logline l;
	(void)state;
	assert_true(smtpcode_log_parse(s, sizeof s - 1, &l));
	assert_int_equal(l.format, SMTPCODE_LOG_POSTFIX);
	assert_int_equal(l.reply.len, strlen("452 4.2.2 Mailbox") + 5);
	assert_memory_equal(l.reply.s, "452 4.2.2 Mailbox\0full", l.reply.len);
	expect_text("stage", s, l.stage, "rcpt");
	expect_code("dsn_code", s, &l.dsn_code, "4.2.2");
	assert_false(smtpcode_log_parse(NULL, 0, &l));
	assert_int_equal(l.format, SMTPCODE_LOG_NONE);
}

/* Lines of any length, and inputs built to make a parser backtrack. */
static void test_long_lines(void **state)
{
	const size_t big = 1u << 20;
	char *buf = malloc(big + 256);
	struct smtpcode_logline l;
	const char *tail;
	size_t n;
	(void)state;
	assert_non_null(buf);

	/* A megabyte of reply text. */
	n = (size_t)sprintf(buf, "postfix/smtp[1]: 3F2A: to=<u@example.com>, "
	                         "relay=mx[192.0.2.1]:25, dsn=5.7.1, "
	                         "status=bounced (host mx[192.0.2.1] said: 550 "
	                         "5.7.1 ");
	memset(buf + n, 'x', big);
	n += big;
	tail = " (in reply to end of DATA command))";
	memcpy(buf + n, tail, strlen(tail));
	n += strlen(tail);
	assert_true(smtpcode_log_parse(buf, n, &l));
	assert_int_equal(l.reply.len, strlen("550 5.7.1 ") + big);
	expect_text("stage", "long", l.stage, "end-of-data");

	/* Markers and near-codes over and over, then a code at the very end. */
	static const char *const fill[] = {
	    "5.", " ** ", " == ", "reject", ": to=", "; from=<", "4.3.1.",
	    "1rfXyz-000AbC-2D ** ", ", stat", "0"};
	for (size_t f = 0; f < sizeof fill / sizeof fill[0]; f++) {
		size_t k = strlen(fill[f]);
		for (n = 0; n + k <= big; n += k)
			memcpy(buf + n, fill[f], k);
		memcpy(buf + n, " 4.2.2", 6);
		smtpcode_log_parse(buf, n + 6, &l);
		expect_invariants(&l, buf, n + 6);
		{
			struct smtpcode_query q;
			struct smtpcode_text at;
			assert_true(smtpcode_find_code(buf, n + 6, &q, &at));
			assert_ptr_equal(at.s, buf + n + 1);
		}
	}
	free(buf);
}

/* ---- Lines without anything: the passes that skip them ---- */

/*
 * Where a line may hold a marker or a code is found in passes over it
 * (thirty-two or sixteen places a step, the last step overlapping, a byte
 * at a time in lines under twenty bytes); a line they pass over must be
 * one the full parse finds nothing in.  Each case is tried after 0 to 79
 * bytes of filler, so that what it holds falls at every place of a step,
 * and at the very start and end of the line.
 */
struct skip_case {
	const char *tail;
	enum smtpcode_log_format format;
	const char *reply, *code;
};

static const struct skip_case skips[] = {
    /* Codes in free text, at the end of the line. */
    {"5.7.1", SMTPCODE_LOG_TEXT, "5.7.1", "5.7.1"},
    {"(4.2.2)", SMTPCODE_LOG_TEXT, "4.2.2)", "4.2.2"},
    {"550-5.7.1 denied", SMTPCODE_LOG_TEXT, "550-5.7.1 denied", "550 5.7.1"},
    {"x-550 5.7.1", SMTPCODE_LOG_TEXT, "5.7.1", "5.7.1"},
    {"said: 421 4.7.0 later", SMTPCODE_LOG_TEXT, "421 4.7.0 later",
     "421 4.7.0"},
    /* Only after candidates that glue: the IP addresses' dots. */
    {"rip=192.0.2.5, lip=10.5.7.1 2.0.0", SMTPCODE_LOG_TEXT, "2.0.0",
     "2.0.0"},
    {"v4.3.1 /5.7.1 _4.2.2 x 5.1.1", SMTPCODE_LOG_TEXT, "5.1.1", "5.1.1"},
    /* Nothing: dots that glue, versions, ports, timestamps. */
    {"connect from unknown[203.0.113.9]", SMTPCODE_LOG_NONE, NULL, NULL},
    {"rip=192.0.2.5, lip=10.5.7.1 v4.3.1", SMTPCODE_LOG_NONE, NULL, NULL},
    {"from=<a@b.example>, size=4.21, nrcpt=1 (queue active)",
     SMTPCODE_LOG_NONE, NULL, NULL},
    {"10:00:00 4.3.1000 5.7.1.2", SMTPCODE_LOG_NONE, NULL, NULL},
    {"5.7", SMTPCODE_LOG_NONE, NULL, NULL},
    /* Markers late in the line. */
    {"1rfXyz-000AbC-2D ** a@b.example: Unrouteable address",
     SMTPCODE_LOG_EXIM, "Unrouteable address", NULL},
    {"x: reject: RCPT from a[192.0.2.1]: 554 5.7.1 <b@c>: denied; "
     "from=<a@b> to=<b@c>",
     SMTPCODE_LOG_SMTPD, "554 5.7.1 <b@c>: denied", "554 5.7.1"},
    {"Q: to=<a@b>, relay=none, dsn=4.4.1, status=deferred (connect "
     "refused)",
     SMTPCODE_LOG_POSTFIX, "connect refused", NULL},
    /* After places that have a marker's or a code's first byte looked
     * for ('=', '*', '.', 'j') but are none, in the same step and in
     * steps before. */
    {"a=1 b**c d==e: x=y Q: to=<a@b>, relay=none, dsn=4.4.1, "
     "status=deferred (connect refused)",
     SMTPCODE_LOG_POSTFIX, "connect refused", NULL},
    {"a=1 b**c d==e: x=y f=g h=i j=k l=m n=o p=q r=s t=u v=w Q: to=<a@b>, "
     "relay=none, dsn=4.4.1, status=deferred (connect refused)",
     SMTPCODE_LOG_POSTFIX, "connect refused", NULL},
    {"x=1 y*2 1rfXyz-000AbC-2D ** a@b.example: Unrouteable address",
     SMTPCODE_LOG_EXIM, "Unrouteable address", NULL},
    {"jj j.e 1.2 192.0.2.1 x: reject: RCPT from a[192.0.2.1]: 554 5.7.1 "
     "<b@c>: denied; from=<a@b> to=<b@c>",
     SMTPCODE_LOG_SMTPD, "554 5.7.1 <b@c>: denied", "554 5.7.1"},
    {"jj j.e 1.2 192.0.2.1 a.b.c 10.0.0.1 10.0.0.2 10.0.0.3 x 4.7.1 late",
     SMTPCODE_LOG_TEXT, "4.7.1 late", "4.7.1"},
    {"a=b c=d e=f g=h i=j k=l m=n o=p q=r s=t u=v w=x y=z 1.2.3.4 nothing",
     SMTPCODE_LOG_NONE, NULL, NULL},
};

static void test_skipped_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof skips / sizeof skips[0]; i++) {
		const struct skip_case *c = &skips[i];
		size_t t = strlen(c->tail);
		for (size_t pad = 0; pad < 80; pad++) {
			char *buf = malloc(pad + t);
			struct smtpcode_logline l;
			bool got;
			assert_non_null(buf);
			memset(buf, 'a', pad);
			if (pad)
				buf[pad - 1] = ' ';
			memcpy(buf + pad, c->tail, t);
			got = smtpcode_log_parse(buf, pad + t, &l);
			if (l.format != c->format)
				fail_msg("format: got %d, want %d\n  in: %s (+%zu)",
				         (int)l.format, (int)c->format, c->tail, pad);
			expect_text("reply", c->tail, l.reply, c->reply);
			expect_code("code", c->tail, &l.code, c->code);
			if (c->format == SMTPCODE_LOG_POSTFIX)
				expect_code("dsn_code", c->tail, &l.dsn_code, "4.4.1");
			else if (c->format != SMTPCODE_LOG_EXIM)
				assert_int_equal(got, c->code != NULL);
			expect_invariants(&l, buf, pad + t);
			free(buf);
		}
	}
}

/* ---- smtpcode_find_code: the false-positive policy, both ways ---- */

struct find_case {
	const char *text;
	const char *code; /* NULL: no code */
	const char *at;   /* where *at starts: the text from there on */
};

static const struct find_case finds[] = {
    /* IP addresses. */
    {"client 10.5.7.1 refused", NULL, NULL},
    {"host 192.5.7.100 said", NULL, NULL},
    {"address [5.7.1.2] listed", NULL, NULL},
    {"client [192.0.2.1] said 5.7.1 denied", "5.7.1", "5.7.1 denied"},
    /* Version numbers. */
    {"smtpd v4.3.1 ready", NULL, NULL},
    {"Postfix 3.5.7.1 ready", NULL, NULL},
    {"release 2.0.0.1", NULL, NULL},
    {"exim 4.94.2 daemon started", NULL, NULL},
    {"perl/5.36.0", NULL, NULL},
    {"libmilter-4.2.2 loaded", NULL, NULL},
    {"status 4.3.1 again", "4.3.1", "4.3.1 again"},
    /* Timestamps. */
    {"12:45:51", NULL, NULL},
    {"2024-05-01", NULL, NULL},
    {"2024-05-01T10:00:00.512+02:00", NULL, NULL},
    {"2024-05-01 12:45:51 4.4.1 timeout", "4.4.1", "4.4.1 timeout"},
    /* Queue IDs and hex. */
    {"ID4.2.2", NULL, NULL},
    {"4F2A.5.7.1", NULL, NULL},
    {"ID 4.2.2", "4.2.2", "4.2.2"},
    /* Ports. */
    {"relay 4.3.1:25", NULL, NULL},
    {"4.3.1: Insufficient system storage", "4.3.1",
     "4.3.1: Insufficient system storage"},
    {"said 4.3.1:", "4.3.1", "4.3.1:"},
    {"mx.example.com:25 4.3.1", "4.3.1", "4.3.1"},
    /* Digits around it. */
    {"14.3.1", NULL, NULL},
    {"4.3.10 late", "4.3.10", "4.3.10 late"},
    {"5.7.708 denied", "5.7.708", "5.7.708 denied"},
    {"4.3.1000", NULL, NULL},
    {"5.7.01", NULL, NULL},
    {"5.10.1", NULL, NULL},
    {"5.8.1", NULL, NULL},
    {"3.1.1 1.1.1 6.0.0", NULL, NULL},
    {"X.7.1", NULL, NULL},
    /* The very start and end of the text. */
    {"5.7.1", "5.7.1", "5.7.1"},
    {"5.7.1 at the start", "5.7.1", "5.7.1 at the start"},
    {"at the end 5.7.1", "5.7.1", "5.7.1"},
    {"at the end 5.7.1.", "5.7.1", "5.7.1."},
    {"5.7.1x", NULL, NULL},
    {"x5.7.1", NULL, NULL},
    /* Punctuation around it. */
    {"denied (5.7.1)", "5.7.1", "5.7.1)"},
    {"timeout [4.4.1]", "4.4.1", "4.4.1]"},
    {"#5.0.0 X-Display-Name", "5.0.0", "5.0.0 X-Display-Name"},
    {"dsn=5.1.1, status=bounced", "5.1.1", "5.1.1, status=bounced"},
    {"code \"5.7.1\"", "5.7.1", "5.7.1\""},
    {"code '5.2.2'", "5.2.2", "5.2.2'"},
    {"<5.7.1>", "5.7.1", "5.7.1>"},
    {"smtp;5.1.1", "5.1.1", "5.1.1"},
    {"a-5.7.1", NULL, NULL},
    {"x@5.7.1", NULL, NULL},
    {"5.7.1@example.com", NULL, NULL},
    {"_5.7.1", NULL, NULL},
    {"4.2.2-1ubuntu1", NULL, NULL},
    {"5.4.3.in-addr.arpa", NULL, NULL},
    {"5.7.1/policy", NULL, NULL},
    /* Bytes >= 0x80 next to it. */
    {"\xc3\xa9" "5.7.1", NULL, NULL},
    {"5.7.1\xc3\xa9", NULL, NULL},
    {"\xe2\x80\x9c" "5.7.1\xe2\x80\x9d", NULL, NULL},
    {"r\xc3\xa9ponse 5.7.1 refus\xc3\xa9", "5.7.1", "5.7.1 refus\xc3\xa9"},
    /* The basic code before it. */
    {"550 5.7.1 Relay denied", "550 5.7.1", "550 5.7.1 Relay denied"},
    {"550-5.7.1 Relay denied", "550 5.7.1", "550-5.7.1 Relay denied"},
    {"smtp; 550 5.1.1 unknown", "550 5.1.1", "550 5.1.1 unknown"},
    {"smtp;550 5.1.1", "550 5.1.1", "550 5.1.1"},
    {"1550 5.7.1", "5.7.1", "5.7.1"},
    {"1550-5.7.1", NULL, NULL},
    {"x550 5.7.1", "5.7.1", "5.7.1"},
    {"199 5.7.1", "5.7.1", "5.7.1"},
    {"600 5.7.1", "5.7.1", "5.7.1"},
    {"550  5.7.1", "5.7.1", "5.7.1"},
    {"said 550 only", NULL, NULL},
    /* The first of several; the line it is on. */
    {"10.5.7.1 then 4.2.2 then 5.1.1", "4.2.2", "4.2.2 then 5.1.1"},
    {"first line\n452 4.3.1 full \r\nnext 5.1.1", "452 4.3.1",
     "452 4.3.1 full"},
    /* Known blind spot, pinned: a date written d.m.yy. */
    {"on 5.1.24", "5.1.24", "5.1.24"},
    {"", NULL, NULL},
};

static void check_find(const struct find_case *c)
{
	size_t n = strlen(c->text);
	char *buf = exact_copy(c->text, n);
	struct smtpcode_query q;
	struct smtpcode_text at;
	bool got = smtpcode_find_code(buf, n, &q, &at);
	char b[64];

	if (got != (c->code != NULL))
		fail_msg("'%s': found %d (%s)", c->text, got, codes_text(&q, b, sizeof b));
	if (got) {
		expect_code("code", c->text, &q, c->code);
		expect_text("at", c->text, at, c->at);
		expect_inside("at", at, buf, n);
		assert_true(q.text_off + q.text_len <= at.len);
		if (q.text_len)
			assert_int_equal(q.text_off + q.text_len, at.len);
	} else {
		assert_int_equal(at.len, 0);
		assert_null(at.s);
		assert_int_equal(q.basic, 0);
		assert_false(q.enhanced);
	}
	free(buf);
}

static void test_find_policy(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof finds / sizeof finds[0]; i++)
		check_find(&finds[i]);
}

/* A control byte, NUL included, separates like white space. */
static void test_find_nul(void **state)
{
	static const char s[] = "x\0005.7.1\0y";
	struct smtpcode_query q;
	struct smtpcode_text at;
	(void)state;
	assert_true(smtpcode_find_code(s, sizeof s - 1, &q, &at));
	assert_ptr_equal(at.s, s + 2);
	expect_code("code", "nul", &q, "5.7.1");
	/* Bounded by len: the code past it is not seen. */
	assert_false(smtpcode_find_code(s, 5, &q, &at));
	assert_false(smtpcode_find_code(NULL, 0, &q, &at));
}

/* at->s + q.text_off is where the next code is looked for. */
static void test_find_all(void **state)
{
	static const char s[] = "a 4.2.2 b (5.1.1) c 550-5.7.1 d";
	static const char *const want[] = {"4.2.2", "5.1.1", "550 5.7.1"};
	const char *p = s, *end = s + sizeof s - 1;
	struct smtpcode_query q;
	struct smtpcode_text at;
	size_t k = 0;
	(void)state;
	while (smtpcode_find_code(p, (size_t)(end - p), &q, &at)) {
		assert_true(k < 3);
		expect_code("code", s, &q, want[k++]);
		p = at.s + q.text_off;
	}
	assert_int_equal(k, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lines),
	    cmocka_unit_test(test_reply_text),
	    cmocka_unit_test(test_truncated),
	    cmocka_unit_test(test_mutated),
	    cmocka_unit_test(test_nul_bytes),
	    cmocka_unit_test(test_long_lines),
	    cmocka_unit_test(test_skipped_lines),
	    cmocka_unit_test(test_find_policy),
	    cmocka_unit_test(test_find_nul),
	    cmocka_unit_test(test_find_all),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
