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
	[ "$mode" = lookup ] || [ "$mode" = --stdin ] || [ "$mode" = --list ] ||
		[ "$mode" = --search ] &&
		{ ok; return; } # -p gmail, a lookup's provider
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

# The table's columns after the mode, in order: the option as given and
# the shape of its output (a shell test on $tmp/out; "subset" for a
# filter).  -p is tried as a lookup's provider (gmail) where it is "yes".
cat >"$tmp/columns" <<'COLUMNS'
-j|jq -e . "$tmp/out" >/dev/null
-t|! grep -qv "	" "$tmp/out"
-f severity|! grep -qvE "^(success|temporary|permanent|-|)$" "$tmp/out"
-b|[ -s "$tmp/out" ] && ! grep -q "^  " "$tmp/out"
-q|[ ! -s "$tmp/out" ]
-c|[ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -qE "^[0-9]+$" "$tmp/out"
--color=always|true
-w 60|true
-p postfix|subset
--severity permanent|subset
COLUMNS

while IFS=';' read -r modes cells; do
	for mode in $(echo "$modes" | tr ',' ' '); do
		[ "$mode" = lookup ] || [ "${mode#--}" != "$mode" ] ||
			{ bad "unknown mode '$mode' in the table"; continue; }
		plain
		rest=$cells
		while IFS='|' read -r option test; do
			cell=${rest%%;*}
			rest=${rest#*;}
			[ "$cell" = yes ] && [ "$option" = "-p postfix" ] && option="-p gmail"
			# shellcheck disable=SC2086
			case $cell in
			yes | filter)
				works $option || continue
				if [ "$test" = subset ]; then subset "$option"; else shape "$option" "$test"; fi
				;;
			*) refused $option ;;
			esac
		done <"$tmp/columns"
	done
done <"$tmp/table"

# Two modes at once, and no argument at all.
"$bin" --extract --summary "$log" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "two modes" "$tmp/err" && ok || bad "two modes not refused"
"$bin" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^usage: ' "$tmp/err" &&
	ok || bad "no arguments: want one usage line, exit 2"
# -c writes only the number: a format with it is refused.
"$bin" --extract -c -j "$log" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "does not go with -c" "$tmp/err" &&
	ok || bad "-c -j not refused"
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
