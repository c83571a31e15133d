#!/bin/sh
# The Debian package: cpack -G DEB builds it; dpkg -i installs it; the
# installed command answers and its man page is found.  Needs root (it
# installs the package system-wide, then removes it).
# usage: deb.sh BUILD-DIR
set -u
build=$1
if [ "$(id -u)" -ne 0 ]; then
	echo "deb: skipped: installing a package needs root"
	exit 0
fi
fails=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$build" && cpack -G DEB -B "$tmp" >"$tmp/log" 2>&1) || { cat "$tmp/log"; bad "cpack -G DEB"; }
deb=$(ls "$tmp"/smtpcode_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] && ok || bad "no .deb built"
if [ -n "$deb" ]; then
	dpkg-deb -f "$deb" Depends | grep -q libc6 && ok || bad "Depends lacks libc6: $(dpkg-deb -f "$deb" Depends)"
	dpkg -i "$deb" >"$tmp/log" 2>&1 && ok || { cat "$tmp/log"; bad "dpkg -i"; }
	/usr/bin/smtpcode 4.3.1 | grep -q "Mail system full" && ok || bad "installed smtpcode 4.3.1"
	man -w smtpcode >/dev/null 2>&1 && ok || bad "man -w smtpcode"
	[ -f /usr/share/doc/smtpcode/copyright ] && ok || bad "copyright"
	dpkg -r smtpcode >/dev/null 2>&1 || bad "dpkg -r"
fi
echo "deb: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
