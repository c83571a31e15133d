/*
 * Verdicts scripts act on: smtpcode_verdict() for replies, as a report
 * qualifies them, and smtpcode_report_of() for the words reports use.
 * Each row pins a verdict an audit found wrong (issue 16).
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "smtpcode.h"

struct verdict_case {
	const char *reply;
	enum smtpcode_report report;
	const char *severity, *final, *retry, *suppress, *bounce, *reason;
	const char *from;    /* the code the verdict comes from, or NULL */
	unsigned flags;      /* B basic decides, R report decides, G guess */
};

#define B 1u
#define R 2u
#define G 4u
#define UNSAID SMTPCODE_REPORT_UNSAID
#define FINAL SMTPCODE_REPORT_FINAL
#define DELAYED SMTPCODE_REPORT_DELAYED

static const struct verdict_case cases[] = {
	/* A bare 550 or 554 does not tell a bad address from a refusal. */
	{"550 Rejected: IP 192.0.2.1 listed on zen.spamhaus.org", UNSAID,
	 "permanent", "yes", "after-fix", "unknown", "unknown", "undefined",
	 "550", 0},
	{"550 Message rejected as spam", UNSAID, "permanent", "yes",
	 "after-fix", "unknown", "unknown", "undefined", "550", 0},
	{"554 Transaction failed", UNSAID, "permanent", "yes", "after-fix",
	 "unknown", "unknown", "undefined", "554", 0},
	{"5.0.0", UNSAID, "permanent", "yes", "after-fix", "unknown", "unknown",
	 "undefined", "5.0.0", 0},
	{"550 5.7.1 Rejected by policy", UNSAID, "permanent", "yes", "after-fix",
	 "unknown", "unknown", "undefined", "5.7.1", 0},
	/* With the enhanced code that says so, the address is bad. */
	{"550 5.1.1 <bob@example.com>: user unknown", UNSAID, "permanent", "yes",
	 "never", "yes", "hard", "userunknown", "5.1.1", 0},
	/* An expiry ends delivery though its class is 4. */
	{"4.4.7", UNSAID, "temporary", "yes", "after-fix", "no", "soft",
	 "expired", "4.4.7", 0},
	{"4.4.7", DELAYED, "temporary", "no", "auto", "no", "soft", "expired",
	 "4.4.7", R},
	{"4.4.1", FINAL, "temporary", "yes", "after-fix", "no", "soft",
	 "networkerror", "4.4.1", R},
	{"4.4.1", UNSAID, "temporary", "no", "auto", "no", "soft",
	 "networkerror", "4.4.1", 0},
	{"5.1.1", DELAYED, "permanent", "yes", "never", "yes", "hard",
	 "userunknown", "5.1.1", 0},
	/* The basic code's class decides when the two disagree. */
	{"550 4.1.1 user unknown", UNSAID, "permanent", "yes", "never", "yes",
	 "hard", "userunknown", "5.1.1", B},
	{"550 4.4.7 QUEUE.Expired; message expired", UNSAID, "permanent",
	 "yes", "after-fix", "no", "soft", "expired", "5.4.7", B},
	{"450 5.2.2 mailbox full", UNSAID, "temporary", "no", "auto", "no",
	 "soft", "mailboxfull", "4.2.2", B},
	/* A provider's own meaning, without the provider, is no verdict. */
	{"5.1.5", UNSAID, "permanent", "yes", "after-fix", "unknown", "unknown",
	 "undefined", "5.1.5", G},
	/* The registered meanings, not a provider's. */
	{"5.4.1", UNSAID, "permanent", "yes", "after-fix", "no", "soft",
	 "networkerror", "5.4.1", 0},
	{"452", UNSAID, "temporary", "no", "auto", "no", "soft", "systemfull",
	 "452", 0},
	/* A success is not final, and nothing is retried. */
	{"250 2.0.0 Ok", UNSAID, "success", "no", "none", "no", "none",
	 "delivered", "2.0.0", 0},
};

static const char *name(enum smtpcode_field f, const struct smtpcode_verdict *v)
{
	return smtpcode_value_name(f, v->value[f]);
}

