/*
 * The CLI as a user meets it: for each command line, the exit status, the
 * fragments stdout must hold (and must not), and the stderr message.
 */
/* posix_openpt() and friends (a terminal for --color=auto) are XSI. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "record.h"
#include "run.h"

#define MAXARGS 8
#define LOG LOGS_DIR "/sample.log"
/* Courier, a dialect that is data (data/logs/courier.txt). */
#define COURIER LOGS_DIR "/courier.log"
#define MAIL MAIL_DIR
#define MAXFRAG 12

struct cli_case {
	const char *args[MAXARGS];
	int status;
	const char *out[MAXFRAG];  /* fragments stdout must contain */
	const char *err;           /* fragment stderr must contain, or NULL:
	                              stderr must be empty */
	const char *not_out[4];    /* fragments stdout must not contain */
};

static const struct cli_case cases[] = {
	/* The commands of the core issue. */
	{{"4.3.1"}, 0,
	 {"4.3.1  Mail system full\n", "  Severity   temporary",
	  "  Message    The message stays in the sending server's queue",
	  "  Scope      system (the whole receiving mail system)",
	  "  Who acts   none (nobody yet", "  Suppress   no (keep the address",
	  "  Bounce     soft", "  Reason     systemfull", "  Sent with  452; 431",
	  "\nNot to be confused with\n", "  5.2.2    One recipient's mailbox"},
	 NULL, {"WARNING"}},
	{{"4.3.1"}, 0,
	 {"\nMeaning\n", "\nLikely causes\n  - ", "\nHow to fix it\n  For the sender: ",
	  "  For the recipient's mail administrator: ", "  4.2.2 ", "  4.4.5 ",
	  "  431 ", "\nSources\n  - RFC 3463 section 3.4",
	  "  - RFC 5321 section 4.2.3", "IANA SMTP Enhanced Status Codes registry"},
	 NULL, {NULL}},
	/* What people ask (issue 23): how common, how long, after the
	 * verdict; what not to do, after the fixes; the questions, at the
	 * end before the sources. */
	{{"4.3.1"}, 0,
	 {"  Reason     systemfull (the receiving system is out of storage)\n"
	  "  How common occasional (on-premises Exchange",
	  "  Lasts      Minutes to hours on a large or well-watched system",
	  "has room again.\n  Sent with  452",
	  "does not happen again.\n\nWhat not to do\n"
	  "  - Do not remove the address from your list",
	  "  - Do not resend the message by hand",
	  "\n\nQuestions\n  Q: Will messages sent to us during this be lost?\n"
	  "     A: No, as long as the disk is freed in time.",
	  "  Q: Is 5.3.1 the same as a full mailbox?\n     A: No.",
	  "  Q: Can this happen on Microsoft 365?\n     A: ",
	  "  Q: Why do I get 5.3.1 after days of 4.3.1?\n     A: ",
	  "queue database and memory.\n\nSources\n"},
	 NULL, {NULL}},
	{{"-b", "4.3.1"}, 0, {"4.3.1     temporary  Mail system full\n"}, NULL,
	 {"occasional", "Questions", "Lasts"}},
	{{"-t", "4.3.1"}, 0,
	 {"4.3.1\ttemporary\tsystem\tnone\tsystemfull\tMail system full\n"}, NULL,
	 {"occasional", "Questions"}},
	{{"-f", "frequency", "4.3.1"}, 0, {"occasional\n"}, NULL, {"Mail system"}},
	/* words only an answer holds, only a thing not to do holds: the
	 * standard entry, not the providers' entries that take them */
	{{"--search", "Get-ExchangeDiagnosticInfo"}, 0,
	 {"4.3.1     temporary  Mail system full\n"},
	 NULL, {"microsoft", "exchange"}},
	{{"--search", "resend", "by hand"}, 0,
	 {"4.3.1     temporary  Mail system full\n"}, NULL, {"exchange"}},
	{{"5.3.1"}, 0,
	 {"5.3.1  Mail system full\n", "  Severity   permanent",
	  "will not be retried", "Send the message again once it is",
	  "  Retry      after-fix", "  Suppress   no", "  Who acts   recipient-admin",
	  "queue lifetime"},
	 NULL, {"Sent with  431", "retried automatically"}},
	{{"X.3.1"}, 0,
	 {"X.3.1  Mail system full\n", "  As 4.3.1   temporary: ",
	  "  As 5.3.1   permanent: ", "  Scope      system", "Not to be confused with"},
	 NULL, {"  As 2.3.1"}},
	{{"452"}, 0,
	 {"452  Requested action not taken: insufficient system storage\n",
	  "  Severity   temporary", "\nComes with\n  4.3.1 ", "  4.2.2 ", "  4.5.3 "},
	 NULL, {NULL}},
	{{"452", "4.3.1"}, 0,
	 {"452 4.3.1  reply\n", "  452        Requested action not taken",
	  "  4.3.1      Mail system full",
	  "  Pairing    consistent: 452 is a basic code 4.3.1 is sent with",
	  "\n4.3.1  Mail system full\n"},
	 NULL, {"WARNING"}},
	{{"452 4.3.1 Insufficient system storage"}, 0,
	 {"452 4.3.1  reply\n", "  Pairing    consistent",
	  "  Reply text Insufficient system storage\n",
	  "\n4.3.1  Mail system full\n"},
	 NULL, {NULL}},
	{{"452-4.3.1 Insufficient system storage"}, 0,
	 {"452 4.3.1  reply\n", "  Reply text Insufficient system storage\n"},
	 NULL, {NULL}},
	{{"431"}, 0,
	 {"431  Disk full (Exchange store driver, non-standard)  "
	  "[not a registered code]\n", "452 4.3.1"},
	 NULL, {NULL}},
	{{"431", "4.3.1"}, 0,
	 {"  Pairing    consistent: 431 is a basic code 4.3.1 is sent with"},
	 NULL, {"WARNING"}},
	{{"452", "5.2.2"}, 0,
	 {"  Pairing    WARNING: inconsistent: 452 is class 4 but 5.2.2 is class 5"},
	 NULL, {NULL}},
	{{"250", "5.1.1"}, 0,
	 {"WARNING: inconsistent: 250 is class 2 but 5.1.1 is class 5"},
	 NULL, {NULL}},
	{{"421", "4.3.1"}, 0,
	 {"  Pairing    consistent classes, but 421 is not a usual basic code "
	  "for 4.3.1"},
	 NULL, {"WARNING"}},

	/* Several arguments: one entry each, in order. */
	{{"4.3.1", "552"}, 0,
	 {"4.3.1  Mail system full\n", "\n\n552  Requested mail action aborted"},
	 NULL, {NULL}},

	/* Well-formed but not in the table: inferred, exit 1. */
	{{"4.3.99"}, 1,
	 {"4.3.99  not a registered code\n",
	  "  4.XXX.YYY  Persistent Transient Failure: ",
	  "  X.3.YYY    Mail System Status: "},
	 NULL, {NULL}},
	{{"5.9.1"}, 1,
	 {"5.9.1  not a registered code\n", "  5.XXX.YYY  Permanent Failure",
	  "RFC 3463 defines subjects 0 to 7; 9 is none of them"},
	 NULL, {NULL}},
	{{"2.3.1"}, 1,
	 {"2.3.1  not a registered code\n",
	  "X.3.1 (Mail system full) is registered, but is not used with class 2"},
	 NULL, {NULL}},
	{{"599"}, 1,
	 {"599  not a registered code\n", "  5yz        Permanent Negative"},
	 NULL, {NULL}},
	{{"4.3.99", "4.3.1"}, 1,
	 {"4.3.99  not a registered code\n", "4.3.1  Mail system full\n"},
	 NULL, {NULL}},

	/* Malformed: one line on stderr naming the argument; exit 2. */
	{{"4.3"}, 2, {NULL},
	 "smtpcode: '4.3' is not an SMTP code: incomplete enhanced code "
	 "(expected 452, 4.3.1, \"452 4.3.1 text\" or a pattern such as "
	 "5.7.*)\n", {"4.3"}},
	{{"5.7."}, 2, {NULL}, "'5.7.' is not an SMTP code: incomplete", {NULL}},
	{{"abc"}, 2, {NULL}, "'abc' is not an SMTP code: not a code", {NULL}},
	{{"600"}, 2, {NULL},
	 "'600' is not an SMTP code: a basic code has three digits, 200 to 599",
	 {NULL}},
	{{"5.1000.1"}, 2, {NULL},
	 "'5.1000.1' is not an SMTP code: subject and detail take 1 to 3 digits",
	 {NULL}},
	{{""}, 2, {NULL}, "'' is not an SMTP code: empty", {NULL}},
	{{"6.0.0"}, 2, {NULL}, "the class digit must be 2, 4, 5 or X", {NULL}},
	{{"5.7.1x"}, 2, {NULL}, "unexpected characters after the code", {NULL}},
	{{"4.3.1", "4.3"}, 2, {"4.3.1  Mail system full\n"},
	 "smtpcode: '4.3' is not an SMTP code", {NULL}},
	{{"\033[31m"}, 2, {NULL}, "'\\x1b[31m' is not an SMTP code", {NULL}},
	{{"4.3.99", "abc"}, 2, {"4.3.99  not a registered code"},
	 "'abc' is not an SMTP code", {NULL}},

	/* Untrusted reply text never reaches the terminal raw. */
	{{"550 5.1.1 \033]0;evil\007 gone"}, 0,
	 {"  Reply text \\x1b]0;evil\\x07 gone\n"}, NULL, {"\033"}},

	/* The full table reads correctly where web tables go wrong. */
	{{"5.0.0"}, 0,
	 {"5.0.0  Other undefined Status\n", "  Severity   permanent",
	  "  Suppress   unknown", "  Bounce     unknown",
	  "  Reason     undefined", "  Decided by the reply's words"},
	 NULL, {"userunknown", "Bounce     hard"}},
	{{"2.1.5"}, 0,
	 {"2.1.5  Destination address valid\n", "  Severity   success",
	  "  Bounce     none", "  Who acts   none (nothing to do)"},
	 NULL, {"Severity   permanent", "Severity   temporary"}},
	{{"4.7.1"}, 0,
	 {"4.7.1  Delivery not authorized, message refused\n",
	  "  Severity   temporary", "  Suppress   no"},
	 NULL, {"userunknown"}},
	{{"X.6.10"}, 0,
	 {"X.6.10  Deprecated: duplicate of X.6.8\n", "  As 5.6.10 ", "X.6.8"},
	 NULL, {NULL}},
	{{"556"}, 0,
	 {"556  Domain does not accept mail\n", "null MX", "  Suppress   yes",
	  "  Bounce     hard", "5.1.10"},
	 NULL, {NULL}},
	{{"535", "5.7.8"}, 0,
	 {"  Pairing    consistent: 535 is a basic code 5.7.8 is sent with",
	  "5.7.8  Authentication credentials invalid\n", "  Scope      sender",
	  "  Suppress   no"},
	 NULL, {"WARNING"}},
	{{"X.7.28"}, 0, {"X.7.28  Mail flood detected\n", "draft"}, NULL, {NULL}},
	{{"523"}, 0, {"[not a registered code]", "IANA"}, NULL, {NULL}},
	{{"4.2.2", "5.2.2", "X.2.2"}, 0,
	 {"4.2.2  Mailbox full\n", "5.2.2  Mailbox full\n", "X.2.2  Mailbox full\n",
	  "  As 4.2.2 ", "  As 5.2.2 "},
	 NULL, {NULL}},

	/* Providers: recognised by markers, entries picked by phrases. */
	{{"550-5.7.26 This mail has been blocked because the sender is "
	  "unauthenticated. Gmail requires all senders to authenticate with "
	  "either SPF or DKIM. - gsmtp"}, 0,
	 {"  Provider   Gmail / Google Workspace (recognised by \"gsmtp\")\n",
	  "  Rule       the phrase \"", "picks gmail's entry for 5.7.26\n",
	  "\n5.7.26  ", "  [Gmail / Google Workspace]\n",
	  "  Registry   5.7.26 Multiple authentication checks failed\n",
	  "  Group      authentication (Sender authentication failed)"},
	 NULL, {"ambiguous"}},
	{{"421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due "
	  "to unexpected volume or user complaints"}, 0,
	 {"  Provider   Yahoo Mail / AOL Mail (Yahoo Inc.) (recognised by "
	  "\"[TSS0\")\n", "picks yahoo's entry for 4.7.0",
	  "  Group      rate-limited (Rate limited)"},
	 NULL, {NULL}},
	{{"421 4.7.0 A reply nobody has documented - gsmtp"}, 0,
	 {"  Rule       ambiguous: none of the ", " gmail entries that could "
	  "apply matches this text; the standard meaning follows, and the "
	  "providers' meanings are listed under \"How providers say it\"",
	  "\n4.7.0  Other or undefined security status\n",
	  "\nHow providers say it\n  gmail      "},
	 NULL, {NULL}},
	{{"--provider", "gmail", "5.7.27"}, 0,
	 {"5.7.27  as Gmail / Google Workspace uses it\n",
	  "  Provider   Gmail / Google Workspace (given with --provider)\n",
	  "  Registry   5.7.27 Sender address has null MX (the provider gives the "
	  "code a different meaning)\n"},
	 NULL, {NULL}},
	{{"5.7.1"}, 0,
	 {"5.7.1  Delivery not authorized, message refused\n",
	  "\nHow providers say it\n", "  gmail      ", "  yahoo      ",
	  "  postfix    Relay access denied\n"},
	 NULL, {"[Gmail"}},
	{{"-p", "GMAIL", "4.2.2"}, 0,
	 {"  Rule       the only gmail entry for 4.2.2\n"}, NULL, {NULL}},
	{{"-p", "gmial", "4.3.1"}, 2, {NULL},
	 "smtpcode: unknown provider 'gmial' (see 'smtpcode --providers')\n",
	 {NULL}},
	{{"-p"}, 2, {NULL}, "option '-p' needs a value", {NULL}},
	{{"--providers"}, 0,
	 {"gmail ", "Gmail / Google Workspace\n", "postfix ",
	  " provider entries across "},
	 NULL, {NULL}},

	/* Output for scripts: TSV, brief, one field, quiet. */
	{{"-t", "4.3.1", "552"}, 0,
	 {"4.3.1\ttemporary\tsystem\tnone\tsystemfull\tMail system full\n",
	  "552\tpermanent\t"},
	 NULL, {"Severity"}},
	/* An unknown code with no words: reason undefined. */
	{{"--tsv", "4.3.99"}, 1, {"4.3.99\ttemporary\t-\t-\tundefined\t-\n"},
	 NULL, {NULL}},
	{{"-b", "4.3.1", "5.1.1"}, 0,
	 {"4.3.1     temporary  Mail system full\n",
	  "5.1.1     permanent  Bad destination mailbox address\n"},
	 NULL, {NULL}},
	/* A field's booleans are yes and no (JSON's true and false). */
	{{"-f", "suppress", "5.1.1", "4.3.1", "5.7.1"}, 0,
	 {"yes\nno\nunknown\n"}, NULL, {"true", "false"}},
	{{"--field", "retry", "4.2.2"}, 0, {"auto\n"}, NULL, {NULL}},
	{{"--field=basic", "X.7.1"}, 0, {"550, 554, 553, 451"}, NULL, {NULL}},
	{{"-f", "provider", "550 5.7.26 sender is unauthenticated gsmtp"}, 0,
	 {"gmail\n"}, NULL, {NULL}},
	{{"-f", "colour", "4.3.1"}, 2, {NULL},
	 "smtpcode: unknown field 'colour' (expected a JSON key", {NULL}},
	{{"-q", "4.3.1"}, 0, {NULL}, NULL, {"4.3.1"}},
	{{"-q", "4.3.99"}, 1, {NULL}, NULL, {"4.3"}},
	{{"--quiet", "4.3"}, 2, {NULL}, "'4.3' is not an SMTP code", {NULL}},

	/* Lists, patterns and search. */
	{{"--list", "5.7.*"}, 0,
	 {"5.7.0     permanent  Other or undefined security status\n",
	  "5.7.30    permanent  REQUIRETLS support required\n"},
	 NULL, {"X.7.1 ", "4.7.1 ", "gmail"}},
	{{"-l", "X.2.X"}, 0, {"X.2.2     -          Mailbox full\n", "4.2.2 ", "5.2.4 "},
	 NULL, {"5.3.1"}},
	{{"-l", "55x", "-t"}, 0, {"550\tpermanent\t", "556\tpermanent\t"},
	 NULL, {"450\t", "5.5.0"}},
	{{"-l", "4xx"}, 0, {"421 ", "459 "}, NULL, {"550 ", "4.2.2"}},
	{{"5.7.*"}, 0, {"5.7.26    permanent  Multiple authentication"}, NULL, {NULL}},
	{{"-l", "5.9.*"}, 1, {NULL}, NULL, {"5."}},
	{{"-l", "5.7"}, 2, {NULL},
	 "smtpcode: '5.7' is not a pattern (expected 5.7.*, X.2.X, 4xx, 55x or *)",
	 {NULL}},
	{{"-l", "-p", "gmail", "4.7.*"}, 0, {"4.7.0 ", "gmail: "}, NULL, {"yahoo:"}},
	{{"-l", "--provider", "all", "-b"}, 0, {"gmail: ", "sendmail: "}, NULL, {NULL}},
	{{"-s", "MAILBOX", "full"}, 0, {"5.2.2     permanent  Mailbox full\n"},
	 NULL, {NULL}},
	{{"--search", "receiving", "too", "quickly"}, 0, {"gmail: "}, NULL, {NULL}},
	{{"-s", "xyzzy-nothing"}, 1, {NULL}, NULL, {"5."}},
	{{"-s"}, 2, {NULL}, "smtpcode: --search needs words to look for", {NULL}},

	/* Colour: only when asked, or on a terminal without NO_COLOR. */
	{{"--color=always", "4.3.1"}, 0,
	 {"\033[1m4.3.1\033[0m  Mail system full\n",
	  "  Severity   \033[33mtemporary\033[0m (a transient"},
	 NULL, {NULL}},
	{{"--color=always", "-j", "4.3.1"}, 0, {"{\"input\":\"4.3.1\""}, NULL,
	 {"\033"}},
	{{"--color=never", "4.3.1"}, 0, {"4.3.1  Mail system full"}, NULL, {"\033"}},
	{{"--color=auto", "4.3.1"}, 0, {"4.3.1  Mail system full"}, NULL, {"\033"}},
	{{"--colo=always", "4.3.1"}, 0,
	 {"\033[1m4.3.1\033[0m  Mail system full\n"}, NULL, {NULL}},
	{{"--colour", "4.3.1"}, 0, /* bare: always, as grep's */
	 {"\033[1m4.3.1\033[0m  Mail system full\n"}, NULL, {NULL}},
	{{"--color", "never", "4.3.1"}, 2, /* never the next argument */
	 {"\033[1m4.3.1\033[0m  Mail system full\n"},
	 "'never' is not an SMTP code", {NULL}},
	{{"--color=sometimes", "4.3.1"}, 2, {NULL},
	 "invalid --color 'sometimes' (expected auto, always or never)", {NULL}},
	{{"--providers", "--tsv"}, 0, {"gmail\t", "\tGmail / Google Workspace\n"},
	 NULL, {"provider entries across"}},

	/* Mail logs. */
	{{"--extract", LOG}, 0,
	 {LOG ":1: ann@example.com 4.3.1 temporary (system): Mail system full; "
	  "retry auto, suppress no\n",
	  LOG ":5: eve@gmail.com 5.7.26 permanent (sender): Unauthenticated mail "
	  "refused; retry after-fix, suppress no [gmail]\n",
	  LOG ":6: spam@example.org 5.7.1 ",
	  LOG ":8: fay@example.org 5.1.1 permanent (mailbox): ",
	  LOG ":9: gil@example.com 4.3.1 temporary",
	  LOG ":11: - 5.7.1 permanent"},
	 NULL, {":7:", ":10:"}},
	{{"--extract", "--tsv", LOG}, 0,
	 {LOG "\t4\tdan@example.net\texample.net\tdelivery\t4.2.2\ttemporary\t"
	      "mailbox\t"},
	 NULL, {NULL}},
	{{"--annotate", LOG}, 0,
	 {"status=deferred (host mx.example.com[192.0.2.10] said: 452 4.3.1 "
	  "Insufficient system storage (in reply to RCPT TO command))\n  => 4.3.1 "
	  "temporary (system): Mail system full",
	  "firmware 10.5.7.1 loaded, uptime 12:45:51\nMay  1 10:00:11"},
	 NULL, {NULL}},
	{{"--summary", LOG}, 0,
	 {"Lines: 11 read, 9 with a code, 2 without\n",
	  "        4           4  4.3.1    temporary  Mail system full\n",
	  "  4.3.1 example.com: 4 lines, 4 recipients: the receiving system "
	  "there (the code is about the system, and many recipients share it)\n",
	  "  4.2.2 example.net: 1 line, 1 recipient: one mailbox (the code is "
	  "about a mailbox), not the receiving system\n"},
	 NULL, {NULL}},
	{{"--extract", COURIER}, 0,
	 {COURIER ":1: bob@example.com 5.1.1 permanent (mailbox): No such user "
	  "or alias; retry never, suppress yes",
	  COURIER ":2: carol@example.net 4.2.2 temporary (mailbox): Mailbox "
	  "full; retry auto, suppress no\n"},
	 NULL, {":3:"}},
	{{"--extract", "--tsv", COURIER}, 0,
	 {COURIER "\t1\tbob@example.com\texample.com\tdelivery\t5.1.1\tpermanent\t",
	  COURIER "\t2\tcarol@example.net\texample.net\tdelivery\t4.2.2\ttemporary\t"},
	 NULL, {NULL}},
	{{"--extract", "/nonexistent/mail.log", LOG}, 2,
	 {LOG ":1: ann@example.com"},
	 "smtpcode: /nonexistent/mail.log: No such file or directory\n", {NULL}},
	{{"--extract", "/"}, 2, {NULL}, "smtpcode: /: Is a directory\n", {NULL}},

	/* Bounce messages. */
	{{"--mail", MAIL "/dsn-generic-status.eml"}, 0,
	 {": delivery status notification (RFC 3464), 1 recipient\n",
	  "Recipient 1: ghost@example.net\n  Action     failed\n  Status     5.0.0\n",
	  "  Verdict    rests on a provider's phrase in the reply\n",
	  "\n550 5.1.1  reply\n", "\n5.1.1  "},
	 NULL, {NULL}},
	{{"--mail", MAIL "/autoreply-ooo.eml", MAIL "/arf.eml", MAIL "/ordinary.eml"}, 0,
	 {"autoreply-ooo.eml: not a bounce: an automatic reply, 0 recipients\n",
	  "arf.eml: not a bounce: a feedback report (RFC 5965), 1 recipient\n",
	  "\nRecipient 1: user@example.com\n  Action     abuse\n"
	  "  Verdict    rests on what the message is\n",
	  "  Reason     feedback (a feedback report",
	  "ordinary.eml: not a bounce, 0 recipients\n"},
	 NULL, {"Recipient 2"}},
	/* Every message has a record with the same keys: an auto-reply's
	 * own (no recipient), a feedback report's reported recipient, a
	 * message that is not a bounce. */
	{{"--mail", "--json", MAIL "/autoreply-ooo.eml", MAIL "/arf.eml"}, 0,
	 {"\"index\":null,\"recipient\":null,",
	  "\"verdict_from\":\"message\",\"reason_phrase\":null,"
	  "\"message_kind\":\"autoreply\",\"feedback_type\":null,",
	  "\"reason\":\"vacation\"",
	  "\"index\":0,\"recipient\":\"user@example.com\",",
	  "\"message_kind\":\"feedback\",\"feedback_type\":\"abuse\",",
	  "\"reason\":\"feedback\""},
	 NULL, {"\"recipients\":"}},
	{{"--mail", "--tsv", MAIL "/autoreply-ooo.eml"}, 0,
	 {"autoreply-ooo.eml\t#-\t-\t-\t"}, NULL, {NULL}},
	/* The reply's words give the reason where the code leaves it to
	 * them (5.0.0, 5.7.1), and where they are more specific than the
	 * reason the code names: a full mailbox, even with 5.1.1. */
	{{"--mail", "--json", MAIL "/reason-words.eml"}, 0,
	 {"\"recipient\":\"dora@example.com\"",
	  "\"reason_phrase\":\"mailbox full\",",
	  "\"reason\":\"mailboxfull\"",
	  "\"recipient\":\"erik@example.com\"",
	  "\"reason_phrase\":\"rejected as spam\",",
	  "\"reason\":\"spamdetected\"",
	  "the reason comes from the reply's words: \\\"mailbox full\\\" means "
	  "mailboxfull (the code leaves the reason to the words)",
	  "\"recipient\":\"fay@example.com\"",
	  "\"verdict_from\":\"words\",\"reason_phrase\":\"mailbox full\","
	  "\"message_kind\":\"dsn\"",
	  "\"code\":\"5.1.1\",",
	  "\"mailbox full\\\" means mailboxfull, which says more than the code"},
	 NULL, {"\"reason\":\"userunknown\""}},
	{{"--mail", MAIL "/reason-words.eml"}, 0,
	 {"  Reason     mailboxfull (the recipient's mailbox is full)\n"
	  "  Reason by  the reply's words \"mailbox full\" (the code leaves "
	  "the reason to them)\n",
	  "  Reason     spamdetected"},
	 NULL, {NULL}},
	/* A bounce no layout reads: recipients by the signs most share. */
	{{"--mail", "--json", MAIL "/guess-transcript.eml", MAIL "/guess-label.eml",
	  MAIL "/guess-leading.eml"}, 0,
	 {"\"recipient\":\"greta@example.com\"", "\"code\":\"552\"",
	  "\"reason\":\"mailboxfull\"",
	  "\"recipient\":\"ines@gw.example.com\"", "\"reason\":\"userunknown\"",
	  "\"recipient\":\"jonas@example.net\"",
	  "\"recipient\":\"lars@nowhere.example\"", "\"reason\":\"hostunknown\""},
	 NULL, {"list-bounces@example.org", "hank@example.org", "mona@example.net",
	        "\"recipient\":\"kim@example.org\""}},
	{{"--mail", "--json", MAIL "/null-sender.eml", MAIL "/leading-blank-lines.eml",
	  MAIL "/autoreply-notes.eml"}, 0,
	 {"\"recipient\":\"nils@example.com\"", "\"reason_phrase\":\"not a valid user\"",
	  "\"message_kind\":\"bounce\"", "\"recipient\":\"pia@example.net\"",
	  "\"code\":\"5.1.1\"", "\"message_kind\":\"autoreply\"",
	  "\"reason\":\"vacation\""},
	 NULL, {"bounces+77aa", "rita@example.org"}},
	{{"--mail", "--json", MAIL "/jmrp.eml", MAIL "/arf-no-rcpt.eml"}, 0,
	 {"\"recipient\":\"sam@hotmail.example\"", "\"feedback_type\":null",
	  "\"recipient\":\"tove@isp.example.net\"", "\"feedback_type\":\"fraud\"",
	  "\"reason\":\"feedback\""},
	 NULL, {"fbl@example.org", "abuse@example.org"}},
	{{"--mail", "--json", MAIL "/html-only.eml"}, 0,
	 {"\"recipient\":\"uma@ex.example.com\"", "\"reason\":\"userunknown\"",
	  "\"reason_phrase\":\"recipient name is not recognized\""},
	 NULL, {"board@example.org", "color:"}},
	{{"--mail", "--json", MAIL "/dsn-status-words.eml", MAIL "/dsn-status-basic.eml",
	  MAIL "/dsn-text-explains.eml", MAIL "/exim-flat.eml"}, 0,
	 {"\"recipient\":\"xena@example.net\"", "\"reply\":\"recipient reached disk quota\"",
	  "\"recipient\":\"yuri@example.net\"", "\"code\":\"553\"",
	  "\"reason\":\"mesgtoobig\"", "\"recipient\":\"zack@example.net\"",
	  "\"reply\":\"SYSTEM-F-EXDISKQUOTA, disk quota exceeded\"",
	  "\"recipient\":\"bert@example.de\"", "\"reply\":\"550 user unknown\""},
	 NULL, {NULL}},
	{{"--mail", "--json", MAIL "/guess-worded.eml"}, 0,
	 {"\"recipient\":\"dina@example.com\"", "\"recipient\":\"emil@example.com\"",
	  "\"recipient\":\"fred@example.com\"", "\"recipient\":\"gina@example.com\"",
	  "\"reason_phrase\":\"allowed queue period\"", "\"reason\":\"expired\""},
	 NULL, {"carl@example.org", "postmaster"}},
	{{"550 Relay access denied"}, 0,
	 {"  Reason     norelaying (relaying is denied)\n"
	  "  Reason by  the reply's words \"relay access denied\""},
	 NULL, {NULL}},
	{{"-j", "550 5.1.1 <relay-denied@example.com>: no such user"}, 0,
	 {"\"reason\":\"userunknown\""}, NULL, {"reason comes from"}},
	/* What <...> encloses is not the reply's words. */
	{{"-j", "554 5.7.1 <mailbox-full@example.com>: message looks like spam"}, 0,
	 {"\"reason\":\"spamdetected\"", "\\\"looks like spam\\\" means"},
	 NULL, {"mailboxfull"}},
	/* qmail as hosting services word it, and older Postfix under a
	 * site's own name: intros of data/bounces/postfix.txt. */
	{{"--mail", MAIL "/qmail-hosted.eml", MAIL "/postfix-old.eml"}, 0,
	 {"qmail-hosted.eml: bounce (non-standard format), 2 recipients\n",
	  "Recipient 1: full@example.net\n",
	  "  Reply      Sorry, your message to full@example.net cannot be "
	  "delivered.  This account is over quota.\n",
	  "Recipient 2: gone@example.com\n",
	  "postfix-old.eml: bounce (non-standard format), 1 recipient\n",
	  "Recipient 1: nobody@example.net\n"},
	 NULL, {NULL}},
	/* A code written "(#5.7.1)" leaves ")" after it: not reply text. */
	{{"--mail", MAIL "/qmail-hash-code.eml"}, 0,
	 {"Recipient 1: hans@example.com\n",
	  "553 5.7.1  reply\n"
	  "  553        Requested action not taken: mailbox name not allowed\n"
	  "  5.7.1      Delivery not authorized, message refused\n"
	  "  Pairing    consistent: 553 is a basic code 5.7.1 is sent with\n\n"
	  "5.7.1  Delivery not authorized, message refused\n"},
	 NULL, {"Reply text"}},
	{{"--mail", MAIL "/qmail-multilingual.eml"}, 0,
	 {"qmail-multilingual.eml: bounce (non-standard format), 1 recipient\n",
	  "Recipient 1: cuenta@isp.example\n  Reply      Mailbox quota usage "
	  "exceeded. Espacio en casilla de mail agotado.\n"},
	 NULL, {NULL}},
	{{"--mail", MAIL "/exim-unindented.eml"}, 0,
	 {"exim-unindented.eml: bounce (non-standard format), 1 recipient\n",
	  "Recipient 1: dan@example.net\n  Reply      mailbox is full: quota "
	  "exceeded\n"},
	 NULL, {NULL}},
	{{"--mail", MAIL "/windows-smtp.eml"}, 0,
	 {"windows-smtp.eml: bounce (non-standard format), 2 recipients\n",
	  "Recipient 1: frank@example.net\n", "Recipient 2: grace@example.com\n"},
	 NULL, {NULL}},
	{{"--mail", MAIL "/domino.eml"}, 0,
	 {"domino.eml: bounce (non-standard format), 1 recipient\n",
	  "Recipient 1: ivy@notes.example.com\n  Reply      User ivy "
	  "(ivy@notes.example.com) not listed in Domino Directory\n"},
	 NULL, {NULL}},
	/* A per-recipient block without Final-Recipient: said, not blank. */
	{{"--mail", MAIL "/dsn-no-final-recipient.eml"}, 0,
	 {"Recipient 1: (the report names no address)\n  Action     failed\n"},
	 NULL, {NULL}},
	{{"--mail", "--json", MAIL "/postfix-dsn-3.eml"}, 0,
	 {"\"index\":0,", "\"index\":2,", "\"verdict_from\":"},
	 NULL, {"\"index\":3,"}},
	{{"--mail", "--json", MAIL "/ordinary.eml"}, 0,
	 {"\"index\":null,", "\"verdict_from\":null,",
	  "\"message_kind\":\"other\",", "\"code\":null,", "\"reason\":null,"},
	 NULL, {"\"recipients\":"}},
	{{"--mail", "/nonexistent.eml", MAIL "/qmail.eml"}, 2,
	 {"qmail.eml: bounce (non-standard format)"},
	 "smtpcode: /nonexistent.eml: No such file or directory\n", {NULL}},

	/* Verdicts a script can trust (issue 16): a blocklist's or a spam
	 * filter's refusal keeps the address (its words decide blocked,
	 * spamdetected), never suppresses it. */
	{{"-f", "suppress", "550 Rejected: IP 192.0.2.1 listed on "
	  "zen.spamhaus.org", "550 Message rejected as spam"}, 0,
	 {"no\nno\n"}, NULL, {"yes"}},
	{{"-j", "550"}, 0,
	 {"\"suppress\":null,\"bounce\":\"unknown\",\"reason\":\"undefined\"",
	  "550 alone does not tell whether the address is bad; decided by the "
	  "enhanced code"}, NULL, {NULL}},
	{{"550"}, 0,
	 {"  Suppress   unknown (the code alone cannot tell whether the address "
	  "is bad)", "  Decided by the enhanced code"}, NULL, {"Suppress   yes"}},
	{{"-j", "4.4.7"}, 0,
	 {"\"severity\":\"temporary\",\"final\":true,",
	  "\"retry\":\"after-fix\""}, NULL, {"RFC 3463 defines X.4.7 as "}},
	{{"4.4.7"}, 0,
	 {"  Final      yes (this is the final bounce", "This is the final bounce"},
	 NULL, {NULL}},
	{{"X.4.7"}, 0, {"Appendix B"}, NULL, {"temporary only"}},
	{{"-j", "4.4.1"}, 0, {"\"final\":false,", "\"retry\":\"auto\""},
	 NULL, {NULL}},
	{{"-j", "550 4.1.1 user unknown"}, 0,
	 {"\"severity\":\"permanent\",\"final\":true,",
	  "\"retry\":\"never\",\"suppress\":true,\"bounce\":\"hard\"",
	  "550 and 4.1.1 disagree: the SMTP exchange acted on 550, so the "
	  "verdict is 5.1.1's"}, NULL, {NULL}},
	{{"550 4.1.1 user unknown"}, 0,
	 {"The SMTP exchange acted on the basic code: the verdict below is "
	  "5.1.1's", "  Severity   permanent", "  Suppress   yes"}, NULL,
	 {NULL}},
	{{"-j", "5.1.5"}, 0,
	 {"\"registered\":false,", "\"suppress\":null,\"bounce\":\"unknown\"",
	  "only exchange gives 5.1.5 this meaning"}, NULL, {NULL}},
	{{"-j", "5.4.1"}, 0,
	 {"\"reason\":\"networkerror\"", "\"suppress\":false"}, NULL,
	 {"userunknown"}},
	{{"-f", "reason", "4.7.27", "5.7.27", "4.7.29", "5.7.29", "4.7.30",
	  "5.7.30"}, 0,
	 {"rejected\nrejected\nauthfailure\nauthfailure\nfailedstarttls\n"
	  "failedstarttls\n"}, NULL, {NULL}},
	{{"-f", "group", "4.3.1", "4.2.2", "452"}, 0,
	 {"system-full\nmailbox-full\nsystem-full\n"}, NULL, {NULL}},
	{{"-w", "0", "431"}, 0,
	 {"a message with an attachment over 128 KB is dropped: no NDR"}, NULL,
	 {NULL}},
	{{"-w", "0", "5.7.27"}, 0,
	 {"RFC 7505 section 4.1", "or of the message's From: header"}, NULL,
	 {"section 4.2"}},
	{{"--mail", "--json", MAIL "/postfix-expired.eml"}, 0,
	 {"\"severity\":\"temporary\",\"final\":true,",
	  "\"acts\":\"sender-admin\",\"retry\":\"after-fix\"",
	  "the report is final: the message was returned although 4.4.1 is "
	  "temporary"}, NULL, {NULL}},
	{{"--mail", MAIL "/postfix-expired.eml"}, 0,
	 {"  Final      yes", "  Message    This is the final bounce: delivery "
	  "has ended and the message went back to the sender."}, NULL,
	 {"stays queued"}},
	{{"-p", "comcast", "-f", "bounce", "5.2.0"}, 0, {"block\n"}, NULL,
	 {NULL}},
	/* Two entries of one provider for a code are told apart by name in
	 * the group line, and an entry leaves out only itself. */
	{{"-w", "0", "4.3.1"}, 0,
	 {"exchange 4.3.1 (Back pressure: transport server short of disk or "
	  "memory), exchange 4.3.1 (Store driver: mailbox database disk full)"},
	 NULL, {NULL}},
	{{"-w", "0", "431 4.3.1 STOREDRV; mailbox disk is full"}, 0,
	 {"exchange 4.3.1 (Back pressure: transport server short of disk or "
	  "memory), zoho"},
	 NULL, {"(Store driver: mailbox database disk full)"}},
	{{"-w", "0", "421 4.7.0 [192.0.2.1] The IP you're using to send mail "
	  "does not have a PTR record - gsmtp"}, 0,
	 {"Sending IP has no valid PTR record: rate limited (421 4.7.0)"}, NULL,
	 {"4.7.0  Unusual rate"}}, /* not the older code's entry */
	{{"-p", "sendmail", "-f", "group", "5.1.8"}, 0, {"-\n"}, NULL,
	 {"authentication"}},
	{{"-j", "554 5.2.2 mailbox full; "
	  "STOREDRV.Submission.Exception:QuotaExceededException"}, 0,
	 {"\"scope\":\"sender\"", "\"id\":\"microsoft\""}, NULL,
	 {"mailboxfull"}},
	{{"--mail", "--json", MAIL "/postfix-delayed.eml"}, 0,
	 {"\"final\":false,", "\"retry\":\"auto\""}, NULL, {NULL}},

	/* Category rows: what a class, subject or digit means. */
	{{"4.XXX.YYY"}, 0,
	 {"4.XXX.YYY  Persistent Transient Failure\n", "  Severity   temporary",
	  "RFC 3463 section 2"}, NULL, {NULL}},
	{{"x.3.yyy"}, 0, {"X.3.YYY  Mail System Status\n"}, NULL, {NULL}},
	{{"x5z"}, 0, {"x5z  Mail system\n", "RFC 5321 section 4.2.1"}, NULL, {NULL}},
	{{"5yz"}, 0, {"5yz  Permanent Negative Completion\n"}, NULL, {NULL}},
	{{"X.9.YYY"}, 2, {NULL}, "'X.9.YYY' is not an SMTP code", {NULL}},

	/* Options. */
	{{"--help"}, 0,
	 {"usage: smtpcode [OPTIONS] CODE|REPLY|TEXT...   ('-': text or a "
	  "message on stdin)\n", "Exit status: 0"},
	 NULL, {NULL}},
	{{"-h"}, 0, {"usage: smtpcode"}, NULL, {NULL}},
	{{"--version"}, 0, {"smtpcode 0.1.0 (data of "}, NULL, {NULL}},
	{{"--jsn", "4.3.1"}, 2, {NULL},
	 "smtpcode: unknown option '--jsn'\nTry 'smtpcode --help'", {NULL}},
	{{"-k"}, 2, {NULL}, "smtpcode: unknown option '-k'", {NULL}},
	{{"-w"}, 2, {NULL}, "option '-w' needs a value", {NULL}},
	{{"-w", "abc", "4.3.1"}, 2, {NULL}, "invalid width 'abc'", {NULL}},
	{{NULL}, 2, {NULL}, "usage: smtpcode", {NULL}},
	{{"--", "4.3.1"}, 0, {"4.3.1  Mail system full\n"}, NULL, {NULL}},
	{{"-w", "0", "4.3.1"}, 0,
	 {"  Message    The message stays in the sending server's queue and is "
	  "retried automatically until"},
	 NULL, {NULL}},
};

