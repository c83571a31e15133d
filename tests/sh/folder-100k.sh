#!/bin/sh
# A folder of 100,000 messages is one argument: `--mail DIR` reads them
# all, in byte order of their names, where `--mail DIR/*` would pass the
# argument list's limit on many systems.  The files are made in memory
# (/dev/shm) where it can be written: on this machine's disk, making and
# removing them took 10 to 50 s, reading them one.
# usage: folder-100k.sh SMTPCODE
set -u
bin=$1
name=folder-100k
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	TMPDIR=/dev/shm
	export TMPDIR
fi
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 2

# 100,000 messages of 4 lines, m00000 to m99999, written by split(1) in
# one process (a file a shell command would take a minute).
mkdir dir
awk 'BEGIN { for (i = 0; i < 100000; i++)
	printf "From: a@example.org\nSubject: note %d\n\nhello\n", i }' >all
(cd dir && split -a 5 -d -l 4 ../all m) || exit 2
n=$(ls dir | wc -l)
[ "$n" -eq 100000 ] || { bad "split made $n files"; finish; }

n=$("$bin" --mail --json dir 2>err | wc -l)
[ "$n" -eq 100000 ] && [ ! -s err ] && ok ||
	bad "--mail --json DIR: $n records, stderr '$(head -c 200 err)'"
"$bin" --mail --tsv dir >out 2>err
st=$?
[ "$st" -eq 0 ] && ok || bad "--mail --tsv DIR: exit $st"
first=$(head -n 1 out | cut -f 1)
last=$(tail -n 1 out | cut -f 1)
[ "$first" = dir/m00000 ] && [ "$last" = dir/m99999 ] && ok ||
	bad "--mail --tsv DIR: first '$first', last '$last'"
cut -f 1 out >names
LC_ALL=C sort -c names 2>/dev/null && ok || bad "--mail DIR: not in byte order"

finish