static void test_case(void **state)
{
	const struct verdict_case *c = *state;
	struct smtpcode_query q;
	struct smtpcode_result r;
	struct smtpcode_verdict v;
	unsigned flags;

	assert_int_equal(smtpcode_parse(c->reply, strlen(c->reply), &q),
	                 SMTPCODE_OK);
	smtpcode_resolve(&q, c->reply, strlen(c->reply), NULL, &r);
	smtpcode_verdict(&r, c->report, &v);
	assert_string_equal(name(SMTPCODE_SEVERITY, &v), c->severity);
	assert_string_equal(name(SMTPCODE_FINAL, &v), c->final);
	assert_string_equal(name(SMTPCODE_RETRY, &v), c->retry);
	assert_string_equal(name(SMTPCODE_SUPPRESS, &v), c->suppress);
	assert_string_equal(name(SMTPCODE_BOUNCE, &v), c->bounce);
	assert_string_equal(name(SMTPCODE_REASON, &v), c->reason);
	assert_non_null(v.from);
	assert_string_equal(smtpcode_text(v.from, SMTPCODE_CODE), c->from);
	flags = (v.basic_decides ? B : 0) | (v.report_decides ? R : 0) |
	        (v.provider_guess ? G : 0);
	assert_int_equal(flags, c->flags);
}

/* The classes of one registered code share its reason. */
static void test_reason_across_classes(void **state)
{
	static const char *const pairs[][2] = {
	    {"4.7.27", "5.7.27"}, {"4.7.29", "5.7.29"}, {"4.7.30", "5.7.30"},
	    {"4.2.1", "5.2.1"}, {"4.4.5", "5.4.5"}, {"4.4.1", "5.4.1"}};
	(void)state;
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		struct smtpcode_query a, b;
		smtpcode_parse(pairs[i][0], strlen(pairs[i][0]), &a);
		smtpcode_parse(pairs[i][1], strlen(pairs[i][1]), &b);
		assert_int_equal(
		    smtpcode_value(smtpcode_find_enhanced(a.cls, a.subject, a.detail),
		                   SMTPCODE_REASON),
		    smtpcode_value(smtpcode_find_enhanced(b.cls, b.subject, b.detail),
		                   SMTPCODE_REASON));
	}
}

/* A code the table lacks still gets its class's severity and finality. */
static void test_unknown_code(void **state)
{
	struct smtpcode_query q;
	struct smtpcode_result r;
	struct smtpcode_verdict v;
	(void)state;
	smtpcode_parse("4.9.99", 6, &q);
	smtpcode_resolve(&q, NULL, 0, NULL, &r);
	smtpcode_verdict(&r, SMTPCODE_REPORT_FINAL, &v);
	assert_null(v.from);
	assert_string_equal(name(SMTPCODE_SEVERITY, &v), "temporary");
	assert_string_equal(name(SMTPCODE_FINAL, &v), "yes");
	assert_int_equal(v.value[SMTPCODE_SUPPRESS], 0);
	smtpcode_parse("599", 3, &q);
	smtpcode_resolve(&q, NULL, 0, NULL, &r);
	smtpcode_verdict(&r, SMTPCODE_REPORT_UNSAID, &v);
	assert_string_equal(name(SMTPCODE_SEVERITY, &v), "permanent");
	assert_string_equal(name(SMTPCODE_FINAL, &v), "yes");
}

static void test_report_of(void **state)
{
	(void)state;
	assert_int_equal(smtpcode_report_of("failed", 6), SMTPCODE_REPORT_FINAL);
	assert_int_equal(smtpcode_report_of("Failed", 6), SMTPCODE_REPORT_FINAL);
	assert_int_equal(smtpcode_report_of("expired", 7), SMTPCODE_REPORT_FINAL);
	assert_int_equal(smtpcode_report_of("bounced", 7), SMTPCODE_REPORT_FINAL);
	assert_int_equal(smtpcode_report_of("delayed", 7), SMTPCODE_REPORT_DELAYED);
	assert_int_equal(smtpcode_report_of("Deferred", 8),
	                 SMTPCODE_REPORT_DELAYED);
	assert_int_equal(smtpcode_report_of("sent", 4), SMTPCODE_REPORT_UNSAID);
	assert_int_equal(smtpcode_report_of("failedx", 7), SMTPCODE_REPORT_UNSAID);
	assert_int_equal(smtpcode_report_of("fail", 4), SMTPCODE_REPORT_UNSAID);
	assert_int_equal(smtpcode_report_of("", 0), SMTPCODE_REPORT_UNSAID);
	assert_int_equal(smtpcode_report_of(NULL, 0), SMTPCODE_REPORT_UNSAID);
	/* Not a word of a report: a NUL inside, bytes with the high bit. */
	assert_int_equal(smtpcode_report_of("fail\0ed", 7), SMTPCODE_REPORT_UNSAID);
	assert_int_equal(smtpcode_report_of("\xc6\x61iled", 6),
	                 SMTPCODE_REPORT_UNSAID);
}

