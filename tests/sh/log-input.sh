#!/bin/sh
# How the log modes take their input: a pipe is answered line by line, as
# its lines come (`tail -F mail.log | smtpcode --annotate`); gzip data,
# told by its magic bytes, are read as the log they inflate to, from a
# file or standard input; a binary file is skipped with one line on
# stderr and exit status 2.
# usage: log-input.sh SMTPCODE LOGS (tests/logs)
set -u
bin=$1
logs=$2
name=log-input
. "$(dirname "$0")/lib.sh"

# The seconds a record may take to come out after its line was written:
# far more than it takes (milliseconds), so that a slow machine does not
# fail the test, and still an end to the wait.
limit=20

# wait_for FILE N: until FILE holds N lines, or the limit passes (1).
wait_for() {
	tries=$((limit * 20))
	while [ "$(wc -l < "$1")" -lt "$2" ]; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.05
	done
}

# live WORKERS LINES-PER-RECORD ARGS...: the first lines of sample.log
# written into a FIFO one at a time, each only once the output of the one
# before has come out: a line whose output does not come within the limit
# fails the test (the next one is never written).  Then the input ends:
# the command must end with status 0, its output as from the file.
live() {
	workers=$1
	per=$2
	shift 2
	rm -f "$tmp/fifo" "$tmp/out" "$tmp/err"
	mkfifo "$tmp/fifo" || { bad "mkfifo"; return; }
	: > "$tmp/out"
	SMTPCODE_WORKERS=$workers "$bin" "$@" < "$tmp/fifo" > "$tmp/out" 2> "$tmp/err" &
	pid=$!
	exec 3> "$tmp/fifo"
	n=0
	head -n 5 "$logs/sample.log" > "$tmp/lines"
	while IFS= read -r line; do
		printf '%s\n' "$line" >&3
		n=$((n + 1))
		if ! wait_for "$tmp/out" $((n * per)); then
			bad "$* (workers $workers): the output of line $n did not come within ${limit}s of it: $(cat "$tmp/out" "$tmp/err")"
			break
		fi
		# Only this line's: nothing was held back, nothing came twice.
		[ "$(wc -l < "$tmp/out")" -eq $((n * per)) ] && ok ||
			bad "$* (workers $workers): $(wc -l < "$tmp/out") lines out after $n lines in"
	done < "$tmp/lines"
	exec 3>&-
	tries=$((limit * 20))
	while kill -0 "$pid" 2>/dev/null && [ "$tries" -gt 0 ]; do
		tries=$((tries - 1))
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid"
		bad "$* (workers $workers): still running ${limit}s after its input ended"
	fi
	wait "$pid"
	st=$?
	SMTPCODE_WORKERS=$workers "$bin" "$@" < "$tmp/lines" > "$tmp/want"
	if [ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/out" "$tmp/want"; then
		ok
	else
		bad "$* (workers $workers): exit $st, $(cat "$tmp/err"), output differs from the file's: $(diff "$tmp/want" "$tmp/out")"
	fi
}

for w in 1 2; do
	live $w 1 --extract
	live $w 1 --extract --json
	live $w 2 --annotate
done

# gzip data: the same records as the plain log, whatever the name.
cat "$logs/sample.log" "$logs/courier.log" > "$tmp/plain.log"
gzip -c "$tmp/plain.log" > "$tmp/mail.log.2.gz"
mkdir "$tmp/gz"
cp "$tmp/mail.log.2.gz" "$tmp/gz/plain.log" # by its bytes, not its name
for mode in --extract --annotate --summary "--extract --json" "--summary --json"; do
	# shellcheck disable=SC2086
	"$bin" $mode "$tmp/plain.log" > "$tmp/want" 2>&1
	# shellcheck disable=SC2086
	"$bin" $mode "$tmp/mail.log.2.gz" 2>&1 | sed "s|$tmp/mail.log.2.gz|$tmp/plain.log|g" > "$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" && ok || bad "$mode mail.log.2.gz: $(diff "$tmp/want" "$tmp/got")"
	# shellcheck disable=SC2086
	(cd "$tmp/gz" && "$bin" $mode plain.log) > "$tmp/got" 2>&1
	# shellcheck disable=SC2086
	(cd "$tmp" && "$bin" $mode plain.log) > "$tmp/want" 2>&1
	cmp -s "$tmp/want" "$tmp/got" && ok || bad "$mode gzip data named plain.log: $(diff "$tmp/want" "$tmp/got")"
	# shellcheck disable=SC2086
	"$bin" $mode < "$tmp/plain.log" > "$tmp/want" 2>&1
	# shellcheck disable=SC2086
	"$bin" $mode < "$tmp/mail.log.2.gz" > "$tmp/got" 2>&1
	cmp -s "$tmp/want" "$tmp/got" && ok || bad "$mode < mail.log.2.gz: $(diff "$tmp/want" "$tmp/got")"
	# shellcheck disable=SC2086
	gzip -c "$tmp/plain.log" | SMTPCODE_WORKERS=1 "$bin" $mode > "$tmp/got" 2>&1
	cmp -s "$tmp/want" "$tmp/got" && ok || bad "gzip | $mode (one thread): $(diff "$tmp/want" "$tmp/got")"
done
[ "$("$bin" --extract "$tmp/plain.log" | wc -l)" -ge 10 ] && ok ||
	bad "the plain log gives fewer than 10 records"

# Members one after another, as gunzip(1) reads them.
gzip -c "$logs/sample.log" > "$tmp/two.gz"
gzip -c "$logs/courier.log" >> "$tmp/two.gz"
"$bin" --extract < "$tmp/plain.log" > "$tmp/want"
"$bin" --extract < "$tmp/two.gz" > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" && ok || bad "two gzip members: $(diff "$tmp/want" "$tmp/got")"

# Truncated gzip data: the records before the cut, then the error, exit 2.
size=$(wc -c < "$tmp/mail.log.2.gz")
head -c $((size - 10)) "$tmp/mail.log.2.gz" > "$tmp/cut.gz"
"$bin" --extract "$tmp/cut.gz" > "$tmp/out" 2> "$tmp/err"
st=$?
[ "$st" -eq 2 ] && [ "$(cat "$tmp/err")" = "smtpcode: $tmp/cut.gz: truncated gzip data" ] && ok ||
	bad "truncated gzip: exit $st, $(cat "$tmp/err")"

# A binary file: one line on stderr, no output, exit 2; the other files
# are still read.
"$bin" --extract "$bin" > "$tmp/out" 2> "$tmp/err"
st=$?
[ "$st" -eq 2 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "smtpcode: $bin: binary file, skipped" ] && ok ||
	bad "--extract SMTPCODE: exit $st, $(head -c 300 "$tmp/out") $(cat "$tmp/err")"
for w in 1 2; do
	SMTPCODE_WORKERS=$w "$bin" --annotate "$bin" "$logs/sample.log" > "$tmp/out" 2> "$tmp/err"
	st=$?
	"$bin" --annotate "$logs/sample.log" > "$tmp/want"
	[ "$st" -eq 2 ] && cmp -s "$tmp/out" "$tmp/want" &&
		[ "$(cat "$tmp/err")" = "smtpcode: $bin: binary file, skipped" ] && ok ||
		bad "--annotate SMTPCODE sample.log (workers $w): exit $st, $(cat "$tmp/err")"
done
"$bin" --summary < "$bin" > "$tmp/out" 2> "$tmp/err"
st=$?
[ "$st" -eq 2 ] && grep -q "^Lines: 0 read" "$tmp/out" &&
	[ "$(cat "$tmp/err")" = "smtpcode: (standard input): binary file, skipped" ] && ok ||
	bad "--summary < SMTPCODE: exit $st, $(cat "$tmp/err")"
# Compressed, it is binary still: what is looked at is what it inflates to.
gzip -c "$bin" > "$tmp/prog.gz"
"$bin" --extract "$tmp/prog.gz" > "$tmp/out" 2> "$tmp/err"
st=$?
[ "$st" -eq 2 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "smtpcode: $tmp/prog.gz: binary file, skipped" ] && ok ||
	bad "--extract prog.gz: exit $st, $(cat "$tmp/err")"

finish
