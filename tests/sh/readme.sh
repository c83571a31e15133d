#!/bin/sh
# The README's recipes work as printed: each ```sh block under "## Recipes"
# is run, and its output must equal the ```text block that follows it;
# the library example is built and run.
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

# The library example (the ```c block under "## Use the library") builds
# against this build's shared library and answers as the README says.
# A sanitizer build's library needs its runtime: the example is left out.
dir=$(cd "$(dirname "$bin")" && pwd)
want=4 # the three recipes and the example
awk '/^## / { on = ($0 == "## Use the library") }
	on && /^```c$/ { p = 1; next } p && /^```$/ { exit } p' "$readme" >"$tmp/prog.c"
if [ ! -s "$tmp/prog.c" ]; then
	echo "FAIL: no library example"; fails=$((fails + 1))
elif nm -D "$dir/libsmtpcode.so" 2>/dev/null | grep -q __asan; then
	echo "readme: the library example is not built against a sanitizer build"
	want=3
elif cc -std=c11 -Wall -Werror -I "$(dirname "$readme")/include" -o "$tmp/prog" \
	"$tmp/prog.c" -L "$dir" -lsmtpcode -Wl,-rpath,"$dir" 2>"$tmp/cc.err" &&
	[ "$("$tmp/prog" 5.1.1)" = "Bad destination mailbox address: drop" ] &&
	[ "$("$tmp/prog" 4.3.1)" = "Mail system full: keep" ]; then
	pass=$((pass + 1))
else
	echo "FAIL: the library example:"; cat "$tmp/cc.err"
	"$tmp/prog" 5.1.1; "$tmp/prog" 4.3.1
	fails=$((fails + 1))
fi
[ "$pass" -ge "$want" ] || { echo "FAIL: $pass passed, want $want"; fails=$((fails + 1)); }
echo "readme: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
