/*
 * Bounce messages (src/mail/mail.c, src/mail/mime.c): the corpus of tests/mail/, one
 * row per file, each read with LF, CRLF and bare CR line ends from a
 * buffer of exactly its size (no NUL after it, so that valgrind or ASan
 * catch any read past the end); then the work buffer's limits, the
 * recipient array's limit, the nesting limit, huge inputs, truncations
 * and garbage, delimiters, line ends and encoded words.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codes.h"
#include "smtpcode.h"

#ifndef MAIL_DIR
#error "MAIL_DIR must name the directory of the test messages"
#endif

#define MAXR 8

/* ---- Helpers ---- */

struct buf {
	char *s;
	size_t len;
};

/* The file's bytes in a block of exactly its size: nothing after them. */
static struct buf read_file(const char *name)
{
	char path[512];
	struct buf b = {NULL, 0};
	FILE *f;
	long n;

	snprintf(path, sizeof path, "%s/%s", MAIL_DIR, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	b.len = (size_t)n;
	b.s = malloc(b.len);
	assert_non_null(b.s);
	assert_int_equal(fread(b.s, 1, b.len, f), b.len);
	fclose(f);
	return b;
}

enum line_end { LF, CRLF, CR };

/* b with every line ending in end, in a block of exactly its size. */
static struct buf with_line_ends(struct buf b, enum line_end end)
{
	struct buf o;
	size_t n = 0;
	o.s = malloc(b.len * 2 + 1);
	assert_non_null(o.s);
	for (size_t i = 0; i < b.len; i++) {
		if (b.s[i] == '\r' && i + 1 < b.len && b.s[i + 1] == '\n')
			continue; /* the CR of a CRLF: written again below */
		if (b.s[i] == '\n' && end != LF)
			o.s[n++] = '\r';
		if (b.s[i] != '\n' || end != CR)
			o.s[n++] = b.s[i];
	}
	o.len = n;
	o.s = realloc(o.s, n ? n : 1);
	assert_non_null(o.s);
	return o;
}

/* Whether [s, s + n) lies inside [base, base + size). */
static int inside(const char *s, size_t n, const char *base, size_t size)
{
	uintptr_t a = (uintptr_t)s, b = (uintptr_t)base;
	return base && a >= b && a - b <= size && n <= size - (a - b);
}

static void check_span(struct smtpcode_text t, const char *msg, size_t len,
                       const char *work, size_t worksize)
{
	if (t.len == 0)
		return;
	assert_non_null(t.s);
	if (!inside(t.s, t.len, msg, len) && !inside(t.s, t.len, work, worksize))
		fail_msg("a span of %zu bytes lies outside the message and the "
		         "work buffer", t.len);
}

/* The contract's invariants, for any input. */
static void check_mail(const struct smtpcode_mail *m, const char *msg,
                       size_t len, const char *work, size_t worksize)
{
	assert_true(m->kind <= SMTPCODE_MAIL_FEEDBACK);
	check_span(m->from, msg, len, work, worksize);
	check_span(m->subject, msg, len, work, worksize);
	check_span(m->reporting_mta, msg, len, work, worksize);
	for (size_t i = 0; i < m->nrecipients && i < m->max; i++) {
		const struct smtpcode_mail_recipient *r = &m->recipients[i];
		check_span(r->recipient, msg, len, work, worksize);
		check_span(r->action, msg, len, work, worksize);
		check_span(r->status, msg, len, work, worksize);
		check_span(r->diagnostic, msg, len, work, worksize);
		check_span(r->remote_mta, msg, len, work, worksize);
		/* The codes' text lies inside the text they were read from. */
		assert_true(r->diagnostic_code.text_off +
		                    r->diagnostic_code.text_len <=
		            r->diagnostic.len);
		assert_true(r->status_code.text_off + r->status_code.text_len <=
		            r->status.len);
	}
}

static int parse(const char *msg, size_t len, char *work, size_t worksize,
                 struct smtpcode_mail *m, struct smtpcode_mail_recipient *r,
                 size_t max)
{
	int rc;
	memset(m, 0, sizeof *m);
	m->recipients = r;
	m->max = max;
	rc = smtpcode_mail_parse(msg, len, work, worksize, m);
	check_mail(m, msg, len, work, worksize);
	return rc;
}

static void expect_text(const char *what, struct smtpcode_text got,
                        const char *want)
{
	if (got.len != strlen(want) || (got.len && memcmp(got.s, want, got.len)))
		fail_msg("%s: got '%.*s', want '%s'", what, (int)got.len,
		         got.len ? got.s : "", want);
}

/* Whether smtpcode_find_code() works: it is written separately, and a few
 * diagnostics carry their code only in the middle of their text. */
static int find_code_works(void)
{
	static const char s[] = "no mailbox here by that name. (#5.1.1)";
	struct smtpcode_query q;
	struct smtpcode_text at;
	return smtpcode_find_code(s, sizeof s - 1, &q, &at) && q.enhanced;
}

/* ---- The corpus ---- */

struct want_rcpt {
	const char *recipient;
	const char *action;          /* "" when absent */
	const char *status;          /* Status: as written */
	const char *status_code;     /* parsed, as codes_text writes it */
	const char *diagnostic;
	const char *diagnostic_code; /* as codes_text writes it */
	const char *remote_mta;
	int needs_find_code;         /* the code is found only in mid-text */
};

struct want_mail {
	const char *file;
	enum smtpcode_mail_kind kind;
	const char *subject;
	const char *reporting_mta;
	size_t n;
	struct want_rcpt r[4];
};

#define UNKNOWN_USER_VMT                                                    \
	"550 5.1.1 <nobody@example.com>: Recipient address rejected: User " \
	"unknown in virtual mailbox table"

static const struct want_mail corpus[] = {
	{"postfix-dsn-1.eml", SMTPCODE_MAIL_DSN,
	 "Undelivered Mail Returned to Sender", "mail.example.org", 1,
	 {{"nobody@example.com", "failed", "5.1.1", "5.1.1", UNKNOWN_USER_VMT,
	   "550 5.1.1", "mx1.example.com", 0}}},
	{"postfix-dsn-3.eml", SMTPCODE_MAIL_DSN,
	 "Undelivered Mail Returned to Sender", "mail.example.org", 3,
	 {{"nobody@example.com", "failed", "5.1.1", "5.1.1", UNKNOWN_USER_VMT,
	   "550 5.1.1", "mx1.example.com", 0},
	  {"full@example.net", "failed", "5.2.2", "5.2.2",
	   "552 5.2.2 <full@example.net>: Mailbox full", "552 5.2.2",
	   "mx.example.net", 0},
	  {"blocked@example.org", "failed", "5.7.1", "5.7.1",
	   "554 5.7.1 <blocked@example.org>: Recipient address rejected: "
	   "Access denied",
	   "554 5.7.1", "mail2.example.org", 0}}},
	/* A generic Status: and a specific diagnostic: both are exposed. */
	{"dsn-generic-status.eml", SMTPCODE_MAIL_DSN,
	 "Delivery Status Notification (Failure)", "gateway.example.net", 1,
	 {{"ghost@example.net", "failed", "5.0.0", "5.0.0",
	   "550 5.1.1 <ghost@example.net>... User unknown", "550 5.1.1",
	   "mx.example.net", 0}}},
	{"postfix-delayed.eml", SMTPCODE_MAIL_DSN,
	 "Delayed Mail (still being retried)", "mail.example.org", 1,
	 {{"carol@example.net", "delayed", "4.3.1", "4.3.1",
	   "452 4.3.1 Insufficient system storage", "452 4.3.1",
	   "mx.example.net", 0}}},
	{"exim.eml", SMTPCODE_MAIL_BOUNCE,
	 "Mail delivery failed: returning message to sender", "", 2,
	 {{"nobody@example.com", "", "", "",
	   "550 5.1.1 <nobody@example.com>: Recipient address rejected: User "
	   "unknown in virtual alias table",
	   "550 5.1.1", "mx1.example.com", 0},
	  {"gone@example.org", "", "", "",
	   "550-5.1.1 The email account that you tried to reach does not "
	   "exist. 550 5.1.1 Please check the address and try again.",
	   "550 5.1.1", "mail.example.org", 0}}},
	{"exim-xfailed.eml", SMTPCODE_MAIL_BOUNCE,
	 "Mail delivery failed: returning message to sender", "", 2,
	 {{"dave@example.com", "", "", "", "Unrouteable address", "", "", 0},
	  {"erin@example.org", "", "", "",
	   "554 5.7.1 <erin@example.org>: Relay access denied", "554 5.7.1",
	   "mx.example.org", 0}}},
	{"qmail.eml", SMTPCODE_MAIL_BOUNCE, "failure notice", "mail.example.net",
	 2,
	 {{"nobody@example.com", "", "", "",
	   "550 5.1.1 <nobody@example.com>: Recipient address rejected: User "
	   "unknown in local recipient table",
	   "550 5.1.1", "", 0},
	  {"olduser@example.net", "", "", "",
	   "Sorry, no mailbox here by that name. (#5.1.1)", "5.1.1", "", 1}}},
	{"exchange-online.eml", SMTPCODE_MAIL_DSN,
	 "Undeliverable: Project update",
	 "AM9PR01MB7312.eurprd01.prod.example.net", 1,
	 {{"nobody@example.com", "failed", "5.1.10", "5.1.10",
	   "550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient "
	   "nobody@example.com not found by SMTP address lookup",
	   "550 5.1.10", "", 0}}},
	{"exchange-onprem.eml", SMTPCODE_MAIL_BOUNCE,
	 "Undeliverable: Contract draft", "EX01.corp.example.org", 2,
	 {{"nobody@example.com", "", "", "",
	   "550 5.1.1 RESOLVER.ADR.RecipNotFound; not found", "550 5.1.1", "",
	   0},
	  {"gone@example.net", "", "", "",
	   "550 5.1.1 <gone@example.net>: Recipient address rejected: User "
	   "unknown in local recipient table",
	   "550 5.1.1", "mx.example.net", 0}}},
	{"exchange-2003.eml", SMTPCODE_MAIL_BOUNCE, "Undeliverable: Budget review",
	 "", 1,
	 {{"nobody@example.com", "", "", "",
	   "550 5.1.1 <nobody@example.com>... User unknown", "550 5.1.1", "",
	   0}}},
	{"gmail.eml", SMTPCODE_MAIL_BOUNCE,
	 "Delivery Status Notification (Failure)", "", 1,
	 {{"nobody@example.com", "", "", "", UNKNOWN_USER_VMT, "550 5.1.1", "",
	   0}}},
	{"gmail-old.eml", SMTPCODE_MAIL_BOUNCE,
	 "Delivery Status Notification (Failure)", "", 1,
	 {{"nobody@example.com", "", "", "",
	   "550-5.1.1 The email account that you tried to reach does not "
	   "exist. Please try 550-5.1.1 double-checking the recipient's email "
	   "address for typos or 550 5.1.1 unnecessary spaces. "
	   "q3si1234567wjb.12 - gsmtp",
	   "550 5.1.1", "", 0}}},
	{"yahoo.eml", SMTPCODE_MAIL_BOUNCE, "Failure Notice", "", 1,
	 {{"nobody@example.com", "", "", "",
	   "554: delivery error: dd This user doesn't have a example.com "
	   "account (nobody@example.com) [0] - mta1042.mail.ne1.example.com",
	   "554", "", 0}}},
	{"dsn-base64.eml", SMTPCODE_MAIL_DSN, "Undeliverable mail: Budget",
	 "filter.example.net", 1,
	 {{"quota@example.net", "failed", "5.2.2", "5.2.2",
	   "552 5.2.2 <quota@example.net>: Mailbox full, quota exceeded (used "
	   "10240000 of 10240000 kB)",
	   "552 5.2.2", "store.example.net", 0}}},
	{"global-dsn.eml", SMTPCODE_MAIL_DSN, "Undelivered Mail Returned to Sender",
	 "mail.example.org", 1,
	 {{"j\xc3\xb6ran@example.net", "failed", "5.1.1", "5.1.1",
	   "550 5.1.1 <j\xc3\xb6ran@example.net>: Recipient address rejected: "
	   "User unknown",
	   "550 5.1.1", "mx.example.net", 0}}},
	{"sendmail-dsn.eml", SMTPCODE_MAIL_DSN,
	 "Returned mail: see transcript for details", "relay.example.net", 1,
	 {{"nobody@example.com", "failed", "5.1.1", "5.1.1",
	   "550 5.1.1 <nobody@example.com>... User unknown", "550 5.1.1",
	   "mx1.example.com", 0}}},
	{"sendmail-text.eml", SMTPCODE_MAIL_BOUNCE,
	 "Returned mail: see transcript for details", "", 2,
	 {{"nobody@example.com", "", "", "",
	   "550 5.1.1 <nobody@example.com>... User unknown", "550 5.1.1", "",
	   0},
	  {"quota@example.net", "", "", "", "552 5.2.2 Mailbox full",
	   "552 5.2.2", "", 0}}},
	{"postfix-text.eml", SMTPCODE_MAIL_BOUNCE,
	 "Undelivered Mail Returned to Sender", "relay.example.net", 2,
	 {{"sales@example.com", "", "", "",
	   "550 5.1.1 <sales@example.com>: Recipient address rejected: User "
	   "unknown in virtual mailbox table (in reply to RCPT TO command)",
	   "550 5.1.1", "mx1.example.com", 0},
	  {"loop@example.org", "", "", "",
	   "mail for example.org loops back to myself", "", "", 0}}},
	/* A layout that is data only (data/bounces/opensmtpd.txt). */
	{"opensmtpd.eml", SMTPCODE_MAIL_BOUNCE,
	 "Delivery status notification: error", "", 2,
	 {{"user@example.com", "", "", "",
	   "550 5.1.1 <user@example.com>: Recipient address rejected: User "
	   "unknown in local recipient table",
	   "550 5.1.1", "", 0},
	  {"heidi@example.net", "", "", "",
	   "552 5.2.2 Mailbox full, try again next week", "552 5.2.2", "", 0}}},
	{"xfailed-bare.eml", SMTPCODE_MAIL_BOUNCE, "Message not delivered", "", 2,
	 {{"nobody@example.com", "", "", "", "550 5.1.1 No such user here",
	   "550 5.1.1", "", 0},
	  {"full@example.net", "", "", "",
	   "452 4.2.2 Mailbox full, try again later", "452 4.2.2", "", 0}}},
	{"truncated.eml", SMTPCODE_MAIL_DSN, "Undelivered Mail Returned to Sender",
	 "mail.example.org", 1,
	 {{"nobody@example.com", "failed", "5.1.1", "5.1.1",
	   "550 5.1.1 <nobody@example.com>: Recipient address rejected: User "
	   "unknown",
	   "550 5.1.1", "mx1.example.com", 0}}},
	{"truncated-status.eml", SMTPCODE_MAIL_DSN,
	 "Undelivered Mail Returned to Sender", "mail.example.org", 2,
	 {{"first@example.com", "failed", "5.1.1", "5.1.1",
	   "550 5.1.1 <first@example.com>: User unknown", "550 5.1.1", "", 0},
	  {"second@example.com", "failed", "5.2.2", "5.2.2",
	   "552 5.2.2 <second@example.com>: Mailbox", "552 5.2.2", "", 0}}},
	/* The report 13 multiparts deep is not read; its sibling is. */
	{"deep-nesting.eml", SMTPCODE_MAIL_DSN,
	 "Undelivered Mail Returned to Sender", "mail.example.org", 1,
	 {{"shallow@example.net", "failed", "5.1.1", "5.1.1",
	   "550 5.1.1 <shallow@example.net>: User unknown", "550 5.1.1", "",
	   0}}},
	{"huge-header.eml", SMTPCODE_MAIL_DSN,
	 "Undelivered Mail Returned to Sender (was: Re: [dev] Release "
	 "planning for version 4)",
	 "lists.example.org", 1,
	 {{"member@example.com", "failed", "5.2.2", "5.2.2",
	   "552 5.2.2 Mailbox full", "552 5.2.2", "mx1.example.com", 0}}},
	/* The inner boundary starts with the outer one and "--": its
	 * delimiters do not close the outer multipart. */
	{"nested-boundary.eml", SMTPCODE_MAIL_DSN,
	 "Returned mail: mailbox over quota", "relay.example.org", 1,
	 {{"lena@example.net", "failed", "5.2.2", "5.2.2",
	   "552 5.2.2 lena@example.net: quota exceeded, try again after "
	   "emptying the mailbox",
	   "552 5.2.2", "mx2.example.net", 0}}},
	/* Known by their subjects, once decoded (RFC 2047). */
	{.file = "undelivered-encoded.eml", .kind = SMTPCODE_MAIL_BOUNCE,
	 .subject = "Undelivered Mail Returned to Sender", .reporting_mta = ""},
	{.file = "autoreply-encoded.eml", .kind = SMTPCODE_MAIL_AUTOREPLY,
	 .subject = "Abwesenheitsnotiz: Angebot f\xc3\xbcr die Wartung",
	 .reporting_mta = ""},
	{.file = "autoreply-ooo.eml", .kind = SMTPCODE_MAIL_AUTOREPLY,
	 .subject = "Automatic reply: Project update", .reporting_mta = ""},
	{.file = "autoreply-vacation.eml", .kind = SMTPCODE_MAIL_AUTOREPLY,
	 .subject = "Re: Invoice 2024-117", .reporting_mta = ""},
	/* One recipient: the reported message's, its action the
	 * Feedback-Type. */
	/* Bounces no layout reads, by the signs most share (guess.c): an
	 * SMTP transcript; addresses after labels; an address that starts a
	 * line (not the one a sentence goes on with, nor the returned
	 * message's). */
	{"guess-transcript.eml", SMTPCODE_MAIL_BOUNCE,
	 "Permanent Delivery Failure", "", 1,
	 {{"greta@example.com", "", "", "",
	   "552 Message for <greta@example.com> would exceed mailbox quota",
	   "552", "", 0}}},
	{"guess-label.eml", SMTPCODE_MAIL_BOUNCE, "Undeliverable Mail", "", 2,
	 {{"ines@gw.example.com", "", "", "",
	   "Invalid final delivery userid: ines@gw.example.com", "", "", 0},
	  {"jonas@example.net", "", "", "",
	   "Delivery failed 12 attempts: jonas@example.net", "", "", 0}}},
	{"guess-leading.eml", SMTPCODE_MAIL_BOUNCE,
	 "mail failed, returning to sender", "", 1,
	 {{"lars@nowhere.example", "", "", "", "... unknown host", "", "", 0}}},
	/* Microsoft's complaint (not ARF): the complainer, no type; an ARF
	 * report without Original-Rcpt-To: the reported message's To. */
	{"jmrp.eml", SMTPCODE_MAIL_FEEDBACK,
	 "complaint about message from 198.51.100.60", "", 1,
	 {{"sam@hotmail.example", "", "", "", "", "", "", 0}}},
	{"arf-no-rcpt.eml", SMTPCODE_MAIL_FEEDBACK,
	 "Email Feedback Report for IP 198.51.100.61", "", 1,
	 {{"tove@isp.example.net", "fraud", "", "", "", "", "", 0}}},
	/* HTML alone, read as its text: the address in the X.400 name on
	 * the line after the heading ("SMTP=" left out), its explanation
	 * (entities decoded, the style dropped). */
	{"html-only.eml", SMTPCODE_MAIL_BOUNCE, "Undeliverable: Board papers",
	 "", 1,
	 {{"uma@ex.example.com", "", "", "",
	   "c=US;a= ;p=EX;o=Main;dda:SMTP=uma@ex.example.com; on Tue, 28 May "
	   "2024 07:59:00 +0000 The recipient name is not recognized",
	   "", "", 0}}},
	/* Without a Diagnostic-Code: what Status: says after its code;
	 * for a lone recipient, the text's first reply, else its first line
	 * whose words give a reason (an indented header summary does not end
	 * the text). */
	{"dsn-status-words.eml", SMTPCODE_MAIL_DSN,
	 "Delivery Status Notification (Failure)", "hub.example.net", 1,
	 {{"xena@example.net", "failed", "5.0.0", "5.0.0",
	   "recipient reached disk quota", "", "", 0}}},
	{"dsn-status-basic.eml", SMTPCODE_MAIL_DSN,
	 "Delivery Status Notification (Failure)", "hub.example.net", 1,
	 {{"yuri@example.net", "failed", "553", "553",
	   "Exceeded maximum inbound message size", "", "", 0}}},
	{"dsn-text-explains.eml", SMTPCODE_MAIL_DSN,
	 "Delivery Status Notification (Failure)", "hub.example.net", 1,
	 {{"zack@example.net", "failed", "5.0.0", "5.0.0",
	   "SYSTEM-F-EXDISKQUOTA, disk quota exceeded", "", "", 0}}},
	{"exim-flat.eml", SMTPCODE_MAIL_BOUNCE,
	 "Mail delivery failed: returning message to sender", "", 1,
	 {{"bert@example.de", "", "", "", "550 user unknown", "550", "", 0}}},
	/* Recipients whose own lines say nothing of why: the text's first
	 * line that does, for each; an address quoted at a line's start, and
	 * after "(Originally addressed to". */
	{"guess-worded.eml", SMTPCODE_MAIL_BOUNCE,
	 "Mail System Error - Returned Mail", "", 4,
	 {{"dina@example.com", "", "", "", "not reachable within the allowed queue period.", "", "", 0},
	  {"emil@example.com", "", "", "", "not reachable within the allowed queue period.", "", "", 0},
	  {"fred@example.com", "", "", "", "not reachable within the allowed queue period.", "", "", 0},
	  {"gina@example.com", "", "", "", "not reachable within the allowed queue period.", "", "", 0}}},
	/* A null sender's auto-reply about a recipient is a bounce. */
	{"null-sender.eml", SMTPCODE_MAIL_BOUNCE, "", "", 1,
	 {{"nils@example.com", "", "", "",
	   "You sent mail to nils@example.com. That's not a valid user here.",
	   "", "", 0}}},
	/* Blank lines before the header are not its end. */
	{"leading-blank-lines.eml", SMTPCODE_MAIL_DSN, "Undeliverable: Budget",
	 "mail.example.net", 1,
	 {{"pia@example.net", "failed", "5.1.1", "5.1.1", "", "", "", 0}}},
	{.file = "autoreply-notes.eml", .kind = SMTPCODE_MAIL_AUTOREPLY,
	 .subject = "AUTO: Quinn Example is out of the office (returning "
	            "06/03/2024)", .reporting_mta = ""},
	/* Folded diagnostics joined; an address in one kept as written. */
	{"reason-words.eml", SMTPCODE_MAIL_DSN,
	 "Undelivered Mail Returned to Sender", "relay.example.net", 3,
	 {{"dora@example.com", "failed", "5.0.0", "5.0.0",
	   "552 Mailbox full: dora has used all of her storage", "552",
	   "mx.example.com", 0},
	  {"erik@example.com", "failed", "5.7.1", "5.7.1",
	   "554 5.7.1 Message rejected as SPAM by the content filter "
	   "<filter@example.com>", "554 5.7.1", "mx.example.com", 0},
	  {"fay@example.com", "failed", "5.1.1", "5.1.1",
	   "550 5.1.1 <fay@example.com>: Recipient address rejected: mailbox "
	   "full of old mail", "550 5.1.1", "mx.example.com", 0}}},
	{"arf.eml", SMTPCODE_MAIL_FEEDBACK, "FW: Earn money",
	 "mail.example.com", 1,
	 {{"user@example.com", "abuse", "", "", "", "", "", 0}}},
	{.file = "ordinary.eml", .kind = SMTPCODE_MAIL_OTHER,
	 .subject = "Re: bounces from the newsletter", .reporting_mta = ""},
	{.file = "ordinary-quoted.eml", .kind = SMTPCODE_MAIL_OTHER,
	 .subject = "Fwd: why did this fail?", .reporting_mta = ""},
};

static void expect_recipient(const char *file, size_t i,
                             const struct smtpcode_mail_recipient *r,
                             const struct want_rcpt *w, int find_code)
{
	char got[64], what[128];
	const char *want_code = w->needs_find_code && !find_code
	                                ? ""
	                                : w->diagnostic_code;

	snprintf(what, sizeof what, "%s recipient %zu", file, i + 1);
	expect_text(what, r->recipient, w->recipient);
	expect_text(what, r->action, w->action);
	expect_text(what, r->status, w->status);
	expect_text(what, r->diagnostic, w->diagnostic);
	expect_text(what, r->remote_mta, w->remote_mta);
	if (strcmp(codes_text(&r->status_code, got, sizeof got), w->status_code))
		fail_msg("%s: status code %s, want %s", what, got, w->status_code);
	if (strcmp(codes_text(&r->diagnostic_code, got, sizeof got), want_code))
		fail_msg("%s: diagnostic code %s, want %s", what, got, want_code);
}

static void expect_mail(const struct want_mail *w, struct buf msg,
                        int find_code)
{
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	char *work = malloc(msg.len);
	char what[128];

	assert_non_null(work);
	assert_int_equal(parse(msg.s, msg.len, work, msg.len, &m, r, MAXR), 0);
	if (m.kind != w->kind)
		fail_msg("%s: kind %d, want %d", w->file, (int)m.kind,
		         (int)w->kind);
	snprintf(what, sizeof what, "%s subject", w->file);
	expect_text(what, m.subject, w->subject);
	snprintf(what, sizeof what, "%s reporting MTA", w->file);
	expect_text(what, m.reporting_mta, w->reporting_mta);
	if (m.nrecipients != w->n)
		fail_msg("%s: %zu recipients, want %zu", w->file, m.nrecipients,
		         w->n);
	for (size_t i = 0; i < w->n; i++)
		expect_recipient(w->file, i, &r[i], &w->r[i], find_code);
	free(work);
}

static void test_corpus(void **state)
{
	int find_code = find_code_works();
	(void)state;
	for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
		struct buf raw = read_file(corpus[i].file);
		struct buf lf = with_line_ends(raw, LF);
		struct buf crlf = with_line_ends(raw, CRLF);
		struct buf cr = with_line_ends(raw, CR);
		expect_mail(&corpus[i], raw, find_code);
		expect_mail(&corpus[i], lf, find_code);
		expect_mail(&corpus[i], crlf, find_code);
		expect_mail(&corpus[i], cr, find_code);
		free(raw.s);
		free(lf.s);
		free(crlf.s);
		free(cr.s);
	}
}

