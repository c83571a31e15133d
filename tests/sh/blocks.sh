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

echo "blocks: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
