#!/bin/sh
# Which side a log record is from (issue 21): the key side in JSON, a TSV
# column after the domain, a note in text; --summary's findings rest on
# the scope of the code and the spread of its recipients together (three
# full Gmail mailboxes are three mailboxes, Yahoo's [TSS04] is about the
# sender, a time-out the network), with grammatical counts; and the
# receiving side's section, once the dialects set the status "rejected"
# (until they do, its checks are reported as waiting, not run).
# usage: sides.sh SMTPCODE
set -u
bin=$1
name=sides
. "$(dirname "$0")/lib.sh"
log=$(dirname "$0")/../logs/sides.log

# expect WHAT GOT WANT
expect() {
	[ "$2" = "$3" ] && ok || bad "$1: got '$2', want '$3'"
}

# side in each format, lines 1-6 the sending side's (Postfix status=)
expect "json sides" "$("$bin" --extract --json "$log" | head -n 6 |
	jq -r .side | sort -u)" "delivery"
expect "tsv side column" "$("$bin" --extract --tsv "$log" | sed -n 6p |
	cut -f 5)" "delivery"
# A text record names the side only when it is not a delivery.
expect "text side note" "$("$bin" --extract "$log" | sed -n 6p |
	grep -c '; side: ')" "0"
"$bin" --extract --json "$log" | head -n 6 | jq -e 'has("side")' >/dev/null &&
	ok || bad "json has no key side"

# --extract --field: a record's own key, a verdict's field; a record's
# key elsewhere is a usage error
expect "-f side" "$("$bin" --extract -f side "$log" | head -n 6 | sort | uniq -c |
	tr -s ' ')" " 6 delivery"
expect "-f recipient" "$("$bin" --extract -f recipient "$log" | sed -n 4p)" \
	"kim@yahoo.com"
expect "-f scope" "$("$bin" --extract -f scope "$log" | head -n 5 | tr '\n' ' ')" \
	"mailbox mailbox mailbox sender network "
"$bin" -f side 550 >/dev/null 2>"$tmp/err"
expect "-f side, a lookup" "$?:$(head -n 1 "$tmp/err")" \
	"2:smtpcode: field 'side' is a record's: it goes with --extract or --mail"

# the scope of the code, with the spread of the recipients
sum=$("$bin" --summary "$log")
expect "gmail 4.2.2" "$(echo "$sum" | grep '^  4.2.2 gmail.com:')" \
	"  4.2.2 gmail.com: 3 lines, 3 recipients: 3 mailboxes, each its own (the code is about a mailbox), not the receiving system"
expect "time-out" "$(echo "$sum" | grep '^  4.4.1 example.org:')" \
	"  4.4.1 example.org: 1 line, 1 recipient: the network on the way there (the code is about the connection), not a mailbox"
expect "yahoo TSS04" "$(echo "$sum" | grep '^  4.7.0 yahoo.com:')" \
	"  4.7.0 yahoo.com: 1 line, 1 recipient: the sending side: our IP address or domain (the code is about the sender), not the recipients"
echo "$sum" | grep -q ' 1 lines\| 1 recipients' &&
	bad "a count of 1 with a plural noun" || ok
json=$("$bin" --summary --json "$log")
expect "json scopes" "$(echo "$json" | jq -c '[.temporary_by_domain[] |
	[.domain, .scope, .scope_from]]')" \
	'[["gmail.com","mailbox","code"],["example.org","network","code"],["yahoo.com","sender","code"]]'
expect "json receiving keys" "$(echo "$json" | jq -c '.receiving | keys')" \
	'["auth_failures","auth_failures_by_client","auth_failures_by_client_unlisted","rejects","rejects_by_client","rejects_by_client_unlisted","rejects_by_reason"]'

# one recipient, a code the table lacks (no scope): the spread decides
printf '%s\n' 'May  2 09:00:07 mx1 postfix/smtp[4104]: 5A1B2C3D07: to=<ned@example.net>, relay=mx.example.net[198.51.100.30]:25, delay=1, delays=0/0/0.5/0.5, status=deferred (host mx.example.net[198.51.100.30] said: 450 4.8.8 Try again later (in reply to RCPT TO command))' >"$tmp/one.log"
expect "no scope, one recipient" "$("$bin" --summary --json "$tmp/one.log" |
	jq -c '[.temporary_by_domain[] | [.scope, .scope_from]]')" \
	'[["mailbox","recipients"]]'

# The receiving side: smtpd's rejects, lines 7-9, once their status is
# "rejected" (the dialects' part of issue 21).
if [ "$("$bin" --extract --json "$log" | sed -n 7p | jq -r .side)" = reject ]; then
	expect "receiving text" "$(echo "$sum" | sed -n '/^Receiving side/,$p')" \
"Receiving side: what this server refused others
Rejects: 3 lines
  By code and reason
    count  code     reason            name
        2  5.7.1    blocked           Delivery not authorized, message refused
        1  5.7.1    norelaying        Delivery not authorized, message refused
  By client
    count  client
        2  unknown[192.0.2.99]
        1  relay.example.net[198.51.100.44]
Failed logins: 0 lines"
	expect "rejects apart" "$(echo "$json" | jq -c '[.receiving.rejects, ([.codes[].code] | index("5.7.1"))]')" '[3,null]'
	expect "tsv reject" "$("$bin" --extract --tsv "$log" | sed -n 9p | cut -f 5)" reject
	# 5000 clients once each, then one 300 times: the table of 4096
	# keeps the frequent one, every line counted, listed or not
	awk 'BEGIN {
		for (i = 0; i < 5300; i++) {
			c = i < 5000 ? sprintf("198.51.%d.%d", int(i / 250), i % 250) : "192.0.2.99"
			printf "May  2 09:01:00 mx1 postfix/smtpd[1]: NOQUEUE: reject: RCPT from unknown[%s]: 554 5.7.1 Service unavailable; Client host [%s] blocked using zen.spamhaus.org; from=<a@example.net> to=<b@example.com> proto=ESMTP helo=<x>\n", c, c
		}
	}' >"$tmp/clients.log"
	expect "bounded clients" "$("$bin" --summary --json "$tmp/clients.log" | jq -c '.receiving |
		[(.rejects_by_client | length), (.rejects_by_client[0] | [.client, .count]),
		 ([.rejects_by_client[].count] | add) + .rejects_by_client_unlisted]')" \
		'[4096,["unknown[192.0.2.99]",300],5300]'
	# A reject's reason from its words, kept per wording without what
	# <...> encloses (summary.c): the same as read anew each time
	# (--extract), an unclosed '<' a byte like the others.  A closed one
	# hides the words from the reasons' words, not from Postfix's phrase
	# "Relay access denied", whose entry (norelaying) the line's judgement
	# takes as --extract does; 5.7.1's own reason, undefined, would leave
	# the reason to the words.
	for r in '<a@example.com>: Relay access denied' \
		'<b@example.com>: Relay access denied' \
		'<Relay access denied' '<Relay access denied>' \
		'<c@example.com>: Relay access denied'; do
		printf 'May  2 09:02:00 mx1 postfix/smtpd[1]: NOQUEUE: reject: RCPT from unknown[192.0.2.7]: 554 5.7.1 %s; from=<a@example.net> to=<b@example.com> proto=ESMTP helo=<x>\n' "$r"
	done >"$tmp/words.log"
	expect "reasons kept by wording" "$("$bin" --summary --json "$tmp/words.log" |
		jq -c '[.receiving.rejects_by_reason[] | [.reason, .count]]')" \
		'[["norelaying",5]]'
	finish
fi
finish "the receiving side's checks wait for smtpd's status \"rejected\""