static void check_case(const struct cli_case *c)
{
	char *argv[MAXARGS + 2] = {SMTPCODE_BIN};
	struct run *r = test_malloc(sizeof *r);
	size_t n = 0;

	while (n < MAXARGS && c->args[n])
		n++;
	/* {NULL} means no arguments; {""} an empty one. */
	for (size_t i = 0; i < n; i++)
		argv[i + 1] = (char *)c->args[i];
	run(r, argv, NULL, NULL);
	assert_int_equal(r->status, c->status);
	for (size_t i = 0; i < MAXFRAG && c->out[i]; i++)
		if (!strstr(r->out, c->out[i]))
			fail_msg("stdout lacks \"%s\"; it was:\n%s", c->out[i], r->out);
	for (size_t i = 0; i < 4 && c->not_out[i]; i++)
		if (strstr(r->out, c->not_out[i]))
			fail_msg("stdout has \"%s\"", c->not_out[i]);
	if (c->err && !strstr(r->err, c->err))
		fail_msg("stderr lacks \"%s\"; it was:\n%s", c->err, r->err);
	if (!c->err && r->err[0])
		fail_msg("stderr should be empty; it was:\n%s", r->err);
	/* Every error is one line per bad argument, ending in a newline. */
	if (r->err[0])
		assert_int_equal(r->err[strlen(r->err) - 1], '\n');
	test_free(r);
}

