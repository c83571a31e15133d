/* Log events (src/logs/event.c): the accessors say what
 * smtpcode_log_parse() says, and name the dialect that read the line. */
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

#define SYSLOG "Mar  1 10:00:00 mail "

struct event_case {
	const char *line;
	const char *dialect; /* NULL: none */
	enum smtpcode_log_format format;
	const char *recipient, *host, *code;
};

static const struct event_case cases[] = {
    {SYSLOG "postfix/smtp[12345]: 3F2A81C0A2: to=<user@example.com>, "
            "relay=mx.example.com[192.0.2.10]:25, delay=1.2, "
            "delays=0.1/0/0.5/0.6, dsn=4.3.1, status=deferred (host "
            "mx.example.com[192.0.2.10] said: 452 4.3.1 Insufficient system "
            "storage (in reply to RCPT TO command))",
     "postfix", SMTPCODE_LOG_POSTFIX, "user@example.com",
     "mx.example.com[192.0.2.10]:25", "452 4.3.1"},
    {SYSLOG "postfix/smtpd[4242]: NOQUEUE: reject: RCPT from "
            "unknown[203.0.113.9]: 554 5.7.1 <x@example.org>: Relay access "
            "denied; from=<a@example.org> to=<x@example.org> proto=ESMTP "
            "helo=<x>",
     "postfix", SMTPCODE_LOG_SMTPD, "x@example.org", "unknown[203.0.113.9]",
     "554 5.7.1"},
    {"2024-03-01 10:00:00 1rfXyz-000AbC-2D ** bob@example.com "
     "R=dnslookup T=remote_smtp H=mx.example.com [192.0.2.5]: SMTP error "
     "from remote mail server after RCPT TO:<bob@example.com>: 550 5.1.1 "
     "User unknown",
     "exim", SMTPCODE_LOG_EXIM, "bob@example.com", "mx.example.com [192.0.2.5]",
     "550 5.1.1"},
    {SYSLOG "sm-mta[811]: 41A2B3C4D5: to=<carol@example.net>, delay=00:00:01, "
            "xdelay=00:00:01, mailer=esmtp, pri=120, "
            "relay=mx.example.net. [198.51.100.3], dsn=5.1.1, stat=User "
            "unknown",
     "sendmail", SMTPCODE_LOG_SENDMAIL, "carol@example.net",
     "mx.example.net. [198.51.100.3]", ""},
    /* Courier: data/logs/courier.txt, read by the fields engine. */
    {"Dec  1 10:00:00 mx courieresmtp: id=0001A2B3.5F3E4D5C.00001234,"
     "from=<alice@example.org>,addr=<bob@example.com>: 550 5.1.1 "
     "<bob@example.com>... User unknown",
     "courier", SMTPCODE_LOG_FIELDS, "bob@example.com", "", "550 5.1.1"},
    {"Dec  1 10:00:05 mx courieresmtp: id=0001A2B4.5F3E4D5D.00001235,"
     "from=<alice@example.org>,addr=<carol@example.net>: 451 4.2.2 "
     "<carol@example.net>... Mailbox full, try again later",
     "courier", SMTPCODE_LOG_FIELDS, "carol@example.net", "", "451 4.2.2"},
    {"some program: the server said 550 5.7.1 go away", "text",
     SMTPCODE_LOG_TEXT, "", "", "550 5.7.1"},
    {SYSLOG "postfix/smtpd[1]: connect from unknown[203.0.113.1]", NULL,
     SMTPCODE_LOG_NONE, "", "", ""},
};

static void expect_same(const char *what, struct smtpcode_text a,
                        struct smtpcode_text b)
{
	if (a.len != b.len || a.s != b.s)
		fail_msg("%s: the event's is not the logline's", what);
}

static void expect_text(const char *what, struct smtpcode_text t,
                        const char *want)
{
	if (!text_is(t, want))
		fail_msg("%s: got '%.*s', want '%s'", what, (int)t.len,
		         t.s ? t.s : "", want);
}

/* Each accessor gives what smtpcode_log_parse() puts in its field. */
static void test_same_as_logline(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct event_case *c = &cases[i];
		struct smtpcode_event_space space;
		struct smtpcode_logline l;
		const struct smtpcode_event *e;
		const struct smtpcode_query *q;
		char buf[64];
		size_t n = strlen(c->line);
		bool found = smtpcode_log_parse(c->line, n, &l);

		e = smtpcode_event_parse(c->line, n, &space, sizeof space);
		assert_ptr_equal(e, (const void *)&space);
		assert_int_equal(smtpcode_event_format(e), l.format);
		assert_int_equal(smtpcode_event_format(e), c->format);
		if (!c->dialect)
			assert_null(smtpcode_event_dialect(e));
		else
			assert_string_equal(smtpcode_event_dialect(e), c->dialect);
		expect_same("recipient", smtpcode_event_recipient(e), l.recipient);
		expect_same("domain", smtpcode_event_domain(e), l.domain);
		expect_same("host", smtpcode_event_host(e), l.relay);
		expect_same("status", smtpcode_event_status(e), l.status);
		expect_same("stage", smtpcode_event_stage(e), l.stage);
		expect_same("reply", smtpcode_event_reply(e), l.reply);
		expect_same("dsn", smtpcode_event_dsn(e), l.dsn);
		expect_text("recipient", smtpcode_event_recipient(e), c->recipient);
		expect_text("host", smtpcode_event_host(e), c->host);
		q = smtpcode_event_code(e);
		assert_string_equal(q ? codes_text(q, buf, sizeof buf) : "",
		                    c->code);
		if (q)
			assert_memory_equal(q, &l.code, sizeof *q);
		q = smtpcode_event_dsn_code(e);
		if (q)
			assert_memory_equal(q, &l.dsn_code, sizeof *q);
		else
			assert_false(l.dsn_code.basic || l.dsn_code.enhanced);
		assert_int_equal(found, smtpcode_event_code(e) != NULL ||
		                        smtpcode_event_dsn_code(e) != NULL);
	}
}

