#!/bin/sh
# What the modes that read files do with their input, through a shell
# (redirections the catalogue cannot make):
# - an input that is the output file is refused, as cat refuses it:
#   `smtpcode --annotate log >> log` would read its own output until the
#   disk is full; the other inputs are still read, and the exit status is 2;
# - every recipient of a DSN is a record, in every output format: a bounce
#   for 1000 addresses gives 1000 records, not the first 256.
# usage: mail-input.sh SMTPCODE
set -u
bin=$1
name=mail-input
. "$(dirname "$0")/lib.sh"
dir=$tmp

# $1 status, $2 stderr wanted (whole), $3 what was run
expect() {
	got=$(cat "$dir/err")
	if [ "$st" -eq "$1" ] && [ "$got" = "$2" ]; then
		ok
	else
		bad "$3: exit $st, stderr '$got'"
	fi
}

log=$dir/mail.log
other=$dir/other.log
msg=$dir/bounce.eml
line='May 19 09:05:11 mail postfix/smtp[123]: 4VhR2m0Qw3z7pX: to=<carol@example.net>, relay=none, delay=432000, dsn=4.4.1, status=expired, returned to sender'
printf '%s\n' "$line" >"$other"
printf '%s\n' "$line" >"$log"
printf 'From: MAILER-DAEMON@example.org\nSubject: Undelivered\nContent-Type: message/delivery-status\n\nFinal-Recipient: rfc822; x@example.com\nAction: failed\nStatus: 5.1.1\n' >"$msg"

# The input appended to, given by name and on standard input; then
# truncated by '>'; then a hard link of it.  The file is left as it was
# (--summary's tables of nothing aside, as for any input it cannot read).
refused="input file is output file (write the output to another file)"
for mode in --annotate --extract --summary --mail; do
	for fmt in "" --json; do
		# --annotate shows the lines themselves: it has no JSON.
		[ "$mode$fmt" = --annotate--json ] && continue
		input=$log
		[ "$mode" = --mail ] && input=$msg
		cp "$input" "$dir/before"
		# shellcheck disable=SC2086
		"$bin" $mode $fmt "$input" >>"$input" 2>"$dir/err"
		st=$?
		expect 2 "smtpcode: $input: $refused" "$mode $fmt FILE >> FILE"
		if [ "$mode" != --summary ]; then
			cmp -s "$input" "$dir/before" && ok ||
				bad "$mode $fmt FILE >> FILE changed the file"
		fi
		cp "$dir/before" "$input"
		# shellcheck disable=SC2086
		"$bin" $mode $fmt <"$input" >>"$input" 2>"$dir/err"
		st=$?
		expect 2 "smtpcode: (standard input): $refused" \
			"$mode $fmt < FILE >> FILE"
		cp "$dir/before" "$input"
		ln "$input" "$dir/link"
		# shellcheck disable=SC2086
		"$bin" $mode $fmt "$dir/link" >>"$input" 2>"$dir/err"
		st=$?
		expect 2 "smtpcode: $dir/link: $refused" "$mode $fmt LINK >> FILE"
		rm -f "$dir/link"
		cp "$dir/before" "$input"
		# shellcheck disable=SC2086
		"$bin" $mode $fmt "$input" >"$input" 2>"$dir/err"
		st=$?
		expect 2 "smtpcode: $input: $refused" "$mode $fmt FILE > FILE"
		cp "$dir/before" "$input"
	done
done

# The other inputs are still read; a different output file, /dev/null and
# a pipe are not refused.
"$bin" --extract "$log" "$other" >>"$log" 2>"$dir/err"
st=$?
expect 2 "smtpcode: $log: $refused" "--extract FILE OTHER >> FILE"
[ "$(grep -c 'carol@example.net 4.4.1' "$log")" -eq 1 ] && ok ||
	bad "--extract FILE OTHER >> FILE: OTHER's record missing"
printf '%s\n' "$line" >"$log"
"$bin" --extract "$log" >"$dir/out" 2>"$dir/err"
st=$?
expect 0 "" "--extract FILE > ANOTHER"
"$bin" --mail "$msg" >/dev/null 2>"$dir/err"
st=$?
expect 0 "" "--mail FILE > /dev/null"
n=$("$bin" --annotate <"$log" 2>"$dir/err" | grep -c 'carol@example.net')
[ "$n" -ge 1 ] && [ ! -s "$dir/err" ] && ok || bad "--annotate < FILE | grep"

# A DSN for 1000 addresses: 1000 records in each format, in order, and
# the count in the text's heading.
many=$dir/many.eml
{
	printf 'From: MAILER-DAEMON@example.org\nSubject: Undelivered Mail Returned to Sender\n'
	printf 'Content-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n'
	i=0
	while [ $i -lt 1000 ]; do
		printf '\nFinal-Recipient: rfc822; u%d@example.com\nAction: failed\nStatus: 5.1.1\n' $i
		i=$((i + 1))
	done
} >"$many"
"$bin" --mail --json "$many" >"$dir/out" 2>"$dir/err"
st=$?
n=$(grep -c '"recipient":"u[0-9]*@example.com"' "$dir/out")
last=$(tail -n 1 "$dir/out" | grep -c '"index":999,"recipient":"u999@example.com"')
[ "$st" -eq 0 ] && [ ! -s "$dir/err" ] && [ "$n" -eq 1000 ] && [ "$last" -eq 1 ] &&
	ok || bad "--mail --json: exit $st, $n records, last ok $last"
"$bin" --mail --tsv "$many" >"$dir/out" 2>"$dir/err"
st=$?
n=$(wc -l <"$dir/out")
last=$(tail -n 1 "$dir/out" | cut -f 2,3)
[ "$st" -eq 0 ] && [ ! -s "$dir/err" ] && [ "$n" -eq 1000 ] &&
	[ "$last" = "#999	u999@example.com" ] &&
	ok || bad "--mail --tsv: exit $st, $n records, last '$last'"
"$bin" --mail "$many" "$msg" >"$dir/out" 2>"$dir/err"
st=$?
n=$(grep -c '^Recipient [0-9]*: u[0-9]*@example.com$' "$dir/out")
[ "$st" -eq 0 ] && [ ! -s "$dir/err" ] && [ "$n" -eq 1000 ] &&
	grep -q "^$many: delivery status notification (RFC 3464), 1000 recipients$" "$dir/out" &&
	grep -q '^Recipient 1000: u999@example.com$' "$dir/out" &&
	grep -q '^Recipient 1: x@example.com$' "$dir/out" &&
	! grep -q 'not shown' "$dir/out" &&
	ok || bad "--mail text: exit $st, $n recipients"

finish
