#!/bin/sh
# outputs.sh BIN [GENLOG]: a digest of every output smtpcode BIN writes
# for a fixed set of inputs, one line per mode and input:
#     SHA256  EXIT-STATUS  MODE  INPUT
# Inputs: every code in the table, the test logs and bounces, the fuzz
# corpora, a generated log (GENLOG: the genlog program of a build) and
# generated bounces, and the real bounces of ../shared/corpus when that
# folder is there (lines for them start with "shared/").
#
# Two uses:
#  - before and after a change meant to leave every output as it was:
#        sh tests/sh/outputs.sh old/smtpcode old/genlog > before
#        sh tests/sh/outputs.sh new/smtpcode new/genlog > after
#        diff before after
#  - ctest's same_outputs test (tests/sh/same-outputs.sh) compares a build
#    with tests/outputs.txt, the digests of the last accepted outputs.
set -eu
bin=$1
genlog=${2:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
shared=$src/../shared/corpus/bounces
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run MODE-NAME INPUT-NAME CMD...: one digest line for CMD's stdout and
# stderr, and its exit status.
run() {
	mode=$1 input=$2
	shift 2
	set +e
	"$@" > "$tmp/out" 2>&1
	status=$?
	set -e
	printf '%s  %s  %s  %s\n' "$(sha256sum < "$tmp/out" | cut -c1-64)" \
	    "$status" "$mode" "$input"
}

# Lookups: every code, as text, JSON and TSV, and the list itself.
"$bin" --list -f code > "$tmp/codes"
for mode in "" -j -t -b; do
	run "lookup$mode" all-codes sh -c 'xargs "$0" '"$mode"' < "$1"' "$bin" "$tmp/codes"
done
run list "" "$bin" --list
run list-all-providers "" "$bin" --list -p all -j
run providers "" "$bin" --providers

# logs MODE-NAME INPUT-NAME FILE...: every log mode over the files.
logs() {
	name=$1
	shift
	for mode in --extract "--extract --json" "--extract --tsv" \
	    --annotate --summary "--summary --json"; do
		# shellcheck disable=SC2086
		run "$mode" "$name" "$bin" $mode "$@"
	done
}
# mails INPUT-NAME FILE...: --mail over the files, text and JSON.
mails() {
	name=$1
	shift
	run --mail "$name" "$bin" --mail "$@"
	run "--mail --json" "$name" "$bin" --mail --json "$@"
}

cd "$src"
for f in tests/logs/* fuzz/corpus/logline/* fuzz/corpus/reply/*; do
	logs "$f" "$f"
done
for f in tests/mail/*.eml tests/catalogue/mail/*.eml fuzz/corpus/mail/*; do
	mails "$f" "$f"
done
# Where bounces are kept: an mbox, a Maildir, a folder.
for f in tests/mail/bounces.mbox tests/mail/maildir tests/mail/folder; do
	mails "$f" "$f"
done
# Generated input, named relative to the scratch folder (file names are
# in the records).
if [ -n "$genlog" ]; then
	"$genlog" 4M 7 > "$tmp/gen.log"
	(cd "$tmp" && logs genlog-4M-7 gen.log)
	"$genlog" --mixed 4M 7 > "$tmp/mixed.log"
	(cd "$tmp" && logs genlog-mixed-4M-7 mixed.log)
fi
sh bench/genmail 300 "$tmp/mail" 3 >/dev/null
(cd "$tmp" && mails genmail-300-3 mail/*.eml)
if [ -d "$shared" ]; then
	for d in "$shared"/*/; do
		d=${d%/}
		name=shared/${d##*/}
		(cd "$d/.." && mails "$name" "${d##*/}"/*)
	done
fi
