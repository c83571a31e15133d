#!/bin/sh
# Where bounces are kept, as --mail reads them: an mbox (a message at each
# "From " line after a blank line), from a file and from standard input;
# a Maildir (cur/ and new/, not tmp/); a folder of files (not recursing,
# hidden files left out, in byte order of the names); any of these files
# compressed with gzip, and gzip data that is truncated, corrupt or a
# bomb; an entry that cannot be read.  Records name the message.
# usage: mailboxes.sh SMTPCODE
set -u
bin=$1
name=mailboxes
. "$(dirname "$0")/lib.sh"
mail=$(cd "$(dirname "$0")/../mail" && pwd)
cd "$tmp" || exit 2

# check WHAT WANT-STATUS WANT-STDERR (whole): the last run's status ($st)
# and stderr (err).
check() {
	got=$(cat err)
	if [ "$st" -eq "$2" ] && [ "$got" = "$3" ]; then
		ok
	else
		bad "$1: exit $st (want $2), stderr '$got' (want '$3')"
	fi
}
# same WHAT GOT WANT
same() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}
# fields FILE: each record's file, message, index and recipient, a line each.
fields() {
	jq -r '[.file, (.message // "null"), (.index // "null"), (.recipient // "null")] | map(tostring) | join(" ")' "$1"
}

cp "$mail/bounces.mbox" box
three='box 0 0 ana@example.com
box 1 0 bruno@example.net
box 2 0 chen@example.com'

# An mbox: three messages (a ">From " line and a "From " line that does
# not follow a blank one split nothing), in every format.
"$bin" --mail --json box >out 2>err
st=$?
check "--mail --json MBOX" 0 ""
same "--mail --json MBOX: records" "$(fields out)" "$three"
"$bin" --mail box >out 2>err
st=$?
check "--mail MBOX" 0 ""
same "--mail MBOX: headers" "$(grep '^box' out)" "box, message 1: delivery status notification (RFC 3464), 1 recipient
box, message 2: bounce (non-standard format), 1 recipient
box, message 3: delivery status notification (RFC 3464), 1 recipient"
"$bin" --mail --tsv box >out 2>err
st=$?
check "--mail --tsv MBOX" 0 ""
same "--mail --tsv MBOX: file, index, message" "$(cut -f 1,2,5 out | tr '\t' ' ')" "box #0 0
box #0 1
box #0 2"
# The same from standard input, and from a pipe.
"$bin" --mail --json <box >out 2>err
st=$?
check "--mail --json < MBOX" 0 ""
same "--mail --json < MBOX: records" "$(fields out | sed 's/^(standard input)/box/')" "$three"
cat box | "$bin" --mail --json - >out 2>err
st=$?
check "cat MBOX | --mail --json -" 0 ""
same "cat MBOX | --mail --json -: records" "$(fields out | sed 's/^(standard input)/box/')" "$three"
# A file that is one message: message null (JSON), "-" (TSV), no
# "message N" in text.
"$bin" --mail --json "$mail/exim.eml" >out 2>err
st=$?
check "--mail --json MESSAGE" 0 ""
same "--mail --json MESSAGE: message null" "$(jq -r '.message' out | sort -u)" "null"
"$bin" --mail --tsv "$mail/exim.eml" >out 2>err
same "--mail --tsv MESSAGE: message -" "$(cut -f 5 out | sort -u)" "-"
"$bin" --mail "$mail/exim.eml" >out 2>err
grep -q '^/.*/exim.eml: bounce' out && ok || bad "--mail MESSAGE: header"

# A Maildir: cur/ then new/, tmp/ left out; the records name DIR/cur/NAME.
"$bin" --mail --json "$mail/maildir" >out 2>err
st=$?
check "--mail --json MAILDIR" 0 ""
same "--mail --json MAILDIR: records" "$(fields out | sed "s|^$mail/||")" "maildir/cur/1715594400.M1P101.mx.example.org null 0 dana@example.com
maildir/new/1715594500.M2P102.mx.example.org null 0 eli@example.com"
# A folder: its files in byte order, hidden ones and subfolders left out;
# DIR/ names its files DIR/NAME.
"$bin" --mail --json "$mail/folder/" >out 2>err
st=$?
check "--mail --json DIR/" 0 ""
same "--mail --json DIR/: records" "$(fields out | sed "s|^$mail/||")" "folder/a.eml null 0 gus@example.com
folder/b.eml null 0 fay@example.com"

