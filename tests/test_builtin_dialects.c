/*
 * The built-in dialects (src/logs/postfix.c, exim.c, sendmail.c) on the
 * project's sample logs, tests/logs/postfix.log, exim.log and
 * sendmail.log: every line's record checked field by field through the
 * event API (dialect, status, stage, side, recipient, host, codes,
 * reply), the lines that give no record included, so that a line added
 * to a sample without its expectation fails too.
 */
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

/* One line's record; NULL fields are absent. */
struct want {
	const char *dialect, *status, *stage, *side, *recipient, *host,
	    *code, *reply;
};

/* The fields of a record that has none of them: a line no reader takes. */
#define NOTHING {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL}

static const struct want postfix[] = {
    /* smtp */
    {"postfix", "deferred", "rcpt", "delivery", "ann@example.com",
     "mx.example.com[192.0.2.10]:25", "452 4.2.2", "452 4.2.2 Mailbox full"},
    {"postfix", "bounced", "end-of-data", "delivery", "bob@example.org",
     "mx.example.org[198.51.100.20]:25", "550 5.7.1",
     "550 5.7.1 Message rejected as spam"},
    {"postfix", "sent", NULL, "delivery", "cat@example.net",
     "mx.example.net[192.0.2.30]:25", "250 2.0.0",
     "250 2.0.0 Ok: queued as 4XyZ1b2C3d"},
    /* Postfix's own words: no code in the reply, the dsn= code alone. */
    {"postfix", "deferred", NULL, "delivery", "dan@example.com", "none", NULL,
     "connect to mx.example.com[192.0.2.10]:25: Connection timed out"},
    {"postfix", "deferred", "mail", "delivery", "eve@example.org",
     "mx.example.org[198.51.100.20]:25", "421 4.7.0",
     "421 4.7.0 Too many connections"},
    /* lmtp, local, virtual, pipe */
    {"postfix", "bounced", "end-of-data", "delivery", "fay@example.com",
     "mail.example.com[private/dovecot-lmtp]", "552 5.2.2",
     "552 5.2.2 <fay@example.com> Mailbox is full"},
    {"postfix", "bounced", NULL, "delivery", "gus@mx1.example.com", "local",
     NULL, "unknown user: \"gus\""},
    {"postfix", "bounced", NULL, "delivery", "hal@example.com", "virtual",
     NULL,
     "cannot update mailbox /var/mail/vhosts/example.com/hal for user hal. "
     "file too large"},
    {"postfix", "bounced", NULL, "delivery", "ivy@example.com", "dovecot",
     NULL, "user unknown"},
    {"postfix", "sent", NULL, "delivery", "jon@mx1.example.com", "local",
     NULL, "delivered to mailbox"},
    {"postfix", "expired", NULL, "delivery", "kim@example.net", "none", NULL,
     NULL},
    /* smtpd */
    {"postfix", "rejected", "rcpt", "reject", "lee@example.com",
     "unknown[192.0.2.77]", "554 5.7.1",
     "554 5.7.1 <lee@example.com>: Relay access denied"},
    {"postfix", "warned", "rcpt", "reject", "max@example.com",
     "mail.example.org[198.51.100.9]", "450 4.7.1",
     "450 4.7.1 <mail.example.org>: Helo command rejected: Host not found"},
    {"postfix", "rejected", "connect", "reject", NULL, "unknown[192.0.2.78]",
     "554 5.7.1",
     "554 5.7.1 Service unavailable; Client host [192.0.2.78] blocked using "
     "zen.spamhaus.org"},
    {"postfix", "rejected", "end-of-data", "reject", "ned@example.com",
     "unknown[192.0.2.79]", "5.7.1", "5.7.1 Rejected by SPAM filter"},
    {"postfix", "rejected", "mail", "reject", NULL, "unknown[192.0.2.80]",
     "553 5.1.8",
     "553 5.1.8 <bad@nonexistent.example>: Sender address rejected: Domain "
     "not found"},
    /* postscreen: its reject has a code; PREGREET and DNSBL rank none. */
    {"postfix", "rejected", "rcpt", "reject", "oli@example.com",
     "[192.0.2.81]:51234", "550 5.7.1",
     "550 5.7.1 Service unavailable; client [192.0.2.81] blocked using "
     "zen.spamhaus.org"},
    NOTHING,
    NOTHING,
    /* cleanup: header and body checks, a milter */
    {"postfix", "rejected", "header", "reject", "pat@example.com",
     "unknown[192.0.2.84]", "5.7.1", "5.7.1 Message content rejected"},
    {"postfix", "rejected", "body", "reject", "quinn@example.com",
     "unknown[192.0.2.85]", "5.7.1", "5.7.1 Spam body rejected"},
    {"postfix", "rejected", "end-of-data", "reject", "ray@example.com",
     "unknown[192.0.2.86]", "5.7.1", "5.7.1 Virus found"},
    /* SASL: the reply is the one smtpd sends (data/logs/postfix.txt). */
    {"postfix", "auth-failed", "auth", "auth", NULL, "unknown[192.0.2.87]",
     "535 5.7.8", "535 5.7.8 Error: authentication failed"},
    {"postfix", "rejected", "rcpt", "reject", "sam@example.com",
     "unknown[192.0.2.88]", "450 4.7.1",
     "450 4.7.1 Client host rejected: cannot find your reverse hostname, "
     "[192.0.2.88]"},
    {"postfix", "rejected", "data", "reject", "tom@example.com",
     "unknown[192.0.2.89]", "554 5.5.1",
     "554 5.5.1 Error: no valid recipients"},
    /* ... and the one it sends when its auth server did not answer. */
    {"postfix", "auth-failed", "auth", "auth", NULL, "unknown[192.0.2.90]",
     "454 4.7.0", "454 4.7.0 Temporary authentication failure"},
};

