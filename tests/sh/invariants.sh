#!/bin/sh
# What no judgement may say, whatever the input: over every record of the
# shared corpus's bounces (--mail, skipped where the corpus is absent), the
# lookups of replies.sh's replies, and the records of their DSNs (--mail,
# with the Postfix-worded ones) and log lines (--extract):
#  1. an unknown user, host or moved address (userunknown, hostunknown,
#     hasmoved) kept (suppress false) by a permanent failure whose verdict
#     rests on something (verdict_from not null);
#  2. an address dropped (suppress true) for a reason that is not the
#     address's: a block, spam, policy, authentication, reputation,
#     refusal, relaying, rate, connections, a full mailbox, a filter,
#     security or a virus;
#  3. an address dropped after DATA (the reply says "(in reply to end of
#     DATA command)" or "in reply to DATA", the record's stage is after
#     DATA, or the generated input was) by a code other than X.1.1: the
#     content was refused, not the address;
#  4. an address kept (suppress false) by a permanent failure judged on
#     nothing (verdict_from null): unknown is null;
#  5. a permanent failure whose reason decided (not undefined or onhold)
#     left unknown (suppress null): a reason brings its verdict.
# usage: invariants.sh SMTPCODE [CORPUS-DIR]
set -u
bin=$1
corpus=${2:-}
name=invariants
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/replies.sh"

# Every record, with where it came from ("where").
replies_inputs "$tmp"
"$bin" --stdin -j < "$tmp/replies" 2>/dev/null |
	jq -c '.where = "lookup"' > "$tmp/recs"
# the replies given after DATA, whose records' stage is known whether or
# not the record tells it
data=$(awk -F '\t' '$5 ~ /DATA/ { printf "%s%s", s, $1; s = "," }' "$tmp/parts")
"$bin" --mail --json -- "$tmp"/mail/*.eml 2>/dev/null |
	jq -c --argjson data "[$data]" '.where = "mail \(.file | sub(".*/"; ""))"
		| .after_data = ([.file | capture("r(?<n>[0-9]+)[^/]*$").n | tonumber] | inside($data))' >> "$tmp/recs"
"$bin" --extract --json "$tmp/log" 2>/dev/null |
	jq -c --argjson data "[$data]" '.where = "extract line \(.line)"
		| .after_data = ([(.line + 1) / 2 | floor] | inside($data))' >> "$tmp/recs"
generated=$(wc -l < "$tmp/recs")
# one record a lookup, a DSN and a log line
n=$(wc -l < "$tmp/replies")
set -- "$tmp"/mail/*.eml
want=$((n * 3 + $#))
[ "$generated" -eq "$want" ] ||
	bad "$generated records of the generated inputs, want $want (one a lookup, DSN, log line)"
if [ -n "$corpus" ] && [ -d "$corpus/bounces" ]; then
	for d in "$corpus"/bounces/*/; do
		(cd "$d" && "$bin" --mail --json -- *) 2>/dev/null |
			jq -c --arg d "$(basename "$d")" '.where = "corpus \($d)/\(.file)"' >> "$tmp/recs"
	done
	note="$generated generated records, $(($(wc -l < "$tmp/recs") - generated)) of the corpus"
else
	note="$generated generated records; corpus ${corpus:-(none given)} absent: skipped"
fi

jq -r '
	def show: "\(.where) <\(.recipient // "")> \((.reply // .input) | tojson): code=\(.code // "null") severity=\(.severity // "null") reason=\(.reason // "null") suppress=\(.suppress | tojson) verdict_from=\(.verdict_from // "null")";
	. as $r
	| (((.reply // .input // "") | test("\\(in reply to end of DATA command\\)|in reply to DATA"; "i"))
	   or .stage == "end-of-data" or .stage == "data" or .after_data == true) as $data
	| (if (.reason == "userunknown" or .reason == "hostunknown" or .reason == "hasmoved")
	      and .suppress == false and .severity == "permanent" and .verdict_from != null
	   then "1 (kept, yet \(.reason))" else empty end),
	  (if .suppress == true and (.reason as $x | ["blocked", "spamdetected",
	      "policyviolation", "authfailure", "badreputation", "rejected",
	      "norelaying", "speeding", "toomanyconn", "mailboxfull", "filtered",
	      "securityerror", "virusdetected"] | index($x))
	   then "2 (dropped for \(.reason))" else empty end),
	  (if .suppress == true and $data and ((.code // "") | test("^[245X]\\.1\\.1$") | not)
	   then "3 (dropped after DATA by \(.code // "no code"))" else empty end),
	  (if .suppress == false and .verdict_from == null and .severity == "permanent"
	   then "4 (kept on no evidence)" else empty end),
	  (if .suppress == null and .severity == "permanent" and
	      .reason != null and .reason != "undefined" and .reason != "onhold"
	   then "5 (unknown, yet \(.reason) decided)" else empty end)
	| "invariant \(.): \($r | show)"' "$tmp/recs" > "$tmp/found" ||
	bad "jq could not read the records"

while IFS= read -r line; do bad "$line"; done < "$tmp/found"
pass=$(($(wc -l < "$tmp/recs") * 5 - $(wc -l < "$tmp/found")))
finish "$note"
