/* Event streams (src/logs/streams.c, json_events.c, csv_logs.c): each
 * sample of tests/logs/ read line by line as the command reads it, a CSV
 * header setting the layout of the lines after it, and every record
 * checked field by field; malformed lines give no record and no crash. */
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

/* A record as one line of text: "LINE dialect recipient domain host
 * status code dsn | reply", "-" for an absent field. */
struct collected {
	unsigned long line;
	char text[64][512];
	int n;
};

static void field(char *out, size_t size, struct smtpcode_text t)
{
	size_t len = strlen(out);
	snprintf(out + len, size - len, " %.*s", t.len ? (int)t.len : 1,
	         t.len ? t.s : "-");
}

static void collect(void *ctx, const struct smtpcode_logline *l,
                    const char *dialect)
{
	struct collected *c = ctx;
	char *out, codes[32], dsn[32];
	size_t size = sizeof c->text[0];

	assert_true(c->n < 64);
	out = c->text[c->n++];
	snprintf(out, size, "%lu %s", c->line, dialect);
	field(out, size, l->recipient);
	field(out, size, l->domain);
	field(out, size, l->relay);
	field(out, size, l->status);
	codes_text(&l->code, codes, sizeof codes);
	codes_text(&l->dsn_code, dsn, sizeof dsn);
	snprintf(out + strlen(out), size - strlen(out), " %s %s |",
	         *codes ? codes : "-", *dsn ? dsn : "-");
	field(out, size, l->reply);
}

/* The records of file (in tests/logs/), read as the command does. */
static void read_sample(const char *file, struct collected *c)
{
	char path[512], buf[8192];
	struct smtpcode_csv_layout layout = {0};
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", LOGS_DIR, file);
	assert_non_null(f = fopen(path, "r"));
	c->n = 0;
	c->line = 0;
	while (fgets(buf, sizeof buf, f)) {
		size_t len = strlen(buf);
		c->line++;
		if (!layout.kind && smtpcode_csv_header(buf, len, &layout))
			continue;
		/* Before a CSV header, a line that is not JSON is the log
		 * reader's (Exchange's "#Software: ..."). */
		assert_true(smtpcode_stream_parse(buf, len, &layout, collect, c) >= 0 ||
		            (!layout.kind && buf[0] != '{' && buf[0] != '['));
	}
	fclose(f);
}

static void expect(const char *file, const char *const *want, int n)
{
	struct collected *c = calloc(1, sizeof *c);

	assert_non_null(c);
	read_sample(file, c);
	for (int i = 0; i < n && i < c->n; i++)
		assert_string_equal(c->text[i], want[i]);
	assert_int_equal(c->n, n);
	free(c);
}

#define EXPECT(file, ...) \
	do { \
		static const char *const want[] = {__VA_ARGS__}; \
		expect(file, want, (int)(sizeof want / sizeof *want)); \
	} while (0)

static void test_ses(void **state)
{
	(void)state;
	EXPECT("ses.jsonl",
	       "1 ses nobody@example.com example.com 192.0.2.25 bounced 550 5.1.1 "
	       "5.1.1 | 550 5.1.1 <nobody@example.com>: Recipient address "
	       "rejected: User unknown in virtual mailbox table",
	       "2 ses full@example.net example.net - deferred 452 4.2.2 4.2.2 | "
	       "452 4.2.2 The email account that you tried to reach is over quota.",
	       "2 ses also-full@example.net example.net - deferred 452 4.2.2 4.2.2 "
	       "| 452 4.2.2 The email account that you tried to reach is over "
	       "quota.",
	       "3 ses reader@example.com example.com - complained - - | -",
	       "4 ses alice@example.com example.com a8-51.smtp-out.amazonses.com "
	       "sent 250 2.0.0 - | 250 2.0.0 OK  1701345601 "
	       "d2-20020a05600c4b8200b0040b3d8f1234si1234567wmq.123 - gsmtp");
}

static void test_sendgrid(void **state)
{
	(void)state;
	EXPECT("sendgrid.jsonl",
	       "1 sendgrid nobody@example.com example.com - bounced 550 5.1.1 5.1.1 "
	       "| 550 5.1.1 The email account that you tried to reach does not "
	       "exist.",
	       "2 sendgrid blocked@example.net example.net - bounced 554 5.7.1 "
	       "5.7.1 | 554 5.7.1 Service unavailable; Client host [198.51.100.9] "
	       "blocked using zen.spamhaus.org",
	       "3 sendgrid later@example.org example.org - deferred 421 4.7.0 - | "
	       "421 4.7.0 Try again later, closing connection.",
	       "4 sendgrid alice@example.com example.com - sent 250 2.0.0 - | 250 "
	       "2.0.0 OK 1701338404 ok",
	       "5 sendgrid angry@example.com example.com - complained - - | -");
}

