#!/bin/sh
# JSON Lines: every line is valid JSON (jq) and strict UTF-8 (iconv), with
# exactly the contract's keys in the contract's order; and the values a
# script relies on are right.
# usage: json.sh SMTPCODE
set -eu
bin=$1
command -v jq >/dev/null || { echo "json.sh: needs jq (apt-get install jq)"; exit 1; }
keys='["input","code","kind","known","registered","severity","final","name","scope","acts","retry","suppress","bounce","reason","basic","meaning","causes","fixes","related","group","provider","sources","warnings","verdict_from","reason_phrase","frequency","duration","avoid","faq"]'
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
fails=0
pass=0

# check ARGS...: all output lines valid, keys as the contract says.
check() {
	"$bin" -j "$@" >"$tmp" || true
	if ! iconv -f UTF-8 -t UTF-8 "$tmp" >/dev/null 2>&1; then
		echo "FAIL: invalid UTF-8 from: $*"; fails=$((fails + 1)); return
	fi
	got=$(jq -c keys_unsorted <"$tmp" | sort -u) || {
		echo "FAIL: invalid JSON from: $*"; fails=$((fails + 1)); return; }
	if [ "$got" != "$keys" ] || [ "$(wc -l <"$tmp")" -eq 0 ]; then
		echo "FAIL: keys from $*: $got"; fails=$((fails + 1)); return
	fi
	pass=$((pass + 1))
}

# expect JQ-EXPRESSION ARGS...: the expression holds for every line.
expect() {
	expr=$1; shift
	if "$bin" -j "$@" | jq -e "$expr" >/dev/null; then
		pass=$((pass + 1))
	else
		echo "FAIL: '$expr' for: $*"; fails=$((fails + 1))
	fi
}

check 4.3.1 452 "452 4.3.1 Insufficient system storage" X.3.1 4.3.99 599 2.0.0
check 4.XXX.YYY x5z 431 556 "250 5.1.1"
check "550 5.7.1 $(printf '\033]0;evil\007') bytes $(printf '\377\376') and \"quotes\" \\ tab$(printf '\t')end"
check --list
check --list --provider all
check --search mailbox full
check "550-5.7.26 This mail has been blocked because the sender is unauthenticated. gsmtp"
check "421 4.7.0 Something undocumented - gsmtp"

expect '.code=="4.3.1" and .kind=="enhanced" and .known and .registered and .severity=="temporary" and .scope=="system" and .acts=="none" and .retry=="auto" and .suppress==false and .bounce=="soft" and .reason=="systemfull" and .name=="Mail system full"' 4.3.1
expect '(.basic|index("452"))!=null and (.causes|length)>=2 and (.fixes[0]|keys)==["text","who"] and (.related[0]|keys)==["code","text"] and (.sources|length)>0 and .provider==null and .warnings==[]' 4.3.1
expect '.suppress==true and .bounce=="hard" and .retry=="never" and .group=="address-unknown"' 5.1.1
expect '.known==false and .severity=="temporary" and .name==null and (.warnings|length)==1' 4.3.99
expect '.kind=="basic" and .code=="452" and .input=="452"' 452
expect '.input=="452 4.3.1 Insufficient system storage" and .code=="4.3.1"' "452 4.3.1 Insufficient system storage"
expect '(.warnings[0]|test("disagree"))' 250 5.1.1
expect '.provider.id=="gmail" and .provider.marker=="gsmtp" and .provider.rule=="phrase" and .provider.given==false and (.provider.verified|test("^[0-9]{4}-"))' "550-5.7.26 This mail has been blocked because the sender is unauthenticated. gsmtp"
expect '.provider.rule=="ambiguous" and .name=="Other or undefined security status" and (.warnings|length)==1' "421 4.7.0 Something undocumented - gsmtp"
expect '.provider.id=="gmail" and .provider.differs==true and .provider.given==true' --provider gmail 5.7.27
expect '.known and .registered==false and .provider.id=="microsoft"' 5.7.708
expect '.input|test("\u001b")' "550 5.7.1 $(printf '\033') escape"

# What people ask (issue 23): 4.3.1 says how common it is, how long it
# lasts, what not to do and answers the four questions; every entry gives
# the keys in their shapes.
expect '.frequency.value=="occasional" and (.frequency.note|test("Exchange")) and (.frequency|keys_unsorted)==["value","note"] and (.duration|type)=="string" and (.avoid|length)>=2 and (.avoid|all(type=="string"))' 4.3.1
expect '[.faq[].question]|contains(["Will messages sent to us during this be lost?","Is 5.3.1 the same as a full mailbox?","Can this happen on Microsoft 365?","Why do I get 5.3.1 after days of 4.3.1?"])' 4.3.1
expect '.faq|length>=4 and all((keys_unsorted)==["question","answer"] and (.question|endswith("?")) and (.answer|length)>0)' 4.3.1
expect '.frequency==null and .duration==null and .avoid==[] and .faq==[]' 4.3.99
expect '.frequency==null and .avoid==[] and .faq==[]' 4.XXX.YYY
# shapes ARGS...: on every line of the output, not the last alone.
shapes() {
	if "$bin" -j "$@" | jq -s -e 'length>0 and all(
	    (.frequency==null or ((.frequency|keys_unsorted)==["value","note"] and
	     (.frequency.value|IN("common","occasional","rare","obsolete")) and
	     (.frequency.note==null or (.frequency.note|type)=="string"))) and
	    (.duration==null or (.duration|type)=="string") and
	    (.avoid|type)=="array" and (.avoid|all(type=="string")) and
	    (.faq|type)=="array" and
	    (.faq|all((keys_unsorted)==["question","answer"])))' >/dev/null; then
		pass=$((pass + 1))
	else
		echo "FAIL: frequency, duration, avoid or faq shapes for: $*"; fails=$((fails + 1))
	fi
}
shapes --list
shapes --list --provider all
# a temporary code's duration only: never a permanent or success code's
if "$bin" -j --list | jq -s -e 'all(.[]; .duration==null or .severity=="temporary")' >/dev/null; then
	pass=$((pass + 1))
else
	echo "FAIL: a duration on a code that is not temporary"; fails=$((fails + 1))
fi

echo "json: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
