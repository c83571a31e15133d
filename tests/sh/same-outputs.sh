#!/bin/sh
# same-outputs.sh BIN GENLOG: every output of smtpcode BIN over the inputs
# of outputs.sh is the one accepted last (tests/outputs.txt).  A change
# meant to alter outputs regenerates that file and says why in its commit:
#     sh tests/sh/outputs.sh build/smtpcode build/genlog > tests/outputs.txt
# Lines for ../shared/corpus are compared only when that folder is there.
name=same-outputs
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
want=$src/tests/outputs.txt
sh "$src/tests/sh/outputs.sh" "$1" "$2" > "$tmp/got" || { bad "outputs.sh failed"; finish; }
if [ ! -d "$src/../shared/corpus/bounces" ]; then
	echo "$name: ../shared/corpus is absent: its bounces are not compared"
	grep -v '  shared/' "$want" > "$tmp/want"
else
	cp "$want" "$tmp/want"
fi
# Each line that differs names the mode and input whose output changed.
diff "$tmp/want" "$tmp/got" > "$tmp/diff"
if [ -s "$tmp/diff" ]; then
	grep '^[<>]' "$tmp/diff" | head -40
	bad "$(grep -c '^>' "$tmp/diff") outputs differ from tests/outputs.txt"
else
	ok
fi
finish