/* Every file of tests/mail/ has its row. */
static void test_corpus_complete(void **state)
{
	static const char *const files[] = {
		"arf.eml", "autoreply-encoded.eml", "autoreply-ooo.eml",
		"autoreply-vacation.eml", "deep-nesting.eml", "dsn-base64.eml",
		"dsn-generic-status.eml", "nested-boundary.eml",
		"undelivered-encoded.eml",
		"exchange-2003.eml", "exchange-online.eml", "exchange-onprem.eml",
		"exim-xfailed.eml", "exim.eml", "global-dsn.eml", "gmail-old.eml",
		"gmail.eml", "huge-header.eml", "ordinary-quoted.eml",
		"ordinary.eml", "opensmtpd.eml", "postfix-delayed.eml",
		"postfix-dsn-1.eml",
		"postfix-dsn-3.eml", "postfix-text.eml", "qmail.eml",
		"sendmail-dsn.eml", "sendmail-text.eml", "truncated-status.eml",
		"truncated.eml", "xfailed-bare.eml", "yahoo.eml",
		"reason-words.eml", "guess-transcript.eml", "guess-label.eml",
		"guess-leading.eml", "null-sender.eml", "leading-blank-lines.eml",
		"autoreply-notes.eml", "jmrp.eml", "arf-no-rcpt.eml",
		"html-only.eml", "dsn-status-words.eml", "dsn-status-basic.eml",
		"dsn-text-explains.eml", "exim-flat.eml", "guess-worded.eml",
	};
	(void)state;
	assert_int_equal(sizeof files / sizeof files[0],
	                 sizeof corpus / sizeof corpus[0]);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		size_t k = 0;
		while (k < sizeof corpus / sizeof corpus[0] &&
		       strcmp(corpus[k].file, files[i]) != 0)
			k++;
		if (k == sizeof corpus / sizeof corpus[0])
			fail_msg("%s has no row", files[i]);
	}
}