/* The Courier reply, from its code to the end of the line. */
static void test_courier_reply(void **state)
{
	struct smtpcode_event_space space;
	const char *line = cases[4].line; /* Courier 550 */
	const struct smtpcode_event *e =
	    smtpcode_event_parse(line, strlen(line), &space, sizeof space);
	(void)state;
	expect_text("reply", smtpcode_event_reply(e),
	            "550 5.1.1 <bob@example.com>... User unknown");
	expect_text("domain", smtpcode_event_domain(e), "example.com");
}

/* The space the caller gives: too small or absent, no event. */
static void test_space(void **state)
{
	struct smtpcode_event_space space;
	const char *line = "said 550 5.1.1 x";
	size_t need = smtpcode_event_size();
	(void)state;
	assert_true(need > 0 && need <= SMTPCODE_EVENT_SPACE);
	assert_null(smtpcode_event_parse(line, strlen(line), NULL, need));
	assert_null(smtpcode_event_parse(line, strlen(line), &space, need - 1));
	assert_non_null(smtpcode_event_parse(line, strlen(line), &space, need));
	/* An empty or absent line is an event of nothing. */
	assert_non_null(smtpcode_event_parse(NULL, 0, &space, sizeof space));
	assert_null(smtpcode_event_code((const struct smtpcode_event *)&space));
	assert_null(smtpcode_event_dialect((const struct smtpcode_event *)&space));
}

/* The dialects of data/logs/, by id; the built-in engines' among them. */
static void test_dialect_list(void **state)
{
	size_t n = smtpcode_dialect_count();
	int seen = 0;
	(void)state;
	assert_true(n >= 3);
	for (size_t i = 0; i < n; i++) {
		const char *name = smtpcode_dialect_name(i);
		assert_non_null(name);
		if (i)
			assert_true(strcmp(smtpcode_dialect_name(i - 1), name) < 0);
		seen += strcmp(name, "postfix") == 0 || strcmp(name, "exim") == 0 ||
		        strcmp(name, "sendmail") == 0;
	}
	assert_int_equal(seen, 3);
	assert_null(smtpcode_dialect_name(n));
}

/* smtpcode_status_side(): the side of each fixed status word, the same
 * as an event's of that status; anything else, case and all, none. */
static void test_status_side(void **state)
{
	static const struct {
		const char *status;
		enum smtpcode_log_side side;
		const char *name;
	} sides[] = {
		{"sent", SMTPCODE_SIDE_DELIVERY, "delivery"},
		{"deferred", SMTPCODE_SIDE_DELIVERY, "delivery"},
		{"bounced", SMTPCODE_SIDE_DELIVERY, "delivery"},
		{"expired", SMTPCODE_SIDE_DELIVERY, "delivery"},
		{"rejected", SMTPCODE_SIDE_REJECT, "reject"},
		{"warned", SMTPCODE_SIDE_REJECT, "reject"},
		{"discarded", SMTPCODE_SIDE_REJECT, "reject"},
		{"auth-failed", SMTPCODE_SIDE_AUTH, "auth"},
		{"Deferred", SMTPCODE_SIDE_UNKNOWN, NULL},
		{"sentx", SMTPCODE_SIDE_UNKNOWN, NULL},
		{"", SMTPCODE_SIDE_UNKNOWN, NULL},
	};
	struct smtpcode_event_space space;
	char line[256];
	(void)state;
	assert_int_equal(smtpcode_status_side(NULL, 0), SMTPCODE_SIDE_UNKNOWN);
	/* a prefix of a word is not the word */
	assert_int_equal(smtpcode_status_side("sent", 3), SMTPCODE_SIDE_UNKNOWN);
	for (size_t i = 0; i < sizeof sides / sizeof *sides; i++) {
		const char *w = sides[i].status;
		enum smtpcode_log_side side = smtpcode_status_side(w, strlen(w));
		const struct smtpcode_event *e;
		assert_int_equal(side, sides[i].side);
		if (sides[i].name)
			assert_string_equal(smtpcode_side_name(side), sides[i].name);
		else
			assert_null(smtpcode_side_name(side));
		/* Postfix writes its status as it is: the event agrees */
		snprintf(line, sizeof line, SYSLOG "postfix/smtp[1]: Q1: "
		         "to=<u@example.com>, relay=none, dsn=4.4.1, status=%s "
		         "(connect to mx.example.com[192.0.2.5]:25: Connection "
		         "timed out)", w);
		e = smtpcode_event_parse(line, strlen(line), &space, sizeof space);
		assert_non_null(e);
		if (*w && smtpcode_event_status(e).len == strlen(w))
			assert_int_equal(smtpcode_event_side(e), side);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_as_logline),
	    cmocka_unit_test(test_courier_reply),
	    cmocka_unit_test(test_space),
	    cmocka_unit_test(test_dialect_list),
	    cmocka_unit_test(test_status_side),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
