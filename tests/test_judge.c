/*
 * The one judgement (smtpcode_judge()): each row is a piece of evidence
 * and the verdict the order of data/reasons/precedence.txt gives it, as
 * every mode of the command shows it.  The replies are the project's
 * own, worded as servers word them.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smtpcode.h"

struct judge_case {
	const char *reply;  /* the remote reply */
	const char *status; /* a DSN's Status:, or NULL */
	const char *stage;  /* a log's stage word, or NULL */
	enum smtpcode_report report;
	const char *reason; /* a message kind's reason, or NULL */
	/* what it gives */
	const char *code, *want_reason, *suppress, *bounce, *from;
};

#define UNSAID SMTPCODE_REPORT_UNSAID
#define FINAL SMTPCODE_REPORT_FINAL

static const struct judge_case cases[] = {
	/* The words decide where the code leaves them to, and bring their
	 * reason's verdict. */
	{"550 No such user here", NULL, NULL, UNSAID, NULL,
	 "550", "userunknown", "yes", "hard", "words"},
	{"552 1 Requested mail action aborted, mailbox not found", NULL, NULL,
	 UNSAID, NULL, "552", "userunknown", "yes", "hard", "words"},
	/* Words more specific than the code beat it. */
	{"550 5.7.1 Service unavailable; client host [192.0.2.1] blocked "
	 "using zen.spamhaus.org", NULL, NULL, UNSAID, NULL,
	 "5.7.1", "blocked", "no", "block", "words"},
	{"554 5.7.0 Reject, id=12345-01 - SPAM", NULL, NULL, UNSAID, NULL,
	 "5.7.0", "spamdetected", "no", "block", "words"},
	{"525 5.7.13 <a@example.org>: Recipient address rejected: User "
	 "account disabled", NULL, NULL, UNSAID, NULL,
	 "5.7.13", "suspend", "yes", "hard", "words"},
	{"550 5.2.1 You have been blocked by the recipient", NULL, NULL,
	 UNSAID, NULL, "5.2.1", "rejected", "no", "block", "words"},
	{"550 5.7.0 Too many invalid recipients", NULL, NULL, UNSAID, NULL,
	 "5.7.0", "exceedlimit", "no", "soft", "words"},
	/* A code with its own reason keeps it against other words. */
	{"550 5.1.1 <bob@example.org>: Recipient address rejected: User "
	 "unknown", NULL, NULL, UNSAID, NULL,
	 "5.1.1", "userunknown", "yes", "hard", "code"},
	/* The remote server's own code beats the reporting MTA's Status. */
	{"550 5.7.1 IP address blacklisted by recipient", "5.1.1", NULL, FINAL,
	 NULL, "5.7.1", "blocked", "no", "block", "words"},
	/* A generic Status is completed by the reply's basic code. */
	{"550 Unknown user", "5.0.0", NULL, FINAL, NULL,
	 "5.0.0", "userunknown", "yes", "hard", "words"},
	/* A specific Status with a basic reply: the Status's code. */
	{"550 Requested action not taken", "5.1.1", NULL, FINAL, NULL,
	 "5.1.1", "userunknown", "yes", "hard", "dsn"},
	/* After DATA a refusal of the recipient is a filter's... */
	{"550 Unknown user bob@example.jp", NULL, "end-of-data", FINAL, NULL,
	 "550", "filtered", "no", "block", "stage"},
	{"550 Unknown user bob@example.jp (in reply to end of DATA command)",
	 NULL, NULL, UNSAID, NULL, "550", "filtered", "no", "block", "stage"},
	/* ... unless X.1.1 says the mailbox is missing. */
	{"550 5.1.1 Unknown user bob@example.jp", NULL, "end-of-data", FINAL,
	 NULL, "5.1.1", "userunknown", "yes", "hard", "code"},
	/* qmail writes the enhanced code after the text. */
	{"511 sorry, no mailbox here by that name (#5.1.1)", NULL, NULL, UNSAID,
	 NULL, "5.1.1", "userunknown", "yes", "hard", "code"},
	/* A code the table lacks is unknown, never no. */
	{"554 5.3.99 x", NULL, NULL, UNSAID, NULL,
	 "5.3.99", "undefined", "unknown", "unknown", NULL},
	{"599 something", NULL, NULL, UNSAID, NULL,
	 "599", "undefined", "unknown", "unknown", NULL},
	/* Without a code: unknown when pasted, the reason's in a final
	 * report. */
	{"No such user here", NULL, NULL, UNSAID, NULL,
	 "", "userunknown", "unknown", "unknown", "words"},
	{"No such user here", NULL, NULL, FINAL, NULL,
	 "", "userunknown", "yes", "hard", "words"},
	/* A temporary failure keeps the address whatever its words. */
	{"452 4.2.2 Mailbox full", NULL, NULL, UNSAID, NULL,
	 "4.2.2", "mailboxfull", "no", "soft", "code"},
	{"451 4.7.1 Service unavailable - try again later; blocked using "
	 "bl.spamcop.net", NULL, NULL, UNSAID, NULL,
	 "4.7.1", "blocked", "no", "soft", "words"},
	/* X.0.0 adds nothing to a basic code. */
	{"451 4.0.0 Greylisted, please try again in 300 seconds", NULL, NULL,
	 UNSAID, NULL, "4.0.0", "systemerror", "no", "soft", "code"},
	/* What the message is decides. */
	{"550 5.1.1 user unknown", NULL, NULL, UNSAID, "vacation",
	 "5.1.1", "vacation", "no", "none", "message"},
};