static const struct want exim[] = {
    {"exim", "bounced", "rcpt", "delivery", "ann@example.com",
     "mx.example.com [192.0.2.10]", "550 5.1.1",
     "550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown"},
    {"exim", "deferred", "rcpt", "delivery", "bob@example.org",
     "mx.example.org [198.51.100.20]", "452 4.2.2", "452 4.2.2 Mailbox full"},
    {"exim", "bounced", "end-of-data", "delivery", "cat@example.net",
     "mx.example.net [192.0.2.30]", "550 5.7.1",
     "550 5.7.1 Message rejected as spam"},
    /* Exim's own words, without a code. */
    {"exim", "bounced", NULL, "delivery", "dan@bad.example", NULL, NULL,
     "Unrouteable address"},
    {"exim", "expired", NULL, "delivery", "eve@example.com", NULL, NULL,
     "retry timeout exceeded"},
    {"exim", "bounced", NULL, "delivery", "fay@example.org", NULL, NULL,
     "retry time not reached for any host after a long failure period"},
    {"exim", "deferred", NULL, "delivery", "gus@example.com",
     "mx.example.com [192.0.2.10]", NULL, "Connection timed out"},
    {"exim", "bounced", "mail", "delivery", "hal@example.com",
     "mx.example.com [192.0.2.10]", "550 5.7.1", "550 5.7.1 Sender rejected"},
    /* The receiving side. */
    {"exim", "rejected", "rcpt", "reject", "ivy@example.com",
     "(client.example.org) [192.0.2.77]", NULL, "relay not permitted"},
    {"exim", "rejected", "rcpt", "reject", "jon@example.com",
     "mail.example.org [198.51.100.9]:41234", "550 5.1.1",
     "550 5.1.1 Unknown user"},
    {"exim", "rejected", "end-of-data", "reject", NULL,
     "(client.example.org) [192.0.2.78]", NULL,
     "Your message scored 15.3 spam points"},
    {"exim", "rejected", "helo", "reject", NULL, "(bad_helo) [192.0.2.79]",
     NULL, "Invalid HELO name"},
    {"exim", "rejected", "connect", "reject", NULL, "[192.0.2.80]", NULL,
     "listed in zen.spamhaus.org"},
    {"exim", "auth-failed", "auth", "auth", NULL,
     "(client.example.org) [192.0.2.81]:54321", "535",
     "535 Incorrect authentication data"},
    /* Arrivals and deliveries write no code and no status. */
    NOTHING,
    NOTHING,
};