static void test_case(void **state)
{
	check_case(*state);
}

/* Wrapping: at -w 50 no line is longer than 50 columns. */
static void test_wrap_width(void **state)
{
	char *argv[] = {SMTPCODE_BIN, "-w", "50", "4.3.1", NULL};
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	run(r, argv, NULL, NULL);
	assert_int_equal(r->status, 0);
	for (char *line = r->out, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		assert_non_null(nl);
		if (nl - line > 50)
			fail_msg("line longer than 50: %.*s", (int)(nl - line), line);
	}
	assert_non_null(strstr(r->out, "\n             "));
	test_free(r);
}

/* Piped output is not wrapped: each paragraph is one line. */
static void test_piped_unwrapped(void **state)
{
	char *argv[] = {SMTPCODE_BIN, "4.3.1", NULL};
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	run(r, argv, NULL, NULL);
	assert_non_null(strstr(r->out, "(often 5 days); only then does it bounce."));
	assert_non_null(strstr(r->out, "  Message    The message stays in the "
	                                "sending server's queue and is retried "
	                                "automatically until the queue lifetime"));
	test_free(r);
}

/* A bounce read twice is explained twice alike, but for the code's
 * meaning, causes, fixes and sources, given in full the first time only
 * (explained.c): the second explanation is the same bytes as the first up
 * to there, in every width and colour, and then says where the rest is. */
