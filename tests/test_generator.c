/*
 * The generator's refusals: each row breaks tests/gentable/good.txt in one
 * way and names the line and message gentable must report.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../src/core/table.h" /* TABLE_SHARED */
#include "run.h"

struct mutation {
	const char *find;    /* first occurrence in good.txt ... */
	const char *replace; /* ... becomes this */
	const char *expect;  /* stderr holds "bad.txt:" followed by this;
	                        "": the change must be accepted */
};

static const struct mutation mutations[] = {
	/* syntax */
	{"scope: mailbox\n", "scope mailbox\n", "8: expected 'key: value'"},
	{"scope: mailbox\n", "colour: blue\n", "8: unknown key 'colour'"},
	{"scope: mailbox\n", "scope:\n", "8: empty value for 'scope'"},
	{"# A small", " continued\n# A small", "1: continuation line outside a record"},
	{"code: X.1.1\n", "name: first\n", "5: a record must start with 'code:'"},
	{"meaning: The address does not exist.",
	 "meaning: The address\tdoes not exist.", "10: control character 0x09 in column 21"},
	{"meaning: The address does not exist.",
	 "meaning: The address \xc3\x28 exist.", "10: invalid UTF-8 in column 22"},
	{"meaning: The address does not exist.",
	 "meaning: Overlong \xc0\xaf slash.", "10: invalid UTF-8"},
	{"meaning: The address does not exist.", "meaning: \x1b[31mred",
	 "10: control character 0x1b"},
	/* codes */
	{"code: 550\n", "code: 5.5\n", "28: '5.5' is not a code"},
	{"code: X.1.1\n", "code: x.1.1\n", "5: write the code as 'X.1.1'"},
	{"code: 550\n", "code: 5.1.1\n", "28: duplicate code 5.1.1 (first at "},
	{"code: X.1.1\n", "code: X.1.2\n", "16: 5.1.1 has no record for X.1.1"},
	{"code: 5.XXX.YYY\n", "code: X.1.2\nname: n\nregistered: yes\nmeaning: m.\n"
	 "source: s\n\ncode: 5.XXX.YYY\n", "47: X.1.2 has no class variant"},
	/* required fields and where they belong */
	{"name: Bad destination mailbox address\n", "",
	 "5: X.1.1: missing 'name'"},
	{"cause: A typing mistake.\n", "", "16: 5.1.1: needs at least 2 'cause' lines"},
	{"fix: sender: Correct the address.\n", "", "16: 5.1.1: missing 'fix'"},
	{"severity: permanent\nacts: sender\nretry: never",
	 "acts: sender\nretry: never", "16: 5.1.1: missing 'severity'"},
	{"now: Not delivered.\n", "", "28: 550: missing 'now'"},
	{"related: 550: the basic code.\n", "", "15: 5.1.1: missing 'related'"},
	{"with: 5.1.1: no such user\n", "with: 5.1.1: no such user\nbasic: 550\n",
	 "44: 'basic' does not belong in a record for 550"},
	{"bounce: hard\nnow: Not delivered;", "bounce: hard\nwith: 550: x\nnow: Not delivered;",
	 "22: 'with' does not belong in a record for 5.1.1"},
	{"scope: mailbox\n", "scope: mailbox\nscope: system\n",
	 "9: 'scope' given twice"},
	{"meaning: Final.\n", "meaning: Final.\nacts: sender\n",
	 "51: 'acts' does not belong in a record for 5.XXX.YYY"},
	/* vocabularies */
	{"scope: mailbox\n", "scope: planet\n",
	 "8: unknown scope 'planet' (expected one of: mailbox, domain, system, "
	 "message, sender, network, session)"},
	{"reason: userunknown\n", "reason: nosuchuser\n", "9: unknown reason 'nosuchuser'"},
	{"acts: sender\nretry: never", "acts: nobody\nretry: never",
	 "18: unknown acts 'nobody'"},
	{"fix: sender: Correct", "fix: Correct", "26: a fix starts with who does it"},
	{"fix: sender: Correct", "fix: none: Correct", "26: a fix starts with who does it"},
	{"basic: 550\n", "basic: 45\n", "11: '45' is not a basic code"},
	{"basic: 550\n", "basic: 551: remark\n",
	 "11: basic names '551', which is not in the table"},
	/* what people ask (issue 23): how common, how long, what not to do,
	 * questions and answers */
	{"fix: sender: Correct the address.\n",
	 "fix: sender: Correct the address.\nfrequency: often\n",
	 "27: unknown frequency 'often' (expected one of: common, occasional, "
	 "rare, obsolete)"},
	{"fix: sender: Correct the address.\n",
	 "fix: sender: Correct the address.\nfaq: Is the address gone?\n",
	 "27: faq: a question ends with \"? \" and its answer follows"},
	{"fix: sender: Correct the address.\n",
	 "fix: sender: Correct the address.\nfaq: Is the address gone\n",
	 "27: faq: a question ends with \"? \" and its answer follows"},
	{"fix: sender: Correct the address.\n",
	 "fix: sender: Correct the address.\nfaq: ? Yes.\n",
	 "27: faq: a question ends with \"? \" and its answer follows"},
	{"fix: sender: Correct the address.\n",
	 "fix: sender: Correct the address.\nduration: A day or two.\n",
	 "27: duration: only a temporary code has one"},
	/* set on the X record, it is blamed there for its permanent class */
	{"source: RFC 3463 section 3.2\n",
	 "source: RFC 3463 section 3.2\nduration: A day or two.\n",
	 "15: duration: only a temporary code has one"},
	{"source: RFC 5321 section 4.2.3\n", "source: RFC 5321 section 4.2.3\n"
	 "\ncode: 250\nname: Requested mail action okay, completed\n"
	 "registered: yes\nseverity: success\nscope: mailbox\nacts: none\n"
	 "retry: none\nsuppress: no\nbounce: none\nreason: delivered\n"
	 "meaning: Done.\nnow: Delivered.\ncause: Nothing.\ncause: All went "
	 "well.\nfix: sender: Nothing.\nrelated: 550: a failure.\n"
	 "source: RFC 5321 section 4.2.2\nduration: None.\n",
	 "64: duration: only a temporary code has one"},
	/* accepted: each where it belongs, inherited from the X record */
	{"fix: sender: Correct the address.\n",
	 "fix: sender: Correct the address.\nfrequency: common\n"
	 "frequency-note: every mail system sends it\n"
	 "avoid: Do not resend: the address: is gone.\n"
	 "avoid: Do not guess another address.\n"
	 "faq: Is the address gone? Yes: ask the person for the right one.\n"
	 "faq: Will a resend help?? No.\n", ""},
	{"source: RFC 3463 section 3.2\n", "source: RFC 3463 section 3.2\n"
	 "frequency: rare\nfaq: Why? Because.\navoid: Do not panic.\n", ""},
	{"source: RFC 3463 section 3.2\n", "source: RFC 3463 section 3.2\n"
	 "\ncode: 4.1.1\nseverity: temporary\nacts: none\nretry: auto\n"
	 "suppress: no\nbounce: soft\nnow: Queued.\ncause: A lookup failed."
	 "\ncause: A directory was down.\nfix: recipient-admin: Check the "
	 "directory.\nfrequency: obsolete\nduration: Minutes, until the "
	 "directory answers.\n", ""},
	/* references */
	{"related: 550: the basic code.", "related: 5.1.9: another code.",
	 "13: related names '5.1.9', which is not in the table"},
	{"with: 5.1.1: no such user", "with: 5.1.1 no such user",
	 "43: expected 'with: CODE: how it differs'"},
	{"related: 5.1.1: the enhanced form.", "related: 550: itself.",
	 "44: related names the entry itself"},
	/* providers and groups */
	{"provider: example\nname: Example Mail", "provider: Example\nname: Example Mail",
	 "58: 'Example' is not a valid provider id"},
	{"code: 5.1.1\nprovider: example", "code: 5.1.1\nprovider: exampel",
	 "66: unknown provider 'exampel' (no 'provider: exampel' record)"},
	{"group: address-unknown\nverified", "group: address-gone\nverified",
	 "70: unknown group 'address-gone' (no 'group: address-gone' record)"},
	{"verified: 2026-11-29\n", "", "65: 5.1.1: a provider's entry needs its own 'verified'"},
	{"verified: 2026-11-29\n", "verified: last week\n",
	 "71: expected the date it was verified as YYYY-MM-DD"},
	{"meaning: Example's words for an unknown user.\n", "",
	 "65: 5.1.1: a provider's entry needs its own 'meaning'"},
	{"code: 5.1.1\nprovider: example", "code: X.1.1\nprovider: example",
	 "65: a provider's entry names a class: write 4.1.1 or 5.1.1, not X.1.1"},
	{"match: no such user here\n", "match: no\n",
	 "69: a match is a fragment of 3 to 80 characters"},
	{"marker: mx.example\n", "", "58: example: missing 'marker'"},
	/* the library's scan relies on markers of 3 bytes or more */
	{"marker: mx.example\n", "marker: mx\n",
	 "60: a marker is a fragment of 3 to 80 characters"},
	{"marker: mx.example\n", "marker: MX!\n", ""},
	{"marker: mx.example\n", "marker: mx.example\nmatch: phrase\n",
	 "61: 'match' does not belong in a record for example"},
	{"match: no such user here\n", "",
	 ""}, /* a provider's only entry for a code needs no phrase */
	/* the library's span tables have a class for each byte of the
	 * markers and phrases, and one shared by those past the first 62
	 * (table.h): more are accepted (test_shared_class) */
	{"match: no such user here\n", "match: no such user here\n"
	 "match: abcdefghijklmnopqrstuvwxyz\n"
	 "match: 0123456789.!\"$%&'()*+,-/:;<=>?@[]^_{|}~\n", ""},
	{"source: Example: postmaster page\n\ncode: 5.1.1",
	 "source: Example: postmaster page\n\ncode: 5.1.1\nprovider: example\n"
	 "name: n\nmeaning: m\nverified: 2026-11-29\nsource: s\n\ncode: 5.1.1",
	 "65: 5.1.1 has several example entries: each needs 'match:' lines"},
	/* a group's members share its scope */
	{"name: Address does not exist\nscope: mailbox",
	 "name: Address does not exist\nscope: system",
	 "70: 5.1.1: scope 'mailbox' differs from its group address-unknown's "
	 "'system'"},
	{"scope: mailbox\nmeaning: Nobody", "meaning: Nobody",
	 "53: address-unknown: missing 'scope'"},
	/* suppress yes only for a bad address */
	{"reason: userunknown\n", "reason: blocked\n",
	 "20: 5.1.1: 'suppress: yes' needs scope mailbox or domain and a "
	 "bad-address reason"},
	{"scope: mailbox\n", "scope: sender\n",
	 "20: 5.1.1: 'suppress: yes' needs scope mailbox or domain"},
	/* a verdict the code cannot give is unknown, and says what decides */
	{"retry: never\nsuppress: yes\nbounce: hard\nnow:",
	 "retry: after-fix\nsuppress: unknown\nbounce: unknown\n"
	 "decides: the reply's words.\nreason: undefined\nnow:", ""},
	{"retry: never\nsuppress: yes\nbounce: hard\nnow:",
	 "retry: after-fix\nsuppress: unknown\nbounce: hard\nnow:",
	 "20: 5.1.1: 'suppress: unknown' and 'bounce: unknown' go together"},
	{"retry: never\nsuppress: yes\nbounce: hard\nnow:",
	 "retry: after-fix\nsuppress: unknown\nbounce: unknown\nnow:",
	 "20: 5.1.1: 'suppress: unknown' needs 'decides:'"},
	{"retry: never\nsuppress: yes\nbounce: hard\nnow:",
	 "retry: never\nsuppress: unknown\nbounce: unknown\ndecides: d.\nnow:",
	 "19: 5.1.1: an unknown verdict takes 'retry: after-fix'"},
	{"bounce: hard\nnow: Not delivered;", "bounce: hard\ndecides: d.\n"
	 "now: Not delivered;",
	 "22: 5.1.1: 'decides' belongs only with 'suppress: unknown'"},
	{"reason: userunknown\n", "reason: userunknown\ndecides: d.\n",
	 "10: 'decides' does not belong in a record for X.1.1"},
	/* final: for temporary codes that end delivery */
	{"severity: permanent\nacts: sender\nretry: never",
	 "severity: permanent\nfinal: yes\nacts: sender\nretry: never",
	 "18: 5.1.1: 'final' is for temporary codes"},
	{"reason: userunknown\n", "reason: userunknown\nfinal: yes\n",
	 "10: 'final' does not belong in a record for X.1.1"},
	/* sources: a provider's own page or a corpus; RFCs for the registry */
	{"source: Example: postmaster page\n\ncorpus",
	 "source: observed replies\n\ncorpus",
	 "72: 5.1.1: 'observed replies' is no source"},
	{"source: Example: postmaster page\n\ncorpus",
	 "source: A blog: typical errors\n\ncorpus",
	 "65: 5.1.1: no source is example's own page"},
	{"source: Example: postmaster page\n\ncorpus",
	 "source: Example bounce archive: message 12\n\ncorpus", ""},
	{"source: Example: postmaster page\n\ncorpus",
	 "source: Example bounce archive\n\ncorpus",
	 "65: 5.1.1: no source is example's own page"},
	{"source: RFC 3463 section 3.2\n", "source: Example: page\n",
	 "14: X.1.1: a registered code cites RFCs, drafts and the IANA "
	 "registry only"},
	{"site: Example\n", "", "58: example: missing 'site'"},
	/* a provider's priority orders the markers' tries */
	{"priority: 10\n", "", "58: provider example has no 'priority:'"},
	{"priority: 10\n", "priority: first\n",
	 "62: priority 'first' is not a whole number from 1 to 65535"},
	{"priority: 10\n", "priority: 65536\n",
	 "62: priority '65536' is not a whole number from 1 to 65535"},
	{"source: Example: postmaster page\n\ncode: 5.1.1",
	 "source: Example: postmaster page\n\nprovider: other\npriority: 10\n"
	 "name: Other\nmarker: mx.other\nsite: Other\nsource: Other: page\n\n"
	 "code: 5.1.1",
	 "66: providers example and other have the same priority 10"},
	{"meaning: Replies collected", "note: Replies collected",
	 "74: example-bounces: missing 'meaning'"},
	{"verified: 2026-11-29\n", "verified: 2026-11-29\nsite: Example\n",
	 "72: 'site' does not belong in a record for 5.1.1"},
	{"corpus: example-bounces\n", "corpus: Example\n",
	 "74: 'Example' is not a valid corpus id"},
	/* a provider's entry is registered when its code is */
	{"verified: 2026-11-29\n", "verified: 2026-11-29\nregistered: no\n",
	 "72: 5.1.1: 'registered: no' but its code is registered"},
	{"code: 5.1.1\nprovider: example\nname: No such user at Example",
	 "code: 5.1.99\nprovider: example\nname: No such user at Example",
	 "65: 5.1.99: missing 'registered'"},
	{"code: 5.1.1\nprovider: example\nname: No such user at Example",
	 "code: 5.1.1\nprovider: example\nseverity: temporary\nname: No such user at Example",
	 "67: 5.1.1: severity 'temporary' contradicts the class digit 5"},

	/* the verdict must tell one story */
	{"severity: permanent\nacts: sender\nretry: never",
	 "severity: temporary\nacts: sender\nretry: never",
	 "17: 5.1.1: severity 'temporary' contradicts the class digit 5 "
	 "(expected 'permanent')"},
	{"severity: permanent\nscope: mailbox", "severity: success\nscope: mailbox",
	 "31: 550: severity 'success' contradicts the class digit 5"},
	{"severity: permanent\nmeaning: Final.", "severity: temporary\nmeaning: Final.",
	 "49: 5.XXX.YYY: severity contradicts the class digit 5"},
	{"suppress: yes\nbounce: hard\nnow: Not delivered;",
	 "suppress: yes\nbounce: block\nnow: Not delivered;",
	 "20: 5.1.1: 'bounce: hard', 'retry: never' and 'suppress: yes' go together"},
	{"retry: never\nsuppress: yes\nbounce: hard\nnow: Not delivered;",
	 "retry: auto\nsuppress: yes\nbounce: hard\nnow: Not delivered;",
	 "19: 5.1.1: a permanent failure takes 'retry: after-fix' or 'never'"},
	/* bounce layouts and phrase lists (data/bounces/) */
	{"shape: address-paragraphs\n", "shape: zigzag\n",
	 "81: unknown shape 'zigzag' (expected one of: address-paragraphs, "
	 "indented-blocks, lone-addresses, address-then-reply, "
	 "address-mentions, dated-addresses)"},
	{"priority: 10\nname: Example MTA", "name: Example MTA",
	 "78: layout example-mta has no 'priority:'"},
	{"greeting: This is the example mailer at\n"
	 "intro: Your message could not be delivered\n", "",
	 "78: layout example-mta: missing 'intro'"},
	{"intro: Your message could not be delivered\n", "intro: Yo\n",
	 "84: a phrase is 3 to 100 characters without blanks at its ends"},
	{"intro: Your message could not be delivered\n",
	 "intro: Your message could not be delivered and this sentence goes on "
	 "and on, far longer than any template's line\n",
	 "84: a phrase is 3 to 100 characters"},
	{"intro: Your message could not be delivered\n",
	 "intro: This is the example mailer at\n",
	 "84: 'This is the example mailer at' is already in this intro"},
	{"end: Original message follows\n",
	 "end: Original message follows\nend: Original message follows\n",
	 "88: 'Original message follows' is already in this end"},
	{"list: Failed recipients:\n", "list: Failed recipients:\ncolour: red\n",
	 "86: unknown key 'colour'"},
	{"list: Failed recipients:\n", "list: Failed recipients:\nmeaning: m.\n",
	 "86: 'meaning' does not belong in a record for example-mta"},
	{"reply: said:\n", "reply: said:\nlist-within: failed:\n",
	 "87: shape address-paragraphs does not read 'list-within'"},
	{"shape: address-paragraphs\naddress: bare\n", "shape: indented-blocks\n",
	 "78: layout example-mta: shape indented-blocks needs 'list-within'"},
	{"shape: address-paragraphs\n", "shape: lone-addresses\n",
	 "82: shape lone-addresses does not read 'address'"},
	{"address: bare\n", "address: square\n",
	 "82: unknown address 'square' (expected angle or bare)"},
	{"shape: address-paragraphs\n", "", "78: layout example-mta: missing "
	 "'shape'"},
	{"phrases: autoreply-subject", "layout: example-mta\npriority: 11\n"
	 "shape: indented-blocks\nintro: Mail failed\nlist-within: failed:\n\n"
	 "phrases: autoreply-subject",
	 "89: duplicate layout example-mta (first at "},
	{"phrases: autoreply-subject", "layout: other-mta\npriority: 10\n"
	 "shape: indented-blocks\nintro: Mail failed\nlist-within: failed:\n\n"
	 "phrases: autoreply-subject",
	 "90: layouts example-mta and other-mta have the same priority 10"},
	{"layout: example-mta\n", "layout: Example\n",
	 "78: 'Example' is not a valid layout id"},
	{"phrases: autoreply-subject", "phrases: subjects",
	 "89: unknown phrase list 'subjects'"},
	{"phrase: Away from my desk\n", "note: none\n",
	 "89: autoreply-subject: missing 'phrase'"},
	{"scope: mailbox\n", "scope: mailbox\nshape: exim\n",
	 "9: 'shape' does not belong in a record for X.1.1"},

	/* log dialects (data/logs/, tools/gentable/dialects.c); the record
	 * is at the end of good.txt, from line 92 */
	{"engine: fields\n", "engine: magic\n",
	 "93: unknown engine 'magic' (expected one of: postfix, exim, sendmail, fields)"},
	{"engine: fields\n", "", "92: dialect example-log: missing 'engine'"},
	{"name: Example MTA log\n", "", "92: dialect example-log: missing 'name'"},
	{"marker: examplemta:\n", "", "92: dialect example-log: needs a 'marker'"},
	{"marker: examplemta:\n",
	 "marker: a::\nmarker: b::\nmarker: c::\nmarker: d::\nmarker: e::\n",
	 "99: dialect example-log: more than 4 markers"},
	{"separator: ,\n", "separator: ;;\n",
	 "96: separator: ';;' is not one character"},
	{"separator: ,\n", "", "92: dialect example-log: missing 'separator'"},
	{"separator: ,\n", "separator: \" \"\n", ""},
	{"recipient: rcpt=\n", "", "92: dialect example-log: missing 'recipient'"},
	{"reply-after: \": \"\n", "", "92: dialect example-log: missing 'reply-after'"},
	{"reply-after: \": \"\n", "reply-after: \": \n", "99: reply-after: unbalanced quotes in '\": '"},
	{"host: host=\n",
	 "host: a-field-name-of-more-than-sixty-four-bytes-which-no-mail-server-writes=\n",
	 "98: host: 'a-field-name-of-more-than-sixty-four-bytes-which-no-mail-server-writes=' "
	 "is longer than 64 bytes"},
	{"dialect: example-log\n", "dialect: Example_Log\n",
	 "92: 'Example_Log' is not a valid dialect id"},
	{"source: Example: log format page\n",
	 "source: Example: log format page\n\ndialect: example-log\nengine: fields\n",
	 "102: duplicate dialect example-log (first at "},
	{"reply-after: \": \"\n", "reply-after: \": \"\nmeaning: Courier's.\n",
	 "100: 'meaning' does not belong in a record for example-log"},
	{"scope: mailbox\n", "scope: mailbox\nrecipient: to=\n",
	 "9: 'recipient' does not belong in a record for "},
	/* a built-in engine's record names what the engine reads */
	{"engine: fields\n", "engine: postfix\n",
	 "96: engine postfix has its own separators"},
	{"engine: fields\n", "engine: postfix\n",
	 "97: dialect example-log: recipient 'rcpt=' is not what engine postfix "
	 "reads ('to=')"},
	{"engine: fields\n", "engine: exim\n",
	 "97: engine exim reads no 'recipient' field"},
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply-after: \" said: \"\n", ""},
	/* auth-failed-reply: the postfix engine's alone, a 4xx or 5xx reply */
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply-after: \" said: \"\nauth-failed-reply: 535 5.7.8 Error\n", ""},
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply-after: \" said: \"\nauth-failed-reply: 235 2.7.0 Ok\n",
	 "101: auth-failed-reply: '235 2.7.0 Ok' is not a reply with a 4xx or 5xx code"},
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply-after: \" said: \"\nauth-failed-reply: failed\n",
	 "101: auth-failed-reply: 'failed' is not a reply"},
	{"reply-after: \": \"\n", "reply-after: \": \"\nauth-failed-reply: 535 5.7.8 x\n",
	 "100: engine fields reads no 'auth-failed-reply'"},
	/* auth-temp-reply: "TEXT" and a 4xx reply, beside an
	 * auth-failed-reply */
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply-after: \" said: \"\nauth-failed-reply: 535 5.7.8 Error\n"
	 "auth-temp-reply: \"lost the server\" 454 4.7.0 Try later\n", ""},
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply-after: \" said: \"\nauth-failed-reply: 535 5.7.8 Error\n"
	 "auth-temp-reply: lost 454 4.7.0 Try later\n",
	 "102: auth-temp-reply: 'lost 454 4.7.0 Try later' is not \"TEXT\" and a reply"},
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply-after: \" said: \"\nauth-failed-reply: 535 5.7.8 Error\n"
	 "auth-temp-reply: \"lost the server\" 535 5.7.8 No\n",
	 "102: auth-temp-reply: '535 5.7.8 No' is not a reply with a 4xx code"},
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply-after: \" said: \"\nauth-temp-reply: \"lost the server\" 454 4.7.0 Try later\n",
	 "101: auth-temp-reply without an auth-failed-reply"},

	/* what a fields record says of its lines (issue 21): side, status
	 * words, stage, programs, underscores, reports-as */
	{"source: Example: log format page\n",
	 "side: sideways\nsource: Example: log format page\n",
	 "100: unknown side 'sideways' (expected delivery, reject or auth)"},
	{"source: Example: log format page\n",
	 "status-word: failure: gone\nsource: Example: log format page\n",
	 "100: status-word: 'failure: gone' is not TEXT and a status"},
	{"source: Example: log format page\n",
	 "side: reject\nstatus-word: ok sent\nsource: Example: log format page\n",
	 "101: status-word: 'sent' is not a status of side reject"},
	{"source: Example: log format page\n",
	 "stage: rcpt-to\nsource: Example: log format page\n",
	 "100: unknown stage 'rcpt-to'"},
	{"source: Example: log format page\n",
	 "stage: rcpt\nstage-after: cmd=\nsource: Example: log format page\n",
	 "100: dialect example-log: 'stage' and 'stage-after' both given"},
	{"source: Example: log format page\n",
	 "underscores: maybe\nsource: Example: log format page\n",
	 "100: underscores: 'maybe' is not yes or no"},
	{"source: Example: log format page\n",
	 "reports-as: nowhere\nsource: Example: log format page\n",
	 "100: reports-as: 'nowhere' is no dialect of data/logs/"},
	{"source: Example: log format page\n",
	 "reply-after: a:\nreply-after: b:\nreply-after: c:\nreply-after: d:\n"
	 "source: Example: log format page\n",
	 "103: dialect example-log: more than 4 'reply-after' lines"},
	{"source: Example: log format page\n",
	 "program: a\nprogram: b\nprogram: c\nprogram: d\nprogram: e\n"
	 "source: Example: log format page\n",
	 "104: dialect example-log: more than 4 'program' lines"},
	{"source: Example: log format page\n",
	 "program: example mta\nsource: Example: log format page\n",
	 "100: program: 'example mta' is not a syslog tag"},
	{"host: host=\n", "host: host=\nstatus: status=\n",
	 "99: engine fields reads no 'status' field"},
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nhost: relay=\nstatus: status=\ndsn: dsn=\n"
	 "reply-after: \" said: \"\nside: delivery\n",
	 "101: engine postfix reads its lines by code: 'side' is for the fields "
	 "engine"},
	{"engine: fields\nname: Example MTA log\nmarker: examplemta:\nseparator: ,\nrecipient: rcpt=\nhost: host=\nreply-after: \": \"\n",
	 "engine: postfix\nname: Example MTA log\nmarker: examplemta:\n"
	 "recipient: to=\nrecipient: rcpt=\nhost: relay=\nstatus: status=\n"
	 "dsn: dsn=\nreply-after: \" said: \"\n",
	 "92: dialect example-log: engine postfix reads one 'recipient'"},
	/* a side stands for the recipient; a quote in quotes; all at once */
	{"recipient: rcpt=\n", "side: delivery\n", ""},
	{"reply-after: \": \"\n", "reply-after: \"msg=\\\"\"\n", ""},
	{"source: Example: log format page\n",
	 "side: reject\nstatus-word: \"cmd: AUTH\" auth-failed\n"
	 "stage-after: \"cmd: \"\nprogram: examplemta\nunderscores: yes\n"
	 "reports-as: example-log\nsource: Example: log format page\n", ""},

	/* reason wordings (data/reasons/, tools/gentable/wordings.c), from
	 * line 102 of good.txt; the codes that leave the reason to them */
	{"reason-words: mailboxfull\n", "reason-words: fullness\n",
	 "102: 'fullness' is not a reason (src/core/vocab.c lists them)"},
	{"reason-words: userunknown\n", "reason-words: mailboxfull\n",
	 "112: duplicate reason-words mailboxfull (first at "},
	{"priority: 20\n", "priority: 10\n",
	 "113: reason-words userunknown has the priority of mailboxfull ("},
	{"priority: 20\n", "",
	 "112: reason-words userunknown has no 'priority:'"},
	/* a reason may have no phrases: its record still gives its verdict */
	{"phrase: no such user\n", "note: none\n", ""},
	{"phrase: no such user\n", "phrase: Over Quota\n",
	 "120: phrase 'Over Quota' is already in reason-words mailboxfull ("},
	{"phrase: over quota\n", "phrase: ok\n",
	 "110: a reason's phrase is 4 to 80 characters without blanks at its ends"},
	{"phrase: over quota\n", "phrase: over <quota>\n",
	 "110: a reason's phrase has no '<' or '>'"},
	{"phrase: over quota\n", "phrase: over  quota\n",
	 "110: a reason's phrase has no double spaces"},
	{"phrase: no such user\n", "phrase: no such user\nretry: never\n",
	 "121: 'retry' does not belong in a record for userunknown"},

	/* the verdict each reason brings to a permanent failure */
	{"bounce: soft\nscope: mailbox\nacts: recipient\n",
	 "scope: mailbox\nacts: recipient\n",
	 "102: reason-words mailboxfull has no 'bounce:' (the verdict the "
	 "reason brings)"},
	{"beats-code: yes\nphrase: mailbox is full\n", "phrase: mailbox is full\n",
	 "102: reason-words mailboxfull has no 'beats-code:'"},
	{"beats-code: yes\nphrase: mailbox is full\n",
	 "beats-code: maybe\nphrase: mailbox is full\n",
	 "108: beats-code takes yes or no"},
	{"suppress: yes\nbounce: hard\nscope: mailbox\nacts: sender\nbeats",
	 "suppress: yes\nbounce: soft\nscope: mailbox\nacts: sender\nbeats",
	 "114: reason-words userunknown: 'suppress: yes' with 'bounce: soft'"},
	{"after-data: filtered\n", "after-data: nowhere\n",
	 "119: after-data: 'nowhere' is not a reason"},
	/* a permanent entry's verdict is its reason's, inherited too */
	{"retry: never\nsuppress: yes\nbounce: hard\nnow:",
	 "retry: after-fix\nsuppress: no\nbounce: soft\nnow:",
	 "20: 5.1.1: 'suppress: no' and 'bounce: soft' contradict its reason "
	 "userunknown, whose verdict is suppress yes, bounce hard ("},
	{"code: 5.1.1\nprovider: example\n",
	 "code: 5.1.1\nprovider: example\nreason: mailboxfull\n",
	 "20: 5.1.1: 'suppress: yes' and 'bounce: hard' contradict its reason "
	 "mailboxfull, whose verdict is suppress no, bounce soft ("},
	{"code: 5.1.1\nprovider: example\n",
	 "code: 5.1.1\nprovider: example\nreason: mailboxfull\n"
	 "retry: after-fix\nsuppress: no\nbounce: soft\n", ""},

	/* the order in which evidence decides (judge records), from line
	 * 398 of good.txt */
	{"step: dsn: ", "step: status: ",
	 "400: judge code: a step is 'NAME: why', NAME one of the part's steps "
	 "(src/core/judge.c): 'status: "},
	{"step: dsn: ", "step: reply: ",
	 "400: judge code: step reply is given twice"},
	{"step: dsn: a DSN's Status: or a log's dsn=\n", "",
	 "398: judge code has no step dsn"},
	{"step: words: any reason's words\n", "step: words\n",
	 "409: judge reason: a step is 'NAME: why'"},
	{"judge: code\n", "judge: verdict\n",
	 "398: judge: 'verdict' is not a part of a verdict (code, reason)"},
	{"judge: reason\n", "judge: code\n",
	 "402: duplicate judge code (first at "},
	{"step: words: any reason's words\n",
	 "step: words: any reason's words\nscope: mailbox\n",
	 "410: 'scope' does not belong in a record for reason"},

	/* the permanent members of a group share their verdict: 550 joins
	 * the example's group with another reason */
	{"retry: never\nsuppress: yes\nbounce: hard\nreason: userunknown",
	 "retry: after-fix\nsuppress: no\nbounce: soft\nreason: mailboxfull\n"
	 "group: address-unknown",
	 "71: 5.1.1 (example): 'suppress: yes' and 'bounce: hard' differ from "
	 "550's 'suppress: no' and 'bounce: soft' ("},
	{"reason: userunknown\nmeaning: A grab-bag.",
	 "reason: userunknown\ngroup: address-unknown\nmeaning: A grab-bag.", ""},

	/* a registered code's name and meaning name no provider */
	{"meaning: The address does not exist.",
	 "meaning: Example Mail says the address does not exist.",
	 "10: X.1.1: the meaning of a registered code names the provider "
	 "'Example Mail' (example): a provider's use of it belongs in the "
	 "provider's entry (data/providers/)"},
	{"meaning: The address does not exist.",
	 "meaning: At Example the address does not exist.",
	 "10: X.1.1: the meaning of a registered code names the provider "
	 "'Example' (example)"},
	{"name: Requested action not taken: mailbox unavailable\n",
	 "name: Example Mail: mailbox unavailable\n",
	 "29: 550: the name of a registered code names the provider "
	 "'Example Mail' (example)"},
	/* the id as a common word, or a title-case name, is no provider's */
	{"meaning: The address does not exist.",
	 "meaning: An example of an address that does not exist.", ""},
	{"name: Bad destination mailbox address\n",
	 "name: Bad Example mailbox address\n", ""},
	/* an unregistered code may: it is a provider's or an MTA's own */
	{"registered: yes\nseverity: permanent\nscope: mailbox\nacts: sender\n"
	 "retry: never\nsuppress: yes\nbounce: hard\nreason: userunknown\n"
	 "meaning: A grab-bag.",
	 "registered: no\nseverity: permanent\nscope: mailbox\nacts: sender\n"
	 "retry: never\nsuppress: yes\nbounce: hard\nreason: userunknown\n"
	 "meaning: Example Mail's grab-bag.", ""},
	{"scope: mailbox\n", "scope: mailbox\nphrase: over quota\n",
	 "9: 'phrase' does not belong in a record for X.1.1"},
	{"scope: mailbox\n", "scope: mailbox\nreason-from: code\n",
	 "9: reason-from takes 'words'"},
	{"scope: mailbox\n", "scope: mailbox\nreason-from: words\n", ""},

	/* search synonyms (data/search/, tools/gentable/synonyms.c), from
	 * line 122 of good.txt */
	{"phrase: denylist\n", "phrase: deny  list\n",
	 "125: a synonym is 2 to 40 characters of ASCII words separated by "
	 "single spaces"},
	{"phrase: denylist\n", "phrase: x\n", "125: a synonym is 2 to 40"},
	{"phrase: denylist\n", "phrase: deny list \n", "125: a synonym is 2 to 40"},
	{"phrase: denylist\n", "phrase: d\xc3\xa9ny\n", "125: a synonym is 2 to 40"},
	{"phrase: quota exceeded\n", "phrase: Blocklist\n",
	 "129: synonym 'Blocklist' is already in synonyms blocklist ("},
	{"phrase: quota exceeded\n", "",
	 "127: synonyms mailbox-full needs at least two 'phrase:' lines"},
	{"phrase: quota exceeded\n", "phrase: quota exceeded\nscope: mailbox\n",
	 "130: 'scope' does not belong in a record for mailbox-full"},
	{"synonyms: mailbox-full\n", "synonyms: blocklist\n",
	 "127: duplicate synonyms blocklist (first at "},
	{"synonyms: mailbox-full\n", "synonyms: Mailbox\n",
	 "127: 'Mailbox' is not a valid synonyms id"},
	{"phrase: quota exceeded\n", "phrase: quota exceeded\nnote: a remark\n", ""},
};

