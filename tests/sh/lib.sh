# Shared by the shell tests (sourced after setting name=...): a scratch
# folder, $tmp, removed at exit; counters of the checks that passed and
# failed; the last line, which reports them and sets the exit status.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# finish [NOTE]: "NAME: P passed, F failed", then exit 0 when none failed.
finish() {
	if [ "$pass" -gt 0 ]; then
		echo "$name: $pass passed, $fails failed${1:+ ($1)}"
	else
		echo "$name: $fails failed${1:+ ($1)}"
	fi
	[ "$fails" -eq 0 ]
	exit
}

# skip_without_room BIN: exit 77 (ctest's "skipped") where BIN cannot run
# in 256 MiB of address space, as a sanitizer build cannot: its shadow
# memory makes limits and RSS meaningless.
skip_without_room() {
	if ! (ulimit -v 262144 && exec "$1" --version) >/dev/null 2>&1; then
		echo "$name: skipped: $1 cannot run in 256 MiB of address space (a sanitizer build?)"
		exit 77
	fi
}
