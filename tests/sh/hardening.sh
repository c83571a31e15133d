#!/bin/sh
# The hardened build really carries its protections: PIE, full RELRO,
# stack protector, and fortified libc calls when linked with glibc
# (readelf on the built binary).
# usage: hardening.sh SMTPCODE
set -u
bin=$1
fails=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v readelf >/dev/null || { echo "hardening: needs readelf (apt-get install binutils)"; exit 1; }

readelf -h "$bin" | grep -q 'Type:.*DYN' && ok || bad "not a position-independent executable"
readelf -d "$bin" | grep -q 'FLAGS_1.*PIE' && ok || bad "no PIE flag"
readelf -lW "$bin" | grep -q 'GNU_RELRO' && ok || bad "no RELRO segment"
readelf -d "$bin" | grep -Eq 'BIND_NOW|FLAGS.*NOW' && ok || bad "not bound now (partial RELRO)"
readelf -sW "$bin" | grep -q '__stack_chk_fail' && ok || bad "no stack protector"
if readelf -d "$bin" | grep -q 'NEEDED'; then
	# Linked with the system's C library: its fortified calls.
	readelf -sW --dyn-syms "$bin" | grep -Eq '__(mem[a-z]*|read|[a-z]*printf)_chk' &&
		ok || bad "no fortified calls"
else
	# The static PIE with musl (CMakeLists.txt): musl has no
	# _FORTIFY_SOURCE; nothing may be left for a dynamic loader.
	readelf -lW "$bin" | grep -q 'INTERP' && bad "static PIE names an interpreter" || ok
	readelf -d "$bin" | grep -q 'FLAGS.*NOW' && ok || bad "static PIE not bound now"
fi
readelf -lW "$bin" | grep 'GNU_STACK' | grep -q 'RW ' && ok || bad "executable stack"

echo "hardening: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
