#!/bin/sh
# Logs of many blocks: the log modes read a large file a block at a time,
# on several threads, and must write their output in the order of the
# lines, losing none, whatever thread read which block.
# usage: blocks.sh SMTPCODE GENLOG
set -u
bin=$1
genlog=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Six blocks or so of a generated Postfix log (a block is 1 MiB).
"$genlog" 6M > "$tmp/mail.log" || { echo "blocks: genlog failed"; exit 1; }
lines=$(wc -l < "$tmp/mail.log")

# --annotate: every line of the input, in order, each code with a verdict.
"$bin" --annotate "$tmp/mail.log" > "$tmp/annotated" || bad "--annotate failed"
grep -v '^  => ' "$tmp/annotated" | cmp -s - "$tmp/mail.log" && ok ||
	bad "--annotate did not give back every line in order"
verdicts=$(grep -c '^  => ' "$tmp/annotated")

# --extract: one record per verdict, lines in increasing order, and the
# same count as --summary's lines with a code.
"$bin" --extract --tsv "$tmp/mail.log" > "$tmp/records" || bad "--extract failed"
[ "$(wc -l < "$tmp/records")" -eq "$verdicts" ] && ok ||
	bad "--extract gave $(wc -l < "$tmp/records") records, --annotate $verdicts verdicts"
awk -F '\t' 'NR > 1 && $2 <= last { exit 1 } { last = $2 }' "$tmp/records" && ok ||
	bad "--extract records out of order"
"$bin" --summary "$tmp/mail.log" > "$tmp/summary" || bad "--summary failed"
grep -q "^Lines: $lines read, $verdicts with a code, $((lines - verdicts)) without$" "$tmp/summary" && ok ||
	bad "--summary: $(head -n 1 "$tmp/summary"), expected $lines lines and $verdicts codes"

# The same from a pipe, and with the file given twice (blocks of two files
# in one run; the second file's lines count from 1 again).
cat "$tmp/mail.log" | "$bin" --extract --tsv - | cut -f 2- > "$tmp/piped"
cut -f 2- "$tmp/records" | cmp -s - "$tmp/piped" && ok || bad "--extract - differs from the file"
"$bin" --extract --tsv "$tmp/mail.log" "$tmp/mail.log" > "$tmp/twice"
cat "$tmp/records" "$tmp/records" | cmp -s - "$tmp/twice" && ok || bad "two files: records differ"

# Blocks of nothing but line ends, then codes: the reader counts the lines
# of each block (with AVX2, 128 bytes a step into byte counters that must
# not wrap), and the numbers after them must be exact, from a file and
# from a pipe.
awk 'BEGIN { for (i = 0; i < 3000000; i++) print ""
	print "x 550 5.1.1 unknown"
	for (i = 0; i < 100000; i++) print "a"
	print "y 452 4.3.1 full" }' > "$tmp/ends.log"
"$bin" --extract --tsv "$tmp/ends.log" | cut -f 2 | tr '\n' ' ' > "$tmp/numbers"
[ "$(cat "$tmp/numbers")" = "3000001 3100002 " ] && ok ||
	bad "line numbers after 3,000,000 empty lines: $(cat "$tmp/numbers")"
cat "$tmp/ends.log" | "$bin" --extract --tsv - | cut -f 2 | tr '\n' ' ' > "$tmp/numbers"
[ "$(cat "$tmp/numbers")" = "3000001 3100002 " ] && ok ||
	bad "line numbers from a pipe after 3,000,000 empty lines: $(cat "$tmp/numbers")"

echo "blocks: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