/* ---- Limits of the caller's buffers ---- */

/* The offset of the first occurrence of lit in b, or b.len. */
static size_t find(struct buf b, const char *lit)
{
	size_t n = strlen(lit);
	for (size_t i = 0; i + n <= b.len; i++)
		if (memcmp(b.s + i, lit, n) == 0)
			return i;
	return b.len;
}

/* The parse of a message that sits in a larger buffer, followed by bytes
 * that would change it if read, is the parse of the message alone. */
static void test_bounded_by_len(void **state)
{
	static const char tail[] = "Final-Recipient: rfc822; extra@example.com\n"
	                           "Action: failed\nStatus: 5.1.1\n";
	struct buf raw = read_file("postfix-dsn-3.eml");
	char *big = malloc(raw.len + 4096), *work = malloc(raw.len);
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	size_t cut;
	(void)state;
	assert_non_null(big);
	assert_non_null(work);
	/* Cut at the delimiter after the delivery-status part, so that the
	 * bytes after len would continue that part if they were read. */
	cut = find(raw, "Content-Description: Undelivered Message Headers");
	assert_true(cut < raw.len);
	while (cut > 0 && raw.s[cut - 1] != '-')
		cut--;
	while (cut > 0 && raw.s[cut - 1] != '\n')
		cut--;
	assert_true(cut > 0);
	memcpy(big, raw.s, cut);
	memcpy(big + cut, tail, sizeof tail - 1);
	memset(big + cut + sizeof tail - 1, 'A', 4096 - sizeof tail);
	assert_int_equal(parse(big, cut, work, raw.len, &m, r, MAXR), 0);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.nrecipients, 3);
	/* Whereas, read with the tail, the extra recipient appears. */
	assert_int_equal(parse(big, cut + sizeof tail - 1, work, raw.len, &m, r,
	                       MAXR),
	                 0);
	assert_int_equal(m.nrecipients, 4);
	free(big);
	free(work);
	free(raw.s);
}

