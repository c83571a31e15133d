#!/bin/sh
# The log modes under a limit on memory (ulimit -v): the whole output, the
# same as without a limit, or exit 2 with a message on stderr; never less
# output with exit 0.  And memory does not grow with the output or the
# number of threads: under any limit in which one thread extracts a plain
# log, logs whose output is a hundred times larger are read too, by one
# thread or four workers (who leave the work to one thread when their
# memory cannot be had).  Before, a worker held a block's whole output,
# and the run ended in "write error: Out of memory" where one thread
# would have done it.
# usage: memory-limits.sh SMTPCODE GENLOG
set -u
bin=$1
genlog=$2
name=memory-limits
. "$(dirname "$0")/lib.sh"

skip_without_room "$bin"

"$genlog" 2M > "$tmp/gen.log" || { echo "memory-limits: genlog failed"; exit 1; }
yes 5.1.1 | head -c 600000 > "$tmp/short.log"

# run LIMIT WORKERS ARGS...: the command under LIMIT KiB of address
# space, its output in $tmp/out and $tmp/err; its exit status.
run() {
	limit=$1 workers=$2
	shift 2
	(ulimit -v "$limit" && SMTPCODE_WORKERS=$workers exec "$bin" "$@") \
		> "$tmp/out" 2> "$tmp/err"
}

# The limits tried start where the command starts at all; at each, whether
# one thread extracts the plain (generated) log.
limits=
for limit in 2048 3072 4096 6144 8192 12288 16384 24576 32768 49152 65536 98304 131072; do
	(ulimit -v "$limit" && exec "$bin" --version) >/dev/null 2>&1 || continue
	limits="$limits $limit"
	run "$limit" 1 --extract "$tmp/gen.log"
	eval "plain_$limit=$?"
done

for f in "$tmp/gen.log" "$tmp/short.log"; do
	for mode in "--extract" "--annotate" "--extract --json"; do
		# shellcheck disable=SC2086
		SMTPCODE_WORKERS=1 "$bin" $mode "$f" > "$tmp/want"
		for limit in $limits; do
			eval "plain=\$plain_$limit"
			for w in 1 4; do
				# shellcheck disable=SC2086
				run "$limit" "$w" $mode "$f"
				status=$?
				what="$mode $(basename "$f") in $limit KiB, $w workers"
				case $status in
				0)
					cmp -s "$tmp/out" "$tmp/want" && ok ||
						bad "$what: exit 0 with output not the whole ($(wc -c < "$tmp/out") bytes, want $(wc -c < "$tmp/want"))"
					;;
				2)
					grep -q '^smtpcode: ' "$tmp/err" && ok ||
						bad "$what: exit 2 without a message"
					;;
				*)
					bad "$what: exit $status: $(head -c 200 "$tmp/err")"
					;;
				esac
				if [ "$plain" = 0 ] && [ "$status" != 0 ]; then
					bad "$what: exit $status where one thread extracts a plain log: $(head -c 200 "$tmp/err")"
				fi
			done
		done
	done
done

finish "limits in KiB:$limits"