/* The file at path, which the test cannot do without. */
static char *read_all(const char *path)
{
	char *buf = read_whole_file(path);
	assert_non_null(buf);
	return buf;
}

static char dir[] = "/tmp/smtpcode-gentable-XXXXXX";

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fputs(s, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* Run gentable on one data file; returns its exit status. */
static int gentable(const char *data, struct run *r)
{
	char out[64], date[64], bad[64];
	char *argv[] = {GENTABLE_BIN, out, date, bad, NULL};
	snprintf(out, sizeof out, "%s/table.c", dir);
	snprintf(date, sizeof date, "%s/DATE", dir);
	snprintf(bad, sizeof bad, "%s/bad.txt", dir);
	write_file(bad, data);
	run(r, argv, NULL, NULL);
	return r->status;
}

static int setup(void **state)
{
	char path[64];
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/DATE", dir);
	write_file(path, "2026-11-29\n");
	return 0;
}

static int teardown(void **state)
{
	char path[64];
	(void)state;
	snprintf(path, sizeof path, "%s/DATE", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/bad.txt", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/table.c", dir);
	unlink(path);
	return rmdir(dir);
}

static void test_accepts_good(void **state)
{
	char *good = read_all(GOOD_DATA);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	if (gentable(good, r) != 0)
		fail_msg("good.txt refused:\n%s", r->err);
	assert_string_equal(r->err, "");
	test_free(r);
	free(good);
}

/* Layouts and phrase lists are written into the table: the phrases
 * folded to lower case, a set per key with the bytes its phrases start
 * with ('t' and 'y': bits 20 and 25 of word 3), the layouts in priority
 * order, each with the first layout of its intro (itself), and the
 * layouts each byte may start an intro of ('t' and 'y': layout 0) or be
 * the second byte of ('h' and 'o'). */
static void test_layouts_written(void **state)
{
	char *good = read_all(GOOD_DATA), path[64], *table, *seconds;
	size_t n;
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	assert_int_equal(gentable(good, r), 0);
	snprintf(path, sizeof path, "%s/table.c", dir);
	table = read_all(path);
	assert_non_null(strstr(table, "#include \"textbounce.h\""));
	assert_non_null(strstr(table, "\"this is the example mailer at\\0\"\n"
	                              "\t\"your message could not be delivered"));
	assert_non_null(strstr(table, "/* example-mta */\n\t\t"
	                              "TEXT_SHAPE_ADDRESS_PARAGRAPHS, 1, 1, 0,\n"
	                              "\t\t{bounce_text, bounce_phrases + 0, 2, "
	                              "{0x0, 0x0, 0x0, 0x2100000, 0x0, 0x0, 0x0, "
	                              "0x0}}"));
	assert_non_null(strstr(table, "text_layouts_count = 1;"));
	assert_non_null(strstr(table, "text_layout_starts[256] = {"));
	assert_non_null(strstr(table, "\n\t0x1, 0x0, 0x0, 0x0,\n" /* 't' */
	                              "\t0x0, 0x1, 0x0, 0x0,\n")); /* 'y' */
	/* Second bytes: 'h' (0x68) and 'o' (0x6f), nothing else. */
	seconds = strstr(table, "text_layout_seconds[256] = {");
	assert_non_null(seconds);
	assert_non_null(strstr(seconds, "\n\t0x1, 0x0, 0x0, 0x0,\n" /* 'h' */
	                                "\t0x0, 0x0, 0x0, 0x1,\n")); /* 'o' */
	n = 0;
	for (const char *p = seconds; (p = strstr(p, "0x1,")) != NULL &&
	                              p < strstr(seconds, "};"); p++)
		n++;
	assert_int_equal(n, 2);
	assert_non_null(strstr(table, "phrases_autoreply_subject = "
	                              "{bounce_text, bounce_phrases + 5, 1, "
	                              "{0x0, 0x0, 0x0, 0x2, 0x0, 0x0, 0x0, 0x0}};"));
	assert_non_null(strstr(table, "phrases_bounce_from = "
	                              "{bounce_text, bounce_phrases + 0, 0, "
	                              "{0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0}};"));
	free(table);
	test_free(r);
	free(good);
}

/* A set's phrases are written in the order of their first bytes, with
 * their places in the data as ids: of a layout added after good.txt's,
 * whose greeting starts with 'z' and whose intros with 'm' and 'b', the
 * intro set is "beta" (2), "mu" (1), "zeta" (0); a layout sharing its
 * intro names the first as the one of its intro. */
/* The table.c the generator writes from good.txt with more after it;
 * fails the test when it refuses them.  The caller frees it. */
static char *table_with(const char *more)
{
	char *good = read_all(GOOD_DATA), path[64], *data, *table;
	struct run *r = test_malloc(sizeof *r);

	data = malloc(strlen(good) + strlen(more) + 1);
	assert_non_null(data);
	strcpy(data, good);
	strcat(data, more);
	if (gentable(data, r) != 0)
		fail_msg("refused:\n%s", r->err);
	snprintf(path, sizeof path, "%s/table.c", dir);
	table = read_all(path);
	assert_non_null(table);
	free(data);
	test_free(r);
	free(good);
	return table;
}

static void test_phrase_order(void **state)
{
	static const char more[] =
	    "\nlayout: sorted-mta\npriority: 20\nname: Sorted MTA\n"
	    "shape: address-paragraphs\ngreeting: Zeta mailer here\n"
	    "intro: Mu failure notice\nintro: Beta failure notice\n"
	    "list: Failed:\nreply: said:\nend: Original follows\n"
	    "\nlayout: twin-mta\npriority: 30\nname: Twin MTA\n"
	    "shape: address-paragraphs\ngreeting: Zeta mailer here\n"
	    "intro: Mu failure notice\nintro: Beta failure notice\n"
	    "list: Failed:\nreply: said:\nend: Original follows\n";
	char *table = table_with(more);
	(void)state;
	assert_non_null(strstr(table, "\t\"beta failure notice\\0\"\n"
	                              "\t\"mu failure notice\\0\"\n"
	                              "\t\"zeta mailer here\\0\"\n"));
	assert_non_null(strstr(table, "\t{116, 19, 2},\n\t{136, 17, 1},\n"
	                              "\t{154, 16, 0},\n"));
	assert_non_null(strstr(table, "/* sorted-mta */\n\t\t"
	                              "TEXT_SHAPE_ADDRESS_PARAGRAPHS, 0, 1, 1,\n"));
	assert_non_null(strstr(table, "/* twin-mta */\n\t\t"
	                              "TEXT_SHAPE_ADDRESS_PARAGRAPHS, 0, 1, 1,\n"));
	free(table);
}

static void test_refuses(void **state)
{
	char *good = read_all(GOOD_DATA);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	for (size_t i = 0; i < sizeof mutations / sizeof *mutations; i++) {
		const struct mutation *m = &mutations[i];
		char *at = strstr(good, m->find), *bad, want[512];
		size_t pre;
		if (!at)
			fail_msg("row %zu: '%s' is not in good.txt", i, m->find);
		pre = (size_t)(at - good);
		bad = malloc(strlen(good) + strlen(m->replace) + 1);
		assert_non_null(bad);
		memcpy(bad, good, pre);
		strcpy(bad + pre, m->replace);
		strcat(bad, at + strlen(m->find));
		snprintf(want, sizeof want, "bad.txt:%s", m->expect);
		if (!*m->expect) { /* a change the generator must accept */
			if (gentable(bad, r) != 0)
				fail_msg("row %zu: refused:\n%s", i, r->err);
			free(bad);
			continue;
		}
		if (gentable(bad, r) != 1 || !strstr(r->err, want))
			fail_msg("row %zu: want exit 1 and \"%s\"; got %d:\n%s", i,
			         want, r->status, r->err);
		assert_non_null(strstr(r->err, "table not written\n"));
		free(bad);
	}
	test_free(r);
	free(good);
}

/* Records that no line stands for are missed as a whole, reported for
 * data/reasons: each reason of the vocabulary has its record, and each
 * part of a verdict its judge record.  good.txt without cut must be
 * refused with want. */
static void refused_without(const char *cut, const char *want)
{
	char *good = read_all(GOOD_DATA), *at = strstr(good, cut);
	struct run *r = test_malloc(sizeof *r);
	assert_non_null(at);
	memmove(at, at + strlen(cut), strlen(at + strlen(cut)) + 1);
	if (gentable(good, r) != 1 || !strstr(r->err, want))
		fail_msg("want exit 1 and \"%s\"; got %d:\n%s", want, r->status,
		         r->err);
	assert_non_null(strstr(r->err, "table not written\n"));
	test_free(r);
	free(good);
}

static void test_whole_records(void **state)
{
	(void)state;
	refused_without("reason-words: filtered\npriority: 420\nsuppress: no\n"
	                "bounce: block\nscope: mailbox\nacts: recipient\n"
	                "beats-code: yes\n",
	                "data/reasons:0: reason filtered has no record "
	                "(data/reasons/filtered.txt: its verdict, and its phrases "
	                "if any)\n");
	refused_without("judge: reason\nstep: message: what the message is\n"
	                "step: rules: the site's own rules\n"
	                "step: own-meaning: a provider's phrase for a meaning "
	                "of its own\n"
	                "step: phrase: a provider's own phrase\n"
	                "step: specific-words: words that beat a code\n"
	                "step: code: the code's own reason\n"
	                "step: words: any reason's words\n",
	                "data/reasons:0: no 'judge: reason' "
	                "record (the order in which its evidence decides)\n");
}

/* The generator's room: 300 providers, 20,100 markers and 20,400
 * phrases (the library's ids are 16 bits wide) are accepted, and the
 * table says so.  Each provider has 67 markers and two entries of 34
 * phrases, as an entry's list holds at most 255 items. */
/* The good data in a buffer with room for extra bytes more; *len gets
 * its length, *cap the buffer's size. */
static char *good_with_room(size_t extra, size_t *len, size_t *cap)
{
	char *good = read_all(GOOD_DATA), *big;
	*len = strlen(good);
	*cap = *len + extra;
	big = malloc(*cap);
	assert_non_null(big);
	memcpy(big, good, *len + 1);
	free(good);
	return big;
}

static void test_scale(void **state)
{
	char *table, path[96];
	size_t len, cap;
	char *big = good_with_room(300 * 6000, &len, &cap);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	for (int p = 0; p < 300; p++) {
		len += (size_t)sprintf(big + len, "\nprovider: p%d\npriority: %d\n"
		                       "name: Provider %d\nsite: P%d\n"
		                       "source: P%d: page\n", p, 100 + p, p, p, p);
		for (int k = 0; k < 67; k++)
			len += (size_t)sprintf(big + len, "marker: mx%d-%d.example\n",
			                       p, k);
		for (int e = 0; e < 2; e++) {
			len += (size_t)sprintf(big + len, "\ncode: %s\nprovider: p%d\n"
			                       "name: n\nmeaning: m\n"
			                       "verified: 2026-11-29\nsource: P%d: page\n",
			                       e ? "550" : "5.1.1", p, p);
			for (int k = 0; k < 34; k++)
				len += (size_t)sprintf(big + len, "match: provider %d "
				                       "phrase %d of %d\n", p, k, e);
		}
		assert_true(len < cap - 6000);
	}
	if (gentable(big, r) != 0)
		fail_msg("300 providers refused:\n%s", r->err);
	snprintf(path, sizeof path, "%s/table.c", dir);
	table = read_all(path);
	assert_non_null(strstr(table, "const size_t table_nmarkers = 20101;\n"));
	assert_non_null(strstr(table, "const size_t table_nphrases = 40502;\n"));
	assert_non_null(strstr(table, "/* p299 */"));
	free(table);
	free(big);
	test_free(r);
}

/* Entries and the lists' items name their strings in 16 bits (table.h):
 * more plain strings than they reach (here 2,800 short sources, 14 bytes
 * each, 39 KB) are refused, the table not written, not cut short. */
static void test_strings_past_16_bits(void **state)
{
	size_t len, cap;
	char *big = good_with_room(40 * 2400, &len, &cap);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	for (int p = 0; p < 40; p++) {
		len += (size_t)sprintf(big + len, "\nprovider: q%d\npriority: %d\n"
		                       "name: Q %d\nsite: Q%d\nsource: Q%d: page\n"
		                       "marker: mq%d.example\n", p, 500 + p, p, p, p, p);
		len += (size_t)sprintf(big + len, "\ncode: 5.1.1\nprovider: q%d\n"
		                       "name: n\nmeaning: m\nverified: 2026-11-29\n",
		                       p);
		for (int k = 0; k < 70; k++)
			len += (size_t)sprintf(big + len, "source: Q%d: page %02d\n", p, k);
		assert_true(len < cap - 2400);
	}
	if (gentable(big, r) != 1 || !strstr(r->err, "that 16 bits reach"))
		fail_msg("want exit 1 and \"that 16 bits reach\"; got %d:\n%s",
		         r->status, r->err);
	assert_non_null(strstr(r->err, "table not written\n"));
	free(big);
	test_free(r);
}

/* The text bounce reader keeps what it found of each layout on its stack:
 * one layout more than TABLE_LAYOUTS_MAX is refused where it is. */
static void test_too_many_layouts(void **state)
{
	size_t len, cap;
	char *big = good_with_room(200 * 100, &len, &cap);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	for (int k = 0; k < 64; k++)
		len += (size_t)sprintf(big + len, "\nlayout: mta-%d\npriority: "
		                       "%d\nshape: lone-addresses\nintro: Mail %d "
		                       "failed\n", k, 100 + k, k);
	big[len] = '\0';
	assert_true(len < cap);
	assert_int_equal(gentable(big, r), 1);
	assert_non_null(strstr(r->err, "layout mta-63: more than 64 layouts "
	                                "(TABLE_LAYOUTS_MAX in src/core/table.h)"));
	test_free(r);
	free(big);
}

/* The fields engine looks a line's program up in table_programs, whose
 * masks have a bit per dialect record: one record more than
 * LOG_DIALECTS_MAX (32) is refused where it is. */
static void test_too_many_dialects(void **state)
{
	size_t len, cap;
	char *big = good_with_room(32 * 200, &len, &cap);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	for (int k = 0; k < 32; k++) /* good.txt has one already */
		len += (size_t)sprintf(big + len, "\ndialect: more-log-%d\n"
		                       "engine: fields\nname: More %d\n"
		                       "marker: more%d:\nseparator: ,\n"
		                       "recipient: rcpt=\nreply-after: \": \"\n"
		                       "source: More: page\n", k, k, k);
	assert_true(len < cap);
	assert_int_equal(gentable(big, r), 1);
	if (!strstr(r->err, "dialect more-log-31: more than 32 dialects "
	                    "(LOG_DIALECTS_MAX in src/logs/dialect.h)"))
		fail_msg("want the 33rd dialect refused; got:\n%s", r->err);
	/* One fewer is accepted. */
	big[len - strlen(strstr(big, "\ndialect: more-log-31\n"))] = '\0';
	if (gentable(big, r) != 0)
		fail_msg("32 dialects refused:\n%s", r->err);
	test_free(r);
	free(big);
}

/* table_programs: each program once, in the order the records (sorted
 * by name) first name it, with a bit per record that names it. */
static void test_programs_written(void **state)
{
	static const char more[] =
	    "\ndialect: aaa-log\nengine: fields\nname: A\nmarker: aaa:\n"
	    "separator: ,\nrecipient: rcpt=\nreply-after: \": \"\n"
	    "program: examplemta\nsource: A: page\n"
	    "\ndialect: zzz-log\nengine: fields\nname: Z\nmarker: zzz:\n"
	    "separator: ,\nrecipient: rcpt=\nreply-after: \": \"\n"
	    "program: other\nprogram: examplemta\nprogram: other\n"
	    "source: Z: page\n";
	char *table = table_with(more);
	(void)state;
	/* aaa-log is record 0, example-log 1, zzz-log 2. */
	assert_non_null(strstr(table, "table_programs[] = {\n"
	                              "\t{{\"examplemta\", 10}, 0x5u},\n"
	                              "\t{{\"other\", 5}, 0x4u},\n"
	                              "\t{{NULL, 0}, 0}\n};\n"
	                              "const size_t table_nprograms = 2;\n"));
	free(table);
	/* Without programs, only the end mark. */
	table = table_with("");
	assert_non_null(strstr(table, "table_programs[] = {\n"
	                              "\t{{NULL, 0}, 0}\n};\n"
	                              "const size_t table_nprograms = 0;\n"));
	free(table);
}

static void test_bad_date(void **state)
{
	char path[64];
	char *good = read_all(GOOD_DATA);
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	snprintf(path, sizeof path, "%s/DATE", dir);
	write_file(path, "29 November\n");
	assert_int_equal(gentable(good, r), 1);
	assert_non_null(strstr(r->err, "DATE:1: expected the date of the data "
	                                "as YYYY-MM-DD"));
	write_file(path, "2026-11-29\n");
	test_free(r);
	free(good);
}

/* How many bytes table.c's table_class gives class cls. */
static int in_class(unsigned cls)
{
	char path[64], *table, *p;
	int n = 0;
	snprintf(path, sizeof path, "%s/table.c", dir);
	table = read_all(path);
	p = strstr(table, "table_class[256] = {");
	assert_non_null(p);
	p += strlen("table_class[256] = {");
	for (int c = 0; c < 256; c++) {
		char *end;
		unsigned long v = strtoul(p, &end, 0);
		assert_true(end != p);
		n += v == cls;
		p = end + strspn(end, ", \t\n");
	}
	free(table);
	return n;
}

/* Markers and phrases may hold any bytes: those past the first 62 share
 * the last class (table.h), whose rows are full. */
static void test_shared_class(void **state)
{
	static const char at[] = "match: no such user here\n";
	char *good = read_all(GOOD_DATA), *more = malloc(strlen(good) + 256);
	struct run *r = test_malloc(sizeof *r);
	const char *p = strstr(good, at);
	(void)state;
	assert_non_null(more);
	assert_non_null(p);
	assert_int_equal(gentable(good, r), 0);
	assert_int_equal(in_class(TABLE_SHARED), 0);
	sprintf(more, "%.*smatch: abcdefghijklmnopqrstuvwxyz\n"
	        "match: 0123456789.!\"$%%&'()*+,-/:;<=>?@[]^_{|}~\n"
	        "match: caf\xc3\xa9 f\xc3\xbcr\n%s", (int)(p - good), good, p);
	if (gentable(more, r) != 0)
		fail_msg("many bytes refused:\n%s", r->err);
	assert_true(in_class(TABLE_SHARED) > 1);
	test_free(r);
	free(more);
	free(good);
}

static void test_missing_file(void **state)
{
	char out[64], date[64];
	char *argv[] = {GENTABLE_BIN, out, date, "/nonexistent/data.txt", NULL};
	struct run *r = test_malloc(sizeof *r);
	(void)state;
	snprintf(out, sizeof out, "%s/table.c", dir);
	snprintf(date, sizeof date, "%s/DATE", dir);
	run(r, argv, NULL, NULL);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "/nonexistent/data.txt: No such file "
	                                "or directory\n"));
	test_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_accepts_good),
	    cmocka_unit_test(test_refuses),
	    cmocka_unit_test(test_whole_records),
	    cmocka_unit_test(test_scale),
	    cmocka_unit_test(test_strings_past_16_bits),
	    cmocka_unit_test(test_layouts_written),
	    cmocka_unit_test(test_phrase_order),
	    cmocka_unit_test(test_too_many_layouts),
	    cmocka_unit_test(test_too_many_dialects),
	    cmocka_unit_test(test_programs_written),
	    cmocka_unit_test(test_bad_date),
	    cmocka_unit_test(test_shared_class),
	    cmocka_unit_test(test_missing_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
