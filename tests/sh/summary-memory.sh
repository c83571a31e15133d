#!/bin/sh
# --summary when memory runs short (issue 17): under a limit on its
# memory (ulimit -v), over 100,000 distinct domains, the command shows
# the summary it shows without the limit, or it shows none and says why
# on stderr, with status 2: never other counts with status 0 (before, it
# dropped the lines it had no memory for, silently).
# usage: summary-memory.sh SMTPCODE
# Exit 77 (skipped) where a limit on virtual memory stops the command
# itself from starting (a sanitizer's shadow memory).
set -u
bin=$1
name=summary-memory
. "$(dirname "$0")/lib.sh"

awk 'BEGIN {
	for (i = 0; i < 100000; i++)
		printf "May  1 10:00:00 mx postfix/smtp[1]: Q%d: to=<u%d@d%d.example>, relay=none, dsn=4.3.1, status=deferred (host mx said: 452 4.3.1 Insufficient system storage (in reply to RCPT TO command))\n", i, i % 3, i
}' > "$tmp/many.log"
"$bin" --summary "$tmp/many.log" > "$tmp/whole" 2> "$tmp/err" ||
	{ echo "summary-memory: --summary failed without a limit: $(cat "$tmp/err")"; exit 1; }

# run KIB WORKERS: --summary under a limit of KIB KiB, read by WORKERS
# threads (SMTPCODE_WORKERS: 1, this one; 4, four workers whose summaries
# are merged); its status, stdout and stderr.
run() {
	(ulimit -v "$1" && SMTPCODE_WORKERS=$2 exec "$bin" --summary "$tmp/many.log") \
		> "$tmp/out" 2> "$tmp/err"
	status=$?
}

started=0 refused=0 shown=0
for kib in 4000 8000 12000 16000 24000 32000 48000 64000 96000 128000 256000; do
	# A limit too small for the command to start at all tells nothing.
	(ulimit -v "$kib" && exec "$bin" --summary /dev/null) > /dev/null 2>&1 || continue
	started=$((started + 1))
	for workers in 1 4; do
		run "$kib" "$workers"
		what="$kib KiB, $workers workers: status $status"
		case $status in
		0)
			shown=$((shown + 1))
			cmp -s "$tmp/out" "$tmp/whole" ||
				bad "$what, other counts: $(head -n 1 "$tmp/out"); $(grep -c '^        1 ' "$tmp/out") domains"
			[ -s "$tmp/err" ] && bad "$what, and on stderr: $(cat "$tmp/err")"
			;;
		2)
			refused=$((refused + 1))
			[ -s "$tmp/out" ] && bad "$what, and on stdout: $(head -n 3 "$tmp/out")"
			[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q '^smtpcode: .*memory' "$tmp/err" ||
				bad "$what, stderr not one line about memory: $(cat "$tmp/err")"
			;;
		*)
			bad "$what: $(cat "$tmp/err")"
			;;
		esac
	done
done
if [ "$started" -eq 0 ]; then
	echo "summary-memory: the command does not start under any limit tried; skipped"
	exit 77
fi
# Both ways were taken: the limits span the memory the summary needs.
[ "$refused" -gt 0 ] || bad "no limit made --summary run out of memory"
[ "$shown" -gt 0 ] || bad "no limit let --summary show its counts"

finish "$refused runs refused, $shown shown"
