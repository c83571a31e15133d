#!/bin/sh
# The README's recipes work as printed: each ```sh block under "## Recipes"
# is run, and its output must equal the ```text block that follows it.
# usage: readme.sh SMTPCODE README
set -u
bin=$1
readme=$2
PATH=$(dirname "$bin"):$PATH
export PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Split the recipes into tmp/N.sh and tmp/N.txt.
awk -v dir="$tmp" '
	/^## / { inrecipes = ($0 == "## Recipes") }
	inrecipes && /^```sh$/ { n++; out = dir "/" n ".sh"; next }
	inrecipes && /^```text$/ { out = dir "/" n ".txt"; next }
	/^```$/ { out = ""; next }
	out != "" { print > out }
' "$readme"

fails=0
pass=0
for script in "$tmp"/*.sh; do
	want=${script%.sh}.txt
	got=$(sh "$script" 2>&1)
	if [ -f "$want" ] && [ "$got" = "$(cat "$want")" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: recipe $(basename "$script"):"; cat "$script"
		echo "printed:"; echo "$got"
		fails=$((fails + 1))
	fi
done
[ "$pass" -ge 3 ] || { echo "FAIL: found $pass recipes, want 3"; fails=$((fails + 1)); }
echo "readme: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