static void test_mail_repeated(void **state)
{
	static char *opts[][4] = {{NULL}, {"-w", "50", "--color=always"}};
	static const char again[] = "  Explained above: Postfix's 5.1.1 "
	                            "(meaning, causes, fixes, related codes, "
	                            "sources).\n\n"; /* and the record's end */
	struct run *once = test_malloc(sizeof *once);
	struct run *twice = test_malloc(sizeof *twice);
	(void)state;
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
		char *argv[9] = {SMTPCODE_BIN};
		const char *body, *second;
		size_t n = 1, len, verdict;
		for (size_t k = 0; k < 4 && opts[i][k]; k++)
			argv[n++] = opts[i][k];
		argv[n++] = "--mail";
		argv[n] = MAIL "/gmail.eml";
		run(once, argv, NULL, NULL);
		argv[n + 1] = MAIL "/gmail.eml";
		run(twice, argv, NULL, NULL);
		assert_int_equal(once->status, 0);
		assert_int_equal(twice->status, 0);
		len = strlen(once->out);
		assert_true(len > 1000); /* the explanation is there */
		assert_memory_equal(twice->out, once->out, len);
		/* The code's own lines (how common, how long, sent with ...)
		 * are the part given once. */
		body = strstr(once->out, "  How common ");
		if (!body)
			body = strstr(once->out, "  Sent with ");
		assert_non_null(body);
		verdict = (size_t)(body - once->out);
		second = twice->out + len;
		assert_memory_equal(second, once->out, verdict);
		assert_string_equal(second + verdict, again);
	}
	test_free(once);
	test_free(twice);
}

