/*
 * A site's rules read through the library (smtpcode_rules_parse(),
 * src/core/rules.c): a reason-words record's phrase, a site's entry for a
 * code, a provider's marker, where each is written, and the refusals,
 * reported "NAME:LINE: message" through the caller's callback.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules.h"
#include "smtpcode.h"

/* The messages a parse reported, one per line. */
struct reports {
	char text[4096];
	size_t len;
	int count;
};

static void collect(void *ctx, const char *message)
{
	struct reports *r = ctx;
	int n;
	assert_null(strchr(message, '\n'));
	n = snprintf(r->text + r->len, sizeof r->text - r->len, "%s\n", message);
	assert_true(n > 0 && (size_t)n < sizeof r->text - r->len);
	r->len += (size_t)n;
	r->count++;
}

static struct smtpcode_rules *parse(const char *text, struct reports *r)
{
	memset(r, 0, sizeof *r);
	return smtpcode_rules_parse("site.rules", text, strlen(text), collect, r);
}

static const char good[] =
	"# A site's rules.\n"
	"reason-words: suspend\n"                      /* 2 */
	"priority: 5\n"
	"phrase: account locked by helpdesk\n"         /* 4 */
	"note: Our helpdesk locks accounts;\n"
	" the server says so.\n"
	"\n"
	"reason-words: spamdetected\n"                 /* 8 */
	"priority: 6\n"
	"phrase: rejected by our gateway filter\n"     /* 10 */
	"\n"
	"provider: gmail\n"                            /* 12 */
	"marker: mx.our-google-relay.example\n"        /* 13 */
	"\n"
	"code: 550\n"                                  /* 15 */
	"name: Refused by our relay's policy 42\n"
	"reason: policyviolation\n"
	"match: RELAY-POLICY-42\n"                     /* 18 */
	"meaning: Our relay refuses mail that breaks\n"
	" rule 42 of our policy.\n"
	"\n"
	"code: 5.1.1\n"
	"provider: gmail\n"
	"name: A Gmail address our directory moved\n"
	"reason: hasmoved\n"
	"match: moved-in-our-directory";               /* 26, no newline */

static struct smtpcode_result resolve(const char *s)
{
	struct smtpcode_query q;
	struct smtpcode_result r;
	assert_int_equal(smtpcode_parse(s, strlen(s), &q), SMTPCODE_OK);
	smtpcode_resolve(&q, s, strlen(s), NULL, &r);
	return r;
}

static int reason(const char *name)
{
	int v = smtpcode_value_parse(SMTPCODE_REASON, name, strlen(name));
	assert_true(v > 0);
	return v;
}

/* A reason-words record's phrase gives its reason, ASCII case and runs of
 * blanks aside; the lowest priority wins; other words find nothing. */
static void test_wording(void **state)
{
	struct reports rep;
	struct smtpcode_rules *rules = parse(good, &rep);
	struct smtpcode_wording w;
	const char *text = "550 Account  LOCKED by helpdesk";
	(void)state;

	assert_non_null(rules);
	assert_int_equal(rep.count, 0);
	memset(&w, 0, sizeof w);
	assert_true(rules_wording(rules, text, strlen(text), &w));
	assert_int_equal(w.reason, reason("suspend"));
	assert_string_equal(w.phrase, "account locked by helpdesk");
	assert_int_equal(w.at, 4);
	assert_string_equal(smtpcode_rules_origin(rules, w.phrase),
	                    "site.rules:4");
	assert_null(smtpcode_rules_name(rules, w.phrase)); /* not an entry */

	text = "rejected by our gateway filter: account locked by helpdesk";
	assert_true(rules_wording(rules, text, strlen(text), &w));
	assert_int_equal(w.reason, reason("suspend")); /* priority 5 before 6 */

	text = "550 mailbox is full";
	assert_false(rules_wording(rules, text, strlen(text), &w));
	assert_false(rules_wording(NULL, text, strlen(text), &w));
	/* The built-in phrases are not the rules'. */
	assert_true(smtpcode_wording(text, strlen(text), &w));
	assert_null(smtpcode_rules_origin(rules, w.phrase));
	assert_null(smtpcode_rules_origin(rules, NULL));
	assert_null(smtpcode_rules_origin(NULL, "account locked by helpdesk"));
	smtpcode_rules_free(rules);
}

/* A code record gives its reason to a reply with its code that holds its
 * match: fragment, and to no other; with a provider, only to that
 * provider's replies. */
static void test_entry(void **state)
{
	struct reports rep;
	struct smtpcode_rules *rules = parse(good, &rep);
	struct smtpcode_wording w;
	struct smtpcode_result r;
	const char *text = "550 5.7.1 rejected: RELAY-POLICY-42 applies";
	(void)state;

	assert_non_null(rules);
	r = resolve(text);
	memset(&w, 0, sizeof w);
	assert_true(rules_entry(rules, &r, text, strlen(text), &w));
	assert_int_equal(w.reason, reason("policyviolation"));
	assert_string_equal(w.phrase, "RELAY-POLICY-42");
	assert_string_equal(smtpcode_rules_origin(rules, w.phrase),
	                    "site.rules:18");
	assert_string_equal(smtpcode_rules_name(rules, w.phrase),
	                    "Refused by our relay's policy 42");
	assert_false(rules_entry(NULL, &r, text, strlen(text), &w));

	/* Another code: not this entry's. */
	text = "421 4.3.0 RELAY-POLICY-42";
	r = resolve(text);
	assert_false(rules_entry(rules, &r, text, strlen(text), &w));

	/* An entry of gmail: not for a reply no provider sent. */
	text = "550 5.1.1 moved-in-our-directory";
	r = resolve(text);
	assert_false(rules_entry(rules, &r, text, strlen(text), &w));
	text = "550 5.1.1 <x@gmail.com> moved-in-our-directory gsmtp";
	r = resolve(text);
	assert_true(rules_entry(rules, &r, text, strlen(text), &w));
	assert_int_equal(w.reason, reason("hasmoved"));
	assert_string_equal(smtpcode_rules_origin(rules, w.phrase),
	                    "site.rules:26");
	smtpcode_rules_free(rules);
}

