#!/bin/sh
# Installing: cmake --install puts every piece where its ecosystem looks,
# and the example builds against the installed tree both with pkg-config
# and with find_package, and runs.
# usage: install.sh BUILD-DIR SOURCE-DIR
set -u
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fails=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

cmake --install "$build" --prefix "$prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; bad "cmake --install"; }
libdir=$(cd "$prefix" && ls -d lib*/ | head -n 1)
libdir=${libdir%/}
for f in bin/smtpcode include/smtpcode.h "$libdir/libsmtpcode.a" \
	"$libdir/libsmtpcode.so" "$libdir/libsmtpcode.so.0" \
	"$libdir/pkgconfig/smtpcode.pc" "$libdir/cmake/smtpcode/smtpcodeConfig.cmake" \
	share/man/man1/smtpcode.1 share/bash-completion/completions/smtpcode \
	share/zsh/vendor-completions/_smtpcode \
	share/fish/vendor_completions.d/smtpcode.fish share/doc/smtpcode/copyright; do
	[ -e "$prefix/$f" ] && ok || bad "not installed: $f"
done
"$prefix/bin/smtpcode" 4.3.1 | grep -q "Mail system full" && ok || bad "installed smtpcode 4.3.1"

# The shared library exports the API and nothing else.
if nm -D --defined-only "$prefix/$libdir/libsmtpcode.so" | awk '{print $3}' | grep -v -E -e '^smtpcode_' -e '^SMTPCODE_0(\.[0-9]+)?$' | grep -q .; then
	bad "libsmtpcode.so exports more than smtpcode_*"
else
	ok
fi

want="4.3.1 temporary: retry (Mail system full)"
# pkg-config
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
if command -v pkg-config >/dev/null; then
	# shellcheck disable=SC2046
	cc -o "$tmp/classify-pc" "$src/examples/classify.c" $(pkg-config --cflags --libs smtpcode) &&
		out=$(echo "452 4.3.1 Insufficient system storage" |
			LD_LIBRARY_PATH="$prefix/$libdir" "$tmp/classify-pc") &&
		[ "$out" = "$want" ] && ok || bad "example with pkg-config: $out"
else
	bad "pkg-config is not installed (apt-get install pkgconf)"
fi
# find_package
cmake -S "$src/examples" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/log" 2>&1 &&
	cmake --build "$tmp/ex" >>"$tmp/log" 2>&1 &&
	out=$(echo "550 5.1.1 no such user" | LD_LIBRARY_PATH="$prefix/$libdir" "$tmp/ex/classify") &&
	[ "$out" = "5.1.1 permanent: drop the address (Bad destination mailbox address)" ] &&
	ok || { cat "$tmp/log"; bad "example with find_package: ${out:-}"; }

echo "install: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
