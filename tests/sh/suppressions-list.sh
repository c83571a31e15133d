#!/bin/sh
# --suppressions over the project's logs and bounces (issue 22): the list
# by address, checked whole against the one read by hand from the inputs:
# a hard bounce or an unknown address suppresses, a feedback report's
# recipient suppresses, soft and undecided failures are watched with
# their count (fay's mailbox was full in the log, then a bounce's 5.1.1
# said "mailbox full" too: quota words beat the code's own reason, so
# she is watched, twice; test_suppressions.c checks that a suppress
# sticks), a delivery keeps; dan's time-out is read by its words (X.4.1
# leaves the reason to them: "connection timed out" is networkerror), kim's
# expiry by its code (networkerror); the receiving side's refusals
# (postfix.log lines 12 to 24: others' mail refused by us) are no
# evidence about addresses we send to.  Then its TSV and JSON shapes and
# its exit status.
# usage: suppressions-list.sh SMTPCODE
set -u
bin=$1
name=suppressions-list
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 2
set -- logs/postfix.log mail/bounces.mbox mail/arf.eml mail/reason-words.eml

cat >"$tmp/want" <<'LIST'
address,action,reason,code,count,first_seen,last_seen
ann@example.com,watch,mailboxfull,4.2.2,1,logs/postfix.log:1,logs/postfix.log:1
bob@example.org,watch,spamdetected,5.7.1,1,logs/postfix.log:2,logs/postfix.log:2
cat@example.net,keep,delivered,2.0.0,1,logs/postfix.log:3,logs/postfix.log:3
dan@example.com,watch,networkerror,4.4.1,1,logs/postfix.log:4,logs/postfix.log:4
eve@example.org,watch,toomanyconn,4.7.0,1,logs/postfix.log:5,logs/postfix.log:5
fay@example.com,watch,mailboxfull,5.1.1,2,logs/postfix.log:6,mail/reason-words.eml
gus@mx1.example.com,suppress,userunknown,5.1.1,1,logs/postfix.log:7,logs/postfix.log:7
hal@example.com,watch,mailboxfull,5.2.2,1,logs/postfix.log:8,logs/postfix.log:8
ivy@example.com,suppress,userunknown,5.1.1,1,logs/postfix.log:9,logs/postfix.log:9
jon@mx1.example.com,keep,delivered,2.0.0,1,logs/postfix.log:10,logs/postfix.log:10
kim@example.net,watch,networkerror,4.4.1,1,logs/postfix.log:11,logs/postfix.log:11
ana@example.com,suppress,userunknown,5.1.1,1,mail/bounces.mbox#1,mail/bounces.mbox#1
bruno@example.net,suppress,suspend,5.2.1,1,mail/bounces.mbox#2,mail/bounces.mbox#2
chen@example.com,watch,mailboxfull,4.2.2,1,mail/bounces.mbox#3,mail/bounces.mbox#3
user@example.com,suppress,feedback,-,1,mail/arf.eml,mail/arf.eml
dora@example.com,watch,mailboxfull,5.0.0,1,mail/reason-words.eml,mail/reason-words.eml
erik@example.com,watch,spamdetected,5.7.1,1,mail/reason-words.eml,mail/reason-words.eml
LIST
"$bin" --suppressions "$@" >"$tmp/got" 2>"$tmp/err"
st=$?
[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] && ok || bad "exit $st, stderr $(cat "$tmp/err")"
diff "$tmp/want" "$tmp/got" >"$tmp/diff" && ok || bad "the list differs: $(cat "$tmp/diff")"

# TSV: the same rows, tab-separated; JSON: an object each, same order.
"$bin" --suppressions -t "$@" | tr '\t' ',' | diff "$tmp/want" - >/dev/null &&
	ok || bad "TSV is not the CSV's rows"
"$bin" --suppressions -j "$@" |
	jq -r '[.address, .action, (.reason // "-"), (.code // "-"), (.count | tostring), .first_seen, .last_seen] | join(",")' |
	diff "$(sed 1d "$tmp/want" >"$tmp/rows"; echo "$tmp/rows")" - >/dev/null &&
	ok || bad "JSON is not the CSV's rows"
# Filters select the records that count: only the permanent ones.
"$bin" --suppressions --severity permanent logs/postfix.log | cut -d, -f1,2 |
	tr '\n' ' ' | grep -qx 'address,action bob@example.org,watch fay@example.com,watch gus@mx1.example.com,suppress hal@example.com,watch ivy@example.com,suppress ' &&
	ok || bad "--severity permanent: $("$bin" --suppressions --severity permanent logs/postfix.log | cut -d, -f1,2 | tr '\n' ' ')"
# Exit status: 0 with an address, 1 with none; -q writes nothing.
[ -z "$("$bin" --suppressions -q "$@")" ] && ok || bad "-q wrote something"
"$bin" --suppressions -q "$@" && ok || bad "-q: want 0"
"$bin" --suppressions /dev/null >/dev/null
[ $? -eq 1 ] && ok || bad "no address: want 1"
finish