/*
 * A reply that quotes its recipient is cached without the address only
 * where the address cannot change the verdict (logs.c, key_of()): the
 * same reply for another recipient whose address holds a provider's
 * marker ("gmx.net") or phrase ("@icloud.com") still names that provider,
 * after, between and before replies keyed without their address, and so
 * does the next recipient at that domain, keyed without the local part.
 */
static void test_log_quoted_address(void **state)
{
#define LINE(id, rcpt, host)                                                  \
	"May  1 10:00:00 mx1 postfix/smtp[1]: " id ": to=<" rcpt ">, relay="   \
	host "[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=5.1.1, "            \
	"status=bounced (host " host "[192.0.2.1] said: 550 5.1.1 <" rcpt      \
	">: Recipient address rejected: User unknown (in reply to RCPT TO "    \
	"command))\n"
	static const char log[] =
	    LINE("A1", "bob@example.org", "mx.example.org")
	    LINE("A2", "ann@gmx.net", "mx.gmx.net")
	    LINE("A3", "carl@example.org", "mx.example.org")
	    LINE("A4", "dora@icloud.com", "mx.icloud.com")
	    LINE("A5", "eve@example.org", "mx.example.org")
	    LINE("A6", "zed@gmx.net", "mx.gmx.net")
	    LINE("A7", "tosa@t-online.de", "mx.t-online.de");
#undef LINE
	static const char *const want[][2] = {
	    {"\"recipient\":\"bob@example.org\"", "\"id\":\"postfix\""},
	    {"\"recipient\":\"ann@gmx.net\"", "\"id\":\"gmx\",\"name\":\"GMX"},
	    {"\"recipient\":\"carl@example.org\"", "\"id\":\"postfix\""},
	    {"\"recipient\":\"dora@icloud.com\"", "\"id\":\"apple\""},
	    {"\"recipient\":\"eve@example.org\"", "\"id\":\"postfix\""},
	    {"\"recipient\":\"zed@gmx.net\"", "\"id\":\"gmx\",\"name\":\"GMX"},
	    {"\"recipient\":\"tosa@t-online.de\"", "\"id\":\"t-online\""}};
	char *argv[] = {SMTPCODE_BIN, "--extract", "--json", "-", NULL};
	struct run *r = test_malloc(sizeof *r);
	const char *line;
	(void)state;
	run(r, argv, log, NULL);
	assert_int_equal(r->status, 0);
	line = r->out;
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const char *end = strchr(line, '\n');
		char one[4096];
		assert_non_null(end);
		assert_true((size_t)(end - line) < sizeof one);
		memcpy(one, line, (size_t)(end - line));
		one[end - line] = '\0';
		if (!strstr(one, want[i][0]) || !strstr(one, want[i][1]))
			fail_msg("record %zu: want %s and %s in %s", i + 1,
			         want[i][0], want[i][1], one);
		line = end + 1;
	}
	assert_string_equal(line, "");
	test_free(r);
}