static void test_mailgun(void **state)
{
	(void)state;
	EXPECT("mailgun.jsonl",
	       "1 mailgun nobody@example.com example.com mx1.example.com bounced "
	       "550 5.1.1 5.1.1 | 550 5.1.1 The email account that you tried to "
	       "reach does not exist.",
	       "2 mailgun full@example.net example.net mx.example.net deferred 452 "
	       "4.2.2 4.2.2 | 452 4.2.2 The email account that you tried to reach "
	       "is over quota.",
	       "3 mailgun alice@example.com example.com mx2.example.com sent 250 - "
	       "| 250 OK",
	       "4 mailgun angry@example.com example.com - complained - - | -");
}

static void test_postmark(void **state)
{
	(void)state;
	EXPECT("postmark.jsonl",
	       "1 postmark nobody@example.com example.com - bounced 550 5.1.1 - | "
	       "550 5.1.1 The email account that you tried to reach does not "
	       "exist.",
	       "2 postmark full@example.net example.net - deferred 452 4.2.2 - | "
	       "452 4.2.2 Mailbox full",
	       "3 postmark angry@example.com example.com - complained - - | -",
	       "4 postmark alice@example.com example.com - sent 250 2.0.0 - | 250 "
	       "2.0.0 OK");
}

static void test_sparkpost(void **state)
{
	(void)state;
	EXPECT("sparkpost.jsonl",
	       "1 sparkpost nobody@example.com example.com - bounced 550 5.1.1 - | "
	       "550 5.1.1 <nobody@example.com>: Recipient address rejected: User "
	       "unknown",
	       "2 sparkpost full@example.net example.net - deferred 452 4.2.2 - | "
	       "452 4.2.2 The email account that you tried to reach is over quota.",
	       "3 sparkpost alice@example.com example.com - sent - - | -",
	       "4 sparkpost suppressed@example.com example.com - bounced 554 5.7.1 "
	       "- | 554 5.7.1 recipient is on the suppression list");
}

static void test_journald(void **state)
{
	(void)state;
	EXPECT("journald.jsonl",
	       "1 journald nobody@example.com example.com "
	       "mx1.example.com[192.0.2.25]:25 bounced 550 5.1.1 5.1.1 | 550 5.1.1 "
	       "<nobody@example.com>: Recipient address rejected: User unknown",
	       "2 journald carol@example.org example.org "
	       "mail.example.org[private/dovecot-lmtp] deferred 452 4.2.2 4.2.2 | "
	       "452 4.2.2 <carol@example.org> Quota exceeded (mailbox for user is "
	       "full)",
	       "3 journald - - - - - - | -");
}

static void test_exchange(void **state)
{
	(void)state;
	EXPECT("exchange-tracking.log",
	       "6 exchange-tracking alice@example.com example.com mx1.example.com "
	       "sent 250 2.6.0 - | 250 2.6.0 <20261130100001.ABC@example.org> "
	       "[InternalId=12884901889] Queued mail for delivery",
	       "7 exchange-tracking nobody@example.com example.com - bounced 550 "
	       "5.1.10 - | 550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient "
	       "not found by SMTP address lookup",
	       "8 exchange-tracking a@example.net example.net - deferred 451 4.4.0 "
	       "- | 451 4.4.0 DNS query failed",
	       "8 exchange-tracking b@example.net example.net - deferred 451 4.4.0 "
	       "- | 451 4.4.0 DNS query failed");
}

static void test_pmta(void **state)
{
	(void)state;
	EXPECT("pmta-acct.csv",
	       "2 pmta-acct alice@example.com example.com mx1.example.com sent 250 "
	       "2.0.0 2.0.0 | 250 2.0.0 OK 1701338401 a1si123",
	       "3 pmta-acct nobody@example.com example.com mx1.example.com bounced "
	       "550 5.1.1 5.1.1 | 550 5.1.1 <nobody@example.com>... User unknown",
	       "4 pmta-acct full@example.net example.net mx.example.net deferred "
	       "452 4.2.2 4.2.2 | 452 4.2.2 Mailbox full");
}

static void test_m365(void **state)
{
	(void)state;
	/* The trace says what became of a message, no reply: no code. */
	EXPECT("m365-trace.csv",
	       "2 m365-trace alice@example.com example.com 198.51.100.25 sent - - "
	       "| -",
	       "3 m365-trace nobody@example.com example.com - bounced - - | -",
	       "4 m365-trace later@example.net example.net - deferred - - | -");
}

static void count(void *ctx, const struct smtpcode_logline *l,
                  const char *dialect)
{
	(void)l;
	(void)dialect;
	++*(int *)ctx;
}