# gzip: an mbox and a message, alone and in a folder; two members, one
# after the other, are one stream.
mkdir gz
gzip -c box >gz/box.gz
gzip -c "$mail/exim.eml" >gz/exim.eml.gz
"$bin" --mail --json gz/box.gz >out 2>err
st=$?
check "--mail --json MBOX.gz" 0 ""
same "--mail --json MBOX.gz: records" "$(fields out | sed 's|^gz/box.gz|box|')" "$three"
"$bin" --mail --json <gz/box.gz >out 2>err
st=$?
check "--mail --json < MBOX.gz" 0 ""
same "--mail --json < MBOX.gz: records" "$(fields out | sed 's/^(standard input)/box/')" "$three"
"$bin" --mail --json gz >out 2>err
st=$?
check "--mail --json DIR of .gz" 0 ""
same "--mail --json DIR of .gz: files" "$(jq -r '[.file, (.message | tostring)] | join(" ")' out | uniq)" "gz/box.gz 0
gz/box.gz 1
gz/box.gz 2
gz/exim.eml.gz null"
sed -n '1,30p' box | gzip -c >two.gz
sed '1,30d' box | gzip -c >>two.gz
"$bin" --mail --json two.gz >out 2>err
st=$?
check "--mail --json TWO-MEMBERS.gz" 0 ""
same "--mail --json TWO-MEMBERS.gz: records" "$(fields out | sed 's|^two.gz|box|')" "$three"

# Truncated and corrupt gzip data: one line naming the file, exit 2; the
# messages before are explained, and the other files read.
size=$(wc -c <gz/box.gz)
head -c $((size - 12)) gz/box.gz >cut.gz
"$bin" --mail --json cut.gz "$mail/exim.eml" >out 2>err
st=$?
check "--mail TRUNCATED.gz" 2 "smtpcode: cut.gz: truncated gzip data"
same "--mail TRUNCATED.gz: what was read" "$(jq -r '.file' out | uniq | sed "s|^$mail/||")" "cut.gz
exim.eml"
printf '\037\213\010\000\000\000\000\000\000\003not deflate data' >bad.gz
"$bin" --mail bad.gz >out 2>err
st=$?
check "--mail CORRUPT.gz" 2 "smtpcode: bad.gz: corrupt gzip data (invalid block type)"
{ cat gz/box.gz; printf 'trailing garbage'; } >garbage.gz
"$bin" --mail --json garbage.gz >out 2>err
st=$?
check "--mail GARBAGE-AFTER.gz" 2 "smtpcode: garbage.gz: corrupt gzip data (incorrect header check)"
# (the last message ends where the data does: with the error, unread)
same "--mail GARBAGE-AFTER.gz: the messages before" "$(jq -r '.message' out | tr '\n' ' ')" "0 1 "

# An entry of a folder that cannot be read (a link to nothing): one line,
# exit 2 at the end, the other files read.
mkdir dir
cp "$mail/exim.eml" dir/a
cp box dir/c
ln -s nowhere dir/b
"$bin" --mail --json dir >out 2>err
st=$?
check "--mail DIR with a dangling link" 2 "smtpcode: dir/b: No such file or directory"
same "--mail DIR with a dangling link: what was read" "$(jq -r '.file' out | uniq | tr '\n' ' ')" "dir/a dir/c "
"$bin" --mail --json nowhere dir/a >out 2>err
st=$?
check "--mail MISSING FILE" 2 "smtpcode: nowhere: No such file or directory"
mkdir empty
"$bin" --mail --json empty >out 2>err
st=$?
check "--mail EMPTY-DIR" 1 "" # no record: as grep finding nothing
[ ! -s out ] && ok || bad "--mail EMPTY-DIR: output"

# A gzip bomb: 300 MiB of zeros inflate in a stream, each message under
# its limit, in 256 MiB of address space.
if (ulimit -v 262144 && exec "$bin" --version) >/dev/null 2>&1; then
	# (members one after another: 100 MiB of zeros compressed once)
	head -c 104857600 /dev/zero | gzip -1 -c >zeros.gz
	(ulimit -v 262144 && exec "$bin" --mail zeros.gz) >out 2>err
	st=$?
	check "--mail ZEROS.gz" 2 "smtpcode: zeros.gz: message too big (the limit is 64 MiB)"
	{
		printf 'From bomb\n' | gzip -c
		cat zeros.gz zeros.gz zeros.gz
		printf '\n\nFrom after\nSubject: the next message\n\nhello\n' | gzip -c
	} >bomb.gz
	(ulimit -v 262144 && exec "$bin" --mail bomb.gz) >out 2>err
	st=$?
	check "--mail BOMB.gz" 2 "smtpcode: bomb.gz, message 1: message too big (the limit is 64 MiB)"
	grep -q '^bomb.gz, message 2: not a bounce, 0 recipients$' out && ok ||
		bad "--mail BOMB.gz: the message after it"
else
	echo "$name: the gzip bomb skipped: $bin cannot run in 256 MiB of address space (a sanitizer build?)"
fi

finish