/* A work buffer too small: -1, nothing written past its end, and what
 * fitted still parsed.  Sizes at which everything fits give the full
 * result. */
static void test_work_too_small(void **state)
{
	static const char *const files[] = {"dsn-base64.eml", "gmail.eml",
	                                    "exchange-onprem.eml",
	                                    "postfix-dsn-1.eml"};
	struct smtpcode_mail_recipient r[MAXR], full[MAXR];
	struct smtpcode_mail m, want;
	(void)state;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		struct buf raw = read_file(files[f]);
		char *all = malloc(raw.len);
		assert_non_null(all);
		assert_int_equal(parse(raw.s, raw.len, all, raw.len, &want, full,
		                       MAXR),
		                 0);
		for (size_t size = 0; size < raw.len; size += 1 + size / 8) {
			char *work = malloc(size + 64);
			int rc;
			assert_non_null(work);
			memset(work + size, 0x5a, 64);
			rc = parse(raw.s, raw.len, work, size, &m, r, MAXR);
			for (size_t k = 0; k < 64; k++)
				assert_int_equal(work[size + k], 0x5a);
			if (size < 512)
				assert_int_equal(rc, -1);
			assert_true(rc == 0 || rc == -1);
			if (rc == 0) {
				assert_int_equal(m.kind, want.kind);
				assert_int_equal(m.nrecipients, want.nrecipients);
				for (size_t i = 0; i < m.nrecipients; i++)
					assert_memory_equal(r[i].diagnostic.s,
					                    full[i].diagnostic.s,
					                    full[i].diagnostic.len);
			}
			free(work);
		}
		/* No buffer at all. */
		assert_int_equal(parse(raw.s, raw.len, NULL, 0, &m, r, MAXR), -1);
		free(all);
		free(raw.s);
	}
}

/* The work buffer is needed only to decode and unfold: a DSN with neither
 * parses without one. */
static void test_no_work_needed(void **state)
{
	struct buf raw = read_file("sendmail-dsn.eml");
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	(void)state;
	assert_int_equal(parse(raw.s, raw.len, NULL, 0, &m, r, MAXR), 0);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.nrecipients, 1);
	expect_text("recipient", r[0].recipient, "nobody@example.com");
	free(raw.s);
}

/* What does not fit is left raw: a folded diagnostic keeps its fold. */
static void test_small_work_keeps_raw_text(void **state)
{
	struct buf raw = read_file("postfix-dsn-1.eml");
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	(void)state;
	assert_int_equal(parse(raw.s, raw.len, NULL, 0, &m, r, MAXR), -1);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.nrecipients, 1);
	assert_true(r[0].diagnostic.len > 0);
	assert_non_null(memchr(r[0].diagnostic.s, '\n', r[0].diagnostic.len));
	assert_int_equal(r[0].diagnostic_code.basic, 550);
	free(raw.s);
}

/* More recipients than the array holds: all counted, max stored, and the
 * rest of the array untouched. */
static void test_max_recipients(void **state)
{
	struct buf raw = read_file("postfix-dsn-3.eml");
	struct smtpcode_mail_recipient r[3];
	struct smtpcode_mail m;
	char *work = malloc(raw.len);
	(void)state;
	assert_non_null(work);
	memset(r, 0x77, sizeof r);
	assert_int_equal(parse(raw.s, raw.len, work, raw.len, &m, r, 1), 0);
	assert_int_equal(m.nrecipients, 3);
	expect_text("first", r[0].recipient, "nobody@example.com");
	for (size_t i = 0; i < sizeof r[1]; i++)
		assert_int_equal(((unsigned char *)&r[1])[i], 0x77);
	assert_int_equal(parse(raw.s, raw.len, work, raw.len, &m, NULL, 0), 0);
	assert_int_equal(m.nrecipients, 3);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	free(work);
	free(raw.s);
}

static void test_empty(void **state)
{
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	char work[16];
	(void)state;
	assert_int_equal(parse(NULL, 0, NULL, 0, &m, r, MAXR), 0);
	assert_int_equal(m.kind, SMTPCODE_MAIL_OTHER);
	assert_int_equal(m.nrecipients, 0);
	assert_int_equal(m.from.len, 0);
	assert_int_equal(parse("", 0, work, sizeof work, &m, r, MAXR), 0);
	assert_int_equal(m.kind, SMTPCODE_MAIL_OTHER);
	assert_int_equal(parse("\r\n\r\n", 4, work, sizeof work, &m, r, MAXR),
	                 0);
	assert_int_equal(m.kind, SMTPCODE_MAIL_OTHER);
	assert_int_equal(m.nrecipients, 0);
}

/* ---- Hostile input ---- */