/* What is not an event stream's is left to the log reader (-1), and
 * nothing malformed makes a record. */
static void test_not_streams(void **state)
{
	static const char *const lines[] = {
		"{", "[", "{\"event\":", "{\"notificationType\":\"Bounce\"",
		"{\"a\":1} trailing", "[1,2,3]", "{\"some\":\"json\"}",
		"{\"MESSAGE\":[1,2]}", "\"just a string\"", "{\"x\":\"\\u0000\"}",
		"Dec  1 10:00:00 mx postfix/smtp[1]: to=<a@example.com>",
		"", "   ",
	};
	struct smtpcode_csv_layout none = {0};
	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		int n = 0;
		assert_int_equal(smtpcode_stream_parse(lines[i], strlen(lines[i]),
		                                       &none, count, &n), -1);
		assert_int_equal(n, 0);
	}
	assert_int_equal(smtpcode_stream_parse(NULL, 0, NULL, count, NULL), -1);
}

/* Events of a service that say nothing of a delivery give no record; an
 * SES bounce with no list of recipients, none either. */
static void test_no_record(void **state)
{
	static const char *const lines[] = {
		"{\"event\":\"open\",\"email\":\"a@example.com\",\"sg_event_id\":\"x\"}",
		"{\"notificationType\":\"Bounce\",\"mail\":{}}",
		("{\"notificationType\":\"Bounce\",\"mail\":{},\"bounce\":"
		 "{\"bouncedRecipients\":7}}"),
		"[{\"event\":\"open\",\"email\":\"a@example.com\",\"sg_event_id\":\"x\"}]",
	};
	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		int n = 0;
		assert_int_equal(smtpcode_stream_parse(lines[i], strlen(lines[i]),
		                                       NULL, count, &n), 0);
		assert_int_equal(n, 0);
	}
}

/* CSV: a header is known by its columns' names, whatever their order and
 * case; a line of the layout cut short, or with an unclosed quote, gives
 * at most a record of what it has. */
static void test_csv(void **state)
{
	struct smtpcode_csv_layout l = {0}, before;
	const char *short_line = "b,2026-11-30,x,y";
	const char *open_quote = "b,\"2026,,,,nobody@example.com";
	const char *pmta = "nobody@example.com,smtp;550 5.1.1 User unknown,b";
	int n = 0;

	(void)state;
	assert_false(smtpcode_csv_header("date,from,to", 12, &l));
	assert_int_equal(l.kind, 0);
	assert_false(smtpcode_csv_header("#Software: Microsoft Exchange Server",
	                                 36, &l));
	assert_true(smtpcode_csv_header("RCPT,dsnDiag,TYPE\r\n", 19, &l));
	before = l;
	assert_int_equal(smtpcode_stream_parse(pmta, strlen(pmta), &l, count, &n),
	                 1);
	assert_int_equal(n, 1);
	assert_int_equal(memcmp(&l, &before, sizeof l), 0);
	assert_true(smtpcode_csv_header("type,rcpt,dsnDiag", 17, &l));
	n = 0;
	assert_int_equal(smtpcode_stream_parse(short_line, strlen(short_line), &l,
	                                       count, &n), 1);
	assert_int_equal(smtpcode_stream_parse(open_quote, strlen(open_quote), &l,
	                                       count, &n), 1);
	assert_int_equal(smtpcode_stream_parse("type,rcpt,dsnDiag", 17, &l, count,
	                                       &n), 0);
	assert_int_equal(smtpcode_stream_parse("# a comment", 11, &l, count, &n), 0);
	assert_int_equal(n, 2);
}

/* A complaint's status is of the delivery side. */
static void test_complained_side(void **state)
{
	struct smtpcode_event_space space;
	const struct smtpcode_event *e;
	(void)state;
	/* Through the vocabulary: event.c's table knows the word. */
	e = smtpcode_event_parse("x", 1, &space, sizeof space);
	assert_non_null(e);
	assert_string_equal(smtpcode_side_name(SMTPCODE_SIDE_DELIVERY),
	                    "delivery");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ses),
	    cmocka_unit_test(test_sendgrid),
	    cmocka_unit_test(test_mailgun),
	    cmocka_unit_test(test_postmark),
	    cmocka_unit_test(test_sparkpost),
	    cmocka_unit_test(test_journald),
	    cmocka_unit_test(test_exchange),
	    cmocka_unit_test(test_pmta),
	    cmocka_unit_test(test_m365),
	    cmocka_unit_test(test_not_streams),
	    cmocka_unit_test(test_no_record),
	    cmocka_unit_test(test_csv),
	    cmocka_unit_test(test_complained_side),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
