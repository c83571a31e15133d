#!/bin/sh
# Streams as scripts meet them: a reader that stops early ends smtpcode
# quietly (default SIGPIPE); a full disk or a closed stdout is an error on
# stderr with exit 2.
# usage: streams.sh SMTPCODE
set -u
bin=$1
err=$(mktemp)
trap 'rm -f "$err"' EXIT
fails=0
pass=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# An early reader: one line out, nothing on stderr.
lines=$("$bin" --list 2>"$err" | head -n 1 | wc -l)
[ "$lines" -eq 1 ] && [ ! -s "$err" ] && ok || bad "--list | head -1: $(cat "$err")"
lines=$("$bin" -j --list --provider all 2>"$err" | head -n 2 | wc -l)
[ "$lines" -eq 2 ] && [ ! -s "$err" ] && ok || bad "-j --list | head -2: $(cat "$err")"

# A full disk.
for args in "--list" "4.3.1" "-j 5.7.1" "--providers" "--help"; do
	# shellcheck disable=SC2086
	"$bin" $args >/dev/full 2>"$err"
	st=$?
	if [ "$st" -eq 2 ] && grep -q "^smtpcode: write error: No space left on device" "$err"; then
		ok
	else
		bad "$args >/dev/full: exit $st, $(cat "$err")"
	fi
done

# A closed stdout.
"$bin" 4.3.1 >&- 2>"$err"
st=$?
[ "$st" -eq 2 ] && grep -q "^smtpcode: write error" "$err" && ok ||
	bad "4.3.1 >&-: exit $st, $(cat "$err")"

# Output does not depend on the locale.
a=$(LC_ALL=C "$bin" -j 5.7.26 4.3.1)
b=$(LC_ALL=C.UTF-8 LANG=de_DE.UTF-8 "$bin" -j 5.7.26 4.3.1)
[ "$a" = "$b" ] && ok || bad "output differs between locales"

echo "streams: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
