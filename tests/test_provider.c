/*
 * Providers' dialects (src/match/provider.c): recognising a reply's provider,
 * picking its entry by phrase, refusing to guess, forcing a provider, and
 * the coverage the data must reach.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "smtpcode.h"

static struct smtpcode_result resolve(const char *s, const char *provider)
{
	struct smtpcode_query q;
	struct smtpcode_result r;
	const struct smtpcode_entry *p = NULL;
	if (provider) {
		p = smtpcode_find_provider(provider, strlen(provider));
		assert_non_null(p);
	}
	assert_int_equal(smtpcode_parse(s, strlen(s), &q), SMTPCODE_OK);
	smtpcode_resolve(&q, s, strlen(s), p, &r);
	return r;
}

static const char *provider_id(const struct smtpcode_entry *e)
{
	const struct smtpcode_entry *p = e ? smtpcode_provider_of(e) : NULL;
	return p ? smtpcode_text(p, SMTPCODE_CODE) : "(none)";
}

/* Each provider is recognised by a marker of its replies, and its entry
 * for the code is picked. */
static void test_recognise(void **state)
{
	static const struct {
		const char *reply, *provider;
	} cases[] = {
		{"550-5.7.26 This mail has been blocked because the sender is "
		 "unauthenticated. Gmail requires all senders to authenticate "
		 "with either SPF or DKIM. - gsmtp", "gmail"},
		{"421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred "
		 "due to unexpected volume or user complaints", "yahoo"},
		{"550 5.4.1 Recipient address rejected: Access denied. "
		 "AS(201806281) [DM6NAM11FT012.eop-nam11.prod.protection.outlook.com]",
		 "microsoft"},
		{"431 4.3.1 STOREDRV; mailbox disk is full", "exchange"},
		{"550 5.7.1 Unfortunately, messages from [192.0.2.1] weren't sent. "
		 "Please contact your Internet service provider since part of their "
		 "network is on our block list (S3150). "
		 "[AM0PR04MB1234.eurprd04.prod.outlook.com]", "outlook"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct smtpcode_result r = resolve(cases[i].reply, NULL);
		if (!r.match.provider ||
		    strcmp(smtpcode_text(r.match.provider, SMTPCODE_CODE),
		           cases[i].provider) != 0)
			fail_msg("'%s': provider %s, want %s", cases[i].reply,
			         r.match.provider ? smtpcode_text(r.match.provider,
			                                          SMTPCODE_CODE)
			                          : "(none)", cases[i].provider);
		assert_non_null(r.match.marker);
		assert_non_null(r.match.entry);
		assert_string_equal(provider_id(r.match.entry), cases[i].provider);
		assert_true(r.match.how == SMTPCODE_MATCH_PHRASE ||
		            r.match.how == SMTPCODE_MATCH_ONLY);
		assert_true(r.known);
	}
}

/* A phrase picks one of several entries; without one, no guess. */
static void test_phrase_and_ambiguity(void **state)
{
	struct smtpcode_result r;
	(void)state;
	r = resolve("550-5.7.26 This mail has been blocked because the sender "
	            "is unauthenticated. gsmtp", NULL);
	assert_int_equal(r.match.how, SMTPCODE_MATCH_PHRASE);
	assert_non_null(r.match.phrase);
	assert_non_null(strstr("This mail has been blocked because the sender "
	                       "is unauthenticated.", r.match.phrase));

	/* Gmail has many 4.7.0 meanings; this text names none of them. */
	r = resolve("421 4.7.0 Something we have never seen. - gsmtp", NULL);
	assert_int_equal(r.match.how, SMTPCODE_MATCH_AMBIGUOUS);
	assert_null(r.match.entry);
	assert_true(r.match.candidates > 1);
	assert_string_equal(smtpcode_text(r.match.provider, SMTPCODE_CODE),
	                    "gmail");
	assert_true(r.known); /* the standard 4.7.0 stands */

	/* An unknown server's text: the standard meaning stands. */
	r = resolve("550 5.7.1 Refused by local rules of example.net", NULL);
	assert_null(r.match.provider);
	assert_null(r.match.entry);
	assert_non_null(r.enhanced);
}

/* A standard code alone keeps its standard meaning, even where only one
 * provider has an entry for it. */
static void test_lone_code(void **state)
{
	struct smtpcode_result r = resolve("5.7.26", NULL);
	size_t first, n;
	struct smtpcode_query q;
	(void)state;
	assert_int_equal(r.match.how, SMTPCODE_MATCH_NONE);
	assert_null(r.match.entry);
	assert_non_null(r.enhanced);
	/* ... and the providers' meanings are there to list. */
	smtpcode_parse("5.7.1", 5, &q);
	n = smtpcode_code_range(&q, &first);
	assert_true(n > 5);
	assert_null(smtpcode_provider_of(smtpcode_table_entry(first)));
	assert_non_null(smtpcode_provider_of(smtpcode_table_entry(first + 1)));
}

/* A provider's own code is known through the provider. */
static void test_unregistered(void **state)
{
	struct smtpcode_result r = resolve("5.7.708", NULL);
	(void)state;
	assert_null(r.enhanced);
	assert_true(r.known);
	assert_int_equal(r.match.how, SMTPCODE_MATCH_ONLY);
	assert_string_equal(provider_id(r.match.entry), "microsoft");
	assert_int_equal(smtpcode_value(r.match.entry, SMTPCODE_REGISTERED), 1);
	r = resolve("5.7.599", NULL);
	assert_false(r.known);
	assert_null(r.match.entry);
}

/* A provider's range (5.7.606 through 5.7.649) answers for each code in it. */
static void test_ranges(void **state)
{
	struct smtpcode_result r = resolve("550 5.7.620 Access denied, banned "
	                                   "sending IP [192.0.2.1]", NULL);
	(void)state;
	assert_true(r.known);
	assert_non_null(r.match.entry);
	assert_string_equal(provider_id(r.match.entry), "microsoft");
	assert_string_equal(smtpcode_text(r.match.entry, SMTPCODE_CODE), "5.7.606");
	assert_string_equal(smtpcode_text(r.match.entry, SMTPCODE_THROUGH),
	                    "5.7.649");
	r = resolve("5.7.650", NULL);
	assert_false(r.known);
}

/* --provider: Gmail's X.7.27 is about SPF, unlike the registry's. */
static void test_forced_provider_differs(void **state)
{
	struct smtpcode_result r = resolve("5.7.27", "gmail");
	(void)state;
	assert_true(r.match.given);
	assert_non_null(r.match.entry);
	assert_string_equal(provider_id(r.match.entry), "gmail");
	assert_int_equal(smtpcode_value(r.match.entry, SMTPCODE_DIFFERS), 2);
	assert_string_equal(smtpcode_text(r.enhanced, SMTPCODE_NAME),
	                    "Sender address has null MX");
	assert_null(smtpcode_find_provider("gmial", 5));
	assert_non_null(smtpcode_find_provider("GMAIL", 5));
}

/* The data reaches the coverage the product promises. */
static void test_coverage(void **state)
{
	size_t entries = 0, providers = 0;
	(void)state;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		providers += smtpcode_kind(e) == SMTPCODE_KIND_PROVIDER;
		entries += smtpcode_provider_of(e) != NULL;
	}
	if (entries < 250 || providers < 10)
		fail_msg("%zu provider entries across %zu providers; want at "
		         "least 250 across 10", entries, providers);
}

