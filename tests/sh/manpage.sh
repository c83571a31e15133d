#!/bin/sh
# The man page: the same long options as --help, every JSON key the
# program writes documented, no lint warning (mandoc, groff), and each
# command of EXAMPLES run as the page renders it (copied from `man -l`).
# usage: manpage.sh SMTPCODE MANPAGE
set -u
bin=$1
page=$2
name=manpage
. "$(dirname "$0")/lib.sh"
tests=$(cd "$(dirname "$0")/.." && pwd)
skipped=0

# The options of issue 22 that the page documents before the program may
# have them: each is checked against --help once --help names it, and an
# example using it runs then.
pending="--suppressions --severity --scope --reason --suppress --domain --count"
help=$("$bin" --help)
has() { echo "$help" | grep -q -- "$1\\b"; }

# opts: the long options a text names (page_opts: as the page writes them).
opts() { grep -o -- '--[a-z][a-z-]*' | sort -u; }
page_opts() { sed 's/\\-/-/g' | opts; }
help_opts=$(echo "$help" | opts)
page_opts=$(page_opts <"$page")
# The probe's options (PROBING A SERVER) are smtpcode-probe's, which
# smtpcode --probe runs: they are checked against its --help, where it
# was built (beside smtpcode, where --probe finds it).
probe_bin=$(dirname "$bin")/smtpcode-probe
probe_opts=$(sed -n '/^\.SH "PROBING A SERVER"/,/^\.SH /p' "$page" | page_opts)
[ -n "$probe_opts" ] && ok || bad "no options in PROBING A SERVER"
for o in $help_opts; do
	echo "$page_opts" | grep -qx -- "$o" && ok ||
		bad "$o is in --help but not in $page"
done
for o in $page_opts; do
	[ "$o" = "--" ] && continue
	if echo "$help_opts" | grep -qx -- "$o"; then
		ok
	elif echo "$probe_opts" | grep -qx -- "$o"; then
		ok # (checked against the probe's --help below)
	elif echo " $pending " | grep -q -- " $o "; then
		skipped=$((skipped + 1))
	else
		bad "$o is in $page but not in --help"
	fi
done

if [ -x "$probe_bin" ]; then
	probe_help=$("$probe_bin" --help | opts)
	for o in $probe_help; do
		echo "$probe_opts" | grep -qx -- "$o" && ok ||
			bad "$o is in smtpcode-probe --help but not in PROBING A SERVER"
	done
	for o in $probe_opts; do
		[ "$o" = --probe ] && continue
		echo "$probe_help" | grep -qx -- "$o" && ok ||
			bad "$o is in PROBING A SERVER but not in smtpcode-probe --help"
	done
else
	echo "the probe's options not checked: $probe_bin was not built"
	skipped=$((skipped + 1))
fi

for section in NAME SYNOPSIS DESCRIPTION OPTIONS "OPTIONS BY MODE" SUPPRESSIONS "PROBING A SERVER" "JSON OUTPUT" "EXIT STATUS" EXAMPLES "SEE ALSO"; do
	grep -q "^\.SH \"*$section\"*\$" "$page" && ok || bad "no section $section"
done

keys=$("$bin" -j 4.3.1 | jq -r 'keys_unsorted[]')
json_section=$(sed -n '/^\.SH JSON OUTPUT/,/^\.SH EXIT STATUS/p' "$page")
for k in $keys; do
	echo "$json_section" | grep -q "^\.B $k\$" && ok ||
		bad "JSON key $k is not documented"
done

# Every key of a record (src/cli/record_fields.def; the verdict's are
# among the lookup's above), from the program, in the same section.
log=$tests/logs/sample.log
record_keys=$("$bin" --extract --json "$log" | head -n 1 | jq -r 'keys_unsorted[]')
[ -n "$record_keys" ] && ok || bad "no record from $log"
for k in $record_keys; do
	echo "$json_section" | grep -Eq "^\.BR? $k( ,)?\$" && ok ||
		bad "record key $k is not documented"
done

# Lint: both must be silent (the README's test command installs mandoc
# and man-db, which brings groff).
if command -v mandoc >/dev/null; then
	w=$(mandoc -T lint -W warning "$page" 2>&1)
	[ -z "$w" ] && ok || bad "mandoc -T lint warns: $w"
else
	bad "mandoc is not installed (apt-get install mandoc)"
fi
if command -v groff >/dev/null; then
	w=$(groff -t -man -ww -z "$page" 2>&1)
	[ -z "$w" ] && ok || bad "groff warns: $w"
else
	bad "groff is not installed (apt-get install man-db)"
fi

# The page as a reader sees it, wide enough that no example wraps.
command -v man >/dev/null || { bad "man is not installed (apt-get install man-db)"; finish; }
MANWIDTH=300 LC_ALL=C.UTF-8 MANPAGER=cat PAGER=cat man -l "$page" 2>"$tmp/man.err" |
	col -bx >"$tmp/page.txt"
[ -s "$tmp/page.txt" ] && [ ! -s "$tmp/man.err" ] && ok ||
	bad "man -l $page: $(cat "$tmp/man.err")"
