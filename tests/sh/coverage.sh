#!/bin/sh
# Coverage of the library and the command by the whole test suite.
#
#   sh tests/sh/coverage.sh SOURCE-DIR [BUILD-DIR]
#
# Configures a separate build of SOURCE-DIR with --coverage (in BUILD-DIR,
# kept, or else in a temporary directory, removed), zeroes the counters
# that the build itself left (the generator runs at build time, and that
# is not a test), runs the whole ctest suite there, and has gcovr measure
# src/ (the library and src/cli/; the generated table.c lies in the build
# directory and is not counted).  Fails below 90% of lines or 80% of
# branches, printing both figures.  Also prints the generator's figures
# (tools/gentable/, check.c on its own: its validation paths, reached only
# by the bad-data tests), which are reported, not judged.
#
# Test failures in the coverage build are reported but do not fail this
# script: each test reports itself in the ordinary build.  Exit 77 (which
# ctest counts as skipped) when gcovr is missing or when run from the
# coverage build's own ctest.
set -eu

LINES_MIN=90
BRANCHES_MIN=80

if [ $# -lt 1 ] || [ ! -f "$1/CMakeLists.txt" ]; then
	echo "usage: sh tests/sh/coverage.sh SOURCE-DIR [BUILD-DIR]" >&2
	exit 2
fi
if [ -n "${SMTPCODE_COVERAGE_BUILD:-}" ]; then
	echo "coverage: skipped inside the coverage build itself"
	exit 77
fi
if ! command -v gcovr >/dev/null 2>&1; then
	echo "coverage: gcovr is missing (apt-get install gcovr); skipped" >&2
	exit 77
fi
src=$(cd "$1" && pwd)
keep=
if [ $# -ge 2 ]; then
	build=$2
	keep=yes
	mkdir -p "$build"
else
	build=$(mktemp -d "${TMPDIR:-/tmp}/smtpcode-coverage.XXXXXX")
	trap 'rm -rf "$build"' EXIT
fi
build=$(cd "$build" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# -O0 keeps lines and branches as written; no hardening flags (fortify
# needs optimisation and is not what is measured here).  The log modes run
# on several threads: counters updated atomically, or they race (gcov
# then reports negative counts, which gcovr cannot read).
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSMTPCODE_HARDEN=OFF \
	-DCMAKE_C_FLAGS="--coverage -fprofile-update=atomic -O0" \
	-DCMAKE_EXE_LINKER_FLAGS=--coverage \
	-DCMAKE_SHARED_LINKER_FLAGS=--coverage >"$build/coverage-configure.log" 2>&1 ||
	{ cat "$build/coverage-configure.log" >&2; exit 1; }
cmake --build "$build" -j "$jobs" >"$build/coverage-build.log" 2>&1 ||
	{ tail -50 "$build/coverage-build.log" >&2; exit 1; }
find "$build" -name '*.gcda' -exec rm -f {} +

tests_ok=yes
SMTPCODE_COVERAGE_BUILD=1 ctest --test-dir "$build" -j "$jobs" -E '^gcovr$' \
	>"$build/coverage-ctest.log" 2>&1 || tests_ok=no
grep -E '^[0-9]+% tests passed' "$build/coverage-ctest.log" || true
if [ "$tests_ok" = no ]; then
	echo "coverage: some tests failed in the coverage build (each fails in" \
		"the ordinary build too):"
	sed -n '/The following tests FAILED/,/^Errors/p' "$build/coverage-ctest.log" |
		grep -v '^Errors'
fi

# "lines: 94.6% (3385 out of 3577)" -> "94.6 3385 3577"
# The report goes to a file of the build, never -o /dev/null: gcovr 5.2
# checks an output by creating and then unlinking it, which as root
# deletes /dev/null.
summary() {
	gcovr -r "$src" --object-directory "$build" -j "$jobs" --print-summary \
		-o "$build/coverage-summary.txt" "$@" 2>/dev/null
}
figure() { # WHAT SUMMARY -> "PERCENT COVERED TOTAL"
	printf '%s\n' "$2" | sed -n "s/^$1: *\([0-9.]*\)% (\([0-9]*\) out of \([0-9]*\)).*/\1 \2 \3/p"
}

report=$(summary --filter "$src/src/" --exclude '.*/table\.c$')
set -- $(figure lines "$report") $(figure branches "$report")
if [ $# -ne 6 ]; then
	echo "coverage: could not read gcovr's summary:" >&2
	printf '%s\n' "$report" >&2
	exit 1
fi
lines=$1 branches=$4
echo "coverage of src/: lines $1% ($2 of $3), branches $4% ($5 of $6);" \
	"required: lines >= $LINES_MIN%, branches >= $BRANCHES_MIN%"

gen=$(summary --filter "$src/tools/gentable/")
check=$(summary --filter "$src/tools/gentable/check\.c")
set -- $(figure lines "$gen") $(figure branches "$gen") \
	$(figure lines "$check") $(figure branches "$check")
if [ $# -eq 12 ]; then
	echo "coverage of tools/gentable/: lines $1% ($2 of $3), branches $4% ($5 of $6);" \
		"check.c: lines $7% ($8 of $9), branches ${10}% (${11} of ${12})"
fi

# Per file, for whoever has to raise the figures.
gcovr -r "$src" --object-directory "$build" -j "$jobs" --filter "$src/src/" \
	--exclude '.*/table\.c$' -o "$build/coverage-src.txt" 2>/dev/null || true
gcovr -r "$src" --object-directory "$build" -j "$jobs" --filter "$src/src/" \
	--exclude '.*/table\.c$' --branches -o "$build/coverage-src-branches.txt" \
	2>/dev/null || true
if [ -n "$keep" ]; then
	echo "coverage: per-file reports in $build/coverage-src*.txt"
fi

status=0
awk -v v="$lines" -v m="$LINES_MIN" 'BEGIN { exit !(v + 0 < m + 0) }' && {
	echo "coverage: FAIL: lines $lines% < $LINES_MIN%"
	status=1
}
awk -v v="$branches" -v m="$BRANCHES_MIN" 'BEGIN { exit !(v + 0 < m + 0) }' && {
	echo "coverage: FAIL: branches $branches% < $BRANCHES_MIN%"
	status=1
}
[ "$status" -eq 0 ] && echo "coverage: ok"
exit "$status"