static const struct want sendmail[] = {
    {"sendmail", "deferred", NULL, "delivery", "ann@example.com",
     "mx.example.com. [192.0.2.10]", "452 4.2.2", "452 4.2.2 Mailbox full"},
    /* Sendmail's words: the status from the dsn= class. */
    {"sendmail", "bounced", NULL, "delivery", "bob@example.org",
     "mx.example.org. [198.51.100.20]", NULL, "User unknown"},
    {"sendmail", "sent", NULL, "delivery", "cat@example.net",
     "mx.example.net. [192.0.2.30]", NULL,
     "623UU1aC003103 Message accepted for delivery"},
    {"sendmail", "deferred", NULL, "delivery", "dan@example.com",
     "mx.example.com.", NULL, "Connection timed out with mx.example.com."},
    {"sendmail", "bounced", NULL, "delivery", "eve@example.org",
     "mx.example.org. [198.51.100.20]", NULL, "Service unavailable"},
    {"sendmail", "deferred", NULL, "delivery", "fay@example.com",
     "mx.example.com. [192.0.2.10]", "554 5.7.1",
     "554 5.7.1 \"Message refused by policy\""},
    /* Rulesets: the stage from the ruleset's name. */
    {"sendmail", "rejected", "rcpt", "reject", "gus@example.net",
     "client.example.org [192.0.2.77]", "550 5.7.1",
     "550 5.7.1 <gus@example.net>... Relaying denied"},
    {"sendmail", "rejected", "mail", "reject", NULL, "[192.0.2.78]",
     "553 5.1.8",
     "553 5.1.8 <spam@bad.example>... Domain of sender address "
     "spam@bad.example does not exist"},
    {"sendmail", "rejected", "connect", "reject", NULL, "[192.0.2.79]",
     "554 5.7.1", "554 5.7.1 Rejected 192.0.2.79 found in zen.spamhaus.org"},
    NOTHING,
};

static void expect_text(const char *what, unsigned long n,
                        struct smtpcode_text t, const char *want)
{
	if (!want)
		want = "";
	if (!text_is(t, want))
		fail_msg("line %lu: %s: got '%.*s', want '%s'", n, what,
		         (int)t.len, t.s ? t.s : "", want);
}

static void expect_str(const char *what, unsigned long n, const char *got,
                       const char *want)
{
	if (strcmp(got ? got : "", want ? want : "") != 0)
		fail_msg("line %lu: %s: got '%s', want '%s'", n, what,
		         got ? got : "", want ? want : "");
}

static void check_line(unsigned long n, const char *line, size_t len,
                       const struct want *w)
{
	struct smtpcode_event_space space;
	const struct smtpcode_event *e =
	    smtpcode_event_parse(line, len, &space, sizeof space);
	const struct smtpcode_query *q;
	char buf[64];

	assert_non_null(e);
	q = smtpcode_event_code(e);
	expect_str("dialect", n, smtpcode_event_dialect(e), w->dialect);
	expect_text("status", n, smtpcode_event_status(e), w->status);
	expect_text("stage", n, smtpcode_event_stage(e), w->stage);
	expect_str("side", n, smtpcode_side_name(smtpcode_event_side(e)),
	           w->side);
	expect_text("recipient", n, smtpcode_event_recipient(e), w->recipient);
	expect_text("host", n, smtpcode_event_host(e), w->host);
	expect_str("code", n, q ? codes_text(q, buf, sizeof buf) : NULL,
	           w->code);
	expect_text("reply", n, smtpcode_event_reply(e), w->reply);
}

static void check_file(const char *path, const struct want *w, size_t nw)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	unsigned long n = 0;

	if (!f)
		fail_msg("cannot open %s", path);
	while (fgets(line, sizeof line, f)) {
		size_t len = strlen(line);
		if (n >= nw)
			fail_msg("%s: line %lu has no expectation", path, n + 1);
		check_line(n + 1, line, len, &w[n]);
		n++;
	}
	assert_int_equal(fclose(f), 0);
	if (n != nw)
		fail_msg("%s: %lu lines, %zu expected", path, n, nw);
}

#define CHECK_FILE(name, table) \
	check_file(LOGS_DIR "/" name, (table), sizeof(table) / sizeof(table)[0])

static void test_postfix(void **state)
{
	(void)state;
	CHECK_FILE("postfix.log", postfix);
}

static void test_exim(void **state)
{
	(void)state;
	CHECK_FILE("exim.log", exim);
}

static void test_sendmail(void **state)
{
	(void)state;
	CHECK_FILE("sendmail.log", sendmail);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_postfix),
	    cmocka_unit_test(test_exim),
	    cmocka_unit_test(test_sendmail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
