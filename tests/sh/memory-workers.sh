#!/bin/sh
# The log modes on several threads (SMTPCODE_WORKERS=1 to 4): the output
# is the same whatever the number, and memory stays flat whatever the
# output.  Peak RSS of --extract --json on logs whose JSON is hundreds of
# times their size (short lines; a long file name in every record) stays
# within 2x of one thread's, on the same log and on a generated one, with
# 1, 2 and 4 workers.  (Before, each worker held a block's whole output:
# hundreds of megabytes.)
# usage: memory-workers.sh SMTPCODE MEASURE GENLOG
set -u
bin=$1
measure=$2
genlog=$3
name=memory-workers
. "$(dirname "$0")/lib.sh"

skip_without_room "$bin"

# Inputs: a generated Postfix log; 2 MB of short lines, each a record;
# and 100 KB of them under a path of about 3,800 characters.
"$genlog" 3M > "$tmp/gen.log" || { echo "memory-workers: genlog failed"; exit 1; }
yes 5.1.1 | head -c 2000000 > "$tmp/short.log"
dir=$tmp
while [ ${#dir} -lt 3600 ]; do
	dir=$dir/dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd
done
mkdir -p "$dir" || { echo "memory-workers: cannot make $dir"; exit 1; }
long=$dir/ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff.log
head -c 100000 "$tmp/short.log" > "$long"

# The same output from 1, 2, 3 and 4 workers, in every log mode.
for f in "$tmp/gen.log" "$tmp/short.log" "$long"; do
	for mode in "--extract" "--extract --json" "--extract --tsv" "--annotate" "--summary"; do
		# shellcheck disable=SC2086
		want=$(SMTPCODE_WORKERS=1 "$bin" $mode "$f" "$f" | cksum)
		for w in 2 3 4; do
			# shellcheck disable=SC2086
			got=$(SMTPCODE_WORKERS=$w "$bin" $mode "$f" "$f" | cksum)
			[ "$got" = "$want" ] && ok ||
				bad "$mode $(basename "$f"): $w workers differ from one"
		done
	done
done

# The number asked for is the number used: one means this thread alone.
SMTPCODE_WORKERS=9 "$bin" --extract /dev/null 2>/dev/null
[ $? -eq 2 ] && ok || bad "SMTPCODE_WORKERS=9 was not refused: the count is not read"

# Peak RSS with 1, 2 and 4 workers, and the ratios to one thread's: on
# the same log, and on the generated log, whose JSON is twice its size.
plain=$(SMTPCODE_WORKERS=1 "$measure" 1 "$bin" --extract --json "$tmp/gen.log" | cut -f2)
echo "memory-workers: --extract --json gen.log: 1 worker: $plain KiB"
for f in "$tmp/short.log" "$long"; do
	one=
	for w in 1 2 4; do
		rss=$(SMTPCODE_WORKERS=$w "$measure" 1 "$bin" --extract --json "$f" | cut -f2)
		[ -n "$one" ] || one=$rss
		r=$(awk -v a="$rss" -v b="$one" 'BEGIN { printf "%.2f", a / b }')
		p=$(awk -v a="$rss" -v b="$plain" 'BEGIN { printf "%.2f", a / b }')
		echo "memory-workers: --extract --json $(basename "$f" | cut -c1-20): $w workers: $rss KiB, $r x one, $p x gen.log's"
		awk -v r="$r" -v p="$p" 'BEGIN { exit !(r <= 2 && p <= 2) }' && ok ||
			bad "$w workers: peak RSS $rss KiB, $r x one thread's $one KiB, $p x one thread's on gen.log (at most 2 x)"
	done
done

finish