static uint32_t lcg(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

/* Random bytes, and random lines built from the tokens that steer the
 * parser, parse to something consistent. */
static void test_garbage(void **state)
{
	static const char *const tokens[] = {
		"\n", "\r\n", "--b", "--b--", "Content-Type: multipart/report; "
		"boundary=b", "Content-Type: message/delivery-status",
		"Content-Transfer-Encoding: base64", "Content-Transfer-Encoding: "
		"quoted-printable", "Final-Recipient: rfc822; x@example.com",
		"Status: 5.1.1", "Diagnostic-Code: smtp; 550 5.1.1 x", " ", "\t",
		"=", "=\n", "=4", "<a@example.com>:", "said: 550", "  a@b.c",
		"    550 5.1.1", "This is the mail system at host h",
		"Delivery has failed to these recipients or groups:",
		"Diagnostic information for administrators:",
		"Remote Server returned '", "X-Failed-Recipients: a@b, c@d",
		"A message that you sent could not be delivered", "\xff\xfe",
		"(", ")", "\"", ";", ":",
	};
	size_t size = 1 << 16;
	char *msg = malloc(size), *work = malloc(size);
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	uint32_t seed = 42;
	(void)state;
	assert_non_null(msg);
	assert_non_null(work);
	for (int round = 0; round < 40; round++) {
		size_t n = lcg(&seed) % size;
		if (round % 2 == 0) {
			for (size_t i = 0; i < n; i++)
				msg[i] = (char)(lcg(&seed) & 0xff);
		} else {
			size_t i = 0;
			while (i < n) {
				size_t pick = lcg(&seed) % (sizeof tokens / sizeof *tokens);
				const char *t = tokens[pick];
				size_t k = strlen(t);
				if (i + k > n)
					break;
				memcpy(msg + i, t, k);
				i += k;
			}
			n = i;
		}
		(void)parse(msg, n, work, n, &m, r, MAXR);
		(void)parse(msg, n, work, n / 3, &m, r, MAXR);
	}
	free(msg);
	free(work);
}

/* Every prefix of every message (a message truncated anywhere), and
 * random bytes changed in each, parse to something consistent. */
static void test_truncations_and_mutations(void **state)
{
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	uint32_t seed = 7;
	(void)state;
	for (size_t f = 0; f < sizeof corpus / sizeof corpus[0]; f++) {
		struct buf raw = read_file(corpus[f].file);
		size_t step = raw.len / 300 + 1;
		for (size_t n = 0; n <= raw.len; n += step) {
			char *msg = malloc(n ? n : 1), *work = malloc(n ? n : 1);
			assert_non_null(msg);
			assert_non_null(work);
			memcpy(msg, raw.s, n);
			assert_int_equal(parse(msg, n, work, n, &m, r, MAXR), 0);
			free(msg);
			free(work);
		}
		for (int k = 0; k < 20; k++) {
			char *msg = malloc(raw.len), *work = malloc(raw.len);
			assert_non_null(msg);
			assert_non_null(work);
			memcpy(msg, raw.s, raw.len);
			for (int j = 0; j < 8; j++)
				msg[lcg(&seed) % raw.len] = (char)lcg(&seed);
			assert_int_equal(
				parse(msg, raw.len, work, raw.len, &m, r, MAXR), 0);
			free(msg);
			free(work);
		}
		free(raw.s);
	}
}

/* ---- Structure ---- */

/* A DSN whose delivery-status part lies `depth` multiparts deep. */
static size_t nested(char *buf, size_t size, int depth)
{
	size_t n = 0;
	n += (size_t)snprintf(buf + n, size - n,
	                      "From: MAILER-DAEMON@example.org\n"
	                      "Content-Type: multipart/mixed; "
	                      "boundary=\"b1\"\n\n");
	for (int i = 1; i < depth; i++)
		n += (size_t)snprintf(buf + n, size - n,
		                      "--b%d\nContent-Type: multipart/mixed; "
		                      "boundary=\"b%d\"\n\n",
		                      i, i + 1);
	n += (size_t)snprintf(buf + n, size - n,
	                      "--b%d\nContent-Type: message/delivery-status\n\n"
	                      "Final-Recipient: rfc822; x@example.com\n"
	                      "Action: failed\nStatus: 5.1.1\n\n",
	                      depth);
	for (int i = depth; i >= 1; i--)
		n += (size_t)snprintf(buf + n, size - n, "--b%d--\n", i);
	assert_true(n < size);
	return n;
}

/* Parts are read 8 multiparts deep, no deeper. */
static void test_depth_limit(void **state)
{
	char msg[8192], work[8192];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	(void)state;
	for (int depth = 1; depth <= 12; depth++) {
		size_t n = nested(msg, sizeof msg, depth);
		assert_int_equal(parse(msg, n, work, sizeof work, &m, r, MAXR), 0);
		if (depth <= 8) {
			assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
			assert_int_equal(m.nrecipients, 1);
		} else {
			assert_int_equal(m.kind, SMTPCODE_MAIL_OTHER);
			assert_int_equal(m.nrecipients, 0);
		}
	}
}

/* A message whose header is megabytes of folded lines, with a folded
 * Subject of a megabyte: parsed whole, in linear time. */
static void test_huge_folded_header(void **state)
{
	static const char head[] = "From: MAILER-DAEMON@example.org\n"
	                           "Subject: Undelivered";
	static const char mid[] = "\nReferences:";
	static const char tail[] =
		"\nContent-Type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; x@example.com\nAction: failed\n"
		"Status: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 gone\n";
	size_t folds = 100000, size = 8u << 20, n = 0;
	char *msg = malloc(size), *work = malloc(size);
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	(void)state;
	assert_non_null(msg);
	assert_non_null(work);
	memcpy(msg, head, sizeof head - 1);
	n = sizeof head - 1;
	for (size_t i = 0; i < folds; i++) {
		memcpy(msg + n, "\r\n   word", 9);
		n += 9;
	}
	memcpy(msg + n, mid, sizeof mid - 1);
	n += sizeof mid - 1;
	for (size_t i = 0; i < 4 * folds; i++) {
		memcpy(msg + n, "\n\t<id@example.org>", 18);
		n += 18;
	}
	memcpy(msg + n, tail, sizeof tail - 1);
	n += sizeof tail - 1;
	assert_int_equal(parse(msg, n, work, n, &m, r, MAXR), 0);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.subject.len, strlen("Undelivered") + folds * 5);
	assert_memory_equal(m.subject.s, "Undelivered word word", 21);
	assert_int_equal(m.nrecipients, 1);
	expect_text("diagnostic", r[0].diagnostic, "550 5.1.1 gone");
	free(msg);
	free(work);
}

/* Many parts, and a multipart without its close delimiter. */
static void test_many_parts(void **state)
{
	size_t parts = 200000, size = 16u << 20, n = 0;
	char *msg = malloc(size), *work = malloc(size);
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	static const char head[] =
		"Content-Type: multipart/report; report-type=delivery-status; "
		"boundary=x\n\n";
	static const char part[] = "--x\nContent-Type: text/html\n\n<p>\n";
	static const char status[] =
		"--x\nContent-Type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; last@example.com\nStatus: 4.2.2\n";
	(void)state;
	assert_non_null(msg);
	assert_non_null(work);
	memcpy(msg, head, sizeof head - 1);
	n = sizeof head - 1;
	for (size_t i = 0; i < parts; i++) {
		memcpy(msg + n, part, sizeof part - 1);
		n += sizeof part - 1;
	}
	memcpy(msg + n, status, sizeof status - 1);
	n += sizeof status - 1;
	assert_int_equal(parse(msg, n, work, n, &m, r, MAXR), 0);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.nrecipients, 1);
	expect_text("recipient", r[0].recipient, "last@example.com");
	expect_text("status", r[0].status, "4.2.2");
	free(msg);
	free(work);
}

static struct smtpcode_mail parse_string(const char *s, char *work,
                                         size_t worksize,
                                         struct smtpcode_mail_recipient *r)
{
	struct smtpcode_mail m;
	assert_int_equal(parse(s, strlen(s), work, worksize, &m, r, MAXR), 0);
	return m;
}

/* Recipient groups that lack the blank lines between them, an mbox
 * "From " line, a boundary with '=' left unquoted, Original-Recipient
 * alone, a Status with a comment, a Final-Recipient in brackets. */
static void test_dsn_variants(void **state)
{
	static const char msg[] =
		"From MAILER-DAEMON Tue May 14 09:12:07 2024\n"
		"From: MAILER-DAEMON@example.org\n"
		"Content-Type: MULTIPART/REPORT; boundary=----=_Part_1; "
		"report-type=delivery-status\n\n"
		"preamble\n"
		"------=_Part_1\n"
		"Content-Type: Message/Delivery-Status\n\n"
		"Reporting-MTA: dns; mx.example.org\n"
		"Final-Recipient: rfc822; <a@example.com>\n"
		"Action: failed\n"
		"Status: 5.0.0 (permanent failure)\n"
		"Diagnostic-Code: smtp;\n"
		"    550 5.1.1 a unknown\n"
		"Final-Recipient: rfc822; b@example.com\n"
		"Action: delayed\n"
		"Status: 4.4.7\n"
		"\n"
		"\n"
		"Original-Recipient: rfc822; c@example.com\n"
		"Action: failed\n"
		"Diagnostic-Code: X-Postfix; mail loops back to myself\n"
		"------=_Part_1--\n";
	char work[sizeof msg];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m = parse_string(msg, work, sizeof work, r);
	(void)state;
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	expect_text("from", m.from, "MAILER-DAEMON@example.org");
	expect_text("reporting", m.reporting_mta, "mx.example.org");
	assert_int_equal(m.nrecipients, 3);
	expect_text("1", r[0].recipient, "a@example.com");
	expect_text("1", r[0].status, "5.0.0");
	expect_text("1", r[0].diagnostic, "550 5.1.1 a unknown");
	assert_int_equal(r[0].diagnostic_code.subject, 1);
	assert_int_equal(r[0].status_code.subject, 0);
	expect_text("2", r[1].recipient, "b@example.com");
	expect_text("2", r[1].action, "delayed");
	assert_int_equal(r[1].status_code.cls, 4);
	assert_int_equal(r[1].diagnostic.len, 0);
	expect_text("3", r[2].recipient, "c@example.com");
	expect_text("3", r[2].diagnostic, "mail loops back to myself");
	assert_false(r[2].diagnostic_code.enhanced);
	assert_int_equal(r[2].diagnostic_code.basic, 0);
}

/* Quoted-printable and base64 oddities: soft breaks, lowercase hex, a
 * stray '=', base64 with blanks and padding in the middle. */
static void test_decoding(void **state)
{
	static const char qp[] =
		"Subject: Undelivered Mail Returned to Sender\n"
		"Content-Type: text/plain\n"
		"Content-Transfer-Encoding: Quoted-Printable\n\n"
		"This is the mail system at host relay=2eexample=2enet.\n\n"
		"<a@example.com>: host mx.example.com[192.0.2.1] said: 550 5.1=\n"
		".1 user =3d unknown = \t\n"
		"(a=3D1) =ZZ\n";
	static const char b64[] =
		"Content-Type: message/delivery-status\n"
		"Content-Transfer-Encoding: BASE64\n\n"
		/* "Final-Recipient: rfc822; b@example.com\n" in two blocks,
		 * each with its padding, and blanks inside. */
		"RmluYWwtUmVjaXBp\n ZW50OiBy Zm M4\tMjI7IGJAZXg=\r\n"
		"YW1wbGUu Y29tCg==\n";
	char work[512];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m = parse_string(qp, work, sizeof work, r);
	(void)state;
	assert_int_equal(m.kind, SMTPCODE_MAIL_BOUNCE);
	expect_text("qp host", m.reporting_mta, "relay.example.net");
	assert_int_equal(m.nrecipients, 1);
	expect_text("qp", r[0].diagnostic, "550 5.1.1 user = unknown (a=1) =ZZ");
	expect_text("qp remote", r[0].remote_mta, "mx.example.com");
	m = parse_string(b64, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.nrecipients, 1);
	expect_text("b64", r[0].recipient, "b@example.com");
}

