#!/bin/sh
# What people ask about a code (issue 23), counted over the table with
# `smtpcode --list --json | jq`: every basic code and every enhanced code
# of a class (2.x.x, 4.x.x, 5.x.x) has a frequency; every temporary one
# how long it lasts; every common or occasional one a thing not to do and
# two questions; the twelve codes people ask most about four questions,
# 4.3.1's the four the issue names.
# usage: answers.sh SMTPCODE
set -u
bin=$1
name=answers
. "$(dirname "$0")/lib.sh"

"$bin" --list --json | jq -c 'select(.provider == null and (.code | test("^[0-9]")))' >"$tmp/codes"
n=$(wc -l <"$tmp/codes")
[ "$n" -ge 200 ] && ok || bad "only $n basic and class codes listed"

# count WHAT FILTER: no code is left out by FILTER (jq, on each code).
none() {
	left=$(jq -r "select($2) | .code" "$tmp/codes" | tr '\n' ' ')
	[ -z "$left" ] && ok || bad "$1: $left"
}
none "without a frequency" '.frequency == null or (.frequency.value | IN("common", "occasional", "rare", "obsolete") | not)'
none "temporary without a duration" '.severity == "temporary" and .duration == null'
none "a duration but not temporary" '.severity != "temporary" and .duration != null'
none "common or occasional without a thing not to do" '(.frequency.value | IN("common", "occasional")) and (.avoid | length) < 1'
none "common or occasional with fewer than two questions" '(.frequency.value | IN("common", "occasional")) and (.faq | length) < 2'
none "a question without its answer" 'any(.faq[]; (.question | endswith("?") | not) or .answer == "")'
for code in 4.3.1 5.3.1 452 431 5.2.2 4.2.2 5.1.1 5.7.1 4.7.0 421 550 554; do
	q=$(jq -r --arg c "$code" 'select(.code == $c) | .faq | length' "$tmp/codes")
	[ "${q:-0}" -ge 4 ] && ok || bad "$code has ${q:-no} questions, want 4"
done
for question in "Will messages sent to us during this be lost?" \
	"Is 5.3.1 the same as a full mailbox?" "Can this happen on Microsoft 365?" \
	"Why do I get 5.3.1 after days of 4.3.1?"; do
	jq -e -s --arg q "$question" \
		'map(select(.code == "4.3.1"))[0] | any(.faq[]; .question == $q)' \
		"$tmp/codes" >/dev/null && ok || bad "4.3.1 does not answer '$question'"
done
# The text entry answers them too, after saying how common and how long.
"$bin" 4.3.1 >"$tmp/entry"
grep -q '^  How common occasional' "$tmp/entry" && grep -q '^  Lasts      ' "$tmp/entry" &&
	grep -q '^  Q: Can this happen on Microsoft 365?' "$tmp/entry" && ok ||
	bad "smtpcode 4.3.1 lacks how common, how long or the questions"
finish
