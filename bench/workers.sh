#!/bin/sh
# bench/workers.sh: the log modes' memory against their number of worker
# threads.  Peak RSS of `smtpcode --extract --json` with 1 (this thread
# alone), 2 and 4 workers (SMTPCODE_WORKERS), on logs whose JSON is
# hundreds of times their size, where memory would grow with the output
# if it could: 24 MB of short lines (each "5.1.1", a record of about 500
# bytes), and 4 MB of them under a path of 3,764 characters, which every
# record repeats (about 4,300 bytes a record).  Called by bench/run;
# prints rows of its table: each peak RSS, and with 2 and 4 workers its
# ratio to one thread's (target: at most 2).
#
# usage: sh bench/workers.sh BUILD-DIR TMPDIR
#   BUILD-DIR  a build holding smtpcode and measure
#   TMPDIR     an existing scratch folder (the logs go in a subfolder)
set -eu

if [ $# -ne 2 ]; then
	echo "usage: sh bench/workers.sh BUILD-DIR TMPDIR" >&2
	exit 2
fi
build=$1
bin=$build/smtpcode
dir=$2/workers
mkdir -p "$dir"

row() { # figure smtpcode reference ratio target met
	printf '%-48s %12s %12s %8s %10s %4s\n' "$@"
}

yes 5.1.1 | head -c 24000000 > "$dir/short.log"
# A path of exactly 3,764 characters: folders of 200, then the file.
long=$dir
while [ $((${#long} + 201)) -lt 3700 ]; do
	long=$long/$(printf '%0200d' 0 | tr 0 d)
done
mkdir -p "$long"
pad=$((3764 - ${#long} - 5))
long=$long/$(printf "%0${pad}d" 0 | tr 0 f).log
head -c 4000000 "$dir/short.log" > "$long"

for f in "$dir/short.log" "$long"; do
	case $f in
	*/short.log) what="24 MB of short lines" ;;
	*) what="a ${#long}-char path" ;;
	esac
	one=
	for w in 1 2 4; do
		rss=$(SMTPCODE_WORKERS=$w "$build/measure" 1 "$bin" --extract --json "$f" | cut -f2)
		if [ -z "$one" ]; then
			one=$rss
			row "json RSS, $what: 1 worker" "$rss KiB" "" "" "" ""
			continue
		fi
		r=$(awk -v a="$rss" -v b="$one" 'BEGIN { printf "%.2f", a / b }')
		row "  $w workers vs 1" "$rss KiB" "$one KiB" "$r" "<= 2" \
			"$(awk -v r="$r" 'BEGIN { print (r <= 2 ? "yes" : "NO") }')"
	done
done
rm -rf "$dir"