/* Exchange's other forms: "#550 ... ##" and "<#5.0.0 smtp;...>" replies,
 * "Name (address)" lists without the administrators' section. */
static void test_exchange_variants(void **state)
{
	static const char hash[] =
		"Subject: Undeliverable: Budget\n\n"
		"Delivery has failed to these recipients or groups:\n\n"
		"Jane Example (nobody@example.com)\n"
		"The e-mail address you entered couldn't be found.\n\n"
		"Diagnostic information for administrators:\n\n"
		"Generating server: mail.corp.example.org\n\n"
		"nobody@example.com\n"
		"#550 5.1.1 RESOLVER.ADR.RecipNotFound; not found ##\n\n"
		"other@example.com<mailto:other@example.com>\n"
		"Remote Server returned '< #5.0.0 smtp; 550 5.1.1 "
		"<other@example.com>: User unknown>'\n\n"
		"Original message headers:\n\n"
		"To: third@example.com\n";
	static const char list[] =
		"Subject: Undeliverable: Budget\n\n"
		"Delivery has failed to these recipients or groups:\n\n"
		"Jane Example (nobody@example.com)\n"
		"The e-mail address you entered couldn't be found. Please "
		"contact postmaster@example.org.\n";
	char work[sizeof hash];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m = parse_string(hash, work, sizeof work, r);
	(void)state;
	assert_int_equal(m.kind, SMTPCODE_MAIL_BOUNCE);
	expect_text("generating server", m.reporting_mta,
	            "mail.corp.example.org");
	assert_int_equal(m.nrecipients, 2);
	expect_text("1", r[0].diagnostic,
	            "550 5.1.1 RESOLVER.ADR.RecipNotFound; not found");
	expect_text("2", r[1].recipient, "other@example.com");
	expect_text("2", r[1].diagnostic, "550 5.1.1 <other@example.com>: User "
	                                  "unknown");
	m = parse_string(list, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_BOUNCE);
	assert_int_equal(m.nrecipients, 1);
	expect_text("list", r[0].recipient, "nobody@example.com");
	assert_int_equal(r[0].diagnostic.len, 0);
}

/* Gmail's other wordings; several addresses share the one reply. */
static void test_gmail_variants(void **state)
{
	static const char problem[] =
		"Subject: Delivery Status Notification (Failure)\n\n"
		"** Message not delivered **\n\n"
		"There was a problem delivering your message to "
		"nobody@example.com. See the technical details below.\n\n"
		"The response was:\n\n"
		"552 5.2.2 The recipient's inbox is out of storage space.\n";
	static const char list[] =
		"Subject: Delivery Status Notification (Failure)\n\n"
		"Delivery to the following recipients failed permanently:\n\n"
		"     a@example.com\n     b@example.net\n\n"
		"Technical details of permanent failure:\n"
		"The error that the other server returned was:\n"
		"550 5.1.1 No such user\n";
	char work[sizeof problem + sizeof list];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m = parse_string(problem, work, sizeof work, r);
	(void)state;
	assert_int_equal(m.kind, SMTPCODE_MAIL_BOUNCE);
	assert_int_equal(m.nrecipients, 1);
	expect_text("problem", r[0].recipient, "nobody@example.com");
	expect_text("problem", r[0].diagnostic,
	            "552 5.2.2 The recipient's inbox is out of storage space.");
	m = parse_string(list, work, sizeof work, r);
	assert_int_equal(m.nrecipients, 2);
	expect_text("a", r[0].recipient, "a@example.com");
	expect_text("b", r[1].recipient, "b@example.net");
	expect_text("b", r[1].diagnostic, "550 5.1.1 No such user");
}

/* The reason a recipient's reply gives, as the table names it. */
static const char *reason_of(struct smtpcode_text diagnostic)
{
	struct smtpcode_query q;
	struct smtpcode_result res;
	const struct smtpcode_entry *e;
	if (smtpcode_parse(diagnostic.s, diagnostic.len, &q) != SMTPCODE_OK)
		return "";
	smtpcode_resolve(&q, diagnostic.s, diagnostic.len, NULL, &res);
	e = smtpcode_answer(&res);
	return e ? smtpcode_value_name(SMTPCODE_REASON,
	                               smtpcode_value(e, SMTPCODE_REASON))
	         : "";
}

/* OpenSMTPD, read by its layout alone (data/bounces/opensmtpd.txt): the
 * current wording, and the older ones that open the list with "Delivery
 * to the following recipients ..." (which Gmail's layout, tried first,
 * recognises but does not read: its addresses stand alone). */
static void test_opensmtpd_versions(void **state)
{
	static const char current[] =
		"From: MAILER-DAEMON@relay.example.org\n"
		"Subject: Delivery status notification: error\n\n"
		"Hi!\n\nThis is the MAILER-DAEMON, please DO NOT REPLY to this "
		"email.\n\nAn error has occurred while attempting to deliver a "
		"message for the following list of recipients:\n\n"
		"user@example.com: 550 5.1.1 <user@example.com>: Recipient address "
		"rejected: User unknown in local recipient table\n\n"
		"Below is a copy of the original message:\n\n"
		"To: user@example.com\n\nlate@example.org: not a recipient\n";
	static const char failed[] =
		"Subject: Delivery status notification: error\n\n"
		"Delivery to the following recipients failed permanently:\n\n"
		"old@example.com: 550 5.1.1 No such user\n";
	static const char postponed[] =
		"Subject: Delivery status notification: delay\n\n"
		"Delivery to the following recipients was postponed because of "
		"a temporary failure:\n\n"
		"slow@example.net: 452 4.2.2 Mailbox full\n";
	char work[sizeof current];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m = parse_string(current, work, sizeof work, r);
	(void)state;
	assert_int_equal(m.kind, SMTPCODE_MAIL_BOUNCE);
	assert_int_equal(m.nrecipients, 1);
	expect_text("current", r[0].recipient, "user@example.com");
	assert_int_equal(r[0].diagnostic_code.basic, 550);
	assert_int_equal(r[0].diagnostic_code.cls, 5);
	assert_int_equal(r[0].diagnostic_code.subject, 1);
	assert_int_equal(r[0].diagnostic_code.detail, 1);
	assert_string_equal(reason_of(r[0].diagnostic), "userunknown");
	m = parse_string(failed, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_BOUNCE);
	assert_int_equal(m.nrecipients, 1);
	expect_text("failed", r[0].recipient, "old@example.com");
	expect_text("failed", r[0].diagnostic, "550 5.1.1 No such user");
	m = parse_string(postponed, work, sizeof work, r);
	assert_int_equal(m.nrecipients, 1);
	expect_text("postponed", r[0].recipient, "slow@example.net");
	expect_text("postponed", r[0].diagnostic, "452 4.2.2 Mailbox full");
	assert_string_equal(reason_of(r[0].diagnostic), "mailboxfull");
}

/* MIME's corners: comments and folds in Content-Type, transport padding
 * after a delimiter, blanks before a fold, a QP soft break after blanks,
 * a diagnostic without a type whose text holds a ';'. */
static void test_mime_corners(void **state)
{
	static const char msg[] =
		"Subject: Undelivered\n"
		"Content-Type: multipart/report; (a (nested \\) comment))\n"
		"\treport-type=\"delivery-status\"; boundary=\"b;1\"\n\n"
		"--b;1   \n"
		"Content-Type: text/plain\n"
		"Content-Transfer-Encoding: quoted-printable\n\n"
		"soft =  \nbreak\n"
		"--b;1\t\n"
		"content-type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; a@example.com\n"
		"Diagnostic-Code: 550 5.1.1 user unknown;   \n"
		"   see the FAQ\n"
		"--b;1--\n";
	char work[sizeof msg];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m = parse_string(msg, work, sizeof work, r);
	(void)state;
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.nrecipients, 1);
	expect_text("diagnostic", r[0].diagnostic,
	            "550 5.1.1 user unknown; see the FAQ");
	assert_int_equal(r[0].diagnostic_code.basic, 550);
	assert_int_equal(r[0].diagnostic_code.detail, 1);
}

/* Auto-replies by each marker; bounces that also say auto-replied are
 * bounces. */
static void test_autoreply_markers(void **state)
{
	static const char *const msgs[] = {
		"Subject: hello\nAuto-Submitted: auto-replied (vacation)\n\nbody\n",
		"Subject: hello\nX-Autorespond: 1\n\nbody\n",
		"Subject: hello\nprecedence: AUTO_REPLY\n\nbody\n",
		"Subject: Out of Office: hello\n\nbody\n",
		"Subject: Automatic reply: hello\n\nbody\n",
	};
	static const char *const not_replies[] = {
		"Subject: hello\nAuto-Submitted: no\n\nbody\n",
		"Subject: hello\nAuto-Submitted: auto-generated\n\nbody\n",
		"Subject: Re: Out of Office next week?\n\nbody\n",
		"Subject: hello\nX-Autoreply: no\nPrecedence: bulk\n\nbody\n",
	};
	/* Recognised by their wording, header or sender, without recipients. */
	static const char *const bounces[] = {
		"Subject: Mail delivery failed\nAuto-Submitted: auto-replied\n\n"
		"This message was created automatically by mail delivery "
		"software.\n\nSomething unusual happened.\n",
		"Subject: hello\nAuto-Submitted: auto-replied\n"
		"X-Failed-Recipients: (none)\n\nbody\n",
		"From: MAILER-DAEMON@example.org\nSubject: Returned mail\n"
		"Auto-Submitted: auto-replied\n\nA format of its own.\n",
	};
	char work[256];
	struct smtpcode_mail_recipient r[MAXR];
	(void)state;
	for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++)
		assert_int_equal(parse_string(msgs[i], work, sizeof work, r).kind,
		                 SMTPCODE_MAIL_AUTOREPLY);
	for (size_t i = 0; i < sizeof not_replies / sizeof not_replies[0]; i++)
		assert_int_equal(
			parse_string(not_replies[i], work, sizeof work, r).kind,
			SMTPCODE_MAIL_OTHER);
	for (size_t i = 0; i < sizeof bounces / sizeof bounces[0]; i++)
		assert_int_equal(parse_string(bounces[i], work, sizeof work, r).kind,
		                 SMTPCODE_MAIL_BOUNCE);
}

