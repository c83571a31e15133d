#!/bin/sh
# The man page and --help stay in step: the same long options, and the
# man page documents every JSON key the program writes, a lookup's and a
# record's.
# usage: manpage.sh SMTPCODE MANPAGE
set -u
bin=$1
page=$2
fails=0
pass=0

help_opts=$("$bin" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
page_opts=$(grep -o -- '\\-\\-[a-z][a-z\\-]*' "$page" | sed 's/\\//g' | sort -u)
for o in $help_opts; do
	echo "$page_opts" | grep -qx -- "$o" && pass=$((pass + 1)) ||
		{ echo "FAIL: $o is in --help but not in $page"; fails=$((fails + 1)); }
done
for o in $page_opts; do
	[ "$o" = "--" ] && continue
	echo "$help_opts" | grep -qx -- "$o" && pass=$((pass + 1)) ||
		{ echo "FAIL: $o is in $page but not in --help"; fails=$((fails + 1)); }
done

for section in NAME SYNOPSIS DESCRIPTION OPTIONS "JSON OUTPUT" "EXIT STATUS" EXAMPLES "SEE ALSO"; do
	grep -q "^\.SH \"*$section\"*\$" "$page" && pass=$((pass + 1)) ||
		{ echo "FAIL: no section $section"; fails=$((fails + 1)); }
done

keys=$("$bin" -j 4.3.1 | jq -r 'keys_unsorted[]')
json_section=$(sed -n '/^\.SH JSON OUTPUT/,/^\.SH EXIT STATUS/p' "$page")
for k in $keys; do
	echo "$json_section" | grep -q "^\.B $k\$" && pass=$((pass + 1)) ||
		{ echo "FAIL: JSON key $k is not documented"; fails=$((fails + 1)); }
done

# Every key of a record (src/cli/record_fields.def; the verdict's are
# among the lookup's above), from the program, in the same section.
log=$(dirname "$0")/../logs/sample.log
record_keys=$("$bin" --extract --json "$log" | head -n 1 | jq -r 'keys_unsorted[]')
[ -n "$record_keys" ] && pass=$((pass + 1)) ||
	{ echo "FAIL: no record from $log"; fails=$((fails + 1)); }
for k in $record_keys; do
	echo "$json_section" | grep -Eq "^\.BR? $k( ,)?\$" && pass=$((pass + 1)) ||
		{ echo "FAIL: record key $k is not documented"; fails=$((fails + 1)); }
done

if command -v groff >/dev/null; then
	w=$(groff -man -ww -z "$page" 2>&1)
	[ -z "$w" ] && pass=$((pass + 1)) ||
		{ echo "FAIL: groff warns: $w"; fails=$((fails + 1)); }
fi

echo "manpage: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