/* The reason of a reply's words (data/reasons/): the phrase whose reason
 * comes first wins wherever it is; case and runs of blanks aside; not
 * inside <...>. */
static void test_wording(void **state)
{
	static const struct {
		const char *text, *reason, *phrase;
		size_t at; /* where the phrase starts in the text */
	} texts[] = {
		{"550 Mailbox FULL", "mailboxfull", "mailbox full", 4},
		{"550 mailbox\r\n\t  full", "mailboxfull", "mailbox full", 4},
		/* a run of blanks inside the first four bytes */
		{"550 no  \t such user", "userunknown", "no such user", 4},
		/* mailboxfull (10) before userunknown (90), wherever found */
		{"550 user unknown, or rather: mailbox full", "mailboxfull",
		 "mailbox full", 29},
		{"554 <mailbox-full@example.com> looks like spam", "spamdetected",
		 "looks like spam", 31},
		{"554 <unclosed mailbox full", "mailboxfull", "mailbox full", 14},
		/* wordings of MTAs that Sisimai's reason lists also give */
		{"550 User [someone@example.net] does not exist", "userunknown",
		 "] does not exist", 29},
		{"421 Too many errors from your IP", "toomanyconn",
		 "too many errors from your ip", 4},
		{"553 5.1.8 Unroutable sender address", "rejected",
		 "unroutable sender address", 10},
		/* a delay is not an expiry */
		{"Delivery attempts will continue to be made for 5 days", NULL,
		 NULL, 0},
		{"550 Requested action not taken", NULL, NULL, 0},
		{"", NULL, NULL, 0},
	};
	struct smtpcode_wording w;
	(void)state;
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		const char *t = texts[i].text;
		bool found = smtpcode_wording(t, strlen(t), &w);
		assert_int_equal(found, texts[i].reason != NULL);
		if (!found) {
			assert_null(w.phrase);
			assert_int_equal(w.reason, 0);
			continue;
		}
		assert_string_equal(smtpcode_value_name(SMTPCODE_REASON, w.reason),
		                    texts[i].reason);
		assert_string_equal(w.phrase, texts[i].phrase);
		assert_int_equal(w.at, texts[i].at);
	}
	assert_false(smtpcode_wording(NULL, 0, &w));
}

/* Which verdicts leave their reason to the words: a generic code's, none;
 * not a specific code's, a success's, or a provider's entry its own
 * phrase picked. */
static void test_reason_from_words(void **state)
{
	static const struct {
		const char *reply;
		bool words;
	} replies[] = {
		{"550 whatever", true},
		{"554 5.7.1 whatever", true},
		{"5.0.0", true},
		{"550 5.1.1 whatever", false},
		{"250 2.0.0 Ok: queued", false},
		{"554 5.7.1 <a@b.example>: Relay access denied", false},
	};
	struct smtpcode_query q;
	struct smtpcode_result r;
	(void)state;
	for (size_t i = 0; i < sizeof replies / sizeof *replies; i++) {
		const char *t = replies[i].reply;
		assert_int_equal(smtpcode_parse(t, strlen(t), &q), SMTPCODE_OK);
		smtpcode_resolve(&q, t, strlen(t), NULL, &r);
		if (smtpcode_reason_from_words(&r) != replies[i].words)
			fail_msg("%s: reason from words %d, want %d", t,
			         !replies[i].words, replies[i].words);
	}
	memset(&q, 0, sizeof q); /* no code at all */
	smtpcode_resolve(&q, NULL, 0, NULL, &r);
	assert_true(smtpcode_reason_from_words(&r));
}

int main(void)
{
	struct CMUnitTest tests[sizeof cases / sizeof *cases + 5];
	size_t n = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		tests[n++] = (struct CMUnitTest){cases[i].reply, test_case, NULL,
		                                 NULL, (void *)&cases[i]};
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reason_across_classes);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_unknown_code);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_report_of);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_wording);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reason_from_words);
	return _cmocka_run_group_tests("verdict", tests, n, NULL, NULL);
}