/* Groups tie equivalent codes together. */
static void test_groups(void **state)
{
	const char *groups[][2] = {{"5.1.1", "address-unknown"},
	                           {"4.2.2", "mailbox-full"},
	                           {"552", "mailbox-full"},
	                           {"5.7.23", "authentication"}};
	(void)state;
	for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) {
		struct smtpcode_result r = resolve(groups[i][0], NULL);
		const struct smtpcode_entry *e = r.enhanced ? r.enhanced : r.basic;
		assert_string_equal(smtpcode_text(e, SMTPCODE_GROUP), groups[i][1]);
		assert_non_null(smtpcode_find_group(groups[i][1],
		                                    strlen(groups[i][1])));
	}
}

/* q, from code, resolved against the text input (which need not start
 * with the code), no provider given. */
static struct smtpcode_result resolve_in(const char *code, const char *input)
{
	struct smtpcode_query q;
	struct smtpcode_result r;
	assert_int_equal(smtpcode_parse(code, strlen(code), &q), SMTPCODE_OK);
	smtpcode_resolve(&q, input, strlen(input), NULL, &r);
	return r;
}

/* A marker is found wherever it is: at the start or the end of the reply,
 * at even and odd offsets (the scan looks up every other byte pair), in a
 * reply no longer than itself; and a provider's earliest marker is the
 * one reported. */
