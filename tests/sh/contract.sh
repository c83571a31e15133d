#!/bin/sh
# One contract for every mode (issue 22): every output option and the
# record filters, in every mode, as the man page's OPTIONS BY MODE table
# says.  The table is read from the page itself, so the page and the
# program cannot disagree: a "no" must be refused with one line on stderr
# and exit 2; a "yes" or "filter" must exit 0 or 1 with output of the
# option's shape (JSON Lines, TSV, one value, one line a result, nothing,
# a number, a subset of the unfiltered records).
# usage: contract.sh SMTPCODE MANPAGE
set -u
bin=$1
page=$2
name=contract
. "$(dirname "$0")/lib.sh"
top=$(dirname "$0")/..
log=$top/logs/postfix.log
mbox=$top/mail/bounces.mbox

# The table's rows: "mode;-j;-t;-f;-b;-q;-c;--color;-w;-p;filters".
sed -n '/^\.SH OPTIONS BY MODE/,/^\.TE/p' "$page" |
	sed -n '/^_$/,/^\.TE/p' | sed '1d;$d' | sed 's/\\-/-/g' >"$tmp/table"
[ "$(wc -l <"$tmp/table")" -eq 9 ] && ok ||
	bad "OPTIONS BY MODE has $(wc -l <"$tmp/table") rows, want 9"

# run NAME ARGS...: the command on the mode's input; $st, out, err.
run() {
	label=$1
	shift
	case $mode in
	lookup) set -- "$@" 4.3.1 ;;
	--stdin) set -- "$@" --stdin ;;
	--list) set -- "$@" --list '5.1.*' ;;
	--search) set -- "$@" --search mailbox full ;;
	--providers) set -- "$@" --providers ;;
	--mail) set -- "$@" --mail "$mbox" ;;
	--suppressions) set -- "$@" --suppressions "$log" "$mbox" ;;
	*) set -- "$@" "$mode" "$log" ;;
	esac
	printf '4.3.1\n' | "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
}

# refused OPTION...: exit 2, nothing on stdout, one line naming why.
refused() {
	run "$*" "$@"
	if [ "$st" -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 2 ] &&
		grep -q -e 'does not go with' -e 'selects records' "$tmp/err"; then
		ok
	else
		bad "$mode $*: want a refusal, got exit $st, stderr '$(head -c 200 "$tmp/err")'"
	fi
}

# works OPTION...: exit 0 or 1, no stderr; the shape is checked after.
works() {
	run "$*" "$@"
	if [ "$st" -le 1 ] && [ ! -s "$tmp/err" ]; then
		return 0
	fi
	bad "$mode $*: exit $st, stderr '$(head -c 200 "$tmp/err")'"
	return 1
}

shape() { # WHAT TEST: the output passes TEST (a shell command on out)
	if eval "$2"; then ok; else bad "$mode $1: output not of its shape: $(head -c 200 "$tmp/out")"; fi
}

# subset WHAT: what a filter selected is among the records shown without
# it (--summary's and --suppressions' are tables, not lines).
subset() {
	case $mode in
	--summary | --suppressions) ok ;;
	*) shape "$1" '[ -z "$(sort "$tmp/out" | comm -23 - "$tmp/plain")" ]' ;;
	esac
}

plain() { # the records without options, for the filters' subsets (a
	# line each: --mail's text view is not; its -b is)
	if [ "$mode" = --mail ]; then run plain -b; else run plain; fi
	sort "$tmp/out" >"$tmp/plain"
}

while IFS=';' read -r modes j t f b q c color w p filters; do
	for mode in $(echo "$modes" | tr ',' ' '); do
		[ "$mode" = lookup ] || [ "${mode#--}" != "$mode" ] ||
			{ bad "unknown mode '$mode' in the table"; continue; }
		plain
		# -j: each line is JSON.
		if [ "$j" = yes ]; then
			works -j && shape -j 'jq -e . "$tmp/out" >/dev/null'
		else refused -j; fi
		# -t: each line holds a tab.
		if [ "$t" = yes ]; then
			works -t && shape -t '! grep -qv "	" "$tmp/out"'
		else refused -t; fi
		# -f severity: one value a line, a word.
		if [ "$f" = yes ]; then
			works -f severity &&
				shape -f '! grep -qvE "^(success|temporary|permanent|-|)$" "$tmp/out"'
		else refused -f severity; fi
		# -b: one line a result, none indented as a full entry.
		if [ "$b" = yes ]; then
			works -b && shape -b '[ -s "$tmp/out" ] && ! grep -q "^  " "$tmp/out"'
		else refused -b; fi
		# -q: nothing at all; the status as without it.
		if [ "$q" = yes ]; then
			works -q && shape -q '[ ! -s "$tmp/out" ]'
		else refused -q; fi
		# -c: one number.
		if [ "$c" = yes ]; then
			works -c && shape -c '[ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -qE "^[0-9]+$" "$tmp/out"'
		else refused -c; fi
		# --color=always: accepted everywhere the table says.
		if [ "$color" = yes ]; then
			works --color=always && ok
		else refused --color=always; fi
		# -w 60: lines wrapped within 60 columns where it works.
		if [ "$w" = yes ]; then
			works -w 60 && ok
		else refused -w 60; fi
		# -p: a lookup's provider, or a filter: a subset of the records.
		case $p in
		yes) works -p gmail && ok ;;
		filter) works -p postfix && subset -p ;;
		*) refused -p gmail ;;
		esac
		# The filters: what they select is among what is shown without.
		if [ "$filters" = yes ]; then
			works --severity permanent && subset --severity
		else refused --severity permanent; fi
	done
done <"$tmp/table"

# Two modes at once, and no argument at all.
"$bin" --extract --summary "$log" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "two modes" "$tmp/err" && ok || bad "two modes not refused"
"$bin" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^usage: ' "$tmp/err" &&
	ok || bad "no arguments: want one usage line, exit 2"
# The filters' exit status, as grep's.
"$bin" --extract -q --severity permanent "$log" && ok ||
	bad "--extract -q --severity permanent: a permanent failure is there"
printf 'May  1 10:00:00 mx postfix/smtp[1]: 4V: to=<a@example.com>, relay=x[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=2.0.0, status=sent (250 2.0.0 Ok)\n' >"$tmp/sent.log"
"$bin" --extract -q --severity permanent "$tmp/sent.log"
[ $? -eq 1 ] && ok || bad "--extract -q --severity permanent: want 1 on a log of deliveries"
printf 'May  1 10:00:00 mx postfix/smtp[1]: 4V: to=<a@example.com>, relay=x[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=5.9.9, status=bounced (host said: 550 5.9.9 odd)\n' >"$tmp/odd.log"
"$bin" --extract "$tmp/odd.log" >/dev/null
[ $? -eq 1 ] && ok || bad "--extract: want 1 when the only code is not in the table"
finish
