#!/bin/sh
# A libFuzzer smoke run of every fuzz target, for CI: builds each target
# with clang -fsanitize=fuzzer,address,undefined into a temporary
# directory, runs it for SECONDS (default 60) over a copy of its corpus
# with its dictionary, and fails if any target finds a crash, a leak, a
# timeout or a broken invariant.  Prints the executions of each target.
#
# usage: fuzz/smoke.sh [SECONDS]
# environment: CC (default clang), FUZZ_TARGETS (default: all),
#              FUZZ_KEEP=1 keeps the temporary directory,
#              FUZZ_FLAGS: more libFuzzer flags (-jobs=1 -workers=1 ...)
# Needs clang and its runtime (Debian: clang libclang-rt-14-dev).
set -eu

secs=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
cc=${CC:-clang}
targets=${FUZZ_TARGETS:-"code reply logline mail pattern json gentable probe_reply"}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smtpcode-fuzz.XXXXXX")
keep=${FUZZ_KEEP:-0}
# shellcheck disable=SC2317 # called by the trap
cleanup() { [ "$keep" = 1 ] || rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

cd "$root"
# The library's folders (src/README.md), all but the command's and the
# probe's (a program of its own, with c-ares, OpenSSL and a main()).
libdirs=$(find src -mindepth 1 -maxdepth 1 -type d ! -name cli ! -name probe | sort)
base="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Iinclude $(printf -- '-I%s ' $libdirs)"
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

# The table: the generator, built plainly, over the data files in the
# order CMakeLists.txt gives them (comment lines skipped).
data=$(find data -mindepth 2 -name '*.txt' | LC_ALL=C sort)
[ -n "$data" ] || { echo "smoke: no data files found under data/" >&2; exit 2; }
# The generator's files but its main.c (which the gentable target's
# fuzz_gentable.c includes): every one in the folder, as CMakeLists.txt
# lists them, so that a new one is not forgotten here.
gentable_sources=$(find tools/gentable -name '*.c' ! -name main.c | LC_ALL=C sort | tr '\n' ' ')
# shellcheck disable=SC2086
$cc $base -Itools/gentable -o "$tmp/gentable" tools/gentable/main.c \
	$gentable_sources src/core/parse.c src/core/vocab.c src/util/utf8.c \
	src/util/datafmt.c
# shellcheck disable=SC2086
"$tmp/gentable" "$tmp/table.c" data/DATE $data

# The library, instrumented for coverage and the sanitizers, once.
mkdir -p "$tmp/lib"
for f in $(find $libdirs -name '*.c' | sort) "$tmp/table.c"; do
	# shellcheck disable=SC2086
	$cc $base $san -fsanitize=fuzzer-no-link -Wno-overlength-strings \
		-c "$f" -o "$tmp/lib/$(basename "$f" .c).o"
done

# Extra sources and flags per target.
extra() {
	case $1 in
	json) echo "-Isrc/cli src/cli/render_json.c src/cli/fields.c src/cli/format.c src/cli/rules.c" ;;
	gentable) echo "-Itools/gentable $gentable_sources" ;;
	probe_reply) echo "-Isrc/probe src/probe/reply.c" ;;
	*) echo "" ;;
	esac
}

# Longest input tried: a reply or a log line is short, a bounce is not.
max_len() {
	case $1 in
	code | pattern) echo 512 ;;
	reply | logline | json) echo 4096 ;;
	*) echo 16384 ;;
	esac
}

status=0
printf '%-10s %12s %10s  %s\n' target execs exec/s result
for t in $targets; do
	mkdir -p "$tmp/corpus/$t" "$tmp/artifacts/$t"
	cp fuzz/corpus/"$t"/* "$tmp/corpus/$t/"
	if [ "$t" = gentable ]; then
		# The generator's objects, not the library's table and lookups.
		objs="$tmp/lib/parse.o $tmp/lib/vocab.o $tmp/lib/utf8.o $tmp/lib/datafmt.o"
	elif [ "$t" = probe_reply ]; then
		# The reply reader alone (extra() gives it): no library.
		objs=""
	else
		objs=$(ls "$tmp"/lib/*.o)
	fi
	# shellcheck disable=SC2046,SC2086 # word splitting wanted
	# (jansson: the library reads the JSON event streams with it)
	$cc $base $san -fsanitize=fuzzer -Ifuzz $(extra "$t") \
		-o "$tmp/fuzz_$t" fuzz/fuzz_"$t".c $objs -ljansson
	set +e
	# shellcheck disable=SC2086
	"$tmp/fuzz_$t" -max_total_time="$secs" -max_len="$(max_len "$t")" \
		-timeout=10 -rss_limit_mb=2048 \
		-dict=fuzz/"$t".dict -artifact_prefix="$tmp/artifacts/$t/" \
		-print_final_stats=1 ${FUZZ_FLAGS:-} "$tmp/corpus/$t" \
		>"$tmp/$t.log" 2>&1
	rc=$?
	set -e
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$tmp/$t.log" | tail -1)
	if [ "$rc" = 0 ]; then
		result=ok
	else
		result="FAILED (exit $rc)"
		status=1
		keep=1
	fi
	printf '%-10s %12s %10s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$result"
	if [ "$rc" != 0 ]; then
		grep -E 'ERROR|invariant broken|SUMMARY|Test unit written' \
			"$tmp/$t.log" | head -20 | sed 's/^/    /'
	fi
done
if [ "$status" != 0 ]; then
	echo "smoke: failures; logs and reproducers kept in $tmp" >&2
	echo "smoke: minimise with: $tmp/fuzz_NAME -minimize_crash=1 -runs=100000 CRASHFILE" >&2
elif [ "$keep" = 1 ]; then
	echo "smoke: targets, logs and corpora kept in $tmp"
fi
exit "$status"