static void test_marker_anywhere(void **state)
{
	static const char *const markers[] = {"AS(", "gsmtp", "[TSS0",
	                                      "support.google.com"};
	char reply[128];
	struct smtpcode_result r;
	(void)state;
	for (size_t k = 0; k < sizeof markers / sizeof *markers; k++)
		for (int pad = 0; pad < 9; pad++)
			for (int tail = 0; tail < 3; tail++) {
				snprintf(reply, sizeof reply, "%.*s%s%.*s", pad,
				         "xxxxxxxxx", markers[k], tail, "yyy");
				r = resolve_in("5.7.1", reply);
				if (!r.match.marker ||
				    strcmp(r.match.marker, markers[k]) != 0)
					fail_msg("'%s': marker %s, want %s", reply,
					         r.match.marker ? r.match.marker
					                        : "(none)", markers[k]);
			}
	/* Shorter than the marker, or only part of it: not found. */
	r = resolve_in("5.7.1", "AS");
	assert_null(r.match.marker);
	r = resolve_in("5.7.1", "xA S(");
	assert_null(r.match.marker);
	r = resolve_in("5.7.1", "GSMTP"); /* markers are matched with case */
	assert_null(r.match.marker);
	/* Gmail's two markers, in either order: the earlier is reported. */
	r = resolve_in("4.7.0", "see support.google.com/mail - gsmtp");
	assert_string_equal(r.match.marker, "support.google.com");
	r = resolve_in("4.7.0", "x gsmtp; see support.google.com/mail");
	assert_string_equal(r.match.marker, "gsmtp");
}

/* A phrase picks its entry whatever the case of the reply's letters,
 * wherever it is, and in a reply too long to be copied in lower case. */
static void test_phrase_anywhere(void **state)
{
	static char reply[4096];
	struct smtpcode_result want, r;
	(void)state;
	want = resolve("550-5.7.26 This mail has been blocked because the "
	               "sender is unauthenticated. gsmtp", NULL);
	assert_int_equal(want.match.how, SMTPCODE_MATCH_PHRASE);
	r = resolve("550-5.7.26 THIS MAIL HAS BEEN BLOCKED BECAUSE THE SENDER "
	            "IS UNAUTHENTICATED. gsmtp", NULL);
	assert_int_equal(r.match.how, SMTPCODE_MATCH_PHRASE);
	assert_ptr_equal(r.match.entry, want.match.entry);
	assert_string_equal(r.match.phrase, want.match.phrase);
	/* After ever more bytes, up to some 4000, in either case. */
	for (size_t n = 0; n < sizeof reply - 64; n = n * 2 + 7) {
		memset(reply, n % 2 ? 'Q' : 'q', n);
		snprintf(reply + n, sizeof reply - n, " gsmtp %s",
		         n % 2 ? "Sender Is UNAUTHENTICATED" :
		                 "sender is unauthenticated");
		r = resolve_in("550 5.7.26", reply);
		if (r.match.how != SMTPCODE_MATCH_PHRASE ||
		    r.match.entry != want.match.entry)
			fail_msg("%zu bytes before the phrase: how %d", n,
			         (int)r.match.how);
		reply[strlen(reply) - 1] = 'X'; /* no longer the phrase */
		r = resolve_in("550 5.7.26", reply);
		assert_int_equal(r.match.how, SMTPCODE_MATCH_AMBIGUOUS);
	}
}