/* A bounce's returned original is never read: a DSN inside a returned
 * message/rfc822 does not make the outer message a DSN. */
static void test_returned_original_not_read(void **state)
{
	static const char msg[] =
		"From: someone@example.org\n"
		"Subject: Fwd: look at this\n"
		"Content-Type: multipart/mixed; boundary=o\n\n"
		"--o\nContent-Type: text/plain\n\nSee the attached bounce.\n"
		"--o\nContent-Type: message/rfc822\n\n"
		"Subject: Undelivered Mail Returned to Sender\n"
		"Content-Type: multipart/report; report-type=delivery-status; "
		"boundary=i\n\n"
		"--i\nContent-Type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; inner@example.com\nStatus: 5.1.1\n"
		"--i--\n"
		"--o--\n";
	char work[sizeof msg];
	struct smtpcode_mail_recipient r[MAXR];
	(void)state;
	struct smtpcode_mail m = parse_string(msg, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_OTHER);
	assert_int_equal(m.nrecipients, 0);
}

/* A report a relay's postmaster sends on wrapped in a message of its own
 * (no report part but the attached message's) is read; a person's
 * forward of one, whatever its Subject, is not a bounce. */
static void test_wrapped_report(void **state)
{
	static const char wrapped[] =
		"From: postmaster@relay.example.org\n"
		"Subject: Delivery Status Notification (Failure)\n"
		"Content-Type: multipart/mixed; boundary=o\n\n"
		"--o\nContent-Type: message/rfc822\n\n"
		"From: postmaster@mx.example.com\n"
		"Content-Type: multipart/report; report-type=delivery-status; "
		"boundary=i\n\n"
		"--i\nContent-Type: text/plain\n\nNot delivered.\n"
		"--i\nContent-Type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; inner@example.com\nAction: failed\n"
		"Status: 5.1.1\n"
		"--i--\n"
		"--o--\n";
	static const char forwarded[] =
		"From: Ola Nordmann <ola@example.org>\n"
		"Subject: Fwd: Undelivered Mail Returned to Sender\n"
		"Content-Type: multipart/mixed; boundary=o\n\n"
		"--o\nContent-Type: message/rfc822\n\n"
		"From: MAILER-DAEMON@mx.example.com\n"
		"Content-Type: multipart/report; report-type=delivery-status; "
		"boundary=i\n\n"
		"--i\nContent-Type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; inner@example.com\nStatus: 5.1.1\n"
		"--i--\n"
		"--o--\n";
	char work[sizeof wrapped];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	(void)state;
	m = parse_string(wrapped, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.nrecipients, 1);
	expect_text("wrapped", r[0].recipient, "inner@example.com");
	expect_text("status", r[0].status, "5.1.1");
	m = parse_string(forwarded, work, sizeof work, r);
	assert_int_equal(m.nrecipients, 0);
	assert_int_not_equal(m.kind, SMTPCODE_MAIL_DSN);
}

/* ---- Delimiters, line ends, encoded words, many recipients ---- */

/* A close delimiter is "--B--" then only blanks (RFC 2046): "--B--x" is
 * text, or an inner boundary's delimiter; "--B-- \t" closes, and what
 * follows it (the epilogue) is not a part. */
static void test_close_delimiter(void **state)
{
	static const char inner[] =
		"Content-Type: multipart/report; report-type=delivery-status; "
		"boundary=B\n\n"
		"--B\nContent-Type: multipart/alternative; boundary=B--x\n\n"
		"--B--x\nContent-Type: text/plain\n\nNot delivered.\n"
		"--B--x--\n"
		"--B\nContent-Type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; a@example.com\nStatus: 5.1.1\n"
		"--B--\n";
	static const char text[] =
		"Content-Type: multipart/report; report-type=delivery-status; "
		"boundary=B\n\n"
		"--B\nContent-Type: text/plain\n\n--B--x is not the end\n"
		"--B\nContent-Type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; b@example.com\nStatus: 5.1.1\n"
		"--B-- \t\n"
		"--B\nContent-Type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; epilogue@example.com\nStatus: 5.1.1\n";
	char work[sizeof inner + sizeof text];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m = parse_string(inner, work, sizeof work, r);
	(void)state;
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.nrecipients, 1);
	expect_text("inner", r[0].recipient, "a@example.com");
	m = parse_string(text, work, sizeof work, r);
	assert_int_equal(m.nrecipients, 1);
	expect_text("text", r[0].recipient, "b@example.com");
}

/* Bare CR line ends are read from a copy in the work buffer: without
 * room for it the message is not read as lines, and -1 says so.  CR CR
 * LF, a CRLF file converted twice, still reads as lines ending in LF; a
 * stray CR inside a line of an LF message stays text, even where the
 * text is unfolded. */