static const char *name(enum smtpcode_field f, const struct smtpcode_judgement *j)
{
	return smtpcode_value_name(f, j->verdict.value[f]);
}

static void test_case(void **state)
{
	const struct judge_case *c = *state;
	struct smtpcode_query status;
	struct smtpcode_evidence ev;
	struct smtpcode_judgement j;
	char code[32] = "";
	const char *from;

	memset(&ev, 0, sizeof ev);
	ev.reply.s = c->reply;
	ev.reply.len = strlen(c->reply);
	if (c->status) {
		assert_int_equal(smtpcode_parse(c->status, strlen(c->status),
		                                &status), SMTPCODE_OK);
		ev.status = &status;
	}
	if (c->stage) {
		ev.stage.s = c->stage;
		ev.stage.len = strlen(c->stage);
	}
	ev.report = c->report;
	if (c->reason)
		ev.reason = smtpcode_value_parse(SMTPCODE_REASON, c->reason,
		                                 strlen(c->reason));
	smtpcode_judge(&ev, &j);
	if (j.code_from)
		smtpcode_format(&j.result.query, code, sizeof code);
	assert_string_equal(code, c->code);
	assert_string_equal(name(SMTPCODE_REASON, &j), c->want_reason);
	assert_string_equal(name(SMTPCODE_SUPPRESS, &j), c->suppress);
	assert_string_equal(name(SMTPCODE_BOUNCE, &j), c->bounce);
	from = smtpcode_decider_name(j.verdict_from);
	if (c->from)
		assert_string_equal(from ? from : "(null)", c->from);
	else
		assert_null(from);
}

/* A site's rules, read through the library, decide before the built-in
 * words where the code leaves the reason to them. */
static void report_none(void *ctx, const char *message)
{
	(void)ctx;
	fail_msg("%s", message);
}

static void test_rules(void **state)
{
	static const char text[] =
	    "reason-words: mailboxfull\npriority: 5\n"
	    "phrase: over my limit\n";
	static const char reply[] = "550 sorry, over my limit today";
	struct smtpcode_rules *rules;
	struct smtpcode_evidence ev;
	struct smtpcode_judgement j;

	(void)state;
	rules = smtpcode_rules_parse("site.rules", text, strlen(text),
	                             report_none, NULL);
	assert_non_null(rules);
	memset(&ev, 0, sizeof ev);
	ev.reply.s = reply;
	ev.reply.len = strlen(reply);
	ev.rules = rules;
	smtpcode_judge(&ev, &j);
	assert_string_equal(name(SMTPCODE_REASON, &j), "mailboxfull");
	assert_string_equal(smtpcode_decider_name(j.verdict_from), "rules");
	assert_string_equal(smtpcode_rules_origin(rules, j.wording.phrase),
	                    "site.rules:3");
	assert_string_equal(name(SMTPCODE_SUPPRESS, &j), "no");
	smtpcode_rules_free(rules);
}