grep -qF "awk -F'\\t' '\$2 == \"permanent\"'" "$tmp/page.txt" && ok ||
	bad "the awk example does not render with its quotes: $(grep awk "$tmp/page.txt")"

# EXAMPLES: a command is the lines indented past the text (14 columns),
# up to a blank line; tmp/ex.N holds the Nth.
awk -v dir="$tmp" '
	/^EXAMPLES$/ { on = 1; next }
	/^[A-Z]/ { on = 0 }
	!on { next }
	/^              [^ ]/ { if (!cmd) { n++; cmd = 1 }
		sub(/^              /, ""); print > (dir "/ex." n); next }
	{ cmd = 0 }
' "$tmp/page.txt"

# Where the examples run: a mail log, a Maildir and a compressed mbox
# from tests/, the README recipe's list of codes, a $reply, an alert.
w=$tmp/work
mkdir -p "$w/home"
cp "$tests/logs/postfix.log" "$w/mail.log"
cp -R "$tests/mail/maildir" "$w/home/Maildir"
gzip -c "$tests/mail/bounces.mbox" >"$w/bounces.mbox.gz"
printf '%s\n' 4.3.1 5.1.1 550 5.7.26 4.2.2 >"$w/codes.txt"
cat >"$w/prelude.sh" <<'EOF'
reply='550 5.1.1 <ivy@example.com>: Recipient address rejected: User unknown'
alert() { echo alert; }
EOF
PATH=$(cd "$(dirname "$bin")" && pwd):$PATH
export PATH

# What each example must do: a start of its command that no other
# example's shares; the options it needs (a pending one missing from
# --help skips it; "network": it asks servers on the network, and is
# not run, but its options must be the probe's); its exit status; a
# fragment of its output ("=TEXT": the whole output); a command whose
# output is checked instead.
cat >"$tmp/want" <<'EOF'
smtpcode "452 4.3.1|-|0|Mail system full|
case $(smtpcode -f suppress|-|0|=drop|
smtpcode --stdin -t < codes.txt|-|0|=3|
smtpcode --tsv --list|-|0|5.7.26	permanent	sender|
grep status=deferred|-|0|4.2.2 temporary (mailbox)|
smtpcode --summary|-|0|By code|
smtpcode --extract -q --severity|--severity|0|=alert|
smtpcode --extract -c --severity|--severity --domain --count|0|=4|
smtpcode --mail ~/Maildir/new/*|-|0|Recipient 1:|
smtpcode --mail --json ~/Maildir bounces.mbox.gz|-|0|bounces.mbox.gz	|
smtpcode --suppressions -j|--suppressions|0|ivy@example.com|
smtpcode --suppressions /var/log/mail.log ~/Maildir >|--suppressions|0|address,action,reason,code,count,first_seen,last_seen|cat suppressions.csv
smtpcode --probe --rcpt|network|-|-|
smtpcode --probe --watch|network|-|-|
EOF

found=0
for ex in "$tmp"/ex.*; do
	[ -f "$ex" ] || continue
	found=$((found + 1))
	orig=$(cat "$ex")
	cmd=$(sed "s|/var/log/mail.log|$w/mail.log|g" "$ex")
	row=$(while IFS='|' read -r start needs status want after; do
		case $orig in "$start"*) echo "$start|$needs|$status|$want|$after" ;; esac
	done <"$tmp/want")
	if [ -z "$row" ]; then
		bad "example with no row in manpage.sh's table: $orig"
		continue
	fi
	IFS='|' read -r start needs status want after <<-EOF
	$row
	EOF
	if [ "$needs" = network ]; then
		# (tests/sh/probe.sh runs the probe, against servers on loopback)
		for o in $(echo "$orig" | opts); do
			[ "$o" = --probe ] && continue
			echo "$probe_opts" | grep -qx -- "$o" && ok ||
				bad "example: $o is not in PROBING A SERVER: $orig"
		done
		echo "not run (it asks servers on the network): $orig"
		continue
	fi
	missing=
	for o in $needs; do
		[ "$o" = - ] || has "$o" || missing="$missing $o"
	done
	if [ -n "$missing" ]; then
		echo "skipped (--help lacks$missing): $orig"
		skipped=$((skipped + 1))
		continue
	fi
	out=$(cd "$w" && HOME=$w/home sh -c ". ./prelude.sh; $cmd" 2>&1)
	rc=$?
	[ -n "$after" ] && out=$(cd "$w" && sh -c "$after" 2>&1)
	case $want in
	=*) [ "$out" = "${want#=}" ] ;;
	*) case $out in *"$want"*) true ;; *) false ;; esac ;;
	esac
	matched=$?
	if [ "$rc" -eq "$status" ] && [ "$matched" -eq 0 ]; then
		ok
	else
		bad "example (status $rc, want $status; want output ${want}): $cmd
$(echo "$out" | head -n 5)"
	fi
done
want_n=$(wc -l <"$tmp/want")
[ "$found" -eq "$want_n" ] && ok ||
	bad "EXAMPLES has $found commands, the table here $want_n"

finish "$skipped skipped"