static void test_line_ends(void **state)
{
	static const char cr[] =
		"From: MAILER-DAEMON@example.org\rSubject: Undelivered\r"
		"Content-Type: message/delivery-status\r\r"
		"Final-Recipient: rfc822; a@example.com\rAction: failed\r"
		"Status: 5.1.1\rDiagnostic-Code: smtp; 550 5.1.1 gone\r";
	static const char crcrlf[] =
		"Subject: Undelivered\r\r\n"
		"Content-Type: message/delivery-status\r\r\n\r\r\n"
		"Final-Recipient: rfc822; b@example.com\r\r\nStatus: 5.2.2\r\r\n";
	static const char stray[] =
		"Subject: Undelivered\n"
		"Content-Type: message/delivery-status\n\n"
		"Final-Recipient: rfc822; c@example.com\n"
		"Diagnostic-Code: smtp; 550 5.1.1 a\rb\n";
	char work[sizeof cr];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	(void)state;
	m = parse_string(cr, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	expect_text("cr subject", m.subject, "Undelivered");
	assert_int_equal(m.nrecipients, 1);
	expect_text("cr", r[0].diagnostic, "550 5.1.1 gone");
	assert_int_equal(parse(cr, sizeof cr - 1, work, sizeof cr - 2, &m, r,
	                       MAXR),
	                 -1);
	assert_int_equal(m.nrecipients, 0);
	assert_int_equal(parse(cr, sizeof cr - 1, NULL, 0, &m, r, MAXR), -1);
	assert_int_equal(m.kind, SMTPCODE_MAIL_OTHER);
	m = parse_string(crcrlf, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_DSN);
	assert_int_equal(m.nrecipients, 1);
	expect_text("cr cr lf", r[0].status, "5.2.2");
	m = parse_string(stray, work, sizeof work, r);
	assert_int_equal(m.nrecipients, 1);
	expect_text("stray", r[0].diagnostic, "550 5.1.1 a\rb");
}

/* The subject as decoded from a header field "Subject: value". */
static void expect_subject(const char *value, const char *want)
{
	char msg[512], work[512];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	int n = snprintf(msg, sizeof msg, "Subject: %s\n\nbody\n", value);
	assert_true(n > 0 && (size_t)n < sizeof msg);
	assert_int_equal(parse(msg, (size_t)n, work, (size_t)n, &m, r, MAXR),
	                 0);
	expect_text(value, m.subject, want);
}

/* RFC 2047: Q and B; UTF-8, US-ASCII (with RFC 2231's language) and
 * ISO-8859-1, made UTF-8; the blanks between words dropped, those next to
 * text kept; a character split between two words joined; other charsets,
 * malformed words and an ISO-8859-1 word whose UTF-8 would outgrow it
 * left as they are; a decoded line break made a space. */
static void test_encoded_words(void **state)
{
	static const struct {
		const char *value, *want;
	} cases[] = {
		{"=?UTF-8?Q?Automatic_reply:_R=C3=A9union?=",
		 "Automatic reply: R\xc3\xa9union"},
		{"=?utf-8?b?UmVwb25zZQ==?=", "Reponse"},
		{"=?ISO-8859-1?Q?R=E9ponse_=E0_vous?=",
		 "R\xc3\xa9ponse \xc3\xa0 vous"},
		/* "Réponse automatique" in ISO-8859-1, base64. */
		{"=?iso-8859-1?B?Uulwb25zZSBhdXRvbWF0aXF1ZQ==?=",
		 "R\xc3\xa9ponse automatique"},
		{"=?latin1?q?=FC?=", "\xc3\xbc"},
		{"=?US-ASCII*EN?Q?Keith_Moore?=", "Keith Moore"},
		{"(=?ISO-8859-1?Q?a?= b)", "(a b)"},
		{"(=?ISO-8859-1?Q?a?=  \t =?ISO-8859-1?Q?b?=)", "(ab)"},
		{"=?UTF-8?Q?a?=\n =?UTF-8?Q?b?=", "ab"},
		{"x =?UTF-8?Q?a?= y", "x a y"},
		/* "é" (C3 A9) split between two words. */
		{"=?utf-8?B?UsM=?= =?utf-8?B?qXBvbnNl?=", "R\xc3\xa9ponse"},
		{"=?windows-1252?Q?Automatic_reply?=",
		 "=?windows-1252?Q?Automatic_reply?="},
		{"=?windows-1252?Q?a?= =?UTF-8?Q?b?=",
		 "=?windows-1252?Q?a?= b"},
		{"=?UTF-8?X?abc?=", "=?UTF-8?X?abc?="},
		{"=?UTF-8?Q?no end", "=?UTF-8?Q?no end"},
		{"=?UTF-8?Q?a b?=", "=?UTF-8?Q?a b?="},
		{"=??Q?a?=", "=??Q?a?="},
		{"=?UTF-8?Q?" "?=", ""}, /* split: "??=" is a trigraph */
		{"=?UTF-8?Q?=4?= =?UTF-8?Q?=ZZ?=", "=4=ZZ"},
		{"=?UTF-8?Q?x=0D=0AX-Failed-Recipients:_e@example.com?=",
		 "x  X-Failed-Recipients: e@example.com"},
		/* 51 bytes of 0xE9: 102 in UTF-8, longer than the word. */
		{"=?ISO-8859-1?B?6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp"
		 "6enp6enp6enp6enp6enp?=",
		 "=?ISO-8859-1?B?6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp"
		 "6enp6enp6enp6enp6enp?="},
		{"=?ISO-8859-1?B?6enp6Q==?=", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"},
		{"=?UTF-8?Q?=3D=3F?=", "=?"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		expect_subject(cases[i].value, cases[i].want);
}

/* What the decoded subject changes: an encoded "Automatic reply" is an
 * auto-reply, an encoded "Undelivered Mail" from a mailer daemon a bounce,
 * and From is decoded too.  A decoded line break does not add a header
 * field, even where the header is read again in place (bare CR line
 * ends).  Without room in the work buffer the subject stays encoded. */
static void test_encoded_subject_kinds(void **state)
{
	static const char reply[] =
		"From: a@example.com\n"
		"Subject: =?UTF-8?Q?Automatic_reply:_hello?=\n\nAway.\n";
	static const char bounce[] =
		"From: =?UTF-8?Q?Mail_Delivery_System?= "
		"<MAILER-DAEMON@example.org>\n"
		"Subject: =?UTF-8?B?VW5kZWxpdmVyZWQgTWFpbA==?=\n\nGone.\n";
	static const char injected[] =
		"From: a@example.com\r"
		"Subject: =?UTF-8?Q?x=0AX-Failed-Recipients:_e@example.com?=\r"
		"\rA note.\r";
	char work[256];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	(void)state;
	m = parse_string(reply, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_AUTOREPLY);
	m = parse_string(bounce, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_BOUNCE);
	expect_text("from", m.from,
	            "Mail Delivery System <MAILER-DAEMON@example.org>");
	expect_text("subject", m.subject, "Undelivered Mail");
	m = parse_string(injected, work, sizeof work, r);
	assert_int_equal(m.kind, SMTPCODE_MAIL_OTHER);
	assert_int_equal(m.nrecipients, 0);
	assert_int_equal(parse(reply, sizeof reply - 1, NULL, 0, &m, r, MAXR),
	                 -1);
	expect_text("no room", m.subject,
	            "=?UTF-8?Q?Automatic_reply:_hello?=");
	assert_int_equal(m.kind, SMTPCODE_MAIL_OTHER);
}

static bool same_text(struct smtpcode_text a, struct smtpcode_text b)
{
	return a.s == b.s && a.len == b.len;
}

static bool same_query(const struct smtpcode_query *a,
                       const struct smtpcode_query *b)
{
	return a->basic == b->basic && a->enhanced == b->enhanced &&
	       a->cls == b->cls && a->subject == b->subject &&
	       a->detail == b->detail && a->text_off == b->text_off &&
	       a->text_len == b->text_len;
}

static bool same_recipient(const struct smtpcode_mail_recipient *a,
                           const struct smtpcode_mail_recipient *b)
{
	return same_text(a->recipient, b->recipient) &&
	       same_text(a->action, b->action) &&
	       same_text(a->status, b->status) &&
	       same_text(a->diagnostic, b->diagnostic) &&
	       same_text(a->remote_mta, b->remote_mta) &&
	       same_query(&a->status_code, &b->status_code) &&
	       same_query(&a->diagnostic_code, &b->diagnostic_code);
}

/* Exim's details: the host only before the reply (the reply may be
 * unfolded in place, here with bare CR line ends, which would move a host
 * inside it); without a code, the text after a host line that starts
 * them.  The same with LF and with CR line ends. */
static void test_exim_details(void **state)
{
	static const char msg[] =
		"Subject: Mail delivery failed\n\n"
		"A message that you sent could not be delivered to one or more "
		"of its\nrecipients. The following address(es) failed:\n\n"
		"  a@example.com\n"
		"    host mx.example.com [192.0.2.1]: Connection timed out\n"
		"  b@example.com\n"
		"    host mx.example.net [192.0.2.2]\n"
		"    Connection refused\n"
		"  c@example.com\n"
		"    550 5.1.1 no such user\n"
		"    host late.example [192.0.2.3]\n"
		"  d@example.com\n"
		"    retry timeout exceeded\n"
		"    host late.example [192.0.2.4]\n";
	static const char *const want[][3] = {
		{"a@example.com", "Connection timed out", "mx.example.com"},
		{"b@example.com", "Connection refused", "mx.example.net"},
		{"c@example.com", "550 5.1.1 no such user host late.example "
		                  "[192.0.2.3]", ""},
		{"d@example.com", "retry timeout exceeded host late.example "
		                  "[192.0.2.4]", ""},
	};
	struct buf raw = {(char *)msg, sizeof msg - 1};
	char work[sizeof msg];
	struct smtpcode_mail_recipient r[MAXR];
	struct smtpcode_mail m;
	static const enum line_end ends[] = {LF, CR};
	(void)state;
	for (size_t e = 0; e < sizeof ends / sizeof ends[0]; e++) {
		struct buf b = with_line_ends(raw, ends[e]);
		assert_int_equal(parse(b.s, b.len, work, b.len, &m, r, MAXR), 0);
		assert_int_equal(m.nrecipients, 4);
		for (size_t i = 0; i < 4; i++) {
			expect_text("recipient", r[i].recipient, want[i][0]);
			expect_text("diagnostic", r[i].diagnostic, want[i][1]);
			expect_text("remote", r[i].remote_mta, want[i][2]);
		}
		free(b.s);
	}
}

/* A DSN for 1000 addresses: all counted with a small array, all stored
 * with one of that size, the same first ones either way (what --mail
 * does when the first array was too small). */
static void test_all_recipients(void **state)
{
	static const char head[] =
		"Subject: Undelivered Mail Returned to Sender\n"
		"Content-Type: message/delivery-status\n\n"
		"Reporting-MTA: dns; mx.example.org\n";
	size_t size = 100000, n = sizeof head - 1, total = 1000;
	char *msg = malloc(size), *work = malloc(size);
	struct smtpcode_mail_recipient *all = calloc(total, sizeof *all);
	struct smtpcode_mail_recipient some[256];
	struct smtpcode_mail m;
	char want[32];
	(void)state;
	assert_non_null(msg);
	assert_non_null(work);
	assert_non_null(all);
	memcpy(msg, head, n);
	for (size_t i = 0; i < total; i++)
		n += (size_t)snprintf(msg + n, size - n,
		                      "\nFinal-Recipient: rfc822; u%zu@example.com\n"
		                      "Action: failed\nStatus: 5.1.1\n",
		                      i);
	assert_true(n < size);
	assert_int_equal(parse(msg, n, work, n, &m, some, 256), 0);
	assert_int_equal(m.nrecipients, total);
	expect_text("256th", some[255].recipient, "u255@example.com");
	assert_int_equal(parse(msg, n, work, n, &m, all, m.nrecipients), 0);
	assert_int_equal(m.nrecipients, total);
	for (size_t i = 0; i < total; i++) {
		snprintf(want, sizeof want, "u%zu@example.com", i);
		expect_text("recipient", all[i].recipient, want);
		expect_text("status", all[i].status, "5.1.1");
	}
	for (size_t i = 0; i < 256; i++)
		assert_true(same_recipient(&some[i], &all[i]));
	free(msg);
	free(work);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_corpus_complete),
		cmocka_unit_test(test_bounded_by_len),
		cmocka_unit_test(test_work_too_small),
		cmocka_unit_test(test_no_work_needed),
		cmocka_unit_test(test_small_work_keeps_raw_text),
		cmocka_unit_test(test_max_recipients),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_truncations_and_mutations),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_huge_folded_header),
		cmocka_unit_test(test_many_parts),
		cmocka_unit_test(test_dsn_variants),
		cmocka_unit_test(test_decoding),
		cmocka_unit_test(test_exchange_variants),
		cmocka_unit_test(test_gmail_variants),
		cmocka_unit_test(test_opensmtpd_versions),
		cmocka_unit_test(test_mime_corners),
		cmocka_unit_test(test_autoreply_markers),
		cmocka_unit_test(test_returned_original_not_read),
		cmocka_unit_test(test_wrapped_report),
		cmocka_unit_test(test_close_delimiter),
		cmocka_unit_test(test_line_ends),
		cmocka_unit_test(test_encoded_words),
		cmocka_unit_test(test_encoded_subject_kinds),
		cmocka_unit_test(test_all_recipients),
		cmocka_unit_test(test_exim_details),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