/* A full disk is an error, not silent loss. */
static void test_write_error(void **state)
{
	char *argv[] = {SMTPCODE_BIN, "4.3.1", NULL};
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	run(r, argv, NULL, "/dev/full");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "smtpcode: write error: No space left"));
	test_free(r);
}

/*
 * What smtpcode --color=auto 4.3.1 writes to a terminal (a pseudo-
 * terminal this test holds), with the environment variable name set to
 * value (NULL: unset), into out[0..size).
 */
static void run_on_terminal(const char *name, const char *value, char *out,
                            size_t size)
{
	char *argv[] = {SMTPCODE_BIN, "--color=auto", "-w", "0", "4.3.1", NULL};
	int master = posix_openpt(O_RDWR | O_NOCTTY), status;
	size_t len = 0;
	ssize_t got;
	pid_t pid;

	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int slave = open(ptsname(master), O_RDWR);
		if (slave < 0)
			_exit(98);
		dup2(slave, STDOUT_FILENO);
		unsetenv("NO_COLOR");
		setenv("TERM", "xterm", 1);
		if (value)
			setenv(name, value, 1);
		else
			unsetenv(name);
		execv(argv[0], argv);
		_exit(97);
	}
	/* Read until the command has ended and the terminal is empty: EIO
	 * once no one holds its other end. */
	while (len + 1 < size &&
	       ((got = read(master, out + len, size - 1 - len)) > 0 ||
	        (got < 0 && errno == EINTR)))
		len += got > 0 ? (size_t)got : 0;
	out[len] = '\0';
	close(master);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* --color=auto: colour on a terminal, none on a terminal that says it
 * shows none (TERM=dumb) or when NO_COLOR is set, as when piped. */
