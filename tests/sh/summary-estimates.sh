#!/bin/sh
# --summary's distinct recipients (issue 17): the estimate is never above
# the lines counted, it takes its sketch's place from a mixed hash (so
# that addresses such as a1@d1.com, a2@d2.com, ... fill the whole sketch,
# not half of it), a full sketch is shown as a lower bound, and the counts
# are the same whatever order the lines come in and however they are cut
# into files (each worker counts the lines it reads, then they are merged).
# usage: summary-estimates.sh SMTPCODE
set -u
bin=$1
name=summary-estimates
. "$(dirname "$0")/lib.sh"

# log N RECIPIENT: N deferrals with 452 4.3.1, RECIPIENT's '#' the line's
# number.
log() {
	awk -v n="$1" -v r="$2" 'BEGIN {
		for (i = 0; i < n; i++) {
			to = r
			gsub(/#/, i, to)
			printf "May  1 10:00:00 mx postfix/smtp[1]: Q%d: to=<%s>, relay=none, dsn=4.3.1, status=deferred (host mx said: 452 4.3.1 Insufficient system storage (in reply to RCPT TO command))\n", i, to
		}
	}'
}

# The recipients column of the code 4.3.1 in the summary of FILE.
recipients() {
	"$bin" --summary "$1" | awk '$3 == "4.3.1" || $4 == "4.3.1" {
		print ($2 == ">=" ? ">= " $3 : $2); exit }'
}

# Distinct recipients as many as lines, at distinct domains: the sketch's
# whole width is used (FNV-1a's low bits, taken before, showed 1707).
log 10000 'a#@d#.com' > "$tmp/spread.log"
n=$(recipients "$tmp/spread.log")
[ "$n" -ge 9500 ] 2>/dev/null && [ "$n" -le 10000 ] ||
	bad "a#@d#.com: $n recipients for 10000 distinct (expected 9500 to 10000)"

# Never more recipients than lines (1024 for 1000 and 13082 for 10000,
# before).
for case in '1000 user#@example.org' '10000 u#@example.com' '3000 #@x.com'; do
	set -- $case
	log "$1" "$2" > "$tmp/cap.log"
	n=$(recipients "$tmp/cap.log")
	[ "$n" -le "$1" ] 2>/dev/null ||
		bad "$2: $n recipients for $1 lines"
	"$bin" --summary "$tmp/cap.log" | awk -v max="$1" '
		/^By recipient domain/ { d = 1; next }
		d && $1 ~ /^[0-9]+$/ && $2 + 0 > max + 0 { print; bad = 1 }
		/^Temporary/ { d = 0 }
		END { exit bad }' > "$tmp/over" || bad "$2: domain rows above $1: $(cat "$tmp/over")"
done

# A full sketch (60000 distinct recipients at one domain) tells a lower
# bound, in each table and in JSON, never a count as if exact (32768,
# before).
log 60000 'u#@example.com' > "$tmp/full.log"
"$bin" --summary "$tmp/full.log" > "$tmp/full.txt"
grep -q '^    60000    >= [0-9]*  4\.3\.1 ' "$tmp/full.txt" ||
	bad "full sketch, code row: $(grep '4\.3\.1 ' "$tmp/full.txt" | head -n 1)"
grep -q '^    60000    >= [0-9]*  example\.com$' "$tmp/full.txt" ||
	bad "full sketch, domain row: $(grep 'example\.com$' "$tmp/full.txt")"
grep -q '^  4\.3\.1 example\.com: 60000 lines, at least [0-9]* recipients: the receiving system there' "$tmp/full.txt" ||
	bad "full sketch, temporary failure: $(grep '^  4\.3\.1 ' "$tmp/full.txt")"
bound=$(sed -n 's/.*at least \([0-9]*\) recipients.*/\1/p' "$tmp/full.txt")
[ "${bound:-0}" -ge 4096 ] && [ "$bound" -le 60000 ] ||
	bad "full sketch: a bound of '$bound' (4096 places are set, 60000 lines)"
"$bin" --summary --json "$tmp/full.log" > "$tmp/full.json"
[ "$(grep -o '"recipients":[0-9]*,"recipients_at_least":true' "$tmp/full.json" | wc -l)" -eq 3 ] ||
	bad "full sketch, JSON: $(cat "$tmp/full.json")"
"$bin" --summary --json "$tmp/spread.log" | grep -q 'recipients_at_least' &&
	bad "JSON: a sketch not full told as a bound"

# The same counts whatever the order of the lines and however they are
# cut into files: many codes and domains, recipients seen again.
awk 'BEGIN {
	split("452 4.3.1|550 5.1.1|452 4.2.2|421 4.7.0|554 5.7.1", c, "|")
	for (i = 0; i < 100000; i++)
		printf "May  1 10:00:00 mx postfix/smtp[1]: Q%d: to=<u%d@D%d.example>, relay=none, dsn=4.0.0, status=deferred (host mx said: %s text (in reply to RCPT TO command))\n", i, i % 7919, i % 1021, c[i % 5 + 1]
}' > "$tmp/many.log"
"$bin" --summary "$tmp/many.log" > "$tmp/one.txt" || bad "--summary failed"
awk '{ a[NR] = $0 } END { for (i = NR; i > 0; i--) print a[i] }' "$tmp/many.log" > "$tmp/reversed.log"
"$bin" --summary "$tmp/reversed.log" > "$tmp/reversed.txt"
cmp -s "$tmp/one.txt" "$tmp/reversed.txt" || bad "lines reversed: other counts"
split -l 15000 "$tmp/many.log" "$tmp/part."
# shellcheck disable=SC2046
"$bin" --summary $(ls "$tmp"/part.* | sort -r) > "$tmp/parts.txt"
cmp -s "$tmp/one.txt" "$tmp/parts.txt" || bad "lines in files: other counts"
grep -q '^Lines: 100000 read, 100000 with a code, 0 without$' "$tmp/one.txt" ||
	bad "many: $(head -n 1 "$tmp/one.txt")"
grep -q '^    20000  .*  4\.3\.1 ' "$tmp/one.txt" ||
	bad "many, 4.3.1: $(grep ' 4\.3\.1 ' "$tmp/one.txt" | head -n 1)"

finish