/* The step a DSN's human-readable part names for a recipient. */
static void test_mail_stage(void **state)
{
	static const char msg[] =
	    "From: MAILER-DAEMON@example.org\n\n"
	    "<other@example.jp>: host mx[192.0.2.1] said: 550 No (in reply to\n"
	    "    RCPT TO command)\n\n"
	    "<bob@example.jp>: host mx[192.0.2.1] said: 550 Unknown user\n"
	    "    bob@example.jp (in reply to end of DATA command)\n";
	struct smtpcode_text bob = {"bob@example.jp", 14};
	struct smtpcode_text other = {"other@example.jp", 16};
	struct smtpcode_text none = {"nobody@example.jp", 17};
	struct smtpcode_text s;

	(void)state;
	s = smtpcode_mail_stage(msg, sizeof msg - 1, bob);
	assert_int_equal(s.len, strlen("end-of-data"));
	assert_memory_equal(s.s, "end-of-data", s.len);
	s = smtpcode_mail_stage(msg, sizeof msg - 1, other); /* wrapped */
	assert_int_equal(s.len, strlen("rcpt"));
	assert_memory_equal(s.s, "rcpt", s.len);
	s = smtpcode_mail_stage(msg, sizeof msg - 1, none);
	assert_int_equal(s.len, 0);
	s = smtpcode_mail_stage(NULL, 0, bob);
	assert_int_equal(s.len, 0);
}

/* A DSN's Diagnostic-Code lacks the step; its text names it, and the
 * judgement reads it there when the words need it. */
static void test_message_stage(void **state)
{
	static const char msg[] =
	    "From: MAILER-DAEMON@example.org\n\n"
	    "<bob@example.jp>: host mx[192.0.2.1] said: 550 Unknown user\n"
	    "    bob@example.jp (in reply to end of DATA command)\n";
	static const char reply[] = "550 Unknown user bob@example.jp";
	struct smtpcode_evidence ev = {.reply = {reply, sizeof reply - 1},
	                               .message = {msg, sizeof msg - 1},
	                               .recipient = {"bob@example.jp", 14},
	                               .report = SMTPCODE_REPORT_FINAL};
	struct smtpcode_judgement j;

	(void)state;
	smtpcode_judge(&ev, &j);
	assert_string_equal(name(SMTPCODE_REASON, &j), "filtered");
	assert_string_equal(name(SMTPCODE_SUPPRESS, &j), "no");
	assert_int_equal(j.stage.len, strlen("end-of-data"));
	ev.message.len = 0; /* nothing says the step: the mailbox is gone */
	smtpcode_judge(&ev, &j);
	assert_string_equal(name(SMTPCODE_REASON, &j), "userunknown");
	assert_string_equal(name(SMTPCODE_SUPPRESS, &j), "yes");
	assert_int_equal(j.stage.len, 0);
}

int main(void)
{
	size_t n = sizeof cases / sizeof *cases;
	struct CMUnitTest *tests = calloc(n + 3, sizeof *tests);
	int failed;

	if (!tests)
		return 1;
	for (size_t i = 0; i < n; i++) {
		tests[i].name = cases[i].reply;
		tests[i].test_func = test_case;
		tests[i].initial_state = (void *)&cases[i];
	}
	tests[n] = (struct CMUnitTest)cmocka_unit_test(test_rules);
	tests[n + 1] = (struct CMUnitTest)cmocka_unit_test(test_mail_stage);
	tests[n + 2] = (struct CMUnitTest)cmocka_unit_test(test_message_stage);
	failed = _cmocka_run_group_tests("judge", tests, n + 3, NULL, NULL);
	free(tests);
	return failed;
}