static void test_color_auto(void **state)
{
	static char out[65536];
	(void)state;
	run_on_terminal("TERM", "xterm", out, sizeof out);
	assert_non_null(strstr(out, "\033[1m4.3.1\033[0m  Mail system full"));
	run_on_terminal("TERM", "dumb", out, sizeof out);
	assert_non_null(strstr(out, "4.3.1  Mail system full"));
	assert_null(strchr(out, '\033'));
	run_on_terminal("NO_COLOR", "1", out, sizeof out);
	assert_non_null(strstr(out, "4.3.1  Mail system full"));
	assert_null(strchr(out, '\033'));
	run_on_terminal("TERM", NULL, out, sizeof out);
	assert_non_null(strstr(out, "\033[1m4.3.1"));
}

/* SMTPCODE_WORKERS sets how many threads read logs (1 to 4): anything
 * else is refused, in one line, with exit 2; any it takes gives the same
 * output. */
static void test_workers(void **state)
{
	static const char *const bad[] = {"0", "5", "abc", "2x", "-1", " 2"};
	static const char *const good[] = {"1", "2", "3", "4", ""};
	char *argv[] = {SMTPCODE_BIN, "--extract", "--tsv", LOG, NULL};
	struct run *r = test_malloc(sizeof *r);
	char *first = NULL;
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		setenv("SMTPCODE_WORKERS", bad[i], 1);
		run(r, argv, NULL, NULL);
		assert_int_equal(r->status, 2);
		assert_string_equal(r->out, "");
		if (!strstr(r->err, "smtpcode: SMTPCODE_WORKERS is '") ||
		    !strstr(r->err, "': expected 1 to 4 (threads to read logs "
		                    "with)\n") ||
		    strchr(r->err, '\n') != r->err + strlen(r->err) - 1)
			fail_msg("SMTPCODE_WORKERS=%s: %s", bad[i], r->err);
	}
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		setenv("SMTPCODE_WORKERS", good[i], 1);
		run(r, argv, NULL, NULL);
		assert_int_equal(r->status, 0);
		assert_string_equal(r->err, "");
		assert_non_null(strstr(r->out, "\tann@example.com\t"));
		if (!first)
			first = strdup(r->out);
		else
			assert_string_equal(r->out, first);
	}
	unsetenv("SMTPCODE_WORKERS");
	free(first);
	test_free(r);
}

/* SMTPCODE_RULES names the rules file when --rules does not; empty, it is
 * unset; a bad file there is refused as --rules refuses it. */
static void test_rules_env(void **state)
{
	char *argv[] = {SMTPCODE_BIN, "--json", "550 sorry, mailbox is full",
	                NULL, NULL, NULL};
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	setenv("SMTPCODE_RULES", RULES_DIR "/good.txt", 1);
	run(r, argv, NULL, NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "\"reason\":\"suspend\""));
	setenv("SMTPCODE_RULES", "", 1);
	run(r, argv, NULL, NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "\"reason\":\"mailboxfull\""));
	setenv("SMTPCODE_RULES", RULES_DIR "/bad.txt", 1);
	run(r, argv, NULL, NULL);
	assert_int_equal(r->status, 2);
	assert_string_equal(r->out, "");
	assert_non_null(strstr(r->err, "bad.txt:1: 'nosuchreason' is not a "
	                               "reason"));
	/* --rules comes first. */
	argv[3] = "--rules";
	argv[4] = RULES_DIR "/good.txt";
	run(r, argv, NULL, NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "\"reason\":\"suspend\""));
	unsetenv("SMTPCODE_RULES");
	test_free(r);
}

/*
 * The record schema (src/cli/record_fields.def) is what every writer of a
 * record writes: JSON's first members are its keys, in its order, null
 * where a record does not carry one (log lines, bounces); TSV's columns
 * before the verdict's six are its TSV_COLUMN keys the record carries; a text record starts
 * with its TEXT_HEAD keys, each after its literal, the same values TSV
 * shows.
 */
