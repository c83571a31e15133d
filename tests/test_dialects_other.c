/*
 * The dialects of the other MTAs (issue 21), read from their records in
 * data/logs/ by the fields engine (src/logs/fields.c): Courier (courieresmtp,
 * courieresmtpd, courierlocal), qmail and netqmail (qmail-send,
 * qmail-smtpd, rblsmtpd), OpenSMTPD, Haraka and Dovecot LMTP.  Every line
 * of each sample log in tests/logs/ is checked field by field: the lines
 * listed give these records, every other line gives none.
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

struct want {
	unsigned line;     /* 0 ends a log's list */
	const char *dialect;
	const char *side;  /* smtpcode_side_name(), NULL for none */
	const char *status, *stage, *recipient, *host, *code, *reply;
};

struct sample {
	const char *file;
	const struct want *want;
};

static const struct want courier_want[] = {
    {1, "courier", "delivery", "bounced", "",
     "bob@example.com", "", "550 5.1.1",
     "550 5.1.1 <bob@example.com>... User unknown"},
    {2, "courier", "delivery", "deferred", "",
     "carol@example.net", "", "451 4.2.2",
     "451 4.2.2 <carol@example.net>... Mailbox full, try again later"},
    {3, "courier", "delivery", "sent", "",
     "dave@example.com", "", "",
     ""},
    {4, "courier", "reject", "rejected", "",
     "nobody@example.com", "::ffff:192.0.2.7", "550",
     "550 User unknown."},
    {5, "courier", "reject", "rejected", "rcpt",
     "ghost@example.com", "::ffff:192.0.2.7", "550",
     "550 User unknown."},
    {6, "courier", "auth", "auth-failed", "auth",
     "", "::ffff:198.51.100.23", "535",
     "535 Authentication failed."},
    {7, "courier", "reject", "rejected", "data",
     "", "::ffff:198.51.100.40", "432",
     "432 Mail server busy, try again later."},
    {8, "courier", "delivery", "sent", "",
     "erin@example.com", "", "",
     ""},
    {9, "courier", NULL, "", "",
     "frank@example.com", "", "",
     "maildrop: maildir over quota."},
    {10, "courier", "auth", "auth-failed", "auth",
     "", "::ffff:198.51.100.24", "535",
     "535 Authentication failed."},
    {0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

static const struct want qmail_want[] = {
    {4, "qmail", "delivery", "bounced", "",
     "", "", "550 5.1.1",
     "550_5.1.1_<nobody@example.com>:_Recipient_address_rejected:_User_unknown"},
    {6, "qmail", "delivery", "bounced", "",
     "", "", "5.1.1",
     "Sorry,_no_mailbox_here_by_that_name._(#5.1.1)"},
    {8, "qmail", "delivery", "deferred", "",
     "", "", "451",
     "451_Temporary_local_problem,_please_try_later"},
    {9, "qmail", "delivery", "deferred", "",
     "", "", "421 4.7.0",
     "421_4.7.0_Too_many_connections_from_your_host"},
    {10, "qmail", "delivery", "sent", "",
     "", "", "250 2.0.0",
     "250_2.0.0_Ok:_queued_as_4Q9xYz1AbC"},
    {11, "qmail", "delivery", "deferred", "",
     "", "", "4.4.1",
     "Sorry,_I_wasn't_able_to_establish_an_SMTP_connection._(#4.4.1)"},
    {12, "qmail", "delivery", "bounced", "",
     "", "", "5.1.2",
     "Sorry,_I_couldn't_find_any_host_named_nowhere.example._(#5.1.2)"},
    {14, "qmail", "reject", "rejected", "",
     "", "", "421",
     "421 badiprbl: ip 192.0.2.65 rbl: zen.example.org"},
    {15, "qmail", "reject", "rejected", "",
     "", "", "421",
     "421 badiprbl: ip 198.51.100.80 rbl: bl.example.org"},
    {16, "qmail", "reject", "rejected", "connect",
     "", "", "451",
     "451 Blocked: listed at bl.example.org, see http://bl.example.org/q?192.0.2.66"},
    {17, "qmail", "reject", "rejected", "connect",
     "", "", "553 5.7.1",
     "553 5.7.1 Your address is on our blocklist"},
    {18, "qmail", "reject", "rejected", "connect",
     "", "", "451",
     "451 http://bl.example.org/q?192.0.2.67"},
    {19, "qmail", "delivery", "bounced", "",
     "", "", "550 5.1.1",
     "550 5.1.1 <nobody@example.com>: Recipient address rejected: User "
     "unknown"},
    {0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

static const struct want opensmtpd_want[] = {
    {2, "opensmtpd", "reject", "rejected", "rcpt",
     "nobody@example.com", "", "550",
     "550 Invalid recipient: <nobody@example.com>"},
    {3, "opensmtpd", "reject", "rejected", "mail",
     "", "", "550 5.7.1",
     "550 5.7.1 Delivery not authorized"},
    {4, "opensmtpd", "reject", "rejected", "data",
     "", "", "421 4.3.0",
     "421 4.3.0 Temporary Error"},
    {5, "opensmtpd", "delivery", "deferred", "",
     "bob@example.com", "mx.example.com [198.51.100.7]", "451 4.7.1",
     "451 4.7.1 Greylisted, try again later"},
    {6, "opensmtpd", "delivery", "bounced", "",
     "carol@example.com", "mx.example.com [198.51.100.7]", "550 5.1.1",
     "550 5.1.1 <carol@example.com>: Recipient address rejected: User unknown"},
    {7, "opensmtpd", "delivery", "sent", "",
     "dave@example.net", "mx.example.net [198.51.100.8]", "250 2.0.0",
     "250 2.0.0 Ok: queued as 4Q9xYz"},
    {8, "opensmtpd", "delivery", "sent", "",
     "erin@example.com", "", "",
     ""},
    {9, "opensmtpd", "delivery", "deferred", "",
     "frank@example.org", "mx.example.org [198.51.100.9]", "452 4.2.2",
     "452 4.2.2 Mailbox full"},
    {10, "opensmtpd", "delivery", "bounced", "",
     "gina@example.net", "198.51.100.10 (mx.example.net)", "550 5.7.1",
     "550 5.7.1 Message rejected as spam"},
    {11, "opensmtpd", "reject", "rejected", "",
     "", "", "500 5.5.1",
     "500 5.5.1 Invalid command: Pipelining not supported"},
    {0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

static const struct want haraka_want[] = {
    {2, "haraka", "reject", "rejected", "rcpt",
     "nobody@example.com", "", "550 5.1.1",
     "550 5.1.1 Invalid recipient"},
    {3, "haraka", "reject", "rejected", "mail",
     "", "", "450",
     "450 Backscatter protection: sender domain has no MX"},
    {4, "haraka", "reject", "rejected", "connect",
     "", "", "",
     "host [192.0.2.7] is listed by zen.example.org"},
    {5, "haraka", "delivery", "bounced", "rcpt",
     "gone@example.com", "", "550 5.1.1",
     "550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown"},
    {6, "haraka", "delivery", "sent", "",
     "", "mx.example.net", "250 2.0.0",
     "250 2.0.0 Ok: queued as 4Q9xZa"},
    {7, "haraka", "delivery", "deferred", "rcpt",
     "full@example.org", "", "452 4.2.2",
     "452 4.2.2 <full@example.org>: Mailbox is full"},
    {8, "haraka", "delivery", "bounced", "",
     "", "", "554 5.7.1",
     "554 5.7.1 Service unavailable; Client host [198.51.100.1] blocked "
     "using zen.example.org"},
    {9, "haraka", "delivery", "deferred", "",
     "", "", "421 4.7.0",
     "421 4.7.0 Too many connections, try again later"},
    {10, "haraka", "delivery", "bounced", "",
     "", "", "",
     "Some recipients failed: <gone@example.com>"},
    {0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

static const struct want dovecot_want[] = {
    {2, "dovecot", "delivery", "sent", "",
     "bob@example.com", "", "",
     ""},
    {3, "dovecot", "delivery", "bounced", "",
     "carol@example.com", "", "",
     "INBOX: Quota exceeded (mailbox for user is full)"},
    {4, "dovecot", "delivery", "sent", "",
     "erin@example.com", "", "",
     ""},
    {0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

static const struct sample samples[] = {
	{LOGS_DIR "/courier.log", courier_want},
	{LOGS_DIR "/qmail.log", qmail_want},
	{LOGS_DIR "/opensmtpd.log", opensmtpd_want},
	{LOGS_DIR "/haraka.log", haraka_want},
	{LOGS_DIR "/dovecot.log", dovecot_want},
};

static void expect_text(const char *file, unsigned line, const char *what,
                        struct smtpcode_text got, const char *want)
{
	if (!text_is(got, want))
		fail_msg("%s:%u: %s is '%.*s', want '%s'", file, line, what,
		         (int)got.len, got.s ? got.s : "", want);
}

/* Line n of a sample against its want (NULL: no record). */
static void check_line(const char *file, unsigned n, const char *s,
                       const struct want *w)
{
	struct smtpcode_event_space space;
	const struct smtpcode_event *e =
	    smtpcode_event_parse(s, strlen(s), &space, sizeof space);
	const struct smtpcode_query *q = smtpcode_event_code(e);
	const char *d = smtpcode_event_dialect(e), *side;
	char buf[64];

	if (!w) {
		if (d || q)
			fail_msg("%s:%u: a record (%s) from a line that holds none",
			         file, n, d ? d : "a code");
		return;
	}
	if (!d || strcmp(d, w->dialect) != 0)
		fail_msg("%s:%u: dialect %s, want %s", file, n, d ? d : "none",
		         w->dialect);
	side = smtpcode_side_name(smtpcode_event_side(e));
	if ((side == NULL) != (w->side == NULL) ||
	    (side && strcmp(side, w->side) != 0))
		fail_msg("%s:%u: side %s, want %s", file, n, side ? side : "none",
		         w->side ? w->side : "none");
	expect_text(file, n, "status", smtpcode_event_status(e), w->status);
	expect_text(file, n, "stage", smtpcode_event_stage(e), w->stage);
	expect_text(file, n, "recipient", smtpcode_event_recipient(e),
	            w->recipient);
	expect_text(file, n, "host", smtpcode_event_host(e), w->host);
	expect_text(file, n, "reply", smtpcode_event_reply(e), w->reply);
	if (strcmp(q ? codes_text(q, buf, sizeof buf) : "", w->code) != 0)
		fail_msg("%s:%u: code '%s', want '%s'", file, n,
		         q ? codes_text(q, buf, sizeof buf) : "", w->code);
	assert_int_equal(smtpcode_event_format(e), SMTPCODE_LOG_FIELDS);
}

static void test_samples(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
		const struct sample *sm = &samples[i];
		const struct want *w = sm->want;
		FILE *f = fopen(sm->file, "r");
		char s[4096];
		unsigned n = 0;

		assert_non_null(f);
		while (fgets(s, sizeof s, f)) {
			n++;
			check_line(sm->file, n, s, w->line == n ? w : NULL);
			if (w->line == n)
				w++;
		}
		assert_int_equal(fclose(f), 0);
		if (w->line) /* a listed line the log does not have */
			fail_msg("%s: has no line %u", sm->file, w->line);
	}
}

/* The same line without its syslog prefix, with its prefix of another
 * program, and cut: what decides whether a dialect reads it. */
static void test_program_decides(void **state)
{
	static const struct {
		const char *line, *dialect, *code;
	} cases[] = {
		/* No dotted code: read only where the program is the
		 * record's (courieresmtpd), not from another program. */
		{"Dec  1 10:01:14 mx courieresmtpd: error,relay=::ffff:192.0.2.7,"
		 "msg=\"550 User unknown.\",cmd: RCPT TO:<a@example.com>",
		 "courier", "550"},
		{"Dec  1 10:01:14 mx other: courieresmtpd: error,relay=::ffff:"
		 "192.0.2.7,msg=\"550 User unknown.\",cmd: RCPT TO:<a@example.com>",
		 NULL, ""},
		/* With a dotted code, the marker alone decides. */
		{"Dec  1 10:01:14 mx other: courieresmtpd: error,relay=::ffff:"
		 "192.0.2.7,msg=\"550 5.1.1 User unknown.\",cmd: RCPT "
		 "TO:<a@example.com>",
		 "courier", "550 5.1.1"},
		/* A program's line of another kind gives no record. */
		{"Dec  1 14:00:00 mx dovecot: lmtp(6120): Connect from local", NULL,
		 ""},
		{"Dec  1 11:00:00 mx qmail: 1701428400.101234 new msg 4123456",
		 NULL, ""},
		/* A quoted reply without its closing quote runs to the end. */
		{"Dec  1 12:00:01 mx smtpd[4021]: 5c7c0f8ca3e5c5a2 smtp "
		 "failed-command command=\"RCPT TO:<a@example.com>\" result=\"550 "
		 "Invalid recipient",
		 "opensmtpd", "550"},
		/* A qmail report cut inside its code gives none. */
		{"Dec  1 11:00:02 mx qmail: 1701428402.004551 delivery 43: failure: "
		 "Sorry,_no_mailbox_here_by_that_name._(#5.1",
		 "qmail", ""},
		{"rblsmtpd:", NULL, ""},
		{"x: y", NULL, ""},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct smtpcode_event_space space;
		const struct smtpcode_event *e = smtpcode_event_parse(
		    cases[i].line, strlen(cases[i].line), &space, sizeof space);
		const struct smtpcode_query *q = smtpcode_event_code(e);
		const char *d = smtpcode_event_dialect(e);
		char buf[64];

		if ((d == NULL) != (cases[i].dialect == NULL) ||
		    (d && strcmp(d, cases[i].dialect) != 0))
			fail_msg("case %zu: dialect %s, want %s", i, d ? d : "none",
			         cases[i].dialect ? cases[i].dialect : "none");
		assert_string_equal(q ? codes_text(q, buf, sizeof buf) : "",
		                    cases[i].code);
	}
}

/* A qmail reply whose words start with '_' and whose code follows them:
 * the reply is the words, in the line (not in the copy the engine reads
 * them from). */
static void test_qmail_reply_in_line(void **state)
{
	static const char line[] =
	    "Dec  1 11:00:02 mx qmail: 1701428402.004551 delivery 43: failure: "
	    "__Sorry,_no_mailbox_here_by_that_name._(#5.1.1)/";
	struct smtpcode_event_space space;
	const struct smtpcode_event *e =
	    smtpcode_event_parse(line, sizeof line - 1, &space, sizeof space);
	struct smtpcode_text r = smtpcode_event_reply(e);
	const char *want = strstr(line, "Sorry");

	(void)state;
	assert_ptr_equal(r.s, want);
	assert_int_equal(r.len, strlen(want) - 1); /* its '/' dropped */
	assert_string_equal(smtpcode_event_dialect(e), "qmail");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_program_decides),
		cmocka_unit_test(test_qmail_reply_in_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