/* A provider record's marker recognises the provider, exactly. */
static void test_provider(void **state)
{
	struct reports rep;
	struct smtpcode_rules *rules = parse(good, &rep);
	const char *marker = NULL;
	const char *text = "550 5.7.26 unauthenticated via mx.our-google-relay.example";
	const struct smtpcode_entry *p;
	(void)state;

	assert_non_null(rules);
	p = rules_provider(rules, text, strlen(text), &marker);
	assert_non_null(p);
	assert_ptr_equal(p, smtpcode_find_provider("gmail", 5));
	assert_string_equal(marker, "mx.our-google-relay.example");
	assert_string_equal(smtpcode_rules_origin(rules, marker), "site.rules:13");
	assert_null(smtpcode_rules_name(rules, marker));

	text = "550 5.7.26 via mx.other-relay.example";
	assert_null(rules_provider(rules, text, strlen(text), &marker));
	assert_null(rules_provider(rules, NULL, 0, &marker));
	assert_null(rules_provider(NULL, text, strlen(text), &marker));
	smtpcode_rules_free(rules);
}

/* Refusals: each problem one "NAME:LINE: message" through the callback,
 * and no rules. */
static void test_refusals(void **state)
{
	struct reports rep;
	(void)state;

	assert_null(parse("reason-words: nosuchreason\n"
	                  "priority: 5\n"
	                  "phrase: some words here\n", &rep));
	assert_int_equal(rep.count, 1);
	assert_non_null(strstr(rep.text, "site.rules:1: 'nosuchreason' is not "
	                                 "a reason"));

	assert_null(parse("reason-words: blocked\n"
	                  "priority: 3\n"
	                  "phrase: blocked by our gateway\n"
	                  "no colon on this line\n", &rep));
	assert_int_equal(rep.count, 1);
	assert_true(strncmp(rep.text, "site.rules:4: ", 14) == 0);

	assert_null(parse("reason-words: blocked\n"
	                  "priority: 3\n"
	                  "phrase: blocked by our gateway\n"
	                  "colour: red\n"
	                  "\n"
	                  "provider: nosuch\n"
	                  "marker: mx.example.net\n"
	                  "\n"
	                  "code: 550\n"
	                  "name: an entry\n", &rep));
	assert_int_equal(rep.count, 4);
	assert_non_null(strstr(rep.text, "site.rules:4: a rules file's "
	                       "reason-words record takes priority:, phrase: and "
	                       "note:, not 'colour'\n"));
	assert_non_null(strstr(rep.text, "site.rules:6: 'nosuch' is not a "
	                       "provider smtpcode knows"));
	assert_non_null(strstr(rep.text, "site.rules:9: code has no 'match:'\n"));
	assert_non_null(strstr(rep.text, "site.rules:9: code has no 'reason:'\n"));

	/* A record that starts with no kind of rule's key. */
	assert_null(parse("colour: red\n", &rep));
	assert_int_equal(rep.count, 1);
	assert_non_null(strstr(rep.text, "site.rules:1: a rules file's record "
	                       "starts with"));

	/* No callback: refused all the same. */
	assert_null(smtpcode_rules_parse("x", "colour: red\n", 12, NULL, NULL));
}

/* More than SMTPCODE_RULES_MAX rules: reported, refused. */
static void test_limit(void **state)
{
	size_t cap = (SMTPCODE_RULES_MAX + 2) * 32 + 64, len = 0;
	char *text = malloc(cap);
	struct reports rep;
	(void)state;

	assert_non_null(text);
	len += (size_t)snprintf(text, cap, "provider: gmail\n");
	for (int i = 0; i <= SMTPCODE_RULES_MAX; i++)
		len += (size_t)snprintf(text + len, cap - len,
		                        "marker: marker-%d.example\n", i);
	memset(&rep, 0, sizeof rep);
	assert_null(smtpcode_rules_parse("big", text, len, collect, &rep));
	assert_int_equal(rep.count, 1);
	assert_non_null(strstr(rep.text, "big:10002: more than 10000 phrases, "
	                       "markers and matches"));
	free(text);
}

/* Nothing to read: no rules, and no problem; freeing NULL is nothing. */
static void test_empty_and_free(void **state)
{
	struct reports rep;
	struct smtpcode_rules *rules = parse("", &rep);
	struct smtpcode_wording w;
	(void)state;

	assert_non_null(rules);
	assert_int_equal(rep.count, 0);
	assert_false(rules_wording(rules, "mailbox is full", 15, &w));
	smtpcode_rules_free(rules);
	rules = smtpcode_rules_parse("none", NULL, 0, collect, &rep);
	assert_non_null(rules);
	smtpcode_rules_free(rules);
	smtpcode_rules_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_wording),
	    cmocka_unit_test(test_entry),
	    cmocka_unit_test(test_provider),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_limit),
	    cmocka_unit_test(test_empty_and_free),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