/* Whether the address addr quoted in reply (as "<addr>") is ignored, and
 * if it is, that the reply without it resolves alike for code. */
static bool ignores(const char *code, const char *reply, const char *addr)
{
	char cut[512];
	const char *at = strstr(reply, addr);
	size_t from, to;
	struct smtpcode_result whole, without;

	assert_non_null(at);
	from = (size_t)(at - reply);
	to = from + strlen(addr);
	if (!smtpcode_reply_ignores(reply, strlen(reply), from, to))
		return false;
	snprintf(cut, sizeof cut, "%.*s%s", (int)from, reply, reply + to);
	whole = resolve_in(code, reply);
	without = resolve_in(code, cut);
	if (whole.match.how != without.match.how ||
	    whole.match.provider != without.match.provider ||
	    whole.match.entry != without.match.entry ||
	    whole.match.marker != without.match.marker ||
	    whole.match.phrase != without.match.phrase)
		fail_msg("'%s' resolves unlike '%s'", reply, cut);
	return true;
}

/* A recipient's address that no marker or phrase can touch is ignored
 * (the log caches key a reply without it); one that holds a marker or a
 * phrase, whole or crossing its edges, or a space, is not, though its
 * local part may be (the caches then key the reply without that). */
static void test_reply_ignores(void **state)
{
	static const char *const replies[][3] = { /* code, before, after */
	    {"5.1.1", "550 5.1.1 <", ">: Recipient address rejected: User unknown"},
	    {"5.2.2", "552 5.2.2 <", ">: Mailbox full"},
	    {"5.7.1", "554 5.7.1 <", ">: Relay access denied"},
	    {"4.2.2", "452 4.2.2 <", "> The recipient's inbox is out of storage "
	              "space. - gsmtp"},
	    {"5.1.1", "550 5.1.1 <", ">... User unknown"}};
	static const struct {
		const char *addr, *local;
		bool ignored, local_ignored;
	} addrs[] = {
	    {"user1474@example.org", "user1474", true, true},
	    {"bob@gmail.com", "bob", true, true},
	    {"b@yahoo.com", "b", true, true},
	    {"a@yahoo.com", "a", true, false}, /* "a@" as in "tosa@" */
	    {"x.y+tag@corp.example", "x.y+tag", true, true},
	    {"ann@gmx.net", "ann", false, true},     /* GMX's marker */
	    {"Ann@GMX.NET", "Ann", false, true},     /* folded: lets more through */
	    {"dori@icloud.com", "dori", false, true}, /* Apple's "@icloud.com" */
	    {"tosa@rx.t-online.de", "tosa", false, false}, /* "a@" in a phrase */
	    {"my-gsmtp-box@example.org", "my-gsmtp-box", false, false},
	    {"overquota@example.org", "overquota", false, false}, /* one word */
	    {"x@mimecast.example", "x", false, true},
	    {"a b@example.org", "a b", false, false}}; /* phrases have spaces */
	char reply[512];
	(void)state;
	for (size_t i = 0; i < sizeof replies / sizeof *replies; i++)
		for (size_t k = 0; k < sizeof addrs / sizeof *addrs; k++) {
			snprintf(reply, sizeof reply, "%s%s%s", replies[i][1],
			         addrs[k].addr, replies[i][2]);
			if (ignores(replies[i][0], reply, addrs[k].addr) !=
			    addrs[k].ignored)
				fail_msg("'%s' in '%s': ignored %d, want %d",
				         addrs[k].addr, reply, !addrs[k].ignored,
				         addrs[k].ignored);
			if (ignores(replies[i][0], reply, addrs[k].local) !=
			    addrs[k].local_ignored)
				fail_msg("'%s' in '%s': ignored %d, want %d",
				         addrs[k].local, reply, !addrs[k].local_ignored,
				         addrs[k].local_ignored);
		}
	/* At every length and offset (the span is read eight bytes at a
	 * time): a marker anywhere in it is found. */
	for (size_t n = 0; n < 24; n++)
		for (size_t at = 0; at <= n; at++) {
			char addr[64];
			snprintf(addr, sizeof addr, "%.*sgsmtp%.*s@x.org", (int)at,
			         "aaaaaaaaaaaaaaaaaaaaaaaa", (int)(n - at),
			         "bbbbbbbbbbbbbbbbbbbbbbbb");
			snprintf(reply, sizeof reply, "550 5.1.1 <%s>: no", addr);
			if (ignores("5.1.1", reply, addr))
				fail_msg("'%s': the marker is missed", addr);
			snprintf(addr, sizeof addr, "%.*sgsmt%.*s@x.org", (int)at,
			         "aaaaaaaaaaaaaaaaaaaaaaaa", (int)(n - at),
			         "bbbbbbbbbbbbbbbbbbbbbbbb");
			snprintf(reply, sizeof reply, "550 5.1.1 <%s>: no", addr);
			if (!ignores("5.1.1", reply, addr))
				fail_msg("'%s': not ignored", addr);
		}
	/* A space anywhere in a span, its first and last bytes too, may be a
	 * phrase's: the span is not ignored (without it, it is). */
	for (size_t n = 1; n < 20; n++)
		for (size_t at = 0; at <= n; at++) {
			char addr[32];
			memset(addr, 'b', n);
			if (at < n)
				addr[at] = ' ';
			addr[n] = '\0';
			snprintf(reply, sizeof reply, "550 5.1.1 <%s@x.org>: no", addr);
			if (smtpcode_reply_ignores(reply, strlen(reply), 11, 11 + n) !=
			    (at == n))
				fail_msg("'%s' in '%s': ignored %d", addr, reply, at != n);
		}
	/* Edges: a span that cuts a phrase's pair of bytes (Gmail's "too
	 * quickly" holds "ui" and "kl") is not ignored; one whose edges make
	 * no pair of any phrase ("<x", "y@", "g>") is. */
	snprintf(reply, sizeof reply, "550 5.1.1 <xquickly@example.org>: no");
	assert_true(smtpcode_reply_ignores(reply, strlen(reply), 11, 31));
	assert_true(smtpcode_reply_ignores(reply, strlen(reply), 11, 19));
	assert_false(smtpcode_reply_ignores(reply, strlen(reply), 14, 31));
	assert_false(smtpcode_reply_ignores(reply, strlen(reply), 11, 17));
	/* At the very start and end of the input, and bad spans. */
	assert_true(smtpcode_reply_ignores("bob@example.org", 15, 0, 15));
	assert_false(smtpcode_reply_ignores("bob@example.org", 15, 3, 3));
	assert_false(smtpcode_reply_ignores("bob@example.org", 15, 4, 16));
	assert_false(smtpcode_reply_ignores(NULL, 0, 0, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_recognise),
	    cmocka_unit_test(test_phrase_and_ambiguity),
	    cmocka_unit_test(test_lone_code),
	    cmocka_unit_test(test_unregistered),
	    cmocka_unit_test(test_ranges),
	    cmocka_unit_test(test_forced_provider_differs),
	    cmocka_unit_test(test_coverage),
	    cmocka_unit_test(test_groups),
	    cmocka_unit_test(test_marker_anywhere),
	    cmocka_unit_test(test_phrase_anywhere),
	    cmocka_unit_test(test_reply_ignores),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