static const struct schema_key {
	const char *key;
	int modes, text, tsv;
	const char *text_before, *tsv_before;
} schema[] = {
#define RECORD_FIELD(key, kind, modes, text, text_before, tsv, tsv_before) \
	{#key, modes, text, tsv, text_before, tsv_before},
#include "record_fields.def"
#undef RECORD_FIELD
};
#define NKEYS (sizeof schema / sizeof *schema)

/* The top-level keys of the JSON object at s (one line), and whether each
 * value is null, into keys[] and null[]; how many. */
static size_t json_keys(const char *s, char keys[][32], bool null[],
                        size_t max)
{
	size_t n = 0;
	int depth = 0;

	for (; *s && *s != '\n'; s++) {
		if (*s == '"') {
			const char *start = ++s;
			for (; *s != '"'; s++) {
				assert_true(*s && *s != '\n');
				if (*s == '\\')
					s++;
			}
			if (depth == 1 && s[1] == ':' && n < max) {
				assert_true((size_t)(s - start) < sizeof keys[0]);
				memcpy(keys[n], start, (size_t)(s - start));
				keys[n][s - start] = '\0';
				null[n++] = strncmp(s + 2, "null", 4) == 0;
			}
		} else if (*s == '{' || *s == '[') {
			depth++;
		} else if (*s == '}' || *s == ']') {
			depth--;
		}
	}
	return n;
}

/* Every record of the JSON lines out, from records of mode (1: log
 * lines, 2: bounces), starts with the schema's keys; how many records. */
static size_t check_json_records(const char *out, int mode)
{
	size_t records = 0;

	for (const char *line = out; *line; records++) {
		char keys[64][32];
		bool null[64];
		size_t n = json_keys(line, keys, null, 64);
		const char *end = strchr(line, '\n');

		assert_non_null(end);
		assert_true(n > NKEYS);
		for (size_t i = 0; i < NKEYS; i++) {
			if (strcmp(keys[i], schema[i].key) != 0)
				fail_msg("record %zu: key %zu is %s, the schema's %s",
				         records + 1, i + 1, keys[i], schema[i].key);
			if (!(schema[i].modes & mode) && !null[i])
				fail_msg("record %zu: %s is not null", records + 1,
				         schema[i].key);
		}
		line = end + 1;
	}
	return records;
}

/* Column i of the TSV line at s, into col. */
static void tsv_column(const char *s, size_t i, char *col, size_t size)
{
	size_t n;

	for (; i; i--) {
		s = strchr(s, '\t');
		assert_non_null(s);
		s++;
	}
	n = strcspn(s, "\t\n");
	assert_true(n < size);
	memcpy(col, s, n);
	col[n] = '\0';
}

static size_t tsv_columns(const char *line)
{
	size_t n = 1;

	for (; *line != '\n'; line++) {
		assert_true(*line);
		n += *line == '\t';
	}
	return n;
}

static void test_record_schema(void **state)
{
	char *log_json[] = {SMTPCODE_BIN, "--extract", "--json", LOG, NULL};
	char *log_tsv[] = {SMTPCODE_BIN, "--extract", "--tsv", LOG, NULL};
	char *log_text[] = {SMTPCODE_BIN, "--extract", LOG, NULL};
	char *mail_json[] = {SMTPCODE_BIN, "--mail", "--json",
	                     MAIL "/postfix-dsn-3.eml", MAIL "/exim.eml", NULL};
	char *mail_tsv[] = {SMTPCODE_BIN, "--mail", "--tsv",
	                    MAIL "/postfix-dsn-3.eml", MAIL "/exim.eml", NULL};
	struct run *json = test_malloc(sizeof *json);
	struct run *tsv = test_malloc(sizeof *tsv);
	struct run *text = test_malloc(sizeof *text);
	size_t log_columns = 0, mail_columns = 0, records;
	const char *t, *x;

	(void)state;
	for (size_t i = 0; i < NKEYS; i++) {
		log_columns += schema[i].tsv == TSV_COLUMN &&
		               (schema[i].modes & REC_LOG);
		mail_columns += schema[i].tsv == TSV_COLUMN &&
		                (schema[i].modes & REC_MAIL);
	}

	/* Log lines: JSON, TSV, and text against TSV. */
	run(json, log_json, NULL, NULL);
	run(tsv, log_tsv, NULL, NULL);
	run(text, log_text, NULL, NULL);
	assert_int_equal(json->status, 0);
	assert_int_equal(tsv->status, 0);
	assert_int_equal(text->status, 0);
	records = check_json_records(json->out, REC_LOG);
	assert_true(records > 1);
	t = tsv->out;
	x = text->out;
	for (size_t r = 0; r < records; r++) {
		char want[1024] = "", col[512];
		size_t c = 0;

		assert_int_equal(tsv_columns(t), log_columns + 6);
		for (size_t i = 0; i < NKEYS; i++) {
			if (!(schema[i].modes & REC_LOG))
				continue;
			if (schema[i].tsv == TSV_COLUMN)
				tsv_column(t, c++, col, sizeof col);
			if (schema[i].text != TEXT_HEAD)
				continue;
			if (schema[i].tsv != TSV_COLUMN)
				break; /* (a value TSV does not show) */
			strcat(want, schema[i].text_before);
			strcat(want, col);
		}
		if (strncmp(x, want, strlen(want)) != 0)
			fail_msg("text record %zu does not start with '%s'", r + 1,
			         want);
		t = strchr(t, '\n') + 1;
		x = strchr(x, '\n') + 1;
	}
	assert_string_equal(t, "");
	assert_string_equal(x, "");

	/* Bounces' recipients: JSON, and TSV's columns. */
	run(json, mail_json, NULL, NULL);
	run(tsv, mail_tsv, NULL, NULL);
	assert_int_equal(json->status, 0);
	assert_int_equal(tsv->status, 0);
	records = check_json_records(json->out, REC_MAIL);
	assert_true(records > 1);
	t = tsv->out;
	for (size_t r = 0; r < records; r++) {
		assert_int_equal(tsv_columns(t), mail_columns + 6);
		t = strchr(t, '\n') + 1;
	}
	assert_string_equal(t, "");
	test_free(json);
	test_free(tsv);
	test_free(text);
}

#define NCASES (sizeof cases / sizeof *cases)

int main(void)
{
	static const struct CMUnitTest fixed[] = {
	    cmocka_unit_test(test_wrap_width),
	    cmocka_unit_test(test_mail_repeated),
	    cmocka_unit_test(test_log_quoted_address),
	    cmocka_unit_test(test_piped_unwrapped),
	    cmocka_unit_test(test_write_error),
	    cmocka_unit_test(test_color_auto),
	    cmocka_unit_test(test_workers),
	    cmocka_unit_test(test_rules_env),
	    cmocka_unit_test(test_record_schema),
	};
	static struct CMUnitTest tests[NCASES + sizeof fixed / sizeof *fixed];
	static char names[NCASES][64];
	size_t n = 0;

	/* One named test per row, so one failure does not hide the rest. */
	for (size_t i = 0; i < NCASES; i++, n++) {
		const struct cli_case *c = &cases[i];
		snprintf(names[i], sizeof names[i], "smtpcode");
		for (size_t k = 0; k < MAXARGS && c->args[k]; k++)
			snprintf(names[i] + strlen(names[i]),
			         sizeof names[i] - strlen(names[i]), " '%s'",
			         c->args[k]);
		for (char *p = names[i]; *p; p++)
			if ((unsigned char)*p < 0x20)
				*p = '?';
		tests[n] = (struct CMUnitTest){names[i], test_case, NULL, NULL,
		                               (void *)(uintptr_t)c};
	}
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		tests[n++] = fixed[i];
	return _cmocka_run_group_tests("cli", tests, n, NULL, NULL);
}
